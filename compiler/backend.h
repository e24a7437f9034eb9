/* SPDX-License-Identifier: Apache-2.0 */
/* The compiler's back end (compiler-internal): byte buffers, varints and
 * Tables, the string pool and blob assembly (emit.c), and the encoding of
 * one rule set as a program (trie.c), shared with compile.c. Only the
 * back end and the dumper include runtime/format.h. */
#ifndef ROBOTSC_BACKEND_H
#define ROBOTSC_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h"
#include "robotsc/compiler.h"

/* A growable byte buffer. Functions return 0 on success, -1 when an
 * allocation failed (the buffer stays valid and must still be freed). */
typedef struct rsc_buf {
    uint8_t *p;
    size_t len, cap;
} rsc_buf;

int rsc_buf_put(rsc_mem *m, rsc_buf *b, const void *src, size_t n); /* src NULL: zeros */
int rsc_buf_u32(rsc_mem *m, rsc_buf *b, uint32_t v);
void rsc_buf_free(rsc_mem *m, rsc_buf *b);
void rsc_put_u32(uint8_t *p, uint32_t v); /* little-endian store */

/* A stable merge sort of uint32 indices with a context (shared.c): no
 * global state, so compiles may run in parallel threads. Returns 0, or -1
 * when out of memory. */
typedef int (*idx_cmp)(const void *cx, uint32_t a, uint32_t b);
int rsc_msort(rsc_mem *m, uint32_t *a, size_t n, idx_cmp cmp, const void *cx);
/* The same order with a key first: indices by key[index] ascending, equal
 * keys by cmp (NULL: as given), stable. The keys travel with the indices:
 * from a few hundred on they are sorted by radix, in linear time, then
 * each run of equal keys by cmp; fewer are merged, a step one integer
 * compare. For the rank and byte-order sorts, whose calls through
 * rsc_msort took a tenth of a large file's compile. */
int rsc_msort_keyed(rsc_mem *m, uint32_t *a, size_t n, const uint64_t *key, idx_cmp cmp, const void *cx);
/* p[0..len)'s first 8 bytes as a big-endian integer, zeros past len: keys
 * that differ order as rsc_bytes_cmp() orders the strings (a shorter
 * string's zero padding is never above the byte a longer one has there),
 * so a sort compares whole strings only where keys tie. */
static inline uint64_t rsc_prefix_key(const uint8_t *p, size_t len)
{
    uint64_t k = 0;
    for (size_t i = 0; i < 8; i++)
        k = k << 8 | (i < len ? p[i] : 0);
    return k;
}
/* qsort's comparison of uint64 values, ascending (shared.c). */
int rsc_cmp_u64(const void *a, const void *b);
/* Sorts a[0..n) ascending, tmp[0..n) its scratch (shared.c): by radix
 * from a few hundred values on, in linear time. */
void rsc_sort_u64(uint64_t *a, uint64_t *tmp, size_t n);

/* Varints and Tables (FORMAT.md, Conventions). */
size_t rsc_varint_size(uint32_t v);
size_t rsc_put_varint(uint8_t *p, uint32_t v); /* returns the bytes written */
int rsc_buf_varint(rsc_mem *m, rsc_buf *b, uint32_t v);
unsigned rsc_width(uint32_t max);                 /* 1..4 bytes */
void rsc_put_n(uint8_t *p, uint32_t v, unsigned w); /* w bytes, little-endian */
/* A Table of count rows of cols columns, vals row-major. */
int rsc_buf_table(rsc_mem *m, rsc_buf *b, const uint32_t *vals, size_t count, unsigned cols);
size_t rsc_table_size(const uint32_t *vals, size_t count, unsigned cols); /* its bytes */

/* STRINGS: identical byte strings are stored once (spec: format STRINGS). */
typedef struct rsc_strpool {
    rsc_buf bytes;
    uint32_t *slots; /* open addressing: entry index + 1, 0 = free */
    size_t n_slots;
    uint32_t *off, *len; /* per entry */
    size_t n, cap_off, cap_len;
} rsc_strpool;

/* Adds s[0..n) (or finds it); *off receives its offset in the pool.
 * Returns RSC_OK, RSC_E_NOMEM or RSC_E_LIMIT (pool over 4 GiB). */
rsc_status rsc_strpool_add(rsc_mem *m, rsc_strpool *sp, const void *s, size_t n,
                           uint32_t *off);
void rsc_strpool_free(rsc_mem *m, rsc_strpool *sp);

/* A pattern of a rule set: the bytes matched (spec D, E; without a final
 * '$', which sets anchored) and its global rank. The rule's match text in
 * RULES (FORMAT.md) must be bytes[0..len) followed by '$' when anchored:
 * glob entries and long labels point into it. */
typedef struct rsc_tpat {
    const uint8_t *bytes;
    uint32_t len, rank;
    uint8_t anchored;
    uint32_t moff; /* the match text's offset in STRINGS: automaton labels point there */
} rsc_tpat;

typedef struct rsc_trie_stats {
    uint32_t nodes, globs, slots, states, edges, internal;
} rsc_trie_stats;

/* Not a status of the API: a rule set over one of the budgets of a
 * program (format.h, RSC_MAX_LEVELS ...); the caller splits it. */
#define RSC_OVER_BUDGET ((rsc_status)100)

/* Appends the program (FORMAT.md, PROGRAMS) of pats[0..n) to out. With
 * no_prune, entries that can never decide are kept (testing). Returns
 * RSC_OK, RSC_E_NOMEM, RSC_E_LIMIT (a chain deeper than the format's
 * limit, or a program over 4 GiB) or RSC_OVER_BUDGET (out unchanged). */
rsc_status rsc_trie_emit(rsc_mem *m, const rsc_tpat *pats, size_t n, int no_prune,
                         rsc_buf *out, rsc_trie_stats *stats);

/* A wildcard rule of a program (glob.c): its trie node's root slot, rank,
 * tail (from its first '*', without a final '$') and whether it ended in
 * '$'. */
typedef struct rsc_gent {
    uint32_t slot, rank;
    const uint8_t *tail;
    uint32_t tlen, toff; /* toff: the tail's offset in STRINGS */
    uint8_t anchored;
} rsc_gent;

typedef struct rsc_glob_stats {
    uint32_t states, edges, internal;
} rsc_glob_stats;

/* Appends N_Internal and the ROOTS, OUTS, STATES and EDGES tables of a
 * program (FORMAT.md) for ent[0..n); levels[slot] is each root slot's
 * level. RSC_OVER_BUDGET when a budget is exceeded (out may hold a partial
 * write: the caller truncates). */
rsc_status rsc_glob_emit(rsc_mem *m, const rsc_gent *ent, size_t n, const uint32_t *levels,
                         uint32_t nslots, rsc_buf *out, rsc_glob_stats *stats);

/* One section of a blob about to be assembled. */
typedef struct rsc_section {
    uint16_t id;
    const uint8_t *data;
    size_t size;
} rsc_section;

/* Assembles the header and the non-empty sections (in the order given,
 * which must be by increasing id) into a blob of exactly its size,
 * allocated with m; computes the checksum. */
rsc_status rsc_emit_blob(rsc_mem *m, uint8_t flags, const rsc_section *secs,
                         size_t n, rsc_blob *out);

#endif
