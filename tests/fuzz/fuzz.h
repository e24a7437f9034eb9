/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the fuzz targets: an assertion that survives NDEBUG and aborts
 * (so libFuzzer and the replay driver both report it). */
#ifndef RSC_FUZZ_H
#define RSC_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_ASSERT(c)                                                        \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "%s:%d: FUZZ_ASSERT(%s) failed\n", __FILE__,      \
                    __LINE__, #c);                                            \
            abort();                                                          \
        }                                                                     \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
