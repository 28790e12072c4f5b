/* Tensor events and native sync objects: exporting the device event that
 * ends a tensor event, and wrapping an application's object as a tensor
 * event (tflaccel.h, "Native events"). */
#include "config.h"

#include <stddef.h>

#include "core/runtime/device_event.h"
#include "core/runtime/environment.h"
#include "core/runtime/tensor_event.h"

tflaccel_status tflaccel_tensor_event_get_native(tflaccel_tensor_event *event, int32_t type,
                                                 tflaccel_native_event *native) {
  if (event == NULL || native == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "event_get_native: NULL argument");
  device_event *on_device = NULL;
  tflaccel_status status = tensor_event_wait_queued(event, &on_device);
  if (status != NULL) return tflaccel_status_annotate(status, "event_get_native");
  if (on_device == NULL)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                "event_get_native: the event has no native object (it was "
                                "signalled by the application or by a run that ended on the CPU)");
  *native = (tflaccel_native_event){.struct_size = sizeof *native};
  status = on_device->device->vtable->event_native(on_device->device, on_device->event, type,
                                                   native);
  device_event_release(on_device);
  return status;
}

tflaccel_status tflaccel_tensor_event_create_from_native(tflaccel_environment *environment,
                                                         const char *accelerator,
                                                         const tflaccel_native_event *native,
                                                         tflaccel_tensor_event **event) {
  if (event != NULL) *event = NULL;
  if (environment == NULL || accelerator == NULL || native == NULL || event == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "event_create_from_native: NULL argument");
  plugin_entry *entry = registry_find(environment->registry, accelerator);
  if (entry == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "event_create_from_native: no accelerator named '%s'", accelerator);
  registry_load(environment->registry, entry);
  if (entry->state != PLUGIN_AVAILABLE)
    return tflaccel_status_make(TFLACCEL_UNAVAILABLE,
                                "event_create_from_native: accelerator %s is unavailable: %s",
                                accelerator, entry->reason ? entry->reason : "unknown reason");
  tflaccel_device *device = NULL;
  tflaccel_status status = registry_device(entry, &device);
  if (status != NULL) return tflaccel_status_annotate(status, "event_create_from_native");
  if (!device_has_events(device))
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                "event_create_from_native: accelerator %s has no events",
                                accelerator);
  tflaccel_event *wrapped = NULL;
  registry_device_lock(entry);
  status = device->vtable->event_wrap(device, native, &wrapped);
  registry_device_unlock(entry);
  if (status != NULL) return status;
  device_event *on_device = device_event_new(entry, device, wrapped);
  tflaccel_tensor_event *created = on_device != NULL ? tensor_event_new() : NULL;
  if (created == NULL) {
    device_event_release(on_device);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "event_create_from_native: out of memory");
  }
  tensor_event_signal_on_device(created, on_device);
  device_event_release(on_device);
  *event = created;
  return NULL;
}
