/* TFLite tool flags for delegates and platforms tflaccel does not have
 * (NNAPI, Hexagon, Core ML, external and stable delegates, ...). Scripts
 * pass them; instead of "unknown option" each gets one line naming the flag
 * and what to use here. Turning such a delegate off (--use_nnapi=false) is
 * what tflaccel does anyway, so that is accepted silently. */
#ifndef TFLACCEL_TOOLS_FOREIGN_FLAGS_H
#define TFLACCEL_TOOLS_FOREIGN_FLAGS_H

/* 0: argv[*index] is not such a flag; 1: a harmless "=false" (consumed);
 * -1: refused with "<command>: --flag: ... use ... instead" printed. */
int foreign_flag_match(const char *command, int argc, char **argv, int *index);

#endif
