/* _tflaccel.Event and runs on TensorBuffers: run_buffers (synchronous) and
 * run_async (LiteRT's RunAsync: queued, an Event per run), over tflaccel.h's
 * "Asynchronous runs and events". An Event keeps the run's buffers alive
 * until it is deallocated, and deallocating it first waits for the run:
 * the C API wants the buffers to outlive the run. */
#include "binding.h"

typedef struct event_object {
  PyObject_HEAD
  tflaccel_tensor_event **events; /* count references, PyMem */
  uint32_t count;
  PyObject *keep; /* the run's TensorBuffers (a tuple), or NULL */
} event_object;

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
    tflaccel_status_free(wait_all(self)); /* the buffers must outlive the run */
    for (uint32_t i = 0; i < self->count; ++i) tflaccel_tensor_event_destroy(self->events[i]);
    PyMem_Free(self->events);
  }
  Py_CLEAR(self->keep);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

PyObject *binding_event_new(tflaccel_tensor_event **events, uint32_t count, PyObject *keep) {
  event_object *made = PyObject_New(event_object, &binding_event_type);
  tflaccel_tensor_event **copy = made ? PyMem_Calloc(count ? count : 1, sizeof *copy) : NULL;
  if (copy == NULL) {
    /* Whatever `keep` holds may be released only once the events are. */
    Py_BEGIN_ALLOW_THREADS
    for (uint32_t i = 0; i < count; ++i) tflaccel_status_free(tflaccel_tensor_event_wait(events[i]));
    Py_END_ALLOW_THREADS
    for (uint32_t i = 0; i < count; ++i) tflaccel_tensor_event_destroy(events[i]);
    if (made != NULL) {
      made->events = NULL;
      made->keep = NULL;
      Py_DECREF(made);
      PyErr_NoMemory();
    }
    return NULL;
  }
  for (uint32_t i = 0; i < count; ++i) copy[i] = events[i];
  made->events = copy;
  made->count = count;
  Py_XINCREF(keep);
  made->keep = keep;
  return (PyObject *)made;
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

static PyMethodDef event_methods[] = {
    {"wait", (PyCFunction)event_wait, METH_NOARGS,
     "Blocks until the run is done (the GIL released); raises tflaccel.Error if it failed."},
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
              "writing a buffer (TensorBuffer.event). Deallocating it waits for the run.",
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
  result = binding_event_new(events, found, keep);
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
