/* SPDX-License-Identifier: Apache-2.0 */
/* The front end's commands: `robotsc lint --records` against every
 * RobotsParsingReporter.line row of the conformance helper files, and the
 * output and exit codes of `robotsc lint` and `robotsc parse --json`.
 * Usage: front_cli ROBOTSC CONFORMANCE_DIR TMP_DIR */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "testutil.h"

static const char *cli, *tmp;
static int passed;

/* Runs a shell command; returns its exit status and its output (malloc). */
static int run(const char *cmd, char **out)
{
    FILE *p = popen(cmd, "r");
    if (!p) {
        *out = NULL;
        return -1;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += r;
        if (cap - n - 1 == 0) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    buf[n] = 0;
    *out = buf;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void write_file(const char *path, const char *body, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(body, 1, len, f) != len) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(2);
    }
    fclose(f);
}

/* Runs `robotsc ARGS` (ARGS may hold %s for the file, once) on a body. */
static int run_on(const char *args, const char *body, size_t len, char **out)
{
    char path[4096], a[4096], cmd[8192];
    snprintf(path, sizeof path, "%s/front_cli.txt", tmp);
    write_file(path, body, len);
    snprintf(a, sizeof a, args, path);
    snprintf(cmd, sizeof cmd, "'%s' %s", cli, a);
    return run(cmd, out);
}

static void records_file(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        TU_CHECK(0, "cannot open %s", path);
        return;
    }
    char *line;
    while ((line = tu_getline(f)) != NULL) {
        char *fields[4];
        if (tu_split_tabs(line, fields, 4) == 4 &&
            strcmp(fields[1], "RobotsParsingReporter.line") == 0) {
            size_t blen = 0, elen = 0;
            char *body = tu_unescape(fields[2], &blen);
            char *want = tu_unescape(fields[3], &elen);
            char *out = NULL;
            int st = run_on("lint --records '%s'", body, blen, &out);
            unsigned long num = strtoul(want + 5, NULL, 10);
            /* Line num of the output. */
            const char *p = out ? out : "";
            for (unsigned long k = 1; k < num && p; k++) {
                p = strchr(p, '\n');
                if (p)
                    p++;
            }
            size_t plen = p ? strcspn(p, "\n") : 0;
            if (st == 0 && p && plen == elen && memcmp(p, want, elen) == 0)
                passed++;
            else
                TU_CHECK(0, "%s: exit %d, line %lu: got '%.*s', want '%s'", fields[0], st, num,
                         (int)plen, p ? p : "", want);
            free(out);
            free(body);
            free(want);
        }
        free(line);
    }
    fclose(f);
}

static void expect(const char *name, const char *args, const char *body, size_t len,
                   int want_status, const char *want_out)
{
    char *out = NULL;
    int st = run_on(args, body, len, &out);
    int ok = st == want_status && out &&
             (want_out[0] == '^' ? strncmp(out, want_out + 1, strlen(want_out + 1)) == 0
                                 : strcmp(out, want_out) == 0);
    if (ok)
        passed++;
    else
        TU_CHECK(0, "%s: exit %d (want %d), output:\n%s\nwant:\n%s", name, st, want_status,
                 out ? out : "(none)", want_out);
    free(out);
}
#define EXPECT(name, args, body, st, out) expect(name, args, body, sizeof(body) - 1, st, out)

static const char lint_body[] =
    "Disallow: /early\n"
    "useragent: a\n"
    "Disallow /x\n"
    "foo: bar\n"
    "Allow: x\n"
    "not a directive\n";

static const char lint_out[] =
    "F:1: warning: rule before the first user-agent line is ignored [rule-before-agent]\n"
    "F:2: warning: accepted typo of a directive name [typo]\n"
    "F:3: warning: directive without ':' accepted [missing-colon]\n"
    "F:4: warning: unknown directive: 'foo' [unknown-directive]\n"
    "F:5: warning: pattern starts with neither '/' nor '*' and can never match: 'x' "
    "[dead-pattern]\n"
    "F:6: warning: line is not a directive [invalid-line]\n";

static const char json_body[] = "\xEF\xBB\xBFUser-agent: *\r\nDisallow: /\xC3\xA9\"\\\n"
                                "Sitemap: s\x01\nHost: h\n";

static const char json_out[] =
    "{\n"
    "  \"profile\": \"google\",\n"
    "  \"input_len\": 54,\n"
    "  \"body_len\": 54,\n"
    "  \"truncated\": false,\n"
    "  \"bom_len\": 3,\n"
    "  \"looks_html\": false,\n"
    "  \"looks_binary\": false,\n"
    "  \"lines\": [\n"
    "    {\"line\": 1, \"offset\": 3, \"length\": 13, \"tag\": \"UserAgent\", \"is_empty\": false, "
    "\"has_comment\": false, \"is_comment\": false, \"has_directive\": true, "
    "\"is_acceptable_typo\": false, \"is_line_too_long\": false, "
    "\"is_missing_colon_separator\": false},\n"
    "    {\"line\": 2, \"offset\": 18, \"length\": 15, \"tag\": \"Disallow\", \"is_empty\": false, "
    "\"has_comment\": false, \"is_comment\": false, \"has_directive\": true, "
    "\"is_acceptable_typo\": false, \"is_line_too_long\": false, "
    "\"is_missing_colon_separator\": false},\n"
    "    {\"line\": 3, \"offset\": 34, \"length\": 11, \"tag\": \"Sitemap\", \"is_empty\": false, "
    "\"has_comment\": false, \"is_comment\": false, \"has_directive\": true, "
    "\"is_acceptable_typo\": false, \"is_line_too_long\": false, "
    "\"is_missing_colon_separator\": false},\n"
    "    {\"line\": 4, \"offset\": 46, \"length\": 7, \"tag\": \"Unused\", \"is_empty\": false, "
    "\"has_comment\": false, \"is_comment\": false, \"has_directive\": true, "
    "\"is_acceptable_typo\": false, \"is_line_too_long\": false, "
    "\"is_missing_colon_separator\": false},\n"
    "    {\"line\": 5, \"offset\": 54, \"length\": 0, \"tag\": \"Unknown\", \"is_empty\": true, "
    "\"has_comment\": false, \"is_comment\": false, \"has_directive\": false, "
    "\"is_acceptable_typo\": false, \"is_line_too_long\": false, "
    "\"is_missing_colon_separator\": false}\n"
    "  ],\n"
    "  \"groups\": [\n"
    "    {\"line\": 1, \"agents\": [{\"line\": 1, \"raw\": \"*\", \"token\": \"\", \"global\": true}], "
    "\"rules\": [0]}\n"
    "  ],\n"
    "  \"rules\": [\n"
    "    {\"line\": 2, \"group\": 0, \"allow\": false, \"raw\": \"/\\u00c3\\u00a9\\\"\\\\\", "
    "\"pattern\": \"/%C3%A9\\\"\\\\\", \"priority\": 9}\n"
    "  ],\n"
    "  \"sitemaps\": [\n"
    "    {\"line\": 3, \"url\": \"s\\u0001\"}\n"
    "  ],\n"
    "  \"directives\": [\n"
    "    {\"line\": 4, \"group\": 0, \"key\": \"Host\", \"value\": \"h\", \"raw\": \"h\"}\n"
    "  ]\n"
    "}\n";

static void command_cases(void)
{
    char *out = NULL;
    char path[4096], cmd[8192];
    snprintf(path, sizeof path, "%s/F", tmp);
    write_file(path, lint_body, sizeof lint_body - 1);
    /* Print the file name as given: run from tmp with the name "F". */
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' lint F", tmp, cli);
    int st = run(cmd, &out);
    if (st == 1 && out && strcmp(out, lint_out) == 0)
        passed++;
    else
        TU_CHECK(0, "lint output: exit %d\n%s", st, out ? out : "");
    free(out);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' lint - < F", tmp, cli);
    st = run(cmd, &out);
    TU_CHECK(st == 1 && out && strncmp(out, "<stdin>:1: warning: ", 20) == 0,
             "lint on stdin: exit %d", st);
    free(out);

    EXPECT("lint: clean file exits 0", "lint '%s'", "User-agent: *\nDisallow: /\n", 0, "");
    EXPECT("lint: whole-file warning has no line", "lint '%s' | sed 's|.*/||'",
           "<html><body>x</body></html>", 0, "front_cli.txt: warning: content looks like HTML, "
                                             "not robots.txt [html]\n");
    EXPECT("lint --profile rfc", "lint --profile rfc '%s'", "User-agent: *\n", 0, "");
    EXPECT("lint --profile=google", "lint --profile=google '%s'", "User-agent: *\n", 0, "");
    EXPECT("lint --records", "lint --records '%s'", "a b c\n",
           0, "line=1 tag=Unknown typo=0 is_empty=0 has_comment=0 is_comment=0 "
              "has_directive=0 is_acceptable_typo=0 is_line_too_long=0 "
              "is_missing_colon_separator=0\n"
              "line=2 tag=Unknown typo=0 is_empty=1 has_comment=0 is_comment=0 "
              "has_directive=0 is_acceptable_typo=0 is_line_too_long=0 "
              "is_missing_colon_separator=0\n");
    EXPECT("lint --help", "lint --help", "", 0, "^usage: robotsc lint");
    EXPECT("lint -h", "lint -h", "", 0, "^usage: robotsc lint");
    EXPECT("lint: unknown option", "lint --bogus '%s' 2>&1", "", 2, "^robotsc lint: ");
    EXPECT("lint: bad profile", "lint --profile x '%s' 2>&1", "", 2, "^robotsc lint: ");
    EXPECT("lint: no file", "lint 2>&1", "", 2, "^robotsc lint: ");
    EXPECT("lint: two files", "lint '%s' x 2>&1", "", 2, "^robotsc lint: ");
    EXPECT("lint: missing file", "lint /nonexistent/robots.txt 2>&1", "", 2,
           "^robotsc lint: /nonexistent/robots.txt: ");
    EXPECT("parse --json", "parse --json '%s'", json_body, 0, json_out);
    EXPECT("parse --json --profile rfc", "parse --json --profile rfc '%s' | head -2", "", 0,
           "{\n  \"profile\": \"rfc\",\n");
    EXPECT("parse: empty body", "parse --json '%s' | tail -6", "", 0,
           "  ],\n  \"groups\": [],\n  \"rules\": [],\n  \"sitemaps\": [],\n"
           "  \"directives\": []\n}\n");
    EXPECT("parse --help", "parse --help", "", 0, "^usage: robotsc parse");
    EXPECT("parse: unknown option", "parse --records '%s' 2>&1", "", 2, "^robotsc parse: ");
    EXPECT("parse: missing file", "parse --json /nonexistent 2>&1", "", 2, "^robotsc parse: ");
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: front_cli ROBOTSC CONFORMANCE_DIR TMP_DIR\n");
        return 2;
    }
    cli = argv[1];
    tmp = argv[3];
    command_cases();
    if (tu_dir_exists(argv[2])) {
        records_file(argv[2], "google_helper_cases.tsv");
        records_file(argv[2], "google_extra_helper_cases.tsv");
    } else {
        printf("conformance data not found at %s: record rows skipped\n", argv[2]);
    }
    return tu_report("front-end commands", passed);
}
