/* Coral's PosenetDecoderOp custom op (libcoral coral/pose_estimation): its
 * custom_code, the pose graph's sizes, its options, and the shapes of its
 * outputs, for the core's shape inference and cpu_ref's kernel alike.
 * Inputs: heatmaps [1, H, W, 17], short offsets [1, H, W, 34], mid offsets
 * [1, H, W, 64] (uint8 or float32). Outputs, float32: keypoints
 * [1, max_detections, 17, 2] as (y, x) pixels, keypoint scores
 * [1, max_detections, 17], pose scores [1, max_detections], pose count [1]. */
#ifndef TFLACCEL_FACTS_POSENET_DECODER_H
#define TFLACCEL_FACTS_POSENET_DECODER_H

#include <stddef.h>
#include <stdint.h>

#define POSENET_DECODER_CUSTOM_CODE "PosenetDecoderOp"
#define POSENET_KEYPOINTS 17
#define POSENET_EDGES 16 /* forward edges; as many backward */
#define POSENET_OUTPUTS 4
/* Above this many detections the options are taken as corrupt. */
#define POSENET_MAX_DETECTIONS_LIMIT 1024

typedef struct posenet_decoder_options {
  int32_t max_detections;
  float score_threshold;
  int32_t stride;
  float nms_radius;
} posenet_decoder_options;

/* Reads the flexbuffer options; 0 when malformed, missing a key, or out
 * of range (max_detections 1..POSENET_MAX_DETECTIONS_LIMIT, stride >= 1). */
int posenet_decoder_options_parse(const void *custom_options, size_t size,
                                  posenet_decoder_options *options);

/* Shape of output `output` (0..3) into dims (4 entries); returns its rank,
 * 0 for an output index out of range. */
uint32_t posenet_decoder_output_shape(const posenet_decoder_options *options, uint32_t output,
                                      int32_t dims[4]);

#endif
