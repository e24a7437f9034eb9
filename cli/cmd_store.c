/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc store: build, query and maintain an LMDB store of compiled
 * robots.txt programs keyed by origin (include/robotsc/store.h,
 * docs/CRAWLER.md "The store"). This file: the subcommand table and the
 * helpers the subcommands share (store_cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "store_cmd.h"

int store_exists(const char *path)
{
    /* LMDB would create a new empty store at a mistyped path (a writer),
     * and del or gc would then report success on it: only build, put and
     * fetch --store create one. */
    struct stat sb;
    if (stat(path, &sb) != 0) {
        if (errno == ENOENT)
            return rsc_cli_fail(CMD, "%s: no such store (store build or store put creates one)", path);
        return rsc_cli_fail(CMD, "%s: %s", path, strerror(errno));
    }
    if (!S_ISREG(sb.st_mode) || sb.st_size == 0)
        return rsc_cli_fail(CMD, "%s: not a store (%s)", path,
                            S_ISDIR(sb.st_mode) ? "a directory" : !S_ISREG(sb.st_mode) ? "not a regular file"
                                                                                         : "an empty file");
    return 0;
}

rsc_store *open_store(const char *path, int readonly, int no_sync)
{
    return store_exists(path) ? NULL : create_store(path, readonly, no_sync);
}

rsc_store *create_store(const char *path, int readonly, int no_sync)
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

rsc_store *open_reader(const char *path, rsc_store_txn **t)
{
    rsc_store *st = open_store(path, 1, 0);
    if (st && rsc_store_begin(st, t) != RSC_STORE_OK) {
        rsc_cli_fail(CMD, "%s: %s", path, rsc_store_last_error(st));
        rsc_store_close(st);
        return NULL;
    }
    return st;
}

int key_of(const char *arg, rsc_origin *o)
{
    rsc_url_status us = rsc_origin_parse(arg, strlen(arg), o);
    if (us != RSC_URL_OK) {
        rsc_cli_fail(CMD, "%s: %s", arg, rsc_url_strerror(us));
        return -1;
    }
    return 0;
}

int now_of(const char *val, int64_t *now)
{
    return rsc_cli_i64(val, now) != 0 ? rsc_cli_fail(CMD, "--now: Unix seconds, not '%s'", val) : 0;
}

int profile_of(const char *val, int *profile)
{
    if (strcmp(val, "google") == 0)
        *profile = RSC_PROFILE_GOOGLE;
    else if (strcmp(val, "rfc") == 0)
        *profile = RSC_PROFILE_RFC;
    else
        return rsc_cli_fail(CMD, "unknown profile '%s' (google or rfc)", val);
    return 0;
}

int positional(const char *arg, const char **pos, size_t n)
{
    if (arg[0] == '-' && arg[1] != 0)
        return rsc_cli_fail(CMD, "unknown option '%s'", arg);
    for (size_t k = 0; k < n; k++)
        if (!pos[k]) {
            pos[k] = arg;
            return 0;
        }
    return 1;
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
    {"upgrade", cmd_store_upgrade, "rebuild format-4 records in the current format"},
    {"diff", rsc_cmd_store_diff, "compare an origin's record with a new robots.txt or blob"},
};

int rsc_cmd_store(int argc, char **argv)
{
    if (argc < 2 || rsc_cli_is_help(argv[1])) {
        FILE *out = argc < 2 ? stderr : stdout;
        fputs("usage: robotsc store SUBCOMMAND DB ...   (robotsc store SUBCOMMAND --help for more)\n"
              "A store is one LMDB file of compiled robots.txt programs keyed by origin.\n\n",
              out);
        for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
            fprintf(out, "  %-7s %s\n", subs[i].name, subs[i].what);
        fputs("\nrobotsc fetch --store DB URL... fetches many origins into DB.\n", out);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(argv[1], subs[i].name) == 0)
            return subs[i].fn(argc - 1, argv + 1);
    return rsc_cli_fail(CMD, "unknown subcommand '%s' (robotsc store --help)", argv[1]);
}
