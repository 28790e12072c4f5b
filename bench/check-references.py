#!/usr/bin/env python3
"""check-references.py TFLACCEL MODEL_DIR [--accelerators A,B] [--precisions P,Q] [MODEL...]

Runs every model of MODEL_DIR that has a reference (MODEL_DIR/ref/NAME/ and
an entry in MODEL_DIR/expected.json, as ../shared/models has) on each
accelerator and precision with `tflaccel run --require_full_delegation`
(without it for cpu_ref), and
compares each output with the reference under expected.json's tolerance:
float outputs max|ours - ref| <= rtol * max(1, max|ref|) (rtol_fp32 or
rtol_fp16 by precision), quantized outputs within max_lsb, index outputs at
least min_identical_fraction identical; NaN or Inf never passes. Prints one
Markdown table (the worst output of each run, as a fraction of its scale for
float outputs) and exits 1 when any run fails a tolerance or does not run.

For the lent GPU machine, where the test suite's build tree does not travel:
the installed tflaccel is all it needs (python3 without numpy).
"""
import math
import os
import sys
import tempfile

import reference_models
from reference_models import read_values


def compare(output, ours_path, ref_path, precision):
    """(passed, worst, text) for one output."""
    tolerance = output["tolerance"]
    ours = read_values(ours_path, output["dtype"])
    ref = read_values(ref_path, output["dtype"])
    if len(ours) != len(ref):
        return False, math.inf, f"{len(ours)} values, the reference has {len(ref)}"
    kind = tolerance["kind"]
    if kind == "float":
        if any(not math.isfinite(v) for v in ours):
            return False, math.inf, "NaN or Inf"
        scale = max(1.0, max((abs(v) for v in ref), default=0.0))
        worst = max((abs(a - b) for a, b in zip(ours, ref)), default=0.0) / scale
        rtol = tolerance["rtol_fp16" if precision == "fp16" else "rtol_fp32"]
        return worst <= rtol, worst, f"{worst:.2e} of scale (rtol {rtol:g})"
    if kind == "quantized":
        worst = max((abs(int(a) - int(b)) for a, b in zip(ours, ref)), default=0)
        return worst <= tolerance["max_lsb"], worst, f"{worst} LSB (max {tolerance['max_lsb']})"
    if kind == "index":
        same = sum(1 for a, b in zip(ours, ref) if a == b) / max(1, len(ref))
        need = tolerance["min_identical_fraction"]
        return same >= need, 1.0 - same, f"{same:.4f} identical (min {need})"
    raise ValueError(f"tolerance kind {kind} is not known")


def main():
    args = reference_models.parse_arguments(__doc__)
    models = reference_models.chosen_models(args, "check-references.py")
    failures = 0
    print("| model | accelerator | precision | result | worst output |")
    print("|---|---|---|---|---|")
    for name, entry, model, accelerator, precision in reference_models.each_run(args, models):
        with tempfile.TemporaryDirectory() as out:
            # Every op on the accelerator asked for (cpu_ref takes all).
            run = reference_models.run_tflaccel(args.tflaccel, model, accelerator, precision, out,
                                                accelerator != "cpu_ref")
            if run.returncode != 0:
                print(f"| {name} | {accelerator} | {precision} | did not run | "
                      f"{reference_models.last_error(run)} |")
                failures += 1
                continue
            results = [compare(o, os.path.join(out, o["file"]),
                               os.path.join(args.model_dir, "ref", name, o["file"]),
                               precision) for o in entry["outputs"]]
        passed = all(r[0] for r in results)
        worst = max(range(len(results)), key=lambda i: (not results[i][0], results[i][1]))
        print(f"| {name} | {accelerator} | {precision} | {'pass' if passed else 'FAIL'} | "
              f"output {entry['outputs'][worst]['index']}: {results[worst][2]} |")
        failures += not passed
    return reference_models.finish(failures)


if __name__ == "__main__":
    sys.exit(main())
