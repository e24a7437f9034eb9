/* SPDX-License-Identifier: Apache-2.0 */
/* The store library: records round-trip, keys are validated, damaged and
 * stale values are errors (never verdicts), the map grows and reports
 * "full" past its limit, the program cache agrees with uncached checks,
 * and a reader process never sees a torn or half-replaced record while
 * another process writes. Blobs always come from rsc_compile(). */
#define _POSIX_C_SOURCE 200809L
#include <lmdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "robotsc/compiler.h"
#include "robotsc/crawl.h"
#include "robotsc/store.h"
#include "rt_builder.h"
#include "testutil.h"

#define CHECK TU_COUNT

static char dir[256];

static void path_of(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

static rsc_blob compile(const char *text)
{
    rsc_blob b = {NULL, 0};
    if (rsc_compile(text, strlen(text), NULL, &b) != RSC_OK) {
        fprintf(stderr, "cannot compile\n");
        exit(1);
    }
    return b;
}

static rsc_store_meta meta_for(const char *text, const char *src)
{
    rsc_store_meta m;
    memset(&m, 0, sizeof m);
    m.fetched_at = 1000;
    m.expires = 2000;
    m.http_status = 200;
    m.policy = RSC_POLICY_PARSE;
    m.has_copy = 1;
    m.source_size = strlen(text);
    m.source_hash = rsc_store_hash(text, strlen(text));
    m.source_url.ptr = src;
    m.source_url.len = strlen(src);
    return m;
}

static rsc_store *open_at(const char *name, size_t map, size_t max)
{
    char p[512];
    path_of(p, sizeof p, name);
    rsc_store_options o = {0};
    o.map_size = map;
    o.max_map = max;
    o.no_sync = 1;
    rsc_store *st = NULL;
    rsc_store_status s = rsc_store_open(p, &o, &st);
    if (s != RSC_STORE_OK) {
        fprintf(stderr, "open %s: %s %s\n", p, rsc_store_strerror(s), rsc_store_last_error(NULL));
        exit(1);
    }
    return st;
}

static int verdict(rsc_store_txn *t, rsc_store_cache *c, const char *agent, const char *url, int64_t now,
                   rsc_store_status *s)
{
    rsc_bytes a = {agent, strlen(agent)};
    int v = -1;
    *s = rsc_store_check(t, c, &a, 1, url, strlen(url), now, &v);
    return v;
}

static void test_roundtrip(void)
{
    rsc_store *st = open_at("a.db", 0, 0);
    const char *text = "User-agent: *\nDisallow: /private\n\nUser-agent: FooBot\nDisallow: /\n";
    rsc_blob b = compile(text);
    rsc_store_meta m = meta_for(text, "https://example.com/robots.txt");
    m.etag.ptr = "\"v1\"";
    m.etag.len = 4;
    m.last_modified.ptr = "Tue, 01 Jan 2030 00:00:00 GMT";
    m.last_modified.len = strlen(m.last_modified.ptr);
    m.error_since = 1500;
    CHECK(rsc_store_put(st, "https://example.com", 19, &m, b.data, b.size) == RSC_STORE_OK, "put");

    /* Keys that are not canonical origin keys are rejected. */
    const char *bad[] = {"example.com", "https://Example.com", "https://example.com/", "https://example.com:443",
                         "http://exa mple.com", "mailto:x@example.com", "", "https://example.com/robots.txt"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(!rsc_store_key_valid(bad[i], strlen(bad[i])), "valid: %s", bad[i]);
        CHECK(rsc_store_put(st, bad[i], strlen(bad[i]), &m, b.data, b.size) == RSC_STORE_E_KEY, "put %s", bad[i]);
    }
    CHECK(rsc_store_key_valid("http://[::1]:8080", 17), "ipv6 key");
    /* Not a blob: refused before anything is written. */
    /* robots.txt text is not a blob: its own status, whose text says how
     * to compile it (not "damaged blob") */
    CHECK(rsc_store_put(st, "https://x.org", 13, &m, "User-agent: *\n", 14) == RSC_STORE_E_NOTBLOB, "raw text");
    CHECK(strstr(rsc_store_strerror(RSC_STORE_E_NOTBLOB), "not a blob") &&
              strstr(rsc_store_strerror(RSC_STORE_E_NOTBLOB), "compile") &&
              !strstr(rsc_store_strerror(RSC_STORE_E_NOTBLOB), "damaged"),
          "text's message: %s", rsc_store_strerror(RSC_STORE_E_NOTBLOB));
    CHECK(strstr(rsc_store_last_error(st), "robots.txt text") != NULL, "detail: %s", rsc_store_last_error(st));
    CHECK(rsc_store_put(st, "https://x.org", 13, &m, "\x1f\x8b\x08\x00\x00\x00\x00\x00", 8) ==
              RSC_STORE_E_NOTBLOB, "gzip bytes");
    /* One bad item fails the whole batch. */
    rsc_store_item items[2] = {{"https://one.org", 15, &m, b.data, b.size, 0}, {"one.org", 7, &m, b.data, b.size, 0}};
    size_t badi = 99;
    CHECK(rsc_store_put_many(st, items, 2, &badi) == RSC_STORE_E_KEY && badi == 1, "batch key");

    rsc_store_txn *t;
    CHECK(rsc_store_begin(st, &t) == RSC_STORE_OK, "begin");
    rsc_store_record r;
    rsc_program p;
    CHECK(rsc_store_get(t, "https://example.com", 19, &r, &p, NULL) == RSC_STORE_OK, "get");
    CHECK(r.blob_len == b.size && memcmp(r.blob, b.data, b.size) == 0, "blob bytes");
    /* Format_Major: byte 4 of a format 4 blob (after the 4-byte magic) */
    CHECK(r.meta.format == b.data[4] && r.meta.format == RSC_FORMAT_MAJOR, "format %u", r.meta.format);
    CHECK(r.meta.fetched_at == 1000 && r.meta.expires == 2000 && r.meta.error_since == 1500, "times");
    CHECK(r.meta.http_status == 200 && r.meta.has_copy == 1 && r.meta.policy == RSC_POLICY_PARSE, "status");
    CHECK(r.meta.source_size == strlen(text) && r.meta.source_hash == rsc_store_hash(text, strlen(text)), "src");
    CHECK(r.meta.etag.len == 4 && memcmp(r.meta.etag.ptr, "\"v1\"", 4) == 0, "etag");
    CHECK(r.meta.source_url.len == 30 && memcmp(r.meta.source_url.ptr, "https://example.com/robots.txt", 30) == 0,
          "url");
    CHECK(rsc_store_get(t, "https://one.org", 15, &r, &p, NULL) == RSC_STORE_NOTFOUND, "batch not written");
    CHECK(rsc_store_get(t, "http://example.com", 18, &r, &p, NULL) == RSC_STORE_NOTFOUND, "other scheme");

    rsc_store_status s;
    CHECK(verdict(t, NULL, "Bot", "https://example.com/private/x", 0, &s) == RSC_STORE_DISALLOW && s == 0, "v1");
    CHECK(verdict(t, NULL, "Bot", "https://EXAMPLE.com:443/public", 0, &s) == RSC_STORE_ALLOW && s == 0, "v2");
    CHECK(verdict(t, NULL, "FooBot", "https://example.com/public", 0, &s) == RSC_STORE_DISALLOW && s == 0, "v3");
    verdict(t, NULL, "Bot", "https://example.com/", 1999, &s);
    CHECK(s == RSC_STORE_OK, "fresh");
    verdict(t, NULL, "Bot", "https://example.com/", 2000, &s);
    CHECK(s == RSC_STORE_NOTFOUND, "expired");
    verdict(t, NULL, "Bot", "http://example.com/", 0, &s);
    CHECK(s == RSC_STORE_NOTFOUND, "missing origin");
    verdict(t, NULL, "Bot", "/relative", 0, &s);
    CHECK(s == RSC_STORE_E_KEY, "no origin");
    rsc_store_end(t);

    /* touch: a 304 refreshes the expiry, the blob stays. */
    CHECK(rsc_store_touch(st, "https://example.com", 19, 5000, 0) == RSC_STORE_OK, "touch");
    CHECK(rsc_store_touch(st, "https://none.example", 20, 5000, 0) == RSC_STORE_NOTFOUND, "touch missing");
    CHECK(rsc_store_begin(st, &t) == RSC_STORE_OK, "begin");
    CHECK(rsc_store_get(t, "https://example.com", 19, &r, &p, NULL) == RSC_STORE_OK, "get after touch");
    CHECK(r.meta.expires == 5000 && r.meta.error_since == 0 && r.meta.fetched_at == 1000, "touched");
    CHECK(r.blob_len == b.size && memcmp(r.blob, b.data, b.size) == 0, "blob kept");
    rsc_store_end(t);

    /* gc and del. */
    rsc_store_meta m2 = meta_for(text, "x");
    m2.expires = 100;
    CHECK(rsc_store_put(st, "https://old.example", 19, &m2, b.data, b.size) == RSC_STORE_OK, "put old");
    size_t removed = 0;
    CHECK(rsc_store_gc(st, 1000, &removed) == RSC_STORE_OK && removed == 1, "gc %zu", removed);
    rsc_store_stats ss;
    CHECK(rsc_store_stat(st, &ss) == RSC_STORE_OK && ss.records == 1, "stat %zu", ss.records);
    CHECK(rsc_store_del(st, "https://example.com", 19) == RSC_STORE_OK, "del");
    CHECK(rsc_store_del(st, "https://example.com", 19) == RSC_STORE_NOTFOUND, "del twice");
    CHECK(rsc_store_stat(st, &ss) == RSC_STORE_OK && ss.records == 0, "empty");
    rsc_blob_free(&b, NULL);
    rsc_store_close(st);

    /* Read-only handles cannot write. */
    char pth[512];
    path_of(pth, sizeof pth, "a.db");
    rsc_store_options ro = {0};
    ro.readonly = 1;
    CHECK(rsc_store_open(pth, &ro, &st) == RSC_STORE_OK, "open ro");
    b = compile("User-agent: *\nDisallow: /\n");
    CHECK(rsc_store_put(st, "https://example.com", 19, &m, b.data, b.size) != RSC_STORE_OK, "ro put");
    rsc_store_close(st);
    rsc_blob_free(&b, NULL);
    path_of(pth, sizeof pth, "missing/none.db");
    CHECK(rsc_store_open(pth, NULL, &st) == RSC_STORE_E_IO && st == NULL, "open missing dir");
    CHECK(rsc_store_last_error(NULL)[0] != 0, "open error text");
}

/* Values damaged behind the library's back (raw LMDB writes): every one
 * is an error for its origin, never a verdict. */
static void test_damage(void)
{
    rsc_store *st = open_at("d.db", 0, 0);
    const char *text = "User-agent: *\nDisallow: /private\nAllow: /\n";
    rsc_blob b = compile(text);
    rsc_store_meta m = meta_for(text, "https://d.example/robots.txt");
    m.expires = RSC_STORE_NEVER;
    CHECK(rsc_store_put(st, "https://d.example", 17, &m, b.data, b.size) == RSC_STORE_OK, "put");
    rsc_store_txn *t;
    rsc_store_begin(st, &t);
    rsc_store_record r;
    CHECK(rsc_store_get(t, "https://d.example", 17, &r, NULL, NULL) == RSC_STORE_OK, "get");
    size_t n = r.record_len;
    unsigned char *orig = malloc(n);
    memcpy(orig, r.blob + r.blob_len - n, n);
    rsc_store_end(t);
    rsc_store_close(st);

    char p[512];
    path_of(p, sizeof p, "d.db");
    MDB_env *env;
    mdb_env_create(&env);
    CHECK(mdb_env_open(env, p, MDB_NOSUBDIR, 0644) == 0, "raw open");
    size_t damaged = 0, allowed = 0, total = 0;
    unsigned char *v = malloc(n);
    /* Every byte flipped, every truncation (a sample of each for speed). */
    for (size_t i = 0; i < n * 2; i += (i < 200 ? 1 : 7)) {
        memcpy(v, orig, n);
        size_t len = n;
        if (i < n)
            v[i] ^= 0x41;
        else
            len = i - n;
        MDB_txn *txn;
        MDB_dbi dbi;
        mdb_txn_begin(env, NULL, 0, &txn);
        mdb_dbi_open(txn, NULL, 0, &dbi);
        MDB_val k = {17, "https://d.example"}, val = {len, v};
        mdb_put(txn, dbi, &k, &val, 0);
        mdb_txn_commit(txn);

        st = open_at("d.db", 0, 0);
        rsc_store_begin(st, &t);
        rsc_program prog;
        rsc_store_status s = rsc_store_get(t, "https://d.example", 17, &r, &prog, NULL);
        rsc_store_status s2;
        int vd = verdict(t, NULL, "Bot", "https://d.example/private/x", 0, &s2);
        rsc_store_cache *c = rsc_store_cache_new(16, 0);
        rsc_store_status s3;
        int vc = verdict(t, c, "Bot", "https://d.example/private/x", 0, &s3);
        rsc_store_cache_free(c);
        total++;
        if (s != RSC_STORE_OK) {
            damaged++;
            CHECK(s == RSC_STORE_E_DAMAGED || s == RSC_STORE_E_BLOB || s == RSC_STORE_E_STALE, "status %d", s);
            CHECK(s2 == s && s3 == s, "check status %d %d %d at %zu", s, s2, s3, i);
        } else {
            /* A flip the checks cannot see must still give the verdict of
             * the file: none happen in the metadata or blob. */
            CHECK(vd == RSC_STORE_DISALLOW && vc == RSC_STORE_DISALLOW, "undetected change at %zu", i);
        }
        if ((s2 == RSC_STORE_OK && vd == RSC_STORE_ALLOW) || (s3 == RSC_STORE_OK && vc == RSC_STORE_ALLOW))
            allowed++;
        rsc_store_end(t);
        rsc_store_close(st);
    }
    CHECK(allowed == 0, "%zu damaged values gave allow", allowed);
    CHECK(damaged == total, "%zu of %zu damaged values detected", damaged, total);
    mdb_env_close(env);
    free(v);
    free(orig);
    rsc_blob_free(&b, NULL);
}

/* A record of another blob format version: the checksum is right (the
 * layout of docs/CRAWLER.md recomputed here) but the format byte is not
 * this runtime's. */
static uint64_t fnv(uint64_t h, const void *d, size_t n)
{
    const unsigned char *p = d;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return h;
}

/* other_blob: the record says this major, but its blob's Format_Major (byte
 * 4) is another one (3: a blob this runtime rejects): stale too, so a build
 * compiles it again. */
static void test_stale(const char *db, int other_blob)
{
    rsc_store *st = open_at(db, 0, 0);
    const char *text = "User-agent: *\nDisallow: /\n";
    rsc_blob b = compile(text);
    rsc_store_meta m = meta_for(text, "u");
    m.expires = RSC_STORE_NEVER;
    CHECK(rsc_store_put(st, "https://s.example", 17, &m, b.data, b.size) == RSC_STORE_OK, "put");
    rsc_store_txn *t;
    rsc_store_begin(st, &t);
    rsc_store_record r;
    rsc_store_get(t, "https://s.example", 17, &r, NULL, NULL);
    size_t n = r.record_len;
    unsigned char *v = malloc(n);
    memcpy(v, r.blob + r.blob_len - n, n);
    rsc_store_end(t);
    rsc_store_close(st);
    size_t strings = (size_t)(v[10] | v[11] << 8) + (size_t)(v[12] | v[13] << 8) + (size_t)(v[14] | v[15] << 8);
    if (other_blob)
        v[(80 + strings + 7) / 8 * 8 + 4] = (unsigned char)(RSC_FORMAT_MAJOR - 1); /* the blob's Format_Major */
    else
        v[5] = (unsigned char)(RSC_FORMAT_MAJOR + 1);
    uint64_t h = fnv(14695981039346656037u, "https://s.example", 17);
    h = fnv(h, v, 72);
    h = fnv(h, v + 80, strings);
    for (int i = 0; i < 8; i++)
        v[72 + i] = (unsigned char)(h >> (8 * i));
    char p[512];
    path_of(p, sizeof p, db);
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    mdb_env_create(&env);
    mdb_env_open(env, p, MDB_NOSUBDIR, 0644);
    mdb_txn_begin(env, NULL, 0, &txn);
    mdb_dbi_open(txn, NULL, 0, &dbi);
    MDB_val k = {17, "https://s.example"}, val = {n, v};
    mdb_put(txn, dbi, &k, &val, 0);
    mdb_txn_commit(txn);
    mdb_env_close(env);
    st = open_at(db, 0, 0);
    rsc_store_begin(st, &t);
    rsc_program prog;
    CHECK(rsc_store_get(t, "https://s.example", 17, &r, &prog, NULL) == RSC_STORE_E_STALE, "stale");
    rsc_store_status s;
    verdict(t, NULL, "Bot", "https://s.example/", 0, &s);
    CHECK(s == RSC_STORE_E_STALE, "stale check");
    rsc_store_end(t);
    rsc_store_close(st);
    free(v);
    rsc_blob_free(&b, NULL);
}

/* The map grows from a tiny size; past max_map a put fails cleanly and
 * what was committed stays readable. */
/* A version 1 record (before 1.0: no lifetime, checksum at 64, strings at
 * 72; docs/CRAWLER.md) made from a version 2 one: still read (lifetime 0,
 * unknown), and rewritten as version 2 by a revalidation, which records the
 * lifetime; a touch then keeps it. */
static void test_record_v1(void)
{
    rsc_store *st = open_at("v1.db", 0, 0);
    const char *text = "User-agent: *\nDisallow: /private\n";
    rsc_blob b = compile(text);
    rsc_store_meta m = meta_for(text, "https://v.example/robots.txt");
    m.lifetime = 1000;
    m.etag.ptr = "\"e\"";
    m.etag.len = 3;
    CHECK(rsc_store_put(st, "https://v.example", 17, &m, b.data, b.size) == RSC_STORE_OK, "put");
    rsc_store_txn *t;
    rsc_store_record r;
    rsc_store_begin(st, &t);
    CHECK(rsc_store_get(t, "https://v.example", 17, &r, NULL, NULL) == RSC_STORE_OK, "get v2");
    CHECK(r.meta.lifetime == 1000 && r.meta.expires == 2000, "v2 lifetime %lld", (long long)r.meta.lifetime);
    size_t n = r.record_len;
    unsigned char *v2 = malloc(n), *v1 = malloc(n);
    memcpy(v2, r.blob + r.blob_len - n, n);
    rsc_store_end(t);
    rsc_store_close(st);
    CHECK(v2[4] == 2, "record version 2");
    size_t strings = (size_t)(v2[10] | v2[11] << 8) + (size_t)(v2[12] | v2[13] << 8) + (size_t)(v2[14] | v2[15] << 8);
    size_t off2 = (80 + strings + 7) / 8 * 8, off1 = (72 + strings + 7) / 8 * 8, blen = n - off2;
    memset(v1, 0, n);
    memcpy(v1, v2, 64);
    v1[4] = 1;
    memcpy(v1 + 72, v2 + 80, strings);
    memcpy(v1 + off1, v2 + off2, blen);
    size_t n1 = off1 + blen;
    uint64_t h = fnv(14695981039346656037u, "https://v.example", 17);
    h = fnv(h, v1, 64);
    h = fnv(h, v1 + 72, strings);
    for (int i = 0; i < 8; i++)
        v1[64 + i] = (unsigned char)(h >> (8 * i));
    char p[512];
    path_of(p, sizeof p, "v1.db");
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    mdb_env_create(&env);
    mdb_env_open(env, p, MDB_NOSUBDIR, 0644);
    mdb_txn_begin(env, NULL, 0, &txn);
    mdb_dbi_open(txn, NULL, 0, &dbi);
    MDB_val k = {17, "https://v.example"}, val = {n1, v1};
    mdb_put(txn, dbi, &k, &val, 0);
    mdb_txn_commit(txn);
    mdb_env_close(env);

    st = open_at("v1.db", 0, 0);
    rsc_store_begin(st, &t);
    rsc_program prog;
    CHECK(rsc_store_get(t, "https://v.example", 17, &r, &prog, NULL) == RSC_STORE_OK, "get v1");
    CHECK(r.record_len == n1 && r.meta.lifetime == 0 && r.meta.fetched_at == 1000 && r.meta.expires == 2000 &&
              r.meta.etag.len == 3 && memcmp(r.meta.etag.ptr, "\"e\"", 3) == 0 && r.blob_len == blen,
          "v1 fields");
    rsc_store_status s;
    CHECK(verdict(t, NULL, "Bot", "https://v.example/private/x", 0, &s) == RSC_STORE_DISALLOW && s == RSC_STORE_OK,
          "v1 verdict");
    rsc_store_end(t);
    CHECK(rsc_store_revalidate(st, "https://v.example", 17, 5000, 700) == RSC_STORE_OK, "revalidate v1");
    CHECK(rsc_store_revalidate(st, "https://v.example", 17, 5000, -1) == RSC_STORE_E_ARG, "negative lifetime");
    rsc_store_begin(st, &t);
    CHECK(rsc_store_get(t, "https://v.example", 17, &r, &prog, NULL) == RSC_STORE_OK, "get revalidated");
    CHECK(r.record_len == n && (r.blob + r.blob_len - n)[4] == 2 && r.meta.lifetime == 700 && r.meta.expires == 5000 &&
              r.meta.fetched_at == 1000 && r.meta.error_since == 0 && memcmp(r.blob, v2 + off2, blen) == 0,
          "revalidated: version 2, lifetime, same blob");
    rsc_store_end(t);
    CHECK(rsc_store_touch(st, "https://v.example", 17, 6000, 5500) == RSC_STORE_OK, "touch");
    rsc_store_begin(st, &t);
    CHECK(rsc_store_get(t, "https://v.example", 17, &r, NULL, NULL) == RSC_STORE_OK, "get touched");
    CHECK(r.meta.lifetime == 700 && r.meta.expires == 6000 && r.meta.error_since == 5500, "touch keeps the lifetime");
    rsc_store_end(t);
    rsc_store_close(st);
    free(v1);
    free(v2);
    rsc_blob_free(&b, NULL);
}

static void test_map_full(void)
{
    rsc_store *st = open_at("m.db", 64 * 1024, 4 << 20);
    char text[6000];
    size_t k = 0;
    rsc_store_status s = RSC_STORE_OK;
    size_t committed = 0;
    for (k = 0; k < 100000 && s == RSC_STORE_OK; k++) {
        int o = snprintf(text, sizeof text, "User-agent: *\n");
        for (int j = 0; j < 200; j++)
            o += snprintf(text + o, sizeof text - (size_t)o, "Disallow: /%zu/%d\n", k, j);
        rsc_blob b = compile(text);
        rsc_store_meta m = meta_for(text, "u");
        char key[64];
        int kl = snprintf(key, sizeof key, "https://h%zu.example", k);
        s = rsc_store_put(st, key, (size_t)kl, &m, b.data, b.size);
        if (s == RSC_STORE_OK)
            committed++;
        rsc_blob_free(&b, NULL);
    }
    CHECK(s == RSC_STORE_E_FULL, "full: %s", rsc_store_strerror(s));
    CHECK(strstr(rsc_store_last_error(st), "limit") != NULL, "message: %s", rsc_store_last_error(st));
    CHECK(committed > 100, "grew past the initial map: %zu records", committed);
    rsc_store_stats ss;
    CHECK(rsc_store_stat(st, &ss) == RSC_STORE_OK && ss.records == committed && ss.map_size > 64 * 1024,
          "stat %zu %zu", ss.records, ss.map_size);
    rsc_store_txn *t;
    rsc_store_begin(st, &t);
    rsc_store_record r;
    rsc_program p;
    CHECK(rsc_store_get(t, "https://h0.example", 18, &r, &p, NULL) == RSC_STORE_OK, "first kept");
    rsc_store_end(t);
    rsc_store_close(st);
}

/* Cached and uncached checks agree over many origins and URLs; a cache
 * entry is re-read once max_age has passed. */
static void test_cache(void)
{
    rsc_store *st = open_at("c.db", 0, 0);
    enum { N = 200 };
    for (int i = 0; i < N; i++) {
        char text[200], key[64];
        snprintf(text, sizeof text, "User-agent: *\nDisallow: /d%d\nAllow: /d%d/ok\n\nUser-agent: B%d\nDisallow: /\n",
                 i % 7, i % 7, i % 5);
        rsc_blob b = compile(text);
        rsc_store_meta m = meta_for(text, "u");
        m.expires = RSC_STORE_NEVER;
        int kl = snprintf(key, sizeof key, "http://h%d.example", i);
        rsc_store_put(st, key, (size_t)kl, &m, b.data, b.size);
        rsc_blob_free(&b, NULL);
    }
    rsc_store_txn *t;
    rsc_store_begin(st, &t);
    rsc_store_cache *c = rsc_store_cache_new(64, 100);
    size_t same = 0, n = 0;
    unsigned seed = 7;
    for (int i = 0; i < 20000; i++) {
        seed = seed * 1103515245u + 12345u;
        char url[128];
        int h = (int)(seed >> 8) % (N + 20); /* some origins are missing */
        snprintf(url, sizeof url, "http://h%d.example/d%u%s", h, (seed >> 4) % 8, (seed & 1) ? "/ok" : "/x");
        const char *agent = (seed & 0x100) ? "B1" : "Other";
        rsc_store_status s1, s2;
        int v1 = verdict(t, NULL, agent, url, 10, &s1);
        /* the cache is per agent set: one cache per agent here */
        (void)agent;
        int v2 = verdict(t, c, "Other", url, 10, &s2);
        int v3 = verdict(t, NULL, "Other", url, 10, &s1);
        n++;
        same += s1 == s2 && (s1 != RSC_STORE_OK || v2 == v3);
        (void)v1;
    }
    CHECK(same == n, "cache agrees %zu/%zu", same, n);
    /* A replaced record is seen once the entry is older than max_age. */
    const char *text = "User-agent: *\nDisallow: /\n";
    rsc_blob b = compile(text);
    rsc_store_meta m = meta_for(text, "u");
    m.expires = RSC_STORE_NEVER;
    rsc_store_status s;
    CHECK(verdict(t, c, "Other", "http://h3.example/a", 10, &s) == RSC_STORE_ALLOW, "before");
    rsc_store_end(t);
    CHECK(rsc_store_put(st, "http://h3.example", 17, &m, b.data, b.size) == RSC_STORE_OK, "replace");
    rsc_store_begin(st, &t);
    CHECK(verdict(t, c, "Other", "http://h3.example/a", 50, &s) == RSC_STORE_ALLOW, "cached within max_age");
    CHECK(verdict(t, c, "Other", "http://h3.example/a", 200, &s) == RSC_STORE_DISALLOW, "re-read after max_age");
    CHECK(verdict(t, NULL, "Other", "http://h3.example/a", 200, &s) == RSC_STORE_DISALLOW, "uncached");
    rsc_store_end(t);
    /* One origin checked 1,000 times: the entry's selection runs the blob's
     * DFA (format 5) from the first check to the last (the cache builds
     * nothing more as the checks add up); every verdict equals the
     * uncached one. */
    const char *wild = "User-agent: *\nDisallow: /*.pdf$\nAllow: /*/public/*\nDisallow: /a*b\n";
    rsc_blob bw = compile(wild);
    rsc_store_meta mw = meta_for(wild, "u");
    mw.expires = RSC_STORE_NEVER;
    CHECK(rsc_store_put(st, "http://w.example", 16, &mw, bw.data, bw.size) == RSC_STORE_OK, "put w");
    rsc_store_begin(st, &t);
    static const char *const tails[] = {"/x.pdf", "/x.pdf?", "/q/public/x.pdf", "/ab", "/a/b", "/b", "/k"};
    size_t agree = 0, disallowed = 0;
    for (int i = 0; i < 1000; i++) {
        char url[96];
        snprintf(url, sizeof url, "http://w.example%s%s", i % 3 ? "" : "/z", tails[i % 7]);
        rsc_store_status s1, s2;
        int vc = verdict(t, c, "Other", url, 10, &s1), vu = verdict(t, NULL, "Other", url, 10, &s2);
        agree += s1 == RSC_STORE_OK && s2 == RSC_STORE_OK && vc == vu;
        disallowed += vu == RSC_STORE_DISALLOW;
    }
    CHECK(agree == 1000 && disallowed > 250, "one origin 1,000 times: %zu agree, %zu disallowed", agree,
          disallowed);
    rsc_store_end(t);
    rsc_blob_free(&bw, NULL);
    /* And 5,000 times an origin of 60 two-star rules, whose rule set may be
     * over the compiler's DFA budget (then the programs answer); every
     * verdict equals the uncached one. */
    char pbody[4096];
    size_t pl = (size_t)snprintf(pbody, sizeof pbody, "User-agent: *\n");
    for (int i = 1; i <= 60; i++)
        pl += (size_t)snprintf(pbody + pl, sizeof pbody - pl, "Disallow: /*%d*x%d\n", i, i * 7);
    rsc_blob bp = compile(pbody);
    rsc_store_meta mp = meta_for(pbody, "u");
    mp.expires = RSC_STORE_NEVER;
    CHECK(rsc_store_put(st, "http://p.example", 16, &mp, bp.data, bp.size) == RSC_STORE_OK, "put p");
    rsc_store_begin(st, &t);
    agree = disallowed = 0;
    for (int i = 0; i < 5000; i++) {
        char url[96];
        snprintf(url, sizeof url, "http://p.example/%d/x%d%s", i % 61, (i % 61) * 7 + (i % 3 == 0),
                 i % 2 ? "/y" : "");
        rsc_store_status s1, s2;
        int vc = verdict(t, c, "Other", url, 10, &s1), vu = verdict(t, NULL, "Other", url, 10, &s2);
        agree += s1 == RSC_STORE_OK && s2 == RSC_STORE_OK && vc == vu;
        disallowed += vu == RSC_STORE_DISALLOW;
    }
    CHECK(agree == 5000 && disallowed > 1000 && disallowed < 4000,
          "a partial DFA's origin 5,000 times: %zu agree, %zu disallowed", agree, disallowed);
    rsc_store_end(t);
    rsc_blob_free(&bp, NULL);
    rsc_store_cache_free(c);
    rsc_blob_free(&b, NULL);
    rsc_store_close(st);
}

/* A writer process replaces a set of records again and again, all in one
 * transaction per round (version v: "Disallow: /v<v>", source "v<v>"),
 * starting from a tiny map so that it grows meanwhile. The reader checks
 * that every record verifies, its metadata and blob belong together, and
 * that all records of one snapshot have the same version. */
enum { KEYS = 40, ROUNDS = 300 };

static void writer_proc(void)
{
    rsc_store *st = open_at("w.db", 32 * 1024, 0);
    for (int v = 1; v <= ROUNDS; v++) {
        rsc_store_item items[KEYS];
        rsc_store_meta metas[KEYS];
        rsc_blob blobs[KEYS];
        char texts[KEYS][4200], srcs[KEYS][32], keys[KEYS][64];
        for (int i = 0; i < KEYS; i++) {
            int o = snprintf(texts[i], sizeof texts[i], "User-agent: *\nDisallow: /v%d\n", v);
            for (int j = 0; j < (v % 50) * 3; j++) /* sizes vary: values move */
                o += snprintf(texts[i] + o, sizeof texts[i] - (size_t)o, "Disallow: /pad%d/%d\n", j, v);
            blobs[i] = compile(texts[i]);
            snprintf(srcs[i], sizeof srcs[i], "v%d", v);
            metas[i] = meta_for(texts[i], srcs[i]);
            metas[i].fetched_at = v;
            int kl = snprintf(keys[i], sizeof keys[i], "https://k%d.example", i);
            items[i] = (rsc_store_item){keys[i], (size_t)kl, &metas[i], blobs[i].data, blobs[i].size, i & 1};
        }
        if (rsc_store_put_many(st, items, KEYS, NULL) != RSC_STORE_OK)
            _exit(3);
        for (int i = 0; i < KEYS; i++)
            rsc_blob_free(&blobs[i], NULL);
    }
    rsc_store_close(st);
    _exit(0);
}

/* One cache, several crawlers: the cache answers each call for its own
 * agents, never with the selection of the agents that filled it (a silent
 * allow for a crawler the file disallows). */
static void test_cache_agents(void)
{
    rsc_store *st = open_at("ca.db", 0, 0);
    const char *text = "User-agent: *\nDisallow: /\n\nUser-agent: GoodBot\nAllow: /\nDisallow: /private\n";
    rsc_blob b = compile(text);
    rsc_store_meta m = meta_for(text, "u");
    m.expires = RSC_STORE_NEVER;
    CHECK(rsc_store_put(st, "https://a.example", 17, &m, b.data, b.size) == RSC_STORE_OK, "put");
    rsc_blob_free(&b, NULL);
    rsc_store_txn *t;
    CHECK(rsc_store_begin(st, &t) == RSC_STORE_OK, "begin");
    rsc_store_cache *c = rsc_store_cache_new(16, 0);
    rsc_store_status s;
    static const char *const agents[] = {"GoodBot", "BadBot", "goodbot", "BadBot", "GoodBot"};
    int wrong = 0;
    /* 40 rounds, so that the entry also reaches its hit thresholds */
    for (int round = 0; round < 40; round++)
        for (size_t i = 0; i < sizeof agents / sizeof agents[0]; i++) {
            const char *urls[] = {"https://a.example/page", "https://a.example/private/x"};
            for (int u = 0; u < 2; u++) {
                rsc_store_status s1, s2;
                int vc = verdict(t, c, agents[i], urls[u], 0, &s1);
                int vu = verdict(t, NULL, agents[i], urls[u], 0, &s2);
                wrong += s1 != RSC_STORE_OK || s2 != RSC_STORE_OK || vc != vu;
            }
        }
    CHECK(wrong == 0, "%d cached verdicts were another agent's", wrong);
    CHECK(verdict(t, c, "GoodBot", "https://a.example/page", 0, &s) == RSC_STORE_ALLOW && s == 0, "good");
    CHECK(verdict(t, c, "BadBot", "https://a.example/page", 0, &s) == RSC_STORE_DISALLOW && s == 0, "bad");
    /* several names at once (spec F.7) against one of them */
    rsc_bytes two[2] = {{"BadBot", 6}, {"GoodBot", 7}};
    int v = -1;
    s = rsc_store_check(t, c, two, 2, "https://a.example/page", 22, 0, &v);
    CHECK(s == RSC_STORE_OK && v == RSC_STORE_ALLOW, "two names: %d %d", s, v);
    s = rsc_store_check(t, c, two, 1, "https://a.example/page", 22, 0, &v);
    CHECK(s == RSC_STORE_OK && v == RSC_STORE_DISALLOW, "first name only: %d %d", s, v);
    rsc_store_cache_free(c);
    rsc_store_end(t);
    rsc_store_close(st);
}

static void test_concurrent(void)
{
    /* The file exists before the reader opens it. */
    rsc_store *st = open_at("w.db", 32 * 1024, 0);
    rsc_store_close(st);
    pid_t pid = fork();
    if (pid == 0)
        writer_proc();
    st = open_at("w.db", 0, 0);
    size_t snapshots = 0, records = 0, torn = 0, mixed = 0, errors = 0;
    int last_v = 0, done = 0;
    rsc_store_txn *t = NULL;
    CHECK(rsc_store_begin(st, &t) == RSC_STORE_OK, "begin");
    while (!done) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            done = 1;
            CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "writer exit %d", status);
        }
        if (rsc_store_renew(t) != RSC_STORE_OK) {
            errors++;
            break;
        }
        int v0 = -1;
        for (int i = 0; i < KEYS; i++) {
            char key[64], path[32];
            int kl = snprintf(key, sizeof key, "https://k%d.example", i);
            rsc_store_record r;
            rsc_program p;
            rsc_store_status s = rsc_store_get(t, key, (size_t)kl, &r, &p, NULL);
            if (s == RSC_STORE_NOTFOUND)
                continue;
            records++;
            if (s != RSC_STORE_OK) {
                errors++;
                continue;
            }
            int v = (int)r.meta.fetched_at;
            char src[32];
            snprintf(src, sizeof src, "v%d", v);
            if (r.meta.source_url.len != strlen(src) || memcmp(r.meta.source_url.ptr, src, strlen(src)) != 0)
                torn++;
            /* the blob is the one of version v: /v<v> disallowed, /v<v-1> not */
            rsc_bytes a = {"Bot", 3};
            rsc_selection sel;
            rsc_select(&p, &a, 1, &sel);
            snprintf(path, sizeof path, "/v%d", v);
            int dis = !rsc_match_path(&sel, path, strlen(path), NULL);
            snprintf(path, sizeof path, "/v%d", v - 1);
            int other = !rsc_match_path(&sel, path, strlen(path), NULL);
            if (!dis || other)
                torn++;
            if (v0 < 0)
                v0 = v;
            else if (v != v0)
                mixed++;
        }
        if (v0 > 0) {
            snapshots++;
            CHECK(v0 >= last_v, "versions go forward %d %d", v0, last_v);
            last_v = v0;
        }
    }
    rsc_store_end(t);
    rsc_store_close(st);
    printf("reader: %zu snapshots, %zu records read, last version %d\n", snapshots, records, last_v);
    CHECK(errors == 0, "%zu read errors", errors);
    CHECK(torn == 0, "%zu torn records", torn);
    CHECK(mixed == 0, "%zu records from another round in one snapshot", mixed);
    CHECK(records > 0 && last_v == ROUNDS, "reader saw the writes (last %d)", last_v);
}

/* The fast origin key equals rsc_origin_parse()'s, status and key, on
 * hand-picked URLs and on random strings built from URL-ish pieces. */
static void key_same(const char *u, size_t n)
{
    rsc_origin o;
    char key[RSC_ORIGIN_MAX];
    size_t kl = 99;
    rsc_url_status a = rsc_origin_parse(u, n, &o);
    rsc_url_status b = rsc_store_origin_key(u, n, key, &kl);
    CHECK(a == b && (a != RSC_URL_OK || (kl == o.key_len && memcmp(key, o.key, kl) == 0)),
          "origin key of '%.*s': %d '%s' vs %d '%.*s'", (int)n, u, a, o.key, b, (int)kl, key);
}

static void test_origin_key(void)
{
    const char *fixed[] = {"https://www.example.com/a", "HTTPS://WWW.Example.COM", "http://example.com:80/",
                           "http://example.com:8080", "https://example.com:443?x", "https://example.com:0443#f",
                           "ftp://Example.com:21/pub", "http://example.com:", "http://example.com:/x",
                           "http://example.com:99999/", "http://example.com:0/", "http://example.com:00000/",
                           "http://user:pw@example.com/", "http://ex%41mple.com/", "http://[::1]:8080/",
                           " http://example.com/ ", "http://example.com\\x", "http://exa_mple.com/",
                           "http://a..b/", "http://./", "http://:80/", "http:///x", "mailto:a@b.c", "/rel",
                           "http://xn--exmple-cua.com/", "http://ex\xc3\xa4mple.com/", "http://1.2.3.4:81/x",
                           "https://example.com:443:1/", "http://ex!ample.com/", "https://a.b/?q=http://c.d/",
                           "HtTp://A.B", "http://a.b:65535", "http://a.b:65536", "gopher://a.b/"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        key_same(fixed[i], strlen(fixed[i]));
    static const char *pre[] = {"http://", "https://", "HTTPS://", "ftp://", "http:/", " http://", "htp://", ""};
    static const char *piece[] = {"a", "Z", "0", "9", ".", "-", "_", ":", "@", "%41", "%", "/", "?", "#",
                                  "[", "]", " ", "\t", "\xc3\xa4", "80", "443", "xn--", "!", "\\", "65536"};
    unsigned seed = 12345;
    char u[300];
    for (int i = 0; i < 200000; i++) {
        seed = seed * 1103515245u + 12345u;
        size_t n = (size_t)snprintf(u, sizeof u, "%s", pre[(seed >> 16) % 8]);
        int parts = 1 + (int)((seed >> 8) % 10);
        for (int k = 0; k < parts; k++) {
            seed = seed * 1103515245u + 12345u;
            const char *p = piece[(seed >> 16) % (sizeof piece / sizeof piece[0])];
            if (n + strlen(p) < sizeof u)
                n += (size_t)snprintf(u + n, sizeof u - n, "%s", p);
        }
        key_same(u, n);
    }
    memset(u, 'a', sizeof u);
    memcpy(u, "http://", 7);
    for (size_t n = 250; n < 270; n++) /* around RSC_HOST_MAX */
        key_same(u, n);
}

/* Fail closed (issue 26, item 2): every truncation, every bit flip and
 * every other Format_Major of a compiled blob is refused by put
 * (RSC_STORE_E_BLOB) and leaves no record; rsc_classify() never calls one
 * text. */
static void test_failclosed_put(void)
{
    rsc_store *st = open_at("fc.db", 0, 0);
    if (!st)
        return;
    rsc_blob b = compile("User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: a\nDisallow: /\n"
                         "Sitemap: https://e.com/s.xml\n");
    rsc_store_meta m = meta_for("x", "https://e.com/robots.txt");
    unsigned char *d = malloc(b.size);
    int bad = 0, cases = 0;
    for (size_t k = 1; k < b.size; k++, cases++)
        bad += rsc_classify(b.data, k) != RSC_INPUT_BLOB ||
               rsc_store_put(st, "https://e.com", 13, &m, b.data, k) != RSC_STORE_E_BLOB;
    for (size_t bit = 0; d && bit < b.size * 8; bit++, cases++) {
        memcpy(d, b.data, b.size);
        d[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        rsc_input_kind k = rsc_classify(d, b.size);
        bad += (k != RSC_INPUT_BLOB && k != RSC_INPUT_DAMAGED) ||
               rsc_store_put(st, "https://e.com", 13, &m, d, b.size) != RSC_STORE_E_BLOB;
    }
    for (unsigned v = 0; d && v < 256; v++, cases++) {
        memcpy(d, b.data, b.size);
        if (d[4] == v)
            continue;
        d[4] = (unsigned char)v;
        bad += rsc_classify(d, b.size) != RSC_INPUT_BLOB ||
               rsc_store_put(st, "https://e.com", 13, &m, d, b.size) != RSC_STORE_E_BLOB;
    }
    CHECK(bad == 0, "%d of %d damaged blobs not refused", bad, cases);
    /* Even an item that says it was verified: not a blob, not stored. */
    rsc_store_item it = {"https://e.com", 13, &m, "User-agent: *\nDisallow:\n", 24, 1};
    CHECK(rsc_store_put_many(st, &it, 1, NULL) == RSC_STORE_E_NOTBLOB, "text stored as verified");
    it.blob = "\x89RSB\x04\x00\x00\x00";
    it.blob_len = 8;
    CHECK(rsc_store_put_many(st, &it, 1, NULL) == RSC_STORE_E_BLOB, "damaged magic stored as verified");
    rsc_store_txn *t = NULL;
    rsc_store_record r;
    CHECK(rsc_store_begin(st, &t) == RSC_STORE_OK &&
              rsc_store_get(t, "https://e.com", 13, &r, NULL, NULL) == RSC_STORE_NOTFOUND,
          "a damaged blob was stored");
    rsc_store_end(t);
    free(d);
    rsc_blob_free(&b, NULL);
    rsc_store_close(st);
}

/* rsc_store_check loads with RSC_LOAD_DEFER: a blob whose '*' DFA is
 * damaged, its checksum made right (only verification can tell; stored as
 * verified), answers RSC_STORE_E_BLOB for a crawler that selects that set,
 * never a verdict, with and without a cache, while a crawler of the other
 * set ("a") gets its verdicts. */
static void test_deferred_check(void)
{
    rsc_store *st = open_at("defer.db", 0, 0);
    if (!st)
        return;
    const char *text = "User-agent: *\nDisallow: /private\nAllow: /private/ok*$\n\nUser-agent: a\nDisallow: /x*y\n";
    rsc_blob b = compile(text);
    uint8_t *d = malloc(b.size);
    rsc_program p;
    rsc_selection s;
    const rsc_bytes gb = {"Googlebot", 9}, a = {"a", 1};
    int found = 0;
    for (size_t i = 12; d && i < b.size && !found; i++) { /* the first such flip */
        memcpy(d, b.data, b.size);
        d[i] ^= 1;
        tb_fix_checksum(d, b.size);
        found = rsc_load(&p, d, b.size, NULL) == RSC_E_CORRUPT &&
                rsc_load_ex(&p, d, b.size, RSC_LOAD_DEFER, NULL) == RSC_OK &&
                rsc_select(&p, &gb, 1, &s) == RSC_E_CORRUPT && rsc_select(&p, &a, 1, &s) == RSC_OK;
    }
    CHECK(found, "no flip damages the '*' DFA alone");
    rsc_store_meta m = meta_for(text, "https://e.com/robots.txt");
    m.expires = RSC_STORE_NEVER;
    rsc_store_item it = {"https://e.com", 13, &m, d, b.size, 1};
    CHECK(found && rsc_store_put_many(st, &it, 1, NULL) == RSC_STORE_OK, "put as verified");
    rsc_store_txn *t = NULL;
    rsc_store_cache *c = rsc_store_cache_new(8, 100);
    CHECK(rsc_store_begin(st, &t) == RSC_STORE_OK && c, "begin, cache");
    for (int k = 0; k < 3 && t && c; k++) { /* uncached, a miss, a hit */
        rsc_store_cache *ck = k ? c : NULL;
        rsc_store_status s1, s2, s3;
        const int v1 = verdict(t, ck, "Googlebot", "https://e.com/private/x", 0, &s1);
        const int v2 = verdict(t, ck, "a", "https://e.com/x1y", 0, &s2);
        const int v3 = verdict(t, ck, "a", "https://e.com/private/x", 0, &s3);
        CHECK(s1 == RSC_STORE_E_BLOB && v1 == -1, "pass %d: Googlebot on a damaged DFA: status %d verdict %d", k, s1,
              v1);
        CHECK(s2 == RSC_STORE_OK && v2 == RSC_STORE_DISALLOW && s3 == RSC_STORE_OK && v3 == RSC_STORE_ALLOW,
              "pass %d: a: status %d verdict %d, status %d verdict %d", k, s2, v2, s3, v3);
    }
    rsc_store_end(t);
    rsc_store_cache_free(c);
    free(d);
    rsc_blob_free(&b, NULL);
    rsc_store_close(st);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/rsc_store_test.XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_origin_key();
    test_roundtrip();
    test_damage();
    test_failclosed_put();
    test_deferred_check();
    test_stale("s.db", 0);
    test_stale("s0.db", 1);
    test_record_v1();
    test_map_full();
    test_cache();
    test_cache_agents();
    test_concurrent();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
    return tu_report("store", tu_passed);
}
