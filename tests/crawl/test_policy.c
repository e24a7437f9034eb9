/* SPDX-License-Identifier: Apache-2.0 */
/* Status policy (spec I: every status class, redirects, network errors)
 * and cache lifetimes (24 h default, Cache-Control, the last good copy
 * through errors, 30 days unreachable). No compiler needed. */
#include <stdio.h>
#include <string.h>

#include "robotsc/crawl.h"

#include "crawl_check.h"

static const char BODY[] = "User-agent: *\nDisallow: /x\n";

static int is_text(const rsc_policy_result *r, const char *t)
{
    return r->body_len == strlen(t) && memcmp(r->body, t, r->body_len) == 0;
}

static void test_policy(void)
{
    static const struct {
        int status, error;
        rsc_policy want;
        int definite;
    } cases[] = {
        {200, RSC_FETCH_OK, RSC_POLICY_PARSE, 1},
        {201, RSC_FETCH_OK, RSC_POLICY_PARSE, 1},
        {203, RSC_FETCH_OK, RSC_POLICY_PARSE, 1},
        {204, RSC_FETCH_OK, RSC_POLICY_PARSE, 1},
        {206, RSC_FETCH_OK, RSC_POLICY_PARSE, 1},
        {299, RSC_FETCH_OK, RSC_POLICY_PARSE, 1},
        {300, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1},
        {301, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1}, /* not followed: as 404 */
        {304, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1},
        {308, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1},
        {301, RSC_FETCH_E_REDIRECTS, RSC_POLICY_ALLOW_ALL, 1},
        {302, RSC_FETCH_E_REDIRECTS, RSC_POLICY_ALLOW_ALL, 1},
        {400, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1},
        {401, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1},
        {403, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1},
        {404, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1},
        {410, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1},
        {418, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1},
        {428, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1},
        {429, RSC_FETCH_OK, RSC_POLICY_DISALLOW_ALL, 0},
        {430, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1},
        {499, RSC_FETCH_OK, RSC_POLICY_ALLOW_ALL, 1},
        {500, RSC_FETCH_OK, RSC_POLICY_DISALLOW_ALL, 0},
        {502, RSC_FETCH_OK, RSC_POLICY_DISALLOW_ALL, 0},
        {503, RSC_FETCH_OK, RSC_POLICY_DISALLOW_ALL, 0},
        {504, RSC_FETCH_OK, RSC_POLICY_DISALLOW_ALL, 0},
        {599, RSC_FETCH_OK, RSC_POLICY_DISALLOW_ALL, 0},
        {100, RSC_FETCH_OK, RSC_POLICY_DISALLOW_ALL, 0},
        {600, RSC_FETCH_OK, RSC_POLICY_DISALLOW_ALL, 0},
        {0, RSC_FETCH_OK, RSC_POLICY_DISALLOW_ALL, 0},
        {-1, RSC_FETCH_OK, RSC_POLICY_DISALLOW_ALL, 0},
        {0, RSC_FETCH_E_NETWORK, RSC_POLICY_DISALLOW_ALL, 0},
        {0, RSC_FETCH_E_TIMEOUT, RSC_POLICY_DISALLOW_ALL, 0},
        {200, RSC_FETCH_E_TIMEOUT, RSC_POLICY_DISALLOW_ALL, 0}, /* headers came, body timed out */
        {200, RSC_FETCH_E_NETWORK, RSC_POLICY_DISALLOW_ALL, 0}, /* connection reset mid-body */
        {0, 99, RSC_POLICY_DISALLOW_ALL, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rsc_fetch_outcome o = {cases[i].status, cases[i].error, BODY, sizeof BODY - 1};
        rsc_policy_result r;
        memset(&r, 0x55, sizeof r);
        rsc_status_policy(&o, &r);
        CHECK(r.policy == cases[i].want, "status %d error %d: policy %s, want %s", cases[i].status, cases[i].error,
              rsc_policy_name(r.policy), rsc_policy_name(cases[i].want));
        CHECK(r.definite == cases[i].definite, "status %d error %d: definite %d", cases[i].status, cases[i].error,
              r.definite);
        CHECK(r.reason && r.reason[0], "reason");
        if (r.policy == RSC_POLICY_PARSE)
            CHECK(r.body == (const void *)BODY && r.body_len == sizeof BODY - 1, "2xx body is the fetched body");
        else if (r.policy == RSC_POLICY_ALLOW_ALL)
            CHECK(is_text(&r, RSC_ALLOW_ALL_TEXT), "allow-all text");
        else
            CHECK(is_text(&r, RSC_DISALLOW_ALL_TEXT), "disallow-all text");
    }
    /* An empty 2xx body parses as an empty file (allow all by spec F.6.4). */
    rsc_fetch_outcome e = {200, RSC_FETCH_OK, NULL, 0};
    rsc_policy_result r;
    rsc_status_policy(&e, &r);
    CHECK(r.policy == RSC_POLICY_PARSE && r.body != NULL && r.body_len == 0, "empty body");
    rsc_status_policy(NULL, &r);
    CHECK(r.policy == RSC_POLICY_DISALLOW_ALL && !r.definite, "NULL outcome");
    CHECK(strcmp(rsc_policy_name(RSC_POLICY_PARSE), "parse") == 0 &&
              strcmp(rsc_policy_name(RSC_POLICY_ALLOW_ALL), "allow-all") == 0 &&
              strcmp(rsc_policy_name(RSC_POLICY_DISALLOW_ALL), "disallow-all") == 0 &&
              strcmp(rsc_policy_name(7), "?") == 0,
          "policy names");
}

static int64_t ttl(const char *cc)
{
    return rsc_cache_ttl(cc, cc ? strlen(cc) : 0, NULL);
}

static void test_ttl(void)
{
    static const struct {
        const char *cc;
        int64_t want;
    } cases[] = {
        {NULL, 86400},
        {"", 86400},
        {"public", 86400},
        {"max-age=3600", 3600},
        {"MAX-AGE=3600", 3600},
        {"public, max-age=7200", 7200},
        {"max-age=7200, public", 7200},
        {"  max-age = 7200 ", 7200},
        {"max-age=\"120\"", 120},
        {"max-age=100000", 100000}, /* longer than 24 h: honoured */
        {"max-age=31536000", 30 * 86400}, /* ceiling */
        {"max-age=99999999999999999999999", 30 * 86400},
        {"max-age=10", 60},  /* floor */
        {"max-age=0", 60},
        {"no-cache", 60},
        {"no-store", 60},
        {"No-Store", 60},
        {"no-cache, max-age=600", 60},
        {"max-age=600, no-store", 60},
        {"max-age=600, max-age=100", 600}, /* the first one counts */
        {"max-age=abc, max-age=900", 900}, /* an invalid one is ignored */
        {"max-age=abc", 86400},
        {"max-age=-5", 86400},
        {"max-age=", 86400},
        {"max-age", 86400},
        {"s-maxage=60", 86400}, /* not max-age */
        {"xmax-age=60", 86400},
        {"max-agex=60", 86400},
        {"private=\"a, b\", max-age=300", 300},
        {"no-cachex", 86400},
        {",,,max-age=500,,", 500},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t t = ttl(cases[i].cc);
        CHECK(t == cases[i].want, "ttl(%s) = %lld, want %lld", cases[i].cc ? cases[i].cc : "NULL", (long long)t,
              (long long)cases[i].want);
    }
    rsc_cache_options o = {0};
    o.default_ttl = 1000;
    o.min_ttl = 5;
    o.max_ttl = 2000;
    CHECK(rsc_cache_ttl(NULL, 0, &o) == 1000, "custom default");
    CHECK(rsc_cache_ttl("max-age=1", 9, &o) == 5, "custom floor");
    CHECK(rsc_cache_ttl("max-age=5000", 12, &o) == 2000, "custom ceiling");
    CHECK(rsc_cache_ttl("no-store", 8, &o) == 5, "custom no-store");
    CHECK(rsc_cache_ttl("max-age=3600", 9, NULL) == 60, "only len bytes count: max-age=3, raised to the floor");
}

static void test_decide(void)
{
    const int64_t T0 = 1700000000, H = 3600, D = 86400;
    rsc_fetch_outcome ok = {200, RSC_FETCH_OK, BODY, sizeof BODY - 1};
    rsc_fetch_outcome nf = {404, RSC_FETCH_OK, "gone", 4};
    rsc_fetch_outcome e503 = {503, RSC_FETCH_OK, "down", 4};
    rsc_fetch_outcome e429 = {429, RSC_FETCH_OK, "", 0};
    rsc_fetch_outcome net = {0, RSC_FETCH_E_NETWORK, NULL, 0};
    rsc_fetch_outcome tmo = {0, RSC_FETCH_E_TIMEOUT, NULL, 0};
    rsc_cache_decision d;

    /* First fetch, 200: parse, 24 h. */
    rsc_cache_decide(NULL, &ok, NULL, 0, T0, NULL, &d);
    CHECK(!d.keep && d.policy == RSC_POLICY_PARSE && d.body == (const void *)BODY, "200: parse");
    CHECK(d.next.fetched_at == T0 && d.next.expires == T0 + D && d.next.has_copy && d.next.error_since == 0 &&
              d.next.policy == RSC_POLICY_PARSE,
          "200: state");
    rsc_cache_state good = d.next;
    CHECK(rsc_cache_fresh(&good, T0 + D - 1) && !rsc_cache_fresh(&good, T0 + D), "fresh for 24 h");
    rsc_cache_state none = {0, 0, 0, 0, 0};
    CHECK(!rsc_cache_fresh(&none, T0) && !rsc_cache_fresh(NULL, T0), "nothing stored is never fresh");

    /* max-age from the response. */
    rsc_cache_decide(NULL, &ok, "max-age=600", 11, T0, NULL, &d);
    CHECK(d.next.expires == T0 + 600, "max-age: %lld", (long long)(d.next.expires - T0));
    rsc_cache_decide(NULL, &ok, "no-store", 8, T0, NULL, &d);
    CHECK(d.next.expires == T0 + 60 && !d.keep && d.policy == RSC_POLICY_PARSE, "no-store: floor, still used");

    /* 404 first: allow all, a definite answer cached 24 h. */
    rsc_cache_decide(NULL, &nf, NULL, 0, T0, NULL, &d);
    CHECK(!d.keep && d.policy == RSC_POLICY_ALLOW_ALL && d.next.has_copy && d.next.expires == T0 + D,
          "404: allow all, cached");
    CHECK(d.body_len == strlen(RSC_ALLOW_ALL_TEXT), "404 body");

    /* 503 with nothing stored: disallow all, retried in 15 min. */
    rsc_cache_decide(NULL, &e503, NULL, 0, T0, NULL, &d);
    CHECK(!d.keep && d.policy == RSC_POLICY_DISALLOW_ALL && !d.next.has_copy && d.next.error_since == T0 &&
              d.next.expires == T0 + 900,
          "503 first: disallow all");
    CHECK(d.body_len == strlen(RSC_DISALLOW_ALL_TEXT) && memcmp(d.body, RSC_DISALLOW_ALL_TEXT, d.body_len) == 0,
          "503 body");
    /* Cache-Control of an error response does not matter. */
    rsc_cache_decide(NULL, &e503, "max-age=99999", 13, T0, NULL, &d);
    CHECK(d.next.expires == T0 + 900, "error ignores max-age");

    /* Errors after a good copy: keep it, however long (spec I). */
    rsc_cache_state st = good;
    rsc_fetch_outcome *errs[] = {&e503, &e429, &net, &tmo};
    int64_t t = T0 + D;
    for (int k = 0; k < 4; k++, t += H) {
        rsc_cache_decide(&st, errs[k], NULL, 0, t, NULL, &d);
        CHECK(d.keep && d.policy == RSC_POLICY_PARSE && d.next.has_copy, "error %d keeps the copy", k);
        CHECK(d.next.fetched_at == T0 && d.next.error_since == T0 + D && d.next.expires == t + 900,
              "error %d: state (since %lld)", k, (long long)d.next.error_since);
        st = d.next;
    }
    rsc_cache_decide(&st, &e503, NULL, 0, T0 + 40 * D, NULL, &d);
    CHECK(d.keep && d.policy == RSC_POLICY_PARSE && d.next.error_since == T0 + D,
          "after 30+ days unreachable, the last copy still (spec I)");
    /* Recovery: a new definite answer replaces it and clears the errors. */
    rsc_cache_decide(&st, &nf, NULL, 0, T0 + 41 * D, NULL, &d);
    CHECK(!d.keep && d.policy == RSC_POLICY_ALLOW_ALL && d.next.error_since == 0 && d.next.has_copy &&
              d.next.fetched_at == T0 + 41 * D,
          "recovery");

    /* A copy limit (RFC 9309 2.4 alternative): dropped after 30 days of
     * errors, then "unavailable" = allow all. */
    rsc_cache_options lim = {0};
    lim.copy_max = 30 * D;
    st = good;
    rsc_cache_decide(&st, &e503, NULL, 0, T0 + D, &lim, &d);
    CHECK(d.keep, "limit: kept at first");
    st = d.next;
    rsc_cache_decide(&st, &e503, NULL, 0, T0 + 30 * D, &lim, &d);
    CHECK(d.keep, "limit: kept at 29 days of errors");
    rsc_cache_decide(&st, &e503, NULL, 0, T0 + 32 * D, &lim, &d);
    CHECK(!d.keep && d.policy == RSC_POLICY_ALLOW_ALL, "limit: dropped after 31 days of errors -> allow all");

    /* No copy: disallow all for 30 days, then no restrictions. */
    rsc_cache_decide(NULL, &net, NULL, 0, T0, NULL, &d);
    st = d.next;
    for (int day = 1; day <= 30; day++) {
        rsc_cache_decide(&st, &net, NULL, 0, T0 + day * D, NULL, &d);
        CHECK(!d.keep && d.policy == RSC_POLICY_DISALLOW_ALL && d.next.error_since == T0,
              "day %d without copy: disallow all", day);
        st = d.next;
    }
    rsc_cache_decide(&st, &net, NULL, 0, T0 + 30 * D + 1, NULL, &d);
    CHECK(!d.keep && d.policy == RSC_POLICY_ALLOW_ALL && !d.next.has_copy && d.next.error_since == T0,
          "unreachable > 30 days, no copy: allow all");
    CHECK(d.body_len == strlen(RSC_ALLOW_ALL_TEXT) && memcmp(d.body, RSC_ALLOW_ALL_TEXT, d.body_len) == 0,
          "allow-all text");
    st = d.next;
    rsc_cache_decide(&st, &ok, NULL, 0, T0 + 31 * D, NULL, &d);
    CHECK(d.policy == RSC_POLICY_PARSE && d.next.error_since == 0 && d.next.has_copy, "back: parse");

    /* A stored disallow-all from an error is no good copy: the next error
     * produces disallow-all again rather than keeping it. */
    rsc_cache_decide(NULL, &e503, NULL, 0, T0, NULL, &d);
    st = d.next;
    rsc_cache_decide(&st, &e429, NULL, 0, T0 + 900, NULL, &d);
    CHECK(!d.keep && d.policy == RSC_POLICY_DISALLOW_ALL && d.next.error_since == T0, "error after error");

    /* Too many redirects is definite (as 404). */
    rsc_fetch_outcome rd = {301, RSC_FETCH_E_REDIRECTS, NULL, 0};
    st = good;
    rsc_cache_decide(&st, &rd, NULL, 0, T0 + D, NULL, &d);
    CHECK(!d.keep && d.policy == RSC_POLICY_ALLOW_ALL && d.next.has_copy, "redirect limit replaces the copy");

    /* Custom retry and unreachable limits. */
    rsc_cache_options o = {0};
    o.retry_ttl = 30;
    o.unreachable = 2 * H;
    rsc_cache_decide(NULL, &e503, NULL, 0, T0, &o, &d);
    CHECK(d.next.expires == T0 + 30, "custom retry");
    st = d.next;
    rsc_cache_decide(&st, &e503, NULL, 0, T0 + 2 * H + 1, &o, &d);
    CHECK(d.policy == RSC_POLICY_ALLOW_ALL, "custom unreachable limit");
}

int main(void)
{
    test_policy();
    test_ttl();
    test_decide();
    printf("%d checks, %d failed\n", checks, fails);
    return fails ? 1 : 0;
}
