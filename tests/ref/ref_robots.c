/* SPDX-License-Identifier: Apache-2.0 */
/* Reference matcher: see ref_robots.h. Every function follows one paragraph
 * of ../shared/spec/semantics.md; the section is cited at each. */
#include "ref_robots.h"

#include <stdlib.h>
#include <string.h>

#define REF_MAX_BODY 512000u /* spec, top: google parses 500 KiB            */
#define REF_MAX_LINE 16663u  /* spec A.4: bytes kept of one line            */

/* ---- character classes ------------------------------------------------ */

/* spec B.2 */
static int is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
           c == '\r';
}

static int is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
           (c >= 'A' && c <= 'F');
}

static unsigned char to_upper(unsigned char c)
{
    return (c >= 'a' && c <= 'z') ? (unsigned char)(c - 'a' + 'A') : c;
}

static unsigned char to_lower(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c - 'A' + 'a') : c;
}

/* spec F.2: the bytes an agent token consists of */
static int is_agent_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '-';
}

/* ASCII case-insensitive equality of two byte strings. */
static int eq_nocase(const char *a, size_t alen, const char *b, size_t blen)
{
    if (alen != blen)
        return 0;
    for (size_t i = 0; i < alen; i++)
        if (to_lower((unsigned char)a[i]) != to_lower((unsigned char)b[i]))
            return 0;
    return 1;
}

/* spec C.1: case-insensitive prefix test */
static int starts_nocase(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && eq_nocase(s, n, prefix, n);
}

/* ---- spec D: escaping --------------------------------------------------- */

size_t ref_escape(const char *s, size_t len, char *out)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '%' && i + 2 < len && is_hex((unsigned char)s[i + 1]) &&
            is_hex((unsigned char)s[i + 2])) {
            out[o++] = '%';
            out[o++] = (char)to_upper((unsigned char)s[i + 1]);
            out[o++] = (char)to_upper((unsigned char)s[i + 2]);
            i += 2;
        } else if (c >= 0x80) {
            out[o++] = '%';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        } else {
            out[o++] = (char)c;
        }
    }
    return o;
}

/* ---- spec F.1, F.2 ------------------------------------------------------ */

size_t ref_extract_agent(const char *v, size_t len)
{
    size_t i = 0;
    while (i < len && is_agent_char((unsigned char)v[i]))
        i++;
    return i;
}

int ref_valid_agent(const char *a, size_t len)
{
    return len > 0 && ref_extract_agent(a, len) == len;
}

static int agent_is_global(const char *v, size_t len)
{
    return len >= 1 && v[0] == '*' && (len == 1 || is_ws((unsigned char)v[1]));
}

/* ---- spec G: URL to path ------------------------------------------------ */

/* Index of the first byte of url[from..len) in set, or len. */
static size_t find_any(const char *url, size_t len, size_t from, const char *set)
{
    for (size_t i = from; i < len; i++)
        if (url[i] && strchr(set, url[i]))
            return i;
    return len;
}

size_t ref_url_path(const char *url, size_t len, char *out)
{
    size_t start = 0;
    if (len >= 2 && url[0] == '/' && url[1] == '/') /* G.1 */
        start = 2;
    /* G.2: a scheme ends at the first "://" unless '/', '?' or ';' comes
     * first. */
    size_t early = find_any(url, len, start, "/?;");
    size_t scheme_end = len;
    for (size_t i = start; i + 3 <= len; i++)
        if (url[i] == ':' && url[i + 1] == '/' && url[i + 2] == '/') {
            scheme_end = i;
            break;
        }
    size_t after = start;
    if (scheme_end < len && scheme_end <= early)
        after = scheme_end + 3;
    /* G.3 */
    size_t pstart = find_any(url, len, after, "/?;");
    size_t o = 0;
    if (pstart == len) {
        out[o++] = '/';
        return o;
    }
    /* G.4: the first '#' (searched from the start of the authority) */
    size_t hash = len;
    for (size_t i = start; i < len; i++)
        if (url[i] == '#') {
            hash = i;
            break;
        }
    if (hash < pstart) {
        out[o++] = '/';
        return o;
    }
    if (url[pstart] != '/') /* G.5 */
        out[o++] = '/';
    memcpy(out + o, url + pstart, hash - pstart);
    return o + (hash - pstart);
}

/* ---- spec A, B, C: parsing ---------------------------------------------- */

/* Appends one directive line to r. Returns -1 when out of memory. */
static int add_line(ref_robots *r, size_t *cap, int number, int key,
                    const char *v, size_t vlen)
{
    if (r->n_lines == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        ref_line *nl = realloc(r->lines, nc * sizeof *nl);
        if (!nl)
            return -1;
        r->lines = nl;
        *cap = nc;
    }
    char *val = malloc(3 * vlen + 1);
    if (!val)
        return -1;
    size_t n;
    if (key == REF_KEY_UA || key == REF_KEY_SITEMAP) { /* D.2: raw */
        memcpy(val, v, vlen);
        n = vlen;
    } else {
        n = ref_escape(v, vlen, val); /* D.1 */
    }
    val[n] = 0;
    ref_line *l = &r->lines[r->n_lines++];
    l->number = number;
    l->key = key;
    l->value = val;
    l->value_len = n;
    return 0;
}

/* Spec B and C: one line (at most REF_MAX_LINE bytes) to a directive. */
static int parse_line(ref_robots *r, size_t *cap, int number, const char *s,
                      size_t len)
{
    /* A.5: NUL ends the line */
    const char *nul = memchr(s, 0, len);
    if (nul)
        len = (size_t)(nul - s);
    /* B.1: comment */
    const char *hash = memchr(s, '#', len);
    if (hash)
        len = (size_t)(hash - s);
    /* B.2: trim */
    size_t b = 0, e = len;
    while (b < e && is_ws((unsigned char)s[b]))
        b++;
    while (e > b && is_ws((unsigned char)s[e - 1]))
        e--;
    if (b == e)
        return 0;
    const char *line = s + b;
    size_t n = e - b;
    /* B.3, B.4: separator */
    size_t kend, vbeg;
    const char *colon = memchr(line, ':', n);
    if (colon) {
        kend = (size_t)(colon - line);
        vbeg = kend + 1;
    } else {
        size_t w = 0;
        while (w < n && line[w] != ' ' && line[w] != '\t')
            w++;
        if (w == n)
            return 0;
        kend = w;
        vbeg = w;
        while (vbeg < n && (line[vbeg] == ' ' || line[vbeg] == '\t'))
            vbeg++;
        for (size_t i = vbeg; i < n; i++)
            if (line[i] == ' ' || line[i] == '\t')
                return 0; /* more than two tokens */
    }
    size_t kb = 0, ke = kend;
    while (kb < ke && is_ws((unsigned char)line[kb]))
        kb++;
    while (ke > kb && is_ws((unsigned char)line[ke - 1]))
        ke--;
    if (kb == ke) /* B.5 */
        return 0;
    size_t vb = vbeg, ve = n;
    while (vb < ve && is_ws((unsigned char)line[vb]))
        vb++;
    while (ve > vb && is_ws((unsigned char)line[ve - 1]))
        ve--;
    /* C.1, C.2 */
    const char *k = line + kb;
    size_t kl = ke - kb;
    int key;
    if (starts_nocase(k, kl, "user-agent") || starts_nocase(k, kl, "useragent") ||
        starts_nocase(k, kl, "user agent"))
        key = REF_KEY_UA;
    else if (starts_nocase(k, kl, "allow"))
        key = REF_KEY_ALLOW;
    else if (starts_nocase(k, kl, "disallow") || starts_nocase(k, kl, "dissallow") ||
             starts_nocase(k, kl, "dissalow") || starts_nocase(k, kl, "disalow") ||
             starts_nocase(k, kl, "diasllow") || starts_nocase(k, kl, "disallaw"))
        key = REF_KEY_DISALLOW;
    else if (starts_nocase(k, kl, "sitemap") || starts_nocase(k, kl, "site-map"))
        key = REF_KEY_SITEMAP;
    else
        key = REF_KEY_UNKNOWN;
    return add_line(r, cap, number, key, line + vb, ve - vb);
}

int ref_parse(ref_robots *r, const char *body, size_t len, int profile)
{
    static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
    if (profile == 1) /* ref_rfc.c */
        return ref_rfc_parse(r, body, len);
    memset(r, 0, sizeof *r);
    r->profile = profile;
    if (len > REF_MAX_BODY) /* spec, top: both profiles build on google */
        len = REF_MAX_BODY;
    char *buf = malloc(REF_MAX_LINE + 1);
    if (!buf)
        return -1;
    size_t cap = 0, blen = 0, i = 0, b = 0;
    int number = 0, prev_cr = 0;
    /* A.1: skip the longest prefix of the body that matches the BOM */
    while (i < len && b < 3 && (unsigned char)body[i] == bom[b]) {
        i++;
        b++;
    }
    for (; i < len; i++) {
        unsigned char c = (unsigned char)body[i];
        if (c != '\n' && c != '\r') {
            if (blen < REF_MAX_LINE) /* A.4: the rest is dropped */
                buf[blen++] = (char)c;
            continue;
        }
        /* A.2: the LF of a CRLF ends nothing */
        if (!(c == '\n' && prev_cr && blen == 0)) {
            if (parse_line(r, &cap, ++number, buf, blen) < 0)
                goto oom;
        }
        blen = 0;
        prev_cr = c == '\r';
    }
    if (parse_line(r, &cap, ++number, buf, blen) < 0) /* A.3 */
        goto oom;
    free(buf);
    return 0;
oom:
    free(buf);
    ref_free(r);
    return -1;
}

void ref_free(ref_robots *r)
{
    for (size_t i = 0; i < r->n_lines; i++)
        free(r->lines[i].value);
    free(r->lines);
    memset(r, 0, sizeof *r);
}

/* ---- spec E: matching --------------------------------------------------- */

/* The position-set matcher (facts file): cur/nxt have room for plen + 1
 * flags. Returns 1 when pat matches a prefix of path (or the whole path
 * when it ends in '$'). */
static int match(const char *path, size_t plen, const char *pat, size_t n,
                 unsigned char *cur, unsigned char *nxt)
{
    /* The bytes before the first '*' are a prefix of the path (E.1); a
     * pattern without '*' is only that (the whole path when it ends with
     * '$', E.3), so most rules need no position sets. */
    const char *star = memchr(pat, '*', n);
    size_t lit = star ? (size_t)(star - pat) : n - (n && pat[n - 1] == '$');
    if (plen < lit || memcmp(path, pat, lit) != 0)
        return 0;
    if (!star)
        return lit == n || plen == lit;
    memset(cur, 0, plen + 1);
    cur[lit] = 1; /* the prefix matched; lo: the smallest position set */
    size_t lo = lit;
    for (size_t j = lit; j < n; j++) {
        char p = pat[j];
        if (p == '$' && j + 1 == n) /* E.3: end anchor */
            return cur[plen];
        size_t nlo = plen + 1;
        if (p == '*') { /* E.2: every position from the smallest on */
            for (size_t i = 0; i <= plen; i++)
                nxt[i] = i >= lo;
            nlo = lo;
        } else {
            memset(nxt, 0, lo + 1);
            for (size_t i = lo; i < plen; i++) {
                nxt[i + 1] = cur[i] && path[i] == p;
                if (nxt[i + 1] && nlo > plen)
                    nlo = i + 1;
            }
        }
        if (nlo > plen)
            return 0;
        lo = nlo;
        memcpy(cur, nxt, plen + 1);
    }
    return 1;
}

typedef struct best {
    int prio; /* -1: nothing matched */
    int line;
} best;

typedef struct matcher {
    const char *path; /* normalised path (rfc) or the path */
    size_t plen;
    unsigned char *cur, *nxt;
    int profile;
} matcher;

/* One rule (pattern pat of priority prio) against the path; updates *bst
 * when it matches with a strictly higher priority (E.7: first in order).
 * A rule that could not raise *bst is not matched at all (the same result,
 * and the fuzzers' time was mostly here). */
static void apply(const matcher *m, const char *pat, size_t n, int prio, int line,
                  best *bst)
{
    if (prio > bst->prio && match(m->path, m->plen, pat, n, m->cur, m->nxt)) {
        bst->prio = prio;
        bst->line = line;
    }
}

ref_verdict ref_check_parsed(const ref_robots *r, const ref_str *agents,
                             size_t n_agents, const char *url, size_t url_len,
                             int is_path)
{
    if (r->profile == 1) /* ref_rfc.c */
        return ref_rfc_check(r, agents, n_agents, url, url_len, is_path);
    ref_verdict v = {1, 0, 0, -1};
    char *path = malloc(url_len + 2);
    if (!path) {
        v.allowed = -1;
        return v;
    }
    size_t plen;
    if (is_path) {
        memcpy(path, url, url_len);
        plen = url_len;
    } else {
        plen = ref_url_path(url, url_len, path);
    }
    const char *nul = memchr(path, 0, plen); /* A.5 */
    if (nul)
        plen = (size_t)(nul - path);
    matcher m;
    m.profile = r->profile;
    m.path = path;
    m.plen = plen;
    m.cur = malloc(plen + 1);
    m.nxt = malloc(plen + 1);
    if (!m.cur || !m.nxt) {
        v.allowed = -1;
        goto out;
    }

    /* spec F.3-F.6 as a single pass over the lines (facts file) */
    int seen_global = 0, seen_specific = 0, ever_specific = 0, seen_sep = 0;
    best sa = {-1, 0}, sd = {-1, 0}, ga = {-1, 0}, gd = {-1, 0};
    for (size_t i = 0; i < r->n_lines; i++) {
        const ref_line *l = &r->lines[i];
        if (l->key == REF_KEY_UA) {
            if (seen_sep)
                seen_global = seen_specific = seen_sep = 0;
            if (agent_is_global(l->value, l->value_len)) {
                seen_global = 1;
            } else {
                size_t tl = ref_extract_agent(l->value, l->value_len);
                for (size_t a = 0; a < n_agents; a++)
                    if (eq_nocase(l->value, tl, agents[a].ptr, agents[a].len)) {
                        seen_specific = ever_specific = 1;
                        break;
                    }
            }
            continue;
        }
        if (l->key != REF_KEY_ALLOW && l->key != REF_KEY_DISALLOW)
            continue; /* B.6, C.3, H */
        if (!seen_global && !seen_specific)
            continue; /* F.4 */
        seen_sep = 1;
        int allow = l->key == REF_KEY_ALLOW;
        best *bst = seen_specific ? (allow ? &sa : &sd) : (allow ? &ga : &gd);
        apply(&m, l->value, l->value_len, (int)l->value_len, l->number, bst);
        if (allow) { /* E.8: the index.html variant */
            const char *slash = NULL;
            for (size_t j = l->value_len; j > 0; j--)
                if (l->value[j - 1] == '/') {
                    slash = l->value + j - 1;
                    break;
                }
            size_t rest = slash ? l->value_len - (size_t)(slash - l->value) : 0;
            if (slash && rest >= 10 && memcmp(slash, "/index.htm", 10) == 0) {
                size_t k = (size_t)(slash - l->value) + 1;
                char *alt = malloc(k + 1);
                if (!alt) {
                    v.allowed = -1;
                    goto out;
                }
                memcpy(alt, l->value, k);
                alt[k] = '$';
                apply(&m, alt, k + 1, (int)(k + 1), l->number, bst);
                free(alt);
            }
        }
    }
    /* F.6 */
    const best *a = NULL, *d = NULL;
    if (sa.prio > 0 || sd.prio > 0) {
        a = &sa;
        d = &sd;
    } else if (!ever_specific && (ga.prio > 0 || gd.prio > 0)) {
        a = &ga;
        d = &gd;
    }
    if (a) {
        if (d->prio > a->prio) {
            v.allowed = 0;
            v.line = d->line;
            v.rule_allow = 0;
            v.priority = d->prio;
        } else {
            v.allowed = 1;
            v.line = a->line;
            v.rule_allow = 1;
            v.priority = a->prio;
        }
    }
out:
    free(m.cur);
    free(m.nxt);
    free(path);
    return v;
}

ref_verdict ref_check(const char *body, size_t body_len, const ref_str *agents,
                      size_t n_agents, const char *url, size_t url_len,
                      int profile, int is_path)
{
    ref_robots r;
    if (ref_parse(&r, body, body_len, profile) < 0) {
        ref_verdict v = {-1, 0, 0, -1};
        return v;
    }
    ref_verdict v = ref_check_parsed(&r, agents, n_agents, url, url_len, is_path);
    ref_free(&r);
    return v;
}
