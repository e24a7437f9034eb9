/* SPDX-License-Identifier: Apache-2.0 */
/* rsc_classify(): the one rule that decides whether bytes that arrive where
 * a robots.txt or a blob may arrive are read as a blob, as text, or not at
 * all (include/robotsc/runtime.h). Every entry point calls it: the CLI,
 * the store and Python. Its whole purpose is that a damaged blob can never
 * become "allow everything" by being compiled as an (empty) robots.txt. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format.h"
#include "robotsc/runtime.h"

/* Bits in which p[0..n) differs from the magic's first n bytes. */
static unsigned magic_distance(const uint8_t *p, size_t n)
{
    unsigned bits = 0;
    for (size_t i = 0; i < n; i++)
        for (unsigned d = p[i] ^ (uint8_t)RSC_MAGIC[i]; d; d &= d - 1)
            bits++;
    return bits;
}

/* Binary content: compressed or UTF-16 data, or many control bytes (NUL
 * among them) in the first KiB, a run of one byte counted once. Looser than
 * the compiler's "binary" warning on purpose: a text with a stray NUL or a
 * block of NUL padding (real robots.txt files have both; Google reads them)
 * is still a robots.txt, while images, archives and UTF-16 text are not. */
#define SNIFF 1024u
static int binary(const uint8_t *p, size_t n)
{
    if (n >= 2 && ((p[0] == 0x1f && p[1] == 0x8b) || (p[0] == 0xff && p[1] == 0xfe) ||
                   (p[0] == 0xfe && p[1] == 0xff)))
        return 1;
    if (n > SNIFF)
        n = SNIFF;
    size_t ctl = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        ctl += ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') ||
                c == 0x7f) && !(i > 0 && p[i - 1] == c);
    }
    return ctl >= 4 && ctl * 16 > n;
}

rsc_input_kind rsc_classify(const void *data, size_t len)
{
    if (!data || len == 0)
        return RSC_INPUT_TEXT; /* an empty robots.txt */
    const uint8_t *p = data;
    size_t head = len < RSC_MAGIC_LEN ? len : RSC_MAGIC_LEN;
    unsigned d = magic_distance(p, head);
    if (d == 0)
        return RSC_INPUT_BLOB; /* the magic, or a blob cut inside it */
    /* One or two bits off over the whole magic: no text starts so (0x89 is
     * not ASCII; its nearest control bytes are 0x09, 0x08, 0x0b, 0x0d and
     * would need "RSC" after them). */
    if (len >= RSC_MAGIC_LEN && d <= 2)
        return RSC_INPUT_DAMAGED;
    return binary(p, len) ? RSC_INPUT_BINARY : RSC_INPUT_TEXT;
}

const char *rsc_input_kind_what(int kind)
{
    switch (kind) {
    case RSC_INPUT_TEXT: return "robots.txt text";
    case RSC_INPUT_BLOB: return "robotsc blob";
    case RSC_INPUT_DAMAGED: return "damaged robotsc blob (its magic is a few bits off)";
    case RSC_INPUT_BINARY: return "binary content";
    default: return "unknown input kind";
    }
}
