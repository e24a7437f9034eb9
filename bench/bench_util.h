/* SPDX-License-Identifier: Apache-2.0 */
/* Shared pieces of the benchmark harness (bench/README in REPORT.md): a
 * monotonic clock, whole-file reads, URL lists, the FNV-1a floor, the timed
 * loops and order statistics. Benchmarks report; they never assert times. */
#ifndef RSC_BENCH_UTIL_H
#define RSC_BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "robotsc/runtime.h"

/* Every timed result is added here, so no loop can be optimised away. */
extern volatile uint64_t bu_sink;

uint64_t bu_now_ns(void); /* CLOCK_MONOTONIC */

/* Whole file, malloc'ed (NUL appended, not counted), or NULL. */
unsigned char *bu_read(const char *path, size_t *len);

/* Lines of buf (LF or CRLF), empty lines skipped; *out malloc'ed, points
 * into buf. Returns the count, -1 when out of memory. */
long bu_lines(const char *buf, size_t len, rsc_bytes **out);

uint64_t bu_fnv1a64(const char *p, size_t n); /* kept out of line */

/* reps passes over u[0..n): rsc_match_url / FNV-1a into bu_sink. */
void bu_pass_match(const rsc_selection *sel, const rsc_bytes *u, size_t n, size_t reps);
void bu_pass_match_path(const rsc_selection *sel, const rsc_bytes *u, size_t n, size_t reps);
void bu_pass_floor(const rsc_bytes *u, size_t n, size_t reps);

/* Repetitions so that reps * once_ns >= min_ns (at least 1). */
size_t bu_reps(uint64_t once_ns, uint64_t min_ns);

/* Sorts v and returns its q-quantile (nearest rank; q = 0.5: median). */
double bu_quantile(double *v, size_t n, double q);
double bu_median(double *v, size_t n);

/* The median ns per call of op(ud) over `rounds` samples (at most
 * BU_MAX_ROUNDS), each timing `per_sample` calls in a row (at least 1):
 * the one timing loop of the harness's per-call figures. */
#define BU_MAX_ROUNDS 1000
double bu_time_median(void (*op)(void *ud), void *ud, size_t per_sample, int rounds);

/* The names in dir (those starting with '.' left out), sorted, malloc'ed
 * (free with bu_names_free). Returns the count, -1 on an error (errno). */
long bu_dir_names(const char *dir, char ***out);

/* The median ns of rsc_load (which verifies the whole blob) over `rounds`
 * rounds of at least min_ns each, after a warm-up. */
double bu_time_load(const void *data, size_t size, uint64_t min_ns, int rounds);
void bu_names_free(char **names, long n);

/* Median ns per URL of matching and of the floor over u[0..n): warm-up,
 * then `rounds` alternating rounds of >= min_ns each. path: u are paths
 * (rsc_match_path) rather than URLs. */
typedef struct bu_match_result {
    double match_ns, floor_ns;
    size_t reps;
} bu_match_result;
void bu_time_match(const rsc_selection *sel, const rsc_bytes *u, size_t n, int path,
                   int rounds, uint64_t min_ns, bu_match_result *out);

/* xorshift64*: the seeded generator of datagen.c. */
typedef struct bu_rng {
    uint64_t s;
} bu_rng;
void bu_rng_seed(bu_rng *r, uint64_t seed);
uint64_t bu_rng_next(bu_rng *r);
uint32_t bu_rng_below(bu_rng *r, uint32_t n); /* uniform in [0, n) */

#endif
