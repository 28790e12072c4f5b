/* Device events shared by reference (device_event.h). The plugin's event
 * calls need not hold the device lock (accelerator.h, ABI 1.2): the
 * application waits while the queue's thread runs the next frame. */
#include "config.h"

#include <stdlib.h>

#include "core/runtime/device_event.h"

int device_has_events(const tflaccel_device *device) {
  const tflaccel_device_vtable *vtable = device->vtable;
  return TFLACCEL_HAS_FIELD(tflaccel_device_vtable, vtable, event_wrap) &&
         vtable->execute_after != NULL && vtable->event_wait != NULL &&
         vtable->event_query != NULL && vtable->event_destroy != NULL &&
         vtable->event_native != NULL && vtable->event_wrap != NULL;
}

device_event *device_event_new(plugin_entry *plugin, tflaccel_device *device,
                               tflaccel_event *event) {
  device_event *created = malloc(sizeof *created);
  if (created == NULL) {
    device->vtable->event_destroy(device, event);
    return NULL;
  }
  created->plugin = plugin;
  created->device = device;
  created->event = event;
  atomic_init(&created->references, 1u);
  return created;
}

device_event *device_event_retain(device_event *event) {
  if (event != NULL) atomic_fetch_add(&event->references, 1u);
  return event;
}

void device_event_release(device_event *event) {
  if (event == NULL || atomic_fetch_sub(&event->references, 1u) != 1u) return;
  event->device->vtable->event_destroy(event->device, event->event);
  free(event);
}

tflaccel_status device_event_wait(const device_event *event) {
  tflaccel_status status = event->device->vtable->event_wait(event->device, event->event);
  if (status != NULL) return tflaccel_status_annotate(status, "%s", event->plugin->config->name);
  return NULL;
}

int device_event_signalled(const device_event *event) {
  int32_t signalled = 0;
  tflaccel_status status =
      event->device->vtable->event_query(event->device, event->event, &signalled);
  if (status == NULL) return signalled != 0;
  tflaccel_status_free(status);
  return 1;
}
