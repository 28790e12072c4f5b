/* tflaccel_compiled_model_run_async: a FIFO of checked runs and one thread
 * per compiled model (started by its first queued run) that performs them
 * in order. Each queued run holds references to its inputs' events, which
 * it waits for first (on the device that reads a device buffer when the
 * event is that device's, else on the CPU), and to the new events it gave
 * its outputs, which it signals with its outcome: an output whose
 * partition was only queued on its device gets the device's event. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/runtime/compiled_model.h"
#include "core/runtime/device_event.h"
#include "core/runtime/tensor_buffer.h"
#include "core/runtime/tensor_event.h"

typedef struct queued_run {
  struct queued_run *next;
  tflaccel_tensor_buffer **buffers;  /* inputs, then outputs */
  tflaccel_tensor_event **waits;     /* per buffer: the event to wait for first, or NULL */
  tflaccel_tensor_event **signals;   /* per output: its new event */
} queued_run;

struct async_queue {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  pthread_t thread;
  queued_run *head, *tail;
  int busy;     /* the thread is running a dequeued run */
  int stopping;
};

static void queued_run_free(queued_run *run, uint32_t buffer_count, uint32_t output_count) {
  if (run == NULL) return;
  for (uint32_t b = 0; run->waits != NULL && b < buffer_count; ++b)
    tflaccel_tensor_event_destroy(run->waits[b]);
  for (uint32_t o = 0; run->signals != NULL && o < output_count; ++o)
    tflaccel_tensor_event_destroy(run->signals[o]);
  free(run->buffers);
  free(run->waits);
  free(run->signals);
  free(run);
}

/* The device that reads (writes) buffer b of the run in place, when it
 * can wait for events there: a device buffer bound to the one partition
 * that reads (writes) it. */
static tflaccel_device *waiting_device(const tflaccel_compiled_model *compiled,
                                       const queued_run *run, uint32_t b) {
  uint32_t inputs = compiled->graph_input_count;
  int32_t owner =
      b < inputs ? compiled->input_partition[b] : compiled->output_partition[b - inputs];
  if (owner < 0 || run->buffers[b]->type == TFLACCEL_BUFFER_HOST) return NULL;
  tflaccel_device *device = compiled->runtimes[owner].device;
  return device_has_events(device) ? device : NULL;
}

/* Waits for buffer b's event: on the device that takes the buffer when
 * the event is one of that device's (*on_device, a new reference), else
 * here. */
static tflaccel_status wait_buffer(const tflaccel_compiled_model *compiled, const queued_run *run,
                                   uint32_t b, device_event **on_device) {
  *on_device = NULL;
  tflaccel_device *device = waiting_device(compiled, run, b);
  if (device == NULL) return tflaccel_tensor_event_wait(run->waits[b]);
  device_event *queued = NULL;
  tflaccel_status status = tensor_event_wait_queued(run->waits[b], &queued);
  if (status != NULL || queued == NULL) return status;
  if (queued->device == device) {
    *on_device = queued;
    return NULL;
  }
  status = device_event_wait(queued);
  device_event_release(queued);
  return status;
}

static void perform(tflaccel_compiled_model *compiled, queued_run *run) {
  uint32_t inputs = compiled->graph_input_count, outputs = compiled->graph_output_count;
  tflaccel_status status = NULL;
  device_event **buffer_waits = calloc(inputs + outputs + 1, sizeof *buffer_waits);
  device_event **output_done = calloc(outputs + 1, sizeof *output_done);
  if (buffer_waits == NULL || output_done == NULL)
    status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "run_async: out of memory");
  for (uint32_t b = 0; b < inputs + outputs && status == NULL; ++b) {
    if (run->waits[b] == NULL) continue;
    tflaccel_status waited = wait_buffer(compiled, run, b, &buffer_waits[b]);
    /* An output's earlier event only orders the writes. */
    if (b < inputs && waited != NULL)
      status = tflaccel_status_annotate(waited, "run_async: input %u's event", b);
    else
      tflaccel_status_free(waited);
  }
  run_events events = {.buffer_waits = buffer_waits, .output_done = output_done};
  if (status == NULL)
    status = compiled_model_run_with_events(compiled, run->buffers, run->buffers + inputs, &events);
  for (uint32_t o = 0; o < outputs; ++o) {
    if (status == NULL && output_done[o] != NULL) {
      tensor_event_signal_on_device(run->signals[o], output_done[o]);
      continue;
    }
    tflaccel_status copy =
        status == NULL ? NULL
                       : tflaccel_status_make(tflaccel_status_code_of(status), "%s",
                                              tflaccel_status_message(status));
    tensor_event_signal_with(run->signals[o], copy);
  }
  for (uint32_t b = 0; buffer_waits != NULL && b < inputs + outputs; ++b)
    device_event_release(buffer_waits[b]);
  for (uint32_t o = 0; output_done != NULL && o < outputs; ++o) device_event_release(output_done[o]);
  free(buffer_waits);
  free(output_done);
  tflaccel_status_free(status);
}

static void *queue_thread(void *argument) {
  tflaccel_compiled_model *compiled = argument;
  struct async_queue *queue = compiled->async;
  pthread_mutex_lock(&queue->lock);
  for (;;) {
    while (queue->head == NULL && !queue->stopping) pthread_cond_wait(&queue->changed, &queue->lock);
    if (queue->head == NULL) break;
    queued_run *run = queue->head;
    queue->head = run->next;
    if (queue->head == NULL) queue->tail = NULL;
    queue->busy = 1;
    pthread_mutex_unlock(&queue->lock);
    perform(compiled, run);
    queued_run_free(run, compiled->graph_input_count + compiled->graph_output_count,
                    compiled->graph_output_count);
    pthread_mutex_lock(&queue->lock);
    queue->busy = 0;
    pthread_cond_broadcast(&queue->changed);
  }
  pthread_mutex_unlock(&queue->lock);
  return NULL;
}

static tflaccel_status start_queue(tflaccel_compiled_model *compiled) {
  struct async_queue *queue = calloc(1, sizeof *queue);
  if (queue == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "run_async: out of memory");
  if (pthread_mutex_init(&queue->lock, NULL) != 0) {
    free(queue);
    return tflaccel_status_make(TFLACCEL_INTERNAL, "run_async: cannot make a mutex");
  }
  if (pthread_cond_init(&queue->changed, NULL) != 0) {
    pthread_mutex_destroy(&queue->lock);
    free(queue);
    return tflaccel_status_make(TFLACCEL_INTERNAL, "run_async: cannot make a condition");
  }
  compiled->async = queue;
  if (pthread_create(&queue->thread, NULL, queue_thread, compiled) != 0) {
    compiled->async = NULL;
    pthread_cond_destroy(&queue->changed);
    pthread_mutex_destroy(&queue->lock);
    free(queue);
    return tflaccel_status_make(TFLACCEL_INTERNAL, "run_async: cannot start its thread");
  }
  return NULL;
}

tflaccel_status tflaccel_compiled_model_run_async(tflaccel_compiled_model *compiled,
                                                  tflaccel_tensor_buffer *const *inputs,
                                                  uint32_t input_count,
                                                  tflaccel_tensor_buffer *const *outputs,
                                                  uint32_t output_count) {
  tflaccel_status status = compiled_model_check_run(compiled, inputs, input_count, outputs, output_count);
  if (status != NULL) return status;
  uint32_t count = input_count + output_count;
  queued_run *run = calloc(1, sizeof *run);
  if (run != NULL) {
    run->buffers = calloc(count + 1, sizeof *run->buffers);
    run->waits = calloc(count + 1, sizeof *run->waits);
    run->signals = calloc(output_count + 1, sizeof *run->signals);
  }
  int ok = run != NULL && run->buffers != NULL && run->waits != NULL && run->signals != NULL;
  for (uint32_t o = 0; ok && o < output_count; ++o) ok = (run->signals[o] = tensor_event_new()) != NULL;
  if (!ok) {
    queued_run_free(run, count, output_count);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "run_async: out of memory");
  }
  if (compiled->async == NULL && (status = start_queue(compiled)) != NULL) {
    queued_run_free(run, count, output_count);
    return status;
  }
  for (uint32_t i = 0; i < input_count; ++i) run->buffers[i] = inputs[i];
  for (uint32_t o = 0; o < output_count; ++o) run->buffers[input_count + o] = outputs[o];
  for (uint32_t b = 0; b < count; ++b) run->waits[b] = tensor_buffer_event(run->buffers[b]);
  for (uint32_t o = 0; o < output_count; ++o) tensor_buffer_put_event(outputs[o], run->signals[o]);
  struct async_queue *queue = compiled->async;
  pthread_mutex_lock(&queue->lock);
  if (queue->tail != NULL)
    queue->tail->next = run;
  else
    queue->head = run;
  queue->tail = run;
  pthread_cond_broadcast(&queue->changed);
  pthread_mutex_unlock(&queue->lock);
  return NULL;
}

void async_run_drain(tflaccel_compiled_model *compiled) {
  struct async_queue *queue = compiled->async;
  if (queue == NULL) return;
  pthread_mutex_lock(&queue->lock);
  while (queue->head != NULL || queue->busy) pthread_cond_wait(&queue->changed, &queue->lock);
  pthread_mutex_unlock(&queue->lock);
}

void async_run_release(tflaccel_compiled_model *compiled) {
  struct async_queue *queue = compiled->async;
  if (queue == NULL) return;
  pthread_mutex_lock(&queue->lock);
  queue->stopping = 1;
  pthread_cond_broadcast(&queue->changed);
  pthread_mutex_unlock(&queue->lock);
  pthread_join(queue->thread, NULL);
  pthread_cond_destroy(&queue->changed);
  pthread_mutex_destroy(&queue->lock);
  free(queue);
  compiled->async = NULL;
}
