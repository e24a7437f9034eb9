/* SPDX-License-Identifier: Apache-2.0 */
/* Fetching robots.txt files with libcurl: an unconditional (or, for a
 * stored copy, conditional) GET, a bounded redirect chain (spec I: at least
 * 5 hops, then as 404), timeouts, and a read cap at 500 KiB (spec top: the
 * rest is never parsed, so it is not downloaded either). One transfer's
 * set-up (xfer_setup) and reading of its end (xfer_finish) serve both
 * rsc_fetch() (one, easy interface) and rsc_fetch_many() (many, multi
 * interface): `robotsc fetch` and `robotsc fetch --store` fetch alike. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/crawl.h"
#include "robotsc/ir.h"

#define DEFAULT_UA "robotsc/" RSC_VERSION_STRING
#define MAX_VALIDATOR 1024 /* longer ETag / Last-Modified values are dropped */

/* One transfer: the handle, what the callbacks collect, the result. */
typedef struct xfer {
    CURL *c;
    struct curl_slist *hdrs; /* conditional GET headers */
    rsc_fetch_result res;
    size_t cap, max;
    int nomem, is_ftp, busy;
    size_t index; /* rsc_fetch_many: the request's */
    char *cc;     /* Cache-Control of the response being received */
    size_t cc_len;
    char err[CURL_ERROR_SIZE];
} xfer;

static size_t on_body(char *p, size_t size, size_t nmemb, void *ud)
{
    xfer *s = ud;
    rsc_fetch_result *r = &s->res;
    size_t n = size * nmemb;
    size_t room = s->max - r->body_len;
    size_t take = n < room ? n : room;
    if (take) {
        if (r->body_len + take > s->cap) {
            size_t cap = s->cap ? s->cap : 16384;
            while (cap < r->body_len + take)
                cap *= 2;
            if (cap > s->max)
                cap = s->max;
            unsigned char *nb = realloc(r->body, cap);
            if (!nb) {
                s->nomem = 1;
                return 0;
            }
            r->body = nb;
            s->cap = cap;
        }
        memcpy(r->body + r->body_len, p, take);
        r->body_len += take;
    }
    if (take < n) { /* more than max_body: stop the transfer here */
        r->truncated = 1;
        return 0;
    }
    return n;
}

static int prefix_ci(const char *p, size_t n, const char *w)
{
    size_t k = strlen(w);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        int c = (unsigned char)p[i];
        if (c >= 'A' && c <= 'Z')
            c += 32;
        if (c != w[i])
            return 0;
    }
    return 1;
}

/* *dst becomes the header value v[0..n) without surrounding blanks and
 * line end; a value over MAX_VALIDATOR bytes is ignored. 0, or -1 when out
 * of memory. */
static int set_validator(char **dst, const char *v, size_t n)
{
    while (n && (v[0] == ' ' || v[0] == '\t'))
        v++, n--;
    while (n && (v[n - 1] == '\r' || v[n - 1] == '\n' || v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    if (n > MAX_VALIDATOR)
        return 0;
    char *d = malloc(n + 1);
    if (!d)
        return -1;
    memcpy(d, v, n);
    d[n] = 0;
    free(*dst);
    *dst = d;
    return 0;
}

/* Collects the Cache-Control values, ETag and Last-Modified of the last
 * response: a status line starts a new response (after a redirect or a 100
 * Continue). */
static size_t on_header(char *p, size_t size, size_t nmemb, void *ud)
{
    xfer *s = ud;
    size_t n = size * nmemb;
    if (prefix_ci(p, n, "http/")) {
        s->cc_len = 0;
        if (s->cc)
            s->cc[0] = 0;
        free(s->res.etag);
        free(s->res.last_modified);
        s->res.etag = s->res.last_modified = NULL;
    } else if (prefix_ci(p, n, "etag:") || prefix_ci(p, n, "last-modified:")) {
        int etag = prefix_ci(p, n, "etag:");
        size_t k = etag ? 5 : 14;
        if (set_validator(etag ? &s->res.etag : &s->res.last_modified, p + k, n - k) != 0) {
            s->nomem = 1;
            return 0;
        }
    } else if (prefix_ci(p, n, "cache-control:")) {
        size_t b = 14, e = n;
        while (b < e && (p[b] == ' ' || p[b] == '\t'))
            b++;
        while (e > b && (p[e - 1] == '\r' || p[e - 1] == '\n' || p[e - 1] == ' ' || p[e - 1] == '\t'))
            e--;
        if (e - b > 4096 || s->cc_len > 4096) /* no sane header is longer */
            return n;
        char *nc = realloc(s->cc, s->cc_len + 2 + (e - b) + 1);
        if (!nc) {
            s->nomem = 1;
            return 0;
        }
        s->cc = nc;
        if (s->cc_len) {
            memcpy(s->cc + s->cc_len, ", ", 2);
            s->cc_len += 2;
        }
        memcpy(s->cc + s->cc_len, p + b, e - b);
        s->cc_len += e - b;
        s->cc[s->cc_len] = 0;
    }
    return n;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

rsc_status rsc_crawl_global_init(void)
{
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? RSC_OK : RSC_E_IO;
}

void rsc_crawl_global_cleanup(void)
{
    curl_global_cleanup();
}

void rsc_fetch_result_free(rsc_fetch_result *res)
{
    if (!res)
        return;
    free(res->body);
    free(res->final_url);
    free(res->cache_control);
    free(res->etag);
    free(res->last_modified);
    memset(res, 0, sizeof *res);
}

/* FTP has no HTTP status: map libcurl's outcome onto the HTTP classes. */
static void ftp_outcome(CURLcode rc, rsc_fetch_outcome *o)
{
    if (rc == CURLE_OK) {
        o->status = 200;
    } else if (rc == CURLE_REMOTE_FILE_NOT_FOUND || rc == CURLE_REMOTE_ACCESS_DENIED) {
        o->status = 404;
    } else {
        o->error = rc == CURLE_OPERATION_TIMEDOUT ? RSC_FETCH_E_TIMEOUT : RSC_FETCH_E_NETWORK;
    }
}

/* The options with their defaults filled in. */
static rsc_fetch_options normalise(const rsc_fetch_options *opt)
{
    rsc_fetch_options o = {0};
    if (opt)
        o = *opt;
    if (!o.user_agent)
        o.user_agent = DEFAULT_UA;
    if (o.timeout_ms <= 0)
        o.timeout_ms = 30000;
    if (o.connect_timeout_ms <= 0)
        o.connect_timeout_ms = o.timeout_ms < 10000 ? o.timeout_ms : 10000;
    if (o.max_redirects == 0)
        o.max_redirects = RSC_MAX_REDIRECTS;
    if (o.max_body == 0)
        o.max_body = RSC_MAX_BODY;
    return o;
}

static void xfer_free(xfer *x)
{
    if (x->c)
        curl_easy_cleanup(x->c);
    curl_slist_free_all(x->hdrs);
    free(x->cc);
    rsc_fetch_result_free(&x->res);
    memset(x, 0, sizeof *x);
}

/* A header line "name: value" appended to x->hdrs. 0, or -1. */
static int add_header(xfer *x, const char *name, const char *value)
{
    size_t a = strlen(name), b = strlen(value);
    char *h = malloc(a + b + 3);
    if (!h)
        return -1;
    memcpy(h, name, a);
    memcpy(h + a, ": ", 2);
    memcpy(h + a + 2, value, b + 1);
    struct curl_slist *l = curl_slist_append(x->hdrs, h);
    free(h);
    if (!l)
        return -1;
    x->hdrs = l;
    return 0;
}

/* The one set-up of a robots.txt transfer (o normalised). Returns RSC_OK,
 * or RSC_E_IO when libcurl refuses it (x is then for xfer_free only). */
static rsc_status xfer_setup(xfer *x, const rsc_fetch_request *rq, const rsc_fetch_options *o)
{
    memset(x, 0, sizeof *x);
    x->max = o->max_body;
    CURL *c = curl_easy_init();
    if (!c)
        return RSC_E_IO;
    x->c = c;
    x->is_ftp = prefix_ci(rq->url, strlen(rq->url), "ftp:");
    int ok = curl_easy_setopt(c, CURLOPT_URL, rq->url) == CURLE_OK;
    /* Any failure to set an option below is a set-up error (RSC_E_IO). */
#if LIBCURL_VERSION_NUM >= 0x075500 /* 7.85.0: the _STR variants */
    ok = ok && curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https,ftp") == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") == CURLE_OK;
#else
    ok = ok && curl_easy_setopt(c, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS | CURLPROTO_FTP)) ==
                   CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS)) == CURLE_OK;
#endif
    ok = ok && curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_USERAGENT, o->user_agent) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, o->timeout_ms) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, o->connect_timeout_ms) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, o->max_redirects > 0 ? 1L : 0L) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_MAXREDIRS, (long)(o->max_redirects > 0 ? o->max_redirects : 0)) ==
                   CURLE_OK;
    /* Compressed bodies are accepted; the cap applies to decoded bytes,
     * which are what the parser sees. */
    ok = ok && curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "") == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_WRITEDATA, x) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_HEADERDATA, x) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_ERRORBUFFER, x->err) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_PRIVATE, x) == CURLE_OK;
    if (ok && (rq->if_none_match || rq->if_modified_since)) {
        ok = (!rq->if_none_match || add_header(x, "If-None-Match", rq->if_none_match) == 0) &&
             (!rq->if_modified_since || add_header(x, "If-Modified-Since", rq->if_modified_since) == 0) &&
             curl_easy_setopt(c, CURLOPT_HTTPHEADER, x->hdrs) == CURLE_OK;
    }
    return ok ? RSC_OK : RSC_E_IO;
}

/* The one reading of a transfer's end (rc: libcurl's result) into x->res:
 * RSC_OK, or RSC_E_NOMEM (x->res is then empty). */
static rsc_status xfer_finish(xfer *x, const char *url, CURLcode rc)
{
    rsc_fetch_result *res = &x->res;
    long status = 0, redirects = 0;
    char *eff = NULL;
    curl_easy_getinfo(x->c, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(x->c, CURLINFO_REDIRECT_COUNT, &redirects);
    curl_easy_getinfo(x->c, CURLINFO_EFFECTIVE_URL, &eff);
    res->redirects = redirects;
    res->final_url = dup_str(eff ? eff : url);
    if (x->cc_len) {
        res->cache_control = x->cc;
        x->cc = NULL;
    }
    if (x->nomem || !res->final_url) {
        rsc_fetch_result_free(res);
        return RSC_E_NOMEM;
    }

    rsc_fetch_outcome *out = &res->outcome;
    if (res->truncated && rc == CURLE_WRITE_ERROR)
        rc = CURLE_OK; /* we stopped it on purpose at the cap */
    if (x->is_ftp) {
        ftp_outcome(rc, out);
    } else if (rc == CURLE_OK) {
        out->status = (int)status;
    } else if (rc == CURLE_TOO_MANY_REDIRECTS) {
        out->status = (int)status;
        out->error = RSC_FETCH_E_REDIRECTS;
    } else if (rc == CURLE_OPERATION_TIMEDOUT) {
        out->error = RSC_FETCH_E_TIMEOUT;
    } else {
        out->error = RSC_FETCH_E_NETWORK;
    }
    if (rc != CURLE_OK)
        snprintf(res->error_text, sizeof res->error_text, "%s", x->err[0] ? x->err : curl_easy_strerror(rc));
    if (out->error != RSC_FETCH_OK) {
        /* A partial body of a failed transfer is never parsed. */
        res->body_len = 0;
        res->truncated = 0;
    }
    out->body = res->body;
    out->body_len = res->body_len;
    return RSC_OK;
}

rsc_status rsc_fetch(const char *url, const rsc_fetch_options *opt, rsc_fetch_result *res)
{
    if (!res)
        return RSC_E_ARG;
    memset(res, 0, sizeof *res);
    if (!url)
        return RSC_E_ARG;
    const rsc_fetch_options o = normalise(opt);
    const rsc_fetch_request rq = {url, NULL, NULL};
    xfer x;
    rsc_status st = xfer_setup(&x, &rq, &o);
    if (st == RSC_OK)
        st = xfer_finish(&x, url, curl_easy_perform(x.c));
    if (st == RSC_OK) {
        *res = x.res;
        memset(&x.res, 0, sizeof x.res);
    }
    xfer_free(&x);
    return st;
}

rsc_status rsc_fetch_many(const rsc_fetch_request *reqs, size_t n, const rsc_fetch_options *opt,
                          size_t parallel, rsc_fetch_done_fn done, void *ud)
{
    if ((!reqs && n) || !done)
        return RSC_E_ARG;
    if (n == 0)
        return RSC_OK;
    const rsc_fetch_options o = normalise(opt);
    if (parallel == 0)
        parallel = 16;
    if (parallel > n)
        parallel = n;
    if (parallel > 100000)
        parallel = 100000; /* far beyond any connection limit */
    xfer *slots = calloc(parallel, sizeof *slots);
    CURLM *m = slots ? curl_multi_init() : NULL;
    if (!m) {
        free(slots);
        return slots ? RSC_E_IO : RSC_E_NOMEM;
    }
    curl_multi_setopt(m, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)parallel);
    size_t next = 0, running = 0, free_slot = 0;
    for (;;) {
        /* Keep up to `parallel` transfers going, in request order. */
        while (next < n && running < parallel) {
            while (slots[free_slot].busy)
                free_slot = (free_slot + 1) % parallel;
            xfer *x = &slots[free_slot];
            rsc_status st = reqs[next].url ? xfer_setup(x, &reqs[next], &o) : RSC_E_ARG;
            x->index = next++;
            if (st == RSC_OK && curl_multi_add_handle(m, x->c) != CURLM_OK)
                st = RSC_E_IO;
            if (st != RSC_OK) {
                rsc_fetch_result_free(&x->res);
                done(ud, x->index, st, &x->res);
                xfer_free(x);
                continue;
            }
            x->busy = 1;
            running++;
        }
        if (running == 0)
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
            CURLcode rc = msg->data.result;
            curl_multi_remove_handle(m, x->c);
            running--;
            rsc_status st = xfer_finish(x, reqs[x->index].url, rc);
            done(ud, x->index, st, &x->res);
            xfer_free(x); /* busy = 0: the slot is free again */
        }
        if (running)
            curl_multi_poll(m, NULL, 0, 200, NULL);
    }
    curl_multi_cleanup(m);
    free(slots);
    return RSC_OK;
}
