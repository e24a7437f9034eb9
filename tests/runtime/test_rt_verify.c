/* SPDX-License-Identifier: Apache-2.0 */
/* The verifier, rule by rule (docs/FORMAT.md "Verification", rules 1-15,
 * as /work/f4spec.md amends them for format 4.0), on hand-built format 4.0
 * blobs (the 11-byte fixed header and a canonical varint Total_Size; a
 * varint Present mask, each present section a Size >= 1; packed Table
 * widths; leaves of one rank, Label_Head kinds 2 and 3; n - 1 Offsets for
 * n children; labelled automata: every label inside STRINGS, none in a
 * chain, STATES of 7 columns with Labels): each violation rejected with
 * the documented status and byte offset, the valid edge cases accepted
 * (absent sections, SETS left out, unknown sections skipped, varints of 5
 * bytes, widths 1..4, labels inline and by Rep, leaves of one rank, 256
 * children, a RSC_MAX_DEPTH-node chain, root slots on 16 levels, 512
 * internal nodes, chain programs), every rule of rule 10 on a program's
 * wildcard part (Trie_Size, Shape, ROOTS, OUTS, STATES, EDGES, chains,
 * Slots) broken one at a time, what rule 10 leaves unchecked accepted and
 * safe to match, the Adler-32 checksum, every truncation and every
 * single-bit flip of valid blobs rejected, random byte strings rejected,
 * and randomly damaged blobs (checksum fixed) either rejected or safe to
 * match. A format 3 blob (magic "\x89RSC\r\n\x1a\n") is rejected at its
 * byte 4, read as Format_Major. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/format.h"
#include "robotsc/runtime.h"
#include "rt_builder.h"
#include "testutil.h"

/* Evaluates cond once; counts and reports. */
#define CHECK TU_COUNT
#define ANY SIZE_MAX
/* The Present varint of a blob below 128 bytes (Total_Size one byte). */
#define P0 (RSC_H_TOTAL + 1)
#ifndef RT_MUTATIONS /* raise for a longer run: -DRT_MUTATIONS=1000000 */
#define RT_MUTATIONS 30000
#endif

/* rsc_load() on b[0..n): the status, and the offset unless ANY. A rejected
 * load leaves the program zeroed; an accepted one reports offset 0. */
static void expect(const char *name, const uint8_t *b, size_t n, rsc_status want, size_t off)
{
    rsc_program p, zero;
    rsc_load_error e = {12345, NULL};
    memset(&p, 0xAB, sizeof p);
    memset(&zero, 0, sizeof zero);
    rsc_status st = rsc_load(&p, b, n, &e);
    CHECK(st == want && (off == ANY || e.offset == off) && e.what,
          "%s: got %s (%d) at %zu (%s), want %s (%d) at %zu", name, rsc_strerror(st), st,
          e.offset, e.what ? e.what : "-", rsc_strerror(want), want, off == ANY ? 0 : off);
    if (st != RSC_OK)
        CHECK(memcmp(&p, &zero, sizeof p) == 0, "%s: program zeroed", name);
    else
        CHECK(e.offset == 0 && p.base == b && p.size == n, "%s: loaded", name);
    CHECK(rsc_load(&p, b, n, NULL) == st, "%s: same status without err", name);
}

static uint8_t *dup_blob(const uint8_t *b, size_t n)
{
    uint8_t *d = malloc(n ? n : 1);
    memcpy(d, b, n);
    return d;
}

/* A copy of src with v written at `at` (w bytes, little-endian) and the
 * checksum fixed. */
static void poke(const char *name, const uint8_t *src, size_t n, size_t at, uint32_t v,
                 unsigned w, rsc_status want, size_t off)
{
    uint8_t *b = dup_blob(src, n);
    wrnle(b + at, v, w);
    tb_fix_checksum(b, n);
    expect(name, b, n, want, off);
    free(b);
}

/* The same without fixing the checksum. */
static void poke_raw(const char *name, const uint8_t *src, size_t n, size_t at, uint32_t v,
                     unsigned w, rsc_status want, size_t off)
{
    uint8_t *b = dup_blob(src, n);
    wrnle(b + at, v, w);
    expect(name, b, n, want, off);
    free(b);
}

/* A Table found in a blob: where its rows are, their count and widths. */
typedef struct tab {
    size_t at, rows;
    uint32_t count;
    unsigned cols;
    uint8_t w[6];
} tab;

static tab tab_at(const uint8_t *b, size_t off, unsigned cols)
{
    tab t;
    t.at = off, t.cols = cols;
    t.rows = tb_table_at(b, off, cols, &t.count, t.w);
    return t;
}

static size_t cell(const tab *t, uint32_t r, unsigned c)
{
    return tb_cell(t->rows, t->w, t->cols, r, c);
}

static size_t tab_end(const tab *t)
{
    return cell(t, t->count, 0);
}

/* ---- the base blob: every section, every kind of entry ----------------- */

/* base: google, labels inline; wide: every column and Offsets 4 bytes;
 * refs: labels by Rep; base_rfc (and wide_rfc): the rfc profile, the last
 * rule "/%7e*c$" with the match text "/~*c$". */
static uint8_t *base, *wide, *refs, *base_rfc, *wide_rfc;
static size_t base_n, wide_n, refs_n, base_rfc_n, wide_rfc_n;
/* autom: an automaton with failure links, output chains and internal
 * nodes; chainb: a chain program (both built in main) */
static uint8_t *autom, *chainb;
static size_t autom_n, chainb_n;
/* labelled: autom's rules with every label (FORMAT.md, Labels);
 * labelled_long: long labels, in rfc (both built in main) */
static uint8_t *labelled, *labelled_long;
static size_t labelled_n, labelled_long_n;

static tp_prog base_prog(void)
{
    tp_prog p;
    memset(&p, 0, sizeof p);
    p.n_rules = 4; /* ranks: "/ab" 1, "/x*y" 2, "/a*c$" 3, "/abc$" 4 */
    p.rules[0] = (tp_rule){2, 0, "/ab"};
    p.rules[1] = (tp_rule){3, 1, "/abc$"};
    p.rules[2] = (tp_rule){6, 0, "/x*y"};
    p.rules[3] = (tp_rule){9, 1, "/a*c$"};
    p.n_progs = 2;
    p.progs[0] = (tp_program){3, {0, 1, 3}};
    p.progs[1] = (tp_program){1, {2}};
    p.n_sets = 2;
    p.sets[0] = (tp_set){2, {0, 1}};
    p.sets[1] = (tp_set){1, {1}};
    p.n_agents = 2;
    p.agents[0] = (tp_agent){"foo", 0};
    p.agents[1] = (tp_agent){"bar", 0};
    p.global = 1;
    p.n_groups = 3; /* GROUPS: Firsts 0, 2, 3; agents foo, bar, *, bar */
    p.groups[0] = (tp_group){1, {"foo", "bar"}};
    p.groups[1] = (tp_group){5, {"*"}};
    p.groups[2] = (tp_group){10, {"bar"}};
    p.n_sitemaps = 1;
    p.sitemaps[0] = (tp_sitemap){7, "https://e/s.xml"};
    p.n_dirs = 2;
    p.dirs[0] = (tp_dir){4, 0, "crawl-delay", "5"};
    p.dirs[1] = (tp_dir){8, -1, "host", "e"};
    return p;
}

static size_t sec(const uint8_t *b, size_t n, uint32_t id)
{
    return tb_section(b, n, id, NULL);
}

/* ---- rules 1-6: basics and identity ------------------------------------ */

/* The fixed header of a 4.0 blob (flags 0, Checksum 0), then the bytes of
 * tot as its Total_Size field, then body; the Checksum fixed. */
static uint8_t *hdr_blob(const uint8_t *tot, size_t tn, const uint8_t *body, size_t bn,
                         size_t *size)
{
    bb b = {0};
    bb_raw(&b, RSC_MAGIC, RSC_MAGIC_LEN);
    bb_u8(&b, RSC_FORMAT_MAJOR), bb_u8(&b, 0), bb_u8(&b, 0);
    bb_un(&b, 0, 4);
    bb_raw(&b, tot, tn);
    bb_raw(&b, body, bn);
    tb_fix_checksum(b.d, b.n);
    *size = b.n;
    return b.d;
}

/* A blob of this Total_Size field (the bytes given) and one Present 0
 * byte: the status and offset. */
static void total_case(const char *name, const uint8_t *tot, size_t tn, rsc_status want,
                       size_t off)
{
    static const uint8_t present0[] = {0x00};
    size_t n;
    uint8_t *b = hdr_blob(tot, tn, present0, 1, &n);
    expect(name, b, n, want, off);
    free(b);
}
#define TOTAL(name, want, off, ...)                                           \
    total_case(name, (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__}), \
               want, off)

static void test_header(void)
{
    rsc_program p;
    rsc_load_error e = {99, NULL};
    /* 1 */
    CHECK(rsc_load(&p, NULL, 100, &e) == RSC_E_ARG && e.offset == 0 && e.what, "NULL blob");
    CHECK(rsc_load(NULL, base, base_n, &e) == RSC_E_ARG && e.offset == 0, "NULL prog");
    CHECK(rsc_load(NULL, NULL, 0, NULL) == RSC_E_ARG, "both NULL");
    CHECK(rsc_load(NULL, base, base_n, NULL) == RSC_E_ARG, "NULL prog, no err");
    expect("base", base, base_n, RSC_OK, 0);
    expect("wide", wide, wide_n, RSC_OK, 0);
    CHECK(RSC_MAGIC_LEN == 4 && RSC_H_MAJOR == 4 && RSC_H_MINOR == 5 && RSC_H_FLAGS == 6 &&
              RSC_H_CHECK == 7 && RSC_H_TOTAL == 11 && RSC_HEADER_MIN == 12 &&
              RSC_FORMAT_MAJOR == 5 && RSC_FORMAT_MINOR == 0,
          "header layout (format 5.0)");
    /* base is 128 bytes or more: a 2-byte Total_Size, Present at 13 */
    CHECK(base_n >= 128 && base_n < 1u << 14 &&
              memcmp(base, "\x89RSC\x05\x00\x00", 7) == 0 &&
              base[11] == (0x80 | (base_n & 0x7f)) && base[12] == base_n >> 7 &&
              tb_present_at(base) == 13,
          "base header bytes");
    /* 2: the fixed part and a one-byte Total_Size */
    expect("size 0", base, 0, RSC_E_TRUNCATED, 0);
    expect("size 1", base, 1, RSC_E_TRUNCATED, 1);
    expect("size 11", base, 11, RSC_E_TRUNCATED, 11);
    uint8_t junk[11];
    memset(junk, 'x', sizeof junk);
    expect("11 bytes of junk: size first", junk, sizeof junk, RSC_E_TRUNCATED, 11);
    /* 3: the first differing byte of the 4 */
    for (size_t i = 0; i < RSC_MAGIC_LEN; i++)
        for (unsigned bit = 0; bit < 8; bit++)
            poke_raw("magic", base, base_n, i, base[i] ^ (1u << bit), 1, RSC_E_MAGIC, i);
    uint8_t *b = dup_blob(base, base_n);
    b[1] ^= 1, b[3] ^= 1;
    expect("magic: first of two", b, base_n, RSC_E_MAGIC, 1);
    memcpy(b, "User-agent: *\nDisallow: /\n", 24);
    expect("a robots.txt", b, base_n, RSC_E_MAGIC, 0);
    /* A format 3 blob: the 8-byte magic "\x89RSC\r\n\x1a\n" shares the
     * first 4 bytes, its '\r' is read as Format_Major 13. */
    memcpy(b, base, base_n);
    memcpy(b, "\x89RSC\r\n\x1a\n\x03\x01\x00", 11);
    expect("a format 3.1 header", b, base_n, RSC_E_VERSION, RSC_H_MAJOR);
    free(b);
    /* 4: Format_Major; any Format_Minor */
    static const uint8_t majors[] = {0, 1, 2, 3, 4, 6, 13, 255}; /* 4: format 4, refused */
    for (size_t i = 0; i < sizeof majors; i++)
        poke("Format_Major", base, base_n, RSC_H_MAJOR, majors[i], 1, RSC_E_VERSION, RSC_H_MAJOR);
    poke_raw("Format_Major 3, bad flags: rule 4 first", base, base_n, RSC_H_MAJOR, 0x020003, 3,
             RSC_E_VERSION, RSC_H_MAJOR);
    static const uint8_t minors[] = {0, 1, 2, 7, 9, 255};
    for (size_t i = 0; i < sizeof minors; i++)
        poke("any Format_Minor", base, base_n, RSC_H_MINOR, minors[i], 1, RSC_OK, 0);
    poke("any Format_Minor, labelled blob", labelled, labelled_n, RSC_H_MINOR, 200, 1, RSC_OK, 0);
    poke_raw("Format_Minor 2, checksum not fixed", base, base_n, RSC_H_MINOR, 2, 1,
             RSC_E_CHECKSUM, RSC_H_CHECK);
    poke_raw("Format 3.1, bad flags and checksum: the major first", base, base_n, RSC_H_MAJOR,
             0xff0103, 3, RSC_E_VERSION, RSC_H_MAJOR);
    poke("Format 6.0: the major first", base, base_n, RSC_H_MAJOR, 0x0006, 2, RSC_E_VERSION,
         RSC_H_MAJOR);
    poke("Format 4.0 (1.0's blobs): refused", base, base_n, RSC_H_MAJOR, 0x0004, 2, RSC_E_VERSION,
         RSC_H_MAJOR);
    {
        size_t n;
        uint8_t *nb = tb_blob(0, NULL, 0, &n);
        CHECK(n == 13 && nb[11] == 13 && nb[12] == 0, "no sections: 13 bytes, Present 0");
        expect("no sections", nb, n, RSC_OK, 0);
        poke("no sections, major 3", nb, n, RSC_H_MAJOR, 3, 1, RSC_E_VERSION, RSC_H_MAJOR);
        free(nb);
    }
    /* 5: Flags is one byte; bits 1-7 reserved */
    for (unsigned bit = 1; bit < 8; bit++)
        poke("reserved flag", base, base_n, RSC_H_FLAGS, 1u << bit, 1, RSC_E_CORRUPT, RSC_H_FLAGS);
    poke("reserved flags with the profile bits", base, base_n, RSC_H_FLAGS, 0x83, 1, RSC_E_CORRUPT,
         RSC_H_FLAGS);
    poke("all flags", base, base_n, RSC_H_FLAGS, 0xff, 1, RSC_E_CORRUPT, RSC_H_FLAGS);
    poke_raw("reserved flag, bad Total_Size: rule 5 first", base, base_n, RSC_H_FLAGS, 0x02, 1,
             RSC_E_CORRUPT, RSC_H_FLAGS);
    {
        uint8_t *nb = dup_blob(base, base_n);
        nb[RSC_H_FLAGS] = 2, nb[RSC_H_TOTAL] = 0x80, nb[RSC_H_TOTAL + 1] = 0x80;
        expect("reserved flag, Total_Size cut: rule 5 first", nb, base_n, RSC_E_CORRUPT,
               RSC_H_FLAGS);
        free(nb);
    }
    poke_raw("reserved flag, checksum not fixed: rule 5 first", base, base_n, RSC_H_FLAGS, 0x02, 1,
             RSC_E_CORRUPT, RSC_H_FLAGS);
    {
        /* The profile bit is valid; it decides how RULES is read (3 or 5
         * columns), so on a blob with rules it breaks the RULES Table. */
        size_t n;
        uint8_t *nb = tb_blob(0, NULL, 0, &n);
        poke("profile rfc, no sections", nb, n, RSC_H_FLAGS, RSC_FLAG_PROFILE_RFC, 1, RSC_OK, 0);
        poke("profile 1 (an older rfc blob), no sections", nb, n, RSC_H_FLAGS, 1, 1,
             RSC_E_VERSION, RSC_H_FLAGS);
        free(nb);
        poke("profile rfc on a google blob: RULES read as 5 columns", base, base_n, RSC_H_FLAGS,
             RSC_FLAG_PROFILE_RFC, 1, RSC_E_CORRUPT, ANY);
        poke("profile bit cleared on an rfc blob: RULES read as 3 columns", base_rfc, base_rfc_n,
             RSC_H_FLAGS, 0, 1, RSC_E_CORRUPT, ANY);
    }
    /* 6: Total_Size, a canonical varint (it counts itself) that equals the
     * size given: bad varint or larger RSC_E_TRUNCATED, smaller RSC_E_SIZE,
     * all at offset 11. base: 2 bytes. */
    uint32_t bn = (uint32_t)base_n;
    poke("Total_Size one too big", base, base_n, RSC_H_TOTAL, 0x80 | ((bn + 1) & 0x7f) |
         ((bn + 1) >> 7) << 8, 2, RSC_E_TRUNCATED, RSC_H_TOTAL);
    poke("Total_Size one too small", base, base_n, RSC_H_TOTAL, 0x80 | ((bn - 1) & 0x7f) |
         ((bn - 1) >> 7) << 8, 2, RSC_E_SIZE, RSC_H_TOTAL);
    poke("Total_Size 2^14-1 (2 bytes)", base, base_n, RSC_H_TOTAL, 0x7fff, 2, RSC_E_TRUNCATED,
         RSC_H_TOTAL);
    poke("Total_Size 128 (2 bytes)", base, base_n, RSC_H_TOTAL, 0x0180, 2, RSC_E_SIZE, RSC_H_TOTAL);
    poke("Total_Size overlong (2 bytes for 0)", base, base_n, RSC_H_TOTAL, 0x0080, 2,
         RSC_E_TRUNCATED, RSC_H_TOTAL);
    poke("Total_Size 13 in one byte: the next byte read as Present", base, base_n, RSC_H_TOTAL,
         13, 1, RSC_E_SIZE, RSC_H_TOTAL);
    poke("Total_Size runs into Present (continuation on both bytes)", base, base_n,
         RSC_H_TOTAL + 1, base[RSC_H_TOTAL + 1] | 0x80, 1, RSC_E_TRUNCATED, RSC_H_TOTAL);
    b = calloc(1, base_n + 8);
    memcpy(b, base, base_n);
    expect("trailing bytes", b, base_n + 1, RSC_E_SIZE, RSC_H_TOTAL);
    expect("trailing word", b, base_n + 4, RSC_E_SIZE, RSC_H_TOTAL);
    expect("cut by one", b, base_n - 1, RSC_E_TRUNCATED, RSC_H_TOTAL);
    expect("cut inside Total_Size", b, RSC_HEADER_MIN, RSC_E_TRUNCATED, RSC_H_TOTAL);
    expect("cut after Total_Size", b, RSC_HEADER_MIN + 1, RSC_E_TRUNCATED, RSC_H_TOTAL);
    free(b);
    /* Total_Size's varint, alone: 13 bytes (a one-byte 13, then Present 0) */
    TOTAL("Total_Size 13", RSC_OK, 0, 13);
    TOTAL("Total_Size 12", RSC_E_SIZE, RSC_H_TOTAL, 12);
    TOTAL("Total_Size 0", RSC_E_SIZE, RSC_H_TOTAL, 0);
    TOTAL("Total_Size 14", RSC_E_TRUNCATED, RSC_H_TOTAL, 14);
    TOTAL("Total_Size 0x7f", RSC_E_TRUNCATED, RSC_H_TOTAL, 0x7f);
    TOTAL("Total_Size 14, overlong (2 bytes)", RSC_E_TRUNCATED, RSC_H_TOTAL, 0x8e, 0x00);
    TOTAL("Total_Size 15, overlong (3 bytes)", RSC_E_TRUNCATED, RSC_H_TOTAL, 0x8f, 0x80, 0x00);
    TOTAL("Total_Size 17, overlong (5 bytes)", RSC_E_TRUNCATED, RSC_H_TOTAL, 0x91, 0x80, 0x80,
          0x80, 0x00);
    TOTAL("Total_Size 2^32 (5 bytes)", RSC_E_TRUNCATED, RSC_H_TOTAL, 0x80, 0x80, 0x80, 0x80,
          0x10);
    TOTAL("Total_Size 2^32-1 (5 bytes)", RSC_E_TRUNCATED, RSC_H_TOTAL, 0xff, 0xff, 0xff, 0xff,
          0x0f);
    TOTAL("Total_Size of 6 bytes", RSC_E_TRUNCATED, RSC_H_TOTAL, 0x92, 0x80, 0x80, 0x80, 0x80,
          0x00);
    {
        /* Around 128 bytes: the varint grows with the size it counts. */
        for (size_t k = 110; k <= 120; k++) {
            bb s = {0};
            for (size_t i = 0; i < k; i++)
                bb_u8(&s, (uint8_t)('a' + i % 26));
            tb_sec one[] = {TB_SEC(1, &s)};
            size_t n;
            uint8_t *nb = tb_blob(0, one, 1, &n);
            size_t tl = n < 128 ? 1 : 2;
            CHECK(n == RSC_H_TOTAL + tl + 2 + k && tb_present_at(nb) == RSC_H_TOTAL + tl,
                  "STRINGS of %zu bytes: Total_Size %zu of %zu bytes", k, n, tl);
            expect("blob around 128 bytes", nb, n, RSC_OK, 0);
            free(nb);
            if (tl == 1) { /* the same in a 2-byte Total_Size: overlong below 128 */
                bb body = {0};
                bb_u8(&body, 0x01), bb_varint(&body, (uint32_t)k), bb_raw(&body, s.d, s.n);
                size_t m;
                nb = tb_wrap_tlen(0, body.d, body.n, 2, &m);
                CHECK(m == n + 1, "tb_wrap_tlen: one byte more");
                if (m < 128)
                    expect("Total_Size overlong below 128", nb, m, RSC_E_TRUNCATED, RSC_H_TOTAL);
                else
                    expect("Total_Size 128 in 2 bytes (canonical)", nb, m, RSC_OK, 0);
                free(nb);
                bb_free(&body);
            }
            bb_free(&s);
        }
    }
    {
        /* A 12-byte blob (no Present), and the header of the empty blob. */
        size_t n;
        uint8_t *nb = tb_wrap(0, NULL, 0, &n);
        CHECK(n == 12 && nb[11] == 12, "header alone is 12 bytes");
        expect("header alone: no Present", nb, n, RSC_E_CORRUPT, 12);
        poke("header alone, Total_Size 11", nb, n, RSC_H_TOTAL, 11, 1, RSC_E_SIZE, RSC_H_TOTAL);
        poke("header alone, Total_Size 13", nb, n, RSC_H_TOTAL, 13, 1, RSC_E_TRUNCATED,
             RSC_H_TOTAL);
        free(nb);
    }
}

/* ---- rule 7: framing ---------------------------------------------------- */

#define BODY(...) ((const uint8_t[]){__VA_ARGS__}), sizeof((const uint8_t[]){__VA_ARGS__})

/* A blob of the header and these body bytes (Present and the sections),
 * checksum right; off is from the body's start (Present). */
static void frame(const char *name, const uint8_t *body, size_t n, rsc_status want, size_t off)
{
    size_t size;
    uint8_t *b = tb_wrap(0, body, n, &size);
    size_t at = want == RSC_OK ? 0 : tb_present_at(b) + off;
    expect(name, b, size, want, at);
    /* Framing comes before the checksum: the same failure with it wrong. */
    if (want != RSC_OK) {
        b[RSC_H_CHECK + 1] ^= 0x40;
        expect(name, b, size, want, at);
    }
    free(b);
}

static void test_framing(void)
{
    frame("no sections", BODY(0x00), RSC_OK, 0);
    /* The Present varint */
    frame("no Present", NULL, 0, RSC_E_CORRUPT, 0);
    frame("Present cut", BODY(0x80), RSC_E_CORRUPT, 0);
    frame("Present cut after 4 bytes", BODY(0x81, 0x80, 0x80, 0x80), RSC_E_CORRUPT, 0);
    frame("Present overlong", BODY(0x80, 0x00), RSC_E_CORRUPT, 0);
    frame("Present overlong, STRINGS after it", BODY(0x81, 0x00, 0x01, 'a'), RSC_E_CORRUPT, 0);
    frame("Present overlong (5 bytes)", BODY(0x81, 0x80, 0x80, 0x80, 0x00, 0x01, 'a'),
          RSC_E_CORRUPT, 0);
    frame("Present 2^32", BODY(0x80, 0x80, 0x80, 0x80, 0x10, 0x00), RSC_E_CORRUPT, 0);
    frame("Present 2^35-1", BODY(0xff, 0xff, 0xff, 0xff, 0x7f, 0x00), RSC_E_CORRUPT, 0);
    frame("Present of 6 bytes", BODY(0x81, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01, 'a'),
          RSC_E_CORRUPT, 0);
    frame("Present 1 (STRINGS), 2-byte varint", BODY(0x81, 0x00), RSC_E_CORRUPT, 0);
    /* Sizes: each present section has one, >= 1 */
    for (uint32_t id = 1; id <= 32; id++) {
        bb x = {0};
        bb_varint(&x, 1u << (id - 1));
        size_t at = x.n;
        bb_u8(&x, 0x00);
        frame("a present section of Size 0", x.d, x.n, RSC_E_CORRUPT, at);
        x.n = at;
        frame("a present section without its Size", x.d, x.n, RSC_E_CORRUPT, at);
        bb_free(&x);
    }
    frame("Size 0 after a section", BODY(0x03, 0x01, 'a', 0x00), RSC_E_CORRUPT, 3);
    frame("Size missing", BODY(0x01), RSC_E_CORRUPT, 1);
    frame("Size cut", BODY(0x01, 0x80), RSC_E_CORRUPT, 1);
    frame("Size overlong", BODY(0x01, 0x81, 0x00, 'a'), RSC_E_CORRUPT, 1);
    frame("Size 0, overlong", BODY(0x01, 0x80, 0x00), RSC_E_CORRUPT, 1);
    frame("Size 2^32", BODY(0x01, 0x80, 0x80, 0x80, 0x80, 0x10), RSC_E_CORRUPT, 1);
    frame("Size 2^32-1: past Total_Size", BODY(0x01, 0xff, 0xff, 0xff, 0xff, 0x0f),
          RSC_E_CORRUPT, 1);
    frame("Size past Total_Size by one", BODY(0x01, 0x03, 'a', 'b'), RSC_E_CORRUPT, 1);
    frame("second Size past Total_Size", BODY(0x03, 0x01, 'a', 0x02, 'b'), RSC_E_CORRUPT, 3);
    frame("a bit set, its section missing", BODY(0x03, 0x01, 'a'), RSC_E_CORRUPT, 3);
    frame("Size up to Total_Size", BODY(0x01, 0x02, 'a', 'b'), RSC_OK, 0);
    /* The sections end exactly at Total_Size (reported at Present). */
    frame("Present 0, a byte after it", BODY(0x00, 0x00), RSC_E_CORRUPT, 0);
    frame("Present 0, a section after it", BODY(0x00, 0x01, 0x01, 'a'), RSC_E_CORRUPT, 0);
    frame("a byte after the last section", BODY(0x01, 0x01, 'a', 0x00), RSC_E_CORRUPT, 0);
    frame("a section more than Present says", BODY(0x01, 0x01, 'a', 0x01, 'b'), RSC_E_CORRUPT,
          0);
    /* Unknown Ids (10..32): skipped, their Size checked like any. */
    frame("unknown Id 10", BODY(0x80, 0x04, 0x02, 'x', 'y'), RSC_OK, 0);
    frame("unknown Id 10, Size 0", BODY(0x80, 0x04, 0x00), RSC_E_CORRUPT, 2);
    frame("unknown Id 10, Size past Total_Size", BODY(0x80, 0x04, 0x05, 'x'), RSC_E_CORRUPT, 2);
    frame("unknown Id 10, Size cut", BODY(0x80, 0x04, 0x80), RSC_E_CORRUPT, 2);
    frame("unknown Id 32 (a 5-byte Present)", BODY(0x80, 0x80, 0x80, 0x80, 0x08, 0x01, 0xff),
          RSC_OK, 0);
    frame("STRINGS, then unknown Ids 10 and 16", BODY(0x81, 0x84, 0x02, 0x01, 'a', 0x01, 'x',
                                                     0x02, 'y', 'z'),
          RSC_OK, 0);
    frame("unknown Ids 10 and 16: the second past Total_Size",
          BODY(0x80, 0x84, 0x02, 0x01, 'x', 0x03, 'y', 'z'), RSC_E_CORRUPT, 5);
    {
        /* Ids 10..32 all present, a byte each; and with one byte fewer. */
        bb x = {0};
        bb_varint(&x, 0xfffffe00u);
        CHECK(x.n == 5, "Present 0xfffffe00: 5 bytes");
        for (int k = 0; k < 23; k++)
            bb_u8(&x, 0x01), bb_u8(&x, (uint8_t)k);
        frame("23 unknown sections", x.d, x.n, RSC_OK, 0);
        frame("23 unknown sections, the last cut", x.d, x.n - 1, RSC_E_CORRUPT, x.n - 2);
        bb_free(&x);
    }
    {
        /* An unknown section's content is not read: a known section after
         * it (a higher bit is not known: all known ones come first), so a
         * SITEMAPS after STRINGS, and an unknown Id 10 with anything. */
        size_t n;
        uint8_t *b = tb_wrap(0, BODY(0xc1, 0x04, 0x03, 'a', 'b', 'c', 0x01, 0x00, 0x02, 0xff,
                                     0xff),
                             &n);
        size_t ssz = 0;
        CHECK(tb_section(b, n, 1, &ssz) == P0 + 3 && ssz == 3 &&
                  tb_section(b, n, 7, &ssz) == P0 + 7 && ssz == 1 &&
                  tb_section(b, n, 10, &ssz) == P0 + 9 && ssz == 2,
              "STRINGS, SITEMAPS, Id 10 in Id order");
        expect("STRINGS, SITEMAPS (Count 0), unknown Id 10", b, n, RSC_OK, 0);
        free(b);
    }
    /* The sections are in Id order: the bytes of a lower Id first.
     * STRINGS "abc" and SITEMAPS "0" (Count 0) swapped: STRINGS is "\0",
     * SITEMAPS "abc" (Count 'a', its width byte 'b' with bits past the
     * three columns). */
    frame("STRINGS then SITEMAPS", BODY(0x41, 0x03, 'a', 'b', 'c', 0x01, 0x00), RSC_OK, 0);
    {
        size_t n;
        uint8_t *b = tb_wrap(0, BODY(0x41, 0x01, 0x00, 0x03, 'a', 'b', 'c'), &n);
        expect("SITEMAPS' bytes first", b, n, RSC_E_CORRUPT, P0 + 4);
        free(b);
    }
    /* A 2-byte Size: 200 bytes of STRINGS. */
    bb big = {0};
    bb_u8(&big, 0x01);
    bb_varint(&big, 200);
    for (int i = 0; i < 200; i++)
        bb_u8(&big, 0xff);
    frame("Size 200 (2-byte varint)", big.d, big.n, RSC_OK, 0);
    bb_free(&big);
    /* Blobs of every length modulo 16 (the runtime sums 16 bytes a step). */
    for (size_t k = 1; k <= 33; k++) {
        uint8_t body[40] = {0x01, (uint8_t)k};
        for (size_t i = 0; i < k; i++)
            body[2 + i] = (uint8_t)(0x41 + i * 37);
        frame("STRINGS of k bytes", body, 2 + k, RSC_OK, 0);
    }
    {
        /* tb_blob: a section of TB_SIZE0 is present with Size 0; NULL or
         * empty content leaves it out. */
        bb e = {0}, s = {0};
        bb_str(&s, "ab");
        tb_sec x[] = {TB_SEC(3, TB_SIZE0), TB_SEC(1, &s), TB_SEC(2, &e), TB_SEC(4, NULL)};
        size_t n;
        uint8_t *b = tb_blob(0, x, 4, &n);
        CHECK(n == P0 + 5 && b[P0] == 0x05 && b[P0 + 1] == 2 && b[P0 + 4] == 0,
              "tb_blob: Present 5, STRINGS, PROGRAMS of Size 0");
        expect("PROGRAMS of Size 0 after STRINGS", b, n, RSC_E_CORRUPT, P0 + 4);
        free(b);
        bb_free(&s);
    }
}

/* ---- rule 8: checksum -------------------------------------------------- */

static void test_checksum(void)
{
    const size_t CK = RSC_H_CHECK, bp = tb_present_at(base);
    /* The builder's Adler-32 against RFC 1950's definition. */
    CHECK(tb_adler32((const uint8_t *)"Wikipedia", 9) == 0x11E60398u &&
              tb_adler32((const uint8_t *)"", 0) == 1 &&
              tb_adler32((const uint8_t *)"a", 1) == 0x00620062u,
          "Adler-32 test vectors");
    {
        /* The stored value: Adler-32 with the Checksum bytes read as zero. */
        uint8_t *b = dup_blob(base, base_n);
        uint32_t stored = rd32le(b + CK);
        wr32le(b + CK, 0);
        CHECK(stored == tb_adler32(b, base_n), "Checksum of base");
        free(b);
    }
    poke_raw("Checksum + 1 (a)", base, base_n, CK, rd32le(base + CK) + 1, 4, RSC_E_CHECKSUM, CK);
    poke_raw("Checksum high bit (b)", base, base_n, CK, rd32le(base + CK) ^ 0x80000000u, 4,
             RSC_E_CHECKSUM, CK);
    poke_raw("Checksum 0", base, base_n, CK, 0, 4, RSC_E_CHECKSUM, CK);
    poke_raw("Checksum byte-swapped", base, base_n, CK,
             (rd32le(base + CK) >> 16) | (rd32le(base + CK) << 16), 4, RSC_E_CHECKSUM, CK);
    poke_raw("a byte of the body", base, base_n, base_n - 5, base[base_n - 5] ^ 1, 1,
             RSC_E_CHECKSUM, CK);
    poke_raw("the last byte", base, base_n, base_n - 1, base[base_n - 1] ^ 0x80, 1,
             RSC_E_CHECKSUM, CK);
    poke_raw("Present 0: framing before the checksum", base, base_n, bp, 0, 1, RSC_E_CORRUPT, bp);
    CHECK(base[bp] == 0xff && base[bp + 1] == 0x01, "base: every section, Present 2 bytes");
    poke_raw("the first Size 0: framing before the checksum", base, base_n, bp + 2, 0, 1,
             RSC_E_CORRUPT, bp + 2);
    poke_raw("profile flag", base, base_n, RSC_H_FLAGS, RSC_FLAG_PROFILE_RFC, 1, RSC_E_CHECKSUM, CK);
    poke_raw("Format_Minor", base, base_n, RSC_H_MINOR, 3, 1, RSC_E_CHECKSUM, CK);
    /* Changes that keep a (the byte sum) change b: +1 and -1 at two
     * places of STRINGS, and two different bytes swapped. */
    size_t strings, str_n;
    strings = tb_section(base, base_n, 1, &str_n);
    uint8_t *b = dup_blob(base, base_n);
    size_t i = strings, j = strings + 1;
    while (j < strings + str_n && (b[i] == 0xff || b[j] == 0 || b[i] == b[j]))
        j++;
    CHECK(j < strings + str_n, "two bytes to change in STRINGS");
    b[i]++, b[j]--;
    expect("a kept, b changed", b, base_n, RSC_E_CHECKSUM, CK);
    memcpy(b, base, base_n);
    for (i = strings; i + 1 < strings + str_n && b[i] == b[i + 1]; i++)
        ;
    uint8_t t = b[i];
    b[i] = b[i + 1], b[i + 1] = t;
    expect("two bytes swapped", b, base_n, RSC_E_CHECKSUM, CK);
    /* Checksum first, then the contents: a corrupt content with a wrong
     * checksum is a checksum failure. */
    size_t rules = sec(base, base_n, 2);
    tab r = tab_at(base, rules, 3);
    memcpy(b, base, base_n);
    b[cell(&r, 0, 0)] = 0; /* rule line 0 */
    expect("content error, checksum wrong", b, base_n, RSC_E_CHECKSUM, CK);
    tb_fix_checksum(b, base_n);
    expect("content error, checksum right", b, base_n, RSC_E_CORRUPT, cell(&r, 0, 0));
    free(b);
    /* The sums reduced modulo 65521: 0xff bytes over more than 5552 of
     * them (the runtime's reduction block), and many lengths: around the
     * 16-byte steps of its SSE2 loop and the block ends. */
    static const size_t lens[] = {1,    2,    3,    7,    8,    14,   15,    16,    17,    18,
                                  31,   32,   33,   47,   48,   49,   63,    64,    65,    255,
                                  256,  257,  5536, 5551, 5552, 5553, 5567,  5568,  5569,  6000,
                                  11103, 11104, 11105, 16655, 16656, 16657, 20000, 65536, 70001};
    for (size_t k = 0; k < sizeof lens / sizeof *lens; k++) {
        bb s = {0};
        for (size_t m = 0; m < lens[k]; m++)
            bb_u8(&s, k % 2 ? 0xff : (uint8_t)(m * 131 + 7));
        tb_sec one[] = {TB_SEC(1, &s)};
        size_t n;
        b = tb_blob(0, one, 1, &n);
        expect("sums reduced", b, n, RSC_OK, 0);
        b[n - 1 - lens[k] / 2] ^= 0x10;
        expect("sums reduced, one flip", b, n, RSC_E_CHECKSUM, CK);
        free(b);
        bb_free(&s);
    }
}


/* ---- Tables in every section (the "Every Table" rules) ----------------- */

/* The smallest blob with every section, one row in each Table; then the
 * same with one Table damaged. Widths are packed, 2 bits a column (width
 * - 1): no width 0 or 5 can be written; the bits past the last column of
 * the last width byte must be 0. */
enum { M_OK, M_COUNT_OVERLONG, M_COUNT_CUT, M_WIDTHS_CUT, M_WBITS_LOW, M_WBITS_HIGH,
       M_ROWS_PAST, M_TRAILING, M_N };
static const char *const m_names[] = {"valid", "Count overlong", "Count cut",
                                      "widths cut", "the width bit after the columns",
                                      "the top width bit", "rows past the section",
                                      "a byte after the content"};

typedef struct mtab {
    unsigned cols;
    uint32_t vals[6];
} mtab;
static const struct msec {
    uint32_t id;
    const char *prefix, *suffix;
    size_t np, ns;
    unsigned ntabs;
    mtab tabs[2];
} msecs[] = {
    {2, "", "", 0, 0, 1, {{3, {1 << 1, 0, 1}}}},                 /* RULES: line 1, "a"  */
    {3, "", "\x02\0\0\0\0\0\0\0", 0, 8, 1, {{1, {8}}}},        /* PROGRAMS: a leaf    */
    {4, "", "", 0, 0, 2, {{2, {0, 1}}, {1, {0}}}},              /* SETS                */
    {5, "\x01", "", 1, 0, 1, {{3, {0, 1, 0}}}},                  /* AGENTS: Global 1    */
    {6, "", "", 0, 0, 2, {{2, {1, 0}}, {1, {1}}}},              /* GROUPS: agent "a"   */
    {7, "", "", 0, 0, 1, {{3, {1, 0, 3}}}},                      /* SITEMAPS            */
    {8, "", "", 0, 0, 1, {{6, {1, 1, 0, 1, 1, 2}}}},             /* DIRECTIVES          */
};
#define N_MSECS (sizeof msecs / sizeof msecs[0])

/* *want: the documented offset of the failure (absolute). */
static uint8_t *mini_blob(size_t ms, unsigned mt, int mut, size_t *size, size_t *want)
{
    bb body = {0}, c = {0};
    size_t rel_want = SIZE_MAX;
    bb_varint(&body, 0xff); /* STRINGS .. DIRECTIVES */
    bb_u8(&body, 3);
    bb_str(&body, "abc");
    for (size_t i = 0; i < N_MSECS; i++) {
        const struct msec *m = &msecs[i];
        size_t rel = SIZE_MAX;
        c.n = 0;
        bb_raw(&c, m->prefix, m->np);
        for (unsigned t = 0; t < m->ntabs; t++) {
            const mtab *x = &m->tabs[t];
            const size_t nw = tb_wbytes(x->cols);
            size_t at = c.n;
            int hit = i == ms && t == mt;
            uint8_t wb[2] = {0, 0}; /* widths all 1 */
            if (hit && mut == M_COUNT_CUT) {
                bb_u8(&c, 0x80);
                rel = at;
                goto done;
            }
            if (hit && mut == M_WIDTHS_CUT) {
                bb_u8(&c, 1);
                bb_raw(&c, wb, nw - 1);
                rel = at;
                goto done;
            }
            if (hit && mut == M_COUNT_OVERLONG)
                bb_u8(&c, 0x81), bb_u8(&c, 0x00);
            else
                bb_u8(&c, hit && mut == M_ROWS_PAST ? 100 : 1);
            if (hit && mut == M_WBITS_LOW)
                wb[nw - 1] |= (uint8_t)(1u << (2 * (x->cols % 4)));
            if (hit && mut == M_WBITS_HIGH)
                wb[nw - 1] |= 0x80;
            bb_raw(&c, wb, nw);
            for (unsigned k = 0; k < x->cols; k++)
                bb_u8(&c, x->vals[k]);
            if (hit && mut != M_TRAILING)
                rel = at; /* every Table check reports the Table's offset */
        }
        bb_raw(&c, m->suffix, m->ns);
        if (i == ms && mut == M_TRAILING) {
            /* PROGRAMS: Data one byte longer than the last End (its row);
             * the others: the content does not fill the Size. */
            rel = m->id == 3 ? m->np + 2 : c.n;
            bb_u8(&c, 0x00);
        }
    done:
        if (rel != SIZE_MAX)
            rel_want = body.n + varint_len((uint32_t)c.n) + rel;
        bb_varint(&body, (uint32_t)c.n);
        bb_raw(&body, c.d, c.n);
    }
    uint8_t *b = tb_wrap(0, body.d, body.n, size);
    *want = rel_want == SIZE_MAX ? 0 : tb_present_at(b) + rel_want;
    bb_free(&body), bb_free(&c);
    return b;
}

/* One section of these bytes after STRINGS "abc" (and SETS of one empty
 * set, so that AGENTS may name set 0). */
static void one_sec(const char *name, uint32_t id, const uint8_t *c, size_t n, rsc_status want,
                    size_t rel)
{
    bb str = {0}, s = {0}, sets = {0};
    bb_str(&str, "abc");
    bb_raw(&s, c, n);
    static const uint8_t one_set[] = {1, 0, 0, 0, 0};
    bb_raw(&sets, one_set, sizeof one_set);
    tb_sec ss[3] = {TB_SEC(1, &str), TB_SEC(4, &sets), TB_SEC(id, &s)};
    size_t size, ns = id == 4 ? 2 : 3;
    if (id == 4) /* SETS itself: no second SETS */
        ss[1] = ss[2];
    uint8_t *b = tb_blob(0, ss, ns, &size);
    expect(name, b, size, want, want == RSC_OK ? 0 : sec(b, size, id) + rel);
    free(b);
    bb_free(&str), bb_free(&s), bb_free(&sets);
}
#define ONE_SEC(name, id, want, rel, ...)                                     \
    one_sec(name, id, (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__}), \
            want, rel)

static void test_tables(void)
{
    size_t n, off;
    uint8_t *b = mini_blob(SIZE_MAX, 0, M_OK, &n, &off);
    expect("mini blob", b, n, RSC_OK, 0);
    {
        /* It matches: "a" disallowed for everyone, directive and sitemap there. */
        rsc_program p;
        rsc_selection s;
        rsc_bytes a = {"x", 1}, v;
        CHECK(rsc_load(&p, b, n, NULL) == RSC_OK && rsc_select(&p, &a, 1, &s) == RSC_OK &&
                  s.n_sets == 1 && rsc_sitemap_count(&p) == 1 && rsc_directive_count(&p) == 1 &&
                  rsc_sitemap_get(&p, 0, NULL, &v) && v.len == 3,
              "mini blob usable");
    }
    free(b);
    for (size_t ms = 0; ms < N_MSECS; ms++)
        for (unsigned mt = 0; mt < msecs[ms].ntabs; mt++)
            for (int mut = 1; mut < M_N; mut++) {
                if (mut == M_TRAILING && mt + 1 < msecs[ms].ntabs)
                    continue;
                char name[96];
                snprintf(name, sizeof name, "section %u table %u: %s", msecs[ms].id, mt,
                         m_names[mut]);
                b = mini_blob(ms, mt, mut, &n, &off);
                expect(name, b, n, RSC_E_CORRUPT, off);
                free(b);
            }
    /* The packed widths as FORMAT.md 4.0's examples give them. */
    {
        bb x = {0};
        uint32_t v3[3] = {1, 300, 1}, v6[6] = {1, 2, 3, 4, 5, 6};
        tb_table(&x, 1, 3, v3, NULL); /* widths 1, 2, 1 */
        CHECK(x.n == 6 && x.d[0] == 1 && x.d[1] == 0x04, "widths 1, 2, 1: one byte 0x04");
        x.n = 0;
        v3[1] = 3;
        tb_table(&x, 1, 3, v3, NULL);
        CHECK(x.n == 5 && x.d[1] == 0x00, "widths 1, 1, 1: one byte 0x00");
        x.n = 0;
        tb_table(&x, 1, 6, v6, NULL);
        CHECK(x.n == 9 && x.d[1] == 0 && x.d[2] == 0, "6 columns of width 1: two bytes 00 00");
        x.n = 0;
        static const uint8_t w4[6] = {4, 3, 2, 1, 2, 4};
        tb_table(&x, 1, 6, v6, w4);
        uint8_t got[6];
        uint32_t cnt;
        size_t rows = tb_table_at(x.d, 0, 6, &cnt, got);
        CHECK(x.d[1] == (3 | 2 << 2 | 1 << 4 | 0 << 6) && x.d[2] == (1 | 3 << 2) && rows == 3 &&
                  cnt == 1 && memcmp(got, w4, 6) == 0 && x.n == 3 + 16,
              "widths 4 3 2 1 2 4: 0x1b 0x0d, read back");
        bb_free(&x);
    }
    /* An empty Table is the single byte 0: Count 0 followed by a widths
     * byte leaves bytes over (the content does not fill its Size). */
    ONE_SEC("RULES: Count 0", 2, RSC_OK, 0, 0x00);
    ONE_SEC("RULES: Count 0 with a widths byte", 2, RSC_E_CORRUPT, 1, 0x00, 0x00);
    ONE_SEC("PROGRAMS: Count 0", 3, RSC_OK, 0, 0x00);
    ONE_SEC("PROGRAMS: Count 0 with a widths byte (Data without programs)", 3, RSC_E_CORRUPT, 1,
            0x00, 0x00);
    ONE_SEC("SETS: Counts 0", 4, RSC_OK, 0, 0x00, 0x00);
    ONE_SEC("SETS: Count 0 with a widths byte (read as the list), then the list", 4,
            RSC_E_CORRUPT, 2, 0x00, 0x00, 0x00);
    ONE_SEC("AGENTS: Global 0, Count 0", 5, RSC_OK, 0, 0x00, 0x00);
    ONE_SEC("AGENTS: Count 0 with a widths byte", 5, RSC_E_CORRUPT, 2, 0x01, 0x00, 0x00);
    ONE_SEC("GROUPS: Counts 0", 6, RSC_OK, 0, 0x00, 0x00);
    ONE_SEC("GROUPS: Count 0 with a widths byte (read as the list)", 6, RSC_E_CORRUPT, 2, 0x00,
            0x00, 0x01, 0x00, 0x00);
    ONE_SEC("SITEMAPS: Count 0 with a widths byte", 7, RSC_E_CORRUPT, 1, 0x00, 0x00);
    ONE_SEC("DIRECTIVES: Count 0 with widths", 8, RSC_E_CORRUPT, 1, 0x00, 0x00, 0x00);
    ONE_SEC("DIRECTIVES: Count 0", 8, RSC_OK, 0, 0x00);
    /* The bits past the columns, reported at the Table (its Count). */
    ONE_SEC("SITEMAPS: a row", 7, RSC_OK, 0, 0x01, 0x00, 1, 0, 3);
    ONE_SEC("SITEMAPS: width bit 6 (no fourth column)", 7, RSC_E_CORRUPT, 0, 0x01, 0x40, 1, 0,
            3);
    ONE_SEC("SITEMAPS: width bit 7", 7, RSC_E_CORRUPT, 0, 0x01, 0x80, 1, 0, 3);
    ONE_SEC("SITEMAPS: widths 4, 4, 4", 7, RSC_OK, 0, 0x01, 0x3f, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0,
            0, 0);
    ONE_SEC("SITEMAPS: widths 4, 4, 4 and bits 6-7", 7, RSC_E_CORRUPT, 0, 0x01, 0xff, 1, 0, 0, 0,
            0, 0, 0, 0, 3, 0, 0, 0);
    ONE_SEC("DIRECTIVES: a row", 8, RSC_OK, 0, 0x01, 0x00, 0x00, 1, 0, 0, 1, 1, 2);
    ONE_SEC("DIRECTIVES: columns 5 and 6 of width 2 (second byte)", 8, RSC_OK, 0, 0x01, 0x00,
            0x05, 1, 0, 0, 1, 1, 0, 2, 0);
    ONE_SEC("DIRECTIVES: width bit 4 of the second byte", 8, RSC_E_CORRUPT, 0, 0x01, 0x00, 0x10,
            1, 0, 0, 1, 1, 2);
    ONE_SEC("DIRECTIVES: width bit 7 of the second byte", 8, RSC_E_CORRUPT, 0, 0x01, 0x00, 0x80,
            1, 0, 0, 1, 1, 2);
    ONE_SEC("DIRECTIVES: the second widths byte cut", 8, RSC_E_CORRUPT, 0, 0x01, 0x00);
    ONE_SEC("DIRECTIVES: a 2-byte Count (128 rows) past the section", 8, RSC_E_CORRUPT, 0, 0x80,
            0x01, 0x00, 0x00, 1, 0, 0, 1, 1, 2);
    ONE_SEC("GROUPS: list width bit 2 (no second column)", 6, RSC_E_CORRUPT, 1, 0x00, 0x01, 0x04,
            0x00);
    ONE_SEC("GROUPS: list width 2", 6, RSC_OK, 0, 0x00, 0x01, 0x01, 0x00, 0x00);
    /* Widths 1..4 in every column of every section. */
    tp_prog p = base_prog();
    for (unsigned w = 1; w <= 4; w++) {
        p.width = w;
        b = tp_build(&p, &n, NULL);
        tab r = tab_at(b, sec(b, n, 2), 3);
        CHECK(r.w[0] == w && r.w[1] == w && r.w[2] == w, "RULES widths %u", w);
        expect("widths", b, n, RSC_OK, 0);
        free(b);
    }
    /* Mixed widths, values needing all of them (RULES: lines up to 2^31). */
    bb str = {0}, rules = {0};
    for (int i = 0; i < 8; i++)
        bb_u8(&str, 'a');
    uint32_t v[] = {1u << 1, 0, 1, 70000u << 1, 0, 2, 0xffffffffu, 6, 2};
    static const uint8_t mixed[][3] = {{3, 1, 1}, {4, 2, 3}, {4, 4, 4}};
    for (size_t k = 0; k < 3; k++) {
        rules.n = 0;
        tb_table(&rules, 3, 3, v, mixed[k]);
        tb_sec s[] = {TB_SEC(1, &str), TB_SEC(2, &rules)};
        b = tb_blob(0, s, 2, &n);
        expect("RULES of mixed widths", b, n, RSC_OK, 0);
        free(b);
    }
    bb_free(&str), bb_free(&rules);
}
/* ---- rule 9: RULES ----------------------------------------------------- */

static void test_rules(void)
{
    tab r = tab_at(base, sec(base, base_n, 2), 3);
    size_t strings;
    tb_section(base, base_n, 1, &strings);
    CHECK(r.count == 4 && strings < 255, "base RULES");
    /* rows: "/ab" (3, disallow, 2), "/x*y" (4, disallow, 6), "/a*c$" (5,
     * allow, 9), "/abc$" (5, allow, 3) */
    poke("rule line 0", base, base_n, cell(&r, 0, 0), 0, 1, RSC_E_CORRUPT, cell(&r, 0, 0));
    poke("rule line 0, allow", base, base_n, cell(&r, 2, 0), 1, 1, RSC_E_CORRUPT, cell(&r, 2, 0));
    poke("rule Str_Len past STRINGS", base, base_n, cell(&r, 1, 2), 255, 1, RSC_E_CORRUPT,
         cell(&r, 1, 0));
    poke("rule Str_Off past STRINGS", base, base_n, cell(&r, 1, 1), 255, 1, RSC_E_CORRUPT,
         cell(&r, 1, 0));
    poke("rule string at the very end of STRINGS", base, base_n, cell(&r, 3, 1),
         (uint32_t)strings - 5, 1, RSC_OK, 0);
    poke("rule string one past the end of STRINGS", base, base_n, cell(&r, 3, 1),
         (uint32_t)strings - 4, 1, RSC_E_CORRUPT, cell(&r, 3, 0));
    /* (Str_Len, allow, -Line) strictly increasing */
    poke("rules: shorter after longer", base, base_n, cell(&r, 1, 2), 2, 1, RSC_E_CORRUPT,
         cell(&r, 1, 0));
    poke("rules: disallow after allow, same length", base, base_n, cell(&r, 3, 0), 3 << 1, 1,
         RSC_E_CORRUPT, cell(&r, 3, 0));
    poke("rules: later line after earlier, same kind", base, base_n, cell(&r, 3, 0), 10 << 1 | 1,
         1, RSC_E_CORRUPT, cell(&r, 3, 0));
    poke("rules: equal", base, base_n, cell(&r, 3, 0), 9 << 1 | 1, 1, RSC_E_CORRUPT,
         cell(&r, 3, 0));
    poke("rules: allow after disallow, same length", base, base_n, cell(&r, 2, 0), 9 << 1, 1,
         RSC_OK, 0);
    poke("rules: earlier line after later", base, base_n, cell(&r, 3, 0), 8 << 1 | 1, 1, RSC_OK, 0);
    poke("rules: same length, any lines, disallow first", base, base_n, cell(&r, 2, 0), 200 << 1,
         1, RSC_OK, 0);
    poke("RULES: Count one more", base, base_n, r.at, 5, 1, RSC_E_CORRUPT, r.at);
    poke("RULES: Count one less", base, base_n, r.at, 3, 1, RSC_E_CORRUPT, tab_end(&r) - 3);
    /* No wildcard tail is read at load (the automaton holds the
     * segments): a glob rule's match text moved is not checked, safe but
     * wrong (FORMAT.md, Verification). */
    poke("glob rule's Str_Off moved (google: the match text; not checked)", base, base_n,
         cell(&r, 2, 1), base[cell(&r, 0, 1)], 1, RSC_OK, 0);
    /* Overflow: Off + Len computed without wrapping (4-byte columns). */
    tab rw = tab_at(wide, sec(wide, wide_n, 2), 3);
    poke("rule Str_Off 2^32-1", wide, wide_n, cell(&rw, 1, 1), 0xffffffffu, 4, RSC_E_CORRUPT,
         cell(&rw, 1, 0));
    poke("rule Str_Off wraps", wide, wide_n, cell(&rw, 1, 1), 0xfffffffeu, 4, RSC_E_CORRUPT,
         cell(&rw, 1, 0));
    poke("rule Str_Len 2^32-1", wide, wide_n, cell(&rw, 3, 2), 0xffffffffu, 4, RSC_E_CORRUPT,
         cell(&rw, 3, 0));
    poke("rule line 2^31-1", wide, wide_n, cell(&rw, 0, 0), 0xfffffffeu, 4, RSC_OK, 0);
    poke("rule line 2^31-1, after a line 6 of the same length", wide, wide_n, cell(&rw, 1, 0),
         0xfffffffeu, 4, RSC_OK, 0);

    /* rfc: five columns, the match text a second string reference. */
    tab f = tab_at(base_rfc, sec(base_rfc, base_rfc_n, 2), 5);
    size_t fstr, fs = sec(base_rfc, base_rfc_n, 1);
    tb_section(base_rfc, base_rfc_n, 1, &fstr);
    CHECK(f.count == 4 && fstr < 255 && base_rfc[RSC_H_FLAGS] == RSC_FLAG_PROFILE_RFC,
          "base rfc RULES");
    /* rows: "/ab", "/x*y", "/abc$" (End), "/%7e*cd$" (match text "/~*cd$") */
    CHECK(base_rfc[cell(&f, 3, 2)] == 8 && base_rfc[cell(&f, 3, 4)] == 6 &&
              memcmp(base_rfc + fs + base_rfc[cell(&f, 3, 3)], "/~*cd$", 6) == 0 &&
              memcmp(base_rfc + fs + base_rfc[cell(&f, 3, 1)], "/%7e*cd$", 8) == 0,
          "rfc: pattern and match text differ");
    poke("rfc: Match_Len past STRINGS", base_rfc, base_rfc_n, cell(&f, 1, 4), 255, 1,
         RSC_E_CORRUPT, cell(&f, 1, 0));
    poke("rfc: Match_Off past STRINGS", base_rfc, base_rfc_n, cell(&f, 1, 3), 255, 1,
         RSC_E_CORRUPT, cell(&f, 1, 0));
    poke("rfc: match text at the very end of STRINGS", base_rfc, base_rfc_n, cell(&f, 2, 3),
         (uint32_t)fstr - 5, 1, RSC_OK, 0);
    poke("rfc: match text one past the end of STRINGS", base_rfc, base_rfc_n, cell(&f, 2, 3),
         (uint32_t)fstr - 4, 1, RSC_E_CORRUPT, cell(&f, 2, 0));
    /* The End rule "/abc$" is a leaf of one End: its Rep's match text holds
     * the leaf's label (4.0), so its Match_Len is read; "/ab" is an inner
     * node's Accept: its Match_Len is not. */
    poke("rfc: Match_Len 0 of an End rule: its leaf's label past it", base_rfc, base_rfc_n,
         cell(&f, 2, 4), 0, 1, RSC_E_CORRUPT, ANY);
    poke("rfc: Match_Len 3 of an End rule: its leaf at depth 4 past it", base_rfc, base_rfc_n,
         cell(&f, 2, 4), 3, 1, RSC_E_CORRUPT, ANY);
    poke("rfc: Match_Len 4 of an End rule: its leaf's (empty) label at its end", base_rfc,
         base_rfc_n, cell(&f, 2, 4), 4, 1, RSC_OK, 0);
    poke("rfc: Match_Len 0 of an inner node's Accept rule (not read)", base_rfc, base_rfc_n,
         cell(&f, 0, 4), 0, 1, RSC_OK, 0);
    poke("rfc: Str_Len past STRINGS", base_rfc, base_rfc_n, cell(&f, 0, 2), 255, 1,
         RSC_E_CORRUPT, cell(&f, 0, 0));
    poke("rfc: Match_Len longer than the pattern (not checked)", base_rfc, base_rfc_n,
         cell(&f, 3, 4), 9, 1, RSC_OK, 0);
    /* The order is by the match text's length (the rfc profile's priority,
     * RFC 9309 2.2.2), not by the pattern's; programs read the match text. */
    poke("rfc: Match_Len out of order", base_rfc, base_rfc_n, cell(&f, 0, 4), 5, 1,
         RSC_E_CORRUPT, cell(&f, 1, 0));
    poke("rfc: Str_Len out of order (not the order in rfc)", base_rfc, base_rfc_n,
         cell(&f, 3, 2), 3, 1, RSC_OK, 0);
    poke("rfc: glob rule's match text cut before its '*': out of order", base_rfc, base_rfc_n,
         cell(&f, 3, 4), 2, 1, RSC_E_CORRUPT, cell(&f, 3, 0));
    poke("rfc: glob rule's match text pointed at its pattern (not checked)", base_rfc,
         base_rfc_n, cell(&f, 3, 3), base_rfc[cell(&f, 3, 1)], 1, RSC_OK, 0);
    poke("rfc: glob rule's pattern moved (only the match text is read)", base_rfc, base_rfc_n,
         cell(&f, 3, 1), 0, 1, RSC_OK, 0);
    tab fw = tab_at(wide_rfc, sec(wide_rfc, wide_rfc_n, 2), 5);
    poke("rfc: Match_Off 2^32-1", wide_rfc, wide_rfc_n, cell(&fw, 1, 3), 0xffffffffu, 4,
         RSC_E_CORRUPT, cell(&fw, 1, 0));
    poke("rfc: Match_Len 2^32-1", wide_rfc, wide_rfc_n, cell(&fw, 3, 4), 0xffffffffu, 4,
         RSC_E_CORRUPT, cell(&fw, 3, 0));
}

/* ---- rule 10: PROGRAMS ------------------------------------------------- */

static int load_and_use(const uint8_t *b, size_t n);

/* The rules around test programs: rank r (1..n_rules) has the pattern
 * pats[r-1] (NULL: r '*'s, so that a glob of rank r is valid at any depth
 * below r and a Ref label of rank r may end at r), line 1000 - r (so that
 * equal lengths still make the ranks strictly increasing), disallow. rfc:
 * the match texts are mts[r-1] (five RULES columns). */
typedef struct pbo {
    uint32_t n_rules;
    const char *const *pats, *const *mts;
} pbo;

/* A blob around programs: STRINGS (the patterns, then the match texts),
 * RULES, the programs, one set of them all (no SETS when there is one
 * program), the global set. *data: the absolute offset of Data; *ends: of
 * the Ends. */
static uint8_t *progs_blob(const pbo *o, const bb *const *progs, size_t np, size_t *size,
                           size_t *data, tab *ends)
{
    bb str = {0}, rules = {0}, pr = {0}, sets = {0}, agents = {0}, d = {0};
    uint32_t v[5 * 300];
    unsigned cols = o->mts ? 5 : 3;
    size_t prev = 0;
    for (uint32_t r = 0; r < o->n_rules; r++) {
        size_t pl = o->pats ? strlen(o->pats[r]) : r + 1;
        if (pl < prev) {
            fprintf(stderr, "progs_blob: rank %u shorter than rank %u\n", r + 1, r);
            abort();
        }
        prev = pl;
        uint32_t *row = v + cols * r;
        row[0] = (1000 - r - 1) << 1, row[1] = (uint32_t)str.n, row[2] = (uint32_t)pl;
        if (o->pats)
            bb_str(&str, o->pats[r]);
        else
            for (size_t k = 0; k < pl; k++)
                bb_u8(&str, '*');
    }
    for (uint32_t r = 0; o->mts && r < o->n_rules; r++) {
        v[cols * r + 3] = (uint32_t)str.n, v[cols * r + 4] = (uint32_t)strlen(o->mts[r]);
        bb_str(&str, o->mts[r]);
    }
    if (o->n_rules)
        tb_table(&rules, o->n_rules, cols, v, NULL);
    for (size_t k = 0; k < np; k++) {
        bb_raw(&d, progs[k]->d, progs[k]->n);
        v[k] = (uint32_t)d.n;
    }
    tb_table(&pr, np, 1, v, NULL);
    bb_raw(&pr, d.d, d.n);
    if (np != 1) {
        v[0] = 0, v[1] = (uint32_t)np;
        tb_table(&sets, 1, 2, v, NULL);
        for (size_t k = 0; k < np; k++)
            v[k] = (uint32_t)k;
        tb_table(&sets, np, 1, v, NULL);
    }
    bb_varint(&agents, 1);
    tb_table(&agents, 0, 3, v, NULL);
    tb_sec s[] = {TB_SEC(1, &str), TB_SEC(2, &rules), TB_SEC(3, &pr), TB_SEC(4, &sets),
                  TB_SEC(5, &agents)};
    if (np == 1)
        s[3] = s[4];
    uint8_t *b = tb_blob(o->mts ? RSC_FLAG_PROFILE_RFC : 0, s, np == 1 ? 4 : 5, size);
    size_t p3 = sec(b, *size, 3);
    tab e = tab_at(b, p3, 1);
    if (ends)
        *ends = e;
    *data = tab_end(&e);
    bb_free(&str), bb_free(&rules), bb_free(&pr), bb_free(&sets), bb_free(&agents), bb_free(&d);
    return b;
}

/* One raw trie p[0..n) as a program (Trie_Size n, the trie, Shape 0 and
 * four empty Tables): the status and the offset from the start of the
 * trie. */
static void prog_raw_o(const char *name, const uint8_t *p, size_t n, const pbo *o,
                       rsc_status want, size_t rel)
{
    bb x = {0};
    bb_varint(&x, (uint32_t)n);
    size_t t0 = x.n;
    bb_raw(&x, p, n);
    bb_raw(&x, NULL, 5);
    const bb *ps[1] = {&x};
    size_t size, data;
    uint8_t *b = progs_blob(o, ps, 1, &size, &data, NULL);
    expect(name, b, size, want, rel == ANY ? ANY : want == RSC_OK ? 0 : data + t0 + rel);
    free(b);
    bb_free(&x);
}

/* One whole raw program: the offset from its start (Trie_Size). */
static void prog_whole(const char *name, const uint8_t *p, size_t n, uint32_t n_rules,
                       rsc_status want, size_t rel)
{
    pbo o = {n_rules, NULL, NULL};
    bb x = {0};
    bb_raw(&x, p, n);
    const bb *ps[1] = {&x};
    size_t size, data;
    uint8_t *b = progs_blob(&o, ps, 1, &size, &data, NULL);
    expect(name, b, size, want, rel == ANY ? ANY : want == RSC_OK ? 0 : data + rel);
    free(b);
    bb_free(&x);
}
#define WHOLE(name, n_rules, want, rel, ...)                                  \
    prog_whole(name, (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__}), \
               n_rules, want, rel)
static void prog_raw(const char *name, const uint8_t *p, size_t n, uint32_t n_rules,
                     rsc_status want, size_t rel)
{
    pbo o = {n_rules, NULL, NULL};
    prog_raw_o(name, p, n, &o, want, rel);
}
#define PROG(name, n_rules, want, rel, ...)                                   \
    prog_raw(name, (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__}), \
             n_rules, want, rel)
#define PROGO(name, o, want, rel, ...)                                        \
    prog_raw_o(name, (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__}), \
               o, want, rel)

/* Gives t the match texts of o's rules (for tt_glob). */
static void pbo_texts(tt *t, const pbo *o)
{
    static char *stars[300];
    static const char *tx[300];
    for (uint32_t r = 0; r < o->n_rules && r < 300; r++) {
        if (o->mts || o->pats) {
            tx[r] = o->mts ? o->mts[r] : o->pats[r];
            continue;
        }
        if (!stars[r]) {
            stars[r] = malloc(r + 2);
            memset(stars[r], '*', r + 1);
            stars[r][r + 1] = 0;
        }
        tx[r] = stars[r];
    }
    tt_texts(t, tx, o->n_rules < 300 ? o->n_rules : 300);
}

/* One hand program with one field poked: offsets from the start of Data
 * (at ANY: nothing poked). */
static void trie_poke_o(const char *name, tt *t, const pbo *o, size_t at, uint32_t v,
                        unsigned w, rsc_status want, size_t rel)
{
    bb x = {0};
    pbo_texts(t, o);
    tt_encode(t, &x);
    const bb *ps[1] = {&x};
    size_t size, data;
    uint8_t *b = progs_blob(o, ps, 1, &size, &data, NULL);
    if (at != ANY)
        wrnle(b + data + at, v, w), tb_fix_checksum(b, size);
    expect(name, b, size, want, rel == ANY ? ANY : want == RSC_OK ? 0 : data + rel);
    free(b);
    bb_free(&x);
}
static void trie_poke(const char *name, tt *t, uint32_t n_rules, size_t at, uint32_t v,
                      unsigned w, rsc_status want, size_t rel)
{
    pbo o = {n_rules, NULL, NULL};
    trie_poke_o(name, t, &o, at, v, w, want, rel);
}

static void test_programs(void)
{
    /* Program Ends. A leaf program: Trie_Size 2, the root leaf, Shape 0,
     * four empty Tables: 8 bytes. */
    bb leaf = {0};
    static const uint8_t leaf8[] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    bb_raw(&leaf, leaf8, sizeof leaf8);
    const bb *two[2] = {&leaf, &leaf};
    size_t n, data;
    tab e;
    pbo one = {1, NULL, NULL};
    uint8_t *b = progs_blob(&one, two, 2, &n, &data, &e);
    expect("two leaf programs", b, n, RSC_OK, 0);
    poke("End[0] 0", b, n, cell(&e, 0, 0), 0, 1, RSC_E_CORRUPT, cell(&e, 0, 0));
    poke("End[1] = End[0]", b, n, cell(&e, 1, 0), 8, 1, RSC_E_CORRUPT, cell(&e, 1, 0));
    poke("End[1] < End[0]", b, n, cell(&e, 1, 0), 7, 1, RSC_E_CORRUPT, cell(&e, 1, 0));
    poke("last End short of Data", b, n, cell(&e, 1, 0), 15, 1, RSC_E_CORRUPT, cell(&e, 1, 0));
    poke("last End past Data", b, n, cell(&e, 1, 0), 17, 1, RSC_E_CORRUPT, cell(&e, 1, 0));
    poke("End[0] past Data", b, n, cell(&e, 0, 0), 17, 1, RSC_E_CORRUPT, cell(&e, 0, 0));
    poke("End[0] 9: program 0 and a byte (after its EDGES)", b, n, cell(&e, 0, 0), 9, 1,
         RSC_E_CORRUPT, data + 8);
    poke("End[0] 7: program 0 without its EDGES Count", b, n, cell(&e, 0, 0), 7, 1,
         RSC_E_CORRUPT, data + 7);
    poke("End[0] 3: program 0 without its Shape", b, n, cell(&e, 0, 0), 3, 1, RSC_E_CORRUPT,
         data + 3);
    poke("End[0] 2: the trie past program 0", b, n, cell(&e, 0, 0), 2, 1, RSC_E_CORRUPT, data);
    poke("End[0] 1: program 0 is its Trie_Size", b, n, cell(&e, 0, 0), 1, 1, RSC_E_CORRUPT,
         data);
    free(b);
    bb_free(&leaf);
    {
        bb str = {0}, pr = {0};
        bb_str(&str, "a");
        static const uint8_t no_progs[] = {0x00}, data_only[] = {0x00, 0x00, 0x00};
        bb_raw(&pr, no_progs, 1);
        tb_sec s[] = {TB_SEC(1, &str), TB_SEC(3, &pr)};
        b = tb_blob(0, s, 2, &n);
        expect("PROGRAMS: no programs", b, n, RSC_OK, 0);
        free(b);
        pr.n = 0;
        bb_raw(&pr, data_only, 3);
        b = tb_blob(0, s, 2, &n);
        expect("PROGRAMS: Data without programs", b, n, RSC_E_CORRUPT, sec(b, n, 3) + 1);
        free(b);
        bb_free(&str), bb_free(&pr);
    }

    /* Raw nodes. Default rules: rank r is r '*'s. Label_Head = Label_Len
     * << 2 | Kind (0 inline, 1 Ref, 2 leaf of one Accept, 3 of one End);
     * Head = Children << 5 | Width << 3 | Has_Root << 2 | Has_End << 1 |
     * Has_Accept; n - 1 Offsets for n children (child 0 at C). */
    PROG("a leaf root", 1, RSC_OK, 0, 0x00, 0x00);
    PROG("root Label_Head overlong", 1, RSC_E_CORRUPT, 0, 0x80, 0x00, 0x00);
    PROG("root Label_Head cut", 1, RSC_E_CORRUPT, 0, 0x80);
    PROG("root with an inline label", 1, RSC_E_CORRUPT, 0, 0x04, 'a', 0x00);
    PROG("root with a Ref label", 1, RSC_E_CORRUPT, 0, 0x05, 0x01, 0x00);
    PROG("root with a Ref label of length 0", 1, RSC_E_CORRUPT, 0, 0x01, 0x01, 0x00);
    PROG("root as a leaf of one Accept (kind 2)", 1, RSC_E_CORRUPT, 0, 0x02, 0x01);
    PROG("root as a leaf of one End (kind 3)", 1, RSC_E_CORRUPT, 0, 0x03, 0x01);
    PROG("root label past the span", 1, RSC_E_CORRUPT, 0, 0x14, 'a', 0x00);
    PROG("Head missing", 1, RSC_E_CORRUPT, 1, 0x00);
    PROG("Head cut", 1, RSC_E_CORRUPT, 1, 0x00, 0x80);
    PROG("Head overlong", 1, RSC_E_CORRUPT, 1, 0x00, 0x80, 0x00);
    PROG("Head 2^32", 1, RSC_E_CORRUPT, 1, 0x00, 0x80, 0x80, 0x80, 0x80, 0x10);
    PROG("Head 2^32-1: Children too many", 1, RSC_E_CORRUPT, 1, 0x00, 0xff, 0xff, 0xff, 0xff, 0x0f);
    PROG("Children 257", 1, RSC_E_CORRUPT, 1, 0x00, 0xa0, 0x40);
    PROG("Children 256, span too short", 1, RSC_E_CORRUPT, 3, 0x00, 0x80, 0x40, 0x00);
    PROG("leaf with Width 1", 1, RSC_E_CORRUPT, 1, 0x00, 0x08);
    PROG("leaf with Width 3", 1, RSC_E_CORRUPT, 1, 0x00, 0x18);
    /* Width must be 0 when Children <= 1 (a single child has no Offset) */
    PROG("one child with Width 1", 1, RSC_E_CORRUPT, 1, 0x00, 0x28, '/', 0x00, 0x00);
    PROG("one child with Width 3", 1, RSC_E_CORRUPT, 1, 0x00, 0x38, '/', 0x00, 0x00);
    PROG("one child with Width 0", 1, RSC_OK, 0, 0x00, 0x20, '/', 0x00, 0x00);
    PROG("leaf and a byte", 1, RSC_E_CORRUPT, 2, 0x00, 0x00, 0x00);
    PROG("Accept missing", 1, RSC_E_CORRUPT, 2, 0x00, 0x01);
    PROG("Accept 0", 1, RSC_E_CORRUPT, 2, 0x00, 0x01, 0x00);
    PROG("Accept 1 of 1", 1, RSC_OK, 0, 0x00, 0x01, 0x01);
    PROG("Accept 2 of 1", 1, RSC_E_CORRUPT, 2, 0x00, 0x01, 0x02);
    PROG("Accept without RULES", 0, RSC_E_CORRUPT, 2, 0x00, 0x01, 0x01);
    PROG("Accept overlong", 1, RSC_E_CORRUPT, 2, 0x00, 0x01, 0x81, 0x00);
    PROG("End 0", 3, RSC_E_CORRUPT, 2, 0x00, 0x02, 0x00);
    PROG("End 4 of 3", 3, RSC_E_CORRUPT, 2, 0x00, 0x02, 0x04);
    PROG("Accept and End", 3, RSC_OK, 0, 0x00, 0x03, 0x02, 0x03);
    PROG("Accept ok, End 4 of 3", 3, RSC_E_CORRUPT, 3, 0x00, 0x03, 0x02, 0x04);
    PROG("Accept 200 of 200 (2 bytes)", 200, RSC_OK, 0, 0x00, 0x01, 0xc8, 0x01);
    PROG("Accept 201 of 200", 200, RSC_E_CORRUPT, 2, 0x00, 0x01, 0xc9, 0x01);
    PROG("Accept 2^32-1", 200, RSC_E_CORRUPT, 2, 0x00, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f);
    /* Root slots: Has_Root (0x04), then a Slot, a row of ROOTS. The raw
     * tries here have empty Tables: no Slot is valid. */
    PROG("Slot of an empty ROOTS", 1, RSC_E_CORRUPT, 2, 0x00, 0x04, 0x00);
    PROG("Slot missing", 1, RSC_E_CORRUPT, 2, 0x00, 0x04);
    PROG("Slot overlong", 1, RSC_E_CORRUPT, 2, 0x00, 0x04, 0x80, 0x00);
    PROG("Slot 2^32-1", 1, RSC_E_CORRUPT, 2, 0x00, 0x04, 0xff, 0xff, 0xff, 0xff, 0x0f);
    PROG("Slot after Accept and End, Accept bad first", 3, RSC_E_CORRUPT, 2, 0x00, 0x07, 0x04,
         0x01, 0x00);
    PROG("Slot after Accept and End", 3, RSC_E_CORRUPT, 4, 0x00, 0x07, 0x02, 0x01, 0x00);
    /* Whole programs: rule 1 "*a" (the default rules are stars: nothing
     * reads the match texts of a wildcard rule at load). Widths packed:
     * 0x00 is every column of width 1 (two bytes for 5 to 8 columns). */
#define STAR_A 0x03, 0x00, 0x04, 0x00,             /* Trie_Size 3: root, Slot 0 */ \
        0x00,                                      /* Shape 0                   */ \
        0x01, 0x00, 0x00, 0x01,                    /* ROOTS: level 0, Max 1     */ \
        0x01, 0x00, 0x00, 1, 0, 1, 0, 1, 0,        /* OUTS: "a": Len 1, Edge 0  */ \
        0x02, 0x00, 0x00, 0, 1, 1, 0, 0, 'a', 0, 0, 0, 1, /* STATES: "", "a"     */ \
        0x01, 0x00, 0, 1, 0, 1                     /* EDGES: slot 0, rank 1     */
    WHOLE("\"*a\"", 1, RSC_OK, 0, STAR_A, 0, 0, 0);
    /* Pad: RSC_PAD zero bytes after EDGES when ROOTS is not empty (at 37) */
    CHECK(RSC_PAD == 3, "RSC_PAD 3");
    WHOLE("\"*a\" without its padding", 1, RSC_E_CORRUPT, 37, STAR_A);
    WHOLE("\"*a\", padding of 2 bytes", 1, RSC_E_CORRUPT, 37, STAR_A, 0, 0);
    WHOLE("\"*a\", padding of 4 bytes", 1, RSC_E_CORRUPT, 37, STAR_A, 0, 0, 0, 0);
    WHOLE("\"*a\", padding byte 0 not zero", 1, RSC_E_CORRUPT, 37, STAR_A, 1, 0, 0);
    WHOLE("\"*a\", padding byte 1 not zero", 1, RSC_E_CORRUPT, 38, STAR_A, 0, 0x80, 0);
    WHOLE("\"*a\", padding byte 2 not zero", 1, RSC_E_CORRUPT, 39, STAR_A, 0, 0, 0xff);
    WHOLE("no ROOTS: no padding", 1, RSC_OK, 0, 0x02, 0x00, 0x00, 0x00, 0, 0, 0, 0);
    WHOLE("no ROOTS, but padding", 1, RSC_E_CORRUPT, 8, 0x02, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0,
          0, 0);
    WHOLE("ROOTS and STATES, no OUTS nor EDGES: padding", 1, RSC_OK, 0, 0x03, 0x00, 0x04, 0x00,
          0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0, 0, 0, 0, 0, 0x00, 0, 0, 0);
    WHOLE("Trie_Size 0", 1, RSC_E_CORRUPT, 0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00);
    WHOLE("Trie_Size cut", 1, RSC_E_CORRUPT, 0, 0x80);
    WHOLE("Trie_Size overlong", 1, RSC_E_CORRUPT, 0, 0x82, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0);
    WHOLE("Trie_Size past the program", 1, RSC_E_CORRUPT, 0, 0x09, 0x00, 0x00, 0, 0, 0, 0, 0);
    WHOLE("Trie_Size to the program's end: no Shape", 1, RSC_E_CORRUPT, 8, 0x07, 0x00, 0x00, 0,
          0, 0, 0, 0);
    WHOLE("Trie_Size 2^32-1", 1, RSC_E_CORRUPT, 0, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x00);
    WHOLE("Trie_Size 1 (the root's Head outside its span)", 1, RSC_E_CORRUPT, 2, 0x01, 0x00,
          0x00, 0, 0, 0, 0);
    WHOLE("Shape cut", 1, RSC_E_CORRUPT, 3, 0x02, 0x00, 0x00, 0x80);
    WHOLE("Shape overlong", 1, RSC_E_CORRUPT, 3, 0x02, 0x00, 0x00, 0x80, 0x00, 0, 0, 0, 0);
    WHOLE("Shape: N_Internal 512", 1, RSC_OK, 0, 0x02, 0x00, 0x00, 0x80, 0x10, 0, 0, 0, 0);
    WHOLE("Shape: N_Internal 513", 1, RSC_E_CORRUPT, 3, 0x02, 0x00, 0x00, 0x84, 0x10, 0, 0, 0,
          0);
    WHOLE("Shape: N_Internal 2^30-1", 1, RSC_E_CORRUPT, 3, 0x02, 0x00, 0x00, 0xfc, 0xff, 0xff,
          0xff, 0x0f, 0, 0, 0, 0);
    WHOLE("Shape: N_Internal 512 with Labels, no states (not checked)", 1, RSC_OK, 0, 0x02,
          0x00, 0x00, 0x82, 0x10, 0, 0, 0, 0);
    WHOLE("Shape: Labels, no states (not checked)", 1, RSC_OK, 0, 0x02, 0x00, 0x00, 0x02, 0, 0,
          0, 0);
    WHOLE("Shape: a chain with Labels, no ROOTS: Labels first", 1, RSC_E_CORRUPT, 3, 0x02,
          0x00, 0x00, 0x03, 0, 0, 0, 0);
    WHOLE("Shape: a chain of no ROOTS", 1, RSC_E_CORRUPT, 3, 0x02, 0x00, 0x00, 0x01, 0, 0, 0, 0);
    WHOLE("Tables missing", 1, RSC_E_CORRUPT, 4, 0x02, 0x00, 0x00, 0x00);
    WHOLE("EDGES missing", 1, RSC_E_CORRUPT, 7, 0x02, 0x00, 0x00, 0x00, 0, 0, 0);
    WHOLE("ROOTS rows past the program", 1, RSC_E_CORRUPT, 4, 0x02, 0x00, 0x00, 0x00, 0x03,
          0x00, 0, 1, 0, 0, 0);
    WHOLE("OUTS width bits past the columns (bit 4 of the second byte)", 1, RSC_E_CORRUPT, 5,
          0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 1, 0, 1, 0, 1, 0, 0, 0);
    WHOLE("OUTS widths: the second byte missing", 1, RSC_E_CORRUPT, 5, 0x02, 0x00, 0x00, 0x00,
          0x00, 0x01, 0x00);
    WHOLE("STATES Count overlong", 1, RSC_E_CORRUPT, 6, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
          0x80, 0x00, 0x00);
    WHOLE("EDGES widths cut", 1, RSC_E_CORRUPT, 7, 0x02, 0x00, 0x00, 0x00, 0, 0, 0, 0x01);
    WHOLE("\"*a\", EDGES widths 4 (all bits of the byte used)", 1, RSC_OK, 0, 0x03, 0x00, 0x04,
          0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 1, 0, 1, 0, 1, 0, 0x02, 0x00,
          0x00, 0, 1, 1, 0, 0, 'a', 0, 0, 0, 1, 0x01, 0xff, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
          1, 0, 0, 0, 0, 0, 0);
    WHOLE("\"*a\", STATES width bit 2 of the second byte", 1, RSC_E_CORRUPT, 18, 0x03, 0x00,
          0x04, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 1, 0, 1, 0, 1, 0, 0x02,
          0x00, 0x04, 0, 1, 1, 0, 0, 'a', 0, 0, 0, 1, 0x01, 0x00, 0, 1, 0, 1, 0, 0, 0);
    PROG("keys past the span", 1, RSC_E_CORRUPT, 2, 0x00, 0x60, 'a', 'b');
    PROG("offsets past the span", 1, RSC_E_CORRUPT, 2, 0x00, 0x60, 'a', 'b', 'c', 0x01);
    PROG("one child", 1, RSC_OK, 0, 0x00, 0x20, '/', 0x04, 'a', 0x01, 0x01);
    PROG("one child: a 3.1 Offsets[0] 0 read as the child's Label_Head (its Slot 'a')", 1,
         RSC_E_CORRUPT, 5, 0x00, 0x20, '/', 0x00, 0x04, 'a', 0x01, 0x01);
    PROG("one child: label past its span", 1, RSC_E_CORRUPT, 3, 0x00, 0x20, '/', 0x10, 'a',
         0x01, 0x01);
    PROG("child Label_Head overlong", 1, RSC_E_CORRUPT, 3, 0x00, 0x20, '/', 0x84, 0x00, 'a',
         0x00);
    PROG("child Label_Head 2^32-4 (5 bytes, inline)", 1, RSC_E_CORRUPT, 3, 0x00, 0x20, '/',
         0xfc, 0xff, 0xff, 0xff, 0x0f, 0x00);
    PROG("child Label_Head 2^32-3 (5 bytes, Ref)", 1, RSC_E_CORRUPT, 8, 0x00, 0x20, '/', 0xfd,
         0xff, 0xff, 0xff, 0x0f, 0x01, 0x00);
    PROG("child Label_Head 2^32-2 (5 bytes, leaf of one Accept)", 1, RSC_E_CORRUPT, 8, 0x00,
         0x20, '/', 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x01);
    PROG("child Label_Head 2^32-1 (5 bytes, leaf of one End)", 1, RSC_E_CORRUPT, 8, 0x00, 0x20,
         '/', 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01);
    PROG("child Label_Head 2^32", 1, RSC_E_CORRUPT, 3, 0x00, 0x20, '/', 0x80, 0x80, 0x80, 0x80,
         0x10, 0x00);
    {
        /* a label of 128 bytes: a 2-byte Label_Head */
        uint8_t lp[3 + 2 + 128 + 1] = {0x00, 0x20, '/', 0x80, 0x04};
        memset(lp + 5, 'x', 128);
        lp[5 + 128] = 0x00;
        prog_raw("child label of 128 bytes", lp, sizeof lp, 1, RSC_OK, 0);
        lp[4] = 0x08; /* 256: past the span */
        prog_raw("child label of 256 bytes", lp, sizeof lp, 1, RSC_E_CORRUPT, 3);
        lp[3] = 0x81, lp[4] = 0x04; /* Ref, 128 bytes of rank 'x' = 120: a Rep 120 out of range */
        prog_raw("child label of 128 bytes by Rep 120 of 1", lp, sizeof lp, 1, RSC_E_CORRUPT, 5);
        lp[3] = 0x82; /* a leaf of one Accept, the same Rep */
        prog_raw("child leaf of 128 bytes by Rep 120 of 1", lp, sizeof lp, 1, RSC_E_CORRUPT, 5);
    }
    /* Labels by Rep: MatchText(Rep)[d .. d + Label_Len), d = 1 under the
     * root; default rank r is r bytes long. */
    PROG("Ref label: 2 bytes of rank 3 from 1", 3, RSC_OK, 0, 0x00, 0x20, '/', 0x09, 0x03, 0x00);
    PROG("Ref label: 3 bytes of rank 3 from 1", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x0d,
         0x03, 0x00);
    PROG("Ref label: 0 bytes of rank 1 from 1", 3, RSC_OK, 0, 0x00, 0x20, '/', 0x01, 0x01, 0x00);
    PROG("Ref label: 1 byte of rank 1 from 1", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x05, 0x01,
         0x00);
    PROG("Ref label: Rep 0", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x05, 0x00, 0x00);
    PROG("Ref label: Rep 4 of 3", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x05, 0x04, 0x00);
    PROG("Ref label: Rep cut", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x05, 0x83);
    PROG("Ref label: Rep missing", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x05);
    PROG("Ref label: Rep overlong", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x05, 0x82, 0x00,
         0x00);
    PROG("Ref label: Rep 200 of 200 (2 bytes), 199 bytes", 200, RSC_OK, 0, 0x00, 0x20, '/',
         0x9d, 0x06, 0xc8, 0x01, 0x00);
    PROG("Ref label: Rep 200 of 200, 200 bytes", 200, RSC_E_CORRUPT, 5, 0x00, 0x20, '/', 0xa1,
         0x06, 0xc8, 0x01, 0x00);
    PROG("Ref label: then a Head missing", 3, RSC_E_CORRUPT, 5, 0x00, 0x20, '/', 0x05, 0x02);
    /* d grows with each key and label: root -> '/' "" -> 'a' Ref(rank 3,
     * 1 byte) at d = 2: 2 + 1 <= 3; 2 bytes: past. */
    PROG("Ref label at depth 2", 3, RSC_OK, 0, 0x00, 0x20, '/', 0x00, 0x20, 'a', 0x05, 0x03,
         0x00);
    PROG("Ref label at depth 2, past its rule", 3, RSC_E_CORRUPT, 7, 0x00, 0x20, '/', 0x00, 0x20,
         'a', 0x09, 0x03, 0x00);
    /* Leaves of one rank (kinds 2, 3): varint Rep, checked as a Ref's Rep
     * (1..Rule_Count, the label inside its match text), and the node ends
     * there, exactly at its span's end. */
    PROG("leaf of one Accept", 3, RSC_OK, 0, 0x00, 0x20, '/', 0x02, 0x01);
    PROG("leaf of one End", 3, RSC_OK, 0, 0x00, 0x20, '/', 0x03, 0x02);
    PROG("leaf of one Accept: Rep 0", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x02, 0x00);
    PROG("leaf of one End: Rep 0", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x03, 0x00);
    PROG("leaf of one Accept: Rep 4 of 3", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x02, 0x04);
    PROG("leaf of one End: Rep 4 of 3", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x03, 0x04);
    PROG("leaf of one Accept without RULES", 0, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x02, 0x01);
    PROG("leaf of one Accept: Rep missing", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x02);
    PROG("leaf of one End: Rep cut", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x03, 0x81);
    PROG("leaf of one Accept: Rep overlong", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x02, 0x81,
         0x00);
    PROG("leaf of one Accept: Rep 2^32-1", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x02, 0xff,
         0xff, 0xff, 0xff, 0x0f);
    PROG("leaf of one Accept: Rep 200 of 200 (2 bytes)", 200, RSC_OK, 0, 0x00, 0x20, '/', 0x02,
         0xc8, 0x01);
    PROG("leaf of one End: Rep 201 of 200", 200, RSC_E_CORRUPT, 4, 0x00, 0x20, '/', 0x03, 0xc9,
         0x01);
    PROG("leaf of one Accept: 2 label bytes of rank 3 from 1", 3, RSC_OK, 0, 0x00, 0x20, '/',
         0x0a, 0x03);
    PROG("leaf of one Accept: 3 label bytes of rank 3 from 1", 3, RSC_E_CORRUPT, 4, 0x00, 0x20,
         '/', 0x0e, 0x03);
    PROG("leaf of one End: 1 label byte of rank 1 from 1", 3, RSC_E_CORRUPT, 4, 0x00, 0x20, '/',
         0x07, 0x01);
    PROG("leaf of one Accept at depth 2, past its rule", 3, RSC_E_CORRUPT, 7, 0x00, 0x20, '/',
         0x00, 0x20, 'a', 0x0a, 0x03);
    PROG("leaf of one Accept, then a byte: not the end of its span", 3, RSC_E_CORRUPT, 5, 0x00,
         0x20, '/', 0x02, 0x01, 0x00);
    PROG("leaf of one End, then a Head and an End: not the end of its span", 3, RSC_E_CORRUPT,
         5, 0x00, 0x20, '/', 0x03, 0x01, 0x02, 0x01);
    PROG("leaf of one Accept, its inline bytes not read: the label bytes are the rank's", 3,
         RSC_E_CORRUPT, 5, 0x00, 0x20, '/', 0x06, 0x02, 'x');
    PROG("two leaves of one rank", 3, RSC_OK, 0, 0x00, 0x40, 'a', 'b', 0x02, 0x02, 0x01, 0x03,
         0x03);
    PROG("two leaves, the first not ending its span", 3, RSC_E_CORRUPT, 7, 0x00, 0x40, 'a', 'b',
         0x03, 0x02, 0x01, 0x00, 0x03, 0x03);
    PROG("two children, Offsets u16", 1, RSC_OK, 0, 0x00, 0x48, 'a', 'b', 0x03, 0x00, 0x00,
         0x01, 0x01, 0x00, 0x01, 0x01);
    PROG("two children, Offsets u8", 1, RSC_OK, 0, 0x00, 0x40, 'a', 'b', 0x03, 0x00, 0x01, 0x01,
         0x00, 0x01, 0x01);
    PROG("two children, keys decreasing", 1, RSC_E_CORRUPT, 3, 0x00, 0x48, 'b', 'a', 0x03, 0x00,
         0x00, 0x01, 0x01, 0x00, 0x01, 0x01);
    PROG("two children, keys equal", 1, RSC_E_CORRUPT, 3, 0x00, 0x48, 'a', 'a', 0x03, 0x00,
         0x00, 0x01, 0x01, 0x00, 0x01, 0x01);
    PROG("two children, the first Offset 0 (child 1 at child 0)", 1, RSC_E_CORRUPT, 4, 0x00,
         0x48, 'a', 'b', 0x00, 0x00, 0x00, 0x01, 0x01, 0x00, 0x01, 0x01);
    PROG("two children, the first Offset 0 (u8)", 1, RSC_E_CORRUPT, 4, 0x00, 0x40, 'a', 'b',
         0x00, 0x00, 0x01, 0x01, 0x00, 0x01, 0x01);
    PROG("two children, Offsets[0] at the span's end", 1, RSC_E_CORRUPT, 4, 0x00, 0x48, 'a',
         'b', 0x06, 0x00, 0x00, 0x01, 0x01, 0x00, 0x01, 0x01);
    PROG("two children, Offsets[0] 2^16-1 (u16)", 1, RSC_E_CORRUPT, 4, 0x00, 0x48, 'a', 'b',
         0xff, 0xff, 0x00, 0x01, 0x01, 0x00, 0x01, 0x01);
    PROG("two children, Offsets u32 2^32-1", 1, RSC_E_CORRUPT, 4, 0x00, 0x58, 'a', 'b', 0xff,
         0xff, 0xff, 0xff, 0x00, 0x01, 0x01, 0x00, 0x01, 0x01);
    PROG("two children, Offsets u24", 1, RSC_OK, 0, 0x00, 0x50, 'a', 'b', 0x03, 0x00, 0x00,
         0x00, 0x01, 0x01, 0x00, 0x01, 0x01);
    PROG("three children, Offsets not increasing", 1, RSC_E_CORRUPT, 6, 0x00, 0x60, 'a', 'b',
         'c', 0x03, 0x03, 0x00, 0x01, 0x01, 0x00, 0x01, 0x01, 0x00, 0x01, 0x01);
    PROG("three children, Offsets 3 and 6", 1, RSC_OK, 0, 0x00, 0x60, 'a', 'b', 'c', 0x03, 0x06,
         0x00, 0x01, 0x01, 0x00, 0x01, 0x01, 0x00, 0x01, 0x01);

    /* A hand program, poked field by field. Rules (rank: match text):
     *   1 "*y*z$", 2 "/abdef*g$", 3 "*xxxxxxxx"
     *   root: slot 0 (rules 3, 1); child '/'
     *   "/ab" (inline label): Accept 2, End 3; children 'c' (Accept 1: a
     *   leaf of one Accept, Rep 1, its empty label at depth 4 inside rule
     *   1's text) and 'd' (label "ef" by Rep 2 from depth 4; slot 1: rule 2
     *   at depth 6); "/ab" has one Offset, for 'd' */
    static const char *const hp[] = {"*y*z$", "/abdef*g$", "*xxxxxxxx"};
    pbo ho = {3, hp, NULL}, h2 = {2, hp, NULL};
    tt *t = tt_new();
    tt_glob(t, 0, 3);
    tt_glob(t, 0, 1);
    int a = tt_child(t, 0, '/', "ab", 2);
    tt_accept(t, a, 2);
    tt_end(t, a, 3);
    int c = tt_child(t, a, 'c', "", 0);
    tt_accept(t, c, 1);
    int d = tt_child_ref(t, a, 'd', 2, 2);
    tt_glob(t, d, 2);
    trie_poke_o("hand program", t, &ho, ANY, 0, 0, RSC_OK, 0);
    tt_pos R = tt_where(t, 0), A = tt_where(t, a), C = tt_where(t, c), D = tt_where(t, d);
    CHECK(R.start == 1 && R.head == 2 && R.slot == 3 && R.keys == 4 && R.offsets == 5 &&
              R.c == 5 && A.start == R.c && A.kind == 0 && A.label == A.start + 1 &&
              A.rep == SIZE_MAX && A.offsets == A.keys + 2 && A.c == A.offsets + 1 &&
              C.start == A.c && C.kind == RSC_LEAF_ACCEPT && C.rep == C.start + 1 &&
              C.accept == C.rep && C.head == SIZE_MAX && C.c == C.rep + 1 &&
              C.span_end == C.c && D.kind == RSC_LABEL_REF && D.rep == D.start + 1 &&
              D.label == SIZE_MAX && D.head == D.rep + 1 && D.slot == D.head + 1 &&
              C.span_end == D.start && D.span_end == R.span_end &&
              tt_wild_where(t).shape == R.span_end,
          "hand program layout");
    {
        /* The same bytes under two rules: the ranks 3 of ROOTS, OUTS and
         * EDGES are checked before the trie (ROOTS row 0 first). */
        bb x = {0};
        tt_encode(t, &x);
        const bb *ps[1] = {&x};
        b = progs_blob(&h2, ps, 1, &n, &data, NULL);
        tab rt = tab_at(b, data + tt_wild_where(t).tab[TT_ROOTS], 2);
        expect("Rule_Count 2: ROOTS Max 3", b, n, RSC_E_CORRUPT, cell(&rt, 0, 0));
        free(b);
        bb_free(&x);
    }
    trie_poke_o("root Label_Head 2 (a leaf of one Accept)", t, &ho, R.start, 2, 1,
                RSC_E_CORRUPT, R.start);
    trie_poke_o("root Label_Head 3 (a leaf of one End)", t, &ho, R.start, 3, 1, RSC_E_CORRUPT,
                R.start);
    trie_poke_o("root Label_Head 1 (Ref, length 0)", t, &ho, R.start, 1, 1, RSC_E_CORRUPT,
                R.start);
    trie_poke_o("root Label_Head 4 (inline, 1 byte)", t, &ho, R.start, 4, 1, RSC_E_CORRUPT,
                R.start);
    trie_poke_o("child label past its span", t, &ho, A.start, 100, 1, RSC_E_CORRUPT, A.start);
    trie_poke_o("Head Children 3 of 2", t, &ho, A.head, 3u << 5 | 3, 1, RSC_E_CORRUPT, ANY);
    trie_poke_o("Head Children 1 (Width 0, no Offsets): 'd' read from the Offset", t, &ho, A.head,
                1u << 5 | 3, 1, RSC_E_CORRUPT, ANY);
    trie_poke_o("Accept 0", t, &ho, A.accept, 0, 1, RSC_E_CORRUPT, A.accept);
    trie_poke_o("Accept 4 of 3", t, &ho, A.accept, 4, 1, RSC_E_CORRUPT, A.accept);
    trie_poke_o("Accept 3 of 3", t, &ho, A.accept, 3, 1, RSC_OK, 0);
    trie_poke_o("End 0", t, &ho, A.end, 0, 1, RSC_E_CORRUPT, A.end);
    trie_poke_o("End 4 of 3", t, &ho, A.end, 4, 1, RSC_E_CORRUPT, A.end);
    trie_poke_o("root Slot 2 of 2 slots", t, &ho, R.slot, 2, 1, RSC_E_CORRUPT, R.slot);
    trie_poke_o("root Slot 0x7f", t, &ho, R.slot, 0x7f, 1, RSC_E_CORRUPT, R.slot);
    trie_poke_o("root Slot 1 (the other slot: safe, not checked)", t, &ho, R.slot, 1, 1, RSC_OK,
                0);
    trie_poke_o("Slot of the last child 2 of 2", t, &ho, D.slot, 2, 1, RSC_E_CORRUPT, D.slot);
    trie_poke_o("Slot of the last child 0 (a slot twice: not checked)", t, &ho, D.slot, 0, 1,
                RSC_OK, 0);
    trie_poke_o("Slot of the last child cut (0x80 at the span's end)", t, &ho, D.slot, 0x80, 1,
                RSC_E_CORRUPT, D.slot);
    trie_poke_o("root Has_Root cleared: the Slot read as the key count's bytes", t, &ho, R.head,
                1u << 5, 1, RSC_E_CORRUPT, ANY);
    /* 'c', a leaf of one Accept: Label_Head 2, Rep 1 */
    trie_poke_o("leaf 'c': Rep 0", t, &ho, C.rep, 0, 1, RSC_E_CORRUPT, C.rep);
    trie_poke_o("leaf 'c': Rep 4 of 3", t, &ho, C.rep, 4, 1, RSC_E_CORRUPT, C.rep);
    trie_poke_o("leaf 'c': Rep 0x80 (cut at its span's end)", t, &ho, C.rep, 0x80, 1,
                RSC_E_CORRUPT, C.rep);
    trie_poke_o("leaf 'c': Rep 3 (a longer text: safe)", t, &ho, C.rep, 3, 1, RSC_OK, 0);
    trie_poke_o("leaf 'c': of one End (kind 3)", t, &ho, C.start, RSC_LEAF_END, 1, RSC_OK, 0);
    trie_poke_o("leaf 'c': a 1-byte label (rule 1's 5 bytes, from 4)", t, &ho, C.start,
                1 << 2 | RSC_LEAF_ACCEPT, 1, RSC_OK, 0);
    trie_poke_o("leaf 'c': a 2-byte label, past rule 1's text", t, &ho, C.start,
                2 << 2 | RSC_LEAF_ACCEPT, 1, RSC_E_CORRUPT, C.rep);
    trie_poke_o("leaf 'c': a 2-byte label, past rule 1's text (kind 3)", t, &ho, C.start,
                2 << 2 | RSC_LEAF_END, 1, RSC_E_CORRUPT, C.rep);
    trie_poke_o("leaf 'c' as kind 0: the Rep read as a Head, its Accept missing", t, &ho,
                C.start, RSC_LABEL_INLINE, 1, RSC_E_CORRUPT, C.span_end);
    trie_poke_o("leaf 'c' as a Ref of 0 bytes: the Rep's Head missing", t, &ho, C.start,
                RSC_LABEL_REF, 1, RSC_E_CORRUPT, C.span_end);
    trie_poke_o("Ref label: Rep 0", t, &ho, D.rep, 0, 1, RSC_E_CORRUPT, D.rep);
    trie_poke_o("Ref label: Rep 4 of 3", t, &ho, D.rep, 4, 1, RSC_E_CORRUPT, D.rep);
    trie_poke_o("Ref label: Rep 1 (5 bytes: 4 + 2 past it)", t, &ho, D.rep, 1, 1, RSC_E_CORRUPT,
                D.rep);
    trie_poke_o("Ref label: Rep 3 (other bytes, long enough: safe, not checked)", t, &ho, D.rep,
                3, 1, RSC_OK, 0);
    trie_poke_o("Ref label: 5 bytes of rank 2 from 4 (up to its end: no tail is read)", t, &ho,
                D.start, 5 << 2 | 1, 1, RSC_OK, 0);
    trie_poke_o("Ref label: 6 bytes of rank 2 from 4", t, &ho, D.start, 6 << 2 | 1, 1,
                RSC_E_CORRUPT, D.rep);
    /* Ref kind changed to inline: Rep and Head read as a 2-byte label, the
     * Slot (1) as a Head with Has_Accept and no room for the Accept; with
     * 3 bytes, no room for the Head. To a leaf of one Accept: Rep 2 holds
     * the label, but the node goes on after it. */
    trie_poke_o("Ref label as inline, 2 bytes: Accept missing", t, &ho, D.start, 2 << 2, 1,
                RSC_E_CORRUPT, D.span_end);
    trie_poke_o("Ref label as inline, 3 bytes: Head missing", t, &ho, D.start, 3 << 2, 1,
                RSC_E_CORRUPT, D.span_end);
    trie_poke_o("Ref label as a leaf of one Accept: Head and Slot after it", t, &ho, D.start,
                2 << 2 | RSC_LEAF_ACCEPT, 1, RSC_E_CORRUPT, D.head);
    trie_poke_o("Ref label as a leaf of one End: Head and Slot after it", t, &ho, D.start,
                2 << 2 | RSC_LEAF_END, 1, RSC_E_CORRUPT, D.head);
    trie_poke_o("keys equal", t, &ho, A.keys + 1, 'c', 1, RSC_E_CORRUPT, A.keys + 1);
    trie_poke_o("keys decreasing", t, &ho, A.keys + 1, 'b', 1, RSC_E_CORRUPT, A.keys + 1);
    trie_poke_o("keys 0x00 and 0xff", t, &ho, A.keys, 0, 1, RSC_OK, 0);
    trie_poke_o("keys 0xff", t, &ho, A.keys + 1, 0xff, 1, RSC_OK, 0);
    /* "/ab"'s one Offset: 'd' at C + Offsets[0]; 'c' at C */
    {
        bb x = {0};
        tt_encode(t, &x);
        CHECK(A.c + x.d[A.offsets] == D.start, "Offsets[0] is 'd''s");
        bb_free(&x);
    }
    trie_poke_o("the first Offset 0 ('d' at 'c')", t, &ho, A.offsets, 0, 1, RSC_E_CORRUPT,
                A.offsets);
    trie_poke_o("Offsets[0] at the span's end", t, &ho, A.offsets, (uint32_t)(A.span_end - A.c),
                1, RSC_E_CORRUPT, A.offsets);
    trie_poke_o("Offsets[0] 255", t, &ho, A.offsets, 255, 1, RSC_E_CORRUPT, A.offsets);
    trie_poke_o("Offsets[0] one long: leaf 'c' does not end its span", t, &ho, A.offsets,
                (uint32_t)(D.start - A.c + 1), 1, RSC_E_CORRUPT, C.c);
    trie_poke_o("Offsets[0] one short: leaf 'c' has no room for its Rep", t, &ho, A.offsets,
                (uint32_t)(D.start - A.c - 1), 1, RSC_E_CORRUPT, C.rep);
    trie_poke_o("inline label of the last child past its span", t, &ho, D.start, 12 << 2, 1,
                RSC_E_CORRUPT, D.start);
    trie_poke_o("Trie_Size one more: the root's span past its last child", t, &ho, 0,
                (uint32_t)R.span_end, 1, RSC_E_CORRUPT, ANY);
    trie_poke_o("Trie_Size one less", t, &ho, 0, (uint32_t)R.span_end - 2, 1, RSC_E_CORRUPT,
                ANY);
    {
        /* The same program with 'c' in its Head form (Label_Head 0, Head
         * Has_Accept, Accept 1): valid too (an encoder writes the leaf). */
        tt_leaf_kind(t, c, TT_LEAF_NEVER);
        trie_poke_o("hand program, 'c' with a Head", t, &ho, ANY, 0, 0, RSC_OK, 0);
        tt_pos C2 = tt_where(t, c);
        CHECK(C2.kind == 0 && C2.head == C2.start + 1 && C2.accept == C2.head + 1 &&
                  C2.span_end == C2.accept + 1 && tt_where(t, d).start == C2.span_end,
              "'c' with a Head: layout");
        trie_poke_o("leaf Head with Width", t, &ho, C2.head, 0x01 | 0x08, 1, RSC_E_CORRUPT,
                    C2.head);
        trie_poke_o("Has_Root set on 'c': its Slot past the span", t, &ho, C2.head, 0x05, 1,
                    RSC_E_CORRUPT, ANY);
        trie_poke_o("'c' Head with End instead of Accept", t, &ho, C2.head, 0x02, 1, RSC_OK, 0);
        trie_poke_o("'c' as a leaf of one Accept: the Head read as its Rep, then a byte", t, &ho,
                    C2.start, RSC_LEAF_ACCEPT, 1, RSC_E_CORRUPT, C2.accept);
        tt_leaf_kind(t, c, TT_LEAF_AUTO);
        trie_poke_o("hand program, 'c' a leaf again", t, &ho, ANY, 0, 0, RSC_OK, 0);
        CHECK(tt_where(t, c).kind == RSC_LEAF_ACCEPT, "'c' a leaf again");
    }
    {
        /* The rules' texts poked instead: no wildcard tail is read at load
         * (the automaton holds the segments), and a Ref label's bytes are
         * not checked: safe but wrong. */
        bb x = {0};
        tt_encode(t, &x);
        const bb *ps[1] = {&x};
        b = progs_blob(&ho, ps, 1, &n, &data, NULL);
        size_t s1 = sec(b, n, 1);
        CHECK(b[s1 + 5 + 6] == '*', "rank 2's '*' in STRINGS");
        b[s1 + 5 + 6] = 'x';
        tb_fix_checksum(b, n);
        expect("glob rule's '*' changed in STRINGS (not checked)", b, n, RSC_OK, 0);
        b[s1 + 5 + 6] = '*';
        b[s1 + 5 + 4] = 'E';
        tb_fix_checksum(b, n);
        expect("Ref label's bytes changed in STRINGS", b, n, RSC_OK, 0);
        free(b);
        bb_free(&x);
    }
    tt_free(t);

    /* Offsets of widths 1..4, and too wide a Width for the span. */
    for (unsigned w = 1; w <= 4; w++) {
        t = tt_new();
        tt_width(t, 0, w);
        for (int k = 0; k < 3; k++)
            tt_accept(t, tt_child(t, 0, (uint8_t)('a' + k), "", 0), 1);
        trie_poke("Offsets of width w", t, 1, ANY, 0, 0, RSC_OK, 0);
        tt_free(t);
    }

    /* One child: no Offsets, Width 0 whatever tt_width() asks; forced
     * (TT_WIDTH_ANY), a Width above 0 is rejected at the Head. */
    for (unsigned w = 1; w <= 4; w++) {
        t = tt_new();
        int s1 = tt_child(t, 0, '/', "", 0);
        tt_accept(t, tt_child(t, s1, 'a', "", 0), 1);
        tt_width(t, 0, w);
        tt_width(t, s1, w);
        trie_poke("one child, tt_width(w): Width 0", t, 1, ANY, 0, 0, RSC_OK, 0);
        tt_pos R1 = tt_where(t, 0), S1 = tt_where(t, s1);
        CHECK(R1.offsets == R1.c && S1.offsets == S1.c && R1.c == S1.start,
              "one child: no Offsets");
        tt_width(t, s1, w | TT_WIDTH_ANY);
        trie_poke("one child, Width w - 1 forced", t, 1, ANY, 0, 0,
                  w > 1 ? RSC_E_CORRUPT : RSC_OK, w > 1 ? S1.head : 0);
        tt_free(t);
    }

    /* 256 children: the most there can be. */
    t = tt_new();
    for (int k = 0; k < 256; k++)
        tt_accept(t, tt_child(t, 0, (uint8_t)k, "", 0), (uint32_t)k + 1);
    trie_poke("256 children", t, 256, ANY, 0, 0, RSC_OK, 0);
    R = tt_where(t, 0);
    CHECK(R.start == 2 && R.head == R.start + 1 && R.keys == R.start + 3,
          "256 children: Head of 2 bytes (and a Trie_Size of 2)");
    trie_poke("256 children, keys 254 254", t, 256, R.keys + 255, 254, 1, RSC_E_CORRUPT,
              R.keys + 255);
    trie_poke("256 children, a rank 257", t, 256, tt_where(t, 256).accept, 0x81, 1,
              RSC_E_CORRUPT, tt_where(t, 256).accept);
    tt_free(t);

    /* Chains: RSC_MAX_DEPTH nodes (root included) accepted, one more
     * rejected where that node starts; the count is in nodes, not bytes. */
    for (int extra = 0; extra < 2; extra++)
        for (int label = 0; label < 3; label++) {
            /* label 2: each label by Rep into one rule of 3 * (max + 1) '*'s */
            static char *longp;
            const char *lp[1];
            if (!longp) {
                longp = malloc(3 * (RSC_MAX_DEPTH + 1) + 1);
                memset(longp, '*', 3 * (RSC_MAX_DEPTH + 1));
                longp[3 * (RSC_MAX_DEPTH + 1)] = 0;
            }
            lp[0] = longp;
            pbo lo = {1, label == 2 ? lp : NULL, NULL};
            t = tt_new();
            int node = 0;
            for (int i = 1; i < (int)RSC_MAX_DEPTH + extra; i++)
                node = label == 2 ? tt_child_ref(t, node, 'a', 1, 2)
                                  : tt_child(t, node, 'a', "bc", label ? 2 : 0);
            tt_accept(t, node, 1);
            bb x = {0};
            tt_encode(t, &x);
            const bb *ps[1] = {&x};
            b = progs_blob(&lo, ps, 1, &n, &data, NULL);
            expect(extra ? "chain of RSC_MAX_DEPTH + 1 nodes" : "chain of RSC_MAX_DEPTH nodes", b, n,
                   extra ? RSC_E_CORRUPT : RSC_OK,
                   extra ? data + tt_where(t, (int)RSC_MAX_DEPTH).start : 0);
            free(b);
            bb_free(&x);
            tt_free(t);
            if (extra && label == 2)
                free(longp), longp = NULL;
        }
    /* The long chain as the second child of the root, after a sibling: the
     * frames of the first subtree are popped first. */
    for (int extra = 0; extra < 2; extra++) {
        t = tt_new();
        int first = tt_child(t, 0, 'a', "", 0);
        tt_accept(t, tt_child(t, first, 'b', "", 0), 1);
        int node = tt_child(t, 0, 'b', "", 0);
        for (int i = 2; i < (int)RSC_MAX_DEPTH + extra; i++)
            node = tt_child(t, node, 'a', "", 0);
        tt_accept(t, node, 1);
        bb x = {0};
        tt_encode(t, &x);
        const bb *ps[1] = {&x};
        b = progs_blob(&one, ps, 1, &n, &data, NULL);
        expect("chain as the second child", b, n, extra ? RSC_E_CORRUPT : RSC_OK,
               extra ? data + tt_where(t, (int)tt_count(t) - 1).start : 0);
        free(b);
        bb_free(&x);
        tt_free(t);
    }
    /* Many programs: each verified in its own span. */
    {
        bb p1 = {0}, p2 = {0};
        static const uint8_t ok[] = {0x03, 0x00, 0x01, 0x01, 0, 0, 0, 0, 0},
                             bad[] = {0x03, 0x00, 0x01, 0x02, 0, 0, 0, 0, 0};
        bb_raw(&p1, ok, 9), bb_raw(&p2, bad, 9);
        const bb *ps[3] = {&p1, &p1, &p2};
        b = progs_blob(&one, ps, 3, &n, &data, NULL);
        expect("third program's Accept out of range", b, n, RSC_E_CORRUPT, data + 18 + 3);
        free(b);
        bb_free(&p1), bb_free(&p2);
    }
}

/* ---- rule 10: the wildcard part of a program --------------------------- */

/* The columns of table k of *w (STATES: 7 with Labels). */
#define wcols(w, k) tt_cols((w)->shape, (k))

static void wild_copy(tt_wild *dst, const tt_wild *src)
{
    dst->shape = src->shape;
    for (int k = 0; k < 4; k++) {
        dst->n[k] = src->n[k];
        dst->rows[k] = malloc((src->n[k] + 1) * wcols(src, k) * sizeof(uint32_t));
        memcpy(dst->rows[k], src->rows[k], src->n[k] * wcols(src, k) * sizeof(uint32_t));
    }
}

/* Appends a row of zeros to table k. */
static uint32_t *wild_row(tt_wild *w, int k)
{
    w->rows[k] = realloc(w->rows[k], (w->n[k] + 1) * wcols(w, k) * sizeof(uint32_t));
    memset(w->rows[k] + w->n[k] * wcols(w, k), 0, wcols(w, k) * sizeof(uint32_t));
    return w->rows[k] + w->n[k]++ * wcols(w, k);
}

/* Where a failure is expected: nowhere (RSC_OK), Shape, row r of table k,
 * table k's Count, a node's Slot. */
enum { AT_OK, AT_SHAPE, AT_ROW, AT_ROWS, AT_TAB, AT_SLOT, AT_ANY };
typedef struct wat {
    int kind, k;
    uint32_t r;
} wat;
#define W_OK ((wat){AT_OK, 0, 0})
#define W_SHAPE ((wat){AT_SHAPE, 0, 0})
#define W_ROW(k, r) ((wat){AT_ROW, TT_##k, (r)})
#define W_SLOT(node) ((wat){AT_SLOT, (node), 0})
#define W_ROWS(k) ((wat){AT_ROWS, TT_##k, 0}) /* where its rows are (or would be) */

/* The program t with the wildcard tables *w (its nodes' Slots those of
 * tt_slot), in a blob of o's rules: rejected with RSC_E_CORRUPT where `at`
 * says, or loaded (and then used: matching it is safe). minw: least
 * column width. */
static void wild_case(const char *name, tt *t, const pbo *o, const tt_wild *w, unsigned minw,
                      wat at)
{
    bb x = {0};
    size_t n, data, off = 0;
    tt_wild_set(t, w);
    tt_min_width(t, minw);
    pbo_texts(t, o);
    tt_encode(t, &x);
    const bb *ps[1] = {&x};
    uint8_t *b = progs_blob(o, ps, 1, &n, &data, NULL);
    tt_wpos wp = tt_wild_where(t);
    if (at.kind == AT_SHAPE)
        off = data + wp.shape;
    else if (at.kind == AT_TAB)
        off = data + wp.tab[at.k];
    else if (at.kind == AT_ROW) {
        tab tb = tab_at(b, data + wp.tab[at.k], wcols(w, at.k));
        off = cell(&tb, at.r, 0);
    } else if (at.kind == AT_ROWS) {
        tab tb = tab_at(b, data + wp.tab[at.k], wcols(w, at.k));
        off = tb.rows;
    } else if (at.kind == AT_SLOT)
        off = data + tt_where(t, at.k).slot;
    expect(name, b, n, at.kind == AT_OK ? RSC_OK : RSC_E_CORRUPT, at.kind == AT_ANY ? ANY : off);
    if (at.kind == AT_OK)
        CHECK(load_and_use(b, n), "%s: used", name);
    free(b);
    bb_free(&x);
}

/* One case of a hand program: the tables of src copied into w, changed by
 * the statements given, then loaded with host's blob around them. */
#define WILD_CASE(src, host, name, at, ...)                                   \
    do {                                                                      \
        wild_copy(&w, &(src));                                                \
        __VA_ARGS__;                                                          \
        wild_case(name, t, &(host), &w, 0, at);                               \
        tt_wild_free(&w);                                                     \
    } while (0)

static void test_wild(void)
{
    /* The hand program of test_programs, its tables as the builder makes
     * them: slots 0 (root: "*xxxxxxxx" 3, "*y*z$" 1) and 1 ('d': "*g$"
     * 2), internal node 0 ("y" seen); OUTS g, y, z, xxxxxxxx; EDGES
     * (1, g$, 2), (0, y -> 0), (2, z$, 1), (0, xxxxxxxx, 3); 12 states. */
    static const char *const hp[] = {"*y*z$", "/abdef*g$", "*xxxxxxxx"};
    pbo ho = {3, hp, NULL};
    tt *t = tt_new();
    tt_glob(t, 0, 3);
    tt_glob(t, 0, 1);
    int a = tt_child(t, 0, '/', "ab", 2);
    tt_accept(t, a, 2);
    tt_end(t, a, 3);
    tt_accept(t, tt_child(t, a, 'c', "", 0), 1);
    int d = tt_child_ref(t, a, 'd', 2, 2);
    tt_glob(t, d, 2);
    tt_texts(t, hp, 3);
    tt_wild w0, w;
    tt_wild_build(t, &w0);
    tt_slot(t, 0, 0);
    tt_slot(t, d, 1);
    static const uint32_t outs[] = {1, 0, 2, 0, 0, 1, 1, 0, 1, 1, 1, 0,
                                    1, 0, 1, 2, 0, 1, 8, 0, 3, 3, 1, 0};
    static const uint32_t edges[] = {1, 2, 0, 2, 0, 0, 1, 1, 2, 1, 0, 1, 0, 3, 0, 3};
    CHECK(w0.shape == TT_SHAPE(1, 0, 0) && w0.n[TT_ROOTS] == 2 && w0.n[TT_OUTS] == 4 && w0.n[TT_STATES] == 12 &&
              w0.n[TT_EDGES] == 4 && memcmp(w0.rows[TT_OUTS], outs, sizeof outs) == 0 &&
              memcmp(w0.rows[TT_EDGES], edges, sizeof edges) == 0,
          "hand program: the builder's tables");
#define CASE(name, at, ...) WILD_CASE(w0, ho, name, at, __VA_ARGS__)
#define R(k, r, c) w.rows[TT_##k][(r) * wcols(&w, TT_##k) + (c)]
    CASE("as built", W_OK, (void)0);
    for (unsigned mw = 2; mw <= 4; mw++) {
        wild_copy(&w, &w0);
        wild_case("as built, columns 2..4 bytes wide", t, &ho, &w, mw, W_OK);
        tt_wild_free(&w);
    }
    /* Shape */
    CASE("N_Internal 0: an edge's Target 1", W_ROW(EDGES, 1), w.shape = 0);
    CASE("N_Internal 2", W_OK, w.shape = TT_SHAPE(2, 0, 0));
    CASE("N_Internal 512", W_OK, w.shape = TT_SHAPE(512, 0, 0));
    CASE("N_Internal 513", W_SHAPE, w.shape = TT_SHAPE(513, 0, 0));
    CASE("Chain set: two ROOTS rows", W_SHAPE, w.shape |= 1);
    /* ROOTS */
    CASE("ROOTS Level 16", W_ROW(ROOTS, 1), R(ROOTS, 1, 0) = 16);
    CASE("ROOTS Level 15 (not checked against the trie)", W_OK, R(ROOTS, 1, 0) = 15);
    CASE("ROOTS Level 2^32-1", W_ROW(ROOTS, 0), R(ROOTS, 0, 0) = 0xffffffffu);
    CASE("ROOTS Max 4 of 3", W_ROW(ROOTS, 0), R(ROOTS, 0, 1) = 4);
    CASE("ROOTS Max 0 (not checked: the slot never decides)", W_OK, R(ROOTS, 0, 1) = 0);
    CASE("ROOTS: a third row, never named (not checked)", W_OK, wild_row(&w, TT_ROOTS));
    /* (N_Internal raised so that the EDGES Parents stay below ROOTS Count
     * + N_Internal: the Slots are checked last, with the trie) */
    CASE("ROOTS: one row, the Slot 1 of 'd' past it", W_SLOT(d), w.n[TT_ROOTS] = 1,
         w.shape = TT_SHAPE(2, 0, 0));
    CASE("ROOTS empty, the other tables not", W_ROWS(ROOTS), w.n[TT_ROOTS] = 0,
         w.shape = TT_SHAPE(3, 0, 0));
    CASE("ROOTS empty, only OUTS", W_ROWS(ROOTS), w.n[TT_ROOTS] = 0, w.n[TT_STATES] = 0,
         w.n[TT_EDGES] = 0, R(OUTS, 0, 3) = R(OUTS, 0, 4) = R(OUTS, 0, 5) = 0,
         w.n[TT_OUTS] = 1);
    CASE("ROOTS empty, only STATES", W_ROWS(ROOTS), w.n[TT_ROOTS] = 0, w.n[TT_OUTS] = 0,
         w.n[TT_EDGES] = 0, w.n[TT_STATES] = 1, R(STATES, 0, 1) = R(STATES, 0, 2) = 0);
    CASE("ROOTS empty, only EDGES", W_ROWS(ROOTS), w.n[TT_ROOTS] = 0, w.n[TT_OUTS] = 0,
         w.n[TT_STATES] = 0, w.shape = TT_SHAPE(3, 0, 0));
    CASE("STATES empty under two ROOTS rows", W_ROW(ROOTS, 0), w.n[TT_STATES] = 0);
    CASE("STATES one row (the root) under ROOTS", W_ROW(STATES, 0), w.n[TT_STATES] = 1);
    /* OUTS */
    CASE("OUTS Len 0", W_ROW(OUTS, 2), R(OUTS, 2, 0) = 0);
    CASE("OUTS Len 2^32-1 (longer than the path: never fires)", W_OK,
         R(OUTS, 3, 0) = 0xffffffffu);
    CASE("OUTS Next to its own row", W_ROW(OUTS, 1), R(OUTS, 1, 1) = 2);
    CASE("OUTS Next to a later row", W_ROW(OUTS, 0), R(OUTS, 0, 1) = 4);
    CASE("OUTS Next to the row before, no suffix (not checked)", W_OK, R(OUTS, 3, 1) = 3);
    CASE("OUTS Max 4 of 3", W_ROW(OUTS, 3), R(OUTS, 3, 2) = 4);
    CASE("OUTS Max 0 (not checked: the row is skipped)", W_OK, R(OUTS, 3, 2) = 0);
    CASE("OUTS Edge 4 of 4, one floating", W_ROW(OUTS, 3), R(OUTS, 3, 3) = 4);
    CASE("OUTS Edge 3, N_Float 2", W_ROW(OUTS, 3), R(OUTS, 3, 4) = 2);
    CASE("OUTS Edge 0, N_Float 3, N_Anch 2", W_ROW(OUTS, 0), R(OUTS, 0, 4) = 3,
         R(OUTS, 0, 5) = 2);
    CASE("OUTS Edge 0, N_Float 3, N_Anch 1: up to EDGES' end (not checked further)", W_OK,
         R(OUTS, 0, 4) = 3);
    CASE("OUTS Edge 2^32-1 (no wrap)", W_ROW(OUTS, 1), R(OUTS, 1, 3) = 0xffffffffu);
    CASE("OUTS N_Float 2^32-1 (no wrap)", W_ROW(OUTS, 1), R(OUTS, 1, 4) = 0xffffffffu);
    CASE("OUTS N_Anch 2^32-1 (no wrap)", W_ROW(OUTS, 2), R(OUTS, 2, 5) = 0xffffffffu);
    CASE("OUTS Edge 4, no edges", W_OK, R(OUTS, 3, 3) = 4, R(OUTS, 3, 4) = 0);
    /* STATES */
    CASE("STATES First + N past the table", W_ROW(STATES, 0), R(STATES, 0, 1) = 11);
    CASE("STATES First at the end, N 0", W_OK, R(STATES, 5, 1) = 12, R(STATES, 5, 2) = 0);
    CASE("STATES First 2^32-1, N 1 (no wrap)", W_ROW(STATES, 3), R(STATES, 3, 1) = 0xffffffffu,
         R(STATES, 3, 2) = 1);
    CASE("STATES N 2^32-1", W_ROW(STATES, 3), R(STATES, 3, 2) = 0xffffffffu);
    CASE("STATES Fail 12 of 12", W_ROW(STATES, 7), R(STATES, 7, 3) = 12);
    CASE("STATES Fail 11 (deeper: not checked)", W_OK, R(STATES, 7, 3) = 11);
    CASE("STATES Fail to itself (not checked)", W_OK, R(STATES, 9, 3) = 9);
    CASE("STATES Out 5 of 4", W_ROW(STATES, 2), R(STATES, 2, 4) = 5);
    CASE("STATES Out 4 on the root (not checked)", W_OK, R(STATES, 0, 4) = 4);
    CASE("STATES keys unsorted (not checked)", W_OK, R(STATES, 1, 0) = 'z');
    CASE("STATES: a row more, unreachable", W_OK, wild_row(&w, TT_STATES));
    /* EDGES */
    CASE("EDGES Parent 3 of 2 slots + 1 internal", W_ROW(EDGES, 2), R(EDGES, 2, 0) = 3);
    CASE("EDGES Parent 2^32-1", W_ROW(EDGES, 0), R(EDGES, 0, 0) = 0xffffffffu);
    CASE("EDGES Parent the internal node (a cycle through it: not checked)", W_OK,
         R(EDGES, 1, 0) = 2);
    CASE("EDGES Rank 4 of 3", W_ROW(EDGES, 3), R(EDGES, 3, 1) = 4);
    CASE("EDGES Max 4 of 3", W_ROW(EDGES, 3), R(EDGES, 3, 3) = 4);
    CASE("EDGES Target 2 of 1", W_ROW(EDGES, 1), R(EDGES, 1, 2) = 2);
    CASE("EDGES Target on an anchored edge (not checked)", W_OK, R(EDGES, 0, 2) = 1);
    CASE("EDGES Max below Rank (not checked)", W_OK, R(EDGES, 3, 3) = 1);
    CASE("EDGES: the first row reported", W_ROW(EDGES, 0), R(EDGES, 0, 1) = 9,
         R(EDGES, 3, 1) = 9);
    CASE("an OUTS row before a STATES row before an EDGES row", W_ROW(OUTS, 3),
         R(OUTS, 3, 0) = 0, R(STATES, 0, 3) = 99, R(EDGES, 0, 0) = 99);
    CASE("a ROOTS row before a bad Slot", W_ROW(ROOTS, 1), R(ROOTS, 1, 0) = 16,
         w.n[TT_ROOTS] = 2, tt_slot(t, d, 5));
    tt_slot(t, d, 1);
    tt_wild_free(&w0);
    tt_free(t);

    /* Root slots on 16 levels (0..15) of one chain; a 17th is over
     * RSC_MAX_LEVELS: the builder gives it level 16, rejected. */
    for (int extra = 0; extra < 2; extra++) {
        static char tx17[17][24];
        const char *tp[17];
        t = tt_new();
        int node = 0;
        for (int i = 0; i < 16 + extra; i++) {
            snprintf(tx17[i], sizeof tx17[i], "%.*s*q", i, "/abcdefghijklmnop");
            tp[i] = tx17[i];
            if (i)
                node = tt_child(t, node, (uint8_t)"/abcdefghijklmnop"[i - 1], "", 0);
            tt_glob(t, node, (uint32_t)i + 1);
        }
        pbo lo = {(uint32_t)(16 + extra), tp, NULL};
        trie_poke_o(extra ? "17 levels of root slots" : "16 levels of root slots", t, &lo, ANY, 0,
                    0, extra ? RSC_E_CORRUPT : RSC_OK, ANY);
        tt_free(t);
    }

    /* STATES: N 256 and 257 (First + N inside a table of 300 rows), under
     * a root slot. */
    for (uint32_t nk = 256; nk <= 257; nk++) {
        memset(&w, 0, sizeof w);
        for (int k = 0; k < 300; k++)
            wild_row(&w, TT_STATES);
        w.rows[TT_STATES][1] = 1, w.rows[TT_STATES][2] = nk;
        wild_row(&w, TT_ROOTS);
        t = tt_new();
        tt_slot(t, 0, 0);
        pbo one = {1, NULL, NULL};
        wild_case(nk == 256 ? "STATES N 256" : "STATES N 257", t, &one, &w, 0,
                  nk == 256 ? W_OK : W_ROW(STATES, 0));
        tt_free(t);
        tt_wild_free(&w);
    }

    /* Chains (Shape bit 0): rule 1 "*ab*c": one ROOTS row; OUTS "ab",
     * "c"; two lines of states; EDGES (slot -> 0), (0, rank 1). */
    static const uint32_t c_roots[] = {0, 1}, c_outs[] = {2, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0},
                          c_states[] = {0, 1, 1, 0, 0, 'a', 2, 1, 0, 0, 'b', 0, 0, 0, 1,
                                        0, 4, 1, 3, 0, 'c', 0, 0, 3, 2},
                          c_edges[] = {0, 0, 1, 1, 1, 1, 0, 1};
    tt_wild c0 = {TT_SHAPE(1, 0, 1), {1, 2, 5, 2},
                  {(uint32_t *)c_roots, (uint32_t *)c_outs, (uint32_t *)c_states,
                   (uint32_t *)c_edges}};
    static const char *const cp[] = {"*ab*c"};
    pbo co = {1, cp, NULL};
    t = tt_new();
    tt_slot(t, 0, 0);
#undef CASE
#define CASE(name, at, ...) WILD_CASE(c0, co, name, at, __VA_ARGS__)
    CASE("chain \"*ab*c\"", W_OK, (void)0);
    {
        /* it matches as the rule says */
        bb x = {0};
        size_t n, data;
        wild_copy(&w, &c0);
        tt_wild_set(t, &w);
        tt_wild_free(&w);
        tt_min_width(t, 0);
        tt_encode(t, &x);
        const bb *ps[1] = {&x};
        uint8_t *b = progs_blob(&co, ps, 1, &n, &data, NULL);
        rsc_program p;
        rsc_selection s;
        rsc_bytes ag = {"x", 1};
        CHECK(rsc_load(&p, b, n, NULL) == RSC_OK && rsc_select(&p, &ag, 1, &s) == RSC_OK &&
                  rsc_match_path(&s, "xabxc", 5, NULL) == 0 &&
                  rsc_match_path(&s, "abc", 3, NULL) == 0 &&
                  rsc_match_path(&s, "acb", 3, NULL) == 1 &&
                  rsc_match_path(&s, "aabab", 5, NULL) == 1,
              "chain \"*ab*c\" matches");
        free(b);
        bb_free(&x);
    }
    CASE("chain: N_Internal 600 (no budget for a chain)", W_OK, w.shape = TT_SHAPE(600, 0, 1));
    CASE("chain: N_Internal 0, Target 1", W_ROW(EDGES, 0), w.shape = 1);
    CASE("chain: two ROOTS rows", W_SHAPE, wild_row(&w, TT_ROOTS));
    CASE("chain: an EDGES row more than OUTS", W_SHAPE, wild_row(&w, TT_EDGES));
    CASE("chain: a STATES row more than its lines", W_SHAPE, wild_row(&w, TT_STATES));
    CASE("chain: OUTS Len 2 where the line has 1 + 1 states", W_SHAPE, R(OUTS, 1, 0) = 2);
    CASE("chain: OUTS Len 1 and 2 (the same sum: not checked)", W_OK, R(OUTS, 0, 0) = 1,
         R(OUTS, 1, 0) = 2);
    CASE("chain: Fail into the other line, and to itself (not checked)", W_OK,
         R(STATES, 2, 3) = 4, R(STATES, 4, 3) = 4, R(STATES, 1, 3) = 2);
    CASE("chain: the last segment anchored", W_OK, R(OUTS, 1, 4) = 0, R(OUTS, 1, 5) = 1);
    CASE("chain: no segment", W_SHAPE, w.n[TT_OUTS] = 0, w.n[TT_EDGES] = 0, w.n[TT_STATES] = 1,
         R(STATES, 0, 1) = 0, R(STATES, 0, 2) = 0);
#undef CASE
#undef R
    tt_free(t);
}

/* ---- rule 10: labels ---------------------------------------------------- */

/* A copy of *src with Labels set and two zero columns added to STATES. */
static void wild_labelled(tt_wild *dst, const tt_wild *src)
{
    wild_copy(dst, src);
    dst->shape |= TT_SHAPE_LABELS;
    free(dst->rows[TT_STATES]);
    dst->rows[TT_STATES] = calloc(src->n[TT_STATES] + 1, TT_STATES_COLS_LAB * sizeof(uint32_t));
    for (size_t r = 0; r < src->n[TT_STATES]; r++)
        memcpy(dst->rows[TT_STATES] + r * TT_STATES_COLS_LAB, src->rows[TT_STATES] + r * 5,
               5 * sizeof(uint32_t));
}

/* The program t (wildcard tables *w) with its Shape byte changed to
 * shape (one byte: the same length), checksum fixed: rejected anywhere. */
static void shape_poke(const char *name, tt *t, const pbo *o, const tt_wild *w, uint8_t shape)
{
    bb x = {0};
    size_t n, data;
    tt_wild_set(t, w);
    tt_min_width(t, 0);
    pbo_texts(t, o);
    tt_encode(t, &x);
    const bb *ps[1] = {&x};
    uint8_t *b = progs_blob(o, ps, 1, &n, &data, NULL);
    size_t at = data + tt_wild_where(t).shape;
    CHECK(b[at] == w->shape && w->shape < 0x80, "%s: the Shape byte", name);
    b[at] = shape;
    tb_fix_checksum(b, n);
    expect(name, b, n, RSC_E_CORRUPT, ANY);
    free(b);
    bb_free(&x);
}

/* Rule 10 on labels (FORMAT.md, Labels): STATES of 7 columns with Labels;
 * Lab_Off + Lab_Len <= the size of STRINGS in every row (one byte past
 * rejected, up to the end accepted, no wrap); Labels 0 in a chain; what is
 * not checked (label bytes, a label on the root) accepted and safe. */
static void test_labels(void)
{
    /* Rules 1 "*abcd" (STRINGS @0), 2 "/x*efgh$" (@5): 13 bytes of
     * STRINGS. Root slot 0 (rule 1), "/x" slot 1 (rule 2); states "", 'a'
     * + "bcd" (@2), 'e' + "fgh" (@9). */
    static const char *const lp[] = {"*abcd", "/x*efgh$"};
    static const uint32_t lab_off[] = {0, 5};
    pbo lo = {2, lp, NULL};
    tt *t = tt_new();
    tt_glob(t, 0, 1);
    int x = tt_child(t, 0, '/', "x", 1);
    tt_glob(t, x, 2);
    tt_texts(t, lp, 2);
    tt_strings(t, lab_off, 2);
    tt_labels(t, TT_LABELS_ALL);
    tt_wild w0, w;
    tt_wild_build(t, &w0);
    tt_slot(t, 0, 0);
    tt_slot(t, x, 1);
    static const uint32_t states[] = {0,   1, 2, 0, 0, 0, 0, 'a', 0, 0, 0, 1, 2, 3,
                                      'e', 0, 0, 0, 2, 9, 3};
    CHECK(w0.shape == TT_SHAPE(0, 1, 0) && w0.n[TT_STATES] == 3 &&
              memcmp(w0.rows[TT_STATES], states, sizeof states) == 0,
          "labelled program: the builder's STATES");
#define CASE(name, at, ...) WILD_CASE(w0, lo, name, at, __VA_ARGS__)
#define R(k, r, c) w.rows[TT_##k][(r) * wcols(&w, TT_##k) + (c)]
    CASE("labels as built", W_OK, (void)0);
    for (unsigned mw = 2; mw <= 4; mw++) {
        wild_copy(&w, &w0);
        wild_case("labels as built, columns 2..4 bytes wide", t, &lo, &w, mw, W_OK);
        tt_wild_free(&w);
    }
    {
        /* it matches as the rules say */
        bb b0 = {0};
        size_t n, data;
        tt_wild_set(t, &w0);
        tt_min_width(t, 0);
        pbo_texts(t, &lo);
        tt_encode(t, &b0);
        const bb *ps[1] = {&b0};
        uint8_t *b = progs_blob(&lo, ps, 1, &n, &data, NULL);
        rsc_program p;
        rsc_selection s;
        rsc_bytes ag = {"x", 1};
        CHECK(rsc_load(&p, b, n, NULL) == RSC_OK && rsc_select(&p, &ag, 1, &s) == RSC_OK &&
                  rsc_match_path(&s, "/abcd", 5, NULL) == 0 &&
                  rsc_match_path(&s, "/abc", 4, NULL) == 1 &&
                  rsc_match_path(&s, "/xyefgh", 7, NULL) == 0 &&
                  rsc_match_path(&s, "/xefghy", 7, NULL) == 1 &&
                  rsc_match_path(&s, "/yefgh", 6, NULL) == 1,
              "labelled program matches");
        free(b);
        bb_free(&b0);
    }
    /* Lab_Off + Lab_Len against the 13 bytes of STRINGS, each row */
    CASE("label up to STRINGS' end", W_OK, R(STATES, 2, 5) = 10);
    CASE("label one byte past STRINGS", W_ROW(STATES, 2), R(STATES, 2, 5) = 11);
    CASE("label of row 1 one byte past STRINGS", W_ROW(STATES, 1), R(STATES, 1, 5) = 11);
    CASE("label: all of STRINGS", W_OK, R(STATES, 1, 5) = 0, R(STATES, 1, 6) = 13);
    CASE("label: 14 bytes of 13", W_ROW(STATES, 1), R(STATES, 1, 5) = 0, R(STATES, 1, 6) = 14);
    CASE("label: Lab_Off 13, Lab_Len 0", W_OK, R(STATES, 1, 5) = 13, R(STATES, 1, 6) = 0);
    CASE("label: Lab_Off 14, Lab_Len 0", W_ROW(STATES, 1), R(STATES, 1, 5) = 14,
         R(STATES, 1, 6) = 0);
    CASE("label: Lab_Off 2^32-1, Lab_Len 1 (no wrap)", W_ROW(STATES, 2),
         R(STATES, 2, 5) = 0xffffffffu, R(STATES, 2, 6) = 1);
    CASE("label: Lab_Off 1, Lab_Len 2^32-1 (no wrap)", W_ROW(STATES, 2), R(STATES, 2, 5) = 1,
         R(STATES, 2, 6) = 0xffffffffu);
    CASE("label: Lab_Off and Lab_Len 2^31 (no wrap)", W_ROW(STATES, 1),
         R(STATES, 1, 5) = 0x80000000u, R(STATES, 1, 6) = 0x80000000u);
    CASE("label on the root past STRINGS", W_ROW(STATES, 0), R(STATES, 0, 5) = 12,
         R(STATES, 0, 6) = 2);
    CASE("label: the first row reported", W_ROW(STATES, 1), R(STATES, 1, 6) = 99,
         R(STATES, 2, 6) = 99);
    CASE("a bad Fail before a bad label in a later row", W_ROW(STATES, 1), R(STATES, 1, 3) = 3,
         R(STATES, 2, 6) = 99);
    CASE("STATES before EDGES: a bad label, then a bad Parent", W_ROW(STATES, 2),
         R(STATES, 2, 6) = 99, R(EDGES, 0, 0) = 9);
    CASE("an OUTS row before a bad label", W_ROW(OUTS, 1), R(OUTS, 1, 0) = 0,
         R(STATES, 1, 6) = 99);
    /* not checked: safe, maybe wrong */
    CASE("label bytes other than the segment's (not checked)", W_OK, R(STATES, 1, 5) = 7);
    CASE("a label on the root (not checked)", W_OK, R(STATES, 0, 5) = 1, R(STATES, 0, 6) = 4);
    CASE("the root as a labelled state's child (not checked)", W_OK, R(STATES, 1, 1) = 0,
         R(STATES, 1, 2) = 1, R(STATES, 0, 6) = 3);
    CASE("labels of 0 bytes everywhere", W_OK, R(STATES, 1, 6) = 0, R(STATES, 2, 6) = 0);
    CASE("Labels with N_Internal 512", W_OK, w.shape = TT_SHAPE(512, 1, 0));
    CASE("Labels with N_Internal 513", W_SHAPE, w.shape = TT_SHAPE(513, 1, 0));
    /* Shape and the STATES columns disagreeing: the Tables no longer end
     * where the program does */
    shape_poke("Labels cleared: 7 columns read as 5", t, &lo, &w0,
               (uint8_t)(w0.shape & ~TT_SHAPE_LABELS));
    {
        tt_labels(t, 0);
        tt_wild w5;
        tt_wild_build(t, &w5);
        shape_poke("Labels set: 5 columns read as 7", t, &lo, &w5,
                   (uint8_t)(w5.shape | TT_SHAPE_LABELS));
        tt_wild_free(&w5);
    }
#undef CASE
    tt_wild_free(&w0);
    tt_free(t);

    /* Raw: rule 1 is "*" (one byte of STRINGS); "*ab" with Labels: the
     * states "" and 'a' + a label of Lab_Len bytes at Lab_Off; row 1 of
     * STATES at 28 (widths packed: 0x00 0x00 for 7 columns of width 1). */
#define STAR_AB_LAB(lab_off, lab_len)                                         \
    0x03, 0x00, 0x04, 0x00,                          /* Trie_Size 3: root, Slot 0 */ \
        0x02,                                        /* Shape: Labels             */ \
        0x01, 0x00, 0x00, 0x01,                      /* ROOTS: level 0, Max 1     */ \
        0x01, 0x00, 0x00, 0x02, 0, 1, 0, 1, 0,       /* OUTS: "ab": Len 2, Edge 0 */ \
        0x02, 0x00, 0x00, 0, 1, 1, 0, 0, 0, 0,       /* STATES: "",               */ \
        'a', 0, 0, 0, 1, (lab_off), (lab_len),       /*   'a' + label             */ \
        0x01, 0x00, 0, 1, 0, 1,                      /* EDGES: slot 0, rank 1     */ \
        0, 0, 0                                      /* Pad                       */
    WHOLE("\"*ab\" with Labels", 1, RSC_OK, 0, STAR_AB_LAB(0, 1));
    WHOLE("\"*ab\" with Labels, Lab_Off 1, Lab_Len 0", 1, RSC_OK, 0, STAR_AB_LAB(1, 0));
    WHOLE("\"*ab\" with Labels, Lab_Off 1, Lab_Len 1", 1, RSC_E_CORRUPT, 28, STAR_AB_LAB(1, 1));
    WHOLE("\"*ab\" with Labels, Lab_Off 0, Lab_Len 2", 1, RSC_E_CORRUPT, 28, STAR_AB_LAB(0, 2));
    WHOLE("\"*ab\" with Labels, Lab_Off 2, Lab_Len 0", 1, RSC_E_CORRUPT, 28, STAR_AB_LAB(2, 0));
    WHOLE("\"*ab\" with Labels, Lab_Off 255, Lab_Len 255", 1, RSC_E_CORRUPT, 28,
          STAR_AB_LAB(255, 255));
    WHOLE("\"*ab\": Labels cleared, 7 columns", 1, RSC_E_CORRUPT, ANY, 0x03, 0x00, 0x04, 0x00,
          0x00, 0x01, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x02, 0, 1, 0, 1, 0, 0x02, 0x00, 0x00,
          0, 1, 1, 0, 0, 0, 0, 'a', 0, 0, 0, 1, 0, 1, 0x01, 0x00, 0, 1, 0, 1, 0, 0, 0);
    {
        /* No STRINGS section: its size is 0, so is every label's end. */
        static const uint8_t progs[][3] = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
        for (int k = 0; k < 3; k++) {
            const uint8_t prog[] = {STAR_AB_LAB(progs[k][0], progs[k][1])};
            bb rules = {0}, pr = {0}, agents = {0};
            uint32_t v[3] = {1u << 1, 0, 0}; /* the empty pattern */
            tb_table(&rules, 1, 3, v, NULL);
            v[0] = sizeof prog;
            tb_table(&pr, 1, 1, v, NULL);
            size_t data = pr.n;
            bb_raw(&pr, prog, sizeof prog);
            bb_varint(&agents, 1);
            tb_table(&agents, 0, 3, v, NULL);
            tb_sec sc[] = {TB_SEC(2, &rules), TB_SEC(3, &pr), TB_SEC(5, &agents)};
            size_t n;
            uint8_t *b = tb_blob(0, sc, 3, &n);
            expect(progs[k][2] ? "no STRINGS: labels of 0 bytes at 0" : "no STRINGS: a label",
                   b, n, progs[k][2] ? RSC_OK : RSC_E_CORRUPT,
                   progs[k][2] ? 0 : sec(b, n, 3) + data + 28);
            if (progs[k][2])
                CHECK(load_and_use(b, n), "no STRINGS: used");
            free(b);
            bb_free(&rules), bb_free(&pr), bb_free(&agents);
        }
    }
#undef STAR_AB_LAB

    /* A chain has Labels 0 (reported at the Shape): the chain of
     * test_wild ("*ab*c") with Labels and 7 columns, and with Labels and
     * 5 columns (the Shape byte poked) */
    static const uint32_t c_roots[] = {0, 1}, c_outs[] = {2, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0},
                          c_states[] = {0, 1, 1, 0, 0, 'a', 2, 1, 0, 0, 'b', 0, 0, 0, 1,
                                        0, 4, 1, 3, 0, 'c', 0, 0, 3, 2},
                          c_edges[] = {0, 0, 1, 1, 1, 1, 0, 1};
    tt_wild c0 = {TT_SHAPE(1, 0, 1), {1, 2, 5, 2},
                  {(uint32_t *)c_roots, (uint32_t *)c_outs, (uint32_t *)c_states,
                   (uint32_t *)c_edges}};
    static const char *const cp[] = {"*ab*c"};
    pbo co = {1, cp, NULL};
    t = tt_new();
    tt_slot(t, 0, 0);
    wild_labelled(&w, &c0);
    wild_case("a chain with Labels", t, &co, &w, 0, W_SHAPE);
    R(STATES, 1, 5) = 1, R(STATES, 1, 6) = 1; /* a label inside STRINGS: still rejected */
    wild_case("a chain with Labels and a label", t, &co, &w, 0, W_SHAPE);
    tt_wild_free(&w);
    wild_copy(&w, &c0);
    wild_case("the chain without Labels", t, &co, &w, 0, W_OK);
    tt_wild_free(&w);
    shape_poke("a chain with Labels, 5 columns", t, &co, &c0, (uint8_t)(c0.shape | TT_SHAPE_LABELS));
#undef R
    tt_free(t);
}


/* ---- leaves of one rank (Label_Head kinds 2 and 3) ---------------------- */

/* The verdict of path for agent "x" in the blob of program t (rules o). */
static int leaf_verdict(tt *t, const pbo *o, const char *path, rsc_status *st)
{
    bb x = {0};
    size_t n, data;
    pbo_texts(t, o);
    tt_encode(t, &x);
    const bb *ps[1] = {&x};
    uint8_t *b = progs_blob(o, ps, 1, &n, &data, NULL);
    rsc_program p;
    rsc_selection s;
    rsc_bytes ag = {"x", 1};
    int v = -1;
    *st = rsc_load(&p, b, n, NULL);
    if (*st == RSC_OK && rsc_select(&p, &ag, 1, &s) == RSC_OK)
        v = rsc_match_path(&s, path, strlen(path), NULL);
    free(b);
    bb_free(&x);
    return v;
}

/* A leaf that has exactly one of Accept and End and no Slot is its rank
 * alone, its label read from that rank's match text: the builder writes
 * it so (as the encoder does) when the text holds the label, else the
 * Head form; forced, the label is the text's whatever the node's, and
 * rejected past it. Blobs with and without such leaves give the same
 * verdicts; the leaves make them smaller. */
static void test_leaves(void)
{
    static const char *const t1[] = {"/xy"}, *const t2[] = {"/a"};
    pbo o1 = {1, t1, NULL}, o2 = {1, t2, NULL};
    rsc_status st;
    tt *t = tt_new();
    int a = tt_child(t, 0, '/', "ab", 2);
    tt_accept(t, a, 1);
    /* "/ab" under rule "/xy": the text does not hold the label */
    CHECK(leaf_verdict(t, &o1, "/ab", &st) == 0 && st == RSC_OK &&
              tt_where(t, a).kind == RSC_LABEL_INLINE,
          "leaf: a label the rank's text does not hold keeps its Head");
    tt_leaf_kind(t, a, TT_LEAF_ALWAYS);
    CHECK(leaf_verdict(t, &o1, "/ab", &st) == 1 && st == RSC_OK &&
              leaf_verdict(t, &o1, "/xy", &st) == 0 && tt_where(t, a).kind == RSC_LEAF_ACCEPT &&
              tt_where(t, a).label == SIZE_MAX,
          "leaf forced: its label is the rank's text (\"xy\"), not the node's");
    tt_end(t, a, 1), tt_accept(t, a, 0);
    CHECK(leaf_verdict(t, &o1, "/xy", &st) == 0 && leaf_verdict(t, &o1, "/xyz", &st) == 1 &&
              tt_where(t, a).kind == RSC_LEAF_END,
          "leaf of one End forced: the path's end only");
    tt_accept(t, a, 1), tt_end(t, a, 0);
    /* under rule "/a": 2 label bytes from depth 1 are past its text */
    tt_leaf_kind(t, a, TT_LEAF_AUTO);
    CHECK(leaf_verdict(t, &o2, "/ab", &st) == 0 && st == RSC_OK &&
              tt_where(t, a).kind == RSC_LABEL_INLINE,
          "leaf: a label past the rank's text keeps its Head");
    tt_leaf_kind(t, a, TT_LEAF_ALWAYS);
    CHECK(leaf_verdict(t, &o2, "/ab", &st) == -1 && st == RSC_E_CORRUPT &&
              tt_where(t, a).kind == RSC_LEAF_ACCEPT,
          "leaf forced past its rank's text: rejected");
    trie_poke_o("leaf forced, its label past its Rep's text", t, &o2, ANY, 0, 0, RSC_E_CORRUPT,
                tt_where(t, a).rep);
    tt_free(t);
    /* A Ref label: read in the Ref's rule, compared with the leaf's rank's */
    {
        static const char *const t3[] = {"/ab", "/abc"};
        pbo o3 = {2, t3, NULL};
        t = tt_new();
        int s = tt_child(t, 0, '/', "", 0);
        int c1 = tt_child_ref(t, s, 'a', 2, 1); /* "b" of "/abc" */
        tt_accept(t, c1, 1);                    /* "/ab": its text holds "b" */
        int c2 = tt_child(t, s, 'x', "", 0);
        tt_end(t, c2, 2);                       /* "/x" under "/abc": an empty label */
        CHECK(leaf_verdict(t, &o3, "/ab", &st) == 0 && st == RSC_OK &&
                  leaf_verdict(t, &o3, "/x", &st) == 0 && leaf_verdict(t, &o3, "/xy", &st) == 1 &&
                  tt_where(t, c1).kind == RSC_LEAF_ACCEPT && tt_where(t, c2).kind == RSC_LEAF_END,
              "leaves: a Ref label and an empty one, each its rank's");
        tt_leaf_kinds(t, TT_LEAF_NEVER);
        CHECK(leaf_verdict(t, &o3, "/ab", &st) == 0 && st == RSC_OK &&
                  tt_where(t, c1).kind == RSC_LABEL_REF && tt_where(t, c2).kind == RSC_LABEL_INLINE,
              "leaves: TT_LEAF_NEVER");
        tt_free(t);
    }
    /* Whole blobs with and without leaves of one rank. */
    static const char *const paths[] = {"/",     "/a",      "/ab",   "/abc",  "/abcd", "/abc/",
                                        "/ac",   "/a/c",    "/x",    "/xy",   "/xay",  "/x/y",
                                        "/she",  "/shex",   "/ahis", "/ahers", "/abab", "/zab",
                                        "/~c",   "/%7Ec",   "/q",    "/abcdefgh", "/x/yz", ""};
    static const char *const agents[] = {"foo", "bar", "x"};
    for (int k = 0; k < 4; k++) {
        tp_prog p = base_prog();
        if (k == 1)
            p.rfc = 1, p.rules[3].pat = "/%7e*c$";
        if (k >= 2) {
            tp_rule rs[6] = {{2, 0, "/*he"},   {3, 1, "/*she*x$"}, {4, 0, "/a*his*hers"},
                             {5, 0, "*ab*ab$"}, {6, 1, "/x*y"},    {7, 0, "/abc$"}};
            tp_one(&p, 6, rs);
            p.uncompressed = k == 3;
        }
        size_t n1, n0;
        uint8_t *b1 = tp_build(&p, &n1, NULL);
        p.no_leaves = 1;
        uint8_t *b0 = tp_build(&p, &n0, NULL);
        rsc_program p1, p0;
        int ok = rsc_load(&p1, b1, n1, NULL) == RSC_OK && rsc_load(&p0, b0, n0, NULL) == RSC_OK,
            same = 1;
        for (size_t g = 0; ok && g < 3; g++) {
            rsc_bytes ag = {agents[g], strlen(agents[g])};
            rsc_selection s1, s0;
            if (rsc_select(&p1, &ag, 1, &s1) != RSC_OK || rsc_select(&p0, &ag, 1, &s0) != RSC_OK) {
                ok = 0;
                break;
            }
            for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
                rsc_match m1, m0;
                int v1 = rsc_match_path(&s1, paths[i], strlen(paths[i]), &m1);
                int v0 = rsc_match_path(&s0, paths[i], strlen(paths[i]), &m0);
                same &= v1 == v0 && m1.decided == m0.decided && m1.line == m0.line;
            }
        }
        CHECK(ok && same && n1 < n0, "blob %d: leaves of one rank (%zu bytes) and Heads (%zu)", k,
              n1, n0);
        free(b1), free(b0);
    }
}
/* ---- rules 11-15: SETS, AGENTS, GROUPS, SITEMAPS, DIRECTIVES ----------- */

static void test_sets(void)
{
    tab st = tab_at(base, sec(base, base_n, 4), 2);
    tab sl = tab_at(base, tab_end(&st), 1);
    CHECK(st.count == 2 && sl.count == 3, "base SETS");
    /* sets: (0, 2), (2, 1); list: 0, 1, 1; 2 programs */
    poke("set First past List", base, base_n, cell(&st, 1, 0), 4, 1, RSC_E_CORRUPT, cell(&st, 1, 0));
    poke("set First = List_Count, N 1", base, base_n, cell(&st, 1, 0), 3, 1, RSC_E_CORRUPT,
         cell(&st, 1, 0));
    poke("set N past List", base, base_n, cell(&st, 0, 1), 4, 1, RSC_E_CORRUPT, cell(&st, 0, 0));
    poke("set N 255", base, base_n, cell(&st, 1, 1), 255, 1, RSC_E_CORRUPT, cell(&st, 1, 0));
    poke("set N up to List_Count", base, base_n, cell(&st, 0, 1), 3, 1, RSC_OK, 0);
    poke("empty set", base, base_n, cell(&st, 1, 1), 0, 1, RSC_OK, 0);
    uint8_t *b = dup_blob(base, base_n);
    b[cell(&st, 1, 0)] = 3, b[cell(&st, 1, 1)] = 0;
    tb_fix_checksum(b, base_n);
    expect("empty set at List_Count", b, base_n, RSC_OK, 0);
    free(b);
    poke("list entry = Program_Count", base, base_n, cell(&sl, 2, 0), 2, 1, RSC_E_CORRUPT,
         cell(&sl, 2, 0));
    poke("list entry 255", base, base_n, cell(&sl, 0, 0), 255, 1, RSC_E_CORRUPT, cell(&sl, 0, 0));
    poke("list entry = Program_Count - 1", base, base_n, cell(&sl, 0, 0), 1, 1, RSC_OK, 0);
    poke("List_Count one more", base, base_n, sl.at, 4, 1, RSC_E_CORRUPT, sl.at);
    poke("Set_Count one more", base, base_n, st.at, 3, 1, RSC_E_CORRUPT, ANY);
    /* No overflow in First + N (4-byte columns). */
    tab wt = tab_at(wide, sec(wide, wide_n, 4), 2);
    poke("set N 2^32-1", wide, wide_n, cell(&wt, 1, 1), 0xffffffffu, 4, RSC_E_CORRUPT,
         cell(&wt, 1, 0));
    poke("set First 2^32-1", wide, wide_n, cell(&wt, 1, 0), 0xffffffffu, 4, RSC_E_CORRUPT,
         cell(&wt, 1, 0));
    /* SETS without PROGRAMS: no list entry can be valid. */
    bb sets = {0};
    uint32_t v[2] = {0, 1};
    tb_table(&sets, 1, 2, v, NULL);
    v[0] = 0;
    tb_table(&sets, 1, 1, v, NULL);
    tb_sec s[] = {TB_SEC(4, &sets)};
    size_t n;
    b = tb_blob(0, s, 1, &n);
    tab st1 = tab_at(b, sec(b, n, 4), 2);
    tab l = tab_at(b, tab_end(&st1), 1);
    expect("set of a program without PROGRAMS", b, n, RSC_E_CORRUPT, cell(&l, 0, 0));
    free(b);
    bb_free(&sets);

    /* SETS absent: as many sets as programs, set i = program i (AGENTS'
     * Global and Set refer to those). */
    tp_prog ip = base_prog();
    ip.sets[0] = (tp_set){1, {0}};
    ip.sets[1] = (tp_set){1, {1}};
    ip.agents[1].set = 1;
    ip.global = 1;
    b = tp_build(&ip, &n, NULL);
    CHECK(sec(b, n, 4) == 0 && sec(b, n, 3) != 0, "identity sets: no SETS written");
    expect("no SETS, two programs", b, n, RSC_OK, 0);
    size_t g = sec(b, n, 5);
    tab at = tab_at(b, g + 1, 3);
    poke("no SETS: Global 2 (program 1)", b, n, g, 2, 1, RSC_OK, 0);
    poke("no SETS: Global 3 of 2 programs", b, n, g, 3, 1, RSC_E_CORRUPT, g);
    poke("no SETS: agent set 1", b, n, cell(&at, 0, 2), 1, 1, RSC_OK, 0);
    poke("no SETS: agent set 2 of 2 programs", b, n, cell(&at, 0, 2), 2, 1, RSC_E_CORRUPT,
         cell(&at, 0, 0));
    free(b);
    ip.keep_sets = 1;
    b = tp_build(&ip, &n, NULL);
    CHECK(sec(b, n, 4) != 0, "keep_sets: SETS written");
    expect("identity SETS written out", b, n, RSC_OK, 0);
    free(b);
    ip.keep_sets = 0;
    ip.keep_empty = 1;
    b = tp_build(&ip, &n, NULL);
    CHECK(sec(b, n, 4) == 0, "keep_empty: identity SETS still left out");
    expect("keep_empty, no SETS", b, n, RSC_OK, 0);
    poke("no SETS (keep_empty): Global 3 of 2 programs", b, n, sec(b, n, 5), 3, 1, RSC_E_CORRUPT,
         sec(b, n, 5));
    free(b);
    {
        /* SETS present with Size 0 (the 3.1 way of an empty section):
         * rejected at its Size, before the checksum and the contents. */
        bb str = {0}, pr = {0}, ag = {0};
        bb_str(&str, "a");
        static const uint8_t leaf[] = {0x01, 0x00, 0x08, 0x02, 0x00, 0x00, 0x00,
                                       0x00, 0x00, 0x00, 0x00};
        bb_raw(&pr, leaf, sizeof leaf);
        bb_u8(&ag, 1), bb_u8(&ag, 0);
        tb_sec s0[] = {TB_SEC(1, &str), TB_SEC(3, &pr), TB_SEC(4, TB_SIZE0), TB_SEC(5, &ag)};
        b = tb_blob(0, s0, 4, &n);
        size_t s5 = sec(b, n, 5);
        CHECK(s5 > 3 && b[s5 - 2] == 0 && b[s5 - 1] == 2, "SETS of Size 0 before AGENTS");
        expect("SETS present with Size 0", b, n, RSC_E_CORRUPT, s5 - 2);
        b[RSC_H_CHECK] ^= 1;
        expect("SETS present with Size 0, checksum wrong", b, n, RSC_E_CORRUPT, s5 - 2);
        free(b);
        bb_free(&str), bb_free(&pr), bb_free(&ag);
    }
    {
        /* SETS present with two empty Tables: Set_Count 0 (runtime/load.c),
         * so no Global and no agent can name a set. */
        bb str = {0}, e = {0}, pr = {0}, ag = {0};
        bb_str(&str, "a");
        bb_u8(&e, 0), bb_u8(&e, 0);
        static const uint8_t leaf[] = {0x01, 0x00, 0x08, 0x02, 0x00, 0x00, 0x00,
                                       0x00, 0x00, 0x00, 0x00};
        bb_raw(&pr, leaf, sizeof leaf);
        bb_u8(&ag, 1), bb_u8(&ag, 0);
        tb_sec s3[] = {TB_SEC(1, &str), TB_SEC(3, &pr), TB_SEC(4, &e), TB_SEC(5, &ag)};
        b = tb_blob(0, s3, 4, &n);
        expect("SETS with Count 0: Global 1 names no set", b, n, RSC_E_CORRUPT, sec(b, n, 5));
        free(b);
        tb_sec s2[] = {TB_SEC(1, &str), TB_SEC(3, &pr), TB_SEC(5, &ag)};
        b = tb_blob(0, s2, 3, &n);
        expect("no SETS: Global 1 is program 0", b, n, RSC_OK, 0);
        free(b);
        bb_free(&str), bb_free(&e), bb_free(&pr), bb_free(&ag);
    }
}

static void test_agents(void)
{
    size_t g = sec(base, base_n, 5), strings = sec(base, base_n, 1), str_n;
    tb_section(base, base_n, 1, &str_n);
    tab at = tab_at(base, g + 1, 3);
    CHECK(base[g] == 2 && at.count == 2, "base AGENTS: Global 2, 2 rows");
    /* Global: 0, or 1 + a set (2 sets) */
    poke("Global 3 of 2 sets", base, base_n, g, 3, 1, RSC_E_CORRUPT, g);
    poke("Global 0x7f", base, base_n, g, 0x7f, 1, RSC_E_CORRUPT, g);
    poke("Global 0", base, base_n, g, 0, 1, RSC_OK, 0);
    poke("Global 1", base, base_n, g, 1, 1, RSC_OK, 0);
    /* rows: "bar" (set 0), "foo" (set 0) */
    uint32_t bar = base[cell(&at, 0, 0)], foo = base[cell(&at, 1, 0)];
    CHECK(memcmp(base + strings + bar, "bar", 3) == 0 && memcmp(base + strings + foo, "foo", 3) == 0,
          "base agent tokens");
    poke("agent Str_Len past STRINGS", base, base_n, cell(&at, 0, 1), 255, 1, RSC_E_CORRUPT,
         cell(&at, 0, 0));
    poke("agent Str_Off past STRINGS", base, base_n, cell(&at, 1, 0), 255, 1, RSC_E_CORRUPT,
         cell(&at, 1, 0));
    poke("agent set = Set_Count", base, base_n, cell(&at, 1, 2), 2, 1, RSC_E_CORRUPT,
         cell(&at, 1, 0));
    poke("agent set 1", base, base_n, cell(&at, 1, 2), 1, 1, RSC_OK, 0);
    poke("agents equal", base, base_n, cell(&at, 1, 0), bar, 1, RSC_E_CORRUPT, cell(&at, 1, 0));
    poke("agent \"\" first", base, base_n, cell(&at, 0, 1), 0, 1, RSC_OK, 0);
    poke("agent \"\" second", base, base_n, cell(&at, 1, 1), 0, 1, RSC_E_CORRUPT, cell(&at, 1, 0));
    poke("agent \"fo\" after \"bar\"", base, base_n, cell(&at, 1, 1), 2, 1, RSC_OK, 0);
    uint8_t *b = dup_blob(base, base_n);
    b[cell(&at, 1, 0)] = (uint8_t)bar, b[cell(&at, 0, 1)] = 2; /* "ba", "bar" */
    tb_fix_checksum(b, base_n);
    expect("agent \"ba\" before \"bar\"", b, base_n, RSC_OK, 0);
    b[cell(&at, 0, 1)] = 3, b[cell(&at, 1, 1)] = 2; /* "bar", "ba" */
    tb_fix_checksum(b, base_n);
    expect("agent \"ba\" after \"bar\"", b, base_n, RSC_E_CORRUPT, cell(&at, 1, 0));
    free(b);
    /* Bytes outside [a-z_-] */
    static const uint8_t badb[] = {'B', 'Z', '0', '9', '*', ' ', '.', '/', 0x00, 0x7f, 0x80, 0xff, '`', '{'};
    for (size_t i = 0; i < sizeof badb; i++)
        poke("agent byte outside [a-z_-]", base, base_n, strings + bar + 1, badb[i], 1,
             RSC_E_CORRUPT, cell(&at, 0, 0));
    poke("agent byte '_'", base, base_n, strings + bar + 1, '_', 1, RSC_OK, 0);
    poke("agent byte '-'", base, base_n, strings + bar + 2, '-', 1, RSC_OK, 0);
    poke("agent byte 'z'", base, base_n, strings + foo, 'z', 1, RSC_OK, 0);
    poke("agent byte 'a'", base, base_n, strings + foo, 'a', 1, RSC_E_CORRUPT, cell(&at, 1, 0));
    /* Global varint */
    bb sets = {0}, ag = {0};
    uint32_t v[3] = {0, 0, 0};
    tb_table(&sets, 1, 2, v, NULL);
    tb_table(&sets, 0, 1, v, NULL);
    static const uint8_t g_overlong[] = {0x81, 0x00, 0x00},
                         g_cut[] = {0x81},
                         g_ok[] = {0x01, 0x00};
    const uint8_t *gs[] = {g_overlong, g_cut, g_ok};
    size_t gn[] = {sizeof g_overlong, sizeof g_cut, sizeof g_ok};
    for (int k = 0; k < 3; k++) {
        ag.n = 0;
        bb_raw(&ag, gs[k], gn[k]);
        tb_sec s[] = {TB_SEC(4, &sets), TB_SEC(5, &ag)};
        size_t n;
        b = tb_blob(0, s, 2, &n);
        expect(k == 0 ? "Global overlong" : k == 1 ? "Global cut" : "Global 1, no rows", b, n,
               k == 2 ? RSC_OK : RSC_E_CORRUPT, k == 2 ? 0 : sec(b, n, 5));
        free(b);
    }
    /* AGENTS without SETS nor PROGRAMS: Global must be 0, no row can be
     * valid. */
    ag.n = 0;
    bb_u8(&ag, 1);
    tb_table(&ag, 0, 3, v, NULL);
    {
        tb_sec s[] = {TB_SEC(5, &ag)};
        size_t n;
        b = tb_blob(0, s, 1, &n);
        expect("Global 1 without SETS nor PROGRAMS", b, n, RSC_E_CORRUPT, sec(b, n, 5));
        free(b);
    }
    bb_free(&sets), bb_free(&ag);
    /* Token lengths add up to at most the size of STRINGS. */
    for (int k = 0; k < 2; k++) {
        bb str = {0}, s4 = {0}, s5 = {0};
        bb_str(&str, "aaaaaaaa");
        uint32_t w[6] = {0, 0};
        tb_table(&s4, 1, 2, w, NULL);
        tb_table(&s4, 0, 1, w, NULL);
        bb_u8(&s5, 0);
        w[0] = 0, w[1] = 3, w[2] = 0, w[3] = 0, w[4] = k ? 6 : 5, w[5] = 0;
        tb_table(&s5, 2, 3, w, NULL);
        tb_sec s[] = {TB_SEC(1, &str), TB_SEC(4, &s4), TB_SEC(5, &s5)};
        size_t n;
        b = tb_blob(0, s, 3, &n);
        tab t = tab_at(b, sec(b, n, 5) + 1, 3);
        if (k)
            expect("agent tokens longer than STRINGS in total", b, n, RSC_E_CORRUPT, cell(&t, 1, 0));
        else
            expect("agent tokens as long as STRINGS in total", b, n, RSC_OK, 0);
        free(b);
        bb_free(&str), bb_free(&s4), bb_free(&s5);
    }
    /* No overflow in Off + Len (4-byte columns). */
    size_t wg = sec(wide, wide_n, 5);
    tab wt = tab_at(wide, wg + 1, 3);
    poke("agent Str_Off 2^32-1", wide, wide_n, cell(&wt, 0, 0), 0xffffffffu, 4, RSC_E_CORRUPT,
         cell(&wt, 0, 0));
    poke("agent Str_Len 2^32-1", wide, wide_n, cell(&wt, 1, 1), 0xffffffffu, 4, RSC_E_CORRUPT,
         cell(&wt, 1, 0));
    poke("agent set 2^32-1", wide, wide_n, cell(&wt, 1, 2), 0xffffffffu, 4, RSC_E_CORRUPT,
         cell(&wt, 1, 0));
    (void)str_n;
}

static void test_groups_sitemaps_directives(void)
{
    tab gt = tab_at(base, sec(base, base_n, 6), 2);
    tab gl = tab_at(base, tab_end(&gt), 1);
    CHECK(gt.count == 3 && gl.count == 4, "base GROUPS");
    /* groups (Line, First): (1, 0), (5, 2), (10, 3); list: foo 2, bar 1,
     * * 0, bar 1 (AGENTS rows: bar, foo) */
    CHECK(base[cell(&gt, 1, 1)] == 2 && base[cell(&gt, 2, 1)] == 3 && base[cell(&gl, 0, 0)] == 2 &&
              base[cell(&gl, 1, 0)] == 1 && base[cell(&gl, 2, 0)] == 0,
          "base GROUPS values");
    poke("group First(0) 1", base, base_n, cell(&gt, 0, 1), 1, 1, RSC_E_CORRUPT, cell(&gt, 0, 0));
    poke("group First decreasing", base, base_n, cell(&gt, 2, 1), 1, 1, RSC_E_CORRUPT,
         cell(&gt, 2, 0));
    poke("group First past List", base, base_n, cell(&gt, 2, 1), 5, 1, RSC_E_CORRUPT,
         cell(&gt, 2, 0));
    poke("group First 255", base, base_n, cell(&gt, 1, 1), 255, 1, RSC_E_CORRUPT, cell(&gt, 1, 0));
    poke("last group empty (First = List_Count)", base, base_n, cell(&gt, 2, 1), 4, 1, RSC_OK, 0);
    poke("group of no agents (First equal)", base, base_n, cell(&gt, 1, 1), 0, 1, RSC_OK, 0);
    poke("group Line 0 (not checked)", base, base_n, cell(&gt, 0, 0), 0, 1, RSC_OK, 0);
    poke("group agent = AGENTS count", base, base_n, cell(&gl, 3, 0), 2, 1, RSC_OK, 0);
    poke("group agent = AGENTS count + 1", base, base_n, cell(&gl, 3, 0), 3, 1, RSC_E_CORRUPT,
         cell(&gl, 3, 0));
    poke("group agent 255", base, base_n, cell(&gl, 0, 0), 255, 1, RSC_E_CORRUPT, cell(&gl, 0, 0));
    poke("group agent '*' in a named group (not checked)", base, base_n, cell(&gl, 0, 0), 0, 1,
         RSC_OK, 0);
    poke("GROUPS: List_Count one more", base, base_n, gl.at, 5, 1, RSC_E_CORRUPT, gl.at);
    poke("GROUPS: List_Count one less", base, base_n, gl.at, 3, 1, RSC_E_CORRUPT,
         tab_end(&gl) - 1);
    tab wgt = tab_at(wide, sec(wide, wide_n, 6), 2);
    tab wgl = tab_at(wide, tab_end(&wgt), 1);
    poke("group First 2^32-1", wide, wide_n, cell(&wgt, 1, 1), 0xffffffffu, 4, RSC_E_CORRUPT,
         cell(&wgt, 1, 0));
    poke("group agent 2^32-1", wide, wide_n, cell(&wgl, 1, 0), 0xffffffffu, 4, RSC_E_CORRUPT,
         cell(&wgl, 1, 0));
    {
        /* GROUPS without AGENTS: only agent 0 ('*'). */
        bb gr = {0};
        uint32_t v[2] = {1, 0};
        tb_table(&gr, 1, 2, v, NULL);
        v[0] = 0;
        tb_table(&gr, 1, 1, v, NULL);
        tb_sec s[] = {TB_SEC(6, &gr)};
        size_t n;
        uint8_t *b = tb_blob(0, s, 1, &n);
        expect("group of '*' without AGENTS", b, n, RSC_OK, 0);
        tab g0 = tab_at(b, sec(b, n, 6), 2), g1 = tab_at(b, tab_end(&g0), 1);
        size_t at = cell(&g1, 0, 0);
        CHECK(at == sec(b, n, 6) + 6, "Count, a widths byte, a row of 2; Count, a widths byte");
        CHECK(b[at] == 0, "the agent cell");
        b[at] = 1;
        tb_fix_checksum(b, n);
        expect("group agent 1 without AGENTS", b, n, RSC_E_CORRUPT, at);
        free(b);
        bb_free(&gr);
    }

    tab sm = tab_at(base, sec(base, base_n, 7), 3);
    CHECK(sm.count == 1, "base SITEMAPS");
    poke("sitemap Str_Len past STRINGS", base, base_n, cell(&sm, 0, 2), 255, 1, RSC_E_CORRUPT,
         cell(&sm, 0, 0));
    poke("sitemap Str_Off past STRINGS", base, base_n, cell(&sm, 0, 1), 255, 1, RSC_E_CORRUPT,
         cell(&sm, 0, 0));
    poke("sitemap Line 0 (not checked)", base, base_n, cell(&sm, 0, 0), 0, 1, RSC_OK, 0);
    poke("sitemap Count 2", base, base_n, sm.at, 2, 1, RSC_E_CORRUPT, sm.at);
    poke("sitemap Count 0 (widths and row left over)", base, base_n, sm.at, 0, 1, RSC_E_CORRUPT,
         sm.at + 1);
    tab wsm = tab_at(wide, sec(wide, wide_n, 7), 3);
    poke("sitemap wraps", wide, wide_n, cell(&wsm, 0, 1), 0xfffffff0u, 4, RSC_E_CORRUPT,
         cell(&wsm, 0, 0));
    uint8_t *b = dup_blob(wide, wide_n);
    wr32le(b + cell(&wsm, 0, 1), 1);
    wr32le(b + cell(&wsm, 0, 2), 0xffffffffu);
    tb_fix_checksum(b, wide_n);
    expect("sitemap Off 1, Len 2^32-1", b, wide_n, RSC_E_CORRUPT, cell(&wsm, 0, 0));
    free(b);

    tab dt = tab_at(base, sec(base, base_n, 8), 6);
    CHECK(dt.count == 2, "base DIRECTIVES");
    /* rows: (4, group 1, crawl-delay, 5), (8, 0, host, e); 3 groups */
    poke("directive Group 4 of 3", base, base_n, cell(&dt, 1, 1), 4, 1, RSC_E_CORRUPT, cell(&dt, 1, 0));
    poke("directive Group 3 of 3", base, base_n, cell(&dt, 1, 1), 3, 1, RSC_OK, 0);
    poke("directive key past STRINGS", base, base_n, cell(&dt, 0, 3), 255, 1, RSC_E_CORRUPT,
         cell(&dt, 0, 0));
    poke("directive key offset past STRINGS", base, base_n, cell(&dt, 1, 2), 255, 1,
         RSC_E_CORRUPT, cell(&dt, 1, 0));
    poke("directive value past STRINGS", base, base_n, cell(&dt, 1, 5), 255, 1, RSC_E_CORRUPT,
         cell(&dt, 1, 0));
    poke("directive value offset past STRINGS", base, base_n, cell(&dt, 0, 4), 255, 1,
         RSC_E_CORRUPT, cell(&dt, 0, 0));
    tab wdt = tab_at(wide, sec(wide, wide_n, 8), 6);
    poke("directive Group 2^32-1", wide, wide_n, cell(&wdt, 0, 1), 0xffffffffu, 4,
         RSC_E_CORRUPT, cell(&wdt, 0, 0));
    poke("directive value Len 2^32-1", wide, wide_n, cell(&wdt, 1, 5), 0xffffffffu, 4,
         RSC_E_CORRUPT, cell(&wdt, 1, 0));
    /* DIRECTIVES without GROUPS: only Group 0. */
    bb str = {0}, dirs = {0};
    bb_str(&str, "kv");
    uint32_t v[6] = {1, 0, 0, 1, 1, 1};
    tb_table(&dirs, 1, 6, v, NULL);
    tb_sec s[] = {TB_SEC(1, &str), TB_SEC(8, &dirs)};
    size_t n;
    b = tb_blob(0, s, 2, &n);
    expect("directive before any group, no GROUPS", b, n, RSC_OK, 0);
    tab d8 = tab_at(b, sec(b, n, 8), 6);
    CHECK(d8.rows == sec(b, n, 8) + 3, "DIRECTIVES: Count and two widths bytes");
    b[cell(&d8, 0, 1)] = 1;
    tb_fix_checksum(b, n);
    expect("directive of group 0 without GROUPS", b, n, RSC_E_CORRUPT, cell(&d8, 0, 0));
    free(b);
    bb_free(&str), bb_free(&dirs);
}

/* Absent and empty sections, and the order of checks across sections. */
static void test_absent_and_order(void)
{
    /* Every known section present with Size 0: rejected at the first
     * Size (the 3.1 way of an empty section; 4.0 leaves it out). */
    tb_sec all[8];
    for (uint32_t id = 1; id <= 8; id++)
        all[id - 1] = (tb_sec)TB_SEC(id, TB_SIZE0);
    size_t n;
    uint8_t *b = tb_blob(0, all, 8, &n);
    CHECK(n == P0 + 2 + 8 && b[P0] == 0xff && b[P0 + 1] == 0x01, "Present 0xff: 2 bytes");
    expect("eight sections of Size 0", b, n, RSC_E_CORRUPT, P0 + 2);
    for (uint32_t id = 1; id <= 8; id++) /* each alone */
        all[id - 1] = (tb_sec)TB_SEC(id, NULL);
    for (uint32_t id = 1; id <= 8; id++) {
        all[id - 1] = (tb_sec)TB_SEC(id, TB_SIZE0);
        uint8_t *b1 = tb_blob(0, all, 8, &n);
        expect("one section of Size 0", b1, n, RSC_E_CORRUPT, P0 + varint_len(1u << (id - 1)));
        free(b1);
        all[id - 1] = (tb_sec)TB_SEC(id, NULL);
    }
    free(b);
    /* No section at all: Present 0. */
    b = tb_blob(0, all, 8, &n);
    CHECK(n == P0 + 1 && b[P0] == 0, "no sections: Present 0");
    expect("no sections", b, n, RSC_OK, 0);
    rsc_program p;
    rsc_selection s;
    rsc_bytes a = {"x", 1};
    CHECK(rsc_load(&p, b, n, NULL) == RSC_OK && rsc_select(&p, &a, 1, &s) == RSC_OK &&
              s.n_sets == 0 && rsc_match_path(&s, "/", 1, NULL) == 1 &&
              rsc_sitemap_count(&p) == 0 && rsc_directive_count(&p) == 0,
          "empty sections: nothing applies");
    free(b);
    /* Empty Tables (Count 0) in every section. */
    tp_prog e;
    memset(&e, 0, sizeof e);
    e.global = -1;
    e.keep_empty = 1;
    b = tp_build(&e, &n, NULL);
    CHECK(sec(b, n, 1) == 0 && sec(b, n, 2) && sec(b, n, 3) && sec(b, n, 4) && sec(b, n, 5) &&
              sec(b, n, 6) && sec(b, n, 7) && sec(b, n, 8),
          "keep_empty: every section but STRINGS written");
    expect("empty sections, all written", b, n, RSC_OK, 0);
    free(b);
    bb z1 = {0}, z2 = {0};
    bb_u8(&z1, 0);
    bb_u8(&z2, 0), bb_u8(&z2, 0);
    tb_sec zs[] = {TB_SEC(2, &z1), TB_SEC(3, &z1), TB_SEC(4, &z2), TB_SEC(5, &z2),
                   TB_SEC(6, &z2), TB_SEC(7, &z1), TB_SEC(8, &z1)};
    b = tb_blob(0, zs, 7, &n);
    expect("Count 0 in every Table (each the byte 0)", b, n, RSC_OK, 0);
    CHECK(rsc_load(&p, b, n, NULL) == RSC_OK && rsc_select(&p, &a, 1, &s) == RSC_OK &&
              s.n_sets == 0 && s.n_roots == 0 && rsc_match_path(&s, "/", 1, NULL) == 1,
          "empty Tables: nothing applies");
    free(b);
    bb_free(&z1), bb_free(&z2);
    /* Sections absent one at a time from the base: those that others refer
     * to make the referring ones fail; the rest load. */
    tp_prog bp = base_prog();
    bp.n_sitemaps = 0;
    b = tp_build(&bp, &n, NULL);
    expect("no SITEMAPS", b, n, RSC_OK, 0);
    free(b);
    bp.n_dirs = 0;
    bp.n_groups = 0;
    b = tp_build(&bp, &n, NULL);
    expect("no GROUPS, no DIRECTIVES", b, n, RSC_OK, 0);
    free(b);
    bp.n_agents = 0;
    bp.global = -1;
    b = tp_build(&bp, &n, NULL);
    CHECK(sec(b, n, 5) == 0, "no AGENTS written");
    expect("no AGENTS either", b, n, RSC_OK, 0);
    free(b);
    /* Sections that refer to an absent one fail: agents naming set 1 with
     * neither SETS nor PROGRAMS; directives of group 1 without GROUPS. */
    bp = base_prog();
    bp.n_rules = 0, bp.n_progs = 0, bp.n_sets = 0;
    b = tp_build(&bp, &n, NULL);
    expect("AGENTS without SETS nor PROGRAMS: Global 2", b, n, RSC_E_CORRUPT, sec(b, n, 5));
    free(b);
    bp = base_prog();
    bp.n_groups = 0;
    b = tp_build(&bp, &n, NULL);
    tab d0 = tab_at(b, sec(b, n, 8), 6);
    expect("DIRECTIVES of group 1 without GROUPS", b, n, RSC_E_CORRUPT, cell(&d0, 0, 0));
    free(b);
    /* The first failing rule is reported: RULES before DIRECTIVES, and
     * within a section the first row. */
    tab r = tab_at(base, sec(base, base_n, 2), 3);
    tab dt = tab_at(base, sec(base, base_n, 8), 6);
    b = dup_blob(base, base_n);
    b[cell(&dt, 0, 1)] = 9;
    b[cell(&r, 2, 0)] = 0;
    b[cell(&r, 3, 0)] = 0;
    tb_fix_checksum(b, base_n);
    expect("two rows and a later section bad: the first row", b, base_n, RSC_E_CORRUPT,
           cell(&r, 2, 0));
    b[cell(&r, 2, 0)] = base[cell(&r, 2, 0)];
    b[cell(&r, 3, 0)] = base[cell(&r, 3, 0)];
    tb_fix_checksum(b, base_n);
    expect("then the later section", b, base_n, RSC_E_CORRUPT, cell(&dt, 0, 0));
    free(b);
}

/* ---- damage: truncation, bit flips, mutations, random bytes ------------- */

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Loads, and when accepted, matches a few random inputs (ASan watches). */
static int load_and_use(const uint8_t *b, size_t n)
{
    rsc_program p;
    if (rsc_load(&p, b, n, NULL) != RSC_OK)
        return 0;
    static const char *agents[] = {"foo", "bar", "", "x", "FOO", "a"};
    static const char alpha[] = "/abcxyzhes$;%?#*\xc3\x80";
    rsc_selection s;
    rsc_bytes a[2] = {{agents[rnd() % 6], 0}, {agents[rnd() % 6], 0}};
    a[0].len = strlen(a[0].ptr), a[1].len = strlen(a[1].ptr);
    if (rsc_select(&p, a, 1 + rnd() % 2, &s) == RSC_OK)
        for (int k = 0; k < 4; k++) {
            char path[24];
            size_t len = rnd() % sizeof path;
            for (size_t i = 0; i < len; i++)
                path[i] = alpha[rnd() % (sizeof alpha - 1)];
            rsc_match m;
            (void)rsc_match_path(&s, path, len, &m);
            (void)rsc_match_url(&s, path, len, &m);
            rsc_bytes v;
            (void)rsc_group_directive(&s, "crawl-delay", &v, NULL);
        }
    for (size_t i = 0; i < rsc_sitemap_count(&p); i++)
        (void)rsc_sitemap_get(&p, i, NULL, NULL);
    for (size_t i = 0; i < rsc_directive_count(&p); i++)
        (void)rsc_directive_get(&p, i, NULL, NULL, NULL);
    return 1;
}

static void test_damage(const uint8_t *blob, size_t n, const char *what)
{
    int bad = 0;
    expect(what, blob, n, RSC_OK, 0);
    for (size_t k = 0; k < n; k++) {
        rsc_program p;
        rsc_load_error e;
        bad += rsc_load(&p, blob, k, &e) != RSC_E_TRUNCATED ||
               e.offset != (k < RSC_HEADER_MIN ? k : RSC_H_TOTAL);
    }
    CHECK(bad == 0, "%s: %d of %zu truncations not RSC_E_TRUNCATED", what, bad, n);
    uint8_t *b = dup_blob(blob, n);
    for (size_t i = 0; i < n * 8; i++) {
        b[i / 8] ^= (uint8_t)(1u << (i % 8));
        rsc_program p;
        bad += rsc_load(&p, b, n, NULL) == RSC_OK;
        b[i / 8] ^= (uint8_t)(1u << (i % 8));
    }
    CHECK(bad == 0, "%s: %d of %zu bit flips accepted", what, bad, n * 8);
    /* Flips with the checksum fixed reach the content checks (from
     * Present on). */
    int ok = 0;
    const size_t H = tb_present_at(blob);
    for (size_t i = H * 8; i < n * 8; i++) {
        b[i / 8] ^= (uint8_t)(1u << (i % 8));
        tb_fix_checksum(b, n);
        ok += load_and_use(b, n);
        memcpy(b, blob, n);
    }
    CHECK(ok < (int)(n - H) * 8, "%s: fixed-checksum flips: %d of %zu accepted", what, ok,
          (n - H) * 8);
    free(b);
}

static void test_random(void)
{
    uint8_t buf[512];
    int bad = 0, accepted = 0;
    for (int it = 0; it < 20000; it++) {
        size_t n = rnd() % sizeof buf;
        for (size_t i = 0; i < n; i++)
            buf[i] = (uint8_t)rnd();
        if (it % 2 && n >= RSC_HEADER_MIN + 2) { /* a plausible header, past identity */
            memcpy(buf, RSC_MAGIC, RSC_MAGIC_LEN);
            buf[RSC_H_MAJOR] = RSC_FORMAT_MAJOR;
            buf[RSC_H_FLAGS] = buf[RSC_H_FLAGS] & 1 ? RSC_FLAG_PROFILE_RFC : 0;
            size_t pos = RSC_H_TOTAL; /* Total_Size: n in 1 or 2 bytes */
            if (n < 128) {
                buf[pos++] = (uint8_t)n;
            } else {
                buf[pos++] = (uint8_t)(0x80 | (n & 0x7f));
                buf[pos++] = (uint8_t)(n >> 7);
            }
            if (it % 4 == 1) {
                /* a Present of known ids, sections of plausible sizes (at
                 * least 1, the last up to Total_Size), in Id order */
                uint32_t present = 0;
                size_t k = 0;
                for (uint32_t id = 1; id <= 8; id++)
                    if (rnd() % 3)
                        present |= 1u << (id - 1), k++;
                if (present >= 0x80)
                    buf[pos++] = (uint8_t)(0x80 | (present & 0x7f)), buf[pos++] = 1;
                else
                    buf[pos++] = (uint8_t)present;
                for (size_t j = 0; j < k && pos + 2 < n; j++) {
                    size_t left = n - pos - 1, sz; /* after a one-byte Size */
                    if (j + 1 == k) /* to the end (a 2-byte Size from 128 on) */
                        sz = left < 128 ? left : left - 1;
                    else
                        sz = 1 + rnd() % (left < 120 ? left : 120);
                    if (sz >= 128)
                        buf[pos++] = (uint8_t)(0x80 | (sz & 0x7f)), buf[pos++] = (uint8_t)(sz >> 7);
                    else
                        buf[pos++] = (uint8_t)sz;
                    pos += sz;
                }
                tb_fix_checksum(buf, n);
            }
            accepted += load_and_use(buf, n);
        } else {
            rsc_program p;
            bad += rsc_load(&p, buf, n, NULL) == RSC_OK;
        }
    }
    CHECK(bad == 0, "%d random strings accepted", bad);
    printf("random plausible blobs accepted: %d\n", accepted);
    /* Mutations of valid blobs, checksum fixed: never unsafe. */
    const uint8_t *src[8] = {base, wide, base_rfc, refs, autom, chainb, labelled, labelled_long};
    size_t srcn[8] = {base_n, wide_n, base_rfc_n, refs_n, autom_n, chainb_n, labelled_n,
                      labelled_long_n};
    for (int k = 0; k < 8; k++) {
        uint8_t *b = malloc(srcn[k]);
        int acc = 0;
        for (int it = 0; it < RT_MUTATIONS; it++) {
            memcpy(b, src[k], srcn[k]);
            const size_t H = tb_present_at(src[k]);
            for (int j = 1 + rnd() % 3; j > 0; j--) {
                size_t at = H + rnd() % (srcn[k] - H);
                uint32_t r = rnd();
                if (r % 3 == 0)
                    b[at] = (uint8_t)rnd();
                else if (r % 3 == 1)
                    b[at] = (uint8_t)(b[at] + (rnd() % 2 ? 1 : -1));
                else
                    b[at] = (uint8_t)(rnd() % 4);
            }
            tb_fix_checksum(b, srcn[k]);
            acc += load_and_use(b, srcn[k]);
        }
        printf("mutated blobs accepted: %d of %d\n", acc, RT_MUTATIONS);
        CHECK(acc > 0 && acc < RT_MUTATIONS, "mutations: some accepted, some not (%d)", acc);
        free(b);
    }
}

/* A chain program (Shape 1 << 2 | 1) for the rule "/" + "*ab*c$" at the
 * slot of "/", its tables by hand, beside an Accept of rank 1 ("/a"). */
static uint8_t *chain_blob(size_t *n)
{
    static const uint32_t roots[] = {0, 2}, outs[] = {2, 0, 2, 0, 1, 0, 1, 0, 2, 1, 0, 1},
                          states[] = {0, 1, 1, 0, 0, 'a', 2, 1, 0, 0, 'b', 0, 0, 0, 1,
                                      0, 4, 1, 3, 0, 'c', 0, 0, 3, 2},
                          edges[] = {0, 0, 1, 2, 1, 2, 0, 2};
    static const char *const mt[] = {"/a", "/*ab*c$"};
    tt_wild w = {TT_SHAPE(1, 0, 1), {1, 2, 5, 2},
                 {(uint32_t *)roots, (uint32_t *)outs, (uint32_t *)states, (uint32_t *)edges}};
    tt *t = tt_new();
    int sl = tt_child(t, 0, '/', "", 0);
    tt_slot(t, sl, 0);
    tt_accept(t, tt_child(t, sl, 'a', "", 0), 1);
    tt_wild_set(t, &w);
    tt_texts(t, mt, 2);
    bb x = {0};
    tt_encode(t, &x);
    const bb *ps[1] = {&x};
    size_t data;
    pbo o = {2, mt, NULL};
    uint8_t *b = progs_blob(&o, ps, 1, n, &data, NULL);
    bb_free(&x);
    tt_free(t);
    return b;
}

int main(void)
{
    tp_prog p = base_prog();
    base = tp_build(&p, &base_n, NULL);
    p.width = 4;
    wide = tp_build(&p, &wide_n, NULL);
    p = base_prog();
    p.refs = 1;
    refs = tp_build(&p, &refs_n, NULL);
    p = base_prog();
    p.rfc = 1;
    p.rules[3].pat = "/%7e*cd$"; /* match text "/~*cd$" */
    base_rfc = tp_build(&p, &base_rfc_n, NULL);
    p.width = 4;
    wide_rfc = tp_build(&p, &wide_rfc_n, NULL);
    {
        tp_rule rs[6] = {{2, 0, "/*he"},         {3, 1, "/*she*x$"}, {4, 0, "/a*his*hers"},
                         {5, 0, "*ab*ab$"},       {6, 1, "/x*y"},     {7, 0, "/*s*he*hers"}};
        tp_one(&p, 6, rs);
        autom = tp_build(&p, &autom_n, NULL);
        p.labels = TT_LABELS_ALL;
        labelled = tp_build(&p, &labelled_n, NULL);
        tp_rule rl[4] = {{2, 0, "/*abcdefgh"}, {3, 1, "/x*qr%73tuv$"}, {4, 0, "*lmnop*zz*lmnopq"},
                         {5, 1, "/x/y*efgh"}};
        tp_one(&p, 4, rl);
        p.labels = TT_LABELS_ALL;
        p.rfc = 1;
        p.refs = 1;
        labelled_long = tp_build(&p, &labelled_long_n, NULL);
        chainb = chain_blob(&chainb_n);
        rsc_program pa;
        rsc_selection s;
        rsc_bytes ag = {"x", 1};
        CHECK(rsc_load(&pa, chainb, chainb_n, NULL) == RSC_OK &&
                  rsc_select(&pa, &ag, 1, &s) == RSC_OK &&
                  rsc_match_path(&s, "/xabyc", 6, NULL) == 0 &&
                  rsc_match_path(&s, "/xabcy", 6, NULL) == 1 &&
                  rsc_match_path(&s, "/abc", 4, NULL) == 0,
              "the chain blob matches");
    }
    test_header();
    test_framing();
    test_checksum();
    test_tables();
    test_rules();
    test_programs();
    test_wild();
    test_labels();
    test_leaves();
    test_sets();
    test_agents();
    test_groups_sitemaps_directives();
    test_absent_and_order();
    test_damage(base, base_n, "base");
    test_damage(wide, wide_n, "wide");
    test_damage(base_rfc, base_rfc_n, "base rfc");
    test_damage(refs, refs_n, "labels by Rep");
    test_damage(autom, autom_n, "automaton");
    test_damage(chainb, chainb_n, "chain program");
    test_damage(labelled, labelled_n, "automaton with labels");
    test_damage(labelled_long, labelled_long_n, "long labels, rfc, Rep labels in the trie");
    {
        tp_prog hp = base_prog();
        hp.no_leaves = 1;
        size_t n;
        uint8_t *b = tp_build(&hp, &n, NULL);
        test_damage(b, n, "no leaves of one rank (every node with a Head)");
        free(b);
    }
    {
        size_t n, off;
        uint8_t *b = mini_blob(SIZE_MAX, 0, M_OK, &n, &off);
        test_damage(b, n, "mini");
        free(b);
        tp_prog ex;
        tp_rule r = {2, 0, "/a*b$"};
        tp_one(&ex, 1, &r);
        ex.rfc = 1;
        b = tp_build(&ex, &n, NULL);
        test_damage(b, n, "rfc, one glob");
        free(b);
        tp_rule rs[3] = {{2, 0, "/abcdefgh"}, {3, 1, "/abcdxyz$"}, {4, 0, "*q*r"}};
        tp_one(&ex, 3, rs);
        ex.uncompressed = 1;
        b = tp_build(&ex, &n, NULL);
        test_damage(b, n, "uncompressed");
        free(b);
        ex.uncompressed = 0;
        ex.refs = 1;
        ex.rfc = 1;
        ex.rules[0].pat = "/abc%64efgh";
        b = tp_build(&ex, &n, NULL);
        test_damage(b, n, "rfc, labels by Rep, no SETS");
        free(b);
    }
    test_random();
    free(base), free(wide), free(refs), free(base_rfc), free(wide_rfc), free(autom), free(chainb);
    free(labelled), free(labelled_long);
    return tu_report("runtime verifier", tu_passed);
}
