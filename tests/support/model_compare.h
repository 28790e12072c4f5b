/* Comparing a model's outputs with the reference outputs of the real TFLite
 * interpreter under the tolerances of expected.json (see
 * ../shared/models/README.md): for the model tests on every accelerator. */
#ifndef TFLACCEL_TESTS_SUPPORT_MODEL_COMPARE_H
#define TFLACCEL_TESTS_SUPPORT_MODEL_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "tests/support/json.h"

/* A whole file (an input or a reference output) into memory; NULL when it
 * cannot be read. The caller frees it. */
void *model_compare_read_file(const char *path, size_t *size);

/* Element `index` of raw tensor data of tflaccel dtype `dtype` as a double;
 * NAN for a dtype it does not know. */
double model_compare_value_at(const void *data, int32_t dtype, size_t index);

/* Compares `count` elements of one output with its reference under an
 * expected.json tolerance object: "float" (max |ours - ref| <= rtol *
 * max(1, max |ref|), rtol from member rtol_key: "rtol_fp32" or "rtol_fp16";
 * every element finite), "quantized" (at most max_lsb apart) or "index"
 * (at least min_identical_fraction equal). Returns NULL when it passes, else
 * a one-line description of the failure written into why. */
const char *model_compare_output(const json_value *tolerance, const char *rtol_key, int32_t dtype,
                                 const void *ours, const void *reference, size_t count, char *why,
                                 size_t why_size);

/* Whether the plugin `name` loads and has a device here (with cpu_ref as
 * the fallback), printing "SKIP: name: reason" when it does not. */
int model_compare_accelerator_available(const char *name);

/* Creates the compiled model's input buffers and fills each with the
 * reference input data_dir/ref/<model>/input_<i>.bin, failing the test
 * when one cannot be made or read. */
struct tflaccel_compiled_model;
struct tflaccel_tensor_buffer;
void model_compare_fill_inputs(struct tflaccel_compiled_model *compiled, const char *data_dir,
                               const char *model, struct tflaccel_tensor_buffer **inputs,
                               uint32_t count);

#define MODEL_COMPARE_MAX_TENSORS 8

/* A model compiled wholly on one accelerator, its reference inputs loaded
 * and its output buffers made: what the tests that run a real model on a
 * GPU plugin share. */
struct tflaccel_environment;
struct tflaccel_model;
typedef struct model_compare_session {
  struct tflaccel_environment *environment;
  struct tflaccel_model *model;
  struct tflaccel_compiled_model *compiled;
  uint32_t input_count, output_count;
  struct tflaccel_tensor_buffer *inputs[MODEL_COMPARE_MAX_TENSORS];
  struct tflaccel_tensor_buffer *outputs[MODEL_COMPARE_MAX_TENSORS];
} model_compare_session;

/* An environment with config_path (NULL: none) for "accelerator,cpu_ref",
 * logging at log_level; data_dir/<model>.tflite compiled at precision (-1:
 * the config's), every partition on accelerator. Fails the test otherwise;
 * label names the case in its messages. */
void model_compare_session_open(model_compare_session *session, const char *config_path,
                                const char *accelerator, const char *log_level,
                                const char *data_dir, const char *model, int32_t precision,
                                const char *label);
/* Runs the model `runs` times, failing the test on an error. */
void model_compare_session_run(model_compare_session *session, int runs, const char *label);
/* Destroys the buffers, the compiled model, the model and the environment,
 * in that order. */
void model_compare_session_close(model_compare_session *session);

#endif
