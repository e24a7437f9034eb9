/* SPDX-License-Identifier: Apache-2.0 */
/* Seeded synthetic data for the scaling benchmarks: one robots.txt group of
 * N rules (a mix of literal prefixes, '*' and '$' rules drawn from a
 * vocabulary of common path words), URLs and paths over the same words.
 * The same seed gives the same bytes on every machine. */
#ifndef RSC_BENCH_DATAGEN_H
#define RSC_BENCH_DATAGEN_H

#include <stddef.h>
#include <stdint.h>

typedef struct dg_buf {
    char *p;
    size_t len, cap;
} dg_buf;

void dg_buf_free(dg_buf *b);

/* "User-agent: *" and n_rules rules. Returns 0, or -1 when out of memory. */
int dg_robots(uint64_t seed, uint32_t n_rules, dg_buf *out);

/* n URLs "https://www.example.com/...", one per line. */
int dg_urls(uint64_t seed, uint32_t n, dg_buf *out);

/* n paths of exactly len bytes (len >= 1), starting with '/', one per line. */
int dg_paths(uint64_t seed, uint32_t n, size_t len, dg_buf *out);

#endif
