/* SPDX-License-Identifier: Apache-2.0 */
/* Seeded synthetic robots.txt files, URLs and paths: see datagen.h. */
#include "datagen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

static const char *const words[] = {
    "about", "account", "admin", "ajax", "api", "archive", "blog", "cart", "category", "cgi-bin",
    "checkout", "comment", "content", "download", "feed", "files", "filter", "help", "images",
    "includes", "index", "json", "lang", "list", "login", "media", "news", "page", "print",
    "private", "product", "profile", "register", "review", "search", "share", "shop", "sort",
    "static", "store", "tag", "tmp", "user", "video", "wp-admin", "wp-content", "wp-includes", "x",
};
#define N_WORDS (sizeof words / sizeof words[0])
static const char *const exts[] = {".php", ".html", ".pdf", ".jpg", ".js", ".css", ".xml", ".json"};
#define N_EXTS (sizeof exts / sizeof exts[0])

void dg_buf_free(dg_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

static int put(dg_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p)
            return -1;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
    return 0;
}

static int puts_(dg_buf *b, const char *s)
{
    return put(b, s, strlen(s));
}

static int putf(dg_buf *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    return n < 0 ? -1 : put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* A path segment: a word, sometimes with a number (so 50,000 rules can be
 * mostly distinct, as in real large files). */
static int segment(bu_rng *r, dg_buf *b)
{
    int e = puts_(b, words[bu_rng_below(r, N_WORDS)]);
    if (bu_rng_below(r, 100) < 40)
        e |= putf(b, "-%u", (unsigned)bu_rng_below(r, 1000));
    return e;
}

static int segments(bu_rng *r, dg_buf *b, unsigned n)
{
    int e = 0;
    for (unsigned i = 0; i < n; i++) {
        e |= puts_(b, "/");
        e |= segment(r, b);
    }
    return e;
}

/* Something worth a wildcard: a word, an extension or a query key. */
static int tail(bu_rng *r, dg_buf *b)
{
    switch (bu_rng_below(r, 3)) {
    case 0:
        return puts_(b, words[bu_rng_below(r, N_WORDS)]);
    case 1:
        return puts_(b, exts[bu_rng_below(r, N_EXTS)]);
    default:
        return putf(b, "?%s=", words[bu_rng_below(r, N_WORDS)]);
    }
}

int dg_robots(uint64_t seed, uint32_t n_rules, dg_buf *out)
{
    bu_rng r;
    bu_rng_seed(&r, seed);
    int e = putf(out, "# synthetic robots.txt (bench/datagen.c): seed %llu, %u rules\nUser-agent: *\n",
                 (unsigned long long)seed, (unsigned)n_rules);
    for (uint32_t i = 0; i < n_rules && !e; i++) {
        e |= puts_(out, bu_rng_below(&r, 100) < 20 ? "Allow: " : "Disallow: ");
        unsigned k = bu_rng_below(&r, 100);
        unsigned depth = 1 + bu_rng_below(&r, 3);
        if (k < 55) { /* literal prefix */
            e |= segments(&r, out, depth);
            if (bu_rng_below(&r, 2))
                e |= puts_(out, "/");
        } else if (k < 70) { /* '*' inside: "/a/b/" '*' x */
            e |= segments(&r, out, depth);
            e |= puts_(out, "/*");
            e |= tail(&r, out);
        } else if (k < 78) { /* leading '*': '/' '*' x */
            e |= puts_(out, "/*");
            e |= tail(&r, out);
        } else if (k < 90) { /* '$': /a/b$ or /a/b.ext$ */
            e |= segments(&r, out, depth);
            if (bu_rng_below(&r, 2))
                e |= puts_(out, exts[bu_rng_below(&r, N_EXTS)]);
            e |= puts_(out, "$");
        } else { /* both: [/a] '/' '*' ".ext$" */
            if (bu_rng_below(&r, 2))
                e |= segments(&r, out, depth);
            e |= puts_(out, "/*");
            e |= puts_(out, exts[bu_rng_below(&r, N_EXTS)]);
            e |= puts_(out, "$");
        }
        e |= puts_(out, "\n");
    }
    return e ? -1 : 0;
}

int dg_urls(uint64_t seed, uint32_t n, dg_buf *out)
{
    bu_rng r;
    bu_rng_seed(&r, seed ^ 0x55aa55aa55aa55aau);
    int e = 0;
    for (uint32_t i = 0; i < n && !e; i++) {
        e |= puts_(out, "https://www.example.com");
        e |= segments(&r, out, 1 + bu_rng_below(&r, 4));
        unsigned k = bu_rng_below(&r, 100);
        if (k < 30)
            e |= puts_(out, exts[bu_rng_below(&r, N_EXTS)]);
        else if (k < 45)
            e |= puts_(out, "/");
        if (bu_rng_below(&r, 100) < 20)
            e |= putf(out, "?%s=%u", words[bu_rng_below(&r, N_WORDS)], (unsigned)bu_rng_below(&r, 100000));
        e |= puts_(out, "\n");
    }
    return e ? -1 : 0;
}

int dg_paths(uint64_t seed, uint32_t n, size_t len, dg_buf *out)
{
    bu_rng r;
    bu_rng_seed(&r, seed ^ 0x1234567887654321u);
    dg_buf one = {NULL, 0, 0};
    int e = 0;
    for (uint32_t i = 0; i < n && !e; i++) {
        one.len = 0;
        while (one.len < len && !e)
            e |= segments(&r, &one, 1);
        if (!e) {
            e |= put(out, one.p, len);
            e |= puts_(out, "\n");
        }
    }
    dg_buf_free(&one);
    return e ? -1 : 0;
}
