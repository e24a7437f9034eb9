/* SPDX-License-Identifier: Apache-2.0 */
/* Public API additions of issue 11: the version, the crawler token of a
 * User-Agent (rsc_agent_token) on real crawler headers, and group
 * directives as values (rsc_crawl_delay, rsc_request_rate) per selection. */
#include <stdio.h>
#include <string.h>

#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

static int fails, checks;
#define CHECK(c, ...)                                                                              \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(c)) {                                                                                \
            fails++;                                                                               \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #c);                                    \
            printf(__VA_ARGS__);                                                                   \
            putchar('\n');                                                                         \
        }                                                                                          \
    } while (0)

static void version(void)
{
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", RSC_VERSION_MAJOR, RSC_VERSION_MINOR, RSC_VERSION_PATCH);
    CHECK(strcmp(rsc_version(), RSC_VERSION_STRING) == 0, "%s", rsc_version());
    CHECK(strcmp(want, RSC_VERSION_STRING) == 0, "macros %s vs %s", want, RSC_VERSION_STRING);
    /* The CMake project version (the soname's source) is the header's. */
    CHECK(strcmp(RSC_PROJECT_VERSION, RSC_VERSION_STRING) == 0, "project %s", RSC_PROJECT_VERSION);
}

/* want NULL: RSC_E_ARG expected. */
static void token(const char *ua, const char *want, int want_changed)
{
    rsc_bytes t = {NULL, 0};
    int changed = -1;
    rsc_status st = rsc_agent_token(ua, strlen(ua), &t, &changed);
    if (!want) {
        CHECK(st == RSC_E_ARG, "'%s': status %d", ua, (int)st);
        return;
    }
    CHECK(st == RSC_OK, "'%s': status %d", ua, (int)st);
    if (st != RSC_OK)
        return;
    CHECK(t.len == strlen(want) && memcmp(t.ptr, want, t.len) == 0, "'%s' gave '%.*s', want '%s'", ua,
          (int)t.len, t.ptr, want);
    CHECK(t.ptr >= ua && t.ptr + t.len <= ua + strlen(ua), "'%s': token outside the input", ua);
    CHECK(changed == want_changed, "'%s': changed %d", ua, changed);
}

static void tokens(void)
{
    /* Bare tokens: unchanged. */
    token("Googlebot", "Googlebot", 0);
    token("googlebot-news", "googlebot-news", 0);
    token("Google-Extended", "Google-Extended", 0);
    token("My_Bot", "My_Bot", 0);
    /* Trimmed, or a version dropped. */
    token("Googlebot ", "Googlebot", 1);
    token("\tGooglebot\r\n", "Googlebot", 1);
    token("Googlebot/2.1", "Googlebot", 1);
    token("Googlebot-Image/1.0", "Googlebot-Image", 1);
    token("Bot2", "Bot", 1); /* digits stop a token, as in a file (F.2) */
    token("Foo Bar", "Foo", 1);
    /* Whole User-Agent headers (as published by each crawler's operator). */
    token("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot", 1);
    token("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; "
          "+http://www.google.com/bot.html) Chrome/131.0.6778.204 Safari/537.36",
          "Googlebot", 1);
    token("Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like "
          "Gecko) Chrome/131.0.6778.204 Mobile Safari/537.36 (compatible; Googlebot/2.1; "
          "+http://www.google.com/bot.html)",
          "Googlebot", 1);
    token("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot", 1);
    token("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; "
          "+http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
          "bingbot", 1);
    token("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) "
          "Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
          "Applebot", 1);
    token("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; "
          "+https://openai.com/gptbot)",
          "GPTBot", 1);
    token("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; "
          "+claudebot@anthropic.com)",
          "ClaudeBot", 1);
    token("Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "YandexBot", 1);
    token("Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
          "Baiduspider", 1);
    token("DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)", "DuckDuckBot", 1);
    token("facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
          "facebookexternalhit", 1);
    token("AdsBot-Google (+http://www.google.com/adsbot.html)", "AdsBot-Google", 1);
    token("CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot", 1);
    token("curl/8.5.0", "curl", 1);
    token("Wget/1.21.3", "Wget", 1);
    token("Scrapy/2.11.2 (+https://scrapy.org)", "Scrapy", 1);
    token("python-requests/2.31.0", "python-requests", 1);
    /* A browser has no crawler comment: its first product. */
    token("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Mozilla", 1);
    /* Case of "compatible" does not matter; a comment not closed still counts. */
    token("Mozilla/5.0 (Compatible; FooBot/1", "FooBot", 1);
    /* Nested parentheses stay in their comment; "compatible" wins over an
     * earlier crawler comment; only the item right after it counts. */
    token("X/1 (a (b; c) d; compatible; Bar/2)", "Bar", 1);
    token("X/1 (Early/1; +http://e.example) (compatible; Late/2)", "Late", 1);
    token("X/1 (compatible) (Other/3; http://o.example)", "Other", 1);
    token("X/1 (https://x.example)", "X", 1); /* a URL is not a product */
    /* No valid token. */
    token("", NULL, 0);
    token("   ", NULL, 0);
    token("*", NULL, 0);
    token("2bot", NULL, 0);
    token("/1.0", NULL, 0);
    token("Mozilla/5.0 (compatible; 123)", NULL, 0);
    rsc_bytes t;
    int ch;
    CHECK(rsc_agent_token(NULL, 0, &t, &ch) == RSC_E_ARG, "NULL ua");
    CHECK(rsc_agent_token("a", 1, NULL, &ch) == RSC_E_ARG, "NULL token");
    CHECK(rsc_agent_token("a", 1, &t, NULL) == RSC_E_ARG, "NULL changed");
    /* Length is honoured: no NUL needed. */
    CHECK(rsc_agent_token("Googlebot/2.1", 9, &t, &ch) == RSC_OK && t.len == 9 && ch == 0, "len");
}

/* A program compiled from text, and a selection for one agent. */
typedef struct fixture {
    rsc_blob blob;
    rsc_program prog;
    rsc_selection sel;
} fixture;

static int fixture_open(fixture *f, const char *text, const char *agent)
{
    memset(f, 0, sizeof *f);
    if (rsc_compile(text, strlen(text), NULL, &f->blob) != RSC_OK ||
        rsc_load(&f->prog, f->blob.data, f->blob.size, NULL) != RSC_OK)
        return 0;
    rsc_bytes a = {agent, strlen(agent)};
    return rsc_select(&f->prog, &a, 1, &f->sel) == RSC_OK;
}

/* want < 0: no valid crawl-delay expected. */
static void delay(const char *value, double want)
{
    char text[256];
    snprintf(text, sizeof text, "User-agent: a\nCrawl-delay: %s\nDisallow: /x\n", value);
    fixture f;
    CHECK(fixture_open(&f, text, "a"), "compile '%s'", value);
    double s = -7;
    int got = rsc_crawl_delay(&f.sel, &s);
    if (want < 0)
        CHECK(got == 0 && s == -7, "'%s' accepted as %g", value, s);
    else
        CHECK(got == 1 && s == want, "'%s': got %d, %.17g want %g", value, got, s, want);
    rsc_blob_free(&f.blob, NULL);
}

/* want_req 0: no valid request-rate expected. */
static void rate(const char *value, uint32_t want_req, double want_s)
{
    char text[256];
    snprintf(text, sizeof text, "User-agent: a\nRequest-rate: %s\n", value);
    fixture f;
    CHECK(fixture_open(&f, text, "a"), "compile '%s'", value);
    uint32_t req = 7;
    double s = -7;
    int got = rsc_request_rate(&f.sel, &req, &s);
    if (!want_req)
        CHECK(got == 0 && req == 7 && s == -7, "'%s' accepted as %u/%g", value, (unsigned)req, s);
    else
        CHECK(got == 1 && req == want_req && s == want_s, "'%s': got %d, %u/%g", value, got, (unsigned)req,
              s);
    rsc_blob_free(&f.blob, NULL);
}

static void directives(void)
{
    delay("10", 10);
    delay("0", 0);
    delay("0.5", 0.5);
    delay(".5", 0.5);
    delay("5.", 5);
    delay("007", 7);
    delay("2.25", 2.25);
    delay("0.05", 0.05);
    delay("1.000000000000000000001", 1);   /* fraction digits past the 18th ignored */
    delay("999999999999999", 999999999999999.0); /* 15 digits */
    delay("1000000000000000", -1);         /* 16 digits */
    delay("", -1);
    delay(".", -1);
    delay("-1", -1);
    delay("+1", -1);
    delay("5s", -1);
    delay("1e3", -1);
    delay("1,5", -1);
    delay("1.2.3", -1);
    delay("ten", -1);

    rate("1/5", 1, 5);
    rate("1/10s", 1, 10);
    rate("30/1m", 30, 60);
    rate("2/1h", 2, 3600);
    rate("100/1D", 100, 86400);
    rate("1 / 5", 1, 5);
    rate("1/10s 0600-0845", 1, 10);
    rate("4294967295/4294967295", 4294967295u, 4294967295.0);
    rate("4294967296/1", 0, 0);
    rate("0/5", 0, 0);
    rate("1/0", 0, 0);
    rate("1", 0, 0);
    rate("1/", 0, 0);
    rate("/5", 0, 0);
    rate("1/5x", 0, 0);
    rate("1/5s extra", 0, 0);
    rate("1/5s 0600-08", 0, 0);
    rate("a/b", 0, 0);

    /* Per selection: the groups that apply; '*' when none names the agent;
     * the first directive of the merged groups; none at all. */
    const char *text = "User-agent: *\nCrawl-delay: 3\nRequest-rate: 1/20s\nDisallow: /p\n\n"
                       "User-agent: slow\nCrawl-delay: 30\nDisallow: /q\n\n"
                       "User-agent: fast\nDisallow: /r\n\n"
                       "User-agent: slow\nCrawl-delay: 60\nRequest-rate: 1/1m\n";
    fixture f;
    double s;
    uint32_t req;
    CHECK(fixture_open(&f, text, "slow"), "compile");
    CHECK(rsc_crawl_delay(&f.sel, &s) == 1 && s == 30, "slow: %g", s);
    CHECK(rsc_request_rate(&f.sel, &req, &s) == 1 && req == 1 && s == 60, "slow rate");
    rsc_blob_free(&f.blob, NULL);
    CHECK(fixture_open(&f, text, "other"), "compile");
    CHECK(rsc_crawl_delay(&f.sel, &s) == 1 && s == 3, "other: %g", s);
    CHECK(rsc_request_rate(&f.sel, &req, &s) == 1 && req == 1 && s == 20, "other rate");
    rsc_blob_free(&f.blob, NULL);
    CHECK(fixture_open(&f, text, "fast"), "compile");
    CHECK(rsc_crawl_delay(&f.sel, &s) == 0, "fast has no crawl-delay (named: '*' ignored)");
    CHECK(rsc_request_rate(&f.sel, &req, &s) == 0, "fast has no request-rate");
    rsc_blob_free(&f.blob, NULL);
    CHECK(rsc_crawl_delay(NULL, &s) == 0, "NULL selection");
}

int main(void)
{
    version();
    tokens();
    directives();
    printf("api: %d checks, %d failed\n", checks, fails);
    return fails != 0;
}
