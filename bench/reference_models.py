"""What check-references.py and quantized-fidelity.py share: their command
line (TFLACCEL MODEL_DIR [--accelerators A,B] [--precisions P,Q] [MODEL...]),
the models of MODEL_DIR with a reference (ref/NAME/ and an entry in
expected.json, as ../shared/models has), the loop over model x accelerator x
precision, one `tflaccel run` writing a run's outputs, reading raw output
files, and the closing count. Plain python3: the installed tflaccel is all
the scripts need."""
import argparse
import json
import os
import struct
import subprocess
import sys

FORMATS = {"float32": "f", "int8": "b", "uint8": "B", "int16": "h", "int32": "i",
           "int64": "q", "bool": "?"}


def read_values(path, dtype):
    """The little-endian values of a raw tensor file, as a tuple."""
    code = FORMATS.get(dtype)
    if code is None:
        raise ValueError(f"{path}: dtype {dtype} is not compared")
    with open(path, "rb") as f:
        data = f.read()
    size = struct.calcsize(code)
    if len(data) % size:
        raise ValueError(f"{path}: {len(data)} bytes is not a whole number of {dtype}")
    return struct.unpack(f"<{len(data) // size}{code}", data)


def parse_arguments(doc):
    """The scripts' shared command line; `doc`'s first paragraph describes it."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("tflaccel")
    parser.add_argument("model_dir")
    parser.add_argument("models", nargs="*")
    parser.add_argument("--accelerators", default="gpu_cl,gpu_vk,gpu_gl")
    parser.add_argument("--precisions", default="fp32,fp16")
    return parser.parse_intermixed_args()


def has_reference(model_dir, name, entry):
    return bool(entry.get("outputs")) and os.path.isdir(os.path.join(model_dir, "ref", name))


def chosen_models(args, script, wanted=has_reference):
    """[(name, expected.json entry)]: the models named on the command line,
    else every model of MODEL_DIR for which wanted(model_dir, name, entry)
    holds, sorted; exits naming a model expected.json does not list."""
    with open(os.path.join(args.model_dir, "expected.json")) as f:
        expected = json.load(f)
    names = args.models or sorted(name for name in expected
                                  if wanted(args.model_dir, name, expected[name]))
    for name in names:
        if name not in expected:
            sys.exit(f"{script}: {name} has no entry in expected.json")
    return [(name, expected[name]) for name in names]


def each_run(args, models):
    """(name, entry, model path, accelerator, precision) of every run, model
    by model, then accelerator, then precision."""
    for name, entry in models:
        model = os.path.join(args.model_dir, name + ".tflite")
        for accelerator in args.accelerators.split(","):
            for precision in args.precisions.split(","):
                yield name, entry, model, accelerator, precision


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


def run_tflaccel(tflaccel, model, accelerator, precision, out, full, runs=1):
    """`tflaccel run` writing the outputs into `out` (of the last of `runs`
    runs on one compiled model); full: every op on the accelerator asked
    for (--require_full_delegation)."""
    command = [tflaccel, "run", model, "--accelerator", accelerator, "--precision", precision,
               "--output-dir", out]
    if runs > 1:
        command += ["--runs", str(runs)]
    if full:
        command.append("--require_full_delegation")
    return subprocess.run(command, capture_output=True, text=True)


def last_error(run):
    """The last line of a failed run's messages, fit for a Markdown cell."""
    lines = (run.stderr.strip() or "no message").splitlines()
    return lines[-1].replace("|", "/")


def finish(failures):
    """Prints the closing count; the scripts' exit status."""
    print(f"\n{failures} of the runs above failed or did not run")
    return 1 if failures else 0
