/* The GPU plugins' entries in the compiled-model cache (core/cache): one
 * file per blob, "<prefix>-<key>.bin", the key a SHA-256 of everything that
 * decides the blob (the driver's identity, the sources, the model token and
 * options where they matter). An entry is read only when it is a regular
 * file, intact (its whole-content checksum matches) and built for exactly
 * this key; anything else (damaged, truncated, stale, another key's file,
 * a symlink, a FIFO) is reported at INFO and never reaches the driver, and
 * the rebuilt blob replaces it. Writes are atomic (core/cache/cache_file.h).
 * Off when the host gives no cache_dir. */
#ifndef TFLACCEL_GPU_COMMON_GPU_DISK_CACHE_H
#define TFLACCEL_GPU_COMMON_GPU_DISK_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "core/facts/sha256.h"
#include "tflaccel/accelerator.h"

/* The largest blob read or written. */
#define GPU_DISK_CACHE_MAX_BYTES (64u << 20)

typedef struct gpu_disk_cache {
  const tflaccel_host_services *host;
  const char *prefix; /* file names start with it: the plugin's name */
  /* Entries written name the model they were built for (token prefix and
   * file name, `tflaccel cache list`); "" for none. */
  char model[64];
} gpu_disk_cache;

typedef struct gpu_disk_cache_key {
  unsigned char digest[SHA256_DIGEST_SIZE];
} gpu_disk_cache_key;

/* Gathers a key's material; a plain struct, so a partial key (a driver's
 * identity) can be copied and extended. */
typedef struct gpu_disk_cache_key_builder {
  sha256_context sha;
} gpu_disk_cache_key_builder;

/* Starts a key; purpose names what the blob is ("gpu_cl program"). */
void gpu_disk_cache_key_begin(gpu_disk_cache_key_builder *builder, const char *purpose);
/* Adds size bytes (length-prefixed, so that pieces cannot run together). */
void gpu_disk_cache_key_add(gpu_disk_cache_key_builder *builder, const void *bytes, size_t size);
/* Adds text (NULL: as ""). */
void gpu_disk_cache_key_add_string(gpu_disk_cache_key_builder *builder, const char *text);
/* The key so far (builder is left as it was). */
void gpu_disk_cache_key_end(const gpu_disk_cache_key_builder *builder, gpu_disk_cache_key *key);

/* Sets cache->model from the compile options (token prefix, file name). */
void gpu_disk_cache_name_model(gpu_disk_cache *cache, const tflaccel_compile_options *options);

/* Whether an entry exists under key (a regular file; not verified). */
int gpu_disk_cache_has(const gpu_disk_cache *cache, const gpu_disk_cache_key *key);

/* Whether the host gave a cache_dir. */
int gpu_disk_cache_enabled(const gpu_disk_cache *cache);

/* The verified blob under key: *data (host->alloc'ed, the caller frees it),
 * *size and *tag; 0 (nothing allocated) when there is none or it is not
 * usable. */
int gpu_disk_cache_read(const gpu_disk_cache *cache, const gpu_disk_cache_key *key, void **data,
                        uint32_t *size, uint32_t *tag);

/* Reports at INFO that the verified entry under key is not used (problem:
 * why, a phrase) and is rebuilt, as gpu_disk_cache_read reports a damaged
 * one: for an owner that finds its content inconsistent. */
void gpu_disk_cache_refuse(const gpu_disk_cache *cache, const gpu_disk_cache_key *key,
                           const char *problem);

/* Stores size bytes under key, label saying what they are (shown by
 * `tflaccel cache list`); 0 when that failed (logged at debug level: the
 * next process compiles again, nothing more). */
int gpu_disk_cache_write(const gpu_disk_cache *cache, const gpu_disk_cache_key *key,
                         const char *label, const void *data, uint32_t size, uint32_t tag);

#endif
