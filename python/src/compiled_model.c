/* _tflaccel.CompiledModel: one environment, model and compiled model, and a
 * lock, since a compiled model runs in one thread at a time. The GIL is
 * released while a model loads, compiles and runs. */
#include "binding.h"

#include <string.h>

static int parse_precision(PyObject *value, int32_t *precision) {
  if (value == Py_None) {
    *precision = -1;
    return 0;
  }
  const char *text = PyUnicode_Check(value) ? PyUnicode_AsUTF8(value) : NULL;
  if (text != NULL && !strcmp(text, "fp32")) *precision = TFLACCEL_PRECISION_FP32;
  else if (text != NULL && !strcmp(text, "fp16")) *precision = TFLACCEL_PRECISION_FP16;
  else {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_ValueError, "precision must be 'fp32' or 'fp16', not %R", value);
    return -1;
  }
  return 0;
}

static int compiled_model_init(compiled_model_object *self, PyObject *args, PyObject *kwargs) {
  static char *keywords[] = {"path", "content", "accelerator", "precision", "threads",
                             "cache_dir", "config", "log_level", "model_token",
                             "share_environment", NULL};
  const char *path = NULL, *accelerators = NULL, *cache_dir = NULL, *config_path = NULL,
             *log_level = NULL, *model_token = NULL;
  Py_buffer content = {0};
  PyObject *precision_object = Py_None, *share_object = Py_None;
  int threads = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|zz*zOizzzzO", keywords, &path, &content,
                                   &accelerators, &precision_object, &threads, &cache_dir,
                                   &config_path, &log_level, &model_token, &share_object))
    return -1;
  compiled_model_object *shared = NULL;
  int32_t precision;
  int failed = 0;
  if (self->lock != NULL) { /* __init__ called again, after success or failure */
    PyErr_SetString(PyExc_RuntimeError, "CompiledModel is already initialised");
    failed = 1;
  } else if ((path == NULL) == (content.buf == NULL)) {
    PyErr_SetString(PyExc_ValueError, "give exactly one of a model path or model content");
    failed = 1;
  } else if (threads < 0) {
    PyErr_Format(PyExc_ValueError, "threads must be 1 or more, not %d", threads);
    failed = 1;
  } else if (parse_precision(precision_object, &precision) < 0) {
    failed = 1;
  } else if (share_object != Py_None) {
    shared = binding_compiled_model_of(share_object, "share_environment");
    failed = shared == NULL;
    if (!failed && (accelerators || cache_dir || config_path || log_level)) {
      PyErr_SetString(PyExc_ValueError,
                      "share_environment: the accelerator, cache_dir, config and log_level are "
                      "the shared environment's; give none of them");
      failed = 1;
    }
  }
  if (!failed) {
    self->lock = PyThread_allocate_lock();
    if (self->lock == NULL) {
      PyErr_NoMemory();
      failed = 1;
    }
  }
  /* The model first: a bad file fails before any plugin is loaded. */
  if (!failed) {
    tflaccel_status status;
    Py_BEGIN_ALLOW_THREADS
    status = path != NULL ? tflaccel_model_load_file(path, &self->model)
                          : tflaccel_model_load_memory(content.buf, (size_t)content.len,
                                                       &self->model);
    Py_END_ALLOW_THREADS
    if (status != NULL) {
      binding_raise_status(status);
      failed = 1;
    }
  }
  if (!failed && shared != NULL) {
    self->environment = shared->environment;
    self->environment_owner = Py_NewRef((PyObject *)shared);
  } else if (!failed) {
    self->environment = binding_environment_create(config_path, accelerators, log_level, cache_dir);
    failed = self->environment == NULL;
  }
  if (!failed) {
    tflaccel_compilation_options options;
    tflaccel_compilation_options_init(&options);
    options.precision = precision;
    options.thread_count = threads;
    options.model_token = model_token; /* borrowed for the call, as the C API allows */
    tflaccel_status status;
    Py_BEGIN_ALLOW_THREADS
    status = tflaccel_compiled_model_create(self->environment, self->model, &options,
                                            &self->compiled);
    Py_END_ALLOW_THREADS
    if (status != NULL) {
      binding_raise_status(status);
      failed = 1;
    }
  }
  if (content.buf != NULL) PyBuffer_Release(&content);
  return failed ? -1 : 0;
}

static void compiled_model_dealloc(compiled_model_object *self) {
  tflaccel_compiled_model_destroy(self->compiled);
  tflaccel_model_destroy(self->model);
  if (self->environment_owner != NULL) Py_CLEAR(self->environment_owner);
  else tflaccel_environment_destroy(self->environment);
  if (self->lock != NULL) PyThread_free_lock(self->lock);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int check_ready(const compiled_model_object *self) {
  if (self->compiled != NULL) return 0;
  PyErr_SetString(PyExc_RuntimeError, "CompiledModel was not initialised");
  return -1;
}

/* ---- Introspection ------------------------------------------------------ */

static PyObject *details(compiled_model_object *self, int outputs) {
  if (check_ready(self) < 0) return NULL;
  uint32_t count = outputs ? tflaccel_compiled_model_output_count(self->compiled)
                           : tflaccel_compiled_model_input_count(self->compiled);
  PyObject *list = PyList_New(count);
  for (uint32_t i = 0; list != NULL && i < count; ++i) {
    tflaccel_tensor_info info = {.struct_size = sizeof info};
    uint32_t tensor = 0;
    tflaccel_status status =
        outputs ? tflaccel_compiled_model_output_info(self->compiled, i, &info)
                : tflaccel_compiled_model_input_info(self->compiled, i, &info);
    if (status == NULL)
      status = outputs ? tflaccel_model_output_tensor(self->model, i, &tensor)
                       : tflaccel_model_input_tensor(self->model, i, &tensor);
    PyObject *item = status ? binding_raise_status(status) : binding_tensor_details(&info, tensor);
    if (item == NULL) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, i, item);
  }
  return list;
}

static PyObject *input_details(compiled_model_object *self, PyObject *unused) {
  return details(self, 0);
}
static PyObject *output_details(compiled_model_object *self, PyObject *unused) {
  return details(self, 1);
}

/* Details of every tensor of subgraph 0, as stored (tflite_runtime's
 * get_tensor_details()). */
static PyObject *tensor_details(compiled_model_object *self, PyObject *unused) {
  if (check_ready(self) < 0) return NULL;
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  tflaccel_status status = tflaccel_model_get_summary(self->model, &summary);
  if (status != NULL) return binding_raise_status(status);
  PyObject *list = PyList_New(summary.tensor_count);
  for (uint32_t t = 0; list != NULL && t < summary.tensor_count; ++t) {
    tflaccel_tensor_info info = {.struct_size = sizeof info};
    status = tflaccel_model_tensor_info(self->model, t, &info);
    PyObject *item = status ? binding_raise_status(status) : binding_tensor_details(&info, t);
    if (item == NULL) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, t, item);
  }
  return list;
}

/* [(name, tensor_index), ...] of one side of signature `index`. */
static PyObject *signature_tensors(compiled_model_object *self, uint32_t index, int is_output,
                                   uint32_t count) {
  PyObject *list = PyList_New(count);
  for (uint32_t i = 0; list != NULL && i < count; ++i) {
    const char *name = NULL;
    uint32_t tensor = 0;
    tflaccel_status status =
        tflaccel_model_signature_tensor(self->model, index, is_output, i, &name, &tensor);
    PyObject *item = status ? binding_raise_status(status) : Py_BuildValue("(sI)", name, tensor);
    if (item == NULL) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, i, item);
  }
  return list;
}

static PyObject *signatures(compiled_model_object *self, PyObject *unused) {
  if (check_ready(self) < 0) return NULL;
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  tflaccel_status status = tflaccel_model_get_summary(self->model, &summary);
  if (status != NULL) return binding_raise_status(status);
  PyObject *list = PyList_New(summary.signature_count);
  for (uint32_t s = 0; list != NULL && s < summary.signature_count; ++s) {
    tflaccel_signature_info info = {.struct_size = sizeof info};
    status = tflaccel_model_signature_info(self->model, s, &info);
    PyObject *item = NULL;
    if (status != NULL) {
      binding_raise_status(status);
    } else {
      PyObject *inputs = signature_tensors(self, s, 0, info.input_count);
      PyObject *outputs = inputs ? signature_tensors(self, s, 1, info.output_count) : NULL;
      if (outputs != NULL)
        item = Py_BuildValue("{s:s,s:I,s:O,s:O}", "key", info.key, "subgraph",
                             info.subgraph_index, "inputs", inputs, "outputs", outputs);
      Py_XDECREF(inputs);
      Py_XDECREF(outputs);
    }
    if (item == NULL) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, s, item);
  }
  return list;
}

static PyObject *uint_list(const uint32_t *values, uint32_t count) {
  PyObject *list = PyList_New(count);
  for (uint32_t i = 0; list != NULL && i < count; ++i) {
    PyObject *item = PyLong_FromUnsignedLong(values[i]);
    if (item == NULL) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, i, item);
  }
  return list;
}

/* The op names (CONV_2D, or a custom op's code) of prepared-graph ops. */
static PyObject *op_names(compiled_model_object *self, const uint32_t *ops, uint32_t count) {
  PyObject *list = PyList_New(count);
  for (uint32_t i = 0; list != NULL && i < count; ++i) {
    uint32_t stored = 0;
    tflaccel_op_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_model_prepared_op_source(self->model, ops[i], &stored);
    if (status == NULL) status = tflaccel_model_op_info(self->model, stored, &info);
    PyObject *item = status ? binding_raise_status(status)
                            : PyUnicode_FromString(info.custom_code ? info.custom_code
                                                                    : info.name);
    if (item == NULL) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, i, item);
  }
  return list;
}

static PyObject *partitions(compiled_model_object *self, PyObject *unused) {
  if (check_ready(self) < 0) return NULL;
  uint32_t count = tflaccel_compiled_model_partition_count(self->compiled);
  PyObject *list = PyList_New(count);
  for (uint32_t p = 0; list != NULL && p < count; ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_compiled_model_partition_info(self->compiled, p, &info);
    PyObject *item = NULL;
    if (status != NULL) {
      binding_raise_status(status);
    } else {
      PyObject *ops = uint_list(info.ops, info.op_count);
      PyObject *names = ops ? op_names(self, info.ops, info.op_count) : NULL;
      PyObject *inputs = names ? uint_list(info.inputs, info.input_count) : NULL;
      PyObject *outputs = inputs ? uint_list(info.outputs, info.output_count) : NULL;
      if (outputs != NULL)
        item = Py_BuildValue("{s:s,s:O,s:O,s:O,s:O,s:K,s:s}", "accelerator", info.accelerator,
                             "ops", ops, "op_names", names, "inputs", inputs, "outputs", outputs,
                             "boundary_bytes", (unsigned long long)info.boundary_bytes,
                             "precision",
                             info.precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32");
      Py_XDECREF(ops);
      Py_XDECREF(names);
      Py_XDECREF(inputs);
      Py_XDECREF(outputs);
    }
    if (item == NULL) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, p, item);
  }
  return list;
}

static PyObject *settings(compiled_model_object *self, PyObject *unused) {
  if (check_ready(self) < 0) return NULL;
  int32_t precision = tflaccel_compiled_model_precision(self->compiled);
  const char *selection = tflaccel_environment_selection(self->environment);
  const char *config = tflaccel_environment_config_path(self->environment);
  return Py_BuildValue("{s:s,s:i,s:s,s:z}", "precision",
                       precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32", "threads",
                       (int)tflaccel_compiled_model_thread_count(self->compiled), "accelerator",
                       selection ? selection : "", "config", config);
}

/* ---- Running ------------------------------------------------------------ */

/* Describes input/output `index` for the checks below. */
typedef struct tensor_spec {
  int type; /* numpy type number */
  int ndim;
  npy_intp dims[NPY_MAXDIMS];
  const char *name;
} tensor_spec;

static int tensor_spec_of(compiled_model_object *self, int output, uint32_t index,
                          tensor_spec *spec) {
  tflaccel_tensor_info info = {.struct_size = sizeof info};
  tflaccel_status status = output ? tflaccel_compiled_model_output_info(self->compiled, index, &info)
                                  : tflaccel_compiled_model_input_info(self->compiled, index, &info);
  if (status != NULL) {
    binding_raise_status(status);
    return -1;
  }
  spec->type = binding_numpy_type(info.dtype);
  if (spec->type < 0 || info.rank > NPY_MAXDIMS) {
    PyErr_Format(binding_error_type, "%s %u (%s): dtype %s cannot be held in a numpy array",
                 output ? "output" : "input", index, info.name, tflaccel_dtype_name(info.dtype));
    return -1;
  }
  spec->ndim = (int)info.rank;
  for (uint32_t d = 0; d < info.rank; ++d) spec->dims[d] = info.shape[d];
  spec->name = info.name;
  return 0;
}

static PyObject *shape_text(int ndim, const npy_intp *dims) {
  PyObject *tuple = PyTuple_New(ndim);
  for (int d = 0; tuple != NULL && d < ndim; ++d) {
    PyObject *value = PyLong_FromSsize_t(dims[d]);
    if (value == NULL) {
      Py_CLEAR(tuple);
      break;
    }
    PyTuple_SET_ITEM(tuple, d, value);
  }
  return tuple;
}

/* Raises ValueError unless array has spec's dtype and shape exactly. */
static int check_array(PyArrayObject *array, const tensor_spec *spec, const char *what,
                       uint32_t index) {
  if (PyArray_TYPE(array) != spec->type) {
    PyArray_Descr *expected = PyArray_DescrFromType(spec->type);
    PyErr_Format(PyExc_ValueError, "%s %u (%s): got an array of dtype %S, the model wants %S",
                 what, index, spec->name, (PyObject *)PyArray_DESCR(array), (PyObject *)expected);
    Py_XDECREF(expected);
    return -1;
  }
  int same = PyArray_NDIM(array) == spec->ndim;
  for (int d = 0; same && d < spec->ndim; ++d) same = PyArray_DIM(array, d) == spec->dims[d];
  if (!same) {
    PyObject *got = shape_text(PyArray_NDIM(array), PyArray_DIMS(array));
    PyObject *want = got ? shape_text(spec->ndim, spec->dims) : NULL;
    if (want != NULL)
      PyErr_Format(PyExc_ValueError, "%s %u (%s): got an array of shape %S, the model wants %S",
                   what, index, spec->name, got, want);
    Py_XDECREF(got);
    Py_XDECREF(want);
    return -1;
  }
  return 0;
}

/* A buffer over the array's own bytes (no copy). */
static tflaccel_tensor_buffer *wrap_array(PyArrayObject *array, int32_t dtype) {
  int32_t shape[NPY_MAXDIMS];
  for (int d = 0; d < PyArray_NDIM(array); ++d) {
    if (PyArray_DIM(array, d) > INT32_MAX) {
      PyErr_SetString(PyExc_ValueError, "array dimension exceeds 2**31 - 1");
      return NULL;
    }
    shape[d] = (int32_t)PyArray_DIM(array, d);
  }
  tflaccel_tensor_buffer *buffer = NULL;
  tflaccel_status status = tflaccel_tensor_buffer_wrap_host(
      dtype, (uint32_t)PyArray_NDIM(array), shape, PyArray_DATA(array),
      (size_t)PyArray_NBYTES(array), &buffer);
  if (status != NULL) binding_raise_status(status);
  return buffer;
}

static int32_t tensor_dtype(compiled_model_object *self, int output, uint32_t index) {
  tflaccel_tensor_info info = {.struct_size = sizeof info};
  tflaccel_status status = output ? tflaccel_compiled_model_output_info(self->compiled, index, &info)
                                  : tflaccel_compiled_model_input_info(self->compiled, index, &info);
  tflaccel_status_free(status); /* tensor_spec_of succeeded on the same index */
  return info.dtype;
}

/* run(inputs, outputs=None): inputs a sequence of arrays, one per model
 * input, each of the input's dtype and shape; read in place when C-ordered
 * and aligned, else copied once. outputs, when given, are arrays written in
 * place (C-ordered, aligned, writeable); else new arrays are made. Returns
 * the list of output arrays. */
static PyObject *run(compiled_model_object *self, PyObject *args, PyObject *kwargs) {
  static char *keywords[] = {"inputs", "outputs", NULL};
  PyObject *inputs_object = NULL, *outputs_object = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O", keywords, &inputs_object,
                                   &outputs_object))
    return NULL;
  if (check_ready(self) < 0) return NULL;
  uint32_t input_count = tflaccel_compiled_model_input_count(self->compiled);
  uint32_t output_count = tflaccel_compiled_model_output_count(self->compiled);
  PyObject *inputs = PySequence_Fast(inputs_object, "inputs must be a sequence of arrays");
  if (inputs == NULL) return NULL;
  PyObject *outputs = outputs_object == Py_None
                          ? NULL
                          : PySequence_Fast(outputs_object, "outputs must be a sequence of arrays");
  PyObject *result = NULL;
  PyArrayObject **in_arrays = PyMem_Calloc(input_count + 1, sizeof *in_arrays);
  PyArrayObject **out_arrays = PyMem_Calloc(output_count + 1, sizeof *out_arrays);
  tflaccel_tensor_buffer **in_buffers = PyMem_Calloc(input_count + 1, sizeof *in_buffers);
  tflaccel_tensor_buffer **out_buffers = PyMem_Calloc(output_count + 1, sizeof *out_buffers);
  if (outputs_object != Py_None && outputs == NULL) goto done;
  if (!in_arrays || !out_arrays || !in_buffers || !out_buffers) {
    PyErr_NoMemory();
    goto done;
  }
  if ((uint32_t)PySequence_Fast_GET_SIZE(inputs) != input_count) {
    PyErr_Format(PyExc_ValueError, "the model has %u inputs, %zd arrays were given", input_count,
                 PySequence_Fast_GET_SIZE(inputs));
    goto done;
  }
  if (outputs != NULL && (uint32_t)PySequence_Fast_GET_SIZE(outputs) != output_count) {
    PyErr_Format(PyExc_ValueError, "the model has %u outputs, %zd arrays were given",
                 output_count, PySequence_Fast_GET_SIZE(outputs));
    goto done;
  }
  for (uint32_t i = 0; i < input_count; ++i) {
    tensor_spec spec;
    if (tensor_spec_of(self, 0, i, &spec) < 0) goto done;
    PyObject *item = PySequence_Fast_GET_ITEM(inputs, i);
    if (!PyArray_Check(item)) {
      PyErr_Format(PyExc_TypeError, "input %u (%s): expected a numpy array, got %s", i, spec.name,
                   Py_TYPE(item)->tp_name);
      goto done;
    }
    if (check_array((PyArrayObject *)item, &spec, "input", i) < 0) goto done;
    /* C-ordered, aligned arrays are used as they are; others copied once. */
    in_arrays[i] = (PyArrayObject *)PyArray_FromArray(
        (PyArrayObject *)item, NULL, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED);
    if (in_arrays[i] == NULL) goto done;
    in_buffers[i] = wrap_array(in_arrays[i], tensor_dtype(self, 0, i));
    if (in_buffers[i] == NULL) goto done;
  }
  for (uint32_t i = 0; i < output_count; ++i) {
    tensor_spec spec;
    if (tensor_spec_of(self, 1, i, &spec) < 0) goto done;
    if (outputs != NULL) {
      PyObject *item = PySequence_Fast_GET_ITEM(outputs, i);
      if (!PyArray_Check(item)) {
        PyErr_Format(PyExc_TypeError, "output %u (%s): expected a numpy array, got %s", i,
                     spec.name, Py_TYPE(item)->tp_name);
        goto done;
      }
      PyArrayObject *array = (PyArrayObject *)item;
      if (check_array(array, &spec, "output", i) < 0) goto done;
      if (!PyArray_ISCARRAY(array)) {
        PyErr_Format(PyExc_ValueError,
                     "output %u (%s): the array must be C-contiguous, aligned and writeable", i,
                     spec.name);
        goto done;
      }
      Py_INCREF(array);
      out_arrays[i] = array;
    } else {
      out_arrays[i] = (PyArrayObject *)PyArray_SimpleNew(spec.ndim, spec.dims, spec.type);
      if (out_arrays[i] == NULL) goto done;
    }
    out_buffers[i] = wrap_array(out_arrays[i], tensor_dtype(self, 1, i));
    if (out_buffers[i] == NULL) goto done;
  }

  tflaccel_status status;
  Py_BEGIN_ALLOW_THREADS
  PyThread_acquire_lock(self->lock, WAIT_LOCK);
  status = tflaccel_compiled_model_run(self->compiled, in_buffers, input_count, out_buffers,
                                       output_count);
  PyThread_release_lock(self->lock);
  Py_END_ALLOW_THREADS
  if (status != NULL) {
    binding_raise_status(status);
    goto done;
  }
  result = PyList_New(output_count);
  for (uint32_t i = 0; result != NULL && i < output_count; ++i) {
    Py_INCREF(out_arrays[i]);
    PyList_SET_ITEM(result, i, (PyObject *)out_arrays[i]);
  }

done:
  for (uint32_t i = 0; in_buffers && i < input_count; ++i)
    tflaccel_tensor_buffer_destroy(in_buffers[i]);
  for (uint32_t i = 0; out_buffers && i < output_count; ++i)
    tflaccel_tensor_buffer_destroy(out_buffers[i]);
  for (uint32_t i = 0; in_arrays && i < input_count; ++i) Py_XDECREF(in_arrays[i]);
  for (uint32_t i = 0; out_arrays && i < output_count; ++i) Py_XDECREF(out_arrays[i]);
  PyMem_Free(in_arrays);
  PyMem_Free(out_arrays);
  PyMem_Free(in_buffers);
  PyMem_Free(out_buffers);
  Py_DECREF(inputs);
  Py_XDECREF(outputs);
  return result;
}

static PyObject *reset_state(compiled_model_object *self, PyObject *unused) {
  if (check_ready(self) < 0) return NULL;
  tflaccel_status status;
  Py_BEGIN_ALLOW_THREADS
  PyThread_acquire_lock(self->lock, WAIT_LOCK);
  status = tflaccel_compiled_model_reset_state(self->compiled);
  PyThread_release_lock(self->lock);
  Py_END_ALLOW_THREADS
  if (status != NULL) return binding_raise_status(status);
  Py_RETURN_NONE;
}

static PyMethodDef compiled_model_methods[] = {
    {"input_details", (PyCFunction)input_details, METH_NOARGS,
     "Details of each input, as tflite_runtime's get_input_details() gives them."},
    {"output_details", (PyCFunction)output_details, METH_NOARGS,
     "Details of each output, as tflite_runtime's get_output_details() gives them."},
    {"tensor_details", (PyCFunction)tensor_details, METH_NOARGS,
     "Details of every tensor of the model (subgraph 0), as stored in the file."},
    {"signatures", (PyCFunction)signatures, METH_NOARGS,
     "The model's SignatureDefs: key, subgraph, inputs and outputs as (name, tensor index)."},
    {"partitions", (PyCFunction)partitions, METH_NOARGS,
     "The partition plan: per partition its accelerator, op indices and names, boundary "
     "tensors and bytes."},
    {"settings", (PyCFunction)settings, METH_NOARGS,
     "What the model was compiled with: precision, threads, accelerator selection, config file."},
    {"run", (PyCFunction)(void (*)(void))run, METH_VARARGS | METH_KEYWORDS,
     "run(inputs, outputs=None) -> list of output arrays."},
    {"reset_state", (PyCFunction)reset_state, METH_NOARGS,
     "Restores variable (state) tensors to their initial values."},
    /* Device buffers and asynchronous runs (tensor_buffer.c, event.c). */
    {"buffer_requirements", (PyCFunction)(void (*)(void))binding_buffer_requirements,
     METH_VARARGS | METH_KEYWORDS,
     "buffer_requirements(index, output=False) -> dict: the buffer types, size and alignment "
     "input/output index takes."},
    {"create_buffer", (PyCFunction)(void (*)(void))binding_create_buffer,
     METH_VARARGS | METH_KEYWORDS,
     "create_buffer(index, output=False, type='device') -> TensorBuffer."},
    {"run_buffers", (PyCFunction)(void (*)(void))binding_run_buffers, METH_VARARGS | METH_KEYWORDS,
     "run_buffers(inputs, outputs): runs on TensorBuffers and returns when the outputs are written."},
    {"run_async", (PyCFunction)(void (*)(void))binding_run_async, METH_VARARGS | METH_KEYWORDS,
     "run_async(inputs, outputs) -> Event: queues a run on TensorBuffers."},
    {"last_run_stats", (PyCFunction)binding_last_run_stats, METH_NOARGS,
     "{'host_copies', 'host_copy_bytes'} of the latest completed run."},
    /* The application's own device memory (native_buffers.c). */
    {"native_device", (PyCFunction)(void (*)(void))binding_native_device,
     METH_VARARGS | METH_KEYWORDS,
     "native_device(index, is_output=False) -> dict: the API objects (cl_context, vk_device, "
     "egl_context, ... as ints) of the accelerator reading input (writing output) index."},
    {"wrap_buffer", (PyCFunction)(void (*)(void))binding_wrap_buffer,
     METH_VARARGS | METH_KEYWORDS,
     "wrap_buffer(index, type, handle, *, output=False, offset=0, size=None, memory=0, "
     "keep=None) -> TensorBuffer over the application's native buffer (not copied; the object "
     "must outlive the TensorBuffer)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject binding_compiled_model_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tflaccel._tflaccel.CompiledModel",
    .tp_basicsize = sizeof(compiled_model_object),
    .tp_dealloc = (destructor)compiled_model_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A model loaded and compiled by libtflaccel (the low-level object under "
              "tflaccel.CompiledModel and tflaccel.Interpreter).",
    .tp_methods = compiled_model_methods,
    .tp_init = (initproc)compiled_model_init,
    .tp_new = PyType_GenericNew,
};
