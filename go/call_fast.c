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

int32_t rscgo_match_many_fast(void *p)
{
	const rscgo_fast_many_args *a = (const rscgo_fast_many_args *)p;
	const rsc_selection *s = (const rsc_selection *)a->sel;
	for (size_t i = 0; i < a->n; i++)
		a->out[i] = (unsigned char)rsc_match_url(s, rscgo_nz(a->urls[i].ptr, a->urls[i].len),
		                                         a->urls[i].len, NULL);
	return 0;
}
