/* SPDX-License-Identifier: Apache-2.0 */
/* Identities: the library's version, and the product token a crawler is
 * matched by (rsc_agent_token, rules in include/robotsc/runtime.h and
 * docs/SEMANTICS.md "Notes"). Crawlers have a User-Agent header at hand,
 * while groups are matched on the token alone (spec F.2): passing the header
 * as the agent silently selects nothing and falls through to '*'. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "robotsc/runtime.h"

const char *rsc_version(void)
{
    return RSC_VERSION_STRING;
}

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static int is_token_byte(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '-';
}

/* The [A-Za-z_-] prefix of s[0..n). */
static size_t token_prefix(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && is_token_byte((unsigned char)s[i]))
        i++;
    return i;
}

/* RFC 9110 tchar: the bytes of a product name. */
static int is_tchar(unsigned char c)
{
    return (c >= '0' && c <= '9') || is_token_byte(c) || (c && memchr("!#$%&'*+.^`|~", c, 13));
}

/* 1 when s[0..n) starts with a product "Name/version" (not "https://"). */
static int is_product(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && is_tchar((unsigned char)s[i]))
        i++;
    return i > 0 && i + 1 < n && s[i] == '/' && s[i + 1] != '/';
}

static void trim(const char **s, size_t *n)
{
    while (*n && is_space((unsigned char)**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n && is_space((unsigned char)(*s)[*n - 1]))
        (*n)--;
}

static int lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* 1 when s[0..n) equals word (lower-case ASCII) case-insensitively. */
static int equals_ci(const char *s, size_t n, const char *word)
{
    size_t i = 0;
    for (; i < n && word[i]; i++)
        if (lower((unsigned char)s[i]) != (unsigned char)word[i])
            return 0;
    return i == n && !word[i];
}

/* 1 when word (lower-case) occurs in s[0..n), case-insensitively. */
static int contains_ci(const char *s, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if (equals_ci(s + i, w, word))
            return 1;
    return 0;
}

/* The next ';'-separated item of a comment body [*p, end), trimmed; *p
 * becomes NULL after the last. Returns 0 when there is none left. */
static int next_item(const char **p, const char *end, const char **item, size_t *n)
{
    if (!*p)
        return 0;
    const char *s = *p;
    const char *semi = memchr(s, ';', (size_t)(end - s));
    const char *e = semi ? semi : end;
    *item = s;
    *n = (size_t)(e - s);
    trim(item, n);
    *p = semi ? semi + 1 : NULL;
    return 1;
}

/* Looks through the parenthesised comments of ua[0..n) for the crawler's
 * product (rules 1 and 2 of rsc_agent_token). Nested parentheses belong to
 * the comment that holds them. Returns 1 and the product's span. */
static int comment_product(const char *ua, size_t n, const char **prod, size_t *plen)
{
    const char *fallback = NULL;
    size_t fallback_len = 0;
    for (size_t i = 0; i < n; i++) {
        if (ua[i] != '(')
            continue;
        size_t depth = 1, j = i + 1;
        while (j < n && depth) {
            if (ua[j] == '(')
                depth++;
            else if (ua[j] == ')')
                depth--;
            j++;
        }
        const char *body = ua + i + 1, *end = ua + (depth ? j : j - 1);
        const char *p = body, *item, *first = NULL;
        size_t len, first_len = 0;
        int after_compatible = 0;
        while (next_item(&p, end, &item, &len)) {
            if (after_compatible) {
                *prod = item;
                *plen = len;
                return 1;
            }
            if (!first) {
                first = item;
                first_len = len;
            }
            after_compatible = equals_ci(item, len, "compatible");
        }
        /* "(Name/version; +http://...)": the crawler's own comment. */
        if (!fallback && first && is_product(first, first_len) &&
            contains_ci(body, (size_t)(end - body), "http")) {
            fallback = first;
            fallback_len = first_len;
        }
        i = j - 1;
    }
    if (!fallback)
        return 0;
    *prod = fallback;
    *plen = fallback_len;
    return 1;
}

rsc_status rsc_agent_token(const char *ua, size_t len, rsc_bytes *token, int *changed)
{
    if (!ua || !token || !changed)
        return RSC_E_ARG;
    const char *s = ua, *prod;
    size_t n = len, plen;
    trim(&s, &n);
    if (token_prefix(s, n) != n && comment_product(s, n, &prod, &plen)) {
        s = prod;
        n = plen;
    }
    n = token_prefix(s, n); /* a bare token, or the name of a product */
    if (n == 0)
        return RSC_E_ARG;
    token->ptr = s;
    token->len = n;
    *changed = s != ua || n != len;
    return RSC_OK;
}
