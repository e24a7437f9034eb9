/* SPDX-License-Identifier: Apache-2.0 */
/* The format's encodings, one implementation each, shared by the runtime
 * (verifier and matcher) and the compiler (emitter, dumper) so that the two
 * cannot drift apart: little-endian and varint loads, the byte order of
 * tokens and patterns, and the rfc profile's percent-encoding
 * normalisation, the Checksum (docs/FORMAT.md, Conventions and Matching).
 * Header only: libc's <string.h>, and SSE2 intrinsics where the compiler
 * targets them. */
#ifndef ROBOTSC_CODEC_H
#define ROBOTSC_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "format.h"

/* memcpy loads fold into one instruction; shifts on big-endian hosts. */
static inline uint32_t rsc_rd32(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
#else
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
#endif
}

static inline uint32_t rsc_rd16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

/* An integer of w bytes (0..4), little-endian. */
static inline uint32_t rsc_rdn(const uint8_t *p, unsigned w)
{
    switch (w) {
    case 0: return 0;
    case 1: return p[0];
    case 2: return rsc_rd16(p);
    case 3: return rsc_rd16(p) | (uint32_t)p[2] << 16;
    default: return rsc_rd32(p);
    }
}

/* ---- SWAR: eight bytes in one 64-bit word, portable C ------------------ */

#define RSC_ONES 0x0101010101010101ull

/* Eight bytes at p as a little-endian word (lane i is p[i]). */
static inline uint64_t rsc_rd64le(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* The high bit of each lane of x that is zero; the lowest one is exact (a
 * borrow can only flag lanes above a true zero lane). */
static inline uint64_t rsc_zero_lanes(uint64_t x)
{
    return (x - RSC_ONES) & ~x & (RSC_ONES << 7);
}

/* The high bit of each lane of x equal to c (the lowest one exact). */
static inline uint64_t rsc_eq_lanes(uint64_t x, uint8_t c)
{
    return rsc_zero_lanes(x ^ (RSC_ONES * c));
}

/* The lowest lane of x that is not zero (x != 0): a difference, or the
 * lowest flag of rsc_zero_lanes. */
static inline unsigned rsc_low_lane(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(x) >> 3;
#else
    unsigned k = 0;
    while (!(x & 0xff))
        x >>= 8, k++;
    return k;
#endif
}

/* A Table's packed widths at w (Conventions) as one word: 2 bits a
 * column from bit 0 (cols <= RSC_TAB_MAX_COLS: one or two bytes). */
static inline uint32_t rsc_tab_widths(const uint8_t *w, unsigned cols)
{
    return cols > 4 ? rsc_rd16(w) : w[0];
}

/* Column c's width (1..4) in a word of rsc_tab_widths(). */
static inline unsigned rsc_tab_width(uint32_t widths, unsigned c)
{
    return ((widths >> (2 * c)) & 3u) + 1;
}

/* A varint of a verified blob: *pp moves past it. */
static inline uint32_t rsc_uv(const uint8_t **pp)
{
    const uint8_t *p = *pp;
    uint32_t v = *p++;
    if (v & 0x80) {
        uint32_t b, s = 7;
        v &= 0x7f;
        do {
            b = *p++;
            v |= (b & 0x7f) << s;
            s += 7;
        } while (b & 0x80);
    }
    *pp = p;
    return v;
}

/* Byte order (FORMAT.md): memcmp on the common length, then the shorter
 * first. */
static inline int rsc_bytes_cmp(const void *x, size_t xn, const void *y, size_t yn)
{
    size_t n = xn < yn ? xn : yn;
    int d = n ? memcmp(x, y, n) : 0;
    if (d)
        return d;
    return xn < yn ? -1 : xn > yn;
}

/* A hex digit's value, or -1. */
static inline int rsc_hexval(unsigned c)
{
    if (c >= '0' && c <= '9')
        return (int)(c - '0');
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? (int)(c - 'a' + 10) : -1;
}

/* RFC 3986 unreserved: A-Z a-z 0-9 - . _ ~ */
static inline int rsc_unreserved(unsigned c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '.' || c == '_' || c == '~';
}

/* The rfc profile's normalisation of the bytes at p[0..avail), avail >= 1
 * (FORMAT.md, Matching): writes 1 to 3 bytes to out and returns how many;
 * *used receives the input bytes taken (1 or 3). A '%' with two hex digits
 * is decoded when unreserved, else upper-cased; a byte >= 0x80 becomes %XX;
 * a '%' without two hex digits becomes %25, the octet it stands for (RFC
 * 9309 2.2.2 compares octets: read as itself, a pattern's lone '%' would
 * match the '%' of a path's %24 or %2A); anything else is itself. */
static inline unsigned rsc_pct_normal(const uint8_t *p, size_t avail, uint8_t out[3], size_t *used)
{
    static const char hex[] = "0123456789ABCDEF";
    unsigned b = p[0];
    int h1, h2;
    *used = 1;
    if (b >= 0x80) {
        out[0] = '%', out[1] = (uint8_t)hex[b >> 4], out[2] = (uint8_t)hex[b & 15];
        return 3;
    }
    if (b == '%' && avail >= 3 && (h1 = rsc_hexval(p[1])) >= 0 && (h2 = rsc_hexval(p[2])) >= 0) {
        unsigned v = (unsigned)(h1 * 16 + h2);
        *used = 3;
        if (rsc_unreserved(v)) {
            out[0] = (uint8_t)v;
            return 1;
        }
        out[0] = '%', out[1] = (uint8_t)hex[v >> 4], out[2] = (uint8_t)hex[v & 15];
        return 3;
    }
    if (b == '%') {
        out[0] = '%', out[1] = '2', out[2] = '5';
        return 3;
    }
    out[0] = (uint8_t)b;
    return 1;
}

/* A raw '*' or '$' as the rfc profile writes it in a match text or a path:
 * %2A, %24 (RFC 9309 2.2.3: a pattern matches these characters verbatim
 * only percent-encoded, since raw they are the wildcard and the end
 * anchor). Returns 3, or 0 for any other byte. */
static inline unsigned rsc_pct_special(unsigned b, uint8_t out[3])
{
    if (b != '*' && b != '$')
        return 0;
    out[0] = '%', out[1] = '2', out[2] = b == '*' ? 'A' : '4'; /* 0x2A, 0x24 */
    return 3;
}

/* The rfc profile's normalisation of a path byte (FORMAT.md, Matching):
 * rsc_pct_normal, and '*' and '$' as %2A and %24. */
static inline unsigned rsc_pct_normal_path(const uint8_t *p, size_t avail, uint8_t out[3],
                                           size_t *used)
{
    unsigned k = rsc_pct_special(p[0], out);
    if (k) {
        *used = 1;
        return k;
    }
    return rsc_pct_normal(p, avail, out, used);
}

/* Adler-32 (RFC 1950) over p[0..n), continuing from the sums *a and *s
 * (start at 1 and 0), as the blob's Checksum (FORMAT.md). The plain loop
 * takes at most 5552 bytes between reductions, so no 32-bit sum overflows. */
static inline void rsc_adler32_plain(uint32_t *a, uint32_t *s, const uint8_t *p, size_t k)
{
    while (k--) {
        *a += *p++;
        *s += *a;
    }
    *a %= RSC_ADLER_MOD, *s %= RSC_ADLER_MOD;
}

/* With SSE2 (every x86-64) sixteen bytes go per block, two blocks a step:
 * the byte sum by PSADBW; the sum of the earlier block sums, times 16, for
 * the weight of the blocks; and each column's bytes summed in 16 bits, then
 * weighted by the steps left in its block (PMADDWD) once per chunk. A
 * chunk of 128 blocks keeps a column sum below 2^15 (PMADDWD is signed).
 * The plain loop takes the rest, and everything on other hosts. */
static inline void rsc_adler32(uint32_t *a, uint32_t *s, const uint8_t *p, size_t n)
{
    while (n) {
#if defined(__SSE2__)
        const size_t k = n < 2048 ? n : 2048;
        const size_t blocks = k / 16;
        if (blocks) {
            const __m128i z = _mm_setzero_si128();
            __m128i v1 = z, vp = z, cl = z, ch = z, x0, x1, s0, s1;
            size_t i = 0;
            for (; i + 2 <= blocks; i += 2, p += 32) {
                x0 = _mm_loadu_si128((const __m128i *)(const void *)p);
                x1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
                s0 = _mm_sad_epu8(x0, z), s1 = _mm_sad_epu8(x1, z);
                vp = _mm_add_epi32(vp, _mm_add_epi32(_mm_add_epi32(v1, v1), s0));
                v1 = _mm_add_epi32(v1, _mm_add_epi32(s0, s1));
                cl = _mm_add_epi16(cl, _mm_add_epi16(_mm_unpacklo_epi8(x0, z),
                                                     _mm_unpacklo_epi8(x1, z)));
                ch = _mm_add_epi16(ch, _mm_add_epi16(_mm_unpackhi_epi8(x0, z),
                                                     _mm_unpackhi_epi8(x1, z)));
            }
            if (i < blocks) {
                x0 = _mm_loadu_si128((const __m128i *)(const void *)p);
                vp = _mm_add_epi32(vp, v1);
                v1 = _mm_add_epi32(v1, _mm_sad_epu8(x0, z));
                cl = _mm_add_epi16(cl, _mm_unpacklo_epi8(x0, z));
                ch = _mm_add_epi16(ch, _mm_unpackhi_epi8(x0, z));
                p += 16;
            }
            const __m128i v2 =
                _mm_add_epi32(_mm_madd_epi16(cl, _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9)),
                              _mm_madd_epi16(ch, _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1)));
            uint32_t l1[4], lp[4], l2[4];
            _mm_storeu_si128((__m128i *)(void *)l1, v1);
            _mm_storeu_si128((__m128i *)(void *)lp, vp);
            _mm_storeu_si128((__m128i *)(void *)l2, v2);
            uint64_t sa = (uint64_t)l1[0] + l1[2]; /* PSADBW: 64-bit lanes */
            uint64_t sp = (uint64_t)lp[0] + lp[2];
            uint64_t s2 = (uint64_t)l2[0] + l2[1] + l2[2] + l2[3];
            *s = (uint32_t)((*s + (uint64_t)*a * (blocks * 16) + 16 * sp + s2) % RSC_ADLER_MOD);
            *a = (uint32_t)((*a + sa) % RSC_ADLER_MOD);
        }
        const size_t rest = k - blocks * 16;
#else
        const size_t k = n < 5552 ? n : 5552, rest = k;
#endif
        n -= k;
        rsc_adler32_plain(a, s, p, rest);
        p += rest;
    }
}

#endif
