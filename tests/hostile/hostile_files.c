/* SPDX-License-Identifier: Apache-2.0 */
/* Adversarial robots.txt files (issue 5, item 4), generated here from fixed
 * seeds: every file compiles with default options to RSC_OK or fails with
 * RSC_E_LIMIT, never anything else; a compiled blob loads; verdicts on
 * paths derived from the file's own patterns equal the reference matcher's
 * (tests/ref) while the reference stays cheap (a per-case work budget);
 * long paths (1,000 / 10,000 / 100,000 bytes, built to keep many wildcard
 * tails alive) get verdicts, checked against the reference or a known
 * answer when one is cheap. Compile time, peak heap (through the
 * allocator), blob size, programs, trie nodes, EDGES rows ("globs") and the
 * deepest chain of trie nodes (read with blobspec.c, FORMAT.md "Depth")
 * are printed as a table; nothing is asserted on time or memory (a case
 * over ~10 s or ~1 GiB is a bug to report, see docs/LIMITS.md "Adversarial
 * files: measured").
 *
 * Cases aimed at the trie of literal prefixes (formats 2 and 3):
 *  (h) the deepest tries a parsed file can make: nested literal prefixes
 *      (/a, /aa, /aaa, ... as many as fit in 500 KiB: a chain of about
 *      1,000 nodes), the same with End and glob entries all along the
 *      chain, a comb (a side branch at every level) and a complete binary
 *      trie. They must compile (FORMAT.md argues that no parsed file can
 *      reach the limit of 1024 nodes on a chain), reach the expected depth,
 *      and match like the reference (every path /a^m of a chain is also
 *      checked against its verdict by construction);
 *  (i) thousands of wildcard rules whose literal prefix is one node
 *      (Disallow: /\*x<N>, /p/\*a*b*c<N>$, /p/\*a*b*c<N>): one root slot
 *      with thousands of edges (format 2: one glob list of thousands of
 *      entries tried for every path), with long adversarial
 *      paths (10,000 'a's, 'x's, "abc" repeated...): verdicts equal the
 *      reference, and the time per path byte is printed for 1,000, 10,000
 *      and 100,000 bytes (linear matching shows as a flat ns/B; google and
 *      rfc profiles: in rfc, a path over 4 KiB is matched as a stream).
 *
 * Cases aimed at format 3's segment pass (one Aho-Corasick automaton a
 * program, budgets, splitting, chains), from the issue:
 *  (j) 10,000 rules "Disallow: /\*<24 random a/b letters>" with 1 KB a/b
 *      paths; 3 rules /\*a{5000}b, /\*a{4999}b, /\*a{4998}b and the URL
 *      http://h.test;ab + 60,000 'a's; 10,000 "Disallow: /\*qNNNNN" and
 *      "Allow: /k{200}"; a rule of 200 segments (a chain program); nested
 *      suffix segments /\*a*aa*aaa*...; 40 nested literal prefixes each
 *      with a wildcard rule (more than 16 root slots on one trie chain:
 *      split). Their verdicts are also checked against blobspec.c's own
 *      reading of FORMAT.md "Matching" (bs_match), not only the reference.
 *
 * Cases aimed at format 3.1's labels (an automaton's straight runs left
 * out of STATES, read from STRINGS):
 *  (k) long labels with near misses: a label matched but its last byte,
 *      paths ending inside a label, labels ending exactly at the path's
 *      end with '$', a miss inside a label followed by the whole label,
 *      labels that part near their end; random rules over stems whose
 *      states are implicit (24 bytes, and 1,500 bytes in k-labels-long);
 *      google and rfc (labels of %XX escapes). Every rule's near misses
 *      (near_miss()) are checked against the reference and blobspec.c's
 *      bs_match; the blob must have labelled states.
 *
 * Also (item 5): rsc_compile with an allocator that fails the k-th
 * allocation returns RSC_E_NOMEM and leaks nothing, on a mid-size
 * adversarial file: every k up to 200, then every 37th, up to success.
 *
 * Usage: hostile_files [--full] [--only NAME] [--dump DIR] [--no-alloc]
 *   --full   the full-size cases (ctest runs reduced ones where noted)
 *   --only   run the cases whose name contains NAME ("alloc": the
 *            allocation failure test)
 *   --dump   write each generated file to DIR/NAME.txt (reproduction) */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blobspec.h"
#include "ref_robots.h"
#include "robotsc/compiler.h"
#include "robotsc/ir.h"
#include "robotsc/runtime.h"
#include "testutil.h"

#ifdef RSC_TEST_SANITIZE
#define SAN 1
#else
#define SAN 0
#endif

#define CHECK TU_COUNT

static int full;

/* ---- seeded PRNG (xorshift64*) ------------------------------------------ */

static uint64_t rng_state;
static void rng_seed(uint64_t s) { rng_state = s * 0x9E3779B97F4A7C15ull + 1; }
static uint32_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}
static uint32_t rn(uint32_t n) { return n ? rnd() % n : 0; }

/* ---- a growable byte buffer --------------------------------------------- */

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_need(sbuf *b, size_t more)
{
    if (b->n + more + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + more + 1)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    b->p = p;
    b->cap = cap;
}
static void sb_add(sbuf *b, const void *s, size_t n)
{
    sb_need(b, n);
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void sb_str(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }
static void sb_c(sbuf *b, char c) { sb_add(b, &c, 1); }
static void sb_rep(sbuf *b, char c, size_t n)
{
    sb_need(b, n);
    memset(b->p + b->n, c, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    sb_need(b, (size_t)k);
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}
static void sb_free(sbuf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* Agent token number i: "bot-" then letters (distinct for distinct i). */
static void agent_name(sbuf *b, uint32_t i)
{
    sb_str(b, "bot-");
    do {
        sb_c(b, (char)('a' + i % 26));
        i /= 26;
    } while (i);
}

/* ---- a counting allocator (peak heap; optional failure of the k-th) ----- */

typedef struct counter {
    size_t live, peak, blocks;
    unsigned long calls, fail_at; /* fail_at 0: never */
} counter;

static void *count_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    counter *c = ud;
    if (nsize == 0) {
        if (ptr) {
            c->live -= osize;
            c->blocks--;
        }
        free(ptr);
        return NULL;
    }
    if (++c->calls == c->fail_at)
        return NULL;
    void *q = realloc(ptr, nsize);
    if (!q)
        return NULL;
    if (ptr)
        c->live -= osize;
    else
        c->blocks++;
    c->live += nsize;
    if (c->live > c->peak)
        c->peak = c->live;
    return q;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- one case ------------------------------------------------------------ */

typedef struct hcase {
    const char *name;
    sbuf body;
    int profile;
    const char *alphabet; /* long paths: "/" then this repeated (NULL: none) */
    int long_expect;      /* verdict of the long paths when known, else -1 */
    const char *long_agent;
    /* paths with a verdict known by construction */
    const char *known[8];
    int known_allowed[8];
    size_t n_known;
    const char *known_agent;
    size_t long_max;  /* longest long path (0: 100,000) */
    size_t max_rules; /* rules to derive paths from (0: default) */
    double ref_budget; /* reference work (0: default) */
    /* more long paths: prefix, then rep repeated, then suffix (to the
     * length); expect: the verdict when known by construction, else -1 */
    struct {
        const char *prefix, *rep, *suffix;
        int expect;
    } lp[4];
    size_t n_lp;
    int lp_ref_all;     /* compare them all with the reference (to 10,000 bytes in ctest, 1,000 with sanitizers) */
    int must_compile;   /* RSC_E_LIMIT is a failure too */
    uint32_t min_chain; /* the blob must have a chain of at least this many nodes */
    int probe;          /* paths checked against a verdict by construction */
    size_t chain_d, chain_step; /* PROBE_CHAIN: levels, bytes a level */
    int bin_depth;              /* PROBE_BINARY: word lengths 1..bin_depth */
    int spec;                   /* also compare every verdict with bs_match (blobspec.c) */
    int near;                   /* near-miss paths from every rule (near_miss()) */
    uint32_t min_labelled;      /* the blob must have at least this many states with a label */
    uint32_t min_programs;      /* the blob must have at least this many programs */
    /* a URL: url_prefix, then url_fill repeated url_fill_n times
     * (rsc_match_url against the reference, and url_expect when >= 0) */
    const char *url_prefix;
    char url_fill;
    size_t url_fill_n;
    int url_expect;
} hcase;

enum { PROBE_NONE, PROBE_CHAIN, PROBE_BINARY };

typedef struct row {
    char name[40];
    size_t bytes;
    const char *status;
    double ms;
    double peak_mib;
    size_t blob;
    rsc_blob_info info;
    unsigned ref_checks, lib_checks, probes;
    double nspb[3];
    double case_s; /* the whole case: compile, checks, long paths */
    uint32_t chain;   /* nodes on the deepest chain (blobspec.c) */
    double lp_ns[4][3]; /* the extra long paths: ns per byte */
    int lp_v[4][3], lp_ref[4][3]; /* their verdicts; compared with the reference */
    char lp_desc[4][40];
} row;

static row rows[160];
static size_t n_rows;

/* Reference work per case (position-set steps, about |path| x |pattern|
 * summed over the rules); paths past the budget are matched, not compared. */
static double ref_budget_left;

static const char *status_name(rsc_status st)
{
    switch (st) {
    case RSC_OK: return "OK";
    case RSC_E_LIMIT: return "LIMIT";
    case RSC_E_NOMEM: return "NOMEM";
    case RSC_E_ARG: return "ARG";
    default: return "OTHER";
    }
}

typedef struct ctx {
    const hcase *hc;
    rsc_program prog;
    ref_robots ref;
    double ref_unit; /* parsed pattern bytes + rules: cost of one ref path byte */
    row *r;
    const uint8_t *blob; /* with hc->spec: the blob and blobspec.c's reading */
    bs_blob bx;
} ctx;

/* Checks one path (against expect when >= 0, and against the reference
 * while the budget lasts). Returns the verdict; *refd: 1 when the
 * reference was asked. */
static int check_path_r(ctx *c, const rsc_bytes *ag, size_t n_ag, const char *path, size_t plen, int expect,
                        int *refd)
{
    rsc_selection sel;
    rsc_status st = rsc_select(&c->prog, ag, n_ag, &sel);
    CHECK(st == RSC_OK || st == RSC_E_LIMIT, "%s: select status %d", c->hc->name, st);
    if (refd)
        *refd = 0;
    if (st != RSC_OK)
        return -1;
    rsc_match m;
    int v = rsc_match_path(&sel, path, plen, &m);
    CHECK(v == 0 || v == 1, "%s: verdict %d", c->hc->name, v);
    c->r->lib_checks++;
    if (expect >= 0)
        CHECK(v == expect, "%s: path of %zu bytes '%.40s': got %d, want %d (by construction)", c->hc->name, plen,
              path, v, expect);
    if (c->hc->spec && c->blob) { /* FORMAT.md "Matching" as blobspec.c reads it */
        const char *an[4];
        size_t al[4];
        bs_verdict bv;
        for (size_t i = 0; i < n_ag && i < 4; i++)
            an[i] = ag[i].ptr, al[i] = ag[i].len;
        if (bs_match(c->blob, &c->bx, an, al, n_ag < 4 ? n_ag : 4, path, plen, &bv) == 0)
            CHECK(v == bv.allowed && m.line == bv.line,
                  "%s: path (%zu bytes) '%.60s': lib %d line %u, FORMAT.md (blobspec.c) %d line %u", c->hc->name,
                  plen, path, v, (unsigned)m.line, bv.allowed, bv.line);
    }
    double cost = c->ref_unit * (double)(plen + 1);
    if (cost > ref_budget_left)
        return v;
    ref_budget_left -= cost;
    if (refd)
        *refd = 1;
    ref_str rag[4];
    for (size_t i = 0; i < n_ag && i < 4; i++)
        rag[i] = (ref_str){ag[i].ptr, ag[i].len};
    ref_verdict r = ref_check_parsed(&c->ref, rag, n_ag, path, plen, 1);
    c->r->ref_checks++;
    CHECK(v == r.allowed && (r.line == 0 || (int)m.line == r.line),
          "%s: agent '%.*s' path (%zu bytes) '%.60s': lib %d line %u, ref %d line %d", c->hc->name,
          (int)ag[0].len, ag[0].ptr, plen, path, v, (unsigned)m.line, r.allowed, r.line);
    return v;
}

static void check_path(ctx *c, const rsc_bytes *ag, size_t n_ag, const char *path, size_t plen, int expect)
{
    (void)check_path_r(c, ag, n_ag, path, plen, expect, NULL);
}

/* Paths from an escaped pattern: '*' as "", "x", "/x"; a final '$'
 * dropped; also one byte shorter and one byte longer. */
static void derive(ctx *c, const rsc_bytes *ag, size_t n_ag, const rsc_str *pat)
{
    size_t cap = pat->len * 2 + 4;
    char *buf = malloc(cap);
    for (int variant = 0; variant < 3; variant++) {
        size_t n = 0;
        for (size_t i = 0; i < pat->len; i++) {
            char ch = pat->ptr[i];
            if (ch == '$' && i + 1 == pat->len)
                break;
            if (ch == '*') {
                if (variant >= 1)
                    buf[n++] = variant == 2 ? '/' : 'x';
                if (variant == 2)
                    buf[n++] = 'x';
                continue;
            }
            buf[n++] = ch;
        }
        if (n == 0 || buf[0] != '/')
            continue;
        check_path(c, ag, n_ag, buf, n, -1);
        if (n > 1)
            check_path(c, ag, n_ag, buf, n - 1, -1);
        buf[n] = 'z';
        check_path(c, ag, n_ag, buf, n + 1, -1);
    }
    free(buf);
}

/* Near misses of an escaped pattern, for automata with labels (FORMAT.md
 * "Labels"): the path it spells ('*' as nothing, a final '$' dropped) is
 * cut after each byte (paths ending inside a label), has each byte
 * changed (a label matched but one byte, the last one included), and has
 * each proper prefix of its wildcard tail put before the whole tail (a
 * miss inside a label, then the label again: the fall to the root must
 * read the byte that missed). Long patterns: every byte of the first and
 * last 24, a stride between. Each path is checked like check_path(). */
static void near_miss(ctx *c, const rsc_bytes *ag, const rsc_str *pat)
{
    size_t n = 0, lp = SIZE_MAX;
    char *q = malloc(pat->len + 1), *buf = malloc(2 * pat->len + 2);
    for (size_t i = 0; i < pat->len; i++) {
        if (pat->ptr[i] == '$' && i + 1 == pat->len)
            break;
        if (pat->ptr[i] == '*') {
            if (lp == SIZE_MAX)
                lp = n;
            continue;
        }
        q[n++] = pat->ptr[i];
    }
    size_t stride = n > 64 ? n / 32 : 1;
    for (size_t k = 1; k <= n; k++) {
        if (k > 24 && k + 24 < n && k % stride)
            continue;
        check_path(c, ag, 1, q, k, -1); /* cut after k bytes */
        memcpy(buf, q, n);
        buf[k - 1] = (char)(buf[k - 1] ^ 1); /* byte k-1 changed (not the leading '/') */
        if (k > 1)
            check_path(c, ag, 1, buf, n, -1);
        if (lp != SIZE_MAX && k > lp && k < n) { /* the tail's first k - lp bytes, then the whole tail */
            memcpy(buf, q, k);
            memcpy(buf + k, q + lp, n - lp);
            check_path(c, ag, 1, buf, k + n - lp, -1);
        }
    }
    free(q);
    free(buf);
}

/* A path whose verdict is known by construction (the library only). */
static void probe(ctx *c, const rsc_bytes *ag, const char *path, size_t n, int want)
{
    rsc_selection sel;
    rsc_match m;
    if (rsc_select(&c->prog, ag, 1, &sel) != RSC_OK) {
        CHECK(0, "%s: select", c->hc->name);
        return;
    }
    int v = rsc_match_path(&sel, path, n, &m);
    c->r->probes++;
    CHECK(v == want, "%s: path '%.40s' (%zu bytes): %d (line %u), by construction %d", c->hc->name, path, n, v,
          (unsigned)m.line, want);
}

static double match_time(ctx *c, const rsc_bytes *ag, const char *path, size_t n, int expect, int *verdict,
                         int *refd)
{
    rsc_selection sel;
    if (rsc_select(&c->prog, ag, 1, &sel) != RSC_OK)
        return 0;
    int v = check_path_r(c, ag, 1, path, n, expect, refd);
    if (verdict)
        *verdict = v;
    int reps = 0;
    volatile int sink = 0;
    double t0 = now(), t;
    do {
        sink += rsc_match_path(&sel, path, n, NULL);
        reps++;
        t = now() - t0;
    } while (t < 0.002 && reps < 1000);
    (void)sink;
    return t * 1e9 / ((double)reps * (double)n);
}

static double case_start;

static void run_case(hcase *hc)
{
    row *r = &rows[n_rows++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", hc->name);
    r->bytes = hc->body.n;
    counter cnt = {0};
    rsc_compile_options o = {0};
    o.profile = hc->profile ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
    o.alloc = count_alloc;
    o.alloc_ud = &cnt;
    rsc_blob b = {NULL, 0};
    double t0 = now();
    case_start = t0;
    rsc_status st = rsc_compile(hc->body.p, hc->body.n, &o, &b);
    r->ms = (now() - t0) * 1e3;
    r->status = status_name(st);
    r->peak_mib = (double)cnt.peak / (1024.0 * 1024.0);
    CHECK(st == RSC_OK || st == RSC_E_LIMIT, "%s: compile status %d (%s)", hc->name, st, rsc_strerror(st));
    if (st == RSC_E_LIMIT)
        printf("%s: compile: %s\n", hc->name, rsc_strerror(st));
    if (hc->must_compile)
        CHECK(st == RSC_OK, "%s: must compile (FORMAT.md \"Depth\": no parsed file reaches the limits): %s",
              hc->name, rsc_strerror(st));
    if (st != RSC_OK) {
        CHECK(cnt.live == 0 && cnt.blocks == 0, "%s: %zu bytes leaked on failure", hc->name, cnt.live);
        r->case_s = now() - case_start;
        return;
    }
    r->blob = b.size;
    ctx c;
    memset(&c, 0, sizeof c);
    c.hc = hc;
    c.r = r;
    rsc_load_error e = {0, NULL};
    st = rsc_load(&c.prog, b.data, b.size, &e);
    CHECK(st == RSC_OK, "%s: load %d at %zu (%s)", hc->name, st, e.offset, e.what ? e.what : "");
    if (st != RSC_OK) {
        rsc_blob_free(&b, &o);
        return;
    }
    CHECK(rsc_blob_info_get(&c.prog, &r->info) == RSC_OK, "%s: info", hc->name);
    {
        bs_blob bx;
        CHECK(bs_verify(b.data, b.size, &bx, 0) == 0, "%s: FORMAT.md verification: %s at %zu", hc->name, bx.what,
              bx.fail_off);
        r->chain = bx.max_chain;
        CHECK(r->info.total_nodes == bx.nodes && r->info.n_globs == bx.globs && r->info.max_nodes == bx.max_prog_nodes,
              "%s: rsc_blob_info nodes %u globs %u max %u; FORMAT.md reading %u %u %u", hc->name,
              r->info.total_nodes, r->info.n_globs, r->info.max_nodes, bx.nodes, bx.globs, bx.max_prog_nodes);
        CHECK(r->chain >= hc->min_chain, "%s: deepest chain %u nodes, the file makes at least %u", hc->name,
              r->chain, hc->min_chain);
        CHECK(bx.progs.count >= hc->min_programs, "%s: %u programs, want at least %u (a split rule set)",
              hc->name, bx.progs.count, hc->min_programs);
        if (hc->spec && bx.status == 0) {
            c.blob = b.data;
            c.bx = bx;
        }
        CHECK(bx.lab_states >= hc->min_labelled, "%s: %u states with a label, want at least %u", hc->name,
              bx.lab_states, hc->min_labelled);
        printf("%s: %u programs (%u in chain form, %u with labels), %u root slots, %u states (%u with a label), "
               "%u edges\n", hc->name, bx.progs.count, bx.chains, bx.labelled, bx.slots, bx.states, bx.lab_states,
               bx.globs);
    }

    /* Agents and patterns of the file, as the front end sees them. */
    rsc_parse_options po = {0};
    po.profile = o.profile;
    rsc_ir *ir = NULL;
    CHECK(rsc_parse(hc->body.p, hc->body.n, &po, &ir) == RSC_OK, "%s: parse", hc->name);
    CHECK(ref_parse(&c.ref, hc->body.p, hc->body.n, hc->profile) == 0, "%s: ref_parse", hc->name);
    double pat_bytes = 0;
    for (size_t i = 0; i < c.ref.n_lines; i++)
        pat_bytes += (double)c.ref.lines[i].value_len + 1;
    c.ref_unit = pat_bytes * (hc->profile ? 3 : 1) + 1;
    double dflt = full ? 2.5e9 : 1.5e8;
    ref_budget_left = hc->ref_budget > dflt ? hc->ref_budget : dflt;

    rsc_bytes agents[10];
    size_t na = 0;
    agents[na++] = (rsc_bytes){"unnamedbot", 10};
    agents[na++] = (rsc_bytes){"", 0};
    size_t step = ir->n_agents / 6 + 1;
    for (size_t i = 0; i < ir->n_agents && na < 10; i += step)
        if (!ir->agents[i].global)
            agents[na++] = (rsc_bytes){ir->agents[i].token.ptr, ir->agents[i].token.len};
    size_t max_rules = hc->max_rules ? hc->max_rules : SAN ? 12 : 40;
    size_t rstep = ir->n_rules / max_rules + 1;
    for (size_t a = 0; a < na; a++) {
        rsc_bytes two[2] = {agents[a], agents[(a + 1) % na]};
        for (size_t k = 1; k <= 2; k++) {
            check_path(&c, two, k, "/", 1, -1);
            for (size_t i = (a * 7) % rstep; i < ir->n_rules; i += rstep)
                derive(&c, two, k, &ir->rules[i].pattern);
        }
    }
    rsc_bytes kag = {hc->known_agent ? hc->known_agent : "unnamedbot", 0};
    kag.len = strlen(kag.ptr);
    if (hc->near)
        for (size_t i = 0; i < ir->n_rules; i++)
            near_miss(&c, &kag, &ir->rules[i].pattern);
    for (size_t i = 0; i < hc->n_known; i++)
        check_path(&c, &kag, 1, hc->known[i], strlen(hc->known[i]), hc->known_allowed[i]);
    if (hc->probe == PROBE_CHAIN) { /* every /a^m: the rule of level min(m / step, d) decides */
        size_t maxm = (hc->chain_d + 2) * hc->chain_step + 2;
        char *p = malloc(maxm + 1);
        p[0] = '/';
        memset(p + 1, 'a', maxm);
        for (size_t m = 0; m < maxm; m++) {
            size_t lvl = m / hc->chain_step < hc->chain_d ? m / hc->chain_step : hc->chain_d;
            probe(&c, &kag, p, m + 1, lvl == 0 ? 1 : (int)(lvl % 2));
        }
        free(p);
    } else if (hc->probe == PROBE_BINARY) { /* "/" + w: the prefix of w of length min(|w|, depth) */
        char p[64];
        rng_seed(4242);
        for (int i = 0; i < 3000; i++) {
            size_t len = rn((uint32_t)hc->bin_depth + 4), bs = 0;
            p[0] = '/';
            for (size_t k = 0; k < len; k++) {
                p[k + 1] = rn(2) ? 'b' : 'a';
                bs += p[k + 1] == 'b' && k < (size_t)hc->bin_depth;
            }
            probe(&c, &kag, p, len + 1, len == 0 ? 1 : (int)(bs % 2));
        }
    }

    /* Long paths: linear matching (ns/byte printed, not asserted). */
    if (hc->alphabet) {
        rsc_bytes lag = {hc->long_agent ? hc->long_agent : "unnamedbot", 0};
        lag.len = strlen(lag.ptr);
        size_t lens[3] = {1000, 10000, 100000};
        size_t al = strlen(hc->alphabet);
        char *p = malloc(lens[2]);
        p[0] = '/';
        for (size_t i = 1; i < lens[2]; i++)
            p[i] = hc->alphabet[(i - 1) % al];
        for (int k = 0; k < 3; k++)
            if (!hc->long_max || lens[k] <= hc->long_max)
                r->nspb[k] = match_time(&c, &lag, p, lens[k], hc->long_expect, NULL, NULL);
        free(p);
    }
    for (size_t j = 0; j < hc->n_lp; j++) {
        rsc_bytes lag = {hc->long_agent ? hc->long_agent : "unnamedbot", 0};
        lag.len = strlen(lag.ptr);
        size_t lens[3] = {1000, 10000, 100000};
        const char *pre = hc->lp[j].prefix, *rp = hc->lp[j].rep, *suf = hc->lp[j].suffix;
        size_t pl = strlen(pre), rl = strlen(rp), sl = strlen(suf);
        snprintf(r->lp_desc[j], sizeof r->lp_desc[j], "%s (%s)... %s", pre, rp, suf);
        r->lp_v[j][0] = r->lp_v[j][1] = r->lp_v[j][2] = -1;
        char *p = malloc(lens[2]);
        for (int k = 0; k < 3; k++) {
            if (hc->long_max && lens[k] > hc->long_max)
                continue;
            memcpy(p, pre, pl);
            for (size_t i = pl; i < lens[k] - sl; i++)
                p[i] = rp[(i - pl) % rl];
            memcpy(p + lens[k] - sl, suf, sl);
            double need = c.ref_unit * (double)(lens[k] + 1);
            if (hc->lp_ref_all && lens[k] <= (full ? 100000u : SAN ? 1000u : 10000u) && need > ref_budget_left)
                ref_budget_left = need;
            r->lp_ns[j][k] = match_time(&c, &lag, p, lens[k], hc->lp[j].expect, &r->lp_v[j][k], &r->lp_ref[j][k]);
        }
        free(p);
    }
    if (hc->url_prefix) { /* a URL: rsc_match_url against the reference */
        size_t ul = strlen(hc->url_prefix), n = ul + hc->url_fill_n;
        char *u = malloc(n + 1);
        memcpy(u, hc->url_prefix, ul);
        memset(u + ul, hc->url_fill, hc->url_fill_n);
        rsc_bytes ag = {"unnamedbot", 10};
        rsc_selection sel;
        rsc_match m;
        if (rsc_select(&c.prog, &ag, 1, &sel) == RSC_OK) {
            double t1 = now();
            int v = rsc_match_url(&sel, u, n, &m);
            double dt = now() - t1;
            ref_str rag = {"unnamedbot", 10};
            ref_verdict rv = ref_check_parsed(&c.ref, &rag, 1, u, n, 0);
            CHECK(v == rv.allowed && (int)m.line == rv.line, "%s: URL of %zu bytes: lib %d line %u, ref %d line %d",
                  hc->name, n, v, (unsigned)m.line, rv.allowed, rv.line);
            if (hc->url_expect >= 0)
                CHECK(v == hc->url_expect, "%s: URL of %zu bytes: %d, want %d (by construction)", hc->name, n, v,
                      hc->url_expect);
            printf("%s: URL of %zu bytes: verdict %d (line %u), %.1f ns/B\n", hc->name, n, v, (unsigned)m.line,
                   dt * 1e9 / (double)n);
        }
        free(u);
    }
    if (c.blob)
        bs_free(&c.bx);
    ref_free(&c.ref);
    rsc_ir_free(ir);
    rsc_blob_free(&b, &o);
    r->case_s = now() - case_start;
    CHECK(cnt.live == 0 && cnt.blocks == 0, "%s: %zu bytes in %zu blocks not freed", hc->name, cnt.live, cnt.blocks);
}

/* ---- generators -------------------------------------------------------- */

static const char WORDCH[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";

static void word(sbuf *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sb_c(b, WORDCH[rn(26)]);
}

/* (a) dense: as many short wildcard rules ("allow:*xyz", every 4th
 * "disallow:*xyz") as fit in the 512,000 parsed bytes, one group (11.75
 * bytes a rule: 50,000 do not fit; see the next case). */
static void gen_wild_dense(hcase *hc, size_t n)
{
    rng_seed(101);
    sbuf *b = &hc->body;
    sb_str(b, "user-agent:*\n");
    for (size_t i = 0; i < n && b->n + 14 <= RSC_MAX_BODY; i++) {
        if (i % 4 == 3)
            sb_str(b, "dis");
        sb_str(b, "allow:*");
        for (int k = 0; k < 3; k++)
            sb_c(b, WORDCH[rn(64)]);
        sb_c(b, '\n');
    }
    hc->alphabet = "abcXYZ09_-";
    hc->long_expect = -1;
}

/* (a) 50,000 wildcard rules as written in real files (1 MB: the parsed
 * first 512,000 bytes hold about half of them). */
static void gen_wild_real(hcase *hc, size_t n, size_t at_most_bytes)
{
    rng_seed(102);
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\n");
    for (size_t i = 0; i < n && b->n < at_most_bytes; i++) {
        sb_str(b, rn(4) ? "Disallow: " : "Allow: ");
        switch (rn(5)) {
        case 0: sb_add(b, "/*", 2), word(b, 3 + rn(6)); break;
        case 1: sb_c(b, '/'), word(b, 1 + rn(4)), sb_c(b, '*'), word(b, 2 + rn(5)); break;
        case 2: sb_add(b, "/*", 2), word(b, 2 + rn(4)), sb_c(b, '$'); break;
        case 3: sb_c(b, '/'), word(b, 2), sb_add(b, "/*/", 3), word(b, 2 + rn(3)), sb_c(b, '*'), word(b, 1); break;
        default: sb_add(b, "/*.", 3), word(b, 2 + rn(2)), sb_c(b, '$'); break;
        }
        sb_c(b, '\n');
    }
    hc->alphabet = "abcdefgh/.xyz";
    hc->long_expect = -1;
}

/* (b) star patterns (a slash, then *a*b*c*...): nvar variants in one group; letters from an alphabet of
 * `letters`, `stars` segments of 1..seglen letters, some '$'-anchored. */
static void gen_stars(hcase *hc, uint64_t seed, size_t nvar, int letters, int stars_min, int stars_max, int seglen,
                      int dollars)
{
    rng_seed(seed);
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\n");
    for (size_t i = 0; i < nvar; i++) {
        sb_str(b, i % 2 ? "Disallow: /" : "Allow: /");
        int stars = stars_min + (int)rn((uint32_t)(stars_max - stars_min + 1));
        for (int s = 0; s < stars; s++) {
            sb_c(b, '*');
            int l = 1 + (int)rn((uint32_t)seglen);
            for (int k = 0; k < l; k++)
                sb_c(b, (char)('a' + rn((uint32_t)letters)));
        }
        if (dollars && rn(3) == 0)
            sb_c(b, '$');
        else if (rn(2))
            sb_c(b, '*');
        sb_c(b, '\n');
    }
}

/* (b) KMP-hostile: self-overlapping words over {a,b} between stars. */
static void gen_kmp(hcase *hc, size_t nvar)
{
    rng_seed(203);
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\n");
    for (size_t i = 0; i < nvar; i++) {
        sb_str(b, i % 2 ? "Disallow: /*" : "Allow: /*");
        int segs = 2 + (int)rn(6);
        for (int s = 0; s < segs; s++) {
            if (s)
                sb_c(b, '*');
            sb_rep(b, 'a', 1 + rn(12));
            sb_c(b, 'b');
            sb_rep(b, 'a', rn(3));
        }
        if (rn(2))
            sb_c(b, '$');
        sb_c(b, '\n');
    }
    hc->alphabet = "aaaaaaaaaaaab";
    hc->long_expect = -1;
}

/* (c) n agents in one group. */
static void gen_agents_one(hcase *hc, size_t n)
{
    rng_seed(301);
    sbuf *b = &hc->body;
    for (uint32_t i = 0; i < n; i++) {
        sb_str(b, "User-agent: ");
        agent_name(b, i);
        sb_str(b, i % 5 ? "\n" : "/2.1 (compatible)\n");
    }
    for (int i = 0; i < 50; i++) {
        sb_str(b, i % 3 ? "Disallow: /*" : "Allow: /");
        word(b, 2 + rn(5));
        sb_c(b, '\n');
    }
    sb_str(b, "User-agent: *\nDisallow: /\n");
    hc->alphabet = "abcdefghij";
    hc->long_agent = "bot-a";
    hc->long_expect = -1;
}

/* (c) n groups each naming one distinct agent, plus a shared '*' group. */
static void gen_agents_groups(hcase *hc, size_t n)
{
    rng_seed(302);
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\nDisallow: /private\nAllow: /*.css$\nDisallow: /*?\n\n");
    for (uint32_t i = 0; i < n; i++) {
        sb_str(b, "User-agent: ");
        agent_name(b, i);
        sb_c(b, '\n');
        for (int k = 0; k < 3; k++) {
            sb_str(b, rn(3) ? "Disallow: /" : "Allow: /");
            if (rn(2))
                sb_c(b, '*');
            word(b, 2 + rn(4));
            sb_c(b, '\n');
        }
    }
    hc->alphabet = "abcdefgh?";
    hc->long_agent = "bot-b";
    hc->long_expect = -1;
}

/* (c) the nasty one: every agent in one big shared group (big rules, many
 * wildcards) and in a small group of its own whose rules come mostly from
 * a shared pool of patterns (distinct rule sets sharing most patterns). */
static void gen_agents_shared(hcase *hc, size_t n, size_t big_rules)
{
    rng_seed(303);
    sbuf *b = &hc->body;
    sbuf pool[60];
    memset(pool, 0, sizeof pool);
    for (int i = 0; i < 60; i++) {
        sb_c(&pool[i], '/');
        if (i % 2)
            sb_c(&pool[i], '*');
        word(&pool[i], 2 + rn(4));
        if (i % 3 == 0)
            sb_c(&pool[i], '*'), word(&pool[i], 2);
    }
    for (uint32_t i = 0; i < n; i++) {
        sb_str(b, "User-agent: ");
        agent_name(b, i);
        sb_c(b, '\n');
    }
    for (size_t i = 0; i < big_rules; i++) {
        sb_str(b, i % 4 ? "Disallow: /*" : "Allow: /*");
        word(b, 2 + rn(3));
        sb_c(b, '*');
        word(b, 1 + rn(3));
        sb_c(b, '\n');
    }
    for (uint32_t i = 0; i < n; i++) {
        sb_str(b, "\nUser-agent: ");
        agent_name(b, i);
        sb_c(b, '\n');
        for (int k = 0; k < 5; k++) {
            sb_str(b, rn(2) ? "Disallow: " : "Allow: ");
            sbuf *p = &pool[rn(60)];
            sb_add(b, p->p, p->n);
            sb_c(b, '\n');
        }
        sb_str(b, "Disallow: /own-");
        agent_name(b, i);
        sb_c(b, '\n');
    }
    sb_str(b, "\nUser-agent: *\nDisallow: /global\n");
    for (int i = 0; i < 60; i++)
        sb_free(&pool[i]);
    hc->alphabet = "abcdefghijklmnopqrstuvwxyz";
    hc->long_agent = "bot-c";
    hc->long_expect = -1;
}

/* (d) one rule line of exactly `total` bytes (line end excluded): the key,
 * then a pattern filled with `fill`, with `tail` put so that it ends at
 * byte `tail_end` of the line (1-based), straddling the 16,663-byte cut. */
static void gen_cut(hcase *hc, size_t total, const char *lead, char fill, const char *tail, size_t tail_end,
                    const char *after)
{
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\n");
    size_t start = b->n;
    sb_str(b, "Disallow: ");
    sb_add(b, lead, strlen(lead));
    size_t tl = strlen(tail);
    size_t fill_n = tail_end - tl - (b->n - start);
    sb_rep(b, fill, fill_n);
    sb_add(b, tail, tl);
    if (b->n - start < total)
        sb_rep(b, fill, total - (b->n - start));
    b->n = start + total; /* tail may overshoot a shorter total */
    sb_str(b, "\n");
    sb_add(b, after, strlen(after));
    hc->alphabet = NULL;
    hc->ref_budget = 3.5e8; /* a path of 16 KiB against the reference */
}

/* (e) one enormous rule: a 500 KiB line (cut at 16,663 bytes). */
static void gen_huge_rule(hcase *hc, size_t bytes, int stars)
{
    rng_seed(501);
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\nDisallow: /");
    while (b->n < bytes) {
        if (stars && rn(8) == 0)
            sb_c(b, '*');
        else
            sb_c(b, (char)('a' + rn(stars ? 3 : 26)));
    }
    sb_c(b, '\n');
    hc->alphabet = stars ? "abcabcaabbcc" : "abcdefghijklmnopqrstuvwxyz";
    hc->long_expect = -1;
}

/* (e) just over 512,000 bytes: rules up to the cut, a rule straddling it,
 * and rules past it that must be ignored. */
static void gen_over_cut(hcase *hc)
{
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\n");
    uint32_t i = 0;
    while (b->n < 512000 - 40)
        sb_printf(b, "Disallow: /fill%u\n", i++);
    /* "Disallow: /straddle-...": the cut keeps "/straddle-" and some x's. */
    sb_str(b, "Disallow: /straddle-");
    sb_rep(b, 'x', 512000 - b->n + 5);
    sb_str(b, "LOST\n");
    sb_str(b, "Disallow: /tail\nUser-agent: tailbot\nDisallow: /\n");
    hc->known[0] = "/tail", hc->known_allowed[0] = 1;
    /* the cut keeps "/straddle-" and at least 8 x's (below) */
    hc->known[1] = "/straddle-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", hc->known_allowed[1] = 0;
    hc->known[2] = "/fill0", hc->known_allowed[2] = 0;
    hc->known[3] = "/", hc->known_allowed[3] = 1;
    hc->n_known = 4;
}

/* (f) nested and repeated '%' sequences, non-ASCII bytes, in agents and
 * patterns. */
static void gen_percent(hcase *hc, uint64_t seed, size_t lines)
{
    static const char *const atoms[] = {"%", "%%", "%%%%41", "%25", "%2525", "%252525", "%41", "%4",
                                        "%g1", "%e2%82%ac", "%E2%82%AC", "%c3%a9", "%7e", "%7E", "%2f",
                                        "%2F", "%2A", "*", "$", "a", "~", "%00", "%ff", "%FF"};
    rng_seed(seed);
    sbuf *b = &hc->body;
    for (size_t i = 0; i < lines; i++) {
        switch (rn(8)) {
        case 0:
            sb_str(b, "User-agent: ");
            sb_add(b, "b\xc3\xb6t%41", 8 - rn(4)); /* 8: with a NUL (spec A.5) */
            sb_c(b, '\n');
            break;
        case 1:
            sb_str(b, "User-agent: *\n");
            break;
        default:
            sb_str(b, rn(2) ? "Disallow: /" : "Allow: /");
            for (int k = 1 + (int)rn(8); k > 0; k--) {
                if (rn(4) == 0) {
                    sb_c(b, (char)(0x80 + rn(128)));
                } else if (rn(6) == 0) {
                    sb_rep(b, '%', 1 + rn(40)), sb_str(b, "41");
                } else if (rn(8) == 0) {
                    sb_c(b, '%');
                    for (int d = (int)rn(30); d > 0; d--)
                        sb_str(b, "25");
                    sb_str(b, "41");
                } else {
                    const char *a = atoms[rn(sizeof atoms / sizeof atoms[0])];
                    sb_add(b, a, strlen(a));
                }
            }
            sb_c(b, '\n');
        }
    }
    hc->alphabet = "%25%41\xc3\xa9%%";
    hc->long_expect = -1;
}

/* Reference work for the (h) cases: their patterns fill 500 KiB, so that
 * one reference check of a path of m bytes costs about 500,000 m steps. */
#ifndef H_BUDGET
#define H_BUDGET (full ? 2e10 : SAN ? 3e8 : 6e9)
#endif

/* (h) nested literal prefixes: "/" + a^(k * step) for k = 1, 2, ... as long
 * as the lines fit in the 512,000 parsed bytes (written without spaces, to
 * fit more): a chain of one trie node per rule, the deepest trie a parsed
 * file can make (FORMAT.md "Depth": d nodes need about d^2/2 pattern
 * bytes). Level k is an allow when k is odd. mixed: also "/a^(k*step)$"
 * (the other verdict) at every 3rd level and "/a^(k*step)*b" (a disallow)
 * at every 4th, so that End ranks and glob lists sit all along the chain
 * (more glob lists on one walk than the matcher keeps pending). */
static void gen_chain(hcase *hc, size_t step, int mixed)
{
    sbuf *b = &hc->body;
    sb_str(b, "user-agent:*\n");
    size_t d = 0;
    for (size_t k = 1;; k++) {
        size_t len = k * step, need = 11 + len + (mixed && k % 3 == 0 ? 12 + len : 0) +
                                      (mixed && k % 4 == 0 ? 13 + len : 0);
        if (b->n + need > RSC_MAX_BODY)
            break;
        sb_str(b, k % 2 ? "allow:/" : "disallow:/");
        sb_rep(b, 'a', len);
        sb_c(b, '\n');
        if (mixed && k % 3 == 0) {
            sb_str(b, k % 2 ? "disallow:/" : "allow:/");
            sb_rep(b, 'a', len);
            sb_str(b, "$\n");
        }
        if (mixed && k % 4 == 0) {
            sb_str(b, "disallow:/");
            sb_rep(b, 'a', len);
            sb_str(b, "*b\n");
        }
        d = k;
    }
    hc->chain_d = d, hc->chain_step = step;
    hc->probe = mixed ? PROBE_NONE : PROBE_CHAIN;
    hc->min_chain = (uint32_t)d + 1; /* the root, then a node a level */
    hc->must_compile = 1;
    hc->ref_budget = H_BUDGET;
    hc->alphabet = mixed ? "aaaaaaaaaaaaaaaaab" : "a";
    hc->long_expect = mixed ? -1 : (int)(d % 2);
}

/* (h) a comb: the chain "/a^k" with a side branch "/a^(k-1)b" (and every
 * 5th level "/a^(k-1)c*d$") at every level. */
static void gen_comb(hcase *hc)
{
    sbuf *b = &hc->body;
    sb_str(b, "user-agent:*\n");
    size_t d = 0;
    for (size_t k = 1;; k++) {
        if (b->n + 2 * (k + 12) + (k % 5 == 0 ? k + 16 : 0) > RSC_MAX_BODY)
            break;
        sb_str(b, k % 2 ? "allow:/" : "disallow:/");
        sb_rep(b, 'a', k);
        sb_str(b, k % 3 ? "\ndisallow:/" : "\nallow:/");
        sb_rep(b, 'a', k - 1);
        sb_str(b, "b\n");
        if (k % 5 == 0) {
            sb_str(b, "disallow:/");
            sb_rep(b, 'a', k - 1);
            sb_str(b, "c*d$\n");
        }
        d = k;
    }
    hc->min_chain = (uint32_t)d + 1;
    hc->must_compile = 1;
    hc->ref_budget = H_BUDGET;
    hc->alphabet = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab";
    hc->long_expect = -1;
}

/* (h) a complete binary trie: every word w over {a,b} of length 1..L as a
 * rule "/w" (allow when w has an odd number of b's), L as large as fits
 * with whole levels. */
static void gen_bintrie(hcase *hc)
{
    sbuf *b = &hc->body;
    sb_str(b, "user-agent:*\n");
    int L = 0;
    for (int len = 1; len < 30; len++) {
        if (b->n + ((size_t)1 << len) * (size_t)(len + 11) > RSC_MAX_BODY)
            break;
        for (uint32_t w = 0; w < 1u << len; w++) {
            int ones = 0;
            for (uint32_t v = w; v; v &= v - 1)
                ones++;
            sb_str(b, ones % 2 ? "allow:/" : "disallow:/");
            for (int i = len - 1; i >= 0; i--)
                sb_c(b, (w >> i) & 1 ? 'b' : 'a');
            sb_c(b, '\n');
        }
        L = len;
    }
    hc->bin_depth = L;
    hc->probe = PROBE_BINARY;
    hc->min_chain = (uint32_t)L + 2; /* the root, "/", then a node a level */
    hc->must_compile = 1;
    hc->ref_budget = H_BUDGET;
    hc->alphabet = "ab";
    hc->long_expect = -1;
}

/* (i) n rules "Disallow: /\*x<N>" (every 50th "Allow: /\*y<N>"): all tails
 * hang on the node "/", one glob list of n entries. */
static void gen_shared_x(hcase *hc, size_t n)
{
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\n");
    size_t i;
    for (i = 0; i < n && b->n + 24 <= RSC_MAX_BODY; i++)
        sb_printf(b, i % 50 == 49 ? "Allow: /*y%zu\n" : "Disallow: /*x%zu\n", i);
    hc->lp[0].prefix = "/", hc->lp[0].rep = "a", hc->lp[0].suffix = "", hc->lp[0].expect = 1;
    hc->lp[1].prefix = "/", hc->lp[1].rep = "x", hc->lp[1].suffix = "", hc->lp[1].expect = 1;
    hc->lp[2].prefix = "/", hc->lp[2].rep = "x", hc->lp[2].suffix = "y49", hc->lp[2].expect = 1;
    hc->lp[3].prefix = "/", hc->lp[3].rep = "ax", hc->lp[3].suffix = "x1", hc->lp[3].expect = 0;
    hc->n_lp = 4;
}

/* (i) n rules "Disallow: /p/\*a*b*c<N>" (anchored: with a final '$'),
 * every 40th "Allow: /p/\*a*b*cc<N>": one glob list of n entries at the
 * node "/p/", each tail of three segments. */
static void gen_shared_abc(hcase *hc, size_t n, int anchored)
{
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\n");
    for (size_t i = 0; i < n && b->n + 32 <= RSC_MAX_BODY; i++)
        sb_printf(b, i % 40 == 39 ? "Allow: /p/*a*b*cc%zu%s\n" : "Disallow: /p/*a*b*c%zu%s\n", i,
                  anchored ? "$" : "");
    hc->lp[0].prefix = "/p/", hc->lp[0].rep = "a", hc->lp[0].suffix = "", hc->lp[0].expect = 1;
    hc->lp[1].prefix = "/p/", hc->lp[1].rep = "abc", hc->lp[1].suffix = "", hc->lp[1].expect = 1;
    hc->lp[2].prefix = "/p/", hc->lp[2].rep = "ab", hc->lp[2].suffix = "c7", hc->lp[2].expect = 0;
    hc->lp[3].prefix = "/p/", hc->lp[3].rep = "ac", hc->lp[3].suffix = "bc1", hc->lp[3].expect = 0;
    hc->n_lp = 4;
}

/* (g) random binary, and random lines of robots.txt tokens. */
static void gen_binary(hcase *hc, uint64_t seed, size_t bytes, int tokens)
{
    static const char *const toks[] = {"user-agent:", "User-Agent: *", "disallow:", "Allow:", "sitemap:", "*", "$",
                                       "/", "%", "#", "\n", "\r", "\r\n", " ", "\t", ":", "a", "b", "\xEF\xBB\xBF",
                                       "crawl-delay: 5", "useragent", "dissallow /x"};
    rng_seed(seed);
    sbuf *b = &hc->body;
    sb_need(b, bytes);
    while (b->n < bytes) {
        if (tokens) {
            const char *t = toks[rn(sizeof toks / sizeof toks[0])];
            sb_add(b, t, strlen(t));
            if (rn(16) == 0)
                sb_c(b, (char)rnd());
        } else {
            sb_c(b, (char)rnd());
        }
    }
    hc->alphabet = tokens ? "ab/*" : NULL;
    hc->long_expect = -1;
}

/* (j) format 3: n rules "Disallow: /\*" + 24 random letters a/b. */
static void gen_ab24(hcase *hc, size_t n)
{
    rng_seed(701);
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\n");
    for (size_t i = 0; i < n; i++) {
        sb_str(b, "Disallow: /*");
        for (int k = 0; k < 24; k++)
            sb_c(b, rn(2) ? 'b' : 'a');
        sb_c(b, '\n');
    }
}

/* (j) n rules "Disallow: /\*qNNNNN" and one "Allow: /k{200}". */
static void gen_q5(hcase *hc, size_t n)
{
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\n");
    for (size_t i = 0; i < n; i++)
        sb_printf(b, "Disallow: /*q%05zu\n", i);
    sb_str(b, "Allow: /");
    sb_rep(b, 'k', 200);
    sb_c(b, '\n');
}

/* (j) one rule of nseg segments "sN" (over the budgets on its own: a
 * chain program), and a short one beside it. */
static void gen_segments(hcase *hc, size_t nseg)
{
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\nAllow: /x*s7\nDisallow: /x");
    for (size_t i = 0; i < nseg; i++)
        sb_printf(b, "*s%zu", i % 150);
    sb_str(b, "\n");
}

/* (j) nested suffix segments: /\*a*aa*aaa*... (n segments), and each
 * segment as a rule of its own ("/\*a{k}b", sharing the suffix chains). */
static void gen_nested(hcase *hc, size_t n)
{
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\nDisallow: /");
    for (size_t i = 1; i <= n; i++)
        sb_c(b, '*'), sb_rep(b, 'a', i);
    sb_str(b, "$\n");
    for (size_t i = 1; i <= n; i++) {
        sb_str(b, i % 2 ? "Allow: /*" : "Disallow: /*");
        sb_rep(b, 'a', i);
        sb_str(b, "b\n");
    }
}

/* (j) n nested literal prefixes /p, /pp, ... each with a wildcard rule:
 * n root slots on one trie chain. */
static void gen_levels(hcase *hc, size_t n)
{
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\n");
    for (size_t i = 1; i <= n; i++) {
        sb_str(b, i % 3 ? "Disallow: /" : "Allow: /");
        sb_rep(b, 'p', i);
        sb_printf(b, "*x%zu\n", i % 7);
    }
}

/* (k) format 3.1, automata with labels: segments with long straight runs
 * (no suffix of a run's bytes starts another segment), near misses of one
 * byte between them, runs that share a long prefix and part near the end,
 * a label ending at a '$', a label ending a literal prefix's slot.
 * fixed: the rules whose verdicts near[] below knows; then n random rules
 * over stems of stem_len bytes, each starting with a byte no stem holds
 * elsewhere ('Z', 'Q', 'J' or '~'), so that the stems' states are
 * implicit; pct: stems with %XX escapes (rfc: normalised on both sides). */
static void gen_labels(hcase *hc, uint64_t seed, size_t n, size_t stem_len, int pct)
{
    static const char *const fixed[] = {
        "Disallow: /*abcdefghijklmnopqrstuvwxyz$", "Allow: /*abcdefghijklmnopqrstuvwxy0",
        "Disallow: /*abcdefghijklmnopqrstuvwxy-", "Allow: /doc/*.backup-of-the-file$",
        "Disallow: /doc/*.backup-of-the-file.old", "Disallow: /*longlabel-one*longlabel-two$",
        "Allow: /*xyzxyzxyzxyzq", "Disallow: /*aaaaaaaaaaaaaaab", "Disallow: /p/*%c3%a9t%C3%A9-long-%2f-label",
        "Allow: /p/*%41bcdefghij-%7Eklmnop"};
    /* no stem byte but its first starts a segment (the fixed ones start
     * with a . l x %), so that a stem is a straight run; near misses of a
     * stem end in one of three bytes (few branches: Labels make STATES
     * smaller, and the encoder writes them) */
    static const char LEAD[] = "ZQJ~", BODY[] = "bcdefghijkmnopqrstuvwyz0123456789-_/", MISS[] = "0-/";
    static const char *const PCT[] = {"%2f", "%c3%a9", "%41", "%7e", "%2F", "%20"};
    rng_seed(seed);
    sbuf *b = &hc->body;
    sb_str(b, "User-agent: *\n");
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        sb_str(b, fixed[i]), sb_c(b, '\n');
    /* 6 stems; a rule: a literal prefix, then 1-3 segments, each a stem
     * cut or changed near its end, or a stem with a short word after it */
    sbuf stems[6];
    memset(stems, 0, sizeof stems);
    for (int k = 0; k < 6; k++) {
        sb_c(&stems[k], LEAD[k % 4]);
        for (size_t j = 1; j < stem_len; j++) {
            if (pct && rn(12) == 0)
                sb_str(&stems[k], PCT[rn(6)]);
            else
                sb_c(&stems[k], BODY[rn(sizeof BODY - 1)]);
        }
    }
    static const char *const pre[] = {"/", "/", "/d/", "/doc/", "/p/"};
    for (size_t i = 0; i < n; i++) {
        sb_str(b, i % 3 ? "Disallow: " : "Allow: ");
        sb_str(b, pre[rn(5)]);
        int segs = 1 + (int)rn(3);
        for (int s = 0; s < segs; s++) {
            const sbuf *st = &stems[rn(6)];
            size_t len = st->n - rn(4) * (st->n > 8); /* all of it, or cut 1-3 bytes short */
            sb_c(b, '*');
            sb_add(b, st->p, len);
            if (rn(3) == 0)
                sb_c(b, MISS[rn(3)]); /* a near miss of another rule's stem */
        }
        if (rn(3) == 0)
            sb_c(b, '$');
        sb_c(b, '\n');
    }
    for (int k = 0; k < 6; k++)
        sb_free(&stems[k]);
    hc->spec = 1;
    hc->near = 1;
    hc->must_compile = 1;
}

static const char *only, *dump_dir;

/* --dump DIR: the generated file, for reproducing a case with the CLI. */
static void dump_body(const char *name, const sbuf *b)
{
    if (!dump_dir)
        return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.txt", dump_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f) != 0)
        fprintf(stderr, "cannot write %s\n", path);
}

/* ---- allocation failure -------------------------------------------------- */

static void alloc_failures(void)
{
    hcase hc;
    memset(&hc, 0, sizeof hc);
    gen_agents_shared(&hc, SAN ? 6 : 12, SAN ? 4 : 6); /* agents in a shared and an own group */
    sbuf *b = &hc.body;
    sb_str(b, "User-agent: extra\n");
    rng_seed(77);
    for (int i = 0; i < (SAN ? 3 : 6); i++) { /* star patterns */
        sb_str(b, "Disallow: /");
        for (int s = 0; s < 5; s++)
            sb_c(b, '*'), sb_c(b, (char)('a' + rn(4)));
        sb_c(b, '\n');
    }
    sb_str(b, "Allow: /\xc3\xa9%%41%2525\n");
    dump_body("alloc", b);
    rsc_compile_options o = {0};
    counter c0 = {0};
    o.alloc = count_alloc;
    o.alloc_ud = &c0;
    rsc_blob ok = {NULL, 0};
    double t0 = now();
    rsc_status st = rsc_compile(b->p, b->n, &o, &ok);
    double once = now() - t0;
    CHECK(st == RSC_OK, "alloc: reference compile %d", st);
    unsigned long total = c0.calls;
    unsigned n_aut = 0;
    rsc_program prog;
    rsc_blob_info info;
    if (st == RSC_OK && rsc_load(&prog, ok.data, ok.size, NULL) == RSC_OK &&
        rsc_blob_info_get(&prog, &info) == RSC_OK)
        n_aut = info.n_programs;
    unsigned long runs = 0, nomem = 0;
    int bad = 0;
    for (unsigned long k = 1;; k += k < 200 ? 1 : 37) {
        counter c = {0};
        c.fail_at = k;
        o.alloc_ud = &c;
        rsc_blob out = {NULL, 0};
        st = rsc_compile(b->p, b->n, &o, &out);
        runs++;
        if (k > total) {
            CHECK(st == RSC_OK, "alloc: k=%lu past the last allocation: %d", k, st);
            if (st == RSC_OK) {
                CHECK(out.size == ok.size && memcmp(out.data, ok.data, ok.size) == 0, "alloc: same blob");
                rsc_blob_free(&out, &o);
            }
            CHECK(c.live == 0 && c.blocks == 0, "alloc: leak after success");
            break;
        }
        nomem += st == RSC_E_NOMEM;
        if (st != RSC_E_NOMEM || out.data || c.live || c.blocks) {
            if (bad++ < 10)
                fprintf(stderr, "alloc: failing allocation %lu of %lu: status %d, blob %p, %zu bytes in %zu "
                        "blocks left\n", k, total, st, (void *)out.data, c.live, c.blocks);
            if (st == RSC_OK)
                rsc_blob_free(&out, &o);
        }
    }
    CHECK(bad == 0, "alloc: %d runs did not return RSC_E_NOMEM cleanly", bad);
    o.alloc_ud = &c0;
    rsc_blob_free(&ok, &o);
    printf("allocation failure: %lu allocations in one compile (%zu bytes file, %.1f ms, %u programs), %lu runs, "
           "%lu NOMEM, %d bad\n", total, b->n, once * 1e3, n_aut, runs, nomem, bad);
    sb_free(b);
}

/* ---- main ---------------------------------------------------------------- */

static int want(const char *name)
{
    return !only || strstr(name, only);
}

static hcase *new_case(const char *name)
{
    hcase *hc = calloc(1, sizeof *hc);
    hc->name = name;
    hc->long_expect = -1;
    return hc;
}

static void run_and_free(hcase *hc)
{
    if (want(hc->name)) {
        fprintf(stderr, "[%s: %zu bytes]\n", hc->name, hc->body.n);
        dump_body(hc->name, &hc->body);
        run_case(hc);
    }
    sb_free(&hc->body);
    free(hc);
}

int main(int argc, char **argv)
{
    int alloc = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--full") == 0)
            full = 1;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc)
            dump_dir = argv[++i];
        else if (strcmp(argv[i], "--no-alloc") == 0)
            alloc = 0;
        else {
            fprintf(stderr, "usage: hostile_files [--full] [--only NAME] [--dump DIR] [--no-alloc]\n");
            return 2;
        }
    }
    /* Sizes: full / ctest / sanitizer ctest. */
#define SZ(f, c, s) (full ? (f) : SAN ? (s) : (c))
#define I_RULES 2000
#define I_BUDGET (full ? 3e10 : SAN ? 2e8 : 1e9)
    hcase *hc;

    hc = new_case("a-wild-dense");
    gen_wild_dense(hc, SZ(50000, 50000, 6000));
    if (!full) { /* matching costs ~150 us a byte here: see LIMITS.md */
        hc->long_max = 1000;
        hc->max_rules = 8;
    }
    run_and_free(hc);
    hc = new_case("a-wild-50k-real");
    gen_wild_real(hc, 50000, SZ(1u << 30, 1u << 30, 80000));
    if (!full) { /* ~25 us a byte: see LIMITS.md */
        hc->long_max = 1000;
        hc->max_rules = 10;
    }
    run_and_free(hc);

    hc = new_case("b-star8-500");
    gen_stars(hc, 201, SZ(500, 300, 120), 8, 8, 8, 1, 0);
    hc->alphabet = "abcdefg";
    run_and_free(hc);
    hc = new_case("b-star-az-300");
    gen_stars(hc, 202, SZ(300, 200, 100), 26, 2, 16, 3, 1);
    hc->alphabet = "abcdefghijklmnopqrstuvwxy";
    run_and_free(hc);
    hc = new_case("b-star-ab-400");
    gen_stars(hc, 204, SZ(400, 200, 100), 2, 4, 12, 4, 1);
    hc->alphabet = "aab";
    run_and_free(hc);
    hc = new_case("b-kmp-300");
    gen_kmp(hc, SZ(300, 200, 100));
    run_and_free(hc);

    hc = new_case("c-agents-one-group");
    gen_agents_one(hc, SZ(2000, 2000, 2000));
    run_and_free(hc);
    hc = new_case("c-agents-groups");
    gen_agents_groups(hc, SZ(2000, 2000, 2000));
    run_and_free(hc);
    hc = new_case("c-agents-shared");
    gen_agents_shared(hc, SZ(2000, 2000, 500), SZ(200, 200, 60));
    run_and_free(hc);
    hc = new_case("c-agents-shared-5000");
    if (full) {
        gen_agents_shared(hc, 5000, 400);
        run_and_free(hc);
    } else {
        sb_free(&hc->body), free(hc);
    }

    /* (d) the 16,663-byte cut: totals around it; a %XX and UTF-8
     * sequences cut in the middle; a '$' and a '*' just past the cut. */
    static const size_t totals[] = {16662, 16663, 16664, 16665};
    static const char *const cut_names[] = {"d-cut-16662", "d-cut-16663", "d-cut-16664", "d-cut-16665"};
    for (int i = 0; i < 4; i++) {
        if (SAN && !full && i % 3 == 0) /* sanitizer: 16663 and 16664 */
            continue;
        hc = new_case(cut_names[i]);
        gen_cut(hc, totals[i], "/", 'a', "b", totals[i], "Allow: /aaa$\n");
        run_and_free(hc);
    }
    static const struct {
        const char *name, *lead, *tail;
        size_t end;
    } cuts[] = {
        {"d-cut-pct-1", "/", "%41", 16664},   /* "%4" kept           */
        {"d-cut-pct-2", "/", "%41", 16665},   /* "%" kept            */
        {"d-cut-pct-0", "/", "%4a", 16663},   /* whole, upper-cased  */
        {"d-cut-utf8-2", "/", "\xc3\xa9", 16664},          /* lead byte kept      */
        {"d-cut-utf8-3", "/", "\xe2\x82\xac", 16664},      /* 2 of 3 kept         */
        {"d-cut-utf8-4", "/", "\xf0\x9f\x98\x80", 16665},  /* 2 of 4 kept         */
        {"d-cut-dollar", "/", "b$", 16664},    /* '$' cut: not anchored */
        {"d-cut-star", "/*", "*b", 16664},     /* '*' kept, 'b' cut      */
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        if (SAN && !full && i % 2 && i < 6) /* sanitizer: pct-1, pct-0, utf8-3, dollar, star */
            continue;
        hc = new_case(cuts[i].name);
        gen_cut(hc, 16700, cuts[i].lead, 'a', cuts[i].tail, cuts[i].end, "");
        run_and_free(hc);
    }
    hc = new_case("d-cut-agent");
    {
        sbuf *b = &hc->body;
        sb_str(b, "User-agent: ");
        sb_rep(b, 'z', 16663 - 12 - 3);
        sb_str(b, "bot"); /* "...zzzbot", whole */
        sb_str(b, "\nDisallow: /x\nUser-agent: ");
        sb_rep(b, 'y', 16663 - 12);
        sb_str(b, "bot\nDisallow: /y\n"); /* "bot" past the cut */
    }
    run_and_free(hc);

    hc = new_case("e-huge-literal");
    gen_huge_rule(hc, 500 * 1024, 0);
    run_and_free(hc);
    hc = new_case("e-huge-stars");
    gen_huge_rule(hc, 500 * 1024, 1);
    run_and_free(hc);
    hc = new_case("e-huge-lines");
    { /* 31 lines of 16 KiB wildcard patterns: the 500 KiB in rules */
        rng_seed(502);
        sbuf *b = &hc->body;
        sb_str(b, "User-agent: *\n");
        for (int l = 0; l < (int)SZ(31, 5, 4); l++) {
            sb_str(b, l % 2 ? "Disallow: /" : "Allow: /");
            for (int k = 0; k < 16000; k++)
                sb_c(b, rn(6) ? (char)('a' + rn(4)) : '*');
            sb_c(b, '\n');
        }
        hc->alphabet = "abcdabcdaabbccdd";
    }
    run_and_free(hc);
    hc = new_case("e-over-512000");
    gen_over_cut(hc);
    hc->alphabet = "fill/abc";
    hc->long_expect = 1; /* no rule pattern starts "/fill/" */
    run_and_free(hc);

    static const char *const pct_names[] = {"f-percent-1", "f-percent-2", "f-percent-rfc-1", "f-percent-rfc-2"};
    for (int i = 0; i < 4; i++) {
        if (!full && i % 3) /* ctest: f-percent-1 and f-percent-rfc-2 */
            continue;
        hc = new_case(pct_names[i]);
        gen_percent(hc, 601 + (uint64_t)i % 2, SZ(3000, 3000, 600));
        hc->profile = i >= 2;
        run_and_free(hc);
    }

    /* (h) the deepest tries. */
    hc = new_case("h-chain-a");
    gen_chain(hc, 1, 0);
    run_and_free(hc);
    hc = new_case("h-chain-mixed");
    gen_chain(hc, 1, 1);
    run_and_free(hc);
    hc = new_case("h-chain-step7");
    gen_chain(hc, 7, 0);
    run_and_free(hc);
    hc = new_case("h-chain-a-rfc");
    gen_chain(hc, 1, 0);
    hc->profile = 1;
    run_and_free(hc);
    hc = new_case("h-comb");
    gen_comb(hc);
    run_and_free(hc);
    hc = new_case("h-binary-trie");
    gen_bintrie(hc);
    run_and_free(hc);

    /* (i) thousands of tails on one node, long adversarial paths. */
    static const char *const shared_names[] = {"i-shared-x", "i-shared-abc$", "i-shared-abc", "i-shared-x-rfc",
                                               "i-shared-abc$-rfc"};
    for (int i = 0; i < 5; i++) {
        hc = new_case(shared_names[i]);
        size_t k = SZ(1u << 20, I_RULES, I_RULES / 5);
        if (i % 3 == 0)
            gen_shared_x(hc, k);
        else
            gen_shared_abc(hc, k, i != 2);
        hc->profile = i >= 3;
        hc->ref_budget = I_BUDGET;
        hc->lp_ref_all = 1;
        if (!full && (hc->profile || i == 0)) /* ~10 to 20 us a byte: see the long paths table */
            hc->long_max = 10000;
        run_and_free(hc);
    }

    /* (j) format 3: the segment pass, budgets, splitting, chains. */
    hc = new_case("j-ab24-10k");
    gen_ab24(hc, SZ(10000, 10000, 2000));
    hc->spec = 1;
    hc->alphabet = "abbabaabbbaababbabaa"; /* 1 KB a/b paths */
    hc->long_max = SZ(100000, 1000, 1000);
    hc->lp[0].prefix = "/", hc->lp[0].rep = "ab", hc->lp[0].suffix = "", hc->lp[0].expect = -1;
    hc->lp[1].prefix = "/", hc->lp[1].rep = "aababbbaba", hc->lp[1].suffix = "", hc->lp[1].expect = -1;
    hc->n_lp = 2;
    hc->lp_ref_all = 1;
    hc->ref_budget = I_BUDGET;
    hc->must_compile = 1;
    run_and_free(hc);
    hc = new_case("j-a5000b-url");
    {
        sbuf *b = &hc->body;
        sb_str(b, "User-agent: *\n");
        for (int k = 5000; k >= 4998; k--) {
            sb_str(b, "Disallow: /*");
            sb_rep(b, 'a', (size_t)k);
            sb_str(b, "b\n");
        }
        hc->url_prefix = "http://h.test;ab"; /* the path "/;ab" + 60,000 a's */
        hc->url_fill = 'a';
        hc->url_fill_n = SZ(60000, 60000, 10000);
        hc->url_expect = 1; /* no 'b' after the run of a's */
        hc->spec = 1;
        hc->must_compile = 1;
        /* "/" a^m "b": disallowed once m >= 4998 (the 10,000 and 100,000
         * byte paths), allowed below; without the 'b', allowed */
        hc->lp[0].prefix = "/", hc->lp[0].rep = "a", hc->lp[0].suffix = "b", hc->lp[0].expect = -1;
        hc->lp[1].prefix = "/", hc->lp[1].rep = "a", hc->lp[1].suffix = "", hc->lp[1].expect = 1;
        hc->lp[2].prefix = "/;", hc->lp[2].rep = "a", hc->lp[2].suffix = "ab", hc->lp[2].expect = -1;
        hc->n_lp = 3;
        hc->lp_ref_all = 1;
        hc->long_max = SZ(100000, 10000, 10000);
        hc->ref_budget = I_BUDGET;
    }
    run_and_free(hc);
    hc = new_case("j-q5-10k-k200");
    gen_q5(hc, SZ(10000, 10000, 2000));
    hc->spec = 1;
    hc->must_compile = 1;
    hc->known[0] = "/abcq01234", hc->known_allowed[0] = 0;
    hc->known[1] = "/q99999x", hc->known_allowed[1] = SZ(10000, 10000, 2000) > 99999 ? 0 : 1;
    hc->known[2] = "/kkk", hc->known_allowed[2] = 1;
    hc->n_known = 3;
    hc->lp[0].prefix = "/", hc->lp[0].rep = "k", hc->lp[0].suffix = "", hc->lp[0].expect = 1;
    hc->lp[1].prefix = "/", hc->lp[1].rep = "q00000", hc->lp[1].suffix = "", hc->lp[1].expect = 0;
    hc->lp[2].prefix = "/", hc->lp[2].rep = "kq", hc->lp[2].suffix = "q00042", hc->lp[2].expect = -1;
    hc->n_lp = 3;
    hc->long_max = SZ(100000, 10000, 1000);
    hc->ref_budget = I_BUDGET;
    run_and_free(hc);
    /* a rule of 200 segments (199 internal nodes: within the budget of
     * 512), then one of 600 (over it on its own: a chain program) */
    static const char *const seg_names[] = {"j-200-segments", "j-600-segments"};
    for (int i = 0; i < 2; i++) {
        hc = new_case(seg_names[i]);
        gen_segments(hc, i ? 600 : 200);
        hc->spec = 1;
        hc->must_compile = 1;
        hc->min_programs = i ? 2 : 1; /* the long rule a chain program of its own */
        hc->lp[0].prefix = "/x", hc->lp[0].rep = "s1s2s3s4s5s6s7s8s9s10s11", hc->lp[0].suffix = "",
        hc->lp[0].expect = 1;
        hc->lp[1].prefix = "/x", hc->lp[1].rep = "-s1-s2-s3-s4-s5-s6-s7-s8-s9", hc->lp[1].suffix = "", hc->lp[1].expect = -1;
        hc->n_lp = 2;
        hc->lp_ref_all = 1;
        hc->long_max = 10000;
        run_and_free(hc);
    }
    hc = new_case("j-nested-suffixes");
    gen_nested(hc, 40);
    hc->spec = 1;
    hc->must_compile = 1;
    hc->alphabet = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab";
    hc->lp[0].prefix = "/", hc->lp[0].rep = "a", hc->lp[0].suffix = "", hc->lp[0].expect = -1;
    hc->n_lp = 1;
    hc->lp_ref_all = 1;
    hc->long_max = SZ(100000, 10000, 1000);
    hc->ref_budget = I_BUDGET;
    run_and_free(hc);
    hc = new_case("j-40-levels");
    gen_levels(hc, 40);
    hc->spec = 1;
    hc->must_compile = 1;
    hc->min_programs = 3; /* 40 root slots on one chain, 16 a program */
    hc->max_rules = 40;
    hc->alphabet = "ppppx1";
    hc->long_max = 10000;
    run_and_free(hc);

    /* (k) format 3.1: automata with labels, near misses around them. */
    static const char *const lab_names[] = {"k-labels", "k-labels-rfc", "k-labels-long"};
    for (int i = 0; i < 3; i++) {
        hc = new_case(lab_names[i]);
        if (i < 2)
            gen_labels(hc, 901 + (uint64_t)i, SZ(400, 120, 40), 24, i);
        else
            gen_labels(hc, 903, SZ(60, 20, 6), 1500, 0);
        hc->profile = i == 1;
        hc->min_labelled = 10;
        hc->ref_budget = SZ(2e10, 2e9, 3e8);
        static const char *const kp[] = {"/abcdefghijklmnopqrstuvwxyz",   "/abcdefghijklmnopqrstuvwxy",
                                         "/abcdefghijklmnopqrstuvwxyZ",   "/abcdefghijklmnopqrstuvwxy-",
                                         "/abcdefghijklmabcdefghijklmnopqrstuvwxyz", "/doc/x.backup-of-the-file",
                                         "/doc/x.backup-of-the-fil",      "/doc/.backup-of-the-file.old"};
        static const int kv[] = {0, 1, 1, 0, 0, 1, 1, 0};
        for (size_t k = 0; k < 8; k++)
            hc->known[k] = kp[k], hc->known_allowed[k] = kv[k];
        hc->n_known = 8;
        hc->alphabet = "abcdefghijklmnopqrstuvwxy";
        hc->lp[0].prefix = "/", hc->lp[0].rep = "abcdefghijklmnopqrstuvwxy", hc->lp[0].suffix = "z";
        hc->lp[0].expect = -1;
        hc->lp[1].prefix = "/", hc->lp[1].rep = "abcdefghijklm", hc->lp[1].suffix = "", hc->lp[1].expect = 1;
        hc->lp[2].prefix = "/doc/", hc->lp[2].rep = ".backup-of-the-fil", hc->lp[2].suffix = "e", hc->lp[2].expect = -1;
        hc->n_lp = 3;
        hc->lp_ref_all = 1;
        hc->long_max = SZ(100000, 10000, 1000);
        run_and_free(hc);
    }

    /* (g) several MiB of random bytes in total (ctest: 4.4 MiB, full: 20). */
    size_t n_bin = SZ(32, 8, 4), n_tok = SZ(32, 3, 2), bin_size = SZ(512 * 1024, 512 * 1024, 96 * 1024);
    static char names[64][24];
    for (size_t i = 0; i < n_bin && i < 32; i++) {
        snprintf(names[i], sizeof names[i], "g-binary-%zu", i);
        hc = new_case(names[i]);
        gen_binary(hc, 701 + i, bin_size, 0);
        run_and_free(hc);
        if (i >= n_tok)
            continue;
        snprintf(names[32 + i], sizeof names[32 + i], "g-tokens-%zu", i);
        hc = new_case(names[32 + i]);
        gen_binary(hc, 801 + i, bin_size / 4, 1);
        run_and_free(hc);
    }

    printf("\n| case | bytes | status | compile ms | peak heap MiB | blob bytes | rules | programs | nodes | max "
           "nodes | globs | deepest chain | checks (ref) | by construction | ns/B 1k | 10k | 100k | case s |\n");
    printf("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
           "---: | ---: | ---: |\n");
    double total_ms = 0;
    for (size_t i = 0; i < n_rows; i++) {
        row *r = &rows[i];
        total_ms += r->ms;
        printf("| %s | %zu | %s | %.1f | %.1f | %zu | %u | %u | %u | %u | %u | %u | %u (%u) | %u | %.1f | %.1f | %.1f "
               "| %.2f |\n",
               r->name, r->bytes, r->status, r->ms, r->peak_mib, r->blob, r->info.n_rules, r->info.n_programs,
               r->info.total_nodes, r->info.max_nodes, r->info.n_globs, r->chain, r->lib_checks, r->ref_checks,
               r->probes, r->nspb[0], r->nspb[1], r->nspb[2], r->case_s);
    }
    printf("\nlong paths (prefix, repeated part, suffix): verdict, ref (compared with the reference), ns per "
           "path byte\n| case | path | verdict 1k / 10k / 100k | ref | ns/B 1k | 10k | 100k |\n"
           "| --- | --- | --- | --- | ---: | ---: | ---: |\n");
    for (size_t i = 0; i < n_rows; i++) {
        row *r = &rows[i];
        for (size_t j = 0; j < 4 && r->lp_desc[j][0]; j++)
            printf("| %s | %s | %d / %d / %d | %s | %.1f | %.1f | %.1f |\n", r->name, r->lp_desc[j],
                   r->lp_v[j][0], r->lp_v[j][1], r->lp_v[j][2],
                   r->lp_ref[j][2] ? "all" : r->lp_ref[j][1] ? "1k, 10k" : r->lp_ref[j][0] ? "1k" : "none",
                   r->lp_ns[j][0], r->lp_ns[j][1], r->lp_ns[j][2]);
    }
    printf("total compile time %.1f ms over %zu cases%s\n", total_ms, n_rows,
           full ? " (full size)" : SAN ? " (sanitizer sizes)" : "");
    if (alloc && want("alloc"))
        alloc_failures();
    return tu_report("hostile_files", tu_passed);
}
