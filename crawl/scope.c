/* SPDX-License-Identifier: Apache-2.0 */
/* Scope of a robots.txt (spec I): the origin of a URL and the robots.txt
 * that governs it. A robots.txt applies to its own scheme, host and port;
 * default ports equal no port; host names compare case-insensitively and an
 * IDN host equals its punycode form. */
#define _POSIX_C_SOURCE 200809L /* inet_pton, inet_ntop */
#include <arpa/inet.h>
#include <idn2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/crawl.h"

static const char *const url_errors[] = {
    [RSC_URL_OK] = "ok",
    [RSC_URL_E_ARG] = "invalid argument",
    [RSC_URL_E_RELATIVE] = "relative URL: no scheme, so no robots.txt",
    [RSC_URL_E_SCHEME] = "scheme has no robots.txt (only http, https and ftp)",
    [RSC_URL_E_SYNTAX] = "malformed URL: no '//' after the scheme, or a space, control or '\\' in the host",
    [RSC_URL_E_EMPTY_HOST] = "empty host",
    [RSC_URL_E_HOST] = "invalid host",
    [RSC_URL_E_PORT] = "invalid port (1..65535)",
    [RSC_URL_E_IDN] = "internationalised host name rejected by IDNA (UTS #46)",
    [RSC_URL_E_TOO_LONG] = "host name too long",
};

_Static_assert(sizeof url_errors / sizeof url_errors[0] == RSC_URL_E_TOO_LONG + 1, "one message per status");

const char *rsc_url_strerror(int status)
{
    if (status < 0 || (size_t)status >= sizeof url_errors / sizeof url_errors[0])
        return "unknown URL error";
    return url_errors[status];
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = lower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Bytes that can never be part of a host name (the WHATWG URL standard's
 * forbidden host code points, plus '%' after decoding). */
static int forbidden_host_byte(unsigned char c)
{
    return c <= 0x20 || c == 0x7f || strchr("#%/:<>?@[\\]^|", c) != NULL;
}

/* Case-insensitive "does [p, p+n) equal the lower-case word w". */
static int word_eq(const char *p, size_t n, const char *w)
{
    if (strlen(w) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)p[i]) != w[i])
            return 0;
    return 1;
}

/* Host without brackets or port, %-decoded, IDN-converted, lower-cased. */
static rsc_url_status convert_host(const char *h, size_t n, rsc_origin *o)
{
    char buf[1024];
    size_t m = 0;
    int ascii = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)h[i];
        if (c == '%') {
            int hi = i + 2 < n ? hexval((unsigned char)h[i + 1]) : -1;
            int lo = i + 2 < n ? hexval((unsigned char)h[i + 2]) : -1;
            if (hi < 0 || lo < 0)
                return RSC_URL_E_HOST;
            c = (unsigned char)(hi * 16 + lo);
            i += 2;
        }
        if (c < 0x80 && forbidden_host_byte(c))
            return RSC_URL_E_HOST;
        if (c >= 0x80)
            ascii = 0;
        if (m + 1 >= sizeof buf)
            return RSC_URL_E_TOO_LONG;
        buf[m++] = (char)c;
    }
    buf[m] = 0;
    if (m == 0)
        return RSC_URL_E_EMPTY_HOST;
    if (ascii) {
        if (m > RSC_HOST_MAX)
            return RSC_URL_E_TOO_LONG;
        for (size_t i = 0; i <= m; i++)
            o->host[i] = (char)lower((unsigned char)buf[i]);
        return RSC_URL_OK;
    }
    /* UTS #46 non-transitional processing, as current browsers do: maps
     * case and compatibility forms, then encodes each label (RFC 3492). */
    char *out = NULL;
    if (idn2_lookup_u8((const uint8_t *)buf, (uint8_t **)&out, IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL) !=
            IDN2_OK ||
        !out)
        return RSC_URL_E_IDN;
    size_t k = strlen(out);
    rsc_url_status st = RSC_URL_OK;
    if (k == 0)
        st = RSC_URL_E_EMPTY_HOST;
    else if (k > RSC_HOST_MAX)
        st = RSC_URL_E_TOO_LONG;
    else
        for (size_t i = 0; i <= k; i++)
            o->host[i] = (char)lower((unsigned char)out[i]);
    idn2_free(out);
    return st;
}

/* An IPv6 literal (inside the brackets) in canonical form (RFC 5952), so
 * that every spelling of one address has one key. Zone IDs are refused. */
static rsc_url_status convert_ipv6(const char *h, size_t n, rsc_origin *o)
{
    char in[64], canon[INET6_ADDRSTRLEN];
    unsigned char addr[16];
    if (n == 0 || n >= sizeof in)
        return n == 0 ? RSC_URL_E_EMPTY_HOST : RSC_URL_E_HOST;
    memcpy(in, h, n);
    in[n] = 0;
    if (inet_pton(AF_INET6, in, addr) != 1 || !inet_ntop(AF_INET6, addr, canon, sizeof canon))
        return RSC_URL_E_HOST;
    snprintf(o->host, sizeof o->host, "[%s]", canon);
    return RSC_URL_OK;
}

/* Parses url into *o; *rest is the offset where the path (or query or
 * fragment) begins. */
static rsc_url_status parse(const char *url, size_t len, rsc_origin *o, size_t *rest)
{
    static const struct {
        const char *name;
        uint16_t port;
    } schemes[] = {{"http", 80}, {"https", 443}, {"ftp", 21}};
    if (!o)
        return RSC_URL_E_ARG;
    memset(o, 0, sizeof *o);
    if (!url && len)
        return RSC_URL_E_ARG;
    size_t b = 0, e = len;
    while (b < e && (unsigned char)url[b] <= 0x20)
        b++;
    while (e > b && (unsigned char)url[e - 1] <= 0x20)
        e--;

    /* Scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" (RFC 3986). */
    size_t i = b;
    if (i == e || !is_alpha((unsigned char)url[i]))
        return RSC_URL_E_RELATIVE;
    while (i < e && (is_alpha((unsigned char)url[i]) || (url[i] >= '0' && url[i] <= '9') || url[i] == '+' ||
                     url[i] == '-' || url[i] == '.'))
        i++;
    if (i == e || url[i] != ':')
        return RSC_URL_E_RELATIVE;
    size_t k;
    for (k = 0; k < sizeof schemes / sizeof schemes[0]; k++)
        if (word_eq(url + b, i - b, schemes[k].name))
            break;
    if (k == sizeof schemes / sizeof schemes[0])
        return RSC_URL_E_SCHEME;
    i++;
    if (e - i < 2 || url[i] != '/' || url[i + 1] != '/')
        return RSC_URL_E_SYNTAX;
    i += 2;

    /* Authority: up to the path, query or fragment. */
    size_t a = i;
    while (i < e && url[i] != '/' && url[i] != '?' && url[i] != '#') {
        unsigned char c = (unsigned char)url[i];
        if (c <= 0x20 || c == 0x7f || c == '\\')
            return RSC_URL_E_SYNTAX;
        i++;
    }
    *rest = i;
    size_t h = a; /* userinfo ends at the last '@' */
    for (size_t j = a; j < i; j++)
        if (url[j] == '@')
            h = j + 1;

    size_t host_b = h, host_e, p;
    int v6 = 0;
    if (h < i && url[h] == '[') {
        const char *close = memchr(url + h, ']', i - h);
        if (!close)
            return RSC_URL_E_HOST;
        host_b = h + 1;
        host_e = (size_t)(close - url);
        p = host_e + 1;
        if (p < i && url[p] != ':')
            return RSC_URL_E_HOST;
        v6 = 1;
    } else {
        const char *colon = memchr(url + h, ':', i - h);
        host_e = colon ? (size_t)(colon - url) : i;
        p = host_e;
    }

    uint32_t port = schemes[k].port;
    if (p < i) { /* url[p] == ':' */
        if (p + 1 < i) {
            port = 0;
            for (size_t j = p + 1; j < i; j++) {
                if (url[j] < '0' || url[j] > '9')
                    return RSC_URL_E_PORT;
                port = port * 10 + (uint32_t)(url[j] - '0');
                if (port > 65535)
                    return RSC_URL_E_PORT;
            }
            if (port == 0)
                return RSC_URL_E_PORT;
        }
    }
    if (host_e == host_b)
        return RSC_URL_E_EMPTY_HOST;
    rsc_url_status st = v6 ? convert_ipv6(url + host_b, host_e - host_b, o)
                           : convert_host(url + host_b, host_e - host_b, o);
    if (st != RSC_URL_OK)
        return st;

    strcpy(o->scheme, schemes[k].name);
    o->port = (uint16_t)port;
    o->default_port = port == schemes[k].port;
    int n = o->default_port ? snprintf(o->key, sizeof o->key, "%s://%s", o->scheme, o->host)
                            : snprintf(o->key, sizeof o->key, "%s://%s:%u", o->scheme, o->host, (unsigned)port);
    o->key_len = (size_t)n;
    n = snprintf(o->robots_url, sizeof o->robots_url, "%s/robots.txt", o->key);
    o->robots_url_len = (size_t)n;
    return RSC_URL_OK;
}

rsc_url_status rsc_origin_parse(const char *url, size_t len, rsc_origin *out)
{
    size_t rest;
    rsc_url_status st = parse(url, len, out, &rest);
    if (st != RSC_URL_OK && out)
        memset(out, 0, sizeof *out);
    return st;
}

int rsc_url_is_robots(const char *url, size_t len)
{
    rsc_origin o;
    size_t rest;
    if (parse(url, len, &o, &rest) != RSC_URL_OK)
        return 0;
    size_t e = len;
    while (e > rest && (unsigned char)url[e - 1] <= 0x20)
        e--;
    size_t q = rest;
    while (q < e && url[q] != '?' && url[q] != '#')
        q++;
    return q - rest == 11 && memcmp(url + rest, "/robots.txt", 11) == 0;
}
