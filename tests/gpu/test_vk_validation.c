/* gpu_vk under the Vulkan validation layer: a real model (tests/data's
 * face_detection_short_range) runs fully on gpu_vk with the plugin option
 * validation=1, which enables VK_LAYER_KHRONOS_validation with
 * synchronization validation and fails any plugin call during which the
 * layer reports an error. Compiling, two runs (the second replays the
 * recorded command buffer) and teardown must all succeed, in fp32 and
 * fp16, and the outputs must match the TFLite references; in fp32 also
 * with device_local_io = 1 (the core's buffers device-local, copied through
 * host-visible mirrors in each run's submission, as on a discrete GPU).
 * Skips (77) when there is no Vulkan device or the layer is not
 * installed. */
#include "config.h"

#include <dlfcn.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include "tests/support/json.h"
#include "tests/support/model_compare.h"
#include "tests/gpu/vk_layer_keep_loaded.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define SKIP_EXIT_STATUS 77
#define MODEL_NAME "face_detection_short_range"

static const char config_text[] =
    "[tflaccel]\n"
    "accelerators = gpu_vk, cpu_ref\n"
    "[plugin.cpu_ref]\n"
    "[plugin.gpu_vk]\n"
    "validation = 1\n";

static const char device_local_config_text[] =
    "[tflaccel]\n"
    "accelerators = gpu_vk, cpu_ref\n"
    "[plugin.cpu_ref]\n"
    "[plugin.gpu_vk]\n"
    "validation = 1\n"
    "device_local_io = 1\n";

#define FORMAT_PATH(buffer, ...)                                                       \
  ck_assert_msg(snprintf((buffer), sizeof(buffer), __VA_ARGS__) < (int)sizeof(buffer), \
                "path too long")

/* label: how messages name this case. */
static void check_model(int32_t precision, const char *plugin_config, const char *label) {
  const char *data = getenv("TFLACCEL_TEST_DATA");
  ck_assert_msg(data != NULL, "TFLACCEL_TEST_DATA is not set (run through make check)");
  char path[4096];
  FORMAT_PATH(path, "%s/expected.json", data);
  json_value *expected = json_parse_file(path);
  ck_assert_ptr_nonnull(expected);
  const json_value *entry = json_get(expected, MODEL_NAME);
  ck_assert_ptr_nonnull(entry);

  /* In this (forked) case, before the plugin creates its instance: the
   * layer stays mapped after the loader closes it, so that LeakSanitizer
   * names the layer's own leaks by its module (tests/sanitizers/lsan.supp). */
  ck_assert_msg(vk_layer_keep_loaded("VK_LAYER_KHRONOS_validation") == 0,
                "cannot keep the validation layer loaded");
  char *directory = test_make_temp_dir();
  char *config = test_write_file(directory, "tflaccel.ini", plugin_config);
  model_compare_session session;
  model_compare_session_open(&session, config, "gpu_vk", "error", data, MODEL_NAME, precision,
                             label);
  /* Twice: the first run records the command buffer, the second replays it. */
  model_compare_session_run(&session, 2, label);
  uint32_t output_count = session.output_count;
  tflaccel_tensor_buffer **outputs = session.outputs;

  const json_value *expected_outputs = json_get(entry, "outputs");
  ck_assert_uint_eq(expected_outputs->count, output_count);
  for (uint32_t i = 0; i < output_count; ++i) {
    const json_value *output = &expected_outputs->items[i];
    FORMAT_PATH(path, "%s/ref/%s/%s", data, MODEL_NAME, json_get(output, "file")->string);
    size_t size = 0;
    void *reference = model_compare_read_file(path, &size);
    ck_assert_msg(reference != NULL, "cannot read %s", path);
    ck_assert_uint_eq(size, tflaccel_tensor_buffer_byte_size(outputs[i]));
    char why[512];
    const char *failure = model_compare_output(
        json_get(output, "tolerance"),
        precision == TFLACCEL_PRECISION_FP16 ? "rtol_fp16" : "rtol_fp32", TFLACCEL_DTYPE_FLOAT32,
        tflaccel_tensor_buffer_data(outputs[i]), reference, size / sizeof(float), why, sizeof why);
    ck_assert_msg(failure == NULL, "%s (%s) output %u: %s", MODEL_NAME, label, i, failure);
    free(reference);
  }
  printf("%s (%s): fully on gpu_vk, no validation error, %u outputs within tolerance\n", MODEL_NAME,
         label, output_count);
  /* Tearing down the device and instance is validated too; errors then are
   * logged, not returned, so the log level above keeps them visible. */
  model_compare_session_close(&session);
  json_destroy(expected);
  test_remove_tree(directory);
  free(config);
  free(directory);
}

START_TEST(model_runs_clean_in_fp32) { check_model(TFLACCEL_PRECISION_FP32, config_text, "fp32"); }
END_TEST

START_TEST(model_runs_clean_in_fp16) { check_model(TFLACCEL_PRECISION_FP16, config_text, "fp16"); }
END_TEST

START_TEST(model_runs_clean_with_device_local_io) {
  check_model(TFLACCEL_PRECISION_FP32, device_local_config_text, "fp32, device_local_io");
}
END_TEST

/* The layer finder itself (vk_layer_keep_loaded.c), on manifests of the
 * test's own in VK_LAYER_PATH: a layer named there is opened (a bare library
 * name through the search path), one named nowhere or whose library does
 * not exist is refused. */
START_TEST(layer_finder_reads_manifests) {
  char *directory = test_make_temp_dir();
  char *manifest = test_write_file(
      directory, "fake.json",
      "{\"file_format_version\": \"1.2.0\", \"layer\": {\"name\": \"VK_LAYER_tflaccel_fake\", "
      "\"library_path\": \"libm.so.6\"}}");
  char *missing = test_write_file(
      directory, "missing.json",
      "{\"file_format_version\": \"1.2.0\", \"layer\": {\"name\": \"VK_LAYER_tflaccel_missing\", "
      "\"library_path\": \"./libtflaccel_no_such_layer.so\"}}");
  ck_assert_int_eq(setenv("VK_LAYER_PATH", directory, 1), 0);
  ck_assert_int_eq(vk_layer_keep_loaded("VK_LAYER_tflaccel_fake"), 0);
  ck_assert_ptr_nonnull(dlopen("libm.so.6", RTLD_NOW | RTLD_NOLOAD));
  ck_assert_int_eq(vk_layer_keep_loaded("VK_LAYER_tflaccel_missing"), -1);
  ck_assert_int_eq(vk_layer_keep_loaded("VK_LAYER_tflaccel_named_nowhere"), -1);
  ck_assert_int_eq(unsetenv("VK_LAYER_PATH"), 0);
  test_remove_tree(directory);
  free(manifest);
  free(missing);
  free(directory);
}
END_TEST

static int layer_installed(void) {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, NULL) != VK_SUCCESS || count == 0) return 0;
  VkLayerProperties *layers = calloc(count, sizeof *layers);
  if (layers == NULL) return 0;
  int found = 0;
  VkResult result = vkEnumerateInstanceLayerProperties(&count, layers);
  for (uint32_t i = 0; (result == VK_SUCCESS || result == VK_INCOMPLETE) && i < count; ++i)
    if (!strcmp(layers[i].layerName, "VK_LAYER_KHRONOS_validation")) found = 1;
  free(layers);
  return found;
}

/* Whether gpu_vk has a device here and the layer exists (else: skip). */
static int can_run(void) {
  if (!layer_installed()) {
    printf(
        "SKIP: VK_LAYER_KHRONOS_validation is not installed (Debian: "
        "vulkan-validationlayers)\n");
    return 0;
  }
  return model_compare_accelerator_available("gpu_vk");
}

int main(void) {
  /* Probed in a child: Check forks the tests, and no driver may be loaded
   * before that. */
  fflush(NULL);
  pid_t child = fork();
  if (child == 0) _exit(can_run() ? 0 : SKIP_EXIT_STATUS);
  int wait_status = 0;
  if (child > 0 && waitpid(child, &wait_status, 0) == child && WIFEXITED(wait_status) &&
      WEXITSTATUS(wait_status) == SKIP_EXIT_STATUS)
    return SKIP_EXIT_STATUS;
  Suite *suite = suite_create("gpu_vk validation");
  TCase *tcase = tcase_create("gpu_vk validation");
  tcase_set_timeout(tcase, 900);
  tcase_add_test(tcase, layer_finder_reads_manifests);
  tcase_add_test(tcase, model_runs_clean_in_fp32);
  tcase_add_test(tcase, model_runs_clean_in_fp16);
  tcase_add_test(tcase, model_runs_clean_with_device_local_io);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
