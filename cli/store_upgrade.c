/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc store upgrade DB: every format-4 record of an existing store
 * rebuilt in the current format (compiler/v4read.h), its metadata kept, all
 * of them written in one LMDB transaction: a reader sees the old store or
 * the upgraded one, never a mix, and a failure changes nothing. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../compiler/v4read.h"
#include "store_cmd.h"

static const char usage[] =
    "usage: robotsc store upgrade [--force] [--keep-bad] [--dry-run] DB\n"
    "Rebuilds every record of DB whose blob is format 4 (robotsc 1.0.x) in the current\n"
    "format from the blob's own rules, groups, sitemaps and directives (no robots.txt\n"
    "needed; see robotsc upgrade), keeping the record's metadata, and writes them all\n"
    "in one LMDB transaction. Records already in the current format are left as they\n"
    "are (--force rebuilds format-4 records even when format 4 is current). A record\n"
    "that cannot be read or rebuilt stops the upgrade with nothing written, unless\n"
    "--keep-bad leaves such records untouched (exit 1). --dry-run rebuilds and\n"
    "reports without writing. DB must be an existing store: no store is ever created.\n"
    "Run it while no other process writes to DB (readers may go on).";

/* One record to write back: copies, since the read transaction ends first. */
typedef struct item {
    char *key;
    size_t key_len;
    rsc_store_meta meta;
    char *strs; /* source_url, etag, last_modified */
    rsc_blob blob;
} item;

typedef struct scan {
    item *items;
    size_t n, cap;
    size_t current, bad, records;
    int force, keep_bad, failed_nomem;
} scan;

static int visit(void *ud, const char *key, size_t key_len, rsc_store_status status,
                 const rsc_store_record *rec)
{
    scan *s = ud;
    s->records++;
    if (status != RSC_STORE_OK && status != RSC_STORE_E_STALE) {
        rsc_cli_warn(CMD, "%.*s: %s", (int)key_len, key, rsc_store_strerror(status));
        s->bad++;
        return 0;
    }
    rsc_blob nb = {NULL, 0};
    rsc_v4_error e = {0, ""};
    int what = 0;
    rsc_status st = rsc_v4_upgrade(rec->blob, rec->blob_len, s->force, &nb, &e, &what);
    if (st != RSC_OK) {
        rsc_cli_warn(CMD, "%.*s: %s at offset %zu: %s", (int)key_len, key, rsc_strerror(st), e.offset,
                     e.what ? e.what : "");
        s->bad++;
        return 0;
    }
    if (what == RSC_V4_CURRENT) {
        rsc_blob_free(&nb, NULL);
        s->current++;
        return 0;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        item *p = realloc(s->items, cap * sizeof *p);
        if (!p)
            goto nomem;
        s->items = p;
        s->cap = cap;
    }
    item *it = &s->items[s->n];
    memset(it, 0, sizeof *it);
    const rsc_store_meta *m = &rec->meta;
    const size_t sl = m->source_url.len, el = m->etag.len, ll = m->last_modified.len;
    it->key = malloc(key_len + 1);
    it->strs = malloc(sl + el + ll + 1);
    if (!it->key || !it->strs) {
        free(it->key);
        free(it->strs);
        goto nomem;
    }
    memcpy(it->key, key, key_len);
    it->key_len = key_len;
    it->meta = *m;
    memcpy(it->strs, m->source_url.ptr, sl);
    memcpy(it->strs + sl, m->etag.ptr, el);
    memcpy(it->strs + sl + el, m->last_modified.ptr, ll);
    it->meta.source_url.ptr = it->strs;
    it->meta.etag.ptr = it->strs + sl;
    it->meta.last_modified.ptr = it->strs + sl + el;
    it->blob = nb;
    s->n++;
    return 0;
nomem:
    rsc_blob_free(&nb, NULL);
    s->failed_nomem = 1;
    return 1;
}

static void scan_free(scan *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->items[i].key);
        free(s->items[i].strs);
        rsc_blob_free(&s->items[i].blob, NULL);
    }
    free(s->items);
}

/* An existing regular file that starts as an LMDB data file does (the meta
 * page's magic 0xBEEFC0DE after its page header: 16 bytes, 12 where size_t
 * has 32 bits; little-endian machines): checked before
 * LMDB opens it, so that a mistyped path creates nothing (not even the
 * lock file LMDB would make beside it). */
static int looks_like_store(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        rsc_cli_fail(CMD, "%s: %s (store upgrade never creates a store)", path, strerror(errno));
        return 0;
    }
    if (!S_ISREG(sb.st_mode)) {
        rsc_cli_fail(CMD, "%s: not a store (not a regular file)", path);
        return 0;
    }
    unsigned char h[20];
    FILE *f = fopen(path, "rb");
    const int ok = f && fread(h, 1, sizeof h, f) == sizeof h &&
                   ((h[16] == 0xDE && h[17] == 0xC0 && h[18] == 0xEF && h[19] == 0xBE) ||
                    (sizeof(size_t) == 4 && h[12] == 0xDE && h[13] == 0xC0 && h[14] == 0xEF && h[15] == 0xBE));
    if (f)
        fclose(f);
    if (!ok)
        rsc_cli_fail(CMD, "%s: not a store (no LMDB header)", path);
    return ok;
}

int cmd_store_upgrade(int argc, char **argv)
{
    const char *db = NULL;
    scan s;
    memset(&s, 0, sizeof s);
    int dry = 0;
    for (int i = 1; i < argc; i++) {
        if (rsc_cli_is_help(argv[i])) {
            puts(usage);
            return 0;
        } else if (strcmp(argv[i], "--force") == 0) {
            s.force = 1;
        } else if (strcmp(argv[i], "--keep-bad") == 0) {
            s.keep_bad = 1;
        } else if (strcmp(argv[i], "--dry-run") == 0) {
            dry = 1;
        } else {
            int r = positional(argv[i], &db, 1);
            if (r == 1)
                return rsc_cli_fail(CMD, "upgrade: one DB at a time (robotsc store upgrade --help)");
            if (r)
                return r;
        }
    }
    if (!db)
        return rsc_cli_fail(CMD, "upgrade: needs DB (robotsc store upgrade --help)");
    if (!looks_like_store(db))
        return 2;
    rsc_store_txn *t = NULL;
    rsc_store *st = open_reader(db, &t);
    if (!st)
        return 2;
    rsc_store_status r = rsc_store_foreach(t, visit, &s);
    rsc_store_end(t);
    rsc_store_close(st);
    int rc = 0;
    if (s.failed_nomem || r != RSC_STORE_OK) {
        rc = rsc_cli_fail(CMD, "%s: %s", db, s.failed_nomem ? "out of memory" : rsc_store_strerror(r));
        goto out;
    }
    if (s.bad && !s.keep_bad) {
        rc = rsc_cli_fail(CMD, "%s: %zu of %zu records cannot be upgraded: nothing written (--keep-bad "
                          "upgrades the others)", db, s.bad, s.records);
        goto out;
    }
    if (s.n && !dry) {
        rsc_store_item *items = calloc(s.n, sizeof *items);
        if (!items) {
            rc = rsc_cli_fail(CMD, "out of memory");
            goto out;
        }
        for (size_t i = 0; i < s.n; i++) {
            items[i].key = s.items[i].key;
            items[i].key_len = s.items[i].key_len;
            items[i].meta = &s.items[i].meta;
            items[i].blob = s.items[i].blob.data;
            items[i].blob_len = s.items[i].blob.size;
            items[i].verified = 1; /* rsc_v4_upgrade() loaded it */
        }
        st = open_store(db, 0, 0);
        size_t bad = 0;
        r = st ? rsc_store_put_many(st, items, s.n, &bad) : RSC_STORE_E_IO;
        if (st && r != RSC_STORE_OK)
            rc = rsc_cli_fail(CMD, "%s: %s (%s): nothing written", db, rsc_store_strerror(r),
                              rsc_store_last_error(st));
        else if (!st)
            rc = 2;
        rsc_store_close(st);
        free(items);
        if (rc)
            goto out;
    }
    printf("%s: %zu records: %zu %s, %zu already current, %zu left as they were\n", db, s.records, s.n,
           dry ? "would be rebuilt (dry run)" : "rebuilt", s.current, s.bad);
    rc = s.bad ? 1 : 0;
out:
    scan_free(&s);
    return rc;
}
