/* TFLite's BuiltinOperator names (facts library: see core/facts/local.mk). */
#ifndef TFLACCEL_CORE_FACTS_OP_NAMES_H
#define TFLACCEL_CORE_FACTS_OP_NAMES_H

#include <stdint.h>

/* "CONV_2D" for TFLACCEL_OP_CONV_2D; NULL for a code the schema does not
 * name (negative, beyond the table, or a gap). */
const char *op_code_name(int32_t code);

#endif
