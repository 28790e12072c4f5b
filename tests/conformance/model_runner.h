/* The whole-model loop the GPU model tests share (test_gpu_models.c,
 * test_gpu_quant_models.c): load and compile a model for one accelerator
 * (cpu_ref allowed as fallback, asserted unused), fill its inputs with the
 * reference inputs, run it as often as its reference was taken (a stateful
 * model again after reset_state, where the caller asks for it), and hand
 * the outputs to the test's own comparison for each round. Every failure
 * is a Check assertion naming the model and precision. */
#ifndef TFLACCEL_TESTS_CONFORMANCE_MODEL_RUNNER_H
#define TFLACCEL_TESTS_CONFORMANCE_MODEL_RUNNER_H

#include <stdint.h>

#include "tflaccel/tflaccel.h"

/* A model compiled with every partition on one accelerator. */
typedef struct model_runner_model {
  tflaccel_model *model;
  tflaccel_environment *environment;
  tflaccel_compiled_model *compiled;
} model_runner_model;

/* Loads `path` and compiles it at `precision` in an environment of
 * `accelerators`, asserting that every partition runs on `expected`;
 * `label` names the case in messages. */
void model_runner_open(model_runner_model *opened, const char *path, const char *accelerators,
                       const char *expected, int32_t precision, const char *label);
void model_runner_close(model_runner_model *opened);

/* Compares the outputs of one round with the references (Check assertions). */
typedef void (*model_runner_compare)(const char *name, const char *label, int32_t precision,
                                     tflaccel_tensor_buffer *const *outputs,
                                     uint32_t output_count, void *context);

typedef struct model_runner_case {
  const char *name;        /* its key in expected.json and directory under ref/ */
  const char *models_dir;  /* holds expected.json, the model and ref/<name>/ */
  const char *model_file;  /* the .tflite, relative to models_dir */
  const char *accelerator; /* the GPU plugin every partition must run on */
  /* A stateful model (its outputs change from run to run) is compared
   * again after reset_state and as many runs. */
  int check_reset;
  model_runner_compare compare;
  void *context;
} model_runner_case;

/* Runs the case at `precision` ("fp32"/"fp16" in messages) and prints
 * "<name> (<precision>): N outputs checked, fully on <accelerator>". */
void model_runner_check(const model_runner_case *run_case, int32_t precision);

/* 1 when the accelerator has no device here (the test then exits 77),
 * probed in a child: Check forks the tests, and no driver context may
 * exist in the parent before that. */
int model_runner_accelerator_absent(const char *accelerator);

#endif
