/* SPDX-License-Identifier: Apache-2.0 */
/* bench_scale: how matching and compiling scale, on datagen.c's seeded
 * synthetic files (one "User-agent: *" group, mixed literal, '*' and '$'
 * rules). Prints a TSV table on stdout.
 *
 *   bench_scale rules  [--seed S] [--rounds N] [--min-ms M] [--counts 10,100,...]
 *       per rule count: source and blob bytes, compile time (median),
 *       programs and trie nodes, ns per URL over 1,000 synthetic URLs and the
 *       FNV-1a floor on the same bytes.
 *   bench_scale length [--seed S] [--rounds N] [--min-ms M] [--rules R] [--lengths 10,100,...]
 *       per path length: ns per path and per byte (rsc_match_path) against
 *       the file of R rules (default 1,000), and the floor per byte.
 * "match" is the programs (rsc_selection_use(RSC_ENGINE_PROGRAMS)); both
 * also time the selection as rsc_select gives it ("dfa": 1 when it runs the
 * blob's DFA, which the compiler built; 0 when the rule set was over the
 * compiler's DFA budget, and the programs run again). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "datagen.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

static size_t parse_list(const char *s, unsigned long *v, size_t max)
{
    size_t n = 0;
    while (*s && n < max) {
        char *end;
        v[n++] = strtoul(s, &end, 10);
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            break;
    }
    return n;
}

typedef struct compiled {
    rsc_blob blob;
    rsc_program prog;
    rsc_selection sel;      /* the programs                                  */
    rsc_selection dsel;     /* as rsc_select gives it: the blob's DFA, if any */
    rsc_engine_info dinfo;
    int on_dfa;
    rsc_blob_info info;
    double compile_ns;
} compiled;

/* Compiles (median of up to `rounds`, fewer when one compile is slow),
 * loads and selects the '*' group, both ways (see compiled). */
static int compile_one(const dg_buf *src, int rounds, compiled *c)
{
    memset(c, 0, sizeof *c);
    uint64_t t0 = bu_now_ns();
    rsc_status st = rsc_compile(src->p, src->len, NULL, &c->blob);
    double first = (double)(bu_now_ns() - t0);
    if (st != RSC_OK) {
        fprintf(stderr, "bench_scale: compile failed: %s\n", rsc_strerror(st));
        return -1;
    }
    int k = first > 1e9 ? 1 : first > 1e8 ? 3 : rounds;
    double v[64];
    for (int r = 0; r < k && r < 64; r++) {
        rsc_blob b;
        t0 = bu_now_ns();
        rsc_compile(src->p, src->len, NULL, &b);
        v[r] = (double)(bu_now_ns() - t0);
        rsc_blob_free(&b, NULL);
    }
    c->compile_ns = bu_median(v, (size_t)(k < 64 ? k : 64));
    rsc_bytes agent = {"bench-bot", 9};
    if (rsc_load(&c->prog, c->blob.data, c->blob.size, NULL) != RSC_OK ||
        rsc_select(&c->prog, &agent, 1, &c->dsel) != RSC_OK ||
        rsc_blob_info_get(&c->prog, &c->info) != RSC_OK) {
        fprintf(stderr, "bench_scale: load failed\n");
        return -1;
    }
    c->sel = c->dsel;
    c->on_dfa = rsc_selection_engine(&c->dsel, &c->dinfo) == RSC_ENGINE_DFA;
    rsc_selection_use(&c->sel, RSC_ENGINE_PROGRAMS);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "rules") != 0 && strcmp(argv[1], "length") != 0)) {
        fprintf(stderr, "usage: bench_scale rules|length [--seed S] [--rounds N] [--min-ms M] "
                        "[--counts LIST] [--rules R] [--lengths LIST]\n");
        return 2;
    }
    int by_rules = strcmp(argv[1], "rules") == 0;
    uint64_t seed = 42;
    int rounds = 7;
    double min_ms = 20;
    unsigned long counts[32] = {10, 100, 1000, 10000, 50000}, lengths[32] = {10, 30, 100, 300, 1000, 3000, 10000};
    size_t n_counts = 5, n_lengths = 7;
    unsigned long rules = 1000;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--seed") == 0)
            seed = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--rounds") == 0)
            rounds = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--min-ms") == 0)
            min_ms = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--counts") == 0)
            n_counts = parse_list(argv[i + 1], counts, 32);
        else if (strcmp(argv[i], "--lengths") == 0)
            n_lengths = parse_list(argv[i + 1], lengths, 32);
        else if (strcmp(argv[i], "--rules") == 0)
            rules = strtoul(argv[i + 1], NULL, 10);
        else {
            fprintf(stderr, "bench_scale: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (rounds < 1 || rounds > 64) {
        fprintf(stderr, "bench_scale: --rounds must be 1..64\n");
        return 2;
    }
    const uint64_t min_ns = (uint64_t)(min_ms * 1e6);

    if (by_rules) {
        dg_buf ub = {NULL, 0, 0};
        rsc_bytes *urls = NULL;
        long nu;
        if (dg_urls(seed, 1000, &ub) != 0 || (nu = bu_lines(ub.p, ub.len, &urls)) <= 0)
            return 2;
        printf("rules\tsource_bytes\tblob_bytes\tcompile_us\tprograms\tnodes\tmax_nodes\tmatch_ns\tfloor_ns\t"
               "ratio\tdisallowed\tdfa\tdfa_bytes\tdfa_states\tdfa_match_ns\tdfa_floor_ns\tdfa_ratio\n");
        for (size_t i = 0; i < n_counts; i++) {
            dg_buf src = {NULL, 0, 0};
            compiled c;
            if (dg_robots(seed, (uint32_t)counts[i], &src) != 0 || compile_one(&src, rounds, &c) != 0)
                return 2;
            size_t dis = 0;
            for (long k = 0; k < nu; k++)
                dis += !rsc_match_url(&c.sel, urls[k].ptr, urls[k].len, NULL);
            bu_match_result m, dm;
            bu_time_match(&c.sel, urls, (size_t)nu, 0, rounds, min_ns, &m);
            bu_time_match(&c.dsel, urls, (size_t)nu, 0, rounds, min_ns, &dm);
            printf("%lu\t%zu\t%zu\t%.1f\t%u\t%u\t%u\t%.2f\t%.2f\t%.3f\t%zu\t%d\t%zu\t%u\t%.2f\t%.2f\t%.3f\n",
                   counts[i], src.len, c.blob.size, c.compile_ns / 1e3, (unsigned)c.info.n_programs,
                   (unsigned)c.info.total_nodes, (unsigned)c.info.max_nodes, m.match_ns, m.floor_ns,
                   m.match_ns / m.floor_ns, dis, c.on_dfa, c.dinfo.bytes, c.dinfo.states, dm.match_ns,
                   dm.floor_ns, dm.match_ns / dm.floor_ns);
            fflush(stdout);
            rsc_blob_free(&c.blob, NULL);
            dg_buf_free(&src);
        }
        free(urls);
        dg_buf_free(&ub);
        return 0;
    }

    dg_buf src = {NULL, 0, 0};
    compiled c;
    if (dg_robots(seed, (uint32_t)rules, &src) != 0 || compile_one(&src, 1, &c) != 0)
        return 2;
    printf("length\tpaths\tmatch_ns\tmatch_ns_per_byte\tfloor_ns\tfloor_ns_per_byte\tdisallowed\t"
           "dfa\tdfa_match_ns\tdfa_match_ns_per_byte\n");
    for (size_t i = 0; i < n_lengths; i++) {
        size_t len = lengths[i] ? lengths[i] : 1;
        size_t np = 200000 / len;
        np = np < 20 ? 20 : np > 1000 ? 1000 : np;
        dg_buf pb = {NULL, 0, 0};
        rsc_bytes *paths = NULL;
        long n;
        if (dg_paths(seed, (uint32_t)np, len, &pb) != 0 || (n = bu_lines(pb.p, pb.len, &paths)) <= 0)
            return 2;
        size_t dis = 0;
        for (long k = 0; k < n; k++)
            dis += !rsc_match_path(&c.sel, paths[k].ptr, paths[k].len, NULL);
        bu_match_result m;
        bu_time_match(&c.sel, paths, (size_t)n, 1, rounds, min_ns, &m);
        bu_match_result dm;
        bu_time_match(&c.dsel, paths, (size_t)n, 1, rounds, min_ns, &dm);
        printf("%zu\t%ld\t%.2f\t%.4f\t%.2f\t%.4f\t%zu\t%d\t%.2f\t%.4f\n", len, n, m.match_ns,
               m.match_ns / (double)len, m.floor_ns, m.floor_ns / (double)len, dis, c.on_dfa, dm.match_ns,
               dm.match_ns / (double)len);
        fflush(stdout);
        free(paths);
        dg_buf_free(&pb);
    }
    rsc_blob_free(&c.blob, NULL);
    dg_buf_free(&src);
    return 0;
}
