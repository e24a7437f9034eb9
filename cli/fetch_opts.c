/* SPDX-License-Identifier: Apache-2.0 */
/* The options shared by `robotsc fetch` and `robotsc fetch --store`. */
#include "fetch_opts.h"

#include <string.h>
#include <time.h>

#include "cli.h"
#include "robotsc/runtime.h"

#define CMD "fetch"

void rsc_fetch_cli_init(rsc_fetch_cli *o)
{
    o->user_agent = "robotsc/" RSC_VERSION_STRING;
    o->timeout = 30;
    o->now = (int64_t)time(NULL);
    o->profile = RSC_PROFILE_GOOGLE;
    o->text = 0;
}

int rsc_fetch_cli_opt(int argc, char **argv, int *i, rsc_fetch_cli *o)
{
    static const char *const names[] = {"--user-agent", "--timeout", "--now", "--profile"};
    const char *val = NULL;
    size_t k;
    int r = 0;
    for (k = 0; k < sizeof names / sizeof *names; k++)
        if ((r = rsc_cli_opt(argc, argv, i, names[k], &val)) != 0)
            break;
    if (r == 0) {
        if (strcmp(argv[*i], "--text") != 0)
            return 0;
        o->text = 1;
        return 1;
    }
    if (r < 0)
        return rsc_cli_fail(CMD, "%s needs a value", argv[*i]);
    switch (k) {
    case 0:
        o->user_agent = val;
        return 1;
    case 1:
        return rsc_cli_timeout(CMD, val, &o->timeout) == 0 ? 1 : 2;
    case 2:
        if (rsc_cli_i64(val, &o->now) != 0)
            return rsc_cli_fail(CMD, "--now: Unix seconds, not '%s'", val);
        return 1;
    default:
        if (strcmp(val, "google") == 0)
            o->profile = RSC_PROFILE_GOOGLE;
        else if (strcmp(val, "rfc") == 0)
            o->profile = RSC_PROFILE_RFC;
        else
            return rsc_cli_fail(CMD, "unknown profile '%s' (google or rfc)", val);
        return 1;
    }
}

rsc_fetch_options rsc_fetch_cli_options(const rsc_fetch_cli *o)
{
    rsc_fetch_options fo;
    memset(&fo, 0, sizeof fo);
    fo.user_agent = o->user_agent;
    fo.timeout_ms = (long)(o->timeout * 1000 + 0.5);
    if (fo.timeout_ms < 1)
        fo.timeout_ms = 1;
    return fo;
}

int rsc_fetch_cli_body(const char *url, const void *body, size_t len, int text)
{
    rsc_input_kind k = rsc_classify(body, len);
    if (k == RSC_INPUT_TEXT || (k != RSC_INPUT_BLOB && text))
        return 0;
    return rsc_cli_fail(CMD, "%s: body: %s, not read as a robots.txt%s", url, rsc_input_kind_what(k),
                        k == RSC_INPUT_BLOB ? "" : " (--text reads it as one)");
}

int64_t rsc_fetch_cli_lifetime(const char *cc)
{
    if (!cc)
        return 0;
    /* rsc_cache_ttl() is the one rule; Cache-Control sets the lifetime
     * when the answer does not depend on the default. */
    rsc_cache_options a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.default_ttl = RSC_DAY;
    b.default_ttl = 2 * RSC_DAY;
    int64_t ta = rsc_cache_ttl(cc, strlen(cc), &a), tb = rsc_cache_ttl(cc, strlen(cc), &b);
    return ta == tb ? ta : 0;
}
