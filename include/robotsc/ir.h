/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc front end: any bytes in, a faithful intermediate representation
 * (IR) of a robots.txt out, as docs/SEMANTICS.md sections A-D, F.1-F.4 and
 * H say ("spec X" below is section X of that file, installed under
 * share/doc/robotsc/docs/). The IR is what the reference matcher's parser
 * would report, line by line, plus the group structure that the grammar
 * recovers.
 *
 * Ownership: rsc_parse() copies what it needs; the body may be freed after
 * it returns. Every pointer inside an rsc_ir points into memory owned by the
 * IR and lives until rsc_ir_free().
 *
 * Thread safety: every function is reentrant. The parser is a pure
 * (reentrant) bison parser and its re2c lexer keeps its state in the call's
 * own context; neither has global or static mutable state, and the default
 * allocator is realloc/free. Calls on different inputs may run in any
 * number of threads at once; an rsc_ir is read-only after rsc_parse() and may
 * be read by several threads, but rsc_ir_free() must not race its readers. */
#ifndef ROBOTSC_IR_H
#define ROBOTSC_IR_H

#include <stddef.h>
#include <stdint.h>

#include "robotsc/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Allocator, Lua style: nsize == 0 frees ptr and returns NULL; otherwise
 * (re)allocates ptr from osize to nsize bytes, returning NULL on failure.
 * NULL in the options means realloc/free. */
typedef void *(*rsc_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

typedef enum rsc_profile { RSC_PROFILE_GOOGLE = 0, RSC_PROFILE_RFC = 1 } rsc_profile;

#define RSC_MAX_BODY 512000u  /* spec, top: only the first 500 KiB are parsed */
#define RSC_MAX_LINE 16663u   /* spec A.4: bytes kept of one line            */

typedef struct rsc_parse_options {
    rsc_profile profile;
    rsc_alloc_fn alloc; /* nullable */
    void *alloc_ud;
} rsc_parse_options;

typedef struct rsc_str {
    const char *ptr; /* never NULL; not NUL-terminated in general */
    size_t len;
} rsc_str;

/* Lint tag of a line, named as in the reference's parsing reporter. */
typedef enum rsc_tag {
    RSC_TAG_UNKNOWN = 0, /* no directive, or an unknown key            */
    RSC_TAG_USER_AGENT,
    RSC_TAG_ALLOW,
    RSC_TAG_DISALLOW,
    RSC_TAG_SITEMAP,
    RSC_TAG_UNUSED /* a known non-standard key (crawl-delay, ...)   */
} rsc_tag;

/* One line of the body and its lint record (conformance README). */
typedef struct rsc_line {
    uint32_t number;  /* 1-based                                      */
    uint32_t offset;  /* of its first byte in the parsed body          */
    uint32_t length;  /* bytes, line end excluded, before the A.4 cut  */
    uint8_t tag;      /* rsc_tag                                       */
    uint8_t is_empty, has_comment, is_comment, has_directive;
    uint8_t is_acceptable_typo, is_line_too_long, is_missing_colon_separator;
    uint8_t abnf;     /* rfc profile: rsc_abnf, why RFC 9309's ABNF rejects it */
} rsc_line;

/* rfc profile: what RFC 9309's ABNF (section 2.2) says of a line the
 * profile would read as Google does (docs/SEMANTICS.md, the rfc profile). */
typedef enum rsc_abnf {
    RSC_ABNF_OK = 0,
    RSC_ABNF_NOT_RECORD, /* Google reads a user-agent, allow or disallow line the
                            ABNF does not (a misspelt or longer key, no colon,
                            whitespace other than SP and HTAB): ignored */
    RSC_ABNF_AGENT,      /* a user-agent value that is no product token       */
    RSC_ABNF_PATH,       /* a rule value that is not "/" *UTF8-char-noctl     */
    RSC_ABNF_BYTES,      /* a control byte, invalid UTF-8 or NUL outside a value */
    RSC_ABNF_COUNT
} rsc_abnf;

typedef struct rsc_agent {
    uint32_t line;
    uint32_t group; /* index into groups */
    rsc_str raw;    /* trimmed value as written (not escaped, spec D.2) */
    rsc_str token;  /* spec F.2; empty for a global agent               */
    uint8_t global; /* spec F.1                                         */
} rsc_agent;

#define RSC_NO_GROUP UINT32_MAX

typedef struct rsc_rule {
    uint32_t line;
    uint32_t group;   /* index into groups, RSC_NO_GROUP before any agent (F.4) */
    uint8_t allow;    /* 1 allow, 0 disallow                                    */
    rsc_str raw;      /* value as written, trimmed                              */
    rsc_str pattern;  /* escaped per spec D                                     */
    uint32_t priority; /* spec E.6: pattern.len                                 */
} rsc_rule;

/* A group: consecutive user-agent lines, then the rules up to the next
 * user-agent line that follows a rule (spec F.3). */
typedef struct rsc_group {
    uint32_t line;        /* its first user-agent line */
    uint32_t first_agent, n_agents;
    uint32_t first_rule, n_rules;
} rsc_group;

typedef struct rsc_sitemap {
    uint32_t line;
    rsc_str url; /* raw (trimmed, cut at '#'), spec H */
} rsc_sitemap;

typedef struct rsc_directive {
    uint32_t line;
    uint32_t group; /* the group it stands in, or RSC_NO_GROUP */
    rsc_str key;    /* as written, trimmed */
    rsc_str value;  /* escaped per spec D  */
    rsc_str raw;    /* value as written    */
} rsc_directive;

typedef struct rsc_ir {
    rsc_profile profile;
    size_t input_len;  /* bytes given to rsc_parse()                    */
    size_t body_len;   /* bytes parsed: min(input_len, RSC_MAX_BODY)    */
    uint32_t bom_len;  /* bytes of (partial) BOM skipped, spec A.1      */
    uint8_t truncated; /* input_len > RSC_MAX_BODY                       */
    uint8_t looks_html, looks_binary; /* non-robots content heuristics */

    rsc_line *lines;           size_t n_lines;
    rsc_group *groups;         size_t n_groups;
    rsc_agent *agents;         size_t n_agents;
    rsc_rule *rules;           size_t n_rules; /* file order; includes F.4 rules */
    rsc_sitemap *sitemaps;     size_t n_sitemaps;
    rsc_directive *directives; size_t n_directives;

    void *priv; /* allocator state and arena; private */
} rsc_ir;

/* Parses any bytes. Never fails on content: only RSC_E_NOMEM or RSC_E_ARG.
 * *out is NULL on failure. opt is nullable (google profile, malloc). */
RSC_API rsc_status rsc_parse(const void *body, size_t len,
                     const rsc_parse_options *opt, rsc_ir **out);
RSC_API void rsc_ir_free(rsc_ir *ir); /* accepts NULL */

/* Tag names as in the conformance data: "UserAgent", "Allow", ... */
RSC_API const char *rsc_tag_name(int tag);

/* Writes the lint record of lines[i] in exactly the conformance format
 * ("line=N tag=... typo=... is_empty=... ..."), NUL-terminated, snprintf
 * style: returns the length it needs. */
RSC_API size_t rsc_ir_record(const rsc_ir *ir, size_t i, char *buf, size_t size);

/* Spec F.2: the part of a user-agent value compared with the caller's
 * agent; and spec D: escaping of a pattern. rsc_escape_pattern writes at
 * most 3*len bytes to dst and returns the length written. */
RSC_API size_t rsc_extract_agent(const char *value, size_t len);
RSC_API int rsc_is_valid_agent(const char *agent, size_t len);
RSC_API size_t rsc_escape_pattern(const char *src, size_t len, char *dst);

#ifdef __cplusplus
}
#endif
#endif
