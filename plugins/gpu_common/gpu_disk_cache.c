/* The GPU plugins' cache entries (gpu_disk_cache.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/cache/cache_entry.h"
#include "core/cache/cache_file.h"
#include "plugins/gpu_common/gpu_disk_cache.h"

void gpu_disk_cache_key_begin(gpu_disk_cache_key_builder *builder, const char *purpose) {
  sha256_begin(&builder->sha);
  gpu_disk_cache_key_add_string(builder, purpose);
}

void gpu_disk_cache_key_add(gpu_disk_cache_key_builder *builder, const void *bytes, size_t size) {
  uint64_t length = size;
  sha256_add(&builder->sha, &length, sizeof length);
  sha256_add(&builder->sha, bytes, size);
}

void gpu_disk_cache_key_add_string(gpu_disk_cache_key_builder *builder, const char *text) {
  if (text == NULL) text = "";
  gpu_disk_cache_key_add(builder, text, strlen(text));
}

void gpu_disk_cache_key_end(const gpu_disk_cache_key_builder *builder, gpu_disk_cache_key *key) {
  sha256_context copy = builder->sha;
  sha256_end(&copy, key->digest);
}

void gpu_disk_cache_name_model(gpu_disk_cache *cache, const tflaccel_compile_options *options) {
  const char *token = options->model_token != NULL ? options->model_token : "";
  const char *name = TFLACCEL_HAS_FIELD(tflaccel_compile_options, options, model_name) &&
                             options->model_name != NULL
                         ? options->model_name
                         : "";
  /* The token may be the application's own text: printable characters
   * only, so that a listing stays one line. */
  char prefix[17];
  size_t length = 0;
  for (; token[length] != '\0' && length < sizeof prefix - 1; ++length)
    prefix[length] = token[length] >= 0x21 && token[length] < 0x7f ? token[length] : '?';
  prefix[length] = '\0';
  snprintf(cache->model, sizeof cache->model, "%s%s%s", prefix, name[0] ? " " : "", name);
}

int gpu_disk_cache_has(const gpu_disk_cache *cache, const gpu_disk_cache_key *key) {
  if (!gpu_disk_cache_enabled(cache)) return 0;
  char name[CACHE_ENTRY_NAME_SIZE];
  if (!cache_entry_file_name(cache->prefix, key->digest, name)) return 0;
  int fd = -1;
  uint64_t size = 0;
  if (cache_file_open(cache->host->cache_dir, name, &fd, &size) != 0) return 0;
  close(fd);
  return size > sizeof(cache_entry_header);
}

int gpu_disk_cache_enabled(const gpu_disk_cache *cache) {
  return cache->host != NULL && cache->host->cache_dir != NULL &&
         cache->host->cache_dir[0] != '\0';
}

int gpu_disk_cache_read(const gpu_disk_cache *cache, const gpu_disk_cache_key *key, void **data,
                        uint32_t *size, uint32_t *tag) {
  *data = NULL;
  *size = *tag = 0;
  if (!gpu_disk_cache_enabled(cache)) return 0;
  const tflaccel_host_services *host = cache->host;
  char name[CACHE_ENTRY_NAME_SIZE];
  if (!cache_entry_file_name(cache->prefix, key->digest, name)) return 0;
  int fd = -1;
  uint64_t file_size = 0;
  int error = cache_file_open(host->cache_dir, name, &fd, &file_size);
  if (error == ENOENT) {
    host->log(host->context, TFLACCEL_LOG_DEBUG, "cache: no entry %s", name);
    return 0;
  }
  if (error != 0) {
    host->log(host->context, TFLACCEL_LOG_INFO, "cache: %s ignored: %s", name,
              error == EINVAL ? "not a regular file" : strerror(error));
    return 0;
  }
  const char *problem = NULL;
  unsigned char *bytes = NULL;
  if (file_size < sizeof(cache_entry_header)) problem = "truncated";
  else if (file_size > sizeof(cache_entry_header) + GPU_DISK_CACHE_MAX_BYTES) problem = "too large";
  else if ((bytes = host->alloc(host->context, (size_t)file_size, 16)) == NULL) problem = "out of memory";
  else if ((error = cache_file_read_all(fd, bytes, (size_t)file_size)) != 0)
    problem = error == EIO ? "truncated" : strerror(error);
  const cache_entry_header *header = NULL;
  const void *body = NULL;
  if (problem == NULL) problem = cache_entry_check(bytes, file_size, key->digest, &header, &body);
  if (problem == NULL) {
    cache_file_touch(fd);
    *size = (uint32_t)header->body_size;
    *tag = header->tag;
    memmove(bytes, body, *size);
    *data = bytes;
    host->log(host->context, TFLACCEL_LOG_DEBUG, "cache: read %s (%u bytes)", name, *size);
  } else {
    if (bytes != NULL) host->free(host->context, bytes);
    host->log(host->context, TFLACCEL_LOG_INFO, "cache: %s ignored (%s); rebuilding it", name,
              problem);
  }
  close(fd);
  return problem == NULL;
}

void gpu_disk_cache_refuse(const gpu_disk_cache *cache, const gpu_disk_cache_key *key,
                           const char *problem) {
  char name[CACHE_ENTRY_NAME_SIZE];
  if (!cache_entry_file_name(cache->prefix, key->digest, name)) name[0] = '\0';
  cache->host->log(cache->host->context, TFLACCEL_LOG_INFO, "cache: %s ignored (%s); rebuilding it",
                   name, problem);
}

int gpu_disk_cache_write(const gpu_disk_cache *cache, const gpu_disk_cache_key *key,
                         const char *label, const void *data, uint32_t size, uint32_t tag) {
  if (!gpu_disk_cache_enabled(cache) || size == 0 || size > GPU_DISK_CACHE_MAX_BYTES) return 0;
  const tflaccel_host_services *host = cache->host;
  char name[CACHE_ENTRY_NAME_SIZE];
  if (!cache_entry_file_name(cache->prefix, key->digest, name)) return 0;
  cache_entry_header header;
  cache_entry_header_make(&header, key->digest, tag, label, cache->model, data, size);
  int error = cache_file_write(host->cache_dir, name, &header, sizeof header, data, size);
  if (error == 0)
    host->log(host->context, TFLACCEL_LOG_DEBUG, "cache: wrote %s (%u bytes)", name, size);
  else
    host->log(host->context, TFLACCEL_LOG_DEBUG, "cache: could not write %s: %s", name,
              strerror(error));
  return error == 0;
}
