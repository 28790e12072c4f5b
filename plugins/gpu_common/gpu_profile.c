/* Per-dispatch GPU timing of a compiled partition (gpu_profile.h). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_profile.h"

struct gpu_profile {
  uint32_t dispatch_count;
  uint64_t runs;
  uint64_t discarded_runs; /* whose times the backend could not trust */
  int32_t reported;        /* the times went to the core (executable_profile) */
  double wall_sum_us, wall_min_us;
  /* Per dispatch: the sum and min over the runs, and the run being added. */
  double *sum_us, *min_us, *last_us;
  /* Per kernel, filled when logging (at most one per dispatch): its
   * dispatches and the sum of their means. */
  int32_t *kernel_ids;
  uint32_t *kernel_dispatches;
  double *kernel_total_us;
};

tflaccel_status gpu_profile_create(const gpu_backend *backend, uint32_t dispatch_count,
                                   gpu_profile **profile) {
  const tflaccel_host_services *host = backend->host;
  *profile = NULL;
  /* One block: the struct, then the arrays, doubles first for alignment. */
  size_t slots = dispatch_count ? dispatch_count : 1;
  size_t header =
      (sizeof(gpu_profile) + _Alignof(double) - 1) / _Alignof(double) * _Alignof(double);
  size_t size = header + slots * (4 * sizeof(double) + sizeof(int32_t) + sizeof(uint32_t));
  unsigned char *block = host->alloc(host->context, size, _Alignof(gpu_profile));
  if (block == NULL)
    return host->status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory (profile)",
                             backend->plugin_name);
  memset(block, 0, size);
  gpu_profile *created = (gpu_profile *)block;
  double *doubles = (double *)(block + header);
  created->dispatch_count = dispatch_count;
  created->sum_us = doubles;
  created->min_us = doubles + slots;
  created->last_us = doubles + 2 * slots;
  created->kernel_total_us = doubles + 3 * slots;
  created->kernel_ids = (int32_t *)(doubles + 4 * slots);
  created->kernel_dispatches = (uint32_t *)(created->kernel_ids + slots);
  *profile = created;
  return NULL;
}

void gpu_profile_destroy(const gpu_backend *backend, gpu_profile *profile) {
  if (profile != NULL) backend->host->free(backend->host->context, profile);
}

tflaccel_status gpu_profile_add_run(gpu_profile *profile, const gpu_backend *backend,
                                    double wall_us) {
  uint32_t count = 0;
  tflaccel_status status = backend->ops->profile_read(backend->device, profile->last_us,
                                                      profile->dispatch_count, &count);
  if (status != NULL) return status;
  if (count == 0 && profile->dispatch_count > 0) {
    profile->discarded_runs++; /* e.g. a GL disjoint event: the backend said so */
    return NULL;
  }
  if (count != profile->dispatch_count)
    return backend->host->status_make(TFLACCEL_INTERNAL,
                                      "%s: profile timed %u dispatches, the run queued %u",
                                      backend->plugin_name, count, profile->dispatch_count);
  for (uint32_t i = 0; i < count; ++i) {
    double time = profile->last_us[i];
    profile->sum_us[i] += time;
    if (profile->runs == 0 || time < profile->min_us[i]) profile->min_us[i] = time;
  }
  profile->wall_sum_us += wall_us;
  if (profile->runs == 0 || wall_us < profile->wall_min_us) profile->wall_min_us = wall_us;
  profile->runs++;
  return NULL;
}

/* Groups the dispatches by kernel, largest total first; returns how many
 * kernels. */
static uint32_t sum_by_kernel(gpu_profile *profile, const gpu_program *program) {
  uint32_t kernels = 0;
  for (uint32_t i = 0; i < profile->dispatch_count; ++i) {
    int32_t kernel = program->dispatches[i].kernel;
    uint32_t k = 0;
    while (k < kernels && profile->kernel_ids[k] != kernel) ++k;
    if (k == kernels) {
      profile->kernel_ids[k] = kernel;
      profile->kernel_dispatches[k] = 0;
      profile->kernel_total_us[k] = 0.0;
      kernels++;
    }
    profile->kernel_dispatches[k]++;
    profile->kernel_total_us[k] += profile->sum_us[i] / (double)profile->runs;
  }
  /* Insertion sort: stable, so equal totals keep the order of first use. */
  for (uint32_t k = 1; k < kernels; ++k) {
    int32_t id = profile->kernel_ids[k];
    uint32_t dispatches = profile->kernel_dispatches[k];
    double total = profile->kernel_total_us[k];
    uint32_t j = k;
    for (; j > 0 && profile->kernel_total_us[j - 1] < total; --j) {
      profile->kernel_ids[j] = profile->kernel_ids[j - 1];
      profile->kernel_dispatches[j] = profile->kernel_dispatches[j - 1];
      profile->kernel_total_us[j] = profile->kernel_total_us[j - 1];
    }
    profile->kernel_ids[j] = id;
    profile->kernel_dispatches[j] = dispatches;
    profile->kernel_total_us[j] = total;
  }
  return kernels;
}

static double share_percent(double part, double total) {
  return total > 0.0 ? 100.0 * part / total : 0.0;
}

void gpu_profile_log(gpu_profile *profile, const gpu_backend *backend, const gpu_program *program,
                     uint32_t op_count) {
  const tflaccel_host_services *host = backend->host;
  /* Whoever read the times through the core shows them itself. */
  if (profile->reported || !host->log_enabled(host->context, TFLACCEL_LOG_INFO)) return;
  if (profile->discarded_runs > 0)
    host->log(host->context, TFLACCEL_LOG_INFO,
              "profile: %llu runs left out: the device could not time them",
              (unsigned long long)profile->discarded_runs);
  if (profile->runs == 0) {
    host->log(host->context, TFLACCEL_LOG_INFO, "profile: %u ops in %u dispatches, no run timed",
              op_count, profile->dispatch_count);
    return;
  }
  double runs = (double)profile->runs;
  double total_us = 0.0;
  for (uint32_t i = 0; i < profile->dispatch_count; ++i) total_us += profile->sum_us[i] / runs;
  host->log(host->context, TFLACCEL_LOG_INFO,
            "profile: %u ops in %u dispatches, %llu runs: GPU time per dispatch (mean and min "
            "over the runs, share of the dispatches' total)",
            op_count, profile->dispatch_count, (unsigned long long)profile->runs);
  for (uint32_t i = 0; i < profile->dispatch_count; ++i) {
    const gpu_dispatch *dispatch = &program->dispatches[i];
    double mean_us = profile->sum_us[i] / runs;
    host->log(host->context, TFLACCEL_LOG_INFO,
              "profile: #%u %s %ux%ux%u: mean %.1f us, min %.1f us, %.1f%%", i,
              gpu_kernel_name(dispatch->kernel), dispatch->global[0], dispatch->global[1],
              dispatch->global[2], mean_us, profile->min_us[i], share_percent(mean_us, total_us));
  }
  uint32_t kernels = sum_by_kernel(profile, program);
  for (uint32_t k = 0; k < kernels; ++k)
    host->log(host->context, TFLACCEL_LOG_INFO, "profile: %s: %u dispatch%s, total %.1f us, %.1f%%",
              gpu_kernel_name(profile->kernel_ids[k]), profile->kernel_dispatches[k],
              profile->kernel_dispatches[k] == 1 ? "" : "es", profile->kernel_total_us[k],
              share_percent(profile->kernel_total_us[k], total_us));
  /* The first run often carries one-time work (kernel compilation on
   * first use): the min shows the steady state. */
  double wall_us = profile->wall_sum_us / runs;
  host->log(host->context, TFLACCEL_LOG_INFO,
            "profile: dispatches %.1f us (sum of the means) of a mean run of %.1f us (wall "
            "time, first dispatch to finish; min %.1f us): %.1f%%",
            total_us, wall_us, profile->wall_min_us, share_percent(total_us, wall_us));
}

void gpu_profile_report(gpu_profile *profile, const gpu_program *program,
                        tflaccel_kernel_time_fn report, void *context) {
  profile->reported = 1;
  for (uint32_t i = 0; i < profile->dispatch_count; ++i) {
    const gpu_dispatch *dispatch = &program->dispatches[i];
    double total_ns = profile->sum_us[i] * 1e3;
    tflaccel_kernel_time time = {
        .struct_size = sizeof time,
        .kernel = gpu_kernel_name(dispatch->kernel),
        .first_op = dispatch->first_op,
        .op_count = dispatch->first_op == TFLACCEL_NO_OP ? 0 : dispatch->op_count,
        .runs = profile->runs,
        .total_ns = total_ns > 0.0 ? (uint64_t)(total_ns + 0.5) : 0,
    };
    report(context, &time);
  }
}

void gpu_profile_copy_times(const double *times_us, uint32_t time_count, double *microseconds,
                            uint32_t capacity, uint32_t *count) {
  uint32_t copied = time_count < capacity ? time_count : capacity;
  if (copied > 0) memcpy(microseconds, times_us, copied * sizeof *microseconds);
  *count = time_count;
}
