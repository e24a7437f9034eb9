/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: URL/path extraction (spec G). Any bytes as a URL ->
 * rsc_url_path() gives a span inside the URL, equal to the reference
 * extraction (tests/ref), and matching that URL against a fixed program
 * gives the reference verdict. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ref_robots.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

static const char robots[] = "User-agent: *\nDisallow: /a\nAllow: /a/b$\nDisallow: /*?q=\n"
                             "Allow: /*.html\nDisallow: /%C3%A9\nUser-agent: foo\nDisallow: /\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *url = (const char *)data;
    size_t off, len;
    int slash;
    rsc_url_path(url, size, &off, &len, &slash);
    FUZZ_ASSERT(off <= size && len <= size - off);
    char *mine = malloc(len + 2), *ref = malloc(size + 2);
    FUZZ_ASSERT(mine && ref);
    size_t n = 0;
    if (slash)
        mine[n++] = '/';
    memcpy(mine + n, url + off, len);
    n += len;
    size_t rn = ref_url_path(url, size, ref);
    FUZZ_ASSERT(rn == n && memcmp(mine, ref, n) == 0);
    free(mine);
    free(ref);

    static rsc_blob blob;
    static rsc_program prog;
    static int ready;
    if (!ready) {
        FUZZ_ASSERT(rsc_compile(robots, sizeof robots - 1, NULL, &blob) == RSC_OK);
        FUZZ_ASSERT(rsc_load(&prog, blob.data, blob.size, NULL) == RSC_OK);
        ready = 1;
    }
    static const char *agents[] = {"foo", "bar"};
    for (int a = 0; a < 2; a++) {
        rsc_bytes ag = {agents[a], strlen(agents[a])};
        ref_str rag = {agents[a], strlen(agents[a])};
        rsc_selection sel;
        FUZZ_ASSERT(rsc_select(&prog, &ag, 1, &sel) == RSC_OK);
        int v = rsc_match_url(&sel, url, size, NULL);
        ref_verdict r = ref_check(robots, sizeof robots - 1, &rag, 1, url, size, 0, 0);
        FUZZ_ASSERT(v == r.allowed);
    }
    return 0;
}
