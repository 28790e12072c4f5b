"""The GIL is released while a model runs: two threads running two models
overlap. Checked by overlap of the runs' intervals, not by timing figures."""

import threading
import time

import numpy as np

import tflaccel


def test_two_models_run_at_the_same_time(small_model):
    models = [tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
              for _ in range(2)]
    inputs = models[0].create_input_buffers()
    intervals = [[], []]
    results = [None, None]
    barrier = threading.Barrier(2)

    def work(k):
        barrier.wait()
        for _ in range(4):
            start = time.perf_counter()
            results[k] = models[k].run(inputs)[0]
            intervals[k].append((start, time.perf_counter()))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    np.testing.assert_array_equal(results[0], results[1])
    # With the GIL held during run(), no two runs could overlap in time.
    overlaps = sum(1 for a0, a1 in intervals[0] for b0, b1 in intervals[1]
                   if a0 < b1 and b0 < a1)
    assert overlaps > 0, intervals


def test_one_model_shared_by_threads(small_model):
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
    inputs = model.create_input_buffers()
    expected = model.run(inputs)[0]
    failures = []

    def work():
        for _ in range(3):
            if not np.array_equal(model.run(inputs)[0], expected):
                failures.append("different result")

    threads = [threading.Thread(target=work) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
