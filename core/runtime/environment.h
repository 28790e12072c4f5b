/* The environment: configuration, plugin registry and the selected order. */
#ifndef TFLACCEL_CORE_RUNTIME_ENVIRONMENT_H
#define TFLACCEL_CORE_RUNTIME_ENVIRONMENT_H

#include "core/config/ini_config.h"
#include "core/registry/registry.h"
#include "core/registry/selection.h"
#include "tflaccel/tflaccel.h"

struct tflaccel_environment {
  tflaccel_config *config;
  plugin_registry *registry;
  accelerator_selection selection;
  int32_t log_level;
  int32_t explicit_selection; /* chosen by the API or env, not the config */
};

#endif
