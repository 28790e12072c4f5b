/* accelerators = auto: a software GPU (or a GPU API on the CPU) loses to a
 * CPU plugin, a discrete GPU wins, cpu_ref stays last, every plugin gets a
 * line saying why, and an explicit list still wins over auto. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

/* An environment from a config that names `stubs` (comma-separated) as
 * plugins, with `accelerators` as the selection. */
static tflaccel_environment *environment_with(const char *accelerators, const char *stubs) {
  char text[4096];
  int used = snprintf(text, sizeof text, "[tflaccel]\naccelerators = %s\n", accelerators);
  char names[512];
  snprintf(names, sizeof names, "%s", stubs);
  for (char *name = strtok(names, ","); name != NULL; name = strtok(NULL, ","))
    used += snprintf(text + used, sizeof text - (size_t)used,
                     "[plugin.%s]\nlibrary = %s/lib%s.so\n", name, STUB_DIR, name);
  snprintf(text + used, sizeof text - (size_t)used, "[plugin.cpu_ref]\n");
  char *dir = test_make_temp_dir();
  char *config_path = test_write_file(dir, "tflaccel.ini", text);
  unsetenv("TFLACCEL_ACCELERATOR");
  tflaccel_environment_options options = {.struct_size = sizeof options,
                                          .config_path = config_path,
                                          .log_level = "error"};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  ck_assert_msg(status == NULL, "environment: %s", tflaccel_status_message(status));
  test_remove_tree(dir);
  free(config_path);
  free(dir);
  return environment;
}

static void assert_note(tflaccel_environment *environment, const char *line) {
  const char *notes = tflaccel_environment_selection_notes(environment);
  ck_assert_ptr_nonnull(notes);
  ck_assert_msg(strstr(notes, line) != NULL, "'%s' is not in the notes:\n%s", line, notes);
}

START_TEST(software_gpu_loses_to_the_cpu) {
  tflaccel_environment *environment = environment_with("auto", "stub_software_gpu,stub_cpu");
  ck_assert_str_eq(tflaccel_environment_selection(environment), "stub_cpu,cpu_ref");
  assert_note(environment, "stub_software_gpu: passed over: stub device: software renderer");
  assert_note(environment, "stub_cpu: chosen: stub device: CPU");
  assert_note(environment, "cpu_ref: last resort for every op");
  tflaccel_environment_destroy(environment);
}
END_TEST

START_TEST(gpu_api_on_the_cpu_loses_to_the_cpu) {
  tflaccel_environment *environment = environment_with("auto", "gpu_stub_on_cpu,stub_cpu");
  ck_assert_str_eq(tflaccel_environment_selection(environment), "stub_cpu,cpu_ref");
  assert_note(environment, "gpu_stub_on_cpu: passed over: stub device: a GPU API running on the CPU");
  tflaccel_environment_destroy(environment);
}
END_TEST

START_TEST(discrete_gpu_wins) {
  /* Listed last in the config, ranked first by its kind. */
  tflaccel_environment *environment =
      environment_with("auto", "stub_cpu,stub_software_gpu,stub_discrete_gpu");
  ck_assert_str_eq(tflaccel_environment_selection(environment),
                   "stub_discrete_gpu,stub_cpu,cpu_ref");
  assert_note(environment, "stub_discrete_gpu: chosen: stub device: discrete GPU");
  tflaccel_environment_destroy(environment);
}
END_TEST

START_TEST(unavailable_plugins_are_passed_over_with_their_reason) {
  tflaccel_environment *environment = environment_with("auto", "stub_init_fails,stub_cpu");
  ck_assert_str_eq(tflaccel_environment_selection(environment), "stub_cpu,cpu_ref");
  assert_note(environment, "stub_init_fails: passed over: ");
  assert_note(environment, "stub driver failed to start (error -42)");
  tflaccel_environment_destroy(environment);
}
END_TEST

START_TEST(explicit_list_wins_over_auto) {
  tflaccel_environment *environment =
      environment_with("stub_software_gpu", "stub_software_gpu,stub_discrete_gpu,stub_cpu");
  ck_assert_str_eq(tflaccel_environment_selection(environment), "stub_software_gpu,cpu_ref");
  ck_assert_ptr_null(tflaccel_environment_selection_notes(environment));
  tflaccel_environment_destroy(environment);
}
END_TEST

START_TEST(only_cpu_ref_is_left_when_nothing_else_fits) {
  tflaccel_environment *environment = environment_with("auto", "stub_software_gpu");
  ck_assert_str_eq(tflaccel_environment_selection(environment), "cpu_ref");
  tflaccel_environment_destroy(environment);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("auto selection");
  TCase *tcase = tcase_create("auto");
  tcase_add_test(tcase, software_gpu_loses_to_the_cpu);
  tcase_add_test(tcase, gpu_api_on_the_cpu_loses_to_the_cpu);
  tcase_add_test(tcase, discrete_gpu_wins);
  tcase_add_test(tcase, unavailable_plugins_are_passed_over_with_their_reason);
  tcase_add_test(tcase, explicit_list_wins_over_auto);
  tcase_add_test(tcase, only_cpu_ref_is_left_when_nothing_else_fits);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
