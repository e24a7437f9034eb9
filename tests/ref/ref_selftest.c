/* SPDX-License-Identifier: Apache-2.0 */
/* Validates the reference matcher (ref_robots.c) against the conformance
 * data: every verdict row of google_cases.tsv and google_extra_cases.tsv,
 * the URL-to-path, escaping and agent helper rows, and hand-written checks
 * of what the data cannot pin down (deciding line, priority, rfc profile).
 * Usage: ref_selftest CONFORMANCE_DIR. Exit 77 when the directory is absent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_robots.h"
#include "testutil.h"

static int passed;

static void verdict_file(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    tu_case *cases = NULL;
    size_t n = 0;
    long rows = tu_load_cases(path, &cases, &n);
    TU_CHECK(rows > 0, "%s: no rows", path);
    for (size_t i = 0; i < n; i++) {
        const tu_case *c = &cases[i];
        ref_str ag = {c->agent, c->agent_len};
        ref_verdict v = ref_check((const char *)c->body, c->body_len, &ag, 1,
                                  c->url, c->url_len, 0, 0);
        if (v.allowed == c->expected)
            passed++;
        else
            TU_CHECK(v.allowed == c->expected, "%s: %s: got %d, expected %d",
                     name, c->id, v.allowed, c->expected);
    }
    printf("%s: %zu rows\n", name, n);
    tu_free_cases(cases, n);
}

/* Helper rows that concern the matcher: URL to path, escaping, agents. */
static void helper_file(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    TU_CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    char *line;
    int used = 0;
    while ((line = tu_getline(f)) != NULL) {
        char *fl[5];
        size_t nf = tu_split_tabs(line, fl, 5);
        if (nf < 3) {
            free(line);
            continue;
        }
        const char *fn = fl[1];
        size_t in_len, exp_len;
        char *in = tu_unescape(fl[2], &in_len);
        char *exp = tu_unescape(nf > 3 ? fl[3] : "", &exp_len);
        char *out = malloc(3 * in_len + 4);
        size_t out_len = (size_t)-1;
        if (strcmp(fn, "GetPathParamsQuery") == 0)
            out_len = ref_url_path(in, in_len, out);
        else if (strcmp(fn, "MaybeEscapePattern") == 0)
            out_len = ref_escape(in, in_len, out);
        else if (strcmp(fn, "ExtractUserAgent") == 0) {
            out_len = ref_extract_agent(in, in_len);
            memcpy(out, in, out_len);
        } else if (strcmp(fn, "IsValidUserAgentToObey") == 0) {
            out[0] = ref_valid_agent(in, in_len) ? '1' : '0';
            out_len = 1;
        }
        if (out_len != (size_t)-1) {
            used++;
            if (out_len == exp_len && memcmp(out, exp, exp_len) == 0)
                passed++;
            else
                TU_CHECK(0, "%s: %s(\"%s\") gave \"%.*s\", expected \"%s\"",
                         fl[0], fn, fl[2], (int)out_len, out, fl[3]);
        }
        free(out);
        free(in);
        free(exp);
        free(line);
    }
    fclose(f);
    printf("%s: %d matcher helper rows\n", name, used);
}

/* A hand-written check of the full verdict. */
static void expect(int line, const char *body, const char *agent, const char *url,
                   int profile, int allowed, int rule_line, int prio)
{
    ref_str ag = {agent, strlen(agent)};
    ref_verdict v = ref_check(body, strlen(body), &ag, 1, url, strlen(url), profile, 0);
    if (v.allowed == allowed && v.line == rule_line && (rule_line == 0 || v.priority == prio))
        passed++;
    else
        TU_CHECK(0, "case at line %d: got allowed=%d line=%d prio=%d, expected %d %d %d",
                 line, v.allowed, v.line, v.priority, allowed, rule_line, prio);
}

static void hand_written(void)
{
    const char *b1 = "user-agent: *\n"         /* 1 */
                     "disallow: /a\n"          /* 2 */
                     "allow: /a\n"             /* 3 */
                     "disallow: /a\n"          /* 4 */
                     "disallow: /ab\n"         /* 5 */
                     "allow: /x/index.html\n"; /* 6 */
    expect(__LINE__, b1, "x", "http://h/a", 0, 1, 3, 2);   /* tie: the allow */
    expect(__LINE__, b1, "x", "http://h/abc", 0, 0, 5, 3); /* longest wins */
    expect(__LINE__, b1, "x", "http://h/x/", 0, 1, 6, 4);  /* E.8 variant */
    expect(__LINE__, b1, "x", "http://h/q", 0, 1, 0, -1);  /* nothing matched */
    /* F.6.2: a named agent ignores the global set, no rule decides */
    const char *b2 = "user-agent: *\ndisallow: /\n\nuser-agent: foo\nallow: /zz\n";
    expect(__LINE__, b2, "FOO", "/a", 0, 1, 0, -1);
    expect(__LINE__, b2, "bar", "/a", 0, 0, 2, 1);
    /* the first rule in file order reaching the best priority is reported */
    const char *b3 = "user-agent: a\ndisallow: /*\ndisallow: /x\n";
    expect(__LINE__, b3, "a", "/x", 0, 0, 2, 2);
    /* 512,000-byte cut: "disallow:/" with its '/' at byte P */
    for (size_t P = 511998; P <= 512001; P++) {
        size_t n = 512000 + 64;
        char *big = malloc(n);
        memset(big, '#', n);
        memcpy(big, "user-agent: *\n", 14);
        memcpy(big + P - 10, "\ndisallow:/", 11);
        ref_str ag = {"a", 1};
        ref_verdict v = ref_check(big, n, &ag, 1, "/x", 2, 0, 1);
        int want = P < 512000 ? 0 : 1;
        if (v.allowed == want && v.line == (want ? 0 : 3))
            passed++;
        else
            TU_CHECK(0, "cut at 512000: '/' at %zu gave %d line %d", P, v.allowed, v.line);
        free(big);
    }
    /* rfc profile */
    const char *b4 = "user-agent: *\ndisallow: /%7ejoe\ndisallow: /r\ndisallow: /%c3%a9\n"
                     "disallow: /robots.txt\ndisallow: /%2f\n";
    expect(__LINE__, b4, "a", "/~joe", 0, 1, 0, -1);
    expect(__LINE__, b4, "a", "/~joe", 1, 0, 2, 5); /* priority: the octets of /~joe */
    expect(__LINE__, b4, "a", "/%7Ejoe", 1, 0, 2, 5);
    expect(__LINE__, b4, "a", "/%7ejoe", 1, 0, 2, 5);
    expect(__LINE__, b4, "a", "/\xc3\xa9", 1, 0, 4, 7);
    expect(__LINE__, b4, "a", "/\xc3\xa9", 0, 1, 0, -1);
    expect(__LINE__, b4, "a", "/%c3%A9", 1, 0, 4, 7);
    expect(__LINE__, b4, "a", "/robots.txt", 0, 0, 5, 11);
    expect(__LINE__, b4, "a", "/robots.txt", 1, 1, 0, -1);
    expect(__LINE__, b4, "a", "http://h/robots.txt", 1, 1, 0, -1);
    expect(__LINE__, b4, "a", "/robots.txt?x", 1, 0, 5, 11);
    expect(__LINE__, b4, "a", "/%2F", 1, 0, 6, 4);
    expect(__LINE__, b4, "a", "/%2f", 1, 0, 6, 4);
    expect(__LINE__, b4, "a", "/%2f", 0, 1, 0, -1);
    expect(__LINE__, b4, "a", "/", 1, 1, 0, -1);
    /* rfc: the path is normalised too, '/' stays encoded */
    const char *b5 = "user-agent: *\ndisallow: /a/b\n";
    expect(__LINE__, b5, "a", "/%61%2Fb", 1, 1, 0, -1);
    expect(__LINE__, b5, "a", "/%61/%62", 1, 0, 2, 4);
    /* two agents at once (F.7) */
    {
        const char *b6 = "user-agent: foo\ndisallow: /f\nuser-agent: bar\ndisallow: /b\n";
        ref_str two[2] = {{"foo", 3}, {"Bar", 3}};
        ref_verdict v = ref_check(b6, strlen(b6), two, 2, "/b", 2, 0, 1);
        TU_CHECK(v.allowed == 0 && v.line == 4, "two agents: bar's group");
        v = ref_check(b6, strlen(b6), two, 2, "/f", 2, 0, 1);
        TU_CHECK(v.allowed == 0 && v.line == 2, "two agents: foo's group");
        passed += 2;
    }
}

int main(int argc, char **argv)
{
    if (argc < 2 || !tu_dir_exists(argv[1])) {
        printf("conformance data not found (%s): skipped\n", argc < 2 ? "no argument" : argv[1]);
        return 77;
    }
    verdict_file(argv[1], "google_cases.tsv");
    verdict_file(argv[1], "google_extra_cases.tsv");
    helper_file(argv[1], "google_helper_cases.tsv");
    helper_file(argv[1], "google_extra_helper_cases.tsv");
    hand_written();
    return tu_report("ref_conformance", passed);
}
