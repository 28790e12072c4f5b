# The tflaccel Python package: tflaccel/*.py and the C extension
# tflaccel/_tflaccel (python/src/), installed into the chosen interpreter's
# site-packages (automake's pkgpythondir = $(pythondir)/tflaccel). Built when
# configure finds a python3 with numpy headers (--enable-python).
PYTHON_PACKAGE_FILES = \
	python/tflaccel/__init__.py \
	python/tflaccel/compiled_model.py \
	python/tflaccel/interpreter.py
PYTHON_TEST_FILES = \
	python/tests/conftest.py \
	python/tests/label_image.py \
	python/tests/test_compiled_model.py \
	python/tests/test_device_buffers.py \
	python/tests/test_native_interop.py \
	python/tests/tiny_model.py \
	python/tests/test_interpreter.py \
	python/tests/test_label_image.py \
	python/tests/test_bad_input.py \
	python/tests/test_threads.py \
	python/tests/test_litert_parity.py
PYTHON_EXTENSION_SOURCES = \
	python/src/binding.h \
	python/src/compiled_model.c \
	python/src/dtypes.c \
	python/src/environment.c \
	python/src/event.c \
	python/src/module.c \
	python/src/native_buffers.c \
	python/src/status.c \
	python/src/tensor_buffer.c \
	python/src/tensor_details.c
EXTRA_DIST += $(PYTHON_TEST_FILES) python/tests/run-pytest python/setup.py \
	python/pyproject.toml python/README.md

if ENABLE_PYTHON
pkgpython_PYTHON = $(PYTHON_PACKAGE_FILES)
pkgpyexec_LTLIBRARIES = python/_tflaccel.la
python__tflaccel_la_SOURCES = $(PYTHON_EXTENSION_SOURCES)
python__tflaccel_la_CPPFLAGS = $(AM_CPPFLAGS) $(PYTHON_CPPFLAGS) $(NUMPY_CPPFLAGS)
python__tflaccel_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden -fno-strict-aliasing
python__tflaccel_la_LDFLAGS = -module -avoid-version -shared -no-undefined \
	-export-symbols-regex '^PyInit__tflaccel$$'
python__tflaccel_la_LIBADD = libtflaccel.la

# The pytest suite, against the build tree (python/stage/ gathers the
# package's sources and the freshly built extension).
dist_check_SCRIPTS += python/tests/run-pytest
TESTS += python/tests/run-pytest
AM_TESTS_ENVIRONMENT += PYTHON='$(PYTHON)'; export PYTHON;
endif

clean-local: clean-python-stage
clean-python-stage:
	-rm -rf python/stage
.PHONY: clean-python-stage
