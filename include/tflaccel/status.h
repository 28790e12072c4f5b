/* tflaccel status: how every call that can fail reports why.
 *
 * A status is a pointer: NULL means success; anything else is an error object
 * holding a code and a one-line message. Whoever receives a non-NULL status
 * owns it and must release it with tflaccel_status_free() (or, inside a
 * plugin, with the host's status_free service). The out-of-memory status is a
 * static object, so running out of memory is always reportable; freeing it is
 * a no-op. */
#ifndef TFLACCEL_STATUS_H
#define TFLACCEL_STATUS_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Values are part of the ABI: never renumber, only append. */
typedef enum tflaccel_status_code {
  TFLACCEL_OK = 0,
  TFLACCEL_INVALID_ARGUMENT = 1, /* the caller passed something wrong */
  TFLACCEL_UNSUPPORTED = 2,      /* an op, dtype or shape nobody handles */
  TFLACCEL_UNAVAILABLE = 3,      /* no driver / device on this machine */
  TFLACCEL_OUT_OF_MEMORY = 4,
  TFLACCEL_DEVICE_LOST = 5,
  TFLACCEL_ABI_MISMATCH = 6,     /* a plugin built for another ABI */
  TFLACCEL_BACKEND_ERROR = 7,    /* the GPU API returned an error */
  TFLACCEL_INTERNAL = 8,         /* a bug in tflaccel */
  TFLACCEL_INVALID_MODEL = 9,    /* the model file is malformed */
  TFLACCEL_NOT_FOUND = 10,       /* a file, plugin or name does not exist */
  TFLACCEL_IO_ERROR = 11,        /* reading or writing a file failed */
  TFLACCEL_INVALID_CONFIG = 12,  /* tflaccel.ini or an env var is malformed */
} tflaccel_status_code;

typedef struct tflaccel_status_object *tflaccel_status;

/* Creates an error status (code must not be TFLACCEL_OK). Never returns NULL:
 * when memory runs out it returns the static out-of-memory status. */
tflaccel_status tflaccel_status_make(tflaccel_status_code code, const char *format,
                                     ...) __attribute__((format(printf, 2, 3)));
tflaccel_status tflaccel_status_make_v(tflaccel_status_code code, const char *format,
                                       va_list args);
/* Returns a new status whose message is "<prefix>: <old message>" and frees
 * the old one. NULL stays NULL. */
tflaccel_status tflaccel_status_annotate(tflaccel_status status, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
tflaccel_status_code tflaccel_status_code_of(tflaccel_status status);
/* The message lives as long as the status; "OK" for NULL. */
const char *tflaccel_status_message(tflaccel_status status);
const char *tflaccel_status_code_name(tflaccel_status_code code);
void tflaccel_status_free(tflaccel_status status);

#ifdef __cplusplus
}
#endif
#endif /* TFLACCEL_STATUS_H */
