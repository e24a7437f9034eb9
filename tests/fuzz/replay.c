/* SPDX-License-Identifier: Apache-2.0 */
/* Replays fuzz inputs without libFuzzer (zstd's regression_driver idea):
 * every file named on the command line, or every file in a named directory,
 * is passed to LLVMFuzzerTestOneInput. Options:
 *   --stride N  only every Nth file of a directory (sampling big corpora)
 *   --b64tsv F  the robots bodies (column 2, base64) of a conformance TSV
 *   --prefix B[,B...]  prepend these bytes (decimal) to every input
 *   --optional  inputs named after it may be absent (a message is printed);
 *               when nothing at all ran, the exit status is 77 (skipped)
 * Prints "N passed, 0 failed"; a failing input aborts with its name shown. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "testutil.h"

static long stride = 1;
static unsigned char prefix[8];
static size_t n_prefix;
static int passed;
static int optional;

static void run(const char *name, const unsigned char *data, size_t len)
{
    unsigned char *buf = malloc(len + n_prefix + 1);
    if (!buf)
        exit(2);
    size_t n = n_prefix;
    memcpy(buf, prefix, n_prefix);
    memcpy(buf + n, data, len);
    fprintf(stderr, "%s\r", name); /* visible if the input crashes */
    LLVMFuzzerTestOneInput(buf, n + len);
    free(buf);
    passed++;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (optional) {
            printf("replay: skipping %s: absent\n", path);
            return;
        }
        fprintf(stderr, "replay: %s: cannot stat\n", path);
        exit(2);
    }
    if (!S_ISDIR(st.st_mode)) {
        size_t len;
        char *d = tu_read_file(path, &len);
        if (!d) {
            fprintf(stderr, "replay: %s: cannot read\n", path);
            exit(2);
        }
        run(path, (unsigned char *)d, len);
        free(d);
        return;
    }
    DIR *dir = opendir(path);
    if (!dir)
        exit(2);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            names = realloc(names, cap * sizeof *names);
        }
        names[n] = malloc(strlen(path) + strlen(e->d_name) + 2);
        sprintf(names[n++], "%s/%s", path, e->d_name);
    }
    closedir(dir);
    qsort(names, n, sizeof *names, cmp);
    for (size_t i = 0; i < n; i++) {
        if (i % (size_t)stride == 0)
            run_path(names[i]);
        free(names[i]);
    }
    free(names);
}

static void run_tsv(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f && optional) {
        printf("replay: skipping %s: absent\n", path);
        return;
    }
    if (!f) {
        fprintf(stderr, "replay: %s: cannot open\n", path);
        exit(2);
    }
    char *line;
    while ((line = tu_getline(f))) {
        char *fields[6];
        if (tu_split_tabs(line, fields, 6) >= 2) {
            size_t len;
            unsigned char *body = tu_base64(fields[1], &len);
            if (body) {
                run(fields[0], body, len);
                free(body);
            }
        }
        free(line);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--stride") == 0 && i + 1 < argc)
            stride = atol(argv[++i]) > 0 ? atol(argv[i]) : 1;
        else if (strcmp(argv[i], "--prefix") == 0 && i + 1 < argc) {
            char *p = argv[++i];
            for (n_prefix = 0; *p && n_prefix < sizeof prefix; p += *p == ',') {
                prefix[n_prefix++] = (unsigned char)strtol(p, &p, 10);
            }
        }
        else if (strcmp(argv[i], "--optional") == 0)
            optional = 1;
        else if (strcmp(argv[i], "--b64tsv") == 0 && i + 1 < argc)
            run_tsv(argv[++i]);
        else
            run_path(argv[i]);
    }
    fprintf(stderr, "\n");
    printf("replay: %d passed, 0 failed\n", passed);
    return passed ? 0 : 77;
}
