/* SPDX-License-Identifier: Apache-2.0 */
/* The options `robotsc fetch` and `robotsc fetch --store` share, read by
 * one parser: --user-agent, --timeout, --now, --profile, --text; and the
 * rules both apply to what they fetch. */
#ifndef ROBOTSC_CLI_FETCH_OPTS_H
#define ROBOTSC_CLI_FETCH_OPTS_H

#include <stdint.h>

#include "robotsc/crawl.h"
#include "robotsc/ir.h"

typedef struct rsc_fetch_cli {
    const char *user_agent; /* --user-agent; default "robotsc/VERSION"     */
    double timeout;         /* --timeout seconds, (0, 86400]; default 30  */
    int64_t now;            /* --now Unix seconds; default the clock       */
    rsc_profile profile;    /* --profile google|rfc; default google       */
    int text;               /* --text: binary or damaged-blob bodies are
                               read as a robots.txt                        */
} rsc_fetch_cli;

/* The defaults. */
void rsc_fetch_cli_init(rsc_fetch_cli *o);

/* Reads argv[*i] if it is one of the shared options ("NAME VALUE" or
 * "NAME=VALUE"; *i moves past the value). Returns 1 when it was, 0 when
 * argv[*i] is another argument, 2 after a message on a missing or bad
 * value. */
int rsc_fetch_cli_opt(int argc, char **argv, int *i, rsc_fetch_cli *o);

/* The fetcher's options for these (User-Agent, whole-transfer timeout). */
rsc_fetch_options rsc_fetch_cli_options(const rsc_fetch_cli *o);

/* rsc_classify()'s rule for a fetched body the status policy would parse:
 * 0 when it is read as a robots.txt (text; binary or a damaged blob with
 * text set), 2 after a message naming url when it is not (a robotsc blob,
 * always: a robots.txt URL that serves one is a mistake, never compiled or
 * stored). */
int rsc_fetch_cli_body(const char *url, const void *body, size_t len, int text);

/* The lifetime (seconds, rsc_cache_ttl()) that a response's Cache-Control
 * sets, or 0 when it sets none (no max-age, no-cache or no-store): then
 * a 304 keeps the stored response's lifetime. */
int64_t rsc_fetch_cli_lifetime(const char *cache_control);

#endif
