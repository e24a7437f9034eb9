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

static void source_free(source *s)
{
    rsc_blob_free(&s->compiled, NULL);
    free(s->file);
    memset(s, 0, sizeof *s);
}

/* Reads and loads SOURCE. profile_set: the user gave --profile; text: the
 * user gave --text (damaged-blob or binary bytes read as a robots.txt).
 * What SOURCE is, is rsc_classify()'s rule (rsc_cli_classify): a blob that
 * does not verify is an error, never compiled as text. */
static int source_open(const char *cmd, const char *path, rsc_profile profile, int profile_set, int text,
                       source *s)
{
    memset(s, 0, sizeof *s);
    s->file = rsc_cli_read(path, &s->file_len);
    if (!s->file)
        return rsc_cli_fail(cmd, "%s: %s", path, strerror(errno));
    const void *blob = s->file;
    size_t blob_len = s->file_len;
    int kind = rsc_cli_classify(cmd, path, s->file, s->file_len, text);
    if (kind == 2) {
        source_free(s);
        return 2;
    }
    s->is_blob = kind == 1;
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
    fputs("robotsc compile: ", stderr);
    rsc_cli_escaped(stderr, w->name, strlen(w->name));
    fprintf(stderr, ": warning: %s [%s]\n", msg, name);
}

static void on_compile_diag(void *ud, const rsc_diagnostic *d)
{
    whole_file *w = ud;
    if (d->line != 0 || (w->utf16 && d->warning == RSC_W_NOT_ROBOTS_BINARY))
        return;
    w->binary |= d->warning == RSC_W_NOT_ROBOTS_BINARY;
    warn(w, rsc_warning_message(d->warning), rsc_warning_name(d->warning));
}

int rsc_cmd_compile(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *val;
    rsc_profile profile = RSC_PROFILE_GOOGLE;
    int strict = 0, as_text = 0;
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts("usage: robotsc compile [--profile google|rfc] [--strict] [--text] ROBOTS.txt -o OUT.rbc\n"
                 "Compiles a robots.txt into a verified bytecode blob (docs/FORMAT.md); OUT '-' is\n"
                 "standard output. A regular OUT is replaced in one step (a temporary file in its\n"
                 "directory, renamed): on any failure it is left as it was. A symbolic link is\n"
                 "followed and the file it names replaced so (the link stays); a FIFO or a\n"
                 "character device (/dev/null, /dev/stdout) is written through; any other OUT (a\n"
                 "directory, a socket, a block device) is refused, and so is an OUT that is the\n"
                 "ROBOTS.txt itself (by any name: a link, a hard link, standard input's file).\n"
                 "An input that is already a compiled blob is refused (exit 2, \"already a compiled\n"
                 "blob\": robotsc info or dump reads it), as is one that looks like a damaged blob.\n"
                 "--text reads any bytes as a robots.txt, as Google's parser does (a blob then\n"
                 "compiles to rules that allow everything).\n"
                 "Warnings about the file as a whole go to stderr: binary or HTML content, UTF-16\n"
                 "or another encoding than UTF-8, a body over 500 KiB (the rest is ignored). The\n"
                 "blob is still what Google makes of the bytes; with --strict they are errors\n"
                 "(exit 2, nothing written).");
            return 0;
        } else if (strcmp(argv[i], "--strict") == 0) {
            strict = 1;
        } else if (strcmp(argv[i], "--text") == 0) {
            as_text = 1;
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
        return rsc_cli_fail("compile",
                            "usage: robotsc compile [--profile P] [--strict] [--text] ROBOTS.txt -o OUT.rbc");
    /* A blob written over its robots.txt would destroy the source (the
     * blob keeps the rules, not the text): refused before anything is read. */
    if (rsc_cli_same_file(in, out))
        return rsc_cli_fail("compile", "%s: -o names the robots.txt being compiled; it would be "
                            "destroyed (nothing written)", out);
    size_t len;
    unsigned char *text = rsc_cli_read(in, &len);
    if (!text)
        return rsc_cli_fail("compile", "%s: cannot read: %s", in, strerror(errno));
    whole_file w = {strcmp(in, "-") == 0 ? "<stdin>" : in, rsc_cli_looks_utf16(text, len), 0, 0};
    /* rsc_classify()'s rule, but a compiler reads binary bytes as Google
     * does (with a warning): only a blob, or what looks like a damaged one,
     * is refused, since compiling it as text gives rules that allow
     * everything in silence. */
    rsc_input_kind kind = as_text ? RSC_INPUT_TEXT : rsc_classify(text, len);
    if (kind == RSC_INPUT_BLOB || kind == RSC_INPUT_DAMAGED) {
        free(text);
        if (kind == RSC_INPUT_BLOB)
            return rsc_cli_fail("compile", "%s: already a compiled blob, not compiled again (robotsc info "
                                "or dump reads it; --text compiles its bytes as a robots.txt)", w.name);
        return rsc_cli_fail("compile", "%s: %s, not compiled (--text compiles its bytes as a robots.txt)",
                            w.name, rsc_input_kind_what(kind));
    }
    if (w.utf16)
        warn(&w, "looks like UTF-16 text; robots.txt is UTF-8 (compiled as bytes)", "utf-16");
    rsc_compile_options o = {0};
    o.profile = profile;
    o.diag = on_compile_diag;
    o.diag_ud = &w;
    rsc_blob b = {NULL, 0};
    rsc_status st = rsc_compile(text, len, &o, &b);
    unsigned long bad_line = rsc_cli_first_non_utf8(text, len < RSC_MAX_BODY ? len : RSC_MAX_BODY);
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
        return rsc_cli_fail("compile", "%s: cannot write: %s (left unchanged)", out, rsc_cli_write_error(errno));
    return 0;
}

/* Line `line` (1-based, line ends as spec A counts them) of a robots.txt
 * source, without its line end and surrounding whitespace; 0 when there is
 * none. */
static int source_line(const source *s, uint32_t line, const char **p, size_t *n)
{
    const char *t = (const char *)s->file;
    size_t len = s->file_len > RSC_MAX_BODY ? RSC_MAX_BODY : s->file_len, i = 0;
    if (len >= 3 && memcmp(t, "\xef\xbb\xbf", 3) == 0)
        i = 3;
    for (uint32_t l = 1; l < line && i < len; i++)
        if (t[i] == '\n' || (t[i] == '\r' && !(i + 1 < len && t[i + 1] == '\n')))
            l++;
    if (line == 0 || i >= len)
        return 0;
    size_t e = i;
    while (e < len && t[e] != '\n' && t[e] != '\r')
        e++;
    while (i < e && (t[i] == ' ' || t[i] == '\t'))
        i++;
    while (e > i && (t[e - 1] == ' ' || t[e - 1] == '\t'))
        e--;
    *p = t + i;
    *n = e - i;
    return 1;
}

typedef struct check_out {
    const source *s;
    int explain, json;
} check_out;

/* Prints one verdict (a line of text, or a JSON object); returns it. The
 * rule is shown as its line reads in a robots.txt source (Google's
 * index.html rule adds a pattern no line holds, spec E.8); a blob keeps
 * no text, so its rules are shown as compiled. */
static int check_one(const check_out *o, const rsc_selection *sel, const char *url, size_t len)
{
    rsc_match m;
    /* the verdict alone runs the selection's DFA; --explain and --json
     * want the deciding rule, which the programs give */
    int want = o->explain || o->json;
    int allowed = rsc_match_url(sel, url, len, want ? &m : NULL);
    const char *text = NULL;
    size_t text_len = 0;
    if (want && m.decided && !o->s->is_blob && !source_line(o->s, m.line, &text, &text_len))
        text = NULL;
    if (o->json) {
        fputs("{\"url\":", stdout);
        rsc_cli_json_str(stdout, url, len);
        printf(",\"allowed\":%s,\"decided\":%s", allowed ? "true" : "false", m.decided ? "true" : "false");
        if (m.decided) {
            printf(",\"line\":%u,\"rule\":\"%s\",\"priority\":%u,\"pattern\":", (unsigned)m.line,
                   m.rule_allow ? "allow" : "disallow", (unsigned)m.priority);
            rsc_cli_json_str(stdout, m.pattern, m.pattern_len);
            fputs(",\"source\":", stdout);
            if (text)
                rsc_cli_json_str(stdout, text, text_len);
            else
                fputs("null", stdout);
        } else {
            fputs(",\"line\":0,\"rule\":null,\"priority\":0,\"pattern\":null,\"source\":null", stdout);
        }
        fputs("}\n", stdout);
        return allowed;
    }
    fputs(allowed ? "allow\t" : "disallow\t", stdout);
    fwrite(url, 1, len, stdout);
    if (o->explain) {
        if (m.decided && text) {
            printf("\tline %u: ", (unsigned)m.line);
            rsc_cli_escaped(stdout, text, text_len);
        } else if (m.decided) {
            printf("\tline %u: %s: ", (unsigned)m.line, m.rule_allow ? "Allow" : "Disallow");
            rsc_cli_escaped(stdout, m.pattern, m.pattern_len);
        } else {
            fputs("\tno rule applies", stdout);
        }
    }
    fputc('\n', stdout);
    return allowed;
}

static const char check_usage[] =
    "usage: robotsc check [--profile google|rfc] [--explain] [--json] [--text]\n"
    "                     (--agent NAME | --user-agent UA)... SOURCE [URL ...]\n"
    "SOURCE is a robots.txt or a compiled blob ('-': standard input, then the URLs must\n"
    "be arguments). URLs come from the arguments, or from standard input one per line\n"
    "(a trailing CR is dropped, blank lines are skipped). Prints 'allow' or 'disallow',\n"
    "a tab and the URL. With one URL argument the exit status is 0 allowed, 1\n"
    "disallowed; 2 on errors, and when there is no URL at all.\n"
    "--agent NAME: the crawler's name, matched exactly as Google's library matches it:\n"
    "  as given, never cut ('AB42bot' is not 'AB', 'FooBot/1.0' names no group). A name\n"
    "  that is not a product token ([A-Za-z_-]+, e.g. empty) is answered by the '*'\n"
    "  group, with a warning on stderr. --exact-agent is an alias.\n"
    "--user-agent UA: a whole User-Agent header or Name/version, reduced to its product\n"
    "  token ('Mozilla/5.0 (compatible; Googlebot/2.1; ...)' gives 'Googlebot').\n"
    "--explain: the deciding rule's line, as it reads in a robots.txt (as compiled in\n"
    "  a blob), or 'no rule applies'.\n"
    "--json: one JSON object per URL (JSON Lines): url, allowed, decided, line, rule\n"
    "  ('allow', 'disallow' or null), priority, pattern (as compiled), source (the\n"
    "  line as it reads; null for a blob). Strings are UTF-8 as given; a byte that is\n"
    "  not UTF-8 is written as \\ufffd (U+FFFD), control bytes as \\u00XX.\n"
    "--text: read a SOURCE that looks binary or like a damaged blob as a robots.txt\n"
    "  (without it that is an error, exit 2). Bytes that begin with the blob magic are\n"
    "  always a blob: one that fails verification is an error.";

int rsc_cmd_check(int argc, char **argv)
{
    const char *src = NULL, *val;
    rsc_profile profile = RSC_PROFILE_GOOGLE;
    int profile_set = 0, n_urls = 0, text = 0;
    check_out o = {NULL, 0, 0};
    rsc_bytes agents[64];
    size_t n_agents = 0;
    char **urls = calloc((size_t)argc, sizeof *urls);
    if (!urls)
        return rsc_cli_fail("check", "out of memory");
    int only_args = 0;
    for (int i = 1; i < argc; i++) {
        int r = 0;
        if (!only_args && rsc_cli_is_help(argv[i])) {
            puts(check_usage);
            free(urls);
            return 0;
        } else if (!only_args && strcmp(argv[i], "--") == 0) {
            only_args = 1;
        } else if (!only_args &&
                   (r = rsc_cli_agent_opt("check", argc, argv, &i, agents, &n_agents, 64)) != 0) {
            if (r > 0) {
                free(urls);
                return r;
            }
        } else if (!only_args && (r = rsc_cli_opt(argc, argv, &i, "--profile", &val)) != 0) {
            if (r < 0 || parse_profile("check", val, &profile)) {
                free(urls);
                return r < 0 ? rsc_cli_fail("check", "--profile needs a value") : 2;
            }
            profile_set = 1;
        } else if (!only_args && strcmp(argv[i], "--explain") == 0) {
            o.explain = 1;
        } else if (!only_args && strcmp(argv[i], "--json") == 0) {
            o.json = 1;
        } else if (!only_args && strcmp(argv[i], "--text") == 0) {
            text = 1;
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
        return rsc_cli_fail("check", "usage: robotsc check [--profile P] [--explain] [--json] "
                                     "(--agent NAME | --user-agent UA)... SOURCE [URL ...]");
    }
    if (strcmp(src, "-") == 0 && n_urls == 0) {
        free(urls);
        return rsc_cli_fail("check", "SOURCE is standard input, so the URLs must be arguments");
    }
    source s;
    int r = source_open("check", src, profile, profile_set, text, &s);
    if (r) {
        free(urls);
        return r;
    }
    o.s = &s;
    rsc_selection sel;
    rsc_status st = rsc_select(&s.prog, agents, n_agents, &sel);
    if (st != RSC_OK) {
        source_free(&s);
        free(urls);
        return rsc_cli_fail("check", "cannot select agents: %s", rsc_strerror(st));
    }
    /* sel runs the blob's DFA when its one rule set has one (format 5:
     * the compiler built it; nothing is built here), else the programs:
     * the same verdicts either way. */
    int status = 0;
    char *line = NULL;
    size_t cap = 0, k = 0, seen = 0, len;
    const char *u;
    while (rsc_cli_next_url(urls, (size_t)n_urls, &k, &line, &cap, &u, &len)) {
        int allowed = check_one(&o, &sel, u, len);
        if (n_urls == 1)
            status = allowed ? 0 : 1;
        seen++;
    }
    free(line);
    if (fflush(stdout) != 0 || ferror(stdout))
        status = rsc_cli_fail("check", "cannot write output: %s", strerror(errno));
    else if (seen == 0)
        status = rsc_cli_fail("check", "no URL to check (give URLs as arguments or on standard input)");
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

/* Shared argument handling of dump and info: one SOURCE, optional profile,
 * --text; info takes --agent, --user-agent and --json too (agents
 * non-NULL, room for MAX_INFO_AGENTS). */
static int one_source(const char *cmd, int argc, char **argv, const char *help, source *s, rsc_bytes *agents,
                      size_t *n_agents, int *json)
{
    const char *src = NULL, *val;
    rsc_profile profile = RSC_PROFILE_GOOGLE;
    int profile_set = 0, text = 0;
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts(help);
            return -1;
        } else if (agents && (r = rsc_cli_agent_opt(cmd, argc, argv, &i, agents, n_agents, MAX_INFO_AGENTS)) != 0) {
            if (r > 0)
                return r;
        } else if (json && strcmp(argv[i], "--json") == 0) {
            *json = 1;
        } else if (strcmp(argv[i], "--text") == 0) {
            text = 1;
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
    return source_open(cmd, src, profile, profile_set, text, s);
}

/* Exit status after the output is written: a full disk or a closed pipe
 * is an error, never a silent success. */
static int output_status(const char *cmd, int status)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        return rsc_cli_fail(cmd, "cannot write output: %s", strerror(errno ? errno : EIO));
    return status;
}

int rsc_cmd_dump(int argc, char **argv)
{
    source s;
    int r = one_source("dump", argc, argv,
                       "usage: robotsc dump [--profile google|rfc] [--text] SOURCE\n"
                       "Disassembles a blob (a robots.txt is compiled first): header, sections,\n"
                       "agents, sets, programs (trie nodes and globs), rules, groups, sitemaps, directives.\n"
                       "Bytes of the file that are control bytes or not ASCII are shown as \\xHH.\n"
                       "A blob that fails verification is an error (exit 2), as is a SOURCE that looks\n"
                       "binary or like a damaged blob, unless --text reads it as a robots.txt.",
                       &s, NULL, NULL, NULL);
    if (r)
        return r < 0 ? 0 : r;
    errno = 0;
    rsc_status st = rsc_dump(&s.prog, write_stdout, NULL);
    source_free(&s);
    if (st != RSC_OK)
        return rsc_cli_fail("dump", "%s", rsc_strerror(st));
    return output_status("dump", 0);
}

/* What applies to one crawler: whether every URL gets one verdict, its
 * crawl-delay and request-rate. */
static void info_agent(const source *s, const rsc_bytes *agent, int json)
{
    rsc_selection sel;
    rsc_status st = rsc_select(&s->prog, agent, 1, &sel);
    if (json) {
        fputs("{\"agent\":", stdout);
        rsc_cli_json_str(stdout, agent->ptr, agent->len);
    } else {
        fputs("agent ", stdout);
        rsc_cli_escaped(stdout, agent->ptr, agent->len);
        puts(":");
    }
    if (st != RSC_OK) {
        if (json)
            printf(",\"error\":\"%s\"}", rsc_strerror(st));
        else
            printf("  cannot select: %s\n", rsc_strerror(st));
        return;
    }
    double sec;
    uint32_t req;
    rsc_bytes raw;
    uint32_t line;
    int u = rsc_selection_uniform(&sel);
    if (json) {
        printf(",\"token\":%s,\"named\":%s", rsc_agent_is_token(agent->ptr, agent->len) ? "true" : "false",
               sel.named ? "true" : "false");
        if (rsc_crawl_delay(&sel, &sec))
            printf(",\"crawl_delay\":%.17g", sec);
        else
            fputs(",\"crawl_delay\":null", stdout);
        if (rsc_request_rate(&sel, &req, &sec))
            printf(",\"request_rate\":{\"requests\":%u,\"seconds\":%.17g}", (unsigned)req, sec);
        else
            fputs(",\"request_rate\":null", stdout);
        printf(",\"verdicts\":\"%s\"}", u == RSC_ALL_ALLOWED ? "all-allowed"
                                        : u == RSC_ALL_DISALLOWED ? "all-disallowed" : "mixed");
        return;
    }
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
    printf("  verdicts: %s\n", u == RSC_ALL_ALLOWED      ? "every URL allowed"
                               : u == RSC_ALL_DISALLOWED ? "every URL disallowed"
                                                         : "depend on the URL");
}

static const char info_usage[] =
    "usage: robotsc info [--profile google|rfc] [--json] [--text]\n"
    "                    [--agent NAME | --user-agent UA]... SOURCE\n"
    "Summarises a robots.txt or a blob: groups and agents, rules, programs,\n"
    "sitemaps, crawl-delay and other directives, blob size. For each --agent (matched\n"
    "as given) or --user-agent (reduced to its product token), as for check: the\n"
    "crawl-delay and request-rate of the groups that apply to it (--exact-agent is an\n"
    "alias of --agent). Bytes of the file that are control bytes or not ASCII are\n"
    "shown as \\xHH, a backslash as \\\\.\n"
    "--json: one JSON object (one line): profile, source_bytes (null for a blob),\n"
    "  blob_bytes, groups, agents, global_group, rules, rule_sets, programs,\n"
    "  trie_nodes, largest_trie, globs, sitemaps [{line, url}], directives [{line,\n"
    "  key, value}], crawlers [{agent, token, named, crawl_delay, request_rate\n"
    "  {requests, seconds} or null, verdicts: all-allowed|all-disallowed|mixed}].\n"
    "  Strings are UTF-8 (a byte that is not: \\ufffd; control bytes: \\u00XX).\n"
    "A blob that fails verification is an error (exit 2), as is a SOURCE that looks\n"
    "binary or like a damaged blob, unless --text reads it as a robots.txt.";

static void info_json(const source *s, const rsc_blob_info *bi, const rsc_bytes *agents, size_t n_agents)
{
    printf("{\"profile\":\"%s\",\"source_bytes\":", bi->profile ? "rfc" : "google");
    if (s->is_blob)
        fputs("null", stdout);
    else
        printf("%zu", s->file_len);
    printf(",\"blob_bytes\":%zu,\"groups\":%u,\"agents\":%u,\"global_group\":%s,\"rules\":%u,"
           "\"rule_sets\":%u,\"programs\":%u,\"trie_nodes\":%u,\"largest_trie\":%u,\"globs\":%u",
           bi->size, (unsigned)bi->n_groups, (unsigned)bi->n_agents, bi->has_global ? "true" : "false",
           (unsigned)bi->n_rules, (unsigned)bi->n_sets, (unsigned)bi->n_programs, (unsigned)bi->total_nodes,
           (unsigned)bi->max_nodes, (unsigned)bi->n_globs);
    fputs(",\"sitemaps\":[", stdout);
    size_t n = rsc_sitemap_count(&s->prog);
    for (size_t i = 0; i < n; i++) {
        uint32_t line;
        rsc_bytes url;
        rsc_sitemap_get(&s->prog, i, &line, &url);
        printf("%s{\"line\":%u,\"url\":", i ? "," : "", (unsigned)line);
        rsc_cli_json_str(stdout, url.ptr, url.len);
        putchar('}');
    }
    fputs("],\"directives\":[", stdout);
    n = rsc_directive_count(&s->prog);
    for (size_t i = 0; i < n; i++) {
        uint32_t line;
        rsc_bytes k, v;
        rsc_directive_get(&s->prog, i, &line, &k, &v);
        printf("%s{\"line\":%u,\"key\":", i ? "," : "", (unsigned)line);
        rsc_cli_json_str(stdout, k.ptr, k.len);
        fputs(",\"value\":", stdout);
        rsc_cli_json_str(stdout, v.ptr, v.len);
        putchar('}');
    }
    fputs("],\"crawlers\":[", stdout);
    for (size_t i = 0; i < n_agents; i++) {
        if (i)
            putchar(',');
        info_agent(s, &agents[i], 1);
    }
    fputs("]}\n", stdout);
}

int rsc_cmd_info(int argc, char **argv)
{
    source s;
    rsc_bytes agents[MAX_INFO_AGENTS];
    size_t n_agents = 0;
    int json = 0;
    int r = one_source("info", argc, argv, info_usage, &s, agents, &n_agents, &json);
    if (r)
        return r < 0 ? 0 : r;
    rsc_blob_info bi;
    rsc_status st = rsc_blob_info_get(&s.prog, &bi);
    if (st != RSC_OK) {
        source_free(&s);
        return rsc_cli_fail("info", "%s", rsc_strerror(st));
    }
    errno = 0;
    if (json) {
        info_json(&s, &bi, agents, n_agents);
        source_free(&s);
        return output_status("info", 0);
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
        info_agent(&s, &agents[i], 0);
    source_free(&s);
    return output_status("info", 0);
}
