/* Back-end tests: group merging and set sharing (spec F.5-F.7), rule
 * selection (E.3-E.5, E.8), verdicts against the reference matcher,
 * determinism, lint forwarding, allocation failure (every k), and the
 * bytecode encoder against the DFA it encodes (its own interpreter of
 * docs/FORMAT.md "Matching"). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "dfa.h"
#include "ref_robots.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

static int passed;

/* ---- a minimal blob reader (independent of compiler and runtime) ------- */

static uint32_t rd(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Section id's bytes, or NULL (size 0) when absent. */
static const uint8_t *section(const rsc_blob *b, unsigned id, uint32_t *size)
{
    uint32_t n = rd(b->data + 16);
    size_t at = 32 + 8 * (size_t)n;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = b->data + 32 + 8 * i;
        uint32_t sz = rd(e + 4);
        if ((unsigned)(e[0] | e[1] << 8) == id) {
            *size = sz;
            return b->data + at;
        }
        at += (sz + 3) & ~(size_t)3;
    }
    *size = 0;
    return NULL;
}

/* Set of agent token tok (NUL-terminated), or -1 when absent; -2: global. */
static long agent_set(const rsc_blob *b, const char *tok)
{
    uint32_t sz, ssz;
    const uint8_t *a = section(b, 5, &sz), *s = section(b, 1, &ssz);
    if (!a)
        return -1;
    if (!tok)
        return rd(a + 4) == 0xFFFFFFFFu ? -1 : (long)rd(a + 4);
    for (uint32_t i = 0; i < rd(a); i++) {
        const uint8_t *e = a + 8 + 12 * i;
        if (rd(e + 4) == strlen(tok) && memcmp(s + rd(e), tok, rd(e + 4)) == 0)
            return (long)rd(e + 8);
    }
    return -1;
}

static uint32_t count_of(const rsc_blob *b, unsigned id)
{
    uint32_t sz;
    const uint8_t *p = section(b, id, &sz);
    return p ? rd(p) : 0;
}

/* Automata of set k. */
static uint32_t set_size(const rsc_blob *b, long k)
{
    uint32_t sz;
    const uint8_t *p = section(b, 4, &sz);
    return p && k >= 0 ? rd(p + 8 + 8 * (size_t)k + 4) : 0;
}

static rsc_blob compile(const char *body, int profile)
{
    rsc_compile_options o;
    memset(&o, 0, sizeof o);
    o.profile = profile;
    rsc_blob b;
    rsc_status st = rsc_compile(body, strlen(body), &o, &b);
    TU_CHECK(st == RSC_OK, "compile: status %d", (int)st);
    if (b.data) {
        rsc_program p;
        rsc_load_error e = {0, NULL};
        st = rsc_load(&p, b.data, b.size, &e);
        TU_CHECK(st == RSC_OK, "load: status %d at %zu: %s", (int)st, e.offset, e.what ? e.what : "");
    }
    return b;
}

/* Verdicts of the compiled body vs the reference for agents x paths. */
static void agree(const char *body, int profile, const char *const *agents,
                  const char *const *paths)
{
    rsc_blob b = compile(body, profile);
    rsc_program p;
    if (!b.data || rsc_load(&p, b.data, b.size, NULL) != RSC_OK)
        return;
    for (size_t i = 0; agents[i]; i++) {
        rsc_bytes ag = {agents[i], strlen(agents[i])};
        ref_str rag = {agents[i], strlen(agents[i])};
        rsc_selection sel;
        if (rsc_select(&p, &ag, 1, &sel) != RSC_OK) {
            TU_CHECK(0, "select %s", agents[i]);
            continue;
        }
        for (size_t j = 0; paths[j]; j++) {
            rsc_match m;
            int got = rsc_match_path(&sel, paths[j], strlen(paths[j]), &m);
            ref_verdict want = ref_check(body, strlen(body), &rag, 1, paths[j], strlen(paths[j]),
                                         profile, 1);
            TU_CHECK(got == want.allowed && (int)m.line == want.line,
                     "body <<%s>> agent %s path %s: got %d line %u, want %d line %d", body,
                     agents[i], paths[j], got, m.line, want.allowed, want.line);
            passed++;
        }
    }
    rsc_blob_free(&b, NULL);
}

static void test_groups(void)
{
    /* F.5: a group naming a token and '*' feeds both; identical -> shared. */
    rsc_blob b = compile("User-agent: a\nUser-agent: *\nDisallow: /x\n", 0);
    TU_CHECK(agent_set(&b, "a") >= 0 && agent_set(&b, "a") == agent_set(&b, NULL),
             "both-named group: a -> %ld, global -> %ld", agent_set(&b, "a"), agent_set(&b, NULL));
    TU_CHECK(count_of(&b, 4) == 1, "one shared set, got %u", count_of(&b, 4));
    rsc_blob_free(&b, NULL);
    passed++;

    /* rsc_blob_info_get and rsc_dump read the same program. */
    b = compile("User-agent: a\nUser-agent: *\nDisallow: /x\nAllow: /x/index.html\n"
                "Sitemap: s\nCrawl-delay: 1\n", 0);
    rsc_program p;
    rsc_blob_info info;
    if (b.data && rsc_load(&p, b.data, b.size, NULL) == RSC_OK &&
        rsc_blob_info_get(&p, &info) == RSC_OK) {
        TU_CHECK(info.n_rules == 3 && info.n_automata == 1 && info.n_sets == 1 &&
                     info.n_agents == 1 && info.n_groups == 1 && info.n_sitemaps == 1 &&
                     info.n_directives == 1 && info.has_global == 1 && info.size == b.size &&
                     info.profile == 0 && info.max_states >= 3 &&
                     info.total_states == info.max_states,
                 "info: rules %u automata %u sets %u agents %u states %u", info.n_rules,
                 info.n_automata, info.n_sets, info.n_agents, info.max_states);
    } else {
        TU_CHECK(0, "info: no program");
    }
    rsc_blob_free(&b, NULL);
    passed++;

    /* Both-named plus another global group: the sets differ. */
    b = compile("User-agent: a\nUser-agent: *\nDisallow: /x\nUser-agent: *\nDisallow: /y\n", 0);
    TU_CHECK(agent_set(&b, "a") != agent_set(&b, NULL), "a and * differ");
    TU_CHECK(count_of(&b, 4) == 2 && count_of(&b, 2) == 2, "sets %u rules %u", count_of(&b, 4),
             count_of(&b, 2));
    rsc_blob_free(&b, NULL);
    passed++;

    /* F.6.2: named by a group without effective rules: empty set. */
    b = compile("User-agent: a\nAllow:\nDisallow: nope\nUser-agent: *\nDisallow: /\nUser-agent: c\n", 0);
    long sa = agent_set(&b, "a"), sc = agent_set(&b, "c"), sg = agent_set(&b, NULL);
    TU_CHECK(sa >= 0 && sa == sc && set_size(&b, sa) == 0, "a %ld c %ld size %u", sa, sc,
             set_size(&b, sa));
    TU_CHECK(sg >= 0 && sg != sa && set_size(&b, sg) == 1, "global %ld", sg);
    rsc_blob_free(&b, NULL);
    passed++;

    /* F.2: the empty token is a real token, from "*foo" and from "". */
    b = compile("User-agent: *foo\nDisallow: /x\nUser-agent:\nDisallow: /y\nUser-agent: 9\nDisallow: /z\n", 0);
    TU_CHECK(agent_set(&b, "") >= 0 && agent_set(&b, NULL) == -1 && count_of(&b, 5) == 1,
             "empty token: set %ld, global %ld, agents %u", agent_set(&b, ""), agent_set(&b, NULL),
             count_of(&b, 5));
    TU_CHECK(count_of(&b, 2) == 3, "rules %u", count_of(&b, 2));
    rsc_blob_free(&b, NULL);
    passed++;

    /* F.4: rules before the first agent are ignored. */
    b = compile("Disallow: /a\nAllow: /b\nUser-agent: b\nDisallow: /c\n", 0);
    TU_CHECK(count_of(&b, 2) == 1, "rules %u", count_of(&b, 2));
    rsc_blob_free(&b, NULL);
    passed++;

    /* Tokens compare lower-cased, and merge across groups (F.5); a and b
     * are named by the same groups and share a set; c does not. */
    b = compile("User-agent: A\nUser-agent: b\nDisallow: /x\nUser-agent: c\nAllow: /y\n"
                "User-agent: B\nUser-agent: a/1.0\nDisallow: /z\n",
                0);
    TU_CHECK(agent_set(&b, "a") >= 0 && agent_set(&b, "a") == agent_set(&b, "b"), "a, b shared");
    TU_CHECK(agent_set(&b, "c") != agent_set(&b, "a"), "c differs");
    TU_CHECK(count_of(&b, 5) == 3 && count_of(&b, 4) == 2, "agents %u sets %u", count_of(&b, 5),
             count_of(&b, 4));
    TU_CHECK(agent_set(&b, "A") == -1, "tokens are lower-case");
    rsc_blob_free(&b, NULL);
    passed++;

    /* Duplicates within a set: the best-ranked survives (allow on a tie). */
    b = compile("User-agent: a\nDisallow: /x\nUser-agent: a\nAllow: /x\n", 0);
    TU_CHECK(count_of(&b, 2) == 1, "rules %u", count_of(&b, 2));
    rsc_blob_free(&b, NULL);
    passed++;

    /* E.3-E.5: empty, dead and "$" patterns are dropped. */
    b = compile("User-agent: a\nDisallow:\nDisallow: x\nDisallow: $\nAllow: %2F\n", 0);
    TU_CHECK(count_of(&b, 2) == 0 && count_of(&b, 3) == 0, "rules %u automata %u",
             count_of(&b, 2), count_of(&b, 3));
    TU_CHECK(agent_set(&b, "a") >= 0 && set_size(&b, agent_set(&b, "a")) == 0, "empty set");
    rsc_blob_free(&b, NULL);
    passed++;

    /* E.8: the index.html extra is its own rule, on the same line. */
    b = compile("User-agent: *\nAllow: /d/index.html\nDisallow: /d/\n", 0);
    TU_CHECK(count_of(&b, 2) == 3, "rules %u", count_of(&b, 2));
    rsc_blob_free(&b, NULL);
    passed++;

    /* No groups at all: no AGENTS section, so no global set. */
    b = compile("# nothing\nSitemap: http://x/s.xml\n", 0);
    TU_CHECK(agent_set(&b, NULL) == -1 && count_of(&b, 7) == 1, "no groups");
    rsc_blob_free(&b, NULL);
    passed++;
}

static void test_verdicts(void)
{
    static const char *const agents[] = {"a", "b", "c", "foo", "", "x", NULL};
    static const char *const paths[] = {"/", "/x", "/xy", "/y", "/z", "/d/", "/d/index.html",
                                        "/d/index.htm", "/a$", "/a", "/p.php", "/p.phpx",
                                        "/%41", "/A", "/%aa", "/%AA", "/robots.txt", NULL};
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
        NULL};
    for (size_t i = 0; bodies[i]; i++)
        for (int prof = 0; prof < 2; prof++)
            agree(bodies[i], prof, agents, paths);
}

static void test_determinism_and_lint(void)
{
    const char *body = "User-agent: x\nDisalow: /a*b$\nUser-agent: y\nDisallow: q\n"
                       "Crawl-delay: 3\nSitemap: s\nAllow: /\xC3\xA9\n";
    rsc_blob a = compile(body, 0), b = compile(body, 0);
    TU_CHECK(a.size == b.size && a.data && b.data && memcmp(a.data, b.data, a.size) == 0,
             "same input, same bytes");
    rsc_blob_free(&a, NULL);
    rsc_blob_free(&b, NULL);
    passed++;
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
    size_t bytes;
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
    }
    return q;
}

static void nomem_one(const char *body)
{
    rsc_compile_options o;
    memset(&o, 0, sizeof o);
    counting c;
    o.alloc = count_alloc;
    o.alloc_ud = &c;
    long k;
    for (k = 1; k < 100000; k++) {
        memset(&c, 0, sizeof c);
        c.fail_at = k;
        rsc_blob b;
        rsc_status st = rsc_compile(body, strlen(body), &o, &b);
        if (st == RSC_OK) {
            TU_CHECK(c.calls < k, "succeeded though allocation %ld failed", k);
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
    printf("allocation failure: %ld allocations checked\n", k - 1);
    passed++;
}

static void test_nomem(void)
{
    nomem_one("User-agent: a\nUser-agent: *\nDisallow: /x*y$\nAllow: /x/index.html\n"
              "User-agent: b\nDisallow: /abc\nDisallow: /abd\nAllow: /*.gif$\n"
              "Crawl-delay: 1\nSitemap: http://s\nUser-agent: c\nDisallow: /\n");
    nomem_one("");
    nomem_one("User-agent: x\n");
}

/* ---- encoder vs DFA ------------------------------------------------------ */

static uint64_t rng = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* docs/FORMAT.md "Matching", run(), over one encoded automaton a. */
static uint32_t run_code(const uint8_t *a, const uint8_t *s, size_t len)
{
    uint32_t n = rd(a), flags = rd(a + 12);
    const uint8_t *map = (flags & 1) ? a + 20 : NULL;
    const uint8_t *code = a + 20 + (map ? 256 : 0) + 4 * (size_t)n;
    uint32_t reg = 0, t = rd(a + 8);
    size_t i = 0;
    for (;;) {
        const uint8_t *st = code + t;
        uint32_t w0 = rd(st), ceil = rd(st + 4);
        const uint8_t *p = st + 8;
        uint32_t acc = 0, end = 0;
        if (w0 & 0x10) {
            acc = rd(p);
            p += 4;
        }
        if (w0 & 0x20) {
            end = rd(p);
            p += 4;
        }
        if (acc > reg)
            reg = acc;
        if (i == len)
            return end > reg ? end : reg;
        if (reg >= ceil)
            return reg;
        switch (w0 & 15) {
        case 1: {
            uint32_t l = rd(p);
            if (len - i < l || memcmp(s + i, p + 4, l) != 0)
                return reg;
            i += l;
            t = rd(p + 4 + ((l + 3) & ~3u));
            break;
        }
        case 2: {
            uint32_t k = rd(p);
            const uint8_t *tg = p + 4 + ((k + 3) & ~3u);
            t = rd(tg + 4 * k);
            for (uint32_t j = 0; j < k; j++)
                if (p[4 + j] == s[i])
                    t = rd(tg + 4 * j);
            i++;
            break;
        }
        default:
            t = rd(p + 4 * (size_t)map[s[i]]);
            i++;
        }
        if (t == 0xFFFFFFFFu)
            return reg;
    }
}

static void test_encoder(void)
{
    static const char alpha[] = "/ab*$.x";
    rsc_mem m;
    rsc_mem_init(&m, NULL, NULL);
    int ops_seen[4] = {0};
    for (int iter = 0; iter < 400; iter++) {
        rsc_pat pats[12];
        uint8_t store[12][24];
        size_t n = 1 + rnd(iter % 40 == 0 ? 12 : 5);
        for (size_t i = 0; i < n; i++) {
            size_t len = 1 + rnd(iter % 3 == 0 ? 20 : 8);
            store[i][0] = rnd(4) ? '/' : '*';
            for (size_t j = 1; j < len; j++)
                store[i][j] = iter % 50 == 0 ? (uint8_t)('!' + rnd(90)) : (uint8_t)alpha[rnd(6)];
            if (iter % 40 == 0 && len > 1) /* wide fan-out after "/": TABLE */
                store[i][1] = (uint8_t)('c' + i);
            pats[i].bytes = store[i];
            pats[i].len = len;
            pats[i].rank = (uint32_t)i + 1;
            pats[i].anchored = (uint8_t)rnd(2);
        }
        rsc_dfa_options dopt;
        memset(&dopt, 0, sizeof dopt);
        dopt.no_minimize = iter & 1;
        rsc_dfa *d = NULL;
        size_t nd = 0;
        if (rsc_dfa_build_set(&m, pats, n, &dopt, &d, &nd) != RSC_OK) {
            TU_CHECK(0, "dfa build failed");
            continue;
        }
        for (size_t k = 0; k < nd; k++) {
            rsc_buf out = {NULL, 0, 0};
            uint32_t states = 0;
            rsc_status st = rsc_emit_automaton(&m, &d[k], &out, &states);
            TU_CHECK(st == RSC_OK && out.len % 4 == 0, "emit: %d", (int)st);
            if (st != RSC_OK)
                continue;
            uint32_t ns = rd(out.p);
            const uint8_t *code = out.p + 20 + ((rd(out.p + 12) & 1) ? 256 : 0) + 4 * (size_t)ns;
            for (uint32_t s = 0; s < ns; s++)
                ops_seen[rd(code + rd(out.p + 20 + ((rd(out.p + 12) & 1) ? 256 : 0) + 4 * s)) & 3]++;
            for (int q = 0; q < 200; q++) {
                uint8_t path[40];
                size_t len = rnd(30);
                for (size_t j = 0; j < len; j++)
                    path[j] = j == 0 && rnd(5) ? (uint8_t)'/'
                                              : (uint8_t)(iter % 50 == 0 ? '!' + rnd(90) : (unsigned char)alpha[rnd(7)]);
                if ((size_t)q < n && pats[q].len < sizeof path) { /* the patterns themselves */
                    len = pats[q].len;
                    memcpy(path, pats[q].bytes, len);
                }
                uint32_t want = rsc_dfa_run(&d[k], path, len), got = run_code(out.p, path, len);
                TU_CHECK(want == got, "iter %d: dfa %u, code %u", iter, want, got);
            }
            rsc_buf_free(&m, &out);
            passed++;
        }
        rsc_dfa_free_all(&m, d, nd);
    }
    TU_CHECK(ops_seen[1] && ops_seen[2] && ops_seen[3], "ops LIT %d SPARSE %d TABLE %d",
             ops_seen[1], ops_seen[2], ops_seen[3]);
}

int main(void)
{
    test_groups();
    test_verdicts();
    test_determinism_and_lint();
    test_diag();
    test_nomem();
    test_encoder();
    return tu_report("backend", passed);
}
