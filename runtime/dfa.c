/* SPDX-License-Identifier: Apache-2.0 */
/* The blob's DFA engine (docs/DFA.md, docs/FORMAT.md "DFAS"): the
 * compiler determinised each rule set into a DFA written into the blob;
 * rsc_load() verified every index of it, and this file only runs it, from
 * the blob as loaded (zero-copy: no build, no allocation, no scratch). A
 * selection of one rule set that has a DFA runs it; any other selection,
 * and every call that wants the deciding rule, runs the programs.
 *
 * A DFA is a table of row states and one of cells: a state's cells are a
 * sparse row, the bytes that do not go to its Other state, keys
 * increasing. A state with a label stands for a chain of single-successor
 * states: it reads the label's bytes one by one and goes to Next after the
 * last, to Other on any other byte. Two codes past the rows are the verdicts: K allowed, K + 1
 * disallowed. Every path byte is one step, so the time is linear in the
 * path whatever the blob holds. */
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

/* sel->accel set to this: the selection runs the programs (rsc_selection_use). */
static const uint32_t programs_only = 0x50524f47u;

typedef struct dview {
    rsc_ptab st, ce;       /* STATES and CELLS                              */
    const uint8_t *str;    /* STRINGS: the labels                           */
    uint32_t k, start, rules;
    size_t bytes;
} dview;

/* The DFA of set k, when it has one (a non-empty span of DFAS Data). */
static int dfa_of_set(const rsc_program *prog, uint32_t k, dview *d)
{
    if (k >= PRIV(prog, P_DFAS_N))
        return 0;
    uint32_t a = k ? rsc_tab(prog, P_DFAS, k - 1, 0) : 0, b = rsc_tab(prog, P_DFAS, k, 0);
    if (a == b)
        return 0;
    const uint8_t *p = prog->base + PRIV(prog, P_DFA_DATA) + a;
    d->k = rsc_uv(&p), d->start = rsc_uv(&p), d->rules = rsc_uv(&p);
    p = rsc_ptab_open(&d->st, p, RSC_DSTATES_COLS);
    rsc_ptab_open(&d->ce, p, RSC_DCELLS_COLS);
    d->str = STR(prog), d->bytes = b - a;
    return 1;
}

/* The DFA sel runs: its one rule set's, unless sel was told to run the
 * programs. */
static int dfa_of(const rsc_selection *sel, dview *d)
{
    if (!sel || !sel->prog || sel->n_sets != 1 || sel->accel == (const void *)&programs_only)
        return 0;
    return dfa_of_set(sel->prog, sel->sets[0], d);
}

/* State s (a row) on byte c, *j bytes into its label. */
RSC_HOT uint32_t dstep(const dview *d, uint32_t s, uint32_t *j, uint8_t c)
{
    const uint32_t o = rsc_ptab_get(&d->st, s, D_OTHER), n = rsc_ptab_get(&d->st, s, D_LEN);
    const uint32_t f = rsc_ptab_get(&d->st, s, D_NEXT);
    if (o & 2) { /* a chain: its label's byte *j */
        if (c == d->str[rsc_ptab_get(&d->st, s, D_LOFF) + *j]) {
            if (++*j < n)
                return s;
            *j = 0;
            return f;
        }
        *j = 0;
        return o >> 2;
    }
    uint32_t lo = f, hi = f + n; /* a sparse row: its keys increase */
    while (hi - lo > 4) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (rsc_ptab_get(&d->ce, mid, C_KEY) <= c)
            lo = mid;
        else
            hi = mid;
    }
    for (; lo < hi; lo++) {
        const uint32_t k = rsc_ptab_get(&d->ce, lo, C_KEY);
        if (k >= c)
            return k == c ? rsc_ptab_get(&d->ce, lo, C_NEXT) : o >> 2;
    }
    return o >> 2;
}

/* google: the path bytes as they are, up to a NUL or term. */
static uint32_t run_raw(const dview *d, uint32_t s, const uint8_t *p, size_t n, uint8_t term,
                        int slash)
{
    uint32_t j = 0;
    size_t i = 0;
    if (slash && s < d->k)
        s = dstep(d, s, &j, '/');
    for (; i < n && s < d->k; i++) {
        const uint32_t o = rsc_ptab_get(&d->st, s, D_OTHER), len = rsc_ptab_get(&d->st, s, D_LEN);
        if (o >> 2 == s && !(o & 2) && len - 1 < 4) {
            /* a state that every byte but its 1 to 4 keys keeps (the one
             * after "/ *" waiting for ".pdf"): the next key, NUL or term is
             * searched for with the keys in registers, the row read once */
            const uint32_t f = rsc_ptab_get(&d->st, s, D_NEXT);
            uint8_t k[4];
            for (uint32_t x = 0; x < 4; x++)
                k[x] = (uint8_t)rsc_ptab_get(&d->ce, f + (x < len ? x : 0), C_KEY);
            while (i < n && p[i] != k[0] && p[i] != k[1] && p[i] != k[2] && p[i] != k[3] &&
                   p[i] != 0 && p[i] != term)
                i++;
            if (i == n)
                break;
        }
        const uint8_t c = p[i];
        if (c == 0 || c == term)
            break;
        s = dstep(d, s, &j, c);
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

/* 1 allowed, 0 disallowed, -1 when sel runs no DFA (match.c then runs the
 * programs). */
int rsc_dfa_verdict(const rsc_selection *sel, const uint8_t *p, size_t n, uint8_t term, int slash)
{
    dview d;
    if (!dfa_of(sel, &d))
        return -1;
    uint32_t s = d.start;
    if (rsc_program_profile(sel->prog)) {
        int rob;
        s = run_rfc(&d, s, p, n, term, slash, &rob);
        if (rob)
            return 1;
    } else if (s < d.k) {
        s = run_raw(&d, s, p, n, term, slash);
    }
    return s < d.k ? !(rsc_ptab_get(&d.st, s, D_OTHER) & 1) : s == d.k;
}

/* ---- The engine of a selection ------------------------------------------ */

rsc_status rsc_selection_use(rsc_selection *sel, int engine)
{
    dview d;
    if (!sel || !sel->prog)
        return RSC_E_ARG;
    if (engine == RSC_ENGINE_PROGRAMS) {
        sel->accel = &programs_only;
        return RSC_OK;
    }
    if (engine != RSC_ENGINE_DFA)
        return RSC_E_ARG;
    sel->accel = NULL;
    return dfa_of(sel, &d) ? RSC_OK : RSC_E_LIMIT;
}

int rsc_selection_engine(const rsc_selection *sel, rsc_engine_info *info)
{
    rsc_engine_info z;
    dview d;
    memset(&z, 0, sizeof z);
    z.engine = RSC_ENGINE_PROGRAMS;
    if (dfa_of(sel, &d)) {
        z.engine = RSC_ENGINE_DFA;
        z.bytes = d.bytes, z.states = d.k, z.classes = d.ce.n, z.rules = d.rules;
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

/* 1.0's dense rows of a selection's programs: nothing is built. */
size_t rsc_accel_size(const rsc_selection *sel)
{
    (void)sel;
    return 64; /* a header's worth: a caller's malloc of it succeeds */
}

rsc_status rsc_accel_build(rsc_selection *sel, void *buf, size_t size)
{
    (void)size;
    return !sel || !sel->prog || !buf ? RSC_E_ARG : RSC_E_LIMIT;
}
