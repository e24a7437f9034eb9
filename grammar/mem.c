#include "mem.h"

#include <stdint.h>
#include <stdlib.h>

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
    if (p)
        m->fn(m->ud, p, n, 0);
}

int rsc_mem_grow(rsc_mem *m, void **pp, size_t size, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : 8;
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
