# Tests (Check). Every test runs against the build tree, uninstalled: the
# environment below points the core at the freshly built plugins and config.
AM_TESTS_ENVIRONMENT = \
	TFLACCEL_SHARED_MODELS='$(abs_top_srcdir)/../shared/models'; export TFLACCEL_SHARED_MODELS; \
	TFLACCEL_TEST_DATA='$(abs_top_srcdir)/tests/data'; export TFLACCEL_TEST_DATA; \
	TFLACCEL_TOP_BUILDDIR='$(abs_top_builddir)'; export TFLACCEL_TOP_BUILDDIR; \
	TFLACCEL_TOP_SRCDIR='$(abs_top_srcdir)'; export TFLACCEL_TOP_SRCDIR; \
	POCL_CACHE_DIR='$(abs_top_builddir)/tests/cache/pocl'; export POCL_CACHE_DIR; \
	MESA_SHADER_CACHE_DIR='$(abs_top_builddir)/tests/cache/mesa'; export MESA_SHADER_CACHE_DIR; \
	XDG_CACHE_HOME='$(abs_top_builddir)/tests/cache'; export XDG_CACHE_HOME; \
	CK_DEFAULT_TIMEOUT=600; export CK_DEFAULT_TIMEOUT;

TEST_CPP_FLAGS = $(AM_CPPFLAGS) $(PATH_DEFINES)
TEST_C_FLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
TEST_LINK = libtflaccel.la $(CHECK_LIBS)
include $(srcdir)/tests/facts.mk
include $(srcdir)/tests/registry.mk
include $(srcdir)/tests/api.mk
include $(srcdir)/tests/auto_selection.mk
include $(srcdir)/tests/cpu_ref.mk
include $(srcdir)/tests/cpu_ref_quant.mk
include $(srcdir)/tests/gpu.mk
include $(srcdir)/tests/gpu_vk.mk
include $(srcdir)/tests/gpu_gl.mk
include $(srcdir)/tests/gpu_profile.mk
include $(srcdir)/tests/model.mk
include $(srcdir)/tests/partition.mk
include $(srcdir)/tests/compiled_cache.mk

# Driver caches and per-test scratch directories live in the build tree.
clean-local:
	-rm -rf tests/cache tests/tmp-*
include $(srcdir)/tests/models.mk
include $(srcdir)/tests/tools.mk
include $(srcdir)/tests/conformance.mk
include $(srcdir)/tests/cpu_xnnpack.mk
include $(srcdir)/tests/runtime.mk
include $(srcdir)/tests/reliability.mk
