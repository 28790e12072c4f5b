/* Why the GPU layer has no kernel for ops the model corpus uses (README:
 * the table of models), so that a decline names the cause rather than
 * only the op. Each entry is a fact about the GPU layer's design, kept
 * here once; ops that get a builder leave this table. */
#include "config.h"

#include <string.h>

#include "core/facts/posenet_decoder.h"
#include "plugins/gpu_common/ops/op_families.h"

const char *gpu_op_no_kernel_reason(int32_t code) {
  /* Every builtin op of the corpus has a builder now (SVDF and GATHER_ND
   * were the last); the table stays for the next such op. */
  (void)code;
  return NULL;
}

const char *gpu_op_no_custom_kernel_reason(const char *custom_code) {
  if (custom_code == NULL) return NULL;
  /* Coral's pose decoder walks a skeleton from the strongest local maxima
   * one pose at a time: each root depends on the poses kept before it. */
  if (strcmp(custom_code, POSENET_DECODER_CUSTOM_CODE) == 0)
    return "sequential pose decoding (roots in score order, non-maximum suppression against "
           "the poses kept, a walk along the skeleton per pose), not dense math";
  return NULL;
}
