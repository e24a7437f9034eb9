/* SPDX-License-Identifier: Apache-2.0 */
/* Corpus URL test: for every URL list of ../shared/corpus/urls-index.tsv,
 * compile the robots.txt of the same crawl (column robots_same_crawl_2019,
 * else robots_primary) and check every URL for a crawler named by many
 * files (Googlebot) and one that only global groups apply to
 * (SomeRandomBot): the library's verdict and deciding line must equal the
 * reference matcher's (m non-NULL: the programs), and so must, with m NULL,
 * the programs (rsc_selection_use) and the selection as rsc_select() gives
 * it: the blob's DFA, or the programs for a rule set over the compiler's
 * DFA budget (both counts are printed).
 * Usage: corpus_urls CORPUS_DIR. Exit 77 when the corpus is absent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_robots.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

static long n_checks, n_disallowed, n_urls, n_lists, n_no_robots, n_accel_checks;
static long n_dfa_sel, n_dfa_over, n_dfa_checks;

static void check_list(const char *corpus, const char *robots_rel, const char *urls_rel)
{
    char path[4096];
    size_t blen = 0, ulen = 0;
    snprintf(path, sizeof path, "%s/%s", corpus, robots_rel);
    char *body = tu_read_file(path, &blen);
    snprintf(path, sizeof path, "%s/%s", corpus, urls_rel);
    char *urls = tu_read_file(path, &ulen);
    TU_CHECK(body && urls, "cannot read %s or %s", robots_rel, urls_rel);
    if (!body || !urls) {
        free(body);
        free(urls);
        return;
    }
    n_lists++;
    rsc_blob blob = {NULL, 0};
    rsc_program prog;
    rsc_status st = rsc_compile(body, blen, NULL, &blob);
    TU_CHECK(st == RSC_OK, "%s: rsc_compile: %s", robots_rel, rsc_strerror(st));
    if (st == RSC_OK) {
        rsc_load_error err = {0, NULL};
        st = rsc_load(&prog, blob.data, blob.size, &err);
        TU_CHECK(st == RSC_OK, "%s: rsc_load: %s at %zu", robots_rel, rsc_strerror(st),
                 err.offset);
    }
    ref_robots rr;
    int ref_ok = ref_parse(&rr, body, blen, 0) == 0;
    TU_CHECK(ref_ok, "out of memory");
    static const char *const bots[] = {"Googlebot", "SomeRandomBot"};
    for (size_t b = 0; st == RSC_OK && ref_ok && b < 2; b++) {
        rsc_bytes ag = {bots[b], strlen(bots[b])};
        ref_str rag = {bots[b], strlen(bots[b])};
        rsc_selection sel;
        rsc_status ss = rsc_select(&prog, &ag, 1, &sel);
        TU_CHECK(ss == RSC_OK, "%s: rsc_select: %s", robots_rel, rsc_strerror(ss));
        if (ss != RSC_OK)
            continue;
        /* with m NULL: the programs (rsc_selection_use), and rsc_select's
         * engine, the blob's DFA when the rule set has one */
        rsc_selection asel = sel, dsel = sel;
        TU_CHECK(rsc_selection_use(&asel, RSC_ENGINE_PROGRAMS) == RSC_OK &&
                     rsc_selection_engine(&asel, NULL) == RSC_ENGINE_PROGRAMS,
                 "%s: rsc_selection_use", robots_rel);
        const int ds = rsc_selection_engine(&dsel, NULL) == RSC_ENGINE_DFA;
        n_dfa_sel += ds, n_dfa_over += !ds;
        int reported = 0;
        for (char *p = urls; *p;) {
            char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            if (n && p[n - 1] == '\r')
                n--;
            if (n > 0) {
                if (b == 0)
                    n_urls++;
                rsc_match m;
                memset(&m, 0, sizeof m);
                int a = rsc_match_url(&sel, p, n, &m);
                ref_verdict rv = ref_check_parsed(&rr, &rag, 1, p, n, 0);
                n_checks++;
                n_disallowed += !a;
                int same = a == rv.allowed && m.decided == (rv.line != 0) &&
                           (!m.decided || (int)m.line == rv.line);
                if (!same && reported++ < 3)
                    TU_CHECK(same, "%s (%s) %.*s: library %d (line %u), reference %d (line %d)",
                             robots_rel, bots[b], (int)n, p, a, (unsigned)m.line,
                             rv.allowed, rv.line);
                else if (!same)
                    tu_failures++;
                int aa = rsc_match_url(&asel, p, n, NULL);
                n_accel_checks++;
                if (aa != a && reported++ < 3)
                    TU_CHECK(0, "%s (%s) %.*s: programs with m NULL %d, with m %d", robots_rel,
                             bots[b], (int)n, p, aa, a);
                else if (aa != a)
                    tu_failures++;
                int ad = rsc_match_url(&dsel, p, n, NULL); /* the DFA, or over budget the programs */
                n_dfa_checks += ds;
                if (ad != a && reported++ < 3)
                    TU_CHECK(0, "%s (%s) %.*s: DFA %d, programs %d", robots_rel, bots[b], (int)n,
                             p, ad, a);
                else if (ad != a)
                    tu_failures++;
            }
            p = e ? e + 1 : p + n;
        }
    }
    if (ref_ok)
        ref_free(&rr);
    if (blob.data)
        rsc_blob_free(&blob, NULL);
    free(body);
    free(urls);
}

int main(int argc, char **argv)
{
    char path[4096];
    if (argc < 2 || !tu_dir_exists(argv[1])) {
        printf("corpus not found (%s): skipped\n", argc < 2 ? "no argument" : argv[1]);
        return 77;
    }
    snprintf(path, sizeof path, "%s/urls-index.tsv", argv[1]);
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("corpus has no urls-index.tsv: skipped\n");
        return 77;
    }
    char *line;
    int header = 1;
    while ((line = tu_getline(f)) != NULL) {
        char *fl[8];
        size_t nf = tu_split_tabs(line, fl, 8);
        if (header || nf < 6) {
            header = 0;
            free(line);
            continue;
        }
        const char *robots = fl[4];
        char rp[4096];
        snprintf(rp, sizeof rp, "%s/%s", argv[1], robots);
        FILE *t = (robots[0] && strcmp(robots, "-") != 0) ? fopen(rp, "rb") : NULL;
        if (t)
            fclose(t);
        else
            robots = fl[5];
        if (!robots[0] || strcmp(robots, "-") == 0) { /* no robots.txt known */
            n_no_robots++;
            free(line);
            continue;
        }
        check_list(argv[1], robots, fl[0]);
        free(line);
    }
    fclose(f);
    printf("%ld URL lists (%ld more without a robots.txt), %ld URLs, %ld checks "
           "(%ld disallowed), %ld more through the programs with m NULL\n", n_lists, n_no_robots, n_urls,
           n_checks, n_disallowed, n_accel_checks);
    printf("DFA: %ld selections on the blob's DFA, %ld on the programs (over the compiler's "
           "budget); %ld checks through a DFA\n", n_dfa_sel, n_dfa_over, n_dfa_checks);
    TU_CHECK(n_lists > 0 && n_checks > 0, "nothing checked");
    TU_CHECK(n_dfa_sel > 4 * n_dfa_over, "the DFA must serve most selections");
    return tu_report("corpus_urls", (int)(n_checks - tu_failures));
}
