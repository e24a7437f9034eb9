/* SPDX-License-Identifier: Apache-2.0 */
/* crawl/: the origin key and robots.txt URL of a URL (libidn2 inside). */
#include <stdio.h>
#include <string.h>

#include <robotsc/crawl.h>

int main(void)
{
    const char *url = "HTTPS://Example.COM:443/a/b?c";
    rsc_origin o;
    if (rsc_origin_parse(url, strlen(url), &o) != RSC_URL_OK)
        return 2;
    printf("crawl: %s %s\n", o.key, o.robots_url);
    return strcmp(o.key, "https://example.com") != 0 ||
           strcmp(o.robots_url, "https://example.com/robots.txt") != 0;
}
