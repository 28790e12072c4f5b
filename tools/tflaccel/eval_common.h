/* What both tasks of `tflaccel eval` (cmd_eval.c: classification,
 * eval_detection.c: object detection) do the same way, as run_eval does:
 * the header lines before the first image, one image's decode, preprocess
 * and run with its two latencies, the latency lines of the figures, and
 * the figures written again to --output_file_path. */
#ifndef TFLACCEL_TOOLS_EVAL_COMMON_H
#define TFLACCEL_TOOLS_EVAL_COMMON_H

#include <stdio.h>

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/bench_buffers.h"
#include "tools/tflaccel/bench_placement.h"
#include "tools/tflaccel/image_preprocess.h"
#include "tools/tflaccel/stats.h"

/* The accelerators, where each op runs and the input normalization. */
void eval_print_header(const tflaccel_environment *environment, const op_placement *placement,
                       const image_normalization *normalization, int from_metadata);

/* Decodes the image at path into the model's input buffer (image_preprocess
 * with crop_fraction), runs the model and adds the two latencies. */
tflaccel_status eval_run_image(const char *path, const tflaccel_tensor_info *input,
                               const image_normalization *normalization, double crop_fraction,
                               tflaccel_compiled_model *compiled, model_buffers *buffers,
                               run_stats *preprocessing, run_stats *inference);

/* run_eval's first three lines of figures. */
void eval_print_latencies(FILE *out, size_t runs, const run_stats *preprocessing,
                          const run_stats *inference);

/* Writes the figures to path through print(out, context); 0, or 1 after
 * printing one line "<command>: <problem>". */
int eval_write_figures(const char *command, const char *path,
                       void (*print)(FILE *out, const void *context), const void *context);

#endif
