# Runtime behaviour across threads: different compiled models of one
# environment run at once on every plugin built (tflaccel.h's promise).
check_PROGRAMS += tests/runtime/test_concurrent_runs
TESTS += tests/runtime/test_concurrent_runs
tests_runtime_test_concurrent_runs_SOURCES = tests/runtime/test_concurrent_runs.c \
	tests/support/test_util.c tests/support/test_util.h
tests_runtime_test_concurrent_runs_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_runtime_test_concurrent_runs_CFLAGS = $(TEST_C_FLAGS) $(PTHREAD_CFLAGS)
tests_runtime_test_concurrent_runs_LDADD = libtflaccel.la $(CHECK_LIBS) $(PTHREAD_LIBS)

# The same test on its own, for a ThreadSanitizer build (.ci/reliability.sh):
#   make check-threads [TFLACCEL_THREADS_N=N TFLACCEL_THREADS_RUNS=R]
# TSAN_OPTIONS should name tests/sanitizers/tsan.supp (drivers' own races).
TFLACCEL_THREADS_N = 8
TFLACCEL_THREADS_RUNS = 2
check-threads: all tests/runtime/test_concurrent_runs tests/runtime/test_async_threads
	@$(AM_TESTS_ENVIRONMENT) TFLACCEL_THREADS_N=$(TFLACCEL_THREADS_N); \
	TFLACCEL_THREADS_RUNS=$(TFLACCEL_THREADS_RUNS); export TFLACCEL_THREADS_N TFLACCEL_THREADS_RUNS; \
	TSAN_OPTIONS="$${TSAN_OPTIONS:-suppressions=$(abs_top_srcdir)/tests/sanitizers/tsan.supp:ignore_noninstrumented_modules=1:halt_on_error=1}"; \
	export TSAN_OPTIONS; CK_FORK=no; export CK_FORK; tests/runtime/test_concurrent_runs && \
	tests/runtime/test_async_threads
.PHONY: check-threads

# Device tensor buffers, asynchronous runs and events on every GPU plugin
# built (tflaccel.h's device buffers).
check_PROGRAMS += tests/runtime/test_device_buffers
TESTS += tests/runtime/test_device_buffers
tests_runtime_test_device_buffers_SOURCES = tests/runtime/test_device_buffers.c \
	tests/runtime/device_buffer_fixture.c tests/runtime/device_buffer_fixture.h \
	tests/support/test_util.c tests/support/test_util.h
tests_runtime_test_device_buffers_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_runtime_test_device_buffers_CFLAGS = $(TEST_C_FLAGS)
tests_runtime_test_device_buffers_LDADD = libtflaccel.la $(CHECK_LIBS)

# External memory across GPU APIs: gpu_vk's exported opaque fds as the
# inputs of gpu_vk, gpu_gl and gpu_cl (each where its driver imports them).
check_PROGRAMS += tests/runtime/test_external_memory
TESTS += tests/runtime/test_external_memory
tests_runtime_test_external_memory_SOURCES = tests/runtime/test_external_memory.c \
	tests/runtime/device_buffer_fixture.c tests/runtime/device_buffer_fixture.h \
	tests/support/test_util.c tests/support/test_util.h
tests_runtime_test_external_memory_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_runtime_test_external_memory_CFLAGS = $(TEST_C_FLAGS)
tests_runtime_test_external_memory_LDADD = libtflaccel.la $(CHECK_LIBS)

# The application's own cl_mem objects, wrapped and run in place (gpu_cl).
if BUILD_OPENCL
check_PROGRAMS += tests/runtime/test_device_buffers_cl
TESTS += tests/runtime/test_device_buffers_cl
tests_runtime_test_device_buffers_cl_SOURCES = tests/runtime/test_device_buffers_cl.c \
	tests/runtime/device_buffer_fixture.c tests/runtime/device_buffer_fixture.h \
	tests/support/test_util.c tests/support/test_util.h
tests_runtime_test_device_buffers_cl_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_runtime_test_device_buffers_cl_CFLAGS = $(TEST_C_FLAGS) $(OPENCL_CFLAGS)
tests_runtime_test_device_buffers_cl_LDADD = libtflaccel.la $(CHECK_LIBS) $(OPENCL_LIBS)
endif

# gpu_cl's native events: queued runs export cl_events, an application's
# user event (and, with Vulkan, its exported semaphore) gates a run on the
# device.
if BUILD_OPENCL
check_PROGRAMS += tests/runtime/test_native_events_cl
TESTS += tests/runtime/test_native_events_cl
tests_runtime_test_native_events_cl_SOURCES = tests/runtime/test_native_events_cl.c \
	tests/runtime/device_buffer_fixture.c tests/runtime/device_buffer_fixture.h \
	tests/support/test_util.c tests/support/test_util.h
tests_runtime_test_native_events_cl_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_runtime_test_native_events_cl_CFLAGS = $(TEST_C_FLAGS) $(OPENCL_CFLAGS)
tests_runtime_test_native_events_cl_LDADD = libtflaccel.la $(CHECK_LIBS) $(OPENCL_LIBS)
# With Vulkan: an application's exported Vulkan semaphore gates a run.
if BUILD_VULKAN
tests_runtime_test_native_events_cl_SOURCES += tests/runtime/vk_test_semaphore.c \
	tests/runtime/vk_test_semaphore.h
tests_runtime_test_native_events_cl_CFLAGS += $(VULKAN_CFLAGS) -DTFLACCEL_TEST_VULKAN=1
tests_runtime_test_native_events_cl_LDADD += $(VULKAN_LIBS)
endif
endif

# gpu_vk's native events: queued runs export VkFences (also with mirrored
# buffers), an application's VkFence gates a run.
if BUILD_VULKAN
check_PROGRAMS += tests/runtime/test_native_events_vk
TESTS += tests/runtime/test_native_events_vk
tests_runtime_test_native_events_vk_SOURCES = tests/runtime/test_native_events_vk.c \
	tests/runtime/device_buffer_fixture.c tests/runtime/device_buffer_fixture.h \
	tests/support/test_util.c tests/support/test_util.h
tests_runtime_test_native_events_vk_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_runtime_test_native_events_vk_CFLAGS = $(TEST_C_FLAGS) $(VULKAN_CFLAGS)
tests_runtime_test_native_events_vk_LDADD = libtflaccel.la $(CHECK_LIBS) $(VULKAN_LIBS)
endif

# gpu_gl's native events: queued runs export GLsyncs (and EGL syncs where
# offered), an application's GL fence, EGL fence sync (and, with Vulkan,
# exported semaphore) gates a run.
if BUILD_GLES
check_PROGRAMS += tests/runtime/test_native_events_gl
TESTS += tests/runtime/test_native_events_gl
tests_runtime_test_native_events_gl_SOURCES = tests/runtime/test_native_events_gl.c \
	tests/runtime/device_buffer_fixture.c tests/runtime/device_buffer_fixture.h \
	tests/support/test_util.c tests/support/test_util.h
tests_runtime_test_native_events_gl_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_runtime_test_native_events_gl_CFLAGS = $(TEST_C_FLAGS) $(GLES_CFLAGS)
tests_runtime_test_native_events_gl_LDADD = libtflaccel.la $(CHECK_LIBS) $(GLES_LIBS)
if BUILD_VULKAN
tests_runtime_test_native_events_gl_SOURCES += tests/runtime/vk_test_semaphore.c \
	tests/runtime/vk_test_semaphore.h
tests_runtime_test_native_events_gl_CFLAGS += $(VULKAN_CFLAGS) -DTFLACCEL_TEST_VULKAN=1
tests_runtime_test_native_events_gl_LDADD += $(VULKAN_LIBS)
endif
endif

# Asynchronous runs queued from several threads, their events waited on
# another (also run by check-threads, under ThreadSanitizer).
check_PROGRAMS += tests/runtime/test_async_threads
TESTS += tests/runtime/test_async_threads
tests_runtime_test_async_threads_SOURCES = tests/runtime/test_async_threads.c \
	tests/runtime/device_buffer_fixture.c tests/runtime/device_buffer_fixture.h \
	tests/support/test_util.c tests/support/test_util.h
tests_runtime_test_async_threads_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_runtime_test_async_threads_CFLAGS = $(TEST_C_FLAGS) $(PTHREAD_CFLAGS)
tests_runtime_test_async_threads_LDADD = libtflaccel.la $(CHECK_LIBS) $(PTHREAD_LIBS)

# The application's own GL buffers, on a context sharing with gpu_gl's.
if BUILD_GLES
check_PROGRAMS += tests/runtime/test_device_buffers_gl
TESTS += tests/runtime/test_device_buffers_gl
tests_runtime_test_device_buffers_gl_SOURCES = tests/runtime/test_device_buffers_gl.c \
	tests/runtime/device_buffer_fixture.c tests/runtime/device_buffer_fixture.h \
	tests/support/test_util.c tests/support/test_util.h
tests_runtime_test_device_buffers_gl_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_runtime_test_device_buffers_gl_CFLAGS = $(TEST_C_FLAGS) $(GLES_CFLAGS)
tests_runtime_test_device_buffers_gl_LDADD = libtflaccel.la $(CHECK_LIBS) $(GLES_LIBS)
endif

# gpu_vk: mirrored device buffers, and the application's own VkBuffers.
if BUILD_VULKAN
check_PROGRAMS += tests/runtime/test_device_buffers_vk
TESTS += tests/runtime/test_device_buffers_vk
tests_runtime_test_device_buffers_vk_SOURCES = tests/runtime/test_device_buffers_vk.c \
	tests/runtime/device_buffer_fixture.c tests/runtime/device_buffer_fixture.h \
	tests/support/test_util.c tests/support/test_util.h
tests_runtime_test_device_buffers_vk_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_runtime_test_device_buffers_vk_CFLAGS = $(TEST_C_FLAGS) $(VULKAN_CFLAGS)
tests_runtime_test_device_buffers_vk_LDADD = libtflaccel.la $(CHECK_LIBS) $(VULKAN_LIBS)
endif
