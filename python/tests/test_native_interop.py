"""Other libraries' GPU memory and sync objects in tflaccel (issue #16):
CompiledModel.native_device / wrap_input_buffer / wrap_output_buffer and
Event.native / Event.from_native / TensorBuffer.set_event.

Model A (hand_recrop, tests/data) writes its output into a device buffer;
model B (x + x, written by tiny_model.py, whose input is A's output shape)
shares A's environment, wraps that buffer through its native handle as its
input and reads it in place: no host copy, and B's outputs equal B run on
A's host outputs. The same chain is gated by A's output event exported as
a native object and wrapped back."""

import sys

import numpy as np
import pytest

import tflaccel
import tiny_model

GPU_PLUGINS = {"gpu_vk": "vulkan", "gpu_cl": "opencl"}


def gpu_available(plugin):
    info = {p["name"]: p for p in tflaccel.plugins(accelerator=plugin)}.get(plugin)
    if info is None or not info["available"]:
        pytest.skip("%s is not available here: %s" % (
            plugin, info["reason"] if info else "not configured"))


def chain(small_model, plugin):
    """(A, B, A's input frame): A on `plugin` alone, B sharing its environment."""
    gpu_available(plugin)
    first = tflaccel.CompiledModel.from_file(small_model, accelerator=plugin, log_level="error")
    shape = first.get_output_details()[0]["shape"]
    second = tflaccel.CompiledModel.from_buffer(tiny_model.add_self_model(list(shape)),
                                                share_environment=first)
    for model in (first, second):
        assert model.placement() == {plugin: sum(model.placement().values())}, (
            "%s does not run all of the model here: %s" % (plugin, model.placement()))
    details = first.get_input_details()[0]
    image = np.random.default_rng(7).uniform(-1, 1, details["shape"]).astype(details["dtype"])
    return first, second, image


@pytest.mark.parametrize("plugin", sorted(GPU_PLUGINS))
def test_output_buffer_wrapped_as_next_models_input(small_model, plugin):
    first, second, image = chain(small_model, plugin)
    expected = second.run(first.run([image]))

    device = second.native_device(0)
    assert device["type"] == GPU_PLUGINS[plugin] and device["offset_alignment"] >= 1
    handles = ("cl_context", "cl_device", "cl_queue") if plugin == "gpu_cl" else (
        "vk_instance", "vk_physical_device", "vk_device")
    assert all(isinstance(device[key], int) and device[key] != 0 for key in handles)
    # Shared environment: both models are on the same device.
    assert first.native_device(0, is_output=True) == device

    source = first.create_input_buffer(0)
    produced = first.create_output_buffer(0)
    source.write(image)
    first.run_buffers([source], [produced])
    native = produced.native()
    wrapped = second.wrap_input_buffer(0, native["type"], native["handle"],
                                       offset=native["offset"], memory=native["memory"],
                                       keep=produced)
    assert wrapped.type == GPU_PLUGINS[plugin] and wrapped.nbytes == native["size"]
    result = second.create_output_buffer(0)
    second.run_buffers([wrapped], [result])
    assert second.last_run_stats() == {"host_copies": 0, "host_copy_bytes": 0}
    np.testing.assert_array_equal(result.read(), expected[0])
    # A host read of the wrapped buffer reads the memory it wraps.
    np.testing.assert_array_equal(wrapped.read(), produced.read())

    # An output wrapped alike ("device": the accelerator's own type): B
    # writes another buffer's memory in place, read back through that one.
    destination = second.create_output_buffer(0)
    other = destination.native()
    target = second.wrap_output_buffer(0, "device", other["handle"], memory=other["memory"],
                                       keep=destination)
    second.run_buffers([wrapped], [target])
    assert second.last_run_stats()["host_copies"] == 0
    np.testing.assert_array_equal(target.read(), expected[0])
    np.testing.assert_array_equal(destination.read(), expected[0])
    del produced, destination  # the wrappers keep them: their memory stays valid
    second.run_buffers([wrapped], [target])
    np.testing.assert_array_equal(target.read(), expected[0])
    target.close()
    wrapped.close()


@pytest.mark.parametrize("plugin", sorted(GPU_PLUGINS))
def test_exported_event_wrapped_back_gates_a_run(small_model, plugin):
    first, second, image = chain(small_model, plugin)
    expected = second.run(first.run([image]))
    source = first.create_input_buffer(0)
    produced = first.create_output_buffer(0)
    source.write(image)
    event = first.run_async([source], [produced])
    kind, handle, value = event.native()
    assert kind != "none" and handle != 0
    assert event.native(type=kind) == (kind, handle, value)

    gate = tflaccel.Event.from_native(second, kind, handle, value, keep=event)
    native = produced.native()
    wrapped = second.wrap_input_buffer(0, native["type"], native["handle"],
                                       memory=native["memory"], keep=produced)
    wrapped.set_event(gate)
    result = second.create_output_buffer(0)
    done = second.run_async([wrapped], [result])
    done.wait()
    assert done.done and gate.done and event.done
    np.testing.assert_array_equal(result.read(), expected[0])
    assert second.last_run_stats()["host_copies"] == 0
    wrapped.set_event(None)
    assert wrapped.event() is None


def test_application_event_gates_a_run_on_the_cpu(small_model):
    """An Event of the core (no native object) set on a host input: native()
    is refused with UNSUPPORTED, and set_event still orders the run."""
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
    image = np.zeros(model.get_input_details()[0]["shape"], np.float32)
    expected = model.run([image])
    source = model.create_input_buffer(0, type="host")
    output = model.create_output_buffer(0, type="host")
    source.write(image)
    first = model.run_async([source], [output])
    first.wait()
    with pytest.raises(tflaccel.Error) as error:
        first.native()
    assert error.value.code == "UNSUPPORTED" and "\n" not in str(error.value)
    gate = output.event()
    source.set_event(gate)
    assert source.event() is not None
    model.run_async([source], [output]).wait()
    np.testing.assert_array_equal(output.read(), expected[0])
    # A buffer holds what its event needs (the model), never the Event and
    # so never the run's buffers: setting a run's Event on one of that
    # run's buffers makes no reference cycle.
    event = model.run_async([source], [output])
    references = sys.getrefcount(event)
    source.set_event(event)
    assert sys.getrefcount(event) == references
    event.wait()
    source.set_event(None)


def test_bad_native_arguments(small_model):
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
    with pytest.raises(tflaccel.Error, match="host") as error:
        model.native_device(0)
    assert "\n" not in str(error.value)
    with pytest.raises(ValueError, match="type must be 'host', 'opencl'.*'opaque_fd' or "
                                         "'device', not 'cuda'"):
        model.wrap_input_buffer(0, "cuda", 1)
    with pytest.raises(ValueError, match="handle must be 0 or more, not -1"):
        model.wrap_input_buffer(0, "opencl", -1)
    with pytest.raises(ValueError, match="offset must be 0 or more"):
        model.wrap_input_buffer(0, "opencl", 1, offset=-16)
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        model.wrap_input_buffer(0, "opencl", 1 << 64)
    with pytest.raises(TypeError, match="handle must be an int"):
        model.wrap_input_buffer(0, "opencl", "0x10")
    with pytest.raises(tflaccel.Error) as error:  # the input takes host buffers only
        model.wrap_input_buffer(0, "opencl", 1)
    assert error.value.code == "INVALID_ARGUMENT" and "\n" not in str(error.value)
    with pytest.raises(tflaccel.Error, match="wrap host memory"):
        model.wrap_output_buffer(0, "host", 1)
    with pytest.raises(tflaccel.Error):
        model.wrap_input_buffer(9, "opencl", 1)

    with pytest.raises(ValueError, match="native event type must be 'opencl'.*'opaque_fd', "
                                         "not 'cuda_event'"):
        tflaccel.Event.from_native(model, "cuda_event", 1)
    with pytest.raises(ValueError, match="not 'none'"):
        tflaccel.Event.from_native(model, "none", 1)
    with pytest.raises(ValueError, match="handle must be 0 or more"):
        tflaccel.Event.from_native(model, "opencl", -5)
    with pytest.raises(TypeError, match="expected a tflaccel CompiledModel"):
        tflaccel.Event.from_native(object(), "opencl", 1)
    with pytest.raises(tflaccel.Error) as error:  # cpu_ref makes no native events
        tflaccel.Event.from_native(model, "opencl", 1)
    assert "\n" not in str(error.value)
    with pytest.raises(tflaccel.Error):
        tflaccel.Event.from_native(model, "opencl", 1, accelerator="no_such_plugin")

    buffer = model.create_input_buffer(0, type="host")
    with pytest.raises(TypeError, match="expected a tflaccel Event"):
        buffer.set_event(buffer)
    with pytest.raises(ValueError, match="native event type must be"):
        tflaccel.Event.native(buffer.event() or model.run_async(
            [buffer], [model.create_output_buffer(0, type="host")]), type="cuda_event")
    with pytest.raises(ValueError, match="give none of them"):
        tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref",
                                         share_environment=model)
    with pytest.raises(TypeError, match="share_environment: expected a tflaccel CompiledModel"):
        tflaccel.CompiledModel.from_file(small_model, share_environment="model")


def test_pyopencl_buffer_wrapped(small_model):
    """A buffer another OpenCL library made on the accelerator's context."""
    cl = pytest.importorskip("pyopencl", reason="pyopencl is not installed (optional: "
                             "python3-pyopencl); the opencl round trip above covers wrapping")
    gpu_available("gpu_cl")
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="gpu_cl", log_level="error")
    device = model.native_device(0)
    context = cl.Context.from_int_ptr(device["cl_context"], retain=True)
    queue = cl.CommandQueue.from_int_ptr(device["cl_queue"], retain=True)
    details = model.get_input_details()[0]
    image = np.random.default_rng(3).uniform(-1, 1, details["shape"]).astype(np.float32)
    expected = model.run([image])
    memory = cl.Buffer(context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                       hostbuf=image)
    queue.finish()
    wrapped = model.wrap_input_buffer(0, "opencl", memory.int_ptr, keep=memory)
    outputs = [model.create_output_buffer(k) for k in range(len(expected))]
    model.run_buffers([wrapped], outputs)
    assert model.last_run_stats()["host_copies"] == 0
    for ours, theirs in zip(outputs, expected):
        np.testing.assert_array_equal(ours.read(), theirs)
