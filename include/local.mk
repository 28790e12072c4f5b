# Public headers: the application API and the accelerator ABI.
pkginclude_HEADERS += \
	include/tflaccel/tflaccel.h \
	include/tflaccel/accelerator.h \
	include/tflaccel/ops.h \
	include/tflaccel/status.h \
	include/tflaccel/types.h
