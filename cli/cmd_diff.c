/* SPDX-License-Identifier: Apache-2.0 */
/* `robotsc diff OLD NEW`: which paths change verdict, per agent, with a
 * shortest witness each (rsc_diff()), and what changed around the rules
 * (a group that appeared or vanished, crawl-delay, request-rate,
 * sitemaps). docs/DIFF.md. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

static const char diff_usage[] =
    "usage: robotsc diff [--agent A ...] [--profile google|rfc] [--witnesses N]\n"
    "                    [--urls FILE] [--max-states N] [--json] [--text] OLD NEW\n"
    "\n"
    "Compares two robots.txt files or blobs (told apart by the magic) exactly:\n"
    "for each agent (--agent, or every agent either file names, and any other\n"
    "agent) whether any path's verdict changes, with a shortest witness path\n"
    "for each kind of change, its old and new verdict and deciding lines;\n"
    "then group-level changes (a group that appeared or vanished, crawl-delay,\n"
    "request-rate, sitemaps).\n"
    "\n"
    "  --agent A          compare the selection of A (repeatable)\n"
    "  --profile P        google (default) or rfc, for robots.txt inputs\n"
    "  --witnesses N      witnesses per agent, one per kind of change (default 5)\n"
    "  --urls FILE        also list which of these URLs flip ('-': stdin)\n"
    "  --max-states N     states explored per agent (default 400000)\n"
    "  --json             one JSON object (docs/DIFF.md); strings as UTF-8, a byte that\n"
    "                     is not UTF-8 as \\ufffd\n"
    "  --text             read a file that looks binary, UTF-16 or like a damaged blob\n"
    "                     as a robots.txt (without it that is an error, exit 2); a file\n"
    "                     that begins with the blob magic is always a blob\n"
    "\n"
    "Exit status: 0 the same, 1 different, 2 errors, or unknown within the\n"
    "budget (said so: never reported as the same).\n";

typedef struct input {
    unsigned char *text; /* the file */
    rsc_blob blob;       /* compiled, when the file was a robots.txt */
    rsc_program prog;
} input;

/* Reads path, or takes mem[0..mem_len) (a stored blob) when mem is set.
 * What a file is, is rsc_classify()'s rule (rsc_cli_classify), as for
 * check: a damaged blob, binary bytes or UTF-16 is an error unless text
 * (--text) asks to read them as a robots.txt, never an empty robots.txt
 * that allows everything. */
static int load_input(const char *path, const void *mem, size_t mem_len, rsc_profile prof, int text,
                      input *in)
{
    size_t len = mem_len;
    memset(in, 0, sizeof *in);
    in->text = mem ? malloc(mem_len + 1) : rsc_cli_read(path, &len);
    if (!in->text)
        return rsc_cli_fail("diff", "%s: cannot read: %s", path, mem ? "out of memory" : strerror(errno));
    if (mem)
        memcpy(in->text, mem, mem_len);
    const void *data = in->text;
    size_t size = len;
    int kind = mem ? 1 : rsc_cli_classify("diff", path, in->text, len, text);
    if (kind == 2)
        return 2;
    if (kind == 0) {
        rsc_compile_options o;
        memset(&o, 0, sizeof o);
        o.profile = prof;
        rsc_status st = rsc_compile(in->text, len, &o, &in->blob);
        if (st != RSC_OK)
            return rsc_cli_fail("diff", "%s: %s", path, rsc_strerror(st));
        data = in->blob.data;
        size = in->blob.size;
    }
    rsc_load_error e = {0, NULL};
    rsc_status st = rsc_load(&in->prog, data, size, &e);
    if (st != RSC_OK)
        return rsc_cli_fail("diff", "%s: not a valid blob: %s at offset %zu (%s)", path, rsc_strerror(st),
                            e.offset, e.what ? e.what : "?");
    return 0;
}

static void free_input(input *in)
{
    rsc_blob_free(&in->blob, NULL);
    free(in->text);
}

/* ---- output helpers ------------------------------------------------------- */

/* JSON strings hold bytes: cli/util.c's writer, as check and info use. */
static void json_str(const char *s, size_t n)
{
    rsc_cli_json_str(stdout, s, n);
}

static const char *verdict(int allowed)
{
    return allowed ? "allow" : "disallow";
}

/* The deciding rule of sel for path: "line N: Disallow: /x" or "no rule". */
static void say_rule(const rsc_selection *sel, const char *path, size_t len, int json)
{
    rsc_match m;
    rsc_match_path(sel, path, len, &m);
    if (json) {
        printf("{\"verdict\": \"%s\", \"line\": %lu, \"rule\": ", verdict(m.allowed),
               (unsigned long)(m.decided ? m.line : 0));
        if (m.decided)
            json_str(m.pattern, m.pattern_len);
        else
            fputs("null", stdout);
        putchar('}');
        return;
    }
    printf("%s", verdict(m.allowed));
    if (m.decided) {
        printf(" (line %lu: %s: ", (unsigned long)m.line, m.rule_allow ? "Allow" : "Disallow");
        rsc_cli_escaped(stdout, m.pattern, m.pattern_len);
        putchar(')');
    } else {
        fputs(" (no rule)", stdout);
    }
}

/* A group directive's value as text; "" when absent. */
static int group_value(const rsc_selection *sel, const char *key, rsc_bytes *v)
{
    uint32_t line;
    v->ptr = "";
    v->len = 0;
    return rsc_group_directive(sel, key, v, &line);
}

/* ---- per agent ------------------------------------------------------------ */

typedef struct opts {
    const char *agents[64];
    size_t n_agents;
    size_t witnesses, max_states;
    const char *urls;
    int json;
    int text; /* --text */
} opts;

typedef struct agent_list {
    rsc_bytes *v;
    size_t n, cap;
} agent_list;

static int add_agent(agent_list *l, rsc_bytes b)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i].len == b.len && memcmp(l->v[i].ptr, b.ptr, b.len) == 0)
            return 0;
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 16;
        rsc_bytes *q = realloc(l->v, nc * sizeof *q);
        if (!q)
            return -1;
        l->v = q, l->cap = nc;
    }
    l->v[l->n++] = b;
    return 0;
}

static int cmp_bytes(const void *a, const void *b)
{
    const rsc_bytes *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->ptr, y->ptr, n);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Compares one agent's selections. Returns 0 same, 1 different, 2 error, 3 unknown. */
static int diff_agent(const input *a, const input *b, rsc_bytes agent, const char *label, const opts *o,
                      int first)
{
    rsc_selection sa, sb;
    if (rsc_select(&a->prog, &agent, 1, &sa) != RSC_OK || rsc_select(&b->prog, &agent, 1, &sb) != RSC_OK)
        return rsc_cli_fail("diff", "agent %s: cannot select (too many groups)", label);
    rsc_explore_options eo;
    memset(&eo, 0, sizeof eo);
    eo.max_states = o->max_states;
    rsc_diff_result r;
    rsc_status st = rsc_diff(&sa, &sb, o->witnesses, &eo, &r);
    if (st != RSC_OK) {
        rsc_diff_result_free(&r, &eo);
        return rsc_cli_fail("diff", "agent %s: %s", label, rsc_strerror(st));
    }
    int rc = r.outcome == RSC_DIFF_SAME ? 0 : r.outcome == RSC_DIFF_DIFFERENT ? 1 : 3;
    /* group-level changes */
    const char *keys[] = {"crawl-delay", "request-rate"};
    rsc_bytes va[2], vb[2];
    int ha[2], hb[2], changed[2];
    for (int k = 0; k < 2; k++) {
        ha[k] = group_value(&sa, keys[k], &va[k]);
        hb[k] = group_value(&sb, keys[k], &vb[k]);
        changed[k] = ha[k] != hb[k] || va[k].len != vb[k].len || memcmp(va[k].ptr, vb[k].ptr, va[k].len) != 0;
        if (changed[k] && rc == 0)
            rc = 1;
    }
    int named_changed = sa.named != sb.named;
    if (named_changed && rc == 0)
        rc = 1;
    if (o->json) {
        printf("%s\n    {\"agent\": ", first ? "" : ",");
        json_str(label, strlen(label));
        printf(", \"outcome\": \"%s\", \"complete\": %s, \"states\": %zu, \"more\": %s",
               r.outcome == RSC_DIFF_SAME ? "same" : r.outcome == RSC_DIFF_DIFFERENT ? "different" : "unknown",
               r.complete ? "true" : "false", r.states, r.more ? "true" : "false");
        printf(", \"named\": {\"old\": %s, \"new\": %s}", sa.named ? "true" : "false",
               sb.named ? "true" : "false");
        for (int k = 0; k < 2; k++) {
            printf(", \"%s\": {\"old\": ", keys[k]);
            if (ha[k]) json_str(va[k].ptr, va[k].len); else fputs("null", stdout);
            fputs(", \"new\": ", stdout);
            if (hb[k]) json_str(vb[k].ptr, vb[k].len); else fputs("null", stdout);
            putchar('}');
        }
        fputs(", \"flips\": [", stdout);
        for (size_t k = 0; k < r.n_flips; k++) {
            const rsc_flip *f = &r.flips[k];
            printf("%s{\"path\": ", k ? ", " : "");
            json_str(f->path, f->len);
            fputs(", \"old\": ", stdout);
            say_rule(&sa, f->path, f->len, 1);
            fputs(", \"new\": ", stdout);
            say_rule(&sb, f->path, f->len, 1);
            putchar('}');
        }
        fputs("]}", stdout);
    } else {
        printf("%s: ", label);
        if (r.outcome == RSC_DIFF_SAME)
            puts("same");
        else if (r.outcome == RSC_DIFF_UNKNOWN)
            printf("unknown beyond %zu states (no difference found so far)\n", r.states);
        else
            printf("different%s\n", r.complete ? "" : " (not all changes listed)");
        for (size_t k = 0; k < r.n_flips; k++) {
            const rsc_flip *f = &r.flips[k];
            fputs("  ", stdout);
            rsc_cli_escaped(stdout, f->path, f->len);
            fputs(": ", stdout);
            say_rule(&sa, f->path, f->len, 0);
            fputs(" -> ", stdout);
            say_rule(&sb, f->path, f->len, 0);
            putchar('\n');
        }
        if (r.more)
            printf("  (more kinds of change: --witnesses N for more)\n");
        if (named_changed)
            printf("  group %s: the agent is %s named\n", sb.named ? "appeared" : "vanished",
                   sb.named ? "now" : "no longer");
        for (int k = 0; k < 2; k++) {
            if (!changed[k])
                continue;
            printf("  %s: ", keys[k]);
            if (ha[k]) rsc_cli_escaped(stdout, va[k].ptr, va[k].len); else fputs("(none)", stdout);
            fputs(" -> ", stdout);
            if (hb[k]) rsc_cli_escaped(stdout, vb[k].ptr, vb[k].len); else fputs("(none)", stdout);
            putchar('\n');
        }
    }
    if (r.outcome == RSC_DIFF_UNKNOWN)
        fprintf(stderr, "robotsc diff: agent %s: unknown beyond %zu states (--max-states)\n", label, r.states);
    rsc_diff_result_free(&r, &eo);
    return rc;
}

/* Sitemaps only in one file; returns 1 when any. */
static int diff_sitemaps(const input *a, const input *b, int json)
{
    int any = 0;
    for (int side = 0; side < 2; side++) {
        const rsc_program *p = side ? &b->prog : &a->prog, *q = side ? &a->prog : &b->prog;
        int first = 1;
        if (json)
            printf("%s\"%s\": [", side ? ", " : "", side ? "added" : "removed");
        for (size_t i = 0; i < rsc_sitemap_count(p); i++) {
            rsc_bytes u, v;
            uint32_t line;
            rsc_sitemap_get(p, i, &line, &u);
            int found = 0;
            for (size_t j = 0; j < rsc_sitemap_count(q) && !found; j++) {
                rsc_sitemap_get(q, j, &line, &v);
                found = u.len == v.len && memcmp(u.ptr, v.ptr, u.len) == 0;
            }
            if (found)
                continue;
            any = 1;
            if (json) {
                fputs(first ? "" : ", ", stdout);
                json_str(u.ptr, u.len);
            } else {
                printf("sitemap %s: ", side ? "added" : "removed");
                rsc_cli_escaped(stdout, u.ptr, u.len);
                putchar('\n');
            }
            first = 0;
        }
        if (json)
            putchar(']');
    }
    return any;
}

/* --urls: the URLs whose verdict flips for some agent. */
static int diff_urls(const input *a, const input *b, const agent_list *ag, const char *path, int json,
                     size_t *flips)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return rsc_cli_fail("diff", "%s: cannot read: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int first = 1;
    if (json)
        fputs(",\n  \"urls\": [", stdout);
    while ((n = getline(&line, &cap, f)) > 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            n--;
        if (n == 0)
            continue;
        for (size_t k = 0; k < ag->n; k++) {
            rsc_selection sa, sb;
            if (rsc_select(&a->prog, &ag->v[k], 1, &sa) != RSC_OK ||
                rsc_select(&b->prog, &ag->v[k], 1, &sb) != RSC_OK)
                continue;
            int va = rsc_match_url(&sa, line, (size_t)n, NULL), vb = rsc_match_url(&sb, line, (size_t)n, NULL);
            if (va == vb)
                continue;
            (*flips)++;
            const char *lab = ag->v[k].len == 1 && ag->v[k].ptr[0] == '*' ? "*" : ag->v[k].ptr;
            size_t ll = ag->v[k].len;
            if (json) {
                fputs(first ? "{\"url\": " : ", {\"url\": ", stdout);
                json_str(line, (size_t)n);
                fputs(", \"agent\": ", stdout);
                json_str(lab, ll);
                printf(", \"old\": \"%s\", \"new\": \"%s\"}", verdict(va), verdict(vb));
            } else {
                fputs("url ", stdout);
                rsc_cli_escaped(stdout, line, (size_t)n);
                fputs(" (", stdout);
                rsc_cli_escaped(stdout, lab, ll);
                printf("): %s -> %s\n", verdict(va), verdict(vb));
            }
            first = 0;
        }
    }
    if (json)
        putchar(']');
    free(line);
    if (f != stdin)
        fclose(f);
    return 0;
}

/* The comparison of two loaded inputs: exit status 0, 1 or 2. */
static int diff_inputs(const input *a, const input *b, const opts *o, const char *const files[2])
{
    int rc = 0;
    if (rsc_program_profile(&a->prog) != rsc_program_profile(&b->prog))
        rc = rsc_cli_fail("diff", "the two blobs were compiled with different profiles");
    agent_list ag = {NULL, 0, 0};
    static const rsc_bytes other = {"*", 1}; /* names no group: the global selection */
    for (size_t k = 0; rc == 0 && k < o->n_agents; k++) {
        rsc_bytes t;
        if ((rc = rsc_cli_agent("diff", o->agents[k], &t)) == 0 && add_agent(&ag, t) != 0)
            rc = rsc_cli_fail("diff", "out of memory");
    }
    if (rc == 0 && o->n_agents == 0) {
        for (int s = 0; s < 2 && rc == 0; s++) {
            const rsc_program *p = s ? &b->prog : &a->prog;
            rsc_bytes t;
            for (size_t i = 0; rsc_blob_agent(p, i, &t); i++)
                if (t.len && add_agent(&ag, t) != 0)
                    rc = rsc_cli_fail("diff", "out of memory");
        }
        if (ag.n)
            qsort(ag.v, ag.n, sizeof *ag.v, cmp_bytes);
        if (rc == 0 && add_agent(&ag, other) != 0)
            rc = rsc_cli_fail("diff", "out of memory");
    }
    int any_diff = 0, any_unknown = 0;
    if (rc == 0) {
        if (o->json) {
            fputs("{\"old\": ", stdout);
            json_str(files[0], strlen(files[0]));
            fputs(", \"new\": ", stdout);
            json_str(files[1], strlen(files[1]));
            fputs(",\n  \"agents\": [", stdout);
        }
        for (size_t k = 0; k < ag.n && rc == 0; k++) {
            char label[256];
            int is_other = ag.v[k].len == 1 && ag.v[k].ptr[0] == '*' && o->n_agents == 0;
            snprintf(label, sizeof label, "%.*s", (int)(ag.v[k].len < 200 ? ag.v[k].len : 200),
                     ag.v[k].ptr);
            if (is_other)
                snprintf(label, sizeof label, "* (any other agent)");
            int r = diff_agent(a, b, ag.v[k], label, o, k == 0);
            if (r == 2)
                rc = 2;
            any_diff |= r == 1;
            any_unknown |= r == 3;
        }
        if (rc == 0) {
            if (o->json)
                fputs("],\n  \"sitemaps\": {", stdout);
            int sm = diff_sitemaps(a, b, o->json);
            if (o->json)
                putchar('}');
            any_diff |= sm;
        }
        size_t uflips = 0;
        if (rc == 0 && o->urls)
            rc = diff_urls(a, b, &ag, o->urls, o->json, &uflips);
        if (o->json && rc == 0)
            printf(",\n  \"outcome\": \"%s\"}\n",
                   any_diff ? "different" : any_unknown ? "unknown" : "same");
    }
    free(ag.v);
    if (rc)
        return rc;
    /* a difference found is an answer; "unknown" only without one */
    return any_diff ? 1 : any_unknown ? 2 : 0;
}

/* Loads the two inputs (each a file named in files, or the bytes given
 * when not NULL) and diffs them; the exit status. */
static int diff_pair(const char *const files[2], const void *old_blob, size_t old_len,
                     const void *new_blob, size_t new_len, rsc_profile prof, const opts *o)
{
    input a, b;
    int rc = load_input(files[0], old_blob, old_len, prof, o->text, &a);
    if (rc == 0)
        rc = load_input(files[1], new_blob, new_len, prof, o->text, &b);
    else
        memset(&b, 0, sizeof b);
    if (rc == 0)
        rc = diff_inputs(&a, &b, o, files);
    free_input(&a);
    free_input(&b);
    return rc;
}

int rsc_cmd_diff(int argc, char **argv)
{
    return rsc_cli_diff_run(argc, argv, NULL, NULL, 0);
}

int rsc_cli_diff_run(int argc, char **argv, const char *old_name, const void *old_blob, size_t old_len)
{
    const int want = old_blob ? 1 : 2; /* files on the command line */
    opts o;
    memset(&o, 0, sizeof o);
    o.witnesses = 5;
    rsc_profile prof = RSC_PROFILE_GOOGLE;
    const char *files[2] = {NULL, NULL};
    size_t nf = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int r;
        if (rsc_cli_is_help(argv[i])) {
            fputs(diff_usage, stdout);
            return 0;
        }
        if ((r = rsc_cli_opt(argc, argv, &i, "--agent", &v)) != 0) {
            if (r < 0)
                return rsc_cli_fail("diff", "--agent needs a value");
            if (o.n_agents == sizeof o.agents / sizeof o.agents[0])
                return rsc_cli_fail("diff", "too many --agent");
            o.agents[o.n_agents++] = v;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--profile", &v)) != 0) {
            if (r < 0 || (strcmp(v, "google") != 0 && strcmp(v, "rfc") != 0))
                return rsc_cli_fail("diff", "--profile needs google or rfc");
            prof = strcmp(v, "rfc") == 0 ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--witnesses", &v)) != 0) {
            int64_t x;
            if (r < 0 || rsc_cli_i64(v, &x) != 0 || x < 1 || x > 1000000)
                return rsc_cli_fail("diff", "--witnesses needs a number from 1");
            o.witnesses = (size_t)x;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--max-states", &v)) != 0) {
            int64_t x;
            if (r < 0 || rsc_cli_i64(v, &x) != 0 || x < 1 || x > 100000000)
                return rsc_cli_fail("diff", "--max-states needs a number from 1");
            o.max_states = (size_t)x;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--urls", &v)) != 0) {
            if (r < 0)
                return rsc_cli_fail("diff", "--urls needs a file");
            o.urls = v;
        } else if (strcmp(argv[i], "--json") == 0) {
            o.json = 1;
        } else if (strcmp(argv[i], "--text") == 0) {
            o.text = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return rsc_cli_fail("diff", "unknown option '%s' (see robotsc diff --help)", argv[i]);
        } else if (nf < (size_t)want) {
            files[nf++] = argv[i];
        } else {
            return rsc_cli_fail("diff", "too many files given");
        }
    }
    if (nf != (size_t)want)
        return rsc_cli_fail("diff", old_blob ? "needs NEW" : "needs OLD and NEW (see robotsc diff --help)");
    if (old_blob) {
        files[1] = files[0];
        files[0] = old_name;
    }
    return diff_pair(files, old_blob, old_len, NULL, 0, prof, &o);
}

int rsc_cli_diff_mem(const char *old_name, const void *old_blob, size_t old_len, const char *new_name,
                     const void *new_blob, size_t new_len)
{
    opts o;
    memset(&o, 0, sizeof o);
    o.witnesses = 3;
    const char *files[2] = {old_name, new_name};
    return diff_pair(files, old_blob, old_len, new_blob, new_len, RSC_PROFILE_GOOGLE, &o);
}
