/* Memory that lives exactly as long as a model: many small allocations freed
 * together, so that the reader's error paths never leak. */
#ifndef TFLACCEL_CORE_MEMORY_ALLOCATION_POOL_H
#define TFLACCEL_CORE_MEMORY_ALLOCATION_POOL_H

#include <stddef.h>

typedef struct pool_block pool_block;

typedef struct allocation_pool {
  pool_block *blocks;    /* newest first */
  size_t used, capacity; /* of the newest small-allocation block */
} allocation_pool;

void pool_init(allocation_pool *pool);
/* Zeroed memory aligned to 16 bytes, or NULL when out of memory. */
void *pool_alloc(allocation_pool *pool, size_t size);
/* count * size bytes, NULL on overflow or when out of memory. */
void *pool_alloc_array(allocation_pool *pool, size_t count, size_t size);
/* Frees everything the pool handed out. */
void pool_release(allocation_pool *pool);

#endif
