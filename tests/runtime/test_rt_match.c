/* Runtime matching on hand-built blobs: each op, early stop, the rfc
 * profile, agent selection, explanations, sitemaps and directives.
 * `test_rt_match --dump` prints the FORMAT.md example blob. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/format.h"
#include "robotsc/runtime.h"
#include "rt_builder.h"
#include "testutil.h"

static int passed;
#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        TU_CHECK(cond, __VA_ARGS__);                                          \
        passed += !!(cond);                                                   \
    } while (0)

static rsc_program load_or_die(const uint8_t *b, size_t n)
{
    rsc_program p;
    rsc_load_error e;
    rsc_status st = rsc_load(&p, b, n, &e);
    if (st != RSC_OK) {
        fprintf(stderr, "load failed: %s at %zu: %s\n", rsc_strerror(st), e.offset, e.what);
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

/* The FORMAT.md example: "User-agent: *\nDisallow: /a\n". */
static uint8_t *example(size_t *n)
{
    tp_prog p = {0};
    p.n_rules = 1;
    p.rules[0] = (tp_rule){2, 0, "/a", TP_LIT};
    p.n_sets = 1;
    p.sets[0].n = 1;
    p.global = 0;
    p.n_groups = 1;
    p.groups[0].line = 1;
    p.groups[0].toks[0] = "*";
    return tp_build(&p, n);
}

static void test_example(void)
{
    size_t n;
    uint8_t *b = example(&n);
    rsc_program p = load_or_die(b, n);
    CHECK(n == 236, "example size %zu", n);
    CHECK(rsc_program_profile(&p) == 0, "profile");
    rsc_selection s = sel1(&p, "foobot");
    CHECK(s.named == 0 && s.n_sets == 1, "global selected");
    rsc_match m;
    CHECK(path(&s, "/a", &m) == 0, "/a");
    CHECK(m.allowed == 0 && m.decided == 1 && m.line == 2 && m.rule_allow == 0 &&
              m.priority == 2 && m.pattern_len == 2 && memcmp(m.pattern, "/a", 2) == 0,
          "explain /a");
    CHECK(path(&s, "/abc", NULL) == 0, "/abc");
    CHECK(path(&s, "/b", &m) == 1 && m.decided == 0 && m.line == 0, "/b");
    CHECK(path(&s, "/", NULL) == 1, "/");
    CHECK(path(&s, "", NULL) == 1, "empty");
    CHECK(rsc_match_path(&s, NULL, 0, NULL) == 1, "NULL empty");
    CHECK(rsc_match_path(&s, "/a\0b", 4, NULL) == 0, "NUL after /a");
    CHECK(rsc_match_path(&s, "/\0a", 3, NULL) == 1, "NUL cuts the path (A.5)");
    CHECK(url(&s, "http://example.com/a?x") == 0, "url /a");
    CHECK(url(&s, "http://example.com/b#/a") == 1, "url fragment");
    CHECK(url(&s, "http://example.com") == 1, "url no path");
    CHECK(url(&s, "example.com/a") == 0, "scheme-less");
    CHECK(rsc_match_url(&s, NULL, 0, NULL) == 1, "NULL url");
    CHECK(rsc_sitemap_count(&p) == 0 && rsc_directive_count(&p) == 0, "no sitemaps");
    free(b);
}

/* One pattern per op mode, checked against a direct comparison. */
static int ref_match(const char *pat, const char *p)
{
    size_t lp = strlen(pat), n = strlen(p);
    if (lp && pat[lp - 1] == '$')
        return n == lp - 1 && memcmp(pat, p, n) == 0;
    return n >= lp && memcmp(pat, p, lp) == 0;
}

static void test_ops(void)
{
    static const char *pats[] = {"/abc", "/abc$", "/a", "/$x", "/aa$", "/x/y/zz", "/;a", "/;ab$"};
    static const char *paths[] = {"/", "/a", "/ab", "/abc", "/abcd", "/abd", "/aa", "/aab",
                                  "/$x", "/$xy", "/x/y/zz", "/x/y/z", "/x/y/zzz", "/A", "",
                                  "/;", "/;a", "/;ab", "/;abc"};
    for (int mode = TP_LIT; mode <= TP_TABLE; mode++)
        for (size_t i = 0; i < sizeof pats / sizeof *pats; i++) {
            tp_prog p = {0};
            p.n_rules = 1;
            p.rules[0] = (tp_rule){5, 0, pats[i], mode};
            p.n_sets = 1;
            p.sets[0].n = 1;
            p.global = 0;
            size_t n;
            uint8_t *b = tp_build(&p, &n);
            rsc_program pr = load_or_die(b, n);
            rsc_selection s = sel1(&pr, "x");
            for (size_t j = 0; j < sizeof paths / sizeof *paths; j++) {
                int want = !ref_match(pats[i], paths[j]);
                CHECK(path(&s, paths[j], NULL) == want, "mode %d %s on %s", mode, pats[i], paths[j]);
                /* The stream loop (a '/' put in front) agrees with the fast one. */
                if (paths[j][0] == '/') {
                    char u[64], q[64];
                    snprintf(u, sizeof u, "http://h;%s", paths[j] + 1);
                    snprintf(q, sizeof q, "/;%s", paths[j] + 1);
                    CHECK(url(&s, u) == path(&s, q, NULL) && url(&s, u) == !ref_match(pats[i], q),
                          "mode %d %s on url %s", mode, pats[i], u);
                }
            }
            free(b);
        }
}

/* "/a*c" by hand: LIT "/a", then a SPARSE loop until 'c'. Also checks the
 * early stop: with a Ceiling of 0 on the loop state the run stops before
 * reaching the accepting state. */
static uint8_t *star_blob(size_t *n, uint32_t loop_ceiling)
{
    bb str = {0}, rules = {0}, auts = {0}, sets = {0}, agents = {0};
    tb_state st[3] = {{0}};
    st[0] = (tb_state){.op = RSC_OP_LIT, .ceiling = 1, .bytes = "/a", .nbytes = 2};
    st[0].t[0] = 1;
    st[1] = (tb_state){.op = RSC_OP_SPARSE, .ceiling = loop_ceiling, .bytes = "c", .nbytes = 1};
    st[1].t[0] = 2, st[1].t[1] = 1;
    st[2] = (tb_state){.op = RSC_OP_SPARSE, .accept = 1, .ceiling = 0};
    st[2].t[0] = TB_NONE;
    bb_raw(&str, "/a*c", 4);
    bb_u32(&rules, 1), bb_u32(&rules, 2), bb_u32(&rules, 4), bb_u32(&rules, 0), bb_u32(&rules, 4);
    bb_u32(&auts, 1), bb_u32(&auts, 8);
    tb_automaton(&auts, st, 3, 0, NULL, 0);
    bb_u32(&sets, 1), bb_u32(&sets, 1), bb_u32(&sets, 0), bb_u32(&sets, 1), bb_u32(&sets, 0);
    bb_u32(&agents, 0), bb_u32(&agents, 0);
    tb_section s[] = {{1, 0, &str}, {2, 0, &rules}, {3, 0, &auts}, {4, 0, &sets}, {5, 0, &agents}};
    uint8_t *b = tb_blob(0, s, 5, n);
    bb_free(&str), bb_free(&rules), bb_free(&auts), bb_free(&sets), bb_free(&agents);
    return b;
}

static void test_star_and_ceiling(void)
{
    size_t n;
    uint8_t *b = star_blob(&n, 1);
    rsc_program p = load_or_die(b, n);
    rsc_selection s = sel1(&p, "x");
    CHECK(path(&s, "/ac", NULL) == 0, "/ac");
    CHECK(path(&s, "/axyzc", NULL) == 0, "/axyzc");
    CHECK(path(&s, "/axyzcq", NULL) == 0, "/axyzcq");
    CHECK(path(&s, "/axyz", NULL) == 1, "/axyz");
    CHECK(path(&s, "/bc", NULL) == 1, "/bc");
    free(b);
    /* Verifiers check the Ceiling's range only; a low one stops early. */
    b = star_blob(&n, 0);
    p = load_or_die(b, n);
    s = sel1(&p, "x");
    CHECK(path(&s, "/axyzc", NULL) == 1, "early stop at Ceiling 0");
    free(b);
}

/* Two rules in separate automata: the max rank wins, so the later automaton
 * starts with the earlier one's result and stops at once. */
static void test_priority_and_explain(void)
{
    tp_prog p = {0};
    p.n_rules = 5;
    p.rules[0] = (tp_rule){3, 0, "/fish", TP_LIT};
    p.rules[1] = (tp_rule){4, 1, "/fish", TP_SPARSE};     /* tie: allow wins */
    p.rules[2] = (tp_rule){5, 0, "/fish/salmon$", TP_TABLE};
    p.rules[3] = (tp_rule){6, 0, "", TP_LIT};              /* priority 0 */
    p.rules[4] = (tp_rule){7, 0, "/fish", TP_TABLE};       /* later line loses */
    p.n_sets = 1;
    p.sets[0].n = 5;
    for (int i = 0; i < 5; i++)
        p.sets[0].rules[i] = i;
    p.global = 0;
    size_t n;
    uint8_t *b = tp_build(&p, &n);
    rsc_program pr = load_or_die(b, n);
    rsc_selection s = sel1(&pr, "x");
    rsc_match m;
    CHECK(path(&s, "/fish/", &m) == 1 && m.decided && m.line == 4 && m.rule_allow == 1 &&
              m.priority == 5 && m.pattern_len == 5,
          "tie reported as the allow, line %u", m.line);
    CHECK(path(&s, "/fish/salmon", &m) == 0 && m.line == 5 && m.priority == 13 &&
              m.pattern_len == 13 && memcmp(m.pattern, "/fish/salmon$", 13) == 0,
          "anchored");
    CHECK(path(&s, "/fish/salmon/", &m) == 1 && m.line == 4, "anchored no");
    CHECK(path(&s, "/other", &m) == 1 && m.decided == 0 && m.priority == 0 && m.line == 0 &&
              m.pattern && m.pattern_len == 0,
          "empty pattern never decides (E.5)");
    free(b);
}

static tp_prog agents_prog(void)
{
    tp_prog p = {0};
    p.n_rules = 4;
    p.rules[0] = (tp_rule){2, 0, "/foo", TP_LIT};
    p.rules[1] = (tp_rule){5, 0, "/news", TP_SPARSE};
    p.rules[2] = (tp_rule){8, 0, "/", TP_TABLE};
    p.rules[3] = (tp_rule){11, 0, "/empty", TP_LIT};
    p.n_sets = 5;
    p.sets[0].n = 1, p.sets[0].rules[0] = 0; /* foo */
    p.sets[1].n = 1, p.sets[1].rules[0] = 1; /* foo-news */
    p.sets[2].n = 1, p.sets[2].rules[0] = 2; /* global */
    p.sets[3].n = 0;                         /* quiet: named, no rules */
    p.sets[4].n = 1, p.sets[4].rules[0] = 3; /* "" (User-agent: *foo) */
    p.n_agents = 5;
    p.agents[0].tok = "foo", p.agents[0].set = 0;
    p.agents[1].tok = "foo-news", p.agents[1].set = 1;
    p.agents[2].tok = "quiet", p.agents[2].set = 3;
    p.agents[3].tok = "", p.agents[3].set = 4;
    p.agents[4].tok = "foo_alias", p.agents[4].set = 0;
    p.global = 2;
    p.n_groups = 4;
    p.groups[0] = (tp_group){1, {"foo", "foo_alias"}};
    p.groups[1] = (tp_group){4, {"foo-news"}};
    p.groups[2] = (tp_group){7, {"*"}};
    p.groups[3] = (tp_group){9, {"quiet", ""}};
    p.n_sitemaps = 2;
    p.sitemaps[0].line = 12, p.sitemaps[0].url = "https://x/s1.xml";
    p.sitemaps[1].line = 13, p.sitemaps[1].url = "https://x/s2.xml";
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
    size_t n;
    uint8_t *b = tp_build(&tp, &n);
    rsc_program p = load_or_die(b, n);
    rsc_selection s;
    rsc_match m;

    s = sel1(&p, "FOO");
    CHECK(s.named && s.n_sets == 1, "FOO named");
    CHECK(path(&s, "/foo", NULL) == 0 && path(&s, "/", NULL) == 1, "foo's rules only");
    s = sel1(&p, "foo/1.0");
    CHECK(!s.named && path(&s, "/x", NULL) == 0, "agent with '/' is not cut (F.2)");
    s = sel1(&p, "foo bar");
    CHECK(!s.named, "agent with a space");
    s = sel1(&p, "foobot");
    CHECK(!s.named, "no prefix matching");
    s = sel1(&p, "fo");
    CHECK(!s.named, "shorter");
    s = sel1(&p, "quiet");
    CHECK(s.named && s.n_sets == 1 && path(&s, "/", &m) == 1 && !m.decided,
          "named without rules: global ignored (F.6.2)");
    s = sel1(&p, "");
    CHECK(s.named && path(&s, "/empty", NULL) == 0 && path(&s, "/", NULL) == 1,
          "empty agent equals the empty token");

    rsc_bytes two[4] = {{"foo-NEWS", 8}, {"Foo", 3}, {"foo_alias", 9}, {"zzz", 3}};
    CHECK(rsc_select(&p, two, 4, &s) == RSC_OK, "select 4");
    CHECK(s.named && s.n_sets == 2 && s.n_agents == 3, "union, dedup: %u sets", s.n_sets);
    CHECK(path(&s, "/foo", NULL) == 0 && path(&s, "/news", NULL) == 0 &&
              path(&s, "/x", NULL) == 1,
          "union of named sets");

    /* Directives: the first in the groups naming the agents, else global. */
    rsc_bytes v;
    uint32_t line;
    s = sel1(&p, "foo");
    CHECK(rsc_group_directive(&s, "CRAWL-DELAY", &v, &line) && line == 3 &&
              v.len == 1 && v.ptr[0] == '1',
          "foo crawl-delay");
    CHECK(!rsc_group_directive(&s, "host", &v, &line), "host is foo-news's");
    CHECK(!rsc_group_directive(&s, "crawl-dela", &v, &line), "exact key");
    s = sel1(&p, "bar");
    CHECK(rsc_group_directive(&s, "crawl-delay", &v, &line) && line == 8 && v.ptr[0] == '7',
          "global crawl-delay");
    s = sel1(&p, "");
    CHECK(rsc_group_directive(&s, "crawl-delay", &v, &line) && line == 10, "empty token group");
    CHECK(rsc_select(&p, two, 1, &s) == RSC_OK &&
              rsc_group_directive(&s, "host", &v, NULL) && v.ptr[0] == 'h',
          "foo-news host");

    CHECK(rsc_sitemap_count(&p) == 2, "sitemaps");
    CHECK(rsc_sitemap_get(&p, 1, &line, &v) && line == 13 && v.len == 16 &&
              memcmp(v.ptr, "https://x/s2.xml", 16) == 0,
          "sitemap 1");
    line = 77;
    CHECK(!rsc_sitemap_get(&p, 2, &line, &v) && line == 77, "sitemap out of range");
    rsc_bytes k;
    CHECK(rsc_directive_count(&p) == 5 && rsc_directive_get(&p, 0, &line, &k, &v) &&
              line == 0 && k.len == 11 && v.len == 2,
          "directive 0");
    CHECK(!rsc_directive_get(&p, 5, &line, &k, &v), "directive out of range");

    /* Arguments. */
    CHECK(rsc_select(&p, two, 0, &s) == RSC_E_ARG && s.n_sets == 0, "n == 0");
    CHECK(rsc_select(NULL, two, 1, &s) == RSC_E_ARG, "NULL prog");
    CHECK(rsc_select(&p, NULL, 1, &s) == RSC_E_ARG, "NULL agents");
    CHECK(rsc_select(&p, two, 1, NULL) == RSC_E_ARG, "NULL sel");
    rsc_bytes bad = {NULL, 3};
    CHECK(rsc_select(&p, &bad, 1, &s) == RSC_E_ARG && s.prog == NULL, "NULL agent");
    CHECK(path(&s, "/foo", &m) == 1 && m.decided == 0, "failed selection allows");
    free(b);

    /* No global group: an unnamed agent gets no sets at all. */
    tp.global = -1;
    b = tp_build(&tp, &n);
    p = load_or_die(b, n);
    s = sel1(&p, "bar");
    CHECK(s.n_sets == 0 && !s.named && path(&s, "/", &m) == 1 && !m.decided, "no global");
    CHECK(!rsc_group_directive(&s, "crawl-delay", &v, &line) || line == 8,
          "global directive still found by '*'");
    free(b);
}

static void test_limit(void)
{
    static char names[40][4];
    tp_prog p = {0};
    rsc_bytes a[40];
    p.n_sets = 34;
    p.n_agents = 34;
    p.global = -1;
    for (int i = 0; i < 34; i++) {
        snprintf(names[i], sizeof names[i], "a%c%c", 'a' + i / 26, 'a' + i % 26);
        p.agents[i].tok = names[i];
        p.agents[i].set = i;
        a[i] = (rsc_bytes){names[i], 3};
    }
    size_t n;
    uint8_t *b = tp_build(&p, &n);
    rsc_program pr = load_or_die(b, n);
    rsc_selection s;
    CHECK(rsc_select(&pr, a, 32, &s) == RSC_OK && s.n_sets == 32, "32 sets");
    CHECK(rsc_select(&pr, a, 33, &s) == RSC_E_LIMIT && s.n_sets == 0, "33 sets");
    free(b);
}

/* rfc: /robots.txt allowed; percent-encoding normalised on the fly. The
 * patterns are stored normalised, as the encoder would. */
static void test_rfc(void)
{
    for (int mode = TP_LIT; mode <= TP_TABLE; mode++) {
        tp_prog p = {0};
        p.rfc = 1;
        p.n_rules = 4;
        p.rules[0] = (tp_rule){2, 0, "/", mode};
        p.rules[1] = (tp_rule){3, 1, "/~a", mode};
        p.rules[2] = (tp_rule){4, 1, "/%C3%A9", mode};
        p.rules[3] = (tp_rule){5, 1, "/x%2Fy$", mode};
        p.n_sets = 1;
        p.sets[0].n = 4;
        for (int i = 0; i < 4; i++)
            p.sets[0].rules[i] = i;
        p.global = 0;
        size_t n;
        uint8_t *b = tp_build(&p, &n);
        rsc_program pr = load_or_die(b, n);
        CHECK(rsc_program_profile(&pr) == 1, "rfc profile");
        rsc_selection s = sel1(&pr, "x");
        rsc_match m;
        CHECK(path(&s, "/robots.txt", &m) == 1 && !m.decided, "robots.txt (mode %d)", mode);
        CHECK(path(&s, "/robots%2etxt", NULL) == 1, "robots.txt normalised");
        CHECK(path(&s, "/robots.txt?x", NULL) == 0, "robots.txt?x");
        CHECK(path(&s, "/robots.tx", NULL) == 0, "robots.tx");
        CHECK(url(&s, "https://h/robots.txt") == 1, "url robots.txt");
        CHECK(path(&s, "/~a", NULL) == 1 && path(&s, "/%7ea", NULL) == 1 &&
                  path(&s, "/%7Eab", NULL) == 1,
              "unreserved decoded");
        CHECK(path(&s, "/%c3%a9", NULL) == 1 && path(&s, "/\xc3\xa9", NULL) == 1 &&
                  path(&s, "/\xc3\xa9x", NULL) == 1,
              "escapes upper-cased, bytes >= 0x80 encoded");
        CHECK(path(&s, "/\xc3", NULL) == 0, "partial");
        CHECK(path(&s, "/x%2fy", NULL) == 1 && path(&s, "/x%2fyz", NULL) == 0 &&
                  path(&s, "/x/y", NULL) == 0,
              "reserved stays encoded");
        CHECK(path(&s, "/%7", NULL) == 0 && path(&s, "/%", NULL) == 0 && path(&s, "/%g1", NULL) == 0,
              "invalid escapes");
        CHECK(url(&s, "http://h/%7Ea#x") == 1, "url");
        free(b);
        /* The google profile compares bytes: no decoding. */
        p.rfc = 0;
        b = tp_build(&p, &n);
        pr = load_or_die(b, n);
        s = sel1(&pr, "x");
        CHECK(path(&s, "/robots.txt", NULL) == 0 && path(&s, "/%7ea", NULL) == 0 &&
                  path(&s, "/\xc3\xa9", NULL) == 0 && path(&s, "/%C3%A9", NULL) == 1,
              "google: byte for byte");
        free(b);
    }
}

static void test_strerror(void)
{
    int codes[] = {RSC_OK, RSC_E_ARG, RSC_E_NOMEM, RSC_E_LIMIT, RSC_E_IO, RSC_E_TRUNCATED,
                   RSC_E_MAGIC, RSC_E_VERSION, RSC_E_CHECKSUM, RSC_E_CORRUPT, RSC_E_SIZE};
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
        size_t n;
        uint8_t *b = example(&n);
        tb_hexdump(b, n);
        free(b);
        return 0;
    }
    test_example();
    test_ops();
    test_star_and_ceiling();
    test_priority_and_explain();
    test_agents();
    test_limit();
    test_rfc();
    test_strerror();
    return tu_report("runtime match", passed);
}
