#include "config.h"

#include "tests/gpu/vk_layer_keep_loaded.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/json.h"

/* The loader's explicit layer directories on Linux, in its order, when
 * VK_LAYER_PATH is unset. */
static const char *const system_layer_dirs =
    "/usr/local/etc/vulkan/explicit_layer.d:/etc/vulkan/explicit_layer.d:"
    "/usr/local/share/vulkan/explicit_layer.d:/usr/share/vulkan/explicit_layer.d";

/* The library path of manifest `path` when it describes layer_name (as the
 * loader would pass it to dlopen), or 0 with *library untouched. */
static int manifest_library(const char *dir, const char *path, const char *layer_name,
                            char *library, size_t size) {
  size_t length = strlen(path);
  if (length < 5 || strcmp(path + length - 5, ".json") != 0) return 0;
  char full[4096];
  if (snprintf(full, sizeof full, "%s/%s", dir, path) >= (int)sizeof full) return 0;
  json_value *manifest = json_parse_file(full);
  if (manifest == NULL) return 0;
  const json_value *layer = json_get(manifest, "layer");
  const json_value *name = json_get(layer, "name");
  const json_value *library_path = json_get(layer, "library_path");
  int found = name != NULL && name->kind == JSON_STRING && !strcmp(name->string, layer_name) &&
              library_path != NULL && library_path->kind == JSON_STRING;
  if (found) {
    const char *lib = library_path->string;
    int written = strchr(lib, '/') == NULL || lib[0] == '/'
                      ? snprintf(library, size, "%s", lib)
                      : snprintf(library, size, "%s/%s", dir, lib);
    found = written > 0 && (size_t)written < size;
  }
  json_destroy(manifest);
  return found;
}

int vk_layer_keep_loaded(const char *layer_name) {
  const char *dirs = getenv("VK_LAYER_PATH");
  char *list = strdup(dirs != NULL && dirs[0] != '\0' ? dirs : system_layer_dirs);
  if (list == NULL) {
    fprintf(stderr, "vk_layer_keep_loaded: out of memory\n");
    return -1;
  }
  char library[4096] = "";
  char *save = NULL;
  for (char *dir = strtok_r(list, ":", &save); dir != NULL && library[0] == '\0';
       dir = strtok_r(NULL, ":", &save)) {
    DIR *directory = opendir(dir);
    if (directory == NULL) continue;
    for (struct dirent *entry = readdir(directory); entry != NULL && library[0] == '\0';
         entry = readdir(directory))
      if (!manifest_library(dir, entry->d_name, layer_name, library, sizeof library))
        library[0] = '\0';
    closedir(directory);
  }
  free(list);
  if (library[0] == '\0') {
    fprintf(stderr, "vk_layer_keep_loaded: no layer manifest names %s\n", layer_name);
    return -1;
  }
  if (dlopen(library, RTLD_NOW | RTLD_LOCAL) == NULL) {
    fprintf(stderr, "vk_layer_keep_loaded: cannot open %s: %s\n", library, dlerror());
    return -1;
  }
  return 0;
}
