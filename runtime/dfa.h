/* SPDX-License-Identifier: Apache-2.0 */
/* Runtime-internal: the layout of a selection's DFA (dfa.c builds it into
 * the caller's buffer, match.c runs it; docs/DFA.md). It holds no pointer
 * into itself, only offsets, so a copy made with memcpy works as well
 * (rsc_dfa_attach). */
#ifndef ROBOTSC_DFA_H
#define ROBOTSC_DFA_H

#include <stddef.h>
#include <stdint.h>

#include "robotsc/runtime.h"

/* The buffer's head. The automaton has k row states, numbered 0..k-1; a
 * row has one u16 entry a byte class (ncls of them), class 0 being the
 * path's end (NUL, and '#' in a URL), then padding to its stride. An entry
 * is a target: a row state t as t x q, whose row starts at (t x q) << sh
 * (so a move is a shift, an add and a load; with sh 0, q is ncls and the
 * entry is the row's start, premultiplied), or one of the final codes:
 * the verdicts lim = k x q (allowed) and lim + 1 (disallowed), and, in a
 * partial DFA only, lim + 2: a state left unbuilt (the programs decide).
 * sh is the least that keeps lim + 2 in 16 bits; the stride, q << sh, is
 * at least ncls. A row's class-0 entry is always a verdict: the one the
 * path gets when it ends there. The rows start RSC_DFA_HEAD bytes after
 * the head.
 *
 * Skip states (the last k - a): every byte but NUL, '#' and at most two
 * others moves such a state to itself (the state after "/ *" waiting for
 * ".pdf"). Their two bytes (the first repeated when one) follow the rows,
 * two a state; a run of moves stops at them (entries >= a x q) and
 * searches sixteen bytes a step for the next byte that may leave. */
#define RSC_DFA_MAGIC 0x32414644u /* "DFA2" */
typedef struct rsc_dfa {
    uint32_t magic, n;          /* n: the selection's programs           */
    const rsc_program *prog;    /* what it was built for, as rsc_accel   */
    uint32_t root[RSC_MAX_SELECT];
    uint32_t used;              /* bytes: the head and the rows          */
    uint32_t k, ncls, lim;      /* row states, classes, k x q            */
    uint32_t q;                 /* a row state's entry is its number x q */
    uint32_t start;             /* the entry before the first path byte  */
    uint32_t rules;             /* rules it was built from (statistics)  */
    uint32_t a;                 /* row states a..k-1 are skip states     */
    uint64_t inv;               /* ceil(2^32 / q): entry to state        */
    uint8_t sh, rfc;            /* a row starts at entry << sh           */
    uint8_t partial, pad_;      /* 1: some entries are lim + 2 (unbuilt) */
    uint8_t cls[2][256];        /* each byte's class: [0] paths, [1] URLs */
} rsc_dfa;

#define RSC_DFA_HEAD ((sizeof(rsc_dfa) + 7u) & ~(size_t)7u)

/* The DFA attached to sel, or NULL (none, a dense-rows buffer, or one
 * built for another program or other programs). */
static inline const rsc_dfa *rsc_dfa_of(const rsc_selection *sel)
{
    const rsc_dfa *d = (const rsc_dfa *)sel->accel;
    if (!d || d->magic != RSC_DFA_MAGIC || d->prog != sel->prog || d->n != sel->n_roots)
        return NULL;
    for (uint32_t k = 0; k < d->n; k++)
        if (d->root[k] != sel->roots[k])
            return NULL;
    return d;
}

/* The verdict of path bytes p[0..n) (ending early at a NUL, or at term
 * when term is '#'), with a '/' in front when slash: 1 allowed, 0
 * disallowed, -1 when the path reaches a state left unbuilt (a partial
 * DFA): the programs decide. The same bytes as match.c's source reads. */
int rsc_dfa_verdict(const rsc_dfa *d, const uint8_t *p, size_t n, uint8_t term, int slash);

#endif
