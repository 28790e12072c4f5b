/* --io=device and --async of bench and run: a model's inputs and outputs in
 * the accelerator's own buffers, and frames queued with run_async. */
#ifndef TFLACCEL_TOOLS_BENCH_DEVICE_IO_H
#define TFLACCEL_TOOLS_BENCH_DEVICE_IO_H

#include <stddef.h>

#include "tools/tflaccel/bench_buffers.h"

/* "--io=host|device": 1 matched (*device set), 0 another flag, -1 bad
 * (printed with command as its prefix). */
int bench_match_io(const char *command, int argc, char **argv, int *index, int *device);

/* Replaces every host buffer of buffers by a device buffer of the type the
 * input or output takes (tflaccel_compiled_model_*_buffer_requirements),
 * with the same bytes for inputs. An input or output that takes host
 * buffers only is an error naming it: --io=device never falls back to the
 * host. describes: "gpu_cl OpenCL" written into `what` when not NULL. */
tflaccel_status bench_buffers_to_device(const tflaccel_compiled_model *compiled,
                                        model_buffers *buffers, char *what, size_t what_size);

/* Host copies of the outputs of buffers (device or not), made and filled;
 * the caller destroys them (and frees the array). */
tflaccel_status bench_outputs_to_host(const model_buffers *buffers,
                                      tflaccel_tensor_buffer ***host_outputs);

/* Spins (keeps the CPU busy, as real per-frame work would) for the given
 * microseconds. */
void bench_cpu_work(double microseconds);

#define BENCH_ASYNC_MAX_OUTPUTS 64

/* One frame of --async: queues a run whose outputs get new events, then
 * waits for the events of the previous frame (*pending, output_count of
 * them, NULL at first; an array of BENCH_ASYNC_MAX_OUTPUTS), and leaves this frame's in *pending. cpu_work_us
 * of CPU work happen between queueing and waiting. With finish set, only
 * waits for *pending. */
tflaccel_status bench_async_frame(tflaccel_compiled_model *compiled, const model_buffers *buffers,
                                  double cpu_work_us, tflaccel_tensor_event **pending, int finish);

#endif
