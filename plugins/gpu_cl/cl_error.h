/* OpenCL error codes as names, and statuses that name the failed call. */
#ifndef TFLACCEL_GPU_CL_CL_ERROR_H
#define TFLACCEL_GPU_CL_CL_ERROR_H

#include "plugins/gpu_cl/cl_api.h"
#include "plugins/gpu_common/gpu_fault.h"
#include "tflaccel/accelerator.h"

/* "CL_OUT_OF_RESOURCES" etc.; "unknown OpenCL error" for codes not listed. */
const char *cl_error_name(cl_int error);

/* The tflaccel status code that fits error: allocation failures become
 * TFLACCEL_OUT_OF_MEMORY, everything else TFLACCEL_BACKEND_ERROR. */
int32_t cl_error_status_code(cl_int error);

/* "<call> failed: <name> (<code>)", with the code from cl_error_status_code. */
tflaccel_status cl_call_failed(const tflaccel_host_services *host, const char *call, cl_int error);

/* The fault hook (gpu_fault.h) before an OpenCL call: CL_SUCCESS (make the
 * call) or the error it fails with instead. OpenCL has no "device lost":
 * drivers report a hung or reset GPU as CL_OUT_OF_RESOURCES, which a loss
 * becomes; out of memory is CL_MEM_OBJECT_ALLOCATION_FAILURE, any other
 * failure CL_INVALID_OPERATION. */
cl_int cl_fault(gpu_fault *fault, const char *call, gpu_fault_kind usual);

#endif
