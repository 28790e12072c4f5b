/* tflaccel_tensor_event: a mutex, a condition and the outcome, shared by
 * reference count between the application, its buffers and queued runs.
 * An event may stand for an event of a device (a run queued there, or the
 * application's native object): the core signal then says the work was
 * queued, and waiting goes on to the device's event. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/runtime/device_event.h"
#include "core/runtime/tensor_buffer.h"
#include "core/runtime/tensor_event.h"

struct tflaccel_tensor_event {
  pthread_mutex_t lock;
  pthread_cond_t signalled_cond;
  int signalled;
  tflaccel_status outcome; /* the error it was signalled with, else NULL */
  device_event *on_device; /* set (before the signal) when a device's event ends it */
  atomic_uint references;
};

tflaccel_tensor_event *tensor_event_new(void) {
  tflaccel_tensor_event *event = calloc(1, sizeof *event);
  if (event == NULL) return NULL;
  if (pthread_mutex_init(&event->lock, NULL) != 0) {
    free(event);
    return NULL;
  }
  if (pthread_cond_init(&event->signalled_cond, NULL) != 0) {
    pthread_mutex_destroy(&event->lock);
    free(event);
    return NULL;
  }
  atomic_init(&event->references, 1u);
  return event;
}

tflaccel_tensor_event *tensor_event_retain(tflaccel_tensor_event *event) {
  if (event != NULL) atomic_fetch_add(&event->references, 1u);
  return event;
}

int tensor_event_signal_with(tflaccel_tensor_event *event, tflaccel_status status) {
  pthread_mutex_lock(&event->lock);
  int first = !event->signalled;
  if (first) {
    event->signalled = 1;
    event->outcome = status;
    pthread_cond_broadcast(&event->signalled_cond);
  }
  pthread_mutex_unlock(&event->lock);
  if (!first) tflaccel_status_free(status);
  return first;
}

int tensor_event_signal_on_device(tflaccel_tensor_event *event, device_event *on_device) {
  pthread_mutex_lock(&event->lock);
  int first = !event->signalled;
  if (first) {
    event->signalled = 1;
    event->on_device = device_event_retain(on_device);
    pthread_cond_broadcast(&event->signalled_cond);
  }
  pthread_mutex_unlock(&event->lock);
  return first;
}

tflaccel_status tensor_event_wait_queued(tflaccel_tensor_event *event, device_event **on_device) {
  pthread_mutex_lock(&event->lock);
  while (!event->signalled) pthread_cond_wait(&event->signalled_cond, &event->lock);
  tflaccel_status result = NULL;
  if (event->outcome != NULL)
    result = tflaccel_status_make(tflaccel_status_code_of(event->outcome), "%s",
                                  tflaccel_status_message(event->outcome));
  *on_device = result == NULL ? device_event_retain(event->on_device) : NULL;
  pthread_mutex_unlock(&event->lock);
  return result;
}

tflaccel_status tflaccel_tensor_event_create(tflaccel_tensor_event **event) {
  if (event == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "event_create: NULL argument");
  *event = tensor_event_new();
  return *event != NULL ? NULL
                        : tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "event_create: out of memory");
}

tflaccel_status tflaccel_tensor_event_signal(tflaccel_tensor_event *event) {
  if (event == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "event_signal: NULL event");
  if (!tensor_event_signal_with(event, NULL))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "event_signal: the event was signalled already");
  return NULL;
}

tflaccel_status tflaccel_tensor_event_wait(tflaccel_tensor_event *event) {
  if (event == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "event_wait: NULL event");
  device_event *on_device = NULL;
  tflaccel_status result = tensor_event_wait_queued(event, &on_device);
  if (on_device != NULL) {
    result = device_event_wait(on_device);
    device_event_release(on_device);
  }
  return result;
}

int32_t tflaccel_tensor_event_is_signaled(const tflaccel_tensor_event *event) {
  if (event == NULL) return -1;
  tflaccel_tensor_event *mutable_event = (tflaccel_tensor_event *)event;
  pthread_mutex_lock(&mutable_event->lock);
  int32_t signalled = mutable_event->signalled;
  device_event *on_device = signalled ? device_event_retain(mutable_event->on_device) : NULL;
  pthread_mutex_unlock(&mutable_event->lock);
  if (on_device != NULL) {
    signalled = device_event_signalled(on_device);
    device_event_release(on_device);
  }
  return signalled;
}

void tflaccel_tensor_event_destroy(tflaccel_tensor_event *event) {
  if (event == NULL) return;
  if (atomic_fetch_sub(&event->references, 1u) != 1u) return;
  tflaccel_status_free(event->outcome);
  device_event_release(event->on_device);
  pthread_cond_destroy(&event->signalled_cond);
  pthread_mutex_destroy(&event->lock);
  free(event);
}

tflaccel_tensor_event *tensor_buffer_event(const tflaccel_tensor_buffer *buffer) {
  tflaccel_tensor_buffer *mutable_buffer = (tflaccel_tensor_buffer *)buffer;
  pthread_mutex_lock(&mutable_buffer->event_lock);
  tflaccel_tensor_event *event = tensor_event_retain(mutable_buffer->event);
  pthread_mutex_unlock(&mutable_buffer->event_lock);
  return event;
}

void tensor_buffer_put_event(tflaccel_tensor_buffer *buffer, tflaccel_tensor_event *event) {
  tensor_event_retain(event);
  pthread_mutex_lock(&buffer->event_lock);
  tflaccel_tensor_event *previous = buffer->event;
  buffer->event = event;
  pthread_mutex_unlock(&buffer->event_lock);
  tflaccel_tensor_event_destroy(previous);
}

tflaccel_status tensor_buffer_wait_event(const tflaccel_tensor_buffer *buffer) {
  tflaccel_tensor_event *event = tensor_buffer_event(buffer);
  if (event == NULL) return NULL;
  tflaccel_status status = tflaccel_tensor_event_wait(event);
  tflaccel_tensor_event_destroy(event);
  return status;
}

tflaccel_status tflaccel_tensor_buffer_set_event(tflaccel_tensor_buffer *buffer,
                                                 tflaccel_tensor_event *event) {
  if (buffer == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "set_event: NULL buffer");
  tensor_buffer_put_event(buffer, event);
  return NULL;
}

tflaccel_status tflaccel_tensor_buffer_get_event(const tflaccel_tensor_buffer *buffer,
                                                 tflaccel_tensor_event **event) {
  if (buffer == NULL || event == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "get_event: NULL argument");
  *event = tensor_buffer_event(buffer);
  return NULL;
}
