/* Axis arguments of TFLite ops (facts library). */
#ifndef TFLACCEL_CORE_FACTS_AXIS_H
#define TFLACCEL_CORE_FACTS_AXIS_H

#include <stdint.h>

/* An axis in [-rank, rank) as an index in [0, rank) (negative axes count
 * from the end); -1 when it is outside that range or beyond int32. */
int32_t axis_normalize(int64_t axis, uint32_t rank);

#endif
