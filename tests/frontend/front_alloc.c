/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures: a counting allocator fails the k-th allocation, for
 * every k until the parse succeeds. Each failing parse must return
 * RSC_E_NOMEM with *out NULL and nothing left allocated; the successful one
 * must free everything in rsc_ir_free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/ir.h"
#include "testutil.h"

typedef struct counter {
    size_t calls;   /* allocations and reallocations so far */
    size_t fail_at; /* 1-based call that fails; 0: never */
    size_t live_bytes, live_blocks;
    int bad_size; /* a free or realloc gave an osize that does not match */
} counter;

/* Each block carries its size in front, to check osize. */
static void *count_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    counter *c = ud;
    size_t *h = ptr ? (size_t *)ptr - 2 : NULL;
    if (h && h[0] != osize)
        c->bad_size = 1;
    if (nsize == 0) {
        if (h) {
            c->live_bytes -= h[0];
            c->live_blocks--;
            free(h);
        }
        return NULL;
    }
    if (++c->calls == c->fail_at)
        return NULL;
    size_t old = h ? h[0] : 0;
    size_t *nh = realloc(h, nsize + 2 * sizeof(size_t));
    if (!nh)
        return NULL;
    if (!h)
        c->live_blocks++;
    c->live_bytes = c->live_bytes - old + nsize;
    nh[0] = nsize;
    return nh + 2;
}

static int run(const char *name, const char *body, size_t len)
{
    int passed = 0;
    for (size_t k = 1;; k++) {
        counter c;
        memset(&c, 0, sizeof c);
        c.fail_at = k;
        rsc_parse_options opt = {RSC_PROFILE_GOOGLE, count_alloc, &c};
        rsc_ir *ir = (rsc_ir *)&c;
        rsc_status st = rsc_parse(body, len, &opt, &ir);
        if (st == RSC_OK) {
            TU_CHECK(ir != NULL && c.calls < k, "%s: k=%zu ok", name, k);
            TU_CHECK(ir->n_lines > 0, "%s: k=%zu no lines", name, k);
            rsc_ir_free(ir);
            TU_CHECK(c.live_bytes == 0 && c.live_blocks == 0 && !c.bad_size,
                     "%s: after free: %zu bytes, %zu blocks live, bad size %d", name,
                     c.live_bytes, c.live_blocks, c.bad_size);
            printf("%s: %zu allocations, every failure handled\n", name, k - 1);
            return passed + 1;
        }
        TU_CHECK(st == RSC_E_NOMEM && ir == NULL, "%s: k=%zu status %d", name, k, (int)st);
        TU_CHECK(c.live_bytes == 0 && c.live_blocks == 0 && !c.bad_size,
                 "%s: k=%zu leaked %zu bytes in %zu blocks (bad size %d)", name, k, c.live_bytes,
                 c.live_blocks, c.bad_size);
        passed++;
        if (k > 100000) {
            TU_CHECK(0, "%s: never succeeds", name);
            return passed;
        }
    }
}

int main(void)
{
    int passed = 0;
    static const char small[] = "User-agent: *\nDisallow: /x\n";
    static const char mixed[] =
        "Disallow: /early\nSitemap: s\nUser-agent: a\nuser-agent: b\njunk junk junk\n"
        "Allow: /\xC3\xA9\nCrawl-delay: 5\nUser-agent: c\nDisallow: /%aa\nfoo: bar\n";
    passed += run("empty", "", 0);
    passed += run("small", small, sizeof small - 1);
    passed += run("mixed", mixed, sizeof mixed - 1);

    /* Many lines of every kind: every array grows several times. */
    size_t cap = 200000, n = 0;
    char *big = malloc(cap);
    for (int i = 0; n + 200 < cap; i++) {
        n += (size_t)snprintf(big + n, cap - n,
                              "User-agent: bot%d\nDisallow: /p%d\nAllow: /q\xC3\xA9%d\n"
                              "Sitemap: s%d\nCrawl-delay: %d\n\n# c\nnot a line at all\n",
                              i, i, i, i, i);
    }
    passed += run("big", big, n);
    free(big);
    return tu_report("allocation failures", passed);
}
