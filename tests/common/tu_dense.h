/* SPDX-License-Identifier: Apache-2.0 */
/* The dense rows of a selection (rsc_accel_build), for the suites that run
 * every engine: one helper, so that each suite checks the same way. */
#ifndef RSC_TU_DENSE_H
#define RSC_TU_DENSE_H

#include <stddef.h>
#include <stdlib.h>

#include "robotsc/runtime.h"

/* *out becomes sel on its dense rows when sel has some to build (returns 1;
 * free *buf after the last use of *out), or sel as it is when it has none
 * (0: rsc_accel_size() said so). -1 when the size promised rows but the
 * build failed or the selection does not say RSC_ENGINE_DENSE afterwards:
 * a test failure. */
static inline int tu_dense(const rsc_selection *sel, rsc_selection *out, void **buf)
{
    *out = *sel, *buf = NULL;
    const size_t n = rsc_accel_size(sel);
    if (!n)
        return 0;
    /* exactly n bytes, not n rounded up to 8 as aligned_alloc() would want:
     * a build that writes past the size it asked for is then an ASan error
     * (malloc aligns for max_align_t, at least the 8 bytes the rows need) */
    _Static_assert(_Alignof(max_align_t) >= 8, "malloc's alignment");
    if (!(*buf = malloc(n)))
        return -1;
    if (rsc_accel_build(out, *buf, n) != RSC_OK || rsc_selection_engine(out, NULL) != RSC_ENGINE_DENSE) {
        free(*buf);
        *buf = NULL, *out = *sel;
        return -1;
    }
    return 1;
}

/* 1 when sel must get dense rows: it runs a DFA of the google profile (the
 * rfc profile has none) with a row state (a DFA whose start is its verdict
 * has nothing to write out), and at most 16,384 of them, so that its rows
 * stay far below the 65,520 states rsc_accel_size() refuses (a chain is at
 * most two). Every suite asks the same of tu_dense()'s answer. */
static inline int tu_dense_owed(const rsc_selection *sel)
{
    rsc_engine_info info;
    return rsc_selection_engine(sel, &info) == RSC_ENGINE_DFA && !rsc_program_profile(sel->prog) &&
           info.states > 0 && info.states <= 16384;
}

#endif
