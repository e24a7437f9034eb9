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
 * programs; the engine API and the deprecated 1.0 wrappers (they build
 * nothing and leave the selection as it is); and damage: every truncation
 * of a blob is refused, every bit flip of its DFAS section is refused (the
 * checksum), and with the checksum made right again each flip is refused
 * by verification or loads and answers safely (0 or 1, ASan-clean). A
 * self-test plants a wrong verdict (the start state made "allowed") in a
 * DFA and checks that the comparison catches it. */
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
    for (unsigned sh = 0; pos < n; sh += 7) { /* Total_Size */
        if (!(b[pos++] & 0x80))
            break;
    }
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

/* Damage: every truncation refused; every bit of the DFAS section flipped
 * refused (the checksum), and with the checksum right again refused or
 * loaded and run safely. Returns the flips verification refused. */
static long damage(const rset *r, const rsc_blob *blob)
{
    long refused = 0, flips = 0;
    uint8_t *c = malloc(blob->size);
    if (!c)
        exit(2);
    rsc_program p;
    for (size_t k = 0; k < blob->size; k++)
        TU_COUNT(rsc_load(&p, blob->data, k, NULL) != RSC_OK, "%s: cut to %zu bytes loads", r->name, k);
    size_t dsize, d0 = section_at(blob->data, blob->size, 9, &dsize);
    TU_CHECK(d0 > 0 && dsize > 0, "%s: no DFAS section", r->name);
    for (size_t i = d0; d0 && i < d0 + dsize; i++)
        for (unsigned bit = 0; bit < 8; bit++) {
            memcpy(c, blob->data, blob->size);
            c[i] ^= (uint8_t)(1u << bit);
            TU_COUNT(rsc_load(&p, c, blob->size, NULL) == RSC_E_CHECKSUM, "%s: flip at %zu.%u", r->name, i, bit);
            fix_checksum(c, blob->size);
            flips++;
            if (rsc_load(&p, c, blob->size, NULL) != RSC_OK) {
                refused++;
                continue;
            }
            rsc_bytes ag = {"Googlebot", 9};
            rsc_selection s;
            if (rsc_select(&p, &ag, 1, &s) != RSC_OK)
                continue;
            for (size_t j = 0; j < NPATHS; j++) {
                int v = rsc_match_path(&s, paths[j], plen(paths[j]), NULL);
                TU_COUNT(v == 0 || v == 1, "%s: flip at %zu.%u: verdict %d", r->name, i, bit, v);
            }
        }
    free(c);
    TU_CHECK(refused > 0, "%s: no flip of %ld refused by verification", r->name, flips);
    return refused;
}

static rsc_status compile_opts(const rset *r, int flags, rsc_blob *blob)
{
    rsc_compile_options opt;
    memset(&opt, 0, sizeof opt);
    opt.profile = r->rfc ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
    opt.no_prune = flags;
    return rsc_compile(r->body, strlen(r->body), &opt, blob);
}

int main(void)
{
    long refused = 0;
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
        /* where a binding finds the DFA (rsc_selection_dfa): inside the
         * blob, and only for a selection that runs one */
        rsc_dfa_view v;
        const int runs = has && !sets[i].rfc; /* the rfc profile's stay in C */
        TU_CHECK(rsc_selection_dfa(&sel, &v) == runs && rsc_selection_dfa(NULL, &v) == 0 &&
                     rsc_selection_dfa(&sel, NULL) == 0 &&
                     (!runs || (v.str < blob.size && v.st < blob.size && v.ce < blob.size &&
                                v.start <= v.states + 1 && (v.states == 0 || v.st_size > 0))),
                 "%s: rsc_selection_dfa", sets[i].name);
        rsc_selection ps = sel;
        TU_CHECK(rsc_selection_use(&ps, RSC_ENGINE_PROGRAMS) == RSC_OK &&
                     rsc_selection_engine(&ps, NULL) == RSC_ENGINE_PROGRAMS && differ(&ps) == 0 &&
                     rsc_selection_dfa(&ps, &v) == 0,
                 "%s: on the programs", sets[i].name);
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
            refused += damage(&sets[i], &blob);
        /* the self-test: a DFA whose start is "allowed" (K) must be caught,
         * for a rule set that disallows something */
        if (i == 2 || i == 3) {
            size_t dsize, d0 = section_at(blob.data, blob.size, 9, &dsize);
            /* DFAS: Count (1 byte), widths, End; then the DFA: K, Start */
            uint8_t *c = malloc(blob.size);
            memcpy(c, blob.data, blob.size);
            size_t at = d0 + 1 + 1 + 1; /* Count 1, widths 00, one End */
            uint8_t K = c[at];
            TU_CHECK(K < 0x80 && c[at + 1] < 0x80, "%s: a one-byte K and Start", sets[i].name);
            c[at + 1] = K; /* Start := K, "allowed" */
            fix_checksum(c, blob.size);
            rsc_program fp;
            rsc_selection fs;
            TU_CHECK(rsc_load(&fp, c, blob.size, NULL) == RSC_OK && rsc_select(&fp, &ag, 1, &fs) == RSC_OK &&
                         rsc_selection_engine(&fs, NULL) == RSC_ENGINE_DFA && differ(&fs) > 0,
                     "%s: a planted wrong verdict is not caught", sets[i].name);
            free(c);
            (void)dsize;
        }
        rsc_blob_free(&blob, NULL);
    }
    /* random rule sets: the DFA (m NULL) against the programs (m) */
    {
        unsigned long long x = 42;
        int on_dfa = 0;
        for (int set = 0; set < 12; set++) {
            char body[16384];
            random_rules(&x, body, sizeof body, 10 + set * 8, 1, 7, 1);
            rset rr = {"random", 0, body};
            rsc_blob blob;
            rsc_program prog;
            rsc_selection sel;
            if (!load(&rr, &blob, &prog, &sel))
                continue;
            on_dfa += rsc_selection_engine(&sel, NULL) == RSC_ENGINE_DFA;
            random_paths("random set", &sel, &x, 3000, "abcdx/.e");
            rsc_blob_free(&blob, NULL);
        }
        TU_CHECK(on_dfa >= 6, "only %d of 12 random sets on a DFA", on_dfa);
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
            /* dense rows: refused where they do not fit, sel untouched;
             * then built, run (the same verdicts), and dropped again */
            const size_t need = rsc_accel_size(&sel);
            TU_CHECK(need > 0 && need <= sizeof buf && rsc_accel_build(&sel, buf, need - 1) == RSC_E_LIMIT &&
                         memcmp(&sel, &before, sizeof sel) == 0 &&
                         rsc_accel_build(NULL, buf, sizeof buf) == RSC_E_ARG &&
                         rsc_accel_build(&failed, buf, sizeof buf) == RSC_E_ARG &&
                         rsc_accel_build(&sel, NULL, sizeof buf) == RSC_E_ARG &&
                         rsc_accel_build(&sel, buf + 4, sizeof buf - 8) == RSC_E_ARG &&
                         memcmp(&sel, &before, sizeof sel) == 0,
                     "rsc_accel_build: refusals leave the selection untouched");
            rsc_selection dsel = sel;
            TU_CHECK(rsc_accel_build(&dsel, buf, need) == RSC_OK &&
                         rsc_selection_engine(&dsel, NULL) == RSC_ENGINE_DENSE &&
                         rsc_match_path(&dsel, "/x", 2, NULL) == rsc_match_path(&sel, "/x", 2, NULL) &&
                         rsc_match_path(&dsel, "/y", 2, NULL) == rsc_match_path(&sel, "/y", 2, NULL) &&
                         rsc_selection_use(&dsel, RSC_ENGINE_DFA) == RSC_OK &&
                         rsc_selection_engine(&dsel, NULL) == RSC_ENGINE_DFA,
                     "rsc_accel_build: dense rows run, then back to the blob's DFA");
            TU_CHECK(rsc_accel_size(NULL) == 0 && rsc_accel_size(&failed) == 0, "rsc_accel_size: none");
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
        for (int i = 0; i < nr; i++) {
            at += sprintf(at, "Disallow: /");
            for (int j = 0; j < 12; j++)
                at += sprintf(at, "*%c", lcg(&x) >> 40 & 1 ? 'a' : 'b');
            at += sprintf(at, "x%d\n", i);
        }
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
    printf("test_dfa: %ld damaged DFAS sections refused by verification\n", refused);
    return tu_report("test_dfa", tu_passed);
}
