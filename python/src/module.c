/* The module: tflaccel._tflaccel. */
#define TFLACCEL_BINDING_INIT_NUMPY
#include "binding.h"

static PyObject *version(PyObject *module, PyObject *unused) {
  return PyUnicode_FromString(tflaccel_version());
}

static PyMethodDef module_methods[] = {
    {"version", version, METH_NOARGS, "libtflaccel's version."},
    {"plugins", (PyCFunction)(void (*)(void))binding_plugins, METH_VARARGS | METH_KEYWORDS,
     "plugins(config=None, accelerator=None): every configured plugin and its status."},
    {"devices", (PyCFunction)(void (*)(void))binding_devices, METH_VARARGS | METH_KEYWORDS,
     "devices(config=None, accelerator=None): every device of the available plugins."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT, "_tflaccel", "libtflaccel's public C API for Python.", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__tflaccel(void);
PyMODINIT_FUNC PyInit__tflaccel(void) {
  import_array();
  if (PyType_Ready(&binding_compiled_model_type) < 0 ||
      PyType_Ready(&binding_tensor_buffer_type) < 0 || PyType_Ready(&binding_event_type) < 0)
    return NULL;
  PyObject *module = PyModule_Create(&module_definition);
  if (module == NULL) return NULL;
  if (binding_error_type == NULL) {
    /* A RuntimeError; also a ValueError, which is what tflite_runtime raises
     * for a missing or malformed model, so existing except clauses work. */
    PyObject *bases = PyTuple_Pack(2, PyExc_RuntimeError, PyExc_ValueError);
    if (bases == NULL) {
      Py_DECREF(module);
      return NULL;
    }
    binding_error_type = PyErr_NewExceptionWithDoc(
        "tflaccel.Error",
        "An error reported by libtflaccel; the message is its status message and `code` its "
        "status code name (INVALID_MODEL, NOT_FOUND, UNSUPPORTED, ...).",
        bases, NULL);
    Py_DECREF(bases);
    if (binding_error_type == NULL) {
      Py_DECREF(module);
      return NULL;
    }
  }
  if (PyModule_AddObjectRef(module, "Error", binding_error_type) < 0 ||
      PyModule_AddObjectRef(module, "CompiledModel", (PyObject *)&binding_compiled_model_type) < 0 ||
      PyModule_AddObjectRef(module, "TensorBuffer", (PyObject *)&binding_tensor_buffer_type) < 0 ||
      PyModule_AddObjectRef(module, "Event", (PyObject *)&binding_event_type) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
