"""Times tflaccel (cpu_xnnpack) and LiteRT's CPU path on the same models and
thread counts, alternating one run of each so that machine load hits both
alike, and prints the ratio table (tflaccel / LiteRT; below 1.15 meets the
goal of issue #20). Run through bench/vs-litert.sh."""
import argparse
import os
import re
import statistics
import subprocess
import time

import numpy as np
from ai_edge_litert.interpreter import Interpreter

MODELS = [
    "pose_landmark_lite", "hand_landmark_lite", "face_detection_short_range",
    "selfie_segmentation", "palm_detection_lite", "coral__mobilenet_v1_0.25_128_quant",
    "coral__tf2_mobilenet_v2_1.0_224_ptq",
]


def tflaccel_ms(tool, path, threads, seconds):
    """Mean of tflaccel bench's timed runs, in ms."""
    out = subprocess.run(
        [tool, "bench", "--graph=" + path, "--accelerator", "cpu_xnnpack",
         "--num_threads", str(threads), "--min_secs", str(seconds), "--num_runs", "10"],
        check=True, capture_output=True, text=True).stdout
    avg = re.search(r"Inference \(avg\): ([0-9.e+]+)", out)
    placement = re.search(r"Ops per accelerator[^\n]*", out)
    return float(avg.group(1)) / 1000.0, placement.group(0) if placement else ""


def litert_ms(interpreter, seconds):
    """Mean invoke() time over at least `seconds`, in ms."""
    runs, start = 0, time.perf_counter()
    while True:
        interpreter.invoke()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and runs >= 10:
            return 1000.0 * elapsed / runs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tflaccel", required=True)
    parser.add_argument("--models", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    rows = []
    for name in args.only or MODELS:
        path = os.path.join(args.models, name + ".tflite")
        if not os.path.exists(path):
            print(f"{name}: absent, skipped")
            continue
        for threads in args.threads:
            interpreter = Interpreter(model_path=path, num_threads=threads)
            interpreter.allocate_tensors()
            rng = np.random.default_rng(1)
            for detail in interpreter.get_input_details():
                shape, dtype = detail["shape"], detail["dtype"]
                if np.issubdtype(dtype, np.floating):
                    data = rng.random(shape, dtype=np.float32).astype(dtype)
                else:
                    info = np.iinfo(dtype)
                    data = rng.integers(info.min, info.max, size=shape, dtype=dtype)
                interpreter.set_tensor(detail["index"], data)
            for _ in range(3):
                interpreter.invoke()
            ours, theirs, placement = [], [], ""
            for _ in range(args.rounds):
                ms, placement = tflaccel_ms(args.tflaccel, path, threads, args.seconds)
                ours.append(ms)
                theirs.append(litert_ms(interpreter, args.seconds))
            a, b = statistics.median(ours), statistics.median(theirs)
            rows.append((name, threads, a, b, a / b, placement))
            print(f"{name} threads={threads}: tflaccel {a:.2f} ms, LiteRT {b:.2f} ms, "
                  f"ratio {a / b:.2f}  [{placement}]", flush=True)
            del interpreter
    print()
    print("| model | threads | tflaccel cpu_xnnpack (ms) | LiteRT CPU (ms) | ratio |")
    print("|---|---|---|---|---|")
    for name, threads, a, b, ratio, _ in rows:
        print(f"| {name} | {threads} | {a:.2f} | {b:.2f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
