/* SHA-256 (sha256.h), through nettle. */
#include "config.h"

#include "core/facts/sha256.h"

_Static_assert(SHA256_DIGEST_SIZE == 32, "SHA-256 digests are 32 bytes");

void sha256_begin(sha256_context *context) { sha256_init(&context->nettle); }

void sha256_add(sha256_context *context, const void *bytes, size_t size) {
  sha256_update(&context->nettle, size, bytes);
}

void sha256_end(sha256_context *context, unsigned char digest[SHA256_DIGEST_SIZE]) {
  /* nettle's digest also restarts the context; callers end it once. */
  sha256_digest(&context->nettle, SHA256_DIGEST_SIZE, digest);
}

void sha256_of(const void *bytes, size_t size, unsigned char digest[SHA256_DIGEST_SIZE]) {
  sha256_context context;
  sha256_begin(&context);
  sha256_add(&context, bytes, size);
  sha256_end(&context, digest);
}

void sha256_hex(const unsigned char digest[SHA256_DIGEST_SIZE], char text[SHA256_HEX_SIZE]) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < SHA256_DIGEST_SIZE; ++i) {
    text[2 * i] = digits[digest[i] >> 4];
    text[2 * i + 1] = digits[digest[i] & 15];
  }
  text[2 * SHA256_DIGEST_SIZE] = '\0';
}
