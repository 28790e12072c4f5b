/* tflaccel statuses as Python exceptions. */
#include "binding.h"

PyObject *binding_error_type = NULL;

PyObject *binding_raise_status(tflaccel_status status) {
  const char *message = tflaccel_status_message(status);
  const char *code = tflaccel_status_code_name(tflaccel_status_code_of(status));
  PyObject *error = PyObject_CallFunction(binding_error_type, "s", message);
  if (error != NULL) {
    PyObject *code_object = PyUnicode_FromString(code ? code : "UNKNOWN");
    if (code_object != NULL && PyObject_SetAttrString(error, "code", code_object) == 0)
      PyErr_SetObject(binding_error_type, error);
    Py_XDECREF(code_object);
    Py_DECREF(error);
  }
  tflaccel_status_free(status);
  return NULL;
}
