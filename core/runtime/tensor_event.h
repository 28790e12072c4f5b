/* Events of tensor buffers (tflaccel_tensor_event): signalled once, by a
 * queued run or by the application; reference counted. */
#ifndef TFLACCEL_CORE_RUNTIME_TENSOR_EVENT_H
#define TFLACCEL_CORE_RUNTIME_TENSOR_EVENT_H

#include "tflaccel/tflaccel.h"

struct device_event; /* device_event.h */

/* A new unsignalled event with one reference, or NULL when out of memory. */
tflaccel_tensor_event *tensor_event_new(void);
/* Another reference to event (NULL stays NULL). */
tflaccel_tensor_event *tensor_event_retain(tflaccel_tensor_event *event);
/* Signals event with the outcome of what it stood for: status NULL for
 * success, else an error the event takes. A second signal is refused
 * (returns 0) and the status freed. */
int tensor_event_signal_with(tflaccel_tensor_event *event, tflaccel_status status);

/* Signals event as standing for on_device (a new reference), which ends
 * it: waiting on it then waits for the device. 0 when signalled already. */
int tensor_event_signal_on_device(tflaccel_tensor_event *event, struct device_event *on_device);
/* Blocks until event is signalled (its run queued, not finished): the
 * error it carries, else NULL with *on_device a new reference to the
 * device event that ends it (NULL: it has ended). */
tflaccel_status tensor_event_wait_queued(tflaccel_tensor_event *event,
                                         struct device_event **on_device);

/* The buffer's event, a new reference (NULL when none). */
tflaccel_tensor_event *tensor_buffer_event(const tflaccel_tensor_buffer *buffer);
/* Replaces the buffer's event by a reference to event (NULL removes it). */
void tensor_buffer_put_event(tflaccel_tensor_buffer *buffer, tflaccel_tensor_event *event);
/* Waits for the buffer's event, if any: NULL or the error it carried. */
tflaccel_status tensor_buffer_wait_event(const tflaccel_tensor_buffer *buffer);

#endif
