/* One entry of the compiled-model cache on disk: its file name and format.
 *
 * A file "<owner>-<64 hex digits>.bin" (owner: the plugin that wrote it; the
 * digits: the SHA-256 of everything that decided its content, the key)
 * holds a fixed header and the body. The header carries the FULL key digest
 * and a SHA-256 of the header and the whole body, so that a damaged,
 * truncated, swapped (another key's file under this name) or stale entry is
 * recognised before a byte of it reaches a driver. The layout is the host's
 * own (byte order, alignment): the key covers the machine anyway. */
#ifndef TFLACCEL_CORE_CACHE_CACHE_ENTRY_H
#define TFLACCEL_CORE_CACHE_CACHE_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "core/facts/sha256.h"

#define CACHE_ENTRY_MAGIC "TFLCACHE"
/* Bumped whenever the header or any owner's body format changes. */
#define CACHE_ENTRY_FORMAT_VERSION 3u
#define CACHE_ENTRY_SUFFIX ".bin"
/* Temporary files being written start with it (never an entry's name). */
#define CACHE_ENTRY_TEMPORARY_PREFIX ".tmp-"
#define CACHE_ENTRY_LABEL_SIZE 64
#define CACHE_ENTRY_MODEL_SIZE 64
/* "<owner>-<hex>.bin" fits in it, owner up to 31 characters. */
#define CACHE_ENTRY_NAME_SIZE 104

typedef struct cache_entry_header {
  char magic[8];
  uint32_t format_version;
  uint32_t header_size;
  uint32_t tag; /* the owner's (gpu_gl: the binary format) */
  uint32_t reserved;
  uint64_t body_size;
  unsigned char key[SHA256_DIGEST_SIZE];
  char label[CACHE_ENTRY_LABEL_SIZE]; /* what it holds, for `tflaccel cache list` */
  /* The model it was built for: its token's first characters and file
   * name ("" when not for one model), for `tflaccel cache list`. */
  char model[CACHE_ENTRY_MODEL_SIZE];
  unsigned char checksum[SHA256_DIGEST_SIZE]; /* of every byte before it and the body */
} cache_entry_header;

/* The file name of owner's entry under key; 0 when owner is too long or
 * has a character other than [a-z0-9_]. */
int cache_entry_file_name(const char *owner, const unsigned char key[SHA256_DIGEST_SIZE],
                          char name[CACHE_ENTRY_NAME_SIZE]);

/* Whether name is an entry's file name; writes its owner (at most
 * owner_size - 1 characters) when owner is not NULL. */
int cache_entry_name_parse(const char *name, char *owner, size_t owner_size);

/* Fills header for body (label and model may be NULL). */
void cache_entry_header_make(cache_entry_header *header, const unsigned char key[SHA256_DIGEST_SIZE],
                             uint32_t tag, const char *label, const char *model, const void *body,
                             uint64_t body_size);

/* Checks an entry read whole (file_size bytes at file): NULL when it is
 * intact and was built for key (NULL: any key), else why not, as a phrase
 * ("truncated", "built for another key", ...). On success *body and
 * *header point into file. */
const char *cache_entry_check(const void *file, uint64_t file_size,
                              const unsigned char key[SHA256_DIGEST_SIZE],
                              const cache_entry_header **header, const void **body);

/* Checks only the header's fixed fields (for listing without reading the
 * body): NULL or why not. */
const char *cache_entry_check_header(const cache_entry_header *header, uint64_t file_size);

#endif
