/* The partition plan part of `tflaccel inspect --accelerator NAMES`. */
#ifndef TFLACCEL_TOOLS_INSPECT_PLAN_H
#define TFLACCEL_TOOLS_INSPECT_PLAN_H

#include <stdio.h>

#include "tflaccel/tflaccel.h"

/* Human-readable: each partition's accelerator, ops, boundary tensors and
 * their bytes. */
tflaccel_status inspect_plan_print(FILE *out, const tflaccel_model *model,
                                   const tflaccel_compiled_model *compiled, const char *selection);
/* JSON: writes ,"plan":[{"accelerator","ops","inputs","outputs","boundary_bytes"},...]
 * into an open object. */
tflaccel_status inspect_plan_json(FILE *out, const tflaccel_model *model,
                                  const tflaccel_compiled_model *compiled, const char *selection);

#endif
