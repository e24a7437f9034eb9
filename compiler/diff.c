/* SPDX-License-Identifier: Apache-2.0 */
/* rsc_diff(): the product of two selections' automata (explore.h), walked
 * breadth first, so the first difference found has a shortest witness.
 * Rules come from the verified blob itself: the ranks a selection's
 * programs can produce (FORMAT.md, Nodes and EDGES) and their match texts
 * in RULES, so a diff compares exactly what the matcher runs. Every witness
 * is re-checked on the matcher before it is reported. */
#include <stdint.h>
#include <string.h>

#include "codec.h"
#include "explore.h"
#include "format.h"
#include "program.h"
#include "robotsc/compiler.h"

/* ---- a selection's rules, read off its programs -------------------------- */

static void note_rank(uint8_t *seen, uint32_t n_rules, uint32_t r)
{
    if (r >= 1 && r <= n_rules)
        seen[r - 1] = 1;
}

/* The ranks of the program at Data offset off: every node's Accept and
 * End (a verified trie tiles its bytes in preorder), every edge's Rank. */
static void program_ranks(const rsc_program *prog, uint32_t off, uint8_t *seen)
{
    const uint32_t nr = PRIV(prog, P_RULES_N);
    const uint8_t *q = prog->base + off;
    uint32_t tsize = rsc_uv(&q);
    const uint8_t *p = q, *end = q + tsize;
    while (p < end) {
        rsc_node x;
        rsc_node_head(p, &x);
        note_rank(seen, nr, x.accept);
        note_rank(seen, nr, x.end);
        p = rsc_node_next(&x);
    }
    rsc_ptab edges;
    rsc_program_edges(end, &edges);
    for (uint32_t r = 0; r < edges.n; r++)
        note_rank(seen, nr, rsc_ptab_get(&edges, r, E_RANK));
}

/* Rule rank r (1-based) of a verified program as an explorer rule. */
static void rule_of(const rsc_program *prog, uint32_t r, rsc_xrule *x)
{
    const int rfc = (prog->flags & RSC_FLAG_PROFILE_RFC) != 0;
    uint32_t la = rsc_tab(prog, P_RULES, r - 1, 0);
    uint32_t off = rsc_tab(prog, P_RULES, r - 1, rfc ? 3 : 1);
    uint32_t len = rsc_tab(prog, P_RULES, r - 1, rfc ? 4 : 2);
    x->bytes = STR(prog) + off;
    x->len = len;
    x->anchored = 0;
    if (len && x->bytes[len - 1] == '$') { /* spec E.3: only a final '$' anchors */
        x->anchored = 1;
        x->len--;
    }
    x->rank = r;
    x->line = la >> 1;
    x->allow = (uint8_t)(la & 1);
}

rsc_status rsc_xrules_of_sets(rsc_mem *m, const rsc_program *prog, const uint32_t *sets,
                              size_t n_sets, rsc_xrule **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    const uint32_t nr = PRIV(prog, P_RULES_N);
    uint8_t *seen = rsc_mem_calloc(m, (size_t)nr + 1, 1);
    if (!seen)
        return RSC_E_NOMEM;
    for (size_t k = 0; k < n_sets; k++) {
        uint32_t j, e;
        if (!PRIV(prog, P_SETS)) {
            j = sets[k], e = sets[k] + 1;
        } else {
            j = rsc_tab(prog, P_SETS, sets[k], 0);
            e = j + rsc_tab(prog, P_SETS, sets[k], 1);
        }
        for (; j < e; j++) {
            uint32_t pr = PRIV(prog, P_SETS) ? rsc_tab(prog, P_SLIST, j, 0) : j;
            program_ranks(prog, PRIV(prog, P_PROG_DATA) + (pr ? rsc_tab(prog, P_PROGS, pr - 1, 0) : 0),
                          seen);
        }
    }
    size_t cnt = 0;
    for (uint32_t r = 0; r < nr; r++)
        cnt += seen[r];
    rsc_xrule *x = rsc_mem_calloc(m, cnt + 1, sizeof *x);
    if (!x) {
        rsc_mem_free(m, seen, (size_t)nr + 1);
        return RSC_E_NOMEM;
    }
    size_t k = 0;
    for (uint32_t r = 0; r < nr; r++)
        if (seen[r])
            rule_of(prog, r + 1, &x[k++]);
    rsc_mem_free(m, seen, (size_t)nr + 1);
    *out = x;
    *n = cnt;
    return RSC_OK;
}

int rsc_blob_agent(const rsc_program *prog, size_t i, rsc_bytes *token)
{
    if (!prog || !prog->base || !token || i >= PRIV(prog, P_AGENTS_N))
        return 0;
    token->ptr = (const char *)STR(prog) + rsc_tab(prog, P_AGENTS, (uint32_t)i, 0);
    token->len = rsc_tab(prog, P_AGENTS, (uint32_t)i, 1);
    return 1;
}

/* ---- rfc paths ------------------------------------------------------------- */

/* Whether the rfc normalisation of r[0..n) is p[0..pn). A witness of the
 * rfc profile is the explorer's path itself: the explorer walks normalised
 * paths only (every '%' starts an escape of two upper-case hex digits that
 * is no unreserved byte; a lone '%' normalises to %25), which
 * normalisation leaves as they are; the witness is checked to be one. */
static int rfc_normalises_to(const uint8_t *r, size_t n, const uint8_t *p, size_t pn)
{
    size_t o = 0, used;
    for (size_t i = 0; i < n; i += used) {
        uint8_t out[3];
        unsigned k = rsc_pct_normal(r + i, n - i, out, &used);
        if (o + k > pn || memcmp(p + o, out, k) != 0)
            return 0;
        o += k;
    }
    return o == pn;
}

/* ---- the diff ---------------------------------------------------------------- */

typedef struct dctx {
    rsc_mem *m;
    rsc_xdfa *a, *b;
    const rsc_selection *sa, *sb;
    int rfc;
    size_t max;
    rsc_diff_result *out;
    size_t cap_flips, used_paths;
    size_t *offs; /* each flip's path offset in priv_paths */
    uint8_t *buf; /* the witness being checked */
    size_t cap_buf;
} dctx;

static int grow_bytes(rsc_mem *m, uint8_t **p, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : 64;
    while (nc < need)
        nc *= 2;
    uint8_t *q = rsc_mem_realloc(m, *p, 1, *cap, nc);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static int diff_visit(void *ud, rsc_xwalk *w, uint32_t node, uint32_t sa, uint32_t sb, int exempt)
{
    dctx *d = ud;
    int va, vb;
    if (exempt)
        return 0;
    rsc_xdfa_end(d->a, sa, &va);
    rsc_xdfa_end(d->b, sb, &vb);
    if (va == vb)
        return 0;
    rsc_diff_result *o = d->out;
    o->outcome = RSC_DIFF_DIFFERENT;
    /* the witness, as the matcher is given it */
    size_t n = rsc_xwalk_path(w, node, d->buf, d->cap_buf);
    if (n > d->cap_buf) {
        if (grow_bytes(d->m, &d->buf, &d->cap_buf, n) != 0)
            return -(int)RSC_E_NOMEM;
        rsc_xwalk_path(w, node, d->buf, n);
    }
    const uint8_t *path = d->buf;
    const size_t plen = n;
    if (d->rfc && !rfc_normalises_to(path, plen, path, plen))
        return -(int)RSC_E_CORRUPT;
    rsc_match ma, mb;
    int ra = rsc_match_path(d->sa, (const char *)path, plen, &ma);
    int rb = rsc_match_path(d->sb, (const char *)path, plen, &mb);
    if (ra != va || rb != vb)
        return -(int)RSC_E_CORRUPT; /* the explorer and the matcher disagree */
    uint32_t la = ma.decided ? ma.line : 0, lb = mb.decided ? mb.line : 0;
    for (size_t k = 0; k < o->n_flips; k++)
        if (o->flips[k].old_allowed == ra && o->flips[k].new_allowed == rb &&
            o->flips[k].old_line == la && o->flips[k].new_line == lb)
            return 0;
    if (o->n_flips >= d->max && o->n_flips > 0) {
        o->more = 1;
        return 1; /* the answer and the witnesses asked for are known */
    }
    if (rsc_mem_grow(d->m, (void **)&o->flips, sizeof *o->flips, &d->cap_flips, o->n_flips + 1) != 0)
        return -(int)RSC_E_NOMEM;
    size_t cap = o->priv_cap;
    if (grow_bytes(d->m, (uint8_t **)&o->priv_paths, &cap, d->used_paths + plen + 1) != 0)
        return -(int)RSC_E_NOMEM;
    o->priv_cap = cap;
    memcpy(o->priv_paths + d->used_paths, path, plen);
    rsc_flip *f = &o->flips[o->n_flips++];
    f->path = NULL;
    f->len = plen;
    f->old_allowed = ra, f->new_allowed = rb;
    f->old_line = la, f->new_line = lb;
    /* the offset rides in path until the buffer stops moving */
    f->path = (const char *)(uintptr_t)d->used_paths;
    d->used_paths += plen;
    return d->max == 0 ? 1 : 0;
}

/* One walk of the product in the given mode (note [diff modes]); *w
 * receives it (the previous one freed). */
static rsc_status run_walk(dctx *d, rsc_mem *m, const rsc_xrule *ra, size_t na, const rsc_xrule *rb,
                           size_t nb, int mode, size_t side_states, size_t max_words, size_t max_states,
                           rsc_xwalk **w)
{
    rsc_status st = rsc_xdfa_new(m, ra, na, mode, side_states, max_words, &d->a);
    if (st == RSC_OK)
        st = rsc_xdfa_new(m, rb, nb, mode, side_states, max_words, &d->b);
    if (st == RSC_OK) {
        rsc_xwalk_free(*w);
        *w = NULL;
        st = rsc_xwalk_run(m, d->a, d->b, d->rfc, max_states, diff_visit, d, w);
    }
    rsc_xdfa_free(d->a);
    rsc_xdfa_free(d->b);
    d->a = d->b = NULL;
    return st;
}

rsc_status rsc_diff(const rsc_selection *old_sel, const rsc_selection *new_sel,
                    size_t max_witnesses, const rsc_explore_options *opt, rsc_diff_result *out)
{
    if (!out)
        return RSC_E_ARG;
    memset(out, 0, sizeof *out);
    if (!old_sel || !new_sel || !old_sel->prog || !new_sel->prog ||
        rsc_program_profile(old_sel->prog) != rsc_program_profile(new_sel->prog))
        return RSC_E_ARG;
    rsc_mem m;
    rsc_mem_init(&m, opt ? opt->alloc : NULL, opt ? opt->alloc_ud : NULL);
    size_t max_states = opt && opt->max_states ? opt->max_states : RSC_X_DEFAULT_NODES;
    size_t max_words = opt ? opt->max_words : 0;
    /* an automaton also builds the states of bytes no path takes ('#') and
     * of the empty path: the walk's budget is the one that binds */
    size_t side_states = max_states > SIZE_MAX / 4 ? SIZE_MAX / 2 : 2 * max_states + 16;
    dctx d;
    memset(&d, 0, sizeof d);
    d.m = &m;
    d.sa = old_sel, d.sb = new_sel;
    d.rfc = rsc_program_profile(old_sel->prog) == 1;
    d.max = max_witnesses;
    d.out = out;
    rsc_xrule *ra = NULL, *rb = NULL;
    size_t na = 0, nb = 0;
    rsc_xwalk *w = NULL;
    rsc_status st = rsc_xrules_of_sets(&m, old_sel->prog, old_sel->sets, old_sel->n_sets, &ra, &na);
    if (st == RSC_OK)
        st = rsc_xrules_of_sets(&m, new_sel->prog, new_sel->sets, new_sel->n_sets, &rb, &nb);
    if (st == RSC_OK) {
        if (grow_bytes(&m, &d.buf, &d.cap_buf, 256) != 0)
            st = RSC_E_NOMEM;
    }
    /* Equal rule lists (texts, anchors, verdicts, in rank order: all the
     * explorer reads) decide every path alike: "same" without a walk. A
     * crawler's re-fetch is mostly this case, and so is every agent whose
     * group an edit left alone. */
    if (st == RSC_OK && na == nb) {
        size_t k = 0;
        while (k < na && ra[k].len == rb[k].len && ra[k].anchored == rb[k].anchored &&
               ra[k].allow == rb[k].allow && memcmp(ra[k].bytes, rb[k].bytes, ra[k].len) == 0)
            k++;
        if (k == na) {
            out->outcome = RSC_DIFF_SAME;
            out->complete = 1;
            rsc_mem_free(&m, ra, (na + 1) * sizeof *ra);
            rsc_mem_free(&m, rb, (nb + 1) * sizeof *rb);
            rsc_mem_free(&m, d.buf, d.cap_buf);
            return RSC_OK;
        }
    }
    /* note [diff modes]: states that keep only the verdict (RSC_X_VERDICT)
     * are the fewest, so they answer "same" or "different" first; when the
     * answer is "different", states that keep the deciding rule
     * (RSC_X_RANK) tell every kind of change apart (old line, new line),
     * each with a shortest witness (the verdict-only walk merges kinds
     * that reach the same verdicts). A budget exhausted by the second
     * walk leaves the first one's answer and witnesses standing. */
    st = st == RSC_OK ? run_walk(&d, &m, ra, na, rb, nb, RSC_X_VERDICT, side_states, max_words, max_states, &w)
                      : st;
    int complete = st == RSC_OK && (out->outcome == RSC_DIFF_SAME || (!out->more && d.max > 0));
    if (st == RSC_OK && out->outcome == RSC_DIFF_DIFFERENT && d.max > 0 && !out->more) {
        rsc_status s2 = run_walk(&d, &m, ra, na, rb, nb, RSC_X_RANK, side_states, max_words, max_states, &w);
        if (s2 == RSC_OK)
            complete = !out->more;
        else if (s2 == RSC_E_LIMIT)
            complete = 0;
        else
            st = s2;
    } else if (st == RSC_E_LIMIT) {
        /* a verified witness still proves a difference */
        if (out->outcome != RSC_DIFF_DIFFERENT)
            out->outcome = RSC_DIFF_UNKNOWN;
        complete = 0;
        st = RSC_OK;
    }
    out->complete = complete;
    out->states = rsc_xwalk_nodes(w);
    out->priv_flips_cap = d.cap_flips;
    for (size_t k = 0; k < out->n_flips; k++)
        out->flips[k].path = out->priv_paths + (uintptr_t)out->flips[k].path;
    /* shortest first (the second walk may find a shorter one of a new kind) */
    for (size_t i = 1; i < out->n_flips; i++) {
        rsc_flip x = out->flips[i];
        size_t j = i;
        while (j > 0 && out->flips[j - 1].len > x.len) {
            out->flips[j] = out->flips[j - 1];
            j--;
        }
        out->flips[j] = x;
    }
    rsc_xwalk_free(w);
    rsc_mem_free(&m, ra, (na + 1) * sizeof *ra);
    rsc_mem_free(&m, rb, (nb + 1) * sizeof *rb);
    rsc_mem_free(&m, d.buf, d.cap_buf);
    return st;
}

void rsc_diff_result_free(rsc_diff_result *r, const rsc_explore_options *opt)
{
    if (!r)
        return;
    rsc_mem m;
    rsc_mem_init(&m, opt ? opt->alloc : NULL, opt ? opt->alloc_ud : NULL);
    rsc_mem_free(&m, r->flips, r->priv_flips_cap * sizeof *r->flips);
    rsc_mem_free(&m, r->priv_paths, r->priv_cap);
    memset(r, 0, sizeof *r);
}
