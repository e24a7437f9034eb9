/* SPDX-License-Identifier: Apache-2.0 */
/* The explorer (compiler-internal): priority-annotated subset construction
 * over an abstract rule list, built lazily under a budget, and a
 * breadth-first walk over one rule set or the product of two. diff.c and
 * semlint.c use it; it knows nothing of blobs, agents or the IR. Its
 * positions, residuals and dominance are the subset core's (subset.h),
 * shared with the compile-time determiniser (dfa.c).
 *
 * note [explorer states]
 * A rule is a match text over bytes with '*' a wildcard, anchored or not
 * (a final '$' stripped), a rank (higher wins: priority, then allow, then
 * the earlier line, docs/SEMANTICS.md E.6-E.7) and its verdict. Its
 * positions are subset.h's (note [positions]): a position says "the path
 * read so far can be the prefix of a match of the rule's text up to it".
 * A state is a set of live positions plus the best rule matched so far:
 *  - a non-anchored rule whose position reaches its end has matched for
 *    every extension of the path: it becomes the best if it outranks it,
 *    and its positions go;
 *  - positions of rules ranked at or below the best go (they can never
 *    decide);
 *  - RSC_X_VERDICT keeps the best's verdict only, and drops, from the
 *    bottom of the live rules up, every rule of the best's verdict ranked
 *    below the lowest live rule of the other verdict: if such a rule is the
 *    best match of some extension, the answer is the best's verdict anyway.
 *    Two paths that reach the same state have the same verdict on every
 *    extension, so the product of two such automata differs exactly where
 *    some reachable pair's end-of-path verdicts differ;
 *  - RSC_X_RANK keeps the best's rank, so a state names the rule that
 *    decides each path (semantic lint: a rule is dead exactly when no
 *    reachable state's end-of-path decider is that rule).
 * The end-of-path decider also counts anchored rules whose position is at
 * their end. Positions that a live one dominates (subset.h, note
 * [dominance]: it matches whenever they do and outranks them) are dropped
 * too, which keeps the deciding rule of every path, so it is exact in both
 * modes; and a state keeps no closure under '*' (its moves start from the
 * closure). States are interned as sorted sets; a state's moves are
 * computed once, on first use: one successor per byte that some live
 * position reads next, and one for every other byte (the wildcard
 * positions alone). */
#ifndef ROBOTSC_EXPLORE_H
#define ROBOTSC_EXPLORE_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h"
#include "robotsc/compiler.h"

typedef struct rsc_xrule {
    const uint8_t *bytes; /* match text without its anchoring '$'; '*' any bytes */
    uint32_t len;
    uint32_t rank; /* >= 1, distinct within a list; higher wins */
    uint32_t line; /* for reports only */
    uint8_t anchored, allow;
} rsc_xrule;

enum { RSC_X_RANK = 0, RSC_X_VERDICT = 1 };

/* A state's moves: default successor, then n (byte, successor) pairs in
 * increasing byte order. Valid until the next rsc_xdfa_moves() call. */
typedef struct rsc_xmoves {
    uint32_t other;
    uint32_t n;
    const uint32_t *pairs; /* 2n words: byte, state */
} rsc_xmoves;

typedef struct rsc_xdfa rsc_xdfa;

/* A lazy automaton over rules[0..n) (borrowed: they must outlive it).
 * Budgets: at most max_states states and max_words 32-bit words of
 * positions and moves (0: defaults). Returns RSC_OK, RSC_E_NOMEM, or
 * RSC_E_LIMIT when even the start state is over the budget. */
rsc_status rsc_xdfa_new(rsc_mem *m, const rsc_xrule *rules, size_t n, int mode,
                        size_t max_states, size_t max_words, rsc_xdfa **out);
void rsc_xdfa_free(rsc_xdfa *x);
uint32_t rsc_xdfa_start(const rsc_xdfa *x); /* the empty path's state */
size_t rsc_xdfa_count(const rsc_xdfa *x);   /* states built so far */
/* The moves of state s (building them and new states): RSC_OK,
 * RSC_E_NOMEM, or RSC_E_LIMIT when the budget is exhausted. */
rsc_status rsc_xdfa_moves(rsc_xdfa *x, uint32_t s, rsc_xmoves *mv);
/* The successor of s on byte c (through rsc_xdfa_moves). */
rsc_status rsc_xdfa_step(rsc_xdfa *x, uint32_t s, uint8_t c, uint32_t *next);
/* End of path at s: the deciding rule's index in the list, or -1 when no
 * rule decides (RSC_X_RANK); in RSC_X_VERDICT only *allowed is exact and
 * the index is -1 when the verdict came from an earlier state. */
int32_t rsc_xdfa_end(const rsc_xdfa *x, uint32_t s, int *allowed);

/* ---- the walk ------------------------------------------------------------ */

/* The paths walked: every path starts with '/' (spec G: a URL's path does)
 * and holds no NUL and no '#' (a URL's path never does). In the rfc profile
 * (rfc = 1) paths are the normalised ones (no byte >= 0x80) and the path
 * "/robots.txt", always allowed there, is flagged exempt. */
typedef struct rsc_xwalk rsc_xwalk;

/* Called once per node reached, in breadth-first order (so the first node
 * with a property has a shortest path): node id, the two states (sb is 0
 * without b) and whether the path is exempt. Returns 0 to go on, 1 to
 * stop the walk, or a negative rsc_status to fail it. */
typedef int (*rsc_xvisit_fn)(void *ud, rsc_xwalk *w, uint32_t node, uint32_t sa, uint32_t sb,
                             int exempt);

/* Walks a (or the product of a and b, b nullable) over at most max_nodes
 * nodes (0: the default). Returns RSC_OK when every reachable node was
 * visited or the visitor stopped the walk, RSC_E_LIMIT when a budget (the
 * nodes', or an automaton's) was exhausted first, RSC_E_NOMEM. *walk
 * (nullable) receives the walk for rsc_xwalk_path(); free it with
 * rsc_xwalk_free() (also after a failure). */
rsc_status rsc_xwalk_run(rsc_mem *m, rsc_xdfa *a, rsc_xdfa *b, int rfc, size_t max_nodes,
                         rsc_xvisit_fn fn, void *ud, rsc_xwalk **walk);
size_t rsc_xwalk_nodes(const rsc_xwalk *w);
/* The path to node (its bytes, shortest), written to buf when it fits in
 * cap; returns its length. */
size_t rsc_xwalk_path(const rsc_xwalk *w, uint32_t node, uint8_t *buf, size_t cap);
void rsc_xwalk_free(rsc_xwalk *w);

/* The rules a verified program's sets can produce (diff.c): every rank
 * its programs hold, as explorer rules in rank order (match texts point
 * into the blob). *out is allocated with m: n + 1 entries. */
rsc_status rsc_xrules_of_sets(rsc_mem *m, const rsc_program *prog, const uint32_t *sets,
                              size_t n_sets, rsc_xrule **out, size_t *n);

#define RSC_X_DEFAULT_STATES 200000u
#define RSC_X_DEFAULT_WORDS (16u * 1024u * 1024u) /* 64 MiB */
#define RSC_X_DEFAULT_NODES 400000u

#endif
