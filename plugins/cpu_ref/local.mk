# libcpu_ref.so: the CPU reference accelerator, always available.
