/* Outputs where XNNPACK lands further from the TFLite references than
 * expected.json's tolerances (written for cpu_ref), with the bound measured
 * by bench/fidelity-vs-litert.sh: LiteRT's own XNNPACK path gives the same
 * error on the same input. Used by the cpu_xnnpack build of
 * test_model_references. */
#ifndef TFLACCEL_TESTS_MODELS_XNNPACK_LIMITS_H
#define TFLACCEL_TESTS_MODELS_XNNPACK_LIMITS_H

#include <stddef.h>
#include <stdint.h>

/* Whether model's output has a measured XNNPACK limit. */
int xnnpack_limit_applies(const char *model, uint32_t output);

/* NULL when ours is within the limit (and, for classifiers, keeps the
 * reference's top-1), else a message written to why. */
const char *xnnpack_limit_check(const char *model, uint32_t output, int32_t dtype,
                                const void *ours, const void *reference, size_t count, char *why,
                                size_t why_size);

/* Models none of whose ops this XNNPACK runs (recurrent, int16): they run
 * wholly on cpu_ref, and the cpu_xnnpack test checks nothing of its own. */
int xnnpack_runs_none_of(const char *model);

#endif
