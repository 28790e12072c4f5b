/* tflaccel: the command-line tool. Dispatches to one subcommand. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tools/tflaccel/commands.h"
#include "tflaccel/tflaccel.h"

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
    {"plugins", tflaccel_cmd_plugins, "list accelerator plugins, their status and devices"},
    {"inspect", tflaccel_cmd_inspect, "describe a .tflite model (and where its ops would run)"},
    {"run", tflaccel_cmd_run, "run a model once and write its outputs"},
    {"bench", tflaccel_cmd_bench, "time a model like TFLite's benchmark_model"},
    {"diff", tflaccel_cmd_diff, "compare an accelerator's outputs with cpu_ref, like inference_diff"},
    {"cache", tflaccel_cmd_cache, "the compiled-model cache: its path, its entries, clear it"},
    {"eval", tflaccel_cmd_eval, "image classification accuracy on labelled photos, like run_eval"},
};

static void print_usage(FILE *stream) {
  fprintf(stream, "usage: tflaccel COMMAND [ARGS]\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
    fprintf(stream, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf(stream, "\n'tflaccel COMMAND --help' describes a command's options.\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    print_usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("tflaccel %s\n", tflaccel_version());
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "tflaccel: unknown command '%s' (try 'tflaccel --help')\n", argv[1]);
  return 2;
}
