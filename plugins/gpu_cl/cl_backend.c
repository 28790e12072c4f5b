/* The OpenCL backend of the GPU layer (cl_backend.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_cl/cl_backend.h"
#include "plugins/gpu_cl/cl_buffer.h"
#include "plugins/gpu_cl/cl_error.h"
#include "plugins/gpu_common/gpu_kernel_catalog.h"

struct gpu_kernel_object {
  cl_kernel kernel;
  size_t max_group_size; /* CL_KERNEL_WORK_GROUP_SIZE, within the device's */
};

static cl_backend_device *self_of(void *device) {
  return device;
}

static tflaccel_status buffer_create(void *device, uint64_t size, tflaccel_buffer **buffer) {
  cl_backend_device *self = self_of(device);
  return cl_buffer_create(self->host, self->context, size, buffer);
}

static void buffer_destroy(void *device, tflaccel_buffer *buffer) {
  cl_buffer_destroy(self_of(device)->host, buffer);
}

static tflaccel_status buffer_upload(void *device, tflaccel_buffer *buffer, const void *data,
                                     uint64_t size) {
  cl_backend_device *self = self_of(device);
  return cl_buffer_write(self->host, self->context, buffer, 0, data, size);
}

static tflaccel_status kernel_create(void *device, int32_t storage, int32_t kernel,
                                     gpu_kernel_object **object) {
  cl_backend_device *self = self_of(device);
  const tflaccel_host_services *host = self->host;
  *object = NULL;
  cl_program program = NULL;
  tflaccel_status status = cl_program_get(host, self->context, &self->programs, storage, &program);
  if (status != NULL) return status;
  gpu_kernel_object *created =
      host->alloc(host->context, sizeof *created, _Alignof(gpu_kernel_object));
  if (created == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "gpu_cl: out of memory (kernel)");
  cl_int error = CL_SUCCESS;
  created->kernel = clCreateKernel(program, gpu_kernel_name(kernel), &error);
  if (created->kernel == NULL || error != CL_SUCCESS) {
    host->free(host->context, created);
    char call[96];
    snprintf(call, sizeof call, "clCreateKernel(%s)", gpu_kernel_name(kernel));
    return cl_call_failed(host, call, error != CL_SUCCESS ? error : CL_INVALID_KERNEL_NAME);
  }
  size_t group = 0;
  error = clGetKernelWorkGroupInfo(created->kernel, self->context->device,
                                   CL_KERNEL_WORK_GROUP_SIZE, sizeof group, &group, NULL);
  if (error != CL_SUCCESS || group == 0) group = 1;
  created->max_group_size = group < self->max_group_size ? group : self->max_group_size;
  *object = created;
  return NULL;
}

static void kernel_destroy(void *device, gpu_kernel_object *object) {
  cl_backend_device *self = self_of(device);
  if (object == NULL) return;
  cl_int error = clReleaseKernel(object->kernel);
  if (error != CL_SUCCESS)
    self->host->log(self->host->context, TFLACCEL_LOG_WARNING, "clReleaseKernel failed: %s (%d)",
                    cl_error_name(error), (int)error);
  self->host->free(self->host->context, object);
}

static tflaccel_status kernel_set_buffer(void *device, gpu_kernel_object *object, uint32_t slot,
                                         tflaccel_buffer *buffer) {
  cl_mem memory = cl_buffer_memory(buffer);
  cl_int error = clSetKernelArg(object->kernel, slot, sizeof memory, &memory);
  return error == CL_SUCCESS ? NULL
                             : cl_call_failed(self_of(device)->host, "clSetKernelArg", error);
}

static tflaccel_status kernel_set_int(void *device, gpu_kernel_object *object, uint32_t slot,
                                      int32_t value) {
  cl_int argument = value;
  cl_int error = clSetKernelArg(object->kernel, slot, sizeof argument, &argument);
  return error == CL_SUCCESS ? NULL
                             : cl_call_failed(self_of(device)->host, "clSetKernelArg", error);
}

/* Fits the preferred work-group size to the kernel and device limits by
 * halving its largest dimension, then rounds the global size up. */
static tflaccel_status dispatch(void *device, gpu_kernel_object *object, const uint32_t global[3],
                                const uint32_t local[3]) {
  cl_backend_device *self = self_of(device);
  size_t group[3], total[3];
  for (int i = 0; i < 3; ++i) {
    group[i] = local[i] ? local[i] : 1;
    if (group[i] > self->max_item_sizes[i]) group[i] = self->max_item_sizes[i];
  }
  while (group[0] * group[1] * group[2] > object->max_group_size) {
    int largest =
        group[0] >= group[1] ? (group[0] >= group[2] ? 0 : 2) : (group[1] >= group[2] ? 1 : 2);
    group[largest] = (group[largest] + 1) / 2;
  }
  for (int i = 0; i < 3; ++i) total[i] = ((size_t)global[i] + group[i] - 1) / group[i] * group[i];
  cl_int error = clEnqueueNDRangeKernel(self->context->queue, object->kernel, 3, NULL, total, group,
                                        0, NULL, NULL);
  return error == CL_SUCCESS ? NULL : cl_call_failed(self->host, "clEnqueueNDRangeKernel", error);
}

static tflaccel_status finish(void *device) {
  cl_backend_device *self = self_of(device);
  cl_int error = clFinish(self->context->queue);
  return error == CL_SUCCESS ? NULL : cl_call_failed(self->host, "clFinish", error);
}

tflaccel_status cl_backend_init(const tflaccel_host_services *host, cl_device_context *context,
                                const tflaccel_device_info *info, cl_backend_device *device,
                                gpu_backend *backend) {
  memset(device, 0, sizeof *device);
  memset(backend, 0, sizeof *backend);
  device->host = host;
  device->context = context;
  cl_int error = clGetDeviceInfo(context->device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                 sizeof device->max_group_size, &device->max_group_size, NULL);
  if (error != CL_SUCCESS)
    return cl_call_failed(host, "clGetDeviceInfo(CL_DEVICE_MAX_WORK_GROUP_SIZE)", error);
  error = clGetDeviceInfo(context->device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                          sizeof device->max_item_sizes, device->max_item_sizes, NULL);
  if (error != CL_SUCCESS)
    return cl_call_failed(host, "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES)", error);
  cl_uint alignment_bits = 0;
  error = clGetDeviceInfo(context->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof alignment_bits,
                          &alignment_bits, NULL);
  if (error != CL_SUCCESS)
    return cl_call_failed(host, "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN)", error);
  if (device->max_group_size == 0) device->max_group_size = 1;
  for (int i = 0; i < 3; ++i)
    if (device->max_item_sizes[i] == 0) device->max_item_sizes[i] = 1;
  backend->host = host;
  backend->plugin_name = "gpu_cl";
  backend->device = device;
  backend->has_half_math = (info->caps & TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC) != 0;
  backend->buffer_alignment = alignment_bits / 8;
  backend->buffer_create = buffer_create;
  backend->buffer_destroy = buffer_destroy;
  backend->buffer_upload = buffer_upload;
  backend->kernel_create = kernel_create;
  backend->kernel_destroy = kernel_destroy;
  backend->kernel_set_buffer = kernel_set_buffer;
  backend->kernel_set_int = kernel_set_int;
  backend->dispatch = dispatch;
  backend->finish = finish;
  backend->features = GPU_FEATURE_DENSE_OUTPUT | GPU_FEATURE_DEPTHWISE_POINTWISE;
  return NULL;
}

void cl_backend_release(cl_backend_device *device) {
  cl_program_set_release(device->host, &device->programs);
}
