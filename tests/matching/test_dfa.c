/* SPDX-License-Identifier: Apache-2.0 */
/* The DFA engine (runtime.h, rsc_dfa_build; docs/DFA.md): arguments and
 * alignment; every budget edge (0 bytes, the least that holds a rule set's
 * build, 1 and 8 bytes less, and more) with the verdicts the same on both
 * sides of it (the programs below, the DFA from it on); the builder's
 * invariants (rsc_dfa_attach checks every index of every DFA built here,
 * and of a memcpy'd copy); damaged copies (every byte flipped in turn:
 * refused, or attached and run without a fault); a DFA attached to a
 * selection it was not built for; m non-NULL answered by the programs;
 * and the corners of the semantics (end anchors, '*' runs, '$' inside a
 * pattern, the index.html rule, NUL and '#' in paths and URLs, the '/' put
 * in front of "?q", the rfc profile's normalisation and /robots.txt), each
 * path compared with the programs' verdict and, where written, the
 * expected one. The differential, conformance and corpus suites run
 * through the DFA too (tests/conformance). */
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

/* Every path and URL: sel's verdict with m NULL equals the programs' (m
 * non-NULL, which never runs the DFA). "/a\0b" is 4 bytes: the NUL ends
 * the path for both. */
static void same(const rset *r, const rsc_selection *sel, const char *what)
{
    static const char *const hosts[] = {"", "http://h.com", "//h", "https://h.com:8"};
    for (size_t i = 0; i < NPATHS; i++) {
        rsc_match m;
        size_t n = plen(paths[i]);
        int want = rsc_match_path(sel, paths[i], n, &m);
        int got = rsc_match_path(sel, paths[i], n, NULL);
        TU_COUNT(got == want, "%s (%s): path \"%s\": %d, programs %d", r->name, what, paths[i],
                 got, want);
        for (size_t h = 0; h < sizeof hosts / sizeof hosts[0]; h++) {
            char url[256];
            size_t hl = strlen(hosts[h]);
            memcpy(url, hosts[h], hl);
            memcpy(url + hl, paths[i], n);
            want = rsc_match_url(sel, url, hl + n, &m);
            got = rsc_match_url(sel, url, hl + n, NULL);
            TU_COUNT(got == want, "%s (%s): URL \"%s%s\": %d, programs %d", r->name, what,
                     hosts[h], paths[i], got, want);
        }
    }
}

static void *aligned(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* Whether a build into size bytes succeeds, and (complete) builds every
 * state: no path is left to the programs. */
static int builds(const rsc_selection *sel0, void *buf, size_t size, int complete)
{
    rsc_selection s = *sel0;
    return rsc_dfa_build(&s, buf, size, NULL) == RSC_OK && (!complete || !rsc_dfa_partial(&s));
}

/* The least size (a multiple of 8) whose build succeeds (complete: with
 * every state built), or 0. */
static size_t least(const rsc_selection *sel0, int complete)
{
    size_t lo = 0, hi = (size_t)1 << 22; /* fails at lo, succeeds at hi */
    void *buf = aligned(hi);
    if (!builds(sel0, buf, hi, complete)) {
        free(buf);
        return 0;
    }
    while (hi - lo > 8) {
        size_t mid = (lo + (hi - lo) / 2) & ~(size_t)7;
        if (builds(sel0, buf, mid, complete))
            hi = mid;
        else
            lo = mid;
    }
    free(buf);
    return hi;
}

static size_t partial_builds; /* builds with states left unbuilt, over every test */

/* A 64-bit LCG step (Knuth's MMIX constants): the tests' seeded randomness. */
static unsigned long long lcg(unsigned long long *x)
{
    return *x = *x * 6364136223846793005ull + 1442695040888963407ull;
}

/* A "User-agent: *" group of nr random rules over "ab*c/.dx", each of
 * min_len to min_len + spread - 1 bytes after its '/', a quarter of them
 * end-anchored when dollars. */
static void random_rules(unsigned long long *x, char *body, size_t cap, int nr, int min_len,
                         int spread, int dollars)
{
    size_t bl = (size_t)snprintf(body, cap, "User-agent: *\n");
    for (int k = 0; k < nr && bl + 32 < cap; k++) {
        unsigned long long v = lcg(x);
        bl += (size_t)snprintf(body + bl, cap - bl, "%s: /", (v >> 40) & 1 ? "Allow" : "Disallow");
        int len = min_len + (int)((v >> 20) % (unsigned)spread);
        for (int j = 0; j < len; j++)
            body[bl++] = "ab*c/.dx"[(lcg(x) >> 33) % 8];
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

/* n random paths over alpha: d's verdict (its DFA) equals sel's programs'. */
static void random_paths(const char *name, const rsc_selection *sel, const rsc_selection *d,
                         unsigned long long *x, int n, const char *alpha)
{
    char path[64];
    for (int k = 0; k < n; k++) {
        size_t len = random_path(x, path, alpha);
        rsc_match m;
        int pv = rsc_match_path(sel, path, len, &m);
        TU_COUNT(rsc_match_path(d, path, len, NULL) == pv, "%s: path %.*s: programs %d", name,
                 (int)len, path, pv);
    }
}

static void budget_edges(const rset *r, const rsc_selection *sel0)
{
    size_t s = least(sel0, 1);
    TU_COUNT(s > 0, "%s: no build at 4 MiB", r->name);
    if (!s)
        return;
    static const long deltas[] = {-4096, -64, -9, -8, -1, 0, 1, 7, 8, 64, 4096, 1 << 20};
    for (size_t k = 0; k < sizeof deltas / sizeof deltas[0]; k++) {
        if (deltas[k] < 0 && (size_t)-deltas[k] > s)
            continue;
        size_t size = s + (size_t)deltas[k], used = 12345;
        void *buf = aligned(size);
        memset(buf, 0xa5, size ? size : 1);
        rsc_selection t = *sel0;
        rsc_status st = rsc_dfa_build(&t, buf, size, &used);
        rsc_engine_info info;
        int eng = rsc_selection_engine(&t, &info);
        if (deltas[k] < 0 && st != RSC_OK) {
            TU_COUNT(st == RSC_E_LIMIT && used == 0 && t.accel == NULL &&
                         eng == RSC_ENGINE_PROGRAMS,
                     "%s: %zu bytes (least %zu): status %s, engine %d", r->name, size, s,
                     rsc_strerror(st), eng);
            same(r, &t, "over budget");
        } else {
            /* below the least complete size: a partial DFA, or none */
            TU_COUNT(st == RSC_OK && eng == RSC_ENGINE_DFA && used == info.bytes &&
                         used <= size && used % 8 == 0 && rsc_dfa_partial(&t) == (deltas[k] < 0),
                     "%s: %zu bytes (least %zu): status %s, used %zu, partial %d", r->name, size,
                     s, rsc_strerror(st), used, rsc_dfa_partial(&t));
            partial_builds += rsc_dfa_partial(&t) != 0;
            same(r, &t, rsc_dfa_partial(&t) ? "partial DFA" : "DFA");
            /* the invariants: every index in range (rsc_dfa_attach checks
             * them all), in place and in a copy */
            rsc_selection c = *sel0;
            TU_COUNT(rsc_dfa_attach(&c, buf, used) == RSC_OK, "%s: attach in place", r->name);
            void *copy = aligned(used);
            memcpy(copy, buf, used);
            memset(buf, 0, size); /* the copy must not need the original */
            c = *sel0;
            TU_COUNT(rsc_dfa_attach(&c, copy, used) == RSC_OK &&
                         rsc_selection_engine(&c, NULL) == RSC_ENGINE_DFA,
                     "%s: attach a copy", r->name);
            same(r, &c, "copy");
            if (used > 8)
                TU_COUNT(rsc_dfa_attach(&c, copy, used - 8) != RSC_OK,
                         "%s: attach with too few bytes", r->name);
            free(copy);
        }
        free(buf);
    }
    /* budget 0 */
    rsc_selection t = *sel0;
    unsigned char one[8];
    TU_COUNT(rsc_dfa_build(&t, one, 0, NULL) == RSC_E_LIMIT && t.accel == NULL, "%s: 0 bytes",
             r->name);
}

/* Every byte of a copy flipped in turn: attach refuses it, or the DFA it
 * accepts is run (a fault would show under the sanitizers). */
static void damage(const rset *r, const rsc_selection *sel0)
{
    void *buf = aligned(RSC_DFA_BUDGET), *copy = NULL;
    rsc_selection s = *sel0;
    size_t used = 0;
    if (rsc_dfa_build(&s, buf, RSC_DFA_BUDGET, &used) != RSC_OK) {
        TU_CHECK(0, "%s: build", r->name);
        free(buf);
        return;
    }
    copy = aligned(used);
    long refused = 0, accepted = 0;
    for (size_t i = 0; i < used; i++) {
        memcpy(copy, buf, used);
        ((unsigned char *)copy)[i] ^= (unsigned char)(1u << (i % 8));
        rsc_selection c = *sel0;
        rsc_status st = rsc_dfa_attach(&c, copy, used);
        if (st != RSC_OK) {
            refused++;
            TU_CHECK(c.accel == sel0->accel, "%s: a refused DFA was attached", r->name);
            continue;
        }
        accepted++;
        for (size_t k = 0; k < NPATHS; k++)
            (void)rsc_match_path(&c, paths[k], plen(paths[k]), NULL);
    }
    TU_COUNT(refused > 0, "%s: no damaged copy refused (%ld accepted)", r->name, accepted);
    free(copy);
    free(buf);
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

int main(void)
{
    void *buf = aligned(RSC_DFA_BUDGET);
    /* arguments */
    {
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel, failed, other;
        if (!load(&sets[4], &blob, &prog, &sel))
            return tu_report("dfa", tu_passed);
        memset(&failed, 0, sizeof failed);
        rsc_selection a = sel;
        TU_COUNT(rsc_dfa_build(NULL, buf, RSC_DFA_BUDGET, NULL) == RSC_E_ARG, "NULL selection");
        TU_COUNT(rsc_dfa_build(&a, NULL, RSC_DFA_BUDGET, NULL) == RSC_E_ARG, "NULL buffer");
        TU_COUNT(rsc_dfa_build(&failed, buf, RSC_DFA_BUDGET, NULL) == RSC_E_ARG,
                 "failed selection");
        TU_COUNT(rsc_dfa_build(&a, (char *)buf + 4, RSC_DFA_BUDGET - 8, NULL) == RSC_E_ARG,
                 "misaligned buffer");
        TU_COUNT(rsc_selection_engine(&failed, NULL) == RSC_ENGINE_PROGRAMS &&
                     rsc_selection_engine(NULL, NULL) == RSC_ENGINE_PROGRAMS,
                 "engine of a failed selection");
        TU_COUNT(rsc_dfa_partial(NULL) == 0 && rsc_dfa_partial(&failed) == 0 &&
                     rsc_dfa_partial(&a) == 0,
                 "rsc_dfa_partial of a NULL, failed or plain selection");
        size_t used = 0;
        TU_COUNT(rsc_dfa_build(&a, buf, RSC_DFA_BUDGET, &used) == RSC_OK && used > 0, "build");
        rsc_engine_info info;
        TU_COUNT(rsc_selection_engine(&a, &info) == RSC_ENGINE_DFA && info.bytes == used &&
                     info.states > 0 && info.classes > 2 && info.rules == 7,
                 "engine info: %zu bytes, %u states, %u classes, %u rules", info.bytes,
                 info.states, info.classes, info.rules);
        TU_COUNT(rsc_dfa_attach(&a, (char *)buf + 4, used) == RSC_E_ARG, "attach misaligned");
        TU_COUNT(rsc_dfa_attach(&failed, buf, used) == RSC_E_ARG, "attach to a failed selection");
        /* a selection of other programs: not attached, not used */
        rsc_bytes ob = {"OtherBot", 8};
        static const char two[] = "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n";
        rsc_blob blob2;
        rsc_program prog2;
        rsc_selection sa, sb;
        rsc_bytes aa = {"a", 1}, bb = {"b", 1};
        TU_CHECK(rsc_compile(two, sizeof two - 1, NULL, &blob2) == RSC_OK &&
                     rsc_load(&prog2, blob2.data, blob2.size, NULL) == RSC_OK &&
                     rsc_select(&prog2, &aa, 1, &sa) == RSC_OK &&
                     rsc_select(&prog2, &bb, 1, &sb) == RSC_OK &&
                     rsc_select(&prog, &ob, 1, &other) == RSC_OK,
                 "second blob");
        void *b2 = aligned(RSC_DFA_BUDGET);
        size_t u2 = 0;
        TU_COUNT(rsc_dfa_build(&sa, b2, RSC_DFA_BUDGET, &u2) == RSC_OK, "build a");
        TU_COUNT(rsc_dfa_attach(&sb, b2, u2) == RSC_E_ARG, "attach a's DFA to b");
        TU_COUNT(rsc_dfa_attach(&other, b2, u2) == RSC_E_ARG, "attach to another program");
        sb.accel = b2; /* forced: the programs answer, as without */
        TU_COUNT(rsc_selection_engine(&sb, NULL) == RSC_ENGINE_PROGRAMS, "a forced stale DFA");
        TU_COUNT(rsc_match_path(&sb, "/y", 2, NULL) == 0 && rsc_match_path(&sb, "/x", 2, NULL) == 1,
                 "a forced stale DFA is not run");
        TU_COUNT(rsc_match_path(&sa, "/x", 2, NULL) == 0 && rsc_match_path(&sa, "/y", 2, NULL) == 1,
                 "a's DFA");
        /* m non-NULL: the deciding rule, from the programs */
        rsc_match m;
        TU_COUNT(rsc_match_path(&a, "/a.pdf", 6, &m) == 0 && m.decided && m.line == 2 &&
                     m.priority == 7,
                 "m with a DFA attached: line %u", m.line);
        /* dense rows replace the DFA and the other way round */
        size_t an = rsc_accel_size(&a);
        void *ab = aligned(an);
        TU_COUNT(rsc_accel_build(&a, ab, an) == RSC_OK &&
                     rsc_selection_engine(&a, NULL) == RSC_ENGINE_DENSE,
                 "dense rows after a DFA");
        TU_COUNT(rsc_dfa_build(&a, buf, RSC_DFA_BUDGET, NULL) == RSC_OK &&
                     rsc_selection_engine(&a, NULL) == RSC_ENGINE_DFA,
                 "a DFA after dense rows");
        free(ab);
        free(b2);
        rsc_blob_free(&blob2, NULL);
        rsc_blob_free(&blob, NULL);
    }
    for (size_t i = 0; i < NSETS; i++) {
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel;
        if (!load(&sets[i], &blob, &prog, &sel))
            continue;
        same(&sets[i], &sel, "programs");
        budget_edges(&sets[i], &sel);
        damage(&sets[i], &sel);
        rsc_selection d = sel;
        TU_CHECK(rsc_dfa_build(&d, buf, RSC_DFA_BUDGET, NULL) == RSC_OK, "%s: build",
                 sets[i].name);
        for (size_t k = 0; k < sizeof wants / sizeof wants[0]; k++) {
            if (wants[k].set != i)
                continue;
            const char *p = wants[k].path;
            size_t n = plen(p);
            int got = wants[k].url ? rsc_match_url(&d, p, n, NULL) : rsc_match_path(&d, p, n, NULL);
            TU_COUNT(got == wants[k].allowed, "%s: %s \"%s\": %d, want %d", sets[i].name,
                     wants[k].url ? "URL" : "path", p, got, wants[k].allowed);
        }
        rsc_blob_free(&blob, NULL);
    }
    /* Skip states (a state left by at most two bytes besides NUL and '#'
     * searches for them sixteen bytes a step): paths of every length to 80
     * with the byte that leaves, a NUL and a '#' at every offset, as paths
     * and as URLs, against the programs. */
    {
        static const char *const bodies[] = {
            "User-agent: *\nDisallow: /*.pdf$\n",
            "User-agent: *\nAllow: /\nDisallow: /*x\nAllow: /*xy$\n",
            "User-agent: *\nDisallow: /*ab*c\n",
        };
        static const char *const tails[] = {".pdf", "xy", "abzc"}; /* what decides */
        for (size_t bi = 0; bi < 3; bi++) {
            rset r = {bodies[bi], 0, bodies[bi]};
            rsc_blob blob;
            rsc_program prog;
            rsc_selection sel;
            if (!load(&r, &blob, &prog, &sel))
                continue;
            rsc_selection d = sel;
            rsc_engine_info info;
            TU_CHECK(rsc_dfa_build(&d, buf, RSC_DFA_BUDGET, NULL) == RSC_OK &&
                         rsc_selection_engine(&d, &info) == RSC_ENGINE_DFA && info.skip_states > 0,
                     "%s: %u skip states", r.name, info.skip_states);
            static const char fill[] = "ab.pdfxyc#\0";
            char path[96];
            for (size_t len = 1; len <= 80; len++)
                for (size_t at = 1; at < len; at++)
                    for (size_t f = 0; f < sizeof fill - 1; f++) {
                        path[0] = '/';
                        for (size_t j = 1; j < len; j++)
                            path[j] = (char)('k' + (j * 7 + len) % 9); /* k..s: no rule's */
                        size_t tl = strlen(tails[bi]);
                        if (at + tl < len) /* the tail after the byte: a NUL or '#' hides it */
                            memcpy(path + len - tl, tails[bi], tl);
                        path[at] = fill[f];
                        rsc_match m;
                        int pv = rsc_match_path(&sel, path, len, &m);
                        int got = rsc_match_path(&d, path, len, NULL);
                        TU_COUNT(got == pv, "%s: skip: path of %zu, byte %zu = %d: %d, programs %d",
                                 r.name, len, at, fill[f], got, pv);
                        pv = rsc_match_url(&sel, path, len, &m);
                        got = rsc_match_url(&d, path, len, NULL);
                        TU_COUNT(got == pv, "%s: skip: URL of %zu, byte %zu = %d: %d, programs %d",
                                 r.name, len, at, fill[f], got, pv);
                    }
            rsc_blob_free(&blob, NULL);
        }
    }
    /* Random wildcard sets over a small alphabet, large enough that the
     * rows pass the size from which they are minimised (runtime/dfa.c,
     * MINIMISE_FROM): 3,000 random paths each, against the programs. */
    {
        unsigned long long x = 20261127;
        size_t big = 0;
        for (int set = 0; set < 12; set++) {
            char body[8192];
            random_rules(&x, body, sizeof body, 20 + set * 12, 1, 7, 1);
            rset r = {"random", 0, body};
            rsc_blob blob;
            rsc_program prog;
            rsc_selection sel;
            if (!load(&r, &blob, &prog, &sel))
                continue;
            rsc_selection d = sel;
            rsc_engine_info info;
            if (rsc_dfa_build(&d, buf, RSC_DFA_BUDGET, NULL) != RSC_OK) {
                rsc_blob_free(&blob, NULL);
                continue;
            }
            rsc_selection_engine(&d, &info);
            big += info.bytes > 32768;
            printf("random set %d: %u states, %u classes, %zu bytes\n", set, info.states, info.classes, info.bytes);
            random_paths("random set", &sel, &d, &x, 3000, "abcdx/.e");
            rsc_blob_free(&blob, NULL);
        }
        printf("random sets: %zu with rows over 32 KiB (minimised)\n", big);
        TU_COUNT(big > 0, "no random set reached the minimised size");
    }
    /* Partial DFAs: a buffer too small for every state keeps the states
     * found first (breadth first) and leaves the rest unbuilt; a path that
     * reaches one is decided by the programs. Random wildcard sets built at
     * eight sizes from the least that builds at all to the least that
     * builds every state: each build's verdicts on 3,000 random paths and
     * URLs against the programs, its invariants in a copy, and damaged
     * copies (every 7th byte flipped: refused, or attached and run). */
    {
        unsigned long long x = 20261128;
        for (int set = 0; set < 6; set++) {
            char body[8192];
            random_rules(&x, body, sizeof body, 30 + set * 12, 2, 8, 0);
            rset r = {"partial", 0, body};
            rsc_blob blob;
            rsc_program prog;
            rsc_selection sel;
            if (!load(&r, &blob, &prog, &sel))
                continue;
            size_t lo = least(&sel, 0), hi = least(&sel, 1);
            TU_COUNT(lo > 0 && hi >= lo, "partial set %d: least %zu, complete from %zu", set, lo, hi);
            printf("partial set %d: builds from %zu bytes, every state from %zu\n", set, lo, hi);
            for (int step = 0; step < 8 && lo > 0; step++) {
                size_t size = (lo + (hi - lo) * (size_t)step / 8) & ~(size_t)7, used = 0;
                if (size < lo)
                    size = lo;
                void *pb = aligned(size);
                rsc_selection d = sel;
                rsc_engine_info info;
                int ok = rsc_dfa_build(&d, pb, size, &used) == RSC_OK &&
                         rsc_selection_engine(&d, &info) == RSC_ENGINE_DFA;
                TU_COUNT(ok, "partial set %d: build at %zu", set, size);
                if (!ok) {
                    free(pb);
                    continue;
                }
                partial_builds += rsc_dfa_partial(&d) != 0;
                void *copy = aligned(used);
                memcpy(copy, pb, used);
                rsc_selection c = sel;
                TU_COUNT(rsc_dfa_attach(&c, copy, used) == RSC_OK, "partial set %d: attach a copy",
                         set);
                char path[64];
                for (int k = 0; k < 3000; k++) {
                    size_t len = random_path(&x, path, "abcdx/.e?#");
                    rsc_match m;
                    int pv = rsc_match_path(&sel, path, len, &m);
                    TU_COUNT(rsc_match_path(&d, path, len, NULL) == pv &&
                                 rsc_match_path(&c, path, len, NULL) == pv,
                             "partial set %d at %zu: path %.*s: programs %d", set, size, (int)len,
                             path, pv);
                    pv = rsc_match_url(&sel, path, len, &m);
                    TU_COUNT(rsc_match_url(&c, path, len, NULL) == pv,
                             "partial set %d at %zu: URL %.*s: programs %d", set, size, (int)len,
                             path, pv);
                }
                long refused = 0;
                for (size_t i = (size_t)step; i < used; i += 7) {
                    memcpy(copy, pb, used);
                    ((unsigned char *)copy)[i] ^= (unsigned char)(1u << (i % 8));
                    rsc_selection e = sel;
                    if (rsc_dfa_attach(&e, copy, used) != RSC_OK) {
                        refused++;
                        continue;
                    }
                    for (size_t k = 0; k < NPATHS; k++)
                        (void)rsc_match_path(&e, paths[k], plen(paths[k]), NULL);
                }
                TU_COUNT(refused > 0, "partial set %d at %zu: no damaged copy refused", set, size);
                free(copy);
                free(pb);
            }
            rsc_blob_free(&blob, NULL);
        }
        printf("partial builds: %zu\n", partial_builds);
        TU_COUNT(partial_builds >= 20, "only %zu partial builds", partial_builds);
    }
    /* A set without a '*' inside a rule is refused rather than built
     * partial (the programs walk it as a trie): 150 random literal rules,
     * with a trailing '*' and a '$' that do not count, at 3/4 of the least
     * size that builds every state. The same set with one "/ *q" rule more
     * builds partial at that size. */
    {
        unsigned long long x = 20261129;
        char body[16384];
        size_t bl = (size_t)snprintf(body, sizeof body,
                                     "User-agent: *\nDisallow: /lite/*\nAllow: /lite/x$\n");
        for (int k = 0; k < 150; k++) {
            bl += (size_t)snprintf(body + bl, sizeof body - bl, "%s: /",
                                   lcg(&x) >> 40 & 1 ? "Allow" : "Disallow");
            for (int j = 0, len = 20 + (int)(lcg(&x) >> 33) % 30; j < len; j++)
                body[bl++] = "abcdefghijklmnopqrstuvwxyz0123456789/.-_"[(lcg(&x) >> 35) % 40];
            body[bl++] = '\n';
        }
        body[bl] = 0;
        size_t size = 0; /* the literal set's, for both */
        for (int wild = 0; wild < 2; wild++) {
            if (wild)
                snprintf(body + bl, sizeof body - bl, "Disallow: /*q\n");
            const rset r = {wild ? "literal + /*q" : "150 literal", 0, body};
            rsc_blob blob;
            rsc_program prog;
            rsc_selection sel;
            if (!load(&r, &blob, &prog, &sel))
                continue;
            if (!wild) {
                size_t whole = least(&sel, 1);
                TU_COUNT(whole > 8192 && least(&sel, 0) == whole,
                         "%s: builds whole from %zu, at all from %zu", r.name, whole,
                         least(&sel, 0));
                size = whole / 4 * 3 & ~(size_t)7;
                printf("%s: every state from %zu bytes, built at %zu\n", r.name, whole, size);
            }
            void *hb = aligned(size);
            rsc_selection d = sel;
            size_t used = 1;
            rsc_status st = rsc_dfa_build(&d, hb, size, &used);
            if (!wild)
                TU_COUNT(st == RSC_E_LIMIT && used == 0 &&
                             rsc_selection_engine(&d, NULL) == RSC_ENGINE_PROGRAMS,
                         "%s at %zu: status %s", r.name, size, rsc_strerror(st));
            else
                TU_COUNT(st == RSC_OK && rsc_dfa_partial(&d),
                         "%s at %zu: status %s, partial %d", r.name, size, rsc_strerror(st),
                         rsc_dfa_partial(&d));
            partial_builds += st == RSC_OK && rsc_dfa_partial(&d);
            same(&r, &d, wild ? "partial DFA" : "refused");
            random_paths(r.name, &sel, &d, &x, 2000, "abcdefghij/.-q");
            free(hb);
            rsc_blob_free(&blob, NULL);
        }
    }
    /* Dominance (runtime/dfa.c, note [dominance]): twelve rules that share
     * the tail "*.pdf" after heads a path may hold in any order. A state
     * that remembered which heads it has seen would need 2^12 of them;
     * with a dominated position dropped, seeing any head is one state.
     * Then classes merged: after the construction 'a' and 'b' lead
     * everywhere alike in the second set. Verdicts against the programs. */
    {
        char body[2048];
        size_t bl = (size_t)snprintf(body, sizeof body, "User-agent: *\nAllow: /*keep*.pdf\n");
        for (int k = 0; k < 12; k++)
            bl += (size_t)snprintf(body + bl, sizeof body - bl, "Disallow: /*h%c/*.pdf\n", 'a' + k);
        const rset heads = {"twelve heads", 0, body};
        const rset alike = {"a and b alike", 0, "User-agent: *\nDisallow: /x*a\nDisallow: /x*b\n"};
        static const char *const hp[] = {"/ha/x.pdf", "/hb/hc/hd/x.pdf", "/hl/hk/keep.pdf", "/x/ha/",
                                          "/hz/x.pdf", "/he/x.pd", "/hf/.pdf/", "/keep/hg/a.pdf"};
        static const char *const ap[] = {"/x", "/xa", "/xb", "/xc", "/a", "/xcccb", "/ax"};
        for (int t = 0; t < 2; t++) {
            rsc_blob blob;
            rsc_program prog;
            rsc_selection sel;
            if (!load(t ? &alike : &heads, &blob, &prog, &sel))
                continue;
            rsc_selection d = sel;
            rsc_engine_info info;
            memset(&info, 0, sizeof info);
            TU_COUNT(rsc_dfa_build(&d, buf, RSC_DFA_BUDGET, NULL) == RSC_OK &&
                         rsc_selection_engine(&d, &info) == RSC_ENGINE_DFA,
                     "%s: no DFA", t ? alike.name : heads.name);
            printf("%s: %u states, %u classes\n", t ? alike.name : heads.name, info.states, info.classes);
            if (t == 0)
                TU_COUNT(info.states < 200, "twelve heads: %u states (dominance lost)", info.states);
            else /* the end, other bytes, '/', 'x', and 'a' with 'b' */
                TU_COUNT(info.classes == 5, "a and b alike: %u classes (not merged)", info.classes);
            const char *const *pp = t ? ap : hp;
            size_t np = t ? sizeof ap / sizeof *ap : sizeof hp / sizeof *hp;
            for (size_t i = 0; i < np; i++) {
                rsc_match m;
                int pv = rsc_match_path(&sel, pp[i], strlen(pp[i]), &m);
                TU_COUNT(rsc_match_path(&d, pp[i], strlen(pp[i]), NULL) == pv, "%s: %s: programs %d",
                         t ? alike.name : heads.name, pp[i], pv);
            }
            rsc_blob_free(&blob, NULL);
        }
    }
    /* A set whose states times classes pass 16 bits (runtime/dfa.h: the
     * rows then start at entry << sh, sh > 0): 400 literal rules over 30
     * letters and a few wildcards. 20,000 paths made from the rules'
     * prefixes, against the programs, in place and in a copy; bytes of a
     * copy flipped one at a time: refused, or run without a fault. */
    {
        static const char abc[] = "abcdefghijklmnopqrstuvwxyz0123";
        static char body[40000];
        static char texts[400][24];
        unsigned long long x = 777;
        size_t bl = (size_t)snprintf(body, sizeof body, "User-agent: *\nDisallow: /*.pdf$\nAllow: /*keep\n");
        for (int k = 0; k < 400; k++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            int len = 8 + (int)((x >> 40) % 14);
            texts[k][0] = '/';
            for (int j = 1; j < len; j++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                texts[k][j] = abc[(x >> 33) % 30];
            }
            texts[k][len] = 0;
            bl += (size_t)snprintf(body + bl, sizeof body - bl, "%s: %s\n", (x >> 50) & 1 ? "Allow" : "Disallow",
                                   texts[k]);
        }
        const rset big = {"wide rows", 0, body};
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel;
        if (load(&big, &blob, &prog, &sel)) {
            rsc_selection d = sel;
            rsc_engine_info info;
            memset(&info, 0, sizeof info);
            size_t used = 0;
            TU_COUNT(rsc_dfa_build(&d, buf, RSC_DFA_BUDGET, &used) == RSC_OK &&
                         rsc_selection_engine(&d, &info) == RSC_ENGINE_DFA,
                     "wide rows: no DFA");
            printf("wide rows: %u states, %u classes, %zu bytes\n", info.states, info.classes, info.bytes);
            TU_COUNT((size_t)info.states * info.classes + 1 > 0xffff, "wide rows: %u x %u fit 16 bits",
                     info.states, info.classes);
            /* u16 entries: at most two bytes an entry, padding below 2x */
            TU_COUNT(info.bytes <= 4 * (size_t)info.states * info.classes + 4096,
                     "wide rows: %zu bytes", info.bytes);
            void *copy = aligned(used ? used : 8);
            memcpy(copy, buf, used);
            rsc_selection c = sel;
            TU_COUNT(rsc_dfa_attach(&c, copy, used) == RSC_OK, "wide rows: attach a copy");
            char path[64];
            for (int k = 0; k < 20000; k++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                const char *t = texts[(x >> 20) % 400];
                size_t n = strlen(t), cut = 1 + (x >> 40) % n, len = cut;
                memcpy(path, t, cut);
                for (int j = (int)((x >> 50) % 6); j > 0; j--) {
                    x = x * 6364136223846793005ull + 1442695040888963407ull;
                    path[len++] = (x >> 30) % 7 == 0 ? '.' : abc[(x >> 33) % 30];
                }
                if ((x >> 60) == 0)
                    memcpy(path + len, ".pdf", 4), len += 4;
                rsc_match m;
                int pv = rsc_match_path(&sel, path, len, &m);
                TU_COUNT(rsc_match_path(&d, path, len, NULL) == pv && rsc_match_path(&c, path, len, NULL) == pv,
                         "wide rows: %.*s: programs %d", (int)len, path, pv);
            }
            long refused = 0;
            for (int k = 0; k < 400 && used; k++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                size_t at = (k < 200 ? (x >> 20) % 4096 : (x >> 20)) % used; /* the head, then anywhere */
                memcpy(copy, buf, used);
                ((unsigned char *)copy)[at] ^= (unsigned char)(1u << (k % 8));
                rsc_selection e = sel;
                if (rsc_dfa_attach(&e, copy, used) != RSC_OK) {
                    refused++;
                    continue;
                }
                for (int j = 0; j < 50; j++)
                    (void)rsc_match_path(&e, texts[j], strlen(texts[j]), NULL);
            }
            TU_COUNT(refused > 0, "wide rows: no damaged copy refused");
            free(copy);
            rsc_blob_free(&blob, NULL);
        }
    }
    /* the trivial sets: no row at all (a final state from the start), or
     * for "Disallow: /" one (the path may be empty, or not start with '/') */
    {
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel;
        for (size_t i = 0; i < 3; i++) {
            if (!load(&sets[i], &blob, &prog, &sel))
                continue;
            rsc_engine_info info;
            TU_COUNT(rsc_dfa_build(&sel, buf, RSC_DFA_BUDGET, NULL) == RSC_OK &&
                         rsc_selection_engine(&sel, &info) == RSC_ENGINE_DFA && info.states == (i == 2),
                     "%s: %u states", sets[i].name, info.states);
            rsc_blob_free(&blob, NULL);
        }
    }
    free(buf);
    return tu_report("dfa", tu_passed);
}
