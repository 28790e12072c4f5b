/* A bump allocator over malloc'ed blocks. Small requests share 64 KiB
 * blocks; large ones (folded weights) get a block of their own. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/memory/allocation_pool.h"

#define POOL_ALIGNMENT 16
#define POOL_BLOCK_SIZE (64 * 1024)
#define POOL_LARGE_REQUEST (POOL_BLOCK_SIZE / 4)

struct pool_block {
  pool_block *next;
  /* Keeps the payload that follows aligned to POOL_ALIGNMENT. */
  _Alignas(POOL_ALIGNMENT) unsigned char payload[];
};

void pool_init(allocation_pool *pool) {
  pool->blocks = NULL;
  pool->used = 0;
  pool->capacity = 0;
}

static pool_block *new_block(size_t payload_size) {
  if (payload_size > SIZE_MAX - sizeof(pool_block)) return NULL;
  pool_block *block = calloc(1, sizeof(pool_block) + payload_size);
  return block;
}

void *pool_alloc(allocation_pool *pool, size_t size) {
  if (size == 0) size = 1;
  if (size > SIZE_MAX - POOL_ALIGNMENT) return NULL;
  size_t rounded = (size + POOL_ALIGNMENT - 1) / POOL_ALIGNMENT * POOL_ALIGNMENT;
  if (rounded >= POOL_LARGE_REQUEST) {
    pool_block *block = new_block(rounded);
    if (block == NULL) return NULL;
    /* Behind the newest block, so the small-allocation block stays first. */
    if (pool->blocks) {
      block->next = pool->blocks->next;
      pool->blocks->next = block;
    } else {
      block->next = NULL;
      pool->blocks = block;
      pool->used = pool->capacity = 0;
    }
    return block->payload;
  }
  if (pool->blocks == NULL || pool->capacity - pool->used < rounded) {
    pool_block *block = new_block(POOL_BLOCK_SIZE);
    if (block == NULL) return NULL;
    block->next = pool->blocks;
    pool->blocks = block;
    pool->used = 0;
    pool->capacity = POOL_BLOCK_SIZE;
  }
  void *memory = pool->blocks->payload + pool->used;
  pool->used += rounded;
  return memory;
}

void *pool_alloc_array(allocation_pool *pool, size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return NULL;
  return pool_alloc(pool, count * size);
}

void pool_release(allocation_pool *pool) {
  pool_block *block = pool->blocks;
  while (block) {
    pool_block *next = block->next;
    free(block);
    block = next;
  }
  pool_init(pool);
}
