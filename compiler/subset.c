/* SPDX-License-Identifier: Apache-2.0 */
/* The subset core shared by dfa.c and explore.c (subset.h). */
#include <string.h>

#include "subset.h"

uint32_t rsc_sub_text(const uint8_t *t, uint32_t len, uint8_t *out, int *anch)
{
    uint32_t n = 0, keep = 0; /* keep: the length up to the last byte that is not '*' */
    for (uint32_t i = 0; i < len; i++) {
        if (t[i] == '*' && n > 0 && t[i - 1] == '*')
            continue; /* the byte before is the one kept before: runs of '*' */
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

/* Each rule is read from its end: a residual is its first code and the
 * residual after it, interned in an open-addressed table of (code << 16 |
 * 1, next id, id) triples (the 1 tells a used slot), at most two thirds
 * full. */
uint64_t rsc_sub_residuals(const uint16_t *pcode, uint32_t np, uint32_t *rid, uint32_t *nstar,
                           uint32_t *scratch)
{
    const uint32_t hs = np + np / 2 + 2;
    uint32_t *h = scratch;
    memset(h, 0, (size_t)hs * 12);
    uint64_t work = 0;
    uint32_t nid = 0;
    for (uint32_t first = 0, end = 0; end < np; end++) { /* a rule's positions: first..end */
        if (!(pcode[end] & (P_DONE | P_MATCH)))
            continue;
        uint32_t next = RSC_SUB_NONE, star = RSC_SUB_NONE;
        for (uint32_t p = end + 1; p-- > first;) {
            /* the verdict is not part of a residual: (a) holds across them */
            const uint32_t key = (uint32_t)(pcode[p] & ~P_ALLOW) << 16 | 1u;
            uint32_t x = (key ^ next * 0x9e3779b1u) * 0x85ebca6bu;
            x ^= x >> 15;
            uint32_t j = (uint32_t)(((uint64_t)x * hs) >> 32);
            while (h[3 * j] && (h[3 * j] != key || h[3 * j + 1] != next))
                j = j + 1 == hs ? 0 : j + 1, work++;
            if (!h[3 * j])
                h[3 * j] = key, h[3 * j + 1] = next, h[3 * j + 2] = nid++;
            rid[p] = next = h[3 * j + 2];
            if (pcode[p] & P_STAR)
                star = p;
            nstar[p] = star;
        }
        work += end + 1 - first;
        first = end + 1;
    }
    return work;
}
