# TFLACCEL_CPU_XNNPACK_PLUGIN
# ---------------------------
# Adds --enable-cpu-xnnpack/--disable-cpu-xnnpack (default: auto), as
# TFLACCEL_GPU_PLUGIN does for the GPU plugins. Debian's XNNPACK ships no
# pkg-config file, so the header and the libraries are checked directly:
# xnnpack.h and libXNNPACK (libxnnpack-dev), pthreadpool.h and
# libpthreadpool (libpthreadpool-dev). Defines BUILD_XNNPACK, substitutes
# XNNPACK_LIBS and records the summary line in tflaccel_summary_XNNPACK.
AC_DEFUN([TFLACCEL_CPU_XNNPACK_PLUGIN], [
  AC_ARG_ENABLE([cpu-xnnpack],
    [AS_HELP_STRING([--enable-cpu-xnnpack], [build the XNNPACK CPU plugin (cpu_xnnpack) (default: when its dependencies are found)])],
    [enable_XNNPACK=$enableval], [enable_XNNPACK=auto])
  build_XNNPACK=no
  tflaccel_summary_XNNPACK="no (disabled)"
  XNNPACK_LIBS=
  AS_IF([test "x$enable_XNNPACK" != xno], [
    tflaccel_missing=
    AC_CHECK_HEADER([pthreadpool.h], [], [tflaccel_missing="pthreadpool.h not found (Debian: libpthreadpool-dev)"])
    AS_IF([test -z "$tflaccel_missing"],
      [AC_CHECK_LIB([pthreadpool], [pthreadpool_create], [:],
         [tflaccel_missing="libpthreadpool not found (Debian: libpthreadpool-dev)"], [$PTHREAD_LIBS])])
    AS_IF([test -z "$tflaccel_missing"],
      [AC_CHECK_HEADER([xnnpack.h], [], [tflaccel_missing="xnnpack.h not found (Debian: libxnnpack-dev)"])])
    AS_IF([test -z "$tflaccel_missing"],
      [AC_CHECK_LIB([XNNPACK], [xnn_create_runtime_v2], [:],
         [tflaccel_missing="libXNNPACK with the subgraph API not found (Debian: libxnnpack-dev)"],
         [-lpthreadpool $PTHREAD_LIBS])])
    AS_IF([test -z "$tflaccel_missing"],
      [build_XNNPACK=yes; tflaccel_summary_XNNPACK=yes; XNNPACK_LIBS="-lXNNPACK -lpthreadpool"],
      [AS_IF([test "x$enable_XNNPACK" = xyes],
         [AC_MSG_ERROR([--enable-cpu-xnnpack was given but $tflaccel_missing; install it or drop the option])])
       tflaccel_summary_XNNPACK="no ($tflaccel_missing)"])
  ])
  AC_SUBST([XNNPACK_LIBS])
  AM_CONDITIONAL([BUILD_XNNPACK], [test "x$build_XNNPACK" = xyes])
])
