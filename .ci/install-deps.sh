#!/bin/sh
# Installs everything tflaccel's build and tests need on Debian bookworm:
# the toolchain, inih and Check, and the three GPU API stacks with software
# drivers (PoCL for OpenCL, Mesa lavapipe for Vulkan, llvmpipe for EGL/GLES)
# so that every plugin is built and tested on a machine without a GPU;
# clang and its runtime for the libFuzzer target (make fuzz), valgrind.
set -eu
if [ "$(id -u)" -ne 0 ]; then
  exec sudo "$0" "$@"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  ca-certificates build-essential autoconf automake libtool pkg-config make gcc binutils \
  libinih-dev check libsubunit-dev \
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers pocl-opencl-icd clinfo \
  libvulkan-dev libvulkan1 mesa-vulkan-drivers glslc vulkan-validationlayers vulkan-tools \
  libegl-dev libgles-dev libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri libgbm1 \
  flatbuffers-compiler python3 valgrind xz-utils \
  clang libclang-rt-14-dev
