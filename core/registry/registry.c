/* Plugin discovery and loading, with the Khronos loaders' habits: every
 * failure becomes a reason shown to the user, never a crash or a silent
 * skip, and a plugin that initialised is never dlclose()d. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log/log.h"
#include "core/registry/registry.h"
#include "core/util/env.h"

static char *format_string(const char *format, ...) __attribute__((format(printf, 1, 2)));
static char *format_string(const char *format, ...) {
  va_list args;
  va_start(args, format);
  int length = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (length < 0) return NULL;
  char *text = malloc((size_t)length + 1);
  if (text == NULL) return NULL;
  va_start(args, format);
  vsnprintf(text, (size_t)length + 1, format, args);
  va_end(args);
  return text;
}

static tflaccel_status add_search_dir(plugin_registry *registry, const char *directory,
                                      size_t length) {
  if (length == 0) return NULL;
  for (uint32_t i = 0; i < registry->search_dir_count; ++i)
    if (strlen(registry->search_dirs[i]) == length &&
        !strncmp(registry->search_dirs[i], directory, length))
      return NULL;
  char **grown = realloc(registry->search_dirs, sizeof *grown * (registry->search_dir_count + 1));
  if (grown == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "registry: out of memory");
  registry->search_dirs = grown;
  char *copy = malloc(length + 1);
  if (copy == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "registry: out of memory");
  memcpy(copy, directory, length);
  copy[length] = '\0';
  grown[registry->search_dir_count++] = copy;
  return NULL;
}

/* True when this libtflaccel is the one in the build tree (running
 * uninstalled, e.g. from make check or ./tflaccel): then the freshly built
 * plugins are found without installing. */
int registry_running_uninstalled(void) {
  Dl_info info;
  if (dladdr((void *)registry_running_uninstalled, &info) == 0 || info.dli_fname == NULL) return 0;
  const char *build_lib_dir = TFLACCEL_BUILD_LIB_DIR;
  size_t length = strlen(build_lib_dir);
  return strncmp(info.dli_fname, build_lib_dir, length) == 0 && info.dli_fname[length] == '/';
}

static tflaccel_status build_search_dirs(plugin_registry *registry) {
  tflaccel_status status = NULL;
  const char *plugin_path = env_get_path("TFLACCEL_PLUGIN_PATH");
  if (plugin_path != NULL) {
    const char *start = plugin_path;
    while (status == NULL) {
      const char *end = strchr(start, ':');
      size_t length = end ? (size_t)(end - start) : strlen(start);
      status = add_search_dir(registry, start, length);
      if (end == NULL) break;
      start = end + 1;
    }
  }
  if (status == NULL && registry_running_uninstalled())
    status = add_search_dir(registry, TFLACCEL_BUILD_PLUGIN_DIR, strlen(TFLACCEL_BUILD_PLUGIN_DIR));
  const char *installed = registry->config->plugin_dir ? registry->config->plugin_dir
                                                       : TFLACCEL_PLUGIN_DIR;
  if (status == NULL) status = add_search_dir(registry, installed, strlen(installed));
  return status;
}

static const char *lookup_plugin_option(const void *options, const char *key) {
  return config_plugin_option(options, key);
}

tflaccel_status registry_create(const tflaccel_config *config, int32_t log_level,
                                plugin_registry **registry_out) {
  *registry_out = NULL;
  plugin_registry *registry = calloc(1, sizeof *registry);
  if (registry == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "registry: out of memory");
  registry->config = config;
  registry->log_level = log_level;
  tflaccel_status status = build_search_dirs(registry);
  if (status == NULL && config->plugin_count > 0) {
    registry->entries = calloc(config->plugin_count, sizeof *registry->entries);
    if (registry->entries == NULL)
      status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "registry: out of memory");
  }
  if (status != NULL) {
    registry_destroy(registry);
    return status;
  }
  for (uint32_t i = 0; i < config->plugin_count; ++i) {
    plugin_entry *entry = &registry->entries[i];
    if (pthread_mutex_init(&entry->load_lock, NULL) != 0) {
      registry_destroy(registry);
      return tflaccel_status_make(TFLACCEL_INTERNAL, "registry: cannot create a mutex");
    }
    if (pthread_mutex_init(&entry->device_lock, NULL) != 0) {
      pthread_mutex_destroy(&entry->load_lock);
      registry_destroy(registry);
      return tflaccel_status_make(TFLACCEL_INTERNAL, "registry: cannot create a mutex");
    }
    registry->entry_count = i + 1; /* what registry_destroy tears down */
    entry->config = &config->plugins[i];
    host_plugin_context *context = &entry->host_context;
    snprintf(context->plugin_name, sizeof context->plugin_name, "%s", entry->config->name);
    context->log_level = log_level;
    context->option_lookup = lookup_plugin_option;
    context->options = entry->config;
    host_services_fill(&entry->host, context, config->cache_dir);
    if (!entry->config->enabled) {
      entry->state = PLUGIN_DISABLED;
      entry->reason = format_string("disabled in %s", config->path ? config->path : "the configuration");
    }
  }
  *registry_out = registry;
  return NULL;
}

void registry_destroy(plugin_registry *registry) {
  if (registry == NULL) return;
  /* Teardown order of the ABI: devices, then the plugin state. The
   * libraries stay loaded (drivers may have threads and exit handlers). */
  for (uint32_t i = 0; i < registry->entry_count; ++i) {
    plugin_entry *entry = &registry->entries[i];
    if (entry->device != NULL) entry->device->vtable->destroy(entry->device);
    if (entry->state == PLUGIN_AVAILABLE && entry->descriptor->shutdown != NULL)
      entry->descriptor->shutdown(entry->plugin_state);
    free(entry->library_path);
    free(entry->reason);
    pthread_mutex_destroy(&entry->device_lock);
    pthread_mutex_destroy(&entry->load_lock);
  }
  free(registry->entries);
  for (uint32_t i = 0; i < registry->search_dir_count; ++i) free(registry->search_dirs[i]);
  free(registry->search_dirs);
  free(registry);
}

plugin_entry *registry_find(plugin_registry *registry, const char *name) {
  for (uint32_t i = 0; i < registry->entry_count; ++i)
    if (!strcmp(registry->entries[i].config->name, name)) return &registry->entries[i];
  return NULL;
}

/* The file to dlopen: a name with a '/' is a path; a bare name is looked up
 * in the search dirs. Returns NULL and a reason when not found. */
static char *resolve_library(const plugin_registry *registry, const char *library, char **reason,
                             int *not_installed) {
  *not_installed = 0;
  if (strchr(library, '/') != NULL) {
    if (access(library, F_OK) != 0) {
      *not_installed = errno == ENOENT;
      *reason = format_string("%slibrary %s: %s", *not_installed ? "not installed: " : "", library,
                              strerror(errno));
      return NULL;
    }
    return format_string("%s", library);
  }
  char searched[1024] = "";
  size_t used = 0;
  for (uint32_t i = 0; i < registry->search_dir_count; ++i) {
    char *candidate = format_string("%s/%s", registry->search_dirs[i], library);
    if (candidate == NULL) break;
    if (access(candidate, F_OK) == 0) return candidate;
    free(candidate);
    if (used < sizeof searched) {
      int written = snprintf(searched + used, sizeof searched - used, "%s%s", i ? ":" : "",
                             registry->search_dirs[i]);
      if (written > 0) used += (size_t)written;
    }
  }
  *not_installed = 1;
  *reason = format_string("not installed: %s not found in %s (set TFLACCEL_PLUGIN_PATH or the "
                          "library key)",
                          library, searched);
  return NULL;
}

int registry_validate_descriptor(const tflaccel_accelerator_plugin *descriptor,
                                 const char *expected_name, char *reason, size_t reason_size) {
  if (descriptor->struct_size < offsetof(tflaccel_accelerator_plugin, device_create) +
                                    sizeof descriptor->device_create) {
    snprintf(reason, reason_size, "plugin descriptor too small (%u bytes)",
             (unsigned)descriptor->struct_size);
    return 0;
  }
  uint32_t major = TFLACCEL_ABI_VERSION_MAJOR(descriptor->abi_version);
  uint32_t minor = TFLACCEL_ABI_VERSION_MINOR(descriptor->abi_version);
  if (major != TFLACCEL_ABI_MAJOR) {
    snprintf(reason, reason_size, "built for accelerator ABI %u.%u, this tflaccel speaks %u.%u",
             major, minor, TFLACCEL_ABI_MAJOR, TFLACCEL_ABI_MINOR);
    return 0;
  }
  if (minor > TFLACCEL_ABI_MINOR) {
    snprintf(reason, reason_size,
             "needs accelerator ABI %u.%u, this tflaccel provides %u.%u (upgrade tflaccel)", major,
             minor, TFLACCEL_ABI_MAJOR, TFLACCEL_ABI_MINOR);
    return 0;
  }
  const char *missing = NULL;
  if (descriptor->name == NULL) missing = "name";
  else if (descriptor->init == NULL) missing = "init";
  else if (descriptor->shutdown == NULL) missing = "shutdown";
  else if (descriptor->device_count == NULL) missing = "device_count";
  else if (descriptor->device_info == NULL) missing = "device_info";
  else if (descriptor->device_create == NULL) missing = "device_create";
  if (missing != NULL) {
    snprintf(reason, reason_size, "plugin descriptor lacks %s", missing);
    return 0;
  }
  if (expected_name != NULL && strcmp(descriptor->name, expected_name) != 0) {
    snprintf(reason, reason_size, "library is the plugin '%.64s', not '%.64s'", descriptor->name,
             expected_name);
    return 0;
  }
  return 1;
}

static void mark_unavailable(plugin_entry *entry, char *reason) {
  entry->state = PLUGIN_UNAVAILABLE;
  free(entry->reason);
  entry->reason = reason ? reason : format_string("unavailable");
}

/* Names another major's entry symbol, so an old or new plugin is reported
 * as such instead of as "not a plugin". */
static int find_other_major(void *library) {
  for (int major = 0; major <= 16; ++major) {
    if (major == TFLACCEL_ABI_MAJOR) continue;
    char symbol[64];
    snprintf(symbol, sizeof symbol, "tflaccel_accelerator_entry_v%d", major);
    if (dlsym(library, symbol) != NULL) return major;
  }
  return -1;
}

static void load_locked(plugin_registry *registry, plugin_entry *entry) {
  if (entry->state != PLUGIN_NOT_LOADED) return;
  const char *name = entry->config->name;
  char *reason = NULL;
  int not_installed = 0;
  entry->library_path = resolve_library(registry, entry->config->library, &reason, &not_installed);
  if (entry->library_path == NULL) {
    mark_unavailable(entry, reason);
    if (not_installed) entry->state = PLUGIN_NOT_INSTALLED;
    return;
  }
  /* RTLD_LOCAL: two plugins may carry the same internal names. */
  dlerror();
  void *library = dlopen(entry->library_path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *error = dlerror();
    mark_unavailable(entry, format_string("cannot load %s: %s", entry->library_path,
                                          error ? error : "unknown dlopen error"));
    return;
  }
  tflaccel_accelerator_entry_fn entry_point =
      (tflaccel_accelerator_entry_fn)dlsym(library, TFLACCEL_ACCELERATOR_ENTRY_NAME);
  /* Every message is formatted before dlclose: strings may live in the module. */
  if (entry_point == NULL) {
    int other = find_other_major(library);
    if (other >= 0) {
      entry->abi_version = (uint32_t)other << 16;
      reason = format_string("%s is built for accelerator ABI %d (exports "
                             "tflaccel_accelerator_entry_v%d), this tflaccel speaks ABI %d",
                             entry->library_path, other, other, TFLACCEL_ABI_MAJOR);
    } else {
      reason = format_string("%s has no %s symbol: not a tflaccel plugin", entry->library_path,
                             TFLACCEL_ACCELERATOR_ENTRY_NAME);
    }
    dlclose(library);
    mark_unavailable(entry, reason);
    return;
  }
  const tflaccel_accelerator_plugin *descriptor = entry_point(TFLACCEL_ABI_VERSION);
  if (descriptor == NULL) {
    reason = format_string("%s refused this tflaccel's accelerator ABI %u.%u", entry->library_path,
                           TFLACCEL_ABI_MAJOR, TFLACCEL_ABI_MINOR);
    dlclose(library);
    mark_unavailable(entry, reason);
    return;
  }
  char why[256];
  entry->abi_version = descriptor->struct_size >= offsetof(tflaccel_accelerator_plugin, abi_version) +
                                                      sizeof descriptor->abi_version
                           ? descriptor->abi_version
                           : 0;
  if (!registry_validate_descriptor(descriptor, name, why, sizeof why)) {
    reason = format_string("%s: %s", entry->library_path, why);
    dlclose(library);
    mark_unavailable(entry, reason);
    return;
  }
  void *plugin_state = NULL;
  tflaccel_status status = descriptor->init(&entry->host, &plugin_state);
  if (status != NULL) {
    reason = format_string("%s", tflaccel_status_message(status));
    tflaccel_status_free(status);
    /* init failed: the plugin promised to clean up after itself, but a
     * driver may still have started threads, so the library stays loaded. */
    entry->library = library;
    mark_unavailable(entry, reason);
    return;
  }
  entry->library = library;
  entry->descriptor = descriptor;
  entry->plugin_state = plugin_state;
  entry->device_count = descriptor->device_count(plugin_state);
  if (entry->device_count == 0) {
    descriptor->shutdown(plugin_state);
    entry->descriptor = NULL;
    mark_unavailable(entry, format_string("%s found no device", name));
    return;
  }
  entry->state = PLUGIN_AVAILABLE;
  log_write(registry->log_level, TFLACCEL_LOG_DEBUG, NULL,
            "loaded accelerator %s %s from %s (%u device%s)", name,
            descriptor->version ? descriptor->version : "", entry->library_path,
            entry->device_count, entry->device_count == 1 ? "" : "s");
}

void registry_load(plugin_registry *registry, plugin_entry *entry) {
  pthread_mutex_lock(&entry->load_lock);
  load_locked(registry, entry);
  pthread_mutex_unlock(&entry->load_lock);
}

static int vtable_complete(const tflaccel_device_vtable *vtable, const char **missing) {
  *missing = NULL;
  if (vtable == NULL) *missing = "vtable";
  else if (vtable->struct_size < offsetof(tflaccel_device_vtable, buffer_read) + sizeof vtable->buffer_read)
    *missing = "a complete vtable";
  else if (vtable->destroy == NULL) *missing = "destroy";
  else if (vtable->supports_op == NULL) *missing = "supports_op";
  else if (vtable->compile == NULL) *missing = "compile";
  else if (vtable->executable_destroy == NULL) *missing = "executable_destroy";
  else if (vtable->execute == NULL) *missing = "execute";
  else if (vtable->buffer_create == NULL) *missing = "buffer_create";
  else if (vtable->buffer_destroy == NULL) *missing = "buffer_destroy";
  else if (vtable->buffer_write == NULL) *missing = "buffer_write";
  else if (vtable->buffer_read == NULL) *missing = "buffer_read";
  return *missing == NULL;
}

static tflaccel_status device_locked(plugin_entry *entry, tflaccel_device **device) {
  *device = NULL;
  if (entry->state != PLUGIN_AVAILABLE)
    return tflaccel_status_make(TFLACCEL_UNAVAILABLE, "accelerator %s is unavailable: %s",
                                entry->config->name, entry->reason ? entry->reason : "not loaded");
  if (entry->device == NULL) {
    /* Device 0 of what the plugin offers: choosing among several devices
     * is the plugin's own option ("device"), since only it knows them. */
    uint32_t index = 0;
    tflaccel_device *created = NULL;
    tflaccel_status status = entry->descriptor->device_create(entry->plugin_state, index, &created);
    if (status != NULL)
      return tflaccel_status_annotate(status, "%s: creating device %u", entry->config->name, index);
    const char *missing = NULL;
    if (created == NULL || !vtable_complete(created->vtable, &missing)) {
      if (created != NULL && created->vtable != NULL && created->vtable->destroy != NULL)
        created->vtable->destroy(created);
      return tflaccel_status_make(TFLACCEL_ABI_MISMATCH, "plugin %s: device lacks %s",
                                  entry->config->name, missing ? missing : "a vtable");
    }
    entry->device = created;
    entry->device_index = index;
  }
  *device = entry->device;
  return NULL;
}

tflaccel_status registry_device(plugin_entry *entry, tflaccel_device **device) {
  pthread_mutex_lock(&entry->load_lock);
  tflaccel_status status = device_locked(entry, device);
  pthread_mutex_unlock(&entry->load_lock);
  return status;
}

void registry_device_lock(plugin_entry *entry) {
  pthread_mutex_lock(&entry->device_lock);
}

void registry_device_unlock(plugin_entry *entry) {
  pthread_mutex_unlock(&entry->device_lock);
}
