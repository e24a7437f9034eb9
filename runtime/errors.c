/* SPDX-License-Identifier: Apache-2.0 */
/* rsc_strerror(): status names and strings cannot drift apart (STYLE 2.3). */
#include <stddef.h>

#include "robotsc/runtime.h"

static const char *const messages[] = {
    [RSC_OK] = "success",
    [RSC_E_ARG] = "invalid argument",
    [RSC_E_NOMEM] = "out of memory",
    [RSC_E_LIMIT] = "limit exceeded",
    [RSC_E_IO] = "I/O error",
    [RSC_E_TRUNCATED] = "truncated blob",
    [RSC_E_MAGIC] = "not a robotsc blob (bad magic)",
    [RSC_E_VERSION] = "unsupported blob version (compile it again)",
    [RSC_E_CHECKSUM] = "checksum mismatch (damaged blob)",
    [RSC_E_CORRUPT] = "corrupt blob (failed verification)",
    [RSC_E_SIZE] = "blob size does not match Total_Size",
};

/* Grows with the enum: a new status needs a string here. */
_Static_assert(sizeof messages / sizeof messages[0] == RSC_E_SIZE + 1,
               "rsc_strerror table out of step with rsc_status");

const char *rsc_strerror(int status)
{
    if (status < 0 || (size_t)status >= sizeof messages / sizeof messages[0] ||
        !messages[status])
        return "unknown status";
    return messages[status];
}
