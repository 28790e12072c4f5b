/* Parses tflaccel.ini with inih. inih's handler does not receive line
 * numbers in Debian's build, so lines are fed through our own reader that
 * counts them; every error can then say FILE:LINE. */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config/ini_config.h"
#include "core/log/log.h"
#include "core/util/env.h"
#include "core/util/regular_file.h"

typedef struct parse_state {
  tflaccel_config *config;
  const char *origin;
  const char *cursor; /* next unread byte of the text */
  int32_t line;       /* line number of the line inih is handling */
  tflaccel_status error;
} parse_state;

static char *copy_string(const char *text) {
  size_t length = strlen(text);
  char *copy = malloc(length + 1);
  if (copy) memcpy(copy, text, length + 1);
  return copy;
}

static void note_section_line(parse_state *state, const char *line);

static char *reader_next_line(char *buffer, int size, void *stream) {
  parse_state *state = stream;
  if (state->error != NULL || *state->cursor == '\0') return NULL;
  int length = 0;
  while (state->cursor[length] != '\0' && state->cursor[length] != '\n' && length < size - 2)
    ++length;
  memcpy(buffer, state->cursor, (size_t)length);
  state->cursor += length;
  if (*state->cursor == '\n') {
    buffer[length++] = '\n';
    ++state->cursor;
    ++state->line;
  } else if (*state->cursor == '\0') {
    ++state->line;
  }
  buffer[length] = '\0';
  note_section_line(state, buffer);
  return state->error != NULL ? NULL : buffer;
}

/* The line the handler is looking at: the reader has already counted it. */
static int32_t current_line(const parse_state *state) { return state->line; }

static int fail(parse_state *state, const char *format, ...) __attribute__((format(printf, 2, 3)));
static int fail(parse_state *state, const char *format, ...) {
  if (state->error != NULL) return 0;
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  if (current_line(state) > 0)
    state->error = tflaccel_status_make(TFLACCEL_INVALID_CONFIG, "%s:%d: %s", state->origin,
                                        (int)current_line(state), message);
  else /* a value set through the API, not read from a file */
    state->error = tflaccel_status_make(TFLACCEL_INVALID_CONFIG, "%s: %s", state->origin, message);
  return 0;
}

static int parse_bool(const char *value, int32_t *out) {
  if (!strcasecmp(value, "true") || !strcasecmp(value, "yes") || !strcasecmp(value, "on") ||
      !strcmp(value, "1")) {
    *out = 1;
    return 1;
  }
  if (!strcasecmp(value, "false") || !strcasecmp(value, "no") || !strcasecmp(value, "off") ||
      !strcmp(value, "0")) {
    *out = 0;
    return 1;
  }
  return 0;
}

static int parse_int(const char *value, int32_t minimum, int32_t maximum, int32_t *out) {
  char *end = NULL;
  errno = 0;
  long number = strtol(value, &end, 10);
  if (errno != 0 || end == value || *end != '\0' || number < minimum || number > maximum) return 0;
  *out = (int32_t)number;
  return 1;
}

static int parse_double(const char *value, double *out) {
  char *end = NULL;
  errno = 0;
  double number = strtod(value, &end);
  if (errno != 0 || end == value || *end != '\0' || !(number >= 0.0)) return 0;
  *out = number;
  return 1;
}

static int replace_string(char **slot, const char *value) {
  char *copy = copy_string(value);
  if (copy == NULL) return 0;
  free(*slot);
  *slot = copy;
  return 1;
}

static int handle_global(parse_state *state, const char *key, const char *value) {
  tflaccel_config *config = state->config;
  if (!strcmp(key, "accelerators")) {
    if (!replace_string(&config->accelerators, value)) return fail(state, "out of memory");
  } else if (!strcmp(key, "precision")) {
    if (!strcasecmp(value, "fp32")) config->precision = 0;
    else if (!strcasecmp(value, "fp16")) config->precision = 1;
    else return fail(state, "precision must be fp32 or fp16, not '%s'", value);
  } else if (!strcmp(key, "threads")) {
    if (!parse_int(value, 1, 1024, &config->thread_count))
      return fail(state, "threads must be a whole number from 1 to 1024, not '%s'", value);
  } else if (!strcmp(key, "max_delegated_partitions")) {
    if (!parse_int(value, 0, INT32_MAX, &config->max_delegated_partitions))
      return fail(state, "max_delegated_partitions must be 0 (no limit) or more, not '%s'", value);
  } else if (!strcmp(key, "min_partition_ops")) {
    if (!parse_int(value, 1, INT32_MAX, &config->min_partition_ops))
      return fail(state, "min_partition_ops must be 1 or more, not '%s'", value);
  } else if (!strcmp(key, "require_full_delegation")) {
    if (!parse_bool(value, &config->require_full_delegation))
      return fail(state, "require_full_delegation must be true or false, not '%s'", value);
  } else if (!strcmp(key, "plugin_dir")) {
    if (!replace_string(&config->plugin_dir, value)) return fail(state, "out of memory");
  } else if (!strcmp(key, "cache_dir")) {
    /* Checked (made, private) when the environment starts: a bad cache
     * directory turns the cache off with a warning, never fails the run. */
    if (!replace_string(&config->cache_dir, value)) return fail(state, "out of memory");
  } else if (!strcmp(key, "cache")) {
    if (!strcasecmp(value, "on")) config->cache_enabled = 1;
    else if (!strcasecmp(value, "off")) config->cache_enabled = 0;
    else return fail(state, "cache must be on or off, not '%s'", value);
  } else if (!strcmp(key, "cache_max_mb")) {
    if (!parse_int(value, 1, 1 << 20, &config->cache_max_mb))
      return fail(state, "cache_max_mb must be a whole number from 1 to 1048576, not '%s'", value);
  } else if (!strcmp(key, "transfer_us_per_mib")) {
    if (!parse_double(value, &config->cost.transfer_us_per_mib))
      return fail(state, "transfer_us_per_mib must be a number >= 0, not '%s'", value);
  } else if (!strcmp(key, "dispatch_overhead_us")) {
    if (!parse_double(value, &config->cost.dispatch_overhead_us))
      return fail(state, "dispatch_overhead_us must be a number >= 0, not '%s'", value);
  } else if (!strcmp(key, "cpu_macs_per_us")) {
    if (!parse_double(value, &config->cost.cpu_macs_per_us) || config->cost.cpu_macs_per_us <= 0)
      return fail(state, "cpu_macs_per_us must be a number > 0, not '%s'", value);
  } else if (!strcmp(key, "accelerator_speedup")) {
    if (!parse_double(value, &config->cost.accelerator_speedup) ||
        config->cost.accelerator_speedup <= 0)
      return fail(state, "accelerator_speedup must be a number > 0, not '%s'", value);
  } else {
    /* Unknown keys warn instead of failing, so an older tflaccel can read a
     * newer file; the warning names the line so typos are found. */
    log_write(log_level_from_env(NULL), TFLACCEL_LOG_WARNING, NULL,
              "%s:%d: unknown key '%s' in [tflaccel] ignored", state->origin,
              (int)current_line(state), key);
  }
  return 1;
}

static config_plugin *plugin_section(parse_state *state, const char *name) {
  tflaccel_config *config = state->config;
  for (uint32_t i = 0; i < config->plugin_count; ++i)
    if (!strcmp(config->plugins[i].name, name)) return &config->plugins[i];
  config_plugin *grown = realloc(config->plugins, sizeof *grown * (config->plugin_count + 1));
  if (grown == NULL) return NULL;
  config->plugins = grown;
  config_plugin *plugin = &grown[config->plugin_count];
  memset(plugin, 0, sizeof *plugin);
  plugin->enabled = 1;
  plugin->line = current_line(state);
  plugin->name = copy_string(name);
  size_t library_length = strlen(name) + sizeof "lib.so";
  plugin->library = malloc(library_length);
  if (plugin->name == NULL || plugin->library == NULL) {
    free(plugin->name);
    free(plugin->library);
    return NULL;
  }
  snprintf(plugin->library, library_length, "lib%s.so", name);
  ++config->plugin_count;
  return plugin;
}

static int valid_plugin_name(const char *name) {
  if (*name == '\0' || strlen(name) >= 64) return 0;
  for (const char *c = name; *c; ++c)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_')) return 0;
  return 1;
}

static int handle_plugin(parse_state *state, const char *name, const char *key,
                         const char *value) {
  if (!valid_plugin_name(name))
    return fail(state, "plugin name '%s' must be lower-case letters, digits and '_'", name);
  config_plugin *plugin = plugin_section(state, name);
  if (plugin == NULL) return fail(state, "out of memory");
  if (!strcmp(key, "library")) {
    if (*value == '\0') return fail(state, "library of plugin %s is empty", name);
    if (!replace_string(&plugin->library, value)) return fail(state, "out of memory");
    return 1;
  }
  if (!strcmp(key, "enabled")) {
    if (!parse_bool(value, &plugin->enabled))
      return fail(state, "enabled must be true or false, not '%s'", value);
    return 1;
  }
  /* Any other key is an option for the plugin; a later value replaces. */
  for (uint32_t i = 0; i < plugin->option_count; ++i) {
    if (!strcmp(plugin->options[i].key, key)) {
      if (!replace_string(&plugin->options[i].value, value)) return fail(state, "out of memory");
      return 1;
    }
  }
  config_option *grown = realloc(plugin->options, sizeof *grown * (plugin->option_count + 1));
  if (grown == NULL) return fail(state, "out of memory");
  plugin->options = grown;
  grown[plugin->option_count].key = copy_string(key);
  grown[plugin->option_count].value = copy_string(value);
  if (grown[plugin->option_count].key == NULL || grown[plugin->option_count].value == NULL) {
    free(grown[plugin->option_count].key);
    free(grown[plugin->option_count].value);
    return fail(state, "out of memory");
  }
  ++plugin->option_count;
  return 1;
}

/* inih reports only key = value lines, so a section without keys (such as
 * "[plugin.cpu_ref]" alone, meaning "this plugin, with defaults") is seen
 * here, as the reader passes its line along. */
static void note_section_line(parse_state *state, const char *line) {
  while (*line == ' ' || *line == '\t') ++line;
  if (*line != '[') return;
  const char *end = strchr(line, ']');
  if (end == NULL) {
    fail(state, "malformed line (expected [section] or key = value)");
    return;
  }
  char section[128];
  size_t length = (size_t)(end - line - 1);
  if (length >= sizeof section) {
    fail(state, "section name too long");
    return;
  }
  memcpy(section, line + 1, length);
  section[length] = '\0';
  if (!strcmp(section, "tflaccel")) return;
  if (!strncmp(section, "plugin.", 7)) {
    if (!valid_plugin_name(section + 7)) {
      fail(state, "plugin name '%s' must be lower-case letters, digits and '_'", section + 7);
      return;
    }
    if (plugin_section(state, section + 7) == NULL) fail(state, "out of memory");
    return;
  }
  fail(state, "unknown section [%s] (expected [tflaccel] or [plugin.NAME])", section);
}

static int handle_entry(void *user, const char *section, const char *key, const char *value) {
  parse_state *state = user;
  if (state->error != NULL) return 0;
  if (key == NULL) {
    /* A new section (inih calls with NULL name/value for empty sections only
     * when INI_CALL_HANDLER_ON_NEW_SECTION; sections are checked below). */
    return 1;
  }
  if (!strcmp(section, "tflaccel")) return handle_global(state, key, value);
  if (!strncmp(section, "plugin.", 7)) return handle_plugin(state, section + 7, key, value);
  if (*section == '\0') return fail(state, "key '%s' outside any section", key);
  return fail(state, "unknown section [%s] (expected [tflaccel] or [plugin.NAME])", section);
}

static tflaccel_config *config_new(void) {
  tflaccel_config *config = calloc(1, sizeof *config);
  if (config == NULL) return NULL;
  config->precision = 0;
  config->thread_count = 1;
  config->cache_enabled = 1;
  config->cache_max_mb = 256;
  config->max_delegated_partitions = 0;
  config->min_partition_ops = 1;
  config->require_full_delegation = 0;
  /* Defaults of the cost model; the README's "The partitioner's cost model" explains them. */
  config->cost.transfer_us_per_mib = 200.0;
  config->cost.dispatch_overhead_us = 20.0;
  config->cost.cpu_macs_per_us = 1000.0;
  config->cost.accelerator_speedup = 10.0;
  return config;
}

tflaccel_status config_load_string(const char *text, const char *origin,
                                   tflaccel_config **config_out) {
  if (text == NULL || config_out == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "config: NULL argument");
  *config_out = NULL;
  tflaccel_config *config = config_new();
  if (config == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "config: out of memory");
  config->path = copy_string(origin ? origin : "<string>");
  if (config->path == NULL) {
    config_destroy(config);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "config: out of memory");
  }
  parse_state state = {config, config->path, text, 0, NULL};
  int result = ini_parse_stream(reader_next_line, &state, handle_entry, &state);
  if (state.error == NULL && result != 0) {
    /* A syntax error inih found by itself (no '=' or ']' on the line). */
    state.error = tflaccel_status_make(TFLACCEL_INVALID_CONFIG,
                                       "%s:%d: malformed line (expected [section] or key = value)",
                                       config->path, result > 0 ? result : state.line);
  }
  if (state.error != NULL) {
    config_destroy(config);
    return state.error;
  }
  *config_out = config;
  return NULL;
}

tflaccel_status config_set_global(tflaccel_config *config, const char *key, const char *value,
                                  const char *origin) {
  if (config == NULL || key == NULL || value == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "config: NULL argument");
  parse_state state = {config, origin, "", 0, NULL};
  handle_global(&state, key, value);
  return state.error;
}

tflaccel_status config_set_plugin_option(tflaccel_config *config, const char *key,
                                         const char *value, const char *origin) {
  if (config == NULL || key == NULL || value == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "config: NULL argument");
  parse_state state = {config, origin, "", 0, NULL};
  /* The names are copied first: handle_plugin may grow config->plugins. */
  for (uint32_t i = 0; i < config->plugin_count && state.error == NULL; ++i) {
    char name[64];
    snprintf(name, sizeof name, "%s", config->plugins[i].name);
    handle_plugin(&state, name, key, value);
  }
  return state.error;
}

tflaccel_status config_load_file(const char *path, tflaccel_config **config_out) {
  if (path == NULL || config_out == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "config: NULL argument");
  *config_out = NULL;
  int fd;
  uint64_t file_size;
  tflaccel_status opened = regular_file_open(path, "config file", &fd, &file_size);
  if (opened != NULL) return opened;
  FILE *file = fdopen(fd, "rb");
  if (file == NULL) {
    close(fd);
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "cannot read config file %s: %s", path,
                                strerror(errno));
  }
  /* Config files are small; 1 MiB is far beyond any real one. */
  enum { max_config_size = 1 << 20 };
  char *text = malloc(max_config_size + 1);
  if (text == NULL) {
    fclose(file);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "config: out of memory");
  }
  size_t size = fread(text, 1, max_config_size + 1, file);
  int read_failed = ferror(file);
  fclose(file);
  if (read_failed) {
    free(text);
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "cannot read config file %s", path);
  }
  if (size > max_config_size) {
    free(text);
    return tflaccel_status_make(TFLACCEL_INVALID_CONFIG, "%s: larger than 1 MiB", path);
  }
  text[size] = '\0';
  if (strlen(text) != size) {
    free(text);
    return tflaccel_status_make(TFLACCEL_INVALID_CONFIG, "%s: contains a NUL byte", path);
  }
  tflaccel_status status = config_load_string(text, path, config_out);
  free(text);
  return status;
}

tflaccel_status config_load_defaults(tflaccel_config **config_out) {
  static const char defaults[] =
      "[tflaccel]\n"
      "accelerators = auto\n"
      "[plugin.cpu_ref]\n"
      "[plugin.cpu_xnnpack]\n"
      "[plugin.gpu_cl]\n"
      "[plugin.gpu_vk]\n"
      "[plugin.gpu_gl]\n";
  tflaccel_status status = config_load_string(defaults, "<built-in defaults>", config_out);
  if (status == NULL) {
    free((*config_out)->path);
    (*config_out)->path = NULL;
  }
  return status;
}

void config_destroy(tflaccel_config *config) {
  if (config == NULL) return;
  for (uint32_t i = 0; i < config->plugin_count; ++i) {
    config_plugin *plugin = &config->plugins[i];
    for (uint32_t k = 0; k < plugin->option_count; ++k) {
      free(plugin->options[k].key);
      free(plugin->options[k].value);
    }
    free(plugin->options);
    free(plugin->name);
    free(plugin->library);
  }
  free(config->plugins);
  free(config->path);
  free(config->accelerators);
  free(config->plugin_dir);
  free(config->cache_dir);
  free(config);
}

static tflaccel_status join_path(const char *directory, const char *tail, char **path) {
  size_t length = strlen(directory) + strlen(tail) + 2;
  *path = malloc(length);
  if (*path == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "config: out of memory");
  snprintf(*path, length, "%s/%s", directory, tail);
  return NULL;
}

tflaccel_status config_find_file(const char *system_dir, char **path) {
  *path = NULL;
  const char *explicit_path = env_get_path("TFLACCEL_CONFIG");
  if (explicit_path != NULL) {
    if (access(explicit_path, R_OK) != 0)
      return tflaccel_status_make(TFLACCEL_NOT_FOUND, "TFLACCEL_CONFIG=%s: %s", explicit_path,
                                  strerror(errno));
    *path = copy_string(explicit_path);
    return *path ? NULL : tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "config: out of memory");
  }
  const char *xdg = env_get_path("XDG_CONFIG_HOME");
  const char *home = env_get_path("HOME");
  char *candidate = NULL;
  tflaccel_status status = NULL;
  if (xdg != NULL && *xdg == '/')
    status = join_path(xdg, "tflaccel/tflaccel.ini", &candidate);
  else if (home != NULL)
    status = join_path(home, ".config/tflaccel/tflaccel.ini", &candidate);
  if (status != NULL) return status;
  if (candidate != NULL && access(candidate, R_OK) == 0) {
    *path = candidate;
    return NULL;
  }
  free(candidate);
  if (system_dir != NULL) {
    status = join_path(system_dir, "tflaccel.ini", &candidate);
    if (status != NULL) return status;
    if (access(candidate, R_OK) == 0) {
      *path = candidate;
      return NULL;
    }
    free(candidate);
  }
  return NULL;
}

const config_plugin *config_find_plugin(const tflaccel_config *config, const char *name) {
  for (uint32_t i = 0; i < config->plugin_count; ++i)
    if (!strcmp(config->plugins[i].name, name)) return &config->plugins[i];
  return NULL;
}

const char *config_plugin_option(const config_plugin *plugin, const char *key) {
  for (uint32_t i = 0; i < plugin->option_count; ++i)
    if (!strcmp(plugin->options[i].key, key)) return plugin->options[i].value;
  return NULL;
}
