"""When ai-edge-litert is importable, its Interpreter and tflaccel's give the
same outputs for the same inputs, within the reference tolerances."""

import numpy as np
import pytest

import tflaccel.interpreter as tflaccel_tflite
from conftest import check_output, read_inputs, reference_params, reference_runs

litert = pytest.importorskip("ai_edge_litert.interpreter",
                             reason="ai-edge-litert is not installed (optional peer)")


def run(module, model_path, reference_dir, **kwargs):
    interpreter = module.Interpreter(model_path=str(model_path), **kwargs)
    interpreter.allocate_tensors()
    details = interpreter.get_input_details()
    runs, _ = reference_runs(reference_dir)
    for _ in range(runs):
        for d, value in zip(details, read_inputs(reference_dir, details)):
            interpreter.set_tensor(d["index"], value)
        interpreter.invoke()
    return interpreter, [interpreter.get_tensor(d["index"])
                         for d in interpreter.get_output_details()]


@pytest.mark.parametrize("case", reference_params())
def test_same_outputs_as_litert(case, tmp_path):
    name, model_path, reference_dir, entry = case
    try:
        # TFLite's built-in kernels, as the references were made with:
        # XNNPACK's quantized kernels round differently.
        theirs_interpreter, theirs = run(
            litert, model_path, reference_dir,
            experimental_op_resolver_type=litert.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    except (RuntimeError, ValueError) as error:
        pytest.skip("LiteRT cannot run %s: %s" % (name, str(error).splitlines()[0]))
    # Where this LiteRT itself misses the stored TFLite reference (a newer
    # kernel library rounding differently), its outputs are no bar for ours.
    for output in entry["outputs"]:
        try:
            check_output(theirs[output["index"]], reference_dir, output, label=name)
        except AssertionError as error:
            pytest.skip("LiteRT itself misses the reference: %s" % str(error).splitlines()[0])
    ours_interpreter, ours = run(tflaccel_tflite, model_path, reference_dir,
                                 accelerator="cpu_ref")
    # The details agree key by key.
    for mine, their in zip(ours_interpreter.get_input_details(),
                           theirs_interpreter.get_input_details()):
        assert mine["name"] == their["name"] and mine["dtype"] == their["dtype"]
        np.testing.assert_array_equal(mine["shape"], their["shape"])
        assert mine["quantization"] == pytest.approx(their["quantization"])
    # LiteRT's output is the reference for tflaccel's, under expected.json's tolerance.
    for output in entry["outputs"]:
        k = output["index"]
        their_file = dict(output, file="litert_%d.bin" % k)
        theirs[k].tofile(tmp_path / their_file["file"])
        check_output(ours[k], tmp_path, their_file, label=name + " vs LiteRT")
