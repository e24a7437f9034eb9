/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc in one page: compile a robots.txt, verify the blob (rsc_load),
 * select a crawler's groups, match URLs and explain each verdict.
 *   cc quickstart.c $(pkg-config --cflags --libs robotsc) -o quickstart */
#include <stdio.h>
#include <string.h>

#include <robotsc/compiler.h>

static const char robots_txt[] =
    "User-agent: *\n"
    "Disallow: /private/\n"
    "\n"
    "User-agent: FooBot\n"
    "Disallow: /\n"
    "Allow: /public/\n";

int main(void)
{
    /* 1. Compile (NULL options: the google profile, malloc). */
    rsc_blob blob;
    rsc_status st = rsc_compile(robots_txt, strlen(robots_txt), NULL, &blob);
    if (st != RSC_OK) {
        fprintf(stderr, "compile: %s\n", rsc_strerror(st));
        return 2;
    }

    /* 2. Verify. A blob may be saved and loaded anywhere later; rsc_load()
     *    checks all of it before anything reads it, and borrows it. */
    rsc_program prog;
    rsc_load_error err;
    st = rsc_load(&prog, blob.data, blob.size, &err);
    if (st != RSC_OK) {
        fprintf(stderr, "load: %s at byte %zu (%s)\n", rsc_strerror(st), err.offset, err.what);
        rsc_blob_free(&blob, NULL);
        return 2;
    }

    static const char *const agents[] = {"FooBot", "BarBot"};
    static const char *const urls[] = {
        "https://example.com/public/index.html",
        "https://example.com/private/report.pdf",
        "https://example.com/about",
    };
    for (size_t a = 0; a < sizeof agents / sizeof *agents; a++) {
        /* 3. Select once per crawler (the groups that name it, else '*'). */
        const rsc_bytes agent = {agents[a], strlen(agents[a])};
        rsc_selection sel;
        if (rsc_select(&prog, &agent, 1, &sel) != RSC_OK)
            continue;
        for (size_t u = 0; u < sizeof urls / sizeof *urls; u++) {
            /* 4. Match, 5. explain: the deciding rule and its line. */
            rsc_match m;
            int allowed = rsc_match_url(&sel, urls[u], strlen(urls[u]), &m);
            printf("%s\t%s\t%s\t", agents[a], allowed ? "allow" : "disallow", urls[u]);
            if (m.decided)
                printf("line %u: %s: %.*s\n", (unsigned)m.line, m.rule_allow ? "Allow" : "Disallow",
                       (int)m.pattern_len, m.pattern);
            else
                printf("no rule applies\n");
        }
    }
    rsc_blob_free(&blob, NULL);
    return 0;
}
