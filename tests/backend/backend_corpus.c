/* SPDX-License-Identifier: Apache-2.0 */
/* Corpus: every file of CORPUS/robots and CORPUS/robots-variants compiles
 * (google profile), the blob loads with rsc_load and passes the independent
 * checker of blobcheck.h (every Verification rule of docs/FORMAT.md, the
 * encoder's promises, no program entry that can never decide), and
 * rsc_blob_info_get counts what the checker counts; every 10th is also
 * dumped. Prints compile time (total, median, max), total blob bytes vs
 * source bytes (and how many blobs are larger than their source), the
 * largest program (nodes and bytes) and how many files were compiled in
 * per-group mode (a set of several programs, note [selections] of
 * compiler/compile.c). Exits 77 when the corpus is absent.
 *
 * Usage: backend_corpus CORPUS_DIR [STRIDE] (STRIDE k: every k-th file of
 * each directory, in name order; default 1). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blobcheck.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void sink(void *ud, const char *s, size_t n)
{
    (void)s;
    *(size_t *)ud += n;
}

typedef struct stats {
    size_t files, failed, src_bytes, blob_bytes, per_group, max_nodes, max_prog_bytes, larger;
    size_t nodes, globs, programs;
    size_t automata, labelled, states, all_states; /* FORMAT.md, Labels */
    char max_bytes_file[4096];
    double *times;
    size_t n_times, cap_times;
    char max_file[4096];
    double slow_t[5]; /* the slowest files, slowest first */
    char slow[5][4096];
} stats;

static void one_file(stats *st, const char *path, size_t index)
{
    size_t n;
    char *body = tu_read_file(path, &n);
    if (!body) {
        TU_CHECK(0, "cannot read %s", path);
        return;
    }
    rsc_blob b;
    double t0 = now();
    rsc_status s = rsc_compile(body, n, NULL, &b);
    double dt = now() - t0;
    free(body);
    st->files++;
    if (st->n_times == st->cap_times) {
        st->cap_times = st->cap_times ? st->cap_times * 2 : 1024;
        st->times = realloc(st->times, st->cap_times * sizeof *st->times);
        if (!st->times)
            exit(2);
    }
    st->times[st->n_times++] = dt;
    for (int k = 0; k < 5; k++) {
        if (dt > st->slow_t[k]) {
            for (int j = 4; j > k; j--) {
                st->slow_t[j] = st->slow_t[j - 1];
                memcpy(st->slow[j], st->slow[j - 1], sizeof st->slow[j]);
            }
            st->slow_t[k] = dt;
            snprintf(st->slow[k], sizeof st->slow[k], "%s", path);
            break;
        }
    }
    if (s != RSC_OK) {
        st->failed++;
        TU_CHECK(0, "%s: compile status %d (%s)", path, (int)s, rsc_strerror(s));
        return;
    }
    st->src_bytes += n;
    st->blob_bytes += b.size;
    st->larger += b.size > n;
    rsc_program p;
    rsc_load_error e = {0, NULL};
    s = rsc_load(&p, b.data, b.size, &e);
    bc_info bi;
    bc_err ce = {{0}};
    int ok = bc_check_blob(b.data, b.size, 1, &bi, &ce);
    TU_CHECK(ok, "%s: independent check: %s", path, ce.msg);
    if (s != RSC_OK) {
        TU_CHECK(0, "%s: load status %d at %zu (%s)", path, (int)s, e.offset, e.what ? e.what : "");
    } else {
        rsc_blob_info info;
        if (rsc_blob_info_get(&p, &info) != RSC_OK) {
            TU_CHECK(0, "%s: rsc_blob_info_get", path);
            ok = 0;
        } else if (ok) {
            TU_CHECK(info.n_programs == bi.programs && info.total_nodes == bi.nodes &&
                         info.max_nodes == bi.max_nodes && info.n_globs == bi.globs &&
                         info.n_rules == bi.rules && info.n_sets == bi.sets,
                     "%s: rsc_blob_info_get: programs %u nodes %u/%u globs %u, checker %u %u/%u %u",
                     path, info.n_programs, info.total_nodes, info.max_nodes, info.n_globs,
                     bi.programs, bi.nodes, bi.max_nodes, bi.globs);
            if (info.max_nodes > st->max_nodes) {
                st->max_nodes = info.max_nodes;
                snprintf(st->max_file, sizeof st->max_file, "%s", path);
            }
        }
        if (index % 10 == 0) {
            size_t len = 0;
            TU_CHECK(rsc_dump(&p, sink, &len) == RSC_OK && len > 0, "%s: dump", path);
        }
    }
    if (s != RSC_OK || !ok)
        st->failed++;
    if (ok) {
        if (bi.max_prog_bytes > st->max_prog_bytes) {
            st->max_prog_bytes = bi.max_prog_bytes;
            snprintf(st->max_bytes_file, sizeof st->max_bytes_file, "%s", path);
        }
        st->per_group += bi.max_set_programs > 1;
        st->nodes += bi.nodes;
        st->globs += bi.globs;
        st->programs += bi.programs;
        st->automata += bi.automata, st->labelled += bi.labelled;
        st->states += bi.states, st->all_states += bi.all_states;
    }
    rsc_blob_free(&b, NULL);
}

static int run_dir(stats *st, const char *dir, size_t stride)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 1024;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                exit(2);
        }
        size_t l = strlen(de->d_name);
        names[n] = malloc(l + 1);
        if (!names[n])
            exit(2);
        memcpy(names[n++], de->d_name, l + 1);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (i % stride == 0) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            one_file(st, path, i);
        }
        free(names[i]);
    }
    free(names);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: backend_corpus CORPUS_DIR [STRIDE]\n");
        return 2;
    }
    size_t stride = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 1;
    if (stride == 0)
        stride = 1;
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/robots", argv[1]);
    snprintf(b, sizeof b, "%s/robots-variants", argv[1]);
    if (!tu_dir_exists(a)) {
        printf("corpus not found at %s: skipped\n", a);
        return 77;
    }
    stats st;
    memset(&st, 0, sizeof st);
    run_dir(&st, a, stride);
    if (tu_dir_exists(b))
        run_dir(&st, b, stride);
    qsort(st.times, st.n_times, sizeof *st.times, cmp_dbl);
    double total = 0;
    for (size_t i = 0; i < st.n_times; i++)
        total += st.times[i];
    printf("files %zu, failed %zu\n", st.files, st.failed);
    if (st.n_times)
        printf("compile time: total %.3f s, median %.3f ms, max %.3f ms\n", total,
               st.times[st.n_times / 2] * 1e3, st.times[st.n_times - 1] * 1e3);
    printf("source bytes %zu, blob bytes %zu (%.3fx); blobs larger than their source: %zu\n",
           st.src_bytes, st.blob_bytes,
           st.src_bytes ? (double)st.blob_bytes / (double)st.src_bytes : 0.0, st.larger);
    printf("programs %zu, nodes %zu, glob entries %zu\n", st.programs, st.nodes, st.globs);
    printf("automata %zu, labelled %zu; STATES rows %zu of %zu states (%.3f)\n", st.automata,
           st.labelled, st.states, st.all_states,
           st.all_states ? (double)st.states / (double)st.all_states : 0.0);
    printf("largest program: %zu nodes (%s)\n", st.max_nodes, st.max_file);
    printf("largest program: %zu bytes (%s)\n", st.max_prog_bytes, st.max_bytes_file);
    printf("files compiled per group (a set of several programs): %zu\n", st.per_group);
    for (int k = 0; k < 5 && st.slow_t[k] > 0; k++)
        printf("slow: %.3f s %s\n", st.slow_t[k], st.slow[k]);
    free(st.times);
    TU_CHECK(st.files > 0, "no files");
    return tu_report("corpus", (int)(st.files - st.failed));
}
