/* Test helpers for the DFA tests: a seeded PRNG, a naive glob matcher with
 * robots.txt semantics (spec E.1-E.3), a counting allocator, and a run
 * that stops at the ceiling like the runtime does (docs/FORMAT.md). */
#ifndef RSC_DFA_NAIVE_H
#define RSC_DFA_NAIVE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfa.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static inline uint32_t rnd(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

static inline uint32_t rndn(uint32_t n)
{
    return n ? rnd() % n : 0;
}

/* Does pattern p (with '*' wildcards) match a prefix of s (or all of s when
 * anchored)? Position-set simulation, O(len(s) x len(p)). */
static inline int naive_match(const uint8_t *p, size_t pl, int anchored, const uint8_t *s, size_t sl)
{
    unsigned char *cur = calloc(pl + 1, 1), *nxt = calloc(pl + 1, 1);
    int res = 0;
    if (!cur || !nxt) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    cur[0] = 1;
    for (size_t i = 0;; i++) {
        /* epsilon closure over '*' */
        for (size_t q = 0; q < pl; q++)
            if (cur[q] && p[q] == '*')
                cur[q + 1] = 1;
        if (cur[pl] && (!anchored || i == sl)) {
            res = 1;
            break;
        }
        if (i == sl)
            break;
        memset(nxt, 0, pl + 1);
        int any = 0;
        for (size_t q = 0; q < pl; q++) {
            if (!cur[q])
                continue;
            if (p[q] == '*') {
                nxt[q] = 1;
                any = 1;
            } else if (p[q] == s[i]) {
                nxt[q + 1] = 1;
                any = 1;
            }
        }
        if (cur[pl] && anchored) {
            /* pattern complete but input goes on: that thread dies */
        }
        unsigned char *t = cur;
        cur = nxt;
        nxt = t;
        if (!any)
            break;
    }
    free(cur);
    free(nxt);
    return res;
}

static inline uint32_t naive_best(const rsc_pat *pats, size_t n, const uint8_t *s, size_t sl)
{
    uint32_t best = 0;
    for (size_t i = 0; i < n; i++)
        if (pats[i].rank > best && naive_match(pats[i].bytes, pats[i].len, pats[i].anchored, s, sl))
            best = pats[i].rank;
    return best;
}

/* The runtime's loop (docs/FORMAT.md "Matching"): stops once the register
 * reaches the ceiling. Must agree with rsc_dfa_run when ceilings are right. */
static inline uint32_t run_ceiling(const rsc_dfa *d, const uint8_t *s, size_t len)
{
    uint32_t reg = 0, st = 0;
    size_t i = 0;
    for (;;) {
        if (d->accept[st] > reg)
            reg = d->accept[st];
        if (i == len)
            return reg > d->end[st] ? reg : d->end[st];
        if (reg >= d->ceiling[st])
            return reg;
        uint32_t t = d->next[(size_t)st * d->n_classes + d->classmap[s[i++]]];
        if (t == RSC_DFA_DEAD)
            return reg;
        st = t;
    }
}

/* Counting allocator: fails the fail_at-th allocation (1-based, 0 = never),
 * tracks live bytes. */
typedef struct count_alloc {
    size_t live, peak;
    unsigned long calls, fail_at;
} count_alloc;

static inline void *counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    count_alloc *c = ud;
    if (nsize == 0) {
        if (ptr)
            c->live -= osize;
        free(ptr);
        return NULL;
    }
    c->calls++;
    if (c->fail_at && c->calls == c->fail_at)
        return NULL;
    void *q = realloc(ptr, nsize);
    if (!q)
        return NULL;
    c->live += nsize - (ptr ? osize : 0);
    if (c->live > c->peak)
        c->peak = c->live;
    return q;
}

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);             \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#endif
