/* SPDX-License-Identifier: Apache-2.0 */
/* A reader of format-4 blobs (robotsc 1.0.0, docs/FORMAT.md as of 3a05c31),
 * for upgrades without the source: a store holds blobs, not robots.txt
 * files. It recovers from a blob what the compiler reads of an IR (the
 * rules of every group with their lines, the groups and their agents, the
 * sitemaps, the directives and the profile) and compiles that with the
 * current compiler, so the result is whatever rsc_compile_ir() writes today.
 *
 * The runtime never reads format 4 (it refuses it with RSC_E_VERSION): this
 * file lives beside the compiler and uses the public API only, so it is
 * compiled into the robotsc program and the tests rather than exported from
 * the library (docs/UPGRADE.md).
 *
 * The blob is untrusted: every offset, length and count is checked before
 * use, and any failure is a status with a byte offset and a reason, never a
 * crash. Memory is O(blob size). */
#ifndef ROBOTSC_V4READ_H
#define ROBOTSC_V4READ_H

#include <stddef.h>

#include "robotsc/compiler.h"
#include "robotsc/ir.h"
#include "robotsc/runtime.h"

/* Why a blob was refused: offset of the offending field and a static reason. */
typedef struct rsc_v4_error {
    size_t offset;
    const char *what;
} rsc_v4_error;

/* Parses and verifies a format-4 blob and rebuilds its IR into *out (NULL on
 * failure). RSC_E_VERSION for another major (or an rfc blob of an encoder
 * before 2026-11-27, Flags 1), RSC_E_MAGIC, RSC_E_TRUNCATED, RSC_E_SIZE,
 * RSC_E_CHECKSUM and RSC_E_CORRUPT as rsc_load() of 1.0.0 reported them, plus
 * RSC_E_CORRUPT for a blob whose rules cannot be placed in its groups (one
 * no robotsc encoder writes), RSC_E_NOMEM. err is nullable. The IR owns a
 * copy of the strings it needs; free it with rsc_v4_ir_free() only (not
 * rsc_ir_free()). What the IR cannot hold because format 4 does not keep it:
 * the text of lines, raw values, agent lines (every agent gets its group's
 * line), rules no selection could use (duplicates the compiler dropped), and
 * rules before the first group. None of these reaches a compiled blob. */
rsc_status rsc_v4_read(const void *blob, size_t size, rsc_ir **out, rsc_v4_error *err);
void rsc_v4_ir_free(rsc_ir *ir); /* accepts NULL */

/* What rsc_v4_upgrade() did. */
#define RSC_V4_REBUILT 1 /* a format-4 blob, compiled again from its IR     */
#define RSC_V4_CURRENT 2 /* already the current format: copied unchanged    */

/* Upgrades one blob into out (freed with rsc_blob_free(out, NULL)):
 * - a blob the current runtime loads (rsc_load() succeeds) is copied
 *   unchanged (*what RSC_V4_CURRENT), unless force is set and it is a
 *   format-4 blob, which is then rebuilt (so the rebuild can be tested while
 *   format 4 is current);
 * - a format-4 blob is read (rsc_v4_read), compiled with the current
 *   compiler in its own profile, and the result verified with rsc_load()
 *   (*what RSC_V4_REBUILT);
 * - anything else is refused with the reader's or the runtime's status.
 * err and what are nullable. */
rsc_status rsc_v4_upgrade(const void *blob, size_t size, int force, rsc_blob *out,
                          rsc_v4_error *err, int *what);

#endif
