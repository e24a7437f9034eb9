/* SPDX-License-Identifier: Apache-2.0 */
/* `robotsc lint` and `robotsc parse`: the front end's commands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "robotsc/compiler.h"
#include "robotsc/ir.h"

static const char lint_usage[] =
    "usage: robotsc lint [--profile google|rfc] [--records] [--json] [--no-warn CODE]...\n"
    "                    [--no-semantic] [--text] FILE\n"
    "\n"
    "Reports problems in a robots.txt (FILE '-' is standard input):\n"
    "  FILE:LINE: warning: MESSAGE [NAME]   (FILE: warning: ... for the whole file)\n"
    "Exit status: 0 no warnings, 1 warnings, 2 errors. A compiled blob, a file that\n"
    "looks binary or like a damaged blob is an error (exit 2); with --text the last two\n"
    "are read as a robots.txt (a binary file then gets one warning and no more).\n"
    "UTF-16 is named so ([utf-16]); bytes that are not UTF-8 get compile's\n"
    "whole-file warning [encoding].\n"
    "\n"
    "  --records          print each line's lint record instead (conformance format)\n"
    "  --text             read binary content as a robots.txt\n"
    "  --no-warn CODE     leave out warnings named CODE (repeatable; docs/LINT.md)\n"
    "  --json             one JSON object of diagnostics (strings as UTF-8, a byte\n"
    "                     that is not UTF-8 as \\ufffd)\n"
    "  --no-semantic      syntax warnings only (no dead rules, values, sitemaps, ...)\n"
    "  --profile P        google (default) or rfc\n";

static const char parse_usage[] =
    "usage: robotsc parse [--json] [--profile google|rfc] FILE\n"
    "\n"
    "Prints the parsed robots.txt (FILE '-' is standard input) as JSON; the\n"
    "format is described in docs/IR_JSON.md. Its strings hold the file's bytes\n"
    "exactly: every byte outside printable ASCII as \\u00XX (a reader maps code\n"
    "points U+0000..U+00FF back to bytes), unlike the other commands' --json (UTF-8).\n"
    "\n"
    "  --json             JSON output (the default and only format)\n"
    "  --text             read binary content as a robots.txt (else exit 2)\n"
    "  --profile P        google (default) or rfc\n";

typedef struct front_args {
    const char *path;
    rsc_profile profile;
    int flag; /* the command's flag: lint --records, parse --json */
    int text; /* --text: binary or damaged-blob bytes read as a robots.txt */
    int help;
} front_args;

/* Parses [options] FILE. flag is the one command-specific flag ("--records"
 * or "--json"). Returns 0, or 2 after printing a usage error. */
static int parse_args(const char *cmd, const char *usage, const char *flag, int argc,
                      char **argv, front_args *a)
{
    memset(a, 0, sizeof *a);
    a->profile = RSC_PROFILE_GOOGLE;
    int opts = 1;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (opts && rsc_cli_is_help(s)) {
            a->help = 1;
            fputs(usage, stdout);
            return 0;
        }
        if (opts && strcmp(s, "--") == 0) {
            opts = 0;
        } else if (opts && (strcmp(s, "--profile") == 0 || strncmp(s, "--profile=", 10) == 0)) {
            const char *v = s[9] == '=' ? s + 10 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v)
                return rsc_cli_fail(cmd, "--profile needs a value (google or rfc)");
            if (strcmp(v, "google") == 0)
                a->profile = RSC_PROFILE_GOOGLE;
            else if (strcmp(v, "rfc") == 0)
                a->profile = RSC_PROFILE_RFC;
            else
                return rsc_cli_fail(cmd, "unknown profile '%s' (google or rfc)", v);
        } else if (opts && strcmp(s, flag) == 0) {
            a->flag = 1;
        } else if (opts && strcmp(s, "--text") == 0) {
            a->text = 1;
        } else if (opts && s[0] == '-' && s[1] != 0) {
            return rsc_cli_fail(cmd, "unknown option '%s' (see robotsc %s --help)", s, cmd);
        } else if (a->path) {
            return rsc_cli_fail(cmd, "more than one FILE given");
        } else {
            a->path = s;
        }
    }
    if (!a->path)
        return rsc_cli_fail(cmd, "missing FILE (see robotsc %s --help)", cmd);
    return 0;
}

/* Reads and parses a->path; returns 0 or 2 (message printed). enc
 * (nullable) gets what compile warns about the encoding: 1 for UTF-16
 * (read with --text), else 2 + the line of the first bytes that are not
 * UTF-8, or 0. */
static int load(const char *cmd, const front_args *a, rsc_ir **ir, unsigned long *enc)
{
    size_t len = 0;
    unsigned char *buf = rsc_cli_read(a->path, &len);
    if (!buf)
        return rsc_cli_fail(cmd, "%s: cannot read: %s", a->path, strerror(errno));
    int kind = rsc_cli_classify(cmd, a->path, buf, len, a->text);
    if (kind != 0) {
        free(buf);
        return kind == 2 ? 2 : rsc_cli_fail(cmd, "%s: a robotsc blob, not a robots.txt (robotsc info "
                                            "or dump reads a blob)", a->path);
    }
    if (enc) {
        unsigned long bad = rsc_cli_first_non_utf8(buf, len < RSC_MAX_BODY ? len : RSC_MAX_BODY);
        *enc = rsc_cli_looks_utf16(buf, len) ? 1 : bad ? bad + 1 : 0;
    }
    rsc_parse_options opt = {a->profile, NULL, NULL};
    rsc_status st = rsc_parse(buf, len, &opt, ir);
    free(buf);
    if (st != RSC_OK)
        return rsc_cli_fail(cmd, "%s: %s", a->path, rsc_strerror(st));
    return 0;
}

/* ---- lint ---------------------------------------------------------------- */

typedef struct lint_out {
    const char *name;
    unsigned long count;
} lint_out;

/* Detail text (a key, a pattern) quoted, non-printable bytes as \xHH,
 * at most 80 bytes of it. */
static void put_detail(const char *s, size_t n)
{
    size_t max = n > 80 ? 80 : n;
    fputs(": '", stdout);
    for (size_t i = 0; i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'')
            putchar(c);
        else
            printf("\\x%02x", c);
    }
    fputs(max < n ? "'..." : "'", stdout);
}

static void on_diag(void *ud, const rsc_diagnostic *d)
{
    lint_out *o = ud;
    o->count++;
    if (d->line)
        printf("%s:%lu: warning: %s", o->name, (unsigned long)d->line,
               rsc_warning_message(d->warning));
    else
        printf("%s: warning: %s", o->name, rsc_warning_message(d->warning));
    if (d->detail && d->detail_len)
        put_detail(d->detail, d->detail_len);
    printf(" [%s]\n", rsc_warning_name(d->warning));
}

int rsc_cmd_lint(int argc, char **argv)
{
    front_args a;
    rsc_cli_lintopts lo; /* cmd_semlint.c */
    int rc = rsc_cli_lint_opts(&argc, argv, &lo);
    if (rc)
        return rc;
    rc = parse_args("lint", lint_usage, "--records", argc, argv, &a);
    if (rc || a.help)
        return rc;
    rsc_ir *ir = NULL;
    unsigned long enc = 0;
    if ((rc = load("lint", &a, &ir, &enc)) != 0)
        return rc;
    if (a.flag) {
        char buf[256];
        for (size_t i = 0; i < ir->n_lines; i++) {
            rsc_ir_record(ir, i, buf, sizeof buf);
            puts(buf);
        }
        rsc_ir_free(ir);
        return 0;
    }
    lint_out o = {strcmp(a.path, "-") == 0 ? "<stdin>" : a.path, 0};
    if (enc == 1) {
        /* UTF-16 read with --text: compile's warning, and its lines are noise */
        printf("%s: warning: looks like UTF-16 text; robots.txt is UTF-8 (compiled as bytes) [utf-16]\n", o.name);
        rsc_ir_free(ir);
        return 1;
    }
    if (ir->looks_binary) {
        /* A binary file's "lines" are noise: one warning, nothing else. */
        rsc_diagnostic d = {RSC_W_NOT_ROBOTS_BINARY, 0, NULL, 0};
        on_diag(&o, &d);
        rsc_ir_free(ir);
        return 1;
    }
    lo.non_utf8_line = enc > 1 ? enc - 1 : 0;
    unsigned long n = rsc_cli_lint_report(ir, o.name, &lo, on_diag, &o, &o.count);
    rsc_ir_free(ir);
    return n ? 1 : 0;
}

/* ---- parse --json ---------------------------------------------------------- */

/* A JSON string holding bytes exactly: every byte outside printable ASCII
 * is written as \u00XX, so a reader maps code points back to bytes
 * (ISO-8859-1) and gets the input unchanged (docs/IR_JSON.md). */
static void json_str(FILE *out, const char *s, size_t n)
{
    putc('"', out);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (c < 0x20 || c >= 0x7f)
                fprintf(out, "\\u%04x", c);
            else
                putc(c, out);
        }
    }
    putc('"', out);
}

static void json_rstr(FILE *out, const char *key, rsc_str s)
{
    fprintf(out, ", \"%s\": ", key);
    json_str(out, s.ptr, s.len);
}

static void json_group(FILE *out, uint32_t g)
{
    if (g == RSC_NO_GROUP)
        fputs(", \"group\": null", out);
    else
        fprintf(out, ", \"group\": %lu", (unsigned long)g);
}

static const char *tf(int b)
{
    return b ? "true" : "false";
}

static void json_ir(FILE *out, const rsc_ir *ir)
{
    fprintf(out, "{\n  \"profile\": \"%s\",\n", ir->profile == RSC_PROFILE_RFC ? "rfc" : "google");
    fprintf(out, "  \"input_len\": %lu,\n  \"body_len\": %lu,\n  \"truncated\": %s,\n",
            (unsigned long)ir->input_len, (unsigned long)ir->body_len, tf(ir->truncated));
    fprintf(out, "  \"bom_len\": %lu,\n  \"looks_html\": %s,\n  \"looks_binary\": %s,\n",
            (unsigned long)ir->bom_len, tf(ir->looks_html), tf(ir->looks_binary));

    fputs("  \"lines\": [", out);
    for (size_t i = 0; i < ir->n_lines; i++) {
        const rsc_line *l = &ir->lines[i];
        fprintf(out,
                "%s\n    {\"line\": %lu, \"offset\": %lu, \"length\": %lu, \"tag\": \"%s\", "
                "\"is_empty\": %s, \"has_comment\": %s, \"is_comment\": %s, "
                "\"has_directive\": %s, \"is_acceptable_typo\": %s, \"is_line_too_long\": %s, "
                "\"is_missing_colon_separator\": %s}",
                i ? "," : "", (unsigned long)l->number, (unsigned long)l->offset,
                (unsigned long)l->length, rsc_tag_name(l->tag), tf(l->is_empty),
                tf(l->has_comment), tf(l->is_comment), tf(l->has_directive),
                tf(l->is_acceptable_typo), tf(l->is_line_too_long),
                tf(l->is_missing_colon_separator));
    }
    fputs(ir->n_lines ? "\n  ],\n" : "],\n", out);

    fputs("  \"groups\": [", out);
    for (size_t g = 0; g < ir->n_groups; g++) {
        const rsc_group *gr = &ir->groups[g];
        fprintf(out, "%s\n    {\"line\": %lu, \"agents\": [", g ? "," : "",
                (unsigned long)gr->line);
        for (uint32_t k = 0; k < gr->n_agents; k++) {
            const rsc_agent *a = &ir->agents[gr->first_agent + k];
            fprintf(out, "%s{\"line\": %lu", k ? ", " : "", (unsigned long)a->line);
            json_rstr(out, "raw", a->raw);
            json_rstr(out, "token", a->token);
            fprintf(out, ", \"global\": %s}", tf(a->global));
        }
        fputs("], \"rules\": [", out);
        for (uint32_t k = 0; k < gr->n_rules; k++)
            fprintf(out, "%s%lu", k ? ", " : "", (unsigned long)(gr->first_rule + k));
        fputs("]}", out);
    }
    fputs(ir->n_groups ? "\n  ],\n" : "],\n", out);

    fputs("  \"rules\": [", out);
    for (size_t i = 0; i < ir->n_rules; i++) {
        const rsc_rule *r = &ir->rules[i];
        fprintf(out, "%s\n    {\"line\": %lu", i ? "," : "", (unsigned long)r->line);
        json_group(out, r->group);
        fprintf(out, ", \"allow\": %s", tf(r->allow));
        json_rstr(out, "raw", r->raw);
        json_rstr(out, "pattern", r->pattern);
        fprintf(out, ", \"priority\": %lu}", (unsigned long)r->priority);
    }
    fputs(ir->n_rules ? "\n  ],\n" : "],\n", out);

    fputs("  \"sitemaps\": [", out);
    for (size_t i = 0; i < ir->n_sitemaps; i++) {
        const rsc_sitemap *s = &ir->sitemaps[i];
        fprintf(out, "%s\n    {\"line\": %lu", i ? "," : "", (unsigned long)s->line);
        json_rstr(out, "url", s->url);
        fputs("}", out);
    }
    fputs(ir->n_sitemaps ? "\n  ],\n" : "],\n", out);

    fputs("  \"directives\": [", out);
    for (size_t i = 0; i < ir->n_directives; i++) {
        const rsc_directive *d = &ir->directives[i];
        fprintf(out, "%s\n    {\"line\": %lu", i ? "," : "", (unsigned long)d->line);
        json_group(out, d->group);
        json_rstr(out, "key", d->key);
        json_rstr(out, "value", d->value);
        json_rstr(out, "raw", d->raw);
        fputs("}", out);
    }
    fputs(ir->n_directives ? "\n  ]\n}\n" : "]\n}\n", out);
}

int rsc_cmd_parse(int argc, char **argv)
{
    front_args a;
    int rc = parse_args("parse", parse_usage, "--json", argc, argv, &a);
    if (rc || a.help)
        return rc;
    rsc_ir *ir = NULL;
    if ((rc = load("parse", &a, &ir, NULL)) != 0)
        return rc;
    json_ir(stdout, ir);
    rsc_ir_free(ir);
    if (fflush(stdout) != 0 || ferror(stdout))
        return rsc_cli_fail("parse", "error writing the output");
    return 0;
}
