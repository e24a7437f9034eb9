/* SPDX-License-Identifier: Apache-2.0 */
/* An independent reading of docs/FORMAT.md (version 5.0: 4.0 and the DFAS section) for the hostile
 * tests: a verifier, a matcher and a small encoder written from the
 * document, sharing no code with runtime/ or compiler/ (only the public
 * status numbers). The hostile tests use it as an oracle: rsc_load() must
 * give the same status as bs_verify() on every damaged blob, and on an
 * accepted one rsc_match_path() must give the verdict of bs_match(). It
 * also records where every field of a blob lies (bs_field), so that the
 * tests can damage one field at a time.
 *
 * It favours obviousness over speed (the trie walk is recursive, the
 * automaton's children searched one by one). Its matcher follows the
 * pseudo-code of "Matching" (the walk, the one-pass automaton with its
 * Max cut-offs and the implicit states of "Labels", chains as "Chains"
 * says); on a blob whose unverified
 * fields (levels, links, Max values, sort orders) are not those an encoder
 * writes, FORMAT.md leaves the answer open ("safe but wrong"). */
#ifndef RSC_HOSTILE_BLOBSPEC_H
#define RSC_HOSTILE_BLOBSPEC_H

#include <stddef.h>
#include <stdint.h>

/* Header: Magic (4), Format_Major, Format_Minor, Flags, Checksum (u32),
 * then a varint Total_Size (it counts itself) and the varint Present. */
#define BS_MAGIC_LEN 4u
#define BS_H_MAJOR 4u
#define BS_H_MINOR 5u
#define BS_H_FLAGS 6u
#define BS_H_CHECK 7u  /* Checksum */
#define BS_H_TOTAL 11u /* Total_Size, a varint */
#define BS_HEADER_MIN 12u /* the fixed part and a one-byte Total_Size */
#define BS_MAX_CHAIN 1024u /* nodes on a root-to-leaf chain, root included */
#define BS_MAX_INTERNAL 512u /* N_Internal of a program not in chain form */

/* Kinds of recorded fields. */
enum {
    BS_PRESENT,    /* Present (value: the mask of the sections present)   */
    BS_SIZE,       /* section Size (row: its index; aux: its Id)          */
    BS_COUNT,      /* a Table's Count                                     */
    BS_WIDTH,      /* a Table column width (col; value: the width 1..4;
                      row: the column's first bit in the byte at off;
                      aux: the Table's columns)                           */
    BS_CELL,       /* a Table cell (row, col)                             */
    BS_GLOBAL,     /* AGENTS Global                                       */
    BS_LABEL_HEAD, /* node Label_Head (aux: 1 for the root; row: for a
                      Rep label, the room left in its match text)         */
    BS_REP,        /* node label Rep (a rank; aux: the Kind, 1..3)        */
    BS_HEAD,       /* node Head (aux: the node's span end)                */
    BS_ACCEPT,     /* node Accept rank                                    */
    BS_END,        /* node End rank                                       */
    BS_SLOT,       /* node Slot (aux: the ROOTS Count)                    */
    BS_TRIE_SIZE,  /* a program's Trie_Size (aux: room to the program end)*/
    BS_SHAPE,      /* a program's Shape (aux: its ROOTS Count)            */
    BS_PAD,        /* a byte of a program's padding (row: its index)      */
    BS_KEY,        /* one key of a node (row: its index)                  */
    BS_OFFSET,     /* one child offset (row: the child, 1..Children-1;
                      aux: span room, i.e. the span end minus C)          */
    BS_KINDS
};

typedef struct bs_field {
    uint32_t off, len; /* bytes of the blob */
    uint32_t value;    /* the decoded value */
    uint32_t row, aux;
    uint8_t kind, sec, tab, col; /* sec: section id; tab: table of the section
                                    (PROGRAMS: 0 the Ends, 1..4 a program's
                                    ROOTS, OUTS, STATES, EDGES) */
    uint8_t last;      /* BS_CELL/BS_COUNT: the section's last table */
} bs_field;

typedef struct bs_tab {
    uint32_t off, count, row; /* first row; rows; bytes a row */
    uint8_t w[8];             /* at most 7 columns: STATES with Labels */
} bs_tab;

/* The outcome of bs_verify(); the tables are valid only when status is 0. */
typedef struct bs_blob {
    int status; /* an rsc_status number; 0: verified */
    size_t fail_off;
    const char *what;
    uint32_t total, flags, n_sections, last_id;
    uint32_t body, present; /* where Present is, and its value */
    uint32_t sec_off[10], sec_size[10]; /* known sections with content */
    bs_tab rules, progs, sets, slist, agents, groups, glist, sitemaps, dirs, dfas;
    uint32_t dfa_data; /* DFAS Data */
    uint32_t data_off, data_size, global;
    uint32_t n_sets; /* the sets, or the programs when SETS is absent */
    uint32_t nodes, globs, max_prog_nodes, max_chain; /* globs: EDGES rows */
    uint32_t slots, states, chains; /* ROOTS and STATES rows; chain programs */
    uint32_t labelled, lab_states;  /* programs with Labels 1; STATES rows with a
                                       label (Lab_Len > 0) */
    uint32_t leaves; /* one-rank leaves (Label_Head Kind 2 or 3) */
    bs_field *fields; /* recorded when asked */
    size_t n_fields, cap_fields;
} bs_blob;

/* Verifies b[0..n) by the rules of FORMAT.md "Verification", in its order.
 * record: also fill x->fields (valid up to where verification stopped).
 * Returns x->status. Free with bs_free(). */
int bs_verify(const uint8_t *b, size_t n, bs_blob *x, int record);
void bs_free(bs_blob *x);

uint32_t bs_cell(const uint8_t *b, const bs_tab *t, uint32_t row, unsigned col);

/* FORMAT.md "Checksum": writes the Checksum (Adler-32 with the field read
 * as zero) of b[0..n) (Total_Size read from the header when it is a
 * varint below n, else n). No-op when n < 11. */
void bs_checksum(uint8_t *b, size_t n);

/* FORMAT.md "Matching" for a path (rsc_match_path): agents[0..n_agents).
 * Returns 0, or -1 when the selection would exceed 32 sets or agents. */
typedef struct bs_verdict {
    int allowed, decided;
    uint32_t line, priority, rank;
} bs_verdict;
int bs_match(const uint8_t *b, const bs_blob *x, const char *const *agents, const size_t *agent_lens,
             size_t n_agents, const char *path, size_t plen, bs_verdict *v);

/* A growable output buffer and the pieces of a blob. */
typedef struct bs_out {
    uint8_t *p;
    size_t n, cap;
    uint32_t present; /* bs_begin .. bs_finish: the sections added */
} bs_out;
void bs_put(bs_out *o, const void *s, size_t n);
void bs_u8(bs_out *o, uint8_t c);
void bs_varint(bs_out *o, uint32_t v);
size_t bs_varint_len(uint32_t v);
/* The little-endian n-byte integer v (n 1..4). */
void bs_uint(bs_out *o, uint32_t v, unsigned n);
/* A Table: cols columns (at most 8) of the given widths (1..4, one a
 * column; written packed), count rows of cells[r*cols+c] (no widths when
 * count is 0). */
void bs_table(bs_out *o, unsigned cols, const uint8_t *widths, uint32_t count, const uint32_t *cells);
/* Starts a blob (o holds the sections until bs_finish), appends section
 * id (`varint Size, content`; ids in increasing order, the caller's
 * care; a Size 0 is written as given), and finishes it: the header
 * (format 5.0, flags, Checksum, the shortest Total_Size), Present, then
 * the sections. */
void bs_begin(bs_out *o);
void bs_section(bs_out *o, uint32_t id, const bs_out *content);
void bs_finish(bs_out *o, uint16_t flags);
/* Rewrites the varint Total_Size of b[0..n) (the old one: up to its last
 * byte, at most 5) as the shortest that holds the new size, moving the
 * rest; returns the new size (0 when over cap). The checksum is not
 * updated. */
size_t bs_set_total(uint8_t *b, size_t n, size_t cap);
void bs_out_free(bs_out *o);

uint32_t bs_rd32(const uint8_t *p);
void bs_wr32(uint8_t *p, uint32_t v);

#endif
