/* The cache entry format (cache_entry.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "core/cache/cache_entry.h"

_Static_assert(sizeof(cache_entry_header) == 224, "cache_entry_header has padding");

static int owner_is_valid(const char *owner, size_t length) {
  if (length == 0 || length > 31) return 0;
  for (size_t i = 0; i < length; ++i)
    if (!((owner[i] >= 'a' && owner[i] <= 'z') || (owner[i] >= '0' && owner[i] <= '9') ||
          owner[i] == '_'))
      return 0;
  return 1;
}

int cache_entry_file_name(const char *owner, const unsigned char key[SHA256_DIGEST_SIZE],
                          char name[CACHE_ENTRY_NAME_SIZE]) {
  if (!owner_is_valid(owner, strlen(owner))) return 0;
  char hex[SHA256_HEX_SIZE];
  sha256_hex(key, hex);
  snprintf(name, CACHE_ENTRY_NAME_SIZE, "%s-%s%s", owner, hex, CACHE_ENTRY_SUFFIX);
  return 1;
}

int cache_entry_name_parse(const char *name, char *owner, size_t owner_size) {
  const size_t hex = 2 * SHA256_DIGEST_SIZE, suffix = strlen(CACHE_ENTRY_SUFFIX);
  size_t length = strlen(name);
  if (length < 1 + 1 + hex + suffix) return 0;
  size_t owner_length = length - (1 + hex + suffix);
  if (!owner_is_valid(name, owner_length) || name[owner_length] != '-' ||
      strcmp(name + length - suffix, CACHE_ENTRY_SUFFIX) != 0)
    return 0;
  for (size_t i = owner_length + 1; i < owner_length + 1 + hex; ++i)
    if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f'))) return 0;
  if (owner != NULL && owner_size > 0) {
    size_t copied = owner_length < owner_size - 1 ? owner_length : owner_size - 1;
    memcpy(owner, name, copied);
    owner[copied] = '\0';
  }
  return 1;
}

static void checksum_of(const cache_entry_header *header, const void *body,
                        unsigned char digest[SHA256_DIGEST_SIZE]) {
  sha256_context context;
  sha256_begin(&context);
  sha256_add(&context, header, offsetof(cache_entry_header, checksum));
  sha256_add(&context, body, (size_t)header->body_size);
  sha256_end(&context, digest);
}

void cache_entry_header_make(cache_entry_header *header, const unsigned char key[SHA256_DIGEST_SIZE],
                             uint32_t tag, const char *label, const char *model, const void *body,
                             uint64_t body_size) {
  memset(header, 0, sizeof *header);
  memcpy(header->magic, CACHE_ENTRY_MAGIC, sizeof header->magic);
  header->format_version = CACHE_ENTRY_FORMAT_VERSION;
  header->header_size = sizeof *header;
  header->tag = tag;
  header->body_size = body_size;
  memcpy(header->key, key, SHA256_DIGEST_SIZE);
  if (label != NULL) snprintf(header->label, sizeof header->label, "%s", label);
  if (model != NULL) snprintf(header->model, sizeof header->model, "%s", model);
  checksum_of(header, body, header->checksum);
}

const char *cache_entry_check_header(const cache_entry_header *header, uint64_t file_size) {
  if (memcmp(header->magic, CACHE_ENTRY_MAGIC, sizeof header->magic) != 0)
    return "not a tflaccel cache entry";
  if (header->format_version != CACHE_ENTRY_FORMAT_VERSION ||
      header->header_size != sizeof *header)
    return "written by another version of tflaccel";
  if (memchr(header->label, '\0', sizeof header->label) == NULL ||
      memchr(header->model, '\0', sizeof header->model) == NULL)
    return "damaged header";
  if (header->body_size != file_size - sizeof *header) return "truncated or extended";
  return NULL;
}

const char *cache_entry_check(const void *file, uint64_t file_size,
                              const unsigned char key[SHA256_DIGEST_SIZE],
                              const cache_entry_header **header_out, const void **body_out) {
  *header_out = NULL;
  *body_out = NULL;
  if (file_size < sizeof(cache_entry_header)) return "truncated";
  /* A private, aligned copy: file may be any byte buffer. */
  cache_entry_header header;
  memcpy(&header, file, sizeof header);
  const char *why = cache_entry_check_header(&header, file_size);
  if (why != NULL) return why;
  if (key != NULL && memcmp(header.key, key, SHA256_DIGEST_SIZE) != 0)
    return "built for another key (stale or swapped)";
  const unsigned char *body = (const unsigned char *)file + sizeof header;
  unsigned char digest[SHA256_DIGEST_SIZE];
  checksum_of(&header, body, digest);
  if (memcmp(digest, header.checksum, SHA256_DIGEST_SIZE) != 0)
    return "damaged (checksum mismatch)";
  *header_out = file;
  *body_out = body;
  return NULL;
}
