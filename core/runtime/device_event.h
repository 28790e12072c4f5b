/* An event of an accelerator's device (the ABI's tflaccel_event) shared by
 * reference count between tensor events and the run that made it: the
 * plugin's event is destroyed with the last reference. The device must
 * outlive it (its environment does). */
#ifndef TFLACCEL_CORE_RUNTIME_DEVICE_EVENT_H
#define TFLACCEL_CORE_RUNTIME_DEVICE_EVENT_H

#include <stdatomic.h>

#include "core/registry/registry.h"
#include "tflaccel/accelerator.h"

typedef struct device_event {
  plugin_entry *plugin;
  tflaccel_device *device;
  tflaccel_event *event;
  atomic_uint references;
} device_event;

/* 1 when the device takes the ABI 1.2 event calls (execute_after and the
 * event_* members). */
int device_has_events(const tflaccel_device *device);

/* Takes event (destroyed at once when out of memory: NULL). */
device_event *device_event_new(plugin_entry *plugin, tflaccel_device *device,
                               tflaccel_event *event);
device_event *device_event_retain(device_event *event);
void device_event_release(device_event *event);
/* Blocks until the device signals it; the error of the work otherwise. */
tflaccel_status device_event_wait(const device_event *event);
/* 1 signalled, 0 not yet; an error counts as signalled (waiting tells it). */
int device_event_signalled(const device_event *event);

#endif
