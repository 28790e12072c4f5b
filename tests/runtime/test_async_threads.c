/* tflaccel.h's promise about asynchronous runs and threads: separate
 * compiled models queue runs from several threads at once, and another
 * thread waits on their outputs' events (and reads the outputs). Every
 * output must equal the single-threaded host run's, byte for byte. On
 * cpu_ref and every GPU plugin built and available, with host output
 * buffers and, on the GPU plugins, with the plugin's own output buffers
 * (whose events are the device's native ones, waited on from the other
 * thread); run under ThreadSanitizer by `make check-threads`
 * (.ci/reliability.sh). */
#include "config.h"

#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/runtime/device_buffer_fixture.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define PRODUCERS 3
#define FRAMES 4

static const char *const plugins[] = {"cpu_ref", "gpu_cl", "gpu_vk", "gpu_gl"};

/* Events handed from the producers to the waiter, with the buffer each
 * signals for. */
typedef struct handoff {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  tflaccel_tensor_event *events[PRODUCERS * FRAMES * FIXTURE_MAX_TENSORS];
  tflaccel_tensor_buffer *buffers[PRODUCERS * FRAMES * FIXTURE_MAX_TENSORS];
  uint32_t indices[PRODUCERS * FRAMES * FIXTURE_MAX_TENSORS];
  int count, expected;
} handoff;

typedef struct producer {
  device_fixture *fixture;
  tflaccel_compiled_model *compiled;
  tflaccel_tensor_buffer *outputs[FRAMES][FIXTURE_MAX_TENSORS];
  handoff *queue;
  char error[512];
} producer;

static void *produce(void *argument) {
  producer *self = argument;
  const device_fixture *fixture = self->fixture;
  for (int f = 0; f < FRAMES; ++f) {
    tflaccel_status status = tflaccel_compiled_model_run_async(
        self->compiled, fixture->inputs, fixture->input_count, self->outputs[f], fixture->output_count);
    if (status != NULL) {
      snprintf(self->error, sizeof self->error, "%s", tflaccel_status_message(status));
      tflaccel_status_free(status);
      pthread_mutex_lock(&self->queue->lock);
      self->queue->expected -= (FRAMES - f) * (int)fixture->output_count;
      pthread_cond_broadcast(&self->queue->changed);
      pthread_mutex_unlock(&self->queue->lock);
      return NULL;
    }
    for (uint32_t o = 0; o < fixture->output_count; ++o) {
      tflaccel_tensor_event *event = NULL;
      status = tflaccel_tensor_buffer_get_event(self->outputs[f][o], &event);
      if (status != NULL) tflaccel_status_free(status);
      pthread_mutex_lock(&self->queue->lock);
      int at = self->queue->count++;
      self->queue->events[at] = event;
      self->queue->buffers[at] = self->outputs[f][o];
      self->queue->indices[at] = o;
      pthread_cond_broadcast(&self->queue->changed);
      pthread_mutex_unlock(&self->queue->lock);
    }
  }
  return NULL;
}

typedef struct waiter {
  device_fixture *fixture;
  handoff *queue;
  int checked;
  char error[512];
} waiter;

static void *wait_all(void *argument) {
  waiter *self = argument;
  handoff *queue = self->queue;
  for (int taken = 0;; ++taken) {
    pthread_mutex_lock(&queue->lock);
    while (queue->count <= taken && taken < queue->expected)
      pthread_cond_wait(&queue->changed, &queue->lock);
    int done = taken >= queue->expected;
    tflaccel_tensor_event *event = done ? NULL : queue->events[taken];
    tflaccel_tensor_buffer *buffer = done ? NULL : queue->buffers[taken];
    uint32_t index = done ? 0 : queue->indices[taken];
    pthread_mutex_unlock(&queue->lock);
    if (done) return NULL;
    if (event == NULL) {
      snprintf(self->error, sizeof self->error, "an output had no event");
      continue;
    }
    tflaccel_status status = tflaccel_tensor_event_wait(event);
    tflaccel_tensor_event_destroy(event);
    if (status != NULL) {
      snprintf(self->error, sizeof self->error, "%s", tflaccel_status_message(status));
      tflaccel_status_free(status);
      continue;
    }
    const tflaccel_tensor_buffer *expected = self->fixture->outputs[index];
    size_t size = tflaccel_tensor_buffer_byte_size(buffer);
    void *got = malloc(size ? size : 1);
    status = got != NULL ? tflaccel_tensor_buffer_read(buffer, got, size) : NULL;
    if (got == NULL || status != NULL) {
      snprintf(self->error, sizeof self->error, "reading output %u: %s", index,
               status != NULL ? tflaccel_status_message(status) : "out of memory");
      tflaccel_status_free(status);
      free(got);
      continue;
    }
    int differs = memcmp(got, tflaccel_tensor_buffer_data((tflaccel_tensor_buffer *)expected), size);
    free(got);
    if (differs != 0)
      snprintf(self->error, sizeof self->error, "output %u differs from the host run's", index);
    else
      ++self->checked;
  }
}

/* output_type: TFLACCEL_BUFFER_HOST, or the plugin's own buffers. */
static void run_threads(const char *plugin, const char *model, int32_t output_type) {
  device_fixture fixture;
  if (!device_fixture_open(&fixture, plugin, model)) return;
  static handoff queue;
  memset(&queue, 0, sizeof queue);
  ck_assert_int_eq(pthread_mutex_init(&queue.lock, NULL), 0);
  ck_assert_int_eq(pthread_cond_init(&queue.changed, NULL), 0);
  queue.expected = PRODUCERS * FRAMES * (int)fixture.output_count;
  static producer producers[PRODUCERS];
  memset(producers, 0, sizeof producers);
  for (int p = 0; p < PRODUCERS; ++p) {
    producers[p].fixture = &fixture;
    producers[p].queue = &queue;
    tflaccel_status status =
        tflaccel_compiled_model_create(fixture.environment, fixture.model, NULL, &producers[p].compiled);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    for (int f = 0; f < FRAMES; ++f)
      for (uint32_t o = 0; o < fixture.output_count; ++o)
        ck_assert_ptr_null(tflaccel_compiled_model_create_output_device_buffer(
            producers[p].compiled, o, output_type, &producers[p].outputs[f][o]));
  }
  waiter checker = {.fixture = &fixture, .queue = &queue};
  pthread_t waiter_thread, producer_threads[PRODUCERS];
  ck_assert_int_eq(pthread_create(&waiter_thread, NULL, wait_all, &checker), 0);
  for (int p = 0; p < PRODUCERS; ++p)
    ck_assert_int_eq(pthread_create(&producer_threads[p], NULL, produce, &producers[p]), 0);
  for (int p = 0; p < PRODUCERS; ++p) ck_assert_int_eq(pthread_join(producer_threads[p], NULL), 0);
  ck_assert_int_eq(pthread_join(waiter_thread, NULL), 0);
  for (int p = 0; p < PRODUCERS; ++p) {
    ck_assert_msg(producers[p].error[0] == '\0', "%s producer %d: %s", plugin, p, producers[p].error);
    /* Destroying a compiled model waits for its queued runs. */
    tflaccel_compiled_model_destroy(producers[p].compiled);
    for (int f = 0; f < FRAMES; ++f)
      for (uint32_t o = 0; o < fixture.output_count; ++o)
        tflaccel_tensor_buffer_destroy(producers[p].outputs[f][o]);
  }
  ck_assert_msg(checker.error[0] == '\0', "%s: %s", plugin, checker.error);
  ck_assert_int_eq(checker.checked, queue.expected);
  pthread_cond_destroy(&queue.changed);
  pthread_mutex_destroy(&queue.lock);
  printf("%s: %d threads x %d queued runs, events waited on another thread: %d %s outputs "
         "equal the host run's\n",
         plugin, PRODUCERS, FRAMES, checker.checked,
         output_type == TFLACCEL_BUFFER_HOST ? "host" : "device");
  device_fixture_close(&fixture);
}

START_TEST(async_runs_from_threads_waited_elsewhere) {
  run_threads(plugins[_i], "face_detection_short_range.tflite", TFLACCEL_BUFFER_HOST);
}
END_TEST

/* The GPU plugins' own output buffers: native events. */
START_TEST(device_events_waited_elsewhere) {
  static const int32_t types[] = {TFLACCEL_BUFFER_OPENCL, TFLACCEL_BUFFER_VULKAN, TFLACCEL_BUFFER_GL};
  run_threads(plugins[_i + 1], "hand_recrop.tflite", types[_i]);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("async_threads");
  TCase *tcase = tcase_create("async_threads");
  tcase_set_timeout(tcase, 600);
  tcase_add_loop_test(tcase, async_runs_from_threads_waited_elsewhere, 0, 4);
  tcase_add_loop_test(tcase, device_events_waited_elsewhere, 0, 3);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
