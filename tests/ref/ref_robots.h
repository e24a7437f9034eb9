/* SPDX-License-Identifier: Apache-2.0 */
/* Reference matcher for tests: a direct, deliberately naive transcription of
 * ../shared/spec/semantics.md (sections A-G) and notes/google_facts.md. It
 * shares no code with the library (no parser, no IR, no automata): it reads
 * the raw robots.txt text line by line and matches every rule with the
 * O(|path| * |pattern|) position-set algorithm. It exists to catch bugs in
 * the library, so it favours obviousness over speed.
 *
 * Profiles:
 *   0 (google): the reference verdict, with the body cut at 512,000 bytes.
 *   1 (rfc): RFC 9309 read on its own, in ref_rfc.c (written from the RFC's
 *     text, each decision tied to its section; where the RFC is silent, the
 *     choices docs/SEMANTICS.md gives the profile). ref_parse and
 *     ref_check_parsed hand profile 1 to it.
 *
 * Nothing here allocates except ref_parse() (malloc) and the scratch
 * buffers of a check (malloc, freed before returning). */
#ifndef RSC_REF_ROBOTS_H
#define RSC_REF_ROBOTS_H

#include <stddef.h>

/* A byte string (same layout as rsc_bytes, declared separately so that the
 * reference does not depend on the library's headers). */
typedef struct ref_str {
    const char *ptr;
    size_t len;
} ref_str;

typedef struct ref_verdict {
    int allowed;    /* 1 allowed, 0 disallowed                            */
    int line;       /* deciding rule's line, 0 when no rule decided       */
    int rule_allow; /* the deciding rule is an allow (1) or disallow (0)  */
    int priority;   /* its priority (spec E.6), -1 when no rule decided   */
} ref_verdict;

/* Key kinds of a directive line. */
enum { REF_KEY_UA = 1, REF_KEY_ALLOW, REF_KEY_DISALLOW, REF_KEY_SITEMAP,
       REF_KEY_UNKNOWN };

/* One directive line (lines without a directive are not kept). */
typedef struct ref_line {
    int number;  /* 1-based line number (spec A.2) */
    int key;     /* REF_KEY_*                      */
    char *value; /* trimmed; escaped for allow/disallow/unknown (spec D) */
    size_t value_len;
} ref_line;

/* A parsed body: the directive lines in file order. */
typedef struct ref_robots {
    ref_line *lines;
    size_t n_lines;
    int profile;
} ref_robots;

/* Parses a body (google profile: only its first 512,000 bytes). Returns 0
 * on success, -1 when out of memory. */
int ref_parse(ref_robots *r, const char *body, size_t len, int profile);
void ref_free(ref_robots *r);

/* Verdict for a URL (is_path == 0: spec G extracts the path) or a path
 * (is_path != 0: used as given, up to its first NUL). agents[0..n) are the
 * caller's names (spec F.7); n may be 0 (then nothing is specific). */
ref_verdict ref_check_parsed(const ref_robots *r, const ref_str *agents,
                             size_t n_agents, const char *url, size_t url_len,
                             int is_path);

/* ref_parse + ref_check_parsed + ref_free. On out of memory it returns
 * allowed = -1. */
ref_verdict ref_check(const char *body, size_t body_len, const ref_str *agents,
                      size_t n_agents, const char *url, size_t url_len,
                      int profile, int is_path);

/* ref_rfc.c: profile 1's parse and check (called through the two above). */
int ref_rfc_parse(ref_robots *r, const char *body, size_t len);
ref_verdict ref_rfc_check(const ref_robots *r, const ref_str *agents, size_t n_agents,
                          const char *url, size_t url_len, int is_path);

/* Spec G: writes the path of url to out (room for url_len + 2 bytes) and
 * returns its length. No NUL cut (spec A.5 is applied by the matcher). */
size_t ref_url_path(const char *url, size_t url_len, char *out);

/* Spec D: escapes a pattern into out (room for 3 * len bytes); returns the
 * length written. */
size_t ref_escape(const char *s, size_t len, char *out);

/* Spec F.2: the length of the token of a user-agent value that is compared
 * with the caller's agent (0 for a global value). */
size_t ref_extract_agent(const char *v, size_t len);

/* 1 when agent is non-empty and only [A-Za-z_-] (IsValidUserAgentToObey). */
int ref_valid_agent(const char *a, size_t len);

#endif
