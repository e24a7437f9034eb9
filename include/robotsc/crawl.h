/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc crawler support: the questions around a robots.txt file that a
 * crawler must answer before the runtime can check a URL (spec I, RFC 9309
 * sections 2.3-2.4, Google's robots.txt documentation):
 *
 *   scope   which robots.txt governs a URL, and a canonical origin key for
 *           caches (rsc_origin_parse);
 *   policy  what to compile from a fetch outcome: the body, allow-all or
 *           disallow-all (rsc_status_policy);
 *   cache   how long a compiled robots.txt may be used, and which copy to use
 *           while the server fails (rsc_cache_ttl, rsc_cache_decide);
 *   fetch   an HTTP(S)/FTP GET of a robots.txt with the limits of spec I and
 *           the 500 KiB cap (rsc_fetch, libcurl), or of many at once with
 *           conditional GETs (rsc_fetch_many).
 *
 * docs/CRAWLER.md describes the crawler loop built from these pieces ("spec
 * X" is section X of docs/SEMANTICS.md; both are installed under
 * share/doc/robotsc/docs/).
 *
 * Dependencies: libidn2 (scope) and libcurl (fetch). This library sits
 * above the compiler; the runtime never depends on it.
 *
 * Ownership: rsc_origin is a plain value with fixed buffers. Policy and
 * cache results point either into the caller's fetch outcome or to static
 * storage. rsc_fetch() allocates the result's buffers; free them with
 * rsc_fetch_result_free(). No function here prints or exits.
 *
 * Thread safety: every function is reentrant. rsc_fetch() and
 * rsc_fetch_many() use libcurl, whose global initialisation is not
 * thread-safe on every platform: call rsc_crawl_global_init() once before
 * starting threads. */
#ifndef ROBOTSC_CRAWL_H
#define ROBOTSC_CRAWL_H

#include <stddef.h>
#include <stdint.h>

#include "robotsc/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Scope --------------------------------------------------------------- */

/* Why a URL has no robots.txt. Values are ABI: append only. */
typedef enum rsc_url_status {
    RSC_URL_OK = 0,
    RSC_URL_E_ARG = 1,        /* NULL pointer                                    */
    RSC_URL_E_RELATIVE = 2,   /* no scheme: a relative or "//host" reference      */
    RSC_URL_E_SCHEME = 3,     /* a scheme with no robots.txt (mailto:, data:, ...) */
    RSC_URL_E_SYNTAX = 4,     /* "http:" without "//", or a space, control byte
                                 or backslash in the authority                   */
    RSC_URL_E_EMPTY_HOST = 5, /* "http:///x", "http://user@:80/"                  */
    RSC_URL_E_HOST = 6,       /* a forbidden byte in the host, a bad %-escape,
                                 or an invalid IPv6 literal                      */
    RSC_URL_E_PORT = 7,       /* port not a number in 1..65535                    */
    RSC_URL_E_IDN = 8,        /* libidn2 refused the internationalised host       */
    RSC_URL_E_TOO_LONG = 9    /* host longer than RSC_HOST_MAX after conversion   */
} rsc_url_status;

/* Static string describing an rsc_url_status, never NULL. */
RSC_API const char *rsc_url_strerror(int status);

#define RSC_HOST_MAX 255 /* bytes of a converted host: DNS names have at most
                            253 (+1 for a trailing dot); IPv6 literals fewer */
/* "https://" + host + ":65535" */
#define RSC_ORIGIN_MAX (8 + RSC_HOST_MAX + 6 + 1)

/* The origin of a URL (spec I): the robots.txt that governs it and a
 * canonical key for caching its compiled form. Two URLs are governed by the
 * same robots.txt iff their keys are equal (strcmp). */
typedef struct rsc_origin {
    char scheme[6];        /* "http", "https" or "ftp"                        */
    char host[RSC_HOST_MAX + 1]; /* lower-case ASCII: a punycode (A-label)
                              name, a dotted IPv4 address, or "[v6]" in the
                              canonical text form of RFC 5952               */
    uint16_t port;         /* the effective port (80 when none is written)     */
    uint8_t default_port;  /* 1: port is the scheme's default (80/443/21)      */
    char key[RSC_ORIGIN_MAX];             /* "https://xn--exmple-cua.com",
                                             "http://[::1]:8080"              */
    size_t key_len;
    char robots_url[RSC_ORIGIN_MAX + 11]; /* key + "/robots.txt"              */
    size_t robots_url_len;
} rsc_origin;

/* Scope of an absolute http, https or ftp URL (case-insensitive scheme):
 * scheme and host lower-cased, the default port dropped (80 http, 443
 * https, 21 ftp; "host:" counts as no port), userinfo dropped, the host
 * %-decoded, an IDN host converted to punycode (UTS #46 non-transitional,
 * NFC input), IPv4 literals kept, IPv6 literals canonicalised. Path, query
 * and fragment do not matter: the robots.txt is always /robots.txt at the
 * top of the origin. Leading and trailing spaces, tabs, CR and LF are
 * ignored. On failure *out is zeroed. */
RSC_API rsc_url_status rsc_origin_parse(const char *url, size_t len, rsc_origin *out);

/* 1 when url is itself a robots.txt file that crawlers read: an http,
 * https or ftp URL whose path is exactly "/robots.txt" (any query ignored).
 * "https://example.com/folder/robots.txt" is not one. */
RSC_API int rsc_url_is_robots(const char *url, size_t len);

/* ---- Status policy (spec I) ---------------------------------------------- */

#define RSC_MAX_REDIRECTS 5 /* hops followed; one more is treated as a 404 */

/* How a fetch ended when no usable HTTP status came back. */
typedef enum rsc_fetch_error {
    RSC_FETCH_OK = 0,          /* a final response: see status              */
    RSC_FETCH_E_NETWORK = 1,   /* DNS, connect, reset, TLS, empty reply      */
    RSC_FETCH_E_TIMEOUT = 2,
    RSC_FETCH_E_REDIRECTS = 3  /* more than the allowed redirects; status is
                                  the last 3xx                              */
} rsc_fetch_error;

/* The outcome of one robots.txt fetch, as the policy sees it. */
typedef struct rsc_fetch_outcome {
    int status;        /* HTTP status of the final response, 0 when none    */
    int error;         /* rsc_fetch_error                                   */
    const void *body;  /* the response body (nullable when body_len == 0)   */
    size_t body_len;
} rsc_fetch_outcome;

typedef enum rsc_policy {
    RSC_POLICY_PARSE = 0,       /* compile the fetched body                  */
    RSC_POLICY_ALLOW_ALL = 1,   /* no restrictions                           */
    RSC_POLICY_DISALLOW_ALL = 2 /* nothing may be crawled                    */
} rsc_policy;

/* "parse", "allow-all", "disallow-all" ("?" for other values). */
RSC_API const char *rsc_policy_name(int policy);

/* What to compile for a policy. Allow-all and disallow-all are ordinary
 * robots.txt texts: one global group, so they apply to every agent (no
 * group names any agent, spec F.6.3). The compiled blobs need no special
 * case in a worker. */
#define RSC_ALLOW_ALL_TEXT "User-agent: *\nAllow: /\n"
#define RSC_DISALLOW_ALL_TEXT "User-agent: *\nDisallow: /\n"

typedef struct rsc_policy_result {
    rsc_policy policy;
    int definite;     /* 1: the server gave a definite answer (2xx, 4xx
                         other than 429, or the redirect limit), which may be
                         cached as the "last good copy"; 0: an error
                         (5xx, 429, network), to be retried              */
    const void *body; /* the text to compile: the outcome's body for
                         PARSE, else a static RSC_*_ALL_TEXT            */
    size_t body_len;
    const char *reason; /* static, e.g. "4xx: no restrictions" */
} rsc_policy_result;

/* Spec I, without history: 2xx parse the body; 3xx (a redirect not
 * followed, or the redirect limit) as 404; 4xx except 429 allow all; 429,
 * 5xx, network errors and timeouts disallow all; any other status (1xx,
 * >= 600, none) counts as a server error. */
RSC_API void rsc_status_policy(const rsc_fetch_outcome *o, rsc_policy_result *r);

/* ---- Cache lifetimes (spec I) -------------------------------------------- */

#define RSC_DAY 86400

/* All times are seconds (Unix time for instants). Zero fields take the
 * defaults in brackets. */
typedef struct rsc_cache_options {
    int64_t default_ttl;  /* [24 h] lifetime without Cache-Control max-age    */
    int64_t min_ttl;      /* [60 s] floor of every lifetime; no-cache,
                             no-store and max-age=0 give this floor, so a
                             robots.txt is fetched at most once a minute     */
    int64_t max_ttl;      /* [30 days] ceiling of max-age                    */
    int64_t retry_ttl;    /* [15 min] next attempt after a failed fetch      */
    int64_t unreachable;  /* [30 days] errors lasting longer than this mean
                             "unreachable": with no copy, allow all          */
    int64_t copy_max;     /* [0 = no limit] drop the last good copy once the
                             errors have lasted this long (RFC 9309 2.4
                             permits either; spec I keeps it)               */
} rsc_cache_options;

/* Lifetime in seconds of a definite answer given the values of its
 * Cache-Control header(s) (joined with ","; nullable): no-store or no-cache
 * -> min_ttl; else the first max-age, clamped to [min_ttl, max_ttl]; else
 * default_ttl. Other directives (s-maxage, private, ...) are ignored. */
RSC_API int64_t rsc_cache_ttl(const char *cache_control, size_t len,
                      const rsc_cache_options *opt);

/* What a crawler stores per origin next to the compiled blob. A zeroed
 * struct means "nothing stored". */
typedef struct rsc_cache_state {
    int64_t fetched_at;  /* when the stored blob's answer was fetched         */
    int64_t expires;     /* refetch at or after this instant                  */
    int64_t error_since; /* first failed fetch of the current run; 0: none    */
    uint8_t has_copy;    /* the stored blob is a definite answer (good copy) */
    uint8_t policy;      /* rsc_policy of the stored blob                     */
} rsc_cache_state;

/* 1 when a stored blob may be used at `now` without refetching. */
RSC_API int rsc_cache_fresh(const rsc_cache_state *st, int64_t now);

typedef struct rsc_cache_decision {
    int keep;            /* 1: keep using the stored blob; compile nothing   */
    rsc_policy policy;   /* keep == 0: what to compile (body below)          */
    const void *body;    /* keep == 0: the text to compile                   */
    size_t body_len;
    const char *reason;  /* static                                           */
    rsc_cache_state next; /* the state to store with the blob                */
} rsc_cache_decision;

/* Combines a new fetch outcome with what is stored (prev nullable):
 *  - a definite answer replaces the stored blob; it lives rsc_cache_ttl();
 *  - an error while a good copy is stored keeps the copy ("cache longer
 *    when refreshing fails", spec I), retried after retry_ttl;
 *  - an error with no good copy: disallow all, or, once the errors have
 *    lasted longer than `unreachable` (30 days), allow all.
 * cache_control: the final response's Cache-Control values (nullable). */
RSC_API void rsc_cache_decide(const rsc_cache_state *prev, const rsc_fetch_outcome *o,
                      const char *cache_control, size_t cc_len, int64_t now,
                      const rsc_cache_options *opt, rsc_cache_decision *d);

/* ---- Fetch (libcurl) ----------------------------------------------------- */

typedef struct rsc_fetch_options {
    const char *user_agent;  /* User-Agent header; NULL: "robotsc/" version   */
    long timeout_ms;         /* whole transfer; 0: 30 s                        */
    long connect_timeout_ms; /* 0: the smaller of timeout_ms and 10 s          */
    int max_redirects;       /* 0: RSC_MAX_REDIRECTS; -1: follow none          */
    size_t max_body;         /* bytes kept; 0: RSC_MAX_BODY (500 KiB)          */
} rsc_fetch_options;

typedef struct rsc_fetch_result {
    rsc_fetch_outcome outcome; /* body points into `body`                     */
    unsigned char *body;       /* malloc'ed (may be NULL when empty)          */
    size_t body_len;
    int truncated;             /* 1: the transfer was stopped at max_body     */
    long redirects;            /* redirects followed                          */
    char *final_url;           /* malloc'ed: the URL of the last response     */
    char *cache_control;       /* malloc'ed or NULL: Cache-Control values of
                                  the final response, joined by ", "        */
    char error_text[256];      /* why the fetch failed ("" on success)        */
    char *etag;                /* malloc'ed or NULL: the final response's     */
    char *last_modified;       /* ETag and Last-Modified (validators for a
                                  conditional GET), NULL past 1024 bytes     */
} rsc_fetch_result;

/* Unconditional GET of url (normally rsc_origin.robots_url): follows up to
 * max_redirects redirects (http/https only), stops reading after max_body
 * bytes (the rest is not downloaded), honours the timeouts. Returns RSC_OK
 * whenever res->outcome describes what happened, network errors included;
 * RSC_E_ARG, RSC_E_NOMEM, or RSC_E_IO when libcurl cannot be set up. res
 * must be freed with rsc_fetch_result_free() in every case. */
RSC_API rsc_status rsc_fetch(const char *url, const rsc_fetch_options *opt,
                     rsc_fetch_result *res);
RSC_API void rsc_fetch_result_free(rsc_fetch_result *res); /* accepts NULL */

/* One request of rsc_fetch_many(). The validators (nullable) are those a
 * stored copy was fetched with: sent as If-None-Match / If-Modified-Since,
 * they make the GET conditional (a 304 says the copy is current). */
typedef struct rsc_fetch_request {
    const char *url; /* normally rsc_origin.robots_url */
    const char *if_none_match;
    const char *if_modified_since;
} rsc_fetch_request;

/* Called by rsc_fetch_many() once per request, when its transfer ends, on
 * the calling thread; i is the request's index. status: RSC_OK when res
 * describes what happened (as rsc_fetch()'s result, network errors
 * included); else res is empty and status is RSC_E_NOMEM, RSC_E_IO (libcurl
 * could not set the transfer up) or RSC_E_ARG (the request's url is NULL). res is freed when the callback returns:
 * take a buffer (and set its pointer to NULL) to keep it. */
typedef void (*rsc_fetch_done_fn)(void *ud, size_t i, rsc_status status, rsc_fetch_result *res);

/* Fetches reqs[0..n) as rsc_fetch() fetches one (the same options, limits
 * and result), up to `parallel` transfers at a time (0: 16), started in
 * the order given; done() hears of each as it ends. Returns RSC_OK after
 * every request was reported, RSC_E_ARG for NULL reqs (n > 0) or done, or
 * RSC_E_IO when libcurl cannot be set up (no request was reported). */
RSC_API rsc_status rsc_fetch_many(const rsc_fetch_request *reqs, size_t n, const rsc_fetch_options *opt,
                                  size_t parallel, rsc_fetch_done_fn done, void *ud);

/* libcurl's global set-up and tear-down; call once per process, before
 * and after any threads use rsc_fetch(). Return RSC_OK or RSC_E_IO. */
RSC_API rsc_status rsc_crawl_global_init(void);
RSC_API void rsc_crawl_global_cleanup(void);

#ifdef __cplusplus
}
#endif
#endif
