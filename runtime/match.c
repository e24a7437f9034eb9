/* SPDX-License-Identifier: Apache-2.0 */
/* Matching on a verified program (docs/FORMAT.md, "Matching"). rsc_load()
 * has checked every varint, offset, rank and reference, so nothing here
 * re-checks the blob: the only bounds are those of the caller's input and
 * the fixed budgets of format.h, which size the per-call state on the
 * stack. No allocation and no path buffer: the path is read through a
 * byte source that puts the implicit '/' in front and, in the rfc profile,
 * normalises percent-encoding on the fly.
 *
 * A program is read in two passes over the path, each left to right and at
 * most once per byte: the walk down the literal trie (anchored rules, and
 * the root slots of wildcard rules it passes), then, when a root slot that
 * could still decide was passed, the Aho-Corasick automaton of the
 * wildcard segments from the shallowest such slot to the path's end. Work
 * per path byte is bounded by the budgets, never by the number of rules
 * (docs/LIMITS.md). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec.h"
#include "format.h"
#include "program.h"
#include "url.h"
#include "robotsc/runtime.h"

/* The automaton's inner functions must be inlined into the byte loops. */
#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

int rsc_program_profile(const rsc_program *prog)
{
    return (prog->flags & RSC_FLAG_PROFILE_RFC) != 0;
}

/* ---- The path as a byte source ---------------------------------------- */

/* The path p[0..n) with an optional '/' in front (spec G.5), ending early
 * at a NUL (spec A.5) or at term ('#' for a URL's fragment, spec G.4); in
 * the rfc profile normalised as FORMAT.md says. Copies are cheap, so a
 * pass starts again from a copy of the source it began with. */
typedef struct src {
    const uint8_t *p;
    size_t i, n;
    uint8_t term, rfc;
    uint8_t q[3], qi, qn; /* bytes made but not yet read */
} src;

static inline int src_get(src *s, uint8_t *c)
{
    if (s->qi < s->qn) {
        *c = s->q[s->qi++];
        return 1;
    }
    if (s->i == s->n)
        return 0;
    uint8_t b = s->p[s->i];
    if (b == 0 || b == s->term) {
        s->n = s->i; /* the path ends here: later reads stop at once */
        return 0;
    }
    s->i++;
    if (s->rfc && (b >= 0x80 || b == '%' || b == '*' || b == '$')) {
        uint8_t out[3] = {0, 0, 0};
        size_t used;
        /* NUL and '#' are not hex digits: the look-ahead stays in the path */
        unsigned k = rsc_pct_normal_path(s->p + s->i - 1, s->n - s->i + 1, out, &used);
        s->i += used - 1;
        *c = out[0];
        s->q[0] = out[1], s->q[1] = out[2], s->qi = 0, s->qn = (uint8_t)(k - 1);
        return 1;
    }
    *c = b;
    return 1;
}

/* Tables of a program and trie nodes: runtime/program.h (rsc_ptab_*,
 * rsc_node_head), shared with select.c. */
typedef rsc_ptab tab;
#define tab_open rsc_ptab_open
#define tab_skip rsc_ptab_skip
#define tab_get rsc_ptab_get

/* ---- One program ------------------------------------------------------ */

/* Match texts, read off the RULES table once per match (FORMAT.md, RULES:
 * Str_Off and Str_Len, or Match_Off and Match_Len in the rfc profile):
 * labels may point into them. */
typedef struct wctx {
    const uint8_t *str, *rows;
    uint32_t row, off, ow;
} wctx;

static wctx wctx_of(const rsc_program *prog)
{
    uint32_t pack = PRIV(prog, P_RULES_W), at = RSC_TAB_WIDTH(pack, 0);
    unsigned mcol = 1;
    if (rsc_program_profile(prog))
        mcol = 3, at += RSC_TAB_WIDTH(pack, 1) + RSC_TAB_WIDTH(pack, 2);
    wctx w;
    w.str = STR(prog), w.rows = prog->base + PRIV(prog, P_RULES), w.row = RSC_TAB_ROW(pack);
    w.off = at, w.ow = RSC_TAB_WIDTH(pack, mcol);
    return w;
}

typedef rsc_node node;

/* The label of node x, whose string starts at depth d: inline, or in the
 * match text of its Rep. Read only for a label of one byte or more: the
 * Rep's RULES row is a chain of dependent loads. */
RSC_HOT const uint8_t *label_of(const wctx *w, const node *x, uint32_t d)
{
    if (!x->rep)
        return x->label;
    const uint8_t *row = w->rows + (size_t)(x->rep - 1) * w->row;
    return w->str + rsc_rdn(row + w->off, w->ow) + d;
}

/* Child of x whose key is c, or NULL. Few keys: a loop beats a call. */
static inline const uint8_t *child(const node *x, uint8_t c)
{
    uint32_t n = x->head >> RSC_N_CHILD_SHIFT;
    const uint8_t *hit = NULL;
    if (n > 8) {
        hit = memchr(x->keys, c, n);
    } else {
        for (uint32_t k = 0; k < n; k++)
            if (x->keys[k] == c) {
                hit = x->keys + k;
                break;
            }
    }
    return hit ? rsc_node_kid(x, (uint32_t)(hit - x->keys)) : NULL;
}

/* A long edge list (more than RSC_SCAN_MAX edges) that was searched at a
 * segment's end starting at s: the parents reached at or before s were
 * looked up then, and the first j reached internal nodes are those (see
 * edges_at). Direct-mapped by OUTS row: a row not found is searched whole,
 * so the memo saves work and never changes an answer. */
#define RSC_MEMO 16
#define RSC_MEMO_NONE UINT32_MAX /* an anchored list: read once a path */
typedef struct memo {
    uint32_t row1, j; /* 1 + the OUTS row; reach[0..j) were looked up */
    size_t s;
} memo;

/* What one run of a program knows: the root slots the walk passed (one a
 * level: the walk goes down one chain) and the internal nodes reached,
 * each with the position where it was reached. */
typedef struct run {
    uint32_t best;
    uint32_t nact, act[RSC_MAX_LEVELS];
    size_t adepth[RSC_MAX_LEVELS];
    uint64_t seen[RSC_MAX_INTERNAL / 64];
    size_t rpos[RSC_MAX_INTERNAL];
    uint32_t nreach, reach[RSC_MAX_INTERNAL]; /* the reached ones, in order */
    uint32_t memo_ok; /* the valid entries of memo */
    memo memo[RSC_MEMO];
    tab roots, outs, states, edges;
    uint32_t nslots, shape;
    const uint8_t *at_roots; /* Shape and ROOTS, read at the first slot passed */
    const uint8_t *at_outs, *at_edges; /* OUTS and EDGES, opened on first use */
} run;

/* A test build counts the matcher's steps (tests/runtime, the bound of
 * docs/LIMITS.md): a global, so that build is not thread-safe. */
#ifdef RSC_COUNT_STEPS
size_t rsc_steps;
#define STEP(r) ((void)(r), ++rsc_steps)
#define STEPS(r, n) ((void)(r), rsc_steps += (n))
#else
#define STEP(r) ((void)0)
#define STEPS(r, n) ((void)0)
#endif

/* Where parent p (a root slot, or nslots + an internal node) was reached,
 * or SIZE_MAX when it was not. */
static inline size_t reached_at(const run *r, uint32_t p)
{
    if (p < r->nslots) {
        uint32_t lv = tab_get(&r->roots, p, R_LEVEL);
        return lv < r->nact && r->act[lv] == p ? r->adepth[lv] : SIZE_MAX;
    }
    p -= r->nslots;
    return r->seen[p >> 6] >> (p & 63) & 1 ? r->rpos[p] : SIZE_MAX;
}

static inline void fire(run *r, uint32_t e, size_t at)
{
    uint32_t rank = tab_get(&r->edges, e, E_RANK), t = tab_get(&r->edges, e, E_TARGET);
    if (rank > r->best)
        r->best = rank;
    if (t--) {
        if (!(r->seen[t >> 6] >> (t & 63) & 1)) {
            r->seen[t >> 6] |= 1ull << (t & 63);
            r->rpos[t] = at;
            r->reach[r->nreach++] = t; /* a verified Target is < N_Internal */
        }
    }
}

/* Index of parent p in edges [lo, hi) sorted by Parent, or hi. */
static uint32_t find_parent(const run *r, uint32_t lo, uint32_t hi, uint32_t p)
{
    uint32_t end = hi;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2, x = tab_get(&r->edges, mid, E_PARENT);
        if (x == p)
            return mid;
        if (x < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return end;
}

/* log2(n) + 1: the probes of a binary search over n rows. */
static inline uint32_t probes(uint32_t n)
{
    uint32_t k = 1;
    while (n >>= 1)
        k++;
    return k;
}

/* The first k >= j of reach[0..n) reached after position s (their
 * positions increase along reach[]). */
static uint32_t reached_after(const run *r, uint32_t j, size_t s)
{
    uint32_t hi = r->nreach;
    while (j < hi) {
        uint32_t mid = j + (hi - j) / 2;
        if (r->rpos[r->reach[mid]] <= s)
            j = mid + 1;
        else
            hi = mid;
    }
    return j;
}

/* The edges [lo, hi) of OUTS row `row`, a segment that ended at position
 * at, started at start: fire those whose parent was reached at or before
 * start. A short list is scanned. A long one is searched for the root
 * slots the walk passed (at most RSC_MAX_LEVELS); of its edges from
 * internal nodes, at most RSC_MAX_INNER by the budget (a verified blob may
 * have more, which are then ignored: safe, its answer wrong, so the cost
 * stays bounded whatever the blob), those of the reached internal nodes
 * are searched when they are few, else all are scanned. A long list found
 * in the memo was searched at an earlier end of its segment, for the
 * parents reached up to that start: only the parents reached since are
 * looked up (an edge fires at most once, at the first end of its segment
 * after its parent, and a later end finds it fired). */
static void edges_at(run *r, uint32_t row, uint32_t lo, uint32_t hi, size_t start, size_t at)
{
    uint32_t from = lo;
    if (hi - lo > RSC_SCAN_MAX) {
        uint32_t k = 0, j = 0; /* the slots and reach[] entries to look up from */
        memo *m = row != RSC_MEMO_NONE ? &r->memo[row & (RSC_MEMO - 1)] : NULL;
        const uint32_t bit = 1u << (row & (RSC_MEMO - 1));
        if (m && (r->memo_ok & bit) && m->row1 == row + 1) {
            while (k < r->nact && r->adepth[k] <= m->s)
                k++;
            j = m->j;
        }
        const uint32_t j1 = reached_after(r, j, start);
        if (m)
            m->row1 = row + 1, m->j = j1, m->s = start, r->memo_ok |= bit;
        STEP(r);
        if ((k == r->nact || r->adepth[k] > start) && j == j1)
            return; /* nothing reached since the last search */
        uint32_t a = lo, b = hi; /* the first edge from an internal node */
        while (a < b) {
            uint32_t mid = a + (b - a) / 2;
            if (tab_get(&r->edges, mid, E_PARENT) < r->nslots)
                a = mid + 1;
            else
                b = mid;
        }
        for (; k < r->nact && r->adepth[k] <= start; k++) {
            STEP(r);
            uint32_t e = find_parent(r, lo, a, r->act[k]);
            if (e < a && tab_get(&r->edges, e, E_MAX) > r->best)
                fire(r, e, at);
        }
        from = a;
        if (hi - from > RSC_MAX_INNER) /* never in a compiled blob: the bound holds */
            hi = from + RSC_MAX_INNER;
        const uint32_t n = j1 - j; /* those reached from here on come later than start */
        if (n * probes(hi - from) < hi - from) {
            for (; j < j1; j++) {
                STEP(r);
                uint32_t t = r->reach[j], e = find_parent(r, from, hi, r->nslots + t);
                if (e < hi && tab_get(&r->edges, e, E_MAX) > r->best)
                    fire(r, e, at);
            }
            return;
        }
    }
    /* Edges from internal nodes follow those from root slots (sorted by
     * Parent): with none reached before this segment, they are skipped. */
    const int inner = r->nreach > 0;
    for (uint32_t e = from; e < hi; e++) {
        STEP(r);
        uint32_t p = tab_get(&r->edges, e, E_PARENT);
        if (p >= r->nslots && !inner)
            break;
        if (tab_get(&r->edges, e, E_MAX) > r->best && reached_at(r, p) <= start)
            fire(r, e, at);
    }
}

/* The segments that end at position at (state s's output chain): floating
 * edges, or at the path's end the anchored ones. */
static void outputs(run *r, uint32_t s, size_t at, int anchored)
{
    uint32_t o = tab_get(&r->states, s, S_OUT);
    if (r->at_outs) { /* most paths end no segment: open these on the first */
        tab_open(&r->outs, r->at_outs, RSC_OUTS_COLS);
        tab_open(&r->edges, r->at_edges, RSC_EDGES_COLS);
        r->at_outs = NULL;
    }
    for (unsigned k = 0; o && k < RSC_MAX_CHAIN; k++) {
        uint32_t row = o - 1;
        STEP(r);
        if (tab_get(&r->outs, row, O_MAX) <= r->best) /* covers the rest of the chain */
            break;
        uint32_t len = tab_get(&r->outs, row, O_LEN), e = tab_get(&r->outs, row, O_EDGE);
        uint32_t nf = tab_get(&r->outs, row, O_NFLOAT);
        if (len <= at) {
            if (!anchored)
                edges_at(r, row, e, e + nf, at - len, at);
            else /* once a path: no memo */
                edges_at(r, RSC_MEMO_NONE, e + nf, e + nf + tab_get(&r->outs, row, O_NANCH),
                         at - len, at);
        }
        o = tab_get(&r->outs, row, O_NEXT);
    }
}

/* The automaton's move from state s on byte c: the child with key c, else
 * the failure links. *budget counts failure steps: a verified blob can
 * hold any links, a compiled one never needs more failure steps than
 * bytes read (each goto adds one to the depth, each failure takes at least
 * one), so a blob that would is cut short there (safe, its answer wrong). */
HOT uint32_t col(const tab *t, const uint8_t *row, unsigned c)
{
    return rsc_rd32(row + t->off[c]) & t->mask[c];
}

HOT uint32_t step(const tab *S, uint32_t s, uint8_t c, uint32_t root, size_t *budget,
                  const uint8_t *rk, uint32_t first0)
{
    for (;;) {
        if (rk && s == 0) { /* the automaton's root: one table look-up */
            return rk[c] == 0xff ? 0 : first0 + rk[c];
        }
        const uint8_t *row = S->rows + (size_t)s * S->size;
        uint32_t first = col(S, row, S_FIRST), n = col(S, row, S_N);
        /* keys are bytes: their column's low byte, whatever its width */
        const uint8_t *kid = S->rows + (size_t)first * S->size + S->off[S_KEY];
        if (n <= 8) {
            for (uint32_t k = 0; k < n; k++, kid += S->size)
                if (*kid == c)
                    return first + k;
        } else {
            uint32_t lo = 0, hi = n;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2, key = kid[(size_t)mid * S->size];
                if (key == c)
                    return first + mid;
                if (key < c)
                    lo = mid + 1;
                else
                    hi = mid;
            }
        }
        if (s == root || *budget == 0)
            return root;
        --*budget;
        s = col(S, row, S_FAIL);
    }
}

/* The automaton over the path from position `from` on (FORMAT.md,
 * segments()). At the root, a byte no segment starts with is skipped with
 * one bit test (the root's keys, gathered once a pass). With labels, pend
 * bytes of state st's label at lp are still to come: the automaton is at
 * an implicit state (FORMAT.md, Labels); st is never 0 then. */
typedef struct scan {
    tab S;
    uint8_t rk[256]; /* without: the root's child on each byte (its index), or 0xff */
    uint32_t first;  /* the root's first child */
    uint32_t st, pend;
    const uint8_t *lp, *str; /* the label's next byte; STRINGS (0: no labels) */
    size_t at, budget;
} scan;

/* Whether the root has no child on byte c. */
HOT int no_lead(const scan *k, uint8_t c)
{
    return k->rk[c] == 0xff;
}

/* After a move into explicit state k->st, which ends at position at: its
 * label, or its outputs. */
HOT void arrived(run *r, scan *k, size_t at, const int lab)
{
    if (lab && k->st) {
        uint32_t ll = tab_get(&k->S, k->st, S_LLEN);
        if (ll) {
            k->pend = ll, k->lp = k->str + tab_get(&k->S, k->st, S_LOFF);
            return;
        }
    }
    if (k->st && tab_get(&k->S, k->st, S_OUT))
        outputs(r, k->st, at, 0);
}

/* Path byte c, which ends at position at: the automaton's move, then the
 * outputs of an explicit state. The budget counts label bytes too: they add to the depth that
 * failure links take away. */
HOT void advance(run *r, scan *k, uint8_t c, size_t at, const int lab)
{
    STEP(r);
    k->budget++;
    if (lab && k->pend) {
        if (c == *k->lp) {
            k->lp++;
            if (--k->pend == 0 && tab_get(&k->S, k->st, S_OUT))
                outputs(r, k->st, at, 0);
            return;
        }
        k->pend = 0, k->st = 0; /* an implicit state fails to the root */
        if (no_lead(k, c))
            return;
    }
    k->st = step(&k->S, k->st, c, 0, &k->budget, k->rk, k->first);
    arrived(r, k, at, lab);
}

HOT void feed(run *r, scan *k, uint8_t c, const int lab)
{
    k->at++;
    if (k->st == 0 && no_lead(k, c))
        return;
    advance(r, k, c, k->at, lab);
}

/* The end of a path as it is: its first NUL (spec A.5) or term byte. */
static size_t path_end(const uint8_t *p, size_t n, uint8_t term)
{
    const uint8_t *z = n ? memchr(p, 0, n) : NULL;
    if (z)
        n = (size_t)(z - p);
    if (term && n && (z = memchr(p, term, n)) != NULL)
        n = (size_t)(z - p);
    return n;
}

/* lab is a constant in each of the two calls: automata without labels
 * pay nothing for them. */
HOT void segments_of(run *r, const src *s0, size_t from, const uint8_t *str, const int lab)
{
    scan k;
    src s = *s0;
    uint8_t c;
    uint32_t nlead = 0;
    k.S = r->states, k.st = 0, k.at = 0, k.budget = 0;
    k.pend = 0, k.lp = NULL, k.str = str;
    k.first = tab_get(&k.S, 0, S_FIRST);
    uint8_t lead[4] = {0}; /* the root's first keys, the first repeated */
    memset(k.rk, 0xff, sizeof k.rk);
    /* keys are bytes: their column's low byte, read in place (the root's
     * children are a run of rows); they increase: at most 255 of them */
    const uint8_t *kid = k.S.rows + (size_t)k.first * k.S.size + k.S.off[S_KEY];
    for (uint32_t n = tab_get(&k.S, 0, S_N); nlead < n && nlead < 0xff; kid += k.S.size)
        k.rk[*kid] = (uint8_t)nlead++;
    kid = k.S.rows + (size_t)k.first * k.S.size + k.S.off[S_KEY];
    for (uint32_t j = 0; j < 4 && nlead; j++)
        lead[j] = j < nlead ? kid[(size_t)j * k.S.size] : lead[0];
    if (s.rfc) {
        while (k.at < from && src_get(&s, &c))
            k.at++;
        while (src_get(&s, &c))
            feed(r, &k, c, lab);
        if (k.st && !k.pend)
            outputs(r, k.st, k.at, 1);
        return;
    }
    /* The bytes as they are: the '/' put in front (position 0), then the
     * path, up to its end found once; at the root, the next byte that can
     * start a segment is searched for (memchr when there is one such,
     * sixteen bytes a step when there are up to four, else a table look-up
     * a byte in a loop of its own). */
    const size_t sl = s.qn, end = path_end(s.p, s.n, s.term);
    const uint8_t *p = s.p;
    if (sl && from == 0)
        feed(r, &k, '/', lab);
    for (size_t i = from > sl ? from - sl : 0; i < end; i++) {
        c = p[i];
        if (k.st == 0) {
            if (nlead == 1) {
                const uint8_t *q = memchr(p + i, lead[0], end - i);
                if (!q)
                    break;
                i = (size_t)(q - p), c = lead[0];
            } else if (no_lead(&k, c)) {
#ifdef RSC_V16
                if (nlead <= 4) {
                    while (end - i > 16) { /* p[i] is no lead */
                        rsc_v16 x = rsc_v16_load(p + i + 1);
                        unsigned f = rsc_v16_first((rsc_v16)((x == lead[0]) | (x == lead[1]) |
                                                             (x == lead[2]) | (x == lead[3])));
                        i += f < 16 ? f : 16; /* the byte before the lead, or 16 on */
                        if (f < 16)
                            break;
                    }
                    continue;
                }
#endif
                do /* many leads: a tight loop to the next one */
                    i++;
                while (i < end && no_lead(&k, p[i]));
                if (i == end)
                    break;
                c = p[i];
            }
        }
        advance(r, &k, c, i + sl + 1, lab);
    }
    if (k.st && !k.pend)
        outputs(r, k.st, end + sl, 1);
}

/* A program in chain form (FORMAT.md, "Chains"): the segments of its one
 * rule searched in turn, each with its own automaton from where the
 * previous one ended. */
static uint32_t chain(run *r, const src *s0, size_t from)
{
    src s = *s0;
    uint8_t c;
    uint32_t f = 0, base = 0, st = 0, last = r->outs.n - 1;
    size_t at = 0, budget = 0;
    while (at < from && src_get(&s, &c))
        at++;
    while (src_get(&s, &c)) {
        at++, budget++;
        st = step(&r->states, st, c, base, &budget, NULL, 0);
        if (!tab_get(&r->states, st, S_OUT) || !tab_get(&r->outs, f, O_NFLOAT))
            continue;
        if (f == last) { /* the rule matches */
            uint32_t rank = tab_get(&r->edges, f, E_RANK);
            return rank > r->best ? rank : r->best;
        }
        base += tab_get(&r->outs, f, O_LEN) + 1;
        st = base, f++, budget = 0;
    }
    if (f == last && tab_get(&r->outs, f, O_NANCH) && tab_get(&r->states, st, S_OUT)) {
        uint32_t rank = tab_get(&r->edges, f, E_RANK);
        return rank > r->best ? rank : r->best;
    }
    return r->best;
}

/* Records what the walk finds at a node it has passed whole, at i. */
static inline void arrive(run *r, const node *x, size_t i)
{
    if (x->accept > r->best)
        r->best = x->accept;
    if (!x->slot)
        return;
    if (r->at_roots) { /* most paths pass no slot: read these on the first */
        const uint8_t *g = r->at_roots;
        r->shape = rsc_uv(&g);
        r->at_outs = tab_open(&r->roots, g, RSC_ROOTS_COLS);
        r->nslots = r->roots.n;
        r->at_roots = NULL;
    }
    if (r->nact < RSC_MAX_LEVELS && tab_get(&r->roots, x->slot - 1, R_LEVEL) == r->nact) {
        r->act[r->nact] = x->slot - 1;
        r->adepth[r->nact++] = i;
    }
}

/* The walk: the anchored part of a program. Accept and End ranks, and the
 * root slots passed, one a level. A path as it is compares whole labels in
 * place; labels hold no NUL and no '#' (FORMAT.md), so the walk stops at
 * the path's end by itself. */
static void walk(const wctx *w, const uint8_t *q, const src *s0, run *r)
{
    node x;
    if (!s0->rfc && s0->qn == 0) {
        const uint8_t *p = s0->p;
        size_t i = 0, n = s0->n;
        for (;;) {
            rsc_node_head(q, &x);
            STEP(r);
            if (x.label_len) {
                uint32_t ll = x.label_len;
                if (n - i < ll || memcmp(p + i, label_of(w, &x, (uint32_t)i), ll) != 0)
                    return;
                i += ll;
            }
            arrive(r, &x, i);
            if (i == n || p[i] == 0 || p[i] == s0->term) {
                if (x.end > r->best)
                    r->best = x.end;
                return;
            }
            if (!(q = child(&x, p[i])))
                return;
            i++;
        }
    }
    src s = *s0;
    size_t i = 0;
    for (;;) {
        uint8_t c;
        rsc_node_head(q, &x);
        STEP(r);
        if (x.label_len) {
            const uint8_t *lab = label_of(w, &x, (uint32_t)i);
            for (uint32_t k = 0; k < x.label_len; k++)
                if (!src_get(&s, &c) || c != lab[k])
                    return;
            i += x.label_len;
        }
        arrive(r, &x, i);
        if (!src_get(&s, &c)) {
            if (x.end > r->best)
                r->best = x.end;
            return;
        }
        if (!(q = child(&x, c)))
            return;
        i++;
    }
}

/* One program at q (its Data) for the path in s: the best rank from
 * r->best on. */
static uint32_t program(const wctx *w, const uint8_t *q, const src *s0, uint32_t best)
{
    run r;
    r.best = best, r.nact = 0;
    uint32_t tsize = rsc_uv(&q);
    r.at_roots = q + tsize;
    walk(w, q, s0, &r);
    /* the shallowest passed slot whose rules could still decide */
    size_t from = SIZE_MAX;
    for (uint32_t k = 0; k < r.nact; k++)
        if (tab_get(&r.roots, r.act[k], R_MAX) > r.best && r.adepth[k] < from)
            from = r.adepth[k];
    if (from == SIZE_MAX)
        return r.best;
    const uint32_t shape = r.shape, nint = shape >> RSC_SHAPE_SHIFT;
    r.outs.rows = r.edges.rows = NULL, r.outs.n = r.edges.n = r.outs.size = r.edges.size = 0;
    const uint8_t *g = tab_skip(r.at_outs, RSC_OUTS_COLS);
    const int lab = (shape & RSC_SHAPE_LABELS) != 0;
    r.at_edges = tab_open(&r.states, g, lab ? RSC_STATES_COLS_LAB : RSC_STATES_COLS);
    if (shape & RSC_SHAPE_CHAIN) { /* never with labels (verified) */
        tab_open(&r.outs, r.at_outs, RSC_OUTS_COLS);
        tab_open(&r.edges, r.at_edges, RSC_EDGES_COLS);
        return chain(&r, s0, from);
    }
    if (nint) /* most programs have none: no call */
        memset(r.seen, 0, (nint + 63) / 64 * sizeof r.seen[0]);
    r.nreach = 0, r.memo_ok = 0;
    if (lab)
        segments_of(&r, s0, from, w->str, 1);
    else
        segments_of(&r, s0, from, NULL, 0);
    return r.best;
}

/* ---- Verdict ----------------------------------------------------------- */

static int is_robots_txt(src s)
{
    static const char want[] = "/robots.txt";
    uint8_t c;
    for (size_t k = 0; k < sizeof want - 1; k++)
        if (!src_get(&s, &c) || c != (uint8_t)want[k])
            return 0;
    return !src_get(&s, &c);
}

/* The best rank of the selected programs for the path of s. */
static uint32_t best_rank(const rsc_selection *sel, const src *s)
{
    const rsc_program *prog = sel->prog;
    const uint32_t max = PRIV(prog, P_RULES_N);
    const wctx w = wctx_of(prog);
    uint32_t best = 0;
#define PROGRAM(q) program(&w, (q), s, best)
    if (s->rfc && is_robots_txt(*s)) /* RFC 9309 2.2.2 */
        return 0;
    if (sel->n_roots <= RSC_MAX_SELECT) {
        for (uint32_t k = 0; k < sel->n_roots && best < max; k++)
            best = PROGRAM(prog->base + sel->roots[k]);
        return best;
    }
    for (uint32_t k = 0; k < sel->n_sets && best < max; k++) {
        uint32_t j, end;
        for (rsc_set_span(prog, sel->sets[k], &j, &end); j < end && best < max; j++)
            best = PROGRAM(prog->base + rsc_program_at(prog, j));
    }
#undef PROGRAM
    return best;
}

/* The programs' verdict (and the deciding rule in m, when not NULL). */
static int programs_verdict(const rsc_selection *sel, const uint8_t *p, size_t n, uint8_t term,
                            int slash, rsc_match *m)
{
    const rsc_program *prog = sel ? sel->prog : NULL;
    if (m)
        memset(m, 0, sizeof *m), m->pattern = "";
    if (!prog) /* a failed rsc_select(): fail closed (runtime.h) */
        return 0;
    /* programs that RSC_LOAD_DEFER left: verified before they run, and
     * damaged ones answered as a failed selection (runtime.h) */
    if (rsc_sel_deferred(sel) && rsc_verify_set(prog, sel->sets[0]) != RSC_OK)
        return 0;
    src s = {p, 0, n, term, (uint8_t)rsc_program_profile(prog), {'/', 0, 0}, 0,
             (uint8_t)(slash != 0)};
    uint32_t best = best_rank(sel, &s);
    uint32_t la = best ? rsc_tab(prog, P_RULES, best - 1, 0) : 0;
    /* Priority 0 (the empty pattern) never decides a verdict: spec E.5.
     * Encoders leave such rules out of programs; a blob could still have one. */
    int decided = best && rsc_tab(prog, P_RULES, best - 1, 2) > 0;
    int allowed = !decided || (la & 1) != 0;
    if (m) {
        m->allowed = allowed;
        if ((m->decided = decided) != 0) {
            m->line = la >> 1, m->rule_allow = allowed;
            m->priority = m->pattern_len = rsc_tab(prog, P_RULES, best - 1, 2);
            if (s.rfc) /* the match text's octets (FORMAT.md, RULES) */
                m->priority = rsc_tab(prog, P_RULES, best - 1, 4);
            m->pattern = (const char *)STR(prog) + rsc_tab(prog, P_RULES, best - 1, 1);
        }
    }
    return allowed;
}

RSC_HOT int verdict(const rsc_selection *sel, const uint8_t *p, size_t n, uint8_t term, int slash,
                    rsc_match *m)
{
    /* the verdict alone: the blob's DFA, when sel runs one (dfa.c) */
    if (!m && (!sel || sel->accel != (const void *)&rsc_dfa_programs_only)) {
        int v = rsc_dfa_verdict(sel, p, n, term, slash);
        if (v >= 0)
            return v;
    }
    return programs_verdict(sel, p, n, term, slash, m);
}

int rsc_match_path(const rsc_selection *sel, const char *path, size_t len,
                   rsc_match *m)
{
    return verdict(sel, (const uint8_t *)(len ? path : ""), len, 0, 0, m);
}

/* The path runs from its start to the URL's end; the source stops at the
 * first '#' (spec G.4), so the URL is read no further than matching needs. */
#if defined(__GNUC__)
__attribute__((noinline)) /* rsc_match_url() keeps no frame of its own */
#endif
static int match_url(const rsc_selection *sel, const char *url, size_t len, rsc_match *m)
{
    size_t off;
    int slash;
    if (!rsc_path_start(url, len, &off, &slash))
        return verdict(sel, (const uint8_t *)"", 0, 0, 1, m);
    return verdict(sel, (const uint8_t *)url + off, len - off, '#', slash, m);
}

int rsc_match_url(const rsc_selection *sel, const char *url, size_t len,
                  rsc_match *m)
{
    if (!m && sel) {
        /* No program to run (the file has no group for the agent and no
         * '*' group, or the groups hold no rule): every URL is allowed,
         * and its path is not looked for (that was most of such a check). */
        if (sel->prog && !sel->n_roots)
            return 1;
        if (sel->accel == (const void *)&rsc_dfa_cached) /* the usual check */
            return rsc_dfa_url(sel, url, len);
    }
    return match_url(sel, url, len, m);
}
