/* Dependencies between dispatches (gpu_hazard.h). */
#include "config.h"

#include <stddef.h>

#include "plugins/gpu_common/gpu_hazard.h"

void gpu_hazard_reset(gpu_hazard_tracker *tracker) {
  tracker->read_count = tracker->written_count = 0;
}

static int overlaps(const gpu_hazard_span *list, uint32_t count, const gpu_hazard_access *access) {
  for (uint32_t i = 0; i < count; ++i)
    if (list[i].buffer == access->buffer && list[i].begin < access->end &&
        access->begin < list[i].end)
      return 1;
  return 0;
}

int gpu_hazard_conflicts(const gpu_hazard_tracker *tracker, const gpu_hazard_access *accesses,
                         uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    const gpu_hazard_access *access = &accesses[i];
    if (access->buffer == NULL) continue;
    if (overlaps(tracker->written, tracker->written_count, access)) return 1;
    if (access->writes && overlaps(tracker->read, tracker->read_count, access)) return 1;
  }
  return 0;
}

int gpu_hazard_add(gpu_hazard_tracker *tracker, const gpu_hazard_access *accesses, uint32_t count) {
  uint32_t reads = 0, writes = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (accesses[i].buffer == NULL) continue;
    if (accesses[i].writes)
      writes++;
    else
      reads++;
  }
  if (tracker->read_count + reads > GPU_HAZARD_SPANS ||
      tracker->written_count + writes > GPU_HAZARD_SPANS)
    return 0;
  for (uint32_t i = 0; i < count; ++i) {
    const gpu_hazard_access *access = &accesses[i];
    if (access->buffer == NULL) continue;
    gpu_hazard_span *span = access->writes ? &tracker->written[tracker->written_count++]
                                           : &tracker->read[tracker->read_count++];
    *span = (gpu_hazard_span){access->buffer, access->begin, access->end};
  }
  return 1;
}

/* Whether any dispatch writes binding b. */
static int binding_written(const gpu_program *program, uint32_t binding) {
  for (uint32_t i = 0; i < program->dispatch_count; ++i) {
    const gpu_dispatch *dispatch = &program->dispatches[i];
    for (uint32_t a = 0; a < GPU_MAX_ARGS; ++a)
      if (dispatch->args[a].kind == GPU_BUFFER_BINDING && dispatch->args[a].binding == binding &&
          gpu_kernel_writes_argument(dispatch->kernel, a))
        return 1;
  }
  return 0;
}

/* Dispatch i's arguments as the tracker sees them. A resource is named by
 * an address inside the program that stands for it alone. */
static void accesses_of(const gpu_program *program, uint32_t i,
                        gpu_hazard_access accesses[GPU_MAX_ARGS]) {
  const gpu_dispatch *dispatch = &program->dispatches[i];
  for (uint32_t a = 0; a < GPU_MAX_ARGS; ++a) {
    const gpu_argument *argument = &dispatch->args[a];
    int writes = gpu_kernel_writes_argument(dispatch->kernel, a);
    gpu_hazard_access access = {.buffer = NULL, .begin = 0, .end = UINT64_MAX, .writes = writes};
    if (argument->kind == GPU_BUFFER_STATE) {
      access.buffer = &program->state_size;
      access.begin = argument->arena_offset;
      access.end = argument->arena_offset + argument->arena_size;
    } else if (argument->kind == GPU_BUFFER_ARENA) {
      access.buffer = &program->arena_size;
      if (argument->arena_size > 0) {
        access.begin = argument->arena_offset;
        access.end = argument->arena_offset + argument->arena_size;
      }
    } else if (argument->kind == GPU_BUFFER_BINDING && argument->binding < program->binding_count &&
               (writes || binding_written(program, argument->binding))) {
      access.buffer = &program->binding_tensors[argument->binding];
    }
    accesses[a] = access;
  }
}

uint32_t gpu_hazard_plan(const gpu_program *program, int32_t *barrier_before) {
  gpu_hazard_tracker tracker;
  gpu_hazard_reset(&tracker);
  /* The state buffer holds what the last run wrote (or reset_state):
   * writes of an earlier submission that the first dispatch reading it
   * waits for, as for any write before it in the sequence. */
  if (program->state_size > 0) {
    const gpu_hazard_access last_run = {.buffer = &program->state_size, .begin = 0,
                                        .end = program->state_size, .writes = 1};
    gpu_hazard_add(&tracker, &last_run, 1);
  }
  uint32_t barriers = 0;
  for (uint32_t i = 0; i < program->dispatch_count; ++i) {
    gpu_hazard_access accesses[GPU_MAX_ARGS];
    accesses_of(program, i, accesses);
    barrier_before[i] = 0;
    /* A dependency, or too many spans to follow: order everything so far. */
    if (gpu_hazard_conflicts(&tracker, accesses, GPU_MAX_ARGS) ||
        !gpu_hazard_add(&tracker, accesses, GPU_MAX_ARGS)) {
      barrier_before[i] = 1;
      barriers++;
      gpu_hazard_reset(&tracker);
      gpu_hazard_add(&tracker, accesses, GPU_MAX_ARGS);
    }
  }
  return barriers;
}
