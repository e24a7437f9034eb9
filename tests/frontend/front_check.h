/* SPDX-License-Identifier: Apache-2.0 */
/* Checks shared by the front-end tests: IR invariants, a naive oracle for
 * the per-line lint records (spec A-C written the obvious way, as a byte
 * loop with a line buffer), and a comparison with the reference parser of
 * tests/ref. Each returns 0, or -1 with a reason in why[0..n). */
#ifndef RSC_FRONT_CHECK_H
#define RSC_FRONT_CHECK_H

#include <stddef.h>

#include "robotsc/ir.h"

int fc_invariants(const rsc_ir *ir, const void *body, size_t len, char *why, size_t n);
int fc_records(const rsc_ir *ir, const void *body, size_t len, char *why, size_t n);
int fc_against_ref(const rsc_ir *ir, const void *body, size_t len, char *why, size_t n);

/* All three. */
int fc_all(const rsc_ir *ir, const void *body, size_t len, char *why, size_t n);

#endif
