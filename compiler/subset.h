/* SPDX-License-Identifier: Apache-2.0 */
/* The subset core (compiler-internal): what the compile-time determiniser
 * (dfa.c) and the explorer behind diff and semantic lint (explore.c) share.
 * Both are subset constructions over the positions of a rule list, with
 * the ranks folded in; they differ in what a state keeps (the best match's
 * verdict in dfa.c and in the explorer's RSC_X_VERDICT, the deciding rule
 * in RSC_X_RANK) and in how they are bounded (a fixed buffer and a work
 * cap, where blobs must be small and compiles fast; budgets of states and
 * words, where diff and lint answer "unknown" past them). What a position
 * is, when two positions have the same residual and when one dominates
 * another is defined here once, so that the two cannot drift apart: a
 * diff's "same" and the DFA in the blob rest on the same argument.
 *
 * note [positions]
 * A rule's match text is normalised first (rsc_sub_text): a final '$'
 * read off as "anchored", runs of '*' made one, trailing '*'s dropped
 * (then the '$' changes nothing: "s*$" is "s", spec E.3-E.4). Its
 * positions are its bytes and one past its last; they are numbered rule
 * by rule, the rules in increasing rank (lowest first), and within a rule
 * by offset, so a higher number is a better claim to decide: a higher
 * rank, or the same rule further along. A position's code (u16):
 *  - the byte it reads next (the explorer), or that byte's class (dfa.c),
 *    in bits 0-7;
 *  - or P_STAR: a '*' (the next position is live as well);
 *  - or, one past the last byte, P_DONE when the rule is anchored (it
 *    matches when the path ends there) and P_MATCH when it is not (it has
 *    matched, whatever follows);
 *  - with P_ALLOW on every position of an allowing rule.
 *
 * note [dominance]
 * A position's residual is what its rule has left to match: the rest of
 * its code sequence (the kind of its end included, the verdict not).
 * rsc_sub_residuals() numbers them: equal residuals, equal ids. Position
 * q dominates p when q's rule matches on every path on which p's does and
 * q is above p (a higher position): then p can never decide, and a state
 * without it means the same function from path endings to deciding rules
 * (and so to verdicts). Two sufficient cases, by residual id:
 *  (a) q's residual equals p's;
 *  (b) q's residual is "*X" and p's rule has a '*' at or after p whose
 *      residual is "*X" too: p's match needs X to match after that '*',
 *      and then q's matches.
 * Scanning a state's positions from the highest down, every position
 * seen marks its residual, so a mark always comes from a dominating one
 * (rsc_sub_dominated). Without this, rules that share a tail ("/a/ *.pdf",
 * "/b/ *.pdf") multiply the states by every combination of heads seen;
 * with it such states merge as they are built. */
#ifndef ROBOTSC_SUBSET_H
#define ROBOTSC_SUBSET_H

#include <stddef.h>
#include <stdint.h>

#define P_STAR 0x100u  /* a '*': it stays, and the next position is live */
#define P_DONE 0x200u  /* an end-anchored rule's end: matches at the end */
#define P_MATCH 0x400u /* a rule's end: the rule matches                */
#define P_ALLOW 0x800u /* on each of an allowing rule's positions         */
#define P_KIND (P_STAR | P_DONE | P_MATCH)
#define RSC_SUB_NONE 0xffffffffu

/* Normalises the match text t[0..len) (without its '$'; *anch says
 * whether it had one) as note [positions] says: writes it to out when out
 * is not NULL, returns its length and clears *anch when a trailing '*'
 * went (then the '$' changes nothing). */
uint32_t rsc_sub_text(const uint8_t *t, uint32_t len, uint8_t *out, int *anch);

/* The u32s of scratch rsc_sub_residuals() takes for np positions. */
static inline size_t rsc_sub_scratch(uint32_t np)
{
    return 3 * ((size_t)np + np / 2 + 2);
}

/* Numbers the residuals of the positions pcode[0..np) (note [dominance];
 * every rule ends with a P_DONE or P_MATCH position) into rid[0..np), and
 * links each position to the first '*' at or after it in its rule
 * (nstar, RSC_SUB_NONE when none). scratch: rsc_sub_scratch(np) u32s,
 * a hash table for this pass only. Returns the work done: one step a
 * position and one a probe past the first (dfa.c counts it against its
 * cap). */
uint64_t rsc_sub_residuals(const uint16_t *pcode, uint32_t np, uint32_t *rid, uint32_t *nstar,
                           uint32_t *scratch);

#if defined(__GNUC__) || defined(__clang__)
#define RSC_SUB_INLINE static inline __attribute__((always_inline))
#else
#define RSC_SUB_INLINE static inline
#endif

/* Whether residual q is marked for position p of a scan from the highest
 * position down: mark[q] == clk, or, with sm given (dfa.c's note [shared
 * '*' list]), sm[q] == sclk from a position above p (stop[q] > p). */
RSC_SUB_INLINE int rsc_sub_marked(uint32_t q, uint32_t p, const uint32_t *mark, uint32_t clk,
                                  const uint32_t *sm, uint32_t sclk, const uint32_t *stop)
{
    return mark[q] == clk || (sm && sm[q] == sclk && stop[q] > p);
}

/* Case (b) of note [dominance] for position p: whether the residual of one
 * of the first max_stars '*'s after p in its rule is marked (as
 * rsc_sub_marked() says). A '*' at p itself is skipped: its residual is
 * p's own, case (a). Each '*' walked is a step, added to *steps. dfa.c
 * walks every '*' (max_stars UINT32_MAX) and counts the steps against its
 * work cap; the explorer, which has no such cap, walks a few: a position
 * not found dominated is only kept, which is as exact. */
RSC_SUB_INLINE int rsc_sub_star_marked(const uint32_t *rid, const uint32_t *nstar, uint32_t p,
                                       const uint32_t *mark, uint32_t clk, const uint32_t *sm,
                                       uint32_t sclk, const uint32_t *stop, uint32_t max_stars,
                                       uint32_t *steps)
{
    uint32_t k = nstar[p];
    if (k == p)
        k = nstar[p + 1], ++*steps;
    for (uint32_t left = max_stars; k != RSC_SUB_NONE && left; k = nstar[k + 1], left--) {
        ++*steps;
        if (rsc_sub_marked(rid[k], p, mark, clk, sm, sclk, stop))
            return 1;
    }
    return 0;
}

/* Whether position p (of residual r = rid[p]) is dominated, in a scan
 * from the highest position down (note [dominance]): r itself is marked
 * (a), or rsc_sub_star_marked() (b). The scan marks r after the call,
 * kept or not. */
RSC_SUB_INLINE int rsc_sub_dominated(const uint32_t *rid, const uint32_t *nstar, uint32_t p, uint32_t r,
                                     const uint32_t *mark, uint32_t clk, const uint32_t *sm, uint32_t sclk,
                                     const uint32_t *stop, uint32_t max_stars, uint32_t *steps)
{
    return rsc_sub_marked(r, p, mark, clk, sm, sclk, stop) ||
           rsc_sub_star_marked(rid, nstar, p, mark, clk, sm, sclk, stop, max_stars, steps);
}

#endif
