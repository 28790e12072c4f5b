/* Whole-word search in an extension string (gpu_extension_list.h). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_extension_list.h"

int gpu_extension_listed(const char *list, const char *name) {
  if (list == NULL) return 0;
  size_t length = strlen(name);
  for (const char *at = strstr(list, name); at != NULL; at = strstr(at + 1, name)) {
    int starts = at == list || at[-1] == ' ';
    int ends = at[length] == '\0' || at[length] == ' ';
    if (starts && ends) return 1;
  }
  return 0;
}
