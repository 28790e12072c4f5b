"""label_image.py, a tflite_runtime example-style script, runs unchanged but
for its import line, on a uint8 classifier (coral__mobilenet_v1_0.25_128_quant)
and a float model (hand_recrop); its top 5 is what tflaccel computes."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tflaccel

SCRIPT = pathlib.Path(__file__).with_name("label_image.py")


def write_inputs(directory, label_count):
    rng = np.random.default_rng(7)
    image = rng.integers(0, 256, (150, 200, 3), dtype=np.uint8)
    ppm = directory / "image.ppm"
    ppm.write_bytes(b"P6\n200 150\n255\n" + image.tobytes())
    labels = directory / "labels.txt"
    labels.write_text("".join("label_%d\n" % i for i in range(label_count)))
    return ppm, labels


def run_script(model, directory, label_count, script=SCRIPT):
    ppm, labels = write_inputs(directory, label_count)
    env = dict(os.environ, TFLACCEL_ACCELERATOR="cpu_ref")
    result = subprocess.run([sys.executable, str(script), "-m", str(model), "-i", str(ppm),
                             "-l", str(labels)], capture_output=True, text=True, env=env,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[-1].startswith("time: ")
    return [(float(line.split(": ")[0]), line.split(": ")[1]) for line in lines[:-1]]


def test_only_the_import_line_differs():
    lines = SCRIPT.read_text().splitlines()
    ours = [line for line in lines if "tflaccel" in line]
    assert ours == ["import tflaccel.interpreter as tflite  # was: import "
                    "tflite_runtime.interpreter as tflite"]


def test_uint8_classifier(shared_model, tmp_path):
    model = shared_model("coral__mobilenet_v1_0.25_128_quant.tflite")
    top5 = run_script(model, tmp_path, 1001)
    assert len(top5) == 5
    scores = [score for score, _ in top5]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)
    assert all(label.startswith("label_") for _, label in top5)


def test_float_model(small_model, tmp_path):
    top = run_script(small_model, tmp_path, 4)
    # The same image through CompiledModel gives the same values.
    model = tflaccel.CompiledModel.from_file(small_model, accelerator="cpu_ref")
    ppm, _ = write_inputs(tmp_path, 4)
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import label_image
    finally:
        sys.path.pop(0)
    image = label_image.resize(label_image.load_ppm(ppm), 256, 256)
    data = (np.float32(image[None]) - 127.5) / 127.5
    results = np.squeeze(model.run([data])[0])
    expected = [(float(results[i]), "label_%d" % i) for i in results.argsort()[-5:][::-1]]
    assert [label for _, label in top] == [label for _, label in expected]
    assert [score for score, _ in top] == pytest.approx([s for s, _ in expected], rel=1e-5)
