"""Bad input raises, never crashes: wrong dtype or shape, a missing file, a
corrupt model, bad options."""

import numpy as np
import pytest

import tflaccel
import tflaccel.interpreter as tflite


def test_missing_file(tmp_path):
    with pytest.raises(tflaccel.Error) as caught:
        tflaccel.CompiledModel.from_file(tmp_path / "missing.tflite")
    assert "missing.tflite" in str(caught.value)
    assert caught.value.code == "NOT_FOUND"
    # tflite_runtime raises ValueError here; tflaccel.Error is one too.
    with pytest.raises(ValueError):
        tflite.Interpreter(model_path=str(tmp_path / "missing.tflite"))


@pytest.mark.parametrize("cut", [0, 7, 100, 1000, -1])
def test_corrupt_model(small_model, cut):
    data = small_model.read_bytes()
    if cut >= 0:
        data = data[:cut]
    else:  # the file identifier damaged
        data = data[:4] + b"XXXX" + data[8:]
    with pytest.raises(tflaccel.Error) as caught:
        tflaccel.CompiledModel.from_buffer(data)
    assert caught.value.code in ("INVALID_MODEL", "UNSUPPORTED", "INVALID_ARGUMENT")
    with pytest.raises(tflaccel.Error):
        tflite.Interpreter(model_content=data)


def test_garbage_bytes():
    rng = np.random.default_rng(0)
    for _ in range(20):
        with pytest.raises(tflaccel.Error):
            tflaccel.CompiledModel.from_buffer(rng.integers(0, 256, 4096, dtype=np.uint8).tobytes())


def test_set_tensor_wrong_dtype_and_shape(small_model):
    interpreter = tflite.Interpreter(model_path=str(small_model), accelerator="cpu_ref")
    interpreter.allocate_tensors()
    (details,) = interpreter.get_input_details()
    with pytest.raises(ValueError, match="FLOAT64 but expected type FLOAT32"):
        interpreter.set_tensor(details["index"], np.zeros(details["shape"], dtype=np.float64))
    with pytest.raises(ValueError, match="Dimension mismatch"):
        interpreter.set_tensor(details["index"], np.zeros((1, 2, 3), dtype=np.float32))
    with pytest.raises(ValueError, match="only inputs"):
        output_index = interpreter.get_output_details()[0]["index"]
        interpreter.set_tensor(output_index, np.zeros((1, 1, 1, 4), dtype=np.float32))
    with pytest.raises(ValueError):
        interpreter.set_tensor(10**6, np.zeros(1, dtype=np.float32))


def test_run_wrong_arguments(small_model):
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
    good = model.create_input_buffers()
    with pytest.raises(ValueError, match="dtype"):
        model.run([good[0].astype(np.float64)])
    with pytest.raises(ValueError, match="shape"):
        model.run([good[0][0]])
    with pytest.raises(ValueError, match="1 inputs, 2 arrays"):
        model.run(good + good)
    with pytest.raises(TypeError, match="numpy array"):
        model.run([[1.0, 2.0]])
    with pytest.raises(TypeError):
        model.run(5)
    read_only = model.create_output_buffers()
    read_only[0].flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        model.run(good, read_only)
    with pytest.raises(ValueError, match="output 0"):
        model.run(good, [np.zeros((4,), dtype=np.float32)])


def test_bad_options(small_model):
    with pytest.raises(ValueError, match="precision"):
        tflaccel.CompiledModel.from_file(small_model, precision="fp8")
    with pytest.raises(tflaccel.Error):
        tflaccel.CompiledModel.from_file(small_model, accelerator="no_such_plugin")
    with pytest.raises(tflaccel.Error, match="log level"):
        tflaccel.CompiledModel.from_file(small_model, log_level="loud")
    with pytest.raises(ValueError):
        tflite.Interpreter()
    with pytest.raises(ValueError):
        tflite.Interpreter(model_path=str(small_model), num_threads=-5)
