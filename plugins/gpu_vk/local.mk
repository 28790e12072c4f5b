# libgpu_vk.so
