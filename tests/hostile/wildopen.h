/* SPDX-License-Identifier: Apache-2.0 */
/* Verdicts FORMAT.md leaves open: a blob that passes verification but
 * whose wildcard fields (levels, failure and output links, Max values,
 * sort orders: "Not checked" in FORMAT.md, Verification) are not what an
 * encoder writes is "safe but wrong"; there, the runtime's answer may
 * differ from blobspec.c's reading of "Matching". Judged by the checker of
 * tests/backend/blobcheck.h (another independent reading of FORMAT.md).
 * Used by hostile_blobs.c and tests/fuzz/fuzz_load.c. The wildcard part
 * is judged on its own first (a damaged trie or rule text must not hide a
 * damaged wildcard field), then the root slots' levels, then the rest of
 * the program as far as it concerns the wildcard rules. Since format 3.1, the
 * checker reads an automaton with labels (FORMAT.md "Labels") with the
 * blob's STRINGS, as the automaton its rows and labels spell out; labels
 * no encoder writes (on the root, other bytes than a segment's, implicit
 * states the Labels rule would not make implicit) leave the answer open. */
#ifndef RSC_HOSTILE_WILDOPEN_H
#define RSC_HOSTILE_WILDOPEN_H

#include <stdint.h>
#include <string.h>

#include "../backend/blobcheck.h"

/* Whether every root slot's Level under [at, end) is the number of slots
 * above its node (above: those on the way to this node). */
static inline int wild_levels_ok(const uint8_t *trie, size_t at, size_t end, uint32_t d, uint32_t above,
                                 const bc_texts *tx, const bc_table *roots, unsigned depth)
{
    bc_node x;
    if (depth > BC_MAX_DEPTH || !bc_parse_node(trie, at, end, d, tx, &x, NULL))
        return 1; /* (verified: not reached) */
    if (x.has_root) {
        if (x.slot < roots->count && bc_cell(roots, x.slot, BC_R_LEVEL) != above)
            return 0;
        above++;
    }
    for (uint32_t k = 0; k < x.n; k++) {
        size_t cs, ce;
        bc_child_span(&x, k, end, &cs, &ce);
        if (!wild_levels_ok(trie, cs, ce, x.depth + 1, above, tx, roots, depth + 1))
            return 0;
    }
    return 1;
}

/* Whether some program of the verified blob b[0..n) has wildcard fields
 * that FORMAT.md does not verify (levels, failure and output links, Max
 * values, sort orders) other than an encoder writes them: the checker of
 * tests/backend/blobcheck.h, without its pruning rule. Only then may the
 * runtime's verdicts differ from blobspec.c's reading of "Matching". */
static inline int wild_unspecified(const uint8_t *b, size_t n)
{
    /* The framing was verified: read the sections as they are (not with
     * bc_open, which also wants what an encoder promises: its minor, no
     * unknown section, the smallest widths). */
    bc_blob bb;
    memset(&bb, 0, sizeof bb);
    bb.p = b, bb.n = n, bb.rfc = b[BC_H_FLAGS] & 1;
    if (!bc_frame(&bb, 0, NULL))
        return 0;
    /* RULES, read without the encoder's smallest widths */
    bc_table rules;
    memset(&rules, 0, sizeof rules);
    const uint8_t *p = bb.sec[BC_RULES];
    if (p && !bc_read_table_any(&p, p + bb.sec_size[BC_RULES], bc_rules_cols(&bb), &rules, "RULES", NULL))
        return 0;
    bc_texts tx;
    bc_blob_texts(&bb, &rules, &tx);
    int open = 0;
    const uint8_t *ps = bb.sec[BC_PROGRAMS], *pe = ps ? ps + bb.sec_size[BC_PROGRAMS] : NULL;
    /* the Ends were verified: read them as they are */
    bc_table ends;
    if (ps && bc_read_table_any(&ps, pe, 1, &ends, "PROGRAMS", NULL) && ends.count) {
        const uint8_t *data = ps;
        uint32_t prev = 0;
        for (uint32_t k = 0; k < ends.count && !open; k++) {
            uint32_t e = bc_cell(&ends, k, 0);
            bc_err err = {{0}};
            bc_prog pr;
            const uint8_t *trie;
            uint32_t tsize;
            bc_wild wl;
            bc_seg sg;
            /* the wildcard part alone, then the levels, then the rest */
            if (!bc_split_program(data + prev, e - prev, &trie, &tsize, &wl, NULL) ||
                !bc_decode_wild_tx(&wl, &tx, &sg, NULL)) { /* (labels: read from STRINGS) */
                open = 1;
                break;
            }
            bc_seg_free(&sg);
            if (!wild_levels_ok(trie, 0, tsize, 0, 0, &tx, &wl.roots, 1)) {
                open = 1;
                break;
            }
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
