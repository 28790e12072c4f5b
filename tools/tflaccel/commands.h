/* The tflaccel CLI's subcommands. Each gets argv with argv[0] = its own name
 * and returns the process exit status (0 ok, 1 failure, 2 usage error). */
#ifndef TFLACCEL_TOOLS_COMMANDS_H
#define TFLACCEL_TOOLS_COMMANDS_H

int tflaccel_cmd_plugins(int argc, char **argv);
int tflaccel_cmd_inspect(int argc, char **argv);
int tflaccel_cmd_run(int argc, char **argv);
int tflaccel_cmd_bench(int argc, char **argv);
int tflaccel_cmd_diff(int argc, char **argv);
int tflaccel_cmd_cache(int argc, char **argv);
int tflaccel_cmd_eval(int argc, char **argv);

#endif
