# libgpu_gl.so
