/* SPDX-License-Identifier: Apache-2.0 */
/* Reference for the rfc profile (ref_robots.h, profile 1), written from the
 * text of RFC 9309 alone: it shares no code with the library and none with
 * the google reference but spec G's URL-to-path step (ref_url_path), which
 * the RFC leaves to the URI's own definition. Each decision names the RFC
 * section it follows; where the RFC is silent or says MAY, the profile's
 * choice is the one docs/SEMANTICS.md ("The rfc profile") writes down, and
 * the comment says so ("choice").
 *
 * Deliberately naive: every rule is matched on its own with a position-set
 * walk over a token list (literal octets and wildcards), O(path x pattern). */
#include <stdlib.h>
#include <string.h>

#include "ref_robots.h"

#define RFC_MAX_BODY 512000u /* 2.5: at least 500 KiB parsed; the profile parses exactly that */

static int ws(unsigned char c) /* 2.2, ABNF: WS = %x20 / %x09 */
{
    return c == ' ' || c == '\t';
}

static unsigned char lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* 2.2: ABNF quoted strings are case-insensitive (RFC 5234 2.3). */
static int same_key(const char *s, size_t n, const char *name)
{
    size_t k = strlen(name);
    if (n != k)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)s[i]) != (unsigned char)name[i])
            return 0;
    return 1;
}

static int add(ref_robots *r, size_t *cap, int number, int key, const char *v, size_t n)
{
    if (r->n_lines == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        ref_line *l = realloc(r->lines, nc * sizeof *l);
        if (!l)
            return -1;
        r->lines = l;
        *cap = nc;
    }
    ref_line *l = &r->lines[r->n_lines];
    l->number = number;
    l->key = key;
    l->value = malloc(n + 1);
    if (!l->value)
        return -1;
    if (n)
        memcpy(l->value, v, n);
    l->value[n] = 0;
    l->value_len = n;
    r->n_lines++;
    return 0;
}

/* One line, its end excluded. Only the RFC's own records are kept: other
 * records never change a verdict (2.2.4: they "MUST NOT interfere"), and a
 * line that parses as nothing is ignored (2.2: "MUST use the parseable
 * rules"). */
static int line(ref_robots *r, size_t *cap, int number, const char *s, size_t n)
{
    const char *z = memchr(s, 0, n); /* choice: a NUL ends the line's useful part */
    if (z)
        n = (size_t)(z - s);
    const char *h = memchr(s, '#', n); /* 2.2: EOL = *WS [comment] NL */
    if (h)
        n = (size_t)(h - s);
    size_t i = 0;
    while (i < n && ws((unsigned char)s[i])) /* 2.2: *WS before the key */
        i++;
    const char *colon = memchr(s + i, ':', n - i); /* 2.2: ":" is required */
    if (!colon)
        return 0;
    size_t ke = (size_t)(colon - s);
    while (ke > i && ws((unsigned char)s[ke - 1]))
        ke--;
    int key;
    if (same_key(s + i, ke - i, "user-agent"))
        key = REF_KEY_UA;
    else if (same_key(s + i, ke - i, "allow"))
        key = REF_KEY_ALLOW;
    else if (same_key(s + i, ke - i, "disallow"))
        key = REF_KEY_DISALLOW;
    else
        return 0; /* 2.2.4: another record (misspellings included) */
    size_t vb = (size_t)(colon - s) + 1, ve = n;
    while (vb < ve && ws((unsigned char)s[vb]))
        vb++;
    while (ve > vb && ws((unsigned char)s[ve - 1]))
        ve--;
    /* choice: the value's bytes are kept whatever they are (no product
     * token, no leading '/', a space, a control byte, invalid UTF-8) */
    return add(r, cap, number, key, s + vb, ve - vb);
}

int ref_rfc_parse(ref_robots *r, const char *body, size_t len)
{
    static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
    memset(r, 0, sizeof *r);
    r->profile = 1;
    if (len > RFC_MAX_BODY) /* 2.5 */
        len = RFC_MAX_BODY;
    size_t cap = 0, i = 0;
    /* choice (2.3 names UTF-8 only): a BOM, or any prefix of one, is skipped */
    while (i < len && i < 3 && (unsigned char)body[i] == bom[i])
        i++;
    int number = 0;
    size_t start = i;
    /* 2.2: NL = %x0D / %x0A / %x0D.0A; no line is cut (2.5 limits the body) */
    for (; i < len; i++) {
        char c = body[i];
        if (c != '\r' && c != '\n')
            continue;
        if (line(r, &cap, ++number, body + start, i - start) < 0)
            goto oom;
        if (c == '\r' && i + 1 < len && body[i + 1] == '\n')
            i++;
        start = i + 1;
    }
    if (line(r, &cap, ++number, body + start, len - start) < 0) /* the last line */
        goto oom;
    return 0;
oom:
    ref_free(r);
    return -1;
}

/* ---- matching (2.2.2, 2.2.3) -------------------------------------------- */

static int hexv(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = lower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* RFC 3986 2.3 */
static int unreserved(unsigned c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '.' || c == '_' || c == '~';
}

#define STAR (-1)

/* Normalises s[0..n) into tokens (octets 0..255, or STAR): 2.2.2, octets
 * outside ASCII percent-encoded; a %-encoded unreserved octet decoded, any
 * other escape kept (choice: hex digits upper-cased, RFC 3986 6.2.2.1 makes
 * the cases equivalent). In a pattern '*' is the wildcard and a final '$'
 * the end anchor (2.2.3: *anchor set, the '$' not a token); any other '$'
 * of a pattern, and every '*' and '$' of a path, is the octet itself, which
 * 2.2.3 says a pattern matches only as %2A and %24: both sides write it so.
 * Returns the number of tokens; out has room for 3n. */
static size_t tokens(const unsigned char *s, size_t n, int pattern, int *out, int *anchor)
{
    static const char hx[] = "0123456789ABCDEF";
    size_t o = 0;
    *anchor = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned c = s[i];
        int a, b;
        if (pattern && c == '*') {
            out[o++] = STAR;
        } else if (pattern && c == '$' && i + 1 == n) {
            *anchor = 1;
        } else if (c == '%' && i + 2 < n && (a = hexv(s[i + 1])) >= 0 &&
                   (b = hexv(s[i + 2])) >= 0) {
            unsigned v = (unsigned)(a * 16 + b);
            i += 2;
            if (unreserved(v)) {
                out[o++] = (int)v;
            } else {
                out[o++] = '%', out[o++] = hx[v >> 4], out[o++] = hx[v & 15];
            }
        } else if (c >= 0x80 || c == '*' || c == '$' || c == '%') {
            /* a '%' without two hex digits is the octet 0x25 (2.2.2
             * compares octets), so it never matches the '%' of an escape */
            out[o++] = '%', out[o++] = hx[c >> 4], out[o++] = hx[c & 15];
        } else {
            out[o++] = (int)c;
        }
    }
    return o;
}

/* 2.2.2: "The matching MUST start with the first octet of the path"; a
 * match is a prefix unless anchored (2.2.3). Position sets: cur[i] when the
 * pattern so far can end at path offset i. */
static int matches(const int *path, size_t pn, const int *pat, size_t n, int anchor,
                   unsigned char *cur, unsigned char *nxt)
{
    memset(cur, 0, pn + 1);
    cur[0] = 1;
    for (size_t j = 0; j < n; j++) {
        int any = 0;
        if (pat[j] == STAR) {
            int on = 0;
            for (size_t i = 0; i <= pn; i++) {
                on |= cur[i];
                nxt[i] = (unsigned char)on;
                any |= on;
            }
        } else {
            nxt[0] = 0;
            for (size_t i = 0; i < pn; i++) {
                nxt[i + 1] = cur[i] && path[i] == pat[j];
                any |= nxt[i + 1];
            }
        }
        if (!any)
            return 0;
        memcpy(cur, nxt, pn + 1);
    }
    if (anchor)
        return cur[pn];
    for (size_t i = 0; i <= pn; i++)
        if (cur[i])
            return 1;
    return 0;
}

/* choice (2.2.1 wants a product token; the profile reads other values as
 * Google does, spec F.1, F.2): "*" alone or followed by whitespace is the
 * global group; else the leading run of [A-Za-z_-] is the name. */
static int agent_global(const char *v, size_t n)
{
    return n >= 1 && v[0] == '*' &&
           (n == 1 || v[1] == ' ' || v[1] == '\t' || v[1] == '\n' || v[1] == '\v' ||
            v[1] == '\f' || v[1] == '\r');
}

static size_t agent_name(const char *v, size_t n)
{
    size_t k = 0;
    while (k < n && ((v[k] >= 'a' && v[k] <= 'z') || (v[k] >= 'A' && v[k] <= 'Z') ||
                     v[k] == '-' || v[k] == '_'))
        k++;
    return k;
}

/* 2.2.1: case-insensitive; the caller's token is used as given. */
static int names(const char *v, size_t n, const ref_str *agents, size_t na)
{
    size_t k = agent_name(v, n);
    for (size_t a = 0; a < na; a++) {
        if (agents[a].len != k)
            continue;
        size_t i = 0;
        while (i < k && lower((unsigned char)v[i]) == lower((unsigned char)agents[a].ptr[i]))
            i++;
        if (i == k)
            return 1;
    }
    return 0;
}

typedef struct best {
    int prio, line; /* prio -1: none */
} best;

ref_verdict ref_rfc_check(const ref_robots *r, const ref_str *agents, size_t n_agents,
                          const char *url, size_t url_len, int is_path)
{
    ref_verdict v = {1, 0, 0, -1};
    char *raw = malloc(url_len + 2);
    size_t maxv = 0;
    for (size_t i = 0; i < r->n_lines; i++)
        if (r->lines[i].value_len > maxv)
            maxv = r->lines[i].value_len;
    int *path = malloc((3 * url_len + 7) * sizeof *path);
    int *pat = malloc((3 * maxv + 1) * sizeof *pat);
    unsigned char *cur = malloc(3 * url_len + 7), *nxt = malloc(3 * url_len + 7);
    if (!raw || !path || !pat || !cur || !nxt) {
        v.allowed = -1;
        goto out;
    }
    size_t rn;
    if (is_path) {
        memcpy(raw, url, url_len);
        rn = url_len;
    } else {
        rn = ref_url_path(url, url_len, raw);
    }
    const char *z = memchr(raw, 0, rn); /* choice: a NUL ends the path, as it ends a line */
    if (z)
        rn = (size_t)(z - raw);
    int unused;
    size_t pn = tokens((const unsigned char *)raw, rn, 0, path, &unused);
    static const char rt[] = "/robots.txt";
    int is_rt = pn == sizeof rt - 1;
    for (size_t i = 0; is_rt && i < pn; i++)
        is_rt = path[i] == rt[i];
    if (is_rt) /* 2.2.2: "The /robots.txt URI is implicitly allowed" */
        goto out;

    /* 2.1, 2.2: a group is its user-agent lines and the rules after them; a
     * user-agent line after a rule starts the next group; rules before any
     * user-agent line belong to no group (the ABNF has no place for them).
     * 2.2.1: the groups naming the crawler are merged; only when none
     * does, the "*" groups are (merged too). */
    int in_spec = 0, in_glob = 0, after_rule = 1, named = 0, seen_ua = 0;
    best sa = {-1, 0}, sd = {-1, 0}, ga = {-1, 0}, gd = {-1, 0};
    for (size_t i = 0; i < r->n_lines; i++) {
        const ref_line *l = &r->lines[i];
        if (l->key == REF_KEY_UA) {
            seen_ua = 1;
            if (after_rule)
                in_spec = in_glob = after_rule = 0;
            if (agent_global(l->value, l->value_len))
                in_glob = 1;
            else if (names(l->value, l->value_len, agents, n_agents))
                in_spec = named = 1;
            continue;
        }
        if (!seen_ua)
            continue;
        after_rule = 1; /* a group naming neither: its rules still end its agent list */
        if (!in_spec && !in_glob)
            continue;
        if (l->value_len == 0) /* 2.2 empty-pattern: matches nothing */
            continue;
        /* choice: a pattern must start with '/' (2.2, path-pattern) or '*'
         * (the RFC's own 5.1 writes "*.gif$"); any other never matches */
        if (l->value[0] != '/' && l->value[0] != '*')
            continue;
        int anchor;
        size_t n = tokens((const unsigned char *)l->value, l->value_len, 1, pat, &anchor);
        /* 2.2.2: "the match that has the most octets" of the pattern, its
         * '*' and final '$' included: the normalised pattern's octets */
        int prio = (int)n + anchor;
        int allow = l->key == REF_KEY_ALLOW;
        best *b = in_spec ? (allow ? &sa : &sd) : (allow ? &ga : &gd);
        /* choice: the first rule in file order reports (a rule that could
         * not raise b is not matched at all: the same result) */
        if (prio > b->prio && matches(path, pn, pat, n, anchor, cur, nxt))
            b->prio = prio, b->line = l->number;
    }
    const best *a = NULL, *d = NULL;
    if (named) { /* 2.2.1: the named groups, even with no rule that matches */
        a = &sa, d = &sd;
    } else {
        a = &ga, d = &gd;
    }
    /* 2.2.2: the most specific match wins; equivalent allow and disallow
     * (equal octets): "the allow rule SHOULD be used"; no match: allowed */
    if (d->prio > a->prio) {
        v.allowed = 0, v.line = d->line, v.rule_allow = 0, v.priority = d->prio;
    } else if (a->prio >= 0) {
        v.allowed = 1, v.line = a->line, v.rule_allow = 1, v.priority = a->prio;
    }
out:
    free(raw);
    free(path);
    free(pat);
    free(cur);
    free(nxt);
    return v;
}
