"""Image classification in the style of TensorFlow Lite's Python example
(label_image.py): load labels, set a uint8 or float image, invoke, print the
top 5. It was written for tflite_runtime; only the import line below differs.
Images are binary PPM (P6) files, resized by nearest neighbour with numpy, so
the script needs nothing beyond numpy."""

import argparse
import time

import numpy as np

import tflaccel.interpreter as tflite  # was: import tflite_runtime.interpreter as tflite


def load_labels(filename):
    with open(filename, "r") as f:
        return [line.strip() for line in f.readlines()]


def load_ppm(filename):
    with open(filename, "rb") as f:
        data = f.read()
    fields = data.split(maxsplit=4)
    if fields[0] != b"P6":
        raise ValueError("%s is not a binary PPM file" % filename)
    width, height = int(fields[1]), int(fields[2])
    pixels = np.frombuffer(fields[4][: width * height * 3], dtype=np.uint8)
    return pixels.reshape(height, width, 3)


def resize(image, height, width):
    rows = np.arange(height) * image.shape[0] // height
    cols = np.arange(width) * image.shape[1] // width
    return image[rows][:, cols]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("-i", "--image", default="grace_hopper.ppm", help="image to classify")
    parser.add_argument("-m", "--model_file", default="mobilenet_v1_1.0_224_quant.tflite",
                        help=".tflite model to run")
    parser.add_argument("-l", "--label_file", default="labels.txt", help="name file of labels")
    parser.add_argument("--input_mean", default=127.5, type=float, help="input_mean")
    parser.add_argument("--input_std", default=127.5, type=float, help="input standard deviation")
    parser.add_argument("--num_threads", default=None, type=int, help="number of threads")
    args = parser.parse_args()

    interpreter = tflite.Interpreter(model_path=args.model_file, num_threads=args.num_threads)
    interpreter.allocate_tensors()

    input_details = interpreter.get_input_details()
    output_details = interpreter.get_output_details()

    # check the type of the input tensor
    floating_model = input_details[0]["dtype"] == np.float32

    # NxHxWxC, H:1, W:2
    height = input_details[0]["shape"][1]
    width = input_details[0]["shape"][2]
    img = resize(load_ppm(args.image), height, width)

    # add N dim
    input_data = np.expand_dims(img, axis=0)

    if floating_model:
        input_data = (np.float32(input_data) - args.input_mean) / args.input_std

    interpreter.set_tensor(input_details[0]["index"], input_data)

    start_time = time.time()
    interpreter.invoke()
    stop_time = time.time()

    output_data = interpreter.get_tensor(output_details[0]["index"])
    results = np.squeeze(output_data)

    top_k = results.argsort()[-5:][::-1]
    labels = load_labels(args.label_file)
    for i in top_k:
        if floating_model:
            print("{:08.6f}: {}".format(float(results[i]), labels[i]))
        else:
            print("{:08.6f}: {}".format(float(results[i] / 255.0), labels[i]))

    print("time: {:.3f}ms".format((stop_time - start_time) * 1000))
