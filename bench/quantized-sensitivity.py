#!/usr/bin/env python3
"""quantized-sensitivity.py TFLACCEL MODEL_DIR MODEL [--moves N,...] [--seeds S,...]

How far a quantized model's output moves, in LSB, when its reference input
moves by one LSB in N elements, on cpu_ref (bit-exact with TensorFlow Lite):
the part of a float view's distance from TFLite that no computation short of
bit-exact integer arithmetic can remove. For each N and seed it moves N
distinct input elements (chosen by a seeded Python RNG) by +1 or -1 LSB
(kept in the dtype's range), runs `tflaccel run --accelerator cpu_ref` and
prints the distribution of |moved - reference output| per output (0, 1, 2,
3, 4, more LSB), the share within 1 LSB, the largest and whether the top-1
class is kept. Needs only python3 and a built tflaccel; int8 and uint8
single-input models.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

RANGES = {"int8": (-128, 127, "b"), "uint8": (0, 255, "B")}


def read(path, dtype):
    with open(path, "rb") as f:
        data = f.read()
    return list(memoryview(data).cast(RANGES[dtype][2]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tflaccel")
    parser.add_argument("model_dir")
    parser.add_argument("model")
    parser.add_argument("--moves", default="1,10,100")
    parser.add_argument("--seeds", default="1,2")
    args = parser.parse_args()
    ref_dir = os.path.join(args.model_dir, "ref", args.model)
    with open(os.path.join(ref_dir, "manifest.json")) as f:
        manifest = json.load(f)
    inputs, outputs = manifest["inputs"], manifest["outputs"]
    if len(inputs) != 1 or inputs[0]["dtype"] not in RANGES:
        sys.exit(f"quantized-sensitivity.py: {args.model}: one int8 or uint8 input needed")
    dtype = inputs[0]["dtype"]
    low, high, code = RANGES[dtype]
    reference_input = read(os.path.join(ref_dir, "input_0.bin"), dtype)
    model = os.path.join(args.model_dir, args.model + ".tflite")
    print("| moved elements | seed | output | LSB 0/1/2/3/4/>4 | within 1 LSB | max | top-1 |")
    print("|---|---|---|---|---|---|---|")
    for moves in (int(m) for m in args.moves.split(",")):
        for seed in (int(s) for s in args.seeds.split(",")):
            rng = random.Random(seed)
            moved = list(reference_input)
            for k in rng.sample(range(len(moved)), moves):
                moved[k] = min(high, max(low, moved[k] + rng.choice((-1, 1))))
            with tempfile.TemporaryDirectory() as out:
                path = os.path.join(out, "input.bin")
                with open(path, "wb") as f:
                    f.write(bytes(bytearray(v & 0xFF for v in moved)))
                run = subprocess.run([args.tflaccel, "run", model, "--accelerator", "cpu_ref",
                                      "--input", path, "--output-dir", out],
                                     capture_output=True, text=True)
                if run.returncode != 0:
                    sys.exit(f"quantized-sensitivity.py: {run.stderr.strip()}")
                for o in range(len(outputs)):
                    if outputs[o]["dtype"] not in RANGES:
                        continue
                    ours = read(os.path.join(out, f"output_{o}.bin"), outputs[o]["dtype"])
                    ref = read(os.path.join(ref_dir, f"output_{o}.bin"), outputs[o]["dtype"])
                    diffs = [abs(a - b) for a, b in zip(ours, ref)]
                    buckets = [sum(1 for d in diffs if d == k) for k in range(5)]
                    buckets.append(sum(1 for d in diffs if d > 4))
                    within = 100.0 * (buckets[0] + buckets[1]) / max(1, len(diffs))
                    top = max(range(len(ours)), key=ours.__getitem__) == \
                        max(range(len(ref)), key=ref.__getitem__)
                    print(f"| {moves} of {len(moved)} | {seed} | {o} | "
                          f"{'/'.join(map(str, buckets))} | {within:.1f}% | {max(diffs)} | "
                          f"{'kept' if top else 'changed'} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
