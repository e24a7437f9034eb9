/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc runtime: load a compiled robots.txt program (a "blob"), verify it
 * once, then answer "may this crawler fetch this URL?" with no allocation,
 * reading the path once per program of the selection: the work per path
 * byte is bounded by the format's budgets, not by the number of rules
 * (docs/LIMITS.md, "Matching one URL"; counted by the tests). Since format
 * 5 the compiler also writes the DFA of each rule set that fits its budget
 * into the blob (docs/DFA.md): a selection of such a rule set runs it from
 * the first URL, at most two rows a path byte, stopping as soon as the verdict is
 * decided, with nothing built at run time; other selections run the
 * programs (one per rule set unless a rule set was over a budget).
 *
 * Dependencies: <stddef.h>, <stdint.h>, <string.h> only (and the compiler's
 * SSE2 intrinsics, inline, where it targets them). The runtime never
 * depends on the compiler or the parser (see docs/ARCHITECTURE.md).
 * The documents cited as docs/... are installed under
 * share/doc/robotsc/docs/; "spec X" is section X of docs/SEMANTICS.md.
 *
 * Safety contract: it is safe to load any byte string. rsc_load() verifies the
 * whole blob before returning RSC_OK; a blob that fails any rule of
 * docs/FORMAT.md is rejected with a status and a byte offset. After a
 * successful load, matching does no checks and cannot fail (with
 * rsc_load_ex(RSC_LOAD_DEFER), a worker's load, rsc_select() and some
 * other calls verify the parts it left before they read them: see there).
 *
 * Thread safety: every function is reentrant (the runtime has no mutable
 * global state). An rsc_program and an rsc_selection are immutable after
 * they are filled in and may be shared by any number of threads.
 *
 * Ownership: rsc_load() borrows the blob; it must stay alive and unchanged
 * while the rsc_program is in use (it may be an mmap'ed file). The runtime
 * never allocates and never returns memory the caller must free. Every
 * pointer it returns points into the blob or to static storage. */
#ifndef ROBOTSC_RUNTIME_H
#define ROBOTSC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Library version. The ABI major (the shared libraries' soname) is
 * RSC_VERSION_MAJOR; rsc_version() gives the version of the library linked,
 * which can differ from these macros when a shared library was replaced. */
#define RSC_VERSION_MAJOR 1
#define RSC_VERSION_MINOR 1
#define RSC_VERSION_PATCH 0
#define RSC_VERSION_STRING "1.1.0"

/* RSC_API marks the public functions: the libraries are built with hidden
 * visibility, so only what carries it is exported from a shared library.
 * Define RSC_API yourself to override (e.g. for a Windows DLL import). */
#ifndef RSC_API
#if defined(__GNUC__) && __GNUC__ >= 4
#define RSC_API __attribute__((visibility("default")))
#else
#define RSC_API
#endif
#endif

#define RSC_FORMAT_MAJOR 5 /* blob format major version this runtime reads */
#define RSC_FORMAT_MINOR 0 /* highest minor it knows; higher minors load  */

/* Status codes. The numeric values are ABI: append only, never renumber. */
typedef enum rsc_status {
    RSC_OK = 0,
    RSC_E_ARG = 1,        /* NULL or inconsistent argument                  */
    RSC_E_NOMEM = 2,      /* an allocation failed (compiler/parser only)    */
    RSC_E_LIMIT = 3,      /* a documented size or state limit was exceeded  */
    RSC_E_IO = 4,         /* file could not be read or written (CLI/tools)  */
    RSC_E_TRUNCATED = 10, /* blob shorter than its header claims            */
    RSC_E_MAGIC = 11,     /* not a robotsc blob at all                      */
    RSC_E_VERSION = 12,   /* a robotsc blob of an unsupported major version */
    RSC_E_CHECKSUM = 13,  /* checksum mismatch: the blob was damaged        */
    RSC_E_CORRUPT = 14,   /* failed verification: see rsc_load_error        */
    RSC_E_SIZE = 15       /* trailing bytes, or Total_Size mismatch         */
} rsc_status;

/* The library version, RSC_VERSION_STRING when it was built: "1.1.0". */
RSC_API const char *rsc_version(void);

/* Static string describing a status, never NULL. */
RSC_API const char *rsc_strerror(int status);

/* Where and why rsc_load() rejected a blob. 'what' is a static string. */
typedef struct rsc_load_error {
    size_t offset;
    const char *what;
} rsc_load_error;

/* A verified program. The fields are private to the runtime: fill it in with
 * rsc_load() only. It holds pointers into the blob, nothing else. */
typedef struct rsc_program {
    const uint8_t *base;
    size_t size;
    uint32_t flags;
    uint32_t priv[40];
} rsc_program;

/* Verifies blob[0..size) and fills *prog. On failure *prog is zeroed, the
 * status says what kind of failure it was and *err (nullable) where. Time is
 * linear in size; it uses about 28 KiB of stack (a bounded trie walk and a
 * bit a byte of one DFA's records; no recursion). */
RSC_API rsc_status rsc_load(rsc_program *prog, const void *blob, size_t size,
                    rsc_load_error *err);

/* rsc_load() with flags (0: rsc_load() itself; any unknown flag:
 * RSC_E_ARG). RSC_LOAD_DEFER, for a worker that checks URLs: verifies at
 * load the checksum over every byte, every table, and the programs of the
 * rule sets without a DFA; each rule set's DFA, and the programs beside
 * it, are verified, whole, before anything reads them:
 * - rsc_select() of one rule set verifies its DFA (RSC_E_CORRUPT when it
 *   fails; about 9 KiB of stack), of several the programs beside their
 *   DFAs (the same);
 * - on a selection of one rule set with a DFA,
 *   rsc_selection_use(RSC_ENGINE_PROGRAMS) verifies its programs (the
 *   same), and so does each rsc_selection_uniform() call (RSC_MIXED when
 *   they fail) and each match with m non-NULL (fails closed: 0,
 *   m->decided 0), in time linear in their size.
 * So a damaged byte is still refused at load (the checksum), a blob made
 * to pass the checksum with a bad DFA is refused by the select that would
 * run it, and nothing runs an unverified byte. A blob of more than 8,192
 * programs is verified whole. A worker that loads a blob and checks one
 * URL does less of the work; to explain many URLs, load with rsc_load().
 * On the corpus's 373 URL lists a load, a select and one check took a
 * median 0.74x the time they take with rsc_load() (docs/DFA.md,
 * "Safety"). */
#define RSC_LOAD_DEFER 1u
RSC_API rsc_status rsc_load_ex(rsc_program *prog, const void *blob, size_t size, unsigned flags,
                       rsc_load_error *err);

/* What a byte string is, for every place where either a robots.txt or a
 * blob may arrive (the CLI's SOURCE, a store's input, Python's parse). One
 * rule, so that a damaged blob never becomes a robots.txt that allows
 * everything:
 * - RSC_INPUT_BLOB: the bytes begin with the blob magic (or are a non-empty
 *   prefix of it), whatever the version byte or the rest. They are a blob:
 *   rsc_load() them; if it fails, that is an error, never a reason to read
 *   them as text.
 * - RSC_INPUT_DAMAGED: at least 4 bytes whose first 4 are the magic with 1
 *   or 2 bits changed: a damaged blob. No text starts so.
 * - RSC_INPUT_BINARY: compressed data (gzip), a UTF-16 byte order mark, or
 *   control bytes (NUL included; not tab, line ends, VT, FF; a run of one
 *   byte counted once) that are at least 4 and more than 1/16 of the first
 *   1024 bytes. A stray NUL or a block of NUL padding is still text.
 * - RSC_INPUT_TEXT: anything else, the empty string included.
 * Callers that read robots.txt text refuse DAMAGED and BINARY unless their
 * caller asks for it (the CLI's --text, Python's text=True); a compiler
 * asked to compile reads any bytes as Google does. Time: the first 1024
 * bytes at most. data may be NULL when len is 0. */
typedef enum rsc_input_kind {
    RSC_INPUT_TEXT = 0,
    RSC_INPUT_BLOB = 1,
    RSC_INPUT_DAMAGED = 2,
    RSC_INPUT_BINARY = 3
} rsc_input_kind;
RSC_API rsc_input_kind rsc_classify(const void *data, size_t len);

/* A static phrase naming a kind ("damaged robotsc blob (...)"), never NULL. */
RSC_API const char *rsc_input_kind_what(int kind);

/* 1 when the blob was compiled with the rfc profile, 0 for google. */
RSC_API int rsc_program_profile(const rsc_program *prog);

/* A byte string that need not be NUL-terminated. */
typedef struct rsc_bytes {
    const char *ptr;
    size_t len;
} rsc_bytes;

#define RSC_MAX_SELECT 32 /* rule sets one selection can hold */

/* The rule sets that apply to one crawler (one or several agent names,
 * spec F.7). Select once per host, match many URLs. Private fields. */
typedef struct rsc_selection {
    const rsc_program *prog;
    uint32_t n_sets;
    uint32_t named; /* 1 when some agent was named by the file (F.6.2) */
    uint32_t sets[RSC_MAX_SELECT];
    uint32_t n_agents; /* AGENTS entries named, for rsc_group_directive() */
    uint32_t agents[RSC_MAX_SELECT];
    uint32_t n_roots; /* the sets' programs (their root offsets), resolved */
    uint32_t roots[RSC_MAX_SELECT]; /* once; 0 when there are more */
    const void *accel; /* NULL (rsc_select), or rsc_selection_use()'s mark */
    uint32_t not_tokens; /* agents given that are not product tokens (see
                            rsc_agent_is_token): readable by the caller */
} rsc_selection;

/* Selects the rule sets for agents[0..n) (compared as spec F.2 says: as
 * given, case-insensitively, with the extracted tokens of the file; a name
 * is never cut or rewritten, docs/SEMANTICS.md "The crawler's name").
 * sel->not_tokens counts the agents that are not product tokens: they are
 * answered as Google answers them (no user-agent line can name them, so
 * they get the '*' group), and a caller should say so, never in silence.
 * For a whole User-Agent header, pass rsc_agent_token()'s token instead.
 * Returns RSC_E_ARG for n == 0 or NULL pointers, RSC_E_LIMIT if the agents
 * name more than RSC_MAX_SELECT distinct rule sets or file tokens. */
RSC_API rsc_status rsc_select(const rsc_program *prog, const rsc_bytes *agents,
                      size_t n, rsc_selection *sel);

/* 1 when name[0..len) is a product token as Google's IsValidUserAgentToObey
 * says: non-empty and only [A-Za-z_-]. A name that is not one can only
 * select the '*' group (or, when empty, groups whose user-agent line holds
 * no token). */
RSC_API int rsc_agent_is_token(const char *name, size_t len);

/* Whether every URL gets the same verdict under a selection (crawler-
 * commons' isAllowAll / isAllowNone): RSC_ALL_ALLOWED when no disallow rule
 * can ever decide (no disallow rule, or every one below an allow rule that
 * matches every path), RSC_ALL_DISALLOWED when a disallow rule matching
 * every path ("/" or "*" and the like) outranks every allow rule, else
 * RSC_MIXED (also for a failed or NULL selection). "Every URL": every path
 * that starts with '/', as every URL's path does (spec G), but for the rfc
 * profile's /robots.txt, which is always allowed. Time is linear
 * in the selected programs' size: call it once per selection. */
#define RSC_ALL_ALLOWED 1
#define RSC_ALL_DISALLOWED 0
#define RSC_MIXED (-1)
RSC_API int rsc_selection_uniform(const rsc_selection *sel);

/* Deprecated since 1.1.0: dense rows, a selection's automata written out
 * into the caller's memory for a hot origin, no longer pay: a selection
 * runs its blob's DFA, which measured as fast (docs/DFA.md, "Tried").
 * rsc_accel_size() returns 0 (none to build); rsc_accel_build() returns
 * RSC_E_LIMIT and leaves sel as it is (1.0's answer for a size too small:
 * sel then runs as selected), RSC_E_ARG for a NULL or failed selection or
 * a NULL or misaligned buf. A caller may drop both calls. */
RSC_API size_t rsc_accel_size(const rsc_selection *sel);
RSC_API rsc_status rsc_accel_build(rsc_selection *sel, void *buf, size_t size);

/* Deprecated since 1.1.0: the DFA is built by the compiler and written
 * into the blob (format 5), so a worker builds nothing and needs no
 * scratch for it: rsc_select() gives a selection that runs its blob's DFA
 * whenever its one rule set has one (rsc_selection_engine() says which).
 * These wrappers keep 1.0 callers correct without work:
 * - rsc_dfa_build() builds nothing and returns RSC_E_LIMIT ("keep the
 *   selection as it is": it leaves sel untouched, so a selection on its
 *   blob's DFA stays on it), *used 0; RSC_E_ARG for a NULL or failed
 *   selection or a NULL or misaligned buf. It needs no buffer: a caller may
 *   drop the call and the RSC_DFA_BUDGET bytes it gave.
 * - rsc_dfa_attach() returns RSC_E_ARG (nothing was built for sel) and
 *   leaves sel untouched.
 * - rsc_dfa_partial() returns 0: a blob holds whole DFAs only.
 * - RSC_DFA_BUDGET stays 1 MiB, for the callers' buffers. */
#define RSC_DFA_BUDGET ((size_t)1 << 20)
RSC_API rsc_status rsc_dfa_build(rsc_selection *sel, void *buf, size_t size, size_t *used);
RSC_API rsc_status rsc_dfa_attach(rsc_selection *sel, const void *dfa, size_t size);

/* Which engine rsc_match_*() uses for sel (with m NULL), and its size.
 * RSC_ENGINE_DFA: the blob's DFA of sel's rule set (a selection of exactly
 * one rule set, compiled with a DFA; docs/DFA.md); RSC_ENGINE_PROGRAMS:
 * the blob's programs (a rule set over the compiler's DFA budget, a blob
 * compiled without DFAs, a selection of several rule sets or of none, or
 * rsc_selection_use(sel, RSC_ENGINE_PROGRAMS)). Calls with m non-NULL
 * (the deciding rule wanted) always run the programs; the verdicts of
 * both engines are the same. RSC_ENGINE_DENSE (deprecated: dense rows,
 * see rsc_accel_build) is never returned. */
#define RSC_ENGINE_PROGRAMS 0 /* the blob's programs                       */
#define RSC_ENGINE_DENSE 1    /* deprecated: never returned                */
#define RSC_ENGINE_DFA 2      /* the blob's DFA                            */
typedef struct rsc_engine_info {
    int engine;
    size_t bytes;          /* the DFA's bytes in the blob (0: programs)   */
    uint32_t states;       /* its states (records; the 2 verdicts apart)  */
    uint32_t classes;      /* its explicit states' keys, all together     */
    uint32_t rules;        /* the rules it was built from                 */
    uint32_t skip_states;  /* 1.0 only: 0                                 */
} rsc_engine_info;
RSC_API int rsc_selection_engine(const rsc_selection *sel, rsc_engine_info *info);
/* Deprecated since 1.1.0: 0 (see rsc_dfa_build). */
RSC_API int rsc_dfa_partial(const rsc_selection *sel);
/* Chooses sel's engine: RSC_ENGINE_PROGRAMS makes every rsc_match_*() call
 * on sel (or a copy) run the programs (for comparisons and tests: the
 * verdicts are the same); RSC_ENGINE_DFA goes back to rsc_select()'s
 * choice and returns RSC_E_LIMIT when sel has no DFA to run (it then runs
 * the programs). RSC_E_ARG for a NULL or failed selection or another
 * engine. Time O(1); sel stays immutable afterwards. */
RSC_API rsc_status rsc_selection_use(rsc_selection *sel, int engine);

/* Where the blob's DFA that sel runs lies, for a binding that runs it in
 * its own language instead of crossing into C for every check (the Go
 * binding does: a cgo call costs about as much as a whole check). Offsets
 * are into the blob rsc_load() verified, laid out as docs/FORMAT.md "DFAS"
 * says: the states are records back to back in CODE, a state's code the
 * offset of its record, width bytes little-endian; allowed and allowed + 1
 * are the verdicts. Returns 1 and fills *v when sel runs a DFA
 * (RSC_ENGINE_DFA) and its blob has the google profile; else 0 (run
 * rsc_match_url()). Valid while the blob is. */
typedef struct rsc_dfa_view {
    uint32_t states, start;  /* K records; the start's code                */
    uint32_t code, size;     /* CODE's offset in the blob and its bytes     */
    uint32_t str;            /* STRINGS' offset (chains' labels)           */
    uint32_t width;          /* a code's bytes: 1 or 2                      */
    uint32_t lab_width;      /* a chain's Lab_Off's bytes: 1 to 4           */
    uint32_t allowed;        /* the code of "allowed"; + 1: "disallowed"   */
} rsc_dfa_view;
RSC_API int rsc_selection_dfa(const rsc_selection *sel, rsc_dfa_view *v);

/* The rule that decided a verdict. */
typedef struct rsc_match {
    int allowed;         /* the verdict: 1 allowed, 0 disallowed          */
    int decided;         /* 1 when a rule decided, 0 for "no rule applied" */
    uint32_t line;       /* source line of the deciding rule, else 0       */
    int rule_allow;      /* 1 allow rule, 0 disallow rule                  */
    uint32_t priority;   /* the rule's priority (spec E.6)                 */
    const char *pattern; /* the rule's escaped pattern, in the blob        */
    size_t pattern_len;
} rsc_match;

/* Verdict for a path (which should start with '/'; spec G gives the path of
 * a URL). Returns 1 allowed, 0 disallowed. m is nullable. A selection that
 * rsc_select() failed to fill (prog NULL) answers 0, disallowed, with
 * m->decided 0: a failed selection never allows by accident (fail closed). */
RSC_API int rsc_match_path(const rsc_selection *sel, const char *path, size_t len,
                   rsc_match *m);

/* Verdict for a URL: extracts the path (spec G), then rsc_match_path(). */
RSC_API int rsc_match_url(const rsc_selection *sel, const char *url, size_t len,
                  rsc_match *m);

/* Spec G: the path, params and query of a URL, as a span of url (*off,
 * *len) plus whether a '/' must be put in front (*slash). A URL with no
 * path gives "/" (*len == 0, *slash == 1). */
RSC_API void rsc_url_path(const char *url, size_t len, size_t *off, size_t *plen,
                  int *slash);

/* Sitemaps, in file order. Returns 0 and leaves outputs untouched when
 * i >= count. */
RSC_API size_t rsc_sitemap_count(const rsc_program *prog);
RSC_API int rsc_sitemap_get(const rsc_program *prog, size_t i, uint32_t *line,
                    rsc_bytes *url);

/* Unknown directives (crawl-delay, request-rate, host, clean-param, ...), in
 * file order. key is as written; value is escaped per spec D. */
RSC_API size_t rsc_directive_count(const rsc_program *prog);
RSC_API int rsc_directive_get(const rsc_program *prog, size_t i, uint32_t *line,
                      rsc_bytes *key, rsc_bytes *value);

/* The value of the first directive named `key` (case-insensitive) in the
 * groups that apply to the selected agents (the global groups when none
 * names them); e.g. key "crawl-delay". Returns 1 when found. */
RSC_API int rsc_group_directive(const rsc_selection *sel, const char *key,
                        rsc_bytes *value, uint32_t *line);

/* The product token of what an HTTP client sends, for rsc_select() (which
 * takes names as given): the explicit entry for a User-Agent header (the
 * CLI's --user-agent, Python's user_agent=). Accepts a bare token
 * ("Googlebot"), "Name/version", or a whole
 * User-Agent header ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://...)":
 * the crawler's token is the first product of the "compatible;" comment,
 * otherwise the first product). *token points into ua. *changed is set to 1
 * when the token differs from the input as given (trimmed or extracted).
 * Returns RSC_OK, or RSC_E_ARG when no valid token ([A-Za-z_-]+) results.
 *
 * In detail (docs/SEMANTICS.md, "Notes"): leading and trailing whitespace is
 * dropped; an input that is then all [A-Za-z_-] is the token. Otherwise the
 * product chosen is, in this order: the item after a "compatible" item of a
 * parenthesised comment (items are separated by ';'); the first item of a
 * comment that starts with a "Name/version" product and holds a URL ("http"),
 * as Applebot's "(Applebot/0.1; +http://...)"; the first product of the
 * input. The token is the [A-Za-z_-] prefix of that product's name, the part
 * a file's user-agent line would be cut to ("Bot2/1" gives "Bot"). */
RSC_API rsc_status rsc_agent_token(const char *ua, size_t len, rsc_bytes *token, int *changed);

/* crawl-delay of the selected groups (spec: first crawl-delay directive of the groups that apply,
 * rsc_group_directive()), parsed as non-negative decimal seconds, fractions allowed ("0.5", "10").
 * Returns 1 and sets *seconds when present and valid, 0 otherwise.
 * Valid: digits with an optional '.' and fraction ("5", "0.5", ".5", "5."),
 * at most 15 integer digits, surrounding whitespace allowed; fraction digits
 * past the 18th are ignored. Anything else ("5s", "-1", "1e3") is invalid. */
RSC_API int rsc_crawl_delay(const rsc_selection *sel, double *seconds);

/* request-rate "N/T" with T an integer optionally followed by s, m, h or d ("1/5", "1/10s", "30/1m").
 * Returns 1 and sets *requests and *seconds when present and valid.
 * N and T are at least 1 and at most 4294967295; spaces may surround '/';
 * the unit is case-insensitive (seconds when absent); a visit-time window
 * after whitespace ("1/10s 0600-0845", from the extended standard) is
 * accepted and ignored. */
RSC_API int rsc_request_rate(const rsc_selection *sel, uint32_t *requests, double *seconds);

#ifdef __cplusplus
}
#endif
#endif
