#!/bin/sh
# Installs everything tflaccel's build and tests need on Debian bookworm:
# the toolchain, inih and Check, XNNPACK (cpu_xnnpack), and the three GPU
# API stacks with software
# drivers (PoCL for OpenCL, Mesa lavapipe for Vulkan, llvmpipe for EGL/GLES)
# so that every plugin is built and tested on a machine without a GPU;
# clang and its runtime for the libFuzzer target (make fuzz), valgrind.
# With --packaging, also the Debian packaging tools .ci/debian-packages.sh
# uses (the packages' own build dependencies are in debian/control).
set -eu
if [ "$(id -u)" -ne 0 ]; then
  exec sudo "$0" "$@"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  ca-certificates build-essential autoconf automake libtool pkg-config make gcc binutils \
  libinih-dev nettle-dev check libsubunit-dev libxnnpack-dev libpthreadpool-dev \
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers pocl-opencl-icd clinfo \
  libvulkan-dev libvulkan1 mesa-vulkan-drivers glslc vulkan-validationlayers vulkan-tools \
  libegl-dev libgles-dev libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri libgbm1 \
  flatbuffers-compiler python3 python3-dev python3-numpy python3-pytest valgrind xz-utils \
  libpng-dev libjpeg-dev groff-base man-db \
  clang libclang-rt-14-dev
if [ "${1:-}" = "--packaging" ]; then
  apt-get install -y -qq --no-install-recommends \
    debhelper devscripts equivs lintian fakeroot dpkg-dev dh-python
fi
