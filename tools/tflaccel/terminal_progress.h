/* A progress line for long runs, rewritten in place on a terminal and
 * never written into logs or pipes: only when stderr is a terminal, and at
 * most a few times a second. */
#ifndef TFLACCEL_TOOLS_TERMINAL_PROGRESS_H
#define TFLACCEL_TOOLS_TERMINAL_PROGRESS_H

#include <stdint.h>

typedef struct terminal_progress {
  int enabled;          /* stderr is a terminal */
  int shown;            /* a line is on screen (to be cleared) */
  int64_t start_us, last_us;
  int64_t delay_us;     /* show nothing before this much time has passed */
} terminal_progress;

/* delay_us: runs shorter than this never show a line. */
void terminal_progress_start(terminal_progress *progress, int64_t delay_us);
/* "PREFIX: done/total" with a bar when total > 0, else "PREFIX: done". */
void terminal_progress_update(terminal_progress *progress, const char *prefix, long done,
                              long total);
/* Clears the line, if one was shown. */
void terminal_progress_finish(terminal_progress *progress);

#endif
