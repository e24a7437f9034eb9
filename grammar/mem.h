/* SPDX-License-Identifier: Apache-2.0 */
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
 * elements, doubling. Returns 0 on success, -1 on failure. Inline: most
 * calls find the room already there. */
int rsc_mem_grow_to(rsc_mem *m, void **pp, size_t size, size_t *cap, size_t need);
static inline int rsc_mem_grow(rsc_mem *m, void **pp, size_t size, size_t *cap, size_t need)
{
    return need <= *cap ? 0 : rsc_mem_grow_to(m, pp, size, cap, need);
}

/* A scratch block for one small compile: rsc_compile() sends every
 * allocation of the parse and the compile through rsc_scratch_fn when the
 * caller left the allocator at its default. It bumps a pointer in one block
 * (RSC_SCRATCH_SIZE bytes, one malloc); a free gives back only the newest
 * allocation and a realloc of the newest grows in place; anything else is
 * left until rsc_scratch_end(). What does not fit goes to malloc, and such
 * blocks are freed and resized by libc as usual, so no input is refused
 * that the default allocator would take. A small file makes some fifty
 * allocations and frees of a few hundred bytes: here they cost a few
 * instructions each instead of malloc's bookkeeping. */
#define RSC_SCRATCH_SIZE (64u * 1024u) /* below glibc's mmap threshold */
#define RSC_SCRATCH_INPUT (4u * 1024u) /* the inputs it serves, at most */

typedef struct rsc_scratch {
    unsigned char *base; /* NULL: the block could not be had (all to malloc) */
    size_t used, last;   /* bytes handed out; offset of the newest block */
} rsc_scratch;

void rsc_scratch_begin(rsc_scratch *s);
void *rsc_scratch_fn(void *ud, void *ptr, size_t osize, size_t nsize);
/* Whether p lies in the scratch block (then it dies with it). */
int rsc_scratch_owns(const rsc_scratch *s, const void *p);
void rsc_scratch_end(rsc_scratch *s);

#endif
