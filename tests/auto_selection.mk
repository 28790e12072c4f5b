# accelerators = auto, against stub plugins that report each kind of device:
# a software GPU (llvmpipe, lavapipe), a GPU API on the CPU (PoCL), a
# discrete GPU and a CPU plugin.
check_LTLIBRARIES += tests/libstub_software_gpu.la tests/libgpu_stub_on_cpu.la \
	tests/libstub_discrete_gpu.la tests/libstub_cpu.la

tests_libstub_software_gpu_la_SOURCES = tests/registry/stub_plugin.c
tests_libstub_software_gpu_la_CPPFLAGS = $(AM_CPPFLAGS) -DSTUB_VARIANT=9 -DSTUB_NAME='"stub_software_gpu"' \
	-DSTUB_DEVICE_TYPE=TFLACCEL_DEVICE_VIRTUAL_GPU
tests_libstub_software_gpu_la_CFLAGS = $(STUB_C_FLAGS)
tests_libstub_software_gpu_la_LDFLAGS = $(STUB_LINK_FLAGS)
tests_libgpu_stub_on_cpu_la_SOURCES = tests/registry/stub_plugin.c
tests_libgpu_stub_on_cpu_la_CPPFLAGS = $(AM_CPPFLAGS) -DSTUB_VARIANT=9 -DSTUB_NAME='"gpu_stub_on_cpu"' \
	-DSTUB_DEVICE_TYPE=TFLACCEL_DEVICE_CPU
tests_libgpu_stub_on_cpu_la_CFLAGS = $(STUB_C_FLAGS)
tests_libgpu_stub_on_cpu_la_LDFLAGS = $(STUB_LINK_FLAGS)
tests_libstub_discrete_gpu_la_SOURCES = tests/registry/stub_plugin.c
tests_libstub_discrete_gpu_la_CPPFLAGS = $(AM_CPPFLAGS) -DSTUB_VARIANT=9 -DSTUB_NAME='"stub_discrete_gpu"' \
	-DSTUB_DEVICE_TYPE=TFLACCEL_DEVICE_DISCRETE_GPU
tests_libstub_discrete_gpu_la_CFLAGS = $(STUB_C_FLAGS)
tests_libstub_discrete_gpu_la_LDFLAGS = $(STUB_LINK_FLAGS)
tests_libstub_cpu_la_SOURCES = tests/registry/stub_plugin.c
tests_libstub_cpu_la_CPPFLAGS = $(AM_CPPFLAGS) -DSTUB_VARIANT=9 -DSTUB_NAME='"stub_cpu"' \
	-DSTUB_DEVICE_TYPE=TFLACCEL_DEVICE_CPU
tests_libstub_cpu_la_CFLAGS = $(STUB_C_FLAGS)
tests_libstub_cpu_la_LDFLAGS = $(STUB_LINK_FLAGS)

check_PROGRAMS += tests/test_auto_selection
TESTS += tests/test_auto_selection
tests_test_auto_selection_SOURCES = tests/registry/test_auto_selection.c \
	tests/support/test_util.c tests/support/test_util.h
tests_test_auto_selection_CPPFLAGS = $(TEST_CPP_FLAGS) -DSTUB_DIR='"$(abs_top_builddir)/tests/.libs"'
tests_test_auto_selection_CFLAGS = $(TEST_C_FLAGS)
tests_test_auto_selection_LDADD = libtflaccel.la $(CHECK_LIBS)
