/* SPDX-License-Identifier: Apache-2.0 */
/* The format 5.0 seeds of tests/fuzz/regress/load (v5_*.rbc, written by
 * load_seeds.py): each valid one loads (and answers the matches its source
 * defines), each broken one is rejected with the status, offset and reason
 * its name says (the header's Total_Size varint, the Present mask and
 * section Sizes, packed widths, leaves of one rank, n - 1 Offsets, labels
 * past STRINGS or in a chain, ...). A v5_*.rbc not listed here must load
 * when its name ends in "_ok" and be rejected otherwise. The format 2, 3
 * and 4 seeds (v2_*.rbc, v3_*.rbc, v4_*.rbc, kept as they were written: 1.0's
 * valid blobs among them) must all be
 * rejected with RSC_E_VERSION at offset 4: their magic "\x89RSC\r\n\x1a\n"
 * shares 4.0's four bytes, and its '\r' is read as Format_Major; this
 * runtime reads format 4 only. Argument: the directory. */
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
    const char *path2;        /* and another (NULL: none) */
    int allowed2;
} seeds[] = {
    {"v5_basic", RSC_OK, 0, NULL, "Googlebot", "/private/x", 0, "/admin/x", 1},
    {"v5_patterns", RSC_OK, 0, NULL, "x", "/x/a/yz", 0, NULL, 0},
    {"v5_groups", RSC_OK, 0, NULL, "b", "/bc/ok", 1, NULL, 0},
    {"v5_rfc_escapes", RSC_OK, 0, NULL, "x", "/%7Euser/x", 0, NULL, 0},
    /* the same file compiled by an encoder before RFC 9309's ranks and
     * escapes (Flags 1, kept as it was written): compile it again */
    /* (v4_rfc_flags1_old: an rfc blob of an earlier encoder, refused as format 4) */
    {"v5_empty", RSC_OK, 0, NULL, "x", "/", 1, NULL, 0},
    {"v5_minor9_ok", RSC_OK, 0, NULL, "Googlebot", "/private/index.html", 1, "/private", 0},
    {"v5_minor255_ok", RSC_OK, 0, NULL, "Googlebot", "/private/index.html", 1, NULL, 0},
    {"v5_unknown_section_ok", RSC_OK, 0, NULL, "x", "/admin/", 0, "/admin/public/", 1},
    {"v5_priority0_rule_ok", RSC_OK, 0, NULL, "x", "/y", 1, "/xy", 0},
    {"v5_chain1024_ok", RSC_OK, 0, NULL, "x", "/", 1, NULL, 0},
    {"v5_label_rep_ok", RSC_OK, 0, NULL, "x", "/ab", 0, "/ac", 1},
    {"v5_leaves_ok", RSC_OK, 0, NULL, "x", "/ab/x", 0, "/ac", 0},
    {"v5_sets_absent_ok", RSC_OK, 0, NULL, "BOT", "/b", 0, "/a", 1},
    {"v5_root_slot_ok", RSC_OK, 0, NULL, "x", "/xaab", 0, "/xba", 1},
    {"v5_chain_program_ok", RSC_OK, 0, NULL, "x", "/abxc", 0, "/acb", 1},
    {"v5_fail_loop_ok", RSC_OK, 0, NULL, "x", "/x/c/yz", 0, NULL, 0},
    {"v5_labels_ok", RSC_OK, 0, NULL, "x", "/xaab", 0, "/xa", 1},
    {"v5_label_strings_end_ok", RSC_OK, 0, NULL, "x", "/xab/", 0, NULL, 0},
    {"v5_label_moved_ok", RSC_OK, 0, NULL, "x", "/d/index.html", 1, NULL, 0},
    {"v5_major4", RSC_E_VERSION, 4, "Format_Major", NULL, NULL, 0, NULL, 0},
    {"v5_major6", RSC_E_VERSION, 4, "Format_Major", NULL, NULL, 0, NULL, 0},
    {"v5_reserved_flag", RSC_E_CORRUPT, 6, "reserved", NULL, NULL, 0, NULL, 0},
    {"v5_total_overlong", RSC_E_TRUNCATED, 11, "bad Total_Size", NULL, NULL, 0, NULL, 0},
    {"v5_total_short", RSC_E_SIZE, 11, "after Total_Size", NULL, NULL, 0, NULL, 0},
    {"v5_bad_present", RSC_E_CORRUPT, ANY, "bad Present", NULL, NULL, 0, NULL, 0},
    {"v5_size0_section", RSC_E_CORRUPT, ANY, "present section of Size 0", NULL, NULL, 0, NULL, 0},
    {"v5_unknown_section_size0", RSC_E_CORRUPT, ANY, "present section of Size 0", NULL, NULL, 0,
     NULL, 0},
    {"v5_sections_short", RSC_E_CORRUPT, ANY, "do not end at Total_Size", NULL, NULL, 0, NULL, 0},
    {"v5_bitflip", RSC_E_CHECKSUM, 7, "checksum", NULL, NULL, 0, NULL, 0},
    {"v5_width_bits", RSC_E_CORRUPT, ANY, "width bits past the columns", NULL, NULL, 0, NULL, 0},
    {"v5_chain1025", RSC_E_CORRUPT, ANY, "1024", NULL, NULL, 0, NULL, 0},
    {"v5_label_rep_past_text", RSC_E_CORRUPT, ANY, "Rep's match text", NULL, NULL, 0, NULL, 0},
    {"v5_leaf_rep_range", RSC_E_CORRUPT, ANY, "Rep not in 1..Rule_Count", NULL, NULL, 0, NULL, 0},
    {"v5_leaf_rep_past_text", RSC_E_CORRUPT, ANY, "Rep's match text", NULL, NULL, 0, NULL, 0},
    {"v5_leaf_not_end", RSC_E_CORRUPT, ANY, "does not end its span", NULL, NULL, 0, NULL, 0},
    {"v5_offset0", RSC_E_CORRUPT, ANY, "offsets not strictly increasing from 1", NULL, NULL, 0,
     NULL, 0},
    {"v5_width_one_child", RSC_E_CORRUPT, ANY, "Children or Width", NULL, NULL, 0, NULL, 0},
    {"v5_root_leaf", RSC_E_CORRUPT, ANY, "root with a label", NULL, NULL, 0, NULL, 0},
    {"v5_empty_table_widths", RSC_E_CORRUPT, ANY, "fill", NULL, NULL, 0, NULL, 0},
    {"v5_roots_level16", RSC_E_CORRUPT, ANY, "root Level", NULL, NULL, 0, NULL, 0},
    {"v5_outs_next_later", RSC_E_CORRUPT, ANY, "Next not an earlier row", NULL, NULL, 0, NULL, 0},
    {"v5_states_fail_range", RSC_E_CORRUPT, ANY, "state Fail or Out", NULL, NULL, 0, NULL, 0},
    {"v5_states_out_range", RSC_E_CORRUPT, ANY, "state Fail or Out", NULL, NULL, 0, NULL, 0},
    {"v5_edges_parent_range", RSC_E_CORRUPT, ANY, "edge Parent", NULL, NULL, 0, NULL, 0},
    {"v5_pad_nonzero", RSC_E_CORRUPT, ANY, "padding byte not zero", NULL, NULL, 0, NULL, 0},
    {"v5_pad_missing", RSC_E_CORRUPT, ANY, "padding", NULL, NULL, 0, NULL, 0},
    {"v5_slot_range", RSC_E_CORRUPT, ANY, "Slot", NULL, NULL, 0, NULL, 0},
    {"v5_internal513", RSC_E_CORRUPT, ANY, "N_Internal", NULL, NULL, 0, NULL, 0},
    {"v5_chain_states_sum", RSC_E_CORRUPT, ANY, "chain states", NULL, NULL, 0, NULL, 0},
    {"v5_chain_labels", RSC_E_CORRUPT, ANY, "chain with Labels", NULL, NULL, 0, NULL, 0},
    {"v5_label_past_strings", RSC_E_CORRUPT, ANY, "label past STRINGS", NULL, NULL, 0, NULL, 0},
    {"v5_label_moved_past_strings", RSC_E_CORRUPT, ANY, "label past STRINGS", NULL, NULL, 0,
     NULL, 0},
    {"v5_labels_5_columns", RSC_E_CORRUPT, ANY, "padding", NULL, NULL, 0, NULL, 0},
    {"v5_dfa_widths", RSC_E_CORRUPT, ANY, "bad DFA widths", NULL, NULL, 0, NULL, 0},
    {"v5_dfa_other_inside", RSC_E_CORRUPT, ANY, "DFA Other out of range", NULL, NULL, 0, NULL, 0},
    {"v5_dfa_keys_order", RSC_E_CORRUPT, ANY, "DFA keys not increasing", NULL, NULL, 0, NULL, 0},
    {"v5_dfa_record_past", RSC_E_CORRUPT, ANY, "DFA record past its code", NULL, NULL, 0, NULL, 0},
    {"v5_dfa_start_inside", RSC_E_CORRUPT, ANY, "DFA start out of range", NULL, NULL, 0, NULL, 0},
    {"v5_dfa_fallback_bad", RSC_E_CORRUPT, ANY, "DFA fall-back state", NULL, NULL, 0, NULL, 0},
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
                 rsc_match_path(&sel, s->path, strlen(s->path), NULL) == s->allowed &&
                 (!s->path2 ||
                  rsc_match_path(&sel, s->path2, strlen(s->path2), NULL) == s->allowed2);
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
    /* Every v4 seed is listed (or loads as its name says); every v2 and
     * v3 seed is a format 2 or 3 blob: RSC_E_VERSION at byte 4, where 4.0
     * has Format_Major. */
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
            if (strncmp(de->d_name, "v2_", 3) == 0 || strncmp(de->d_name, "v3_", 3) == 0 ||
                strncmp(de->d_name, "v4_", 3) == 0) {
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", argv[1], de->d_name);
                size_t n;
                uint8_t *b = slurp(path, &n);
                rsc_program p;
                rsc_load_error e = {0, NULL};
                rsc_status st = b ? rsc_load(&p, b, n, &e) : RSC_E_IO;
                /* 2 and 3: '\r' read as the major; 4: the major 4 (some
                 * v4_ seeds have another major on purpose) */
                if (st == RSC_E_VERSION && e.offset == 4 && n > 8 && b[4] != RSC_FORMAT_MAJOR) {
                    passed++;
                } else {
                    tu_failures++;
                    fprintf(stderr, "%s: a format %c blob: got %s at %zu, want %s at 4\n",
                            de->d_name, de->d_name[1], rsc_strerror(st), e.offset,
                            rsc_strerror(RSC_E_VERSION));
                }
                free(b);
                continue;
            }
            if (strncmp(de->d_name, "v5_", 3) != 0)
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
