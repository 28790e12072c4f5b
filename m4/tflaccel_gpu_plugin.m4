# TFLACCEL_GPU_PLUGIN(NAME, VAR, PKG-MODULES, DESCRIPTION, [EXTRA-CHECK], [PACKAGES])
# ---------------------------------------------------------------
# Adds --enable-NAME/--disable-NAME (default: auto). With auto the plugin is
# built when pkg-config finds PKG-MODULES (and EXTRA-CHECK, which must set
# tflaccel_extra_ok=yes or no, passes); with --enable-NAME a missing
# dependency is a configure error that names it. Defines the automake
# conditional BUILD_VAR, substitutes VAR_CFLAGS / VAR_LIBS and records a line
# for the summary in tflaccel_summary_VAR. PACKAGES names the Debian packages
# that provide PKG-MODULES, for the messages.
AC_DEFUN([TFLACCEL_GPU_PLUGIN], [
  AC_ARG_ENABLE([$1],
    [AS_HELP_STRING([--enable-$1], [build the $4 plugin (default: when its dependencies are found)])],
    [enable_$2=$enableval], [enable_$2=auto])
  build_$2=no
  tflaccel_summary_$2="no (disabled)"
  AS_IF([test "x$enable_$2" != xno], [
    PKG_CHECK_MODULES([$2], [$3], [tflaccel_pkg_ok=yes], [tflaccel_pkg_ok=no])
    tflaccel_extra_ok=yes
    tflaccel_extra_why=
    AS_IF([test "x$tflaccel_pkg_ok" = xyes], [$5])
    AS_IF([test "x$tflaccel_pkg_ok" = xyes && test "x$tflaccel_extra_ok" = xyes],
      [build_$2=yes; tflaccel_summary_$2=yes],
      [AS_IF([test "x$tflaccel_pkg_ok" != xyes],
         [tflaccel_missing="pkg-config modules '$3' not found m4_ifval([$6], [(Debian: $6)])"],
         [tflaccel_missing="$tflaccel_extra_why"])
       AS_IF([test "x$enable_$2" = xyes],
         [AC_MSG_ERROR([--enable-$1 was given but $tflaccel_missing; install them or drop the option])])
       tflaccel_summary_$2="no ($tflaccel_missing)"])
  ])
  AM_CONDITIONAL([BUILD_$2], [test "x$build_$2" = xyes])
])
