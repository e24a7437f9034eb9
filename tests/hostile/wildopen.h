/* Verdicts FORMAT.md leaves open: a blob that passes verification but
 * whose wildcard fields (levels, failure and output links, Max values,
 * sort orders: "Not checked" in FORMAT.md, Verification) are not what an
 * encoder writes is "safe but wrong"; there, the runtime's answer may
 * differ from blobspec.c's reading of "Matching". Judged by the checker of
 * tests/backend/blobcheck.h (another independent reading of FORMAT.md).
 * Used by hostile_blobs.c and tests/fuzz/fuzz_load.c. */
#ifndef RSC_HOSTILE_WILDOPEN_H
#define RSC_HOSTILE_WILDOPEN_H

#include <stdint.h>
#include <string.h>

#include "../backend/blobcheck.h"

/* Whether some program of the verified blob b[0..n) has wildcard fields
 * that FORMAT.md does not verify (levels, failure and output links, Max
 * values, sort orders) other than an encoder writes them: the checker of
 * tests/backend/blobcheck.h, without its pruning rule. Only then may the
 * runtime's verdicts differ from blobspec.c's reading of "Matching". */
static inline int wild_unspecified(const uint8_t *b, size_t n)
{
    bc_blob bb;
    bc_table rules;
    const uint8_t *p, *end;
    if (!bc_open(&bb, b, n, NULL))
        return 0;
    memset(&rules, 0, sizeof rules);
    bc_section(&bb, BC_RULES, &p, &end);
    if (p && !bc_read_table(&p, end, bc_rules_cols(&bb), &rules, "RULES", NULL))
        return 0;
    bc_texts tx;
    bc_blob_texts(&bb, &rules, &tx);
    int open = 0;
    bc_section(&bb, BC_PROGRAMS, &p, &end);
    /* the Ends were verified: read them as they are */
    uint32_t count = 0;
    const uint8_t *q = p;
    if (p && bc_varint(&q, end, &count) && count) {
        unsigned w = *q++;
        const uint8_t *data = q + (size_t)count * w;
        uint32_t prev = 0;
        for (uint32_t k = 0; k < count && !open; k++) {
            uint32_t e = bc_rdn(q + (size_t)k * w, w);
            bc_err err = {{0}};
            bc_prog pr;
            if (!bc_check_program(data + prev, e - prev, &tx, 0, 0, &pr, &err) &&
                (strstr(err.msg, "Level") || strstr(err.msg, "Slot") || strstr(err.msg, "STATES") ||
                 strstr(err.msg, "OUTS") || strstr(err.msg, "EDGES") || strstr(err.msg, "ROOTS") ||
                 strstr(err.msg, "edge") || strstr(err.msg, "chain") || strstr(err.msg, "internal") ||
                 strstr(err.msg, "slot")))
                open = 1;
            prev = e;
        }
    }
    bc_texts_free(&tx);
    return open;
}

#endif
