/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc fetch --store DB URL...: refreshes the records of many origins at
 * once. rsc_fetch_many() (crawl/) runs up to --parallel transfers; a record
 * with an ETag or Last-Modified is revalidated with a conditional GET (a 304
 * refreshes its expiry, nothing is recompiled); every outcome goes through
 * the status policy and cache rules of crawl.h, as `robotsc fetch` does
 * for one origin (docs/CRAWLER.md). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fetch_opts.h"
#include "robotsc/compiler.h"
#include "robotsc/crawl.h"
#include "robotsc/runtime.h"
#include "robotsc/store.h"

#define CMD "fetch"

/* An origin to refresh and what is stored for it. */
typedef struct xfer {
    rsc_origin o;
    int has_prev;
    rsc_cache_state prev;
    int64_t lifetime; /* the stored response's; 0 unknown */
    char *etag, *lm;  /* validators sent */
} xfer;

static void xfer_free(xfer *x)
{
    free(x->etag);
    free(x->lm);
    memset(x, 0, sizeof *x);
}

static int cmp_xfer(const void *a, const void *b)
{
    return strcmp(((const xfer *)a)->o.key, ((const xfer *)b)->o.key);
}

static const char usage_text[] =
    "usage: robotsc fetch --store DB URL... [--parallel N] [--user-agent UA] [--timeout SECONDS]\n"
    "                     [--profile google|rfc] [--now T] [--force] [--text] [--report-changes]\n"
    "Refreshes DB's records of the origins of URL... (or of the URLs on standard input, one\n"
    "per line): an origin whose record is still fresh is skipped (--force fetches anyway);\n"
    "the others are fetched, up to --parallel (default 16) at a time. A record with an\n"
    "ETag or Last-Modified is revalidated with a conditional GET: 304 refreshes its expiry\n"
    "without recompiling (the 304's max-age, or the record's lifetime again). Every\n"
    "outcome goes through the status policy and cache rules (a server error keeps a good\n"
    "copy). A body that is a robotsc blob, or (without --text) looks binary or like a\n"
    "damaged blob, is an error for its origin: nothing is stored. One line per origin:\n"
    "origin, outcome, what was stored. Exit 0 when every origin has a record, 2 otherwise.";

/* What rsc_fetch_many()'s callback needs. */
typedef struct run {
    rsc_store *st;
    const char *db;
    const xfer *xs;            /* the request's origin: xs[req[i]] */
    const size_t *req;
    rsc_compile_options co;
    int64_t now;
    int text;   /* --text */
    int report; /* --report-changes (cli/store_diff.c) */
    int errors;
} run;

/* One transfer's end: the outcome through the cache rules into the store,
 * and one line of output. */
static void on_done(void *ud, size_t i, rsc_status status, rsc_fetch_result *fr)
{
    run *R = ud;
    const xfer *x = &R->xs[R->req[i]];
    if (status != RSC_OK) {
        if (status == RSC_E_NOMEM)
            rsc_cli_fail(CMD, "%s: out of memory", x->o.key);
        else
            rsc_cli_fail(CMD, "%s: cannot set up the transfer", x->o.key);
        R->errors++;
        return;
    }
    const rsc_fetch_outcome *fo = &fr->outcome;
    const char *cc = fr->cache_control;
    char outcome[320];
    if (fo->error == RSC_FETCH_OK)
        snprintf(outcome, sizeof outcome, "HTTP %d", fo->status);
    else
        snprintf(outcome, sizeof outcome, "%s: %s",
                 fo->error == RSC_FETCH_E_TIMEOUT ? "timeout"
                 : fo->error == RSC_FETCH_E_REDIRECTS ? "too many redirects" : "network error",
                 fr->error_text);
    rsc_store_status ws = RSC_STORE_OK;
    const char *what;
    if (fo->status == 304 && x->has_prev && x->prev.has_copy && (x->etag || x->lm)) {
        /* Not modified: the stored blob lives on. The 304 updates the stored
         * response's headers (RFC 9111 4.3.4): its Cache-Control, if it has
         * one, gives the lifetime; otherwise the stored lifetime applies
         * again (the default for a record that does not know it). */
        int64_t ttl = rsc_fetch_cli_lifetime(cc);
        if (ttl == 0)
            ttl = x->lifetime > 0 ? x->lifetime : rsc_cache_ttl(NULL, 0, NULL);
        int64_t exp = R->now > 0 && ttl > RSC_STORE_NEVER - R->now ? RSC_STORE_NEVER : R->now + ttl;
        ws = rsc_store_revalidate(R->st, x->o.key, x->o.key_len, exp, ttl);
        what = "not modified: expiry refreshed";
    } else {
        rsc_cache_decision d;
        rsc_cache_decide(x->has_prev ? &x->prev : NULL, fo, cc, cc ? strlen(cc) : 0, R->now, NULL, &d);
        if (d.keep) {
            ws = rsc_store_touch(R->st, x->o.key, x->o.key_len, d.next.expires, d.next.error_since);
            what = "kept copy";
        } else {
            /* rsc_classify()'s rule for a body the policy reads: a blob or
             * (without --text) binary is an error for this origin; its
             * record stays as it was. */
            if (d.policy == RSC_POLICY_PARSE && rsc_fetch_cli_body(x->o.robots_url, d.body, d.body_len, R->text)) {
                R->errors++;
                return;
            }
            rsc_blob b = {NULL, 0};
            rsc_status cs = rsc_compile(d.body, d.body_len, &R->co, &b);
            if (cs != RSC_OK) {
                rsc_cli_fail(CMD, "%s: cannot compile: %s", x->o.key, rsc_strerror(cs));
                R->errors++;
                return;
            }
            rsc_store_meta mt;
            memset(&mt, 0, sizeof mt);
            mt.fetched_at = d.next.fetched_at;
            mt.expires = d.next.expires;
            mt.error_since = d.next.error_since;
            mt.http_status = fo->status;
            mt.fetch_error = (uint8_t)fo->error;
            mt.policy = (uint8_t)d.policy;
            mt.has_copy = d.next.has_copy;
            /* What a later 304 without Cache-Control renews. */
            if (d.next.has_copy && d.next.expires > d.next.fetched_at)
                mt.lifetime = d.next.expires - d.next.fetched_at;
            mt.profile = (uint8_t)R->co.profile;
            mt.source_size = fo->body_len;
            mt.source_hash = rsc_store_hash(fo->body_len ? (const void *)fo->body : "", fo->body_len);
            mt.source_url.ptr = fr->final_url ? fr->final_url : x->o.robots_url;
            mt.source_url.len = strlen(mt.source_url.ptr);
            if (mt.source_url.len > 4096)
                mt.source_url.len = 4096;
            /* Validators only describe a body that was parsed. */
            if (d.policy == RSC_POLICY_PARSE && fo->status / 100 == 2) {
                if (fr->etag)
                    mt.etag.ptr = fr->etag, mt.etag.len = strlen(fr->etag);
                if (fr->last_modified)
                    mt.last_modified.ptr = fr->last_modified, mt.last_modified.len = strlen(fr->last_modified);
            }
            if (R->report)
                rsc_cli_store_report(R->st, x->o.key, x->o.key_len, b.data, b.size);
            ws = rsc_store_put(R->st, x->o.key, x->o.key_len, &mt, b.data, b.size);
            rsc_blob_free(&b, &R->co);
            what = rsc_policy_name(d.policy);
        }
    }
    if (ws != RSC_STORE_OK) {
        rsc_cli_fail(CMD, "%s: %s: %s (%s)", R->db, x->o.key, rsc_store_strerror(ws), rsc_store_last_error(R->st));
        R->errors++;
    } else {
        printf("%s\t%s\t%s\n", x->o.key, outcome, what);
    }
}

int rsc_store_fetch(int argc, char **argv)
{
    const char *db = NULL, *val;
    long parallel = 16;
    int force = 0, report = 0, rc = 2;
    rsc_fetch_cli fc;
    rsc_fetch_cli_init(&fc);
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
        } else if ((r = rsc_fetch_cli_opt(argc, argv, &i, &fc)) != 0) {
            if (r != 1)
                goto out;
        } else if (strcmp(argv[i], "--force") == 0) {
            force = 1;
        } else if (strcmp(argv[i], "--report-changes") == 0) {
            report = 1;
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
            x->lifetime = r.meta.lifetime;
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

    /* The fresh ones are kept; the others are fetched. */
    rsc_fetch_request *reqs = calloc(n_x ? n_x : 1, sizeof *reqs);
    size_t *req_x = calloc(n_x ? n_x : 1, sizeof *req_x);
    size_t n_req = 0;
    if (!reqs || !req_x) {
        free(reqs);
        free(req_x);
        rsc_cli_fail(CMD, "out of memory");
        errors++;
        goto done;
    }
    for (size_t j = 0; j < n_x; j++) {
        xfer *x = &xs[j];
        if (x->has_prev && !force && rsc_cache_fresh(&x->prev, fc.now)) {
            printf("%s\tfresh\tkept (expires in %" PRId64 " s)\n", x->o.key, x->prev.expires - fc.now);
            continue;
        }
        reqs[n_req].url = x->o.robots_url;
        /* Conditional GET: only a good copy can be revalidated. */
        if (x->has_prev && x->prev.has_copy) {
            reqs[n_req].if_none_match = x->etag;
            reqs[n_req].if_modified_since = x->lm;
        }
        req_x[n_req++] = j;
    }
    run R;
    memset(&R, 0, sizeof R);
    R.st = st;
    R.db = db;
    R.xs = xs;
    R.req = req_x;
    R.co.profile = fc.profile;
    R.now = fc.now;
    R.text = fc.text;
    R.report = report;
    const rsc_fetch_options fo = rsc_fetch_cli_options(&fc);
    rsc_status fs = rsc_crawl_global_init();
    if (fs == RSC_OK) {
        fs = rsc_fetch_many(reqs, n_req, &fo, (size_t)parallel, on_done, &R);
        rsc_crawl_global_cleanup();
    }
    if (fs != RSC_OK) {
        if (fs == RSC_E_IO)
            rsc_cli_fail(CMD, "cannot initialise libcurl");
        else
            rsc_cli_fail(CMD, "cannot fetch: %s", rsc_strerror(fs));
        errors++;
    }
    errors += R.errors;
    fflush(stdout);
    free(reqs);
    free(req_x);
done:
    for (size_t j = 0; j < n_x; j++)
        xfer_free(&xs[j]);
    free(xs);
    rsc_store_close(st);
    rc = errors ? 2 : 0;
out:
    free(line);
    free(urls);
    return rc;
}
