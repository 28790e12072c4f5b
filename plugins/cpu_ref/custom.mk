# cpu_ref's kernels of custom ops (MediaPipe's landmark/transform ops, Coral's
# posenet decoder), compiled into the plugin's convenience library defined
# in plugins/cpu_ref/local.mk and found by custom_code.
plugins_libcpu_ref_impl_la_SOURCES += \
	plugins/cpu_ref/kernels/custom_registry.c \
	plugins/cpu_ref/kernels/custom/custom_kernels.h \
	plugins/cpu_ref/kernels/custom/landmarks_to_transform_matrix.c \
	plugins/cpu_ref/kernels/custom/transform_tensor_bilinear.c \
	plugins/cpu_ref/kernels/custom/transform_landmarks.c \
	plugins/cpu_ref/kernels/custom/posenet_decoder.c
