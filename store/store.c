/* SPDX-License-Identifier: Apache-2.0 */
/* The store: origin key -> record (metadata + blob) in one LMDB file.
 *
 * Record layout (all integers little-endian; docs/CRAWLER.md):
 *
 *   0  4  magic "RSR1"         24 8  fetched_at
 *   4  1  record version (2)   32 8  expires
 *   5  1  blob Format_Major    40 8  error_since
 *   6  1  policy               48 8  source_size
 *   7  1  flags (1: has_copy)  56 8  source_hash
 *   8  1  profile              64 8  lifetime (seconds; 0: unknown)
 *   9  1  fetch_error          72 8  checksum: FNV-1a 64 of the key, bytes
 *  10  2  source_url length          [0, 72) and the strings
 *  12  2  etag length          80 .  source_url, etag, last_modified,
 *  14  2  last_modified length       zero padding to a multiple of 8,
 *  16  4  http_status                then the blob
 *  20  4  blob length
 *
 * Version 1 records (robotsc before 1.0) have no lifetime: their checksum
 * is at 64 and covers [0, 64), their strings start at 72. They are read
 * (lifetime 0) and rewritten as version 2 by the next put, touch or
 * revalidation.
 *
 * The checksum covers what the blob's own checksum does not: the metadata,
 * and the key, so that a record moved under another key is caught. The
 * blob is verified by rsc_load(). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/crawl.h"
#include "robotsc/store.h"

#define HDR 80   /* version 2 */
#define HDR_V1 72
#define MAGIC "RSR1"
#define REC_VERSION 2
#define MAX_URL 4096
#define MAX_ETAG 1024
#define MAX_LM 256
#define FORMAT_BYTE 4 /* offset of Format_Major in a blob (docs/FORMAT.md) */
#define DEFAULT_MAP ((size_t)64 << 20)
#define DEFAULT_MAX ((size_t)1 << 40)

struct rsc_store {
    MDB_env *env;
    MDB_dbi dbi;
    size_t max_map;
    int readonly;
    char err[160];
};

struct rsc_store_txn {
    rsc_store *st;
    MDB_txn *txn;
};

const char *rsc_store_strerror(int s)
{
    switch (s) {
    case RSC_STORE_OK: return "ok";
    case RSC_STORE_NOTFOUND: return "no record";
    case RSC_STORE_E_ARG: return "invalid argument";
    case RSC_STORE_E_KEY: return "not a canonical origin key";
    case RSC_STORE_E_DAMAGED: return "damaged record";
    case RSC_STORE_E_BLOB: return "damaged blob in record";
    case RSC_STORE_E_STALE: return "record of another blob format version";
    case RSC_STORE_E_FULL: return "store full (map size limit or disk full)";
    case RSC_STORE_E_IO: return "store I/O error";
    case RSC_STORE_E_NOMEM: return "out of memory";
    case RSC_STORE_E_TOOBIG: return "value too large";
    case RSC_STORE_E_NOTBLOB:
        return "not a blob (robots.txt text or other bytes): compile it first "
               "(robotsc compile FILE -o FILE.rbc, or rsc_compile())";
    }
    return "unknown store status";
}

static uint64_t get64(const uint8_t *p);

/* 8 bytes per step (a batch build hashes every source: byte-wise FNV cost
 * 5% of it); little-endian loads, so every host gives the same value. */
uint64_t rsc_store_hash(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint64_t h = 0x9e3779b97f4a7c15u ^ (uint64_t)len;
    for (; len >= 8; p += 8, len -= 8) {
        h = (h ^ get64(p)) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    for (size_t i = 0; i < len; i++)
        w |= (uint64_t)p[i] << (8 * i);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
    h ^= h >> 29;
    h *= 0xff51afd7ed558ccdu;
    return h ^ (h >> 32);
}

/* The record checksum: FNV-1a 64 (docs/CRAWLER.md). */
static uint64_t hash_more(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return h;
}

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static rsc_store_status lmdb_fail(rsc_store *st, int rc, const char *what)
{
    if (st)
        snprintf(st->err, sizeof st->err, "%s: %s", what, mdb_strerror(rc));
    if (rc == MDB_MAP_FULL || rc == ENOSPC)
        return RSC_STORE_E_FULL;
    if (rc == ENOMEM)
        return RSC_STORE_E_NOMEM;
    return RSC_STORE_E_IO;
}

/* Why the latest rsc_store_open() of this thread failed. */
static _Thread_local char open_err[160];

const char *rsc_store_last_error(const rsc_store *st)
{
    return st ? st->err : open_err;
}

/* A host byte of the fast path in lower case; 0 for every other byte. */
static const unsigned char host_lc[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 45, 46, 0,
    48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 0, 0, 0, 0, 0, 0,
    0, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
    112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 0, 0, 0, 0, 95,
    0, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
    112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* The fast path of rsc_store_origin_key(): returns 0 when the URL needs
 * the general parser (spaces around it, userinfo, %-escapes, IPv6, bytes
 * other than letters, digits, '.', '-', '_' in the host, odd ports). Every
 * check of a store starts here: the scheme is matched as one word (its
 * letters' lanes or'ed with 0x20: only 'X' and 'x' give 'x'), the host a
 * table look-up a byte. */
static int fast_key(const char *u, size_t len, char *key, size_t *klen)
{
    static const struct {
        const char *name;
        size_t n;
        unsigned port;
        uint64_t word, fold, mask; /* name as get64(); its letters' lanes; its lanes */
    } sch[] = {{"https://", 8, 443, 0x2f2f3a7370747468ull, 0x2020202020ull, ~0ull},
               {"http://", 7, 80, 0x2f2f3a70747468ull, 0x20202020ull, 0xffffffffffffffull},
               {"ftp://", 6, 21, 0x2f2f3a707466ull, 0x202020ull, 0xffffffffffffull}};
    unsigned char head[8] = {0};
    memcpy(head, u, len < 8 ? len : 8);
    const uint64_t w = get64(head);
    size_t k, i;
    for (k = 0; k < 3; k++)
        if (((w | sch[k].fold) & sch[k].mask) == sch[k].word)
            break;
    if (k == 3 || (unsigned char)u[len - 1] <= 0x20)
        return 0;
    size_t o = sch[k].n;
    memcpy(key, sch[k].name, o);
    i = sch[k].n;
    const size_t hb = i, lim = len - hb < RSC_HOST_MAX ? len : hb + RSC_HOST_MAX;
    for (; i < lim; i++) {
        const unsigned char c = host_lc[(unsigned char)u[i]];
        if (!c)
            break;
        key[o++] = (char)c;
    }
    if (i == hb)
        return 0; /* a host of more than RSC_HOST_MAX bytes stops before a
                     host byte, which the test after the port refuses */
    unsigned port = sch[k].port;
    if (i < len && u[i] == ':') {
        size_t pb = ++i;
        unsigned v = 0;
        while (i < len && u[i] >= '0' && u[i] <= '9' && i - pb < 5)
            v = v * 10 + (unsigned)(u[i++] - '0');
        if (i > pb) {
            if (v == 0 || v > 65535)
                return 0;
            port = v;
        }
    }
    if (i < len && u[i] != '/' && u[i] != '?' && u[i] != '#')
        return 0;
    if (port != sch[k].port) {
        char d[8];
        int n = 0;
        for (unsigned v = port; v; v /= 10)
            d[n++] = (char)('0' + v % 10);
        key[o++] = ':';
        while (n)
            key[o++] = d[--n];
    }
    key[o] = 0;
    *klen = o;
    return 1;
}

rsc_url_status rsc_store_origin_key(const char *url, size_t len, char *key, size_t *key_len)
{
    if (!url || !key || !key_len)
        return RSC_URL_E_ARG;
    if (fast_key(url, len, key, key_len))
        return RSC_URL_OK;
    rsc_origin o;
    rsc_url_status s = rsc_origin_parse(url, len, &o);
    if (s != RSC_URL_OK) {
        key[0] = 0;
        *key_len = 0;
        return s;
    }
    memcpy(key, o.key, o.key_len + 1);
    *key_len = o.key_len;
    return RSC_URL_OK;
}

int rsc_store_key_valid(const char *key, size_t len)
{
    char k[RSC_ORIGIN_MAX];
    size_t n;
    if (!key || len == 0 || len >= RSC_ORIGIN_MAX)
        return 0;
    if (rsc_store_origin_key(key, len, k, &n) != RSC_URL_OK)
        return 0;
    return n == len && memcmp(k, key, len) == 0;
}

rsc_store_status rsc_store_open(const char *path, const rsc_store_options *opt, rsc_store **out)
{
    if (!out)
        return RSC_STORE_E_ARG;
    *out = NULL;
    if (!path)
        return RSC_STORE_E_ARG;
    rsc_store_options o = {0};
    if (opt)
        o = *opt;
    rsc_store *st = calloc(1, sizeof *st);
    if (!st)
        return RSC_STORE_E_NOMEM;
    st->readonly = o.readonly;
    st->max_map = o.max_map ? o.max_map : DEFAULT_MAX;
    size_t map = o.map_size ? o.map_size : DEFAULT_MAP;
    if (map > st->max_map)
        map = st->max_map;
    int rc = mdb_env_create(&st->env);
    if (rc) {
        free(st);
        snprintf(open_err, sizeof open_err, "create: %s", mdb_strerror(rc));
        return lmdb_fail(NULL, rc, "create");
    }
    unsigned flags = MDB_NOSUBDIR | MDB_NOTLS | (o.readonly ? MDB_RDONLY : 0) | (o.no_sync ? MDB_NOSYNC : 0);
    rsc_store_status s = RSC_STORE_OK;
    if ((rc = mdb_env_set_mapsize(st->env, map)) != 0 || (rc = mdb_env_set_maxreaders(st->env, 256)) != 0 ||
        (rc = mdb_env_open(st->env, path, flags, 0644)) != 0) {
        s = lmdb_fail(st, rc, path);
        goto fail;
    }
    /* An existing file may be larger than the initial size: LMDB adopts
     * its size; the limit must not be below it. */
    MDB_envinfo info;
    mdb_env_info(st->env, &info);
    if (info.me_mapsize > st->max_map)
        st->max_map = info.me_mapsize;
    MDB_txn *txn;
    if ((rc = mdb_txn_begin(st->env, NULL, o.readonly ? MDB_RDONLY : 0, &txn)) != 0) {
        s = lmdb_fail(st, rc, path);
        goto fail;
    }
    if ((rc = mdb_dbi_open(txn, NULL, 0, &st->dbi)) != 0 || (rc = mdb_txn_commit(txn)) != 0) {
        if (rc && txn)
            mdb_txn_abort(txn);
        s = lmdb_fail(st, rc, path);
        goto fail;
    }
    *out = st;
    return RSC_STORE_OK;
fail:
    memcpy(open_err, st->err, sizeof open_err);
    mdb_env_close(st->env);
    free(st);
    return s;
}

void rsc_store_close(rsc_store *st)
{
    if (!st)
        return;
    mdb_env_close(st->env);
    free(st);
}

/* ---- Records ------------------------------------------------------------ */

static size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

static size_t record_size(const rsc_store_meta *m, size_t blob_len)
{
    return pad8(HDR + m->source_url.len + m->etag.len + m->last_modified.len) + blob_len;
}

/* The checksum of a record whose header is hdr bytes long (its last 8
 * bytes are the checksum itself). */
static uint64_t record_sum(const char *key, size_t klen, const uint8_t *rec, size_t hdr, size_t strings)
{
    uint64_t h = hash_more(14695981039346656037u, key, klen);
    h = hash_more(h, rec, hdr - 8);
    return hash_more(h, rec + hdr, strings);
}

static void record_write(uint8_t *p, const char *key, size_t klen, const rsc_store_meta *m, const void *blob,
                         size_t blob_len)
{
    size_t strings = m->source_url.len + m->etag.len + m->last_modified.len;
    memset(p, 0, pad8(HDR + strings));
    memcpy(p, MAGIC, 4);
    p[4] = REC_VERSION;
    p[5] = ((const uint8_t *)blob)[FORMAT_BYTE];
    p[6] = m->policy;
    p[7] = m->has_copy ? 1 : 0;
    p[8] = m->profile;
    p[9] = m->fetch_error;
    put16(p + 10, (uint32_t)m->source_url.len);
    put16(p + 12, (uint32_t)m->etag.len);
    put16(p + 14, (uint32_t)m->last_modified.len);
    put32(p + 16, (uint32_t)m->http_status);
    put32(p + 20, (uint32_t)blob_len);
    put64(p + 24, (uint64_t)m->fetched_at);
    put64(p + 32, (uint64_t)m->expires);
    put64(p + 40, (uint64_t)m->error_since);
    put64(p + 48, m->source_size);
    put64(p + 56, m->source_hash);
    put64(p + 64, (uint64_t)m->lifetime);
    uint8_t *s = p + HDR;
    if (m->source_url.len)
        memcpy(s, m->source_url.ptr, m->source_url.len);
    s += m->source_url.len;
    if (m->etag.len)
        memcpy(s, m->etag.ptr, m->etag.len);
    s += m->etag.len;
    if (m->last_modified.len)
        memcpy(s, m->last_modified.ptr, m->last_modified.len);
    put64(p + 72, record_sum(key, klen, p, HDR, strings));
    memcpy(p + pad8(HDR + strings), blob, blob_len);
}

/* Decodes a value; checks everything but the blob. */
static rsc_store_status record_read(const char *key, size_t klen, const uint8_t *p, size_t n, rsc_store_record *r)
{
    memset(r, 0, sizeof *r);
    if (n < HDR_V1 || memcmp(p, MAGIC, 4) != 0 || (p[4] != REC_VERSION && p[4] != 1))
        return RSC_STORE_E_DAMAGED;
    size_t hdr = p[4] == 1 ? HDR_V1 : HDR;
    if (n < hdr)
        return RSC_STORE_E_DAMAGED;
    size_t ul = get16(p + 10), el = get16(p + 12), ll = get16(p + 14);
    size_t strings = ul + el + ll, off = pad8(hdr + strings);
    size_t blen = get32(p + 20);
    if (off > n || n - off != blen || blen <= FORMAT_BYTE + 1)
        return RSC_STORE_E_DAMAGED;
    if (get64(p + hdr - 8) != record_sum(key, klen, p, hdr, strings))
        return RSC_STORE_E_DAMAGED;
    for (size_t i = hdr + strings; i < off; i++) /* padding: zeros */
        if (p[i])
            return RSC_STORE_E_DAMAGED;
    rsc_store_meta *m = &r->meta;
    m->format = p[5];
    m->policy = p[6];
    m->has_copy = p[7] & 1;
    m->profile = p[8];
    m->fetch_error = p[9];
    m->http_status = (int32_t)get32(p + 16);
    m->fetched_at = (int64_t)get64(p + 24);
    m->expires = (int64_t)get64(p + 32);
    m->error_since = (int64_t)get64(p + 40);
    m->source_size = get64(p + 48);
    m->source_hash = get64(p + 56);
    m->lifetime = hdr == HDR ? (int64_t)get64(p + 64) : 0;
    const char *s = (const char *)p + hdr;
    m->source_url.ptr = s;
    m->source_url.len = ul;
    m->etag.ptr = s + ul;
    m->etag.len = el;
    m->last_modified.ptr = s + ul + el;
    m->last_modified.len = ll;
    r->blob = p + off;
    r->blob_len = blen;
    r->record_len = n;
    if (m->format != RSC_FORMAT_MAJOR || r->blob[FORMAT_BYTE] != m->format)
        return RSC_STORE_E_STALE;
    return RSC_STORE_OK;
}

/* ---- Writing ------------------------------------------------------------ */

/* The map is full: make it larger (no transaction of ours is open). */
static rsc_store_status grow(rsc_store *st)
{
    MDB_envinfo info;
    mdb_env_info(st->env, &info);
    size_t cur = info.me_mapsize;
    if (cur >= st->max_map) {
        snprintf(st->err, sizeof st->err, "map size limit of %zu bytes reached", st->max_map);
        return RSC_STORE_E_FULL;
    }
    size_t next = cur < ((size_t)1 << 30) ? cur * 2 : cur + ((size_t)1 << 30);
    if (next > st->max_map || next < cur)
        next = st->max_map;
    int rc = mdb_env_set_mapsize(st->env, next);
    if (rc)
        return lmdb_fail(st, rc, "grow map");
    return RSC_STORE_OK;
}

typedef int (*txn_fn)(rsc_store *st, MDB_txn *txn, void *ud, rsc_store_status *s);

/* Runs fn in a write transaction, growing the map and retrying when full.
 * fn returns an LMDB code (0 ok) and may set *s for its own failures. */
static rsc_store_status write_txn(rsc_store *st, txn_fn fn, void *ud)
{
    if (st->readonly) {
        snprintf(st->err, sizeof st->err, "store opened read-only");
        return RSC_STORE_E_ARG;
    }
    for (;;) {
        MDB_txn *txn;
        int rc = mdb_txn_begin(st->env, NULL, 0, &txn);
        if (rc == MDB_MAP_RESIZED) { /* another process grew it */
            mdb_env_set_mapsize(st->env, 0);
            continue;
        }
        if (rc)
            return lmdb_fail(st, rc, "begin write");
        rsc_store_status s = RSC_STORE_OK;
        rc = fn(st, txn, ud, &s);
        if (rc == 0 && s == RSC_STORE_OK)
            rc = mdb_txn_commit(txn);
        else
            mdb_txn_abort(txn);
        if (rc == MDB_MAP_FULL) {
            rsc_store_status g = grow(st);
            if (g != RSC_STORE_OK)
                return g;
            continue;
        }
        if (rc)
            return lmdb_fail(st, rc, "write");
        return s;
    }
}

typedef struct put_ctx {
    const rsc_store_item *items;
    size_t n;
    size_t *bad;
} put_ctx;

static int do_put(rsc_store *st, MDB_txn *txn, void *ud, rsc_store_status *s)
{
    put_ctx *c = ud;
    for (size_t i = 0; i < c->n; i++) {
        const rsc_store_item *it = &c->items[i];
        MDB_val k = {it->key_len, (void *)it->key};
        int rc;
        if (!it->blob) {
            rc = mdb_del(txn, st->dbi, &k, NULL);
            if (rc == MDB_NOTFOUND)
                rc = 0;
        } else {
            MDB_val v = {record_size(it->meta, it->blob_len), NULL};
            rc = mdb_put(txn, st->dbi, &k, &v, MDB_RESERVE);
            if (rc == 0)
                record_write(v.mv_data, it->key, it->key_len, it->meta, it->blob, it->blob_len);
        }
        if (rc) {
            if (c->bad)
                *c->bad = i;
            if (rc == MDB_BAD_VALSIZE)
                *s = RSC_STORE_E_TOOBIG;
            return rc == MDB_BAD_VALSIZE ? 0 : rc;
        }
    }
    return 0;
}

rsc_store_status rsc_store_put_many(rsc_store *st, const rsc_store_item *items, size_t n, size_t *bad)
{
    if (!st || (!items && n))
        return RSC_STORE_E_ARG;
    for (size_t i = 0; i < n; i++) {
        const rsc_store_item *it = &items[i];
        if (bad)
            *bad = i;
        if (!rsc_store_key_valid(it->key, it->key_len))
            return RSC_STORE_E_KEY;
        if (!it->blob) {
            if (it->blob_len)
                return RSC_STORE_E_ARG;
            continue;
        }
        const rsc_store_meta *m = it->meta;
        if (!m || (m->source_url.len && !m->source_url.ptr) || (m->etag.len && !m->etag.ptr) ||
            (m->last_modified.len && !m->last_modified.ptr))
            return RSC_STORE_E_ARG;
        if (m->source_url.len > MAX_URL || m->etag.len > MAX_ETAG || m->last_modified.len > MAX_LM ||
            it->blob_len > UINT32_MAX)
            return RSC_STORE_E_TOOBIG;
        /* Only a blob is stored (rsc_classify()'s rule, the same as the CLI's
         * and Python's): text or binary (RSC_STORE_E_NOTBLOB) and a damaged
         * blob are refused before verification, and a blob that fails
         * verification is refused too. */
        rsc_program p;
        int kind = it->blob_len ? (int)rsc_classify(it->blob, it->blob_len) : RSC_INPUT_BLOB;
        if (kind == RSC_INPUT_TEXT || kind == RSC_INPUT_BINARY) {
            /* Most often a robots.txt given where its blob belongs: say
             * what the bytes are, not "damaged blob" */
            snprintf(st->err, sizeof st->err, "%s, not a blob", rsc_input_kind_what(kind));
            return RSC_STORE_E_NOTBLOB;
        }
        if (kind != RSC_INPUT_BLOB)
            return RSC_STORE_E_BLOB;
        if (!it->verified && rsc_load(&p, it->blob, it->blob_len, NULL) != RSC_OK)
            return RSC_STORE_E_BLOB;
    }
    put_ctx c = {items, n, bad};
    return write_txn(st, do_put, &c);
}

rsc_store_status rsc_store_put(rsc_store *st, const char *key, size_t key_len, const rsc_store_meta *meta,
                               const void *blob, size_t blob_len)
{
    if (!blob)
        return RSC_STORE_E_ARG;
    rsc_store_item it = {key, key_len, meta, blob, blob_len, 0};
    return rsc_store_put_many(st, &it, 1, NULL);
}

typedef struct key_ctx {
    const char *key;
    size_t len;
    int64_t expires, error_since;
    int set_lifetime; /* revalidate: lifetime replaces the record's */
    int64_t lifetime;
} key_ctx;

static int do_del(rsc_store *st, MDB_txn *txn, void *ud, rsc_store_status *s)
{
    key_ctx *c = ud;
    MDB_val k = {c->len, (void *)c->key};
    int rc = mdb_del(txn, st->dbi, &k, NULL);
    if (rc == MDB_NOTFOUND) {
        *s = RSC_STORE_NOTFOUND;
        return 0;
    }
    return rc;
}

rsc_store_status rsc_store_del(rsc_store *st, const char *key, size_t key_len)
{
    if (!st || !key)
        return RSC_STORE_E_ARG;
    if (!rsc_store_key_valid(key, key_len))
        return RSC_STORE_E_KEY;
    key_ctx c = {key, key_len, 0, 0, 0, 0};
    return write_txn(st, do_del, &c);
}

static int do_touch(rsc_store *st, MDB_txn *txn, void *ud, rsc_store_status *s)
{
    key_ctx *c = ud;
    MDB_val k = {c->len, (void *)c->key}, v;
    int rc = mdb_get(txn, st->dbi, &k, &v);
    if (rc == MDB_NOTFOUND) {
        *s = RSC_STORE_NOTFOUND;
        return 0;
    }
    if (rc)
        return rc;
    rsc_store_record r;
    rsc_store_status rs = record_read(c->key, c->len, v.mv_data, v.mv_size, &r);
    if (rs != RSC_STORE_OK) {
        *s = rs;
        return 0;
    }
    /* Encoded again (LMDB values are copy-on-write anyway), so that a
     * version 1 record becomes a version 2 one; the blob bytes are copied,
     * not recompiled. */
    r.meta.expires = c->expires;
    r.meta.error_since = c->error_since;
    if (c->set_lifetime)
        r.meta.lifetime = c->lifetime;
    size_t n = record_size(&r.meta, r.blob_len);
    uint8_t *copy = malloc(n);
    if (!copy) {
        *s = RSC_STORE_E_NOMEM;
        return 0;
    }
    record_write(copy, c->key, c->len, &r.meta, r.blob, r.blob_len);
    MDB_val nv = {n, copy};
    rc = mdb_put(txn, st->dbi, &k, &nv, 0);
    free(copy);
    return rc;
}

rsc_store_status rsc_store_touch(rsc_store *st, const char *key, size_t key_len, int64_t expires,
                                 int64_t error_since)
{
    if (!st || !key)
        return RSC_STORE_E_ARG;
    if (!rsc_store_key_valid(key, key_len))
        return RSC_STORE_E_KEY;
    key_ctx c = {key, key_len, expires, error_since, 0, 0};
    return write_txn(st, do_touch, &c);
}

rsc_store_status rsc_store_revalidate(rsc_store *st, const char *key, size_t key_len, int64_t expires,
                                      int64_t lifetime)
{
    if (!st || !key || lifetime < 0)
        return RSC_STORE_E_ARG;
    if (!rsc_store_key_valid(key, key_len))
        return RSC_STORE_E_KEY;
    key_ctx c = {key, key_len, expires, 0, 1, lifetime};
    return write_txn(st, do_touch, &c);
}

typedef struct gc_ctx {
    int64_t before;
    size_t removed;
} gc_ctx;

static int do_gc(rsc_store *st, MDB_txn *txn, void *ud, rsc_store_status *s)
{
    (void)s;
    gc_ctx *c = ud;
    c->removed = 0;
    MDB_cursor *cur;
    int rc = mdb_cursor_open(txn, st->dbi, &cur);
    if (rc)
        return rc;
    MDB_val k, v;
    for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        rsc_store_record r;
        rsc_store_status rs = record_read(k.mv_data, k.mv_size, v.mv_data, v.mv_size, &r);
        if ((rs == RSC_STORE_OK || rs == RSC_STORE_E_STALE) && r.meta.expires <= c->before) {
            if ((rc = mdb_cursor_del(cur, 0)) != 0)
                break;
            c->removed++;
        }
    }
    mdb_cursor_close(cur);
    return rc == MDB_NOTFOUND ? 0 : rc;
}

rsc_store_status rsc_store_gc(rsc_store *st, int64_t before, size_t *removed)
{
    if (!st)
        return RSC_STORE_E_ARG;
    gc_ctx c = {before, 0};
    rsc_store_status s = write_txn(st, do_gc, &c);
    if (removed)
        *removed = s == RSC_STORE_OK ? c.removed : 0;
    return s;
}

/* ---- Reading ------------------------------------------------------------ */

rsc_store_status rsc_store_begin(rsc_store *st, rsc_store_txn **out)
{
    if (!out)
        return RSC_STORE_E_ARG;
    *out = NULL;
    if (!st)
        return RSC_STORE_E_ARG;
    rsc_store_txn *t = malloc(sizeof *t);
    if (!t)
        return RSC_STORE_E_NOMEM;
    t->st = st;
    int rc;
    while ((rc = mdb_txn_begin(st->env, NULL, MDB_RDONLY, &t->txn)) == MDB_MAP_RESIZED)
        mdb_env_set_mapsize(st->env, 0); /* a writer grew the map */
    if (rc) {
        free(t);
        return lmdb_fail(st, rc, "begin read");
    }
    *out = t;
    return RSC_STORE_OK;
}

rsc_store_status rsc_store_renew(rsc_store_txn *t)
{
    if (!t)
        return RSC_STORE_E_ARG;
    mdb_txn_reset(t->txn);
    int rc = mdb_txn_renew(t->txn);
    if (rc == MDB_MAP_RESIZED) {
        /* Adopting the new size needs no open transaction in this
         * process: the caller's other transactions must be ended first
         * (documented LMDB rule); one per process is the usual case. */
        mdb_txn_abort(t->txn);
        while ((rc = mdb_txn_begin(t->st->env, NULL, MDB_RDONLY, &t->txn)) == MDB_MAP_RESIZED)
            mdb_env_set_mapsize(t->st->env, 0);
        if (rc) {
            t->txn = NULL;
            return lmdb_fail(t->st, rc, "renew read");
        }
    } else if (rc) {
        return lmdb_fail(t->st, rc, "renew read");
    }
    return RSC_STORE_OK;
}

void rsc_store_end(rsc_store_txn *t)
{
    if (!t)
        return;
    if (t->txn)
        mdb_txn_abort(t->txn);
    free(t);
}

rsc_store_status rsc_store_get(rsc_store_txn *t, const char *key, size_t key_len, rsc_store_record *rec,
                               rsc_program *prog, rsc_load_error *err)
{
    if (!t || !key || !rec || !t->txn)
        return RSC_STORE_E_ARG;
    MDB_val k = {key_len, (void *)key}, v;
    if (key_len == 0 || key_len > 511)
        return RSC_STORE_NOTFOUND;
    int rc = mdb_get(t->txn, t->st->dbi, &k, &v);
    if (rc == MDB_NOTFOUND) {
        memset(rec, 0, sizeof *rec);
        return RSC_STORE_NOTFOUND;
    }
    if (rc)
        return lmdb_fail(t->st, rc, "get");
    rsc_store_status s = record_read(key, key_len, v.mv_data, v.mv_size, rec);
    if (s != RSC_STORE_OK || !prog)
        return s;
    if (rsc_load(prog, rec->blob, rec->blob_len, err) != RSC_OK)
        return RSC_STORE_E_BLOB;
    return RSC_STORE_OK;
}

rsc_store_status rsc_store_foreach(rsc_store_txn *t, rsc_store_visit_fn fn, void *ud)
{
    if (!t || !fn || !t->txn)
        return RSC_STORE_E_ARG;
    MDB_cursor *cur;
    int rc = mdb_cursor_open(t->txn, t->st->dbi, &cur);
    if (rc)
        return lmdb_fail(t->st, rc, "cursor");
    MDB_val k, v;
    for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        rsc_store_record r;
        rsc_store_status s = record_read(k.mv_data, k.mv_size, v.mv_data, v.mv_size, &r);
        if (s == RSC_STORE_OK) {
            rsc_program p;
            if (rsc_load(&p, r.blob, r.blob_len, NULL) != RSC_OK)
                s = RSC_STORE_E_BLOB;
        }
        if (fn(ud, k.mv_data, k.mv_size, s, &r))
            break;
    }
    mdb_cursor_close(cur);
    return rc == 0 || rc == MDB_NOTFOUND ? RSC_STORE_OK : lmdb_fail(t->st, rc, "cursor");
}

rsc_store_status rsc_store_stat(rsc_store *st, rsc_store_stats *s)
{
    if (!st || !s)
        return RSC_STORE_E_ARG;
    memset(s, 0, sizeof *s);
    MDB_txn *txn;
    int rc;
    while ((rc = mdb_txn_begin(st->env, NULL, MDB_RDONLY, &txn)) == MDB_MAP_RESIZED)
        mdb_env_set_mapsize(st->env, 0);
    if (rc)
        return lmdb_fail(st, rc, "stat");
    MDB_stat ms;
    MDB_envinfo info;
    rc = mdb_stat(txn, st->dbi, &ms);
    mdb_env_info(st->env, &info);
    mdb_txn_abort(txn);
    if (rc)
        return lmdb_fail(st, rc, "stat");
    s->records = ms.ms_entries;
    s->page_size = ms.ms_psize;
    s->map_size = info.me_mapsize;
    s->used_bytes = (info.me_last_pgno + 1) * (size_t)ms.ms_psize;
    s->readers = info.me_numreaders;
    s->max_readers = info.me_maxreaders;
    return RSC_STORE_OK;
}

/* ---- Checking with an optional per-origin program cache ---------------- */

typedef struct cache_entry {
    uint64_t hash;
    int64_t loaded_at, expires;
    uint64_t stamp; /* last use, for replacement */
    int used;
    uint8_t *blob;
    size_t key_len;
    char key[RSC_ORIGIN_MAX];
    rsc_program prog;
    rsc_selection sel; /* runs the blob's DFA when its rule set has one */
} cache_entry;

struct rsc_store_cache {
    size_t mask;
    uint64_t clock;
    int64_t max_age;
    cache_entry *e;
    /* The agents the entries' selections are for, as the last call gave
     * them: n_agents names, lengths in agent_len, bytes back to back in
     * agent_buf (cap bytes). A call with other agents empties the cache
     * first, so no crawler is answered with another's selection. */
    size_t n_agents, agent_cap;
    size_t *agent_len;
    char *agent_buf;
};

rsc_store_cache *rsc_store_cache_new(size_t slots, int64_t max_age)
{
    size_t n = 2;
    while (n < slots && n < ((size_t)1 << 30))
        n <<= 1;
    rsc_store_cache *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    c->e = calloc(n, sizeof *c->e);
    if (!c->e) {
        free(c);
        return NULL;
    }
    c->mask = n - 1;
    c->clock = 0;
    c->max_age = max_age > 0 ? max_age : 300;
    c->n_agents = c->agent_cap = 0;
    c->agent_len = NULL;
    c->agent_buf = NULL;
    return c;
}

void rsc_store_cache_free(rsc_store_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i <= c->mask; i++)
        free(c->e[i].blob);
    free(c->e);
    free(c->agent_len);
    free(c->agent_buf);
    free(c);
}

/* 1 when agents[0..n) are, byte for byte and in order, the agents the
 * cache was filled for. Exact bytes, not rsc_select()'s case-insensitive
 * comparison: a spelling that differs only in case empties the cache,
 * which costs reloads but never a wrong selection. */
static int cache_agents_same(const rsc_store_cache *c, const rsc_bytes *agents, size_t n)
{
    if (n != c->n_agents)
        return 0;
    const char *p = c->agent_buf;
    for (size_t i = 0; i < n; i++) {
        if (agents[i].len != c->agent_len[i] || (agents[i].len && memcmp(agents[i].ptr, p, agents[i].len) != 0))
            return 0;
        p += agents[i].len;
    }
    return 1;
}

/* Adopts agents[0..n) as the cache's agents and drops every entry (their
 * selections are for the agents before). RSC_STORE_E_NOMEM leaves the
 * cache empty and without agents. */
static rsc_store_status cache_agents_set(rsc_store_cache *c, const rsc_bytes *agents, size_t n)
{
    for (size_t i = 0; i <= c->mask; i++)
        c->e[i].used = 0;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (agents[i].len && !agents[i].ptr)
            return RSC_STORE_E_ARG;
        if (agents[i].len > SIZE_MAX - total)
            return RSC_STORE_E_NOMEM;
        total += agents[i].len;
    }
    c->n_agents = 0;
    if (n > c->agent_cap || !c->agent_len) {
        size_t *l = n <= SIZE_MAX / sizeof *l ? realloc(c->agent_len, n * sizeof *l) : NULL;
        if (!l)
            return RSC_STORE_E_NOMEM;
        c->agent_len = l;
        c->agent_cap = n;
    }
    char *b = realloc(c->agent_buf, total ? total : 1);
    if (!b)
        return RSC_STORE_E_NOMEM;
    c->agent_buf = b;
    for (size_t i = 0; i < n; i++) {
        if (agents[i].len)
            memcpy(b, agents[i].ptr, agents[i].len);
        b += agents[i].len;
        c->agent_len[i] = agents[i].len;
    }
    c->n_agents = n;
    return RSC_STORE_OK;
}

/* A check's load and selection: RSC_LOAD_DEFER, since a check runs no
 * explain (the selection's DFA is verified by rsc_select, runtime.h); a
 * part that fails verification is RSC_STORE_E_BLOB. */
static rsc_store_status load_select(const void *blob, size_t len, const rsc_bytes *agents, size_t n,
                                    rsc_program *prog, rsc_selection *sel)
{
    if (rsc_load_ex(prog, blob, len, RSC_LOAD_DEFER, NULL) != RSC_OK)
        return RSC_STORE_E_BLOB;
    rsc_status st = rsc_select(prog, agents, n, sel);
    return st == RSC_OK ? RSC_STORE_OK : st == RSC_E_CORRUPT ? RSC_STORE_E_BLOB : RSC_STORE_E_ARG;
}

static rsc_store_status check_uncached(rsc_store_txn *t, const rsc_bytes *agents, size_t n, const char *key,
                                       size_t klen, const char *url, size_t len, int64_t now, int *verdict)
{
    rsc_store_record r;
    rsc_program prog;
    rsc_store_status s = rsc_store_get(t, key, klen, &r, NULL, NULL);
    if (s != RSC_STORE_OK)
        return s;
    if (now && r.meta.expires <= now)
        return RSC_STORE_NOTFOUND;
    rsc_selection sel;
    if ((s = load_select(r.blob, r.blob_len, agents, n, &prog, &sel)) != RSC_STORE_OK)
        return s;
    *verdict = rsc_match_url(&sel, url, len, NULL) ? RSC_STORE_ALLOW : RSC_STORE_DISALLOW;
    return RSC_STORE_OK;
}

rsc_store_status rsc_store_check(rsc_store_txn *t, rsc_store_cache *cache, const rsc_bytes *agents, size_t n,
                                 const char *url, size_t len, int64_t now, int *verdict)
{
    if (!t || !agents || !n || !url || !verdict)
        return RSC_STORE_E_ARG;
    char key[RSC_ORIGIN_MAX];
    size_t klen;
    if (rsc_store_origin_key(url, len, key, &klen) != RSC_URL_OK)
        return RSC_STORE_E_KEY;
    if (!cache)
        return check_uncached(t, agents, n, key, klen, url, len, now, verdict);
    if (!cache_agents_same(cache, agents, n)) {
        rsc_store_status as = cache_agents_set(cache, agents, n);
        if (as != RSC_STORE_OK)
            return as;
    }
    /* Two ways per set: the entry of either slot, else the older one is
     * replaced. */
    uint64_t h = rsc_store_hash(key, klen);
    cache_entry *set = &cache->e[h & cache->mask & ~(size_t)1], *e = NULL;
    for (int w = 0; w < 2; w++)
        if (set[w].used && set[w].hash == h && set[w].key_len == klen && memcmp(set[w].key, key, klen) == 0)
            e = &set[w];
    if (e && (!now || (now < e->expires && now < e->loaded_at + cache->max_age))) {
        e->stamp = ++cache->clock;
        *verdict = rsc_match_url(&e->sel, url, len, NULL) ? RSC_STORE_ALLOW : RSC_STORE_DISALLOW;
        return RSC_STORE_OK;
    }
    if (!e)
        e = !set[0].used ? &set[0] : !set[1].used ? &set[1] : set[0].stamp <= set[1].stamp ? &set[0] : &set[1];
    /* Miss: read the record, verify a private copy of the blob (the map's
     * bytes are only valid inside the transaction). */
    e->used = 0;
    rsc_store_record r;
    rsc_store_status s = rsc_store_get(t, key, klen, &r, NULL, NULL);
    if (s != RSC_STORE_OK)
        return s;
    if (now && r.meta.expires <= now)
        return RSC_STORE_NOTFOUND;
    uint8_t *copy = realloc(e->blob, r.blob_len);
    if (!copy)
        return RSC_STORE_E_NOMEM;
    e->blob = copy;
    memcpy(copy, r.blob, r.blob_len);
    if ((s = load_select(copy, r.blob_len, agents, n, &e->prog, &e->sel)) != RSC_STORE_OK)
        return s;
    e->hash = h;
    e->key_len = klen;
    memcpy(e->key, key, klen);
    e->stamp = ++cache->clock;
    e->loaded_at = now;
    e->expires = r.meta.expires;
    e->used = 1;
    *verdict = rsc_match_url(&e->sel, url, len, NULL) ? RSC_STORE_ALLOW : RSC_STORE_DISALLOW;
    return RSC_STORE_OK;
}
