/* Compiled-program blobs kept in the host's cache_dir, shared by the GPU
 * plugins: one file per blob, "<prefix>-<key>.bin", holding a header (a
 * magic, the key, a tag the caller stores with the blob, its length) and
 * the bytes. Keys are 64-bit hashes of whatever decides the blob (the
 * driver's identity, the sources); a file under the wrong key, short or
 * damaged reads as absent, and writes go to a temporary file renamed into
 * place, so that concurrent processes never see half a blob. Off when the
 * host gives no cache_dir. */
#ifndef TFLACCEL_GPU_COMMON_GPU_DISK_CACHE_H
#define TFLACCEL_GPU_COMMON_GPU_DISK_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "tflaccel/accelerator.h"

/* The largest blob read or written. */
#define GPU_DISK_CACHE_MAX_BYTES (64u << 20)

typedef struct gpu_disk_cache {
  const tflaccel_host_services *host;
  const char *prefix; /* file names start with it: the plugin's name */
} gpu_disk_cache;

/* The FNV-1a offset basis: the first seed of a key. */
#define GPU_DISK_CACHE_SEED 14695981039346656037ull

/* seed extended with size bytes (FNV-1a, 64 bits: enough to tell programs
 * apart; the header's key and the drivers' own checks catch the rest). */
uint64_t gpu_disk_cache_hash(uint64_t seed, const void *bytes, size_t size);
/* seed extended with text and its terminator (NULL: the empty string). */
uint64_t gpu_disk_cache_hash_string(uint64_t seed, const char *text);

/* Whether the host gave a cache_dir. */
int gpu_disk_cache_enabled(const gpu_disk_cache *cache);

/* The blob under key: *data (host->alloc'ed, the caller frees it), *size and
 * *tag; 0 (nothing allocated) when there is none or it is unusable. */
int gpu_disk_cache_read(const gpu_disk_cache *cache, uint64_t key, void **data, uint32_t *size,
                        uint32_t *tag);

/* Stores size bytes under key; 0 when that failed (logged at debug level:
 * the next process compiles again, nothing more). */
int gpu_disk_cache_write(const gpu_disk_cache *cache, uint64_t key, const void *data,
                         uint32_t size, uint32_t tag);

#endif
