# TFLACCEL_PYTHON: --enable-python[=yes|no|auto]. Picks an interpreter that
# has the numpy headers: $PYTHON when set, else the first of python3 (PATH)
# and /usr/bin/python3 that imports numpy (a pyenv python3 first on PATH
# often lacks numpy, while Debian's has python3-numpy). Sets PYTHON,
# PYTHON_CPPFLAGS, NUMPY_CPPFLAGS, the conditional ENABLE_PYTHON and
# tflaccel_summary_PYTHON.
AC_DEFUN([TFLACCEL_PYTHON], [
AC_ARG_ENABLE([python],
  [AS_HELP_STRING([--enable-python], [build the tflaccel Python package (default: auto, when a python3 with Python.h and numpy headers is found; PYTHON=... picks the interpreter)])],
  [], [enable_python=auto])
tflaccel_python_ok=no
tflaccel_python_why="disabled (--disable-python)"
AS_IF([test "x$enable_python" != xno], [
  AS_IF([test -z "$PYTHON"], [
    for tflaccel_candidate in python3 /usr/bin/python3; do
      tflaccel_found=`command -v $tflaccel_candidate 2>/dev/null` || continue
      AS_IF([$tflaccel_found -c 'import numpy' >/dev/null 2>&1],
        [PYTHON=$tflaccel_found; break])
    done
  ])
  tflaccel_python_why="no python3 with numpy found (Debian: python3-dev python3-numpy; or set PYTHON=)"
  AS_IF([test -n "$PYTHON"], [
    AM_PATH_PYTHON([3.10], [tflaccel_python_ok=yes], [tflaccel_python_ok=no])
  ])
  dnl Debian's python3 reads /usr/local/lib/python3.X/dist-packages (its
  dnl default scheme, posix_local), not the site-packages AM_PATH_PYTHON
  dnl computes; install where the interpreter looks.
  AS_IF([test "$tflaccel_python_ok" = yes &&
         test "`$PYTHON -c 'import sysconfig; print(getattr(sysconfig, "get_default_scheme", str)() == "posix_local")' 2>/dev/null`" = True], [
    pythondir='${prefix}'/lib/python$PYTHON_VERSION/dist-packages
    pyexecdir='${exec_prefix}'/lib/python$PYTHON_VERSION/dist-packages
  ])
  AS_IF([test "$tflaccel_python_ok" = yes], [
    AC_MSG_CHECKING([for $PYTHON's headers and numpy's])
    PYTHON_CPPFLAGS="-I`$PYTHON -c 'import sysconfig; print(sysconfig.get_path("include"))'`"
    NUMPY_CPPFLAGS="-I`$PYTHON -c 'import numpy; print(numpy.get_include())' 2>/dev/null`"
    tflaccel_saved_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS $PYTHON_CPPFLAGS $NUMPY_CPPFLAGS"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>]], [[return PyArray_NDIM((PyArrayObject *)0) == 0;]])],
      [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no])
       tflaccel_python_ok=no
       tflaccel_python_why="$PYTHON has no Python.h or numpy headers (Debian: python3-dev python3-numpy)"])
    CPPFLAGS=$tflaccel_saved_CPPFLAGS
  ])
  AS_IF([test "$tflaccel_python_ok" = no && test "x$enable_python" = xyes],
    [AC_MSG_ERROR([--enable-python: $tflaccel_python_why])])
])
AC_SUBST([PYTHON_CPPFLAGS])
AC_SUBST([NUMPY_CPPFLAGS])
AM_CONDITIONAL([ENABLE_PYTHON], [test "$tflaccel_python_ok" = yes])
AS_IF([test "$tflaccel_python_ok" = yes],
  [AS_IF([$PYTHON -c 'import pytest' >/dev/null 2>&1],
     [tflaccel_summary_PYTHON="yes ($PYTHON, into $pythondir)"],
     [tflaccel_summary_PYTHON="yes ($PYTHON, into $pythondir; no pytest, its tests will skip: Debian python3-pytest)"])],
  [tflaccel_summary_PYTHON="no: $tflaccel_python_why"])
])
