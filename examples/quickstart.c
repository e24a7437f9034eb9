/* SPDX-License-Identifier: Apache-2.0 */
/* Compile a robots.txt, verify the blob, select a crawler, check URLs. */
#include <stdio.h>
#include <string.h>

#include <robotsc/compiler.h>

int main(void)
{
    const char txt[] = "User-agent: *\nDisallow: /private/\n\nUser-agent: FooBot\nDisallow: /\n";
    const char *urls[] = {"https://example.com/about", "https://example.com/private/x"};
    const rsc_bytes agent = {"BarBot", 6};
    rsc_blob blob;
    rsc_program prog;
    rsc_selection sel;
    if (rsc_compile(txt, strlen(txt), NULL, &blob) != RSC_OK)
        return 2;
    if (rsc_load(&prog, blob.data, blob.size, NULL) == RSC_OK && rsc_select(&prog, &agent, 1, &sel) == RSC_OK)
        for (int i = 0; i < 2; i++)
            printf("%s %s\n", rsc_match_url(&sel, urls[i], strlen(urls[i]), NULL) ? "allow" : "disallow", urls[i]);
    rsc_blob_free(&blob, NULL);
    return 0;
}
