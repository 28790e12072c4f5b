/* The compiled-model cache without a GPU: SHA-256 against FIPS 180-4's
 * test vectors; the entry format refusing damaged, truncated and swapped
 * entries; reads that never follow a symlink or block on a FIFO; atomic
 * 0600 writes that replace (never write through) what is planted under the
 * name; the directory's privacy check, LRU bound and clearing; the
 * environment's choice of directory (TFLACCEL_CACHE_DIR, XDG_CACHE_HOME,
 * cache = off, TFLACCEL_CACHE=off, a group-writable or unmakeable directory
 * turning the cache off without failing); and processes writing and reading
 * one entry at once never seeing half of one. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cache/cache_directory.h"
#include "core/cache/cache_entry.h"
#include "core/cache/cache_file.h"
#include "core/facts/sha256.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

static void hex_of(const void *bytes, size_t size, char text[SHA256_HEX_SIZE]) {
  unsigned char digest[SHA256_DIGEST_SIZE];
  sha256_of(bytes, size, digest);
  sha256_hex(digest, text);
}

START_TEST(sha256_test_vectors) {
  char hex[SHA256_HEX_SIZE];
  hex_of("abc", 3, hex);
  ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  hex_of("", 0, hex);
  ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  hex_of(two_blocks, strlen(two_blocks), hex);
  ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  /* One million 'a', fed in uneven pieces (the block buffering). */
  sha256_context context;
  sha256_begin(&context);
  char piece[997];
  memset(piece, 'a', sizeof piece);
  size_t left = 1000000;
  while (left > 0) {
    size_t take = left < sizeof piece ? left : sizeof piece;
    sha256_add(&context, piece, take);
    left -= take;
  }
  unsigned char digest[SHA256_DIGEST_SIZE];
  sha256_end(&context, digest);
  sha256_hex(digest, hex);
  ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  /* 55, 56 and 64 bytes: the padding's edge cases (digests from Python's
   * hashlib). */
  char block[64];
  memset(block, 'x', sizeof block);
  hex_of(block, 55, hex);
  ck_assert_str_eq(hex, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072");
  hex_of(block, 56, hex);
  ck_assert_str_eq(hex, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e");
  hex_of(block, 64, hex);
  ck_assert_str_eq(hex, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c");
}
END_TEST

/* An entry file in memory: header and body. */
static unsigned char *make_entry(const unsigned char key[SHA256_DIGEST_SIZE], const char *body,
                                 size_t *size) {
  size_t body_size = strlen(body);
  *size = sizeof(cache_entry_header) + body_size;
  unsigned char *file = malloc(*size);
  ck_assert_ptr_nonnull(file);
  cache_entry_header header;
  cache_entry_header_make(&header, key, 7, "test entry", "abc model.tflite", body, body_size);
  memcpy(file, &header, sizeof header);
  memcpy(file + sizeof header, body, body_size);
  return file;
}

START_TEST(entry_format_refuses_damage) {
  unsigned char key[SHA256_DIGEST_SIZE], other[SHA256_DIGEST_SIZE];
  sha256_of("key", 3, key);
  sha256_of("other key", 9, other);
  size_t size = 0;
  unsigned char *file = make_entry(key, "a compiled program", &size);
  const cache_entry_header *header = NULL;
  const void *body = NULL;
  ck_assert_ptr_null(cache_entry_check(file, size, key, &header, &body));
  ck_assert_uint_eq(header->tag, 7);
  ck_assert_str_eq(header->label, "test entry");
  ck_assert_int_eq(memcmp(body, "a compiled program", 18), 0);
  /* Another key's entry (stale driver, or a file copied under this name). */
  ck_assert_ptr_nonnull(cache_entry_check(file, size, other, &header, &body));
  ck_assert_ptr_null(header);
  /* Truncated, at every length. */
  for (size_t cut = 0; cut < size; ++cut)
    ck_assert_ptr_nonnull(cache_entry_check(file, cut, key, &header, &body));
  /* Every single-byte change of the body or the header. */
  for (size_t i = 0; i < size; ++i) {
    file[i] ^= 0x20;
    ck_assert_msg(cache_entry_check(file, size, key, &header, &body) != NULL,
                  "a change at byte %zu went unnoticed", i);
    file[i] ^= 0x20;
  }
  /* Only the key patched to the name's: the checksum tells. */
  cache_entry_header patched;
  memcpy(&patched, file, sizeof patched);
  memcpy(patched.key, other, sizeof patched.key);
  memcpy(file, &patched, sizeof patched);
  ck_assert_ptr_nonnull(cache_entry_check(file, size, other, &header, &body));
  free(file);

  char name[CACHE_ENTRY_NAME_SIZE], owner[32];
  ck_assert(cache_entry_file_name("gpu_cl", key, name));
  ck_assert(cache_entry_name_parse(name, owner, sizeof owner));
  ck_assert_str_eq(owner, "gpu_cl");
  ck_assert(!cache_entry_file_name("../x", key, name));
  ck_assert(!cache_entry_name_parse(".tmp-abcdef", NULL, 0));
  ck_assert(!cache_entry_name_parse("notes.txt", NULL, 0));
}
END_TEST

static char *join(const char *dir, const char *name) {
  size_t size = strlen(dir) + strlen(name) + 2;
  char *path = malloc(size);
  ck_assert_ptr_nonnull(path);
  snprintf(path, size, "%s/%s", dir, name);
  return path;
}

START_TEST(files_are_private_and_never_followed) {
  char *dir = test_make_temp_dir();
  char *outside = test_write_file(dir, "outside.txt", "not yours");
  char *entry = join(dir, "gpu_cl-x.bin");
  int fd = -1;
  uint64_t size = 0;
  ck_assert_int_eq(cache_file_open(dir, "gpu_cl-x.bin", &fd, &size), ENOENT);
  /* A symlink under the name is not followed for reading... */
  ck_assert_int_eq(symlink(outside, entry), 0);
  ck_assert_int_eq(cache_file_open(dir, "gpu_cl-x.bin", &fd, &size), EINVAL);
  ck_assert_int_eq(fd, -1);
  /* ...nor written through: the write replaces the link itself. */
  ck_assert_int_eq(cache_file_write(dir, "gpu_cl-x.bin", "head", 4, "body", 4), 0);
  struct stat info;
  ck_assert_int_eq(lstat(entry, &info), 0);
  ck_assert(S_ISREG(info.st_mode));
  ck_assert_uint_eq(info.st_mode & 0777, 0600);
  char text[32] = "";
  FILE *file = fopen(outside, "r");
  ck_assert_ptr_nonnull(file);
  ck_assert_ptr_nonnull(fgets(text, sizeof text, file));
  fclose(file);
  ck_assert_str_eq(text, "not yours");
  ck_assert_int_eq(cache_file_open(dir, "gpu_cl-x.bin", &fd, &size), 0);
  ck_assert_uint_eq(size, 8);
  char bytes[8];
  ck_assert_int_eq(cache_file_read_all(fd, bytes, 8), 0);
  ck_assert_int_eq(memcmp(bytes, "headbody", 8), 0);
  ck_assert_int_eq(cache_file_read_all(fd, bytes, 1), EIO);
  close(fd);
  /* A FIFO: refused at once (a plain open would block for ever; the alarm
   * turns a hang into a failure). */
  ck_assert_int_eq(unlink(entry), 0);
  ck_assert_int_eq(mkfifo(entry, 0600), 0);
  alarm(20);
  ck_assert_int_eq(cache_file_open(dir, "gpu_cl-x.bin", &fd, &size), EINVAL);
  alarm(0);
  /* No temporary file is left behind. */
  cache_directory_entry *entries = NULL;
  uint32_t count = 0;
  ck_assert_int_eq(cache_directory_list(dir, &entries, &count), 0);
  free(entries);
  uint32_t removed = 0;
  ck_assert_int_eq(cache_directory_clear(dir, &removed), 0);
  ck_assert_int_eq(access(outside, F_OK), 0); /* not an entry: kept */
  test_remove_tree(dir);
  free(dir);
  free(outside);
  free(entry);
}
END_TEST

START_TEST(directory_privacy) {
  char *dir = test_make_temp_dir();
  char why[256];
  char *made = join(dir, "a/b/tflaccel");
  ck_assert_int_eq(cache_directory_make(made, 1), 0);
  struct stat info;
  ck_assert_int_eq(stat(made, &info), 0);
  ck_assert_uint_eq(info.st_mode & 0777, 0700);
  ck_assert_ptr_null(cache_directory_check_private(made, why, sizeof why));
  ck_assert_int_eq(chmod(made, 0770), 0);
  ck_assert_ptr_nonnull(cache_directory_check_private(made, why, sizeof why));
  ck_assert_int_eq(chmod(made, 0757), 0);
  ck_assert_ptr_nonnull(cache_directory_check_private(made, why, sizeof why));
  ck_assert_int_eq(chmod(made, 0755), 0);
  ck_assert_ptr_null(cache_directory_check_private(made, why, sizeof why));
  /* /tmp: everyone may write it (and root owns it). */
  ck_assert_ptr_nonnull(cache_directory_check_private("/tmp", why, sizeof why));
  char *file = test_write_file(dir, "plain", "x");
  ck_assert_ptr_nonnull(cache_directory_check_private(file, why, sizeof why));
  test_remove_tree(dir);
  free(made);
  free(file);
  free(dir);
}
END_TEST

static void write_entry(const char *dir, const char *seed, size_t body_size, time_t mtime) {
  unsigned char key[SHA256_DIGEST_SIZE];
  sha256_of(seed, strlen(seed), key);
  char name[CACHE_ENTRY_NAME_SIZE];
  ck_assert(cache_entry_file_name("gpu_gl", key, name));
  char *body = calloc(1, body_size);
  ck_assert_ptr_nonnull(body);
  cache_entry_header header;
  cache_entry_header_make(&header, key, 0, seed, NULL, body, body_size);
  ck_assert_int_eq(cache_file_write(dir, name, &header, sizeof header, body, body_size), 0);
  free(body);
  char *path = join(dir, name);
  struct timeval times[2] = {{.tv_sec = mtime}, {.tv_sec = mtime}};
  ck_assert_int_eq(utimes(path, times), 0);
  free(path);
}

START_TEST(directory_is_bounded_lru) {
  char *dir = test_make_temp_dir();
  time_t now = time(NULL);
  write_entry(dir, "oldest", 400000, now - 300);
  write_entry(dir, "middle", 400000, now - 200);
  write_entry(dir, "newest", 400000, now - 100);
  char *stale = test_write_file(dir, ".tmp-abc123", "a dead writer's");
  struct timeval old[2] = {{.tv_sec = now - 7200}, {.tv_sec = now - 7200}};
  ck_assert_int_eq(utimes(stale, old), 0);
  char *other = test_write_file(dir, "README", "not an entry");
  uint32_t removed = 0;
  uint64_t kept = 0;
  ck_assert_int_eq(cache_directory_evict(dir, 1u << 20, &removed, &kept), 0);
  ck_assert_uint_eq(removed, 2); /* "oldest" and the stale temporary */
  ck_assert_uint_eq(kept, 2 * (400000 + sizeof(cache_entry_header)));
  cache_directory_entry *entries = NULL;
  uint32_t count = 0;
  ck_assert_int_eq(cache_directory_list(dir, &entries, &count), 0);
  ck_assert_uint_eq(count, 2);
  ck_assert_str_eq(entries[0].label, "middle");
  ck_assert_str_eq(entries[1].label, "newest");
  ck_assert_ptr_null(entries[0].problem);
  ck_assert_str_eq(entries[0].owner, "gpu_gl");
  free(entries);
  /* Reading an entry marks it used: "middle" outlives "newest" now. */
  unsigned char key[SHA256_DIGEST_SIZE];
  sha256_of("middle", 6, key);
  char name[CACHE_ENTRY_NAME_SIZE];
  ck_assert(cache_entry_file_name("gpu_gl", key, name));
  int fd = -1;
  uint64_t size = 0;
  ck_assert_int_eq(cache_file_open(dir, name, &fd, &size), 0);
  cache_file_touch(fd);
  close(fd);
  ck_assert_int_eq(cache_directory_evict(dir, 500000, &removed, &kept), 0);
  ck_assert_uint_eq(removed, 1);
  ck_assert_int_eq(cache_directory_list(dir, &entries, &count), 0);
  ck_assert_uint_eq(count, 1);
  ck_assert_str_eq(entries[0].label, "middle");
  free(entries);
  ck_assert_int_eq(cache_directory_clear(dir, &removed), 0);
  ck_assert_uint_eq(removed, 1);
  ck_assert_int_eq(access(other, F_OK), 0);
  test_remove_tree(dir);
  free(stale);
  free(other);
  free(dir);
}
END_TEST

/* The directory an environment with config text (NULL: none) settles on,
 * copied (NULL: off); the environment must be created whatever happens. */
static char *environment_cache_dir(const char *dir, const char *config_text) {
  char *config = NULL;
  if (config_text != NULL) config = test_write_file(dir, "tflaccel.ini", config_text);
  tflaccel_environment_options options = {.struct_size = sizeof options,
                                          .config_path = config,
                                          .accelerators = "cpu_ref",
                                          .log_level = "error"};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  const char *path = tflaccel_environment_cache_dir(environment);
  char *copy = path != NULL ? strdup(path) : NULL;
  tflaccel_environment_destroy(environment);
  free(config);
  return copy;
}

START_TEST(environment_chooses_directory) {
  char *dir = test_make_temp_dir();
  unsetenv("TFLACCEL_CACHE_DIR");
  unsetenv("TFLACCEL_CACHE");
  char *xdg = join(dir, "xdg");
  setenv("XDG_CACHE_HOME", xdg, 1);
  char *expected = join(xdg, "tflaccel");
  char *got = environment_cache_dir(dir, NULL);
  ck_assert_ptr_nonnull(got);
  ck_assert_str_eq(got, expected);
  struct stat info;
  ck_assert_int_eq(stat(expected, &info), 0);
  ck_assert_uint_eq(info.st_mode & 0777, 0700);
  free(got);
  /* cache = off; and TFLACCEL_CACHE=off. */
  ck_assert_ptr_null(environment_cache_dir(dir, "[tflaccel]\ncache = off\n[plugin.cpu_ref]\n"));
  setenv("TFLACCEL_CACHE", "off", 1);
  ck_assert_ptr_null(environment_cache_dir(dir, NULL));
  unsetenv("TFLACCEL_CACHE");
  /* cache_dir in the ini, then TFLACCEL_CACHE_DIR over it. */
  char *from_ini = join(dir, "from-ini");
  char text[4096];
  snprintf(text, sizeof text, "[tflaccel]\ncache_dir = %s\ncache_max_mb = 1\n[plugin.cpu_ref]\n",
           from_ini);
  got = environment_cache_dir(dir, text);
  ck_assert_ptr_nonnull(got);
  ck_assert_str_eq(got, from_ini);
  free(got);
  char *from_env = join(dir, "from-env");
  setenv("TFLACCEL_CACHE_DIR", from_env, 1);
  got = environment_cache_dir(dir, text);
  ck_assert_ptr_nonnull(got);
  ck_assert_str_eq(got, from_env);
  free(got);
  /* Group-writable: refused, the environment still made. */
  ck_assert_int_eq(chmod(from_env, 0775), 0);
  ck_assert_ptr_null(environment_cache_dir(dir, NULL));
  /* A directory that cannot be made (under a plain file): off, no failure. */
  char *file = test_write_file(dir, "a-file", "x");
  char *under_file = join(file, "cache");
  setenv("TFLACCEL_CACHE_DIR", under_file, 1);
  ck_assert_ptr_null(environment_cache_dir(dir, NULL));
  /* /tmp itself. */
  setenv("TFLACCEL_CACHE_DIR", "/tmp", 1);
  ck_assert_ptr_null(environment_cache_dir(dir, NULL));
  /* A configured directory whose parent is missing: off, and nothing of
   * it made (only the default location gets its parents made). */
  char *missing_parent = join(dir, "missing");
  char *under_missing = join(missing_parent, "cache");
  setenv("TFLACCEL_CACHE_DIR", under_missing, 1);
  ck_assert_ptr_null(environment_cache_dir(dir, NULL));
  ck_assert_int_ne(access(missing_parent, F_OK), 0);
  snprintf(text, sizeof text, "[tflaccel]\ncache_dir = %s\n[plugin.cpu_ref]\n", under_missing);
  unsetenv("TFLACCEL_CACHE_DIR");
  ck_assert_ptr_null(environment_cache_dir(dir, text));
  ck_assert_int_ne(access(missing_parent, F_OK), 0);
  /* Its parent exists: the last component is made, 0700. */
  char *one_level = join(dir, "one-level");
  setenv("TFLACCEL_CACHE_DIR", one_level, 1);
  got = environment_cache_dir(dir, NULL);
  ck_assert_ptr_nonnull(got);
  ck_assert_str_eq(got, one_level);
  ck_assert_int_eq(stat(one_level, &info), 0);
  ck_assert_uint_eq(info.st_mode & 0777, 0700);
  free(got);
  unsetenv("TFLACCEL_CACHE_DIR");
  /* The default under HOME (XDG_CACHE_HOME unset): made with its parents;
   * a home that does not exist (a build user's /nonexistent) or no HOME at
   * all: off, nothing made. */
  char *saved_home = getenv("HOME") != NULL ? strdup(getenv("HOME")) : NULL;
  unsetenv("XDG_CACHE_HOME");
  char *home = join(dir, "home");
  ck_assert_int_eq(mkdir(home, 0755), 0);
  setenv("HOME", home, 1);
  char *home_cache = join(home, ".cache/tflaccel");
  got = environment_cache_dir(dir, NULL);
  ck_assert_ptr_nonnull(got);
  ck_assert_str_eq(got, home_cache);
  free(got);
  char *no_home = join(dir, "nonexistent");
  setenv("HOME", no_home, 1);
  ck_assert_ptr_null(environment_cache_dir(dir, NULL));
  ck_assert_int_ne(access(no_home, F_OK), 0);
  unsetenv("HOME");
  ck_assert_ptr_null(environment_cache_dir(dir, NULL));
  if (saved_home != NULL) setenv("HOME", saved_home, 1);
  setenv("XDG_CACHE_HOME", xdg, 1);
  free(saved_home);
  free(home);
  free(home_cache);
  free(no_home);
  free(one_level);
  free(missing_parent);
  free(under_missing);
  /* A bad value of the ini key is a one-line config error. */
  char *bad = test_write_file(dir, "bad.ini", "[tflaccel]\ncache = maybe\n");
  tflaccel_environment_options options = {
      .struct_size = sizeof options, .config_path = bad, .accelerators = "cpu_ref"};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  ck_assert_ptr_nonnull(status);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "cache must be on or off"));
  tflaccel_status_free(status);
  test_remove_tree(dir);
  free(bad);
  free(file);
  free(under_file);
  free(from_ini);
  free(from_env);
  free(expected);
  free(xdg);
  free(dir);
}
END_TEST

enum { CONCURRENT_WRITERS = 3, CONCURRENT_READERS = 3, ROUNDS = 60 };

/* A writer: ROUNDS entries under one name, each of another size and body
 * (1..2 MiB, so a write takes many syscalls). */
static int run_writer(const char *dir, const char *name, const unsigned char *key, int which) {
  size_t largest = 2u << 20;
  unsigned char *body = malloc(largest);
  if (body == NULL) return 1;
  for (int round = 0; round < ROUNDS; ++round) {
    size_t size = (1u << 20) + (size_t)((which * 7919 + round * 104729) % (1 << 20));
    memset(body, (which * 31 + round) & 0xff, size);
    cache_entry_header header;
    cache_entry_header_make(&header, key, (uint32_t)which, "concurrent", "0123456789abcdef model.tflite", body, size);
    if (cache_file_write(dir, name, &header, sizeof header, body, size) != 0) return 1;
  }
  free(body);
  return 0;
}

/* A reader: whatever it opens must be a whole, intact entry. */
static int run_reader(const char *dir, const char *name, const unsigned char *key) {
  int seen = 0;
  for (int round = 0; round < 4 * ROUNDS; ++round) {
    int fd = -1;
    uint64_t size = 0;
    int error = cache_file_open(dir, name, &fd, &size);
    if (error == ENOENT) continue;
    if (error != 0) return 2;
    unsigned char *file = malloc(size ? size : 1);
    int damaged = file == NULL || cache_file_read_all(fd, file, size) != 0;
    close(fd);
    const cache_entry_header *header = NULL;
    const void *body = NULL;
    if (!damaged && cache_entry_check(file, size, key, &header, &body) != NULL) damaged = 1;
    free(file);
    if (damaged) return 3;
    ++seen;
  }
  return seen > 0 ? 0 : 4;
}

START_TEST(concurrent_processes_never_see_half_an_entry) {
  char *dir = test_make_temp_dir();
  unsigned char key[SHA256_DIGEST_SIZE];
  sha256_of("shared", 6, key);
  char name[CACHE_ENTRY_NAME_SIZE];
  ck_assert(cache_entry_file_name("gpu_gl", key, name)); /* write_entry's owner */
  write_entry(dir, "shared", 1000, time(NULL));
  pid_t children[CONCURRENT_WRITERS + CONCURRENT_READERS];
  for (int i = 0; i < CONCURRENT_WRITERS + CONCURRENT_READERS; ++i) {
    children[i] = fork();
    ck_assert_int_ge(children[i], 0);
    if (children[i] == 0)
      _exit(i < CONCURRENT_WRITERS ? run_writer(dir, name, key, i) : run_reader(dir, name, key));
  }
  for (int i = 0; i < CONCURRENT_WRITERS + CONCURRENT_READERS; ++i) {
    int status = 0;
    ck_assert_int_eq(waitpid(children[i], &status, 0), children[i]);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "%s %d failed (status %d: 2 open, 3 a damaged read, 4 never read)",
                  i < CONCURRENT_WRITERS ? "writer" : "reader", i, status);
  }
  /* Nothing but the entry is left: every temporary was renamed. */
  cache_directory_entry *entries = NULL;
  uint32_t count = 0;
  ck_assert_int_eq(cache_directory_list(dir, &entries, &count), 0);
  ck_assert_uint_eq(count, 1);
  free(entries);
  uint32_t removed = 0;
  uint64_t kept = 0;
  ck_assert_int_eq(cache_directory_evict(dir, UINT64_MAX, &removed, &kept), 0);
  ck_assert_uint_eq(removed, 0);
  test_remove_tree(dir);
  free(dir);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("cache_files");
  TCase *tc = tcase_create("cache_files");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, sha256_test_vectors);
  tcase_add_test(tc, entry_format_refuses_damage);
  tcase_add_test(tc, files_are_private_and_never_followed);
  tcase_add_test(tc, directory_privacy);
  tcase_add_test(tc, directory_is_bounded_lru);
  tcase_add_test(tc, environment_chooses_directory);
  tcase_add_test(tc, concurrent_processes_never_see_half_an_entry);
  suite_add_tcase(suite, tc);
  return test_run_suite(suite);
}
