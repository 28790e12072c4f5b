#include "config.h"

#include "core/facts/axis.h"

int32_t axis_normalize(int64_t axis, uint32_t rank) {
  if (axis < 0) axis += rank;
  return axis >= 0 && axis < (int64_t)rank && axis <= INT32_MAX ? (int32_t)axis : -1;
}
