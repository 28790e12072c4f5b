/* Lifetime-based placement of tensors in one arena (see
 * tflaccel_host_services.plan_arena, which is this function). */
#ifndef TFLACCEL_CORE_MEMORY_ARENA_PLANNER_H
#define TFLACCEL_CORE_MEMORY_ARENA_PLANNER_H

#include "tflaccel/accelerator.h"

tflaccel_status arena_plan(tflaccel_arena_request *requests, uint32_t count, uint64_t alignment,
                           uint64_t *total_size);

#endif
