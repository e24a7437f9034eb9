/* SPDX-License-Identifier: Apache-2.0 */
/* Library conformance: every verdict row of the conformance data through
 * the library, two ways:
 *   (a) rsc_compile -> rsc_load -> rsc_select -> rsc_match_url in memory;
 *   (b) the blob written to a file, read back, loaded and matched.
 * The verdict must be the expected one; the deciding rule (line, allow or
 * disallow, priority) must also be the one the reference matcher reports.
 * The verdict alone (m NULL) must also be the expected one on both engines:
 * the blob's DFA and the programs; the selections on each are counted.
 * Usage: conformance CONFORMANCE_DIR TMPDIR. Exit 77 without the data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_robots.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

static int passed;
static long n_dfa, n_dfa_over; /* selections on the blob's DFA, and on the programs */

/* Matches one row against a loaded program; returns 1 when all is well. */
static int check_program(const tu_case *c, const rsc_program *prog, const char *how)
{
    rsc_bytes ag = {c->agent, c->agent_len};
    rsc_selection sel;
    rsc_status st = rsc_select(prog, &ag, 1, &sel);
    if (st != RSC_OK) {
        TU_CHECK(st == RSC_OK, "%s (%s): rsc_select: %s", c->id, how, rsc_strerror(st));
        return 0;
    }
    rsc_match m;
    memset(&m, 0, sizeof m);
    int allowed = rsc_match_url(&sel, c->url, c->url_len, &m);
    int ok = 1;
    if (allowed != c->expected || m.allowed != allowed) {
        TU_CHECK(0, "%s (%s): verdict %d (m.allowed %d), expected %d", c->id, how, allowed,
                 m.allowed, c->expected);
        ok = 0;
    }
    ref_str rag = {c->agent, c->agent_len};
    ref_verdict rv = ref_check((const char *)c->body, c->body_len, &rag, 1, c->url,
                               c->url_len, 0, 0);
    int rdecided = rv.line != 0;
    if (m.decided != rdecided || (rdecided && ((int)m.line != rv.line ||
                                               m.rule_allow != rv.rule_allow ||
                                               (int)m.priority != rv.priority))) {
        TU_CHECK(0, "%s (%s): deciding rule decided=%d line=%u allow=%d prio=%u, "
                 "reference decided=%d line=%d allow=%d prio=%d",
                 c->id, how, m.decided, (unsigned)m.line, m.rule_allow,
                 (unsigned)m.priority, rdecided, rv.line, rv.rule_allow, rv.priority);
        ok = 0;
    }
    if (m.decided && m.pattern == NULL) {
        TU_CHECK(0, "%s (%s): deciding rule without pattern", c->id, how);
        ok = 0;
    }
    /* the verdict alone (m NULL): the blob's DFA when the selection runs
     * one (rsc_select's choice), and the programs (rsc_selection_use) */
    const int eng = rsc_selection_engine(&sel, NULL);
    n_dfa += eng == RSC_ENGINE_DFA, n_dfa_over += eng != RSC_ENGINE_DFA;
    if (rsc_match_url(&sel, c->url, c->url_len, NULL) != c->expected) {
        TU_CHECK(0, "%s (%s): the %s's verdict differs, expected %d", c->id, how,
                 eng == RSC_ENGINE_DFA ? "DFA" : "programs", c->expected);
        ok = 0;
    }
    rsc_selection psel = sel;
    if (rsc_selection_use(&psel, RSC_ENGINE_PROGRAMS) != RSC_OK ||
        rsc_selection_engine(&psel, NULL) != RSC_ENGINE_PROGRAMS ||
        rsc_match_url(&psel, c->url, c->url_len, NULL) != c->expected) {
        TU_CHECK(0, "%s (%s): the programs' verdict with m NULL differs", c->id, how);
        ok = 0;
    }
    return ok;
}

static void run_case(const tu_case *c, const char *tmpdir)
{
    rsc_blob blob = {NULL, 0};
    rsc_status st = rsc_compile(c->body, c->body_len, NULL, &blob);
    if (st != RSC_OK) {
        TU_CHECK(st == RSC_OK, "%s: rsc_compile: %s", c->id, rsc_strerror(st));
        return;
    }
    /* (a) in memory */
    rsc_program prog;
    rsc_load_error err = {0, NULL};
    st = rsc_load(&prog, blob.data, blob.size, &err);
    int ok = 0;
    if (st != RSC_OK)
        TU_CHECK(st == RSC_OK, "%s: rsc_load: %s at %zu (%s)", c->id, rsc_strerror(st),
                 err.offset, err.what ? err.what : "");
    else
        ok = check_program(c, &prog, "memory");

    /* (b) through a file */
    char path[4096];
    snprintf(path, sizeof path, "%s/conformance.rbc", tmpdir);
    FILE *f = fopen(path, "wb");
    TU_CHECK(f != NULL, "cannot write %s", path);
    if (f) {
        size_t w = fwrite(blob.data, 1, blob.size, f);
        int cl = fclose(f);
        TU_CHECK(w == blob.size && cl == 0, "short write to %s", path);
        size_t len = 0;
        char *data = tu_read_file(path, &len);
        TU_CHECK(data && len == blob.size && memcmp(data, blob.data, len) == 0,
                 "%s: blob read back differs", c->id);
        if (data && len == blob.size) {
            rsc_program p2;
            st = rsc_load(&p2, data, len, &err);
            if (st != RSC_OK) {
                TU_CHECK(st == RSC_OK, "%s: rsc_load (file): %s", c->id, rsc_strerror(st));
                ok = 0;
            } else {
                ok &= check_program(c, &p2, "file");
            }
        } else {
            ok = 0;
        }
        free(data);
        remove(path);
    }
    rsc_blob_free(&blob, NULL);
    passed += ok;
}

int main(int argc, char **argv)
{
    if (argc < 3 || !tu_dir_exists(argv[1])) {
        printf("conformance data not found (%s): skipped\n", argc < 2 ? "no argument" : argv[1]);
        return 77;
    }
    static const char *files[] = {"google_cases.tsv", "google_extra_cases.tsv"};
    tu_case *cases = NULL;
    size_t n = 0;
    for (size_t i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], files[i]);
        long rows = tu_load_cases(path, &cases, &n);
        TU_CHECK(rows > 0, "%s: no rows", path);
    }
    for (size_t i = 0; i < n; i++)
        run_case(&cases[i], argv[2]);
    printf("%zu rows; %ld selections matched through the blob's DFA, %ld through the programs "
           "(a rule set over the compiler's DFA budget); every one through the programs too\n",
           n, n_dfa, n_dfa_over);
    TU_CHECK(n_dfa > 4 * n_dfa_over, "most rows should run a DFA: %ld of %ld", n_dfa,
             n_dfa + n_dfa_over);
    tu_free_cases(cases, n);
    return tu_report("conformance", passed);
}
