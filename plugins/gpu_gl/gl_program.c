/* GLES compute programs of the GLSL kernels (gl_program.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_common/gpu_array.h"
#include "plugins/gpu_common/gpu_kernel_catalog.h"
#include "plugins/gpu_common/gpu_program.h"
#include "plugins/gpu_gl/gl_error.h"
#include "plugins/gpu_gl/gl_kernel_sources.h"
#include "plugins/gpu_gl/gl_probe.h"
#include "plugins/gpu_gl/gl_program.h"

/* How much of a compile or link log a status message carries. */
#define LOG_EXCERPT 1500

/* GL_KHR_parallel_shader_compile, where the driver offers it: it may then
 * compile, link and load programs on threads of its own, so that the
 * programs issued together (a partition's binaries,
 * gl_program_partition_begin) overlap; each one's status is asked only
 * when it is used. */
static void allow_parallel_compile(const tflaccel_host_services *host) {
  if (!gl_has_extension("GL_KHR_parallel_shader_compile")) return;
  PFNGLMAXSHADERCOMPILERTHREADSKHRPROC max_threads =
      (PFNGLMAXSHADERCOMPILERTHREADSKHRPROC)eglGetProcAddress("glMaxShaderCompilerThreadsKHR");
  if (max_threads == NULL) return;
  gl_clear_errors();
  max_threads(0xFFFFFFFFu); /* as many as the driver likes */
  gl_clear_errors();
  host->log(host->context, TFLACCEL_LOG_DEBUG,
            "programs load in parallel (GL_KHR_parallel_shader_compile)");
}

tflaccel_status gl_program_set_init(const tflaccel_host_services *host, gl_program_set *set) {
  memset(set, 0, sizeof *set);
  set->host = host;
  if (gpu_gl_kernel_sources_count != GL_KERNEL_SOURCE_FIRST_KERNEL + GPU_KERNEL_EXTENDED_COUNT)
    return host->status_make(TFLACCEL_INTERNAL,
                             "gpu_gl has %u embedded GLSL files, expected %d (prelude, common "
                             "and the catalogue's %d kernels)",
                             gpu_gl_kernel_sources_count,
                             GL_KERNEL_SOURCE_FIRST_KERNEL + GPU_KERNEL_EXTENDED_COUNT,
                             (int)GPU_KERNEL_EXTENDED_COUNT);
  gl_program_cache_init(host, &set->cache, (const char *const *)gpu_gl_kernel_sources,
                        gpu_gl_kernel_sources_count);
  allow_parallel_compile(host);
  return NULL;
}

void gl_program_set_release(gl_program_set *set) {
  if (set->host == NULL) return;
  gl_program_partition_end(set, 0);
  for (uint32_t i = 0; i < set->count; ++i) glDeleteProgram(set->entries[i].program);
  if (set->entries != NULL) set->host->free(set->host->context, set->entries);
  for (uint32_t i = 0; i < set->building_count; ++i) {
    glDeleteProgram(set->building[i].program);
    glDeleteShader(set->building[i].shader);
  }
  if (set->building != NULL) set->host->free(set->host->context, set->building);
  memset(set, 0, sizeof *set);
}

/* "<what> of <kernel> failed: <log excerpt>", the log on one line. */
static tflaccel_status build_failure(const tflaccel_host_services *host, const char *what,
                                     int32_t kernel, const char *log) {
  char excerpt[LOG_EXCERPT + 1];
  size_t at = 0;
  for (size_t i = 0; log[i] != '\0' && at < LOG_EXCERPT; ++i)
    excerpt[at++] = log[i] == '\n' || log[i] == '\r' ? ' ' : log[i];
  excerpt[at] = '\0';
  return host->status_make(TFLACCEL_BACKEND_ERROR, "gpu_gl: %s of %s failed: %s", what,
                           gpu_kernel_name(kernel), at > 0 ? excerpt : "no log");
}

/* ---- the partition's entry: "GLP2", a record count, then the records
 * (gl_program_record, its binary, padding to 4 bytes) ---- */

#define ENTRY_MAGIC 0x32504c47u /* "GLP2": records with the post-op list */

static uint32_t padded(uint32_t size) { return (size + 3u) & ~3u; }

/* The index of the set's program of key, or -1. */
static int32_t find_entry(const gl_program_set *set, const gl_program_key *key) {
  for (uint32_t i = 0; i < set->count; ++i)
    if (gl_program_key_equal(&set->entries[i].key, key)) return (int32_t)i;
  return -1;
}

/* Starts loading every program of the verified entry that the set does not
 * hold yet; the first the driver refuses at once makes the entry
 * incomplete (its programs are compiled, and it is written again). */
static void load_entry(gl_program_set *set) {
  gl_program_partition *partition = &set->partition;
  const unsigned char *body = partition->body;
  uint32_t size = partition->body_size, header[2];
  memcpy(header, body, sizeof header);
  uint64_t at = sizeof header;
  /* Each record takes at least its own bytes: no count asks for more. */
  uint32_t most = (uint32_t)((size - at) / sizeof(gl_program_record));
  uint32_t count = header[1] < most ? header[1] : most;
  partition->loading =
      set->host->alloc(set->host->context, (count ? count : 1) * sizeof *partition->loading,
                       _Alignof(gl_program_entry));
  if (partition->loading == NULL) {
    partition->complete = 0;
    return;
  }
  for (uint32_t i = 0; i < count; ++i) {
    gl_program_record record;
    if (at + sizeof record > size) break;
    memcpy(&record, body + at, sizeof record);
    at += sizeof record;
    if (record.size > size - at) break;
    if (find_entry(set, &record.key) < 0) {
      GLuint program = gl_program_cache_load(&set->cache, record.format, body + at, record.size);
      if (program == 0) {
        partition->complete = 0;
        return;
      }
      gl_program_entry *loading = &partition->loading[partition->loading_count++];
      *loading = (gl_program_entry){.key = record.key, .program = program};
    }
    at += padded(record.size);
  }
  set->host->log(set->host->context, TFLACCEL_LOG_DEBUG,
                 "program cache: loading %u of the entry's %u programs", partition->loading_count,
                 count);
}

void gl_program_partition_begin(gl_program_set *set, gpu_disk_cache_key_builder *builder,
                                const tflaccel_compile_options *options) {
  gl_program_partition *partition = &set->partition;
  gl_program_partition_end(set, 0);
  if (!set->cache.enabled) return;
  gpu_disk_cache_key_add(builder, set->cache.driver.digest, sizeof set->cache.driver.digest);
  partition->disk = set->cache.disk;
  gpu_disk_cache_name_model(&partition->disk, options);
  gpu_disk_cache_key_end(builder, &partition->key);
  partition->active = 1;
  void *body = NULL;
  uint32_t size = 0, tag = 0;
  if (gpu_disk_cache_read(&partition->disk, &partition->key, &body, &size, &tag)) {
    partition->body = body;
    partition->body_size = size;
    uint32_t header[2] = {0, 0};
    if (size >= sizeof header) memcpy(header, body, sizeof header);
    partition->complete = header[0] == ENTRY_MAGIC;
    if (partition->complete) load_entry(set);
  }
}

/* The entry's program of key, once linked, or 0 (none there, or the
 * driver refused it: the entry is then rewritten). */
static GLuint from_entry(gl_program_set *set, const gl_program_key *key) {
  gl_program_partition *partition = &set->partition;
  if (!partition->active || !partition->complete) return 0;
  for (uint32_t i = 0; i < partition->loading_count; ++i) {
    gl_program_entry *loading = &partition->loading[i];
    if (loading->program != 0 && gl_program_key_equal(&loading->key, key)) {
      GLuint program = loading->program;
      loading->program = 0;
      if (!gl_program_cache_linked(&set->cache, program)) {
        partition->complete = 0;
        return 0;
      }
      return program;
    }
  }
  partition->complete = 0;
  return 0;
}

/* Notes that the partition's dispatches use program entry index. */
static void partition_uses(gl_program_set *set, uint32_t index) {
  gl_program_partition *partition = &set->partition;
  if (!partition->active) return;
  for (uint32_t i = 0; i < partition->used_count; ++i)
    if (partition->used[i] == index) return;
  if (!gpu_array_reserve(set->host, (void **)&partition->used, &partition->used_capacity,
                         partition->used_count + 1, sizeof *partition->used, _Alignof(uint32_t))) {
    partition->active = 0; /* out of memory: no entry this time */
    return;
  }
  partition->used[partition->used_count++] = index;
}

static void write_entry(gl_program_set *set) {
  const tflaccel_host_services *host = set->host;
  gl_program_partition *partition = &set->partition;
  uint32_t count = partition->used_count;
  void **binaries = host->alloc(host->context, (count ? count : 1) * sizeof *binaries, 8);
  gl_program_record *records =
      host->alloc(host->context, (count ? count : 1) * sizeof *records, 8);
  unsigned char *body = NULL;
  uint64_t total = 2 * sizeof(uint32_t);
  int ok = binaries != NULL && records != NULL;
  if (ok) memset(binaries, 0, (count ? count : 1) * sizeof *binaries);
  for (uint32_t i = 0; ok && i < count; ++i) {
    const gl_program_entry *entry = &set->entries[partition->used[i]];
    records[i] = (gl_program_record){.key = entry->key};
    ok = gl_program_cache_binary(&set->cache, entry->program, &binaries[i], &records[i].size,
                                 &records[i].format);
    total += sizeof records[i] + padded(records[i].size);
  }
  if (ok && total <= GPU_DISK_CACHE_MAX_BYTES)
    body = host->alloc(host->context, (size_t)total, 16);
  if (body != NULL) {
    memset(body, 0, (size_t)total);
    uint32_t header[2] = {ENTRY_MAGIC, count};
    memcpy(body, header, sizeof header);
    uint64_t at = sizeof header;
    for (uint32_t i = 0; i < count; ++i) {
      memcpy(body + at, &records[i], sizeof records[i]);
      at += sizeof records[i];
      memcpy(body + at, binaries[i], records[i].size);
      at += padded(records[i].size);
    }
    gpu_disk_cache_write(&partition->disk, &partition->key, "GLES program binaries", body,
                         (uint32_t)total, 0);
    host->free(host->context, body);
  }
  for (uint32_t i = 0; binaries != NULL && i < count; ++i)
    if (binaries[i] != NULL) host->free(host->context, binaries[i]);
  if (binaries != NULL) host->free(host->context, binaries);
  if (records != NULL) host->free(host->context, records);
}

void gl_program_partition_end(gl_program_set *set, int32_t compiled) {
  gl_program_partition *partition = &set->partition;
  if (partition->active && compiled && !partition->complete) write_entry(set);
  if (partition->body != NULL) set->host->free(set->host->context, partition->body);
  if (partition->used != NULL) set->host->free(set->host->context, partition->used);
  /* Programs of the entry that no dispatch asked for. */
  for (uint32_t i = 0; i < partition->loading_count; ++i)
    if (partition->loading[i].program != 0) glDeleteProgram(partition->loading[i].program);
  if (partition->loading != NULL) set->host->free(set->host->context, partition->loading);
  memset(partition, 0, sizeof *partition);
}

/* Starts building key's program from source: compiled and linked, no
 * status asked (so that the driver may build several side by side).
 * *shader and *program are 0 when GL could not even make them (status:
 * why). */
static tflaccel_status issue_build(gl_program_set *set, const gl_program_key *key, GLuint *shader,
                                   GLuint *program) {
  const tflaccel_host_services *host = set->host;
  *shader = *program = 0;
  /* The post-op list as common.glsl's POST_LIST (a constant, so that the
   * compiler drops what the list does not need). */
  char header[256];
  snprintf(header, sizeof header,
           "%slayout(local_size_x = %u, local_size_y = %u, local_size_z = %u) in;\n"
           "const uint POST_LIST = %uu;\n#define GPU_POST_LIST_DECLARED 1\n",
           key->storage == GPU_STORAGE_HALF ? "#define GPU_HALF_STORAGE 1\n" : "", key->local[0],
           key->local[1], key->local[2], key->post_list);
  const GLchar *sources[4] = {
      gpu_gl_kernel_sources[GL_KERNEL_SOURCE_PRELUDE],
      header,
      gpu_gl_kernel_sources[GL_KERNEL_SOURCE_COMMON],
      gpu_gl_kernel_sources[GL_KERNEL_SOURCE_FIRST_KERNEL + key->kernel],
  };
  gl_clear_errors();
  GLuint made = glCreateShader(GL_COMPUTE_SHADER);
  if (made == 0) {
    tflaccel_status status = gl_check_error(host, "glCreateShader(GL_COMPUTE_SHADER)");
    return status != NULL ? status
                          : host->status_make(TFLACCEL_BACKEND_ERROR, "glCreateShader gave 0");
  }
  glShaderSource(made, 4, sources, NULL);
  glCompileShader(made);
  GLuint linked = glCreateProgram();
  if (linked == 0) {
    glDeleteShader(made);
    tflaccel_status status = gl_check_error(host, "glCreateProgram");
    return status != NULL ? status
                          : host->status_make(TFLACCEL_BACKEND_ERROR, "glCreateProgram gave 0");
  }
  glAttachShader(linked, made);
  gl_program_cache_before_link(&set->cache, linked);
  glLinkProgram(linked);
  *shader = made;
  *program = linked;
  return NULL;
}

/* Waits for a build issue_build started: *built is the program, or the
 * status says why it failed (the compile or link log). Either way the
 * shader is gone. */
static tflaccel_status finish_build(gl_program_set *set, int32_t kernel, GLuint shader,
                                    GLuint program, GLuint *built) {
  const tflaccel_host_services *host = set->host;
  *built = 0;
  char log[LOG_EXCERPT + 1] = "";
  GLint compiled = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
  if (!compiled) {
    glGetShaderInfoLog(shader, sizeof log, NULL, log);
    glDeleteProgram(program);
    glDeleteShader(shader);
    return build_failure(host, "compiling", kernel, log);
  }
  /* The program keeps what it needs: the shader can go. */
  glDetachShader(program, shader);
  glDeleteShader(shader);
  GLint linked = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) {
    glGetProgramInfoLog(program, sizeof log, NULL, log);
    glDeleteProgram(program);
    return build_failure(host, "linking", kernel, log);
  }
  tflaccel_status status =
      gl_check_call(host, set->fault, "glLinkProgram (building a kernel)", GPU_FAULT_ERROR);
  if (status != NULL) {
    glDeleteProgram(program);
    return status;
  }
  *built = program;
  return NULL;
}

/* The index of the build gl_program_prepare started for key, or -1. */
static int32_t find_building(const gl_program_set *set, const gl_program_key *key) {
  for (uint32_t i = 0; i < set->building_count; ++i)
    if (gl_program_key_equal(&set->building[i].key, key)) return (int32_t)i;
  return -1;
}

/* Whether the partition's entry is loading that program. */
static int entry_loading(const gl_program_set *set, const gl_program_key *key) {
  const gl_program_partition *partition = &set->partition;
  if (!partition->active || !partition->complete) return 0;
  for (uint32_t i = 0; i < partition->loading_count; ++i) {
    const gl_program_entry *loading = &partition->loading[i];
    if (loading->program != 0 && gl_program_key_equal(&loading->key, key)) return 1;
  }
  return 0;
}

void gl_program_prepare(gl_program_set *set, const gl_program_key *key) {
  if (key->kernel < 0 || key->kernel >= GPU_KERNEL_EXTENDED_COUNT ||
      (key->storage != GPU_STORAGE_FLOAT32 && key->storage != GPU_STORAGE_HALF))
    return; /* gl_program_get says what is wrong */
  if (find_entry(set, key) >= 0 || entry_loading(set, key) || find_building(set, key) >= 0) return;
  if (!gpu_array_reserve(set->host, (void **)&set->building, &set->building_capacity,
                         set->building_count + 1, sizeof *set->building,
                         _Alignof(gl_program_build)))
    return; /* built when asked for */
  GLuint shader = 0, program = 0;
  tflaccel_status status = issue_build(set, key, &shader, &program);
  if (status != NULL) {
    set->host->status_free(status); /* met again when asked for */
    return;
  }
  set->building[set->building_count++] =
      (gl_program_build){.key = *key, .shader = shader, .program = program};
}

/* Key's program: from the partition's entry, else the build
 * gl_program_prepare started, else built now. */
static tflaccel_status build(gl_program_set *set, const gl_program_key *key, GLuint *built) {
  *built = from_entry(set, key);
  if (*built != 0) return NULL;
  int32_t started = find_building(set, key);
  GLuint shader = 0, program = 0;
  if (started >= 0) {
    shader = set->building[started].shader;
    program = set->building[started].program;
    set->building[started] = set->building[--set->building_count];
  } else {
    tflaccel_status status = issue_build(set, key, &shader, &program);
    if (status != NULL) return status;
  }
  return finish_build(set, key->kernel, shader, program, built);
}

tflaccel_status gl_program_get(gl_program_set *set, const gl_program_key *key, GLuint *program) {
  const tflaccel_host_services *host = set->host;
  *program = 0;
  if (key->kernel < 0 || key->kernel >= GPU_KERNEL_EXTENDED_COUNT)
    return host->status_make(TFLACCEL_INTERNAL, "gpu_gl: kernel %d", (int)key->kernel);
  if (key->storage != GPU_STORAGE_FLOAT32 && key->storage != GPU_STORAGE_HALF)
    return host->status_make(TFLACCEL_INTERNAL,
                             "gpu_gl: storage mode %d (GLES has no half arithmetic switch)",
                             (int)key->storage);
  int32_t found = find_entry(set, key);
  if (found >= 0) {
    *program = set->entries[found].program;
    partition_uses(set, (uint32_t)found);
    return NULL;
  }
  if (!gpu_array_reserve(host, (void **)&set->entries, &set->capacity, set->count + 1,
                         sizeof *set->entries, _Alignof(gl_program_entry)))
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_gl: out of memory (programs)");
  GLuint built = 0;
  tflaccel_status status = build(set, key, &built);
  if (status != NULL) return status;
  set->entries[set->count++] = (gl_program_entry){.key = *key, .program = built};
  *program = built;
  partition_uses(set, set->count - 1);
  return NULL;
}
