/* The accelerator ABI 1.0 layout, frozen. These assertions fail the build
 * when a struct that crosses the plugin boundary changes in a way that
 * breaks plugins built against an earlier 1.x: fields may only be appended
 * (update the sizes here and bump TFLACCEL_ABI_MINOR), never moved.
 * The numbers are for LP64 (x86-64, AArch64 Linux), the platforms we ship. */
#include "config.h"

#include <stddef.h>

#include "tflaccel/accelerator.h"

#if defined(__LP64__)
_Static_assert(offsetof(tflaccel_host_services, context) == 8, "tflaccel_host_services.context moved");
_Static_assert(offsetof(tflaccel_host_services, log) == 16, "tflaccel_host_services.log moved");
_Static_assert(offsetof(tflaccel_host_services, status_make) == 32, "tflaccel_host_services.status_make moved");
_Static_assert(offsetof(tflaccel_host_services, config_get) == 64, "tflaccel_host_services.config_get moved");
_Static_assert(offsetof(tflaccel_host_services, alloc) == 72, "tflaccel_host_services.alloc moved");
_Static_assert(offsetof(tflaccel_host_services, plan_arena) == 88, "tflaccel_host_services.plan_arena moved");
_Static_assert(offsetof(tflaccel_host_services, cache_dir) == 96, "tflaccel_host_services.cache_dir moved");
_Static_assert(sizeof(tflaccel_host_services) == 104, "tflaccel_host_services changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(offsetof(tflaccel_tensor_desc, dtype) == 4, "tflaccel_tensor_desc.dtype moved");
_Static_assert(offsetof(tflaccel_tensor_desc, dims) == 16, "tflaccel_tensor_desc.dims moved");
_Static_assert(offsetof(tflaccel_tensor_desc, flags) == 24, "tflaccel_tensor_desc.flags moved");
_Static_assert(offsetof(tflaccel_tensor_desc, quantization) == 40, "tflaccel_tensor_desc.quantization moved");
_Static_assert(offsetof(tflaccel_tensor_desc, data) == 72, "tflaccel_tensor_desc.data moved");
_Static_assert(offsetof(tflaccel_tensor_desc, byte_size) == 88, "tflaccel_tensor_desc.byte_size moved");
_Static_assert(sizeof(tflaccel_tensor_desc) == 96, "tflaccel_tensor_desc changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(offsetof(tflaccel_op_desc, code) == 4, "tflaccel_op_desc.code moved");
_Static_assert(offsetof(tflaccel_op_desc, params) == 40, "tflaccel_op_desc.params moved");
_Static_assert(offsetof(tflaccel_op_desc, inputs) == 64, "tflaccel_op_desc.inputs moved");
_Static_assert(offsetof(tflaccel_op_desc, intermediates) == 80, "tflaccel_op_desc.intermediates moved");
_Static_assert(sizeof(tflaccel_op_desc) == 88, "tflaccel_op_desc changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(offsetof(tflaccel_graph_view, tensors) == 8, "tflaccel_graph_view.tensors moved");
_Static_assert(offsetof(tflaccel_graph_view, ops) == 24, "tflaccel_graph_view.ops moved");
_Static_assert(sizeof(tflaccel_graph_view) == 32, "tflaccel_graph_view changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(offsetof(tflaccel_partition_desc, ops) == 8, "tflaccel_partition_desc.ops moved");
_Static_assert(offsetof(tflaccel_partition_desc, outputs) == 40, "tflaccel_partition_desc.outputs moved");
_Static_assert(sizeof(tflaccel_partition_desc) == 48, "tflaccel_partition_desc changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(offsetof(tflaccel_compile_options, precision) == 4, "tflaccel_compile_options.precision moved");
_Static_assert(offsetof(tflaccel_compile_options, model_token) == 16, "tflaccel_compile_options.model_token moved");
_Static_assert(offsetof(tflaccel_compile_options, model_name) == 24, "tflaccel_compile_options.model_name moved");
_Static_assert(sizeof(tflaccel_compile_options) == 32, "tflaccel_compile_options changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(offsetof(tflaccel_op_support, level) == 4, "tflaccel_op_support.level moved");
_Static_assert(offsetof(tflaccel_op_support, reason) == 12, "tflaccel_op_support.reason moved");
_Static_assert(offsetof(tflaccel_op_support, precision) == 268, "tflaccel_op_support.precision moved");
_Static_assert(sizeof(tflaccel_op_support) == 272, "tflaccel_op_support changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(offsetof(tflaccel_device_info, name) == 4, "tflaccel_device_info.name moved");
_Static_assert(offsetof(tflaccel_device_info, type) == 516, "tflaccel_device_info.type moved");
_Static_assert(offsetof(tflaccel_device_info, memory_bytes) == 528, "tflaccel_device_info.memory_bytes moved");
_Static_assert(sizeof(tflaccel_device_info) == 536, "tflaccel_device_info changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(offsetof(tflaccel_binding, buffer) == 8, "tflaccel_binding.buffer moved");
_Static_assert(offsetof(tflaccel_binding, size) == 24, "tflaccel_binding.size moved");
_Static_assert(sizeof(tflaccel_binding) == 32, "tflaccel_binding changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(offsetof(tflaccel_device_vtable, destroy) == 8, "tflaccel_device_vtable.destroy moved");
_Static_assert(offsetof(tflaccel_device_vtable, supports_op) == 16, "tflaccel_device_vtable.supports_op moved");
_Static_assert(offsetof(tflaccel_device_vtable, compile) == 24, "tflaccel_device_vtable.compile moved");
_Static_assert(offsetof(tflaccel_device_vtable, execute) == 40, "tflaccel_device_vtable.execute moved");
_Static_assert(offsetof(tflaccel_device_vtable, buffer_create) == 48, "tflaccel_device_vtable.buffer_create moved");
_Static_assert(offsetof(tflaccel_device_vtable, buffer_read) == 72, "tflaccel_device_vtable.buffer_read moved");
_Static_assert(offsetof(tflaccel_device_vtable, buffer_map) == 80, "tflaccel_device_vtable.buffer_map moved");
_Static_assert(offsetof(tflaccel_device_vtable, buffer_import) == 88, "tflaccel_device_vtable.buffer_import moved");
_Static_assert(offsetof(tflaccel_device_vtable, synchronize) == 120, "tflaccel_device_vtable.synchronize moved");
_Static_assert(offsetof(tflaccel_device_vtable, reset_state) == 128, "tflaccel_device_vtable.reset_state moved");
_Static_assert(offsetof(tflaccel_device_vtable, executable_profile) == 136, "tflaccel_device_vtable.executable_profile moved");
_Static_assert(offsetof(tflaccel_device_vtable, buffer_native) == 144, "tflaccel_device_vtable.buffer_native moved");
_Static_assert(offsetof(tflaccel_device_vtable, buffer_wrap) == 160, "tflaccel_device_vtable.buffer_wrap moved");
_Static_assert(offsetof(tflaccel_device_vtable, execute_after) == 168, "tflaccel_device_vtable.execute_after moved");
_Static_assert(offsetof(tflaccel_device_vtable, event_wrap) == 192, "tflaccel_device_vtable.event_wrap moved");
_Static_assert(sizeof(tflaccel_native_event) == 24, "tflaccel_native_event changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(offsetof(tflaccel_device_vtable, buffer_wrap_types) == 200, "tflaccel_device_vtable.buffer_wrap_types moved");
_Static_assert(offsetof(tflaccel_device_vtable, buffer_export) == 208, "tflaccel_device_vtable.buffer_export moved");
_Static_assert(sizeof(tflaccel_device_vtable) == 216, "tflaccel_device_vtable changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(offsetof(tflaccel_accelerator_plugin, abi_version) == 4, "tflaccel_accelerator_plugin.abi_version moved");
_Static_assert(offsetof(tflaccel_accelerator_plugin, name) == 8, "tflaccel_accelerator_plugin.name moved");
_Static_assert(offsetof(tflaccel_accelerator_plugin, init) == 32, "tflaccel_accelerator_plugin.init moved");
_Static_assert(offsetof(tflaccel_accelerator_plugin, device_create) == 64, "tflaccel_accelerator_plugin.device_create moved");
_Static_assert(sizeof(tflaccel_accelerator_plugin) == 72, "tflaccel_accelerator_plugin changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(offsetof(tflaccel_quantization, scales) == 8, "tflaccel_quantization.scales moved");
_Static_assert(offsetof(tflaccel_quantization, quantized_dimension) == 24, "tflaccel_quantization.quantized_dimension moved");
_Static_assert(sizeof(tflaccel_kernel_time) == 40, "tflaccel_kernel_time changed size: append only, and bump TFLACCEL_ABI_MINOR");
_Static_assert(sizeof(tflaccel_quantization) == 32, "tflaccel_quantization changed size: append only, and bump TFLACCEL_ABI_MINOR");
#endif

/* Keeps this translation unit non-empty on other data models. */
extern int tflaccel_abi_layout_is_frozen;
