/* Logging to stderr, TFLite style ("WARNING: ..."), filtered by a level that
 * each environment holds (TFLACCEL_LOG or the API option). */
#ifndef TFLACCEL_CORE_LOG_LOG_H
#define TFLACCEL_CORE_LOG_LOG_H

#include <stdarg.h>
#include <stdint.h>

#include "tflaccel/accelerator.h"

/* Parses "debug", "info", "warning"/"warn", "error"; returns -1 if unknown. */
int32_t log_level_parse(const char *text);
const char *log_level_name(int32_t level);
/* The level named by $TFLACCEL_LOG, TFLACCEL_LOG_INFO when unset (like TFLite); an
 * unknown value is reported through *bad_value (else NULL). */
int32_t log_level_from_env(const char **bad_value);

/* Prints "<LEVEL>: [<origin>: ]<message>" when level <= threshold. */
void log_write(int32_t threshold, int32_t level, const char *origin, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
void log_write_v(int32_t threshold, int32_t level, const char *origin, const char *format,
                 va_list args);

#endif
