"""tflaccel.CompiledModel: every corpus model with a reference matches it;
details, buffers, signatures, partitions, plugins and devices."""

import numpy as np
import pytest

import tflaccel
from conftest import check_output, read_inputs, reference_params, reference_runs


@pytest.mark.parametrize("case", reference_params())
def test_matches_reference(case):
    name, model_path, reference_dir, entry = case
    model = tflaccel.CompiledModel.from_file(model_path, accelerator="cpu_ref")
    inputs = read_inputs(reference_dir, model.get_input_details())
    runs, stateful = reference_runs(reference_dir)
    for check in range(2 if stateful else 1):
        if check:
            model.reset_state()
        for _ in range(runs):
            outputs = model.run(inputs)
        assert len(outputs) == len(model.get_output_details())
        for output in entry["outputs"]:
            check_output(outputs[output["index"]], reference_dir, output, label=name)


def test_from_buffer_and_output_buffers_in_place(small_model):
    from_file = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref", threads=2)
    from_bytes = tflaccel.CompiledModel.from_buffer(small_model.read_bytes(),
                                                    accelerator="cpu_ref")
    inputs = from_file.create_input_buffers()
    assert inputs[0].dtype == np.float32 and inputs[0].shape == (1, 256, 256, 3)
    inputs[0][...] = np.linspace(-1, 1, inputs[0].size, dtype=np.float32).reshape(inputs[0].shape)
    outputs = from_bytes.create_output_buffers()
    returned = from_bytes.run(inputs, outputs)
    assert returned[0] is outputs[0]
    np.testing.assert_array_equal(outputs[0], from_file.run(inputs)[0])
    assert np.any(outputs[0] != 0)
    assert from_file.threads == 2
    assert from_file.precision == "fp32"
    assert from_file.accelerator.split(",")[0] == "cpu_ref"


def test_inputs_by_name_and_non_contiguous(small_model):
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
    rng = np.random.default_rng(1)
    image = rng.uniform(-1, 1, (1, 256, 256, 3)).astype(np.float32)
    expected = model.run([image])[0]
    # A Fortran-ordered copy is copied once into C order; same result.
    np.testing.assert_array_equal(model.run([np.asfortranarray(image)])[0], expected)
    np.testing.assert_array_equal(model.run({model.input_names[0]: image})[0], expected)
    with pytest.raises(ValueError, match="unknown"):
        model.run({"no such input": image})


def test_details_have_tflite_runtime_keys(small_model):
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
    (details,) = model.get_input_details()
    assert set(details) == {"name", "index", "shape", "shape_signature", "dtype", "quantization",
                            "quantization_parameters", "sparsity_parameters"}
    assert details["dtype"] is np.float32
    assert details["shape"].dtype == np.int32
    assert details["quantization"] == (0.0, 0)
    assert details["quantization_parameters"]["scales"].size == 0


def test_quantized_details(shared_model):
    model = tflaccel.CompiledModel.from_file(shared_model("tflm__hello_world_int8.tflite"),
                                             accelerator="cpu_ref")
    (details,) = model.get_input_details()
    assert details["dtype"] is np.int8
    scale, zero_point = details["quantization"]
    assert scale > 0
    params = details["quantization_parameters"]
    assert params["scales"].dtype == np.float32 and params["scales"][0] == pytest.approx(scale)
    assert params["zero_points"][0] == zero_point


def test_signatures(shared_model):
    model = tflaccel.CompiledModel.from_file(shared_model("tflm__hello_world_float.tflite"),
                                             accelerator="cpu_ref")
    signatures = model.get_signature_list()
    assert list(signatures) == ["serving_default"]
    assert len(signatures["serving_default"]["inputs"]) == 1
    (full,) = model.get_signatures()
    assert full["subgraph"] == 0
    assert full["inputs"][0][1] == model.get_input_details()[0]["index"]


def test_partition_plan_names_the_accelerator(small_model):
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
    partitions = model.partitions()
    assert partitions and all(p["accelerator"] == "cpu_ref" for p in partitions)
    assert all(p["precision"] == "fp32" for p in partitions)
    assert sum(len(p["ops"]) for p in partitions) == model.placement()["cpu_ref"] > 0
    names = [name for p in partitions for name in p["op_names"]]
    assert len(names) == model.placement()["cpu_ref"] and "CONV_2D" in names


def test_plugins_and_devices():
    plugins = tflaccel.plugins()
    names = [plugin["name"] for plugin in plugins]
    assert "cpu_ref" in names
    cpu_ref = plugins[names.index("cpu_ref")]
    assert cpu_ref["available"] and cpu_ref["device_count"] >= 1
    for plugin in plugins:
        assert plugin["available"] or plugin["reason"]
    devices = tflaccel.devices()
    assert any(device["plugin"] == "cpu_ref" and device["type"] == "cpu" for device in devices)
    assert tflaccel.__version__ == tflaccel.version()


def test_gpu_selection_runs_and_matches(small_model):
    """The default selection (GPU plugins first where one is available) gives
    what cpu_ref gives, within hand_recrop's fp32 tolerance."""
    gpus = [p["name"] for p in tflaccel.plugins() if p["name"].startswith("gpu")
            and p["available"]]
    if not gpus:
        pytest.skip("no GPU plugin is available here")
    reference = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
    model = tflaccel.CompiledModel.from_file(small_model, accelerator=gpus[0] + ",cpu_ref")
    assert gpus[0] in model.placement()
    image = np.random.default_rng(2).uniform(-1, 1, (1, 256, 256, 3)).astype(np.float32)
    ours, ref = model.run([image])[0], reference.run([image])[0]
    assert np.max(np.abs(ours - ref)) <= 1e-4 * max(1.0, float(np.max(np.abs(ref))))


def test_cache_dir(small_model, tmp_path):
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref",
                                             cache_dir=tmp_path)
    assert model.run(model.create_input_buffers())[0].shape == (1, 1, 1, 4)
    # A directory whose parent exists is made, private; one whose parent is
    # missing turns the cache off (a warning) and is not made: the model
    # runs either way.
    made = tmp_path / "made"
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref", cache_dir=made)
    assert model.run(model.create_input_buffers())[0].shape == (1, 1, 1, 4)
    assert made.is_dir() and (made.stat().st_mode & 0o777) == 0o700
    missing = tmp_path / "missing" / "cache"
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref", cache_dir=missing)
    assert model.run(model.create_input_buffers())[0].shape == (1, 1, 1, 4)
    assert not (tmp_path / "missing").exists()


def test_model_token_keys_the_cache(small_model, tmp_path):
    """The application's model_token keys the GPU plugins' cache entries
    (LiteRT's serialization token): the same token reuses them, another
    token makes entries of its own."""
    gpus = [p["name"] for p in tflaccel.plugins() if p["name"].startswith("gpu")
            and p["available"]]
    if not gpus:
        pytest.skip("no GPU plugin is available here: the cache holds GPU partitions only")

    def entries():
        return sorted(path.name for path in tmp_path.iterdir() if path.suffix == ".bin")

    def compile_with(token):
        model = tflaccel.CompiledModel.from_file(small_model, accelerator=gpus[0] + ",cpu_ref",
                                                 cache_dir=tmp_path, model_token=token)
        assert model.run(model.create_input_buffers())[0].shape == (1, 1, 1, 4)

    compile_with("app-token-a")
    first = entries()
    assert first, "no cache entry written for %s" % gpus[0]
    compile_with("app-token-a")
    assert entries() == first
    compile_with("app-token-b")
    assert len(entries()) == 2 * len(first)
