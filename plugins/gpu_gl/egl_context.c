/* EGL display discovery, GLES contexts and making them current. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plugins/gpu_common/gpu_extension_list.h"
#include "plugins/gpu_gl/egl_context.h"
#include "plugins/gpu_gl/egl_display_registry.h"
#include "plugins/gpu_gl/gl_error.h"
#include "plugins/gpu_gl/gl_probe.h"

/* EGL extension entry points, looked up once per scan; NULL when absent. */
typedef struct egl_extension_functions {
  PFNEGLQUERYDEVICESEXTPROC query_devices;
  PFNEGLQUERYDEVICESTRINGEXTPROC query_device_string;
  PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display;
} egl_extension_functions;

/* What the attempts of one scan found, for the message when none served. */
typedef struct scan_report {
  char attempts[768];      /* "origin: why; origin: why" */
  tflaccel_status failure; /* the first failure of a driver that got a context */
} scan_report;

/* Records why origin did not serve; keeps the first failure that is not
 * TFLACCEL_UNAVAILABLE, since that one names a broken driver. Takes status. */
static void report_attempt(const tflaccel_host_services *host, scan_report *report,
                           const char *origin, tflaccel_status status) {
  host->log(host->context, TFLACCEL_LOG_INFO, "%s skipped: %s", origin,
            host->status_message(status));
  size_t used = strlen(report->attempts);
  snprintf(report->attempts + used, sizeof report->attempts - used, "%s%s: %s",
           used > 0 ? "; " : "", origin, host->status_message(status));
  if (report->failure == NULL && host->status_code(status) != TFLACCEL_UNAVAILABLE) {
    report->failure = host->status_make(host->status_code(status), "%s: %s", origin,
                                        host->status_message(status));
  }
  host->status_free(status);
}

/* An EGL failure while looking for a driver: the driver is not there. */
static tflaccel_status egl_unavailable(const tflaccel_host_services *host, const char *call) {
  tflaccel_status failure = egl_call_failed(host, call);
  tflaccel_status status =
      host->status_make(TFLACCEL_UNAVAILABLE, "%s", host->status_message(failure));
  host->status_free(failure);
  return status;
}

static tflaccel_status choose_config(const tflaccel_host_services *host, EGLDisplay display,
                                     const char *extensions, EGLConfig *config) {
  if (gpu_extension_listed(extensions, "EGL_KHR_no_config_context")) {
    *config = EGL_NO_CONFIG_KHR;
    return NULL;
  }
  /* No surface is ever made, so any surface type will do (the default,
   * EGL_WINDOW_BIT, would rule out headless displays). */
  const EGLint attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, 0,
                               EGL_NONE};
  EGLint found = 0;
  if (!eglChooseConfig(display, attributes, config, 1, &found))
    return egl_unavailable(host, "eglChooseConfig");
  if (found == 0)
    return host->status_make(TFLACCEL_UNAVAILABLE, "no EGL config with EGL_OPENGL_ES3_BIT");
  return NULL;
}

tflaccel_status egl_device_context_create(const tflaccel_host_services *host,
                                          const egl_display_entry *entry,
                                          egl_device_context *context) {
  context->display = entry->display;
  context->context = EGL_NO_CONTEXT;
  EGLint attributes[5] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE, EGL_NONE, EGL_NONE};
  if (entry->has_minor_version_attribute) {
    attributes[2] = EGL_CONTEXT_MINOR_VERSION;
    attributes[3] = 1;
  }
  /* eglCreateContext makes a context of the thread's bound API: bind GLES
   * for the call and give the thread its API back. */
  EGLenum previous_api = eglQueryAPI();
  if (!eglBindAPI(EGL_OPENGL_ES_API)) return egl_call_failed(host, "eglBindAPI(EGL_OPENGL_ES_API)");
  context->context = eglCreateContext(entry->display, entry->config, EGL_NO_CONTEXT, attributes);
  tflaccel_status status = context->context == EGL_NO_CONTEXT
                               ? egl_call_failed(host, "eglCreateContext(GLES 3.1)")
                               : NULL;
  /* Rebinding an API the thread had bound before cannot fail. */
  if (previous_api != EGL_NONE && previous_api != EGL_OPENGL_ES_API) (void)eglBindAPI(previous_api);
  return status;
}

void egl_device_context_release(const tflaccel_host_services *host, egl_device_context *context) {
  if (context->context != EGL_NO_CONTEXT &&
      !eglDestroyContext(context->display, context->context)) {
    tflaccel_status status = egl_call_failed(host, "eglDestroyContext");
    host->log(host->context, TFLACCEL_LOG_WARNING, "%s", host->status_message(status));
    host->status_free(status);
  }
  context->context = EGL_NO_CONTEXT;
}

tflaccel_status egl_current_enter(const tflaccel_host_services *host,
                                  const egl_device_context *context, egl_current *saved) {
  saved->api = eglQueryAPI();
  saved->entered = context;
  if (saved->api != EGL_OPENGL_ES_API && !eglBindAPI(EGL_OPENGL_ES_API))
    return egl_call_failed(host, "eglBindAPI(EGL_OPENGL_ES_API)");
  saved->display = eglGetCurrentDisplay();
  saved->draw = eglGetCurrentSurface(EGL_DRAW);
  saved->read = eglGetCurrentSurface(EGL_READ);
  saved->context = eglGetCurrentContext();
  if (saved->context == context->context) {
    gl_clear_errors();
    return NULL; /* already current here: nothing to switch */
  }
  if (!eglMakeCurrent(context->display, EGL_NO_SURFACE, EGL_NO_SURFACE, context->context)) {
    tflaccel_status status = egl_call_failed(host, "eglMakeCurrent(no surface)");
    if (saved->api != EGL_OPENGL_ES_API && saved->api != EGL_NONE)
      (void)eglBindAPI(saved->api); /* it was bound before: cannot fail */
    return status;
  }
  gl_clear_errors();
  return NULL;
}

tflaccel_status egl_current_leave(const tflaccel_host_services *host, const egl_current *saved) {
  tflaccel_status status = NULL;
  if (saved->context != saved->entered->context) {
    EGLBoolean done = saved->context != EGL_NO_CONTEXT
                          ? eglMakeCurrent(saved->display, saved->draw, saved->read, saved->context)
                          : eglMakeCurrent(saved->entered->display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                                           EGL_NO_CONTEXT);
    if (!done) status = egl_call_failed(host, "eglMakeCurrent(release)");
  }
  if (saved->api != EGL_OPENGL_ES_API && saved->api != EGL_NONE && !eglBindAPI(saved->api) &&
      status == NULL)
    status = egl_call_failed(host, "eglBindAPI(restore)");
  return status;
}

/* Runs the GLES probe on a temporary context of the entry's display. */
static tflaccel_status probe_display(const tflaccel_host_services *host, egl_display_entry *entry) {
  egl_device_context probe;
  tflaccel_status status = egl_device_context_create(host, entry, &probe);
  if (status != NULL) {
    /* No GLES 3.1 context: this display has no driver for it. */
    tflaccel_status unavailable =
        host->status_make(TFLACCEL_UNAVAILABLE, "%s", host->status_message(status));
    host->status_free(status);
    return unavailable;
  }
  egl_current saved;
  status = egl_current_enter(host, &probe, &saved);
  if (status == NULL) {
    status = gl_probe_device(host, entry->display, &entry->info);
    tflaccel_status left = egl_current_leave(host, &saved);
    if (status == NULL)
      status = left;
    else if (left != NULL)
      host->status_free(left);
  }
  egl_device_context_release(host, &probe);
  return status;
}

/* Initializes display and checks that it can serve; on success the entry
 * holds it (initialized), otherwise it is released again. */
static tflaccel_status open_display(const tflaccel_host_services *host, EGLDisplay display,
                                    const char *get_display_call, egl_display_entry *entry) {
  if (display == EGL_NO_DISPLAY) return egl_unavailable(host, get_display_call);
  EGLint major = 0, minor = 0;
  egl_display_hold_result held = egl_display_acquire(display, &major, &minor);
  if (held == EGL_DISPLAY_INIT_FAILED) return egl_unavailable(host, "eglInitialize");
  if (held == EGL_DISPLAY_REGISTRY_FULL)
    return host->status_make(TFLACCEL_UNAVAILABLE,
                             "this process already holds %d EGL displays, the most gpu_gl tracks",
                             EGL_DISPLAY_REGISTRY_SIZE);
  entry->display = display;
  const char *extensions = eglQueryString(display, EGL_EXTENSIONS);
  tflaccel_status status = NULL;
  if (!gpu_extension_listed(extensions, "EGL_KHR_surfaceless_context"))
    status =
        host->status_make(TFLACCEL_UNAVAILABLE, "EGL %d.%d without EGL_KHR_surfaceless_context",
                          (int)major, (int)minor);
  if (status == NULL) status = choose_config(host, display, extensions, &entry->config);
  if (status == NULL) {
    entry->has_minor_version_attribute =
        major > 1 || minor >= 5 || gpu_extension_listed(extensions, "EGL_KHR_create_context");
    status = probe_display(host, entry);
  }
  if (status != NULL && !egl_display_release(display)) {
    tflaccel_status terminate = egl_call_failed(host, "eglTerminate");
    host->log(host->context, TFLACCEL_LOG_WARNING, "%s", host->status_message(terminate));
    host->status_free(terminate);
  }
  return status;
}

/* "EGL device N (/dev/dri/renderD128)" or "EGL device N (software)". */
static void device_origin(const egl_extension_functions *functions, EGLDeviceEXT device,
                          EGLint index, char *origin, size_t size) {
  const char *extensions = functions->query_device_string(device, EGL_EXTENSIONS);
  const char *file = NULL;
  if (gpu_extension_listed(extensions, "EGL_EXT_device_drm"))
    file = functions->query_device_string(device, EGL_DRM_DEVICE_FILE_EXT);
  if (file == NULL && gpu_extension_listed(extensions, "EGL_MESA_device_software"))
    file = "software";
  if (file != NULL)
    snprintf(origin, size, "EGL device %d (%s)", (int)index, file);
  else
    snprintf(origin, size, "EGL device %d", (int)index);
  eglGetError(); /* a failed string query above is not an error of ours */
}

/* Adds one entry per EGL device that serves. */
static tflaccel_status scan_devices(const tflaccel_host_services *host,
                                    const egl_extension_functions *functions,
                                    egl_display_list *list, uint32_t capacity,
                                    scan_report *report) {
  EGLint count = 0;
  if (!functions->query_devices(0, NULL, &count)) {
    report_attempt(host, report, "EGL devices", egl_unavailable(host, "eglQueryDevicesEXT"));
    return NULL;
  }
  if (count <= 0) {
    report_attempt(host, report, "EGL devices",
                   host->status_make(TFLACCEL_UNAVAILABLE, "eglQueryDevicesEXT found none"));
    return NULL;
  }
  EGLDeviceEXT *devices =
      host->alloc(host->context, (size_t)count * sizeof *devices, _Alignof(EGLDeviceEXT));
  if (devices == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "listing EGL devices: out of memory");
  if (!functions->query_devices(count, devices, &count)) {
    report_attempt(host, report, "EGL devices", egl_unavailable(host, "eglQueryDevicesEXT"));
    count = 0;
  }
  for (EGLint i = 0; i < count && list->count < capacity; ++i) {
    egl_display_entry *entry = &list->entries[list->count];
    memset(entry, 0, sizeof *entry);
    device_origin(functions, devices[i], i, entry->origin, sizeof entry->origin);
    EGLDisplay display = functions->get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
    tflaccel_status status =
        open_display(host, display, "eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT)", entry);
    if (status == NULL)
      list->count++;
    else
      report_attempt(host, report, entry->origin, status);
  }
  host->free(host->context, devices);
  return NULL;
}

/* Device count for sizing the list (0 when enumeration is missing). */
static uint32_t count_devices(const egl_extension_functions *functions) {
  EGLint count = 0;
  if (functions->query_devices == NULL || !functions->query_devices(0, NULL, &count) || count < 0)
    count = 0;
  eglGetError();
  return (uint32_t)count;
}

/* Order in the list: real GPUs first, software last (the EGL device order
 * is the driver's). */
static int type_rank(int32_t type) {
  switch (type) {
    case TFLACCEL_DEVICE_DISCRETE_GPU:
      return 0;
    case TFLACCEL_DEVICE_INTEGRATED_GPU:
      return 1;
    case TFLACCEL_DEVICE_OTHER:
      return 2;
    default:
      return 3;
  }
}

static void sort_by_type(egl_display_list *list) {
  for (uint32_t i = 1; i < list->count; ++i) {
    egl_display_entry entry = list->entries[i];
    uint32_t j = i;
    for (; j > 0 && type_rank(list->entries[j - 1].info.type) > type_rank(entry.info.type); --j)
      list->entries[j] = list->entries[j - 1];
    list->entries[j] = entry;
  }
}

/* Tries one fallback display (surfaceless or default) when nothing served. */
static void try_fallback(const tflaccel_host_services *host, EGLDisplay display,
                         const char *get_display_call, const char *origin, egl_display_list *list,
                         scan_report *report) {
  egl_display_entry *entry = &list->entries[list->count];
  memset(entry, 0, sizeof *entry);
  snprintf(entry->origin, sizeof entry->origin, "%s", origin);
  tflaccel_status status = open_display(host, display, get_display_call, entry);
  if (status == NULL)
    list->count++;
  else
    report_attempt(host, report, origin, status);
}

tflaccel_status egl_display_list_scan(const tflaccel_host_services *host, egl_display_list *list) {
  list->entries = NULL;
  list->count = 0;
  /* Client extensions (EGL_EXT_client_extensions); NULL without them. */
  const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (client == NULL) eglGetError();
  egl_extension_functions functions = {NULL, NULL, NULL};
  if (gpu_extension_listed(client, "EGL_EXT_platform_base"))
    functions.get_platform_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  int device_platform = functions.get_platform_display != NULL &&
                        gpu_extension_listed(client, "EGL_EXT_platform_device") &&
                        (gpu_extension_listed(client, "EGL_EXT_device_enumeration") ||
                         gpu_extension_listed(client, "EGL_EXT_device_base"));
  if (device_platform) {
    functions.query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    functions.query_device_string =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    device_platform = functions.query_devices != NULL && functions.query_device_string != NULL;
  }

  /* Room for every device, or for the one fallback display. */
  uint32_t capacity = device_platform ? count_devices(&functions) : 0;
  if (capacity == 0) capacity = 1;
  list->entries =
      host->alloc(host->context, capacity * sizeof *list->entries, _Alignof(egl_display_entry));
  if (list->entries == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "listing EGL displays: out of memory");

  scan_report report = {.attempts = "", .failure = NULL};
  tflaccel_status status = NULL;
  if (device_platform)
    status = scan_devices(host, &functions, list, capacity, &report);
  else
    report_attempt(
        host, &report, "EGL devices",
        host->status_make(TFLACCEL_UNAVAILABLE,
                          "EGL_EXT_device_enumeration or EGL_EXT_platform_device missing"));
  if (status == NULL && list->count == 0) {
    if (functions.get_platform_display != NULL &&
        gpu_extension_listed(client, "EGL_MESA_platform_surfaceless"))
      try_fallback(
          host,
          functions.get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL),
          "eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA)", "Mesa surfaceless platform",
          list, &report);
    else
      report_attempt(
          host, &report, "Mesa surfaceless platform",
          host->status_make(TFLACCEL_UNAVAILABLE, "EGL_MESA_platform_surfaceless missing"));
  }
  if (status == NULL && list->count == 0)
    try_fallback(host, eglGetDisplay(EGL_DEFAULT_DISPLAY), "eglGetDisplay(EGL_DEFAULT_DISPLAY)",
                 "default EGL display", list, &report);

  if (status == NULL && list->count == 0) {
    if (report.failure != NULL) {
      status = report.failure;
      report.failure = NULL;
    } else {
      status = host->status_make(TFLACCEL_UNAVAILABLE,
                                 "no EGL display offers OpenGL ES 3.1 compute without a window "
                                 "system (%s)",
                                 report.attempts);
    }
  }
  if (report.failure != NULL) host->status_free(report.failure);
  if (status != NULL) {
    egl_display_list_release(host, list);
    return status;
  }
  sort_by_type(list);
  return NULL;
}

void egl_display_list_release(const tflaccel_host_services *host, egl_display_list *list) {
  for (uint32_t i = 0; i < list->count; ++i) {
    if (!egl_display_release(list->entries[i].display)) {
      tflaccel_status status = egl_call_failed(host, "eglTerminate");
      host->log(host->context, TFLACCEL_LOG_WARNING, "%s: %s", list->entries[i].origin,
                host->status_message(status));
      host->status_free(status);
    }
  }
  if (list->entries != NULL) host->free(host->context, list->entries);
  list->entries = NULL;
  list->count = 0;
}
