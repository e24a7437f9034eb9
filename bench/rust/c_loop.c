/* SPDX-License-Identifier: Apache-2.0 */
/* The C side of bench/rust: what a C crawler does, in C. Each function is
 * one timed unit; the Rust side times it with the same clock as its own
 * loops. Built -O2 in a file of its own: like the Rust loops, it calls
 * rsc_match_url and rsc_compile across translation units (no LTO). */
#include <stddef.h>
#include <stdint.h>

#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

size_t rsc_bench_c_checks(const rsc_selection *sel, const rsc_bytes *urls, size_t n);
int rsc_bench_c_parse(const void *body, size_t len);

/* Checks every URL once; returns how many are allowed (so that nothing
 * is optimised away, and the Rust side can compare the counts). */
size_t rsc_bench_c_checks(const rsc_selection *sel, const rsc_bytes *urls, size_t n)
{
    size_t allowed = 0;
    for (size_t i = 0; i < n; i++)
        allowed += (size_t)rsc_match_url(sel, urls[i].ptr, urls[i].len, NULL);
    return allowed;
}

/* One parse as Robots::parse does it: classify, compile, verify, free.
 * Returns 0 on success. */
int rsc_bench_c_parse(const void *body, size_t len)
{
    if (rsc_classify(body, len) != RSC_INPUT_TEXT && rsc_classify(body, len) != RSC_INPUT_BINARY)
        return -1;
    rsc_blob b;
    if (rsc_compile(body, len, NULL, &b) != RSC_OK)
        return -1;
    rsc_program p;
    rsc_status st = rsc_load(&p, b.data, b.size, NULL);
    rsc_blob_free(&b, NULL);
    return st == RSC_OK ? 0 : -1;
}
