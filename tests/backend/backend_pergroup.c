/* SPDX-License-Identifier: Apache-2.0 */
/* note [selections] of compiler/compile.c: when thousands of agents each
 * have their own union of groups (one big shared group plus a small group
 * of their own), each group is compiled once and an agent selects the
 * programs of its groups. Checks that such a file compiles with one
 * program per group and the big group's trie stored once (not one copy
 * per agent), that verdicts and deciding lines equal the reference
 * matcher's, and that a small file of the same shape (merged mode: one
 * program per agent, each holding the shared rules) gives the same
 * verdicts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_robots.h"
#include "robotsc/compiler.h"
#include "testutil.h"

static char *make_file(int n_agents, int big_rules, size_t *len)
{
    size_t cap = (size_t)n_agents * 120 + (size_t)big_rules * 40 + 256, n = 0;
    char *s = malloc(cap);
    if (!s)
        exit(2);
    for (int i = 0; i < n_agents; i++)
        n += (size_t)snprintf(s + n, cap - n, "User-agent: bot%c%c%c\n", 'a' + i % 26, 'a' + i / 26 % 26,
                              'a' + i / 676 % 26);
    n += (size_t)snprintf(s + n, cap - n, "User-agent: *\n");
    for (int r = 0; r < big_rules; r++)
        n += (size_t)snprintf(s + n, cap - n, "%s: /shared%d*x%d\n", r % 3 ? "Disallow" : "Allow", r, r % 7);
    for (int i = 0; i < n_agents; i++)
        n += (size_t)snprintf(s + n, cap - n, "User-agent: bot%c%c%c\nAllow: /shared%d\nDisallow: /own%d$\n",
                              'a' + i % 26, 'a' + i / 26 % 26, 'a' + i / 676 % 26, i % 50, i);
    *len = n;
    return s;
}

static int run(int n_agents, int big_rules, int expect_per_group)
{
    size_t len;
    char *body = make_file(n_agents, big_rules, &len);
    rsc_blob b = {NULL, 0};
    rsc_status st = rsc_compile(body, len, NULL, &b);
    TU_CHECK(st == RSC_OK, "compile: %s", rsc_strerror(st));
    if (st != RSC_OK)
        return 0;
    rsc_program p;
    TU_CHECK(rsc_load(&p, b.data, b.size, NULL) == RSC_OK, "load");
    rsc_blob_info bi;
    TU_CHECK(rsc_blob_info_get(&p, &bi) == RSC_OK, "info");
    /* Groups: the shared one (every agent and '*') and one per agent. In
     * per-group mode each group is one program and an agent's set holds
     * two (shared, own); merged, each agent's union is one program. Either
     * way there are n_agents + 1 programs and sets. The shared group's
     * 'Disallow: /sharedR*xK' rules have the distinct literal prefixes
     * /shared0 .. /sharedR-1: its trie has more than big_rules nodes. An
     * own group ('Allow: /sharedI', 'Disallow: /ownI$') has 4 (root, "/",
     * the two leaves). So per-group the nodes add up to the shared trie
     * plus 4 per agent; merged, every agent's program repeats the shared
     * trie. */
    TU_CHECK(bi.n_programs == (uint32_t)n_agents + 1 && bi.n_sets == (uint32_t)n_agents + 1,
             "programs %u sets %u for %d agents", (unsigned)bi.n_programs, (unsigned)bi.n_sets,
             n_agents);
    if (expect_per_group)
        TU_CHECK(bi.total_nodes == bi.max_nodes + 4u * (uint32_t)n_agents &&
                     bi.max_nodes > (uint32_t)big_rules,
                 "per-group: %u nodes in all, the largest program %u", (unsigned)bi.total_nodes,
                 (unsigned)bi.max_nodes);
    else
        TU_CHECK(bi.total_nodes > (uint32_t)(n_agents + 1) * (uint32_t)big_rules,
                 "merged: %u nodes in all", (unsigned)bi.total_nodes);
    printf("%d agents, %d shared rules: %zu bytes -> blob %zu bytes, %u programs, %u sets, "
           "%u nodes (largest program %u)\n",
           n_agents, big_rules, len, b.size, (unsigned)bi.n_programs, (unsigned)bi.n_sets,
           (unsigned)bi.total_nodes, (unsigned)bi.max_nodes);
    ref_robots ref;
    TU_CHECK(ref_parse(&ref, body, len, 0) == 0, "ref_parse");
    int cases = 0;
    const char *paths[] = {"/", "/shared1", "/shared3zzx3", "/shared12/x5", "/own7", "/own7x", "/shared49", "/x"};
    for (int i = 0; i < n_agents + 2; i += (n_agents > 60 ? 37 : 1)) {
        char name[16];
        if (i < n_agents)
            snprintf(name, sizeof name, "Bot%c%c%c", 'a' + i % 26, 'a' + i / 26 % 26, 'a' + i / 676 % 26);
        else
            snprintf(name, sizeof name, "%s", i == n_agents ? "other" : "");
        rsc_bytes ag = {name, strlen(name)};
        ref_str rag = {name, strlen(name)};
        rsc_selection sel;
        if (rsc_select(&p, &ag, 1, &sel) != RSC_OK) {
            TU_CHECK(0, "select %s", name);
            continue;
        }
        for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
            char path[32];
            if (k == 4)
                snprintf(path, sizeof path, "/own%d", i);
            else
                snprintf(path, sizeof path, "%s", paths[k]);
            rsc_match m;
            int v = rsc_match_path(&sel, path, strlen(path), &m);
            ref_verdict r = ref_check_parsed(&ref, &rag, 1, path, strlen(path), 1);
            TU_CHECK(v == r.allowed && (int)m.line == r.line, "agent %s path %s: lib %d line %u, ref %d line %d", name,
                     path, v, (unsigned)m.line, r.allowed, r.line);
            cases++;
        }
    }
    ref_free(&ref);
    rsc_blob_free(&b, NULL);
    free(body);
    return cases;
}

int main(void)
{
    int cases = run(20, 10, 0);         /* small: merged unions */
    cases += run(2000, 400, 1);         /* per-group units */
    return tu_report("backend_pergroup", cases);
}
