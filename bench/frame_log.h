/* SPDX-License-Identifier: MIT */
/* What colibri-bench says while it runs, beside its report line on stdout: a CSV row per
 * frame (--csv FILE) and, for runs longer than a couple of seconds, a progress line on
 * stderr at most every FRAME_LOG_PERIOD_S seconds (docs/bench.md, "Output"). Neither
 * touches stdout, so the report stays one line for the scripts that parse it. */
#ifndef COLIBRI_BENCH_FRAME_LOG_H
#define COLIBRI_BENCH_FRAME_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define FRAME_LOG_PERIOD_S 2.0

typedef struct frame_log {
    FILE *csv;           /* NULL: no CSV */
    const char *csv_path;
    int frames;          /* frames the run will do */
    int64_t start_ns;    /* when the frames began (monotonic) */
    int64_t last_ns;     /* last progress line, or start_ns */
    bool progress_shown; /* a line went out (the terminal's line is then ended at the close) */
    bool tty;            /* stderr is a terminal: the line is rewritten in place */
} frame_log;

/* Opens csv_path (NULL: none) and writes its header "frame,ms,pairs,narrow_calls". False
 * with a message on stderr when the file cannot be written. */
bool frame_log_open(frame_log *log, const char *csv_path, int frames, int64_t start_ns);

/* Frame f is done: its CSV row (ms: its time; pairs: colliding pairs; narrow: narrow-phase
 * calls) and, when due, a progress line. False when the CSV cannot be written. */
bool frame_log_frame(frame_log *log, int f, double ms, unsigned long long pairs, unsigned long long narrow,
                     int64_t now_ns);

/* Inside a long frame (the brute force's rows): a progress line when due, done being the
 * fraction of frame f already computed, in [0, 1]. */
void frame_log_within(frame_log *log, int f, double done, int64_t now_ns);

/* Ends the progress line and closes the CSV; false when the CSV could not be written. */
bool frame_log_close(frame_log *log);

#endif
