/* SPDX-License-Identifier: Apache-2.0 */
/* Spec H: sitemaps, other directives, and the directives of the groups
 * that apply to a selection. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format.h"
#include "program.h"
#include "robotsc/runtime.h"

/* ---- Sitemaps and directives: spec H ---------------------------------- */

static void str_at(const rsc_program *prog, uint32_t off, uint32_t len, rsc_bytes *out)
{
    if (out)
        out->ptr = (const char *)STR(prog) + off, out->len = len;
}

size_t rsc_sitemap_count(const rsc_program *prog)
{
    return PRIV(prog, P_SITEMAPS_N);
}

int rsc_sitemap_get(const rsc_program *prog, size_t i, uint32_t *line,
                    rsc_bytes *url)
{
    if (i >= PRIV(prog, P_SITEMAPS_N))
        return 0;
    uint32_t r = (uint32_t)i;
    if (line)
        *line = rsc_tab(prog, P_SITEMAPS, r, 0);
    str_at(prog, rsc_tab(prog, P_SITEMAPS, r, 1), rsc_tab(prog, P_SITEMAPS, r, 2), url);
    return 1;
}

size_t rsc_directive_count(const rsc_program *prog)
{
    return PRIV(prog, P_DIRS_N);
}

int rsc_directive_get(const rsc_program *prog, size_t i, uint32_t *line,
                      rsc_bytes *key, rsc_bytes *value)
{
    if (i >= PRIV(prog, P_DIRS_N))
        return 0;
    uint32_t r = (uint32_t)i;
    if (line)
        *line = rsc_tab(prog, P_DIRS, r, 0);
    str_at(prog, rsc_tab(prog, P_DIRS, r, 2), rsc_tab(prog, P_DIRS, r, 3), key);
    str_at(prog, rsc_tab(prog, P_DIRS, r, 4), rsc_tab(prog, P_DIRS, r, 5), value);
    return 1;
}

/* Does group g name a selected agent (or, when none was named, '*')? */
static int group_applies(const rsc_selection *sel, uint32_t g)
{
    const rsc_program *prog = sel->prog;
    uint32_t first, n = rsc_group_agents(prog, g, &first);
    for (uint32_t j = first; j < first + n; j++) {
        uint32_t a = rsc_tab(prog, P_GLIST, j, 0); /* 0: '*', else 1 + AGENTS row */
        if (!sel->named && a == 0)
            return 1;
        for (uint32_t k = 0; k < sel->n_agents; k++)
            if (a == sel->agents[k] + 1)
                return 1;
    }
    return 0;
}

int rsc_group_directive(const rsc_selection *sel, const char *key,
                        rsc_bytes *value, uint32_t *line)
{
    const size_t klen = key ? strlen(key) : 0;
    if (!sel || !sel->prog || !key)
        return 0;
    const rsc_program *prog = sel->prog;
    for (uint32_t r = 0; r < PRIV(prog, P_DIRS_N); r++) {
        const uint8_t *k = STR(prog) + rsc_tab(prog, P_DIRS, r, 2);
        uint32_t g = rsc_tab(prog, P_DIRS, r, 1);
        size_t j = 0;
        if (g == 0 || rsc_tab(prog, P_DIRS, r, 3) != klen)
            continue;
        while (j < klen && rsc_lower(k[j]) == rsc_lower((uint8_t)key[j]))
            j++;
        if (j == klen && group_applies(sel, g - 1)) {
            str_at(prog, rsc_tab(prog, P_DIRS, r, 4), rsc_tab(prog, P_DIRS, r, 5), value);
            if (line)
                *line = rsc_tab(prog, P_DIRS, r, 0);
            return 1;
        }
    }
    return 0;
}
