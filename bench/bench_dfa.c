/* SPDX-License-Identifier: Apache-2.0 */
/* bench_dfa: the DFA engine over a corpus directory (issue 28): for every
 * robots.txt, compiled (google profile) and selected for Googlebot, the
 * selection's DFA built at --budget bytes (default RSC_DFA_BUDGET): whether
 * it fits (every state built, or partial: the states found first, the rest
 * left to the programs), its states, classes and bytes, and the build time
 * (the median of --rounds builds into a buffer already touched once). A
 * selection over the budget or partial is tried again at --retry bytes (0:
 * not), to show how far over it is.
 *
 *   bench_dfa [--budget B] [--retry B] [--rounds N] DIR > dfa.tsv
 *
 * One TSV row a file: name, source_bytes, rules (of the selection's DFA,
 * or of the blob when over), fit (1 built, 0 over), states, classes,
 * dfa_bytes, build_ns (the median; over: the time to refuse), retry_fit (1:
 * every state built at --retry), retry_states, retry_bytes, partial (1:
 * built with states left unbuilt). Compile errors are rows with fit -1.
 * Nothing here asserts a time. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    size_t budget = RSC_DFA_BUDGET, retry = 0;
    int rounds = 5;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--budget") == 0 && i + 1 < argc)
            budget = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--retry") == 0 && i + 1 < argc)
            retry = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else
            dir = argv[i];
    }
    if (!dir || rounds < 1 || rounds > 99) {
        fprintf(stderr, "usage: bench_dfa [--budget B] [--retry B] [--rounds N] DIR\n");
        return 2;
    }
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return 2;
    }
    size_t n = 0, cap = 0;
    char **names = NULL;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                return 2;
        }
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_name);
    size_t big = budget > retry ? budget : retry;
    void *buf = malloc(big ? big : 8);
    if (!buf)
        return 2;
    memset(buf, 0, big); /* touched once: builds time the work, not page faults */
    printf("name\tsource_bytes\trules\tfit\tstates\tclasses\tdfa_bytes\tbuild_ns\tretry_fit\t"
           "retry_states\tretry_bytes\tpartial\n");
    rsc_bytes ag = {"Googlebot", 9};
    for (size_t k = 0; k < n; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        size_t len;
        unsigned char *text = bu_read(path, &len);
        rsc_blob blob = {NULL, 0};
        rsc_program prog;
        rsc_selection sel;
        if (!text || rsc_compile(text, len, NULL, &blob) != RSC_OK ||
            rsc_load(&prog, blob.data, blob.size, NULL) != RSC_OK ||
            rsc_select(&prog, &ag, 1, &sel) != RSC_OK) {
            printf("%s\t%zu\t0\t-1\t0\t0\t0\t0\t0\t0\t0\t0\n", names[k], text ? len : 0);
            free(text);
            rsc_blob_free(&blob, NULL);
            continue;
        }
        double v[99];
        rsc_status st = RSC_OK;
        rsc_selection t;
        for (int r = 0; r < rounds; r++) {
            t = sel;
            uint64_t t0 = bu_now_ns();
            st = rsc_dfa_build(&t, buf, budget, NULL);
            v[r] = (double)(bu_now_ns() - t0);
            if (st != RSC_OK)
                break;
        }
        rsc_engine_info info;
        rsc_selection_engine(&t, &info);
        double build = st == RSC_OK ? bu_median(v, (size_t)rounds) : v[0];
        rsc_blob_info bi;
        rsc_blob_info_get(&prog, &bi);
        rsc_engine_info ri;
        memset(&ri, 0, sizeof ri);
        int rfit = 0;
        const int partial = st == RSC_OK && rsc_dfa_partial(&t);
        if ((st != RSC_OK || partial) && retry > budget) {
            t = sel;
            rfit = rsc_dfa_build(&t, buf, retry, NULL) == RSC_OK &&
                   rsc_selection_engine(&t, &ri) == RSC_ENGINE_DFA && !rsc_dfa_partial(&t);
        }
        printf("%s\t%zu\t%u\t%d\t%u\t%u\t%zu\t%.0f\t%d\t%u\t%zu\t%d\n", names[k], len,
               st == RSC_OK ? info.rules : bi.n_rules, st == RSC_OK, info.states, info.classes,
               info.bytes, build, rfit, ri.states, ri.bytes, partial);
        free(text);
        rsc_blob_free(&blob, NULL);
    }
    for (size_t k = 0; k < n; k++)
        free(names[k]);
    free(names);
    free(buf);
    return 0;
}
