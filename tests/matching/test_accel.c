/* SPDX-License-Identifier: Apache-2.0 */
/* rsc_accel_size / rsc_accel_build (runtime.h): arguments, sizes, the
 * buffer's alignment, a selection the buffer was not built for, and
 * verdicts with every number of rows from none to all, in both profiles.
 * Verdicts through dense rows are also compared with those without on the
 * corpus's URL lists (corpus_urls), the random files of the differential
 * test, the adversarial files of matching_bound and the damaged blobs of
 * hostile_blobs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

static const char body[] =
    "User-agent: *\n"
    "Disallow: /*.pdf$\n"
    "Disallow: /*?sessionid=\n"
    "Allow: /*/public/*.html\n"
    "Disallow: /private*/*/edit\n"
    "Disallow: /*%E2%82%AC*x\n"
    "Disallow: /a*b*c*d\n"
    "User-agent: other\n"
    "Disallow: /\n";

static const char *const paths[] = {
    "/x.gif", "/e", "/q=1", "/a.gif?q=", "/xy", "/x/y.pdf", "/eee.gif",
    "/", "/a.pdf", "/a.pdf?", "/x?sessionid=1", "/y/public/z.html", "/y/public/z.htm",
    "/private1/q/edit", "/private/edit", "/\xe2\x82\xac/x", "/%E2%82%ACx", "/%e2%82%acx",
    "/aXbYcZd", "/abdc", "/aaaabbbbccccdddd", "/public/a/public/b.html?sessionid=",
};
#define NPATHS (sizeof paths / sizeof paths[0])

static int load(rsc_profile profile, rsc_blob *blob, rsc_program *prog, rsc_selection *sel)
{
    rsc_compile_options opt = {profile, NULL, NULL, NULL, NULL, 0};
    rsc_bytes ag = {"Googlebot", 9};
    TU_CHECK(rsc_compile(body, sizeof body - 1, &opt, blob) == RSC_OK, "compile");
    TU_CHECK(rsc_load(prog, blob->data, blob->size, NULL) == RSC_OK, "load");
    TU_CHECK(rsc_select(prog, &ag, 1, sel) == RSC_OK, "select");
    return tu_failures == 0;
}

/* Every path through sel and asel: the same verdict and line. */
static void same(const rsc_selection *sel, const rsc_selection *asel, const char *what)
{
    for (size_t i = 0; i < NPATHS; i++) {
        rsc_match m, am;
        size_t n = strlen(paths[i]);
        int v = rsc_match_path(sel, paths[i], n, &m);
        int av = rsc_match_path(asel, paths[i], n, &am);
        TU_COUNT(v == av && m.line == am.line && m.decided == am.decided,
                 "%s: %s: %d line %u, without dense rows %d line %u", what, paths[i], av, am.line,
                 v, m.line);
        v = rsc_match_url(sel, paths[i], n, &m);
        av = rsc_match_url(asel, paths[i], n, &am);
        TU_COUNT(v == av && m.line == am.line, "%s: URL %s", what, paths[i]);
    }
}

int main(void)
{
    static unsigned char buf[1 << 16];
    for (int profile = 0; profile < 2; profile++) {
        rsc_blob blob;
        rsc_program prog;
        rsc_selection sel;
        if (!load(profile ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE, &blob, &prog, &sel))
            return tu_report("accel", tu_passed);
        size_t need = rsc_accel_size(&sel);
        TU_COUNT(need > 64 && need < sizeof buf, "size %zu", need);

        /* arguments */
        rsc_selection a = sel, failed;
        memset(&failed, 0, sizeof failed);
        TU_COUNT(rsc_accel_build(NULL, buf, need) == RSC_E_ARG, "NULL selection");
        TU_COUNT(rsc_accel_build(&a, NULL, need) == RSC_E_ARG, "NULL buffer");
        TU_COUNT(rsc_accel_build(&failed, buf, need) == RSC_E_ARG, "failed selection");
        TU_COUNT(failed.accel == NULL && a.accel == NULL, "nothing attached on an error");
        TU_COUNT(rsc_accel_size(NULL) > 0 && rsc_accel_size(&failed) <= need, "sizes of nothing");
        for (size_t small = 0; small < 64; small += 7) {
            a = sel;
            TU_COUNT(rsc_accel_build(&a, buf, small) == RSC_E_LIMIT && a.accel == NULL,
                     "%zu bytes cannot hold the header", small);
        }

        /* every size from the header up, at every alignment: the same
         * verdicts whatever the number of rows */
        for (size_t skew = 0; skew < 8; skew++) {
            for (size_t size = need; size > 0; size = size > 256 ? size - 1 - size / 9 : size - 13) {
                a = sel;
                rsc_status st = rsc_accel_build(&a, buf + skew, size);
                TU_COUNT(st == RSC_OK || (st == RSC_E_LIMIT && size < need && !a.accel),
                         "skew %zu, %zu of %zu bytes: %s", skew, size, need, rsc_strerror(st));
                same(&sel, &a, profile ? "rfc" : "google");
                if (size <= 13)
                    break;
            }
        }

        /* the buffer holds what rsc_accel_size said, and no byte more */
        memset(buf, 0xa5, sizeof buf);
        a = sel;
        TU_COUNT(rsc_accel_build(&a, buf + 1, need - 8) == RSC_OK, "build");
        size_t used = sizeof buf;
        while (used > 0 && buf[used - 1] == 0xa5)
            used--;
        TU_COUNT(used <= 1 + need - 8, "wrote %zu bytes of %zu", used, need - 8);

        /* a buffer built for another program is not used */
        rsc_blob blob2;
        rsc_program prog2;
        rsc_selection sel2;
        if (load(profile ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE, &blob2, &prog2, &sel2)) {
            a = sel;
            TU_COUNT(rsc_accel_build(&a, buf, need) == RSC_OK, "build");
            rsc_selection other = sel2;
            other.accel = a.accel;
            same(&sel2, &other, "another program's rows");
            rsc_blob_free(&blob2, NULL);
        }

        /* an agent with a rule set of no wildcard rule: nothing to build */
        rsc_bytes ag = {"other", 5};
        rsc_selection o;
        TU_CHECK(rsc_select(&prog, &ag, 1, &o) == RSC_OK, "select other");
        /* the same blob, another selection: rows built for one are not
         * used for the other's programs, and are for a program they share */
        static const char two_groups[] = "User-agent: a\nDisallow: /*.pdf$\nDisallow: /*x*y\n"
                                         "User-agent: b\nDisallow: /*.gif\nAllow: /*q=\nDisallow: /*e\n";
        rsc_blob tb;
        rsc_program tp;
        rsc_compile_options topt = {profile ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE, NULL, NULL, NULL, NULL, 0};
        TU_CHECK(rsc_compile(two_groups, sizeof two_groups - 1, &topt, &tb) == RSC_OK, "compile");
        TU_CHECK(rsc_load(&tp, tb.data, tb.size, NULL) == RSC_OK, "load");
        rsc_bytes ga = {"a", 1}, gb = {"b", 1}, gab[2] = {{"b", 1}, {"a", 1}};
        rsc_selection sa, sb, sab;
        TU_CHECK(rsc_select(&tp, &ga, 1, &sa) == RSC_OK && rsc_select(&tp, &gb, 1, &sb) == RSC_OK &&
                     rsc_select(&tp, gab, 2, &sab) == RSC_OK && sab.n_roots == 2,
                 "select a, b, both");
        a = sa;
        TU_COUNT(rsc_accel_build(&a, buf, sizeof buf) == RSC_OK, "build");
        rsc_selection cross = sb;
        cross.accel = a.accel;
        same(&sb, &cross, "another selection's rows");
        cross = sab;
        cross.accel = a.accel;
        same(&sab, &cross, "rows of a program the selections share");
        a = sab;
        TU_COUNT(rsc_accel_build(&a, buf, sizeof buf) == RSC_OK, "build");
        cross = sa;
        cross.accel = a.accel;
        same(&sa, &cross, "rows of a program the selections share, at another position");
        rsc_blob_free(&tb, NULL);
        TU_COUNT(rsc_accel_size(&o) < need, "no rows for a program without wildcards");
        rsc_selection oa = o;
        TU_COUNT(rsc_accel_build(&oa, buf, sizeof buf) == RSC_OK && oa.accel != NULL, "build");
        same(&o, &oa, "no wildcard rule");
        rsc_blob_free(&blob, NULL);
    }
    return tu_report("accel", tu_passed);
}
