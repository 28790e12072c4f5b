/* The compiled-model cache of CACHE_TEST_ACCELERATOR (gpu_cl, gpu_vk or
 * gpu_gl) on a real model (tests/data's hand_recrop): a cold run fills a
 * private cache (directory 0700, entries 0600) with two entries per
 * partition the plugin compiled (the lowered program, and the backend's
 * kernels), each naming the model (its token's first characters and file
 * name), and matches the TFLite references; a warm run reads them,
 * lowers nothing and gives the same outputs bit for bit. `tflaccel bench` with an
 * application's token (--delegate_serialize_token) writes entries of its
 * own, named by that token. Then one entry at a time, a kernels entry then
 * a program entry, is damaged (a flipped body byte: on PoCL such a binary
 * used to crash the driver), truncated, swapped for the application
 * token's valid entry, re-keyed as a stale driver's, replaced by a symlink
 * to a valid copy, or by a FIFO, and a program entry is cut short and
 * sealed again (its checksum and key pass, its content does not): each run
 * must report the entry
 * as ignored at INFO, never block, give the same outputs bit for bit, and
 * leave a verified regular entry in its place (the symlink's target
 * untouched). Last, three `tflaccel run` processes started at once on an
 * empty cache agree with those outputs and leave only whole entries.
 * Skips (77) when the plugin has no device here. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cache/cache_directory.h"
#include "core/cache/cache_entry.h"
#include "core/cache/cache_file.h"
#include "plugins/gpu_common/gpu_program_cache.h"
#include "tests/support/json.h"
#include "tests/support/model_compare.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#ifndef CACHE_TEST_ACCELERATOR
#error "CACHE_TEST_ACCELERATOR must name the GPU plugin"
#endif

extern char **environ;

#define SKIP_EXIT_STATUS 77
#define MODEL_NAME "hand_recrop"
#define PROCESSES 3
#define APP_TOKEN "app-token-1"

#define FORMAT_PATH(buffer, ...)                                                       \
  ck_assert_msg(snprintf((buffer), sizeof(buffer), __VA_ARGS__) < (int)sizeof(buffer), \
                "path too long")

typedef struct model_outputs {
  uint32_t count;
  void *data[MODEL_COMPARE_MAX_TENSORS];
  size_t size[MODEL_COMPARE_MAX_TENSORS];
} model_outputs;

static void model_outputs_free(model_outputs *outputs) {
  for (uint32_t i = 0; i < outputs->count; ++i) free(outputs->data[i]);
  outputs->count = 0;
}

static void assert_same_outputs(const model_outputs *a, const model_outputs *b, const char *what) {
  ck_assert_uint_eq(a->count, b->count);
  for (uint32_t i = 0; i < a->count; ++i) {
    ck_assert_uint_eq(a->size[i], b->size[i]);
    ck_assert_msg(memcmp(a->data[i], b->data[i], a->size[i]) == 0,
                  "%s: output %u differs from the cold run's", what, i);
  }
}

/* Runs the model once with the cache in cache_dir; returns its log (the
 * caller frees it), echoed so that a failure shows it. */
static char *run_model(const char *scratch, const char *cache_dir, model_outputs *outputs) {
  const char *data = getenv("TFLACCEL_TEST_DATA");
  ck_assert_msg(data != NULL, "TFLACCEL_TEST_DATA is not set (run through make check)");
  ck_assert_int_eq(setenv("TFLACCEL_CACHE_DIR", cache_dir, 1), 0);
  char log_path[4096];
  FORMAT_PATH(log_path, "%s/stderr.txt", scratch);
  fflush(stderr);
  int saved = dup(2);
  ck_assert_int_ge(saved, 0);
  int file = open(log_path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
  ck_assert_int_ge(file, 0);
  ck_assert_int_ge(dup2(file, 2), 0);
  close(file);
  model_compare_session session;
  model_compare_session_open(&session, NULL, CACHE_TEST_ACCELERATOR, "debug", data, MODEL_NAME, 0,
                             "cache");
  model_compare_session_run(&session, 1, "cache");
  outputs->count = session.output_count;
  for (uint32_t i = 0; i < session.output_count; ++i) {
    size_t size = tflaccel_tensor_buffer_byte_size(session.outputs[i]);
    outputs->data[i] = malloc(size ? size : 1);
    ck_assert_ptr_nonnull(outputs->data[i]);
    memcpy(outputs->data[i], tflaccel_tensor_buffer_data(session.outputs[i]), size);
    outputs->size[i] = size;
  }
  model_compare_session_close(&session);
  fflush(stderr);
  ck_assert_int_ge(dup2(saved, 2), 0);
  close(saved);
  size_t size = 0;
  char *bytes = model_compare_read_file(log_path, &size);
  ck_assert_ptr_nonnull(bytes);
  char *text = malloc(size + 1);
  ck_assert_ptr_nonnull(text);
  memcpy(text, bytes, size);
  text[size] = '\0';
  free(bytes);
  fputs(text, stdout);
  return text;
}

static void check_against_references(const model_outputs *outputs) {
  const char *data = getenv("TFLACCEL_TEST_DATA");
  char path[4096];
  FORMAT_PATH(path, "%s/expected.json", data);
  json_value *expected = json_parse_file(path);
  ck_assert_ptr_nonnull(expected);
  const json_value *list = json_get(json_get(expected, MODEL_NAME), "outputs");
  ck_assert_ptr_nonnull(list);
  ck_assert_uint_eq(list->count, outputs->count);
  for (uint32_t i = 0; i < outputs->count; ++i) {
    const json_value *output = &list->items[i];
    FORMAT_PATH(path, "%s/ref/%s/%s", data, MODEL_NAME, json_get(output, "file")->string);
    size_t size = 0;
    void *reference = model_compare_read_file(path, &size);
    ck_assert_msg(reference != NULL, "cannot read %s", path);
    ck_assert_uint_eq(size, outputs->size[i]);
    char why[512];
    const char *failure = model_compare_output(json_get(output, "tolerance"), "rtol_fp32",
                                               TFLACCEL_DTYPE_FLOAT32, outputs->data[i], reference,
                                               size / sizeof(float), why, sizeof why);
    ck_assert_msg(failure == NULL, "output %u: %s", i, failure);
    free(reference);
  }
  json_destroy(expected);
}

static void *read_whole(const char *path, size_t *size) {
  void *bytes = model_compare_read_file(path, size);
  ck_assert_msg(bytes != NULL, "cannot read %s", path);
  return bytes;
}

static void write_whole(const char *path, const void *bytes, size_t size) {
  FILE *file = fopen(path, "wb");
  ck_assert_msg(file != NULL, "cannot write %s", path);
  ck_assert_uint_eq(fwrite(bytes, 1, size, file), size);
  ck_assert_int_eq(fclose(file), 0);
}

/* Every entry of the plugin is a private regular file, intact, built for
 * the key its name says; returns how many there are, and how many name
 * the model as model_prefix does (NULL: not counted); *programs (when not
 * NULL): how many hold a lowered program. */
static uint32_t check_entries_of(const char *cache_dir, const char *model_prefix,
                                 uint32_t *of_model, uint32_t *programs) {
  struct stat info;
  ck_assert_int_eq(stat(cache_dir, &info), 0);
  ck_assert_uint_eq(info.st_mode & 077, 0);
  cache_directory_entry *entries = NULL;
  uint32_t count = 0, mine = 0;
  ck_assert_int_eq(cache_directory_list(cache_dir, &entries, &count), 0);
  for (uint32_t i = 0; i < count; ++i) {
    if (strcmp(entries[i].owner, CACHE_TEST_ACCELERATOR) != 0) continue;
    ++mine;
    char path[4096];
    FORMAT_PATH(path, "%s/%s", cache_dir, entries[i].name);
    ck_assert_int_eq(lstat(path, &info), 0);
    ck_assert_msg(S_ISREG(info.st_mode), "%s is not a regular file", entries[i].name);
    ck_assert_uint_eq(info.st_mode & 0777, 0600);
    size_t size = 0;
    void *bytes = read_whole(path, &size);
    const cache_entry_header *header = NULL;
    const void *body = NULL;
    const char *problem = cache_entry_check(bytes, size, NULL, &header, &body);
    ck_assert_msg(problem == NULL, "%s: %s", entries[i].name, problem);
    char hex[SHA256_HEX_SIZE];
    sha256_hex(header->key, hex);
    ck_assert_msg(strstr(entries[i].name, hex) != NULL, "%s holds another key's entry",
                  entries[i].name);
    if (model_prefix != NULL && !strncmp(header->model, model_prefix, strlen(model_prefix)))
      ++*of_model;
    if (programs != NULL && strcmp(header->label, GPU_PROGRAM_CACHE_LABEL) == 0) ++*programs;
    free(bytes);
  }
  free(entries);
  return mine;
}

static uint32_t check_entries(const char *cache_dir) {
  return check_entries_of(cache_dir, NULL, NULL, NULL);
}

/* What the core names the model by in entries: the first 16 hex digits
 * of the SHA-256 of its file, and the file's name. */
static void default_model_label(char *label, size_t size) {
  char path[4096];
  FORMAT_PATH(path, "%s/%s.tflite", getenv("TFLACCEL_TEST_DATA"), MODEL_NAME);
  size_t file_size = 0;
  void *bytes = read_whole(path, &file_size);
  unsigned char digest[SHA256_DIGEST_SIZE];
  sha256_of(bytes, file_size, digest);
  char hex[SHA256_HEX_SIZE];
  sha256_hex(digest, hex);
  snprintf(label, size, "%.16s %s.tflite", hex, MODEL_NAME);
  free(bytes);
}

/* How many partitions the log says the plugin got. */
static uint32_t partitions_in_log(const char *log) {
  const char *at = strstr(log, "will run on " CACHE_TEST_ACCELERATOR " in ");
  ck_assert_msg(at != NULL, "the log does not say how the model was partitioned");
  return (uint32_t)strtoul(at + strlen("will run on " CACHE_TEST_ACCELERATOR " in "), NULL, 10);
}

/* An entry of the model's own token (first by name) and one of the
 * application's token, APP_TOKEN, both lowered programs (program 1) or
 * both the backend's (0). */
static void pick_entries(const char *cache_dir, int program, char *first, char *second,
                         size_t size) {
  cache_directory_entry *entries = NULL;
  uint32_t count = 0;
  ck_assert_int_eq(cache_directory_list(cache_dir, &entries, &count), 0);
  first[0] = second[0] = '\0';
  for (uint32_t i = 0; i < count; ++i) {
    if (strcmp(entries[i].owner, CACHE_TEST_ACCELERATOR) != 0) continue;
    if ((strcmp(entries[i].label, GPU_PROGRAM_CACHE_LABEL) == 0) != program) continue;
    if (!strncmp(entries[i].model, APP_TOKEN, strlen(APP_TOKEN))) {
      if (second[0] == '\0') snprintf(second, size, "%s", entries[i].name);
    } else if (first[0] == '\0' || strcmp(entries[i].name, first) < 0) {
      snprintf(first, size, "%s", entries[i].name);
    }
  }
  free(entries);
  ck_assert_msg(first[0] != '\0', "no %s entry in %s", CACHE_TEST_ACCELERATOR, cache_dir);
  ck_assert_msg(second[0] != '\0', "no %s entry of token %s in %s", CACHE_TEST_ACCELERATOR,
                APP_TOKEN, cache_dir);
}

typedef enum damage {
  FLIP_BODY_BYTE,
  TRUNCATE,
  SWAPPED,
  STALE_DRIVER,
  SYMLINK,
  FIFO,
  /* Program entries only: a whole entry for this key whose content is not
   * a whole program. */
  RESEALED_SHORT,
  DAMAGE_COUNT
} damage;

static const char *const damage_names[DAMAGE_COUNT] = {
    "a flipped body byte", "truncated", "another model's valid entry", "a stale driver's entry",
    "a symlink", "a FIFO", "a program cut short and sealed again"};

static void apply_damage(damage kind, const char *scratch, const char *cache_dir,
                         const char *name, const char *other, char *symlink_target,
                         size_t target_size) {
  char path[4096];
  FORMAT_PATH(path, "%s/%s", cache_dir, name);
  size_t size = 0;
  unsigned char *bytes = read_whole(path, &size);
  ck_assert_uint_gt(size, sizeof(cache_entry_header) + 8);
  switch (kind) {
  case FLIP_BODY_BYTE:
    bytes[sizeof(cache_entry_header) + (size - sizeof(cache_entry_header)) / 2] ^= 0x5a;
    write_whole(path, bytes, size);
    break;
  case TRUNCATE:
    write_whole(path, bytes, sizeof(cache_entry_header) + (size - sizeof(cache_entry_header)) / 2);
    break;
  case SWAPPED: {
    /* Another model's (token's) whole, valid entry under this name. */
    char other_path[4096];
    FORMAT_PATH(other_path, "%s/%s", cache_dir, other);
    size_t other_size = 0;
    void *other_bytes = read_whole(other_path, &other_size);
    write_whole(path, other_bytes, other_size);
    free(other_bytes);
    break;
  }
  case STALE_DRIVER: {
    /* An intact entry made for another key: what a driver update leaves. */
    cache_entry_header header;
    memcpy(&header, bytes, sizeof header);
    unsigned char key[SHA256_DIGEST_SIZE];
    sha256_of("an older driver", 15, key);
    cache_entry_header_make(&header, key, header.tag, header.label, header.model,
                            bytes + sizeof header, size - sizeof header);
    memcpy(bytes, &header, sizeof header);
    write_whole(path, bytes, size);
    break;
  }
  case SYMLINK:
    /* A valid copy elsewhere: followed, it would load; it must not be. */
    snprintf(symlink_target, target_size, "%s/planted.bin", scratch);
    write_whole(symlink_target, bytes, size);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(symlink(symlink_target, path), 0);
    break;
  case FIFO:
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    break;
  case RESEALED_SHORT: {
    cache_entry_header old, header;
    memcpy(&old, bytes, sizeof old);
    size_t body = (size - sizeof old) / 2;
    cache_entry_header_make(&header, old.key, old.tag, old.label, old.model, bytes + sizeof old,
                            body);
    memcpy(bytes, &header, sizeof header);
    write_whole(path, bytes, sizeof header + body);
    break;
  }
  default: ck_abort();
  }
  free(bytes);
}

/* `tflaccel bench` of the model with the application's token APP_TOKEN,
 * run to its end. */
static void bench_with_token(const char *cache_dir) {
  const char *top = getenv("TFLACCEL_TOP_BUILDDIR");
  ck_assert_ptr_nonnull(top);
  char tool[4096], model[4096], dir_flag[4096];
  FORMAT_PATH(tool, "%s/tflaccel", top);
  FORMAT_PATH(model, "%s/%s.tflite", getenv("TFLACCEL_TEST_DATA"), MODEL_NAME);
  FORMAT_PATH(dir_flag, "--delegate_serialize_dir=%s", cache_dir);
  char *argv[] = {tool, "bench", model, "--accelerator", CACHE_TEST_ACCELERATOR ",cpu_ref",
                  dir_flag, "--delegate_serialize_token=" APP_TOKEN, "--num_runs=1",
                  "--min_secs=0", "--warmup_runs=0", "--warmup_min_secs=0", NULL};
  pid_t pid = 0;
  ck_assert_int_eq(posix_spawn(&pid, tool, NULL, NULL, argv, environ), 0);
  int status = 0;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "tflaccel bench: status %d",
                status);
}

/* `tflaccel run` of the model into out_dir, started, not waited for. */
static pid_t start_cli(const char *cache_dir, const char *out_dir) {
  const char *top = getenv("TFLACCEL_TOP_BUILDDIR");
  const char *data = getenv("TFLACCEL_TEST_DATA");
  ck_assert_ptr_nonnull(top);
  char tool[4096], model[4096], input[4096];
  FORMAT_PATH(tool, "%s/tflaccel", top);
  FORMAT_PATH(model, "%s/%s.tflite", data, MODEL_NAME);
  FORMAT_PATH(input, "%s/ref/%s/input_0.bin", data, MODEL_NAME);
  ck_assert_int_eq(mkdir(out_dir, 0700), 0);
  ck_assert_int_eq(setenv("TFLACCEL_CACHE_DIR", cache_dir, 1), 0);
  char *argv[] = {tool, "run", model, "--input", input, "--accelerator",
                  CACHE_TEST_ACCELERATOR ",cpu_ref", "--output-dir", (char *)out_dir, NULL};
  pid_t pid = 0;
  ck_assert_int_eq(posix_spawn(&pid, tool, NULL, NULL, argv, environ), 0);
  return pid;
}

START_TEST(cache_survives_damage_and_sharing) {
  char *scratch = test_make_temp_dir();
  char cache_dir[4096];
  FORMAT_PATH(cache_dir, "%s/cache", scratch);

  model_outputs cold = {0}, outputs = {0};
  char *log = run_model(scratch, cache_dir, &cold);
  uint32_t partitions = partitions_in_log(log);
  ck_assert_msg(strstr(log, "cache: wrote ") != NULL, "the cold run wrote no entry");
  free(log);
  check_against_references(&cold);
  /* One entry per partition, each naming the model. */
  char label[128];
  default_model_label(label, sizeof label);
  uint32_t of_model = 0, programs = 0;
  uint32_t entries = check_entries_of(cache_dir, label, &of_model, &programs);
  ck_assert_uint_ge(partitions, 1);
  ck_assert_uint_eq(entries, 2 * partitions);
  ck_assert_uint_eq(programs, partitions);
  ck_assert_uint_eq(of_model, 2 * partitions);

  log = run_model(scratch, cache_dir, &outputs);
  ck_assert_msg(strstr(log, "ignored") == NULL, "the warm run ignored an entry");
  ck_assert_msg(strstr(log, "cache: read ") != NULL, "the warm run read no entry");
  ck_assert_msg(strstr(log, "cache: wrote ") == NULL, "the warm run wrote an entry again");
  ck_assert_msg(strstr(log, "the lowered program read from the cache") != NULL,
                "the warm run lowered a partition again");
  free(log);
  assert_same_outputs(&cold, &outputs, "warm");
  model_outputs_free(&outputs);

  /* The application's token: entries of its own, named by it; a second
   * run with it adds none. */
  bench_with_token(cache_dir);
  of_model = 0;
  ck_assert_uint_eq(
      check_entries_of(cache_dir, APP_TOKEN " " MODEL_NAME ".tflite", &of_model, NULL),
      2 * entries);
  ck_assert_uint_eq(of_model, entries);
  bench_with_token(cache_dir);
  ck_assert_uint_eq(check_entries(cache_dir), 2 * entries);
  entries *= 2;

  for (int step = 0; step < 2 * DAMAGE_COUNT; ++step) {
    int program = step >= DAMAGE_COUNT, kind = step % DAMAGE_COUNT;
    if (kind == RESEALED_SHORT && !program) continue; /* the driver's business */
    char name[CACHE_ENTRY_NAME_SIZE], other[CACHE_ENTRY_NAME_SIZE], target[4096] = "";
    pick_entries(cache_dir, program, name, other, sizeof name);
    apply_damage((damage)kind, scratch, cache_dir, name, other, target, sizeof target);
    size_t target_size = 0;
    void *target_before = target[0] ? read_whole(target, &target_size) : NULL;
    log = run_model(scratch, cache_dir, &outputs);
    char expected[256];
    FORMAT_PATH(expected, "cache: %s ignored", name);
    ck_assert_msg(strstr(log, expected) != NULL, "%s%s: no INFO line '%s'", damage_names[kind],
                  program ? " (program entry)" : "", expected);
    free(log);
    assert_same_outputs(&cold, &outputs, damage_names[kind]);
    model_outputs_free(&outputs);
    ck_assert_uint_eq(check_entries(cache_dir), entries); /* rebuilt, replaced */
    if (target_before != NULL) {
      size_t after_size = 0;
      void *after = read_whole(target, &after_size);
      ck_assert_uint_eq(after_size, target_size);
      ck_assert_int_eq(memcmp(after, target_before, target_size), 0);
      free(after);
      free(target_before);
    }
  }

  /* Processes sharing an empty cache. */
  char shared[4096];
  FORMAT_PATH(shared, "%s/shared", scratch);
  pid_t children[PROCESSES];
  char out_dirs[PROCESSES][4096];
  for (int i = 0; i < PROCESSES; ++i) {
    FORMAT_PATH(out_dirs[i], "%s/out-%d", scratch, i);
    children[i] = start_cli(shared, out_dirs[i]);
  }
  for (int i = 0; i < PROCESSES; ++i) {
    int status = 0;
    ck_assert_int_eq(waitpid(children[i], &status, 0), children[i]);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "tflaccel run %d: status %d", i,
                  status);
    model_outputs theirs = {.count = cold.count};
    for (uint32_t o = 0; o < cold.count; ++o) {
      char path[4096];
      FORMAT_PATH(path, "%s/output_%u.bin", out_dirs[i], o);
      theirs.data[o] = read_whole(path, &theirs.size[o]);
    }
    assert_same_outputs(&cold, &theirs, "tflaccel run");
    model_outputs_free(&theirs);
  }
  ck_assert_uint_eq(check_entries(shared), 2 * partitions);
  model_outputs_free(&cold);
  test_remove_tree(scratch);
  free(scratch);
}
END_TEST

int main(void) {
  /* Probed in a child: Check forks the tests, and no driver may be loaded
   * before that (PoCL's threads do not survive a fork). */
  fflush(NULL);
  pid_t child = fork();
  if (child == 0)
    _exit(model_compare_accelerator_available(CACHE_TEST_ACCELERATOR) ? 0 : SKIP_EXIT_STATUS);
  int wait_status = 0;
  if (child > 0 && waitpid(child, &wait_status, 0) == child && WIFEXITED(wait_status) &&
      WEXITSTATUS(wait_status) == SKIP_EXIT_STATUS)
    return SKIP_EXIT_STATUS;
  Suite *suite = suite_create("cache_gpu_" CACHE_TEST_ACCELERATOR);
  TCase *tc = tcase_create("cache");
  tcase_set_timeout(tc, 900);
  tcase_add_test(tc, cache_survives_damage_and_sharing);
  suite_add_tcase(suite, tc);
  return test_run_suite(suite);
}
