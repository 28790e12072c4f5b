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

#endif
