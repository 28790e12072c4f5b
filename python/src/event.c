/* _tflaccel.Event and runs on TensorBuffers: run_buffers (synchronous) and
 * run_async (LiteRT's RunAsync: queued, an Event per run), over tflaccel.h's
 * "Asynchronous runs and events". A run's Event keeps the run's buffers
 * alive until it is deallocated, and deallocating it first waits for the
 * run: the C API wants the buffers to outlive the run. An Event also
 * exports its native sync object (native()) and wraps the application's
 * (from_native), keeping the model whose device it belongs to alive. */
#include "binding.h"

#include <string.h>

typedef struct event_object {
  PyObject_HEAD
  tflaccel_tensor_event **events; /* count references, PyMem */
  uint32_t count;
  PyObject *keep;    /* the run's TensorBuffers (a tuple), or NULL */
  PyObject *outlive; /* what the C events need alive: models, a native object's owner */
  int wait_at_end;   /* a run's Event: deallocating it waits for the run */
} event_object;

/* tflaccel_native_event_type by value, as Event.native() and from_native()
 * name them. */
static const char *const native_type_names[TFLACCEL_NATIVE_EVENT_TYPE_COUNT] = {
    "none", "opencl", "gl_sync", "egl_sync", "vulkan_fence", "vulkan_semaphore", "sync_file",
    "opaque_fd"};

static const char *native_type_name(int32_t type) {
  return type >= 0 && type < TFLACCEL_NATIVE_EVENT_TYPE_COUNT ? native_type_names[type]
                                                              : "unknown";
}

/* The native event type named `name`; -1 with ValueError naming the known
 * names. "none" is taken only where allow_none is set (native(): the
 * device's own kind). */
static int32_t native_type_of(const char *name, int allow_none) {
  for (int32_t t = allow_none ? 0 : 1; t < TFLACCEL_NATIVE_EVENT_TYPE_COUNT; ++t)
    if (strcmp(name, native_type_names[t]) == 0) return t;
  char known[200] = "";
  for (int32_t t = 1; t < TFLACCEL_NATIVE_EVENT_TYPE_COUNT; ++t) {
    strncat(known, t > 1 ? "', '" : "'", sizeof known - strlen(known) - 1);
    strncat(known, native_type_names[t], sizeof known - strlen(known) - 1);
  }
  PyErr_Format(PyExc_ValueError, "native event type must be %s', not '%s'", known, name);
  return -1;
}

/* Waits for every event with the GIL released; the first failure's status
 * (the others freed), NULL when all were signalled by successful runs. */
static tflaccel_status wait_all(const event_object *self) {
  tflaccel_status first = NULL;
  Py_BEGIN_ALLOW_THREADS
  for (uint32_t i = 0; i < self->count; ++i) {
    tflaccel_status status = tflaccel_tensor_event_wait(self->events[i]);
    if (first == NULL) first = status;
    else tflaccel_status_free(status);
  }
  Py_END_ALLOW_THREADS
  return first;
}

static void event_dealloc(event_object *self) {
  if (self->events != NULL) {
    if (self->wait_at_end) tflaccel_status_free(wait_all(self)); /* buffers outlive the run */
    for (uint32_t i = 0; i < self->count; ++i) tflaccel_tensor_event_destroy(self->events[i]);
    PyMem_Free(self->events);
  }
  Py_CLEAR(self->keep);
  Py_CLEAR(self->outlive);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

PyObject *binding_event_new(tflaccel_tensor_event **events, uint32_t count, PyObject *keep,
                            PyObject *outlive, int wait_at_end) {
  event_object *made = PyObject_New(event_object, &binding_event_type);
  tflaccel_tensor_event **copy = made ? PyMem_Calloc(count ? count : 1, sizeof *copy) : NULL;
  if (copy == NULL) {
    /* Whatever `keep` holds may be released only once the events are. */
    if (wait_at_end) {
      Py_BEGIN_ALLOW_THREADS
      for (uint32_t i = 0; i < count; ++i)
        tflaccel_status_free(tflaccel_tensor_event_wait(events[i]));
      Py_END_ALLOW_THREADS
    }
    for (uint32_t i = 0; i < count; ++i) tflaccel_tensor_event_destroy(events[i]);
    if (made != NULL) {
      made->events = NULL;
      made->keep = NULL;
      made->outlive = NULL;
      Py_DECREF(made);
      PyErr_NoMemory();
    }
    return NULL;
  }
  for (uint32_t i = 0; i < count; ++i) copy[i] = events[i];
  made->events = copy;
  made->count = count;
  made->keep = Py_XNewRef(keep);
  made->outlive = Py_XNewRef(outlive);
  made->wait_at_end = wait_at_end;
  return (PyObject *)made;
}

tflaccel_tensor_event *binding_event_single(PyObject *object, const char *what,
                                            PyObject **outlive) {
  if (!PyObject_TypeCheck(object, &binding_event_type)) {
    PyErr_Format(PyExc_TypeError, "%s: expected a tflaccel Event, got %s", what,
                 Py_TYPE(object)->tp_name);
    return NULL;
  }
  const event_object *event = (const event_object *)object;
  if (event->count != 1) {
    PyErr_Format(PyExc_ValueError,
                 "%s: the Event stands for %u events (one per output of its run): "
                 "take one output buffer's event()",
                 what, event->count);
    return NULL;
  }
  if (outlive != NULL) *outlive = event->outlive;
  return event->events[0];
}

/* wait(): blocks until the run is done; raises tflaccel.Error with the
 * run's error when it failed. */
static PyObject *event_wait(event_object *self, PyObject *unused) {
  tflaccel_status status = wait_all(self);
  if (status != NULL) return binding_raise_status(status);
  Py_RETURN_NONE;
}

static PyObject *event_done(event_object *self, void *unused) {
  int done = 1;
  for (uint32_t i = 0; done && i < self->count; ++i)
    done = tflaccel_tensor_event_is_signaled(self->events[i]) == 1;
  return PyBool_FromLong(done);
}

/* native(type=None) -> (type name, handle, value): the device's sync object
 * that ends the event (tflaccel_tensor_event_get_native), e.g. ("opencl",
 * cl_event address, 0). It belongs to the event: valid while this Event
 * lives. Waits (the GIL released) until the run is queued on its device. */
static PyObject *event_native(event_object *self, PyObject *args, PyObject *kwargs) {
  static char *keywords[] = {"type", NULL};
  const char *type_name = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|z", keywords, &type_name)) return NULL;
  int32_t type = type_name ? native_type_of(type_name, 1) : TFLACCEL_NATIVE_EVENT_NONE;
  if (type < 0) return NULL;
  tflaccel_tensor_event *event = binding_event_single((PyObject *)self, "native", NULL);
  if (event == NULL) return NULL;
  tflaccel_native_event native = {.struct_size = sizeof native};
  tflaccel_status status;
  Py_BEGIN_ALLOW_THREADS
  status = tflaccel_tensor_event_get_native(event, type, &native);
  Py_END_ALLOW_THREADS
  if (status != NULL) return binding_raise_status(status);
  return Py_BuildValue("(sKK)", native_type_name(native.type), (unsigned long long)native.handle,
                       (unsigned long long)native.value);
}

/* The one accelerator a model runs on, for from_native without
 * accelerator=; NULL with ValueError when it runs on several. */
static const char *sole_accelerator(const compiled_model_object *model) {
  uint32_t count = tflaccel_compiled_model_partition_count(model->compiled);
  const char *found = NULL;
  for (uint32_t p = 0; p < count; ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_compiled_model_partition_info(model->compiled, p, &info);
    if (status != NULL) {
      binding_raise_status(status);
      return NULL;
    }
    if (found != NULL && strcmp(found, info.accelerator) != 0) {
      PyErr_Format(PyExc_ValueError,
                   "from_native: the model runs on %s and %s: name the accelerator whose "
                   "device the native object belongs to (accelerator=)",
                   found, info.accelerator);
      return NULL;
    }
    found = info.accelerator;
  }
  if (found == NULL)
    PyErr_SetString(PyExc_ValueError, "from_native: the model has no partition: name the "
                                      "accelerator (accelerator=)");
  return found;
}

/* Event.from_native(model, type, handle, value=0, accelerator=None,
 * keep=None): an Event ended by the application's native sync object on
 * the device of `accelerator` in model's environment
 * (tflaccel_tensor_event_create_from_native). The C event needs the model
 * (its environment must outlive the event) and `keep` (the object the
 * handle comes from, for types the library does not retain) alive: the
 * Event, and a buffer it is set on, hold them. */
static PyObject *event_from_native(PyObject *cls, PyObject *args, PyObject *kwargs) {
  static char *keywords[] = {"model", "type", "handle", "value", "accelerator", "keep", NULL};
  PyObject *model_object = NULL, *handle_object = NULL, *value_object = NULL, *keep = Py_None;
  const char *type_name = NULL, *accelerator = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OsO|OzO", keywords, &model_object, &type_name,
                                   &handle_object, &value_object, &accelerator, &keep))
    return NULL;
  compiled_model_object *model = binding_compiled_model_of(model_object, "from_native");
  if (model == NULL) return NULL;
  int32_t type = native_type_of(type_name, 0);
  tflaccel_native_event native = {.struct_size = sizeof native, .type = type};
  if (type < 0 || binding_parse_u64(handle_object, "handle", &native.handle) < 0) return NULL;
  if (value_object != NULL && binding_parse_u64(value_object, "value", &native.value) < 0)
    return NULL;
  if (accelerator == NULL && (accelerator = sole_accelerator(model)) == NULL) return NULL;
  tflaccel_tensor_event *event = NULL;
  tflaccel_status status;
  Py_BEGIN_ALLOW_THREADS
  PyThread_acquire_lock(model->lock, WAIT_LOCK);
  status = tflaccel_tensor_event_create_from_native(model->environment, accelerator, &native,
                                                    &event);
  PyThread_release_lock(model->lock);
  Py_END_ALLOW_THREADS
  if (status != NULL) return binding_raise_status(status);
  PyObject *kept = PyTuple_Pack(2, (PyObject *)model, keep);
  if (kept == NULL) {
    tflaccel_tensor_event_destroy(event);
    return NULL;
  }
  PyObject *made = binding_event_new(&event, 1, NULL, kept, 0);
  Py_DECREF(kept);
  return made;
}

static PyMethodDef event_methods[] = {
    {"wait", (PyCFunction)event_wait, METH_NOARGS,
     "Blocks until the run is done (the GIL released); raises tflaccel.Error if it failed."},
    {"native", (PyCFunction)(void (*)(void))event_native, METH_VARARGS | METH_KEYWORDS,
     "native(type=None) -> (type, handle, value): the device's sync object ending the event "
     "(type None: the device's own kind, e.g. 'opencl' and a cl_event's address), valid while "
     "this Event lives. tflaccel.Error (UNSUPPORTED) for an event ended on the CPU or a type "
     "the device lacks; ValueError for an Event of several outputs."},
    {"from_native", (PyCFunction)(void (*)(void))event_from_native,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "Event.from_native(model, type, handle, value=0, accelerator=None, keep=None) -> Event: "
     "the application's sync object ('opencl', 'gl_sync', 'egl_sync', 'vulkan_fence', "
     "'vulkan_semaphore', 'sync_file', 'opaque_fd') on the device of accelerator (default: the "
     "one the model runs on) in model's environment; set it on an input buffer "
     "(TensorBuffer.set_event) to gate a run_async. The object must stay valid while the Event "
     "lives (a cl_event is retained, a sync_file fd dup()ed); keep= holds a reference to its "
     "owner."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef event_getset[] = {
    {"done", (getter)event_done, NULL, "True once the run finished (never blocks).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject binding_event_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tflaccel._tflaccel.Event",
    .tp_basicsize = sizeof(event_object),
    .tp_dealloc = (destructor)event_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The completion of an asynchronous run (CompiledModel.run_async) or of the run "
              "writing a buffer (TensorBuffer.event), or an application's native sync object "
              "(Event.from_native). Deallocating a run's Event waits for the run.",
    .tp_methods = event_methods,
    .tp_getset = event_getset,
};

/* ---- Runs on TensorBuffers ---------------------------------------------- */

/* The C buffers of a sequence of `count` open TensorBuffers (PyMem; NULL
 * with an exception set); *kept: the sequence as a tuple, for the Event. */
static tflaccel_tensor_buffer **buffers_of(PyObject *sequence, uint32_t count, const char *what,
                                           PyObject **kept) {
  *kept = PySequence_Tuple(sequence);
  if (*kept == NULL) return NULL;
  if ((uint32_t)PyTuple_GET_SIZE(*kept) != count) {
    PyErr_Format(PyExc_ValueError, "the model has %u %ss, %zd buffers were given", count, what,
                 PyTuple_GET_SIZE(*kept));
    Py_CLEAR(*kept);
    return NULL;
  }
  tflaccel_tensor_buffer **buffers = PyMem_Calloc(count ? count : 1, sizeof *buffers);
  if (buffers == NULL) {
    Py_CLEAR(*kept);
    PyErr_NoMemory();
    return NULL;
  }
  for (uint32_t i = 0; i < count; ++i) {
    PyObject *item = PyTuple_GET_ITEM(*kept, i);
    if (!PyObject_TypeCheck(item, &binding_tensor_buffer_type)) {
      PyErr_Format(PyExc_TypeError, "%s %u: expected a tflaccel TensorBuffer, got %s", what, i,
                   Py_TYPE(item)->tp_name);
      break;
    }
    buffers[i] = ((tensor_buffer_object *)item)->buffer;
    if (buffers[i] == NULL) {
      PyErr_Format(PyExc_ValueError, "%s %u: the TensorBuffer is closed", what, i);
      break;
    }
  }
  if (PyErr_Occurred()) {
    PyMem_Free(buffers);
    Py_CLEAR(*kept);
    return NULL;
  }
  return buffers;
}

/* Runs (queue 0) or queues (queue 1) the model on the buffers; for a queued
 * run, the Event over its outputs' events. */
static PyObject *run_on_buffers(compiled_model_object *self, PyObject *args, PyObject *kwargs,
                                int queue) {
  static char *keywords[] = {"inputs", "outputs", NULL};
  PyObject *inputs_object = NULL, *outputs_object = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO", keywords, &inputs_object, &outputs_object))
    return NULL;
  if (self->compiled == NULL) {
    PyErr_SetString(PyExc_RuntimeError, "CompiledModel was not initialised");
    return NULL;
  }
  uint32_t input_count = tflaccel_compiled_model_input_count(self->compiled);
  uint32_t output_count = tflaccel_compiled_model_output_count(self->compiled);
  PyObject *inputs_kept = NULL, *outputs_kept = NULL, *result = NULL;
  tflaccel_tensor_event **events = NULL;
  tflaccel_tensor_buffer **inputs = buffers_of(inputs_object, input_count, "input", &inputs_kept);
  tflaccel_tensor_buffer **outputs =
      inputs ? buffers_of(outputs_object, output_count, "output", &outputs_kept) : NULL;
  if (outputs == NULL) goto done;
  PyObject *keep = NULL;
  if (queue) { /* made before the run is queued: nothing may fail after */
    events = PyMem_Calloc(output_count ? output_count : 1, sizeof *events);
    keep = PyTuple_Pack(2, inputs_kept, outputs_kept);
    if (events == NULL || keep == NULL) {
      Py_XDECREF(keep);
      if (!PyErr_Occurred()) PyErr_NoMemory();
      goto done;
    }
  }
  tflaccel_status status;
  Py_BEGIN_ALLOW_THREADS
  PyThread_acquire_lock(self->lock, WAIT_LOCK);
  status = queue ? tflaccel_compiled_model_run_async(self->compiled, inputs, input_count, outputs,
                                                     output_count)
                 : tflaccel_compiled_model_run(self->compiled, inputs, input_count, outputs,
                                               output_count);
  PyThread_release_lock(self->lock);
  Py_END_ALLOW_THREADS
  if (status != NULL) {
    Py_XDECREF(keep);
    binding_raise_status(status);
    goto done;
  }
  if (!queue) {
    Py_INCREF(Py_None);
    result = Py_None;
    goto done;
  }
  /* The Event: every output's event (each output gets one when queued),
   * and every buffer kept alive. */
  tflaccel_status missing = NULL;
  uint32_t found = 0;
  for (uint32_t i = 0; i < output_count; ++i) {
    tflaccel_status error = tflaccel_tensor_buffer_get_event(outputs[i], &events[found]);
    if (error == NULL && events[found] == NULL)
      error = tflaccel_status_make(TFLACCEL_INTERNAL, "output %u has no event after run_async", i);
    if (error == NULL) ++found;
    else if (missing == NULL) missing = error;
    else tflaccel_status_free(error);
  }
  result = binding_event_new(events, found, keep, (PyObject *)self, 1);
  Py_DECREF(keep);
  if (missing != NULL) {
    Py_CLEAR(result); /* waits for the run: the buffers outlive it */
    binding_raise_status(missing);
  }

done:
  PyMem_Free(events);
  PyMem_Free(inputs);
  PyMem_Free(outputs);
  Py_XDECREF(inputs_kept);
  Py_XDECREF(outputs_kept);
  return result;
}

PyObject *binding_run_buffers(compiled_model_object *self, PyObject *args, PyObject *kwargs) {
  return run_on_buffers(self, args, kwargs, 0);
}

PyObject *binding_run_async(compiled_model_object *self, PyObject *args, PyObject *kwargs) {
  return run_on_buffers(self, args, kwargs, 1);
}
