/* SPDX-License-Identifier: Apache-2.0 */
/* Test helpers: file reading, TSV rows, base64 and C-escape decoding (the
 * encodings of ../shared/conformance), and a tiny check macro. */
#ifndef RSC_TESTUTIL_H
#define RSC_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Reads a whole file; returns a malloc'ed buffer (NUL-terminated, the NUL
 * not counted in *len) or NULL. */
char *tu_read_file(const char *path, size_t *len);

/* Splits a line (modified in place) at tabs into at most max fields; returns
 * the number of fields. A trailing '\n' (and '\r' before it) is dropped. */
size_t tu_split_tabs(char *line, char **fields, size_t max);

/* Decodes standard base64 into a malloc'ed buffer; NULL on bad input. */
unsigned char *tu_base64(const char *s, size_t *len);

/* Decodes C escapes (\\ \" \n \r \t \ooo) into a malloc'ed buffer. */
char *tu_unescape(const char *s, size_t *len);

/* Iterates over the lines of a file: returns a malloc'ed line or NULL at EOF. */
char *tu_getline(FILE *f);

/* Counts failures; prints where. TU_COUNT also counts the checks that
 * pass, in tu_passed (for tu_report). Each evaluates cond once. */
extern int tu_failures, tu_passed;
#define TU_FAIL_(text, ...)                                                   \
    do {                                                                      \
        tu_failures++;                                                        \
        fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__,      \
                text);                                                        \
        fprintf(stderr, __VA_ARGS__);                                         \
        fputc('\n', stderr);                                                  \
    } while (0)
#define TU_CHECK(cond, ...)                                                   \
    do {                                                                      \
        if (!(cond))                                                          \
            TU_FAIL_(#cond, __VA_ARGS__);                                     \
    } while (0)
#define TU_COUNT(cond, ...)                                                   \
    do {                                                                      \
        if (cond)                                                             \
            tu_passed++;                                                      \
        else                                                                  \
            TU_FAIL_(#cond, __VA_ARGS__);                                     \
    } while (0)

/* A growable byte string, always NUL-terminated; exits on allocation
 * failure (tests only). Start from {NULL, 0, 0}; free(b.p) when done. */
typedef struct tu_buf {
    char *p;
    size_t n, cap;
} tu_buf;
void tu_buf_put(tu_buf *b, const void *s, size_t n);
void tu_buf_puts(tu_buf *b, const char *s);

/* Prints "N passed, M failed" and returns the exit status. */
int tu_report(const char *what, int passed);

/* Returns 1 if the directory exists. */
int tu_dir_exists(const char *path);

/* The robots.txt t[0..n) with the given lines (1-based, as the IR counts
 * them: a line ends at LF, CR LF or CR) replaced by "Disallow:", which never
 * decides (spec E.5) but, like the rule it replaces, ends a group's agent
 * lines (F.3): deleting the last rule of a group would merge it with the
 * next one. Line ends are kept as they were. out needs n + 9 * nl bytes;
 * returns the length written. */
size_t tu_drop_lines(const char *t, size_t n, const uint32_t *lines, size_t nl, char *out);

/* One row of a verdict file (../shared/conformance, files named *_cases.tsv): id,
 * robots_b64, user_agent, url, expected. Every buffer is malloc'ed and
 * NUL-terminated (the NUL not counted). */
typedef struct tu_case {
    char *id;
    unsigned char *body;
    size_t body_len;
    char *agent;
    size_t agent_len;
    char *url;
    size_t url_len;
    int expected; /* 1 allowed, 0 disallowed */
} tu_case;

/* Appends the rows of a verdict file to *cases (*n of them so far; both
 * start as NULL/0). Returns the number of rows read, or -1 when the file
 * cannot be read or a row is malformed (a message is printed). */
long tu_load_cases(const char *path, tu_case **cases, size_t *n);
void tu_free_cases(tu_case *cases, size_t n);

#endif
