/* A partition's lowered program (gpu_program.h: the dispatch list, the
 * parameters, the buffer plan and the packed constants) as an entry of the
 * compiled-model cache, beside the backend's kernel entry under the same
 * partition key (gpu_partition_cache.h) with a suffix of its own. A warm
 * compile reads it instead of lowering and packing the weights again.
 *
 * An entry is used only when gpu_disk_cache verified it (checksum and
 * key) AND its content is consistent: every count and offset within what
 * was read, kernel ids in the catalogue, argument kinds known, bindings
 * the partition's own inputs and outputs with their sizes, arena ranges
 * within the arena, constant offsets within the constants. Anything else
 * is refused at INFO ("cache: <file> ignored (...); rebuilding it"), the
 * partition is lowered as on a cold start and the entry is written again.
 * The layout is the host's (byte order, widths): a magic number read back
 * wrong refuses another machine's entry. */
#ifndef TFLACCEL_GPU_COMMON_GPU_PROGRAM_CACHE_H
#define TFLACCEL_GPU_COMMON_GPU_PROGRAM_CACHE_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_backend.h"
#include "plugins/gpu_common/gpu_disk_cache.h"
#include "plugins/gpu_common/gpu_program.h"
#include "tflaccel/accelerator.h"

/* The entry's format (in its key and its body): raised whenever a field is
 * added, removed or changes meaning (gpu_program_cache.c, code_program). */
#define GPU_PROGRAM_CACHE_VERSION 4u

/* What `tflaccel cache list` shows such an entry holds. */
#define GPU_PROGRAM_CACHE_LABEL "lowered GPU program"

/* The program entry's key: the partition's key (gpu_partition_cache_key_
 * begin, builder left as it was) with the entry's purpose and version. */
void gpu_program_cache_key(const gpu_disk_cache_key_builder *partition_key,
                           gpu_disk_cache_key *key);

/* Writes program (as gpu_lower_partition left it: before any kernel is
 * made) under key; 0 when it was not written (logged at debug level). */
int gpu_program_cache_write(const gpu_backend *backend, const tflaccel_compile_options *options,
                            const gpu_disk_cache_key *key, const gpu_program *program);

/* The program under key, when there is a verified, consistent entry made
 * for this partition of graph and storage mode: 1 with program filled
 * (release it with gpu_program_release) but for its constants, which stay
 * in the entry: *constants points at constants_size bytes inside *entry
 * (host->alloc'ed, the caller frees it once they are uploaded). 0 with
 * program zeroed and nothing allocated otherwise. */
int gpu_program_cache_read(const gpu_backend *backend, const gpu_disk_cache_key *key,
                           const tflaccel_graph_view *graph,
                           const tflaccel_partition_desc *partition, int32_t storage,
                           gpu_program *program, void **entry, const uint8_t **constants);

/* Encodes program into a new host->alloc'ed body (*body, *size); 0 when out
 * of memory or larger than GPU_DISK_CACHE_MAX_BYTES. */
int gpu_program_cache_encode(const tflaccel_host_services *host, const gpu_program *program,
                             void **body, uint32_t *size);

/* Decodes and checks body (size bytes): NULL with program filled as
 * gpu_program_cache_read says, or why the body is not usable (a phrase;
 * program zeroed, nothing allocated). */
const char *gpu_program_cache_decode(const tflaccel_host_services *host, const void *body,
                                     uint32_t size, const tflaccel_graph_view *graph,
                                     const tflaccel_partition_desc *partition, int32_t storage,
                                     gpu_program *program, const uint8_t **constants);

#endif
