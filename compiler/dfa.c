/* SPDX-License-Identifier: Apache-2.0 */
/* The DFA of each rule set, determinised at compile time and written into
 * the blob's DFAS section (docs/DFA.md, docs/FORMAT.md "DFAS"); the
 * runtime only verifies and runs it (runtime/dfa.c).
 *
 * Construction is a subset construction over rule positions with the
 * ranks folded in (moved here from the 1.0 runtime, where every worker
 * built it). A state is (L, v): L the positions of the rules still alive,
 * v the verdict of the best rule matched so far (allowed when none). Every
 * rule of L outranks that rule, so the answer from there on is v unless a
 * rule of L matches, and the best rank itself need not be kept. When a rule
 * matches, the rules it outranks leave L. A rule of verdict v that ranks
 * below every rule of L of the other verdict can no longer change the
 * answer either (if one of those matches it is beaten, if none does the
 * answer is v with it or without it): it leaves too. Positions are
 * numbered rule by rule in rank order, so both cuts drop a prefix of the
 * sorted L, and an empty L is final: the answer is v.
 *
 * It reads the rules from a loaded blob (the one the compiler just made,
 * without DFAs) through the runtime's readers, so the DFA is built from
 * exactly what the programs match. Time and memory are bounded by a
 * buffer of a fixed size (the budget, below) and a fixed work per byte of
 * it; a rule set whose DFA does not fit keeps the programs alone. The
 * dense table it builds is then encoded compactly (encode(), below). */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "codec.h"
#include "compile.h"
#include "format.h"
#include "program.h"
#include "robotsc/runtime.h"
#include "subset.h"

#define DFA_STEPS(n) ((void)0)
#define ALIGN8(x) (((x) + 7u) & ~(size_t)7u)

/* The builder's head in its buffer: each byte's class (NUL the path's
 * end). */
typedef struct dhead {
    uint8_t cls[256];
} dhead;
#define RSC_DFA_HEAD ((sizeof(dhead) + 7u) & ~(size_t)7u)

/* A built DFA, dense: k rows of ncls u16 entries (a state, or FIN_A,
 * FIN_D), class 0 the path's end. */
typedef struct dense {
    uint32_t k, ncls, start, rules;
    const uint16_t *rows;
    uint8_t cls[256];
    uint64_t named[4]; /* the bytes a rule names: classes 2.. in byte order */
} dense;

/* ---- Determinising (moved from the 1.0 runtime) -------------------------- */

/* While building, rows are u16: a state's id, or one of the two finals. */
#define FIN_A 0xfffeu /* final, allowed (while building)               */
#define FIN_D 0xffffu /* final, disallowed                             */
#define FIN_X 0xfffdu /* a state left unbuilt: the programs decide      */
#define NO_ROOM 0xffffffffu
#define MAX_STATES 0xfff0u /* below the finals' codes */
#define WORK_PER_BYTE 2u /* construction steps allowed per buffer byte */
#define MINIMISE_WORK 4u /* and minimisation steps, after it          */
/* Rows of more bytes than this (in u16) are minimised: below it the table
 * fits a 32 KiB level-1 cache anyway, and Moore's rounds would cost more than
 * the whole construction (measured: a median build of 4 µs took 47). */
#define MINIMISE_FROM 12288u
/* A state's list of '*'s is scanned once for all its moves from this
 * length on (note [shared '*' list]) */
#define SHARED_FROM 8u

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
    uint64_t owed;        /* the least work of the states found, not yet
                             expanded (note [owed work])                  */
    /* note [shared '*' list]: outside the buffer, so that they change
     * neither which builds fit nor the work; NULL without a '*' in the set */
    uint32_t *sm, *stop;  /* per residual: marked by the '*' list (sm ==
                             sclk), and its highest position marking it   */
    uint32_t *sck;        /* per residual: some position of the list checks
                             it (sck == sclk)                             */
    uint32_t *ssum;       /* per index i of the list: the steps of its
                             positions i.. (ns + 1 of them)                */
    uint32_t *sbelow;     /* per index i: how many of the positions below i
                             are kept (ns + 1)                            */
    uint32_t *skept;      /* the positions kept, increasing               */
    uint32_t *lrank;      /* per literal position of the state being
                             expanded: note [ranks]                       */
    uint32_t sclk;
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

/* note [owed work]
 * Every state found is expanded unless the build fails first, and
 * expand() counts at least this much work for a state of n positions, ns
 * in its list of '*'s (two a '*': the '*' and the one past it) and nl
 * literal ones, which read nc classes: 2n + ncls for the sort; ns for
 * settling that list (the classes no position reads); and for each class
 * read by c of the nl, at least c moves, merged with the '*' list into
 * m >= max(ns, c) positions (merge() counts m + c, settle() m more), in
 * all nl + 2 x max(ns x nc, nl) at least. So once the work done plus
 * what the found states owe exceeds the cap, the build will fail: it stops
 * there, with the same result (the set keeps its programs), instead of
 * when the cap is reached. It is a bound, not an estimate (on the corpus's
 * failing builds a state's work is about 1.8 times it, and few states
 * are found ahead of those expanded), so it stops them only somewhat
 * early, at a median 90% of the cap; an estimate that stops them earlier
 * could stop builds that fit (some use 99.9% of their cap). The bound is a
 * function of the positions alone, so intern() adds and expand() takes
 * off the same. */
static uint64_t least_work(const bld *b, uint32_t n, uint32_t ns, uint32_t nl, uint32_t nc)
{
    const uint64_t sc = (uint64_t)ns * nc;
    return 2 * (uint64_t)n + b->ncls + ns + nl + 2 * (sc > nl ? sc : nl);
}

/* The state (s[0..n), v), added when new: its id, a final code, or NO_ROOM. */
static uint32_t intern(bld *b, const uint32_t *s, uint32_t n, uint32_t v)
{
    if (n == 0)
        return v ? FIN_A : FIN_D;
    /* hashed and encoded in one pass: the hash is a chain of multiplies,
     * one a position, and the encoding runs in its shadow (in two passes
     * the chain had the core to itself: a third of intern()'s time); the
     * encoding goes into tmp's second half (free in settle(): 4 bytes a
     * position hold any delta below 2^28, and npos < 2^27) */
    uint32_t h = 2166136261u ^ v;
    uint8_t *e = (uint8_t *)(b->tmp + (size_t)b->npos + 1);
    uint32_t el = 0, prev = 0, k = 0;
    /* four positions a round, their deltas tested at once: almost all
     * take a byte (the loop a position at a time was half of intern()'s
     * instructions in its control and the test) */
    for (; k + 4 <= n; k += 4) {
        const uint32_t a0 = s[k], a1 = s[k + 1], a2 = s[k + 2], a3 = s[k + 3];
        h = (h ^ a0) * 16777619u, h = (h ^ a1) * 16777619u;
        h = (h ^ a2) * 16777619u, h = (h ^ a3) * 16777619u;
        const uint32_t d0 = a0 + 1 - prev, d1 = a1 - a0, d2 = a2 - a1, d3 = a3 - a2;
        prev = a3 + 1;
        if ((d0 | d1 | d2 | d3) < 0x80) {
            e[el] = (uint8_t)d0, e[el + 1] = (uint8_t)d1, e[el + 2] = (uint8_t)d2, e[el + 3] = (uint8_t)d3;
            el += 4;
            continue;
        }
        const uint32_t d[4] = {d0, d1, d2, d3};
        for (unsigned q = 0; q < 4; q++) {
            uint32_t dl = d[q];
            for (; dl >= 0x80; dl >>= 7)
                e[el++] = (uint8_t)(dl | 0x80);
            e[el++] = (uint8_t)dl;
        }
    }
    for (; k < n; k++) {
        h = (h ^ s[k]) * 16777619u;
        uint32_t dl = s[k] + 1 - prev;
        prev = s[k] + 1;
        for (; dl >= 0x80; dl >>= 7)
            e[el++] = (uint8_t)(dl | 0x80);
        e[el++] = (uint8_t)dl;
    }
    h ^= h >> 16, h *= 0x85ebca6bu, h ^= h >> 13; /* the low bits hear every bit */
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
    uint32_t ns = 0, nl = 0, nc = 0;
    uint64_t seen[4] = {0, 0, 0, 0}; /* the classes read */
    for (uint32_t j = 0; j < n; j++) {
        const uint32_t code = b->pcode[s[j]];
        if (code & P_STAR)
            ns += 2;
        else if (!(code & P_DONE)) { /* as expand() sorts them */
            nl++;
            nc += !(seen[(code & 0xff) >> 6] >> (code & 63) & 1);
            seen[(code & 0xff) >> 6] |= 1ull << (code & 63);
        }
    }
    b->owed += least_work(b, n, ns, nl, nc);
    b->meta[b->n] = (uint32_t)((uint8_t *)r - b->buf);
    b->hash[i] = b->n + 1;
    return b->n++;
}

/* A fresh stamp for b->mark. */
static uint32_t next_clk(bld *b)
{
    if (++b->clk == 0) { /* never in a build that fits: 2^32 settles */
        memset(b->mark, 0, ((size_t)b->npos + 1) * 4);
        b->clk = 1;
    }
    return b->clk;
}

/* settle()'s end: out[w..n) kept, in order, after the scan that counted
 * work; the rules of verdict v below every rule of the other verdict
 * leave, and the rest is interned. */
static uint32_t settled(bld *b, uint32_t *out, uint32_t w, uint32_t n, uint32_t v, uint64_t work)
{
    const uint16_t *pcode = b->pcode;
    while (w < n && ((pcode[out[w]] & P_ALLOW) != 0) == v)
        w++;
    b->work += work;
    return intern(b, out + w, n - w, v);
}

/* The state of the sorted positions t[0..n) after a move, the best match
 * so far having verdict v: the rules a match outranks leave, then the
 * positions another one dominates (subset.h, note [dominance]), then the
 * rules of verdict v below every rule of the other verdict. Writes the
 * kept positions to out (which may be t) before interning them. */
static uint32_t settle(bld *b, const uint32_t *t, uint32_t n, uint32_t v, uint32_t *out)
{
    /* from the top down to the best rule that matched, if any (a rule's
     * last position: those below it are outranked), in one pass. The
     * builder's fields are read into locals, and the work counted in one:
     * as far as the compiler knows, a store into mark or out could change
     * b->clk (both uint32_t), which was read again at every position */
    const uint32_t clk = next_clk(b), *rid = b->rid, *nstar = b->nstar;
    const uint16_t *pcode = b->pcode;
    uint32_t *mark = b->mark;
    uint64_t work = n;
    uint32_t w = n; /* out[w..n): kept, in order; w - 1 >= i, so out may be t */
    for (uint32_t i = n; i-- > 0;) {
        const uint32_t p = t[i], r = rid[p];
        if (pcode[p] & P_MATCH) {
            v = (pcode[p] & P_ALLOW) != 0;
            break;
        }
        uint32_t steps = 0;
        const int dom = rsc_sub_dominated(rid, nstar, p, r, mark, clk, NULL, 0, NULL, UINT32_MAX, &steps);
        work += steps;
        mark[r] = clk;
        if (!dom)
            out[--w] = p;
    }
    return settled(b, out, w, n, v, work);
}

/* note [shared '*' list]
 * Every move of a state merges its list of '*'s (S: each '*' and the
 * position past it) with the class's few moves (N), and settle() scans the
 * lot: on the sample, 85% of the positions the moves settled were S's,
 * scanned again for every class. A position's fate in the scan (kept or
 * dominated, and the steps its walk counts) depends only on the residuals
 * marked above it. S holds no rule's end, so its own scan (the move on
 * the classes no position reads) never stops early; settle_star() does
 * that scan as settle() does and keeps, per position of S, its steps and
 * whether it was dominated, per residual the highest position of S that
 * marks it, and every residual some position of S checks (its own and its
 * '*'s'). A class's move (move_star()) then scans only N (those of N not
 * in S): one of them is dominated by a residual marked above it by N, or
 * by S (a position of S above it marks it); and a position of S fares as
 * in S's scan unless a position of N above it marks a residual it checks.
 * When no position of N scanned marks a residual that any position of S
 * checks, S's fates and steps are taken as they were, in order with N's:
 * the same kept positions and the same work as settle() of the merged
 * list; otherwise the move is merged and settled as before. */
static uint32_t settle_star(bld *b, const uint32_t *t, uint32_t n, uint32_t v, uint32_t *out)
{ /* out apart from t */
    if (++b->sclk == 0) {
        memset(b->sm, 0, ((size_t)b->npos + 1) * 4);
        memset(b->sck, 0, ((size_t)b->npos + 1) * 4);
        b->sclk = 1;
    }
    const uint32_t sclk = b->sclk, *rid = b->rid, *nstar = b->nstar;
    uint32_t *sm = b->sm, *stop = b->stop, *sck = b->sck, *ssum = b->ssum, *sbelow = b->sbelow;
    uint64_t work = n;
    uint32_t w = n;
    ssum[n] = 0;
    for (uint32_t i = n; i-- > 0;) {
        const uint32_t p = t[i], r = rid[p];
        uint32_t steps = 0;
        const int dom = rsc_sub_dominated(rid, nstar, p, r, sm, sclk, NULL, 0, NULL, UINT32_MAX, &steps);
        if (sm[r] != sclk)
            sm[r] = sclk, stop[r] = p; /* the first to mark it is the highest */
        sck[r] = sclk;
        for (uint32_t k = nstar[p]; k != NONE; k = nstar[k + 1])
            sck[rid[k]] = sclk;
        ssum[i] = ssum[i + 1] + steps; /* below the work cap: no overflow */
        sbelow[i] = !dom;                /* counted up below */
        work += steps;
        if (!dom)
            out[--w] = p;
    }
    memcpy(b->skept, out + w, (size_t)(n - w) * 4);
    uint32_t kept = 0; /* a sum, not a compare with out: no branch to guess */
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t x = sbelow[i];
        sbelow[i] = kept, kept += x;
    }
    sbelow[n] = kept;
    return settled(b, out, w, n, v, work);
}

/* note [ranks]
 * S holds each '*' q of the state and q + 1, so the positions of S below
 * x number 2 x (the '*'s of the state below x), and x + 1 for x a '*' of
 * the state. A literal position p moves to p + 1, and to p + 2 too when
 * p + 1 is a '*' (never a '*' after it): both are in S when p + 1 is a
 * '*' of the state, and neither is otherwise, and then S has as many
 * positions below each as below p, the ns counted so far as expand()
 * reads the state's positions in order. It keeps that count, and whether
 * p + 1 is a '*' of the state, per position, for the class moves: they
 * need no search of S. */

/* The move merging S (b->star[0..ns), scanned by settle_star()) with the class's
 * moves, nn of them, as merge() and settle() make it and with the same
 * work (note [shared '*' list]): those not in S are out[0..nx), increasing,
 * and xr[j] is how many of S are below out[j] (expand() knows both, note
 * [ranks]); or NOT_SHARED when the moves may change some of S's fates:
 * then nothing is counted or changed. */
#define NOT_SHARED (NONE - 1)
static uint32_t move_star(bld *b, uint32_t ns, const uint32_t *xr, uint32_t nx, uint32_t nn, uint32_t v,
                          uint32_t *out)
{
    const uint32_t *rid = b->rid, *nstar = b->nstar, *sm = b->sm, *stop = b->stop, *sck = b->sck;
    const uint32_t sclk = b->sclk;
    const uint16_t *pcode = b->pcode;
    const uint32_t *x = out;
    /* the positions of N the scan reaches (down to the first rule's end)
     * must mark no residual a position of S checks */
    for (uint32_t j = nx; j-- > 0;) {
        if (pcode[x[j]] & P_MATCH)
            break;
        if (sck[rid[x[j]]] == sclk)
            return NOT_SHARED;
    }
    const uint32_t m = ns + nx, clk = next_clk(b);
    uint32_t *mark = b->mark;
    const uint32_t *ssum = b->ssum, *sbelow = b->sbelow, *skept = b->skept;
    uint64_t work = (uint64_t)m + nn + m; /* merge()'s count and settle()'s */
    /* out[w..m): kept. S's positions above each of N's are copied as a
     * run, kept as in S's scan. w >= i + j, so the writes stay above the
     * positions of N still to read (out[0..j)) */
    uint32_t w = m, i = ns, j = nx;
    for (;;) {
        const uint32_t p = j ? x[j - 1] : 0;
        const uint32_t lo = j ? xr[j - 1] : 0; /* S[lo..i): above p (all at the end) */
        const uint32_t nk = sbelow[i] - sbelow[lo];
        w -= nk;
        memcpy(out + w, skept + sbelow[lo], (size_t)nk * 4);
        work += ssum[lo] - ssum[i];
        i = lo;
        if (!j)
            break;
        j--;
        const uint32_t r = rid[p];
        if (pcode[p] & P_MATCH) {
            v = (pcode[p] & P_ALLOW) != 0;
            break;
        }
        uint32_t steps = 0;
        const int dom = rsc_sub_dominated(rid, nstar, p, r, mark, clk, sm, sclk, stop, UINT32_MAX, &steps);
        work += steps;
        mark[r] = clk;
        if (!dom)
            out[--w] = p;
    }
    return settled(b, out, w, m, v, work);
}

/* Adds position p and, after a '*', the one past it (never an end: a
 * rule's trailing '*'s were dropped), keeping t sorted and unique. */
static inline void put(uint32_t *t, uint32_t *n, uint32_t p)
{
    if (*n == 0 || t[*n - 1] < p)
        t[(*n)++] = p;
}

/* Merges the increasing lists a and c into t (apart from both), without
 * repeats: a position in both is taken from both at once. Without
 * branches on the data: which list goes next is hard to predict. When c
 * is much the shorter (a state's '*' list, and the few positions a class
 * moves on), each of c is placed by a binary search and the runs of a
 * between them are copied whole: the merge by elements was 5% of the
 * corpus's compile time. */
static uint32_t merge(uint32_t *t, const uint32_t *a, uint32_t na, const uint32_t *c, uint32_t nc)
{
    uint32_t i = 0, j = 0, n = 0;
    if (nc * 8 < na) {
        for (; j < nc; j++) {
            const uint32_t y = c[j];
            uint32_t lo = i, hi = na; /* the first of a[i..) not below y */
            while (lo < hi) {
                const uint32_t mid = lo + (hi - lo) / 2;
                if (a[mid] < y)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            memcpy(t + n, a + i, (size_t)(lo - i) * 4);
            n += lo - i, i = lo;
            t[n++] = y;
            i += i < na && a[i] == y;
        }
        memcpy(t + n, a + i, (size_t)(na - i) * 4);
        return n + na - i;
    }
    while (i < na && j < nc) {
        const uint32_t x = a[i], y = c[j];
        t[n++] = x < y ? x : y;
        i += x <= y, j += y <= x;
    }
    while (i < na)
        t[n++] = a[i++];
    while (j < nc)
        t[n++] = c[j++];
    return n;
}

/* The lowest set bit of x != 0. */
static inline uint32_t low_bit(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (uint32_t)__builtin_ctzll(x);
#else
    uint32_t k = 0;
    for (; !(x & 1); x >>= 1)
        k++;
    return k;
#endif
}

/* The first rule at or after r whose bit is set in bits (a set's rules,
 * nr / 64 + 1 words), or nr: a word at a time, as most of a large file's
 * rules are other sets' (the loops a rule at a time over every set's
 * bits were 3.6% of the instructions compiling 599 sample files). */
static inline uint32_t next_rule(const uint64_t *bits, uint32_t r, uint32_t nr)
{
    if (r >= nr)
        return nr;
    uint32_t w = r >> 6;
    uint64_t x = bits[w] & (~0ull << (r & 63));
    while (!x) {
        if (++w > nr / 64)
            return nr;
        x = bits[w];
    }
    r = w * 64 + low_bit(x);
    return r < nr ? r : nr;
}

/* Fills state k's row; 0 when the build cannot fit.
 *
 * note [no partial DFA]
 * A build fails when a state found has no room in the buffer (or the
 * states run out) or when the work done and owed passes the cap (note
 * [owed work]). The builder once kept going after a state without room,
 * marking the moves into it FIN_X (the programs decide there), but a blob
 * holds whole DFAs only: without a '*' inside a rule the programs are a
 * trie walk that stops where the rules part from the path, and a partial
 * DFA saves little on the paths it decides and walks twice on the rest
 * (www.icicibank.com, 362 literal rules, 1,899 of 9,272 states built:
 * 55.7 ns a URL against the programs' 49.2). So the first state without
 * room ends the build, with the outcome it had at the cap (the set keeps
 * its programs); the states expanded after it until then were thrown
 * away. */
static int expand(bld *b, uint32_t k)
{
    const uint32_t *r = rec_of(b, k);
    const uint32_t n = r[0] & 0x7fffffffu, v = r[0] >> 31;
    /* the positions, decoded and sorted in one pass: the '*'s and the
     * positions past them into S (b->star), the literal ones, in order,
     * into tmp's second half (read by the counting sort below only, before
     * the moves use that half), and the classes they read as a bitmap: a
     * state reads a few of the set's classes, and the loops over all of
     * them were 4.0G of expand()'s 29.1G instructions on the corpus */
    const uint16_t *pcode = b->pcode;
    uint32_t *L = b->tmp + (size_t)b->npos + 1, *lrank = b->lrank, *cnt = b->cnt;
    uint32_t ns = 0, endv = v, nl = 0, last = NONE; /* last: the last literal position */
    uint64_t used[4] = {0, 0, 0, 0};
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
            const uint32_t p = prev - 1, code = pcode[p];
            if (code & P_STAR) {
                put(b->star, &ns, p);
                put(b->star, &ns, p + 1);
                if (lrank && last != NONE && last + 1 == p) /* note [ranks]: last moves into S */
                    lrank[last] |= 1;
            } else if (code & P_DONE) {
                endv = (code & P_ALLOW) != 0; /* the last one is the best */
            } else {
                cnt[code & 0xff]++; /* zero but while expand() runs */
                used[(code & 0xff) >> 6] |= 1ull << (code & 63);
                if (lrank)
                    lrank[p] = ns << 1;
                L[nl++] = last = p;
            }
        }
    }
    /* the literal positions by class, in order: a counting sort */
    uint32_t sum = 0, nc = 0; /* nc: the classes read, as intern() counts them */
    for (unsigned w = 0; w < 4; w++)
        for (uint64_t x = used[w]; x; x &= x - 1) {
            const uint32_t c = w * 64 + low_bit(x), cn = cnt[c];
            cnt[c] = sum, sum += cn, nc++;
        }
    for (uint32_t i = 0; i < nl; i++)
        b->lit[cnt[pcode[L[i]] & 0xff]++] = L[i];
    b->work += (uint64_t)n * 2 + b->ncls;
    /* cnt[c] is now the end of class c's run */
    /* note [shared '*' list]: worth it for a long list of '*'s */
    const int shared = b->sm && ns >= SHARED_FROM;
    const uint32_t other = shared ? settle_star(b, b->star, ns, v, b->tmp)
                                  : settle(b, b->star, ns, v, b->tmp); /* classes no position reads */
    if (other == NO_ROOM)
        return 0; /* note [no partial DFA] */
    uint16_t *row = row_of(b, k); /* after interning: rows do not move */
    row[0] = endv ? FIN_A : FIN_D;
    for (uint32_t c = 1; c < b->ncls; c++)
        row[c] = (uint16_t)other;
    uint32_t lo = 0;
    for (unsigned w = 0; w < 4; w++)
        for (uint64_t x = used[w]; x; x &= x - 1) { /* the classes in order */
            const uint32_t c = w * 64 + low_bit(x), hi = b->cnt[c];
            b->cnt[c] = 0;
            uint32_t nn = 0, t = NOT_SHARED;
            uint32_t *next = b->tmp + (size_t)b->npos + 1; /* the second half */
            if (shared) { /* the moves not in S, and their ranks (note [ranks]) */
                uint32_t nx = 0, *xr = next;
                for (uint32_t i = lo; i < hi; i++) {
                    const uint32_t p = b->lit[i], rk = b->lrank[p];
                    if (!(b->pcode[p + 1] & P_STAR)) {
                        b->tmp[nx] = p + 1, xr[nx++] = rk >> 1, nn++;
                    } else if (!(rk & 1)) {
                        b->tmp[nx] = p + 1, xr[nx++] = rk >> 1;
                        b->tmp[nx] = p + 2, xr[nx++] = rk >> 1, nn += 2;
                    } else {
                        nn += 2; /* p + 1 and p + 2: both in S */
                    }
                }
                t = move_star(b, ns, xr, nx, nn, v, b->tmp);
            }
            if (t == NOT_SHARED) {
                nn = 0;
                for (uint32_t i = lo; i < hi; i++) {
                    uint32_t p = b->lit[i] + 1;
                    put(next, &nn, p);
                    if (b->pcode[p] & P_STAR)
                        put(next, &nn, p + 1);
                }
                const uint32_t m = merge(b->tmp, b->star, ns, next, nn);
                b->work += m + nn;
                t = settle(b, b->tmp, m, v, b->tmp);
            }
            if (t == NO_ROOM)
                return 0;
            row = row_of(b, k);
            row[c] = (uint16_t)t; /* an id below MAX_STATES, or a final */
            lo = hi;
        }
    b->owed -= least_work(b, n, ns, sum, nc); /* as intern() counted it: sum is nl */
    return b->work + b->owed <= b->work_cap; /* note [owed work] */
}

/* Numbers the positions' residuals and links each to the first '*' at or
 * after it in its rule (subset.h, note [dominance]); the hash table is
 * scratch for this pass only. */
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
    uint32_t *h = take(b, rsc_sub_scratch(np) * 4);
    if (!h)
        return 0;
    b->work += rsc_sub_residuals(b->pcode, np, b->rid, b->nstar, h);
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

/* Rule r as a DFA reads it: its match text (FORMAT.md, RULES) and whether
 * it allows (priority 0 never decides, spec E.5: such a rule allows).
 * dfa_build() reads nothing else of a rule, so sets whose rules are alike
 * here, in rank order, get the same DFA (rsc_make_dfas). */
static const uint8_t *rule_of(const rsc_program *prog, uint32_t r, uint32_t *len, int *allow)
{
    const int rfc = rsc_program_profile(prog);
    *allow = (rsc_tab(prog, P_RULES, r, 0) & 1) || rsc_tab(prog, P_RULES, r, 2) == 0;
    *len = rsc_tab(prog, P_RULES, r, rfc ? 4 : 2);
    return STR(prog) + rsc_tab(prog, P_RULES, r, rfc ? 3 : 1);
}

/* Rule r's match text, cut to what matters: a final '$' (spec E.3) read
 * off into *anch, runs of '*' made one, trailing '*'s dropped (then a '$'
 * changes nothing). Writes to out when not NULL; returns the length. */
static uint32_t rule_text(const rsc_program *prog, uint32_t r, uint8_t *out, int *anch)
{
    uint32_t len;
    int allow;
    const uint8_t *t = rule_of(prog, r, &len, &allow);
    *anch = len > 0 && t[len - 1] == '$';
    return rsc_sub_text(t, len - (uint32_t)*anch, out, anch);
}

/* The rows' final codes as states K (FIN_A), K + 1 (FIN_D) and K + 2
 * (FIN_X): the codes are FIN_X.. FIN_D, above every state. Selects, not
 * branches, so that the loop is vectorised: which entries are finals is
 * hard to predict (a branch and a division an entry were 3% of the
 * corpus's compile time). */
static void finals_as_states(uint16_t *rows, size_t n, uint32_t K)
{
    const uint16_t a = (uint16_t)(K - FIN_A), x = (uint16_t)(K + 2); /* FIN_A + a = K */
    for (size_t i = 0; i < n; i++) {
        const uint16_t t = rows[i];
        rows[i] = t < FIN_X ? t : t == FIN_X ? x : (uint16_t)(t + a);
    }
}

/* Row scans, four entries a compare as one word (codec.h's SWAR): the
 * first j' >= j below n where row[j'] is not x, and where row and ref
 * differ. Rows are mostly runs of their default (some nine entries long
 * on the corpus's), and a compare an entry was most of the time of the
 * passes over every row (minimise(), encode()). */
static inline uint32_t skip_eq(const uint16_t *row, uint16_t x, uint32_t j, uint32_t n)
{
    const uint16_t four[4] = {x, x, x, x};
    const uint64_t w = rsc_rd64le((const uint8_t *)four);
    for (; j + 4 <= n; j += 4) {
        const uint64_t d = rsc_rd64le((const uint8_t *)(row + j)) ^ w;
        if (d)
            return j + (rsc_low_lane(d) >> 1);
    }
    while (j < n && row[j] == x)
        j++;
    return j;
}

static inline uint32_t skip_same(const uint16_t *row, const uint16_t *ref, uint32_t j, uint32_t n)
{
    for (; j + 4 <= n; j += 4) {
        const uint64_t d = rsc_rd64le((const uint8_t *)(row + j)) ^ rsc_rd64le((const uint8_t *)(ref + j));
        if (d)
            return j + (rsc_low_lane(d) >> 1);
    }
    while (j < n && row[j] == ref[j])
        j++;
    return j;
}

/* Hopcroft's partition refinement over the rows, the final states taken as
 * states K (allowed), K + 1 (disallowed) and K + 2 (unbuilt) that every
 * byte keeps (the rows' final codes are made K.. for the pass, so a move
 * is one load). The blocks start as {states whose path end is allowed, K},
 * {disallowed, K + 1}, {K + 2}; a block is split while some class moves
 * part of it into a splitter block and part elsewhere. Each split puts the
 * smaller half on the work list (the other half is covered by the block it
 * came from), so every state is a splitter at most log2 N times: O(N C log
 * N) in all, where Moore's rounds cost N C a round for as many rounds as
 * the longest rule (1.0's runtime used them, under a work allowance most
 * large rule sets ran out of, and the compiler kept their rows
 * unminimised). A block holding a final state becomes that final state
 * (matching then stops there too); the others become one state each,
 * numbered by their first state, whose row moves down in place (a block's
 * number is never above its first state). Without memory the rows stay as
 * built, which is as exact. Returns the start. */
static uint32_t minimise(bld *b, rsc_mem *mem, uint32_t start)
{
    const uint32_t K = b->n, N = K + 3, ncls = b->ncls; /* N <= MAX_STATES + 3 < 0xfffd */
    const size_t E = (size_t)N * ncls; /* moves, the finals' own included */
    if (K < 2)
        return start;
    uint32_t *head = rsc_mem_alloc(mem, ((size_t)N + 1) * 4), *src = rsc_mem_alloc(mem, E * 4);
    uint32_t *by = rsc_mem_alloc(mem, E * 4);
    uint32_t *arr = rsc_mem_alloc(mem, (size_t)N * 4 * 10);
    if (!head || !src || !by || !arr)
        goto out; /* no memory: the rows as built */
    uint32_t *el = arr, *loc = el + N, *old = loc + N, *first = old + N, *end = first + N;
    uint32_t *mark = end + N, *touched = mark + N, *wl = touched + N;
    uint32_t *id = wl + N, *cur = id + N;
    uint16_t *rows = row_of(b, 0);
    finals_as_states(rows, (size_t)K * ncls, K);
    /* the moves backwards, by target: src[head[t] .. head[t + 1]) are the
     * moves into t, each c << 16 | s (N < 2^16). A splitter's moves are
     * then sorted by class (below), so a class none of them reads costs
     * nothing: most states are entered by a few moves, and a layout by
     * class and target, read for every class of every splitter state,
     * was half of the minimisation's time. A row's moves are counted
     * and placed a run of equal targets at a time: most of a row goes to
     * its default, and counting move by move into the same few counters
     * made one long chain of dependent stores. The rows are read once
     * (skip_eq()): their runs, t << 16 | c << 8 | length - 1, wait in by
     * (free until the splitters) for the placing pass, and id[s] (free
     * until the numbering) is where row s's runs end. Where a move goes
     * in t's list changes nothing: the coarsest stable partition is one,
     * whatever order its splits are found in. */
    memset(head, 0, ((size_t)N + 1) * 4);
    for (uint32_t s = K; s < N; s++)
        head[s] = ncls; /* a final keeps every class */
    uint32_t nruns = 0;
    for (uint32_t s = 0; s < K; s++) {
        const uint16_t *row = rows + (size_t)s * ncls;
        for (uint32_t c = 0, c2; c < ncls; c = c2) {
            const uint32_t t = row[c];
            c2 = skip_eq(row, row[c], c + 1, ncls);
            head[t] += c2 - c;
            by[nruns++] = t << 16 | c << 8 | (c2 - c - 1);
        }
        id[s] = nruns;
    }
    for (uint32_t t = 1; t < N; t++)
        head[t] += head[t - 1];
    head[N] = (uint32_t)E;
    for (uint32_t s = N; s-- > K;) {
        uint32_t *at = src + (head[s] -= ncls);
        for (uint32_t c = 0; c < ncls; c++)
            *at++ = c << 16 | s;
    }
    for (uint32_t s = 0, j = 0; s < K; s++)
        for (; j < id[s]; j++) {
            const uint32_t t = by[j] >> 16, c = by[j] >> 8 & 0xffu, c2 = c + (by[j] & 0xffu) + 1;
            uint32_t *at = src + (head[t] -= c2 - c);
            for (uint32_t x = c; x < c2; x++)
                *at++ = x << 16 | s;
        }
    /* the first blocks, by the path end's verdict (class 0's move) */
    uint32_t nb = 3, nwl = 0;
    for (uint32_t s = 0; s < N; s++)
        old[s] = s < K ? rows[(size_t)s * ncls] == K + 1 : s - K;
    memset(first, 0, 3 * 4), memset(mark, 0, (size_t)N * 4);
    for (uint32_t s = 0; s < N; s++)
        first[old[s]]++;
    for (uint32_t x = 0, at = 0; x < 3; x++)
        end[x] = at + first[x], first[x] = at, at = end[x];
    /* the work list: the first blocks but the largest (the partition is
     * stable for all the states, so for the largest once for the others) */
    const uint32_t big = end[0] - first[0] >= end[1] - first[1] ? 0 : 1;
    for (uint32_t x = 0; x < 3; x++) {
        if (x != big)
            wl[nwl++] = x;
        mark[x] = first[x]; /* mark: a fill cursor here */
    }
    for (uint32_t s = 0; s < N; s++)
        el[mark[old[s]]] = s, loc[s] = mark[old[s]]++;
    memset(mark, 0, 3 * 4); /* from here: how many of a block's first states are marked */
    while (nwl) {
        const uint32_t B = wl[--nwl];
        /* the moves into B (as it is now: B may split below), sorted by
         * class into by[0 .. nm): a few by insertion, more by counting
         * (a sort by counting costs every class, and most splitters are a
         * state or two entered by a move or two) */
        uint32_t nm = 0;
        for (uint32_t i = first[B]; i < end[B]; i++)
            nm += head[el[i] + 1] - head[el[i]];
        if (nm <= 16) {
            nm = 0;
            for (uint32_t i = first[B]; i < end[B]; i++)
                for (uint32_t j = head[el[i]]; j < head[el[i] + 1]; j++) {
                    uint32_t at = nm++;
                    for (; at > 0 && by[at - 1] > src[j]; at--)
                        by[at] = by[at - 1];
                    by[at] = src[j];
                }
        } else {
            uint32_t cnt[257];
            memset(cnt, 0, ((size_t)ncls + 1) * sizeof cnt[0]);
            for (uint32_t i = first[B]; i < end[B]; i++)
                for (uint32_t j = head[el[i]]; j < head[el[i] + 1]; j++)
                    cnt[(src[j] >> 16) + 1]++;
            for (uint32_t c = 1; c <= ncls; c++)
                cnt[c] += cnt[c - 1];
            for (uint32_t i = first[B]; i < end[B]; i++)
                for (uint32_t j = head[el[i]]; j < head[el[i] + 1]; j++)
                    by[cnt[src[j] >> 16]++] = src[j];
        }
        for (uint32_t j = 0; j < nm;) { /* a class at a time */
            const uint32_t c = by[j] >> 16;
            uint32_t nt = 0;
            for (; j < nm && by[j] >> 16 == c; j++) {
                const uint32_t s = by[j] & 0xffffu, X = old[s], q = first[X] + mark[X], at = loc[s];
                if (at < q)
                    continue; /* marked already */
                const uint32_t u = el[q];
                el[q] = s, loc[s] = q, el[at] = u, loc[u] = at;
                if (mark[X]++ == 0)
                    touched[nt++] = X;
            }
            for (uint32_t i = 0; i < nt; i++) {
                const uint32_t X = touched[i], mk = mark[X], size = end[X] - first[X];
                mark[X] = 0;
                if (mk == size)
                    continue;
                const uint32_t Y = nb++; /* the smaller half, a new block */
                if (mk <= size - mk)
                    first[Y] = first[X], end[Y] = first[X] + mk, first[X] += mk;
                else
                    first[Y] = first[X] + mk, end[Y] = end[X], end[X] = first[X] + mk;
                mark[Y] = 0;
                for (uint32_t q = first[Y]; q < end[Y]; q++)
                    old[el[q]] = Y;
                wl[nwl++] = Y; /* X listed or not, Y is the half to add (Hopcroft) */
            }
        }
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
    uint32_t *code = loc; /* each state's new code, once (loc is done with) */
    for (uint32_t t = 0; t < N; t++)
        code[t] = MAPS(t);
    for (uint32_t j = 0; j < m; j++) { /* row cur[j] >= j is read before row j is written */
        uint16_t *to = row_of(b, j);
        const uint16_t *from = rows + (size_t)cur[j] * ncls; /* cur[j] < K */
        for (uint32_t c = 0; c < ncls; c++)
            to[c] = (uint16_t)code[from[c]];
    }
    start = start >= K ? start : MAPS(start);
#undef MAPS
    b->n = m;
out:
    rsc_mem_free(mem, head, head ? ((size_t)N + 1) * 4 : 0);
    rsc_mem_free(mem, src, src ? E * 4 : 0);
    rsc_mem_free(mem, by, by ? E * 4 : 0);
    rsc_mem_free(mem, arr, arr ? (size_t)N * 4 * 10 : 0);
    return start;
}

/* The DFA of the rules whose RULES rows are set in bits (a set's, from
 * set_rules()), built in buf[0..size). */
/* Memory of the builds of one file, outside their buffers, kept from one
 * build to the next: u32s, n of them (note [shared '*' list]). */
typedef struct aux_mem {
    uint32_t *p;
    size_t n;
} aux_mem;

static rsc_status dfa_build(const rsc_program *prog, const uint64_t *set_bits, void *buf, size_t size,
                            rsc_mem *mem, aux_mem *aux, dense *out)
{
    if (size > 0xfffffff8u)
        size = 0xfffffff8u; /* offsets are u32 */
    size &= ~(size_t)7u;
    if (size < RSC_DFA_HEAD)
        return RSC_E_LIMIT;
    bld b;
    memset(&b, 0, sizeof b);
    b.buf = buf, b.top = size, b.rows_end = RSC_DFA_HEAD;
    b.work_cap = (uint64_t)size * WORK_PER_BYTE;
    dhead *d = (dhead *)buf;
    memset(d, 0, RSC_DFA_HEAD);

    /* the rules, copied into the buffer: the scratch a build takes, and so
     * which builds fit, is what it was when dfa_build marked them itself */
    const uint32_t nr = PRIV(prog, P_RULES_N);
    uint64_t *bits = take(&b, ((size_t)nr / 64 + 1) * 8);
    if (!bits)
        return RSC_E_LIMIT;
    memcpy(bits, set_bits, ((size_t)nr / 64 + 1) * 8);
    uint64_t npos = 0;
    uint64_t used[4] = {0, 0, 0, 0}; /* the bytes the rules name */
    for (uint32_t r = next_rule(bits, 0, nr); r < nr; r = next_rule(bits, r + 1, nr)) {
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
    for (uint32_t r = next_rule(bits, 0, nr); r < nr; r = next_rule(bits, r + 1, nr)) {
        int anch, allows;
        uint32_t len = rule_text(prog, r, text, &anch), raw;
        rule_of(prog, r, &raw, &allows);
        const uint16_t allow = allows ? P_ALLOW : 0;
        for (uint32_t j = 0; j < len; j++) {
            if (text[j] == 0 || text[j] == '#')
                return RSC_E_LIMIT; /* bytes that end a path: never in an encoder's rule */
            if (text[j] != '*')
                used[text[j] >> 6] |= 1ull << (text[j] & 63);
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
    memset(d->cls, 1, sizeof d->cls);
    for (unsigned w = 0; w < 4; w++)
        for (uint64_t x = used[w]; x; x &= x - 1)
            d->cls[w * 64 + low_bit(x)] = (uint8_t)ncls++; /* at most 254: NUL and '#' are no rule's */
    d->cls[0] = 0;
    b.ncls = ncls;
    for (uint32_t p = 0; p < b.npos; p++)
        if (!(b.pcode[p] & P_KIND))
            b.pcode[p] = (uint16_t)((b.pcode[p] & P_ALLOW) | d->cls[b.pcode[p] & 0xff]);
    if (!residuals(&b))
        return RSC_E_LIMIT;
    /* a list of distinct positions holds at most npos + 1 */
    b.star = take(&b, ((size_t)b.npos + 1) * 4);
    b.lit = take(&b, ((size_t)b.npos + 1) * 4);
    b.tmp = take(&b, (2 * (size_t)b.npos + 2) * 4);
    if (!b.star || !b.lit || !b.tmp)
        return RSC_E_LIMIT;
    /* note [shared '*' list]: seven u32s a position (npos <= size / 32,
     * so at most 7/8 of the buffer's size), kept for the file's next
     * builds. A failed allocation is the compile's NOMEM, as any other */
    if (inner_star) {
        const size_t want = 7 * ((size_t)b.npos + 2);
        if (aux->n < want) {
            rsc_mem_free(mem, aux->p, aux->n * 4);
            aux->n = 0;
            if ((aux->p = rsc_mem_alloc(mem, want * 4)) == NULL)
                return RSC_E_NOMEM;
            aux->n = want;
        }
        const size_t np = (size_t)b.npos + 2;
        b.sm = aux->p, b.sck = b.sm + np, b.stop = b.sck + np;
        b.ssum = b.stop + np, b.sbelow = b.ssum + np, b.skept = b.sbelow + np;
        b.lrank = b.skept + np;
        memset(b.sm, 0, 2 * np * 4);
    }
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
     * shallowest, which paths visit most, first), until the buffer or the
     * work cap runs out: then the set keeps its programs, as a blob holds
     * whole DFAs only, so the build stops there (note [no partial DFA]) */
    for (uint32_t k = 0; k < b.n; k++)
        if (!expand(&b, k))
            return RSC_E_LIMIT;
    b.top = size; /* the states' records are done with */
    if ((size_t)b.n * ncls * 2 > MINIMISE_FROM) {
        b.work = 0, b.work_cap = (uint64_t)size * MINIMISE_WORK; /* an allowance of its own */
        start = minimise(&b, mem, start);
    }

    out->k = b.n, out->ncls = ncls, out->start = start, out->rules = b.nrules;
    out->rows = row_of(&b, 0);
    memcpy(out->cls, d->cls, 256);
    memcpy(out->named, used, sizeof used);
    return RSC_OK;
}

/* ---- Encoding (docs/FORMAT.md, DFAS) -------------------------------------
 *
 * The dense rows are states x classes; the blob's DFA follows the rules'
 * bytes instead. Each state gets a default, Other: the target of most
 * bytes (ties: the bytes no rule names); only the bytes that go elsewhere
 * are cells (Key, Next), a sparse row. A state with one such byte whose
 * successor has the same Other and end verdict, and is entered from
 * nowhere else, is folded into a chain read as a label, as a trie's labels
 * are: a literal rule costs a row, not a row a byte. (A comb of rows, as
 * flex's and yacc's tables, was tried first: its holes made small DFAs
 * twice as large, and first-fit packing was most of the compile time.) */

/* The compile-time budget of one rule set's DFA, from its rules' bytes
 * rb (each match text's length plus one; docs/DFA.md, "Budget"):
 * - size: the DFA is kept when its encoding takes at most
 *   DFA_BYTES_PER_RULE_BYTE x rb + DFA_BYTES_FIXED bytes, so that a blob
 *   stays near its source's size (on the corpus, the DFAs that pass hold
 *   about 9 in 10 rule sets: the others are mostly the few large automata
 *   that made most of the bytes);
 * - the builder's buffer (rows and scratch, and with it its work, 2 steps a
 *   byte, and minimisation's, 4 more): DFA_BUF_PER_RULE_BYTE x rb +
 *   DFA_BUF_FIXED, at most DFA_BUF_MAX (1.0's run-time RSC_DFA_BUDGET),
 *   room for the dense rows of any DFA that could pass the size cap, so a
 *   rule set that cannot pass stops early instead of filling 1 MiB (a
 *   fixed part of 128 KiB gave 1.5% more of the corpus's Googlebot
 *   selections a DFA but cost 6% more compile time, most of it in builds
 *   that failed at either size: docs/DFA.md, "Budget");
 * - a file's builds together get DFA_FILE_BUDGET of buffer (and so of
 *   work); the sets in order (the SETS order) until it is spent. */
#define DFA_BYTES_PER_RULE_BYTE 16u
#define DFA_BYTES_FIXED 2048u
#define DFA_BUF_PER_RULE_BYTE 192u
#define DFA_BUF_FIXED ((size_t)16 << 10)
#define DFA_BUF_MAX ((size_t)1 << 20)
/* and per file: the buffers of all its rule sets' builds together (a file
 * of many groups builds many sets); the sets past it keep their programs */
#define DFA_FILE_BUDGET ((size_t)4 << 20)

typedef struct enc {
    rsc_mem *m;
    const uint8_t *str;  /* STRINGS as made, without the labels added here */
    size_t nstr;
    rsc_buf *extra;      /* label bytes appended to STRINGS                */
    size_t search_left;  /* places a search may still try (compile time)  */
    size_t scan_left;    /* places scans may still read before indexing   */
    uint32_t *head[3];   /* per 1-, 2-, 3-byte prefix hash: a place + 1    */
    uint32_t *next[3];   /* the place before it with the same hash, + 1    */
    uint32_t mask;       /* of the hash tables                             */
    int indexed;         /* head and next are built                        */
} enc;

/* The hash of a gram's 1 to 3 bytes, read big-endian into one word. */
static inline uint32_t gram(const uint8_t *p, unsigned g, uint32_t mask)
{
    uint32_t h = p[0];
    for (unsigned i = 1; i < g; i++)
        h = h << 8 | p[i];
    return (h * 0x9e3779b1u) >> 8 & mask;
}

/* The places a search reads through scans, a STRINGS byte, before
 * indexing it instead (note [lazy index]). */
#define SCAN_PER_BYTE 8u

/* Places of other grams with a label's hash that an indexed look-up
 * passes over, at most (note [lazy index]). */
#define OTHER_GRAMS 64u

/* note [lazy index]
 * A label is looked for among the places that begin with its first 1, 2
 * or 3 bytes (its gram), the later places first, 16 of them at most:
 * through a chain of the index below, or, the same places in the same
 * order, a scan of STRINGS from its end. The index costs some 40 ns a
 * STRINGS byte (head tables of twice its size, zeroed, and random writes
 * into them; head_kind() bounds the 1- and 2-byte grams' tables) and was
 * a sixth of the corpus's compile time, while most files look up few
 * labels: a scan reads a place in a byte compare (it
 * rolled a hash of each place before, 4.7% of a median file's compile in
 * callgrind). So scans are used until they have read SCAN_PER_BYTE places
 * a STRINGS byte, and the index is built at the first look-up past that.
 * A chain also holds the places of other grams with the same hash, passed
 * over without a try; both ways find the same place unless more than
 * OTHER_GRAMS of those come first, so the blob does not depend on the
 * switch but for hashes made to collide. */
static void strings_mask(enc *e)
{
    uint32_t size = 64;
    while (size < 2 * e->nstr && size < (1u << 30))
        size *= 2;
    e->mask = size - 1;
    e->scan_left = e->nstr * SCAN_PER_BYTE;
}

/* The head table of the (g + 1)-byte grams: a 1- or 2-byte gram is its
 * own key once the hash table would be as large as their 256 or 65,536
 * keys (the same chains, with no other grams in them, in a table that a
 * large STRINGS no longer makes megabytes to zero). */
static unsigned head_kind(const enc *e, unsigned g)
{
    return g < 2 && (size_t)e->mask + 1 >= (g == 0 ? 256u : 65536u) ? g : 2;
}

static size_t head_size(const enc *e, unsigned g)
{
    return head_kind(e, g) < 2 ? (size_t)1 << (8 * (g + 1)) : (size_t)e->mask + 1;
}

/* The head of p's gram: k (head_kind(), found once a table) is 0 or 1 for
 * a 1- or 2-byte gram that is its own key, 2 for a hashed one. */
static inline uint32_t head_of(const uint8_t *p, unsigned g, unsigned k, uint32_t mask)
{
    return k == 0 ? p[0] : k == 1 ? (uint32_t)p[0] << 8 | p[1] : gram(p, g + 1, mask);
}

/* Indexes STRINGS by the hashes of its 1-, 2- and 3-byte grams, so that a
 * label is found by its first bytes (the later places first). */
static rsc_status index_strings(enc *e)
{
    e->indexed = 1; /* enc_free() frees what was allocated */
    for (unsigned g = 0; g < 3; g++) {
        e->head[g] = rsc_mem_calloc(e->m, head_size(e, g), sizeof *e->head[g]);
        /* only next[i], i + g < nstr, is ever read, and each is written */
        e->next[g] = rsc_mem_alloc(e->m, (e->nstr + 1) * sizeof *e->next[g]);
        if (!e->head[g] || !e->next[g])
            return RSC_E_NOMEM;
        const unsigned k = head_kind(e, g);
        for (size_t i = 0; i + g < e->nstr; i++) {
            uint32_t h = head_of(e->str + i, g, k, e->mask);
            e->next[g][i] = e->head[g][h], e->head[g][h] = (uint32_t)i + 1;
        }
    }
    return RSC_OK;
}

static void enc_free(enc *e)
{
    for (unsigned g = 0; g < 3; g++) {
        rsc_mem_free(e->m, e->head[g], e->head[g] ? head_size(e, g) * sizeof *e->head[g] : 0);
        rsc_mem_free(e->m, e->next[g], e->next[g] ? (e->nstr + 1) * sizeof *e->next[g] : 0);
    }
}

/* Where bytes s[0..n) are in STRINGS (as extended): found through the
 * index, or among the bytes added so far, while the search allowance
 * lasts; else added. */
static rsc_status label_off(enc *e, const uint8_t *s, uint32_t n, uint32_t *off)
{
    const unsigned g = n < 3 ? n - 1 : 2;
    unsigned tries = 16; /* places with the label's first bytes, latest first */
    if (!e->indexed && e->scan_left < e->nstr) {
        rsc_status st = index_strings(e);
        if (st != RSC_OK)
            return st;
    }
    if (e->indexed) {
        /* the chain holds every place with the gram's hash: the places of
         * other grams are passed over without a try, OTHER_GRAMS at most
         * (hashes chosen to collide must not make a look-up long) */
        unsigned others = OTHER_GRAMS;
        const uint32_t h = head_of(s, g, head_kind(e, g), e->mask);
        for (uint32_t i = e->head[g][h]; i && tries; i = e->next[g][i - 1]) {
            if (memcmp(e->str + i - 1, s, g + 1) != 0) { /* in STRINGS: i - 1 + g < nstr */
                if (--others == 0)
                    break;
                continue;
            }
            tries--;
            if (i - 1 + (size_t)n <= e->nstr && memcmp(e->str + i - 1, s, n) == 0) {
                *off = i - 1;
                return RSC_OK;
            }
        }
    } else if (e->nstr > g) { /* the same places, read from STRINGS (note [lazy index]) */
        /* the fields in locals, scan_left counted once at the end: a store
         * through e might change them, as far as the compiler knows, so it
         * kept them in memory, a load or a store a place */
        const uint8_t *str = e->str;
        const size_t nstr = e->nstr, top = nstr - g - 1;
        const uint8_t c0 = s[0], c1 = s[g > 0], c2 = s[g];
        size_t i = top + 1;
        int found = 0;
        while (i-- > 0) { /* a byte compare a place: most differ in the first */
            if (str[i] != c0 || str[i + (g > 0)] != c1 || str[i + g] != c2)
                continue;
            if (i + n <= nstr && memcmp(str + i, s, n) == 0) {
                found = 1;
                break;
            }
            if (--tries == 0)
                break;
        }
        if (i > top) /* none before place 0: i wrapped */
            i = 0;
        e->scan_left -= top - i + 1; /* the places read, i.. top */
        if (found) {
            *off = (uint32_t)i;
            return RSC_OK;
        }
    }
    for (size_t i = 0; i + n <= e->extra->len && e->search_left; i++, e->search_left--)
        if (memcmp(e->extra->p + i, s, n) == 0) {
            *off = (uint32_t)(e->nstr + i);
            return RSC_OK;
        }
    if (e->nstr + e->extra->len + n > UINT32_MAX)
        return RSC_E_LIMIT;
    *off = (uint32_t)(e->nstr + e->extra->len);
    return rsc_buf_put(e->m, e->extra, s, n) ? RSC_E_NOMEM : RSC_OK;
}

/* Entry x of a dense row as a target: a state, or NONE_T + 0 / + 1. */
#define FIN_BASE 0x10000u
static inline uint32_t tgt(uint16_t x)
{
    return x == FIN_A ? FIN_BASE : x == FIN_D ? FIN_BASE + 1 : x;
}

typedef struct srow {
    uint32_t other;  /* the default target                              */
    uint32_t nexp;   /* bytes that go elsewhere                         */
    uint32_t first;  /* the first of them (the one, for a single)       */
    uint32_t pred;   /* the single state whose one byte enters it, or NONE */
    uint32_t refs;   /* moves into it, defaults and the start included  */
    uint32_t id;     /* 0: written, a record; NONE: folded into a chain  */
    uint32_t base;   /* its first cell (explicit states); a chain's label length */
    uint32_t lst;    /* its listed classes: lst[lst .. lst + nlst) of encode() */
    uint32_t nlst;
    uint8_t endd;    /* 1: the path's end there is disallowed          */
    uint8_t fb;      /* 1: a byte it does not list is read again in other */
    uint8_t implicit;
} srow;

static rsc_status encode(enc *e, const dense *d, size_t rule_bytes, rsc_buf *out)
{
    rsc_mem *m = e->m;
    const uint32_t K = d->k, ncls = d->ncls;
    rsc_status st = RSC_E_NOMEM;
    srow *r = rsc_mem_calloc(m, (size_t)K + 1, sizeof *r);
    uint8_t *lab = rsc_mem_alloc(m, (size_t)K + 1);
    uint32_t *tally = rsc_mem_calloc(m, (size_t)K + 2, sizeof *tally);
    uint32_t *vals = NULL, *cells = NULL;
    uint8_t *lst = NULL; /* the classes each state lists, increasing (note [listed classes]) */
    size_t ncells = 0, cap_cells = 0, nvals = 0, nlst = 0, cap_lst = 0;
    if (!r || !lab || !tally)
        goto out;
    /* each class's bytes (1..255: NUL always ends a path), as dfa_build()
     * numbers the classes: 0 the path's end, 1 the bytes no rule names,
     * then one a byte a rule names, in byte order. The bytes of class j are
     * cbytes[cfirst[j] .. cfirst[j + 1]), increasing; class 1's are
     * written only when a state lists class 1 (the passes over all 256
     * bytes were 3% of a median file's compile). None did on the corpus:
     * match texts hold bytes below 0x80 only, so class 1 has at least 130
     * of the 255 bytes, every row's default is its target, and a row that
     * falls back differs from its default's row elsewhere */
    uint32_t ccount[257], cfirst[258], nnamed = 0, nlow, minb[257]; /* minb: each class's least byte */
    uint8_t cbytes[256];
    int low_written = 0;
    for (unsigned w = 0; w < 4; w++)
        for (uint64_t x = d->named[w]; x; x &= x - 1)
            nnamed++;
    if (nnamed + 2 != ncls) { /* never: the classes as dfa_build() numbers them */
        st = RSC_E_LIMIT;
        goto out;
    }
    nlow = 255 - nnamed, minb[0] = minb[1] = 256;
    for (unsigned c = 1; c < 256 && nlow; c++)
        if (d->cls[c] == 1) {
            minb[1] = c;
            break;
        }
    ccount[0] = 0, ccount[1] = nlow, cfirst[0] = cfirst[1] = 0;
    for (uint32_t j = 2, w = 0; w < 4; w++)
        for (uint64_t x = d->named[w]; x; x &= x - 1, j++) {
            cbytes[nlow + j - 2] = (uint8_t)(w * 64 + low_bit(x));
            ccount[j] = 1, cfirst[j] = nlow + j - 2, minb[j] = cbytes[nlow + j - 2];
        }
    ccount[ncls] = 0, cfirst[ncls] = cfirst[ncls + 1] = 255;
    for (uint32_t s = 0; s < K; s++) {
        const uint16_t *row = d->rows + (size_t)s * ncls;
        /* the default: the target of most bytes (class 1's on a tie),
         * as the row holds it. When class 1 holds more than half of the
         * 255 (always, on match texts below 0x80), that is its target with
         * no count (the count cost 7% of the median corpus files' compile
         * instructions); else the targets are counted in tally[] (targets
         * K and K + 1: the verdicts) */
        uint16_t braw = row[1];
        if (nlow <= 127) {
            uint32_t bestn = 0, tx[256], ntx = 0;
            for (uint32_t j = 1, j2; j < ncls; j = j2) {
                /* a run of classes with one target at a time: most of a
                 * row goes to its default, and a count at a time made one
                 * long chain of dependent stores into its tally. The test
                 * below holds after the run's last count iff it held after
                 * the first that it did hold after (counts are positive) */
                j2 = skip_eq(row, row[j], j + 1, ncls);
                const uint32_t cn = cfirst[j2] - cfirst[j]; /* ccount[j .. j2) */
                const uint32_t t = tgt(row[j]), x = t >= FIN_BASE ? K + (t - FIN_BASE) : t;
                tx[ntx++] = x;
                if ((tally[x] += cn) > bestn || (tally[x] == bestn && row[j] == row[1]))
                    bestn = tally[x], braw = row[j];
            }
            for (uint32_t i = 0; i < ntx; i++)
                tally[tx[i]] = 0;
        }
        r[s].other = tgt(braw), r[s].endd = row[0] == FIN_D, r[s].pred = NONE, r[s].id = 0;
        if (rsc_mem_grow(m, (void **)&lst, 1, &cap_lst, nlst + ncls))
            goto out;
        uint32_t nexp = 0, first = 256;
        r[s].lst = (uint32_t)nlst;
        for (uint32_t j = skip_eq(row, braw, 1, ncls); j < ncls; j = skip_eq(row, braw, j + 1, ncls)) {
            lst[nlst++] = (uint8_t)j; /* the classes not of the default */
            nexp += ccount[j];
            first = minb[j] < first ? minb[j] : first;
        }
        r[s].nlst = (uint32_t)nlst - r[s].lst;
        r[s].nexp = nexp, r[s].first = first;
    }
    /* A state whose default D keeps every byte it does not list (D's own
     * default is D: the state after "/ *") may fall back to D instead: a
     * byte it does not list is read again in D. It then lists only the
     * bytes on which it and D part (the next byte of the word it is in),
     * not every byte D lists too (the first byte of each other word): in
     * the corpus's DFAs 40% fewer cells, and many such states become
     * chains. */
    for (uint32_t s = 0; s < K; s++) {
        const uint32_t D = r[s].other;
        if (D >= K || D == s || r[D].other != D)
            continue;
        const uint16_t *row = d->rows + (size_t)s * ncls, *rd = d->rows + (size_t)D * ncls;
        uint32_t n = 0, first = 256;
        if (rsc_mem_grow(m, (void **)&lst, 1, &cap_lst, nlst + ncls))
            goto out;
        const size_t at = nlst;
        for (uint32_t j = skip_same(row, rd, 1, ncls); j < ncls; j = skip_same(row, rd, j + 1, ncls)) {
            lst[nlst++] = (uint8_t)j;
            n += ccount[j];
            first = minb[j] < first ? minb[j] : first;
        }
        if (n < r[s].nexp)
            r[s].fb = 1, r[s].nexp = n, r[s].first = first, r[s].lst = (uint32_t)at,
            r[s].nlst = (uint32_t)(nlst - at);
        else
            nlst = at;
    }
    /* note [listed classes]
     * The classes a state lists are where its row differs from its
     * default's row when it falls back to it (fb), else from its default
     * as a row holds it (tgt() maps entries one to one). They are kept in
     * lst as they are found (the runs of the first pass, or the scan
     * against the default's row) for the passes below, which read them
     * once each: a scan of the row a pass was a third of encode()'s
     * instructions on the median corpus file. */
    if (d->start < K)
        r[d->start].refs++;
    for (uint32_t s = 0; s < K; s++) {
        const uint16_t *row = d->rows + (size_t)s * ncls;
        if (r[s].other < K)
            r[r[s].other].refs++;
        for (uint32_t u = r[s].lst; u < r[s].lst + r[s].nlst; u++) {
            const uint32_t j = lst[u];
            const uint16_t t = row[j];
            if (t < K) { /* a state, not a final */
                r[t].refs += ccount[j];
                if (r[s].nexp == 1)
                    r[t].pred = s;
            }
        }
    }
    for (uint32_t s = 0; s < K; s++) {
        uint32_t p = r[s].pred;
        r[s].implicit = r[s].nexp == 1 && r[s].refs == 1 && p != NONE && p != s &&
                        r[p].other == r[s].other && r[p].endd == r[s].endd && r[p].fb == r[s].fb;
    }
    /* chains from their heads: every single state not folded into one */
    for (uint32_t pass = 0; pass < 2; pass++)
        for (uint32_t s = 0; s < K; s++) {
            if (r[s].nexp != 1 || r[s].id == NONE || r[s].implicit != pass)
                continue;
            for (uint32_t x = d->rows[(size_t)s * ncls + d->cls[r[s].first]]; x < K &&
                 r[x].implicit && r[x].id != NONE && x != s;
                 x = d->rows[(size_t)x * ncls + d->cls[r[x].first]])
                r[x].id = NONE;
            r[s].implicit = 0;
        }
    /* the cells of the explicit states, in state order, keys increasing */
    for (uint32_t s = 0; s < K; s++) {
        if (r[s].id == NONE || r[s].nexp == 1)
            continue;
        const uint16_t *row = d->rows + (size_t)s * ncls;
        r[s].base = (uint32_t)ncells;
        if (rsc_mem_grow(m, (void **)&cells, 2 * sizeof *cells, &cap_cells, ncells + r[s].nexp))
            goto out;
        for (uint32_t u = r[s].lst; u < r[s].lst + r[s].nlst; u++) {
            const uint32_t j = lst[u], t = tgt(row[j]);
            if (j == 1 && !low_written) { /* class 1's bytes, once */
                for (unsigned c = 1, i = 0; c < 256; c++)
                    if (d->cls[c] == 1)
                        cbytes[i++] = (uint8_t)c;
                low_written = 1;
            }
            for (uint32_t i = cfirst[j]; i < cfirst[j + 1]; i++) { /* insertion by key */
                size_t at = ncells++;
                for (; at > r[s].base && cells[2 * (at - 1)] > cbytes[i]; at--)
                    cells[2 * at] = cells[2 * (at - 1)], cells[2 * at + 1] = cells[2 * (at - 1) + 1];
                cells[2 * at] = cbytes[i], cells[2 * at + 1] = t; /* mapped when written */
            }
        }
    }
    /* The records (FORMAT.md, DFAS), in state order, a state's code the
     * offset of its record. A chain of more than 255 bytes is several
     * records of at most 255 each, every one going on to the next, with the
     * chain's Other, E and F (a path that ends inside any of them ends in
     * the label). First each chain's label (its offset in STRINGS) and
     * Next, then the widths and every state's code, then the bytes. */
    nvals = (size_t)K * 3;
    vals = rsc_mem_calloc(m, nvals + 1, sizeof *vals);
    if (!vals)
        goto out;
    uint32_t *code = vals, *loff = vals + K, *cnext = vals + 2 * (size_t)K;
    uint32_t maxoff = 0, nrec = 0;
    for (uint32_t s = 0; s < K; s++) {
        if (r[s].id == NONE)
            continue;
        if (r[s].nexp == 1) { /* a chain: its label, and where it ends */
            uint32_t n = 0, x = s;
            for (;;) {
                lab[n++] = (uint8_t)r[x].first;
                uint32_t t = tgt(d->rows[(size_t)x * ncls + d->cls[r[x].first]]);
                if (t >= K || r[t].id != NONE || n > K) {
                    cnext[s] = t;
                    break;
                }
                x = t;
            }
            if ((st = label_off(e, lab, n, &loff[s])) != RSC_OK)
                goto out;
            st = RSC_E_NOMEM;
            r[s].base = n; /* a chain's base: its label's length */
            if (loff[s] + n - 1 > maxoff)
                maxoff = loff[s] + n - 1;
            nrec += (n + 254) / 255;
        } else {
            if (r[s].nexp > 255) { /* never: NUL and '#' are never keys */
                st = RSC_E_LIMIT;
                goto out;
            }
            nrec++;
        }
    }
    const unsigned lw = rsc_width(maxoff);
    /* every state's code at width w; the bytes of them all */
#define REC_BYTES(s, w) (r[s].nexp == 1 ? (r[s].base + 254) / 255 * RSC_DFA_REC_BYTES(RSC_DFA_L, 0, w, lw) \
                                        : RSC_DFA_REC_BYTES(0, r[s].nexp, w, lw))
    unsigned w = 1;
    size_t size = 0;
    for (int pass = 0; pass < 2; pass++, w = 2) {
        size = 0;
        for (uint32_t s = 0; s < K; s++)
            if (r[s].id != NONE)
                code[s] = (uint32_t)size, size += REC_BYTES(s, w);
        if (size <= RSC_DFA_CODES(w))
            break;
    }
    if (size > RSC_DFA_CODES(2)) { /* past 16-bit codes: the programs */
        st = RSC_E_LIMIT;
        goto out;
    }
    const uint32_t va = RSC_DFA_CODES(w); /* the code of "allowed" */
#define MAPT(t) ((t) >= FIN_BASE ? va + ((t) - FIN_BASE) : code[t])
    const uint32_t start = d->start >= K ? va + (d->start == FIN_D) : code[d->start];
    size_t at = out->len;
    if (rsc_buf_varint(m, out, nrec) || rsc_buf_varint(m, out, start) ||
        rsc_buf_varint(m, out, d->rules) || rsc_buf_varint(m, out, (uint32_t)size) ||
        rsc_buf_put(m, out, NULL, 1 + size))
        goto out;
    uint8_t *const c0 = out->p + out->len - size, *q = c0;
    q[-1] = (uint8_t)(w | lw << 4);
    for (uint32_t s = 0; s < K; s++) {
        if (r[s].id == NONE)
            continue;
        const uint8_t flags = (uint8_t)(r[s].endd | (r[s].nexp == 1) << 1 | r[s].fb << 2);
        const uint32_t other = MAPT(r[s].other);
        if (r[s].nexp == 1) { /* pieces of at most 255 label bytes */
            const uint32_t n = r[s].base;
            for (uint32_t j = 0; j < n; j += 255) {
                const uint32_t len = n - j < 255 ? n - j : 255;
                const uint32_t piece = RSC_DFA_REC_BYTES(RSC_DFA_L, len, w, lw);
                const uint32_t next = j + len < n ? (uint32_t)(q - c0) + piece : MAPT(cnext[s]);
                q[0] = flags, q[1] = (uint8_t)len;
                rsc_put_n(q + 2, other, w), rsc_put_n(q + 2 + w, next, w);
                rsc_put_n(q + 2 + 2 * w, loff[s] + j, lw);
                q += piece;
            }
        } else { /* its keys, increasing, then their targets */
            const uint32_t n = r[s].nexp;
            q[0] = flags, q[1] = (uint8_t)n;
            rsc_put_n(q + 2, other, w);
            for (uint32_t i = 0; i < n; i++) {
                q[2 + w + i] = (uint8_t)cells[2 * (r[s].base + i)];
                rsc_put_n(q + 2 + w + n + i * w, MAPT(cells[2 * (r[s].base + i) + 1]), w);
            }
            q += REC_BYTES(s, w);
        }
    }
#undef REC_BYTES
#undef MAPT
    st = RSC_OK;
    if (out->len - at > DFA_BYTES_FIXED + DFA_BYTES_PER_RULE_BYTE * rule_bytes)
        out->len = at, st = RSC_E_LIMIT; /* larger than its rules deserve: programs */
out:
    rsc_mem_free(m, r, ((size_t)K + 1) * sizeof *r);
    rsc_mem_free(m, lst, cap_lst);
    rsc_mem_free(m, lab, (size_t)K + 1);
    rsc_mem_free(m, tally, ((size_t)K + 2) * sizeof *tally);
    rsc_mem_free(m, vals, (nvals + 1) * sizeof *vals);
    rsc_mem_free(m, cells, cap_cells * 2 * sizeof *cells);
    return st;
}

/* ---- Every rule set of a blob --------------------------------------------- */

/* Set k's programs (their Data offsets), as the runtime's rsc_select()
 * resolves them (FORMAT.md, SETS); 0 for an empty set, TOO_MANY when there
 * are more than a selection holds (a rule set split for the programs'
 * budgets, compiler/programs.c: such a set keeps its programs). */
#define TOO_MANY UINT32_MAX
static uint32_t set_roots(const rsc_program *prog, uint32_t k, uint32_t *roots)
{
    uint32_t j = k, end = k + 1, n = 0;
    if (PRIV(prog, P_SETS))
        j = rsc_tab(prog, P_SETS, k, 0), end = j + rsc_tab(prog, P_SETS, k, 1);
    for (; j < end; j++) {
        uint32_t pr = PRIV(prog, P_SETS) ? rsc_tab(prog, P_SLIST, j, 0) : j;
        if (n == RSC_MAX_SELECT)
            return TOO_MANY;
        roots[n++] = PRIV(prog, P_PROG_DATA) + (pr ? rsc_tab(prog, P_PROGS, pr - 1, 0) : 0);
    }
    return n;
}

/* The rules a set's programs name (the bits of their RULES rows), and
 * their bytes: what its DFA may cost. */
static size_t set_rules(const rsc_program *prog, const uint32_t *roots, uint32_t n, uint64_t *bits)
{
    const uint32_t nr = PRIV(prog, P_RULES_N);
    size_t sum = 0;
    memset(bits, 0, ((size_t)nr / 64 + 1) * 8);
    for (uint32_t k = 0; k < n; k++)
        mark_program(prog->base + roots[k], bits);
    for (uint32_t r = next_rule(bits, 0, nr); r < nr; r = next_rule(bits, r + 1, nr)) {
        uint32_t len;
        int allow;
        rule_of(prog, r, &len, &allow);
        sum += len + 1u;
    }
    return sum;
}

static uint64_t rules_hash(const rsc_program *prog, const uint64_t *bits)
{
    const uint32_t nr = PRIV(prog, P_RULES_N);
    uint64_t h = 1469598103934665603ull;
    for (uint32_t r = next_rule(bits, 0, nr); r < nr; r = next_rule(bits, r + 1, nr)) {
        uint32_t len;
        int allow;
        const uint8_t *t = rule_of(prog, r, &len, &allow);
        h = (h ^ (len << 1 | (unsigned)allow)) * 1099511628211ull;
        for (uint32_t i = 0; i < len; i++)
            h = (h ^ t[i]) * 1099511628211ull;
    }
    return h;
}

static int same_rules(const rsc_program *prog, const uint64_t *a, const uint64_t *b)
{
    const uint32_t nr = PRIV(prog, P_RULES_N);
    uint32_t i = 0, j = 0;
    for (;;) {
        i = next_rule(a, i, nr), j = next_rule(b, j, nr);
        if (i == nr || j == nr)
            return i == nr && j == nr;
        uint32_t la, lb;
        int va, vb;
        const uint8_t *ta = rule_of(prog, i++, &la, &va), *tb = rule_of(prog, j++, &lb, &vb);
        if (la != lb || va != vb || memcmp(ta, tb, la) != 0)
            return 0;
    }
}

/* note [like a failed set]
 * A file's groups are often one list copied for each crawler with a few
 * lines changed, so its rule sets are alike without being equal. When one
 * such set's construction fails (buffer, work or size cap), the others fail
 * the same way after the same work: on the corpus, of the 124 sets that
 * differ from a failed set of their file in at most 1 rule in 20, 2 would
 * have built a DFA that fits, and skipping them takes about 2% off the
 * corpus's compile time (docs/DFA.md, "Budget"). So such a set keeps its
 * programs without a try. Sets are compared by their rules' texts (each
 * rule's bytes and Allow bit hashed, the hashes sorted, counted as
 * multisets), since equal lines in two groups are different RULES rows. A
 * hash collision only changes which sets are tried, never a verdict. The
 * first FAILED_KEEP failures of a file are kept, so the comparisons a set
 * costs stay bounded. */
#define FAILED_KEEP 8u
#define LIKE_DIFF 20u /* at most 1 rule in LIKE_DIFF of the union differs */

/* The sorted hashes of a set's rules (text, its length and Allow bit)
 * into out, tmp the sort's scratch; both hold P_RULES_N. Eight bytes a
 * step: the byte-at-a-time FNV-1a here took 2% of a large file's compile. */
static size_t text_hashes(const rsc_program *prog, const uint64_t *bits, uint64_t *out, uint64_t *tmp)
{
    const uint64_t K = 0x9e3779b97f4a7c15ull;
    const uint32_t nr = PRIV(prog, P_RULES_N);
    size_t n = 0;
    for (uint32_t r = next_rule(bits, 0, nr); r < nr; r = next_rule(bits, r + 1, nr)) {
        uint32_t len, i = 0;
        int allow;
        const uint8_t *t = rule_of(prog, r, &len, &allow);
        uint64_t h = ((uint64_t)len << 1 | (unsigned)allow) * K;
        for (; i + 8 <= len; i += 8) {
            h = (h ^ rsc_rd64le(t + i)) * K;
            h ^= h >> 32;
        }
        uint64_t w = 0;
        for (unsigned j = 0; i + j < len; j++)
            w |= (uint64_t)t[i + j] << (8 * j);
        h = (h ^ w) * K;
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9ull;
        out[n++] = h ^ h >> 32;
    }
    rsc_sort_u64(out, tmp, n);
    return n;
}

/* Whether the sorted multisets a[0..na) and b[0..nb) differ in at most 1
 * element in LIKE_DIFF of their union. */
static int alike(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    size_t i = 0, j = 0, both = 0;
    while (i < na && j < nb) {
        if (a[i] == b[j])
            both++, i++, j++;
        else if (a[i] < b[j])
            i++;
        else
            j++;
    }
    const size_t uni = na + nb - both;
    return (uni - both) * LIKE_DIFF <= uni;
}

/* A file's failed sets, for note [like a failed set]. */
typedef struct failed_sets {
    uint64_t *hs; /* the set at hand's hashes: room for P_RULES_N + 1, then as many for their sort */
    size_t cap;
    rsc_buf kept; /* the kept failures' hashes, one after another */
    size_t at[FAILED_KEEP], n[FAILED_KEEP];
    uint32_t count;
} failed_sets;

/* Whether the set of bits is like a kept failure. Its hashes are left in
 * f->hs, *nh of them (SIZE_MAX: not made, there being no failure yet). */
static int like_failed(failed_sets *f, const rsc_program *prog, const uint64_t *bits, size_t *nh)
{
    *nh = SIZE_MAX;
    if (!f->count)
        return 0;
    *nh = text_hashes(prog, bits, f->hs, f->hs + f->cap);
    for (uint32_t q = 0; q < f->count; q++)
        if (alike(f->hs, *nh, (const uint64_t *)(void *)f->kept.p + f->at[q], f->n[q]))
            return 1;
    return 0;
}

/* Keeps a failed set's hashes (f->hs, *nh of them, made here if not yet);
 * nonzero when out of memory. */
static int keep_failed(failed_sets *f, rsc_mem *m, const rsc_program *prog, const uint64_t *bits, size_t nh)
{
    if (f->count == FAILED_KEEP)
        return 0;
    if (!f->hs) {
        f->cap = (size_t)PRIV(prog, P_RULES_N) + 1;
        if ((f->hs = rsc_mem_alloc(m, 2 * f->cap * sizeof *f->hs)) == NULL) /* and a sort's room */
            return 1;
    }
    if (nh == SIZE_MAX)
        nh = text_hashes(prog, bits, f->hs, f->hs + f->cap);
    f->at[f->count] = f->kept.len / sizeof *f->hs, f->n[f->count] = nh;
    if (nh && rsc_buf_put(m, &f->kept, f->hs, nh * sizeof *f->hs))
        return 1;
    f->count++;
    return 0;
}

/* A set already built: its rules' hash and its DFA, Data[a .. b) (empty: it
 * has none). */
typedef struct built {
    uint64_t h;
    uint32_t set, a, b;
} built;

rsc_status rsc_make_dfas(ctx *c, const uint8_t *blob, size_t size)
{
    rsc_program prog;
    if (rsc_load(&prog, blob, size, NULL) != RSC_OK)
        return RSC_E_LIMIT; /* never: the compiler's own blob */
    const uint32_t nsets = PRIV(&prog, P_SETS_N);
    rsc_buf data = {NULL, 0, 0}, extra = {NULL, 0, 0};
    uint32_t *ends = rsc_mem_calloc(&c->m, (size_t)nsets + 1, sizeof *ends);
    void *buf = NULL;
    aux_mem aux = {NULL, 0};
    size_t cap = 0, spent_left = DFA_FILE_BUDGET;
    failed_sets fail;
    memset(&fail, 0, sizeof fail);
    rsc_status st = RSC_E_NOMEM;
    enc e = {&c->m, STR(&prog), PRIV(&prog, P_STR_SIZE), &extra, (size_t)1 << 22, 0, {0}, {0}, 0, 0};
    uint32_t any = 0, ndone = 0;
    const size_t nbits = (size_t)PRIV(&prog, P_RULES_N) / 64 + 1;
    uint64_t *bits = rsc_mem_alloc(&c->m, nbits * 8 * 2), *bits2 = bits ? bits + nbits : NULL;
    built *done = rsc_mem_alloc(&c->m, ((size_t)nsets + 1) * sizeof *done);
    strings_mask(&e);
    if (!ends || !bits || !done)
        goto out;
    for (uint32_t k = 0; k < nsets; k++) {
        uint32_t roots[RSC_MAX_SELECT];
        const uint32_t n = set_roots(&prog, k, roots);
        ends[k] = (uint32_t)data.len;
        if (n == TOO_MANY)
            continue; /* its programs decide (an empty DFA would allow all) */
        if (!n) { /* an empty set allows everything: no state, the start allowed */
            const uint8_t widths = 1 | 1 << 4;
            if (rsc_buf_varint(&c->m, &data, 0) || rsc_buf_varint(&c->m, &data, RSC_DFA_CODES(1)) ||
                rsc_buf_varint(&c->m, &data, 0) || rsc_buf_varint(&c->m, &data, 0) ||
                rsc_buf_put(&c->m, &data, &widths, 1))
                goto out;
            ends[k] = (uint32_t)data.len, any = 1;
            continue;
        }
        const size_t RB = set_rules(&prog, roots, n, bits);
        const uint64_t h = nsets > 1 ? rules_hash(&prog, bits) : 0; /* one set: nothing to be alike */
        uint32_t j = 0;
        for (; j < ndone; j++) {
            if (done[j].h != h)
                continue;
            uint32_t r2[RSC_MAX_SELECT];
            set_rules(&prog, r2, set_roots(&prog, done[j].set, r2), bits2);
            if (same_rules(&prog, bits, bits2))
                break;
        }
        if (j < ndone) { /* the same rules as an earlier set: its DFA again, or none */
            const size_t at = data.len, len = done[j].b - done[j].a;
            if (rsc_buf_put(&c->m, &data, NULL, len))
                goto out;
            if (len)
                memcpy(data.p + at, data.p + done[j].a, len);
            if (data.len > UINT32_MAX) {
                st = RSC_E_LIMIT;
                goto out;
            }
            ends[k] = (uint32_t)data.len, any |= len > 0;
            continue;
        }
        done[ndone].h = h, done[ndone].set = k, done[ndone].a = done[ndone].b = (uint32_t)data.len;
        ndone++;
        size_t want = RB > (DFA_BUF_MAX - DFA_BUF_FIXED) / DFA_BUF_PER_RULE_BYTE
                          ? DFA_BUF_MAX
                          : DFA_BUF_FIXED + DFA_BUF_PER_RULE_BYTE * RB;
        if (want > spent_left)
            continue; /* the file's budget is spent: the programs */
        size_t nh;
        if (like_failed(&fail, &prog, bits, &nh))
            continue; /* note [like a failed set]: the programs */
        spent_left -= want;
        if (want > cap) {
            rsc_mem_free(&c->m, buf, cap);
            cap = 0;
            if (!(buf = rsc_mem_alloc(&c->m, want)))
                goto out;
            cap = want;
        }
        dense d;
        const rsc_status bs = dfa_build(&prog, bits, buf, want, &c->m, &aux, &d);
        if (bs == RSC_E_NOMEM)
            goto out;
        if (bs != RSC_OK) { /* over the budget: the programs */
            if (keep_failed(&fail, &c->m, &prog, bits, nh))
                goto out;
            continue;
        }
        const size_t kept = extra.len;
        st = encode(&e, &d, RB, &data);
        if (st == RSC_E_NOMEM)
            goto out;
        if (st == RSC_E_LIMIT) {
            extra.len = kept; /* the labels of a DFA left out */
            if (keep_failed(&fail, &c->m, &prog, bits, nh)) {
                st = RSC_E_NOMEM;
                goto out;
            }
        }
        if (data.len > UINT32_MAX) {
            st = RSC_E_LIMIT;
            goto out;
        }
        ends[k] = done[ndone - 1].b = (uint32_t)data.len;
        any |= st == RSC_OK;
        st = RSC_E_NOMEM; /* what a failed allocation below returns */
    }
    st = RSC_OK;
    if (any) {
        rsc_buf *b = &c->sec[RSC_SEC_DFAS];
        if (rsc_buf_table(&c->m, b, ends, nsets, RSC_DFAS_COLS) ||
            rsc_buf_put(&c->m, b, data.p, data.len) || rsc_buf_put(&c->m, b, NULL, RSC_PAD) ||
            rsc_buf_put(&c->m, &c->sec[RSC_SEC_STRINGS], extra.p, extra.len))
            st = RSC_E_NOMEM;
    }
out:
    rsc_mem_free(&c->m, buf, cap);
    rsc_mem_free(&c->m, fail.hs, 2 * fail.cap * sizeof *fail.hs);
    rsc_buf_free(&c->m, &fail.kept);
    rsc_mem_free(&c->m, aux.p, aux.n * 4);
    rsc_mem_free(&c->m, ends, ((size_t)nsets + 1) * sizeof *ends);
    rsc_mem_free(&c->m, bits, bits ? nbits * 8 * 2 : 0);
    rsc_mem_free(&c->m, done, done ? ((size_t)nsets + 1) * sizeof *done : 0);
    rsc_buf_free(&c->m, &data);
    rsc_buf_free(&c->m, &extra);
    enc_free(&e);
    return st;
}
