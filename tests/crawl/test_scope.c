/* SPDX-License-Identifier: Apache-2.0 */
/* Scope of a robots.txt (spec I): robots.txt URL and origin key of URLs,
 * the examples of Google's "robots.txt file location and range of
 * validity" table, and the errors for URLs that have no robots.txt. */
#include <stdio.h>
#include <string.h>

#include "robotsc/crawl.h"

#include "crawl_check.h"

/* URL -> expected robots.txt URL and key (NULL robots: key + /robots.txt). */
static const struct {
    const char *url, *key;
} keys[] = {
    {"https://example.com/", "https://example.com"},
    {"https://example.com/folder/file", "https://example.com"},
    {"https://example.com", "https://example.com"},
    {"https://example.com?q=1", "https://example.com"},
    {"https://example.com#frag", "https://example.com"},
    {"http://example.com/", "http://example.com"},
    {"HTTP://EXAMPLE.COM/Path/File", "http://example.com"},
    {"hTtPs://ExAmPlE.cOm:443/x", "https://example.com"},
    {"https://example.com:443/", "https://example.com"},
    {"https://example.com:0443/", "https://example.com"},
    {"https://example.com:/", "https://example.com"}, /* empty port = default */
    {"http://example.com:80/", "http://example.com"},
    {"http://example.com:443/", "http://example.com:443"},
    {"https://example.com:80/", "https://example.com:80"},
    {"https://example.com:444/", "https://example.com:444"},
    {"http://example.com:8181/", "http://example.com:8181"},
    {"ftp://example.com/", "ftp://example.com"},
    {"ftp://example.com:21/pub/file", "ftp://example.com"},
    {"ftp://user:pw@example.com:2121/", "ftp://example.com:2121"},
    {"https://user:secret@example.com/x", "https://example.com"},
    {"https://user@example.com:8443/x", "https://example.com:8443"},
    {"https://a@b@example.com/", "https://example.com"}, /* userinfo ends at the last '@' */
    {"https://www.example.com/", "https://www.example.com"},
    {"https://shop.www.example.com/", "https://shop.www.example.com"},
    {"https://212.96.82.21/robots.txt", "https://212.96.82.21"},
    {"http://127.0.0.1:8080/a", "http://127.0.0.1:8080"},
    {"http://[::1]:8080/", "http://[::1]:8080"},
    {"http://[::1]/", "http://[::1]"},
    {"http://[::1]:80/", "http://[::1]"},
    {"http://[0:0:0:0:0:0:0:1]/", "http://[::1]"}, /* one address, one key */
    {"http://[2001:DB8::A]/x", "http://[2001:db8::a]"},
    {"http://[2001:db8:0:0:1:0:0:1]/", "http://[2001:db8::1:0:0:1]"},
    {"http://[::ffff:192.0.2.1]/", "http://[::ffff:192.0.2.1]"},
    {"https://www.exämple.com/", "https://www.xn--exmple-cua.com"},
    {"https://exämple.com/", "https://xn--exmple-cua.com"},
    {"https://xn--exmple-cua.com/", "https://xn--exmple-cua.com"},
    {"https://XN--EXMPLE-CUA.COM/", "https://xn--exmple-cua.com"},
    {"https://EXÄMPLE.com/", "https://xn--exmple-cua.com"}, /* UTS #46 maps case */
    {"https://ex%C3%A4mple.com/", "https://xn--exmple-cua.com"}, /* %-encoded UTF-8 host */
    {"https://ex%61mple.com/", "https://example.com"},
    {"https://bücher.de/", "https://xn--bcher-kva.de"},
    {"https://faß.de/", "https://xn--fa-hia.de"}, /* non-transitional: ß kept */
    {"http://例え.テスト/", "http://xn--r8jz45g.xn--zckzah"},
    {"http://my_host.example/", "http://my_host.example"},
    {"http://example.com./", "http://example.com."},
    {"  https://example.com/x \r\n", "https://example.com"},
    {"https://example.com:8181/folder/robots.txt", "https://example.com:8181"},
};

static void test_keys(void)
{
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        rsc_origin o;
        rsc_url_status st = rsc_origin_parse(keys[i].url, strlen(keys[i].url), &o);
        CHECK(st == RSC_URL_OK, "%s: %s", keys[i].url, rsc_url_strerror(st));
        if (st != RSC_URL_OK)
            continue;
        CHECK(strcmp(o.key, keys[i].key) == 0, "%s: key %s, want %s", keys[i].url, o.key, keys[i].key);
        CHECK(o.key_len == strlen(o.key), "%s: key_len", keys[i].url);
        char want[600];
        snprintf(want, sizeof want, "%s/robots.txt", keys[i].key);
        CHECK(strcmp(o.robots_url, want) == 0, "%s: robots %s", keys[i].url, o.robots_url);
        CHECK(o.robots_url_len == strlen(o.robots_url), "%s: robots_url_len", keys[i].url);
    }
    rsc_origin o;
    rsc_origin_parse("https://Example.com:8443/x", 26, &o);
    CHECK(strcmp(o.scheme, "https") == 0 && strcmp(o.host, "example.com") == 0 && o.port == 8443 &&
              !o.default_port,
          "fields: %s %s %u %u", o.scheme, o.host, o.port, o.default_port);
    rsc_origin_parse("http://example.com/", 19, &o);
    CHECK(o.port == 80 && o.default_port, "default port fields");
    /* Not NUL-terminated: only len bytes count. */
    CHECK(rsc_origin_parse("http://a.example/zzz", 16, &o) == RSC_URL_OK && strcmp(o.key, "http://a.example") == 0,
          "length-bounded input: %s", o.key);
    CHECK(rsc_origin_parse("http://a.example:80", 18, &o) == RSC_URL_OK && strcmp(o.key, "http://a.example:8") == 0,
          "length cuts the port: %s", o.key);
}

/* Google's table: the robots.txt at R governs U (1) or not (0). */
static const struct {
    const char *robots, *url;
    int valid;
} table[] = {
    {"https://example.com/robots.txt", "https://example.com/", 1},
    {"https://example.com/robots.txt", "https://example.com/folder/file", 1},
    {"https://example.com/robots.txt", "https://other.example.com/", 0},
    {"https://example.com/robots.txt", "http://example.com/", 0},
    {"https://example.com/robots.txt", "https://example.com:8181/", 0},
    {"https://www.example.com/robots.txt", "https://www.example.com/", 1},
    {"https://www.example.com/robots.txt", "https://example.com/", 0},
    {"https://www.example.com/robots.txt", "https://shop.www.example.com/", 0},
    {"https://www.example.com/robots.txt", "https://www.shop.example.com/", 0},
    {"https://www.exämple.com/robots.txt", "https://www.exämple.com/", 1},
    /* Google's table lists https://xn--exmple-cua.com/ here, dropping the
     * "www."; the punycode form of www.exämple.com is this one: */
    {"https://www.exämple.com/robots.txt", "https://www.xn--exmple-cua.com/", 1},
    {"https://exämple.com/robots.txt", "https://xn--exmple-cua.com/", 1},
    {"https://www.exämple.com/robots.txt", "https://www.example.com/", 0},
    {"ftp://example.com/robots.txt", "ftp://example.com/", 1},
    {"ftp://example.com/robots.txt", "https://example.com/", 0},
    {"https://212.96.82.21/robots.txt", "https://212.96.82.21/", 1},
    {"https://212.96.82.21/robots.txt", "https://example.com/", 0},
    {"https://example.com:443/robots.txt", "https://example.com:443/", 1},
    {"https://example.com:443/robots.txt", "https://example.com/", 1},
    {"https://example.com:443/robots.txt", "https://example.com:444/", 0},
    {"http://example.com:8181/robots.txt", "http://example.com:8181/", 1},
    {"http://example.com:8181/robots.txt", "http://example.com/", 0},
    {"http://[::1]:8080/robots.txt", "http://[::1]:8080/a", 1},
    {"http://[::1]:8080/robots.txt", "http://[::1]/a", 0},
    {"http://[::1]:8080/robots.txt", "http://127.0.0.1:8080/a", 0},
    {"http://127.0.0.1/robots.txt", "http://localhost/", 0},
};

static void test_table(void)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        rsc_origin r, u;
        CHECK(rsc_url_is_robots(table[i].robots, strlen(table[i].robots)), "%s is a robots.txt", table[i].robots);
        rsc_url_status a = rsc_origin_parse(table[i].robots, strlen(table[i].robots), &r);
        rsc_url_status b = rsc_origin_parse(table[i].url, strlen(table[i].url), &u);
        CHECK(a == RSC_URL_OK && b == RSC_URL_OK, "%s / %s parse", table[i].robots, table[i].url);
        int same = strcmp(r.key, u.key) == 0;
        CHECK(same == table[i].valid, "%s governs %s: %d, want %d", table[i].robots, table[i].url, same,
              table[i].valid);
        if (table[i].valid)
            CHECK(strcmp(u.robots_url, r.robots_url) == 0, "%s: robots url %s", table[i].url, u.robots_url);
    }
}

static void test_is_robots(void)
{
    static const struct {
        const char *url;
        int yes;
    } cases[] = {
        {"https://example.com/robots.txt", 1},
        {"https://example.com/robots.txt?x=1", 1},
        {"https://example.com/robots.txt#top", 1},
        {"HTTPS://EXAMPLE.COM:443/robots.txt", 1},
        {"ftp://example.com/robots.txt", 1},
        {"https://example.com/folder/robots.txt", 0}, /* Google: not a valid robots.txt */
        {"https://example.com/ROBOTS.TXT", 0},        /* paths are case-sensitive */
        {"https://example.com/robots.txt/", 0},
        {"https://example.com/robots.txtx", 0},
        {"https://example.com/", 0},
        {"https://example.com", 0},
        {"/robots.txt", 0},
        {"mailto:robots.txt@example.com", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(rsc_url_is_robots(cases[i].url, strlen(cases[i].url)) == cases[i].yes, "is_robots(%s)",
              cases[i].url);
    /* The robots.txt of a subfolder file is still the top-level one. */
    rsc_origin o;
    rsc_origin_parse("https://example.com/folder/robots.txt", 37, &o);
    CHECK(strcmp(o.robots_url, "https://example.com/robots.txt") == 0, "folder: %s", o.robots_url);
}

static void test_errors(void)
{
    char longhost[400];
    memset(longhost, 'a', sizeof longhost);
    memcpy(longhost, "http://", 7);
    longhost[sizeof longhost - 1] = 0;
    static const struct {
        const char *url;
        rsc_url_status want;
    } cases[] = {
        {"", RSC_URL_E_RELATIVE},
        {"   ", RSC_URL_E_RELATIVE},
        {"/robots.txt", RSC_URL_E_RELATIVE},
        {"folder/file", RSC_URL_E_RELATIVE},
        {"//example.com/x", RSC_URL_E_RELATIVE},
        {"example.com", RSC_URL_E_RELATIVE},
        {"?q=1", RSC_URL_E_RELATIVE},
        {"1http://example.com/", RSC_URL_E_RELATIVE},
        {"mailto:someone@example.com", RSC_URL_E_SCHEME},
        {"data:text/plain,User-agent: *", RSC_URL_E_SCHEME},
        {"file:///etc/robots.txt", RSC_URL_E_SCHEME},
        {"javascript:alert(1)", RSC_URL_E_SCHEME},
        {"ws://example.com/", RSC_URL_E_SCHEME},
        {"httpx://example.com/", RSC_URL_E_SCHEME},
        {"example.com:8080/x", RSC_URL_E_SCHEME}, /* "example.com" reads as a scheme */
        {"http:example.com/", RSC_URL_E_SYNTAX},
        {"http:/example.com/", RSC_URL_E_SYNTAX},
        {"http://exa mple.com/", RSC_URL_E_SYNTAX},
        {"http://example.com\\@evil.com/", RSC_URL_E_SYNTAX},
        {"http://exa\tmple.com/", RSC_URL_E_SYNTAX},
        {"http:///path", RSC_URL_E_EMPTY_HOST},
        {"http://", RSC_URL_E_EMPTY_HOST},
        {"https://:443/", RSC_URL_E_EMPTY_HOST},
        {"https://user@/x", RSC_URL_E_EMPTY_HOST},
        {"http://[]/", RSC_URL_E_EMPTY_HOST},
        {"http://[::1/", RSC_URL_E_HOST},
        {"http://[::1]x/", RSC_URL_E_HOST},
        {"http://[fe80::1%25eth0]/", RSC_URL_E_HOST}, /* zone IDs are local only */
        {"http://[example.com]/", RSC_URL_E_HOST},
        {"http://exa<mple.com/", RSC_URL_E_HOST},
        {"http://exa%zzmple.com/", RSC_URL_E_HOST},
        {"http://exa%2fmple.com/", RSC_URL_E_HOST}, /* decodes to '/' */
        {"http://exa%2", RSC_URL_E_HOST},
        {"http://example.com:65536/", RSC_URL_E_PORT},
        {"http://example.com:99999999999999999999/", RSC_URL_E_PORT},
        {"http://example.com:0/", RSC_URL_E_PORT},
        {"http://example.com:8o/", RSC_URL_E_PORT},
        {"http://example.com:-1/", RSC_URL_E_PORT},
        {"http://::1/", RSC_URL_E_PORT},
        {"http://ex\xff" "ample.com/", RSC_URL_E_IDN}, /* not UTF-8 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rsc_origin o;
        memset(&o, 0x55, sizeof o);
        rsc_url_status st = rsc_origin_parse(cases[i].url, strlen(cases[i].url), &o);
        CHECK(st == cases[i].want, "%s: got %d (%s), want %d", cases[i].url, st, rsc_url_strerror(st),
              cases[i].want);
        CHECK(st == RSC_URL_OK || (o.key[0] == 0 && o.key_len == 0 && o.robots_url[0] == 0),
              "%s: output zeroed on failure", cases[i].url);
        CHECK(strlen(rsc_url_strerror(st)) > 0, "message");
    }
    rsc_origin o;
    CHECK(rsc_origin_parse(longhost, strlen(longhost), &o) == RSC_URL_E_TOO_LONG, "long host");
    CHECK(rsc_origin_parse(NULL, 0, &o) == RSC_URL_E_RELATIVE, "NULL, 0");
    CHECK(rsc_origin_parse(NULL, 5, &o) == RSC_URL_E_ARG, "NULL url");
    CHECK(rsc_origin_parse("http://a/", 9, NULL) == RSC_URL_E_ARG, "NULL out");
    CHECK(strcmp(rsc_url_strerror(999), "unknown URL error") == 0, "unknown status");
    CHECK(strcmp(rsc_url_strerror(-1), "unknown URL error") == 0, "negative status");
    /* A 253-byte name is fine. */
    char okhost[300] = "http://";
    for (int i = 0; i < 253; i++)
        okhost[7 + i] = (i % 10 == 9) ? '.' : 'b';
    okhost[7 + 253] = 0;
    CHECK(rsc_origin_parse(okhost, strlen(okhost), &o) == RSC_URL_OK && strlen(o.host) == 253, "253-byte host");
}

int main(void)
{
    test_keys();
    test_table();
    test_is_robots();
    test_errors();
    printf("%d checks, %d failed\n", checks, fails);
    return fails ? 1 : 0;
}
