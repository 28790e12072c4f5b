#!/bin/sh
# tflaccel eval: run_eval's image classification on photos made in the test
# (tests/tools/make_eval_fixture: PNG and JPEG colour photos, a 10-class
# colour classifier built with tflite_builder), every flag, and bad input.
. "$(dirname "$0")/cli_checks.sh"
command_name="eval"
fixture="$scratch/fixture"
mkdir "$fixture" || exit 99
"$TFLACCEL_TOP_BUILDDIR/tests/tools/make_eval_fixture" "$fixture" || exit 99
CLASSIFIER="$fixture/classifier.tflite"
DATA="--ground_truth_images_path=$fixture/images --ground_truth_labels=$fixture/truth.txt --model_output_labels=$fixture/labels.txt"

# --- Six photos; the dark orange one labelled red is a top-1 miss, a top-2 hit.
run eval --model_file="$CLASSIFIER" $DATA --accelerator cpu_ref --output_file_path "$scratch/metrics.txt"
expect_exit 0
expect_line 'Test accelerators: \[cpu_ref\]'
expect_line 'Num evaluation runs: 6'
expect_line "Preprocessing latency: avg=$NUMBER\(us\), std_dev=[0-9]+\(us\)"
expect_line "Inference latency: avg=$NUMBER\(us\), std_dev=[0-9]+\(us\)"
expect_line 'Top-1 Accuracy: 0\.833333'
for k in 2 3 4 5 6 7 8 9 10; do expect_line "Top-$k Accuracy: 1"; done
expect_line_count 'Top-[0-9]+ Accuracy: .*' 10
checks=$((checks + 1))
grep -q '^Top-1 Accuracy: 0\.833333$' "$scratch/metrics.txt" && grep -q '^Top-10 Accuracy: 1$' "$scratch/metrics.txt" &&
  grep -q '^Num evaluation runs: 6$' "$scratch/metrics.txt" || fail "--output_file_path lacks the metrics"

# A uint8 input (scale 1/128, zero point 128): the same answers.
run eval "$fixture/classifier_uint8.tflite" $DATA --delegate=none --num_ranks=3
expect_exit 0
expect_line 'Top-1 Accuracy: 0\.833333'
expect_line 'Top-3 Accuracy: 1'
expect_line_count 'Top-[0-9]+ Accuracy: .*' 3

# --num_images takes the first ones in file-name order (all hits).
run eval "$CLASSIFIER" $DATA --num_images=4 --num_interpreter_threads=2 --num_threads=4 --use_gpu=false
expect_exit 0
expect_line 'Num evaluation runs: 4'
expect_line 'Top-1 Accuracy: 1'
# --denylist_file_path leaves out image 5 (the miss); the old name works too.
printf '5\n' >"$scratch/deny.txt"
run eval "$CLASSIFIER" $DATA --accelerator cpu_ref --denylist_file_path="$scratch/deny.txt"
expect_exit 0
expect_line 'Num evaluation runs: 5'
expect_line 'Top-1 Accuracy: 1'
run eval "$CLASSIFIER" $DATA --accelerator cpu_ref --blacklist_file_path "$scratch/deny.txt" --num_ranks 1
expect_exit 0
expect_line 'Top-1 Accuracy: 1'
expect_line_count 'Top-[0-9]+ Accuracy: .*' 1

# --- Help.
run eval --help
expect_exit 0
expect_line 'usage: tflaccel eval .*'

# --- Bad usage: one line, exit 2.
run eval "$CLASSIFIER"
expect_usage_error '--ground_truth_images_path is required'
run eval "$CLASSIFIER" $DATA --num_ranks=0
expect_usage_error '--num_ranks must be a whole number from 1'
run eval "$CLASSIFIER" $DATA --num_images=-3
expect_usage_error '--num_images must be a whole number from 0'
run eval "$CLASSIFIER" $DATA --num_threads=0
expect_usage_error '--num_threads must be a whole number from 1'
run eval "$CLASSIFIER" $DATA --delegate=hexagon
expect_usage_error '--delegate=hexagon is not supported here'
run eval "$CLASSIFIER" $DATA --delegate=tpu
expect_usage_error '--delegate must be gpu, xnnpack or none'
run eval "$CLASSIFIER" $DATA --use_nnapi=true
expect_usage_error '--use_nnapi is not supported here'
run eval "$CLASSIFIER" $DATA --delegate=gpu --accelerator=cpu_ref
expect_usage_error 'not both'

# --- Bad input: one line naming the problem, exit 1, no crash.
# (INFO lines about the plugins found, and the WARNING lines that say which
# accelerator declines which op when the model is compiled, are the log, not
# the error: which appear depends on the plugins this machine has.)
expect_one_error() {
  expect_exit 1
  checks=$((checks + 1))
  lines=$(grep -vEc '^(INFO|WARNING): ' "$scratch/err")
  [ "$lines" -eq 1 ] || fail "wanted one stderr line, got $lines: $(cat "$scratch/err")"
  expect_stderr "$1"
}
run eval "$CLASSIFIER" --ground_truth_images_path="$fixture/no_such_dir" \
  --ground_truth_labels="$fixture/truth.txt" --model_output_labels="$fixture/labels.txt"
expect_one_error "tflaccel eval: --ground_truth_images_path: cannot read $fixture/no_such_dir: No such file or directory"
run eval "$CLASSIFIER" --ground_truth_images_path="$fixture/images" \
  --ground_truth_labels="$fixture/truth.txt" --model_output_labels="$fixture/labels_short.txt"
expect_one_error "labels_short.txt has 5 labels, the model's output has 10 classes"
run eval "$CLASSIFIER" --ground_truth_images_path="$fixture/corrupt" \
  --ground_truth_labels="$fixture/corrupt_truth.txt" --model_output_labels="$fixture/labels.txt"
expect_one_error "tflaccel eval: $fixture/corrupt/broken.png: bad PNG"
run eval "$CLASSIFIER" --ground_truth_images_path="$fixture/images" \
  --ground_truth_labels="$fixture/corrupt_truth.txt" --model_output_labels="$fixture/labels.txt"
expect_one_error "corrupt_truth.txt has 1 labels for 6 images"
printf 'red\ngreen\nblue\nwhite\nred\nteal\n' >"$scratch/unknown_label.txt"
run eval "$CLASSIFIER" --ground_truth_images_path="$fixture/images" \
  --ground_truth_labels="$scratch/unknown_label.txt" --model_output_labels="$fixture/labels.txt"
expect_one_error "'teal' (for $fixture/images/f_gray.png) is not one of the model's labels"
printf '9\n' >"$scratch/bad_deny.txt"
run eval "$CLASSIFIER" $DATA --denylist_file_path="$scratch/bad_deny.txt"
expect_one_error "'9' is not an image index from 1 to 6"
# A JPEG cut short, and a file that is not an image at all under .jpg.
mkdir "$scratch/cut" "$scratch/fake"
head -c 200 "$fixture/images/b_green.jpg" >"$scratch/cut/cut.jpg"
printf 'red\n' >"$scratch/one.txt"
run eval "$CLASSIFIER" --ground_truth_images_path="$scratch/cut" \
  --ground_truth_labels="$scratch/one.txt" --model_output_labels="$fixture/labels.txt" --accelerator cpu_ref
checks=$((checks + 1))
# libjpeg recovers a truncated file (grey fill) or refuses it: either way no crash.
case $code in 0 | 1) ;; *) fail "cut JPEG: exit $code" ;; esac
printf 'hello' >"$scratch/fake/fake.jpg"
run eval "$CLASSIFIER" --ground_truth_images_path="$scratch/fake" \
  --ground_truth_labels="$scratch/one.txt" --model_output_labels="$fixture/labels.txt"
expect_one_error "fake.jpg: not a PNG or JPEG image"
if [ "$(id -u)" -ne 0 ]; then
  cp "$fixture/images/a_red.png" "$scratch/fake/fake.jpg" && chmod 000 "$scratch/fake/fake.jpg"
  run eval "$CLASSIFIER" --ground_truth_images_path="$scratch/fake" \
    --ground_truth_labels="$scratch/one.txt" --model_output_labels="$fixture/labels.txt"
  expect_one_error "cannot read $scratch/fake/fake.jpg: Permission denied"
fi
run eval "$TEST_DATA/hand_recrop.tflite" $DATA
expect_one_error "not an image classifier"
run eval "$CLASSIFIER" $DATA --output_file_path="$scratch/no/such/dir/m.txt"
expect_exit 1
expect_stderr "tflaccel eval: cannot write $scratch/no/such/dir/m.txt"

# --- A real ImageNet classifier from ../shared/models, when present.
MOBILENET="${TFLACCEL_SHARED_MODELS:-}/coral__mobilenet_v1_0.25_128_quant.tflite"
if [ -f "$MOBILENET" ]; then
  seq 1001 | sed 's/^/class/' >"$scratch/imagenet_labels.txt"
  printf 'class1\nclass2\nclass3\nclass4\nclass5\nclass6\n' >"$scratch/imagenet_truth.txt"
  run eval "$MOBILENET" --ground_truth_images_path="$fixture/images" \
    --ground_truth_labels="$scratch/imagenet_truth.txt" \
    --model_output_labels="$scratch/imagenet_labels.txt" --accelerator cpu_ref
  expect_exit 0
  expect_line 'Num evaluation runs: 6'
  expect_line "Top-10 Accuracy: $NUMBER"
else
  echo "SKIP part: $MOBILENET absent (../shared/models is not in a fresh clone)"
fi

finish
