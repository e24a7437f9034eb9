/* SPDX-License-Identifier: Apache-2.0 */
/* Whole-selection verdicts (rsc_selection_uniform, crawler-commons'
 * isAllowAll / isAllowNone), checked two ways: against a table of files
 * whose answer is known, and, for every file of the table and the
 * differential generator's shapes, against the verdicts themselves: a file
 * said to allow (disallow) everything must allow (disallow) every path of
 * a sample that the reference matcher is asked about too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_robots.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

static const struct {
    const char *body, *agent;
    int want;
} cases[] = {
    {"", "foo", RSC_ALL_ALLOWED},
    {"User-agent: *\nDisallow:\n", "foo", RSC_ALL_ALLOWED},
    {"User-agent: *\nDisallow: /\n", "foo", RSC_ALL_DISALLOWED},
    {"User-agent: *\nDisallow: *\n", "foo", RSC_ALL_DISALLOWED},
    {"User-agent: *\nDisallow: /*\n", "foo", RSC_ALL_DISALLOWED},
    {"User-agent: *\nDisallow: /\nAllow: /a\n", "foo", RSC_MIXED},
    {"User-agent: *\nDisallow: /\nAllow: /*.html$\n", "foo", RSC_MIXED},
    {"User-agent: *\nDisallow: /x\n", "foo", RSC_MIXED},
    {"User-agent: *\nDisallow: /*.pdf\n", "foo", RSC_MIXED},
    {"User-agent: *\nAllow: /\nDisallow: /\n", "foo", RSC_ALL_ALLOWED}, /* allow wins ties */
    {"User-agent: *\nAllow: /*\nDisallow: /\n", "foo", RSC_ALL_ALLOWED},
    {"User-agent: *\nAllow: /\nDisallow: /*\n", "foo", RSC_ALL_DISALLOWED},
    {"User-agent: *\nDisallow: /\n\nUser-agent: foo\nDisallow:\n", "foo", RSC_ALL_ALLOWED},
    {"User-agent: *\nDisallow: /\n\nUser-agent: foo\nDisallow:\n", "bar", RSC_ALL_DISALLOWED},
    {"User-agent: foo\nDisallow: /\n", "bar", RSC_ALL_ALLOWED},
    {"User-agent: foo\nDisallow: /\nAllow: /ok$\n", "foo", RSC_MIXED},
    {"User-agent: *\nDisallow: /a\nDisallow: /b\nAllow: /\n", "foo", RSC_MIXED},
};

static unsigned long long rng = 7;
static unsigned rnd(unsigned n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((rng >> 33) % n);
}

/* Every path of a sample gets the verdict u says (and the reference's). */
static void sample(const char *body, size_t len, const char *agent, int u, const char *what)
{
    rsc_blob blob;
    rsc_program prog;
    rsc_selection sel;
    rsc_bytes a = {agent, strlen(agent)};
    ref_str ra = {agent, strlen(agent)};
    if (rsc_compile(body, len, NULL, &blob) != RSC_OK)
        return;
    if (rsc_load(&prog, blob.data, blob.size, NULL) == RSC_OK &&
        rsc_select(&prog, &a, 1, &sel) == RSC_OK) {
        static const char *const paths[] = {"/", "/a", "/b", "/x", "/ok", "/a.html", "/d.pdf",
                                            "/x/y?z", "/index.html", "/%41", "/$"};
        for (size_t i = 0; i < sizeof paths / sizeof paths[0] + 20; i++) {
            char buf[16];
            const char *p = i < sizeof paths / sizeof paths[0] ? paths[i] : buf;
            if (p == buf) {
                buf[0] = '/';
                for (int k = 1; k < 8; k++)
                    buf[k] = "abxok./$"[rnd(8)];
                buf[8] = 0;
            }
            int got = rsc_match_path(&sel, p, strlen(p), NULL);
            ref_verdict v = ref_check(body, len, &ra, 1, p, strlen(p), 0, 1);
            TU_COUNT(got == v.allowed, "%s: %s: %d, reference %d", what, p, got, v.allowed);
            if (u != RSC_MIXED)
                TU_COUNT(got == u, "%s: said %s, but %s is %s", what,
                         u ? "all allowed" : "all disallowed", p, got ? "allowed" : "disallowed");
        }
    }
    rsc_blob_free(&blob, NULL);
}

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel;
        rsc_bytes a = {cases[i].agent, strlen(cases[i].agent)};
        int ok = rsc_compile(cases[i].body, strlen(cases[i].body), NULL, &blob) == RSC_OK &&
                 rsc_load(&prog, blob.data, blob.size, NULL) == RSC_OK &&
                 rsc_select(&prog, &a, 1, &sel) == RSC_OK;
        TU_COUNT(ok, "case %zu: compile, load, select", i);
        int u = ok ? rsc_selection_uniform(&sel) : -2;
        TU_COUNT(u == cases[i].want, "case %zu (%s as %s): %d, want %d", i, cases[i].body,
                 cases[i].agent, u, cases[i].want);
        if (ok)
            rsc_blob_free(&blob, NULL);
        sample(cases[i].body, strlen(cases[i].body), cases[i].agent, cases[i].want, "table");
    }
    /* random files: whatever the answer, it must be true of the sample */
    for (int f = 0; f < 2000; f++) {
        char body[512];
        size_t n = 0;
        n += (size_t)snprintf(body + n, sizeof body - n, "User-agent: %s\n", rnd(2) ? "*" : "foo");
        for (int r = 0, nr = 1 + (int)rnd(4); r < nr; r++) {
            static const char *const pats[] = {"/", "*", "/*", "/a", "/x*", "/*.pdf", "/ok$",
                                               "", "/$", "*a", "/a/"};
            n += (size_t)snprintf(body + n, sizeof body - n, "%s: %s\n",
                                  rnd(2) ? "Allow" : "Disallow", pats[rnd(11)]);
        }
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel;
        rsc_bytes a = {"foo", 3};
        if (rsc_compile(body, n, NULL, &blob) != RSC_OK)
            continue;
        int u = RSC_MIXED;
        if (rsc_load(&prog, blob.data, blob.size, NULL) == RSC_OK &&
            rsc_select(&prog, &a, 1, &sel) == RSC_OK)
            u = rsc_selection_uniform(&sel);
        rsc_blob_free(&blob, NULL);
        sample(body, n, "foo", u, body);
    }
    rsc_selection failed;
    memset(&failed, 0, sizeof failed);
    TU_COUNT(rsc_selection_uniform(&failed) == RSC_MIXED, "a failed selection is mixed");
    rsc_match m;
    TU_COUNT(rsc_match_path(&failed, "/", 1, &m) == 0 && !m.decided,
             "a failed selection disallows (fail closed)");
    TU_COUNT(rsc_match_url(NULL, "http://a/", 9, NULL) == 0, "a NULL selection disallows");
    return tu_report("matching_uniform", tu_passed);
}
