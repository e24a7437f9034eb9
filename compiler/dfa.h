/* Patterns to priority-annotated DFAs (compiler-internal).
 *
 * A pattern is an escaped robots.txt path pattern (spec D): '*' matches any
 * byte sequence, a final '$' (given as anchored = 1, not in bytes) anchors
 * the end; every other byte, '$' included, is a literal. A non-anchored
 * pattern matches a path when it matches a prefix of it (spec E.1).
 *
 * Running a DFA over a path with one register (see docs/FORMAT.md,
 * "Matching") yields the highest rank among the patterns that match:
 *   reg = 0; s = 0
 *   for each byte c: reg = max(reg, accept[s]) ; s = next[s][class[c]]
 *                    (stop when s is dead)
 *   at the end: reg = max(reg, accept[s], end[s])
 * (accept[] of the state entered is folded in before the next byte.)
 * ceiling[s] is the best rank still reachable from s: end[s] and the
 * accept/end of every state reachable by one or more bytes. */
#ifndef ROBOTSC_DFA_H
#define ROBOTSC_DFA_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h"

#define RSC_DFA_DEAD UINT32_MAX

typedef struct rsc_pat {
    const uint8_t *bytes;
    size_t len;
    uint32_t rank;    /* >= 1; distinct patterns may share no rank */
    uint8_t anchored; /* pattern ended in '$' (not included in bytes) */
} rsc_pat;

typedef struct rsc_dfa {
    uint32_t n_states;  /* state 0 is the start state                  */
    uint32_t n_classes; /* 1..256                                       */
    uint8_t classmap[256];
    uint32_t *next;     /* n_states * n_classes; RSC_DFA_DEAD = dead    */
    uint32_t *accept;   /* per state, 0 = none                          */
    uint32_t *end;      /* per state, 0 = none                          */
    uint32_t *ceiling;  /* per state                                    */
} rsc_dfa;

typedef struct rsc_dfa_options {
    int no_minimize;          /* testing: keep the subset-construction DFA */
    uint32_t budget_per_byte; /* state budget = base + this * pattern bytes */
    uint32_t budget_base;
} rsc_dfa_options;

/* Builds one DFA for pats[0..n). Returns RSC_E_LIMIT (and no DFA) when the
 * state budget would be exceeded, RSC_E_NOMEM on allocation failure. */
rsc_status rsc_dfa_build(rsc_mem *m, const rsc_pat *pats, size_t n,
                         uint32_t max_states, int minimize, rsc_dfa *out);

/* Builds the automata for one rule set, splitting the patterns into several
 * DFAs whose results combine exactly (maximum of ranks) when one DFA would
 * exceed its budget (docs/LIMITS.md). *out is an array of *n_out DFAs,
 * freed with rsc_dfa_free_all(). */
rsc_status rsc_dfa_build_set(rsc_mem *m, const rsc_pat *pats, size_t n,
                             const rsc_dfa_options *opt, rsc_dfa **out,
                             size_t *n_out);

void rsc_dfa_free(rsc_mem *m, rsc_dfa *d);
void rsc_dfa_free_all(rsc_mem *m, rsc_dfa *d, size_t n);

/* Runs a DFA over bytes as described above (for tests and debugging). */
uint32_t rsc_dfa_run(const rsc_dfa *d, const uint8_t *s, size_t len);

/* Additions (automata engineer): the engine behind rsc_dfa_build with all
 * its limits, for rsc_dfa_build_set, tests and measurements. A limit of 0
 * means none (max_states 0 means 1). RSC_E_LIMIT as soon as one is passed. */
typedef struct rsc_dfa_limits {
    uint32_t max_states;  /* states of the subset construction            */
    uint64_t max_cells;   /* states x classes                             */
    uint64_t max_threads; /* position ids stored over all subsets         */
    uint64_t max_work;    /* thread steps (one id on one class)           */
} rsc_dfa_limits;

typedef struct rsc_dfa_stats {
    uint32_t subset_states; /* before minimisation (or when the limit hit) */
    uint32_t states;        /* of the result                              */
    uint64_t threads;       /* position ids stored                        */
    uint64_t work;          /* thread steps                               */
} rsc_dfa_stats;

/* Measurement switches (docs/LIMITS.md); results stay correct. */
#define RSC_DFA_F_NO_SUBSUME 1 /* plain NFA position sets: no fact (a)     */
#define RSC_DFA_F_KEEP_DONE 2  /* completed patterns stay in subsets: (b)  */
#define RSC_DFA_F_NO_PRUNE 4   /* keep threads of rank <= accept           */

rsc_status rsc_dfa_build_ex(rsc_mem *m, const rsc_pat *pats, size_t n,
                            const rsc_dfa_limits *lim, int minimize,
                            int flags, rsc_dfa *out, rsc_dfa_stats *stats);

typedef struct rsc_dfa_set_stats {
    uint32_t attempts;      /* DFA constructions tried                    */
    uint32_t failed;        /* of which hit a limit                       */
    uint64_t work;          /* thread steps over all attempts             */
    int exhausted;          /* the set's work budget ran out (singles)    */
} rsc_dfa_set_stats;

/* rsc_dfa_build_set with statistics (stats may be NULL). */
rsc_status rsc_dfa_build_set_ex(rsc_mem *m, const rsc_pat *pats, size_t n,
                                const rsc_dfa_options *opt, rsc_dfa **out,
                                size_t *n_out, rsc_dfa_set_stats *stats);

#endif
