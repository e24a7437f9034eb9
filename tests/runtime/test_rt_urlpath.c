/* SPDX-License-Identifier: Apache-2.0 */
/* rsc_url_path() against the GetPathParamsQuery rows of the conformance
 * helper files (spec G), then against spec G written out with string
 * searches on random URLs made of the bytes that matter (schemes, "//",
 * specials, hosts of every length around the 8- and 16-byte steps of the
 * runtime's scans; a quarter of them after "http://" or "https://", which
 * the runtime matches as one word). Arguments: the TSV files. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/runtime.h"
#include "testutil.h"

/* First position >= from of a byte of set in u[0..n), or n. */
static size_t find_any(const char *u, size_t n, size_t from, const char *set)
{
    for (size_t i = from; i < n; i++)
        if (strchr(set, u[i]) && u[i])
            return i;
    return n;
}

static size_t find_str(const char *u, size_t n, size_t from, const char *s)
{
    size_t k = strlen(s);
    for (size_t i = from; i + k <= n; i++)
        if (memcmp(u + i, s, k) == 0)
            return i;
    return n;
}

/* Spec G: the path (with its '/' in front when needed) into out. */
static size_t spec_g(const char *u, size_t n, char *out)
{
    size_t start = n >= 2 && u[0] == '/' && u[1] == '/' ? 2 : 0; /* G.1 */
    size_t early = find_any(u, n, start, "/?;");
    size_t scheme = find_str(u, n, start, "://"); /* G.2 */
    size_t after = scheme < early ? scheme + 3 : start; /* no '/', '?', ';' before it */
    size_t ps = find_any(u, n, after, "/?;"); /* G.3 */
    size_t hash = find_any(u, n, start, "#");
    if (ps == n || hash < ps) { /* G.3, G.4 */
        out[0] = '/';
        return 1;
    }
    size_t k = 0;
    if (u[ps] != '/') /* G.5 */
        out[k++] = '/';
    memcpy(out + k, u + ps, hash - ps);
    return k + hash - ps;
}

static int random_urls(void)
{
    static const char *piece[] = {"http", "https", "HTTP", "ftp", ":", "//", "://", "/", "?",
                                  ";", "#", "a", "b.c", "www.example.com", "x:y", "%2F", ""};
    const size_t np = sizeof piece / sizeof piece[0];
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    char u[256], want[300], got[300];
    int ok = 0;
    for (int t = 0; t < 200000; t++) {
        size_t n = 0;
        if (t % 4 == 0) { /* a quarter start with the schemes of the runtime's one-word test */
            const char *sch = t % 8 ? "https://" : "http://";
            memcpy(u, sch, strlen(sch));
            n = strlen(sch);
        }
        int parts = (int)((seed >> 33) % 7);
        for (int p = 0; p < parts; p++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            const char *s = piece[(seed >> 33) % np];
            int host = (seed >> 20) % 4 == 0; /* a run of host letters, 0..40 long */
            size_t k = host ? (seed >> 40) % 41 : strlen(s);
            if (n + k > sizeof u)
                break;
            if (host)
                memset(u + n, 'h', k);
            else
                memcpy(u + n, s, k);
            n += k;
        }
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        size_t wl = spec_g(u, n, want), off, plen, gl = 0;
        int slash;
        rsc_url_path(u, n, &off, &plen, &slash);
        if (slash)
            got[gl++] = '/';
        memcpy(got + gl, u + off, plen);
        gl += plen;
        int same = gl == wl && memcmp(got, want, wl) == 0;
        TU_CHECK(same, "url '%.*s': got '%.*s' want '%.*s'", (int)n, u, (int)gl, got, (int)wl,
                 want);
        ok += same;
    }
    return ok;
}

int main(int argc, char **argv)
{
    int passed = 0, rows = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            printf("skip: %s not found\n", argv[i]);
            return 77;
        }
        char *line;
        while ((line = tu_getline(f)) != NULL) {
            char *fl[4];
            if (tu_split_tabs(line, fl, 4) == 4 && strcmp(fl[1], "GetPathParamsQuery") == 0) {
                size_t ulen, elen, off, plen;
                int slash;
                char *u = tu_unescape(fl[2], &ulen), *e = tu_unescape(fl[3], &elen);
                rsc_url_path(u, ulen, &off, &plen, &slash);
                char *got = malloc(plen + 2);
                size_t glen = 0;
                if (slash)
                    got[glen++] = '/';
                memcpy(got + glen, u + off, plen);
                glen += plen;
                rows++;
                TU_CHECK(glen == elen && memcmp(got, e, elen) == 0, "%s: got '%.*s' want '%s'",
                         fl[0], (int)glen, got, e);
                passed += glen == elen && memcmp(got, e, elen) == 0;
                free(u), free(e), free(got);
            }
            free(line);
        }
        fclose(f);
    }
    TU_CHECK(rows >= 30, "only %d GetPathParamsQuery rows", rows);
    passed += random_urls();
    return tu_report("GetPathParamsQuery", passed);
}
