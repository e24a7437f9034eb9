/* Commands over blobs: compile, check, dump, info. A SOURCE is either a
 * robots.txt (compiled in memory) or a blob, told apart by the magic. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

#define BLOB_MAGIC "\x89RSC\r\n\x1a\n"

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

/* A file is taken for a blob when its first bytes are the magic with at
 * most two bits changed, or a prefix of it: a damaged or truncated blob must
 * be reported as such, never compiled as a robots.txt that allows
 * everything. No text file starts like that (0x89 is not ASCII, and the rest
 * holds \r\n\x1a\n). */
static int looks_like_blob(const unsigned char *p, size_t len)
{
    size_t n = len < 8 ? len : 8;
    int bits = 0;
    for (size_t i = 0; i < n; i++)
        for (unsigned d = p[i] ^ (unsigned char)BLOB_MAGIC[i]; d; d &= d - 1)
            bits++;
    return len >= 8 ? bits <= 2 : n >= 1 && bits == 0;
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

static int write_file(const char *path, const void *data, size_t len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(data, 1, len, f) == len;
    if (f == stdout)
        ok = fflush(f) == 0 && ok;
    else
        ok = fclose(f) == 0 && ok;
    return ok ? 0 : -1;
}

int rsc_cmd_compile(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *val;
    rsc_profile profile = RSC_PROFILE_GOOGLE;
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts("usage: robotsc compile [--profile google|rfc] ROBOTS.txt -o OUT.rbc\n"
                 "Compiles a robots.txt into a verified bytecode blob (docs/FORMAT.md).");
            return 0;
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
        return rsc_cli_fail("compile", "usage: robotsc compile [--profile P] ROBOTS.txt -o OUT.rbc");
    size_t len;
    unsigned char *text = rsc_cli_read(in, &len);
    if (!text)
        return rsc_cli_fail("compile", "%s: %s", in, strerror(errno));
    rsc_compile_options o = {0};
    o.profile = profile;
    rsc_blob b = {NULL, 0};
    rsc_status st = rsc_compile(text, len, &o, &b);
    free(text);
    if (st != RSC_OK)
        return rsc_cli_fail("compile", "%s: %s", in, rsc_strerror(st));
    int r = write_file(out, b.data, b.size);
    rsc_blob_free(&b, &o);
    if (r != 0)
        return rsc_cli_fail("compile", "%s: %s", out, strerror(errno));
    return 0;
}

/* Prints one verdict line; returns the verdict. */
static int check_one(const rsc_selection *sel, const char *url, size_t len, int explain)
{
    rsc_match m;
    int allowed = rsc_match_url(sel, url, len, &m);
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
                 "With one URL argument the exit status is 0 allowed, 1 disallowed; 2 on errors.");
            free(urls);
            return 0;
        } else if (!only_args && strcmp(argv[i], "--") == 0) {
            only_args = 1;
        } else if (!only_args && (r = rsc_cli_opt(argc, argv, &i, "--agent", &val)) != 0) {
            if (r < 0 || n_agents == sizeof agents / sizeof agents[0]) {
                free(urls);
                return rsc_cli_fail("check", r < 0 ? "--agent needs a value" : "too many agents");
            }
            agents[n_agents].ptr = val;
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
        return rsc_cli_fail("check", "usage: robotsc check [--profile P] [--explain] --agent A ... SOURCE [URL ...]");
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
    source_free(&s);
    free(urls);
    return status;
}

static void write_stdout(void *ud, const char *p, size_t n)
{
    (void)ud;
    fwrite(p, 1, n, stdout);
}

/* Shared argument handling of dump and info: one SOURCE, optional profile. */
static int one_source(const char *cmd, int argc, char **argv, const char *help, source *s)
{
    const char *src = NULL, *val;
    rsc_profile profile = RSC_PROFILE_GOOGLE;
    int profile_set = 0;
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts(help);
            return -1;
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
                       "agents, sets, programs (trie nodes and globs), rules, groups, sitemaps, directives.",
                       &s);
    if (r)
        return r < 0 ? 0 : r;
    rsc_status st = rsc_dump(&s.prog, write_stdout, NULL);
    source_free(&s);
    if (st != RSC_OK)
        return rsc_cli_fail("dump", "%s", rsc_strerror(st));
    return 0;
}

int rsc_cmd_info(int argc, char **argv)
{
    source s;
    int r = one_source("info", argc, argv,
                       "usage: robotsc info [--profile google|rfc] SOURCE\n"
                       "Summarises a robots.txt or a blob: groups and agents, rules, programs,\n"
                       "sitemaps, crawl-delay and other directives, blob size.",
                       &s);
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
        printf("  line %u: %.*s\n", (unsigned)line, (int)url.len, url.ptr);
    }
    n = rsc_directive_count(&s.prog);
    printf("other directives: %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        uint32_t line;
        rsc_bytes k, v;
        rsc_directive_get(&s.prog, i, &line, &k, &v);
        printf("  line %u: %.*s: %.*s\n", (unsigned)line, (int)k.len, k.ptr, (int)v.len, v.ptr);
    }
    source_free(&s);
    return 0;
}
