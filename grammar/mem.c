/* SPDX-License-Identifier: Apache-2.0 */
#include "mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ASan cannot see overflows between blocks of the scratch: poison what is
 * not handed out, and keep a red zone after each block. */
#if defined(__SANITIZE_ADDRESS__)
#define RSC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSC_ASAN 1
#endif
#endif
#ifdef RSC_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#define REDZONE 32u
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#define REDZONE 0u
#endif

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}

/* Whether p, a block of the scratch, is its newest one. */
static int scratch_newest(const rsc_scratch *s, const void *p)
{
    return (size_t)((const unsigned char *)p - s->base) == s->last;
}

void rsc_mem_init(rsc_mem *m, rsc_alloc_fn fn, void *ud)
{
    m->fn = fn ? fn : default_alloc;
    m->ud = fn ? ud : NULL;
    m->failed = 0;
}

void *rsc_mem_alloc(rsc_mem *m, size_t n)
{
    void *p = m->fn(m->ud, NULL, 0, n ? n : 1);
    if (!p)
        m->failed = 1;
    return p;
}

void *rsc_mem_calloc(rsc_mem *m, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) {
        m->failed = 1;
        return NULL;
    }
    size_t n = count * size;
    unsigned char *p = rsc_mem_alloc(m, n);
    if (p)
        for (size_t i = 0; i < n; i++)
            p[i] = 0;
    return p;
}

void *rsc_mem_realloc(rsc_mem *m, void *p, size_t size, size_t count_old, size_t count_new)
{
    if (size && count_new > SIZE_MAX / size) {
        m->failed = 1;
        return NULL;
    }
    size_t nbytes = count_new * size;
    void *q = m->fn(m->ud, p, p ? size * count_old : 0, nbytes ? nbytes : 1);
    if (!q)
        m->failed = 1;
    return q;
}

void rsc_mem_free(rsc_mem *m, void *p, size_t n)
{
    if (!p)
        return;
    /* in the scratch block only the newest block goes back: skip the call */
    if (m->fn == rsc_scratch_fn && rsc_scratch_owns(m->ud, p) && !scratch_newest(m->ud, p))
        return;
    m->fn(m->ud, p, n, 0);
}

int rsc_mem_grow_to(rsc_mem *m, void **pp, size_t size, size_t *cap, size_t need)
{
    size_t ncap = *cap ? *cap : 32;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2) {
            m->failed = 1;
            return -1;
        }
        ncap *= 2;
    }
    void *q = rsc_mem_realloc(m, *pp, size, *cap, ncap);
    if (!q)
        return -1;
    *pp = q;
    *cap = ncap;
    return 0;
}

void rsc_scratch_begin(rsc_scratch *s)
{
    s->base = malloc(RSC_SCRATCH_SIZE);
    s->used = s->last = 0;
    if (s->base)
        POISON(s->base, RSC_SCRATCH_SIZE);
}

int rsc_scratch_owns(const rsc_scratch *s, const void *p)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)s->base;
    return s->base && a >= b && a - b < RSC_SCRATCH_SIZE;
}

/* n bytes at 16-byte alignment (malloc's), or NULL when they do not fit. */
static void *bump(rsc_scratch *s, size_t n)
{
    size_t at = (s->used + REDZONE + 15u) & ~(size_t)15u;
    if (!s->base || n > RSC_SCRATCH_SIZE - REDZONE || at > RSC_SCRATCH_SIZE - REDZONE - n)
        return NULL;
    s->last = at;
    s->used = at + n;
    UNPOISON(s->base + at, n);
    return s->base + at;
}

void *rsc_scratch_fn(void *ud, void *ptr, size_t osize, size_t nsize)
{
    rsc_scratch *s = ud;
    if (ptr && !rsc_scratch_owns(s, ptr))
        return default_alloc(NULL, ptr, osize, nsize);
    unsigned char *p = ptr;
    int newest = p && scratch_newest(s, p);
    if (nsize == 0) {
        if (newest) { /* give it back */
            POISON(p, s->used - s->last);
            s->used = s->last;
        }
        return NULL;
    }
    if (p && !newest && nsize <= osize) /* shrinks in place */
        return p;
    if (newest && nsize <= RSC_SCRATCH_SIZE - REDZONE - s->last) { /* in place */
        if (nsize < s->used - s->last)
            POISON(p + nsize, s->used - s->last - nsize);
        s->used = s->last + nsize;
        UNPOISON(p, nsize);
        return p;
    }
    void *q = bump(s, nsize);
    if (!q)
        q = malloc(nsize);
    if (q && p)
        memcpy(q, p, osize < nsize ? osize : nsize);
    return q;
}

void rsc_scratch_end(rsc_scratch *s)
{
    if (s->base)
        UNPOISON(s->base, RSC_SCRATCH_SIZE);
    free(s->base);
    s->base = NULL;
}
