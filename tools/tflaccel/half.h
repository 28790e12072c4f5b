/* IEEE half <-> float conversion for the CLI (inputs, printing). */
#ifndef TFLACCEL_TOOLS_HALF_H
#define TFLACCEL_TOOLS_HALF_H

#include <stdint.h>

uint16_t half_from_float(float value);
float half_to_float(uint16_t half);

#endif
