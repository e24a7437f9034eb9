/* SPDX-License-Identifier: Apache-2.0 */
/* The C side of the Go package: small helpers each Go call crosses into
 * once. Every file of the package includes it (cgo compiles each file's
 * preamble apart: static functions, one copy each). */
#ifndef RSCGO_H
#define RSCGO_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <robotsc/compiler.h>

// Pointers to C memory (programs, selections) cross as uintptr_t: cgo then
// inserts no pointer check on the call, which would cost more than a
// match. Go memory (URLs, agent names) crosses as char pointers: it holds
// no Go pointers, and C keeps none of it after the call (cgo's rules).

// The bytes behind a Go string or slice of length 0 may be NULL.
static inline const char *rscgo_nz(const char *p, size_t len) { return len ? p : ""; }

static inline int rscgo_match(uintptr_t sel, const char *url, size_t len)
{
	return rsc_match_url((const rsc_selection *)sel, rscgo_nz(url, len), len, NULL);
}

// A path as a crawler's URL gives it (it should start with '/'), matched
// without the URL reading: "/a?u=http://b/c" is that path, where a URL
// reading would take "/c". A fragment is no part of it (spec G).
static inline int rscgo_match_path(uintptr_t sel, const char *path, size_t len)
{
	const char *hash = len ? memchr(path, '#', len) : NULL;
	if (hash)
		len = (size_t)(hash - path);
	return rsc_match_path((const rsc_selection *)sel, rscgo_nz(path, len), len, NULL);
}

// The one-argument form runtime.asmcgocall calls (fastcall.go, build tag
// robotsc_fastcall): the check without cgo's scheduler hand-off.
typedef struct rscgo_fast_args {
	uintptr_t sel;
	const char *url;
	size_t len;
	int path; // 1: rscgo_match_path
} rscgo_fast_args;

typedef struct rscgo_fast_many_args {
	uintptr_t sel;
	const rsc_bytes *urls; // a Go []string's headers, read in place
	size_t n;
	unsigned char *out;
} rscgo_fast_many_args;

// Defined in call_fast.c: cgo takes their addresses, which needs symbols.
int32_t rscgo_match_fast(void *p);
int32_t rscgo_match_many_fast(void *p);

// URLs packed in buf, URL i ending at ends[i]: one crossing for n checks.
static inline void rscgo_match_many(uintptr_t sel, const char *buf, const size_t *ends, size_t n,
                             unsigned char *out)
{
	const rsc_selection *s = (const rsc_selection *)sel;
	size_t start = 0;
	if (!buf) // every URL empty (no arithmetic on a null pointer)
		buf = "";
	for (size_t i = 0; i < n; i++) {
		out[i] = (unsigned char)rsc_match_url(s, buf + start, ends[i] - start, NULL);
		start = ends[i];
	}
}

static inline int rscgo_explain(uintptr_t sel, const char *url, size_t len, rsc_match *m)
{
	memset(m, 0, sizeof *m);
	return rsc_match_url((const rsc_selection *)sel, rscgo_nz(url, len), len, m);
}

// Names packed as in rscgo_match_many. ua: each name is a User-Agent
// header (or Name/version), reduced to its product token; a header without
// one is used as given (Google gives such a name the '*' group).
#define RSCGO_MAX_NAMES 64
static inline rsc_status rscgo_select(uintptr_t prog, const char *buf, const size_t *ends, size_t n,
                               int ua, uintptr_t out)
{
	rsc_bytes names[RSCGO_MAX_NAMES];
	if (n == 0 || n > RSCGO_MAX_NAMES)
		return RSC_E_ARG;
	size_t start = 0;
	if (!buf) // every name empty
		buf = "";
	for (size_t i = 0; i < n; i++) {
		names[i].ptr = buf + start;
		names[i].len = ends[i] - start;
		start = ends[i];
		rsc_bytes tok;
		int changed;
		if (ua && rsc_agent_token(names[i].ptr, names[i].len, &tok, &changed) == RSC_OK)
			names[i] = tok;
	}
	return rsc_select((const rsc_program *)prog, names, n, (rsc_selection *)out);
}

// One name, selected and matched in one crossing (agents not cached).
static inline int rscgo_select_match(uintptr_t prog, const char *agent, size_t alen, int ua,
                              const char *url, size_t ulen)
{
	rsc_selection sel;
	size_t end = alen;
	rscgo_select(prog, agent, &end, 1, ua, (uintptr_t)&sel); // failed: answers 0
	return rscgo_match((uintptr_t)&sel, url, ulen);
}

static inline rsc_status rscgo_load(uintptr_t prog, uintptr_t blob, size_t size, rsc_load_error *err)
{
	return rsc_load((rsc_program *)prog, (const void *)blob, size, err);
}

static inline rsc_status rscgo_compile(const char *body, size_t len, int profile, rsc_blob *out)
{
	rsc_compile_options opt;
	memset(&opt, 0, sizeof opt);
	opt.profile = profile ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
	return rsc_compile(rscgo_nz(body, len), len, &opt, out);
}

static inline int rscgo_crawl_delay(uintptr_t sel, double *s)
{
	return rsc_crawl_delay((const rsc_selection *)sel, s);
}

static inline int rscgo_request_rate(uintptr_t sel, uint32_t *n, double *s)
{
	return rsc_request_rate((const rsc_selection *)sel, n, s);
}

static inline size_t rscgo_sitemap_count(uintptr_t prog) { return rsc_sitemap_count((const rsc_program *)prog); }

static inline int rscgo_sitemap_get(uintptr_t prog, size_t i, uint32_t *line, rsc_bytes *url)
{
	return rsc_sitemap_get((const rsc_program *)prog, i, line, url);
}

static inline int rscgo_profile(uintptr_t prog) { return rsc_program_profile((const rsc_program *)prog); }

static inline int rscgo_uniform(uintptr_t sel) { return rsc_selection_uniform((const rsc_selection *)sel); }

static inline uint32_t rscgo_not_tokens(uintptr_t sel) { return ((const rsc_selection *)sel)->not_tokens; }

static inline uint32_t rscgo_named(uintptr_t sel) { return ((const rsc_selection *)sel)->named; }

// The AGENTS token of the k-th agent entry the selection names, or 0.
static inline int rscgo_sel_agent(uintptr_t sel, uint32_t k, rsc_bytes *tok)
{
	const rsc_selection *s = (const rsc_selection *)sel;
	if (k >= s->n_agents)
		return 0;
	return rsc_blob_agent(s->prog, s->agents[k], tok);
}

static inline int rscgo_has_global(uintptr_t prog)
{
	rsc_blob_info info;
	if (rsc_blob_info_get((const rsc_program *)prog, &info) != RSC_OK)
		return 0;
	return (int)info.has_global;
}

static inline int rscgo_group_directive(uintptr_t sel, const char *key, rsc_bytes *v)
{
	uint32_t line;
	return rsc_group_directive((const rsc_selection *)sel, key, v, &line);
}

static inline size_t rscgo_directive_count(uintptr_t prog) { return rsc_directive_count((const rsc_program *)prog); }

static inline int rscgo_directive_get(uintptr_t prog, size_t i, rsc_bytes *key, rsc_bytes *val)
{
	uint32_t line;
	return rsc_directive_get((const rsc_program *)prog, i, &line, key, val);
}
#endif
