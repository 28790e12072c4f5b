/* Shared by the device-buffer tests: an environment for one accelerator
 * (with cpu_ref as the fallback), a compiled model of a test-data model,
 * and host inputs with the outputs a host run gives for them. */
#ifndef TFLACCEL_TESTS_RUNTIME_DEVICE_BUFFER_FIXTURE_H
#define TFLACCEL_TESTS_RUNTIME_DEVICE_BUFFER_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "tflaccel/tflaccel.h"

#define FIXTURE_MAX_TENSORS 8

typedef struct device_fixture {
  tflaccel_environment *environment;
  tflaccel_model *model;
  tflaccel_compiled_model *compiled;
  uint32_t input_count, output_count;
  tflaccel_tensor_buffer *inputs[FIXTURE_MAX_TENSORS];  /* host, filled */
  tflaccel_tensor_buffer *outputs[FIXTURE_MAX_TENSORS]; /* host, the reference run's */
} device_fixture;

/* 0 (and a printed reason) when the accelerator is not available here;
 * otherwise the fixture is made and the reference host run done. */
int device_fixture_open(device_fixture *fixture, const char *accelerator, const char *model_file);
/* The same with a tflaccel.ini of the test's (NULL: the default search). */
int device_fixture_open_config(device_fixture *fixture, const char *accelerator,
                               const char *model_file, const char *config_path);
void device_fixture_close(device_fixture *fixture);
/* Asserts status is an error whose one-line message holds fragment and,
 * unless code is -1, whose code is code; frees it. */
void fixture_expect_error(tflaccel_status status, int32_t code, const char *fragment);
/* Device buffers of type for every input and output, the inputs written
 * with the fixture's inputs. */
void device_fixture_make_device_buffers(const device_fixture *fixture, int32_t type,
                                        tflaccel_tensor_buffer **inputs,
                                        tflaccel_tensor_buffer **outputs);
/* Destroys the fixture's count buffers of make_device_buffers. */
void device_fixture_destroy_buffers(tflaccel_tensor_buffer **buffers, uint32_t count);
/* Fills a buffer with deterministic values (floats in [-1, 1]). */
void device_fixture_fill(tflaccel_tensor_buffer *buffer, uint32_t seed);
/* Asserts buffer holds exactly the reference output `index`. */
void device_fixture_check_output(const device_fixture *fixture, uint32_t index,
                                 tflaccel_tensor_buffer *buffer);

#endif
