/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* isatty, fileno */

#include "frame_log.h"

#include <errno.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#define PROG "colibri-bench"

bool frame_log_open(frame_log *log, const char *csv_path, int frames, int64_t start_ns)
{
    memset(log, 0, sizeof *log);
    log->csv_path = csv_path;
    log->frames = frames;
    log->start_ns = log->last_ns = start_ns;
    log->tty = isatty(fileno(stderr)) == 1;
    if (csv_path == NULL) return true;
    log->csv = fopen(csv_path, "w");
    if (log->csv == NULL || fprintf(log->csv, "frame,ms,pairs,narrow_calls\n") < 0) {
        fprintf(stderr, PROG ": cannot write '%s': %s\n", csv_path, strerror(errno));
        if (log->csv != NULL) fclose(log->csv);
        log->csv = NULL;
        return false;
    }
    return true;
}

/* "frame 120/1000, 14 s elapsed, about 1 min 43 s left": frames counted from 1, the rest
 * estimated from the pace so far. */
static void progress(frame_log *log, double frames_done, int64_t now_ns)
{
    double elapsed = (double)(now_ns - log->start_ns) * 1e-9;
    if (elapsed < FRAME_LOG_PERIOD_S || (double)(now_ns - log->last_ns) * 1e-9 < FRAME_LOG_PERIOD_S) return;
    log->last_ns = now_ns;
    double left = frames_done > 0 ? elapsed * ((double)log->frames - frames_done) / frames_done : 0.0;
    int frame = (int)frames_done + 1 > log->frames ? log->frames : (int)frames_done + 1;
    char when[32];
    if (left >= 60.0) snprintf(when, sizeof when, "%.0f min %02.0f s", floor(left / 60.0), fmod(left, 60.0));
    else snprintf(when, sizeof when, "%.0f s", left);
    fprintf(stderr, "%s" PROG ": frame %d/%d, %.0f s elapsed, about %s left%s", log->tty ? "\r" : "", frame,
            log->frames, elapsed, when, log->tty ? "\033[K" : "\n");
    fflush(stderr);
    log->progress_shown = true;
}

bool frame_log_frame(frame_log *log, int f, double ms, unsigned long long pairs, unsigned long long narrow,
                     int64_t now_ns)
{
    if (log->csv != NULL && fprintf(log->csv, "%d,%.6f,%llu,%llu\n", f, ms, pairs, narrow) < 0) {
        fprintf(stderr, PROG ": writing '%s' failed: %s\n", log->csv_path, strerror(errno));
        return false;
    }
    progress(log, (double)(f + 1), now_ns);
    return true;
}

void frame_log_within(frame_log *log, int f, double done, int64_t now_ns) { progress(log, f + done, now_ns); }

bool frame_log_close(frame_log *log)
{
    if (log->progress_shown && log->tty) fputc('\n', stderr);
    log->progress_shown = false;
    if (log->csv == NULL) return true;
    int bad = fclose(log->csv);
    log->csv = NULL;
    if (bad != 0) {
        fprintf(stderr, PROG ": writing '%s' failed: %s\n", log->csv_path, strerror(errno));
        return false;
    }
    return true;
}
