/* SPDX-License-Identifier: Apache-2.0 */
/* Parses every file of the corpus (robots/ and robots-variants/) and checks
 * each IR (front_check.c: invariants, the records oracle, the reference
 * parser). Reports total time, throughput and the slowest files with their
 * ns/byte, so that a non-linear case would stand out; times are reported,
 * never asserted. Usage: front_corpus CORPUS_DIR (exit 77 when absent). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "front_check.h"
#include "robotsc/ir.h"
#include "testutil.h"

#define TOP 5

typedef struct slow {
    double ns;
    size_t bytes;
    char name[8448];
} slow;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static slow by_time[TOP], by_rate[TOP];
static size_t files, bytes, lines, rules;
static double total_ns;
static int passed;

static void keep(slow *top, double key_of_new, const slow *s, int by_ns)
{
    for (int i = 0; i < TOP; i++) {
        double key = by_ns ? top[i].ns : (top[i].bytes ? top[i].ns / (double)top[i].bytes : 0);
        if (top[i].name[0] == 0 || key_of_new > key) {
            memmove(top + i + 1, top + i, (TOP - 1 - (size_t)i) * sizeof *top);
            top[i] = *s;
            return;
        }
    }
}

static void one_file(const char *dir, const char *name)
{
    char path[8448];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len = 0;
    char *body = tu_read_file(path, &len);
    if (!body) {
        TU_CHECK(0, "cannot read %s", path);
        return;
    }
    rsc_ir *ir = NULL;
    double t0 = now_ns();
    rsc_status st = rsc_parse(body, len, NULL, &ir);
    double t = now_ns() - t0;
    if (st != RSC_OK) {
        TU_CHECK(0, "%s: rsc_parse status %d", path, (int)st);
        free(body);
        return;
    }
    /* Time a second parse too and keep the faster: the first one pays for
     * cold caches and fresh pages, which says nothing about the parser. */
    rsc_ir *again = NULL;
    double t1 = now_ns();
    if (rsc_parse(body, len, NULL, &again) == RSC_OK) {
        double t2 = now_ns() - t1;
        if (t2 < t)
            t = t2;
        rsc_ir_free(again);
    }
    char why[512];
    if (fc_all(ir, body, len, why, sizeof why) != 0)
        TU_CHECK(0, "%s: %s", path, why);
    else
        passed++;
    files++;
    bytes += len;
    lines += ir->n_lines;
    rules += ir->n_rules;
    total_ns += t;
    slow s;
    s.ns = t;
    s.bytes = len;
    snprintf(s.name, sizeof s.name, "%s", path);
    keep(by_time, t, &s, 1);
    if (len >= 4096) /* per-byte rates of tiny files are noise */
        keep(by_rate, t / (double)len, &s, 0);
    rsc_ir_free(ir);
    free(body);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int one_dir(const char *corpus, const char *sub)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%.2000s/%.100s", corpus, sub);
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    size_t n = 0, cap = 1024;
    char **names = malloc(cap * sizeof *names);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap *= 2;
            names = realloc(names, cap * sizeof *names);
        }
        names[n] = malloc(strlen(e->d_name) + 1);
        strcpy(names[n++], e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        one_file(dir, names[i]);
        free(names[i]);
    }
    free(names);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: front_corpus CORPUS_DIR\n");
        return 2;
    }
    char robots[4096];
    snprintf(robots, sizeof robots, "%s/robots", argv[1]);
    if (!tu_dir_exists(robots)) {
        printf("corpus not found at %s: skipped\n", robots);
        return 77;
    }
    one_dir(argv[1], "robots");
    one_dir(argv[1], "robots-variants"); /* optional */
    printf("corpus: %zu files, %zu bytes, %zu lines, %zu rules\n", files, bytes, lines, rules);
    printf("parse time: %.1f ms total, %.1f bytes/us\n", total_ns / 1e6,
           total_ns > 0 ? (double)bytes / (total_ns / 1e3) : 0.0);
    printf("slowest files:\n");
    for (int i = 0; i < TOP && by_time[i].name[0]; i++)
        printf("  %8.1f us %9zu bytes %6.2f ns/byte  %s\n", by_time[i].ns / 1e3,
               by_time[i].bytes, by_time[i].ns / (double)by_time[i].bytes, by_time[i].name);
    printf("highest ns/byte (files >= 4 KiB; linear time keeps these flat):\n");
    for (int i = 0; i < TOP && by_rate[i].name[0]; i++)
        printf("  %8.1f us %9zu bytes %6.2f ns/byte  %s\n", by_rate[i].ns / 1e3,
               by_rate[i].bytes, by_rate[i].ns / (double)by_rate[i].bytes, by_rate[i].name);
    TU_CHECK(files > 0, "no corpus files");
    return tu_report("corpus files", passed);
}
