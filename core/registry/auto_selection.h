/* accelerators = auto: which plugins to use, ranked from the kind of device
 * each reports, and why each was taken or passed over. */
#ifndef TFLACCEL_CORE_REGISTRY_AUTO_SELECTION_H
#define TFLACCEL_CORE_REGISTRY_AUTO_SELECTION_H

#include "core/registry/registry.h"

/* Loads every enabled plugin except cpu_ref (the caller appends it last) and
 * writes the chosen ones to order (registry->entry_count entries), best
 * first: discrete GPUs, integrated GPUs, other accelerators, then CPU
 * plugins such as cpu_xnnpack. Passed over: unavailable plugins and GPU
 * plugins whose device is a software renderer or a CPU (llvmpipe, lavapipe,
 * PoCL), which are slower than the CPU plugins on the same cores. *notes
 * (malloc'ed) says why, one line per plugin. */
tflaccel_status auto_selection_rank(plugin_registry *registry, plugin_entry **order,
                                    uint32_t *count, char **notes);

#endif
