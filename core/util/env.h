/* Environment variables. Path-like ones go through secure_getenv so that a
 * setuid program cannot be pointed at another config or plugin. */
#ifndef TFLACCEL_CORE_UTIL_ENV_H
#define TFLACCEL_CORE_UTIL_ENV_H

/* NULL when unset or empty. */
const char *env_get_path(const char *name);
const char *env_get(const char *name);

#endif
