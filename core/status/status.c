/* Status objects: a code plus a one-line message, owned by the receiver. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflaccel/status.h"

struct tflaccel_status_object {
  tflaccel_status_code code;
  char message[];
};

/* Returned when allocating a status fails: statically allocated so that
 * running out of memory can always be reported. It is never written to. */
static struct {
  tflaccel_status_code code;
  char message[32];
} out_of_memory_status = {TFLACCEL_OUT_OF_MEMORY, "out of memory"};

#define OUT_OF_MEMORY_STATUS ((tflaccel_status)(void *)&out_of_memory_status)

tflaccel_status tflaccel_status_make_v(tflaccel_status_code code, const char *format,
                                       va_list args) {
  if (code == TFLACCEL_OK) code = TFLACCEL_INTERNAL; /* an error status always has an error code */
  va_list measure;
  va_copy(measure, args);
  int length = vsnprintf(NULL, 0, format, measure);
  va_end(measure);
  if (length < 0) length = 0;
  tflaccel_status status = malloc(sizeof *status + (size_t)length + 1);
  if (status == NULL) return OUT_OF_MEMORY_STATUS;
  status->code = code;
  vsnprintf(status->message, (size_t)length + 1, format, args);
  /* Messages are one line: fold newlines a driver's build log may contain. */
  for (char *c = status->message; *c; ++c)
    if (*c == '\n' || *c == '\r') *c = ' ';
  return status;
}

tflaccel_status tflaccel_status_make(tflaccel_status_code code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  tflaccel_status status = tflaccel_status_make_v(code, format, args);
  va_end(args);
  return status;
}

tflaccel_status tflaccel_status_annotate(tflaccel_status status, const char *format, ...) {
  if (status == NULL || status == OUT_OF_MEMORY_STATUS) return status;
  char prefix[512];
  va_list args;
  va_start(args, format);
  vsnprintf(prefix, sizeof prefix, format, args);
  va_end(args);
  tflaccel_status annotated =
      tflaccel_status_make(status->code, "%s: %s", prefix, status->message);
  if (annotated == OUT_OF_MEMORY_STATUS) return status; /* keep the original */
  tflaccel_status_free(status);
  return annotated;
}

tflaccel_status_code tflaccel_status_code_of(tflaccel_status status) {
  return status == NULL ? TFLACCEL_OK : status->code;
}

const char *tflaccel_status_message(tflaccel_status status) {
  return status == NULL ? "OK" : status->message;
}

const char *tflaccel_status_code_name(tflaccel_status_code code) {
  switch (code) {
  case TFLACCEL_OK: return "OK";
  case TFLACCEL_INVALID_ARGUMENT: return "invalid argument";
  case TFLACCEL_UNSUPPORTED: return "unsupported";
  case TFLACCEL_UNAVAILABLE: return "unavailable";
  case TFLACCEL_OUT_OF_MEMORY: return "out of memory";
  case TFLACCEL_DEVICE_LOST: return "device lost";
  case TFLACCEL_ABI_MISMATCH: return "ABI mismatch";
  case TFLACCEL_BACKEND_ERROR: return "backend error";
  case TFLACCEL_INTERNAL: return "internal error";
  case TFLACCEL_INVALID_MODEL: return "invalid model";
  case TFLACCEL_NOT_FOUND: return "not found";
  case TFLACCEL_IO_ERROR: return "I/O error";
  case TFLACCEL_INVALID_CONFIG: return "invalid configuration";
  }
  return "unknown status code";
}

void tflaccel_status_free(tflaccel_status status) {
  if (status != NULL && status != OUT_OF_MEMORY_STATUS) free(status);
}
