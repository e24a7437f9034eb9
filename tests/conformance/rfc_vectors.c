/* SPDX-License-Identifier: Apache-2.0 */
/* RFC 9309's own examples and the rfc profile's documented choices
 * (tests/data/rfc9309_cases.tsv): each row's robots.txt compiled in both
 * profiles, loaded and matched; the rfc verdict must be the row's, and the
 * RFC reference's (tests/ref/ref_rfc.c) too, with the same deciding rule;
 * the google verdict must be the row's google column, and the google
 * reference's (so the table of differences in docs/SEMANTICS.md is
 * checked). Usage: rfc_vectors FILE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_robots.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

static int rows;

static void check(const char *id, const char *body, size_t blen, const char *agent, size_t alen,
                  const char *url, size_t ulen, int profile, int want)
{
    rsc_compile_options o;
    memset(&o, 0, sizeof o);
    o.profile = profile ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
    rsc_blob b = {NULL, 0};
    rsc_program prog;
    rsc_selection sel;
    rsc_bytes ag = {agent, alen};
    rsc_status st = rsc_compile(body, blen, &o, &b);
    if (st == RSC_OK)
        st = rsc_load(&prog, b.data, b.size, NULL);
    if (st == RSC_OK)
        st = rsc_select(&prog, &ag, 1, &sel);
    TU_CHECK(st == RSC_OK, "%s (%s): %s", id, profile ? "rfc" : "google", rsc_strerror(st));
    if (st == RSC_OK) {
        rsc_match m;
        int got = rsc_match_url(&sel, url, ulen, &m);
        ref_str ra = {agent, alen};
        ref_verdict rv = ref_check(body, blen, &ra, 1, url, ulen, profile, 0);
        TU_CHECK(got == want && rv.allowed == want, "%s (%s): library %d, reference %d, want %d",
                 id, profile ? "rfc" : "google", got, rv.allowed, want);
        TU_CHECK(m.decided == (rv.line != 0) &&
                     (!m.decided || ((int)m.line == rv.line && (int)m.priority == rv.priority)),
                 "%s (%s): library rule line %u priority %u, reference line %d priority %d", id,
                 profile ? "rfc" : "google", m.decided ? m.line : 0, m.priority, rv.line,
                 rv.priority);
    }
    rsc_blob_free(&b, NULL);
}

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f) {
        fprintf(stderr, "usage: rfc_vectors FILE (cannot open it)\n");
        return 1;
    }
    char *line;
    while ((line = tu_getline(f)) != NULL) {
        char *fl[8];
        if (line[0] == '#' || line[0] == 0 || line[0] == '\n') {
            free(line);
            continue;
        }
        size_t nf = tu_split_tabs(line, fl, 8);
        TU_CHECK(nf == 7, "row with %zu fields: %s", nf, fl[0]);
        if (nf == 7) {
            size_t bl, al, ul;
            char *body = tu_unescape(fl[1], &bl), *agent = tu_unescape(fl[2], &al),
                 *url = tu_unescape(fl[3], &ul);
            check(fl[0], body, bl, agent, al, url, ul, 1, atoi(fl[4]));
            check(fl[0], body, bl, agent, al, url, ul, 0, atoi(fl[5]));
            free(body);
            free(agent);
            free(url);
            rows++;
        }
        free(line);
    }
    fclose(f);
    printf("rfc_vectors: %d rows, %d failed checks\n", rows, tu_failures);
    return tu_failures || rows == 0 ? 1 : 0;
}
