/* SPDX-License-Identifier: Apache-2.0 */
/* Golden blobs: each tests/golden/NAME.txt compiles (profile rfc when NAME
 * starts with "rfc", else google) to exactly NAME.rbc, whose dump is exactly
 * NAME.dump. The same input compiled twice gives the same bytes, rsc_load
 * accepts the blob, so does the independent checker of blobcheck.h, and
 * the node and glob counts the dump prints are the checker's.
 *
 * Usage: backend_golden check|update DIR NAME...
 * "update" rewrites the pinned files (CMake target update-golden); it is
 * never run by the tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobcheck.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void text_write(void *ud, const char *s, size_t n)
{
    text *t = ud;
    if (t->len + n + 1 > t->cap) {
        size_t cap = (t->len + n + 1) * 2;
        char *q = realloc(t->p, cap);
        if (!q) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        t->p = q;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = 0;
}

static int write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(p, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

/* Where two byte strings first differ. */
static size_t first_diff(const char *a, size_t na, const char *b, size_t nb)
{
    size_t i = 0;
    while (i < na && i < nb && a[i] == b[i])
        i++;
    return i;
}

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[1], "check") != 0 && strcmp(argv[1], "update") != 0)) {
        fprintf(stderr, "usage: backend_golden check|update DIR NAME...\n");
        return 2;
    }
    int update = strcmp(argv[1], "update") == 0, passed = 0;
    const char *dir = argv[2];
    for (int i = 3; i < argc; i++) {
        const char *name = argv[i];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.txt", dir, name);
        size_t n;
        char *body = tu_read_file(path, &n);
        if (!body) {
            TU_CHECK(0, "cannot read %s", path);
            continue;
        }
        rsc_compile_options o;
        memset(&o, 0, sizeof o);
        o.profile = strncmp(name, "rfc", 3) == 0 ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
        rsc_blob b1, b2;
        rsc_status s1 = rsc_compile(body, n, &o, &b1), s2 = rsc_compile(body, n, &o, &b2);
        free(body);
        TU_CHECK(s1 == RSC_OK && s2 == RSC_OK, "%s: compile: %d %d", name, (int)s1, (int)s2);
        if (s1 != RSC_OK || s2 != RSC_OK) {
            rsc_blob_free(&b1, &o);
            rsc_blob_free(&b2, &o);
            continue;
        }
        TU_CHECK(b1.size == b2.size && memcmp(b1.data, b2.data, b1.size) == 0,
                 "%s: two compilations differ", name);
        rsc_program prog;
        rsc_load_error err = {0, NULL};
        rsc_status ls = rsc_load(&prog, b1.data, b1.size, &err);
        TU_CHECK(ls == RSC_OK, "%s: rsc_load: %d at %zu (%s)", name, (int)ls, err.offset,
                 err.what ? err.what : "");
        bc_info bi;
        bc_err ce = {{0}};
        int ok = bc_check_blob(b1.data, b1.size, 1, &bi, &ce);
        TU_CHECK(ok, "%s: independent check: %s", name, ce.msg);
        text dump = {NULL, 0, 0};
        if (ls == RSC_OK) {
            rsc_status ds = rsc_dump(&prog, text_write, &dump);
            TU_CHECK(ds == RSC_OK, "%s: rsc_dump: %d", name, (int)ds);
        }
        if (ok && dump.p) { /* "program K: data @D, size S, nodes N, globs G" */
            unsigned long nodes = 0, globs = 0, k = 0, pn = 0, pg = 0;
            for (const char *q = dump.p; (q = strstr(q, "\nprogram ")) != NULL; q++)
                if (sscanf(q, "\nprogram %lu: data @%*u, size %*u, nodes %lu, globs %lu", &k, &pn,
                           &pg) == 3)
                    nodes += pn, globs += pg;
            TU_CHECK(nodes == bi.nodes && globs == bi.globs,
                     "%s: the dump counts %lu nodes %lu globs, the checker %u %u", name, nodes,
                     globs, bi.nodes, bi.globs);
        }
        char rbc[4096], dmp[4096];
        snprintf(rbc, sizeof rbc, "%s/%s.rbc", dir, name);
        snprintf(dmp, sizeof dmp, "%s/%s.dump", dir, name);
        if (update) {
            TU_CHECK(write_file(rbc, b1.data, b1.size) == 0, "cannot write %s", rbc);
            TU_CHECK(dump.p && write_file(dmp, dump.p, dump.len) == 0, "cannot write %s", dmp);
            printf("updated %s (%zu bytes)\n", name, b1.size);
        } else {
            size_t pn, dn;
            char *pinned = tu_read_file(rbc, &pn), *pdump = tu_read_file(dmp, &dn);
            TU_CHECK(pinned && pn == b1.size && memcmp(pinned, b1.data, pn) == 0,
                     "%s: blob differs from %s (%zu vs %zu bytes, first difference at %zu); "
                     "if intended, run the update-golden target",
                     name, rbc, b1.size, pinned ? pn : 0,
                     pinned ? first_diff(pinned, pn, (const char *)b1.data, b1.size) : 0);
            TU_CHECK(pdump && dump.p && dn == dump.len && memcmp(pdump, dump.p, dn) == 0,
                     "%s: dump differs from %s at byte %zu", name, dmp,
                     pdump && dump.p ? first_diff(pdump, dn, dump.p, dump.len) : 0);
            free(pinned);
            free(pdump);
        }
        free(dump.p);
        rsc_blob_free(&b1, &o);
        rsc_blob_free(&b2, &o);
        passed++;
    }
    return tu_report("golden", passed - tu_failures);
}
