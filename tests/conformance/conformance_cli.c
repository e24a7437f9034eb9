/* SPDX-License-Identifier: Apache-2.0 */
/* CLI conformance: the plain `robotsc check --agent A SOURCE URL` (the
 * crawler's name as given, docs/SEMANTICS.md "The crawler's name") for
 * every verdict row whose agent and URL hold no NUL (argv strings cannot; at
 * stride 1 all 271 rows run), with SOURCE
 * the robots.txt, and for every fourth row also the blob compiled from it
 * (process start-up dominates the run time). Exit status 0 must mean
 * allowed and 1 disallowed.
 * Usage: conformance_cli ROBOTSC CONFORMANCE_DIR TMPDIR [TEXT_STRIDE
 * [BLOB_STRIDE]]: every TEXT_STRIDE-th row (default 1: all), and the blob
 * source for every BLOB_STRIDE-th row (default 4). Exit 77 without the
 * data. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "robotsc/compiler.h"
#include "testutil.h"

static int write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, len, f);
    return (fclose(f) == 0 && w == len) ? 0 : -1;
}

/* Runs robotsc check; returns its exit status, or -1 when it did not exit
 * normally. Its standard streams are /dev/null. */
static int run_check(const char *exe, const char *agent, const char *src, const char *url)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open("/dev/null", O_RDWR);
        if (fd >= 0) { /* stdin too: check reads URLs from it without any */
            dup2(fd, 0);
            dup2(fd, 1);
            dup2(fd, 2);
        }
        char *args[] = {(char *)exe, "check", "--agent", (char *)agent, (char *)src,
                        (char *)url, NULL};
        execv(exe, args);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
    if (argc < 4 || !tu_dir_exists(argv[2])) {
        printf("conformance data not found (%s): skipped\n", argc < 3 ? "no argument" : argv[2]);
        return 77;
    }
    const char *exe = argv[1];
    size_t text_stride = argc > 4 ? strtoul(argv[4], NULL, 10) : 1;
    size_t blob_stride = argc > 5 ? strtoul(argv[5], NULL, 10) : 4;
    if (text_stride == 0)
        text_stride = 1;
    if (blob_stride == 0)
        blob_stride = 1;
    int sampled = 0;
    static const char *files[] = {"google_cases.tsv", "google_extra_cases.tsv"};
    tu_case *cases = NULL;
    size_t n = 0;
    for (size_t i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[2], files[i]);
        long rows = tu_load_cases(path, &cases, &n);
        TU_CHECK(rows > 0, "%s: no rows", path);
    }
    char txt[4096], rbc[4096];
    snprintf(txt, sizeof txt, "%s/cli_case.txt", argv[3]);
    snprintf(rbc, sizeof rbc, "%s/cli_case.rbc", argv[3]);
    int passed = 0, skipped = 0;
    for (size_t i = 0; i < n; i++) {
        const tu_case *c = &cases[i];
        if (strlen(c->agent) != c->agent_len || strlen(c->url) != c->url_len) {
            skipped++;
            continue;
        }
        if (i % text_stride != 0)
            continue;
        sampled++;
        int want = c->expected ? 0 : 1;
        int ok = 1;
        if (write_file(txt, c->body, c->body_len) != 0) {
            TU_CHECK(0, "cannot write %s", txt);
            break;
        }
        int st = run_check(exe, c->agent, txt, c->url);
        if (st != want) {
            TU_CHECK(st == want, "%s: robotsc check (robots.txt) exit %d, expected %d", c->id,
                     st, want);
            ok = 0;
        }
        if (i % blob_stride != 0) { /* the blob source for some rows only */
            passed += ok;
            continue;
        }
        rsc_blob blob = {NULL, 0};
        rsc_status cs = rsc_compile(c->body, c->body_len, NULL, &blob);
        if (cs != RSC_OK) {
            TU_CHECK(cs == RSC_OK, "%s: rsc_compile: %s", c->id, rsc_strerror(cs));
            ok = 0;
        } else {
            if (write_file(rbc, blob.data, blob.size) != 0) {
                TU_CHECK(0, "cannot write %s", rbc);
                ok = 0;
            } else {
                st = run_check(exe, c->agent, rbc, c->url);
                if (st != want) {
                    TU_CHECK(st == want, "%s: robotsc check (blob) exit %d, expected %d",
                             c->id, st, want);
                    ok = 0;
                }
            }
            rsc_blob_free(&blob, NULL);
        }
        passed += ok;
    }
    remove(txt);
    remove(rbc);
    printf("%zu rows, %d skipped (NUL in agent or URL), %d run (every %zu-th; blob source "
           "every %zu-th), %d passed\n", n, skipped, sampled, text_stride, blob_stride, passed);
    TU_CHECK(text_stride != 1 || (skipped == 0 && passed == (int)n), "not every row passed");
    tu_free_cases(cases, n);
    return tu_report("conformance_cli", passed);
}
