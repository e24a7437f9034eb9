/* SPDX-License-Identifier: Apache-2.0 */
/* The DFA engine (docs/DFA.md): a selection's rules determinised into one
 * automaton, built from the verified blob into memory the caller owns
 * (runtime.h, rsc_dfa_build), then run one table load a path byte until
 * the verdict is decided.
 *
 * Construction is a subset construction over rule positions with the
 * ranks folded in. A state is (L, v): L the positions of the rules still
 * alive, v the verdict of the best rule matched so far (allowed when
 * none). Every rule of L outranks that rule, so the answer from there on
 * is v unless a rule of L matches, and the best rank itself need not be
 * kept. When a rule matches, the rules it outranks leave L. A rule of
 * verdict v that ranks below every rule of L of the other verdict can no
 * longer change the answer either (if one of those matches it is beaten,
 * if none does the answer is v with it or without it): it leaves too.
 * Positions are numbered rule by rule in rank order, so both cuts drop a
 * prefix of the sorted L, and an empty L is final: the answer is v.
 *
 * The builder writes every state and entry itself and checks each index
 * it stores against the room it has; rsc_dfa_attach() checks a whole DFA
 * again (tests run it on every one built). Build time and memory are
 * bounded by the caller's buffer: when the states do not all fit, or their
 * construction would take more than a fixed work per buffer byte, the
 * states found first (breadth first) are kept and the moves into the rest
 * go to a third final, "unbuilt", on which the programs decide the path
 * from its start (a partial DFA). A rule set with no room for a state at
 * all is refused (RSC_E_LIMIT) and keeps the programs' engine, as is one
 * that would be partial without a '*' inside any rule (note at the cut). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec.h"
#include "dfa.h"
#include "format.h"
#include "program.h"
#include "robotsc/runtime.h"

#ifdef RSC_COUNT_STEPS
extern size_t rsc_steps;
#define DFA_STEPS(n) (rsc_steps += (n))
#else
#define DFA_STEPS(n) ((void)0)
#endif

#define ALIGN8(x) (((x) + 7u) & ~(size_t)7u)

/* ---- Running ------------------------------------------------------------ */

static inline uint32_t stride_of(const rsc_dfa *d)
{
    return d->q << d->sh;
}

static inline uint32_t entry(const rsc_dfa *d, size_t i)
{
    uint16_t e;
    memcpy(&e, (const uint8_t *)d + RSC_DFA_HEAD + i * 2, 2);
    return e;
}

/* From skip state s (an entry), the first of p[i..n) that may leave it
 * (one of its two bytes, NUL or '#'), sixteen bytes a step; the last
 * fewer than sixteen are left to the table. */
static inline size_t skip(const rsc_dfa *d, uint32_t s, const uint8_t *p, size_t i, size_t n)
{
#ifdef RSC_V16
    const uint8_t *sk = (const uint8_t *)d + RSC_DFA_HEAD + (size_t)d->k * stride_of(d) * 2 +
                        2 * (size_t)((uint32_t)((uint64_t)s * d->inv >> 32) - d->a);
    const uint8_t b0 = sk[0], b1 = sk[1];
    while (n - i >= 16) {
        rsc_v16 x = rsc_v16_load(p + i);
        unsigned f = rsc_v16_first((rsc_v16)((x == b0) | (x == b1) | (x == 0) | (x == '#')));
        if (f < 16)
            return i + f;
        i += 16;
    }
#else
    (void)d, (void)s, (void)p, (void)n;
#endif
    return i;
}

/* The moves over p[0..n) from entry s; a NUL or term byte is class 0, whose
 * entry is always a verdict, so the loop stops there by itself. A move into
 * a skip state leaves the loop for a search. The class is loaded and added
 * to the rows' base off the chain of dependent loads, which is then one
 * load a byte: base[s << sh], the shift an addressing mode's scale for sh
 * 0 to 2 (one copy each; most DFAs have sh 0), a shift for the rest. */
/* Keeps the compiler from folding the class back into the index (which
 * puts an add on the chain): the base is a value it cannot see into. */
#if defined(__GNUC__) || defined(__clang__)
#define RSC_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define RSC_OPAQUE(x) ((void)0)
#endif
#define RUN(NAME, SH)                                                           \
    static uint32_t NAME(const rsc_dfa *d, const uint8_t *cls, uint32_t s,      \
                         const uint8_t *p, size_t n)                            \
    {                                                                           \
        const uint16_t *row = (const uint16_t *)(const void *)((const uint8_t *)d + RSC_DFA_HEAD); \
        const unsigned sh = (SH);                                               \
        const uint32_t lim = d->lim, run = d->a * d->q;                         \
        size_t i = 0;                                                           \
        for (;;) {                                                              \
            while (i < n && s < run) {                                          \
                const uint16_t *base = row + cls[p[i++]];                       \
                RSC_OPAQUE(base);                                               \
                s = base[(size_t)s << sh];                                      \
            }                                                                   \
            if (i == n || s >= lim)                                             \
                break;                                                          \
            const uint32_t self = s;                                            \
            i = skip(d, s, p, i, n);                                            \
            while (i < n && s == self) {                                        \
                const uint16_t *base = row + cls[p[i++]];                       \
                RSC_OPAQUE(base);                                               \
                s = base[(size_t)s << sh];                                      \
            }                                                                   \
        }                                                                       \
        DFA_STEPS(i + 1);                                                       \
        return s < lim ? row[(size_t)s << sh] : s;                              \
    }
RUN(run_sh0, 0)
RUN(run_sh1, 1)
RUN(run_sh2, 2)
RUN(run_shv, d->sh)
#undef RUN

/* rfc: the path normalised as match.c's source does (FORMAT.md, Matching),
 * and a normalised path of exactly "/robots.txt" allowed (RFC 9309 2.2.2),
 * which the moves cannot stop early for. */
static int rfc_verdict(const rsc_dfa *d, const uint8_t *cls, const uint8_t *p, size_t n,
                       uint8_t term, int slash)
{
    static const char rt[] = "/robots.txt";
    const uint32_t lim = d->lim;
    uint32_t s = d->start;
    size_t rk = 0, steps = 0;
    int rob = 1; /* the bytes so far are rt[0..rk) */
    uint8_t out[3] = {'/', 0, 0};
    unsigned k = slash ? 1 : 0;
    size_t i = 0;
    for (;;) {
        for (unsigned j = 0; j < k; j++) {
            uint8_t c = out[j];
            if (rob)
                rob = rk < sizeof rt - 1 && c == (uint8_t)rt[rk], rk++;
            if (s < lim)
                s = entry(d, ((size_t)s << d->sh) + cls[c]), steps++;
        }
        if (i == n || (s >= lim && !rob))
            break;
        uint8_t b = p[i];
        if (b == 0 || b == term)
            break;
        /* the programs' normalisation of a path byte (match.c, src_get) */
        size_t used;
        k = rsc_pct_normal_path(p + i, n - i, out, &used);
        i += used;
    }
    DFA_STEPS(steps + 1);
    if (rob && rk == sizeof rt - 1)
        return 1;
    if (s < lim)
        s = entry(d, (size_t)s << d->sh);
    return s == lim ? 1 : s == lim + 1 ? 0 : -1;
}

int rsc_dfa_verdict(const rsc_dfa *d, const uint8_t *p, size_t n, uint8_t term, int slash)
{
    const uint8_t *cls = d->cls[term == '#'];
    if (d->rfc)
        return rfc_verdict(d, cls, p, n, term, slash);
    uint32_t s = d->start;
    if (slash && s < d->lim)
        s = entry(d, ((size_t)s << d->sh) + cls['/']);
    switch (d->sh) {
    case 0: s = run_sh0(d, cls, s, p, n); break;
    case 1: s = run_sh1(d, cls, s, p, n); break;
    case 2: s = run_sh2(d, cls, s, p, n); break;
    default: s = run_shv(d, cls, s, p, n); break;
    }
    return s == d->lim ? 1 : s == d->lim + 1 ? 0 : -1;
}

/* ---- Building ----------------------------------------------------------- */

/* While building, rows are u16: a state's id, or one of the two finals. */
#define FIN_A 0xfffeu /* final, allowed (while building)               */
#define FIN_D 0xffffu /* final, disallowed                             */
#define FIN_X 0xfffdu /* a state left unbuilt: the programs decide      */
#define NO_ROOM 0xffffffffu
#define P_STAR 0x100u  /* a '*': it stays, and the next position is live */
#define P_DONE 0x200u  /* an end-anchored rule's end: matches at the end */
#define P_MATCH 0x400u /* a rule's end: the rule matches                */
#define P_ALLOW 0x800u /* on each of an allowing rule's positions         */
#define P_KIND (P_STAR | P_DONE | P_MATCH)
#define MAX_STATES 0xfff0u /* below the finals' codes */
#define WORK_PER_BYTE 4u /* construction steps allowed per buffer byte */
#define MINIMISE_WORK 16u /* and minimisation steps, after it          */
/* Rows of more bytes than this (in u16) are minimised: below it the table
 * fits a 32 KiB level-1 cache anyway, and Moore's rounds would cost more than
 * the whole construction (measured: a median build of 4 µs took 47). */
#define MINIMISE_FROM 32768u

typedef struct bld {
    uint8_t *buf;
    size_t top, rows_end; /* scratch is buf[top..), rows buf[HEAD..rows_end) */
    uint64_t work, work_cap;
    uint32_t ncls, nrules, npos;
    uint16_t *pcode;      /* per position: its class or P_KIND, | P_ALLOW  */
    uint32_t n, mcap;     /* states, and the room of meta                  */
    uint32_t *meta;       /* per state: its record's offset in buf         */
    uint32_t *hash, hmask; /* state + 1 by its record's hash, half full    */
    uint32_t *star, *lit, *tmp; /* per-state lists of distinct positions    */
    uint32_t *rid;        /* per position: its residual's id (note below)  */
    uint32_t *nstar;      /* per position: the first '*' at or after it in
                             its rule, or NONE                           */
    uint32_t *mark, clk;  /* per residual id: seen in this settle()       */
    uint32_t cnt[257];
    int partial;          /* some move leads to FIN_X                      */
} bld;

#define NONE 0xffffffffu

static void *take(bld *b, size_t n)
{
    n = ALIGN8(n);
    if (b->top < b->rows_end || b->top - b->rows_end < n)
        return NULL;
    b->top -= n;
    return b->buf + b->top;
}

/* A state's record: [n | v << 31, hash, bytes, then its n positions as
 * LEB128 deltas (each position + 1 less the one before, so never 0)].
 * Positions are sorted and close together, so a position takes a byte or
 * two where a u32 took four: the records were most of a large build's
 * scratch (a state of 110 "/ *X" rules holds 220 positions). The encoding
 * is canonical: equal lists have equal bytes. */
static const uint32_t *rec_of(const bld *b, uint32_t id)
{
    return (const uint32_t *)(const void *)(b->buf + b->meta[id]);
}

static uint16_t *row_of(const bld *b, uint32_t id)
{
    return (uint16_t *)(void *)(b->buf + RSC_DFA_HEAD) + (size_t)id * b->ncls;
}

/* The state (s[0..n), v), added when new: its id, a final code, or NO_ROOM. */
static uint32_t intern(bld *b, const uint32_t *s, uint32_t n, uint32_t v)
{
    if (n == 0)
        return v ? FIN_A : FIN_D;
    uint32_t h = 2166136261u ^ v;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;
    h ^= h >> 16, h *= 0x85ebca6bu, h ^= h >> 13; /* the low bits hear every bit */
    /* encoded into tmp's second half (free in settle(): 4 bytes a position
     * hold any delta below 2^28, and npos < 2^27) */
    uint8_t *e = (uint8_t *)(b->tmp + (size_t)b->npos + 1);
    uint32_t el = 0, prev = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t dl = s[j] + 1 - prev;
        prev = s[j] + 1;
        for (; dl >= 0x80; dl >>= 7)
            e[el++] = (uint8_t)(dl | 0x80);
        e[el++] = (uint8_t)dl;
    }
    b->work += n;
    const uint32_t head = n | v << 31;
    uint32_t i = h & b->hmask;
    for (; b->hash[i]; i = (i + 1) & b->hmask, b->work++) {
        const uint32_t *r = rec_of(b, b->hash[i] - 1);
        if (r[0] == head && r[1] == h && r[2] == el && memcmp(r + 3, e, el) == 0)
            return b->hash[i] - 1;
    }
    if (b->n == MAX_STATES)
        return NO_ROOM;
    /* meta and the hash grow by doubling, on the scratch stack (what they
     * leave behind is at most what they hold): the scratch a build takes
     * depends on the rules alone, so a build that fits in size bytes fits
     * in any larger buffer */
    if (b->n == b->mcap) {
        uint32_t *m = take(b, (size_t)b->mcap * 8);
        if (!m)
            return NO_ROOM;
        memcpy(m, b->meta, (size_t)b->n * 4);
        b->meta = m, b->mcap *= 2;
    }
    if (2 * ((size_t)b->n + 1) > (size_t)b->hmask + 1) {
        const uint32_t hs = 2 * (b->hmask + 1);
        uint32_t *t = take(b, (size_t)hs * 4);
        if (!t)
            return NO_ROOM;
        memset(t, 0, (size_t)hs * 4);
        for (uint32_t id = 0; id < b->n; id++) {
            uint32_t j = rec_of(b, id)[1] & (hs - 1);
            while (t[j])
                j = (j + 1) & (hs - 1);
            t[j] = id + 1;
        }
        b->hash = t, b->hmask = hs - 1;
        b->work += b->n;
        for (i = h & b->hmask; b->hash[i]; i = (i + 1) & b->hmask)
            ;
    }
    b->rows_end += (size_t)b->ncls * 2;
    uint32_t *r = take(b, 12 + (size_t)el);
    if (!r) {
        b->rows_end -= (size_t)b->ncls * 2;
        return NO_ROOM;
    }
    r[0] = head, r[1] = h, r[2] = el;
    memcpy(r + 3, e, el);
    b->meta[b->n] = (uint32_t)((uint8_t *)r - b->buf);
    b->hash[i] = b->n + 1;
    return b->n++;
}

/* The state of the sorted positions t[0..n) after a move, the best match
 * so far having verdict v: the rules a match outranks leave, then the
 * positions another one dominates (note [dominance]), then the rules of
 * verdict v below every rule of the other verdict. Writes the kept
 * positions to out (which may be t) before interning them.
 *
 * note [dominance]
 * A position's residual is what its rule has left to match: the rest of
 * its text and whether it is end-anchored. Position q dominates p when q's
 * rule matches on every path on which p's does and outranks it (or is the
 * same rule): then p can never decide and leaves. Two sufficient cases,
 * checked by residual id (equal ids, equal residuals):
 *  (a) q's residual equals p's;
 *  (b) q's residual is "*X" and p's rule has a '*' at or after p whose
 *      residual is "*X" too: p's match needs X to match after that '*',
 *      and then q's matches.
 * Scanning from the top (positions are in rank order, and within a rule
 * by offset), every position seen marks its residual, so a mark always
 * comes from a dominating one. Without this, rules that share a tail
 * ("/a/ *.pdf", "/b/ *.pdf") multiply the states by every combination of
 * heads seen; with it such states merge as they are built. */
static uint32_t settle(bld *b, const uint32_t *t, uint32_t n, uint32_t v, uint32_t *out)
{
    uint32_t from = 0;
    for (uint32_t i = n; i-- > 0;)
        if (b->pcode[t[i]] & P_MATCH) { /* a rule's last position: the rest is above it */
            v = (b->pcode[t[i]] & P_ALLOW) != 0;
            from = i + 1;
            break;
        }
    if (++b->clk == 0) { /* never in a build that fits: 2^32 settles */
        memset(b->mark, 0, ((size_t)b->npos + 1) * 4);
        b->clk = 1;
    }
    uint32_t w = n; /* out[w..n): kept, in order; w - 1 >= i, so out may be t */
    for (uint32_t i = n; i-- > from;) {
        const uint32_t p = t[i];
        int dom = b->mark[b->rid[p]] == b->clk;
        for (uint32_t k = b->nstar[p]; !dom && k != NONE; k = b->nstar[k + 1], b->work++)
            dom = b->mark[b->rid[k]] == b->clk;
        b->mark[b->rid[p]] = b->clk;
        if (!dom)
            out[--w] = p;
    }
    while (w < n && ((b->pcode[out[w]] & P_ALLOW) != 0) == v)
        w++;
    b->work += n;
    return intern(b, out + w, n - w, v);
}

/* Adds position p and, after a '*', the one past it (never an end: a
 * rule's trailing '*'s were dropped), keeping t sorted and unique. */
static inline void put(uint32_t *t, uint32_t *n, uint32_t p)
{
    if (*n == 0 || t[*n - 1] < p)
        t[(*n)++] = p;
}

/* Merges the sorted lists a and c into t, without repeats. */
static uint32_t merge(uint32_t *t, const uint32_t *a, uint32_t na, const uint32_t *c, uint32_t nc)
{
    uint32_t i = 0, j = 0, n = 0;
    while (i < na || j < nc) {
        uint32_t x = j == nc || (i < na && a[i] <= c[j]) ? a[i++] : c[j++];
        if (n == 0 || t[n - 1] != x)
            t[n++] = x;
    }
    return n;
}

/* Fills state k's row. */
static int expand(bld *b, uint32_t k)
{
    const uint32_t *r = rec_of(b, k);
    const uint32_t n = r[0] & 0x7fffffffu, v = r[0] >> 31;
    /* the positions, decoded into tmp's second half: read by the next two
     * passes only, before the moves use that half */
    uint32_t *L = b->tmp + (size_t)b->npos + 1;
    {
        const uint8_t *e = (const uint8_t *)(r + 3);
        uint32_t prev = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t dl = 0;
            for (unsigned sh = 0;; sh += 7) {
                uint8_t x = *e++;
                dl |= (uint32_t)(x & 0x7f) << sh;
                if (!(x & 0x80))
                    break;
            }
            prev += dl;
            L[i] = prev - 1;
        }
    }
    uint32_t ns = 0, endv = v;
    memset(b->cnt, 0, (size_t)b->ncls * sizeof b->cnt[0]);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = L[i], code = b->pcode[p];
        if (code & P_STAR) {
            put(b->star, &ns, p);
            put(b->star, &ns, p + 1);
        } else if (code & P_DONE) {
            endv = (code & P_ALLOW) != 0; /* the last one is the best */
        } else {
            b->cnt[code & 0xff]++;
        }
    }
    /* the literal positions by class, in order: a counting sort */
    uint32_t sum = 0;
    for (uint32_t c = 0; c < b->ncls; c++) {
        uint32_t x = b->cnt[c];
        b->cnt[c] = sum, sum += x;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t code = b->pcode[L[i]];
        if (!(code & P_KIND))
            b->lit[b->cnt[code & 0xff]++] = L[i];
    }
    b->work += (uint64_t)n * 2 + b->ncls;
    /* cnt[c] is now the end of class c's run */
    uint32_t other = settle(b, b->star, ns, v, b->tmp); /* classes no position reads */
    if (other == NO_ROOM)
        other = FIN_X, b->partial = 1;
    uint16_t *row = row_of(b, k); /* after interning: rows do not move */
    row[0] = endv ? FIN_A : FIN_D;
    uint32_t lo = 0;
    for (uint32_t c = 1; c < b->ncls; c++) {
        uint32_t hi = b->cnt[c], t = other;
        if (hi > lo) {
            uint32_t nn = 0;
            uint32_t *next = b->tmp + (size_t)b->npos + 1; /* the second half */
            for (uint32_t i = lo; i < hi; i++) {
                uint32_t p = b->lit[i] + 1;
                put(next, &nn, p);
                if (b->pcode[p] & P_STAR)
                    put(next, &nn, p + 1);
            }
            uint32_t m = merge(b->tmp, b->star, ns, next, nn);
            b->work += m + nn;
            t = settle(b, b->tmp, m, v, b->tmp);
            if (t == NO_ROOM)
                t = FIN_X, b->partial = 1;
            row = row_of(b, k);
        }
        row[c] = (uint16_t)t; /* an id below MAX_STATES, or a final */
        lo = hi;
    }
    return b->work <= b->work_cap;
}

/* Numbers the positions' residuals (note [dominance]): equal residuals
 * get equal ids. Each rule is read from its end, a residual being its
 * first code and the residual after it, interned in a hash table that is
 * scratch for this pass only. Also links each position to the first '*'
 * at or after it in its rule. */
static int residuals(bld *b)
{
    const uint32_t np = b->npos;
    b->rid = take(b, ((size_t)np + 1) * 4);
    b->nstar = take(b, ((size_t)np + 1) * 4);
    b->mark = take(b, ((size_t)np + 1) * 4);
    if (!b->rid || !b->nstar || !b->mark)
        return 0;
    memset(b->mark, 0, ((size_t)np + 1) * 4);
    const size_t top = b->top;
    const uint32_t hs = np + np / 2 + 2; /* at most two thirds full */
    uint32_t *h = take(b, (size_t)hs * 12); /* (kind << 16 | 1, next, id) triples */
    if (!h)
        return 0;
    memset(h, 0, (size_t)hs * 12);
    uint32_t nid = 0;
    for (uint32_t first = 0, end = 0; end < np; end++) { /* a rule's positions: first..end */
        if (!(b->pcode[end] & (P_DONE | P_MATCH)))
            continue;
        uint32_t next = NONE, star = NONE;
        for (uint32_t p = end + 1; p-- > first;) {
            /* the verdict is not part of a residual: (a) holds across them */
            const uint32_t key = (uint32_t)(b->pcode[p] & ~P_ALLOW) << 16 | 1u;
            uint32_t x = (key ^ next * 0x9e3779b1u) * 0x85ebca6bu;
            x ^= x >> 15;
            uint32_t j = (uint32_t)(((uint64_t)x * hs) >> 32);
            while (h[3 * j] && (h[3 * j] != key || h[3 * j + 1] != next))
                j = j + 1 == hs ? 0 : j + 1, b->work++;
            if (!h[3 * j])
                h[3 * j] = key, h[3 * j + 1] = next, h[3 * j + 2] = nid++;
            b->rid[p] = next = h[3 * j + 2];
            if (b->pcode[p] & P_STAR)
                star = p;
            b->nstar[p] = star;
        }
        b->work += end + 1 - first;
        first = end + 1;
    }
    b->top = top; /* the table is given back */
    return 1;
}

/* Marks the ranks a program can give (its trie's Accept and End, its
 * edges' Rank): the rules the DFA is built from. Ranks left out by the
 * encoder can never decide. */
static void mark_program(const uint8_t *q, uint64_t *bits)
{
    uint32_t tsize = rsc_uv(&q);
    const uint8_t *p = q, *end = q + tsize;
    while (p < end) { /* a verified trie tiles its bytes in preorder */
        rsc_node x;
        rsc_node_head(p, &x);
        if (x.accept)
            bits[(x.accept - 1) >> 6] |= 1ull << ((x.accept - 1) & 63);
        if (x.end)
            bits[(x.end - 1) >> 6] |= 1ull << ((x.end - 1) & 63);
        p = rsc_node_next(&x);
    }
    rsc_ptab edges;
    rsc_program_edges(end, &edges);
    for (uint32_t e = 0; e < edges.n; e++) {
        uint32_t rank = rsc_ptab_get(&edges, e, E_RANK);
        if (rank)
            bits[(rank - 1) >> 6] |= 1ull << ((rank - 1) & 63);
    }
}

/* Rule r's match text, cut to what matters: a final '$' (spec E.3) read
 * off into *anch, runs of '*' made one, trailing '*'s dropped (then a '$'
 * changes nothing). Writes to out when not NULL; returns the length. */
static uint32_t rule_text(const rsc_program *prog, uint32_t r, uint8_t *out, int *anch)
{
    const int rfc = rsc_program_profile(prog);
    const uint8_t *t = STR(prog) + rsc_tab(prog, P_RULES, r, rfc ? 3 : 1);
    uint32_t len = rsc_tab(prog, P_RULES, r, rfc ? 4 : 2), n = 0;
    *anch = len > 0 && t[len - 1] == '$';
    len -= (uint32_t)*anch;
    uint32_t keep = 0; /* the length up to the last byte that is not '*' */
    for (uint32_t i = 0; i < len; i++) {
        if (t[i] == '*' && n > 0 && (out ? out[n - 1] == '*' : t[i - 1] == '*'))
            continue;
        if (out)
            out[n] = t[i];
        n++;
        if (t[i] != '*')
            keep = n;
    }
    if (keep < n)
        *anch = 0;
    return keep;
}

/* The rows' final codes as states K, K + 1 and K + 2 (to 1), or back (to 0). */
static void finals_as_states(uint16_t *rows, size_t n, uint32_t K, int to)
{
    const uint16_t fin[3] = {FIN_A, FIN_D, FIN_X};
    for (size_t i = 0; i < n; i++)
        for (unsigned f = 0; f < 3; f++)
            if (rows[i] == (to ? fin[f] : K + f)) {
                rows[i] = to ? (uint16_t)(K + f) : fin[f];
                break;
            }
}

/* Moore's partition refinement over the rows, the two final states taken
 * as states K (allowed) and K + 1 (disallowed) that stay where they are
 * (the rows' final codes are made K and K + 1 for the rounds, so a move is
 * one load): states start apart by their end verdict, and are split while
 * two of a block move on some class into different blocks. A round hashes
 * each state's row of blocks as a sum of independent products (no chain
 * of multiplies from class to class) and compares rows whose hashes meet.
 * A block holding a final state becomes that final state (matching then
 * stops there too); the others become one state each, numbered by their
 * first state, whose row moves down in place (a block's number is never
 * above its first state). Bounded by its work allowance and the scratch:
 * without room or time the rows stay as built, which is as exact. Returns
 * the start. */
static uint32_t minimise(bld *b, uint32_t start)
{
    const uint32_t K = b->n, N = K + 3, ncls = b->ncls; /* N <= MAX_STATES + 3 < 0xfffd */
    uint32_t hs = 2;
    while (hs < 2 * (size_t)N)
        hs <<= 1;
    uint32_t *old = take(b, (size_t)N * 4), *cur = take(b, (size_t)N * 4);
    uint32_t *h = take(b, (size_t)hs * 4), *id = take(b, (size_t)N * 4);
    uint32_t *mul = take(b, (size_t)ncls * 4);
    if (K < 2 || !old || !cur || !h || !id || !mul)
        return start;
    uint16_t *rows = row_of(b, 0);
    finals_as_states(rows, (size_t)K * ncls, K, 1);
    b->work += (uint64_t)K * ncls;
#define TGT(s, c) ((s) >= K ? (s) : rows[(size_t)(s) * ncls + (c)])
    for (uint32_t c = 0, x = 0x2545f491u; c < ncls; c++) /* odd multipliers */
        x ^= x << 13, x ^= x >> 17, x ^= x << 5, mul[c] = x | 1;
    for (uint32_t s = 0; s < N; s++) /* the end verdict: class 0's entry */
        old[s] = s < K ? rows[(size_t)s * ncls] == K + 1 : s - K;
    uint32_t blocks = 3;
    for (;;) {
        memset(h, 0xff, (size_t)hs * 4);
        uint32_t nb = 0;
        b->work += (uint64_t)N * ncls * 2 + hs;
        if (b->work > b->work_cap) {
            finals_as_states(rows, (size_t)K * ncls, K, 0);
            return start;
        }
        for (uint32_t s = 0; s < N; s++) {
            uint32_t x = old[s] * mul[0];
            if (s < K) {
                const uint16_t *r = rows + (size_t)s * ncls;
                for (uint32_t c = 1; c < ncls; c++)
                    x += old[r[c]] * mul[c];
            } else {
                for (uint32_t c = 1; c < ncls; c++)
                    x += old[s] * mul[c];
            }
            x ^= x >> 16, x *= 0x85ebca6bu, x ^= x >> 13;
            uint32_t j = x & (hs - 1);
            for (;; j = (j + 1) & (hs - 1)) {
                uint32_t r = h[j];
                if (r == UINT32_MAX) {
                    h[j] = s, cur[s] = nb++;
                    break;
                }
                uint32_t c = 1;
                if (old[r] == old[s])
                    while (c < ncls && old[TGT(r, c)] == old[TGT(s, c)])
                        c++;
                if (c == ncls && old[r] == old[s]) {
                    cur[s] = cur[r];
                    break;
                }
            }
        }
        uint32_t *t = old;
        old = cur, cur = t;
        if (nb == blocks)
            break;
        blocks = nb;
    }
    /* old: each state's block; the new numbers, by first state */
    const uint32_t fa = old[K], fd = old[K + 1], fx = old[K + 2];
    memset(id, 0xff, (size_t)N * 4);
    uint32_t m = 0;
    for (uint32_t s = 0; s < K; s++)
        if (old[s] != fa && old[s] != fd && old[s] != fx && id[old[s]] == UINT32_MAX)
            id[old[s]] = m++, cur[m - 1] = s; /* cur: each new state's first state */
#define MAPS(t) ((t) >= K ? ((t) == K ? FIN_A : (t) == K + 1 ? FIN_D : FIN_X) : \
                 old[t] == fa ? FIN_A : old[t] == fd ? FIN_D : old[t] == fx ? FIN_X : id[old[t]])
    for (uint32_t j = 0; j < m; j++) { /* row cur[j] >= j is read before row j is written */
        uint16_t *to = row_of(b, j);
        for (uint32_t c = 0; c < ncls; c++) {
            uint32_t e = TGT(cur[j], c);
            to[c] = (uint16_t)MAPS(e);
        }
    }
    start = start >= K ? start : MAPS(start);
#undef MAPS
#undef TGT
    b->n = m;
    return start;
}

/* Classes that every row moves alike are one (RE2's and re2c's byte
 * ranges are merged the same way, after the fact): a rule set's bytes
 * are told apart by its texts, but once the states are built many of them
 * lead to the same places, and each class kept is a column of every row.
 * Class 0 (the path's end) stays; the first class of each group of equal
 * columns is kept, in order, so the rows shrink forwards in place.
 * Returns the new class count. */
static uint32_t merge_classes(bld *b, rsc_dfa *d)
{
    const uint32_t K = b->n, ncls = b->ncls;
    const size_t top = b->top;
    uint32_t *hc = take(b, (size_t)ncls * 4), *to = take(b, (size_t)ncls * 4);
    uint32_t *rep = take(b, (size_t)ncls * 4);
    if (K == 0 || !hc || !to || !rep) {
        b->top = top;
        return ncls; /* kept as they are: as exact */
    }
    uint16_t *rows = row_of(b, 0);
    for (uint32_t c = 0; c < ncls; c++)
        hc[c] = 2166136261u;
    for (uint32_t k = 0; k < K; k++)
        for (uint32_t c = 0; c < ncls; c++)
            hc[c] = (hc[c] ^ rows[(size_t)k * ncls + c]) * 16777619u;
    b->work += (uint64_t)K * ncls;
    uint32_t n = 1;
    to[0] = 0, rep[0] = 0;
    for (uint32_t c = 1; c < ncls; c++) {
        uint32_t j = 1;
        for (; j < n; j++) {
            if (hc[rep[j]] != hc[c])
                continue;
            uint32_t k = 0;
            while (k < K && rows[(size_t)k * ncls + c] == rows[(size_t)k * ncls + rep[j]])
                k++;
            b->work += k;
            if (k == K)
                break;
        }
        if (j == n)
            rep[n++] = c;
        to[c] = j;
    }
    if (n < ncls) {
        for (uint32_t k = 0; k < K; k++) /* rep is increasing: reads stay ahead of writes */
            for (uint32_t j = 0; j < n; j++)
                rows[(size_t)k * n + j] = rows[(size_t)k * ncls + rep[j]];
        for (unsigned m = 0; m < 2; m++)
            for (unsigned c = 0; c < 256; c++)
                d->cls[m][c] = (uint8_t)to[d->cls[m][c]];
        b->rows_end = RSC_DFA_HEAD + (size_t)K * n * 2;
        b->ncls = n;
    }
    b->top = top;
    return n;
}

static int usable(const rsc_selection *sel)
{
    return sel && sel->prog && sel->prog->base && sel->n_roots <= RSC_MAX_SELECT;
}

rsc_status rsc_dfa_build(rsc_selection *sel, void *buf, size_t size, size_t *used)
{
    if (used)
        *used = 0;
    if (!sel || !sel->prog || !sel->prog->base || !buf || ((uintptr_t)buf & 7u))
        return RSC_E_ARG;
    sel->accel = NULL;
    if (!usable(sel))
        return RSC_E_LIMIT; /* more programs than a selection holds */
    if (size > 0xfffffff8u)
        size = 0xfffffff8u; /* offsets are u32 */
    size &= ~(size_t)7u;
    if (size < RSC_DFA_HEAD)
        return RSC_E_LIMIT;
    const rsc_program *prog = sel->prog;
    bld b;
    memset(&b, 0, sizeof b);
    b.buf = buf, b.top = size, b.rows_end = RSC_DFA_HEAD;
    b.work_cap = (uint64_t)size * WORK_PER_BYTE;
    rsc_dfa *d = (rsc_dfa *)buf;
    memset(d, 0, RSC_DFA_HEAD);

    /* the rules: their ranks, from the programs */
    const uint32_t nr = PRIV(prog, P_RULES_N);
    uint64_t *bits = take(&b, ((size_t)nr / 64 + 1) * 8);
    if (!bits)
        return RSC_E_LIMIT;
    memset(bits, 0, ((size_t)nr / 64 + 1) * 8);
    for (uint32_t k = 0; k < sel->n_roots; k++)
        mark_program(prog->base + sel->roots[k], bits);
    uint64_t npos = 0;
    uint8_t used_b[256];
    memset(used_b, 0, sizeof used_b);
    for (uint32_t r = 0; r < nr; r++)
        if (bits[r >> 6] >> (r & 63) & 1) {
            int anch;
            npos += rule_text(prog, r, NULL, &anch) + 1u;
            b.nrules++;
        }
    if (npos > 0x3fffffffu || npos * 32 > size) /* the scratch a position takes */
        return RSC_E_LIMIT;
    b.npos = (uint32_t)npos;
    b.pcode = take(&b, ((size_t)b.npos + 1) * 2);
    const size_t text_top = b.top; /* the texts are given back after this pass */
    uint8_t *text = take(&b, (size_t)b.npos + 1);
    if (!b.pcode || !text)
        return RSC_E_LIMIT;
    /* positions, rule by rule in rank order; the texts' bytes */
    uint32_t pos = 0, ri = 0;
    int inner_star = 0; /* some rule has a '*' (rule_text left none last) */
    for (uint32_t r = 0; r < nr; r++) {
        if (!(bits[r >> 6] >> (r & 63) & 1))
            continue;
        int anch;
        uint32_t len = rule_text(prog, r, text, &anch);
        /* Priority 0 never decides (spec E.5): such a rule allows. */
        const uint16_t allow =
            (rsc_tab(prog, P_RULES, r, 0) & 1) || rsc_tab(prog, P_RULES, r, 2) == 0 ? P_ALLOW : 0;
        for (uint32_t j = 0; j < len; j++) {
            if (text[j] == 0 || text[j] == '#')
                return RSC_E_LIMIT; /* bytes that end a path: never in an encoder's rule */
            if (text[j] != '*')
                used_b[text[j]] = 1;
            b.pcode[pos + j] = text[j] | allow; /* classes come next */
        }
        for (uint32_t j = 0; j < len; j++)
            if (text[j] == '*')
                b.pcode[pos + j] = P_STAR | allow, inner_star = 1;
        b.pcode[pos + len] = (anch ? P_DONE : P_MATCH) | allow;
        pos += len + 1, ri++;
    }
    b.top = text_top;
    /* byte classes: 0 the path's end, 1 every byte no rule names, then one
     * for each byte a rule names */
    uint32_t ncls = 2;
    for (unsigned c = 0; c < 256; c++) {
        d->cls[0][c] = used_b[c] ? (uint8_t)ncls : 1;
        ncls += used_b[c];
    }
    if (ncls > 256)
        return RSC_E_LIMIT; /* never: NUL and '#' are no rule's */
    d->cls[0][0] = 0;
    memcpy(d->cls[1], d->cls[0], 256);
    d->cls[1]['#'] = 0;
    b.ncls = ncls;
    for (uint32_t p = 0; p < b.npos; p++)
        if (!(b.pcode[p] & P_KIND))
            b.pcode[p] = (uint16_t)((b.pcode[p] & P_ALLOW) | d->cls[0][b.pcode[p] & 0xff]);
    if (!residuals(&b))
        return RSC_E_LIMIT;
    /* a list of distinct positions holds at most npos + 1 */
    b.star = take(&b, ((size_t)b.npos + 1) * 4);
    b.lit = take(&b, ((size_t)b.npos + 1) * 4);
    b.tmp = take(&b, (2 * (size_t)b.npos + 2) * 4);
    if (!b.star || !b.lit || !b.tmp)
        return RSC_E_LIMIT;
    b.mcap = 16, b.hmask = 31;
    b.meta = take(&b, (size_t)b.mcap * 4);
    b.hash = take(&b, ((size_t)b.hmask + 1) * 4);
    if (!b.meta || !b.hash)
        return RSC_E_LIMIT;
    memset(b.hash, 0, ((size_t)b.hmask + 1) * 4);

    /* the start: every rule at its first position */
    uint32_t n0 = 0;
    pos = 0;
    for (ri = 0; ri < b.nrules; ri++) {
        put(b.tmp, &n0, pos);
        if (b.pcode[pos] & P_STAR)
            put(b.tmp, &n0, pos + 1);
        while (!(b.pcode[pos] & (P_DONE | P_MATCH)))
            pos++;
        pos++;
    }
    uint32_t start = settle(&b, b.tmp, n0, 1, b.tmp);
    if (start == NO_ROOM)
        return RSC_E_LIMIT;
    /* the states in the order they were found (breadth first: the
     * shallowest, which paths visit most, first); past the work cap the
     * rest stay unbuilt, and the moves into them become FIN_X */
    for (uint32_t k = 0; k < b.n; k++)
        if (!expand(&b, k)) {
            uint16_t *rows = row_of(&b, 0);
            for (size_t i = 0; i < (size_t)(k + 1) * ncls; i++)
                if (rows[i] > k && rows[i] < MAX_STATES)
                    rows[i] = FIN_X;
            b.n = k + 1, b.partial = 1;
            b.rows_end = RSC_DFA_HEAD + (size_t)b.n * ncls * 2;
            break;
        }
    /* Without a '*' inside a rule the programs are a trie walk that stops
     * where the rules part from the path, a node a path byte: a partial
     * DFA saves little on the paths it decides and walks twice on the
     * rest (www.icicibank.com, 362 literal rules, 1,899 of 9,272 states
     * built: 55.7 ns a URL against the programs' 49.2). */
    if (b.partial && !inner_star)
        return RSC_E_LIMIT;
    b.top = size; /* the states' records are done with */
    if ((size_t)b.n * ncls * 2 > MINIMISE_FROM) {
        b.work = 0, b.work_cap = (uint64_t)size * MINIMISE_WORK; /* an allowance of its own */
        start = minimise(&b, start);
    }

    ncls = merge_classes(&b, d);

    /* The layout: entries t x q in 16 bits, a row at (t x q) << sh; the
     * least sh for which lim + 1 fits (at sh 8, q is 1 and K < 2^16). The
     * stride q << sh is below 2 ncls, so two bytes an entry at most double
     * the row where four bytes would. */
    const uint32_t K = b.n;
    uint32_t sh = 0, q = ncls;
    while ((size_t)K * q + 2 > 0xffffu)
        sh++, q = (ncls + (1u << sh) - 1) >> sh;
    const uint32_t stride = q << sh, lim = K * q;

    /* Skip states go last (their order kept), by a permutation of the rows
     * in place (cycle by cycle, through one spare row); the scratch above
     * the rows is free again. The rows' room is reserved at their final
     * stride, so the scratch below survives their spreading. */
    uint16_t *in = (uint16_t *)(void *)(b.buf + RSC_DFA_HEAD);
    b.top = size, b.rows_end = RSC_DFA_HEAD + (size_t)K * stride * 2;
    uint32_t *perm = take(&b, (size_t)K * 4 + 4);
    uint16_t *spare = take(&b, (size_t)ncls * 2);
    uint8_t *sb = take(&b, (size_t)K * 2 + 2), *seen = take(&b, (size_t)K / 8 + 1);
    if (!perm || !spare || !sb || !seen)
        return RSC_E_LIMIT; /* the rows do not fit at their final stride */
    uint32_t a = 0, nskip = 0;
    for (uint32_t k = 0; k < K; k++) {
        const uint16_t *row = in + (size_t)k * ncls;
        unsigned m = 0;
        uint8_t two[2] = {0, 0};
        for (unsigned c = 1; c < 256 && m <= 2; c++)
            if (c != '#' && row[d->cls[0][c]] != k) {
                if (m < 2)
                    two[m] = (uint8_t)c;
                m++;
            }
        perm[k] = m <= 2 ? UINT32_MAX - 1 : a++; /* skip states numbered next */
        if (m <= 2)
            sb[2 * nskip] = two[0], sb[2 * nskip + 1] = m == 2 ? two[1] : two[0], nskip++;
    }
    for (uint32_t k = 0, j = a; k < K; k++)
        if (perm[k] == UINT32_MAX - 1)
            perm[k] = j++;
    memset(seen, 0, (size_t)K / 8 + 1);
    for (uint32_t k = 0; k < K; k++) { /* row k goes to perm[k] */
        if (seen[k >> 3] >> (k & 7) & 1 || perm[k] == k)
            continue;
        memcpy(spare, in + (size_t)k * ncls, (size_t)ncls * 2);
        uint32_t j = k;
        for (;;) { /* spare holds row j, which goes to perm[j] */
            uint32_t t = perm[j];
            seen[j >> 3] |= (uint8_t)(1u << (j & 7));
            if (t == k) {
                memcpy(in + (size_t)t * ncls, spare, (size_t)ncls * 2);
                break;
            }
            for (uint32_t c = 0; c < ncls; c++) { /* swap spare and row t */
                uint16_t x = in[(size_t)t * ncls + c];
                in[(size_t)t * ncls + c] = spare[c], spare[c] = x;
            }
            j = t;
        }
    }
    /* the entries, rows moved to their stride from the last one (row k's
     * entry c goes from k ncls + c to k stride + c, never below: every
     * entry still to be read is below the one written); padding never
     * read, set to a verdict; then the skip bytes */
#define MAP(e) ((e) == FIN_A ? lim : (e) == FIN_D ? lim + 1 : (e) == FIN_X ? lim + 2 : perm[e] * q)
    for (size_t k = K; k-- > 0;) {
        for (uint32_t c = stride; c-- > ncls;)
            in[k * stride + c] = (uint16_t)lim;
        for (uint32_t c = ncls; c-- > 0;)
            in[k * stride + c] = (uint16_t)MAP(in[k * ncls + c]);
    }
    d->start = MAP(start);
#undef MAP
    uint8_t *skipb = (uint8_t *)in + (size_t)K * stride * 2; /* below sb: a forward copy */
    for (size_t j = 0; j < (size_t)nskip * 2; j++)
        skipb[j] = sb[j];
    d->a = a, d->q = q, d->inv = ((1ull << 32) + q - 1) / q;
    d->k = K, d->ncls = ncls, d->lim = lim, d->sh = (uint8_t)sh;
    d->rfc = (uint8_t)rsc_program_profile(prog);
    d->partial = (uint8_t)b.partial;
    d->rules = b.nrules;
    d->used = (uint32_t)ALIGN8(RSC_DFA_HEAD + (size_t)K * stride * 2 + (size_t)nskip * 2);
    d->prog = prog, d->n = sel->n_roots;
    memcpy(d->root, sel->roots, sizeof d->root);
    d->magic = RSC_DFA_MAGIC;
    sel->accel = d;
    if (used)
        *used = d->used;
    return RSC_OK;
}

/* ---- Checking and attaching ---------------------------------------------- */

rsc_status rsc_dfa_attach(rsc_selection *sel, const void *dfa, size_t size)
{
    if (!usable(sel) || !dfa || ((uintptr_t)dfa & 7u) || size < RSC_DFA_HEAD)
        return RSC_E_ARG;
    const rsc_dfa *d = dfa;
    if (d->magic != RSC_DFA_MAGIC || d->prog != sel->prog || d->n != sel->n_roots ||
        memcmp(d->root, sel->roots, sel->n_roots * sizeof d->root[0]) != 0)
        return RSC_E_ARG;
    /* every index in range: the layout, the classes, the start and every
     * entry (the padding too: it is never read, but is a verdict) */
    const uint32_t ncls = d->ncls, k = d->k, q = d->q;
    if (ncls < 2 || ncls > 256 || k > MAX_STATES || d->sh > 8 || q < 1 || q > 256 ||
        (q << d->sh) < ncls || d->lim != k * q || d->lim + 2 > 0xffffu || d->a > k || d->partial > 1 ||
        d->inv != ((1ull << 32) + q - 1) / q || d->rfc != rsc_program_profile(sel->prog) ||
        d->used != ALIGN8(RSC_DFA_HEAD + (size_t)k * (q << d->sh) * 2 + (size_t)(k - d->a) * 2) ||
        d->used > size)
        return RSC_E_CORRUPT;
    for (unsigned m = 0; m < 2; m++)
        for (unsigned c = 0; c < 256; c++)
            if (d->cls[m][c] >= ncls || ((c == 0 || (m && c == '#')) != (d->cls[m][c] == 0)))
                return RSC_E_CORRUPT;
    const uint32_t top = d->lim + 1 + d->partial; /* the highest entry: FIN_X's when partial */
    if (d->start > d->lim + 1 || (d->start < d->lim && d->start % q))
        return RSC_E_CORRUPT;
    const uint32_t stride = q << d->sh;
    for (size_t i = 0; i < (size_t)k * stride; i++) {
        uint32_t e = entry(d, i);
        if (e > top || (e < d->lim && (e % q || i % stride == 0 || i % stride >= ncls)))
            return RSC_E_CORRUPT;
    }
    sel->accel = d;
    return RSC_OK;
}

int rsc_selection_engine(const rsc_selection *sel, rsc_engine_info *info)
{
    rsc_engine_info z;
    memset(&z, 0, sizeof z);
    z.engine = RSC_ENGINE_PROGRAMS;
    if (sel && sel->prog) {
        const rsc_dfa *d = rsc_dfa_of(sel);
        if (d) {
            z.engine = RSC_ENGINE_DFA;
            z.bytes = d->used, z.states = d->k, z.classes = d->ncls, z.rules = d->rules;
            z.skip_states = d->k - d->a;
        } else if (sel->accel && ((const rsc_accel *)sel->accel)->magic == RSC_ACCEL_MAGIC &&
                   ((const rsc_accel *)sel->accel)->prog == sel->prog) {
            z.engine = RSC_ENGINE_DENSE;
        }
    }
    if (info)
        *info = z;
    return z.engine;
}

int rsc_dfa_partial(const rsc_selection *sel)
{
    const rsc_dfa *d = sel && sel->prog ? rsc_dfa_of(sel) : NULL;
    return d ? d->partial : 0;
}
