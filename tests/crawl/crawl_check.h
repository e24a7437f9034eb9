/* SPDX-License-Identifier: Apache-2.0 */
/* The check macro of the crawl tests: counts checks and failures (each test
 * program prints them and exits non-zero on any failure). */
#ifndef RSC_CRAWL_CHECK_H
#define RSC_CRAWL_CHECK_H

#include <stdio.h>

static int fails, checks;

#define CHECK(cond, ...)                                                                                      \
    do {                                                                                                      \
        checks++;                                                                                             \
        if (!(cond)) {                                                                                        \
            fails++;                                                                                          \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                       \
            printf(__VA_ARGS__);                                                                              \
            putchar('\n');                                                                                    \
        }                                                                                                     \
    } while (0)

#endif
