"""Shared helpers of the tflaccel pytest suite: where the models and their
references are, and the comparison under expected.json's tolerances (the
rules of ../shared/models/README.md, as tests/support/model_compare.c applies
them in C)."""

import json
import os
import pathlib

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
TEST_DATA = pathlib.Path(os.environ.get("TFLACCEL_TEST_DATA", REPO / "tests" / "data"))
SHARED_MODELS = pathlib.Path(os.environ.get("TFLACCEL_SHARED_MODELS",
                                            REPO.parent / "shared" / "models"))


def _cases(directory):
    expected_file = directory / "expected.json"
    if not expected_file.is_file():
        return []
    cases = []
    for name, entry in sorted(json.loads(expected_file.read_text()).items()):
        model = directory / entry["model"]
        if entry.get("outputs") and model.is_file() and (directory / "ref" / name).is_dir():
            cases.append((name, model, directory / "ref" / name, entry))
    return cases


def reference_cases():
    """(name, model path, reference dir, expected.json entry) of every model
    with a reference: tests/data's, then ../shared/models' not already seen."""
    cases = _cases(TEST_DATA)
    seen = {case[0] for case in cases}
    cases += [case for case in _cases(SHARED_MODELS) if case[0] not in seen]
    return cases


def reference_params():
    return [pytest.param(case, id=case[0]) for case in reference_cases()]


def reference_runs(reference_dir):
    """(runs, stateful): the reference is the output of the last of `runs`
    runs with state carried over; stateful models' outputs change from run
    to run (LSTM, SVDF state), so their tests also check a reset."""
    manifest = json.loads((reference_dir / "manifest.json").read_text())
    runs = int(manifest.get("options", {}).get("repeat", 1))
    return runs, manifest.get("deterministic_across_repeats") is False


def read_inputs(reference_dir, details):
    """The reference inputs input_K.bin, shaped and typed as the inputs."""
    return [np.fromfile(reference_dir / ("input_%d.bin" % k), dtype=d["dtype"])
            .reshape(d["shape"]) for k, d in enumerate(details)]


def check_output(ours, reference_dir, output, rtol_key="rtol_fp32", label=""):
    """Asserts that ours matches output's reference file under its tolerance."""
    reference = np.fromfile(reference_dir / output["file"], dtype=ours.dtype)
    assert reference.size == ours.size, "%s: %d values, the reference has %d" % (
        label, ours.size, reference.size)
    ours = ours.reshape(-1)
    tolerance = output["tolerance"]
    kind = tolerance["kind"]
    if kind == "float":
        ours64 = ours.astype(np.float64)
        ref64 = reference.astype(np.float64)
        assert np.all(np.isfinite(ours64)), "%s: NaN or Inf in the output" % label
        scale = max(1.0, float(np.max(np.abs(ref64))) if ref64.size else 1.0)
        error = float(np.max(np.abs(ours64 - ref64))) if ref64.size else 0.0
        assert error <= tolerance[rtol_key] * scale, "%s: max error %g > %g x %g" % (
            label, error, tolerance[rtol_key], scale)
    elif kind == "quantized":
        error = int(np.max(np.abs(ours.astype(np.int64) - reference.astype(np.int64))))
        assert error <= tolerance["max_lsb"], "%s: %d LSB apart" % (label, error)
    elif kind == "index":
        identical = float(np.mean(ours == reference))
        assert identical >= tolerance["min_identical_fraction"], "%s: %.4f identical" % (
            label, identical)
    else:
        raise AssertionError("%s: unknown tolerance kind %r" % (label, kind))


@pytest.fixture
def small_model():
    """hand_recrop.tflite: one float input, one output, runs in milliseconds."""
    return TEST_DATA / "hand_recrop.tflite"


@pytest.fixture
def shared_model():
    """A model of ../shared/models by name, skipping when it is absent."""
    def get(name):
        path = SHARED_MODELS / name
        if not path.is_file():
            pytest.skip("%s is absent (../shared/models)" % path)
        return path
    return get
