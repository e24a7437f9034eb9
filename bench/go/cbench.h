/* SPDX-License-Identifier: Apache-2.0 */
/* The C side of bench/go: the same work as the Go calls, timed inside one
 * call into C (no cgo crossing in the loop), so that Go and C are measured
 * on the same selection, URLs and process. */
#ifndef CBENCH_H
#define CBENCH_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <robotsc/compiler.h>

/* The calling thread's CPU time: the bench goroutine is locked to its
 * thread, so other work on the shared machine does not count. */
static inline int64_t cb_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* rsc_select + rsc_match_url over n packed URLs, reps times: ns a check. */
static inline double cb_match(const void *blob, size_t size, const char *agent, size_t alen,
                              const char *buf, const size_t *ends, size_t n, int reps, int *sink)
{
	rsc_program prog;
	rsc_selection sel;
	rsc_bytes a = {alen ? agent : "", alen};
	if (rsc_load(&prog, blob, size, NULL) != RSC_OK || rsc_select(&prog, &a, 1, &sel) != RSC_OK)
		return -1;
	int acc = 0;
	int64_t t0 = cb_now();
	for (int r = 0; r < reps; r++) {
		size_t start = 0;
		for (size_t i = 0; i < n; i++) {
			acc += rsc_match_url(&sel, buf + start, ends[i] - start, NULL);
			start = ends[i];
		}
	}
	int64_t t1 = cb_now();
	*sink += acc;
	return (double)(t1 - t0) / ((double)reps * (double)n);
}

/* rsc_compile + rsc_load + free, reps times: ns a parse. */
static inline double cb_parse(const char *body, size_t len, int reps, int *sink)
{
	int64_t t0 = cb_now();
	for (int r = 0; r < reps; r++) {
		rsc_blob b = {NULL, 0};
		rsc_program prog;
		if (rsc_compile(len ? body : "", len, NULL, &b) != RSC_OK)
			return -1;
		*sink += rsc_load(&prog, b.data, b.size, NULL);
		rsc_blob_free(&b, NULL);
	}
	return (double)(cb_now() - t0) / reps;
}

/* An empty C function: the price of one cgo crossing. */
static inline int cb_empty(int x) { return x + 1; }
#endif
