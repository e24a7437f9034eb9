/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: diff and semantic lint (the explorer, compiler/explore.c on
 * the subset core). Any bytes as two robots.txt files A and B: the first
 * byte picks the profile (bit 0); the rest is A, then, after the first NUL
 * byte, B (without a NUL, B is A with its (byte 1 mod 8)-th rule line's
 * kind flipped). Each is capped at 4 KiB. For the agents of both files,
 * "*" and "googlebot", under small budgets (a diff may answer "unknown",
 * never a guess):
 *  - rsc_diff(A, A) is never "different";
 *  - rsc_diff(A, B) succeeds (a witness that does not re-check would be
 *    RSC_E_CORRUPT), every witness's verdicts are the matcher's, and when
 *    it says "same", paths made from both files' patterns (each '*' as ""
 *    and as "x/", a final '$' dropped, with "x" appended and cut in half)
 *    get the same verdict on both;
 *  - the rules rsc_semlint() calls dead (at most 16), replaced by
 *    "Disallow:" (which never decides), leave A the same for every agent.
 */
#include <string.h>
#include <strings.h>

#include "fuzz.h"
#include "robotsc/compiler.h"
#include "robotsc/ir.h"
#include "robotsc/runtime.h"
#include "testutil.h"

#define MAX_FILE 4096
#define MAX_AGENTS 10
#define MAX_DEAD 16
#define MAX_PATHS 96

typedef struct side {
    rsc_blob blob;
    rsc_program prog;
    int ok;
} side;

static void open_side(side *s, const char *t, size_t n, int rfc)
{
    rsc_compile_options o;
    memset(&o, 0, sizeof o);
    o.profile = rfc ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
    memset(s, 0, sizeof *s);
    if (rsc_compile(t, n, &o, &s->blob) != RSC_OK)
        return;
    FUZZ_ASSERT(rsc_load(&s->prog, s->blob.data, s->blob.size, NULL) == RSC_OK);
    s->ok = 1;
}

static void close_side(side *s)
{
    if (s->ok)
        rsc_blob_free(&s->blob, NULL);
}

static rsc_explore_options budget(void)
{
    rsc_explore_options o;
    memset(&o, 0, sizeof o);
    o.max_states = 4000;
    o.max_words = 1u << 18;
    return o;
}

/* Whether t[i..n) starts with w, in any case. */
static int starts(const char *t, size_t n, size_t i, const char *w)
{
    size_t k = strlen(w);
    return n - i >= k && strncasecmp(t + i, w, k) == 0;
}

/* Paths made from the rule lines of t (their values). */
typedef struct paths {
    char buf[MAX_PATHS][160];
    size_t len[MAX_PATHS], n;
} paths;

static void add_path(paths *p, const char *s, size_t n)
{
    if (p->n >= MAX_PATHS || n == 0 || s[0] != '/' || n >= sizeof p->buf[0])
        return;
    for (size_t i = 0; i < n; i++)
        if (s[i] == 0 || s[i] == '#')
            return; /* no URL's path holds them (spec G) */
    memcpy(p->buf[p->n], s, n);
    p->len[p->n++] = n;
}

static void paths_of(paths *p, const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i && t[i - 1] != '\n' && t[i - 1] != '\r')
            continue;
        size_t k = starts(t, n, i, "disallow:") ? 9 : starts(t, n, i, "allow:") ? 6 : 0;
        if (!k)
            continue;
        size_t a = i + k;
        while (a < n && (t[a] == ' ' || t[a] == '\t'))
            a++;
        size_t e = a;
        while (e < n && t[e] != '\n' && t[e] != '\r' && t[e] != '#' && t[e] != ' ')
            e++;
        if (e > a && t[e - 1] == '$')
            e--;
        for (int star = 0; star < 2; star++) {
            char s[128];
            size_t m = 0;
            for (size_t j = a; j < e && m + 2 < 100; j++) {
                if (t[j] != '*')
                    s[m++] = t[j];
                else if (star)
                    s[m++] = 'x', s[m++] = '/';
            }
            add_path(p, s, m);
            s[m] = 'x';
            add_path(p, s, m + 1);
            add_path(p, s, m / 2 + 1);
        }
    }
}

/* The agents of both blobs (tokens), "*" and "googlebot". */
static size_t agents_of(const side *a, const side *b, rsc_bytes *ag)
{
    size_t n = 0;
    for (int k = 0; k < 2; k++) {
        const side *s = k ? b : a;
        for (size_t i = 0; s->ok && n < MAX_AGENTS - 2 && rsc_blob_agent(&s->prog, i, &ag[n]); i++)
            if (ag[n].len)
                n++;
    }
    ag[n].ptr = "*", ag[n].len = 1, n++;
    ag[n].ptr = "googlebot", ag[n].len = 9, n++;
    return n;
}

/* Diffs a and b for every agent; same: they must not differ. */
static void diff_all(const side *a, const side *b, const paths *p, int same)
{
    rsc_bytes ag[MAX_AGENTS];
    size_t na = agents_of(a, b, ag);
    rsc_explore_options o = budget();
    for (size_t k = 0; k < na; k++) {
        rsc_selection sa, sb;
        if (rsc_select(&a->prog, &ag[k], 1, &sa) != RSC_OK || rsc_select(&b->prog, &ag[k], 1, &sb) != RSC_OK)
            continue;
        rsc_diff_result r;
        rsc_status st = rsc_diff(&sa, &sb, 4, &o, &r);
        if (st != RSC_OK) {
            fprintf(stderr, "diff: agent '%.*s': %s\n", (int)ag[k].len, ag[k].ptr, rsc_strerror(st));
            abort();
        }
        FUZZ_ASSERT(!same || r.outcome != RSC_DIFF_DIFFERENT);
        FUZZ_ASSERT(r.outcome != RSC_DIFF_DIFFERENT || r.n_flips > 0);
        for (size_t f = 0; f < r.n_flips; f++) {
            const rsc_flip *x = &r.flips[f];
            int va = rsc_match_path(&sa, x->path, x->len, NULL), vb = rsc_match_path(&sb, x->path, x->len, NULL);
            FUZZ_ASSERT(va != vb && va == x->old_allowed && vb == x->new_allowed);
        }
        if (r.outcome == RSC_DIFF_SAME)
            for (size_t i = 0; p && i < p->n; i++) {
                int va = rsc_match_path(&sa, p->buf[i], p->len[i], NULL);
                int vb = rsc_match_path(&sb, p->buf[i], p->len[i], NULL);
                if (va != vb) {
                    fprintf(stderr, "diff said same: agent '%.*s' path '%.*s': %d then %d\n", (int)ag[k].len,
                            ag[k].ptr, (int)p->len[i], p->buf[i], va, vb);
                    abort();
                }
            }
        rsc_diff_result_free(&r, &o);
    }
}

typedef struct dead {
    uint32_t line[MAX_DEAD];
    size_t n;
} dead;

static void on_diag(void *ud, const rsc_semdiag *d)
{
    dead *dl = ud;
    if (d->code == RSC_SL_DEAD_RULE && dl->n < MAX_DEAD)
        dl->line[dl->n++] = d->line;
}

static char mut[MAX_FILE + 16], cut[2 * MAX_FILE + 16 * MAX_DEAD];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const int rfc = data[0] & 1;
    const char *a = (const char *)data + 1, *b = NULL;
    size_t na = size - 1, nb = 0;
    const char *nul = memchr(a, 0, na);
    if (nul) {
        b = nul + 1;
        nb = na - (size_t)(b - a);
        na = (size_t)(nul - a);
    }
    if (na > MAX_FILE)
        na = MAX_FILE;
    if (nb > MAX_FILE)
        nb = MAX_FILE;
    if (!b) { /* the (data[1] mod 8)-th rule line's kind flipped */
        memcpy(mut, a, na);
        unsigned want = na ? (unsigned char)a[0] % 8 : 0, seen = 0;
        for (size_t i = 0; i < na; i++) {
            if (i && mut[i - 1] != '\n')
                continue;
            if (starts(mut, na, i, "disallow:") && seen++ == want) {
                memcpy(mut + i, "Allow   :", 9); /* the same length */
                break;
            }
            if (starts(mut, na, i, "allow:") && seen++ == want) {
                memcpy(mut + i, "#", 1);
                break;
            }
        }
        b = mut, nb = na;
    }
    side sa, sb;
    open_side(&sa, a, na, rfc);
    open_side(&sb, b, nb, rfc);
    if (sa.ok) {
        diff_all(&sa, &sa, NULL, 1);
        if (sb.ok) {
            paths *p = calloc(1, sizeof *p);
            FUZZ_ASSERT(p != NULL);
            paths_of(p, a, na);
            paths_of(p, b, nb);
            diff_all(&sa, &sb, p, 0);
            free(p);
        }
        rsc_ir *ir = NULL;
        rsc_parse_options po;
        memset(&po, 0, sizeof po);
        po.profile = rfc ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
        if (rsc_parse(a, na, &po, &ir) == RSC_OK) {
            dead dl;
            memset(&dl, 0, sizeof dl);
            rsc_explore_options o = budget();
            FUZZ_ASSERT(rsc_semlint(ir, &o, on_diag, &dl) == RSC_OK);
            rsc_ir_free(ir);
            if (dl.n) {
                side sc;
                open_side(&sc, cut, tu_drop_lines(a, na, dl.line, dl.n, cut), rfc);
                FUZZ_ASSERT(sc.ok);
                diff_all(&sa, &sc, NULL, 1);
                close_side(&sc);
            }
        }
    }
    close_side(&sa);
    close_side(&sb);
    return 0;
}
