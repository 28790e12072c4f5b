#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "tools/tflaccel/bench_clock.h"
#include "tools/tflaccel/terminal_progress.h"

#define REFRESH_US 200000
#define BAR_WIDTH 30

void terminal_progress_start(terminal_progress *progress, int64_t delay_us) {
  progress->enabled = isatty(STDERR_FILENO);
  progress->shown = 0;
  progress->start_us = bench_clock_microseconds();
  progress->last_us = 0;
  progress->delay_us = delay_us;
}

void terminal_progress_update(terminal_progress *progress, const char *prefix, long done,
                              long total) {
  if (!progress->enabled) return;
  int64_t now = bench_clock_microseconds();
  if (now - progress->start_us < progress->delay_us || now - progress->last_us < REFRESH_US) return;
  progress->last_us = now;
  if (total > 0) {
    long filled = done >= total ? BAR_WIDTH : done * BAR_WIDTH / total;
    char bar[BAR_WIDTH + 1];
    for (long i = 0; i < BAR_WIDTH; ++i) bar[i] = i < filled ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    fprintf(stderr, "\r%s: [%s] %ld/%ld\033[K", prefix, bar, done, total);
  } else {
    fprintf(stderr, "\r%s: %ld\033[K", prefix, done);
  }
  fflush(stderr);
  progress->shown = 1;
}

void terminal_progress_finish(terminal_progress *progress) {
  if (!progress->shown) return;
  fputs("\r\033[K", stderr);
  fflush(stderr);
  progress->shown = 0;
}
