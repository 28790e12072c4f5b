/* Shared GPU plugin test code: loading, host services, common checks. */
#include "config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/log/log.h"
#include "tests/gpu/gpu_plugin_harness.h"

#define SKIP_EXIT_STATUS 77
#define ROUND_TRIP_BYTES (1u << 20)

/* Plugin options: a NULL-terminated list of key, value pairs. */
static const char *lookup_option(const void *options, const char *key) {
  const char *const *pairs = options;
  for (; pairs != NULL && pairs[0] != NULL; pairs += 2)
    if (strcmp(pairs[0], key) == 0) return pairs[1];
  return NULL;
}

void gpu_test_assert_ok(tflaccel_status status, const char *what) {
  ck_assert_msg(status == NULL, "%s: %s (%s)", what, tflaccel_status_message(status),
                tflaccel_status_code_name(tflaccel_status_code_of(status)));
}

tflaccel_status gpu_test_plugin_open(gpu_test_plugin *test, const char *const *options) {
  return gpu_test_plugin_open_cached(test, options, NULL);
}

tflaccel_status gpu_test_plugin_open_cached(gpu_test_plugin *test, const char *const *options,
                                            const char *cache_dir) {
  memset(test, 0, sizeof *test);
  test->library = dlopen(GPU_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  ck_assert_msg(test->library != NULL, "dlopen(%s): %s", GPU_PLUGIN_PATH, dlerror());
  tflaccel_accelerator_entry_fn entry = NULL;
  /* POSIX: a symbol's address converts to a function pointer this way. */
  *(void **)&entry = dlsym(test->library, TFLACCEL_ACCELERATOR_ENTRY_NAME);
  ck_assert_msg(entry != NULL, "%s has no %s", GPU_PLUGIN_PATH, TFLACCEL_ACCELERATOR_ENTRY_NAME);
  test->plugin = entry(TFLACCEL_ABI_VERSION);
  ck_assert_msg(test->plugin != NULL, "the entry refused ABI version 0x%x",
                (unsigned)TFLACCEL_ABI_VERSION);

  snprintf(test->context.plugin_name, sizeof test->context.plugin_name, "%s", GPU_PLUGIN_NAME);
  const char *bad_level = NULL;
  test->context.log_level = log_level_from_env(&bad_level);
  test->context.option_lookup = lookup_option;
  test->context.options = options;
  host_services_fill(&test->host, &test->context, cache_dir);
  tflaccel_status status = test->plugin->init(&test->host, &test->state);
  if (status != NULL) test->state = NULL;
  return status;
}

void gpu_test_plugin_open_ok(gpu_test_plugin *test) {
  gpu_test_assert_ok(gpu_test_plugin_open(test, NULL), GPU_PLUGIN_NAME " init");
  ck_assert_ptr_nonnull(test->state);
  ck_assert_uint_ge(test->plugin->device_count(test->state), 1);
}

void gpu_test_plugin_close(gpu_test_plugin *test) {
  if (test->state != NULL) test->plugin->shutdown(test->state);
  test->state = NULL;
}

tflaccel_device *gpu_test_device_create(gpu_test_plugin *test, uint32_t index) {
  tflaccel_device *device = NULL;
  gpu_test_assert_ok(test->plugin->device_create(test->state, index, &device), "device_create");
  ck_assert_ptr_nonnull(device);
  ck_assert_ptr_nonnull(device->vtable);
  ck_assert_uint_ge(device->vtable->struct_size, sizeof(tflaccel_device_vtable));
  return device;
}

/* ---- common tests ---- */

START_TEST(descriptor_matches_the_module) {
  gpu_test_plugin test;
  tflaccel_status status = gpu_test_plugin_open(&test, NULL);
  ck_assert_str_eq(test.plugin->name, GPU_PLUGIN_NAME);
  ck_assert_uint_eq(test.plugin->abi_version, TFLACCEL_ABI_VERSION);
  ck_assert_uint_ge(test.plugin->struct_size, sizeof(tflaccel_accelerator_plugin));
  ck_assert_ptr_nonnull(test.plugin->version);
  ck_assert_ptr_nonnull(test.plugin->description);
  ck_assert(strlen(test.plugin->description) > 0);
  /* Another ABI major gets NULL, not a descriptor it would misread. */
  tflaccel_accelerator_entry_fn entry = NULL;
  *(void **)&entry = dlsym(test.library, TFLACCEL_ACCELERATOR_ENTRY_NAME);
  ck_assert_ptr_null(entry((uint32_t)(TFLACCEL_ABI_MAJOR + 1) << 16));
  gpu_test_assert_ok(status, GPU_PLUGIN_NAME " init");
  gpu_test_plugin_close(&test);
}
END_TEST

START_TEST(every_device_is_described) {
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  uint32_t count = test.plugin->device_count(test.state);
  for (uint32_t i = 0; i < count; ++i) {
    tflaccel_device_info info;
    memset(&info, 0xA5, sizeof info); /* every field must be written */
    gpu_test_assert_ok(test.plugin->device_info(test.state, i, &info), "device_info");
    fprintf(stderr,
            "%s device %u: name \"%s\", vendor \"%s\", driver \"%s\", api \"%s\", "
            "type %d, caps 0x%x, memory %llu\n",
            GPU_PLUGIN_NAME, (unsigned)i, info.name, info.vendor, info.driver_version,
            info.api_version, (int)info.type, (unsigned)info.caps,
            (unsigned long long)info.memory_bytes);
    ck_assert_uint_eq(info.struct_size, sizeof info);
    ck_assert(strnlen(info.name, sizeof info.name) < sizeof info.name);
    ck_assert(strlen(info.name) > 0);
    ck_assert(strnlen(info.vendor, sizeof info.vendor) < sizeof info.vendor);
    ck_assert(strlen(info.vendor) > 0);
    ck_assert(strnlen(info.driver_version, sizeof info.driver_version) <
              sizeof info.driver_version);
    ck_assert(strlen(info.driver_version) > 0);
    ck_assert(strnlen(info.api_version, sizeof info.api_version) < sizeof info.api_version);
    ck_assert_msg(
        strncmp(info.api_version, GPU_PLUGIN_API_PREFIX, strlen(GPU_PLUGIN_API_PREFIX)) == 0,
        "api_version \"%s\" does not start with \"%s\"", info.api_version, GPU_PLUGIN_API_PREFIX);
    ck_assert_int_ge(info.type, TFLACCEL_DEVICE_CPU);
    ck_assert_int_le(info.type, TFLACCEL_DEVICE_OTHER);
    /* Arithmetic in half precision implies storing it. */
    if (info.caps & TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC)
      ck_assert(info.caps & TFLACCEL_DEVICE_CAP_FP16_STORAGE);
    /* Buffers are not host memory; buffer_import and buffer_wrap take the
     * API's own buffers (device buffers, tflaccel.h). CAP_ASYNC (execute
     * may only queue, with events) is the plugin's choice: its event
     * calls are tested through the API (tests/runtime/test_native_events*). */
    ck_assert_uint_eq(info.caps & TFLACCEL_DEVICE_CAP_HOST_MEMORY, 0);
    ck_assert_uint_ne(info.caps & TFLACCEL_DEVICE_CAP_IMPORT, 0);
  }
  tflaccel_device_info info;
  tflaccel_status status = test.plugin->device_info(test.state, count, &info);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);
  tflaccel_device *device = NULL;
  status = test.plugin->device_create(test.state, count, &device);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  ck_assert_ptr_null(device);
  tflaccel_status_free(status);
  gpu_test_plugin_close(&test);
}
END_TEST

/* A position-dependent pattern, so that a shifted or partial copy shows. */
static void fill_pattern(unsigned char *bytes, size_t size, unsigned seed) {
  for (size_t i = 0; i < size; ++i) bytes[i] = (unsigned char)((i * 131u + seed) ^ (i >> 8));
}

static void check_round_trip(tflaccel_device *device) {
  const tflaccel_device_vtable *vtable = device->vtable;
  unsigned char *written = malloc(ROUND_TRIP_BYTES);
  unsigned char *read = malloc(ROUND_TRIP_BYTES);
  ck_assert_ptr_nonnull(written);
  ck_assert_ptr_nonnull(read);
  fill_pattern(written, ROUND_TRIP_BYTES, 7);
  memset(read, 0, ROUND_TRIP_BYTES);

  tflaccel_buffer *buffer = NULL;
  gpu_test_assert_ok(vtable->buffer_create(device, ROUND_TRIP_BYTES, &buffer), "buffer_create");
  ck_assert_ptr_nonnull(buffer);
  gpu_test_assert_ok(vtable->buffer_write(device, buffer, 0, written, ROUND_TRIP_BYTES),
                     "buffer_write");
  gpu_test_assert_ok(vtable->buffer_read(device, buffer, 0, read, ROUND_TRIP_BYTES), "buffer_read");
  ck_assert_msg(memcmp(written, read, ROUND_TRIP_BYTES) == 0,
                "1 MiB read back differs from what was written");

  /* A write at an offset changes exactly those bytes. */
  const size_t offset = 4096 + 12, size = 1000;
  unsigned char patch[1000];
  fill_pattern(patch, size, 99);
  memcpy(written + offset, patch, size);
  gpu_test_assert_ok(vtable->buffer_write(device, buffer, offset, patch, size),
                     "buffer_write at an offset");
  unsigned char part[1000 + 8];
  gpu_test_assert_ok(vtable->buffer_read(device, buffer, offset - 4, part, sizeof part),
                     "buffer_read at an offset");
  ck_assert_msg(memcmp(part, written + offset - 4, sizeof part) == 0,
                "bytes around an offset write differ");
  memset(read, 0, ROUND_TRIP_BYTES);
  gpu_test_assert_ok(vtable->buffer_read(device, buffer, 0, read, ROUND_TRIP_BYTES),
                     "buffer_read after the offset write");
  ck_assert_msg(memcmp(written, read, ROUND_TRIP_BYTES) == 0,
                "an offset write changed bytes outside its range");

  vtable->buffer_destroy(device, buffer);
  free(written);
  free(read);
}

START_TEST(buffer_round_trip_on_every_device) {
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  uint32_t count = test.plugin->device_count(test.state);
  for (uint32_t i = 0; i < count; ++i) {
    tflaccel_device *device = gpu_test_device_create(&test, i);
    check_round_trip(device);
    device->vtable->destroy(device);
  }
  /* A device can be made again after its predecessor is gone. */
  tflaccel_device *device = gpu_test_device_create(&test, 0);
  check_round_trip(device);
  device->vtable->destroy(device);
  gpu_test_plugin_close(&test);
}
END_TEST

static void expect_invalid(tflaccel_status status, const char *what) {
  ck_assert_msg(tflaccel_status_code_of(status) == TFLACCEL_INVALID_ARGUMENT,
                "%s: expected an invalid-argument status, got %s", what,
                tflaccel_status_message(status));
  ck_assert(strlen(tflaccel_status_message(status)) > 0);
  tflaccel_status_free(status);
}

START_TEST(buffer_ranges_are_checked) {
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  tflaccel_device *device = gpu_test_device_create(&test, 0);
  const tflaccel_device_vtable *vtable = device->vtable;
  unsigned char bytes[64] = {0};
  tflaccel_buffer *buffer = NULL;
  gpu_test_assert_ok(vtable->buffer_create(device, 32, &buffer), "buffer_create(32)");
  expect_invalid(vtable->buffer_write(device, buffer, 0, bytes, 33), "write past the end");
  expect_invalid(vtable->buffer_write(device, buffer, 30, bytes, 4), "write across the end");
  expect_invalid(vtable->buffer_read(device, buffer, 33, bytes, 0), "read after the end");
  expect_invalid(vtable->buffer_read(device, buffer, UINT64_MAX, bytes, 2), "offset overflow");
  expect_invalid(vtable->buffer_read(device, buffer, 8, bytes, UINT64_MAX), "size overflow");
  gpu_test_assert_ok(vtable->buffer_write(device, buffer, 32, bytes, 0), "empty write at the end");
  vtable->buffer_destroy(device, buffer);

  /* An empty tensor's buffer exists and takes empty copies. */
  tflaccel_buffer *empty = NULL;
  gpu_test_assert_ok(vtable->buffer_create(device, 0, &empty), "buffer_create(0)");
  ck_assert_ptr_nonnull(empty);
  gpu_test_assert_ok(vtable->buffer_read(device, empty, 0, bytes, 0), "empty read");
  expect_invalid(vtable->buffer_write(device, empty, 0, bytes, 1), "write into an empty buffer");
  vtable->buffer_destroy(device, empty);
  device->vtable->destroy(device);
  gpu_test_plugin_close(&test);
}
END_TEST

/* A one-op graph: out = a + b, int8 [1, 4] without quantization (plain
 * integer arithmetic, which no GPU plugin runs: the float view takes only
 * quantized integers). */
START_TEST(ops_are_refused_with_a_reason) {
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  tflaccel_device *device = gpu_test_device_create(&test, 0);

  static const int32_t dims[] = {1, 4};
  tflaccel_tensor_desc tensors[3];
  memset(tensors, 0, sizeof tensors);
  static const char *const names[] = {"a", "b", "out"};
  for (int i = 0; i < 3; ++i) {
    tensors[i].struct_size = sizeof tensors[i];
    tensors[i].dtype = TFLACCEL_DTYPE_FLOAT32;
    tensors[i].rank = 2;
    tensors[i].dims = dims;
    tensors[i].name = names[i];
    tensors[i].byte_size = 16;
  }
  for (int i = 0; i < 3; ++i) {
    tensors[i].dtype = TFLACCEL_DTYPE_INT8;
    tensors[i].byte_size = 4;
  }
  tensors[0].flags = tensors[1].flags = TFLACCEL_TENSOR_GRAPH_INPUT;
  tensors[2].flags = TFLACCEL_TENSOR_GRAPH_OUTPUT;
  static const uint32_t inputs[] = {0, 1}, outputs[] = {2}, op_list[] = {0};
  tflaccel_op_params params;
  memset(&params, 0, sizeof params);
  tflaccel_op_desc op = {.struct_size = sizeof op,
                         .code = TFLACCEL_OP_ADD,
                         .version = 1,
                         .params = &params,
                         .input_count = 2,
                         .output_count = 1,
                         .inputs = inputs,
                         .outputs = outputs};
  tflaccel_graph_view graph = {.struct_size = sizeof graph,
                               .tensor_count = 3,
                               .tensors = tensors,
                               .op_count = 1,
                               .ops = &op};
  tflaccel_compile_options options = {
      .struct_size = sizeof options, .precision = TFLACCEL_PRECISION_FP32, .thread_count = 1};

  tflaccel_op_support support;
  memset(&support, 0, sizeof support);
  support.struct_size = sizeof support;
  support.level = TFLACCEL_SUPPORT_YES;
  gpu_test_assert_ok(device->vtable->supports_op(device, &graph, 0, &options, &support),
                     "supports_op");
  ck_assert_int_eq(support.level, TFLACCEL_SUPPORT_NO);
  ck_assert(strnlen(support.reason, sizeof support.reason) < sizeof support.reason);
  ck_assert_msg(strstr(support.reason, GPU_PLUGIN_NAME) != NULL,
                "the reason \"%s\" does not name the plugin", support.reason);
  size_t length = strlen(support.reason);
  ck_assert(length > 0 && support.reason[length - 1] != '.');

  tflaccel_partition_desc partition = {.struct_size = sizeof partition,
                                       .op_count = 1,
                                       .ops = op_list,
                                       .input_count = 2,
                                       .inputs = inputs,
                                       .output_count = 1,
                                       .outputs = outputs};
  tflaccel_executable *executable = NULL;
  tflaccel_status status =
      device->vtable->compile(device, &graph, &partition, &options, &executable);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_UNSUPPORTED);
  ck_assert_str_eq(tflaccel_status_message(status), support.reason);
  ck_assert_ptr_null(executable);
  tflaccel_status_free(status);
  /* Without an executable there is nothing to run: an error either way. */
  status = device->vtable->execute(device, NULL, NULL, 0, NULL);
  ck_assert(tflaccel_status_code_of(status) == TFLACCEL_UNSUPPORTED ||
            tflaccel_status_code_of(status) == TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);

  device->vtable->destroy(device);
  gpu_test_plugin_close(&test);
}
END_TEST

START_TEST(device_option_selects_one_device) {
  gpu_test_plugin all;
  gpu_test_plugin_open_ok(&all);
  uint32_t count = all.plugin->device_count(all.state);
  tflaccel_device_info last;
  gpu_test_assert_ok(all.plugin->device_info(all.state, count - 1, &last), "device_info");
  gpu_test_plugin_close(&all);

  char index[16];
  snprintf(index, sizeof index, "%u", (unsigned)(count - 1));
  const char *const pick_last[] = {"device", index, NULL};
  gpu_test_plugin picked;
  gpu_test_assert_ok(gpu_test_plugin_open(&picked, pick_last), "init with device=last");
  ck_assert_uint_eq(picked.plugin->device_count(picked.state), 1);
  tflaccel_device_info info;
  gpu_test_assert_ok(picked.plugin->device_info(picked.state, 0, &info), "device_info");
  ck_assert_str_eq(info.name, last.name);
  ck_assert_str_eq(info.api_version, last.api_version);
  tflaccel_device *device = gpu_test_device_create(&picked, 0);
  check_round_trip(device);
  device->vtable->destroy(device);
  gpu_test_plugin_close(&picked);

  static const char *const bad_values[] = {"99", "-1", "first", "", "1x"};
  for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; ++i) {
    const char *const options[] = {"device", bad_values[i], NULL};
    gpu_test_plugin bad;
    tflaccel_status status = gpu_test_plugin_open(&bad, options);
    ck_assert_msg(tflaccel_status_code_of(status) == TFLACCEL_INVALID_CONFIG,
                  "device=%s: expected an invalid-config status, got %s", bad_values[i],
                  tflaccel_status_message(status));
    ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "device="));
    ck_assert_ptr_null(bad.state);
    tflaccel_status_free(status);
  }
}
END_TEST

TCase *gpu_common_test_case(void) {
  TCase *test_case = tcase_create(GPU_PLUGIN_NAME " common");
  tcase_add_test(test_case, descriptor_matches_the_module);
  tcase_add_test(test_case, every_device_is_described);
  tcase_add_test(test_case, buffer_round_trip_on_every_device);
  tcase_add_test(test_case, buffer_ranges_are_checked);
  tcase_add_test(test_case, ops_are_refused_with_a_reason);
  tcase_add_test(test_case, device_option_selects_one_device);
  return test_case;
}

/* ---- skipping ---- */

int gpu_test_skip_status(void) {
  fflush(NULL);
  pid_t child = fork();
  if (child < 0) {
    perror("fork");
    return 0; /* let the tests run and report */
  }
  if (child == 0) {
    void *library = dlopen(GPU_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) _exit(0); /* the tests report it */
    tflaccel_accelerator_entry_fn entry = NULL;
    *(void **)&entry = dlsym(library, TFLACCEL_ACCELERATOR_ENTRY_NAME);
    const tflaccel_accelerator_plugin *plugin = entry != NULL ? entry(TFLACCEL_ABI_VERSION) : NULL;
    if (plugin == NULL) _exit(0);
    host_plugin_context context = {.log_level = TFLACCEL_LOG_ERROR};
    snprintf(context.plugin_name, sizeof context.plugin_name, "%s", GPU_PLUGIN_NAME);
    tflaccel_host_services host;
    host_services_fill(&host, &context, NULL);
    void *state = NULL;
    tflaccel_status status = plugin->init(&host, &state);
    if (tflaccel_status_code_of(status) == TFLACCEL_UNAVAILABLE) {
      printf("SKIP: %s: no driver here: %s\n", GPU_PLUGIN_NAME, tflaccel_status_message(status));
      fflush(stdout);
      _exit(SKIP_EXIT_STATUS);
    }
    tflaccel_status_free(status);
    if (state != NULL) plugin->shutdown(state);
    _exit(0);
  }
  int wait_status = 0;
  if (waitpid(child, &wait_status, 0) != child) return 0;
  return WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == SKIP_EXIT_STATUS ? SKIP_EXIT_STATUS
                                                                                : 0;
}

int gpu_test_run(Suite *suite) {
  SRunner *runner = srunner_create(suite); /* owns the suite from here */
  int skip = gpu_test_skip_status();
  if (skip != 0) {
    srunner_free(runner);
    return skip;
  }
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

void gpu_test_cache_make(char *path, size_t size) {
  ck_assert_uint_ge(size, 64);
  snprintf(path, size, "/tmp/tflaccel-%s-cache-XXXXXX", GPU_PLUGIN_NAME);
  ck_assert_ptr_nonnull(mkdtemp(path));
}

void gpu_test_cache_list(const char *dir, const char *prefix, gpu_test_cache_listing *listing) {
  memset(listing, 0, sizeof *listing);
  DIR *opened = opendir(dir);
  ck_assert_ptr_nonnull(opened);
  for (struct dirent *entry; (entry = readdir(opened)) != NULL;) {
    if (entry->d_name[0] == '.') continue;
    ck_assert_msg(strncmp(entry->d_name, prefix, strlen(prefix)) == 0,
                  "unexpected cache file %s", entry->d_name);
    ck_assert_uint_lt(listing->count, GPU_TEST_CACHE_FILES);
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
    struct stat info;
    ck_assert_int_eq(stat(path, &info), 0);
    snprintf(listing->names[listing->count], sizeof listing->names[0], "%s", entry->d_name);
    listing->inodes[listing->count] = (unsigned long long)info.st_ino;
    listing->count++;
  }
  closedir(opened);
}

void gpu_test_cache_garble(const char *dir, const gpu_test_cache_listing *listing) {
  for (uint32_t i = 0; i < listing->count; ++i) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, listing->names[i]);
    FILE *file = fopen(path, "r+b");
    ck_assert_ptr_nonnull(file);
    unsigned char garbage[40];
    fill_pattern(garbage, sizeof garbage, 3);
    ck_assert_uint_eq(fwrite(garbage, 1, sizeof garbage, file), sizeof garbage);
    ck_assert_int_eq(fclose(file), 0);
  }
}

void gpu_test_cache_assert_replaced(const gpu_test_cache_listing *before,
                                    const gpu_test_cache_listing *after) {
  for (uint32_t i = 0; i < before->count; ++i) {
    int found = 0;
    for (uint32_t j = 0; j < after->count; ++j)
      if (strcmp(before->names[i], after->names[j]) == 0) {
        found = 1;
        ck_assert_msg(before->inodes[i] != after->inodes[j], "%s was not written again",
                      before->names[i]);
      }
    ck_assert_msg(found, "%s is gone", before->names[i]);
  }
}

void gpu_test_cache_remove(const char *dir) {
  gpu_test_cache_listing left;
  gpu_test_cache_list(dir, "", &left);
  for (uint32_t i = 0; i < left.count; ++i) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, left.names[i]);
    ck_assert_int_eq(remove(path), 0);
  }
  ck_assert_int_eq(rmdir(dir), 0);
}

void gpu_test_cache_check(const char *prefix, int files, int unchanged_after_load,
                          gpu_test_fresh_device_check check) {
  char dir[128];
  gpu_test_cache_make(dir, sizeof dir);
  gpu_test_plugin test;
  gpu_test_assert_ok(gpu_test_plugin_open_cached(&test, NULL, dir), "init with a cache_dir");
  check(&test);
  gpu_test_cache_listing written;
  gpu_test_cache_list(dir, prefix, &written);
  if (files >= 0)
    ck_assert_uint_eq(written.count, (uint32_t)files);
  else
    ck_assert_uint_gt(written.count, 0);
  if (written.count > 0) {
    check(&test);
    gpu_test_cache_listing loaded;
    gpu_test_cache_list(dir, prefix, &loaded);
    ck_assert_uint_eq(loaded.count, written.count);
    if (unchanged_after_load)
      for (uint32_t i = 0; i < written.count; ++i)
        for (uint32_t j = 0; j < loaded.count; ++j)
          if (strcmp(written.names[i], loaded.names[j]) == 0)
            ck_assert_msg(written.inodes[i] == loaded.inodes[j], "%s was written again",
                          written.names[i]);
    gpu_test_cache_garble(dir, &loaded);
    check(&test);
    gpu_test_cache_listing replaced;
    gpu_test_cache_list(dir, prefix, &replaced);
    ck_assert_uint_eq(replaced.count, loaded.count);
    gpu_test_cache_assert_replaced(&loaded, &replaced);
  }
  gpu_test_plugin_close(&test);
  gpu_test_cache_remove(dir);
}
