/* SPDX-License-Identifier: Apache-2.0 */
/* Randomised differential test: random robots.txt files (several groups,
 * odd agents, wildcard and '$' patterns, escapes, non-ASCII bytes,
 * index.html rules, junk lines, typos, mixed line ends), compiled once and
 * then matched for many (agents, path or URL) pairs. The library's verdict
 * and deciding rule must equal the reference matcher's (tests/ref), in the
 * google profile and, for fewer cases, the rfc profile; a program compiled
 * with no_prune (every other file also without DFAs: the programs alone)
 * must give the same answers as the default one. With m NULL, every case
 * runs both the blob's DFA (the default selection, when its rule set has
 * one, and the no_prune one, when its blob has DFAs) and the programs
 * (rsc_selection_use).
 *
 * Usage: differential [SEED [SCALE_PERCENT [-v]]] (-v prints the first
 * files); differential rfc [SEED [SCALE_PERCENT [-v]]] runs the rfc
 * profile's own families instead (main_rfc). The same seed gives the same
 * files. On a disagreement it prints the seed, the file (C-escaped), the
 * agents, the path and both verdicts, and exits 1. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_robots.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

#ifndef RSC_DIFF_SCALE
#define RSC_DIFF_SCALE 100 /* percent of the full run (sanitizer builds: less) */
#endif

/* ---- PRNG: splitmix64 ---------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static unsigned rnd(unsigned n)
{
    return (unsigned)(rng_next() % n);
}

static int chance(unsigned percent)
{
    return rnd(100) < percent;
}

#define PICK(arr) (arr[rnd(sizeof(arr) / sizeof(arr[0]))])

/* ---- growable byte buffer --------------------------------------------- */

typedef tu_buf buf;

/* ---- generator ---------------------------------------------------------- */

/* Pattern and path pieces: the spec's corner cases in a small alphabet. */
static const char *const pieces[] = {
    "/", "/", "/", "a", "a", "b", "ab", "*", "$", "%", "%41", "%4a", "%4A", "%c3",
    "%C3", "\xc3", "\xa9", "%61", "%7e", "%7E", "~", "%2f", "%2F", "?", "=", "1", "f",
    "A", ".", "index.html", "%A9", "%a9", "%%41", "%g1",
};

/* Heavy files: many groups and rules, long patterns and paths (automaton
 * size, rule ranks, selection limits). */
static int heavy;

/* The patterns of the current file, so that paths can be made to match. */
static char file_pats[64][128];
static size_t file_pat_len[64], n_file_pats;

static void remember_pattern(const char *p, size_t n)
{
    if (n_file_pats < 64 && n < 128) {
        memcpy(file_pats[n_file_pats], p, n);
        file_pat_len[n_file_pats++] = n;
    }
}

static void gen_pattern(buf *b)
{
    unsigned r = rnd(100);
    if (r < 6)
        return; /* empty pattern (E.5) */
    if (r < 76)
        tu_buf_puts(b, "/");
    else if (r < 88)
        tu_buf_puts(b, "*");
    else
        tu_buf_puts(b, PICK(pieces)); /* may start without '/' (E.4) */
    unsigned k = rnd(heavy ? 12 : 5);
    for (unsigned i = 0; i < k; i++)
        tu_buf_puts(b, PICK(pieces));
    if (chance(15)) {
        static const char *const idx[] = {"/index.html", "/index.htm", "index.html",
                                          "/index.htmx", "/Index.html", "/index.htm*"};
        tu_buf_puts(b, PICK(idx));
    }
    if (chance(15))
        tu_buf_puts(b, "$");
}

/* A path derived from one of the file's patterns: '*' replaced by random
 * pieces, a final '$' ends it, sometimes escaped like a pattern (spec D). */
static void path_from_pattern(buf *b)
{
    size_t k = rnd((unsigned)n_file_pats);
    const char *p = file_pats[k];
    size_t n = file_pat_len[k];
    buf t = {NULL, 0, 0};
    int ended = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '*') {
            unsigned r = rnd(3);
            for (unsigned j = 0; j < r; j++)
                tu_buf_puts(&t, PICK(pieces));
        } else if (p[i] == '$' && i + 1 == n) {
            ended = 1;
        } else {
            tu_buf_put(&t, p + i, 1);
        }
    }
    if (!ended && chance(50))
        tu_buf_puts(&t, PICK(pieces));
    if (t.n && chance(40)) {
        char *e = malloc(3 * t.n);
        size_t en = ref_escape(t.p, t.n, e);
        tu_buf_put(b, e, en);
        free(e);
    } else if (t.n) {
        tu_buf_put(b, t.p, t.n);
    }
    free(t.p);
}

static int long_lists; /* the current file is long_lists_file()'s */
static void long_lists_path(buf *b);

static void gen_path(buf *b)
{
    if (long_lists) {
        long_lists_path(b);
        return;
    }
    if (n_file_pats && chance(50)) {
        path_from_pattern(b);
        return;
    }
    if (chance(90))
        tu_buf_puts(b, "/");
    else if (chance(50))
        tu_buf_puts(b, PICK(pieces));
    size_t max = heavy ? 200 : 20;
    unsigned k = rnd(heavy ? 60 : 8);
    for (unsigned i = 0; i < k && b->n < max; i++) {
        if (chance(2))
            tu_buf_put(b, "", 1); /* a NUL ends the path (A.5) */
        else if (chance(5))
            tu_buf_puts(b, "robots.txt");
        else
            tu_buf_puts(b, PICK(pieces));
    }
    if (b->n > max)
        b->n = max;
    if (b->p)
        b->p[b->n] = 0;
}

/* A URL around a generated path (spec G's forms). */
static void gen_url(buf *b)
{
    static const char *const pre[] = {"http://h", "https://Example.COM:8080", "//h",
                                      "h.com", "ftp://u:p@h", "", "http://h?x=http://y",
                                      "http:/h", "a/b://c"};
    static const char *const post[] = {"", "", "#frag", "?q=1", "#", "?a#b/c", ";p=1"};
    buf p = {NULL, 0, 0};
    gen_path(&p);
    tu_buf_puts(b, PICK(pre));
    if (p.n)
        tu_buf_put(b, p.p, p.n);
    tu_buf_puts(b, PICK(post));
    free(p.p);
}

static const char *const agent_values[] = {
    "*", "*", "*", "FooBot", "* extra", "*\textra", "FooBot", "foobot", "Foo-Bar_baz", "bot2", "",
    "*foo", "FooBot/2.1", "BarBot", "Foo Bar", "googlebot-news", "Foo",
};

/* Agents the caller may use: some named by files, some not. */
static const char *const caller_agents[] = {
    "FooBot", "FooBot", "foobot", "Foo-Bar_baz", "foobot", "FOOBOT", "Foo-Bar_baz", "foo-bar_baz", "bot2", "bot", "Bot",
    "", "BarBot", "Foo", "Foo Bar", "*", "Unknown", "googlebot-news", "googlebot",
};

static void line_end(buf *b, int mode)
{
    static const char *const ends[] = {"\n", "\r\n", "\r"};
    tu_buf_puts(b, mode < 3 ? ends[mode] : ends[rnd(3)]);
}

static void gen_sep(buf *b, int allow_missing_colon)
{
    unsigned r = rnd(100);
    if (r < 60)
        tu_buf_puts(b, ": ");
    else if (r < 72)
        tu_buf_puts(b, ":");
    else if (r < 80)
        tu_buf_puts(b, " : ");
    else if (r < 86)
        tu_buf_puts(b, "\t:\t");
    else if (r < 94 && allow_missing_colon)
        tu_buf_puts(b, " "); /* missing colon (B.4) */
    else
        tu_buf_puts(b, ":  ");
}

static void gen_extra(buf *b)
{
    static const char *const extras[] = {
        "", "", "# comment", "   ", "Sitemap: http://h/s.xml", "Crawl-delay: 5",
        "invalid text here", "disallow /x", "disallow /x y", "allow", "foo: bar",
        ": /a", "#disallow: /", "\t", "host: h.com", "Disallow: /%zz",
        "Noindex: /a", "disallow: /a\0/b", "site-map: x", "dissalaw: /", "alow: /",
        "user agent", "# user-agent: *", ("\xef\xbb\xbf" "disallow: /"), /* (one string: a BOM) */
    };
    const char *e = PICK(extras);
    if (strcmp(e, "disallow: /a\0/b") == 0)
        tu_buf_put(b, "disallow: /a\0/b", 15);
    else
        tu_buf_puts(b, e);
}

static void gen_agent_line(buf *b)
{
    static const char *const keys[] = {"User-agent", "user-agent", "USER-AGENT",
                                       "useragent", "User agent", "User-agents",
                                       "user-Agent", "  User-agent"};
    const char *v = PICK(agent_values);
    tu_buf_puts(b, PICK(keys));
    gen_sep(b, strchr(v, ' ') == NULL && strchr(v, '\t') == NULL && *v);
    tu_buf_puts(b, v);
    if (chance(8))
        tu_buf_puts(b, " # c");
}

static void gen_rule_line(buf *b)
{
    static const char *const allows[] = {"Allow", "allow", "ALLOW", "Allowed"};
    static const char *const disallows[] = {"Disallow", "disallow", "DISALLOW",
                                            "Disallowed", "dissallow", "dissalow",
                                            "disalow", "diasllow", "disallaw"};
    buf p = {NULL, 0, 0};
    gen_pattern(&p);
    remember_pattern(p.p ? p.p : "", p.n);
    tu_buf_puts(b, chance(45) ? PICK(allows) : PICK(disallows));
    gen_sep(b, p.n > 0 && !memchr(p.p, ' ', p.n));
    if (p.n)
        tu_buf_put(b, p.p, p.n);
    if (chance(8))
        tu_buf_puts(b, chance(50) ? " # c" : "#");
    else if (chance(4))
        tu_buf_puts(b, "  ");
    free(p.p);
}

static void gen_file(buf *b)
{
    n_file_pats = 0;
    int mode = rnd(5) < 2 ? 0 : (int)rnd(4);
    if (chance(5)) {
        static const char *const boms[] = {"\xef\xbb\xbf", "\xef\xbb", "\xef",
                                           "\xef\xbb\xbf\xef\xbb\xbf", "\xef\x11"};
        tu_buf_puts(b, PICK(boms));
    }
    if (chance(10)) {
        gen_rule_line(b); /* before any agent (F.4) */
        line_end(b, mode);
    }
    unsigned groups = heavy ? 1 + rnd(12) : chance(8) ? 0 : 1 + rnd(4);
    for (unsigned g = 0; g < groups; g++) {
        unsigned na = 1 + rnd(3);
        for (unsigned a = 0; a < na; a++) {
            gen_agent_line(b);
            line_end(b, mode);
            if (chance(10)) {
                gen_extra(b);
                line_end(b, mode);
            }
        }
        unsigned nr = heavy ? rnd(30) : rnd(7);
        for (unsigned r = 0; r < nr; r++) {
            gen_rule_line(b);
            line_end(b, mode);
            if (chance(15)) {
                gen_extra(b);
                line_end(b, mode);
            }
        }
    }
    if (chance(30))
        gen_extra(b);
    if (chance(70))
        line_end(b, mode);
    if (!b->p)
        tu_buf_puts(b, "");
}

/* ---- the rfc profile's families (issue 27) -------------------------------- */

/* Bytes that RFC 9309 treats specially or that Google reads otherwise:
 * percent-encoded '*' and '$' and their raw forms, unreserved escapes and
 * their decoded forms, '%25' and a bare '%', non-ASCII, spaces and
 * control bytes. */
static const char *const rfc_pieces[] = {
    "/", "/", "a", "b", "ab", "*", "$", "%24", "%2A", "%2a", "%7E", "%7e", "~", "%41", "A",
    "%25", "%", "\xc3\xa9", "%C3%A9", "%c3%a9", "%2F", "%2f", ".", "%2E", "-", "_", "?",
};

/* An equivalent spelling of p (RFC 9309 2.2.2): unreserved bytes escaped
 * or decoded, escapes in either case, '*'/'$' <-> %2A/%24 (paths only). */
static void respell(buf *b, const char *p, size_t n, int path)
{
    static const char hx[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (path && (c == '*' || c == '$') && chance(50)) {
            tu_buf_puts(b, c == '*' ? (chance(50) ? "%2A" : "%2a") : "%24");
        } else if (path && c == '%' && i + 2 < n && p[i + 1] == '2' &&
                   (p[i + 2] == 'A' || p[i + 2] == 'a' || p[i + 2] == '4') && chance(50)) {
            tu_buf_puts(b, p[i + 2] == '4' ? "$" : "*");
            i += 2;
        } else if (c == '~' || (c >= 'a' && c <= 'z') || c == '.' || c == '-') {
            if (chance(25)) {
                char e[4] = {'%', hx[c >> 4], chance(50) ? hx[c & 15] : (char)(hx[c & 15] | 0x20), 0};
                tu_buf_puts(b, e);
            } else {
                tu_buf_put(b, p + i, 1);
            }
        } else if (c >= 0x80 && chance(40)) {
            char e[4] = {'%', hx[c >> 4], hx[c & 15], 0};
            tu_buf_puts(b, e);
        } else {
            tu_buf_put(b, p + i, 1);
        }
    }
}

static void rfc_pattern(buf *b)
{
    if (chance(5))
        return;
    tu_buf_puts(b, chance(85) ? "/" : chance(60) ? "*" : PICK(rfc_pieces));
    unsigned k = rnd(heavy ? 10 : 5);
    for (unsigned i = 0; i < k; i++)
        tu_buf_puts(b, chance(4) ? (chance(50) ? " " : "\v") : PICK(rfc_pieces));
    if (chance(3)) { /* past Google's line cut (spec A.4), far below 500 KiB */
        size_t n = 16600 + rnd(120);
        while (b->n < n)
            tu_buf_puts(b, "aaaaaaaa");
        tu_buf_puts(b, chance(50) ? "b" : "b$");
    }
    if (chance(15))
        tu_buf_puts(b, "$");
}

static void rfc_key(buf *b, int kind) /* 0 user-agent, 1 allow, 2 disallow */
{
    static const char *const good[3][3] = {{"User-agent", "user-agent", "USER-AGENT"},
                                           {"Allow", "allow", "ALLOW"},
                                           {"Disallow", "disallow", "DISALLOW"}};
    static const char *const bad[3][3] = {{"useragent", "User agent", "User-agents"},
                                          {"Allowed", "Allows", "allow-"},
                                          {"Dissallow", "Disallowed", "disalow"}};
    static const char *const lead[] = {"", "", "", " ", "\t", "\v", "\f", "\xc2\xa0", "\xa0"};
    tu_buf_puts(b, chance(85) ? "" : PICK(lead));
    tu_buf_puts(b, chance(88) ? good[kind][rnd(3)] : bad[kind][rnd(3)]);
    static const char *const seps[] = {": ", ": ", ":", " : ", "\t:\t", ":\v", "\v:", " ", ":\f"};
    tu_buf_puts(b, chance(80) ? ": " : PICK(seps));
}

static void rfc_tail(buf *b)
{
    static const char *const tails[] = {"", "", "", " ", "\t", "\v", " # c", "#", "\f", " #\x01"};
    tu_buf_puts(b, PICK(tails));
}

static void gen_rfc_file(buf *b)
{
    n_file_pats = 0;
    int mode = (int)rnd(4);
    if (chance(5))
        tu_buf_puts(b, chance(50) ? "\xef\xbb\xbf" : "\xef\xbb");
    unsigned groups = heavy ? 1 + rnd(8) : 1 + rnd(3);
    for (unsigned g = 0; g < groups; g++) {
        for (unsigned a = 0, na = 1 + rnd(2); a < na; a++) {
            rfc_key(b, 0);
            tu_buf_puts(b, PICK(agent_values));
            rfc_tail(b);
            line_end(b, mode);
        }
        for (unsigned r = 0, nr = rnd(heavy ? 20 : 7); r < nr; r++) {
            buf p = {NULL, 0, 0};
            rfc_pattern(&p);
            int allow = chance(45);
            rfc_key(b, allow ? 1 : 2);
            if (p.n)
                tu_buf_put(b, p.p, p.n);
            rfc_tail(b);
            line_end(b, mode);
            if (p.n && chance(25)) { /* an equivalent rule of the other kind: a tie */
                rfc_key(b, allow ? 2 : 1);
                respell(b, p.p, p.n, 0);
                line_end(b, mode);
            }
            remember_pattern(p.p ? p.p : "", p.n);
            free(p.p);
            if (chance(10)) {
                gen_extra(b);
                line_end(b, mode);
            }
        }
    }
    if (!b->p)
        tu_buf_puts(b, "");
}

/* A path for the rfc families: one of the file's patterns respelt ('*'
 * filled, '$' and '*' written raw or encoded), or random pieces. */
static void rfc_path(buf *b)
{
    tu_buf_puts(b, "/");
    if (n_file_pats && chance(70)) {
        size_t k = rnd((unsigned)n_file_pats);
        const char *p = file_pats[k];
        size_t n = file_pat_len[k];
        buf t = {NULL, 0, 0};
        for (size_t i = p[0] == '/' ? 1 : 0; i < n; i++) {
            if (p[i] == '*' && chance(70)) {
                for (unsigned j = rnd(3); j > 0; j--)
                    tu_buf_puts(&t, PICK(rfc_pieces));
            } else if (!(p[i] == '$' && i + 1 == n)) {
                tu_buf_put(&t, p + i, 1);
            }
        }
        if (chance(40))
            tu_buf_puts(&t, PICK(rfc_pieces));
        respell(b, t.p ? t.p : "", t.n, 1);
        free(t.p);
        return;
    }
    for (unsigned i = rnd(8); i > 0; i--)
        tu_buf_puts(b, chance(3) ? "robots.txt" : PICK(rfc_pieces));
}

/* ---- comparison --------------------------------------------------------- */

static uint64_t seed;
static long n_cases, n_failures, n_file, n_disallowed, n_decided, n_accel, n_dfa, n_dfa_cases,
    n_dfa_partial;
static int verbose;

static void print_escaped(const char *s, size_t n)
{
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n')
            fputs("\\n", stdout);
        else if (c == '\r')
            fputs("\\r", stdout);
        else if (c == '\t')
            fputs("\\t", stdout);
        else if (c == '\\' || c == '"')
            printf("\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            printf("\\%03o", c);
        else
            putchar(c);
    }
    putchar('"');
}

typedef struct ctx {
    const buf *file;
    const ref_robots *ref;
    const rsc_bytes *agents;
    size_t n_agents;
    int profile;
} ctx;

static void report(const ctx *c, const char *what, const char *s, size_t n, int is_path,
                   int got_allowed, const rsc_match *m, const ref_verdict *rv)
{
    n_failures++;
    if (n_failures > 10)
        return;
    printf("MISMATCH (%s): seed %" PRIu64 ", file #%ld, profile %s\n  file: ", what, seed,
           n_file, c->profile ? "rfc" : "google");
    print_escaped(c->file->p, c->file->n);
    printf("\n  agents:");
    for (size_t i = 0; i < c->n_agents; i++) {
        putchar(' ');
        print_escaped(c->agents[i].ptr, c->agents[i].len);
    }
    printf("\n  %s: ", is_path ? "path" : "url");
    print_escaped(s, n);
    if (m)
        printf("\n  library:   allowed=%d decided=%d line=%u allow=%d priority=%u",
               got_allowed, m->decided, (unsigned)m->line, m->rule_allow,
               (unsigned)m->priority);
    if (rv)
        printf("\n  reference: allowed=%d line=%d allow=%d priority=%d", rv->allowed,
               rv->line, rv->rule_allow, rv->priority);
    printf("\n");
}

/* One (agents, path or URL) case on both programs. */
static void one_case(const ctx *c, const rsc_selection *sel, const rsc_selection *sel_nomin,
                     const rsc_selection *sel_dfa, const char *s, size_t n, int is_path)
{
    ref_str ra[4];
    for (size_t i = 0; i < c->n_agents; i++) {
        ra[i].ptr = c->agents[i].ptr;
        ra[i].len = c->agents[i].len;
    }
    ref_verdict rv = ref_check_parsed(c->ref, ra, c->n_agents, s, n, is_path);
    rsc_match m, m2;
    memset(&m, 0, sizeof m);
    memset(&m2, 0, sizeof m2);
    int a = is_path ? rsc_match_path(sel, s, n, &m) : rsc_match_url(sel, s, n, &m);
    int a2 = is_path ? rsc_match_path(sel_nomin, s, n, &m2) : rsc_match_url(sel_nomin, s, n, &m2);
    n_cases++;
    n_disallowed += rv.allowed == 0;
    n_decided += rv.line != 0;
    int rdecided = rv.line != 0;
    if (a != rv.allowed || m.allowed != a || m.decided != rdecided ||
        (rdecided && ((int)m.line != rv.line || m.rule_allow != rv.rule_allow ||
                      (int)m.priority != rv.priority)))
        report(c, "library vs reference", s, n, is_path, a, &m, &rv);
    else if (a2 != a || m2.decided != m.decided || m2.line != m.line ||
             m2.rule_allow != m.rule_allow || m2.priority != m.priority)
        report(c, "no_prune vs default", s, n, is_path, a2, &m2, &rv);
    /* The verdict alone (m NULL): sel and sel_nomin as rsc_select() gives
     * them (the blob's DFA when the rule set has one), and sel_dfa on the
     * programs. */
    int a0 = is_path ? rsc_match_path(sel, s, n, NULL) : rsc_match_url(sel, s, n, NULL);
    int a20 = is_path ? rsc_match_path(sel_nomin, s, n, NULL) : rsc_match_url(sel_nomin, s, n, NULL);
    int ad = is_path ? rsc_match_path(sel_dfa, s, n, NULL) : rsc_match_url(sel_dfa, s, n, NULL);
    n_dfa_cases += rsc_selection_engine(sel, NULL) == RSC_ENGINE_DFA;
    if (a0 != rv.allowed)
        report(c, rsc_selection_engine(sel, NULL) == RSC_ENGINE_DFA ? "DFA (m NULL) vs reference"
                                                                  : "programs (m NULL) vs reference",
               s, n, is_path, a0, NULL, &rv);
    if (a20 != rv.allowed)
        report(c, rsc_selection_engine(sel_nomin, NULL) == RSC_ENGINE_DFA
                      ? "no_prune DFA (m NULL) vs reference"
                      : "no_prune programs (m NULL) vs reference",
               s, n, is_path, a20, NULL, &rv);
    if (ad != rv.allowed)
        report(c, "programs (rsc_selection_use, m NULL) vs reference", s, n, is_path, ad, NULL, &rv);
    else { /* with m, the programs answer: the same rule */
        rsc_match md;
        int am = is_path ? rsc_match_path(sel_dfa, s, n, &md) : rsc_match_url(sel_dfa, s, n, &md);
        if (am != a || md.line != m.line || md.decided != m.decided)
            report(c, "programs selection with m vs default", s, n, is_path, am, &md, &rv);
    }
    if (!is_path) { /* spec G on its own */
        size_t off = 0, plen = 0;
        int slash = 0;
        rsc_url_path(s, n, &off, &plen, &slash);
        char *want = malloc(n + 2);
        size_t wn = ref_url_path(s, n, want);
        int ok = off <= n && plen <= n - off && wn == plen + (slash ? 1u : 0u) &&
                 (!slash || want[0] == '/') &&
                 memcmp(want + (slash ? 1 : 0), s + off, plen) == 0;
        if (!ok) {
            char msg[128];
            snprintf(msg, sizeof msg, "rsc_url_path gave off=%zu len=%zu slash=%d", off, plen,
                     slash);
            report(c, msg, s, n, 0, a, NULL, NULL);
        }
        free(want);
    }
}

static int compile_load(const buf *f, int profile, int no_prune, rsc_blob *blob,
                        rsc_program *prog)
{
    rsc_compile_options opt;
    memset(&opt, 0, sizeof opt);
    opt.profile = profile ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
    opt.no_prune = no_prune;
    rsc_status st = rsc_compile(f->p, f->n, &opt, blob);
    if (st != RSC_OK) {
        printf("seed %" PRIu64 " file #%ld: rsc_compile (no_prune=%d): %s\n  file: ", seed,
               n_file, no_prune, rsc_strerror(st));
        print_escaped(f->p, f->n);
        printf("\n");
        n_failures++;
        return -1;
    }
    rsc_load_error err = {0, NULL};
    st = rsc_load(prog, blob->data, blob->size, &err);
    if (st != RSC_OK) {
        printf("seed %" PRIu64 " file #%ld: rsc_load (no_prune=%d): %s at %zu (%s)\n  file: ",
               seed, n_file, no_prune, rsc_strerror(st), err.offset,
               err.what ? err.what : "");
        print_escaped(f->p, f->n);
        printf("\n");
        n_failures++;
        rsc_blob_free(blob, NULL);
        return -1;
    }
    return 0;
}

static int rfc_families; /* one_file() makes rfc_path()s */

/* Compiles one file and checks n_sets agent sets x n_paths paths/URLs. */
/* Paths that one_file() checks instead of random ones, when set. */
static const char *const *fixed_paths;

static void one_file(const buf *f, int profile, unsigned n_sets, unsigned n_paths)
{
    n_file++;
    if (verbose && n_file <= 5) {
        printf("file #%ld: ", n_file);
        print_escaped(f->p, f->n > 2000 ? 2000 : f->n);
        printf("\n");
    }
    ref_robots rr;
    if (ref_parse(&rr, f->p, f->n, profile) != 0) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    rsc_blob b1 = {NULL, 0}, b2 = {NULL, 0};
    rsc_program p1, p2;
    if (compile_load(f, profile, 0, &b1, &p1) != 0) {
        ref_free(&rr);
        return;
    }
    /* no_prune, and every other file without DFAs (the programs' fallback) */
    if (compile_load(f, profile, RSC_COMPILE_NO_PRUNE | (n_file % 2 ? RSC_COMPILE_NO_DFA : 0), &b2, &p2) != 0) {
        rsc_blob_free(&b1, NULL);
        ref_free(&rr);
        return;
    }
    buf *paths = calloc(n_paths, sizeof *paths);
    int *is_path = calloc(n_paths, sizeof *is_path);
    for (unsigned i = 0; i < n_paths; i++) {
        if (fixed_paths) {
            is_path[i] = 1;
            tu_buf_puts(&paths[i], fixed_paths[i]);
            continue;
        }
        is_path[i] = chance(60);
        if (rfc_families) {
            rfc_path(&paths[i]);
            if (!is_path[i]) { /* as a URL */
                buf u = {NULL, 0, 0};
                tu_buf_puts(&u, "http://example.com");
                tu_buf_put(&u, paths[i].p, paths[i].n);
                free(paths[i].p);
                paths[i] = u;
            }
            continue;
        }
        if (is_path[i]) { /* rsc_match_path wants a path that starts with '/' */
            buf t = {NULL, 0, 0};
            gen_path(&t);
            if (!t.n || t.p[0] != '/')
                tu_buf_puts(&paths[i], "/");
            if (t.n)
                tu_buf_put(&paths[i], t.p, t.n);
            free(t.p);
        } else
            gen_url(&paths[i]);
    }
    for (unsigned s = 0; s < n_sets; s++) {
        rsc_bytes agents[2];
        size_t na = chance(25) ? 2 : 1;
        for (size_t i = 0; i < na; i++) {
            const char *a = PICK(caller_agents);
            agents[i].ptr = a;
            agents[i].len = strlen(a);
        }
        ctx c = {f, &rr, agents, na, profile};
        rsc_selection sel, sel2;
        rsc_status st1 = rsc_select(&p1, agents, na, &sel);
        rsc_status st2 = rsc_select(&p2, agents, na, &sel2);
        if (st1 != RSC_OK || st2 != RSC_OK) {
            char msg[128];
            snprintf(msg, sizeof msg, "rsc_select: %s / %s", rsc_strerror(st1),
                     rsc_strerror(st2));
            report(&c, msg, "", 0, 1, 0, NULL, NULL);
            continue;
        }
        /* sel runs the blob's DFA when its rule set has one (rsc_select);
         * sel3 is the same selection on the programs (rsc_selection_use). */
        rsc_selection sel3 = sel;
        if (rsc_selection_use(&sel3, RSC_ENGINE_PROGRAMS) != RSC_OK ||
            rsc_selection_engine(&sel3, NULL) != RSC_ENGINE_PROGRAMS)
            report(&c, "rsc_selection_use", "", 0, 1, 0, NULL, NULL);
        n_dfa += rsc_selection_engine(&sel, NULL) == RSC_ENGINE_DFA;
        n_accel += rsc_selection_engine(&sel2, NULL) == RSC_ENGINE_DFA;
        for (unsigned i = 0; i < n_paths; i++)
            one_case(&c, &sel, &sel2, &sel3, paths[i].p ? paths[i].p : "", paths[i].n, is_path[i]);
    }
    for (unsigned i = 0; i < n_paths; i++)
        free(paths[i].p);
    free(paths);
    free(is_path);
    rsc_blob_free(&b1, NULL);
    rsc_blob_free(&b2, NULL);
    ref_free(&rr);
}

/* A file around the 512,000-byte cut: a padding comment, then a group whose
 * rules straddle the limit. */
static void big_file(buf *b)
{
    n_file_pats = 0;
    tu_buf_puts(b, "user-agent: *\ndisallow: /a\n#");
    size_t target = 512000 - 40 + rnd(80);
    while (b->n < target)
        tu_buf_puts(b, "padding padding padding padding padding padding padding padding ");
    b->n = target;
    tu_buf_puts(b, "\n");
    for (int i = 0; i < 8; i++) {
        gen_rule_line(b);
        tu_buf_puts(b, "\n");
    }
}

/* Segments with long edge lists (more than 16 edges, which the matcher
 * searches and remembers between the ends of a segment: runtime/match.c,
 * edges_at), more such lists than its memo holds, and paths where they end
 * again and again with new parents reached in between. Rules are
 * /[p/]*[F*]S[*T][$] over small vocabularies; paths are words of them. */
static const char *const lw_first[] = {"qa", "qb", "qc", "qd", "qe", "qf", "qg", "qh",
                                       "qi", "qj", "qk", "ql", "qm", "qn", "qo", "qp",
                                       "qq", "qr", "qs", "qt", "qu", "qv", "qw", "qx"};
static const char *const lw_last[] = {"x",  "ax", "bax", "y",  "ay",  "by", "z",
                                      "az", "w",  "aw",  "v",  "av",  "u",  "au",
                                      "t",  "at", "s",   "as", "r",   "ar", "bar",
                                      "/x", "/ax", "/x", "/x", "/x"};

static void long_lists_file(buf *b)
{
    n_file_pats = 0;
    tu_buf_puts(b, "user-agent: *\n");
    unsigned nr = 200 + rnd(300);
    for (unsigned r = 0; r < nr; r++) {
        tu_buf_puts(b, chance(30) ? "allow: /" : "disallow: /");
        if (chance(40))
            tu_buf_puts(b, "p/");
        tu_buf_puts(b, "*");
        if (chance(70)) { /* else S straight from the root slot */
            tu_buf_puts(b, PICK(lw_first));
            tu_buf_puts(b, "*");
        }
        tu_buf_puts(b, PICK(lw_last));
        if (chance(25)) {
            tu_buf_puts(b, "*");
            tu_buf_puts(b, PICK(lw_last));
        }
        tu_buf_puts(b, chance(10) ? "$\n" : "\n");
    }
}

static void long_lists_path(buf *b)
{
    tu_buf_puts(b, "/");
    if (chance(50))
        tu_buf_puts(b, "p/");
    unsigned k = rnd(40);
    for (unsigned i = 0; i < k; i++)
        tu_buf_puts(b, chance(40) ? PICK(lw_first) : chance(10) ? "/" : PICK(lw_last));
}

/* differential rfc [SEED [SCALE]]: the rfc profile's own families against
 * the RFC 9309 reference (tests/ref/ref_rfc.c). */
static int main_rfc(int argc, char **argv)
{
    seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 20261127u;
    long scale = argc > 3 ? strtol(argv[3], NULL, 10) : RSC_DIFF_SCALE;
    verbose = argc > 4;
    if (scale < 1)
        scale = 1;
    rng_state = seed;
    rfc_families = 1;
    long files = 2000 * scale / 100 + 1;
    for (long i = 0; i < files && n_failures <= 10; i++) {
        buf f = {NULL, 0, 0};
        heavy = i % 16 == 15;
        gen_rfc_file(&f);
        one_file(&f, 1, 4, 12);
        free(f.p);
    }
    printf("rfc seed %" PRIu64 ": %ld files, %ld cases, %ld failed\n(reference verdicts: %ld "
           "disallowed, %ld decided by a rule)\n",
           seed, n_file, n_cases, n_failures, n_disallowed, n_decided);
    return n_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "rfc") == 0)
        return main_rfc(argc, argv);
    seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 20261122u;
    long scale = argc > 2 ? strtol(argv[2], NULL, 10) : RSC_DIFF_SCALE;
    verbose = argc > 3;
    if (scale < 1)
        scale = 1;
    rng_state = seed;
    /* google: 100,000+ cases at scale 100 (about 8 x 16 per file) */
    long google_files = 800 * scale / 100, rfc_files = 160 * scale / 100;
    for (long i = 0; i < google_files && n_failures <= 10; i++) {
        buf f = {NULL, 0, 0};
        heavy = i % 16 == 15;
        gen_file(&f);
        one_file(&f, 0, 8, 16);
        free(f.p);
    }
    long google_cases = n_cases;
    heavy = 0;
    for (int i = 0; i < 2 && n_failures <= 10; i++) {
        buf f = {NULL, 0, 0};
        big_file(&f);
        one_file(&f, 0, 4, 16);
        free(f.p);
    }
    long big_cases = n_cases - google_cases;
    { /* the memo's edge cases: a root slot reached after the start of a
       * segment's first end, parents reached between two ends */
        static const char *const paths[] = {"/p/x/x", "/p/x", "/p/qx/x", "/x/p/x", "/qa/x/x",
                                            "/p//x/qb/x", "/p/x/qc/x/x", "/p/x/x/x/qd/x"};
        buf f = {NULL, 0, 0};
        tu_buf_puts(&f, "user-agent: *\ndisallow: /p/*/x\nallow: /*qb*/x\ndisallow: /*qd*/x/x\n");
        for (const char *q = "abcdefghijklmnopqrst"; *q; q++) {
            char line[32];
            snprintf(line, sizeof line, "allow: /*q%c*/x\n", *q);
            tu_buf_puts(&f, line);
        }
        fixed_paths = paths;
        one_file(&f, 0, 1, sizeof paths / sizeof paths[0]);
        one_file(&f, 1, 1, sizeof paths / sizeof paths[0]);
        fixed_paths = NULL;
        free(f.p);
    }
    long_lists = 1;
    for (long i = 0; i < 40 * scale / 100 + 1 && n_failures <= 10; i++) {
        buf f = {NULL, 0, 0};
        long_lists_file(&f);
        one_file(&f, i % 4 == 3, 2, 64);
        free(f.p);
    }
    long_lists = 0;
    long long_cases = n_cases - google_cases - big_cases;
    heavy = 0;
    for (long i = 0; i < rfc_files && n_failures <= 10; i++) {
        buf f = {NULL, 0, 0};
        heavy = i % 16 == 15;
        gen_file(&f);
        one_file(&f, 1, 8, 16);
        free(f.p);
    }
    printf("seed %" PRIu64 ": %ld files, %ld cases (google %ld, 512000-cut %ld, long edge "
           "lists %ld, rfc %ld), %ld failed\n(reference verdicts: %ld disallowed, %ld decided "
           "by a rule; %ld no_prune selections on a DFA; %ld default ones (%ld partial), "
           "%ld cases)\n",
           seed, n_file, n_cases, google_cases, big_cases, long_cases,
           n_cases - google_cases - big_cases - long_cases, n_failures, n_disallowed, n_decided,
           n_accel, n_dfa, n_dfa_partial, n_dfa_cases);
    if (n_cases > 1000 && n_dfa_cases * 2 < n_cases) { /* the DFA must be what runs */
        printf("too few cases went through a DFA: %ld of %ld\n", n_dfa_cases, n_cases);
        n_failures++;
    }
    return n_failures ? 1 : 0;
}
