/* SPDX-License-Identifier: Apache-2.0 */
/* rsc-datagen: writes the seeded synthetic data of datagen.c to stdout, so
 * peers and `robotsc bench` can run on exactly the bytes the C harness uses.
 *   rsc-datagen robots SEED N_RULES
 *   rsc-datagen urls SEED N
 *   rsc-datagen paths SEED N LEN */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datagen.h"

int main(int argc, char **argv)
{
    dg_buf b = {NULL, 0, 0};
    int e = -1;
    if (argc == 4 && strcmp(argv[1], "robots") == 0)
        e = dg_robots(strtoull(argv[2], NULL, 10), (uint32_t)strtoul(argv[3], NULL, 10), &b);
    else if (argc == 4 && strcmp(argv[1], "urls") == 0)
        e = dg_urls(strtoull(argv[2], NULL, 10), (uint32_t)strtoul(argv[3], NULL, 10), &b);
    else if (argc == 5 && strcmp(argv[1], "paths") == 0 && strtoul(argv[4], NULL, 10) > 0)
        e = dg_paths(strtoull(argv[2], NULL, 10), (uint32_t)strtoul(argv[3], NULL, 10),
                     strtoul(argv[4], NULL, 10), &b);
    else {
        fputs("usage: rsc-datagen robots SEED N_RULES | urls SEED N | paths SEED N LEN\n", stderr);
        return 2;
    }
    if (e == 0 && b.len && fwrite(b.p, 1, b.len, stdout) != b.len)
        e = -1;
    dg_buf_free(&b);
    if (e != 0 || fflush(stdout) != 0) {
        fputs("rsc-datagen: out of memory or write error\n", stderr);
        return 2;
    }
    return 0;
}
