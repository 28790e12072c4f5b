#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/log/log.h"

int32_t log_level_parse(const char *text) {
  if (text == NULL) return -1;
  if (strcasecmp(text, "debug") == 0) return TFLACCEL_LOG_DEBUG;
  if (strcasecmp(text, "info") == 0) return TFLACCEL_LOG_INFO;
  if (strcasecmp(text, "warning") == 0 || strcasecmp(text, "warn") == 0) return TFLACCEL_LOG_WARNING;
  if (strcasecmp(text, "error") == 0) return TFLACCEL_LOG_ERROR;
  return -1;
}

const char *log_level_name(int32_t level) {
  switch (level) {
  case TFLACCEL_LOG_ERROR: return "ERROR";
  case TFLACCEL_LOG_WARNING: return "WARNING";
  case TFLACCEL_LOG_INFO: return "INFO";
  case TFLACCEL_LOG_DEBUG: return "DEBUG";
  }
  return "LOG";
}

int32_t log_level_from_env(const char **bad_value) {
  const char *value = getenv("TFLACCEL_LOG");
  if (bad_value) *bad_value = NULL;
  if (value == NULL || *value == '\0') return TFLACCEL_LOG_INFO;
  int32_t level = log_level_parse(value);
  if (level < 0) {
    if (bad_value) *bad_value = value;
    return TFLACCEL_LOG_WARNING;
  }
  return level;
}

void log_write_v(int32_t threshold, int32_t level, const char *origin, const char *format,
                 va_list args) {
  if (level > threshold) return;
  /* One fprintf per line so that lines from threads do not interleave. */
  char message[2048];
  vsnprintf(message, sizeof message, format, args);
  if (origin != NULL && *origin != '\0')
    fprintf(stderr, "%s: %s: %s\n", log_level_name(level), origin, message);
  else
    fprintf(stderr, "%s: %s\n", log_level_name(level), message);
}

void log_write(int32_t threshold, int32_t level, const char *origin, const char *format, ...) {
  va_list args;
  va_start(args, format);
  log_write_v(threshold, level, origin, format, args);
  va_end(args);
}
