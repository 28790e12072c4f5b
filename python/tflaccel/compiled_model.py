"""tflaccel.CompiledModel: LiteRT's CompiledModel API on numpy arrays."""

import os

import numpy as np

from tflaccel import _tflaccel


def _path_text(path):
    return None if path is None else os.fspath(path)


def _native_of(model):
    return model._native if isinstance(model, CompiledModel) else model


class CompiledModel:
    """A .tflite model compiled for the selected accelerators.

    Make one with :meth:`from_file` or :meth:`from_buffer`. ``run`` takes one
    numpy array per input (dtype and shape exactly the input's) and returns one
    per output. The GIL is released while the model runs, so models in
    different threads run at the same time; one model runs one call at a time.
    """

    def __init__(self, native):
        """Wraps a ``tflaccel._tflaccel.CompiledModel``; use from_file/from_buffer."""
        self._native = native
        self._inputs = native.input_details()
        self._outputs = native.output_details()

    @classmethod
    def from_file(cls, path, accelerator=None, precision=None, threads=None, cache_dir=None,
                  config=None, log_level=None, model_token=None, share_environment=None):
        """Loads and compiles the model file at ``path``.

        accelerator: plugin names or classes in preference order, e.g.
            ``"gpu_vk,cpu_ref"`` or ``"gpu,cpu"``; None takes
            ``$TFLACCEL_ACCELERATOR`` or the config's order. cpu_ref always
            runs what the others decline.
        precision: ``"fp32"`` or ``"fp16"``; None takes the config's.
        threads: CPU threads for cpu_ref; None takes the config's.
        cache_dir: the compiled-model cache's directory, where GPU plugins
            keep what they compiled (made when its parent exists; one that
            cannot be used turns the cache off with a warning); None takes
            the config's (by default ``~/.cache/tflaccel``).
        config: the tflaccel.ini to read instead of the usual search.
        log_level: "debug", "info", "warning" or "error"; None takes $TFLACCEL_LOG.
        model_token: the application's own key for this model in the cache
            (LiteRT's serialization token); it must change whenever the model
            does. None: tflaccel fingerprints the model's bytes.
        share_environment: another CompiledModel whose environment (plugins
            and devices) this one uses, as LiteRT's models share an
            Environment: then each model's device buffers and events are
            on the other's devices too, so one model's output buffer can be
            wrapped as the other's input. accelerator, cache_dir, config and
            log_level must then be None. The other model is kept alive.
        """
        return cls(_tflaccel.CompiledModel(
            path=_path_text(path), accelerator=accelerator, precision=precision,
            threads=threads or 0, cache_dir=_path_text(cache_dir), config=_path_text(config),
            log_level=log_level, model_token=model_token,
            share_environment=_native_of(share_environment)))

    @classmethod
    def from_buffer(cls, data, accelerator=None, precision=None, threads=None, cache_dir=None,
                    config=None, log_level=None, model_token=None, share_environment=None):
        """Same as :meth:`from_file` for a model in memory (bytes-like; copied)."""
        return cls(_tflaccel.CompiledModel(
            content=data, accelerator=accelerator, precision=precision, threads=threads or 0,
            cache_dir=_path_text(cache_dir), config=_path_text(config), log_level=log_level,
            model_token=model_token, share_environment=_native_of(share_environment)))

    # ---- Signatures and tensors ------------------------------------------

    def get_input_details(self):
        """One dict per input, with tflite_runtime's keys (name, index, shape,
        shape_signature, dtype, quantization, quantization_parameters,
        sparsity_parameters)."""
        return self._native.input_details()

    def get_output_details(self):
        """One dict per output, as :meth:`get_input_details`."""
        return self._native.output_details()

    def get_signature_list(self):
        """``{key: {"inputs": [names], "outputs": [names]}}`` of the model's
        SignatureDefs, names sorted as tflite_runtime sorts them."""
        return {
            signature["key"]: {
                "inputs": sorted(name for name, _ in signature["inputs"]),
                "outputs": sorted(name for name, _ in signature["outputs"]),
            }
            for signature in self._native.signatures()
        }

    def get_signatures(self):
        """The SignatureDefs in full: key, subgraph, and inputs and outputs as
        ``(name, tensor index)`` pairs in file order."""
        return self._native.signatures()

    @property
    def input_names(self):
        """Names of the inputs, in order."""
        return [details["name"] for details in self._inputs]

    @property
    def output_names(self):
        """Names of the outputs, in order."""
        return [details["name"] for details in self._outputs]

    # ---- Buffers and running ---------------------------------------------

    def create_input_buffers(self):
        """One zero-filled array per input, of its dtype and shape."""
        return [np.zeros(d["shape"], dtype=d["dtype"]) for d in self._inputs]

    def create_output_buffers(self):
        """One zero-filled array per output; pass them to ``run(outputs=...)``
        to have the outputs written in place."""
        return [np.zeros(d["shape"], dtype=d["dtype"]) for d in self._outputs]

    def run(self, inputs, outputs=None):
        """Runs the model once and returns the list of output arrays.

        inputs: a list of arrays in input order, or a dict keyed by input
            name. Each must have the input's dtype and shape (no conversion is
            made); C-ordered arrays are read in place, others copied once.
        outputs: optional arrays (from :meth:`create_output_buffers`) written
            in place and returned; else new arrays are returned.
        """
        if isinstance(inputs, dict):
            inputs = self._ordered(inputs)
        return self._native.run(inputs, outputs)

    # ---- Device buffers and asynchronous runs ------------------------------

    def buffer_requirements(self, index, output=False):
        """What input (or output) ``index`` takes: ``{"types": ["host",
        "vulkan"], "size": bytes, "alignment": bytes, "accelerator": "gpu_vk"}``;
        ``types`` is ``["host"]`` alone (and ``accelerator`` None) when no
        accelerator's device alone reads (writes) it."""
        return self._native.buffer_requirements(index, output=output)

    def create_input_buffer(self, index, type="device"):
        """A :class:`TensorBuffer` for input ``index``. ``type="device"``: in
        the memory of the accelerator that reads it (``tflaccel.Error``, code
        ``UNSUPPORTED``, when it takes host buffers only); ``"host"``, or a
        type its requirements list (``"opencl"``, ``"gl"``, ``"vulkan"``)."""
        return self._native.create_buffer(index, output=False, type=type)

    def create_output_buffer(self, index, type="device"):
        """A :class:`TensorBuffer` for output ``index``, as :meth:`create_input_buffer`."""
        return self._native.create_buffer(index, output=True, type=type)

    def native_device(self, index, is_output=False):
        """The API objects of the accelerator that reads input ``index`` (or
        writes output ``index``), as ints, so that another library can make
        memory and sync objects on the same device: ``{"type": "opencl",
        "offset_alignment": bytes, "cl_platform", "cl_device", "cl_context",
        "cl_queue", "vk_instance", "vk_physical_device", "vk_device",
        "vk_queue_family", "egl_display", "egl_context"}`` (0 for another
        API's). E.g. ``pyopencl.Context.from_int_ptr(d["cl_context"])``.
        ``tflaccel.Error`` when the tensor takes host buffers only."""
        return self._native.native_device(index, is_output=is_output)

    def wrap_input_buffer(self, index, type, handle, *, offset=0, size=None, memory=0,
                          keep=None):
        """A :class:`TensorBuffer` over the application's own device memory
        for input ``index``, used in place (nothing is copied).

        type: ``"opencl"`` (handle: a cl_mem's address, e.g. a pyopencl
            Buffer's ``int_ptr``), ``"gl"`` (a GL buffer name), ``"vulkan"``
            (a VkBuffer; memory: its VkDeviceMemory), ``"dmabuf"`` or
            ``"opaque_fd"`` (an fd; for opaque_fd, memory: the allocation's
            byte size), or ``"device"`` for the accelerator's own type. It
            must be a type of :meth:`buffer_requirements`, and the object must
            belong to :meth:`native_device`'s device.
        offset: where the tensor starts in the object (a multiple of the
            requirements' alignment); size: its bytes, None for the tensor's.
        keep: any object the TensorBuffer holds a reference to until it is
            closed, e.g. the pyopencl Buffer or the TensorBuffer the handle
            comes from.

        The native object must outlive the TensorBuffer: it does not free
        or retain it (keep= helps where a Python object owns it). Each
        mismatch (type, device, size, offset) raises ``tflaccel.Error``
        with the library's one-line message; a negative or non-int handle,
        offset or size raises ValueError or TypeError."""
        return self._native.wrap_buffer(index, type, handle, output=False, offset=offset,
                                        size=size, memory=memory, keep=keep)

    def wrap_output_buffer(self, index, type, handle, *, offset=0, size=None, memory=0,
                           keep=None):
        """A :class:`TensorBuffer` over the application's own device memory
        for output ``index``, as :meth:`wrap_input_buffer`."""
        return self._native.wrap_buffer(index, type, handle, output=True, offset=offset,
                                        size=size, memory=memory, keep=keep)

    def run_buffers(self, inputs, outputs):
        """Runs the model on :class:`TensorBuffer` objects (a list, or a dict of
        inputs by name) and returns when the outputs are written. Device
        buffers bound where their accelerator reads or writes them move
        nothing through host memory (see :meth:`last_run_stats`)."""
        if isinstance(inputs, dict):
            inputs = self._ordered(inputs)
        self._native.run_buffers(inputs, outputs)

    def run_async(self, inputs, outputs):
        """Queues a run on :class:`TensorBuffer` objects and returns an
        :class:`Event` at once; ``event.wait()`` blocks until the outputs are
        written (raising ``tflaccel.Error`` if the run failed) and
        ``event.done`` polls. Runs of one model happen in the order queued;
        ``TensorBuffer.read()`` waits for the run writing the buffer. The
        event keeps the buffers alive, and dropping it waits for the run."""
        if isinstance(inputs, dict):
            inputs = self._ordered(inputs)
        return self._native.run_async(inputs, outputs)

    def last_run_stats(self):
        """``{"host_copies": n, "host_copy_bytes": bytes}`` of the latest
        completed run: tensor copies through host memory (0 for a run whose
        inputs and outputs are device buffers used in place)."""
        return self._native.last_run_stats()

    def _ordered(self, named):
        names = self.input_names
        unknown = sorted(set(named) - set(names))
        missing = [name for name in names if name not in named]
        if unknown or missing:
            raise ValueError("inputs by name: unknown %s, missing %s (the inputs are %s)"
                             % (unknown, missing, names))
        return [named[name] for name in names]

    def reset_state(self):
        """Restores variable (state) tensors, e.g. an LSTM's, to their initial values."""
        self._native.reset_state()

    # ---- What runs where -------------------------------------------------

    def partitions(self):
        """The partition plan: one dict per partition with ``accelerator``,
        ``ops`` (op indices of the prepared graph, after load-time folding),
        ``op_names`` ("CONV_2D", or a custom op's code), ``inputs`` and
        ``outputs`` (boundary tensor indices), ``boundary_bytes`` and
        ``precision`` ("fp32" or "fp16": the requested one, or fp32 for ops
        an accelerator holds exactly only in fp32)."""
        return self._native.partitions()

    def placement(self):
        """``{accelerator: op count}``: how many ops each accelerator runs."""
        counts = {}
        for partition in self._native.partitions():
            name = partition["accelerator"]
            counts[name] = counts.get(name, 0) + len(partition["ops"])
        return counts

    @property
    def precision(self):
        """"fp32" or "fp16", after the config's defaults were applied."""
        return self._native.settings()["precision"]

    @property
    def threads(self):
        """CPU threads cpu_ref uses."""
        return self._native.settings()["threads"]

    @property
    def accelerator(self):
        """The accelerator selection, in preference order ("gpu_vk,cpu_ref")."""
        return self._native.settings()["accelerator"]
