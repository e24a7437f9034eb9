/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc store: what its subcommands share. cmd_store.c holds the
 * subcommand table and these helpers; each subcommand lives in the file
 * named beside it below. Private to cli/. */
#ifndef ROBOTSC_STORE_CMD_H
#define ROBOTSC_STORE_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "robotsc/compiler.h"
#include "robotsc/crawl.h"
#include "robotsc/runtime.h"
#include "robotsc/store.h"

#define CMD "store"

/* The subcommands: arguments after "store" (argv[0] is the subcommand's
 * name); each returns the exit status. */
int cmd_build(int argc, char **argv); /* store_build.c */
int cmd_check(int argc, char **argv); /* store_check.c */
int cmd_get(int argc, char **argv);   /* store_admin.c, as the rest */
int cmd_put(int argc, char **argv);
int cmd_del(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_gc(int argc, char **argv);
int cmd_store_upgrade(int argc, char **argv); /* store_upgrade.c */

/* Opens an existing DB (store_exists), printing why not. */
rsc_store *open_store(const char *path, int readonly, int no_sync);

/* Opens DB, creating it when missing (build, put), printing why not. */
rsc_store *create_store(const char *path, int readonly, int no_sync);

/* 0 when path names a store to open (an existing non-empty regular file),
 * else 2 after "no such store" or "not a store". */
int store_exists(const char *path);

/* Opens DB read-only with a read transaction in *t; NULL after a message.
 * The caller ends *t and closes the store. */
rsc_store *open_reader(const char *path, rsc_store_txn **t);

/* An origin key from an origin or any URL of it: 0, or -1 after a message. */
int key_of(const char *arg, rsc_origin *o);

/* A --now value of build and check: Unix seconds into *now; 0, or 2 after
 * a message. */
int now_of(const char *val, int64_t *now);

/* A --profile value (google or rfc) into *profile: 0, or 2 after a message. */
int profile_of(const char *val, int *profile);

/* An argument that is none of the subcommand's options: an unknown option
 * is an error; anything else fills the first empty slot of pos[0..n).
 * Returns 0 when a slot took it, 2 after a message for an unknown option,
 * 1 when every slot is full (the caller decides what that means). */
int positional(const char *arg, const char **pos, size_t n);

#endif
