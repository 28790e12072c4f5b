/* Environments (config + plugins) and the module's plugins() / devices(). */
#include "binding.h"

tflaccel_environment *binding_environment_create(const char *config_path, const char *accelerators,
                                                 const char *log_level, const char *cache_dir) {
  tflaccel_environment_options options = {
      .struct_size = sizeof options,
      .config_path = config_path,
      .accelerators = accelerators,
      .log_level = log_level,
      .cache_dir = cache_dir,
  };
  tflaccel_environment *environment = NULL;
  tflaccel_status status;
  Py_BEGIN_ALLOW_THREADS
  status = tflaccel_environment_create(&options, &environment);
  Py_END_ALLOW_THREADS
  if (status != NULL) {
    binding_raise_status(status);
    return NULL;
  }
  return environment;
}

static PyObject *plugin_dict(const tflaccel_plugin_info *info) {
  return Py_BuildValue(
      "{s:s,s:s,s:s,s:s,s:I,s:O,s:O,s:z,s:I,s:i}", "name", info->name, "library_path",
      info->library_path ? info->library_path : "", "version", info->version ? info->version : "",
      "description", info->description ? info->description : "", "abi_version", info->abi_version,
      "enabled", info->enabled ? Py_True : Py_False, "available",
      info->available ? Py_True : Py_False, "reason", info->reason, "device_count",
      info->device_count, "selection_rank", info->selection_rank);
}

static const char *device_type_name(int32_t type) {
  switch (type) {
    case TFLACCEL_DEVICE_CPU: return "cpu";
    case TFLACCEL_DEVICE_INTEGRATED_GPU: return "integrated_gpu";
    case TFLACCEL_DEVICE_DISCRETE_GPU: return "discrete_gpu";
    case TFLACCEL_DEVICE_VIRTUAL_GPU: return "virtual_gpu";
    default: return "other";
  }
}

static PyObject *device_dict(const char *plugin, uint32_t index, const tflaccel_device_info *info) {
  return Py_BuildValue(
      "{s:s,s:I,s:s,s:s,s:s,s:s,s:s,s:O,s:O,s:K}", "plugin", plugin, "index", index, "name",
      info->name, "vendor", info->vendor, "driver_version", info->driver_version, "api_version",
      info->api_version, "type", device_type_name(info->type), "fp16_storage",
      (info->caps & TFLACCEL_DEVICE_CAP_FP16_STORAGE) ? Py_True : Py_False, "fp16_arithmetic",
      (info->caps & TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC) ? Py_True : Py_False, "memory_bytes",
      (unsigned long long)info->memory_bytes);
}

/* Calls back for every plugin (and, when devices is set, every device of
 * the available ones), appending what it returns to a new list. */
static PyObject *list_plugins(PyObject *args, PyObject *kwargs, int devices) {
  static char *keywords[] = {"config", "accelerator", NULL};
  const char *config_path = NULL, *accelerators = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|zz", keywords, &config_path, &accelerators))
    return NULL;
  tflaccel_environment *environment =
      binding_environment_create(config_path, accelerators, "error", NULL);
  if (environment == NULL) return NULL;
  PyObject *list = PyList_New(0);
  uint32_t count = tflaccel_environment_plugin_count(environment);
  for (uint32_t p = 0; list != NULL && p < count; ++p) {
    tflaccel_plugin_info info = {.struct_size = sizeof info};
    tflaccel_status status;
    Py_BEGIN_ALLOW_THREADS
    status = tflaccel_environment_plugin_info(environment, p, &info);
    Py_END_ALLOW_THREADS
    if (status != NULL) {
      binding_raise_status(status);
      Py_CLEAR(list);
      break;
    }
    if (!devices) {
      PyObject *item = plugin_dict(&info);
      if (item == NULL || PyList_Append(list, item) < 0) Py_CLEAR(list);
      Py_XDECREF(item);
      continue;
    }
    for (uint32_t d = 0; list != NULL && info.available && d < info.device_count; ++d) {
      tflaccel_device_info device = {.struct_size = sizeof device};
      status = tflaccel_environment_device_info(environment, p, d, &device);
      if (status != NULL) {
        binding_raise_status(status);
        Py_CLEAR(list);
        break;
      }
      PyObject *item = device_dict(info.name, d, &device);
      if (item == NULL || PyList_Append(list, item) < 0) Py_CLEAR(list);
      Py_XDECREF(item);
    }
  }
  tflaccel_environment_destroy(environment);
  return list;
}

PyObject *binding_plugins(PyObject *module, PyObject *args, PyObject *kwargs) {
  return list_plugins(args, kwargs, 0);
}

PyObject *binding_devices(PyObject *module, PyObject *args, PyObject *kwargs) {
  return list_plugins(args, kwargs, 1);
}
