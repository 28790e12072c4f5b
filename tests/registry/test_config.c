/* tflaccel.ini parsing: good files, malformed files, unknown keys. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/ini_config.h"
#include "tests/support/test_util.h"

START_TEST(good_file_is_read) {
  tflaccel_config *config = NULL;
  tflaccel_status status = config_load_string(
      "; a comment\n"
      "[tflaccel]\n"
      "accelerators = gpu_vk, cpu_ref\n"
      "precision = fp16\n"
      "threads = 2\n"
      "max_delegated_partitions = 3\n"
      "min_partition_ops = 2\n"
      "require_full_delegation = yes\n"
      "transfer_us_per_mib = 150.5\n"
      "\n"
      "[plugin.gpu_vk]\n"
      "library = /opt/x/libgpu_vk.so\n"
      "device = 1\n"
      "[plugin.cpu_ref]\n"
      "[plugin.gpu_gl]\n"
      "enabled = false\n",
      "good.ini", &config);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_str_eq(config->accelerators, "gpu_vk, cpu_ref");
  ck_assert_int_eq(config->precision, 1);
  ck_assert_int_eq(config->thread_count, 2);
  ck_assert_int_eq(config->max_delegated_partitions, 3);
  ck_assert_int_eq(config->min_partition_ops, 2);
  ck_assert_int_eq(config->require_full_delegation, 1);
  ck_assert(config->cost.transfer_us_per_mib > 150.4 && config->cost.transfer_us_per_mib < 150.6);
  ck_assert_uint_eq(config->plugin_count, 3);
  const config_plugin *vk = config_find_plugin(config, "gpu_vk");
  ck_assert_ptr_nonnull(vk);
  ck_assert_str_eq(vk->library, "/opt/x/libgpu_vk.so");
  ck_assert_str_eq(config_plugin_option(vk, "device"), "1");
  ck_assert_ptr_null(config_plugin_option(vk, "platform"));
  const config_plugin *cpu = config_find_plugin(config, "cpu_ref");
  ck_assert_ptr_nonnull(cpu);
  ck_assert_str_eq(cpu->library, "libcpu_ref.so"); /* default library name */
  ck_assert_int_eq(cpu->enabled, 1);
  ck_assert_int_eq(config_find_plugin(config, "gpu_gl")->enabled, 0);
  config_destroy(config);
}
END_TEST

typedef struct bad_config {
  const char *text;
  const char *message;
} bad_config;

static const bad_config bad_configs[] = {
    {"[tflaccel]\nthreads = 2\nthis line has no equals sign\n",
     "bad.ini:3: malformed line (expected [section] or key = value)"},
    {"[tflaccel]\nprecision = fp8\n", "bad.ini:2: precision must be fp32 or fp16, not 'fp8'"},
    {"[tflaccel]\n\nthreads = many\n",
     "bad.ini:3: threads must be a whole number from 1 to 1024, not 'many'"},
    {"[plugin.cpu_ref]\nenabled = maybe\n", "bad.ini:2: enabled must be true or false, not 'maybe'"},
    {"[plugins]\nx = 1\n", "bad.ini:1: unknown section [plugins] (expected [tflaccel] or [plugin.NAME])"},
    {"[plugin.GPU-CL]\n", "bad.ini:1: plugin name 'GPU-CL' must be lower-case letters, digits and '_'"},
    {"[tflaccel\naccelerators = cpu_ref\n",
     "bad.ini:1: malformed line (expected [section] or key = value)"},
    {"[tflaccel]\nmin_partition_ops = 0\n", "bad.ini:2: min_partition_ops must be 1 or more, not '0'"},
    {"[tflaccel]\nthreads = 1\ncache = maybe\n", "bad.ini:3: cache must be on or off, not 'maybe'"},
    {"[tflaccel]\ncache_max_mb = 0\n",
     "bad.ini:2: cache_max_mb must be a whole number from 1 to 1048576, not '0'"},
};

START_TEST(malformed_file_names_file_and_line) {
  tflaccel_config *config = NULL;
  tflaccel_status status = config_load_string(bad_configs[_i].text, "bad.ini", &config);
  ck_assert_ptr_nonnull(status);
  ck_assert_ptr_null(config);
  ck_assert_str_eq(tflaccel_status_message(status), bad_configs[_i].message);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_CONFIG);
  tflaccel_status_free(status);
}
END_TEST

/* The parser keeps cache_dir as written, usable or not: the environment
 * checks it and turns the cache off with a warning (tests/compiled_cache). */
START_TEST(cache_dir_is_kept_as_written) {
  tflaccel_config *config = NULL;
  tflaccel_status status = config_load_string(
      "[tflaccel]\ncache_dir = /nonexistent/tflaccel-cache\n", "ok.ini", &config);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_str_eq(config->cache_dir, "/nonexistent/tflaccel-cache");
  ck_assert_int_eq(config->cache_enabled, 1);
  ck_assert_int_eq(config->cache_max_mb, 256);
  config_destroy(config);
}
END_TEST

START_TEST(unknown_global_key_is_a_warning_only) {
  tflaccel_config *config = NULL;
  tflaccel_status status =
      config_load_string("[tflaccel]\nfuture_option = 1\nthreads = 3\n", "new.ini", &config);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_eq(config->thread_count, 3);
  config_destroy(config);
}
END_TEST

START_TEST(unknown_plugin_key_is_a_plugin_option) {
  tflaccel_config *config = NULL;
  ck_assert_ptr_null(config_load_string("[plugin.gpu_cl]\nplatform = NVIDIA\nplatform = PoCL\n",
                                        "x.ini", &config));
  ck_assert_str_eq(config_plugin_option(config_find_plugin(config, "gpu_cl"), "platform"), "PoCL");
  config_destroy(config);
}
END_TEST

START_TEST(file_loading_and_search) {
  char *dir = test_make_temp_dir();
  char *path = test_write_file(dir, "tflaccel.ini", "[tflaccel]\nthreads = 4\n[plugin.cpu_ref]\n");
  tflaccel_config *config = NULL;
  ck_assert_ptr_null(config_load_file(path, &config));
  ck_assert_int_eq(config->thread_count, 4);
  ck_assert_str_eq(config->path, path);
  config_destroy(config);

  /* $TFLACCEL_CONFIG wins; a missing one is an error, not a silent default. */
  setenv("TFLACCEL_CONFIG", path, 1);
  char *found = NULL;
  ck_assert_ptr_null(config_find_file("/nonexistent", &found));
  ck_assert_str_eq(found, path);
  free(found);
  setenv("TFLACCEL_CONFIG", "/nonexistent/tflaccel.ini", 1);
  tflaccel_status status = config_find_file("/nonexistent", &found);
  ck_assert_ptr_nonnull(status);
  ck_assert_msg(strstr(tflaccel_status_message(status), "TFLACCEL_CONFIG=/nonexistent/tflaccel.ini")
                    != NULL, "%s", tflaccel_status_message(status));
  tflaccel_status_free(status);
  unsetenv("TFLACCEL_CONFIG");

  /* Then the user's file under XDG_CONFIG_HOME, then the system directory. */
  setenv("XDG_CONFIG_HOME", dir, 1);
  ck_assert_ptr_null(config_find_file(dir, &found));
  ck_assert_str_eq(found, path); /* dir/tflaccel.ini as the system file */
  free(found);
  unsetenv("XDG_CONFIG_HOME");

  status = config_load_file("/nonexistent/x.ini", &config);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_NOT_FOUND);
  tflaccel_status_free(status);
  test_remove_tree(dir);
  free(path);
  free(dir);
}
END_TEST

START_TEST(defaults_name_the_five_plugins) {
  tflaccel_config *config = NULL;
  ck_assert_ptr_null(config_load_defaults(&config));
  ck_assert_uint_eq(config->plugin_count, 5);
  ck_assert_str_eq(config->accelerators, "auto");
  ck_assert_ptr_nonnull(config_find_plugin(config, "cpu_ref"));
  ck_assert_ptr_nonnull(config_find_plugin(config, "cpu_xnnpack"));
  ck_assert_ptr_nonnull(config_find_plugin(config, "gpu_cl"));
  ck_assert_ptr_nonnull(config_find_plugin(config, "gpu_vk"));
  ck_assert_ptr_nonnull(config_find_plugin(config, "gpu_gl"));
  ck_assert_ptr_null(config->path);
  config_destroy(config);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("config");
  TCase *parsing = tcase_create("parsing");
  tcase_add_test(parsing, good_file_is_read);
  tcase_add_loop_test(parsing, malformed_file_names_file_and_line, 0,
                      (int)(sizeof bad_configs / sizeof bad_configs[0]));
  tcase_add_test(parsing, unknown_global_key_is_a_warning_only);
  tcase_add_test(parsing, cache_dir_is_kept_as_written);
  tcase_add_test(parsing, unknown_plugin_key_is_a_plugin_option);
  tcase_add_test(parsing, file_loading_and_search);
  tcase_add_test(parsing, defaults_name_the_five_plugins);
  suite_add_tcase(suite, parsing);
  return test_run_suite(suite);
}
