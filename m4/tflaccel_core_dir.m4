# TFLACCEL_KEEP_CORE_DIR
# ----------------------
# Autoconf removes core dumps with "rm -f core ..." after every test and in
# its exit trap; in a source tree whose core/ is a directory each of those
# prints "rm: cannot remove 'core': Is a directory" (and the trap's && chain
# stops, leaving confdefs.h behind). This shell function drops the name
# "core" from rm's arguments while core is a directory.
AC_DEFUN([TFLACCEL_KEEP_CORE_DIR], [
rm ()
{
  for tflaccel_rm_argument
  do
    shift
    if test "x$tflaccel_rm_argument" = xcore && test -d core; then continue; fi
    set -- "$[@]" "$tflaccel_rm_argument"
  done
  command rm "$[@]"
}
])
