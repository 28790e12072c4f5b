# libgpu_cl.so
