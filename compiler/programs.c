/* SPDX-License-Identifier: Apache-2.0 */
/* Rule sets to programs (trie.c, glob.c), several when a rule set is over
 * a program's budgets (note [split]). */
#include <string.h>

#include "codec.h"
#include "compile.h"

/* A pattern with a wildcard tail: a '*' followed by more than stars. */
static int is_glob(const rsc_tpat *p)
{
    const uint8_t *star = p->len ? memchr(p->bytes, '*', p->len) : NULL;
    if (!star)
        return 0;
    for (const uint8_t *q = star; q < p->bytes + p->len; q++)
        if (*q != '*')
            return 1;
    return 0;
}

static rsc_status push_program(ctx *c)
{
    if (c->progs.len > UINT32_MAX)
        return RSC_E_LIMIT;
    if (rsc_buf_u32(&c->m, &c->prog_ends, (uint32_t)c->progs.len) != 0)
        return RSC_E_NOMEM;
    c->n_programs++;
    return RSC_OK;
}

/* note [split]
 * A program's wildcard part has budgets (format.h, RSC_MAX_LEVELS ...) that
 * bound the matcher's work per path byte and its stack. A rule set over a
 * budget becomes several programs: the literal rules and the better half
 * of the wildcard rules, then the other half, each split again while over.
 * Results combine by the maximum of ranks (FORMAT.md, SETS), so the verdict
 * is the same; each program costs one more pass over the path, which is
 * the price docs/LIMITS.md states. pats[0..n) is in rank order, worst
 * first; scratch holds n entries. */
static rsc_status emit_split(ctx *c, rsc_tpat *pats, size_t n, rsc_tpat *scratch, uint32_t *count)
{
    rsc_status st = rsc_trie_emit(&c->m, pats, n, c->opt->no_prune & RSC_COMPILE_NO_PRUNE, &c->progs, NULL);
    if (st == RSC_OK) {
        (*count)++;
        return push_program(c);
    }
    if (st != RSC_OVER_BUDGET)
        return st;
    size_t ng = 0;
    for (size_t i = 0; i < n; i++)
        ng += is_glob(&pats[i]);
    if (ng < 2)
        return RSC_E_LIMIT; /* one rule over the budgets on its own */
    /* A: literal rules and the best ng/2 wildcard rules (the last ones);
     * B: the other wildcard rules. Rank order is kept in both. */
    size_t keep = ng / 2, na = 0, nb = 0, seen = 0;
    for (size_t i = 0; i < n; i++) {
        int gl = is_glob(&pats[i]);
        if (gl && seen++ < ng - keep)
            scratch[n - 1 - nb++] = pats[i]; /* B, reversed for now */
        else
            scratch[na++] = pats[i];
    }
    for (size_t i = 0; i < nb / 2; i++) { /* B back in rank order */
        rsc_tpat t = scratch[na + i];
        scratch[na + i] = scratch[n - 1 - i];
        scratch[n - 1 - i] = t;
    }
    memcpy(pats, scratch, n * sizeof *pats);
    if ((st = emit_split(c, pats, na, scratch, count)) != RSC_OK)
        return st;
    return emit_split(c, pats + na, nb, scratch, count);
}

rsc_status rsc_make_programs(ctx *c)
{
    rsc_mem *m = &c->m;
    size_t ns = c->sets.count;
    c->unit_prog = rsc_mem_calloc(m, ns + 1, sizeof *c->unit_prog);
    c->unit_nprog = rsc_mem_calloc(m, ns + 1, sizeof *c->unit_nprog);
    if (!c->unit_prog || !c->unit_nprog)
        return RSC_E_NOMEM;
    for (size_t s = 0; s < ns; s++) {
        size_t n = c->sets.n[s];
        c->unit_prog[s] = UINT32_MAX;
        if (n == 0)
            continue; /* an empty set allows everything: no program */
        const uint32_t *l = c->sets.data + c->sets.first[s];
        rsc_tpat *pats = rsc_mem_calloc(m, 2 * n, sizeof *pats);
        if (!pats)
            return RSC_E_NOMEM;
        for (size_t i = 0; i < n; i++) {
            const cand *x = &c->cands[l[i]];
            pats[i].bytes = x->mb;
            pats[i].len = x->mlen;
            pats[i].rank = x->rank;
            pats[i].anchored = x->anchored;
            pats[i].moff = x->moff;
        }
        uint32_t first = c->n_programs, count = 0;
        rsc_status st = emit_split(c, pats, n, pats + n, &count);
        rsc_mem_free(m, pats, 2 * n * sizeof *pats);
        if (st != RSC_OK)
            return st;
        c->unit_prog[s] = first;
        c->unit_nprog[s] = count;
    }
    return RSC_OK;
}

