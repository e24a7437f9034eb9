/* Differential test: rsc_dfa_run on random pattern sets against a naive
 * glob matcher (spec E.1-E.3), for minimised and unminimised DFAs and the
 * measurement variants; ceilings against a brute-force reachability check;
 * the runtime's early stop at the ceiling against the full run.
 * Usage: test_dfa_random [seed] [rounds] */
#include "dfa_naive.h"

static const uint8_t alpha[] = {'/', 'a', 'b', '*', '$', '%', 0x80, 0xC3};

static size_t gen_pattern(uint8_t *buf, size_t maxlen)
{
    size_t len = rndn((uint32_t)maxlen + 1);
    for (size_t i = 0; i < len; i++)
        buf[i] = alpha[rndn(sizeof alpha)];
    if (len && rndn(3))
        buf[0] = rndn(4) ? '/' : '*'; /* realistic starts, but not always */
    return len;
}

/* An input: random, or a pattern instance ('*' replaced by random bytes). */
static size_t gen_input(uint8_t *buf, const rsc_pat *pats, size_t n)
{
    size_t len = 0;
    if (n && rndn(2)) {
        const rsc_pat *p = &pats[rndn((uint32_t)n)];
        for (size_t i = 0; i < p->len && len < 20; i++) {
            if (p->bytes[i] == '*') {
                size_t k = rndn(3);
                while (k-- && len < 20)
                    buf[len++] = alpha[rndn(sizeof alpha)];
            } else {
                buf[len++] = p->bytes[i];
            }
        }
        size_t extra = rndn(3);
        while (extra-- && len < 24)
            buf[len++] = rndn(4) ? alpha[rndn(sizeof alpha)] : (uint8_t)rnd();
        if (rndn(4) == 0 && len)
            len = rndn((uint32_t)len + 1); /* cut short */
    } else {
        len = rndn(21);
        for (size_t i = 0; i < len; i++)
            buf[i] = rndn(8) ? alpha[rndn(sizeof alpha)] : (uint8_t)rnd();
    }
    return len;
}

/* ceiling[s] must equal max(end[s], accept/end of every state reachable
 * from s by one or more bytes): that bound is attained by a continuation
 * and nothing exceeds it. Checked by a plain search from each state. */
static void check_ceiling(const rsc_dfa *d)
{
    uint32_t n = d->n_states, nc = d->n_classes;
    unsigned char *seen = malloc(n);
    uint32_t *q = malloc((size_t)n * 4);
    CHECK(seen && q);
    for (uint32_t s = 0; s < n; s++) {
        memset(seen, 0, n);
        uint32_t qh = 0, qt = 0, best = d->end[s];
        for (uint32_t c = 0; c < nc; c++) {
            uint32_t t = d->next[(size_t)s * nc + c];
            if (t != RSC_DFA_DEAD && !seen[t]) {
                seen[t] = 1;
                q[qt++] = t;
            }
        }
        while (qh < qt) {
            uint32_t t = q[qh++];
            if (d->accept[t] > best)
                best = d->accept[t];
            if (d->end[t] > best)
                best = d->end[t];
            for (uint32_t c = 0; c < nc; c++) {
                uint32_t u = d->next[(size_t)t * nc + c];
                if (u != RSC_DFA_DEAD && !seen[u]) {
                    seen[u] = 1;
                    q[qt++] = u;
                }
            }
        }
        CHECK(d->ceiling[s] == best);
        /* spec of dead states: nothing to gain and nothing here -> only the
         * start state may exist like that */
        if (s != 0)
            CHECK(d->accept[s] || d->end[s] || d->ceiling[s]);
    }
    free(seen);
    free(q);
}

int main(int argc, char **argv)
{
    unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 12345;
    unsigned long rounds = argc > 2 ? strtoul(argv[2], NULL, 0) : 3000;
    rng_state ^= seed * 0x9E3779B97F4A7C15ull;
    rsc_mem m;
    rsc_mem_init(&m, NULL, NULL);
    static uint8_t pbuf[30][16];
    rsc_pat pats[30];
    unsigned long skipped = 0, comparisons = 0, states_min = 0, states_raw = 0, multi = 0;
    for (unsigned long r = 0; r < rounds; r++) {
        size_t n = 1 + rndn(rndn(4) ? 8 : 30);
        uint32_t ranks[30];
        for (size_t i = 0; i < n; i++)
            ranks[i] = (uint32_t)(i + 1) * 3 - rndn(3);
        for (size_t i = n; i > 1; i--) { /* shuffle ranks */
            size_t j = rndn((uint32_t)i);
            uint32_t t = ranks[i - 1];
            ranks[i - 1] = ranks[j];
            ranks[j] = t;
        }
        for (size_t i = 0; i < n; i++) {
            pats[i].bytes = pbuf[i];
            pats[i].len = gen_pattern(pbuf[i], 12);
            pats[i].rank = ranks[i];
            pats[i].anchored = (uint8_t)(rndn(3) == 0);
        }
        rsc_dfa dm, du, dv[3];
        CHECK(rsc_dfa_build(&m, pats, n, 100000, 1, &dm) == RSC_OK);
        CHECK(rsc_dfa_build(&m, pats, n, 100000, 0, &du) == RSC_OK);
        CHECK(dm.n_states <= du.n_states);
        static const int flags[3] = {RSC_DFA_F_NO_SUBSUME, RSC_DFA_F_KEEP_DONE,
                                     RSC_DFA_F_NO_SUBSUME | RSC_DFA_F_KEEP_DONE | RSC_DFA_F_NO_PRUNE};
        rsc_dfa_limits lim = {3000, 0, 0, 0};
        int have[3];
        for (int v = 0; v < 3; v++)
        {
            rsc_dfa_stats ds;
            rsc_status bs = rsc_dfa_build_ex(&m, pats, n, &lim, (int)(r & 1), flags[v], &dv[v], &ds);
            /* without the pruning facts a random set may explode: allowed */
            CHECK(bs == RSC_OK || bs == RSC_E_LIMIT);
            have[v] = bs == RSC_OK;
            skipped += !have[v];
        }
        /* small budgets force splits; the maximum over the pieces must agree */
        rsc_dfa_options opt = {(int)(r & 1), 1, 1};
        rsc_dfa *set = NULL;
        size_t nset = 0;
        CHECK(rsc_dfa_build_set(&m, pats, n, &opt, &set, &nset) == RSC_OK);
        CHECK(nset >= 1);
        multi += nset > 1;
        states_min += dm.n_states;
        states_raw += du.n_states;
        check_ceiling(&dm);
        check_ceiling(&du);
        for (int k = 0; k < 40; k++) {
            uint8_t in[32];
            size_t len = gen_input(in, pats, n);
            uint32_t want = naive_best(pats, n, in, len);
            uint32_t got = rsc_dfa_run(&dm, in, len);
            if (got != want) {
                fprintf(stderr, "round %lu: want %u got %u (minimised)\n", r, want, got);
                return 1;
            }
            CHECK(rsc_dfa_run(&du, in, len) == want);
            CHECK(run_ceiling(&dm, in, len) == want);
            CHECK(run_ceiling(&du, in, len) == want);
            for (int v = 0; v < 3; v++)
                CHECK(!have[v] || rsc_dfa_run(&dv[v], in, len) == want);
            uint32_t best = 0;
            for (size_t i = 0; i < nset; i++) {
                uint32_t x = run_ceiling(&set[i], in, len);
                if (x > best)
                    best = x;
            }
            CHECK(best == want);
            comparisons += 7;
        }
        rsc_dfa_free(&m, &dm);
        rsc_dfa_free(&m, &du);
        for (int v = 0; v < 3; v++)
            if (have[v])
                rsc_dfa_free(&m, &dv[v]);
        rsc_dfa_free_all(&m, set, nset);
    }
    printf("seed %lu: %lu rounds, %lu comparisons with the naive matcher, "
           "states %lu minimised / %lu unminimised, %lu sets split, %lu variant builds over their limit\n",
           seed, rounds, comparisons, states_min, states_raw, multi, skipped);
    CHECK(comparisons >= 100000 || rounds < 1000);
    return 0;
}
