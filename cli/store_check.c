/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc store check: URLs of any origins routed to their records. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_cmd.h"

static const char check_usage[] =
    "usage: robotsc store check DB (--agent NAME | --user-agent UA)... [--json]\n"
    "                           [--missing allow|disallow|unknown] [--now T] [--no-cache] [URL ...]\n"
    "--json: one JSON object per URL (JSON Lines): url, origin (null when the URL has\n"
    "none), verdict ('allow', 'disallow', the --missing word or 'error'), allowed (true,\n"
    "false, or null without a verdict), error (the reason, or null). Strings are\n"
    "UTF-8; a byte that is not UTF-8 is written as \\ufffd (U+FFFD).\n"
    "--agent NAME (or its alias --exact-agent) is the crawler's name, matched as given\n"
    "(never cut; a name that is not a product token gets the '*' group, with a\n"
    "warning); --user-agent UA reduces a\n"
    "User-Agent header or Name/version to its product token: as robotsc check does.\n"
    "Routes each URL (arguments, or standard input one per line, any origins) to its\n"
    "origin's record and prints allow, disallow or unknown, a tab and the URL. unknown:\n"
    "no record, or the record expired (at --now T, default the clock); --missing chooses\n"
    "what to print instead. A damaged record prints 'error' and a message on stderr,\n"
    "never a verdict; so does a URL with no robots.txt. Exit 0, or 2 when some line\n"
    "was an error.";

int cmd_check(int argc, char **argv)
{
    const char *db = NULL, *val, *missing = "unknown";
    rsc_bytes agents[RSC_MAX_SELECT];
    size_t n_agents = 0;
    int64_t now = (int64_t)time(NULL);
    int use_cache = 1, json = 0;
    char **urls = calloc((size_t)argc, sizeof *urls);
    int n_urls = 0, rc = 2;
    if (!urls)
        return rsc_cli_fail(CMD, "out of memory");
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts(check_usage);
            free(urls);
            return 0;
        } else if ((r = rsc_cli_agent_opt(CMD, argc, argv, &i, agents, &n_agents, RSC_MAX_SELECT)) != 0) {
            if (r > 0) /* the crawler's name as robotsc check takes it */
                goto out;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--missing", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (strcmp(val, "allow") && strcmp(val, "disallow") && strcmp(val, "unknown")) {
                rsc_cli_fail(CMD, "--missing: allow, disallow or unknown, not '%s'", val);
                goto out;
            }
            missing = val;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--now", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (now_of(val, &now) != 0)
                goto out;
        } else if (strcmp(argv[i], "--no-cache") == 0) {
            use_cache = 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if ((r = positional(argv[i], &db, 1)) == 1) {
            urls[n_urls++] = argv[i];
        } else if (r != 0) {
            goto out;
        }
        continue;
    missing:
        rsc_cli_fail(CMD, "%s needs a value", argv[i]);
        goto out;
    }
    if (!db || !n_agents) {
        rsc_cli_fail(CMD, "usage: robotsc store check DB --agent A [URL...] (--help for more)");
        goto out;
    }
    rsc_store_txn *t;
    rsc_store *st = open_reader(db, &t);
    if (!st)
        goto out;
    rsc_store_cache *cache = use_cache ? rsc_store_cache_new(4096, 0) : NULL;
    int errors = 0;
    char *line = NULL;
    size_t cap = 0;
    const char *u;
    size_t len, k = 0;
    while (rsc_cli_next_url(urls, (size_t)n_urls, &k, &line, &cap, &u, &len)) {
        int verdict = 0;
        rsc_store_status s = rsc_store_check(t, cache, agents, n_agents, u, len, now, &verdict);
        const char *word = s == RSC_STORE_OK ? (verdict == RSC_STORE_ALLOW ? "allow" : "disallow")
                         : s == RSC_STORE_NOTFOUND ? missing : "error";
        const char *why = s == RSC_STORE_E_KEY ? "URL has no robots.txt" : rsc_store_strerror(s);
        rsc_origin o;
        int has_origin = rsc_origin_parse(u, len, &o) == RSC_URL_OK;
        if (s != RSC_STORE_OK && s != RSC_STORE_NOTFOUND) {
            errors++;
            rsc_cli_fail("store check", "%s: %s", has_origin ? o.key : u, why);
        }
        if (json) {
            fputs("{\"url\":", stdout);
            rsc_cli_json_str(stdout, u, len);
            fputs(",\"origin\":", stdout);
            if (has_origin)
                rsc_cli_json_str(stdout, o.key, o.key_len);
            else
                fputs("null", stdout);
            printf(",\"verdict\":\"%s\",\"allowed\":%s,\"error\":", word,
                   s == RSC_STORE_OK ? (verdict == RSC_STORE_ALLOW ? "true" : "false") : "null");
            if (s != RSC_STORE_OK && s != RSC_STORE_NOTFOUND)
                rsc_cli_json_str(stdout, why, strlen(why));
            else
                fputs("null", stdout);
            fputs("}\n", stdout);
        } else {
            printf("%s\t", word);
            fwrite(u, 1, len, stdout);
            putchar('\n');
        }
    }
    free(line);
    rsc_store_cache_free(cache);
    rsc_store_end(t);
    rsc_store_close(st);
    if (fflush(stdout) != 0)
        rc = rsc_cli_fail(CMD, "cannot write output");
    else
        rc = errors ? 2 : 0;
out:
    free(urls);
    return rc;
}
