/* SPDX-License-Identifier: Apache-2.0 */
/* Runtime only: load a blob file (argv[1], compiled from
 * "User-agent: *\nDisallow: /private\n"), check two URLs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <robotsc/runtime.h>

int main(int argc, char **argv)
{
    static unsigned char buf[1 << 16];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    rsc_program prog;
    rsc_selection sel;
    rsc_bytes agent = {"anybot", 6};
    if (n == 0 || rsc_load(&prog, buf, n, NULL) != RSC_OK || rsc_select(&prog, &agent, 1, &sel) != RSC_OK)
        return 2;
    int a = rsc_match_url(&sel, "https://example.com/private/x", 29, NULL);
    int b = rsc_match_url(&sel, "https://example.com/public", 26, NULL);
    printf("runtime %s: /private/x %d, /public %d\n", rsc_version(), a, b);
    return strcmp(rsc_version(), RSC_VERSION_STRING) != 0 || a != 0 || b != 1;
}
