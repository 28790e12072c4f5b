/* OpenCL discovery and per-device contexts. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_common/gpu_extension_list.h"
#include "plugins/gpu_cl/cl_context.h"
#include "plugins/gpu_cl/cl_error.h"

/* From cl_khr_icd: the loader found no ICD. */
#define GPU_CL_PLATFORM_NOT_FOUND_KHR (-1001)

static void copy_truncated(char *destination, size_t capacity, const char *source) {
  snprintf(destination, capacity, "%s", source);
}

/* Reads a string parameter of a platform into a new host allocation. */
static tflaccel_status platform_string(const tflaccel_host_services *host, cl_platform_id platform,
                                       cl_platform_info param, const char *param_name,
                                       char **value) {
  char call[96];
  snprintf(call, sizeof call, "clGetPlatformInfo(%s)", param_name);
  size_t size = 0;
  cl_int error = clGetPlatformInfo(platform, param, 0, NULL, &size);
  if (error != CL_SUCCESS) return cl_call_failed(host, call, error);
  char *text = host->alloc(host->context, size + 1, 1);
  if (text == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory", call);
  error = clGetPlatformInfo(platform, param, size, text, NULL);
  if (error != CL_SUCCESS) {
    host->free(host->context, text);
    return cl_call_failed(host, call, error);
  }
  text[size] = '\0';
  *value = text;
  return NULL;
}

/* Reads a string parameter of a device into a new host allocation. */
static tflaccel_status device_string(const tflaccel_host_services *host, cl_device_id device,
                                     cl_device_info param, const char *param_name, char **value) {
  char call[96];
  snprintf(call, sizeof call, "clGetDeviceInfo(%s)", param_name);
  size_t size = 0;
  cl_int error = clGetDeviceInfo(device, param, 0, NULL, &size);
  if (error != CL_SUCCESS) return cl_call_failed(host, call, error);
  char *text = host->alloc(host->context, size + 1, 1);
  if (text == NULL) return host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory", call);
  error = clGetDeviceInfo(device, param, size, text, NULL);
  if (error != CL_SUCCESS) {
    host->free(host->context, text);
    return cl_call_failed(host, call, error);
  }
  text[size] = '\0';
  *value = text;
  return NULL;
}

/* Copies a device string parameter into a fixed-size info field. */
static tflaccel_status device_string_field(const tflaccel_host_services *host, cl_device_id device,
                                           cl_device_info param, const char *param_name,
                                           char *field) {
  char *text = NULL;
  tflaccel_status status = device_string(host, device, param, param_name, &text);
  if (status != NULL) return status;
  copy_truncated(field, TFLACCEL_DEVICE_STRING_SIZE, text);
  host->free(host->context, text);
  return NULL;
}

static tflaccel_status device_scalar(const tflaccel_host_services *host, cl_device_id device,
                                     cl_device_info param, const char *param_name, void *value,
                                     size_t size) {
  cl_int error = clGetDeviceInfo(device, param, size, value, NULL);
  if (error == CL_SUCCESS) return NULL;
  char call[96];
  snprintf(call, sizeof call, "clGetDeviceInfo(%s)", param_name);
  return cl_call_failed(host, call, error);
}

/* Software implementations are reported as virtual GPUs even when they call
 * themselves GPUs, so that a real GPU is preferred over them. */
static int is_software_renderer(const char *name) {
  return strstr(name, "llvmpipe") != NULL || strstr(name, "softpipe") != NULL ||
         strstr(name, "SwiftShader") != NULL;
}

static tflaccel_status describe_device(const tflaccel_host_services *host, cl_device_id device,
                                       cl_device_type type, tflaccel_device_info *info) {
  memset(info, 0, sizeof *info);
  info->struct_size = sizeof *info;
  tflaccel_status status =
      device_string_field(host, device, CL_DEVICE_NAME, "CL_DEVICE_NAME", info->name);
  if (status == NULL)
    status = device_string_field(host, device, CL_DEVICE_VENDOR, "CL_DEVICE_VENDOR", info->vendor);
  if (status == NULL)
    status = device_string_field(host, device, CL_DRIVER_VERSION, "CL_DRIVER_VERSION",
                                 info->driver_version);
  if (status == NULL)
    status = device_string_field(host, device, CL_DEVICE_VERSION, "CL_DEVICE_VERSION",
                                 info->api_version);
  cl_ulong memory = 0;
  if (status == NULL)
    status = device_scalar(host, device, CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE",
                           &memory, sizeof memory);
  char *extensions = NULL;
  if (status == NULL)
    status = device_string(host, device, CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS", &extensions);
  if (status != NULL) return status;
  info->memory_bytes = memory;
  /* vload_half/vstore_half are core OpenCL C: half storage always works. */
  info->caps = TFLACCEL_DEVICE_CAP_FP16_STORAGE;
  if (gpu_extension_listed(extensions, "cl_khr_fp16"))
    info->caps |= TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC;
  host->free(host->context, extensions);

  if (is_software_renderer(info->name)) {
    info->type = TFLACCEL_DEVICE_VIRTUAL_GPU;
  } else if (type & CL_DEVICE_TYPE_GPU) {
    /* Deprecated since OpenCL 2.0 but still answered; without an answer the
     * GPU is taken to have memory of its own. */
    cl_bool unified = CL_FALSE;
    cl_int error =
        clGetDeviceInfo(device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);
    info->type = error == CL_SUCCESS && unified ? TFLACCEL_DEVICE_INTEGRATED_GPU
                                                : TFLACCEL_DEVICE_DISCRETE_GPU;
  } else if (type & CL_DEVICE_TYPE_CPU) {
    info->type = TFLACCEL_DEVICE_CPU;
  } else {
    info->type = TFLACCEL_DEVICE_OTHER;
  }
  return NULL;
}

/* Order of device kinds in the list: GPUs, then accelerators, then CPUs. */
static int type_rank(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return 0;
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return 1;
  return 2;
}

/* Whether the device can be used at all: it is a kind we run on, it is
 * available, and it can compile OpenCL C (kernels are built at run time). */
static tflaccel_status device_usable(const tflaccel_host_services *host, cl_device_id device,
                                     cl_device_type *type, int *usable) {
  *usable = 0;
  tflaccel_status status =
      device_scalar(host, device, CL_DEVICE_TYPE, "CL_DEVICE_TYPE", type, sizeof *type);
  if (status != NULL) return status;
  if ((*type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CPU)) == 0)
    return NULL;
  cl_bool available = CL_FALSE, compiler = CL_FALSE;
  status = device_scalar(host, device, CL_DEVICE_AVAILABLE, "CL_DEVICE_AVAILABLE", &available,
                         sizeof available);
  if (status == NULL)
    status = device_scalar(host, device, CL_DEVICE_COMPILER_AVAILABLE,
                           "CL_DEVICE_COMPILER_AVAILABLE", &compiler, sizeof compiler);
  if (status != NULL) return status;
  *usable = available && compiler;
  return NULL;
}

static tflaccel_status list_platforms(const tflaccel_host_services *host,
                                      cl_platform_id **platforms, cl_uint *count) {
  cl_uint found = 0;
  cl_int error = clGetPlatformIDs(0, NULL, &found);
  if (error == GPU_CL_PLATFORM_NOT_FOUND_KHR || (error == CL_SUCCESS && found == 0))
    return host->status_make(
        TFLACCEL_UNAVAILABLE,
        "no OpenCL platform found (is an ICD such as pocl-opencl-icd installed?)");
  if (error != CL_SUCCESS) return cl_call_failed(host, "clGetPlatformIDs", error);
  cl_platform_id *list = host->alloc(host->context, found * sizeof *list, _Alignof(cl_platform_id));
  if (list == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "listing OpenCL platforms: out of memory");
  error = clGetPlatformIDs(found, list, &found);
  if (error != CL_SUCCESS) {
    host->free(host->context, list);
    return cl_call_failed(host, "clGetPlatformIDs", error);
  }
  *platforms = list;
  *count = found;
  return NULL;
}

/* Whether the platform's name or vendor contains filter; appends the name to
 * seen (for the message when nothing matches). */
static tflaccel_status platform_matches(const tflaccel_host_services *host, cl_platform_id platform,
                                        const char *filter, char *seen, size_t seen_size,
                                        int *matches) {
  char *name = NULL, *vendor = NULL;
  tflaccel_status status =
      platform_string(host, platform, CL_PLATFORM_NAME, "CL_PLATFORM_NAME", &name);
  if (status == NULL)
    status = platform_string(host, platform, CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR", &vendor);
  if (status == NULL) {
    *matches =
        filter == NULL || strcasestr(name, filter) != NULL || strcasestr(vendor, filter) != NULL;
    size_t used = strlen(seen);
    snprintf(seen + used, seen_size - used, "%s\"%s\"", used > 0 ? ", " : "", name);
  }
  if (name != NULL) host->free(host->context, name);
  if (vendor != NULL) host->free(host->context, vendor);
  return status;
}

/* Appends the usable devices of one platform to list (which has room). */
static tflaccel_status scan_platform(const tflaccel_host_services *host, cl_platform_id platform,
                                     cl_device_list *list, uint32_t capacity, int32_t *ranks) {
  cl_uint count = 0;
  cl_int error = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &count);
  if (error == CL_DEVICE_NOT_FOUND) return NULL;
  if (error != CL_SUCCESS) return cl_call_failed(host, "clGetDeviceIDs", error);
  if (count == 0) return NULL;
  cl_device_id *devices =
      host->alloc(host->context, count * sizeof *devices, _Alignof(cl_device_id));
  if (devices == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "listing OpenCL devices: out of memory");
  error = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices, NULL);
  tflaccel_status status =
      error == CL_SUCCESS ? NULL : cl_call_failed(host, "clGetDeviceIDs", error);
  for (cl_uint i = 0; status == NULL && i < count && list->count < capacity; ++i) {
    cl_device_type type = 0;
    int usable = 0;
    status = device_usable(host, devices[i], &type, &usable);
    if (status != NULL || !usable) continue;
    cl_device_entry *entry = &list->entries[list->count];
    entry->platform = platform;
    entry->device = devices[i];
    status = describe_device(host, devices[i], type, &entry->info);
    if (status != NULL) break;
    ranks[list->count] = type_rank(type);
    list->count++;
  }
  host->free(host->context, devices);
  return status;
}

/* Counts the devices of every platform, to size the list once. */
static uint32_t count_devices(cl_platform_id *platforms, cl_uint platform_count) {
  uint32_t total = 0;
  for (cl_uint p = 0; p < platform_count; ++p) {
    cl_uint count = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &count) == CL_SUCCESS)
      total += count;
  }
  return total;
}

/* Stable insertion sort by rank: keeps platform order within a kind. */
static void sort_by_rank(cl_device_list *list, int32_t *ranks) {
  for (uint32_t i = 1; i < list->count; ++i) {
    cl_device_entry entry = list->entries[i];
    int32_t rank = ranks[i];
    uint32_t j = i;
    for (; j > 0 && ranks[j - 1] > rank; --j) {
      list->entries[j] = list->entries[j - 1];
      ranks[j] = ranks[j - 1];
    }
    list->entries[j] = entry;
    ranks[j] = rank;
  }
}

tflaccel_status cl_device_list_scan(const tflaccel_host_services *host, const char *platform_filter,
                                    cl_device_list *list) {
  list->entries = NULL;
  list->count = 0;
  cl_platform_id *platforms = NULL;
  cl_uint platform_count = 0;
  tflaccel_status status = list_platforms(host, &platforms, &platform_count);
  if (status != NULL) return status;

  uint32_t capacity = count_devices(platforms, platform_count);
  int32_t *ranks = NULL;
  if (capacity > 0) {
    list->entries =
        host->alloc(host->context, capacity * sizeof *list->entries, _Alignof(cl_device_entry));
    ranks = host->alloc(host->context, capacity * sizeof *ranks, _Alignof(int32_t));
    if (list->entries == NULL || ranks == NULL)
      status = host->status_make(TFLACCEL_OUT_OF_MEMORY, "listing OpenCL devices: out of memory");
  }

  /* A broken platform must not hide a working one: its failure is reported
   * only when no device is found at all. */
  tflaccel_status first_failure = NULL;
  char seen[512] = "";
  int any_platform_matched = 0;
  for (cl_uint p = 0; status == NULL && p < platform_count; ++p) {
    int matches = 0;
    tflaccel_status platform_status =
        platform_matches(host, platforms[p], platform_filter, seen, sizeof seen, &matches);
    if (platform_status == NULL && matches) {
      any_platform_matched = 1;
      if (capacity > 0) platform_status = scan_platform(host, platforms[p], list, capacity, ranks);
    }
    if (platform_status != NULL) {
      host->log(host->context, TFLACCEL_LOG_WARNING, "OpenCL platform %u skipped: %s", (unsigned)p,
                host->status_message(platform_status));
      if (first_failure == NULL)
        first_failure = platform_status;
      else
        host->status_free(platform_status);
    }
  }
  host->free(host->context, platforms);

  if (status == NULL && list->count == 0) {
    if (first_failure != NULL) {
      status = first_failure;
      first_failure = NULL;
    } else if (!any_platform_matched) {
      status = host->status_make(TFLACCEL_UNAVAILABLE,
                                 "no OpenCL platform matches platform=%s (platforms: %s)",
                                 platform_filter, seen);
    } else {
      status = host->status_make(TFLACCEL_UNAVAILABLE,
                                 "no usable OpenCL GPU, accelerator or CPU device on platforms %s",
                                 seen);
    }
  }
  if (first_failure != NULL) host->status_free(first_failure);
  if (status == NULL) sort_by_rank(list, ranks);
  if (ranks != NULL) host->free(host->context, ranks);
  if (status != NULL) cl_device_list_release(host, list);
  return status;
}

void cl_device_list_release(const tflaccel_host_services *host, cl_device_list *list) {
  if (list->entries != NULL) host->free(host->context, list->entries);
  list->entries = NULL;
  list->count = 0;
}

/* Driver messages about the context (errors found asynchronously). The
 * host's logger writes whole lines, so it is safe from the driver's thread. */
static void CL_CALLBACK report_context_error(const char *message, const void *private_info,
                                             size_t private_size, void *user_data) {
  (void)private_info;
  (void)private_size;
  const tflaccel_host_services *host = user_data;
  host->log(host->context, TFLACCEL_LOG_WARNING, "OpenCL driver: %s", message);
}

tflaccel_status cl_device_context_create(const tflaccel_host_services *host,
                                         const cl_device_entry *entry, int32_t profiling,
                                         cl_device_context *context) {
  memset(context, 0, sizeof *context);
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)entry->platform,
                                        0};
  cl_int error = CL_SUCCESS;
  context->device = entry->device;
  context->context =
      clCreateContext(properties, 1, &entry->device, report_context_error, (void *)host, &error);
  if (context->context == NULL || error != CL_SUCCESS) {
    if (context->context != NULL) clReleaseContext(context->context);
    context->context = NULL;
    return cl_call_failed(host, "clCreateContext",
                          error != CL_SUCCESS ? error : CL_INVALID_CONTEXT);
  }
  /* Every device supports profiling (a minimum capability of OpenCL). */
  cl_command_queue_properties queue_properties = profiling ? CL_QUEUE_PROFILING_ENABLE : 0;
  context->queue =
      clCreateCommandQueue(context->context, entry->device, queue_properties, &error);
  if (context->queue == NULL || error != CL_SUCCESS) {
    if (context->queue != NULL) clReleaseCommandQueue(context->queue); /* partly made */
    context->queue = NULL;
    cl_device_context_release(host, context);
    return cl_call_failed(host, "clCreateCommandQueue",
                          error != CL_SUCCESS ? error : CL_INVALID_COMMAND_QUEUE);
  }
  return NULL;
}

/* Teardown cannot fail upwards: problems are logged. */
static void log_release_failure(const tflaccel_host_services *host, const char *call,
                                cl_int error) {
  if (error != CL_SUCCESS)
    host->log(host->context, TFLACCEL_LOG_WARNING, "%s failed: %s (%d)", call, cl_error_name(error),
              (int)error);
}

void cl_device_context_release(const tflaccel_host_services *host, cl_device_context *context) {
  if (context->queue != NULL) {
    /* Nothing may still run when the queue goes away. */
    log_release_failure(host, "clFinish", clFinish(context->queue));
    log_release_failure(host, "clReleaseCommandQueue", clReleaseCommandQueue(context->queue));
  }
  if (context->context != NULL)
    log_release_failure(host, "clReleaseContext", clReleaseContext(context->context));
  context->queue = NULL;
  context->context = NULL;
}
