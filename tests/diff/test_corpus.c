/* SPDX-License-Identifier: Apache-2.0 */
#define _POSIX_C_SOURCE 200809L /* strdup, strncasecmp */
/* The corpus (../shared/corpus/robots; skipped with exit 77 when absent):
 * every 100th file (every file with RSC_DIFF_FULL=1, every Nth with RSC_DIFF_STEP=N; of those, the
 * shard k of n with RSC_DIFF_SHARD=k/n), for each agent the file names (4 at most, all with
 * RSC_DIFF_FULL=1) and any other agent:
 *  - diff against itself: "same", or "unknown" counted and reported (never
 *    "different");
 *  - diff against a mutated copy (one rule line dropped, or its kind
 *    flipped): no error, every witness re-checks on the matcher;
 *  - semantic lint runs, and the file with every rule it calls dead
 *    removed diffs "same" against the original for every agent.
 * Prints the counts, the budget hits by name, and the files that took
 * RSC_DIFF_SLOW seconds (default 2) or more. Budgets: 100,000 states
 * (RSC_DIFF_STATES) and the library's 16 Mi words (RSC_DIFF_WORDS);
 * RSC_DIFF_ONLY=NAME takes that file alone. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

typedef struct loaded {
    rsc_blob blob;
    rsc_program prog;
} loaded;

static int load_text(const char *t, size_t n, loaded *l)
{
    memset(l, 0, sizeof *l);
    return rsc_compile(t, n, NULL, &l->blob) == RSC_OK &&
                   rsc_load(&l->prog, l->blob.data, l->blob.size, NULL) == RSC_OK
               ? 0
               : -1;
}

static size_t max_agents = 63; /* agents a file, but "*" (sample mode: fewer) */
/* the budgets (RSC_DIFF_STATES, RSC_DIFF_WORDS: to see what a larger one
 * answers); 0 words: the library's default */
static size_t budget_states = 100000, budget_words = 0;
static size_t n_files, n_diffs, n_unknown, n_flips, n_dead, n_lint_unknown;

/* Diffs a and b for every agent of either and any other; returns the
 * number of agents found different (-1 on error). */
static int diff_all(const loaded *a, const loaded *b, const char *name, int expect_same)
{
    rsc_bytes agents[64];
    size_t na = 0;
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; na < max_agents && rsc_blob_agent(s ? &b->prog : &a->prog, i, &agents[na]); i++)
            if (agents[na].len)
                na++;
    agents[na].ptr = "*", agents[na].len = 1, na++;
    int differ = 0;
    for (size_t k = 0; k < na; k++) {
        rsc_selection sa, sb;
        if (rsc_select(&a->prog, &agents[k], 1, &sa) != RSC_OK ||
            rsc_select(&b->prog, &agents[k], 1, &sb) != RSC_OK)
            continue;
        rsc_diff_result r;
        rsc_explore_options o;
        memset(&o, 0, sizeof o);
        o.max_states = budget_states;
        o.max_words = budget_words;
        rsc_status st = rsc_diff(&sa, &sb, 3, &o, &r);
        n_diffs++;
        TU_CHECK(st == RSC_OK, "%s: agent %.*s: diff failed: %s", name, (int)agents[k].len, agents[k].ptr,
                 rsc_strerror(st));
        if (st == RSC_OK && r.outcome == RSC_DIFF_UNKNOWN) {
            n_unknown++;
            printf("budget: %s agent %.*s: unknown beyond %zu states\n", name, (int)agents[k].len,
                   agents[k].ptr, r.states);
        }
        if (expect_same)
            TU_CHECK(st != RSC_OK || r.outcome != RSC_DIFF_DIFFERENT, "%s: agent %.*s: differs from %s",
                     name, (int)agents[k].len, agents[k].ptr, expect_same == 1 ? "itself" : "its dead-free copy");
        for (size_t f = 0; st == RSC_OK && f < r.n_flips; f++) {
            const rsc_flip *x = &r.flips[f];
            int va = rsc_match_path(&sa, x->path, x->len, NULL), vb = rsc_match_path(&sb, x->path, x->len, NULL);
            TU_CHECK(va != vb && va == x->old_allowed, "%s: witness does not re-check", name);
            n_flips++;
        }
        differ += st == RSC_OK && r.outcome == RSC_DIFF_DIFFERENT;
        rsc_diff_result_free(&r, &o);
    }
    return differ;
}

typedef struct dead_lines {
    uint32_t lines[4096];
    size_t n;
    int budget;
} dead_lines;

static void on_semdiag(void *ud, const rsc_semdiag *d)
{
    dead_lines *dl = ud;
    if (d->code == RSC_SL_DEAD_RULE && dl->n < 4096)
        dl->lines[dl->n++] = d->line;
    if (d->code == RSC_SL_BUDGET)
        dl->budget = 1;
}

static void one_file(const char *dir, const char *fname, unsigned seed)
{
    char path[8192];
    snprintf(path, sizeof path, "%.4000s/%.4000s", dir, fname);
    size_t n;
    char *t = tu_read_file(path, &n);
    if (!t)
        return;
    if (n > RSC_MAX_BODY)
        n = RSC_MAX_BODY;
    loaded a, b;
    if (load_text(t, n, &a) != 0) {
        TU_CHECK(0, "%s: does not compile", fname);
        free(t);
        return;
    }
    n_files++;
    diff_all(&a, &a, fname, 1);
    /* a mutated copy: the k-th allow/disallow line dropped or its kind flipped */
    char *m = malloc(n + 16);
    memcpy(m, t, n);
    size_t mn = n;
    char *hit = NULL;
    for (char *p = m; p < m + n && !hit; p++)
        if ((p == m || p[-1] == '\n') && (strncasecmp(p, "disallow:", 9) == 0 || strncasecmp(p, "allow:", 6) == 0) &&
            (seed-- == 0 || p > m + n / 2))
            hit = p;
    if (hit) {
        if (hit[0] == 'a' || hit[0] == 'A')
            memcpy(hit, "#", 1); /* allow line commented out */
        else
            memcpy(hit, "Allow   ", 8); /* disallow -> allow (same line length) */
        if (load_text(m, mn, &b) == 0) {
            diff_all(&a, &b, fname, 0);
            rsc_blob_free(&b.blob, NULL);
        }
    }
    free(m);
    /* semantic lint: dead rules removed change nothing */
    rsc_ir *ir = NULL;
    if (rsc_parse(t, n, NULL, &ir) == RSC_OK) {
        dead_lines *dl = calloc(1, sizeof *dl);
        rsc_explore_options o;
        memset(&o, 0, sizeof o);
        o.max_states = budget_states;
        o.max_words = budget_words;
        TU_CHECK(rsc_semlint(ir, &o, on_semdiag, dl) == RSC_OK, "%s: semlint failed", fname);
        n_dead += dl->n;
        n_lint_unknown += dl->budget;
        if (dl->budget)
            printf("lint budget: %s: a rule set over the budget (its rules neither live nor dead)\n", fname);
        if (dl->n) {
            char *c = malloc(n + 9 * dl->n + 1);
            size_t cn = c ? tu_drop_lines(t, n, dl->lines, dl->n, c) : 0;
            if (c && load_text(c, cn, &b) == 0) {
                diff_all(&a, &b, fname, 2);
                rsc_blob_free(&b.blob, NULL);
            }
            free(c);
        }
        free(dl);
        rsc_ir_free(ir);
    }
    rsc_blob_free(&a.blob, NULL);
    free(t);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : "../shared/corpus";
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/robots", root);
    DIR *d = opendir(dir);
    if (!d) {
        printf("corpus not found at %s: skipped\n", dir);
        return 77;
    }
    char **names = NULL;
    size_t nn = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (nn == cap)
            names = realloc(names, (cap = cap ? 2 * cap : 1024) * sizeof *names);
        names[nn++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, nn, sizeof *names, cmp_str);
    /* ctest samples every 100th file (a few shared cores); RSC_DIFF_FULL=1
     * takes every file and every agent, RSC_DIFF_STEP=N every Nth file */
    const char *full = getenv("RSC_DIFF_FULL"), *stp = getenv("RSC_DIFF_STEP");
    size_t step = full && *full == '1' ? 1 : stp && atoi(stp) > 0 ? (size_t)atoi(stp) : 100;
    if (!(full && *full == '1'))
        max_agents = 4;
    /* RSC_DIFF_SHARD=k/n: of the files taken, those with index % n == k
     * (full_pass.sh runs the n shards side by side) */
    size_t shard = 0, n_shards = 1;
    const char *sh = getenv("RSC_DIFF_SHARD");
    if (sh) {
        unsigned a, b;
        if (sscanf(sh, "%u/%u", &a, &b) != 2 || b == 0 || a >= b) {
            fprintf(stderr, "RSC_DIFF_SHARD=%s: want k/n with k < n\n", sh);
            return 2;
        }
        shard = a, n_shards = b;
    }
    double slow = getenv("RSC_DIFF_SLOW") ? atof(getenv("RSC_DIFF_SLOW")) : 2.0;
    if (getenv("RSC_DIFF_STATES") && atol(getenv("RSC_DIFF_STATES")) > 0)
        budget_states = (size_t)atol(getenv("RSC_DIFF_STATES"));
    if (getenv("RSC_DIFF_WORDS") && atol(getenv("RSC_DIFF_WORDS")) > 0)
        budget_words = (size_t)atol(getenv("RSC_DIFF_WORDS"));
    const char *only = getenv("RSC_DIFF_ONLY"); /* one file, as the pass takes it (its mutation) */
    size_t taken = 0;
    for (size_t i = 0; i < nn; i += step) {
        if ((i / step) % n_shards != shard || (only && strcmp(names[i], only) != 0))
            continue;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        one_file(dir, names[i], (unsigned)i % 7);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (sec >= slow) /* a report, not a check: timing is never asserted */
            printf("slow: %s %.1f s\n", names[i], sec);
        if (taken++ % 200 == 0) {
            printf("... %zu files\n", taken);
            fflush(stdout);
        }
    }
    for (size_t i = 0; i < nn; i++)
        free(names[i]);
    free(names);
    printf("corpus: shard %zu/%zu: %zu files (every %zu), %zu diffs, %zu unknown (budget), %zu witnesses re-checked, "
           "%zu dead rules removed without a change, %zu files over the lint budget; %d failures\n",
           shard, n_shards, n_files, step, n_diffs, n_unknown, n_flips, n_dead, n_lint_unknown, tu_failures);
    return tu_failures ? 1 : 0;
}
