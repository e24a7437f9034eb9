/* SPDX-License-Identifier: Apache-2.0 */
/* An independent reader and checker of docs/FORMAT.md version 5.0 blobs
 * (4.0's, plus the DFAS section, checked for structure and range)
 * (the 3.1 document and the changes of format 4.0: a 12-byte header with a
 * varint Total_Size, a Present mask instead of section Tags, packed Table
 * widths, one-rank leaves, no Offsets[0]), for the back-end tests. It
 * shares no code with the compiler or the runtime: it reads the bytes as
 * the document describes them and checks
 *  - every rule a decoder checks (Verification 1-15), and
 *  - what a compliant encoder promises on top: canonical varints (also in
 *    the header fields the decoder reads: the shortest Total_Size), the
 *    smallest width for every Table column and node Offsets, empty
 *    sections omitted (no Present bit), SETS only when some set is not the
 *    program of the same index, Format_Minor 0, no unknown section, in rfc
 *    blobs a match text that is the normalised pattern, groups in file
 *    order with at least one agent, a trie node only where a pattern ends
 *    or two part, no key or label byte '*' (a node's string is a literal
 *    prefix), every leaf with exactly one of Accept and End and no Slot
 *    written as a one-rank leaf (Kind 2 or 3), every other label pointed
 *    into the match text of a rule whose pattern passes through the node
 *    and only when that is shorter than the label (Label_Len > the Rep's
 *    varint; an inline label no longer than the varint of some rank below
 *    the node),
 *    and the wildcard part exactly as "Segments" defines it: every Slot
 *    used by one node, Level the slots above it (under 16), a tree of
 *    edges (shared by rules with the same slot and leading segments, every
 *    internal node reached by one floating edge and going on), each ranked
 *    edge the segments of its rule's match text after the slot's string,
 *    Max on every edge, row and slot the best rank below, OUTS the distinct
 *    segments by length with their Next links, STATES the Aho-Corasick
 *    automaton of the segments in breadth-first order with its failure and
 *    output links (with Labels, the automaton those rows and their labels
 *    spell out: its implicit states exactly those the Labels rule makes
 *    implicit, every label inside a segment of a rule's match text in
 *    STRINGS, Lab_Off 0 for an empty label; Labels 1 exactly when some
 *    state is implicit and that makes STATES smaller), the budgets (512
 *    internal nodes, 64 edges of a segment from internal nodes, 16
 *    segments ending together), or the chain form (one rule over those
 *    budgets on its own: one Knuth-Morris-Pratt line a segment, Labels
 *    0); and (when asked) no Accept,
 *    End or wildcard rule whose rank is not above the best Accept on the
 *    way from the root (pruning).
 * It also interprets "Matching" on its own: the walk down the trie, then
 * the greedy leftmost placement of the segments as "Segments" defines it
 * (a plain search per edge, not the automaton), so that it can disagree
 * with the runtime's one-pass automaton.
 *
 * Programs point into the rules' match texts, and automaton labels into
 * STRINGS, so checking or walking one needs them: a bc_texts, read from a
 * blob's RULES and STRINGS (bc_blob_texts) or made by the caller
 * (bc_texts_add, then bc_texts_pool for a STRINGS) for a program that is
 * not in a blob yet.
 *
 * Header-only (static inline), so that each test program takes what it
 * needs. On failure the functions return 0 and leave a message in the
 * caller's error buffer. */
#ifndef RSC_BLOBCHECK_H
#define RSC_BLOBCHECK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    BC_STRINGS = 1,
    BC_RULES,
    BC_PROGRAMS,
    BC_SETS,
    BC_AGENTS,
    BC_GROUPS,
    BC_SITEMAPS,
    BC_DIRECTIVES,
    BC_DFAS,
    BC_N_SECTIONS = 10
};

enum { BC_ACCEPT = 1, BC_END = 2, BC_GLOB = 3 };

/* Header: Magic (4), Format_Major, Format_Minor, Flags, Checksum (u32),
 * then the varint Total_Size (it counts itself). */
#define BC_MAGIC "\x89RSC"
#define BC_H_MAJOR 4u
#define BC_H_MINOR 5u
#define BC_H_FLAGS 6u
#define BC_H_CHECK 7u
#define BC_H_TOTAL 11u
#define BC_HEADER_MIN 12u
#define BC_MAX_DEPTH 1024u
#define BC_MAX_CHILDREN 256u

typedef struct bc_err {
    char msg[256];
} bc_err;

static inline int bc_fail(bc_err *e, const char *fmt, ...)
{
    if (e && !e->msg[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return 0;
}

static inline void *bc_alloc(size_t n)
{
    void *q = malloc(n ? n : 1);
    if (!q) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return q;
}

static inline uint32_t bc_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint32_t bc_rdn(const uint8_t *p, unsigned w)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < w; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

/* The smallest width (1..4) that holds v. */
static inline unsigned bc_width(uint32_t v)
{
    return v <= 0xFFu ? 1 : v <= 0xFFFFu ? 2 : v <= 0xFFFFFFu ? 3 : 4;
}

/* Bytes of the canonical varint of v. */
static inline unsigned bc_varint_size(uint32_t v)
{
    unsigned n = 1;
    for (; v >= 0x80u; v >>= 7)
        n++;
    return n;
}

/* A canonical LEB128 varint inside [*pp, end), value < 2^32. */
static inline int bc_varint(const uint8_t **pp, const uint8_t *end, uint32_t *v)
{
    const uint8_t *p = *pp;
    uint64_t r = 0;
    for (unsigned i = 0; i < 5; i++) {
        if (p >= end)
            return 0;
        uint8_t b = *p++;
        r |= (uint64_t)(b & 0x7fu) << (7 * i);
        if (!(b & 0x80u)) {
            if ((i > 0 && b == 0) || r > UINT32_MAX)
                return 0;
            *pp = p;
            *v = (uint32_t)r;
            return 1;
        }
    }
    return 0;
}

/* FORMAT.md "Matching", rfc profile: s[0..n) normalised into out (room:
 * 3n bytes); a path's '*' and '$' as %2A and %24, a pattern's '*' kept and
 * its '$' too when last (the anchor), else as %24. Returns the length. */
static inline size_t bc_rfc_norm_as(const uint8_t *s, size_t n, uint8_t *out, int path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        int h = -1, l = -1;
        if (c == '%' && n - i > 2) {
            for (int k = 0; k < 2; k++) {
                uint8_t d = s[i + 1 + (size_t)k];
                int v = d >= '0' && d <= '9' ? d - '0' : d >= 'a' && d <= 'f' ? d - 'a' + 10
                      : d >= 'A' && d <= 'F' ? d - 'A' + 10 : -1;
                if (k == 0)
                    h = v;
                else
                    l = v;
            }
        }
        if (h >= 0 && l >= 0) {
            int v = h * 16 + l;
            if ((v >= 'a' && v <= 'z') || (v >= 'A' && v <= 'Z') || (v >= '0' && v <= '9') ||
                v == '-' || v == '.' || v == '_' || v == '~') {
                out[o++] = (uint8_t)v;
            } else {
                out[o++] = '%', out[o++] = (uint8_t)hex[h], out[o++] = (uint8_t)hex[l];
            }
            i += 2;
        } else if (c >= 0x80 || (c == '*' && path) || (c == '$' && (path || i + 1 < n)) || c == '%') {
            /* (a '%' without two hex digits is the octet '%': %25) */
            out[o++] = '%', out[o++] = (uint8_t)hex[c >> 4], out[o++] = (uint8_t)hex[c & 15];
        } else {
            out[o++] = c;
        }
    }
    return o;
}

static inline size_t bc_rfc_norm(const uint8_t *s, size_t n, uint8_t *out) /* a path */
{
    return bc_rfc_norm_as(s, n, out, 1);
}

/* ---- match texts --------------------------------------------------------- */

/* The match text of every rank 1..n: p[r-1][0..len[r-1]). An automaton's
 * labels (FORMAT.md, Labels) point into STRINGS: str[0..str_size), where
 * rank r's text is at off[r-1] (BC_NOWHERE: not there). */
#define BC_NOWHERE UINT32_MAX
typedef struct bc_texts {
    uint32_t n;
    const uint8_t **p;
    uint32_t *len;
    uint8_t **own; /* copies made by bc_texts_add, freed with the texts */
    size_t n_own;
    const uint8_t *str; /* STRINGS (NULL: none known) */
    uint32_t str_size;
    uint32_t *off;
    uint8_t *str_own; /* made by bc_texts_pool */
} bc_texts;

/* n ranks, every text empty until set. */
static inline void bc_texts_init(bc_texts *t, uint32_t n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    t->p = bc_alloc(((size_t)n + 1) * sizeof *t->p);
    t->len = bc_alloc(((size_t)n + 1) * sizeof *t->len);
    t->own = bc_alloc(((size_t)n + 1) * sizeof *t->own);
    t->off = bc_alloc(((size_t)n + 1) * sizeof *t->off);
    for (uint32_t i = 0; i < n; i++)
        t->p[i] = NULL, t->len[i] = 0, t->off[i] = BC_NOWHERE; /* NULL: empty */
}

/* Rank r's text: a copy of s[0..n), followed by a '$' when dollar. The
 * first text given for a rank stays. */
static inline void bc_texts_add(bc_texts *t, uint32_t r, const void *s, size_t n, int dollar)
{
    if (r < 1 || r > t->n || t->p[r - 1])
        return;
    uint8_t *q = bc_alloc(n + 1);
    if (n)
        memcpy(q, s, n);
    if (dollar)
        q[n++] = '$';
    t->own[t->n_own++] = q;
    t->p[r - 1] = q;
    t->len[r - 1] = (uint32_t)n;
}

/* Rank r's text (r in 1..n), *len its length. */
static inline const uint8_t *bc_text(const bc_texts *t, uint32_t r, uint32_t *len)
{
    *len = t->len[r - 1];
    return t->p[r - 1] ? t->p[r - 1] : (const uint8_t *)"";
}

/* A STRINGS for texts made by bc_texts_add (a program not in a blob yet):
 * the texts one after the other in rank order, each at off[r-1]. An
 * encoder given these offsets (rsc_tpat.moff) points its labels there. */
static inline void bc_texts_pool(bc_texts *t)
{
    size_t total = 0;
    for (uint32_t i = 0; i < t->n; i++)
        total += t->p[i] ? t->len[i] : 0;
    free(t->str_own);
    t->str_own = bc_alloc(total);
    total = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        t->off[i] = t->p[i] ? (uint32_t)total : BC_NOWHERE;
        if (t->p[i] && t->len[i])
            memcpy(t->str_own + total, t->p[i], t->len[i]);
        total += t->p[i] ? t->len[i] : 0;
    }
    t->str = t->str_own;
    t->str_size = (uint32_t)total;
}

static inline void bc_texts_free(bc_texts *t)
{
    for (size_t i = 0; i < t->n_own; i++)
        free(t->own[i]);
    free(t->own);
    free(t->p);
    free(t->len);
    free(t->off);
    free(t->str_own);
    memset(t, 0, sizeof *t);
}

/* ---- blob, sections, tables ---------------------------------------------- */

typedef struct bc_blob {
    const uint8_t *p;
    size_t n;
    int rfc;
    uint32_t present;  /* the Present mask */
    size_t body;       /* where Present is: after Total_Size */
    const uint8_t *sec[BC_N_SECTIONS]; /* content of section id; NULL: absent */
    uint32_t sec_size[BC_N_SECTIONS];
} bc_blob;

/* FORMAT.md "Checksum": Adler-32 of p[0..n) with the Checksum's bytes 7..10
 * read as 0. */
static inline uint32_t bc_checksum(const uint8_t *p, size_t n)
{
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + (i >= BC_H_CHECK && i < BC_H_CHECK + 4 ? 0u : p[i])) % 65521u;
        b = (b + a) % 65521u;
    }
    return b << 16 | a;
}

/* The framing of a blob whose header was read: Total_Size at BC_H_TOTAL
 * (== n), then varint Present and, for each bit set in Id order, varint
 * Size >= 1 and the section's bytes, the last ending at n. Sections of an
 * unknown Id (over 8) are skipped; with strict (an encoder's blob), they,
 * and a Total_Size or Present varint longer than needed, are failures.
 * Fills b->present, b->body, b->sec, b->sec_size. */
static inline int bc_frame(bc_blob *b, int strict, bc_err *e)
{
    const uint8_t *p = b->p, *q = b->p + BC_H_TOTAL, *end = b->p + b->n;
    uint32_t total;
    if (!bc_varint(&q, end, &total))
        return bc_fail(e, "Total_Size: not a canonical varint");
    if (total != b->n)
        return bc_fail(e, "Total_Size %u, blob %zu bytes", total, b->n);
    b->body = (size_t)(q - p);
    if (!bc_varint(&q, end, &b->present))
        return bc_fail(e, "Present at %zu: not a canonical varint", b->body);
    if (strict && b->present >> (BC_N_SECTIONS - 1))
        return bc_fail(e, "Present %#x: a section of an unknown Id (an encoder writes none)", b->present);
    for (uint32_t id = 1; id <= 32; id++) {
        if (!(b->present >> (id - 1) & 1u))
            continue;
        uint32_t size;
        size_t at = (size_t)(q - p);
        if (!bc_varint(&q, end, &size))
            return bc_fail(e, "section %u at %zu: bad Size varint", id, at);
        if (size == 0)
            return bc_fail(e, "section %u at %zu: present with Size 0", id, at);
        if (size > (size_t)(end - q))
            return bc_fail(e, "section %u at %zu: size %u past the end", id, at, size);
        if (id < BC_N_SECTIONS)
            b->sec[id] = q, b->sec_size[id] = size;
        q += size;
    }
    if (q != end)
        return bc_fail(e, "sections end at %zu, Total_Size %zu", (size_t)(q - p), b->n);
    return 1;
}

/* Header and section framing (Verification 1-8, plus the encoder's own
 * rules: minor 0, no empty or unknown sections). */
static inline int bc_open(bc_blob *b, const void *data, size_t n, bc_err *e)
{
    memset(b, 0, sizeof *b);
    b->p = data;
    b->n = n;
    const uint8_t *p = data;
    if (!p || n < BC_HEADER_MIN)
        return bc_fail(e, "blob of %zu bytes: shorter than the header", n);
    if (memcmp(p, BC_MAGIC, 4) != 0)
        return bc_fail(e, "bad magic");
    if (p[BC_H_MAJOR] != 5 || p[BC_H_MINOR] != 0)
        return bc_fail(e, "format %u.%u, want 5.0", p[BC_H_MAJOR], p[BC_H_MINOR]);
    /* Flags bits 0-1 the profile: 0 google, 3 rfc (1, an older rfc blob,
     * and 2 are rejected) */
    if (p[BC_H_FLAGS] != 0 && p[BC_H_FLAGS] != 3)
        return bc_fail(e, "flags %#x: neither google (0) nor rfc (3)", p[BC_H_FLAGS]);
    b->rfc = p[BC_H_FLAGS] == 3;
    if (!bc_frame(b, 1, e))
        return 0;
    uint32_t ck = bc_checksum(p, n);
    if (ck != bc_rd32(p + BC_H_CHECK))
        return bc_fail(e, "checksum %08X, computed %08X", bc_rd32(p + BC_H_CHECK), ck);
    return 1;
}

typedef struct bc_table {
    uint32_t count;
    unsigned cols, w[8];
    const uint8_t *rows;
    size_t row_size;
} bc_table;

static inline uint32_t bc_cell(const bc_table *t, uint32_t r, unsigned c)
{
    const uint8_t *p = t->rows + (size_t)r * t->row_size;
    for (unsigned k = 0; k < c; k++)
        p += t->w[k];
    return bc_rdn(p, t->w[c]);
}

/* Bytes of a Table's packed widths: 2 bits a column, four a byte. */
static inline unsigned bc_wbytes(unsigned cols)
{
    return (cols + 3) / 4;
}

/* A Table at *pp (FORMAT.md "Conventions"), as a decoder reads it: no
 * widths when Count is 0; else ceil(cols/4) bytes of packed widths
 * (column c's width - 1 in 2 bits at bit 2*(c%4) of byte c/4, the bits
 * past the last column 0), then the rows. */
static inline int bc_read_table_any(const uint8_t **pp, const uint8_t *end, unsigned cols, bc_table *t,
                                    const char *what, bc_err *e)
{
    memset(t, 0, sizeof *t);
    t->cols = cols;
    if (!bc_varint(pp, end, &t->count))
        return bc_fail(e, "%s: bad Count", what);
    t->rows = *pp;
    if (t->count == 0)
        return 1;
    const unsigned nw = bc_wbytes(cols);
    if ((size_t)(end - *pp) < nw)
        return bc_fail(e, "%s: widths past the end", what);
    const uint8_t *wb = *pp;
    if (cols % 4 && wb[nw - 1] >> (2 * (cols % 4)))
        return bc_fail(e, "%s: width bits past the %u columns (%#x)", what, cols, wb[nw - 1]);
    for (unsigned c = 0; c < cols; c++) {
        t->w[c] = ((wb[c / 4] >> (2 * (c % 4))) & 3u) + 1;
        t->row_size += t->w[c];
    }
    *pp += nw;
    if ((size_t)(end - *pp) / t->row_size < t->count)
        return bc_fail(e, "%s: %u rows past the end", what, t->count);
    t->rows = *pp;
    *pp += (size_t)t->count * t->row_size;
    return 1;
}

/* A Table at *pp (bc_read_table_any), each width, as the encoder
 * promises, the smallest that holds its column's largest value. */
static inline int bc_read_table(const uint8_t **pp, const uint8_t *end, unsigned cols, bc_table *t,
                                const char *what, bc_err *e)
{
    if (!bc_read_table_any(pp, end, cols, t, what, e))
        return 0;
    for (unsigned c = 0; c < cols && t->count; c++) {
        uint32_t mx = 0;
        for (uint32_t r = 0; r < t->count; r++) {
            uint32_t v = bc_cell(t, r, c);
            mx = v > mx ? v : mx;
        }
        if (bc_width(mx) != t->w[c])
            return bc_fail(e, "%s: column %u width %u, largest value %u needs %u", what, c,
                           t->w[c], mx, bc_width(mx));
    }
    return 1;
}

/* Section id's content as [*p, *end) (both NULL when absent). */
static inline void bc_section(const bc_blob *b, unsigned id, const uint8_t **p, const uint8_t **end)
{
    *p = b->sec[id];
    *end = b->sec[id] ? b->sec[id] + b->sec_size[id] : NULL;
}

/* Columns of RULES and where the match text is: Str (google), Match (rfc). */
static inline unsigned bc_rules_cols(const bc_blob *b)
{
    return b->rfc ? 5 : 3;
}

/* A string reference inside STRINGS. */
static inline int bc_strref(const bc_blob *b, uint32_t off, uint32_t len)
{
    uint32_t sz = b->sec_size[BC_STRINGS];
    return off <= sz && len <= sz - off;
}

/* The match texts of an opened blob's RULES (checked by the caller: the
 * string references must be valid). */
static inline void bc_blob_texts(const bc_blob *b, const bc_table *rules, bc_texts *t)
{
    unsigned col = b->rfc ? 3 : 1;
    bc_texts_init(t, rules->count);
    t->str = b->sec[BC_STRINGS] ? b->sec[BC_STRINGS] : (const uint8_t *)"";
    t->str_size = b->sec_size[BC_STRINGS];
    for (uint32_t r = 0; r < rules->count; r++) {
        uint32_t off = bc_cell(rules, r, col), len = bc_cell(rules, r, col + 1);
        if (bc_strref(b, off, len)) {
            t->p[r] = b->sec[BC_STRINGS] ? b->sec[BC_STRINGS] + off : (const uint8_t *)"";
            t->len[r] = len;
            t->off[r] = off;
        }
    }
}

/* ---- programs ------------------------------------------------------------ */

/* Budgets of one program (FORMAT.md, PROGRAMS and Limits; the compiler's
 * RSC_MAX_LEVELS, RSC_MAX_INTERNAL, RSC_MAX_CHAIN, RSC_MAX_INNER). */
#define BC_MAX_LEVELS 16u
#define BC_MAX_INTERNAL 512u
#define BC_MAX_OUTCHAIN 16u
#define BC_MAX_INNER 64u /* edges of one segment and kind whose parent is internal */

/* Label_Head = Label_Len << 2 | Kind */
enum { BC_LABEL_INLINE, BC_LABEL_REF, BC_LEAF_ACCEPT, BC_LEAF_END };

/* One node, parsed from its span [at, end) of program pg; its label
 * starts at string depth d. A one-rank leaf (Kind 2, 3) reads as a node
 * whose Head has Has_Accept or Has_End alone, with that rank the Rep. */
typedef struct bc_node {
    uint32_t label_head, label_len, rep, head, accept, end, n, w, slot;
    uint32_t kind;           /* Label_Head & 3 */
    int ref;                 /* the label points into MatchText(rep) (Kind 1-3) */
    int has_root;            /* Has_Root: slot is a ROOTS row */
    uint32_t depth;          /* the length of the node's string */
    const uint8_t *label;
    const uint8_t *keys, *offs; /* Keys; Offsets of children 1..n-1 */
    size_t c; /* offset (in pg) of C: child 0, and where the Offsets count from */
} bc_node;

static inline int bc_parse_node(const uint8_t *pg, size_t at, size_t end, uint32_t d,
                                const bc_texts *tx, bc_node *x, bc_err *e)
{
    const uint8_t *p = pg + at, *q = pg + end;
    memset(x, 0, sizeof *x);
    if (at >= end)
        return bc_fail(e, "node @%zu: empty span", at);
    if (!bc_varint(&p, q, &x->label_head))
        return bc_fail(e, "node @%zu: bad Label_Head", at);
    x->label_len = x->label_head >> 2;
    x->kind = x->label_head & 3u;
    x->ref = x->kind != BC_LABEL_INLINE;
    if (x->ref) {
        uint32_t ml;
        if (!bc_varint(&p, q, &x->rep) || x->rep < 1 || x->rep > tx->n)
            return bc_fail(e, "node @%zu: bad Rep %u (ranks 1..%u)", at, x->rep, tx->n);
        const uint8_t *t = bc_text(tx, x->rep, &ml);
        if (d > ml || x->label_len > ml - d)
            return bc_fail(e, "node @%zu: label [%u, +%u) outside Rep %u's match text (%u bytes)",
                           at, d, x->label_len, x->rep, ml);
        x->label = t + d;
    } else {
        if (x->label_len > (size_t)(q - p))
            return bc_fail(e, "node @%zu: Label past the span", at);
        x->label = p;
        p += x->label_len;
    }
    if ((uint64_t)d + x->label_len > UINT32_MAX)
        return bc_fail(e, "node @%zu: string too long", at);
    x->depth = d + x->label_len;
    if (x->kind >= BC_LEAF_ACCEPT) { /* a leaf of one rank: nothing follows its Rep */
        if (x->kind == BC_LEAF_ACCEPT)
            x->head = 1u, x->accept = x->rep;
        else
            x->head = 2u, x->end = x->rep;
        x->w = 1;
        x->keys = x->offs = p;
        x->c = (size_t)(p - pg);
        return 1;
    }
    if (!bc_varint(&p, q, &x->head))
        return bc_fail(e, "node @%zu: bad Head", at);
    if ((x->head & 1u) && !bc_varint(&p, q, &x->accept))
        return bc_fail(e, "node @%zu: bad Accept", at);
    if ((x->head & 2u) && !bc_varint(&p, q, &x->end))
        return bc_fail(e, "node @%zu: bad End", at);
    if (x->head & 4u) {
        x->has_root = 1;
        if (!bc_varint(&p, q, &x->slot))
            return bc_fail(e, "node @%zu: bad Slot", at);
    }
    x->n = x->head >> 5;
    x->w = ((x->head >> 3) & 3u) + 1;
    if (x->n > BC_MAX_CHILDREN)
        return bc_fail(e, "node @%zu: %u children", at, x->n);
    if (x->n <= 1 && x->w != 1)
        return bc_fail(e, "node @%zu: %u child(ren) but Width %u", at, x->n, x->w - 1);
    size_t noff = x->n ? x->n - 1 : 0; /* child 0 has no Offset */
    if ((size_t)x->n + noff * x->w > (size_t)(q - p))
        return bc_fail(e, "node @%zu: Keys/Offsets past the span", at);
    x->keys = p;
    p += x->n;
    x->offs = p;
    p += noff * x->w;
    x->c = (size_t)(p - pg);
    return 1;
}

/* Child k's offset from C: 0 for child 0, else Offsets[k - 1]. */
static inline uint32_t bc_child_off(const bc_node *x, uint32_t k)
{
    return k ? bc_rdn(x->offs + (size_t)(k - 1) * x->w, x->w) : 0;
}

/* Child k's span. Checked by the caller through bc_check_program. */
static inline void bc_child_span(const bc_node *x, uint32_t k, size_t end, size_t *cs, size_t *ce)
{
    *cs = x->c + bc_child_off(x, k);
    *ce = k + 1 < x->n ? x->c + bc_child_off(x, k + 1) : end;
}

/* The wildcard part of a program as FORMAT.md lays it out after the trie:
 * Shape (N_Internal << 2 | Labels << 1 | Chain) and the four Tables. */
typedef struct bc_wild {
    uint32_t shape, nint;
    int chain, labels;
    bc_table roots, outs, states, edges;
} bc_wild;

enum { BC_R_LEVEL, BC_R_MAX };
enum { BC_O_LEN, BC_O_NEXT, BC_O_MAX, BC_O_EDGE, BC_O_NFLOAT, BC_O_NANCH };
enum { BC_S_KEY, BC_S_FIRST, BC_S_N, BC_S_FAIL, BC_S_OUT, BC_S_LABOFF, BC_S_LABLEN };
enum { BC_E_PARENT, BC_E_RANK, BC_E_TARGET, BC_E_MAX };

/* Splits program pg[0..size) into its trie (*tsize bytes from *trie) and
 * its wildcard part; checks the Tables' framing (Verification 10, and the
 * encoder's smallest widths) and that they end the program (with the 3
 * zero bytes of Pad when ROOTS is not empty). */
static inline int bc_split_program(const uint8_t *pg, size_t size, const uint8_t **trie,
                                   uint32_t *tsize, bc_wild *w, bc_err *e)
{
    const uint8_t *p = pg, *end = pg + size;
    memset(w, 0, sizeof *w);
    if (!bc_varint(&p, end, tsize) || *tsize < 1 || *tsize > (size_t)(end - p))
        return bc_fail(e, "bad Trie_Size");
    *trie = p;
    p += *tsize;
    if (!bc_varint(&p, end, &w->shape))
        return bc_fail(e, "bad Shape");
    w->nint = w->shape >> 2;
    w->chain = (int)(w->shape & 1u);
    w->labels = (int)(w->shape >> 1 & 1u);
    if (!bc_read_table(&p, end, 2, &w->roots, "ROOTS", e) ||
        !bc_read_table(&p, end, 6, &w->outs, "OUTS", e) ||
        !bc_read_table(&p, end, w->labels ? 7 : 5, &w->states, "STATES", e) ||
        !bc_read_table(&p, end, 4, &w->edges, "EDGES", e))
        return 0;
    if (w->roots.count) { /* Pad[3]: zeros, when ROOTS is not empty */
        if ((size_t)(end - p) < 3 || p[0] || p[1] || p[2])
            return bc_fail(e, "no 3 zero bytes of padding after EDGES");
        p += 3;
    }
    if (p != end)
        return bc_fail(e, "%zu bytes after EDGES%s", (size_t)(end - p),
                       w->roots.count ? " and its padding" : "");
    return 1;
}

/* The segments of a wildcard tail t[0..tl) (from its first '*'):
 * the maximal runs of non-'*' bytes; *nseg receives their number, and when
 * a is not NULL a[i], l[i] their starts and lengths. */
static inline void bc_tail_segments(const uint8_t *t, size_t tl, uint32_t *nseg, uint32_t *a,
                                    uint32_t *l)
{
    uint32_t k = 0;
    for (size_t i = 0; i < tl;) {
        if (t[i] == '*') {
            i++;
            continue;
        }
        size_t s = i;
        while (i < tl && t[i] != '*')
            i++;
        if (a)
            a[k] = (uint32_t)s, l[k] = (uint32_t)(i - s);
        k++;
    }
    *nseg = k;
}

/* The earliest j >= from with p[j .. j+m) == s[0..m), or SIZE_MAX. */
static inline size_t bc_find(const uint8_t *p, size_t n, size_t from, const uint8_t *s, size_t m)
{
    if (m == 0)
        return from <= n ? from : SIZE_MAX;
    for (size_t j = from; j < n && n - j >= m; j++) {
        const uint8_t *q = memchr(p + j, s[0], n - j - m + 1);
        if (!q)
            return SIZE_MAX;
        j = (size_t)(q - p);
        if (memcmp(q, s, m) == 0)
            return j;
    }
    return SIZE_MAX;
}

/* The segment tree and the automaton of a program, decoded: what the
 * checks and the matcher below work on. Made by bc_decode_wild_tx from a
 * program whose Tables were read. */
typedef struct bc_seg {
    uint32_t nrow;     /* OUTS rows */
    uint8_t *bytes;    /* row r's segment: bytes[off[r] .. off[r] + len[r]) */
    size_t *off;
    uint32_t *len;
    uint32_t nedge;
    uint32_t *e_row;   /* OUTS row of each edge */
    uint8_t *e_anch;   /* anchored */
    uint32_t *in_edge; /* per internal node: the edge whose Target it is */
    /* The whole automaton, every position of the trie of the segments a
     * state (5 columns: Key, First, N, Fail, Out): the program's STATES,
     * or with Labels those rows and the implicit states between them. */
    bc_table states;
    uint8_t *states_own; /* its rows when made here */
    uint32_t *row;       /* Labels: a state's STATES row, BC_NOWHERE when implicit */
    uint32_t n_implicit; /* the states that FORMAT.md's Labels rule makes implicit */
} bc_seg;

static inline void bc_seg_free(bc_seg *s)
{
    free(s->bytes);
    free(s->off);
    free(s->len);
    free(s->e_row);
    free(s->e_anch);
    free(s->in_edge);
    free(s->states_own);
    free(s->row);
    memset(s, 0, sizeof *s);
}

/* An edge's segment. */
static inline const uint8_t *bc_edge_seg(const bc_seg *s, uint32_t edge, uint32_t *len)
{
    uint32_t r = s->e_row[edge];
    *len = s->len[r];
    return s->bytes + s->off[r];
}

/* Bytes of a Table of count rows whose columns hold at most mx[0..cols),
 * each in its smallest width (FORMAT.md, Conventions). */
static inline uint64_t bc_table_bytes(uint32_t count, unsigned cols, const uint32_t *mx)
{
    uint64_t row = 0;
    for (unsigned c = 0; c < cols; c++)
        row += bc_width(mx[c]);
    return bc_varint_size(count) + (count ? bc_wbytes(cols) + (uint64_t)count * row : 0);
}

/* Where the segments of the rules' match texts lie in STRINGS (FORMAT.md,
 * Labels: "the label bytes are those of a segment, inside a rule's match
 * text in STRINGS"): n occurrences at at[i], len[i] bytes. The caller
 * frees at and len. */
typedef struct bc_occ {
    uint32_t n, *at, *len;
} bc_occ;

static inline void bc_segment_occurrences(const bc_texts *tx, bc_occ *o)
{
    size_t cap = 16;
    o->n = 0;
    o->at = bc_alloc(cap * sizeof *o->at);
    o->len = bc_alloc(cap * sizeof *o->len);
    for (uint32_t r = 1; tx->p && tx->off && r <= tx->n; r++) {
        uint32_t ml;
        const uint8_t *t = bc_text(tx, r, &ml);
        const uint8_t *star = ml ? memchr(t, '*', ml) : NULL;
        if (!star || tx->off[r - 1] == BC_NOWHERE)
            continue;
        uint32_t s0 = (uint32_t)(star - t), tl = ml - s0 - (t[ml - 1] == '$'), nseg;
        uint32_t *a = bc_alloc(((size_t)tl + 1) * sizeof *a);
        uint32_t *l = bc_alloc(((size_t)tl + 1) * sizeof *l);
        bc_tail_segments(t + s0, tl, &nseg, a, l);
        for (uint32_t i = 0; i < nseg; i++) {
            if (o->n == cap) {
                cap *= 2;
                o->at = realloc(o->at, cap * sizeof *o->at);
                o->len = realloc(o->len, cap * sizeof *o->len);
                if (!o->at || !o->len)
                    exit(2);
            }
            o->at[o->n] = tx->off[r - 1] + s0 + a[i], o->len[o->n++] = l[i];
        }
        free(a);
        free(l);
    }
}

/* For each byte of STRINGS, the farthest end of a segment occurrence
 * that holds it (0: none): a label [off, off + len) lies inside one
 * segment when len is 0 or cover[off] >= off + len. str_size + 1
 * entries; the caller frees it. */
static inline uint32_t *bc_segment_cover(const bc_texts *tx)
{
    uint32_t *cover = calloc((size_t)tx->str_size + 1, sizeof *cover);
    bc_occ oc;
    if (!cover)
        exit(2);
    bc_segment_occurrences(tx, &oc);
    for (uint32_t i = 0; i < oc.n; i++)
        for (uint32_t k = 0; k < oc.len[i]; k++)
            if ((uint64_t)oc.at[i] + k < tx->str_size && cover[oc.at[i] + k] < oc.at[i] + oc.len[i])
                cover[oc.at[i] + k] = oc.at[i] + oc.len[i];
    free(oc.at);
    free(oc.len);
    return cover;
}

/* FORMAT.md, Labels: the program's STATES (7 columns) as the whole
 * automaton in sg->states. The rows must be a tree in breadth-first order
 * (children contiguous, Keys increasing), the root without a label, and
 * every label (Lab_Off 0 when it is empty, as the encoder writes it)
 * inside a segment of some rule's match text in STRINGS; a row stands for
 * its parent's string, its Key and its label, and the strings in between
 * become implicit states: one child, Fail the root, Out 0 (whether that
 * is right, and whether exactly these are implicit, the caller checks
 * against the automaton). Each row keeps its Fail (made the row's state)
 * and Out. */
static inline int bc_expand_labels(const bc_wild *w, const bc_texts *tx, bc_seg *sg, bc_err *e)
{
    const bc_table *R = &w->states;
    uint32_t nc = R->count, next = 1;
    uint64_t total = 1, limit = 1;
    int ok = 0;
    if (!tx->str)
        return bc_fail(e, "STATES with labels, but no STRINGS to read them from");
    for (uint32_t r = 0; r < tx->n; r++)
        limit += tx->len[r];
    uint32_t *cpar = calloc((size_t)nc + 1, sizeof *cpar);
    uint64_t *base = calloc((size_t)nc + 1, sizeof *base);
    uint32_t *cover = bc_segment_cover(tx);
    uint32_t *key = NULL, *kid = NULL, *nkid = NULL, *owner = NULL, *q = NULL, *idx = NULL;
    if (!cpar || !base)
        exit(2);
    if (bc_cell(R, 0, BC_S_KEY) != 0 || bc_cell(R, 0, BC_S_LABLEN) != 0) {
        bc_fail(e, "STATES: the root's Key %u, Lab_Len %u", bc_cell(R, 0, BC_S_KEY),
                bc_cell(R, 0, BC_S_LABLEN));
        goto out;
    }
    for (uint32_t s = 0; s < nc; s++) {
        uint32_t first = bc_cell(R, s, BC_S_FIRST), n = bc_cell(R, s, BC_S_N);
        uint32_t lo = bc_cell(R, s, BC_S_LABOFF), ll = bc_cell(R, s, BC_S_LABLEN);
        if (s > 0 && s >= next) {
            bc_fail(e, "STATES: row %u is no row's child", s);
            goto out;
        }
        if (n == 0 ? first != 0 : first != next) {
            bc_fail(e, "STATES: row %u's children at %u, want %u (breadth first)", s, first,
                    n ? next : 0);
            goto out;
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t c = first + k, kb = bc_cell(R, c, BC_S_KEY);
            if (kb > 255 || kb == '*' || (k && kb <= bc_cell(R, c - 1, BC_S_KEY))) {
                bc_fail(e, "STATES: row %u's keys not increasing bytes, or '*'", s);
                goto out;
            }
            cpar[c] = s;
        }
        next += n;
        if (ll == 0 ? lo != 0 : cover[lo] < (uint64_t)lo + ll) {
            bc_fail(e, "STATES row %u: label [%u, +%u) %s", s, lo, ll,
                    ll ? "not inside a segment of a rule's match text in STRINGS"
                       : "empty with Lab_Off not 0");
            goto out;
        }
        if (s) /* the row's state, after its implicit ones */
            base[s] = total + ll, total += 1 + (uint64_t)ll;
        if (total > limit) {
            bc_fail(e, "STATES: the labels spell over %llu states, more than the rules' texts hold",
                    (unsigned long long)limit);
            goto out;
        }
    }
    if (next != nc) {
        bc_fail(e, "STATES: %u rows, the tree has %u", nc, next);
        goto out;
    }
    /* the whole trie, numbered as made (a row's implicit states then its
     * own), then in breadth-first order */
    uint32_t nf = (uint32_t)total;
    key = calloc(nf, sizeof *key);
    kid = calloc(nf, sizeof *kid);   /* first child as made */
    nkid = calloc(nf, sizeof *nkid);
    owner = calloc(nf, sizeof *owner); /* the row, BC_NOWHERE when implicit */
    q = calloc(nf, sizeof *q);
    idx = calloc(nf, sizeof *idx);
    if (!key || !kid || !nkid || !owner || !q || !idx)
        exit(2);
    owner[0] = 0;
    for (uint32_t s = 0; s < nc; s++) {
        uint32_t ll = bc_cell(R, s, BC_S_LABLEN), lo = bc_cell(R, s, BC_S_LABOFF);
        uint32_t me = (uint32_t)base[s], start = me - ll;
        if (s) {
            key[start] = bc_cell(R, s, BC_S_KEY);
            for (uint32_t j = 0; j < ll; j++) {
                key[start + 1 + j] = tx->str[lo + j];
                owner[start + j] = BC_NOWHERE;
                kid[start + j] = start + j + 1, nkid[start + j] = 1;
            }
        }
        owner[me] = s;
        nkid[me] = bc_cell(R, s, BC_S_N);
        if (nkid[me]) {
            uint32_t c = bc_cell(R, s, BC_S_FIRST);
            kid[me] = (uint32_t)base[c] - bc_cell(R, c, BC_S_LABLEN);
        }
    }
    /* a row's children were made in Key order, and so are contiguous */
    uint32_t qh = 0, qt = 0;
    q[qt++] = 0;
    while (qh < qt) {
        uint32_t u = q[qh];
        idx[u] = qh++;
        for (uint32_t k = 0; k < nkid[u]; k++) {
            uint32_t v = kid[u];
            if (owner[u] != BC_NOWHERE && k) {
                uint32_t c = bc_cell(R, owner[u], BC_S_FIRST) + k;
                v = (uint32_t)base[c] - bc_cell(R, c, BC_S_LABLEN);
            }
            q[qt++] = v;
        }
    }
    sg->states_own = bc_alloc((size_t)nf * 20);
    sg->row = bc_alloc((size_t)nf * sizeof *sg->row);
    sg->states.count = nf, sg->states.cols = 5, sg->states.rows = sg->states_own;
    sg->states.row_size = 20;
    for (unsigned c = 0; c < 5; c++)
        sg->states.w[c] = 4;
    for (uint32_t i = 0, nxt = 1; i < nf; i++) {
        uint32_t u = q[i], s = owner[u];
        uint32_t v[5] = {key[u], nkid[u] ? nxt : 0, nkid[u], 0, 0};
        if (s != BC_NOWHERE) {
            uint32_t f = bc_cell(R, s, BC_S_FAIL);
            v[3] = idx[base[f]], v[4] = bc_cell(R, s, BC_S_OUT);
        }
        nxt += nkid[u];
        sg->row[i] = s;
        for (unsigned c = 0; c < 5; c++)
            for (unsigned b = 0; b < 4; b++)
                sg->states_own[(size_t)i * 20 + c * 4 + b] = (uint8_t)(v[c] >> (8 * b));
    }
    ok = 1;
out:
    free(cpar);
    free(base);
    free(cover);
    free(key);
    free(kid);
    free(nkid);
    free(owner);
    free(q);
    free(idx);
    return ok;
}

/* Decodes and checks the wildcard part: the automaton (STATES: a trie in
 * breadth-first order, Keys increasing, failure and output links as
 * Aho-Corasick's; in chain form one Knuth-Morris-Pratt line a segment),
 * OUTS (distinct segments by length, Next and Max as FORMAT.md says, the
 * rows' edges covering EDGES exactly, each part sorted by Parent), EDGES (a
 * tree below the root slots: every internal node the Target of one
 * floating edge and the Parent of some edge, Max the best Rank on and
 * below), ROOTS' Max, and the budgets. With Labels (FORMAT.md, Labels),
 * the automaton is the whole one, its implicit states exactly those the
 * rule makes implicit, and Labels 1 exactly when some state is implicit
 * and the labelled STATES is smaller than the whole one (the encoder's
 * smallest widths). tx: the match texts and STRINGS, which labels point
 * into. */
static inline int bc_decode_wild_tx(const bc_wild *w, const bc_texts *tx, bc_seg *sg, bc_err *e)
{
    const uint32_t max_rank = tx->n;
    const bc_table *R = &w->roots, *O = &w->outs, *S = &w->states, *E = &w->edges;
    uint32_t nr = R->count, no = O->count, ns = S->count, ne = E->count;
    memset(sg, 0, sizeof *sg);
    sg->states = w->states;
    int ok = 0;
    uint32_t *par = NULL, *dep = NULL, *fail = NULL, *own = NULL, *outv = NULL, *srow = NULL;
    uint32_t *cover = NULL, *emax = NULL, *imax = NULL, *nout = NULL;
    size_t *soff = NULL;
    if (nr == 0) {
        if (w->shape != 0 || no || ns || ne)
            return bc_fail(e, "no root slot, but Shape %u and %u/%u/%u OUTS/STATES/EDGES rows",
                           w->shape, no, ns, ne);
        return 1;
    }
    if (no == 0 || ns == 0 || ne == 0)
        return bc_fail(e, "root slots without segments, states or edges");
    if (!w->chain && w->nint > BC_MAX_INTERNAL)
        return bc_fail(e, "N_Internal %u over %u", w->nint, BC_MAX_INTERNAL);
    if ((uint64_t)nr + w->nint > UINT32_MAX)
        return bc_fail(e, "N_Internal too large");
    if (w->chain && w->labels)
        return bc_fail(e, "chain with Labels 1 (Shape %u)", w->shape);
    for (uint32_t r = 0; r < nr; r++)
        if (bc_cell(R, r, BC_R_LEVEL) >= BC_MAX_LEVELS || bc_cell(R, r, BC_R_MAX) > max_rank)
            return bc_fail(e, "ROOTS row %u: Level %u or Max %u", r, bc_cell(R, r, BC_R_LEVEL),
                           bc_cell(R, r, BC_R_MAX));
    /* -- STATES (Verification 10) -- */
    for (uint32_t s = 0; s < ns; s++) {
        uint32_t first = bc_cell(S, s, BC_S_FIRST), n = bc_cell(S, s, BC_S_N);
        uint32_t f = bc_cell(S, s, BC_S_FAIL), out = bc_cell(S, s, BC_S_OUT);
        if (first > ns || n > ns - first || n > 256 || f >= ns || out > no)
            return bc_fail(e, "STATES row %u out of range", s);
        if (w->labels && (bc_cell(S, s, BC_S_LABOFF) > tx->str_size ||
                          bc_cell(S, s, BC_S_LABLEN) > tx->str_size - bc_cell(S, s, BC_S_LABOFF)))
            return bc_fail(e, "STATES row %u: label [%u, +%u) outside STRINGS (%u bytes)", s,
                           bc_cell(S, s, BC_S_LABOFF), bc_cell(S, s, BC_S_LABLEN), tx->str_size);
    }
    if (w->labels) { /* the whole automaton, checked below as one without labels */
        if (!bc_expand_labels(w, tx, sg, e)) {
            bc_seg_free(sg);
            return 0;
        }
        S = &sg->states, ns = S->count;
    }
    par = calloc((size_t)ns + 1, sizeof *par);
    dep = calloc((size_t)ns + 1, sizeof *dep);
    fail = calloc((size_t)ns + 1, sizeof *fail);
    own = calloc((size_t)ns + 1, sizeof *own);
    outv = calloc((size_t)ns + 1, sizeof *outv);
    srow = calloc((size_t)no + 1, sizeof *srow);
    cover = calloc((size_t)ne + 1, sizeof *cover);
    emax = calloc((size_t)ne + 1, sizeof *emax);
    imax = calloc((size_t)w->nint + 1, sizeof *imax);
    nout = calloc((size_t)w->nint + 1, sizeof *nout);
    sg->off = calloc((size_t)no + 1, sizeof *sg->off);
    sg->len = calloc((size_t)no + 1, sizeof *sg->len);
    sg->e_row = calloc((size_t)ne + 1, sizeof *sg->e_row);
    sg->e_anch = calloc((size_t)ne + 1, 1);
    sg->in_edge = calloc((size_t)w->nint + 1, sizeof *sg->in_edge);
    if (!par || !dep || !fail || !own || !outv || !srow || !cover || !emax || !imax || !nout ||
        !sg->off || !sg->len || !sg->e_row || !sg->e_anch || !sg->in_edge) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    sg->nrow = no, sg->nedge = ne;
    if (w->chain) {
        /* one line a segment: Len + 1 states, the first its root */
        uint32_t base = 0;
        if (nr != 1 || ne != no || w->nint + 1 != no) {
            bc_fail(e, "chain: %u slots, %u segments, %u edges, N_Internal %u", nr, no, ne,
                    w->nint);
            goto out;
        }
        for (uint32_t i = 0; i < no; i++) {
            uint32_t len = bc_cell(O, i, BC_O_LEN);
            if (len < 1 || (uint64_t)base + len >= ns) {
                bc_fail(e, "chain: segment %u of %u bytes past STATES", i, len);
                goto out;
            }
            for (uint32_t d = 0; d <= len; d++) {
                uint32_t s = base + d, k = bc_cell(S, s, BC_S_KEY);
                uint32_t wf = d < len ? s + 1 : 0, wn = d < len, wo = d == len ? i + 1 : 0;
                if ((d == 0 && k != 0) || (d > 0 && (k == '*' || k > 255)) ||
                    bc_cell(S, s, BC_S_FIRST) != wf || bc_cell(S, s, BC_S_N) != wn ||
                    bc_cell(S, s, BC_S_OUT) != wo) {
                    bc_fail(e, "chain: state %u (segment %u, depth %u) not in its line", s, i, d);
                    goto out;
                }
            }
            sg->off[i] = base + 1;
            sg->len[i] = len;
            /* failure links: the longest proper border of the bytes read
             * (the prefix function, over the line's keys) */
            {
                uint32_t *pi = bc_alloc(((size_t)len + 1) * sizeof *pi);
                pi[0] = 0;
                if (len >= 1)
                    pi[1] = 0;
                for (uint32_t d = 2, q = 0; d <= len; d++) {
                    uint32_t c = bc_cell(S, base + d, BC_S_KEY);
                    while (q && bc_cell(S, base + 1 + q, BC_S_KEY) != c)
                        q = pi[q];
                    if (bc_cell(S, base + 1 + q, BC_S_KEY) == c)
                        q++;
                    pi[d] = q;
                }
                for (uint32_t d = 0; d <= len; d++)
                    if (bc_cell(S, base + d, BC_S_FAIL) != base + pi[d]) {
                        bc_fail(e, "chain: state %u Fail %u, want %u (its border)", base + d,
                                bc_cell(S, base + d, BC_S_FAIL), base + pi[d]);
                        free(pi);
                        goto out;
                    }
                free(pi);
            }
            base += len + 1;
        }
        if (base != ns) {
            bc_fail(e, "chain: %u states, the lines take %u", ns, base);
            goto out;
        }
        sg->bytes = bc_alloc(ns);
        for (uint32_t s = 0; s < ns; s++)
            sg->bytes[s] = (uint8_t)bc_cell(S, s, BC_S_KEY);
    } else {
        /* a tree in breadth-first order: children come in order */
        uint32_t next = 1;
        if (bc_cell(S, 0, BC_S_KEY) != 0) {
            bc_fail(e, "STATES: the root's Key %u", bc_cell(S, 0, BC_S_KEY));
            goto out;
        }
        for (uint32_t s = 0; s < ns; s++) {
            uint32_t first = bc_cell(S, s, BC_S_FIRST), n = bc_cell(S, s, BC_S_N);
            if (s > 0 && s >= next) {
                bc_fail(e, "STATES: state %u is no state's child", s);
                goto out;
            }
            if (n == 0 ? first != 0 : first != next) {
                bc_fail(e, "STATES: state %u's children at %u, want %u (breadth first)", s,
                        first, n ? next : 0);
                goto out;
            }
            for (uint32_t k = 0; k < n; k++) {
                uint32_t c = first + k, key = bc_cell(S, c, BC_S_KEY);
                if (key > 255 || key == '*' || (k && key <= bc_cell(S, c - 1, BC_S_KEY))) {
                    bc_fail(e, "STATES: state %u's keys not increasing bytes, or '*'", s);
                    goto out;
                }
                par[c] = s, dep[c] = dep[s] + 1;
            }
            next += n;
        }
        if (next != ns) {
            bc_fail(e, "STATES: %u states, the tree has %u", ns, next);
            goto out;
        }
        /* every state's string, at off[s] in bytes (its depth long) */
        size_t total = 0;
        soff = calloc(ns, sizeof *soff);
        if (!soff)
            exit(2);
        for (uint32_t s = 0; s < ns; s++)
            soff[s] = total, total += dep[s];
        sg->bytes = bc_alloc(total);
        for (uint32_t s = 1; s < ns; s++) {
            if (dep[par[s]])
                memcpy(sg->bytes + soff[s], sg->bytes + soff[par[s]], dep[par[s]]);
            sg->bytes[soff[s] + dep[s] - 1] = (uint8_t)bc_cell(S, s, BC_S_KEY);
        }
        /* a state's own segment: an Out whose Len is its depth; each row
         * exactly one state's, every leaf a segment */
        for (uint32_t r = 0; r < no; r++)
            srow[r] = UINT32_MAX;
        for (uint32_t s = 0; s < ns; s++) {
            uint32_t o = bc_cell(S, s, BC_S_OUT);
            own[s] = 0;
            if (o && bc_cell(O, o - 1, BC_O_LEN) == dep[s]) {
                if (srow[o - 1] != UINT32_MAX) {
                    bc_fail(e, "OUTS row %u is the segment of two states", o - 1);
                    goto out;
                }
                srow[o - 1] = s, own[s] = o;
            }
            if (s && bc_cell(S, s, BC_S_N) == 0 && !own[s]) {
                bc_fail(e, "STATES: leaf %u is no segment", s);
                goto out;
            }
        }
        for (uint32_t r = 0; r < no; r++) {
            if (srow[r] == UINT32_MAX || dep[srow[r]] == 0) {
                bc_fail(e, "OUTS row %u: no state spells its segment", r);
                goto out;
            }
            sg->off[r] = soff[srow[r]], sg->len[r] = dep[srow[r]];
        }
        /* failure links: the longest proper suffix that is a state, found
         * by the textbook construction over this tree (not the blob's) */
        for (uint32_t s = 1; s < ns; s++) {
            uint32_t want = 0, key = bc_cell(S, s, BC_S_KEY);
            if (par[s] != 0) {
                uint32_t f = fail[par[s]];
                for (;;) {
                    uint32_t first = bc_cell(S, f, BC_S_FIRST), n = bc_cell(S, f, BC_S_N), hit = 0;
                    for (uint32_t k = 0; k < n && !hit; k++)
                        if (bc_cell(S, first + k, BC_S_KEY) == key)
                            hit = first + k;
                    if (hit) {
                        want = hit;
                        break;
                    }
                    if (f == 0)
                        break;
                    f = fail[f];
                }
            }
            fail[s] = want;
            /* Out: its own segment, else the longest segment it ends with */
            outv[s] = own[s] ? own[s] : outv[want];
        }
        for (uint32_t s = 0; s < ns; s++) {
            if (bc_cell(S, s, BC_S_FAIL) != fail[s] || bc_cell(S, s, BC_S_OUT) != outv[s]) {
                if (w->labels) /* the whole automaton's numbers */
                    bc_fail(e, "state %u (STATES row %d) of \"%.*s\": Fail %u Out %u, want %u and "
                               "%u%s",
                            s, sg->row[s] == BC_NOWHERE ? -1 : (int)sg->row[s],
                            (int)(dep[s] < 40 ? dep[s] : 40), sg->bytes + soff[s],
                            bc_cell(S, s, BC_S_FAIL), bc_cell(S, s, BC_S_OUT), fail[s], outv[s],
                            sg->row[s] == BC_NOWHERE ? " (implicit: Fail 0 Out 0)" : "");
                else
                    bc_fail(e, "STATES row %u: Fail %u Out %u, want %u and %u", s,
                            bc_cell(S, s, BC_S_FAIL), bc_cell(S, s, BC_S_OUT), fail[s], outv[s]);
                goto out;
            }
        }
        /* FORMAT.md, Labels: a state (never the root) is implicit exactly
         * when it has one child, no output, Fail the root, and no Fail
         * link points to it. With Labels 1 the rows are the other states;
         * the encoder chose Labels 1 exactly when some state is implicit
         * and the labelled STATES is smaller in bytes (smallest widths). */
        {
            uint8_t *tgt = calloc(ns, 1), *imp = calloc(ns, 1);
            uint32_t *cq = calloc(ns, sizeof *cq), *cst = calloc(ns, sizeof *cst);
            uint32_t *cidx = calloc(ns, sizeof *cidx);
            uint32_t mxu[5] = {0, 0, 0, 0, 0}, mxl[7] = {0, 0, 0, 0, 0, 0, 0}, nc = 0;
            int bad = 0;
            if (!tgt || !imp || !cq || !cst || !cidx)
                exit(2);
            for (uint32_t s = 1; s < ns; s++)
                tgt[fail[s]] = 1;
            for (uint32_t s = 0; s < ns && !bad; s++) {
                uint32_t v[5] = {bc_cell(S, s, BC_S_KEY), bc_cell(S, s, BC_S_FIRST),
                                 bc_cell(S, s, BC_S_N), fail[s], outv[s]};
                for (unsigned c = 0; c < 5; c++)
                    mxu[c] = v[c] > mxu[c] ? v[c] : mxu[c];
                imp[s] = s && v[2] == 1 && !outv[s] && !fail[s] && !tgt[s];
                sg->n_implicit += imp[s];
                if (w->labels && imp[s] != (sg->row[s] == BC_NOWHERE))
                    bad = bc_fail(e, "STATES: the state of \"%.*s\" is %s, the Labels rule makes "
                                     "it %s",
                                  (int)(dep[s] < 40 ? dep[s] : 40), sg->bytes + soff[s],
                                  imp[s] ? "a row" : "implicit", imp[s] ? "implicit" : "a row") + 1;
            }
            /* the labelled STATES as the rule makes it: the explicit states
             * in breadth-first order of the tree without the implicit ones */
            cq[nc++] = 0;
            for (uint32_t h = 0; h < nc && !bad; h++) {
                uint32_t u = cq[h], first = bc_cell(S, u, BC_S_FIRST), n = bc_cell(S, u, BC_S_N);
                mxl[1] = n && nc > mxl[1] ? nc : mxl[1];
                mxl[2] = n > mxl[2] ? n : mxl[2];
                mxl[4] = outv[u] > mxl[4] ? outv[u] : mxl[4];
                cidx[u] = h;
                for (uint32_t k = 0; k < n; k++) {
                    uint32_t c = first + k, x = c;
                    while (imp[x])
                        x = bc_cell(S, x, BC_S_FIRST);
                    cst[nc] = c, cq[nc++] = x;
                    mxl[0] = bc_cell(S, c, BC_S_KEY) > mxl[0] ? bc_cell(S, c, BC_S_KEY) : mxl[0];
                    mxl[6] = dep[x] - dep[c] > mxl[6] ? dep[x] - dep[c] : mxl[6];
                }
            }
            for (uint32_t h = 0; h < nc && !bad; h++)
                mxl[3] = cidx[fail[cq[h]]] > mxl[3] ? cidx[fail[cq[h]]] : mxl[3];
            uint64_t whole = bc_table_bytes(ns, 5, mxu);
            if (!bad && w->labels) {
                uint64_t lab = bc_varint_size(w->states.count) + bc_wbytes(7) +
                               (uint64_t)w->states.count * w->states.row_size;
                if (nc != w->states.count || lab >= whole)
                    bad = bc_fail(e, "Labels 1, but STATES takes %llu bytes in %u rows, without "
                                     "labels %llu in %u",
                                  (unsigned long long)lab, w->states.count,
                                  (unsigned long long)whole, ns) + 1;
            } else if (!bad && sg->n_implicit) {
                /* Labels 0: Lab_Off is the encoder's choice (inside a
                 * segment in STRINGS), so only a labelled STATES smaller
                 * whatever that choice is an error */
                uint32_t *cov = bc_segment_cover(tx), hi = 0, last_any = 0;
                for (uint32_t p = 0; p < tx->str_size; p++)
                    last_any = cov[p] ? p : last_any; /* any label starts at or before it */
                mxl[5] = last_any;
                uint64_t lab_hi = bc_table_bytes(nc, 7, mxl);
                mxl[5] = 0;
                uint64_t lab_lo = bc_table_bytes(nc, 7, mxl);
                if (lab_lo < whole && lab_hi >= whole) {
                    /* the widths decide: each label's last place inside a
                     * segment (until the table is no longer smaller) */
                    for (uint32_t h = 1; h < nc && lab_lo < whole; h++) {
                        uint32_t x = cq[h], c = cst[h], ll = dep[x] - dep[c], last = BC_NOWHERE;
                        const uint8_t *lb = sg->bytes + soff[x] + dep[c];
                        for (size_t j = 0; ll && j < tx->str_size;) {
                            j = bc_find(tx->str, tx->str_size, j, lb, ll);
                            if (j == SIZE_MAX)
                                break;
                            if (cov[j] >= (uint64_t)j + ll)
                                last = (uint32_t)j;
                            j++;
                        }
                        if (ll && last == BC_NOWHERE) { /* nowhere to point: cannot judge */
                            lab_lo = whole;
                            break;
                        }
                        if (ll && last > hi) {
                            hi = last;
                            mxl[5] = hi;
                            lab_lo = bc_table_bytes(nc, 7, mxl);
                        }
                    }
                    lab_hi = lab_lo;
                }
                if (lab_hi < whole)
                    bad = bc_fail(e, "Labels 0, but %u states are implicit and the labelled "
                                     "STATES takes %llu bytes at most, %llu without",
                                  sg->n_implicit, (unsigned long long)lab_hi,
                                  (unsigned long long)whole) + 1;
                free(cov);
            }
            free(tgt);
            free(imp);
            free(cq);
            free(cst);
            free(cidx);
            if (bad)
                goto out;
        }
        /* OUTS: distinct segments by length, Next the longest proper suffix
         * segment, dictionary chains within the budget */
        for (uint32_t r = 0; r < no; r++) {
            uint32_t wn = outv[fail[srow[r]]], nx = bc_cell(O, r, BC_O_NEXT);
            if (r && sg->len[r] < sg->len[r - 1]) {
                bc_fail(e, "OUTS row %u shorter than row %u", r, r - 1);
                goto out;
            }
            if (nx != wn || (nx && nx - 1 >= r)) {
                bc_fail(e, "OUTS row %u: Next %u, want %u", r, nx, wn);
                goto out;
            }
            uint32_t chain = 1;
            for (uint32_t x = nx; x; x = bc_cell(O, x - 1, BC_O_NEXT))
                chain++;
            if (chain > BC_MAX_OUTCHAIN) {
                bc_fail(e, "OUTS row %u: %u segments end together (budget %u)", r, chain,
                        BC_MAX_OUTCHAIN);
                goto out;
            }
        }
    }
    /* -- OUTS rows' edges cover EDGES exactly once, each part by Parent -- */
    {
        uint64_t total = 0;
        for (uint32_t r = 0; r < no; r++) {
            uint32_t ed = bc_cell(O, r, BC_O_EDGE), nf = bc_cell(O, r, BC_O_NFLOAT);
            uint32_t na = bc_cell(O, r, BC_O_NANCH);
            if (bc_cell(O, r, BC_O_LEN) < 1 || nf + (uint64_t)na == 0 ||
                (uint64_t)ed + nf + na > ne) {
                bc_fail(e, "OUTS row %u: Len %u, edges [%u, +%u+%u) of %u", r,
                        bc_cell(O, r, BC_O_LEN), ed, nf, na, ne);
                goto out;
            }
            for (uint32_t k = ed; k < ed + nf + na; k++) {
                if (cover[k]++) {
                    bc_fail(e, "EDGES row %u in two OUTS rows", k);
                    goto out;
                }
                sg->e_row[k] = r, sg->e_anch[k] = k >= ed + nf;
                if (k != ed && k != ed + nf &&
                    bc_cell(E, k, BC_E_PARENT) <= bc_cell(E, k - 1, BC_E_PARENT)) {
                    bc_fail(e, "EDGES %u: Parent not after the previous edge's", k);
                    goto out;
                }
            }
            total += nf + (uint64_t)na;
            if (!w->chain) { /* the budget of edges from internal nodes */
                uint32_t inner[2] = {0, 0};
                for (uint32_t k = ed; k < ed + nf + na; k++)
                    inner[k >= ed + nf] += bc_cell(E, k, BC_E_PARENT) >= nr;
                if (inner[0] > BC_MAX_INNER || inner[1] > BC_MAX_INNER) {
                    bc_fail(e, "OUTS row %u: %u/%u edges from internal nodes (budget %u)", r,
                            inner[0], inner[1], BC_MAX_INNER);
                    goto out;
                }
            }
        }
        if (total != ne) {
            bc_fail(e, "OUTS rows hold %llu edges, EDGES has %u", (unsigned long long)total, ne);
            goto out;
        }
    }
    /* -- EDGES: a tree below the slots -- */
    for (uint32_t i = 0; i < w->nint; i++)
        sg->in_edge[i] = UINT32_MAX;
    for (uint32_t k = 0; k < ne; k++) {
        uint32_t p = bc_cell(E, k, BC_E_PARENT), rank = bc_cell(E, k, BC_E_RANK);
        uint32_t t = bc_cell(E, k, BC_E_TARGET), mx = bc_cell(E, k, BC_E_MAX);
        if (p >= nr + w->nint || rank > max_rank || mx > max_rank || t > w->nint) {
            bc_fail(e, "EDGES row %u out of range", k);
            goto out;
        }
        if (t) {
            if (sg->e_anch[k] || sg->in_edge[t - 1] != UINT32_MAX) {
                bc_fail(e, "EDGES row %u: Target %u anchored or reached twice", k, t);
                goto out;
            }
            sg->in_edge[t - 1] = k;
        } else if (rank == 0) {
            bc_fail(e, "EDGES row %u: no Rank and no Target", k);
            goto out;
        }
        if (p >= nr)
            nout[p - nr]++;
    }
    for (uint32_t i = 0; i < w->nint; i++)
        if (sg->in_edge[i] == UINT32_MAX || nout[i] == 0) {
            bc_fail(e, "internal node %u: no edge in, or none out", i);
            goto out;
        }
    /* no cycle: from every edge, the parents lead to a slot */
    for (uint32_t k = 0; k < ne; k++) {
        uint32_t p = bc_cell(E, k, BC_E_PARENT), steps = 0;
        while (p >= nr && steps++ <= w->nint)
            p = bc_cell(E, sg->in_edge[p - nr], BC_E_PARENT);
        if (p >= nr) {
            bc_fail(e, "EDGES row %u: its parents never reach a root slot", k);
            goto out;
        }
    }
    /* Max: the best Rank on the edge and below. Children first: repeat
     * over the edges until nothing changes (depth <= N_Internal + 1). */
    for (uint32_t k = 0; k < ne; k++)
        emax[k] = bc_cell(E, k, BC_E_RANK);
    for (uint32_t round = 0, changed = 1; changed && round <= w->nint + 1; round++) {
        changed = 0;
        for (uint32_t k = 0; k < ne; k++) {
            uint32_t p = bc_cell(E, k, BC_E_PARENT);
            if (p >= nr) {
                uint32_t up = sg->in_edge[p - nr];
                if (emax[k] > emax[up])
                    emax[up] = emax[k], changed = 1;
            }
        }
    }
    for (uint32_t k = 0; k < ne; k++)
        if (bc_cell(E, k, BC_E_MAX) != emax[k]) {
            bc_fail(e, "EDGES row %u: Max %u, want %u", k, bc_cell(E, k, BC_E_MAX), emax[k]);
            goto out;
        }
    /* no two edges alike: one parent, one segment, one kind */
    for (uint32_t k = 1; k < ne; k++)
        if (sg->e_row[k] == sg->e_row[k - 1] && sg->e_anch[k] == sg->e_anch[k - 1] &&
            bc_cell(E, k, BC_E_PARENT) == bc_cell(E, k - 1, BC_E_PARENT)) {
            bc_fail(e, "EDGES rows %u and %u alike", k - 1, k);
            goto out;
        }
    for (uint32_t r = 0; r < no; r++) {
        uint32_t want = 0, ed = bc_cell(O, r, BC_O_EDGE);
        uint32_t n = bc_cell(O, r, BC_O_NFLOAT) + bc_cell(O, r, BC_O_NANCH);
        for (uint32_t k = ed; k < ed + n; k++)
            want = emax[k] > want ? emax[k] : want;
        uint32_t nx = bc_cell(O, r, BC_O_NEXT);
        if (nx && bc_cell(O, nx - 1, BC_O_MAX) > want)
            want = bc_cell(O, nx - 1, BC_O_MAX);
        if (bc_cell(O, r, BC_O_MAX) != want) {
            bc_fail(e, "OUTS row %u: Max %u, want %u", r, bc_cell(O, r, BC_O_MAX), want);
            goto out;
        }
    }
    /* ROOTS Max: the best edge Max below each slot */
    {
        uint32_t *rmax = calloc((size_t)nr + 1, sizeof *rmax);
        uint8_t *any = calloc((size_t)nr + 1, 1);
        if (!rmax || !any)
            exit(2);
        for (uint32_t k = 0; k < ne; k++) {
            uint32_t p = bc_cell(E, k, BC_E_PARENT);
            if (p < nr) {
                any[p] = 1;
                if (emax[k] > rmax[p])
                    rmax[p] = emax[k];
            }
        }
        for (uint32_t r = 0; r < nr; r++)
            if (!any[r] || bc_cell(R, r, BC_R_MAX) != rmax[r]) {
                bc_fail(e, "ROOTS row %u: Max %u, want %u%s", r, bc_cell(R, r, BC_R_MAX), rmax[r],
                        any[r] ? "" : " (no edge)");
                free(rmax);
                free(any);
                goto out;
            }
        free(rmax);
        free(any);
    }
    if (w->chain) {
        /* edge i: segment i, from the slot or internal node i - 1, to
         * internal node i; only the last one ranks */
        uint32_t rank = bc_cell(E, ne - 1, BC_E_RANK);
        for (uint32_t i = 0; i < ne; i++) {
            int last = i + 1 == ne;
            if (sg->e_row[i] != i || bc_cell(E, i, BC_E_PARENT) != (i ? nr + i - 1 : 0) ||
                bc_cell(E, i, BC_E_TARGET) != (last ? 0 : i + 1) ||
                bc_cell(E, i, BC_E_RANK) != (last ? rank : 0) || bc_cell(O, i, BC_O_NEXT) != 0 ||
                (!last && sg->e_anch[i])) {
                bc_fail(e, "chain: edge %u is not segment %u of the rule", i, i);
                goto out;
            }
        }
    }
    ok = 1;
out:
    free(soff);
    free(par);
    free(dep);
    free(fail);
    free(own);
    free(outv);
    free(srow);
    free(cover);
    free(emax);
    free(imax);
    free(nout);
    if (!ok)
        bc_seg_free(sg);
    return ok;
}

/* bc_decode_wild_tx without STRINGS: a program with labels is rejected
 * (its automaton cannot be read without them). */
static inline int bc_decode_wild(const bc_wild *w, uint32_t max_rank, bc_seg *sg, bc_err *e)
{
    bc_texts tx;
    memset(&tx, 0, sizeof tx);
    tx.n = max_rank;
    return bc_decode_wild_tx(w, &tx, sg, e);
}

/* An entry of a program, as the pattern it stands for. */
typedef struct bc_entry {
    int kind;     /* BC_ACCEPT, BC_END, BC_GLOB */
    int anchored; /* globs only: '$' at the end, and the tail not ending in '*' */
    uint32_t rank;
    uint8_t *bytes; /* the node's string (+ the tail for a glob), malloc'ed */
    size_t len, s0; /* s0: length of the node's string */
} bc_entry;

typedef struct bc_prog {
    uint32_t nodes, globs, depth; /* globs: wildcard rules (edges with a Rank) */
    size_t edge_bytes;            /* Keys + Labels: the bytes of the trie's strings */
    size_t key_bytes;             /* Keys */
    size_t inline_bytes;          /* Labels stored inline */
    uint32_t ref_labels;          /* Labels pointed into a match text (Kind 1) */
    size_t ref_label_bytes;       /* their length */
    size_t leaf_label_bytes;      /* the labels of one-rank leaves (Kind 2, 3: in
                                     their rank's match text) */
    uint32_t max_width;           /* widest Offsets (1..4) */
    uint32_t max_children;
    uint32_t accepts, ends;
    uint32_t slots, internal, states, edges, segments; /* the wildcard part */
    int chain;                    /* chain form */
    int labels;                   /* Labels 1: STATES leaves out the implicit states */
    uint32_t all_states;          /* the whole automaton's states (states: STATES rows) */
    uint32_t implicit;            /* of them, those the Labels rule makes implicit */
    uint32_t max_level;           /* most root slots on a trie chain */
    uint32_t leaves;              /* one-rank leaves (Kind 2, 3) */
    bc_entry *ents; /* when collecting */
    size_t n_ents, cap_ents;
} bc_prog;

static inline void bc_prog_free(bc_prog *pr)
{
    for (size_t i = 0; i < pr->n_ents; i++)
        free(pr->ents[i].bytes);
    free(pr->ents);
    memset(pr, 0, sizeof *pr);
}

typedef struct bc_pctx {
    const uint8_t *pg;
    const bc_texts *tx;
    int collect, pruned;
    uint8_t *s; /* the current node's string */
    size_t s_len, s_cap;
    bc_prog *out;
    bc_err *e;
    /* root slots: the node's string, its floor, how many slots above */
    uint32_t nslots;
    uint8_t **slot_str;
    uint32_t *slot_len, *slot_floor, *slot_vmax;
    uint8_t *slot_seen;
    uint32_t above; /* slots on the way from the root to the current node */
} bc_pctx;

static inline void bc_push(bc_pctx *c, const uint8_t *b, size_t n)
{
    if (c->s_len + n > c->s_cap) {
        size_t cap = (c->s_len + n) * 2 + 64;
        uint8_t *q = realloc(c->s, cap);
        if (!q) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        c->s = q;
        c->s_cap = cap;
    }
    if (n)
        memcpy(c->s + c->s_len, b, n);
    c->s_len += n;
}

static inline void bc_add_entry(bc_pctx *c, int kind, uint32_t rank, int anch, const uint8_t *s,
                                size_t s0, size_t len)
{
    bc_prog *o = c->out;
    if (!c->collect)
        return;
    if (o->n_ents == o->cap_ents) {
        o->cap_ents = o->cap_ents ? 2 * o->cap_ents : 16;
        o->ents = realloc(o->ents, o->cap_ents * sizeof *o->ents);
        if (!o->ents) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    bc_entry *x = &o->ents[o->n_ents++];
    x->kind = kind;
    x->rank = rank;
    x->anchored = anch;
    x->s0 = s0;
    x->len = len;
    x->bytes = bc_alloc(len + 1);
    if (len)
        memcpy(x->bytes, s, len);
}

/* Checks the node at [at, end), whose label starts at string depth d, and
 * its subtree. key: the edge byte from the parent (-1 for the root);
 * floor: the best Accept above it. *vmax receives the longest varint of a
 * rank in the subtree (wildcard rules count at their root slot). */
static inline int bc_check_node(bc_pctx *c, size_t at, size_t end, uint32_t depth, uint32_t d,
                                uint32_t floor, int key, unsigned *vmax)
{
    bc_err *e = c->e;
    bc_node x;
    *vmax = 0;
    if (depth > BC_MAX_DEPTH)
        return bc_fail(e, "node @%zu: %u nodes on a chain", at, depth);
    if (!bc_parse_node(c->pg, at, end, d, c->tx, &x, e))
        return 0;
    bc_prog *o = c->out;
    const uint32_t max_rank = c->tx->n;
    o->nodes++;
    if (depth > o->depth)
        o->depth = depth;
    size_t saved = c->s_len;
    uint32_t saved_above = c->above;
    if (key < 0) {
        if (x.label_head != 0)
            return bc_fail(e, "root Label_Head %u", x.label_head);
    } else {
        uint8_t kb = (uint8_t)key;
        bc_push(c, &kb, 1);
        bc_push(c, x.label, x.label_len);
        o->edge_bytes += 1 + (size_t)x.label_len;
        o->key_bytes++;
        if (memchr(x.label, '*', x.label_len))
            return bc_fail(e, "node @%zu: '*' in a Label", at);
        if (x.ref) {
            uint32_t ml;
            const uint8_t *t = bc_text(c->tx, x.rep, &ml);
            if (x.kind == BC_LABEL_REF) {
                o->ref_labels++;
                o->ref_label_bytes += x.label_len;
            } else {
                o->leaf_label_bytes += x.label_len;
            }
            /* (a one-rank leaf's Rep is its rank, whatever its label's
             * length) */
            if (x.kind == BC_LABEL_REF && x.label_len <= bc_varint_size(x.rep))
                return bc_fail(e, "node @%zu: Label of %u bytes pointed into Rep %u (an inline "
                                  "Label is as short)",
                               at, x.label_len, x.rep);
            if (ml < c->s_len || memcmp(t, c->s, c->s_len) != 0)
                return bc_fail(e, "node @%zu: Rep %u's pattern does not pass through the node",
                               at, x.rep);
        } else {
            o->inline_bytes += x.label_len;
        }
    }
    if (x.head & 1u) {
        if (x.accept < 1 || x.accept > max_rank)
            return bc_fail(e, "node @%zu: Accept %u out of 1..%u", at, x.accept, max_rank);
        if (c->pruned && x.accept <= floor)
            return bc_fail(e, "node @%zu: Accept %u can never decide (best Accept above %u)", at,
                           x.accept, floor);
        o->accepts++;
        if (bc_varint_size(x.accept) > *vmax)
            *vmax = bc_varint_size(x.accept);
        bc_add_entry(c, BC_ACCEPT, x.accept, 0, c->s, c->s_len, c->s_len);
    }
    uint32_t floor2 = x.accept > floor ? x.accept : floor;
    if (x.head & 2u) {
        if (x.end < 1 || x.end > max_rank)
            return bc_fail(e, "node @%zu: End %u out of 1..%u", at, x.end, max_rank);
        if (c->pruned && x.end <= floor2)
            return bc_fail(e, "node @%zu: End %u can never decide (best Accept %u)", at, x.end,
                           floor2);
        o->ends++;
        if (bc_varint_size(x.end) > *vmax)
            *vmax = bc_varint_size(x.end);
        bc_add_entry(c, BC_END, x.end, 0, c->s, c->s_len, c->s_len);
    }
    if (x.has_root) {
        if (x.slot >= c->nslots)
            return bc_fail(e, "node @%zu: Slot %u, ROOTS has %u rows", at, x.slot, c->nslots);
        if (c->slot_seen[x.slot])
            return bc_fail(e, "node @%zu: Slot %u of two nodes", at, x.slot);
        c->slot_seen[x.slot] = 1;
        c->slot_str[x.slot] = bc_alloc(c->s_len + 1);
        if (c->s_len)
            memcpy(c->slot_str[x.slot], c->s, c->s_len);
        c->slot_len[x.slot] = (uint32_t)c->s_len;
        c->slot_floor[x.slot] = floor2;
        if (c->slot_vmax[x.slot] > *vmax)
            *vmax = c->slot_vmax[x.slot];
        /* Level: the root slots above it on its chain */
        if (c->above + 1 > o->max_level)
            o->max_level = c->above + 1;
        if (c->above >= BC_MAX_LEVELS)
            return bc_fail(e, "node @%zu: %u root slots above it (budget %u)", at, c->above,
                           BC_MAX_LEVELS);
        c->slot_seen[x.slot] = (uint8_t)(1 + c->above < 255 ? 1 + c->above : 255);
        c->above++;
    }
    if (key >= 0 && !(x.head & 7u) && x.n < 2)
        return bc_fail(e, "node @%zu: no entry and %u child(ren): a node only where a pattern "
                          "ends or two part",
                       at, x.n);
    /* The encoder writes every leaf of one rank (exactly one of Accept and
     * End, no Slot) as a one-rank leaf, Kind 2 or 3. */
    if (x.kind >= BC_LEAF_ACCEPT)
        o->leaves++;
    else if (key >= 0 && x.n == 0 && !x.has_root && (x.accept != 0) != (x.end != 0))
        return bc_fail(e, "node @%zu: a leaf of one rank with a Head (Kind %u, not %u)", at, x.kind,
                       x.accept ? BC_LEAF_ACCEPT : BC_LEAF_END);
    if (x.n == 0) {
        if (x.c != end)
            return bc_fail(e, "node @%zu: childless node ends at %zu, span at %zu", at, x.c, end);
    } else {
        if (x.n > o->max_children)
            o->max_children = x.n;
        if (x.w > o->max_width)
            o->max_width = x.w;
        /* Offsets of children 1..n-1 (child 0 starts at C), the encoder's
         * Width the smallest that holds the last (1 byte, Width 0, with
         * at most one child) */
        uint32_t lastoff = bc_child_off(&x, x.n - 1);
        if (bc_width(lastoff) != x.w)
            return bc_fail(e, "node @%zu: Offsets width %u, the last offset %u needs %u", at,
                           x.w, lastoff, bc_width(lastoff));
        for (uint32_t k = 0; k < x.n; k++) {
            if (k > 0 && (x.keys[k] <= x.keys[k - 1] || bc_child_off(&x, k) <= bc_child_off(&x, k - 1)))
                return bc_fail(e, "node @%zu: Keys or Offsets not increasing at %u", at, k);
            if (x.keys[k] == '*')
                return bc_fail(e, "node @%zu: key '*'", at);
        }
        if (x.c + lastoff >= end)
            return bc_fail(e, "node @%zu: last child outside the span", at);
        for (uint32_t k = 0; k < x.n; k++) {
            size_t cs, ce;
            unsigned cv;
            bc_child_span(&x, k, end, &cs, &ce);
            if (!bc_check_node(c, cs, ce, depth + 1, x.depth + 1, floor2, x.keys[k], &cv))
                return 0;
            if (cv > *vmax)
                *vmax = cv;
        }
    }
    /* The encoder points a label into its Rep's text when that is shorter,
     * and its Rep is a rank below the node. */
    if (key >= 0 && !x.ref && x.label_len > *vmax)
        return bc_fail(e, "node @%zu: inline Label of %u bytes, longer than the varint of every "
                          "rank below the node (at most %u bytes)",
                       at, x.label_len, *vmax);
    c->s_len = saved;
    c->above = saved_above;
    return 1;
}

/* The root slot an edge hangs below (the tree was checked). */
static inline uint32_t bc_edge_slot(const bc_wild *w, const bc_seg *sg, uint32_t k)
{
    uint32_t p = bc_cell(&w->edges, k, BC_E_PARENT), nr = w->roots.count;
    while (p >= nr)
        p = bc_cell(&w->edges, sg->in_edge[p - nr], BC_E_PARENT);
    return p;
}

/* The wildcard rules of the program against the match texts: an edge with
 * a Rank r stands for rule r, whose match text must be the slot's string,
 * a '*', and a tail whose segments are those on the way from the slot to
 * the edge (its last one anchored as the edge is). */
static inline int bc_check_rules_of_edges(bc_pctx *c, const bc_wild *w, const bc_seg *sg)
{
    bc_err *e = c->e;
    const bc_table *E = &w->edges;
    uint32_t ne = E->count, nr = w->roots.count;
    uint32_t *path = bc_alloc(((size_t)w->nint + 2) * sizeof *path);
    int ok = 1;
    for (uint32_t k = 0; k < ne && ok; k++) {
        uint32_t rank = bc_cell(E, k, BC_E_RANK);
        if (!rank)
            continue;
        uint32_t np = 0, p = k;
        for (;;) { /* edges from k up to the slot, then reversed */
            path[np++] = p;
            uint32_t par = bc_cell(E, p, BC_E_PARENT);
            if (par < nr)
                break;
            p = sg->in_edge[par - nr];
        }
        uint32_t slot = bc_cell(E, path[np - 1], BC_E_PARENT), ml, nseg;
        const uint8_t *t = bc_text(c->tx, rank, &ml);
        uint32_t sl = c->slot_len[slot];
        if (ml <= sl || t[sl] != '*' || (sl && memcmp(t, c->slot_str[slot], sl) != 0)) {
            ok = bc_fail(e, "edge %u: rule %u's match text is not the slot's string and a '*'",
                         k, rank);
            break;
        }
        int dollar = t[ml - 1] == '$';
        const uint8_t *tail = t + sl;
        size_t tl = ml - sl - (size_t)dollar;
        uint32_t *a = bc_alloc(((size_t)tl + 1) * sizeof *a), *l = bc_alloc(((size_t)tl + 1) * sizeof *l);
        bc_tail_segments(tail, tl, &nseg, a, l);
        int anch = dollar && tl && tail[tl - 1] != '*';
        if (nseg != np || anch != sg->e_anch[k])
            ok = bc_fail(e, "edge %u: rule %u has %u segments (anchored %d), the tree %u (%d)", k,
                         rank, nseg, anch, np, sg->e_anch[k]);
        for (uint32_t i = 0; ok && i < np; i++) {
            uint32_t len;
            const uint8_t *s = bc_edge_seg(sg, path[np - 1 - i], &len);
            if (len != l[i] || memcmp(s, tail + a[i], len) != 0)
                ok = bc_fail(e, "edge %u: rule %u's segment %u differs from the tree's", k, rank,
                             i);
        }
        free(a);
        free(l);
        if (!ok)
            break;
        if (c->pruned && rank <= c->slot_floor[slot])
            ok = bc_fail(e, "edge %u: wildcard rule %u can never decide (best Accept %u)", k,
                         rank, c->slot_floor[slot]);
        c->out->globs++;
        bc_add_entry(c, BC_GLOB, rank, anch, t, sl, ml - (size_t)dollar);
    }
    free(path);
    return ok;
}

/* Whether a rule of the chain's segments needs the chain form: over the
 * budgets on its own (more internal nodes than N_Internal allows, more
 * edges of one segment from internal nodes than a program may have, or
 * more distinct segments that are suffixes of one segment than a
 * dictionary chain may hold). */
static inline int bc_chain_needed(const bc_seg *sg)
{
    if (sg->nrow - 1 > BC_MAX_INTERNAL)
        return 1;
    for (uint32_t i = 0; i < sg->nrow; i++) {
        uint32_t n = 0, inner = 0;
        /* edges of one segment from internal nodes: its occurrences after
         * the first segment (one rule: one edge each) */
        for (uint32_t j = 1; j < sg->nrow; j++)
            inner += sg->len[j] == sg->len[i] &&
                     memcmp(sg->bytes + sg->off[i], sg->bytes + sg->off[j], sg->len[j]) == 0;
        if (inner > BC_MAX_INNER)
            return 1;
        for (uint32_t j = 0; j < sg->nrow; j++) {
            int dup = 0;
            for (uint32_t k = 0; k < j && !dup; k++) /* distinct segments only */
                dup = sg->len[k] == sg->len[j] &&
                      memcmp(sg->bytes + sg->off[k], sg->bytes + sg->off[j], sg->len[j]) == 0;
            if (!dup && sg->len[j] <= sg->len[i] &&
                memcmp(sg->bytes + sg->off[i] + sg->len[i] - sg->len[j], sg->bytes + sg->off[j],
                       sg->len[j]) == 0)
                n++;
        }
        if (n > BC_MAX_OUTCHAIN)
            return 1;
    }
    return 0;
}

/* Checks program pg[0..size) against the match texts tx (FORMAT.md
 * "PROGRAMS", "Nodes", "Segments", Verification 10, and the encoder's
 * promises; pruned: also that no entry can never decide), counts it into
 * *out (zeroed first) and, with collect, lists its entries. */
static inline int bc_check_program(const uint8_t *pg, size_t size, const bc_texts *tx, int collect,
                                   int pruned, bc_prog *out, bc_err *e)
{
    memset(out, 0, sizeof *out);
    const uint8_t *trie = NULL;
    uint32_t tsize = 0;
    bc_wild w;
    bc_seg sg;
    if (size == 0)
        return bc_fail(e, "empty program");
    if (!bc_split_program(pg, size, &trie, &tsize, &w, e))
        return 0;
    if (!bc_decode_wild_tx(&w, tx, &sg, e))
        return 0;
    bc_pctx c;
    memset(&c, 0, sizeof c);
    c.pg = trie;
    c.tx = tx;
    c.collect = collect;
    c.pruned = pruned;
    c.out = out;
    c.e = e;
    uint32_t nr = w.roots.count;
    c.nslots = nr;
    c.slot_str = calloc((size_t)nr + 1, sizeof *c.slot_str);
    c.slot_len = calloc((size_t)nr + 1, sizeof *c.slot_len);
    c.slot_floor = calloc((size_t)nr + 1, sizeof *c.slot_floor);
    c.slot_vmax = calloc((size_t)nr + 1, sizeof *c.slot_vmax);
    c.slot_seen = calloc((size_t)nr + 1, 1);
    if (!c.slot_str || !c.slot_len || !c.slot_floor || !c.slot_vmax || !c.slot_seen)
        exit(2);
    for (uint32_t k = 0; k < w.edges.count; k++) {
        uint32_t r = bc_cell(&w.edges, k, BC_E_RANK), s = bc_edge_slot(&w, &sg, k);
        if (r && bc_varint_size(r) > c.slot_vmax[s])
            c.slot_vmax[s] = bc_varint_size(r);
    }
    unsigned vmax;
    int ok = bc_check_node(&c, 0, tsize, 1, 0, 0, -1, &vmax);
    for (uint32_t s = 0; ok && s < nr; s++) {
        if (!c.slot_seen[s])
            ok = bc_fail(e, "ROOTS row %u: no node has this Slot", s);
        else if (bc_cell(&w.roots, s, BC_R_LEVEL) != (uint32_t)c.slot_seen[s] - 1)
            ok = bc_fail(e, "ROOTS row %u: Level %u, %u root slots above its node", s,
                         bc_cell(&w.roots, s, BC_R_LEVEL), c.slot_seen[s] - 1);
    }
    if (ok)
        ok = bc_check_rules_of_edges(&c, &w, &sg);
    if (ok && w.chain && !bc_chain_needed(&sg))
        ok = bc_fail(e, "chain form for a rule of %u segments within the budgets", sg.nrow);
    out->slots = nr, out->internal = w.nint, out->states = w.states.count;
    out->edges = w.edges.count, out->segments = w.outs.count, out->chain = w.chain;
    out->labels = w.labels, out->all_states = sg.states.count, out->implicit = sg.n_implicit;
    for (uint32_t s = 0; s < nr; s++)
        free(c.slot_str[s]);
    free(c.slot_str);
    free(c.slot_len);
    free(c.slot_floor);
    free(c.slot_vmax);
    free(c.slot_seen);
    free(c.s);
    bc_seg_free(&sg);
    return ok;
}

/* FORMAT.md "Segments" read as it defines greedy matching, not as the
 * automaton finds it: a node is reached at the earliest position where its
 * edge's segment ends, the segment starting at or after the position where
 * its parent was reached; an anchored edge's segment must end the path.
 * reached[] holds the slots' positions (SIZE_MAX: not passed) and room for
 * the internal nodes. A chain program's edges are in rule order, so one
 * pass over them in order does the same. */
static inline uint32_t bc_segments(const bc_wild *w, const bc_seg *sg, size_t *reached,
                                   const uint8_t *p, size_t n, uint32_t best)
{
    const bc_table *E = &w->edges;
    uint32_t nr = w->roots.count, ne = E->count;
    for (uint32_t i = 0; i < w->nint; i++)
        reached[nr + i] = SIZE_MAX;
    /* parents come before children in a pass repeated until stable: each
     * node is reached from its one incoming edge, so the result does not
     * depend on the order */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t k = 0; k < ne; k++) {
            uint32_t par = bc_cell(E, k, BC_E_PARENT), t = bc_cell(E, k, BC_E_TARGET);
            uint32_t rank = bc_cell(E, k, BC_E_RANK), len;
            size_t q = reached[par];
            if (q == SIZE_MAX || (t && reached[nr + t - 1] != SIZE_MAX))
                continue;
            const uint8_t *s = bc_edge_seg(sg, k, &len);
            size_t at;
            if (sg->e_anch[k])
                at = n >= q && n - q >= len && memcmp(p + n - len, s, len) == 0 ? n - len
                                                                                 : SIZE_MAX;
            else
                at = bc_find(p, n, q, s, len);
            if (at == SIZE_MAX)
                continue;
            if (rank > best)
                best = rank;
            if (t) {
                reached[nr + t - 1] = at + len;
                changed = 1;
            }
        }
    }
    return best;
}

/* FORMAT.md "Matching", walk() and segments(), over a program that
 * bc_check_program accepted with the same texts: the best rank above
 * best. */
static inline uint32_t bc_walk(const uint8_t *pg, size_t size, const bc_texts *tx, const uint8_t *p,
                               size_t n, uint32_t best)
{
    const uint8_t *trie = NULL;
    uint32_t tsize = 0;
    bc_wild w;
    bc_seg sg;
    /* the last programs decoded, kept: paths are matched many at a time,
     * against a program or two in turn (with the STRINGS their labels
     * point into) */
    static struct bc_walk_cache {
        uint8_t *pg, *str;
        size_t size;
        uint32_t tsize, max, str_size;
        int has_str;
        bc_wild w;
        bc_seg sg;
        unsigned long used;
    } cache[2];
    static unsigned long clock;
    struct bc_walk_cache *c = NULL;
    int has_str = tx->str != NULL;
    for (int k = 0; k < 2 && !c; k++) {
        struct bc_walk_cache *y = &cache[k];
        if (y->pg && y->size == size && y->max == tx->n && memcmp(y->pg, pg, size) == 0 &&
            y->has_str == has_str &&
            (!has_str || (y->str_size == tx->str_size &&
                          (!tx->str_size || memcmp(y->str, tx->str, tx->str_size) == 0))))
            c = y;
    }
    if (!c) {
        c = cache[0].used <= cache[1].used ? &cache[0] : &cache[1];
        free(c->pg);
        free(c->str);
        bc_seg_free(&c->sg);
        c->pg = bc_alloc(size);
        memcpy(c->pg, pg, size);
        c->size = size, c->max = tx->n;
        c->has_str = has_str, c->str_size = has_str ? tx->str_size : 0;
        c->str = bc_alloc(c->str_size);
        if (c->str_size)
            memcpy(c->str, tx->str, c->str_size);
        if (!bc_split_program(c->pg, size, &trie, &c->tsize, &c->w, NULL) ||
            !bc_decode_wild_tx(&c->w, tx, &c->sg, NULL)) {
            free(c->pg);
            c->pg = NULL;
            return UINT32_MAX;
        }
    }
    c->used = ++clock;
    w = c->w, sg = c->sg, tsize = c->tsize; /* Tables read from the copy: the same bytes */
    {
        const uint8_t *q = pg;
        bc_varint(&q, pg + size, &tsize);
        trie = q;
    }
    uint32_t nr = w.roots.count;
    size_t *reached = bc_alloc(((size_t)nr + w.nint + 1) * sizeof *reached);
    for (uint32_t s = 0; s < nr; s++)
        reached[s] = SIZE_MAX;
    size_t at = 0, end = tsize, i = 0;
    bc_node x;
    int any = 0;
    for (;;) {
        if (!bc_parse_node(trie, at, end, (uint32_t)i, tx, &x, NULL)) {
            best = UINT32_MAX;
            goto out;
        }
        if (n - i < x.label_len || memcmp(p + i, x.label, x.label_len) != 0)
            break;
        i += x.label_len;
        if ((x.head & 1u) && x.accept > best)
            best = x.accept;
        if (x.has_root && x.slot < nr)
            reached[x.slot] = i, any = 1;
        if (i == n) {
            if ((x.head & 2u) && x.end > best)
                best = x.end;
            break;
        }
        uint32_t k = 0;
        while (k < x.n && x.keys[k] != p[i])
            k++;
        if (k == x.n)
            break;
        bc_child_span(&x, k, end, &at, &end);
        i++;
    }
    if (any)
        best = bc_segments(&w, &sg, reached, p, n, best);
out:
    free(reached);
    return best;
}

/* ---- the whole blob ------------------------------------------------------ */

typedef struct bc_info {
    uint32_t rules, programs, sets, agents, groups, sitemaps, directives;
    int has_sets;   /* a SETS section (else set i is program i) */
    int has_global;
    uint32_t global_set;
    uint32_t nodes, max_nodes, globs, ref_labels; /* globs: EDGES rows */
    uint32_t leaves; /* one-rank leaves (Label_Head Kind 2, 3) */
    uint32_t wild_rules, chains; /* edges with a Rank; programs in chain form */
    uint32_t automata, labelled; /* programs with wildcard rules (not chains); with Labels 1 */
    uint32_t states, all_states; /* STATES rows; the whole automata's states */
    size_t max_prog_bytes;
    uint32_t max_set_programs; /* most programs in one set */
} bc_info;

/* Program k of PROGRAMS (its Table already read into t, Data at data). */
static inline void bc_program_span(const bc_table *t, const uint8_t *data, uint32_t k,
                                   const uint8_t **pg, size_t *size)
{
    uint32_t s = k ? bc_cell(t, k - 1, 0) : 0;
    *pg = data + s;
    *size = bc_cell(t, k, 0) - s;
}

static inline int bc_check_sections(const bc_blob *b, int pruned, bc_info *info, bc_texts *tx,
                                    bc_err *e)
{
    const uint8_t *p, *end;
    bc_table t, t2;

    bc_section(b, BC_RULES, &p, &end);
    memset(&t, 0, sizeof t);
    if (p) {
        if (!bc_read_table(&p, end, bc_rules_cols(b), &t, "RULES", e))
            return 0;
        for (uint32_t r = 0; r < t.count; r++) {
            uint32_t la = bc_cell(&t, r, 0), len = bc_cell(&t, r, 2);
            if ((la >> 1) < 1 || !bc_strref(b, bc_cell(&t, r, 1), len))
                return bc_fail(e, "RULES row %u: line 0 or bad string", r);
            if (r > 0) { /* by priority: Str_Len, or Match_Len (rfc) */
                const unsigned pc = b->rfc ? 4 : 2;
                uint32_t pla = bc_cell(&t, r - 1, 0), plen = bc_cell(&t, r - 1, pc);
                uint32_t pri = bc_cell(&t, r, pc);
                int up = plen != pri ? plen < pri
                         : (pla & 1u) != (la & 1u) ? (pla & 1u) < (la & 1u)
                                                    : (pla >> 1) > (la >> 1);
                if (!up)
                    return bc_fail(e, "RULES row %u not after row %u", r, r - 1);
            }
            if (b->rfc) { /* the match text: the pattern normalised */
                uint32_t mo = bc_cell(&t, r, 3), ml = bc_cell(&t, r, 4);
                if (!bc_strref(b, mo, ml))
                    return bc_fail(e, "RULES row %u: bad match text reference", r);
                const uint8_t *s = b->sec[BC_STRINGS];
                uint8_t *nb = bc_alloc(3 * (size_t)len + 1);
                size_t nl = bc_rfc_norm_as(s + bc_cell(&t, r, 1), len, nb, 0);
                int same = nl == ml && (nl == 0 || memcmp(nb, s + mo, nl) == 0);
                free(nb);
                if (!same)
                    return bc_fail(e, "RULES row %u: the match text is not the normalised pattern",
                                   r);
            }
        }
        info->rules = t.count;
        if (p != end)
            return bc_fail(e, "RULES: %zu bytes left", (size_t)(end - p));
    }
    bc_blob_texts(b, &t, tx);
    bc_table progs;
    memset(&progs, 0, sizeof progs);
    bc_section(b, BC_PROGRAMS, &p, &end);
    if (p) {
        if (!bc_read_table(&p, end, 1, &progs, "PROGRAMS", e))
            return 0;
        size_t dsize = (size_t)(end - p);
        for (uint32_t k = 0; k < progs.count; k++) {
            uint32_t ek = bc_cell(&progs, k, 0);
            if ((k > 0 && ek <= bc_cell(&progs, k - 1, 0)) || (k == 0 && ek == 0))
                return bc_fail(e, "PROGRAMS: End %u not increasing", k);
        }
        if (progs.count == 0 || bc_cell(&progs, progs.count - 1, 0) != dsize)
            return bc_fail(e, "PROGRAMS: the last End is not the size of Data (%zu)", dsize);
        for (uint32_t k = 0; k < progs.count; k++) {
            const uint8_t *pg;
            size_t size;
            bc_prog pr;
            bc_program_span(&progs, p, k, &pg, &size);
            if (!bc_check_program(pg, size, tx, 0, pruned, &pr, e)) {
                char m[sizeof e->msg];
                memcpy(m, e->msg, sizeof m);
                snprintf(e->msg, sizeof e->msg, "program %u: %.200s", k, m);
                return 0;
            }
            info->nodes += pr.nodes;
            info->globs += pr.edges; /* what rsc_blob_info_get counts: EDGES rows */
            info->wild_rules += pr.globs;
            info->chains += pr.chain;
            info->automata += pr.slots && !pr.chain;
            info->labelled += (uint32_t)pr.labels;
            info->states += pr.states, info->all_states += pr.all_states;
            info->ref_labels += pr.ref_labels;
            info->leaves += pr.leaves;
            if (pr.nodes > info->max_nodes)
                info->max_nodes = pr.nodes;
            if (size > info->max_prog_bytes)
                info->max_prog_bytes = size;
        }
        info->programs = progs.count;
    }
    bc_section(b, BC_SETS, &p, &end);
    info->sets = info->programs; /* absent: set i is program i */
    info->max_set_programs = info->programs ? 1 : 0;
    if (p) {
        if (!bc_read_table(&p, end, 2, &t, "SETS", e) ||
            !bc_read_table(&p, end, 1, &t2, "SETS list", e))
            return 0;
        int ident = t.count == info->programs;
        info->max_set_programs = 0;
        for (uint32_t r = 0; r < t.count; r++) {
            uint32_t f = bc_cell(&t, r, 0), k = bc_cell(&t, r, 1);
            if (f > t2.count || k > t2.count - f)
                return bc_fail(e, "SETS row %u outside the list", r);
            if (k > info->max_set_programs)
                info->max_set_programs = k;
            ident = ident && k == 1 && bc_cell(&t2, f, 0) == r;
        }
        for (uint32_t r = 0; r < t2.count; r++)
            if (bc_cell(&t2, r, 0) >= info->programs)
                return bc_fail(e, "SETS list row %u: no such program", r);
        if (ident)
            return bc_fail(e, "SETS: set i is program i (an encoder omits SETS)");
        info->sets = t.count;
        info->has_sets = 1;
        if (p != end)
            return bc_fail(e, "SETS: %zu bytes left", (size_t)(end - p));
    }
    bc_section(b, BC_AGENTS, &p, &end);
    if (p) {
        uint32_t g;
        if (!bc_varint(&p, end, &g) || g > info->sets)
            return bc_fail(e, "AGENTS: bad Global");
        info->has_global = g != 0;
        info->global_set = g ? g - 1 : 0;
        if (!bc_read_table(&p, end, 3, &t, "AGENTS", e))
            return 0;
        const uint8_t *s = b->sec[BC_STRINGS];
        size_t sum = 0;
        for (uint32_t r = 0; r < t.count; r++) {
            uint32_t off = bc_cell(&t, r, 0), len = bc_cell(&t, r, 1);
            if (!bc_strref(b, off, len) || bc_cell(&t, r, 2) >= info->sets)
                return bc_fail(e, "AGENTS row %u: bad string or set", r);
            sum += len;
            for (uint32_t i = 0; i < len; i++)
                if (!((s[off + i] >= 'a' && s[off + i] <= 'z') || s[off + i] == '_' ||
                      s[off + i] == '-'))
                    return bc_fail(e, "AGENTS row %u: byte %#x", r, s[off + i]);
            if (r > 0) {
                uint32_t po = bc_cell(&t, r - 1, 0), pl = bc_cell(&t, r - 1, 1);
                uint32_t m = pl < len ? pl : len;
                int d = m ? memcmp(s + po, s + off, m) : 0;
                if (d > 0 || (d == 0 && pl >= len))
                    return bc_fail(e, "AGENTS row %u not after row %u", r, r - 1);
            }
        }
        if (sum > b->sec_size[BC_STRINGS])
            return bc_fail(e, "AGENTS: tokens longer than STRINGS");
        info->agents = t.count;
        if (p != end)
            return bc_fail(e, "AGENTS: %zu bytes left", (size_t)(end - p));
    }
    bc_section(b, BC_GROUPS, &p, &end);
    if (p) {
        if (!bc_read_table(&p, end, 2, &t, "GROUPS", e) ||
            !bc_read_table(&p, end, 1, &t2, "GROUPS list", e))
            return 0;
        for (uint32_t r = 0; r < t.count; r++) {
            uint32_t f = bc_cell(&t, r, 1);
            /* Verification: First(0) = 0, non-decreasing, <= List_Count;
             * the encoder: every group names an agent, in file order. */
            if ((r == 0 && f != 0) || f > t2.count ||
                (r > 0 && f < bc_cell(&t, r - 1, 1)))
                return bc_fail(e, "GROUPS row %u: First %u", r, f);
            uint32_t next = r + 1 < t.count ? bc_cell(&t, r + 1, 1) : t2.count;
            if (next <= f || bc_cell(&t, r, 0) < 1 ||
                (r > 0 && bc_cell(&t, r, 0) <= bc_cell(&t, r - 1, 0)))
                return bc_fail(e, "GROUPS row %u: no agent, or line %u not after the previous",
                               r, bc_cell(&t, r, 0));
        }
        for (uint32_t r = 0; r < t2.count; r++)
            if (bc_cell(&t2, r, 0) > info->agents)
                return bc_fail(e, "GROUPS list row %u: Agent %u, %u AGENTS rows", r,
                               bc_cell(&t2, r, 0), info->agents);
        info->groups = t.count;
        if (p != end)
            return bc_fail(e, "GROUPS: %zu bytes left", (size_t)(end - p));
    }
    bc_section(b, BC_SITEMAPS, &p, &end);
    if (p) {
        if (!bc_read_table(&p, end, 3, &t, "SITEMAPS", e))
            return 0;
        for (uint32_t r = 0; r < t.count; r++)
            if (!bc_strref(b, bc_cell(&t, r, 1), bc_cell(&t, r, 2)))
                return bc_fail(e, "SITEMAPS row %u: bad string", r);
        info->sitemaps = t.count;
        if (p != end)
            return bc_fail(e, "SITEMAPS: %zu bytes left", (size_t)(end - p));
    }
    bc_section(b, BC_DIRECTIVES, &p, &end);
    if (p) {
        if (!bc_read_table(&p, end, 6, &t, "DIRECTIVES", e))
            return 0;
        for (uint32_t r = 0; r < t.count; r++)
            if (bc_cell(&t, r, 1) > info->groups ||
                !bc_strref(b, bc_cell(&t, r, 2), bc_cell(&t, r, 3)) ||
                !bc_strref(b, bc_cell(&t, r, 4), bc_cell(&t, r, 5)))
                return bc_fail(e, "DIRECTIVES row %u: bad group or string", r);
        info->directives = t.count;
        if (p != end)
            return bc_fail(e, "DIRECTIVES: %zu bytes left", (size_t)(end - p));
    }
    /* DFAS (format 5): one End a set, each span a DFA (K, Start, Rules,
     * Size, Widths, CODE: K records), then three zero bytes; the encoder's
     * promises: widths minimal (W 1 when CODE fits 254 bytes, LW the
     * fewest bytes of the largest label offset), every code a record's
     * offset or a verdict, a label's N >= 1 inside STRINGS, an explicit
     * state's keys strictly increasing, none NUL. */
    bc_section(b, BC_DFAS, &p, &end);
    if (p) {
        if (!bc_read_table(&p, end, 1, &t, "DFAS", e))
            return 0;
        if (t.count != info->sets)
            return bc_fail(e, "DFAS: %u rows, %u sets", t.count, info->sets);
        if (end - p < 3 || end[-1] || end[-2] || end[-3])
            return bc_fail(e, "DFAS: Data does not end with three zeros");
        const uint8_t *data = p;
        uint32_t prev = 0;
        for (uint32_t r = 0; r < t.count; r++) {
            uint32_t en = bc_cell(&t, r, 0), k, start, rules, size;
            if (en < prev || en > (size_t)(end - data) - 3 || (r + 1 == t.count && en != (size_t)(end - data) - 3))
                return bc_fail(e, "DFAS row %u: End %u", r, en);
            if (en == prev)
                continue;
            const uint8_t *q = data + prev, *qe = data + en;
            if (!bc_varint(&q, qe, &k) || !bc_varint(&q, qe, &start) || !bc_varint(&q, qe, &rules) ||
                !bc_varint(&q, qe, &size) || q >= qe || rules > info->rules)
                return bc_fail(e, "DFA of set %u: bad head", r);
            const uint32_t w = *q & 15, lw = *q >> 4, va = w == 1 ? 0xfeu : 0xfffeu;
            q++;
            if ((w != 1 && w != 2) || (w == 2) != (size > 0xfe) || lw < 1 || lw > 4 || size > va ||
                (size_t)(qe - q) != size)
                return bc_fail(e, "DFA of set %u: widths %u/%u for %u bytes of CODE, %zu left", r, w, lw, size,
                               (size_t)(qe - q));
            uint8_t *starts = (uint8_t *)calloc((size_t)size + 1, 1);
            uint32_t n = 0, maxoff = 0;
            const char *bad = NULL;
            if (!starts)
                return bc_fail(e, "out of memory");
            for (uint32_t c = 0; c < size && !bad; n++) {
                const uint64_t bytes = q[c] & 2 ? 2 + 2 * w + lw : 2 + w + (uint64_t)q[c + 1] * (1 + w);
                if (size - c < 2 || q[c] > 7 || bytes > size - c)
                    bad = "a record past CODE or bad Flags";
                else
                    starts[c] = 1, c += (uint32_t)bytes;
            }
#define BC_CODE(x) ((x) >= va ? (x) <= va + 1 : (x) < size && starts[x])
#define BC_LE(ptr, nb) bc_rdn((ptr), (nb))
            if (!bad && n != k)
                bad = "K is not the record count";
            if (!bad && !BC_CODE(start))
                bad = "Start is not a code";
            for (uint32_t c = 0; c < size && !bad;) {
                const uint8_t *rec = q + c;
                const uint32_t fl = rec[0], len = rec[1], o = BC_LE(rec + 2, w);
                if (!BC_CODE(o))
                    bad = "Other is not a code";
                else if ((fl & 4) && (o >= va || (q[o] & 4) || BC_LE(q + o + 2, w) != o))
                    bad = "falls back to a state that is not its own default";
                else if (fl & 2) {
                    const uint32_t lo = BC_LE(rec + 2 + 2 * w, lw);
                    if (!len || !bc_strref(b, lo, len) || !BC_CODE(BC_LE(rec + 2 + w, w)))
                        bad = "bad label";
                    if (lo + len - 1 > maxoff)
                        maxoff = lo + len - 1;
                    c += 2 + 2 * w + lw;
                } else {
                    for (uint32_t i = 0; i < len && !bad; i++)
                        if (rec[2 + w + i] == 0 || (i && rec[2 + w + i] <= rec[2 + w + i - 1]))
                            bad = "a NUL key or keys not increasing";
                        else if (!BC_CODE(BC_LE(rec + 2 + w + len + i * w, w)))
                            bad = "a target is not a code";
                    c += 2 + w + len * (1 + w);
                }
            }
            if (!bad && lw != (maxoff < 0x100u ? 1u : maxoff < 0x10000u ? 2u : maxoff < 0x1000000u ? 3u : 4u))
                bad = "Lab_Off's width is not the fewest bytes";
#undef BC_CODE
#undef BC_LE
            free(starts);
            if (bad)
                return bc_fail(e, "DFA of set %u: %s", r, bad);
            prev = en;
        }
    }
    return 1;
}

/* Everything: bc_open, then every section's content (Verification 9-15
 * and the encoder's promises), every program with bc_check_program
 * (pruned: the compiler's default). */
static inline int bc_check_blob(const void *data, size_t n, int pruned, bc_info *info, bc_err *e)
{
    bc_blob b;
    bc_info dummy;
    bc_texts tx;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    memset(&tx, 0, sizeof tx);
    if (!bc_open(&b, data, n, e))
        return 0;
    int ok = bc_check_sections(&b, pruned, info, &tx, e);
    bc_texts_free(&tx);
    return ok;
}

#endif
