#!/bin/sh
# tflaccel eval --task object_detection: run_eval's COCO-style mAP on scenes
# made in the test (tests/tools/make_eval_fixture: two PNGs with a white
# square drawn in, a quadrant detector built with tflite_builder whose
# outputs are TFLite_Detection_PostProcess's, and an ObjectDetectionGroundTruth
# text proto), its flags, and bad input.
. "$(dirname "$0")/cli_checks.sh"
command_name="eval"
fixture="$scratch/fixture"
mkdir "$fixture" || exit 99
"$TFLACCEL_TOP_BUILDDIR/tests/tools/make_eval_fixture" "$fixture" || exit 99
DETECTOR="$fixture/detector.tflite"
DATA="--ground_truth_images_path=$fixture/scenes --model_output_labels=$fixture/detector_labels.txt"
TRUTH="--ground_truth_proto=$fixture/detection_truth.pbtxt"

# --- Scene a: the detection is the square itself (IoU 1); scene b: IoU 0.64,
# a hit up to threshold 0.6, a miss from 0.65 on, when the recall stays at
# 1/2 with precision 1 (AP 51/101 = 0.50495). mAP (3 + 7 x 0.50495) / 10.
run eval --model_file="$DETECTOR" $DATA $TRUTH --accelerator cpu_ref \
  --output_file_path="$scratch/metrics.txt"
expect_exit 0
expect_line 'Test accelerators: \[cpu_ref\]'
expect_line "Input normalization: mean \[0, 0, 0\], std \[255, 255, 255\] \(the model's metadata\)"
expect_line 'Num evaluation runs: 2'
expect_line "Preprocessing latency: avg=$NUMBER\(us\), std_dev=[0-9]+\(us\)"
expect_line "Inference latency: avg=$NUMBER\(us\), std_dev=[0-9]+\(us\)"
for t in 0.5 0.55 0.6; do expect_line "Average Precision \[IOU Threshold=$t\]: 1"; done
for t in 0.65 0.7 0.75 0.8 0.85 0.9 0.95; do
  expect_line "Average Precision \[IOU Threshold=$t\]: 0\.50495"
done
expect_line_count 'Average Precision \[IOU Threshold=[0-9.]+\]: .*' 10
expect_line 'Overall mAP: 0\.653465'
checks=$((checks + 1))
grep -q '^Overall mAP: 0\.653465$' "$scratch/metrics.txt" &&
  grep -q '^Average Precision \[IOU Threshold=0\.5\]: 1$' "$scratch/metrics.txt" ||
  fail "--output_file_path lacks the metrics"

# An image the ground truth does not name has no object (as in run_eval):
# scenes_extra/c.png's confident detection is a false positive between the
# two hits, so up to IoU 0.6 the precision is 2/3 at recall 1:
# AP (51 + 50 x 2/3) / 101 = 0.834983; mAP (3 x 0.834983 + 7 x 0.50495) / 10.
run eval "$DETECTOR" --ground_truth_images_path="$fixture/scenes_extra" \
  --model_output_labels="$fixture/detector_labels.txt" $TRUTH --accelerator cpu_ref
expect_exit 0
expect_line 'Num evaluation runs: 3'
expect_line 'Average Precision \[IOU Threshold=0\.6\]: 0\.834983'
expect_line 'Average Precision \[IOU Threshold=0\.65\]: 0\.50495'
expect_line 'Overall mAP: 0\.60396'

# --task names it too; --num_images=1 keeps scene a only: every AP is 1.
run eval "$DETECTOR" --task=object_detection $DATA $TRUTH --accelerator cpu_ref --num_images=1
expect_exit 0
expect_line 'Num evaluation runs: 1'
expect_line 'Average Precision \[IOU Threshold=0\.95\]: 1'
expect_line 'Overall mAP: 1'

# --debug_mode: run_eval's listing of every image's detections.
run eval "$DETECTOR" $DATA $TRUTH --accelerator cpu_ref --debug_mode
expect_exit 0
expect_line 'Image: a\.png'
expect_line 'Image: b\.png'
expect_line_count 'Object \[[0-3]\]' 8
expect_line '  Class-ID: 1'
expect_line '    Normalized Right: 0\.5'
expect_line 'Overall mAP: 0\.653465'

# --- Bad usage: one line, exit 2.
run eval "$DETECTOR" $DATA --task=object_detection
expect_usage_error '--ground_truth_proto is required'
run eval "$DETECTOR" $DATA $TRUTH --ground_truth_labels="$fixture/truth.txt"
expect_usage_error '--ground_truth_labels is not a flag of --task=object_detection'
run eval "$DETECTOR" $DATA $TRUTH --task=image_classification
expect_usage_error '--ground_truth_proto is not a flag of --task=image_classification'
run eval "$DETECTOR" $DATA $TRUTH --task=segmentation
expect_usage_error '--task must be image_classification or object_detection'

# --- Bad input: one line naming the problem, exit 1.
expect_one_error() {
  expect_exit 1
  checks=$((checks + 1))
  lines=$(grep -vEc '^(INFO|WARNING): ' "$scratch/err")
  [ "$lines" -eq 1 ] || fail "wanted one stderr line, got $lines: $(cat "$scratch/err")"
  expect_stderr "$1"
}
run eval "$DETECTOR" $DATA --ground_truth_proto="$fixture/no_such.pbtxt"
expect_one_error "tflaccel eval: --ground_truth_proto: cannot read $fixture/no_such.pbtxt: No such file or directory"
run eval "$DETECTOR" $DATA --ground_truth_proto="$fixture/detection_malformed.pbtxt"
expect_one_error "detection_malformed.pbtxt:4: 'one' where it needs a number"
printf 'detection_results {\n  image_name: "a.png"\n  objects { class_id: 1 bounding_box { normalized_top: 0.5 normalized_bottom: 0.2 normalized_left: 0 normalized_right: 1 } }\n}\n' \
  >"$scratch/upside_down.pbtxt"
run eval "$DETECTOR" $DATA --ground_truth_proto="$scratch/upside_down.pbtxt"
expect_one_error "upside_down.pbtxt:3: bounding_box has its bottom above its top"
printf 'detection_results { image_name: "a.png" objects { class_id: 1 bounding_box { normalized_top: 0 } } }\n' \
  >"$scratch/short_box.pbtxt"
run eval "$DETECTOR" $DATA --ground_truth_proto="$scratch/short_box.pbtxt"
expect_one_error "short_box.pbtxt:1: bounding_box lacks normalized_bottom"
printf 'detection_results { image_name: "a.png" label: 3 }\n' >"$scratch/unknown_field.pbtxt"
run eval "$DETECTOR" $DATA --ground_truth_proto="$scratch/unknown_field.pbtxt"
expect_one_error "'label' where it needs an image_name, image_id or objects field"
printf 'detection_results { image_name: "a.png"\n' >"$scratch/unclosed.pbtxt"
run eval "$DETECTOR" $DATA --ground_truth_proto="$scratch/unclosed.pbtxt"
expect_one_error "unclosed.pbtxt:2: the file ends where it needs"
printf '\n\n' >"$scratch/empty.pbtxt"
run eval "$DETECTOR" $DATA --ground_truth_proto="$scratch/empty.pbtxt"
expect_one_error "empty.pbtxt: no detection_results"
# A binary serialized message is refused, naming protoc.
printf '\012\003\022\001a\000' >"$scratch/binary.pb"
run eval "$DETECTOR" $DATA --ground_truth_proto="$scratch/binary.pb"
expect_one_error "binary.pb: not a text proto"
run eval "$DETECTOR" $DATA --ground_truth_proto="$fixture/detection_missing_image.pbtxt"
expect_one_error "detection_missing_image.pbtxt: image_name \"nowhere.png\" is not an image in $fixture/scenes"
cat "$fixture/detection_truth.pbtxt" "$fixture/detection_truth.pbtxt" >"$scratch/twice.pbtxt"
run eval "$DETECTOR" $DATA --ground_truth_proto="$scratch/twice.pbtxt"
expect_one_error "twice.pbtxt: image_name \"a.png\" has two detection_results"
run eval "$DETECTOR" --ground_truth_images_path="$fixture/no_such_dir" \
  --model_output_labels="$fixture/detector_labels.txt" $TRUTH
expect_one_error "tflaccel eval: --ground_truth_images_path: cannot read $fixture/no_such_dir: No such file or directory"
run eval "$DETECTOR" $DATA --ground_truth_proto="$fixture/detection_bad_class.pbtxt"
expect_one_error "class_id 7 (image a.png) is not a line of $fixture/detector_labels.txt (2 labels)"
printf 'detection_results { image_name: "a.png" }\n' >"$scratch/no_objects.pbtxt"
run eval "$DETECTOR" $DATA --ground_truth_proto="$scratch/no_objects.pbtxt" --accelerator cpu_ref
expect_one_error "the ground truth of the images evaluated has no object"
run eval "$fixture/classifier.tflite" $DATA $TRUTH
expect_one_error "not an SSD-style detector: the model has 1 inputs and 1 outputs"
finish
