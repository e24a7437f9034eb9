/* SPDX-License-Identifier: Apache-2.0 */
/* The check in the form runtime.asmcgocall calls (call_fast.go). */
#include "rscgo.h"

int32_t rscgo_match_fast(void *p)
{
	const rscgo_fast_args *a = (const rscgo_fast_args *)p;
	if (a->path)
		return rscgo_match_path(a->sel, a->url, a->len);
	return rscgo_match(a->sel, a->url, a->len);
}
