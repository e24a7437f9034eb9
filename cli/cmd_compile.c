/* SPDX-License-Identifier: Apache-2.0 */
/* Commands over blobs: compile, check, dump, info. A SOURCE is either a
 * robots.txt (compiled in memory) or a blob, told apart by the magic. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

#define BLOB_MAGIC "\x89RSC\x04" /* the magic and Format_Major 4 */
#define BLOB_MAGIC_LEN 5

/* A loaded SOURCE: the bytes, the blob (owned when compiled here), the
 * verified program. */
typedef struct source {
    unsigned char *file;
    size_t file_len;
    rsc_blob compiled;
    int is_blob;
    rsc_program prog;
} source;

static int parse_profile(const char *cmd, const char *s, rsc_profile *p)
{
    if (strcmp(s, "google") == 0)
        *p = RSC_PROFILE_GOOGLE;
    else if (strcmp(s, "rfc") == 0)
        *p = RSC_PROFILE_RFC;
    else
        return rsc_cli_fail(cmd, "unknown profile '%s' (google or rfc)", s);
    return 0;
}

/* A file is taken for a blob when its first bytes are the magic and
 * Format_Major with at most two bits changed, or a prefix of them: a damaged
 * or truncated blob, or one of another major, must be reported as such,
 * never compiled as a robots.txt that allows everything. No text file starts
 * like that (0x89 is not ASCII, and 0x04 is a control byte). */
static int looks_like_blob(const unsigned char *p, size_t len)
{
    size_t n = len < BLOB_MAGIC_LEN ? len : BLOB_MAGIC_LEN;
    int bits = 0;
    for (size_t i = 0; i < n; i++)
        for (unsigned d = p[i] ^ (unsigned char)BLOB_MAGIC[i]; d; d &= d - 1)
            bits++;
    return len >= BLOB_MAGIC_LEN ? bits <= 2 : n >= 1 && bits == 0;
}

static void source_free(source *s)
{
    rsc_blob_free(&s->compiled, NULL);
    free(s->file);
    memset(s, 0, sizeof *s);
}

/* Reads and loads SOURCE. profile_set: the user gave --profile. */
static int source_open(const char *cmd, const char *path, rsc_profile profile, int profile_set, source *s)
{
    memset(s, 0, sizeof *s);
    s->file = rsc_cli_read(path, &s->file_len);
    if (!s->file)
        return rsc_cli_fail(cmd, "%s: %s", path, strerror(errno));
    const void *blob = s->file;
    size_t blob_len = s->file_len;
    s->is_blob = looks_like_blob(s->file, s->file_len);
    if (!s->is_blob) {
        rsc_compile_options o = {0};
        o.profile = profile;
        rsc_status st = rsc_compile(s->file, s->file_len, &o, &s->compiled);
        if (st != RSC_OK) {
            source_free(s);
            return rsc_cli_fail(cmd, "%s: cannot compile: %s", path, rsc_strerror(st));
        }
        blob = s->compiled.data;
        blob_len = s->compiled.size;
    }
    rsc_load_error e = {0, NULL};
    rsc_status st = rsc_load(&s->prog, blob, blob_len, &e);
    if (st != RSC_OK) {
        int r = rsc_cli_fail(cmd, "%s: invalid blob: %s at byte %zu (%s)", path, rsc_strerror(st), e.offset,
                             e.what ? e.what : "");
        source_free(s);
        return r;
    }
    if (s->is_blob && profile_set && (int)profile != rsc_program_profile(&s->prog)) {
        int r = rsc_cli_fail(cmd, "%s: blob was compiled with the %s profile", path,
                             rsc_program_profile(&s->prog) ? "rfc" : "google");
        source_free(s);
        return r;
    }
    return 0;
}

/* Whole-file warnings of compile: what the compiler reports about the file
 * as a whole (binary, HTML, cut at 500 KiB), and encodings that are not
 * UTF-8. The blob is still what Google would make of the bytes. */
typedef struct whole_file {
    const char *name;
    int utf16;  /* said already: the binary warning would repeat it */
    int binary; /* said: the encoding warning would repeat it */
    unsigned count;
} whole_file;

static void warn(whole_file *w, const char *msg, const char *name)
{
    w->count++;
    fprintf(stderr, "robotsc compile: %s: warning: %s [%s]\n", w->name, msg, name);
}

static void on_compile_diag(void *ud, const rsc_diagnostic *d)
{
    whole_file *w = ud;
    if (d->line != 0 || (w->utf16 && d->warning == RSC_W_NOT_ROBOTS_BINARY))
        return;
    w->binary |= d->warning == RSC_W_NOT_ROBOTS_BINARY;
    warn(w, rsc_warning_message(d->warning), rsc_warning_name(d->warning));
}

/* UTF-16: a byte order mark, or ASCII text with a NUL after (or before)
 * each character in the first bytes. */
static int looks_utf16(const unsigned char *p, size_t n)
{
    if (n >= 2 && ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff)))
        return 1;
    size_t m = n < 512 ? n & ~(size_t)1 : 512, zeros[2] = {0, 0};
    for (size_t i = 0; i < m; i++)
        zeros[i & 1] += p[i] == 0;
    return m >= 4 && (zeros[0] * 4 >= m * 3 / 2 || zeros[1] * 4 >= m * 3 / 2) &&
           (zeros[0] == 0 || zeros[1] == 0);
}

/* Line of the first byte sequence that is not UTF-8, or 0. */
static unsigned long first_non_utf8(const unsigned char *p, size_t n)
{
    unsigned long line = 1;
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        size_t k = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2
                                : c >= 0xf0 && c <= 0xf4 ? 3 : 9;
        if (k == 9 || (k && i + k >= n))
            return line;
        for (size_t j = 1; j <= k; j++)
            if ((p[i + j] & 0xc0) != 0x80)
                return line;
        /* Overlong three- and four-byte forms, surrogates, past U+10FFFF. */
        if ((c == 0xe0 && p[i + 1] < 0xa0) || (c == 0xed && p[i + 1] >= 0xa0) ||
            (c == 0xf0 && p[i + 1] < 0x90) || (c == 0xf4 && p[i + 1] >= 0x90))
            return line;
        if (c == '\n' || (c == '\r' && !(i + 1 < n && p[i + 1] == '\n')))
            line++;
        i += k + 1;
    }
    return 0;
}

int rsc_cmd_compile(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *val;
    rsc_profile profile = RSC_PROFILE_GOOGLE;
    int strict = 0;
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts("usage: robotsc compile [--profile google|rfc] [--strict] ROBOTS.txt -o OUT.rbc\n"
                 "Compiles a robots.txt into a verified bytecode blob (docs/FORMAT.md); OUT '-' is\n"
                 "standard output. OUT is replaced in one step (a temporary file in its directory,\n"
                 "renamed): on any failure it is left as it was.\n"
                 "Warnings about the file as a whole go to stderr: binary or HTML content, UTF-16\n"
                 "or another encoding than UTF-8, a body over 500 KiB (the rest is ignored). The\n"
                 "blob is still what Google makes of the bytes; with --strict they are errors\n"
                 "(exit 2, nothing written).");
            return 0;
        } else if (strcmp(argv[i], "--strict") == 0) {
            strict = 1;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--profile", &val)) != 0) {
            if (r < 0 || parse_profile("compile", val, &profile))
                return r < 0 ? rsc_cli_fail("compile", "--profile needs a value") : 2;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "-o", &val)) != 0) {
            if (r < 0)
                return rsc_cli_fail("compile", "-o needs a file name");
            out = val;
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            return rsc_cli_fail("compile", "unknown option '%s'", argv[i]);
        } else if (!in) {
            in = argv[i];
        } else {
            return rsc_cli_fail("compile", "unexpected argument '%s'", argv[i]);
        }
    }
    if (!in || !out)
        return rsc_cli_fail("compile", "usage: robotsc compile [--profile P] [--strict] ROBOTS.txt -o OUT.rbc");
    size_t len;
    unsigned char *text = rsc_cli_read(in, &len);
    if (!text)
        return rsc_cli_fail("compile", "%s: cannot read: %s", in, strerror(errno));
    whole_file w = {strcmp(in, "-") == 0 ? "<stdin>" : in, looks_utf16(text, len), 0, 0};
    if (w.utf16)
        warn(&w, "looks like UTF-16 text; robots.txt is UTF-8 (compiled as bytes)", "utf-16");
    rsc_compile_options o = {0};
    o.profile = profile;
    o.diag = on_compile_diag;
    o.diag_ud = &w;
    rsc_blob b = {NULL, 0};
    rsc_status st = rsc_compile(text, len, &o, &b);
    unsigned long bad_line = first_non_utf8(text, len < RSC_MAX_BODY ? len : RSC_MAX_BODY);
    free(text);
    if (st != RSC_OK)
        return rsc_cli_fail("compile", "%s: %s", in, rsc_strerror(st));
    if (bad_line && !w.utf16 && !w.binary) {
        char msg[128];
        snprintf(msg, sizeof msg, "bytes that are not UTF-8 from line %lu: another encoding? "
                 "(matched as bytes)", bad_line);
        warn(&w, msg, "encoding");
    }
    if (strict && w.count) {
        rsc_blob_free(&b, &o);
        return rsc_cli_fail("compile", "%s: %u warning%s and --strict: nothing written", w.name, w.count,
                            w.count == 1 ? "" : "s");
    }
    int r = rsc_cli_write_atomic(out, b.data, b.size);
    rsc_blob_free(&b, &o);
    if (r != 0)
        return rsc_cli_fail("compile", "%s: cannot write: %s (left unchanged)", out, strerror(errno));
    return 0;
}

/* Prints one verdict line; returns the verdict. */
static int check_one(const rsc_selection *sel, const char *url, size_t len, int explain)
{
    rsc_match m;
    /* the verdict alone runs the selection's DFA; --explain wants the rule */
    int allowed = rsc_match_url(sel, url, len, explain ? &m : NULL);
    fputs(allowed ? "allow\t" : "disallow\t", stdout);
    fwrite(url, 1, len, stdout);
    if (explain) {
        if (m.decided) {
            printf("\tline %u: %s: ", (unsigned)m.line, m.rule_allow ? "Allow" : "Disallow");
            fwrite(m.pattern, 1, m.pattern_len, stdout);
        } else {
            fputs("\tno rule applies", stdout);
        }
    }
    fputc('\n', stdout);
    return allowed;
}

int rsc_cmd_check(int argc, char **argv)
{
    const char *src = NULL, *val;
    rsc_profile profile = RSC_PROFILE_GOOGLE;
    int profile_set = 0, explain = 0, n_urls = 0;
    rsc_bytes agents[64];
    size_t n_agents = 0;
    char **urls = calloc((size_t)argc, sizeof *urls);
    if (!urls)
        return rsc_cli_fail("check", "out of memory");
    int only_args = 0;
    for (int i = 1; i < argc; i++) {
        int r = 0;
        if (!only_args && rsc_cli_is_help(argv[i])) {
            puts("usage: robotsc check [--profile google|rfc] [--explain] --agent A [--agent B ...] SOURCE [URL ...]\n"
                 "SOURCE is a robots.txt or a compiled blob. URLs come from the arguments, or from\n"
                 "standard input one per line. Prints 'allow' or 'disallow', a tab and the URL.\n"
                 "With one URL argument the exit status is 0 allowed, 1 disallowed; 2 on errors.\n"
                 "An agent is a product token (Googlebot), Name/version or a whole User-Agent\n"
                 "header: it is matched by its product token (a note on stderr when that differs\n"
                 "from what was given); an agent without one is an error. --exact-agent A passes A\n"
                 "as given to the library (spec F.2: 'Bot/1' or '' then match no group by name),\n"
                 "as the conformance data does.");
            free(urls);
            return 0;
        } else if (!only_args && strcmp(argv[i], "--") == 0) {
            only_args = 1;
        } else if (!only_args && (r = rsc_cli_opt(argc, argv, &i, "--agent", &val)) != 0) {
            if (r < 0 || n_agents == sizeof agents / sizeof agents[0]) {
                free(urls);
                return rsc_cli_fail("check", r < 0 ? "--agent needs a value" : "too many agents");
            }
            if (rsc_cli_agent("check", val, &agents[n_agents++]) != 0) {
                free(urls);
                return 2;
            }
        } else if (!only_args && (r = rsc_cli_opt(argc, argv, &i, "--exact-agent", &val)) != 0) {
            if (r < 0 || n_agents == sizeof agents / sizeof agents[0]) {
                free(urls);
                return rsc_cli_fail("check", r < 0 ? "--exact-agent needs a value" : "too many agents");
            }
            agents[n_agents].ptr = val; /* as given: rsc_select() of the library */
            agents[n_agents++].len = strlen(val);
        } else if (!only_args && (r = rsc_cli_opt(argc, argv, &i, "--profile", &val)) != 0) {
            if (r < 0 || parse_profile("check", val, &profile)) {
                free(urls);
                return r < 0 ? rsc_cli_fail("check", "--profile needs a value") : 2;
            }
            profile_set = 1;
        } else if (!only_args && strcmp(argv[i], "--explain") == 0) {
            explain = 1;
        } else if (!only_args && argv[i][0] == '-' && argv[i][1] == '-') {
            free(urls);
            return rsc_cli_fail("check", "unknown option '%s'", argv[i]);
        } else if (!src) {
            src = argv[i];
        } else {
            urls[n_urls++] = argv[i];
        }
    }
    if (!src || n_agents == 0) {
        free(urls);
        return rsc_cli_fail("check", "usage: robotsc check [--profile P] [--explain] --agent A ... SOURCE [URL ...]"
                                     " (or --exact-agent A)");
    }
    source s;
    int r = source_open("check", src, profile, profile_set, &s);
    if (r) {
        free(urls);
        return r;
    }
    rsc_selection sel;
    rsc_status st = rsc_select(&s.prog, agents, n_agents, &sel);
    if (st != RSC_OK) {
        source_free(&s);
        free(urls);
        return rsc_cli_fail("check", "cannot select agents: %s", rsc_strerror(st));
    }
    /* The DFA engine (runtime.h, rsc_dfa_build): a set over the budget
     * keeps the programs, with the same verdicts. */
    void *dfa = malloc(RSC_DFA_BUDGET);
    if (dfa && rsc_dfa_build(&sel, dfa, RSC_DFA_BUDGET, NULL) != RSC_OK) {
        free(dfa);
        dfa = NULL;
    }
    int status = 0;
    if (n_urls > 0) {
        for (int i = 0; i < n_urls; i++) {
            int allowed = check_one(&sel, urls[i], strlen(urls[i]), explain);
            if (n_urls == 1)
                status = allowed ? 0 : 1;
        }
    } else {
        /* One URL per line; a trailing CR is dropped; an empty line is an
         * empty URL (the path "/"). */
        size_t cap = 4096, n = 0;
        char *line = malloc(cap);
        int c = 0;
        while (line && c != EOF) {
            n = 0;
            while ((c = getchar()) != EOF && c != '\n') {
                if (n + 1 >= cap) {
                    char *nl = realloc(line, cap * 2);
                    if (!nl)
                        break;
                    line = nl;
                    cap *= 2;
                }
                line[n++] = (char)c;
            }
            if (c == EOF && n == 0)
                break;
            if (n && line[n - 1] == '\r')
                n--;
            check_one(&sel, line, n, explain);
        }
        if (!line)
            status = rsc_cli_fail("check", "out of memory");
        free(line);
    }
    if (fflush(stdout) != 0)
        status = rsc_cli_fail("check", "cannot write output");
    free(dfa);
    source_free(&s);
    free(urls);
    return status;
}

/* rsc_dump's text, with bytes of the file (agent names are kept raw,
 * spec D.2) that are control bytes or not ASCII shown as \xHH. */
static void write_stdout(void *ud, const char *p, size_t n)
{
    (void)ud;
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if ((c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f) {
            fwrite(p + start, 1, i - start, stdout);
            printf("\\x%02x", c);
            start = i + 1;
        }
    }
    fwrite(p + start, 1, n - start, stdout);
}

#define MAX_INFO_AGENTS 64

/* Shared argument handling of dump and info: one SOURCE, optional profile;
 * info takes --agent too (agents non-NULL, room for MAX_INFO_AGENTS). */
static int one_source(const char *cmd, int argc, char **argv, const char *help, source *s, rsc_bytes *agents,
                      size_t *n_agents)
{
    const char *src = NULL, *val;
    rsc_profile profile = RSC_PROFILE_GOOGLE;
    int profile_set = 0;
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts(help);
            return -1;
        } else if (agents && (r = rsc_cli_opt(argc, argv, &i, "--agent", &val)) != 0) {
            if (r < 0 || *n_agents == MAX_INFO_AGENTS)
                return rsc_cli_fail(cmd, r < 0 ? "--agent needs a value" : "too many agents");
            if (rsc_cli_agent(cmd, val, &agents[(*n_agents)++]) != 0)
                return 2;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--profile", &val)) != 0) {
            if (r < 0 || parse_profile(cmd, val, &profile))
                return r < 0 ? rsc_cli_fail(cmd, "--profile needs a value") : 2;
            profile_set = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            return rsc_cli_fail(cmd, "unknown option '%s'", argv[i]);
        } else if (!src) {
            src = argv[i];
        } else {
            return rsc_cli_fail(cmd, "unexpected argument '%s'", argv[i]);
        }
    }
    if (!src)
        return rsc_cli_fail(cmd, "missing SOURCE (see robotsc %s --help)", cmd);
    return source_open(cmd, src, profile, profile_set, s);
}

int rsc_cmd_dump(int argc, char **argv)
{
    source s;
    int r = one_source("dump", argc, argv,
                       "usage: robotsc dump [--profile google|rfc] SOURCE\n"
                       "Disassembles a blob (a robots.txt is compiled first): header, sections,\n"
                       "agents, sets, programs (trie nodes and globs), rules, groups, sitemaps, directives.\n"
                       "Bytes of the file that are control bytes or not ASCII are shown as \\xHH.",
                       &s, NULL, NULL);
    if (r)
        return r < 0 ? 0 : r;
    rsc_status st = rsc_dump(&s.prog, write_stdout, NULL);
    source_free(&s);
    if (st != RSC_OK)
        return rsc_cli_fail("dump", "%s", rsc_strerror(st));
    return 0;
}

/* What applies to one crawler: whether every URL gets one verdict, its
 * crawl-delay and request-rate. */
static void info_agent(const source *s, const rsc_bytes *agent)
{
    rsc_selection sel;
    printf("agent %.*s:\n", (int)agent->len, agent->ptr);
    rsc_status st = rsc_select(&s->prog, agent, 1, &sel);
    if (st != RSC_OK) {
        printf("  cannot select: %s\n", rsc_strerror(st));
        return;
    }
    double sec;
    uint32_t req;
    rsc_bytes raw;
    uint32_t line;
    if (rsc_crawl_delay(&sel, &sec))
        printf("  crawl-delay: %g s\n", sec);
    else if (rsc_group_directive(&sel, "crawl-delay", &raw, &line)) {
        printf("  crawl-delay: invalid (line %u: '", (unsigned)line);
        rsc_cli_escaped(stdout, raw.ptr, raw.len);
        puts("')");
    } else
        puts("  crawl-delay: none");
    if (rsc_request_rate(&sel, &req, &sec))
        printf("  request-rate: %u per %g s\n", (unsigned)req, sec);
    else if (rsc_group_directive(&sel, "request-rate", &raw, &line)) {
        printf("  request-rate: invalid (line %u: '", (unsigned)line);
        rsc_cli_escaped(stdout, raw.ptr, raw.len);
        puts("')");
    } else
        puts("  request-rate: none");
    int u = rsc_selection_uniform(&sel);
    printf("  verdicts: %s\n", u == RSC_ALL_ALLOWED      ? "every URL allowed"
                               : u == RSC_ALL_DISALLOWED ? "every URL disallowed"
                                                         : "depend on the URL");
}

int rsc_cmd_info(int argc, char **argv)
{
    source s;
    rsc_bytes agents[MAX_INFO_AGENTS];
    size_t n_agents = 0;
    int r = one_source("info", argc, argv,
                       "usage: robotsc info [--profile google|rfc] [--agent A ...] SOURCE\n"
                       "Summarises a robots.txt or a blob: groups and agents, rules, programs,\n"
                       "sitemaps, crawl-delay and other directives, blob size. For each --agent\n"
                       "(a token or a whole User-Agent header, as for check): the crawl-delay and\n"
                       "request-rate of the groups that apply to it. Bytes of the file that are\n"
                       "control bytes or not ASCII are shown as \\xHH, a backslash as \\\\.",
                       &s, agents, &n_agents);
    if (r)
        return r < 0 ? 0 : r;
    rsc_blob_info bi;
    rsc_status st = rsc_blob_info_get(&s.prog, &bi);
    if (st != RSC_OK) {
        source_free(&s);
        return rsc_cli_fail("info", "%s", rsc_strerror(st));
    }
    printf("profile: %s\n", bi.profile ? "rfc" : "google");
    if (!s.is_blob)
        printf("source bytes: %zu\n", s.file_len);
    printf("blob bytes: %zu\n", bi.size);
    printf("groups: %u\nagents: %u (global group: %s)\n", (unsigned)bi.n_groups, (unsigned)bi.n_agents,
           bi.has_global ? "yes" : "no");
    printf("rules: %u\nrule sets: %u\nprograms: %u (trie nodes: %u total, %u largest; globs: %u)\n",
           (unsigned)bi.n_rules, (unsigned)bi.n_sets, (unsigned)bi.n_programs, (unsigned)bi.total_nodes,
           (unsigned)bi.max_nodes, (unsigned)bi.n_globs);
    size_t n = rsc_sitemap_count(&s.prog);
    printf("sitemaps: %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        uint32_t line;
        rsc_bytes url;
        rsc_sitemap_get(&s.prog, i, &line, &url);
        printf("  line %u: ", (unsigned)line);
        rsc_cli_escaped(stdout, url.ptr, url.len);
        putchar('\n');
    }
    n = rsc_directive_count(&s.prog);
    printf("other directives: %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        uint32_t line;
        rsc_bytes k, v;
        rsc_directive_get(&s.prog, i, &line, &k, &v);
        printf("  line %u: ", (unsigned)line);
        rsc_cli_escaped(stdout, k.ptr, k.len);
        fputs(": ", stdout);
        rsc_cli_escaped(stdout, v.ptr, v.len);
        putchar('\n');
    }
    for (size_t i = 0; i < n_agents; i++)
        info_agent(&s, &agents[i]);
    source_free(&s);
    return 0;
}
