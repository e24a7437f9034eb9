/* SPDX-License-Identifier: Apache-2.0 */
/* bench_worker: what a crawler worker pays per origin (issue 36). For every
 * real URL list (bench/jobs.awk's "name<TAB>robots.txt<TAB>urls" lines) the
 * robots.txt is compiled once, untimed, into a blob held in memory, as a
 * worker holds it after reading a file, an mmap or a store record; then
 * each repetition times rsc_load (which verifies the whole blob; mode blob:
 * rsc_load_ex with RSC_LOAD_DEFER where the build has it) +
 * rsc_select(Googlebot) + rsc_match_url on every URL of the list, and the
 * median of --reps repetitions is the list's cost.
 *
 * Only the public API is used, so that this one source compiles against
 * 1.0.0 (3a05c31, format 4: the DFA is built at run time) and against the
 * format-5 code (the DFA is in the blob), which bench/baseline.sh builds side
 * by side. Two feature macros:
 * - RSC_BW_DFA_API: the run-time DFA (rsc_dfa_build, rsc_dfa_attach,
 *   rsc_dfa_partial) does work: before format 5 (format 5 keeps them as
 *   deprecated wrappers that build nothing).
 * - RSC_BW_USE_API: rsc_selection_use(sel, RSC_ENGINE_PROGRAMS) exists (format
 *   5), so the new code's programs can be timed apart from its DFA.
 * Both follow RSC_FORMAT_MAJOR unless given (bench/baseline.sh sets the
 * second from a test link).
 *
 *   bench_worker worker [--modes LIST] [--reps N] [--from I] [--to J] JOBS
 *   bench_worker floor [--rounds N] [--min-ms M] [--from I] [--to J] JOBS
 *   bench_worker selections DIR
 *
 * worker: modes (comma-separated; default all this build has):
 *   programs  the programs (trie + segment automata): format 4 as loaded;
 *             format 5 with rsc_selection_use(RSC_ENGINE_PROGRAMS)
 *   dfa16     1.0.0's policy (robotsc check, the store cache): the DFA
 *             built at the 16th URL into a 1 MiB buffer (touched once
 *             before timing), then attached; needs RSC_BW_DFA_API
 *   ready     a DFA built before timing, copied, and attached with
 *             rsc_dfa_attach (which checks every entry): its cost counted;
 *             needs RSC_BW_DFA_API
 *   blob      the blob as loaded on format 5 (its DFA from the first URL),
 *             as a worker loads it: rsc_load_ex(RSC_LOAD_DEFER), which
 *             leaves each DFA and the programs beside it to the call that
 *             first reads them (rsc_select for the DFA it runs; runtime.h);
 *             rsc_load before that flag
 * One TSV row per list and mode: name, urls, mode, ns (median of the
 * whole list), one_ns (load + select + the first URL: median of --reps
 * rounds, each a loop of at least 20 us divided by its count), engine
 * (rsc_selection_engine after select/attach, at the list's end),
 * blob_bytes, source_bytes. Then '#' lines with each mode's summary
 * (median list, p90 list, total over the lists, lists cheaper than the
 * first mode). --from/--to: only lists [I, J) of JOBS (0-based), so that
 * a script can interleave two builds list block by list block.
 *
 * floor (lists [I, J) as for worker): the blob as loaded against the FNV-1a floor, as robotsc bench
 * measures it (bu_time_match): name, urls, engine, match_ns, floor_ns,
 * ratio; then an alternative engine, alt (rtdfa: with RSC_BW_DFA_API, the
 * run-time DFA built at RSC_DFA_BUDGET; programs: with RSC_BW_USE_API, the
 * programs forced; none), alt_fit (rtdfa: 1 whole, 2 partial, 0 none, and
 * then the programs' figures are repeated; programs: 1), alt_match_ns,
 * alt_floor_ns, alt_ratio.
 *
 * selections: every file of DIR compiled (google profile) and selected for
 * Googlebot and for '*': one row a file and agent with the engine as
 * loaded (loaded_dfa: 1 when rsc_selection_engine says RSC_ENGINE_DFA
 * right after rsc_select) and, with RSC_BW_DFA_API, whether the run-time
 * DFA at RSC_DFA_BUDGET is whole (runtime_dfa: 1 whole, 2 partial, 0 none);
 * no_set 1 when the selection holds no rule set (the file has no group
 * for the agent and no '*' group: nothing to run, every path allowed).
 * Compile failures are rows with engine -1.
 *
 * Nothing here asserts a time. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

#ifndef RSC_BW_DFA_API
#if RSC_FORMAT_MAJOR < 5
#define RSC_BW_DFA_API 1
#else
#define RSC_BW_DFA_API 0
#endif
#endif
#ifndef RSC_BW_USE_API
#if RSC_FORMAT_MAJOR >= 5
#define RSC_BW_USE_API 1
#else
#define RSC_BW_USE_API 0
#endif
#endif

enum { M_PROGRAMS, M_DFA16, M_READY, M_BLOB, M_COUNT };
static const char *const mode_name[M_COUNT] = {"programs", "dfa16", "ready", "blob"};

#define DFA16_AT 15 /* the 16th URL (0-based), as 1.0.0's robotsc check */
#define DFA16_BUF ((size_t)1 << 20)
#define MAX_REPS 99

static const rsc_bytes googlebot = {"Googlebot", 9};

/* One list: its blob (in an 8-aligned malloc'ed copy, as a worker's buffer
 * or mmap is), its URLs, and the prebuilt DFA copy of mode ready. */
typedef struct job {
    char *name;
    unsigned char *urls_text;
    rsc_bytes *urls;
    size_t n_urls;
    uint8_t *blob;
    size_t blob_size, source_size;
    void *dfa;
    size_t dfa_size;
    /* Every pass loads into this one program: 1.0.0's rsc_dfa_attach
     * accepts a DFA only for the rsc_program (its address) it was built
     * for, as a worker that keeps a loaded program per origin has. */
    rsc_program prog;
} job;

static void *dfa16_buf;

static int job_open(job *j, const char *name, const char *robots, const char *urls)
{
    memset(j, 0, sizeof *j);
    j->name = strdup(name);
    size_t len;
    unsigned char *text = bu_read(robots, &len);
    j->urls_text = bu_read(urls, &j->n_urls);
    if (!j->name || !text || !j->urls_text) {
        fprintf(stderr, "bench_worker: %s: cannot read %s or %s\n", name, robots, urls);
        free(text);
        return -1;
    }
    long n = bu_lines((const char *)j->urls_text, j->n_urls, &j->urls);
    if (n < 1) {
        fprintf(stderr, "bench_worker: %s: no URLs\n", name);
        free(text);
        return -1;
    }
    j->n_urls = (size_t)n;
    j->source_size = len;
    rsc_blob b = {NULL, 0};
    rsc_status st = rsc_compile(text, len, NULL, &b);
    free(text);
    if (st != RSC_OK) {
        fprintf(stderr, "bench_worker: %s: compile: %s\n", name, rsc_strerror(st));
        return -1;
    }
    j->blob = malloc(b.size ? b.size : 1);
    if (!j->blob) {
        rsc_blob_free(&b, NULL);
        return -1;
    }
    memcpy(j->blob, b.data, b.size);
    j->blob_size = b.size;
    rsc_blob_free(&b, NULL);
    /* A blob this build cannot load or select is an error of the build
     * under test: said once here, and the list is left out (never timed
     * as a fast failure). */
    rsc_selection s;
    rsc_load_error le = {0, NULL};
    if ((st = rsc_load(&j->prog, j->blob, j->blob_size, &le)) != RSC_OK ||
        (st = rsc_select(&j->prog, &googlebot, 1, &s)) != RSC_OK) {
        fprintf(stderr, "bench_worker: %s: load/select of its own blob: %s (offset %zu: %s)\n", name,
                rsc_strerror(st), le.offset, le.what ? le.what : "-");
        return -1;
    }
    return 0;
}

static void job_close(job *j)
{
    free(j->name);
    free(j->urls_text);
    free(j->urls);
    free(j->blob);
    free(j->dfa);
    memset(j, 0, sizeof *j);
}

#if RSC_BW_DFA_API
/* Mode ready's DFA: built once, untimed, at 1.0.0's budget, and copied to a
 * buffer of its own size (what a cache or a file of DFAs would hold). None
 * when no DFA fits (the list then runs its programs, as 1.0.0 would). */
static void job_prepare_ready(job *j)
{
    rsc_program *p = &j->prog;
    rsc_selection s;
    size_t used = 0;
    if (rsc_load(p, j->blob, j->blob_size, NULL) != RSC_OK ||
        rsc_select(p, &googlebot, 1, &s) != RSC_OK ||
        rsc_dfa_build(&s, dfa16_buf, DFA16_BUF, &used) != RSC_OK || used == 0)
        return;
    j->dfa = malloc(used);
    if (!j->dfa)
        return;
    memcpy(j->dfa, dfa16_buf, used);
    j->dfa_size = used;
}
#endif

/* One worker pass: load, select, (attach,) check URLs [0, n). Returns the
 * engine in use at the end, or -1 when a call failed. */
static int pass(job *j, int mode, size_t n)
{
    rsc_program *p = &j->prog;
    rsc_selection s;
#ifdef RSC_LOAD_DEFER
    /* as loaded: as a worker loads it, each DFA and the programs beside it
     * left to the call that first reads them (runtime.h, rsc_load_ex) */
    const unsigned lf = mode == M_BLOB ? RSC_LOAD_DEFER : 0;
    if (rsc_load_ex(p, j->blob, j->blob_size, lf, NULL) != RSC_OK ||
#else
    if (rsc_load(p, j->blob, j->blob_size, NULL) != RSC_OK ||
#endif
        rsc_select(p, &googlebot, 1, &s) != RSC_OK)
        return -1;
#if RSC_BW_USE_API
    if (mode == M_PROGRAMS && rsc_selection_use(&s, RSC_ENGINE_PROGRAMS) != RSC_OK)
        return -1;
#endif
#if RSC_BW_DFA_API
    if (mode == M_READY && j->dfa && rsc_dfa_attach(&s, j->dfa, j->dfa_size) != RSC_OK)
        return -1;
#endif
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++) {
#if RSC_BW_DFA_API
        /* A build that fails leaves the programs' engine, as in 1.0.0. */
        if (mode == M_DFA16 && i == DFA16_AT)
            (void)rsc_dfa_build(&s, dfa16_buf, DFA16_BUF, NULL);
#endif
        acc += (uint64_t)rsc_match_url(&s, j->urls[i].ptr, j->urls[i].len, NULL);
    }
    bu_sink += acc;
    return rsc_selection_engine(&s, NULL);
}

/* One pass of a timed loop: pass(j, mode, n) as bu_time_median's op. */
typedef struct pass_arg {
    job *j;
    int mode;
    size_t n;
} pass_arg;

static void pass_op(void *ud)
{
    const pass_arg *a = ud;
    pass(a->j, a->mode, a->n);
}

/* The median of reps timings of one whole pass (after one untimed pass). */
static double time_list(job *j, int mode, int reps, int *engine)
{
    pass_arg a = {j, mode, j->n_urls};
    *engine = pass(j, mode, j->n_urls);
    return bu_time_median(pass_op, &a, 1, reps);
}

/* Load + select (+ attach) + the first URL: rounds of a loop of at least
 * 20 us each (one pass is far below the clock's resolution to trust). */
static double time_one(job *j, int mode, int reps)
{
    pass_arg a = {j, mode, 1};
    uint64_t t0 = bu_now_ns();
    pass(j, mode, 1);
    return bu_time_median(pass_op, &a, bu_reps(bu_now_ns() - t0, 20000), reps);
}

/* The jobs file, whole: lines of name, robots.txt path, URLs path; *from
 * and *to (a negative *to: the end) are clamped to the lines read. */
typedef struct jobline {
    char *name, *robots, *urls;
} jobline;

static long read_jobs(const char *path, jobline **out, char **keep, long *from, long *to)
{
    size_t len;
    char *text = (char *)bu_read(path, &len);
    if (!text)
        return -1;
    rsc_bytes *lines;
    long n = bu_lines(text, len, &lines);
    if (n < 0) {
        free(text);
        return -1;
    }
    jobline *v = calloc((size_t)n + 1, sizeof *v);
    long k = 0;
    for (long i = 0; v && i < n; i++) {
        char *l = (char *)lines[i].ptr;
        l[lines[i].len] = '\0'; /* the line end (or the appended NUL) */
        char *t1 = strchr(l, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        if (!t2)
            continue;
        *t1 = *t2 = '\0';
        char *t3 = strchr(t2 + 1, '\t'); /* hostile cases.tsv: a 4th column */
        if (t3)
            *t3 = '\0';
        if (strcmp(l, "name") == 0) /* a header line */
            continue;
        v[k].name = l;
        v[k].robots = t1 + 1;
        v[k].urls = t2 + 1;
        k++;
    }
    free(lines);
    if (!v) {
        free(text);
        return -1;
    }
    *out = v;
    *keep = text;
    if (*to < 0 || *to > k)
        *to = k;
    if (*from < 0)
        *from = 0;
    return k;
}

static void summary(const char *mode, double *ns, size_t n, const double *base, int have_base)
{
    if (n == 0)
        return;
    double total = 0;
    size_t cheaper = 0;
    for (size_t i = 0; i < n; i++) {
        total += ns[i];
        cheaper += have_base && ns[i] < base[i];
    }
    double *s = malloc(n * sizeof *s);
    if (!s)
        return;
    memcpy(s, ns, n * sizeof *s); /* bu_quantile sorts its copy */
    printf("# %s: lists %zu, median list %.0f ns, p90 list %.0f ns, total %.0f ns", mode, n,
           bu_quantile(s, n, 0.5), bu_quantile(s, n, 0.9), total);
    if (have_base)
        printf(", cheaper than %s: %zu of %zu", mode_name[M_PROGRAMS], cheaper, n);
    printf("\n");
    free(s);
}

static int run_worker(const char *jobs_path, const char *modes, int reps, long from, long to)
{
    int want[M_COUNT] = {0};
    if (!modes)
        modes = RSC_BW_DFA_API ? "programs,dfa16,ready" : RSC_BW_USE_API ? "programs,blob" : "programs";
    char *m = strdup(modes);
    for (char *t = m ? strtok(m, ",") : NULL; t; t = strtok(NULL, ",")) {
        int k = 0;
        while (k < M_COUNT && strcmp(t, mode_name[k]) != 0)
            k++;
        if (k == M_COUNT) {
            fprintf(stderr, "bench_worker: unknown mode %s\n", t);
            free(m);
            return 2;
        }
        if (!RSC_BW_DFA_API && (k == M_DFA16 || k == M_READY)) {
            fprintf(stderr, "bench_worker: mode %s: n/a (this build has no run-time DFA)\n", t);
            continue;
        }
        if (RSC_FORMAT_MAJOR < 5 && k == M_BLOB) {
            fprintf(stderr, "bench_worker: mode blob: n/a (format %d has no DFA in the blob)\n",
                    RSC_FORMAT_MAJOR);
            continue;
        }
        want[k] = 1;
    }
    free(m);
    jobline *jl;
    char *keep;
    if (read_jobs(jobs_path, &jl, &keep, &from, &to) < 0) {
        perror(jobs_path);
        return 2;
    }
    size_t cap = to > from ? (size_t)(to - from) : 1;
    double *ns[M_COUNT];
    for (int k = 0; k < M_COUNT; k++)
        ns[k] = calloc(cap, sizeof(double));
    size_t done = 0;
    printf("name\turls\tmode\tns\tone_ns\tengine\tblob_bytes\tsource_bytes\n");
    for (long i = from; i < to; i++) {
        job j;
        if (job_open(&j, jl[i].name, jl[i].robots, jl[i].urls) != 0) {
            job_close(&j);
            continue;
        }
#if RSC_BW_DFA_API
        if (want[M_READY])
            job_prepare_ready(&j);
#endif
        for (int k = 0; k < M_COUNT; k++) {
            if (!want[k] || !ns[k])
                continue;
            int engine;
            double t = time_list(&j, k, reps, &engine);
            double one = time_one(&j, k, reps);
            ns[k][done] = t;
            printf("%s\t%zu\t%s\t%.0f\t%.1f\t%d\t%zu\t%zu\n", j.name, j.n_urls, mode_name[k], t, one,
                   engine, j.blob_size, j.source_size);
        }
        fflush(stdout);
        done++;
        job_close(&j);
    }
    for (int k = 0; k < M_COUNT; k++)
        if (want[k] && ns[k])
            summary(mode_name[k], ns[k], done, ns[M_PROGRAMS], k != M_PROGRAMS && want[M_PROGRAMS]);
    for (int k = 0; k < M_COUNT; k++)
        free(ns[k]);
    free(jl);
    free(keep);
    return 0;
}

static int run_floor(const char *jobs_path, int rounds, uint64_t min_ns, long from, long to)
{
    jobline *jl;
    char *keep;
    if (read_jobs(jobs_path, &jl, &keep, &from, &to) < 0) {
        perror(jobs_path);
        return 2;
    }
    printf("name\turls\tengine\tmatch_ns\tfloor_ns\tratio\talt\talt_fit\talt_match_ns\talt_floor_ns\talt_ratio\n");
    for (long i = from; i < to; i++) {
        job j;
        rsc_program p;
        rsc_selection s;
        if (job_open(&j, jl[i].name, jl[i].robots, jl[i].urls) != 0 ||
            rsc_load(&p, j.blob, j.blob_size, NULL) != RSC_OK ||
            rsc_select(&p, &googlebot, 1, &s) != RSC_OK) {
            job_close(&j);
            continue;
        }
        bu_match_result r;
        bu_time_match(&s, j.urls, j.n_urls, 0, rounds, min_ns, &r);
        printf("%s\t%zu\t%d\t%.2f\t%.2f\t%.4f", j.name, j.n_urls, rsc_selection_engine(&s, NULL),
               r.match_ns, r.floor_ns, r.floor_ns > 0 ? r.match_ns / r.floor_ns : 0.0);
#if RSC_BW_DFA_API
        int fit = rsc_dfa_build(&s, dfa16_buf, DFA16_BUF, NULL) == RSC_OK &&
                  rsc_selection_engine(&s, NULL) == RSC_ENGINE_DFA;
        if (fit) {
            fit += rsc_dfa_partial(&s);
            bu_time_match(&s, j.urls, j.n_urls, 0, rounds, min_ns, &r);
        }
        printf("\trtdfa\t%d\t%.2f\t%.2f\t%.4f\n", fit, r.match_ns, r.floor_ns,
               r.floor_ns > 0 ? r.match_ns / r.floor_ns : 0.0);
#elif RSC_BW_USE_API
        if (rsc_selection_use(&s, RSC_ENGINE_PROGRAMS) == RSC_OK) {
            bu_time_match(&s, j.urls, j.n_urls, 0, rounds, min_ns, &r);
            printf("\tprograms\t1\t%.2f\t%.2f\t%.4f\n", r.match_ns, r.floor_ns,
                   r.floor_ns > 0 ? r.match_ns / r.floor_ns : 0.0);
        } else {
            printf("\tnone\t0\t\t\t\n");
        }
#else
        printf("\tnone\t0\t\t\t\n");
#endif
        fflush(stdout);
        job_close(&j);
    }
    free(jl);
    free(keep);
    return 0;
}

static int run_selections(const char *dir)
{
    char **names;
    const long nl = bu_dir_names(dir, &names);
    if (nl < 0) {
        perror(dir);
        return 2;
    }
    const size_t n = (size_t)nl;
    static const rsc_bytes agents[2] = {{"Googlebot", 9}, {"*", 1}};
    size_t loaded[2] = {0, 0}, runtime[2] = {0, 0}, ok = 0;
    printf("name\tagent\tengine\tloaded_dfa\truntime_dfa\tblob_bytes\tno_set\n");
    for (size_t k = 0; k < n; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        size_t len;
        unsigned char *text = bu_read(path, &len);
        rsc_blob b = {NULL, 0};
        rsc_program p;
        rsc_status st = RSC_E_IO;
        rsc_load_error le = {0, NULL};
        if (!text || (st = rsc_compile(text, len, NULL, &b)) != RSC_OK ||
            (st = rsc_load(&p, b.data, b.size, &le)) != RSC_OK) {
            /* a failure of the build under test: said, and counted */
            fprintf(stderr, "bench_worker: %s: %s (offset %zu: %s)\n", names[k], rsc_strerror(st), le.offset,
                    le.what ? le.what : "-");
            printf("%s\t-\t-1\t0\t0\t0\n", names[k]);
            free(text);
            rsc_blob_free(&b, NULL);
            continue;
        }
        ok++;
        for (int a = 0; a < 2; a++) {
            rsc_selection s;
            if (rsc_select(&p, &agents[a], 1, &s) != RSC_OK) {
                printf("%s\t%s\t-1\t0\t0\t%zu\n", names[k], agents[a].ptr, b.size);
                continue;
            }
            int engine = rsc_selection_engine(&s, NULL);
            int ld = engine == RSC_ENGINE_DFA, rt = 0;
#if RSC_BW_DFA_API
            if (!ld && rsc_dfa_build(&s, dfa16_buf, DFA16_BUF, NULL) == RSC_OK &&
                rsc_selection_engine(&s, NULL) == RSC_ENGINE_DFA)
                rt = 1 + rsc_dfa_partial(&s);
#endif
            loaded[a] += ld;
            runtime[a] += rt == 1;
            printf("%s\t%s\t%d\t%d\t%d\t%zu\t%d\n", names[k], agents[a].ptr, engine, ld, rt, b.size,
                   s.n_sets == 0);
        }
        free(text);
        rsc_blob_free(&b, NULL);
    }
    printf("# files %zu, compiled %zu; Googlebot: loaded on a DFA %zu, run-time DFA whole %zu; "
           "*: loaded on a DFA %zu, run-time DFA whole %zu\n",
           n, ok, loaded[0], runtime[0], loaded[1], runtime[1]);
    bu_names_free(names, nl);
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_worker worker [--modes LIST] [--reps N] [--from I] [--to J] JOBS\n"
                    "       bench_worker floor [--rounds N] [--min-ms M] [--from I] [--to J] JOBS\n"
                    "       bench_worker selections DIR\n"
                    "this build: run-time DFA %s, rsc_selection_use %s (format %d)\n",
            RSC_BW_DFA_API ? "yes" : "no", RSC_BW_USE_API ? "yes" : "no", RSC_FORMAT_MAJOR);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    const char *cmd = argv[1], *modes = NULL, *arg = NULL;
    int reps = 21, rounds = 5;
    long from = 0, to = -1;
    double min_ms = 5;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--modes") == 0 && i + 1 < argc)
            modes = argv[++i];
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--min-ms") == 0 && i + 1 < argc)
            min_ms = atof(argv[++i]);
        else if (strcmp(argv[i], "--from") == 0 && i + 1 < argc)
            from = atol(argv[++i]);
        else if (strcmp(argv[i], "--to") == 0 && i + 1 < argc)
            to = atol(argv[++i]);
        else if (argv[i][0] == '-')
            return usage();
        else
            arg = argv[i];
    }
    if (!arg || reps < 1 || reps > MAX_REPS || rounds < 1 || rounds > 99 || min_ms < 0)
        return usage();
    /* 1.0.0's DFA buffer, touched once so that builds time the work, not
     * page faults (a long-running worker reuses its buffer). */
    dfa16_buf = malloc(DFA16_BUF);
    if (!dfa16_buf)
        return 2;
    memset(dfa16_buf, 0, DFA16_BUF);
    int rc;
    if (strcmp(cmd, "worker") == 0)
        rc = run_worker(arg, modes, reps, from, to);
    else if (strcmp(cmd, "floor") == 0)
        rc = run_floor(arg, rounds, (uint64_t)(min_ms * 1e6), from, to);
    else if (strcmp(cmd, "selections") == 0)
        rc = run_selections(arg);
    else
        rc = usage();
    free(dfa16_buf);
    return rc;
}
