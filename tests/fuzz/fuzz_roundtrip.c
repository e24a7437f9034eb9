/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: compiler round trip. Any bytes as a robots.txt -> compile ->
 * verify -> match paths derived from the file's own patterns (each '*'
 * replaced by "", by "x" and by "/x", a final '$' dropped, plus prefixes and
 * one-byte extensions) for agents derived from its user-agent lines and a
 * few fixed ones; every verdict and deciding line equals the reference
 * matcher's (tests/ref). The first byte picks the profile (bit 0) and
 * whether entries that can never decide are kept in the tries (bit 1,
 * no_prune) and whether the blob has DFAs (bit 2 set: none, the programs'
 * fallback); the rest is the robots.txt (capped at 8 KiB to keep the
 * quadratic reference fast). Every selection is checked three times: with
 * the deciding line (the programs), then verdicts only (m NULL) through
 * rsc_select's engine, the blob's DFA when the rule set has one, and
 * through the programs (rsc_selection_use). 1.0 built DFAs at several
 * budgets here for every input: 17 inputs/s; nothing is built now. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ref_robots.h"
#include "robotsc/compiler.h"
#include "robotsc/ir.h"
#include "robotsc/runtime.h"

/* 1: the pass through the DFA, which answers calls with m NULL only */
static int verdict_only;

static void check_path(const rsc_selection *sel, const ref_robots *ref, const rsc_bytes *ag, size_t n_ag,
                       const char *path, size_t plen)
{
    if (plen == 0 || path[0] != '/')
        return; /* a matched path always starts with '/' (spec G) */
    rsc_match m;
    memset(&m, 0, sizeof m);
    int v = rsc_match_path(sel, path, plen, verdict_only ? NULL : &m);
    ref_str rag[2];
    FUZZ_ASSERT(n_ag <= 2);
    for (size_t i = 0; i < n_ag && i < 2; i++) {
        rag[i].ptr = ag[i].ptr;
        rag[i].len = ag[i].len;
    }
    ref_verdict r = ref_check_parsed(ref, rag, n_ag, path, plen, 1);
    if (v != r.allowed || (!verdict_only && r.line && (int)m.line != r.line)) {
        fprintf(stderr, "mismatch: path '%.*s' agent '%.*s' lib %d (line %u) ref %d (line %d)\n", (int)plen, path,
                (int)ag[0].len, ag[0].ptr, v, (unsigned)m.line, r.allowed, r.line);
        abort();
    }
}

static void derive(const rsc_selection *sel, const ref_robots *ref, const rsc_bytes *ag, size_t n_ag,
                   const rsc_str *pat)
{
    char buf[600];
    for (int variant = 0; variant < 3; variant++) {
        size_t n = 0;
        for (size_t i = 0; i < pat->len && n < 500; i++) {
            char c = pat->ptr[i];
            if (c == '$' && i + 1 == pat->len)
                break;
            if (c == '*') {
                if (variant == 1)
                    buf[n++] = 'x';
                else if (variant == 2) {
                    buf[n++] = '/';
                    buf[n++] = 'x';
                }
                continue;
            }
            buf[n++] = c;
        }
        check_path(sel, ref, ag, n_ag, buf, n);
        if (n > 1)
            check_path(sel, ref, ag, n_ag, buf, n - 1);
        buf[n] = 'z';
        check_path(sel, ref, ag, n_ag, buf, n + 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192)
        return 0;
    int profile = data[0] & 1;
    const char *body = (const char *)data + 1;
    size_t blen = size - 1;
    rsc_compile_options o = {0};
    o.profile = profile ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
    o.no_prune = (data[0] >> 1) & 1;
    if (data[0] & 4) /* no DFA written: every rule set on the programs (the fallback) */
        o.no_prune |= RSC_COMPILE_NO_DFA;
    rsc_blob b = {NULL, 0};
    rsc_status st = rsc_compile(body, blen, &o, &b);
    if (st == RSC_E_LIMIT)
        return 0; /* a documented limit, reported as such */
    FUZZ_ASSERT(st == RSC_OK);
    rsc_program p;
    FUZZ_ASSERT(rsc_load(&p, b.data, b.size, NULL) == RSC_OK);
    rsc_parse_options po = {0};
    po.profile = o.profile;
    rsc_ir *ir = NULL;
    FUZZ_ASSERT(rsc_parse(body, blen, &po, &ir) == RSC_OK);

    ref_robots ref;
    FUZZ_ASSERT(ref_parse(&ref, body, blen, profile) == 0);
    rsc_bytes agents[8];
    size_t na = 0;
    agents[na++] = (rsc_bytes){"", 0};
    agents[na++] = (rsc_bytes){"unnamedbot", 10};
    for (size_t i = 0; i < ir->n_agents && na < 8; i++)
        if (!ir->agents[i].global)
            agents[na++] = (rsc_bytes){ir->agents[i].token.ptr, ir->agents[i].token.len};
    for (size_t a = 0; a < na; a++) {
        rsc_bytes two[2] = {agents[a], agents[(a + 1) % na]};
        for (size_t k = 1; k <= 2; k++) {
            rsc_selection sel;
            if (rsc_select(&p, two, k, &sel) != RSC_OK)
                continue;
            check_path(&sel, &ref, two, k, "/", 1);
            for (size_t r = 0; r < ir->n_rules && r < 64; r++)
                derive(&sel, &ref, two, k, &ir->rules[r].pattern);
            /* with m NULL: rsc_select's engine (the blob's DFA when the
             * rule set has one), then the programs (rsc_selection_use) */
            rsc_engine_info info;
            rsc_selection_engine(&sel, &info);
            FUZZ_ASSERT(info.engine == RSC_ENGINE_DFA || info.engine == RSC_ENGINE_PROGRAMS);
            FUZZ_ASSERT(info.engine == RSC_ENGINE_PROGRAMS || (k == 1 || sel.n_sets == 1));
            verdict_only = 1;
            check_path(&sel, &ref, two, k, "/", 1);
            for (size_t r = 0; r < ir->n_rules && r < 64; r++)
                derive(&sel, &ref, two, k, &ir->rules[r].pattern);
            FUZZ_ASSERT(rsc_selection_use(&sel, RSC_ENGINE_PROGRAMS) == RSC_OK &&
                        rsc_selection_engine(&sel, NULL) == RSC_ENGINE_PROGRAMS);
            check_path(&sel, &ref, two, k, "/", 1);
            for (size_t r = 0; r < ir->n_rules && r < 64; r++)
                derive(&sel, &ref, two, k, &ir->rules[r].pattern);
            verdict_only = 0;
        }
    }
    ref_free(&ref);
    rsc_ir_free(ir);
    rsc_blob_free(&b, &o);
    return 0;
}
