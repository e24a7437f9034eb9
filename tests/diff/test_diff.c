/* SPDX-License-Identifier: Apache-2.0 */
/* rsc_diff() against brute force. Small rule sets over a tiny alphabet are
 * generated, compiled and compared; brute force matches every path of
 * length 1..L over the pattern bytes plus one other byte, on both blobs:
 *  - brute force finds a flip  =>  diff says "different";
 *  - diff says "same"          =>  brute force finds none;
 *  - google profile: the shortest brute-force flip is as long as diff's
 *    first witness when that is within L (witnesses are shortest);
 *  - every witness re-checks on the matcher: verdicts differ, lines match.
 * Also: a budget too small gives "unknown", never "same"; fixed cases. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

typedef struct side {
    rsc_blob blob;
    rsc_program prog;
    rsc_selection sel;
} side;

static int open_side(side *s, const char *txt, rsc_profile prof, const char *agent)
{
    rsc_compile_options o;
    memset(&o, 0, sizeof o);
    o.profile = prof;
    memset(s, 0, sizeof *s);
    if (rsc_compile(txt, strlen(txt), &o, &s->blob) != RSC_OK)
        return -1;
    if (rsc_load(&s->prog, s->blob.data, s->blob.size, NULL) != RSC_OK)
        return -1;
    rsc_bytes a = {agent, strlen(agent)};
    return rsc_select(&s->prog, &a, 1, &s->sel) == RSC_OK ? 0 : -1;
}

static void close_side(side *s)
{
    rsc_blob_free(&s->blob, NULL);
}

/* A robots.txt of 1..5 rules in one or two groups over alpha. */
static void gen(char *out, size_t cap, const char *alpha)
{
    size_t o = 0;
    size_t na = strlen(alpha);
    int groups = 1 + (int)rnd(2);
    for (int g = 0; g < groups; g++) {
        o += (size_t)snprintf(out + o, cap - o, "User-agent: %s\n", g == 0 ? "*" : (rnd(2) ? "x" : "y"));
        int n = 1 + (int)rnd(4);
        for (int i = 0; i < n; i++) {
            char pat[16];
            size_t len = 1 + rnd(5), k = 0;
            pat[k++] = rnd(5) ? '/' : '*';
            for (size_t j = 1; j < len; j++)
                pat[k++] = alpha[rnd((uint32_t)na)];
            if (rnd(4) == 0)
                pat[k++] = '$';
            pat[k] = 0;
            o += (size_t)snprintf(out + o, cap - o, "%s: %s\n", rnd(2) ? "Allow" : "Disallow", pat);
        }
    }
}

/* Like gen(), but rules built from a few shared pieces joined by runs of
 * '*' (compiler/subset.h, note [dominance]: equal residuals, "*t" beside "...*t",
 * anchored and not, several stars, "s*$"), up to 8 rules a group. */
static void gen_stars(char *out, size_t cap)
{
    static const char *const piece[] = {"a", "b", "ab", "ba", "aa", ""};
    size_t o = 0;
    int groups = 1 + (int)rnd(2);
    for (int g = 0; g < groups; g++) {
        o += (size_t)snprintf(out + o, cap - o, "User-agent: %s\n", g == 0 ? "*" : (rnd(2) ? "x" : "y"));
        int n = 1 + (int)rnd(8);
        for (int i = 0; i < n && o + 40 < cap; i++) {
            char pat[40];
            size_t k = 0;
            pat[k++] = rnd(4) ? '/' : '*';
            if (rnd(3) == 0)
                pat[k++] = 'b';
            int parts = 1 + (int)rnd(3);
            for (int q = 0; q < parts; q++) {
                for (int st = 1 + (rnd(4) == 0); st > 0; st--)
                    pat[k++] = '*';
                for (const char *pc = piece[rnd(6)]; *pc; pc++)
                    pat[k++] = *pc;
            }
            if (rnd(5) == 0)
                pat[k++] = '*';
            if (rnd(3) == 0)
                pat[k++] = '$';
            pat[k] = 0;
            o += (size_t)snprintf(out + o, cap - o, "%s: %s\n", rnd(2) ? "Allow" : "Disallow", pat);
        }
    }
}

/* Mutates one rule line: flips its kind, or changes/drops a byte, or adds a rule. */
static void mutate(const char *in, char *out, size_t cap, const char *alpha)
{
    snprintf(out, cap, "%s", in);
    size_t nl = 0;
    for (const char *p = out; *p; p++)
        nl += *p == '\n';
    int kind = (int)rnd(4);
    if (kind == 3) {
        size_t l = strlen(out);
        snprintf(out + l, cap - l, "Disallow: /%c%c\n", alpha[rnd((uint32_t)strlen(alpha))],
                 alpha[rnd((uint32_t)strlen(alpha))]);
        return;
    }
    size_t target = rnd((uint32_t)nl), line = 0;
    char *p = out;
    while (line < target && *p)
        line += *p++ == '\n';
    if (strncmp(p, "User-agent", 10) == 0)
        return;
    if (kind == 0) {
        if (strncmp(p, "Allow", 5) == 0)
            memcpy(p, "Disal", 5); /* "Disal: " is still a disallow (prefix match) */
        else
            memcpy(p, "Allow", 5), memmove(p + 5, p + 8, strlen(p + 8) + 1);
        return;
    }
    char *colon = strchr(p, ':'), *end = strchr(p, '\n');
    if (!colon || !end || end - colon < 4)
        return;
    char *at = colon + 3 + rnd((uint32_t)(end - colon - 3));
    if (at >= end)
        return;
    if (kind == 1)
        *at = alpha[rnd((uint32_t)strlen(alpha))];
    else
        memmove(at, at + 1, strlen(at + 1) + 1);
}

/* The shortest length (1..L) of a path over alpha+other where the two
 * selections disagree, or 0. */
static size_t brute(const side *a, const side *b, const char *bytes, size_t L)
{
    size_t nb = strlen(bytes);
    char path[16];
    for (size_t len = 1; len <= L; len++) {
        size_t total = 1;
        for (size_t i = 1; i < len; i++)
            total *= nb;
        for (size_t idx = 0; idx < total; idx++) {
            size_t v = idx;
            path[0] = '/';
            for (size_t i = 1; i < len; i++)
                path[i] = bytes[v % nb], v /= nb;
            if (rsc_match_path(&a->sel, path, len, NULL) != rsc_match_path(&b->sel, path, len, NULL))
                return len;
        }
    }
    return 0;
}

static void check_witnesses(const rsc_diff_result *r, const side *a, const side *b, const char *ta,
                            const char *tb)
{
    for (size_t k = 0; k < r->n_flips; k++) {
        const rsc_flip *f = &r->flips[k];
        rsc_match ma, mb;
        int va = rsc_match_path(&a->sel, f->path, f->len, &ma);
        int vb = rsc_match_path(&b->sel, f->path, f->len, &mb);
        TU_CHECK(va != vb && va == f->old_allowed && vb == f->new_allowed &&
                     (ma.decided ? ma.line : 0) == f->old_line && (mb.decided ? mb.line : 0) == f->new_line,
                 "witness '%.*s' does not re-check\n%s---\n%s", (int)f->len, f->path, ta, tb);
        TU_CHECK(f->len >= 1 && f->path[0] == '/' && !memchr(f->path, '#', f->len) &&
                     !memchr(f->path, 0, f->len),
                 "witness '%.*s' is not a URL path", (int)f->len, f->path);
    }
}

static void random_round(rsc_profile prof, const char *alpha, const char *brute_bytes, size_t L,
                         int *n_diff, int *n_same)
{
    char ta[1024], tb[1100];
    int stars = alpha == NULL;
    if (stars)
        gen_stars(ta, sizeof ta), alpha = "ab*";
    else
        gen(ta, sizeof ta, alpha);
    if (rnd(3) == 0) {
        if (stars)
            gen_stars(tb, sizeof tb);
        else
            gen(tb, sizeof tb, alpha);
    } else
        mutate(ta, tb, sizeof tb, alpha);
    const char *agent = rnd(2) ? "x" : "z";
    side a, b;
    if (open_side(&a, ta, prof, agent) != 0 || open_side(&b, tb, prof, agent) != 0) {
        TU_CHECK(0, "compile failed\n%s---\n%s", ta, tb);
        return;
    }
    rsc_diff_result r;
    rsc_status st = rsc_diff(&a.sel, &b.sel, 8, NULL, &r);
    TU_CHECK(st == RSC_OK && r.outcome != RSC_DIFF_UNKNOWN, "diff status %d outcome %d", st, r.outcome);
    size_t bl = brute(&a, &b, brute_bytes, L);
    if (bl)
        TU_CHECK(r.outcome == RSC_DIFF_DIFFERENT, "brute force flip at length %zu missed (agent %s)\n%s---\n%s",
                 bl, agent, ta, tb);
    if (r.outcome == RSC_DIFF_SAME)
        TU_CHECK(bl == 0 && r.complete, "same but brute force differs");
    if (r.outcome == RSC_DIFF_DIFFERENT) {
        TU_CHECK(r.n_flips >= 1, "different without a witness");
        size_t shortest = SIZE_MAX;
        for (size_t k = 0; k < r.n_flips; k++)
            shortest = r.flips[k].len < shortest ? r.flips[k].len : shortest;
        if (prof == RSC_PROFILE_GOOGLE && r.n_flips && shortest <= L)
            TU_CHECK(bl == shortest, "first witness length %zu, brute force %zu\n%s---\n%s", shortest,
                     bl, ta, tb);
        check_witnesses(&r, &a, &b, ta, tb);
        (*n_diff)++;
    } else {
        (*n_same)++;
    }
    /* against itself: always the same */
    rsc_diff_result s;
    st = rsc_diff(&a.sel, &a.sel, 8, NULL, &s);
    TU_CHECK(st == RSC_OK && s.outcome == RSC_DIFF_SAME && s.complete, "self diff not same\n%s", ta);
    rsc_diff_result_free(&s, NULL);
    rsc_diff_result_free(&r, NULL);
    close_side(&a);
    close_side(&b);
}

static int diff_texts(const char *ta, const char *tb, rsc_profile prof, const char *agent,
                      rsc_diff_result *r, size_t budget)
{
    side a, b;
    if (open_side(&a, ta, prof, agent) != 0 || open_side(&b, tb, prof, agent) != 0)
        return -1;
    rsc_explore_options o;
    memset(&o, 0, sizeof o);
    o.max_states = budget;
    rsc_status st = rsc_diff(&a.sel, &b.sel, 4, &o, r);
    if (st == RSC_OK && r->outcome == RSC_DIFF_DIFFERENT)
        check_witnesses(r, &a, &b, ta, tb);
    /* paths in r point into r, not into the blobs: safe to close */
    close_side(&a);
    close_side(&b);
    return st == RSC_OK ? 0 : -1;
}

typedef struct deadset {
    uint32_t line[64];
    size_t n;
    int budget;
} deadset;
static void on_sem(void *ud, const rsc_semdiag *d);

static void fixed_cases(void)
{
    rsc_diff_result r;
    /* a longer allow shadows the change */
    TU_CHECK(diff_texts("User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /a\nAllow: /ab\n",
                        RSC_PROFILE_GOOGLE, "x", &r, 0) == 0 &&
                 r.outcome == RSC_DIFF_DIFFERENT && r.n_flips == 1 && r.flips[0].len == 3 &&
                 memcmp(r.flips[0].path, "/ab", 3) == 0 && r.flips[0].old_line == 2 &&
                 r.flips[0].new_line == 3,
             "Allow: /ab added: witness /ab");
    rsc_diff_result_free(&r, NULL);
    /* equivalent patterns: /a* and /a */
    TU_CHECK(diff_texts("User-agent: *\nDisallow: /a*\n", "User-agent: *\nDisallow: /a\n",
                        RSC_PROFILE_GOOGLE, "x", &r, 0) == 0 &&
                 r.outcome == RSC_DIFF_SAME && r.complete,
             "/a* and /a are the same");
    rsc_diff_result_free(&r, NULL);
    /* two kinds of change that end in the same verdicts: both listed */
    TU_CHECK(diff_texts("User-agent: *\nDisallow: /private\nAllow: /private/ok\n",
                        "User-agent: *\nDisallow: /private\nDisallow: /tmp\n", RSC_PROFILE_GOOGLE, "x", &r,
                        0) == 0 &&
                 r.outcome == RSC_DIFF_DIFFERENT && r.n_flips == 2 && r.complete &&
                 r.flips[0].len == 4 && r.flips[1].len == 11 &&
                 memcmp(r.flips[1].path, "/private/ok", 11) == 0,
             "both kinds of change listed");
    rsc_diff_result_free(&r, NULL);
    /* the rfc profile: /robots.txt is always allowed */
    TU_CHECK(diff_texts("User-agent: *\nDisallow: /robots.txt$\n", "User-agent: *\n", RSC_PROFILE_RFC,
                        "x", &r, 0) == 0 &&
                 r.outcome == RSC_DIFF_SAME,
             "rfc: /robots.txt$ never decides");
    rsc_diff_result_free(&r, NULL);
    TU_CHECK(diff_texts("User-agent: *\nDisallow: /robots.txt$\n", "User-agent: *\n",
                        RSC_PROFILE_GOOGLE, "x", &r, 0) == 0 &&
                 r.outcome == RSC_DIFF_DIFFERENT && r.n_flips == 1 && r.flips[0].len == 11,
             "google: /robots.txt$ decides");
    rsc_diff_result_free(&r, NULL);
    /* rfc: %41 in a pattern is A; the witness is a path the matcher normalises */
    TU_CHECK(diff_texts("User-agent: *\nDisallow: /%41\n", "User-agent: *\nDisallow: /B\n",
                        RSC_PROFILE_RFC, "x", &r, 0) == 0 &&
                 r.outcome == RSC_DIFF_DIFFERENT,
             "rfc: /%%41");
    rsc_diff_result_free(&r, NULL);
    /* a different agent's group changed only */
    TU_CHECK(diff_texts("User-agent: a\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n",
                        "User-agent: a\nDisallow: /y\n\nUser-agent: *\nDisallow: /x\n", RSC_PROFILE_GOOGLE,
                        "other", &r, 0) == 0 &&
                 r.outcome == RSC_DIFF_SAME,
             "other agents unaffected");
    rsc_diff_result_free(&r, NULL);
    /* a budget too small: unknown, never same */
    char big[4096];
    size_t o = (size_t)snprintf(big, sizeof big, "User-agent: *\n");
    for (int i = 0; i < 40; i++) /* distinct patterns of growing length */
        o += (size_t)snprintf(big + o, sizeof big - o, "%s: /*%c*%c%.*s\n", i % 3 ? "Allow" : "Disallow",
                              'a' + i % 5, 'a' + (i / 5) % 5, i / 25 + 1, "*c*d");
    /* equal rule lists answer "same" without a walk; big2 has one rule more
     * that changes no verdict ("/zz" holds none of the letters big's rules
     * need), so its diff explores */
    TU_CHECK(diff_texts(big, big, RSC_PROFILE_GOOGLE, "x", &r, 2) == 0 && r.outcome == RSC_DIFF_SAME &&
                 r.complete && r.states == 0,
             "equal lists: same, no walk (%zu states)", r.states);
    rsc_diff_result_free(&r, NULL);
    char big2[4200];
    snprintf(big2, sizeof big2, "%sAllow: /zz$\n", big);
    TU_CHECK(diff_texts(big, big2, RSC_PROFILE_GOOGLE, "x", &r, 0) == 0 && r.outcome == RSC_DIFF_SAME &&
                 r.complete && r.states > 2,
             "wildcards: same, %zu states", r.states);
    size_t all = r.states;
    rsc_diff_result_free(&r, NULL);
    TU_CHECK(diff_texts(big, big2, RSC_PROFILE_GOOGLE, "x", &r, 2) == 0 &&
                 r.outcome == RSC_DIFF_UNKNOWN && !r.complete,
             "a budget too small: outcome %d", r.outcome);
    rsc_diff_result_free(&r, NULL);
    TU_CHECK(diff_texts(big, big2, RSC_PROFILE_GOOGLE, "x", &r, all) == 0 &&
                 r.outcome == RSC_DIFF_SAME && r.complete,
             "a budget just enough: outcome %d", r.outcome);
    rsc_diff_result_free(&r, NULL);
    /* hostile: long runs of '*' and many wildcard segments stay bounded
     * (the answer may be "unknown", never a crash or a wrong "same") */
    {
        size_t cap = 64 * 1024, k = 0;
        char *h = malloc(cap);
        k += (size_t)snprintf(h + k, cap - k, "User-agent: *\nDisallow: /");
        for (int i = 0; i < 12000; i++)
            h[k++] = '*';
        k += (size_t)snprintf(h + k, cap - k, "a\nAllow: /");
        for (int i = 0; i < 3000; i++)
            k += (size_t)snprintf(h + k, cap - k, "*%c", 'a' + i % 3);
        k += (size_t)snprintf(h + k, cap - k, "\nDisallow: /*a*b*c*a*b*c$\n");
        /* the first rule outranks the others and matches what they match */
        TU_CHECK(diff_texts(h, "User-agent: *\nDisallow: /*a\n", RSC_PROFILE_GOOGLE, "x", &r, 20000) == 0 &&
                     r.outcome == RSC_DIFF_SAME,
                 "hostile: same as /*a: outcome %d", r.outcome);
        rsc_diff_result_free(&r, NULL);
        TU_CHECK(diff_texts(h, "User-agent: *\nDisallow: /*b\n", RSC_PROFILE_GOOGLE, "x", &r, 20000) == 0 &&
                     r.outcome != RSC_DIFF_SAME,
                 "hostile: outcome %d", r.outcome);
        rsc_diff_result_free(&r, NULL);
        rsc_ir *ir = NULL;
        deadset ds;
        memset(&ds, 0, sizeof ds);
        rsc_explore_options eo;
        memset(&eo, 0, sizeof eo);
        eo.max_states = 20000;
        TU_CHECK(rsc_parse(h, k, NULL, &ir) == RSC_OK && rsc_semlint(ir, &eo, on_sem, &ds) == RSC_OK,
                 "hostile: semlint");
        rsc_ir_free(ir);
        free(h);
    }
    /* profiles must agree */
    side a, b;
    if (open_side(&a, "User-agent: *\n", RSC_PROFILE_GOOGLE, "x") == 0 &&
        open_side(&b, "User-agent: *\n", RSC_PROFILE_RFC, "x") == 0) {
        TU_CHECK(rsc_diff(&a.sel, &b.sel, 1, NULL, &r) == RSC_E_ARG, "profiles differ: RSC_E_ARG");
        rsc_diff_result_free(&r, NULL);
    }
    close_side(&a);
    close_side(&b);
    TU_CHECK(rsc_diff(NULL, NULL, 1, NULL, &r) == RSC_E_ARG, "NULL: RSC_E_ARG");
}

/* ---- semantic lint: dead rules --------------------------------------------- */

static void on_sem(void *ud, const rsc_semdiag *d)
{
    deadset *ds = ud;
    if (d->code == RSC_SL_DEAD_RULE && ds->n < 64)
        ds->line[ds->n++] = d->line;
    if (d->code == RSC_SL_BUDGET)
        ds->budget = 1;
}

/* The text with line ln (1-based) replaced by "Disallow:": it never
 * decides (E.5) and, like the rule, ends the group's agent lines (F.3). */
static void drop_line(const char *in, char *out, uint32_t ln)
{
    uint32_t line = 1;
    int done = 0;
    for (; *in; in++) {
        if (*in == '\n')
            line++;
        if (line == ln && !done && *in != '\n') {
            memcpy(out, "Disallow:", 9);
            out += 9;
            done = 1;
        }
        if (line != ln || *in == '\n')
            *out++ = *in;
    }
    *out = 0;
}

/* Every rule lint calls dead decides no path (brute force: the matcher
 * never names its line) and can be removed without any verdict changing
 * (rsc_diff "same" for every agent, complete). */
static void lint_round(rsc_profile prof, const char *alpha, const char *brute_bytes, size_t L, int *n_dead)
{
    char ta[1024], tb[1100];
    if (alpha)
        gen(ta, sizeof ta, alpha);
    else
        gen_stars(ta, sizeof ta);
    rsc_ir *ir = NULL;
    rsc_parse_options po = {prof, NULL, NULL};
    if (rsc_parse(ta, strlen(ta), &po, &ir) != RSC_OK) {
        TU_CHECK(0, "parse failed");
        return;
    }
    deadset ds;
    memset(&ds, 0, sizeof ds);
    TU_CHECK(rsc_semlint(ir, NULL, on_sem, &ds) == RSC_OK && !ds.budget, "semlint failed");
    rsc_ir_free(ir);
    static const char *const agents[] = {"x", "y", "z"};
    for (size_t k = 0; k < ds.n; k++) {
        (*n_dead)++;
        drop_line(ta, tb, ds.line[k]);
        for (size_t g = 0; g < 3; g++) {
            side a, b;
            if (open_side(&a, ta, prof, agents[g]) != 0 || open_side(&b, tb, prof, agents[g]) != 0) {
                TU_CHECK(0, "compile failed");
                continue;
            }
            rsc_diff_result r;
            TU_CHECK(rsc_diff(&a.sel, &b.sel, 1, NULL, &r) == RSC_OK && r.outcome == RSC_DIFF_SAME && r.complete,
                     "dead line %u removed changes agent %s\n%s", ds.line[k], agents[g], ta);
            rsc_diff_result_free(&r, NULL);
            /* brute force: the line never decides */
            size_t nb = strlen(brute_bytes);
            char path[16];
            for (size_t len = 1; len <= L; len++) {
                size_t total = 1;
                for (size_t i = 1; i < len; i++)
                    total *= nb;
                for (size_t idx = 0; idx < total; idx++) {
                    size_t v = idx;
                    path[0] = '/';
                    for (size_t i = 1; i < len; i++)
                        path[i] = brute_bytes[v % nb], v /= nb;
                    rsc_match m;
                    rsc_match_path(&a.sel, path, len, &m);
                    if (m.decided && m.line == ds.line[k]) {
                        TU_CHECK(0, "dead line %u decides '%.*s' for %s\n%s", ds.line[k], (int)len, path,
                                 agents[g], ta);
                        len = L, idx = total;
                    }
                }
            }
            close_side(&a);
            close_side(&b);
        }
    }
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 3000;
    fixed_cases();
    int nd = 0, ns = 0;
    for (int i = 0; i < rounds; i++)
        random_round(RSC_PROFILE_GOOGLE, "/ab*", "/abc", 6, &nd, &ns);
    for (int i = 0; i < rounds / 3; i++)
        random_round(RSC_PROFILE_RFC, "/a%41", "/a%41c", 5, &nd, &ns);
    for (int i = 0; i < rounds / 3; i++) /* shared suffixes, several stars */
        random_round(RSC_PROFILE_GOOGLE, NULL, "/abc", 7, &nd, &ns);
    int dead = 0;
    for (int i = 0; i < rounds / 3; i++)
        lint_round(RSC_PROFILE_GOOGLE, "/ab*", "/abc", 6, &dead);
    for (int i = 0; i < rounds / 6; i++)
        lint_round(RSC_PROFILE_GOOGLE, NULL, "/abc", 7, &dead);
    for (int i = 0; i < rounds / 10; i++)
        lint_round(RSC_PROFILE_RFC, "/a%41", "/a%41c", 5, &dead);
    printf("diff vs brute force: %d different, %d same; %d dead rules checked; %d failures\n", nd, ns, dead,
           tu_failures);
    TU_CHECK(dead > rounds / 20, "dead rules exercised");
    TU_CHECK(nd > rounds / 10 && ns > rounds / 20, "both outcomes exercised");
    return tu_failures ? 1 : 0;
}
