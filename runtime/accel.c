/* SPDX-License-Identifier: Apache-2.0 */
/* Acceleration: dense rows of a selection's automata, built from the
 * verified blob into the caller's memory (runtime.h, rsc_accel_build).
 * A sparse move reads a state's row, scans its children's keys and
 * follows failure links, a few table reads a byte; a dense row is one
 * load. They are derived data, like RE2's DFA cache or Hyperscan's
 * scratch: the blob stays compact and the caller decides the memory.
 *
 * Row s is its failure target's row with its own children written over
 * it. In an encoder's blob failure links lead to shorter strings and end
 * at the root; a verified blob need not be so: rows stop at the first
 * state whose chain breaks that (build), and the states from there on
 * move the sparse way. Either way the work is linear in the rows built. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format.h"
#include "program.h"
#include "robotsc/runtime.h"

/* The automaton of the program at q (its Data), or 0 for none (no
 * wildcard rule, or a chain, which keeps its own line of states). */
static int automaton(const uint8_t *q, rsc_ptab *st, int *lab)
{
    uint32_t tsize = rsc_uv(&q);
    const uint8_t *g = q + tsize;
    uint32_t shape = rsc_uv(&g);
    rsc_ptab roots;
    g = rsc_ptab_open(&roots, g, RSC_ROOTS_COLS);
    if (!roots.n || (shape & RSC_SHAPE_CHAIN))
        return 0;
    g = rsc_ptab_skip(g, RSC_OUTS_COLS);
    *lab = (shape & RSC_SHAPE_LABELS) != 0;
    rsc_ptab_open(st, g, *lab ? RSC_STATES_COLS_LAB : RSC_STATES_COLS);
    return st->n > 0;
}

/* Byte classes: one for each byte that keys a state (the root's Key is
 * no key), class 0 for the rest. Returns the number of classes, or 0 when
 * 256 bytes key states (no byte is left for class 0: not accelerated). */
static uint32_t classes(const rsc_ptab *st, uint8_t cls[256])
{
    uint32_t n = 1;
    memset(cls, 0, 256);
    for (uint32_t s = 1; s < st->n; s++) {
        uint8_t c = (uint8_t)rsc_ptab_get(st, s, S_KEY);
        if (!cls[c]) {
            if (n == 256)
                return 0;
            cls[c] = (uint8_t)n++;
        }
    }
    return n;
}

#define ALIGN8(x) (((x) + 7u) & ~(size_t)7u)
#define DENSE_HEAD ALIGN8(offsetof(rsc_dense, row))

static int usable(const rsc_selection *sel)
{
    return sel && sel->prog && sel->prog->base && sel->n_roots <= RSC_MAX_SELECT;
}

size_t rsc_accel_size(const rsc_selection *sel)
{
    size_t size = 7 + ALIGN8(sizeof(rsc_accel)); /* 7: any alignment of the buffer */
    if (!usable(sel))
        return size;
    for (uint32_t k = 0; k < sel->n_roots; k++) {
        rsc_ptab st;
        int lab;
        uint8_t cls[256];
        uint32_t nc;
        if (automaton(sel->prog->base + sel->roots[k], &st, &lab) && (nc = classes(&st, cls)))
            size += DENSE_HEAD + ALIGN8((size_t)st.n * nc * 4);
    }
    return size;
}

/* A move's entry: the target's row, flagged when it has a label or an
 * output. */
static uint32_t entry(const rsc_ptab *st, uint32_t t, int lab, uint32_t nc)
{
    int slow = rsc_ptab_get(st, t, S_OUT) != 0 || (lab && rsc_ptab_get(st, t, S_LLEN) != 0);
    return t * nc | (slow ? RSC_DENSE_SLOW : 0);
}

/* Row s from its failure target's row (built) and its own children. */
static void fill(const rsc_ptab *st, int lab, rsc_dense *d, uint32_t s)
{
    const uint32_t nc = d->ncls;
    uint32_t *row = d->row + (size_t)s * nc;
    if (s == 0)
        memset(row, 0, (size_t)nc * sizeof *row);
    else
        memcpy(row, d->row + (size_t)rsc_ptab_get(st, s, S_FAIL) * nc, (size_t)nc * sizeof *row);
    uint32_t first = rsc_ptab_get(st, s, S_FIRST), n = rsc_ptab_get(st, s, S_N);
    for (uint32_t j = 0; j < n; j++) {
        uint8_t c = (uint8_t)rsc_ptab_get(st, first + j, S_KEY);
        row[d->cls[c]] = entry(st, first + j, lab, nc); /* a key is never class 0 */
    }
}

/* Class 0 of a built row is 0 (no state is keyed by its bytes). */
#define UNBUILT 0xffffffffu
#define BUILT(d, s) ((d)->row[(size_t)(s) * (d)->ncls] != UNBUILT)
#define MAX_PENDING 64

/* Builds rows 0 .. kmax-1 into d; returns how many rows hold (a prefix).
 * A failure target has a shorter string, but with labels not always a
 * smaller index (a state sits where its first byte would), so rows are
 * built in index order, each after the unbuilt targets on its failure
 * chain. A chain of more than MAX_PENDING unbuilt states, a target at or
 * past kmax or a loop (none in an encoder's blob) ends the rows there. */
static uint32_t build(const rsc_ptab *st, int lab, rsc_dense *d, uint32_t kmax)
{
    uint32_t pending[MAX_PENDING];
    for (uint32_t s = 0; s < kmax; s++)
        d->row[(size_t)s * d->ncls] = UNBUILT;
    for (uint32_t s = 0; s < kmax; s++) {
        uint32_t n = 0, x = s;
        while (!BUILT(d, x)) {
            if (n == MAX_PENDING)
                return s;
            pending[n++] = x;
            if (x == 0)
                break;
            x = rsc_ptab_get(st, x, S_FAIL);
            if (x >= kmax)
                return s;
        }
        while (n)
            fill(st, lab, d, pending[--n]);
    }
    return kmax;
}

rsc_status rsc_accel_build(rsc_selection *sel, void *buf, size_t size)
{
    if (!usable(sel) || !buf)
        return RSC_E_ARG;
    sel->accel = NULL;
    uint8_t *base = buf;
    size_t at = ALIGN8((uintptr_t)base) - (uintptr_t)base; /* the header's start */
    if (size < at || size - at < sizeof(rsc_accel))
        return RSC_E_LIMIT;
    rsc_accel *a = (rsc_accel *)(void *)(base + at);
    const size_t end = size - at;
    size_t used = ALIGN8(sizeof(rsc_accel));
    memset(a, 0, sizeof *a);
    a->magic = RSC_ACCEL_MAGIC, a->prog = sel->prog, a->n = sel->n_roots;
    memcpy(a->root, sel->roots, sizeof a->root);
    for (uint32_t k = 0; k < sel->n_roots; k++) {
        rsc_ptab st;
        int lab;
        if (!automaton(sel->prog->base + sel->roots[k], &st, &lab))
            continue;
        if (end < used || end - used < DENSE_HEAD + 8)
            break;
        rsc_dense *d = (rsc_dense *)(void *)((uint8_t *)a + used);
        if (!(d->ncls = classes(&st, d->cls)) || st.n > (RSC_DENSE_SLOW - 1) / d->ncls)
            continue; /* entries are t x ncls < 2^31 */
        d->inv = ((1ull << 32) + d->ncls - 1) / d->ncls;
        size_t room = (end - used - DENSE_HEAD) / ((size_t)d->ncls * 4);
        uint32_t kmax = room < st.n ? (uint32_t)room : st.n;
        if (kmax == 0)
            break;
        d->k = build(&st, lab, d, kmax);
        uint32_t first = rsc_ptab_get(&st, 0, S_FIRST);
        d->nlead = rsc_ptab_get(&st, 0, S_N);
        for (uint32_t j = 0; j < 4; j++)
            d->lead[j] = d->nlead ? (uint8_t)rsc_ptab_get(&st, first + (j < d->nlead ? j : 0), S_KEY) : 0;
        a->off[k] = used;
        used += DENSE_HEAD + ALIGN8((size_t)d->k * d->ncls * 4);
    }
    sel->accel = a;
    return RSC_OK;
}
