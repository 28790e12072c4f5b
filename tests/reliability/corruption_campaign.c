/* Corruption campaign: damaged copies of every real model are loaded,
 * compiled on cpu_ref and run, each in its own child process with a time
 * limit, to show that bad files give a clean refusal and never a crash, a
 * hang or (in a sanitizer build) a sanitizer report.
 *
 *   corruption_campaign [--seconds N] [--seed S] [--verbose] DIR...
 *
 * Every *.tflite in each DIR takes part; cases go round-robin over models,
 * the kinds interleaved, until N seconds (default 120) have passed:
 *   flip      one to eight random bytes set to random values
 *   truncate  the file cut at a random length
 *   word      an aligned 32-bit word (offsets, lengths, indices, counts of
 *             the flatbuffer) set to 0, 1, -1, 2^31-1, the file size, or
 *             nudged by +-4 / +-1
 *   scale     a quantized tensor's scale (found in the file by its vector)
 *             set to nan, inf, 0, -1, 1e38, 1e-45, 1e-30 or 1e30
 *   zero      a quantized tensor's zero point set to +-2^40, +-2^31, 300,
 *             -300 or 255
 * Counts: cases, refusals (a one-line error at load, compile or run), runs
 * (loaded, compiled and ran), crashes (a signal), sanitizer reports (ASan,
 * UBSan or LSan output in the child's stderr), time-outs. Exits 1 when any
 * crash, report or time-out happened; each is listed with its seed and how
 * to replay it (--seed S --only CASE). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tflaccel/tflaccel.h"

#define MAX_MODELS 256
/* A child that uses more CPU time than this has hung (or loops); CPU time,
 * not wall time, so that a loaded machine or a slow sanitizer build does not
 * count as a hang. A child blocked without using CPU is stopped by the wall
 * clock limit. */
#define CASE_CPU_SECONDS 120
#define CASE_WALL_SECONDS 1200

typedef enum case_kind { KIND_FLIP, KIND_TRUNCATE, KIND_WORD, KIND_SCALE, KIND_ZERO, KIND_COUNT } case_kind;
static const char *const kind_names[KIND_COUNT] = {"flip", "truncate", "word", "scale", "zero"};

/* Where a quantized tensor's parameters sit in the file. */
typedef struct quant_site {
  size_t scale_offset;      /* first float of the scale vector */
  size_t zero_point_offset; /* first int64 of the zero_point vector, 0 when not found */
} quant_site;

typedef struct model_file {
  char *path;
  uint8_t *bytes;
  size_t size;
  quant_site *sites;
  size_t site_count;
} model_file;

typedef enum outcome { OUTCOME_RUN, OUTCOME_REFUSED, OUTCOME_CRASH, OUTCOME_REPORT, OUTCOME_TIMEOUT } outcome;

static model_file models[MAX_MODELS];
static size_t model_count;
/* The damaged copy; global so that a child's LeakSanitizer, which runs at
 * the child's exit, sees it reachable. */
static uint8_t *case_bytes;

static uint64_t splitmix(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static uint8_t *read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) return NULL;
  uint8_t *bytes = NULL;
  if (fseek(file, 0, SEEK_END) == 0) {
    long length = ftell(file);
    if (length > 0 && fseek(file, 0, SEEK_SET) == 0 && (bytes = malloc((size_t)length)) != NULL &&
        fread(bytes, 1, (size_t)length, file) != (size_t)length) {
      free(bytes);
      bytes = NULL;
    }
    *size = length > 0 ? (size_t)length : 0;
  }
  fclose(file);
  return bytes;
}

/* Finds where each quantized tensor's scale and zero_point vectors are: a
 * uint32 length equal to the count, followed by the values. */
static void find_quant_sites(model_file *file) {
  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_memory(file->bytes, file->size, &model);
  if (status != NULL) {
    tflaccel_status_free(status);
    return;
  }
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  if (tflaccel_model_get_summary(model, &summary) == NULL) {
    file->sites = calloc(summary.tensor_count + 1, sizeof *file->sites);
    for (uint32_t t = 0; file->sites != NULL && t < summary.tensor_count; ++t) {
      tflaccel_tensor_info info = {.struct_size = sizeof info};
      if (tflaccel_model_tensor_info(model, t, &info) != NULL || info.quantization.count == 0) continue;
      const tflaccel_quantization *q = &info.quantization;
      uint32_t count = q->count;
      for (size_t at = 0; at + 4 + 4 * (size_t)count <= file->size; at += 4) {
        uint32_t length;
        memcpy(&length, file->bytes + at, 4);
        if (length != count || memcmp(file->bytes + at + 4, q->scales, 4 * (size_t)count) != 0) continue;
        quant_site site = {.scale_offset = at + 4};
        /* The zero points: int64s near the scales (same QuantizationParameters table). */
        for (size_t z = at > 512 ? (at - 512) & ~(size_t)3 : 0; z + 4 + 8 * (size_t)count <= file->size &&
                                                                 z < at + 512;
             z += 4) {
          memcpy(&length, file->bytes + z, 4);
          if (length != count) continue;
          int matches = 1;
          for (uint32_t k = 0; k < count && matches; ++k) {
            int64_t value;
            memcpy(&value, file->bytes + z + 4 + 8 * (size_t)k, 8);
            matches = value == q->zero_points[k];
          }
          if (matches) {
            site.zero_point_offset = z + 4;
            break;
          }
        }
        file->sites[file->site_count++] = site;
        break;
      }
    }
  }
  tflaccel_model_destroy(model);
}

/* Applies case `kind` with random state to a copy of the model; writes a
 * description. Returns the (possibly shorter) size. */
static size_t corrupt(const model_file *file, case_kind kind, uint64_t *state, uint8_t *bytes,
                      char *description, size_t description_size) {
  size_t size = file->size;
  memcpy(bytes, file->bytes, size);
  switch (kind) {
  case KIND_FLIP: {
    int flips = 1 + (int)(splitmix(state) % 8);
    snprintf(description, description_size, "%d byte(s) changed", flips);
    for (int i = 0; i < flips; ++i) bytes[splitmix(state) % size] = (uint8_t)splitmix(state);
    return size;
  }
  case KIND_TRUNCATE: {
    size_t length = (size_t)(splitmix(state) % size);
    snprintf(description, description_size, "cut to %zu of %zu bytes", length, size);
    return length;
  }
  case KIND_WORD: {
    size_t at = (size_t)(splitmix(state) % (size / 4)) * 4;
    uint32_t word;
    memcpy(&word, bytes + at, 4);
    const uint32_t choices[] = {0, 1, UINT32_MAX, INT32_MAX, (uint32_t)size, word + 4, word - 4,
                                word + 1, word - 1, word * 2 + 1};
    word = choices[splitmix(state) % (sizeof choices / sizeof choices[0])];
    memcpy(bytes + at, &word, 4);
    snprintf(description, description_size, "word at %zu set to %u", at, word);
    return size;
  }
  case KIND_SCALE:
  case KIND_ZERO: {
    if (file->site_count == 0) break;
    const quant_site *site = &file->sites[splitmix(state) % file->site_count];
    if (kind == KIND_SCALE) {
      const float choices[] = {NAN, INFINITY, 0.0f, -1.0f, 1e38f, 1e-45f, 1e-30f, 1e30f};
      float value = choices[splitmix(state) % (sizeof choices / sizeof choices[0])];
      memcpy(bytes + site->scale_offset, &value, 4);
      snprintf(description, description_size, "scale at %zu set to %g", site->scale_offset,
               (double)value);
      return size;
    }
    if (site->zero_point_offset == 0) break;
    const int64_t choices[] = {INT64_C(1) << 40, -(INT64_C(1) << 40), INT64_C(1) << 31,
                               -(INT64_C(1) << 31), 300, -300, 255};
    int64_t value = choices[splitmix(state) % (sizeof choices / sizeof choices[0])];
    memcpy(bytes + site->zero_point_offset, &value, 8);
    snprintf(description, description_size, "zero point at %zu set to %lld",
             site->zero_point_offset, (long long)value);
    return size;
  }
  default:
    break;
  }
  /* The tensor's zero points were not found in the file: a bit flip. */
  bytes[splitmix(state) % size] ^= (uint8_t)(1u << (splitmix(state) % 8));
  snprintf(description, description_size, "one bit flipped (zero points not located)");
  return size;
}

/* In the child: load, compile on cpu_ref, run once. Exit 0: ran; 3: refused
 * with a one-line message; 4: a refusal whose message is empty or has
 * several lines (a defect too). */
static int exercise(tflaccel_environment *environment, const uint8_t *bytes, size_t size) {
  tflaccel_model *model = NULL;
  tflaccel_compiled_model *compiled = NULL;
  tflaccel_tensor_buffer *inputs[16] = {0}, *outputs[16] = {0};
  uint32_t input_count = 0, output_count = 0;
  tflaccel_status status = tflaccel_model_load_memory(bytes, size, &model);
  if (status == NULL) status = tflaccel_compiled_model_create(environment, model, NULL, &compiled);
  if (status == NULL) {
    input_count = tflaccel_compiled_model_input_count(compiled);
    output_count = tflaccel_compiled_model_output_count(compiled);
    if (input_count > 16 || output_count > 16)
      status = tflaccel_status_make(TFLACCEL_UNSUPPORTED, "more than 16 inputs or outputs");
  }
  for (uint32_t i = 0; status == NULL && i < input_count; ++i) {
    status = tflaccel_compiled_model_create_input_buffer(compiled, i, &inputs[i]);
    if (status == NULL) {
      uint8_t *data = tflaccel_tensor_buffer_data(inputs[i]);
      size_t bytes_in = tflaccel_tensor_buffer_byte_size(inputs[i]);
      for (size_t k = 0; k < bytes_in; ++k) data[k] = (uint8_t)(k * 37 + 11);
      if (tflaccel_tensor_buffer_dtype(inputs[i]) == TFLACCEL_DTYPE_FLOAT32)
        for (size_t k = 0; k < bytes_in / 4; ++k) ((float *)(void *)data)[k] = (float)(k % 255) / 127.0f - 1.0f;
    }
  }
  for (uint32_t i = 0; status == NULL && i < output_count; ++i)
    status = tflaccel_compiled_model_create_output_buffer(compiled, i, &outputs[i]);
  if (status == NULL)
    status = tflaccel_compiled_model_run(compiled, inputs, input_count, outputs, output_count);
  int code = 0;
  if (status != NULL) {
    const char *message = tflaccel_status_message(status);
    code = message[0] != '\0' && strchr(message, '\n') == NULL ? 3 : 4;
    if (code == 4) fprintf(stderr, "campaign: bad refusal message: '%s'\n", message);
    tflaccel_status_free(status);
  }
  for (uint32_t i = 0; i < 16; ++i) {
    tflaccel_tensor_buffer_destroy(inputs[i]);
    tflaccel_tensor_buffer_destroy(outputs[i]);
  }
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_model_destroy(model);
  return code;
}

static int has_sanitizer_report(const char *path) {
  FILE *file = fopen(path, "r");
  if (file == NULL) return 0;
  char line[4096];
  int found = 0;
  while (!found && fgets(line, sizeof line, file) != NULL)
    found = strstr(line, "runtime error:") != NULL || strstr(line, "ERROR: AddressSanitizer") != NULL ||
            strstr(line, "ERROR: LeakSanitizer") != NULL || strstr(line, "ThreadSanitizer") != NULL;
  fclose(file);
  return found;
}

static outcome run_case(const char *environment_accelerators, const uint8_t *bytes, size_t size,
                        const char *log_path) {
  pid_t child = fork();
  if (child < 0) {
    perror("fork");
    exit(2);
  }
  if (child == 0) {
    int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      dup2(fd, STDERR_FILENO);
      close(fd);
    }
    struct rlimit cpu = {.rlim_cur = CASE_CPU_SECONDS, .rlim_max = CASE_CPU_SECONDS + 5};
    setrlimit(RLIMIT_CPU, &cpu);
    signal(SIGXCPU, SIG_DFL);
    signal(SIGALRM, SIG_DFL);
    alarm(CASE_WALL_SECONDS);
    tflaccel_environment_options options = {.struct_size = sizeof options,
                                            .accelerators = environment_accelerators,
                                            .log_level = "error"};
    tflaccel_environment *environment = NULL;
    tflaccel_status status = tflaccel_environment_create(&options, &environment);
    if (status != NULL) {
      fprintf(stderr, "campaign: %s\n", tflaccel_status_message(status));
      _exit(5);
    }
    int code = exercise(environment, bytes, size);
    tflaccel_environment_destroy(environment);
    exit(code); /* exit, not _exit: LeakSanitizer runs at exit */
  }
  int wait_status = 0;
  while (waitpid(child, &wait_status, 0) < 0 && errno == EINTR) {
  }
  int report = has_sanitizer_report(log_path);
  if (WIFSIGNALED(wait_status))
    return WTERMSIG(wait_status) == SIGALRM || WTERMSIG(wait_status) == SIGXCPU ||
                   WTERMSIG(wait_status) == SIGKILL
               ? OUTCOME_TIMEOUT
               : (report ? OUTCOME_REPORT : OUTCOME_CRASH);
  if (report) return OUTCOME_REPORT;
  int code = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 99;
  if (code == 0) return OUTCOME_RUN;
  if (code == 3) return OUTCOME_REFUSED;
  return OUTCOME_CRASH; /* 4 (bad message), 5 (no environment), a sanitizer's exit code */
}

static int compare_paths(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_directory(const char *directory) {
  DIR *dir = opendir(directory);
  if (dir == NULL) {
    fprintf(stderr, "corruption_campaign: %s: %s (skipped)\n", directory, strerror(errno));
    return;
  }
  struct dirent *entry;
  char *found[MAX_MODELS];
  size_t found_count = 0;
  while ((entry = readdir(dir)) != NULL && found_count < MAX_MODELS) {
    size_t length = strlen(entry->d_name);
    if (length < 7 || strcmp(entry->d_name + length - 7, ".tflite") != 0) continue;
    size_t path_size = strlen(directory) + length + 2;
    found[found_count] = malloc(path_size);
    if (found[found_count] == NULL) break;
    snprintf(found[found_count], path_size, "%s/%s", directory, entry->d_name);
    ++found_count;
  }
  closedir(dir);
  qsort(found, found_count, sizeof found[0], compare_paths);
  for (size_t i = 0; i < found_count; ++i) {
    model_file *file = &models[model_count];
    file->path = found[i];
    file->bytes = read_file(found[i], &file->size);
    if (file->bytes == NULL || file->size < 8 || model_count + 1 >= MAX_MODELS) {
      fprintf(stderr, "corruption_campaign: cannot read %s (skipped)\n", found[i]);
      free(file->bytes);
      free(found[i]);
      continue;
    }
    find_quant_sites(file);
    ++model_count;
  }
}

int main(int argc, char **argv) {
  double seconds = 120;
  uint64_t seed = 1;
  long only = -1;
  int verbose = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = atol(argv[++i]);
    else if (!strcmp(argv[i], "--verbose")) verbose = 1;
    else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: corruption_campaign [--seconds N] [--seed S] [--only CASE] [--verbose] DIR...\n");
      return 2;
    } else add_directory(argv[i]);
  }
  if (model_count == 0) {
    fprintf(stderr, "corruption_campaign: no models found\n");
    return 2;
  }
  size_t largest = 0, sites = 0;
  for (size_t m = 0; m < model_count; ++m) {
    if (models[m].size > largest) largest = models[m].size;
    sites += models[m].site_count;
  }
  case_bytes = malloc(largest);
  if (case_bytes == NULL) return 2;
  uint8_t *bytes = case_bytes;
  char log_path[] = "/tmp/tflaccel-campaign-XXXXXX";
  int log_fd = mkstemp(log_path);
  if (log_fd < 0) return 2;
  close(log_fd);
  printf("corruption campaign: %zu models, %zu quantized tensors located, seed %llu, %.0f s\n",
         model_count, sites, (unsigned long long)seed, seconds);
  fflush(stdout);

  unsigned long counts[5] = {0}, kind_cases[KIND_COUNT] = {0}, cases = 0;
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (long index = only >= 0 ? only : 0;; ++index) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    double elapsed = (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
    if (only < 0 && elapsed >= seconds) break;
    if (only >= 0 && index > only) break;
    const model_file *file = &models[(size_t)index % model_count];
    /* Every kind early, whatever the time budget: the kind moves on with the
     * case and shifts by one each round over the models. */
    case_kind kind = (case_kind)((size_t)(index + index / (long)model_count) % KIND_COUNT);
    if ((kind == KIND_SCALE || kind == KIND_ZERO) && file->site_count == 0)
      kind = KIND_FLIP; /* a float model: nothing quantized to damage */
    uint64_t state = seed * UINT64_C(1000003) + (uint64_t)index;
    char description[160];
    size_t size = corrupt(file, kind, &state, bytes, description, sizeof description);
    outcome result = run_case("cpu_ref", bytes, size, log_path);
    ++counts[result];
    ++kind_cases[kind];
    ++cases;
    if (result >= OUTCOME_CRASH || verbose) {
      static const char *const names[] = {"ran", "refused", "CRASH", "SANITIZER REPORT", "TIME-OUT"};
      printf("case %ld (%s, %s: %s): %s; replay with --seed %llu --only %ld\n", index,
             kind_names[kind], file->path, description, names[result], (unsigned long long)seed,
             index);
      if (result >= OUTCOME_CRASH) {
        FILE *log = fopen(log_path, "r");
        char line[1024];
        for (int n = 0; log != NULL && n < 30 && fgets(line, sizeof line, log) != NULL; ++n)
          printf("    %s", line);
        if (log != NULL) fclose(log);
      }
      fflush(stdout);
    }
  }
  unlink(log_path);
  clock_gettime(CLOCK_MONOTONIC, &now);
  double elapsed = (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
  printf("cases %lu (flip %lu, truncate %lu, word %lu, scale %lu, zero %lu) in %.0f s: "
         "refusals %lu, runs %lu, crashes %lu, sanitizer reports %lu, time-outs %lu\n",
         cases, kind_cases[KIND_FLIP], kind_cases[KIND_TRUNCATE], kind_cases[KIND_WORD],
         kind_cases[KIND_SCALE], kind_cases[KIND_ZERO], elapsed, counts[OUTCOME_REFUSED],
         counts[OUTCOME_RUN], counts[OUTCOME_CRASH], counts[OUTCOME_REPORT], counts[OUTCOME_TIMEOUT]);
  for (size_t m = 0; m < model_count; ++m) {
    free(models[m].path);
    free(models[m].bytes);
    free(models[m].sites);
  }
  free(case_bytes);
  return counts[OUTCOME_CRASH] + counts[OUTCOME_REPORT] + counts[OUTCOME_TIMEOUT] ? 1 : 0;
}
