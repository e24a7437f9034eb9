/* SPDX-License-Identifier: Apache-2.0 */
/* Agent keys, rule sets and selections (spec F.2, F.5, F.7): which
 * candidates each agent's merged groups hold (compile.c, steps 2 and 3). */
#include <string.h>

#include "codec.h"
#include "compile.h"

/* Same matched pattern first, then best rank first (the sort orders by
 * mb_key before it calls this). */
static int cmp_pattern(const void *vctx, uint32_t a, uint32_t b)
{
    const cand *x = &((const ctx *)vctx)->cands[a], *y = &((const ctx *)vctx)->cands[b];
    int d = rsc_bytes_cmp(x->mb, x->mlen, y->mb, y->mlen);
    if (d)
        return d;
    if (x->anchored != y->anchored)
        return x->anchored < y->anchored ? -1 : 1;
    return -rsc_cmp_rank(vctx, a, b);
}

static int same_pattern(const cand *x, const cand *y)
{
    return x->mlen == y->mlen && x->anchored == y->anchored && memcmp(x->mb, y->mb, x->mlen) == 0;
}

/* AGENTS order: bytes, then shorter first; then by group. */
static int cmp_ref(const void *vctx, uint32_t a, uint32_t b)
{
    const agent_ref *x = &((const ctx *)vctx)->refs[a], *y = &((const ctx *)vctx)->refs[b];
    int d = rsc_bytes_cmp(x->tok, x->len, y->tok, y->len);
    if (d)
        return d;
    return x->group < y->group ? -1 : x->group > y->group;
}

/* Keys: the distinct tokens of non-global agent lines (F.2, lower-cased)
 * in AGENTS order, and whether some group names the global agent (F.1). */
rsc_status rsc_make_keys(ctx *c)
{
    const rsc_ir *ir = c->ir;
    size_t tok_bytes = 0;
    for (size_t i = 0; i < ir->n_agents; i++)
        tok_bytes += ir->agents[i].token.len;
    c->tokens_cap = tok_bytes + 1;
    c->tokens = rsc_mem_alloc(&c->m, c->tokens_cap);
    c->refs = rsc_mem_calloc(&c->m, ir->n_agents + 1, sizeof *c->refs);
    c->order = rsc_mem_calloc(&c->m, ir->n_agents + 1, sizeof *c->order);
    c->agent_low = rsc_mem_calloc(&c->m, ir->n_agents + 1, sizeof *c->agent_low);
    c->key_pos = rsc_mem_calloc(&c->m, ir->n_agents + 1, sizeof *c->key_pos);
    c->key_set = rsc_mem_calloc(&c->m, ir->n_agents + 1, sizeof *c->key_set);
    c->agent_key = rsc_mem_calloc(&c->m, ir->n_agents + 1, sizeof *c->agent_key);
    if (!c->tokens || !c->refs || !c->order || !c->key_pos || !c->key_set || !c->agent_low ||
        !c->agent_key)
        return RSC_E_NOMEM;
    size_t at = 0;
    for (size_t i = 0; i < ir->n_agents; i++) {
        const rsc_agent *a = &ir->agents[i];
        if (a->token.len > UINT32_MAX)
            return RSC_E_LIMIT;
        for (size_t k = 0; k < a->token.len; k++) {
            char ch = a->token.ptr[k];
            c->tokens[at + k] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
        }
        c->agent_low[i] = c->tokens + at;
        if (a->group == RSC_NO_GROUP || a->group >= ir->n_groups) {
            at += a->token.len;
            continue;
        }
        if (a->global) {
            c->has_global = 1;
            at += a->token.len;
            continue;
        }
        agent_ref *r = &c->refs[c->n_refs];
        r->tok = c->tokens + at;
        r->len = (uint32_t)a->token.len;
        r->group = a->group;
        r->agent = (uint32_t)i;
        c->order[c->n_refs] = (uint32_t)c->n_refs;
        c->n_refs++;
        at += a->token.len;
    }
    if (rsc_msort(&c->m, c->order, c->n_refs, cmp_ref, c) != 0)
        return RSC_E_NOMEM;
    for (size_t i = 0; i < c->n_refs; i++) {
        if (i > 0) {
            const agent_ref *p = &c->refs[c->order[i - 1]], *r = &c->refs[c->order[i]];
            if (p->len == r->len && memcmp(p->tok, r->tok, r->len) == 0)
                continue;
        }
        c->key_pos[c->n_keys++] = (uint32_t)i;
    }
    c->key_pos[c->n_keys] = (uint32_t)c->n_refs;
    for (size_t k = 0; k < c->n_keys; k++)
        for (uint32_t i = c->key_pos[k]; i < c->key_pos[k + 1]; i++)
            c->agent_key[c->refs[c->order[i]].agent] = (uint32_t)k;
    return RSC_OK;
}

/* The set of a list of groups (F.5): their candidates, duplicates reduced
 * to the best rank, in rank order; interned into c->sets. */
static rsc_status set_of_groups(ctx *c, const uint32_t *gl, size_t ng, uint32_t *set)
{
    uint32_t *l = c->scratch;
    size_t n = 0;
    for (size_t i = 0; i < ng; i++)
        for (uint32_t k = 0; k < c->gc_n[gl[i]]; k++)
            l[n++] = c->gc_first[gl[i]] + k;
    if (rsc_msort_keyed(&c->m, l, n, c->mb_key, cmp_pattern, c) != 0)
        return RSC_E_NOMEM;
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (w == 0 || !same_pattern(&c->cands[l[w - 1]], &c->cands[l[i]]))
            l[w++] = l[i];
    if (rsc_msort_keyed(&c->m, l, w, c->rank_key, NULL, NULL) != 0)
        return RSC_E_NOMEM;
    return rsc_intern(&c->m, &c->sets, l, w, set);
}

/* note [selections]
 * A key (an agent token, or the global key) selects the union of the rule
 * sets of the groups naming it (F.5). Normally that union is one unit,
 * compiled into one program, memoised by the key's list of groups.
 * But a file can name thousands of agents, each in one big shared group and
 * in a small group of its own: then every key has a different union and
 * the big group would be compiled once per agent. When the distinct unions
 * hold more than twice the file's patterns, each group becomes a unit of its
 * own instead, and a key selects the units of its groups: results combine
 * by maximum of ranks either way (FORMAT.md), and no pattern is compiled
 * twice, so the cost stays linear in the file (docs/LIMITS.md). */
static rsc_status glist_selection(ctx *c, const uint32_t *gl, size_t ng, uint32_t *sel)
{
    uint32_t *units = c->unit_scratch;
    size_t nu = 0;
    rsc_status st = RSC_OK;
    if (!c->per_group) {
        st = set_of_groups(c, gl, ng, &units[0]);
        nu = st == RSC_OK && c->sets.n[units[0]] ? 1 : 0;
    } else {
        for (size_t i = 0; i < ng && st == RSC_OK; i++) {
            uint32_t *u = &c->group_unit[gl[i]];
            if (*u == UINT32_MAX)
                st = set_of_groups(c, &gl[i], 1, u);
            if (st == RSC_OK && c->sets.n[*u])
                units[nu++] = *u;
        }
    }
    if (st != RSC_OK)
        return st;
    return rsc_intern(&c->m, &c->sels, units, nu, sel);
}

/* The list of groups of key k (ascending), into gl; returns its length. */
static size_t key_groups(ctx *c, size_t k, uint32_t *gl)
{
    const rsc_ir *ir = c->ir;
    size_t ng = 0;
    if (k < c->n_keys) {
        for (uint32_t i = c->key_pos[k]; i < c->key_pos[k + 1]; i++) {
            uint32_t g = c->refs[c->order[i]].group; /* ascending within a key */
            if (ng == 0 || gl[ng - 1] != g)
                gl[ng++] = g;
        }
        return ng;
    }
    for (size_t i = 0; i < ir->n_agents; i++) {
        const rsc_agent *a = &ir->agents[i];
        if (!a->global || a->group == RSC_NO_GROUP || a->group >= ir->n_groups)
            continue;
        if (ng == 0 || gl[ng - 1] != a->group)
            gl[ng++] = a->group;
    }
    return ng;
}

rsc_status rsc_make_sets(ctx *c)
{
    const rsc_ir *ir = c->ir;
    rsc_mem *m = &c->m;
    size_t n_keys = c->n_keys + (c->has_global ? 1 : 0);
    c->scratch = rsc_mem_calloc(m, c->n_cands + ir->n_groups + 1, sizeof *c->scratch);
    c->unit_scratch = rsc_mem_calloc(m, ir->n_groups + 1, sizeof *c->unit_scratch);
    c->group_unit = rsc_mem_calloc(m, ir->n_groups + 1, sizeof *c->group_unit);
    if (!c->scratch || !c->unit_scratch || !c->group_unit)
        return RSC_E_NOMEM;
    for (size_t g = 0; g <= ir->n_groups; g++)
        c->group_unit[g] = UINT32_MAX;
    uint32_t *gl = c->scratch + c->n_cands;
    /* The distinct group lists; key_set[k] holds the list id for now. */
    for (size_t k = 0; k < n_keys; k++) {
        size_t ng = key_groups(c, k, gl);
        rsc_status st = rsc_intern(m, &c->glists, gl, ng, &c->key_set[k]);
        if (st != RSC_OK)
            return st;
    }
    size_t cost = 0;
    for (size_t e = 0; e < c->glists.count; e++)
        for (uint32_t i = 0; i < c->glists.n[e]; i++)
            cost += c->gc_n[c->glists.data[c->glists.first[e] + i]];
    c->per_group = cost > 2 * c->n_cands + 4096;
    size_t cap = 0;
    if (rsc_mem_grow(m, (void **)&c->glist_set, sizeof *c->glist_set, &cap, c->glists.count + 1) != 0)
        return RSC_E_NOMEM;
    c->cap_glist_set = cap;
    for (size_t e = 0; e < c->glists.count; e++) {
        size_t ng = c->glists.n[e];
        memcpy(gl, c->glists.data + c->glists.first[e], ng * sizeof *gl);
        rsc_status st = glist_selection(c, gl, ng, &c->glist_set[e]);
        if (st != RSC_OK)
            return st;
    }
    for (size_t k = 0; k < n_keys; k++)
        c->key_set[k] = c->glist_set[c->key_set[k]];
    return RSC_OK;
}

