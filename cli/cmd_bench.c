/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc bench: compile, load and match one robots.txt against a list of
 * URLs, in one process, and measure each step (issue 4). Matching is timed
 * against a floor: FNV-1a 64 over the same URL bytes in the same loop, i.e.
 * the least a hash-table lookup keyed by the URL would cost.
 *
 * Method: file I/O happens before any timing. Each figure is the median of
 * --rounds samples, after a warm-up; a sample repeats its operation until
 * it lasts at least --min-ms, so the clock's resolution does not matter.
 * Match and floor rounds alternate, so frequency drift hits both alike.
 * Matching is timed two ways in the same rounds: on the programs
 * (rsc_selection_use(RSC_ENGINE_PROGRAMS)) and on the selection as
 * rsc_select gives it, which runs the blob's DFA when its one rule set has
 * one (format 5: the compiler builds it) and the programs otherwise;
 * engine= says which.
 * Every result goes into a volatile bu_sink: no loop can be optimised away. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "cli.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

#define MAX_AGENTS 16
#define MAX_ROUNDS 1000

typedef struct bench_args {
    const char *robots, *urls;
    rsc_bytes agents[MAX_AGENTS];
    size_t n_agents;
    rsc_profile profile;
    int rounds;
    double min_ms;
} bench_args;

static int parse_args(int argc, char **argv, bench_args *a)
{
    memset(a, 0, sizeof *a);
    a->rounds = 7;
    a->min_ms = 20;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *val = NULL;
        int r;
        if (rsc_cli_is_help(s)) {
            puts("usage: robotsc bench [--agent A] [--rounds N] [--min-ms M] [--profile google|rfc]\n"
                 "                     ROBOTS.txt URLS.txt\n"
                 "Compiles ROBOTS.txt, loads and verifies the blob, then matches every URL of\n"
                 "URLS.txt (one per line) many times. Each figure is the median of N rounds\n"
                 "(default 7) after a warm-up; a round lasts at least M ms (default 20); a\n"
                 "compile slower than 0.2 s gets fewer rounds (about a second of them).\n"
                 "The floor is FNV-1a 64 over the same URL bytes in the same loop. The agent\n"
                 "defaults to Googlebot; --agent may be repeated. Matching is timed on the\n"
                 "programs (match_ns) and on the selection as rsc_select gives it (dfa_match_ns):\n"
                 "the blob's DFA when its one rule set has one (engine=dfa), else the programs\n"
                 "(engine=programs: a rule set over the compiler's DFA budget, several rule\n"
                 "sets or none).\n"
                 "The last line is:\n"
                 "compile_us=.. blob_bytes=.. source_bytes=.. verify_ns=.. match_ns=.. floor_ns=.. ratio=..\n"
                 "engine=dfa|programs dfa_bytes=.. dfa_states=.. dfa_classes=.. dfa_match_ns=.. dfa_ratio=..");
            return -1;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--agent", &val)) != 0) {
            if (r < 0)
                return rsc_cli_fail("bench", "--agent needs a value");
            if (a->n_agents == MAX_AGENTS)
                return rsc_cli_fail("bench", "too many agents");
            if (rsc_cli_agent("bench", val, &a->agents[a->n_agents++]) != 0)
                return 2;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--rounds", &val)) != 0) {
            char *end = NULL;
            long n = r < 0 ? 0 : strtol(val, &end, 10);
            if (r < 0 || *end || n < 1 || n > MAX_ROUNDS)
                return rsc_cli_fail("bench", "--rounds must be 1..%d", MAX_ROUNDS);
            a->rounds = (int)n;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--min-ms", &val)) != 0) {
            char *end = NULL;
            double m = r < 0 ? 0 : strtod(val, &end);
            if (r < 0 || *end || !(m >= 0.01 && m <= 60000))
                return rsc_cli_fail("bench", "--min-ms must be 0.01..60000");
            a->min_ms = m;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--profile", &val)) != 0) {
            if (r > 0 && strcmp(val, "google") == 0)
                a->profile = RSC_PROFILE_GOOGLE;
            else if (r > 0 && strcmp(val, "rfc") == 0)
                a->profile = RSC_PROFILE_RFC;
            else
                return rsc_cli_fail("bench", "--profile must be google or rfc");
        } else if (s[0] == '-' && s[1] != 0) {
            return rsc_cli_fail("bench", "unknown option '%s'", s);
        } else if (!a->robots) {
            a->robots = s;
        } else if (!a->urls) {
            a->urls = s;
        } else {
            return rsc_cli_fail("bench", "unexpected argument '%s'", s);
        }
    }
    if (!a->robots || !a->urls)
        return rsc_cli_fail("bench", "usage: robotsc bench [--agent A] [--rounds N] ROBOTS.txt URLS.txt");
    if (a->n_agents == 0) {
        a->agents[0].ptr = "Googlebot";
        a->agents[0].len = 9;
        a->n_agents = 1;
    }
    return 0;
}

/* Median per-call time (ns) of rsc_compile, rounds samples. */
static int time_compile(const bench_args *a, const unsigned char *text, size_t len,
                        uint64_t min_ns, double *per_call, rsc_blob *keep)
{
    rsc_compile_options o = {0};
    o.profile = a->profile;
    uint64_t t0 = bu_now_ns();
    rsc_status st = rsc_compile(text, len, &o, keep); /* warm-up, kept */
    uint64_t once = bu_now_ns() - t0;
    if (st != RSC_OK)
        return rsc_cli_fail("bench", "%s: cannot compile: %s", a->robots, rsc_strerror(st));
    size_t reps = bu_reps(once, min_ns);
    /* A slow compile gets fewer rounds: about one second of them. */
    int rounds = a->rounds;
    if ((double)once * rounds > 1e9)
        rounds = once >= 1000000000u ? 1 : (int)(1e9 / (double)once);
    double *v = malloc((size_t)rounds * sizeof *v);
    if (!v)
        return rsc_cli_fail("bench", "out of memory");
    for (int r = 0; r < rounds; r++) {
        t0 = bu_now_ns();
        for (size_t k = 0; k < reps; k++) {
            rsc_blob b;
            st = rsc_compile(text, len, &o, &b);
            bu_sink += b.size;
            rsc_blob_free(&b, &o);
            if (st != RSC_OK) {
                free(v);
                return rsc_cli_fail("bench", "%s: compile failed on repeat: %s", a->robots, rsc_strerror(st));
            }
        }
        v[r] = (double)(bu_now_ns() - t0) / (double)reps;
    }
    *per_call = bu_median(v, rounds);
    free(v);
    return 0;
}

int rsc_cmd_bench(int argc, char **argv)
{
    bench_args a;
    int r = parse_args(argc, argv, &a);
    if (r)
        return r < 0 ? 0 : r;
    const uint64_t min_ns = (uint64_t)(a.min_ms * 1e6);

    size_t src_len, url_len;
    unsigned char *text = rsc_cli_read(a.robots, &src_len);
    if (!text)
        return rsc_cli_fail("bench", "%s: %s", a.robots, strerror(errno));
    char *ubuf = (char *)rsc_cli_read(a.urls, &url_len);
    if (!ubuf) {
        free(text);
        return rsc_cli_fail("bench", "%s: %s", a.urls, strerror(errno));
    }
    rsc_bytes *urls = NULL;
    long nl = bu_lines(ubuf, url_len, &urls);
    if (nl <= 0) {
        free(text);
        free(ubuf);
        free(urls);
        return rsc_cli_fail("bench", nl < 0 ? "out of memory" : "%s: no URLs", a.urls);
    }
    const size_t n = (size_t)nl;
    size_t url_bytes = 0, path_bytes = 0;
    for (size_t i = 0; i < n; i++) {
        size_t off, plen;
        int slash;
        rsc_url_path(urls[i].ptr, urls[i].len, &off, &plen, &slash);
        url_bytes += urls[i].len;
        path_bytes += plen + (size_t)(slash != 0);
    }

    /* Compile and verify. */
    rsc_blob blob = {NULL, 0};
    double compile_ns = 0;
    int status = time_compile(&a, text, src_len, min_ns, &compile_ns, &blob);
    if (status) {
        free(text);
        free(ubuf);
        free(urls);
        return status;
    }
    double verify_ns = bu_time_load(blob.data, blob.size, min_ns, a.rounds);
    rsc_program prog;
    rsc_load_error le = {0, NULL};
    rsc_status st = rsc_load(&prog, blob.data, blob.size, &le);
    rsc_selection sel;
    if (st == RSC_OK)
        st = rsc_select(&prog, a.agents, a.n_agents, &sel);
    if (st != RSC_OK) {
        status = rsc_cli_fail("bench", "%s: cannot load or select: %s", a.robots, rsc_strerror(st));
        goto done;
    }
    rsc_blob_info bi;
    memset(&bi, 0, sizeof bi);
    rsc_blob_info_get(&prog, &bi);
    /* rsc_select gives the blob's DFA when the one rule set selected has
     * one (format 5), else the programs: "match" times the programs,
     * "dfa" the selection as given, in the same rounds. */
    const rsc_selection dsel = sel;
    rsc_engine_info dinfo;
    const int on_dfa = rsc_selection_engine(&dsel, &dinfo) == RSC_ENGINE_DFA;
    rsc_selection_use(&sel, RSC_ENGINE_PROGRAMS);

    /* Verdicts, untimed: what the timed loop computes, the same both ways. */
    size_t disallowed = 0, ddisallowed = 0;
    for (size_t i = 0; i < n; i++) {
        disallowed += !rsc_match_url(&sel, urls[i].ptr, urls[i].len, NULL);
        ddisallowed += !rsc_match_url(&dsel, urls[i].ptr, urls[i].len, NULL);
    }
    if (ddisallowed != disallowed) {
        status = rsc_cli_fail("bench", "%s: %zu URLs disallowed with the DFA, %zu with the programs",
                              a.robots, ddisallowed, disallowed);
        goto done;
    }

    /* Calibrate (this is also the first warm-up), then one more warm-up. */
    uint64_t t0 = bu_now_ns();
    bu_pass_match(&sel, urls, n, 1);
    uint64_t tm = bu_now_ns() - t0;
    t0 = bu_now_ns();
    bu_pass_floor(urls, n, 1);
    uint64_t tf = bu_now_ns() - t0;
    size_t reps = bu_reps(tm > tf ? tm : tf, min_ns);
    bu_pass_match(&sel, urls, n, reps);
    bu_pass_match(&dsel, urls, n, reps);
    bu_pass_floor(urls, n, reps);

    double vm[MAX_ROUNDS], vf[MAX_ROUNDS], vdm[MAX_ROUNDS];
    const double per = (double)reps * (double)n;
    for (int k = 0; k < a.rounds; k++) {
        t0 = bu_now_ns();
        bu_pass_match(&sel, urls, n, reps);
        vm[k] = (double)(bu_now_ns() - t0) / per;
        t0 = bu_now_ns();
        bu_pass_floor(urls, n, reps);
        vf[k] = (double)(bu_now_ns() - t0) / per;
        t0 = bu_now_ns();
        bu_pass_match(&dsel, urls, n, reps);
        vdm[k] = (double)(bu_now_ns() - t0) / per;
    }
    double match_ns = bu_median(vm, a.rounds), floor_ns = bu_median(vf, a.rounds);
    double dfa_ns = bu_median(vdm, a.rounds);
    double ratio = floor_ns > 0 ? match_ns / floor_ns : 0;
    double dfa_ratio = floor_ns > 0 ? dfa_ns / floor_ns : 0;

    printf("robots:   %s (%zu bytes, %u rules, %u groups, %u agents)\n", a.robots, src_len,
           (unsigned)bi.n_rules, (unsigned)bi.n_groups, (unsigned)bi.n_agents);
    printf("urls:     %s (%zu URLs, mean %.1f bytes, mean path %.1f bytes)\n", a.urls, n,
           (double)url_bytes / (double)n, (double)path_bytes / (double)n);
    printf("agent:    ");
    for (size_t i = 0; i < a.n_agents; i++)
        printf("%s%.*s", i ? ", " : "", (int)a.agents[i].len, a.agents[i].ptr);
    printf(" (%u rule sets selected, profile %s)\n", (unsigned)sel.n_sets, a.profile ? "rfc" : "google");
    printf("verdicts: %zu allowed, %zu disallowed\n", n - disallowed, disallowed);
    printf("method:   median of %d rounds after warm-up; %zu passes over the list per round\n", a.rounds, reps);
    printf("compile:  %.2f us (%.1f MB/s of robots.txt)\n", compile_ns / 1e3,
           compile_ns > 0 ? (double)src_len / compile_ns * 1e3 : 0.0);
    printf("blob:     %zu bytes = %.3f x source (%u programs, %u trie nodes, largest %u, %u globs)\n",
           blob.size, src_len ? (double)blob.size / (double)src_len : 0.0, (unsigned)bi.n_programs,
           (unsigned)bi.total_nodes, (unsigned)bi.max_nodes, (unsigned)bi.n_globs);
    printf("verify:   %.0f ns (%.2f GB/s)\n", verify_ns, verify_ns > 0 ? (double)blob.size / verify_ns : 0.0);
    printf("match:    %.2f ns/URL on the programs (%.2f M URLs/s, %.3f ns/path byte)\n", match_ns,
           match_ns > 0 ? 1e3 / match_ns : 0.0, path_bytes ? match_ns * (double)n / (double)path_bytes : 0.0);
    printf("floor:    %.2f ns/URL (FNV-1a 64 over the whole URL, %.3f ns/URL byte)\n", floor_ns,
           floor_ns * (double)n / (double)url_bytes);
    printf("ratio:    %.3f x floor\n", ratio);
    if (on_dfa)
        printf("engine:   dfa (the blob's DFA: %zu bytes, %u states, %u classes, %u rules); match "
               "%.2f ns/URL, %.3f x floor\n",
               dinfo.bytes, dinfo.states, dinfo.classes, dinfo.rules, dfa_ns, dfa_ratio);
    else
        printf("engine:   programs (no DFA in the blob for this selection: a rule set over the "
               "compiler's budget, several rule sets or none); %.2f ns/URL, %.3f x floor\n",
               dfa_ns, dfa_ratio);
    printf("compile_us=%.3f blob_bytes=%zu source_bytes=%zu verify_ns=%.0f match_ns=%.2f floor_ns=%.2f ratio=%.3f "
           "engine=%s dfa_bytes=%zu dfa_states=%u dfa_classes=%u dfa_match_ns=%.2f dfa_ratio=%.3f\n",
           compile_ns / 1e3, blob.size, src_len, verify_ns, match_ns, floor_ns, ratio,
           on_dfa ? "dfa" : "programs", dinfo.bytes, dinfo.states, dinfo.classes, dfa_ns, dfa_ratio);
    if (fflush(stdout) != 0)
        status = rsc_cli_fail("bench", "cannot write output");
done:
    rsc_blob_free(&blob, NULL);
    free(text);
    free(ubuf);
    free(urls);
    return status;
}
