/* mkdir -p for output directories the user names. */
#ifndef TFLACCEL_TOOLS_MAKE_DIRECTORY_H
#define TFLACCEL_TOOLS_MAKE_DIRECTORY_H

#include "tflaccel/status.h"

/* Makes path and every missing parent (mode 0777 less the umask); an
 * existing directory is fine, an existing non-directory is an error. */
tflaccel_status make_directory_tree(const char *path);

#endif
