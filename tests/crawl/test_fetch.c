/* SPDX-License-Identifier: Apache-2.0 */
/* rsc_fetch() against the local test server (tests/crawl/server.py, run
 * by with_server.sh): statuses, redirect chains and the hop limit, network
 * errors, the timeout, the 500 KiB read cap, Cache-Control collection, the
 * User-Agent header, validators; rsc_fetch_many(): the same results as
 * rsc_fetch() for every request, conditional GETs, bad requests. Needs no
 * compiler. Only 127.0.0.1 is contacted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/crawl.h"

#include "crawl_check.h"

static char ports_path[4096];

static int port_of(const char *scenario)
{
    FILE *f = fopen(ports_path, "r");
    char name[64];
    int port, found = 0;
    if (!f)
        return 0;
    while (fscanf(f, "%63s %d", name, &port) == 2)
        if (strcmp(name, scenario) == 0) {
            found = port;
            break;
        }
    fclose(f);
    return found;
}

static char *url_of(const char *scenario, char *buf, size_t n)
{
    snprintf(buf, n, "http://127.0.0.1:%d/robots.txt", port_of(scenario));
    return buf;
}

/* Fetches a scenario's robots.txt; returns the policy applied. */
static rsc_policy get(const char *scenario, const rsc_fetch_options *o, rsc_fetch_result *r)
{
    char url[128];
    rsc_status st = rsc_fetch(url_of(scenario, url, sizeof url), o, r);
    CHECK(st == RSC_OK, "%s: rsc_fetch %d", scenario, st);
    rsc_policy_result p;
    rsc_status_policy(&r->outcome, &p);
    return p.policy;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = s ? strlen(s) : 0, b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static const char ROBOTS_OK[] = "User-agent: *\nDisallow: /private\n\nUser-agent: FooBot\nDisallow: /\n";
static const char FINAL[] = "User-agent: *\nDisallow: /redirected\n";

static void test_statuses(void)
{
    rsc_fetch_result r;
    CHECK(get("ok", NULL, &r) == RSC_POLICY_PARSE, "ok policy");
    CHECK(r.outcome.status == 200 && r.outcome.error == RSC_FETCH_OK && !r.truncated && r.redirects == 0,
          "ok: %d %d", r.outcome.status, r.outcome.error);
    CHECK(r.body_len == sizeof ROBOTS_OK - 1 && memcmp(r.body, ROBOTS_OK, r.body_len) == 0, "ok body");
    CHECK(r.outcome.body == r.body && r.outcome.body_len == r.body_len, "outcome points at the body");
    CHECK(ends_with(r.final_url, "/robots.txt") && r.cache_control == NULL && r.error_text[0] == 0, "ok extras");
    rsc_fetch_result_free(&r);
    CHECK(r.body == NULL && r.final_url == NULL, "freed and zeroed");
    rsc_fetch_result_free(&r); /* twice is harmless */
    rsc_fetch_result_free(NULL);

    CHECK(get("bom", NULL, &r) == RSC_POLICY_PARSE, "bom");
    CHECK(r.body_len > 3 && memcmp(r.body, "\xef\xbb\xbfUser-agent", 13) == 0, "bom body kept as sent");
    rsc_fetch_result_free(&r);

    CHECK(get("html", NULL, &r) == RSC_POLICY_PARSE, "html is a 2xx: parsed");
    CHECK(r.body_len > 9 && memcmp(r.body, "<!DOCTYPE", 9) == 0, "html body");
    rsc_fetch_result_free(&r);

    static const struct {
        const char *name;
        int status;
        rsc_policy want;
    } st[] = {
        {"notfound", 404, RSC_POLICY_ALLOW_ALL}, {"gone", 410, RSC_POLICY_ALLOW_ALL},
        {"forbidden", 403, RSC_POLICY_ALLOW_ALL}, {"toomany", 429, RSC_POLICY_DISALLOW_ALL},
        {"err500", 500, RSC_POLICY_DISALLOW_ALL}, {"unavail", 503, RSC_POLICY_DISALLOW_ALL},
    };
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
        rsc_policy p = get(st[i].name, NULL, &r);
        CHECK(r.outcome.status == st[i].status && r.outcome.error == RSC_FETCH_OK, "%s: status %d", st[i].name,
              r.outcome.status);
        CHECK(p == st[i].want, "%s: policy %s", st[i].name, rsc_policy_name(p));
        rsc_fetch_result_free(&r);
    }
}

static void test_redirects(void)
{
    rsc_fetch_result r;
    for (int n = 1; n <= 6; n++) {
        char name[16];
        snprintf(name, sizeof name, "redir%d", n);
        rsc_policy p = get(name, NULL, &r);
        if (n <= RSC_MAX_REDIRECTS) {
            CHECK(p == RSC_POLICY_PARSE && r.outcome.status == 200 && r.redirects == n, "%s: %d hops followed (%ld)",
                  name, n, r.redirects);
            CHECK(r.body_len == sizeof FINAL - 1 && memcmp(r.body, FINAL, r.body_len) == 0, "%s: final body", name);
            CHECK(ends_with(r.final_url, "/final"), "%s: final url %s", name, r.final_url);
        } else {
            CHECK(p == RSC_POLICY_ALLOW_ALL && r.outcome.error == RSC_FETCH_E_REDIRECTS &&
                      r.outcome.status / 100 == 3 && r.body_len == 0,
                  "%s: too many redirects -> as 404 (error %d status %d)", name, r.outcome.error, r.outcome.status);
            CHECK(r.error_text[0] != 0, "%s: error text", name);
        }
        rsc_fetch_result_free(&r);
    }
    CHECK(get("loop", NULL, &r) == RSC_POLICY_ALLOW_ALL && r.outcome.error == RSC_FETCH_E_REDIRECTS, "loop");
    rsc_fetch_result_free(&r);

    /* Cross-origin redirects are followed. */
    char want[64];
    snprintf(want, sizeof want, ":%d/robots.txt", port_of("ok"));
    CHECK(get("redirx", NULL, &r) == RSC_POLICY_PARSE && r.redirects == 1 && ends_with(r.final_url, want),
          "redirx: %s", r.final_url);
    rsc_fetch_result_free(&r);

    /* max_redirects = -1: none followed, the 3xx is final (as 404). */
    rsc_fetch_options o = {0};
    o.max_redirects = -1;
    CHECK(get("redir1", &o, &r) == RSC_POLICY_ALLOW_ALL && r.outcome.status == 301 &&
              r.outcome.error == RSC_FETCH_OK && r.redirects == 0,
          "no redirects followed: %d", r.outcome.status);
    rsc_fetch_result_free(&r);
    o.max_redirects = 2;
    CHECK(get("redir2", &o, &r) == RSC_POLICY_PARSE, "2 of 2");
    rsc_fetch_result_free(&r);
    CHECK(get("redir3", &o, &r) == RSC_POLICY_ALLOW_ALL && r.outcome.error == RSC_FETCH_E_REDIRECTS, "3 of 2");
    rsc_fetch_result_free(&r);
}

static void test_errors(void)
{
    rsc_fetch_result r;
    CHECK(get("close", NULL, &r) == RSC_POLICY_DISALLOW_ALL && r.outcome.error == RSC_FETCH_E_NETWORK &&
              r.outcome.status == 0 && r.error_text[0],
          "closed connection: error %d status %d", r.outcome.error, r.outcome.status);
    rsc_fetch_result_free(&r);

    rsc_fetch_options o = {0};
    o.timeout_ms = 1000;
    CHECK(get("stall", &o, &r) == RSC_POLICY_DISALLOW_ALL && r.outcome.error == RSC_FETCH_E_TIMEOUT, "stall: %d",
          r.outcome.error);
    rsc_fetch_result_free(&r);

    /* Port 1 on the loopback: nothing listens, connection refused. */
    CHECK(rsc_fetch("http://127.0.0.1:1/robots.txt", NULL, &r) == RSC_OK && r.outcome.error == RSC_FETCH_E_NETWORK,
          "refused: %d", r.outcome.error);
    rsc_fetch_result_free(&r);

    CHECK(rsc_fetch(NULL, NULL, &r) == RSC_E_ARG, "NULL url");
    rsc_fetch_result_free(&r);
    CHECK(rsc_fetch("http://127.0.0.1:1/", NULL, NULL) == RSC_E_ARG, "NULL result");
    /* Schemes other than http, https, ftp are refused by libcurl itself. */
    CHECK(rsc_fetch("file:///etc/passwd", NULL, &r) == RSC_OK && r.outcome.error == RSC_FETCH_E_NETWORK &&
              r.body_len == 0,
          "file: refused");
    rsc_fetch_result_free(&r);
}

static void test_cap(void)
{
    rsc_fetch_result r;
    CHECK(get("big", NULL, &r) == RSC_POLICY_PARSE && r.outcome.status == 200, "big: 200");
    CHECK(r.body_len == 512000 && r.truncated == 1, "big: %zu bytes kept, truncated %d", r.body_len, r.truncated);
    CHECK(r.body_len >= 31 && memcmp(r.body, "User-agent: *\nDisallow: /early\n", 31) == 0, "big: head");
    int late = 0;
    for (size_t i = 0; i + 15 <= r.body_len; i++)
        if (memcmp(r.body + i, "Disallow: /late", 15) == 0)
            late = 1;
    CHECK(!late, "big: nothing after the cap was kept");
    rsc_fetch_result_free(&r);

    CHECK(get("exact", NULL, &r) == RSC_POLICY_PARSE && r.body_len == 512000 && r.truncated == 0,
          "exactly 512000 bytes: not truncated (%zu, %d)", r.body_len, r.truncated);
    rsc_fetch_result_free(&r);

    rsc_fetch_options o = {0};
    o.max_body = 10;
    CHECK(get("ok", &o, &r) == RSC_POLICY_PARSE && r.body_len == 10 && r.truncated, "max_body 10");
    rsc_fetch_result_free(&r);
}

static void test_cache_control(void)
{
    static const struct {
        const char *name, *cc;
        int64_t ttl;
    } cases[] = {
        {"ok", NULL, 86400},
        {"cc_maxage", "max-age=3600", 3600},
        {"cc_nostore", "no-store", 60},
        {"cc_nocache", "no-cache, max-age=600", 60},
        {"cc_long", "public, max-age=31536000", 30 * 86400},
        {"cc_multi", "public, max-age=7200", 7200}, /* two header lines, joined */
        {"cc_bad", "max-age=abc", 86400},
        {"cc_small", "max-age=10", 60},
        {"cc_quoted", "private, MAX-AGE=\"120\"", 120},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rsc_fetch_result r;
        get(cases[i].name, NULL, &r);
        if (cases[i].cc)
            CHECK(r.cache_control && strcmp(r.cache_control, cases[i].cc) == 0, "%s: cache-control '%s'",
                  cases[i].name, r.cache_control ? r.cache_control : "(none)");
        else
            CHECK(r.cache_control == NULL, "%s: no cache-control", cases[i].name);
        int64_t t = rsc_cache_ttl(r.cache_control, r.cache_control ? strlen(r.cache_control) : 0, NULL);
        CHECK(t == cases[i].ttl, "%s: ttl %lld", cases[i].name, (long long)t);
        rsc_fetch_result_free(&r);
    }
    /* Redirect responses' headers are not mixed into the final ones. */
    rsc_fetch_result r;
    get("redir2", NULL, &r);
    CHECK(r.cache_control == NULL, "redirect chain: no cache-control");
    rsc_fetch_result_free(&r);
}

static void test_user_agent(const char *log_path)
{
    rsc_fetch_result r;
    rsc_fetch_options o = {0};
    o.user_agent = "TestBot/1.2 (+http://127.0.0.1/bot)";
    get("ua", &o, &r);
    rsc_fetch_result_free(&r);
    get("ua", NULL, &r); /* default */
    rsc_fetch_result_free(&r);
    FILE *f = fopen(log_path, "r");
    char line[1024];
    int custom = 0, dflt = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "in\tua\t", 6) != 0) /* arrival lines */
            continue;
        if (strstr(line, "\tTestBot/1.2 (+http://127.0.0.1/bot)\t"))
            custom++;
        if (strstr(line, "\trobotsc/"))
            dflt++;
    }
    if (f)
        fclose(f);
    CHECK(custom == 1 && dflt == 1, "User-Agent headers seen by the server: custom %d, default %d", custom, dflt);
}

/* What rsc_fetch_many() reported for each request. */
#define MANY_MAX 48
typedef struct many_seen {
    int calls[MANY_MAX];
    rsc_status status[MANY_MAX];
    rsc_fetch_result res[MANY_MAX]; /* taken from the callback */
} many_seen;

static void on_many(void *ud, size_t i, rsc_status status, rsc_fetch_result *res)
{
    many_seen *m = ud;
    if (i >= MANY_MAX)
        return;
    m->calls[i]++;
    m->status[i] = status;
    m->res[i] = *res; /* take every buffer: the callback's copy is emptied */
    memset(res, 0, sizeof *res);
    m->res[i].outcome.body = m->res[i].body;
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Validators of the final response: ETag, Last-Modified, none. */
static void test_validators(void)
{
    rsc_fetch_result r;
    get("etag", NULL, &r);
    CHECK(r.outcome.status == 200 && same_str(r.etag, "\"v1\"") && r.last_modified == NULL, "etag: %s",
          r.etag ? r.etag : "(null)");
    rsc_fetch_result_free(&r);
    CHECK(r.etag == NULL, "etag freed");
    get("lm", NULL, &r);
    CHECK(r.outcome.status == 200 && r.etag == NULL && same_str(r.last_modified, "Tue, 01 Oct 2024 10:00:00 GMT"),
          "last-modified: %s", r.last_modified ? r.last_modified : "(null)");
    rsc_fetch_result_free(&r);
    get("redir2", NULL, &r);
    CHECK(r.etag == NULL && r.last_modified == NULL, "redirect chain: no validators");
    rsc_fetch_result_free(&r);
}

/* rsc_fetch_many: each request reported once, with what rsc_fetch() gives
 * for the same URL (statuses, bodies, redirects, errors, the cap), at most
 * 3 transfers at a time; a conditional GET with the right validators is a
 * 304, with stale ones a 200; a NULL url is reported, not fetched. */
static void test_many(void)
{
    static const char *const scen[] = {"ok", "notfound", "unavail", "redir2", "loop", "close", "big", "exact",
                                       "cc_multi", "etag", "lm", "ftp"};
    enum { N = sizeof scen / sizeof *scen };
    static char urls[N + 4][128];
    rsc_fetch_request reqs[N + 4];
    memset(reqs, 0, sizeof reqs);
    for (int i = 0; i < N; i++) {
        if (strcmp(scen[i], "ftp") == 0) /* nothing listens there: a network error */
            snprintf(urls[i], sizeof urls[i], "ftp://127.0.0.1:1/robots.txt");
        else
            url_of(scen[i], urls[i], sizeof urls[i]);
        reqs[i].url = urls[i];
    }
    /* Conditional GETs: current validators, then stale ones. */
    reqs[N] = (rsc_fetch_request){urls[9], "\"v1\"", NULL};
    reqs[N + 1] = (rsc_fetch_request){urls[10], NULL, "Tue, 01 Oct 2024 10:00:00 GMT"};
    reqs[N + 2] = (rsc_fetch_request){urls[9], "\"v0\"", NULL};
    reqs[N + 3] = (rsc_fetch_request){NULL, NULL, NULL};
    rsc_fetch_options o = {0};
    o.timeout_ms = 5000;
    static many_seen m;
    memset(&m, 0, sizeof m);
    CHECK(rsc_fetch_many(reqs, N + 4, &o, 3, on_many, &m) == RSC_OK, "rsc_fetch_many");
    for (int i = 0; i < N + 4; i++)
        CHECK(m.calls[i] == 1, "request %d reported %d times", i, m.calls[i]);
    for (int i = 0; i < N; i++) {
        rsc_fetch_result one;
        rsc_status st = rsc_fetch(urls[i], &o, &one);
        const rsc_fetch_result *r = &m.res[i];
        CHECK(m.status[i] == RSC_OK && st == RSC_OK, "%s: %d %d", scen[i], m.status[i], st);
        CHECK(r->outcome.status == one.outcome.status && r->outcome.error == one.outcome.error &&
                  r->body_len == one.body_len && r->outcome.body_len == one.outcome.body_len &&
                  (r->body_len == 0 || memcmp(r->body, one.body, r->body_len) == 0) &&
                  r->truncated == one.truncated && r->redirects == one.redirects &&
                  same_str(r->final_url, one.final_url) && same_str(r->cache_control, one.cache_control) &&
                  same_str(r->etag, one.etag) && same_str(r->last_modified, one.last_modified) &&
                  (r->error_text[0] != 0) == (one.error_text[0] != 0),
              "%s: many %d/%d %zu bytes, one %d/%d %zu bytes", scen[i], r->outcome.status, r->outcome.error,
              r->body_len, one.outcome.status, one.outcome.error, one.body_len);
        rsc_fetch_result_free(&one);
    }
    CHECK(m.res[0].outcome.status == 200 && m.res[1].outcome.status == 404 && m.res[3].redirects == 2 &&
              m.res[4].outcome.error == RSC_FETCH_E_REDIRECTS && m.res[6].truncated &&
              m.res[11].outcome.error == RSC_FETCH_E_NETWORK,
          "many: the scenarios' outcomes");
    CHECK(m.status[N] == RSC_OK && m.res[N].outcome.status == 304 && m.res[N].body_len == 0,
          "If-None-Match current: %d", m.res[N].outcome.status);
    CHECK(m.status[N + 1] == RSC_OK && m.res[N + 1].outcome.status == 304, "If-Modified-Since current: %d",
          m.res[N + 1].outcome.status);
    CHECK(m.status[N + 2] == RSC_OK && m.res[N + 2].outcome.status == 200 && same_str(m.res[N + 2].etag, "\"v1\""),
          "If-None-Match stale: %d", m.res[N + 2].outcome.status);
    CHECK(m.status[N + 3] == RSC_E_ARG && m.res[N + 3].final_url == NULL, "NULL url: %d", m.status[N + 3]);
    for (int i = 0; i < N + 4; i++)
        rsc_fetch_result_free(&m.res[i]);

    CHECK(rsc_fetch_many(NULL, 1, NULL, 0, on_many, &m) == RSC_E_ARG, "NULL requests");
    CHECK(rsc_fetch_many(reqs, 1, NULL, 0, NULL, &m) == RSC_E_ARG, "NULL callback");
    memset(&m, 0, sizeof m);
    CHECK(rsc_fetch_many(NULL, 0, NULL, 0, on_many, &m) == RSC_OK && m.calls[0] == 0, "no requests");
}

int main(void)
{
    const char *ports = getenv("RSC_TEST_PORTS"), *log = getenv("RSC_TEST_LOG");
    if (!ports || !log) {
        printf("run me through with_server.sh\n");
        return 2;
    }
    snprintf(ports_path, sizeof ports_path, "%s", ports);
    if (rsc_crawl_global_init() != RSC_OK) {
        printf("libcurl init failed\n");
        return 1;
    }
    test_statuses();
    test_redirects();
    test_errors();
    test_cap();
    test_cache_control();
    test_user_agent(log);
    test_validators();
    test_many();
    rsc_crawl_global_cleanup();
    printf("%d checks, %d failed\n", checks, fails);
    return fails ? 1 : 0;
}
