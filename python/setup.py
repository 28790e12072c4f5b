"""Builds the tflaccel Python package against an installed libtflaccel, found
through pkg-config (tflaccel.pc): ``pip install ./python``. Set
PKG_CONFIG_PATH when libtflaccel is installed under a non-standard prefix."""

import pathlib
import shlex
import subprocess

import numpy
from setuptools import Extension, setup

HERE = pathlib.Path(__file__).resolve().parent


def pkg_config(*args):
    try:
        output = subprocess.run(["pkg-config", *args, "tflaccel"], check=True,
                                capture_output=True, text=True).stdout
    except FileNotFoundError:
        raise SystemExit("pkg-config is not installed (Debian: pkg-config)")
    except subprocess.CalledProcessError as error:
        raise SystemExit("libtflaccel not found by pkg-config (%s); install it (make install) "
                         "and set PKG_CONFIG_PATH to its lib/pkgconfig"
                         % error.stderr.strip())
    return shlex.split(output)


cflags = pkg_config("--cflags")
libs = pkg_config("--libs")
library_dirs = [flag[2:] for flag in libs if flag.startswith("-L")]
sources = sorted(str(path.relative_to(HERE)) for path in (HERE / "src").glob("*.c"))

setup(
    version=pkg_config("--modversion")[0],
    ext_modules=[Extension(
        "tflaccel._tflaccel",
        sources=sources,
        include_dirs=[flag[2:] for flag in cflags if flag.startswith("-I")]
        + [numpy.get_include()],
        extra_compile_args=[flag for flag in cflags if not flag.startswith("-I")]
        + ["-std=c11", "-fvisibility=hidden"],
        library_dirs=library_dirs,
        libraries=[flag[2:] for flag in libs if flag.startswith("-l")],
        # Found at run time where it was found at build time.
        runtime_library_dirs=library_dirs,
    )],
)
