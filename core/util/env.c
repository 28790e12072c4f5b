#include "config.h"

#include <stdlib.h>

#include "core/util/env.h"

const char *env_get_path(const char *name) {
#ifdef HAVE_SECURE_GETENV
  const char *value = secure_getenv(name);
#else
  const char *value = getenv(name);
#endif
  return (value != NULL && *value != '\0') ? value : NULL;
}

const char *env_get(const char *name) {
  const char *value = getenv(name);
  return (value != NULL && *value != '\0') ? value : NULL;
}
