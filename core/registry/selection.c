#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry/auto_selection.h"
#include "core/registry/selection.h"

static int already_selected(const accelerator_selection *selection, const plugin_entry *entry) {
  for (uint32_t i = 0; i < selection->count; ++i)
    if (selection->entries[i] == entry) return 1;
  return 0;
}

static tflaccel_status add_entry(accelerator_selection *selection, plugin_entry *entry,
                                 uint32_t capacity) {
  if (already_selected(selection, entry)) return NULL;
  if (selection->count >= capacity)
    return tflaccel_status_make(TFLACCEL_INTERNAL, "selection overflow");
  selection->entries[selection->count++] = entry;
  return NULL;
}

static int has_prefix(const char *text, const char *prefix) {
  return strncmp(text, prefix, strlen(prefix)) == 0;
}

static tflaccel_status known_names(const plugin_registry *registry, char *buffer, size_t size) {
  size_t used = 0;
  buffer[0] = '\0';
  for (uint32_t i = 0; i < registry->entry_count && used < size; ++i) {
    int written = snprintf(buffer + used, size - used, "%s%s", i ? ", " : "",
                           registry->entries[i].config->name);
    if (written > 0) used += (size_t)written;
  }
  return NULL;
}

tflaccel_status selection_parse(plugin_registry *registry, const char *text, const char *origin,
                                accelerator_selection *selection) {
  memset(selection, 0, sizeof *selection);
  uint32_t capacity = registry->entry_count;
  if (capacity == 0)
    return tflaccel_status_make(TFLACCEL_INVALID_CONFIG, "no accelerator plugins are configured");
  selection->entries = calloc(capacity, sizeof *selection->entries);
  if (selection->entries == NULL)
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "selection: out of memory");
  tflaccel_status status = NULL;
  const char *cursor = text ? text : "";
  while (status == NULL && *cursor != '\0') {
    while (*cursor == ' ' || *cursor == '\t' || *cursor == ',') ++cursor;
    if (*cursor == '\0') break;
    char name[64];
    size_t length = 0;
    while (cursor[length] != '\0' && cursor[length] != ',' && cursor[length] != ' ' &&
           cursor[length] != '\t')
      ++length;
    if (length >= sizeof name) {
      status = tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s: accelerator name too long",
                                    origin);
      break;
    }
    memcpy(name, cursor, length);
    name[length] = '\0';
    cursor += length;
    if (!strcmp(name, "gpu") || !strcmp(name, "cpu")) {
      const char *prefix = name[0] == 'g' ? "gpu_" : "cpu_";
      for (uint32_t i = 0; i < registry->entry_count && status == NULL; ++i)
        if (has_prefix(registry->entries[i].config->name, prefix))
          status = add_entry(selection, &registry->entries[i], capacity);
      continue;
    }
    if (!strcmp(name, "auto")) {
      plugin_entry **order = calloc(capacity, sizeof *order);
      uint32_t count = 0;
      char *notes = NULL;
      status = order == NULL ? tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "selection: out of memory")
                             : auto_selection_rank(registry, order, &count, &notes);
      for (uint32_t i = 0; status == NULL && i < count; ++i)
        status = add_entry(selection, order[i], capacity);
      free(order);
      free(selection->notes);
      selection->notes = notes;
      continue;
    }
    plugin_entry *entry = registry_find(registry, name);
    if (entry == NULL) {
      char known[512];
      known_names(registry, known, sizeof known);
      status = tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                    "%s: unknown accelerator '%s' (known: %s, the classes gpu "
                                    "and cpu, or auto)",
                                    origin, name, known);
      break;
    }
    status = add_entry(selection, entry, capacity);
  }
  if (status == NULL) {
    plugin_entry *cpu_ref = registry_find(registry, "cpu_ref");
    if (cpu_ref == NULL)
      status = tflaccel_status_make(TFLACCEL_INVALID_CONFIG,
                                    "the configuration has no [plugin.cpu_ref] section; cpu_ref is "
                                    "the fallback every model needs");
    else
      status = add_entry(selection, cpu_ref, capacity);
  }
  if (status == NULL) {
    size_t size = 1;
    for (uint32_t i = 0; i < selection->count; ++i)
      size += strlen(selection->entries[i]->config->name) + 1;
    selection->text = malloc(size);
    if (selection->text == NULL) {
      status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "selection: out of memory");
    } else {
      selection->text[0] = '\0';
      for (uint32_t i = 0; i < selection->count; ++i) {
        if (i) strcat(selection->text, ",");
        strcat(selection->text, selection->entries[i]->config->name);
      }
    }
  }
  if (status != NULL) selection_clear(selection);
  return status;
}

void selection_clear(accelerator_selection *selection) {
  free(selection->entries);
  free(selection->text);
  free(selection->notes);
  memset(selection, 0, sizeof *selection);
}
