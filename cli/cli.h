/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc command-line program: shared declarations. Each command is a
 * function taking the arguments after the command name (argv[0] is the
 * command name) and returning the exit status. Exit codes: 0 success (or
 * allowed), 1 warnings (lint) or disallowed (check), 2 usage or errors. */
#ifndef ROBOTSC_CLI_H
#define ROBOTSC_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int rsc_cmd_lint(int argc, char **argv);    /* cli/cmd_front.c */
int rsc_cmd_parse(int argc, char **argv);   /* cli/cmd_front.c */
int rsc_cmd_compile(int argc, char **argv); /* cli/cmd_compile.c */
int rsc_cmd_check(int argc, char **argv);   /* cli/cmd_compile.c */
int rsc_cmd_dump(int argc, char **argv);    /* cli/cmd_compile.c */
int rsc_cmd_info(int argc, char **argv);    /* cli/cmd_compile.c */
int rsc_cmd_url(int argc, char **argv);     /* cli/cmd_url.c */
int rsc_cmd_fetch(int argc, char **argv);   /* cli/cmd_fetch.c */
int rsc_cmd_bench(int argc, char **argv);   /* cli/cmd_bench.c */
int rsc_cmd_diff(int argc, char **argv);    /* cli/cmd_diff.c */
int rsc_cmd_upgrade(int argc, char **argv); /* cli/cmd_upgrade.c */
/* diff with OLD given as a blob in memory (store diff): argv then names NEW only. */
int rsc_cli_diff_run(int argc, char **argv, const char *old_name, const void *old_blob, size_t old_len);
int rsc_cmd_store_diff(int argc, char **argv); /* cli/store_diff.c (RSC_HAVE_STORE) */
/* diff of two blobs in memory, default options (store put --report-changes). */
int rsc_cli_diff_mem(const char *old_name, const void *old_blob, size_t old_len, const char *new_name,
                     const void *new_blob, size_t new_len);
/* store put --report-changes: the diff of key's stored record (if any) and
 * the blob about to replace it, on stdout (cli/store_diff.c). */
struct rsc_store;
void rsc_cli_store_report(struct rsc_store *st, const char *key, size_t key_len, const void *blob,
                          size_t blob_len);
int rsc_cmd_store(int argc, char **argv);   /* cli/cmd_store.c (RSC_HAVE_STORE) */
int rsc_store_fetch(int argc, char **argv); /* cli/store_fetch.c: fetch --store */

/* lint's semantic part and options (cli/cmd_semlint.c, docs/LINT.md). */
struct rsc_ir;
struct rsc_diagnostic;
typedef struct rsc_cli_lintopts {
    const char *no_warn[64]; /* --no-warn CODE */
    size_t n_no_warn;
    int json;     /* --json */
    int semantic; /* 0 with --no-semantic */
    /* Set by lint from the file's bytes: the line of the first bytes that
     * are not UTF-8 (0: none), reported as compile reports it [encoding]. */
    unsigned long non_utf8_line;
} rsc_cli_lintopts;
/* Takes --no-warn, --json and --no-semantic out of argv. 0, or 2 after a message. */
int rsc_cli_lint_opts(int *argc, char **argv, rsc_cli_lintopts *o);
/* Reports the syntax lint (through text_fn, which counts in *text_count,
 * unless --json) and the semantic lint; returns the warnings reported
 * (notes excluded). */
unsigned long rsc_cli_lint_report(const struct rsc_ir *ir, const char *name, const rsc_cli_lintopts *o,
                                  void (*text_fn)(void *, const struct rsc_diagnostic *), void *text_ud,
                                  unsigned long *text_count);

/* Reads a whole file ("-" is standard input). Returns a malloc'ed buffer
 * or NULL with errno set. */
unsigned char *rsc_cli_read(const char *path, size_t *len);

/* Writes path's new content. "-" is standard output. A symbolic link is
 * followed (hop by hop, a dangling one too) and the file it names is
 * written, so the link itself survives. A regular file (or a missing one)
 * is replaced in one step: a temporary file in the same directory,
 * fsync'ed, then renamed over it, so that on any failure it is untouched
 * and no partial file is left. A FIFO or a character device (/dev/null,
 * /dev/stdout, a pipe's reader) is written through, never replaced, and
 * so is a regular file named by a path under /dev/ or /proc/ (/dev/stdout
 * redirected to a file, whose links name no place to rename in). Any
 * other target (a directory, a socket, a block device) is refused: -1 with
 * errno EISDIR or EINVAL. Returns 0, or -1 with errno set; say why with
 * rsc_cli_write_error(errno). */
int rsc_cli_write_atomic(const char *path, const void *data, size_t len);
const char *rsc_cli_write_error(int err);
/* 1 when out names the file in was read from (both exist and stat() gives
 * the same device and inode: the same name, a link to it, a hard link);
 * in "-" is standard input, compared when it is a regular file. Writing
 * out would then destroy the input. */
int rsc_cli_same_file(const char *in, const char *out);

/* 1 when p[0..n) looks like UTF-16 text: a byte order mark, or ASCII with a
 * NUL after (or before) each character in the first bytes. */
int rsc_cli_looks_utf16(const unsigned char *p, size_t n);

/* Line of the first byte sequence that is not UTF-8, or 0. */
unsigned long rsc_cli_first_non_utf8(const unsigned char *p, size_t n);

/* Writes s[0..n) with '\' as "\\" and bytes outside printable ASCII as
 * "\xHH": file content never reaches a terminal raw. */
void rsc_cli_escaped(FILE *out, const char *s, size_t n);

/* The next URL of a command: args[*k] while *k < n (then *k moves on),
 * else, when there were no arguments, the next non-empty line of stdin
 * without its line end (*line and *cap hold getline's buffer; free
 * *line when done). Returns 0 at the end. */
int rsc_cli_next_url(char **args, size_t n, size_t *k, char **line, size_t *cap,
                     const char **url, size_t *len);

/* The crawler's name (docs/SEMANTICS.md, "The crawler's name").
 * rsc_cli_agent: an --agent value, matched as given (never cut), with a
 * warning on stderr when it is not a product token. Returns 0.
 * rsc_cli_user_agent: a --user-agent value (a whole User-Agent header or
 * Name/version), reduced to its product token (rsc_agent_token). Returns
 * 0, or 2 after a message when it has none. */
struct rsc_bytes;
int rsc_cli_agent(const char *cmd, const char *val, struct rsc_bytes *out);
int rsc_cli_user_agent(const char *cmd, const char *val, struct rsc_bytes *out);

/* Matches argv[*i] against --agent, --exact-agent (an alias of --agent)
 * and --user-agent, appending to agents[*n] (at most max). Returns 0 when
 * argv[*i] is none of them, -1 when it was taken, 2 after a message. */
int rsc_cli_agent_opt(const char *cmd, int argc, char **argv, int *i, struct rsc_bytes *agents,
                      size_t *n, size_t max);

/* rsc_classify()'s rule for a file read where a robots.txt or a blob may
 * be: 1 a blob (rsc_load it: a failure is an error), 0 text to compile, or
 * 2 after a message for a damaged blob or binary content, unless text
 * (--text) asks to read those as a robots.txt. */
int rsc_cli_classify(const char *cmd, const char *path, const unsigned char *data, size_t len, int text);

/* Prints "robotsc CMD: warning: message" to stderr, escaped as
 * rsc_cli_fail does. */
void rsc_cli_warn(const char *cmd, const char *fmt, ...);

/* Prints "robotsc CMD: message" to stderr, every byte outside printable
 * ASCII as \xHH, and returns 2. */
int rsc_cli_fail(const char *cmd, const char *fmt, ...);

/* Matches argv[*i] against "NAME VALUE" or "NAME=VALUE", advancing *i past
 * the value. Returns 1 when matched (value in *val), -1 when the value is
 * missing, 0 when argv[*i] is another argument. */
int rsc_cli_opt(int argc, char **argv, int *i, const char *name, const char **val);

/* Returns 1 if arg is "-h" or "--help". */
int rsc_cli_is_help(const char *arg);

/* Writes s[0..n) as a JSON string: '"' and '\' escaped, control bytes and
 * DEL as \u00XX, valid UTF-8 as it is (a parser gets the characters), and
 * each byte that is not part of valid UTF-8 as \ufffd (U+FFFD, the
 * replacement character: such bytes are not kept; robotsc parse --json
 * keeps bytes exactly, docs/IR_JSON.md). */
void rsc_cli_json_str(FILE *out, const char *s, size_t n);

/* A whole decimal integer (no sign check, no trailing bytes, no overflow)
 * into *out: 0, else -1. */
int rsc_cli_i64(const char *s, int64_t *out);

/* A --timeout value: seconds in (0, 86400] into *out: 0, else 2 after a
 * message. */
int rsc_cli_timeout(const char *cmd, const char *val, double *out);

#endif
