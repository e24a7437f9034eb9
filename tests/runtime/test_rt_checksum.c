/* SPDX-License-Identifier: Apache-2.0 */
/* The blob's Checksum (runtime/codec.h): Adler-32 by the plain loop and by
 * the 16-byte SSE2 steps, each against RFC 1950's definition (one byte at a time, reduced at every
 * step) over every length up to 300, the lengths around the chunk and block
 * sizes, every start alignment up to 32, bytes of 0xff (the largest sums a
 * lane can reach), and sums carried from one call to the next. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "testutil.h"

static uint32_t ref_adler(uint32_t a, uint32_t s, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521u;
        s = (s + a) % 65521u;
    }
    return s << 16 | a;
}

typedef void (*adler_fn)(uint32_t *, uint32_t *, const uint8_t *, size_t);

static uint32_t run(adler_fn f, uint32_t a, uint32_t s, const uint8_t *p, size_t n)
{
    f(&a, &s, p, n);
    return s << 16 | a;
}

static void check_fn(const char *name, adler_fn f, size_t max_n, const uint8_t *buf,
                     const uint8_t *ff)
{
    static const size_t sizes[] = {511, 512, 513, 4095, 4096, 5535, 5536, 5537, 5551, 5552,
                                   5553, 5568, 11071, 11072, 11073, 11104, 16608, 16609, 70001};
    size_t n_checked = 0;
    for (size_t n = 0; n <= 300 && n <= max_n; n++)
        for (size_t off = 0; off < 32; off++, n_checked++)
            TU_COUNT(run(f, 1, 0, buf + off, n) == ref_adler(1, 0, buf + off, n),
                     "%s: %zu bytes at +%zu", name, n, off);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && sizes[i] <= max_n; i++)
        for (size_t off = 0; off < 32; off += 7) {
            size_t n = sizes[i];
            TU_COUNT(run(f, 1, 0, buf + off, n) == ref_adler(1, 0, buf + off, n),
                     "%s: %zu random bytes at +%zu", name, n, off);
            TU_COUNT(run(f, 1, 0, ff + off, n) == ref_adler(1, 0, ff + off, n),
                     "%s: %zu bytes of 0xff at +%zu", name, n, off);
            /* sums near the modulus carried in */
            TU_COUNT(run(f, 65520, 65520, ff + off, n) == ref_adler(65520, 65520, ff + off, n),
                     "%s: %zu bytes of 0xff from sums 65520", name, n);
        }
    /* a checksum taken in pieces is the checksum of the whole */
    uint32_t a = 1, s = 0;
    size_t at = 0, whole = max_n < 60000 ? max_n : 60000;
    for (size_t step = 1; at < whole; step = step * 7 % 997 + 1) {
        size_t k = step < whole - at ? step : whole - at;
        f(&a, &s, buf + at, k);
        at += k;
    }
    TU_COUNT((s << 16 | a) == ref_adler(1, 0, buf, whole), "%s: %zu bytes in pieces", name,
             whole);
    printf("%s: %zu lengths and alignments up to %zu bytes\n", name, n_checked, max_n);
}

int main(void)
{
    enum { N = 70001 + 64 };
    uint8_t *buf = malloc(N), *ff = malloc(N);
    if (!buf || !ff)
        return 2;
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        buf[i] = (uint8_t)x;
    }
    memset(ff, 0xff, N);
    /* the plain loop alone is for at most 5552 bytes from reduced sums */
    check_fn("plain", rsc_adler32_plain, 5552, buf, ff);
    check_fn("rsc_adler32", rsc_adler32, N - 64, buf, ff);
    free(buf);
    free(ff);
    return tu_report("runtime checksum", tu_passed);
}
