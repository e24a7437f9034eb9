/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc store: build, query and maintain an LMDB store of compiled
 * robots.txt programs keyed by origin (include/robotsc/store.h,
 * docs/CRAWLER.md "The store"). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "cli.h"
#include "robotsc/compiler.h"
#include "robotsc/crawl.h"
#include "robotsc/runtime.h"
#include "robotsc/store.h"

#define CMD "store"

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        if (n)
            memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* Opens DB, printing why not. */
static rsc_store *open_store(const char *path, int readonly, int no_sync)
{
    rsc_store_options o = {0};
    o.readonly = readonly;
    o.no_sync = no_sync;
    rsc_store *st;
    rsc_store_status s = rsc_store_open(path, &o, &st);
    if (s != RSC_STORE_OK) {
        rsc_cli_fail(CMD, "%s: %s (%s)", path, rsc_store_strerror(s), rsc_store_last_error(NULL));
        return NULL;
    }
    return st;
}

/* An origin key from an origin or any URL of it. */
static int key_of(const char *arg, rsc_origin *o)
{
    rsc_url_status us = rsc_origin_parse(arg, strlen(arg), o);
    if (us != RSC_URL_OK) {
        rsc_cli_fail(CMD, "%s: %s", arg, rsc_url_strerror(us));
        return -1;
    }
    return 0;
}

/* ---- store build ---------------------------------------------------------- */

typedef struct job {
    char *key;      /* origin key */
    char *path;     /* file to read, or NULL when body is set (WARC) */
    char *src;      /* source URL recorded */
    uint8_t *body;  /* WARC: the HTTP body */
    size_t body_len;
    int status;     /* HTTP status (200 for files) */
    int64_t fetched_at, expires;
    char *etag, *lm;
    int skip;       /* superseded by a later job of the same origin */
    /* the stored record, looked up before the workers start */
    int has_prev;
    uint64_t prev_hash, prev_size;
    uint8_t prev_profile, prev_policy;
} job;

typedef struct result {
    size_t job;
    rsc_blob blob;
    rsc_store_meta meta;
} result;

#define N_REASONS 8
enum { R_READ, R_COMPILE, R_KEY, R_WRITE, R_NOTROBOTS, R_WARC, R_BLOB, R_BINARY };
static const char *reason_text[N_REASONS] = {"cannot read file", "compile error", "not a valid origin",
                                             "store write failed", "WARC record not a robots.txt URL",
                                             "bad WARC record",
                                             "a robotsc blob, not a robots.txt (store put stores a blob)",
                                             "not read as a robots.txt (--text reads it as one)"};

typedef struct build {
    job *jobs;
    size_t n, cap;
    rsc_store *st;
    rsc_compile_options co;
    int64_t now, ttl; /* ttl: -1 none given */
    int profile;
    size_t batch;
    /* work distribution */
    pthread_mutex_t mu;
    pthread_cond_t not_empty, not_full;
    size_t next_job;
    result *q;
    size_t q_cap, q_head, q_len;
    int workers_left, stop;
    /* counters (under mu) */
    size_t done, compiled, unchanged, failed, written, reasons[N_REASONS];
    uint64_t bytes_in, bytes_out;
    rsc_store_status write_status;
    char write_error[200];
    int verbose;
    int text; /* --text: binary or damaged-blob bytes read as robots.txt */
} build;

static int add_job(build *b, job *j)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        job *nj = realloc(b->jobs, cap * sizeof *nj);
        if (!nj)
            return -1;
        b->jobs = nj;
        b->cap = cap;
    }
    b->jobs[b->n++] = *j;
    return 0;
}

static void fail_reason(build *b, int r, const char *what, const char *detail)
{
    b->failed++;
    b->reasons[r]++;
    if (b->verbose || b->reasons[r] <= 5) /* paths and URLs escaped, as every message */
        rsc_cli_fail("store build", "%s: %s%s%s", what, reason_text[r], detail ? ": " : "", detail ? detail : "");
    else if (b->reasons[r] == 6)
        fprintf(stderr, "robotsc store build: more '%s' failures (counted in the summary)\n", reason_text[r]);
}

/* A host-named file (the corpus: "www.example.com.txt"). */
static int add_file(build *b, const char *dir, const char *name, const char *scheme)
{
    size_t n = strlen(name);
    if (n <= 4 || strcmp(name + n - 4, ".txt") != 0)
        return 0;
    char url[600];
    snprintf(url, sizeof url, "%s://%.*s/", scheme, (int)(n - 4), name);
    size_t plen = strlen(dir) + 1 + n;
    char *path = malloc(plen + 1);
    if (!path)
        return -1;
    snprintf(path, plen + 1, "%s/%s", dir, name);
    rsc_origin o;
    if (n - 4 > 500 || rsc_origin_parse(url, strlen(url), &o) != RSC_URL_OK) {
        fail_reason(b, R_KEY, path, name);
        free(path);
        return 0;
    }
    job j = {0};
    j.key = dupn(o.key, o.key_len);
    j.path = path;
    j.src = dupn(path, plen);
    j.status = 200;
    j.fetched_at = b->now;
    j.expires = b->ttl > 0 ? b->now + b->ttl : RSC_STORE_NEVER;
    if (!j.key || !j.src || add_job(b, &j) != 0)
        return -1;
    return 0;
}

static int add_dir(build *b, const char *dir, const char *scheme)
{
    DIR *d = opendir(dir);
    if (!d)
        return (rsc_cli_fail(CMD, "%s: %s", dir, strerror(errno)), -2);
    struct dirent *e;
    int r = 0;
    while (r == 0 && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            r = add_file(b, dir, e->d_name, scheme);
    closedir(d);
    return r;
}

/* TSV: ORIGIN_OR_URL<TAB>PATH; relative paths are relative to the TSV's
 * directory; '#' lines and blank lines are skipped. */
static int add_tsv(build *b, const char *tsv)
{
    size_t len;
    unsigned char *t = rsc_cli_read(tsv, &len);
    if (!t)
        return (rsc_cli_fail(CMD, "%s: %s", tsv, strerror(errno)), -2);
    const char *slash = strrchr(tsv, '/');
    size_t dlen = slash ? (size_t)(slash - tsv) + 1 : 0;
    size_t i = 0, line = 0;
    int r = 0;
    while (r == 0 && i < len) {
        size_t e = i;
        while (e < len && t[e] != '\n')
            e++;
        line++;
        size_t le = e;
        if (le > i && t[le - 1] == '\r')
            le--;
        char *l = (char *)t + i;
        size_t ln = le - i;
        i = e + 1;
        if (ln == 0 || l[0] == '#')
            continue;
        char *tab = memchr(l, '\t', ln);
        char where[64];
        snprintf(where, sizeof where, "%s:%zu", tsv, line);
        if (!tab) {
            fail_reason(b, R_KEY, where, "no tab");
            continue;
        }
        rsc_origin o;
        if (rsc_origin_parse(l, (size_t)(tab - l), &o) != RSC_URL_OK) {
            fail_reason(b, R_KEY, where, NULL);
            continue;
        }
        size_t pn = ln - (size_t)(tab - l) - 1;
        const char *p = tab + 1;
        int rel = pn && p[0] != '/';
        job j = {0};
        j.path = malloc((rel ? dlen : 0) + pn + 1);
        if (!j.path) {
            r = -1;
            break;
        }
        if (rel)
            memcpy(j.path, tsv, dlen);
        memcpy(j.path + (rel ? dlen : 0), p, pn);
        j.path[(rel ? dlen : 0) + pn] = 0;
        j.key = dupn(o.key, o.key_len);
        j.src = dupn(j.path, strlen(j.path));
        j.status = 200;
        j.fetched_at = b->now;
        j.expires = b->ttl > 0 ? b->now + b->ttl : RSC_STORE_NEVER;
        if (!j.key || !j.src || add_job(b, &j) != 0)
            r = -1;
    }
    free(t);
    return r;
}

/* ---- WARC ---- */

typedef struct rd {
    gzFile f;
    unsigned char buf[65536];
    size_t pos, len;
    int eof;
} rd;

static int rd_fill(rd *r)
{
    if (r->eof)
        return 0;
    if (r->pos < r->len)
        return 1;
    int n = gzread(r->f, r->buf, sizeof r->buf);
    if (n <= 0) {
        r->eof = 1;
        return 0;
    }
    r->pos = 0;
    r->len = (size_t)n;
    return 1;
}

/* A line without its end (CRLF or LF); -1 at the end of input. */
static long rd_line(rd *r, char *out, size_t cap)
{
    size_t n = 0;
    int any = 0;
    while (rd_fill(r)) {
        any = 1;
        unsigned char c = r->buf[r->pos++];
        if (c == '\n') {
            if (n && out[n - 1] == '\r')
                n--;
            out[n] = 0;
            return (long)n;
        }
        if (n + 1 < cap)
            out[n++] = (char)c;
    }
    out[n] = 0;
    return any ? (long)n : -1;
}

static int rd_bytes(rd *r, unsigned char *out, size_t n)
{
    size_t k = 0;
    while (k < n && rd_fill(r)) {
        size_t take = r->len - r->pos < n - k ? r->len - r->pos : n - k;
        if (out)
            memcpy(out + k, r->buf + r->pos, take);
        r->pos += take;
        k += take;
    }
    return k == n ? 0 : -1;
}

static int hdr_is(const char *line, const char *name, const char **val)
{
    size_t n = strlen(name);
    if (strncasecmp(line, name, n) != 0 || line[n] != ':')
        return 0;
    const char *v = line + n + 1;
    while (*v == ' ' || *v == '\t')
        v++;
    *val = v;
    return 1;
}

/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static int64_t parse_iso(const char *s)
{
    int Y, M, D, h = 0, mi = 0, sec = 0;
    if (sscanf(s, "%d-%d-%dT%d:%d:%d", &Y, &M, &D, &h, &mi, &sec) < 3 || M < 1 || M > 12 || D < 1 || D > 31)
        return 0;
    return days_from_civil(Y, (unsigned)M, (unsigned)D) * 86400 + h * 3600 + mi * 60 + sec;
}

/* Dechunks in place; returns the new length, or (size_t)-1 when the body
 * is not valid chunked encoding. */
static size_t dechunk(uint8_t *p, size_t n)
{
    size_t i = 0, o = 0;
    for (;;) {
        size_t sz = 0;
        int digits = 0;
        while (i < n) {
            int c = p[i], v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                        : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (v < 0)
                break;
            if (sz > ((size_t)1 << 40))
                return (size_t)-1;
            sz = sz * 16 + (size_t)v;
            digits++;
            i++;
        }
        if (!digits)
            return (size_t)-1;
        while (i < n && p[i] != '\n')
            i++;
        if (i >= n)
            return (size_t)-1;
        i++;
        if (sz == 0)
            return o;
        if (sz > n - i)
            return (size_t)-1;
        memmove(p + o, p + i, sz);
        o += sz;
        i += sz;
        if (i < n && p[i] == '\r')
            i++;
        if (i < n && p[i] == '\n')
            i++;
    }
}

/* Inflates a gzip or deflate body; NULL when it is not one. */
static uint8_t *gunzip(const uint8_t *p, size_t n, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 32) != Z_OK)
        return NULL;
    size_t cap = n * 4 + 1024, max = (size_t)4 << 20;
    uint8_t *o = malloc(cap);
    z.next_in = (Bytef *)p;
    z.avail_in = (uInt)n;
    int rc = Z_OK;
    while (o) {
        z.next_out = o + z.total_out;
        z.avail_out = (uInt)(cap - z.total_out);
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc != Z_OK || z.total_out < cap)
            break;
        if (cap >= max) /* more than the parser reads anyway */
            break;
        uint8_t *no = realloc(o, cap * 2);
        if (!no) {
            free(o);
            o = NULL;
            break;
        }
        o = no;
        cap *= 2;
    }
    size_t got = z.total_out;
    inflateEnd(&z);
    if (!o || (rc != Z_STREAM_END && rc != Z_OK) || got == 0) {
        free(o);
        return NULL;
    }
    *out_len = got;
    return o;
}

/* One WARC response record's HTTP message -> a job. */
static int warc_response(build *b, const char *uri, int64_t date, uint8_t *msg, size_t n)
{
    rsc_origin o;
    if (!rsc_url_is_robots(uri, strlen(uri)) || rsc_origin_parse(uri, strlen(uri), &o) != RSC_URL_OK) {
        fail_reason(b, R_NOTROBOTS, uri, NULL);
        return 0;
    }
    /* Status line, headers, body. */
    size_t i = 0;
    int status = 0;
    char *etag = NULL, *lm = NULL, *cc = NULL;
    int chunked = 0, gz = 0;
    int first = 1;
    while (i < n) {
        size_t e = i;
        while (e < n && msg[e] != '\n')
            e++;
        size_t le = e > i && msg[e - 1] == '\r' ? e - 1 : e;
        char line[8192];
        size_t ln = le - i < sizeof line - 1 ? le - i : sizeof line - 1;
        memcpy(line, msg + i, ln);
        line[ln] = 0;
        i = e < n ? e + 1 : n;
        if (first) {
            first = 0;
            if (strncmp(line, "HTTP/", 5) != 0 || sscanf(strchr(line, ' ') ? strchr(line, ' ') : "", "%d", &status) != 1) {
                fail_reason(b, R_WARC, uri, "no HTTP status line");
                return 0;
            }
            continue;
        }
        if (ln == 0)
            break;
        const char *v;
        if (hdr_is(line, "Transfer-Encoding", &v))
            chunked = strstr(v, "chunked") != NULL;
        else if (hdr_is(line, "Content-Encoding", &v))
            gz = strstr(v, "gzip") != NULL || strstr(v, "deflate") != NULL;
        else if (hdr_is(line, "ETag", &v) && !etag)
            etag = dupn(v, strlen(v));
        else if (hdr_is(line, "Last-Modified", &v) && !lm)
            lm = dupn(v, strlen(v));
        else if (hdr_is(line, "Cache-Control", &v) && !cc)
            cc = dupn(v, strlen(v));
    }
    size_t blen = n - i;
    uint8_t *body = malloc(blen ? blen : 1);
    if (!body) {
        free(etag), free(lm), free(cc);
        return -1;
    }
    memcpy(body, msg + i, blen);
    if (chunked) {
        size_t k = dechunk(body, blen);
        if (k != (size_t)-1)
            blen = k;
    }
    if (gz) {
        size_t k;
        uint8_t *d = gunzip(body, blen, &k);
        if (d) {
            free(body);
            body = d;
            blen = k;
        }
    }
    job j = {0};
    j.key = dupn(o.key, o.key_len);
    j.src = dupn(uri, strlen(uri));
    j.body = body;
    j.body_len = blen;
    j.status = status;
    j.fetched_at = date ? date : b->now;
    /* The lifetime fetch gives the same answer (the shared cache rules):
     * a definite answer lives rsc_cache_ttl(), an error (5xx, 429) is
     * retried after retry_ttl (15 min), not cached for a day. */
    rsc_fetch_outcome fo = {status, RSC_FETCH_OK, body, blen};
    rsc_cache_decision d;
    rsc_cache_decide(NULL, &fo, cc, cc ? strlen(cc) : 0, j.fetched_at, NULL, &d);
    j.expires = b->ttl > 0 ? j.fetched_at + b->ttl : b->ttl == 0 ? RSC_STORE_NEVER : d.next.expires;
    j.etag = etag;
    j.lm = lm;
    free(cc);
    if (!j.key || !j.src || add_job(b, &j) != 0)
        return -1;
    return 0;
}

static int add_warc(build *b, const char *path)
{
    rd *r = calloc(1, sizeof *r);
    if (!r)
        return -1;
    r->f = gzopen(path, "rb");
    if (!r->f) {
        free(r);
        return (rsc_cli_fail(CMD, "%s: %s", path, strerror(errno)), -2);
    }
    gzbuffer(r->f, 1 << 17);
    char line[8192];
    long ln;
    int rc = 0;
    size_t nrec = 0;
    while (rc == 0 && (ln = rd_line(r, line, sizeof line)) >= 0) {
        if (ln == 0)
            continue; /* the blank lines between records */
        if (strncmp(line, "WARC/", 5) != 0) {
            rc = (rsc_cli_fail(CMD, "%s: record %zu: not a WARC record header", path, nrec + 1), -2);
            break;
        }
        nrec++;
        char type[64] = "", uri[4096] = "";
        int64_t date = 0;
        long long clen = -1;
        while ((ln = rd_line(r, line, sizeof line)) > 0) {
            const char *v;
            if (hdr_is(line, "WARC-Type", &v))
                snprintf(type, sizeof type, "%.63s", v);
            else if (hdr_is(line, "WARC-Target-URI", &v)) {
                size_t vn = strlen(v);
                if (vn >= 2 && v[0] == '<' && v[vn - 1] == '>') /* WARC 1.0 drafts */
                    snprintf(uri, sizeof uri, "%.*s", (int)(vn - 2), v + 1);
                else
                    snprintf(uri, sizeof uri, "%s", v);
            } else if (hdr_is(line, "WARC-Date", &v))
                date = parse_iso(v);
            else if (hdr_is(line, "Content-Length", &v))
                clen = strtoll(v, NULL, 10);
        }
        if (clen < 0 || clen > ((long long)1 << 32)) {
            rc = (rsc_cli_fail(CMD, "%s: record %zu: no valid Content-Length", path, nrec), -2);
            break;
        }
        if (strcmp(type, "response") != 0) {
            if (rd_bytes(r, NULL, (size_t)clen) != 0)
                rc = (rsc_cli_fail(CMD, "%s: record %zu: truncated", path, nrec), -2);
            continue;
        }
        uint8_t *msg = malloc((size_t)clen + 1);
        if (!msg) {
            rc = -1;
            break;
        }
        if (rd_bytes(r, msg, (size_t)clen) != 0) {
            free(msg);
            rc = (rsc_cli_fail(CMD, "%s: record %zu: truncated", path, nrec), -2);
            break;
        }
        rc = warc_response(b, uri, date, msg, (size_t)clen);
        free(msg);
    }
    gzclose(r->f);
    free(r);
    return rc;
}

/* ---- the build itself ---- */

/* Open-addressing set of job keys: later jobs of an origin win. */
static int dedupe(build *b)
{
    size_t cap = 16;
    while (cap < b->n * 2)
        cap <<= 1;
    size_t *t = malloc(cap * sizeof *t);
    if (!t)
        return -1;
    memset(t, 0xff, cap * sizeof *t);
    for (size_t i = 0; i < b->n; i++) {
        size_t h = (size_t)rsc_store_hash(b->jobs[i].key, strlen(b->jobs[i].key)) & (cap - 1);
        while (t[h] != (size_t)-1 && strcmp(b->jobs[t[h]].key, b->jobs[i].key) != 0)
            h = (h + 1) & (cap - 1);
        if (t[h] != (size_t)-1)
            b->jobs[t[h]].skip = 1;
        t[h] = i;
    }
    free(t);
    return 0;
}

/* What is stored already, so that unchanged sources are not recompiled. */
static int lookup_prev(build *b)
{
    rsc_store_txn *t;
    if (rsc_store_begin(b->st, &t) != RSC_STORE_OK)
        return -1;
    for (size_t i = 0; i < b->n; i++) {
        job *j = &b->jobs[i];
        rsc_store_record r;
        if (j->skip || rsc_store_get(t, j->key, strlen(j->key), &r, NULL, NULL) != RSC_STORE_OK)
            continue;
        j->has_prev = 1;
        j->prev_hash = r.meta.source_hash;
        j->prev_size = r.meta.source_size;
        j->prev_profile = r.meta.profile;
        j->prev_policy = r.meta.policy;
    }
    rsc_store_end(t);
    return 0;
}

static void *worker(void *arg)
{
    build *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->mu);
        while (b->next_job < b->n && b->jobs[b->next_job].skip)
            b->next_job++;
        if (b->stop || b->next_job >= b->n) {
            if (--b->workers_left == 0)
                pthread_cond_broadcast(&b->not_empty);
            pthread_mutex_unlock(&b->mu);
            return NULL;
        }
        size_t ji = b->next_job++;
        pthread_mutex_unlock(&b->mu);

        job *j = &b->jobs[ji];
        uint8_t *file = NULL;
        size_t len = 0;
        const uint8_t *body = j->body;
        if (j->path) {
            file = rsc_cli_read(j->path, &len);
            if (!file) {
                pthread_mutex_lock(&b->mu);
                b->done++;
                fail_reason(b, R_READ, j->path, strerror(errno));
                pthread_mutex_unlock(&b->mu);
                continue;
            }
            body = file;
        } else {
            len = j->body_len;
        }
        rsc_fetch_outcome fo = {j->status, RSC_FETCH_OK, body, len};
        rsc_policy_result pr;
        rsc_status_policy(&fo, &pr);
        uint64_t h = rsc_store_hash(body, len);
        result res;
        memset(&res, 0, sizeof res);
        res.job = ji;
        int unchanged = j->has_prev && j->prev_hash == h && j->prev_size == len && j->prev_profile == b->profile &&
                        j->prev_policy == pr.policy;
        rsc_status cs = RSC_OK;
        /* rsc_classify()'s rule, for a body the policy reads: a blob (valid
         * or not) or, without --text, binary or damaged-blob bytes are a
         * failure of this source, never compiled into a record. */
        int kind = pr.policy == RSC_POLICY_PARSE ? rsc_classify(body, len) : RSC_INPUT_TEXT;
        if (kind == RSC_INPUT_BLOB || (kind != RSC_INPUT_TEXT && !b->text)) {
            free(file);
            if (j->body) {
                free(j->body);
                j->body = NULL;
            }
            pthread_mutex_lock(&b->mu);
            b->done++;
            fail_reason(b, kind == RSC_INPUT_BLOB ? R_BLOB : R_BINARY, j->src, rsc_input_kind_what(kind));
            pthread_mutex_unlock(&b->mu);
            continue;
        }
        if (!unchanged) {
            cs = rsc_compile(pr.body, pr.body_len, &b->co, &res.blob);
            rsc_program prog; /* verified here, in parallel, not by the writer */
            if (cs == RSC_OK)
                cs = rsc_load(&prog, res.blob.data, res.blob.size, NULL);
        }
        free(file);
        if (j->body) { /* WARC bodies are needed once */
            free(j->body);
            j->body = NULL;
        }
        pthread_mutex_lock(&b->mu);
        b->bytes_in += len;
        if (unchanged) {
            b->done++;
            b->unchanged++;
            pthread_mutex_unlock(&b->mu);
            continue;
        }
        if (cs != RSC_OK) {
            b->done++;
            fail_reason(b, R_COMPILE, j->src, rsc_strerror(cs));
            pthread_mutex_unlock(&b->mu);
            rsc_blob_free(&res.blob, &b->co);
            continue;
        }
        rsc_store_meta *m = &res.meta;
        m->fetched_at = j->fetched_at;
        m->expires = j->expires;
        m->http_status = j->status;
        m->policy = (uint8_t)pr.policy;
        m->has_copy = (uint8_t)pr.definite;
        m->profile = (uint8_t)b->profile;
        m->source_size = len;
        m->source_hash = h;
        m->source_url.ptr = j->src;
        m->source_url.len = strlen(j->src);
        if (j->etag) {
            m->etag.ptr = j->etag;
            m->etag.len = strlen(j->etag) > 1024 ? 1024 : strlen(j->etag);
        }
        if (j->lm) {
            m->last_modified.ptr = j->lm;
            m->last_modified.len = strlen(j->lm) > 256 ? 256 : strlen(j->lm);
        }
        while (b->q_len == b->q_cap && !b->stop)
            pthread_cond_wait(&b->not_full, &b->mu);
        if (b->stop) {
            pthread_mutex_unlock(&b->mu);
            rsc_blob_free(&res.blob, &b->co);
            continue;
        }
        b->q[(b->q_head + b->q_len++) % b->q_cap] = res;
        b->compiled++;
        b->bytes_out += res.blob.size;
        if (b->q_len >= b->batch) /* wake the writer per batch, not per record */
            pthread_cond_signal(&b->not_empty);
        pthread_mutex_unlock(&b->mu);
    }
}

static int cmp_item(const void *a, const void *b)
{
    const rsc_store_item *x = a, *y = b;
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = memcmp(x->key, y->key, n);
    return c ? c : (x->key_len > y->key_len) - (x->key_len < y->key_len);
}

/* The one writer: commits the compiled records in batches. */
static void *writer(void *arg)
{
    build *b = arg;
    result *batch = malloc(b->batch * sizeof *batch);
    rsc_store_item *items = malloc(b->batch * sizeof *items);
    if (!batch || !items) {
        pthread_mutex_lock(&b->mu);
        b->write_status = RSC_STORE_E_NOMEM;
        b->stop = 1;
        pthread_cond_broadcast(&b->not_full);
        pthread_mutex_unlock(&b->mu);
        free(batch);
        free(items);
        return NULL;
    }
    for (;;) {
        size_t n = 0;
        pthread_mutex_lock(&b->mu);
        while (b->q_len < b->batch && b->workers_left > 0 && !b->stop)
            pthread_cond_wait(&b->not_empty, &b->mu);
        while (b->q_len && n < b->batch) {
            batch[n++] = b->q[b->q_head];
            b->q_head = (b->q_head + 1) % b->q_cap;
            b->q_len--;
        }
        int last = b->q_len == 0 && b->workers_left == 0;
        pthread_cond_broadcast(&b->not_full);
        pthread_mutex_unlock(&b->mu);
        if (n) {
            for (size_t i = 0; i < n; i++) {
                job *j = &b->jobs[batch[i].job];
                items[i].key = j->key;
                items[i].key_len = strlen(j->key);
                items[i].meta = &batch[i].meta;
                items[i].blob = batch[i].blob.data;
                items[i].blob_len = batch[i].blob.size;
                items[i].verified = 1;
            }
            /* Key order: LMDB touches fewer pages. */
            qsort(items, n, sizeof *items, cmp_item);
            size_t bad = 0;
            rsc_store_status s = rsc_store_put_many(b->st, items, n, &bad);
            pthread_mutex_lock(&b->mu);
            b->done += n;
            if (s == RSC_STORE_OK) {
                b->written += n;
            } else {
                b->write_status = s;
                snprintf(b->write_error, sizeof b->write_error, "%s (%s)", rsc_store_strerror(s),
                         rsc_store_last_error(b->st));
                b->stop = 1;
                pthread_cond_broadcast(&b->not_full);
            }
            pthread_mutex_unlock(&b->mu);
            for (size_t i = 0; i < n; i++)
                rsc_blob_free(&batch[i].blob, &b->co);
            if (s != RSC_STORE_OK)
                last = 1;
        }
        if (last) {
            /* Drain what is left after a failure. */
            pthread_mutex_lock(&b->mu);
            while (b->q_len) {
                rsc_blob_free(&b->q[b->q_head].blob, &b->co);
                b->q_head = (b->q_head + 1) % b->q_cap;
                b->q_len--;
            }
            int over = b->workers_left == 0;
            pthread_cond_broadcast(&b->not_full);
            pthread_mutex_unlock(&b->mu);
            if (over)
                break;
        }
    }
    free(batch);
    free(items);
    return NULL;
}

static void progress(build *b, size_t total, double t0, int final)
{
    pthread_mutex_lock(&b->mu);
    size_t done = b->done;
    pthread_mutex_unlock(&b->mu);
    double el = mono() - t0, rate = el > 0 ? done / el : 0;
    double eta = rate > 0 ? (double)(total - done) / rate : 0;
    fprintf(stderr, "\r%zu/%zu  %.0f/s  ETA %.0f s   %s", done, total, rate, eta, final ? "\n" : "");
    fflush(stderr);
}

static const char build_usage[] =
    "usage: robotsc store build DB SOURCE... [-j N] [--scheme https|http] [--profile google|rfc]\n"
    "                           [--ttl SECONDS] [--now T] [--batch N] [--no-sync] [--progress] [-v] [--text]\n"
    "Compiles robots.txt files into the store DB (created when missing). A SOURCE is:\n"
    "  a directory of files named by host (www.example.com.txt; origin SCHEME://host,\n"
    "    https unless --scheme),\n"
    "  a .warc or .warc.gz file (response records of /robots.txt URLs; the HTTP status\n"
    "    goes through the status policy; expiry from Cache-Control and WARC-Date),\n"
    "  or a TSV file of ORIGIN_OR_URL<TAB>PATH lines (relative paths: from the TSV's folder).\n"
    "-j: compile threads (default: the cores); one writer commits --batch records (1000)\n"
    "per transaction. Sources already stored with the same bytes and profile are not\n"
    "recompiled, so a re-run is cheap; an interrupted build keeps every commit.\n"
    "--ttl: lifetime of the records (default: files never expire; WARC: cache rules).\n"
    "A body that begins with the blob magic (a blob, valid or damaged) fails as a source,\n"
    "never compiled as text; so does one that looks binary or like a damaged blob,\n"
    "unless --text reads it as a robots.txt.\n"
    "Progress goes to a terminal only (--progress forces it). Exit 0 when every source\n"
    "compiled, 1 when some failed, 2 on errors.";

static int cmd_build(int argc, char **argv)
{
    build b;
    memset(&b, 0, sizeof b);
    b.now = (int64_t)time(NULL);
    b.ttl = -1;
    b.batch = 1000;
    const char *db = NULL, *scheme = "https", *val;
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    int no_sync = 0, force_progress = 0;
    char **sources = calloc((size_t)argc, sizeof *sources);
    size_t n_sources = 0;
    int rc = 2;
    if (!sources)
        return rsc_cli_fail(CMD, "out of memory");
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts(build_usage);
            free(sources);
            return 0;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "-j", &val)) != 0 ||
                   (strncmp(argv[i], "-j", 2) == 0 && argv[i][2] >= '0' && argv[i][2] <= '9')) {
            char *end;
            if (r < 0)
                goto missing;
            if (r == 0)
                val = argv[i] + 2; /* -jN */
            threads = strtol(val, &end, 10);
            if (*end || threads < 1 || threads > 256) {
                rsc_cli_fail(CMD, "-j: a number of threads in 1..256, not '%s'", val);
                goto out;
            }
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--scheme", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (strcmp(val, "https") && strcmp(val, "http") && strcmp(val, "ftp")) {
                rsc_cli_fail(CMD, "--scheme: https, http or ftp, not '%s'", val);
                goto out;
            }
            scheme = val;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--profile", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (strcmp(val, "google") == 0)
                b.profile = RSC_PROFILE_GOOGLE;
            else if (strcmp(val, "rfc") == 0)
                b.profile = RSC_PROFILE_RFC;
            else {
                rsc_cli_fail(CMD, "unknown profile '%s' (google or rfc)", val);
                goto out;
            }
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--ttl", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (rsc_cli_i64(val, &b.ttl) != 0 || b.ttl < 0) {
                rsc_cli_fail(CMD, "--ttl: seconds (0: never expire), not '%s'", val);
                goto out;
            }
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--now", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (rsc_cli_i64(val, &b.now) != 0) {
                rsc_cli_fail(CMD, "--now: Unix seconds, not '%s'", val);
                goto out;
            }
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--batch", &val)) != 0) {
            char *end;
            if (r < 0)
                goto missing;
            long v = strtol(val, &end, 10);
            if (*end || v < 1 || v > 1000000) {
                rsc_cli_fail(CMD, "--batch: 1..1000000 records, not '%s'", val);
                goto out;
            }
            b.batch = (size_t)v;
        } else if (strcmp(argv[i], "--no-sync") == 0) {
            no_sync = 1;
        } else if (strcmp(argv[i], "--text") == 0) {
            b.text = 1;
        } else if (strcmp(argv[i], "--progress") == 0) {
            force_progress = 1;
        } else if (strcmp(argv[i], "-v") == 0) {
            b.verbose = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            rsc_cli_fail(CMD, "unknown option '%s'", argv[i]);
            goto out;
        } else if (!db) {
            db = argv[i];
        } else {
            sources[n_sources++] = argv[i];
        }
        continue;
    missing:
        rsc_cli_fail(CMD, "%s needs a value", argv[i]);
        goto out;
    }
    if (!db || !n_sources) {
        rsc_cli_fail(CMD, "usage: robotsc store build DB SOURCE... (--help for more)");
        goto out;
    }
    b.co.profile = (rsc_profile)b.profile;
    double t0 = mono();
    for (size_t s = 0; s < n_sources; s++) {
        struct stat sb;
        const char *p = sources[s];
        size_t pn = strlen(p);
        int r;
        if (stat(p, &sb) != 0) {
            rsc_cli_fail(CMD, "%s: %s", p, strerror(errno));
            goto out;
        }
        if (S_ISDIR(sb.st_mode))
            r = add_dir(&b, p, scheme);
        else if ((pn > 5 && strcmp(p + pn - 5, ".warc") == 0) || (pn > 8 && strcmp(p + pn - 8, ".warc.gz") == 0))
            r = add_warc(&b, p);
        else
            r = add_tsv(&b, p);
        if (r == -1) {
            rsc_cli_fail(CMD, "out of memory");
            goto out;
        }
        if (r != 0)
            goto out;
    }
    if (dedupe(&b) != 0) {
        rsc_cli_fail(CMD, "out of memory");
        goto out;
    }
    size_t total = 0;
    for (size_t i = 0; i < b.n; i++)
        total += !b.jobs[i].skip;
    b.st = open_store(db, 0, no_sync);
    if (!b.st)
        goto out;
    if (lookup_prev(&b) != 0) {
        rsc_cli_fail(CMD, "%s: %s", db, rsc_store_last_error(b.st));
        goto out;
    }
    b.q_cap = 4 * b.batch;
    b.q = malloc(b.q_cap * sizeof *b.q);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    if (!b.q || !tid) {
        free(tid);
        rsc_cli_fail(CMD, "out of memory");
        goto out;
    }
    pthread_mutex_init(&b.mu, NULL);
    pthread_cond_init(&b.not_empty, NULL);
    pthread_cond_init(&b.not_full, NULL);
    b.workers_left = (int)threads;
    pthread_t wt;
    int started = 0;
    if (pthread_create(&wt, NULL, writer, &b) != 0) {
        free(tid);
        rsc_cli_fail(CMD, "cannot start threads");
        goto out;
    }
    for (long t = 0; t < threads; t++) {
        if (pthread_create(&tid[t], NULL, worker, &b) != 0) {
            /* Fewer workers: the ones not started never decrement. */
            pthread_mutex_lock(&b.mu);
            b.workers_left -= (int)(threads - t);
            pthread_cond_broadcast(&b.not_empty);
            pthread_mutex_unlock(&b.mu);
            break;
        }
        started++;
    }
    int tty = force_progress || isatty(2);
    for (;;) {
        pthread_mutex_lock(&b.mu);
        int over = b.workers_left == 0 && b.q_len == 0;
        pthread_mutex_unlock(&b.mu);
        if (over)
            break;
        if (tty)
            progress(&b, total, t0, 0);
        struct timespec ts = {0, 250000000};
        nanosleep(&ts, NULL);
    }
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    pthread_join(wt, NULL);
    free(tid);
    if (tty)
        progress(&b, total, t0, 1);
    double el = mono() - t0;
    printf("sources: %zu (%zu superseded by a later one of the same origin)\n", total, b.n - total);
    printf("compiled: %zu, written: %zu, unchanged: %zu, failed: %zu\n", b.compiled, b.written, b.unchanged,
           b.failed);
    for (int r = 0; r < N_REASONS; r++)
        if (b.reasons[r])
            printf("  failed: %zu %s\n", b.reasons[r], reason_text[r]);
    printf("bytes in: %" PRIu64 ", bytes out (blobs): %" PRIu64 "\n", b.bytes_in, b.bytes_out);
    printf("time: %.2f s, %.0f sources/s\n", el, el > 0 ? total / el : 0);
    if (b.write_status != RSC_STORE_OK) {
        rsc_cli_fail(CMD, "%s: write failed: %s; every earlier commit is kept", db, b.write_error);
        rc = 2;
    } else {
        rc = b.failed ? 1 : 0;
    }
    pthread_mutex_destroy(&b.mu);
    pthread_cond_destroy(&b.not_empty);
    pthread_cond_destroy(&b.not_full);
out:
    rsc_store_close(b.st);
    for (size_t i = 0; i < b.n; i++) {
        free(b.jobs[i].key);
        free(b.jobs[i].path);
        free(b.jobs[i].src);
        free(b.jobs[i].body);
        free(b.jobs[i].etag);
        free(b.jobs[i].lm);
    }
    free(b.jobs);
    free(b.q);
    free(sources);
    return rc;
}

/* ---- store check ---------------------------------------------------------- */

static const char check_usage[] =
    "usage: robotsc store check DB (--agent NAME | --user-agent UA)... [--json]\n"
    "                           [--missing allow|disallow|unknown] [--now T] [--no-cache] [URL ...]\n"
    "--json: one JSON object per URL (JSON Lines): url, origin (null when the URL has\n"
    "none), verdict ('allow', 'disallow', the --missing word or 'error'), allowed (true,\n"
    "false, or null without a verdict), error (the reason, or null). Strings hold\n"
    "bytes: non-ASCII as \\u00XX.\n"
    "--agent NAME is the crawler's name, matched as given (never cut; a name that is not\n"
    "a product token gets the '*' group, with a warning); --user-agent UA reduces a\n"
    "User-Agent header or Name/version to its product token: as robotsc check does.\n"
    "Routes each URL (arguments, or standard input one per line, any origins) to its\n"
    "origin's record and prints allow, disallow or unknown, a tab and the URL. unknown:\n"
    "no record, or the record expired (at --now T, default the clock); --missing chooses\n"
    "what to print instead. A damaged record prints 'error' and a message on stderr,\n"
    "never a verdict; so does a URL with no robots.txt. Exit 0, or 2 when some line\n"
    "was an error.";

static int cmd_check(int argc, char **argv)
{
    const char *db = NULL, *val, *missing = "unknown";
    rsc_bytes agents[RSC_MAX_SELECT];
    size_t n_agents = 0;
    int64_t now = (int64_t)time(NULL);
    int use_cache = 1, json = 0;
    char **urls = calloc((size_t)argc, sizeof *urls);
    int n_urls = 0, rc = 2;
    if (!urls)
        return rsc_cli_fail(CMD, "out of memory");
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts(check_usage);
            free(urls);
            return 0;
        } else if ((r = rsc_cli_agent_opt(CMD, argc, argv, &i, agents, &n_agents, RSC_MAX_SELECT)) != 0) {
            if (r > 0) /* the crawler's name as robotsc check takes it */
                goto out;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--missing", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (strcmp(val, "allow") && strcmp(val, "disallow") && strcmp(val, "unknown")) {
                rsc_cli_fail(CMD, "--missing: allow, disallow or unknown, not '%s'", val);
                goto out;
            }
            missing = val;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--now", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (rsc_cli_i64(val, &now) != 0) {
                rsc_cli_fail(CMD, "--now: Unix seconds, not '%s'", val);
                goto out;
            }
        } else if (strcmp(argv[i], "--no-cache") == 0) {
            use_cache = 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            rsc_cli_fail(CMD, "unknown option '%s'", argv[i]);
            goto out;
        } else if (!db) {
            db = argv[i];
        } else {
            urls[n_urls++] = argv[i];
        }
        continue;
    missing:
        rsc_cli_fail(CMD, "%s needs a value", argv[i]);
        goto out;
    }
    if (!db || !n_agents) {
        rsc_cli_fail(CMD, "usage: robotsc store check DB --agent A [URL...] (--help for more)");
        goto out;
    }
    rsc_store *st = open_store(db, 1, 0);
    if (!st)
        goto out;
    rsc_store_txn *t;
    rsc_store_status s = rsc_store_begin(st, &t);
    if (s != RSC_STORE_OK) {
        rsc_cli_fail(CMD, "%s: %s", db, rsc_store_last_error(st));
        rsc_store_close(st);
        goto out;
    }
    rsc_store_cache *cache = use_cache ? rsc_store_cache_new(4096, 0) : NULL;
    int errors = 0;
    char *line = NULL;
    size_t cap = 0;
    const char *u;
    size_t len, k = 0;
    while (rsc_cli_next_url(urls, (size_t)n_urls, &k, &line, &cap, &u, &len)) {
        int verdict = 0;
        s = rsc_store_check(t, cache, agents, n_agents, u, len, now, &verdict);
        const char *word = s == RSC_STORE_OK ? (verdict == RSC_STORE_ALLOW ? "allow" : "disallow")
                         : s == RSC_STORE_NOTFOUND ? missing : "error";
        const char *why = s == RSC_STORE_E_KEY ? "URL has no robots.txt" : rsc_store_strerror(s);
        rsc_origin o;
        int has_origin = rsc_origin_parse(u, len, &o) == RSC_URL_OK;
        if (s != RSC_STORE_OK && s != RSC_STORE_NOTFOUND) {
            errors++;
            rsc_cli_fail("store check", "%s: %s", has_origin ? o.key : u, why);
        }
        if (json) {
            fputs("{\"url\":", stdout);
            rsc_cli_json_str(stdout, u, len);
            fputs(",\"origin\":", stdout);
            if (has_origin)
                rsc_cli_json_str(stdout, o.key, o.key_len);
            else
                fputs("null", stdout);
            printf(",\"verdict\":\"%s\",\"allowed\":%s,\"error\":", word,
                   s == RSC_STORE_OK ? (verdict == RSC_STORE_ALLOW ? "true" : "false") : "null");
            if (s != RSC_STORE_OK && s != RSC_STORE_NOTFOUND)
                rsc_cli_json_str(stdout, why, strlen(why));
            else
                fputs("null", stdout);
            fputs("}\n", stdout);
        } else {
            printf("%s\t", word);
            fwrite(u, 1, len, stdout);
            putchar('\n');
        }
    }
    free(line);
    rsc_store_cache_free(cache);
    rsc_store_end(t);
    rsc_store_close(st);
    if (fflush(stdout) != 0)
        rc = rsc_cli_fail(CMD, "cannot write output");
    else
        rc = errors ? 2 : 0;
out:
    free(urls);
    return rc;
}

/* ---- get, put, del, list, stat, gc ------------------------------------------ */

static void print_time(const char *label, int64_t t)
{
    if (t == RSC_STORE_NEVER) {
        printf("%s: never\n", label);
        return;
    }
    time_t tt = (time_t)t;
    struct tm tm;
    char buf[64] = "?";
    if (gmtime_r(&tt, &tm))
        strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    printf("%s: %s (%" PRId64 ")\n", label, buf, t);
}

static void print_record(const char *key, const rsc_store_record *r)
{
    const rsc_store_meta *m = &r->meta;
    printf("origin: %s\n", key);
    printf("source: %.*s\n", (int)m->source_url.len, m->source_url.ptr);
    print_time("fetched_at", m->fetched_at);
    print_time("expires", m->expires);
    if (m->error_since)
        print_time("error_since", m->error_since);
    printf("status: %d\npolicy: %s\nhas_copy: %d\nprofile: %s\n", m->http_status, rsc_policy_name(m->policy),
           m->has_copy, m->profile == RSC_PROFILE_RFC ? "rfc" : "google");
    if (m->etag.len)
        printf("etag: %.*s\n", (int)m->etag.len, m->etag.ptr);
    if (m->last_modified.len)
        printf("last_modified: %.*s\n", (int)m->last_modified.len, m->last_modified.ptr);
    printf("source_bytes: %" PRIu64 "\nsource_hash: %016" PRIx64 "\n", m->source_size, m->source_hash);
    printf("format: %u\nblob_bytes: %zu\nrecord_bytes: %zu\n", m->format, r->blob_len, r->record_len);
}

static void json_time(const char *name, int64_t t)
{
    if (t == RSC_STORE_NEVER || (t == 0 && strcmp(name, "error_since") == 0))
        printf(",\"%s\":null", name);
    else
        printf(",\"%s\":%" PRId64, name, t);
}

static void json_bytes_or_null(const char *name, const rsc_bytes *b)
{
    printf(",\"%s\":", name);
    if (b->len)
        rsc_cli_json_str(stdout, b->ptr, b->len);
    else
        fputs("null", stdout);
}

/* store get --json: the record as one JSON object (the fields of
 * print_record, times as Unix seconds, null for never / none). */
static void print_record_json(const char *key, const rsc_store_record *r)
{
    const rsc_store_meta *m = &r->meta;
    fputs("{\"origin\":", stdout);
    rsc_cli_json_str(stdout, key, strlen(key));
    fputs(",\"source\":", stdout);
    rsc_cli_json_str(stdout, m->source_url.ptr, m->source_url.len);
    json_time("fetched_at", m->fetched_at);
    json_time("expires", m->expires);
    json_time("error_since", m->error_since);
    printf(",\"status\":%d,\"policy\":\"%s\",\"has_copy\":%s,\"profile\":\"%s\"", m->http_status,
           rsc_policy_name(m->policy), m->has_copy ? "true" : "false",
           m->profile == RSC_PROFILE_RFC ? "rfc" : "google");
    json_bytes_or_null("etag", &m->etag);
    json_bytes_or_null("last_modified", &m->last_modified);
    printf(",\"source_bytes\":%" PRIu64 ",\"source_hash\":\"%016" PRIx64 "\",\"format\":%u,"
           "\"blob_bytes\":%zu,\"record_bytes\":%zu}\n",
           m->source_size, m->source_hash, m->format, r->blob_len, r->record_len);
}

static int cmd_get(int argc, char **argv)
{
    const char *db = NULL, *what = NULL, *out = NULL, *val;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts("usage: robotsc store get DB ORIGIN_OR_URL [-o OUT.rbc] [--json]\n"
                 "Prints the record of the origin (metadata) after verifying it; -o writes its blob.\n"
                 "--json: one JSON object: origin, source, fetched_at, expires (Unix seconds; null:\n"
                 "never), error_since (null: none), status, policy, has_copy, profile, etag and\n"
                 "last_modified (null when absent), source_bytes, source_hash (16 hex digits),\n"
                 "format, blob_bytes, record_bytes. Strings hold bytes: non-ASCII as \\u00XX.\n"
                 "Exit 0, 1 when there is no record, 2 on errors (a damaged record).");
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "-o", &val)) != 0) {
            if (r < 0)
                return rsc_cli_fail(CMD, "-o needs a value");
            out = val;
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            return rsc_cli_fail(CMD, "unknown option '%s'", argv[i]);
        } else if (!db) {
            db = argv[i];
        } else if (!what) {
            what = argv[i];
        } else {
            return rsc_cli_fail(CMD, "get: one origin at a time");
        }
    }
    if (!db || !what)
        return rsc_cli_fail(CMD, "usage: robotsc store get DB ORIGIN_OR_URL [-o OUT.rbc]");
    rsc_origin o;
    if (key_of(what, &o) != 0)
        return 2;
    rsc_store *st = open_store(db, 1, 0);
    if (!st)
        return 2;
    rsc_store_txn *t;
    int rc = 2;
    if (rsc_store_begin(st, &t) != RSC_STORE_OK) {
        rsc_cli_fail(CMD, "%s: %s", db, rsc_store_last_error(st));
        rsc_store_close(st);
        return 2;
    }
    rsc_store_record r;
    rsc_program p;
    rsc_load_error le = {0, NULL};
    rsc_store_status s = rsc_store_get(t, o.key, o.key_len, &r, &p, &le);
    if (s == RSC_STORE_NOTFOUND) {
        fprintf(stderr, "robotsc store: %s: no record\n", o.key);
        rc = 1;
    } else if (s == RSC_STORE_E_BLOB) {
        rsc_cli_fail(CMD, "%s: %s (%s at byte %zu)", o.key, rsc_store_strerror(s), le.what ? le.what : "?",
                     le.offset);
    } else if (s != RSC_STORE_OK) {
        rsc_cli_fail(CMD, "%s: %s", o.key, rsc_store_strerror(s));
    } else {
        if (json)
            print_record_json(o.key, &r);
        else
            print_record(o.key, &r);
        rc = 0;
        if (out) {
            FILE *f = fopen(out, "wb");
            if (!f || fwrite(r.blob, 1, r.blob_len, f) != r.blob_len) {
                rc = rsc_cli_fail(CMD, "%s: %s", out, strerror(errno));
                if (f)
                    fclose(f);
            } else if (fclose(f) != 0) {
                rc = rsc_cli_fail(CMD, "%s: %s", out, strerror(errno));
            }
        }
    }
    rsc_store_end(t);
    rsc_store_close(st);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
        rc = rsc_cli_fail(CMD, "cannot write output");
    return rc;
}

static int cmd_put(int argc, char **argv)
{
    const char *db = NULL, *what = NULL, *file = NULL, *val, *etag = NULL, *lm = NULL;
    int64_t now = (int64_t)time(NULL), ttl = 0;
    int report = 0; /* --report-changes (cli/store_diff.c) */
    int status = 200, text = 0;
    rsc_compile_options co = {0};
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts("usage: robotsc store put DB ORIGIN_OR_URL FILE [--profile google|rfc] [--status N]\n"
                 "                         [--ttl SECONDS] [--now T] [--etag E] [--last-modified D] [--text]\n"
                 "                         [--report-changes]\n"
                 "Stores FILE for the origin: a robots.txt is compiled (after the status policy of\n"
                 "--status, default 200); a compiled blob is verified and stored as it is. Bytes that\n"
                 "begin with the blob magic are a blob: one that fails verification is an error\n"
                 "(exit 2, nothing stored), never compiled as text. A FILE that looks binary or like\n"
                 "a damaged blob is an error too, unless --text reads it as a robots.txt.\n"
                 "--ttl: lifetime (default: never expires).");
            return 0;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--profile", &val)) != 0) {
            if (r < 0)
                return rsc_cli_fail(CMD, "--profile needs a value");
            if (strcmp(val, "google") == 0)
                co.profile = RSC_PROFILE_GOOGLE;
            else if (strcmp(val, "rfc") == 0)
                co.profile = RSC_PROFILE_RFC;
            else
                return rsc_cli_fail(CMD, "unknown profile '%s' (google or rfc)", val);
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--status", &val)) != 0) {
            int64_t v;
            if (r < 0 || rsc_cli_i64(val, &v) != 0 || v < 0 || v > 999)
                return rsc_cli_fail(CMD, "--status: an HTTP status");
            status = (int)v;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--ttl", &val)) != 0) {
            if (r < 0 || rsc_cli_i64(val, &ttl) != 0 || ttl < 0)
                return rsc_cli_fail(CMD, "--ttl: seconds (0: never expire)");
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--now", &val)) != 0) {
            if (r < 0 || rsc_cli_i64(val, &now) != 0)
                return rsc_cli_fail(CMD, "--now: Unix seconds");
        } else if (strcmp(argv[i], "--text") == 0) {
            text = 1;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--etag", &val)) != 0) {
            if (r < 0)
                return rsc_cli_fail(CMD, "--etag needs a value");
            etag = val;
        } else if (strcmp(argv[i], "--report-changes") == 0) {
            report = 1;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--last-modified", &val)) != 0) {
            if (r < 0)
                return rsc_cli_fail(CMD, "--last-modified needs a value");
            lm = val;
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            return rsc_cli_fail(CMD, "unknown option '%s'", argv[i]);
        } else if (!db) {
            db = argv[i];
        } else if (!what) {
            what = argv[i];
        } else if (!file) {
            file = argv[i];
        } else {
            return rsc_cli_fail(CMD, "put: one origin at a time");
        }
    }
    if (!db || !what || !file)
        return rsc_cli_fail(CMD, "usage: robotsc store put DB ORIGIN_OR_URL FILE");
    rsc_origin o;
    if (key_of(what, &o) != 0)
        return 2;
    size_t len;
    unsigned char *data = rsc_cli_read(file, &len);
    if (!data)
        return rsc_cli_fail(CMD, "%s: %s", file, strerror(errno));
    rsc_store_meta m;
    memset(&m, 0, sizeof m);
    rsc_blob blob = {NULL, 0};
    const void *bytes;
    size_t blen;
    rsc_program p;
    int rc = 2;
    rsc_fetch_outcome fo = {status, RSC_FETCH_OK, data, len};
    rsc_policy_result pr;
    rsc_status_policy(&fo, &pr);
    /* rsc_classify()'s rule: a blob is loaded or refused, never compiled;
     * damaged or binary bytes are refused when the policy would read them. */
    int kind = rsc_classify(data, len);
    if (kind != RSC_INPUT_BLOB && kind != RSC_INPUT_TEXT && pr.policy == RSC_POLICY_PARSE &&
        rsc_cli_classify(CMD, file, data, len, text) == 2)
        goto end;
    if (kind == RSC_INPUT_BLOB) {
        rsc_load_error le = {0, NULL};
        rsc_status ls = rsc_load(&p, data, len, &le);
        if (ls != RSC_OK) {
            rsc_cli_fail(CMD, "%s: invalid blob: %s at byte %zu (%s); nothing stored", file, rsc_strerror(ls),
                         le.offset, le.what ? le.what : "");
            goto end;
        }
        bytes = data;
        blen = len;
        m.profile = (uint8_t)rsc_program_profile(&p);
        m.policy = RSC_POLICY_PARSE;
        m.has_copy = 1;
    } else {
        rsc_status cs = rsc_compile(pr.body, pr.body_len, &co, &blob);
        if (cs != RSC_OK) {
            rsc_cli_fail(CMD, "%s: cannot compile: %s", file, rsc_strerror(cs));
            goto end;
        }
        bytes = blob.data;
        blen = blob.size;
        m.profile = (uint8_t)co.profile;
        m.policy = (uint8_t)pr.policy;
        m.has_copy = (uint8_t)pr.definite;
    }
    m.http_status = status;
    m.fetched_at = now;
    m.expires = ttl ? now + ttl : RSC_STORE_NEVER;
    m.source_size = len;
    m.source_hash = rsc_store_hash(data, len);
    m.source_url.ptr = file;
    m.source_url.len = strlen(file);
    if (etag) {
        m.etag.ptr = etag;
        m.etag.len = strlen(etag);
    }
    if (lm) {
        m.last_modified.ptr = lm;
        m.last_modified.len = strlen(lm);
    }
    rsc_store *st = open_store(db, 0, 0);
    if (!st)
        goto end;
    if (report)
        rsc_cli_store_report(st, o.key, o.key_len, bytes, blen);
    rsc_store_status s = rsc_store_put(st, o.key, o.key_len, &m, bytes, blen);
    if (s != RSC_STORE_OK)
        rsc_cli_fail(CMD, "%s: %s: %s (%s)", db, o.key, rsc_store_strerror(s), rsc_store_last_error(st));
    else
        rc = 0;
    rsc_store_close(st);
end:
    rsc_blob_free(&blob, &co);
    free(data);
    return rc;
}

static int cmd_del(int argc, char **argv)
{
    if (argc >= 2 && rsc_cli_is_help(argv[1])) {
        puts("usage: robotsc store del DB ORIGIN_OR_URL...\n"
             "Deletes the records (in one transaction each). Exit 0, 1 when some had no record.");
        return 0;
    }
    if (argc < 3)
        return rsc_cli_fail(CMD, "usage: robotsc store del DB ORIGIN_OR_URL...");
    rsc_store *st = open_store(argv[1], 0, 0);
    if (!st)
        return 2;
    int rc = 0;
    for (int i = 2; i < argc; i++) {
        rsc_origin o;
        if (key_of(argv[i], &o) != 0) {
            rc = 2;
            continue;
        }
        rsc_store_status s = rsc_store_del(st, o.key, o.key_len);
        if (s == RSC_STORE_NOTFOUND) {
            fprintf(stderr, "robotsc store: %s: no record\n", o.key);
            if (rc == 0)
                rc = 1;
        } else if (s != RSC_STORE_OK) {
            rc = rsc_cli_fail(CMD, "%s: %s (%s)", o.key, rsc_store_strerror(s), rsc_store_last_error(st));
        }
    }
    rsc_store_close(st);
    return rc;
}

typedef struct list_ctx {
    size_t ok, bad;
    int quiet;
} list_ctx;

static int list_one(void *ud, const char *key, size_t klen, rsc_store_status s, const rsc_store_record *r)
{
    list_ctx *c = ud;
    if (s == RSC_STORE_OK) {
        c->ok++;
        if (!c->quiet) {
            char exp[32] = "never";
            if (r->meta.expires != RSC_STORE_NEVER)
                snprintf(exp, sizeof exp, "%" PRId64, r->meta.expires);
            printf("%.*s\t%d\t%s\t%s\t%zu\n", (int)klen, key, r->meta.http_status, rsc_policy_name(r->meta.policy),
                   exp, r->blob_len);
        }
    } else {
        c->bad++;
        printf("%.*s\terror: %s\n", (int)klen, key, rsc_store_strerror(s));
    }
    return 0;
}

static int cmd_list(int argc, char **argv)
{
    list_ctx c = {0, 0, 0};
    const char *db = NULL;
    for (int i = 1; i < argc; i++) {
        if (rsc_cli_is_help(argv[i])) {
            puts("usage: robotsc store list DB [--verify]\n"
                 "One line per record, in key order: origin, HTTP status, policy, expiry (Unix\n"
                 "seconds or never), blob bytes. Every record is verified; a damaged one prints\n"
                 "'ORIGIN<TAB>error: WHY'. --verify prints only the damaged ones and a count.\n"
                 "Exit 0, or 2 when some record is damaged.");
            return 0;
        } else if (strcmp(argv[i], "--verify") == 0) {
            c.quiet = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            return rsc_cli_fail(CMD, "unknown option '%s'", argv[i]);
        } else if (!db) {
            db = argv[i];
        } else {
            return rsc_cli_fail(CMD, "usage: robotsc store list DB [--verify]");
        }
    }
    if (!db)
        return rsc_cli_fail(CMD, "usage: robotsc store list DB [--verify]");
    rsc_store *st = open_store(db, 1, 0);
    if (!st)
        return 2;
    rsc_store_txn *t;
    rsc_store_status s = rsc_store_begin(st, &t);
    if (s == RSC_STORE_OK)
        s = rsc_store_foreach(t, list_one, &c);
    rsc_store_end(t);
    int rc = 0;
    if (s != RSC_STORE_OK)
        rc = rsc_cli_fail(CMD, "%s: %s (%s)", db, rsc_store_strerror(s), rsc_store_last_error(st));
    rsc_store_close(st);
    if (c.quiet)
        printf("records: %zu verified, %zu damaged\n", c.ok, c.bad);
    return rc ? rc : c.bad ? 2 : 0;
}

static int cmd_stat(int argc, char **argv)
{
    if (argc >= 2 && rsc_cli_is_help(argv[1])) {
        puts("usage: robotsc store stat DB\nRecords, map size, bytes in use, bytes per record, readers.");
        return 0;
    }
    if (argc != 2)
        return rsc_cli_fail(CMD, "usage: robotsc store stat DB");
    rsc_store *st = open_store(argv[1], 1, 0);
    if (!st)
        return 2;
    rsc_store_stats s;
    rsc_store_status r = rsc_store_stat(st, &s);
    if (r != RSC_STORE_OK) {
        rsc_store_close(st);
        return rsc_cli_fail(CMD, "%s: %s", argv[1], rsc_store_strerror(r));
    }
    printf("records: %zu\nmap_size: %zu\nused_bytes: %zu\npage_size: %zu\n", s.records, s.map_size, s.used_bytes,
           s.page_size);
    printf("bytes_per_record: %.0f\nreaders: %u/%u\nformat: %d\n", s.records ? (double)s.used_bytes / s.records : 0,
           s.readers, s.max_readers, RSC_FORMAT_MAJOR);
    rsc_store_close(st);
    return 0;
}

static int cmd_gc(int argc, char **argv)
{
    const char *db = NULL, *val;
    int64_t now = (int64_t)time(NULL), grace = 0;
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts("usage: robotsc store gc DB [--now T] [--grace SECONDS]\n"
                 "Deletes the records that expired at least --grace seconds before now (default\n"
                 "0) and prints how many.");
            return 0;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--now", &val)) != 0) {
            if (r < 0 || rsc_cli_i64(val, &now) != 0)
                return rsc_cli_fail(CMD, "--now: Unix seconds");
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--grace", &val)) != 0) {
            if (r < 0 || rsc_cli_i64(val, &grace) != 0 || grace < 0)
                return rsc_cli_fail(CMD, "--grace: seconds");
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            return rsc_cli_fail(CMD, "unknown option '%s'", argv[i]);
        } else if (!db) {
            db = argv[i];
        } else {
            return rsc_cli_fail(CMD, "usage: robotsc store gc DB [--now T] [--grace SECONDS]");
        }
    }
    if (!db)
        return rsc_cli_fail(CMD, "usage: robotsc store gc DB [--now T] [--grace SECONDS]");
    rsc_store *st = open_store(db, 0, 0);
    if (!st)
        return 2;
    size_t removed = 0;
    rsc_store_status s = rsc_store_gc(st, now - grace, &removed);
    int rc = 0;
    if (s != RSC_STORE_OK)
        rc = rsc_cli_fail(CMD, "%s: %s (%s)", db, rsc_store_strerror(s), rsc_store_last_error(st));
    else
        printf("removed: %zu\n", removed);
    rsc_store_close(st);
    return rc;
}

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *what;
} subs[] = {
    {"build", cmd_build, "compile many robots.txt files (directory, TSV, WARC) into DB"},
    {"check", cmd_check, "check URLs of any origins against DB"},
    {"get", cmd_get, "print an origin's record; -o writes its blob"},
    {"put", cmd_put, "store one robots.txt or blob for an origin"},
    {"del", cmd_del, "delete origins"},
    {"list", cmd_list, "list and verify every record"},
    {"stat", cmd_stat, "records, sizes, readers"},
    {"gc", cmd_gc, "delete expired records"},
    {"diff", rsc_cmd_store_diff, "compare an origin's record with a new robots.txt (cli/store_diff.c)"},
};

int rsc_cmd_store(int argc, char **argv)
{
    if (argc < 2 || rsc_cli_is_help(argv[1])) {
        FILE *out = argc < 2 ? stderr : stdout;
        fputs("usage: robotsc store SUBCOMMAND DB ...   (robotsc store SUBCOMMAND --help for more)\n"
              "A store is one LMDB file of compiled robots.txt programs keyed by origin.\n\n",
              out);
        for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
            fprintf(out, "  %-6s %s\n", subs[i].name, subs[i].what);
        fputs("\nrobotsc fetch --store DB URL... fetches many origins into DB.\n", out);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(argv[1], subs[i].name) == 0)
            return subs[i].fn(argc - 1, argv + 1);
    return rsc_cli_fail(CMD, "unknown subcommand '%s' (robotsc store --help)", argv[1]);
}
