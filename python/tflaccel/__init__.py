"""tflaccel: run TensorFlow Lite models on whatever accelerator the machine has.

Two APIs over libtflaccel's public C API:

* ``tflaccel.CompiledModel`` mirrors LiteRT's ``CompiledModel``: numpy arrays in,
  numpy arrays out, an accelerator selection such as ``"gpu_vk,cpu_ref"``; and
  ``TensorBuffer`` objects in an accelerator's memory, run synchronously or
  with ``run_async`` (an ``Event``).
* ``tflaccel.interpreter.Interpreter`` (also ``tflaccel.Interpreter``) behaves like
  ``tflite_runtime.interpreter.Interpreter``, so that
  ``import tflite_runtime.interpreter as tflite`` becomes
  ``import tflaccel.interpreter as tflite``.

``tflaccel.plugins()`` and ``tflaccel.devices()`` list the accelerators; errors
reported by the library raise ``tflaccel.Error`` (a ``RuntimeError``).
"""

from tflaccel._tflaccel import Error, Event, TensorBuffer, devices, plugins, version
from tflaccel.compiled_model import CompiledModel
from tflaccel.interpreter import Interpreter

__version__ = version()

__all__ = ["CompiledModel", "Error", "Event", "Interpreter", "TensorBuffer", "devices", "plugins",
           "version"]
