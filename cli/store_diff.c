/* SPDX-License-Identifier: Apache-2.0 */
/* `robotsc store diff DB ORIGIN NEW [diff options]`: the stored record of
 * an origin against a new robots.txt or blob, before it replaces it
 * (cmd_diff.c does the comparing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_cmd.h"

int rsc_cmd_store_diff(int argc, char **argv)
{
    const char *db = NULL, *origin = NULL;
    int k = 1;
    for (int i = 1; i < argc; i++) {
        if (rsc_cli_is_help(argv[i])) {
            puts("usage: robotsc store diff DB ORIGIN_OR_URL NEW [robotsc diff options]\n"
                 "Compares the origin's stored record with NEW (a robots.txt or a blob), as\n"
                 "robotsc diff does. Exit 0 the same, 1 different, 2 errors (no record, a\n"
                 "damaged record, a NEW that looks binary, UTF-16 or like a damaged blob: --text\n"
                 "reads it as a robots.txt) or unknown.");
            return 0;
        }
        /* DB and ORIGIN are the first two plain arguments; the rest go to diff */
        static const char *const valued[] = {"--agent", "--profile", "--witnesses", "--urls", "--max-states"};
        int takes = 0;
        for (size_t v = 0; v < sizeof valued / sizeof *valued; v++)
            takes |= strcmp(argv[i], valued[v]) == 0;
        if (takes && i + 1 < argc) {
            argv[k++] = argv[i++];
            argv[k++] = argv[i];
        } else if (argv[i][0] != '-' && !db)
            db = argv[i];
        else if (argv[i][0] != '-' && !origin)
            origin = argv[i];
        else
            argv[k++] = argv[i];
    }
    argv[k] = NULL;
    if (!db || !origin)
        return rsc_cli_fail("store", "usage: robotsc store diff DB ORIGIN_OR_URL NEW");
    rsc_origin o;
    rsc_url_status us = rsc_origin_parse(origin, strlen(origin), &o);
    if (us != RSC_URL_OK)
        return rsc_cli_fail("store", "%s: %s", origin, rsc_url_strerror(us));
    rsc_store *st = open_store(db, 1, 0); /* an existing store (store_cmd.h) */
    if (!st)
        return 2;
    rsc_store_status s;
    rsc_store_txn *t = NULL;
    rsc_store_record r;
    rsc_load_error le = {0, NULL};
    rsc_program p;
    void *copy = NULL;
    size_t len = 0;
    int rc = 0;
    if ((s = rsc_store_begin(st, &t)) != RSC_STORE_OK)
        rc = rsc_cli_fail("store", "%s: %s", db, rsc_store_last_error(st));
    else if ((s = rsc_store_get(t, o.key, o.key_len, &r, &p, &le)) != RSC_STORE_OK)
        rc = rsc_cli_fail("store", "%s: %s", o.key, s == RSC_STORE_NOTFOUND ? "no record" : rsc_store_strerror(s));
    else if (!(copy = malloc(r.blob_len + 1))) /* the map is only valid in the transaction */
        rc = rsc_cli_fail("store", "out of memory");
    else
        memcpy(copy, r.blob, len = r.blob_len);
    rsc_store_end(t);
    rsc_store_close(st);
    if (rc == 0)
        rc = rsc_cli_diff_run(k, argv, o.key, copy, len);
    free(copy);
    return rc;
}

void rsc_cli_store_report(rsc_store *st, const char *key, size_t key_len, const void *blob, size_t blob_len)
{
    rsc_store_txn *t = NULL;
    rsc_store_record r;
    rsc_program p;
    rsc_load_error le = {0, NULL};
    void *copy = NULL;
    size_t len = 0;
    rsc_store_status s = rsc_store_begin(st, &t);
    if (s == RSC_STORE_OK)
        s = rsc_store_get(t, key, key_len, &r, &p, &le);
    if (s == RSC_STORE_OK && (copy = malloc(r.blob_len + 1)) != NULL)
        memcpy(copy, r.blob, len = r.blob_len);
    rsc_store_end(t); /* before the write: the map may grow */
    printf("changes %.*s: ", (int)key_len, key);
    if (s == RSC_STORE_NOTFOUND) {
        puts("new record");
    } else if (!copy) {
        printf("the stored record cannot be compared (%s)\n", rsc_store_strerror(s));
    } else {
        putchar('\n');
        rsc_cli_diff_mem("stored", copy, len, "new", blob, blob_len);
    }
    free(copy);
}
