/* SPDX-License-Identifier: Apache-2.0 */
/* The explorer: lazy priority-annotated subset construction over a rule
 * list, and a breadth-first walk over one automaton or the product of two
 * (explore.h, note [explorer states]). Memory is bounded by the budgets
 * given: past them a call answers RSC_E_LIMIT, and the caller says
 * "unknown" rather than guess. */
#include <stdlib.h>
#include <string.h>

#include "explore.h"

/* note [explorer dominance]
 * A position p = (rule i, j) stands for its residual: the rest of the
 * rule's match text from j (normalised: runs of '*' collapsed, a trailing
 * '*' dropped, "s*$" read as "s" unanchored, all equivalent, E.3-E.4) and
 * whether the rule is anchored. M(p) is the set of path continuations w
 * that p matches (a prefix of w for an unanchored rule, all of w for an
 * anchored one). A state means the function w -> the rule deciding
 * path.w (RSC_X_RANK) or its verdict (RSC_X_VERDICT); any representation
 * with that meaning is exact. Position q dominates p, D(q, p), when
 *   (S) M(p) is within M(q), seen syntactically: q's residual equals p's
 *       (then q unanchored or both anchored), or q's is "*t" and p's is t or
 *       ends with "*t" (t after a '*' of p's own residual; q unanchored, or
 *       both anchored: an anchored p matching s*t ends with a match of t);
 *   (O) and q may decide in p's place: q outranks p (rank, then the
 *       further position of one rule), or q is in p's band and their
 *       residuals differ. A band is a rule alone (RSC_X_RANK) or, in
 *       RSC_X_VERDICT, a maximal run of live rules, in rank order, of one
 *       verdict.
 * Every position dominated by a live one is dropped at once. D is acyclic:
 * edges of (S) with different residuals either go from a residual t to
 * "*t" (from a residual without a leading '*' to one with it; only equal
 * residuals lead back to one without) or to a strictly shorter residual,
 * so a cycle would use equal residuals only, and those edges need q to
 * outrank p. Hence every dropped p has a chain of dominators ending in a
 * kept position z, M(p) within M(z). Exactness: let r be the best live
 * rule matching some w, through a dropped p. RSC_X_RANK: every edge of the
 * chain goes up in rank or stays in the rule, and every link matches w, so
 * z is a position of r itself (none outranks r): r still decides.
 * RSC_X_VERDICT: by induction along the chain, every live rule ranked from
 * the lowest link up to r has r's verdict (a band edge adds no rule of the
 * other verdict, an edge up stays below r); the best kept rule matching w
 * lies in that range, so the verdict stands. A state keeps no closure
 * under skipping '*': dropping t beside "*t" loses nothing, since the
 * moves are computed from the closure (which adds only positions whose M
 * is within that of a kept position of the same rule). */

typedef struct xstate {
    uint32_t off, n;  /* positions: words[off .. off + n), in no order   */
    uint32_t best;    /* RANK: 1 + the best rule's index, 0 none;
                         VERDICT: the best's verdict, 1 allowed        */
    uint32_t moves;   /* 1 + offset of its moves in mv, 0 not built    */
    int32_t end_rule; /* rsc_xdfa_end()                                */
    uint8_t end_allow;
} xstate;

typedef struct xoffer { /* the best dominator offered to a residual */
    uint32_t clock;
    uint32_t rank[2], j[2], band[2]; /* [anchored]; rank 0: none */
} xoffer;

#define X_STAR_TAILS 16u /* star boundaries of a residual checked (the nearest) */
enum { X_CHECKED = 1, X_OFFERS_E = 2, X_OFFERS_W = 4 }; /* pflag: what can meet another position */

struct rsc_xdfa {
    rsc_mem *m;
    const rsc_xrule *r;
    size_t n;
    int mode;
    size_t max_states, max_words;
    uint8_t *tx;     /* normalised match texts                          */
    uint32_t *toff;  /* per rule: its text in tx                        */
    uint32_t *tl;    /* per rule: its text's length                     */
    uint8_t *anch;   /* per rule: anchored after normalising            */
    uint32_t *base;  /* per rule: its first position id (n + 1 entries) */
    uint32_t *prule; /* per position id: its rule                       */
    uint32_t *tid;   /* per position id: its residual's text id         */
    uint32_t *nstar; /* per position id: j of the next '*' at or after  */
    uint8_t *pflag;  /* per position id: X_CHECKED, X_OFFERS_*          */
    size_t npos, ntid;
    xoffer *off2;    /* per text id: [0] equal residual, [1] "*t"       */
    uint32_t *rord;  /* per rule: its place in rank order               */
    uint32_t *rstamp, *rband; /* per rule: live-rule clock, band        */
    uint32_t *live;  /* scratch: the live rules of a state              */
    size_t cap_live;
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
    uint32_t *stamp; /* per position id: dedupe clock */
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
        memset(x->stamp, 0, x->npos * sizeof *x->stamp);
        memset(x->rstamp, 0, x->n * sizeof *x->rstamp);
        memset(x->off2, 0, 2 * x->ntid * sizeof *x->off2);
        x->clock = 1;
    }
}

/* Position (i, j) and its closure over '*' (one step: runs are collapsed),
 * each once per candidate list (clock_tick() starts one). */
static int cand_add(rsc_xdfa *x, size_t *nc, uint32_t i, uint32_t j)
{
    const uint8_t *t = x->tx + x->toff[i];
    for (;;) {
        uint32_t pos = x->base[i] + j;
        if (x->stamp[pos] == x->clock)
            return 0; /* its closure is in already */
        x->stamp[pos] = x->clock;
        if (cand_push(x, nc, pos) != 0)
            return -1;
        if (j >= x->tl[i] || t[j] != '*')
            return 0;
        j++;
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

/* Whether key (rank a, position ja) is above (rank b, position jb). */
static int above(uint32_t a, uint32_t ja, uint32_t b, uint32_t jb)
{
    return a != b ? a > b : ja > jb;
}

static void offer(xoffer *o, uint32_t clock, int anchored, uint32_t rank, uint32_t j, uint32_t band)
{
    if (o->clock != clock) {
        o->clock = clock;
        o->rank[0] = o->rank[1] = 0;
    }
    if (o->rank[anchored] == 0 || above(rank, j, o->rank[anchored], o->j[anchored])) {
        o->rank[anchored] = rank;
        o->j[anchored] = j;
        o->band[anchored] = band;
    }
}

/* Whether the offers at o dominate p (rank, j, band; its residual equal to
 * theirs or not): note [explorer dominance] (O). */
static int dominated_by(const xoffer *o, uint32_t clock, int anchored, uint32_t rank, uint32_t j,
                        uint32_t band, int equal)
{
    if (o->clock != clock)
        return 0;
    for (int a = 0; a <= anchored; a++) /* an unanchored p: unanchored offers only */
        if (o->rank[a] && (above(o->rank[a], o->j[a], rank, j) || (!equal && o->band[a] == band)))
            return 1;
    return 0;
}

static int cmp_ord(const void *a, const void *b, const rsc_xdfa *x)
{
    uint32_t p = x->rord[*(const uint32_t *)a], q = x->rord[*(const uint32_t *)b];
    return p < q ? -1 : p > q;
}

/* The bands of the live rules of c[0..m) (note [explorer dominance]). */
static rsc_status bands(rsc_xdfa *x, const uint32_t *c, size_t m)
{
    size_t nl = 0;
    for (size_t k = 0; k < m; k++) {
        uint32_t i = x->prule[c[k]];
        if (x->rstamp[i] == x->clock)
            continue;
        x->rstamp[i] = x->clock;
        if (x->mode == RSC_X_RANK) {
            x->rband[i] = x->r[i].rank;
            continue;
        }
        if (rsc_mem_grow(x->m, (void **)&x->live, sizeof *x->live, &x->cap_live, nl + 1) != 0)
            return RSC_E_NOMEM;
        x->live[nl++] = i;
    }
    if (x->mode == RSC_X_RANK)
        return RSC_OK;
    size_t n_allow = 0;
    for (size_t k = 0; k < nl; k++)
        n_allow += x->r[x->live[k]].allow;
    if (n_allow == 0 || n_allow == nl) { /* one verdict: one band */
        for (size_t k = 0; k < nl; k++)
            x->rband[x->live[k]] = 0;
        return RSC_OK;
    }
    for (size_t k = 1; k < nl; k++) { /* by rank: few rules are live at once */
        uint32_t v = x->live[k];
        size_t j = k;
        while (j > 0 && cmp_ord(&x->live[j - 1], &v, x) > 0) {
            x->live[j] = x->live[j - 1];
            j--;
        }
        x->live[j] = v;
    }
    uint32_t band = 0;
    for (size_t k = 0; k < nl; k++) {
        if (k && x->r[x->live[k]].allow != x->r[x->live[k - 1]].allow)
            band++;
        x->rband[x->live[k]] = band;
    }
    return RSC_OK;
}

/* Drops every position of c[0..*m) that a live one dominates. */
static rsc_status drop_dominated(rsc_xdfa *x, uint32_t *c, size_t *m)
{
    size_t checked = 0;
    for (size_t k = 0; k < *m; k++)
        checked += (x->pflag[c[k]] & X_CHECKED) != 0;
    if (checked == 0)
        return RSC_OK;
    clock_tick(x);
    rsc_status st = bands(x, c, *m);
    if (st != RSC_OK)
        return st;
    const uint32_t ck = x->clock;
    for (size_t k = 0; k < *m; k++) {
        uint32_t p = c[k], i = x->prule[p], j = p - x->base[i];
        int a = x->anch[i];
        if (x->pflag[p] & X_OFFERS_E)
            offer(&x->off2[2 * x->tid[p]], ck, a, x->r[i].rank, j, x->rband[i]);
        if (x->pflag[p] & X_OFFERS_W)
            offer(&x->off2[2 * x->tid[p + 1] + 1], ck, a, x->r[i].rank, j, x->rband[i]);
    }
    size_t k2 = 0;
    for (size_t k = 0; k < *m; k++) {
        uint32_t p = c[k], i = x->prule[p], j = p - x->base[i];
        if (!(x->pflag[p] & X_CHECKED)) {
            c[k2++] = p;
            continue;
        }
        uint32_t rk = x->r[i].rank, bd = x->rband[i], len = x->tl[i];
        int a = x->anch[i];
        /* equal residual; p's residual is t of "*t"; p's ends with "*t" */
        int dom = dominated_by(&x->off2[2 * x->tid[p]], ck, a, rk, j, bd, 1) ||
                  dominated_by(&x->off2[2 * x->tid[p] + 1], ck, a, rk, j, bd, 0);
        uint32_t s = x->nstar[p];
        for (unsigned t = 0; !dom && s < len && t < X_STAR_TAILS; t++) {
            uint32_t after = x->base[i] + s + 1;
            dom = dominated_by(&x->off2[2 * x->tid[after] + 1], ck, a, rk, j, bd, s == j);
            s = x->nstar[after];
        }
        if (!dom)
            c[k2++] = p;
    }
    *m = k2;
    return RSC_OK;
}

/* Turns cand[0..nc) (closed positions after a move, or the start) and the
 * predecessor's best into a state: completions, pruning (note [explorer
 * states], note [explorer dominance]), then interning. */
static rsc_status make_state(rsc_xdfa *x, size_t nc, uint32_t best_in, uint32_t *id)
{
    const rsc_xrule *r = x->r;
    uint32_t *c = x->cand;
    /* completions: unanchored rules at their end (cand has no duplicates) */
    int64_t done = -1;
    for (size_t k = 0; k < nc; k++) {
        uint32_t i = x->prule[c[k]];
        if (c[k] == x->base[i] + x->tl[i] && !x->anch[i] && (done < 0 || r[i].rank > rank_of(x, (uint32_t)done)))
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
    rsc_status ds = drop_dominated(x, c, &m);
    if (ds != RSC_OK)
        return ds;
    /* intern: the same set (stamped) and the same best */
    clock_tick(x);
    for (size_t k = 0; k < m; k++)
        x->stamp[c[k]] = x->clock;
    if ((x->nst + 1) * 2 > x->nslots && rehash(x, x->nslots ? x->nslots * 2 : 64) != 0)
        return RSC_E_NOMEM;
    size_t h = hash_state(best, c, m) & (x->nslots - 1);
    for (; x->slots[h]; h = (h + 1) & (x->nslots - 1)) {
        const xstate *q = &x->st[x->slots[h] - 1];
        if (q->best != best || q->n != m)
            continue;
        size_t k = 0;
        while (k < m && x->stamp[x->w[q->off + k]] == x->clock)
            k++;
        if (k == m) {
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
        if (x->anch[i] && c[k] == x->base[i] + x->tl[i] && (fin < 0 || r[i].rank > r[fin].rank))
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

/* Normalises rule i's text into x->tx at *at (note [explorer dominance]). */
static void normalise(rsc_xdfa *x, size_t i, uint32_t *at)
{
    const rsc_xrule *r = &x->r[i];
    uint8_t *o = x->tx + *at;
    uint32_t k = 0;
    for (uint32_t j = 0; j < r->len; j++)
        if (r->bytes[j] != '*' || k == 0 || o[k - 1] != '*')
            o[k++] = r->bytes[j];
    uint8_t anchored = r->anchored;
    if (k && o[k - 1] == '*') { /* "s*" is "s", and so is "s*$" */
        k--;
        anchored = 0;
    }
    x->toff[i] = *at;
    x->tl[i] = k;
    x->anch[i] = anchored;
    *at += k;
}

/* Text ids by hash-consing from the end: two residual texts are equal
 * exactly when their first bytes and their tails' ids are. Id 0: "". */
static rsc_status text_ids(rsc_xdfa *x)
{
    size_t nslots = 64;
    while (nslots < 2 * (x->npos + 1))
        nslots *= 2;
    uint32_t *slot = rsc_mem_calloc(x->m, nslots, sizeof *slot);
    uint32_t *tail = rsc_mem_calloc(x->m, x->npos + 1, sizeof *tail);
    uint8_t *byte = rsc_mem_calloc(x->m, x->npos + 1, 1);
    rsc_status st = slot && tail && byte ? RSC_OK : RSC_E_NOMEM;
    uint32_t nt = 1;
    for (size_t i = 0; st == RSC_OK && i < x->n; i++) {
        const uint8_t *t = x->tx + x->toff[i];
        uint32_t b = x->base[i], len = x->tl[i], next_star = len;
        x->tid[b + len] = 0;
        x->nstar[b + len] = len;
        for (uint32_t j = len; j-- > 0;) {
            uint32_t tl = x->tid[b + j + 1];
            size_t h = mix32(tl * 257u + t[j]) & (nslots - 1);
            uint32_t id = 0;
            for (; slot[h]; h = (h + 1) & (nslots - 1))
                if (byte[slot[h]] == t[j] && tail[slot[h]] == tl) {
                    id = slot[h];
                    break;
                }
            if (!id) {
                id = nt++;
                byte[id] = t[j];
                tail[id] = tl;
                slot[h] = id;
            }
            x->tid[b + j] = id;
            if (t[j] == '*')
                next_star = j;
            x->nstar[b + j] = next_star;
        }
    }
    x->ntid = nt;
    /* which positions can take part in dominance at all: a check or an
     * offer no other position can meet is skipped (drop_dominated) */
    uint32_t *cnt_e = st == RSC_OK ? rsc_mem_calloc(x->m, 3 * (size_t)nt, sizeof *cnt_e) : NULL;
    if (st == RSC_OK && !cnt_e)
        st = RSC_E_NOMEM;
    if (st == RSC_OK) {
        uint32_t *cnt_w = cnt_e + nt, *chk_w = cnt_w + nt;
        for (size_t i = 0; i < x->n; i++)
            for (uint32_t j = 0, b = x->base[i]; j <= x->tl[i]; j++) {
                cnt_e[x->tid[b + j]]++;
                if (j < x->tl[i] && x->tx[x->toff[i] + j] == '*')
                    cnt_w[x->tid[b + j + 1]]++;
                chk_w[x->tid[b + j]]++;
                uint32_t s = x->nstar[b + j];
                for (unsigned t = 0; s < x->tl[i] && t < X_STAR_TAILS; t++, s = x->nstar[b + s + 1])
                    chk_w[x->tid[b + s + 1]]++;
            }
        for (size_t i = 0; i < x->n; i++)
            for (uint32_t j = 0, b = x->base[i]; j <= x->tl[i]; j++) {
                uint32_t p = b + j;
                uint8_t f = 0;
                int star = j < x->tl[i] && x->tx[x->toff[i] + j] == '*';
                if (cnt_e[x->tid[p]] >= 2)
                    f |= X_CHECKED | X_OFFERS_E;
                if (cnt_w[x->tid[p]] >= 1)
                    f |= X_CHECKED;
                uint32_t s = x->nstar[p];
                for (unsigned t = 0; s < x->tl[i] && t < X_STAR_TAILS; t++, s = x->nstar[b + s + 1])
                    if (cnt_w[x->tid[b + s + 1]] >= (s == j ? 2u : 1u))
                        f |= X_CHECKED;
                if (star && chk_w[x->tid[p + 1]] >= 2) /* p checks its own */
                    f |= X_OFFERS_W;
                x->pflag[p] = f;
            }
        rsc_mem_free(x->m, cnt_e, 3 * (size_t)nt * sizeof *cnt_e);
    }
    rsc_mem_free(x->m, slot, nslots * sizeof *slot);
    rsc_mem_free(x->m, tail, (x->npos + 1) * sizeof *tail);
    rsc_mem_free(x->m, byte, x->npos + 1);
    return st;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
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
    size_t npos = 0;
    for (size_t i = 0; i < n; i++) {
        npos += (size_t)rules[i].len + 1;
        if (npos > x->max_words / 24 || npos > UINT32_MAX / 2) { /* ~20 words a position */
            rsc_xdfa_free(x);
            return RSC_E_LIMIT;
        }
    }
    x->npos = npos;
    x->tx = rsc_mem_alloc(m, npos + 1);
    x->toff = rsc_mem_calloc(m, n + 1, sizeof *x->toff);
    x->tl = rsc_mem_calloc(m, n + 1, sizeof *x->tl);
    x->anch = rsc_mem_calloc(m, n + 1, 1);
    x->base = rsc_mem_calloc(m, n + 1, sizeof *x->base);
    x->rord = rsc_mem_calloc(m, n + 1, sizeof *x->rord);
    x->rstamp = rsc_mem_calloc(m, n + 1, sizeof *x->rstamp);
    x->rband = rsc_mem_calloc(m, n + 1, sizeof *x->rband);
    x->prule = rsc_mem_calloc(m, npos + 1, sizeof *x->prule);
    x->tid = rsc_mem_calloc(m, npos + 1, sizeof *x->tid);
    x->nstar = rsc_mem_calloc(m, npos + 1, sizeof *x->nstar);
    x->stamp = rsc_mem_calloc(m, npos + 1, sizeof *x->stamp);
    x->pflag = rsc_mem_calloc(m, npos + 1, 1);
    uint64_t *ord = rsc_mem_calloc(m, n + 1, sizeof *ord);
    if (!x->tx || !x->toff || !x->tl || !x->anch || !x->base || !x->rord || !x->rstamp || !x->rband ||
        !x->prule || !x->tid || !x->nstar || !x->stamp || !x->pflag || !ord) {
        rsc_mem_free(m, ord, (n + 1) * sizeof *ord);
        rsc_xdfa_free(x);
        return RSC_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        ord[i] = (uint64_t)rules[i].rank << 32 | i;
    qsort(ord, n, sizeof *ord, cmp_u64);
    for (size_t k = 0; k < n; k++)
        x->rord[(uint32_t)ord[k]] = (uint32_t)k;
    rsc_mem_free(m, ord, (n + 1) * sizeof *ord);
    uint32_t p = 0, at = 0;
    for (size_t i = 0; i < n; i++) {
        normalise(x, i, &at);
        x->base[i] = p;
        for (uint32_t j = 0; j <= x->tl[i]; j++)
            x->prule[p++] = (uint32_t)i;
    }
    x->base[n] = p;
    rsc_status st = text_ids(x);
    if (st == RSC_OK) {
        x->off2 = rsc_mem_calloc(m, 2 * x->ntid, sizeof *x->off2);
        if (!x->off2)
            st = RSC_E_NOMEM;
    }
    size_t nc = 0;
    clock_tick(x);
    for (size_t i = 0; i < n && st == RSC_OK; i++)
        if (cand_add(x, &nc, (uint32_t)i, 0) != 0)
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
    size_t n = x->n, np = x->npos;
    rsc_mem_free(m, x->tx, np + 1);
    rsc_mem_free(m, x->toff, (n + 1) * sizeof *x->toff);
    rsc_mem_free(m, x->tl, (n + 1) * sizeof *x->tl);
    rsc_mem_free(m, x->anch, n + 1);
    rsc_mem_free(m, x->base, (n + 1) * sizeof *x->base);
    rsc_mem_free(m, x->rord, (n + 1) * sizeof *x->rord);
    rsc_mem_free(m, x->rstamp, (n + 1) * sizeof *x->rstamp);
    rsc_mem_free(m, x->rband, (n + 1) * sizeof *x->rband);
    rsc_mem_free(m, x->prule, (np + 1) * sizeof *x->prule);
    rsc_mem_free(m, x->tid, (np + 1) * sizeof *x->tid);
    rsc_mem_free(m, x->nstar, (np + 1) * sizeof *x->nstar);
    rsc_mem_free(m, x->stamp, (np + 1) * sizeof *x->stamp);
    rsc_mem_free(m, x->pflag, np + 1);
    rsc_mem_free(m, x->off2, 2 * x->ntid * sizeof *x->off2);
    rsc_mem_free(m, x->live, x->cap_live * sizeof *x->live);
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
    uint32_t i = x->prule[pos], j = pos - x->base[i];
    if (j >= x->tl[i])
        return 257u;
    uint8_t b = x->tx[x->toff[i] + j];
    return b == '*' ? 0u : 1u + b;
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
    /* the state's closure over '*' (note [explorer dominance]) */
    if (rsc_mem_grow(x->m, (void **)&x->clos, sizeof *x->clos, &x->cap_clos, 2 * (size_t)n0 + 1) != 0 ||
        rsc_mem_grow(x->m, (void **)&x->sorted, sizeof *x->sorted, &x->cap_sorted, 2 * (size_t)n0 + 1) != 0)
        return RSC_E_NOMEM;
    size_t nc = 0;
    clock_tick(x);
    for (uint32_t k = 0; k < n0; k++) {
        uint32_t pos = x->w[x->st[s].off + k], i = x->prule[pos];
        if (cand_add(x, &nc, i, pos - x->base[i]) != 0)
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
        if (cand_add(x, &nc, x->prule[x->sorted[k]], x->sorted[k] - x->base[x->prule[x->sorted[k]]]) != 0)
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
            uint32_t pos = x->sorted[k], i = x->prule[pos];
            if (cand_add(x, &nc, i, pos - x->base[i]) != 0)
                st = RSC_E_NOMEM;
        }
        for (uint32_t k = k0; k < k0 + cnt[b] && st == RSC_OK; k++) {
            uint32_t pos = x->sorted[k], i = x->prule[pos];
            if (cand_add(x, &nc, i, pos - x->base[i] + 1) != 0)
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
