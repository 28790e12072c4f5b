/* benchmark_model's --print_preinvoke_state / --print_postinvoke_state for
 * tflaccel: every tensor of the prepared graph with its type, size, shape
 * and where it lives (constant in the model file, the host arena with its
 * offset, or inside a partition on its accelerator), then each node and the
 * partition that runs it. */
#ifndef TFLACCEL_TOOLS_TENSOR_STATE_H
#define TFLACCEL_TOOLS_TENSOR_STATE_H

#include <stdio.h>

#include "tflaccel/tflaccel.h"

typedef struct tensor_state_widths {
  int name, type, storage; /* --tensor_name/type/alloc_type_display_length */
} tensor_state_widths;

tflaccel_status tensor_state_print(FILE *out, const tflaccel_compiled_model *compiled,
                                   const tensor_state_widths *widths);

#endif
