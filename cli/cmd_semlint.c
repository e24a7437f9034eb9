/* SPDX-License-Identifier: Apache-2.0 */
/* `robotsc lint`'s semantic part (rsc_semlint, docs/LINT.md) and the
 * options it adds: --no-warn CODE, --json, --no-semantic. cmd_front.c
 * strips these options with rsc_cli_lint_opts() and hands its warnings
 * over to rsc_cli_lint_report(), so its own output stays as it was. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "robotsc/compiler.h"

static int muted(const rsc_cli_lintopts *o, const char *name)
{
    for (size_t i = 0; i < o->n_no_warn; i++)
        if (strcmp(o->no_warn[i], name) == 0)
            return 1;
    return 0;
}

static int known_code(const char *name)
{
    if (strcmp(name, "encoding") == 0) /* the CLI's own, from the file's bytes (cmd_front.c) */
        return 1;
    for (int w = 0; w < RSC_W_COUNT; w++)
        if (strcmp(rsc_warning_name(w), name) == 0)
            return 1;
    for (int c = 0; c < RSC_SL_COUNT; c++)
        if (strcmp(rsc_semlint_name(c), name) == 0)
            return 1;
    return 0;
}

int rsc_cli_lint_opts(int *argc, char **argv, rsc_cli_lintopts *o)
{
    memset(o, 0, sizeof *o);
    o->semantic = 1;
    int k = 1;
    for (int i = 1; i < *argc; i++) {
        const char *v;
        int r = rsc_cli_opt(*argc, argv, &i, "--no-warn", &v);
        if (r < 0)
            return rsc_cli_fail("lint", "--no-warn needs a warning name");
        if (r > 0) {
            if (!known_code(v))
                return rsc_cli_fail("lint", "unknown warning '%s' (docs/LINT.md lists them)", v);
            if (o->n_no_warn == sizeof o->no_warn / sizeof o->no_warn[0])
                return rsc_cli_fail("lint", "too many --no-warn");
            o->no_warn[o->n_no_warn++] = v;
        } else if (strcmp(argv[i], "--json") == 0) {
            o->json = 1;
        } else if (strcmp(argv[i], "--no-semantic") == 0) {
            o->semantic = 0;
        } else {
            argv[k++] = argv[i];
        }
    }
    *argc = k;
    argv[k] = NULL;
    return 0;
}

/* JSON strings hold bytes: cli/util.c's writer, as check and info use. */
static void json_str(const char *s, size_t n)
{
    rsc_cli_json_str(stdout, s, n);
}

typedef struct rep {
    const rsc_cli_lintopts *o;
    const char *name;
    rsc_diag_fn text_fn;
    void *text_ud;
    unsigned long warnings;
    int first;
} rep;

static void json_item(rep *r, const char *code, const char *sev, uint32_t line, const char *msg,
                      const char *detail, size_t dl, uint32_t other)
{
    printf("%s\n  {\"line\": %lu, \"severity\": \"%s\", \"code\": \"%s\", \"message\": ", r->first ? "" : ",",
           (unsigned long)line, sev, code);
    json_str(msg, strlen(msg));
    if (detail && dl) {
        fputs(", \"detail\": ", stdout);
        json_str(detail, dl);
    }
    if (other)
        printf(", \"other_line\": %lu", (unsigned long)other);
    putchar('}');
    r->first = 0;
}

static void on_syntax(void *ud, const rsc_diagnostic *d)
{
    rep *r = ud;
    if (muted(r->o, rsc_warning_name(d->warning)))
        return;
    if (!r->o->json) {
        r->text_fn(r->text_ud, d); /* the syntax lint's own output, unchanged */
        return;
    }
    r->warnings++;
    json_item(r, rsc_warning_name(d->warning), "warning", d->line, rsc_warning_message(d->warning), d->detail,
              d->detail_len, 0);
}

static void on_semantic(void *ud, const rsc_semdiag *d)
{
    rep *r = ud;
    const char *code = rsc_semlint_name(d->code);
    if (muted(r->o, code))
        return;
    const char *sev = rsc_semlint_severity(d->code) >= 2 ? "warning" : "note";
    if (rsc_semlint_severity(d->code) >= 2)
        r->warnings++;
    if (r->o->json) {
        json_item(r, code, sev, d->line, rsc_semlint_message(d->code), d->detail, d->detail_len, d->other);
        return;
    }
    printf("%s:%lu: %s: %s", r->name, (unsigned long)d->line, sev, rsc_semlint_message(d->code));
    if (d->detail_len) {
        fputs(": ", stdout);
        fwrite(d->detail, 1, d->detail_len, stdout); /* printable: rsc_semlint escapes */
    }
    printf(" [%s]\n", code);
}

unsigned long rsc_cli_lint_report(const rsc_ir *ir, const char *name, const rsc_cli_lintopts *o,
                                  rsc_diag_fn text_fn, void *text_ud, unsigned long *text_count)
{
    rep r = {o, name, text_fn, text_ud, 0, 1};
    if (o->json) {
        fputs("{\"file\": ", stdout);
        json_str(name, strlen(name));
        fputs(", \"diagnostics\": [", stdout);
    }
    unsigned long before = *text_count;
    if (o->non_utf8_line && !muted(o, "encoding")) {
        /* compile's whole-file warning, so that lint says what compile says */
        char msg[128];
        snprintf(msg, sizeof msg, "bytes that are not UTF-8 from line %lu: another encoding? (matched as bytes)",
                 o->non_utf8_line);
        r.warnings++;
        if (o->json)
            json_item(&r, "encoding", "warning", 0, msg, NULL, 0, 0);
        else
            printf("%s: warning: %s [encoding]\n", name, msg);
    }
    rsc_lint(ir, on_syntax, &r);
    if (o->semantic && rsc_semlint(ir, NULL, on_semantic, &r) != RSC_OK)
        fprintf(stderr, "robotsc lint: %s: semantic lint ran out of memory\n", name);
    if (o->json)
        printf("%s]}\n", r.first ? "" : "\n");
    return r.warnings + (*text_count - before);
}
