/* The images a directory holds for tflaccel eval (run_eval's order): every
 * .jpg, .jpeg and .png file (any case; hidden files skipped), as full paths
 * sorted by file name. */
#ifndef TFLACCEL_TOOLS_IMAGE_LIST_H
#define TFLACCEL_TOOLS_IMAGE_LIST_H

#include "tflaccel/status.h"
#include "tools/tflaccel/text_lines.h"

/* An unreadable directory or one without images is an error naming
 * --ground_truth_images_path. */
tflaccel_status image_list_read(const char *dir, text_lines *images);

#endif
