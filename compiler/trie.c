/* SPDX-License-Identifier: Apache-2.0 */
/* Programs (docs/FORMAT.md, PROGRAMS): one rule set's patterns to a trie
 * with wildcard tails, encoded in preorder.
 *
 * Each pattern is cut at its first '*': the literal prefix S0 places it in
 * the trie, and it becomes the node's Accept (S0, or S0 followed by stars
 * only), its End ('$'-anchored, no star) or a glob entry (the rest, from
 * the '*'; an entry names its rule, whose match text holds the tail). The
 * trie is built from the distinct prefixes in sorted order with the classic
 * longest-common-prefix stack, so building is linear in the pattern bytes
 * after the sort, and no automaton is ever determinised.
 * Entries that can never decide (rank not above the best Accept on the way
 * from the root: that rule matches whenever they do) are dropped and the
 * trie is built again from the rest. The encoding needs each subtree's size
 * before its parent's offsets, so sizes are computed bottom-up first. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "format.h"

enum { K_ACCEPT, K_END, K_GLOB };

typedef struct ent {
    uint64_t key;     /* rsc_prefix_key() of S0 */
    const uint8_t *s; /* the pattern: S0 = s[0..s0), tail = s[s0..len) */
    uint32_t s0, len, rank, moff; /* moff: s's offset in STRINGS */
    uint8_t kind, drop, anchored;
} ent;

#define NIL UINT32_MAX

typedef struct tnode {
    const uint8_t *str; /* a pattern whose first depth bytes are this node's */
    uint32_t rep;       /* that pattern's rank: labels may point into it */
    uint32_t depth, parent, first, last, next, nchild;
    uint32_t accept, end;
    uint32_t e0, en; /* its entries: ents[e0 .. e0+en) */
    uint32_t level;  /* nodes from the root, the root 1 (preorder) */
    uint32_t floor;  /* best Accept from the root to here (prune) */
    uint32_t slot;   /* root slot + 1 when it has live globs, else 0 */
    uint32_t floor2; /* root slots from the root to here */
    size_t size;     /* encoded subtree bytes (encode) */
} tnode;

typedef struct trie {
    rsc_mem *m;
    ent *e;
    size_t ne;
    tnode *t;
    size_t nt, cap;
    uint32_t *order; /* preorder */
    uint32_t *stack;
} trie;

/* S0 in byte order, then best rank first: a node's globs come out sorted.
 * The keys compare first (rsc_prefix_key), so most compares need no
 * memcmp. */
static int cmp_ent(const void *a, const void *b)
{
    const ent *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    uint32_t n = x->s0 < y->s0 ? x->s0 : y->s0;
    int d = n ? memcmp(x->s, y->s, n) : 0;
    if (d)
        return d;
    if (x->s0 != y->s0)
        return x->s0 < y->s0 ? -1 : 1;
    return x->rank > y->rank ? -1 : x->rank < y->rank;
}

static uint32_t new_node(trie *tr, const ent *e, uint32_t depth, uint32_t parent)
{
    if (rsc_mem_grow(tr->m, (void **)&tr->t, sizeof *tr->t, &tr->cap, tr->nt + 1) != 0)
        return NIL;
    tnode *x = &tr->t[tr->nt];
    memset(x, 0, sizeof *x);
    x->str = e ? e->s : NULL, x->rep = e ? e->rank : 0;
    x->depth = depth, x->parent = parent;
    x->first = x->last = x->next = NIL;
    return (uint32_t)tr->nt++;
}

static void add_child(trie *tr, uint32_t p, uint32_t c)
{
    tnode *x = &tr->t[p];
    if (x->last == NIL)
        x->first = c;
    else
        tr->t[x->last].next = c;
    x->last = c;
    x->nchild++;
    tr->t[c].parent = p;
}

/* The trie of the entries not dropped (ents sorted by cmp_ent). */
static rsc_status build(trie *tr)
{
    uint32_t sp = 0, root;
    tr->nt = 0;
    if ((root = new_node(tr, NULL, 0, NIL)) == NIL)
        return RSC_E_NOMEM;
    tr->stack[sp++] = root;
    const ent *prev = NULL;
    for (size_t i = 0; i < tr->ne; i++) {
        const ent *e = &tr->e[i];
        if (e->drop)
            continue;
        uint32_t node;
        if (prev && prev->s0 == e->s0 && memcmp(prev->s, e->s, e->s0) == 0) {
            node = tr->stack[sp - 1]; /* same prefix as the previous entry */
        } else {
            uint32_t lcp = 0, popped = NIL;
            if (prev)
                while (lcp < prev->s0 && lcp < e->s0 && prev->s[lcp] == e->s[lcp])
                    lcp++;
            while (tr->t[tr->stack[sp - 1]].depth > lcp)
                popped = tr->stack[--sp];
            uint32_t top = tr->stack[sp - 1];
            if (tr->t[top].depth < lcp) { /* split the edge top -> popped */
                uint32_t mid = new_node(tr, e, lcp, top);
                if (mid == NIL)
                    return RSC_E_NOMEM;
                tnode *t = &tr->t[top];
                if (t->first == popped) {
                    t->first = mid;
                } else {
                    uint32_t k = t->first;
                    while (tr->t[k].next != popped)
                        k = tr->t[k].next;
                    tr->t[k].next = mid;
                }
                t->last = mid;
                tr->t[mid].first = tr->t[mid].last = popped;
                tr->t[mid].nchild = 1;
                tr->t[popped].parent = mid;
                tr->t[popped].next = NIL;
                tr->stack[sp++] = top = mid;
            }
            node = top;
            if (tr->t[top].depth < e->s0) {
                node = new_node(tr, e, e->s0, top);
                if (node == NIL)
                    return RSC_E_NOMEM;
                add_child(tr, top, node);
                tr->stack[sp++] = node;
            }
            tr->t[node].e0 = (uint32_t)i;
        }
        tnode *x = &tr->t[node];
        x->en = (uint32_t)i + 1 - x->e0;
        if (e->kind == K_ACCEPT && e->rank > x->accept)
            x->accept = e->rank;
        if (e->kind == K_END && e->rank > x->end)
            x->end = e->rank;
        prev = e;
    }
    return RSC_OK;
}

/* Preorder into tr->order; RSC_E_LIMIT past RSC_MAX_DEPTH nodes a chain. */
static rsc_status preorder(trie *tr)
{
    size_t n = 0, sp = 0;
    tr->stack[sp++] = 0;
    while (sp) {
        uint32_t v = tr->stack[--sp];
        tr->order[n++] = v;
        tr->t[v].level = v ? tr->t[tr->t[v].parent].level + 1 : 1;
        if (tr->t[v].level > RSC_MAX_DEPTH)
            return RSC_E_LIMIT;
        /* push children last-to-first so the first is visited first */
        size_t at = sp + tr->t[v].nchild;
        for (uint32_t c = tr->t[v].first; c != NIL; c = tr->t[c].next)
            tr->stack[--at] = c;
        sp += tr->t[v].nchild;
    }
    return RSC_OK;
}

/* Marks entries that can never decide (FORMAT.md, Nodes); 1 if any. */
static int prune(trie *tr)
{
    int any = 0;
    for (size_t k = 0; k < tr->nt; k++) {
        tnode *x = &tr->t[tr->order[k]];
        uint32_t floor = x->parent == NIL ? 0 : tr->t[x->parent].floor;
        for (uint32_t i = x->e0; i < x->e0 + x->en; i++) {
            ent *e = &tr->e[i];
            if (e->drop || e->kind != K_ACCEPT)
                continue;
            if (e->rank <= floor || e->rank < x->accept)
                e->drop = 1, any = 1;
        }
        if (x->accept > floor)
            floor = x->accept;
        for (uint32_t i = x->e0; i < x->e0 + x->en; i++) {
            ent *e = &tr->e[i];
            if (!e->drop && e->kind != K_ACCEPT && (e->rank <= floor || (e->kind == K_END && e->rank < x->end)))
                e->drop = 1, any = 1;
        }
        x->floor = floor; /* for the children, later in preorder */
    }
    return any;
}

/* Whether the node has live globs; *bytes: its Slot varint, or 0. */
static uint32_t globs_size(const trie *tr, const tnode *x, size_t *bytes)
{
    (void)tr;
    *bytes = x->slot ? rsc_varint_size(x->slot - 1) : 0;
    return x->slot != 0;
}

/* Root slots in preorder, and each one's level: the slots above it on its
 * chain (RSC_MAX_LEVELS at most, else the rule set is split). */
static rsc_status assign_slots(trie *tr, uint32_t *levels, uint32_t *nslots)
{
    uint32_t n = 0;
    for (size_t k = 0; k < tr->nt; k++) {
        tnode *x = &tr->t[tr->order[k]];
        x->slot = 0;
        for (uint32_t i = x->e0; i < x->e0 + x->en; i++)
            if (!tr->e[i].drop && tr->e[i].kind == K_GLOB) {
                x->slot = ++n;
                break;
            }
        /* level: slots on the way from the root, kept in level (reused) */
        uint32_t above = x->parent == NIL ? 0 : tr->t[x->parent].floor2;
        x->floor2 = above + (x->slot != 0);
        if (x->slot) {
            if (above >= RSC_MAX_LEVELS)
                return RSC_OVER_BUDGET;
            levels[x->slot - 1] = above;
        }
    }
    *nslots = n;
    return RSC_OK;
}

/* A label longer than the varint of its Rep points into the Rep's text. */
static int label_ref(const tnode *x, uint32_t ll)
{
    return ll > rsc_varint_size(x->rep);
}

static uint32_t label_len(const trie *tr, const tnode *x)
{
    return x->parent == NIL ? 0 : x->depth - tr->t[x->parent].depth - 1;
}

/* A leaf that only accepts, or only ends, one rank is that rank alone
 * (RSC_LEAF_ACCEPT, RSC_LEAF_END; its label lies in the rank's text),
 * else 0. Not the root, whose Label_Head is 0. */
static uint32_t leaf_kind(const tnode *x, uint32_t gn)
{
    if (x->parent == NIL || x->nchild || gn || (x->accept != 0) == (x->end != 0))
        return 0;
    return x->accept ? RSC_LEAF_ACCEPT : RSC_LEAF_END;
}

/* Label_Head .. Keys: everything but Offsets and the children. */
static size_t head_size(const trie *tr, const tnode *x, uint32_t head, uint32_t gn,
                        size_t gbytes)
{
    uint32_t ll = label_len(tr, x), leaf = leaf_kind(x, gn);
    if (leaf)
        return rsc_varint_size(ll << RSC_LABEL_SHIFT | leaf) +
               rsc_varint_size(x->accept | x->end);
    size_t n = rsc_varint_size(ll << RSC_LABEL_SHIFT) + rsc_varint_size(head) + x->nchild + gbytes;
    n += label_ref(x, ll) ? rsc_varint_size(x->rep) : ll;
    if (x->accept)
        n += rsc_varint_size(x->accept);
    if (x->end)
        n += rsc_varint_size(x->end);
    return n;
}

static uint32_t head_of(const tnode *x, unsigned w, uint32_t gn)
{
    return x->nchild << RSC_N_CHILD_SHIFT | (uint32_t)(w - 1) << RSC_N_WIDTH_SHIFT |
           (gn ? RSC_N_ROOT : 0) | (x->end ? RSC_N_END : 0) | (x->accept ? RSC_N_ACCEPT : 0);
}

/* Offsets width of node x, from its last Offset (children 1.. have one;
 * the first starts at 0): its children's sizes must be known. */
static unsigned width_of(const trie *tr, const tnode *x)
{
    size_t off = 0;
    for (uint32_t c = x->first; c != NIL && tr->t[c].next != NIL; c = tr->t[c].next)
        off += tr->t[c].size;
    return rsc_width(off > UINT32_MAX ? UINT32_MAX : (uint32_t)off);
}

static rsc_status encode(trie *tr, rsc_buf *out)
{
    for (size_t k = tr->nt; k-- > 0;) { /* children before parents */
        tnode *x = &tr->t[tr->order[k]];
        size_t gbytes;
        uint32_t gn = globs_size(tr, x, &gbytes);
        unsigned w = width_of(tr, x);
        size_t sz = head_size(tr, x, head_of(x, w, gn), gn, gbytes) +
                    (size_t)(x->nchild ? x->nchild - 1 : 0) * w;
        for (uint32_t c = x->first; c != NIL; c = tr->t[c].next)
            sz += tr->t[c].size;
        if (sz > UINT32_MAX)
            return RSC_E_LIMIT;
        x->size = sz;
    }
    rsc_mem *m = tr->m;
    if (rsc_buf_varint(m, out, (uint32_t)tr->t[0].size) != 0)
        return RSC_E_NOMEM;
    size_t at = out->len;
    if (rsc_buf_put(m, out, NULL, tr->t[0].size) != 0)
        return RSC_E_NOMEM;
    uint8_t *p = out->p + at;
#define PUTV(v) (p += rsc_put_varint(p, (v)))
    for (size_t k = 0; k < tr->nt; k++) {
        const tnode *x = &tr->t[tr->order[k]];
        size_t gbytes;
        uint32_t gn = globs_size(tr, x, &gbytes), ll = label_len(tr, x);
        uint32_t leaf = leaf_kind(x, gn);
        if (leaf) {
            PUTV(ll << RSC_LABEL_SHIFT | leaf);
            PUTV(x->accept | x->end);
            continue;
        }
        unsigned w = width_of(tr, x);
        if (label_ref(x, ll)) {
            PUTV(ll << RSC_LABEL_SHIFT | RSC_LABEL_REF);
            PUTV(x->rep);
        } else {
            PUTV(ll << RSC_LABEL_SHIFT);
            if (ll) /* the root has no string */
                memcpy(p, x->str + x->depth - ll, ll);
            p += ll;
        }
        PUTV(head_of(x, w, gn));
        if (x->accept)
            PUTV(x->accept);
        if (x->end)
            PUTV(x->end);
        if (gn)
            PUTV(x->slot - 1);
        for (uint32_t c = x->first; c != NIL; c = tr->t[c].next)
            *p++ = tr->t[c].str[x->depth];
        uint32_t off = 0;
        for (uint32_t c = x->first; c != NIL; c = tr->t[c].next) {
            if (c != x->first) {
                rsc_put_n(p, off, w);
                p += w;
            }
            off += (uint32_t)tr->t[c].size;
        }
    }
#undef PUTV
    return p == out->p + out->len ? RSC_OK : RSC_E_LIMIT;
}

rsc_status rsc_trie_emit(rsc_mem *m, const rsc_tpat *pats, size_t n, int no_prune,
                         rsc_buf *out, rsc_trie_stats *stats)
{
    trie tr;
    uint32_t *levels = NULL;
    rsc_gent *gents = NULL;
    memset(&tr, 0, sizeof tr);
    tr.m = m;
    tr.ne = n;
    rsc_status st = RSC_E_NOMEM;
    tr.e = rsc_mem_calloc(m, n + 1, sizeof *tr.e);
    /* at most 2 nodes an entry, plus the root */
    tr.stack = rsc_mem_calloc(m, 2 * n + 2, sizeof *tr.stack);
    tr.order = rsc_mem_calloc(m, 2 * n + 2, sizeof *tr.order);
    if (!tr.e || !tr.stack || !tr.order)
        goto out;
    for (size_t i = 0; i < n; i++) {
        ent *e = &tr.e[i];
        const uint8_t *star = pats[i].len ? memchr(pats[i].bytes, '*', pats[i].len) : NULL;
        e->s = pats[i].bytes, e->len = pats[i].len, e->rank = pats[i].rank;
        e->moff = pats[i].moff;
        e->anchored = pats[i].anchored;
        e->s0 = star ? (uint32_t)(star - e->s) : e->len;
        e->key = rsc_prefix_key(e->s, e->s0);
        uint32_t k = e->s0;
        while (k < e->len && e->s[k] == '*')
            k++;
        if (!star)
            e->kind = pats[i].anchored ? K_END : K_ACCEPT;
        else if (k == e->len) /* S0 and stars: a prefix rule ('$' is moot) */
            e->kind = K_ACCEPT;
        else
            e->kind = K_GLOB; /* its tail is read from the rule's match text */
    }
    qsort(tr.e, n, sizeof *tr.e, cmp_ent);
    if ((st = build(&tr)) != RSC_OK || (st = preorder(&tr)) != RSC_OK)
        goto out;
    if (!no_prune && prune(&tr) &&
        ((st = build(&tr)) != RSC_OK || (st = preorder(&tr)) != RSC_OK))
        goto out;
    size_t start = out->len;
    uint32_t nslots = 0;
    levels = rsc_mem_calloc(m, 2 * n + 2, sizeof *levels);
    gents = rsc_mem_calloc(m, n + 1, sizeof *gents);
    st = !levels || !gents ? RSC_E_NOMEM : assign_slots(&tr, levels, &nslots);
    if (st == RSC_OK)
        st = encode(&tr, out);
    size_t ng = 0;
    for (size_t k = 0; st == RSC_OK && k < tr.nt; k++) {
        const tnode *x = &tr.t[tr.order[k]];
        for (uint32_t i = x->e0; x->slot && i < x->e0 + x->en; i++) {
            const ent *e = &tr.e[i];
            if (e->drop || e->kind != K_GLOB)
                continue;
            gents[ng].slot = x->slot - 1, gents[ng].rank = e->rank;
            gents[ng].tail = e->s + e->s0, gents[ng].tlen = e->len - e->s0;
            gents[ng].toff = e->moff + e->s0;
            gents[ng].anchored = e->anchored;
            ng++;
        }
    }
    rsc_glob_stats gs;
    memset(&gs, 0, sizeof gs);
    if (st == RSC_OK)
        st = rsc_glob_emit(m, gents, ng, levels, nslots, out, &gs);
    if (st != RSC_OK)
        out->len = start; /* over a budget: the caller splits */
    if (stats) {
        stats->nodes = (uint32_t)tr.nt;
        stats->globs = (uint32_t)ng;
        stats->slots = nslots;
        stats->states = gs.states, stats->edges = gs.edges, stats->internal = gs.internal;
    }
out:
    rsc_mem_free(m, levels, (2 * n + 2) * sizeof *levels);
    rsc_mem_free(m, gents, (n + 1) * sizeof *gents);
    rsc_mem_free(m, tr.e, (n + 1) * sizeof *tr.e);
    rsc_mem_free(m, tr.stack, (2 * n + 2) * sizeof *tr.stack);
    rsc_mem_free(m, tr.order, (2 * n + 2) * sizeof *tr.order);
    rsc_mem_free(m, tr.t, tr.cap * sizeof *tr.t);
    return st;
}
