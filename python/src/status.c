/* tflaccel statuses as Python exceptions. */
#include "binding.h"

PyObject *binding_error_type = NULL;

/* "not found" -> "NOT_FOUND", the enum's name without TFLACCEL_. */
static void code_identifier(const char *name, char *out, size_t size) {
  size_t i = 0;
  for (; name != NULL && name[i] != '\0' && i + 1 < size; ++i)
    out[i] = name[i] == ' ' ? '_' : (char)((name[i] >= 'a' && name[i] <= 'z') ? name[i] - 32 : name[i]);
  out[i] = '\0';
}

PyObject *binding_raise_status(tflaccel_status status) {
  const char *message = tflaccel_status_message(status);
  char code[64];
  code_identifier(tflaccel_status_code_name(tflaccel_status_code_of(status)), code, sizeof code);
  PyObject *error = PyObject_CallFunction(binding_error_type, "s", message);
  if (error != NULL) {
    PyObject *code_object = PyUnicode_FromString(code[0] ? code : "UNKNOWN");
    if (code_object != NULL && PyObject_SetAttrString(error, "code", code_object) == 0)
      PyErr_SetObject(binding_error_type, error);
    Py_XDECREF(code_object);
    Py_DECREF(error);
  }
  tflaccel_status_free(status);
  return NULL;
}
