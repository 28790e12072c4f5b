/* SHA-256 (FIPS 180-4): the checksum and key digest of the compiled-model
 * cache's entries and the model token. Computed by nettle (nettle-dev),
 * whose Debian build picks the CPU's SHA extensions or tuned assembly at
 * run time: the token hashes the whole model at every warm start, where a
 * portable C loop spent 12.8 ms on a 2.8 MB model and nettle 1.8 ms (README,
 * "Dependencies and why"). tests/facts checks it against the standard's
 * test vectors. */
#ifndef TFLACCEL_CORE_FACTS_SHA256_H
#define TFLACCEL_CORE_FACTS_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include <nettle/sha2.h>

/* nettle defines SHA256_DIGEST_SIZE as 32 too. */
#ifndef SHA256_DIGEST_SIZE
#define SHA256_DIGEST_SIZE 32
#endif
/* Hex text of a digest, with its terminator. */
#define SHA256_HEX_SIZE (2 * SHA256_DIGEST_SIZE + 1)

typedef struct sha256_context {
  struct sha256_ctx nettle;
} sha256_context;

void sha256_begin(sha256_context *context);
void sha256_add(sha256_context *context, const void *bytes, size_t size);
void sha256_end(sha256_context *context, unsigned char digest[SHA256_DIGEST_SIZE]);

/* The digest of size bytes, in one call. */
void sha256_of(const void *bytes, size_t size, unsigned char digest[SHA256_DIGEST_SIZE]);

/* digest as lower-case hex. */
void sha256_hex(const unsigned char digest[SHA256_DIGEST_SIZE], char text[SHA256_HEX_SIZE]);

#endif
