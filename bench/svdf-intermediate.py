#!/usr/bin/env python3
"""svdf-intermediate.py TFLACCEL MODEL TENSOR [--accelerators A,B] [--precisions P,Q] [--num_runs N]

tflm__keyword_scrambled's output is 0.5, 0.5 on every input (its last
FULLY_CONNECTED saturates both logits), so its whole-model comparison says
nothing about its SVDFs. This copies MODEL with its (single) output moved to
graph tensor TENSOR (e.g. 5, the first SVDF's output, or 47, the last's:
`tflaccel inspect` does not list tensors; the SVDF outputs of
keyword_scrambled are 5, 13, 21, 29, 37, 42, 47), then runs `tflaccel diff`
of each accelerator and precision against cpu_ref over N runs: the state
carries from run to run, so the mean absolute difference (in LSB of the
int8 output) covers the state shift. The copy goes to a temporary directory.
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile


def output_vector_offset(data):
    """Byte offset of subgraph 0's outputs vector (flatbuffer tables)."""
    u32 = lambda o: struct.unpack_from('<I', data, o)[0]
    i32 = lambda o: struct.unpack_from('<i', data, o)[0]

    def field(table, index):
        vtable = table - i32(table)
        size = struct.unpack_from('<H', data, vtable)[0]
        if 4 + 2 * index >= size:
            return None
        offset = struct.unpack_from('<H', data, vtable + 4 + 2 * index)[0]
        return table + offset if offset else None

    def deref(o):
        return o + u32(o)

    model = deref(0)
    subgraphs = deref(field(model, 2))
    subgraph = subgraphs + 4 + u32(subgraphs + 4)
    outputs = deref(field(subgraph, 2))  # SubGraph.outputs
    if u32(outputs) != 1:
        sys.exit('svdf-intermediate.py: the model has %d outputs, expected 1' % u32(outputs))
    return outputs + 4


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument('tflaccel')
    parser.add_argument('model')
    parser.add_argument('tensor', type=int)
    parser.add_argument('--accelerators', default='gpu_cl,gpu_vk,gpu_gl')
    parser.add_argument('--precisions', default='fp32,fp16')
    parser.add_argument('--num_runs', type=int, default=40)
    args = parser.parse_args()
    data = bytearray(open(args.model, 'rb').read())
    struct.pack_into('<i', data, output_vector_offset(data), args.tensor)
    failed = 0
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, 'output_%d.tflite' % args.tensor)
        with open(path, 'wb') as f:
            f.write(data)
        print('| accelerator | precision | output tensor %d: mean abs difference vs cpu_ref |' % args.tensor)
        print('|---|---|---|')
        for accelerator in args.accelerators.split(','):
            for precision in args.precisions.split(','):
                run = subprocess.run([args.tflaccel, 'diff', path, '--accelerator', accelerator,
                                      '--precision', precision, '--require_full_delegation',
                                      '--num_runs', str(args.num_runs)],
                                     capture_output=True, text=True)
                lines = [l for l in run.stdout.splitlines() if l.startswith('OutputDiff')]
                result = lines[0] if run.returncode == 0 and lines else \
                    'failed (%d): %s' % (run.returncode, (run.stderr.strip().splitlines() or [''])[-1])
                failed += run.returncode != 0
                print('| %s | %s | %s |' % (accelerator, precision, result))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
