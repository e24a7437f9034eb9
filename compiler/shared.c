/* SPDX-License-Identifier: Apache-2.0 */
/* The compiler's helpers that several of its steps use (compile.h,
 * backend.h): a stable merge sort of indices (compile.c, units.c, glob.c),
 * qsort's comparison of uint64 values (explore.c, dfa.c),
 * interning of uint32 lists (units.c) and the rank order of candidates
 * (compile.c, units.c). A unit of their own, so that the steps depend on
 * it and not on each other. */
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

int rsc_cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
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

/* Rank order, worst first: (priority, allow, -line) (E.6, E.7). */
int rsc_cmp_rank(const void *vctx, uint32_t a, uint32_t b)
{
    const cand *x = &((const ctx *)vctx)->cands[a], *y = &((const ctx *)vctx)->cands[b];
    if (x->priority != y->priority)
        return x->priority < y->priority ? -1 : 1;
    if (x->allow != y->allow)
        return x->allow < y->allow ? -1 : 1;
    if (x->line != y->line)
        return x->line > y->line ? -1 : 1;
    return 0;
}
