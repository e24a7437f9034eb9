/* Allocation through the caller's allocator (rsc_alloc_fn), shared by the
 * front end and the compiler. Every allocation of the library goes through
 * rsc_mem, so a test allocator can fail the k-th one (docs/LIMITS.md). */
#ifndef ROBOTSC_MEM_H
#define ROBOTSC_MEM_H

#include <stddef.h>

#include "robotsc/ir.h"

typedef struct rsc_mem {
    rsc_alloc_fn fn;
    void *ud;
    int failed; /* sticky: an allocation has failed */
} rsc_mem;

void rsc_mem_init(rsc_mem *m, rsc_alloc_fn fn, void *ud);
/* Returns NULL (and sets m->failed) on failure or size overflow. */
void *rsc_mem_alloc(rsc_mem *m, size_t n);
void *rsc_mem_calloc(rsc_mem *m, size_t count, size_t size);
/* Resizes p from count_old to count_new elements of size bytes; on failure
 * returns NULL and leaves p allocated. */
void *rsc_mem_realloc(rsc_mem *m, void *p, size_t size, size_t count_old, size_t count_new);
void rsc_mem_free(rsc_mem *m, void *p, size_t n);

/* Grows *pp (an array of *cap elements of size bytes) to hold at least need
 * elements, doubling. Returns 0 on success, -1 on failure. */
int rsc_mem_grow(rsc_mem *m, void **pp, size_t size, size_t *cap, size_t need);

#endif
