/* SPDX-License-Identifier: Apache-2.0 */
/* bench_compile: compile cost, blob size and verify speed over a corpus
 * directory (every regular file; ../shared/corpus/robots in the report).
 *
 *   bench_compile [--rounds N] [--out FILE.tsv] [--progress] DIR
 *
 * All files are read into memory first (timing excludes I/O). Pass 1
 * compiles every file once, in name order, and gives the whole-corpus time
 * (cold-ish: each file is new to the caches). Then each file is compiled
 * N more times and its median is its compile time; files whose first
 * compile took over 1 ms get 3 more compiles at most, over 20 ms none (the
 * first time is used: at that size the caches no longer matter). Verify
 * time is the median of rsc_load() rounds of at least 20 us each. The
 * per-file table goes to --out.
 *
 * --budget-s S stops pass 1 after S seconds of compiling (a slow compiler
 * must not make the suite endless); the summary then says partial=1 and
 * how many files were done. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_util.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

typedef struct entry {
    char *name;
    unsigned char *text;
    size_t len;
    rsc_status status;
    size_t blob;
    double first_ns, compile_ns, verify_ns;
    rsc_blob_info info;
} entry;

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->name, ((const entry *)b)->name);
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL;
    int rounds = 5, progress = 0;
    double budget_s = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--budget-s") == 0 && i + 1 < argc)
            budget_s = atof(argv[++i]);
        else if (strcmp(argv[i], "--progress") == 0)
            progress = 1;
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (!dir && argv[i][0] != '-')
            dir = argv[i];
        else {
            fprintf(stderr, "usage: bench_compile [--rounds N] [--out FILE.tsv] [--budget-s S] [--progress] DIR\n");
            return 2;
        }
    }
    if (!dir || rounds < 1 || rounds > 99) {
        fprintf(stderr, "usage: bench_compile [--rounds N] [--out FILE.tsv] [--budget-s S] [--progress] DIR\n");
        return 2;
    }
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return 2;
    }
    size_t n = 0, cap = 1024;
    entry *e = calloc(cap, sizeof *e);
    struct dirent *de;
    char path[4096];
    while (e && (de = readdir(d)) != NULL) {
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (de->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            entry *ne = realloc(e, 2 * cap * sizeof *e);
            if (!ne) {
                free(e);
                e = NULL;
                break;
            }
            e = ne;
            memset(e + cap, 0, cap * sizeof *e);
            cap *= 2;
        }
        e[n].name = strdup(de->d_name);
        e[n].text = bu_read(path, &e[n].len);
        if (!e[n].name || !e[n].text) {
            fprintf(stderr, "bench_compile: cannot read %s\n", path);
            return 2;
        }
        n++;
    }
    closedir(d);
    if (!e || n == 0) {
        fprintf(stderr, "bench_compile: no files in %s\n", dir);
        return 2;
    }
    qsort(e, n, sizeof *e, cmp_name);

    /* Pass 1: the whole corpus, one compile per file (summed: the
     * whole-corpus time); verify each blob right after, outside that sum. */
    uint64_t whole = 0;
    size_t total_src = 0, n_all = n;
    int partial = 0;
    for (size_t i = 0; i < n; i++) {
        if (budget_s > 0 && (double)whole > budget_s * 1e9) {
            fprintf(stderr, "bench_compile: budget of %.0f s spent after %zu of %zu files\n", budget_s, i, n);
            for (size_t j = i; j < n; j++)
                free(e[j].name), free(e[j].text);
            n = i;
            partial = 1;
            break;
        }
        rsc_blob b;
        uint64_t t0 = bu_now_ns();
        e[i].status = rsc_compile(e[i].text, e[i].len, NULL, &b);
        uint64_t t = bu_now_ns() - t0;
        whole += t;
        e[i].first_ns = (double)t;
        e[i].blob = b.size;
        total_src += e[i].len;
        if (progress && t > 100000000u)
            fprintf(stderr, "bench_compile: %s: %.2f s (%s)\n", e[i].name, (double)t / 1e9,
                    rsc_strerror(e[i].status));
        if (progress && (i + 1) % 2000 == 0)
            fprintf(stderr, "bench_compile: pass 1: %zu of %zu files, %.1f s\n", i + 1, n, (double)whole / 1e9);
        if (e[i].status == RSC_OK) {
            rsc_program p;
            if (rsc_load(&p, b.data, b.size, NULL) == RSC_OK)
                rsc_blob_info_get(&p, &e[i].info);
            e[i].verify_ns = bu_time_load(b.data, b.size, 20000, 5);
        }
        rsc_blob_free(&b, NULL);
    }

    /* Pass 2: the median of repeated compiles, for files where caches and
     * the clock matter; big files keep their pass-1 time. */
    double *v = malloc((size_t)(rounds > 3 ? rounds : 3) * sizeof *v);
    for (size_t i = 0; i < n && v; i++) {
        int k = e[i].first_ns > 20e6 ? 0 : e[i].first_ns > 1e6 ? (rounds < 3 ? rounds : 3) : rounds;
        e[i].compile_ns = e[i].first_ns;
        for (int r = 0; r < k; r++) {
            rsc_blob b;
            uint64_t t0 = bu_now_ns();
            rsc_compile(e[i].text, e[i].len, NULL, &b);
            v[r] = (double)(bu_now_ns() - t0);
            rsc_blob_free(&b, NULL);
        }
        if (k)
            e[i].compile_ns = bu_median(v, (size_t)k);
    }
    free(v);

    FILE *f = out ? fopen(out, "w") : NULL;
    if (out && !f) {
        perror(out);
        return 2;
    }
    if (f)
        fprintf(f, "file\tsource_bytes\tblob_bytes\tstatus\tcompile_ns\tfirst_ns\tverify_ns\trules\tgroups\t"
                   "agents\tprograms\tnodes\tmax_nodes\n");
    size_t ok = 0, total_blob = 0;
    double sum_compile = 0, sum_verify = 0, verify_bytes = 0;
    double *c = malloc(n * sizeof *c), *ratio = malloc(n * sizeof *ratio);
    size_t n_ratio = 0;
    for (size_t i = 0; i < n; i++) {
        const entry *x = &e[i];
        if (f)
            fprintf(f, "%s\t%zu\t%zu\t%s\t%.0f\t%.0f\t%.1f\t%u\t%u\t%u\t%u\t%u\t%u\n", x->name, x->len, x->blob,
                    x->status == RSC_OK ? "ok" : rsc_strerror(x->status), x->compile_ns, x->first_ns,
                    x->verify_ns, (unsigned)x->info.n_rules, (unsigned)x->info.n_groups,
                    (unsigned)x->info.n_agents, (unsigned)x->info.n_programs, (unsigned)x->info.total_nodes,
                    (unsigned)x->info.max_nodes);
        c[i] = x->compile_ns;
        sum_compile += x->compile_ns;
        if (x->status != RSC_OK)
            continue;
        ok++;
        total_blob += x->blob;
        sum_verify += x->verify_ns;
        verify_bytes += (double)x->blob;
        if (x->len)
            ratio[n_ratio++] = (double)x->blob / (double)x->len;
    }
    if (f && fclose(f) != 0) {
        perror(out);
        return 2;
    }
    double med = bu_quantile(c, n, 0.5), p99 = bu_quantile(c, n, 0.99), mx = c[n - 1];
    printf("files=%zu ok=%zu failed=%zu partial=%d corpus_files=%zu\n", n, ok, n - ok, partial, n_all);
    printf("compile_median_us=%.3f compile_p99_us=%.3f compile_max_us=%.3f compile_sum_s=%.4f whole_pass_s=%.4f\n",
           med / 1e3, p99 / 1e3, mx / 1e3, sum_compile / 1e9, (double)whole / 1e9);
    printf("source_bytes=%zu blob_bytes=%zu blob_ratio_total=%.4f blob_ratio_median=%.4f\n", total_src, total_blob,
           total_src ? (double)total_blob / (double)total_src : 0.0, bu_quantile(ratio, n_ratio, 0.5));
    printf("verify_sum_s=%.5f verify_gbps=%.3f\n", sum_verify / 1e9,
           sum_verify > 0 ? verify_bytes / sum_verify : 0.0);
    free(c);
    free(ratio);
    for (size_t i = 0; i < n; i++) {
        free(e[i].name);
        free(e[i].text);
    }
    free(e);
    return 0;
}
