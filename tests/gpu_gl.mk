# gpu_gl beyond the shared GPU plugin tests (tests/gpu.mk): the small graph
# its plugin test runs.
if BUILD_GLES
tests_gpu_test_gpu_gl_SOURCES += tests/gpu/gpu_small_graph.c tests/gpu/gpu_small_graph.h
endif
