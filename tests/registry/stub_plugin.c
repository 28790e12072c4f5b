/* Test-only accelerator plugins, one per way a real plugin can be broken.
 * Built several times with STUB_VARIANT set; see tests/registry.mk. */
#include "config.h"

#include <string.h>

#include "tflaccel/accelerator.h"

#define VARIANT_OK 1
#define VARIANT_WRONG_MAJOR 2
#define VARIANT_NO_ENTRY 3
#define VARIANT_INIT_FAILS 4
#define VARIANT_NO_DEVICE 5
#define VARIANT_NEWER_MINOR 6
#define VARIANT_NULL_INIT 7
#define VARIANT_REFUSES_HOST 8
#define VARIANT_DEVICE_KIND 9 /* a working stub whose device is STUB_DEVICE_TYPE */

#ifndef STUB_DEVICE_TYPE
#define STUB_DEVICE_TYPE TFLACCEL_DEVICE_OTHER
#endif

#ifndef STUB_VARIANT
#error "STUB_VARIANT must be defined"
#endif
#ifndef STUB_NAME
#error "STUB_NAME must be defined"
#endif

typedef struct stub_state {
  const tflaccel_host_services *host;
} stub_state;

typedef struct stub_device {
  tflaccel_device base;
  const tflaccel_host_services *host;
} stub_device;

#if STUB_VARIANT != VARIANT_NULL_INIT
static tflaccel_status stub_init(const tflaccel_host_services *host, void **state) {
#if STUB_VARIANT == VARIANT_INIT_FAILS
  (void)state;
  return host->status_make(TFLACCEL_BACKEND_ERROR, "stub driver failed to start (error -42)");
#else
  stub_state *created = host->alloc(host->context, sizeof *created, 8);
  if (created == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "stub: out of memory");
  created->host = host;
  *state = created;
  return NULL;
#endif
}
#endif

static void stub_shutdown(void *state) {
  stub_state *stub = state;
  if (stub != NULL) stub->host->free(stub->host->context, stub);
}

static uint32_t stub_device_count(void *state) {
  (void)state;
#if STUB_VARIANT == VARIANT_NO_DEVICE
  return 0;
#else
  return 1;
#endif
}

static tflaccel_status stub_device_info(void *state, uint32_t index, tflaccel_device_info *info) {
  (void)state;
  (void)index;
  strcpy(info->name, "stub device");
  strcpy(info->vendor, "tflaccel tests");
  strcpy(info->driver_version, "0");
  strcpy(info->api_version, "none");
  info->type = STUB_DEVICE_TYPE;
  return NULL;
}

static void stub_destroy(tflaccel_device *device) {
  stub_device *stub = (stub_device *)device;
  stub->host->free(stub->host->context, stub);
}

static tflaccel_status stub_supports_op(tflaccel_device *device, const tflaccel_graph_view *graph,
                                        uint32_t op_index, const tflaccel_compile_options *options,
                                        tflaccel_op_support *support) {
  (void)device;
  (void)graph;
  (void)op_index;
  (void)options;
  support->level = TFLACCEL_SUPPORT_NO;
  strcpy(support->reason, "the stub accepts no ops");
  return NULL;
}

static tflaccel_status stub_compile(tflaccel_device *device, const tflaccel_graph_view *graph,
                                    const tflaccel_partition_desc *partition,
                                    const tflaccel_compile_options *options,
                                    tflaccel_executable **executable) {
  (void)graph;
  (void)partition;
  (void)options;
  (void)executable;
  stub_device *stub = (stub_device *)device;
  return stub->host->status_make(TFLACCEL_UNSUPPORTED, "the stub accepts no ops");
}

static void stub_executable_destroy(tflaccel_device *device, tflaccel_executable *executable) {
  (void)device;
  (void)executable;
}

static tflaccel_status stub_execute(tflaccel_device *device, tflaccel_executable *executable,
                                    const tflaccel_binding *bindings, uint32_t binding_count,
                                    tflaccel_event **completion) {
  (void)executable;
  (void)bindings;
  (void)binding_count;
  (void)completion;
  stub_device *stub = (stub_device *)device;
  return stub->host->status_make(TFLACCEL_UNSUPPORTED, "the stub accepts no ops");
}

static tflaccel_status stub_buffer_create(tflaccel_device *device, uint64_t size,
                                          tflaccel_buffer **buffer) {
  (void)size;
  (void)buffer;
  stub_device *stub = (stub_device *)device;
  return stub->host->status_make(TFLACCEL_UNSUPPORTED, "the stub has no memory");
}

static void stub_buffer_destroy(tflaccel_device *device, tflaccel_buffer *buffer) {
  (void)device;
  (void)buffer;
}

static tflaccel_status stub_buffer_write(tflaccel_device *device, tflaccel_buffer *buffer,
                                         uint64_t offset, const void *source, uint64_t size) {
  (void)buffer;
  (void)offset;
  (void)source;
  (void)size;
  stub_device *stub = (stub_device *)device;
  return stub->host->status_make(TFLACCEL_UNSUPPORTED, "the stub has no memory");
}

static tflaccel_status stub_buffer_read(tflaccel_device *device, tflaccel_buffer *buffer,
                                        uint64_t offset, void *destination, uint64_t size) {
  (void)buffer;
  (void)offset;
  (void)destination;
  (void)size;
  stub_device *stub = (stub_device *)device;
  return stub->host->status_make(TFLACCEL_UNSUPPORTED, "the stub has no memory");
}

static const tflaccel_device_vtable stub_vtable = {
    .struct_size = sizeof(tflaccel_device_vtable),
    .destroy = stub_destroy,
    .supports_op = stub_supports_op,
    .compile = stub_compile,
    .executable_destroy = stub_executable_destroy,
    .execute = stub_execute,
    .buffer_create = stub_buffer_create,
    .buffer_destroy = stub_buffer_destroy,
    .buffer_write = stub_buffer_write,
    .buffer_read = stub_buffer_read,
};

static tflaccel_status stub_device_create(void *state, uint32_t index, tflaccel_device **device) {
  (void)index;
  stub_state *plugin = state;
  stub_device *created = plugin->host->alloc(plugin->host->context, sizeof *created, 8);
  if (created == NULL) return plugin->host->status_make(TFLACCEL_OUT_OF_MEMORY, "stub: out of memory");
  created->base.vtable = &stub_vtable;
  created->host = plugin->host;
  *device = &created->base;
  return NULL;
}

static const tflaccel_accelerator_plugin stub_descriptor = {
    .struct_size = sizeof(tflaccel_accelerator_plugin),
#if STUB_VARIANT == VARIANT_NEWER_MINOR
    .abi_version = ((uint32_t)TFLACCEL_ABI_MAJOR << 16) | (TFLACCEL_ABI_MINOR + 99),
#else
    .abi_version = TFLACCEL_ABI_VERSION,
#endif
    .name = STUB_NAME,
    .version = "test",
    .description = "a test-only plugin",
#if STUB_VARIANT == VARIANT_NULL_INIT
    .init = NULL,
#else
    .init = stub_init,
#endif
    .shutdown = stub_shutdown,
    .device_count = stub_device_count,
    .device_info = stub_device_info,
    .device_create = stub_device_create,
};

#if STUB_VARIANT == VARIANT_WRONG_MAJOR
/* A plugin from a future ABI: its entry symbol carries major 2. */
TFLACCEL_PLUGIN_EXPORT const tflaccel_accelerator_plugin *tflaccel_accelerator_entry_v2(uint32_t host);
TFLACCEL_PLUGIN_EXPORT const tflaccel_accelerator_plugin *tflaccel_accelerator_entry_v2(uint32_t host) {
  (void)host;
  return &stub_descriptor;
}
#elif STUB_VARIANT == VARIANT_NO_ENTRY
/* Exports something, but not the entry point. */
TFLACCEL_PLUGIN_EXPORT int stub_not_an_entry(void);
TFLACCEL_PLUGIN_EXPORT int stub_not_an_entry(void) { return stub_descriptor.struct_size > 0; }
#else
TFLACCEL_PLUGIN_EXPORT const tflaccel_accelerator_plugin *TFLACCEL_ACCELERATOR_ENTRY(uint32_t host) {
#if STUB_VARIANT == VARIANT_REFUSES_HOST
  (void)host;
  (void)&stub_descriptor; /* built, but never handed out */
  return NULL;
#else
  if (TFLACCEL_ABI_VERSION_MAJOR(host) != TFLACCEL_ABI_MAJOR) return NULL;
  return &stub_descriptor;
#endif
}
#endif
