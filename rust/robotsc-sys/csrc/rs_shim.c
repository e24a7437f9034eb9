/* SPDX-License-Identifier: Apache-2.0 */
/* The Rust binding's own C: the batch check (one call into C for a whole
 * list of URLs) and compile-time checks that the structs robotsc-sys
 * declares by hand (src/lib.rs) still have the C library's layout. A
 * header change that moves a field stops the build here, with the struct
 * named, instead of letting Rust read the wrong bytes. */
#include <stddef.h>
#include <stdint.h>

#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#ifdef RSC_RS_STORE
#include "robotsc/store.h"
#endif

#define RS_LAYOUT(t, size) \
    _Static_assert(sizeof(t) == (size) && _Alignof(t) == 8, \
                   #t " changed: update rust/robotsc-sys/src/lib.rs and this check")
RS_LAYOUT(rsc_program, 184);
RS_LAYOUT(rsc_load_error, 16);
RS_LAYOUT(rsc_bytes, 16);
RS_LAYOUT(rsc_selection, 424);
RS_LAYOUT(rsc_match, 40);
RS_LAYOUT(rsc_compile_options, 48);
RS_LAYOUT(rsc_blob, 16);
RS_LAYOUT(rsc_diagnostic, 24);
RS_LAYOUT(rsc_semdiag, 32);
RS_LAYOUT(rsc_explore_options, 32);
RS_LAYOUT(rsc_flip, 32);
RS_LAYOUT(rsc_diff_result, 64);
RS_LAYOUT(rsc_parse_options, 24);
_Static_assert(offsetof(rsc_selection, accel) == 408 && offsetof(rsc_match, pattern) == 24 &&
               offsetof(rsc_diff_result, flips) == 24,
               "a field moved: update rust/robotsc-sys/src/lib.rs and this check");
_Static_assert(RSC_MAX_SELECT == 32, "RSC_MAX_SELECT changed: update rust/robotsc-sys/src/lib.rs");
#ifdef RSC_RS_STORE
RS_LAYOUT(rsc_store_meta, 112);
RS_LAYOUT(rsc_store_options, 32);
RS_LAYOUT(rsc_store_record, 136);
RS_LAYOUT(rsc_store_item, 48);
_Static_assert(RSC_ORIGIN_MAX == 270, "RSC_ORIGIN_MAX changed: update rust/robotsc-sys/src/lib.rs");
#endif

size_t rsc_rs_match_many(const rsc_selection *sel, const rsc_bytes *urls, size_t n, uint8_t *out);

/* Verdicts for urls[0..n) into out[0..n) (1 allowed, 0 disallowed);
 * returns how many are allowed. One call from Rust for the whole list: the
 * loop runs here, next to rsc_match_url. */
size_t rsc_rs_match_many(const rsc_selection *sel, const rsc_bytes *urls, size_t n, uint8_t *out)
{
    size_t allowed = 0;
    for (size_t i = 0; i < n; i++) {
        int v = rsc_match_url(sel, urls[i].ptr, urls[i].len, NULL);
        out[i] = (uint8_t)v;
        allowed += (size_t)v;
    }
    return allowed;
}
