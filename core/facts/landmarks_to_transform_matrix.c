#include "config.h"

#include "core/facts/landmarks_to_transform_matrix.h"

#include <stdarg.h>
#include <stdio.h>

#include "core/facts/flexbuffer.h"

__attribute__((format(printf, 3, 4))) static int refuse(char *reason, size_t reason_size,
                                                       const char *format, ...) {
  if (reason != NULL && reason_size > 0) {
    int used = snprintf(reason, reason_size, "%s: ", LANDMARKS_TO_TRANSFORM_MATRIX_CUSTOM_CODE);
    if (used > 0 && (size_t)used < reason_size) {
      va_list args;
      va_start(args, format);
      vsnprintf(reason + used, reason_size - (size_t)used, format, args);
      va_end(args);
    }
  }
  return 0;
}

int landmarks_to_transform_matrix_options_parse(const void *custom_options, size_t size,
                                                int64_t landmarks,
                                                landmarks_to_transform_matrix_options *o,
                                                char *reason, size_t reason_size) {
  flex_ref root, subset;
  if (!flex_root(custom_options, size, &root) || root.type != FLEX_MAP)
    return refuse(reason, reason_size, "custom options are not a flexbuffer map");
  if (!flex_map_get(&root, "subset_idxs", &subset))
    return refuse(reason, reason_size, "version 1 options (no subset_idxs) are not supported");
  if (!flex_map_int32(&root, "left_rotation_idx", &o->left_rotation_idx) ||
      !flex_map_int32(&root, "right_rotation_idx", &o->right_rotation_idx) ||
      !flex_map_int32(&root, "output_width", &o->output_width) ||
      !flex_map_int32(&root, "output_height", &o->output_height) ||
      !flex_map_float(&root, "target_rotation_radians", &o->target_rotation_radians) ||
      !flex_map_float(&root, "scale_x", &o->scale_x) || !flex_map_float(&root, "scale_y", &o->scale_y))
    return refuse(reason, reason_size, "an option is missing or not a number");
  size_t count;
  if (!flex_vector_size(&subset, &count) || count == 0 ||
      count > LANDMARKS_TO_TRANSFORM_MATRIX_MAX_SUBSET)
    return refuse(reason, reason_size, "subset_idxs is not a vector of 1 to %d indices",
                  LANDMARKS_TO_TRANSFORM_MATRIX_MAX_SUBSET);
  for (size_t i = 0; i < count; i++) {
    flex_ref element;
    int64_t index;
    if (!flex_vector_at(&subset, i, &element) || !flex_as_int64(&element, &index) || index < 0 ||
        index >= landmarks)
      return refuse(reason, reason_size, "subset_idxs[%zu] is not a landmark index below %lld", i,
                    (long long)landmarks);
    o->subset[i] = (int32_t)index;
  }
  o->subset_count = (uint32_t)count;
  if (count % 2) o->subset[o->subset_count++] = o->subset[count - 1];
  if (o->left_rotation_idx < 0 || o->left_rotation_idx >= landmarks ||
      o->right_rotation_idx < 0 || o->right_rotation_idx >= landmarks)
    return refuse(reason, reason_size, "rotation landmark index out of range");
  if (o->output_width <= 0 || o->output_height <= 0 || !(o->scale_x > 0) || !(o->scale_y > 0))
    return refuse(reason, reason_size, "output size and scales must be positive");
  return 1;
}
