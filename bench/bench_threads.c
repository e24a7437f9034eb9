/* SPDX-License-Identifier: Apache-2.0 */
/* bench_threads: throughput of 1..T threads matching against one shared
 * loaded blob and selection (the runtime promises both are immutable and
 * shareable; runtime.h). Each thread makes the same number of passes over
 * the URL list; throughput = URLs matched by all threads / wall time.
 * Each thread has its own sink on its own cache line, so the threads share
 * nothing writable. Median of N rounds after a warm-up round.
 *
 *   bench_threads [--rounds N] [--min-ms M] [--threads T] [--agent A] ROBOTS URLS */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

typedef struct worker {
    const rsc_selection *sel;
    const rsc_bytes *urls;
    size_t n, reps;
    volatile uint64_t sink;
    char pad[64];
} worker;

static void *run(void *arg)
{
    worker *w = arg;
    for (size_t r = 0; r < w->reps; r++)
        for (size_t i = 0; i < w->n; i++)
            w->sink += (uint64_t)rsc_match_url(w->sel, w->urls[i].ptr, w->urls[i].len, NULL);
    return NULL;
}

/* Wall time (ns) of t threads doing reps passes each. */
static double round_ns(worker *w, int t)
{
    pthread_t th[64];
    uint64_t t0 = bu_now_ns();
    for (int i = 0; i < t; i++)
        if (pthread_create(&th[i], NULL, run, &w[i]) != 0)
            return -1;
    for (int i = 0; i < t; i++)
        pthread_join(th[i], NULL);
    return (double)(bu_now_ns() - t0);
}

int main(int argc, char **argv)
{
    const char *robots = NULL, *urlf = NULL, *agent = "Googlebot";
    int rounds = 7, max_t = 2;
    double min_ms = 50;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--min-ms") == 0 && i + 1 < argc)
            min_ms = atof(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            max_t = atoi(argv[++i]);
        else if (strcmp(argv[i], "--agent") == 0 && i + 1 < argc)
            agent = argv[++i];
        else if (!robots)
            robots = argv[i];
        else if (!urlf)
            urlf = argv[i];
        else
            robots = NULL, i = argc;
    }
    if (!robots || !urlf || rounds < 1 || rounds > 64 || max_t < 1 || max_t > 64) {
        fprintf(stderr, "usage: bench_threads [--rounds N] [--min-ms M] [--threads T] [--agent A] ROBOTS URLS\n");
        return 2;
    }
    size_t slen, ulen;
    unsigned char *src = bu_read(robots, &slen);
    char *ubuf = (char *)bu_read(urlf, &ulen);
    rsc_bytes *urls = NULL;
    long n = ubuf ? bu_lines(ubuf, ulen, &urls) : -1;
    if (!src || n <= 0) {
        fprintf(stderr, "bench_threads: cannot read %s or %s\n", robots, urlf);
        return 2;
    }
    rsc_blob blob;
    rsc_program prog;
    rsc_selection sel;
    rsc_bytes ag = {agent, strlen(agent)};
    if (rsc_compile(src, slen, NULL, &blob) != RSC_OK || rsc_load(&prog, blob.data, blob.size, NULL) != RSC_OK ||
        rsc_select(&prog, &ag, 1, &sel) != RSC_OK) {
        fprintf(stderr, "bench_threads: cannot compile %s\n", robots);
        return 2;
    }
    worker *w = calloc((size_t)max_t, sizeof *w);
    if (!w)
        return 2;
    /* Calibrate on one thread. */
    w[0].sel = &sel, w[0].urls = urls, w[0].n = (size_t)n, w[0].reps = 1;
    uint64_t t0 = bu_now_ns();
    run(&w[0]);
    size_t reps = bu_reps(bu_now_ns() - t0, (uint64_t)(min_ms * 1e6));
    printf("threads\turls_per_round\tround_ms\turls_per_s\tns_per_url_per_thread\tspeedup\n");
    double base = 0, v[64];
    for (int t = 1; t <= max_t; t++) {
        for (int i = 0; i < t; i++)
            w[i].sel = &sel, w[i].urls = urls, w[i].n = (size_t)n, w[i].reps = reps;
        round_ns(w, t); /* warm-up */
        for (int r = 0; r < rounds; r++)
            v[r] = round_ns(w, t);
        double med = bu_median(v, (size_t)rounds);
        double total = (double)t * (double)reps * (double)n;
        double ups = total / med * 1e9;
        if (t == 1)
            base = ups;
        printf("%d\t%.0f\t%.2f\t%.0f\t%.2f\t%.3f\n", t, total, med / 1e6, ups, med / ((double)reps * (double)n),
               ups / base);
    }
    free(w);
    rsc_blob_free(&blob, NULL);
    free(urls);
    free(ubuf);
    free(src);
    return 0;
}
