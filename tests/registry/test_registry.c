/* The plugin loader against broken stub plugins: each failure must show up
 * as an unavailable plugin with its reason, never a crash or a silent skip. */
#include "config.h"

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/ini_config.h"
#include "core/registry/registry.h"
#include "core/registry/selection.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

typedef struct stub_expectation {
  const char *name;
  int available;
  const char *reason_part; /* must occur in the reason */
} stub_expectation;

static const stub_expectation stubs[] = {
    {"stub_ok", 1, NULL},
    {"stub_wrong_major", 0, "built for accelerator ABI 2"},
    {"stub_no_entry", 0, "has no tflaccel_accelerator_entry_v1 symbol"},
    {"stub_init_fails", 0, "stub driver failed to start (error -42)"},
    {"stub_no_device", 0, "found no device"},
    {"stub_newer_minor", 0, "upgrade tflaccel"},
    {"stub_null_init", 0, "lacks init"},
    {"stub_refuses_host", 0, "refused this tflaccel's accelerator ABI"},
};

/* A config naming one stub (by absolute path) plus cpu_ref. */
static char *write_stub_config(const char *dir, const char *stub) {
  char text[2048];
  snprintf(text, sizeof text,
           "[tflaccel]\naccelerators = %s, cpu_ref\n"
           "[plugin.%s]\nlibrary = %s/lib%s.so\n"
           "[plugin.cpu_ref]\n",
           stub, stub, STUB_DIR, stub);
  return test_write_file(dir, "tflaccel.ini", text);
}

START_TEST(broken_plugins_are_unavailable_with_reason) {
  const stub_expectation *expected = &stubs[_i];
  char *dir = test_make_temp_dir();
  char *config_path = write_stub_config(dir, expected->name);
  tflaccel_environment_options options = {.struct_size = sizeof options, .config_path = config_path,
                                          .log_level = "error"};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  ck_assert_msg(status == NULL, "environment: %s", tflaccel_status_message(status));
  ck_assert_uint_eq(tflaccel_environment_plugin_count(environment), 2);
  tflaccel_plugin_info info = {.struct_size = sizeof info};
  status = tflaccel_environment_plugin_info(environment, 0, &info);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_str_eq(info.name, expected->name);
  ck_assert_int_eq(info.available, expected->available);
  if (expected->available) {
    ck_assert_ptr_null(info.reason);
    ck_assert_uint_eq(info.device_count, 1);
    ck_assert_uint_eq(info.abi_version, TFLACCEL_ABI_VERSION);
    tflaccel_device_info device = {.struct_size = sizeof device};
    status = tflaccel_environment_device_info(environment, 0, 0, &device);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    ck_assert_str_eq(device.name, "stub device");
  } else {
    ck_assert_ptr_nonnull(info.reason);
    ck_assert_msg(strstr(info.reason, expected->reason_part) != NULL,
                  "reason '%s' lacks '%s'", info.reason, expected->reason_part);
    ck_assert_uint_eq(info.device_count, 0);
  }
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config_path);
  free(dir);
}
END_TEST

START_TEST(missing_library_is_unavailable) {
  char *dir = test_make_temp_dir();
  char *config_path = test_write_file(dir, "tflaccel.ini",
                                      "[plugin.gpu_missing]\nlibrary = libdoes_not_exist.so\n"
                                      "[plugin.cpu_ref]\nlibrary = /nonexistent/libcpu_ref.so\n");
  tflaccel_environment_options options = {.struct_size = sizeof options, .config_path = config_path,
                                          .log_level = "error"};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_plugin_info info = {.struct_size = sizeof info};
  ck_assert_ptr_null(tflaccel_environment_plugin_info(environment, 0, &info));
  ck_assert_int_eq(info.available, 0);
  ck_assert_msg(strstr(info.reason, "libdoes_not_exist.so not found in") != NULL, "%s", info.reason);
  /* Not installed is a state of its own (a plugin package absent), told apart
   * from a library that is there but broken. */
  ck_assert_int_eq(info.not_installed, 1);
  ck_assert_msg(strncmp(info.reason, "not installed: ", 15) == 0, "%s", info.reason);
  /* A caller built before not_installed was appended gets the older fields
   * and nothing is written past its struct. */
  struct {
    tflaccel_plugin_info info;
    unsigned char guard[16];
  } older;
  memset(&older, 0xA5, sizeof older);
  older.info.struct_size = (uint32_t)offsetof(tflaccel_plugin_info, not_installed);
  ck_assert_ptr_null(tflaccel_environment_plugin_info(environment, 0, &older.info));
  ck_assert_uint_eq(older.info.struct_size, offsetof(tflaccel_plugin_info, not_installed));
  ck_assert_str_eq(older.info.name, "gpu_missing");
  ck_assert_int_eq(older.info.available, 0);
  ck_assert_int_eq(*(int32_t *)((unsigned char *)&older.info +
                                offsetof(tflaccel_plugin_info, not_installed)),
                   (int32_t)0xA5A5A5A5);
  tflaccel_plugin_info too_small = {.struct_size = 8};
  tflaccel_status status_small = tflaccel_environment_plugin_info(environment, 0, &too_small);
  ck_assert_ptr_nonnull(status_small);
  tflaccel_status_free(status_small);
  /* A missing path given in the library key is not installed either. */
  tflaccel_plugin_info cpu = {.struct_size = sizeof cpu};
  ck_assert_ptr_null(tflaccel_environment_plugin_info(environment, 1, &cpu));
  ck_assert_int_eq(cpu.not_installed, 1);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config_path);
  free(dir);
}
END_TEST

START_TEST(unloadable_library_reports_dlerror) {
  /* A file that exists but is not a shared object: dlopen's message. */
  char *dir = test_make_temp_dir();
  char *bogus = test_write_file(dir, "libgpu_bogus.so", "not an ELF file\n");
  char text[1024];
  snprintf(text, sizeof text, "[plugin.gpu_bogus]\nlibrary = %s\n[plugin.cpu_ref]\n", bogus);
  char *config_path = test_write_file(dir, "tflaccel.ini", text);
  tflaccel_environment_options options = {.struct_size = sizeof options, .config_path = config_path,
                                          .log_level = "error"};
  tflaccel_environment *environment = NULL;
  ck_assert_ptr_null(tflaccel_environment_create(&options, &environment));
  tflaccel_plugin_info info = {.struct_size = sizeof info};
  ck_assert_ptr_null(tflaccel_environment_plugin_info(environment, 0, &info));
  ck_assert_int_eq(info.available, 0);
  ck_assert_msg(strstr(info.reason, "cannot load") != NULL, "%s", info.reason);
  ck_assert_int_eq(info.not_installed, 0);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(bogus);
  free(config_path);
  free(dir);
}
END_TEST

START_TEST(disabled_plugin_is_not_loaded) {
  char *dir = test_make_temp_dir();
  char text[1024];
  snprintf(text, sizeof text,
           "[plugin.stub_ok]\nlibrary = %s/libstub_ok.so\nenabled = false\n[plugin.cpu_ref]\n",
           STUB_DIR);
  char *config_path = test_write_file(dir, "tflaccel.ini", text);
  tflaccel_environment_options options = {.struct_size = sizeof options, .config_path = config_path,
                                          .log_level = "error"};
  tflaccel_environment *environment = NULL;
  ck_assert_ptr_null(tflaccel_environment_create(&options, &environment));
  tflaccel_plugin_info info = {.struct_size = sizeof info};
  ck_assert_ptr_null(tflaccel_environment_plugin_info(environment, 0, &info));
  ck_assert_int_eq(info.enabled, 0);
  ck_assert_int_eq(info.available, 0);
  ck_assert_msg(strstr(info.reason, "disabled in") != NULL, "%s", info.reason);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config_path);
  free(dir);
}
END_TEST

/* Selection: names, classes, cpu_ref appended, unknown names rejected. */
static tflaccel_config *selection_config(void) {
  tflaccel_config *config = NULL;
  tflaccel_status status = config_load_string(
      "[plugin.gpu_a]\n[plugin.gpu_b]\n[plugin.cpu_ref]\n", "test.ini", &config);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  return config;
}

static void expect_selection(const char *text, const char *expected) {
  tflaccel_config *config = selection_config();
  plugin_registry *registry = NULL;
  ck_assert_ptr_null(registry_create(config, TFLACCEL_LOG_ERROR, &registry));
  accelerator_selection selection;
  tflaccel_status status = selection_parse(registry, text, "test", &selection);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_str_eq(selection.text, expected);
  selection_clear(&selection);
  registry_destroy(registry);
  config_destroy(config);
}

START_TEST(selection_orders_names_and_classes) {
  expect_selection("gpu_b,cpu_ref", "gpu_b,cpu_ref");
  expect_selection("gpu_b", "gpu_b,cpu_ref");
  expect_selection("gpu", "gpu_a,gpu_b,cpu_ref");
  expect_selection("cpu", "cpu_ref");
  expect_selection("gpu_b, gpu", "gpu_b,gpu_a,cpu_ref");
  expect_selection(" cpu_ref , gpu_a ", "cpu_ref,gpu_a");
  expect_selection("", "cpu_ref");
}
END_TEST

START_TEST(selection_rejects_unknown_names) {
  tflaccel_config *config = selection_config();
  plugin_registry *registry = NULL;
  ck_assert_ptr_null(registry_create(config, TFLACCEL_LOG_ERROR, &registry));
  accelerator_selection selection;
  tflaccel_status status = selection_parse(registry, "gpu_a,gpu_zz", "TFLACCEL_ACCELERATOR", &selection);
  ck_assert_ptr_nonnull(status);
  ck_assert_str_eq(tflaccel_status_message(status),
                   "TFLACCEL_ACCELERATOR: unknown accelerator 'gpu_zz' (known: gpu_a, gpu_b, "
                   "cpu_ref, the classes gpu and cpu, or auto)");
  tflaccel_status_free(status);
  registry_destroy(registry);
  config_destroy(config);
}
END_TEST

/* The API option beats TFLACCEL_ACCELERATOR, which beats the config. */
START_TEST(selection_precedence_option_env_config) {
  char *dir = test_make_temp_dir();
  char text[1024];
  snprintf(text, sizeof text,
           "[tflaccel]\naccelerators = cpu_ref\n[plugin.stub_ok]\nlibrary = %s/libstub_ok.so\n"
           "[plugin.cpu_ref]\n",
           STUB_DIR);
  char *config_path = test_write_file(dir, "tflaccel.ini", text);
  tflaccel_environment_options options = {.struct_size = sizeof options, .config_path = config_path,
                                          .log_level = "error"};
  tflaccel_environment *environment = NULL;

  unsetenv("TFLACCEL_ACCELERATOR");
  ck_assert_ptr_null(tflaccel_environment_create(&options, &environment));
  ck_assert_str_eq(tflaccel_environment_selection(environment), "cpu_ref");
  tflaccel_environment_destroy(environment);

  setenv("TFLACCEL_ACCELERATOR", "stub_ok", 1);
  ck_assert_ptr_null(tflaccel_environment_create(&options, &environment));
  ck_assert_str_eq(tflaccel_environment_selection(environment), "stub_ok,cpu_ref");
  tflaccel_environment_destroy(environment);

  options.accelerators = "cpu";
  ck_assert_ptr_null(tflaccel_environment_create(&options, &environment));
  ck_assert_str_eq(tflaccel_environment_selection(environment), "cpu_ref");
  tflaccel_environment_destroy(environment);
  unsetenv("TFLACCEL_ACCELERATOR");

  test_remove_tree(dir);
  free(config_path);
  free(dir);
}
END_TEST

START_TEST(bad_log_level_is_an_error) {
  setenv("TFLACCEL_LOG", "loud", 1);
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(NULL, &environment);
  ck_assert_ptr_nonnull(status);
  ck_assert_ptr_null(environment);
  ck_assert_str_eq(tflaccel_status_message(status),
                   "TFLACCEL_LOG=loud: must be debug, info, warning or error");
  tflaccel_status_free(status);
  unsetenv("TFLACCEL_LOG");
}
END_TEST

START_TEST(descriptor_validation) {
  tflaccel_accelerator_plugin descriptor;
  memset(&descriptor, 0, sizeof descriptor);
  char reason[256];
  descriptor.struct_size = 8;
  ck_assert_int_eq(registry_validate_descriptor(&descriptor, "x", reason, sizeof reason), 0);
  ck_assert_msg(strstr(reason, "too small") != NULL, "%s", reason);
  descriptor.struct_size = sizeof descriptor;
  descriptor.abi_version = TFLACCEL_ABI_VERSION;
  ck_assert_int_eq(registry_validate_descriptor(&descriptor, "x", reason, sizeof reason), 0);
  ck_assert_str_eq(reason, "plugin descriptor lacks name");
}
END_TEST

int main(void) {
  Suite *suite = suite_create("registry");
  TCase *loading = tcase_create("loading");
  tcase_add_loop_test(loading, broken_plugins_are_unavailable_with_reason, 0,
                      (int)(sizeof stubs / sizeof stubs[0]));
  tcase_add_test(loading, missing_library_is_unavailable);
  tcase_add_test(loading, unloadable_library_reports_dlerror);
  tcase_add_test(loading, disabled_plugin_is_not_loaded);
  tcase_add_test(loading, descriptor_validation);
  suite_add_tcase(suite, loading);
  TCase *selection = tcase_create("selection");
  tcase_add_test(selection, selection_orders_names_and_classes);
  tcase_add_test(selection, selection_rejects_unknown_names);
  tcase_add_test(selection, selection_precedence_option_env_config);
  tcase_add_test(selection, bad_log_level_is_an_error);
  suite_add_tcase(suite, selection);
  return test_run_suite(suite);
}
