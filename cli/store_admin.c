/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc store get, put, del, list, stat, gc: one record, or the store as a
 * whole. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_cmd.h"

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
    if (m->lifetime)
        printf("lifetime: %" PRId64 "\n", m->lifetime);
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
    if (m->lifetime)
        printf(",\"lifetime\":%" PRId64, m->lifetime);
    else
        fputs(",\"lifetime\":null", stdout);
    printf(",\"status\":%d,\"policy\":\"%s\",\"has_copy\":%s,\"profile\":\"%s\"", m->http_status,
           rsc_policy_name(m->policy), m->has_copy ? "true" : "false",
           m->profile == RSC_PROFILE_RFC ? "rfc" : "google");
    json_bytes_or_null("etag", &m->etag);
    json_bytes_or_null("last_modified", &m->last_modified);
    printf(",\"source_bytes\":%" PRIu64 ",\"source_hash\":\"%016" PRIx64 "\",\"format\":%u,"
           "\"blob_bytes\":%zu,\"record_bytes\":%zu}\n",
           m->source_size, m->source_hash, m->format, r->blob_len, r->record_len);
}

int cmd_get(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL}, *out = NULL, *val; /* DB ORIGIN_OR_URL */
    int json = 0;
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts("usage: robotsc store get DB ORIGIN_OR_URL [-o OUT.rbc] [--json]\n"
                 "Prints the record of the origin (metadata) after verifying it; -o writes its blob.\n"
                 "--json: one JSON object: origin, source, fetched_at, expires (Unix seconds; null:\n"
                 "never), error_since (null: none), status, policy, has_copy, profile, etag and\n"
                 "last_modified (null when absent), source_bytes, source_hash (16 hex digits),\n"
                 "format, blob_bytes, record_bytes. Strings are UTF-8 (a byte that is not: \\ufffd).\n"
                 "Exit 0, 1 when there is no record, 2 on errors (a damaged record).");
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "-o", &val)) != 0) {
            if (r < 0)
                return rsc_cli_fail(CMD, "-o needs a value");
            out = val;
        } else if ((r = positional(argv[i], pos, 2)) != 0) {
            return r == 1 ? rsc_cli_fail(CMD, "get: one origin at a time") : r;
        }
    }
    const char *db = pos[0], *what = pos[1];
    if (!db || !what)
        return rsc_cli_fail(CMD, "usage: robotsc store get DB ORIGIN_OR_URL [-o OUT.rbc]");
    rsc_origin o;
    if (key_of(what, &o) != 0)
        return 2;
    rsc_store_txn *t;
    rsc_store *st = open_reader(db, &t);
    if (!st)
        return 2;
    int rc = 2;
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
        /* as compile -o: replaced in one step, links followed, devices written through */
        if (out && rsc_cli_write_atomic(out, r.blob, r.blob_len) != 0)
            rc = rsc_cli_fail(CMD, "%s: %s", out, rsc_cli_write_error(errno));
    }
    rsc_store_end(t);
    rsc_store_close(st);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
        rc = rsc_cli_fail(CMD, "cannot write output");
    return rc;
}

int cmd_put(int argc, char **argv)
{
    const char *pos[3] = {NULL, NULL, NULL}, *val, *etag = NULL, *lm = NULL; /* DB ORIGIN_OR_URL FILE */
    int64_t now = (int64_t)time(NULL), ttl = -1; /* -1: no --ttl */
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
                 "--status: the HTTP status the body came with (100..599): 2xx compiles it, 4xx but\n"
                 "  429 allows all, 429 and 5xx disallow all (docs/CRAWLER.md).\n"
                 "--ttl: lifetime in seconds (0: never expires). Default: never for a definite\n"
                 "  answer (2xx, 4xx but 429); for 429 or 5xx, 15 minutes, the cache rules' retry\n"
                 "  (an error is retried, never stored for ever: --ttl 0 is refused for them).");
            return 0;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--profile", &val)) != 0) {
            int profile;
            if (r < 0)
                return rsc_cli_fail(CMD, "--profile needs a value");
            if (profile_of(val, &profile) != 0)
                return 2;
            co.profile = (rsc_profile)profile;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--status", &val)) != 0) {
            int64_t v;
            if (r < 0 || rsc_cli_i64(val, &v) != 0 || v < 100 || v > 599)
                return rsc_cli_fail(CMD, "--status: an HTTP status code, 100 to 599, not '%s'", r < 0 ? "" : val);
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
        } else if ((r = positional(argv[i], pos, 3)) != 0) {
            return r == 1 ? rsc_cli_fail(CMD, "put: one origin at a time") : r;
        }
    }
    const char *db = pos[0], *what = pos[1], *file = pos[2];
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
    /* A 5xx or 429 is a failed fetch: its disallow-all answer is retried
     * after the cache rules' retry_ttl (15 min), as fetch --store and
     * store build store it (rsc_cache_decide), never kept for ever. */
    rsc_cache_decision cd;
    rsc_cache_decide(NULL, &fo, NULL, 0, now, NULL, &cd);
    if (!pr.definite && ttl == 0) {
        rsc_cli_fail(CMD, "--status %d is a failed fetch, retried: --ttl 0 (never expire) is refused for it", status);
        goto end;
    }
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
    if (ttl > 0)
        m.expires = now + ttl;
    else if (!pr.definite)
        m.expires = cd.next.expires;
    else
        m.expires = RSC_STORE_NEVER;
    m.error_since = pr.definite ? 0 : cd.next.error_since; /* the 30 days of errors start here */
    m.lifetime = ttl > 0 ? ttl : 0; /* what a later 304 without Cache-Control renews */
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
    rsc_store *st = create_store(db, 0, 0);
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

int cmd_del(int argc, char **argv)
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

int cmd_list(int argc, char **argv)
{
    list_ctx c = {0, 0, 0};
    const char *db = NULL;
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts("usage: robotsc store list DB [--verify]\n"
                 "One line per record, in key order: origin, HTTP status, policy, expiry (Unix\n"
                 "seconds or never), blob bytes. Every record is verified; a damaged one prints\n"
                 "'ORIGIN<TAB>error: WHY'. --verify prints only the damaged ones and a count.\n"
                 "Exit 0, or 2 when some record is damaged.");
            return 0;
        } else if (strcmp(argv[i], "--verify") == 0) {
            c.quiet = 1;
        } else if ((r = positional(argv[i], &db, 1)) != 0) {
            return r == 1 ? rsc_cli_fail(CMD, "usage: robotsc store list DB [--verify]") : r;
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

int cmd_stat(int argc, char **argv)
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

int cmd_gc(int argc, char **argv)
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
        } else if ((r = positional(argv[i], &db, 1)) != 0) {
            return r == 1 ? rsc_cli_fail(CMD, "usage: robotsc store gc DB [--now T] [--grace SECONDS]") : r;
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
