/* The CLI's inspect command, run in-process by tests. */
#ifndef TFLACCEL_TESTS_MODEL_INSPECT_RUNNER_H
#define TFLACCEL_TESTS_MODEL_INSPECT_RUNNER_H

/* Runs tflaccel_cmd_inspect(argc, argv) with its stdout and stderr captured
 * (malloc'ed, NUL-terminated; the caller frees them); returns its exit
 * status. */
int test_run_inspect(int argc, char **argv, char **out, char **err);

#endif
