/* One tensor's details in the form tflite_runtime's Interpreter gives them. */
#include "binding.h"

#include <string.h>

/* A new 1-D numpy array of count values copied from data. */
static PyObject *vector_array(int type, const void *data, uint32_t count, size_t element_size) {
  npy_intp length = (npy_intp)count;
  PyObject *array = PyArray_SimpleNew(1, &length, type);
  if (array != NULL && count > 0)
    memcpy(PyArray_DATA((PyArrayObject *)array), data, element_size * count);
  return array;
}

/* Adds value (a new reference, NULL = failure) under key; 0 on success. */
static int put(PyObject *dict, const char *key, PyObject *value) {
  if (value == NULL) return -1;
  int result = PyDict_SetItemString(dict, key, value);
  Py_DECREF(value);
  return result;
}

static PyObject *dtype_object(int32_t dtype) {
  int type = binding_numpy_type(dtype);
  if (type < 0) Py_RETURN_NONE;
  return (PyObject *)PyArray_TypeObjectFromType(type);
}

static PyObject *quantization_parameters(const tflaccel_quantization *quantization) {
  PyObject *dict = PyDict_New();
  if (dict == NULL) return NULL;
  if (put(dict, "scales", vector_array(NPY_FLOAT32, quantization->scales, quantization->count,
                                       sizeof(float))) < 0 ||
      put(dict, "zero_points", vector_array(NPY_INT32, quantization->zero_points,
                                            quantization->count, sizeof(int32_t))) < 0 ||
      put(dict, "quantized_dimension", PyLong_FromLong(quantization->quantized_dimension)) < 0) {
    Py_DECREF(dict);
    return NULL;
  }
  return dict;
}

PyObject *binding_tensor_details(const tflaccel_tensor_info *info, uint32_t tensor_index) {
  PyObject *details = PyDict_New();
  if (details == NULL) return NULL;
  const tflaccel_quantization *quantization = &info->quantization;
  /* The legacy (scale, zero_point) pair holds per-tensor parameters only. */
  int per_tensor = quantization->count == 1;
  const int32_t *signature = info->shape_signature_rank ? info->shape_signature : info->shape;
  uint32_t signature_rank = info->shape_signature_rank ? info->shape_signature_rank : info->rank;
  if (put(details, "name", PyUnicode_FromString(info->name ? info->name : "")) < 0 ||
      put(details, "index", PyLong_FromUnsignedLong(tensor_index)) < 0 ||
      put(details, "shape", vector_array(NPY_INT32, info->shape, info->rank, sizeof(int32_t))) < 0 ||
      put(details, "shape_signature",
          vector_array(NPY_INT32, signature, signature_rank, sizeof(int32_t))) < 0 ||
      put(details, "dtype", dtype_object(info->dtype)) < 0 ||
      put(details, "quantization",
          Py_BuildValue("(di)", per_tensor ? (double)quantization->scales[0] : 0.0,
                        per_tensor ? (int)quantization->zero_points[0] : 0)) < 0 ||
      put(details, "quantization_parameters", quantization_parameters(quantization)) < 0 ||
      /* Sparse constants are densified at load; inputs and outputs are dense. */
      put(details, "sparsity_parameters", PyDict_New()) < 0) {
    Py_DECREF(details);
    return NULL;
  }
  return details;
}
