/* SPDX-License-Identifier: Apache-2.0 */
/* bench_dfa: what the blob's DFAs cost over a corpus directory (format 5:
 * the compiler determinises each rule set and writes its DFA into the
 * blob; the run time builds nothing). For every robots.txt, compiled
 * (google profile) as robotsc compiles it and once more with
 * RSC_COMPILE_NO_DFA (the programs alone), Googlebot's selection of the
 * first: whether it runs the blob's DFA (rsc_selection_engine), the DFA's
 * states, classes and bytes, and the two blobs' sizes and compile times
 * (the median of --rounds compiles; a file whose first compile took over
 * 1 ms gets 3 at most, over 20 ms only that one, as in bench_compile).
 * Matching on the DFA against the programs is robotsc bench's (the real URL
 * lists, both engines in the same rounds); this tool has no URLs.
 *
 *   bench_dfa [--rounds N] DIR > dfa.tsv
 *
 * One TSV row a file: name, source_bytes, rules (of the blob), dfa (1: the
 * selection runs the blob's DFA, 0: the programs, a rule set over the
 * compiler's DFA budget; -1: the file failed to compile, load or select),
 * states, classes, dfa_bytes, blob_bytes, nodfa_blob_bytes, compile_ns,
 * nodfa_compile_ns. Nothing here asserts a time. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

typedef struct compile_arg {
    const unsigned char *text;
    size_t len;
    const rsc_compile_options *opt;
} compile_arg;

static void compile_op(void *ud)
{
    const compile_arg *a = ud;
    rsc_blob b = {NULL, 0};
    bu_sink += (uint64_t)rsc_compile(a->text, a->len, a->opt, &b) + b.size;
    rsc_blob_free(&b, NULL);
}

/* Compiles text with opt into *blob (kept) and returns the median ns of
 * up to rounds compiles (the first, untimed by the loop, sets how many),
 * or -1 when it fails. */
static double timed_compile(const unsigned char *text, size_t len, const rsc_compile_options *opt,
                            int rounds, rsc_blob *blob)
{
    uint64_t t0 = bu_now_ns();
    if (rsc_compile(text, len, opt, blob) != RSC_OK)
        return -1;
    const double first = (double)(bu_now_ns() - t0);
    if (first > 20e6)
        return first;
    if (first > 1e6 && rounds > 3)
        rounds = 3;
    compile_arg a = {text, len, opt};
    return bu_time_median(compile_op, &a, 1, rounds);
}

int main(int argc, char **argv)
{
    int rounds = 5, bad = 0;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (argv[i][0] != '-' && !dir)
            dir = argv[i];
        else
            bad = 1;
    }
    if (bad || !dir || rounds < 1 || rounds > 99) {
        fprintf(stderr, "usage: bench_dfa [--rounds N] DIR\n");
        return 2;
    }
    char **names;
    long n = bu_dir_names(dir, &names);
    if (n < 0) {
        perror(dir);
        return 2;
    }
    const rsc_compile_options nodfa = {.no_prune = RSC_COMPILE_NO_DFA};
    const rsc_bytes ag = {"Googlebot", 9};
    printf("name\tsource_bytes\trules\tdfa\tstates\tclasses\tdfa_bytes\tblob_bytes\tnodfa_blob_bytes\t"
           "compile_ns\tnodfa_compile_ns\n");
    for (long k = 0; k < n; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        size_t len = 0;
        unsigned char *text = bu_read(path, &len);
        rsc_blob blob = {NULL, 0}, plain = {NULL, 0};
        rsc_program prog;
        rsc_selection sel;
        double ns = -1, plain_ns = -1;
        if (text) {
            ns = timed_compile(text, len, NULL, rounds, &blob);
            plain_ns = timed_compile(text, len, &nodfa, rounds, &plain);
        }
        if (ns < 0 || plain_ns < 0 || rsc_load(&prog, blob.data, blob.size, NULL) != RSC_OK ||
            rsc_select(&prog, &ag, 1, &sel) != RSC_OK) {
            printf("%s\t%zu\t0\t-1\t0\t0\t0\t0\t0\t0\t0\n", names[k], len);
        } else {
            rsc_engine_info info;
            rsc_blob_info bi;
            const int on_dfa = rsc_selection_engine(&sel, &info) == RSC_ENGINE_DFA;
            rsc_blob_info_get(&prog, &bi);
            printf("%s\t%zu\t%u\t%d\t%u\t%u\t%zu\t%zu\t%zu\t%.0f\t%.0f\n", names[k], len, bi.n_rules, on_dfa,
                   info.states, info.classes, info.bytes, blob.size, plain.size, ns, plain_ns);
        }
        free(text);
        rsc_blob_free(&blob, NULL);
        rsc_blob_free(&plain, NULL);
    }
    bu_names_free(names, n);
    return 0;
}
