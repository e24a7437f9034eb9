/* The format 3.1 seeds of tests/fuzz/regress/load (v3_*.rbc, written by
 * load_seeds.py): each valid one loads (and answers a match its source
 * defines), each broken one is rejected with the status, offset and
 * reason its name says (a 3.0 blob at Format_Minor; labels past STRINGS or
 * in a chain). A v3_*.rbc not listed here must load when its
 * name ends in "_ok" and be rejected otherwise. The format 2 seeds
 * (v2_*.rbc, kept as they were written) must all be rejected with
 * RSC_E_VERSION at offset 8: this runtime reads format 3 only. Argument:
 * the directory. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/runtime.h"
#include "testutil.h"

#define ANY SIZE_MAX

static const struct seed {
    const char *name;
    rsc_status want;
    size_t off;       /* ANY: not checked */
    const char *what; /* a part of rsc_load_error.what, or NULL */
    const char *agent, *path; /* valid ones: a match ... */
    int allowed;              /* ... and its verdict */
} seeds[] = {
    {"v3_basic", RSC_OK, 0, NULL, "Googlebot", "/private/x", 0},
    {"v3_patterns", RSC_OK, 0, NULL, "x", "/x/a/yz", 0},
    {"v3_groups", RSC_OK, 0, NULL, "b", "/bc/ok", 1},
    {"v3_rfc_escapes", RSC_OK, 0, NULL, "x", "/%7Euser/x", 0},
    {"v3_empty", RSC_OK, 0, NULL, "x", "/", 1},
    {"v3_minor9_ok", RSC_OK, 0, NULL, "Googlebot", "/private/index.html", 1},
    {"v3_skippable_section_ok", RSC_OK, 0, NULL, "x", "/admin/", 0},
    {"v3_priority0_rule_ok", RSC_OK, 0, NULL, "x", "/y", 1},
    {"v3_chain1024_ok", RSC_OK, 0, NULL, "x", "/", 1},
    {"v3_label_rep_ok", RSC_OK, 0, NULL, "x", "/ab", 0},
    {"v3_sets_absent_ok", RSC_OK, 0, NULL, "BOT", "/b", 0},
    {"v3_root_slot_ok", RSC_OK, 0, NULL, "x", "/xaab", 0},
    {"v3_chain_program_ok", RSC_OK, 0, NULL, "x", "/abxc", 0},
    {"v3_fail_loop_ok", RSC_OK, 0, NULL, "x", "/x/c/yz", 0},
    {"v3_labels_ok", RSC_OK, 0, NULL, "x", "/xaab", 0},
    {"v3_label_strings_end_ok", RSC_OK, 0, NULL, "x", "/xab/", 0},
    {"v3_label_moved_ok", RSC_OK, 0, NULL, "x", "/d/index.html", 1},
    {"v3_major2", RSC_E_VERSION, 8, "Format_Major", NULL, NULL, 0},
    {"v3_minor0", RSC_E_VERSION, 9, "3.0", NULL, NULL, 0},
    {"v3_reserved_flag", RSC_E_CORRUPT, 10, "reserved", NULL, NULL, 0},
    {"v3_unknown_section", RSC_E_VERSION, ANY, "unknown section", NULL, NULL, 0},
    {"v3_bitflip", RSC_E_CHECKSUM, 15, "checksum", NULL, NULL, 0},
    {"v3_chain1025", RSC_E_CORRUPT, ANY, "1024", NULL, NULL, 0},
    {"v3_label_rep_past_text", RSC_E_CORRUPT, ANY, "Rep's match text", NULL, NULL, 0},
    {"v3_empty_table_widths", RSC_E_CORRUPT, ANY, "fill", NULL, NULL, 0},
    {"v3_roots_level16", RSC_E_CORRUPT, ANY, "root Level", NULL, NULL, 0},
    {"v3_outs_next_later", RSC_E_CORRUPT, ANY, "Next not an earlier row", NULL, NULL, 0},
    {"v3_states_fail_range", RSC_E_CORRUPT, ANY, "state Fail or Out", NULL, NULL, 0},
    {"v3_states_out_range", RSC_E_CORRUPT, ANY, "state Fail or Out", NULL, NULL, 0},
    {"v3_edges_parent_range", RSC_E_CORRUPT, ANY, "edge Parent", NULL, NULL, 0},
    {"v3_pad_nonzero", RSC_E_CORRUPT, ANY, "padding byte not zero", NULL, NULL, 0},
    {"v3_pad_missing", RSC_E_CORRUPT, ANY, "padding", NULL, NULL, 0},
    {"v3_slot_range", RSC_E_CORRUPT, ANY, "Slot", NULL, NULL, 0},
    {"v3_internal513", RSC_E_CORRUPT, ANY, "N_Internal", NULL, NULL, 0},
    {"v3_chain_states_sum", RSC_E_CORRUPT, ANY, "chain states", NULL, NULL, 0},
    {"v3_chain_labels", RSC_E_CORRUPT, ANY, "chain with Labels", NULL, NULL, 0},
    {"v3_label_past_strings", RSC_E_CORRUPT, ANY, "label past STRINGS", NULL, NULL, 0},
    {"v3_label_moved_past_strings", RSC_E_CORRUPT, ANY, "label past STRINGS", NULL, NULL, 0},
    {"v3_labels_5_columns", RSC_E_CORRUPT, ANY, "column width", NULL, NULL, 0},
};
#define N_SEEDS (sizeof seeds / sizeof seeds[0])

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *b = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n == cap) {
            cap = cap * 2 + 4096;
            uint8_t *nb = realloc(b, cap);
            if (!nb)
                break;
            b = nb;
        }
        size_t k = fread(b + *n, 1, cap - *n, f);
        if (k == 0)
            break;
        *n += k;
    }
    fclose(f);
    return b;
}

int main(int argc, char **argv)
{
    int passed = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: test_rt_seeds DIR\n");
        return 2;
    }
    for (size_t i = 0; i < N_SEEDS; i++) {
        const struct seed *s = &seeds[i];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.rbc", argv[1], s->name);
        size_t n;
        uint8_t *b = slurp(path, &n);
        if (!b) {
            fprintf(stderr, "%s: cannot read\n", path);
            tu_failures++;
            continue;
        }
        rsc_program p;
        rsc_load_error e = {0, NULL};
        rsc_status st = rsc_load(&p, b, n, &e);
        int ok = st == s->want && (s->off == ANY || e.offset == s->off) &&
                 (!s->what || (e.what && strstr(e.what, s->what)));
        if (ok && st == RSC_OK && s->agent) {
            rsc_selection sel;
            rsc_bytes a = {s->agent, strlen(s->agent)};
            ok = rsc_select(&p, &a, 1, &sel) == RSC_OK &&
                 rsc_match_path(&sel, s->path, strlen(s->path), NULL) == s->allowed;
        }
        if (ok) {
            passed++;
        } else {
            tu_failures++;
            fprintf(stderr, "%s: got %s at %zu (%s), want %s at %zu (%s)%s\n", s->name,
                    rsc_strerror(st), e.offset, e.what ? e.what : "-", rsc_strerror(s->want),
                    s->off == ANY ? 0 : s->off, s->what ? s->what : "-",
                    st == RSC_OK && st == s->want ? ": wrong verdict" : "");
        }
        free(b);
    }
    /* Every v3 seed is listed (or loads as its name says); every v2 seed
     * is a format 2 blob: RSC_E_VERSION at Format_Major. */
    DIR *d = opendir(argv[1]);
    if (!d) {
        fprintf(stderr, "%s: cannot list\n", argv[1]);
        tu_failures++;
    } else {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            size_t l = strlen(de->d_name), i;
            if (l < 7 || strcmp(de->d_name + l - 4, ".rbc") != 0)
                continue;
            if (strncmp(de->d_name, "v2_", 3) == 0) {
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", argv[1], de->d_name);
                size_t n;
                uint8_t *b = slurp(path, &n);
                rsc_program p;
                rsc_load_error e = {0, NULL};
                rsc_status st = b ? rsc_load(&p, b, n, &e) : RSC_E_IO;
                if (st == RSC_E_VERSION && e.offset == 8) {
                    passed++;
                } else {
                    tu_failures++;
                    fprintf(stderr, "%s: a format 2 blob: got %s at %zu, want %s at 8\n",
                            de->d_name, rsc_strerror(st), e.offset, rsc_strerror(RSC_E_VERSION));
                }
                free(b);
                continue;
            }
            if (strncmp(de->d_name, "v3_", 3) != 0)
                continue;
            for (i = 0; i < N_SEEDS; i++)
                if (strlen(seeds[i].name) == l - 4 && !strncmp(seeds[i].name, de->d_name, l - 4))
                    break;
            if (i < N_SEEDS) {
                passed++;
                continue;
            }
            /* Not listed (another tool's seed): by its name, "_ok" loads
             * and anything else is rejected. */
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[1], de->d_name);
            size_t n;
            uint8_t *b = slurp(path, &n);
            rsc_program p;
            rsc_status st = b ? rsc_load(&p, b, n, NULL) : RSC_E_IO;
            int want_ok = l >= 7 && strcmp(de->d_name + l - 7, "_ok.rbc") == 0;
            if (b && (st == RSC_OK) == want_ok) {
                passed++;
                printf("%s: not listed; %s as its name says\n", de->d_name,
                       want_ok ? "loads" : "rejected");
            } else {
                tu_failures++;
                fprintf(stderr, "%s: not listed; got %s, its name says %s\n", de->d_name,
                        rsc_strerror(st), want_ok ? "loads" : "rejected");
            }
            free(b);
        }
        closedir(d);
    }
    return tu_report("runtime load seeds", passed);
}
