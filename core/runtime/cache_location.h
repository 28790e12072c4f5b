/* Where the compiled-model cache lives, decided once per environment:
 * $TFLACCEL_CACHE_DIR, else the ini's cache_dir, else
 * $XDG_CACHE_HOME/tflaccel (default ~/.cache/tflaccel); off with
 * `cache = off` or TFLACCEL_CACHE=off. The default location is made when
 * missing, parents included (0700 each, as XDG asks); a configured one
 * only as its last component, when its parent exists (a typo never grows a
 * tree). Without a home (HOME unset, or not a directory, as a Debian build
 * user's /nonexistent) and no XDG_CACHE_HOME, the cache is off (INFO).
 * The directory must be the user's own and writable by no one else; one
 * that cannot be made or is not private turns the cache off with one
 * warning and the run goes on. It is trimmed to cache_max_mb (least
 * recently used entries first) here, when the environment starts. */
#ifndef TFLACCEL_CORE_RUNTIME_CACHE_LOCATION_H
#define TFLACCEL_CORE_RUNTIME_CACHE_LOCATION_H

#include <stdint.h>

#include "core/config/ini_config.h"
#include "tflaccel/status.h"

/* Replaces config->cache_dir with the directory to use, or NULL (off).
 * Fails only when out of memory. */
tflaccel_status cache_location_resolve(tflaccel_config *config, int32_t log_level);

#endif
