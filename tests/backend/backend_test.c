/* SPDX-License-Identifier: Apache-2.0 */
/* Back-end tests (docs/FORMAT.md version 4.0: the 3.1 document with the
 * changes of format 4.0, /work/f4spec.md: packed Table widths, one-rank
 * leaves, no Offsets[0], the 12-byte header and Present mask).
 *
 * Whole compiler: group merging and set sharing (spec F.5-F.7), rule
 * selection (E.3-E.5, E.8), verdicts against the reference matcher
 * (tests/ref) on fixed and on random files in both profiles, with and
 * without pruning, determinism, lint forwarding, allocation failure (every
 * k). Every blob the compiler writes must pass rsc_load and the independent
 * checker of blobcheck.h (every Verification rule plus the encoder's
 * promises), and rsc_blob_info_get must count what the checker counts.
 *
 * Program encoder (rsc_trie_emit, compiler/backend.h): on hand-written and
 * random pattern sets, the program it writes must hold exactly the entries
 * FORMAT.md says (one Accept/End per node, every glob, sorted by rank; with
 * pruning, none that can never decide), exactly the nodes of the compressed
 * trie of the literal prefixes (a node only where a pattern ends or two
 * part; each shared prefix stored once), and match every path like a naive
 * matcher of the patterns, through this file's own interpreter of
 * "Matching" and through the runtime (the program wrapped in hand-made
 * blobs whose RULES hold the patterns as match texts: always an rfc blob,
 * whose runtime matches the normalised path, and a google blob when the
 * pattern lengths allow the RULES order). Labels are pinned byte for byte
 * on both sides of the inline/reference threshold, and one-rank leaves
 * (Kind 2, 3) whatever their label's length. Also: the same set in
 * any order gives the same bytes, Offsets widths 1-3 (width 4 needs
 * millions of patterns: rsc_width and a Table check it), 255 children,
 * the chain-depth limit, and allocation failure.
 *
 * Format 3's wildcard part: the bytes of three rules at one node pinned;
 * shared edges for rules with the same slot and leading segments, internal
 * nodes, the automaton's failure and dictionary links for segments that
 * are suffixes of one another (all read back through the checker, which
 * must also reject a program whose automaton, Max values or levels an
 * encoder would not write); rule sets over a budget of a program (16 root
 * slots on a trie chain, internal nodes, edges from internal nodes, 16
 * segments ending together) compiled into several programs whose verdicts
 * equal the reference's and the checker's; one rule over the budgets on
 * its own in chain form.
 *
 * Format 3.1's labels (FORMAT.md, Labels): programs are emitted with their
 * match texts' places in a STRINGS (rsc_tpat.moff) that the checker and
 * the hand-made blobs share; a file where Labels must be 1 (rows versus
 * the whole automaton's states), files where it must be 0 (no state
 * implicit, or labels not smaller), a chain; the checker rejects a shifted
 * label, and every small enough program with its STATES in the other form
 * (restate()). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "blobcheck.h"
#include "format.h"
#include "ref_robots.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

static int passed;

static uint64_t rng = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static void print_bytes(FILE *f, const void *s, size_t n)
{
    const uint8_t *p = s;
    for (size_t i = 0; i < n && i < 200; i++) {
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
            fputc(p[i], f);
        else
            fprintf(f, "\\x%02X", p[i]);
    }
    if (n > 200)
        fprintf(f, "...(%zu bytes)", n);
}

/* ==== whole compiler ===================================================== */

/* Compiles body; checks that the blob loads, passes the independent checker
 * and that rsc_blob_info_get counts what the checker counts. */
static rsc_blob compile_ex(const char *body, size_t len, int profile, int no_prune, bc_info *bi)
{
    rsc_compile_options o;
    memset(&o, 0, sizeof o);
    o.profile = profile;
    o.no_prune = no_prune;
    rsc_blob b;
    bc_info dummy;
    if (!bi)
        bi = &dummy;
    memset(bi, 0, sizeof *bi);
    rsc_status st = rsc_compile(body, len, &o, &b);
    TU_CHECK(st == RSC_OK, "compile: status %d", (int)st);
    if (!b.data)
        return b;
    rsc_program p;
    rsc_load_error e = {0, NULL};
    st = rsc_load(&p, b.data, b.size, &e);
    TU_CHECK(st == RSC_OK, "load: status %d at %zu: %s", (int)st, e.offset, e.what ? e.what : "");
    bc_err ce = {{0}};
    int ok = bc_check_blob(b.data, b.size, !no_prune, bi, &ce);
    TU_CHECK(ok, "independent check (no_prune %d): %s; body <<%s>>", no_prune, ce.msg, body);
    rsc_blob_info info;
    if (st == RSC_OK && ok && rsc_blob_info_get(&p, &info) == RSC_OK) {
        TU_CHECK(info.size == b.size && info.profile == profile && info.n_rules == bi->rules &&
                     info.n_programs == bi->programs && info.n_sets == bi->sets &&
                     info.n_agents == bi->agents && info.n_groups == bi->groups &&
                     info.n_sitemaps == bi->sitemaps && info.n_directives == bi->directives &&
                     (int)info.has_global == bi->has_global && info.total_nodes == bi->nodes &&
                     info.max_nodes == bi->max_nodes && info.n_globs == bi->globs,
                 "rsc_blob_info_get: rules %u programs %u nodes %u/%u globs %u; checker: %u %u "
                 "%u/%u %u",
                 info.n_rules, info.n_programs, info.total_nodes, info.max_nodes, info.n_globs,
                 bi->rules, bi->programs, bi->nodes, bi->max_nodes, bi->globs);
        TU_CHECK(rsc_program_profile(&p) == profile, "profile flag");
    }
    return b;
}

static rsc_blob compile(const char *body, int profile)
{
    return compile_ex(body, strlen(body), profile, 0, NULL);
}

/* Reading a compiled blob (already checked): sections and tables. */
static int open_blob(const rsc_blob *b, bc_blob *bb)
{
    return b->data && bc_open(bb, b->data, b->size, NULL);
}

/* The first Table of section id (for AGENTS: after Global). */
static int first_table(const rsc_blob *b, unsigned id, bc_table *t, uint32_t *global)
{
    static const unsigned cols[] = {0, 0, 3, 1, 2, 3, 2, 3, 6};
    bc_blob bb = {0};
    const uint8_t *p, *end;
    memset(t, 0, sizeof *t);
    if (!open_blob(b, &bb))
        return 0;
    bc_section(&bb, id, &p, &end);
    if (!p)
        return 0;
    uint32_t g = 0;
    if (id == BC_AGENTS && !bc_varint(&p, end, &g))
        return 0;
    if (global)
        *global = g;
    return bc_read_table(&p, end, id == BC_RULES ? bc_rules_cols(&bb) : cols[id], t, "table",
                         NULL);
}

/* Rows of the first Table of section id; for BC_SETS the number of sets
 * (without a SETS section, one per program: FORMAT.md, SETS). */
static uint32_t count_of(const rsc_blob *b, unsigned id)
{
    bc_table t;
    if (id == BC_SETS && !first_table(b, BC_SETS, &t, NULL))
        return count_of(b, BC_PROGRAMS);
    return first_table(b, id, &t, NULL) ? t.count : 0;
}

/* Whether the blob has a SETS section. */
static int has_sets(const rsc_blob *b)
{
    bc_table t;
    return first_table(b, BC_SETS, &t, NULL);
}

/* Set of agent token tok (NUL-terminated), or -1 when absent; tok NULL:
 * the global set. */
static long agent_set(const rsc_blob *b, const char *tok)
{
    bc_table t;
    uint32_t g = 0;
    bc_blob bb = {0};
    if (!first_table(b, BC_AGENTS, &t, &g) || !open_blob(b, &bb))
        return -1;
    if (!tok)
        return g ? (long)g - 1 : -1;
    for (uint32_t i = 0; i < t.count; i++)
        if (bc_cell(&t, i, 1) == strlen(tok) &&
            memcmp(bb.sec[BC_STRINGS] + bc_cell(&t, i, 0), tok, strlen(tok)) == 0)
            return (long)bc_cell(&t, i, 2);
    return -1;
}

/* Programs of set k (without SETS: set k is program k). */
static uint32_t set_size(const rsc_blob *b, long k)
{
    bc_table t;
    if (k < 0)
        return 0;
    if (!first_table(b, BC_SETS, &t, NULL))
        return (uint32_t)k < count_of(b, BC_PROGRAMS) ? 1 : 0;
    if ((uint32_t)k >= t.count)
        return 0;
    return bc_cell(&t, (uint32_t)k, 1);
}

/* Program k of a compiled blob: its bytes. */
static int program_of(const rsc_blob *b, uint32_t k, const uint8_t **pg, size_t *size)
{
    bc_blob bb = {0};
    const uint8_t *p, *end;
    bc_table t;
    if (!open_blob(b, &bb))
        return 0;
    bc_section(&bb, BC_PROGRAMS, &p, &end);
    if (!p || !bc_read_table(&p, end, 1, &t, "PROGRAMS", NULL) || k >= t.count)
        return 0;
    bc_program_span(&t, p, k, pg, size);
    return 1;
}

/* The match texts of a compiled blob's rules (empty when it has none). */
static void texts_of(const rsc_blob *b, bc_texts *tx)
{
    bc_blob bb = {0};
    bc_table t;
    memset(&t, 0, sizeof t);
    if (!open_blob(b, &bb) || !first_table(b, BC_RULES, &t, NULL))
        memset(&t, 0, sizeof t);
    bc_blob_texts(&bb, &t, tx);
}

/* Program k's entries (and counts) into *pr. */
static int entries_of(const rsc_blob *b, uint32_t k, int pruned, bc_prog *pr)
{
    const uint8_t *pg;
    size_t size;
    bc_err e = {{0}};
    memset(pr, 0, sizeof *pr);
    if (!program_of(b, k, &pg, &size))
        return 0;
    bc_texts tx;
    texts_of(b, &tx);
    int ok = bc_check_program(pg, size, &tx, 1, pruned, pr, &e);
    bc_texts_free(&tx);
    TU_CHECK(ok, "program %u: %s", k, e.msg);
    return ok;
}

/* The entry of kind at node string s (and tail t for globs), or NULL. */
static const bc_entry *find_entry(const bc_prog *pr, int kind, const char *pattern, int anch)
{
    size_t n = strlen(pattern);
    for (size_t i = 0; i < pr->n_ents; i++) {
        const bc_entry *x = &pr->ents[i];
        if (x->kind == kind && x->len == n && memcmp(x->bytes, pattern, n) == 0 &&
            (kind != BC_GLOB || x->anchored == anch))
            return x;
    }
    return NULL;
}

/* Verdicts of the compiled body vs the reference for agents x paths, with
 * and without pruning. */
static void agree(const char *body, int profile, const char *const *agents,
                  const char *const *paths)
{
    rsc_blob b[2];
    rsc_program p[2];
    for (int np = 0; np < 2; np++) {
        b[np] = compile_ex(body, strlen(body), profile, np, NULL);
        if (!b[np].data || rsc_load(&p[np], b[np].data, b[np].size, NULL) != RSC_OK) {
            rsc_blob_free(&b[0], NULL);
            return;
        }
    }
    for (size_t i = 0; agents[i]; i++) {
        rsc_bytes ag = {agents[i], strlen(agents[i])};
        ref_str rag = {agents[i], strlen(agents[i])};
        rsc_selection sel[2];
        if (rsc_select(&p[0], &ag, 1, &sel[0]) != RSC_OK ||
            rsc_select(&p[1], &ag, 1, &sel[1]) != RSC_OK) {
            TU_CHECK(0, "select %s", agents[i]);
            continue;
        }
        for (size_t j = 0; paths[j]; j++) {
            ref_verdict want = ref_check(body, strlen(body), &rag, 1, paths[j], strlen(paths[j]),
                                         profile, 1);
            for (int np = 0; np < 2; np++) {
                rsc_match m;
                int got = rsc_match_path(&sel[np], paths[j], strlen(paths[j]), &m);
                TU_CHECK(got == want.allowed && (int)m.line == want.line,
                         "body <<%s>> profile %d no_prune %d agent %s path %s: got %d line %u, "
                         "want %d line %d",
                         body, profile, np, agents[i], paths[j], got, m.line, want.allowed,
                         want.line);
                passed++;
            }
        }
    }
    rsc_blob_free(&b[0], NULL);
    rsc_blob_free(&b[1], NULL);
}

static void test_groups(void)
{
    /* F.5: a group naming a token and '*' feeds both; identical -> shared. */
    rsc_blob b = compile("User-agent: a\nUser-agent: *\nDisallow: /x\n", 0);
    TU_CHECK(agent_set(&b, "a") >= 0 && agent_set(&b, "a") == agent_set(&b, NULL),
             "both-named group: a -> %ld, global -> %ld", agent_set(&b, "a"), agent_set(&b, NULL));
    TU_CHECK(count_of(&b, BC_SETS) == 1, "one shared set, got %u", count_of(&b, BC_SETS));
    /* Set 0 is program 0: no SETS section (FORMAT.md, SETS). */
    TU_CHECK(!has_sets(&b) && count_of(&b, BC_PROGRAMS) == 1, "SETS written for set i = program i");
    rsc_blob_free(&b, NULL);
    passed++;

    /* rsc_blob_info_get and rsc_dump read the same program: "/x" (rank 1),
     * "/x/$" (the E.8 extra, rank 2) and "/x/index.html" (rank 3) make the
     * chain root - "/x" - "/x/" - "/x/index.html". */
    b = compile("User-agent: a\nUser-agent: *\nDisallow: /x\nAllow: /x/index.html\n"
                "Sitemap: s\nCrawl-delay: 1\n",
                0);
    rsc_program p;
    rsc_blob_info info;
    if (b.data && rsc_load(&p, b.data, b.size, NULL) == RSC_OK &&
        rsc_blob_info_get(&p, &info) == RSC_OK) {
        TU_CHECK(info.n_rules == 3 && info.n_programs == 1 && info.n_sets == 1 &&
                     info.n_agents == 1 && info.n_groups == 1 && info.n_sitemaps == 1 &&
                     info.n_directives == 1 && info.has_global == 1 && info.size == b.size &&
                     info.profile == 0 && info.total_nodes == 4 && info.max_nodes == 4 &&
                     info.n_globs == 0,
                 "info: rules %u programs %u sets %u agents %u nodes %u/%u globs %u",
                 info.n_rules, info.n_programs, info.n_sets, info.n_agents, info.total_nodes,
                 info.max_nodes, info.n_globs);
    } else {
        TU_CHECK(0, "info: no program");
    }
    bc_prog pr;
    if (entries_of(&b, 0, 1, &pr)) {
        TU_CHECK(pr.n_ents == 3 && find_entry(&pr, BC_ACCEPT, "/x", 0) &&
                     find_entry(&pr, BC_ACCEPT, "/x", 0)->rank == 1 &&
                     find_entry(&pr, BC_END, "/x/", 0) &&
                     find_entry(&pr, BC_END, "/x/", 0)->rank == 2 &&
                     find_entry(&pr, BC_ACCEPT, "/x/index.html", 0) &&
                     find_entry(&pr, BC_ACCEPT, "/x/index.html", 0)->rank == 3,
                 "entries of /x, /x/$, /x/index.html (%zu)", pr.n_ents);
        bc_prog_free(&pr);
    }
    rsc_blob_free(&b, NULL);
    passed++;

    /* Both-named plus another global group: the sets differ. */
    b = compile("User-agent: a\nUser-agent: *\nDisallow: /x\nUser-agent: *\nDisallow: /y\n", 0);
    TU_CHECK(agent_set(&b, "a") != agent_set(&b, NULL), "a and * differ");
    TU_CHECK(count_of(&b, BC_SETS) == 2 && count_of(&b, BC_RULES) == 2, "sets %u rules %u",
             count_of(&b, BC_SETS), count_of(&b, BC_RULES));
    rsc_blob_free(&b, NULL);
    passed++;

    /* F.6.2: named by a group without effective rules: empty set. */
    b = compile("User-agent: a\nAllow:\nDisallow: nope\nUser-agent: *\nDisallow: /\nUser-agent: c\n", 0);
    long sa = agent_set(&b, "a"), sc = agent_set(&b, "c"), sg = agent_set(&b, NULL);
    TU_CHECK(sa >= 0 && sa == sc && set_size(&b, sa) == 0, "a %ld c %ld size %u", sa, sc,
             set_size(&b, sa));
    TU_CHECK(sg >= 0 && sg != sa && set_size(&b, sg) == 1, "global %ld", sg);
    TU_CHECK(has_sets(&b), "an empty set needs SETS");
    rsc_blob_free(&b, NULL);
    passed++;

    /* F.2: the empty token is a real token, from "*foo" and from "". */
    b = compile("User-agent: *foo\nDisallow: /x\nUser-agent:\nDisallow: /y\nUser-agent: 9\nDisallow: /z\n", 0);
    TU_CHECK(agent_set(&b, "") >= 0 && agent_set(&b, NULL) == -1 && count_of(&b, BC_AGENTS) == 1,
             "empty token: set %ld, global %ld, agents %u", agent_set(&b, ""), agent_set(&b, NULL),
             count_of(&b, BC_AGENTS));
    TU_CHECK(count_of(&b, BC_RULES) == 3, "rules %u", count_of(&b, BC_RULES));
    rsc_blob_free(&b, NULL);
    passed++;

    /* F.4: rules before the first agent are ignored. */
    b = compile("Disallow: /a\nAllow: /b\nUser-agent: b\nDisallow: /c\n", 0);
    TU_CHECK(count_of(&b, BC_RULES) == 1, "rules %u", count_of(&b, BC_RULES));
    rsc_blob_free(&b, NULL);
    passed++;

    /* Tokens compare lower-cased, and merge across groups (F.5); a and b
     * are named by the same groups and share a set; c does not. */
    b = compile("User-agent: A\nUser-agent: b\nDisallow: /x\nUser-agent: c\nAllow: /y\n"
                "User-agent: B\nUser-agent: a/1.0\nDisallow: /z\n",
                0);
    TU_CHECK(agent_set(&b, "a") >= 0 && agent_set(&b, "a") == agent_set(&b, "b"), "a, b shared");
    TU_CHECK(agent_set(&b, "c") != agent_set(&b, "a"), "c differs");
    TU_CHECK(count_of(&b, BC_AGENTS) == 3 && count_of(&b, BC_SETS) == 2, "agents %u sets %u",
             count_of(&b, BC_AGENTS), count_of(&b, BC_SETS));
    TU_CHECK(agent_set(&b, "A") == -1, "tokens are lower-case");
    rsc_blob_free(&b, NULL);
    passed++;

    /* Duplicates within a set: the best-ranked survives (allow on a tie). */
    b = compile("User-agent: a\nDisallow: /x\nUser-agent: a\nAllow: /x\n", 0);
    TU_CHECK(count_of(&b, BC_RULES) == 1, "rules %u", count_of(&b, BC_RULES));
    rsc_blob_free(&b, NULL);
    passed++;

    /* E.3-E.5: empty, dead and "$" patterns are dropped. */
    b = compile("User-agent: a\nDisallow:\nDisallow: x\nDisallow: $\nAllow: %2F\n", 0);
    TU_CHECK(count_of(&b, BC_RULES) == 0 && count_of(&b, BC_PROGRAMS) == 0, "rules %u programs %u",
             count_of(&b, BC_RULES), count_of(&b, BC_PROGRAMS));
    TU_CHECK(agent_set(&b, "a") >= 0 && set_size(&b, agent_set(&b, "a")) == 0, "empty set");
    rsc_blob_free(&b, NULL);
    passed++;

    /* E.8: the index.html extra is its own rule, on the same line. */
    b = compile("User-agent: *\nAllow: /d/index.html\nDisallow: /d/\n", 0);
    TU_CHECK(count_of(&b, BC_RULES) == 3, "rules %u", count_of(&b, BC_RULES));
    rsc_blob_free(&b, NULL);
    passed++;

    /* No groups at all: no AGENTS section, so no global set. */
    b = compile("# nothing\nSitemap: http://x/s.xml\n", 0);
    TU_CHECK(agent_set(&b, NULL) == -1 && count_of(&b, BC_SITEMAPS) == 1, "no groups");
    rsc_blob_free(&b, NULL);
    passed++;
}

static void test_verdicts(void)
{
    static const char *const agents[] = {"a", "b", "c", "foo", "", "x", NULL};
    static const char *const paths[] = {"/", "/x", "/xy", "/y", "/z", "/d/", "/d/index.html",
                                        "/d/index.htm", "/a$", "/a", "/p.php", "/p.phpx",
                                        "/%41", "/A", "/%aa", "/%AA", "/robots.txt", "/ab",
                                        "/abc", "/abx", "/ax", "/a*x", "/~u", "/%7Eu", NULL};
    static const char *const bodies[] = {
        "User-agent: a\nUser-agent: *\nDisallow: /x\n",
        "User-agent: a\nUser-agent: *\nDisallow: /x\nUser-agent: *\nDisallow: /y\n",
        "User-agent: a\nAllow:\nUser-agent: *\nDisallow: /\nUser-agent: c\n",
        "User-agent: *foo\nDisallow: /x\nUser-agent:\nDisallow: /y\n",
        "Disallow: /\nUser-agent: b\nDisallow: /z\n",
        "User-agent: A\nUser-agent: b\nDisallow: /x\nUser-agent: c\nAllow: /y\nUser-agent: B\nDisallow: /\n",
        "User-agent: a\nDisallow: /x\nUser-agent: a\nAllow: /x\n",
        "User-agent: *\nAllow: /d/index.html\nDisallow: /d/\nDisallow: /a$$\nDisallow: /*.php$\n",
        "User-agent: *\nDisallow: /%41\nAllow: /A\nDisallow: /%aa\nDisallow: /robots\n",
        "User-agent: *\nDisallow: /\nAllow: /$\nAllow: /*$\n",
        /* pruned entries (see test_compiler_tries) */
        "User-agent: *\nDisallow: /a*****\nAllow: /ab\nAllow: /abc$\nDisallow: /ab*x\n"
        "Disallow: /a*******x\n",
        "User-agent: *\nDisallow: /%7eu\nAllow: /~u\nAllow: /%7Eu*\nDisallow: /*\n",
        NULL};
    for (size_t i = 0; bodies[i]; i++)
        for (int prof = 0; prof < 2; prof++)
            agree(bodies[i], prof, agents, paths);
}

static void test_determinism_and_lint(void)
{
    const char *body = "User-agent: x\nDisalow: /a*b$\nUser-agent: y\nDisallow: q\n"
                       "Crawl-delay: 3\nSitemap: s\nAllow: /\xC3\xA9\n";
    for (int prof = 0; prof < 2; prof++)
        for (int np = 0; np < 2; np++) {
            rsc_blob a = compile_ex(body, strlen(body), prof, np, NULL);
            rsc_blob b = compile_ex(body, strlen(body), prof, np, NULL);
            TU_CHECK(a.size == b.size && a.data && b.data && memcmp(a.data, b.data, a.size) == 0,
                     "same input, same bytes (profile %d no_prune %d)", prof, np);
            rsc_blob_free(&a, NULL);
            rsc_blob_free(&b, NULL);
            passed++;
        }
}

static int n_dead;
static void on_diag(void *ud, const rsc_diagnostic *d)
{
    (void)ud;
    if (d->warning == RSC_W_DEAD_PATTERN)
        n_dead++;
}

static void test_diag(void)
{
    rsc_compile_options o;
    memset(&o, 0, sizeof o);
    o.diag = on_diag;
    rsc_blob b;
    n_dead = 0;
    rsc_status st = rsc_compile("User-agent: a\nDisallow: x\nDisallow: /y\n", 38, &o, &b);
    TU_CHECK(st == RSC_OK && n_dead == 1, "status %d, dead-pattern reported %d times", (int)st, n_dead);
    rsc_blob_free(&b, &o);
    passed++;
    /* A mismatched profile is an argument error. */
    rsc_ir *ir = NULL;
    rsc_parse_options po = {RSC_PROFILE_RFC, NULL, NULL};
    if (rsc_parse("", 0, &po, &ir) == RSC_OK) {
        st = rsc_compile_ir(ir, &o, &b);
        TU_CHECK(st == RSC_E_ARG && b.data == NULL, "profile mismatch: %d", (int)st);
        rsc_ir_free(ir);
    }
    passed++;
}

/* ---- allocation failure ------------------------------------------------ */

typedef struct counting {
    long fail_at, calls, live;
    size_t bytes, requested; /* live bytes; all bytes ever asked for */
} counting;

static void *count_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    counting *c = ud;
    if (nsize == 0) {
        if (ptr) {
            c->live--;
            c->bytes -= osize;
        }
        free(ptr);
        return NULL;
    }
    if (++c->calls == c->fail_at)
        return NULL;
    void *q = realloc(ptr, nsize);
    if (q) {
        if (!ptr)
            c->live++;
        c->bytes += nsize - (ptr ? osize : 0);
        c->requested += nsize;
    }
    return q;
}

static void nomem_one(const char *body, int no_prune)
{
    rsc_compile_options o;
    memset(&o, 0, sizeof o);
    counting c;
    o.alloc = count_alloc;
    o.alloc_ud = &c;
    o.no_prune = no_prune;
    rsc_blob want = compile_ex(body, strlen(body), 0, no_prune, NULL);
    long k;
    for (k = 1; k < 100000; k++) {
        memset(&c, 0, sizeof c);
        c.fail_at = k;
        rsc_blob b;
        rsc_status st = rsc_compile(body, strlen(body), &o, &b);
        if (st == RSC_OK) {
            TU_CHECK(c.calls < k, "succeeded though allocation %ld failed", k);
            TU_CHECK(b.size == want.size && memcmp(b.data, want.data, b.size) == 0,
                     "a counting allocator changes the bytes");
            rsc_blob_free(&b, &o);
            TU_CHECK(c.live == 0 && c.bytes == 0, "leak after success: %ld blocks", c.live);
            break;
        }
        TU_CHECK(st == RSC_E_NOMEM && b.data == NULL, "k=%ld: status %d", k, (int)st);
        TU_CHECK(c.live == 0 && c.bytes == 0, "k=%ld: %ld blocks (%zu bytes) leaked", k, c.live,
                 c.bytes);
        if (tu_failures > 20)
            break;
    }
    rsc_blob_free(&want, NULL);
    printf("allocation failure: %ld allocations checked\n", k - 1);
    passed++;
}

static void test_nomem(void)
{
    /* "/a*******" prunes "/ab", so the second build of the trie is reached. */
    const char *big = "User-agent: a\nUser-agent: *\nDisallow: /x*y$\nAllow: /x/index.html\n"
                      "User-agent: b\nDisallow: /abc\nDisallow: /abd\nAllow: /*.gif$\n"
                      "Disallow: /a*******\nAllow: /ab\n"
                      "Crawl-delay: 1\nSitemap: http://s\nUser-agent: c\nDisallow: /\n";
    nomem_one(big, 0);
    nomem_one(big, 1);
    nomem_one("", 0);
    nomem_one("User-agent: x\n", 0);
}

/* ---- tries written by the compiler -------------------------------------- */

static void test_compiler_tries(void)
{
    /* The smallest program, byte for byte (docs/FORMAT.md, Example). */
    rsc_blob b = compile("User-agent: *\nDisallow: /a\n", 0);
    const uint8_t *pg;
    size_t size;
    /* Trie_Size 5; the root (Label_Head 0, Head 0x20: one child, so no
     * Offset; key '/'); its child a one-rank leaf: Label_Head 1 << 2 | 2
     * (Label_Len 1, Accept), Rep 1 (the label "a" is rank 1's text "/a"
     * from depth 1); Shape 0 and four empty Tables */
    static const uint8_t want_a[] = {0x05, 0x00, 0x20, '/', 0x06, 0x01,
                                     0x00, 0x00, 0x00, 0x00, 0x00};
    TU_CHECK(program_of(&b, 0, &pg, &size) && size == sizeof want_a &&
                 memcmp(pg, want_a, size) == 0,
             "program of Disallow: /a");
    rsc_blob_free(&b, NULL);
    /* The root is never a one-rank leaf (its Label_Head is 0), even when
     * it is a leaf with one Accept ("*", or "**$": a '$' after a final '*'
     * is moot): Label_Head 0, Head 01, the rank. */
    {
        static const struct {
            const char *body;
            uint8_t want[9];
        } rl[] = {{"User-agent: *\nDisallow: *\n", {0x03, 0x00, 0x01, 0x01, 0, 0, 0, 0, 0}},
                  {"User-agent: *\nAllow: **$\n", {0x03, 0x00, 0x01, 0x01, 0, 0, 0, 0, 0}}};
        for (size_t i = 0; i < sizeof rl / sizeof rl[0]; i++) {
            b = compile(rl[i].body, 0); /* (loads, and passes the checker) */
            TU_CHECK(program_of(&b, 0, &pg, &size) && size == sizeof rl[i].want &&
                         memcmp(pg, rl[i].want, size) == 0,
                     "program of a root leaf (%zu)", i);
            rsc_blob_free(&b, NULL);
        }
    }
    passed++;

    /* Shared prefixes stored once, a node only where a pattern ends or two
     * part: "/abc" and "/abd" give root, "/ab" (they part), "c", "d". The
     * label "ab" (2 bytes) points into the match text of a rank (a 1-byte
     * varint); "c" and "d" are one-rank leaves (Kind 2: Label_Head and
     * the rank only); the keys '/', 'c', 'd' are the only string bytes
     * stored. */
    bc_info bi;
    const char *ab = "User-agent: *\nDisallow: /abc\nDisallow: /abd\n";
    b = compile_ex(ab, strlen(ab), 0, 0, &bi);
    bc_prog pr;
    if (entries_of(&b, 0, 1, &pr)) {
        TU_CHECK(bi.programs == 1 && pr.nodes == 4 && pr.edge_bytes == 5 && pr.accepts == 2 &&
                     pr.max_children == 2 && pr.key_bytes == 3 && pr.ref_labels == 1 &&
                     pr.ref_label_bytes == 2 && pr.inline_bytes == 0 && pr.leaves == 2 &&
                     bi.leaves == 2,
                 "/abc /abd: nodes %u, edge bytes %zu, keys %zu, %u label refs, %zu inline, %u leaves",
                 pr.nodes, pr.edge_bytes, pr.key_bytes, pr.ref_labels, pr.inline_bytes, pr.leaves);
        bc_prog_free(&pr);
    }
    /* The label "ab" points into rank 1's text ("/abd", created the node
     * where the two part): the checker fails when that text does not pass
     * through the node or is too short. */
    {
        static const struct {
            const char *text, *msg;
        } bad[] = {{"xabd", "pass through"}, {"/a", "outside"}};
        const uint8_t *q;
        for (int i = 0; i < 2; i++) {
            bc_texts tx;
            bc_err e = {{0}};
            texts_of(&b, &tx);
            TU_CHECK(tx.n == 2 && tx.len[0] == 4 && memcmp(tx.p[0], "/abd", 4) == 0,
                     "rank 1 is /abd");
            tx.p[0] = (const uint8_t *)bad[i].text, tx.len[0] = (uint32_t)strlen(bad[i].text);
            TU_CHECK(program_of(&b, 0, &q, &size) &&
                         !bc_check_program(q, size, &tx, 0, 1, &pr, &e) &&
                         strstr(e.msg, bad[i].msg),
                     "checker: label into a wrong text accepted (%s)", e.msg);
            bc_texts_free(&tx);
        }
    }
    rsc_blob_free(&b, NULL);
    /* ... and "/a", "/ab", "/ac": root, "/a" (a pattern ends), "b", "c";
     * the label "a" (1 byte) is inline: a reference would not be shorter;
     * "b" and "c" are one-rank leaves. */
    b = compile("User-agent: *\nDisallow: /a\nAllow: /ab\nDisallow: /ac\n", 0);
    if (entries_of(&b, 0, 1, &pr)) {
        TU_CHECK(pr.nodes == 4 && pr.edge_bytes == 4 && pr.accepts == 3 && pr.max_children == 2 &&
                     pr.key_bytes == 3 && pr.inline_bytes == 1 && pr.ref_labels == 0 && pr.leaves == 2,
                 "/a /ab /ac: nodes %u, edge bytes %zu, inline %zu, refs %u, leaves %u", pr.nodes,
                 pr.edge_bytes, pr.inline_bytes, pr.ref_labels, pr.leaves);
        bc_prog_free(&pr);
    }
    rsc_blob_free(&b, NULL);
    /* Twenty patterns under one long prefix P: the prefix is not stored at
     * all, its label points into a rule's match text. root (00 20 '/': 3
     * bytes, no Offset for its one child), P's node (Label_Head (L - 1)
     * << 2 | 1 and Rep, one byte each; Head 20 << 5 in 2 bytes, 20 keys,
     * 19 one-byte offsets (none for child 0): 43 bytes whatever L), 20
     * one-rank leaves (Label_Head 2 and the rank: 2 bytes each): a trie of
     * 86 bytes, after its 1-byte Trie_Size and before Shape 0 and four
     * empty Tables (5 bytes). */
    {
        static const char prefix[] = "/a-rather-long-shared-prefix/";
        size_t L = strlen(prefix);
        char body[2048];
        size_t n = (size_t)snprintf(body, sizeof body, "User-agent: *\n");
        for (int i = 0; i < 20; i++)
            n += (size_t)snprintf(body + n, sizeof body - n, "Disallow: %s%c\n", prefix, 'a' + i);
        b = compile(body, 0);
        if (entries_of(&b, 0, 1, &pr)) {
            TU_CHECK(pr.nodes == 22 && pr.edge_bytes == L + 20 && pr.max_children == 20 &&
                         pr.key_bytes == 21 && pr.inline_bytes == 0 && pr.ref_labels == 1 &&
                         pr.ref_label_bytes == L - 1 && pr.leaves == 20 && pr.leaf_label_bytes == 0,
                     "shared prefix: nodes %u, edge bytes %zu, keys %zu, inline %zu, refs %u, leaves %u",
                     pr.nodes, pr.edge_bytes, pr.key_bytes, pr.inline_bytes, pr.ref_labels, pr.leaves);
            bc_prog_free(&pr);
        }
        const uint8_t *q;
        TU_CHECK(program_of(&b, 0, &q, &size) && size == 1 + 3 + 43 + 20 * 2 + 5,
                 "shared prefix: program of %zu bytes, want %d", size, 1 + 3 + 43 + 20 * 2 + 5);
        rsc_blob_free(&b, NULL);
    }
    passed++;

    /* Stars at the end make a prefix rule (Accept), '$' alone an End, a
     * '*' before other bytes a glob tail, anchored unless it ends in '*'. */
    b = compile("User-agent: *\nDisallow: /a*\nDisallow: /b*$\nDisallow: /c**\nDisallow: /d$\n"
                "Disallow: /e*f$\nDisallow: /g*h*$\nDisallow: /i*j\nDisallow: *\nDisallow: *k$\n"
                "Disallow: /l$*\n",
                0);
    if (entries_of(&b, 0, 1, &pr)) {
        TU_CHECK(find_entry(&pr, BC_ACCEPT, "/a", 0) && find_entry(&pr, BC_ACCEPT, "/b", 0) &&
                     find_entry(&pr, BC_ACCEPT, "/c", 0) && find_entry(&pr, BC_END, "/d", 0) &&
                     !find_entry(&pr, BC_ACCEPT, "/d", 0) &&
                     find_entry(&pr, BC_GLOB, "/e*f", 1) && find_entry(&pr, BC_GLOB, "/g*h*", 0) &&
                     find_entry(&pr, BC_GLOB, "/i*j", 0) && find_entry(&pr, BC_ACCEPT, "", 0) &&
                     find_entry(&pr, BC_GLOB, "*k", 1) && find_entry(&pr, BC_ACCEPT, "/l$", 0),
                 "entry kinds");
        /* "*" (priority 1, rank 1) is the root's Accept: every other entry
         * is above it, so nothing is pruned: 10 entries, of them 4 globs
         * (3 under "/", "*k" at the root). */
        TU_CHECK(pr.n_ents == 10 && pr.globs == 4, "entries %zu globs %u", pr.n_ents, pr.globs);
        bc_prog_free(&pr);
    }
    rsc_blob_free(&b, NULL);
    passed++;

    /* Wildcard rules at one node: one root slot, one edge a rule (no
     * leading segment shared), the segments in OUTS by length ("a", "dd",
     * "ccc", "bbbb"), the anchored one's edge anchored. */
    b = compile("User-agent: *\nDisallow: /x*a\nAllow: /x*bbbb$\nDisallow: /x*ccc\nAllow: /x*dd\n", 0);
    if (entries_of(&b, 0, 1, &pr)) {
        static const char *const order[] = {"/x*bbbb", "/x*ccc", "/x*dd", "/x*a"};
        int ok = pr.n_ents == 4 && pr.nodes == 2 && pr.globs == 4 && pr.slots == 1 &&
                 pr.edges == 4 && pr.internal == 0 && pr.segments == 4 && !pr.chain &&
                 pr.states == 1 + 1 + 2 + 3 + 4;
        for (size_t i = 0; ok && i < 4; i++) {
            const bc_entry *x = find_entry(&pr, BC_GLOB, order[i], i == 0);
            ok = x && x->rank == 4 - i && x->s0 == 2;
        }
        TU_CHECK(ok, "wildcard rules at one node: %zu entries, %u edges, %u states", pr.n_ents,
                 pr.edges, pr.states);
        bc_prog_free(&pr);
    }
    rsc_blob_free(&b, NULL);
    passed++;

    /* Pruning: "/a*****" (priority 7) is the Accept at "/a"; "/ab" (3),
     * "/abc$" (5) and "/ab*x" (5) can never decide; "/a*******x" (10) can.
     * no_prune keeps them (root, "/a", "/ab", "/abc"); verdicts are the
     * same (test_verdicts runs this file against the reference). */
    const char *pb = "User-agent: *\nDisallow: /a*****\nAllow: /ab\nAllow: /abc$\nDisallow: /ab*x\n"
                     "Disallow: /a*******x\n";
    bc_info b0, b1;
    rsc_blob pz = compile_ex(pb, strlen(pb), 0, 0, &b0);
    rsc_blob np = compile_ex(pb, strlen(pb), 0, 1, &b1);
    TU_CHECK(b0.nodes == 2 && b0.globs == 1 && b1.nodes == 4 && b1.globs == 2 && b0.rules == 5 &&
                 b1.rules == 5 && pz.size < np.size,
             "pruning: nodes %u/%u globs %u/%u", b0.nodes, b1.nodes, b0.globs, b1.globs);
    if (entries_of(&np, 0, 0, &pr)) {
        TU_CHECK(pr.n_ents == 5 && find_entry(&pr, BC_ACCEPT, "/ab", 0) &&
                     find_entry(&pr, BC_END, "/abc", 0) && find_entry(&pr, BC_GLOB, "/ab*x", 0),
                 "no_prune keeps every entry");
        bc_prog_free(&pr);
    }
    /* The pruned program fails the checker's "can never decide" rule when
     * the rule is applied to the unpruned one: the checker can fail. */
    {
        const uint8_t *q;
        bc_err e = {{0}};
        bc_prog tmp;
        bc_texts tx;
        texts_of(&np, &tx);
        TU_CHECK(tx.n == 5 && program_of(&np, 0, &q, &size) &&
                     !bc_check_program(q, size, &tx, 0, 1, &tmp, &e) &&
                     strstr(e.msg, "never decide"),
                 "checker: unpruned program accepted as pruned (%s)", e.msg);
        bc_texts_free(&tx);
    }
    rsc_blob_free(&pz, NULL);
    rsc_blob_free(&np, NULL);
    passed++;

    /* rfc profile: labels hold the normalised bytes (%7e -> ~, %2f stays
     * escaped, upper-cased), RULES the google-escaped text (spec D: bytes
     * >= 0x80 escaped, escapes upper-cased); "/%7Euser" and "/~user" are
     * one pattern there (the better one stays), two in google. */
    const char *rb = "User-agent: *\nDisallow: /%7euser\nAllow: /caf\xC3\xA9\nDisallow: /%61%2fb\n"
                     "Allow: /~user\n";
    for (int prof = 0; prof < 2; prof++) {
        b = compile(rb, prof);
        bc_blob bb = {0};
        TU_CHECK(open_blob(&b, &bb) && bb.rfc == prof, "profile flag %d", prof);
        if (entries_of(&b, 0, 1, &pr)) {
            if (prof) {
                TU_CHECK(find_entry(&pr, BC_ACCEPT, "/~user", 0) &&
                             find_entry(&pr, BC_ACCEPT, "/caf%C3%A9", 0) &&
                             find_entry(&pr, BC_ACCEPT, "/a%2Fb", 0) && pr.n_ents == 3 &&
                             count_of(&b, BC_RULES) == 3,
                         "rfc entries (%zu), rules %u", pr.n_ents, count_of(&b, BC_RULES));
            } else {
                TU_CHECK(find_entry(&pr, BC_ACCEPT, "/%7Euser", 0) &&
                             find_entry(&pr, BC_ACCEPT, "/~user", 0) &&
                             find_entry(&pr, BC_ACCEPT, "/caf%C3%A9", 0) &&
                             find_entry(&pr, BC_ACCEPT, "/%61%2Fb", 0) && pr.n_ents == 4 &&
                             count_of(&b, BC_RULES) == 4,
                         "google entries (%zu), rules %u", pr.n_ents, count_of(&b, BC_RULES));
            }
            bc_prog_free(&pr);
        }
        rsc_blob_free(&b, NULL);
    }
    static const char *const rfc_agents[] = {"a", NULL};
    static const char *const rfc_paths[] = {"/~user", "/%7Euser", "/%7euser", "/%7Euser/x",
                                            "/caf\xC3\xA9", "/caf%c3%a9", "/caf%C3%A9", "/ab",
                                            "/a%2fb", "/a%2Fb", "/%61%2Fb", "/a/b", "/robots.txt",
                                            "/robots.txtx", "/robots.tx", NULL};
    /* Not "/%72obots.txt": FORMAT.md (and the runtime) exempt the
     * normalised path "/robots.txt", tests/ref only the path as given. */
    agree(rb, 0, rfc_agents, rfc_paths);
    agree(rb, 1, rfc_agents, rfc_paths);
    agree("User-agent: *\nDisallow: /\n", 1, rfc_agents, rfc_paths);
    passed++;
}

/* ---- random files against the reference -------------------------------- */

static const char *const file_pieces[] = {
    "/", "/", "a", "b", "ab", "/shop", "/shop/", "cart", "*", "*", "$", ".php", "x", "%41",
    "%7e", "%7E", "~", "%2f", "\xc3\xa9", "%C3%A9", "index.html", "/index.html", "?", "=", "A",
};


/* A pattern: a shared-looking start, then pieces. */
static void gen_file_pattern(tu_buf *b)
{
    static const char *const starts[] = {"/", "/shop", "/shop/", "/shop/cart", "/a", "/ab",
                                         "/abc", "*", "/*", "/x", "/shop/***", "/a****"};
    tu_buf_puts(b, starts[rnd(sizeof starts / sizeof starts[0])]);
    unsigned k = rnd(5);
    for (unsigned i = 0; i < k; i++)
        tu_buf_puts(b, file_pieces[rnd(sizeof file_pieces / sizeof file_pieces[0])]);
}

static void gen_path(tu_buf *b, const tu_buf *pats, size_t np)
{
    if (np && rnd(2)) { /* from a pattern: '*' filled, '$' dropped */
        const tu_buf *q = &pats[rnd((unsigned)np)];
        for (size_t i = 0; i < q->n; i++) {
            if (q->p[i] == '*') {
                unsigned r = rnd(3);
                for (unsigned j = 0; j < r; j++)
                    tu_buf_puts(b, file_pieces[rnd(sizeof file_pieces / sizeof file_pieces[0])]);
            } else if (!(q->p[i] == '$' && i + 1 == q->n)) {
                tu_buf_put(b, q->p + i, 1);
            }
        }
        if (rnd(3) == 0)
            tu_buf_puts(b, file_pieces[rnd(sizeof file_pieces / sizeof file_pieces[0])]);
        if (b->n && rnd(4) == 0)
            b->n -= rnd((unsigned)b->n); /* a prefix of it */
    } else {
        tu_buf_puts(b, "/");
        unsigned k = rnd(6);
        for (unsigned i = 0; i < k; i++)
            tu_buf_puts(b, file_pieces[rnd(sizeof file_pieces / sizeof file_pieces[0])]);
    }
    if (rnd(60) == 0) /* long: the runtime's stream path in the rfc profile */
        for (int i = 0; i < 700; i++)
            tu_buf_puts(b, "\xc3\xa9/x");
    if (b->p)
        b->p[b->n] = 0;
}

static void test_random_files(void)
{
    static const char *const agents[] = {"a", "b", "zz", ""};
    long cases = 0, files = 0, pruned_files = 0;
    for (int iter = 0; iter < 300; iter++) {
        tu_buf f = {NULL, 0, 0};
        tu_buf pats[64];
        size_t np = 0;
        memset(pats, 0, sizeof pats);
        unsigned groups = 1 + rnd(3);
        for (unsigned g = 0; g < groups; g++) {
            static const char *const uas[] = {"User-agent: *\n", "User-agent: a\n",
                                              "User-agent: B\n", "User-agent: *foo\n"};
            tu_buf_puts(&f, uas[rnd(4)]);
            if (rnd(3) == 0)
                tu_buf_puts(&f, uas[rnd(4)]);
            unsigned rules = 1 + rnd(iter % 10 == 0 ? 60 : 12);
            for (unsigned r = 0; r < rules && np < 64; r++) {
                tu_buf_puts(&f, rnd(2) ? "Allow: " : "Disallow: ");
                tu_buf *q = &pats[np++];
                gen_file_pattern(q);
                if (rnd(5) == 0)
                    tu_buf_puts(q, "$");
                tu_buf_put(&f, q->p, q->n);
                tu_buf_puts(&f, "\n");
            }
        }
        for (int prof = 0; prof < 2; prof++) {
            bc_info i0, i1;
            rsc_blob b0 = compile_ex(f.p, f.n, prof, 0, &i0);
            rsc_blob b1 = compile_ex(f.p, f.n, prof, 1, &i1);
            rsc_blob b2 = compile_ex(f.p, f.n, prof, 0, NULL);
            files++;
            TU_CHECK(b0.data && b2.data && b0.size == b2.size &&
                         memcmp(b0.data, b2.data, b0.size) == 0,
                     "file %d: two compilations differ", iter);
            TU_CHECK(i1.nodes >= i0.nodes && i1.globs >= i0.globs && i1.rules == i0.rules &&
                         i1.programs == i0.programs,
                     "file %d: no_prune has fewer nodes (%u < %u) or globs", iter, i1.nodes,
                     i0.nodes);
            pruned_files += i1.nodes > i0.nodes || i1.globs > i0.globs;
            rsc_program p0, p1;
            ref_robots rr;
            if (!b0.data || !b1.data || rsc_load(&p0, b0.data, b0.size, NULL) != RSC_OK ||
                rsc_load(&p1, b1.data, b1.size, NULL) != RSC_OK ||
                ref_parse(&rr, f.p, f.n, prof) != 0) {
                TU_CHECK(0, "file %d: no program", iter);
                rsc_blob_free(&b0, NULL);
                rsc_blob_free(&b1, NULL);
                rsc_blob_free(&b2, NULL);
                continue;
            }
            for (int a = 0; a < 4; a++) {
                rsc_bytes ag = {agents[a], strlen(agents[a])};
                ref_str rag = {agents[a], strlen(agents[a])};
                rsc_selection s0, s1;
                if (rsc_select(&p0, &ag, 1, &s0) != RSC_OK ||
                    rsc_select(&p1, &ag, 1, &s1) != RSC_OK) {
                    TU_CHECK(0, "select");
                    continue;
                }
                for (int k = 0; k < 40; k++) {
                    tu_buf path = {NULL, 0, 0}, raw = {NULL, 0, 0};
                    gen_path(&raw, pats, np);
                    if (!raw.n || raw.p[0] != '/') /* rsc_match_path wants a '/' first */
                        tu_buf_puts(&path, "/");
                    if (raw.n)
                        tu_buf_put(&path, raw.p, raw.n);
                    free(raw.p);
                    const char *ps = path.p ? path.p : "";
                    ref_verdict rv = ref_check_parsed(&rr, &rag, 1, ps, path.n, 1);
                    rsc_match m0, m1;
                    int v0 = rsc_match_path(&s0, ps, path.n, &m0);
                    int v1 = rsc_match_path(&s1, ps, path.n, &m1);
                    int ok = v0 == rv.allowed && (int)m0.line == rv.line &&
                             m0.decided == (rv.line != 0) &&
                             (!m0.decided || ((int)m0.priority == rv.priority &&
                                              m0.rule_allow == rv.rule_allow)) &&
                             v1 == v0 && m1.line == m0.line && m1.decided == m0.decided;
                    if (!ok) {
                        TU_CHECK(0, "file %d profile %d agent '%s': got %d line %u, no_prune %d "
                                    "line %u, reference %d line %d",
                                 iter, prof, agents[a], v0, m0.line, v1, m1.line, rv.allowed,
                                 rv.line);
                        fprintf(stderr, "  path: ");
                        print_bytes(stderr, ps, path.n);
                        fprintf(stderr, "\n  file: ");
                        print_bytes(stderr, f.p, f.n);
                        fprintf(stderr, "\n");
                    }
                    cases++;
                    free(path.p);
                }
            }
            ref_free(&rr);
            rsc_blob_free(&b0, NULL);
            rsc_blob_free(&b1, NULL);
            rsc_blob_free(&b2, NULL);
            if (tu_failures > 20)
                break;
        }
        for (size_t i = 0; i < np; i++)
            free(pats[i].p);
        free(f.p);
        if (tu_failures > 20)
            break;
    }
    printf("random files: %ld compiled, %ld with pruned entries, %ld verdicts vs reference\n",
           files, pruned_files, cases);
    TU_CHECK(pruned_files > files / 10, "random files exercise pruning: %ld of %ld", pruned_files,
             files);
    passed += (int)cases;
}

/* ---- the scratch block (grammar/mem.h) ---------------------------------- */

/* rsc_compile with the default allocator puts a small input's parse and
 * compile in one scratch block; with the caller's allocator it does not.
 * Both must give the same bytes, also when the scratch overflows into
 * malloc, and everything the caller's allocator lent comes back. */
static long scratch_cases, scratch_overflows;

static void scratch_same(const char *body, size_t len, int profile)
{
    rsc_compile_options o;
    memset(&o, 0, sizeof o);
    o.profile = profile;
    rsc_blob a, b;
    rsc_status sa = rsc_compile(body, len, &o, &a);
    counting c;
    memset(&c, 0, sizeof c);
    o.alloc = count_alloc;
    o.alloc_ud = &c;
    rsc_status sb = rsc_compile(body, len, &o, &b);
    TU_CHECK(sa == sb && a.size == b.size && (!a.size || memcmp(a.data, b.data, a.size) == 0),
             "scratch: %zu-byte input, profile %d: status %d/%d, %zu/%zu bytes", len, profile,
             (int)sa, (int)sb, a.size, b.size);
    TU_CHECK(c.live == (b.data ? 1 : 0) && c.bytes == b.size,
             "scratch: %ld blocks, %zu bytes live after the compile", c.live, c.bytes);
    scratch_cases++;
    scratch_overflows += len <= RSC_SCRATCH_INPUT && c.requested > RSC_SCRATCH_SIZE;
    rsc_blob_free(&a, NULL);
    rsc_blob_free(&b, &o);
    passed++;
}

static void test_scratch(void)
{
    static const char *const fixed[] = {"", "User-agent: *\nDisallow: /\n", "\xef\xbb\xbfjunk\0x",
                                        "Allow: /a*b$\nUser-agent: a\nUser-agent: b\nSitemap: x\n"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        for (int prof = 0; prof < 2; prof++)
            scratch_same(fixed[i], strlen(fixed[i]) + (i == 2 ? 2 : 0), prof);
    /* Files of n rules, across the input limit and the block's size. */
    static const unsigned counts[] = {1, 5, 20, 60, 120, 200, 300, 500, 1000};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
        for (int rep = 0; rep < 3; rep++) {
            tu_buf f = {NULL, 0, 0};
            for (unsigned r = 0; r < counts[k]; r++) {
                if (r % 40 == 0)
                    tu_buf_puts(&f, rnd(2) ? "User-agent: *\n" : "User-agent: a\nUser-agent: b\n");
                tu_buf_puts(&f, rnd(2) ? "Allow: " : "Disallow: ");
                gen_file_pattern(&f);
                tu_buf_puts(&f, "\n");
            }
            for (int prof = 0; prof < 2; prof++)
                scratch_same(f.p, f.n, prof);
            free(f.p);
        }
    }
    printf("scratch: %ld inputs the same with and without it, %ld overflowed it\n", scratch_cases,
           scratch_overflows);
    TU_CHECK(scratch_overflows > 0, "no input overflowed the scratch block");
}

/* ==== the program encoder ================================================= */

/* A pattern set for rsc_trie_emit. */
typedef struct pset {
    rsc_tpat *p;
    size_t n;
} pset;

/* Naive matching of one pattern: '*' any bytes; a prefix match unless
 * anchored. Dynamic programming over (pattern position, path position). */
static int naive_match(const rsc_tpat *t, const uint8_t *s, size_t n)
{
    if (!t->len || !memchr(t->bytes, '*', t->len)) /* a literal: compare */
        return (t->anchored ? n == t->len : n >= t->len) &&
               (t->len == 0 || memcmp(s, t->bytes, t->len) == 0);
    const uint8_t *star = memchr(t->bytes, '*', t->len); /* the literal prefix first */
    if ((size_t)(star - t->bytes) > n || memcmp(s, t->bytes, (size_t)(star - t->bytes)) != 0)
        return 0;
    uint8_t *cur = calloc(n + 1, 1), *nxt = calloc(n + 1, 1);
    if (!cur || !nxt)
        exit(2);
    cur[0] = 1;
    for (uint32_t i = 0; i < t->len; i++) {
        memset(nxt, 0, n + 1);
        if (t->bytes[i] == '*') {
            int any = 0;
            for (size_t j = 0; j <= n; j++)
                nxt[j] = (uint8_t)(any |= cur[j]);
        } else {
            for (size_t j = 0; j < n; j++)
                if (cur[j] && s[j] == t->bytes[i])
                    nxt[j + 1] = 1;
        }
        uint8_t *x = cur;
        cur = nxt;
        nxt = x;
    }
    int r = 0;
    if (t->anchored)
        r = cur[n];
    else
        for (size_t j = 0; j <= n && !r; j++)
            r = cur[j];
    free(cur);
    free(nxt);
    return r;
}

static uint32_t naive_best(const pset *ps, const uint8_t *s, size_t n)
{
    uint32_t best = 0;
    for (size_t i = 0; i < ps->n; i++)
        if (ps->p[i].rank > best && naive_match(&ps->p[i], s, n))
            best = ps->p[i].rank;
    return best;
}

static void print_pset(const pset *ps)
{
    fprintf(stderr, "  patterns:");
    for (size_t i = 0; i < ps->n && i < 40; i++) {
        fprintf(stderr, " [%u]", ps->p[i].rank);
        print_bytes(stderr, ps->p[i].bytes, ps->p[i].len);
        if (ps->p[i].anchored)
            fputc('$', stderr);
    }
    fprintf(stderr, ps->n > 40 ? " ...\n" : "\n");
}

/* What FORMAT.md says the program of ps holds: entries as bc_entry (bytes
 * pointing into the patterns, not owned). */
static size_t s0_of(const rsc_tpat *t)
{
    const uint8_t *star = t->len ? memchr(t->bytes, '*', t->len) : NULL;
    return star ? (size_t)(star - t->bytes) : t->len;
}

static int kind_of(const rsc_tpat *t, int *anch)
{
    size_t s0 = s0_of(t), k = s0;
    *anch = 0;
    if (s0 == t->len)
        return t->anchored ? BC_END : BC_ACCEPT;
    while (k < t->len && t->bytes[k] == '*')
        k++;
    if (k == t->len)
        return BC_ACCEPT;
    *anch = t->anchored && t->bytes[t->len - 1] != '*';
    return BC_GLOB;
}

static int is_prefix(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    return an <= bn && (an == 0 || memcmp(a, b, an) == 0);
}

/* Best Accept rank over the patterns whose literal prefix is a prefix of
 * s[0..n) (proper: strictly shorter). */
static uint32_t accept_floor(const pset *ps, const uint8_t *s, size_t n, int proper)
{
    uint32_t f = 0;
    for (size_t i = 0; i < ps->n; i++) {
        int anch;
        size_t s0 = s0_of(&ps->p[i]);
        if (kind_of(&ps->p[i], &anch) == BC_ACCEPT && (!proper || s0 < n) &&
            is_prefix(ps->p[i].bytes, s0, s, n) && ps->p[i].rank > f)
            f = ps->p[i].rank;
    }
    return f;
}

/* Whether two wildcard patterns (literal prefix, '*', tail) are one rule
 * for a program: the same literal prefix, the same segments, the same
 * anchoring (FORMAT.md, Segments: one edge, the best rank). */
static int same_glob(const rsc_tpat *a, const rsc_tpat *b)
{
    size_t s0 = s0_of(a);
    int aa, ab;
    if (s0 != s0_of(b) || (s0 && memcmp(a->bytes, b->bytes, s0) != 0) ||
        kind_of(a, &aa) != BC_GLOB || kind_of(b, &ab) != BC_GLOB || aa != ab)
        return 0;
    size_t i = s0, j = s0;
    for (;;) { /* segment by segment */
        while (i < a->len && a->bytes[i] == '*')
            i++;
        while (j < b->len && b->bytes[j] == '*')
            j++;
        if (i == a->len || j == b->len)
            return i == a->len && j == b->len;
        size_t i0 = i, j0 = j;
        while (i < a->len && a->bytes[i] != '*')
            i++;
        while (j < b->len && b->bytes[j] != '*')
            j++;
        if (i - i0 != j - j0 || memcmp(a->bytes + i0, b->bytes + j0, i - i0) != 0)
            return 0;
    }
}

static size_t expected_entries(const pset *ps, int pruned, bc_entry *out)
{
    size_t k = 0;
    for (size_t i = 0; i < ps->n; i++) {
        const rsc_tpat *t = &ps->p[i];
        int anch, kind = kind_of(t, &anch);
        size_t s0 = s0_of(t);
        if (kind == BC_GLOB) { /* one edge for the rules alike: the best */
            int best = 1;
            for (size_t j = 0; j < ps->n && best; j++)
                if (j != i && ps->p[j].rank > t->rank && same_glob(t, &ps->p[j]))
                    best = 0;
            if (!best)
                continue;
        } else { /* only the best of its kind at its node */
            int best = 1;
            for (size_t j = 0; j < ps->n && best; j++) {
                int a2;
                if (j != i && kind_of(&ps->p[j], &a2) == kind && s0_of(&ps->p[j]) == s0 &&
                    memcmp(ps->p[j].bytes, t->bytes, s0) == 0 && ps->p[j].rank > t->rank)
                    best = 0;
            }
            if (!best)
                continue;
        }
        if (pruned && t->rank <= accept_floor(ps, t->bytes, s0, kind == BC_ACCEPT))
            continue;
        bc_entry *x = &out[k++];
        x->kind = kind;
        x->anchored = anch;
        x->rank = t->rank;
        x->bytes = (uint8_t *)(uintptr_t)t->bytes;
        x->len = kind == BC_GLOB ? t->len : s0;
        x->s0 = s0;
    }
    return k;
}

static int cmp_entry(const void *a, const void *b)
{
    const bc_entry *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind - y->kind;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->anchored != y->anchored)
        return x->anchored - y->anchored;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return x->len ? memcmp(x->bytes, y->bytes, x->len) : 0;
}

typedef struct pref {
    const uint8_t *s;
    size_t len;
    int is_end; /* some entry's node string */
} pref;

static int cmp_pref(const void *a, const void *b)
{
    const pref *x = a, *y = b;
    size_t m = x->len < y->len ? x->len : y->len;
    int d = m ? memcmp(x->s, y->s, m) : 0;
    if (d)
        return d;
    return x->len < y->len ? -1 : x->len > y->len;
}

/* The compressed trie of the entries' node strings: its node count and
 * its stored string bytes (distinct non-empty prefixes). */
static void expected_shape(const bc_entry *ents, size_t n, uint32_t *nodes, size_t *edge_bytes)
{
    size_t total = 1;
    for (size_t i = 0; i < n; i++)
        total += ents[i].s0 + 1;
    pref *pr = calloc(total, sizeof *pr);
    if (!pr)
        exit(2);
    size_t k = 0;
    pr[k++] = (pref){(const uint8_t *)"", 0, 1}; /* the root */
    for (size_t i = 0; i < n; i++)
        for (size_t l = 0; l <= ents[i].s0; l++)
            pr[k++] = (pref){ents[i].bytes, l, l == ents[i].s0};
    qsort(pr, k, sizeof *pr, cmp_pref);
    size_t u = 0;
    for (size_t i = 0; i < k; i++) {
        if (u && cmp_pref(&pr[u - 1], &pr[i]) == 0)
            pr[u - 1].is_end |= pr[i].is_end;
        else
            pr[u++] = pr[i];
    }
    /* The sorted, prefix-closed list is the preorder of the uncompressed
     * trie: a stack of the path to the previous prefix gives each prefix
     * its parent (the one a byte shorter), which counts its children. */
    size_t *ch = calloc(u, sizeof *ch), *stack = calloc(u, sizeof *stack), sp = 0;
    if (!ch || !stack)
        exit(2);
    for (size_t i = 0; i < u; i++) {
        while (sp && pr[stack[sp - 1]].len >= pr[i].len)
            sp--;
        if (sp)
            ch[stack[sp - 1]]++;
        stack[sp++] = i;
    }
    *nodes = 0;
    *edge_bytes = u - 1; /* every distinct prefix but the empty one */
    for (size_t i = 0; i < u; i++)
        *nodes += pr[i].is_end || ch[i] >= 2;
    free(ch);
    free(stack);
    free(pr);
}

/* ---- a program inside a hand-made blob, for the runtime ----------------- */

/* The match texts of a pattern set: rank r's is its pattern, followed by
 * '$' when anchored (compiler/backend.h, rsc_tpat). */
static void texts_of_pset(const rsc_tpat *p, size_t n, uint32_t max_rank, bc_texts *tx)
{
    bc_texts_init(tx, max_rank);
    for (size_t i = 0; i < n; i++)
        bc_texts_add(tx, p[i].rank, p[i].bytes, p[i].len, p[i].anchored);
    bc_texts_pool(tx); /* their STRINGS: automaton labels point there (rsc_tpat.moff) */
}

/* p[0..n) with each moff where tx's STRINGS holds its rank's match text
 * (texts_of_pset), so that the program's labels point at its bytes. */
static rsc_tpat *with_moff(const rsc_tpat *p, size_t n, const bc_texts *tx)
{
    rsc_tpat *q = malloc((n + 1) * sizeof *q);
    if (!q)
        exit(2);
    if (n)
        memcpy(q, p, n * sizeof *q);
    for (size_t i = 0; i < n; i++)
        q[i].moff = q[i].rank >= 1 && q[i].rank <= tx->n && tx->off[q[i].rank - 1] != BC_NOWHERE
                        ? tx->off[q[i].rank - 1]
                        : 0;
    return q;
}

/* One hand-made blob holding the program. */
typedef struct rt1 {
    rsc_blob blob;
    rsc_program prog;
    rsc_selection sel;
    int ok;
} rt1;

typedef struct rt {
    rt1 b[2]; /* 0: google (only when the texts allow it), 1: rfc */
    uint32_t max_rank;
    const bc_texts *tx;
} rt;

/* A blob of the program and max_rank disallow rules, rank r on line
 * max_rank + 1 - r (so a verdict's line gives back the rank). Its match
 * texts must be tx, and its STRINGS tx's (texts_of_pset: the program's
 * labels point there): in the rfc profile the texts are the Match column
 * and every rule's pattern is "x" (after them in STRINGS); in the google
 * profile they are the patterns themselves. RULES orders them by length
 * (the priority) in both, so the blob is made only when the lengths do not
 * fall with the rank (ranks without a pattern repeat the previous length). Returns 0
 * when it is not made. */
static int rt_make1(rt1 *r, int rfc, const uint8_t *pg, size_t size, const bc_texts *tx)
{
    rsc_mem m;
    rsc_mem_init(&m, NULL, NULL);
    memset(r, 0, sizeof *r);
    uint32_t max_rank = tx->n, cols = rfc ? 5 : 3;
    rsc_buf sec[6];
    memset(sec, 0, sizeof sec);
    uint32_t *v = calloc((size_t)max_rank * cols + cols, sizeof *v);
    if (!v)
        exit(2);
    int bad = tx->str_size ? rsc_buf_put(&m, &sec[1], tx->str, tx->str_size) : 0;
    uint32_t xoff = (uint32_t)sec[1].len, cur = 0;
    bad |= rfc ? rsc_buf_put(&m, &sec[1], "x", 1) : 0;
    for (uint32_t i = 0; i < max_rank && !bad; i++) {
        uint32_t len, off = tx->p[i] ? tx->off[i] : 0;
        bc_text(tx, i + 1, &len);
        /* RULES is ordered by the match text's length (the pattern's in
         * google, the Match column's in rfc) */
        if (tx->p[i] && len < cur) { /* lengths fall: no blob */
            free(v);
            rsc_buf_free(&m, &sec[1]);
            return 0;
        }
        if (!tx->p[i])
            off = 0, len = cur;
        cur = len;
        v[cols * i] = (max_rank - i) << 1;
        if (rfc) {
            v[cols * i + 1] = xoff, v[cols * i + 2] = 1;
            v[cols * i + 3] = off, v[cols * i + 4] = len;
        } else {
            v[cols * i + 1] = off, v[cols * i + 2] = len;
        }
    }
    /* No SETS: set 0 is program 0. AGENTS: Global 1 (set 0), no row. */
    uint32_t end = (uint32_t)size;
    bad = bad || rsc_buf_table(&m, &sec[2], v, max_rank, cols) ||
          rsc_buf_table(&m, &sec[3], &end, 1, 1) || rsc_buf_put(&m, &sec[3], pg, size) ||
          rsc_buf_varint(&m, &sec[5], 1) || rsc_buf_table(&m, &sec[5], v, 0, 3);
    free(v);
    rsc_section secs[5];
    for (uint16_t i = 0; i < 5; i++)
        secs[i].id = (uint16_t)(i + 1), secs[i].data = sec[i + 1].p, secs[i].size = sec[i + 1].len;
    rsc_status st = bad ? RSC_E_NOMEM : rsc_emit_blob(&m, rfc ? RSC_FLAG_PROFILE_RFC : 0, secs, 5, &r->blob);
    for (int i = 0; i < 6; i++)
        rsc_buf_free(&m, &sec[i]);
    TU_CHECK(st == RSC_OK, "hand-made blob: %d", (int)st);
    if (st != RSC_OK)
        return 0;
    rsc_load_error e = {0, NULL};
    st = rsc_load(&r->prog, r->blob.data, r->blob.size, &e);
    TU_CHECK(st == RSC_OK, "rsc_load (%s) of a program from rsc_trie_emit: %s at %zu (%s)",
             rfc ? "rfc" : "google", rsc_strerror(st), e.offset, e.what ? e.what : "");
    /* Header, checksum and framing by the independent reader (not all of
     * bc_check_blob: these RULES' match texts are not normalised patterns;
     * emit_both checked the program with these texts). */
    bc_blob bb = {0};
    bc_err ce = {{0}};
    TU_CHECK(bc_open(&bb, r->blob.data, r->blob.size, &ce) && bb.rfc == rfc,
             "hand-made blob: %s", ce.msg);
    rsc_bytes ag = {"a", 1};
    r->ok = st == RSC_OK && rsc_select(&r->prog, &ag, 1, &r->sel) == RSC_OK;
    TU_CHECK(r->ok, "hand-made blob (%s): select", rfc ? "rfc" : "google");
    return r->ok;
}

static void rt_make(rt *r, const uint8_t *pg, size_t size, const bc_texts *tx)
{
    memset(r, 0, sizeof *r);
    r->max_rank = tx->n;
    r->tx = tx;
    rt_make1(&r->b[0], 0, pg, size, tx);
    rt_make1(&r->b[1], 1, pg, size, tx);
}

/* The rank the runtime found for s[0..n) in blob k. */
static uint32_t rt_best(const rt *r, int k, const uint8_t *s, size_t n)
{
    rsc_match m;
    rsc_match_path(&r->b[k].sel, (const char *)s, n, &m);
    return m.decided ? r->max_rank + 1 - m.line : 0;
}

static void rt_free(rt *r)
{
    rsc_blob_free(&r->b[0].blob, NULL);
    rsc_blob_free(&r->b[1].blob, NULL);
}

/* ---- FORMAT.md, Labels: a program's STATES in the other form ------------ */

/* Writes a Table of count rows of cols cells (smallest widths, packed);
 * returns its size. */
static size_t put_table(uint8_t *o, const uint32_t *v, uint32_t count, unsigned cols)
{
    size_t n = 0;
    uint32_t c = count;
    do {
        o[n++] = (uint8_t)((c & 0x7f) | (c > 0x7f ? 0x80 : 0));
        c >>= 7;
    } while (c);
    if (!count)
        return n;
    unsigned w[8];
    size_t wb = n; /* the widths, packed: 2 bits a column (width - 1), four a byte */
    memset(o + wb, 0, bc_wbytes(cols));
    n += bc_wbytes(cols);
    for (unsigned k = 0; k < cols; k++) {
        uint32_t mx = 0;
        for (uint32_t r = 0; r < count; r++)
            mx = v[(size_t)r * cols + k] > mx ? v[(size_t)r * cols + k] : mx;
        w[k] = bc_width(mx);
        o[wb + k / 4] |= (uint8_t)((w[k] - 1) << (2 * (k % 4)));
    }
    for (uint32_t r = 0; r < count; r++)
        for (unsigned k = 0; k < cols; k++)
            for (unsigned i = 0; i < w[k]; i++)
                o[n++] = (uint8_t)(v[(size_t)r * cols + k] >> (8 * i));
    return n;
}

/* Program pg[0..size) (with root slots, not a chain) with its STATES in
 * the other form of FORMAT.md's Labels, and Shape's Labels bit to match:
 * to_labels: the states the Labels rule keeps, in breadth-first order of
 * the tree without the others, each label at its first place inside a
 * segment of a match text in STRINGS; else the whole automaton. Nothing
 * else changes. out: room for size + 28 * states + 64 bytes. Returns the
 * new size, 0 when the program cannot be read. */
static size_t restate(const uint8_t *pg, size_t size, const bc_texts *tx, int to_labels,
                      uint8_t *out)
{
    const uint8_t *trie;
    uint32_t tsize;
    bc_wild w;
    bc_seg sg;
    if (!bc_split_program(pg, size, &trie, &tsize, &w, NULL) || !w.roots.count || w.chain ||
        !bc_decode_wild_tx(&w, tx, &sg, NULL))
        return 0;
    const bc_table *S = &sg.states;
    uint32_t n = S->count, rows = 0;
    uint32_t *v = calloc((size_t)n * 7 + 7, sizeof *v), *par = calloc(n, sizeof *par);
    uint32_t *dep = calloc(n, sizeof *dep), *q = calloc(n, sizeof *q), *st = calloc(n, sizeof *st);
    uint32_t *cidx = calloc(n, sizeof *cidx);
    uint8_t *tgt = calloc(n, 1), *imp = calloc(n, 1), *lab = malloc(n + 1);
    uint32_t *cov = bc_segment_cover(tx);
    if (!v || !par || !dep || !q || !st || !cidx || !tgt || !imp || !lab)
        exit(2);
    size_t k = 0;
    if (!to_labels) {
        for (uint32_t s = 0; s < n; s++)
            for (unsigned c = 0; c < 5; c++)
                v[s * 5 + c] = bc_cell(S, s, c);
        rows = n;
    } else {
        for (uint32_t s = 0; s < n; s++) {
            for (uint32_t c = 0, f = bc_cell(S, s, BC_S_FIRST); c < bc_cell(S, s, BC_S_N); c++)
                par[f + c] = s, dep[f + c] = dep[s] + 1;
            if (s)
                tgt[bc_cell(S, s, BC_S_FAIL)] = 1;
        }
        for (uint32_t s = 1; s < n; s++)
            imp[s] = bc_cell(S, s, BC_S_N) == 1 && !bc_cell(S, s, BC_S_OUT) &&
                     !bc_cell(S, s, BC_S_FAIL) && !tgt[s];
        q[rows++] = 0;
        for (uint32_t h = 0; h < rows; h++) {
            uint32_t u = q[h], *x = &v[(size_t)h * 7], ll = dep[u] - dep[st[h]];
            cidx[u] = h;
            x[0] = h ? bc_cell(S, st[h], BC_S_KEY) : 0, x[2] = bc_cell(S, u, BC_S_N);
            x[1] = x[2] ? rows : 0, x[4] = bc_cell(S, u, BC_S_OUT), x[6] = ll;
            for (uint32_t t = u, i = ll; i > 0; t = par[t]) /* the label: u's last ll bytes */
                lab[--i] = (uint8_t)bc_cell(S, t, BC_S_KEY);
            for (size_t j = 0; ll && j < tx->str_size; j++) {
                if ((j = bc_find(tx->str, tx->str_size, j, lab, ll)) == SIZE_MAX)
                    break;
                if (cov[j] >= j + ll) {
                    x[5] = (uint32_t)j;
                    break;
                }
            }
            for (uint32_t c = 0; c < x[2]; c++) {
                uint32_t y = bc_cell(S, u, BC_S_FIRST) + c;
                st[rows] = y;
                while (imp[y])
                    y = bc_cell(S, y, BC_S_FIRST);
                q[rows++] = y;
            }
        }
        for (uint32_t h = 0; h < rows; h++)
            v[(size_t)h * 7 + 3] = cidx[bc_cell(S, q[h], BC_S_FAIL)];
    }
    /* the trie as it is, Shape, ROOTS and OUTS as they are, STATES, then
     * EDGES and Pad as they are */
    size_t shape_at = (size_t)(trie - pg) + tsize, roots_at = shape_at + bc_varint_size(w.shape);
    size_t states_at = (size_t)(w.outs.rows - pg) + (size_t)w.outs.count * w.outs.row_size;
    size_t edges_at = (size_t)(w.states.rows - pg) + (size_t)w.states.count * w.states.row_size;
    uint32_t shape = (w.shape & ~2u) | (to_labels ? 2u : 0u);
    memcpy(out, pg, shape_at);
    k = shape_at;
    do {
        out[k++] = (uint8_t)((shape & 0x7f) | (shape > 0x7f ? 0x80 : 0));
        shape >>= 7;
    } while (shape);
    memcpy(out + k, pg + roots_at, states_at - roots_at);
    k += states_at - roots_at;
    k += put_table(out + k, v, rows, to_labels ? 7 : 5);
    memcpy(out + k, pg + edges_at, size - edges_at);
    k += size - edges_at;
    free(v), free(par), free(dep), free(q), free(st), free(cidx), free(tgt), free(imp), free(lab);
    free(cov);
    bc_seg_free(&sg);
    return k;
}

/* ---- one pattern set, both modes ----------------------------------------- */

typedef struct emitted {
    rsc_buf prog[2]; /* 0: pruned (default), 1: no_prune */
    bc_prog shape[2];
    rt run[2];
    bc_texts tx; /* the match texts */
    uint32_t max_rank;
    int ok;
} emitted;

static long trie_paths, trie_paths_google;
static long other_form[2]; /* programs checked in the other form of STATES: from Labels 0, 1 */

/* Emits ps both ways and checks each program: structure (bc_check_program),
 * entries and node count as FORMAT.md says, stats, order independence. */
static int emit_both(const pset *ps, emitted *em)
{
    rsc_mem m;
    rsc_mem_init(&m, NULL, NULL);
    memset(em, 0, sizeof *em);
    for (size_t i = 0; i < ps->n; i++)
        if (ps->p[i].rank > em->max_rank)
            em->max_rank = ps->p[i].rank;
    /* An empty set has rank 1 all the same: RULES must not be empty for
     * the runtime's blob to decide anything (and it cannot). */
    texts_of_pset(ps->p, ps->n, em->max_rank ? em->max_rank : 1, &em->tx);
    rsc_tpat *pats = with_moff(ps->p, ps->n, &em->tx);
    bc_entry *want = calloc(ps->n + 1, sizeof *want);
    if (!want)
        exit(2);
    em->ok = 1;
    for (int np = 0; np < 2; np++) {
        rsc_trie_stats st;
        rsc_status s = rsc_trie_emit(&m, pats, ps->n, np, &em->prog[np], &st);
        TU_CHECK(s == RSC_OK, "rsc_trie_emit (no_prune %d): %d", np, (int)s);
        if (s != RSC_OK) {
            em->ok = 0;
            break;
        }
        bc_err e = {{0}};
        bc_prog *pr = &em->shape[np];
        if (!bc_check_program(em->prog[np].p, em->prog[np].len, &em->tx, 1, !np, pr, &e)) {
            TU_CHECK(0, "program (no_prune %d): %s", np, e.msg);
            print_pset(ps);
            em->ok = 0;
            break;
        }
        /* FORMAT.md, Labels: the encoder's choice of the form of STATES.
         * The other form is rejected: with labels when they are not
         * smaller, and without when they are. Only while STRINGS is below
         * 256 bytes: the width of Lab_Off follows the places the encoder
         * chooses for the labels, so with a larger STRINGS both forms can
         * be right (restate's first places may be narrower). */
        if (pr->slots && !pr->chain && em->tx.str_size < 256) {
            uint8_t *o = malloc(em->prog[np].len + 28 * (size_t)pr->all_states + 64);
            bc_prog tmp;
            bc_err e2 = {{0}};
            if (!o)
                exit(2);
            size_t on = restate(em->prog[np].p, em->prog[np].len, &em->tx, !pr->labels, o);
            TU_CHECK(on > 0 && !bc_check_program(o, on, &em->tx, 0, !np, &tmp, &e2) &&
                         strstr(e2.msg, pr->labels ? "Labels 0, but" : "Labels 1, but"),
                     "no_prune %d: STATES in the other form (Labels %d, %zu bytes) accepted: %s",
                     np, !pr->labels, on, e2.msg);
            if (!on || !e2.msg[0])
                print_pset(ps);
            other_form[pr->labels]++;
            bc_prog_free(&tmp);
            free(o);
        }
        size_t bytes = 0;
        for (size_t i = 0; i < ps->n; i++)
            bytes += ps->p[i].len;
        if (ps->n > 1000 || bytes > 200000) { /* too big for the brute force below */
            TU_CHECK(st.nodes == pr->nodes && st.slots == pr->slots && st.edges == pr->edges &&
                         st.states == pr->states && st.internal == pr->internal,
                     "stats");
            rt_make(&em->run[np], em->prog[np].p, em->prog[np].len, &em->tx);
            continue;
        }
        size_t nw = expected_entries(ps, !np, want);
        qsort(want, nw, sizeof *want, cmp_entry);
        qsort(pr->ents, pr->n_ents, sizeof *pr->ents, cmp_entry);
        int same = nw == pr->n_ents;
        for (size_t i = 0; same && i < nw; i++)
            same = cmp_entry(&want[i], &pr->ents[i]) == 0 && want[i].s0 == pr->ents[i].s0;
        uint32_t nodes;
        size_t edges;
        expected_shape(want, nw, &nodes, &edges);
        TU_CHECK(same, "no_prune %d: %zu entries, want %zu", np, pr->n_ents, nw);
        TU_CHECK(pr->nodes == nodes && pr->edge_bytes == edges,
                 "no_prune %d: %u nodes and %zu string bytes, want %u and %zu", np, pr->nodes,
                 pr->edge_bytes, nodes, edges);
        TU_CHECK(st.nodes == pr->nodes && st.slots == pr->slots && st.edges == pr->edges &&
                     st.states == pr->states && st.internal == pr->internal,
                 "stats: %u nodes %u slots %u edges %u states %u internal, read %u %u %u %u %u",
                 st.nodes, st.slots, st.edges, st.states, st.internal, pr->nodes, pr->slots,
                 pr->edges, pr->states, pr->internal);
        if (!same || pr->nodes != nodes || pr->edge_bytes != edges) {
            print_pset(ps);
            em->ok = 0;
        }
        /* The same set in another order (ranks are distinct): same bytes.
         * Appending to a buffer keeps what it held. */
        rsc_tpat *sh = malloc((ps->n + 1) * sizeof *sh);
        if (!sh)
            exit(2);
        memcpy(sh, pats, ps->n * sizeof *sh);
        for (size_t i = ps->n; i > 1; i--) {
            size_t j = rnd((unsigned)i);
            rsc_tpat t = sh[i - 1];
            sh[i - 1] = sh[j];
            sh[j] = t;
        }
        rsc_buf again = {NULL, 0, 0};
        rsc_buf_put(&m, &again, "prefix", 6);
        s = rsc_trie_emit(&m, sh, ps->n, np, &again, NULL);
        TU_CHECK(s == RSC_OK && again.len == 6 + em->prog[np].len &&
                     memcmp(again.p, "prefix", 6) == 0 &&
                     memcmp(again.p + 6, em->prog[np].p, em->prog[np].len) == 0,
                 "no_prune %d: the same set in another order gives other bytes", np);
        rsc_buf_free(&m, &again);
        free(sh);
        rt_make(&em->run[np], em->prog[np].p, em->prog[np].len, &em->tx);
    }
    free(want);
    free(pats);
    return em->ok;
}

static void emitted_free(emitted *em)
{
    rsc_mem m;
    rsc_mem_init(&m, NULL, NULL);
    for (int np = 0; np < 2; np++) {
        rsc_buf_free(&m, &em->prog[np]);
        bc_prog_free(&em->shape[np]);
        rt_free(&em->run[np]);
    }
    bc_texts_free(&em->tx);
}

/* The naive matcher, this file's walk() of both programs and the runtime on
 * both must agree. The runtime cuts paths at a NUL (spec A.5: skipped). Its
 * rfc blob matches the path normalised (FORMAT.md, Matching) against the
 * texts as they are, and exempts "/robots.txt"; its google blob decides
 * nothing with a rule of priority 0 (the empty pattern). */
static void compare_path(const pset *ps, const emitted *em, const uint8_t *s, size_t n)
{
    uint32_t want = naive_best(ps, s, n);
    uint32_t w0 = bc_walk(em->prog[0].p, em->prog[0].len, &em->tx, s, n, 0);
    uint32_t w1 = bc_walk(em->prog[1].p, em->prog[1].len, &em->tx, s, n, 0);
    int nul = n && memchr(s, 0, n) != NULL;
    uint32_t want_rfc = want, want_g = want, len;
    if (want && (bc_text(&em->tx, want, &len), len == 0))
        want_g = 0;
    if (!nul) {
        uint8_t *nb = malloc(3 * n + 1);
        if (!nb)
            exit(2);
        size_t nl = bc_rfc_norm(s, n, nb);
        if (nl == 11 && memcmp(nb, "/robots.txt", 11) == 0)
            want_rfc = 0;
        else if (nl != n || memcmp(nb, s, n) != 0)
            want_rfc = naive_best(ps, nb, nl);
        free(nb);
    }
    /* (blobs of either profile are made only when RULES can order the
     * texts by length: rt_make1) */
    uint32_t r0 = nul || !em->run[0].b[1].ok ? want_rfc : rt_best(&em->run[0], 1, s, n);
    uint32_t r1 = nul || !em->run[1].b[1].ok ? want_rfc : rt_best(&em->run[1], 1, s, n);
    uint32_t g0 = nul || !em->run[0].b[0].ok ? want_g : rt_best(&em->run[0], 0, s, n);
    uint32_t g1 = nul || !em->run[1].b[0].ok ? want_g : rt_best(&em->run[1], 0, s, n);
    trie_paths++;
    trie_paths_google += !nul && em->run[0].b[0].ok;
    if (want != w0 || want != w1 || want_rfc != r0 || want_rfc != r1 || want_g != g0 ||
        want_g != g1) {
        TU_CHECK(0, "naive %u, walk %u (no_prune %u), runtime rfc %u (no_prune %u, want %u), "
                    "google %u (no_prune %u, want %u)",
                 want, w0, w1, r0, r1, want_rfc, g0, g1, want_g);
        fprintf(stderr, "  path: ");
        print_bytes(stderr, s, n);
        fprintf(stderr, "\n");
        print_pset(ps);
    }
}

/* Every path over alphabet of at most maxlen bytes. */
static void exhaustive(const pset *ps, const emitted *em, const char *alphabet, size_t maxlen)
{
    uint8_t s[16];
    size_t a = strlen(alphabet), idx[16];
    for (size_t len = 0; len <= maxlen && len <= 16; len++) {
        memset(idx, 0, sizeof idx);
        for (;;) {
            for (size_t i = 0; i < len; i++)
                s[i] = (uint8_t)alphabet[idx[i]];
            compare_path(ps, em, s, len);
            size_t i = 0;
            while (i < len && ++idx[i] == a)
                idx[i++] = 0;
            if (i == len)
                break;
        }
    }
}

/* A pattern set from strings ("$" at the end anchors; ranks given). */
static pset make_pset(const char *const *pats, const uint32_t *ranks, size_t n)
{
    pset ps = {calloc(n + 1, sizeof(rsc_tpat)), n};
    if (!ps.p)
        exit(2);
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(pats[i]);
        ps.p[i].anchored = l > 0 && pats[i][l - 1] == '$';
        ps.p[i].bytes = (const uint8_t *)pats[i];
        ps.p[i].len = (uint32_t)(l - ps.p[i].anchored);
        ps.p[i].rank = ranks ? ranks[i] : (uint32_t)i + 1;
    }
    return ps;
}

typedef struct small_case {
    const char *what;
    const char *pats[8];
    uint32_t ranks[8];
    uint32_t nodes, nodes_np; /* pruned, no_prune */
    uint32_t globs, globs_np;
} small_case;

static void test_trie_small(void)
{
    static const small_case cases[] = {
        {"one pattern", {"/a"}, {1}, 2, 2, 0, 0},
        {"two part", {"/abc", "/abd"}, {1, 2}, 4, 4, 0, 0},
        {"a pattern ends", {"/a", "/ab", "/ac"}, {1, 2, 3}, 4, 4, 0, 0},
        {"chain", {"/a", "/ab", "/abc"}, {1, 2, 3}, 4, 4, 0, 0},
        {"prefix rule", {"/a*"}, {1}, 2, 2, 0, 0},
        {"prefix rule with $", {"/a*$"}, {1}, 2, 2, 0, 0},
        {"End", {"/a$"}, {1}, 2, 2, 0, 0},
        {"Accept and End", {"/a$", "/a"}, {2, 1}, 2, 2, 0, 0},
        /* "/a*b*$" and "/a*b*" are one edge (the better rank), "/a*b$" another */
        {"glob", {"/a*b$", "/a*b*$", "/a*b*"}, {1, 2, 3}, 2, 2, 2, 2},
        {"root entries", {"*", "*a", "**"}, {2, 3, 1}, 1, 1, 1, 1},
        {"empty pattern", {""}, {1}, 1, 1, 0, 0},
        {"glob ranks", {"/x*a", "/x*b", "/x*c", "/x*d$"}, {3, 7, 5, 2}, 2, 2, 4, 4},
        {"prune below an Accept", {"/a", "/ab"}, {2, 1}, 2, 3, 0, 0},
        {"prune a child subtree", {"/", "/abc", "/abd"}, {9, 1, 2}, 2, 5, 0, 0},
        {"keep above the Accept", {"/", "/abc", "/abd"}, {1, 3, 2}, 5, 5, 0, 0},
        {"prune End at the node", {"/a", "/a$"}, {2, 1}, 2, 2, 0, 0},
        {"keep End above the Accept", {"/a", "/a$"}, {1, 2}, 2, 2, 0, 0},
        {"prune glob at the node", {"/a", "/a*b"}, {2, 1}, 2, 2, 0, 1},
        {"prune glob below", {"/a**", "/ab*c", "/ab*d"}, {3, 1, 4}, 3, 3, 1, 2},
        {"prune Accept below", {"/a*", "/ab*", "/abc"}, {5, 4, 6}, 3, 4, 0, 0},
        {"two Accepts at a node", {"/a", "/a*", "/a**$"}, {1, 3, 2}, 2, 2, 0, 0},
        {"glob does not prune", {"/*", "/a*b", "/ab"}, {1, 3, 2}, 4, 4, 1, 1},
        {"star in the middle", {"/a*b*c$", "/ab", "/a*"}, {3, 1, 2}, 2, 3, 1, 1},
        {"dollar inside", {"/a$b", "/a$"}, {1, 2}, 3, 3, 0, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const small_case *k = &cases[c];
        size_t n = 0;
        while (n < 8 && k->pats[n])
            n++;
        pset ps = make_pset(k->pats, k->ranks, n);
        emitted em;
        int fails = tu_failures;
        if (emit_both(&ps, &em)) {
            TU_CHECK(em.shape[0].nodes == k->nodes && em.shape[1].nodes == k->nodes_np &&
                         em.shape[0].globs == k->globs && em.shape[1].globs == k->globs_np,
                     "%s: nodes %u/%u globs %u/%u, want %u/%u %u/%u", k->what, em.shape[0].nodes,
                     em.shape[1].nodes, em.shape[0].globs, em.shape[1].globs, k->nodes,
                     k->nodes_np, k->globs, k->globs_np);
            exhaustive(&ps, &em, "/abcdx*$", 5);
        }
        if (tu_failures != fails)
            fprintf(stderr, "  (case: %s)\n", k->what);
        emitted_free(&em);
        free(ps.p);
        passed++;
    }

    /* Pinned bytes: "/a" (FORMAT.md, Example), and the glob list of
     * "/x*a"(3), "/x*b"(7), "/x*d$"(2) at node "/x". */
    rsc_mem m;
    rsc_mem_init(&m, NULL, NULL);
    {
        static const char *const p1[] = {"/a"};
        pset ps = make_pset(p1, NULL, 1);
        rsc_buf out = {NULL, 0, 0};
        /* Trie_Size 5; root: Label_Head 0, Head 1 << 5, key '/' (no
         * Offset: child 0 starts at C); "/a": a one-rank leaf, Label_Head
         * 1 << 2 | 2 (Label_Len 1, Accept), Rep 1 (the label is rank 1's
         * text "/a" from depth 1); Shape 0 (no internal node, not a
         * chain), and the four Tables empty (Count 0, no widths) */
        static const uint8_t want[] = {0x05, 0x00, 0x20, '/', 0x06, 0x01,
                                       0x00, 0x00, 0x00, 0x00, 0x00};
        TU_CHECK(rsc_trie_emit(&m, ps.p, 1, 0, &out, NULL) == RSC_OK && out.len == sizeof want &&
                     memcmp(out.p, want, sizeof want) == 0,
                 "bytes of /a");
        rsc_buf_free(&m, &out);
        /* The checker holds the encoder to format 4.0's promises: the
         * same program with the leaf written with a Head (Kind 0, valid
         * for a decoder), the root as a one-rank leaf, an Offset for a
         * single child, or Width 1 with a single child, is rejected. */
        {
            static const uint8_t head_leaf[] = {0x07, 0x00, 0x20, '/', 0x04, 'a', 0x01, 0x01,
                                                0x00, 0x00, 0x00, 0x00, 0x00},
                                 root_leaf[] = {0x02, 0x02, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00},
                                 offset0[] = {0x06, 0x00, 0x20, '/', 0x00, 0x06, 0x01,
                                              0x00, 0x00, 0x00, 0x00, 0x00},
                                 width1[] = {0x06, 0x00, 0x28, '/', 0x00, 0x06, 0x01,
                                             0x00, 0x00, 0x00, 0x00, 0x00};
            static const struct {
                const uint8_t *pg;
                size_t n;
                const char *msg;
            } enc[] = {{head_leaf, sizeof head_leaf, "a leaf of one rank with a Head"},
                       {root_leaf, sizeof root_leaf, "root Label_Head"},
                       {offset0, sizeof offset0, "node @3"}, /* its Offset read as the child */
                       {width1, sizeof width1, "Width 1"}};
            bc_texts tx;
            texts_of_pset(ps.p, 1, 1, &tx);
            for (size_t i = 0; i < sizeof enc / sizeof enc[0]; i++) {
                bc_err e = {{0}};
                bc_prog tmp;
                int acc = bc_check_program(enc[i].pg, enc[i].n, &tx, 0, 1, &tmp, &e);
                TU_CHECK(!acc && strstr(e.msg, enc[i].msg), "checker: program %zu accepted or not for '%s': %s",
                         i, enc[i].msg, e.msg);
                bc_prog_free(&tmp);
            }
            bc_texts_free(&tx);
        }
        free(ps.p);
        static const char *const p2[] = {"/x*a", "/x*b", "/x*d$"};
        static const uint32_t r2[] = {3, 7, 2};
        ps = make_pset(p2, r2, 3);
        static const uint8_t want2[] = {
            0x07,                                     /* Trie_Size */
            0x00, 0x20, '/',                          /* root: key '/' (one child: no Offset) */
            0x04, 'x', 0x04, 0x00,                    /* "/x": Label_Len 1 inline, Has_Root, Slot 0 */
            0x00,                                     /* Shape: N_Internal 0, no chain */
            0x01, 0x00, 0x00, 0x07,                   /* ROOTS: widths 1 1 (00); slot 0 Level 0 Max 7 */
            0x03, 0x00, 0x00,                         /* OUTS: 3 rows, 6 widths 1 (2 bytes 00) */
            0x01, 0x00, 0x03, 0x00, 0x01, 0x00,       /*  "a": Len 1, Max 3, EDGES[0], 1 floating */
            0x01, 0x00, 0x07, 0x01, 0x01, 0x00,       /*  "b": Max 7, EDGES[1] */
            0x01, 0x00, 0x02, 0x02, 0x00, 0x01,       /*  "d": Max 2, EDGES[2], 1 anchored */
            0x04, 0x00, 0x00,                         /* STATES: 4 rows, 5 widths 1 (2 bytes) */
            0x00, 0x01, 0x03, 0x00, 0x00,             /*  root: children 1..3 */
            'a', 0x00, 0x00, 0x00, 0x01,              /*  "a": Fail 0, Out 1 (row 0) */
            'b', 0x00, 0x00, 0x00, 0x02,              /*  "b": Out 2 */
            'd', 0x00, 0x00, 0x00, 0x03,              /*  "d": Out 3 */
            0x03, 0x00,                               /* EDGES: 3 rows, 4 widths 1 (one byte) */
            0x00, 0x03, 0x00, 0x03,                   /*  slot 0, Rank 3, no Target, Max 3 */
            0x00, 0x07, 0x00, 0x07,                   /*  slot 0, Rank 7 */
            0x00, 0x02, 0x00, 0x02,                   /*  slot 0, Rank 2 (anchored) */
            0x00, 0x00, 0x00,                         /* Pad: ROOTS is not empty */
        };
        rsc_status st2 = rsc_trie_emit(&m, ps.p, 3, 0, &out, NULL);
        TU_CHECK(st2 == RSC_OK && out.len == sizeof want2 &&
                     memcmp(out.p, want2, sizeof want2) == 0,
                 "bytes of three wildcard rules at one node");
        /* The checker fails on wildcard fields an encoder would not write
         * (FORMAT.md leaves them unverified: "safe but wrong"). */
        {
            static const struct {
                size_t at;
                uint8_t v;
                const char *msg;
            } bad[] = {
                {11, 1, "Level"},            /* ROOTS: slot 0 at Level 1 (no slot above) */
                {12, 6, "ROOTS row 0: Max"}, /* not the best rank below the slot */
                {18, 2, "OUTS row 0: Max"},  /* "a": Max 2, its edge's is 3 */
                {23, 1, "Next"},             /* "b": Next "a", no suffix of "b" */
                {39, 2, "children"},         /* the root with 2 children: "d" no state's child */
                {45, 3, "Fail"},             /* state "a": Fail "d" */
                {46, 2, "Out"},              /* state "a": Out "b" */
                {63, 1, "Parent"},           /* edge 1 from internal node 0: there is none */
                {66, 6, "EDGES row 1: Max"}, /* edge 1: Max 6 below its Rank 7 */
                {71, 1, "padding"},          /* Pad not zero */
                {10, 1, "width"},            /* ROOTS: Level 2 bytes wide (not the smallest) */
                {35, 0x80, "width bits"},    /* STATES: width bits past its 5 columns */
            };
            bc_texts tx;
            texts_of_pset(ps.p, 3, 7, &tx);
            for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
                uint8_t cp[sizeof want2];
                memcpy(cp, want2, sizeof cp);
                cp[bad[i].at] = bad[i].v;
                bc_err e = {{0}};
                bc_prog tmp;
                int acc = bc_check_program(cp, sizeof cp, &tx, 0, 1, &tmp, &e);
                TU_CHECK(!acc, "checker: accepted a damaged wildcard part (%s: byte %zu = %u)", bad[i].msg,
                         bad[i].at, bad[i].v);
                bc_prog_free(&tmp);
            }
            bc_texts_free(&tx);
        }
        if (st2 == RSC_OK && (out.len != sizeof want2 || memcmp(out.p, want2, out.len) != 0)) {
            fprintf(stderr, "  got:");
            for (size_t k = 0; k < out.len; k++)
                fprintf(stderr, " %02X", out.p[k]);
            fprintf(stderr, "\n");
        }
        rsc_buf_free(&m, &out);
        free(ps.p);
        /* Labels: a node that is not a one-rank leaf (here: an Accept and
         * an End) has its label inline up to the size of the Rep's
         * varint, a reference (Label_Head Label_Len << 2 | 1, then Rep)
         * when longer; a one-rank leaf (Label_Head Label_Len << 2 | 2,
         * then the rank) always points into its rank's text. Patterns P
         * at rank 1 or 200 (a 1-byte varint, or C8 01), with P$ at the
         * next rank (or alone: a leaf): the label after the key '/' is
         * "a" (1 byte), "ab" (2), "abc" (3) or "abcdefghij" (10). */
        static const struct {
            const char *pat[2];
            uint32_t rank[2];
            uint8_t len, bytes[16];
        } lab[] = {
            /* one-rank leaves, whatever the label's length */
            {{"/a", NULL}, {200, 0}, 6, {0x00, 0x20, '/', 0x06, 0xC8, 0x01}},
            {{"/ab", NULL}, {1, 0}, 5, {0x00, 0x20, '/', 0x0A, 0x01}},
            {{"/ab", NULL}, {200, 0}, 6, {0x00, 0x20, '/', 0x0A, 0xC8, 0x01}},
            {{"/abcdefghij", NULL}, {200, 0}, 6, {0x00, 0x20, '/', 0x2A, 0xC8, 0x01}},
            /* Head 03: Has_Accept and Has_End */
            {{"/a", "/a$"}, {200, 201}, 10, {0x00, 0x20, '/', 0x04, 'a', 0x03, 0xC8, 0x01, 0xC9, 0x01}},
            {{"/ab", "/ab$"}, {1, 2}, 8, {0x00, 0x20, '/', 0x09, 0x02, 0x03, 0x01, 0x02}},
            {{"/ab", "/ab$"}, {200, 201}, 11, {0x00, 0x20, '/', 0x08, 'a', 'b', 0x03, 0xC8, 0x01, 0xC9, 0x01}},
            {{"/abc", "/abc$"}, {200, 201}, 11, {0x00, 0x20, '/', 0x0D, 0xC9, 0x01, 0x03, 0xC8, 0x01, 0xC9, 0x01}},
            {{"/abcdefghij", "/abcdefghij$"}, {200, 201}, 11,
             {0x00, 0x20, '/', 0x29, 0xC9, 0x01, 0x03, 0xC8, 0x01, 0xC9, 0x01}},
            /* (each trie after its Trie_Size, before Shape 0 and four empty Tables) */
        };
        for (size_t i = 0; i < sizeof lab / sizeof lab[0]; i++) {
            size_t np = lab[i].pat[1] ? 2 : 1;
            ps = make_pset(lab[i].pat, lab[i].rank, np);
            size_t wl = (size_t)lab[i].len + 6;
            uint8_t w[24] = {0};
            w[0] = lab[i].len; /* Trie_Size; the 5 bytes after the trie are 0 */
            memcpy(w + 1, lab[i].bytes, lab[i].len);
            int ok = rsc_trie_emit(&m, ps.p, np, 0, &out, NULL) == RSC_OK && out.len == wl &&
                     memcmp(out.p, w, wl) == 0;
            TU_CHECK(ok, "label bytes of %s%s at rank %u", lab[i].pat[0], np > 1 ? " and $" : "",
                     lab[i].rank[0]);
            if (!ok) {
                fprintf(stderr, "  got:");
                for (size_t k = 0; k < out.len; k++)
                    fprintf(stderr, " %02X", out.p[k]);
                fprintf(stderr, "\n");
            }
            rsc_buf_free(&m, &out);
            emitted em; /* and the checker, walk() and the runtime agree */
            if (emit_both(&ps, &em))
                exhaustive(&ps, &em, "/abcz", 5);
            emitted_free(&em);
            free(ps.p);
        }
        /* No patterns: a root with nothing (Trie_Size 2: Label_Head 0,
         * Head 0), Shape 0, four empty Tables. */
        static const uint8_t want0[] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
        TU_CHECK(rsc_trie_emit(&m, NULL, 0, 0, &out, NULL) == RSC_OK && out.len == sizeof want0 &&
                     memcmp(out.p, want0, sizeof want0) == 0,
                 "empty program");
        rsc_buf_free(&m, &out);
    }
    passed++;
}

/* Random pattern sets. */
static void test_trie_random(void)
{
    static const char alpha[] = "/ab*$.x";
    int seen_width2 = 0, seen_pruned = 0, seen_globs = 0, seen_end = 0, seen_wide = 0;
    int seen_labels = 0, seen_implicit0 = 0; /* Labels 1; Labels 0 with an implicit state */
    for (int iter = 0; iter < 600 && tu_failures < 20; iter++) {
        int wide = iter % 50 == 0;         /* any byte but NUL: wide fan-out */
        int big = iter % 40 == 0 || wide;  /* many patterns */
        int longp = iter % 25 == 0;        /* long labels: 2-byte Offsets */
        size_t n = wide ? 200 + rnd(200) : 1 + rnd(big ? 300 : 10); /* wide: > 100 keys */
        pset ps = {calloc(n, sizeof(rsc_tpat)), n};
        uint8_t *store = calloc(n, 400);
        uint32_t *perm = calloc(n, sizeof *perm);
        if (!ps.p || !store || !perm)
            exit(2);
        for (size_t i = 0; i < n; i++)
            perm[i] = (uint32_t)i + 1;
        for (size_t i = n; i > 1; i--) {
            size_t j = rnd((unsigned)i);
            uint32_t t = perm[i - 1];
            perm[i - 1] = perm[j];
            perm[j] = t;
        }
        for (size_t i = 0; i < n; i++) {
            uint8_t *s = store + 400 * i;
            size_t len = 1 + rnd(longp ? 399 : 12);
            s[0] = rnd(5) ? '/' : '*';
            for (size_t j = 1; j < len; j++)
                s[j] = wide ? (uint8_t)(1 + rnd(255)) : (uint8_t)alpha[rnd(longp ? 3 : 7)];
            if (i > 0 && rnd(3) == 0) { /* share a prefix with an earlier one */
                const rsc_tpat *o = &ps.p[rnd((unsigned)i)];
                size_t k = rnd(o->len + 1);
                if (k > len)
                    len = k;
                memcpy(s, o->bytes, k);
            }
            ps.p[i].bytes = s;
            ps.p[i].len = (uint32_t)len;
            ps.p[i].rank = perm[i];
            ps.p[i].anchored = (uint8_t)(rnd(4) == 0);
            /* A final '$' is the anchor (spec E.3; the contract of
             * rsc_tpat: the match text ends in '$' exactly when anchored). */
            if (!ps.p[i].anchored && s[len - 1] == '$')
                ps.p[i].len--, ps.p[i].anchored = 1;
        }
        emitted em;
        if (emit_both(&ps, &em)) {
            seen_width2 |= em.shape[0].max_width >= 2;
            seen_pruned |= em.shape[1].nodes > em.shape[0].nodes ||
                           em.shape[1].n_ents > em.shape[0].n_ents;
            seen_globs |= em.shape[0].globs > 0;
            seen_end |= em.shape[0].ends > 0;
            seen_wide |= em.shape[0].max_children > 100;
            seen_labels |= em.shape[0].labels;
            seen_implicit0 |= !em.shape[0].labels && em.shape[0].implicit > 0;
            for (int q = 0; q < 150; q++) {
                uint8_t path[900];
                size_t len = 0;
                if ((size_t)q < n) { /* the patterns, '*' filled, maybe cut */
                    const rsc_tpat *t = &ps.p[q];
                    for (size_t j = 0; j < t->len && len < 800; j++) {
                        if (t->bytes[j] == '*')
                            for (unsigned r = rnd(3); r > 0; r--)
                                path[len++] = (uint8_t)alpha[rnd(7)];
                        else
                            path[len++] = t->bytes[j];
                    }
                    if (rnd(3) == 0)
                        path[len++] = (uint8_t)alpha[rnd(7)];
                    if (len && rnd(4) == 0)
                        len -= rnd((unsigned)len);
                } else {
                    len = rnd(longp ? 500 : 25);
                    for (size_t j = 0; j < len; j++)
                        path[j] = j == 0 && rnd(5) ? (uint8_t)'/'
                                  : wide          ? (uint8_t)rnd(256)
                                                  : (uint8_t)alpha[rnd(longp ? 3 : 7)];
                }
                compare_path(&ps, &em, path, len);
            }
        }
        emitted_free(&em);
        free(ps.p);
        free(store);
        free(perm);
        passed++;
    }
    TU_CHECK(seen_width2 && seen_pruned && seen_globs && seen_end && seen_wide && seen_labels &&
                 seen_implicit0,
             "coverage: width2 %d pruned %d globs %d end %d wide %d labels %d implicit without "
             "labels %d",
             seen_width2, seen_pruned, seen_globs, seen_end, seen_wide, seen_labels,
             seen_implicit0);
}

/* Offsets widths, 255 children, the chain limit. */
static void test_trie_limits(void)
{
    rsc_mem m;
    rsc_mem_init(&m, NULL, NULL);

    /* Offsets of 1, 2 and 3 bytes: K patterns "/a" + 4 letters and "/b"
     * part at "/", whose Offsets[1] is the size of the first child, the
     * subtree of the K patterns (labels point into match texts, so only
     * nodes and entries make it large: a few bytes a pattern). Width 4
     * needs a child of 16 MiB, millions of patterns; rsc_width() chooses
     * every width of Offsets and Tables alike: checked directly below. */
    static const size_t ks[] = {1, 60, 14000};
    for (unsigned w = 0; w < 3; w++) {
        size_t K = ks[w];
        uint8_t *s = malloc(6 * (K + 1));
        rsc_tpat *t = malloc((K + 1) * sizeof *t);
        if (!s || !t)
            exit(2);
        for (size_t i = 0; i < K; i++) {
            uint8_t *q = s + 6 * i;
            q[0] = '/', q[1] = 'a';
            for (size_t d = 0, v = i; d < 4; d++, v /= 20)
                q[2 + d] = (uint8_t)('c' + v % 20);
            t[i] = (rsc_tpat){.bytes = q, .len = 6, .rank = (uint32_t)i + 1};
        }
        static const uint8_t b2[] = "/b";
        t[K] = (rsc_tpat){.bytes = b2, .len = 2, .rank = (uint32_t)K + 1};
        pset ps = {t, K + 1};
        emitted em;
        if (emit_both(&ps, &em)) {
            TU_CHECK(em.shape[0].max_width == w + 1 && em.shape[1].max_width == w + 1,
                     "%zu patterns under /a: width %u, want %u", K, em.shape[0].max_width, w + 1);
            uint8_t path[8];
            for (size_t i = 0; i < K; i += K / 7 + 1) {
                memcpy(path, s + 6 * i, 6);
                compare_path(&ps, &em, path, 6); /* the whole pattern */
                path[6] = 'z';
                compare_path(&ps, &em, path, 7); /* longer */
                compare_path(&ps, &em, path, 5); /* one short */
                path[5] = 'z';
                compare_path(&ps, &em, path, 6); /* differs at the end */
            }
            compare_path(&ps, &em, b2, 2);
            compare_path(&ps, &em, (const uint8_t *)"/bb", 3);
            compare_path(&ps, &em, (const uint8_t *)"/c", 2);
        }
        emitted_free(&em);
        free(s);
        free(t);
        passed++;
    }
    {
        static const uint32_t v[] = {0, 0xFF, 0x100, 0xFFFF, 0x10000, 0xFFFFFF, 0x1000000,
                                     UINT32_MAX};
        static const unsigned want[] = {1, 1, 2, 2, 3, 3, 4, 4};
        for (size_t i = 0; i < 8; i++)
            TU_CHECK(rsc_width(v[i]) == want[i], "rsc_width(%#x) = %u", v[i], rsc_width(v[i]));
        rsc_buf tb = {NULL, 0, 0};
        uint32_t cells[2] = {7, 0x1000000};
        /* Count 2, width 4 (packed: width - 1 = 3 in the low 2 bits), the
         * rows 7 and 0x1000000 in 4 bytes each */
        static const uint8_t tw[] = {2, 0x03, 7, 0, 0, 0, 0, 0, 0, 1};
        TU_CHECK(rsc_buf_table(&m, &tb, cells, 2, 1) == 0 && tb.len == sizeof tw &&
                     memcmp(tb.p, tw, sizeof tw) == 0,
                 "a Table with a 4-byte column");
        rsc_buf_free(&m, &tb);
        /* Packed widths, 2 bits a column at bit 2 * (c % 4) of byte c / 4:
         * 3 columns of widths 1, 2, 1: one byte 0x04; 6 columns of widths
         * 1, 2, 1, 3, 4, 1: 0x84 (columns 0-3), then 0x03 (columns 4-5,
         * the bits past them 0); 6 columns of width 1: 00 00. */
        {
            static const uint32_t c3[] = {1, 0x100, 1}, c6[] = {1, 0x100, 1, 0x10000, 0x1000000, 9},
                                  c6w1[] = {1, 2, 3, 4, 5, 6};
            static const uint8_t t3[] = {1, 0x04, 1, 0, 1, 1},
                                 t6[] = {1, 0x84, 0x03, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 9},
                                 t6w1[] = {1, 0x00, 0x00, 1, 2, 3, 4, 5, 6};
            static const struct {
                const uint32_t *cells;
                unsigned cols;
                const uint8_t *want;
                size_t len;
            } pk[] = {{c3, 3, t3, sizeof t3}, {c6, 6, t6, sizeof t6}, {c6w1, 6, t6w1, sizeof t6w1}};
            for (size_t i = 0; i < sizeof pk / sizeof pk[0]; i++) {
                tb.len = 0;
                int ok = rsc_buf_table(&m, &tb, pk[i].cells, 1, pk[i].cols) == 0 && tb.len == pk[i].len &&
                         memcmp(tb.p, pk[i].want, pk[i].len) == 0;
                TU_CHECK(ok, "packed widths of a %u-column Table (case %zu)", pk[i].cols, i);
                TU_CHECK(rsc_table_size(pk[i].cells, 1, pk[i].cols) == pk[i].len,
                         "rsc_table_size of a %u-column Table: %zu, want %zu", pk[i].cols,
                         rsc_table_size(pk[i].cells, 1, pk[i].cols), pk[i].len);
                /* and the checker reads it back */
                const uint8_t *q = pk[i].want;
                bc_table bt;
                bc_err be = {{0}};
                TU_CHECK(bc_read_table(&q, pk[i].want + pk[i].len, pk[i].cols, &bt, "t", &be) &&
                             q == pk[i].want + pk[i].len && bc_cell(&bt, 0, pk[i].cols - 1) == pk[i].cells[pk[i].cols - 1],
                         "checker: packed widths (case %zu): %s", i, be.msg);
            }
            rsc_buf_free(&m, &tb);
        }
        passed++;
    }

    /* The widest node: "/" followed by every byte but '*' (which ends a
     * node's string, so a node never has 256 children): 255 keys, Head
     * 255 << 5 in two bytes. Then "/" + "*" (rank 200) is the Accept at "/" and
     * prunes the children of rank <= 200. */
    {
        static uint8_t store[256][2];
        rsc_tpat t[256];
        size_t n = 0;
        for (int c = 0; c < 256; c++) {
            if (c == '*')
                continue;
            store[c][0] = '/', store[c][1] = (uint8_t)c;
            t[n++] = (rsc_tpat){.bytes = store[c], .len = 2, .rank = (uint32_t)c + 1,
                                .anchored = (uint8_t)(c % 3 == 0)};
        }
        for (int star = 0; star < 2; star++) {
            if (star) {
                store['*'][0] = '/', store['*'][1] = '*';
                t[n++] = (rsc_tpat){.bytes = store['*'], .len = 2, .rank = 200};
            }
            pset ps = {t, n};
            emitted em;
            if (emit_both(&ps, &em)) {
                uint32_t kept = star ? 256 - 200 : 255;
                TU_CHECK(em.shape[0].max_children == kept && em.shape[0].nodes == kept + 2 &&
                             em.shape[1].max_children == 255 && em.shape[1].nodes == 257,
                         "fan-out (star %d): children %u/%u nodes %u/%u", star,
                         em.shape[0].max_children, em.shape[1].max_children, em.shape[0].nodes,
                         em.shape[1].nodes);
                for (int c = 0; c < 256; c++) {
                    uint8_t p[3] = {'/', (uint8_t)c, 'q'};
                    compare_path(&ps, &em, p, 2);
                    compare_path(&ps, &em, p, 3);
                }
                compare_path(&ps, &em, (const uint8_t *)"/", 1);
            }
            emitted_free(&em);
        }
        passed++;
    }

    /* The chain limit: "/", "/a", "/aa", ... each a node under the last.
     * D - 1 patterns: root + D - 1 = D nodes on the chain, the format's
     * limit (and rsc_load accepts it); one more is RSC_E_LIMIT. With the
     * ranks falling along the chain, pruning leaves only "/". */
    {
        enum { D = RSC_MAX_DEPTH };
        uint8_t *s = malloc(D);
        rsc_tpat *t = malloc(D * sizeof *t);
        if (!s || !t)
            exit(2);
        s[0] = '/';
        memset(s + 1, 'a', D - 1);
        for (uint32_t i = 0; i < D; i++)
            t[i] = (rsc_tpat){.bytes = s, .len = i + 1, .rank = i + 1};
        pset ps = {t, D - 1};
        emitted em;
        if (emit_both(&ps, &em)) {
            TU_CHECK(em.shape[0].depth == D && em.shape[0].nodes == D && em.shape[1].nodes == D &&
                         em.shape[0].n_ents == D - 1,
                     "chain: depth %u nodes %u", em.shape[0].depth, em.shape[0].nodes);
            compare_path(&ps, &em, s, D - 1);
            compare_path(&ps, &em, s, D);
            compare_path(&ps, &em, s, 1000);
        }
        emitted_free(&em);
        rsc_buf out = {NULL, 0, 0};
        for (int np = 0; np < 2; np++) {
            rsc_status st = rsc_trie_emit(&m, t, D, np, &out, NULL);
            TU_CHECK(st == RSC_E_LIMIT, "chain of %d nodes (no_prune %d): status %d", D + 1, np,
                     (int)st);
            rsc_buf_free(&m, &out);
        }
        /* Falling ranks: pruning leaves "/" alone. */
        for (uint32_t i = 0; i < D; i++)
            t[i].rank = D - i;
        ps.n = D - 1;
        if (emit_both(&ps, &em)) {
            TU_CHECK(em.shape[0].nodes == 2 && em.shape[0].n_ents == 1 &&
                         em.shape[1].nodes == D && em.shape[1].n_ents == D - 1,
                     "falling chain: nodes %u/%u", em.shape[0].nodes, em.shape[1].nodes);
            compare_path(&ps, &em, s, D - 1);
            compare_path(&ps, &em, s, 1);
            compare_path(&ps, &em, s, 0);
        }
        emitted_free(&em);
        free(s);
        free(t);
        passed++;
    }
}

/* ==== format 3: the segment tree, the automaton, splitting, chains ======== */

/* The wildcard part of a program from rsc_trie_emit, decoded by the
 * checker (which has verified it: emit_both). */
typedef struct wild {
    bc_wild w;
    bc_seg sg;
    int ok;
} wild;

static int wild_of(const emitted *em, int np, wild *x)
{
    const uint8_t *trie;
    uint32_t tsize;
    memset(x, 0, sizeof *x);
    x->ok = bc_split_program(em->prog[np].p, em->prog[np].len, &trie, &tsize, &x->w, NULL) &&
            bc_decode_wild_tx(&x->w, &em->tx, &x->sg, NULL);
    TU_CHECK(x->ok, "wild part of the program");
    return x->ok;
}

/* The OUTS row of segment s, or -1. */
static long row_of(const wild *x, const char *s)
{
    for (uint32_t r = 0; r < x->sg.nrow; r++)
        if (x->sg.len[r] == strlen(s) && memcmp(x->sg.bytes + x->sg.off[r], s, x->sg.len[r]) == 0)
            return (long)r;
    return -1;
}

/* The state whose string is s (walked down the automaton's children; the
 * whole automaton, implicit states included). */
static long state_of(const wild *x, const char *s)
{
    const bc_table *S = &x->sg.states;
    uint32_t st = 0;
    for (const char *p = s; *p; p++) {
        uint32_t first = bc_cell(S, st, BC_S_FIRST), n = bc_cell(S, st, BC_S_N), k;
        for (k = first; k < first + n && bc_cell(S, k, BC_S_KEY) != (uint8_t)*p; k++)
            ;
        if (k == first + n)
            return -1;
        st = k;
    }
    return (long)st;
}

static void test_segments(void)
{
    /* Shared edges: "/p*ab" (1), "/p*ab*cd" (2), "/p*ab*ef$" (3) and "/p*ab*cd*g" (4)
     * share the slot "/p" and the edge "ab" (rank 1, to internal node
     * 0); below it "cd" (rank 2, to internal node 1, where "g" hangs) and
     * "ef" anchored: 4 edges, 2 internal nodes, one slot. */
    {
        static const char *const p[] = {"/p*ab", "/p*ab*cd", "/p*ab*ef$", "/p*ab*cd*g"};
        pset ps = make_pset(p, NULL, 4);
        emitted em;
        wild x;
        if (emit_both(&ps, &em) && wild_of(&em, 0, &x)) {
            const bc_table *E = &x.w.edges;
            long rab = row_of(&x, "ab"), rcd = row_of(&x, "cd"), ref = row_of(&x, "ef"), rg = row_of(&x, "g");
            int ok = em.shape[0].slots == 1 && em.shape[0].edges == 4 && em.shape[0].internal == 2 &&
                     x.w.nint == 2 && !x.w.chain && x.sg.nrow == 4 && rab >= 0 && rcd >= 0 && ref >= 0 &&
                     rg >= 0 && x.sg.nedge == 4;
            for (uint32_t k = 0; ok && k < 4; k++) {
                uint32_t par = bc_cell(E, k, BC_E_PARENT), rank = bc_cell(E, k, BC_E_RANK);
                uint32_t t = bc_cell(E, k, BC_E_TARGET), mx = bc_cell(E, k, BC_E_MAX);
                long r = (long)x.sg.e_row[k];
                if (r == rab) /* from the slot (Parent 0), internal node 0 */
                    ok = par == 0 && rank == 1 && t == 1 && mx == 4 && !x.sg.e_anch[k];
                else if (r == rcd) /* from internal node 0: Parent ROOTS Count + 0 */
                    ok = par == 1 && rank == 2 && t == 2 && mx == 4 && !x.sg.e_anch[k];
                else if (r == ref)
                    ok = par == 1 && rank == 3 && t == 0 && mx == 3 && x.sg.e_anch[k];
                else
                    ok = par == 2 && rank == 4 && t == 0 && mx == 4 && !x.sg.e_anch[k];
            }
            TU_CHECK(ok, "shared edges: slots %u edges %u internal %u", em.shape[0].slots,
                     em.shape[0].edges, em.shape[0].internal);
            exhaustive(&ps, &em, "/pabcdefg", 5);
            static const char *const paths[] = {"/pab", "/pxabcd", "/pabcd", "/pabxcdxg", "/pcdab",
                                                "/pabef", "/pabefx", "/pabcdef", "/pabgcd", "/pab/cd/g"};
            for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
                compare_path(&ps, &em, (const uint8_t *)paths[i], strlen(paths[i]));
            bc_seg_free(&x.sg);
        }
        emitted_free(&em);
        free(ps.p);
        passed++;
    }
    /* Internal nodes: one rule of 6 segments is a path of 6 edges through
     * 5 internal nodes; two rules parting after 2 segments share 2 edges. */
    {
        static const char *const p[] = {"/*a*b*c*d*e*f", "/*a*b*x", "/*a*b*y*z$"};
        pset ps = make_pset(p, NULL, 3);
        emitted em;
        if (emit_both(&ps, &em)) {
            TU_CHECK(em.shape[0].internal == 5 + 0 + 1 && em.shape[0].edges == 6 + 1 + 2 &&
                         em.shape[0].slots == 1,
                     "internal nodes: %u, edges %u", em.shape[0].internal, em.shape[0].edges);
            exhaustive(&ps, &em, "/abcxyz", 6);
            static const char *const paths[] = {"/abcdef", "/aabbccddeeff", "/fedcba", "/a/b/c/d/e/f/",
                                                "/abxyz", "/abyz", "/abyzz", "/abzy", "/xaxbxcxdxexf"};
            for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
                compare_path(&ps, &em, (const uint8_t *)paths[i], strlen(paths[i]));
        }
        emitted_free(&em);
        free(ps.p);
        passed++;
    }
    /* The automaton's links: "abcd", "bcd", "cd", "d" are suffixes of one
     * another (OUTS Next: abcd -> bcd -> cd -> d), "bc" is a suffix of
     * "abc": the state "abc" (not a segment) fails to "bc" and outputs it;
     * "cdx" shares the prefix "cd" with a segment. */
    {
        static const char *const p[] = {"/*abcd", "/*bcd", "/*cd", "/*d", "/*bc", "/*cdx"};
        static const uint32_t r[] = {6, 5, 4, 3, 2, 1};
        pset ps = make_pset(p, r, 6);
        emitted em;
        wild x;
        if (emit_both(&ps, &em) && wild_of(&em, 0, &x)) {
            const bc_table *O = &x.w.outs, *S = &x.sg.states;
            long rabcd = row_of(&x, "abcd"), rbcd = row_of(&x, "bcd"), rcd = row_of(&x, "cd");
            long rd = row_of(&x, "d"), rbc = row_of(&x, "bc"), rcdx = row_of(&x, "cdx");
            long sabc = state_of(&x, "abc"), sbc = state_of(&x, "bc"), sabcd = state_of(&x, "abcd");
            long scd = state_of(&x, "cd"), scdx = state_of(&x, "cdx"), sbcd = state_of(&x, "bcd");
            int ok = rabcd >= 0 && rbcd >= 0 && rcd >= 0 && rd >= 0 && rbc >= 0 && rcdx >= 0 &&
                     sabc > 0 && sbc > 0 && sabcd > 0 && scd > 0 && scdx > 0 && sbcd > 0;
            ok = ok && bc_cell(O, (uint32_t)rabcd, BC_O_NEXT) == (uint32_t)rbcd + 1 &&
                 bc_cell(O, (uint32_t)rbcd, BC_O_NEXT) == (uint32_t)rcd + 1 &&
                 bc_cell(O, (uint32_t)rcd, BC_O_NEXT) == (uint32_t)rd + 1 &&
                 bc_cell(O, (uint32_t)rd, BC_O_NEXT) == 0 && bc_cell(O, (uint32_t)rbc, BC_O_NEXT) == 0 &&
                 bc_cell(O, (uint32_t)rcdx, BC_O_NEXT) == 0;
            /* Max covers the chain: "d" (rank 3) under "cd" (4) under "bcd" (5) */
            ok = ok && bc_cell(O, (uint32_t)rabcd, BC_O_MAX) == 6 &&
                 bc_cell(O, (uint32_t)rcd, BC_O_MAX) == 4 && bc_cell(O, (uint32_t)rcdx, BC_O_MAX) == 1;
            ok = ok && bc_cell(S, (uint32_t)sabc, BC_S_FAIL) == (uint32_t)sbc &&
                 bc_cell(S, (uint32_t)sabc, BC_S_OUT) == (uint32_t)rbc + 1 &&
                 bc_cell(S, (uint32_t)sabcd, BC_S_FAIL) == (uint32_t)sbcd &&
                 bc_cell(S, (uint32_t)sabcd, BC_S_OUT) == (uint32_t)rabcd + 1 &&
                 bc_cell(S, (uint32_t)scdx, BC_S_FAIL) == 0 &&
                 bc_cell(S, (uint32_t)scd, BC_S_OUT) == (uint32_t)rcd + 1;
            TU_CHECK(ok, "failure and dictionary links of nested segments");
            exhaustive(&ps, &em, "/abcdx", 7);
            bc_seg_free(&x.sg);
        }
        emitted_free(&em);
        free(ps.p);
        passed++;
    }
}

/* ---- splitting and chains, through the whole compiler ------------------- */

/* Paths for a body's patterns: each pattern with its '*'s filled (nothing,
 * one letter, or a run), cut or extended, plus random a/b/x paths. */
static size_t split_paths(const char *const *pats, size_t np, char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < np && n < max; i++) {
        for (int v = 0; v < 4 && n < max; v++) {
            tu_buf b = {NULL, 0, 0};
            for (const char *q = pats[i]; *q; q++) {
                if (*q == '$')
                    continue;
                if (*q == '*') {
                    static const char *const fill[] = {"", "q", "aXb", "zzzz"};
                    tu_buf_puts(&b, fill[(v + (q - pats[i])) % 4]);
                } else {
                    tu_buf_put(&b, q, 1);
                }
            }
            if (v == 2)
                tu_buf_puts(&b, "/tail");
            if (v == 3 && b.n > 2)
                b.p[--b.n] = 0;
            out[n++] = b.p ? b.p : calloc(1, 1);
        }
    }
    while (n < max) {
        tu_buf b = {NULL, 0, 0};
        tu_buf_puts(&b, "/");
        for (unsigned k = rnd(30); k > 0; k--)
            tu_buf_put(&b, &"abqx/%"[rnd(6)], 1);
        out[n++] = b.p;
    }
    return n;
}

/* Compiles body (checked by compile_ex: every program within the budgets
 * or in chain form, FORMAT.md's blobcheck.h), then matches every path
 * through the runtime, through the checker's own matcher over each program
 * of the global set (the maximum of their ranks, FORMAT.md SETS) and
 * through the reference: all must agree. Returns the programs of the
 * global set. */
static uint32_t split_agree_p(const char *what, const char *body, const char *const *pats, size_t np,
                              bc_info *bi, int profile)
{
    rsc_blob b = compile_ex(body, strlen(body), profile, 0, bi);
    rsc_program p;
    rsc_selection sel;
    rsc_bytes ag = {"bot", 3};
    long set = agent_set(&b, NULL);
    if (!b.data || rsc_load(&p, b.data, b.size, NULL) != RSC_OK ||
        rsc_select(&p, &ag, 1, &sel) != RSC_OK) {
        TU_CHECK(0, "%s: load", what);
        rsc_blob_free(&b, NULL);
        return 0;
    }
    ref_robots rr;
    if (ref_parse(&rr, body, strlen(body), profile) != 0)
        exit(2);
    bc_texts tx;
    texts_of(&b, &tx);
    bc_table rules;
    first_table(&b, BC_RULES, &rules, NULL);
    /* the programs of the global set: without SETS, set k is program k */
    bc_table sets, list;
    bc_blob bb = {0};
    const uint8_t *sp, *send;
    uint32_t first = (uint32_t)set, count = 1, progs[64];
    int has = open_blob(&b, &bb) && (bc_section(&bb, BC_SETS, &sp, &send), sp != NULL);
    if (has && bc_read_table(&sp, send, 2, &sets, "SETS", NULL) &&
        bc_read_table(&sp, send, 1, &list, "list", NULL)) {
        first = bc_cell(&sets, (uint32_t)set, 0), count = bc_cell(&sets, (uint32_t)set, 1);
        for (uint32_t k = 0; k < count && k < 64; k++)
            progs[k] = bc_cell(&list, first + k, 0);
    } else {
        progs[0] = (uint32_t)set;
    }
    char *paths[400];
    size_t n = split_paths(pats, np, paths, 400);
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(paths[i]);
        ref_str rag = {"bot", 3};
        ref_verdict want = ref_check_parsed(&rr, &rag, 1, paths[i], len, 1);
        rsc_match m;
        int got = rsc_match_path(&sel, paths[i], len, &m);
        uint32_t best = 0;
        /* the rfc profile matches the normalised path (FORMAT.md, Matching) */
        uint8_t *q = malloc(3 * len + 1);
        if (!q)
            exit(2);
        size_t ql = profile ? bc_rfc_norm((const uint8_t *)paths[i], len, q) : len;
        if (!profile)
            memcpy(q, paths[i], len);
        int exempt = profile && ql == 11 && memcmp(q, "/robots.txt", 11) == 0;
        for (uint32_t k = 0; k < count && k < 64 && !exempt; k++) {
            const uint8_t *pg;
            size_t size;
            if (program_of(&b, progs[k], &pg, &size))
                best = bc_walk(pg, size, &tx, q, ql, best);
        }
        free(q);
        int line = best && bc_cell(&rules, best - 1, 2) ? (int)(bc_cell(&rules, best - 1, 0) >> 1) : 0;
        if (got != want.allowed || (int)m.line != want.line || line != want.line) {
            if (bad++ < 3)
                TU_CHECK(0, "%s: path %.60s: runtime %d line %u, blobcheck line %d, reference %d line %d",
                         what, paths[i], got, m.line, line, want.allowed, want.line);
        }
        passed++;
        free(paths[i]);
    }
    TU_CHECK(bad == 0, "%s: %d verdicts differ", what, bad);
    bc_texts_free(&tx);
    ref_free(&rr);
    rsc_blob_free(&b, NULL);
    return count;
}

static uint32_t split_agree(const char *what, const char *body, const char *const *pats, size_t np,
                            bc_info *bi)
{
    return split_agree_p(what, body, pats, np, bi, 0);
}

/* A body "User-agent: *" + lines (Disallow, or Allow every k-th). */
static char *body_of(char **pats, size_t n, unsigned allow_every)
{
    tu_buf b = {NULL, 0, 0};
    tu_buf_puts(&b, "User-agent: *\n");
    for (size_t i = 0; i < n; i++) {
        tu_buf_puts(&b, allow_every && i % allow_every == 0 ? "Allow: " : "Disallow: ");
        tu_buf_puts(&b, pats[i]);
        tu_buf_puts(&b, "\n");
    }
    return b.p;
}

static void test_split(void)
{
    char *pats[700];
    char buf[2200];
    bc_info bi;
    /* Levels: 40 nested literal prefixes "/a", "/aa", ... each with a
     * wildcard rule: 40 root slots on one chain of the trie, over the 16
     * a program holds (RSC_MAX_LEVELS): split. */
    for (int i = 0; i < 40; i++) {
        int k = snprintf(buf, sizeof buf, "/%.*s*x%d", i + 1,
                         "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", i % 3);
        pats[i] = malloc((size_t)k + 1);
        memcpy(pats[i], buf, (size_t)k + 1);
    }
    char *body = body_of(pats, 40, 3);
    uint32_t np = split_agree("40 levels", body, (const char *const *)pats, 40, &bi);
    TU_CHECK(np >= (40 + RSC_MAX_LEVELS - 1) / RSC_MAX_LEVELS && bi.programs == np,
             "40 levels: %u programs in the set, %u in the blob", np, bi.programs);
    free(body);
    for (int i = 0; i < 40; i++)
        free(pats[i]);
    /* Internal nodes: RSC_MAX_INTERNAL + 100 rules "/" "*qN*zN" of two
     * segments each, every one with its own internal node: over
     * RSC_MAX_INTERNAL, split. */
    size_t ni = RSC_MAX_INTERNAL + 100 < 700 ? RSC_MAX_INTERNAL + 100 : 699;
    for (size_t i = 0; i < ni; i++) {
        int k = snprintf(buf, sizeof buf, "/*q%zu*z%zu", i, i * 7 % 1000);
        pats[i] = malloc((size_t)k + 1);
        memcpy(pats[i], buf, (size_t)k + 1);
    }
    body = body_of(pats, ni, 5);
    np = split_agree("internal nodes", body, (const char *const *)pats, ni, &bi);
    TU_CHECK(np >= 2 && bi.chains == 0, "internal nodes: %u programs", np);
    free(body);
    /* Edges of one segment from internal nodes (RSC_MAX_INNER): "/" "*qN*z"
     * hang RSC_MAX_INNER + 20 edges "z" below internal nodes: split. */
    size_t ne = RSC_MAX_INNER + 20;
    for (size_t i = 0; i < ne; i++)
        snprintf(pats[i], 12, "/*q%zu*z", i);
    body = body_of(pats, ne, 4);
    np = split_agree("inner edges", body, (const char *const *)pats, ne, &bi);
    TU_CHECK(np >= 2, "inner edges: %u programs", np);
    free(body);
    for (size_t i = 0; i < ni; i++)
        free(pats[i]);
    /* Dictionary chains: "/" "*a", "/" "*aa", ... "/" "*a{24}": 24 segments suffixes of
     * one another, over RSC_MAX_CHAIN (16) ending at one position: split. */
    for (int i = 0; i < 24; i++) {
        int k = snprintf(buf, sizeof buf, "/*%.*s%s", i + 1, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                         i % 5 == 4 ? "$" : "");
        pats[i] = malloc((size_t)k + 1);
        memcpy(pats[i], buf, (size_t)k + 1);
    }
    body = body_of(pats, 24, 2);
    np = split_agree("nested segments", body, (const char *const *)pats, 24, &bi);
    TU_CHECK(np >= 2 && bi.chains == 0, "nested segments: %u programs", np);
    free(body);
    for (int i = 0; i < 24; i++)
        free(pats[i]);
    passed++;

    /* Random wildcard-heavy sets over a small alphabet: nested literal
     * prefixes (levels), segments suffixes of one another (dictionary
     * chains), shared leading segments (internal nodes), anchors; some
     * over a budget. */
    {
        int split_seen = 0;
        for (int it = 0; it < 24; it++) {
            size_t n = 20 + rnd(it % 4 == 3 ? 200 : 60);
            for (size_t i = 0; i < n; i++) {
                tu_buf p = {NULL, 0, 0};
                tu_buf_puts(&p, "/");
                for (unsigned k = rnd(it % 2 ? 24 : 4); k > 0; k--)
                    tu_buf_puts(&p, "p");
                for (unsigned sgs = 1 + rnd(4); sgs > 0; sgs--) {
                    tu_buf_puts(&p, "*");
                    for (unsigned k = 1 + rnd(it % 3 ? 6 : 20); k > 0; k--) {
                        if (it % 2 && rnd(9) == 0) /* escapes: rfc normalises them */
                            tu_buf_puts(&p, rnd(2) ? "%61" : "%2f");
                        else
                            tu_buf_put(&p, &"aab"[rnd(3)], 1);
                    }
                }
                if (rnd(4) == 0)
                    tu_buf_puts(&p, "$");
                pats[i] = p.p;
            }
            body = body_of(pats, n, 3);
            char what[40];
            snprintf(what, sizeof what, "random wildcard set %d", it);
            np = split_agree_p(what, body, (const char *const *)pats, n, &bi, it % 2);
            split_seen += np > 1;
            free(body);
            for (size_t i = 0; i < n; i++)
                free(pats[i]);
        }
        TU_CHECK(split_seen > 0, "random wildcard sets: none was split");
        printf("random wildcard sets: %d of 24 split into several programs\n", split_seen);
    }
    passed++;

    /* Chain form: one rule over the budgets on its own. (1) more segments
     * than RSC_MAX_INTERNAL + 1: "/x" then "*sN" for N up to it; (2) 20
     * segments "a", "aa", ... nested suffixes: "/" "*a*aa*aaa*...". */
    {
        tu_buf r = {NULL, 0, 0};
        tu_buf_puts(&r, "/x");
        for (int i = 0; i < RSC_MAX_INTERNAL + 10; i++) {
            snprintf(buf, sizeof buf, "*s%d", i % 97);
            tu_buf_puts(&r, buf);
        }
        pats[0] = r.p;
        pats[1] = "/x*s1";
        char *bd = body_of(pats, 2, 0);
        np = split_agree("chain of many segments", bd, (const char *const *)pats, 1, &bi);
        TU_CHECK(bi.chains == 1 && bi.programs == 2, "chain of many segments: %u chains, %u programs",
                 bi.chains, bi.programs);
        /* the whole rule matches: the segments in order, anything between */
        rsc_blob b = compile(bd, 0);
        rsc_program p;
        rsc_selection sel;
        rsc_bytes ag = {"bot", 3};
        if (b.data && rsc_load(&p, b.data, b.size, NULL) == RSC_OK &&
            rsc_select(&p, &ag, 1, &sel) == RSC_OK) {
            tu_buf path = {NULL, 0, 0};
            tu_buf_puts(&path, "/x");
            for (int i = 0; i < RSC_MAX_INTERNAL + 10; i++) {
                snprintf(buf, sizeof buf, "-s%d", i % 97);
                tu_buf_puts(&path, buf);
            }
            rsc_match m;
            TU_CHECK(rsc_match_path(&sel, path.p, path.n, &m) == 0 && m.line == 2,
                     "chain: the whole rule matches (line %u)", m.line);
            path.p[path.n - 1] = '#'; /* the last segment's last byte changed */
            TU_CHECK(rsc_match_path(&sel, path.p, path.n, &m) == 0 && m.line == 3,
                     "chain: one byte short of the rule (line %u)", m.line);
            free(path.p);
        }
        rsc_blob_free(&b, NULL);
        free(bd);
        free(r.p);
        tu_buf s = {NULL, 0, 0};
        tu_buf_puts(&s, "/*");
        for (int i = 1; i <= 20; i++) {
            snprintf(buf, sizeof buf, "%s%.*s", i > 1 ? "*" : "", i, "aaaaaaaaaaaaaaaaaaaaaaaaa");
            tu_buf_puts(&s, buf);
        }
        tu_buf_puts(&s, "$");
        pats[0] = s.p;
        pats[1] = "/*b";
        bd = body_of(pats, 2, 0);
        np = split_agree("chain of nested segments", bd, (const char *const *)pats, 1, &bi);
        TU_CHECK(bi.chains == 1, "chain of nested segments: %u chains, %u programs", bi.chains,
                 bi.programs);
        free(bd);
        free(s.p);
        /* (3) one segment RSC_MAX_INNER + 36 times: as many edges of it from
         * internal nodes, over that budget */
        tu_buf t = {NULL, 0, 0};
        tu_buf_puts(&t, "/x");
        for (int i = 0; i < RSC_MAX_INNER + 36; i++)
            tu_buf_puts(&t, "*ab");
        pats[0] = t.p;
        pats[1] = "/x*ab*ab";
        bd = body_of(pats, 2, 2);
        np = split_agree("chain of one segment", bd, (const char *const *)pats, 2, &bi);
        TU_CHECK(bi.chains == 1, "chain of one segment: %u chains, %u programs", bi.chains, bi.programs);
        free(bd);
        free(t.p);
    }
    passed++;
}

/* ---- FORMAT.md, Labels: through the whole compiler ---------------------- */

/* Program k of blob b: its wildcard part as the blob has it (*w: Shape's
 * Labels bit, STATES rows) and as the checker reads it (*pr: the whole
 * automaton's states, of them the ones the Labels rule makes implicit). */
static int labels_of(const rsc_blob *b, uint32_t k, bc_wild *w, bc_prog *pr)
{
    const uint8_t *pg, *trie;
    size_t size;
    uint32_t tsize;
    memset(pr, 0, sizeof *pr);
    return program_of(b, k, &pg, &size) && bc_split_program(pg, size, &trie, &tsize, w, NULL) &&
           entries_of(b, k, 1, pr);
}

static void test_labels(void)
{
    static const char *const ag[] = {"a", NULL};
    /* Labels 1: in the segments "/offers/make-an-offer", ".pdf" and
     * "/offers/" every state is implicit but the root, "/" (the Fail of
     * "/offers/") and the three segment ends: 5 rows for the whole
     * automaton's 1 + 21 + 4 = 26 states. */
    const char *b1 = "User-agent: *\nDisallow: /*/offers/make-an-offer$\nDisallow: /*.pdf$\n"
                     "Allow: /*/offers/\n";
    static const char *const p1[] = {"/x/offers/make-an-offer", "/offers/make-an-offer",
                                     "/x/offers/make-an-offerx", "/x/offers/", "/x/offers",
                                     "/a.pdf", "/a.pdfx", "/.pdf", "/x/offers/make-an-offe",
                                     "//offers/make-an-offer", "/x/offers/offers/make-an-offer",
                                     "/x/offers/make-/offers/make-an-offer", "/x/offer/make-an-offer",
                                     "/o/offers/make-an-offer.pdf", NULL};
    for (int prof = 0; prof < 2; prof++) {
        bc_info bi;
        rsc_blob b = compile_ex(b1, strlen(b1), prof, 0, &bi);
        bc_wild w;
        bc_prog pr;
        if (labels_of(&b, 0, &w, &pr)) {
            TU_CHECK(bi.programs == 1 && w.labels && !w.chain && w.nint == 0 && w.states.count == 5 &&
                         pr.labels && pr.states == 5 && pr.all_states == 26 && pr.implicit == 21 &&
                         bi.labelled == 1 && bi.states == 5 && bi.all_states == 26,
                     "labels 1 (profile %d): Labels %d, %u rows, %u states, %u implicit", prof,
                     w.labels, w.states.count, pr.all_states, pr.implicit);
            /* The checker can fail: a label shifted by a byte, and the same
             * automaton without labels (5 columns, every state a row: valid
             * for a decoder, but not what the encoder chooses). */
            const uint8_t *pg, *trie;
            size_t size;
            uint32_t tsize;
            bc_texts tx;
            texts_of(&b, &tx);
            if (program_of(&b, 0, &pg, &size) && w.states.count == 5) {
                uint8_t *cp = malloc(size + 1);
                bc_wild w2;
                if (!cp)
                    exit(2);
                memcpy(cp, pg, size);
                bc_split_program(cp, size, &trie, &tsize, &w2, NULL);
                size_t at = (size_t)(w2.states.rows - cp) + 4 * w2.states.row_size;
                for (unsigned c = 0; c < BC_S_LABOFF; c++)
                    at += w2.states.w[c];
                TU_CHECK(bc_cell(&w2.states, 4, BC_S_LABLEN) > 0, "row 4 has a label");
                cp[at]++; /* the last row's Lab_Off, one byte on */
                bc_err e = {{0}};
                bc_prog tmp;
                TU_CHECK(!bc_check_program(cp, size, &tx, 0, 1, &tmp, &e) && e.msg[0],
                         "checker: a shifted label accepted");
                bc_prog_free(&tmp);
                free(cp);
                /* the whole automaton as STATES, Labels 0: rejected; the
                 * labels made again here (each at its first place):
                 * accepted (and restate's other form is right) */
                uint8_t *un = malloc(size + 28 * (size_t)pr.all_states + 64);
                uint8_t *re = malloc(size + 28 * (size_t)pr.all_states + 64);
                if (!un || !re)
                    exit(2);
                size_t un_n = restate(pg, size, &tx, 0, un), re_n = restate(pg, size, &tx, 1, re);
                bc_err e3 = {{0}}, e4 = {{0}};
                TU_CHECK(un_n > size && !bc_check_program(un, un_n, &tx, 0, 1, &tmp, &e3) &&
                             strstr(e3.msg, "Labels 0, but"),
                         "checker: the automaton without labels accepted (%s)", e3.msg);
                bc_prog_free(&tmp);
                TU_CHECK(re_n == size && bc_check_program(re, re_n, &tx, 0, 1, &tmp, &e4) &&
                             tmp.labels && tmp.states == 5,
                         "checker: the automaton labelled again: %s (%zu bytes, %zu; labels %d states %u)", e4.msg, re_n, size, tmp.labels, tmp.states);
                bc_prog_free(&tmp);
                free(un);
                free(re);
            }
            bc_texts_free(&tx);
            bc_prog_free(&pr);
        }
        rsc_blob_free(&b, NULL);
        agree(b1, prof, ag, p1);
        static const char *const r1[] = {"/*/offers/make-an-offer$", "/*.pdf$", "/*/offers/"};
        split_agree_p("labels 1", b1, r1, 3, &bi, prof); /* the checker's matcher too */
        passed++;
    }

    /* Labels 0, no state implicit: segments over {a, b} whose every state
     * but the root fails to a state of its last byte, and "a" and "b" are
     * the Fail of others. */
    const char *b2 = "User-agent: *\nDisallow: /*abab\nDisallow: /*abba$\nAllow: /*baab\n"
                     "Disallow: /*bbb\nAllow: /*aab$\nDisallow: /*babba\n";
    static const char *const p2[] = {"/abab", "/xabba", "/abbax", "/baab", "/bbbb", "/aab", "/aabx",
                                     "/babba", "/bab", "/ababbaab", NULL};
    {
        bc_info bi;
        rsc_blob b = compile_ex(b2, strlen(b2), 0, 0, &bi);
        bc_wild w;
        bc_prog pr;
        if (labels_of(&b, 0, &w, &pr)) {
            TU_CHECK(bi.programs == 1 && !w.labels && pr.implicit == 0 &&
                         pr.states == pr.all_states && pr.states == w.states.count &&
                         w.states.cols == 5 && bi.labelled == 0,
                     "labels 0 (no implicit state): Labels %d, %u rows, %u states, %u implicit",
                     w.labels, w.states.count, pr.all_states, pr.implicit);
            bc_prog_free(&pr);
        }
        rsc_blob_free(&b, NULL);
        agree(b2, 0, ag, p2);
        static const char *const r2[] = {"/*abab", "/*abba$", "/*baab", "/*bbb", "/*aab$", "/*babba"};
        split_agree("labels 0", b2, r2, 6, &bi);
        passed++;
    }

    /* Labels 0 with a state implicit: of "abcd", "bcd", "cd", "d", "bc",
     * "cdx" only "a" is (one child, nothing fails to it), and 11 rows of 7
     * columns are larger than 12 of 5: the whole automaton, 12 rows. */
    const char *b3 = "User-agent: *\nDisallow: /*abcd\nAllow: /*bcd\nDisallow: /*cd\nAllow: /*d\n"
                     "Disallow: /*bc\nDisallow: /*cdx\n";
    static const char *const p3[] = {"/abcd", "/xbcd", "/cd", "/d", "/bc", "/cdx", "/abc",
                                     "/abcdx", "/cdxd", NULL};
    {
        bc_info bi;
        rsc_blob b = compile_ex(b3, strlen(b3), 0, 0, &bi);
        bc_wild w;
        bc_prog pr;
        if (labels_of(&b, 0, &w, &pr)) {
            TU_CHECK(bi.programs == 1 && !w.labels && pr.implicit == 1 && pr.all_states == 12 &&
                         w.states.count == 12 && bi.labelled == 0,
                     "labels 0 (one implicit state): Labels %d, %u rows, %u states, %u implicit",
                     w.labels, w.states.count, pr.all_states, pr.implicit);
            /* with labels (11 rows of 7 columns) it is rejected: larger */
            const uint8_t *pg;
            size_t size;
            bc_texts tx;
            texts_of(&b, &tx);
            uint8_t *lb = malloc(64 * 28 + 1024);
            bc_prog tmp;
            bc_err e = {{0}};
            if (!lb)
                exit(2);
            size_t ln = program_of(&b, 0, &pg, &size) && size < 1024 ? restate(pg, size, &tx, 1, lb) : 0;
            TU_CHECK(ln > size && !bc_check_program(lb, ln, &tx, 0, 1, &tmp, &e) &&
                         strstr(e.msg, "Labels 1, but"),
                     "checker: a labelled STATES larger than the whole accepted (%s)", e.msg);
            bc_prog_free(&tmp);
            free(lb);
            bc_texts_free(&tx);
            bc_prog_free(&pr);
        }
        rsc_blob_free(&b, NULL);
        agree(b3, 0, ag, p3);
        passed++;
    }

    /* A chain program has Labels 0 whatever its segments: one rule of 600
     * segments "sNNN" (over the internal-node budget on its own). */
    {
        tu_buf r = {NULL, 0, 0};
        tu_buf_puts(&r, "User-agent: *\nDisallow: /x");
        char buf[32];
        for (int i = 0; i < RSC_MAX_INTERNAL + 90; i++) {
            snprintf(buf, sizeof buf, "*long-segment-%d", i);
            tu_buf_puts(&r, buf);
        }
        tu_buf_puts(&r, "\n");
        bc_info bi;
        rsc_blob b = compile_ex(r.p, r.n, 0, 0, &bi);
        bc_wild w;
        bc_prog pr;
        if (labels_of(&b, 0, &w, &pr)) {
            TU_CHECK(bi.chains == 1 && w.chain && !w.labels && bi.labelled == 0,
                     "chain: Chain %d Labels %d", w.chain, w.labels);
            bc_prog_free(&pr);
        }
        rsc_blob_free(&b, NULL);
        free(r.p);
        passed++;
    }
}

/* Allocation failure in the encoder: every k, RSC_E_NOMEM and no leak;
 * then the same bytes as with malloc. */
static void test_trie_nomem(void)
{
    static const char *const pats[] = {"/a**", "/ab", "/abc$", "/ab*x", "/b*c*d$", "/bcd",
                                       "/bce", "*z", "/"};
    static const uint32_t ranks[] = {7, 3, 5, 4, 9, 8, 6, 2, 1};
    pset ps = make_pset(pats, ranks, 9);
    for (int np = 0; np < 2; np++) {
        rsc_mem m0;
        rsc_mem_init(&m0, NULL, NULL);
        rsc_buf want = {NULL, 0, 0};
        TU_CHECK(rsc_trie_emit(&m0, ps.p, ps.n, np, &want, NULL) == RSC_OK, "emit");
        long k;
        for (k = 1; k < 10000; k++) {
            counting c;
            memset(&c, 0, sizeof c);
            c.fail_at = k;
            rsc_mem m;
            rsc_mem_init(&m, count_alloc, &c);
            rsc_buf out = {NULL, 0, 0};
            rsc_status st = rsc_trie_emit(&m, ps.p, ps.n, np, &out, NULL);
            if (st == RSC_OK) {
                TU_CHECK(c.calls < k, "succeeded though allocation %ld failed", k);
                TU_CHECK(out.len == want.len && memcmp(out.p, want.p, out.len) == 0,
                         "bytes differ");
            } else {
                TU_CHECK(st == RSC_E_NOMEM && m.failed, "k=%ld: status %d", k, (int)st);
            }
            rsc_buf_free(&m, &out);
            TU_CHECK(c.live == 0 && c.bytes == 0, "k=%ld: %ld blocks leaked", k, c.live);
            if (st == RSC_OK || tu_failures > 20)
                break;
        }
        printf("encoder allocation failure (no_prune %d): %ld allocations checked\n", np, k - 1);
        TU_CHECK(k > 3, "too few allocations to test: %ld", k);
        rsc_buf_free(&m0, &want);
        passed++;
    }
    free(ps.p);
}

/* STRINGS holds a rule string that is a prefix of another inside the
 * longer one (compile.c, place_rule_strings): its size is the sum of the
 * distinct strings that are no prefix of another, computed here from the
 * strings RULES reads back (a blob without DFAs: a DFA's labels and keys
 * found nowhere in the rules' texts are appended after them, so with DFAs
 * the same bytes start STRINGS), and the verdicts stay those of the
 * reference. */
static void test_shared_strings(void)
{
    static const char *const bodies[] = {
        "User-agent: *\nDisallow: /a/b\nAllow: /a\nDisallow: /a/b/c$\nDisallow: /zz\n"
        "Allow: /a/b\nDisallow: /a/b/c$x\n",
        "User-agent: *\nDisallow: /%7ea\nAllow: /~\nDisallow: /%7E\nDisallow: /*x*y$\n"
        "Allow: /*x\nDisallow: /\xc3\xa9t\xc3\xa9\nAllow: /%C3%A9\n",
        "User-agent: *\nDisallow: /q\nDisallow: /p\nAllow: /pq\nAllow: /qp\n",
        NULL};
    static const char *const agents[] = {"bot", NULL};
    static const char *const paths[] = {"/a",     "/a/b",     "/a/b/c",  "/a/b/c$x", "/zz",
                                        "/~a",    "/%7Ea",    "/~",      "/xay",     "/xa",
                                        "/\xc3\xa9t\xc3\xa9", "/%C3%A9", "/pq", "/qpx", NULL};
    for (size_t i = 0; bodies[i]; i++)
        for (int profile = 0; profile < 2; profile++) {
            rsc_blob b = compile_ex(bodies[i], strlen(bodies[i]), profile, RSC_COMPILE_NO_DFA, NULL);
            rsc_blob bd = compile(bodies[i], profile);
            bc_table t;
            bc_blob bb = {0}, bbd = {0};
            if (open_blob(&bd, &bbd) && open_blob(&b, &bb))
                TU_CHECK(bbd.sec_size[BC_STRINGS] >= bb.sec_size[BC_STRINGS] &&
                             (!bb.sec_size[BC_STRINGS] ||
                              memcmp(bbd.sec[BC_STRINGS], bb.sec[BC_STRINGS], bb.sec_size[BC_STRINGS]) == 0),
                         "body %zu profile %d: with DFAs, STRINGS does not start with the rules' texts",
                         i, profile);
            rsc_blob_free(&bd, NULL);
            if (!first_table(&b, BC_RULES, &t, NULL) || !open_blob(&b, &bb)) {
                TU_CHECK(0, "body %zu profile %d: no RULES", i, profile);
                rsc_blob_free(&b, NULL);
                continue;
            }
            const uint8_t *str = bb.sec[BC_STRINGS];
            const uint8_t *p[32];
            uint32_t n[32], k = 0, want = 0;
            for (uint32_t r = 0; r < t.count && k + 2 <= 32; r++)
                for (unsigned c = 1; c < t.cols; c += 2)
                    p[k] = str + bc_cell(&t, r, c), n[k++] = bc_cell(&t, r, c + 1);
            for (uint32_t a = 0; a < k; a++) {
                int kept = 1;
                for (uint32_t o = 0; o < k && kept; o++) {
                    int same = n[a] == n[o] && memcmp(p[a], p[o], n[a]) == 0;
                    if (same ? o < a : n[a] < n[o] && memcmp(p[a], p[o], n[a]) == 0)
                        kept = 0; /* a prefix of another, or stored at an earlier copy */
                }
                want += kept ? n[a] : 0;
            }
            TU_CHECK(k > 0 && bb.sec_size[BC_STRINGS] == want,
                     "body %zu profile %d: STRINGS %u bytes, want %u", i, profile,
                     bb.sec_size[BC_STRINGS], want);
            passed++;
            rsc_blob_free(&b, NULL);
            agree(bodies[i], profile, agents, paths);
        }
}

/* rsc_msort_keyed (shared.c) against a plain stable insertion sort with the
 * whole order: keys from small ranges, so that many tie and the tie-break
 * (or, without one, the given order) decides; every size up to a few
 * thousand, and runs already in order. */
typedef struct sort_cx {
    const uint64_t *key;
    const uint32_t *second;
} sort_cx;

static int cmp_second(const void *vcx, uint32_t a, uint32_t b)
{
    const sort_cx *c = vcx;
    return c->second[a] < c->second[b] ? -1 : c->second[a] > c->second[b];
}

static void test_sorts(void)
{
    enum { N = 3000 };
    static uint64_t key[N];
    static uint32_t second[N], got[N], want[N];
    rsc_mem m;
    rsc_mem_init(&m, NULL, NULL);
    long sorts = 0;
    for (unsigned round = 0; round < 400; round++) {
        const unsigned n = round < 40 ? round : rnd(round % 10 == 0 ? N : 300) + 1;
        const unsigned kr = 1 + rnd(round % 3 == 0 ? 4 : 1000), sr = 1 + rnd(5);
        for (unsigned i = 0; i < n; i++) {
            /* high bits too: the keys compare as whole 64-bit values */
            key[i] = (uint64_t)rnd(kr) << (round % 2 ? 56 : 3) | rnd(2);
            second[i] = rnd(sr);
            got[i] = want[i] = (uint32_t)((i * 7919u) % (n ? n : 1)); /* a permutation */
        }
        if (round % 5 == 0) /* in order already: the merges' shortcut */
            for (unsigned i = 0; i < n; i++)
                key[i] = i, got[i] = want[i] = i;
        const sort_cx cx = {key, second};
        const int with = round % 2;
        for (unsigned i = 1; i < n; i++) { /* the reference: stable insertion */
            const uint32_t x = want[i];
            unsigned j = i;
            while (j > 0 && (key[x] < key[want[j - 1]] ||
                             (with && key[x] == key[want[j - 1]] && second[x] < second[want[j - 1]]))) {
                want[j] = want[j - 1];
                j--;
            }
            want[j] = x;
        }
        TU_CHECK(rsc_msort_keyed(&m, got, n, key, with ? cmp_second : NULL, &cx) == 0, "sort of %u", n);
        TU_CHECK(memcmp(got, want, n * sizeof *got) == 0, "round %u: %u indices, keys in %u, %s tie-break",
                 round, n, kr, with ? "with" : "no");
        sorts++;
    }
    static uint64_t u[N], v[N], tmp[N];
    for (unsigned round = 0; round < 60; round++) { /* rsc_sort_u64 against qsort */
        const unsigned n = round < 10 ? round : rnd(N) + 1;
        for (unsigned i = 0; i < n; i++)
            u[i] = v[i] = round % 3 ? (uint64_t)rnd(1u << 30) << (round % 34) ^ rnd(7) : rnd(3);
        qsort(v, n, sizeof *v, rsc_cmp_u64);
        rsc_sort_u64(u, tmp, n);
        TU_CHECK(memcmp(u, v, n * sizeof *u) == 0, "rsc_sort_u64: round %u, %u values", round, n);
        sorts++;
    }
    printf("sorts: %ld keyed and u64 sorts equal to a stable insertion sort or qsort\n", sorts);
}

int main(void)
{
    test_sorts();
    test_groups();
    test_verdicts();
    test_determinism_and_lint();
    test_diag();
    test_nomem();
    test_compiler_tries();
    test_random_files();
    test_scratch();
    test_trie_small();
    test_trie_random();
    test_trie_limits();
    test_segments();
    test_split();
    test_labels();
    test_shared_strings();
    test_trie_nomem();
    printf("encoder: %ld paths matched by the naive matcher, walk() and the runtime (rfc; "
           "google too for %ld)\n",
           trie_paths, trie_paths_google);
    printf("labels: %ld programs without and %ld with labels rejected in the other form\n",
           other_form[0], other_form[1]);
    TU_CHECK(other_form[0] > 0 && other_form[1] > 0, "the other form of STATES: %ld and %ld",
             other_form[0], other_form[1]);
    return tu_report("backend", passed);
}
