/* SPDX-License-Identifier: Apache-2.0 */
/* The explorer: lazy priority-annotated subset construction over a rule
 * list, and a breadth-first walk over one automaton or the product of two
 * (explore.h, note [explorer states]). Positions, residuals and dominance
 * are the subset core's (subset.h), which the compile-time determiniser
 * (dfa.c) uses too. Memory is bounded by the budgets given: past them a
 * call answers RSC_E_LIMIT, and the caller says "unknown" rather than
 * guess. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "explore.h"
#include "subset.h"

typedef struct xstate {
    uint32_t off, n;  /* positions: words[off .. off + n), increasing    */
    uint32_t best;    /* RANK: 1 + the best rule's index, 0 none;
                         VERDICT: the best's verdict, 1 allowed        */
    uint32_t moves;   /* 1 + offset of its moves in mv, 0 not built    */
    int32_t end_rule; /* rsc_xdfa_end()                                */
    uint8_t end_allow;
} xstate;

struct rsc_xdfa {
    rsc_mem *m;
    const rsc_xrule *r;
    size_t n;
    int mode;
    size_t max_states, max_words;
    uint32_t *base;  /* per rule: its first position (n + 1 entries)    */
    uint32_t *prule; /* per position: its rule                          */
    uint16_t *pcode; /* per position: its code (subset.h)               */
    uint32_t *rid;   /* per position: its residual's id                 */
    uint32_t *nstar; /* per position: the first '*' at or after it      */
    uint32_t *mark;  /* per residual id: marked in this scan (mclk)     */
    uint32_t mclk;
    size_t cap_pos;  /* the per-position arrays' entries                */
    xstate *st;
    size_t nst, cap_st;
    uint32_t *w; /* positions of all states */
    size_t nw, cap_w;
    uint32_t *mv; /* moves of all states */
    size_t nmv, cap_mv;
    uint32_t *slots; /* state + 1, 0 free */
    size_t nslots;
    uint32_t *cand; /* scratch: a successor's positions */
    size_t cap_cand;
    uint32_t *sorted; /* scratch: a state's closure by next byte */
    size_t cap_sorted;
    uint32_t *clos; /* scratch: a state's closure */
    size_t cap_clos;
    uint32_t *succ; /* scratch: a state's moves */
    size_t cap_succ;
    uint32_t *stamp; /* per position: dedupe clock */
    uint32_t *run;   /* scratch: a run of candidates (sort_positions)   */
    uint32_t clock;
    uint32_t start;
};

static uint32_t rank_of(const rsc_xdfa *x, uint32_t rule)
{
    return x->r[rule].rank;
}

/* ---- building states ----------------------------------------------------- */

static int cand_push(rsc_xdfa *x, size_t *nc, uint32_t pos)
{
    if (rsc_mem_grow(x->m, (void **)&x->cand, sizeof *x->cand, &x->cap_cand, *nc + 1) != 0)
        return -1;
    x->cand[(*nc)++] = pos;
    return 0;
}

static void clock_tick(rsc_xdfa *x)
{
    if (++x->clock == 0) {
        memset(x->stamp, 0, x->cap_pos * sizeof *x->stamp);
        x->clock = 1;
    }
}

/* Position pos and its closure over '*' (one step: runs are collapsed),
 * each once per candidate list (clock_tick() starts one). */
static int cand_add(rsc_xdfa *x, size_t *nc, uint32_t pos)
{
    for (;;) {
        if (x->stamp[pos] == x->clock)
            return 0; /* its closure is in already */
        x->stamp[pos] = x->clock;
        if (cand_push(x, nc, pos) != 0)
            return -1;
        if (!(x->pcode[pos] & P_STAR))
            return 0;
        pos++;
    }
}

/* Order-free: a state's positions are a set. */
static uint32_t mix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    return h ^ (h >> 16);
}

static uint32_t hash_state(uint32_t best, const uint32_t *p, size_t n)
{
    uint32_t h = mix32(best * 2654435761u + (uint32_t)n);
    for (size_t i = 0; i < n; i++)
        h += mix32(p[i] + 0x9e3779b9u);
    return mix32(h);
}

static int rehash(rsc_xdfa *x, size_t nslots)
{
    uint32_t *s = rsc_mem_calloc(x->m, nslots, sizeof *s);
    if (!s)
        return -1;
    for (size_t k = 0; k < x->nst; k++) {
        const xstate *q = &x->st[k];
        size_t i = hash_state(q->best, x->w + q->off, q->n) & (nslots - 1);
        while (s[i])
            i = (i + 1) & (nslots - 1);
        s[i] = (uint32_t)k + 1;
    }
    rsc_mem_free(x->m, x->slots, x->nslots * sizeof *x->slots);
    x->slots = s;
    x->nslots = nslots;
    return 0;
}

/* The '*'s after a position that dominance looks at (the nearest): a
 * rule of thousands of '*'s must not make every state cost thousands of
 * steps a position, and the explorer has no work cap to stop it. */
#define X_STARS 16u

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts c[0..n). A successor's candidates come as two increasing runs
 * (the '*'s' closure, then the positions past the byte read), merged in
 * linear time through x->run; anything else (the start) is sorted. */
static void sort_positions(rsc_xdfa *x, uint32_t *c, size_t n)
{
    size_t d = 1;
    while (d < n && c[d - 1] < c[d])
        d++;
    if (d >= n)
        return;
    size_t e = d + 1;
    while (e < n && c[e - 1] < c[e])
        e++;
    if (e < n) {
        qsort(c, n, sizeof *c, cmp_u32);
        return;
    }
    memcpy(x->run, c, d * sizeof *c);
    size_t i = 0, j = d, k = 0;
    while (i < d && j < n)
        c[k++] = x->run[i] < c[j] ? x->run[i++] : c[j++];
    while (i < d)
        c[k++] = x->run[i++];
}

static uint32_t next_mark(rsc_xdfa *x)
{
    if (++x->mclk == 0) {
        memset(x->mark, 0, x->cap_pos * sizeof *x->mark);
        x->mclk = 1;
    }
    return x->mclk;
}

/* note [explorer bands]
 * RSC_X_VERDICT asks for verdicts only, so rank matters less than in
 * subset.h's dominance: a band is a maximal run of the kept positions
 * (in rank order) whose rules have one verdict, and within a band case
 * (b) holds whichever of the two is higher: p goes when a '*' after p in
 * its rule has a residual "*X" that some position of p's band has. If p
 * was the best match of a path, that position matches it too and every
 * rule ranked between them has p's verdict, so the verdict stands. Case
 * (b) goes from a residual to a strictly shorter one (a '*' after p), so
 * no two positions drop each other, and a chain of drops ends at a kept
 * position of the band. Semantic lint asks this question of one rule
 * against every rule above it, all of one verdict (semlint.c, note [live
 * rules]): one band, where shadowing rules like "/a/x*" below "/a/ *x*"
 * merge at once. Compacts the sorted c[0..n) and returns the positions
 * kept, still in order, at its end: the count. */
static size_t bands(rsc_xdfa *x, uint32_t *c, size_t n)
{
    size_t w = n;
    for (size_t hi = n; hi > 0;) { /* bands from the top: c[w..) is written above c[hi..) */
        const uint16_t v = x->pcode[c[hi - 1]] & P_ALLOW;
        size_t lo = hi - 1;
        while (lo > 0 && (x->pcode[c[lo - 1]] & P_ALLOW) == v)
            lo--;
        const uint32_t clk = next_mark(x);
        for (size_t k = lo; k < hi; k++)
            x->mark[x->rid[c[k]]] = clk;
        for (size_t k = hi; k-- > lo;) {
            const uint32_t p = c[k];
            uint32_t steps = 0;
            if (!rsc_sub_star_marked(x->rid, x->nstar, p, x->mark, clk, NULL, 0, NULL, X_STARS, &steps))
                c[--w] = p;
        }
        hi = lo;
    }
    return n - w;
}

/* Sorts c[0..m) and drops every position another one dominates: the scan
 * of subset.h's note [dominance], from the highest position down. */
static void drop_dominated(rsc_xdfa *x, uint32_t *c, size_t *m)
{
    const size_t n = *m;
    sort_positions(x, c, n);
    const uint32_t clk = next_mark(x);
    size_t w = n; /* c[w..n): kept, in order */
    for (size_t k = n; k-- > 0;) {
        const uint32_t p = c[k], r = x->rid[p];
        uint32_t steps = 0;
        const int dom = rsc_sub_dominated(x->rid, x->nstar, p, r, x->mark, clk, NULL, 0, NULL, X_STARS, &steps);
        x->mark[r] = clk;
        if (!dom)
            c[--w] = p;
    }
    if (x->mode == RSC_X_VERDICT && w < n) /* c is NULL before the first candidate */
        w = n - bands(x, c + w, n - w);
    /* A state keeps no closure under '*': the position past a kept '*' is
     * left out (its moves start from the closure, and a rule never ends
     * just past a '*'), which halves the words of states full of '*'s. */
    size_t k2 = 0;
    for (size_t k = w; k < n; k++)
        if (!(k2 && c[k2 - 1] + 1 == c[k] && (x->pcode[c[k2 - 1]] & P_STAR)))
            c[k2++] = c[k];
    *m = k2;
}

/* Turns cand[0..nc) (closed positions after a move, or the start) and the
 * predecessor's best into a state: completions, pruning (note [explorer
 * states], subset.h's note [dominance]), then interning. */
static rsc_status make_state(rsc_xdfa *x, size_t nc, uint32_t best_in, uint32_t *id)
{
    const rsc_xrule *r = x->r;
    uint32_t *c = x->cand;
    /* completions: unanchored rules at their end (cand has no duplicates) */
    int64_t done = -1;
    for (size_t k = 0; k < nc; k++) {
        uint32_t i = x->prule[c[k]];
        if ((x->pcode[c[k]] & P_MATCH) && (done < 0 || r[i].rank > rank_of(x, (uint32_t)done)))
            done = i;
    }
    uint32_t best = best_in, floor = 0; /* positions must outrank floor */
    if (x->mode == RSC_X_RANK) {
        if (done >= 0 && (best == 0 || r[done].rank > r[best - 1].rank))
            best = (uint32_t)done + 1;
        floor = best ? r[best - 1].rank : 0;
    } else if (done >= 0) {
        best = r[done].allow;
        floor = r[done].rank;
    }
    size_t m = 0;
    uint32_t low_other = UINT32_MAX; /* VERDICT: lowest live rank of the other verdict */
    for (size_t k = 0; k < nc; k++) {
        uint32_t i = x->prule[c[k]];
        if (r[i].rank <= floor)
            continue;
        c[m++] = c[k];
        if (x->mode == RSC_X_VERDICT && r[i].allow != best && r[i].rank < low_other)
            low_other = r[i].rank;
    }
    if (x->mode == RSC_X_VERDICT) { /* rules of the best's verdict below the other's go */
        size_t k2 = 0;
        for (size_t k = 0; k < m; k++)
            if (low_other != UINT32_MAX && r[x->prule[c[k]]].rank >= low_other)
                c[k2++] = c[k];
        m = k2;
    }
    drop_dominated(x, c, &m);
    /* intern: the same set (sorted now) and the same best */
    if ((x->nst + 1) * 2 > x->nslots && rehash(x, x->nslots ? x->nslots * 2 : 64) != 0)
        return RSC_E_NOMEM;
    size_t h = hash_state(best, c, m) & (x->nslots - 1);
    for (; x->slots[h]; h = (h + 1) & (x->nslots - 1)) {
        const xstate *q = &x->st[x->slots[h] - 1];
        if (q->best == best && q->n == m && (m == 0 || memcmp(x->w + q->off, c, m * sizeof *c) == 0)) {
            *id = x->slots[h] - 1;
            return RSC_OK;
        }
    }
    if (x->nst >= x->max_states || x->nw + x->nmv + m > x->max_words)
        return RSC_E_LIMIT;
    if (rsc_mem_grow(x->m, (void **)&x->st, sizeof *x->st, &x->cap_st, x->nst + 1) != 0 ||
        rsc_mem_grow(x->m, (void **)&x->w, sizeof *x->w, &x->cap_w, x->nw + m + 1) != 0)
        return RSC_E_NOMEM;
    xstate *q = &x->st[x->nst];
    q->off = (uint32_t)x->nw;
    q->n = (uint32_t)m;
    q->best = best;
    q->moves = 0;
    if (m)
        memcpy(x->w + x->nw, c, m * sizeof *c);
    x->nw += m;
    /* the end of a path here: anchored rules at their end (after
     * normalising, the only residuals that match the empty continuation) */
    int64_t fin = -1;
    for (size_t k = 0; k < m; k++) {
        uint32_t i = x->prule[c[k]];
        if ((x->pcode[c[k]] & P_DONE) && (fin < 0 || r[i].rank > r[fin].rank))
            fin = i;
    }
    if (x->mode == RSC_X_RANK) {
        if (best && (fin < 0 || r[best - 1].rank > r[fin].rank))
            fin = (int64_t)best - 1;
        q->end_rule = (int32_t)fin;
        q->end_allow = fin < 0 ? 1 : r[fin].allow;
    } else {
        q->end_rule = (int32_t)fin;
        q->end_allow = (uint8_t)(fin < 0 ? best : r[fin].allow);
    }
    x->slots[h] = (uint32_t)x->nst + 1;
    *id = (uint32_t)x->nst++;
    return RSC_OK;
}

/* Lays the rules out as positions (subset.h, note [positions]): in rank
 * order, each rule's normalised text with one position past it. */
static rsc_status positions(rsc_xdfa *x)
{
    rsc_mem *m = x->m;
    const size_t n = x->n, cap = x->cap_pos;
    uint64_t *ord = rsc_mem_calloc(m, n + 1, sizeof *ord);
    uint8_t *text = rsc_mem_alloc(m, cap);
    uint32_t *scratch = rsc_mem_alloc(m, rsc_sub_scratch((uint32_t)cap) * sizeof *scratch);
    rsc_status st = ord && text && scratch ? RSC_OK : RSC_E_NOMEM;
    if (st == RSC_OK) {
        for (size_t i = 0; i < n; i++)
            ord[i] = (uint64_t)x->r[i].rank << 32 | i;
        qsort(ord, n, sizeof *ord, rsc_cmp_u64);
        uint32_t p = 0;
        for (size_t k = 0; k < n; k++) {
            const uint32_t i = (uint32_t)ord[k];
            const rsc_xrule *ru = &x->r[i];
            int anch = ru->anchored;
            const uint32_t len = rsc_sub_text(ru->bytes, ru->len, text, &anch);
            const uint16_t allow = ru->allow ? P_ALLOW : 0;
            x->base[i] = p;
            for (uint32_t j = 0; j < len; j++, p++) {
                x->pcode[p] = (uint16_t)((text[j] == '*' ? P_STAR : text[j]) | allow);
                x->prule[p] = i;
            }
            x->pcode[p] = (uint16_t)((anch ? P_DONE : P_MATCH) | allow);
            x->prule[p++] = i;
        }
        rsc_sub_residuals(x->pcode, p, x->rid, x->nstar, scratch);
    }
    rsc_mem_free(m, ord, (n + 1) * sizeof *ord);
    rsc_mem_free(m, text, cap);
    rsc_mem_free(m, scratch, rsc_sub_scratch((uint32_t)cap) * sizeof *scratch);
    return st;
}

rsc_status rsc_xdfa_new(rsc_mem *m, const rsc_xrule *rules, size_t n, int mode,
                        size_t max_states, size_t max_words, rsc_xdfa **out)
{
    *out = NULL;
    if (n > UINT32_MAX / 4)
        return RSC_E_LIMIT;
    rsc_xdfa *x = rsc_mem_calloc(m, 1, sizeof *x);
    if (!x)
        return RSC_E_NOMEM;
    x->m = m;
    x->r = rules;
    x->n = n;
    x->mode = mode;
    x->max_states = max_states ? max_states : RSC_X_DEFAULT_STATES;
    x->max_words = max_words ? max_words : RSC_X_DEFAULT_WORDS;
    size_t npos = 0; /* before normalising: at least as many */
    for (size_t i = 0; i < n; i++) {
        npos += (size_t)rules[i].len + 1;
        if (npos > x->max_words / 24 || npos > UINT32_MAX / 4) { /* ~20 words a position */
            rsc_xdfa_free(x);
            return RSC_E_LIMIT;
        }
    }
    x->cap_pos = npos + 1;
    x->base = rsc_mem_calloc(m, n + 1, sizeof *x->base);
    x->prule = rsc_mem_calloc(m, x->cap_pos, sizeof *x->prule);
    x->pcode = rsc_mem_calloc(m, x->cap_pos, sizeof *x->pcode);
    x->rid = rsc_mem_calloc(m, x->cap_pos, sizeof *x->rid);
    x->nstar = rsc_mem_calloc(m, x->cap_pos, sizeof *x->nstar);
    x->mark = rsc_mem_calloc(m, x->cap_pos, sizeof *x->mark);
    x->stamp = rsc_mem_calloc(m, x->cap_pos, sizeof *x->stamp);
    x->run = rsc_mem_calloc(m, x->cap_pos, sizeof *x->run);
    if (!x->run || !x->base || !x->prule || !x->pcode || !x->rid || !x->nstar || !x->mark ||
        !x->stamp) {
        rsc_xdfa_free(x);
        return RSC_E_NOMEM;
    }
    rsc_status st = positions(x);
    size_t nc = 0;
    clock_tick(x);
    for (size_t i = 0; i < n && st == RSC_OK; i++)
        if (cand_add(x, &nc, x->base[i]) != 0)
            st = RSC_E_NOMEM;
    if (st == RSC_OK)
        st = make_state(x, nc, mode == RSC_X_RANK ? 0 : 1, &x->start);
    if (st != RSC_OK) {
        rsc_xdfa_free(x);
        return st;
    }
    *out = x;
    return RSC_OK;
}

void rsc_xdfa_free(rsc_xdfa *x)
{
    if (!x)
        return;
    rsc_mem *m = x->m;
    size_t n = x->n, np = x->cap_pos;
    rsc_mem_free(m, x->base, (n + 1) * sizeof *x->base);
    rsc_mem_free(m, x->prule, np * sizeof *x->prule);
    rsc_mem_free(m, x->pcode, np * sizeof *x->pcode);
    rsc_mem_free(m, x->rid, np * sizeof *x->rid);
    rsc_mem_free(m, x->nstar, np * sizeof *x->nstar);
    rsc_mem_free(m, x->mark, np * sizeof *x->mark);
    rsc_mem_free(m, x->stamp, np * sizeof *x->stamp);
    rsc_mem_free(m, x->run, np * sizeof *x->run);
    rsc_mem_free(m, x->st, x->cap_st * sizeof *x->st);
    rsc_mem_free(m, x->w, x->cap_w * sizeof *x->w);
    rsc_mem_free(m, x->mv, x->cap_mv * sizeof *x->mv);
    rsc_mem_free(m, x->slots, x->nslots * sizeof *x->slots);
    rsc_mem_free(m, x->cand, x->cap_cand * sizeof *x->cand);
    rsc_mem_free(m, x->sorted, x->cap_sorted * sizeof *x->sorted);
    rsc_mem_free(m, x->clos, x->cap_clos * sizeof *x->clos);
    rsc_mem_free(m, x->succ, x->cap_succ * sizeof *x->succ);
    rsc_mem_free(m, x, sizeof *x);
}

uint32_t rsc_xdfa_start(const rsc_xdfa *x)
{
    return x->start;
}

size_t rsc_xdfa_count(const rsc_xdfa *x)
{
    return x->nst;
}

int32_t rsc_xdfa_end(const rsc_xdfa *x, uint32_t s, int *allowed)
{
    *allowed = x->st[s].end_allow;
    return x->st[s].end_rule;
}

/* What position pos reads next: 0 a wildcard, 1 + a byte, 257 nothing
 * (an anchored rule at its end). */
static unsigned next_key(const rsc_xdfa *x, uint32_t pos)
{
    const uint16_t code = x->pcode[pos];
    if (code & (P_DONE | P_MATCH))
        return 257u;
    return code & P_STAR ? 0u : 1u + (code & 0xffu);
}

static void moves_of(const rsc_xdfa *x, uint32_t s, rsc_xmoves *mv)
{
    const uint32_t *p = x->mv + x->st[s].moves - 1;
    mv->other = p[0];
    mv->n = p[1];
    mv->pairs = p + 2;
}

rsc_status rsc_xdfa_moves(rsc_xdfa *x, uint32_t s, rsc_xmoves *mv)
{
    if (x->st[s].moves) {
        moves_of(x, s, mv);
        return RSC_OK;
    }
    uint32_t n0 = x->st[s].n, best = x->st[s].best;
    /* the state's closure over '*', whose moves are the state's */
    if (rsc_mem_grow(x->m, (void **)&x->clos, sizeof *x->clos, &x->cap_clos, 2 * (size_t)n0 + 1) != 0 ||
        rsc_mem_grow(x->m, (void **)&x->sorted, sizeof *x->sorted, &x->cap_sorted, 2 * (size_t)n0 + 1) != 0)
        return RSC_E_NOMEM;
    size_t nc = 0;
    clock_tick(x);
    for (uint32_t k = 0; k < n0; k++) {
        if (cand_add(x, &nc, x->w[x->st[s].off + k]) != 0)
            return RSC_E_NOMEM;
    }
    uint32_t n = (uint32_t)nc;
    if (nc) /* cand is NULL before its first use */
        memcpy(x->clos, x->cand, nc * sizeof *x->cand);
    const uint32_t *P = x->clos;
    /* the positions by the byte they read next, wildcards first */
    uint32_t cnt[258];
    memset(cnt, 0, sizeof cnt);
    for (uint32_t k = 0; k < n; k++)
        cnt[next_key(x, P[k])]++;
    uint32_t at[258], sum = 0;
    for (unsigned b = 0; b < 258; b++)
        at[b] = sum, sum += cnt[b];
    for (uint32_t k = 0; k < n; k++)
        x->sorted[at[next_key(x, P[k])]++] = P[k];
    const uint32_t n_star = cnt[0];
    uint32_t n_bytes = 0;
    for (unsigned b = 1; b < 257; b++)
        n_bytes += cnt[b] != 0;
    size_t need = 2 + 2 * (size_t)n_bytes;
    if (x->nw + x->nmv + need > x->max_words)
        return RSC_E_LIMIT;
    if (rsc_mem_grow(x->m, (void **)&x->succ, sizeof *x->succ, &x->cap_succ, need) != 0)
        return RSC_E_NOMEM;
    /* successors are built before the moves are stored: x->succ holds them */
    uint32_t *succ = x->succ;
    nc = 0;
    clock_tick(x);
    for (uint32_t k = 0; k < n_star; k++)
        if (cand_add(x, &nc, x->sorted[k]) != 0)
            return RSC_E_NOMEM;
    rsc_status st = make_state(x, nc, best, &succ[0]);
    if (st != RSC_OK)
        return st;
    succ[1] = n_bytes;
    uint32_t k0 = n_star, q = 2;
    for (unsigned b = 1; b < 257 && st == RSC_OK; b++) {
        if (!cnt[b])
            continue;
        nc = 0;
        clock_tick(x);
        for (uint32_t k = 0; k < n_star && st == RSC_OK; k++) {
            if (cand_add(x, &nc, x->sorted[k]) != 0)
                st = RSC_E_NOMEM;
        }
        for (uint32_t k = k0; k < k0 + cnt[b] && st == RSC_OK; k++) {
            if (cand_add(x, &nc, x->sorted[k] + 1) != 0)
                st = RSC_E_NOMEM;
        }
        k0 += cnt[b];
        uint32_t id = 0;
        if (st == RSC_OK)
            st = make_state(x, nc, best, &id);
        succ[q++] = b - 1;
        succ[q++] = id;
    }
    if (st == RSC_OK && x->nw + x->nmv + need > x->max_words)
        st = RSC_E_LIMIT;
    if (st == RSC_OK &&
        rsc_mem_grow(x->m, (void **)&x->mv, sizeof *x->mv, &x->cap_mv, x->nmv + need) != 0)
        st = RSC_E_NOMEM;
    if (st == RSC_OK) {
        memcpy(x->mv + x->nmv, succ, need * sizeof *succ);
        x->st[s].moves = (uint32_t)x->nmv + 1;
        x->nmv += need;
        moves_of(x, s, mv);
    }
    return st;
}

rsc_status rsc_xdfa_step(rsc_xdfa *x, uint32_t s, uint8_t c, uint32_t *next)
{
    rsc_xmoves mv;
    rsc_status st = rsc_xdfa_moves(x, s, &mv);
    if (st != RSC_OK)
        return st;
    *next = mv.other;
    for (uint32_t k = 0; k < mv.n; k++)
        if (mv.pairs[2 * k] == c)
            *next = mv.pairs[2 * k + 1];
    return RSC_OK;
}

/* ---- the walk ------------------------------------------------------------ */

#define RT_OFF 12u /* not a prefix of "/robots.txt" */
static const char robots_path[] = "/robots.txt"; /* 11 bytes */

typedef struct xnode {
    uint32_t sa, sb, parent;
    uint8_t byte;
    uint16_t rt; /* bits 0-3: the "/robots.txt" prefix; 4-8: XESC_* (rfc) */
} xnode;

/* The rfc profile's paths are normalised (FORMAT.md, Matching): a '%' there
 * always starts an escape of two upper-case hex digits that is no
 * unreserved byte (a lone '%' becomes %25). The walk keeps to such paths,
 * so that every witness is the normalisation of a real path (itself):
 * 0 outside an escape, XESC_PCT after its '%', XESC_HEX + d after its first
 * digit d. */
#define XESC_PCT 1u
#define XESC_HEX 2u
#define RT_OF(k) ((k) & 15u)
#define ESC_OF(k) ((k) >> 4)

struct rsc_xwalk {
    rsc_mem *m;
    xnode *nd;
    size_t n, cap;
    uint32_t *slots;
    size_t nslots;
};

static uint32_t hash_node(uint32_t sa, uint32_t sb, uint32_t rt)
{
    uint32_t h = (sa * 2654435761u) ^ (sb * 2246822519u) ^ (rt * 3266489917u);
    return h ^ (h >> 15);
}

static int walk_rehash(rsc_xwalk *w, size_t nslots)
{
    uint32_t *s = rsc_mem_calloc(w->m, nslots, sizeof *s);
    if (!s)
        return -1;
    for (size_t k = 0; k < w->n; k++) {
        size_t i = hash_node(w->nd[k].sa, w->nd[k].sb, w->nd[k].rt) & (nslots - 1);
        while (s[i])
            i = (i + 1) & (nslots - 1);
        s[i] = (uint32_t)k + 1;
    }
    rsc_mem_free(w->m, w->slots, w->nslots * sizeof *w->slots);
    w->slots = s;
    w->nslots = nslots;
    return 0;
}

/* Adds node (sa, sb, rt) reached from parent by byte c, unless known. */
static rsc_status walk_add(rsc_xwalk *w, size_t max, uint32_t sa, uint32_t sb, uint32_t rt,
                           uint32_t parent, uint8_t c)
{
    if ((w->n + 1) * 2 > w->nslots && walk_rehash(w, w->nslots ? w->nslots * 2 : 256) != 0)
        return RSC_E_NOMEM;
    size_t h = hash_node(sa, sb, rt) & (w->nslots - 1);
    for (; w->slots[h]; h = (h + 1) & (w->nslots - 1)) {
        const xnode *q = &w->nd[w->slots[h] - 1];
        if (q->sa == sa && q->sb == sb && q->rt == rt)
            return RSC_OK;
    }
    if (w->n >= max)
        return RSC_E_LIMIT;
    if (rsc_mem_grow(w->m, (void **)&w->nd, sizeof *w->nd, &w->cap, w->n + 1) != 0)
        return RSC_E_NOMEM;
    xnode *q = &w->nd[w->n];
    q->sa = sa, q->sb = sb, q->rt = (uint16_t)rt, q->parent = parent, q->byte = c;
    w->slots[h] = (uint32_t)w->n + 1;
    w->n++;
    return RSC_OK;
}

static int hexval(unsigned c)
{
    return c >= '0' && c <= '9' ? (int)(c - '0') : c >= 'A' && c <= 'F' ? (int)(c - 'A' + 10) : -1;
}

static int unreserved_byte(unsigned c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

/* Whether byte c may follow in a path whose escape state is esc. */
static int forbidden_in(int rfc, unsigned esc, unsigned c)
{
    if (c == 0 || c == '#' || (rfc && c >= 0x80))
        return 1;
    if (!rfc || esc == 0)
        return 0;
    if (hexval(c) < 0)
        return 1;
    return esc >= XESC_HEX && unreserved_byte(((esc - XESC_HEX) << 4) | (unsigned)hexval(c));
}

static int forbidden(int rfc, unsigned c)
{
    return forbidden_in(rfc, 0, c);
}

/* The escape state after byte c (rfc). */
static unsigned esc_next(int rfc, unsigned esc, unsigned c)
{
    if (!rfc)
        return 0;
    if (esc == 0)
        return c == '%' ? XESC_PCT : 0;
    if (esc == XESC_PCT)
        return XESC_HEX + (unsigned)hexval(c);
    return 0;
}

/* A byte for "every other byte": readable when one is free (used[] marks
 * the bytes that are taken or forbidden). */
static int other_byte(const uint8_t *used, int rfc, unsigned avoid)
{
    static const char nice[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-_.~";
    for (const char *p = nice; *p; p++)
        if (!used[(uint8_t)*p] && (uint8_t)*p != avoid)
            return (uint8_t)*p;
    for (unsigned c = 1; c < 256; c++)
        if (!used[c] && c != avoid && !forbidden(rfc, c))
            return (int)c;
    return -1;
}

rsc_status rsc_xwalk_run(rsc_mem *m, rsc_xdfa *a, rsc_xdfa *b, int rfc, size_t max_nodes,
                         rsc_xvisit_fn fn, void *ud, rsc_xwalk **walk)
{
    if (walk)
        *walk = NULL;
    rsc_xwalk *w = rsc_mem_calloc(m, 1, sizeof *w);
    if (!w)
        return RSC_E_NOMEM;
    w->m = m;
    size_t max = max_nodes ? max_nodes : RSC_X_DEFAULT_NODES;
    uint32_t sa, sb = 0;
    rsc_status st = rsc_xdfa_step(a, rsc_xdfa_start(a), '/', &sa);
    if (st == RSC_OK && b)
        st = rsc_xdfa_step(b, rsc_xdfa_start(b), '/', &sb);
    if (st == RSC_OK)
        st = walk_add(w, max, sa, sb, rfc ? 1 : RT_OFF, UINT32_MAX, '/');
    for (size_t i = 0; st == RSC_OK && i < w->n; i++) {
        const xnode q = w->nd[i];
        const unsigned qrt = RT_OF(q.rt), qesc = ESC_OF(q.rt);
        /* A path that ends inside an escape is no normalised path. */
        int v = qesc ? 0 : fn(ud, w, (uint32_t)i, q.sa, q.sb, rfc && qrt == 11);
        if (v > 0)
            break;
        if (v < 0) {
            st = (rsc_status)-v;
            break;
        }
        rsc_xmoves ma, mb = {q.sb, 0, NULL};
        if ((st = rsc_xdfa_moves(a, q.sa, &ma)) != RSC_OK)
            break;
        if (b && (st = rsc_xdfa_moves(b, q.sb, &mb)) != RSC_OK)
            break;
        uint8_t used[256];
        memset(used, 0, sizeof used);
        unsigned want = qrt < 11 ? (uint8_t)robots_path[qrt] : 256;
        uint32_t ia = 0, ib = 0;
        while (st == RSC_OK && (ia < ma.n || ib < mb.n)) {
            uint32_t ca = ia < ma.n ? ma.pairs[2 * ia] : 256;
            uint32_t cb = ib < mb.n ? mb.pairs[2 * ib] : 256;
            uint32_t c = ca < cb ? ca : cb;
            uint32_t ta = ma.other, tb = mb.other;
            if (ca == c)
                ta = ma.pairs[2 * ia++ + 1];
            if (cb == c)
                tb = mb.pairs[2 * ib++ + 1];
            used[c] = 1;
            if (forbidden_in(rfc, qesc, c))
                continue;
            st = walk_add(w, max, ta, tb, (c == want ? qrt + 1u : RT_OFF) | esc_next(rfc, qesc, c) << 4,
                          (uint32_t)i, (uint8_t)c);
        }
        if (st != RSC_OK)
            break;
        for (unsigned c = 0; c < 256; c++)
            used[c] |= (uint8_t)forbidden_in(rfc, qesc, c);
        int o = other_byte(used, rfc, want);
        if (o >= 0)
            st = walk_add(w, max, ma.other, mb.other, RT_OFF | esc_next(rfc, qesc, (unsigned)o) << 4, (uint32_t)i,
                          (uint8_t)o);
        else if (want < 256 && !used[want]) /* the only byte left */
            st = walk_add(w, max, ma.other, mb.other, (qrt + 1u) | esc_next(rfc, qesc, want) << 4, (uint32_t)i,
                          (uint8_t)want);
    }
    if (walk)
        *walk = w;
    else
        rsc_xwalk_free(w);
    return st;
}

size_t rsc_xwalk_nodes(const rsc_xwalk *w)
{
    return w ? w->n : 0;
}

size_t rsc_xwalk_path(const rsc_xwalk *w, uint32_t node, uint8_t *buf, size_t cap)
{
    size_t len = 0;
    for (uint32_t k = node; k != UINT32_MAX; k = w->nd[k].parent)
        len++;
    if (len > cap)
        return len;
    size_t i = len;
    for (uint32_t k = node; k != UINT32_MAX; k = w->nd[k].parent)
        buf[--i] = w->nd[k].byte;
    return len;
}

void rsc_xwalk_free(rsc_xwalk *w)
{
    if (!w)
        return;
    rsc_mem_free(w->m, w->nd, w->cap * sizeof *w->nd);
    rsc_mem_free(w->m, w->slots, w->nslots * sizeof *w->slots);
    rsc_mem_free(w->m, w, sizeof *w);
}
