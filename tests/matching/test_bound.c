/* SPDX-License-Identifier: Apache-2.0 */
/* The matcher's bound, counted (docs/LIMITS.md, "Matching"): the runtime
 * is built with RSC_COUNT_STEPS, which counts every unit of work of a match
 * (a trie node, an automaton move or failure link, an output row, an edge
 * scanned or searched). For files of 1 to 50,000 wildcard rules and for the
 * adversarial shapes of the issue tracker (thousands of rules on one
 * segment alphabet, long runs of one byte, rules outranked by a literal,
 * many multi-segment rules sharing a segment, nested suffixes, nested
 * prefixes, one rule of 300 segments), every path checked must cost at most
 * STEPS_PER_BYTE steps per path byte (+1) per program of the selection,
 * and the selection has one program, or for rule sets over the budgets of
 * format.h (note [split] of compiler/compile.c) the number stated. Verdicts
 * are compared with the reference matcher on a sample, in this build too.
 * Each path is matched again through the programs with m NULL
 * (rsc_selection_use), under the same bound and with the same verdict. And
 * through the selection as rsc_select() gives it: the blob's DFA (format
 * 5), at most one step a path byte and one at the end, or, for a set over
 * the compiler's DFA budget, the programs' bound; the same verdict.
 * A time is never asserted. With the corpus present, the distinct wildcard
 * rules of all its files form one more file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_robots.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

extern size_t rsc_steps;

/* What the budgets of format.h give (FORMAT.md, Matching): the walk, at
 * most two automaton moves a byte amortised, and the outputs ending at a
 * byte, pruned by rank. The measured worst case of these files is printed;
 * this is the line a change must not cross. */
#define STEPS_PER_BYTE 48

static unsigned long long rng = 20261125;
static unsigned rnd(unsigned n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((rng >> 33) % n);
}

static void rnd_word(tu_buf *b, const char *alpha, unsigned len)
{
    size_t na = strlen(alpha);
    for (unsigned i = 0; i < len; i++)
        tu_buf_put(b, &alpha[rnd((unsigned)na)], 1);
}

typedef struct fcase {
    const char *name;
    tu_buf body;
    const char *alpha; /* path bytes */
    tu_buf extra;      /* more paths, NUL-separated */
    uint32_t maxprog;  /* programs the selection may have (0: 1) */
} fcase;

static double worst_ratio;
static char worst_name[64]; /* a copy: some names live in a caller's buffer */

/* Checks every path: its steps, and the verdict against the reference for
 * some of them. */
static void run_case(fcase *fc)
{
    rsc_blob blob;
    rsc_program prog;
    rsc_selection sel;
    rsc_bytes agent = {"foo", 3};
    ref_str ra = {"foo", 3};
    rsc_status st = rsc_compile(fc->body.p, fc->body.n, NULL, &blob);
    TU_CHECK(st == RSC_OK, "%s: compile: %s", fc->name, rsc_strerror(st));
    if (st != RSC_OK)
        return;
    st = rsc_load(&prog, blob.data, blob.size, NULL);
    TU_CHECK(st == RSC_OK, "%s: load: %s", fc->name, rsc_strerror(st));
    if (st != RSC_OK || rsc_select(&prog, &agent, 1, &sel) != RSC_OK) {
        rsc_blob_free(&blob, NULL);
        return;
    }
    ref_robots rr;
    TU_CHECK(ref_parse(&rr, fc->body.p, fc->body.n, 0) == 0, "%s: reference parse", fc->name);
    uint32_t progs = sel.n_roots;
    uint32_t maxprog = fc->maxprog ? fc->maxprog : 1;
    TU_COUNT(progs <= maxprog, "%s: %u programs selected (at most %u)", fc->name, progs,
             maxprog);
    /* the same selection on the programs (rsc_selection_use), with m NULL:
     * the same bound; and as rsc_select gives it, the blob's DFA when the
     * rule set has one: one step a path byte and one at the end, at most;
     * a set over the compiler's DFA budget runs the programs */
    rsc_selection asel[1] = {sel};
    TU_CHECK(rsc_selection_use(&asel[0], RSC_ENGINE_PROGRAMS) == RSC_OK, "%s: rsc_selection_use",
             fc->name);
    rsc_selection dsel = sel;
    rsc_engine_info di;
    const int ds = rsc_selection_engine(&dsel, &di) == RSC_ENGINE_DFA ? RSC_OK : RSC_E_LIMIT;
    const int dpartial = 0; /* a blob holds whole DFAs only */
    double worst = 0, aworst = 0, dworst = 0;
    size_t npaths = 0, bytes = 0, steps_all = 0, asteps_all = 0, dsteps_all = 0;
    tu_buf path = {0};
    const char *x = fc->extra.p, *xend = fc->extra.p + fc->extra.n;
    for (int k = 0; k < 200; k++) {
        path.n = 0;
        if (x && x < xend) { /* the case's own paths first */
            size_t l = strlen(x);
            tu_buf_put(&path, x, l);
            x += l + 1;
        } else {
            unsigned len = k < 20 ? (unsigned)k : 1 + rnd(k < 150 ? 200 : 4096);
            tu_buf_puts(&path, "/");
            rnd_word(&path, fc->alpha, len);
        }
        rsc_match m;
        rsc_steps = 0;
        int allowed = rsc_match_path(&sel, path.p, path.n, &m);
        size_t steps = rsc_steps;
        double ratio = (double)steps / (double)(path.n + 1) / (progs ? progs : 1);
        if (ratio > worst)
            worst = ratio;
        npaths++, bytes += path.n, steps_all += steps;
        TU_COUNT(steps <= (size_t)STEPS_PER_BYTE * (path.n + 1) * (progs ? progs : 1),
                 "%s: %zu steps for a path of %zu bytes (%u programs)", fc->name, steps, path.n,
                 progs);
        for (int j = 0; j < 1; j++) {
            rsc_match am;
            memset(&am, 0, sizeof am);
            rsc_steps = 0;
            int aa = rsc_match_path(&asel[j], path.p, path.n, NULL);
            am.line = m.line;
            size_t as = rsc_steps;
            double ar = (double)as / (double)(path.n + 1) / (progs ? progs : 1);
            if (ar > aworst)
                aworst = ar;
            if (j == 0)
                asteps_all += as;
            TU_COUNT(as <= (size_t)STEPS_PER_BYTE * (path.n + 1) * (progs ? progs : 1),
                     "%s: %zu steps on the programs (m NULL) for a path of %zu bytes", fc->name, as,
                     path.n);
            TU_COUNT(aa == allowed && am.line == m.line,
                     "%s: path of %zu bytes: programs (m NULL) %d, with m %d", fc->name, path.n, aa,
                     allowed);
        }
        rsc_steps = 0;
        int da = rsc_match_path(&dsel, path.p, path.n, NULL);
        size_t dsteps = rsc_steps;
        dsteps_all += dsteps;
        /* per byte, and over the budget per program too, as the programs' figure */
        double dr = (double)dsteps / (double)(path.n + 1) /
                    ((ds == RSC_OK && !dpartial) || !progs ? 1 : progs);
        if (dr > dworst)
            dworst = dr;
        TU_COUNT(da == allowed, "%s: path of %zu bytes: DFA %d, programs %d", fc->name, path.n,
                 da, allowed);
        if (ds == RSC_OK && !dpartial)
            TU_COUNT(dsteps <= path.n + 1, "%s: %zu DFA steps for a path of %zu bytes",
                     fc->name, dsteps, path.n);
        else if (ds == RSC_OK) /* a state left unbuilt: the programs from the start */
            TU_COUNT(dsteps <= path.n + 1 + (size_t)STEPS_PER_BYTE * (path.n + 1) * progs,
                     "%s: %zu steps on a partial DFA for a path of %zu bytes", fc->name,
                     dsteps, path.n);
        else
            TU_COUNT(dsteps <= (size_t)STEPS_PER_BYTE * (path.n + 1) * (progs ? progs : 1),
                     "%s: %zu steps over the DFA budget for a path of %zu bytes", fc->name,
                     dsteps, path.n);
        if (k % 7 == 0 || path.n < 64) {
            ref_verdict v = ref_check_parsed(&rr, &ra, 1, path.p, path.n, 1);
            TU_COUNT(v.allowed == allowed && v.line == (int)m.line,
                     "%s: path of %zu bytes: %d line %u, reference %d line %d", fc->name, path.n,
                     allowed, m.line, v.allowed, v.line);
        }
    }
    printf("%-26s %8zu bytes  %u programs  %6zu paths  %.2f steps/byte (worst %.2f); "
           "programs, m NULL %.2f (worst %.2f); DFA %s %.2f (worst %.2f)\n",
           fc->name, fc->body.n, progs, npaths, (double)steps_all / (double)(bytes + npaths), worst,
           (double)asteps_all / (double)(bytes + npaths), aworst,
           ds != RSC_OK ? "over budget" : dpartial ? "partial" : "in the blob",
           (double)dsteps_all / (double)(bytes + npaths), dworst);
    if (ds == RSC_OK)
        printf("%-26s DFA %u states, %u cells, %zu bytes\n", "", di.states, di.classes, di.bytes);
    if (worst > worst_ratio)
        worst_ratio = worst, snprintf(worst_name, sizeof worst_name, "%s", fc->name);
    free(path.p);
    ref_free(&rr);
    rsc_blob_free(&blob, NULL);
}

static void add_path(fcase *fc, const char *s)
{
    tu_buf_put(&fc->extra, s, strlen(s) + 1);
}

static void add_run(fcase *fc, const char *head, char c, size_t n, const char *tail)
{
    tu_buf_puts(&fc->extra, head);
    for (size_t i = 0; i < n; i++)
        tu_buf_put(&fc->extra, &c, 1);
    tu_buf_put(&fc->extra, tail, strlen(tail) + 1);
}

static void done(fcase *fc)
{
    run_case(fc);
    free(fc->body.p);
    free(fc->extra.p);
}

/* Corpus: the distinct wildcard rules of every file, in one group. */
static void corpus_rules(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/index.tsv", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("corpus not found at %s: its wildcard rules are not checked here\n", dir);
        return;
    }
    fcase fc = {"corpus-wildcard-rules", {0}, "/abcdefghijklmnopqrstuvwxyz0123456789-_.?=&%", {0}, 1};
    tu_buf_puts(&fc.body, "User-agent: *\n");
    char *line;
    size_t nfiles = 0, nrules = 0;
    while ((line = tu_getline(f)) != NULL) {
        char *fields[4];
        if (tu_split_tabs(line, fields, 4) < 2 || strncmp(fields[0], "robots/", 7) != 0) {
            free(line);
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, fields[0]);
        free(line);
        size_t len;
        char *body = tu_read_file(path, &len);
        if (!body)
            continue;
        nfiles++;
        for (char *p = body, *e; p < body + len; p = e + 1) {
            e = memchr(p, '\n', (size_t)(body + len - p));
            if (!e)
                e = body + len;
            size_t l = (size_t)(e - p);
            while (l && (p[l - 1] == '\r' || p[l - 1] == ' '))
                l--;
            if (l > 10 && l < 200 && (strncmp(p, "Disallow: /", 11) == 0 || strncmp(p, "disallow: /", 11) == 0) &&
                memchr(p + 10, '*', l - 10) && !memchr(p, '#', l) && fc.body.n < 480000) {
                tu_buf_put(&fc.body, p, l);
                tu_buf_puts(&fc.body, "\n");
                nrules++;
            }
        }
        free(body);
    }
    fclose(f);
    printf("corpus: %zu wildcard rules from %zu files\n", nrules, nfiles);
    done(&fc);
}

int main(int argc, char **argv)
{
    /* 1, 10, ..., 50,000 wildcard rules, one segment each as nearly all
     * real ones: random segments after random prefixes, some anchored */
    static const unsigned counts[] = {1, 10, 100, 1000, 10000, 50000};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "wildcards-%u", counts[i]);
        fcase fc = {name, {0}, "abcdefgh/.?=", {0}, 1};
        tu_buf_puts(&fc.body, "User-agent: *\nAllow: /\n");
        for (unsigned r = 0; r < counts[i] && fc.body.n < 480000; r++) {
            tu_buf_puts(&fc.body, rnd(3) ? "Disallow: /" : "Allow: /");
            rnd_word(&fc.body, "abcdefgh", rnd(3));
            tu_buf_puts(&fc.body, "*");
            rnd_word(&fc.body, "abcdefgh/.?=", 1 + rnd(8));
            tu_buf_puts(&fc.body, rnd(5) ? "\n" : "$\n");
        }
        done(&fc);
    }
    /* the same with a third of the rules of two or three segments: every
     * RSC_MAX_INTERNAL internal nodes, or RSC_MAX_INNER edges of a segment
     * from internal nodes, may cost a program (the split halves a set) */
    static const unsigned mcounts[] = {100, 1000, 10000, 50000};
    for (size_t i = 0; i < sizeof mcounts / sizeof mcounts[0]; i++) {
        char name[64];
        unsigned multi = 0;
        snprintf(name, sizeof name, "multi-segment-%u", mcounts[i]);
        fcase fc = {name, {0}, "abcdefgh/.?=", {0}, 0};
        tu_buf_puts(&fc.body, "User-agent: *\nAllow: /\n");
        for (unsigned r = 0; r < mcounts[i] && fc.body.n < 480000; r++) {
            unsigned segs = 1 + rnd(3) / 2 + (rnd(8) == 0);
            multi += segs - 1;
            tu_buf_puts(&fc.body, rnd(3) ? "Disallow: /" : "Allow: /");
            rnd_word(&fc.body, "abcdefgh", rnd(3));
            for (unsigned k = segs; k > 0; k--) {
                tu_buf_puts(&fc.body, "*");
                rnd_word(&fc.body, "abcdefgh/.?=", 1 + rnd(6));
            }
            tu_buf_puts(&fc.body, rnd(5) ? "\n" : "$\n");
        }
        fc.maxprog = 1 + 4 * (multi / 512 + 1) * 4;
        printf("%s: %u internal edges, at most %u programs\n", name, multi, fc.maxprog);
        done(&fc);
    }
    { /* 10,000 rules "/" "*" and 24 letters a or b; 1 KB paths of a/b */
        fcase fc = {"ab24-10000", {0}, "ab", {0}, 1};
        tu_buf_puts(&fc.body, "User-agent: *\n");
        for (int r = 0; r < 10000; r++) {
            tu_buf_puts(&fc.body, "Disallow: /*");
            rnd_word(&fc.body, "ab", 24);
            tu_buf_puts(&fc.body, "\n");
        }
        for (int k = 0; k < 20; k++) {
            tu_buf p = {0};
            tu_buf_puts(&p, "/");
            rnd_word(&p, "ab", 1000);
            tu_buf_put(&p, "", 1);
            tu_buf_put(&fc.extra, p.p, p.n);
            free(p.p);
        }
        done(&fc);
    }
    { /* "/" "*" a{5000} b, 4999, 4998 a's, and 60,000 a's */
        fcase fc = {"a5000b", {0}, "ab", {0}, 1};
        tu_buf_puts(&fc.body, "User-agent: *\n");
        for (int k = 5000; k >= 4998; k--) {
            tu_buf_puts(&fc.body, "Disallow: /*");
            for (int i = 0; i < k; i++)
                tu_buf_puts(&fc.body, "a");
            tu_buf_puts(&fc.body, "b\n");
        }
        add_run(&fc, "/;ab", 'a', 60000, "");
        add_run(&fc, "/", 'a', 30000, "b");
        done(&fc);
    }
    { /* 10,000 "/" "*" qNNNNN outranked by Allow: /k{200} */
        fcase fc = {"outranked-10000", {0}, "kq0123456789", {0}, 1};
        tu_buf_puts(&fc.body, "User-agent: *\n");
        char line[64];
        for (int r = 0; r < 10000; r++) {
            snprintf(line, sizeof line, "Disallow: /*q%05d\n", r);
            tu_buf_puts(&fc.body, line);
        }
        tu_buf_puts(&fc.body, "Allow: /");
        for (int i = 0; i < 200; i++)
            tu_buf_puts(&fc.body, "k");
        tu_buf_puts(&fc.body, "\n");
        add_run(&fc, "/", 'k', 200, "/q00001q00002q00003");
        done(&fc);
    }
    { /* 2,000 two-segment rules sharing their last segment */
        fcase fc = {"shared-last-segment", {0}, "abcdx", {0}, 2 * (2000 / 64) + 1};
        tu_buf_puts(&fc.body, "User-agent: *\n");
        char line[64];
        for (int r = 0; r < 2000; r++) {
            snprintf(line, sizeof line, "Disallow: /*%c%d*x\n", "abcd"[r % 4], r);
            tu_buf_puts(&fc.body, line);
        }
        add_path(&fc, "/a1b2c3d4a5b6c7d8a9b10c11d12a13b14c15d16a17b18c19d20x");
        done(&fc);
    }
    { /* nested suffixes: "/" "*" b, ba, baa, ..., 40 of them, some anchored */
        fcase fc = {"nested-suffixes", {0}, "ab", {0}, 2 * 40 / 16 + 1};
        tu_buf_puts(&fc.body, "User-agent: *\n");
        for (int k = 1; k <= 40; k++) {
            tu_buf_puts(&fc.body, k % 2 ? "Disallow: /*b" : "Allow: /*b");
            for (int i = 0; i < k; i++)
                tu_buf_puts(&fc.body, "a");
            tu_buf_puts(&fc.body, k % 3 ? "\n" : "$\n");
        }
        add_run(&fc, "/b", 'a', 3000, "");
        done(&fc);
    }
    { /* nested literal prefixes, a wildcard rule at each: 40 root slots */
        fcase fc = {"nested-prefixes", {0}, "p/x", {0}, 2 * 40 / 16 + 1};
        tu_buf_puts(&fc.body, "User-agent: *\n");
        for (int k = 1; k <= 40; k++) {
            tu_buf_puts(&fc.body, "Disallow: /");
            for (int i = 0; i < k; i++)
                tu_buf_puts(&fc.body, "p");
            tu_buf_puts(&fc.body, "*x\n");
        }
        add_run(&fc, "/", 'p', 40, "x");
        add_run(&fc, "/", 'p', 2000, "");
        done(&fc);
    }
    { /* one rule of 300 segments (a chain program) */
        fcase fc = {"chain-300", {0}, "ab", {0}, 1};
        tu_buf_puts(&fc.body, "User-agent: *\nDisallow: /");
        for (int k = 0; k < 300; k++)
            tu_buf_puts(&fc.body, k % 2 ? "*ab" : "*a");
        tu_buf_puts(&fc.body, "\n");
        add_run(&fc, "/", 'a', 5000, "");
        done(&fc);
    }
    corpus_rules(argc > 1 ? argv[1] : "../shared/corpus");
    printf("worst: %.2f steps per byte and program (%s); the bound is %d\n", worst_ratio,
           worst_name, STEPS_PER_BYTE);
    return tu_report("matching_bound", tu_passed);
}
