/* SPDX-License-Identifier: Apache-2.0 */
/* The blob's DFA engine (docs/DFA.md, docs/FORMAT.md "DFAS"): the
 * compiler determinised each rule set into a DFA written into the blob;
 * rsc_load() verified every index of it, and this file only runs it, from
 * the blob as loaded (zero-copy: no build, no allocation, no scratch). A
 * selection of one rule set that has a DFA runs it; any other selection,
 * and every call that wants the deciding rule, runs the programs.
 *
 * A DFA is a table of row states and one of cells: an explicit state's
 * keys, the bytes that do not go to its Other state, are a string of
 * STRINGS (increasing), each with a cell, its target. A state with a label
 * stands for a chain of single-successor states: it reads the label's
 * bytes and goes to Next after the last, to Other on any other byte. A
 * state that falls back (Other bit 2) reads any other byte again in Other,
 * a state whose own Other is itself (verified). Two codes past the rows
 * are the verdicts: K allowed, K + 1 disallowed. At most two steps a path
 * byte (a label reads eight bytes a word, a scan eight or sixteen), so the
 * time is linear in the path whatever the blob holds. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec.h"
#include "format.h"
#include "program.h"
#include "robotsc/runtime.h"

#ifdef RSC_COUNT_STEPS
extern size_t rsc_steps;
#define DFA_STEPS(n) (rsc_steps += (n))
#else
#define DFA_STEPS(n) ((void)0)
#endif

/* sel->accel set to this: the selection runs the programs (program.h). */
const uint32_t rsc_dfa_programs_only = 0x50524f47u;

/* A DFA as matching reads it: the rows of its two Tables, each column's
 * offset in a row and the mask of its width (Next at offset 0 of a state
 * and of a cell). The words are also one array, fix, which a selection
 * keeps as it is (rsc_dfa_resolve): a match copies it in three moves. */
#define DVIEW_WORDS 12
typedef struct dview {
    const uint8_t *st, *ce, *str; /* STATES and CELLS rows; STRINGS       */
    const uint8_t *last8;         /* the last byte an 8-byte load may start */
    union {
        struct {
            uint32_t k, start, ssz, csz; /* row states; the start; row sizes */
            uint32_t o_other, o_loff, o_len;
            uint32_t m_next, m_other, m_loff, m_len, m_cnext;
        };
        uint32_t fix[DVIEW_WORDS];
    };
} dview;
_Static_assert(offsetof(dview, m_cnext) + 4 == offsetof(dview, fix) + sizeof(uint32_t[DVIEW_WORDS]),
               "fix covers every word of the view");

/* Extra figures of a DFA, for rsc_selection_engine. */
typedef struct dinfo {
    uint32_t rules, cells;
    size_t bytes;
} dinfo;

/* The DFA of set k, when it has one (a non-empty span of DFAS Data). */
static int dfa_of_set(const rsc_program *prog, uint32_t k, dview *d, dinfo *info)
{
    rsc_ptab st, ce;
    if (k >= PRIV(prog, P_DFAS_N))
        return 0;
    uint32_t a = k ? rsc_tab(prog, P_DFAS, k - 1, 0) : 0, b = rsc_tab(prog, P_DFAS, k, 0);
    if (a == b)
        return 0;
    const uint8_t *p = prog->base + PRIV(prog, P_DFA_DATA) + a;
    d->k = rsc_uv(&p), d->start = rsc_uv(&p);
    const uint32_t rules = rsc_uv(&p);
    p = rsc_ptab_open(&st, p, RSC_DSTATES_COLS);
    rsc_ptab_open(&ce, p, RSC_DCELLS_COLS);
    if (!st.n) /* no row: the start is a verdict; the rows are never read */
        memset(&st, 0, sizeof st);
    if (!ce.n)
        memset(&ce, 0, sizeof ce);
    d->st = st.rows, d->ce = ce.rows, d->str = STR(prog);
    d->last8 = prog->base + prog->size - 8; /* a blob has at least 12 bytes */
    d->ssz = st.size, d->csz = ce.size;
    d->o_other = st.off[D_OTHER], d->o_loff = st.off[D_LOFF], d->o_len = st.off[D_LEN];
    d->m_next = st.mask[D_NEXT], d->m_other = st.mask[D_OTHER], d->m_loff = st.mask[D_LOFF];
    d->m_len = st.mask[D_LEN], d->m_cnext = ce.mask[C_NEXT];
    if (info)
        info->rules = rules, info->cells = ce.n, info->bytes = b - a;
    return 1;
}

/* A selection of one rule set uses only sets[0]: the set's DFA, opened
 * once by rsc_select() (rsc_dfa_resolve), is kept in sets[1..] so that a
 * match reads a few words instead of the DFAS table, three varints and two
 * Table headers (about 150 instructions, more than some whole matches).
 * Private fields: only this file writes or reads them. */
enum { V_ST = 1, V_CE, V_FIX, V_END = V_FIX + DVIEW_WORDS };
_Static_assert(V_END <= RSC_MAX_SELECT, "the view fits in sets[1..]");

static const uint32_t dfa_cached = 0x44464121u; /* sel->accel: sets[1..] hold a view */

void rsc_dfa_resolve(rsc_selection *sel)
{
    dview d;
    if (sel->accel || !sel->prog)
        return;
    if (sel->n_sets != 1 || !dfa_of_set(sel->prog, sel->sets[0], &d, NULL)) {
        /* no DFA to run (no rule set, several, or one over the budget):
         * marked, so that a match does not look for one again (1.3% of
         * the programs' instructions over the 30 corpus lists that run
         * them) */
        sel->accel = &rsc_dfa_programs_only;
        return;
    }
    const uint8_t *b = sel->prog->base;
    uint32_t *v = sel->sets;
    v[V_ST] = d.st ? (uint32_t)(d.st - b) : 0, v[V_CE] = d.ce ? (uint32_t)(d.ce - b) : 0;
    memcpy(v + V_FIX, d.fix, sizeof d.fix);
    sel->accel = &dfa_cached;
}

/* The DFA sel runs: its one rule set's, unless sel was told to run the
 * programs. */
RSC_HOT int dfa_of(const rsc_selection *sel, dview *d)
{
    if (!sel || !sel->prog || sel->n_sets != 1 || sel->accel == (const void *)&rsc_dfa_programs_only)
        return 0;
    if (sel->accel != (const void *)&dfa_cached)
        return dfa_of_set(sel->prog, sel->sets[0], d, NULL);
    const uint8_t *b = sel->prog->base;
    const uint32_t *v = sel->sets;
    d->st = b + v[V_ST], d->ce = b + v[V_CE], d->str = STR(sel->prog);
    d->last8 = b + sel->prog->size - 8;
    memcpy(d->fix, v + V_FIX, sizeof d->fix);
    return 1;
}

/* Column reads: one 4-byte load masked to the column's width (the DFAS
 * padding keeps the last row's load inside the section). */
#define ROW(d, s) ((d)->st + (size_t)(s) * (d)->ssz)
#define S_NEXT(d, r) (rsc_rd32(r) & (d)->m_next)
#define S_OTHER(d, r) (rsc_rd32((r) + (d)->o_other) & (d)->m_other)
#define S_LOFF(d, r) (rsc_rd32((r) + (d)->o_loff) & (d)->m_loff)
#define S_LEN(d, r) (rsc_rd32((r) + (d)->o_len) & (d)->m_len)
#define C_NEXTAT(d, i) (rsc_rd32((d)->ce + (size_t)(i) * (d)->csz) & (d)->m_cnext)

/* The index of c among the n keys at k (n when none): eight keys a load
 * while the blob has eight bytes from there (keys are distinct). */
RSC_HOT uint32_t key_index(const dview *d, const uint8_t *k, uint32_t n, uint8_t c)
{
    uint32_t i = 0;
    for (; i < n && k + i <= d->last8; i += 8) {
        uint64_t m = rsc_eq_lanes(rsc_rd64le(k + i), c);
        if (n - i < 8)
            m &= (1ull << 8 * (n - i)) - 1;
        if (m)
            return i + rsc_low_lane(m);
    }
    for (; i < n; i++)
        if (k[i] == c)
            break;
    return i;
}

/* State s (a row) on byte c, *j bytes into its label. A byte that a
 * falling-back state does not take is read again in its Other, which
 * verification made a state that never falls back: one more turn at most. */
RSC_HOT uint32_t dstep(const dview *d, uint32_t s, uint32_t *j, uint8_t c)
{
    for (;;) {
        const uint8_t *r = ROW(d, s);
        const uint32_t o = S_OTHER(d, r), n = S_LEN(d, r), f = S_NEXT(d, r);
        if (o & 2) { /* a chain: its label's byte *j */
            if (c == d->str[S_LOFF(d, r) + *j]) {
                if (++*j < n)
                    return s;
                *j = 0;
                return f;
            }
            *j = 0;
        } else {
            const uint32_t x = key_index(d, d->str + S_LOFF(d, r), n, c); /* a sparse row */
            if (x < n)
                return C_NEXTAT(d, f + x);
        }
        if (!(o & 4))
            return o >> 3;
        s = o >> 3;
    }
}
/* The first i in [i, n) where p[i] is one of k[0..3], NUL or term (n when
 * none): a state that every other byte keeps (the one after "/ *" waiting
 * for ".pdf") reads its path sixteen bytes a step (eight where the target
 * has no vectors), its row read once. Sixteen: 2.7% fewer instructions
 * over the corpus lists, 3.4% less time (www.news.com.au: 4.4% fewer
 * instructions). */
static size_t scan_keys(const uint8_t *p, size_t i, size_t n, const uint8_t k[4], uint8_t term)
{
#ifdef RSC_V16
    for (; n - i >= 16; i += 16) {
        const rsc_v16 x = rsc_v16_load(p + i);
        const unsigned f = rsc_v16_first((rsc_v16)((x == 0) | (x == term) | (x == k[0]) |
                                                   (x == k[1]) | (x == k[2]) | (x == k[3])));
        if (f < 16)
            return i + f;
    }
#endif
    for (; n - i >= 8; i += 8) {
        const uint64_t x = rsc_rd64le(p + i);
        const uint64_t m = rsc_zero_lanes(x) | rsc_eq_lanes(x, term) | rsc_eq_lanes(x, k[0]) |
                           rsc_eq_lanes(x, k[1]) | rsc_eq_lanes(x, k[2]) | rsc_eq_lanes(x, k[3]);
        if (m)
            return i + rsc_low_lane(m);
    }
    for (; i < n; i++)
        if (p[i] == k[0] || p[i] == k[1] || p[i] == k[2] || p[i] == k[3] || p[i] == 0 ||
            p[i] == term)
            break;
    return i;
}

/* As scan_keys for one key k (a chain waiting for its label's first
 * byte): three comparisons a vector instead of six. */
static size_t scan_one(const uint8_t *p, size_t i, size_t n, uint8_t k, uint8_t term)
{
#ifdef RSC_V16
    for (; n - i >= 16; i += 16) {
        const rsc_v16 x = rsc_v16_load(p + i);
        const unsigned f = rsc_v16_first((rsc_v16)((x == 0) | (x == term) | (x == k)));
        if (f < 16)
            return i + f;
    }
#endif
    for (; n - i >= 8; i += 8) {
        const uint64_t x = rsc_rd64le(p + i);
        const uint64_t m = rsc_zero_lanes(x) | rsc_eq_lanes(x, term) | rsc_eq_lanes(x, k);
        if (m)
            return i + rsc_low_lane(m);
    }
    for (; i < n; i++)
        if (p[i] == k || p[i] == 0 || p[i] == term)
            break;
    return i;
}

/* As scan_keys for the n keys at k (more than four): a bitmap of them on
 * the stack, one test a byte. */
static size_t scan_set(const uint8_t *p, size_t i, size_t n, const uint8_t *k, uint32_t nk,
                       uint8_t term)
{
    uint32_t set[8] = {1, 0, 0, 0, 0, 0, 0, 0}; /* NUL */
    set[term >> 5] |= 1u << (term & 31);
    for (uint32_t x = 0; x < nk; x++)
        set[k[x] >> 5] |= 1u << (k[x] & 31);
    while (i < n && !(set[p[i] >> 5] >> (p[i] & 31) & 1))
        i++;
    return i;
}

/* The path from p[i] along a chain's label from lab[*j] (len bytes in
 * all): i and *j go past the bytes that match, eight bytes a step while
 * both have eight (a label's load stays inside the blob, below last8); the
 * first byte that differs from the label, is NUL or term stops it. */
RSC_HOT size_t label_run(const uint8_t *p, size_t i, size_t n, const uint8_t *lab, uint32_t *jp, uint32_t len,
                         const uint8_t *last8, uint8_t term)
{
    uint32_t j = *jp;
    while (j < len && n - i >= 8 && lab + j <= last8) {
        const uint64_t x = rsc_rd64le(p + i), diff = x ^ rsc_rd64le(lab + j);
        const uint64_t stop = rsc_zero_lanes(x) | rsc_eq_lanes(x, term);
        const unsigned a = diff ? rsc_low_lane(diff) : 8, b = stop ? rsc_low_lane(stop) : 8;
        unsigned k = a < b ? a : b;
        if (k > len - j)
            k = len - j;
        i += k, j += k;
        if (k < 8)
            break;
    }
    while (j < len && i < n && p[i] == lab[j] && p[i] != 0 && p[i] != term)
        i++, j++;
    *jp = j;
    return i;
}

/* google: the path bytes as they are, up to a NUL or term. A chain's
 * label is compared with the path eight bytes a word; a state whose
 * default is itself scans for the bytes that leave it (scan_keys,
 * scan_set). */
static uint32_t run_raw(const dview *d, uint32_t s, const uint8_t *p, size_t n, uint8_t term,
                        int slash)
{
    uint32_t j = 0;
    size_t i = 0;
    if (slash && s < d->k)
        s = dstep(d, s, &j, '/');
    while (s < d->k) {
        const uint8_t *r = ROW(d, s);
        const uint32_t o = S_OTHER(d, r), len = S_LEN(d, r), f = S_NEXT(d, r);
        if (o & 2) { /* a chain: as many label bytes as the path has */
            const uint8_t *lab = d->str + S_LOFF(d, r);
            if (j == 0 && o >> 3 == s) /* back here on any other byte */
                i = scan_one(p, i, n, lab[0], term);
            if (i < n && p[i] != lab[j]) { /* the usual way out: its first byte */
                if (p[i] == 0 || p[i] == term)
                    break;
                i += !(o & 4), j = 0, s = o >> 3;
                continue;
            }
            i = label_run(p, i, n, lab, &j, len, d->last8, term);
            if (j == len) {
                s = f, j = 0;
                continue;
            }
            if (i == n || p[i] == 0 || p[i] == term)
                break; /* the path ends in the label: its E */
            i += !(o & 4), j = 0, s = o >> 3; /* a fall-back reads p[i] again there */
            continue;
        }
        const uint8_t *key = d->str + S_LOFF(d, r);
        if (o >> 3 == s && len) {
            if (len <= 4) {
                const uint8_t k[4] = {key[0], key[len > 1], key[len > 2 ? 2 : 0],
                                      key[len > 3 ? 3 : 0]};
                i = scan_keys(p, i, n, k, term);
            } else {
                i = scan_set(p, i, n, key, len, term);
            }
        }
        if (i == n || p[i] == 0 || p[i] == term)
            break;
        /* dstep() on this row, whose columns are read already */
        const uint8_t c = p[i++];
        const uint32_t x = key_index(d, key, len, c);
        if (x < len)
            s = C_NEXTAT(d, f + x);
        else
            s = o & 4 ? dstep(d, o >> 3, &j, c) : o >> 3;
    }
    DFA_STEPS(i + 1);
    return s;
}

/* rfc: the path normalised as match.c's source does (FORMAT.md, Matching),
 * and a normalised path of exactly "/robots.txt" allowed (RFC 9309 2.2.2),
 * which the moves cannot stop early for: *rob is set then. */
static uint32_t run_rfc(const dview *d, uint32_t s, const uint8_t *p, size_t n, uint8_t term,
                        int slash, int *rob)
{
    static const char rt[] = "/robots.txt";
    uint32_t j = 0;
    size_t rk = 0, i = 0, steps = 0;
    uint8_t out[3] = {'/', 0, 0};
    unsigned k = slash ? 1 : 0;
    *rob = 1; /* the bytes so far are rt[0..rk) */
    for (;;) {
        for (unsigned x = 0; x < k; x++) {
            if (*rob)
                *rob = rk < sizeof rt - 1 && out[x] == (uint8_t)rt[rk], rk++;
            if (s < d->k)
                s = dstep(d, s, &j, out[x]), steps++;
        }
        if (i == n || (s >= d->k && !*rob) || p[i] == 0 || p[i] == term)
            break;
        size_t used;
        k = rsc_pct_normal_path(p + i, n - i, out, &used);
        i += used;
    }
    DFA_STEPS(steps + 1);
    *rob = *rob && rk == sizeof rt - 1;
    return s;
}

/* ---- Dense rows (rsc_accel_build) --------------------------------------
 * For a hot selection, the blob's DFA written out in the caller's memory
 * so that most steps are one load: a u16 row per explicit state, indexed
 * by the byte's class, where the blob's rows take a row read, a key search
 * and a cell. Nothing is determinised: a row is its state's Other with
 * its keys' cells over it (a falling-back state's: dstep() on a byte of
 * each class), so the verdicts are the blob's DFA's. Classes split bytes
 * that some state sends to different places (and a chain's first byte);
 * class 0 ends the path (NUL; and '#' in a URL), a row's cell 0 is its
 * verdict there. Three kinds of states, numbered in this order so that one
 * compare tells the common one apart: [0, t) a byte a step; [t, t2) a
 * state every byte keeps but at most four, which scans for them as
 * run_raw() does; [t2, n) a chain's first and second positions, with no
 * row: a chain's label is compared eight bytes at a time from the blob.
 * Codes n and n + 1 are the verdicts, allowed and disallowed. */
#define DENSE_MAX 0xfff0u /* states: the verdicts' codes fit in a u16 */
static const uint32_t dense_magic = 0x52534e44u;
typedef struct dspec {
    uint32_t a;     /* a scan's four keys; a chain's label rest in STRINGS */
    uint32_t len;   /* the label's rest                                */
    uint32_t next;  /* after the label's last byte                     */
    uint32_t other; /* on another byte (read again there: fb)          */
    uint8_t wait;   /* the label waits for its first byte: scan for it */
    uint8_t fb, end, pad; /* end: 1 disallowed where the path ends     */
} dspec;
typedef struct drows {
    const void *magic;    /* &dense_magic                               */
    const uint8_t *base;  /* the blob it was built from                 */
    const uint8_t *last8; /* the blob's last 8-byte load                */
    const uint8_t *str;   /* its STRINGS                                */
    const dspec *spec;    /* of states t.. n - 1                        */
    uint32_t n, ncls, start, t, t2, pad;
    uint8_t cls[2][256];  /* [0] a path's bytes, [1] a URL's ('#' ends) */
    uint16_t rows[];      /* t2 x ncls, the specs, then k u32s (scratch) */
} drows;

/* The partition of the bytes into classes, refined state by state: bytes
 * of a class that the state sends to different places part. A class whose
 * bytes are all keys of the state keeps its id for its first group, so no
 * class empties and ids stay below 256. */
typedef struct dpart {
    uint8_t cls[256];
    uint32_t cnt[256], hit[256], mark[256], nc, stamp;
    uint32_t hs[512], hk[512], hv[512]; /* (class, target) -> new class */
} dpart;

static uint32_t *dpart_slot(dpart *q, uint32_t o, uint32_t t)
{
    const uint32_t key = t << 8 | o;
    uint32_t h = (key * 0x9e3779b1u) >> 23;
    for (; q->hs[h] == q->stamp; h = (h + 1) & 511)
        if (q->hk[h] == key)
            return &q->hv[h];
    q->hs[h] = q->stamp, q->hk[h] = key, q->hv[h] = 256;
    return &q->hv[h];
}

/* Refines by the n keys at key going to tg(i): cells from f, or one place */
static void refine(dpart *q, const uint8_t *key, uint32_t n, const dview *d, uint32_t f)
{
    q->stamp++;
    for (uint32_t i = 0; i < n; i++)
        q->hit[q->cls[key[i]]] = 0;
    for (uint32_t i = 0; i < n; i++)
        q->hit[q->cls[key[i]]]++;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t c = key[i], o = q->cls[c];
        uint32_t *id = dpart_slot(q, o, d ? C_NEXTAT(d, f + i) : 0);
        if (*id == 256) {
            if (q->hit[o] == q->cnt[o] && q->mark[o] != q->stamp)
                *id = o, q->mark[o] = q->stamp; /* every byte of o a key here */
            else
                *id = q->nc++;
        }
        if (*id != o)
            q->cls[c] = (uint8_t)*id, q->cnt[o]--, q->cnt[*id]++;
    }
}

/* An explicit state's exits when its Other is itself (it keeps every other
 * byte), at most four of them into keys; 5 when there are more or it does
 * not keep the others. */
static uint32_t scan_exits(const dview *d, uint32_t s, uint8_t keys[4])
{
    const uint8_t *r = ROW(d, s);
    const uint32_t o = S_OTHER(d, r), len = S_LEN(d, r), f = S_NEXT(d, r);
    const uint8_t *key = d->str + S_LOFF(d, r);
    uint32_t e = 0;
    if ((o & 6) || o >> 3 != s)
        return 5;
    for (uint32_t i = 0; i < len && e < 5; i++)
        if (C_NEXTAT(d, f + i) != s) {
            if (e < 4)
                keys[e] = key[i];
            e++;
        }
    return e;
}

/* Kind of blob state s: 0 a byte a step, 1 a scan, 2 a chain. */
static int dense_kind(const dview *d, uint32_t s)
{
    uint8_t keys[4];
    return S_OTHER(d, ROW(d, s)) & 2 ? 2 : scan_exits(d, s, keys) <= 4;
}

/* The classes (h->cls[0]) and the count of each kind of state. */
static void dense_shape(const dview *d, drows *h)
{
    dpart q;
    uint64_t cnt[3] = {0, 0, 0};
    memset(q.cnt, 0, sizeof q.cnt), memset(q.mark, 0, sizeof q.mark), memset(q.hs, 0, sizeof q.hs);
    q.stamp = 0;
    memset(q.cls, 1, 256);
    q.cls[0] = 0, q.cls['#'] = 2;
    q.cnt[0] = 1, q.cnt[1] = 254, q.cnt[2] = 1, q.nc = 3;
    for (uint32_t s = 0; s < d->k; s++) {
        const uint8_t *r = ROW(d, s);
        const int kind = dense_kind(d, s);
        if (kind == 2) /* its first byte: a falling-back state's row reads it */
            refine(&q, d->str + S_LOFF(d, r), 1, NULL, 0);
        else
            refine(&q, d->str + S_LOFF(d, r), S_LEN(d, r), d, S_NEXT(d, r));
        cnt[kind] += kind == 2 && S_LEN(d, r) > 1 ? 2 : 1;
    }
    memcpy(h->cls[0], q.cls, 256);
    const uint64_t n = cnt[0] + cnt[1] + cnt[2];
    h->n = n <= DENSE_MAX ? (uint32_t)n : 0, h->ncls = q.nc;
    h->t = (uint32_t)cnt[0], h->t2 = (uint32_t)(cnt[0] + cnt[1]);
}

/* The bytes of h's rows and specs, then k u32s of the build's scratch. */
static size_t dense_size(const drows *h, uint32_t k)
{
    return sizeof *h + (((size_t)h->t2 * h->ncls * 2 + 3) & ~(size_t)3) +
           (size_t)(h->n - h->t) * sizeof(dspec) + (size_t)k * 4;
}

/* sel's dense rows, when rsc_accel_build() gave it some. */
static const drows *dense_of(const rsc_selection *sel)
{
    const void *a = sel ? sel->accel : NULL;
    if (!a || a == (const void *)&dfa_cached || a == (const void *)&rsc_dfa_programs_only)
        return NULL;
    const drows *h = a;
    return h->magic == &dense_magic && h->base == sel->prog->base ? h : NULL;
}

/* State s (a row, or a chain's first position) on byte c, not an end. */
static uint32_t dense_step(const drows *h, uint32_t s, uint8_t c)
{
    if (s < h->t2)
        return h->rows[(size_t)s * h->ncls + h->cls[0][c]];
    const dspec *x = &h->spec[s - h->t];
    if (c == h->str[x->a])
        return x->len > 1 ? s + 1 : x->next;
    return x->fb ? dense_step(h, x->other, c) : x->other;
}

static int dense_verdict(const drows *h, const uint8_t *p, size_t n, uint8_t term, int slash)
{
    const uint8_t *cls = h->cls[term == '#'];
    const uint16_t *rows = h->rows;
    const uint32_t N = h->n, nc = h->ncls, T = h->t, T2 = h->t2;
    uint32_t s = h->start;
    size_t i = 0;
    if (slash && s < N)
        s = dense_step(h, s, '/');
    while (s < N) {
        if (s < T) { /* one byte a step */
            if (i == n || !cls[p[i]])
                break;
            s = rows[(size_t)s * nc + cls[p[i++]]];
            continue;
        }
        const dspec *x = &h->spec[s - T];
        if (s < T2) { /* a state that keeps every byte but four: a scan */
            i = scan_keys(p, i, n, (const uint8_t *)&x->a, term);
            if (i == n || !cls[p[i]])
                break;
            s = rows[(size_t)s * nc + cls[p[i++]]];
            continue;
        }
        /* a chain: its label compared eight bytes at a time */
        const uint8_t *lab = h->str + x->a;
        const uint32_t len = x->len;
        uint32_t j = 0;
        if (x->wait)
            i = scan_one(p, i, n, lab[0], term);
        i = label_run(p, i, n, lab, &j, len, h->last8, term);
        if (j == len) {
            s = x->next;
            continue;
        }
        if (i == n || !cls[p[i]])
            return !x->end; /* the path ends in the label */
        s = x->fb ? dense_step(h, x->other, p[i]) : x->other; /* another byte */
        i++;
    }
    if (s < N)
        s = rows[(size_t)s * nc];
    return s == N;
}

/* 1 allowed, 0 disallowed, -1 when sel runs no DFA (match.c then runs the
 * programs). */
int rsc_dfa_verdict(const rsc_selection *sel, const uint8_t *p, size_t n, uint8_t term, int slash)
{
    dview d;
    if (sel && sel->accel != (const void *)&dfa_cached) {
        const drows *h = dense_of(sel); /* rsc_accel_build()'s rows */
        if (h)
            return dense_verdict(h, p, n, term, slash);
    }
    if (!dfa_of(sel, &d))
        return -1;
    uint32_t s = d.start;
    if (sel->prog->flags & RSC_FLAG_PROFILE_RFC) { /* rsc_program_profile(), without a call */
        int rob;
        s = run_rfc(&d, s, p, n, term, slash, &rob);
        if (rob)
            return 1;
    } else if (s < d.k) {
        s = run_raw(&d, s, p, n, term, slash);
    }
    return s < d.k ? !(S_OTHER(&d, ROW(&d, s)) & 1) : s == d.k;
}

/* ---- The engine of a selection ------------------------------------------ */

rsc_status rsc_selection_use(rsc_selection *sel, int engine)
{
    dview d;
    if (!sel || !sel->prog)
        return RSC_E_ARG;
    if (engine == RSC_ENGINE_PROGRAMS) {
        sel->accel = &rsc_dfa_programs_only;
        return RSC_OK;
    }
    if (engine != RSC_ENGINE_DFA)
        return RSC_E_ARG;
    if (sel->accel != (const void *)&dfa_cached) /* the programs, or dense rows */
        sel->accel = NULL;
    rsc_dfa_resolve(sel);
    return dfa_of(sel, &d) ? RSC_OK : RSC_E_LIMIT;
}

int rsc_selection_dfa(const rsc_selection *sel, rsc_dfa_view *v)
{
    dview d;
    if (!v || !dfa_of(sel, &d) || rsc_program_profile(sel->prog))
        return 0;
    const uint8_t *b = sel->prog->base;
    v->states = d.k, v->start = d.start;
    v->st = d.st ? (uint32_t)(d.st - b) : 0, v->ce = d.ce ? (uint32_t)(d.ce - b) : 0;
    v->str = (uint32_t)(d.str - b);
    v->st_size = d.ssz, v->ce_size = d.csz;
    v->off_other = d.o_other, v->off_loff = d.o_loff, v->off_len = d.o_len;
    v->m_next = d.m_next, v->m_other = d.m_other, v->m_loff = d.m_loff;
    v->m_len = d.m_len, v->m_cnext = d.m_cnext;
    return 1;
}

int rsc_selection_engine(const rsc_selection *sel, rsc_engine_info *info)
{
    rsc_engine_info z;
    dview d;
    dinfo di;
    memset(&z, 0, sizeof z);
    z.engine = RSC_ENGINE_PROGRAMS;
    if (dfa_of(sel, &d) && dfa_of_set(sel->prog, sel->sets[0], &d, &di)) {
        z.engine = RSC_ENGINE_DFA;
        z.bytes = di.bytes, z.states = d.k, z.classes = di.cells, z.rules = di.rules;
        const drows *h = dense_of(sel);
        if (h) /* the rows, built from that DFA */
            z.engine = RSC_ENGINE_DENSE, z.bytes = dense_size(h, 0), z.states = h->n,
            z.classes = h->ncls;
    }
    if (info)
        *info = z;
    return z.engine;
}

/* ---- Deprecated (1.0's run-time DFA): kept so that callers stay correct - */

/* Nothing to build: the selection already runs its blob's DFA when it has
 * one. RSC_E_LIMIT tells a 1.0 caller to keep the selection as it is (and
 * leaves it so); *used is 0. */
rsc_status rsc_dfa_build(rsc_selection *sel, void *buf, size_t size, size_t *used)
{
    (void)size;
    if (used)
        *used = 0;
    if (!sel || !sel->prog || !buf || ((uintptr_t)buf & 7u))
        return RSC_E_ARG;
    return RSC_E_LIMIT;
}

/* No run-time DFA exists to attach: RSC_E_ARG (not built for sel), sel
 * left as it is. */
rsc_status rsc_dfa_attach(rsc_selection *sel, const void *dfa, size_t size)
{
    (void)sel, (void)dfa, (void)size;
    return RSC_E_ARG;
}

int rsc_dfa_partial(const rsc_selection *sel)
{
    (void)sel;
    return 0; /* the blob holds whole DFAs only */
}

/* The bytes of sel's dense rows: 0 when its DFA has no state (the start
 * is the verdict), more than DENSE_MAX, or it has no DFA to write out. */
size_t rsc_accel_size(const rsc_selection *sel)
{
    dview d;
    drows h;
    if (!dfa_of(sel, &d) || rsc_program_profile(sel->prog))
        return 0;
    dense_shape(&d, &h);
    return h.n ? dense_size(&h, d.k) : 0;
}

rsc_status rsc_accel_build(rsc_selection *sel, void *buf, size_t size)
{
    dview d;
    if (!sel || !sel->prog || !buf || ((uintptr_t)buf & 7u))
        return RSC_E_ARG;
    if (!dfa_of(sel, &d) || rsc_program_profile(sel->prog) || size < sizeof(drows))
        return RSC_E_LIMIT;
    drows *h = buf;
    dense_shape(&d, h);
    if (!h->n || size < dense_size(h, d.k))
        return RSC_E_LIMIT;
    const uint32_t N = h->n, nc = h->ncls, k = d.k, T = h->t;
    dspec *spec = (dspec *)(void *)((uint8_t *)h->rows + (((size_t)h->t2 * nc * 2 + 3) & ~(size_t)3));
    uint32_t *id = (uint32_t *)(void *)(spec + (N - T)), next[3] = {0, T, h->t2};
    uint8_t keys[4], rep[256]; /* rep: a byte of each class */
    for (unsigned c = 256; c-- > 0;)
        rep[h->cls[0][c]] = (uint8_t)c;
    for (uint32_t s = 0; s < k; s++) {
        const int kind = dense_kind(&d, s);
        id[s] = next[kind];
        next[kind] += kind == 2 && S_LEN(&d, ROW(&d, s)) > 1 ? 2 : 1;
    }
    h->magic = &dense_magic, h->base = sel->prog->base, h->last8 = d.last8, h->str = d.str;
    h->spec = spec;
#define DENSE_ID(t) ((t) >= k ? N + (t) - k : id[t])
    for (uint32_t s = 0; s < k; s++) {
        const uint8_t *r = ROW(&d, s);
        const uint32_t o = S_OTHER(&d, r), len = S_LEN(&d, r), f = S_NEXT(&d, r), loff = S_LOFF(&d, r);
        dspec *x = id[s] >= T ? &spec[id[s] - T] : NULL;
        if (o & 2) { /* a chain: its first position, and its second */
            for (uint32_t j = 0; j < len && j < 2; j++)
                x[j].a = loff + j, x[j].len = len - j, x[j].wait = !j && o >> 3 == s,
                x[j].fb = (o & 4) != 0, x[j].end = o & 1, x[j].pad = 0,
                x[j].other = DENSE_ID(o >> 3), x[j].next = DENSE_ID(f);
            continue;
        }
        uint16_t *row = h->rows + (size_t)id[s] * nc;
        if (o & 4) { /* falls back: each class as dstep() takes it */
            for (uint32_t c = 1; c < nc; c++) {
                uint32_t j = 0, t = dstep(&d, s, &j, rep[c]);
                row[c] = (uint16_t)(DENSE_ID(t) + j); /* j 1: a chain's second */
            }
        } else { /* its Other, then its keys' cells */
            for (uint32_t c = 1; c < nc; c++)
                row[c] = (uint16_t)DENSE_ID(o >> 3);
            for (uint32_t i = 0; i < len; i++)
                row[h->cls[0][d.str[loff + i]]] = (uint16_t)DENSE_ID(C_NEXTAT(&d, f + i));
        }
        row[0] = (uint16_t)(N + (o & 1)); /* the path ends here */
        if (x) { /* a scan for its exits (none: for the path's end) */
            const uint32_t e = scan_exits(&d, s, keys);
            if (!e)
                keys[0] = 0;
            const uint8_t k4[4] = {keys[0], keys[e > 1], keys[e > 2 ? 2 : 0], keys[e > 3 ? 3 : 0]};
            memset(x, 0, sizeof *x);
            memcpy(&x->a, k4, 4);
        }
    }
    h->start = DENSE_ID(d.start);
#undef DENSE_ID
    memcpy(h->cls[1], h->cls[0], 256);
    h->cls[1]['#'] = 0;
    sel->accel = h;
    return RSC_OK;
}
