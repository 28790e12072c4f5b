/* Drop-in plugin sections: every DIR/\*.ini (in byte order of the names)
 * may add [plugin.NAME] sections to a configuration, so that a plugin
 * package ships its own section instead of editing tflaccel.ini.
 *
 * What is already set wins: a plugin the configuration (or an earlier
 * drop-in) already has keeps its library, enabled and options, and gains
 * only the options it lacks; a new plugin is appended with its section.
 * A drop-in may not change a [tflaccel] setting (that is the main file's). */
#ifndef TFLACCEL_CORE_CONFIG_PLUGIN_DROPINS_H
#define TFLACCEL_CORE_CONFIG_PLUGIN_DROPINS_H

#include "core/config/ini_config.h"

/* A missing directory adds nothing and is not an error; an unreadable one,
 * a malformed drop-in ("FILE:LINE: ...") or one with a global setting is. */
tflaccel_status config_merge_plugin_dropins(tflaccel_config *config, const char *directory);

#endif
