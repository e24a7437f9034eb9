/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc compiler: robots.txt text (or its IR) to a verified bytecode blob
 * (docs/FORMAT.md, installed under share/doc/robotsc/docs/), plus lint
 * diagnostics.
 *
 * Ownership: rsc_compile() returns a blob allocated with the options'
 * allocator; free it with rsc_blob_free() and the same options. Diagnostics
 * are delivered to a callback during the call; their strings live only for
 * the duration of the callback.
 *
 * Thread safety: every function is reentrant: the compiler has no global or
 * static mutable state (see ir.h for the parser), so rsc_compile(),
 * rsc_compile_ir(), rsc_lint(), rsc_dump() and rsc_blob_info_get() may run
 * in any number of threads at once. Each call uses only its arguments:
 * several threads may compile from one rsc_ir; an allocator or diagnostic
 * callback shared between threads must itself be thread-safe. */
#ifndef ROBOTSC_COMPILER_H
#define ROBOTSC_COMPILER_H

#include <stddef.h>
#include <stdint.h>

#include "robotsc/ir.h"
#include "robotsc/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Lint warnings: X(enum suffix, name, message). Append only. */
#define RSC_WARNINGS(X)                                                       \
    X(TYPO, "typo", "accepted typo of a directive name")                      \
    X(MISSING_COLON, "missing-colon", "directive without ':' accepted")       \
    X(LINE_TOO_LONG, "line-too-long", "line cut at 16663 bytes")              \
    X(UNKNOWN_DIRECTIVE, "unknown-directive", "unknown directive")            \
    X(RULE_BEFORE_AGENT, "rule-before-agent",                                 \
      "rule before the first user-agent line is ignored")                     \
    X(DEAD_PATTERN, "dead-pattern",                                           \
      "pattern starts with neither '/' nor '*' and can never match")          \
    X(NON_ASCII_PATTERN, "non-ascii-pattern",                                 \
      "non-ASCII byte in a pattern (matched percent-encoded)")                \
    X(BODY_TOO_LARGE, "body-too-large",                                       \
      "body over 500 KiB: the rest is ignored")                               \
    X(NOT_ROBOTS_HTML, "html", "content looks like HTML, not robots.txt")     \
    X(NOT_ROBOTS_BINARY, "binary", "content looks binary, not robots.txt")    \
    X(INVALID_LINE, "invalid-line", "line is not a directive")                 \
    X(RFC_NOT_RECORD, "rfc-not-a-record",                                     \
      "not a record by RFC 9309's ABNF (misspelt or longer key, no ':', or "  \
      "whitespace other than SP and HTAB): ignored in the rfc profile")       \
    X(RFC_AGENT, "rfc-agent",                                                 \
      "user-agent value is not an RFC 9309 product token")                    \
    X(RFC_PATH, "rfc-path",                                                   \
      "rule value is not an RFC 9309 path-pattern ('/' then UTF-8 without "   \
      "controls or spaces)")                                                  \
    X(RFC_BYTES, "rfc-bytes",                                                 \
      "control byte, NUL or invalid UTF-8 where RFC 9309's ABNF allows none")

typedef enum rsc_warning {
#define RSC_X_(e, n, m) RSC_W_##e,
    RSC_WARNINGS(RSC_X_)
#undef RSC_X_
    RSC_W_COUNT
} rsc_warning;

RSC_API const char *rsc_warning_name(int w);    /* "typo", ...               */
RSC_API const char *rsc_warning_message(int w); /* static, human-readable    */

typedef struct rsc_diagnostic {
    int warning;       /* rsc_warning */
    uint32_t line;     /* 0 when it concerns the whole file */
    const char *detail; /* extra text (e.g. the key), may be NULL */
    size_t detail_len;
} rsc_diagnostic;

typedef void (*rsc_diag_fn)(void *ud, const rsc_diagnostic *d);

/* Reports every lint warning of an IR, in line order. */
RSC_API void rsc_lint(const rsc_ir *ir, rsc_diag_fn fn, void *ud);

typedef struct rsc_compile_options {
    rsc_profile profile;
    rsc_alloc_fn alloc; /* nullable: realloc/free */
    void *alloc_ud;
    rsc_diag_fn diag;   /* nullable: lint warnings found while compiling */
    void *diag_ud;
    int no_prune;       /* flags (the name is 1.0's): RSC_COMPILE_NO_PRUNE,
                           RSC_COMPILE_NO_DFA                            */
} rsc_compile_options;
/* no_prune bits. NO_PRUNE (testing): keep entries that can never decide.
 * NO_DFA: write no DFA (format 5's DFAS section, docs/DFA.md): every rule
 * set runs its programs, as one over the DFA budget does; the blob is
 * smaller and compiles faster, for one-shot compile-and-check paths. */
#define RSC_COMPILE_NO_PRUNE 1
#define RSC_COMPILE_NO_DFA 2

typedef struct rsc_blob {
    uint8_t *data;
    size_t size;
} rsc_blob;

/* Compiles a robots.txt body. opt is nullable. On failure out is {NULL,0}. */
RSC_API rsc_status rsc_compile(const void *body, size_t len,
                       const rsc_compile_options *opt, rsc_blob *out);

/* Compiles an IR made by rsc_parse() (its profile must match opt's). */
RSC_API rsc_status rsc_compile_ir(const rsc_ir *ir, const rsc_compile_options *opt,
                          rsc_blob *out);

RSC_API void rsc_blob_free(rsc_blob *b, const rsc_compile_options *opt);

/* Output callback for text writers (no file I/O in the library). */
typedef void (*rsc_write_fn)(void *ud, const char *s, size_t n);

/* Human-readable disassembly of a verified program: header, sections,
 * agents, sets, programs (node by node), rules, sitemaps, directives.
 * Deterministic; the format is pinned by golden tests. */
RSC_API rsc_status rsc_dump(const rsc_program *prog, rsc_write_fn w, void *ud);

/* Counts read off a verified program (for `robotsc info` and benchmarks). */
typedef struct rsc_blob_info {
    int profile;
    size_t size;
    uint32_t n_rules, n_programs, n_sets, n_agents, n_groups;
    uint32_t n_sitemaps, n_directives;
    uint32_t total_nodes, max_nodes; /* trie nodes, over all programs */
    uint32_t n_globs;                /* wildcard edges (EDGES rows), over all programs */
    uint32_t has_global;
} rsc_blob_info;
RSC_API rsc_status rsc_blob_info_get(const rsc_program *prog, rsc_blob_info *info);


/* ---- What changed, and which rules can never matter (docs/DIFF.md) ----
 *
 * Both explore the automata of rule sets exactly (the product of two for
 * rsc_diff(), one for rsc_semlint()) under a budget: past it the answer is
 * "unknown", never a guess. Paths are those a URL can give (spec G): they
 * start with '/', hold no NUL and no '#'; in the rfc profile they are
 * compared normalised, and /robots.txt is always allowed. */

typedef struct rsc_explore_options {
    size_t max_states;  /* states walked (pairs for a diff); 0: 400,000 */
    size_t max_words;   /* 32-bit words of automaton memory a rule set; 0: 16 Mi */
    rsc_alloc_fn alloc; /* nullable: realloc/free */
    void *alloc_ud;
} rsc_explore_options;

#define RSC_DIFF_SAME 0      /* no path's verdict differs                 */
#define RSC_DIFF_DIFFERENT 1 /* some path's does: flips[] has witnesses   */
#define RSC_DIFF_UNKNOWN 2   /* the budget ran out before an answer       */

/* A path whose verdict differs, with the deciding line on each side (0:
 * no rule decided: allowed). Re-checked by rsc_match_path() on both
 * selections before it is reported. */
typedef struct rsc_flip {
    const char *path; /* points into the result; not NUL-terminated */
    size_t len;
    int old_allowed, new_allowed;
    uint32_t old_line, new_line;
} rsc_flip;

typedef struct rsc_diff_result {
    int outcome;     /* RSC_DIFF_*                                        */
    int complete;    /* 1 when every reachable state was visited          */
    size_t states;   /* states visited                                    */
    size_t n_flips;  /* one witness per kind of change (old line, new line,
                        verdicts), shortest first; at most max_witnesses  */
    rsc_flip *flips;
    int more;        /* kinds of change exist beyond those listed         */
    char *priv_paths; /* private */
    size_t priv_cap, priv_flips_cap;
} rsc_diff_result;

/* Compares two selections (of the same profile; the blobs may differ):
 * whether any path's verdict differs, and up to max_witnesses witnesses
 * (0: stop at the first difference, listing it). RSC_E_ARG for NULL or
 * failed selections or different profiles; RSC_E_CORRUPT when a witness
 * does not re-check on the matcher (a blob whose programs disagree with
 * its rules: never one robotsc compiled). Free with
 * rsc_diff_result_free() (also after a failure). */
RSC_API rsc_status rsc_diff(const rsc_selection *old_sel, const rsc_selection *new_sel,
                            size_t max_witnesses, const rsc_explore_options *opt,
                            rsc_diff_result *out);
RSC_API void rsc_diff_result_free(rsc_diff_result *r, const rsc_explore_options *opt);

/* AGENTS row i of a verified program: its (lower-case) token, pointing
 * into the blob. Returns 0 when i is out of range. */
RSC_API int rsc_blob_agent(const rsc_program *prog, size_t i, rsc_bytes *token);

/* Semantic lint: X(enum suffix, name, severity, message). Append only.
 * Severity: 2 warning, 1 note (a note does not make lint exit 1). */
#define RSC_SEMLINTS(X)                                                          \
    X(DEAD_RULE, "dead-rule", 2, "rule never decides a path")                     \
    X(UNSELECTABLE_GROUP, "unselectable-group", 2,                                \
      "no crawler can select this group: every user-agent value has an empty name") \
    X(EMPTY_AGENT, "empty-user-agent", 2, "user-agent without a name")           \
    X(BAD_CRAWL_DELAY, "bad-crawl-delay", 2,                                      \
      "crawl-delay is not a number of seconds (ignored)")                        \
    X(BAD_REQUEST_RATE, "bad-request-rate", 2,                                    \
      "request-rate is not N/T[smhd] (ignored)")                                 \
    X(SITEMAP_NOT_URL, "sitemap-not-url", 2,                                      \
      "sitemap is not an absolute http(s) URL")                                  \
    X(UNSUPPORTED, "unsupported-directive", 2,                                    \
      "directive not supported by Google (ignored)")                             \
    X(BUDGET, "semantic-budget", 1,                                               \
      "rule set too large to analyse within the budget: dead rules not checked")

typedef enum rsc_semlint_code {
#define RSC_X_(e, n, s, m) RSC_SL_##e,
    RSC_SEMLINTS(RSC_X_)
#undef RSC_X_
    RSC_SL_COUNT
} rsc_semlint_code;

RSC_API const char *rsc_semlint_name(int code);    /* "dead-rule", ...; NULL out of range */
RSC_API const char *rsc_semlint_message(int code);
RSC_API int rsc_semlint_severity(int code);        /* 2 warning, 1 note */

typedef struct rsc_semdiag {
    int code;        /* rsc_semlint_code */
    uint32_t line;   /* the rule, group or directive */
    uint32_t other;  /* dead-rule: the line of the rule that always wins, else 0 */
    const char *detail; /* proof sketch or value; lives during the callback */
    size_t detail_len;
} rsc_semdiag;

typedef void (*rsc_semdiag_fn)(void *ud, const rsc_semdiag *d);

/* Semantic lint of an IR (in line order): rules that never decide a path
 * in any selection their group is part of (with a proof sketch: the rule
 * that always wins, a duplicate, an equivalent rule), groups no crawler can
 * select, invalid crawl-delay and request-rate values (the runtime's own
 * parsers judge them), sitemaps that are not absolute URLs, empty
 * user-agents and directives Google ignores (noindex, host, ...). A rule set
 * over the budget gets one RSC_SL_BUDGET note instead of dead-rule
 * verdicts. opt is nullable. Returns RSC_OK, RSC_E_NOMEM or RSC_E_ARG. */
RSC_API rsc_status rsc_semlint(const rsc_ir *ir, const rsc_explore_options *opt,
                               rsc_semdiag_fn fn, void *ud);

#ifdef __cplusplus
}
#endif
#endif
