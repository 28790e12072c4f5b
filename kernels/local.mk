# GPU kernels (OpenCL C and GLSL) are embedded into their plugins at build
# time; each plugin's fragment lists the kernels it embeds.
