/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc fetch --store DB URL...: refreshes the records of many origins at
 * once. libcurl's multi interface runs up to --parallel transfers; a record
 * with an ETag or Last-Modified is revalidated with a conditional GET (a 304
 * refreshes its expiry, nothing is recompiled); every outcome goes through
 * the status policy and cache rules of crawl.h, as `robotsc fetch` does
 * for one origin (docs/CRAWLER.md). */
#define _POSIX_C_SOURCE 200809L
#include <curl/curl.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"
#include "robotsc/compiler.h"
#include "robotsc/crawl.h"
#include "robotsc/runtime.h"
#include "robotsc/store.h"

#define CMD "fetch"

typedef struct xfer {
    rsc_origin o;
    /* what is stored */
    int has_prev;
    rsc_cache_state prev;
    char *etag, *lm; /* validators sent */
    /* the response */
    CURL *c;
    struct curl_slist *hdrs;
    unsigned char *body;
    size_t len, cap;
    int truncated, nomem;
    char *cc, *r_etag, *r_lm; /* headers of the final response */
    char err[CURL_ERROR_SIZE];
} xfer;

static void xfer_free(xfer *x)
{
    if (x->c)
        curl_easy_cleanup(x->c);
    curl_slist_free_all(x->hdrs);
    free(x->etag);
    free(x->lm);
    free(x->body);
    free(x->cc);
    free(x->r_etag);
    free(x->r_lm);
    memset(x, 0, sizeof *x);
}

static size_t on_body(char *p, size_t size, size_t nmemb, void *ud)
{
    xfer *x = ud;
    size_t n = size * nmemb, room = RSC_MAX_BODY - x->len, take = n < room ? n : room;
    if (x->len + take > x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 16384;
        while (cap < x->len + take)
            cap *= 2;
        unsigned char *nb = realloc(x->body, cap);
        if (!nb) {
            x->nomem = 1;
            return 0;
        }
        x->body = nb;
        x->cap = cap;
    }
    if (take)
        memcpy(x->body + x->len, p, take);
    x->len += take;
    if (take < n) { /* past the 500 KiB that are parsed: stop here */
        x->truncated = 1;
        return 0;
    }
    return n;
}

/* Replaces *dst with the header's value (trimmed), or appends with ", ". */
static int set_hdr(char **dst, const char *v, size_t n, int append)
{
    while (n && (v[0] == ' ' || v[0] == '\t'))
        v++, n--;
    while (n && (v[n - 1] == '\r' || v[n - 1] == '\n' || v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    if (n > 1024)
        return 0; /* no sane validator or Cache-Control is longer */
    size_t old = append && *dst ? strlen(*dst) : 0;
    char *d = realloc(append ? *dst : NULL, old + (old ? 2 : 0) + n + 1);
    if (!d)
        return -1;
    if (!append)
        free(*dst);
    if (old)
        memcpy(d + old, ", ", 2), old += 2;
    memcpy(d + old, v, n);
    d[old + n] = 0;
    *dst = d;
    return 0;
}

static size_t on_header(char *p, size_t size, size_t nmemb, void *ud)
{
    xfer *x = ud;
    size_t n = size * nmemb;
    int r = 0;
    if (n >= 5 && strncasecmp(p, "http/", 5) == 0) { /* a new response */
        free(x->cc), free(x->r_etag), free(x->r_lm);
        x->cc = x->r_etag = x->r_lm = NULL;
    } else if (n > 14 && strncasecmp(p, "cache-control:", 14) == 0) {
        r = set_hdr(&x->cc, p + 14, n - 14, 1);
    } else if (n > 5 && strncasecmp(p, "etag:", 5) == 0) {
        r = set_hdr(&x->r_etag, p + 5, n - 5, 0);
    } else if (n > 14 && strncasecmp(p, "last-modified:", 14) == 0) {
        r = set_hdr(&x->r_lm, p + 14, n - 14, 0);
    }
    if (r) {
        x->nomem = 1;
        return 0;
    }
    return n;
}

static int setup(xfer *x, const char *ua, long timeout_ms)
{
    CURL *c = curl_easy_init();
    if (!c)
        return -1;
    x->c = c;
    int ok = curl_easy_setopt(c, CURLOPT_URL, x->o.robots_url) == CURLE_OK;
#if LIBCURL_VERSION_NUM >= 0x075500
    ok = ok && curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https,ftp") == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") == CURLE_OK;
#else
    ok = ok && curl_easy_setopt(c, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS | CURLPROTO_FTP)) ==
                   CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS)) == CURLE_OK;
#endif
    ok = ok && curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_USERAGENT, ua) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms < 10000 ? timeout_ms : 10000L) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_MAXREDIRS, (long)RSC_MAX_REDIRECTS) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "") == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_WRITEDATA, x) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_HEADERDATA, x) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_ERRORBUFFER, x->err) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_PRIVATE, x) == CURLE_OK;
    /* Conditional GET: only a good copy can be revalidated. */
    if (x->has_prev && x->prev.has_copy && (x->etag || x->lm)) {
        char h[1100];
        if (x->etag) {
            snprintf(h, sizeof h, "If-None-Match: %s", x->etag);
            struct curl_slist *l = curl_slist_append(x->hdrs, h);
            ok = ok && l;
            if (l)
                x->hdrs = l;
        }
        if (x->lm) {
            snprintf(h, sizeof h, "If-Modified-Since: %s", x->lm);
            struct curl_slist *l = curl_slist_append(x->hdrs, h);
            ok = ok && l;
            if (l)
                x->hdrs = l;
        }
        ok = ok && curl_easy_setopt(c, CURLOPT_HTTPHEADER, x->hdrs) == CURLE_OK;
    }
    return ok ? 0 : -1;
}

static int cmp_xfer(const void *a, const void *b)
{
    return strcmp(((const xfer *)a)->o.key, ((const xfer *)b)->o.key);
}

static const char usage_text[] =
    "usage: robotsc fetch --store DB URL... [--parallel N] [--user-agent UA] [--timeout SECONDS]\n"
    "                     [--profile google|rfc] [--now T] [--force]\n"
    "Refreshes DB's records of the origins of URL... (or of the URLs on standard input, one\n"
    "per line): an origin whose record is still fresh is skipped (--force fetches anyway);\n"
    "the others are fetched, up to --parallel (default 16) at a time. A record with an\n"
    "ETag or Last-Modified is revalidated with a conditional GET: 304 refreshes its expiry\n"
    "without recompiling. Every outcome goes through the status policy and cache rules\n"
    "(a server error keeps a good copy). One line per origin: origin, outcome, what was\n"
    "stored. Exit 0 when every origin has a record, 2 otherwise.";

int rsc_store_fetch(int argc, char **argv)
{
    const char *db = NULL, *ua = "robotsc/0.1", *val;
    double timeout = 30;
    long parallel = 16;
    int64_t now = (int64_t)time(NULL);
    int force = 0, rc = 2;
    rsc_compile_options co = {0};
    char **urls = calloc((size_t)argc + 1, sizeof *urls);
    size_t n_urls = 0;
    char *line = NULL;
    size_t lcap = 0;
    if (!urls)
        return rsc_cli_fail(CMD, "out of memory");
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts(usage_text);
            free(urls);
            return 0;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--store", &val)) != 0) {
            if (r < 0)
                goto missing;
            db = val;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--parallel", &val)) != 0) {
            char *end;
            if (r < 0)
                goto missing;
            parallel = strtol(val, &end, 10);
            if (*end || parallel < 1 || parallel > 1000) {
                rsc_cli_fail(CMD, "--parallel: 1..1000 transfers, not '%s'", val);
                goto out;
            }
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--user-agent", &val)) != 0) {
            if (r < 0)
                goto missing;
            ua = val;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--timeout", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (rsc_cli_timeout(CMD, val, &timeout) != 0)
                goto out;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--now", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (rsc_cli_i64(val, &now) != 0) {
                rsc_cli_fail(CMD, "--now: Unix seconds, not '%s'", val);
                goto out;
            }
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--profile", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (strcmp(val, "google") == 0)
                co.profile = RSC_PROFILE_GOOGLE;
            else if (strcmp(val, "rfc") == 0)
                co.profile = RSC_PROFILE_RFC;
            else {
                rsc_cli_fail(CMD, "unknown profile '%s' (google or rfc)", val);
                goto out;
            }
        } else if (strcmp(argv[i], "--force") == 0) {
            force = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            rsc_cli_fail(CMD, "--store: unknown option '%s'", argv[i]);
            goto out;
        } else {
            urls[n_urls++] = argv[i];
        }
        continue;
    missing:
        rsc_cli_fail(CMD, "%s needs a value", argv[i]);
        goto out;
    }
    if (!db) {
        rsc_cli_fail(CMD, "--store needs a value");
        goto out;
    }

    /* The origins, each once, with what is stored for them. */
    size_t n_x = 0, cap_x = 0;
    xfer *xs = NULL;
    int errors = 0;
    rsc_store_options so = {0};
    rsc_store *st = NULL;
    rsc_store_status ss = rsc_store_open(db, &so, &st);
    if (ss != RSC_STORE_OK) {
        rsc_cli_fail(CMD, "%s: %s (%s)", db, rsc_store_strerror(ss), rsc_store_last_error(NULL));
        goto out;
    }
    rsc_store_txn *t = NULL;
    if (rsc_store_begin(st, &t) != RSC_STORE_OK) {
        rsc_cli_fail(CMD, "%s: %s", db, rsc_store_last_error(st));
        rsc_store_close(st);
        goto out;
    }
    const char *u;
    size_t len, k = 0;
    while (rsc_cli_next_url(urls, n_urls, &k, &line, &lcap, &u, &len)) {
        rsc_origin o;
        rsc_url_status us = rsc_origin_parse(u, len, &o);
        if (us != RSC_URL_OK) {
            rsc_cli_fail(CMD, "%s: %s", u, rsc_url_strerror(us));
            errors++;
            continue;
        }
        if (n_x == cap_x) {
            cap_x = cap_x ? cap_x * 2 : 64;
            xfer *nx = realloc(xs, cap_x * sizeof *nx);
            if (!nx) {
                rsc_cli_fail(CMD, "out of memory");
                errors++;
                break;
            }
            xs = nx;
        }
        xfer *x = &xs[n_x++];
        memset(x, 0, sizeof *x);
        x->o = o;
        rsc_store_record r;
        rsc_program p;
        if (rsc_store_get(t, o.key, o.key_len, &r, &p, NULL) == RSC_STORE_OK) {
            x->has_prev = 1;
            x->prev.fetched_at = r.meta.fetched_at;
            x->prev.expires = r.meta.expires;
            x->prev.error_since = r.meta.error_since;
            x->prev.has_copy = r.meta.has_copy;
            x->prev.policy = r.meta.policy;
            if (r.meta.etag.len)
                x->etag = strndup(r.meta.etag.ptr, r.meta.etag.len);
            if (r.meta.last_modified.len)
                x->lm = strndup(r.meta.last_modified.ptr, r.meta.last_modified.len);
        }
    }
    rsc_store_end(t);
    /* Each origin once: sorted by key, repeats dropped. */
    if (n_x > 1) {
        qsort(xs, n_x, sizeof *xs, cmp_xfer);
        size_t w = 1;
        for (size_t j = 1; j < n_x; j++) {
            if (strcmp(xs[j].o.key, xs[w - 1].o.key) == 0)
                xfer_free(&xs[j]);
            else
                xs[w++] = xs[j];
        }
        n_x = w;
    }

    if (rsc_crawl_global_init() != RSC_OK) {
        rsc_cli_fail(CMD, "cannot initialise libcurl");
        errors++;
        goto done;
    }
    CURLM *m = curl_multi_init();
    if (!m) {
        rsc_cli_fail(CMD, "cannot initialise libcurl");
        errors++;
        goto cleanup;
    }
    curl_multi_setopt(m, CURLMOPT_MAX_TOTAL_CONNECTIONS, parallel);
    long timeout_ms = (long)(timeout * 1000 + 0.5);
    size_t next = 0, running_n = 0, fresh = 0;
    for (;;) {
        /* Keep up to `parallel` transfers going. */
        while (next < n_x && running_n < (size_t)parallel) {
            xfer *x = &xs[next++];
            if (x->has_prev && !force && rsc_cache_fresh(&x->prev, now)) {
                printf("%s\tfresh\tkept (expires in %" PRId64 " s)\n", x->o.key, x->prev.expires - now);
                fresh++;
                continue;
            }
            if (setup(x, ua, timeout_ms) != 0 || curl_multi_add_handle(m, x->c) != CURLM_OK) {
                rsc_cli_fail(CMD, "%s: cannot set up the transfer", x->o.key);
                errors++;
                continue;
            }
            running_n++;
        }
        if (running_n == 0 && next >= n_x)
            break;
        int still;
        curl_multi_perform(m, &still);
        CURLMsg *msg;
        int left;
        while ((msg = curl_multi_info_read(m, &left)) != NULL) {
            if (msg->msg != CURLMSG_DONE)
                continue;
            xfer *x = NULL;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
            CURLcode cr = msg->data.result;
            curl_multi_remove_handle(m, x->c);
            running_n--;
            long status = 0;
            curl_easy_getinfo(x->c, CURLINFO_RESPONSE_CODE, &status);
            rsc_fetch_outcome fo = {0, RSC_FETCH_OK, NULL, 0};
            if (x->truncated && cr == CURLE_WRITE_ERROR && !x->nomem)
                cr = CURLE_OK;
            int is_ftp = strcmp(x->o.scheme, "ftp") == 0;
            if (cr == CURLE_OK)
                fo.status = is_ftp ? 200 : (int)status;
            else if (cr == CURLE_TOO_MANY_REDIRECTS)
                fo.status = (int)status, fo.error = RSC_FETCH_E_REDIRECTS;
            else if (is_ftp && (cr == CURLE_REMOTE_FILE_NOT_FOUND || cr == CURLE_REMOTE_ACCESS_DENIED))
                fo.status = 404;
            else
                fo.error = cr == CURLE_OPERATION_TIMEDOUT ? RSC_FETCH_E_TIMEOUT : RSC_FETCH_E_NETWORK;
            if (fo.error == RSC_FETCH_OK) {
                fo.body = x->body;
                fo.body_len = x->len;
            }
            char outcome[320];
            if (fo.error == RSC_FETCH_OK)
                snprintf(outcome, sizeof outcome, "HTTP %d", fo.status);
            else
                snprintf(outcome, sizeof outcome, "%s: %s",
                         fo.error == RSC_FETCH_E_TIMEOUT ? "timeout"
                         : fo.error == RSC_FETCH_E_REDIRECTS ? "too many redirects" : "network error",
                         x->err[0] ? x->err : curl_easy_strerror(cr));
            rsc_store_status ws = RSC_STORE_OK;
            const char *what;
            if (fo.status == 304 && x->has_prev && x->prev.has_copy && (x->etag || x->lm)) {
                /* Not modified: the stored blob lives on, a new lifetime. */
                int64_t ttl = rsc_cache_ttl(x->cc, x->cc ? strlen(x->cc) : 0, NULL);
                ws = rsc_store_touch(st, x->o.key, x->o.key_len, now + ttl, 0);
                what = "not modified: expiry refreshed";
            } else {
                rsc_cache_decision d;
                rsc_cache_decide(x->has_prev ? &x->prev : NULL, &fo, x->cc, x->cc ? strlen(x->cc) : 0, now, NULL,
                                 &d);
                if (d.keep) {
                    ws = rsc_store_touch(st, x->o.key, x->o.key_len, d.next.expires, d.next.error_since);
                    what = "kept copy";
                } else {
                    rsc_blob b = {NULL, 0};
                    rsc_status cs = rsc_compile(d.body, d.body_len, &co, &b);
                    if (cs != RSC_OK) {
                        rsc_cli_fail(CMD, "%s: cannot compile: %s", x->o.key, rsc_strerror(cs));
                        errors++;
                        xfer_free(x);
                        continue;
                    }
                    rsc_store_meta mt;
                    memset(&mt, 0, sizeof mt);
                    mt.fetched_at = d.next.fetched_at;
                    mt.expires = d.next.expires;
                    mt.error_since = d.next.error_since;
                    mt.http_status = fo.status;
                    mt.fetch_error = (uint8_t)fo.error;
                    mt.policy = (uint8_t)d.policy;
                    mt.has_copy = d.next.has_copy;
                    mt.profile = (uint8_t)co.profile;
                    mt.source_size = fo.body_len;
                    mt.source_hash = rsc_store_hash(fo.body_len ? fo.body : "", fo.body_len);
                    char *final = NULL;
                    curl_easy_getinfo(x->c, CURLINFO_EFFECTIVE_URL, &final);
                    mt.source_url.ptr = final ? final : x->o.robots_url;
                    mt.source_url.len = strlen(mt.source_url.ptr);
                    if (mt.source_url.len > 4096)
                        mt.source_url.len = 4096;
                    /* Validators only describe a body that was parsed. */
                    if (d.policy == RSC_POLICY_PARSE && fo.status / 100 == 2) {
                        if (x->r_etag)
                            mt.etag.ptr = x->r_etag, mt.etag.len = strlen(x->r_etag);
                        if (x->r_lm)
                            mt.last_modified.ptr = x->r_lm, mt.last_modified.len = strlen(x->r_lm);
                    }
                    ws = rsc_store_put(st, x->o.key, x->o.key_len, &mt, b.data, b.size);
                    rsc_blob_free(&b, &co);
                    what = rsc_policy_name(d.policy);
                }
            }
            if (ws != RSC_STORE_OK) {
                rsc_cli_fail(CMD, "%s: %s: %s (%s)", db, x->o.key, rsc_store_strerror(ws), rsc_store_last_error(st));
                errors++;
            } else {
                printf("%s\t%s\t%s\n", x->o.key, outcome, what);
            }
            xfer_free(x);
        }
        if (running_n)
            curl_multi_poll(m, NULL, 0, 200, NULL);
    }
    fflush(stdout);
    curl_multi_cleanup(m);
cleanup:
    rsc_crawl_global_cleanup();
done:
    for (size_t j = 0; j < n_x; j++)
        xfer_free(&xs[j]);
    free(xs);
    rsc_store_close(st);
    rc = errors ? 2 : 0;
    (void)fresh;
out:
    free(line);
    free(urls);
    return rc;
}
