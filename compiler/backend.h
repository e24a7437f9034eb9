/* The compiler's back end (compiler-internal): byte buffers, the string
 * pool, DFA-to-bytecode encoding and blob assembly (emit.c), shared with
 * compile.c. Only the emitter and the dumper include runtime/format.h. */
#ifndef ROBOTSC_BACKEND_H
#define ROBOTSC_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "dfa.h"
#include "mem.h"
#include "robotsc/compiler.h"

/* A growable byte buffer. Functions return 0 on success, -1 when an
 * allocation failed (the buffer stays valid and must still be freed). */
typedef struct rsc_buf {
    uint8_t *p;
    size_t len, cap;
} rsc_buf;

int rsc_buf_put(rsc_mem *m, rsc_buf *b, const void *src, size_t n);
int rsc_buf_u32(rsc_mem *m, rsc_buf *b, uint32_t v);
int rsc_buf_pad4(rsc_mem *m, rsc_buf *b); /* zero bytes up to a multiple of 4 */
void rsc_buf_free(rsc_mem *m, rsc_buf *b);
void rsc_put_u32(uint8_t *p, uint32_t v); /* little-endian store */

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

/* Appends one automaton (docs/FORMAT.md, AUTOMATA) encoding d to out,
 * which must be 4-aligned. *n_states receives the encoded State_Count.
 * Returns RSC_OK, RSC_E_NOMEM or RSC_E_LIMIT. */
rsc_status rsc_emit_automaton(rsc_mem *m, const rsc_dfa *d, rsc_buf *out,
                              uint32_t *n_states);

/* One section of a blob about to be assembled. */
typedef struct rsc_section {
    uint16_t id;
    const uint8_t *data;
    size_t size;
} rsc_section;

/* Assembles header, section table and the non-empty sections (in the order
 * given, which must be by increasing id) into a blob of exactly its size,
 * allocated with m; computes the checksum. */
rsc_status rsc_emit_blob(rsc_mem *m, uint16_t flags, const rsc_section *secs,
                         size_t n, rsc_blob *out);

#endif
