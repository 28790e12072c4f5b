# Manual pages: tflaccel(1) and tflaccel.ini(5), installed by make install
# and checked by tests/tools/man_pages.sh (rendered without a warning, every
# command and flag of the built tool documented).
dist_man_MANS = man/tflaccel.1 man/tflaccel.ini.5
