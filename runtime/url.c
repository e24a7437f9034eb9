/* SPDX-License-Identifier: Apache-2.0 */
/* Spec G: a URL to the path, params and query that rules are matched
 * against. One scan for the path start, with a word-at-a-time search for
 * the bytes that end the scheme or the authority. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec.h"
#include "format.h"
#include "program.h"
#include "url.h"
#include "robotsc/runtime.h"

void rsc_url_path(const char *url, size_t len, size_t *off, size_t *plen,
                  int *slash)
{
    if (!rsc_path_start(url, len, off, slash)) {
        *off = 0, *plen = 0, *slash = 1;
        return;
    }
    const char *h = memchr(url + *off, '#', len - *off);
    *plen = (h ? (size_t)(h - url) : len) - *off;
}
