/* SPDX-License-Identifier: Apache-2.0 */
/* Runtime matching on hand-built format 4.0 blobs (rt_builder.c): Accept,
 * End and wildcard tails exactly as docs/FORMAT.md "Matching" says (prefix
 * and end-anchored rules, tails of several segments, the anchored last
 * segment, greedy leftmost placement, long periodic segments), labels
 * inline and by Rep, leaves of one rank (Label_Head kinds 2 and 3) and the
 * same leaves written with a Head, ranks and pruning by the best rank so far, root slots
 * on up to 16 levels of a chain, the Aho-Corasick automaton (failure links,
 * output chains of segments that are suffixes of others; the builder's
 * tables checked against a textbook automaton), internal nodes shared by
 * rules, more than RSC_SCAN_MAX edges on one segment (searched by parent),
 * chain programs (hand-built KMP lines), hand-made automata whose failure
 * links loop (matching still ends), programs and sets combining by max
 * (SETS written or left out; more programs than a selection resolves),
 * agent selection and the global set, explanations, the rfc profile (match
 * texts normalised, patterns as written), the '/' put in front of a path
 * that starts with '?' or ';', the path's end at NUL and at a URL's '#',
 * sitemaps and directives; and randomised comparisons with a direct
 * wildcard matcher.
 *
 * Every test of wildcard blobs runs on automata without labels and with
 * labels (FORMAT.md since 3.1, Labels: every one an encoder leaves out, or at
 * most 1 or 2 bytes a label), with the same verdicts; test_labels checks
 * the labelled tables and matching through labels on its own.
 *
 * `test_rt_match --dump` prints the example blob. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/format.h"
#include "robotsc/runtime.h"
#include "rt_builder.h"
#include "testutil.h"

#ifndef RT_RANDOM /* raise for a longer run: -DRT_RANDOM=100000 */
#define RT_RANDOM 4000
#endif

/* Evaluates cond once; counts and reports. */
#define CHECK TU_COUNT

static rsc_program load_or_die(const uint8_t *b, size_t n)
{
    rsc_program p;
    rsc_load_error e;
    rsc_status st = rsc_load(&p, b, n, &e);
    if (st != RSC_OK) {
        fprintf(stderr, "load failed: %s at %zu: %s\n", rsc_strerror(st), e.offset, e.what);
        tb_hexdump(b, n);
        exit(1);
    }
    return p;
}

static rsc_selection sel1(const rsc_program *p, const char *agent)
{
    rsc_selection s;
    rsc_bytes a = {agent, strlen(agent)};
    rsc_status st = rsc_select(p, &a, 1, &s);
    CHECK(st == RSC_OK, "select %s: %d", agent, st);
    return s;
}

static int path(const rsc_selection *s, const char *p, rsc_match *m)
{
    return rsc_match_path(s, p, strlen(p), m);
}

static int url(const rsc_selection *s, const char *u)
{
    return rsc_match_url(s, u, strlen(u), NULL);
}

/* A blob built from a tp_prog, loaded, with the ranks of its rules. */
typedef struct built {
    uint8_t *b;
    size_t n;
    rsc_program p;
    uint32_t rank[48];
} built;

/* The automata of the wildcard tests: without labels (0), or with labels
 * as tt_labels() says (main runs those tests once per mode; the verdicts
 * must be the same). */
static uint32_t g_labels;

static void build(built *x, const tp_prog *tp)
{
    tp_prog c = *tp;
    if (!c.labels)
        c.labels = g_labels;
    x->b = tp_build(&c, &x->n, x->rank);
    x->p = load_or_die(x->b, x->n);
}

/* ---- a direct reference ------------------------------------------------ */

/* Does p[0..pl) ('*': any run of bytes) match all of s[0..n)? The classic
 * greedy backtracking over the last star, exact for '*' alone. */
static int wild(const char *p, size_t pl, const uint8_t *s, size_t n)
{
    size_t i = 0, j = 0, star = SIZE_MAX, mark = 0;
    while (j < n) {
        if (i < pl && p[i] == '*') {
            star = i++;
            mark = j;
        } else if (i < pl && (uint8_t)p[i] == s[j]) {
            i++, j++;
        } else if (star != SIZE_MAX) {
            i = star + 1;
            j = ++mark;
        } else {
            return 0;
        }
    }
    while (i < pl && p[i] == '*')
        i++;
    return i == pl;
}

/* Spec E: a rule's pattern against a path. A final '$' anchors at the
 * end; otherwise the pattern matches any path it is a prefix of (as if it
 * ended with '*'). */
static int ref_rule(const char *pat, const uint8_t *s, size_t n)
{
    size_t pl = strlen(pat);
    if (pl && pat[pl - 1] == '$')
        return wild(pat, pl - 1, s, n);
    char *q = malloc(pl + 2);
    memcpy(q, pat, pl);
    q[pl] = '*';
    int r = wild(q, pl + 1, s, n);
    free(q);
    return r;
}


/* The best rank of the rules of the given sets matching s (0: none); in
 * the rfc profile a rule matches by its pattern normalised. */
static uint32_t ref_best(const tp_prog *tp, const uint32_t *rank, const uint32_t *sets,
                         size_t ns, const uint8_t *s, size_t n)
{
    uint32_t best = 0;
    for (size_t k = 0; k < ns; k++) {
        const tp_set *st = &tp->sets[sets[k]];
        for (size_t j = 0; j < st->n; j++) {
            const tp_program *pg = &tp->progs[st->progs[j]];
            for (size_t i = 0; i < pg->n; i++) {
                int r = pg->rules[i];
                const char *pat = tp->rules[r].pat;
                char mt[3 * 64 + 1];
                if (tp->rfc && strlen(pat) <= 64) {
                    mt[tp_normalise((const uint8_t *)pat, strlen(pat), (uint8_t *)mt)] = 0;
                    pat = mt;
                }
                if (rank[r] > best && ref_rule(pat, s, n))
                    best = rank[r];
            }
        }
    }
    return best;
}

static const tp_rule *rule_of_rank(const tp_prog *tp, const uint32_t *rank, uint32_t r)
{
    for (size_t i = 0; i < tp->n_rules; i++)
        if (rank[i] == r)
            return &tp->rules[i];
    return NULL;
}

/* Checks one verdict against the reference: best rank over the sets for
 * the path as matched (already cut, slashed and normalised by the caller). */
static void check_ref(const char *what, const tp_prog *tp, const uint32_t *rank,
                      const uint32_t *sets, size_t ns, const uint8_t *eff, size_t en,
                      int got, const rsc_match *m, int robots)
{
    uint32_t best = robots ? 0 : ref_best(tp, rank, sets, ns, eff, en);
    const tp_rule *r = best ? rule_of_rank(tp, rank, best) : NULL;
    int decided = r && r->pat[0];
    int allowed = !decided || r->allow;
    size_t pri = r ? strlen(r->pat) : 0;
    uint8_t mt[3 * 64];
    if (r && tp->rfc && pri <= 64) /* the match text's length (RFC 9309 2.2.2) */
        pri = tp_normalise((const uint8_t *)r->pat, pri, mt);
    CHECK(got == allowed && m->allowed == allowed && m->decided == decided &&
              (!decided || (m->line == r->line && m->rule_allow == (r->allow != 0) &&
                            m->priority == pri && m->pattern_len == strlen(r->pat) &&
                            memcmp(m->pattern, r->pat, m->pattern_len) == 0)),
          "%s: path '%.*s' (%zu bytes): got allowed %d decided %d line %u, want %d %d %u", what,
          en > 60 ? 60 : (int)en, (const char *)eff, en, got, m->decided, m->line, allowed,
          decided, r ? r->line : 0);
}

/* ---- the example -------------------------------------------------------- */

/* "User-agent: *\nDisallow: /a\n", as a compiler following FORMAT.md would
 * write it. */
static tp_prog example_prog(void)
{
    tp_prog p;
    tp_rule r = {2, 0, "/a"};
    tp_one(&p, 1, &r);
    p.n_groups = 1;
    p.groups[0].line = 1;
    p.groups[0].toks[0] = "*";
    return p;
}

/* Adler-32 of the example (with the Checksum field read as zero; computed
 * apart from the runtime and the builder: zlib.adler32). */
#define EXAMPLE_CHECKSUM 0x716602FEu

static void test_example(void)
{
    tp_prog tp = example_prog();
    built x;
    build(&x, &tp);
    /* The bytes, by hand from FORMAT.md (format 5.0 without the optional
     * DFAS section: robotsc compile --no-dfa writes them so): the header (magic, 5.0, flags 0, the
     * Checksum, Total_Size 48 in one byte), Present, each section's Size
     * and bytes; no SETS (set 0 is program 0), GROUPS lists agent 0 ('*').
     * Every Table's widths are one packed byte 00 (all columns 1 byte). */
    static const uint8_t body[] = {
        0x37,                                              /* Present: 1 2 3 5 6 */
        0x02, '/', 'a',                                    /* STRINGS          */
        0x05, 0x01, 0x00, 0x04, 0x00, 0x02,                /* RULES: line 2    */
        0x0e, 0x01, 0x00, 0x0b,                            /* PROGRAMS: End 11 */
        0x05,                                              /* Trie_Size 5      */
        0x00, 0x20, '/',                                   /* root: child '/' (no Offset) */
        0x06, 0x01,                                        /* "a": a leaf, Accept 1 (Rep) */
        0x00, 0x00, 0x00, 0x00, 0x00,                      /* Shape 0, 4 empty */
        0x02, 0x01, 0x00,                                  /* AGENTS: Global 1 */
        0x07, 0x01, 0x00, 0x01, 0x00,                      /* GROUPS: line 1   */
        0x01, 0x00, 0x00,                                  /*   agent '*'      */
    };
    CHECK(x.n == 12 + sizeof body && x.n == 48 && memcmp(x.b + 12, body, sizeof body) == 0 &&
              memcmp(x.b, "\x89RSC\x05\x00\x00", 7) == 0 && x.b[11] == x.n &&
              rd32le(x.b + 7) == EXAMPLE_CHECKSUM,
          "example blob bytes (%zu, checksum %08X)", x.n, rd32le(x.b + 7));
    if (x.n != 12 + sizeof body || memcmp(x.b + 12, body, sizeof body) != 0)
        tb_hexdump(x.b, x.n);
    rsc_program p = x.p;
    CHECK(rsc_program_profile(&p) == 0, "profile");
    rsc_selection s = sel1(&p, "foobot");
    CHECK(s.named == 0 && s.n_sets == 1, "global selected");
    CHECK(s.n_roots == 1 && s.roots[0] == 26, "the one program resolved: Data at 26");
    rsc_match m;
    CHECK(path(&s, "/a", &m) == 0, "/a");
    CHECK(m.allowed == 0 && m.decided == 1 && m.line == 2 && m.rule_allow == 0 &&
              m.priority == 2 && m.pattern_len == 2 && memcmp(m.pattern, "/a", 2) == 0,
          "explain /a");
    CHECK(path(&s, "/abc", NULL) == 0, "/abc");
    CHECK(path(&s, "/b", &m) == 1 && m.decided == 0 && m.line == 0 && m.priority == 0 &&
              m.pattern && m.pattern_len == 0,
          "/b");
    CHECK(path(&s, "/", NULL) == 1, "/");
    CHECK(path(&s, "", NULL) == 1, "empty");
    CHECK(path(&s, "a", NULL) == 1, "no slash");
    CHECK(rsc_match_path(&s, NULL, 0, NULL) == 1, "NULL empty");
    CHECK(url(&s, "http://example.com/a?x") == 0, "url /a");
    CHECK(url(&s, "http://example.com/b#/a") == 1, "url fragment");
    CHECK(url(&s, "http://example.com/#/a") == 1, "url fragment after /");
    CHECK(url(&s, "http://example.com") == 1, "url no path");
    CHECK(url(&s, "example.com/a") == 0, "scheme-less");
    CHECK(url(&s, "//example.com/a/b") == 0, "network-path reference");
    CHECK(rsc_match_url(&s, NULL, 0, NULL) == 1, "NULL url");
    CHECK(rsc_sitemap_count(&p) == 0 && rsc_directive_count(&p) == 0, "no sitemaps");
    free(x.b);
    /* The same leaf written with a Head (valid; not what an encoder
     * writes): Trie_Size 7, the leaf Label_Head 1 << 2 (inline), 'a',
     * Head 01 (Has_Accept), Accept 1; the same verdicts. */
    tp.no_leaves = 1;
    build(&x, &tp);
    static const uint8_t trie_head[] = {0x07, 0x00, 0x20, '/', 0x04, 'a', 0x01, 0x01};
    CHECK(x.n == 50 && memcmp(x.b + 26, trie_head, sizeof trie_head) == 0,
          "example with a Head leaf: %zu bytes", x.n);
    s = sel1(&x.p, "foobot");
    CHECK(path(&s, "/a", &m) == 0 && m.line == 2 && path(&s, "/abc", NULL) == 0 &&
              path(&s, "/b", NULL) == 1 && path(&s, "/", NULL) == 1,
          "example with a Head leaf: verdicts");
    free(x.b);
}

/* FORMAT.md's Example 2 (one rule, Disallow: "/" "*.pdf$"), with
 * labels, in format 4.0: its 89 bytes as robotsc compile writes them
 * (checked by hand against the format), from the builder's own automaton
 * (".", ".p" and ".pd" left out: state 1 is '.' + "pdf"). */
static void test_example2(void)
{
    static const uint8_t want[89] = {
        /* header: magic, 5.0, flags 0, Checksum 0x6D840513, Total_Size 89;
         * Present 0x37 (STRINGS, RULES, PROGRAMS, AGENTS, GROUPS: no DFAS) */
        0x89, 0x52, 0x53, 0x43, 0x05, 0x00, 0x00, 0x13, 0x05, 0x84, 0x6d, 0x59, 0x37,
        0x07, 0x2f, 0x2a, 0x2e, 0x70, 0x64, 0x66, 0x24, /* STRINGS: the pattern, 7 bytes */
        0x05, 0x01, 0x00, 0x04, 0x00, 0x07,             /* RULES: line 2, disallow, @0 len 7 */
        0x32, 0x01, 0x00, 0x2f,                         /* PROGRAMS: Size 50, End 47 */
        0x06, 0x00, 0x20, 0x2f, 0x00, 0x04, 0x00,       /* Trie_Size 6: root '/'; "/": Slot 0 */
        0x02,                                           /* Shape: Labels */
        0x01, 0x00, 0x00, 0x01,                         /* ROOTS: Level 0, Max 1 */
        0x01, 0x00, 0x00, 0x04, 0x00, 0x01, 0x00, 0x00, 0x01, /* OUTS: ".pdf" anchored */
        0x02, 0x00, 0x00,                               /* STATES: 2 rows, 7 columns (2 width bytes) */
        0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00,       /*   root: child 1 */
        0x2e, 0x00, 0x00, 0x00, 0x01, 0x03, 0x03,       /*   '.', Out 1, label STRINGS[3..6) "pdf" */
        0x01, 0x00, 0x00, 0x01, 0x00, 0x01,             /* EDGES: slot 0, Rank 1, Max 1 */
        0x00, 0x00, 0x00,                               /* Pad */
        0x02, 0x01, 0x00,                               /* AGENTS: Global 1 */
        0x07, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00}; /* GROUPS */
    tp_prog tp;
    tp_rule r = {2, 0, "/*.pdf$"};
    tp_one(&tp, 1, &r);
    tp.n_groups = 1;
    tp.groups[0].line = 1;
    tp.groups[0].toks[0] = "*";
    tp.labels = TT_LABELS_ALL;
    built x;
    build(&x, &tp);
    CHECK(x.n == sizeof want && memcmp(x.b, want, sizeof want) == 0 &&
              rd32le(x.b + 7) == 0x6D840513u,
          "Example 2 blob bytes (%zu)", x.n);
    if (x.n != sizeof want || memcmp(x.b, want, sizeof want) != 0)
        tb_hexdump(x.b, x.n);
    rsc_selection s = sel1(&x.p, "x");
    rsc_match m;
    CHECK(path(&s, "/docs/a.pdf", &m) == 0 && m.line == 2 && path(&s, "/a.pdf?x", &m) == 1 &&
              !m.decided && path(&s, "/a.pd", &m) == 1 && path(&s, "/.pdf", &m) == 0 &&
              path(&s, "/a.pdf.pdf", &m) == 0 && path(&s, "/a.pd.pdf", &m) == 0 &&
              path(&s, "/a.p.pdf", &m) == 0 && path(&s, "/a.pdf.pd", &m) == 1,
          "Example 2 matches");
    free(x.b);
}

/* ---- patterns one at a time ------------------------------------------- */

/* Shapes of the same rules: each a valid encoding. */
/* SH_NO_LEAVES: leaves of one rank written with a Label_Head of kind 0/1
 * and a Head (valid; an encoder uses kinds 2/3). */
enum { SH_COMPRESSED, SH_UNCOMPRESSED, SH_WIDE, SH_REFS, SH_REFS_WIDE_SETS, SH_NO_LEAVES, SH_N };

static void shape(tp_prog *p, int sh)
{
    p->uncompressed = sh == SH_UNCOMPRESSED;
    p->width = sh == SH_WIDE ? 4 : sh == SH_REFS_WIDE_SETS ? 2 : 0;
    p->refs = sh == SH_REFS || sh == SH_REFS_WIDE_SETS;
    p->keep_sets = sh == SH_REFS_WIDE_SETS;
    p->no_leaves = sh == SH_NO_LEAVES;
}

/* A one-rule blob: disallow pat for everyone. */
static void one_rule(built *x, const char *pat, int sh, int rfc)
{
    tp_prog tp;
    tp_rule r = {5, 0, pat};
    tp_one(&tp, 1, &r);
    tp.rfc = rfc;
    shape(&tp, sh);
    build(x, &tp);
}

/* pat against path, as a path, and (when both start with '/') as a URL
 * whose path starts with ';', so that a '/' is put in front: "/;" + the
 * rest against "/;" + the rest of pat. want: 1 matches. */
static void check_pattern(const char *pat, const char *p, int want)
{
    size_t n = strlen(p);
    CHECK(ref_rule(pat, (const uint8_t *)p, n) == want, "reference: %s on %s", pat, p);
    for (int sh = 0; sh < SH_N; sh++) {
        built x;
        one_rule(&x, pat, sh, 0);
        rsc_selection s = sel1(&x.p, "x");
        rsc_match m;
        CHECK(path(&s, p, &m) == !want && m.decided == want && (!want || m.line == 5),
              "shape %d: %s on %s: want %s", sh, pat, p, want ? "match" : "no match");
        free(x.b);
        if (pat[0] != '/' || p[0] != '/')
            continue;
        char pat2[256], u[256];
        snprintf(pat2, sizeof pat2, "/;%s", pat + 1);
        snprintf(u, sizeof u, "http://h;%s", p + 1);
        one_rule(&x, pat2, sh, 0);
        s = sel1(&x.p, "x");
        CHECK(url(&s, u) == !want, "shape %d: %s on url %s", sh, pat2, u);
        free(x.b);
    }
}

/* Rules without '*': Accept (prefix) and End ('$'). */
static void test_literals(void)
{
    static const char *pats[] = {"/abc", "/abc$", "/a", "/$x", "/aa$", "/x/y/zz", "/;a",
                                 "/;ab$", "/", "/$", "$", "/a$b", "/%41"};
    static const char *paths[] = {"/", "/a", "/ab", "/abc", "/abcd", "/abd", "/aa", "/aab",
                                  "/$x", "/$xy", "/x/y/zz", "/x/y/z", "/x/y/zzz", "/A", "",
                                  "/;", "/;a", "/;ab", "/;abc", "/a$b", "/a$", "/%41", "/A"};
    for (size_t i = 0; i < sizeof pats / sizeof *pats; i++)
        for (size_t j = 0; j < sizeof paths / sizeof *paths; j++)
            check_pattern(pats[i], paths[j],
                          ref_rule(pats[i], (const uint8_t *)paths[j], strlen(paths[j])));
    /* The reference itself, on the cases that define Accept and End. */
    CHECK(ref_rule("/abc", (const uint8_t *)"/abcd", 5) && !ref_rule("/abc$", (const uint8_t *)"/abcd", 5) &&
              ref_rule("/abc$", (const uint8_t *)"/abc", 4) && !ref_rule("/abc", (const uint8_t *)"/ab", 3) &&
              ref_rule("$", (const uint8_t *)"", 0) && !ref_rule("$", (const uint8_t *)"/", 1),
          "reference on literals");
}

/* Wildcard tails: each case with its expected result written out (and the
 * reference agreeing). */
static void test_globs(void)
{
    static const struct {
        const char *pat, *path;
        int want;
    } cases[] = {
        /* the leftmost search is exact */
        {"/*a*ab", "/aab", 1},
        {"/*a*ab", "/ab", 0},
        {"/*a*ab$", "/aab", 1},
        {"/*a*ab$", "/aabx", 0},
        {"/*a*ab$", "/xaab", 1},
        {"/*a*ab$", "/ab", 0},
        {"/*aa*aa$", "/aaaa", 1},
        {"/*aa*aa$", "/aaa", 0},
        {"/*aa*aa", "/aaa", 0},
        {"/*aa*aa", "/aaaaa", 1},
        {"/*ab*ab*ab", "/ababab", 1},
        {"/*ab*ab*ab", "/abab", 0},
        {"/*ab*ab*ab", "/abababx", 1},
        {"/*ab*ab*ab", "/xabxabyab", 1},
        /* several segments, in order */
        {"/a*b*c", "/abc", 1},
        {"/a*b*c", "/acb", 0},
        {"/a*b*c", "/a/b/c/d", 1},
        {"/a*b*c", "/ab", 0},
        {"/a*b*c", "/xabc", 0},
        {"/*x*y*z$", "/zyxyz", 1},
        {"/*x*y*z$", "/zyxzy", 0},
        {"/a*a*a$", "/aaa", 1},
        {"/a*a*a$", "/aa", 0},
        {"/a*a*a$", "/aaaa", 1},
        /* the anchored last segment: at the very end, after the others */
        {"/*.php$", "/x.php", 1},
        {"/*.php$", "/x.php?q", 0},
        {"/*.php$", "/.php", 1},
        {"/*.php$", "/php", 0},
        {"/*.php$", "/a.php.php", 1},
        {"/*.php$", "/a.php.phpx", 0},
        {"/*.php", "/x.php?q", 1},
        {"/ab*ab$", "/abab", 1},
        {"/ab*ab$", "/ab", 0},
        {"/ab*ab$", "/abxab", 1},
        {"/ab*ab$", "/abaab", 1},
        {"/ab*b$", "/ab", 0},
        {"/ab*b$", "/abb", 1},
        {"/fish*.php", "/fishheads/catfish.php?parameters", 1},
        {"/fish*.php", "/Fish.PHP", 0},
        /* stars only after S0: Accept; a '$' after a final '*' is moot */
        {"/a*$", "/a", 1},
        {"/a*$", "/abc", 1},
        {"/a*$", "/", 0},
        {"/a**", "/a", 1},
        {"*", "", 1},
        {"*", "/x", 1},
        {"*$", "", 1},
        {"/*", "/", 1},
        {"/*", "", 0},
        {"/a*b*$", "/ab", 1},
        {"/a*b*$", "/axbx", 1},
        {"/a*b*$", "/ax", 0},
        {"/a**b", "/ab", 1},
        {"/a**b", "/axxb", 1},
        {"/a**b", "/a", 0},
        /* a glob at the root, and paths that do not start with '/' */
        {"*a", "/xa", 1},
        {"*a", "/x", 0},
        {"*a", "a", 1},
        {"*a$", "/ab", 0},
        {"*a$", "/ba", 1},
        /* '$' only anchors at the end; '?' and ';' are bytes */
        {"/a$b", "/a$b", 1},
        {"/a$b", "/a", 0},
        {"/a*$b", "/axx$b", 1},
        {"/*?", "/a?b", 1},
        {"/*?", "/ab", 0},
        {"/p*;q*$", "/p/x;q", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        check_pattern(cases[i].pat, cases[i].path, cases[i].want);
}

/* Long segments in the automaton: periodic ones (small periods, runs, a
 * break at the end: long failure chains), non-periodic ones, decreasing
 * ones, in the middle of a tail and as the anchored last segment; paths made from each pattern with fillers, near
 * misses and single-byte changes, each checked against the reference. */
static uint64_t tw_rng = 0x9E3779B97F4A7C15u;
static uint32_t tw_rnd(void)
{
    tw_rng ^= tw_rng << 13, tw_rng ^= tw_rng >> 7, tw_rng ^= tw_rng << 17;
    return (uint32_t)(tw_rng >> 11);
}

static void test_long_segments(void)
{
    static const char *const pats[] = {
        "/x*abababababababababc",
        "/x*abababababababababc$",
        "/*aaaaaaaaaaaaaaaaaaaab*z",
        "/*the-quick-brown-fox*jumps$",
        "/*the-quick-brown-fox-jumps-over",
        "/*abcabcabcabcabcabcabd",
        "/*zyxwvutsrqponmlkjihgfedcba",
        "/*abaabaabaabaabaabaab*b",
        "*bbbbbbbbbbbbbbbbbbbba",
        "/q*aabaabaaabaabaabaaab$",
        "/*ab*abababababababababababababab*ab",
        "/*0123456789abcdefg",
        "/*0123456789abcdef",
        "/*0123456789abcdefgh*0123456789abcdefgh",
    };
    char path[400];
    tw_rng = 0x9E3779B97F4A7C15u; /* the same paths in every labels mode */
    for (size_t i = 0; i < sizeof pats / sizeof *pats; i++) {
        const char *pat = pats[i];
        char alpha[64];
        size_t na = 0, pl = strlen(pat);
        for (size_t k = 0; k < pl; k++)
            if (pat[k] != '*' && pat[k] != '$' && pat[k] != '/' && !memchr(alpha, pat[k], na))
                alpha[na++] = pat[k];
        alpha[na++] = 'x';
        int matched = 0, total = 0;
        for (int it = 0; it < 24; it++) {
            size_t n = 0;
            for (size_t k = 0; k < pl && n < 300; k++) {
                if (pat[k] == '$' && k + 1 == pl)
                    break;
                if (pat[k] != '*') {
                    path[n++] = pat[k];
                    continue;
                }
                /* a filler: near misses made of the pattern's own bytes */
                size_t fl = tw_rnd() % 40;
                if (it % 4 == 1) /* a long prefix of the next segment, repeated */
                    for (size_t r = 0; r < 3 && n < 300; r++)
                        for (size_t j = k + 1; j + 1 < pl && pat[j + 1] != '*' && n < 300; j++)
                            path[n++] = pat[j];
                for (size_t j = 0; j < fl && n < 300; j++)
                    path[n++] = alpha[tw_rnd() % na];
            }
            if (it % 3 == 2 && n > 2) /* one byte changed */
                path[1 + tw_rnd() % (n - 1)] = alpha[tw_rnd() % na];
            if (it % 5 == 4) /* bytes after the match */
                for (int j = 0; j < 5; j++)
                    path[n++] = alpha[tw_rnd() % na];
            path[n] = 0;
            int want = ref_rule(pat, (const uint8_t *)path, n);
            check_pattern(pat, path, want);
            matched += want, total++;
        }
        CHECK(matched > 0 && matched < total, "long segments %s: %d of %d paths match", pat, matched,
              total);
    }
    /* Exact cases, written out. */
    static const struct {
        const char *pat, *path;
        int want;
    } cases[] = {
        {"/x*abababababababababc", "/xababababababababababababababababababc", 1},
        {"/x*abababababababababc", "/xabababababababababababababababababab", 0},
        {"/x*abababababababababc", "/xabababababababababcabababababababababc", 1},
        {"/x*abababababababababc$", "/xabababababababababcabababababababababc", 1},
        {"/x*abababababababababc$", "/xabababababababababcababababababababab", 0},
        {"/x*abababababababababc", "/xababababababababacabababababababababc", 1},
        {"/*aaaaaaaaaaaaaaaaaaaab*z", "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabz", 1},
        {"/*aaaaaaaaaaaaaaaaaaaab*z", "/aaaaaaaaaaaaaaaaaaaaz", 0},
        {"/*aaaaaaaaaaaaaaaaaaaab*z", "/aaaaaaaaaaaaaaaaaaaab", 0},
        {"/*the-quick-brown-fox*jumps$", "/a-the-quick-brown-fo-the-quick-brown-fox-jumps", 1},
        {"/*the-quick-brown-fox*jumps$", "/the-quick-brown-fo-jumps", 0},
        {"/*zyxwvutsrqponmlkjihgfedcba", "/zyxwvutsrqponmlkjihgfedcbzyxwvutsrqponmlkjihgfedcba", 1},
        {"/*zyxwvutsrqponmlkjihgfedcba", "/zyxwvutsrqponmlkjihgfedcb", 0},
        {"/*abcabcabcabcabcabcabd", "/abcabcabcabcabcabcabcabcabcabcabd", 1},
        {"/*abcabcabcabcabcabcabd", "/abcabcabcabcabcabcabcabcabcabcabc", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        check_pattern(cases[i].pat, cases[i].path, cases[i].want);
    /* Random long segments over {a, b}: three rules in one program. */
    static char rp[3][96];
    long compared = 0;
    for (int it = 0; it < 200; it++) {
        tp_prog tp;
        tp_rule r[3];
        for (int k = 0; k < 3; k++) {
            size_t n = 0, segs = 1 + tw_rnd() % 2;
            rp[k][n++] = '/';
            for (size_t sgi = 0; sgi < segs; sgi++) {
                rp[k][n++] = '*';
                size_t len = 17 + tw_rnd() % 24;
                for (size_t j = 0; j < len; j++)
                    rp[k][n++] = "ab"[tw_rnd() % 4 == 0];
            }
            if (tw_rnd() % 3 == 0)
                rp[k][n++] = '$';
            rp[k][n] = 0;
            r[k] = (tp_rule){(uint32_t)k + 2, k == 1, rp[k]};
        }
        tp_one(&tp, 3, r);
        tp.rfc = it % 5 == 4;
        shape(&tp, it % SH_N);
        built x;
        build(&x, &tp);
        rsc_selection s = sel1(&x.p, "x");
        uint32_t set0 = 0;
        for (int k = 0; k < 20; k++) {
            size_t n = 0;
            path[n++] = '/';
            size_t len = tw_rnd() % 200;
            while (n < len) {
                if (tw_rnd() % 8 == 0) { /* plant a (maybe damaged) segment */
                    const char *src = rp[tw_rnd() % 3];
                    const char *st = strchr(src, '*') + 1;
                    for (; *st && *st != '*' && *st != '$' && n < 390; st++)
                        path[n++] = *st;
                    if (tw_rnd() % 2)
                        path[n - 1 - tw_rnd() % 3] ^= 3; /* 'a' <-> 'b' */
                } else {
                    path[n++] = "ab"[tw_rnd() % 3 == 0];
                }
            }
            path[n] = 0;
            rsc_match m;
            int got = rsc_match_path(&s, path, n, &m);
            check_ref("long segments random", &tp, x.rank, &set0, 1, (const uint8_t *)path, n, got, &m,
                      0);
            compared++;
        }
        free(x.b);
        if (tu_failures > 20)
            break;
    }
    printf("long segments: %ld random verdicts compared\n", compared);
}

/* ---- hand programs: ranks, pruning, levels of root slots -------------- */

/* A blob around one hand program: n_rules rules, rank r with the match text
 * texts[r-1] (NULL: "p"; the lengths must not decrease: rank order is
 * length order first) and line 1000 - r, all disallow; the trie is the one
 * program, the global set (no SETS: set 0 is program 0). */
static uint8_t *trie_blob(tt *t, const char *const *texts, uint32_t n_rules, size_t *n)
{
    bb str = {0}, rules = {0}, progs = {0}, agents = {0};
    uint32_t v[3 * 300], off[300];
    const char *mt[300];
    size_t prev = 0;
    for (uint32_t r = 0; r < n_rules; r++) {
        const char *x = texts && texts[r] ? texts[r] : "p";
        mt[r] = x;
        if (strlen(x) < prev) {
            fprintf(stderr, "trie_blob: rank %u shorter than rank %u\n", r + 1, r);
            exit(1);
        }
        prev = strlen(x);
        v[3 * r] = (1000 - r - 1) << 1, v[3 * r + 1] = off[r] = (uint32_t)str.n,
        v[3 * r + 2] = (uint32_t)prev;
        bb_str(&str, x);
    }
    tb_table(&rules, n_rules, 3, v, NULL);
    bb data = {0};
    tt_texts(t, mt, n_rules);
    tt_strings(t, off, n_rules);
    tt_labels(t, g_labels);
    tt_encode(t, &data);
    v[0] = (uint32_t)data.n;
    tb_table(&progs, 1, 1, v, NULL);
    bb_raw(&progs, data.d, data.n);
    bb_varint(&agents, 1);
    tb_table(&agents, 0, 3, v, NULL);
    tb_sec s[] = {TB_SEC(1, &str), TB_SEC(2, &rules), TB_SEC(3, &progs), TB_SEC(5, &agents)};
    uint8_t *b = tb_blob(0, s, 4, n);
    bb_free(&str), bb_free(&rules), bb_free(&progs), bb_free(&agents);
    bb_free(&data);
    return b;
}

/* The rank that decided (trie_blob's rules: line 1000 - rank), 0 for none. */
static uint32_t rank_of_match(int allowed, const rsc_match *m)
{
    if (!m->decided)
        return allowed ? 0 : 9999;
    return !allowed && m->line < 1000 && m->line >= 700 ? 1000 - m->line : 9999;
}

static uint32_t rank_for(const rsc_selection *s, const char *p, size_t n)
{
    rsc_match m;
    int allowed = rsc_match_path(s, p, n, &m);
    return rank_of_match(allowed, &m);
}

/* The same through a URL whose path starts with ';' (a '/' in front), for
 * tries whose paths start with "/;". */
static uint32_t rank_for_url(const rsc_selection *s, const char *p)
{
    char u[300];
    snprintf(u, sizeof u, "http://h%s", p + 1);
    rsc_match m;
    int allowed = rsc_match_url(s, u, strlen(u), &m);
    return rank_of_match(allowed, &m);
}

/* A URL as given. */
static uint32_t rank_for_url_raw(const rsc_selection *s, const char *u, size_t n)
{
    rsc_match m;
    int allowed = rsc_match_url(s, u, n, &m);
    return rank_of_match(allowed, &m);
}

#define RANK(s, p) rank_for((s), (p), strlen(p))

static void test_ranks(void)
{
    /* root: globs 5 "*zz", 3 "*b", Accept 2 ("*": a tail of stars only
     * is an Accept); "/a": Accept 4; "/ac": End 6, glob 7 "*q" anchored;
     * "/ad": Accept 1 (lower than the Accept above it: never decides, but
     * valid). The match texts pad the tails with '*'s (same meaning) so
     * that lengths follow ranks. Variants: 0 path,
     * inline label; 1 URL (paths "/;..."), label by Rep; 2 path, Rep; 3
     * URL, inline. */
    static const char *const tx[2][8] = {
        {"/ad", "***", "*b*", "/a*", "*zz", "/ac$", "/ac*q$", "/ac*q$"},
        {"/;ad", "****", "*b**", "/;a*", "*zz*", "/;ac$", "/;ac*q$", "/;ac*q$"}};
    for (int variant = 0; variant < 4; variant++) {
        int semi = variant % 2, ref = variant == 1 || variant == 2;
        tt *t = tt_new();
        const char *pre = semi ? ";" : ""; /* "/;..." paths for URLs */
        tt_glob(t, 0, 5);
        tt_glob(t, 0, 3);
        tt_accept(t, 0, 2);
        int a = ref ? tt_child_ref(t, 0, '/', 4, semi ? 2 : 1)
                    : tt_child(t, 0, '/', semi ? ";a" : "a", semi ? 2 : 1);
        tt_accept(t, a, 4);
        int ac = tt_child(t, a, 'c', "", 0);
        tt_end(t, ac, 6);
        tt_glob(t, ac, 7);
        int ad = tt_child(t, a, 'd', "", 0);
        tt_accept(t, ad, 1);
        size_t n;
        uint8_t *b = trie_blob(t, tx[semi], 8, &n);
        rsc_program p = load_or_die(b, n);
        rsc_selection s = sel1(&p, "x");
        static const struct {
            const char *path;
            uint32_t want;
        } cases[] = {
            {"/b", 3},    /* "*zz" fails, "*b" matches */
            {"/zz", 5},   /* the best entry */
            {"/bzz", 5},  /* both match: the best */
            {"/x", 2},    /* only "*" */
            {"/a", 4},    /* Accept 4 prunes 3 and 2 */
            {"/ab", 4},   /* "*b" would match, but 3 <= 4 */
            {"/azz", 5},  /* a glob above the Accept still wins */
            {"/ac", 6},   /* End where the path ends */
            {"/acd", 4},  /* End only at the end */
            {"/acq", 7},  /* anchored tail */
            {"/acqx", 4}, /* anchored tail not at the end */
            {"/acxq", 7},
            {"/ad", 4},   /* the lower Accept below does not lower best */
            {"/adzz", 5},
        };
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            char q[32];
            snprintf(q, sizeof q, "/%s%s", pre, cases[i].path + 1);
            uint32_t got = semi ? rank_for_url(&s, q) : RANK(&s, q);
            CHECK(got == cases[i].want, "ranks %d: %s: got %u want %u", variant, q, got,
                  cases[i].want);
        }
        if (!semi) {
            CHECK(RANK(&s, "") == 2, "empty path: the root's Accept");
            CHECK(RANK(&s, "z") == 2 && RANK(&s, "zb") == 3, "no child: root globs only");
            CHECK(RANK(&s, "zz") == 5, "root glob without '/'");
            /* The path ends at NUL (paths) and at '#' (URLs): End and the
             * anchored tail see the end there; later bytes match nothing. */
            CHECK(rank_for(&s, "/ac\0q", 5) == 6 && rank_for(&s, "/acq\0x", 6) == 7 &&
                      rank_for(&s, "/a\0zz", 5) == 4 && rank_for(&s, "\0zz", 3) == 2,
                  "ranks %d: NUL", variant);
            CHECK(rank_for_url_raw(&s, "http://h/ac#q", 13) == 6 &&
                      rank_for_url_raw(&s, "http://h/acq#x", 14) == 7 &&
                      rank_for_url_raw(&s, "http://h/acxq#zz", 16) == 7 &&
                      rank_for_url_raw(&s, "http://h/a#zz", 13) == 4 &&
                      rank_for_url_raw(&s, "http://h/a#c", 12) == 4 &&
                      rank_for_url_raw(&s, "http://h#zz", 11) == 2 &&
                      rank_for_url_raw(&s, "http://h/ac#", 12) == 6,
                  "ranks %d: '#'", variant);
        } else {
            CHECK(rank_for_url_raw(&s, "http://h;ac#q", 13) == 6 &&
                      rank_for_url_raw(&s, "http://h;acq#x", 14) == 7 &&
                      rank_for_url_raw(&s, "http://h;a#zz", 13) == 4 &&
                      rank_for_url_raw(&s, "http://h;#zz", 12) == 2 &&
                      rank_for_url_raw(&s, "http://h;ac\0q", 13) == 6,
                  "ranks %d: '#' and NUL after a '/' put in front", variant);
        }
        free(b);
        tt_free(t);
    }
}

/* A chain of 16 nodes "/abcdefghijklmn", each a root slot: levels 0 to
 * 15 (RSC_MAX_LEVELS), the walk passing them all, the segment pass
 * starting at the shallowest one that can still decide and each edge's
 * parent reached where its node is. Node i's rule has rank i + 1 and the
 * match text chain[0..i) + "*#" + ('A' + i) (+ '$' when i % 3 == 0,
 * i > 0). */
static void test_levels(void)
{
    static const char chain[] = "/abcdefghijklmn";
    static char texts[20][24];
    const char *tp[20];
    for (int i = 0; i < 20; i++) {
        if (i <= 15)
            snprintf(texts[i], sizeof texts[i], "%.*s*#%c%s", i, chain, 'A' + i,
                     i && i % 3 == 0 ? "$" : "");
        else
            snprintf(texts[i], sizeof texts[i], "ppppppppppppppppppppp");
        tp[i] = texts[i];
    }
    for (int deep_accept = 0; deep_accept < 2; deep_accept++) {
        tt *t = tt_new();
        int node = 0;
        tt_glob(t, 0, 1);
        for (int i = 1; i <= 15; i++) {
            node = tt_child(t, node, (uint8_t)chain[i - 1], "", 0);
            tt_glob(t, node, (uint32_t)i + 1);
            if (deep_accept && i == 11)
                tt_accept(t, node, 12); /* outranks every rule of rank <= 12 */
        }
        size_t n;
        uint8_t *b = trie_blob(t, tp, 20, &n);
        rsc_program p = load_or_die(b, n);
        rsc_selection s = sel1(&p, "x");
        {
            /* the builder's ROOTS: slot i at level i */
            tt_wild w;
            tt_texts(t, tp, 20);
            tt_wild_build(t, &w);
            int ok = w.n[TT_ROOTS] == 16 && w.shape == TT_SHAPE(0, g_labels != 0, 0);
            for (uint32_t i = 0; ok && i < 16; i++)
                ok = w.rows[TT_ROOTS][2 * i] == i && w.rows[TT_ROOTS][2 * i + 1] == i + 1;
            CHECK(ok, "levels %d: ROOTS rows (level i, Max i + 1)", deep_accept);
            tt_wild_free(&w);
        }
        for (int i = 0; i <= 15; i++) {
            char q[64];
            snprintf(q, sizeof q, "%s#%c", chain, 'A' + i);
            uint32_t want = (uint32_t)i + 1;
            if (deep_accept && want < 12)
                want = 12;
            CHECK(RANK(&s, q) == want, "levels %d: %s: got %u want %u", deep_accept, q,
                  RANK(&s, q), want);
            /* Cut the walk at depth i: only the lists of nodes 0..i apply. */
            snprintf(q, sizeof q, "%.*s#%c", i, chain, 'A' + i);
            want = (uint32_t)i + 1;
            if (deep_accept && i >= 11)
                want = want < 12 ? 12 : want;
            CHECK(RANK(&s, q) == want, "levels cut %d: %s: got %u want %u", deep_accept, q,
                  RANK(&s, q), want);
            snprintf(q, sizeof q, "%.*s#%c", i, chain, 'A' + i + 1);
            want = deep_accept && i >= 11 ? 12 : 0;
            CHECK(RANK(&s, q) == want, "levels not reached %d: %s", deep_accept, q);
        }
        /* Two matches, one of a shallow slot and one of a deep one: the
         * maximum. */
        CHECK(RANK(&s, "/abcdefghijkl#A#N") == 14 && RANK(&s, "/abcdefghijkl#N#A") == 14 &&
                  RANK(&s, "/abcdefghijkl#B#K") == (deep_accept ? 12u : 11u),
              "levels: max of two");
        /* Anchored tails (nodes 3, 6, 9, 12): only at the end. */
        CHECK(RANK(&s, "/abcdefghijkl#Dx") == (deep_accept ? 12u : 0u) &&
                  RANK(&s, "/abcdefghijkl#Ex") == (deep_accept ? 12u : 5u) &&
                  RANK(&s, "/abcdefghijkl#Mx") == (deep_accept ? 12u : 0u) &&
                  RANK(&s, "/abcdefghijkl#Nx") == 14,
              "levels: anchored");
        /* The path's end: a NUL (paths) or a URL's '#' hides every "#X"
         * after it. */
        uint32_t none = deep_accept ? 12u : 0u;
        CHECK(rank_for(&s, "/abcdefghijkl\0#N", 16) == none &&
                  rank_for(&s, "/abcdefghijkl\0#A", 16) == none &&
                  rank_for(&s, "/abcdefghijkl#N\0#A", 18) == 14 &&
                  rank_for(&s, "/abcdefghijkl#D\0x", 17) == (deep_accept ? 12u : 4u),
              "levels %d: NUL ends the path", deep_accept);
        CHECK(rank_for_url_raw(&s, "http://h/abcdefghijkl#N", 23) == none &&
                  rank_for_url_raw(&s, "http://h/abcdefghijkl#A", 23) == none &&
                  rank_for_url_raw(&s, "http://h/abcdefghijkl#D", 23) == none &&
                  rank_for_url_raw(&s, "http://h/abcdefghijkl?#N", 24) == none &&
                  rank_for_url_raw(&s, "http://h/abc#N", 14) == 0,
              "levels %d: '#' ends the URL's path", deep_accept);
        free(b);
        tt_free(t);
    }
}

/* Offsets of every width (1..4 bytes; for the 3 Offsets of 4 children,
 * none for child 0), labels inline and by Rep (leaves written with a
 * Head) or leaves of one rank (their labels in their rank's text), 256
 * children, and a longest chain (RSC_MAX_DEPTH nodes). */
static void test_trie_shapes(void)
{
    static const char *const tx[] = {"/axy", "/bxy", "/cxy", "/zxy"};
    static const char *const how[] = {"inline", "Ref", "one-rank leaf"};
    for (unsigned w = 1; w <= 12; w++) {
        int mode = (int)(w - 1) / 4; /* 0 inline, 1 Ref, 2 leaves of one rank */
        tt *t = tt_new();
        tt_leaf_kinds(t, mode == 2 ? TT_LEAF_ALWAYS : TT_LEAF_NEVER);
        int a = tt_child(t, 0, '/', "", 0);
        tt_width(t, 0, (w - 1) % 4 + 1); /* one child: no Offsets, Width stays 0 */
        tt_width(t, a, (w - 1) % 4 + 1);
        static const char keys[] = "abcz";
        for (int k = 0; k < 4; k++) {
            int c = mode == 1 ? tt_child_ref(t, a, (uint8_t)keys[k], (uint32_t)k + 1, 2)
                              : tt_child(t, a, (uint8_t)keys[k], "xy", 2);
            tt_accept(t, c, (uint32_t)k + 1);
        }
        size_t n;
        uint8_t *b = trie_blob(t, tx, 4, &n);
        rsc_program p = load_or_die(b, n);
        rsc_selection s = sel1(&p, "x");
        /* the trie as written: the kind of every child of "/", and the
         * Offsets' width of "/" (its Head's Width + 1) */
        tt_pos pa = tt_where(t, a);
        int kinds_ok = pa.head != SIZE_MAX && pa.offsets != SIZE_MAX &&
                       pa.c == pa.offsets + 3 * ((w - 1) % 4 + 1);
        for (int k = 1; k <= 4; k++)
            kinds_ok &= tt_where(t, a + k).kind == (mode == 2 ? (unsigned)RSC_LEAF_ACCEPT : (unsigned)mode);
        CHECK(kinds_ok, "Offsets width %u, %s labels: the trie's layout", (w - 1) % 4 + 1, how[mode]);
        CHECK(RANK(&s, "/axy") == 1 && RANK(&s, "/bxy") == 2 && RANK(&s, "/cxyz") == 3 &&
                  RANK(&s, "/zxy") == 4 && RANK(&s, "/zx") == 0 && RANK(&s, "/d") == 0 &&
                  RANK(&s, "/") == 0 && RANK(&s, "/axz") == 0,
              "Offsets width %u, %s labels", (w - 1) % 4 + 1, how[mode]);
        CHECK(rank_for_url(&s, "/;") == 0 && rank_for_url_raw(&s, "http://h/axy#", 13) == 1 &&
                  rank_for_url_raw(&s, "http://h/ax#y", 13) == 0,
              "Offsets width %u: URLs", w);
        free(b);
        tt_free(t);
    }
    /* 256 children, keys 0..255, child k: Accept k + 1. (Keys 0 and '#'
     * come from no pattern: spec A.5 and G.4 end a pattern there.) */
    tt *t = tt_new();
    for (int k = 0; k < 256; k++) {
        int c = tt_child(t, 0, (uint8_t)k, "", 0);
        tt_accept(t, c, (uint32_t)k + 1);
    }
    size_t n;
    uint8_t *b = trie_blob(t, NULL, 256, &n);
    rsc_program p = load_or_die(b, n);
    rsc_selection s = sel1(&p, "x");
    int bad = 0;
    for (int k = 1; k < 256; k++) {
        char q[3] = {(char)k, 'x', 0};
        bad += rank_for(&s, q, 2) != (uint32_t)k + 1;
    }
    CHECK(bad == 0 && RANK(&s, "") == 0, "256 children: %d wrong", bad);
    free(b);
    tt_free(t);
    /* A chain of RSC_MAX_DEPTH nodes (the most FORMAT.md allows): root,
     * then RSC_MAX_DEPTH - 1 nodes of key 'a'; the last has Accept 1, the
     * 500th End 2. */
    t = tt_new();
    int node = 0;
    for (int i = 1; i < (int)RSC_MAX_DEPTH; i++) {
        node = tt_child(t, node, 'a', "", 0);
        if (i == 500)
            tt_end(t, node, 2);
    }
    tt_accept(t, node, 1);
    static const char *const tc[] = {"p", "pp"};
    b = trie_blob(t, tc, 2, &n);
    p = load_or_die(b, n);
    s = sel1(&p, "x");
    char *q = malloc(5000);
    memset(q, 'a', 5000);
    CHECK(rank_for(&s, q, RSC_MAX_DEPTH - 1) == 1 && rank_for(&s, q, 4999) == 1 &&
              rank_for(&s, q, RSC_MAX_DEPTH - 2) == 0 && rank_for(&s, q, 500) == 2 &&
              rank_for(&s, q, 501) == 0,
          "longest chain");
    q[500] = 0;
    CHECK(rank_for(&s, q, 4999) == 2, "longest chain: NUL after 500");
    q[500] = '#';
    CHECK(rank_for(&s, q, 4999) == 0, "longest chain: '#' is a byte in a path");
    free(q);
    free(b);
    tt_free(t);
}

/* ---- the automaton, internal nodes, many edges, chains ----------------- */

/* The best rank among rules 1..n (match texts texts[r-1]) that match
 * s[0..n) by spec E, counting only those marked in use[] (NULL: all). */
static uint32_t ref_texts(const char *const *texts, uint32_t nr, const int *use,
                          const uint8_t *s, size_t n)
{
    uint32_t best = 0;
    for (uint32_t r = 1; r <= nr; r++)
        if ((!use || use[r - 1]) && ref_rule(texts[r - 1], s, n))
            best = r;
    return best;
}

/* Random paths: prefix, then up to maxlen tokens of alpha ('|' between
 * tokens, so that whole segments can be planted), each compared with the
 * reference: the rank that decided (trie_blob's rules) against
 * ref_texts. The sample must see at least two different answers. */
static void compare_random(const char *what, const rsc_selection *s, const char *const *texts,
                           uint32_t nr, const int *use, const char *prefix, const char *alpha,
                           size_t maxlen, int count, uint64_t *seed)
{
    char q[2000];
    const char *tok[512];
    size_t tl[512], nt = 0, pl = strlen(prefix);
    for (const char *c = alpha;;) {
        const char *e = strchr(c, '|');
        size_t l = e ? (size_t)(e - c) : strlen(c);
        if (strchr(alpha, '|') || l <= 1) {
            if (nt < 512)
                tok[nt] = c, tl[nt++] = l;
        } else { /* no '|': every byte a token */
            for (size_t k = 0; k < l && nt < 512; k++)
                tok[nt] = c + k, tl[nt++] = 1;
        }
        if (!e)
            break;
        c = e + 1;
    }
    int bad = 0;
    uint64_t seen = 0;
    for (int it = 0; it < count; it++) {
        *seed ^= *seed << 13, *seed ^= *seed >> 7, *seed ^= *seed << 17;
        size_t ntok = (size_t)(*seed % (maxlen + 1)), n = pl;
        memcpy(q, prefix, pl);
        for (size_t i = 0; i < ntok; i++) {
            *seed ^= *seed << 13, *seed ^= *seed >> 7, *seed ^= *seed << 17;
            size_t k = *seed % nt;
            if (n + tl[k] < sizeof q)
                memcpy(q + n, tok[k], tl[k]), n += tl[k];
        }
        q[n] = 0;
        uint32_t want = ref_texts(texts, nr, use, (const uint8_t *)q, n);
        uint32_t got = rank_for(s, q, n);
        seen |= 1ull << (want < 63 ? want : 63);
        if (got != want && bad++ < 5)
            CHECK(0, "%s: '%.80s' (%zu bytes): got rank %u, want %u", what, q, n, got, want);
    }
    CHECK(bad == 0 && (seen & (seen - 1)) != 0,
          "%s: %d of %d random paths wrong (answers seen %llx)", what, bad, count,
          (unsigned long long)seen);
}

/* The builder's automaton against the textbook one (Aho and Corasick
 * 1975, {he, she, his, hers}): OUTS by length with Next to the longest
 * suffix segment, STATES breadth first with their failure links and
 * outputs; then matching through it, and output chains of segments that
 * are suffixes of one another. */
static void test_automaton(void)
{
    static const char *const tx[] = {"*he", "*his", "*she", "*hers"};
    tt *t = tt_new();
    for (uint32_t r = 1; r <= 4; r++)
        tt_glob(t, 0, r);
    tt_texts(t, tx, 4);
    tt_wild w;
    tt_wild_build(t, &w);
    static const uint32_t roots[] = {0, 4};
    static const uint32_t outs[] = {/* Len, Next, Max, Edge, N_Float, N_Anch */
                                    2, 0, 1, 0, 1, 0,  /* he */
                                    3, 0, 2, 1, 1, 0,  /* his */
                                    3, 1, 3, 2, 1, 0,  /* she -> he */
                                    4, 0, 4, 3, 1, 0}; /* hers */
    static const uint32_t states[] = {/* Key, First, N, Fail, Out */
                                      0,   1, 2, 0, 0,  /* ""     */
                                      'h', 3, 2, 0, 0,  /* h      */
                                      's', 5, 1, 0, 0,  /* s      */
                                      'e', 6, 1, 0, 1,  /* he     */
                                      'i', 7, 1, 0, 0,  /* hi     */
                                      'h', 8, 1, 1, 0,  /* sh -> h */
                                      'r', 9, 1, 0, 0,  /* her    */
                                      's', 0, 0, 2, 2,  /* his -> s */
                                      'e', 0, 0, 3, 3,  /* she -> he */
                                      's', 0, 0, 2, 4}; /* hers -> s */
    static const uint32_t edges[] = {0, 1, 0, 1, 0, 2, 0, 2, 0, 3, 0, 3, 0, 4, 0, 4};
    CHECK(w.shape == 0 && w.n[TT_ROOTS] == 1 && w.n[TT_OUTS] == 4 && w.n[TT_STATES] == 10 &&
              w.n[TT_EDGES] == 4 && memcmp(w.rows[TT_ROOTS], roots, sizeof roots) == 0 &&
              memcmp(w.rows[TT_OUTS], outs, sizeof outs) == 0 &&
              memcmp(w.rows[TT_STATES], states, sizeof states) == 0 &&
              memcmp(w.rows[TT_EDGES], edges, sizeof edges) == 0,
          "automaton of {he, his, she, hers}: the textbook tables");
    tt_wild_free(&w);
    size_t n;
    uint8_t *b = trie_blob(t, tx, 4, &n);
    rsc_program p = load_or_die(b, n);
    rsc_selection s = sel1(&p, "x");
    CHECK(RANK(&s, "ushers") == 4 && RANK(&s, "ushe") == 3 && RANK(&s, "this") == 2 &&
              RANK(&s, "sher") == 3 && RANK(&s, "xhe") == 1 && RANK(&s, "sh") == 0 &&
              RANK(&s, "hi") == 0 && RANK(&s, "hhhhhhhis") == 2 && RANK(&s, "shhe") == 1 &&
              RANK(&s, "/she/hers") == 4 && RANK(&s, "hishe") == 3,
          "{he, his, she, hers}: failure links and outputs");
    uint64_t seed = 0x1234567u;
    compare_random("he she his hers", &s, tx, 4, NULL, "", "hersi", 12, 3000, &seed);
    free(b);
    tt_free(t);

    /* Output chains: segments "a" .. a^16, each a suffix of the next (16
     * rows on one chain, RSC_MAX_CHAIN), with ranks in either order; and
     * "b" + a^k, whose chains end in the a^j. Texts padded with '*' so
     * that lengths follow ranks. */
    for (int order = 0; order < 2; order++) {
        static char txt[32][40];
        const char *tp[32];
        t = tt_new();
        for (int k = 1; k <= 16; k++) {
            int r = order ? 17 - k : k; /* rank of "*a^k" */
            snprintf(txt[r - 1], sizeof txt[r - 1], "*%.*s%.*s", k, "aaaaaaaaaaaaaaaa",
                     order ? r - 1 : 0, "****************");
        }
        for (int k = 1; k <= 8; k++) /* ranks 17..24: "*ba^k" */
            snprintf(txt[16 + k - 1], sizeof txt[0], "*b%.*s%s", k, "aaaaaaaaaaaaaaaa",
                     "*****************" + k);
        for (int r = 0; r < 24; r++)
            tp[r] = txt[r], tt_glob(t, 0, (uint32_t)r + 1);
        tt_texts(t, tp, 24);
        tt_wild_build(t, &w);
        /* from a^16 through Next: a^15 .. a: 16 rows; "ba^k" -> a^k */
        int chain16 = w.n[TT_OUTS] == 24 && w.n[TT_EDGES] == 24, len = 0;
        for (size_t r = 0; chain16 && r < 24; r++) {
            const uint32_t *o = w.rows[TT_OUTS] + r * 6;
            if (o[0] == 16)
                for (uint32_t at = (uint32_t)r + 1, want = 16; at; at = w.rows[TT_OUTS][(at - 1) * 6 + 1])
                    chain16 &= w.rows[TT_OUTS][(at - 1) * 6] == want--, len++;
        }
        for (int k = 1; chain16 && k <= 8; k++) { /* the row of "ba^k" */
            for (size_t r = 0; r < 24; r++) {
                const uint32_t *o = w.rows[TT_OUTS] + r * 6;
                uint32_t e = o[3];
                if (o[0] == (uint32_t)k + 1 && w.rows[TT_EDGES][e * 4 + 1] == 16u + (uint32_t)k)
                    chain16 &= o[1] && w.rows[TT_OUTS][(o[1] - 1) * 6] == (uint32_t)k;
            }
        }
        CHECK(chain16 && len == 16, "output chain of 16 rows (%d)", len);
        tt_wild_free(&w);
        b = trie_blob(t, tp, 24, &n);
        p = load_or_die(b, n);
        s = sel1(&p, "x");
        for (int m = 1; m <= 20; m++) {
            char q[32];
            memset(q, 'a', (size_t)m);
            q[m] = 0;
            uint32_t want = ref_texts(tp, 24, NULL, (const uint8_t *)q, (size_t)m);
            CHECK(RANK(&s, q) == want, "output chain %d: a^%d: got %u want %u", order, m,
                  RANK(&s, q), want);
        }
        compare_random(order ? "suffix chain, ranks falling" : "suffix chain, ranks rising", &s,
                       tp, 24, NULL, "", "aab", 24, 3000, &seed);
        free(b);
        tt_free(t);
    }

    /* Random rule sets whose segments over {a, b} are often suffixes or
     * prefixes of one another, some of several segments, some anchored,
     * in one program. */
    static char rp[10][24];
    for (int it = 0; it < 300; it++) {
        tp_prog tp;
        tp_rule r[10];
        size_t nr = 2 + (size_t)(it % 9);
        for (size_t k = 0; k < nr; k++) {
            size_t m = 0, segs = 1 + (seed >> 5) % 3;
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            rp[k][m++] = '/';
            for (size_t g = 0; g < segs; g++) {
                rp[k][m++] = '*';
                seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                size_t len = 1 + seed % 5;
                for (size_t j = 0; j < len; j++) {
                    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                    rp[k][m++] = "aab"[seed % 3];
                }
            }
            if (seed % 4 == 0)
                rp[k][m++] = '$';
            rp[k][m] = 0;
            r[k] = (tp_rule){(uint32_t)k + 2, (int)(k % 2), rp[k]};
        }
        tp_one(&tp, nr, r);
        shape(&tp, it % SH_N);
        built x;
        build(&x, &tp);
        s = sel1(&x.p, "x");
        uint32_t set0 = 0;
        for (int k = 0; k < 30; k++) {
            char q[40];
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            size_t m = 1 + seed % 30;
            q[0] = '/';
            for (size_t j = 1; j < m; j++) {
                seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                q[j] = "aab"[seed % 3];
            }
            q[m] = 0;
            rsc_match mm;
            int got = rsc_match_path(&s, q, m, &mm);
            check_ref("suffix-rich rule sets", &tp, x.rank, &set0, 1, (const uint8_t *)q, m, got,
                      &mm, 0);
        }
        free(x.b);
        if (tu_failures > 20)
            break;
    }
}

/* Internal nodes: rules that share their first segments share edges (and
 * the internal node below them); one rule of 513 segments has 512
 * internal nodes, the most a program holds (RSC_MAX_INTERNAL). */
static void test_internal(void)
{
    static const char *const tx[] = {"/*a*x", "/*a*b$", "/*a*b*c", "/*a*b*d", "/*q*a*b",
                                     "/*a*b*c$"};
    tt *t = tt_new();
    int sl = tt_child(t, 0, '/', "", 0);
    for (uint32_t r = 1; r <= 6; r++)
        tt_glob(t, sl, r);
    tt_texts(t, tx, 6);
    tt_wild w;
    tt_wild_build(t, &w);
    /* internal nodes: "a" (0), "ab" (1), "q" (2), "qa" (3); edges:
     * (slot, a) -> 0, (0, x), (0, b$), (0, b) -> 1, (1, c), (1, d),
     * (slot, q) -> 2, (2, a) -> 3, (3, b), (1, c$) */
    CHECK(w.shape == TT_SHAPE(4, 0, 0) && w.n[TT_EDGES] == 10 && w.n[TT_OUTS] == 6,
          "internal nodes: Shape %u, %zu edges, %zu segments", w.shape, w.n[TT_EDGES],
          w.n[TT_OUTS]);
    int targets = 0;
    for (size_t e = 0; e < w.n[TT_EDGES]; e++)
        targets += w.rows[TT_EDGES][e * 4 + 2] != 0;
    CHECK(targets == 4, "internal nodes: 4 edges lead to one");
    tt_wild_free(&w);
    size_t n;
    uint8_t *b = trie_blob(t, tx, 6, &n);
    rsc_program p = load_or_die(b, n);
    rsc_selection s = sel1(&p, "x");
    CHECK(RANK(&s, "/ax") == 1 && RANK(&s, "/ab") == 2 && RANK(&s, "/abx") == 1 &&
              RANK(&s, "/abc") == 6 && RANK(&s, "/abcd") == 4 && RANK(&s, "/abdc") == 6 &&
              RANK(&s, "/abcx") == 3 && RANK(&s, "/bac") == 0 && RANK(&s, "/qab") == 5 &&
              RANK(&s, "/qba") == 0 && RANK(&s, "/aqab") == 5 && RANK(&s, "/xa") == 0,
          "internal nodes: matches");
    uint64_t seed = 0xABCDEF12u;
    compare_random("internal nodes", &s, tx, 6, NULL, "/", "abcdxq", 10, 4000, &seed);
    free(b);
    tt_free(t);

    /* 513 segments: internal nodes 0..511 on one path, the most a
     * program holds (RSC_MAX_INTERNAL); the segments are the 64 words of
     * three letters over {a,b,c,d}, each used about 8 times, so that no
     * segment has more than RSC_MAX_INNER edges from internal nodes */
    enum { NSEG = RSC_MAX_INTERNAL + 1 };
    static char big[2 + 4 * NSEG + 2], q[3 * NSEG + 4];
    size_t m = 0;
    big[m++] = '/';
    for (int k = 0; k < NSEG; k++) {
        int wd = k % 64;
        big[m++] = '*';
        big[m++] = (char)('a' + wd / 16), big[m++] = (char)('a' + wd / 4 % 4),
        big[m++] = (char)('a' + wd % 4);
    }
    big[m] = 0;
    const char *bt[1] = {big};
    t = tt_new();
    sl = tt_child(t, 0, '/', "", 0);
    tt_glob(t, sl, 1);
    tt_texts(t, bt, 1);
    tt_wild_build(t, &w);
    CHECK(w.shape == TT_SHAPE(RSC_MAX_INTERNAL, 0, 0) && w.n[TT_EDGES] == NSEG,
          "%d segments: %d internal nodes", NSEG, RSC_MAX_INTERNAL);
    tt_wild_free(&w);
    b = trie_blob(t, bt, 1, &n);
    p = load_or_die(b, n);
    s = sel1(&p, "x");
    m = 0;
    q[m++] = '/';
    for (int k = 0; k < NSEG; k++) {
        int wd = k % 64;
        q[m++] = (char)('a' + wd / 16), q[m++] = (char)('a' + wd / 4 % 4), q[m++] = (char)('a' + wd % 4);
    }
    q[m] = 0;
    CHECK(rank_for(&s, q, m) == 1 && rank_for(&s, q, m - 1) == 0, "%d segments: all needed", NSEG);
    q[m] = 'b', q[m + 1] = 0;
    CHECK(rank_for(&s, q, m + 1) == 1, "%d segments: a byte after", NSEG);
    q[1 + 3 * (NSEG - 3)] = 0; /* the first segments, then random ones: the last 3 */
    static char lastw[3 * 4 + 1];
    for (int k = NSEG - 3, j = 0; k < NSEG; k++) {
        int wd = k % 64;
        lastw[j++] = (char)('a' + wd / 16), lastw[j++] = (char)('a' + wd / 4 % 4);
        lastw[j++] = (char)('a' + wd % 4), lastw[j++] = k + 1 < NSEG ? '|' : 0;
    }
    compare_random("512 internal nodes", &s, bt, 1, NULL, q, lastw, 12, 2000, &seed);
    free(b);
    tt_free(t);
}

/* The OUTS row of the program at Data offset `at` whose edges are the most
 * (navigating a valid blob): that number. */
static uint32_t most_edges(const uint8_t *b, size_t at)
{
    size_t pos = at;
    uint32_t ts = rd_varint(b, &pos);
    pos += ts;
    (void)rd_varint(b, &pos);
    uint32_t cnt;
    uint8_t w[6];
    size_t rows = tb_table_at(b, pos, 2, &cnt, w);
    pos = cnt ? tb_cell(rows, w, 2, cnt, 0) : rows;
    rows = tb_table_at(b, pos, 6, &cnt, w);
    uint32_t most = 0;
    for (uint32_t r = 0; r < cnt; r++) {
        uint32_t k = rdnle(b + tb_cell(rows, w, 6, r, 4), w[4]) +
                     rdnle(b + tb_cell(rows, w, 6, r, 5), w[5]);
        if (k > most)
            most = k;
    }
    return most;
}

/* One segment with more edges than RSC_SCAN_MAX (16): the matcher
 * searches them by the parents it reached instead of scanning them. 20
 * root slots ("/a" .. "/t") with "*x", each a branch of its own, and one
 * at the root "*x$" (anchored: the other part of the row); 20 internal
 * nodes (rules "/" "*a*y" .. "/" "*t*y") whose edge "y" is one row of 20 edges too. */
static void test_many_edges(void)
{
    static char pats[48][12];
    tp_prog tp;
    tp_rule rules[48];
    size_t nr = 0;
    for (int k = 0; k < 20; k++) {
        snprintf(pats[nr], sizeof pats[nr], "/%c*x", 'a' + k);
        rules[nr] = (tp_rule){(uint32_t)nr + 1, k % 3 == 0, pats[nr]};
        nr++;
        snprintf(pats[nr], sizeof pats[nr], "/*%c*y", 'a' + k);
        rules[nr] = (tp_rule){(uint32_t)nr + 1, k % 2, pats[nr]};
        nr++;
    }
    rules[nr++] = (tp_rule){99, 0, "*x$"};
    rules[nr++] = (tp_rule){98, 1, "/e*zx"};
    tp_one(&tp, nr, rules);
    uint64_t seed = 0x77u;
    for (int sh = 0; sh < SH_N; sh++) {
        shape(&tp, sh);
        built x;
        build(&x, &tp);
        rsc_selection s = sel1(&x.p, "x");
        CHECK(most_edges(x.b, s.roots[0]) >= 20, "shape %d: a segment of %u edges", sh,
              most_edges(x.b, s.roots[0]));
        uint32_t set0 = 0;
        static const char alpha[] = "abcdefghijklmnopqrstxyz";
        for (int k = 0; k < 1500; k++) {
            char q[24];
            size_t m = 0;
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            if (seed % 8)
                q[m++] = '/';
            size_t len = seed % 11;
            for (size_t j = 0; j < len; j++) {
                seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                q[m++] = j && seed % 3 == 0 ? "xy"[seed % 2] : alpha[seed % (sizeof alpha - 1)];
            }
            q[m] = 0;
            rsc_match mm;
            int got = rsc_match_path(&s, q, m, &mm);
            check_ref("many edges", &tp, x.rank, &set0, 1, (const uint8_t *)q, m, got, &mm, 0);
        }
        rsc_match mm;
        CHECK(path(&s, "/kx", &mm) == 0 && mm.line == 21 && path(&s, "/qx", &mm) == 0 &&
                  mm.line == 33 && path(&s, "/kxq", &mm) == 0 && mm.line == 21 &&
                  path(&s, "/ax", &mm) == 1 && mm.line == 1 && path(&s, "/x", &mm) == 0 &&
                  mm.line == 99 && path(&s, "/bqy", &mm) == 1 && mm.line == 4 &&
                  path(&s, "/bq", &mm) == 1 && !mm.decided,
              "many edges: spot values");
        free(x.b);
    }
    /* 64 internal nodes ("/" then "*" two letters "*y") and one segment
     * "y" of 64 edges from them, the most an encoder puts in a program
     * (RSC_MAX_INNER): the matcher scans them and answers right. */
    {
        static char txt[64][8], alpha[64 * 3 + 16];
        const char *tx[64];
        size_t m = 0;
        tt *t = tt_new();
        int sl = tt_child(t, 0, '/', "", 0);
        for (int k = 0; k < 64; k++) {
            snprintf(txt[k], sizeof txt[k], "/*%c%c*y", 'a' + k / 10, 'a' + k % 10);
            tx[k] = txt[k];
            tt_glob(t, sl, (uint32_t)k + 1);
            m += (size_t)snprintf(alpha + m, sizeof alpha - m, "%c%c|", 'a' + k / 10, 'a' + k % 10);
        }
        snprintf(alpha + m, sizeof alpha - m, "y|y|y|y|y|y|y|y|y|y");
        tt_texts(t, tx, 64);
        tt_wild w;
        tt_wild_build(t, &w);
        CHECK(w.shape == TT_SHAPE(64, 0, 0) && w.n[TT_EDGES] == 128 && w.n[TT_OUTS] == 65,
              "64 internal nodes, a segment of 64 edges from them");
        tt_wild_free(&w);
        size_t n;
        uint8_t *b = trie_blob(t, tx, 64, &n);
        rsc_program p = load_or_die(b, n);
        rsc_selection s = sel1(&p, "x");
        CHECK(RANK(&s, "/aay") == 1 && RANK(&s, "/gdy") == 64 && RANK(&s, "/aagdy") == 64 &&
                  RANK(&s, "/aa") == 0 && RANK(&s, "/yaa") == 0 && RANK(&s, "/aybby") == 12,
              "64 edges from internal nodes: spot values");
        compare_random("64 edges from internal nodes", &s, tx, 64, NULL, "/", alpha, 12, 3000,
                       &seed);
        free(b);
        tt_free(t);
    }
}

/* A chain program (note [chain] in compiler/glob.c) for the rule whose
 * tail is `tail` (from its '*', without a final '$'; anchored: its last
 * segment ends the path) and rank: one root slot at `level`, segment i is
 * OUTS row i and EDGES row i (from the slot, then from internal node
 * i - 1), and its states a line of Len + 1 from B_i, failure links those
 * of Knuth, Morris and Pratt (the longest proper border, found by brute
 * force). Shape (k - 1) << 2 | 1 (a chain has no labels). */
static void chain_wild(tt_wild *w, const char *tail, int anch, uint32_t rank, uint32_t level)
{
    static const char *sg[2048];
    static size_t len[2048];
    size_t k = 0, ns = 0;
    for (const char *c = tail; *c;) {
        while (*c == '*')
            c++;
        const char *a = c;
        while (*c && *c != '*')
            c++;
        if (c > a)
            sg[k] = a, len[k] = (size_t)(c - a), ns += len[k] + 1, k++;
    }
    memset(w, 0, sizeof *w);
    w->shape = TT_SHAPE(k - 1, 0, 1);
    w->n[TT_ROOTS] = 1, w->n[TT_OUTS] = w->n[TT_EDGES] = k, w->n[TT_STATES] = ns;
    w->rows[TT_ROOTS] = calloc(2, sizeof(uint32_t));
    w->rows[TT_OUTS] = calloc(6 * k, sizeof(uint32_t));
    w->rows[TT_STATES] = calloc(5 * ns, sizeof(uint32_t));
    w->rows[TT_EDGES] = calloc(4 * k, sizeof(uint32_t));
    w->rows[TT_ROOTS][0] = level, w->rows[TT_ROOTS][1] = rank;
    size_t base = 0;
    for (size_t i = 0; i < k; i++) {
        int last = i + 1 == k;
        uint32_t *o = w->rows[TT_OUTS] + 6 * i, *e = w->rows[TT_EDGES] + 4 * i;
        o[0] = (uint32_t)len[i], o[1] = 0, o[2] = rank, o[3] = (uint32_t)i;
        o[4] = !(last && anch), o[5] = last && anch;
        e[0] = i ? (uint32_t)i : 0, e[1] = last ? rank : 0, e[2] = last ? 0 : (uint32_t)i + 1;
        e[3] = rank;
        for (size_t d = 0; d <= len[i]; d++) {
            uint32_t *x = w->rows[TT_STATES] + 5 * (base + d);
            size_t border = 0;
            for (size_t bl = d ? d - 1 : 0; bl > 0; bl--) /* longest proper border */
                if (memcmp(sg[i], sg[i] + d - bl, bl) == 0) {
                    border = bl;
                    break;
                }
            x[0] = d ? (uint8_t)sg[i][d - 1] : 0;
            x[1] = d < len[i] ? (uint32_t)(base + d + 1) : 0, x[2] = d < len[i];
            x[3] = (uint32_t)(base + border), x[4] = d == len[i] ? (uint32_t)i + 1 : 0;
        }
        base += len[i] + 1;
    }
}

static void test_chain(void)
{
    static const char *const tails[] = {
        "*ab*ab",       "*aab*ab",  "*abcabd*abcabd*x", "*aaaa*b", "*abab*aba*b",
        "*a",           "*aa",      "*abaababaab",      "*b*a*b*a*b*a*b*a*b*a*b*a*b*a*b*a*b*a",
    };
    uint64_t seed = 0xC0FFEEu;
    for (size_t i = 0; i < sizeof tails / sizeof *tails; i++)
        for (int anch = 0; anch < 2; anch++)
            for (int deep = 0; deep < 2; deep++) {
                /* rank 1: "/" (an Accept when deep, not in the program
                 * otherwise); rank 2: the chain rule, at the root or at
                 * "/" + "x" (a level-1 slot below a slot-less Accept) */
                static char text[200];
                snprintf(text, sizeof text, "%s%s%s", deep ? "/x" : "", tails[i], anch ? "$" : "");
                const char *tx[2] = {"/", text};
                int use[2] = {deep, 1};
                tt *t = tt_new();
                int node = 0;
                if (deep) {
                    int sl = tt_child(t, 0, '/', "", 0);
                    tt_accept(t, sl, 1);
                    node = tt_child(t, sl, 'x', "", 0);
                }
                tt_slot(t, node, 0);
                tt_wild w;
                chain_wild(&w, tails[i], anch, 2, 0);
                tt_wild_set(t, &w);
                tt_wild_free(&w);
                size_t n;
                uint8_t *b = trie_blob(t, tx, 2, &n);
                rsc_program p = load_or_die(b, n);
                rsc_selection s = sel1(&p, "x");
                char what[80];
                snprintf(what, sizeof what, "chain %s%s%s", deep ? "/x" : "", tails[i],
                         anch ? "$" : "");
                char alpha[200];
                snprintf(alpha, sizeof alpha, "a|a|b|b|c|d|x|%s", tails[i]);
                for (char *c = alpha; *c; c++)
                    *c = *c == '*' ? '|' : *c;
                compare_random(what, &s, tx, 2, use, deep ? "/x" : "", alpha, 60, 1500,
                               &seed);
                /* the rule itself, as a path: stars dropped */
                char q[200];
                size_t m = 0;
                for (const char *c = text; *c && *c != '$'; c++)
                    if (*c != '*')
                        q[m++] = *c;
                q[m] = 0;
                CHECK(rank_for(&s, q, m) == 2, "%s: its own bytes match", what);
                free(b);
                tt_free(t);
            }
    /* Over the budgets on its own: 600 segments (599 internal nodes, more
     * than RSC_MAX_INTERNAL: a chain only) */
    enum { CSEG = 600 };
    static char tail[2 * CSEG + 1], q[2 * CSEG];
    for (int k = 0; k < CSEG; k++)
        tail[2 * k] = '*', tail[2 * k + 1] = (char)('a' + k % 2);
    tail[2 * CSEG] = 0;
    const char *tx[1] = {tail};
    tt *t = tt_new();
    tt_slot(t, 0, 0);
    tt_wild w;
    chain_wild(&w, tail, 0, 1, 0);
    CHECK(w.shape == TT_SHAPE(CSEG - 1, 0, 1), "chain of %d segments: N_Internal %d", CSEG,
          CSEG - 1);
    tt_wild_set(t, &w);
    tt_wild_free(&w);
    size_t n;
    uint8_t *b = trie_blob(t, tx, 1, &n);
    rsc_program p = load_or_die(b, n);
    rsc_selection s = sel1(&p, "x");
    for (int k = 0; k < CSEG; k++)
        q[k] = (char)('a' + k % 2);
    CHECK(rank_for(&s, q, CSEG) == 1 && rank_for(&s, q, CSEG - 1) == 0, "chain of %d segments",
          CSEG);
    q[CSEG - 30] = 0;
    compare_random("chain of 600 segments", &s, tx, 1, NULL, q, "a|b|bb|aab", 40, 1500, &seed);
    free(b);
    tt_free(t);
}

/* Failure links a compiler never writes, in valid blobs: cycles (1 -> 2
 * -> 1), a state failing to itself, links to deeper states and, in a
 * chain, into another segment's line. The matcher counts failure steps
 * against the bytes read (FORMAT.md, Matching), so every match ends (a
 * test that hangs fails by its ctest TIMEOUT); the answers may be wrong
 * (safe but wrong), except that a path the automaton reads without a
 * failure still matches. */
static void test_fail_budget(void)
{
    /* segment "ab" (edge: slot 0, rank 1) */
    static const char *const tx[] = {"*ab"};
    static const uint32_t roots[] = {0, 1}, outs[] = {2, 0, 1, 0, 1, 0},
                          edges[] = {0, 1, 0, 1};
    /* states 0 "", 1 "a", 2 "ab"; Fail of 1 and 2 varied */
    static const uint32_t fails[][2] = {{0, 0}, {2, 1}, {1, 2}, {1, 1}, {2, 2}, {2, 0}};
    size_t big = 1u << 20;
    char *q = malloc(big + 1);
    for (size_t f = 0; f < sizeof fails / sizeof *fails; f++) {
        uint32_t states[] = {0, 1, 1, 0, 0, 'a', 2, 1, fails[f][0], 0, 'b', 0, 0, fails[f][1], 1};
        tt_wild w = {0, {1, 1, 3, 1}, {(uint32_t *)roots, (uint32_t *)outs, states, (uint32_t *)edges}};
        tt *t = tt_new();
        tt_slot(t, 0, 0);
        tt_wild_set(t, &w);
        size_t n;
        uint8_t *b = trie_blob(t, tx, 1, &n);
        rsc_program p = load_or_die(b, n);
        rsc_selection s = sel1(&p, "x");
        CHECK(RANK(&s, "ab") == 1 && RANK(&s, "xxab") == 1 && RANK(&s, "a") == 0,
              "fail links %u %u: plain matches", fails[f][0], fails[f][1]);
        /* long runs that fail at every byte: a's, then b's, then "aab"s */
        static const char *const fill[] = {"a", "b", "aab", "aba", "ca"};
        for (size_t k = 0; k < sizeof fill / sizeof *fill; k++) {
            size_t fl = strlen(fill[k]);
            for (size_t i = 0; i < big; i++)
                q[i] = fill[k][i % fl];
            (void)rank_for(&s, q, big);
            rsc_match m;
            (void)rsc_match_url(&s, q, big, &m);
        }
        CHECK(1, "fail links %u %u: every match ended", fails[f][0], fails[f][1]);
        free(b);
        tt_free(t);
    }
    /* A chain of two segments "aa", "ab" whose lines fail into each other
     * and into themselves. */
    for (int v = 0; v < 3; v++) {
        const char *ct[] = {"*aa*ab"};
        tt_wild w;
        chain_wild(&w, "*aa*ab", 0, 1, 0);
        uint32_t *st = w.rows[TT_STATES]; /* 0 "", 1 a, 2 aa | 3 "", 4 a, 5 ab */
        if (v == 0)
            st[5 * 2 + 3] = 5, st[5 * 5 + 3] = 2, st[5 * 4 + 3] = 4;
        else if (v == 1)
            st[5 * 1 + 3] = 2, st[5 * 2 + 3] = 1, st[5 * 5 + 3] = 4, st[5 * 4 + 3] = 5;
        else
            for (int k = 0; k < 6; k++)
                st[5 * k + 3] = (uint32_t)(5 - k);
        tt *t = tt_new();
        tt_slot(t, 0, 0);
        tt_wild_set(t, &w);
        tt_wild_free(&w);
        size_t n;
        uint8_t *b = trie_blob(t, ct, 1, &n);
        rsc_program p = load_or_die(b, n);
        rsc_selection s = sel1(&p, "x");
        CHECK(RANK(&s, "aaab") == 1 && RANK(&s, "aa") == 0, "chain fail links %d: plain", v);
        static const char *const fill[] = {"a", "b", "aab", "ab", "ba"};
        for (size_t k = 0; k < sizeof fill / sizeof *fill; k++) {
            size_t fl = strlen(fill[k]);
            for (size_t i = 0; i < big; i++)
                q[i] = fill[k][i % fl];
            (void)rank_for(&s, q, big);
        }
        CHECK(1, "chain fail links %d: every match ended", v);
        free(b);
        tt_free(t);
    }
    /* Labelled automata for "*abc" (STRINGS "*abc"): state 1 is 'a' + the
     * label "bc" (@2), failing to the root or to itself; then also its own
     * child on 'a'; then a label on the root, which is state 1's child. */
    for (int v = 0; v < 4; v++) {
        static const char *const lt[] = {"*abc"};
        uint32_t lroots[] = {0, 1}, louts[] = {3, 0, 1, 0, 1, 0}, ledges[] = {0, 1, 0, 1};
        uint32_t states[] = {0, 1, 1, 0, 0, 0, 0, 'a', 0, 0, v == 1, 1, 2, 2};
        if (v == 2)
            states[7 + 1] = 1, states[7 + 2] = 1, states[7 + 3] = 1;
        if (v == 3)
            states[5] = 1, states[6] = 3, states[7 + 1] = 0, states[7 + 2] = 1;
        tt_wild w = {TT_SHAPE(0, 1, 0), {1, 1, 2, 1}, {lroots, louts, states, ledges}};
        tt *t = tt_new();
        tt_slot(t, 0, 0);
        tt_wild_set(t, &w);
        size_t n;
        uint8_t *b = trie_blob(t, lt, 1, &n);
        rsc_program p = load_or_die(b, n);
        rsc_selection s = sel1(&p, "x");
        if (v < 3)
            CHECK(RANK(&s, "abc") == 1 && RANK(&s, "xxabc") == 1 && RANK(&s, "ab") == 0,
                  "labelled fail links %d: plain matches", v);
        static const char *const fill[] = {"a", "ab", "abca", "aab", "abab", "cba"};
        for (size_t k = 0; k < sizeof fill / sizeof *fill; k++) {
            size_t fl = strlen(fill[k]);
            for (size_t i = 0; i < big; i++)
                q[i] = fill[k][i % fl];
            (void)rank_for(&s, q, big);
        }
        CHECK(1, "labelled fail links %d: every match ended", v);
        free(b);
        tt_free(t);
    }
    free(q);
}

/* ---- labels ------------------------------------------------------------- */

/* The Shape and the STATES Count of the program at Data offset `at`
 * (navigating a valid blob). */
static uint32_t prog_shape(const uint8_t *b, size_t at, uint32_t *n_states)
{
    size_t pos = at;
    uint32_t ts = rd_varint(b, &pos);
    pos += ts;
    uint32_t shape = rd_varint(b, &pos), cnt;
    uint8_t w[8];
    for (int k = 0; k < 2; k++) { /* ROOTS, OUTS */
        size_t rows = tb_table_at(b, pos, tt_cols(shape, k), &cnt, w);
        pos = cnt ? tb_cell(rows, w, tt_cols(shape, k), cnt, 0) : rows;
    }
    *n_states = rd_varint(b, &pos);
    return shape;
}

/* The labelled automaton (FORMAT.md, Labels): the builder's tables for the
 * textbook example and for one long segment, labels cut at 1 and 2 bytes;
 * matching where a path leaves a label (the root then reads the byte),
 * ends inside one (no output) or ends with one; labels read from STRINGS
 * where Lab_Off says (a label naming other bytes than its segment's
 * matches those bytes: safe but wrong); verdicts equal to the reference in
 * every mode. */
static void test_labels(void)
{
    /* {he, his, she, hers}: "hi" and "her" are left out (one child, Fail
     * the root, no output, no Fail link to them); "s" stays (his and hers
     * fail to it), "sh" stays (it fails to "h"). STRINGS: "*he" @0, "*his"
     * @3, "*she" @7, "*hers" @11. */
    static const char *const tx[] = {"*he", "*his", "*she", "*hers"};
    static const uint32_t off[] = {0, 3, 7, 11};
    tt *t = tt_new();
    for (uint32_t r = 1; r <= 4; r++)
        tt_glob(t, 0, r);
    tt_texts(t, tx, 4);
    tt_strings(t, off, 4);
    static const uint32_t want[] = {/* Key, First, N, Fail, Out, Lab_Off, Lab_Len */
                                    0,   1, 2, 0, 0, 0,  0,  /* ""          */
                                    'h', 3, 2, 0, 0, 0,  0,  /* h           */
                                    's', 5, 1, 0, 0, 0,  0,  /* s           */
                                    'e', 6, 1, 0, 1, 0,  0,  /* he          */
                                    'i', 0, 0, 2, 2, 6,  1,  /* h + i + "s" */
                                    'h', 7, 1, 1, 0, 0,  0,  /* sh -> h     */
                                    'r', 0, 0, 2, 4, 15, 1,  /* he + r + "s" */
                                    'e', 0, 0, 3, 3, 0,  0}; /* she -> he   */
    for (int max = 0; max < 3; max++) {
        tt_labels(t, max == 0 ? TT_LABELS_ALL : max == 1 ? 1 : 2);
        tt_wild w;
        tt_wild_build(t, &w);
        CHECK(w.shape == TT_SHAPE(0, 1, 0) && w.n[TT_STATES] == 8 && w.n[TT_OUTS] == 4 &&
                  memcmp(w.rows[TT_STATES], want, sizeof want) == 0,
              "labels %d: {he, his, she, hers}: 8 states, \"hi\" and \"her\" left out", max);
        tt_wild_free(&w);
    }
    tt_labels(t, 0);
    {
        tt_wild w;
        tt_wild_build(t, &w);
        CHECK(w.shape == 0 && w.n[TT_STATES] == 10, "labels off: 10 states, Shape 0");
        tt_wild_free(&w);
    }
    tt_free(t);

    /* One segment "abcdef" (rank 1 "*abcdef" @0; a second rule's text
     * after it): every label, then at most 2 and 1 bytes a label. */
    static const char *const t6[] = {"*abcdef"};
    static const uint32_t off6[] = {0};
    static const uint32_t all6[] = {0, 1, 1, 0, 0, 0, 0, 'a', 0, 0, 0, 1, 2, 5};
    static const uint32_t two6[] = {0,   1, 1, 0, 0, 0, 0, 'a', 2, 1, 0, 0, 2, 2,
                                    'd', 0, 0, 0, 1, 5, 2};
    static const uint32_t one6[] = {0,   1, 1, 0, 0, 0, 0, 'a', 2, 1, 0, 0, 2, 1,
                                    'c', 3, 1, 0, 0, 4, 1, 'e', 0, 0, 0, 1, 6, 1};
    static const struct {
        uint32_t max;
        size_t n;
        const uint32_t *rows;
    } six[] = {{TT_LABELS_ALL, 2, all6}, {5, 2, all6}, {2, 3, two6}, {1, 4, one6}};
    for (size_t k = 0; k < sizeof six / sizeof *six; k++) {
        t = tt_new();
        tt_glob(t, 0, 1);
        tt_texts(t, t6, 1);
        tt_strings(t, off6, 1);
        tt_labels(t, six[k].max);
        tt_wild w;
        tt_wild_build(t, &w);
        CHECK(w.shape == TT_SHAPE(0, 1, 0) && w.n[TT_STATES] == six[k].n &&
                  memcmp(w.rows[TT_STATES], six[k].rows, six[k].n * 7 * sizeof(uint32_t)) == 0,
              "\"abcdef\", labels of at most %u bytes: %zu states", six[k].max, six[k].n);
        tt_wild_free(&w);
        tt_free(t);
    }

    /* Matching through labels, in every mode, against the reference:
     * "*abcd" and "*cx" ("a" and "ab" left out: "abc" fails to "c", so
     * "abc" stays), an anchored "/q*abcdef$", a segment that is a label's
     * prefix ("*abcdefgh" beside it), and paths that leave a label at each
     * byte, end inside one or right at its end. */
    static const tp_rule lr[] = {{2, 0, "*abcd"},        {3, 1, "*cx"},       {4, 0, "/q*abcdef$"},
                                 {5, 1, "/q*abcdefgh"},  {6, 0, "/r*xyz*xyzw$"}};
    static const char *const lp[] = {
        "/acx",        "/aacx",        "/abx",         "/abcx",          "/abcd",
        "/abc",        "/ab",          "/abcabcd",     "/ababcd",        "/qabcdef",
        "/qabcde",     "/qabcdefg",    "/qabcdefgh",   "/qabcdeabcdef",  "/qabcdefabcde",
        "/qabcdefgabcdef", "/qaabcdef", "/qabcdefabcdef", "/rxyzxyzw",   "/rxyzw",
        "/rxyzxyz",    "/rxyxyzxyzw",  "/rxyzxyzwx",   "/rxyzxyzxyzw",   "/qabcdefghabcdef",
        "/abcdcx",     "/cabcd",       "/q",           "/",              "",
    };
    static const uint32_t lmodes[] = {0, TT_LABELS_ALL, 1, 2, 3};
    uint32_t ns0[SH_N] = {0};
    for (size_t mk = 0; mk < sizeof lmodes / sizeof *lmodes; mk++) {
        for (int sh = 0; sh < SH_N; sh++) {
            tp_prog tp;
            tp_one(&tp, sizeof lr / sizeof *lr, lr);
            shape(&tp, sh);
            tp.labels = lmodes[mk];
            tp.rfc = sh == SH_WIDE;
            built x;
            x.b = tp_build(&tp, &x.n, x.rank);
            x.p = load_or_die(x.b, x.n);
            rsc_selection s = sel1(&x.p, "x");
            uint32_t ns, shp = prog_shape(x.b, s.roots[0], &ns);
            if (!lmodes[mk])
                ns0[sh] = ns;
            CHECK((shp & TT_SHAPE_LABELS) == (lmodes[mk] ? TT_SHAPE_LABELS : 0) &&
                      (lmodes[mk] == 0 || ns < ns0[sh]),
                  "labels %u, shape %d: Shape %u, %u states (%u without labels)", lmodes[mk], sh,
                  shp, ns, ns0[sh]);
            uint32_t set0 = 0;
            for (size_t i = 0; i < sizeof lp / sizeof *lp; i++) {
                rsc_match m;
                int got = path(&s, lp[i], &m);
                check_ref("labels", &tp, x.rank, &set0, 1, (const uint8_t *)lp[i], strlen(lp[i]),
                          got, &m, 0);
            }
            free(x.b);
        }
    }
    {
        /* spot values, written out */
        tp_prog tp;
        tp_one(&tp, sizeof lr / sizeof *lr, lr);
        tp.labels = TT_LABELS_ALL;
        built x;
        x.b = tp_build(&tp, &x.n, x.rank);
        x.p = load_or_die(x.b, x.n);
        rsc_selection s = sel1(&x.p, "x");
        rsc_match m;
        CHECK(path(&s, "/acx", &m) == 1 && m.line == 3 && path(&s, "/aacx", &m) == 1 &&
                  m.line == 3 && path(&s, "/abx", &m) == 1 && !m.decided &&
                  path(&s, "/ababcd", &m) == 0 && m.line == 2 && path(&s, "/qabcde", &m) == 0 &&
                  m.line == 2 && path(&s, "/qabcdef", &m) == 0 && m.line == 4 &&
                  path(&s, "/qabcdefg", &m) == 0 && m.line == 2 && path(&s, "/qabdef", &m) == 1 &&
                  !m.decided && path(&s, "/qabcdeabcdef", &m) == 0 && m.line == 4 &&
                  path(&s, "/qabcdefgh", &m) == 1 && m.line == 5 &&
                  path(&s, "/rxyzxyzw", &m) == 0 && m.line == 6 &&
                  path(&s, "/rxyzxyz", &m) == 1 && !m.decided,
              "labels: spot values");
        free(x.b);
    }

    /* Hand tables: rank 1 "*abcd" (STRINGS @0), rank 2 "*wxyz" (@5); one
     * slot at the root; the segment's two states, the second with the
     * label at Lab_Off, Lab_Len. The runtime reads the label's bytes from
     * STRINGS: a label naming "xyz" matches "axyz" and no longer "abcd". */
    static const char *const hx[] = {"*abcd", "*wxyz"};
    static const struct {
        uint32_t lab_off, lab_len;
        int anch;
        const char *yes[3], *no[3];
    } hc[] = {
        {2, 3, 0, {"abcd", "xxabcdy", "abcabcd"}, {"abc", "abxd", "axyz"}},
        {2, 3, 1, {"abcd", "aabcd", "abcabcd"}, {"abc", "abcdx", "abcdabc"}},
        {7, 3, 0, {"axyz", "xaxyzq", "axaxyz"}, {"abcd", "axy", "ayz"}},
        {8, 2, 1, {"ayz", "yzayz", "aayz"}, {"ay", "ayzq", "abcd"}}, /* up to STRINGS' end */
        {0, 0, 0, {"a", "xa", "ab"}, {"", "b", "xyz"}},             /* no label */
    };
    for (size_t k = 0; k < sizeof hc / sizeof *hc; k++) {
        uint32_t len = 1 + hc[k].lab_len;
        uint32_t roots[] = {0, 1}, outs[] = {len, 0, 1, 0, !hc[k].anch, hc[k].anch},
                 states[] = {0, 1, 1, 0, 0, 0, 0, 'a', 0, 0, 0, 1, hc[k].lab_off, hc[k].lab_len},
                 edges[] = {0, 1, 0, 1};
        tt_wild w = {TT_SHAPE(0, 1, 0), {1, 1, 2, 1}, {roots, outs, states, edges}};
        t = tt_new();
        tt_slot(t, 0, 0);
        tt_wild_set(t, &w);
        size_t n;
        uint8_t *b = trie_blob(t, hx, 2, &n);
        rsc_program p = load_or_die(b, n);
        rsc_selection s = sel1(&p, "x");
        int ok = 1;
        for (int i = 0; i < 3; i++)
            ok &= RANK(&s, hc[k].yes[i]) == 1 && RANK(&s, hc[k].no[i]) == 0;
        CHECK(ok, "hand label @%u len %u%s: read from STRINGS", hc[k].lab_off, hc[k].lab_len,
              hc[k].anch ? ", anchored" : "");
        free(b);
        tt_free(t);
    }
}

/* ---- programs, sets, priorities --------------------------------------- */

static void test_programs_and_sets(void)
{
    tp_prog tp;
    memset(&tp, 0, sizeof tp);
    tp.n_rules = 5;
    tp.rules[0] = (tp_rule){1, 0, "/a"};
    tp.rules[1] = (tp_rule){2, 1, "/a*x"};
    tp.rules[2] = (tp_rule){3, 0, "/a*x$"};
    tp.rules[3] = (tp_rule){4, 1, "/ab"};
    tp.rules[4] = (tp_rule){5, 0, "*z"};
    tp.n_progs = 4;
    tp.progs[0] = (tp_program){1, {0}};
    tp.progs[1] = (tp_program){2, {1, 3}};
    tp.progs[2] = (tp_program){1, {2}};
    tp.progs[3] = (tp_program){1, {4}};
    tp.n_sets = 4;
    tp.sets[0] = (tp_set){4, {0, 1, 2, 3}};
    tp.sets[1] = (tp_set){4, {3, 2, 1, 0}};
    tp.sets[2] = (tp_set){1, {0}};
    tp.sets[3] = (tp_set){2, {1, 3}};
    tp.n_agents = 4;
    tp.agents[0] = (tp_agent){"fwd", 0};
    tp.agents[1] = (tp_agent){"rev", 1};
    tp.agents[2] = (tp_agent){"a", 2};
    tp.agents[3] = (tp_agent){"b", 3};
    tp.global = -1;
    static const char *paths[] = {"/a", "/ab", "/ax", "/abx", "/abxy", "/az", "/z", "/a/x/z",
                                  "/", "", "/abz", "/zx", "/a*x"};
    for (int sh = 0; sh < SH_N; sh++) {
        shape(&tp, sh);
        built x;
        build(&x, &tp);
        CHECK(x.rank[4] == 1 && x.rank[0] == 2 && x.rank[3] == 3 && x.rank[1] == 4 &&
                  x.rank[2] == 5,
              "ranks by (length, allow, -line)");
        static const struct {
            const char *agents[2];
            size_t n;
            uint32_t sets[2];
            size_t ns;
        } sel[] = {
            {{"fwd"}, 1, {0}, 1},
            {{"REV"}, 1, {1}, 1},
            {{"a", "b"}, 2, {2, 3}, 2},
            {{"b", "a"}, 2, {3, 2}, 2},
            {{"a", "A"}, 2, {2}, 1},
        };
        for (size_t k = 0; k < sizeof sel / sizeof *sel; k++) {
            rsc_bytes a[2];
            for (size_t i = 0; i < sel[k].n; i++)
                a[i] = (rsc_bytes){sel[k].agents[i], strlen(sel[k].agents[i])};
            rsc_selection s;
            CHECK(rsc_select(&x.p, a, sel[k].n, &s) == RSC_OK && s.named &&
                      s.n_sets == sel[k].ns,
                  "select %zu: %u sets", k, s.n_sets);
            for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
                rsc_match m;
                int got = path(&s, paths[i], &m);
                check_ref("sets", &tp, x.rank, sel[k].sets, sel[k].ns,
                          (const uint8_t *)paths[i], strlen(paths[i]), got, &m, 0);
            }
        }
        /* The selection resolves the programs of its sets once: roots in
         * set order, each Data + End[program - 1]. */
        {
            size_t p3 = tb_section(x.b, x.n, 3, NULL), pos = p3;
            uint32_t cnt = rd_varint(x.b, &pos);
            unsigned w = (x.b[pos] & 3u) + 1; /* the one column's packed width */
            size_t ends = pos + 1, data = ends + (size_t)cnt * w;
            rsc_bytes a2[2] = {{"rev", 3}, {"b", 1}};
            rsc_selection s2;
            static const int want[] = {3, 2, 1, 0, 1, 3};
            int ok = rsc_select(&x.p, a2, 2, &s2) == RSC_OK && s2.n_roots == 6 && cnt == 4;
            for (int k = 0; ok && k < 6; k++)
                ok = s2.roots[k] ==
                     data + (want[k] ? rdnle(x.b + ends + (size_t)(want[k] - 1) * w, w) : 0);
            CHECK(ok, "shape %d: roots of sets 1 and 3", sh);
        }
        /* Spot values, written out. */
        rsc_selection s = sel1(&x.p, "fwd");
        rsc_match m;
        CHECK(path(&s, "/abx", &m) == 0 && m.line == 3, "/abx: /a*x$ (rank 5)");
        CHECK(path(&s, "/abxy", &m) == 1 && m.line == 2, "/abxy: /a*x (rank 4)");
        CHECK(path(&s, "/ax", &m) == 0 && m.line == 3, "/ax: /a*x$ (rank 5)");
        CHECK(path(&s, "/az", &m) == 0 && m.line == 1, "/az: /a beats *z (same length, line)");
        free(x.b);
    }
}

/* More programs than a selection resolves (RSC_MAX_SELECT): matching goes
 * through the sets; and SETS left out (set i = program i). */
static void test_many_programs(void)
{
    static char pats[40][12];
    tp_prog tp;
    memset(&tp, 0, sizeof tp);
    tp.n_rules = 40;
    tp.n_progs = 40;
    for (int i = 0; i < 40; i++) {
        /* "/k" + i letters: longer, better; odd ones allow, some globs */
        snprintf(pats[i], sizeof pats[i], i % 5 == 4 ? "/%c*%c" : "/%c%c", 'a' + i % 7,
                 'a' + i / 7);
        tp.rules[i] = (tp_rule){(uint32_t)i + 1, i % 2, pats[i]};
        tp.progs[i] = (tp_program){1, {i}};
    }
    tp.n_sets = 3;
    tp.sets[0].n = 40;
    for (int i = 0; i < 40; i++)
        tp.sets[0].progs[i] = 39 - i;
    tp.sets[1] = (tp_set){3, {0, 1, 2}};
    tp.sets[2].n = 20;
    for (int i = 0; i < 20; i++)
        tp.sets[2].progs[i] = 2 * i;
    tp.n_agents = 3;
    tp.agents[0] = (tp_agent){"all", 0};
    tp.agents[1] = (tp_agent){"few", 1};
    tp.agents[2] = (tp_agent){"even", 2};
    tp.global = 1;
    static const char *paths[] = {"/aa", "/ab", "/ba", "/ea", "/e/a", "/exa", "/ga", "/gf",
                                  "/z", "/", "", "/dbx", "/d", "/ef"};
    static const struct {
        const char *agents[2];
        size_t n, roots;
        uint32_t sets[2];
        size_t ns;
    } sel[] = {
        {{"all"}, 1, 40, {0}, 1},
        {{"few"}, 1, 3, {1}, 1},
        {{"even", "few"}, 2, 23, {2, 1}, 2},
        {{"even", "all"}, 2, 60, {2, 0}, 2},
        {{"x"}, 1, 3, {1}, 1},
    };
    for (int sh = 0; sh < SH_N; sh++) {
        shape(&tp, sh);
        built x;
        build(&x, &tp);
        for (size_t k = 0; k < sizeof sel / sizeof *sel; k++) {
            rsc_bytes a[2];
            for (size_t i = 0; i < sel[k].n; i++)
                a[i] = (rsc_bytes){sel[k].agents[i], strlen(sel[k].agents[i])};
            rsc_selection s;
            CHECK(rsc_select(&x.p, a, sel[k].n, &s) == RSC_OK && s.n_sets == sel[k].ns &&
                      s.n_roots == sel[k].roots,
                  "many: select %zu: %u sets, %u roots", k, s.n_sets, s.n_roots);
            for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
                rsc_match m;
                int got = path(&s, paths[i], &m);
                check_ref("many programs", &tp, x.rank, sel[k].sets, sel[k].ns,
                          (const uint8_t *)paths[i], strlen(paths[i]), got, &m, 0);
                char u[32];
                snprintf(u, sizeof u, "http://h%s#x", paths[i]);
                CHECK(url(&s, u) == got || !paths[i][0], "many: url %s", u);
            }
        }
        free(x.b);
    }
    /* Identity sets: no SETS section; agents and Global name programs. */
    tp.n_progs = tp.n_sets = 3;
    tp.n_rules = 40;
    tp.progs[0] = (tp_program){2, {0, 7}};
    tp.progs[1] = (tp_program){2, {1, 8}};
    tp.progs[2] = (tp_program){1, {2}};
    for (int i = 0; i < 3; i++)
        tp.sets[i] = (tp_set){1, {i}};
    tp.agents[0].set = 0, tp.agents[1].set = 1, tp.agents[2].set = 2;
    for (int sh = 0; sh < SH_N; sh++) {
        shape(&tp, sh);
        built x;
        build(&x, &tp);
        CHECK((tb_section(x.b, x.n, 4, NULL) != 0) == (tp.keep_sets != 0),
              "SETS written only with keep_sets");
        static const char *ag[] = {"all", "few", "even", "nobody"};
        for (uint32_t k = 0; k < 4; k++) {
            rsc_bytes a = {ag[k], strlen(ag[k])};
            rsc_selection s;
            uint32_t set = k < 3 ? k : 1;
            CHECK(rsc_select(&x.p, &a, 1, &s) == RSC_OK && s.n_sets == 1 && s.n_roots == 1 &&
                      s.sets[0] == set,
                  "identity sets: %s", ag[k]);
            for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
                rsc_match m;
                int got = path(&s, paths[i], &m);
                check_ref("identity sets", &tp, x.rank, &set, 1, (const uint8_t *)paths[i],
                          strlen(paths[i]), got, &m, 0);
            }
        }
        free(x.b);
    }
}

/* Each rule in its own program: the maximum rank wins across programs. */
static void test_priority_and_explain(void)
{
    tp_prog p;
    memset(&p, 0, sizeof p);
    p.n_rules = 5;
    p.rules[0] = (tp_rule){3, 0, "/fish"};
    p.rules[1] = (tp_rule){4, 1, "/fish"}; /* tie: allow wins */
    p.rules[2] = (tp_rule){5, 0, "/fish/salmon$"};
    p.rules[3] = (tp_rule){6, 0, ""}; /* priority 0: decides nothing (spec E.5) */
    p.rules[4] = (tp_rule){7, 0, "/fish"}; /* later line loses */
    p.n_progs = 5;
    p.n_sets = 1;
    p.sets[0].n = 5;
    for (int i = 0; i < 5; i++) {
        p.progs[i] = (tp_program){1, {i}};
        p.sets[0].progs[i] = 4 - i;
    }
    p.global = 0;
    built x;
    build(&x, &p);
    rsc_selection s = sel1(&x.p, "x");
    rsc_match m;
    CHECK(path(&s, "/fish/", &m) == 1 && m.decided && m.line == 4 && m.rule_allow == 1 &&
              m.priority == 5 && m.pattern_len == 5 && memcmp(m.pattern, "/fish", 5) == 0,
          "tie reported as the allow, line %u", m.line);
    CHECK(path(&s, "/fish/salmon", &m) == 0 && m.line == 5 && m.priority == 13 &&
              m.rule_allow == 0 && m.pattern_len == 13 &&
              memcmp(m.pattern, "/fish/salmon$", 13) == 0,
          "anchored");
    CHECK(path(&s, "/fish/salmon/", &m) == 1 && m.line == 4, "anchored no");
    /* The empty pattern is in the program (the root's Accept), matches
     * everything and still decides nothing: runtime/match.c, spec E.5. */
    CHECK(x.rank[3] == 1, "empty pattern has rank 1");
    CHECK(path(&s, "/other", &m) == 1 && m.decided == 0 && m.priority == 0 && m.line == 0 &&
              m.pattern && m.pattern_len == 0,
          "empty pattern never decides (E.5)");
    free(x.b);
}

/* ---- agents, sitemaps, directives --------------------------------------- */

static tp_prog agents_prog(void)
{
    tp_prog p;
    memset(&p, 0, sizeof p);
    p.n_rules = 4;
    p.rules[0] = (tp_rule){2, 0, "/foo"};
    p.rules[1] = (tp_rule){5, 0, "/news"};
    p.rules[2] = (tp_rule){8, 0, "/"};
    p.rules[3] = (tp_rule){11, 0, "/empty"};
    p.n_progs = 4;
    for (int i = 0; i < 4; i++)
        p.progs[i] = (tp_program){1, {i}};
    p.n_sets = 5;
    p.sets[0] = (tp_set){1, {0}}; /* foo */
    p.sets[1] = (tp_set){1, {1}}; /* foo-news */
    p.sets[2] = (tp_set){1, {2}}; /* global */
    p.sets[3] = (tp_set){0, {0}}; /* quiet: named, no rules */
    p.sets[4] = (tp_set){1, {3}}; /* "" (User-agent: *foo) */
    p.n_agents = 5;
    p.agents[0] = (tp_agent){"foo", 0};
    p.agents[1] = (tp_agent){"foo-news", 1};
    p.agents[2] = (tp_agent){"quiet", 3};
    p.agents[3] = (tp_agent){"", 4};
    p.agents[4] = (tp_agent){"foo_alias", 0};
    p.global = 2;
    p.n_groups = 4;
    p.groups[0] = (tp_group){1, {"foo", "foo_alias"}};
    p.groups[1] = (tp_group){4, {"foo-news"}};
    p.groups[2] = (tp_group){7, {"*"}};
    p.groups[3] = (tp_group){9, {"quiet", ""}};
    p.n_sitemaps = 2;
    p.sitemaps[0] = (tp_sitemap){12, "https://x/s1.xml"};
    p.sitemaps[1] = (tp_sitemap){13, "https://x/s2.xml"};
    p.n_dirs = 5;
    p.dirs[0] = (tp_dir){0, -1, "crawl-delay", "99"};
    p.dirs[1] = (tp_dir){3, 0, "Crawl-Delay", "1"};
    p.dirs[2] = (tp_dir){6, 1, "host", "h"};
    p.dirs[3] = (tp_dir){8, 2, "crawl-delay", "7"};
    p.dirs[4] = (tp_dir){10, 3, "crawl-delay", "3"};
    return p;
}

static void test_agents(void)
{
    tp_prog tp = agents_prog();
    for (unsigned w = 0; w <= 4; w++) { /* every column width */
        tp.width = w;
        tp.global = 2;
        built x;
        build(&x, &tp);
        rsc_program p = x.p;
        rsc_selection s;
        rsc_match m;

        s = sel1(&p, "FOO");
        CHECK(s.named && s.n_sets == 1 && s.n_agents == 1, "FOO named");
        CHECK(path(&s, "/foo", NULL) == 0 && path(&s, "/", NULL) == 1, "foo's rules only");
        s = sel1(&p, "foo/1.0");
        CHECK(!s.named && s.n_sets == 1 && path(&s, "/x", NULL) == 0,
              "agent with '/' is not cut (F.2): global");
        s = sel1(&p, "foo bar");
        CHECK(!s.named, "agent with a space");
        s = sel1(&p, "foobot");
        CHECK(!s.named, "no prefix matching");
        s = sel1(&p, "fo");
        CHECK(!s.named, "shorter");
        s = sel1(&p, "foo-newz");
        CHECK(!s.named, "one byte off");
        s = sel1(&p, "FOO_ALIAS");
        CHECK(s.named && path(&s, "/foo", NULL) == 0 && path(&s, "/news", NULL) == 1,
              "alias of foo's set");
        s = sel1(&p, "quiet");
        CHECK(s.named && s.n_sets == 1 && path(&s, "/", &m) == 1 && !m.decided,
              "named without rules: global ignored (F.6.2)");
        s = sel1(&p, "");
        CHECK(s.named && path(&s, "/empty", NULL) == 0 && path(&s, "/", NULL) == 1,
              "empty agent equals the empty token");
        rsc_bytes nul = {NULL, 0};
        CHECK(rsc_select(&p, &nul, 1, &s) == RSC_OK && s.named &&
                  path(&s, "/empty", NULL) == 0,
              "NULL agent of length 0: the empty token");

        rsc_bytes four[4] = {{"foo-NEWS", 8}, {"Foo", 3}, {"foo_alias", 9}, {"zzz", 3}};
        CHECK(rsc_select(&p, four, 4, &s) == RSC_OK, "select 4");
        CHECK(s.named && s.n_sets == 2 && s.n_agents == 3, "union, dedup: %u sets", s.n_sets);
        CHECK(path(&s, "/foo", NULL) == 0 && path(&s, "/news", NULL) == 0 &&
                  path(&s, "/x", NULL) == 1,
              "union of named sets");
        rsc_bytes same[2] = {{"foo", 3}, {"FOO", 3}};
        CHECK(rsc_select(&p, same, 2, &s) == RSC_OK && s.n_agents == 1 && s.n_sets == 1,
              "same agent twice");

        /* Directives: the first in the groups naming the agents, else global. */
        rsc_bytes v;
        uint32_t line;
        s = sel1(&p, "foo");
        CHECK(rsc_group_directive(&s, "CRAWL-DELAY", &v, &line) && line == 3 && v.len == 1 &&
                  v.ptr[0] == '1',
              "foo crawl-delay");
        CHECK(!rsc_group_directive(&s, "host", &v, &line), "host is foo-news's");
        CHECK(!rsc_group_directive(&s, "crawl-dela", &v, &line), "exact key");
        CHECK(!rsc_group_directive(&s, "crawl-delayy", &v, &line), "exact key, longer");
        CHECK(!rsc_group_directive(&s, NULL, &v, &line) && !rsc_group_directive(NULL, "host", &v, &line),
              "NULL arguments");
        s = sel1(&p, "bar");
        CHECK(rsc_group_directive(&s, "crawl-delay", &v, &line) && line == 8 && v.ptr[0] == '7',
              "global crawl-delay");
        s = sel1(&p, "");
        CHECK(rsc_group_directive(&s, "crawl-delay", &v, &line) && line == 10, "empty token group");
        CHECK(rsc_select(&p, four, 1, &s) == RSC_OK && rsc_group_directive(&s, "host", &v, NULL) &&
                  v.len == 1 && v.ptr[0] == 'h',
              "foo-news host");

        CHECK(rsc_sitemap_count(&p) == 2, "sitemaps");
        CHECK(rsc_sitemap_get(&p, 1, &line, &v) && line == 13 && v.len == 16 &&
                  memcmp(v.ptr, "https://x/s2.xml", 16) == 0,
              "sitemap 1");
        CHECK(rsc_sitemap_get(&p, 0, NULL, NULL), "sitemap with NULL outputs");
        line = 77;
        CHECK(!rsc_sitemap_get(&p, 2, &line, &v) && line == 77, "sitemap out of range");
        rsc_bytes k;
        CHECK(rsc_directive_count(&p) == 5 && rsc_directive_get(&p, 0, &line, &k, &v) &&
                  line == 0 && k.len == 11 && v.len == 2 && memcmp(v.ptr, "99", 2) == 0,
              "directive 0");
        CHECK(rsc_directive_get(&p, 1, &line, &k, &v) && line == 3 && k.len == 11 &&
                  memcmp(k.ptr, "Crawl-Delay", 11) == 0,
              "directive 1: key as written");
        CHECK(!rsc_directive_get(&p, 5, &line, &k, &v), "directive out of range");

        /* Arguments. */
        CHECK(rsc_select(&p, four, 0, &s) == RSC_E_ARG && s.n_sets == 0, "n == 0");
        CHECK(rsc_select(NULL, four, 1, &s) == RSC_E_ARG, "NULL prog");
        CHECK(rsc_select(&p, NULL, 1, &s) == RSC_E_ARG, "NULL agents");
        CHECK(rsc_select(&p, four, 1, NULL) == RSC_E_ARG, "NULL sel");
        rsc_bytes bad[2] = {{"foo", 3}, {NULL, 3}};
        CHECK(rsc_select(&p, bad, 2, &s) == RSC_E_ARG && s.prog == NULL && s.n_sets == 0,
              "NULL agent");
        CHECK(path(&s, "/foo", &m) == 0 && m.decided == 0 && m.allowed == 0,
              "failed selection: disallowed, nothing decided (fail closed)");
        CHECK(!rsc_group_directive(&s, "crawl-delay", &v, &line), "failed selection: no directive");
        free(x.b);

        /* No global group: an unnamed agent gets no sets at all. */
        tp.global = -1;
        build(&x, &tp);
        p = x.p;
        s = sel1(&p, "bar");
        CHECK(s.n_sets == 0 && !s.named && path(&s, "/", &m) == 1 && !m.decided, "no global");
        s = sel1(&p, "foo");
        CHECK(s.n_sets == 1 && path(&s, "/foo", NULL) == 0, "named without global");
        free(x.b);
    }
    /* A blob without AGENTS (nor global): nothing applies. */
    tp_prog none;
    tp_rule r = {1, 0, "/"};
    tp_one(&none, 1, &r);
    none.global = -1;
    built x;
    build(&x, &none);
    rsc_selection s = sel1(&x.p, "x");
    CHECK(s.n_sets == 0 && path(&s, "/", NULL) == 1, "no AGENTS section");
    free(x.b);
}

static void test_limit(void)
{
    static char names[40][4];
    tp_prog p;
    memset(&p, 0, sizeof p);
    rsc_bytes a[40];
    p.n_sets = 34;
    p.n_agents = 34;
    p.global = -1;
    for (int i = 0; i < 34; i++) {
        snprintf(names[i], sizeof names[i], "a%c%c", 'a' + i / 26, 'a' + i % 26);
        p.agents[i] = (tp_agent){names[i], i};
        a[i] = (rsc_bytes){names[i], 3};
    }
    built x;
    build(&x, &p);
    rsc_selection s;
    CHECK(rsc_select(&x.p, a, 32, &s) == RSC_OK && s.n_sets == 32, "32 sets");
    CHECK(rsc_select(&x.p, a, 33, &s) == RSC_E_LIMIT && s.n_sets == 0 && s.prog == NULL,
          "33 sets");
    free(x.b);
    /* 33 named agents of one set: the agent list is full too. */
    for (int i = 0; i < 34; i++)
        p.agents[i].set = 0;
    build(&x, &p);
    CHECK(rsc_select(&x.p, a, 32, &s) == RSC_OK && s.n_sets == 1 && s.n_agents == 32,
          "32 agents");
    CHECK(rsc_select(&x.p, a, 33, &s) == RSC_E_LIMIT && s.n_agents == 0, "33 agents");
    free(x.b);
}

/* ---- rfc profile, '/' in front, NUL, long paths ----------------------- */

/* rfc: /robots.txt allowed; percent-encoding normalised. RULES holds the
 * patterns as written (explanations, priorities) and their normalised
 * match texts (what paths are compared with), as the encoder does. */
static void test_rfc(void)
{
    for (int sh = 0; sh < SH_N; sh++) {
        tp_prog p;
        tp_rule r[5] = {{2, 0, "/"}, {3, 1, "/%7ea"}, {4, 1, "/%c3%a9"}, {5, 1, "/x%2fy$"},
                        {6, 1, "/*%2a*b$"}};
        tp_one(&p, 5, r);
        p.rfc = 1;
        shape(&p, sh);
        built x;
        build(&x, &p);
        CHECK(rsc_program_profile(&x.p) == 1, "rfc profile");
        rsc_selection s = sel1(&x.p, "x");
        rsc_match m;
        CHECK(path(&s, "/robots.txt", &m) == 1 && !m.decided, "robots.txt (shape %d)", sh);
        CHECK(path(&s, "/robots%2etxt", &m) == 1 && !m.decided &&
                  path(&s, "/robots%2Etxt", NULL) == 1 && path(&s, "/%72obots.txt", NULL) == 1,
              "robots.txt normalised");
        CHECK(path(&s, "/robots.txt?x", NULL) == 0 && path(&s, "/robots.tx", NULL) == 0 &&
                  path(&s, "/robots.txtx", NULL) == 0 && path(&s, "/Robots.txt", NULL) == 0 &&
                  path(&s, "/robots%2ftxt", NULL) == 0,
              "not robots.txt");
        CHECK(url(&s, "https://h/robots.txt") == 1 && url(&s, "https://h/robots.txt#x") == 1 &&
                  url(&s, "https://h/robots.txt?x") == 0,
              "url robots.txt");
        CHECK(path(&s, "/~a", NULL) == 1 && path(&s, "/%7ea", NULL) == 1 &&
                  path(&s, "/%7Eab", NULL) == 1,
              "unreserved decoded");
        CHECK(path(&s, "/%c3%a9", NULL) == 1 && path(&s, "/\xc3\xa9", NULL) == 1 &&
                  path(&s, "/\xc3\xa9x", NULL) == 1 && path(&s, "/%C3\xa9", NULL) == 1,
              "escapes upper-cased, bytes >= 0x80 encoded");
        CHECK(path(&s, "/\xc3", NULL) == 0 && path(&s, "/%C3", NULL) == 0, "partial");
        CHECK(path(&s, "/x%2fy", &m) == 1 && m.line == 5 && path(&s, "/x%2fyz", NULL) == 0 &&
                  path(&s, "/x/y", NULL) == 0,
              "reserved stays encoded");
        CHECK(path(&s, "/x%2Fy", &m) == 1 && m.line == 5 && m.priority == 7 &&
                  m.pattern_len == 7 && memcmp(m.pattern, "/x%2fy$", 7) == 0,
              "explained by the pattern as written, priority its length");
        CHECK(path(&s, "/~a", &m) == 1 && m.line == 3 && m.priority == 3 &&
                  m.pattern_len == 5 && memcmp(m.pattern, "/%7ea", 5) == 0,
              "explain /~a: the priority counts the match text /~a (RFC 9309 2.2.2)");
        CHECK(path(&s, "/%7", NULL) == 0 && path(&s, "/%", NULL) == 0 &&
                  path(&s, "/%g1", NULL) == 0 && path(&s, "/%%7ea", NULL) == 0,
              "invalid escapes");
        CHECK(path(&s, "/q%2a%62", &m) == 1 && m.line == 6 && path(&s, "/q*b", NULL) == 1 &&
                  path(&s, "/q$b", NULL) == 0,
              "glob over normalised bytes: %%2a stays, %%62 is 'b', a path's '*' is %%2A");
        CHECK(url(&s, "http://h/%7Ea#x") == 1, "url");
        CHECK(url(&s, "http://h?%7Ea") == 0, "url with '/' in front");
        free(x.b);
        /* The google profile compares bytes: no decoding; the match text
         * is the pattern. */
        p.rfc = 0;
        build(&x, &p);
        s = sel1(&x.p, "x");
        CHECK(rsc_program_profile(&x.p) == 0 && path(&s, "/robots.txt", NULL) == 0 &&
                  path(&s, "/~a", NULL) == 0 && path(&s, "/%7ea", NULL) == 1 &&
                  path(&s, "/%7Ea", NULL) == 0 && path(&s, "/\xc3\xa9", NULL) == 0 &&
                  path(&s, "/%c3%a9", NULL) == 1 && path(&s, "/%C3%A9", NULL) == 0,
              "google: byte for byte");
        free(x.b);
        /* The edges of the byte ranges: 0x7f as is, 0x80 and 0xff encoded,
         * %7f stays encoded, %2D ('-') and %5F ('_') decoded; in the
         * patterns too. */
        tp_rule e[5] = {{2, 0, "/\x80$"}, {3, 0, "/%ff$"}, {4, 0, "/\x7f$"}, {5, 0, "/%7f$"},
                        {6, 0, "/%2D_.%7e09AZaz$"}};
        tp_one(&p, 5, e);
        p.rfc = 1;
        shape(&p, sh);
        build(&x, &p);
        s = sel1(&x.p, "x");
        CHECK(path(&s, "/\x80", &m) == 0 && m.line == 2 && path(&s, "/%80", &m) == 0 &&
                  m.line == 2 && path(&s, "/\x80\x80", NULL) == 1,
              "0x80 encoded");
        CHECK(path(&s, "/\xff", &m) == 0 && m.line == 3 && path(&s, "/%ff", &m) == 0 && m.line == 3,
              "0xff encoded");
        CHECK(path(&s, "/\x7f", &m) == 0 && m.line == 4 && path(&s, "/%7f", &m) == 0 &&
                  m.line == 5 && path(&s, "/%7F", &m) == 0 && m.line == 5,
              "0x7f as is, %%7f stays encoded");
        CHECK(path(&s, "/%2D%5f%2E%7e%30%39%41%5A%61%7a", &m) == 0 && m.line == 6 &&
                  path(&s, "/-_.~09AZaz", NULL) == 0 && path(&s, "/%2d_.~09AZa%7A", NULL) == 0,
              "every unreserved class decoded");
        free(x.b);
    }
}

/* Spec G: a path starting with '?' or ';' gets a '/' in front. */
static void test_slash(void)
{
    for (int sh = 0; sh < SH_N; sh++) {
        for (int rfc = 0; rfc < 2; rfc++) {
            tp_prog p;
            tp_rule r[4] = {{2, 0, "/?a"}, {3, 0, "/;b$"}, {4, 1, "/?a*c$"}, {5, 0, "/$"}};
            tp_one(&p, 4, r);
            p.rfc = rfc;
            shape(&p, sh);
            built x;
            build(&x, &p);
            rsc_selection s = sel1(&x.p, "x");
            rsc_match m;
            CHECK(url(&s, "http://h?a") == 0 && url(&s, "http://h?ab") == 0 &&
                      url(&s, "http://h?b") == 1,
                  "?a");
            CHECK(url(&s, "http://h;b") == 0 && url(&s, "http://h;bc") == 1 &&
                      url(&s, "http://h/;b") == 0,
                  ";b$");
            CHECK(url(&s, "http://h?abc") == 1 && url(&s, "http://h?ac") == 1 &&
                      url(&s, "http://h?acd") == 0,
                  "?a*c$");
            CHECK(url(&s, "http://h") == 0 && url(&s, "http://h#x") == 0 &&
                      url(&s, "http://h/") == 0 && url(&s, "http://h/x") == 1,
                  "no path is \"/\"");
            CHECK(rsc_match_url(&s, "http://h?a", 10, &m) == 0 && m.line == 2 &&
                      m.pattern_len == 3 && memcmp(m.pattern, "/?a", 3) == 0,
                  "explain ?a");
            /* rsc_match_path does not put a '/' in front. */
            CHECK(path(&s, "?a", NULL) == 1 && path(&s, ";b", NULL) == 1, "path as given");
            if (rfc)
                CHECK(url(&s, "http://h?%61") == 0 && url(&s, "http://h;%62") == 0 &&
                          url(&s, "http://h?%61%62%63") == 1,
                      "'/' in front, then normalised");
            free(x.b);
        }
    }
}

/* The path ends at its first NUL (spec A.5) and, in a URL, at the first
 * '#' (spec G.4). rsc_match_url() leaves finding that end to the walk
 * (runtime/match.c), so each case puts the NUL or '#' where the walk
 * looks: right after a literal, after an End-anchored pattern, inside or
 * after a glob's match, after a '?' or a ';' path (a '/' put in front),
 * and in the rfc profile, whose paths are rewritten first. want: 1
 * allowed; line: the deciding rule (0: none). */
static void test_path_end(void)
{
    static const struct {
        const char *in;
        size_t n; /* 0: strlen */
        int is_url, rfc_only, google_only;
        int want;
        uint32_t line;
    } cases[] = {
        /* paths: NUL ends them; '#' is a byte */
        {"/a\0b", 4, 0, 0, 0, 0, 2},
        {"/\0a", 3, 0, 0, 0, 1, 0},
        {"/a\0", 3, 0, 0, 0, 0, 2},
        {"/abc\0d", 6, 0, 0, 0, 0, 5},
        {"/ab\0c", 5, 0, 0, 0, 1, 0},
        {"/x\0z", 4, 0, 0, 0, 1, 0},
        {"/xy\0z", 5, 0, 0, 0, 1, 0},
        {"/xz\0", 4, 0, 0, 0, 0, 4},
        {"/yz\0z", 5, 0, 0, 0, 0, 7},
        {"/ya\0z", 5, 0, 0, 0, 1, 0},
        {"/d\0x", 4, 0, 0, 0, 0, 11},
        {"/a#", 0, 0, 0, 0, 1, 0},
        {"/a#b", 0, 0, 0, 0, 1, 0},
        {"/yz#", 0, 0, 0, 0, 1, 0},
        {"/y#z", 0, 0, 0, 0, 0, 7},
        {"/a?b\0x", 6, 0, 0, 0, 0, 8},
        {"/%7\0eu", 6, 0, 0, 0, 1, 0},
        /* URLs: '#' right after a literal, after an End */
        {"http://h/a#b", 0, 1, 0, 0, 0, 2},
        {"http://h/a#", 0, 1, 0, 0, 0, 2},
        {"http://h/#a", 0, 1, 0, 0, 1, 0},
        {"http://h/ab#c", 0, 1, 0, 0, 1, 0},
        {"http://h/abc#", 0, 1, 0, 0, 0, 5},
        {"http://h/abc#d", 0, 1, 0, 0, 0, 5},
        {"http://h/abc##", 0, 1, 0, 0, 0, 5},
        {"http://h/abcd#", 0, 1, 0, 0, 1, 0},
        {"http://h/d#x", 0, 1, 0, 0, 0, 11},
        {"http://h/#d", 0, 1, 0, 0, 1, 0},
        {"http://h#/d", 0, 1, 0, 0, 1, 0},
        /* glob tails: the match must end before the '#' */
        {"http://h/xyz#q", 0, 1, 0, 0, 0, 4},
        {"http://h/xy#z", 0, 1, 0, 0, 1, 0},
        {"http://h/x#zz", 0, 1, 0, 0, 1, 0},
        {"http://h/yz#z", 0, 1, 0, 0, 0, 7},
        {"http://h/yzz#", 0, 1, 0, 0, 0, 7},
        {"http://h/yza#z", 0, 1, 0, 0, 1, 0},
        {"http://h/y#z", 0, 1, 0, 0, 1, 0},
        {"http://h/pq#r", 0, 1, 0, 0, 1, 0},
        {"http://h/pqr#", 0, 1, 0, 0, 0, 6},
        {"http://h/p#qr", 0, 1, 0, 0, 1, 0},
        {"http://h/pxqxr#pqr", 0, 1, 0, 0, 0, 6},
        /* '?' paths */
        {"http://h/a?b#c", 0, 1, 0, 0, 0, 8},
        {"http://h/a?b#", 0, 1, 0, 0, 0, 8},
        {"http://h/a?bc#", 0, 1, 0, 0, 1, 0},
        {"http://h/a?#b", 0, 1, 0, 0, 1, 0},
        {"http://h?c#x", 0, 1, 0, 0, 0, 9},
        {"http://h?c", 0, 1, 0, 0, 0, 9},
        {"http://h?cd#", 0, 1, 0, 0, 1, 0},
        {"http://h?#c", 0, 1, 0, 0, 1, 0},
        {"http://h;b#", 0, 1, 0, 0, 0, 3},
        {"http://h;b#c", 0, 1, 0, 0, 0, 3},
        {"http://h;bc#", 0, 1, 0, 0, 1, 0},
        /* NUL in URLs */
        {"http://h/a\0/b", 13, 1, 0, 0, 0, 2},
        {"http://h;b\0c", 12, 1, 0, 0, 0, 3},
        {"http://h;bb\0", 12, 1, 0, 0, 1, 0},
        {"http://h/abc\0#", 14, 1, 0, 0, 0, 5},
        {"http://h/a#\0", 12, 1, 0, 0, 0, 2},
        {"http://h/yz\0z#", 14, 1, 0, 0, 0, 7},
        /* rfc: normalised, "%23" is no '#'; google: byte for byte */
        {"http://h/%7Eu#x", 0, 1, 1, 0, 0, 10},
        {"http://h/~u#", 0, 1, 1, 0, 0, 10},
        {"http://h/~u%23", 0, 1, 1, 0, 1, 0},
        {"http://h/%7e#u", 0, 1, 1, 0, 1, 0},
        {"http://h/%7#eu", 0, 1, 1, 0, 1, 0},
        {"http://h/%61#", 0, 1, 1, 0, 0, 2},
        {"http://h/%7eu#x", 0, 1, 0, 1, 0, 10},
        {"http://h/~u#", 0, 1, 0, 1, 1, 0},
        {"http://h/%61#", 0, 1, 0, 1, 1, 0},
    };
    for (int sh = 0; sh < SH_N; sh++)
        for (int rfc = 0; rfc < 2; rfc++) {
            tp_prog p;
            tp_rule r[10] = {{2, 0, "/a$"},   {3, 0, "/;b$"}, {4, 0, "/x*z"},  {5, 0, "/abc$"},
                             {6, 0, "/p*q*r"}, {7, 0, "/y*z$"}, {8, 0, "/a?b$"}, {9, 0, "/?c$"},
                             {10, 0, "/%7eu$"}, {11, 0, "/d"}};
            tp_one(&p, 10, r);
            p.rfc = rfc;
            shape(&p, sh);
            built x;
            build(&x, &p);
            rsc_selection s = sel1(&x.p, "x");
            for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
                if ((cases[i].rfc_only && !rfc) || (cases[i].google_only && rfc))
                    continue;
                size_t n = cases[i].n ? cases[i].n : strlen(cases[i].in);
                rsc_match m;
                int got = cases[i].is_url ? rsc_match_url(&s, cases[i].in, n, &m)
                                          : rsc_match_path(&s, cases[i].in, n, &m);
                CHECK(got == cases[i].want && m.line == cases[i].line &&
                          m.decided == (cases[i].line != 0),
                      "path end (shape %d, rfc %d): %s '%.*s': got %d line %u, want %d line %u",
                      sh, rfc, cases[i].is_url ? "url" : "path", (int)n, cases[i].in, got, m.line,
                      cases[i].want, cases[i].line);
            }
            free(x.b);
        }
}

/* Long paths (up to 10,000 bytes), rewritten ('/' in front, rfc
 * normalisation) on the fly: the walk and the segment pass each read the
 * path once. */
static void test_long(void)
{
    size_t big = 10000;
    char *q = malloc(big + 64), *u = malloc(big + 64);
    for (int rfc = 0; rfc < 2; rfc++) {
        tp_prog p;
        tp_rule r[6] = {{2, 0, "/;a"},   {3, 1, "/;a*z$"}, {4, 0, "/;a*zq*y"},
                        {5, 1, "/;aaa$"}, {6, 0, "/;ab"},  {7, 0, "/;a*%C3*x"}};
        tp_one(&p, 6, r);
        p.rfc = rfc;
        built x;
        build(&x, &p);
        rsc_selection s = sel1(&x.p, "x");
        rsc_match m;
        static const size_t lens[] = {2, 3, 4, 7, 8, 9, 10, 8190, 8191, 8192, 8193, 9990};
        for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
            size_t n = lens[li];
            /* ";" + 'a' * (n-1): "/;a..." as a URL */
            memcpy(u, "http://h;", 9);
            memset(u + 9, 'a', n - 1);
            u[9 + n - 1] = 0;
            int got = rsc_match_url(&s, u, strlen(u), &m);
            int want_line = n == 4 ? 5 : n >= 2 ? 2 : 0; /* "/;aaa" is n == 4 */
            CHECK(got == (want_line == 5 || want_line == 0) && m.line == (uint32_t)want_line,
                  "rfc %d: ;a^%zu: line %u want %d", rfc, n - 1, m.line, want_line);
            /* '#' ends the path: "z" after it is not in the path */
            size_t ul = strlen(u);
            memcpy(u + ul, "#z", 3);
            CHECK(rsc_match_url(&s, u, strlen(u), &m) == (want_line == 5 || want_line == 0) &&
                      m.line == (uint32_t)want_line,
                  "rfc %d: ;a^%zu #z: line %u want %d", rfc, n - 1, m.line, want_line);
            u[ul] = 0;
            /* ...then "z": the anchored allow */
            strcat(u, "z");
            CHECK(rsc_match_url(&s, u, strlen(u), &m) == 1 && m.line == 3,
                  "rfc %d: ;a^%zu z: line %u", rfc, n - 1, m.line);
            memcpy(u + strlen(u), "#qy", 4);
            CHECK(rsc_match_url(&s, u, strlen(u), &m) == 1 && m.line == 3,
                  "rfc %d: ;a^%zu z#qy: line %u", rfc, n - 1, m.line);
            u[strlen(u) - 3] = 0;
            strcat(u, "qy");
            CHECK(rsc_match_url(&s, u, strlen(u), &m) == 0 && m.line == 4,
                  "rfc %d: ;a^%zu zqy: line %u", rfc, n - 1, m.line);
            memcpy(u + strlen(u), "#x", 3);
            CHECK(rsc_match_url(&s, u, strlen(u), &m) == 0 && m.line == 4,
                  "rfc %d: ;a^%zu zqy#x: line %u", rfc, n - 1, m.line);
            u[strlen(u) - 2] = 0;
            if (rfc) { /* "%c3" and a raw 0xC3 normalise to "%C3" */
                memcpy(u + strlen(u), "\xc3x", 3);
                CHECK(rsc_match_url(&s, u, strlen(u), &m) == 0 && m.line == 7,
                      "rfc: ;a^%zu zqy\\xc3x: line %u", n - 1, m.line);
                /* As a path: the same bytes with "/" instead of "http://h". */
                q[0] = '/';
                strcpy(q + 1, u + 8);
                CHECK(path(&s, q, &m) == 0 && m.line == 7, "rfc path ;a^%zu: line %u", n - 1,
                      m.line);
                memcpy(q + strlen(q) - 2, "%c3x", 5);
                CHECK(path(&s, q, &m) == 0 && m.line == 7, "rfc path %%c3 ;a^%zu: line %u",
                      n - 1, m.line);
                /* an escape cut by the end of the path */
                q[strlen(q) - 2] = 0;
                CHECK(path(&s, q, &m) == 0 && m.line == 4, "rfc path ending in %%c: line %u",
                      m.line);
            }
        }
        free(x.b);
    }
    /* Long paths against globs, checked with the reference. */
    for (int rfc = 0; rfc < 2; rfc++) {
        tp_prog p;
        tp_rule r[4] = {{2, 0, "/;*b*b$"}, {3, 1, "/;*ab*ba"}, {4, 0, "/;a*a*a*a*a$"}, {5, 1, "/;"}};
        tp_one(&p, 4, r);
        p.rfc = rfc;
        built x;
        build(&x, &p);
        rsc_selection s = sel1(&x.p, "x");
        uint32_t set0 = 0;
        for (int k = 0; k < 40; k++) {
            size_t n = k < 20 ? 4090 + (size_t)k : (size_t)k * 150;
            memcpy(u, "http://h;", 9);
            for (size_t i = 0; i < n; i++)
                u[9 + i] = "ab"[(i * 7 + (size_t)k) % 5 == 0];
            u[9 + n] = 0;
            if (k % 3 == 0)
                u[9 + n - 1] = 'b';
            rsc_match m;
            int got = rsc_match_url(&s, u, 9 + n, &m);
            q[0] = '/';
            memcpy(q + 1, u + 8, n + 1);
            check_ref("long glob", &p, x.rank, &set0, 1, (const uint8_t *)q, n + 2, got, &m, 0);
        }
        free(x.b);
    }
    free(q);
    free(u);
}

/* ---- randomised comparison with the reference ---------------------------- */

static uint64_t rng = 0x243F6A8885A308D3u;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static void test_random(void)
{
    static const char palpha[] = "/ab;?*";
    static const char qalpha[] = "/ab;?";
    static const char rfc_alpha[] = "/a%4162cC~*\xc3\x80\xff\x7f";
    static const char rfc_qalpha[] = "/a%4162cC~\xc3\x80\xff\x7f";
    char pats[8][40];
    uint8_t *q = malloc(5000), *eff = malloc(3 * 5000 + 2), *tmp = malloc(5002);
    char *u = malloc(5100);
    long compared = 0;
    for (int it = 0; it < RT_RANDOM; it++) {
        tp_prog tp;
        memset(&tp, 0, sizeof tp);
        int rfc = it % 4 == 3;
        const char *pa = rfc ? rfc_alpha : palpha, *qa = rfc ? rfc_qalpha : qalpha;
        size_t npa = strlen(pa), nqa = strlen(qa);
        tp.rfc = rfc;
        tp.n_rules = 1 + rnd() % 8;
        for (size_t i = 0; i < tp.n_rules; i++) {
            char raw[16];
            size_t len = 1 + rnd() % 8;
            for (size_t k = 0; k < len; k++)
                raw[k] = pa[rnd() % npa];
            if (rnd() % 10 < 8)
                raw[0] = '/';
            /* rfc: the pattern as written (the builder stores its
             * normalised match text) or already normalised */
            size_t pl = rfc && rnd() % 2 ? tp_normalise((const uint8_t *)raw, len, (uint8_t *)pats[i])
                                         : (memcpy(pats[i], raw, len), len);
            if (rnd() % 10 < 3)
                pats[i][pl++] = '$';
            pats[i][pl] = 0;
            tp.rules[i] = (tp_rule){(uint32_t)i + 1, (int)(rnd() % 2), pats[i]};
        }
        tp.n_progs = 1 + rnd() % 3;
        for (size_t i = 0; i < tp.n_rules; i++) {
            tp_program *pg = &tp.progs[rnd() % tp.n_progs];
            pg->rules[pg->n++] = (int)i;
        }
        tp.n_sets = 1 + rnd() % 2;
        for (size_t k = 0; k < tp.n_sets; k++)
            for (size_t j = 0; j < tp.n_progs; j++)
                if (rnd() % 3)
                    tp.sets[k].progs[tp.sets[k].n++] = (int)j;
        tp.n_agents = 2;
        tp.agents[0] = (tp_agent){"a", 0};
        tp.agents[1] = (tp_agent){"b", (int)tp.n_sets - 1};
        tp.global = rnd() % 2 ? (int)(rnd() % tp.n_sets) : -1;
        tp.uncompressed = rnd() % 4 == 0;
        tp.width = rnd() % 5;
        built x;
        build(&x, &tp);
        for (int k = 0; k < 16; k++) {
            static const char *const agents[][2] = {{"a", NULL}, {"B", NULL}, {"a", "b"}, {"zz", NULL}};
            int ai = (int)(rnd() % 4);
            rsc_bytes a[2];
            size_t na = agents[ai][1] ? 2 : 1;
            uint32_t sets[2];
            size_t ns = 0;
            for (size_t i = 0; i < na; i++)
                a[i] = (rsc_bytes){agents[ai][i], strlen(agents[ai][i])};
            if (ai == 0 || ai == 2)
                sets[ns++] = 0;
            if (ai == 1 || ai == 2)
                if (!ns || sets[0] != tp.n_sets - 1)
                    sets[ns++] = (uint32_t)tp.n_sets - 1;
            if (ai == 3 && tp.global >= 0)
                sets[ns++] = (uint32_t)tp.global;
            rsc_selection s;
            if (rsc_select(&x.p, a, na, &s) != RSC_OK || s.n_sets != ns) {
                CHECK(0, "random %d: select %d: %u sets, want %zu", it, ai, s.n_sets, ns);
                continue;
            }
            size_t n = rnd() % 12;
            if (rnd() % 40 == 0)
                n = 4090 + rnd() % 900; /* past the default path buffer */
            for (size_t i = 0; i < n; i++)
                q[i] = (uint8_t)qa[rnd() % nqa];
            if (n && rnd() % 10 < 7)
                q[0] = '/';
            if (n > 4000) { /* make long ones likelier to match something */
                size_t rl = strlen(tp.rules[0].pat);
                for (size_t i = 0; i + 1 < rl && i + 1 < n; i++)
                    if (tp.rules[0].pat[i + 1] != '*' && tp.rules[0].pat[i + 1] != '$')
                        q[n - rl + i] = (uint8_t)tp.rules[0].pat[i + 1];
            }
            /* As a path: no '/' in front. */
            rsc_match m;
            int got = rsc_match_path(&s, (const char *)q, n, &m);
            size_t en = rfc ? tp_normalise_path(q, n, eff) : n;
            if (!rfc)
                memcpy(eff, q, n);
            int robots = rfc && en == 11 && memcmp(eff, "/robots.txt", 11) == 0;
            check_ref("random path", &tp, x.rank, sets, ns, eff, en, got, &m, robots);
            /* As a URL: "http://h" + the path; one starting with '?' or ';'
             * gets a '/' in front. */
            if (n && q[0] != '/' && q[0] != '?' && q[0] != ';')
                continue;
            memcpy(u, "http://h", 8);
            memcpy(u + 8, q, n);
            got = rsc_match_url(&s, u, 8 + n, &m);
            size_t tn = 0;
            if (!n || q[0] != '/')
                tmp[tn++] = '/';
            memcpy(tmp + tn, q, n);
            tn += n;
            en = rfc ? tp_normalise_path(tmp, tn, eff) : tn;
            if (!rfc)
                memcpy(eff, tmp, tn);
            robots = rfc && en == 11 && memcmp(eff, "/robots.txt", 11) == 0;
            check_ref("random url", &tp, x.rank, sets, ns, eff, en, got, &m, robots);
            compared += 2;
        }
        free(x.b);
        if (tu_failures > 20)
            break;
    }
    printf("random: %ld verdicts compared with the reference\n", compared);
    free(q), free(eff), free(tmp), free(u);
}

static void test_strerror(void)
{
    int codes[] = {RSC_OK,          RSC_E_ARG,   RSC_E_NOMEM,   RSC_E_LIMIT,
                   RSC_E_IO,        RSC_E_TRUNCATED, RSC_E_MAGIC, RSC_E_VERSION,
                   RSC_E_CHECKSUM,  RSC_E_CORRUPT, RSC_E_SIZE};
    const char *unknown = rsc_strerror(9999);
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) {
        const char *s = rsc_strerror(codes[i]);
        CHECK(s && *s && s != unknown, "strerror(%d)", codes[i]);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(s, rsc_strerror(codes[j])) != 0, "distinct %d %d", codes[i], codes[j]);
    }
    CHECK(rsc_strerror(-1) == unknown && rsc_strerror(5) == unknown && unknown && *unknown,
          "unknown codes");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--dump") == 0) {
        tp_prog p = example_prog();
        size_t n;
        uint8_t *b = tp_build(&p, &n, NULL);
        tb_hexdump(b, n);
        free(b);
        return 0;
    }
    test_example();
    test_example2();
    test_literals();
    test_trie_shapes();
    test_chain();
    test_fail_budget();
    test_priority_and_explain();
    test_agents();
    test_limit();
    test_slash();
    test_strerror();
    test_labels();
    /* Every test of hand-built wildcard blobs, on automata without labels,
     * with every label an encoder makes, and with labels of at most 1 and
     * 2 bytes (some states kept that could be left out): the same checks,
     * the same verdicts. */
    static const uint32_t modes[] = {0, TT_LABELS_ALL, 1, 2};
    for (size_t k = 0; k < sizeof modes / sizeof *modes; k++) {
        g_labels = modes[k];
        int before = tu_passed;
        test_globs();
        test_long_segments();
        test_ranks();
        test_levels();
        test_automaton();
        test_internal();
        test_many_edges();
        test_programs_and_sets();
        test_many_programs();
        test_rfc();
        test_path_end();
        test_long();
        test_random();
        printf("labels %s: %d checks passed\n",
               modes[k] == 0 ? "off" : modes[k] == TT_LABELS_ALL ? "all" : modes[k] == 1 ? "<= 1" : "<= 2",
               tu_passed - before);
    }
    return tu_report("runtime match", tu_passed);
}
