/* FULLY_CONNECTED, float32: weights [O, I], optional bias [O]; the input is
 * read as [count / I, I]. With keep_num_dims the output keeps the input's
 * leading dims, else it is [count / I, O].
 *
 * Each output starts from its bias and adds x[i] * w[o][i] for i in order
 * (XNNPACK's order: the float references come from it). Constant weights
 * are transposed to [I][O] once, so that the inner loop runs over
 * contiguous outputs and vectorises; the work splits over blocks of
 * outputs. Non-constant weights are read in place, one dot product each. */
#include "config.h"

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

/* Multiply-adds per parallel chunk. */
#define FC_MIN_WORK 32768

static int fc_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                    char *reason) {
  if (!cpu_check_arity(graph, op, 2, 3, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *weights = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *bias = cpu_op_input(graph, op, 2);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  const tflaccel_fully_connected_params *params = &op->params->fully_connected;
  if (!cpu_check_dtype(input, TFLACCEL_DTYPE_FLOAT32, "FULLY_CONNECTED input", reason) ||
      !cpu_check_dtype(weights, TFLACCEL_DTYPE_FLOAT32, "FULLY_CONNECTED weights", reason) ||
      !cpu_check_dtype(output, TFLACCEL_DTYPE_FLOAT32, "FULLY_CONNECTED output", reason) ||
      !cpu_check_rank(weights, 2, "FULLY_CONNECTED weights", reason))
    return 0;
  if (params->weights_format != 0)
    return cpu_reason(reason, "FULLY_CONNECTED: shuffled weights format %d is not supported",
                      params->weights_format);
  if (!cpu_check_activation(params->fused_activation, reason)) return 0;
  int32_t units = weights->dims[0], depth = weights->dims[1];
  int64_t count = cpu_element_count(input);
  if (depth < 1 || count % depth != 0)
    return cpu_reason(reason, "FULLY_CONNECTED: input of %lld elements is not rows of %d",
                      (long long)count, depth);
  if (bias != NULL) {
    if (!cpu_check_dtype(bias, TFLACCEL_DTYPE_FLOAT32, "FULLY_CONNECTED bias", reason)) return 0;
    if (cpu_element_count(bias) != units)
      return cpu_reason(reason, "FULLY_CONNECTED: bias has %lld elements for %d units",
                        (long long)cpu_element_count(bias), units);
  }
  int64_t batches = count / depth;
  if (output->rank == 0 || output->dims[output->rank - 1] != units ||
      cpu_element_count(output) != batches * units)
    return cpu_reason(reason, "FULLY_CONNECTED: output shape does not hold %lld rows of %d units",
                      (long long)batches, units);
  if (params->keep_num_dims &&
      (input->rank == 0 || input->dims[input->rank - 1] != depth || output->rank != input->rank))
    return cpu_reason(reason, "FULLY_CONNECTED: keep_num_dims needs input [..., %d] and an output "
                      "of the same rank", depth);
  return 1;
}

typedef struct fc_data {
  float *transposed; /* [I][O], or NULL when the weights are not constant */
} fc_data;

static tflaccel_status fc_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_host_services *host = context->host;
  const tflaccel_tensor_desc *weights = cpu_input_tensor(context, 1);
  fc_data *data = host->alloc(host->context, sizeof *data, 0);
  if (data == NULL)
    return CPU_STATUS(context, TFLACCEL_OUT_OF_MEMORY, "no memory for FULLY_CONNECTED");
  data->transposed = NULL;
  if (cpu_is_constant(weights)) {
    int32_t units = weights->dims[0], depth = weights->dims[1];
    size_t count = (size_t)units * depth;
    data->transposed = host->alloc(host->context, sizeof(float) * (count > 0 ? count : 1), 64);
    if (data->transposed == NULL) {
      host->free(host->context, data);
      return CPU_STATUS(context, TFLACCEL_OUT_OF_MEMORY, "no memory for FULLY_CONNECTED weights");
    }
    const float *source = weights->data;
    for (int32_t u = 0; u < units; u++)
      for (int32_t d = 0; d < depth; d++)
        data->transposed[(size_t)d * units + u] = source[(size_t)u * depth + d];
  }
  *op_data = data;
  return NULL;
}

static void fc_release(const tflaccel_host_services *host, void *op_data) {
  fc_data *data = op_data;
  if (data->transposed != NULL) host->free(host->context, data->transposed);
  host->free(host->context, data);
}

/* Units per parallel block of the transposed path. */
#define FC_UNIT_BLOCK 64

typedef struct fc_job {
  const float *input, *weights, *transposed, *bias;
  float *output;
  int64_t batches;
  int32_t units, depth;
  float low, high;
} fc_job;

/* Transposed weights: [begin, end) index (batch, block of units) pairs. */
static void fc_blocks(void *argument, int64_t begin, int64_t end) {
  const fc_job *job = argument;
  int64_t blocks = (job->units + FC_UNIT_BLOCK - 1) / FC_UNIT_BLOCK;
  for (int64_t index = begin; index < end; index++) {
    int64_t batch = index / blocks;
    int32_t first = (int32_t)(index % blocks) * FC_UNIT_BLOCK;
    int32_t count = job->units - first < FC_UNIT_BLOCK ? job->units - first : FC_UNIT_BLOCK;
    const float *x = job->input + batch * job->depth;
    float *out = job->output + batch * job->units + first;
    for (int32_t u = 0; u < count; u++) out[u] = job->bias != NULL ? job->bias[first + u] : 0.0f;
    for (int32_t d = 0; d < job->depth; d++)
      cpu_axpy(out, job->transposed + (size_t)d * job->units + first, x[d], count);
    for (int32_t u = 0; u < count; u++) out[u] = cpu_clamp(out[u], job->low, job->high);
  }
}

/* Weights in place: [begin, end) index output elements. */
static void fc_outputs(void *argument, int64_t begin, int64_t end) {
  const fc_job *job = argument;
  int32_t depth = job->depth;
  for (int64_t index = begin; index < end; index++) {
    int64_t batch = index / job->units;
    int32_t unit = (int32_t)(index % job->units);
    const float *x = job->input + batch * depth;
    const float *w = job->weights + (int64_t)unit * depth;
    float total = job->bias != NULL ? job->bias[unit] : 0.0f;
    for (int32_t i = 0; i < depth; i++) total += x[i] * w[i];
    job->output[index] = cpu_clamp(total, job->low, job->high);
  }
}

static tflaccel_status fc_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, 0);
  const tflaccel_tensor_desc *weights = cpu_input_tensor(context, 1);
  const fc_data *data = context->op_data;
  fc_job job;
  job.input = cpu_input_data(context, 0);
  job.weights = cpu_input_data(context, 1);
  job.transposed = data->transposed;
  job.bias = cpu_input_data(context, 2);
  job.output = cpu_output_data(context, 0);
  job.units = weights->dims[0];
  job.depth = weights->dims[1];
  job.batches = cpu_element_count(input) / job.depth;
  cpu_activation_range(context->op->params->fully_connected.fused_activation, &job.low,
                       &job.high);
  if (job.units == 0 || job.batches == 0) return NULL;
  int64_t depth = job.depth > 0 ? job.depth : 1;
  if (job.transposed != NULL) {
    int64_t blocks = (job.units + FC_UNIT_BLOCK - 1) / FC_UNIT_BLOCK;
    int64_t min_chunk = FC_MIN_WORK / (FC_UNIT_BLOCK * depth);
    cpu_parallel_for(context->pool, job.batches * blocks, min_chunk > 0 ? min_chunk : 1, fc_blocks,
                     &job);
  } else {
    int64_t min_chunk = FC_MIN_WORK / depth;
    cpu_parallel_for(context->pool, job.batches * job.units, min_chunk > 0 ? min_chunk : 1,
                     fc_outputs, &job);
  }
  return NULL;
}

const cpu_kernel cpu_kernel_fully_connected = {
    .op_code = TFLACCEL_OP_FULLY_CONNECTED,
    .check = fc_check,
    .prepare = fc_prepare,
    .release = fc_release,
    .eval = fc_eval,
};
