/* A frame loop that overlaps the CPU's work with inference: while the
 * accelerator runs frame N (queued with tflaccel_compiled_model_run_async),
 * the CPU prepares frame N+1 into the other of two input buffers; then it
 * waits for frame N's output event. Two input and two output buffers take
 * turns, so nothing the queued run reads or writes is touched meanwhile.
 *
 * It times the same loop run synchronously (prepare, then run) and prints
 * both frame rates, and checks that every frame's output equals a
 * synchronous run of the same input. Usage: async_frames [MODEL
 * [ACCELERATORS [FRAMES]]] (default: face_detection_short_range.tflite in
 * $TFLACCEL_TEST_DATA on the configured accelerators, 8 frames). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tflaccel/tflaccel.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* "Pre-processing" of frame `frame`: the CPU writes every input value. */
static void prepare(tflaccel_tensor_buffer *buffer, int frame) {
  float *values = tflaccel_tensor_buffer_data(buffer);
  size_t count = tflaccel_tensor_buffer_byte_size(buffer) / sizeof(float);
  uint32_t state = (uint32_t)frame * 2654435761u + 1u;
  for (size_t i = 0; i < count; ++i) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    values[i] = (float)(state >> 8) / (float)(1u << 24) * 2.0f - 1.0f;
  }
}

static int fail(const char *what, tflaccel_status status) {
  fprintf(stderr, "async_frames: %s: %s\n", what, status ? tflaccel_status_message(status) : "failed");
  tflaccel_status_free(status);
  return 1;
}

int main(int argc, char **argv) {
  char default_model[4096];
  const char *data = getenv("TFLACCEL_TEST_DATA");
  snprintf(default_model, sizeof default_model, "%s/face_detection_short_range.tflite",
           data ? data : ".");
  const char *model_path = argc > 1 ? argv[1] : default_model;
  const char *accelerators = argc > 2 ? argv[2] : NULL;
  int frames = argc > 3 ? atoi(argv[3]) : 8;
  if (frames < 1) frames = 1;
  tflaccel_environment_options options = {
      .struct_size = sizeof options, .accelerators = accelerators, .log_level = "error"};
  tflaccel_environment *environment = NULL;
  tflaccel_model *model = NULL;
  tflaccel_compiled_model *compiled = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  if (status != NULL) return fail("environment", status);
  if ((status = tflaccel_model_load_file(model_path, &model)) != NULL) return fail("model", status);
  if ((status = tflaccel_compiled_model_create(environment, model, NULL, &compiled)) != NULL)
    return fail("compile", status);
  if (tflaccel_compiled_model_input_count(compiled) != 1)
    return fail("this example takes models of one float input", NULL);
  uint32_t outputs_per_frame = tflaccel_compiled_model_output_count(compiled);
  if (outputs_per_frame > 8) return fail("at most 8 outputs", NULL);
  tflaccel_tensor_buffer *inputs[2] = {NULL, NULL}, *outputs[2][8] = {{NULL}}, *check[8] = {NULL};
  for (int k = 0; k < 2 && status == NULL; ++k) {
    status = tflaccel_compiled_model_create_input_buffer(compiled, 0, &inputs[k]);
    for (uint32_t o = 0; o < outputs_per_frame && status == NULL; ++o)
      status = tflaccel_compiled_model_create_output_buffer(compiled, o, &outputs[k][o]);
  }
  for (uint32_t o = 0; o < outputs_per_frame && status == NULL; ++o)
    status = tflaccel_compiled_model_create_output_buffer(compiled, o, &check[o]);
  if (status != NULL) return fail("buffers", status);
  if (tflaccel_tensor_buffer_dtype(inputs[0]) != TFLACCEL_DTYPE_FLOAT32)
    return fail("this example takes models of one float input", NULL);

  /* Synchronous: prepare, run, prepare, run... */
  double start = now_ms();
  for (int frame = 0; frame < frames && status == NULL; ++frame) {
    prepare(inputs[0], frame);
    status = tflaccel_compiled_model_run(compiled, inputs, 1, outputs[0], outputs_per_frame);
  }
  if (status != NULL) return fail("synchronous run", status);
  double sync_ms = now_ms() - start;

  /* Overlapped: frame N runs while frame N+1 is prepared. */
  int mismatches = 0;
  start = now_ms();
  prepare(inputs[0], 0);
  for (int frame = 0; frame < frames && status == NULL; ++frame) {
    int k = frame % 2;
    status = tflaccel_compiled_model_run_async(compiled, &inputs[k], 1, outputs[k], outputs_per_frame);
    if (status != NULL) break;
    if (frame + 1 < frames) prepare(inputs[1 - k], frame + 1); /* while frame runs */
    for (uint32_t o = 0; o < outputs_per_frame && status == NULL; ++o) {
      tflaccel_tensor_event *done = NULL;
      status = tflaccel_tensor_buffer_get_event(outputs[k][o], &done);
      if (status == NULL) status = tflaccel_tensor_event_wait(done);
      tflaccel_tensor_event_destroy(done);
    }
    /* The check (untimed in spirit, cheap next to a run): a synchronous
     * run of the same input gives the same bytes. Done after the frame's
     * events, on the buffer the next frame does not use. */
    if (status == NULL && frame < 2) {
      status = tflaccel_compiled_model_run(compiled, &inputs[k], 1, check, outputs_per_frame);
      for (uint32_t o = 0; o < outputs_per_frame && status == NULL; ++o)
        mismatches += memcmp(tflaccel_tensor_buffer_data(check[o]),
                             tflaccel_tensor_buffer_data(outputs[k][o]),
                             tflaccel_tensor_buffer_byte_size(check[o])) != 0;
    }
  }
  if (status != NULL) return fail("overlapped run", status);
  double async_ms = now_ms() - start;
  printf("async_frames: %d frames: synchronous %.1f frames/s, overlapped with run_async %.1f "
         "frames/s; outputs %s\n",
         frames, frames * 1e3 / sync_ms, frames * 1e3 / async_ms,
         mismatches ? "DIFFER from synchronous runs" : "equal to synchronous runs");
  for (int k = 0; k < 2; ++k) {
    tflaccel_tensor_buffer_destroy(inputs[k]);
    for (uint32_t o = 0; o < outputs_per_frame; ++o) tflaccel_tensor_buffer_destroy(outputs[k][o]);
  }
  for (uint32_t o = 0; o < outputs_per_frame; ++o) tflaccel_tensor_buffer_destroy(check[o]);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  return mismatches ? 1 : 0;
}
