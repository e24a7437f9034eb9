/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the loader. Any bytes as a blob -> rsc_load() gives the
 * status that docs/FORMAT.md (format 5) demands, as read independently by
 * tests/hostile/blobspec.c: an error status (and a zeroed program), or
 * RSC_OK; an accepted blob then answers every call safely (selections for
 * a few agents, matches of a few paths derived from the input, explanations
 * whose pattern lies inside the blob, sitemaps and directives inside the
 * blob) and every verdict (allowed, decided, line, priority) is the one of
 * FORMAT.md's "Matching" as blobspec.c reads it: a damaged blob that passes
 * verification may be wrong, but only in the way the format allows (its
 * wildcard fields other than an encoder writes them: then FORMAT.md leaves
 * the verdict open, tests/hostile/wildopen.h, and only safety is checked).
 * Each selection also matches with m NULL, through the blob's DFA when its
 * rule set has one (safety only: a damaged DFA that passes verification
 * may be wrong) and through the programs (rsc_selection_use), whose
 * verdicts are FORMAT.md's.
 * The same bytes loaded with RSC_LOAD_DEFER: accepted whenever rsc_load()
 * accepts them (and then every answer is the same), and when only it
 * accepts them, every call that could run the programs it left is safe,
 * and explain fails closed where they are refused (exercise_deferred).
 * The first input byte, when it is 'T', makes the rest a robots.txt that is
 * compiled first (so the fuzzer also explores valid blobs and their
 * single-bit mutations: the byte after 'T' names a position to flip). */
#include <string.h>

#include "blobspec.h"
#include "wildopen.h"
#include "fuzz.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

static int inside(const rsc_program *p, const char *ptr, size_t len)
{
    const char *b = (const char *)p->base;
    return len == 0 || (ptr >= b && len <= p->size && (size_t)(ptr - b) <= p->size - len);
}

/* A program loaded with RSC_LOAD_DEFER (runtime.h): every call that may
 * run the programs it left unverified, on one agent and on several (ASan
 * sees a run of an unverified program that goes astray). With full (the
 * same blob through rsc_load, or NULL when that refused it), every answer
 * is the same. */
static void exercise_deferred(const rsc_program *dp, const rsc_program *full, const uint8_t *seed,
                              size_t seed_len)
{
    static const rsc_bytes lists[][2] = {{{"googlebot", 9}}, {{"a", 1}}, {{"FooBot", 6}},
                                         {{"a", 1}, {"googlebot", 9}}};
    static const size_t nag[] = {1, 1, 1, 2};
    const char *paths[] = {"/", "/a", "/index.html", (const char *)seed};
    for (size_t l = 0; l < 4; l++) {
        rsc_selection s, fs, q;
        const rsc_status st = rsc_select(dp, lists[l], nag[l], &s);
        FUZZ_ASSERT(st == RSC_OK || st == RSC_E_CORRUPT || st == RSC_E_LIMIT);
        if (full)
            FUZZ_ASSERT(rsc_select(full, lists[l], nag[l], &fs) == st);
        if (st != RSC_OK)
            continue;
        const int u = rsc_selection_uniform(&s);
        FUZZ_ASSERT(!full || u == rsc_selection_uniform(&fs));
        q = s;
        const rsc_status qs = rsc_selection_use(&q, RSC_ENGINE_PROGRAMS);
        FUZZ_ASSERT(qs == RSC_OK || (qs == RSC_E_CORRUPT && !full));
        for (size_t k = 0; k < 4; k++) {
            const size_t n = k < 3 ? strlen(paths[k]) : seed_len;
            rsc_match m, fm;
            const int v = rsc_match_url(&s, paths[k], n, NULL), w = rsc_match_url(&s, paths[k], n, &m);
            FUZZ_ASSERT((v == 0 || v == 1) && w == m.allowed);
            if (qs == RSC_OK)
                FUZZ_ASSERT(rsc_match_path(&q, paths[k], n, NULL) >= 0);
            else /* its programs refused: explain fails closed */
                FUZZ_ASSERT(w == 0 && !m.decided);
            if (full)
                FUZZ_ASSERT(v == rsc_match_url(&fs, paths[k], n, NULL) &&
                            w == rsc_match_url(&fs, paths[k], n, &fm) && m.line == fm.line);
        }
    }
}

static void exercise(const uint8_t *blob, size_t size, const uint8_t *seed, size_t seed_len)
{
    rsc_program p;
    rsc_load_error e = {0, NULL};
    rsc_status st = rsc_load(&p, blob, size, &e);
    bs_blob x;
    int ost = bs_verify(blob, size, &x, 0);
    if ((int)st != ost) {
        fprintf(stderr, "rsc_load: %s at %zu (%s); FORMAT.md: %s at %zu (%s)\n", rsc_strerror(st), e.offset,
                e.what ? e.what : "-", rsc_strerror(ost), x.fail_off, x.what);
        abort();
    }
    rsc_program defp;
    const rsc_status dst = rsc_load_ex(&defp, blob, size, RSC_LOAD_DEFER, NULL);
    FUZZ_ASSERT(dst == RSC_OK || st != RSC_OK); /* it accepts what rsc_load does, and more */
    if (dst == RSC_OK)
        exercise_deferred(&defp, st == RSC_OK ? &p : NULL, seed, seed_len);
    if (st != RSC_OK) {
        FUZZ_ASSERT(e.what != NULL && rsc_strerror(st) != NULL);
        FUZZ_ASSERT(p.base == NULL && p.size == 0);
        return;
    }
    static const char *names[] = {"", "*", "googlebot", "a", "FooBot", "bot-x"};
    for (size_t a = 0; a < sizeof names / sizeof names[0]; a++) {
        rsc_bytes ag = {names[a], strlen(names[a])};
        rsc_selection sel;
        bs_verdict bv;
        int sst = rsc_select(&p, &ag, 1, &sel);
        FUZZ_ASSERT((sst == RSC_OK) == (bs_match(blob, &x, &names[a], &ag.len, 1, "/", 1, &bv) == 0));
        if (sst != RSC_OK)
            continue;
        /* the same selection on the programs: m NULL answers as with m */
        rsc_selection asel = sel;
        FUZZ_ASSERT(rsc_selection_use(&asel, RSC_ENGINE_PROGRAMS) == RSC_OK);
        const char *paths[] = {"/", "/a", "/index.html", "/x/y?z", (const char *)seed};
        for (size_t k = 0; k < 5; k++) {
            size_t n = k < 4 ? strlen(paths[k]) : seed_len;
            /* FORMAT.md's verdict() cuts the path at its first NUL; the
             * runtime is compared on the cut path. On the whole path it
             * may answer otherwise when a damaged blob has a NUL in a
             * label or key (see hostile_blobs.c, nul_note()): safe only. */
            const char *nul = n ? memchr(paths[k], 0, n) : NULL;
            size_t cut = nul ? (size_t)(nul - paths[k]) : n;
            rsc_match m;
            int v = rsc_match_path(&sel, paths[k], n, &m);
            FUZZ_ASSERT(v == 0 || v == 1);
            FUZZ_ASSERT(v == m.allowed);
            if (m.decided)
                FUZZ_ASSERT(inside(&p, m.pattern, m.pattern_len));
            v = rsc_match_path(&sel, paths[k], cut, &m);
            bs_match(blob, &x, &names[a], &ag.len, 1, paths[k], n, &bv);
            if ((v != bv.allowed || m.decided != bv.decided || m.line != bv.line || m.priority != bv.priority) &&
                !wild_unspecified(blob, size)) {
                fprintf(stderr, "agent '%s' path %zu: rsc_match_path %d decided %d line %u priority %u; "
                        "FORMAT.md %d %d %u %u (rank %u)\n", names[a], k, v, m.decided, m.line, m.priority,
                        bv.allowed, bv.decided, bv.line, bv.priority, bv.rank);
                abort();
            }
            if (m.decided)
                FUZZ_ASSERT(inside(&p, m.pattern, m.pattern_len));
            rsc_match am;
            int av = rsc_match_path(&asel, paths[k], cut, &am);
            if ((av != v || am.decided != m.decided || am.line != m.line) && !wild_unspecified(blob, size)) {
                fprintf(stderr, "agent '%s' path %zu: programs %d line %u, as selected %d line %u\n", names[a],
                        k, av, am.line, v, m.line);
                abort();
            }
            /* m NULL: the blob's DFA when the set has one (a damaged DFA
             * that passes verification may be wrong, never unsafe) */
            v = rsc_match_path(&sel, paths[k], n, NULL);
            FUZZ_ASSERT(v == 0 || v == 1);
            v = rsc_match_url(&sel, paths[k], n, NULL);
            FUZZ_ASSERT(v == 0 || v == 1);
            v = rsc_match_url(&asel, paths[k], n, NULL);
            FUZZ_ASSERT(v == 0 || v == 1);
        }
        rsc_bytes val;
        uint32_t line;
        if (rsc_group_directive(&sel, "crawl-delay", &val, &line))
            FUZZ_ASSERT(inside(&p, val.ptr, val.len));
    }
    for (size_t i = 0; i < rsc_sitemap_count(&p); i++) {
        uint32_t line;
        rsc_bytes u;
        FUZZ_ASSERT(rsc_sitemap_get(&p, i, &line, &u));
        FUZZ_ASSERT(inside(&p, u.ptr, u.len));
    }
    for (size_t i = 0; i < rsc_directive_count(&p); i++) {
        uint32_t line;
        rsc_bytes k, v;
        FUZZ_ASSERT(rsc_directive_get(&p, i, &line, &k, &v));
        FUZZ_ASSERT(inside(&p, k.ptr, k.len) && inside(&p, v.ptr, v.len));
    }
    bs_free(&x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 2 && data[0] == 'T') {
        rsc_blob b = {NULL, 0};
        if (rsc_compile(data + 2, size - 2, NULL, &b) != RSC_OK)
            return 0;
        rsc_program p0;
        FUZZ_ASSERT(rsc_load(&p0, b.data, b.size, NULL) == RSC_OK); /* the compiler emits valid blobs */
        exercise(b.data, b.size, data, size);
        size_t bit = (size_t)data[1] * 8 + (size % 8);
        if (b.size) {
            b.data[(bit / 8) % b.size] ^= (uint8_t)(1u << (bit % 8));
            rsc_program p;
            /* A single-bit flip must always be detected (checksum). */
            FUZZ_ASSERT(rsc_load(&p, b.data, b.size, NULL) != RSC_OK);
            exercise(b.data, b.size, data, size); /* the status FORMAT.md gives */
        }
        rsc_blob_free(&b, NULL);
        return 0;
    }
    /* Copy to an exactly sized buffer so ASan sees any overread. */
    uint8_t *copy = malloc(size ? size : 1);
    FUZZ_ASSERT(copy != NULL);
    memcpy(copy, data, size);
    exercise(copy, size, data, size);
    free(copy);
    return 0;
}
