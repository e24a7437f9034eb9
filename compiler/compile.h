/* SPDX-License-Identifier: Apache-2.0 */
/* The compiler driver's state, shared by its files (compiler-internal):
 * compile.c (candidates, ranks, the driver), units.c (agent keys, rule
 * sets and selections), programs.c (rule sets to programs, split when over
 * a budget) and sections.c (the blob's tables). */
#ifndef ROBOTSC_COMPILE_H
#define ROBOTSC_COMPILE_H

#include "backend.h"
#include "format.h"

/* Interning of uint32 lists: each distinct list gets an id (shared.c). */
typedef struct interner {
    uint32_t *data;
    size_t len, cap;
    uint32_t *first, *n;
    size_t count, cap_first, cap_n;
    uint32_t *slots; /* entry + 1, 0 free */
    size_t n_slots;
} interner;
rsc_status rsc_intern(rsc_mem *m, interner *t, const uint32_t *l, size_t n, uint32_t *id);
void rsc_intern_free(rsc_mem *m, interner *t);

/* A pattern some group contributes: a rule, or an index.html extra. */
typedef struct cand {
    uint32_t line, priority;
    uint8_t allow, anchored;
    const char *text; /* google-escaped pattern, for RULES (E.6)   */
    uint32_t text_len;
    const uint8_t *mb; /* bytes matched ('$' anchor stripped)     */
    uint32_t mlen;
    uint32_t toff; /* the pattern's offset in STRINGS             */
    uint32_t moff; /* the match text's offset in STRINGS          */
    uint32_t rank; /* 0 until some set uses it */
} cand;

/* An agent line naming a token: (token, group). */
typedef struct agent_ref {
    const char *tok; /* lower-cased */
    uint32_t len, group, agent;
} agent_ref;

typedef struct ctx {
    rsc_mem m;
    const rsc_ir *ir;
    const rsc_compile_options *opt;
    char *arena; /* extras' texts and normalised bytes, sized up front */
    size_t arena_len, arena_cap;
    char *tokens; /* lower-cased agent tokens */
    const char **agent_low; /* per IR agent: its lower-cased token */
    size_t tokens_cap;
    cand *cands;
    size_t n_cands, cap_cands;
    /* per candidate, made with it: its rank as one integer (rsc_rank_key)
     * and its match text's rsc_prefix_key(): the sorts compare these
     * first, read in order, not the scattered candidates */
    uint64_t *rank_key, *mb_key;
    uint32_t *gc_first, *gc_n; /* per IR group: its candidates */
    agent_ref *refs;
    size_t n_refs;
    uint32_t *order;   /* refs in AGENTS order */
    uint32_t *key_pos; /* token key k: order[key_pos[k] .. key_pos[k+1]) */
    uint32_t *agent_key; /* per IR agent in a group, not global: its key */
    size_t n_keys;     /* token keys; the global key (if any) is extra */
    int has_global;
    uint32_t *key_set; /* per key (tokens, then global): selection id */
    uint32_t *scratch; /* n_cands + n_groups + 1 */
    interner glists;   /* distinct lists of groups of the keys */
    interner sets;     /* units: candidate lists, each compiled to one program */
    interner sels;     /* selections: lists of units (note [selections]) */
    uint32_t *glist_set; /* per group list: its selection */
    size_t cap_glist_set;
    int per_group;       /* note [selections] */
    uint32_t *group_unit;   /* per group: its unit in per-group mode */
    uint32_t *unit_scratch; /* n_groups + 1 */
    uint32_t *rules; /* cand indices by rank, worst first */
    size_t n_rules;
    uint32_t *unit_prog; /* per unit: its first program, or NIL when empty */
    uint32_t *unit_nprog; /* per unit: its programs (several: note [split]) */
    uint32_t n_programs;
    rsc_buf progs;     /* the encoded programs, back to back */
    rsc_buf prog_ends; /* u32 end of each program within progs */
    rsc_strpool strs;
    rsc_buf sec[RSC_SEC_LAST_KNOWN + 1];
} ctx;

int rsc_cmp_rank(const void *vctx, uint32_t a, uint32_t b); /* shared.c */
uint64_t rsc_rank_key(const cand *x);                        /* shared.c */
rsc_status rsc_make_cands(ctx *c);    /* compile.c   */
rsc_status rsc_make_keys(ctx *c);     /* units.c     */
rsc_status rsc_make_sets(ctx *c);     /* units.c     */
rsc_status rsc_make_rules(ctx *c);    /* compile.c   */
rsc_status rsc_make_programs(ctx *c); /* programs.c  */
rsc_status rsc_make_sections(ctx *c); /* sections.c  */
/* The DFAS section (and the label bytes it adds to STRINGS) of the blob
 * made from the other sections (dfa.c). */
rsc_status rsc_make_dfas(ctx *c, const uint8_t *blob, size_t size);

#endif
