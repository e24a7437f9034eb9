/* SPDX-License-Identifier: Apache-2.0 */
/* Every row of the conformance helper files (google_helper_cases.tsv and
 * google_extra_helper_cases.tsv), for every function they name. URL to
 * path rows go to rsc_url_path (runtime); all others to the front end.
 * Usage: front_helpers CONFORMANCE_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front_check.h"
#include "robotsc/compiler.h"
#include "robotsc/ir.h"
#include "robotsc/runtime.h"
#include "testutil.h"

typedef tu_buf buf;

static void putnum(buf *b, unsigned long v)
{
    char t[32];
    tu_buf_put(b, t, (size_t)snprintf(t, sizeof t, "%lu", v));
}

/* Computes the function's answer for one input into out. Returns 0, or -1
 * for an unknown function. */
static int answer(const char *fn, const char *in, size_t len, const char *expected, buf *out)
{
    if (strcmp(fn, "GetPathParamsQuery") == 0) { /* spec G */
        size_t off = 0, plen = 0;
        int slash = 0;
        rsc_url_path(in, len, &off, &plen, &slash);
        if (slash)
            tu_buf_put(out, "/", 1);
        tu_buf_put(out, in + off, plen);
        return 0;
    }
    if (strcmp(fn, "MaybeEscapePattern") == 0) { /* spec D */
        char *t = malloc(3 * len + 1);
        size_t k = rsc_escape_pattern(in, len, t);
        tu_buf_put(out, t, k);
        free(t);
        return 0;
    }
    if (strcmp(fn, "IsValidUserAgentToObey") == 0) {
        tu_buf_put(out, rsc_is_valid_agent(in, len) ? "1" : "0", 1);
        return 0;
    }
    if (strcmp(fn, "ExtractUserAgent") == 0) { /* spec F.2 */
        tu_buf_put(out, in, rsc_extract_agent(in, len));
        return 0;
    }
    if (strncmp(fn, "RobotsStatsReporter.", 20) != 0 &&
        strncmp(fn, "RobotsParsingReporter.", 22) != 0)
        return -1;

    rsc_ir *ir = NULL;
    if (rsc_parse(in, len, NULL, &ir) != RSC_OK) {
        tu_buf_put(out, "<parse failed>", 14);
        return 0;
    }
    char why[512];
    if (fc_all(ir, in, len, why, sizeof why) != 0) {
        tu_buf_put(out, "<check failed: ", 15);
        tu_buf_put(out, why, strlen(why));
        tu_buf_put(out, ">", 1);
        rsc_ir_free(ir);
        return 0;
    }
    unsigned long valid = 0, unknown = 0, last_dir = 0;
    for (size_t i = 0; i < ir->n_lines; i++) {
        const rsc_line *l = &ir->lines[i];
        if (!l->has_directive)
            continue;
        last_dir = l->number;
        if (l->tag == RSC_TAG_UNKNOWN || l->tag == RSC_TAG_UNUSED)
            unknown++;
        else
            valid++;
    }
    const char *field = strchr(fn, '.') + 1;
    int parsing = fn[6] == 'P'; /* RobotsParsingReporter */
    int rc = 0;
    if (strcmp(field, "valid_directives") == 0) {
        putnum(out, valid);
    } else if (strcmp(field, "unknown_directives") == 0 && !parsing) {
        putnum(out, unknown);
    } else if (strcmp(field, "sitemap") == 0 && !parsing) {
        for (size_t i = 0; i < ir->n_sitemaps; i++)
            tu_buf_put(out, ir->sitemaps[i].url.ptr, ir->sitemaps[i].url.len);
    } else if (strcmp(field, "last_line_seen") == 0) {
        /* Stats: the last line with a directive; parsing: every line is
         * reported, the trailing empty one included. */
        putnum(out, parsing ? (unsigned long)ir->n_lines : last_dir);
    } else if (strcmp(field, "parse_results_size") == 0 && parsing) {
        putnum(out, (unsigned long)ir->n_lines);
    } else if (strcmp(field, "line") == 0 && parsing) {
        unsigned long num = strtoul(expected + 5, NULL, 10); /* "line=N ..." */
        char rec[256];
        if (num >= 1 && num <= ir->n_lines) {
            size_t k = rsc_ir_record(ir, num - 1, rec, sizeof rec);
            tu_buf_put(out, rec, k);
        } else {
            tu_buf_put(out, "<no such line>", 14);
        }
    } else {
        rc = -1;
    }
    rsc_ir_free(ir);
    return rc;
}

static int run_file(const char *path, int *passed)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    char *line;
    while ((line = tu_getline(f)) != NULL) {
        char *fields[4];
        if (tu_split_tabs(line, fields, 4) != 4) {
            free(line);
            continue;
        }
        size_t ilen = 0, elen = 0;
        char *in = tu_unescape(fields[2], &ilen);
        char *exp = tu_unescape(fields[3], &elen);
        buf got = {NULL, 0, 0};
        tu_buf_put(&got, "", 0);
        if (answer(fields[1], in, ilen, exp, &got) != 0) {
            TU_CHECK(0, "%s: unknown function %s", fields[0], fields[1]);
        } else if (got.n != elen || memcmp(got.p, exp, elen) != 0) {
            TU_CHECK(0, "%s %s: got '%s', want '%s'", fields[0], fields[1], got.p, exp);
        } else {
            (*passed)++;
        }
        free(got.p);
        free(in);
        free(exp);
        free(line);
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: front_helpers CONFORMANCE_DIR\n");
        return 2;
    }
    if (!tu_dir_exists(argv[1])) {
        printf("conformance data not found at %s: skipped\n", argv[1]);
        return 77;
    }
    static const char *const files[] = {"google_helper_cases.tsv",
                                        "google_extra_helper_cases.tsv"};
    int passed = 0;
    for (size_t i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], files[i]);
        if (run_file(path, &passed) != 0)
            tu_failures++;
    }
    return tu_report("conformance helper rows", passed);
}
