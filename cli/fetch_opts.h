/* SPDX-License-Identifier: Apache-2.0 */
/* The options `robotsc fetch` and `robotsc fetch --store` share, read by
 * one parser: --user-agent, --timeout, --now, --profile. */
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

#endif
