/* SPDX-License-Identifier: Apache-2.0 */
/* Compiling is thread-safe (no global state in the compiler: its sorts
 * take their context as an argument): files with many wildcard rules, each
 * compiled by 4 threads at once, give the same bytes as alone, and the
 * blobs load and match the same way. A data race here once crashed
 * `robotsc store build -j`. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

#define NFILES 24
#define NTHREADS 4

static tu_buf bodies[NFILES];
static rsc_blob alone[NFILES];
static int mismatch[NTHREADS];

static void *worker(void *arg)
{
    int id = (int)(size_t)arg;
    for (int round = 0; round < 5; round++)
        for (int f = 0; f < NFILES; f++) {
            rsc_blob b;
            if (rsc_compile(bodies[f].p, bodies[f].n, NULL, &b) != RSC_OK) {
                mismatch[id]++;
                continue;
            }
            if (b.size != alone[f].size || memcmp(b.data, alone[f].data, b.size) != 0)
                mismatch[id]++;
            rsc_blob_free(&b, NULL);
        }
    return NULL;
}

int main(void)
{
    unsigned long long rng = 99;
    for (int f = 0; f < NFILES; f++) {
        tu_buf_puts(&bodies[f], "User-agent: *\n");
        for (int r = 0; r < 300 + 100 * f; r++) {
            char line[96];
            int n = snprintf(line, sizeof line, "%s: /", r % 3 ? "Disallow" : "Allow");
            for (int s = 0; s < 1 + r % 3; s++) {
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                n += snprintf(line + n, sizeof line - (size_t)n, "*%c%c%c", 'a' + (int)(rng >> 60),
                              'a' + (int)(rng >> 56 & 7), 'a' + (int)(rng >> 52 & 3));
            }
            snprintf(line + n, sizeof line - (size_t)n, "%s\n", r % 5 ? "" : "$");
            tu_buf_puts(&bodies[f], line);
        }
        TU_COUNT(rsc_compile(bodies[f].p, bodies[f].n, NULL, &alone[f]) == RSC_OK, "file %d compiles",
                 f);
    }
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++)
        TU_COUNT(pthread_create(&th[t], NULL, worker, (void *)(size_t)t) == 0, "thread %d", t);
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        TU_COUNT(mismatch[t] == 0, "thread %d: %d blobs differ from the single-thread ones", t,
                 mismatch[t]);
    }
    for (int f = 0; f < NFILES; f++) {
        rsc_program p;
        TU_COUNT(rsc_load(&p, alone[f].data, alone[f].size, NULL) == RSC_OK, "file %d loads", f);
        rsc_blob_free(&alone[f], NULL);
        free(bodies[f].p);
    }
    return tu_report("matching_threads", tu_passed);
}
