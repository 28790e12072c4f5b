/* Helpers shared by the model tests: where the models are, reading files. */
#ifndef TFLACCEL_TESTS_MODEL_TEST_SUPPORT_H
#define TFLACCEL_TESTS_MODEL_TEST_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/* $TFLACCEL_SHARED_MODELS when it names a directory, else NULL (and a
 * message saying that the part needing it is skipped). */
const char *test_shared_models(const char *why);
/* $TFLACCEL_TEST_DATA (tests/data), else NULL. */
const char *test_data_dir(void);
/* The shared models when present, else tests/data. */
const char *test_model_dir(void);

/* Sorted paths of the *.tflite files in dir (free with test_free_paths). */
char **test_list_models(const char *dir, size_t *count);
void test_free_paths(char **paths, size_t count);
/* dir/name, malloc'ed. */
char *test_join(const char *dir, const char *name);
/* The whole file, malloc'ed; NULL when it cannot be read. */
uint8_t *test_read_file(const char *path, size_t *size);


typedef struct tflaccel_model tflaccel_model;

/* Checks the invariants of a loaded model: public info for every tensor and
 * op, and the prepared graph (params present, tensor indices in range,
 * producer/consumer links matching the ops, constants' data readable).
 * Returns NULL when they hold, else what is wrong (static text). Reads every
 * byte of constant data, so that a sanitizer sees a read out of bounds. */
const char *test_model_consistency(const tflaccel_model *model);

#endif
