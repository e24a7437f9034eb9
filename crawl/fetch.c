/* SPDX-License-Identifier: Apache-2.0 */
/* Fetching a robots.txt with libcurl: an unconditional GET, a bounded
 * redirect chain (spec I: at least 5 hops, then as 404), timeouts, and a
 * read cap at 500 KiB (spec top: the rest is never parsed, so it is not
 * downloaded either). */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/crawl.h"
#include "robotsc/ir.h"

#define DEFAULT_UA "robotsc/0.1"

typedef struct sink {
    rsc_fetch_result *res;
    size_t cap, max;
    int nomem;
    char *cc; /* Cache-Control of the response being received */
    size_t cc_len;
} sink;

static size_t on_body(char *p, size_t size, size_t nmemb, void *ud)
{
    sink *s = ud;
    rsc_fetch_result *r = s->res;
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

/* Collects the Cache-Control values of the last response: a status line
 * starts a new response (after a redirect or a 100 Continue). */
static size_t on_header(char *p, size_t size, size_t nmemb, void *ud)
{
    sink *s = ud;
    size_t n = size * nmemb;
    if (prefix_ci(p, n, "http/")) {
        s->cc_len = 0;
        if (s->cc)
            s->cc[0] = 0;
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

rsc_status rsc_fetch(const char *url, const rsc_fetch_options *opt, rsc_fetch_result *res)
{
    if (!res)
        return RSC_E_ARG;
    memset(res, 0, sizeof *res);
    if (!url)
        return RSC_E_ARG;
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

    CURL *c = curl_easy_init();
    if (!c)
        return RSC_E_IO;
    sink s = {res, 0, o.max_body, 0, NULL, 0};
    char errbuf[CURL_ERROR_SIZE];
    errbuf[0] = 0;
    int ok = curl_easy_setopt(c, CURLOPT_URL, url) == CURLE_OK;
    int is_ftp = prefix_ci(url, strlen(url), "ftp:");
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
    ok = ok && curl_easy_setopt(c, CURLOPT_USERAGENT, o.user_agent) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, o.timeout_ms) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, o.connect_timeout_ms) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, o.max_redirects > 0 ? 1L : 0L) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_MAXREDIRS, (long)(o.max_redirects > 0 ? o.max_redirects : 0)) ==
                   CURLE_OK;
    /* Compressed bodies are accepted; the cap applies to decoded bytes,
     * which are what the parser sees. */
    ok = ok && curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "") == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_WRITEDATA, &s) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_HEADERDATA, &s) == CURLE_OK;
    ok = ok && curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf) == CURLE_OK;
    if (!ok) {
        curl_easy_cleanup(c);
        rsc_fetch_result_free(res);
        return RSC_E_IO;
    }

    CURLcode rc = curl_easy_perform(c);
    long status = 0, redirects = 0;
    char *eff = NULL;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(c, CURLINFO_REDIRECT_COUNT, &redirects);
    curl_easy_getinfo(c, CURLINFO_EFFECTIVE_URL, &eff);
    res->redirects = redirects;
    res->final_url = dup_str(eff ? eff : url);
    if (s.cc_len) {
        res->cache_control = s.cc;
        s.cc = NULL;
    }
    free(s.cc);
    if (s.nomem || !res->final_url) {
        curl_easy_cleanup(c);
        rsc_fetch_result_free(res);
        return RSC_E_NOMEM;
    }

    rsc_fetch_outcome *out = &res->outcome;
    if (res->truncated && rc == CURLE_WRITE_ERROR)
        rc = CURLE_OK; /* we stopped it on purpose at the cap */
    if (is_ftp) {
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
        snprintf(res->error_text, sizeof res->error_text, "%s", errbuf[0] ? errbuf : curl_easy_strerror(rc));
    if (out->error != RSC_FETCH_OK) {
        /* A partial body of a failed transfer is never parsed. */
        res->body_len = 0;
        res->truncated = 0;
    }
    out->body = res->body;
    out->body_len = res->body_len;
    curl_easy_cleanup(c);
    return RSC_OK;
}
