"""Integer results of tflaccel's cpu_ref against TensorFlow Lite's own
kernels (PyPI ai-edge-litert), run two ways: its reference kernels
(OpResolverType.BUILTIN_REF) and its optimized builtin kernels without
delegates (BUILTIN_WITHOUT_DEFAULT_DELEGATES). For each model: the largest
difference in LSB, how many elements differ, and the top-1 class when the
output is a classifier's. Inputs: the xorshift32 stream of
../shared/models/README.md (seed 1), or --inputs FILE... Run through
bench/quant-vs-litert.sh."""
import argparse
import os
import subprocess
import tempfile

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType


def xorshift_inputs(details):
    state = 1
    arrays = []
    for d in details:
        count = int(np.prod(d["shape"]))
        values = np.empty(count, np.uint32)
        for i in range(count):
            state ^= (state << 13) & 0xFFFFFFFF
            state ^= state >> 17
            state ^= (state << 5) & 0xFFFFFFFF
            values[i] = state
        dtype = d["dtype"]
        if dtype == np.uint8:
            array = (values >> 24).astype(np.uint8)
        elif dtype == np.int8:
            array = (values >> 24).astype(np.uint8).view(np.int8)
        elif dtype == np.int16:
            array = (values >> 16).astype(np.uint16).view(np.int16)
        elif dtype == np.float32:
            array = (-1.0 + 2.0 * (values / 4294967296.0)).astype(np.float32)
        else:
            raise SystemExit(f"input dtype {dtype} is not generated")
        arrays.append(array.reshape(d["shape"]))
    return arrays


def run_litert(model, resolver, inputs):
    interpreter = Interpreter(model_path=model, experimental_op_resolver_type=resolver)
    interpreter.allocate_tensors()
    details = interpreter.get_input_details()
    if inputs is None:
        inputs = xorshift_inputs(details)
    for d, array in zip(details, inputs):
        interpreter.set_tensor(d["index"], array.reshape(d["shape"]).astype(d["dtype"]))
    interpreter.invoke()
    outputs = [interpreter.get_tensor(d["index"]).copy() for d in interpreter.get_output_details()]
    return inputs, outputs


def run_tflaccel(tflaccel, model, inputs, input_files, directory):
    command = [tflaccel, "run", model, "--accelerator", "cpu_ref", "--output-dir", directory]
    for path in input_files:
        command += ["--input", path]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    results = []
    for k in range(64):
        path = os.path.join(directory, f"output_{k}.bin")
        if not os.path.exists(path):
            break
        results.append(path)
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tflaccel", required=True)
    parser.add_argument("--inputs", nargs="*", default=None,
                        help="raw input files (in order) for every model, instead of xorshift32")
    parser.add_argument("models", nargs="+")
    args = parser.parse_args()
    print("| model | output | vs TFLite reference kernels | vs TFLite optimized kernels | top-1 (ours / ref / opt) |")
    print("|---|---|---|---|---|")
    for model in args.models:
        given = None
        if args.inputs:
            probe = Interpreter(model_path=model)
            given = [np.fromfile(p, d["dtype"]) for p, d in zip(args.inputs, probe.get_input_details())]
        inputs, reference = run_litert(model, OpResolverType.BUILTIN_REF, given)
        _, optimized = run_litert(model, OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES, inputs)
        with tempfile.TemporaryDirectory() as directory:
            files = []
            for k, array in enumerate(inputs):
                path = os.path.join(directory, f"input_{k}.bin")
                array.tofile(path)
                files.append(path)
            ours_paths = run_tflaccel(args.tflaccel, model, inputs, files, directory)
            for k, (ref, opt) in enumerate(zip(reference, optimized)):
                ours = np.fromfile(ours_paths[k], ref.dtype)
                cells = []
                for theirs in (ref, opt):
                    if np.issubdtype(ref.dtype, np.integer):
                        error = np.abs(ours.astype(np.int64) - theirs.ravel().astype(np.int64))
                        cells.append(f"max {error.max()} LSB, {int((error > 0).sum())} of {error.size} differ")
                    else:
                        error = np.abs(ours - theirs.ravel())
                        cells.append(f"max {error.max():.3g}")
                top1 = "-"
                if ref.ndim == 2 and ref.shape[0] == 1 and ref.shape[1] > 10:
                    top1 = f"{int(ours.argmax())} / {int(ref.argmax())} / {int(opt.argmax())}"
                print(f"| {os.path.basename(model)} | {k} | {cells[0]} | {cells[1]} | {top1} |")


if __name__ == "__main__":
    main()
