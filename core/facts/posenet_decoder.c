#include "config.h"

#include "core/facts/posenet_decoder.h"

#include "core/facts/flexbuffer.h"

int posenet_decoder_options_parse(const void *custom_options, size_t size,
                                  posenet_decoder_options *options) {
  flex_ref root;
  if (!flex_root(custom_options, size, &root) || root.type != FLEX_MAP) return 0;
  if (!flex_map_int32(&root, "max_detections", &options->max_detections) ||
      !flex_map_float(&root, "score_threshold", &options->score_threshold) ||
      !flex_map_int32(&root, "stride", &options->stride) ||
      !flex_map_float(&root, "nms_radius", &options->nms_radius))
    return 0;
  return options->max_detections >= 1 &&
         options->max_detections <= POSENET_MAX_DETECTIONS_LIMIT && options->stride >= 1;
}

uint32_t posenet_decoder_output_shape(const posenet_decoder_options *options, uint32_t output,
                                      int32_t dims[4]) {
  switch (output) {
  case 0:
    dims[0] = 1, dims[1] = options->max_detections, dims[2] = POSENET_KEYPOINTS, dims[3] = 2;
    return 4;
  case 1:
    dims[0] = 1, dims[1] = options->max_detections, dims[2] = POSENET_KEYPOINTS;
    return 3;
  case 2:
    dims[0] = 1, dims[1] = options->max_detections;
    return 2;
  case 3:
    dims[0] = 1;
    return 1;
  default:
    return 0;
  }
}
