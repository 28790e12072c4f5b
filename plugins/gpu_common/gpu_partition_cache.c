/* The key of a partition's cache entry (gpu_partition_cache.h). */
#include "config.h"

#include "plugins/gpu_common/gpu_partition_cache.h"

#include "plugins/gpu_common/gpu_build_id.h"

int gpu_partition_cache_key_begin(const gpu_backend *backend,
                                  const tflaccel_partition_desc *partition,
                                  const tflaccel_compile_options *options, int32_t storage,
                                  gpu_disk_cache_key_builder *builder) {
  const gpu_disk_cache disk = {.host = backend->host, .prefix = backend->plugin_name};
  if (!gpu_disk_cache_enabled(&disk) || options == NULL || options->model_token == NULL ||
      options->model_token[0] == '\0')
    return 0;
  const gpu_device_caps *caps = &backend->caps;
  gpu_disk_cache_key_begin(builder, "gpu partition entry");
  gpu_disk_cache_key_add_string(builder, backend->plugin_name);
  gpu_disk_cache_key_add_string(builder, PACKAGE_VERSION);
  /* Another build of the same version lowers differently: its entries are
   * its own (no build ID: the version alone, as before). */
  uint8_t build_id[GPU_BUILD_ID_MAX];
  size_t build_id_size = gpu_build_id(build_id, sizeof build_id);
  gpu_disk_cache_key_add(builder, build_id, build_id_size);
  gpu_disk_cache_key_add_string(builder, options->model_token);
  gpu_disk_cache_key_add(builder, partition->ops, partition->op_count * sizeof *partition->ops);
  gpu_disk_cache_key_add(builder, partition->inputs,
                         partition->input_count * sizeof *partition->inputs);
  gpu_disk_cache_key_add(builder, partition->outputs,
                         partition->output_count * sizeof *partition->outputs);
  gpu_disk_cache_key_add(builder, &options->precision, sizeof options->precision);
  gpu_disk_cache_key_add(builder, &storage, sizeof storage);
  /* Field by field: no padding bytes in the key. */
  gpu_disk_cache_key_add(builder, &caps->has_half_math, sizeof caps->has_half_math);
  gpu_disk_cache_key_add(builder, &caps->features, sizeof caps->features);
  gpu_disk_cache_key_add(builder, &caps->prefers_fewer_dispatches,
                         sizeof caps->prefers_fewer_dispatches);
  gpu_disk_cache_key_add(builder, &caps->max_group_items, sizeof caps->max_group_items);
  gpu_disk_cache_key_add(builder, &caps->binding_alignment, sizeof caps->binding_alignment);
  gpu_disk_cache_key_add(builder, &caps->buffer_alignment, sizeof caps->buffer_alignment);
  return 1;
}
