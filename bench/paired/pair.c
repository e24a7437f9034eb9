/* SPDX-License-Identifier: Apache-2.0 */
/* pair: times two builds of robotsc in one process, alternating, for
 * bench/paired/paired.sh (which links them and reads the output). One
 * build is linked as is, the other with every symbol it defines renamed
 * N_... (objcopy --redefine-syms), so the calls below reach either.
 *
 *   pair match JOBS.tsv ROUNDS    rsc_match_url over each real list (the
 *                                 "name, robots.txt, URLs" rows of
 *                                 bench/run.sh's jobs.tsv)
 *   pair load DIR STEP ROUNDS     rsc_load of every STEP-th file's blob
 *   pair compile DIR STEP ROUNDS  rsc_compile of every STEP-th file
 *
 * Built with -DPAIR_RUNTIME (the runtimes differ: match, load) or
 * -DPAIR_COMPILER (the compilers differ: compile); match and load with
 * -DPAIR_BOTH too when the two read different blob formats: each build
 * then compiles, loads (and selects) its own blob. Each round times A then
 * B, or B then A, in turns. Prints the median over items of B's time / A's
 * (per item: the median over rounds), the weighted sums, and a count of
 * items where A and B disagree (verdicts, load status, blob bytes), which
 * must be 0. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

#define MAX_ROUNDS 31

#ifdef PAIR_RUNTIME
int N_rsc_match_url(const rsc_selection *sel, const char *url, size_t len, rsc_match *m);
rsc_status N_rsc_load(rsc_program *prog, const void *blob, size_t size, rsc_load_error *err);
rsc_status N_rsc_select(const rsc_program *prog, const rsc_bytes *agents, size_t n,
                        rsc_selection *out);
#endif
#if defined(PAIR_COMPILER) || defined(PAIR_BOTH)
rsc_status N_rsc_compile(const void *body, size_t len, const rsc_compile_options *opt,
                         rsc_blob *out);
void N_rsc_blob_free(rsc_blob *b, const rsc_compile_options *opt);
#endif

typedef struct item {
    double a, b; /* median ns of A and of B */
    double w;    /* weight in the sums: URLs, or 1 */
} item;

static int cmp_double(const void *x, const void *y)
{
    double p = *(const double *)x, q = *(const double *)y;
    return (p > q) - (p < q);
}

static void report(const char *what, item *it, size_t n, long bad)
{
    double *r = malloc(n * sizeof *r), sa = 0, sb = 0;
    if (!r)
        exit(2);
    for (size_t i = 0; i < n; i++) {
        r[i] = it[i].b / it[i].a;
        sa += it[i].a * it[i].w, sb += it[i].b * it[i].w;
    }
    qsort(r, n, sizeof *r, cmp_double);
    printf("%s items=%zu disagree=%ld median_b_over_a=%.4f p10=%.4f p90=%.4f sum_b_over_a=%.4f\n",
           what, n, bad, r[n / 2], r[n / 10], r[n * 9 / 10], sb / sa);
    free(r);
}

/* Files of dir, every step-th in name order, read whole. */
static size_t read_dir(const char *dir, int step, unsigned char ***text, size_t **len)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "pair: cannot read %s\n", dir);
        exit(2);
    }
    size_t k = 0;
    *text = malloc((size_t)n * sizeof **text), *len = malloc((size_t)n * sizeof **len);
    for (int i = 0; i < n; i++) {
        char path[4096];
        if (names[i]->d_name[0] != '.' && i % step == 0 &&
            snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name) < (int)sizeof path &&
            ((*text)[k] = bu_read(path, &(*len)[k])) != NULL)
            k++;
        free(names[i]);
    }
    free(names);
    return k;
}

/* Repetitions of one call so that a timing lasts about 20 µs. */
#define REPS_FOR(once) ((once) > 20000 ? 1 : (size_t)(20000 / ((once) + 1)) + 1)

/* reps passes of A (use_b 0) or of B over one item. */
typedef void (*pass_fn)(const void *ctx, int use_b, size_t reps);

/* One item: `rounds` rounds, each timing A then B or B then A in turns;
 * it->a and it->b get the medians in ns per unit (reps x units a round). */
static void time_item(pass_fn pass, const void *ctx, size_t reps, double units, int rounds,
                      double w, item *it)
{
    double v[2][MAX_ROUNDS];
    for (int k = 0; k < rounds; k++) {
        for (int o = 0; o < 2; o++) {
            int use_b = (k + o) & 1;
            uint64_t t0 = bu_now_ns();
            pass(ctx, use_b, reps);
            v[use_b][k] = (double)(bu_now_ns() - t0) / ((double)reps * units);
        }
    }
    it->a = bu_median(v[0], (size_t)rounds), it->b = bu_median(v[1], (size_t)rounds), it->w = w;
}

/* The load and compile modes: one item per file read by read_dir(); one()
 * checks that A and B agree on the file (adding 1 to *bad if not), times
 * it into *it and returns 1, or returns 0 to leave the file out. */
typedef int (*file_fn)(const unsigned char *text, size_t len, int rounds, item *it, long *bad);

static int run_files(const char *what, const char *dir, int step, int rounds, file_fn one)
{
    unsigned char **text;
    size_t *len, nf = read_dir(dir, step, &text, &len), n = 0;
    item *it = malloc((nf ? nf : 1) * sizeof *it);
    long bad = 0;
    for (size_t i = 0; i < nf && it; i++)
        n += (size_t)one(text[i], len[i], rounds, &it[n], &bad);
    if (!n)
        return 2;
    report(what, it, n, bad);
    return 0;
}

#ifdef PAIR_RUNTIME
typedef struct match_ctx {
    const rsc_selection *sel, *selb; /* A's and B's (B's own with PAIR_BOTH) */
    const rsc_bytes *urls;
    long n;
} match_ctx;

static void match_pass(const void *ctx, int use_b, size_t reps)
{
    const match_ctx *m = ctx;
    for (size_t r = 0; r < reps; r++)
        for (long i = 0; i < m->n; i++)
            bu_sink += (uint64_t)(use_b ? N_rsc_match_url : rsc_match_url)(
                use_b ? m->selb : m->sel, m->urls[i].ptr, m->urls[i].len, NULL);
}

static int run_match(const char *jobs, int rounds)
{
    FILE *f = fopen(jobs, "r");
    if (!f) {
        fprintf(stderr, "pair: cannot read %s\n", jobs);
        return 2;
    }
    item *it = NULL;
    size_t n = 0, cap = 0;
    long bad = 0;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        char *name = strtok(line, "\t"), *rp = strtok(NULL, "\t"), *up = strtok(NULL, "\t\n");
        size_t rn, un;
        unsigned char *r = rp ? bu_read(rp, &rn) : NULL, *u = up ? bu_read(up, &un) : NULL;
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel, selb;
#ifdef PAIR_BOTH
        rsc_blob blobb;
        rsc_program progb; /* selb points to it */
#endif
        rsc_bytes agent = {"Googlebot", 9}, *urls = NULL;
        long nu = u ? bu_lines((const char *)u, un, &urls) : -1;
        (void)name;
        if (!r || nu <= 0 || rsc_compile(r, rn, NULL, &blob) != RSC_OK) {
            free(r), free(u), free(urls);
            continue;
        }
        if (rsc_load(&prog, blob.data, blob.size, NULL) != RSC_OK ||
            rsc_select(&prog, &agent, 1, &sel) != RSC_OK) {
            rsc_blob_free(&blob, NULL), free(r), free(u), free(urls);
            continue;
        }
#ifdef PAIR_BOTH /* B's own blob, of B's format */
        rsc_status sb;
        if ((sb = N_rsc_compile(r, rn, NULL, &blobb)) != RSC_OK ||
            (sb = N_rsc_load(&progb, blobb.data, blobb.size, NULL)) != RSC_OK ||
            (sb = N_rsc_select(&progb, &agent, 1, &selb)) != RSC_OK) {
            fprintf(stderr, "pair: %s: B cannot compile, load or select it (%d)\n", rp, (int)sb);
            return 2;
        }
#else
        selb = sel;
#endif
        for (long i = 0; i < nu; i++) {
            rsc_match ma, mb;
            int va = rsc_match_url(&sel, urls[i].ptr, urls[i].len, &ma);
            int vb = N_rsc_match_url(&selb, urls[i].ptr, urls[i].len, &mb);
            bad += va != vb || ma.line != mb.line;
        }
        if (n == cap && !(it = realloc(it, (cap = cap ? 2 * cap : 64) * sizeof *it)))
            return 2;
        match_ctx m = {&sel, &selb, urls, nu};
        time_item(match_pass, &m, 5, (double)nu, rounds, (double)nu, &it[n++]);
        rsc_blob_free(&blob, NULL), free(r), free(u), free(urls);
#ifdef PAIR_BOTH
        N_rsc_blob_free(&blobb, NULL);
#endif
    }
    fclose(f);
    if (!n) {
        fprintf(stderr, "pair: no list in %s\n", jobs);
        return 2;
    }
    report("match", it, n, bad);
    free(it);
    return 0;
}

/* A's blob, and B's (the same one unless PAIR_BOTH: B's own compile). */
typedef struct load_ctx {
    rsc_blob a, b;
} load_ctx;

static void load_pass(const void *ctx, int use_b, size_t reps)
{
    const load_ctx *c = ctx;
    rsc_program p;
    for (size_t r = 0; r < reps; r++)
        bu_sink += (uint64_t)(use_b ? N_rsc_load(&p, c->b.data, c->b.size, NULL)
                                    : rsc_load(&p, c->a.data, c->a.size, NULL));
}

static int load_one(const unsigned char *text, size_t len, int rounds, item *it, long *bad)
{
    load_ctx c;
    rsc_program p;
    if (rsc_compile(text, len, NULL, &c.a) != RSC_OK)
        return 0;
#ifdef PAIR_BOTH
    if (N_rsc_compile(text, len, NULL, &c.b) != RSC_OK) {
        rsc_blob_free(&c.a, NULL);
        return 0;
    }
#else
    c.b = c.a;
#endif
    *bad += rsc_load(&p, c.a.data, c.a.size, NULL) != N_rsc_load(&p, c.b.data, c.b.size, NULL);
    uint64_t t0 = bu_now_ns();
    bu_sink += (uint64_t)rsc_load(&p, c.a.data, c.a.size, NULL);
    time_item(load_pass, &c, REPS_FOR(bu_now_ns() - t0), 1, rounds, 1, it);
#ifdef PAIR_BOTH
    N_rsc_blob_free(&c.b, NULL);
#endif
    rsc_blob_free(&c.a, NULL);
    return 1;
}
#endif

#ifdef PAIR_COMPILER
static int same_blob(const unsigned char *t, size_t l)
{
    rsc_blob x, y;
    rsc_status sx = rsc_compile(t, l, NULL, &x), sy = N_rsc_compile(t, l, NULL, &y);
    int same = sx == sy && (sx != RSC_OK || (x.size == y.size && memcmp(x.data, y.data, x.size) == 0));
    if (sx == RSC_OK)
        rsc_blob_free(&x, NULL);
    if (sy == RSC_OK)
        N_rsc_blob_free(&y, NULL);
    return same;
}

typedef struct compile_ctx {
    const unsigned char *text;
    size_t len;
} compile_ctx;

static void compile_pass(const void *ctx, int use_b, size_t reps)
{
    const compile_ctx *c = ctx;
    rsc_blob b;
    for (size_t r = 0; r < reps; r++) {
        if (use_b) {
            bu_sink += N_rsc_compile(c->text, c->len, NULL, &b);
            N_rsc_blob_free(&b, NULL);
        } else {
            bu_sink += rsc_compile(c->text, c->len, NULL, &b);
            rsc_blob_free(&b, NULL);
        }
    }
}

static int compile_one(const unsigned char *text, size_t len, int rounds, item *it, long *bad)
{
    rsc_blob b;
    *bad += !same_blob(text, len);
    uint64_t t0 = bu_now_ns();
    if (rsc_compile(text, len, NULL, &b) != RSC_OK)
        return 0;
    size_t reps = REPS_FOR(bu_now_ns() - t0);
    rsc_blob_free(&b, NULL);
    compile_ctx c = {text, len};
    time_item(compile_pass, &c, reps, 1, rounds, 1, it);
    return 1;
}
#endif

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int rounds = atoi(argv[argc - 1]);
    if (rounds < 1 || rounds > MAX_ROUNDS)
        rounds = 0;
#ifdef PAIR_RUNTIME
    if (strcmp(mode, "match") == 0 && argc == 4 && rounds)
        return run_match(argv[2], rounds);
    if (strcmp(mode, "load") == 0 && argc == 5 && rounds && atoi(argv[3]) > 0)
        return run_files("load", argv[2], atoi(argv[3]), rounds, load_one);
#endif
#ifdef PAIR_COMPILER
    if (strcmp(mode, "compile") == 0 && argc == 5 && rounds && atoi(argv[3]) > 0)
        return run_files("compile", argv[2], atoi(argv[3]), rounds, compile_one);
#endif
    fprintf(stderr, "usage: pair match JOBS.tsv ROUNDS | pair load|compile DIR STEP ROUNDS "
                    "(ROUNDS 1..%d)\n", MAX_ROUNDS);
    return 2;
}
