"""How far tflaccel's cpu_xnnpack and LiteRT's own CPU path (its XNNPACK
delegate) each land from the TFLite references of ../shared/models, on the
reference inputs: for quantized outputs the distribution of |error| in
LSB, for float outputs the largest error relative to the output's largest
magnitude, and for classifiers whether the top-1 class is kept. Run through
bench/fidelity-vs-litert.sh."""
import argparse
import json
import os
import subprocess
import tempfile

import numpy as np
from ai_edge_litert.interpreter import Interpreter

MODELS = [
    "coral__mobilenet_v1_0.25_128_quant", "coral__tf2_mobilenet_v2_1.0_224_ptq",
    "tflm__mobilenet_v2_quantized_1x3x224x224", "coral__deeplabv3_mnv2_dm05_pascal_quant",
    "coral__movenet_single_pose_lightning_ptq", "tflm__hello_world_int8",
    "tflm__micro_speech_quantized", "tflm__keyword_scrambled",
    "pose_landmark_lite", "hand_landmark_lite", "face_detection_short_range",
    "selfie_segmentation", "palm_detection_lite",
]
CLASSIFIERS = {"coral__mobilenet_v1_0.25_128_quant", "coral__tf2_mobilenet_v2_1.0_224_ptq",
               "tflm__mobilenet_v2_quantized_1x3x224x224"}


def describe(name, output, ours, theirs, reference):
    """One line per runtime for one output."""
    lines = []
    for runtime, values in (("cpu_xnnpack", ours), ("LiteRT", theirs)):
        if values is None:
            lines.append(f"  {runtime:11s}: not run")
            continue
        if np.issubdtype(reference.dtype, np.integer):
            error = np.abs(values.astype(np.int64) - reference.astype(np.int64))
            histogram = {int(k): int(v) for k, v in zip(*np.unique(error, return_counts=True))}
            text = f"max {error.max()} LSB, mean {error.mean():.3f}, |err| histogram {histogram}"
        else:
            scale = max(1.0, float(np.abs(reference).max()))
            error = np.abs(values.astype(np.float64) - reference.astype(np.float64))
            text = f"max |err| {error.max():.3g} = {error.max() / scale:.2e} x scale {scale:.3g}"
        if name in CLASSIFIERS:
            kept = int(np.argmax(values)) == int(np.argmax(reference))
            text += f", top-1 {'kept' if kept else 'CHANGED'} ({int(np.argmax(values))})"
        lines.append(f"  {runtime:11s}: {text}")
    return f"{name} output {output}:\n" + "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tflaccel", required=True)
    parser.add_argument("--models", required=True)
    args = parser.parse_args()
    for name in MODELS:
        ref_dir = os.path.join(args.models, "ref", name)
        manifest_path = os.path.join(ref_dir, "manifest.json")
        if not os.path.exists(manifest_path):
            print(f"{name}: no reference, skipped")
            continue
        manifest = json.load(open(manifest_path))
        model = os.path.join(args.models, manifest["model"])
        expected = json.load(open(os.path.join(args.models, "expected.json")))[name]
        interpreter = Interpreter(model_path=model, num_threads=1)
        interpreter.allocate_tensors()
        input_files = []
        for position, detail in enumerate(interpreter.get_input_details()):
            path = os.path.join(ref_dir, f"input_{position}.bin")
            input_files.append(path)
            data = np.fromfile(path, dtype=detail["dtype"]).reshape(detail["shape"])
            interpreter.set_tensor(detail["index"], data)
        repeat = manifest.get("options", {}).get("repeat", 1)
        for _ in range(repeat):
            interpreter.invoke()
        details = interpreter.get_output_details()
        with tempfile.TemporaryDirectory() as out_dir:
            command = [args.tflaccel, "run", model, "--accelerator", "cpu_xnnpack",
                       "--output-dir", out_dir]
            for path in input_files:
                command += ["--input", path]
            done = subprocess.run(command, capture_output=True, text=True)
            for position, output in enumerate(expected["outputs"]):
                reference = np.fromfile(os.path.join(ref_dir, output["file"]),
                                        dtype=np.dtype(output["dtype"]))
                ours_path = os.path.join(out_dir, f"output_{position}.bin")
                ours = (np.fromfile(ours_path, dtype=reference.dtype)
                        if done.returncode == 0 and os.path.exists(ours_path) else None)
                # LiteRT's output order is its own: match by name, else position.
                detail = next((d for d in details if d["name"] == output["name"]),
                              details[position])
                theirs = interpreter.get_tensor(detail["index"]).reshape(-1)
                print(describe(name, position, ours, theirs.astype(reference.dtype), reference),
                      flush=True)
            if done.returncode != 0:
                print(f"  tflaccel run failed: {done.stderr.strip()}")
        del interpreter


if __name__ == "__main__":
    main()
