/* The application's own device memory as TensorBuffers: CompiledModel's
 * native_device() (the API objects an application makes compatible memory
 * with) and wrap_buffer() (tflaccel_compiled_model_wrap_*_buffer over a
 * cl_mem, GL buffer name, VkBuffer or fd another library made). Handles
 * are Python ints, as tflaccel.h stores them. */
#include "binding.h"

int binding_parse_u64(PyObject *object, const char *what, uint64_t *value) {
  if (!PyLong_Check(object)) {
    PyErr_Format(PyExc_TypeError, "%s must be an int, not %s", what, Py_TYPE(object)->tp_name);
    return -1;
  }
  int overflow = 0;
  long long signed_value = PyLong_AsLongLongAndOverflow(object, &overflow);
  if (signed_value == -1 && PyErr_Occurred()) return -1;
  if (overflow < 0 || (overflow == 0 && signed_value < 0)) {
    PyErr_Format(PyExc_ValueError, "%s must be 0 or more, not %R", what, object);
    return -1;
  }
  unsigned long long unsigned_value = PyLong_AsUnsignedLongLong(object);
  if (unsigned_value == (unsigned long long)-1 && PyErr_Occurred()) {
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError, "%s does not fit in 64 bits: %R", what, object);
    return -1;
  }
  *value = unsigned_value;
  return 0;
}

compiled_model_object *binding_compiled_model_of(PyObject *object, const char *what) {
  PyObject *native = NULL;
  if (!PyObject_TypeCheck(object, &binding_compiled_model_type)) {
    /* tflaccel.CompiledModel keeps the extension's object in _native. */
    native = PyObject_GetAttrString(object, "_native");
    if (native == NULL) PyErr_Clear();
    else Py_DECREF(native); /* borrowed: object holds it */
    if (native == NULL || !PyObject_TypeCheck(native, &binding_compiled_model_type)) {
      PyErr_Format(PyExc_TypeError, "%s: expected a tflaccel CompiledModel, got %s", what,
                   Py_TYPE(object)->tp_name);
      return NULL;
    }
    object = native;
  }
  compiled_model_object *model = (compiled_model_object *)object;
  if (model->compiled == NULL) {
    PyErr_Format(PyExc_RuntimeError, "%s: the CompiledModel was not initialised", what);
    return NULL;
  }
  return model;
}

static PyObject *pointer_value(const void *pointer) {
  return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)pointer);
}

/* native_device(index, is_output=False) -> {type, offset_alignment,
 * cl_platform, cl_device, cl_context, cl_queue, vk_instance,
 * vk_physical_device, vk_device, vk_queue_family, egl_display,
 * egl_context}: the objects of the accelerator reading input (writing
 * output) `index`, as ints (0 for other APIs'). */
PyObject *binding_native_device(compiled_model_object *self, PyObject *args, PyObject *kwargs) {
  static char *keywords[] = {"index", "is_output", NULL};
  unsigned int index = 0;
  int is_output = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "I|p", keywords, &index, &is_output)) return NULL;
  if (binding_compiled_model_of((PyObject *)self, "native_device") == NULL) return NULL;
  tflaccel_native_device device = {.struct_size = sizeof device};
  tflaccel_status status =
      tflaccel_compiled_model_native_device(self->compiled, is_output, index, &device);
  if (status != NULL) return binding_raise_status(status);
  const struct {
    const char *name;
    const void *pointer;
  } pointers[] = {
      {"cl_platform", device.cl_platform},   {"cl_device", device.cl_device},
      {"cl_context", device.cl_context},     {"cl_queue", device.cl_queue},
      {"vk_instance", device.vk_instance},   {"vk_physical_device", device.vk_physical_device},
      {"vk_device", device.vk_device},       {"egl_display", device.egl_display},
      {"egl_context", device.egl_context},
  };
  PyObject *result = Py_BuildValue("{s:s,s:K,s:I}", "type", binding_buffer_type_name(device.type),
                                   "offset_alignment",
                                   (unsigned long long)device.offset_alignment, "vk_queue_family",
                                   device.vk_queue_family);
  for (size_t i = 0; result != NULL && i < sizeof pointers / sizeof pointers[0]; ++i) {
    PyObject *value = pointer_value(pointers[i].pointer);
    if (value == NULL || PyDict_SetItemString(result, pointers[i].name, value) < 0) Py_CLEAR(result);
    Py_XDECREF(value);
  }
  return result;
}

/* wrap_buffer(index, type, handle, output=False, offset=0, size=None,
 * memory=0, keep=None) -> TensorBuffer over the application's native
 * buffer; size None: the tensor's byte size. The TensorBuffer holds the
 * model and `keep`; the native object itself must outlive it. */
PyObject *binding_wrap_buffer(compiled_model_object *self, PyObject *args, PyObject *kwargs) {
  static char *keywords[] = {"index", "type", "handle", "output", "offset",
                             "size",  "memory", "keep", NULL};
  unsigned int index = 0;
  const char *type_name = NULL;
  PyObject *handle = NULL, *offset = NULL, *size = Py_None, *memory = NULL, *keep = Py_None;
  int output = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "IsO|$pOOOO", keywords, &index, &type_name,
                                   &handle, &output, &offset, &size, &memory, &keep))
    return NULL;
  if (binding_compiled_model_of((PyObject *)self, "wrap_buffer") == NULL) return NULL;
  tflaccel_native_buffer native = {.struct_size = sizeof native};
  native.type = binding_wanted_type(self, output, index, type_name);
  if (native.type < 0 || binding_parse_u64(handle, "handle", &native.handle) < 0 ||
      (offset != NULL && binding_parse_u64(offset, "offset", &native.offset) < 0) ||
      (memory != NULL && binding_parse_u64(memory, "memory", &native.memory) < 0))
    return NULL;
  if (size != Py_None) {
    if (binding_parse_u64(size, "size", &native.size) < 0) return NULL;
  } else {
    tflaccel_buffer_requirements wanted = {.struct_size = sizeof wanted};
    tflaccel_status status =
        output ? tflaccel_compiled_model_output_buffer_requirements(self->compiled, index, &wanted)
               : tflaccel_compiled_model_input_buffer_requirements(self->compiled, index, &wanted);
    if (status != NULL) return binding_raise_status(status);
    native.size = wanted.size;
  }
  tensor_buffer_object *made = binding_tensor_buffer_new(self);
  if (made == NULL) return NULL;
  tflaccel_status status;
  Py_BEGIN_ALLOW_THREADS
  PyThread_acquire_lock(self->lock, WAIT_LOCK);
  status = output ? tflaccel_compiled_model_wrap_output_buffer(self->compiled, index, &native,
                                                               &made->buffer)
                  : tflaccel_compiled_model_wrap_input_buffer(self->compiled, index, &native,
                                                              &made->buffer);
  PyThread_release_lock(self->lock);
  Py_END_ALLOW_THREADS
  if (status != NULL) {
    Py_DECREF(made);
    return binding_raise_status(status);
  }
  if (keep != Py_None) made->wrapped = Py_NewRef(keep);
  return (PyObject *)made;
}
