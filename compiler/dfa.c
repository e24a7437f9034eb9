/* Patterns to priority-annotated DFAs: subset construction, minimisation,
 * ceilings, and the splitting of large rule sets (docs/LIMITS.md).
 *
 * The NFA of a pattern (spec E.1-E.3) has one position per byte: position q
 * means "the first q bytes of the pattern have matched". A '*' position
 * loops on every byte. Two facts keep the subsets small:
 *
 *  (a) A thread standing after a later '*' of a pattern subsumes every
 *      thread of the same pattern standing before it: whatever the earlier
 *      thread can still match, the later one matches too (the '*' absorbs the
 *      difference). So per pattern only the threads after its last reached
 *      '*' matter. Those threads are the prefixes of the current segment
 *      (the literal run between two '*') that are suffixes of the input read
 *      since that '*': exactly the borders of the longest one, as in
 *      Knuth-Morris-Pratt. So ONE number per pattern describes all its
 *      threads: the position of its longest live thread. The segment is
 *      then run as a KMP automaton (with Knuth's "strong" failure links, so
 *      one step walks O(log) links).
 *  (b) A pattern that is not end-anchored matches when it matches a prefix
 *      of the path: once complete it stays matched, and the running
 *      register remembers it. So it leaves the subset and its rank goes to
 *      accept[] of the state where it completes. In that state every thread
 *      of rank <= accept is useless too (the register is already that high),
 *      and dropping them makes more subsets coincide.
 *
 * A subset is therefore a sorted list of position ids, at most one per
 * pattern, plus the accept rank; subsets are interned in a hash table.
 * The construction stops with RSC_E_LIMIT as soon as a state, cell, stored
 * thread or work limit is passed, before the memory grows further.
 *
 * Minimisation is Valmari and Lehtinen's partition refinement for partial
 * DFAs (O(m log n), m = live transitions), started from the partition by
 * (accept, end). Every state of the subset DFA except the start state can
 * still yield a rank (each thread can complete), so "no transition" (DEAD)
 * and "a transition" are correctly told apart. Ceilings are computed over
 * the strongly connected components (Tarjan, iterative). */
#include "dfa.h"

#include <stdlib.h>
#include <string.h>

#define NONE32 UINT32_MAX

/* Defaults and caps (docs/LIMITS.md). */
#define DEF_BUDGET_BASE 256u
#define DEF_BUDGET_PER_BYTE 16u
#define CAP_STATES (1u << 20)      /* states of one DFA built from >1 pattern */
#define CAP_CELLS (1u << 24)       /* states x classes of one DFA (64 MiB)    */
#define THREADS_PER_STATE 64u      /* stored subset ids per state, on average */
#define WORK_ATTEMPT (1u << 23)    /* thread steps of one attempt with a star */
#define WORK_SET_BASE (1u << 25)   /* thread steps of one rule set, plus ...  */
#define WORK_SET_PER_BYTE 16u      /* ... this many per pattern byte          */
#define STAR_CHUNK 64u             /* at most this many '*' patterns a group  */

/* ------------------------------------------------------------------ */
/* Pattern preparation                                                 */
/* ------------------------------------------------------------------ */

enum { K_LIT = 0, K_STAR = 1, K_END_LIT = 2, K_END_STAR = 3 };

typedef struct ctx {
    rsc_mem *m;
    int flags;
    size_t n;        /* patterns                                   */
    uint32_t npos;   /* position ids                               */
    uint8_t *pb;     /* byte at each position (0 at the end)       */
    uint8_t *kind;   /* K_*                                        */
    uint32_t *pat;   /* pattern index of each position             */
    uint32_t *seg;   /* star phase: id of the segment start        */
    uint32_t *sf;    /* star phase: strong failure link, NONE32    */
    uint32_t *chain; /* star phase: first link to try (id or f)    */
    uint32_t *clos;  /* id after epsilon closure over one '*'      */
    uint32_t *base;  /* per pattern: id of position 0              */
    uint32_t *rank;  /* per pattern                                */
    uint8_t *anch;   /* per pattern                                */
    uint32_t *lenp;  /* per pattern: normalised length             */
    uint32_t n_classes;
    uint8_t classmap[256];
    uint8_t rep[256]; /* a byte of each class                       */
} ctx;

static void ctx_free(ctx *x)
{
    rsc_mem *m = x->m;
    rsc_mem_free(m, x->pb, x->npos);
    rsc_mem_free(m, x->kind, x->npos);
    rsc_mem_free(m, x->pat, (size_t)x->npos * 4);
    rsc_mem_free(m, x->seg, (size_t)x->npos * 4);
    rsc_mem_free(m, x->sf, (size_t)x->npos * 4);
    rsc_mem_free(m, x->chain, (size_t)x->npos * 4);
    rsc_mem_free(m, x->clos, (size_t)x->npos * 4);
    rsc_mem_free(m, x->base, x->n * 4);
    rsc_mem_free(m, x->rank, x->n * 4);
    rsc_mem_free(m, x->anch, x->n);
    rsc_mem_free(m, x->lenp, x->n * 4);
}

/* Normalised form of a pattern: runs of '*' collapse to one; a pattern that
 * is not anchored loses its trailing '*' (prefix semantics already give it);
 * an anchored pattern ending in '*' is the same as the unanchored one. */
static size_t norm_len(const rsc_pat *p, int *anch)
{
    size_t L = 0;
    for (size_t i = 0; i < p->len; i++)
        if (!(p->bytes[i] == '*' && i > 0 && p->bytes[i - 1] == '*'))
            L++;
    int a = p->anchored;
    if (L > 0 && p->bytes[p->len - 1] == '*') {
        L--;
        a = 0;
    }
    *anch = a;
    return L;
}

static rsc_status ctx_init(ctx *x, rsc_mem *m, const rsc_pat *pats, size_t n, int flags)
{
    memset(x, 0, sizeof *x);
    x->m = m;
    x->flags = flags;
    x->n = n;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        int a;
        total += norm_len(&pats[i], &a) + 1;
        if (total >= NONE32 / 2)
            return RSC_E_LIMIT;
    }
    x->npos = (uint32_t)total;
    x->pb = rsc_mem_alloc(m, total);
    x->kind = rsc_mem_alloc(m, total);
    x->pat = rsc_mem_calloc(m, total, 4);
    x->seg = rsc_mem_calloc(m, total, 4);
    x->sf = rsc_mem_calloc(m, total, 4);
    x->chain = rsc_mem_calloc(m, total, 4);
    x->clos = rsc_mem_calloc(m, total, 4);
    x->base = rsc_mem_calloc(m, n, 4);
    x->rank = rsc_mem_calloc(m, n, 4);
    x->anch = rsc_mem_alloc(m, n);
    x->lenp = rsc_mem_calloc(m, n, 4);
    if (!x->pb || !x->kind || !x->pat || !x->seg || !x->sf || !x->chain || !x->clos ||
        !x->base || !x->rank || !x->anch || !x->lenp) {
        ctx_free(x);
        return RSC_E_NOMEM;
    }
    int used[256] = {0};
    uint32_t id = 0;
    for (size_t i = 0; i < n; i++) {
        const rsc_pat *p = &pats[i];
        int a;
        uint32_t L = (uint32_t)norm_len(p, &a);
        x->base[i] = id;
        x->rank[i] = p->rank;
        x->anch[i] = (uint8_t)a;
        x->lenp[i] = L;
        uint8_t *b = x->pb + id;
        uint32_t q = 0;
        for (size_t j = 0; j < p->len && q < L; j++) {
            if (p->bytes[j] == '*' && j > 0 && p->bytes[j - 1] == '*')
                continue;
            b[q++] = p->bytes[j];
        }
        b[L] = 0;
        uint32_t segstart = NONE32; /* local index; NONE32 = before any '*' */
        for (q = 0; q <= L; q++) {
            uint32_t g = id + q;
            x->pat[g] = (uint32_t)i;
            if (q < L && b[q] == '*') {
                segstart = q + 1;
                x->kind[g] = K_STAR; /* used only in raw mode */
                x->seg[g] = NONE32;
                x->clos[g] = g;
                continue;
            }
            if (q < L)
                used[b[q]] = 1;
            int star = segstart != NONE32;
            x->kind[g] = (uint8_t)(q == L ? (star ? K_END_STAR : K_END_LIT) : (star ? K_STAR : K_LIT));
            x->seg[g] = star ? id + segstart : NONE32;
            x->clos[g] = (q < L && b[q] == '*') ? g + 1 : g;
        }
        for (q = 0; q < L; q++)
            if (b[q] == '*')
                x->clos[id + q] = id + q + 1;
        /* KMP failure links per star segment, in local segment offsets:
         * f[k] = longest proper border of seg[0..k); stored temporarily in
         * chain[], then turned into strong links sf[] (Knuth's "next"). */
        uint32_t s0 = 0;
        while (s0 < L && b[s0] != '*')
            s0++;
        while (s0 < L) { /* b[s0] == '*' */
            uint32_t a0 = s0 + 1, e = a0;
            while (e < L && b[e] != '*')
                e++;
            uint32_t len = e - a0;
            uint32_t *f = x->chain + id + a0; /* f[0..len] */
            const uint8_t *sg = b + a0;
            f[0] = NONE32;
            for (uint32_t j = 1; j <= len; j++) {
                /* border of sg[0..j): extend a border of sg[0..j-1) */
                uint32_t bj = f[j - 1];
                while (bj != NONE32 && sg[bj] != sg[j - 1])
                    bj = f[bj];
                f[j] = bj == NONE32 ? 0 : bj + 1;
            }
            /* strong links: for k < len, sf[k] = f[k] unless the byte after
             * that border equals sg[k], then sf[f[k]] */
            uint32_t *sfl = x->sf + id + a0;
            for (uint32_t j = 0; j < len; j++) {
                uint32_t fj = f[j];
                if (fj != NONE32 && sg[fj] == sg[j])
                    sfl[j] = sfl[fj];
                else
                    sfl[j] = fj;
            }
            uint32_t fl = f[len];
            sfl[len] = NONE32;
            /* chain: where a step from each position starts; convert all to
             * global ids */
            for (uint32_t j = 0; j < len; j++) {
                f[j] = id + a0 + j;
                if (sfl[j] != NONE32)
                    sfl[j] += id + a0;
            }
            f[len] = id + a0 + fl;
            s0 = e;
        }
        id += L + 1;
    }
    /* byte classes: each byte used by a pattern alone; the others together */
    uint32_t nc = 0;
    int other = -1;
    for (int c = 0; c < 256; c++) {
        if (used[c]) {
            x->rep[nc] = (uint8_t)c;
            x->classmap[c] = (uint8_t)nc++;
        } else {
            if (other < 0) {
                other = (int)nc;
                x->rep[nc++] = (uint8_t)c;
            }
            x->classmap[c] = (uint8_t)other;
        }
    }
    x->n_classes = nc;
    return RSC_OK;
}

/* One step of the thread at position id on byte c (KMP mode). Returns the
 * new position (after closure) or NONE32 when the thread dies. */
static uint32_t step(const ctx *x, uint32_t id, uint8_t c)
{
    switch (x->kind[id]) {
    case K_LIT:
        return x->pb[id] == c ? x->clos[id + 1] : NONE32;
    case K_END_LIT:
        return NONE32;
    default: {
        uint32_t k = x->chain[id];
        while (k != NONE32) {
            if (x->pb[k] == c)
                return x->clos[k + 1];
            k = x->sf[k];
        }
        return x->seg[id];
    }
    }
}

/* ------------------------------------------------------------------ */
/* Subset construction                                                 */
/* ------------------------------------------------------------------ */

typedef struct sstate {
    uint32_t off, len; /* in the id pool */
    uint32_t accept;
    uint32_t hash;
} sstate;

typedef struct builder {
    ctx *x;
    rsc_mem *m;
    sstate *st;
    size_t st_cap;
    uint32_t n_st;
    uint32_t *pool;
    size_t pool_cap, pool_len;
    uint64_t *ht; /* hash << 32 | (state index + 1); 0 = empty */
    size_t ht_cap;
    uint32_t *next;
    size_t next_cap;
    uint32_t *tmp, *tmp2;
    size_t tmp_cap;
    const rsc_dfa_limits *lim;
    uint64_t work;
    uint32_t max_states;
} builder;

static uint32_t hash_set(const uint32_t *v, size_t n, uint32_t acc)
{
    uint64_t h = 0x243F6A8885A308D3ull ^ (uint64_t)acc * 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ v[i]) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 29;
    }
    h *= 0xC4CEB9FE1A85EC53ull;
    return (uint32_t)(h >> 32);
}

static int ht_grow(builder *b)
{
    size_t ncap = b->ht_cap ? b->ht_cap * 2 : 1024;
    uint64_t *nt = rsc_mem_calloc(b->m, ncap, 8);
    if (!nt)
        return -1;
    for (uint32_t i = 0; i < b->n_st; i++) {
        size_t h = b->st[i].hash & (ncap - 1);
        while (nt[h])
            h = (h + 1) & (ncap - 1);
        nt[h] = (uint64_t)b->st[i].hash << 32 | (i + 1);
    }
    rsc_mem_free(b->m, b->ht, b->ht_cap * 8);
    b->ht = nt;
    b->ht_cap = ncap;
    return 0;
}

/* Interns (accept, v[0..n)); returns the state index, NONE32 on a limit
 * (status in *err). */
static uint32_t intern(builder *b, const uint32_t *v, uint32_t n, uint32_t acc, rsc_status *err)
{
    uint32_t h = hash_set(v, n, acc);
    size_t mask = b->ht_cap - 1;
    size_t i = h & mask;
    while (b->ht[i]) {
        if ((uint32_t)(b->ht[i] >> 32) == h) {
            uint32_t k = (uint32_t)b->ht[i] - 1;
            const sstate *s = &b->st[k];
            if (s->len == n && s->accept == acc && (n == 0 || memcmp(b->pool + s->off, v, (size_t)n * 4) == 0))
                return k;
        }
        i = (i + 1) & mask;
    }
    const rsc_dfa_limits *lim = b->lim;
    uint32_t nc = b->x->n_classes;
    if (b->n_st >= b->max_states || (lim->max_cells && (uint64_t)(b->n_st + 1) * nc > lim->max_cells) ||
        (lim->max_threads && b->pool_len + n > lim->max_threads)) {
        *err = RSC_E_LIMIT;
        return NONE32;
    }
    if (rsc_mem_grow(b->m, (void **)&b->st, sizeof(sstate), &b->st_cap, (size_t)b->n_st + 1) ||
        rsc_mem_grow(b->m, (void **)&b->pool, 4, &b->pool_cap, b->pool_len + n + 1) ||
        rsc_mem_grow(b->m, (void **)&b->next, 4, &b->next_cap, ((size_t)b->n_st + 1) * nc)) {
        *err = RSC_E_NOMEM;
        return NONE32;
    }
    sstate *s = &b->st[b->n_st];
    s->off = (uint32_t)b->pool_len;
    s->len = n;
    s->accept = acc;
    s->hash = h;
    if (n)
        memcpy(b->pool + b->pool_len, v, (size_t)n * 4);
    b->pool_len += n;
    b->ht[i] = (uint64_t)h << 32 | ++b->n_st;
    if ((size_t)b->n_st * 2 > b->ht_cap && ht_grow(b)) {
        *err = RSC_E_NOMEM;
        return NONE32;
    }
    return b->n_st - 1;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts v[0..n) (small insertion sort, else qsort) and removes duplicates. */
static uint32_t sort_unique(uint32_t *v, uint32_t n)
{
    if (n < 32) {
        for (uint32_t i = 1; i < n; i++) {
            uint32_t t = v[i], j = i;
            while (j > 0 && v[j - 1] > t) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = t;
        }
    } else {
        qsort(v, n, 4, cmp_u32);
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (k == 0 || v[k - 1] != v[i])
            v[k++] = v[i];
    return k;
}

/* Turns a raw list of successor ids into a state: completes, drops and
 * prunes (facts (a), (b) above). Returns the number of ids kept in v and
 * the accept rank in *acc. */
static uint32_t finish_set(const ctx *x, uint32_t *v, uint32_t n, uint32_t *acc)
{
    const int raw = x->flags & RSC_DFA_F_NO_SUBSUME;
    const int keep = x->flags & RSC_DFA_F_KEEP_DONE;
    if (raw)
        n = sort_unique(v, n);
    uint32_t a = 0, k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id = v[i];
        uint32_t p = x->pat[id];
        if ((x->kind[id] == K_END_LIT || x->kind[id] == K_END_STAR) && !x->anch[p]) {
            if (x->rank[p] > a)
                a = x->rank[p];
            if (!keep)
                continue;
        }
        v[k++] = id;
    }
    if (!(x->flags & RSC_DFA_F_NO_PRUNE) && a) {
        uint32_t j = 0;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t p = x->pat[v[i]];
            uint8_t kd = x->kind[v[i]];
            /* a kept "done" thread of rank a must stay (it carries accept) */
            if (x->rank[p] > a || (keep && x->rank[p] == a && (kd == K_END_LIT || kd == K_END_STAR) && !x->anch[p]))
                v[j++] = v[i];
        }
        k = j;
    }
    *acc = a;
    return k;
}

/* Successors of a set of ids on byte c, raw-NFA mode (no fact (a)). */
static uint32_t succ_raw(const ctx *x, const uint32_t *v, uint32_t n, uint8_t c, uint32_t *out)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id = v[i];
        uint8_t kd = x->kind[id];
        if (kd == K_END_LIT || kd == K_END_STAR) {
            if ((x->flags & RSC_DFA_F_KEEP_DONE) && !x->anch[x->pat[id]])
                out[k++] = id;
            continue;
        }
        if (x->pb[id] == '*') {
            out[k++] = id;
            out[k++] = id + 1;
        } else if (x->pb[id] == c) {
            out[k++] = id + 1;
            if (x->clos[id + 1] != id + 1)
                out[k++] = id + 2;
        }
    }
    return k;
}

static uint32_t succ_kmp(const ctx *x, const uint32_t *v, uint32_t n, uint8_t c, uint32_t *out)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id = v[i];
        uint8_t kd = x->kind[id];
        if (kd == K_END_LIT || kd == K_END_STAR) {
            if (!x->anch[x->pat[id]]) { /* kept done thread (KEEP_DONE) */
                out[k++] = id;
                continue;
            }
        }
        uint32_t t = step(x, id, c);
        if (t != NONE32)
            out[k++] = t;
    }
    return k;
}

static void builder_free(builder *b)
{
    rsc_mem_free(b->m, b->st, b->st_cap * sizeof(sstate));
    rsc_mem_free(b->m, b->pool, b->pool_cap * 4);
    rsc_mem_free(b->m, b->ht, b->ht_cap * 8);
    rsc_mem_free(b->m, b->next, b->next_cap * 4);
    rsc_mem_free(b->m, b->tmp, b->tmp_cap * 4);
}

static rsc_status subset(builder *b)
{
    ctx *x = b->x;
    const int raw = x->flags & RSC_DFA_F_NO_SUBSUME;
    uint32_t nc = x->n_classes;
    /* successor lists hold at most one id per pattern (two per position
     * in raw mode) */
    b->tmp_cap = raw ? 2 * (size_t)x->npos + 2 : x->n + 1;
    b->tmp = rsc_mem_calloc(b->m, b->tmp_cap, 4);
    if (!b->tmp || ht_grow(b))
        return RSC_E_NOMEM;
    rsc_status err = RSC_OK;
    /* start state */
    uint32_t k = 0;
    for (size_t p = 0; p < x->n; p++) {
        uint32_t id = x->base[p];
        if (raw) {
            b->tmp[k++] = id;
            if (x->clos[id] != id)
                b->tmp[k++] = id + 1;
        } else {
            b->tmp[k++] = x->clos[id];
        }
    }
    uint32_t acc;
    k = finish_set(x, b->tmp, k, &acc);
    if (intern(b, b->tmp, k, acc, &err) == NONE32)
        return err;
    if (raw) {
        for (uint32_t s = 0; s < b->n_st; s++) {
            for (uint32_t c = 0; c < nc; c++) {
                const sstate *ss = &b->st[s];
                b->work += ss->len + 1;
                if (b->lim->max_work && b->work > b->lim->max_work)
                    return RSC_E_LIMIT;
                uint32_t cnt = succ_raw(x, b->pool + ss->off, ss->len, x->rep[c], b->tmp);
                cnt = finish_set(x, b->tmp, cnt, &acc);
                uint32_t t = RSC_DFA_DEAD;
                if ((cnt || acc) && (t = intern(b, b->tmp, cnt, acc, &err)) == NONE32)
                    return err;
                b->next[(size_t)s * nc + c] = t;
            }
        }
        return RSC_OK;
    }
    /* KMP mode. Threads still in the literal part of their pattern advance
     * on one class only: bucket them by class once per state (O(ids +
     * classes)); only threads after a '*' are stepped for every class. */
    size_t cap = x->n + 1;
    uint32_t *lits = rsc_mem_alloc(b->m, cap * 4), *oth = rsc_mem_alloc(b->m, cap * 4);
    uint32_t *bucket = rsc_mem_alloc(b->m, cap * 4), *sbuf = rsc_mem_alloc(b->m, cap * 4);
    uint32_t *cnt = rsc_mem_alloc(b->m, ((size_t)nc + 1) * 4);
    err = RSC_E_NOMEM;
    if (!lits || !oth || !bucket || !sbuf || !cnt)
        goto out;
    err = RSC_OK;
    for (uint32_t s = 0; s < b->n_st && !err; s++) {
        const sstate *ss = &b->st[s];
        const uint32_t *v = b->pool + ss->off;
        uint32_t nl = 0, no = 0;
        for (uint32_t i = 0; i < ss->len; i++) {
            uint32_t id = v[i];
            uint8_t kd = x->kind[id];
            if (kd == K_LIT)
                lits[nl++] = id;
            else if (!(kd == K_END_LIT && x->anch[x->pat[id]]))
                oth[no++] = id; /* after a '*', or a kept done thread */
        }
        b->work += (uint64_t)nl + nc + (uint64_t)no * nc;
        if (b->lim->max_work && b->work > b->lim->max_work) {
            err = RSC_E_LIMIT;
            break;
        }
        memset(cnt, 0, ((size_t)nc + 1) * 4);
        for (uint32_t i = 0; i < nl; i++)
            cnt[x->classmap[x->pb[lits[i]]] + 1]++;
        for (uint32_t c = 0; c < nc; c++)
            cnt[c + 1] += cnt[c];
        for (uint32_t i = 0; i < nl; i++) /* stable: ids stay sorted */
            bucket[cnt[x->classmap[x->pb[lits[i]]]]++] = x->clos[lits[i] + 1];
        /* cnt[c] is now the end of bucket c; its start is cnt[c - 1] */
        for (uint32_t c = 0; c < nc; c++) {
            uint32_t ns = succ_kmp(x, oth, no, x->rep[c], sbuf);
            uint32_t bi = c ? cnt[c - 1] : 0, be = cnt[c], si = 0, kk = 0;
            while (bi < be || si < ns) /* merge: ids of distinct patterns */
                b->tmp[kk++] = (si == ns || (bi < be && bucket[bi] < sbuf[si])) ? bucket[bi++] : sbuf[si++];
            kk = finish_set(x, b->tmp, kk, &acc);
            uint32_t t = RSC_DFA_DEAD;
            if ((kk || acc) && (t = intern(b, b->tmp, kk, acc, &err)) == NONE32)
                break;
            b->next[(size_t)s * nc + c] = t;
        }
    }
out:
    rsc_mem_free(b->m, lits, cap * 4);
    rsc_mem_free(b->m, oth, cap * 4);
    rsc_mem_free(b->m, bucket, cap * 4);
    rsc_mem_free(b->m, sbuf, cap * 4);
    rsc_mem_free(b->m, cnt, ((size_t)nc + 1) * 4);
    return err;
}

/* ------------------------------------------------------------------ */
/* Minimisation (Valmari-Lehtinen partition refinement)                */
/* ------------------------------------------------------------------ */

typedef struct part {
    uint32_t z;
    uint32_t *E, *L, *S, *F, *P;
} part;

typedef struct refiner {
    uint32_t *M, *W;
    uint32_t w;
} refiner;

static void part_mark(part *p, refiner *r, uint32_t e)
{
    uint32_t s = p->S[e], i = p->L[e], j = p->F[s] + r->M[s];
    p->E[i] = p->E[j];
    p->L[p->E[i]] = i;
    p->E[j] = e;
    p->L[e] = j;
    if (!r->M[s]++)
        r->W[r->w++] = s;
}

static void part_split(part *p, refiner *r)
{
    while (r->w) {
        uint32_t s = r->W[--r->w], j = p->F[s] + r->M[s];
        if (j == p->P[s]) {
            r->M[s] = 0;
            continue;
        }
        uint32_t z = p->z;
        /* the new set is the smaller part (this gives the log factor) */
        if (r->M[s] <= p->P[s] - j) {
            p->F[z] = p->F[s];
            p->P[z] = p->F[s] = j;
        } else {
            p->P[z] = p->P[s];
            p->F[z] = p->P[s] = j;
        }
        for (uint32_t i = p->F[z]; i < p->P[z]; i++)
            p->S[p->E[i]] = z;
        r->M[s] = r->M[z] = 0;
        p->z++;
    }
}

static int part_alloc(rsc_mem *m, part *p, size_t n)
{
    p->E = rsc_mem_calloc(m, n + 1, 4);
    p->L = rsc_mem_calloc(m, n + 1, 4);
    p->S = rsc_mem_calloc(m, n + 1, 4);
    p->F = rsc_mem_calloc(m, n + 1, 4);
    p->P = rsc_mem_calloc(m, n + 1, 4);
    return p->E && p->L && p->S && p->F && p->P ? 0 : -1;
}

static void part_free(rsc_mem *m, part *p, size_t n)
{
    rsc_mem_free(m, p->E, (n + 1) * 4);
    rsc_mem_free(m, p->L, (n + 1) * 4);
    rsc_mem_free(m, p->S, (n + 1) * 4);
    rsc_mem_free(m, p->F, (n + 1) * 4);
    rsc_mem_free(m, p->P, (n + 1) * 4);
}

typedef struct keyed {
    uint32_t a, e, s;
} keyed;

static int cmp_keyed(const void *pa, const void *pb)
{
    const keyed *x = pa, *y = pb;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    if (x->e != y->e)
        return x->e < y->e ? -1 : 1;
    return x->s < y->s ? -1 : x->s > y->s;
}

/* Computes blk[s] (block of each state) and *nb; blocks are the classes of
 * equivalent states. */
static rsc_status minimise_blocks(rsc_mem *m, uint32_t n, uint32_t nc, const uint32_t *next,
                                  const uint32_t *acc, const uint32_t *end, uint32_t *blk, uint32_t *nb)
{
    rsc_status st = RSC_E_NOMEM;
    size_t mt = 0;
    for (size_t i = 0; i < (size_t)n * nc; i++)
        mt += next[i] != RSC_DFA_DEAD;
    part B = {0}, C = {0};
    refiner r = {0};
    size_t mx = (mt > n ? mt : n) + 1;
    uint32_t *tail = rsc_mem_calloc(m, mt + 1, 4), *head = rsc_mem_calloc(m, mt + 1, 4);
    uint32_t *lab = rsc_mem_calloc(m, mt + 1, 4), *adjF = rsc_mem_calloc(m, (size_t)n + 2, 4);
    uint32_t *adj = rsc_mem_calloc(m, mt + 1, 4);
    uint32_t *cnt = rsc_mem_calloc(m, (size_t)nc + 1, 4);
    keyed *ks = rsc_mem_calloc(m, n, sizeof(keyed));
    r.M = rsc_mem_calloc(m, mx, 4);
    r.W = rsc_mem_calloc(m, mx, 4);
    if (!tail || !head || !lab || !adjF || !adj || !cnt || !ks || !r.M || !r.W || part_alloc(m, &B, n) ||
        part_alloc(m, &C, mt))
        goto out;
    /* transitions, already grouped by tail; order them by label (cords) */
    size_t t = 0;
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t c = 0; c < nc; c++) {
            uint32_t h = next[(size_t)s * nc + c];
            if (h == RSC_DFA_DEAD)
                continue;
            tail[t] = s;
            head[t] = h;
            lab[t] = c;
            cnt[c + 1]++;
            t++;
        }
    for (uint32_t c = 0; c < nc; c++)
        cnt[c + 1] += cnt[c];
    C.z = 0;
    for (uint32_t c = 0; c < nc; c++)
        if (cnt[c + 1] > cnt[c]) {
            C.F[C.z] = cnt[c];
            C.P[C.z] = cnt[c + 1];
            C.z++;
        }
    {
        uint32_t z = 0;
        for (uint32_t c = 0; c < nc; c++) {
            if (cnt[c + 1] == cnt[c])
                continue;
            cnt[c] = z; /* reuse as set id of label c */
            z++;
        }
    }
    {
        /* fill cords in label order: a second pass with running fills */
        uint32_t *fill = rsc_mem_calloc(m, (size_t)C.z + 1, 4);
        if (!fill)
            goto out;
        for (uint32_t z = 0; z < C.z; z++)
            fill[z] = C.F[z];
        for (size_t i = 0; i < t; i++) {
            uint32_t z = cnt[lab[i]];
            C.E[fill[z]] = (uint32_t)i;
            C.L[i] = fill[z]++;
            C.S[i] = z;
        }
        rsc_mem_free(m, fill, ((size_t)C.z + 1) * 4);
    }
    /* incoming transitions by head */
    for (size_t i = 0; i < t; i++)
        adjF[head[i] + 1]++;
    for (uint32_t s = 0; s < n; s++)
        adjF[s + 1] += adjF[s];
    {
        uint32_t *fill = rsc_mem_calloc(m, (size_t)n + 1, 4);
        if (!fill)
            goto out;
        memcpy(fill, adjF, (size_t)n * 4);
        for (size_t i = 0; i < t; i++)
            adj[fill[head[i]]++] = (uint32_t)i;
        rsc_mem_free(m, fill, ((size_t)n + 1) * 4);
    }
    /* initial blocks: by (accept, end) */
    for (uint32_t s = 0; s < n; s++) {
        ks[s].a = acc[s];
        ks[s].e = end[s];
        ks[s].s = s;
    }
    qsort(ks, n, sizeof(keyed), cmp_keyed);
    B.z = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i == 0 || ks[i].a != ks[i - 1].a || ks[i].e != ks[i - 1].e) {
            if (B.z)
                B.P[B.z - 1] = i;
            B.F[B.z++] = i;
        }
        B.E[i] = ks[i].s;
        B.L[ks[i].s] = i;
        B.S[ks[i].s] = B.z - 1;
    }
    if (B.z)
        B.P[B.z - 1] = n;
    /* refine */
    uint32_t bi = 0, ci = 0;
    while (ci < C.z) {
        for (uint32_t i = C.F[ci]; i < C.P[ci]; i++)
            part_mark(&B, &r, tail[C.E[i]]);
        part_split(&B, &r);
        ci++;
        while (bi < B.z) {
            for (uint32_t i = B.F[bi]; i < B.P[bi]; i++) {
                uint32_t s = B.E[i];
                for (uint32_t j = adjF[s]; j < adjF[s + 1]; j++)
                    part_mark(&C, &r, adj[j]);
            }
            part_split(&C, &r);
            bi++;
        }
    }
    for (uint32_t s = 0; s < n; s++)
        blk[s] = B.S[s];
    *nb = B.z;
    st = RSC_OK;
out:
    rsc_mem_free(m, tail, (mt + 1) * 4);
    rsc_mem_free(m, head, (mt + 1) * 4);
    rsc_mem_free(m, lab, (mt + 1) * 4);
    rsc_mem_free(m, adjF, ((size_t)n + 2) * 4);
    rsc_mem_free(m, adj, (mt + 1) * 4);
    rsc_mem_free(m, cnt, ((size_t)nc + 1) * 4);
    rsc_mem_free(m, ks, (size_t)n * sizeof(keyed));
    rsc_mem_free(m, r.M, mx * 4);
    rsc_mem_free(m, r.W, mx * 4);
    part_free(m, &B, n);
    part_free(m, &C, mt);
    return st;
}

/* ------------------------------------------------------------------ */
/* Ceilings                                                            */
/* ------------------------------------------------------------------ */

static uint32_t max32(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}

/* ceiling[s] = max(end[s], max over successors t of max(accept[t],
 * ceiling[t])): a fixpoint, solved per strongly connected component in the
 * order Tarjan's algorithm emits them (successor components first). */
static rsc_status compute_ceiling(rsc_mem *m, rsc_dfa *d)
{
    uint32_t n = d->n_states, nc = d->n_classes;
    uint32_t *idx = rsc_mem_alloc(m, (size_t)n * 4), *low = rsc_mem_alloc(m, (size_t)n * 4);
    uint32_t *stk = rsc_mem_alloc(m, (size_t)n * 4), *cs = rsc_mem_alloc(m, (size_t)n * 4);
    uint32_t *cc = rsc_mem_alloc(m, (size_t)n * 4), *comp = rsc_mem_alloc(m, (size_t)n * 4);
    rsc_status st = RSC_E_NOMEM;
    if (!idx || !low || !stk || !cs || !cc || !comp)
        goto out;
    for (uint32_t s = 0; s < n; s++) {
        idx[s] = NONE32;
        comp[s] = NONE32;
    }
    uint32_t counter = 0, sp = 0, csp = 0, ncomp = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (idx[root] != NONE32)
            continue;
        idx[root] = low[root] = counter++;
        stk[sp++] = root;
        cs[csp] = root;
        cc[csp++] = 0;
        while (csp) {
            uint32_t v = cs[csp - 1];
            if (cc[csp - 1] < nc) {
                uint32_t t = d->next[(size_t)v * nc + cc[csp - 1]++];
                if (t == RSC_DFA_DEAD)
                    continue;
                if (idx[t] == NONE32) {
                    idx[t] = low[t] = counter++;
                    stk[sp++] = t;
                    cs[csp] = t;
                    cc[csp++] = 0;
                } else if (comp[t] == NONE32 && idx[t] < low[v]) {
                    low[v] = idx[t]; /* t on the stack */
                }
                continue;
            }
            csp--;
            if (csp && low[v] < low[cs[csp - 1]])
                low[cs[csp - 1]] = low[v];
            if (low[v] != idx[v])
                continue;
            /* v roots a component: members are stk[first..sp) */
            uint32_t first = sp;
            do
                first--;
            while (stk[first] != v);
            for (uint32_t i = first; i < sp; i++)
                comp[stk[i]] = ncomp;
            uint32_t val = 0;
            for (uint32_t i = first; i < sp; i++) {
                uint32_t s = stk[i];
                for (uint32_t c = 0; c < nc; c++) {
                    uint32_t t = d->next[(size_t)s * nc + c];
                    if (t == RSC_DFA_DEAD)
                        continue;
                    if (comp[t] == ncomp) { /* cycle: every member reaches t */
                        val = max32(val, max32(d->accept[t], d->end[t]));
                    } else {
                        val = max32(val, max32(d->accept[t], d->ceiling[t]));
                    }
                }
            }
            for (uint32_t i = first; i < sp; i++)
                d->ceiling[stk[i]] = max32(d->end[stk[i]], val);
            sp = first;
            ncomp++;
        }
    }
    st = RSC_OK;
out:
    rsc_mem_free(m, idx, (size_t)n * 4);
    rsc_mem_free(m, low, (size_t)n * 4);
    rsc_mem_free(m, stk, (size_t)n * 4);
    rsc_mem_free(m, cs, (size_t)n * 4);
    rsc_mem_free(m, cc, (size_t)n * 4);
    rsc_mem_free(m, comp, (size_t)n * 4);
    return st;
}

/* ------------------------------------------------------------------ */
/* One DFA                                                             */
/* ------------------------------------------------------------------ */

void rsc_dfa_free(rsc_mem *m, rsc_dfa *d)
{
    if (!d)
        return;
    size_t n = d->n_states;
    rsc_mem_free(m, d->next, n * d->n_classes * 4);
    rsc_mem_free(m, d->accept, n * 4);
    rsc_mem_free(m, d->end, n * 4);
    rsc_mem_free(m, d->ceiling, n * 4);
    memset(d, 0, sizeof *d);
}

void rsc_dfa_free_all(rsc_mem *m, rsc_dfa *d, size_t n)
{
    if (!d)
        return;
    for (size_t i = 0; i < n; i++)
        rsc_dfa_free(m, &d[i]);
    rsc_mem_free(m, d, n * sizeof *d);
}

static rsc_status dfa_alloc(rsc_mem *m, rsc_dfa *d, uint32_t n, uint32_t nc)
{
    d->n_states = n;
    d->n_classes = nc;
    d->next = rsc_mem_calloc(m, (size_t)n * nc, 4);
    d->accept = rsc_mem_calloc(m, n, 4);
    d->end = rsc_mem_calloc(m, n, 4);
    d->ceiling = rsc_mem_calloc(m, n, 4);
    if (!d->next || !d->accept || !d->end || !d->ceiling) {
        rsc_dfa_free(m, d);
        return RSC_E_NOMEM;
    }
    return RSC_OK;
}

static uint32_t end_of(const ctx *x, const uint32_t *v, uint32_t n)
{
    uint32_t e = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = x->pat[v[i]];
        uint8_t k = x->kind[v[i]];
        if ((k == K_END_LIT || k == K_END_STAR) && x->anch[p])
            e = max32(e, x->rank[p]);
    }
    return e;
}

rsc_status rsc_dfa_build_ex(rsc_mem *m, const rsc_pat *pats, size_t n, const rsc_dfa_limits *lim,
                            int minimize, int flags, rsc_dfa *out, rsc_dfa_stats *stats)
{
    if (!m || !out || !lim || (n && !pats))
        return RSC_E_ARG;
    memset(out, 0, sizeof *out);
    if (stats)
        memset(stats, 0, sizeof *stats);
    for (size_t i = 0; i < n; i++)
        if (pats[i].rank == 0 || (pats[i].len && !pats[i].bytes))
            return RSC_E_ARG;
    ctx x;
    rsc_status st = ctx_init(&x, m, pats, n, flags);
    if (st)
        return st;
    builder b;
    memset(&b, 0, sizeof b);
    b.x = &x;
    b.m = m;
    b.lim = lim;
    b.max_states = lim->max_states ? lim->max_states : 1;
    if (b.max_states > (1u << 24) - 1)
        b.max_states = (1u << 24) - 1; /* FORMAT.md: State_Count < 2^24 */
    st = subset(&b);
    if (stats) {
        stats->subset_states = b.n_st;
        stats->work = b.work;
        stats->threads = b.pool_len;
    }
    if (st)
        goto out;
    uint32_t n0 = b.n_st, nc = x.n_classes;
    uint32_t *acc = rsc_mem_alloc(m, (size_t)n0 * 4), *end = rsc_mem_alloc(m, (size_t)n0 * 4);
    uint32_t *blk = rsc_mem_alloc(m, (size_t)n0 * 4), *num = rsc_mem_alloc(m, (size_t)n0 * 4);
    uint32_t *queue = rsc_mem_alloc(m, (size_t)n0 * 4);
    st = RSC_E_NOMEM;
    if (!acc || !end || !blk || !num || !queue)
        goto out2;
    for (uint32_t s = 0; s < n0; s++) {
        acc[s] = b.st[s].accept;
        end[s] = end_of(&x, b.pool + b.st[s].off, b.st[s].len);
    }
    uint32_t nb = n0;
    if (minimize) {
        st = minimise_blocks(m, n0, nc, b.next, acc, end, blk, &nb);
        if (st)
            goto out2;
    } else {
        for (uint32_t s = 0; s < n0; s++)
            blk[s] = s;
    }
    /* number the blocks breadth-first from the start state; one
     * representative state per block */
    for (uint32_t i = 0; i < nb; i++)
        num[i] = NONE32;
    uint32_t qh = 0, qt = 0;
    num[blk[0]] = qt;
    queue[qt++] = 0;
    while (qh < qt) {
        uint32_t s = queue[qh++];
        for (uint32_t c = 0; c < nc; c++) {
            uint32_t t = b.next[(size_t)s * nc + c];
            if (t != RSC_DFA_DEAD && num[blk[t]] == NONE32) {
                num[blk[t]] = qt;
                queue[qt++] = t;
            }
        }
    }
    st = dfa_alloc(m, out, qt, nc);
    if (st)
        goto out2;
    memcpy(out->classmap, x.classmap, 256);
    for (uint32_t i = 0; i < qt; i++) {
        uint32_t s = queue[i];
        out->accept[i] = acc[s];
        out->end[i] = end[s];
        for (uint32_t c = 0; c < nc; c++) {
            uint32_t t = b.next[(size_t)s * nc + c];
            out->next[(size_t)i * nc + c] = t == RSC_DFA_DEAD ? RSC_DFA_DEAD : num[blk[t]];
        }
    }
    st = compute_ceiling(m, out);
    if (st)
        rsc_dfa_free(m, out);
    else if (stats)
        stats->states = out->n_states;
out2:
    rsc_mem_free(m, acc, (size_t)n0 * 4);
    rsc_mem_free(m, end, (size_t)n0 * 4);
    rsc_mem_free(m, blk, (size_t)n0 * 4);
    rsc_mem_free(m, num, (size_t)n0 * 4);
    rsc_mem_free(m, queue, (size_t)n0 * 4);
out:
    builder_free(&b);
    ctx_free(&x);
    return st;
}

rsc_status rsc_dfa_build(rsc_mem *m, const rsc_pat *pats, size_t n, uint32_t max_states, int minimize,
                         rsc_dfa *out)
{
    rsc_dfa_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.max_states = max_states;
    /* stored subsets stay linear in the state count */
    size_t bytes = 0;
    for (size_t i = 0; i < n && pats; i++)
        bytes += pats[i].len + 1;
    lim.max_threads = (uint64_t)THREADS_PER_STATE * max_states + bytes;
    return rsc_dfa_build_ex(m, pats, n, &lim, minimize, 0, out, NULL);
}

uint32_t rsc_dfa_run(const rsc_dfa *d, const uint8_t *s, size_t len)
{
    uint32_t reg = 0, st = 0;
    if (!d || d->n_states == 0)
        return 0;
    for (size_t i = 0; i < len; i++) {
        reg = max32(reg, d->accept[st]);
        uint32_t t = d->next[(size_t)st * d->n_classes + d->classmap[s[i]]];
        if (t == RSC_DFA_DEAD)
            return reg;
        st = t;
    }
    return max32(reg, max32(d->accept[st], d->end[st]));
}

/* ------------------------------------------------------------------ */
/* Rule sets: one DFA, or several whose maximum is the same            */
/* ------------------------------------------------------------------ */

/* Inner '*' of the normalised pattern (0: a literal pattern). */
static uint32_t inner_stars(const rsc_pat *p)
{
    int a;
    size_t L = norm_len(p, &a), k = 0;
    uint32_t stars = 0;
    for (size_t j = 0; j < p->len && k < L; j++) {
        if (p->bytes[j] == '*' && j > 0 && p->bytes[j - 1] == '*')
            continue;
        stars += p->bytes[j] == '*';
        k++;
    }
    return stars;
}

typedef struct setb {
    rsc_mem *m;
    const rsc_pat *pats;
    uint32_t *ord;   /* pattern order: literal ones first               */
    uint32_t *stars; /* per pattern                                    */
    rsc_pat *tmp;    /* the group being built                          */
    rsc_dfa *res;
    size_t n_res, cap_res;
    uint64_t base, per_byte;
    uint64_t work_left;
    rsc_dfa_set_stats *stats;
    int minimize;
} setb;


typedef struct grange {
    uint32_t first, count;
    uint8_t singles; /* build every pattern alone */
} grange;

/* Tries one group; returns RSC_OK (DFA appended), RSC_E_LIMIT or an error. */
static rsc_status try_group(setb *sb, uint32_t first, uint32_t count)
{
    uint64_t bytes = 0;
    int literal = 1;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t p = sb->ord[first + i];
        sb->tmp[i] = sb->pats[p];
        bytes += sb->pats[p].len;
        literal &= sb->stars[p] == 0;
    }
    rsc_dfa_limits lim;
    memset(&lim, 0, sizeof lim);
    uint64_t budget = sb->base + sb->per_byte * bytes;
    if (count == 1) {
        /* One pattern of normalised length L has at most L + 2 states
         * (fact (a): one id per pattern), so it always fits. */
        if (budget < bytes + 2)
            budget = bytes + 2;
    } else {
        if (budget > CAP_STATES)
            budget = CAP_STATES;
        lim.max_cells = CAP_CELLS;
        lim.max_threads = (uint64_t)THREADS_PER_STATE * budget + bytes + count;
        /* A literal group costs at most classes x (bytes + count + states)
         * thread steps (each id lives in the states of its own path of
         * the trie), so only groups with '*' draw on the work budget. */
        if (!literal)
            lim.max_work = sb->work_left < WORK_ATTEMPT ? sb->work_left : WORK_ATTEMPT;
        if (!literal && lim.max_work == 0)
            return RSC_E_LIMIT;
    }
    lim.max_states = budget > UINT32_MAX ? UINT32_MAX : (uint32_t)budget;
    if (rsc_mem_grow(sb->m, (void **)&sb->res, sizeof(rsc_dfa), &sb->cap_res, sb->n_res + 1))
        return RSC_E_NOMEM;
    rsc_dfa_stats ds;
    rsc_status st = rsc_dfa_build_ex(sb->m, sb->tmp, count, &lim, sb->minimize, 0, &sb->res[sb->n_res], &ds);
    if (sb->stats) {
        sb->stats->attempts++;
        sb->stats->failed += st == RSC_E_LIMIT;
        sb->stats->work += ds.work;
    }
    if (!literal && count > 1)
        sb->work_left = ds.work >= sb->work_left ? 0 : sb->work_left - ds.work;
    if (st == RSC_OK)
        sb->n_res++;
    return st;
}

rsc_status rsc_dfa_build_set_ex(rsc_mem *m, const rsc_pat *pats, size_t n, const rsc_dfa_options *opt,
                                rsc_dfa **out, size_t *n_out, rsc_dfa_set_stats *stats)
{
    if (!m || !out || !n_out || (n && !pats))
        return RSC_E_ARG;
    *out = NULL;
    *n_out = 0;
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (n == 0)
        return RSC_OK; /* an empty set matches nothing: no automaton */
    if (n >= UINT32_MAX / 2)
        return RSC_E_LIMIT;
    setb sb;
    memset(&sb, 0, sizeof sb);
    sb.m = m;
    sb.pats = pats;
    sb.stats = stats;
    sb.base = opt && opt->budget_base ? opt->budget_base : DEF_BUDGET_BASE;
    sb.per_byte = opt && opt->budget_per_byte ? opt->budget_per_byte : DEF_BUDGET_PER_BYTE;
    sb.minimize = !(opt && opt->no_minimize);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += pats[i].len;
    sb.work_left = WORK_SET_BASE + WORK_SET_PER_BYTE * total;
    rsc_status st = RSC_E_NOMEM;
    grange *stack = NULL;
    size_t sp = 0, scap = 0;
    sb.ord = rsc_mem_calloc(m, n, 4);
    sb.stars = rsc_mem_calloc(m, n, 4);
    sb.tmp = rsc_mem_calloc(m, n, sizeof(rsc_pat));
    if (!sb.ord || !sb.stars || !sb.tmp)
        goto out;
    /* literal patterns first, then by number of '*' (stable): halves of a
     * failing group stay alike */
    uint32_t nlit = 0;
    keyed *ks = rsc_mem_calloc(m, n, sizeof(keyed));
    if (!ks)
        goto out;
    for (size_t i = 0; i < n; i++) {
        sb.stars[i] = inner_stars(&pats[i]);
        ks[i] = (keyed){sb.stars[i], 0, (uint32_t)i};
        nlit += sb.stars[i] == 0;
    }
    qsort(ks, n, sizeof(keyed), cmp_keyed);
    for (size_t i = 0; i < n; i++)
        sb.ord[i] = ks[i].s;
    rsc_mem_free(m, ks, n * sizeof(keyed));
    /* How many '*' patterns to try together: a group of k of them costs
     * about (its bytes) x classes x k thread steps even when its DFA stays
     * linear (every state carries up to k ids), so the total over the set
     * is about (their bytes) x classes x k; keep that within half of the
     * work budget. Very large wildcard sets thus go straight to small
     * groups instead of failing big attempts first. */
    uint32_t nstar = (uint32_t)n - nlit;
    uint64_t star_bytes = 0, ncls = 1;
    {
        uint8_t used[256] = {0};
        for (size_t i = 0; i < n; i++) {
            if (sb.stars[i])
                star_bytes += pats[i].len;
            for (size_t j = 0; j < pats[i].len; j++)
                used[pats[i].bytes[j]] = 1;
        }
        for (int c = 0; c < 256; c++)
            ncls += used[c];
    }
    uint64_t chunk = STAR_CHUNK;
    if (star_bytes * ncls * chunk > sb.work_left / 2)
        chunk = sb.work_left / 2 / (star_bytes * ncls + 1);
    if (chunk < 1)
        chunk = 1;
    size_t groups = nstar <= chunk ? 1 : 1 + (nstar + chunk - 1) / chunk;
    if (rsc_mem_grow(m, (void **)&stack, sizeof(grange), &scap, groups))
        goto out;
    if (nstar <= chunk) {
        stack[sp++] = (grange){0, (uint32_t)n, 0};
    } else {
        /* pushed last to first, so they are built in order */
        uint32_t nch = (uint32_t)((nstar + chunk - 1) / chunk);
        for (uint32_t c = nch; c-- > 0;) {
            uint32_t f = nlit + c * (uint32_t)chunk;
            uint32_t cnt = c + 1 == nch ? nstar - c * (uint32_t)chunk : (uint32_t)chunk;
            stack[sp++] = (grange){f, cnt, 0};
        }
        if (nlit)
            stack[sp++] = (grange){0, nlit, 0};
    }
    while (sp) {
        grange g = stack[--sp];
        if (g.singles) {
            /* last resort: one DFA per pattern, each linear in its size */
            for (uint32_t i = 0; i < g.count; i++) {
                st = try_group(&sb, g.first + i, 1);
                if (st)
                    goto out; /* a single pattern never hits a limit */
            }
            continue;
        }
        st = try_group(&sb, g.first, g.count);
        if (st == RSC_OK)
            continue;
        if (st != RSC_E_LIMIT || g.count == 1)
            goto out;
        if (rsc_mem_grow(m, (void **)&stack, sizeof(grange), &scap, sp + 2)) {
            st = RSC_E_NOMEM;
            goto out;
        }
        uint32_t lit_end = nlit > g.first ? nlit - g.first : 0; /* literal ones in g */
        if (lit_end > g.count)
            lit_end = g.count;
        if (lit_end > 0 && lit_end < g.count) {
            /* literal and wildcard patterns apart */
            stack[sp++] = (grange){g.first + lit_end, g.count - lit_end, 0};
            stack[sp++] = (grange){g.first, lit_end, 0};
        } else if (lit_end == 0 && sb.work_left == 0) {
            stack[sp++] = (grange){g.first, g.count, 1};
        } else {
            uint32_t h = g.count / 2;
            stack[sp++] = (grange){g.first + h, g.count - h, 0};
            stack[sp++] = (grange){g.first, h, 0};
        }
    }
    st = RSC_OK;
out:
    if (stats)
        stats->exhausted = sb.work_left == 0;
    rsc_mem_free(m, stack, scap * sizeof(grange));
    rsc_mem_free(m, sb.ord, n * 4);
    rsc_mem_free(m, sb.stars, n * 4);
    rsc_mem_free(m, sb.tmp, n * sizeof(rsc_pat));
    if (st == RSC_OK && sb.n_res < sb.cap_res) {
        /* hand back an exactly sized array: rsc_dfa_free_all frees n */
        rsc_dfa *r = rsc_mem_realloc(m, sb.res, sizeof(rsc_dfa), sb.cap_res, sb.n_res);
        if (!r) {
            st = RSC_E_NOMEM;
        } else {
            sb.res = r;
            sb.cap_res = sb.n_res;
        }
    }
    if (st != RSC_OK) {
        for (size_t i = 0; i < sb.n_res; i++)
            rsc_dfa_free(m, &sb.res[i]);
        rsc_mem_free(m, sb.res, sb.cap_res * sizeof(rsc_dfa));
        return st;
    }
    *out = sb.res;
    *n_out = sb.n_res;
    return RSC_OK;
}

rsc_status rsc_dfa_build_set(rsc_mem *m, const rsc_pat *pats, size_t n, const rsc_dfa_options *opt,
                             rsc_dfa **out, size_t *n_out)
{
    return rsc_dfa_build_set_ex(m, pats, n, opt, out, n_out, NULL);
}
