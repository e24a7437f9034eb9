/* Corpus: every file of CORPUS/robots and CORPUS/robots-variants compiles
 * (google profile) and the blob loads; every 10th is also dumped. Prints
 * compile time (total, median, max), blob bytes vs source bytes, the largest
 * automaton and how many files needed a rule set split over several
 * automata. Exits 77 when the corpus is absent.
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

static uint32_t rd(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Largest N of the SETS section (automata of one rule set). */
static uint32_t max_set_automata(const rsc_blob *b)
{
    uint32_t n = rd(b->data + 16), best = 0;
    size_t at = 32 + 8 * (size_t)n;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = b->data + 32 + 8 * i;
        if ((e[0] | e[1] << 8) == 4) {
            const uint8_t *s = b->data + at;
            for (uint32_t k = 0; k < rd(s); k++)
                if (rd(s + 8 + 8 * k + 4) > best)
                    best = rd(s + 8 + 8 * k + 4);
        }
        at += (rd(e + 4) + 3) & ~(size_t)3;
    }
    return best;
}

static void sink(void *ud, const char *s, size_t n)
{
    (void)s;
    *(size_t *)ud += n;
}

typedef struct stats {
    size_t files, failed, src_bytes, blob_bytes, split, max_states;
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
    rsc_program p;
    rsc_load_error e = {0, NULL};
    s = rsc_load(&p, b.data, b.size, &e);
    if (s != RSC_OK) {
        st->failed++;
        TU_CHECK(0, "%s: load status %d at %zu (%s)", path, (int)s, e.offset, e.what ? e.what : "");
    } else {
        rsc_blob_info info;
        if (rsc_blob_info_get(&p, &info) == RSC_OK && info.max_states > st->max_states) {
            st->max_states = info.max_states;
            snprintf(st->max_file, sizeof st->max_file, "%s", path);
        }
        if (index % 10 == 0) {
            size_t len = 0;
            TU_CHECK(rsc_dump(&p, sink, &len) == RSC_OK && len > 0, "%s: dump", path);
        }
    }
    if (max_set_automata(&b) > 1)
        st->split++;
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
        fprintf(stderr, "usage: backend_corpus CORPUS_DIR [LIMIT]\n");
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
    printf("source bytes %zu, blob bytes %zu (%.2fx)\n", st.src_bytes, st.blob_bytes,
           st.src_bytes ? (double)st.blob_bytes / (double)st.src_bytes : 0.0);
    printf("largest automaton: %zu states (%s)\n", st.max_states, st.max_file);
    printf("files with a rule set split over several automata: %zu\n", st.split);
    for (int k = 0; k < 5 && st.slow_t[k] > 0; k++)
        printf("slow: %.3f s %s\n", st.slow_t[k], st.slow[k]);
    free(st.times);
    TU_CHECK(st.files > 0, "no files");
    return tu_report("corpus", (int)(st.files - st.failed));
}
