/* SPDX-License-Identifier: Apache-2.0 */
/* The blob's DFA (format 5, docs/DFA.md): the compiler writes each rule
 * set's DFA into the blob and rsc_select() runs it from the first URL.
 * Checked here: every path and URL of the semantics' corners (end anchors,
 * '*' runs, '$' inside a pattern, the index.html rule, NUL and '#' in paths
 * and URLs, the '/' put in front of "?q", the rfc profile's normalisation
 * and /robots.txt) gets the same verdict from the DFA (m NULL) as from the
 * programs (m non-NULL, and rsc_selection_use), and the hand-checked one
 * where written; random rule sets over a small alphabet, 3,000 random paths
 * each; the same blobs compiled without DFAs (RSC_COMPILE_NO_DFA) run the
 * programs with the same verdicts; a selection of two rule sets runs the
 * programs; a set like one of its file whose DFA failed is not tried
 * (like_failed_test()); the engine API and the deprecated wrappers (1.0's DFA calls
 * and the dense rows' rsc_accel_size/rsc_accel_build: they build nothing
 * and leave the selection as it is); and damage: every truncation
 * of a blob is refused, every bit flip of its DFAS section is refused (the
 * checksum), and with the checksum made right again each flip is refused
 * by verification or loads and answers safely (0 or 1, ASan-clean). A
 * self-test plants a wrong verdict (the start state made "allowed") in a
 * DFA and checks that the comparison catches it.
 * Hostile paths (dfa_vs()): the DFA's verdict (m NULL) is the programs' on
 * every fixed path and URL and on random ones over bytes of every kind
 * ('*', '$', '#', '%', '/', NUL, high bytes, any byte), for the rule sets
 * above, the random ones, random ones over a wider alphabet and sets made
 * for the DFA's shapes (fall-back states, chains of 1 and 2 bytes, chains
 * whose Other is themselves, states that keep every other byte, many keys:
 * each shape must be met); damaged DFAs that load (the flips above, the
 * planted start, and hand-made DFAs: every STATES field of small DFAs
 * edited, Start set to every state and both verdicts) answer those paths
 * safely, right or wrong. Random paths that walk the DFA (its labels' and keys'
 * bytes) reach its deep states, where uniform ones rarely go; there the
 * blob DFA's verdict must also be FORMAT.md's move() as this file reads
 * it (dfa_move()), damaged or not. The counts are printed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

typedef struct rset {
    const char *name;
    int rfc;
    const char *body;
} rset;

static const rset sets[] = {
    {"empty", 0, ""},
    {"all allowed", 0, "User-agent: *\nAllow: /\nAllow: /a\n"},
    {"all disallowed", 0, "User-agent: *\nDisallow: /\n"},
    {"literal", 0, "User-agent: *\nDisallow: /private\nAllow: /private/public\nDisallow: /x$\n"},
    {"wildcards", 0,
     "User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?sessionid=\nAllow: /*/public/*.html\n"
     "Disallow: /private*/*/edit\nDisallow: /a*b*c*d\nAllow: /a**$\nDisallow: /q*\n"},
    {"anchors", 0,
     "User-agent: *\nDisallow: $\nDisallow: /a$b\nAllow: /a$b$\nDisallow: /$\nAllow: /c*$\n"
     "Disallow: /c/d\nDisallow: *$\nAllow: /e$$\n"},
    {"index.html", 0,
     "User-agent: *\nDisallow: /\nAllow: /d/index.html\nAllow: /e/index.htm$\n"},
    {"lead star", 0, "User-agent: *\nDisallow: *x\nAllow: */y*z$\nDisallow: *.php\n"},
    {"rfc", 1,
     "User-agent: *\nDisallow: /\nAllow: /%7Efoo\nDisallow: /a%2fb\nAllow: /%E2%82%AC*\n"
     "Disallow: /x%41*$\n"},
};
#define NSETS (sizeof sets / sizeof sets[0])

static const char nul_path[] = "/a\0b"; /* 4 bytes: the NUL ends the path */

static const char *const paths[] = {
    "", "/", "/a", "/ab", "/a$b", "/a$bc", "/a$b$", "/x", "/xy", "/private", "/private/public/x",
    "/x.pdf", "/x.pdf?", "/s?sessionid=1", "/y/public/z.html", "/private1/q/edit", "/aXbYcZd",
    "/abdc", "/q", "/c", "/c/d", "/c/e", "/e$", "/e", "/d/", "/d/index.html", "/d/x", "/e/",
    "/e/index.htm", "/zx", "/k/y1z", "/k/yz?", "/i.php", "/~foo", "/%7efoo", "/%7Efoo",
    "/a%2fb", "/a%2Fb", "/a/b", "/\xe2\x82\xac", "/%e2%82%ac/x", "/xA", "/x%41", "/x%41%42",
    "/robots.txt", "/robots.txt?", "/%72obots.txt", "?q", nul_path, "/x#y", "/private#",
    "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.pdf",
};
#define NPATHS (sizeof paths / sizeof paths[0])

/* A path's length: to its NUL, or past it for nul_path (the NUL is data). */
static size_t plen(const char *p)
{
    return p == nul_path ? sizeof nul_path - 1 : strlen(p);
}

static int load(const rset *r, rsc_blob *blob, rsc_program *prog, rsc_selection *sel)
{
    rsc_compile_options opt = {r->rfc ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE, NULL, NULL, NULL,
                               NULL, 0};
    rsc_bytes ag = {"Googlebot", 9};
    if (rsc_compile(r->body, strlen(r->body), &opt, blob) != RSC_OK ||
        rsc_load(prog, blob->data, blob->size, NULL) != RSC_OK ||
        rsc_select(prog, &ag, 1, sel) != RSC_OK) {
        TU_CHECK(0, "%s: compile, load or select", r->name);
        return 0;
    }
    return 1;
}

/* A 64-bit LCG step (Knuth's MMIX constants): the tests' seeded randomness. */
static unsigned long long lcg(unsigned long long *x)
{
    return *x = *x * 6364136223846793005ull + 1442695040888963407ull;
}

/* A "User-agent: *" group of nr random rules over alpha, each of min_len
 * to min_len + spread - 1 bytes after its '/', a quarter of them
 * end-anchored when dollars. */
static void random_rules(unsigned long long *x, const char *alpha, char *body, size_t cap, int nr, int min_len,
                         int spread, int dollars)
{
    const size_t na = strlen(alpha);
    size_t bl = (size_t)snprintf(body, cap, "User-agent: *\n");
    for (int k = 0; k < nr && bl + 32 < cap; k++) {
        unsigned long long v = lcg(x);
        bl += (size_t)snprintf(body + bl, cap - bl, "%s: /", (v >> 40) & 1 ? "Allow" : "Disallow");
        int len = min_len + (int)((v >> 20) % (unsigned)spread);
        for (int j = 0; j < len; j++)
            body[bl++] = alpha[(lcg(x) >> 33) % na];
        if (dollars && (*x >> 50) % 4 == 0)
            body[bl++] = '$';
        body[bl++] = '\n';
    }
    body[bl] = 0;
}

/* A random path of 1 to 40 bytes: '/', then bytes of alpha. */
static size_t random_path(unsigned long long *x, char *path, const char *alpha)
{
    size_t len = 1 + (lcg(x) >> 30) % 40, na = strlen(alpha);
    path[0] = '/';
    for (size_t j = 1; j < len; j++)
        path[j] = alpha[(lcg(x) >> 35) % na];
    return len;
}

/* Hand-checked verdicts (1 allowed), beyond agreeing with the programs. */
typedef struct want {
    size_t set;
    const char *path;
    int url, allowed;
} want;

static const want wants[] = {
    {3, "/private", 0, 0},       {3, "/private/public/x", 0, 1}, {3, "/x", 0, 0},
    {3, "/xy", 0, 1},            {3, "/x#y", 1, 0},              {3, "/x#y", 0, 1},
    {4, "/a.pdf", 0, 0},         {4, "/a.pdf?", 0, 1},           {4, "/a", 0, 1},
    {4, "/aXbYcZd", 0, 0},       {5, "", 0, 0},                  {5, "/a$b", 0, 1},
    {5, "/a$bc", 0, 0},          {5, "/c/d", 0, 1},              {6, "/d/", 0, 1},
    {6, "/d/x", 0, 0},           {6, "/e/", 0, 1},               {6, "/e/index.htm", 0, 1},
    {6, "/e/index.htmx", 0, 0},  {7, "/zx", 0, 0},               {7, "/k/y1z", 0, 1},
    {7, "/i.php", 0, 0},         {8, "/robots.txt", 0, 1},       {8, "/%72obots.txt", 0, 1},
    {8, "/~foo", 0, 1},          {8, "/%7efoo", 0, 1},           {8, "/a/b", 0, 0},
    {8, "/\xe2\x82\xac", 0, 1},  {8, "/xA", 0, 0},               {8, "/x%41%42", 0, 0},
    {2, nul_path, 0, 0},          {1, "/", 0, 1},                 {0, "/", 0, 1},
};


/* Every path and URL: sel's verdict with m NULL equals the programs' (m
 * non-NULL, which never runs the DFA). Returns the differences. */
static long differ(const rsc_selection *sel)
{
    static const char *const hosts[] = {"", "http://h.com", "//h", "https://h.com:8"};
    long bad = 0;
    for (size_t i = 0; i < NPATHS; i++) {
        rsc_match m;
        size_t n = plen(paths[i]);
        bad += rsc_match_path(sel, paths[i], n, NULL) != rsc_match_path(sel, paths[i], n, &m);
        for (size_t h = 0; h < sizeof hosts / sizeof hosts[0]; h++) {
            char url[256];
            size_t hl = strlen(hosts[h]);
            memcpy(url, hosts[h], hl);
            memcpy(url + hl, paths[i], n);
            bad += rsc_match_url(sel, url, hl + n, NULL) != rsc_match_url(sel, url, hl + n, &m);
        }
    }
    return bad;
}

/* n random paths over alpha: d's verdict (m NULL) equals the programs'. */
static void random_paths(const char *name, const rsc_selection *d, unsigned long long *x, int n,
                         const char *alpha)
{
    char path[64];
    for (int k = 0; k < n; k++) {
        size_t len = random_path(x, path, alpha);
        rsc_match m;
        int pv = rsc_match_path(d, path, len, &m);
        TU_COUNT(rsc_match_path(d, path, len, NULL) == pv, "%s: path %.*s: programs %d", name,
                 (int)len, path, pv);
    }
}

/* The Adler-32 Checksum (FORMAT.md) of b[0..n), written at offset 7. */
static void fix_checksum(uint8_t *b, size_t n)
{
    uint32_t a = 1, s = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = i >= 7 && i < 11 ? 0 : b[i];
        a = (a + c) % 65521, s = (s + a) % 65521;
    }
    uint32_t v = s << 16 | a;
    for (int i = 0; i < 4; i++)
        b[7 + i] = (uint8_t)(v >> (8 * i));
}

/* Where section id's content is, from the framing (0: absent). */
static size_t section_at(const uint8_t *b, size_t n, unsigned id, size_t *size)
{
    size_t pos = 11;
    uint32_t v = 0, present = 0;
    while (pos < n) /* Total_Size: skipped */
        if (!(b[pos++] & 0x80))
            break;
    for (unsigned sh = 0; pos < n; sh += 7) {
        uint8_t c = b[pos++];
        present |= (uint32_t)(c & 0x7f) << sh;
        if (!(c & 0x80))
            break;
    }
    for (unsigned k = 1; k <= 32 && pos < n; k++) {
        if (!(present >> (k - 1) & 1))
            continue;
        v = 0;
        for (unsigned sh = 0; pos < n; sh += 7) {
            uint8_t c = b[pos++];
            v |= (uint32_t)(c & 0x7f) << sh;
            if (!(c & 0x80))
                break;
        }
        if (k == id) {
            *size = v;
            return pos;
        }
        pos += v;
    }
    *size = 0;
    return 0;
}

/* A canonical varint (FORMAT.md, Conventions): its bytes at p (NULL: only
 * counted). */
static size_t put_varint(uint8_t *p, uint32_t v)
{
    size_t n = 0;
    do {
        const uint8_t c = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (p)
            p[n] = (uint8_t)(c | (v ? 0x80 : 0));
        n++;
    } while (v);
    return n;
}

/* b (n bytes) with the one-byte Start of the DFA at DFAS Data's start
 * (d0: the section's content, laid out as hand_made() checks) replaced by
 * st, a varint of two bytes or more: the DFAS End, the section's Size and
 * Total_Size grown to match, the checksum made right. NULL when one of
 * those would change its length (*n2: the new size). */
static uint8_t *with_start(const uint8_t *b, size_t n, size_t d0, size_t dsize, uint32_t st, size_t *n2)
{
    const size_t grow = put_varint(NULL, st) - 1, vs = put_varint(NULL, (uint32_t)dsize);
    size_t pos = 11, tl;
    uint32_t total = 0;
    for (unsigned sh = 0; pos < n; sh += 7)
        if (total |= (uint32_t)(b[pos] & 0x7f) << sh, !(b[pos++] & 0x80))
            break;
    tl = pos - 11;
    if (put_varint(NULL, total + (uint32_t)grow) != tl || put_varint(NULL, (uint32_t)(dsize + grow)) != vs ||
        b[d0 + 2] + grow > 0x7f || total != n || d0 + dsize != n)
        return NULL;
    uint8_t *c = malloc(n + grow);
    if (!c)
        exit(2);
    memcpy(c, b, d0 + 4);
    put_varint(c + d0 + 4, st);
    memcpy(c + d0 + 5 + grow, b + d0 + 5, n - d0 - 5);
    c[d0 + 2] = (uint8_t)(c[d0 + 2] + grow);
    put_varint(c + d0 - vs, (uint32_t)(dsize + grow));
    put_varint(c + 11, total + (uint32_t)grow);
    *n2 = n + grow;
    fix_checksum(c, *n2);
    return c;
}

/* ---- the DFA on hostile and guided paths ------------------------------ */

/* Selections on a DFA run on them, the verdicts compared, and the edited
 * DFAs that loaded. */
static long n_dfa_sel, n_dfa_cmp, n_hand_loaded;
static long n_dfa_at_select; /* damaged DFAs RSC_LOAD_DEFER left to rsc_select() */

/* The bytes of hostile paths: the rules' own, the pattern characters as
 * data, '#' (a URL's end), '%', '?', NUL, high bytes. */
static const char hostile_alpha[] = "ab*c/.dx$#%?e=\xff\x80\xc3\xa9\0";
#define HOSTILE_NA (sizeof hostile_alpha - 1) /* the NUL inside counts */

/* A random path of 0 to 80 bytes over alpha (na bytes), most of them
 * starting with '/', one byte in 16 any byte at all. */
static size_t hostile_path(unsigned long long *x, char *p, const char *alpha, size_t na)
{
    size_t len = (lcg(x) >> 30) % 81, j = 0;
    if (len && (lcg(x) >> 40) % 8)
        p[j++] = '/';
    for (; j < len; j++) {
        const unsigned long long v = lcg(x);
        p[j] = (v >> 60) == 0 ? (char)(v >> 20) : alpha[(v >> 33) % na];
    }
    return len;
}

static void put_escaped(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\' ? "%c" : "\\x%02x", (unsigned char)s[i]);
}

/* The shapes of the DFAs run on those paths (docs/FORMAT.md "DFAS"),
 * read through rsc_selection_dfa(): each must have been met. */
enum {
    SH_EXPLICIT,     /* L = 0                                        */
    SH_EXPLICIT_FB,  /* L = 0, F = 1: falls back                     */
    SH_KEEPS,        /* L = 0, its D itself (a scan when few keys)   */
    SH_MANY_KEYS,    /* L = 0, more than 8 keys                      */
    SH_CHAIN1,       /* L = 1, a label of 1 byte                     */
    SH_CHAIN2,       /* ... of 2 bytes                               */
    SH_CHAIN_LONG,   /* ... of more                                  */
    SH_CHAIN_SELF,   /* a chain whose Other (D) is itself            */
    SH_CHAIN_FB,     /* a chain that falls back                      */
    SH_START_VERDICT, /* Start a verdict, with row states            */
    SH_FB_CHAIN2,    /* falling back to a chain of 2 bytes or more   */
    SH_N
};
static const char *const shape_name[SH_N] = {"explicit", "explicit falling back", "explicit keeping the rest",
                                             "more than 8 keys", "chain of 1 byte", "chain of 2 bytes",
                                             "longer chain", "chain whose Other is itself",
                                             "chain falling back", "start a verdict",
                                             "falling back to a chain of 2+ bytes"};
static long shape[SH_N];

/* A record of the DFA that view v describes in blob b (FORMAT.md, DFAS),
 * read here apart from runtime/dfa.c: at code s, its Flags, N, Other, a
 * chain's Next and label offset, an explicit state's keys and targets, and
 * its bytes. */
typedef struct trec {
    uint32_t fl, n, other, next, loff, bytes;
    const uint8_t *keys, *tg;
} trec;

static uint32_t tcode(const uint8_t *p, uint32_t w)
{
    return w == 1 ? p[0] : (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static trec rec_at(const uint8_t *b, const rsc_dfa_view *v, uint32_t s)
{
    const uint8_t *r = b + v->code + s;
    const uint32_t w = v->width;
    trec t = {r[0], r[1], tcode(r + 2, w), 0, 0, 0, NULL, NULL};
    if (t.fl & 2) {
        t.next = tcode(r + 2 + w, w);
        for (uint32_t i = 0; i < v->lab_width; i++)
            t.loff |= (uint32_t)r[2 + 2 * w + i] << (8 * i);
        t.bytes = 2 + 2 * w + v->lab_width;
    } else {
        t.keys = r + 2 + w, t.tg = r + 2 + w + t.n;
        t.bytes = 2 + w + t.n * (1 + w);
    }
    return t;
}

static uint32_t rec_target(const trec *t, uint32_t w, uint32_t i)
{
    return tcode(t->tg + (size_t)i * w, w);
}

static void census(const rsc_selection *sel)
{
    rsc_dfa_view v;
    if (!rsc_selection_dfa(sel, &v))
        return;
    const uint8_t *b = sel->prog->base;
    shape[SH_START_VERDICT] += v.states > 0 && v.start >= v.allowed;
    for (uint32_t s = 0; s < v.size;) {
        const trec t = rec_at(b, &v, s);
        if ((t.fl & 4) && t.other < v.allowed) { /* D: a chain of 2 bytes or more? */
            const trec dt = rec_at(b, &v, t.other);
            shape[SH_FB_CHAIN2] += (dt.fl & 2) && dt.n > 1;
        }
        if (t.fl & 2) {
            shape[t.n == 1 ? SH_CHAIN1 : t.n == 2 ? SH_CHAIN2 : SH_CHAIN_LONG]++;
            shape[SH_CHAIN_SELF] += t.other == s;
            shape[SH_CHAIN_FB] += (t.fl >> 2) & 1;
        } else {
            shape[SH_EXPLICIT]++;
            shape[SH_EXPLICIT_FB] += (t.fl >> 2) & 1;
            shape[SH_KEEPS] += t.other == s;
            shape[SH_MANY_KEYS] += t.n > 8;
        }
        s += t.bytes;
    }
}

/* sel (m NULL: the blob's DFA) on path p of n bytes and on URLs of it
 * after each host, the path cut at its first NUL and whole: safe (0 or
 * 1), and with programs (a blob as the compiler wrote it) the programs'
 * verdict (m non-NULL) too. Returns the differences (the first few
 * printed with the input). */
static long dfa_one(const char *name, const rsc_selection *sel, const char *p, size_t n, int programs)
{
    static const char *const hosts[] = {"", "http://h.com", "//h", "https://h.com:8"};
    static int shown;
    const char *nul = memchr(p, 0, n);
    const size_t cut = nul ? (size_t)(nul - p) : n;
    long bad = 0;
    char url[160];
    for (size_t h = 0; h < sizeof hosts / sizeof hosts[0]; h++) {
        const size_t hl = strlen(hosts[h]);
        if (hl + n > sizeof url)
            continue;
        memcpy(url, hosts[h], hl);
        memcpy(url + hl, p, n);
        for (int u = h > 0; u < 2; u++) { /* the path itself once, then as URLs */
            const char *q = u ? url : p;
            const size_t off = u ? hl : 0;
            for (int whole = 0; whole < 2 && (!whole || cut < n); whole++) {
                const size_t qn = off + (whole ? n : cut);
                rsc_match m;
                const int f = u ? rsc_match_url(sel, q, qn, NULL) : rsc_match_path(sel, q, qn, NULL);
                const int g = !programs ? f : u ? rsc_match_url(sel, q, qn, &m) : rsc_match_path(sel, q, qn, &m);
                n_dfa_cmp++;
                if ((f == 0 || f == 1) && f == g)
                    continue;
                if (bad++ == 0 && shown++ < 10) {
                    fprintf(stderr, "%s: %s '", name, u ? "URL" : "path");
                    put_escaped(q, qn);
                    fprintf(stderr, "' (%zu bytes): the blob's DFA %d, programs %s%d\n", qn, f,
                            programs ? "" : "(not compared) ", g);
                }
            }
        }
    }
    return bad;
}

/* FORMAT.md's move() on the DFA that view v describes in blob b: state *s
 * (a code), at byte *j of its label, reads c (*s stays below the
 * verdicts). */
static void dfa_move(const uint8_t *b, const rsc_dfa_view *v, uint32_t *s, uint32_t *j, uint8_t c)
{
    for (int again = 0; again < 2; again++) { /* F: c read again in D, whose F is 0 */
        const trec t = rec_at(b, v, *s);
        if (t.fl & 2) {
            if (b[v->str + t.loff + *j] == c) {
                if (++*j == t.n)
                    *s = t.next, *j = 0;
                return;
            }
        } else {
            for (uint32_t i = 0; i < t.n; i++)
                if (t.keys[i] == c) {
                    *s = rec_target(&t, v->width, i), *j = 0;
                    return;
                }
        }
        *s = t.other, *j = 0;
        if (!(t.fl & 4))
            return;
    }
}

/* A path of 1 to cap bytes that walks the DFA: at a state, 7 bytes in 8
 * are ones it reads (its label's next byte, or one of its keys), the
 * others from alpha (na bytes). *expect: FORMAT.md's verdict of the path
 * (1 allowed) as dfa_move() reads it, -1 when it holds a NUL. */
static size_t guided_path(unsigned long long *x, const uint8_t *b, const rsc_dfa_view *v, char *p, size_t cap,
                          const char *alpha, size_t na, int *expect)
{
    uint32_t s = v->start, j = 0;
    const size_t len = 1 + (lcg(x) >> 30) % cap;
    int nul = 0;
    for (size_t n = 0; n < len; n++) {
        const unsigned long long r = lcg(x);
        uint8_t c = (uint8_t)alpha[(r >> 33) % na];
        if (s < v->allowed && (r >> 61) != 0) {
            const trec t = rec_at(b, v, s);
            if (t.fl & 2)
                c = b[v->str + t.loff + j];
            else if (t.n)
                c = t.keys[(r >> 20) % t.n];
        }
        p[n] = (char)c;
        nul |= !c;
        if (s < v->allowed)
            dfa_move(b, v, &s, &j, c);
    }
    if (nul)
        *expect = -1;
    else if (s < v->allowed)
        *expect = !(rec_at(b, v, s).fl & 1);
    else
        *expect = s == v->allowed;
    return len;
}

/* sel (dfa_one()) on every fixed path (and URL), n random ones over alpha
 * and guided ones that walk the DFA (guided_path(): the blob's DFA must
 * also give FORMAT.md's verdict there, which dfa_move() reads
 * independently of runtime/dfa.c); each difference is a failure. */
static void dfa_vs(const char *name, const rsc_selection *sel, unsigned long long *x, int n, const char *alpha,
                   size_t na, int guided, int programs)
{
    static int shown;
    long bad = 0, spec_bad = 0;
    char p[96];
    for (size_t i = 0; i < NPATHS; i++)
        bad += dfa_one(name, sel, paths[i], plen(paths[i]), programs);
    for (int k = 0; k < n; k++) {
        const size_t len = hostile_path(x, p, alpha, na);
        bad += dfa_one(name, sel, p, len, programs);
    }
    rsc_dfa_view v;
    for (int k = 0; k < guided && rsc_selection_dfa(sel, &v); k++) {
        int expect;
        const size_t len = guided_path(x, sel->prog->base, &v, p, sizeof p, hostile_alpha, HOSTILE_NA, &expect);
        bad += dfa_one(name, sel, p, len, programs);
        const int got = rsc_match_path(sel, p, len, NULL);
        n_dfa_cmp++;
        if (expect >= 0 && got != expect && spec_bad++ == 0 && shown++ < 10) {
            fprintf(stderr, "%s: path '", name);
            put_escaped(p, len);
            fprintf(stderr, "': the blob's DFA %d, FORMAT.md's move() %d\n", got, expect);
        }
    }
    TU_COUNT(bad == 0 && spec_bad == 0, "%s: %ld verdicts of the DFA differ from the programs', %ld from FORMAT.md",
             name, bad, spec_bad);
}

/* 1 when sel runs a DFA (counted, its shapes too: census()), else 0. */
static int runs_dfa(const rsc_selection *sel)
{
    if (rsc_selection_engine(sel, NULL) != RSC_ENGINE_DFA)
        return 0;
    n_dfa_sel++, census(sel);
    return 1;
}

/* A hand-made DFA that verified and selected (es): counted, and run on
 * hostile and guided paths when it is still a DFA. */
static void hand_run(const char *name, const rsc_selection *es, unsigned long long *x)
{
    n_hand_loaded++;
    if (runs_dfa(es))
        dfa_vs(name, es, x, 16, hostile_alpha, HOSTILE_NA, 64, 0);
}

/* Hand-made DFAs: the blob's DFA (sel's, of a "User-agent: *" file, at most
 * 64 states) edited one record at a time, checksum made right: each
 * record's Flags as every combination of E, L and F with its Other as each
 * of itself, 0, the verdicts, its own and the next record (fall-back
 * states, chains whose Other is themselves, explicit states made chains
 * and back, end verdicts flipped); its N 1, 2 and one less or more; a
 * chain's Next itself, 0 or a verdict; and, when the DFAS section is laid
 * out as the self-test below reads it, Start every record, a byte inside
 * one, and both verdicts. Whatever verification accepts must answer
 * safely, right or wrong, and as FORMAT.md reads it on guided paths
 * (hand_run()). */
static void hand_made(const char *name, const rsc_blob *blob, const rsc_selection *sel, unsigned long long *x)
{
    rsc_dfa_view v;
    if (!rsc_selection_dfa(sel, &v) || v.states == 0 || v.states > 64)
        return;
    const uint32_t w = v.width, va = v.allowed;
    uint8_t *c = malloc(blob->size);
    if (!c)
        exit(2);
    rsc_bytes ag = {"Googlebot", 9};
    typedef struct edit { /* up to two writes: n bytes of val at at */
        size_t at[2];
        uint32_t n[2], val[2];
    } edit;
    edit ed[96];
    size_t ne = 0;
    uint32_t codes[65], nc = 0;
    for (uint32_t s = 0; s < v.size; s += rec_at(blob->data, &v, s).bytes)
        codes[nc++] = s;
    for (uint32_t k = 0; k < nc; k++) {
        const uint32_t s = codes[k];
        const trec t = rec_at(blob->data, &v, s);
        const size_t rec = v.code + s;
        const uint32_t ds[] = {s, 0, va, va + 1, t.other, codes[(k + 1) % nc]};
        ne = 0;
        for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++)
            for (uint32_t fl = 0; fl < 8; fl++)
                ed[ne++] = (edit){{rec, rec + 2}, {1, w}, {fl, ds[i]}};
        const uint32_t lens[] = {1, 2, t.n - 1, t.n + 1}, nexts[] = {s, 0, va, va + 1};
        for (size_t i = 0; i < 4; i++)
            ed[ne++] = (edit){{rec + 1, 0}, {1, 0}, {lens[i] & 0xff, 0}};
        for (size_t i = 0; i < 4 && (t.fl & 2); i++)
            ed[ne++] = (edit){{rec + 2 + w, 0}, {w, 0}, {nexts[i], 0}};
        for (size_t e = 0; e < ne; e++) {
            memcpy(c, blob->data, blob->size);
            for (int q = 0; q < 2; q++)
                for (uint32_t i = 0; i < ed[e].n[q]; i++)
                    c[ed[e].at[q] + i] = (uint8_t)(ed[e].val[q] >> (8 * i));
            if (memcmp(c, blob->data, blob->size) == 0)
                continue; /* no edit */
            fix_checksum(c, blob->size);
            rsc_program p;
            rsc_selection es;
            if (rsc_load(&p, c, blob->size, NULL) == RSC_OK && rsc_select(&p, &ag, 1, &es) == RSC_OK)
                hand_run(name, &es, x);
        }
    }
    /* Start: DFAS's Count 1, widths 00, one End byte, then K and Start as
     * one byte each (checked against the view): a record's code and the
     * verdicts verify, a byte inside a record does not */
    size_t dsize, d0 = section_at(blob->data, blob->size, 9, &dsize);
    if (d0 && dsize > 5 && v.states < 0x80 && blob->data[d0] == 1 && blob->data[d0 + 1] == 0 &&
        blob->data[d0 + 3] == v.states && blob->data[d0 + 4] == v.start) {
        for (uint32_t st = 0; st <= va + 1 && st < 0x80; st++) {
            int is_code = st >= va;
            for (uint32_t k = 0; k < nc; k++)
                is_code |= codes[k] == st;
            if (!is_code && st >= v.size)
                continue; /* past CODE, short of the verdicts */
            memcpy(c, blob->data, blob->size);
            c[d0 + 4] = (uint8_t)st;
            fix_checksum(c, blob->size);
            rsc_program p;
            rsc_selection es;
            const int ok = rsc_load(&p, c, blob->size, NULL) == RSC_OK;
            TU_CHECK(ok == is_code, "%s: Start %u (%s) %s", name, st, is_code ? "a code" : "inside a record",
                     ok ? "verified" : "refused");
            if (ok && rsc_select(&p, &ag, 1, &es) == RSC_OK)
                hand_run(name, &es, x);
        }
        /* the verdicts, as Start of a DFA with records (their codes take
         * two bytes or more as varints), and a code past them */
        for (uint32_t st = va; st <= va + 2; st++) {
            size_t n2;
            uint8_t *e = with_start(blob->data, blob->size, d0, dsize, st, &n2);
            if (!e)
                continue;
            rsc_program p;
            rsc_selection es;
            const int ok = rsc_load(&p, e, n2, NULL) == RSC_OK;
            TU_CHECK(ok == (st <= va + 1), "%s: Start %u (%s) %s", name, st, st <= va + 1 ? "a verdict" : "past them",
                     ok ? "verified" : "refused");
            if (ok && rsc_select(&p, &ag, 1, &es) == RSC_OK) {
                TU_CHECK(rsc_match_path(&es, "/", 1, NULL) == (st == va), "%s: Start %u: every path's verdict", name,
                         st);
                hand_run(name, &es, x);
            }
            free(e);
        }
    }
    free(c);
}

/* Damage: every truncation refused; every bit of the DFAS section flipped
 * (with one_bit, only bit i % 8 of byte i: large DFAs) refused (the
 * checksum), and with the checksum right again refused or loaded and run
 * safely, on hostile and guided paths too (dfa_vs()). Returns the flips
 * verification refused. */
static long damage(const char *name, const rsc_blob *blob, int one_bit)
{
    static unsigned long long hx = 77;
    long refused = 0, flips = 0;
    uint8_t *c = malloc(blob->size);
    if (!c)
        exit(2);
    rsc_program p;
    for (size_t k = 0; k < blob->size; k++)
        TU_COUNT(rsc_load(&p, blob->data, k, NULL) != RSC_OK, "%s: cut to %zu bytes loads", name, k);
    size_t dsize, d0 = section_at(blob->data, blob->size, 9, &dsize);
    TU_CHECK(d0 > 0 && dsize > 0, "%s: no DFAS section", name);
    for (size_t i = d0; d0 && i < d0 + dsize; i++)
        for (unsigned bit = 0; bit < 8; bit++) {
            if (one_bit && bit != i % 8)
                continue;
            memcpy(c, blob->data, blob->size);
            c[i] ^= (uint8_t)(1u << bit);
            TU_COUNT(rsc_load(&p, c, blob->size, NULL) == RSC_E_CHECKSUM, "%s: flip at %zu.%u", name, i, bit);
            fix_checksum(c, blob->size);
            flips++;
            /* RSC_LOAD_DEFER: what rsc_load refuses is refused by the
             * deferred load or, when it lies in the DFA (left to the
             * selection that runs it), by rsc_select of its one set */
            rsc_program dp;
            rsc_selection dsel;
            const rsc_bytes gb = {"Googlebot", 9};
            const rsc_status full = rsc_load(&p, c, blob->size, NULL),
                             dst = rsc_load_ex(&dp, c, blob->size, RSC_LOAD_DEFER, NULL);
            const rsc_status sst = dst == RSC_OK ? rsc_select(&dp, &gb, 1, &dsel) : dst;
            TU_COUNT(dst == full || (full == RSC_E_CORRUPT && dst == RSC_OK && sst == RSC_E_CORRUPT &&
                                     dsel.prog == NULL),
                     "%s: flip at %zu.%u: rsc_load %s; deferred load %s, select %s", name, i, bit,
                     rsc_strerror(full), rsc_strerror(dst), rsc_strerror(sst));
            n_dfa_at_select += dst == RSC_OK && full != RSC_OK;
            if (full != RSC_OK) {
                refused++;
                continue;
            }
            rsc_bytes ag = {"Googlebot", 9};
            rsc_selection s;
            if (rsc_select(&p, &ag, 1, &s) != RSC_OK)
                continue;
            for (size_t j = 0; j < NPATHS; j++) {
                int v = rsc_match_path(&s, paths[j], plen(paths[j]), NULL);
                TU_COUNT(v == 0 || v == 1, "%s: flip at %zu.%u: verdict %d", name, i, bit, v);
            }
            if (runs_dfa(&s))
                dfa_vs(name, &s, &hx, 8, hostile_alpha, HOSTILE_NA, 16, 0);
        }
    free(c);
    TU_CHECK(refused > 0, "%s: no flip of %ld refused by verification", name, flips);
    return refused;
}


/* Damage to DFAs of two-byte codes (the sets above make one-byte codes
 * only): n literal rules make one of CODE within 8 KiB and one beyond, so
 * that verification's marks of the records' starts span more than their
 * first bytes. A Flags bit past E, L and F (the record keeps its length)
 * is refused with its message and offset; then damage(), one bit a byte. */
static long damage_wide(int n, int bits)
{
    char name[64];
    snprintf(name, sizeof name, "%d literal rules", n);
    char *body = malloc((size_t)n * 40 + 32);
    if (!body)
        exit(2);
    size_t len = (size_t)sprintf(body, "User-agent: *\n");
    for (int i = 0; i < n; i++)
        len += (size_t)sprintf(body + len, "Disallow: /d%d/x%d\n", i * 7919 % 100000, i);
    rsc_blob blob;
    rsc_program p;
    rsc_selection s;
    rsc_dfa_view v;
    rsc_bytes ag = {"Googlebot", 9};
    rsc_status st = rsc_compile(body, len, NULL, &blob);
    free(body);
    TU_CHECK(st == RSC_OK, "%s: compile", name);
    if (st != RSC_OK)
        return 0;
    TU_CHECK(rsc_load(&p, blob.data, blob.size, NULL) == RSC_OK && rsc_select(&p, &ag, 1, &s) == RSC_OK &&
                 rsc_selection_dfa(&s, &v) == 1 && v.width == 2 && (v.size > 8192) == bits,
             "%s: a DFA of two-byte codes, CODE %s 8,192 bytes", name, bits ? "over" : "within");
    uint8_t *c = malloc(blob.size);
    if (!c)
        exit(2);
    rsc_load_error err;
    memcpy(c, blob.data, blob.size);
    c[v.code] |= 8; /* a Flags bit past E, L and F: the same length */
    fix_checksum(c, blob.size);
    TU_CHECK(rsc_load(&p, c, blob.size, &err) == RSC_E_CORRUPT && err.offset == v.code &&
                 strcmp(err.what, "bad DFA record") == 0,
             "%s: a bad first record: %s at %zu", name, err.what, (size_t)err.offset);
    free(c);
    long refused = damage(name, &blob, 1);
    rsc_blob_free(&blob, NULL);
    return refused;
}

/* c = blob with bit i % 8 of byte i flipped and the checksum made right,
 * loaded by rsc_load into *fp and with RSC_LOAD_DEFER into *dp: whatever
 * rsc_load accepts the deferred load accepts, and what only the deferred
 * load accepts rsc_load refused as RSC_E_CORRUPT (verification, not the
 * framing). 1 when only the deferred load accepts it; *both (nullable)
 * counts the flips both refuse. */
static int flip_both(const char *what, const rsc_blob *blob, uint8_t *c, size_t i, rsc_program *fp, rsc_program *dp,
                     long *both)
{
    memcpy(c, blob->data, blob->size);
    c[i] ^= (uint8_t)(1u << (i % 8));
    fix_checksum(c, blob->size);
    const rsc_status fst = rsc_load(fp, c, blob->size, NULL), dst = rsc_load_ex(dp, c, blob->size, RSC_LOAD_DEFER, NULL);
    TU_COUNT(fst != RSC_OK || dst == RSC_OK, "%s: flip at %zu: rsc_load accepts, the deferred load %s", what, i,
             rsc_strerror(dst));
    TU_COUNT(fst == RSC_OK || dst != RSC_OK || fst == RSC_E_CORRUPT, "%s: flip at %zu: rsc_load %s", what, i,
             rsc_strerror(fst));
    if (both)
        *both += fst != RSC_OK && dst != RSC_OK;
    return fst != RSC_OK && dst == RSC_OK;
}

/* RSC_LOAD_DEFER (runtime.h) on a file of three rule sets: "a" and '*'
 * with a DFA, "b" over the DFA budget (programs only). Undamaged: every
 * selection answers as on rsc_load(), with m and without, and so do
 * rsc_selection_uniform() and the programs. Then one bit of every byte of
 * PROGRAMS flipped, the checksum made right: whatever rsc_load() accepts,
 * the deferred load accepts; what only the deferred load accepts is damage
 * to the programs of "a" or '*' (never "b"'s, which matching runs), and
 * that selection still answers from its DFA as before the damage, while
 * everything that would run the damaged programs refuses or fails closed.
 * Then one bit of every byte of DFAS: a damaged DFA the deferred load
 * accepts is refused by the select of its set alone (RSC_E_CORRUPT), and
 * every other selection answers as before. Returns the flips only the
 * deferred load accepted. */
static long defer_tests(void)
{
    char body[4096];
    size_t len = (size_t)sprintf(body, "User-agent: a\nDisallow: /*.pdf$\nAllow: /a/\nDisallow: /a\n\n"
                                       "User-agent: b\n");
    for (int i = 1; i <= 60; i++)
        len += (size_t)sprintf(body + len, "Disallow: /*%d*x%d\n", i, i * 7);
    len += (size_t)sprintf(body + len, "\nUser-agent: *\nDisallow: /p\nAllow: /p/q*$\n");
    static const rsc_bytes lists[][2] = {{{"a", 1}}, {{"b", 1}}, {{"Googlebot", 9}}, {{"a", 1}, {"b", 1}}};
    static const size_t nag[] = {1, 1, 1, 2};
    static const int engine[] = {RSC_ENGINE_DFA, RSC_ENGINE_PROGRAMS, RSC_ENGINE_DFA, RSC_ENGINE_PROGRAMS};
    rsc_blob blob;
    rsc_program fp, dp;
    TU_CHECK(rsc_compile(body, len, NULL, &blob) == RSC_OK && rsc_load(&fp, blob.data, blob.size, NULL) == RSC_OK &&
                 rsc_load_ex(&dp, blob.data, blob.size, RSC_LOAD_DEFER, NULL) == RSC_OK,
             "defer: compile and load");
    rsc_load_error le;
    TU_CHECK(rsc_load_ex(&dp, blob.data, blob.size, 2, &le) == RSC_E_ARG && dp.base == NULL &&
                 rsc_load_ex(&dp, blob.data, blob.size, RSC_LOAD_DEFER, NULL) == RSC_OK,
             "defer: an unknown flag is refused (%s)", le.what);
    int verdict[4][NPATHS];
    for (int l = 0; l < 4; l++) {
        rsc_selection fs, ds, fq, dq;
        memset(&ds, 0, sizeof ds); /* read below even when the first select failed */
        TU_CHECK(rsc_select(&fp, lists[l], nag[l], &fs) == RSC_OK && rsc_select(&dp, lists[l], nag[l], &ds) == RSC_OK &&
                     rsc_selection_engine(&fs, NULL) == engine[l] && rsc_selection_engine(&ds, NULL) == engine[l],
                 "defer: selection %d: select, or not the engine expected", l);
        TU_CHECK(rsc_selection_uniform(&fs) == rsc_selection_uniform(&ds), "defer: selection %d: uniform", l);
        fq = fs, dq = ds;
        TU_CHECK(rsc_selection_use(&fq, RSC_ENGINE_PROGRAMS) == RSC_OK &&
                     rsc_selection_use(&dq, RSC_ENGINE_PROGRAMS) == RSC_OK,
                 "defer: selection %d: on the programs", l);
        for (size_t k = 0; k < NPATHS; k++) {
            const size_t n = plen(paths[k]);
            rsc_match fm, dm, qm;
            const int v = verdict[l][k] = rsc_match_url(&fs, paths[k], n, NULL);
            const int w = rsc_match_url(&ds, paths[k], n, &dm);
            rsc_match_url(&fs, paths[k], n, &fm);
            TU_COUNT(rsc_match_url(&ds, paths[k], n, NULL) == v && w == fm.allowed && w == v &&
                         dm.decided == fm.decided && dm.line == fm.line &&
                         rsc_match_url(&dq, paths[k], n, &qm) == v && qm.line == fm.line,
                     "defer: selection %d: %s: deferred %d (line %u), rsc_load %d (line %u)", l, paths[k], w,
                     dm.line, v, fm.line);
        }
    }
    /* damage */
    size_t psize, p0 = section_at(blob.data, blob.size, 3, &psize);
    TU_CHECK(p0 > 0 && psize > 0, "defer: no PROGRAMS section");
    uint8_t *c = malloc(blob.size);
    if (!c)
        exit(2);
    long only_deferred = 0, both = 0;
    for (size_t i = p0; p0 && i < p0 + psize; i++) {
        if (!flip_both("defer", &blob, c, i, &fp, &dp, &both))
            continue;
        only_deferred++;
        int bad = -1, nbad = 0;
        for (int l = 0; l < 3; l++) {
            rsc_selection s, q;
            TU_COUNT(rsc_select(&dp, lists[l], nag[l], &s) == RSC_OK, "defer: flip at %zu: select %d", i, l);
            q = s;
            const rsc_status u = rsc_selection_use(&q, RSC_ENGINE_PROGRAMS);
            TU_COUNT(u == RSC_OK || (u == RSC_E_CORRUPT && rsc_selection_engine(&q, NULL) == engine[l]),
                     "defer: flip at %zu: selection %d on the programs: %s", i, l, rsc_strerror(u));
            if (u != RSC_OK)
                bad = l, nbad++;
        }
        TU_COUNT(nbad == 1 && bad != 1, "defer: flip at %zu: %d selections refuse their programs (the last %d)", i,
                 nbad, bad);
        if (nbad != 1 || bad == 1)
            continue;
        rsc_selection s, m2;
        rsc_select(&dp, lists[bad], 1, &s);
        TU_COUNT(rsc_selection_uniform(&s) == RSC_MIXED, "defer: flip at %zu: uniform on damaged programs", i);
        for (size_t k = 0; k < NPATHS; k++) {
            const size_t n = plen(paths[k]);
            rsc_match m;
            TU_COUNT(rsc_match_url(&s, paths[k], n, NULL) == verdict[bad][k] &&
                         rsc_match_url(&s, paths[k], n, &m) == 0 && !m.decided && !m.allowed,
                     "defer: flip at %zu: selection %d: %s: not the DFA's verdict, or explain not failed closed", i,
                     bad, paths[k]);
        }
        /* several sets run the programs: verified at select */
        TU_COUNT(rsc_select(&dp, lists[3], 2, &m2) == (bad == 0 ? RSC_E_CORRUPT : RSC_OK) &&
                     (bad != 0 || m2.prog == NULL),
                 "defer: flip at %zu: select of a and b with %d damaged", i, bad);
    }
    /* DFAS: a damaged DFA that the deferred load accepts is refused by the
     * select of its set, and only of its set; several sets run the
     * programs and never read a DFA */
    long dfa_left = 0;
    size_t dsize, d0 = section_at(blob.data, blob.size, 9, &dsize);
    TU_CHECK(d0 > 0 && dsize > 0, "defer: no DFAS section");
    for (size_t i = d0; d0 && i < d0 + dsize; i++) {
        if (!flip_both("defer, DFAS", &blob, c, i, &fp, &dp, NULL))
            continue;
        dfa_left++;
        rsc_status sst[4];
        int nbad = 0;
        for (int l = 0; l < 4; l++) {
            rsc_selection s;
            sst[l] = rsc_select(&dp, lists[l], nag[l], &s);
            nbad += sst[l] != RSC_OK;
            if (sst[l] == RSC_OK) /* its DFA verified, or none read */
                for (size_t k = 0; k < NPATHS; k++)
                    TU_COUNT(rsc_match_url(&s, paths[k], plen(paths[k]), NULL) == verdict[l][k],
                             "defer: DFAS flip at %zu: selection %d: %s", i, l, paths[k]);
        }
        TU_COUNT(nbad == 1 && (sst[0] == RSC_E_CORRUPT || sst[2] == RSC_E_CORRUPT),
                 "defer: DFAS flip at %zu: selects %s %s %s %s", i, rsc_strerror(sst[0]), rsc_strerror(sst[1]),
                 rsc_strerror(sst[2]), rsc_strerror(sst[3]));
    }
    free(c);
    rsc_blob_free(&blob, NULL);
    TU_CHECK(only_deferred > 0 && both > 0 && dfa_left > 0,
             "defer: %ld PROGRAMS flips accepted by the deferred load only, %ld by neither; %ld DFAS flips left to "
             "rsc_select", only_deferred, both, dfa_left);
    return only_deferred + dfa_left;
}

/* Writes nr rules of 12 '*'s between random a/b bytes at at (48 bytes
 * each at most): a rule set over the programs' budgets, split into
 * several programs (compiler/programs.c). */
static void star_rules(char *at, int nr, unsigned long long *x)
{
    for (int i = 0; i < nr; i++) {
        at += sprintf(at, "Disallow: /");
        for (int j = 0; j < 12; j++)
            at += sprintf(at, "*%c", lcg(x) >> 40 & 1 ? 'a' : 'b');
        at += sprintf(at, "x%d\n", i);
    }
}

/* RSC_LOAD_DEFER on a blob with SETS: the '*' rule set is over the
 * programs' budgets, so it is split into several programs (SETS) and has
 * no DFA; "a" has one. The '*' programs are checked at load, each once,
 * and only "a"'s waits. One bit flipped in every byte of the first 512 of
 * PROGRAMS (its Ends and "a"'s program, which comes first) and of every
 * 29th byte after, the checksum made right: what only the deferred load
 * accepts is damage to "a"'s program. Returns those flips. */
static long defer_sets_test(void)
{
    const int nr = 400;
    char *body = malloc((size_t)nr * 48 + 128), *at = body;
    unsigned long long x = 7;
    at += sprintf(at, "User-agent: a\nDisallow: /*.pdf$\nAllow: /a/\nDisallow: /a\n\nUser-agent: *\n");
    star_rules(at, nr, &x);
    static const rsc_bytes ags[] = {{"a", 1}, {"Googlebot", 9}};
    static const int engine[] = {RSC_ENGINE_DFA, RSC_ENGINE_PROGRAMS};
    rsc_blob blob;
    rsc_program fp, dp;
    size_t ssize, psize;
    TU_CHECK(rsc_compile(body, strlen(body), NULL, &blob) == RSC_OK &&
                 section_at(blob.data, blob.size, 4, &ssize) > 0 && rsc_load(&fp, blob.data, blob.size, NULL) == RSC_OK,
             "defer with SETS: compile, a SETS section, load");
    free(body);
    for (int l = 0; l < 2; l++) {
        rsc_selection s;
        TU_CHECK(rsc_select(&fp, &ags[l], 1, &s) == RSC_OK && rsc_selection_engine(&s, NULL) == engine[l] &&
                     (l == 0 || s.n_roots > 1),
                 "defer with SETS: selection %d: not the engine expected, or one program", l);
    }
    const size_t p0 = section_at(blob.data, blob.size, 3, &psize);
    uint8_t *c = malloc(blob.size);
    if (!c)
        exit(2);
    long left = 0;
    for (size_t i = p0; p0 && i < p0 + psize; i += i < p0 + 512 ? 1 : 29) {
        if (!flip_both("defer with SETS", &blob, c, i, &fp, &dp, NULL))
            continue;
        rsc_status u[2];
        for (int l = 0; l < 2; l++) {
            rsc_selection s;
            u[l] = rsc_select(&dp, &ags[l], 1, &s);
            if (u[l] == RSC_OK)
                u[l] = rsc_selection_use(&s, RSC_ENGINE_PROGRAMS);
        }
        left += u[0] == RSC_E_CORRUPT;
        TU_COUNT(u[0] == RSC_E_CORRUPT && u[1] == RSC_OK, "defer with SETS: flip at %zu: on the programs: a %s, '*' %s",
                 i, rsc_strerror(u[0]), rsc_strerror(u[1]));
    }
    free(c);
    rsc_blob_free(&blob, NULL);
    TU_CHECK(left > 0, "defer with SETS: no damage to a's program was left to its selection");
    return left;
}

/* compiler/dfa.c, note [like a failed set]: six two-'*' rules and ncom
 * literal ones, for agent "b"; agent "a" has the same plus one long
 * literal rule, which takes its set over the DFA's budget (set "a" is
 * built first). With 17 literal rules the two sets differ in 1 rule of
 * 24, so "b"'s is not tried and keeps its programs, though alone in a
 * file it gets a DFA; with 12 they differ in 1 of 19 and "b"'s is built.
 * Either way every verdict is the programs' and the same as on the file
 * of "b" alone. */
static void like_failed_test(void)
{
    for (int ncom = 12; ncom <= 17; ncom += 5) {
        char rules[1024], body[4096];
        size_t rl = 0;
        for (int i = 1; i <= 6; i++)
            rl += (size_t)sprintf(rules + rl, "Disallow: /*%d*x%d\n", i, i * 7);
        for (int i = 0; i < ncom; i++)
            rl += (size_t)sprintf(rules + rl, "Disallow: /c%d/\n", i);
        char lit[900] = "Disallow: /L/";
        size_t ll = strlen(lit);
        for (int j = 0; j < 800; j++)
            lit[ll++] = (char)('a' + j % 26);
        lit[ll] = '\0';
        const int both = sprintf(body, "User-agent: b\n%s\nUser-agent: a\n%s%s\n", rules, rules, lit);
        const int alone = sprintf(body + both + 1, "User-agent: b\n%s", rules);
        const char *const bodies[] = {body, body + both + 1};
        const size_t lens[] = {(size_t)both, (size_t)alone};
        rsc_blob blob[2];
        rsc_program prog[2];
        rsc_selection sa, sb[2];
        const rsc_bytes a = {"a", 1}, b = {"b", 1};
        int ok = 1;
        for (int f = 0; f < 2; f++)
            ok &= rsc_compile(bodies[f], lens[f], NULL, &blob[f]) == RSC_OK &&
                  rsc_load(&prog[f], blob[f].data, blob[f].size, NULL) == RSC_OK &&
                  rsc_select(&prog[f], &b, 1, &sb[f]) == RSC_OK;
        ok = ok && rsc_select(&prog[0], &a, 1, &sa) == RSC_OK;
        TU_CHECK(ok, "like a failed set (%d literal rules): compile, load and select", ncom);
        if (!ok)
            continue;
        TU_CHECK(rsc_selection_engine(&sa, NULL) == RSC_ENGINE_PROGRAMS, "like a failed set: a's set got a DFA");
        TU_CHECK(rsc_selection_engine(&sb[1], NULL) == RSC_ENGINE_DFA, "like a failed set: b alone has no DFA");
        TU_CHECK(rsc_selection_engine(&sb[0], NULL) == (ncom == 17 ? RSC_ENGINE_PROGRAMS : RSC_ENGINE_DFA),
                 "like a failed set (%d literal rules): b's set %s", ncom,
                 ncom == 17 ? "was tried after a's failed" : "was not tried");
        TU_CHECK(differ(&sa) == 0 && differ(&sb[0]) == 0 && differ(&sb[1]) == 0,
                 "like a failed set (%d literal rules): DFA and programs differ", ncom);
        static const char *const probe[] = {"/c3/", "/c16/x", "/a1bx7", "/zz2x14", "/x6yx42", "/L/abc", "/c", "/"};
        for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
            const size_t n = strlen(probe[i]);
            TU_CHECK(rsc_match_path(&sb[0], probe[i], n, NULL) == rsc_match_path(&sb[1], probe[i], n, NULL),
                     "like a failed set (%d literal rules): %s differs from b alone", ncom, probe[i]);
        }
        rsc_blob_free(&blob[0], NULL), rsc_blob_free(&blob[1], NULL);
    }
}

static rsc_status compile_opts(const rset *r, int flags, rsc_blob *blob)
{
    rsc_compile_options opt;
    memset(&opt, 0, sizeof opt);
    opt.profile = r->rfc ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
    opt.no_prune = flags;
    return rsc_compile(r->body, strlen(r->body), &opt, blob);
}

/* Rule sets for the DFA's shapes (census()): words after '*' (states that
 * fall back, docs/DFA.md), labels of 1 and 2 bytes, a state after '/', '*'
 * that keeps every byte but a few (a chain "." whose Other is itself, as
 * FORMAT.md's example), and a state of many keys. */
static const rset shape_sets[] = {
    {"fall-back words", 0,
     "User-agent: *\nDisallow: /*zuleidy*\nDisallow: /*jkenney*\nDisallow: /*kbkbc\nAllow: /*zulu$\n"
     "Disallow: /*jeans\n"},
    {"short labels", 0,
     "User-agent: *\nDisallow: /a/b\nDisallow: /*x.y\nAllow: /ab/cd/e\nDisallow: /*.pdf$\nDisallow: /q*r\n"
     "Allow: /*.p\n"},
    {"many keys", 0,
     "User-agent: *\nDisallow: /a\nDisallow: /b\nDisallow: /c\nDisallow: /d\nDisallow: /e\nDisallow: /f\n"
     "Disallow: /g\nDisallow: /h\nDisallow: /i\nDisallow: /j\nAllow: /k$\nDisallow: /*%41\n"},
    {"scans", 0, "User-agent: *\nDisallow: /*a*b*c\nAllow: /*.x$\nDisallow: /*?\nAllow: /*=$\n"},
    {"FORMAT.md's example", 0, "User-agent: *\nDisallow: /*.pdf$\n"},
    {"a word after '*'", 0, "User-agent: *\nDisallow: /*abc\nAllow: /*abd$\n"},
};
#define NSHAPES (sizeof shape_sets / sizeof shape_sets[0])

int main(void)
{
    long refused = 0;
    unsigned long long hx = 2026; /* the hostile and guided paths (dfa_vs) */
    for (size_t i = 0; i < NSETS; i++) {
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel;
        if (!load(&sets[i], &blob, &prog, &sel))
            continue;
        rsc_engine_info info;
        const int has = sel.n_sets == 1; /* the empty file selects no rule set */
        TU_CHECK(rsc_selection_engine(&sel, &info) == (has ? RSC_ENGINE_DFA : RSC_ENGINE_PROGRAMS) &&
                     (!has || (info.bytes > 0 && info.bytes < blob.size)),
                 "%s: the selection runs the blob's DFA (%zu bytes)", sets[i].name, info.bytes);
        TU_CHECK(differ(&sel) == 0, "%s: DFA and programs differ", sets[i].name);
        {   /* loaded with RSC_LOAD_DEFER: the same engine, and explain
             * (m) verifies and runs the programs it left */
            rsc_program dp;
            rsc_selection ds;
            rsc_bytes ag = {"Googlebot", 9};
            TU_CHECK(rsc_load_ex(&dp, blob.data, blob.size, RSC_LOAD_DEFER, NULL) == RSC_OK &&
                         rsc_select(&dp, &ag, 1, &ds) == RSC_OK &&
                         rsc_selection_engine(&ds, NULL) == rsc_selection_engine(&sel, NULL) && differ(&ds) == 0,
                     "%s: deferred load: another engine, or DFA and programs differ", sets[i].name);
        }
        /* where a binding finds the DFA (rsc_selection_dfa): inside the
         * blob, and only for a selection that runs one */
        rsc_dfa_view v;
        const int runs = has && !sets[i].rfc; /* the rfc profile's stay in C */
        TU_CHECK(rsc_selection_dfa(&sel, &v) == runs && rsc_selection_dfa(NULL, &v) == 0 &&
                     rsc_selection_dfa(&sel, NULL) == 0 &&
                     (!runs || (v.str < blob.size && v.code + v.size <= blob.size &&
                                (v.width == 1 || v.width == 2) && v.allowed == (v.width == 1 ? 0xfeu : 0xfffeu) &&
                                v.size <= v.allowed && (v.start < v.size || v.start - v.allowed <= 1) &&
                                (v.states == 0) == (v.size == 0))),
                 "%s: rsc_selection_dfa", sets[i].name);
        rsc_selection ps = sel;
        TU_CHECK(rsc_selection_use(&ps, RSC_ENGINE_PROGRAMS) == RSC_OK &&
                     rsc_selection_engine(&ps, NULL) == RSC_ENGINE_PROGRAMS && differ(&ps) == 0 &&
                     rsc_selection_dfa(&ps, &v) == 0,
                 "%s: on the programs", sets[i].name);
        /* the DFA against the programs on random paths of every kind of
         * byte */
        if (runs_dfa(&sel))
            dfa_vs(sets[i].name, &sel, &hx, 3000, hostile_alpha, HOSTILE_NA, 2000, 1);
        for (size_t k = 0; k < sizeof wants / sizeof wants[0]; k++) {
            if (wants[k].set != i)
                continue;
            size_t n = plen(wants[k].path);
            for (int e = 0; e < 2; e++) {
                const rsc_selection *s = e ? &ps : &sel;
                int got = wants[k].url ? rsc_match_url(s, wants[k].path, n, NULL)
                                       : rsc_match_path(s, wants[k].path, n, NULL);
                TU_COUNT(got == wants[k].allowed, "%s (%s): %s \"%s\": %d, want %d", sets[i].name,
                         e ? "programs" : "DFA", wants[k].url ? "URL" : "path", wants[k].path, got,
                         wants[k].allowed);
            }
        }
        if (has)
            hand_made(sets[i].name, &blob, &sel, &hx);
        /* the same file without DFAs: the programs, the same verdicts, fewer bytes */
        rsc_blob nb;
        rsc_program np;
        rsc_selection ns;
        rsc_bytes ag = {"Googlebot", 9};
        TU_CHECK(compile_opts(&sets[i], RSC_COMPILE_NO_DFA, &nb) == RSC_OK &&
                     rsc_load(&np, nb.data, nb.size, NULL) == RSC_OK &&
                     rsc_select(&np, &ag, 1, &ns) == RSC_OK,
                 "%s: compile without DFAs", sets[i].name);
        TU_CHECK(rsc_selection_engine(&ns, NULL) == RSC_ENGINE_PROGRAMS && (nb.size < blob.size || !has) &&
                     differ(&ns) == 0,
                 "%s: without DFAs: the programs (%zu bytes, with %zu)", sets[i].name, nb.size,
                 blob.size);
        for (size_t k = 0; k < NPATHS; k++) {
            size_t n = plen(paths[k]);
            TU_COUNT(rsc_match_path(&ns, paths[k], n, NULL) == rsc_match_path(&sel, paths[k], n, NULL),
                     "%s: path %s: no-DFA blob differs", sets[i].name, paths[k]);
        }
        rsc_blob_free(&nb, NULL);
        if (has)
            refused += damage(sets[i].name, &blob, 0);
        /* the self-test: a DFA that allows every path (every code it holds
         * made "allowed", no end verdict, no fall-back) must be caught, for
         * a rule set that disallows something */
        if (i == 2 || i == 3) {
            rsc_dfa_view pv;
            TU_CHECK(rsc_selection_dfa(&sel, &pv) == 1 && pv.states > 0, "%s: a DFA to plant in", sets[i].name);
            uint8_t *c = malloc(blob.size);
            memcpy(c, blob.data, blob.size);
            const uint32_t w = pv.width;
#define PUT_ALLOWED(q) ((q)[0] = (uint8_t)pv.allowed, w == 2 ? (void)((q)[1] = (uint8_t)(pv.allowed >> 8)) : (void)0)
            for (uint32_t s = 0; s < pv.size;) {
                const trec t = rec_at(blob.data, &pv, s);
                uint8_t *r = c + pv.code + s;
                r[0] &= 2; /* no E, no F */
                PUT_ALLOWED(r + 2);
                if (t.fl & 2)
                    PUT_ALLOWED(r + 2 + w);
                for (uint32_t k = 0; !(t.fl & 2) && k < t.n; k++)
                    PUT_ALLOWED(r + 2 + w + t.n + k * w);
                s += t.bytes;
            }
#undef PUT_ALLOWED
            fix_checksum(c, blob.size);
            rsc_program fp;
            rsc_selection fs;
            TU_CHECK(rsc_load(&fp, c, blob.size, NULL) == RSC_OK && rsc_select(&fp, &ag, 1, &fs) == RSC_OK &&
                         rsc_selection_engine(&fs, NULL) == RSC_ENGINE_DFA && differ(&fs) > 0,
                     "%s: a planted wrong verdict is not caught", sets[i].name);
            /* on guided paths it answers as FORMAT.md reads the planted DFA */
            if (runs_dfa(&fs))
                dfa_vs("planted start", &fs, &hx, 200, hostile_alpha, HOSTILE_NA, 200, 0);
            free(c);
        }
        rsc_blob_free(&blob, NULL);
    }
    /* random rule sets: the DFA (m NULL) against the programs (m) */
    {
        unsigned long long x = 42;
        int on_dfa = 0;
        for (int set = 0; set < 12; set++) {
            char body[16384];
            random_rules(&x, "ab*c/.dx", body, sizeof body, 10 + set * 8, 1, 7, 1);
            rset rr = {"random", 0, body};
            rsc_blob blob;
            rsc_program prog;
            rsc_selection sel;
            if (!load(&rr, &blob, &prog, &sel))
                continue;
            on_dfa += rsc_selection_engine(&sel, NULL) == RSC_ENGINE_DFA;
            random_paths("random set", &sel, &x, 3000, "abcdx/.e");
            /* the DFA's and the programs' verdicts, on paths of the rules'
             * bytes and of every kind */
            if (runs_dfa(&sel)) {
                dfa_vs("random set", &sel, &hx, 2000, "abcdx/.e", 8, 0, 1);
                dfa_vs("random set", &sel, &hx, 2000, hostile_alpha, HOSTILE_NA, 2000, 1);
            }
            rsc_blob_free(&blob, NULL);
        }
        TU_CHECK(on_dfa >= 6, "only %d of 12 random sets on a DFA", on_dfa);
    }
    /* random rule sets over a wider alphabet ('$' and '%' inside patterns,
     * '?', '=', UTF-8), small ones edited by hand too: the DFA and the
     * programs agree */
    {
        unsigned long long x = 4242;
        int on_dfa = 0;
        for (int set = 0; set < 24; set++) {
            char body[8192];
            random_rules(&x, "ab*/.$%2Fc?=\xc3\xa9", body, sizeof body, 2 + set * 3, 1, 6, 1);
            rset rr = {"wide random set", 0, body};
            rsc_blob blob;
            rsc_program prog;
            rsc_selection sel;
            if (!load(&rr, &blob, &prog, &sel))
                continue;
            TU_CHECK(differ(&sel) == 0, "wide random set %d: DFA and programs differ", set);
            if (runs_dfa(&sel)) {
                on_dfa++;
                dfa_vs("wide random set", &sel, &hx, 2000, "ab*/.$%2Fc?=\xc3\xa9#\0", 14, 0, 1);
                dfa_vs("wide random set", &sel, &hx, 1000, hostile_alpha, HOSTILE_NA, 2000, 1);
            }
            if (set < 6)
                hand_made("wide random set", &blob, &sel, &hx);
            rsc_blob_free(&blob, NULL);
        }
        printf("test_dfa: %d of 24 wide random sets on a DFA\n", on_dfa);
        TU_CHECK(on_dfa >= 12, "only %d of 24 wide random sets on a DFA", on_dfa);
    }
    /* the DFA's shapes: each set's DFA on hostile and guided paths, then
     * edited by hand */
    for (size_t i = 0; i < NSHAPES; i++) {
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel;
        if (!load(&shape_sets[i], &blob, &prog, &sel))
            continue;
        TU_CHECK(differ(&sel) == 0, "%s: DFA and programs differ", shape_sets[i].name);
        TU_CHECK(runs_dfa(&sel), "%s: no DFA", shape_sets[i].name);
        dfa_vs(shape_sets[i].name, &sel, &hx, 3000, hostile_alpha, HOSTILE_NA, 3000, 1);
        hand_made(shape_sets[i].name, &blob, &sel, &hx);
        rsc_blob_free(&blob, NULL);
    }
    /* a selection of two rule sets: no precompiled DFA, the programs */
    {
        static const char two[] = "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n";
        rset r2 = {"two", 0, two};
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel;
        if (load(&r2, &blob, &prog, &sel)) {
            rsc_bytes ab[2] = {{"a", 1}, {"b", 1}};
            rsc_selection s2;
            TU_CHECK(rsc_select(&prog, ab, 2, &s2) == RSC_OK && s2.n_sets == 2 &&
                         rsc_selection_engine(&s2, NULL) == RSC_ENGINE_PROGRAMS &&
                         rsc_match_path(&s2, "/x", 2, NULL) == 0 && rsc_match_path(&s2, "/y", 2, NULL) == 0 &&
                         rsc_match_path(&s2, "/z", 2, NULL) == 1,
                     "two agents, two sets: the programs");
            TU_CHECK(rsc_select(&prog, ab, 1, &s2) == RSC_OK &&
                         rsc_selection_engine(&s2, NULL) == RSC_ENGINE_DFA &&
                         rsc_match_path(&s2, "/x", 2, NULL) == 0 && rsc_match_path(&s2, "/y", 2, NULL) == 1,
                     "one agent: its set's DFA");
            rsc_blob_free(&blob, NULL);
        }
    }
    /* the engine API and the deprecated 1.0 calls */
    {
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel, failed;
        memset(&failed, 0, sizeof failed);
        if (load(&sets[4], &blob, &prog, &sel)) {
            _Alignas(8) static unsigned char buf[4096];
            rsc_selection before = sel;
            size_t used = 7;
            TU_CHECK(rsc_dfa_build(&sel, buf, sizeof buf, &used) == RSC_E_LIMIT && used == 0 &&
                         memcmp(&sel, &before, sizeof sel) == 0 &&
                         rsc_selection_engine(&sel, NULL) == RSC_ENGINE_DFA,
                     "rsc_dfa_build: RSC_E_LIMIT, the selection untouched, still on its DFA");
            TU_CHECK(rsc_dfa_build(NULL, buf, sizeof buf, NULL) == RSC_E_ARG &&
                         rsc_dfa_build(&sel, NULL, sizeof buf, NULL) == RSC_E_ARG &&
                         rsc_dfa_build(&failed, buf, sizeof buf, NULL) == RSC_E_ARG &&
                         rsc_dfa_build(&sel, buf + 4, sizeof buf - 8, NULL) == RSC_E_ARG,
                     "rsc_dfa_build arguments");
            TU_CHECK(rsc_dfa_attach(&sel, buf, sizeof buf) == RSC_E_ARG &&
                         memcmp(&sel, &before, sizeof sel) == 0,
                     "rsc_dfa_attach: RSC_E_ARG, the selection untouched");
            TU_CHECK(rsc_dfa_partial(&sel) == 0 && rsc_dfa_partial(NULL) == 0, "rsc_dfa_partial");
            /* dense rows (deprecated: they no longer paid): none to build
             * for a selection on its DFA, and rsc_accel_build leaves it as
             * it was, on that DFA with the same verdicts */
            TU_CHECK(rsc_accel_size(&sel) == 0 && rsc_accel_size(NULL) == 0 && rsc_accel_size(&failed) == 0,
                     "rsc_accel_size: 0");
            TU_CHECK(rsc_accel_build(&sel, buf, sizeof buf) == RSC_E_LIMIT &&
                         rsc_accel_build(&sel, buf, 8) == RSC_E_LIMIT && memcmp(&sel, &before, sizeof sel) == 0 &&
                         rsc_selection_engine(&sel, NULL) == RSC_ENGINE_DFA && differ(&sel) == 0 &&
                         rsc_match_path(&sel, "/a.pdf", 6, NULL) == 0 && rsc_match_path(&sel, "/a", 2, NULL) == 1,
                     "rsc_accel_build: RSC_E_LIMIT, the selection untouched, still on its DFA");
            TU_CHECK(rsc_accel_build(NULL, buf, sizeof buf) == RSC_E_ARG &&
                         rsc_accel_build(&failed, buf, sizeof buf) == RSC_E_ARG &&
                         rsc_accel_build(&sel, NULL, sizeof buf) == RSC_E_ARG &&
                         rsc_accel_build(&sel, buf + 4, sizeof buf - 8) == RSC_E_ARG &&
                         memcmp(&sel, &before, sizeof sel) == 0,
                     "rsc_accel_build arguments");
            TU_CHECK(rsc_selection_use(&sel, RSC_ENGINE_PROGRAMS) == RSC_OK &&
                         rsc_selection_engine(&sel, NULL) == RSC_ENGINE_PROGRAMS &&
                         rsc_selection_use(&sel, RSC_ENGINE_DFA) == RSC_OK &&
                         rsc_selection_engine(&sel, NULL) == RSC_ENGINE_DFA &&
                         rsc_selection_use(&sel, RSC_ENGINE_DENSE) == RSC_E_ARG &&
                         rsc_selection_use(&failed, RSC_ENGINE_PROGRAMS) == RSC_E_ARG &&
                         rsc_selection_use(NULL, RSC_ENGINE_PROGRAMS) == RSC_E_ARG &&
                         rsc_selection_engine(&failed, NULL) == RSC_ENGINE_PROGRAMS &&
                         rsc_selection_engine(NULL, NULL) == RSC_ENGINE_PROGRAMS,
                     "rsc_selection_use / rsc_selection_engine");
            /* a 1.0 caller that detaches "its" DFA (accel = NULL) keeps the blob's */
            sel.accel = NULL;
            TU_CHECK(rsc_selection_engine(&sel, NULL) == RSC_ENGINE_DFA, "accel NULL: still the DFA");
            rsc_match m;
            TU_CHECK(rsc_match_path(&sel, "/a.pdf", 6, &m) == 0 && m.decided && m.line == 2,
                     "m non-NULL: the deciding rule (the programs)");
            rsc_blob_free(&blob, NULL);
        }
    }
    {
        /* A rule set over the programs' budgets is split into programs
         * (compiler/programs.c); past RSC_MAX_SELECT of them it gets no DFA
         * and its programs decide. Before the fix the compiler wrote an
         * empty DFA for it, which allowed every path. */
        const int nr = 3000;
        char *body = malloc((size_t)nr * 48 + 32), *at = body;
        unsigned long long x = 99;
        at += sprintf(at, "User-agent: *\n");
        star_rules(at, nr, &x);
        rset big = {"split set", 0, body};
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel;
        if (load(&big, &blob, &prog, &sel)) {
            char path[64], *q = path; /* rule 0's bytes without its '*'s: it matches */
            for (const char *r = strstr(body, "Disallow: ") + 10; *r != '\n'; r++)
                if (*r != '*')
                    *q++ = *r;
            rsc_match m;
            TU_CHECK(sel.n_roots > RSC_MAX_SELECT && rsc_selection_engine(&sel, NULL) == RSC_ENGINE_PROGRAMS,
                     "split set: %u programs, no DFA", sel.n_roots);
            TU_CHECK(rsc_match_path(&sel, path, (size_t)(q - path), NULL) == 0 &&
                         rsc_match_path(&sel, path, (size_t)(q - path), &m) == 0 && m.decided && m.line == 2,
                     "split set: %.*s disallowed by line 2", (int)(q - path), path);
            TU_CHECK(differ(&sel) == 0, "split set: DFA and programs differ");
            rsc_blob_free(&blob, NULL);
        }
        free(body);
    }
    like_failed_test();
    refused += damage_wide(100, 0) + damage_wide(1000, 1);
    printf("test_dfa: %ld damaged DFAS sections refused by verification\n", refused);
    printf("test_dfa: RSC_LOAD_DEFER: %ld damaged PROGRAMS or DFAS sections accepted at load, never run\n",
           defer_tests());
    TU_CHECK(n_dfa_at_select > 0, "RSC_LOAD_DEFER: no damaged DFA was left to rsc_select()");
    printf("test_dfa: RSC_LOAD_DEFER with SETS: %ld damaged programs beside a DFA accepted at load, never run\n",
           defer_sets_test());
    printf("test_dfa: hostile and guided paths: %ld selections on a DFA, %ld verdicts compared; "
           "hand-made DFAs: %ld loaded\ntest_dfa: shapes of the DFAs run on them:",
           n_dfa_sel, n_dfa_cmp, n_hand_loaded);
    for (int k = 0; k < SH_N; k++)
        printf(" %s %ld;", shape_name[k], shape[k]);
    printf("\n");
    TU_CHECK(n_dfa_sel > 0 && n_hand_loaded > 0, "hostile and guided paths: %ld selections, %ld hand-made",
             n_dfa_sel, n_hand_loaded);
    for (int k = 0; k < SH_N; k++)
        TU_CHECK(shape[k] > 0, "no DFA of the shape '%s' ran on hostile and guided paths", shape_name[k]);
    return tu_report("test_dfa", tu_passed);
}
