/* SHA-256 (FIPS 180-4), written from the standard's description: the
 * checksum and key digest of the compiled-model cache's entries and the
 * model token. No Debian library the project already links offers it
 * (OpenSSL, nettle or libgcrypt would be a new dependency of every plugin
 * for some 100 lines); tests/facts checks it against the standard's test
 * vectors. */
#ifndef TFLACCEL_CORE_FACTS_SHA256_H
#define TFLACCEL_CORE_FACTS_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32
/* Hex text of a digest, with its terminator. */
#define SHA256_HEX_SIZE (2 * SHA256_DIGEST_SIZE + 1)

typedef struct sha256_context {
  uint32_t state[8];
  uint64_t length; /* bytes hashed so far */
  unsigned char block[64];
  uint32_t filled; /* bytes waiting in block */
} sha256_context;

void sha256_begin(sha256_context *context);
void sha256_add(sha256_context *context, const void *bytes, size_t size);
void sha256_end(sha256_context *context, unsigned char digest[SHA256_DIGEST_SIZE]);

/* The digest of size bytes, in one call. */
void sha256_of(const void *bytes, size_t size, unsigned char digest[SHA256_DIGEST_SIZE]);

/* digest as lower-case hex. */
void sha256_hex(const unsigned char digest[SHA256_DIGEST_SIZE], char text[SHA256_HEX_SIZE]);

#endif
