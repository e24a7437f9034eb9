/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc store: compiled robots.txt programs for many origins in one LMDB
 * file, for crawler workers (docs/CRAWLER.md, "The store"; installed under
 * share/doc/robotsc/docs/).
 *
 * A store maps an origin key (exactly as rsc_origin_parse() writes it,
 * "https://www.example.com") to one record: metadata (source URL, fetch
 * time, expiry, HTTP status and policy, ETag / Last-Modified, source size
 * and hash, blob format version) followed by the blob. A record is written
 * and replaced in one LMDB transaction, so a reader sees the old record or
 * the new one, never a mix.
 *
 * Readers get the blob zero-copy from the memory map inside a read
 * transaction and verify it with rsc_load() before use: nothing read from
 * the file is trusted. A damaged record (bad header, checksum, blob that
 * does not verify, stale format) is an error for that origin, never a
 * verdict.
 *
 * Concurrency: any number of reader processes and threads, one writer at
 * a time (LMDB's rules). A read transaction belongs to one thread at a
 * time. The program cache is per thread.
 *
 * Dependencies: LMDB, the runtime, and crawl (key validation). */
#ifndef ROBOTSC_STORE_H
#define ROBOTSC_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "robotsc/crawl.h"
#include "robotsc/runtime.h"

#ifndef RSC_API /* runtime.h defines it (exported symbols) */
#define RSC_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Values are ABI: append only. */
typedef enum rsc_store_status {
    RSC_STORE_OK = 0,
    RSC_STORE_NOTFOUND = 1,  /* no record for the key                       */
    RSC_STORE_E_ARG = 2,     /* NULL or inconsistent argument               */
    RSC_STORE_E_KEY = 3,     /* not a canonical origin key                  */
    RSC_STORE_E_DAMAGED = 4, /* record header or metadata checksum is bad   */
    RSC_STORE_E_BLOB = 5,    /* the record's blob does not verify           */
    RSC_STORE_E_STALE = 6,   /* blob format the runtime does not read (major, 3.0) */
    RSC_STORE_E_FULL = 7,    /* the map cannot grow (limit or disk full)    */
    RSC_STORE_E_IO = 8,      /* LMDB or file system error                   */
    RSC_STORE_E_NOMEM = 9,
    RSC_STORE_E_TOOBIG = 10, /* a metadata string or the blob is too long   */
    RSC_STORE_E_NOTBLOB = 11 /* put: the bytes are no blob (robots.txt text,
                                binary): compile them first, rsc_compile() */
} rsc_store_status;

/* Static string, never NULL. */
RSC_API const char *rsc_store_strerror(int status);

#define RSC_STORE_NEVER INT64_MAX /* expires: never */

/* Record metadata. Strings need not be NUL-terminated; in a record read
 * back they point into the map (valid while the read transaction is). */
typedef struct rsc_store_meta {
    int64_t fetched_at;   /* Unix seconds: when the answer was fetched      */
    int64_t expires;      /* refetch at or after this; RSC_STORE_NEVER      */
    int64_t error_since;  /* first failed fetch of a run of errors; 0 none  */
    int32_t http_status;  /* final HTTP status of the answer, 0 when none   */
    uint8_t fetch_error;  /* rsc_fetch_error                                */
    uint8_t policy;       /* rsc_policy applied                             */
    uint8_t has_copy;     /* 1: the blob is a definite answer (good copy)   */
    uint8_t profile;      /* rsc_profile the blob was compiled with         */
    uint8_t format;       /* blob Format_Major: set by put from the blob    */
    uint64_t source_size; /* bytes of the robots.txt body                   */
    uint64_t source_hash; /* rsc_store_hash() of that body                  */
    rsc_bytes source_url; /* where it came from (<= 4096 bytes)             */
    rsc_bytes etag;       /* validators for a conditional GET (<= 1024)     */
    rsc_bytes last_modified;
    int64_t lifetime;     /* freshness lifetime in seconds of the stored
                             response (max-age or the default): what a 304
                             without Cache-Control renews; 0 unknown (a
                             record written before 1.0)                    */
} rsc_store_meta;

/* The 64-bit source hash used for idempotent rebuilds (not cryptographic:
 * it tells a changed robots.txt from the stored one). */
RSC_API uint64_t rsc_store_hash(const void *data, size_t len);

typedef struct rsc_store rsc_store;

typedef struct rsc_store_options {
    int readonly;       /* open for reading only (workers)                  */
    size_t map_size;    /* initial map size; 0: 64 MiB (a store grows)      */
    size_t max_map;     /* growth limit; 0: 1 TiB. Past it: RSC_STORE_E_FULL */
    int no_sync;        /* 1: no fsync per commit (a crash of the OS, not of
                           the process, may lose the latest commits)       */
} rsc_store_options;

/* Opens (creating unless readonly) the store file `path` and its lock
 * file `path`-lock. opt is nullable. */
RSC_API rsc_store_status rsc_store_open(const char *path, const rsc_store_options *opt,
                                rsc_store **out);
RSC_API void rsc_store_close(rsc_store *st); /* accepts NULL */

/* Text of the last LMDB / system error seen by st ("" when none); with
 * st NULL, why this thread's latest rsc_store_open() failed. */
RSC_API const char *rsc_store_last_error(const rsc_store *st);

/* 1 when key[0..len) is a canonical origin key (rsc_origin_parse() gives
 * it back unchanged). */
RSC_API int rsc_store_key_valid(const char *key, size_t len);

/* The origin key of a URL into key[RSC_ORIGIN_MAX], exactly as
 * rsc_origin_parse() gives it: plain lower-case-able ASCII http, https and
 * ftp URLs are read directly (no struct, no printf: several times
 * faster), anything else goes through rsc_origin_parse(). */
RSC_API rsc_url_status rsc_store_origin_key(const char *url, size_t len, char *key, size_t *key_len);

/* ---- Writing (one writer at a time; blocks while another writes) ----- */

typedef struct rsc_store_item {
    const char *key;  /* origin key */
    size_t key_len;
    const rsc_store_meta *meta;
    const void *blob; /* a blob from rsc_compile(); NULL with blob_len 0
                         deletes the key */
    size_t blob_len;
    int verified;     /* 1: the caller has rsc_load()ed this very blob (a
                         batch compiler verifies in its threads); put does
                         not verify it again */
} rsc_store_item;

/* Writes items[0..n) in one transaction: all or nothing. Keys are
 * validated first (RSC_STORE_E_KEY, *bad = index). When the map is full it
 * grows (doubling, up to max_map) and the transaction is retried. Blobs are
 * checked with rsc_load() before they are stored (RSC_STORE_E_BLOB) unless
 * the item says it was; bytes that rsc_classify() does not call a blob are
 * refused even then: robots.txt text or binary bytes with
 * RSC_STORE_E_NOTBLOB (rsc_store_last_error() says which; compile text
 * with rsc_compile() first), a damaged magic with RSC_STORE_E_BLOB. Growing the map needs no read transaction of this
 * process to be open (LMDB's rule): a process that writes should not keep
 * read transactions open across writes.
 * bad is nullable. */
RSC_API rsc_store_status rsc_store_put_many(rsc_store *st, const rsc_store_item *items,
                                    size_t n, size_t *bad);
RSC_API rsc_store_status rsc_store_put(rsc_store *st, const char *key, size_t key_len,
                               const rsc_store_meta *meta, const void *blob,
                               size_t blob_len);
/* RSC_STORE_NOTFOUND when there was no such key. */
RSC_API rsc_store_status rsc_store_del(rsc_store *st, const char *key, size_t key_len);
/* Replaces only expires / error_since of an existing record (a kept
 * copy); the blob is not rewritten, fetched_at and lifetime stay. */
RSC_API rsc_store_status rsc_store_touch(rsc_store *st, const char *key, size_t key_len,
                                 int64_t expires, int64_t error_since);
/* A revalidation (a 304 to a conditional GET): the record's expires and
 * lifetime (>= 0; the 304's own lifetime, or the stored one when it gives
 * none, RFC 9111 4.3.4) are replaced and error_since cleared; the blob and
 * fetched_at stay. */
RSC_API rsc_store_status rsc_store_revalidate(rsc_store *st, const char *key, size_t key_len,
                                      int64_t expires, int64_t lifetime);
/* Deletes the records with expires <= before; *removed (nullable) counts
 * them. Damaged records are left for `list` to report. */
RSC_API rsc_store_status rsc_store_gc(rsc_store *st, int64_t before, size_t *removed);

/* ---- Reading ------------------------------------------------------------ */

typedef struct rsc_store_txn rsc_store_txn;

/* A read transaction: a consistent snapshot. Long-lived workers call
 * rsc_store_renew() to see newer commits (cheap). */
RSC_API rsc_store_status rsc_store_begin(rsc_store *st, rsc_store_txn **out);
RSC_API rsc_store_status rsc_store_renew(rsc_store_txn *t);
RSC_API void rsc_store_end(rsc_store_txn *t); /* accepts NULL */

typedef struct rsc_store_record {
    rsc_store_meta meta;
    const uint8_t *blob; /* in the map: valid until the transaction ends */
    size_t blob_len;
    size_t record_len;   /* bytes of the whole value */
} rsc_store_record;

/* Looks key up. The record's header and metadata checksum are checked
 * (RSC_STORE_E_DAMAGED), then its format (RSC_STORE_E_STALE); with prog
 * non-NULL the blob is rsc_load()ed into it (RSC_STORE_E_BLOB, *err). */
RSC_API rsc_store_status rsc_store_get(rsc_store_txn *t, const char *key, size_t key_len,
                               rsc_store_record *rec, rsc_program *prog,
                               rsc_load_error *err);

/* Calls fn for every record in key order with the status rsc_store_get()
 * would give with a program (the record is only meaningful for OK and
 * STALE). fn returns nonzero to stop. */
typedef int (*rsc_store_visit_fn)(void *ud, const char *key, size_t key_len,
                                  rsc_store_status status,
                                  const rsc_store_record *rec);
RSC_API rsc_store_status rsc_store_foreach(rsc_store_txn *t, rsc_store_visit_fn fn, void *ud);

typedef struct rsc_store_stats {
    size_t records;
    size_t map_size;   /* current map size                                */
    size_t used_bytes; /* pages in use * page size                         */
    size_t page_size;
    unsigned readers;  /* reader slots in use                             */
    unsigned max_readers;
} rsc_store_stats;
RSC_API rsc_store_status rsc_store_stat(rsc_store *st, rsc_store_stats *s);

/* ---- Checking URLs of any origin ------------------------------------- */

/* Verdicts of rsc_store_check(). */
#define RSC_STORE_DISALLOW 0
#define RSC_STORE_ALLOW 1

/* Verified programs per origin for one worker thread: a two-way
 * table of `slots` entries, each holding a private copy of the blob, its
 * program and the selection for the cache's agents, which runs the blob's
 * DFA when its rule set has one (runtime.h, rsc_select; nothing is
 * determinised at run time, and nothing is built for a hot origin: its
 * checks run the blob as loaded). An entry is used
 * until its record expires or `max_age` seconds after it was loaded
 * (0: 300), whichever is first; then the store is read again. The
 * selections are those of the agents of the latest rsc_store_check(). */
typedef struct rsc_store_cache rsc_store_cache;
RSC_API rsc_store_cache *rsc_store_cache_new(size_t slots, int64_t max_age);
RSC_API void rsc_store_cache_free(rsc_store_cache *c); /* accepts NULL */

/* Routes url to its origin's record and matches it for agents[0..n):
 * origin key, lookup, verification (rsc_load_ex with RSC_LOAD_DEFER: the
 * DFA the selection runs is verified by rsc_select; a part that fails is
 * RSC_STORE_E_BLOB), selection, match. *verdict is
 * RSC_STORE_ALLOW or RSC_STORE_DISALLOW when RSC_STORE_OK is returned.
 * RSC_STORE_NOTFOUND: no record, or the record expired (expires <= now;
 * now 0: expiry not checked). RSC_STORE_E_KEY: the URL has no robots.txt.
 * cache is nullable. A cache holds the selections of one set of agents
 * (the names, in order, byte for byte): a call with other agents than the
 * last call's empties it and fills it for them, so every call is answered
 * for its own agents. A worker that checks for one crawler keeps its
 * entries; one that alternates crawlers should keep a cache per crawler. */
RSC_API rsc_store_status rsc_store_check(rsc_store_txn *t, rsc_store_cache *cache,
                                 const rsc_bytes *agents, size_t n,
                                 const char *url, size_t len, int64_t now,
                                 int *verdict);

#ifdef __cplusplus
}
#endif
#endif
