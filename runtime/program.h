/* SPDX-License-Identifier: Apache-2.0 */
/* Runtime-internal: little-endian and varint loads, and the layout of
 * rsc_program's private fields, which rsc_load() fills so that matching
 * needs no lookups. Every offset in priv[] is absolute (from the blob
 * start); an absent section has offset 0 and count 0. The dumper reads
 * verified programs with these helpers too. */
#ifndef ROBOTSC_PROGRAM_H
#define ROBOTSC_PROGRAM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec.h"
#include "format.h"
#include "robotsc/runtime.h"

/* A table takes three words: rows offset, Count, and its packed shape
 * (column widths 3 bits each from bit 0, row size from bit 24). */
enum rsc_priv {
    P_STR_OFF, P_STR_SIZE,             /* STRINGS                          */
    P_RULES, P_RULES_N, P_RULES_W,     /* RULES table                      */
    P_PROGS, P_PROGS_N, P_PROGS_W,     /* PROGRAMS End table               */
    P_PROG_DATA,                       /* PROGRAMS Data                    */
    P_SETS, P_SETS_N, P_SETS_W,
    P_SLIST, P_SLIST_N, P_SLIST_W,
    P_AGENTS, P_AGENTS_N, P_AGENTS_W,
    P_GLOBAL,                          /* 0 none, else 1 + the set         */
    P_GROUPS, P_GROUPS_N, P_GROUPS_W,
    P_GLIST, P_GLIST_N, P_GLIST_W,
    P_SITEMAPS, P_SITEMAPS_N, P_SITEMAPS_W,
    P_DIRS, P_DIRS_N, P_DIRS_W,
    P_DFAS, P_DFAS_N, P_DFAS_W,        /* DFAS End table (0 rows: none)    */
    P_DFA_DATA,                        /* DFAS Data                        */
    P_DEFER,                           /* 1: RSC_LOAD_DEFER left DFAs, and */
                                       /* the programs beside them         */
    P_COUNT_
};
typedef char rsc_priv_fits_[P_COUNT_ <= 40 ? 1 : -1];

#define PRIV(prog, f) ((prog)->priv[f])
#define STR(prog) ((prog)->base + (prog)->priv[P_STR_OFF])

/* ASCII lower case: agents (F.2) and directive keys. */
static inline uint8_t rsc_lower(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

/* Runtime-internal functions shared between its files. */
/* Set k's programs are positions [*j, *end) of the SETS list (select.c). */
void rsc_set_span(const rsc_program *prog, uint32_t k, uint32_t *j, uint32_t *end);
/* The Data offset of the program at position j of a set span. */
uint32_t rsc_program_at(const rsc_program *prog, uint32_t j);
/* Verifies the programs of set k of a loaded program (load.c): those
 * that rsc_load_ex(RSC_LOAD_DEFER) left, before anything runs them. */
rsc_status rsc_verify_set(const rsc_program *prog, uint32_t k);
/* Blobs of more programs are verified whole by RSC_LOAD_DEFER too (its
 * marks of the programs checked take a bit each on the stack). */
#define RSC_DEFER_MAX_PROGS 8192
/* Verifies the DFA of set k (none: RSC_OK), which RSC_LOAD_DEFER left
 * (load.c; rsc_select() calls it for the DFA a selection runs). About 9
 * KiB of stack. */
rsc_status rsc_verify_dfa(const rsc_program *prog, uint32_t k);
/* A selection of one rule set whose programs rsc_load_ex(RSC_LOAD_DEFER)
 * left unverified has sets[RSC_SEL_DEFER] == RSC_SEL_DEFERRED (set by
 * rsc_select(), cleared by rsc_selection_use() once verified; sets[1..]
 * below it hold dfa.c's view). Whatever would run those programs (a match
 * with m, rsc_selection_uniform()) verifies them first. */
#define RSC_SEL_DEFER (RSC_MAX_SELECT - 1)
#define RSC_SEL_DEFERRED 0x44454652u
static inline int rsc_sel_deferred(const rsc_selection *sel)
{
    return sel->n_sets == 1 && sel->sets[RSC_SEL_DEFER] == RSC_SEL_DEFERRED;
}
/* rsc_dfa_resolve() for a program with P_DEFER (dfa.c): the DFA of a
 * selection of one rule set is verified first, and the selection marked
 * deferred; a selection that runs programs has those of its sets with a
 * DFA verified. RSC_E_CORRUPT when one fails. */
rsc_status rsc_dfa_defer(rsc_selection *sel);
/* Opens the DFA of a selection of one rule set once, into the selection
 * (dfa.c; called by rsc_select()). */
void rsc_dfa_resolve(rsc_selection *sel);
/* The verdict of sel's DFA for path bytes p[0..n) (ending early at a NUL,
 * or at term when term is '#'), with a '/' in front when slash: 1 allowed,
 * 0 disallowed, -1 when sel runs no DFA (dfa.c). */
int rsc_dfa_verdict(const rsc_selection *sel, const uint8_t *p, size_t n, uint8_t term, int slash);
/* sel->accel of a selection that runs its programs (a rule set without a
 * DFA, or rsc_selection_use()): match.c does not call rsc_dfa_verdict(),
 * whose call alone was 3.7% of the programs' instructions over the 373
 * corpus lists (dfa.c). */
extern const uint32_t rsc_dfa_programs_only;
/* sel->accel of a selection that runs its blob's DFA, opened into it by
 * rsc_dfa_resolve() (dfa.c): rsc_match_url() without m hands its check to
 * rsc_dfa_url(). */
extern const uint32_t rsc_dfa_cached;
int rsc_dfa_url(const rsc_selection *sel, const char *url, size_t len);

#define RSC_TAB_WIDTH(pack, col) (((pack) >> (3 * (col))) & 0x7u)
#define RSC_TAB_ROW(pack) ((pack) >> 24)

/* Column col of row r of the table whose three priv words start at t. */
static inline uint32_t rsc_tab(const rsc_program *prog, int t, uint32_t r, unsigned col)
{
    uint32_t pack = prog->priv[t + 2];
    const uint8_t *p = prog->base + prog->priv[t] + (size_t)r * RSC_TAB_ROW(pack);
    for (unsigned c = 0; c < col; c++)
        p += RSC_TAB_WIDTH(pack, c);
    return rsc_rdn(p, RSC_TAB_WIDTH(pack, col));
}

/* Set k's DFA is DFAS Data [*a, *b) (FORMAT.md, DFAS): 1 when it has one
 * (a non-empty span), 0 when not or when k has no DFAS row. */
static inline int rsc_dfa_span(const rsc_program *prog, uint32_t k, uint32_t *a, uint32_t *b)
{
    if (k >= PRIV(prog, P_DFAS_N))
        return 0;
    *a = k ? rsc_tab(prog, P_DFAS, k - 1, 0) : 0, *b = rsc_tab(prog, P_DFAS, k, 0);
    return *a < *b;
}

/* Group g's agents: GROUPS List[*first .. *first + return value). */
static inline uint32_t rsc_group_agents(const rsc_program *prog, uint32_t g, uint32_t *first)
{
    uint32_t next = g + 1 < prog->priv[P_GROUPS_N] ? rsc_tab(prog, P_GROUPS, g + 1, 1)
                                                   : prog->priv[P_GLIST_N];
    *first = rsc_tab(prog, P_GROUPS, g, 1);
    return next - *first;
}

/* ---- Sixteen bytes a step ---------------------------------------------- */

/* The compilers' vector extension (SSE2, NEON): no header, no library.
 * rsc_v16_first() gives the first lane of a comparison that holds, or 16. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RSC_V16 1
typedef uint8_t rsc_v16 __attribute__((vector_size(16)));

static inline rsc_v16 rsc_v16_load(const void *p)
{
    rsc_v16 x;
    memcpy(&x, p, 16);
    return x;
}

static inline unsigned rsc_v16_first(rsc_v16 hit)
{
    uint64_t m[2];
    memcpy(m, &hit, 16);
    if (m[0])
        return (unsigned)__builtin_ctzll(m[0]) >> 3;
    return m[1] ? 8 + ((unsigned)__builtin_ctzll(m[1]) >> 3) : 16;
}
#endif

/* ---- Program data (FORMAT.md, PROGRAMS), shared by match.c and select.c */

#if defined(__GNUC__)
#define RSC_HOT static inline __attribute__((always_inline))
#else
#define RSC_HOT static inline
#endif

/* A Table of a program's wildcard part: RSC_PAD zero bytes follow the
 * four (FORMAT.md), so a column is one 4-byte load masked to its width. */
typedef struct rsc_ptab {
    const uint8_t *rows;
    uint32_t n, size;
    uint8_t off[RSC_TAB_MAX_COLS];
    uint32_t mask[RSC_TAB_MAX_COLS];
} rsc_ptab;

enum { R_LEVEL, R_MAX };                                 /* ROOTS  */
enum { O_LEN, O_NEXT, O_MAX, O_EDGE, O_NFLOAT, O_NANCH }; /* OUTS   */
enum { S_KEY, S_FIRST, S_N, S_FAIL, S_OUT, S_LOFF, S_LLEN }; /* STATES */
enum { E_PARENT, E_RANK, E_TARGET, E_MAX };              /* EDGES  */
enum { D_NEXT, D_OTHER, D_LOFF, D_LEN };                  /* a DFA's STATES */
enum { C_NEXT };                                          /* a DFA's CELLS  */

/* A verified Table at p of cols columns; returns the byte after it. Its
 * widths (2 bits a column) are read as one word, a column at a time. */
static inline const uint8_t *rsc_ptab_open(rsc_ptab *t, const uint8_t *p, unsigned cols)
{
    static const uint32_t wmask[4] = {0xffu, 0xffffu, 0xffffffu, 0xffffffffu};
    uint32_t size = 0;
    t->n = rsc_uv(&p);
    if (!t->n)
        return p;
    uint32_t bits = rsc_tab_widths(p, cols);
    for (unsigned c = 0; c < cols; c++, bits >>= 2) {
        t->off[c] = (uint8_t)size;
        t->mask[c] = wmask[bits & 3];
        size += (bits & 3) + 1;
    }
    t->size = size;
    t->rows = p + RSC_TAB_WBYTES(cols);
    return t->rows + (size_t)t->n * size;
}

/* The byte after a verified Table of cols columns at p: its row size is
 * cols plus the 2-bit fields of its widths (the unused ones are zero). */
static inline const uint8_t *rsc_ptab_skip(const uint8_t *p, unsigned cols)
{
    uint32_t n = rsc_uv(&p);
    if (!n)
        return p;
    uint32_t bits = rsc_tab_widths(p, cols);
    bits = (bits & 0x3333u) + (bits >> 2 & 0x3333u); /* pairs of fields */
    bits = (bits & 0x0f0fu) + (bits >> 4 & 0x0f0fu); /* a byte's four   */
    uint32_t size = cols + (bits & 0xffu) + (bits >> 8);
    return p + RSC_TAB_WBYTES(cols) + (size_t)n * size;
}

/* Opens the EDGES table of the verified program whose trie ends at p
 * (FORMAT.md, PROGRAMS: Shape, then ROOTS, OUTS and STATES before it). */
static inline void rsc_program_edges(const uint8_t *p, rsc_ptab *edges)
{
    uint32_t shape = rsc_uv(&p);
    p = rsc_ptab_skip(p, RSC_ROOTS_COLS);
    p = rsc_ptab_skip(p, RSC_OUTS_COLS);
    p = rsc_ptab_skip(p, shape & RSC_SHAPE_LABELS ? RSC_STATES_COLS_LAB : RSC_STATES_COLS);
    rsc_ptab_open(edges, p, RSC_EDGES_COLS);
}

RSC_HOT uint32_t rsc_ptab_get(const rsc_ptab *t, uint32_t r, unsigned c)
{
    return rsc_rd32(t->rows + (size_t)r * t->size + t->off[c]) & t->mask[c];
}

/* A trie node's fields (FORMAT.md, Nodes) up to its Keys. */
typedef struct rsc_node {
    uint32_t label_len, rep;     /* rep: the label's rule (0: inline)   */
    const uint8_t *label;        /* an inline label                     */
    uint32_t head, accept, end, slot; /* slot + 1, or 0                 */
    const uint8_t *keys;         /* Keys, then Offsets, then children   */
} rsc_node;

/* Reads the verified node at q. A leaf of one rank (RSC_LEAF_ACCEPT,
 * RSC_LEAF_END) reads as a node whose Head has that flag alone. */
RSC_HOT void rsc_node_head(const uint8_t *q, rsc_node *x)
{
    uint32_t lh = rsc_uv(&q), kind = lh & RSC_LABEL_KIND;
    x->label_len = lh >> RSC_LABEL_SHIFT;
    x->label = NULL, x->rep = 0;
    if (kind == RSC_LABEL_INLINE) {
        x->label = q;
        q += x->label_len;
    } else {
        x->rep = rsc_uv(&q);
    }
    if (kind >= RSC_LEAF_ACCEPT) {
        int acc = kind == RSC_LEAF_ACCEPT;
        x->head = acc ? RSC_N_ACCEPT : RSC_N_END;
        x->accept = acc ? x->rep : 0;
        x->end = acc ? 0 : x->rep;
        x->slot = 0;
        x->keys = q;
        return;
    }
    x->head = rsc_uv(&q);
    x->accept = x->head & RSC_N_ACCEPT ? rsc_uv(&q) : 0;
    x->end = x->head & RSC_N_END ? rsc_uv(&q) : 0;
    x->slot = x->head & RSC_N_ROOT ? rsc_uv(&q) + 1 : 0;
    x->keys = q;
}

/* Where x's children start (C): after its Keys and its Offsets, one for
 * each child but the first. In a verified trie, whose nodes tile its bytes
 * in preorder, a leaf's C is the next node. */
static inline const uint8_t *rsc_node_next(const rsc_node *x)
{
    uint32_t n = x->head >> RSC_N_CHILD_SHIFT;
    unsigned w = ((x->head >> RSC_N_WIDTH_SHIFT) & RSC_N_WIDTH_MASK) + 1;
    return x->keys + n + (size_t)(n ? n - 1 : 0) * w;
}

/* Child k of x (k < Children): child 0 starts at C, child k at C +
 * Offsets[k - 1]. For k = 0 the load reads the bytes before Offsets (the
 * Keys and the Head: a node with Children > 1 has at least Width + 1 of
 * them) and is masked off, which keeps a data-dependent branch out of the
 * walk; one-byte Offsets, most nodes', skip the width's switch. */
static inline const uint8_t *rsc_node_kid(const rsc_node *x, uint32_t k)
{
    uint32_t n = x->head >> RSC_N_CHILD_SHIFT, keep = 0u - (uint32_t)(k != 0);
    unsigned w = ((x->head >> RSC_N_WIDTH_SHIFT) & RSC_N_WIDTH_MASK) + 1;
    const uint8_t *offs = x->keys + n, *before = offs - 1;
    if (w == 1)
        return offs + n - 1 + (before[k] & keep);
    const uint8_t *c = offs + (size_t)(n - 1) * w;
    return c + (rsc_rdn(offs + (size_t)k * w - w, w) & keep);
}

#endif
