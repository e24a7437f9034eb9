/* SPDX-License-Identifier: Apache-2.0 */
/* The allow-all and disallow-all results of the status policy are ordinary
 * blobs: compiled, loaded and matched like any robots.txt, they must allow
 * (or disallow) every URL for every agent, in both profiles. Needs the
 * compiler and the runtime. */
#include <stdio.h>
#include <string.h>

#include "robotsc/compiler.h"
#include "robotsc/crawl.h"

#include "crawl_check.h"

static const char *const agents[] = {"Googlebot", "googlebot-news", "FooBot", "*", "", "Bot2", "a b",
                                     "FooBot/1.0", "robotsc", "x"};
static const char *const urls[] = {"/", "/x", "/private/a?b=c", "https://example.com/", "http://example.com",
                                   "https://example.com/robots.txt", "?q=1", "", "/%E4/ü", "//host/path",
                                   "/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z"};

/* Every agent alone, and all at once (spec F.7), against every URL. */
static void expect_all(const char *what, const void *text, size_t len, rsc_profile prof, int allowed)
{
    rsc_compile_options co = {0};
    co.profile = prof;
    rsc_blob b = {NULL, 0};
    rsc_status st = rsc_compile(text, len, &co, &b);
    CHECK(st == RSC_OK, "%s: compile: %s", what, rsc_strerror(st));
    if (st != RSC_OK)
        return;
    rsc_program p;
    st = rsc_load(&p, b.data, b.size, NULL);
    CHECK(st == RSC_OK, "%s: load: %s", what, rsc_strerror(st));
    if (st == RSC_OK) {
        rsc_bytes all[sizeof agents / sizeof agents[0]];
        size_t na = sizeof agents / sizeof agents[0];
        for (size_t a = 0; a <= na; a++) {
            rsc_selection sel;
            if (a < na) {
                rsc_bytes one = {agents[a], strlen(agents[a])};
                all[a] = one;
                st = rsc_select(&p, &one, 1, &sel);
            } else {
                st = rsc_select(&p, all, na, &sel);
            }
            CHECK(st == RSC_OK, "%s: select", what);
            if (st != RSC_OK)
                continue;
            for (size_t u = 0; u < sizeof urls / sizeof urls[0]; u++) {
                int want = allowed;
                /* rfc profile: /robots.txt is always allowed (RFC 9309 2.2.2). */
                if (prof == RSC_PROFILE_RFC && strcmp(urls[u], "https://example.com/robots.txt") == 0)
                    want = 1;
                int got = rsc_match_url(&sel, urls[u], strlen(urls[u]), NULL);
                CHECK(got == want, "%s (%s): agent '%s' url '%s': %d, want %d", what, prof ? "rfc" : "google",
                      a < na ? agents[a] : "(all)", urls[u], got, want);
            }
        }
    }
    rsc_blob_free(&b, &co);
}

int main(void)
{
    for (int prof = RSC_PROFILE_GOOGLE; prof <= RSC_PROFILE_RFC; prof++) {
        expect_all("allow-all", RSC_ALLOW_ALL_TEXT, strlen(RSC_ALLOW_ALL_TEXT), (rsc_profile)prof, 1);
        expect_all("disallow-all", RSC_DISALLOW_ALL_TEXT, strlen(RSC_DISALLOW_ALL_TEXT), (rsc_profile)prof, 0);
        /* Through the policy, for one status of each class. */
        static const int statuses[] = {404, 410, 403, 429, 500, 503, 301};
        for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++) {
            rsc_fetch_outcome o = {statuses[i], RSC_FETCH_OK, "User-agent: *\nAllow: /\n", 23};
            rsc_policy_result r;
            rsc_status_policy(&o, &r);
            char what[32];
            snprintf(what, sizeof what, "HTTP %d", statuses[i]);
            expect_all(what, r.body, r.body_len, (rsc_profile)prof, r.policy == RSC_POLICY_ALLOW_ALL);
        }
        rsc_fetch_outcome net = {0, RSC_FETCH_E_NETWORK, NULL, 0};
        rsc_cache_decision d;
        rsc_cache_decide(NULL, &net, NULL, 0, 1700000000, NULL, &d);
        expect_all("network error", d.body, d.body_len, (rsc_profile)prof, 0);
        rsc_cache_state st = d.next;
        rsc_cache_decide(&st, &net, NULL, 0, 1700000000 + 31 * RSC_DAY, NULL, &d);
        expect_all("unreachable 31 days", d.body, d.body_len, (rsc_profile)prof, 1);
    }
    printf("%d checks, %d failed\n", checks, fails);
    return fails ? 1 : 0;
}
