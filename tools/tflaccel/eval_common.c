/* The parts both eval tasks share (eval_common.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "tools/tflaccel/bench_clock.h"
#include "tools/tflaccel/eval_common.h"
#include "tools/tflaccel/image_decode.h"

void eval_print_header(const tflaccel_environment *environment, const op_placement *placement,
                       const image_normalization *normalization, int from_metadata) {
  const char *selection = tflaccel_environment_selection(environment);
  printf("Test accelerators: [%s]\n", selection ? selection : "");
  op_placement_print(stdout, placement);
  printf("Input normalization: mean [%g, %g, %g], std [%g, %g, %g] (%s)\n",
         normalization->mean[0], normalization->mean[1], normalization->mean[2],
         normalization->std[0], normalization->std[1], normalization->std[2],
         from_metadata ? "the model's metadata" : "run_eval's default");
  fflush(stdout);
}

tflaccel_status eval_run_image(const char *path, const tflaccel_tensor_info *input,
                               const image_normalization *normalization, double crop_fraction,
                               tflaccel_compiled_model *compiled, model_buffers *buffers,
                               run_stats *preprocessing, run_stats *inference) {
  rgb_image image = {0};
  int64_t start = bench_clock_microseconds();
  tflaccel_status status = image_decode_file(path, &image);
  if (status == NULL)
    status = image_preprocess(&image, input, normalization, crop_fraction,
                              tflaccel_tensor_buffer_data(buffers->inputs[0]),
                              tflaccel_tensor_buffer_byte_size(buffers->inputs[0]));
  rgb_image_free(&image);
  int64_t preprocessed = bench_clock_microseconds();
  if (status == NULL) status = model_buffers_run(compiled, buffers);
  int64_t end = bench_clock_microseconds();
  if (status == NULL) status = run_stats_add(preprocessing, (double)(preprocessed - start));
  if (status == NULL) status = run_stats_add(inference, (double)(end - preprocessed));
  return status;
}

void eval_print_latencies(FILE *out, size_t runs, const run_stats *preprocessing,
                          const run_stats *inference) {
  fprintf(out, "Num evaluation runs: %zu\n", runs);
  fprintf(out, "Preprocessing latency: avg=%g(us), std_dev=%.0f(us)\n",
          run_stats_average(preprocessing), trunc(run_stats_std_deviation(preprocessing)));
  fprintf(out, "Inference latency: avg=%g(us), std_dev=%.0f(us)\n", run_stats_average(inference),
          trunc(run_stats_std_deviation(inference)));
}

int eval_write_figures(const char *command, const char *path,
                       void (*print)(FILE *out, const void *context), const void *context) {
  FILE *out = fopen(path, "w");
  if (out == NULL) {
    fprintf(stderr, "%s: cannot write %s: %s\n", command, path, strerror(errno));
    return 1;
  }
  print(out, context);
  int failed = ferror(out);
  if (fclose(out) != 0 || failed) {
    fprintf(stderr, "%s: writing %s failed\n", command, path);
    return 1;
  }
  return 0;
}
