/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc upgrade OLD -o NEW: a format-4 blob (robotsc 1.0.0) rebuilt in
 * the current format from its own rules, groups and directives, without the
 * robots.txt it came from (compiler/v4read.h, docs/UPGRADE.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../compiler/v4read.h"
#include "cli.h"

#define CMD "upgrade"

static const char usage[] =
    "usage: robotsc upgrade [--force] OLD -o NEW   (--output is an alias of -o)\n"
    "Rebuilds a format-4 blob (robotsc 1.0.x) in the current format from the rules,\n"
    "groups, sitemaps and directives it holds: no robots.txt needed. The result is\n"
    "what `robotsc compile` writes for the same file, verdict for verdict (rule\n"
    "lines, so --explain, included). A blob already in the current format is\n"
    "copied unchanged (exit 0, said on stderr); --force rebuilds a format-4 blob\n"
    "even when format 4 is current. NEW is written atomically ('-': stdout); it\n"
    "may be OLD. A damaged, truncated or foreign input is an error (exit 2), and\n"
    "NEW is then left untouched.";

int rsc_cmd_upgrade(int argc, char **argv)
{
    const char *in = NULL, *outp = NULL;
    int force = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int m;
        if (rsc_cli_is_help(argv[i])) {
            puts(usage);
            return 0;
        } else if (strcmp(argv[i], "--force") == 0) {
            force = 1;
        } else if ((m = rsc_cli_opt(argc, argv, &i, "-o", &v)) != 0 ||
                   (m = rsc_cli_opt(argc, argv, &i, "--output", &v)) != 0) {
            if (m < 0)
                return rsc_cli_fail(CMD, "-o needs a file name (robotsc upgrade --help)");
            outp = v;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return rsc_cli_fail(CMD, "unknown option '%s' (robotsc upgrade --help)", argv[i]);
        } else if (!in) {
            in = argv[i];
        } else {
            return rsc_cli_fail(CMD, "one OLD blob at a time (robotsc upgrade --help)");
        }
    }
    if (!in || !outp)
        return rsc_cli_fail(CMD, "needs OLD and -o NEW (robotsc upgrade --help)");
    size_t len = 0;
    unsigned char *data = rsc_cli_read(in, &len);
    if (!data)
        return rsc_cli_fail(CMD, "%s: %s", in, strerror(errno));
    rsc_blob nb = {NULL, 0};
    rsc_v4_error e = {0, ""};
    int what = 0;
    rsc_status st = rsc_v4_upgrade(data, len, force, &nb, &e, &what);
    const unsigned old_major = len > 4 ? data[4] : 0;
    free(data);
    if (st != RSC_OK)
        return rsc_cli_fail(CMD, "%s: %s at offset %zu: %s", in, rsc_strerror(st), e.offset,
                            e.what ? e.what : "");
    int rc = 0;
    if (rsc_cli_write_atomic(outp, nb.data, nb.size) != 0)
        rc = rsc_cli_fail(CMD, "%s: %s", outp, strerror(errno));
    else if (what == RSC_V4_CURRENT)
        fprintf(stderr, "robotsc upgrade: %s: already format %u: copied unchanged\n", in, old_major);
    else
        fprintf(stderr, "robotsc upgrade: %s: format %u rebuilt as format %u (%zu -> %zu bytes)\n",
                in, old_major, nb.size > 4 ? (unsigned)nb.data[4] : 0u, len, nb.size);
    rsc_blob_free(&nb, NULL);
    return rc;
}
