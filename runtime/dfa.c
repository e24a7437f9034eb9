/* SPDX-License-Identifier: Apache-2.0 */
/* The blob's DFA engine (docs/DFA.md, docs/FORMAT.md "DFAS"): the
 * compiler determinised each rule set into a DFA written into the blob;
 * rsc_load() verified every index of it, and this file only runs it, from
 * the blob as loaded (zero-copy: no build, no allocation, no scratch). A
 * selection of one rule set that has a DFA runs it; any other selection,
 * and every call that wants the deciding rule, runs the programs.
 *
 * A DFA is its states' records back to back (CODE), a state's code the
 * offset of its record, so that a step reads the record it lands on with
 * no multiply and no table between: Flags, N and Other in one 4-byte load,
 * an explicit state's keys (the bytes that do not go to Other, increasing)
 * right after them and their targets after the keys. A chain stands for a
 * run of single-successor states: it reads its label's N bytes (in
 * STRINGS) and goes to Next after the last, to Other on any other byte. A
 * state that falls back (Flags F) reads any other byte again in Other, a
 * state whose own Other is itself (verified). The two codes past the
 * largest offset a code can hold are the verdicts: allowed, disallowed. At
 * most two steps a path byte (a label reads eight bytes a word, a scan
 * eight or sixteen), so the time is linear in the path whatever the blob
 * holds. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec.h"
#include "format.h"
#include "program.h"
#include "url.h"
#include "robotsc/runtime.h"

#ifdef RSC_COUNT_STEPS
extern size_t rsc_steps;
#define DFA_STEPS(n) (rsc_steps += (n))
#else
#define DFA_STEPS(n) ((void)0)
#endif

/* sel->accel set to this: the selection runs the programs (program.h). */
const uint32_t rsc_dfa_programs_only = 0x50524f47u;

/* A DFA as matching reads it: CODE, STRINGS, the widths (w: a code's
 * bytes, 1 or 2; lw: a label offset's, as a mask), the verdicts' first code
 * (va: allowed, va + 1 disallowed). The words are also one array, fix,
 * which a selection keeps as it is (rsc_dfa_resolve). */
#define DVIEW_WORDS 7
typedef struct dview {
    const uint8_t *code, *str;  /* CODE; STRINGS                        */
    const uint8_t *last8;       /* the last byte an 8-byte load may start */
    union {
        struct {
            uint32_t k, start, size; /* records; the start's code; CODE bytes */
            uint32_t w, lw, lmask, va;
        };
        uint32_t fix[DVIEW_WORDS];
    };
} dview;
_Static_assert(offsetof(dview, va) + 4 == offsetof(dview, fix) + sizeof(uint32_t[DVIEW_WORDS]),
               "fix covers every word of the view");

/* Extra figures of a DFA, for rsc_selection_engine. */
typedef struct dinfo {
    uint32_t rules;
    size_t bytes;
} dinfo;

/* The DFA of set k, when it has one (a non-empty span of DFAS Data). */
static int dfa_of_set(const rsc_program *prog, uint32_t k, dview *d, dinfo *info)
{
    uint32_t a, b;
    if (!rsc_dfa_span(prog, k, &a, &b))
        return 0;
    const uint8_t *p = prog->base + PRIV(prog, P_DFA_DATA) + a;
    d->k = rsc_uv(&p), d->start = rsc_uv(&p);
    const uint32_t rules = rsc_uv(&p);
    d->size = rsc_uv(&p);
    d->w = *p & 0xfu, d->lw = *p >> 4;
    d->code = p + 1, d->str = STR(prog);
    d->lmask = 0xffffffffu >> (32 - 8 * d->lw), d->va = RSC_DFA_CODES(d->w);
    d->last8 = prog->base + prog->size - 8; /* a blob has at least 12 bytes */
    if (info)
        info->rules = rules, info->bytes = b - a;
    return 1;
}

/* A selection of one rule set uses only sets[0]: the set's DFA, opened
 * once by rsc_select() (rsc_dfa_resolve), is kept in sets[1..] so that a
 * match reads a few words instead of the DFAS table and the DFA's head
 * (about 150 instructions, more than some whole matches).
 * Private fields: only this file writes or reads them. */
enum { V_CODE = 1, V_FIX, V_END = V_FIX + DVIEW_WORDS };
_Static_assert(V_END <= RSC_MAX_SELECT, "the view fits in sets[1..]");

const uint32_t rsc_dfa_cached = 0x44464121u; /* sel->accel: sets[1..] hold a view */

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
    v[V_CODE] = (uint32_t)(d.code - b);
    memcpy(v + V_FIX, d.fix, sizeof d.fix);
    sel->accel = &rsc_dfa_cached;
}

/* The view that rsc_dfa_resolve() kept in sel (sel->accel is rsc_dfa_cached). */
RSC_HOT void cached_view(const rsc_selection *sel, dview *d)
{
    const uint8_t *b = sel->prog->base;
    const uint32_t *v = sel->sets;
    d->code = b + v[V_CODE], d->str = STR(sel->prog);
    d->last8 = b + sel->prog->size - 8;
    /* word by word: a block copy into d (its stores, then the loop's loads
     * of the same words) measured 3% slower at the median corpus list */
    d->k = v[V_FIX], d->start = v[V_FIX + 1], d->size = v[V_FIX + 2], d->w = v[V_FIX + 3];
    d->lw = v[V_FIX + 4], d->lmask = v[V_FIX + 5], d->va = v[V_FIX + 6];
}

/* The DFA sel runs: its one rule set's, unless sel was told to run the
 * programs. */
RSC_HOT int dfa_of(const rsc_selection *sel, dview *d)
{
    if (!sel || !sel->prog || sel->n_sets != 1 || sel->accel == (const void *)&rsc_dfa_programs_only)
        return 0;
    if (sel->accel != (const void *)&rsc_dfa_cached)
        return dfa_of_set(sel->prog, sel->sets[0], d, NULL);
    cached_view(sel, d);
    return 1;
}

/* A record's fields (FORMAT.md, DFAS): h is its first four bytes (Flags,
 * N, Other; the section's padding keeps the load inside it), r the record,
 * w the code width (a constant where it is hot: run_w). */
#define R_N(h) ((h) >> 8 & 0xffu)
#define R_OTHER(h, w) ((w) == 1 ? (h) >> 16 & 0xffu : (h) >> 16)
RSC_HOT uint32_t rcode(const uint8_t *p, unsigned w)
{
    return w == 1 ? p[0] : rsc_rd16(p);
}
#define R_NEXT(r, w) rcode((r) + 2 + (w), w)                 /* a chain's  */
#define R_LOFF(d, r, w) (rsc_rd32((r) + 2 + 2 * (w)) & (d)->lmask)
#define R_KEYS(r, w) ((r) + 2 + (w))                          /* explicit   */
#define R_TARGET(r, w, n, x) rcode((r) + 2 + (w) + (n) + (size_t)(x) * (w), w)

/* The bytes of the record at r. */
static uint32_t rec_bytes(const dview *d, const uint8_t *r)
{
    return RSC_DFA_REC_BYTES(r[0], (uint32_t)r[1], d->w, d->lw);
}

/* The index of c among the n keys at k (n when none): eight keys a load
 * while the blob has eight bytes from there (keys are distinct). Most
 * states have at most sixteen keys: one or two loads and no loop. */
RSC_HOT uint32_t key_index(const dview *d, const uint8_t *k, uint32_t n, uint8_t c)
{
    uint32_t i = 0;
    if (n - 1 < 8 && k <= d->last8) { /* one load: n is 1 to 8 */
        const uint64_t m = rsc_eq_lanes(rsc_rd64le(k), c) & (~0ull >> (64 - 8 * n));
        return m ? rsc_low_lane(m) : n;
    }
    if (n - 9 < 8 && k + 8 <= d->last8) { /* two: 9 to 16 */
        const uint64_t m = rsc_eq_lanes(rsc_rd64le(k), c);
        if (m)
            return rsc_low_lane(m);
        const uint64_t m2 = rsc_eq_lanes(rsc_rd64le(k + 8), c) & (~0ull >> (64 - 8 * (n - 8)));
        return m2 ? 8 + rsc_low_lane(m2) : n;
    }
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

/* State s (a code below va) on byte c, *j bytes into its label. A byte
 * that a falling-back state does not take is read again in its Other,
 * which verification made a state that never falls back: one more turn at
 * most. */
RSC_HOT uint32_t dstep_w(const dview *d, uint32_t s, uint32_t *j, uint8_t c, const unsigned w)
{
    for (;;) {
        const uint8_t *r = d->code + s;
        const uint32_t h = rsc_rd32(r), n = R_N(h);
        if (h & RSC_DFA_L) { /* a chain: its label's byte *j */
            if (c == d->str[R_LOFF(d, r, w) + *j]) {
                if (++*j < n)
                    return s;
                *j = 0;
                return R_NEXT(r, w);
            }
            *j = 0;
        } else {
            const uint32_t x = key_index(d, R_KEYS(r, w), n, c);
            if (x < n)
                return R_TARGET(r, w, n, x);
        }
        if (!(h & RSC_DFA_F))
            return R_OTHER(h, w);
        s = R_OTHER(h, w);
    }
}

static uint32_t dstep(const dview *d, uint32_t s, uint32_t *j, uint8_t c)
{
    return d->w == 1 ? dstep_w(d, s, j, c, 1) : dstep_w(d, s, j, c, 2);
}

/* The first i in [i, n) where p[i] is one of k[0..3], NUL or term (n when
 * none): a state that every other byte keeps (the one after "/ *" waiting
 * for ".pdf") reads its path sixteen bytes a step (eight where the target
 * has no vectors), its row read once. Sixteen: 2.7% fewer instructions
 * over the corpus lists, 3.4% less time (www.news.com.au: 4.4% fewer
 * instructions). */
RSC_HOT size_t scan_keys(const uint8_t *p, size_t i, size_t n, const uint8_t k[4], uint8_t term)
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

/* A scan for more than four keys: a bitmap of the nk keys at k, NUL and
 * term, made once when the scan's state is entered (its stops are often
 * short excursions, after which the scan goes on: run_w), then one test a
 * byte. */
static void set_of(uint32_t set[8], const uint8_t *k, uint32_t nk, uint8_t term)
{
    memset(set, 0, 8 * sizeof *set);
    set[0] = 1; /* NUL */
    set[term >> 5] |= 1u << (term & 31);
    for (uint32_t x = 0; x < nk; x++)
        set[k[x] >> 5] |= 1u << (k[x] & 31);
}

RSC_HOT size_t scan_set(const uint8_t *p, size_t i, size_t n, const uint32_t set[8])
{
    while (i < n && !(set[p[i] >> 5] >> (p[i] & 31) & 1))
        i++;
    return i;
}

/* The path from p[i] along a label from lab[*j] (len bytes in all), a
 * byte a step: label_run()'s tail, and the whole of a label with at most
 * eight bytes left (most are that short: "/", a word's next letters), on
 * which the word loop's setup cost more than it saved. */
RSC_HOT size_t label_short(const uint8_t *p, size_t i, size_t n, const uint8_t *lab, uint32_t *jp,
                           uint32_t len, uint8_t term)
{
    uint32_t j = *jp;
    while (j < len && i < n && p[i] == lab[j] && p[i] != 0 && p[i] != term)
        i++, j++;
    *jp = j;
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
    *jp = j;
    return label_short(p, i, n, lab, jp, len, term);
}

/* scan_one() after a look at the next four bytes: the byte a chain waits
 * for (a '/', a '-') is often that close. */
RSC_HOT size_t scan_short(const uint8_t *p, size_t i, size_t n, uint8_t k, uint8_t term)
{
    const size_t e = n - i > 4 ? i + 4 : n;
    while (i < e && p[i] != k && p[i] != 0 && p[i] != term)
        i++;
    return i == e && e < n ? scan_one(p, i, n, k, term) : i;
}

/* google: the path bytes as they are, up to a NUL or term. A chain's
 * label is compared with the path eight bytes a word; a state whose
 * default is itself scans for the bytes that leave it (scan_keys,
 * scan_set). One copy for each code width (run_raw), the width a
 * constant in it. */
RSC_HOT uint32_t run_w(const dview *d, uint32_t s, const uint8_t *p, size_t n, uint8_t term,
                       int slash, const unsigned w)
{
    const uint32_t va = d->va;
    uint32_t j = 0;
    size_t i = 0;
    if (slash && s < va)
        s = dstep_w(d, s, &j, '/', w);
    while (s < va) {
        const uint8_t *r = d->code + s;
        const uint32_t h = rsc_rd32(r), len = R_N(h), o = R_OTHER(h, w);
        if (h & RSC_DFA_L) { /* a chain: as many label bytes as the path has */
            const uint8_t *lab = d->str + R_LOFF(d, r, w);
            if (j == 0 && o == s) /* back here on any other byte */
                i = scan_short(p, i, n, lab[0], term);
            if (i < n && p[i] != lab[j]) { /* the usual way out: its first byte */
                if (p[i] == 0 || p[i] == term)
                    break;
                i += !(h & RSC_DFA_F), j = 0, s = o;
                continue;
            }
            /* p[i] is the label's byte j (or the path ended): the last one
             * (often the only one, "/") goes on with no label loop */
            if (len - j == 1 && i < n && p[i] != 0 && p[i] != term) {
                s = R_NEXT(r, w), j = 0, i++;
                continue;
            }
            i = len - j <= 8 ? label_short(p, i, n, lab, &j, len, term)
                             : label_run(p, i, n, lab, &j, len, d->last8, term);
            if (j == len) {
                s = R_NEXT(r, w), j = 0;
                continue;
            }
            if (i == n || p[i] == 0 || p[i] == term)
                break; /* the path ends in the label: its E */
            i += !(h & RSC_DFA_F), j = 0, s = o; /* a fall-back reads p[i] again there */
            continue;
        }
        const uint8_t *key = R_KEYS(r, w);
        if (o == s && len) { /* a scan: every byte but its keys stays here */
            const uint8_t k[4] = {key[0], key[len > 1], key[len > 2 ? 2 : 0],
                                  key[len > 3 ? 3 : 0]};
            uint32_t t = s, set[8]; /* the move of the key the scan stops at */
            if (len > 4)
                set_of(set, key, len, term);
            for (;;) {
                i = len <= 4 ? scan_keys(p, i, n, k, term) : scan_set(p, i, n, set);
                if (i == n || p[i] == 0 || p[i] == term)
                    break;
                const uint32_t x = key_index(d, key, len, p[i]);
                if (x >= len) /* (a scan stops at a key) */
                    break;
                t = R_TARGET(r, w, len, x);
                /* A short excursion, the usual stop where a key byte is
                 * common ('/', '-', a letter): the key's state falls back
                 * here and does not take the next byte, so the scan goes
                 * on from that byte (read again here, as a fall-back reads
                 * it): one test instead of three turns of the loop. */
                if (i + 1 < n && t < va) {
                    const uint8_t c2 = p[i + 1], *q = d->code + t;
                    const uint32_t ht = rsc_rd32(q);
                    if (c2 != 0 && c2 != term && (ht & RSC_DFA_F) && R_OTHER(ht, w) == s &&
                        (ht & RSC_DFA_L ? d->str[R_LOFF(d, q, w)] != c2
                                        : key_index(d, R_KEYS(q, w), R_N(ht), c2) >= R_N(ht))) {
                        i++, t = s;
                        continue;
                    }
                }
                break;
            }
            if (t != s) { /* the move found: taken as the step below would */
                i++, s = t;
                continue;
            }
        }
        if (i == n || p[i] == 0 || p[i] == term)
            break;
        /* dstep() on this record, whose fields are read already */
        const uint8_t c = p[i++];
        const uint32_t x = key_index(d, key, len, c);
        if (x < len)
            s = R_TARGET(r, w, len, x);
        else
            s = h & RSC_DFA_F ? dstep_w(d, o, &j, c, w) : o;
    }
    DFA_STEPS(i + 1);
    return s;
}

RSC_HOT uint32_t run_raw(const dview *d, uint32_t s, const uint8_t *p, size_t n, uint8_t term,
                        int slash)
{
    return d->w == 1 ? run_w(d, s, p, n, term, slash, 1) : run_w(d, s, p, n, term, slash, 2);
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
            if (s < d->va)
                s = dstep(d, s, &j, out[x]), steps++;
        }
        if (i == n || (s >= d->va && !*rob) || p[i] == 0 || p[i] == term)
            break;
        size_t used;
        k = rsc_pct_normal_path(p + i, n - i, out, &used);
        i += used;
    }
    DFA_STEPS(steps + 1);
    *rob = *rob && rk == sizeof rt - 1;
    return s;
}

/* The rfc profile's verdict, apart from the google profile's loop (the
 * normalisation of run_rfc stays out of rsc_dfa_verdict). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int rfc_verdict(const rsc_selection *sel, const uint8_t *p, size_t n, uint8_t term, int slash)
{
    dview d;
    int rob;
    if (!dfa_of(sel, &d))
        return -1;
    const uint32_t s = run_rfc(&d, d.start, p, n, term, slash, &rob);
    if (rob)
        return 1;
    return s < d.va ? !(d.code[s] & RSC_DFA_E) : s == d.va;
}

/* The verdict of the DFA d for the path p[0..n): its run from the start,
 * then the end state's E, or the verdict the run stopped at. */
RSC_HOT int view_verdict(const dview *d, const uint8_t *p, size_t n, uint8_t term, int slash)
{
    uint32_t s = d->start;
    if (s < d->va)
        s = run_raw(d, s, p, n, term, slash);
    return s < d->va ? !(d->code[s] & RSC_DFA_E) : s == d->va;
}

/* 1 allowed, 0 disallowed, -1 when sel runs no DFA (match.c then runs the
 * programs). */
int rsc_dfa_verdict(const rsc_selection *sel, const uint8_t *p, size_t n, uint8_t term, int slash)
{
    dview d;
    /* The usual call (a selection that runs its blob's DFA, google
     * profile) tests one pointer and a flag, then reads the view that
     * rsc_dfa_resolve() kept; the other engines are tried in the branch.
     * One call of run_raw(), so that it is inlined once. */
    if (!sel || sel->accel != (const void *)&rsc_dfa_cached || (sel->prog->flags & RSC_FLAG_PROFILE_RFC)) {
        if (sel && sel->prog && (sel->prog->flags & RSC_FLAG_PROFILE_RFC)) /* rsc_program_profile(), without a call */
            return rfc_verdict(sel, p, n, term, slash);
        if (!dfa_of(sel, &d))
            return -1;
    } else {
        cached_view(sel, &d);
    }
    return view_verdict(&d, p, n, term, slash);
}

/* rsc_match_url() without m for a selection that runs its blob's DFA
 * (sel->accel is &rsc_dfa_cached), which it calls as its last act: spec
 * G's path start and the run in one frame, with no test of the engine
 * left. Over the corpus lists 3.8% fewer instructions than a check
 * through verdict() and rsc_dfa_verdict() (8.7% at the median list). */
int rsc_dfa_url(const rsc_selection *sel, const char *url, size_t len)
{
    size_t off;
    int slash;
    if (!rsc_path_start(url, len, &off, &slash))
        return rsc_dfa_verdict(sel, (const uint8_t *)"", 0, 0, 1);
    const uint8_t *p = (const uint8_t *)url + off;
    if (sel->prog->flags & RSC_FLAG_PROFILE_RFC)
        return rsc_dfa_verdict(sel, p, len - off, '#', slash);
    dview d;
    cached_view(sel, &d);
    return view_verdict(&d, p, len - off, '#', slash);
}

/* ---- The engine of a selection ------------------------------------------ */

rsc_status rsc_dfa_defer(rsc_selection *sel)
{
    rsc_status st;
    if (sel->n_sets == 1 && (st = rsc_verify_dfa(sel->prog, sel->sets[0])) != RSC_OK)
        return st; /* before rsc_dfa_resolve() reads it */
    rsc_dfa_resolve(sel);
    if (sel->accel == (const void *)&rsc_dfa_cached) {
        sel->sets[RSC_SEL_DEFER] = RSC_SEL_DEFERRED;
        return RSC_OK;
    }
    for (uint32_t k = 0; k < sel->n_sets; k++) { /* (their DFAs, unverified, are not read) */
        uint32_t a, b;
        if (rsc_dfa_span(sel->prog, sel->sets[k], &a, &b) &&
            (st = rsc_verify_set(sel->prog, sel->sets[k])) != RSC_OK)
            return st;
    }
    return RSC_OK;
}

rsc_status rsc_selection_use(rsc_selection *sel, int engine)
{
    dview d;
    if (!sel || !sel->prog)
        return RSC_E_ARG;
    if (engine == RSC_ENGINE_PROGRAMS) {
        if (rsc_sel_deferred(sel)) {
            rsc_status st = rsc_verify_set(sel->prog, sel->sets[0]);
            if (st)
                return st;
            sel->sets[RSC_SEL_DEFER] = 0;
        }
        sel->accel = &rsc_dfa_programs_only;
        return RSC_OK;
    }
    if (engine != RSC_ENGINE_DFA)
        return RSC_E_ARG;
    if (sel->accel != (const void *)&rsc_dfa_cached) /* the programs */
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
    v->code = (uint32_t)(d.code - b), v->size = d.size;
    v->str = (uint32_t)(d.str - b);
    v->width = d.w, v->lab_width = d.lw, v->allowed = d.va;
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
        uint32_t keys = 0; /* the explicit states' keys */
        for (uint32_t c = 0; c < d.size; c += rec_bytes(&d, d.code + c))
            keys += d.code[c] & RSC_DFA_L ? 0 : d.code[c + 1];
        z.bytes = di.bytes, z.states = d.k, z.classes = keys, z.rules = di.rules;
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

/* Dense rows: 1.0 wrote a selection's automata out as dense tables in the
 * caller's memory, and 1.1's development the blob's DFA as u16 rows. Since
 * the check's shorter path (rsc_dfa_url) those measured no faster than the
 * blob's DFA (144 of 316 corpus lists slower on them; docs/DFA.md,
 * "Tried"), so they are gone: the size is 0 ("none to build"), and a build
 * returns RSC_E_LIMIT with sel left as it is, as 1.0's did for a size too
 * small, so that a 1.0 caller keeps running the selection as selected. */
size_t rsc_accel_size(const rsc_selection *sel)
{
    (void)sel;
    return 0;
}

rsc_status rsc_accel_build(rsc_selection *sel, void *buf, size_t size)
{
    (void)size;
    if (!sel || !sel->prog || !buf || ((uintptr_t)buf & 7u))
        return RSC_E_ARG;
    return RSC_E_LIMIT;
}
