/* A test hook that makes one GPU API call of a device fail, as a driver
 * fault would (device lost, out of memory, an error): the environment
 * variable TFLACCEL_GPU_FAULT, read once when a device is opened, is
 *
 *   [PLUGIN:]N[:KIND]   the Nth hooked call (from 1) of each device fails
 *
 * PLUGIN (gpu_cl, gpu_vk, gpu_gl) limits it to that plugin's devices; KIND
 * is lost, oom or error (absent: what that call would fail with most
 * often, named at the call). The call is not made: it returns the API's
 * error for KIND, and the plugin's ordinary error path reports it. The
 * hooked calls are those that can fail while compiling and running
 * (allocation, program and pipeline creation, submission, waits), not the
 * device's creation; every such call's failure reaches the caller as a
 * status. The counter lives in the device, whose calls the core
 * serializes. docs/RELIABILITY.md says what the hook found. */
#ifndef TFLACCEL_GPU_COMMON_GPU_FAULT_H
#define TFLACCEL_GPU_COMMON_GPU_FAULT_H

#include <stdint.h>

#include "tflaccel/accelerator.h"

typedef enum gpu_fault_kind {
  GPU_FAULT_NONE = 0,   /* make the call */
  GPU_FAULT_LOST = 1,   /* device lost (a hang, a reset) */
  GPU_FAULT_MEMORY = 2, /* out of (device) memory */
  GPU_FAULT_ERROR = 3,  /* any other failure */
} gpu_fault_kind;

typedef struct gpu_fault {
  const tflaccel_host_services *host;
  const char *plugin;
  uint64_t fail_at; /* 0: no call fails */
  uint64_t calls;   /* hooked calls so far */
  gpu_fault_kind kind; /* GPU_FAULT_NONE: each call's own default */
} gpu_fault;

/* Reads TFLACCEL_GPU_FAULT for plugin's device. Absent, empty or for
 * another plugin: no fault. A malformed value is TFLACCEL_INVALID_CONFIG
 * naming it. */
tflaccel_status gpu_fault_init(gpu_fault *fault, const tflaccel_host_services *host,
                               const char *plugin);

/* Counts one call (named call, for the log) and says whether it fails:
 * GPU_FAULT_NONE (make it), else the kind to fail with, usual when the
 * variable named none. fault NULL: never. */
gpu_fault_kind gpu_fault_next(gpu_fault *fault, const char *call, gpu_fault_kind usual);

#endif
