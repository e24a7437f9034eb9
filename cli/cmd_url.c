/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc url: which robots.txt governs a URL, and its origin key (spec I). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "robotsc/crawl.h"

int rsc_cmd_url(int argc, char **argv)
{
    const char *url = NULL;
    for (int i = 1; i < argc; i++) {
        if (rsc_cli_is_help(argv[i])) {
            puts("usage: robotsc url URL\n"
                 "Prints the robots.txt URL that governs URL, then its origin key: scheme and\n"
                 "host lower-cased, IDN hosts in punycode, the default port (80, 443, 21) and\n"
                 "any userinfo dropped. URLs with the same key share one robots.txt.\n"
                 "Only http, https and ftp URLs have a robots.txt; others exit 2.");
            return 0;
        } else if (strcmp(argv[i], "--") == 0 && i + 1 < argc && !url) {
            url = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            return rsc_cli_fail("url", "unknown option '%s'", argv[i]);
        } else if (!url) {
            url = argv[i];
        } else {
            return rsc_cli_fail("url", "unexpected argument '%s'", argv[i]);
        }
    }
    if (!url)
        return rsc_cli_fail("url", "usage: robotsc url URL");
    rsc_origin o;
    rsc_url_status st = rsc_origin_parse(url, strlen(url), &o);
    if (st != RSC_URL_OK)
        return rsc_cli_fail("url", "%s: %s", url, rsc_url_strerror(st));
    printf("%s\n%s\n", o.robots_url, o.key);
    return fflush(stdout) == 0 ? 0 : rsc_cli_fail("url", "cannot write output");
}
