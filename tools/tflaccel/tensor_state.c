#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tools/tflaccel/tensor_state.h"

static const char *storage_name(int32_t storage) {
  switch (storage) {
    case TFLACCEL_STORAGE_CONSTANT: return "constant";
    case TFLACCEL_STORAGE_HOST_ARENA: return "host-arena";
    case TFLACCEL_STORAGE_PARTITION: return "partition";
    default: return "unused";
  }
}

static void print_shape(FILE *out, const tflaccel_graph_tensor_info *info) {
  fputc('[', out);
  for (uint32_t d = 0; d < info->rank; ++d) fprintf(out, "%s%d", d ? "," : "", (int)info->shape[d]);
  fputc(']', out);
}

tflaccel_status tensor_state_print(FILE *out, const tflaccel_compiled_model *compiled,
                                   const tensor_state_widths *widths) {
  uint32_t tensors = tflaccel_compiled_model_graph_tensor_count(compiled);
  uint32_t ops = tflaccel_compiled_model_graph_op_count(compiled);
  uint32_t partitions = tflaccel_compiled_model_partition_count(compiled);
  fprintf(out, "Graph has %u tensors and %u nodes in %u partition%s\n", tensors, ops, partitions,
          partitions == 1 ? "" : "s");
  fprintf(out, "%u Inputs, %u Outputs\n\n", tflaccel_compiled_model_input_count(compiled),
          tflaccel_compiled_model_output_count(compiled));
  fprintf(out, "Tensor  ID %-*s %-*s %-*s %-18s %-16s %s\n", widths->name, "Name", widths->type,
          "Type", widths->storage, "AllocType", "Size (Bytes/MB)", "Shape", "Where");
  uint64_t bytes[4] = {0};
  for (uint32_t t = 0; t < tensors; ++t) {
    tflaccel_graph_tensor_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_compiled_model_graph_tensor_info(compiled, t, &info);
    if (status != NULL) return status;
    if (info.storage >= 0 && info.storage < 4) bytes[info.storage] += info.byte_size;
    fprintf(out, "Tensor %3u %-*.*s %-*.*s %-*.*s %-10llu/ %6.2f ", t, widths->name, widths->name,
            info.name, widths->type, widths->type, tflaccel_dtype_name(info.dtype), widths->storage,
            widths->storage, storage_name(info.storage), (unsigned long long)info.byte_size,
            (double)info.byte_size / 1e6);
    print_shape(out, &info);
    if (info.storage == TFLACCEL_STORAGE_HOST_ARENA) {
      fprintf(out, " [%llu, %llu)", (unsigned long long)info.arena_offset,
              (unsigned long long)(info.arena_offset + info.byte_size));
    } else if (info.storage == TFLACCEL_STORAGE_PARTITION && info.partition >= 0) {
      tflaccel_partition_info partition = {.struct_size = sizeof partition};
      status = tflaccel_compiled_model_partition_info(compiled, (uint32_t)info.partition,
                                                      &partition);
      if (status != NULL) return status;
      fprintf(out, " partition %d on %s", (int)info.partition, partition.accelerator);
    }
    fputc('\n', out);
  }
  uint64_t arena = tflaccel_compiled_model_arena_bytes(compiled);
  fprintf(out, "\nHost arena: %llu bytes (%.3f MB) for %llu bytes of boundary tensors\n",
          (unsigned long long)arena, (double)arena / 1e6,
          (unsigned long long)bytes[TFLACCEL_STORAGE_HOST_ARENA]);
  fprintf(out, "Constants: %llu bytes (%.3f MB), in the model file\n",
          (unsigned long long)bytes[TFLACCEL_STORAGE_CONSTANT],
          (double)bytes[TFLACCEL_STORAGE_CONSTANT] / 1e6);
  fprintf(out, "Inside partitions: %llu bytes (%.3f MB), held by their accelerators\n\n",
          (unsigned long long)bytes[TFLACCEL_STORAGE_PARTITION],
          (double)bytes[TFLACCEL_STORAGE_PARTITION] / 1e6);
  for (uint32_t op = 0; op < ops; ++op) {
    tflaccel_graph_op_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_compiled_model_graph_op_info(compiled, op, &info);
    if (status != NULL) return status;
    tflaccel_partition_info partition = {.struct_size = sizeof partition};
    status = tflaccel_compiled_model_partition_info(compiled, info.partition, &partition);
    if (status != NULL) return status;
    fprintf(out, "Node %3u Operator Builtin Code %3d %s (partition %u on %s)\n", op,
            (int)info.code, info.name, info.partition, partition.accelerator);
  }
  fputc('\n', out);
  return NULL;
}
