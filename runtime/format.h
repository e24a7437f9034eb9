/* SPDX-License-Identifier: Apache-2.0 */
/* The blob format's constants: the single edge from compile time to run
 * time. docs/FORMAT.md is the specification; keep the two in step ("grep
 * FORMAT" when changing either). Only the runtime and the compiler's emitter
 * and dumper include this file. */
#ifndef ROBOTSC_FORMAT_H
#define ROBOTSC_FORMAT_H

#define RSC_MAGIC "\x89RSC"
#define RSC_MAGIC_LEN 4

/* Header offsets: a fixed part, then the varint Total_Size. */
#define RSC_H_MAJOR 4u
#define RSC_H_MINOR 5u
#define RSC_H_FLAGS 6u
#define RSC_H_CHECK 7u
#define RSC_H_TOTAL 11u
#define RSC_HEADER_MIN 12u /* the fixed part and a one-byte Total_Size */

/* Flags bits 0-1, the profile: 0 google, 3 rfc. 1 is an rfc blob of an
 * encoder before RFC 9309's escapes and ranks (FORMAT.md, Version
 * changes): RSC_E_VERSION. 2 is invalid. */
#define RSC_FLAG_PROFILE_RFC 0x03u
#define RSC_FLAG_PROFILE_RFC_OLD 0x01u
#define RSC_FLAGS_KNOWN 0x03u

#define RSC_ADLER_MOD 65521u /* Adler-32 (RFC 1950), over the whole blob */

/* After Total_Size: varint Present, bit Id - 1 set for each section that
 * follows (in Id order, each varint Size >= 1, then its bytes). */

enum rsc_section_id {
    RSC_SEC_STRINGS = 1,
    RSC_SEC_RULES = 2,
    RSC_SEC_PROGRAMS = 3,
    RSC_SEC_SETS = 4,
    RSC_SEC_AGENTS = 5,
    RSC_SEC_GROUPS = 6,
    RSC_SEC_SITEMAPS = 7,
    RSC_SEC_DIRECTIVES = 8,
    RSC_SEC_DFAS = 9,
    RSC_SEC_LAST_KNOWN = 9
};

#define RSC_VARINT_MAX 5u /* bytes of a varint (value < 2^32) */
#define RSC_TAB_MAX_COLS 7u /* STATES with labels */
/* A Table's widths: 2 bits a column (width - 1), four columns a byte. */
#define RSC_TAB_WBYTES(cols) (((cols) + 3u) / 4u)

/* Columns of each table (FORMAT.md). */
#define RSC_RULES_COLS 3      /* Line_Allow, Str_Off, Str_Len */
#define RSC_RULES_COLS_RFC 5  /* ... and Match_Off, Match_Len */
#define RSC_PROGRAMS_COLS 1   /* End */
#define RSC_SETS_COLS 2       /* First, N */
#define RSC_SETLIST_COLS 1    /* Program */
#define RSC_AGENTS_COLS 3     /* Str_Off, Str_Len, Set */
#define RSC_GROUPS_COLS 2     /* Line, First (N: up to the next First) */
#define RSC_GROUPLIST_COLS 1  /* Agent: 0 for '*', else 1 + an AGENTS row */
#define RSC_SITEMAPS_COLS 3   /* Line, Str_Off, Str_Len */
#define RSC_DIRECTIVES_COLS 6 /* Line, Group, Key_Off, Key_Len, Val_Off, Val_Len */
#define RSC_DFAS_COLS 1       /* End: one row a set (FORMAT.md, DFAS)      */

/* A DFA of DFAS (FORMAT.md): its states are records in CODE, a state's code
 * the offset of its record, W bytes (1 or 2); the codes from
 * RSC_DFA_CODES(W) on are the verdicts, allowed, then disallowed. A
 * record's Flags: */
#define RSC_DFA_CODES(w) ((w) == 1 ? 0xfeu : 0xfffeu)
#define RSC_DFA_E 1u /* the path ending here is disallowed               */
#define RSC_DFA_L 2u /* a chain (a label), else an explicit state (keys) */
#define RSC_DFA_F 4u /* falls back: a byte not taken is read again in D   */
/* A record's bytes: Flags, N, Other, then a chain's Next and Lab_Off, or
 * an explicit state's N keys and N targets (codes of w bytes, label
 * offsets of lw). */
#define RSC_DFA_REC_BYTES(flags, n, w, lw) \
    ((flags) & RSC_DFA_L ? 2 + 2 * (w) + (lw) : 2 + (w) + (n) * (1 + (w)))

/* Label_Head = Label_Len << 2 | Kind */
#define RSC_LABEL_SHIFT 2
#define RSC_LABEL_KIND 0x3u
#define RSC_LABEL_INLINE 0u /* the label inline, then Head ...           */
#define RSC_LABEL_REF 1u    /* varint Rep, then Head ...                  */
#define RSC_LEAF_ACCEPT 2u  /* varint Rep: a leaf, Accept = Rep, no more  */
#define RSC_LEAF_END 3u     /* varint Rep: a leaf, End = Rep, no more     */

/* Node Head = Children << 5 | Width << 3 | Has_Root << 2 | Has_End << 1 | Has_Accept */
#define RSC_N_ACCEPT 0x1u
#define RSC_N_END 0x2u
#define RSC_N_ROOT 0x4u
#define RSC_N_WIDTH_SHIFT 3
#define RSC_N_WIDTH_MASK 0x3u
#define RSC_N_CHILD_SHIFT 5
#define RSC_MAX_CHILDREN 256u
#define RSC_MAX_DEPTH 1024u /* nodes on a root-to-leaf chain */

/* The wildcard part of a program (FORMAT.md, "Segments"). */
#define RSC_ROOTS_COLS 2  /* Level, Max */
#define RSC_OUTS_COLS 6   /* Len, Next, Max, Edge, N_Float, N_Anch */
#define RSC_STATES_COLS 5 /* Key, First, N, Fail, Out */
#define RSC_STATES_COLS_LAB 7 /* ... and Lab_Off, Lab_Len (Labels) */
#define RSC_EDGES_COLS 4  /* Parent, Rank, Target, Max */

/* Shape = N_Internal << 2 | Labels << 1 | Chain */
#define RSC_SHAPE_CHAIN 0x1u
#define RSC_SHAPE_LABELS 0x2u
#define RSC_SHAPE_SHIFT 2

/* Zero bytes after the EDGES of a program with root slots: a matcher may
 * load 4 bytes for any column of its four tables. */
#define RSC_PAD 3u

/* Budgets of one program: they bound the matcher's work per path byte and
 * its stack (a rule set over them is compiled into several programs). */
#define RSC_MAX_LEVELS 16   /* root slots on one trie chain               */
#define RSC_MAX_INTERNAL 512 /* internal nodes (a rule with 2+ segments)  */
#define RSC_MAX_CHAIN 16    /* segments that end at one position          */
#define RSC_MAX_INNER 64    /* edges of a segment from internal nodes     */
#define RSC_SCAN_MAX 16     /* a segment's edges scanned, not searched    */

#endif
