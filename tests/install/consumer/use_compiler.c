/* SPDX-License-Identifier: Apache-2.0 */
/* Compiler and runtime from C: compile, load, select by a whole
 * User-Agent header, match, read the crawl-delay. */
#include <stdio.h>
#include <string.h>

#include <robotsc/compiler.h>

int main(void)
{
    const char *txt = "User-agent: Googlebot\nCrawl-delay: 0.5\nDisallow: /search\n";
    const char *ua = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    rsc_blob b;
    rsc_program prog;
    rsc_selection sel;
    rsc_bytes tok;
    int changed;
    double delay = 0;
    if (rsc_compile(txt, strlen(txt), NULL, &b) != RSC_OK || rsc_load(&prog, b.data, b.size, NULL) != RSC_OK ||
        rsc_agent_token(ua, strlen(ua), &tok, &changed) != RSC_OK || rsc_select(&prog, &tok, 1, &sel) != RSC_OK)
        return 2;
    int allowed = rsc_match_url(&sel, "/search?q=1", 11, NULL);
    int has_delay = rsc_crawl_delay(&sel, &delay);
    printf("compiler: /search %d, crawl-delay %g\n", allowed, delay);
    rsc_blob_free(&b, NULL);
    return allowed != 0 || !has_delay || delay != 0.5;
}
