#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry/auto_selection.h"

/* Lower ranks are preferred; PASSED_OVER entries are left out. */
enum { RANK_DISCRETE_GPU = 0, RANK_INTEGRATED_GPU, RANK_OTHER, RANK_CPU, PASSED_OVER };

static int is_gpu_plugin(const plugin_entry *entry) {
  return strncmp(entry->config->name, "gpu_", 4) == 0;
}

/* The rank of an available plugin's device, and the words for it. A plugin
 * built for an older ABI minor may leave type unset (0, CPU): for a GPU
 * plugin that reads as "on the CPU", which is the cautious answer. */
static int rank_device(const plugin_entry *entry, const tflaccel_device_info *info,
                       const char **why) {
  int gpu = is_gpu_plugin(entry);
  switch (info->type) {
    case TFLACCEL_DEVICE_DISCRETE_GPU:
      *why = "discrete GPU";
      return RANK_DISCRETE_GPU;
    case TFLACCEL_DEVICE_INTEGRATED_GPU:
      *why = "integrated GPU";
      return RANK_INTEGRATED_GPU;
    case TFLACCEL_DEVICE_VIRTUAL_GPU:
      *why = "software renderer on the CPU; the CPU plugins are faster on the same cores";
      return PASSED_OVER;
    case TFLACCEL_DEVICE_CPU:
      if (gpu) {
        *why = "a GPU API running on the CPU; the CPU plugins are faster on the same cores";
        return PASSED_OVER;
      }
      *why = "CPU";
      return RANK_CPU;
    default:
      *why = "accelerator of another kind";
      return RANK_OTHER;
  }
}

static void append(char **notes, size_t *used, size_t *capacity, const char *format,
                   const char *name, const char *detail, const char *why) {
  int needed = snprintf(NULL, 0, format, name, detail, why);
  if (needed < 0) return;
  if (*used + (size_t)needed + 1 > *capacity) {
    size_t grown = (*capacity + (size_t)needed + 1) * 2;
    char *bigger = realloc(*notes, grown);
    if (bigger == NULL) return;
    *notes = bigger;
    *capacity = grown;
  }
  snprintf(*notes + *used, *capacity - *used, format, name, detail, why);
  *used += (size_t)needed;
}

tflaccel_status auto_selection_rank(plugin_registry *registry, plugin_entry **order,
                                    uint32_t *count, char **notes_out) {
  *count = 0;
  *notes_out = NULL;
  int *ranks = calloc(registry->entry_count + 1, sizeof *ranks);
  size_t used = 0, capacity = 256;
  char *notes = malloc(capacity);
  if (ranks == NULL || notes == NULL) {
    free(ranks);
    free(notes);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "auto selection: out of memory");
  }
  notes[0] = '\0';
  for (uint32_t i = 0; i < registry->entry_count; ++i) {
    plugin_entry *entry = &registry->entries[i];
    const char *name = entry->config->name;
    ranks[i] = PASSED_OVER;
    if (!strcmp(name, "cpu_ref")) {
      append(&notes, &used, &capacity, "%s: last resort for every op%s%s\n", name, "", "");
      continue;
    }
    registry_load(registry, entry);
    if (entry->state != PLUGIN_AVAILABLE) {
      append(&notes, &used, &capacity, "%s: passed over: %s%s\n", name,
             entry->reason ? entry->reason : "unavailable", "");
      continue;
    }
    tflaccel_device_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    tflaccel_status status =
        entry->descriptor->device_info(entry->plugin_state, entry->device_index, &info);
    if (status != NULL) {
      append(&notes, &used, &capacity, "%s: passed over: device info failed: %s%s\n", name,
             tflaccel_status_message(status), "");
      tflaccel_status_free(status);
      continue;
    }
    const char *why = "";
    ranks[i] = rank_device(entry, &info, &why);
    append(&notes, &used, &capacity,
           ranks[i] == PASSED_OVER ? "%s: passed over: %s: %s\n" : "%s: chosen: %s: %s\n", name,
           info.name, why);
  }
  /* Stable by rank: the config's order breaks ties. */
  for (int rank = RANK_DISCRETE_GPU; rank < PASSED_OVER; ++rank)
    for (uint32_t i = 0; i < registry->entry_count; ++i)
      if (ranks[i] == rank) order[(*count)++] = &registry->entries[i];
  free(ranks);
  *notes_out = notes;
  return NULL;
}
