# gpu_vk beyond the shared GPU plugin tests (tests/gpu.mk): the small graph
# its plugin test runs, and a real model under the Vulkan validation layer.
if BUILD_VULKAN
tests_gpu_test_gpu_vk_SOURCES += tests/gpu/gpu_small_graph.c tests/gpu/gpu_small_graph.h

check_PROGRAMS += tests/gpu/test_vk_validation
TESTS += tests/gpu/test_vk_validation
tests_gpu_test_vk_validation_SOURCES = tests/gpu/test_vk_validation.c \
	tests/gpu/vk_layer_keep_loaded.c tests/gpu/vk_layer_keep_loaded.h \
	tests/support/json.c tests/support/json.h tests/support/model_compare.c \
	tests/support/model_compare.h tests/support/test_util.c tests/support/test_util.h
tests_gpu_test_vk_validation_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_gpu_test_vk_validation_CFLAGS = $(TEST_C_FLAGS) $(VULKAN_CFLAGS)
tests_gpu_test_vk_validation_LDADD = libtflaccel.la $(CHECK_LIBS) $(VULKAN_LIBS)
endif
