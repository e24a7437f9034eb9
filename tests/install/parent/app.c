/* SPDX-License-Identifier: Apache-2.0 */
/* The parent's program: robotsc::compiler from a subproject. */
#include <stdio.h>
#include <string.h>

#include <robotsc/compiler.h>

int main(void)
{
    const char *txt = "User-agent: *\nDisallow: /x\n";
    rsc_blob b;
    rsc_program p;
    rsc_selection s;
    rsc_bytes a = {"bot", 3};
    if (rsc_compile(txt, strlen(txt), NULL, &b) != RSC_OK || rsc_load(&p, b.data, b.size, NULL) != RSC_OK ||
        rsc_select(&p, &a, 1, &s) != RSC_OK)
        return 2;
    int r = rsc_match_path(&s, "/x", 2, NULL);
    printf("parent: /x %d\n", r);
    rsc_blob_free(&b, NULL);
    return r != 0;
}
