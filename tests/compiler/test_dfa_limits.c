#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* Budgets, splitting, hostile inputs and allocation failure of the DFA
 * builder (docs/LIMITS.md).
 * Usage: test_dfa_limits [seed] [quick | name of one hostile set] */
#include <time.h>

#include "dfa_naive.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct patset {
    rsc_pat *p;
    uint8_t *buf;
    size_t n, used, cap;
} patset;

static void ps_init(patset *s, size_t n, size_t bytes)
{
    s->p = calloc(n, sizeof(rsc_pat));
    s->buf = malloc(bytes);
    s->n = 0;
    s->used = 0;
    s->cap = bytes;
    CHECK(s->p && s->buf);
}

static void ps_add(patset *s, const char *b, size_t len, int anchored)
{
    CHECK(s->used + len <= s->cap);
    memcpy(s->buf + s->used, b, len);
    s->p[s->n].bytes = s->buf + s->used;
    s->p[s->n].len = len;
    s->p[s->n].anchored = (uint8_t)anchored;
    s->p[s->n].rank = (uint32_t)s->n + 1;
    s->used += len;
    s->n++;
}

static void ps_free(patset *s)
{
    free(s->p);
    free(s->buf);
}

/* Builds the set, checks it against the naive matcher on inputs drawn from
 * the patterns, reports sizes and time. */
static const char *only; /* run only the hostile case whose name has this */
static int quick;        /* ctest: fewer naive checks of the big sets */

static void run_set(const char *name, const patset *s, int minimize, int inputs)
{
    if (only && !strstr(name, only))
        return;
    if (quick && s->n > 1000 && inputs > 5)
        inputs = 5;
    if (quick && s->used > 400000 && s->n < 100)
        return; /* the 500 KiB wildcard body: run by hand (docs/LIMITS.md) */
    count_alloc ca = {0};
    rsc_mem m;
    rsc_mem_init(&m, counting_alloc, &ca);
    rsc_dfa_options opt = {!minimize, 0, 0};
    rsc_dfa *d = NULL;
    size_t nd = 0;
    rsc_dfa_set_stats st;
    double t0 = now();
    CHECK(rsc_dfa_build_set_ex(&m, s->p, s->n, &opt, &d, &nd, &st) == RSC_OK);
    double t1 = now();
    uint64_t states = 0, cells = 0, maxst = 0;
    for (size_t i = 0; i < nd; i++) {
        states += d[i].n_states;
        cells += (uint64_t)d[i].n_states * d[i].n_classes;
        if (d[i].n_states > maxst)
            maxst = d[i].n_states;
    }
    printf("%-34s %6zu patterns %8zu bytes: %5zu DFAs, %8llu states (max %llu), %9llu cells, "
           "%3u attempts (%u over), work %llu%s, peak %.1f MiB, %.3f s CPU\n",
           name, s->n, s->used, nd, (unsigned long long)states, (unsigned long long)maxst,
           (unsigned long long)cells, st.attempts, st.failed, (unsigned long long)st.work,
           st.exhausted ? " (exhausted)" : "", ca.peak / 1048576.0, t1 - t0);
    CHECK(nd >= 1);
    /* memory stays bounded: far below what the subsets could take */
    CHECK(ca.peak < (size_t)1 << 30);
    for (int k = 0; k < inputs; k++) {
        uint8_t in[64];
        size_t len = 0;
        const rsc_pat *p = &s->p[rndn((uint32_t)s->n)];
        for (size_t i = 0; i < p->len && len < 60; i++) {
            if (p->bytes[i] == '*') {
                size_t r = rndn(3);
                while (r-- && len < 60)
                    in[len++] = (uint8_t)('a' + rndn(26));
            } else {
                in[len++] = p->bytes[i];
            }
        }
        if (rndn(2) && len)
            len = rndn((uint32_t)len + 1);
        uint32_t want = naive_best(s->p, s->n, in, len), got = 0;
        for (size_t i = 0; i < nd; i++) {
            uint32_t x = run_ceiling(&d[i], in, len);
            if (x > got)
                got = x;
        }
        CHECK(got == want);
    }
    rsc_dfa_free_all(&m, d, nd);
    CHECK(ca.live == 0);
}

static void hostile(void)
{
    patset s;
    char b[64];
    /* 1. 500 variants of slash-star-a-star-b ... -star-h-star, random letters */
    ps_init(&s, 500, 500 * 20);
    for (int i = 0; i < 500; i++) {
        size_t k = 0;
        b[k++] = '/';
        for (int j = 0; j < 8; j++) {
            b[k++] = '*';
            b[k++] = (char)('a' + rndn(26));
        }
        b[k++] = '*';
        ps_add(&s, b, k, 0);
    }
    run_set("500 x /*a*b*c*d*e*f*g*h*", &s, 1, 300);
    ps_free(&s);

    /* 2. 50,000 wildcard rules: "/" "*word", "/dir*word", "/word*x$" ... */
    ps_init(&s, 50000, 50000 * 24);
    for (int i = 0; i < 50000; i++) {
        size_t k = 0;
        b[k++] = '/';
        int shape = (int)rndn(4);
        if (shape == 0)
            b[k++] = '*';
        size_t w = 3 + rndn(8);
        for (size_t j = 0; j < w; j++)
            b[k++] = (char)('a' + rndn(26));
        if (shape >= 1) {
            b[k++] = '*';
            size_t w2 = 1 + rndn(6);
            for (size_t j = 0; j < w2; j++)
                b[k++] = (char)(rndn(4) ? 'a' + rndn(26) : '.');
        }
        if (shape == 3)
            b[k++] = '*';
        ps_add(&s, b, k, shape == 2);
    }
    run_set("50,000 wildcard rules", &s, 1, 40);
    ps_free(&s);

    /* 3. one 16 KiB pattern of '*' and letters, and KMP-hard segments */
    static char big[16384];
    const char *names[4] = {"16 KiB of '*' and letters", "16 KiB *aaaa...a", "16 KiB *(ab)^n b$",
                            "16 KiB random a/b segments"};
    for (int v = 0; v < 4; v++) {
        ps_init(&s, 2, 16384 + 8);
        for (int i = 0; i < 16384; i++) {
            if (v == 0)
                big[i] = rndn(3) ? (char)('a' + rndn(26)) : '*';
            else if (v == 1)
                big[i] = 'a';
            else if (v == 2)
                big[i] = (char)('a' + (i & 1));
            else
                big[i] = rndn(50) ? (char)('a' + rndn(2)) : '*';
        }
        big[0] = '/';
        big[1] = '*';
        ps_add(&s, big, sizeof big, v >= 2);
        ps_add(&s, "/a", 2, 0);
        run_set(names[v], &s, 1, 20);
        ps_free(&s);
    }

    /* 4. a whole 500 KiB body of long wildcard rules in one group */
    ps_init(&s, 64, 31 * 16384);
    for (int i = 0; i < 31; i++) {
        for (int j = 0; j < 16384; j++)
            big[j] = rndn(8) ? (char)('a' + rndn(3)) : '*';
        big[0] = '/';
        ps_add(&s, big, sizeof big, (int)rndn(2));
    }
    run_set("31 x 16 KiB wildcard patterns", &s, 1, 10);
    ps_free(&s);

    /* 5. 20,000 literal rules (a big trie) plus 200 one-star rules */
    ps_init(&s, 20200, 20200 * 40);
    for (int i = 0; i < 20200; i++) {
        size_t k = 0;
        b[k++] = '/';
        size_t w = 4 + rndn(30);
        for (size_t j = 0; j < w; j++)
            b[k++] = (char)(rndn(6) ? 'a' + rndn(26) : '/');
        if (i >= 20000)
            b[1 + rndn((uint32_t)w)] = '*';
        ps_add(&s, b, k, rndn(10) == 0);
    }
    run_set("20,000 literal + 200 star rules", &s, 1, 200);
    ps_free(&s);
}

/* Random multi-star sets under tiny budgets: the pieces must combine. */
static void split_random(void)
{
    unsigned long splits = 0, dfas = 0;
    for (int r = 0; r < 300; r++) {
        patset s;
        size_t n = 2 + rndn(40);
        ps_init(&s, n, n * 24);
        char b[24];
        for (size_t i = 0; i < n; i++) {
            size_t len = 1 + rndn(20), k = 0;
            b[k++] = '/';
            while (k < len)
                b[k++] = "ab*/$"[rndn(rndn(2) ? 3 : 5)];
            ps_add(&s, b, k, rndn(3) == 0);
        }
        rsc_mem m;
        rsc_mem_init(&m, NULL, NULL);
        rsc_dfa_options opt = {r & 1, 1 + rndn(3), 1 + rndn(40)};
        rsc_dfa *d = NULL;
        size_t nd = 0;
        CHECK(rsc_dfa_build_set(&m, s.p, s.n, &opt, &d, &nd) == RSC_OK);
        splits += nd > 1;
        dfas += nd;
        for (int k = 0; k < 100; k++) {
            uint8_t in[32];
            size_t len = rndn(24);
            for (size_t i = 0; i < len; i++)
                in[i] = (uint8_t)"ab/$c*"[rndn(6)];
            if (len)
                in[0] = '/';
            uint32_t want = naive_best(s.p, s.n, in, len), got = 0;
            for (size_t i = 0; i < nd; i++) {
                uint32_t x = rsc_dfa_run(&d[i], in, len);
                if (x > got)
                    got = x;
            }
            CHECK(got == want);
        }
        rsc_dfa_free_all(&m, d, nd);
        ps_free(&s);
    }
    printf("split: 300 random sets under small budgets, %lu split, %lu DFAs\n", splits, dfas);
    CHECK(splits > 50);
}

/* Single patterns always fit their budget, even a minimal one. */
static void singles(void)
{
    static char big[4000];
    for (int r = 0; r < 50; r++) {
        size_t len = 1 + rndn(sizeof big);
        for (size_t i = 0; i < len; i++)
            big[i] = rndn(4) ? (char)('a' + rndn(3)) : '*';
        rsc_pat p = {(const uint8_t *)big, len, 7, (uint8_t)rndn(2)};
        rsc_mem m;
        rsc_mem_init(&m, NULL, NULL);
        rsc_dfa d;
        CHECK(rsc_dfa_build(&m, &p, 1, (uint32_t)len + 2, (int)rndn(2), &d) == RSC_OK);
        CHECK(d.n_states <= len + 2);
        rsc_dfa_free(&m, &d);
        rsc_dfa_options opt = {0, 1, 1};
        rsc_dfa *ds = NULL;
        size_t nd = 0;
        CHECK(rsc_dfa_build_set(&m, &p, 1, &opt, &ds, &nd) == RSC_OK && nd == 1);
        rsc_dfa_free_all(&m, ds, nd);
    }
    /* rsc_dfa_build reports the limit instead of growing */
    rsc_pat two[2] = {{(const uint8_t *)"/*a*b*c*d*e", 11, 1, 0}, {(const uint8_t *)"/*e*d*c*b*a", 11, 2, 0}};
    rsc_mem m;
    rsc_mem_init(&m, NULL, NULL);
    rsc_dfa d;
    CHECK(rsc_dfa_build(&m, two, 2, 5, 1, &d) == RSC_E_LIMIT);
    CHECK(rsc_dfa_build(&m, two, 2, 100000, 1, &d) == RSC_OK);
    printf("singles: ok; /*a*b*c*d*e + /*e*d*c*b*a: %u states\n", d.n_states);
    rsc_dfa_free(&m, &d);
}

/* Every allocation failure gives RSC_E_NOMEM and leaks nothing. */
static void alloc_failures(void)
{
    const char *src[] = {"*", "/a*b", "/*.pdf", "/x/*/y*z", "/*d*c*b*a", "/a", "/*b*d*a*c", "/*a*b*c*d"};
    rsc_pat p[8];
    for (int i = 0; i < 8; i++) {
        p[i].bytes = (const uint8_t *)src[i];
        p[i].len = strlen(src[i]);
        p[i].rank = (uint32_t)i + 1;
        p[i].anchored = (uint8_t)(i & 1);
    }
    for (int mode = 0; mode < 3; mode++) {
        unsigned long k;
        for (k = 1;; k++) {
            count_alloc ca = {0};
            ca.fail_at = k;
            rsc_mem m;
            rsc_mem_init(&m, counting_alloc, &ca);
            rsc_status st;
            if (mode == 2) {
                rsc_dfa_options opt = {0, 1, 1}; /* tiny budget: splits */
                rsc_dfa *d = NULL;
                size_t nd = 0;
                st = rsc_dfa_build_set(&m, p, 8, &opt, &d, &nd);
                if (st == RSC_OK) {
                    CHECK(nd > 1);
                    rsc_dfa_free_all(&m, d, nd);
                }
            } else {
                rsc_dfa d;
                st = rsc_dfa_build(&m, p, 8, 10000, mode, &d);
                if (st == RSC_OK)
                    rsc_dfa_free(&m, &d);
            }
            CHECK(ca.live == 0);
            if (st == RSC_OK) {
                CHECK(ca.calls < k); /* succeeded without reaching the failure */
                break;
            }
            CHECK(st == RSC_E_NOMEM);
        }
        printf("allocation failure: mode %d, every one of %lu allocations failed in turn: "
               "RSC_E_NOMEM, no leak\n", mode, k - 1);
    }
}

int main(int argc, char **argv)
{
    unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 4242;
    rng_state ^= seed * 0x9E3779B97F4A7C15ull;
    only = argc > 2 ? argv[2] : NULL;
    if (only && strcmp(only, "quick") == 0) {
        quick = 1;
        only = NULL;
    }
    if (!only) {
        singles();
        alloc_failures();
        split_random();
    }
    hostile();
    return 0;
}
