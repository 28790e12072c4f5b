# Reliability campaigns, run by hand and (bounded) by CI in a sanitizer
# build; see docs/RELIABILITY.md.
#
#   make campaign [CAMPAIGN_SECONDS=N]   corrupted copies of every model in
#       tests/data and ../shared/models loaded, compiled and run on cpu_ref,
#       each in a child with a time limit (best in an ASan+UBSan build)
#   make valgrind-models                 memcheck of one real model on each
#       plugin this machine has
#   make fuzz [FUZZ_MINUTES=N]           the libFuzzer loader target (tests/model.mk)
check_PROGRAMS += tests/reliability/corruption_campaign
tests_reliability_corruption_campaign_SOURCES = tests/reliability/corruption_campaign.c
tests_reliability_corruption_campaign_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_reliability_corruption_campaign_CFLAGS = $(AM_CFLAGS)
tests_reliability_corruption_campaign_LDADD = libtflaccel.la -lm

# Driver faults through the GPU fault hook (TFLACCEL_GPU_FAULT): each GPU
# plugin's compile and run of a real model with one API call failing, each
# case in a child. make check tries the first and last occurrence of each
# call; `make check-gpu-faults` tries every call.
check_PROGRAMS += tests/reliability/test_gpu_faults
TESTS += tests/reliability/test_gpu_faults
tests_reliability_test_gpu_faults_SOURCES = tests/reliability/test_gpu_faults.c \
	tests/support/test_util.c tests/support/test_util.h
tests_reliability_test_gpu_faults_CPPFLAGS = $(TEST_CPP_FLAGS)
tests_reliability_test_gpu_faults_CFLAGS = $(TEST_C_FLAGS)
tests_reliability_test_gpu_faults_LDADD = $(TEST_LINK)
check-gpu-faults: all tests/reliability/test_gpu_faults
	@$(AM_TESTS_ENVIRONMENT) TFLACCEL_GPU_FAULT_SWEEP=all; export TFLACCEL_GPU_FAULT_SWEEP; \
	tests/reliability/test_gpu_faults

CAMPAIGN_SECONDS = 120
CAMPAIGN_SEED = 1
# The campaign's models need little memory; a corrupt shape must not make a
# child allocate gigabytes (the limit is the core's, docs/RELIABILITY.md).
campaign: tests/reliability/corruption_campaign
	@dirs='$(abs_top_srcdir)/tests/data'; \
	test -d '$(abs_top_srcdir)/../shared/models' && dirs="$$dirs $(abs_top_srcdir)/../shared/models"; \
	$(AM_TESTS_ENVIRONMENT) TFLACCEL_MEMORY_LIMIT_MB=512; export TFLACCEL_MEMORY_LIMIT_MB; \
	ASAN_OPTIONS="$${ASAN_OPTIONS:-detect_leaks=1}:allocator_may_return_null=1"; export ASAN_OPTIONS; \
	LSAN_OPTIONS="suppressions=$(abs_top_srcdir)/tests/sanitizers/lsan.supp:print_suppressions=0"; export LSAN_OPTIONS; \
	UBSAN_OPTIONS="print_stacktrace=1:suppressions=$(abs_top_srcdir)/tests/sanitizers/ubsan.supp"; export UBSAN_OPTIONS; \
	tests/reliability/corruption_campaign --seconds $(CAMPAIGN_SECONDS) --seed $(CAMPAIGN_SEED) $$dirs

# valgrind memcheck: `tflaccel run` of a real model on each plugin of
# VALGRIND_PLUGINS that is available here. Driver-internal reports are
# suppressed by tests/sanitizers/valgrind.supp (each entry with its reason).
# A GPU plugin under valgrind runs the driver's LLVM compiler under it too
# (gpu_cl took 15 minutes on 2 shared cores), so CI checks cpu_ref and the
# GPU plugins are checked by hand:
#   make valgrind-models VALGRIND_PLUGINS="cpu_ref gpu_cl gpu_vk gpu_gl"
VALGRIND_MODEL = $(abs_top_srcdir)/tests/data/hand_recrop.tflite
VALGRIND_PLUGINS = cpu_ref
valgrind-models: tflaccel
	@$(AM_TESTS_ENVIRONMENT) failed=0; \
	available=`./tflaccel plugins 2>/dev/null | awk '/^[a-z_0-9]+$$/ { name = $$1 } /status: *available/ { print name }'`; \
	for plugin in $(VALGRIND_PLUGINS); do \
	  if ! echo "$$available" | grep -qx "$$plugin"; then \
	    echo "valgrind: $$plugin is not available here, skipped"; continue; fi; \
	  start=`date +%s`; \
	  if ./libtool --mode=execute valgrind --quiet --error-exitcode=42 --leak-check=full \
	       --errors-for-leak-kinds=definite --show-leak-kinds=definite \
	       --suppressions=$(abs_top_srcdir)/tests/sanitizers/valgrind.supp \
	       ./tflaccel run $(VALGRIND_MODEL) --accelerator $$plugin >/dev/null 2>valgrind-$$plugin.log; then \
	    echo "valgrind: $$plugin clean (`expr \`date +%s\` - $$start` s)"; \
	  else echo "valgrind: $$plugin FAILED, see valgrind-$$plugin.log"; tail -n 40 valgrind-$$plugin.log; failed=1; fi; \
	done; exit $$failed

# CI's ASan+UBSan run (.ci/reliability.sh) runs every test of make check with
# LeakSanitizer on, in two sets. The tests that load no GPU driver run as
# they are:
GPU_DRIVER_TESTS = tests/gpu/% tests/conformance/test_conformance_gpu_% \
	tests/conformance/test_gpu_% tests/runtime/% examples/% \
	tests/reliability/test_gpu_faults tests/compiled_cache/test_cache_gpu_%
LEAK_CHECKED_TESTS = $(filter-out $(GPU_DRIVER_TESTS) %.sh,$(TESTS))
print-leak-checked-tests:
	@echo $(LEAK_CHECKED_TESTS)

# The tests that load GPU drivers, and the CLI scripts (every CLI command
# may load every plugin: accelerators = auto ranks them), run through
# tests/sanitizers/keep_drivers_loaded.sh (LOG_COMPILER), which keeps the
# drivers loaded so that lsan.supp can name their own leaks (a script's
# tflaccel commands each go through it: tests/tools/cli_checks.sh);
# test_vk_validation keeps the validation layer loaded itself
# (tests/gpu/vk_layer_keep_loaded.c). With TFLACCEL_TEST_QUICK=1 the
# conformance and whole-model tests run one precision per case and the
# models of tests/data (tests/support/test_quick.h). By hand, in the ASan
# build:
#   make check TESTS='...' LOG_COMPILER=$(srcdir)/tests/sanitizers/keep_drivers_loaded.sh
GPU_LEAK_CHECKED_TESTS = $(filter $(GPU_DRIVER_TESTS) %.sh,$(TESTS))
print-gpu-leak-checked-tests:
	@echo $(GPU_LEAK_CHECKED_TESTS)

# Every test make check runs (CI's sanitizer run picks from it).
print-tests:
	@echo $(TESTS)

EXTRA_DIST += \
	docs/RELIABILITY.md \
	tests/support/test_quick.h \
	tests/sanitizers/keep_drivers_loaded.sh \
	tests/sanitizers/lsan.supp \
	tests/sanitizers/tsan.supp \
	tests/sanitizers/ubsan.supp \
	tests/sanitizers/valgrind.supp
CLEANFILES += valgrind-*.log
.PHONY: campaign check-gpu-faults valgrind-models print-leak-checked-tests print-gpu-leak-checked-tests print-tests
