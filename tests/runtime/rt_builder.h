/* SPDX-License-Identifier: Apache-2.0 */
/* A hand blob builder for the runtime tests: writes format 4.0 blobs to
 * docs/FORMAT.md as /work/f4spec.md amends it (an 11-byte fixed header with
 * the Adler-32 checksum at 7, then a varint Total_Size and a varint
 * Present mask, each present section a varint Size >= 1 and its bytes in
 * Id order; Tables with packed widths, 2 bits a column; program tries
 * whose labels are inline or point into a rule's match text, leaves of one
 * rank (kinds 2/3), n - 1 Offsets for n children; root slots, and the
 * wildcard tables: ROOTS, OUTS, STATES of an Aho-Corasick automaton over
 * the segments, with or without labels, EDGES). Independent of the
 * compiler: it shares no code with compiler/ and makes its own choices (no
 * pruning, no budgets, no chain form unless a test writes one by hand;
 * optional uncompressed tries and forced widths; every automaton link found
 * by brute force), so a test can build valid blobs the encoder never
 * makes, and damage any of them (poke bytes, then tb_fix_checksum()). */
#ifndef RT_BUILDER_H
#define RT_BUILDER_H

#include <stddef.h>
#include <stdint.h>

/* ---- bytes ------------------------------------------------------------ */

/* A growable byte buffer; {0} is empty. */
typedef struct bb {
    uint8_t *d;
    size_t n, cap;
} bb;
void bb_raw(bb *b, const void *p, size_t n); /* p NULL: n zero bytes */
void bb_str(bb *b, const char *s); /* without its NUL */
void bb_u8(bb *b, uint32_t v);
void bb_un(bb *b, uint32_t v, unsigned w); /* little-endian, w bytes (1..4) */
void bb_varint(bb *b, uint32_t v);         /* canonical LEB128 */
void bb_free(bb *b);

size_t varint_len(uint32_t v);
uint32_t rd32le(const uint8_t *p);
void wr32le(uint8_t *p, uint32_t v);
uint32_t rdnle(const uint8_t *p, unsigned w);
void wrnle(uint8_t *p, uint32_t v, unsigned w);
/* Reads a canonical varint at b[*pos]; no checks (for the tests' own
 * navigation of blobs they built). */
uint32_t rd_varint(const uint8_t *b, size_t *pos);

/* ---- Tables ----------------------------------------------------------- */

/* The smallest width (1..4) that holds v. */
unsigned tb_width(uint32_t v);
/* The bytes of a Table's packed widths: ceil(cols / 4). */
size_t tb_wbytes(unsigned cols);
/* Packs the widths w[0..cols) (1..4; (w - 1) & 3 is stored) into
 * tb_wbytes(cols) bytes at out: column c's width - 1 in the 2 bits at
 * 2 * (c % 4) of byte c / 4, the bits past the last column 0. */
void tb_pack_widths(uint8_t *out, unsigned cols, const uint8_t *w);
/* Appends a Table: varint count, its packed widths (none when count is 0:
 * an empty Table is the single byte 0), count rows of vals (row-major,
 * count * cols values). widths NULL: the smallest width of each column;
 * else the given widths (1..4, not checked: a value that does not fit is
 * cut, and only (w - 1) & 3 is stored). At most 8 columns. */
void tb_table(bb *out, size_t count, unsigned cols, const uint32_t *vals,
              const uint8_t *widths);
/* Reads back the shape of the Table at blob[off]: count, widths (one
 * byte, 1..4, per column; left unset when count is 0), and the offset of
 * row 0 (returned; for an empty Table, just after its Count). */
size_t tb_table_at(const uint8_t *blob, size_t off, unsigned cols, uint32_t *count,
                   uint8_t *widths);
/* Offset of row r, column c of a Table whose shape tb_table_at() read. */
size_t tb_cell(size_t rows, const uint8_t *widths, unsigned cols, uint32_t r, unsigned c);

/* ---- blobs ------------------------------------------------------------ */

/* A section: its Id (1..32; 9..32 are unknown to a 4.0 decoder, which
 * skips them) and content. data NULL or empty: absent (not in Present);
 * TB_SIZE0: present with Size 0 (invalid since 4.0, for the tests). */
typedef struct tb_sec {
    uint32_t id;
    const bb *data;
} tb_sec;
#define TB_SEC(id, data) {(uint32_t)(id), (data)}
extern const bb tb_size0_;
#define TB_SIZE0 (&tb_size0_)

/* Header (Format 5.0: magic, major, minor, flags, Checksum, then the
 * shortest varint Total_Size, counting itself) + body (Present and the
 * sections); the blob is malloc'ed. */
uint8_t *tb_wrap(uint8_t flags, const uint8_t *body, size_t n, size_t *size);
/* The same with Total_Size written in exactly tlen bytes (1..5): longer
 * than needed makes it non-canonical (overlong), which a decoder rejects;
 * aborts when the value does not fit in tlen bytes. */
uint8_t *tb_wrap_tlen(uint8_t flags, const uint8_t *body, size_t n, unsigned tlen,
                      size_t *size);
/* Header + varint Present (a bit for each section given present) + each
 * present section's varint Size and bytes, in increasing Id order (the
 * order given does not matter; an Id twice, or outside 1..32, aborts). */
uint8_t *tb_blob(uint8_t flags, const tb_sec *s, size_t n, size_t *size);
/* Adler-32 (RFC 1950) of p[0..n), the textbook loop (one byte, one modulo
 * at a time): independent of the runtime's blocked one. */
uint32_t tb_adler32(const uint8_t *p, size_t n);
/* Rewrites the Checksum (offset 7): Adler-32 of blob[0..size) with the
 * four Checksum bytes read as zero. */
void tb_fix_checksum(uint8_t *blob, size_t size);
/* Offset of the Present varint: just after Total_Size (12 when Total_Size
 * is one byte, below 128). Reads the blob's Total_Size varint. */
size_t tb_present_at(const uint8_t *blob);
/* Content offset of the section with this Id (0 when absent) and its Size
 * (sec_size nullable). Walks a well-framed blob (Present, then the Sizes). */
size_t tb_section(const uint8_t *blob, size_t size, uint32_t id, size_t *sec_size);

/* ---- programs ---------------------------------------------------------- */

/* A program built node by node: the trie, then its wildcard part (Shape,
 * ROOTS, OUTS, STATES, EDGES), computed from the glob rules given with
 * tt_glob() or set by hand with tt_wild_set(). Node 0 is the root; a
 * child is added after its parent (so indices grow downwards), with its
 * key and label. Keys are emitted in the order the children were added
 * (give them increasing for a valid trie). */
typedef struct tt tt;
tt *tt_new(void);
void tt_free(tt *t);
/* A child with an inline label (Kind 0). */
int tt_child(tt *t, int parent, uint8_t key, const void *label, size_t ll);
/* A child whose label is ll bytes of the match text of rank rep (Kind 1),
 * from the depth where the label starts (the parent's depth + 1). */
int tt_child_ref(tt *t, int parent, uint8_t key, uint32_t rep, size_t ll);
void tt_accept(tt *t, int node, uint32_t rank);
void tt_end(tt *t, int node, uint32_t rank);
/* Leaves of one rank (Label_Head kinds 2 and 3: RSC_LEAF_ACCEPT, RSC_LEAF_END,
 * "varint Rep" and nothing else, the label MatchText(Rep)[d .. d + Label_Len)).
 * A node is *eligible* when it is not the root, has no children, no Slot
 * (no glob, no tt_slot()) and exactly one of Accept and End. Modes, for
 * all nodes (tt_leaf_kinds) or one node (tt_leaf_kind, overriding):
 *   TT_LEAF_AUTO (the default): an eligible node is a leaf of one rank,
 *     as the encoder writes it, when its label can be read from its rank's
 *     match text (tt_texts() gives it, d + Label_Len fits, and the bytes
 *     are the label's: the inline ones, or those of a Ref label's rule);
 *     else it keeps its Kind 0/1 label and a Head;
 *   TT_LEAF_NEVER: Kind 0/1 and a Head (valid too: an encoder would not);
 *   TT_LEAF_ALWAYS: every eligible node a leaf of one rank, whatever its
 *     label (the inline bytes or Ref are dropped: the label is its rank's
 *     text there, maybe past it: for invalid blobs); tt_leaf_kind() with
 *     it on a node that is not eligible aborts at tt_encode(). */
enum { TT_LEAF_AUTO, TT_LEAF_NEVER, TT_LEAF_ALWAYS };
void tt_leaf_kinds(tt *t, int mode);
void tt_leaf_kind(tt *t, int node, int mode);
/* The match texts of the rules, rank r's at mt[r-1] (r in 1..n; the
 * strings must outlive tt_encode()): tt_glob() reads tails there. */
void tt_texts(tt *t, const char *const *mt, uint32_t n);
/* A wildcard rule of rank `rank` whose literal prefix is the node's
 * string: its match text (tt_texts) has a '*' at the node's depth and at
 * least one non-'*' byte after it (a tail of stars only is an Accept:
 * the builder aborts). The node becomes a root slot; the rule's segments
 * go into the wildcard tables (FORMAT.md, Segments), computed naively:
 * slots and internal nodes numbered in the order met (nodes by index,
 * globs in the order given), OUTS by (length, bytes), every link by
 * brute force. */
void tt_glob(tt *t, int node, uint32_t rank);
/* The offsets in STRINGS of the match texts of ranks 1..n (rank r's at
 * off[r-1]; copied): where the labels of a labelled automaton point. */
void tt_strings(tt *t, const uint32_t *off, uint32_t n);
/* Builds the automaton with labels (FORMAT.md, Labels): 0 without (the
 * default); else a state is left out (implicit) when it has one child,
 * Fail the root, no output and no Fail link to it, at most max of them in
 * a row (TT_LABELS_ALL: every one, as an encoder does; a smaller max
 * leaves some of them explicit, which is valid too). The label bytes are
 * those of the segment inside its rule's match text (tt_strings() must
 * have been given). Labels 1 is set whenever the program has states. */
#define TT_LABELS_ALL 0xffffffffu
void tt_labels(tt *t, uint32_t max);
/* Forces the node's Slot (Has_Root) to slot, whether it has globs or not. */
void tt_slot(tt *t, int node, uint32_t slot);
/* Forces a node's Offsets width (1..4); 0: the smallest. A node of 0 or 1
 * child has no Offsets and keeps Width 0 (FORMAT.md 4.0: Width must be 0
 * when Children <= 1), unless w is or'ed with TT_WIDTH_ANY: then its Head
 * gets Width w - 1 all the same, which makes it invalid when w > 1. A leaf
 * of one rank has no Head, so no Width (tt_width is then ignored). */
#define TT_WIDTH_ANY 0x100u
void tt_width(tt *t, int node, unsigned w);
/* Every node with 2 or more children not forced by tt_width() gets Offsets
 * at least w bytes wide, and every column of the wildcard tables at least
 * w bytes (valid: widths need not be the smallest). */
void tt_min_width(tt *t, unsigned w);
size_t tt_count(const tt *t);

/* The wildcard part of a program: Shape (N_Internal << 2 | Labels << 1 |
 * Chain) and the rows of its four Tables, row-major (2, 6, STATES 5 or,
 * with Labels, 7: Key, First, N, Fail, Out, Lab_Off, Lab_Len; and 4
 * values a row). */
enum { TT_ROOTS, TT_OUTS, TT_STATES, TT_EDGES };
#define TT_SHAPE(n_internal, labels, chain)                                   \
    ((uint32_t)(n_internal) << 2 | (uint32_t)(labels) << 1 | (uint32_t)(chain))
#define TT_SHAPE_LABELS 0x2u
#define TT_STATES_COLS_LAB 7
/* The columns of table k (TT_ROOTS ..) of a program of this Shape. */
unsigned tt_cols(uint32_t shape, int k);
typedef struct tt_wild {
    uint32_t shape;
    size_t n[4];
    uint32_t *rows[4];
} tt_wild;
/* The tables tt_encode() computes from the globs (malloc'ed rows). */
void tt_wild_build(tt *t, tt_wild *w);
void tt_wild_free(tt_wild *w);
/* Writes a copy of *w instead of the computed tables; the nodes' Slots
 * are then only those of tt_slot() (tt_glob() is ignored). */
void tt_wild_set(tt *t, const tt_wild *w);

/* Appends the encoded program to out: varint Trie_Size, the trie, Shape,
 * ROOTS, OUTS, STATES, EDGES, and when ROOTS is not empty the padding
 * (RSC_PAD zero bytes). */
void tt_encode(tt *t, bb *out);

/* Where tt_encode() put a node's fields, from the start of the program
 * (its Trie_Size). Absent fields are SIZE_MAX. kind: its Label_Head kind
 * (0 inline, 1 Ref, 2 RSC_LEAF_ACCEPT, 3 RSC_LEAF_END); label: the inline
 * label bytes; rep: the Rep varint (of a Ref label, or of a leaf of one
 * rank: then accept or end is the same varint, and there is no head);
 * slot: the Slot varint; offsets: Offsets[0] (child 1's; n - 1 of them
 * for n children). c is the offset C (just after Offsets: child 0's
 * start; a leaf's end). */
typedef struct tt_pos {
    size_t start, label, rep, head, accept, end, slot, keys, offsets, c, span_end;
    unsigned kind;
} tt_pos;
tt_pos tt_where(const tt *t, int node);
/* Where tt_encode() put the program's parts: the trie (after Trie_Size),
 * Shape, each Table's Count, the padding (where it is or would be), and
 * the program's end. */
typedef struct tt_wpos {
    size_t trie, shape, tab[4], pad, end;
} tt_wpos;
tt_wpos tt_wild_where(const tt *t);

/* ---- whole blobs from rules ------------------------------------------- */

/* A rule: its escaped pattern ('*' wildcards, a final '$' anchors), as
 * stored in RULES (Str_Off, Str_Len). Its match text is the pattern
 * (google) or the pattern normalised as FORMAT.md says (rfc: Match_Off,
 * Match_Len); the tries are built from match texts. */
typedef struct tp_rule {
    uint32_t line;
    int allow;
    const char *pat;
} tp_rule;
typedef struct tp_program {
    size_t n;
    int rules[48]; /* indices into rules[] */
} tp_program;
typedef struct tp_set {
    size_t n;
    int progs[48]; /* indices into progs[] */
} tp_set;
typedef struct tp_agent {
    const char *tok;
    int set;
} tp_agent;
typedef struct tp_group {
    uint32_t line;
    const char *toks[4]; /* "*" (the global agent) or an agents[] token */
} tp_group;
typedef struct tp_sitemap {
    uint32_t line;
    const char *url;
} tp_sitemap;
typedef struct tp_dir {
    uint32_t line;
    int group; /* -1: before any group */
    const char *key, *val;
} tp_dir;
typedef struct tp_prog {
    int rfc;
    size_t n_rules, n_progs, n_sets, n_agents, n_groups, n_sitemaps, n_dirs;
    tp_rule rules[48];
    tp_program progs[48];
    tp_set sets[40];
    tp_agent agents[40]; /* any order: sorted by the builder */
    int global;          /* set index or -1 */
    tp_group groups[8];
    tp_sitemap sitemaps[4];
    tp_dir dirs[8];
    /* Shape options, all valid: */
    int uncompressed; /* one node per byte, no labels */
    unsigned width;   /* columns and Offsets (of 2+ children) at least this wide (1..4); 0: smallest */
    int keep_empty;   /* write empty sections with empty contents (Tables of Count 0;
                       * STRINGS and left-out SETS stay absent) instead of leaving them out */
    int refs;         /* every label as a Ref into a rule's match text (else inline) */
    int keep_sets;    /* write SETS even when set i is program i (else left out) */
    uint32_t labels;  /* automata with labels: tt_labels()'s max (0: none) */
    int no_leaves;    /* no leaves of one rank (TT_LEAF_NEVER; else as the encoder) */
} tp_prog;

/* The blob (malloc'ed). RULES is sorted as FORMAT.md says (rank = row +
 * 1); rank_of (nullable) receives the rank of each rules[i]. Every rule of
 * a program goes into its trie (an empty pattern too: the root's Accept);
 * nothing is pruned; a leaf of exactly one Accept or End and no Slot is a
 * leaf of one rank (Label_Head kind 2 or 3) as the encoder writes it,
 * unless no_leaves. SETS is left out when there are as many sets as
 * programs and set i is program i (unless keep_sets). */
uint8_t *tp_build(const tp_prog *p, size_t *size, uint32_t *rank_of);
/* Fills *p: the n rules in one program, one set, the global set. */
void tp_one(tp_prog *p, size_t n, const tp_rule *rules);
/* The rfc profile's normalisation (FORMAT.md, Matching) of s[0..n) into
 * out (room for 3n bytes); returns its length. */
size_t tp_normalise(const uint8_t *s, size_t n, uint8_t *out);
size_t tp_normalise_path(const uint8_t *s, size_t n, uint8_t *out);

/* Hex dump, 16 bytes a line. */
void tb_hexdump(const uint8_t *b, size_t n);

#endif
