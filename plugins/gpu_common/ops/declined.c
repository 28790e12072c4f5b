/* Why the GPU layer has no kernel for ops the model corpus uses (README:
 * the table of models), so that a decline names the cause rather than
 * only the op. Each entry is a fact about the GPU layer's design, kept
 * here once; ops that get a builder leave this table. */
#include "config.h"

#include "plugins/gpu_common/ops/op_families.h"

/* The GPU layer holds every tensor as float values in fp32 or fp16 slices
 * (gpu_layout.h): there is no int32/int64 storage and no boundary
 * conversion for them. */
#define NO_INTEGER_TENSORS                                                      \
  "it reads or writes int32/int64 values, and the GPU layer stores only float " \
  "tensors (fp32 or fp16 slices; fp16 holds integers exactly only up to 2048)"

/* State tensors live inside the executable that owns them (the
 * partitioner never lets them cross a partition), and the GPU layer has
 * no buffer that persists across runs. */
#define NO_PERSISTENT_STATE                                                         \
  "its state is a variable tensor kept across runs, and a GPU partition has no " \
  "buffer that persists from one run to the next"

const char *gpu_op_no_kernel_reason(int32_t code) {
  switch (code) {
    case TFLACCEL_OP_CAST: return NO_INTEGER_TENSORS;
    case TFLACCEL_OP_GATHER_ND:
      return "its indices (run-time int32 tensors in the corpus) cannot be held: the GPU "
             "layer stores only float tensors (fp32 or fp16 slices; fp16 holds integers "
             "exactly only up to 2048) and has no gather-by-index kernel";
    case TFLACCEL_OP_SVDF:
    case TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM: return NO_PERSISTENT_STATE;
    default: return NULL;
  }
}
