#!/usr/bin/env python3
"""movenet-keypoints.py TFLACCEL MODEL_DIR [--accelerators A,B] [--precisions P,Q]

movenet's fidelity in its own units (issue 19, item 2): runs
coral__movenet_single_pose_lightning_ptq on each accelerator and precision
with `tflaccel run` (the generator's input, seed 1, which the reference
was taken on) and prints, against TFLite's reference output, the
distribution of |ours - reference| in LSB of the int8 grid its final
DEQUANTIZE reads (0, 1, 2, 3, 4, more), the share within 1 LSB, the
largest, how many of the 17 keypoints have y and x within 1 LSB, and
whether every op ran on the accelerator (--require_full_delegation).
quantized-fidelity.py reports the same output as a fraction of scale.
Needs only python3 and a built or installed tflaccel.
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile

MODEL = "coral__movenet_single_pose_lightning_ptq"
# The scale of tensor 331, the int8 [1, 1, 17, 3] that the model's last op
# (DEQUANTIZE) makes the float output of: one LSB of the output.
OUTPUT_SCALE = 0.0040968540124595165
KEYPOINTS = 17


def read_floats(path):
    with open(path, "rb") as f:
        data = f.read()
    return struct.unpack("<%df" % (len(data) // 4), data)


def run(tflaccel, model, accelerator, precision, out_dir, full):
    command = [tflaccel, "run", model, "--accelerator", accelerator, "--precision", precision,
               "--output-dir", out_dir]
    if full:
        command.append("--require_full_delegation")
    return subprocess.run(command, capture_output=True, text=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tflaccel")
    parser.add_argument("model_dir")
    parser.add_argument("--accelerators", default="gpu_cl,gpu_vk,gpu_gl")
    parser.add_argument("--precisions", default="fp32,fp16")
    args = parser.parse_args()
    model = os.path.join(args.model_dir, MODEL + ".tflite")
    reference_path = os.path.join(args.model_dir, "ref", MODEL, "output_0.bin")
    if not os.path.isfile(model) or not os.path.isfile(reference_path):
        print("movenet-keypoints.py: %s or its reference is absent" % model, file=sys.stderr)
        return 1
    reference = read_floats(reference_path)
    print("| accelerator | precision | full | LSB 0/1/2/3/4/>4 | within 1 | max | keypoints |")
    print("|---|---|---|---|---|---|---|")
    failed = 0
    for accelerator in args.accelerators.split(","):
        for precision in args.precisions.split(","):
            with tempfile.TemporaryDirectory() as out_dir:
                result = run(args.tflaccel, model, accelerator, precision, out_dir, True)
                full = result.returncode == 0
                if not full:
                    result = run(args.tflaccel, model, accelerator, precision, out_dir, False)
                if result.returncode != 0:
                    print("| %s | %s | - | did not run: %s | | | |" %
                          (accelerator, precision, result.stderr.strip().splitlines()[-1:]))
                    failed += 1
                    continue
                ours = read_floats(os.path.join(out_dir, "output_0.bin"))
            if len(ours) != len(reference):
                print("| %s | %s | - | %d values, the reference has %d | | | |" %
                      (accelerator, precision, len(ours), len(reference)))
                failed += 1
                continue
            lsb = [round(abs(a - b) / OUTPUT_SCALE) for a, b in zip(ours, reference)]
            buckets = [sum(1 for v in lsb if v == i) for i in range(5)]
            buckets.append(sum(1 for v in lsb if v > 4))
            kept = sum(1 for k in range(KEYPOINTS) if lsb[3 * k] <= 1 and lsb[3 * k + 1] <= 1)
            print("| %s | %s | %s | %s | %.1f%% | %d | %d/%d |" %
                  (accelerator, precision, "yes" if full else "no",
                   "/".join(str(b) for b in buckets),
                   100.0 * (buckets[0] + buckets[1]) / len(lsb), max(lsb), kept, KEYPOINTS))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
