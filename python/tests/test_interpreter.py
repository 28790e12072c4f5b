"""tflaccel.interpreter.Interpreter, the tflite_runtime API: every corpus model
with a reference matches it; set_tensor/get_tensor/tensor, signature runners,
reset_all_variables."""

import numpy as np
import pytest

import tflaccel
import tflaccel.interpreter as tflite
from conftest import check_output, read_inputs, reference_params, reference_runs


@pytest.mark.parametrize("case", reference_params())
def test_matches_reference(case):
    name, model_path, reference_dir, entry = case
    interpreter = tflite.Interpreter(model_path=str(model_path), accelerator="cpu_ref")
    interpreter.allocate_tensors()
    input_details = interpreter.get_input_details()
    output_details = interpreter.get_output_details()
    runs, stateful = reference_runs(reference_dir)
    for check in range(2 if stateful else 1):
        if check:
            interpreter.reset_all_variables()
        for _ in range(runs):
            for details, value in zip(input_details, read_inputs(reference_dir, input_details)):
                interpreter.set_tensor(details["index"], value)
            interpreter.invoke()
        for output in entry["outputs"]:
            ours = interpreter.get_tensor(output_details[output["index"]]["index"])
            check_output(ours, reference_dir, output, label=name)


def test_exported_names():
    assert tflaccel.Interpreter is tflite.Interpreter
    assert issubclass(tflaccel.Error, RuntimeError)


def test_tensor_view_and_model_content(small_model):
    interpreter = tflite.Interpreter(model_content=small_model.read_bytes(), num_threads=2,
                                     accelerator="cpu_ref")
    interpreter.allocate_tensors()
    (input_details,) = interpreter.get_input_details()
    (output_details,) = interpreter.get_output_details()
    image = np.random.default_rng(3).uniform(-1, 1, input_details["shape"]).astype(np.float32)
    # The tflite idiom: write into the input through tensor()'s view.
    interpreter.tensor(input_details["index"])()[...] = image
    interpreter.invoke()
    through_view = interpreter.tensor(output_details["index"])().copy()
    interpreter.set_tensor(input_details["index"], image)
    interpreter.invoke()
    result = interpreter.get_tensor(output_details["index"])
    np.testing.assert_array_equal(result, through_view)
    np.testing.assert_array_equal(interpreter.get_tensor(input_details["index"]), image)
    # get_tensor returns a copy: changing it changes nothing inside.
    result[...] = 0
    assert np.any(interpreter.get_tensor(output_details["index"]) != 0)


def test_tensor_details(small_model):
    interpreter = tflite.Interpreter(model_path=str(small_model), accelerator="cpu_ref")
    tensors = interpreter.get_tensor_details()
    assert [t["index"] for t in tensors] == list(range(len(tensors)))
    (input_details,) = interpreter.get_input_details()
    assert tensors[input_details["index"]]["name"] == input_details["name"]
    np.testing.assert_array_equal(tensors[input_details["index"]]["shape"],
                                  input_details["shape"])


def test_signature_runner(shared_model):
    interpreter = tflite.Interpreter(model_path=str(shared_model("tflm__hello_world_float.tflite")),
                                     accelerator="cpu_ref")
    signatures = interpreter.get_signature_list()
    (key,) = signatures
    (input_name,) = signatures[key]["inputs"]
    (output_name,) = signatures[key]["outputs"]
    runner = interpreter.get_signature_runner()
    assert set(runner.get_input_details()) == {input_name}
    x = np.array([[1.5]], dtype=np.float32)
    result = runner(**{input_name: x})
    assert set(result) == {output_name}
    # hello_world approximates sin(x).
    assert abs(float(result[output_name].reshape(-1)[0]) - np.sin(1.5)) < 0.2
    with pytest.raises(ValueError, match="Invalid Input name"):
        runner(nope=x)
    with pytest.raises(ValueError, match="signature_key"):
        interpreter.get_signature_runner("nope")


def test_model_without_signatures(small_model):
    interpreter = tflite.Interpreter(model_path=str(small_model), accelerator="cpu_ref")
    assert interpreter.get_signature_list() == {}
    with pytest.raises(ValueError, match="has 0 Signatures"):
        interpreter.get_signature_runner()


def test_unsupported_features_say_so(small_model):
    interpreter = tflite.Interpreter(model_path=str(small_model), accelerator="cpu_ref")
    interpreter.allocate_tensors()
    (details,) = interpreter.get_input_details()
    interpreter.resize_tensor_input(details["index"], details["shape"])  # same shape: fine
    with pytest.raises(ValueError, match="cannot resize"):
        interpreter.resize_tensor_input(details["index"], [2, 256, 256, 3])
    with pytest.raises(ValueError, match="intermediate tensors"):
        interpreter.get_tensor(5)
    with pytest.raises(ValueError, match="delegates"):
        tflite.load_delegate("libedgetpu.so.1")
    with pytest.raises(ValueError, match="delegates"):
        tflite.Interpreter(model_path=str(small_model), experimental_delegates=[object()])
