/* SPDX-License-Identifier: Apache-2.0 */
/* bench_memory: what one path byte costs a matcher that reads one table
 * entry per byte, each entry's address depending on the one before (a DFA,
 * or an automaton's dense rows), against the FNV-1a floor per byte, on this
 * machine. It bounds from below what any such design can reach on a
 * working set of that size (bench/ANALYSIS.md, hostile case (a)).
 *
 *   bench_memory [--rounds N] [--min-ms M] BYTES...
 *
 * For each BYTES: a seeded random cycle through BYTES / 4 entries of 4
 * bytes, followed in steps of 1,000 (a path of 1,000 bytes, the state
 * carried on), and FNV-1a 64 over 1,000 bytes, alternating for N rounds of
 * at least M ms each. Prints a TSV row per size: bytes, median ns per step,
 * median floor ns per byte, and their ratio. A random order defeats the
 * prefetchers; a real automaton visits its shallow states more often, and
 * they stay in the caches, so it can do better on most paths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define PATH 1000

static uint32_t chase(const uint32_t *next, uint32_t s, size_t reps)
{
    for (size_t r = 0; r < reps; r++)
        for (int i = 0; i < PATH; i++)
            s = next[s];
    return s;
}

static uint64_t floor_pass(const char *p, size_t reps)
{
    uint64_t h = 0;
    for (size_t r = 0; r < reps; r++)
        h += bu_fnv1a64(p, PATH);
    return h;
}

int main(int argc, char **argv)
{
    int rounds = 11;
    double min_ms = 5;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--min-ms") == 0 && i + 1 < argc)
            min_ms = atof(argv[++i]);
        else
            break;
    }
    if (i >= argc || rounds < 1 || rounds > 99) {
        fprintf(stderr, "usage: bench_memory [--rounds N (1..99)] [--min-ms M] BYTES...\n");
        return 2;
    }
    char path[PATH];
    bu_rng rng;
    bu_rng_seed(&rng, 10);
    for (int k = 0; k < PATH; k++)
        path[k] = (char)('a' + bu_rng_below(&rng, 2));
    printf("bytes\tstep_ns\tfloor_ns_per_byte\tratio\n");
    for (; i < argc; i++) {
        size_t n = (size_t)strtoull(argv[i], NULL, 10) / 4;
        if (n < 2) {
            fprintf(stderr, "bench_memory: %s: too small\n", argv[i]);
            return 2;
        }
        uint32_t *next = malloc(n * sizeof *next), *perm = malloc(n * sizeof *perm);
        if (!next || !perm) {
            fprintf(stderr, "bench_memory: out of memory for %s bytes\n", argv[i]);
            return 2;
        }
        /* one cycle through every entry, in a seeded random order */
        for (size_t k = 0; k < n; k++)
            perm[k] = (uint32_t)k;
        for (size_t k = n - 1; k > 0; k--) {
            size_t j = bu_rng_next(&rng) % (k + 1);
            uint32_t t = perm[k];
            perm[k] = perm[j], perm[j] = t;
        }
        for (size_t k = 0; k < n; k++)
            next[perm[k]] = perm[(k + 1) % n];
        free(perm);
        uint32_t s = chase(next, 0, n / PATH + 1); /* warm: touch the whole set */
        uint64_t t0 = bu_now_ns();
        s = chase(next, s, 1);
        size_t reps = bu_reps(bu_now_ns() - t0, (uint64_t)(min_ms * 1e6));
        t0 = bu_now_ns();
        bu_sink += floor_pass(path, 1);
        size_t freps = bu_reps(bu_now_ns() - t0, (uint64_t)(min_ms * 1e6));
        double step[99], fl[99];
        for (int r = 0; r < rounds; r++) {
            t0 = bu_now_ns();
            s = chase(next, s, reps);
            step[r] = (double)(bu_now_ns() - t0) / ((double)reps * PATH);
            t0 = bu_now_ns();
            bu_sink += floor_pass(path, freps);
            fl[r] = (double)(bu_now_ns() - t0) / ((double)freps * PATH);
        }
        bu_sink += s;
        double sm = bu_median(step, (size_t)rounds), fm = bu_median(fl, (size_t)rounds);
        printf("%zu\t%.3f\t%.3f\t%.2f\n", n * 4, sm, fm, sm / fm);
        fflush(stdout);
        free(next);
    }
    return 0;
}
