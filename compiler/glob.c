/* SPDX-License-Identifier: Apache-2.0 */
/* The wildcard part of a program (docs/FORMAT.md, PROGRAMS, "Segments"):
 * every wildcard tail of a rule set becomes a path of edges in a tree of
 * segment sequences, and all the distinct segments go into one
 * Aho-Corasick automaton, so a path is read once whatever the rules.
 *
 * A tail "*S1*S2*...*Sk" hangs below the root slot of its trie node (where
 * the literal prefix ends). Edge i (parent, Si) leads to an internal node
 * "S1..Si seen" when some rule goes on, and carries the rank of the rules
 * that end there. Rules that share a prefix and leading segments share
 * their edges: a thousand rules "/" "*x" are one parent with a thousand
 * children, woken by their segments, never one by one.
 *
 * Budgets (format.h) keep the runtime's per-byte work a constant: levels
 * of root slots on a chain, internal nodes, outputs on a dictionary chain,
 * edges per segment. A rule set over a budget is split by the caller
 * (compile.c) into several programs. */
#include <string.h>

#include "backend.h"
#include "codec.h"
#include "format.h"

#define NIL UINT32_MAX
#define INTERNAL 0x80000000u /* an edge's parent is an internal node */

typedef struct seg {
    const uint8_t *p;
    uint32_t len, uid, off; /* off: where p is in STRINGS */
} seg;

typedef struct edge {
    uint32_t parent, uid, rank, target, max; /* target: internal id or NIL */
    uint8_t anch;
} edge;

typedef struct gb {
    rsc_mem *m;
    seg *s;          /* every segment occurrence, entry by entry */
    uint32_t *order; /* s sorted by bytes */
    size_t ns;
    uint32_t nuid;
    edge *e;
    size_t ne, cap_e;
    uint32_t *slots; /* edge hash: index + 1 */
    size_t nslots;
    uint32_t nint;   /* internal nodes */
    uint32_t *imax;  /* per internal node: best rank below it */
    /* the segment trie, then the automaton */
    uint32_t *tfirst, *tnext, *tseg; /* first child, next sibling, uid or NIL */
    uint32_t *tsoff; /* where its byte is in STRINGS (in the segment that made it) */
    uint8_t *tkey;
    size_t nt, cap_t[5];
    uint32_t *bfs, *pos;  /* BFS order; state -> BFS index */
    uint32_t *fail, *dict, *chain;
    uint32_t *depth, *nkid; /* string depth, number of children */
    uint8_t *implicit;      /* left out of a labelled STATES (FORMAT.md, Labels) */
    uint32_t *urow; /* uid -> OUTS row */
    uint32_t *ulen, *ustate;
    size_t cap_s, n_auto; /* allocated sizes of s/order and of bfs..chain */
} gb;

static void gb_free(gb *g)
{
    rsc_mem *m = g->m;
    rsc_mem_free(m, g->s, g->cap_s * sizeof *g->s);
    rsc_mem_free(m, g->order, g->cap_s * sizeof *g->order);
    rsc_mem_free(m, g->e, g->cap_e * sizeof *g->e);
    rsc_mem_free(m, g->slots, g->nslots * sizeof *g->slots);
    rsc_mem_free(m, g->imax, (g->nint + 1) * sizeof *g->imax);
    rsc_mem_free(m, g->tfirst, g->cap_t[0] * sizeof *g->tfirst);
    rsc_mem_free(m, g->tnext, g->cap_t[1] * sizeof *g->tnext);
    rsc_mem_free(m, g->tseg, g->cap_t[2] * sizeof *g->tseg);
    rsc_mem_free(m, g->tkey, g->cap_t[3]);
    rsc_mem_free(m, g->tsoff, g->cap_t[4] * sizeof *g->tsoff);
    rsc_mem_free(m, g->depth, g->n_auto * sizeof *g->depth);
    rsc_mem_free(m, g->nkid, g->n_auto * sizeof *g->nkid);
    rsc_mem_free(m, g->implicit, g->n_auto);
    rsc_mem_free(m, g->bfs, g->n_auto * sizeof *g->bfs);
    rsc_mem_free(m, g->pos, g->n_auto * sizeof *g->pos);
    rsc_mem_free(m, g->fail, g->n_auto * sizeof *g->fail);
    rsc_mem_free(m, g->dict, g->n_auto * sizeof *g->dict);
    rsc_mem_free(m, g->chain, g->n_auto * sizeof *g->chain);
    rsc_mem_free(m, g->urow, (g->nuid + 1) * sizeof *g->urow);
    rsc_mem_free(m, g->ulen, (g->nuid + 1) * sizeof *g->ulen);
    rsc_mem_free(m, g->ustate, (g->nuid + 1) * sizeof *g->ustate);
}

/* The comparisons of the sorts below (rsc_msort: no global state). */
static int cmp_seg(const void *cx, uint32_t a, uint32_t b)
{
    const seg *x = &((const seg *)cx)[a], *y = &((const seg *)cx)[b];
    return rsc_bytes_cmp(x->p, x->len, y->p, y->len);
}

static uint32_t ehash(uint32_t parent, uint32_t uid, uint8_t anch)
{
    uint32_t h = (parent * 0x9E3779B1u) ^ (uid * 0x85EBCA77u) ^ anch;
    return h ^ (h >> 15);
}

static int edge_rehash(gb *g, size_t n)
{
    uint32_t *sl = rsc_mem_calloc(g->m, n, sizeof *sl);
    if (!sl)
        return -1;
    for (size_t i = 0; i < g->ne; i++) {
        size_t k = ehash(g->e[i].parent, g->e[i].uid, g->e[i].anch) & (n - 1);
        while (sl[k])
            k = (k + 1) & (n - 1);
        sl[k] = (uint32_t)i + 1;
    }
    rsc_mem_free(g->m, g->slots, g->nslots * sizeof *g->slots);
    g->slots = sl, g->nslots = n;
    return 0;
}

/* The edge (parent, uid, anch), made when new; NIL when out of memory. */
static uint32_t edge_get(gb *g, uint32_t parent, uint32_t uid, uint8_t anch)
{
    if ((g->ne + 1) * 2 > g->nslots && edge_rehash(g, g->nslots ? g->nslots * 2 : 64) != 0)
        return NIL;
    size_t k = ehash(parent, uid, anch) & (g->nslots - 1);
    for (; g->slots[k]; k = (k + 1) & (g->nslots - 1)) {
        edge *x = &g->e[g->slots[k] - 1];
        if (x->parent == parent && x->uid == uid && x->anch == anch)
            return g->slots[k] - 1;
    }
    if (rsc_mem_grow(g->m, (void **)&g->e, sizeof *g->e, &g->cap_e, g->ne + 1) != 0)
        return NIL;
    edge *x = &g->e[g->ne];
    memset(x, 0, sizeof *x);
    x->parent = parent, x->uid = uid, x->anch = anch, x->target = NIL;
    g->slots[k] = (uint32_t)g->ne + 1;
    return (uint32_t)g->ne++;
}

static uint32_t trie_new(gb *g, uint8_t key, uint32_t soff)
{
    /* one capacity per array: a failed grow leaves the others as they are */
    if (rsc_mem_grow(g->m, (void **)&g->tfirst, sizeof *g->tfirst, &g->cap_t[0], g->nt + 1) != 0 ||
        rsc_mem_grow(g->m, (void **)&g->tnext, sizeof *g->tnext, &g->cap_t[1], g->nt + 1) != 0 ||
        rsc_mem_grow(g->m, (void **)&g->tseg, sizeof *g->tseg, &g->cap_t[2], g->nt + 1) != 0 ||
        rsc_mem_grow(g->m, (void **)&g->tkey, 1, &g->cap_t[3], g->nt + 1) != 0 ||
        rsc_mem_grow(g->m, (void **)&g->tsoff, sizeof *g->tsoff, &g->cap_t[4], g->nt + 1) != 0)
        return NIL;
    g->tfirst[g->nt] = g->tnext[g->nt] = g->tseg[g->nt] = NIL;
    g->tkey[g->nt] = key, g->tsoff[g->nt] = soff;
    return (uint32_t)g->nt++;
}

/* Child of state u on byte c in the segment trie, or NIL. */
static uint32_t trie_child(const gb *g, uint32_t u, uint8_t c)
{
    for (uint32_t v = g->tfirst[u]; v != NIL; v = g->tnext[v])
        if (g->tkey[v] == c)
            return v;
    return NIL;
}

/* The segments of a tail (its runs of bytes other than '*'): one starts
 * the tail or follows a '*'. */
static uint32_t segments_in(const uint8_t *t, uint32_t tl)
{
    if (tl == 0)
        return 0;
    const uint8_t *z = t, *end = t + tl;
    uint32_t n = *t != '*';
    while (z < end && (z = memchr(z, '*', (size_t)(end - z))) != NULL)
        n += ++z < end && *z != '*';
    return n;
}

/* Segments of every entry, their uids, and the edges. */
static rsc_status build_edges(gb *g, const rsc_gent *ent, size_t n)
{
    /* sized by the segments, not the bytes: a large file's tails hold far
     * fewer segments than bytes, and zeroing the difference cost more than
     * its use (merckmanuals.com: 17 MB, a fifth of its compile) */
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += segments_in(ent[i].tail, ent[i].tlen);
    g->cap_s = total + 1;
    g->s = rsc_mem_calloc(g->m, total + 1, sizeof *g->s);
    g->order = rsc_mem_calloc(g->m, total + 1, sizeof *g->order);
    if (!g->s || !g->order)
        return RSC_E_NOMEM;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *t = ent[i].tail;
        uint32_t k = 0, tl = ent[i].tlen;
        while (k < tl) {
            while (k < tl && t[k] == '*')
                k++;
            uint32_t a = k;
            while (k < tl && t[k] != '*')
                k++;
            if (k > a) { /* total of them: segments_in() */
                g->s[g->ns].p = t + a, g->s[g->ns].len = k - a, g->s[g->ns].off = ent[i].toff + a;
                g->order[g->ns] = (uint32_t)g->ns;
                g->ns++;
            }
        }
    }
    if (rsc_msort(g->m, g->order, g->ns, cmp_seg, g->s) != 0)
        return RSC_E_NOMEM;
    for (size_t i = 0; i < g->ns; i++) {
        if (i && cmp_seg(g->s, g->order[i - 1], g->order[i]) != 0)
            g->nuid++;
        g->s[g->order[i]].uid = g->nuid;
    }
    if (g->ns)
        g->nuid++;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *t = ent[i].tail;
        uint32_t tl = ent[i].tlen, nseg = segments_in(t, tl);
        /* "...*S$": the last segment must end the path; "...*$" is moot */
        uint8_t anch_last = ent[i].anchored && tl && t[tl - 1] != '*';
        uint32_t parent = ent[i].slot;
        for (uint32_t j = 0; j < nseg; j++) {
            const seg *x = &g->s[at + j];
            int last = j + 1 == nseg;
            uint32_t ei = edge_get(g, parent, x->uid, (uint8_t)(last && anch_last));
            if (ei == NIL)
                return RSC_E_NOMEM;
            edge *e = &g->e[ei];
            if (last) {
                if (ent[i].rank > e->rank)
                    e->rank = ent[i].rank;
            } else {
                if (e->target == NIL) {
                    if (g->nint >= RSC_MAX_INTERNAL)
                        return RSC_OVER_BUDGET; /* split */
                    e->target = g->nint++;
                }
                parent = e->target | INTERNAL; /* Parent R + id when emitted */
            }
        }
        at += nseg;
    }
    return RSC_OK;
}

/* Best rank at or below each edge and internal node: a child's edges are
 * made after its parent's edge, so one backward pass sees them first. */
static rsc_status edge_max(gb *g)
{
    g->imax = rsc_mem_calloc(g->m, g->nint + 1, sizeof *g->imax);
    if (!g->imax)
        return RSC_E_NOMEM;
    for (size_t i = g->ne; i-- > 0;) {
        edge *e = &g->e[i];
        e->max = e->rank;
        if (e->target != NIL && g->imax[e->target] > e->max)
            e->max = g->imax[e->target];
        if ((e->parent & INTERNAL) && e->max > g->imax[e->parent & ~INTERNAL])
            g->imax[e->parent & ~INTERNAL] = e->max;
    }
    return RSC_OK;
}

/* The segment trie (distinct segments, inserted in byte order so that
 * children come out sorted), its BFS order, failure and dictionary links. */
static rsc_status build_automaton(gb *g)
{
    g->ulen = rsc_mem_calloc(g->m, g->nuid + 1, sizeof *g->ulen);
    g->ustate = rsc_mem_calloc(g->m, g->nuid + 1, sizeof *g->ustate);
    if (!g->ulen || !g->ustate || trie_new(g, 0, 0) == NIL)
        return RSC_E_NOMEM;
    for (size_t i = 0; i < g->ns; i++) {
        const seg *x = &g->s[g->order[i]];
        if (i && g->s[g->order[i - 1]].uid == x->uid)
            continue;
        uint32_t u = 0;
        for (uint32_t k = 0; k < x->len; k++) {
            uint32_t v = trie_child(g, u, x->p[k]);
            if (v == NIL) {
                if ((v = trie_new(g, x->p[k], x->off + k)) == NIL)
                    return RSC_E_NOMEM;
                /* byte order: a new child is the greatest so far */
                uint32_t *pp = &g->tfirst[u];
                while (*pp != NIL)
                    pp = &g->tnext[*pp];
                *pp = v;
            }
            u = v;
        }
        g->tseg[u] = x->uid, g->ulen[x->uid] = x->len, g->ustate[x->uid] = u;
    }
    size_t n = g->n_auto = g->nt;
    g->bfs = rsc_mem_calloc(g->m, n, sizeof *g->bfs);
    g->pos = rsc_mem_calloc(g->m, n, sizeof *g->pos);
    g->fail = rsc_mem_calloc(g->m, n, sizeof *g->fail);
    g->dict = rsc_mem_calloc(g->m, n, sizeof *g->dict);
    g->chain = rsc_mem_calloc(g->m, n, sizeof *g->chain);
    g->depth = rsc_mem_calloc(g->m, n, sizeof *g->depth);
    g->nkid = rsc_mem_calloc(g->m, n, sizeof *g->nkid);
    g->implicit = rsc_mem_calloc(g->m, n, 1);
    if (!g->bfs || !g->pos || !g->fail || !g->dict || !g->chain || !g->depth || !g->nkid ||
        !g->implicit)
        return RSC_E_NOMEM;
    size_t qh = 0, qt = 0;
    g->bfs[qt++] = 0;
    while (qh < qt) {
        uint32_t u = g->bfs[qh++];
        g->pos[u] = (uint32_t)qh - 1;
        for (uint32_t v = g->tfirst[u]; v != NIL; v = g->tnext[v]) {
            g->bfs[qt++] = v;
            g->depth[v] = g->depth[u] + 1, g->nkid[u]++;
            uint32_t f = 0;
            if (u != 0) {
                for (f = g->fail[u];; f = g->fail[f]) {
                    uint32_t w = trie_child(g, f, g->tkey[v]);
                    if (w != NIL) {
                        f = w;
                        break;
                    }
                    if (f == 0)
                        break;
                }
            }
            g->fail[v] = f;
            /* the nearest proper suffix that is a segment (0: none) */
            g->dict[v] = g->tseg[f] != NIL ? f : g->dict[f];
            g->chain[v] = (g->tseg[v] != NIL) + g->chain[g->dict[v]];
            if (g->chain[v] > RSC_MAX_CHAIN)
                return RSC_OVER_BUDGET;
        }
    }
    /* FORMAT.md, Labels: a state on a straight run, that nothing fails to */
    for (size_t v = 1; v < n; v++)
        g->implicit[v] = g->nkid[v] == 1 && g->tseg[v] == NIL && !g->dict[v] && !g->fail[v];
    for (size_t v = 1; v < n; v++)
        g->implicit[g->fail[v]] = 0;
    g->implicit[0] = 0;
    return RSC_OK;
}

/* Edges of one segment and kind, by Parent. */
typedef struct ecx {
    const edge *e;
    uint32_t nslots;
} ecx;
static int cmp_edge(const void *cx, uint32_t a, uint32_t b)
{
    const ecx *c = cx;
    const edge *x = &c->e[a], *y = &c->e[b];
    const uint32_t ns = c->nslots;
    if (x->uid != y->uid)
        return x->uid < y->uid ? -1 : 1;
    if (x->anch != y->anch)
        return x->anch < y->anch ? -1 : 1;
    /* by Parent as emitted: slots, then internal nodes */
    uint32_t px = x->parent & INTERNAL ? ns + (x->parent & ~INTERNAL) : x->parent;
    uint32_t py = y->parent & INTERNAL ? ns + (y->parent & ~INTERNAL) : y->parent;
    return (px > py) - (px < py);
}

/* OUTS rows: shorter segments first, so that Next points backwards. */
static int cmp_row(const void *cx, uint32_t x, uint32_t y)
{
    const uint32_t *len = cx;
    if (len[x] != len[y])
        return len[x] < len[y] ? -1 : 1;
    return (x > y) - (x < y);
}

static int put_table(rsc_mem *m, rsc_buf *out, const uint32_t *v, size_t n, unsigned cols)
{
    return rsc_buf_table(m, out, v, n, cols);
}

/* Out of automaton state u: 1 + the OUTS row of the longest segment that
 * is a suffix of its string, or 0. */
static uint32_t state_out(const gb *g, uint32_t u)
{
    uint32_t o = g->tseg[u] != NIL ? g->tseg[u] : g->dict[u] ? g->tseg[g->dict[u]] : NIL;
    return o == NIL ? 0 : g->urow[o] + 1;
}

/* STATES without labels: every state in BFS order, 5 columns. */
static void states_plain(const gb *g, uint32_t *sv)
{
    for (size_t i = 0; i < g->nt; i++) {
        uint32_t u = g->bfs[i], *x = &sv[i * RSC_STATES_COLS];
        x[0] = g->tkey[u], x[1] = g->tfirst[u] != NIL ? g->pos[g->tfirst[u]] : 0;
        x[2] = g->nkid[u], x[3] = g->pos[g->fail[u]], x[4] = state_out(g, u);
    }
}

/* STATES with labels (FORMAT.md, Labels): the explicit states only, in BFS
 * order of the tree without the implicit ones; 7 columns. A straight run
 * below an explicit state was made by one segment (a state made by a
 * segment that goes on, with one child, got that child from it too), so
 * its bytes lie together in that segment's match text. q, start, cpos
 * hold nt entries; returns the number of rows. */
static size_t states_labelled(const gb *g, uint32_t *sv, uint32_t *q, uint32_t *start,
                              uint32_t *cpos)
{
    size_t qh = 0, qt = 0;
    q[qt] = 0, start[qt++] = 0, cpos[0] = 0;
    while (qh < qt) {
        uint32_t u = q[qh], *x = &sv[qh * RSC_STATES_COLS_LAB], c = start[qh];
        x[0] = g->tkey[c], x[1] = g->nkid[u] ? (uint32_t)qt : 0, x[2] = g->nkid[u];
        x[4] = state_out(g, u);
        x[6] = g->depth[u] - g->depth[c], x[5] = x[6] ? g->tsoff[g->tfirst[c]] : 0;
        qh++;
        for (uint32_t v = g->tfirst[u]; v != NIL; v = g->tnext[v]) {
            uint32_t w = v;
            while (g->implicit[w])
                w = g->tfirst[w];
            cpos[w] = (uint32_t)qt, start[qt] = v, q[qt++] = w;
        }
    }
    for (size_t i = 0; i < qt; i++) /* failure links end at explicit states */
        sv[i * RSC_STATES_COLS_LAB + 3] = cpos[g->fail[q[i]]];
    return qt;
}

/* OUTS rows in order of segment length, so that Next always points to an
 * earlier row; then every table. */
static rsc_status emit(gb *g, const uint32_t *levels, uint32_t nslots, rsc_buf *out,
                       rsc_glob_stats *stats)
{
    rsc_mem *m = g->m;
    /* v: scratch rows for ROOTS, OUTS and EDGES (STATES has su and sl) */
    size_t nrow = g->nuid, n = g->nt, cells = (nrow + 1) * 6 + (g->ne + 1) * 4 +
                                                (size_t)(nslots + 1) * 2;
    uint32_t *v = rsc_mem_calloc(m, cells, sizeof *v);
    uint32_t *eo = rsc_mem_calloc(m, g->ne + 1, sizeof *eo);
    uint32_t *rows = rsc_mem_calloc(m, nrow + 1, sizeof *rows);
    g->urow = rsc_mem_calloc(m, nrow + 1, sizeof *g->urow);
    /* the two forms of STATES, and the queues of the labelled one */
    uint32_t *su = rsc_mem_calloc(m, (n + 1) * RSC_STATES_COLS, sizeof *su);
    uint32_t *sl = rsc_mem_calloc(m, (n + 1) * RSC_STATES_COLS_LAB, sizeof *sl);
    uint32_t *q = rsc_mem_calloc(m, (n + 1) * 3, sizeof *q);
    rsc_status st = RSC_E_NOMEM;
    if (!v || !eo || !rows || !g->urow || !su || !sl || !q)
        goto out;
    /* rows by (length, uid) */
    for (uint32_t u = 0; u < nrow; u++)
        rows[u] = u;
    if (rsc_msort(m, rows, nrow, cmp_row, g->ulen) != 0)
        goto out;
    for (uint32_t r = 0; r < nrow; r++)
        g->urow[rows[r]] = r;
    for (size_t i = 0; i < g->ne; i++)
        eo[i] = (uint32_t)i;
    ecx ec = {g->e, nslots};
    if (rsc_msort(m, eo, g->ne, cmp_edge, &ec) != 0)
        goto out;
    /* budget: edges of one segment whose parent is an internal node (the
     * matcher scans them; those of root slots it searches) */
    for (size_t i = 0, run = 0; i < g->ne; i++) {
        const edge *a = &g->e[eo[i]], *b = i ? &g->e[eo[i - 1]] : NULL;
        if (!(a->parent & INTERNAL))
            continue;
        run = b && (b->parent & INTERNAL) && b->uid == a->uid && b->anch == a->anch ? run + 1 : 1;
        if (run > RSC_MAX_INNER) {
            st = RSC_OVER_BUDGET;
            goto out;
        }
    }
    /* STATES: with labels when that is smaller (FORMAT.md, Labels) */
    size_t ns = g->ne ? n : 0, nl = 0;
    int lab = 0;
    states_plain(g, su);
    if (ns) {
        nl = states_labelled(g, sl, q, q + n + 1, q + 2 * (n + 1));
        lab = nl < ns && rsc_table_size(sl, nl, RSC_STATES_COLS_LAB) <
                             rsc_table_size(su, ns, RSC_STATES_COLS);
    }
    if (rsc_buf_varint(m, out, g->nint << RSC_SHAPE_SHIFT | (lab ? RSC_SHAPE_LABELS : 0)) != 0)
        goto out;
    /* ROOTS: Level, Max */
    uint32_t *rv = v;
    for (uint32_t s = 0; s < nslots; s++)
        rv[s * 2] = levels[s], rv[s * 2 + 1] = 0;
    for (size_t i = 0; i < g->ne; i++)
        if (!(g->e[i].parent & INTERNAL) && g->e[i].max > rv[g->e[i].parent * 2 + 1])
            rv[g->e[i].parent * 2 + 1] = g->e[i].max;
    if (put_table(m, out, rv, nslots, RSC_ROOTS_COLS) != 0)
        goto out;
    /* OUTS: Len, Next, Max, Edge, N_Float, N_Anch */
    uint32_t *ov = v;
    memset(ov, 0, (nrow + 1) * 6 * sizeof *ov);
    for (size_t i = 0; i < g->ne; i++) {
        const edge *e = &g->e[eo[i]];
        uint32_t *o = &ov[g->urow[e->uid] * 6];
        if (o[4] + o[5] == 0)
            o[3] = (uint32_t)i;
        o[e->anch ? 5 : 4]++;
        if (e->max > o[2])
            o[2] = e->max;
    }
    for (uint32_t r = 0; r < nrow; r++) {
        uint32_t u = rows[r], s = g->ustate[u], d = g->dict[s];
        uint32_t *o = &ov[r * 6];
        o[0] = g->ulen[u];
        o[1] = d ? g->urow[g->tseg[d]] + 1 : 0;
        if (o[1] && ov[(o[1] - 1) * 6 + 2] > o[2]) /* Max covers the rest of the chain */
            o[2] = ov[(o[1] - 1) * 6 + 2];
    }
    if (put_table(m, out, ov, nrow, RSC_OUTS_COLS) != 0)
        goto out;
    if (lab ? put_table(m, out, sl, nl, RSC_STATES_COLS_LAB) != 0
            : put_table(m, out, su, ns, RSC_STATES_COLS) != 0)
        goto out;
    /* EDGES: Parent, Rank, Target, Max */
    uint32_t *ev = v;
    for (size_t i = 0; i < g->ne; i++) {
        const edge *e = &g->e[eo[i]];
        ev[i * 4] = e->parent & INTERNAL ? nslots + (e->parent & ~INTERNAL) : e->parent;
        ev[i * 4 + 1] = e->rank;
        ev[i * 4 + 2] = e->target == NIL ? 0 : e->target + 1;
        ev[i * 4 + 3] = e->max;
    }
    if (put_table(m, out, ev, g->ne, RSC_EDGES_COLS) != 0 ||
        (nslots && rsc_buf_put(m, out, NULL, RSC_PAD) != 0))
        goto out;
    if (stats) {
        stats->states = (uint32_t)(lab ? nl : ns);
        stats->edges = (uint32_t)g->ne;
        stats->internal = g->nint;
    }
    st = RSC_OK;
out:
    rsc_mem_free(m, v, cells * sizeof *v);
    rsc_mem_free(m, eo, (g->ne + 1) * sizeof *eo);
    rsc_mem_free(m, rows, (nrow + 1) * sizeof *rows);
    rsc_mem_free(m, su, (n + 1) * RSC_STATES_COLS * sizeof *su);
    rsc_mem_free(m, sl, (n + 1) * RSC_STATES_COLS_LAB * sizeof *sl);
    rsc_mem_free(m, q, (n + 1) * 3 * sizeof *q);
    return st;
}

/* note [chain]
 * One rule can be over the budgets on its own: more than RSC_MAX_INTERNAL
 * segments, or more than RSC_MAX_CHAIN of them suffixes of one another.
 * Such a rule is a program of its own in chain form: one automaton per
 * segment (its bytes in a line, failure links as Knuth-Morris-Pratt's),
 * searched one after the other from where the previous one ended. Greedy
 * leftmost placement needs no other state, so the matcher keeps just the
 * segment it is looking for: one move a byte, whatever the rule. */
static rsc_status emit_chain(gb *g, const rsc_gent *ent, const uint32_t *levels, rsc_buf *out,
                             rsc_glob_stats *stats)
{
    rsc_mem *m = g->m;
    const uint8_t *t = ent->tail;
    uint32_t tl = ent->tlen, k = 0, states = 0, maxlen = 0;
    uint8_t anch = ent->anchored && tl && t[tl - 1] != '*';
    for (uint32_t i = 0; i < tl; i++)
        if (t[i] != '*') {
            uint32_t a = i;
            while (i < tl && t[i] != '*')
                i++;
            k++, states += i - a + 1;
            if (i - a > maxlen)
                maxlen = i - a;
        }
    size_t cells = (size_t)states * 5 + (size_t)k * 6 + 8;
    uint32_t *v = rsc_mem_calloc(m, cells, sizeof *v);
    uint32_t *pi = rsc_mem_calloc(m, (size_t)maxlen + 1, sizeof *pi);
    rsc_status st = RSC_E_NOMEM;
    if (!v || !pi)
        goto out;
    if (rsc_buf_varint(m, out, (k - 1) << RSC_SHAPE_SHIFT | RSC_SHAPE_CHAIN) != 0)
        goto out;
    uint32_t roots[2] = {levels[0], ent->rank};
    if (rsc_buf_table(m, out, roots, 1, RSC_ROOTS_COLS) != 0)
        goto out;
    /* OUTS: segment i in rule order; its edge is edge i */
    uint32_t i = 0, j = 0;
    for (uint32_t a = 0; a < tl; a++) {
        if (t[a] == '*')
            continue;
        uint32_t b = a;
        while (b < tl && t[b] != '*')
            b++;
        int last = i + 1 == k;
        uint32_t *o = &v[i * 6];
        o[0] = b - a, o[1] = 0, o[2] = ent->rank, o[3] = i;
        o[4] = !(last && anch), o[5] = last && anch;
        i++, a = b;
    }
    if (rsc_buf_table(m, out, v, k, RSC_OUTS_COLS) != 0)
        goto out;
    /* STATES: segment i's line of Len + 1 states from B_i */
    i = 0;
    for (uint32_t a = 0; a < tl; a++) {
        if (t[a] == '*')
            continue;
        uint32_t b = a, base = j;
        while (b < tl && t[b] != '*')
            b++;
        const uint8_t *sg = t + a;
        uint32_t len = b - a;
        pi[0] = pi[1] = 0; /* pi[d]: longest proper border of sg[0..d) */
        for (uint32_t d = 1, q = 0; d < len; d++) {
            while (q && sg[d] != sg[q])
                q = pi[q];
            q += sg[d] == sg[q];
            pi[d + 1] = q;
        }
        for (uint32_t d = 0; d <= len; d++, j++) {
            uint32_t *x = &v[j * 5];
            x[0] = d ? sg[d - 1] : 0, x[1] = d < len ? j + 1 : 0, x[2] = d < len;
            x[3] = base + (d ? pi[d] : 0), x[4] = d == len ? i + 1 : 0;
        }
        i++, a = b;
    }
    if (rsc_buf_table(m, out, v, states, RSC_STATES_COLS) != 0)
        goto out;
    /* EDGES: segment i from slot 0 (i = 0) or internal node i - 1 */
    for (i = 0; i < k; i++) {
        uint32_t *e = &v[i * 4];
        e[0] = i ? 1 + (i - 1) : 0, e[1] = i + 1 == k ? ent->rank : 0;
        e[2] = i + 1 < k ? i + 1 : 0, e[3] = ent->rank;
    }
    if (rsc_buf_table(m, out, v, k, RSC_EDGES_COLS) != 0 || rsc_buf_put(m, out, NULL, RSC_PAD) != 0)
        goto out;
    if (stats)
        stats->states = states, stats->edges = k, stats->internal = k - 1;
    st = RSC_OK;
out:
    rsc_mem_free(m, v, cells * sizeof *v);
    rsc_mem_free(m, pi, ((size_t)maxlen + 1) * sizeof *pi);
    return st;
}

rsc_status rsc_glob_emit(rsc_mem *m, const rsc_gent *ent, size_t n, const uint32_t *levels,
                         uint32_t nslots, rsc_buf *out, rsc_glob_stats *stats)
{
    gb g;
    if (n == 0) { /* no wildcard rule: Shape 0 and four empty Tables */
        static const uint8_t none[5] = {0, 0, 0, 0, 0};
        if (stats)
            memset(stats, 0, sizeof *stats);
        return rsc_buf_put(m, out, none, sizeof none) != 0 ? RSC_E_NOMEM : RSC_OK;
    }
    memset(&g, 0, sizeof g);
    g.m = m;
    rsc_status st = build_edges(&g, ent, n);
    if (st == RSC_OK)
        st = edge_max(&g);
    if (st == RSC_OK)
        st = build_automaton(&g);
    if (st == RSC_OK)
        st = emit(&g, levels, nslots, out, stats);
    gb_free(&g);
    if (st == RSC_OVER_BUDGET && n == 1) { /* note [chain] */
        memset(&g, 0, sizeof g);
        g.m = m;
        st = emit_chain(&g, ent, levels, out, stats);
    }
    return st;
}
