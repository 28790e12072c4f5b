/* Partitioning, in three steps:
 *  1. assign each op to the first accelerator, in preference order, that
 *     can run it (cpu_ref last takes the rest);
 *  2. order the ops topologically, staying on the current accelerator (and
 *     the precision its answer requires: an op exact only in fp32 in an
 *     fp16 model) while it has a ready op, so that ops of one accelerator
 *     and precision cluster; cutting that order into runs gives convex
 *     partitions (a contiguous run of a topological order is convex) with
 *     few boundaries;
 *  3. hand partitions back to the fallback when they are too small, beyond
 *     max_delegated_partitions, or cost more to feed than they save, and
 *     repeat until nothing changes (each pass only moves ops to the
 *     fallback, so this ends).
 * Before 3, small runs at the requested precision that lie between runs
 * the accelerator must compile at a higher one (fp32 in an fp16 model: a
 * decoder tail mixing index ops and float ops) join them, so that the
 * tail is one partition instead of one per alternation; each pass only
 * raises precisions, so this ends too. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/facts/op_names.h"
#include "core/log/log.h"
#include "core/partition/partitioner.h"
#include "tflaccel/tflaccel.h"

typedef struct graph_links {
  int32_t *producer;          /* per tensor: op index or -1 */
  uint32_t *consumer_offsets; /* per tensor + 1: CSR into consumers */
  uint32_t *consumers;        /* op indices, one per input occurrence */
  uint8_t *is_graph_output;   /* per tensor */
} graph_links;

static void links_free(graph_links *links) {
  free(links->producer);
  free(links->consumer_offsets);
  free(links->consumers);
  free(links->is_graph_output);
}

static int tensor_valid(const tflaccel_graph_view *graph, uint32_t tensor) {
  return tensor != TFLACCEL_NO_TENSOR && tensor < graph->tensor_count;
}

/* A tensor whose value travels between partitions: not a constant, not a
 * variable (state lives inside the executable that owns it). */
static int tensor_is_activation(const tflaccel_graph_view *graph, uint32_t tensor) {
  uint32_t flags = graph->tensors[tensor].flags;
  return !(flags & (TFLACCEL_TENSOR_CONSTANT | TFLACCEL_TENSOR_VARIABLE));
}

static tflaccel_status links_build(const tflaccel_graph_view *graph, const uint32_t *graph_outputs,
                                   uint32_t graph_output_count, graph_links *links) {
  memset(links, 0, sizeof *links);
  uint32_t tensor_count = graph->tensor_count;
  links->producer = malloc(sizeof *links->producer * (tensor_count + 1));
  links->consumer_offsets = calloc(tensor_count + 1, sizeof *links->consumer_offsets);
  links->is_graph_output = calloc(tensor_count + 1, 1);
  uint64_t occurrences = 0;
  for (uint32_t op = 0; op < graph->op_count; ++op) occurrences += graph->ops[op].input_count;
  links->consumers = malloc(sizeof *links->consumers * (occurrences + 1));
  if (!links->producer || !links->consumer_offsets || !links->is_graph_output || !links->consumers) {
    links_free(links);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "partitioner: out of memory");
  }
  for (uint32_t t = 0; t < tensor_count; ++t) links->producer[t] = -1;
  for (uint32_t i = 0; i < graph_output_count; ++i)
    if (graph_outputs[i] < tensor_count) links->is_graph_output[graph_outputs[i]] = 1;
  for (uint32_t op = 0; op < graph->op_count; ++op) {
    const tflaccel_op_desc *desc = &graph->ops[op];
    for (uint32_t k = 0; k < desc->output_count; ++k)
      if (tensor_valid(graph, desc->outputs[k])) links->producer[desc->outputs[k]] = (int32_t)op;
    for (uint32_t k = 0; k < desc->input_count; ++k)
      if (tensor_valid(graph, desc->inputs[k])) links->consumer_offsets[desc->inputs[k] + 1]++;
  }
  for (uint32_t t = 0; t < tensor_count; ++t)
    links->consumer_offsets[t + 1] += links->consumer_offsets[t];
  uint32_t *fill = calloc(tensor_count + 1, sizeof *fill);
  if (fill == NULL) {
    links_free(links);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "partitioner: out of memory");
  }
  for (uint32_t op = 0; op < graph->op_count; ++op) {
    const tflaccel_op_desc *desc = &graph->ops[op];
    for (uint32_t k = 0; k < desc->input_count; ++k) {
      uint32_t tensor = desc->inputs[k];
      if (!tensor_valid(graph, tensor)) continue;
      links->consumers[links->consumer_offsets[tensor] + fill[tensor]++] = op;
    }
  }
  free(fill);
  return NULL;
}

static const char *op_name(const tflaccel_graph_view *graph, uint32_t op) {
  const tflaccel_op_desc *desc = &graph->ops[op];
  if (desc->code == TFLACCEL_OP_CUSTOM && desc->custom_code != NULL) return desc->custom_code;
  const char *name = op_code_name(desc->code);
  return name ? name : "UNKNOWN";
}

double partition_op_work(const tflaccel_graph_view *graph, uint32_t op) {
  const tflaccel_op_desc *desc = &graph->ops[op];
  double output_elements = 0.0;
  for (uint32_t k = 0; k < desc->output_count; ++k) {
    if (!tensor_valid(graph, desc->outputs[k])) continue;
    const tflaccel_tensor_desc *tensor = &graph->tensors[desc->outputs[k]];
    double elements = 1.0;
    for (uint32_t d = 0; d < tensor->rank; ++d) elements *= tensor->dims[d] > 0 ? tensor->dims[d] : 1;
    output_elements += elements;
  }
  /* Convolutions and matrix products: each output element costs one
   * multiply-accumulate per weight element feeding it. */
  uint32_t weights_input = 1;
  int has_weights = desc->code == TFLACCEL_OP_CONV_2D || desc->code == TFLACCEL_OP_DEPTHWISE_CONV_2D ||
                    desc->code == TFLACCEL_OP_FULLY_CONNECTED || desc->code == TFLACCEL_OP_TRANSPOSE_CONV;
  if (desc->code == TFLACCEL_OP_TRANSPOSE_CONV) weights_input = 1;
  if (has_weights && desc->input_count > weights_input &&
      tensor_valid(graph, desc->inputs[weights_input])) {
    const tflaccel_tensor_desc *weights = &graph->tensors[desc->inputs[weights_input]];
    if (weights->rank >= 2) {
      double per_output = 1.0;
      /* [O, H, W, I] or [1, H, W, O] or [O, I]: all but the output axis. */
      if (desc->code == TFLACCEL_OP_DEPTHWISE_CONV_2D) {
        for (uint32_t d = 1; d + 1 < weights->rank; ++d) per_output *= weights->dims[d];
      } else {
        for (uint32_t d = 1; d < weights->rank; ++d) per_output *= weights->dims[d];
      }
      return output_elements * per_output;
    }
  }
  return output_elements;
}

typedef struct plan_state {
  const tflaccel_graph_view *graph;
  const graph_links *links;
  const partition_candidate *candidates;
  uint32_t candidate_count;
  uint32_t fallback; /* candidate index of the fallback */
  uint32_t *assignment;
  int32_t split_fallback_ops; /* partition_options.split_fallback_ops */
  int32_t *raised; /* per op: the precision it joined (raise_small_runs), else -1 */
} plan_state;

/* The precision op is compiled at on its assigned accelerator, -1 for the
 * requested one. */
static int32_t op_precision(const plan_state *state, uint32_t op) {
  if (state->raised[op] != -1 && state->assignment[op] != state->fallback) return state->raised[op];
  const partition_candidate *candidate = &state->candidates[state->assignment[op]];
  return candidate->precision != NULL ? candidate->precision[op] : -1;
}

/* Whether ops a and b may share a partition: same accelerator, same
 * required precision. */
static int same_group(const plan_state *state, uint32_t a, uint32_t b) {
  return state->assignment[a] == state->assignment[b] && op_precision(state, a) == op_precision(state, b);
}

static void plan_free_partitions(partition_plan *plan) {
  for (uint32_t p = 0; p < plan->partition_count; ++p) {
    free(plan->partitions[p].ops);
    free(plan->partitions[p].inputs);
    free(plan->partitions[p].outputs);
  }
  free(plan->partitions);
  plan->partitions = NULL;
  plan->partition_count = 0;
}

void partition_plan_destroy(partition_plan *plan) {
  if (plan == NULL) return;
  plan_free_partitions(plan);
  free(plan->op_candidate);
  free(plan);
}

/* Kahn's algorithm, preferring ops of the current accelerator; then runs of
 * equal assignment become partitions. */
static tflaccel_status schedule_and_cut(const plan_state *state, partition_plan *plan) {
  const tflaccel_graph_view *graph = state->graph;
  uint32_t op_count = graph->op_count;
  plan_free_partitions(plan);
  if (op_count == 0) return NULL;
  uint32_t *pending = calloc(op_count, sizeof *pending); /* unfinished producers */
  uint32_t *order = malloc(sizeof *order * op_count);
  uint8_t *done = calloc(op_count, 1);
  uint32_t *partition_of = malloc(sizeof *partition_of * op_count);
  tflaccel_status status = NULL;
  if (!pending || !order || !done || !partition_of) {
    status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "partitioner: out of memory");
    goto cleanup;
  }
  for (uint32_t op = 0; op < op_count; ++op) {
    const tflaccel_op_desc *desc = &graph->ops[op];
    for (uint32_t k = 0; k < desc->input_count; ++k) {
      uint32_t tensor = desc->inputs[k];
      if (tensor_valid(graph, tensor) && state->links->producer[tensor] >= 0) pending[op]++;
    }
  }
  uint32_t current = 0; /* an op of the group being scheduled */
  for (uint32_t step = 0; step < op_count; ++step) {
    int32_t pick = -1, any = -1;
    for (uint32_t op = 0; op < op_count; ++op) {
      if (done[op] || pending[op] != 0) continue;
      if (any < 0) any = (int32_t)op;
      if (same_group(state, op, current)) {
        pick = (int32_t)op;
        break;
      }
    }
    if (pick < 0) pick = any;
    if (pick < 0) {
      status = tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                    "partitioner: the graph has a cycle (op order is not valid)");
      goto cleanup;
    }
    uint32_t op = (uint32_t)pick;
    current = op;
    done[op] = 1;
    order[step] = op;
    const tflaccel_op_desc *desc = &graph->ops[op];
    for (uint32_t k = 0; k < desc->output_count; ++k) {
      uint32_t tensor = desc->outputs[k];
      if (!tensor_valid(graph, tensor)) continue;
      for (uint32_t c = state->links->consumer_offsets[tensor];
           c < state->links->consumer_offsets[tensor + 1]; ++c)
        pending[state->links->consumers[c]]--;
    }
  }
  /* Cut into runs. */
  uint32_t run_count = 0;
  for (uint32_t step = 0; step < op_count; ++step)
    if (step == 0 || !same_group(state, order[step], order[step - 1]) ||
        (state->split_fallback_ops && state->assignment[order[step]] == state->fallback))
      ++run_count;
  plan->partitions = calloc(run_count, sizeof *plan->partitions);
  if (plan->partitions == NULL) {
    status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "partitioner: out of memory");
    goto cleanup;
  }
  plan->partition_count = run_count;
  uint32_t run = 0, start = 0;
  for (uint32_t step = 1; step <= op_count; ++step) {
    if (step < op_count && same_group(state, order[step], order[start]) &&
        !(state->split_fallback_ops && state->assignment[order[start]] == state->fallback))
      continue;
    partition *part = &plan->partitions[run];
    part->candidate = state->assignment[order[start]];
    part->precision = op_precision(state, order[start]);
    part->op_count = step - start;
    part->ops = malloc(sizeof *part->ops * part->op_count);
    if (part->ops == NULL) {
      status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "partitioner: out of memory");
      goto cleanup;
    }
    memcpy(part->ops, order + start, sizeof *part->ops * part->op_count);
    for (uint32_t k = start; k < step; ++k) partition_of[order[k]] = run;
    ++run;
    start = step;
  }
  /* Boundaries: what each partition reads from outside and what it hands out. */
  uint8_t *seen = calloc(graph->tensor_count + 1, 1);
  if (seen == NULL) {
    status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "partitioner: out of memory");
    goto cleanup;
  }
  for (uint32_t p = 0; p < plan->partition_count && status == NULL; ++p) {
    partition *part = &plan->partitions[p];
    uint32_t capacity_in = 0, capacity_out = 0;
    for (uint32_t i = 0; i < part->op_count; ++i) {
      capacity_in += graph->ops[part->ops[i]].input_count;
      capacity_out += graph->ops[part->ops[i]].output_count;
    }
    part->inputs = malloc(sizeof *part->inputs * (capacity_in + 1));
    part->outputs = malloc(sizeof *part->outputs * (capacity_out + 1));
    if (!part->inputs || !part->outputs) {
      status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "partitioner: out of memory");
      break;
    }
    memset(seen, 0, graph->tensor_count + 1);
    for (uint32_t i = 0; i < part->op_count; ++i) {
      const tflaccel_op_desc *desc = &graph->ops[part->ops[i]];
      for (uint32_t k = 0; k < desc->input_count; ++k) {
        uint32_t tensor = desc->inputs[k];
        if (!tensor_valid(graph, tensor) || seen[tensor] || !tensor_is_activation(graph, tensor))
          continue;
        int32_t producer = state->links->producer[tensor];
        if (producer >= 0 && partition_of[producer] == p) continue;
        seen[tensor] = 1;
        part->inputs[part->input_count++] = tensor;
        part->boundary_bytes += graph->tensors[tensor].byte_size;
      }
    }
    memset(seen, 0, graph->tensor_count + 1);
    for (uint32_t i = 0; i < part->op_count; ++i) {
      const tflaccel_op_desc *desc = &graph->ops[part->ops[i]];
      for (uint32_t k = 0; k < desc->output_count; ++k) {
        uint32_t tensor = desc->outputs[k];
        if (!tensor_valid(graph, tensor) || seen[tensor] || !tensor_is_activation(graph, tensor))
          continue;
        int leaves = state->links->is_graph_output[tensor];
        for (uint32_t c = state->links->consumer_offsets[tensor];
             !leaves && c < state->links->consumer_offsets[tensor + 1]; ++c)
          if (partition_of[state->links->consumers[c]] != p) leaves = 1;
        if (!leaves) continue;
        seen[tensor] = 1;
        part->outputs[part->output_count++] = tensor;
        part->boundary_bytes += graph->tensors[tensor].byte_size;
      }
    }
  }
  free(seen);
cleanup:
  free(pending);
  free(order);
  free(done);
  free(partition_of);
  return status;
}

static int fallback_runs_all(const plan_state *state, const partition *part) {
  const partition_candidate *fallback = &state->candidates[state->fallback];
  for (uint32_t i = 0; i < part->op_count; ++i)
    if (!fallback->supported[part->ops[i]]) return 0;
  return 1;
}

static void demote(plan_state *state, const partition *part, const char *why, int32_t log_level) {
  log_write(log_level, TFLACCEL_LOG_DEBUG, NULL,
            "partition of %u op(s) on %s handed back to %s: %s", part->op_count,
            state->candidates[part->candidate].name, state->candidates[state->fallback].name, why);
  for (uint32_t i = 0; i < part->op_count; ++i) state->assignment[part->ops[i]] = state->fallback;
}

/* A run at the requested precision joins the higher precision of its
 * neighbours when both (or its only one) are partitions of its accelerator
 * at that precision, and its work is at most a quarter of the largest run
 * of that accelerator left at the requested precision (the model's body
 * keeps the requested precision). Every op can be compiled at fp32, so
 * raising to it is always allowed; nothing is lowered. Returns 1 if it
 * raised any run. */
static int raise_small_runs(plan_state *state, const partition_plan *plan) {
  const tflaccel_graph_view *graph = state->graph;
  int changed = 0;
  for (uint32_t p = 0; p < plan->partition_count; ++p) {
    const partition *part = &plan->partitions[p];
    if (part->precision != -1 || part->candidate == state->fallback) continue;
    const partition *before = p > 0 ? &plan->partitions[p - 1] : NULL;
    const partition *after = p + 1 < plan->partition_count ? &plan->partitions[p + 1] : NULL;
    if (before == NULL && after == NULL) continue;
    int32_t target = before != NULL ? before->precision : after->precision;
    if (target != TFLACCEL_PRECISION_FP32) continue;
    if ((before != NULL && (before->candidate != part->candidate || before->precision != target)) ||
        (after != NULL && (after->candidate != part->candidate || after->precision != target)))
      continue;
    double work = 0.0, largest = 0.0;
    for (uint32_t i = 0; i < part->op_count; ++i) work += partition_op_work(graph, part->ops[i]);
    for (uint32_t q = 0; q < plan->partition_count; ++q) {
      const partition *other = &plan->partitions[q];
      if (other->candidate != part->candidate || other->precision != -1) continue;
      double other_work = 0.0;
      for (uint32_t i = 0; i < other->op_count; ++i)
        other_work += partition_op_work(graph, other->ops[i]);
      if (other_work > largest) largest = other_work;
    }
    if (work > largest / 4.0) continue;
    for (uint32_t i = 0; i < part->op_count; ++i) state->raised[part->ops[i]] = target;
    changed = 1;
  }
  return changed;
}

static int runs_every_op(const plan_state *state, uint32_t candidate) {
  for (uint32_t op = 0; op < state->graph->op_count; ++op)
    if (state->assignment[op] != candidate) return 0;
  return 1;
}

/* Demotes at most one group of partitions per call; returns 1 if it did. */
static int apply_limits(plan_state *state, const partition_plan *plan,
                        const partition_options *options) {
  const tflaccel_graph_view *graph = state->graph;
  int changed = 0;
  /* Too small to be worth a device round trip. */
  for (uint32_t p = 0; p < plan->partition_count; ++p) {
    const partition *part = &plan->partitions[p];
    if (part->candidate == state->fallback) continue;
    if ((int32_t)part->op_count < options->min_partition_ops && fallback_runs_all(state, part)) {
      demote(state, part, "fewer ops than min_partition_ops", options->log_level);
      changed = 1;
    }
  }
  if (changed) return 1;
  /* Keep only the largest max_delegated_partitions. */
  if (options->max_delegated_partitions > 0) {
    uint32_t delegated = 0;
    for (uint32_t p = 0; p < plan->partition_count; ++p)
      if (plan->partitions[p].candidate != state->fallback) ++delegated;
    while (delegated > (uint32_t)options->max_delegated_partitions) {
      /* The smallest delegated partition that the fallback can take. */
      int32_t smallest = -1;
      for (uint32_t p = 0; p < plan->partition_count; ++p) {
        const partition *part = &plan->partitions[p];
        if (part->candidate == state->fallback || !fallback_runs_all(state, part)) continue;
        if (state->assignment[part->ops[0]] == state->fallback) continue; /* already demoted */
        if (smallest < 0 || part->op_count < plan->partitions[smallest].op_count)
          smallest = (int32_t)p;
      }
      if (smallest < 0) break;
      demote(state, &plan->partitions[smallest], "beyond max_delegated_partitions", options->log_level);
      changed = 1;
      --delegated;
    }
    if (changed) return 1;
  }
  /* Cost: feeding a partition must cost less than what it saves. A partition
   * that is the whole graph stays: its transfers happen either way; so do
   * the partitions of an accelerator that has every op (split only by the
   * precisions they need: between them tensors stay on the device). */
  for (uint32_t p = 0; p < plan->partition_count; ++p) {
    const partition *part = &plan->partitions[p];
    if (part->candidate == state->fallback || part->op_count == graph->op_count) continue;
    if (runs_every_op(state, part->candidate)) continue;
    if (!fallback_runs_all(state, part)) continue;
    const partition_candidate *candidate = &state->candidates[part->candidate];
    double cpu_us = 0.0, accelerator_us = 0.0;
    for (uint32_t i = 0; i < part->op_count; ++i) {
      double work_us = partition_op_work(graph, part->ops[i]) / options->cost.cpu_macs_per_us;
      float relative = candidate->relative_cost ? candidate->relative_cost[part->ops[i]] : 0.0f;
      cpu_us += work_us;
      accelerator_us += relative > 0.0f ? work_us * relative
                                        : work_us / options->cost.accelerator_speedup;
    }
    double transfer_us = (double)part->boundary_bytes / (1024.0 * 1024.0) *
                             options->cost.transfer_us_per_mib +
                         options->cost.dispatch_overhead_us;
    if (cpu_us - accelerator_us < transfer_us) {
      char why[160];
      snprintf(why, sizeof why, "saves %.1f us but moving %llu bytes costs %.1f us",
               cpu_us - accelerator_us, (unsigned long long)part->boundary_bytes, transfer_us);
      demote(state, part, why, options->log_level);
      changed = 1;
    }
  }
  return changed;
}

static tflaccel_status full_delegation_error(const plan_state *state) {
  const tflaccel_graph_view *graph = state->graph;
  /* Lists every op left on the fallback, with the first delegate's reason. */
  uint32_t delegate = UINT32_MAX;
  for (uint32_t c = 0; c < state->candidate_count; ++c)
    if (!state->candidates[c].is_fallback) {
      delegate = c;
      break;
    }
  if (delegate == UINT32_MAX)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                "require_full_delegation: no accelerator other than %s is available",
                                state->candidates[state->fallback].name);
  size_t capacity = 4096, used = 0;
  char *list = malloc(capacity);
  if (list == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "partitioner: out of memory");
  list[0] = '\0';
  uint32_t count = 0;
  for (uint32_t op = 0; op < graph->op_count; ++op) {
    if (state->assignment[op] != state->fallback) continue;
    const char *reason = state->candidates[delegate].reasons ? state->candidates[delegate].reasons[op] : NULL;
    char item[TFLACCEL_REASON_SIZE + 96];
    int length = snprintf(item, sizeof item, "%sop %u (%s): %s", count ? "; " : "", op,
                          op_name(graph, op), reason && *reason ? reason : "not supported");
    if (length < 0) continue;
    if (used + (size_t)length + 1 > capacity) {
      size_t grown_capacity = (used + (size_t)length + 1) * 2;
      char *grown = realloc(list, grown_capacity);
      if (grown == NULL) {
        free(list);
        return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "partitioner: out of memory");
      }
      list = grown;
      capacity = grown_capacity;
    }
    memcpy(list + used, item, (size_t)length + 1);
    used += (size_t)length;
    ++count;
  }
  tflaccel_status status = tflaccel_status_make(
      TFLACCEL_UNSUPPORTED, "require_full_delegation: %u of %u operations cannot run on %s: %s",
      count, graph->op_count, state->candidates[delegate].name, list);
  free(list);
  return status;
}

tflaccel_status partition_graph(const tflaccel_graph_view *graph, const uint32_t *graph_outputs,
                                uint32_t graph_output_count, const partition_candidate *candidates,
                                uint32_t candidate_count, const partition_options *options,
                                partition_plan **plan_out) {
  *plan_out = NULL;
  if (candidate_count == 0)
    return tflaccel_status_make(TFLACCEL_UNAVAILABLE, "no accelerator is available");
  plan_state state = {graph, NULL, candidates, candidate_count, candidate_count - 1, NULL,
                      options->split_fallback_ops, NULL};
  for (uint32_t c = 0; c < candidate_count; ++c)
    if (candidates[c].is_fallback) state.fallback = c;

  graph_links links;
  tflaccel_status status = links_build(graph, graph_outputs, graph_output_count, &links);
  if (status != NULL) return status;
  state.links = &links;
  partition_plan *plan = calloc(1, sizeof *plan);
  state.assignment = malloc(sizeof *state.assignment * (graph->op_count + 1));
  state.raised = malloc(sizeof *state.raised * (graph->op_count + 1));
  if (plan == NULL || state.assignment == NULL || state.raised == NULL) {
    free(plan);
    free(state.assignment);
    free(state.raised);
    links_free(&links);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "partitioner: out of memory");
  }
  plan->op_count = graph->op_count;
  for (uint32_t op = 0; op < graph->op_count; ++op) state.raised[op] = -1;

  /* 1. First accelerator that can run the op. */
  for (uint32_t op = 0; op < graph->op_count && status == NULL; ++op) {
    uint32_t chosen = UINT32_MAX;
    for (uint32_t c = 0; c < candidate_count; ++c)
      if (candidates[c].supported[op]) {
        chosen = c;
        break;
      }
    if (chosen == UINT32_MAX) {
      char reasons[1024] = "";
      size_t used = 0;
      for (uint32_t c = 0; c < candidate_count && used < sizeof reasons; ++c) {
        int written = snprintf(reasons + used, sizeof reasons - used, "%s%s: %s", c ? "; " : "",
                               candidates[c].name,
                               candidates[c].reasons && candidates[c].reasons[op]
                                   ? candidates[c].reasons[op]
                                   : "not supported");
        if (written > 0) used += (size_t)written;
      }
      status = tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                    "op %u (%s) cannot run on any selected accelerator: %s", op,
                                    op_name(graph, op), reasons);
      break;
    }
    state.assignment[op] = chosen;
    if (options->log_level >= TFLACCEL_LOG_DEBUG) {
      if (chosen == 0)
        log_write(options->log_level, TFLACCEL_LOG_DEBUG, NULL, "op %u (%s) -> %s", op,
                  op_name(graph, op), candidates[chosen].name);
      else
        log_write(options->log_level, TFLACCEL_LOG_DEBUG, NULL, "op %u (%s) -> %s (%s: %s)", op,
                  op_name(graph, op), candidates[chosen].name, candidates[0].name,
                  candidates[0].reasons && candidates[0].reasons[op] ? candidates[0].reasons[op] : "");
    }
  }
  if (status == NULL && options->require_full_delegation) {
    for (uint32_t op = 0; op < graph->op_count; ++op)
      if (state.assignment[op] == state.fallback) {
        status = full_delegation_error(&state);
        break;
      }
    if (status == NULL && graph->op_count > 0 && candidates[state.assignment[0]].is_fallback)
      status = full_delegation_error(&state);
  }

  /* 2 and 3, until stable. */
  for (uint32_t pass = 0; status == NULL; ++pass) {
    status = schedule_and_cut(&state, plan);
    if (status != NULL || pass > 2 * graph->op_count) break;
    if (raise_small_runs(&state, plan)) continue;
    if (options->require_full_delegation) break;
    if (!apply_limits(&state, plan, options)) break;
  }
  if (status == NULL) {
    plan->op_candidate = state.assignment;
    state.assignment = NULL;
    status = partition_check_convex(graph, plan);
  }
  free(state.assignment);
  free(state.raised);
  links_free(&links);
  if (status != NULL) {
    partition_plan_destroy(plan);
    return status;
  }
  *plan_out = plan;
  return NULL;
}

tflaccel_status partition_check_convex(const tflaccel_graph_view *graph, const partition_plan *plan) {
  /* Partition p is convex iff no op outside p lies on a path from p to p.
   * Equivalently, for the partitions' order: every input of partition p is
   * produced by an earlier partition (or is a graph input or constant). */
  uint32_t *partition_of = malloc(sizeof *partition_of * (graph->op_count + 1));
  int32_t *producer = malloc(sizeof *producer * (graph->tensor_count + 1));
  if (partition_of == NULL || producer == NULL) {
    free(partition_of);
    free(producer);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "partitioner: out of memory");
  }
  for (uint32_t t = 0; t < graph->tensor_count; ++t) producer[t] = -1;
  for (uint32_t op = 0; op < graph->op_count; ++op) {
    partition_of[op] = UINT32_MAX;
    for (uint32_t k = 0; k < graph->ops[op].output_count; ++k)
      if (tensor_valid(graph, graph->ops[op].outputs[k])) producer[graph->ops[op].outputs[k]] = (int32_t)op;
  }
  tflaccel_status status = NULL;
  for (uint32_t p = 0; p < plan->partition_count; ++p)
    for (uint32_t i = 0; i < plan->partitions[p].op_count; ++i)
      partition_of[plan->partitions[p].ops[i]] = p;
  for (uint32_t op = 0; op < graph->op_count && status == NULL; ++op) {
    if (partition_of[op] == UINT32_MAX) {
      status = tflaccel_status_make(TFLACCEL_INTERNAL, "partitioner: op %u is in no partition", op);
      break;
    }
    for (uint32_t k = 0; k < graph->ops[op].input_count; ++k) {
      uint32_t tensor = graph->ops[op].inputs[k];
      if (!tensor_valid(graph, tensor) || producer[tensor] < 0) continue;
      uint32_t from = partition_of[producer[tensor]];
      if (from > partition_of[op]) {
        status = tflaccel_status_make(TFLACCEL_INTERNAL,
                                      "partitioner: op %u in partition %u reads tensor %u from the "
                                      "later partition %u",
                                      op, partition_of[op], tensor, from);
        break;
      }
    }
  }
  /* Within one partition, ops must also be in dependency order. */
  for (uint32_t p = 0; p < plan->partition_count && status == NULL; ++p) {
    const partition *part = &plan->partitions[p];
    for (uint32_t i = 0; i < part->op_count && status == NULL; ++i) {
      const tflaccel_op_desc *desc = &graph->ops[part->ops[i]];
      for (uint32_t k = 0; k < desc->input_count; ++k) {
        uint32_t tensor = desc->inputs[k];
        if (!tensor_valid(graph, tensor) || producer[tensor] < 0) continue;
        if (partition_of[producer[tensor]] != p) continue;
        int earlier = 0;
        for (uint32_t j = 0; j < i; ++j)
          if (part->ops[j] == (uint32_t)producer[tensor]) earlier = 1;
        if (!earlier) {
          status = tflaccel_status_make(TFLACCEL_INTERNAL,
                                        "partitioner: op %u runs before its producer %d", part->ops[i],
                                        producer[tensor]);
          break;
        }
      }
    }
  }
  free(partition_of);
  free(producer);
  return status;
}
