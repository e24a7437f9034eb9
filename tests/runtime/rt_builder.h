/* A hand blob builder for the runtime tests: writes sections to
 * docs/FORMAT.md, computes the checksum. Independent of the compiler. */
#ifndef RT_BUILDER_H
#define RT_BUILDER_H

#include <stddef.h>
#include <stdint.h>

/* A growable byte buffer. */
typedef struct bb {
    uint8_t *d;
    size_t n, cap;
} bb;
void bb_raw(bb *b, const void *p, size_t n);
void bb_u8(bb *b, uint32_t v);
void bb_u16(bb *b, uint32_t v);
void bb_u32(bb *b, uint32_t v);
void bb_pad4(bb *b);
void bb_free(bb *b);

uint32_t rd32le(const uint8_t *p);
void wr32le(uint8_t *p, uint32_t v);

/* Assembles header + section table + sections. data[i] may be NULL for an
 * empty section. The blob is malloc'ed. */
typedef struct tb_section {
    uint16_t id, flags;
    const bb *data;
} tb_section;
uint8_t *tb_blob(uint16_t hflags, const tb_section *s, size_t n, size_t *size);
void tb_fix_checksum(uint8_t *blob, size_t size);
/* Absolute offset of the section with this id (0 when absent). */
size_t tb_section_off(const uint8_t *blob, uint16_t id);

/* One automaton state; targets are state indices, -1 for NONE.
 * LIT: bytes/nbytes, t[0] = Next. SPARSE: bytes/nbytes (sorted),
 * t[0..n) targets, t[n] Default. TABLE: t[0..Class_Count). */
#define TB_NONE (-1)
typedef struct tb_state {
    int op;
    uint32_t accept, end, ceiling; /* accept/end 0: absent */
    const char *bytes;
    uint32_t nbytes;
    int t[257];
} tb_state;
/* Appends an automaton; cmap NULL for none. */
void tb_automaton(bb *out, const tb_state *st, size_t n, int start,
                  const uint8_t *cmap, uint32_t class_count);

/* A whole program from rules, each compiled alone into one automaton.
 * Patterns hold no '*' except those built by hand in tp_extra. */
enum { TP_LIT, TP_SPARSE, TP_TABLE };
typedef struct tp_rule {
    uint32_t line;
    int allow;
    const char *pat; /* escaped pattern, '$' at the end anchors */
    int mode;        /* TP_LIT/TP_SPARSE/TP_TABLE */
} tp_rule;
typedef struct tp_set {
    size_t n;
    int rules[16]; /* indices into rules[] */
} tp_set;
typedef struct tp_agent {
    const char *tok;
    int set;
} tp_agent;
typedef struct tp_group {
    uint32_t line;
    const char *toks[4];
} tp_group;
typedef struct tp_sitemap {
    uint32_t line;
    const char *url;
} tp_sitemap;
typedef struct tp_dir {
    uint32_t line;
    int group; /* -1 NONE */
    const char *key, *val;
} tp_dir;
typedef struct tp_prog {
    int rfc;
    size_t n_rules, n_sets, n_agents, n_groups, n_sitemaps, n_dirs;
    tp_rule rules[40];
    tp_set sets[40];
    tp_agent agents[40]; /* any order */
    int global;          /* set index or -1 */
    tp_group groups[8];
    tp_sitemap sitemaps[4];
    tp_dir dirs[8];
} tp_prog;
uint8_t *tp_build(const tp_prog *p, size_t *size);

/* Hex dump, 16 bytes a line, for docs/FORMAT.md. */
void tb_hexdump(const uint8_t *b, size_t n);

#endif
