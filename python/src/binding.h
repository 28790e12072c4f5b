/* tflaccel._tflaccel: the C extension under the tflaccel Python package. It
 * is a thin layer over the public C API (include/tflaccel/tflaccel.h): every
 * model is loaded, compiled and run by libtflaccel; this code only turns
 * numpy arrays into tensor buffers and statuses into exceptions. */
#ifndef TFLACCEL_PYTHON_BINDING_H
#define TFLACCEL_PYTHON_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#include <tflaccel/tflaccel.h>

/* Set by the module's init; every file uses numpy's C API through it. */
#define PY_ARRAY_UNIQUE_SYMBOL tflaccel_numpy_api
#ifndef TFLACCEL_BINDING_INIT_NUMPY
#define NO_IMPORT_ARRAY
#endif
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

/* tflaccel.Error (a RuntimeError subclass); owned by the module. */
extern PyObject *binding_error_type;

/* Raises tflaccel.Error with the status's message (its code name in the
 * exception's `code` attribute), frees the status and returns NULL. */
PyObject *binding_raise_status(tflaccel_status status);

/* numpy type number of a tflaccel dtype, -1 for types numpy cannot hold
 * (string, resource, variant, int4, bfloat16). */
int binding_numpy_type(int32_t dtype);

/* The dict tflite_runtime's get_input_details() gives for one tensor:
 * name, index, shape, shape_signature, dtype, quantization,
 * quantization_parameters, sparsity_parameters. */
PyObject *binding_tensor_details(const tflaccel_tensor_info *info, uint32_t tensor_index);

/* An environment for the given options (NULL: defaults), with the GIL
 * released while plugins load. NULL with an exception set on failure. */
tflaccel_environment *binding_environment_create(const char *config_path, const char *accelerators,
                                                 const char *log_level, const char *cache_dir);

/* The CompiledModel type: one environment, model and compiled model, and
 * a lock, since a compiled model takes calls from one thread at a time. */
typedef struct compiled_model_object {
  PyObject_HEAD
  tflaccel_environment *environment;
  tflaccel_model *model;
  tflaccel_compiled_model *compiled;
  PyThread_type_lock lock;
} compiled_model_object;
extern PyTypeObject binding_compiled_model_type;

/* ---- Device buffers and asynchronous runs (tensor_buffer.c, event.c) ---- */

/* TensorBuffer: a tensor buffer a CompiledModel made (host or device
 * memory), holding a reference to that model, whose environment the
 * buffer's device belongs to. */
typedef struct tensor_buffer_object {
  PyObject_HEAD
  tflaccel_tensor_buffer *buffer; /* NULL once closed */
  compiled_model_object *owner;
} tensor_buffer_object;
extern PyTypeObject binding_tensor_buffer_type;

/* Event: the completion of an asynchronous run (or of one buffer's writer). */
extern PyTypeObject binding_event_type;
/* A new Event over `count` events, whose references it takes over (also
 * on failure), keeping `keep` (the run's buffers, or NULL) alive until it
 * is deallocated, which first waits for the events. */
PyObject *binding_event_new(tflaccel_tensor_event **events, uint32_t count, PyObject *keep);

/* "host", "opencl", "gl", "vulkan", "dmabuf" (tflaccel_buffer_type). */
const char *binding_buffer_type_name(int32_t type);

/* CompiledModel's methods for them. */
PyObject *binding_buffer_requirements(compiled_model_object *self, PyObject *args, PyObject *kwargs);
PyObject *binding_create_buffer(compiled_model_object *self, PyObject *args, PyObject *kwargs);
PyObject *binding_run_buffers(compiled_model_object *self, PyObject *args, PyObject *kwargs);
PyObject *binding_run_async(compiled_model_object *self, PyObject *args, PyObject *kwargs);
PyObject *binding_last_run_stats(compiled_model_object *self, PyObject *unused);

/* Module functions: plugins() and devices(). */
PyObject *binding_plugins(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *binding_devices(PyObject *module, PyObject *args, PyObject *kwargs);

#endif
