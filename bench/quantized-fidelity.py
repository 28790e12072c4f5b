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
import json
import math
import os
import sys
import tempfile

import reference_models
from reference_models import read_values

QUANTIZED_DTYPES = ("uint8", "int8", "int16")
INTEGER_DTYPES = QUANTIZED_DTYPES + ("int32",)


def is_quantized(model_dir, name, entry):
    """A model with a reference whose reference input is quantized."""
    manifest = os.path.join(model_dir, "ref", name, "manifest.json")
    if not entry.get("outputs") or not os.path.isfile(manifest):
        return False
    with open(manifest) as f:
        inputs = json.load(f).get("inputs", [])
    return any(i.get("dtype") in QUANTIZED_DTYPES for i in inputs)


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


def main():
    args = reference_models.parse_arguments(__doc__)
    models = reference_models.chosen_models(args, "quantized-fidelity.py", is_quantized)
    run = reference_models.run_tflaccel
    failures = 0
    print("| model | accelerator | precision | full | result | output: distribution vs TFLite "
          "| vs cpu_ref |")
    print("|---|---|---|---|---|---|---|")
    base_name, base_dir, base = None, None, None
    for name, entry, model, accelerator, precision in reference_models.each_run(args, models):
        if name != base_name:  # cpu_ref's own run of the model, once
            if base_dir is not None:
                base_dir.cleanup()
            base_name, base_dir = name, tempfile.TemporaryDirectory()
            runs = reference_models.reference_runs(args.model_dir, name)
            base = run(args.tflaccel, model, "cpu_ref", "fp32", base_dir.name, False, runs)
        with tempfile.TemporaryDirectory() as out:
            full = "yes"
            ours_run = run(args.tflaccel, model, accelerator, precision, out, True, runs)
            if ours_run.returncode != 0:
                full = "no"
                ours_run = run(args.tflaccel, model, accelerator, precision, out, False, runs)
            if ours_run.returncode != 0:
                print(f"| {name} | {accelerator} | {precision} | - | did not run | "
                      f"{reference_models.last_error(ours_run)} |")
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
    if base_dir is not None:
        base_dir.cleanup()
    return reference_models.finish(failures)


if __name__ == "__main__":
    sys.exit(main())
