/* SPDX-License-Identifier: MIT */
/* Runs a fuzz target's LLVMFuzzerTestOneInput on files, without libFuzzer: the normal
 * (gcc) builds replay the committed seeds and regression inputs of tests/fuzz/ with it
 * (meson suite 'fuzz'), so every `meson test` runs the targets' checks on them.
 * Usage: replay_TARGET FILE_OR_DIR... ; a directory means every file in it. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return 0;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *more = realloc(buf, cap *= 2);
            if (!more) free(buf);
            buf = more;
        }
    }
    fclose(fp);
    if (!buf) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        exit(1);
    }
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 1;
}

int main(int argc, char **argv)
{
    int files = 0;
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (!d) {
            files += run_file(argv[i]);
            continue;
        }
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            files += run_file(path);
        }
        closedir(d);
    }
    printf("replay: %d inputs passed\n", files);
    return files > 0 ? 0 : 1;
}
