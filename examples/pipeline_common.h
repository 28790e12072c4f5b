/* What the device-pipeline examples (cl_pipeline.c, gl_pipeline.c,
 * vk_pipeline.c) share; each keeps only its own API's part:
 *
 *   1. the application's kernel draws a test image into its own buffer on
 *      the accelerator's device (pipeline_native_device's);
 *   2. pipeline_run_wrapped wraps that buffer and a second one for the
 *      model's output and runs the model on them (no host copy);
 *   3. the application's second kernel sums the output on the device;
 *   4. pipeline_check runs the same image, drawn on the CPU, with host
 *      buffers and compares the sums.
 *
 * The model is selfie_segmentation (input SIDE x SIDE x 3 floats in [0, 1],
 * output a mask of floats). Every function prints its own one-line error,
 * prefixed by the example's name, and returns an exit status: 0 on
 * success, 1 on an error, 77 (automake's skip) when the accelerator is not
 * available here. */
#ifndef TFLACCEL_EXAMPLES_PIPELINE_COMMON_H
#define TFLACCEL_EXAMPLES_PIPELINE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "tflaccel/tflaccel.h"

#define PIPELINE_SIDE 256 /* the model's input is SIDE x SIDE x 3 floats */

typedef struct pipeline {
  const char *name;        /* the example's, first in every message */
  const char *accelerator; /* "gpu_cl", "gpu_gl", "gpu_vk" */
  tflaccel_environment *environment;
  tflaccel_model *model;
  tflaccel_compiled_model *compiled;
  size_t input_bytes, output_bytes; /* of input 0 and output 0 */
  tflaccel_native_device device;    /* the accelerator's, reading input 0 */
} pipeline;

/* Usage: NAME [MODEL] (default: selfie_segmentation.tflite in
 * $TFLACCEL_TEST_DATA). Compiles the model for `accelerator` alone and
 * fills *self; 77 when the accelerator is not available or does not take
 * buffers of `buffer_type` for the model's input (the reason printed).
 * pipeline_close frees what was made, whatever this returned. */
int pipeline_open(pipeline *self, const char *name, const char *accelerator, int32_t buffer_type,
                  int argc, char **argv);
void pipeline_close(pipeline *self);

/* Prints "NAME: what: status message" (or "failed" for NULL), frees the
 * status, returns 1. */
int pipeline_fail(const pipeline *self, const char *what, tflaccel_status status);

/* Wraps the application's native buffers, image as input 0 and mask as
 * output 0, runs the model on them and gives the run's host copies. The
 * application's work on image must be complete (the accelerator reads it
 * next), and mask is written when this returns (the run is synchronous). */
int pipeline_run_wrapped(pipeline *self, const tflaccel_native_buffer *image,
                         const tflaccel_native_buffer *mask, uint32_t *host_copies);

/* The check: the same image drawn on the CPU, run with host buffers,
 * summed on the CPU; device_sum must agree and device_copies be 0. Prints
 * both. */
int pipeline_check(pipeline *self, float device_sum, uint32_t device_copies);

#endif
