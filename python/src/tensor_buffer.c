/* _tflaccel.TensorBuffer and the CompiledModel methods that make buffers:
 * LiteRT's TensorBuffer over tflaccel's (tflaccel.h, "Device tensor
 * buffers"). A buffer's bytes may live in an accelerator's memory; numpy
 * arrays go in with write() and come out with read(), each one copy. */
#include "binding.h"

#include <string.h>

static const char *const type_names[TFLACCEL_BUFFER_TYPE_COUNT] = {
    "host", "opencl", "gl", "vulkan", "dmabuf", "opaque_fd"};

const char *binding_buffer_type_name(int32_t type) {
  return type >= 0 && type < TFLACCEL_BUFFER_TYPE_COUNT ? type_names[type] : "unknown";
}

int32_t binding_buffer_type_of(const char *name) {
  for (int32_t t = 0; t < TFLACCEL_BUFFER_TYPE_COUNT; ++t)
    if (strcmp(name, type_names[t]) == 0) return t;
  char known[160] = "";
  for (int32_t t = 0; t < TFLACCEL_BUFFER_TYPE_COUNT; ++t) {
    strncat(known, t ? "', '" : "'", sizeof known - strlen(known) - 1);
    strncat(known, type_names[t], sizeof known - strlen(known) - 1);
  }
  PyErr_Format(PyExc_ValueError, "type must be %s' or 'device', not '%s'", known, name);
  return -1;
}

tensor_buffer_object *binding_tensor_buffer_new(compiled_model_object *owner) {
  tensor_buffer_object *made = PyObject_New(tensor_buffer_object, &binding_tensor_buffer_type);
  if (made == NULL) return NULL;
  made->buffer = NULL;
  made->wrapped = NULL;
  made->event_outlive = NULL;
  Py_INCREF(owner);
  made->owner = owner;
  return made;
}

static int check_model(const compiled_model_object *model) {
  if (model->compiled != NULL) return 0;
  PyErr_SetString(PyExc_RuntimeError, "CompiledModel was not initialised");
  return -1;
}

/* The buffer of an open TensorBuffer; NULL with ValueError when closed. */
static tflaccel_tensor_buffer *open_buffer(const tensor_buffer_object *self) {
  if (self->buffer == NULL) PyErr_SetString(PyExc_ValueError, "the TensorBuffer is closed");
  return self->buffer;
}

/* Waits for the run that writes the buffer, if any, with the GIL released;
 * its error is ignored (the buffer is being destroyed). */
static void wait_for_writer(tflaccel_tensor_buffer *buffer) {
  tflaccel_tensor_event *event = NULL;
  tflaccel_status status = tflaccel_tensor_buffer_get_event(buffer, &event);
  tflaccel_status_free(status);
  if (event == NULL) return;
  Py_BEGIN_ALLOW_THREADS
  status = tflaccel_tensor_event_wait(event);
  Py_END_ALLOW_THREADS
  tflaccel_status_free(status);
  tflaccel_tensor_event_destroy(event);
}

/* The buffer first, then what it had to outlive: what the event set on it
 * needs and the object its wrapped memory comes from. */
static void close_buffer(tensor_buffer_object *self) {
  if (self->buffer != NULL) {
    wait_for_writer(self->buffer);
    tflaccel_tensor_buffer_destroy(self->buffer);
    self->buffer = NULL;
  }
  Py_CLEAR(self->event_outlive);
  Py_CLEAR(self->wrapped);
}

static void tensor_buffer_dealloc(tensor_buffer_object *self) {
  close_buffer(self);
  Py_CLEAR(self->owner); /* after the buffer: the model holds its device */
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *tensor_buffer_close(tensor_buffer_object *self, PyObject *unused) {
  close_buffer(self);
  Py_RETURN_NONE;
}

static PyObject *buffer_shape(const tflaccel_tensor_buffer *buffer) {
  uint32_t rank = tflaccel_tensor_buffer_rank(buffer);
  const int32_t *shape = tflaccel_tensor_buffer_shape(buffer);
  PyObject *tuple = PyTuple_New(rank);
  for (uint32_t d = 0; tuple != NULL && d < rank; ++d) {
    PyObject *value = PyLong_FromLong(shape[d]);
    if (value == NULL) {
      Py_CLEAR(tuple);
      break;
    }
    PyTuple_SET_ITEM(tuple, d, value);
  }
  return tuple;
}

/* numpy type number of the buffer's dtype; -1 with tflaccel.Error set. */
static int buffer_numpy_type(const tflaccel_tensor_buffer *buffer) {
  int32_t dtype = tflaccel_tensor_buffer_dtype(buffer);
  int type = binding_numpy_type(dtype);
  if (type < 0)
    PyErr_Format(binding_error_type, "dtype %s cannot be held in a numpy array",
                 tflaccel_dtype_name(dtype));
  return type;
}

static PyObject *get_type(tensor_buffer_object *self, void *unused) {
  tflaccel_tensor_buffer *buffer = open_buffer(self);
  return buffer ? PyUnicode_FromString(binding_buffer_type_name(tflaccel_tensor_buffer_type(buffer)))
                : NULL;
}

static PyObject *get_shape(tensor_buffer_object *self, void *unused) {
  tflaccel_tensor_buffer *buffer = open_buffer(self);
  return buffer ? buffer_shape(buffer) : NULL;
}

static PyObject *get_dtype(tensor_buffer_object *self, void *unused) {
  tflaccel_tensor_buffer *buffer = open_buffer(self);
  int type = buffer ? buffer_numpy_type(buffer) : -1;
  return type < 0 ? NULL : (PyObject *)PyArray_DescrFromType(type);
}

static PyObject *get_nbytes(tensor_buffer_object *self, void *unused) {
  tflaccel_tensor_buffer *buffer = open_buffer(self);
  return buffer ? PyLong_FromSize_t(tflaccel_tensor_buffer_byte_size(buffer)) : NULL;
}

static PyObject *get_closed(tensor_buffer_object *self, void *unused) {
  return PyBool_FromLong(self->buffer == NULL);
}

/* read() -> a new array of the buffer's dtype and shape: waits for the run
 * writing it, then copies its bytes (from the device for a device buffer). */
static PyObject *tensor_buffer_read(tensor_buffer_object *self, PyObject *unused) {
  tflaccel_tensor_buffer *buffer = open_buffer(self);
  int type = buffer ? buffer_numpy_type(buffer) : -1;
  if (type < 0) return NULL;
  uint32_t rank = tflaccel_tensor_buffer_rank(buffer);
  const int32_t *shape = tflaccel_tensor_buffer_shape(buffer);
  npy_intp dims[NPY_MAXDIMS];
  if (rank > NPY_MAXDIMS) return PyErr_Format(binding_error_type, "rank %u is beyond numpy's", rank);
  for (uint32_t d = 0; d < rank; ++d) dims[d] = shape[d];
  PyArrayObject *array = (PyArrayObject *)PyArray_SimpleNew((int)rank, dims, type);
  if (array == NULL) return NULL;
  tflaccel_status status;
  Py_BEGIN_ALLOW_THREADS
  PyThread_acquire_lock(self->owner->lock, WAIT_LOCK);
  status = tflaccel_tensor_buffer_read(buffer, PyArray_DATA(array), (size_t)PyArray_NBYTES(array));
  PyThread_release_lock(self->owner->lock);
  Py_END_ALLOW_THREADS
  if (status != NULL) {
    Py_DECREF(array);
    return binding_raise_status(status);
  }
  return (PyObject *)array;
}

/* write(array): the array's values into the buffer; its dtype and shape
 * must be the buffer's exactly (no conversion). */
static PyObject *tensor_buffer_write(tensor_buffer_object *self, PyObject *args) {
  PyObject *object = NULL;
  if (!PyArg_ParseTuple(args, "O", &object)) return NULL;
  tflaccel_tensor_buffer *buffer = open_buffer(self);
  int type = buffer ? buffer_numpy_type(buffer) : -1;
  if (type < 0) return NULL;
  if (!PyArray_Check(object))
    return PyErr_Format(PyExc_TypeError, "write: expected a numpy array, got %s",
                        Py_TYPE(object)->tp_name);
  PyArrayObject *given = (PyArrayObject *)object;
  uint32_t rank = tflaccel_tensor_buffer_rank(buffer);
  const int32_t *shape = tflaccel_tensor_buffer_shape(buffer);
  int same = PyArray_TYPE(given) == type && PyArray_NDIM(given) == (int)rank;
  for (uint32_t d = 0; same && d < rank; ++d) same = PyArray_DIM(given, (int)d) == shape[d];
  if (!same) {
    PyObject *want_shape = buffer_shape(buffer);
    PyArray_Descr *want_dtype = PyArray_DescrFromType(type);
    PyObject *got_shape = PyObject_GetAttrString(object, "shape");
    if (want_shape != NULL && want_dtype != NULL && got_shape != NULL)
      PyErr_Format(PyExc_ValueError,
                   "write: got an array of dtype %S and shape %S, the buffer holds %S of shape %S",
                   (PyObject *)PyArray_DESCR(given), got_shape, (PyObject *)want_dtype, want_shape);
    Py_XDECREF(want_shape);
    Py_XDECREF(want_dtype);
    Py_XDECREF(got_shape);
    return NULL;
  }
  PyArrayObject *array = (PyArrayObject *)PyArray_FromArray(
      given, NULL, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED);
  if (array == NULL) return NULL;
  tflaccel_status status;
  Py_BEGIN_ALLOW_THREADS
  PyThread_acquire_lock(self->owner->lock, WAIT_LOCK);
  status = tflaccel_tensor_buffer_write(buffer, PyArray_DATA(array), (size_t)PyArray_NBYTES(array));
  PyThread_release_lock(self->owner->lock);
  Py_END_ALLOW_THREADS
  Py_DECREF(array);
  if (status != NULL) return binding_raise_status(status);
  Py_RETURN_NONE;
}

/* native() -> {type, handle, memory, offset, size}: the API object under a
 * device buffer (a cl_mem's address, a GL buffer name, a VkBuffer and its
 * VkDeviceMemory), for interoperation; tflaccel.Error for a host buffer. */
static PyObject *tensor_buffer_native(tensor_buffer_object *self, PyObject *unused) {
  tflaccel_tensor_buffer *buffer = open_buffer(self);
  if (buffer == NULL) return NULL;
  tflaccel_native_buffer native = {.struct_size = sizeof native};
  tflaccel_status status = tflaccel_tensor_buffer_native(buffer, &native);
  if (status != NULL) return binding_raise_status(status);
  return Py_BuildValue("{s:s,s:K,s:K,s:K,s:K}", "type", binding_buffer_type_name(native.type),
                       "handle", (unsigned long long)native.handle, "memory",
                       (unsigned long long)native.memory, "offset",
                       (unsigned long long)native.offset, "size", (unsigned long long)native.size);
}

/* event() -> the buffer's Event (of the run that writes it, or set on it),
 * None when it has none. It keeps alive what either may need: the
 * buffer's model and what the event set on it needs. */
static PyObject *tensor_buffer_event(tensor_buffer_object *self, PyObject *unused) {
  tflaccel_tensor_buffer *buffer = open_buffer(self);
  if (buffer == NULL) return NULL;
  PyObject *outlive = PyTuple_Pack(2, (PyObject *)self->owner,
                                   self->event_outlive ? self->event_outlive : Py_None);
  if (outlive == NULL) return NULL;
  tflaccel_tensor_event *event = NULL;
  tflaccel_status status = tflaccel_tensor_buffer_get_event(buffer, &event);
  PyObject *result = NULL;
  if (status != NULL) binding_raise_status(status);
  else if (event == NULL) result = Py_NewRef(Py_None);
  else result = binding_event_new(&event, 1, NULL, outlive, 0);
  Py_DECREF(outlive);
  return result;
}

/* set_event(event): a queued run reading this (input) buffer waits for
 * `event` first, on the device when it is a native event of the device
 * that reads the buffer; None removes it. The buffer keeps what the event
 * needs alive (not the Event object itself). */
static PyObject *tensor_buffer_set_event(tensor_buffer_object *self, PyObject *args) {
  PyObject *object = NULL;
  if (!PyArg_ParseTuple(args, "O", &object)) return NULL;
  tflaccel_tensor_buffer *buffer = open_buffer(self);
  if (buffer == NULL) return NULL;
  tflaccel_tensor_event *event = NULL;
  PyObject *outlive = NULL;
  if (object != Py_None && (event = binding_event_single(object, "set_event", &outlive)) == NULL)
    return NULL;
  tflaccel_status status = tflaccel_tensor_buffer_set_event(buffer, event);
  if (status != NULL) return binding_raise_status(status);
  PyObject *previous = self->event_outlive;
  self->event_outlive = Py_XNewRef(outlive);
  Py_XDECREF(previous); /* after the buffer dropped its reference to its event */
  Py_RETURN_NONE;
}

static PyObject *tensor_buffer_enter(PyObject *self, PyObject *unused) {
  Py_INCREF(self);
  return self;
}

static PyObject *tensor_buffer_exit(tensor_buffer_object *self, PyObject *args) {
  close_buffer(self);
  Py_RETURN_FALSE;
}

static PyObject *tensor_buffer_repr(tensor_buffer_object *self) {
  if (self->buffer == NULL) return PyUnicode_FromString("<tflaccel.TensorBuffer closed>");
  PyObject *shape = buffer_shape(self->buffer);
  if (shape == NULL) return NULL;
  PyObject *text = PyUnicode_FromFormat(
      "<tflaccel.TensorBuffer %s %s %S>",
      binding_buffer_type_name(tflaccel_tensor_buffer_type(self->buffer)),
      tflaccel_dtype_name(tflaccel_tensor_buffer_dtype(self->buffer)), shape);
  Py_DECREF(shape);
  return text;
}

static PyMethodDef tensor_buffer_methods[] = {
    {"read", (PyCFunction)tensor_buffer_read, METH_NOARGS,
     "read() -> a new numpy array of the buffer's values (waits for the run writing it)."},
    {"write", (PyCFunction)tensor_buffer_write, METH_VARARGS,
     "write(array): copies the array (the buffer's dtype and shape) into the buffer."},
    {"native", (PyCFunction)tensor_buffer_native, METH_NOARGS,
     "native() -> {type, handle, memory, offset, size} of a device buffer's API object."},
    {"event", (PyCFunction)tensor_buffer_event, METH_NOARGS,
     "event() -> the Event of the run that writes this buffer (or the one set on it), or None."},
    {"set_event", (PyCFunction)tensor_buffer_set_event, METH_VARARGS,
     "set_event(event): a queued run reading this buffer waits for the Event first (on the "
     "device for a native event of the reading device); None removes it."},
    {"close", (PyCFunction)tensor_buffer_close, METH_NOARGS,
     "Frees the buffer now (after the run writing it); later calls raise ValueError."},
    {"__enter__", tensor_buffer_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)tensor_buffer_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef tensor_buffer_getset[] = {
    {"type", (getter)get_type, NULL,
     "Where the bytes live: 'host', 'opencl', 'gl', 'vulkan', 'dmabuf' or 'opaque_fd'.", NULL},
    {"shape", (getter)get_shape, NULL, "The tensor's shape (a tuple).", NULL},
    {"dtype", (getter)get_dtype, NULL, "The tensor's numpy dtype.", NULL},
    {"nbytes", (getter)get_nbytes, NULL, "Bytes of the tensor.", NULL},
    {"closed", (getter)get_closed, NULL, "True once close() was called.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject binding_tensor_buffer_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tflaccel._tflaccel.TensorBuffer",
    .tp_basicsize = sizeof(tensor_buffer_object),
    .tp_dealloc = (destructor)tensor_buffer_dealloc,
    .tp_repr = (reprfunc)tensor_buffer_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A tensor's buffer made by a CompiledModel, in host memory or an accelerator's "
              "(CompiledModel.create_input_buffer / create_output_buffer), or the "
              "application's own device memory wrapped (wrap_input_buffer / wrap_output_buffer).",
    .tp_methods = tensor_buffer_methods,
    .tp_getset = tensor_buffer_getset,
};

/* ---- CompiledModel's methods ------------------------------------------- */

static tflaccel_status requirements_of(const compiled_model_object *self, int output, uint32_t index,
                                       tflaccel_buffer_requirements *wanted) {
  wanted->struct_size = sizeof *wanted;
  return output ? tflaccel_compiled_model_output_buffer_requirements(self->compiled, index, wanted)
                : tflaccel_compiled_model_input_buffer_requirements(self->compiled, index, wanted);
}

PyObject *binding_buffer_requirements(compiled_model_object *self, PyObject *args, PyObject *kwargs) {
  static char *keywords[] = {"index", "output", NULL};
  unsigned int index = 0;
  int output = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "I|p", keywords, &index, &output)) return NULL;
  if (check_model(self) < 0) return NULL;
  tflaccel_buffer_requirements wanted;
  tflaccel_status status = requirements_of(self, output, index, &wanted);
  if (status != NULL) return binding_raise_status(status);
  PyObject *types = PyList_New(wanted.type_count);
  for (uint32_t t = 0; types != NULL && t < wanted.type_count; ++t) {
    PyObject *name = PyUnicode_FromString(binding_buffer_type_name(wanted.types[t]));
    if (name == NULL) {
      Py_CLEAR(types);
      break;
    }
    PyList_SET_ITEM(types, t, name);
  }
  if (types == NULL) return NULL;
  PyObject *result = Py_BuildValue("{s:O,s:K,s:K,s:z}", "types", types, "size",
                                   (unsigned long long)wanted.size, "alignment",
                                   (unsigned long long)wanted.alignment, "accelerator",
                                   wanted.accelerator);
  Py_DECREF(types);
  return result;
}

int32_t binding_wanted_type(const compiled_model_object *self, int output, uint32_t index,
                            const char *name) {
  if (strcmp(name, "device") != 0) return binding_buffer_type_of(name);
  tflaccel_buffer_requirements wanted;
  tflaccel_status status = requirements_of(self, output, index, &wanted);
  if (status != NULL) {
    binding_raise_status(status);
    return -1;
  }
  if (wanted.type_count >= 2) return wanted.types[1];
  tflaccel_tensor_info info = {.struct_size = sizeof info};
  status = output ? tflaccel_compiled_model_output_info(self->compiled, index, &info)
                  : tflaccel_compiled_model_input_info(self->compiled, index, &info);
  int found = status == NULL;
  tflaccel_status_free(status);
  binding_raise_status(tflaccel_status_make(
      TFLACCEL_UNSUPPORTED,
      "%s %u (%s) takes host buffers only (no accelerator's device alone %s it): "
      "ask for type='host'",
      output ? "output" : "input", index, found ? info.name : "?", output ? "writes" : "reads"));
  return -1;
}

PyObject *binding_create_buffer(compiled_model_object *self, PyObject *args, PyObject *kwargs) {
  static char *keywords[] = {"index", "output", "type", NULL};
  unsigned int index = 0;
  int output = 0;
  const char *type_name = "device";
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "I|ps", keywords, &index, &output, &type_name))
    return NULL;
  if (check_model(self) < 0) return NULL;
  int32_t type = binding_wanted_type(self, output, index, type_name);
  if (type < 0) return NULL;
  tensor_buffer_object *made = binding_tensor_buffer_new(self);
  if (made == NULL) return NULL;
  tflaccel_status status;
  Py_BEGIN_ALLOW_THREADS
  PyThread_acquire_lock(self->lock, WAIT_LOCK);
  status = output ? tflaccel_compiled_model_create_output_device_buffer(self->compiled, index, type,
                                                                        &made->buffer)
                  : tflaccel_compiled_model_create_input_device_buffer(self->compiled, index, type,
                                                                       &made->buffer);
  PyThread_release_lock(self->lock);
  Py_END_ALLOW_THREADS
  if (status != NULL) {
    Py_DECREF(made);
    return binding_raise_status(status);
  }
  return (PyObject *)made;
}

PyObject *binding_last_run_stats(compiled_model_object *self, PyObject *unused) {
  if (check_model(self) < 0) return NULL;
  tflaccel_run_stats stats = {.struct_size = sizeof stats};
  tflaccel_status status = tflaccel_compiled_model_last_run_stats(self->compiled, &stats);
  if (status != NULL) return binding_raise_status(status);
  return Py_BuildValue("{s:I,s:K}", "host_copies", stats.host_copies, "host_copy_bytes",
                       (unsigned long long)stats.host_copy_bytes);
}
