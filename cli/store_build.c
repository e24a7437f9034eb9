/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc store build: many robots.txt files (a directory, a TSV list, WARC
 * files) compiled by worker threads and committed by one writer in batches. */
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

#include "store_cmd.h"

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

/* ---- sources -> jobs ---- */

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
    int text;   /* --text: binary or damaged-blob bytes read as robots.txt */
    int report; /* --report-changes: what each replaced record's rules change */
    /* entries of a directory SOURCE not read, said in the summary: names
     * not HOST.txt, hidden files, subfolders (and other non-files) */
    size_t skip_name, skip_hidden, skip_dir;
    int any_dir; /* a directory SOURCE was given: its scheme is said */
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

/* A job for the file at path (malloc'ed; the job owns it, or it is freed
 * here): read with status 200, expiring after --ttl. -1 when out of memory. */
static int add_path_job(build *b, const rsc_origin *o, char *path)
{
    job j = {0};
    j.key = dupn(o->key, o->key_len);
    j.path = path;
    j.src = dupn(path, strlen(path));
    j.status = 200;
    j.fetched_at = b->now;
    j.expires = b->ttl > 0 ? b->now + b->ttl : RSC_STORE_NEVER;
    if (!j.key || !j.src || add_job(b, &j) != 0) {
        free(j.key);
        free(j.path);
        free(j.src);
        return -1;
    }
    return 0;
}

/* A host-named file (the corpus: "www.example.com.txt"); anything else in
 * the folder is counted as skipped, never ignored in silence. */
static int add_file(build *b, const char *dir, const char *name, const char *scheme)
{
    size_t n = strlen(name);
    if (name[0] == '.') {
        b->skip_hidden++;
        return 0;
    }
    struct stat sb;
    char full[4096];
    if ((size_t)snprintf(full, sizeof full, "%s/%s", dir, name) < sizeof full && stat(full, &sb) == 0 &&
        !S_ISREG(sb.st_mode)) {
        b->skip_dir++; /* a subfolder, a FIFO, a socket: not read (no recursion) */
        return 0;
    }
    if (n <= 4 || strcmp(name + n - 4, ".txt") != 0) {
        b->skip_name++;
        return 0;
    }
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
    return add_path_job(b, &o, path);
}

static int add_dir(build *b, const char *dir, const char *scheme)
{
    DIR *d = opendir(dir);
    if (!d)
        return (rsc_cli_fail(CMD, "%s: %s", dir, strerror(errno)), -2);
    struct dirent *e;
    int r = 0;
    b->any_dir = 1;
    while (r == 0 && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
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
        size_t at = pn && p[0] != '/' ? dlen : 0; /* relative: after the TSV's folder */
        char *path = malloc(at + pn + 1);
        if (!path) {
            r = -1;
            break;
        }
        memcpy(path, tsv, at);
        memcpy(path + at, p, pn);
        path[at + pn] = 0;
        r = add_path_job(b, &o, path);
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

/* A source done without a record, counted under the lock. */
static void fail_job(build *b, int r, const char *what, const char *detail)
{
    pthread_mutex_lock(&b->mu);
    b->done++;
    fail_reason(b, r, what, detail);
    pthread_mutex_unlock(&b->mu);
}

/* The bytes of a job are needed once: the file read, and a WARC body. */
static void drop_body(job *j, uint8_t *file)
{
    free(file);
    free(j->body);
    j->body = NULL;
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
                fail_job(b, R_READ, j->path, strerror(errno));
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
            drop_body(j, file);
            fail_job(b, kind == RSC_INPUT_BLOB ? R_BLOB : R_BINARY, j->src, rsc_input_kind_what(kind));
            continue;
        }
        if (!unchanged) {
            cs = rsc_compile(pr.body, pr.body_len, &b->co, &res.blob);
            rsc_program prog; /* verified here, in parallel, not by the writer */
            if (cs == RSC_OK)
                cs = rsc_load(&prog, res.blob.data, res.blob.size, NULL);
        }
        drop_body(j, file);
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
        /* what a later 304 without Cache-Control renews (fetch --store) */
        m->lifetime = j->expires != RSC_STORE_NEVER && j->expires > j->fetched_at ? j->expires - j->fetched_at : 0;
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
            for (size_t i = 0; b->report && i < n; i++)
                rsc_cli_store_report(b->st, items[i].key, items[i].key_len, items[i].blob, items[i].blob_len);
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
    "                           [--report-changes]\n"
    "Compiles robots.txt files into the store DB (created when missing). A SOURCE is:\n"
    "  a directory of files named by host (www.example.com.txt; origin SCHEME://host,\n"
    "    https unless --scheme http: one scheme per build, said in the summary). Other\n"
    "    entries (names without .txt, hidden files, subfolders: no recursion) are\n"
    "    skipped and counted in the summary,\n"
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
    "--report-changes: for each record replaced, what its new rules change (robotsc diff).\n"
    "The summary adds up: sources = compiled + unchanged + failed + skipped (sources\n"
    "superseded by a later one of the same origin are counted apart).\n"
    "Progress goes to a terminal only (--progress forces it). Exit 0 when no source\n"
    "failed (skipped ones are not failures), 1 when some failed, 2 on errors.";

int cmd_build(int argc, char **argv)
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
            if (strcmp(val, "https") && strcmp(val, "http")) {
                rsc_cli_fail(CMD, "--scheme: https or http, not '%s'", val);
                goto out;
            }
            scheme = val;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--profile", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (profile_of(val, &b.profile) != 0)
                goto out;
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
            if (now_of(val, &b.now) != 0)
                goto out;
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
        } else if (strcmp(argv[i], "--report-changes") == 0) {
            b.report = 1;
        } else if (strcmp(argv[i], "--progress") == 0) {
            force_progress = 1;
        } else if (strcmp(argv[i], "-v") == 0) {
            b.verbose = 1;
        } else if ((r = positional(argv[i], &db, 1)) == 1) {
            sources[n_sources++] = argv[i];
        } else if (r != 0) {
            goto out;
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
    size_t total = 0, listed_failed = b.failed; /* failed before any job: bad names, TSV lines */
    for (size_t i = 0; i < b.n; i++)
        total += !b.jobs[i].skip;
    b.st = create_store(db, 0, no_sync);
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
    /* Every source found ends as exactly one of compiled, unchanged,
     * failed, skipped: the summary adds up. */
    size_t skipped = b.skip_name + b.skip_hidden + b.skip_dir;
    printf("sources: %zu (%zu superseded by a later one of the same origin, not counted)\n",
           total + listed_failed + skipped, b.n - total);
    printf("compiled: %zu, written: %zu, unchanged: %zu, failed: %zu\n", b.compiled, b.written, b.unchanged,
           b.failed);
    for (int r = 0; r < N_REASONS; r++)
        if (b.reasons[r])
            printf("  failed: %zu %s\n", b.reasons[r], reason_text[r]);
    printf("skipped: %zu\n", skipped);
    if (b.skip_name)
        printf("  skipped: %zu not named HOST.txt\n", b.skip_name);
    if (b.skip_hidden)
        printf("  skipped: %zu hidden (name begins with '.')\n", b.skip_hidden);
    if (b.skip_dir)
        printf("  skipped: %zu subfolders or other non-files (folders are not read recursively)\n", b.skip_dir);
    if (b.any_dir)
        printf("scheme: folder files stored as %s://HOST only (URLs of another scheme answer unknown; "
               "--scheme %s stores those)\n", scheme, strcmp(scheme, "https") == 0 ? "http" : "https");
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
