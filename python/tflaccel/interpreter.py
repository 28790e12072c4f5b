"""tflaccel.interpreter: tflite_runtime's Interpreter API over tflaccel.

``import tflite_runtime.interpreter as tflite`` becomes
``import tflaccel.interpreter as tflite``; the rest of a script stays as it
is. The model runs where tflaccel's accelerator selection says (the
``accelerator=`` argument, ``$TFLACCEL_ACCELERATOR`` or tflaccel.ini).

Differences: only the model's inputs and outputs can be read (tflaccel keeps
intermediate tensors inside the runtime); inputs cannot be resized to a new
shape; TFLite delegates are not loaded (tflaccel's plugins take their place).
Each raises ValueError saying so.
"""

import numpy as np

from tflaccel import _tflaccel
from tflaccel.compiled_model import _path_text

__all__ = ["Interpreter", "SignatureRunner", "load_delegate"]


def load_delegate(library, options=None):
    """Refuses: tflaccel does not load TFLite delegates. Its accelerator
    plugins take their place: pass ``accelerator="gpu_vk,cpu_ref"`` (or
    ``gpu``, ``gpu_cl``, ``gpu_gl``) to ``Interpreter`` instead."""
    raise ValueError(
        "tflaccel does not load TFLite delegates (%r); choose accelerators with "
        "Interpreter(..., accelerator='gpu,cpu') or $TFLACCEL_ACCELERATOR" % (library,))


class Interpreter:
    """Interpreter interface for running TensorFlow Lite models with tflaccel.

    model_path / model_content: the .tflite file or its bytes (one of them).
    experimental_delegates: must be empty (see load_delegate).
    num_threads: CPU threads for the reference CPU plugin (None: config).
    accelerator: tflaccel's selection, e.g. "gpu_vk,cpu_ref" (None: the
        environment's or config's).
    precision, cache_dir, config: as for tflaccel.CompiledModel.from_file.
    The remaining tflite_runtime arguments are accepted and ignored.
    """

    def __init__(self, model_path=None, model_content=None, experimental_delegates=None,
                 num_threads=None, experimental_op_resolver_type=None,
                 experimental_preserve_all_tensors=False,
                 experimental_disable_delegate_clustering=False,
                 experimental_default_delegate_latest_features=False,
                 *, accelerator=None, precision=None, cache_dir=None, config=None):
        if experimental_delegates:
            raise ValueError(
                "tflaccel does not load TFLite delegates; choose accelerators with "
                "accelerator='gpu,cpu' or $TFLACCEL_ACCELERATOR")
        if num_threads is not None and (not isinstance(num_threads, int) or num_threads < -1):
            raise ValueError("num_threads should be >= 1 (or -1 for the default)")
        if (model_path is None) == (model_content is None):
            raise ValueError("Can't both provide `model_path` and `model_content`"
                             if model_path is not None else
                             "`model_path` or `model_content` must be specified.")
        threads = num_threads if num_threads is not None and num_threads > 0 else 0
        self._native = _tflaccel.CompiledModel(
            path=_path_text(model_path), content=model_content, accelerator=accelerator,
            precision=precision, threads=threads, cache_dir=_path_text(cache_dir),
            config=_path_text(config))
        self._input_details = self._native.input_details()
        self._output_details = self._native.output_details()
        self._signatures = {s["key"]: s for s in self._native.signatures()}
        self._inputs = None
        self._outputs = None

    # ---- Tensors ---------------------------------------------------------

    def allocate_tensors(self):
        """Allocates the input and output tensors (zero-filled)."""
        if self._inputs is None:
            self._inputs = [np.zeros(d["shape"], dtype=d["dtype"]) for d in self._input_details]
            self._outputs = [np.zeros(d["shape"], dtype=d["dtype"])
                             for d in self._output_details]

    def get_input_details(self):
        """A list of dicts, one per input: name, index (tensor index), shape,
        shape_signature, dtype, quantization, quantization_parameters,
        sparsity_parameters."""
        return self._native.input_details()

    def get_output_details(self):
        """A list of dicts, one per output, as get_input_details."""
        return self._native.output_details()

    def get_tensor_details(self):
        """Details of every tensor of the model, as stored in the file (only
        inputs and outputs can be read with get_tensor)."""
        return self._native.tensor_details()

    def _slot(self, tensor_index):
        """('input'|'output', position) of a tensor index, or ValueError."""
        for position, details in enumerate(self._input_details):
            if details["index"] == tensor_index:
                return "input", position
        for position, details in enumerate(self._output_details):
            if details["index"] == tensor_index:
                return "output", position
        raise ValueError(
            "Tensor %r is neither an input nor an output of the model; tflaccel keeps "
            "intermediate tensors inside the runtime (inputs %s, outputs %s)"
            % (tensor_index, [d["index"] for d in self._input_details],
               [d["index"] for d in self._output_details]))

    def _array(self, tensor_index):
        if self._inputs is None:
            raise RuntimeError("allocate_tensors() must be called first")
        kind, position = self._slot(tensor_index)
        return (self._inputs if kind == "input" else self._outputs)[position]

    def set_tensor(self, tensor_index, value):
        """Copies value into input tensor_index. The dtype must be the
        input's exactly and the shape the input's (ValueError otherwise)."""
        kind, position = self._slot(tensor_index)
        if kind != "input":
            raise ValueError("Cannot set tensor %d: it is an output of the model; only inputs "
                             "can be set" % tensor_index)
        details = self._input_details[position]
        value = np.asarray(value)
        expected = np.dtype(details["dtype"])
        if value.dtype != expected:
            raise ValueError(
                "Cannot set tensor: Got value of type %s but expected type %s for input %d, "
                "name: %s" % (value.dtype.name.upper(), expected.name.upper(), tensor_index,
                              details["name"]))
        if tuple(value.shape) != tuple(details["shape"]):
            raise ValueError(
                "Cannot set tensor: Dimension mismatch. Got shape %s but expected %s for "
                "input %d, name: %s" % (list(value.shape), list(details["shape"]),
                                        tensor_index, details["name"]))
        self.allocate_tensors()
        np.copyto(self._inputs[position], value)

    def get_tensor(self, tensor_index):
        """A copy of input or output tensor_index."""
        return self._array(tensor_index).copy()

    def tensor(self, tensor_index):
        """A function returning a numpy view of input or output tensor_index:
        writing into the view sets the input; after invoke() the view of an
        output holds the result (the same array is reused by every run)."""
        self._slot(tensor_index)
        return lambda: self._array(tensor_index)

    def resize_tensor_input(self, input_index, tensor_size, strict=False):
        """Only accepts the input's current shape: tflaccel compiles for the
        shapes stored in the model."""
        kind, position = self._slot(input_index)
        shape = list(self._input_details[position]["shape"]) if kind == "input" else None
        if kind != "input" or list(np.asarray(tensor_size).ravel()) != shape:
            raise ValueError(
                "tflaccel cannot resize input %d to %s: models run with the shapes stored in "
                "the file (%s)" % (input_index, list(np.asarray(tensor_size).ravel()), shape))

    # ---- Running ---------------------------------------------------------

    def invoke(self):
        """Runs the model on the inputs set; the GIL is released meanwhile."""
        self.allocate_tensors()
        self._native.run(self._inputs, self._outputs)

    def reset_all_variables(self):
        """Restores variable (state) tensors to their initial values."""
        self._native.reset_state()

    # ---- Signatures ------------------------------------------------------

    def get_signature_list(self):
        """``{key: {"inputs": [names], "outputs": [names]}}`` for every
        SignatureDef of the model ({} when it has none)."""
        return {key: {"inputs": sorted(name for name, _ in s["inputs"]),
                      "outputs": sorted(name for name, _ in s["outputs"])}
                for key, s in self._signatures.items()}

    def get_signature_runner(self, signature_key=None):
        """A SignatureRunner for signature_key (None: the model's only one)."""
        if signature_key is None:
            if len(self._signatures) != 1:
                raise ValueError(
                    "SignatureDef signature_key is None and model has %d Signatures. None is "
                    "only allowed when the model has 1 SignatureDef" % len(self._signatures))
            signature_key = next(iter(self._signatures))
        if signature_key not in self._signatures:
            raise ValueError("Invalid signature_key provided: %r (the model has %s)"
                             % (signature_key, sorted(self._signatures)))
        return SignatureRunner(self, self._signatures[signature_key])


class SignatureRunner:
    """Runs one SignatureDef: call it with one keyword array per input name;
    it returns a dict of output name to array."""

    def __init__(self, interpreter, signature):
        if signature["subgraph"] != 0:
            raise ValueError("signature %r runs subgraph %d; tflaccel runs subgraph 0 only"
                             % (signature["key"], signature["subgraph"]))
        self._interpreter = interpreter
        self._signature = signature
        self._inputs = dict(signature["inputs"])
        self._outputs = dict(signature["outputs"])
        for name, tensor in list(self._inputs.items()) + list(self._outputs.items()):
            interpreter._slot(tensor)  # every tensor must be a model input or output

    def _details(self, names):
        by_index = {d["index"]: d for d in (self._interpreter.get_input_details()
                                            + self._interpreter.get_output_details())}
        return {name: by_index[tensor] for name, tensor in names.items()}

    def get_input_details(self):
        """``{input name: details}``, the details as Interpreter gives them."""
        return self._details(self._inputs)

    def get_output_details(self):
        """``{output name: details}``."""
        return self._details(self._outputs)

    def __call__(self, **kwargs):
        """Runs with the named inputs; returns ``{output name: array}``."""
        unknown = sorted(set(kwargs) - set(self._inputs))
        if unknown:
            raise ValueError("Invalid Input name (%s) for SignatureDef %r; its inputs are %s"
                             % (", ".join(unknown), self._signature["key"],
                                sorted(self._inputs)))
        missing = sorted(set(self._inputs) - set(kwargs))
        if missing:
            raise ValueError("SignatureDef %r: missing input(s) %s"
                             % (self._signature["key"], missing))
        interpreter = self._interpreter
        interpreter.allocate_tensors()
        for name, value in kwargs.items():
            interpreter.set_tensor(self._inputs[name], value)
        interpreter.invoke()
        return {name: interpreter.get_tensor(tensor) for name, tensor in self._outputs.items()}
