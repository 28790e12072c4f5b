/* Which accelerators to use, in what order: "gpu_vk,cpu_ref", or the
 * classes "gpu" (every gpu_* plugin, in config order) and "cpu", or "auto"
 * (ranked by device kind, core/registry/auto_selection.c). */
#ifndef TFLACCEL_CORE_REGISTRY_SELECTION_H
#define TFLACCEL_CORE_REGISTRY_SELECTION_H

#include "core/registry/registry.h"

typedef struct accelerator_selection {
  plugin_entry **entries; /* in preference order; cpu_ref always last */
  uint32_t count;
  char *text;             /* normalised "a,b,c" */
  char *notes;            /* "auto": why each plugin was chosen or passed over, else NULL */
} accelerator_selection;

/* origin names where the text came from, for messages ("TFLACCEL_ACCELERATOR",
 * "--accelerator", "tflaccel.ini:3"). Unknown names are errors. cpu_ref is
 * appended when absent, since it is always the fallback. */
tflaccel_status selection_parse(plugin_registry *registry, const char *text, const char *origin,
                                accelerator_selection *selection);
void selection_clear(accelerator_selection *selection);

#endif
