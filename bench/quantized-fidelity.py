#!/usr/bin/env python3
"""quantized-fidelity.py TFLACCEL MODEL_DIR [--accelerators A,B] [--precisions P,Q] [MODEL...]

The fidelity of the GPU float view of quantized models (issue 19, item 4):
runs every quantized model of MODEL_DIR (a reference input of uint8, int8
or int16) that has a reference (MODEL_DIR/ref/NAME/, expected.json) on each
accelerator and precision with `tflaccel run`, and prints per run and
output, in the output's own type, the distribution of |ours - reference| in
LSB (0, 1, 2, 3, 4, more), the share within 1 LSB, the largest, and for
classifier outputs ([1, N], N >= 10) whether the top-1 class is kept.
A run passes when every integer output has >= 99% of its elements within
1 LSB and none beyond 4, every classifier keeps top-1, float outputs of
quantized models meet expected.json's rtol and index outputs its
min_identical_fraction. "full" says whether every op ran on the accelerator
(`--require_full_delegation`); runs that are not full are measured with the
ops the accelerator declines on cpu_ref. A reference whose outputs changed
across the runs it was made with (its manifest's options.repeat and
deterministic_across_repeats: dtln's stateful LSTMs) is compared with the
outputs of as many runs of one compiled model (`tflaccel run --runs N`). "vs cpu_ref" is the largest
difference from cpu_ref's own run (LSB, or fraction of scale for float
outputs), which tells the float view's error from that of the ops cpu_ref
runs. Exits 1 when any run fails or does not run. Needs only python3 and an
installed or built tflaccel.
"""
import argparse
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("check_references",
                                               os.path.join(HERE, "check-references.py"))
check_references = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_references)
read_values = check_references.read_values

QUANTIZED_DTYPES = ("uint8", "int8", "int16")
INTEGER_DTYPES = QUANTIZED_DTYPES + ("int32",)


def quantized_models(model_dir, expected):
    names = []
    for name in sorted(expected):
        manifest = os.path.join(model_dir, "ref", name, "manifest.json")
        if not expected[name].get("outputs") or not os.path.isfile(manifest):
            continue
        with open(manifest) as f:
            inputs = json.load(f).get("inputs", [])
        if any(i.get("dtype") in QUANTIZED_DTYPES for i in inputs):
            names.append(name)
    return names


def argmax(values):
    return max(range(len(values)), key=lambda i: values[i])


def measure(output, ours, ref, precision):
    """(passed, text) for one output."""
    tolerance = output["tolerance"]
    shape = output.get("shape", [])
    texts = []
    passed = True
    if output["dtype"] in INTEGER_DTYPES and tolerance["kind"] == "quantized":
        diffs = [abs(int(a) - int(b)) for a, b in zip(ours, ref)]
        buckets = [sum(1 for d in diffs if d == k) for k in range(5)]
        buckets.append(sum(1 for d in diffs if d > 4))
        within = (buckets[0] + buckets[1]) / max(1, len(diffs))
        worst = max(diffs, default=0)
        passed = within >= 0.99 and worst <= 4
        texts.append("LSB 0/1/2/3/4/>4: " + "/".join(str(b) for b in buckets) +
                     f"; {100 * within:.2f}% within 1; max {worst}")
    elif tolerance["kind"] == "index":
        same = sum(1 for a, b in zip(ours, ref) if a == b) / max(1, len(ref))
        passed = same >= tolerance["min_identical_fraction"]
        texts.append(f"{100 * same:.2f}% identical (min {100 * tolerance['min_identical_fraction']:g}%)")
    else:
        if any(not math.isfinite(v) for v in ours):
            return False, "NaN or Inf"
        scale = max(1.0, max((abs(v) for v in ref), default=0.0))
        worst = max((abs(a - b) for a, b in zip(ours, ref)), default=0.0) / scale
        rtol = tolerance["rtol_fp16" if precision == "fp16" else "rtol_fp32"]
        passed = worst <= rtol
        texts.append(f"{worst:.2e} of scale (rtol {rtol:g})")
    if len(shape) == 2 and shape[0] == 1 and shape[1] >= 10:
        kept = argmax(ours) == argmax(ref)
        passed = passed and kept
        texts.append("top-1 kept" if kept else f"top-1 {argmax(ours)} != {argmax(ref)}")
    return passed, "; ".join(texts)


def largest_difference(output, ours, base):
    if output["dtype"] in INTEGER_DTYPES or output["dtype"] == "int64":
        return str(max((abs(int(a) - int(b)) for a, b in zip(ours, base)), default=0))
    scale = max(1.0, max((abs(v) for v in base), default=0.0))
    return f"{max((abs(a - b) for a, b in zip(ours, base)), default=0.0) / scale:.1e}"


def reference_runs(model_dir, name):
    """How many runs the reference's outputs come after: its manifest's
    options.repeat where its outputs changed across those runs (a stateful
    model: dtln's LSTMs), else 1 (the same outputs after one run)."""
    manifest = os.path.join(model_dir, "ref", name, "manifest.json")
    try:
        with open(manifest) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return 1
    repeat = data.get("options", {}).get("repeat", 1)
    if data.get("deterministic_across_repeats", True) or not isinstance(repeat, int):
        return 1
    return max(repeat, 1)


def run_model(tflaccel, model, accelerator, precision, out, full, runs=1):
    command = [tflaccel, "run", model, "--accelerator", accelerator, "--precision", precision,
               "--output-dir", out]
    if runs > 1:
        command += ["--runs", str(runs)]
    if full:
        command.append("--require_full_delegation")
    return subprocess.run(command, capture_output=True, text=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tflaccel")
    parser.add_argument("model_dir")
    parser.add_argument("models", nargs="*")
    parser.add_argument("--accelerators", default="gpu_cl,gpu_vk,gpu_gl")
    parser.add_argument("--precisions", default="fp32,fp16")
    args = parser.parse_intermixed_args()
    with open(os.path.join(args.model_dir, "expected.json")) as f:
        expected = json.load(f)
    names = args.models or quantized_models(args.model_dir, expected)
    failures = 0
    print("| model | accelerator | precision | full | result | output: distribution vs TFLite "
          "| vs cpu_ref |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        entry = expected.get(name)
        if entry is None:
            sys.exit(f"quantized-fidelity.py: {name} has no entry in expected.json")
        model = os.path.join(args.model_dir, name + ".tflite")
        runs = reference_runs(args.model_dir, name)
        base_dir = tempfile.TemporaryDirectory()
        base = run_model(args.tflaccel, model, "cpu_ref", "fp32", base_dir.name, False, runs)
        for accelerator in args.accelerators.split(","):
            for precision in args.precisions.split(","):
                with tempfile.TemporaryDirectory() as out:
                    full = "yes"
                    run = run_model(args.tflaccel, model, accelerator, precision, out, True, runs)
                    if run.returncode != 0:
                        full = "no"
                        run = run_model(args.tflaccel, model, accelerator, precision, out, False,
                                        runs)
                    if run.returncode != 0:
                        lines = (run.stderr.strip() or "no message").splitlines()
                        print(f"| {name} | {accelerator} | {precision} | - | did not run | "
                              f"{lines[-1].replace('|', '/')} |")
                        failures += 1
                        continue
                    results = []
                    versus = []
                    for o in entry["outputs"]:
                        ours = read_values(os.path.join(out, o["file"]), o["dtype"])
                        ref = read_values(os.path.join(args.model_dir, "ref", name, o["file"]),
                                          o["dtype"])
                        if len(ours) != len(ref):
                            results.append((False, f"{len(ours)} values, reference {len(ref)}"))
                        else:
                            results.append(measure(o, ours, ref, precision))
                        base_path = os.path.join(base_dir.name, o["file"])
                        if base.returncode == 0 and os.path.isfile(base_path):
                            versus.append(largest_difference(
                                o, ours, read_values(base_path, o["dtype"])))
                        else:
                            versus.append("-")
                passed = all(r[0] for r in results)
                text = " / ".join(f"{o['index']}: {r[1]}" for o, r in zip(entry["outputs"], results))
                print(f"| {name} | {accelerator} | {precision} | {full} | "
                      f"{'pass' if passed else 'FAIL'} | {text} | {' / '.join(versus)} |",
                      flush=True)
                failures += not passed
        base_dir.cleanup()
    print(f"\n{failures} of the runs above failed or did not run")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
