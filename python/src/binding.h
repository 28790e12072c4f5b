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
 * a lock, since a compiled model takes calls from one thread at a time.
 * A model made with share_environment= uses another model's environment
 * (so that each can use the other's device buffers and events) and holds a
 * reference to that model instead of destroying the environment itself. */
typedef struct compiled_model_object {
  PyObject_HEAD
  tflaccel_environment *environment;
  tflaccel_model *model;
  tflaccel_compiled_model *compiled;
  PyThread_type_lock lock;
  PyObject *environment_owner; /* the model whose environment this is, or NULL */
} compiled_model_object;
extern PyTypeObject binding_compiled_model_type;

/* ---- Device buffers and asynchronous runs (tensor_buffer.c, event.c) ---- */

/* TensorBuffer: a tensor buffer a CompiledModel made or wrapped (host or
 * device memory), holding a reference to that model, whose environment the
 * buffer's device belongs to; to the object a wrapped buffer's native
 * memory comes from, when the caller names it; and to what the C event
 * set on it needs alive (the Event's `outlive`: models and native
 * objects' owners, never buffers, so no reference cycle forms). */
typedef struct tensor_buffer_object {
  PyObject_HEAD
  tflaccel_tensor_buffer *buffer; /* NULL once closed */
  compiled_model_object *owner;
  PyObject *wrapped;       /* wrap_buffer's keep=, or NULL */
  PyObject *event_outlive; /* the outlive of set_event's Event, or NULL */
} tensor_buffer_object;
extern PyTypeObject binding_tensor_buffer_type;

/* Event: the completion of an asynchronous run (or of one buffer's writer),
 * or an application's native sync object (Event.from_native). */
extern PyTypeObject binding_event_type;
/* A new Event over `count` events, whose references it takes over (also
 * on failure), keeping `keep` (the run's buffers, or NULL) and `outlive`
 * (what the C events need alive: the models whose environments made them,
 * the owner of a wrapped native object; NULL for none) alive until it is
 * deallocated, which first waits for the events when wait_at_end is set
 * (a run's buffers must outlive the run). */
PyObject *binding_event_new(tflaccel_tensor_event **events, uint32_t count, PyObject *keep,
                            PyObject *outlive, int wait_at_end);
/* The one C event of an Event (borrowed), and when `outlive` is not NULL
 * what it needs alive (borrowed, may be NULL); NULL with an exception set
 * when `object` is no Event or stands for several (a run with several
 * outputs). */
tflaccel_tensor_event *binding_event_single(PyObject *object, const char *what,
                                            PyObject **outlive);

/* "host", "opencl", "gl", "vulkan", "dmabuf", "opaque_fd"
 * (tflaccel_buffer_type), "unknown" for others. */
const char *binding_buffer_type_name(int32_t type);
/* The tflaccel_buffer_type named `name`; -1 with ValueError (naming the
 * known names) for an unknown name. */
int32_t binding_buffer_type_of(const char *name);
/* `object` (a Python int) as an unsigned 64-bit value; -1 with ValueError
 * (naming `what`) when it is negative or too large, TypeError when it is
 * no integer. */
int binding_parse_u64(PyObject *object, const char *what, uint64_t *value);
/* The compiled_model_object `object` is, or the one a tflaccel.CompiledModel
 * wraps (its _native); NULL with TypeError otherwise (borrowed). */
compiled_model_object *binding_compiled_model_of(PyObject *object, const char *what);

/* CompiledModel's methods for them. */
PyObject *binding_buffer_requirements(compiled_model_object *self, PyObject *args, PyObject *kwargs);
PyObject *binding_create_buffer(compiled_model_object *self, PyObject *args, PyObject *kwargs);
PyObject *binding_run_buffers(compiled_model_object *self, PyObject *args, PyObject *kwargs);
PyObject *binding_run_async(compiled_model_object *self, PyObject *args, PyObject *kwargs);
PyObject *binding_last_run_stats(compiled_model_object *self, PyObject *unused);
/* Wrapping the application's own buffers (native_buffers.c). */
PyObject *binding_native_device(compiled_model_object *self, PyObject *args, PyObject *kwargs);
PyObject *binding_wrap_buffer(compiled_model_object *self, PyObject *args, PyObject *kwargs);
/* The buffer type `name` asks for: "device" is the native type in the
 * requirements (an UNSUPPORTED tflaccel.Error when the tensor takes host
 * buffers only, as the CLI's --io=device). -1 with an exception set. */
int32_t binding_wanted_type(const compiled_model_object *self, int output, uint32_t index,
                            const char *name);
/* A new TensorBuffer object of `owner` over nothing yet (buffer NULL). */
tensor_buffer_object *binding_tensor_buffer_new(compiled_model_object *owner);

/* Module functions: plugins() and devices(). */
PyObject *binding_plugins(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *binding_devices(PyObject *module, PyObject *args, PyObject *kwargs);

#endif
