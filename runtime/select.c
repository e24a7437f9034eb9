/* SPDX-License-Identifier: Apache-2.0 */
/* Spec F.2, F.6, F.7: the rule sets that apply to a crawler, chosen once
 * per crawler identity and reused for every URL of the host. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format.h"
#include "program.h"
#include "robotsc/runtime.h"

/* Row of the AGENTS table equal to lower(a) (ASCII), or UINT32_MAX. Tokens
 * hold only [a-z_-], so an agent with any byte outside [A-Za-z_-] equals
 * none of them: it is used as given, not cut (F.2). */
static uint32_t find_agent(const rsc_program *prog, const uint8_t *a, size_t n)
{
    const uint8_t *str = STR(prog);
    uint32_t lo = 0, hi = PRIV(prog, P_AGENTS_N);
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const uint8_t *t = str + rsc_tab(prog, P_AGENTS, mid, 0);
        size_t tl = rsc_tab(prog, P_AGENTS, mid, 1), k = 0;
        while (k < n && k < tl && rsc_lower(a[k]) == t[k])
            k++;
        int d = k < n && k < tl ? rsc_lower(a[k]) - t[k] : (n > tl) - (n < tl);
        if (d == 0)
            return mid;
        if (d < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return UINT32_MAX;
}

/* Set k's programs are positions [*j, *end) of the SETS list; without
 * SETS, set k is program k alone (FORMAT.md, SETS). */
void rsc_set_span(const rsc_program *prog, uint32_t k, uint32_t *j, uint32_t *end)
{
    if (!PRIV(prog, P_SETS)) {
        *j = k, *end = k + 1;
        return;
    }
    *j = rsc_tab(prog, P_SETS, k, 0);
    *end = *j + rsc_tab(prog, P_SETS, k, 1);
}

/* The root offset of the program at position j of set_span(). */
uint32_t rsc_program_at(const rsc_program *prog, uint32_t j)
{
    uint32_t pr = PRIV(prog, P_SETS) ? rsc_tab(prog, P_SLIST, j, 0) : j;
    return PRIV(prog, P_PROG_DATA) + (pr ? rsc_tab(prog, P_PROGS, pr - 1, 0) : 0);
}

/* Adds x to list[0..*n) unless present; 0 when full. */
static int add_unique(uint32_t *list, uint32_t *n, uint32_t x)
{
    for (uint32_t i = 0; i < *n; i++)
        if (list[i] == x)
            return 1;
    if (*n == RSC_MAX_SELECT)
        return 0;
    list[(*n)++] = x;
    return 1;
}

int rsc_agent_is_token(const char *name, size_t len)
{
    if (!name || len == 0)
        return 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

/* Names are matched as given, never cut (docs/SEMANTICS.md, "The crawler's
 * name"): Google's matcher cuts the file's user-agent values, not the
 * caller's name, so "AB42bot" names no group that "User-agent: AB42bot"
 * opens (its token is "AB"). */
rsc_status rsc_select(const rsc_program *prog, const rsc_bytes *agents,
                      size_t n, rsc_selection *sel)
{
    if (!sel)
        return RSC_E_ARG;
    memset(sel, 0, sizeof *sel);
    if (!prog || !prog->base || !agents || n == 0)
        return RSC_E_ARG;
    for (size_t i = 0; i < n; i++) {
        if (!agents[i].ptr && agents[i].len) {
            memset(sel, 0, sizeof *sel);
            return RSC_E_ARG;
        }
        sel->not_tokens += !rsc_agent_is_token(agents[i].ptr, agents[i].len);
        uint32_t k = find_agent(prog, (const uint8_t *)agents[i].ptr, agents[i].len);
        if (k == UINT32_MAX)
            continue;
        if (!add_unique(sel->agents, &sel->n_agents, k) ||
            !add_unique(sel->sets, &sel->n_sets, rsc_tab(prog, P_AGENTS, k, 2))) {
            memset(sel, 0, sizeof *sel);
            return RSC_E_LIMIT;
        }
        sel->named = 1;
    }
    if (!sel->named && PRIV(prog, P_GLOBAL))
        sel->sets[sel->n_sets++] = PRIV(prog, P_GLOBAL) - 1;
    sel->prog = prog;
    /* The programs to run, once for all matches; with more than fit,
     * matching goes through the sets. */
    for (uint32_t k = 0; k < sel->n_sets; k++) {
        uint32_t j, end;
        for (rsc_set_span(prog, sel->sets[k], &j, &end); j < end; j++) {
            if (sel->n_roots < RSC_MAX_SELECT)
                sel->roots[sel->n_roots] = rsc_program_at(prog, j);
            sel->n_roots++;
        }
    }
    /* RSC_LOAD_DEFER left the DFAs and the programs beside them: what this
     * selection runs is verified before anything reads it (dfa.c) */
    if (!PRIV(prog, P_DEFER)) {
        rsc_dfa_resolve(sel);
    } else {
        rsc_status st = rsc_dfa_defer(sel);
        if (st) {
            memset(sel, 0, sizeof *sel);
            return st;
        }
    }
    return RSC_OK; /* n_roots > RSC_MAX_SELECT: too many to hold */
}


/* ---- Whole-selection verdicts ------------------------------------------ */

/* The ranks a program can produce, read by one scan: its trie's nodes lie
 * in preorder one after the other (FORMAT.md, Nodes: a verified trie tiles
 * its bytes), then its EDGES. *all receives the best rank that matches
 * every path starting with '/' (the root's Accept, or that of its child
 * "/"); *allow and *dis the best allow and disallow ranks anywhere. */
static void program_ranks(const rsc_program *prog, const uint8_t *q, uint32_t *all,
                          uint32_t *allow, uint32_t *dis)
{
    uint32_t tsize = rsc_uv(&q);
    const uint8_t *p = q, *end = q + tsize;
#define NOTE(r)                                                               \
    do {                                                                      \
        uint32_t r_ = (r);                                                    \
        uint32_t *m_ = rsc_tab(prog, P_RULES, r_ - 1, 0) & 1 ? allow : dis;   \
        if (r_ > *m_)                                                         \
            *m_ = r_;                                                         \
    } while (0)
    for (int root = 1; p < end; root = 0) {
        rsc_node x;
        rsc_node_head(p, &x);
        if (x.accept)
            NOTE(x.accept);
        if (x.end)
            NOTE(x.end);
        uint32_t n = x.head >> RSC_N_CHILD_SHIFT;
        if (root) {
            *all = x.accept > *all ? x.accept : *all;
            const uint8_t *k = memchr(x.keys, '/', n);
            if (k) { /* the child "/" with an empty label */
                rsc_node c;
                rsc_node_head(rsc_node_kid(&x, (uint32_t)(k - x.keys)), &c);
                if (c.label_len == 0 && c.accept > *all)
                    *all = c.accept;
            }
        }
        p = rsc_node_next(&x);
    }
    /* the wildcard part: the Rank of every edge */
    rsc_ptab edges;
    rsc_program_edges(end, &edges);
    for (uint32_t r = 0; r < edges.n; r++) {
        uint32_t rank = rsc_ptab_get(&edges, r, E_RANK);
        if (rank)
            NOTE(rank);
    }
#undef NOTE
}

int rsc_selection_uniform(const rsc_selection *sel)
{
    if (!sel || !sel->prog)
        return RSC_MIXED;
    const rsc_program *prog = sel->prog;
    uint32_t all = 0, allow = 0, dis = 0;
    if (rsc_sel_deferred(sel) && rsc_verify_set(prog, sel->sets[0]) != RSC_OK)
        return RSC_MIXED; /* as for a failed selection */
    for (uint32_t k = 0; k < sel->n_sets; k++) {
        uint32_t j, end;
        for (rsc_set_span(prog, sel->sets[k], &j, &end); j < end; j++)
            program_ranks(prog, prog->base + rsc_program_at(prog, j), &all, &allow, &dis);
    }
    int all_allows = all && (rsc_tab(prog, P_RULES, all - 1, 0) & 1);
    if (dis == 0 || (all_allows && dis < all))
        return RSC_ALL_ALLOWED; /* no disallow rule can ever decide */
    if (all && !all_allows && allow < all)
        return RSC_ALL_DISALLOWED; /* a disallow that matches every path wins */
    return RSC_MIXED;
}
