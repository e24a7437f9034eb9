/* SPDX-License-Identifier: Apache-2.0 */
/* The compiler's helpers that several of its steps use (compile.h,
 * backend.h): a stable merge sort of indices (compile.c, units.c, glob.c),
 * the same with integer keys first, by radix when large (compile.c,
 * units.c), qsort's comparison of uint64 values and a radix sort of them
 * (explore.c, dfa.c),
 * interning of uint32 lists (units.c) and the rank order of candidates
 * (compile.c, units.c). A unit of their own, so that the steps depend on
 * it and not on each other. */
#include <stdlib.h>
#include <string.h>

#include "compile.h"

/* ---- a stable merge sort of uint32 indices with a context ------------- */

static void msort_rec(uint32_t *a, uint32_t *tmp, size_t n, idx_cmp cmp, const void *cx)
{
    if (n < 2)
        return;
    if (n <= 8) { /* insertion sort: stable */
        for (size_t i = 1; i < n; i++) {
            uint32_t x = a[i];
            size_t j = i;
            while (j > 0 && cmp(cx, a[j - 1], x) > 0) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = x;
        }
        return;
    }
    size_t h = n / 2;
    msort_rec(a, tmp, h, cmp, cx);
    msort_rec(a + h, tmp, n - h, cmp, cx);
    if (cmp(cx, a[h - 1], a[h]) <= 0) /* in order already (often, for rules in a file) */
        return;
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cmp(cx, a[j], a[i]) < 0 ? a[j++] : a[i++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

int rsc_msort(rsc_mem *m, uint32_t *a, size_t n, idx_cmp cmp, const void *cx)
{
    if (n < 2)
        return 0;
    uint32_t *tmp = rsc_mem_alloc(m, n * sizeof *tmp);
    if (!tmp)
        return -1;
    msort_rec(a, tmp, n, cmp, cx);
    rsc_mem_free(m, tmp, n * sizeof *tmp);
    return 0;
}

/* From this many on, keys are sorted by radix (below, the merges cost
 * less than the radix's counts). */
#define RADIX_FROM 256

typedef struct keyed { /* k first: radix() reads the first 8 bytes */
    uint64_t k;
    uint32_t i;
} keyed;

/* y goes before x */
static inline int kbefore(const keyed *y, const keyed *x, idx_cmp cmp, const void *cx)
{
    return y->k != x->k ? y->k < x->k : cmp != NULL && cmp(cx, y->i, x->i) < 0;
}

static void kinsert(keyed *a, size_t n, idx_cmp cmp, const void *cx)
{ /* insertion sort: stable */
    for (size_t i = 1; i < n; i++) {
        keyed x = a[i];
        size_t j = i;
        while (j > 0 && kbefore(&x, &a[j - 1], cmp, cx)) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

/* Merges the sorted s[0..h) and s[h..n) into d. */
static void kmerge(const keyed *s, size_t h, size_t n, keyed *d, idx_cmp cmp, const void *cx)
{
    if (!kbefore(&s[h], &s[h - 1], cmp, cx)) { /* in order already */
        memcpy(d, s, n * sizeof *d);
        return;
    }
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        d[k++] = kbefore(&s[j], &s[i], cmp, cx) ? s[j++] : s[i++];
    while (i < h)
        d[k++] = s[i++];
    while (j < n)
        d[k++] = s[j++];
}

/* The halves are sorted into the other buffer and merged back, so each
 * level merges once and copies nothing (msort_rec copies every merge
 * back: four times the bytes here). */
static void ksort_to(keyed *a, keyed *out, size_t n, idx_cmp cmp, const void *cx);

/* Sorts a[0..n) in place; tmp[0..n) is its scratch. */
static void ksort_in(keyed *a, keyed *tmp, size_t n, idx_cmp cmp, const void *cx)
{
    if (n <= 8) {
        kinsert(a, n, cmp, cx);
        return;
    }
    const size_t h = n / 2;
    ksort_to(a, tmp, h, cmp, cx);
    ksort_to(a + h, tmp + h, n - h, cmp, cx);
    kmerge(tmp, h, n, a, cmp, cx);
}

/* Sorts a[0..n) into out[0..n); a is its scratch. */
static void ksort_to(keyed *a, keyed *out, size_t n, idx_cmp cmp, const void *cx)
{
    if (n <= 8) {
        kinsert(a, n, cmp, cx);
        memcpy(out, a, n * sizeof *a);
        return;
    }
    const size_t h = n / 2;
    ksort_in(a, out, h, cmp, cx);
    ksort_in(a + h, out + h, n - h, cmp, cx);
    kmerge(a, h, n, out, cmp, cx);
}

/* A stable LSD radix sort of n elements of `size` bytes at a, each keyed
 * by its first 8 bytes (a uint64_t), a key byte a pass, b the other
 * buffer; returns the one that holds the result. A byte that every key
 * has alike takes no pass: rank keys (rsc_rank_key) differ in about four
 * of their eight (the low bytes of the line, the allow bit, the
 * priority), so a large file's sort is some four passes, where the
 * merges were log2(n). Inlined with a constant size at each use. */
static inline void *radix(void *a, void *b, size_t n, const size_t size)
{
    uint8_t *s = a, *t = b;
    size_t cnt[8][256];
    uint64_t k;
    memset(cnt, 0, sizeof cnt);
    for (size_t i = 0; i < n; i++) {
        memcpy(&k, s + i * size, 8);
        for (unsigned d = 0; d < 8; d++)
            cnt[d][(k >> (8 * d)) & 0xff]++;
    }
    for (unsigned d = 0; d < 8; d++) {
        size_t *c = cnt[d], sum = 0;
        memcpy(&k, s, 8);
        if (c[(k >> (8 * d)) & 0xff] == n)
            continue; /* one value: the order stays */
        for (unsigned v = 0; v < 256; v++) {
            const size_t x = c[v];
            c[v] = sum, sum += x;
        }
        for (size_t i = 0; i < n; i++) {
            memcpy(&k, s + i * size, 8);
            memcpy(t + c[(k >> (8 * d)) & 0xff]++ * size, s + i * size, size);
        }
        uint8_t *x = s;
        s = t, t = x;
    }
    return s;
}

int rsc_msort_keyed(rsc_mem *m, uint32_t *a, size_t n, const uint64_t *key, idx_cmp cmp, const void *cx)
{
    if (n < 2)
        return 0;
    keyed *p = rsc_mem_alloc(m, 2 * n * sizeof *p), *s = p;
    if (!p)
        return -1;
    for (size_t i = 0; i < n; i++)
        p[i].k = key[a[i]], p[i].i = a[i];
    if (n < RADIX_FROM) {
        ksort_in(p, p + n, n, cmp, cx);
    } else {
        s = radix(p, p + n, n, sizeof *p);
        keyed *other = s == p ? p + n : p;
        for (size_t i = 0, j; cmp && i < n; i = j) { /* each run of equal keys, by cmp */
            for (j = i + 1; j < n && s[j].k == s[i].k; j++)
                ;
            if (j - i > 1)
                ksort_in(s + i, other + i, j - i, cmp, cx);
        }
    }
    for (size_t i = 0; i < n; i++)
        a[i] = s[i].i;
    rsc_mem_free(m, p, 2 * n * sizeof *p);
    return 0;
}

int rsc_cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void rsc_sort_u64(uint64_t *a, uint64_t *tmp, size_t n)
{
    if (n < RADIX_FROM) {
        qsort(a, n, sizeof *a, rsc_cmp_u64);
        return;
    }
    const uint64_t *s = radix(a, tmp, n, sizeof *a);
    if (s != a)
        memcpy(a, s, n * sizeof *a);
}

/* ---- interning of uint32 lists ---------------------------------------- */

static uint32_t hash_list(const uint32_t *l, size_t n)
{
    uint32_t h = 2166136261u ^ (uint32_t)n;
    for (size_t i = 0; i < n; i++)
        h = (h ^ l[i]) * 16777619u;
    return h;
}

static int intern_rehash(rsc_mem *m, interner *t, size_t n_slots)
{
    uint32_t *slots = rsc_mem_calloc(m, n_slots, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t e = 0; e < t->count; e++) {
        size_t i = hash_list(t->data + t->first[e], t->n[e]) & (n_slots - 1);
        while (slots[i])
            i = (i + 1) & (n_slots - 1);
        slots[i] = (uint32_t)e + 1;
    }
    rsc_mem_free(m, t->slots, t->n_slots * sizeof *t->slots);
    t->slots = slots;
    t->n_slots = n_slots;
    return 0;
}

/* *id receives the list's entry, new or existing. */
rsc_status rsc_intern(rsc_mem *m, interner *t, const uint32_t *l, size_t n, uint32_t *id)
{
    if ((t->count + 1) * 2 > t->n_slots &&
        intern_rehash(m, t, t->n_slots ? t->n_slots * 2 : 16) != 0)
        return RSC_E_NOMEM;
    size_t i = hash_list(l, n) & (t->n_slots - 1);
    for (; t->slots[i]; i = (i + 1) & (t->n_slots - 1)) {
        size_t e = t->slots[i] - 1;
        if (t->n[e] == n && (n == 0 || memcmp(t->data + t->first[e], l, n * sizeof *l) == 0)) {
            *id = (uint32_t)e;
            return RSC_OK;
        }
    }
    if (t->len + n > UINT32_MAX || t->count >= UINT32_MAX - 1)
        return RSC_E_LIMIT;
    if (rsc_mem_grow(m, (void **)&t->first, sizeof *t->first, &t->cap_first, t->count + 1) != 0 ||
        rsc_mem_grow(m, (void **)&t->n, sizeof *t->n, &t->cap_n, t->count + 1) != 0)
        return RSC_E_NOMEM;
    if (rsc_mem_grow(m, (void **)&t->data, sizeof *t->data, &t->cap, t->len + n) != 0)
        return RSC_E_NOMEM;
    if (n)
        memcpy(t->data + t->len, l, n * sizeof *l);
    t->first[t->count] = (uint32_t)t->len;
    t->n[t->count] = (uint32_t)n;
    t->len += n;
    t->slots[i] = (uint32_t)t->count + 1;
    *id = (uint32_t)t->count++;
    return RSC_OK;
}

void rsc_intern_free(rsc_mem *m, interner *t)
{
    rsc_mem_free(m, t->data, t->cap * sizeof *t->data);
    rsc_mem_free(m, t->first, t->cap_first * sizeof *t->first);
    rsc_mem_free(m, t->n, t->cap_n * sizeof *t->n);
    rsc_mem_free(m, t->slots, t->n_slots * sizeof *t->slots);
    memset(t, 0, sizeof *t);
}

/* ---- rank order ---------------------------------------------------------- */

/* Rank order, worst first: (priority, allow, -line) (E.6, E.7), as one
 * integer: priority in the high 32 bits, allow next, then the line's
 * distance below 2^31 (add_cand() refuses lines over UINT32_MAX / 2). */
uint64_t rsc_rank_key(const cand *x)
{
    return (uint64_t)x->priority << 32 | (uint64_t)(x->allow != 0) << 31 | (0x7fffffffu - x->line);
}

int rsc_cmp_rank(const void *vctx, uint32_t a, uint32_t b)
{
    const uint64_t *k = ((const ctx *)vctx)->rank_key;
    return k[a] < k[b] ? -1 : k[a] > k[b];
}
