/* Compiled-program blobs on disk (gpu_disk_cache.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "plugins/gpu_common/gpu_disk_cache.h"

#define MAGIC "TFLGPUB1"

typedef struct blob_header {
  char magic[8];
  uint64_t key; /* guards against a file of another blob under the name */
  uint32_t tag, length;
} blob_header;

uint64_t gpu_disk_cache_hash(uint64_t seed, const void *bytes, size_t size) {
  const unsigned char *at = bytes;
  for (size_t i = 0; i < size; ++i) {
    seed ^= at[i];
    seed *= 1099511628211ull;
  }
  return seed;
}

uint64_t gpu_disk_cache_hash_string(uint64_t seed, const char *text) {
  return text != NULL ? gpu_disk_cache_hash(seed, text, strlen(text) + 1)
                      : gpu_disk_cache_hash(seed, "", 1);
}

int gpu_disk_cache_enabled(const gpu_disk_cache *cache) {
  return cache->host != NULL && cache->host->cache_dir != NULL &&
         cache->host->cache_dir[0] != '\0';
}

static void path_of(const gpu_disk_cache *cache, uint64_t key, char *path, size_t size) {
  snprintf(path, size, "%s/%s-%016llx.bin", cache->host->cache_dir, cache->prefix,
           (unsigned long long)key);
}

int gpu_disk_cache_read(const gpu_disk_cache *cache, uint64_t key, void **data, uint32_t *size,
                        uint32_t *tag) {
  *data = NULL;
  *size = *tag = 0;
  if (!gpu_disk_cache_enabled(cache)) return 0;
  char path[4096];
  path_of(cache, key, path, sizeof path);
  FILE *file = fopen(path, "rb");
  if (file == NULL) return 0;
  blob_header header;
  int usable = fread(&header, sizeof header, 1, file) == 1 &&
               memcmp(header.magic, MAGIC, sizeof header.magic) == 0 && header.key == key &&
               header.length > 0 && header.length <= GPU_DISK_CACHE_MAX_BYTES;
  void *bytes = NULL;
  if (usable) {
    bytes = cache->host->alloc(cache->host->context, header.length, 16);
    usable = bytes != NULL && fread(bytes, 1, header.length, file) == header.length;
  }
  fclose(file);
  if (!usable) {
    if (bytes != NULL) cache->host->free(cache->host->context, bytes);
    cache->host->log(cache->host->context, TFLACCEL_LOG_DEBUG, "cache: %s is unusable", path);
    return 0;
  }
  *data = bytes;
  *size = header.length;
  *tag = header.tag;
  return 1;
}

int gpu_disk_cache_write(const gpu_disk_cache *cache, uint64_t key, const void *data,
                         uint32_t size, uint32_t tag) {
  if (!gpu_disk_cache_enabled(cache) || size == 0 || size > GPU_DISK_CACHE_MAX_BYTES) return 0;
  char path[4096], temporary[4200];
  path_of(cache, key, path, sizeof path);
  snprintf(temporary, sizeof temporary, "%s.%ld.tmp", path, (long)getpid());
  blob_header header;
  memset(&header, 0, sizeof header);
  memcpy(header.magic, MAGIC, sizeof header.magic);
  header.key = key;
  header.tag = tag;
  header.length = size;
  FILE *file = fopen(temporary, "wb");
  int done = file != NULL;
  if (done) {
    done = fwrite(&header, sizeof header, 1, file) == 1 && fwrite(data, 1, size, file) == size;
    done = fclose(file) == 0 && done;
    if (done) done = rename(temporary, path) == 0;
    if (!done) remove(temporary);
  }
  if (done)
    cache->host->log(cache->host->context, TFLACCEL_LOG_DEBUG, "cache: wrote %s", path);
  else
    cache->host->log(cache->host->context, TFLACCEL_LOG_DEBUG, "cache: could not write %s: %s",
                     path, strerror(errno));
  return done;
}
