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
    int no_prune;       /* testing: keep entries that can never decide  */
} rsc_compile_options;

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

#ifdef __cplusplus
}
#endif
#endif
