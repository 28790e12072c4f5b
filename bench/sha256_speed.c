/* Throughput of core/facts/sha256.c on a file (the model token's work at a
 * warm start), built by hand against this tree's sha256.c or another
 * version's, for bench/RESULTS.md:
 *   cc -O2 -I. -include config.h bench/sha256_speed.c core/facts/sha256.c \
 *      -lnettle -o /tmp/sha256_speed && /tmp/sha256_speed MODEL [RUNS]
 * Prints the best of RUNS (default 20) hashes of the whole file, in ms,
 * and MB/s, with the digest. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/facts/sha256.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE [RUNS]\n", argv[0]);
    return 2;
  }
  int runs = argc > 2 ? atoi(argv[2]) : 20;
  if (runs < 1) runs = 1;
  FILE *file = fopen(argv[1], "rb");
  if (file == NULL || fseek(file, 0, SEEK_END) != 0) {
    perror(argv[1]);
    return 1;
  }
  long size = ftell(file);
  unsigned char *bytes = size > 0 ? malloc((size_t)size) : NULL;
  if (bytes == NULL || fseek(file, 0, SEEK_SET) != 0 ||
      fread(bytes, 1, (size_t)size, file) != (size_t)size) {
    fprintf(stderr, "%s: cannot read it\n", argv[1]);
    return 1;
  }
  fclose(file);
  unsigned char digest[SHA256_DIGEST_SIZE];
  double best = 1e30;
  for (int i = 0; i < runs; ++i) {
    double start = now_ms();
    sha256_of(bytes, (size_t)size, digest);
    double took = now_ms() - start;
    if (took < best) best = took;
  }
  char hex[SHA256_HEX_SIZE];
  sha256_hex(digest, hex);
  printf("%ld bytes: best of %d %.2f ms, %.0f MB/s, %s\n", size, runs, best,
         (double)size / 1e3 / best, hex);
  free(bytes);
  return 0;
}
