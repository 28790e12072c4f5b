/* plugins.d drop-ins: a plugin package's section joins the configuration
 * without editing tflaccel.ini; what is already set wins; globals and
 * malformed files are errors naming the file. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/ini_config.h"
#include "core/config/plugin_dropins.h"
#include "tests/support/test_util.h"

static tflaccel_config *main_config(void) {
  tflaccel_config *config = NULL;
  tflaccel_status status = config_load_string("[tflaccel]\naccelerators = gpu, cpu_ref\n"
                                              "[plugin.cpu_ref]\n"
                                              "[plugin.gpu_cl]\ndevice = 1\n",
                                              "tflaccel.ini", &config);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  return config;
}

START_TEST(missing_directory_adds_nothing) {
  tflaccel_config *config = main_config();
  ck_assert_ptr_null(config_merge_plugin_dropins(config, "/nonexistent/tflaccel/plugins.d"));
  ck_assert_uint_eq(config->plugin_count, 2);
  config_destroy(config);
}
END_TEST

START_TEST(dropins_add_sections_in_name_order) {
  char *dir = test_make_temp_dir();
  char *second = test_write_file(dir, "50-gpu_npu.ini",
                                 "; shipped by a third-party plugin package\n"
                                 "[plugin.gpu_npu]\nlibrary = libgpu_npu.so\nmode = fast\n"
                                 "[plugin.gpu_cl]\ndevice = 7\nplatform = pocl\n");
  char *first = test_write_file(dir, "10-gpu_npu.ini", "[plugin.gpu_npu]\nmode = slow\n");
  /* Not drop-ins: hidden files, dpkg's leftovers, other suffixes. */
  char *hidden = test_write_file(dir, ".hidden.ini", "[plugin.gpu_hidden]\n");
  char *old = test_write_file(dir, "gpu_old.ini.dpkg-old", "[plugin.gpu_old]\n");
  char *text = test_write_file(dir, "README", "not an ini file [\n");
  tflaccel_config *config = main_config();
  tflaccel_status status = config_merge_plugin_dropins(config, dir);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_uint_eq(config->plugin_count, 3);
  ck_assert_ptr_null(config_find_plugin(config, "gpu_hidden"));
  ck_assert_ptr_null(config_find_plugin(config, "gpu_old"));
  /* Appended after the main file's sections (the gpu class follows config order). */
  ck_assert_str_eq(config->plugins[2].name, "gpu_npu");
  const config_plugin *npu = config_find_plugin(config, "gpu_npu");
  /* 10- was read first: its mode stays; the section already existed when
   * 50- was read, so its library stays 10-'s (the default lib<NAME>.so). */
  ck_assert_str_eq(config_plugin_option(npu, "mode"), "slow");
  ck_assert_str_eq(npu->library, "libgpu_npu.so");
  /* tflaccel.ini's own option wins; the drop-in adds what it lacks. */
  const config_plugin *cl = config_find_plugin(config, "gpu_cl");
  ck_assert_str_eq(config_plugin_option(cl, "device"), "1");
  ck_assert_str_eq(config_plugin_option(cl, "platform"), "pocl");
  config_destroy(config);
  test_remove_tree(dir);
  free(first);
  free(second);
  free(hidden);
  free(old);
  free(text);
  free(dir);
}
END_TEST

START_TEST(dropin_may_not_set_globals) {
  char *dir = test_make_temp_dir();
  char *path = test_write_file(dir, "gpu_x.ini", "[tflaccel]\naccelerators = gpu_x\n[plugin.gpu_x]\n");
  tflaccel_config *config = main_config();
  tflaccel_status status = config_merge_plugin_dropins(config, dir);
  ck_assert_ptr_nonnull(status);
  ck_assert_msg(strstr(tflaccel_status_message(status), "gpu_x.ini: a plugin drop-in may only hold") !=
                    NULL,
                "%s", tflaccel_status_message(status));
  ck_assert_ptr_null(strchr(tflaccel_status_message(status), '\n'));
  tflaccel_status_free(status);
  config_destroy(config);
  test_remove_tree(dir);
  free(path);
  free(dir);
}
END_TEST

START_TEST(malformed_dropin_names_file_and_line) {
  char *dir = test_make_temp_dir();
  char *path = test_write_file(dir, "gpu_x.ini", "[plugin.gpu_x]\nlibrary libgpu_x.so\n");
  tflaccel_config *config = main_config();
  tflaccel_status status = config_merge_plugin_dropins(config, dir);
  ck_assert_ptr_nonnull(status);
  ck_assert_msg(strstr(tflaccel_status_message(status), "gpu_x.ini:2:") != NULL, "%s",
                tflaccel_status_message(status));
  tflaccel_status_free(status);
  config_destroy(config);
  test_remove_tree(dir);
  free(path);
  free(dir);
}
END_TEST

START_TEST(unreadable_directory_is_an_error) {
  /* A file where the directory should be: opendir fails with ENOTDIR. */
  char *dir = test_make_temp_dir();
  char *path = test_write_file(dir, "plugins.d", "");
  tflaccel_config *config = main_config();
  tflaccel_status status = config_merge_plugin_dropins(config, path);
  ck_assert_ptr_nonnull(status);
  ck_assert_msg(strstr(tflaccel_status_message(status), "cannot read plugin drop-in directory") !=
                    NULL,
                "%s", tflaccel_status_message(status));
  tflaccel_status_free(status);
  config_destroy(config);
  test_remove_tree(dir);
  free(path);
  free(dir);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("plugin_dropins");
  TCase *merging = tcase_create("merging");
  tcase_add_test(merging, missing_directory_adds_nothing);
  tcase_add_test(merging, dropins_add_sections_in_name_order);
  tcase_add_test(merging, dropin_may_not_set_globals);
  tcase_add_test(merging, malformed_dropin_names_file_and_line);
  tcase_add_test(merging, unreadable_directory_is_an_error);
  suite_add_tcase(suite, merging);
  return test_run_suite(suite);
}
