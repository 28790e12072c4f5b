#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tools/tflaccel/bench_placement.h"

#define FALLBACK_ACCELERATOR "cpu_ref"

void op_placement_free(op_placement *placement) {
  for (uint32_t i = 0; i < placement->share_count; ++i)
    free(placement->shares[i].accelerator);
  for (uint32_t i = 0; placement->partition_accelerators && i < placement->partition_count; ++i)
    free(placement->partition_accelerators[i]);
  free(placement->shares);
  free(placement->partition_accelerators);
  free(placement->partition_op_counts);
  memset(placement, 0, sizeof *placement);
}

static tflaccel_status out_of_memory(void) {
  return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "op placement: out of memory");
}

static tflaccel_status add_partition(op_placement *placement, const char *accelerator,
                                     uint32_t op_count) {
  uint32_t index = placement->partition_count;
  placement->partition_accelerators[index] = strdup(accelerator);
  if (placement->partition_accelerators[index] == NULL) return out_of_memory();
  placement->partition_op_counts[index] = op_count;
  placement->partition_count++;
  placement->op_count += op_count;
  for (uint32_t i = 0; i < placement->share_count; ++i) {
    if (strcmp(placement->shares[i].accelerator, accelerator) == 0) {
      placement->shares[i].op_count += op_count;
      placement->shares[i].partition_count++;
      return NULL;
    }
  }
  /* shares has room for one per partition: no growth needed. */
  accelerator_share *share = &placement->shares[placement->share_count];
  share->accelerator = strdup(accelerator);
  if (share->accelerator == NULL) return out_of_memory();
  share->op_count = op_count;
  share->partition_count = 1;
  placement->share_count++;
  return NULL;
}

tflaccel_status op_placement_collect(const tflaccel_compiled_model *compiled,
                                     op_placement *placement) {
  memset(placement, 0, sizeof *placement);
  uint32_t count = tflaccel_compiled_model_partition_count(compiled);
  placement->shares = calloc(count + 1, sizeof *placement->shares);
  placement->partition_accelerators = calloc(count + 1, sizeof *placement->partition_accelerators);
  placement->partition_op_counts = calloc(count + 1, sizeof *placement->partition_op_counts);
  if (placement->shares == NULL || placement->partition_accelerators == NULL ||
      placement->partition_op_counts == NULL) {
    op_placement_free(placement);
    return out_of_memory();
  }
  for (uint32_t i = 0; i < count; ++i) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_compiled_model_partition_info(compiled, i, &info);
    if (status == NULL)
      status =
          add_partition(placement, info.accelerator ? info.accelerator : "unknown", info.op_count);
    if (status != NULL) {
      op_placement_free(placement);
      return tflaccel_status_annotate(status, "partition %u", i);
    }
  }
  return NULL;
}

uint32_t op_placement_delegated_ops(const op_placement *placement) {
  uint32_t delegated = 0;
  for (uint32_t i = 0; i < placement->share_count; ++i)
    if (strcmp(placement->shares[i].accelerator, FALLBACK_ACCELERATOR) != 0)
      delegated += placement->shares[i].op_count;
  return delegated;
}

void op_placement_print(FILE *stream, const op_placement *placement) {
  fprintf(stream, "Ops per accelerator (%u ops, %u partition%s):", placement->op_count,
          placement->partition_count, placement->partition_count == 1 ? "" : "s");
  for (uint32_t i = 0; i < placement->share_count; ++i) {
    const accelerator_share *share = &placement->shares[i];
    fprintf(stream, "%s %s=%u in %u partition%s", i ? "," : "", share->accelerator, share->op_count,
            share->partition_count, share->partition_count == 1 ? "" : "s");
  }
  if (placement->share_count == 0) fputs(" none", stream);
  fputc('\n', stream);
}
