"""tflaccel.TensorBuffer and CompiledModel.run_async: buffers in an
accelerator's memory (the CLI's --io=device), written from numpy, run in
place with no host copy and read back; queued runs and their events; and
the one-line errors for what cannot be done."""

import gc

import numpy as np
import pytest

import tflaccel

GPU_PLUGINS = {"gpu_vk": "vulkan", "gpu_cl": "opencl", "gpu_gl": "gl"}


def frame(model, seed):
    details = model.get_input_details()[0]
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, details["shape"]).astype(details["dtype"])


def gpu_model(path, plugin):
    """The model compiled for `plugin` alone, skipping (with the plugin's
    reason) when it has no device here or does not run the whole model."""
    info = {p["name"]: p for p in tflaccel.plugins(accelerator=plugin)}.get(plugin)
    if info is None or not info["available"]:
        pytest.skip("%s is not available here: %s" % (
            plugin, info["reason"] if info else "not configured"))
    model = tflaccel.CompiledModel.from_file(path, accelerator=plugin, log_level="error")
    if model.placement() != {plugin: sum(model.placement().values())}:
        pytest.skip("%s does not run all of %s here: %s" % (plugin, path.name, model.placement()))
    return model


@pytest.mark.parametrize("plugin", sorted(GPU_PLUGINS))
def test_device_buffers_run_in_place(small_model, plugin):
    model = gpu_model(small_model, plugin)
    wanted = model.buffer_requirements(0)
    # Then the external memory fds the driver imports (C test_external_memory).
    assert wanted["types"][:2] == ["host", GPU_PLUGINS[plugin]] and wanted["accelerator"] == plugin
    assert set(wanted["types"][2:]) <= {"opaque_fd"}
    assert wanted["size"] == model.get_input_details()[0]["shape"].prod() * 4
    image = frame(model, 1)
    expected = model.run([image])
    assert model.last_run_stats()["host_copies"] > 0  # numpy arrays go through the host

    inputs = [model.create_input_buffer(0)]
    outputs = [model.create_output_buffer(k) for k in range(len(expected))]
    for buffer in inputs + outputs:
        assert buffer.type == GPU_PLUGINS[plugin]
    assert inputs[0].shape == image.shape and inputs[0].dtype == image.dtype
    assert inputs[0].nbytes == image.nbytes
    native = inputs[0].native()
    assert native["type"] == GPU_PLUGINS[plugin] and native["handle"] != 0
    assert native["size"] == image.nbytes
    inputs[0].write(image)
    model.run_buffers(inputs, outputs)
    assert model.last_run_stats() == {"host_copies": 0, "host_copy_bytes": 0}
    for ours, reference in zip(outputs, expected):
        np.testing.assert_array_equal(ours.read(), reference)
    np.testing.assert_array_equal(inputs[0].read(), image)


@pytest.mark.parametrize("plugin", sorted(GPU_PLUGINS))
def test_run_async_on_device_buffers(small_model, plugin):
    model = gpu_model(small_model, plugin)
    frames = [frame(model, seed) for seed in range(3)]
    expected = [model.run([image]) for image in frames]
    # One input and output set per frame, all queued before any is waited for.
    inputs = [model.create_input_buffer(0) for _ in frames]
    outputs = [[model.create_output_buffer(k) for k in range(len(expected[0]))] for _ in frames]
    events = []
    for image, input_buffer, output_buffers in zip(frames, inputs, outputs):
        input_buffer.write(image)
        events.append(model.run_async([input_buffer], output_buffers))
    for event, output_buffers, reference in zip(events, outputs, expected):
        event.wait()
        assert event.done
        for ours, theirs in zip(output_buffers, reference):
            np.testing.assert_array_equal(ours.read(), theirs)
    assert model.last_run_stats()["host_copies"] == 0


def test_run_async_on_host_buffers(small_model):
    """The CPU plugin takes host buffers only; run_async works on them alike,
    and each output buffer carries the run's event."""
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
    image = frame(model, 2)
    expected = model.run([image])
    assert model.buffer_requirements(0) == {"types": ["host"], "size": image.nbytes,
                                            "alignment": 1, "accelerator": None}
    with pytest.raises(tflaccel.Error, match="takes host buffers only") as error:
        model.create_input_buffer(0)
    assert error.value.code == "UNSUPPORTED"
    input_buffer = model.create_input_buffer(0, type="host")
    outputs = [model.create_output_buffer(k, type="host") for k in range(len(expected))]
    assert input_buffer.type == "host" and input_buffer.event() is None
    input_buffer.write(image)
    event = model.run_async({model.input_names[0]: input_buffer}, outputs)
    assert isinstance(event, tflaccel.Event)
    outputs[0].event().wait()
    event.wait()
    for ours, theirs in zip(outputs, expected):
        np.testing.assert_array_equal(ours.read(), theirs)
    with pytest.raises(tflaccel.Error, match="host"):
        input_buffer.native()


def test_dropped_event_and_buffers_wait_for_the_run(small_model):
    """Nothing the queued run uses is freed under it: the event keeps the
    buffers, and deallocating it (or a buffer) waits for the run."""
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
    image = frame(model, 3)
    expected = model.run([image])[0]
    kept_output = model.create_output_buffer(0, type="host")
    for _ in range(3):
        input_buffer = model.create_input_buffer(0, type="host")
        input_buffer.write(image)
        model.run_async([input_buffer], [kept_output])  # the event is dropped at once
        del input_buffer
        gc.collect()
    np.testing.assert_array_equal(kept_output.read(), expected)
    output = model.create_output_buffer(0, type="host")
    source = model.create_input_buffer(0, type="host")
    source.write(image)
    event = model.run_async([source], [output])
    del source, output
    event.wait()
    del event, model
    gc.collect()


def test_bad_buffers_and_arguments(small_model):
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
    image = frame(model, 4)
    buffer = model.create_input_buffer(0, type="host")
    output = model.create_output_buffer(0, type="host")
    with pytest.raises(ValueError, match="dtype float64"):
        buffer.write(image.astype(np.float64))
    with pytest.raises(ValueError, match="shape"):
        buffer.write(image[..., :2])
    with pytest.raises(TypeError, match="numpy array"):
        buffer.write([1.0, 2.0])
    with pytest.raises(ValueError, match="type must be"):
        model.create_input_buffer(0, type="cuda")
    with pytest.raises(tflaccel.Error):
        model.create_input_buffer(7, type="host")
    with pytest.raises(TypeError, match="TensorBuffer"):
        model.run_buffers([image], [output])
    with pytest.raises(ValueError, match="1 inputs, 2 buffers"):
        model.run_async([buffer, buffer], [output])
    # An output buffer standing in for the input: the library names the mismatch.
    with pytest.raises(tflaccel.Error):
        model.run_buffers([output], [output])
    with buffer:
        buffer.write(image)
    assert buffer.closed
    with pytest.raises(ValueError, match="closed"):
        buffer.read()
    with pytest.raises(ValueError, match="input 0: the TensorBuffer is closed"):
        model.run_buffers([buffer], [output])
    buffer.close()  # twice is fine
    assert "closed" in repr(buffer)
