/* SPDX-License-Identifier: Apache-2.0 */
/* docs/FORMAT.md version 4.0, read independently (see blobspec.h). Section
 * names in the comments are those of FORMAT.md. */
#include "blobspec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/runtime.h" /* the status numbers only */

static const uint8_t MAGIC[BS_MAGIC_LEN] = {0x89, 'R', 'S', 'C'};

uint32_t bs_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void bs_wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t rdn(const uint8_t *p, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

/* Conventions, varint: 1 to 5 bytes, value < 2^32, canonical. */
static int varint(const uint8_t *b, size_t *pos, size_t end, uint32_t *out)
{
    uint64_t val = 0;
    for (size_t i = 0; i < 5; i++) {
        if (*pos + i >= end)
            return 0;
        uint8_t c = b[*pos + i];
        val |= (uint64_t)(c & 0x7f) << (7 * i);
        if (c & 0x80)
            continue;
        if (i > 0 && c == 0)
            return 0; /* not canonical */
        if (val > 0xFFFFFFFFu)
            return 0;
        *out = (uint32_t)val;
        *pos += i + 1;
        return 1;
    }
    return 0; /* a sixth byte */
}

/* ---- Checksum ----------------------------------------------------------- */

void bs_checksum(uint8_t *b, size_t n)
{
    if (n < BS_H_CHECK + 4)
        return;
    size_t total = n, pos = BS_H_TOTAL;
    uint32_t t;
    if (varint(b, &pos, n, &t) && t < n)
        total = t;
    uint32_t a = 1, s = 0;
    for (size_t i = 0; i < total; i++) {
        uint32_t x = i >= BS_H_CHECK && i < BS_H_CHECK + 4 ? 0 : b[i];
        a = (a + x) % 65521u;
        s = (s + a) % 65521u;
    }
    bs_wr32(b + BS_H_CHECK, s << 16 | a);
}

/* ---- Verification ------------------------------------------------------- */

typedef struct vstate {
    const uint8_t *b;
    bs_blob *x;
    int record;
    uint32_t n_rules, n_programs, n_sets, n_groups, prog_nodes;
    uint32_t n_slots; /* the current program's ROOTS Count */
} vstate;

static int fail(vstate *v, int st, size_t off, const char *what)
{
    v->x->status = st;
    v->x->fail_off = off;
    v->x->what = what;
    return st;
}

#define REQ(c, st, off, what)                                                 \
    do {                                                                      \
        if (!(c))                                                             \
            return fail(v, (st), (off), (what));                              \
    } while (0)
#define BAD(c, off, what) REQ(c, RSC_E_CORRUPT, off, what)
#define TRY(e)                                                                \
    do {                                                                      \
        int st_ = (e);                                                        \
        if (st_)                                                              \
            return st_;                                                       \
    } while (0)

static void rec(vstate *v, uint8_t kind, size_t off, size_t len, uint32_t value, uint8_t sec, uint8_t tab,
                uint8_t col, uint32_t row, uint32_t aux)
{
    bs_blob *x = v->x;
    if (!v->record)
        return;
    if (x->n_fields == x->cap_fields) {
        x->cap_fields = x->cap_fields ? 2 * x->cap_fields : 256;
        x->fields = realloc(x->fields, x->cap_fields * sizeof *x->fields);
        if (!x->fields) {
            fprintf(stderr, "blobspec: out of memory\n");
            exit(1);
        }
    }
    bs_field *f = &x->fields[x->n_fields++];
    memset(f, 0, sizeof *f);
    f->kind = kind, f->off = (uint32_t)off, f->len = (uint32_t)len, f->value = value;
    f->sec = sec, f->tab = tab, f->col = col, f->row = row, f->aux = aux;
}

/* Reads a varint field of kind k at *pos, recording it; fails CORRUPT at
 * its offset. */
static int field(vstate *v, size_t *pos, size_t end, uint32_t *out, uint8_t k, uint8_t sec, const char *what)
{
    size_t at = *pos;
    BAD(varint(v->b, pos, end, out), at, what);
    rec(v, k, at, *pos - at, *out, sec, 0, 0, 0, 0);
    return 0;
}

/* A Table of cols columns at *pos (Conventions): Count, then ceil(cols/4)
 * bytes of packed widths (column c's width - 1 in bits 2c%8.. of byte c/4,
 * the bits past the last column zero), rows inside the section; failures
 * at the Table's offset. */
static int table(vstate *v, size_t *pos, size_t end, unsigned cols, bs_tab *t, uint8_t sec, uint8_t tab,
                 int last)
{
    size_t at = *pos;
    uint32_t count;
    BAD(varint(v->b, pos, end, &count), at, "table Count");
    rec(v, BS_COUNT, at, *pos - at, count, sec, tab, 0, 0, 0);
    if (v->record)
        v->x->fields[v->x->n_fields - 1].last = (uint8_t)last;
    t->off = (uint32_t)*pos, t->count = 0, t->row = 0;
    if (count == 0) /* an empty Table is the single byte 0 */
        return 0;
    const unsigned nw = (cols + 3) / 4;
    BAD(end - *pos >= nw, at, "table widths past the section");
    const uint8_t *wb = v->b + *pos;
    uint32_t row = 0;
    for (unsigned c = 0; c < cols; c++) {
        uint8_t w = (uint8_t)(((wb[c / 4] >> (2 * (c % 4))) & 3) + 1);
        /* value: the width; row: the column's first bit in its byte;
         * aux: the columns */
        rec(v, BS_WIDTH, *pos + c / 4, 1, w, sec, tab, (uint8_t)c, 2 * (c % 4), cols);
        t->w[c] = w;
        row += w;
    }
    BAD(cols % 4 == 0 || wb[nw - 1] >> (2 * (cols % 4)) == 0, at, "table width bits past the columns");
    *pos += nw;
    BAD(count <= (end - *pos) / row, at, "table rows past the section");
    t->off = (uint32_t)*pos, t->count = count, t->row = row;
    for (uint32_t r = 0; r < count && v->record; r++) {
        size_t o = *pos + (size_t)r * row;
        for (unsigned c = 0; c < cols; c++) {
            rec(v, BS_CELL, o, t->w[c], rdn(v->b + o, t->w[c]), sec, tab, (uint8_t)c, r, 0);
            v->x->fields[v->x->n_fields - 1].last = (uint8_t)last;
            o += t->w[c];
        }
    }
    *pos += (size_t)count * row;
    return 0;
}

uint32_t bs_cell(const uint8_t *b, const bs_tab *t, uint32_t row, unsigned col)
{
    size_t o = t->off + (size_t)row * t->row;
    for (unsigned c = 0; c < col; c++)
        o += t->w[c];
    return rdn(b + o, t->w[col]);
}

static size_t row_at(const bs_tab *t, uint32_t r)
{
    return t->off + (size_t)r * t->row;
}

static int in_strings(const vstate *v, uint32_t off, uint32_t len)
{
    uint64_t n = v->x->sec_size[1];
    return (uint64_t)off + len <= n;
}

static int filled(vstate *v, size_t pos, size_t end)
{
    BAD(pos == end, pos, "section content does not fill its Size");
    return 0;
}

/* RULES (2). */
static int rules(vstate *v)
{
    bs_blob *x = v->x;
    size_t pos = x->sec_off[2], end = pos + x->sec_size[2];
    if (!x->sec_size[2])
        return 0;
    int rfc = x->flags & 1;
    TRY(table(v, &pos, end, rfc ? 5 : 3, &x->rules, 2, 0, 1));
    TRY(filled(v, pos, end));
    const uint8_t *b = v->b;
    for (uint32_t r = 0; r < x->rules.count; r++) {
        uint32_t la = bs_cell(b, &x->rules, r, 0), off = bs_cell(b, &x->rules, r, 1), len = bs_cell(b, &x->rules, r, 2);
        BAD(la >> 1 >= 1, row_at(&x->rules, r), "rule Line 0");
        BAD(in_strings(v, off, len), row_at(&x->rules, r), "rule pattern outside STRINGS");
        BAD(!rfc || in_strings(v, bs_cell(b, &x->rules, r, 3), bs_cell(b, &x->rules, r, 4)), row_at(&x->rules, r),
            "rule match text outside STRINGS");
        if (rfc) /* the rfc profile's priority is Match_Len */
            len = bs_cell(b, &x->rules, r, 4);
        if (r) { /* strictly increasing by (priority, allow, -Line) */
            uint32_t pla = bs_cell(b, &x->rules, r - 1, 0), plen = bs_cell(b, &x->rules, r - 1, rfc ? 4 : 2);
            int gt = len != plen ? len > plen : (la & 1) != (pla & 1) ? (la & 1) > (pla & 1) : (la >> 1) < (pla >> 1);
            BAD(gt, row_at(&x->rules, r), "rules not increasing by rank");
        }
    }
    v->n_rules = x->rules.count;
    return 0;
}

static int rank_ok(const vstate *v, uint32_t r)
{
    return r >= 1 && r <= v->n_rules;
}

/* RULES: the match text of rank r (the pattern; in rfc, the normalised
 * pattern). */
static const uint8_t *match_text(const uint8_t *b, const bs_blob *x, uint32_t r, uint32_t *len)
{
    unsigned c = x->flags & 1 ? 3 : 1;
    *len = bs_cell(b, &x->rules, r - 1, c + 1);
    return b + x->sec_off[1] + bs_cell(b, &x->rules, r - 1, c);
}

/* PROGRAMS (3), Nodes: one node in its span [at, end), on a chain of
 * `chain` nodes (the root: 1), its label starting at string depth d.
 * Label_Head = Label_Len << 2 | Kind: 0 an inline label, 1 a Rep label,
 * 2 and 3 a leaf of one rank (Accept or End = the Rep) with nothing after
 * the Rep. */
static int node(vstate *v, size_t at, size_t end, uint32_t chain, uint64_t d)
{
    const uint8_t *b = v->b;
    bs_blob *x = v->x;
    size_t pos = at, f;
    uint32_t lh, head, r, ml;
    BAD(chain <= BS_MAX_CHAIN, at, "more than 1024 nodes on a chain");
    x->nodes++, v->prog_nodes++;
    if (chain > x->max_chain)
        x->max_chain = chain;
    f = pos;
    BAD(varint(b, &pos, end, &lh), f, "Label_Head");
    uint32_t ll = lh >> 2, kind = lh & 3;
    rec(v, BS_LABEL_HEAD, f, pos - f, lh, 3, 0, 0, UINT32_MAX, chain == 1);
    BAD(chain > 1 || lh == 0, f, "root with a label");
    if (kind) { /* the label is MatchText(Rep)[d .. d + Label_Len) */
        f = pos;
        BAD(varint(b, &pos, end, &r), f, "label Rep");
        rec(v, BS_REP, f, pos - f, r, 3, 0, 0, 0, kind);
        BAD(rank_ok(v, r), f, "label Rep not in 1..Rule_Count");
        match_text(b, x, r, &ml);
        BAD(d + ll <= ml, f, "label past its Rep's match text");
        if (v->record) /* the Label_Head's room */
            x->fields[x->n_fields - 2].row = (uint32_t)(ml - d - ll);
        if (kind >= 2) { /* a leaf of one rank: the node ends here */
            x->leaves++;
            BAD(pos == end, pos, "one-rank leaf does not end its span");
            return 0;
        }
    } else {
        BAD(ll <= end - pos, f, "label past the span");
        pos += ll;
    }
    uint64_t depth = d + ll; /* |s| */
    f = pos;
    BAD(varint(b, &pos, end, &head), f, "Head");
    rec(v, BS_HEAD, f, pos - f, head, 3, 0, 0, 0, (uint32_t)end);
    uint32_t children = head >> 5, width = (head >> 3) & 3;
    BAD(children <= 256, f, "more than 256 children");
    BAD(children > 1 || width == 0, f, "Width of a node with at most one child not 0");
    if (head & 1) {
        f = pos;
        BAD(varint(b, &pos, end, &r), f, "Accept");
        rec(v, BS_ACCEPT, f, pos - f, r, 3, 0, 0, 0, 0);
        BAD(rank_ok(v, r), f, "Accept not in 1..Rule_Count");
    }
    if (head & 2) {
        f = pos;
        BAD(varint(b, &pos, end, &r), f, "End");
        rec(v, BS_END, f, pos - f, r, 3, 0, 0, 0, 0);
        BAD(rank_ok(v, r), f, "End not in 1..Rule_Count");
    }
    if (head & 4) { /* Has_Root: a row of ROOTS */
        f = pos;
        BAD(varint(b, &pos, end, &r), f, "Slot");
        rec(v, BS_SLOT, f, pos - f, r, 3, 0, 0, 0, v->n_slots);
        BAD(r < v->n_slots, f, "Slot not below the ROOTS Count");
    }
    if (children == 0) {
        BAD(pos == end, pos, "childless node does not end its span");
        return 0;
    }
    /* Keys, then Children - 1 Offsets (child 0 starts at C) */
    size_t w = width + 1;
    f = pos;
    BAD(children <= end - pos && (uint64_t)(children - 1) * w <= end - pos - children, f,
        "Keys and Offsets past the span");
    for (uint32_t k = 0; k < children; k++) {
        rec(v, BS_KEY, pos + k, 1, b[pos + k], 3, 0, 0, k, 0);
        BAD(k == 0 || b[pos + k - 1] < b[pos + k], pos + k, "Keys not strictly increasing");
    }
    pos += children;
    size_t c = pos + (children - 1) * w;
    uint32_t prev = 0;
    for (uint32_t k = 1; k < children; k++) {
        size_t o_at = pos + (k - 1) * w;
        uint32_t o = rdn(b + o_at, (unsigned)w);
        rec(v, BS_OFFSET, o_at, (uint32_t)w, o, 3, 0, 0, k, (uint32_t)(end - c));
        BAD(o > prev, o_at, "Offsets not strictly increasing from 1");
        BAD(o < end - c, o_at, "child offset outside the span");
        prev = o;
    }
    BAD(prev < end - c, c, "last child outside the span");
    for (uint32_t k = 0; k < children; k++) {
        size_t cs = c + (k ? rdn(b + pos + (k - 1) * w, (unsigned)w) : 0);
        size_t ce = k + 1 < children ? c + rdn(b + pos + k * w, (unsigned)w) : end;
        TRY(node(v, cs, ce, chain + 1, depth + 1));
    }
    return 0;
}

/* Rule 10 for one program in [pos, end): Trie_Size, Shape, the four
 * Tables and their rows, then the trie. */
static int program(vstate *v, size_t pos, size_t end)
{
    const uint8_t *b = v->b;
    bs_blob *x = v->x;
    size_t f = pos;
    uint32_t tsize, shape;
    BAD(varint(b, &pos, end, &tsize), f, "Trie_Size");
    rec(v, BS_TRIE_SIZE, f, pos - f, tsize, 3, 0, 0, 0, (uint32_t)(end - pos));
    BAD(tsize >= 1 && tsize <= end - pos, f, "Trie_Size 0 or past the program");
    size_t trie = pos, g = pos + tsize;
    f = g;
    BAD(varint(b, &g, end, &shape), f, "Shape");
    rec(v, BS_SHAPE, f, g - f, shape, 3, 0, 0, 0, 0);
    size_t shape_field = x->n_fields; /* (its aux, the ROOTS Count, set below) */
    /* Shape = N_Internal << 2 | Labels << 1 | Chain */
    uint32_t nint = shape >> 2, labels = shape >> 1 & 1, chain = shape & 1;
    BAD(chain || nint <= BS_MAX_INTERNAL, f, "N_Internal over 512");
    BAD(!(chain && labels), f, "a chain with Labels");
    bs_tab R, O, S, E;
    TRY(table(v, &g, end, 2, &R, 3, 1, 0));
    if (v->record && shape_field)
        x->fields[shape_field - 1].aux = R.count;
    TRY(table(v, &g, end, 6, &O, 3, 2, 0));
    TRY(table(v, &g, end, labels ? 7 : 5, &S, 3, 3, 0)); /* Labels: Lab_Off, Lab_Len */
    TRY(table(v, &g, end, 4, &E, 3, 4, 0));
    if (R.count) { /* Pad[3], zeros, when ROOTS is not empty */
        BAD(end - g == 3, g, "program with root slots without its 3 bytes of padding");
        for (unsigned k = 0; k < 3; k++) {
            rec(v, BS_PAD, g, 1, b[g], 3, 0, 0, k, 0);
            BAD(b[g] == 0, g, "padding byte not zero");
            g++;
        }
    }
    BAD(g == end, g, "program does not end with its EDGES");
    BAD(R.count == 0 || S.count >= 1, R.off, "ROOTS without STATES");
    BAD(R.count || (O.count == 0 && S.count == 0 && E.count == 0), R.off, "OUTS, STATES or EDGES without ROOTS");
    for (uint32_t r = 0; r < R.count; r++)
        BAD(bs_cell(b, &R, r, 0) < 16 && bs_cell(b, &R, r, 1) <= v->n_rules, row_at(&R, r),
            "ROOTS Level over 15 or Max over Rule_Count");
    for (uint32_t r = 0; r < O.count; r++) {
        uint64_t ed = bs_cell(b, &O, r, 3), nf = bs_cell(b, &O, r, 4), na = bs_cell(b, &O, r, 5);
        BAD(bs_cell(b, &O, r, 0) >= 1 && bs_cell(b, &O, r, 1) <= r && bs_cell(b, &O, r, 2) <= v->n_rules &&
                ed + nf + na <= E.count,
            row_at(&O, r), "OUTS row out of range");
    }
    for (uint32_t r = 0; r < S.count; r++) {
        uint64_t first = bs_cell(b, &S, r, 1), n = bs_cell(b, &S, r, 2);
        BAD(first + n <= S.count && n <= 256 && bs_cell(b, &S, r, 3) < S.count && bs_cell(b, &S, r, 4) <= O.count,
            row_at(&S, r), "STATES row out of range");
        /* Labels: the label is a string reference */
        BAD(!labels || in_strings(v, bs_cell(b, &S, r, 5), bs_cell(b, &S, r, 6)), row_at(&S, r),
            "state label past STRINGS");
        x->lab_states += labels && bs_cell(b, &S, r, 6) > 0;
    }
    for (uint32_t r = 0; r < E.count; r++)
        BAD((uint64_t)bs_cell(b, &E, r, 0) < (uint64_t)R.count + nint && bs_cell(b, &E, r, 1) <= v->n_rules &&
                bs_cell(b, &E, r, 2) <= nint && bs_cell(b, &E, r, 3) <= v->n_rules,
            row_at(&E, r), "EDGES row out of range");
    if (chain) { /* one slot, an edge a segment, a line of Len + 1 states each */
        uint64_t sum = 0;
        for (uint32_t r = 0; r < O.count; r++)
            sum += (uint64_t)bs_cell(b, &O, r, 0) + 1;
        BAD(R.count == 1 && O.count >= 1 && E.count == O.count && sum == S.count, f,
            "chain without one slot, an edge a segment and a line a segment");
        x->chains++;
    }
    x->globs += E.count, x->slots += R.count, x->states += S.count, x->labelled += labels;
    v->n_slots = R.count;
    return node(v, trie, trie + tsize, 1, 0);
}

static int programs(vstate *v)
{
    bs_blob *x = v->x;
    size_t pos = x->sec_off[3], end = pos + x->sec_size[3];
    if (!x->sec_size[3])
        return 0;
    TRY(table(v, &pos, end, 1, &x->progs, 3, 0, 0));
    x->data_off = (uint32_t)pos, x->data_size = (uint32_t)(end - pos);
    uint32_t prev = 0, n = x->progs.count;
    BAD(n > 0 || pos == end, pos, "Data without programs");
    for (uint32_t k = 0; k < n; k++) {
        uint32_t e = bs_cell(v->b, &x->progs, k, 0);
        BAD(e > prev && e <= x->data_size && (k + 1 < n || e == x->data_size), row_at(&x->progs, k),
            "Ends not strictly increasing to the size of Data");
        v->prog_nodes = 0;
        TRY(program(v, pos + prev, pos + e));
        if (v->prog_nodes > x->max_prog_nodes)
            x->max_prog_nodes = v->prog_nodes;
        prev = e;
    }
    v->n_programs = n;
    return 0;
}

static int sets(vstate *v)
{
    bs_blob *x = v->x;
    size_t pos = x->sec_off[4], end = pos + x->sec_size[4];
    v->n_sets = x->n_sets = v->n_programs; /* absent: set i is program i */
    if (!x->sec_size[4])
        return 0;
    TRY(table(v, &pos, end, 2, &x->sets, 4, 0, 0));
    TRY(table(v, &pos, end, 1, &x->slist, 4, 1, 1));
    TRY(filled(v, pos, end));
    uint32_t lc = x->slist.count;
    for (uint32_t r = 0; r < x->sets.count; r++) {
        uint32_t first = bs_cell(v->b, &x->sets, r, 0), n = bs_cell(v->b, &x->sets, r, 1);
        BAD(first <= lc && n <= lc - first, row_at(&x->sets, r), "set outside List");
    }
    for (uint32_t r = 0; r < lc; r++)
        BAD(bs_cell(v->b, &x->slist, r, 0) < v->n_programs, row_at(&x->slist, r), "no such program");
    v->n_sets = x->n_sets = x->sets.count;
    return 0;
}

static int agents(vstate *v)
{
    bs_blob *x = v->x;
    size_t pos = x->sec_off[5], end = pos + x->sec_size[5];
    if (!x->sec_size[5])
        return 0;
    size_t at = pos;
    TRY(field(v, &pos, end, &x->global, BS_GLOBAL, 5, "Global"));
    BAD(x->global <= v->n_sets, at, "Global past the sets");
    TRY(table(v, &pos, end, 3, &x->agents, 5, 0, 1));
    TRY(filled(v, pos, end));
    const uint8_t *s = v->b + x->sec_off[1];
    uint64_t sum = 0;
    for (uint32_t r = 0; r < x->agents.count; r++) {
        uint32_t off = bs_cell(v->b, &x->agents, r, 0), len = bs_cell(v->b, &x->agents, r, 1);
        size_t ra = row_at(&x->agents, r);
        BAD(in_strings(v, off, len), ra, "agent token outside STRINGS");
        sum += len;
        BAD(sum <= x->sec_size[1], ra, "agent tokens longer than STRINGS");
        for (uint32_t i = 0; i < len; i++)
            BAD((s[off + i] >= 'a' && s[off + i] <= 'z') || s[off + i] == '_' || s[off + i] == '-', ra,
                "agent token byte outside [a-z_-]");
        if (r) {
            uint32_t po = bs_cell(v->b, &x->agents, r - 1, 0), pl = bs_cell(v->b, &x->agents, r - 1, 1);
            int d = memcmp(s + po, s + off, pl < len ? pl : len);
            BAD(d < 0 || (d == 0 && pl < len), ra, "agents not increasing");
        }
        BAD(bs_cell(v->b, &x->agents, r, 2) < v->n_sets, ra, "agent Set past the sets");
    }
    return 0;
}

static int groups(vstate *v)
{
    bs_blob *x = v->x;
    size_t pos = x->sec_off[6], end = pos + x->sec_size[6];
    if (!x->sec_size[6])
        return 0;
    TRY(table(v, &pos, end, 2, &x->groups, 6, 0, 0));
    TRY(table(v, &pos, end, 1, &x->glist, 6, 1, 1));
    TRY(filled(v, pos, end));
    uint32_t lc = x->glist.count;
    for (uint32_t r = 0; r < x->groups.count; r++) {
        uint32_t first = bs_cell(v->b, &x->groups, r, 1);
        BAD(r ? first >= bs_cell(v->b, &x->groups, r - 1, 1) && first <= lc : first == 0, row_at(&x->groups, r),
            "group First not 0, then non-decreasing up to List_Count");
    }
    for (uint32_t r = 0; r < lc; r++)
        BAD(bs_cell(v->b, &x->glist, r, 0) <= x->agents.count, row_at(&x->glist, r), "group Agent past AGENTS");
    v->n_groups = x->groups.count;
    return 0;
}

static int sitemaps(vstate *v)
{
    bs_blob *x = v->x;
    size_t pos = x->sec_off[7], end = pos + x->sec_size[7];
    if (!x->sec_size[7])
        return 0;
    TRY(table(v, &pos, end, 3, &x->sitemaps, 7, 0, 1));
    TRY(filled(v, pos, end));
    for (uint32_t r = 0; r < x->sitemaps.count; r++)
        BAD(in_strings(v, bs_cell(v->b, &x->sitemaps, r, 1), bs_cell(v->b, &x->sitemaps, r, 2)),
            row_at(&x->sitemaps, r), "sitemap outside STRINGS");
    return 0;
}

static int directives(vstate *v)
{
    bs_blob *x = v->x;
    size_t pos = x->sec_off[8], end = pos + x->sec_size[8];
    if (!x->sec_size[8])
        return 0;
    TRY(table(v, &pos, end, 6, &x->dirs, 8, 0, 1));
    TRY(filled(v, pos, end));
    for (uint32_t r = 0; r < x->dirs.count; r++) {
        size_t ra = row_at(&x->dirs, r);
        BAD(bs_cell(v->b, &x->dirs, r, 1) <= v->n_groups, ra, "directive Group past the groups");
        BAD(in_strings(v, bs_cell(v->b, &x->dirs, r, 2), bs_cell(v->b, &x->dirs, r, 3)), ra, "key outside STRINGS");
        BAD(in_strings(v, bs_cell(v->b, &x->dirs, r, 4), bs_cell(v->b, &x->dirs, r, 5)), ra,
            "value outside STRINGS");
    }
    return 0;
}

/* DFAS (rule 16): one End a set, non-decreasing, the last the size of
 * Data less its final three zero bytes; each non-empty span one DFA:
 * K, Start, Rules <= Rule_Count, Size, Widths (W 1 or 2, LW 1 to 4), then
 * CODE of Size bytes, at most 2^(8W) - 2, and nothing more. CODE is K
 * records back to back: Flags (bits 0-2 only), N, Other (W bytes); a
 * chain (Flags bit 1): N >= 1, Next (W), Lab_Off (LW), its label in
 * STRINGS; else N keys, strictly increasing, and N targets (W each). A
 * code is a record's offset, or 2^(8W) - 2 or - 1 (the verdicts): Start,
 * every Other, Next and target; a falling-back record's (bit 2) Other is a
 * record whose Other is itself, with bit 2 clear. Its fields are not
 * recorded. (The record starts are kept in a sorted list, searched: an
 * independent way from the runtime's bitmap.) */
static uint32_t le(const uint8_t *p, uint32_t w)
{
    uint32_t x = 0;
    for (uint32_t i = 0; i < w; i++)
        x |= (uint32_t)p[i] << (8 * i);
    return x;
}

static int is_start(const uint32_t *st, uint32_t n, uint32_t c)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (st[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && st[lo] == c;
}

static int one_dfa(vstate *v, size_t pos, size_t end)
{
    const uint8_t *b = v->b;
    uint32_t k, start, rules, size;
    BAD(varint(b, &pos, end, &k), pos, "DFA K");
    const size_t start_at = pos;
    BAD(varint(b, &pos, end, &start), pos, "DFA Start");
    size_t at = pos;
    BAD(varint(b, &pos, end, &rules), pos, "DFA Rules");
    BAD(rules <= v->x->rules.count, at, "DFA Rules out of range");
    at = pos;
    BAD(varint(b, &pos, end, &size), pos, "DFA Size");
    BAD(pos < end, pos, "DFA Widths");
    const uint32_t w = b[pos] & 15, lw = b[pos] >> 4, va = w == 1 ? 0xfeu : 0xfffeu;
    BAD((w == 1 || w == 2) && lw >= 1 && lw <= 4, pos, "DFA Widths");
    pos++;
    BAD(size <= va && size <= end - pos, at, "DFA Size out of range");
    TRY(filled(v, pos + size, end));
    const uint8_t *c = b + pos;
    uint32_t *st = malloc(((size_t)size + 1) * sizeof *st), n = 0;
    if (!st)
        abort();
    int bad = 0;
    size_t bad_at = 0;
    const char *why = NULL;
#define FAIL(off, what) do { bad = 1, bad_at = (off), why = (what); goto done; } while (0)
    for (uint32_t s = 0; s < size;) {
        if (size - s < 2 || c[s] > 7)
            FAIL(pos + s, "DFA record");
        const uint64_t bytes = c[s] & 2 ? 2 + 2 * w + lw : 2 + w + (uint64_t)c[s + 1] * (1 + w);
        if (bytes > size - s)
            FAIL(pos + s, "DFA record past CODE");
        st[n++] = s;
        s += (uint32_t)bytes;
    }
    if (n != k)
        FAIL(at, "DFA K is not the record count");
#define CODE_OK(t) ((t) >= va ? (t) <= va + 1 : is_start(st, n, (t)))
    if (!CODE_OK(start))
        FAIL(start_at, "DFA Start out of range");
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *r = c + st[i];
        const uint32_t fl = r[0], len = r[1], o = le(r + 2, w);
        if (!CODE_OK(o))
            FAIL(pos + st[i], "DFA Other");
        if ((fl & 4) && !(o < va && !(c[o] & 4) && le(c + o + 2, w) == o))
            FAIL(pos + st[i], "DFA fall-back");
        if (fl & 2) {
            if (!(len >= 1 && CODE_OK(le(r + 2 + w, w)) && in_strings(v, le(r + 2 + 2 * w, lw), len)))
                FAIL(pos + st[i], "DFA label");
            continue;
        }
        for (uint32_t j = 1; j < len; j++)
            if (r[2 + w + j - 1] >= r[2 + w + j])
                FAIL(pos + st[i], "DFA keys not increasing");
        for (uint32_t j = 0; j < len; j++)
            if (!CODE_OK(le(r + 2 + w + len + j * w, w)))
                FAIL(pos + st[i], "DFA target");
    }
#undef CODE_OK
#undef FAIL
done:
    free(st);
    BAD(!bad, bad_at, why);
    return 0;
}

static int dfas(vstate *v)
{
    bs_blob *x = v->x;
    size_t pos = x->sec_off[9], end = pos + x->sec_size[9];
    if (!x->sec_size[9])
        return 0;
    const int record = v->record;
    v->record = 0;
    int st = table(v, &pos, end, 1, &x->dfas, 9, 0, 0);
    v->record = record;
    TRY(st);
    BAD(x->dfas.count == v->n_sets, x->sec_off[9], "DFAS rows");
    BAD(end - pos >= 3 && !v->b[end - 1] && !v->b[end - 2] && !v->b[end - 3], end - 3, "DFAS padding");
    x->dfa_data = (uint32_t)pos;
    const size_t size = end - pos - 3;
    uint32_t prev = 0;
    for (uint32_t r = 0; r < x->dfas.count; r++) {
        uint32_t e = bs_cell(v->b, &x->dfas, r, 0);
        BAD(e >= prev && e <= size && (r + 1 < x->dfas.count || e == size), row_at(&x->dfas, r), "DFA End");
        if (e > prev) {
            v->record = 0;
            st = one_dfa(v, pos + prev, pos + e);
            v->record = record;
            TRY(st);
        }
        prev = e;
    }
    return 0;
}

static int verify(vstate *v, size_t n)
{
    const uint8_t *b = v->b;
    bs_blob *x = v->x;
    /* Basics and identity (rules 2-6). */
    REQ(n >= BS_HEADER_MIN, RSC_E_TRUNCATED, n, "shorter than the header");
    for (size_t i = 0; i < BS_MAGIC_LEN; i++)
        REQ(b[i] == MAGIC[i], RSC_E_MAGIC, i, "magic");
    REQ(b[BS_H_MAJOR] == 5, RSC_E_VERSION, BS_H_MAJOR, "Format_Major"); /* any Format_Minor */
    x->flags = b[BS_H_FLAGS];
    /* Flags bits 0-1, the profile: 0 google, 3 rfc; 1 an rfc blob of an
     * older encoder (RSC_E_VERSION), 2 invalid */
    REQ((x->flags & 3u) != 1, RSC_E_VERSION, BS_H_FLAGS, "an older rfc blob");
    BAD((x->flags & 0xFCu) == 0, BS_H_FLAGS, "reserved flag");
    BAD((x->flags & 3u) != 2, BS_H_FLAGS, "profile 2");
    size_t pos = BS_H_TOTAL;
    uint32_t total;
    REQ(varint(b, &pos, n, &total), RSC_E_TRUNCATED, BS_H_TOTAL, "Total_Size not a varint");
    REQ(total <= n, RSC_E_TRUNCATED, BS_H_TOTAL, "Total_Size past the blob");
    REQ(total == n, RSC_E_SIZE, BS_H_TOTAL, "Total_Size short of the blob");
    x->total = total;
    x->body = (uint32_t)pos;
    /* Framing (rule 7): varint Present, then for each bit set, in Id
     * order, varint Size >= 1 and the section's bytes. */
    size_t at = pos;
    uint32_t present;
    BAD(varint(b, &pos, total, &present), at, "Present");
    rec(v, BS_PRESENT, at, pos - at, present, 0, 0, 0, 0, 0);
    x->present = present;
    for (uint32_t id = 1; id <= 32; id++) {
        if (!(present >> (id - 1) & 1))
            continue;
        size_t sat = pos;
        uint32_t size;
        BAD(varint(b, &pos, total, &size), sat, "section Size");
        rec(v, BS_SIZE, sat, pos - sat, size, (uint8_t)(id < 10 ? id : 10), 0, 0, x->n_sections, id);
        BAD(size >= 1, sat, "present section of Size 0");
        BAD(size <= total - pos, sat, "section past Total_Size");
        if (id <= 9)
            x->sec_off[id] = (uint32_t)pos, x->sec_size[id] = size;
        x->n_sections++;
        x->last_id = id;
        pos += size;
    }
    BAD(pos == total, at, "sections do not end at Total_Size");
    /* Checksum (rule 8), on a copy of the header. */
    {
        uint8_t *c = malloc(n);
        if (!c)
            exit(1);
        memcpy(c, b, n);
        bs_checksum(c, n);
        int ok = memcmp(c + BS_H_CHECK, b + BS_H_CHECK, 4) == 0;
        free(c);
        REQ(ok, RSC_E_CHECKSUM, BS_H_CHECK, "checksum");
    }
    /* Contents (rules 9-15), in Id order. */
    TRY(rules(v));
    TRY(programs(v));
    x->n_sets = v->n_programs;
    TRY(sets(v));
    TRY(agents(v));
    TRY(groups(v));
    TRY(sitemaps(v));
    TRY(directives(v));
    TRY(dfas(v));
    return 0;
}

int bs_verify(const uint8_t *b, size_t n, bs_blob *x, int record)
{
    memset(x, 0, sizeof *x);
    vstate v0 = {b, x, record, 0, 0, 0, 0, 0, 0};
    x->what = "ok";
    verify(&v0, n);
    return x->status;
}

void bs_free(bs_blob *x)
{
    free(x->fields);
    x->fields = NULL;
    x->n_fields = x->cap_fields = 0;
}

/* ---- Matching ------------------------------------------------------------ */

static uint32_t uv(const uint8_t *b, size_t *pos)
{
    uint32_t out = 0;
    varint(b, pos, (size_t)-1, &out);
    return out;
}

/* A verified Table at *pos (no checks). */
static void tab_at(const uint8_t *b, size_t *pos, unsigned cols, bs_tab *t)
{
    memset(t, 0, sizeof *t);
    t->count = uv(b, pos);
    if (t->count) {
        for (unsigned c = 0; c < cols; c++) {
            t->w[c] = (uint8_t)(((b[*pos + c / 4] >> (2 * (c % 4))) & 3) + 1);
            t->row += t->w[c];
        }
        *pos += (cols + 3) / 4;
    }
    t->off = (uint32_t)*pos;
    *pos += (size_t)t->count * t->row;
}

typedef struct active {
    uint32_t slot;
    size_t i;
} active;

/* FORMAT.md walk(): the Accept and End ranks on the way, and the root
 * slots passed with where. */
static uint32_t walk(const uint8_t *b, const bs_blob *x, size_t pos, const uint8_t *p, size_t n, uint32_t best,
                     active **act, size_t *nact)
{
    size_t i = 0, cap = 0;
    *act = NULL, *nact = 0;
    for (;;) {
        uint32_t lh = uv(b, &pos), ll = lh >> 2, kind = lh & 3, ml, rep = 0;
        const uint8_t *label = b + pos;
        if (kind) {
            rep = uv(b, &pos);
            label = match_text(b, x, rep, &ml) + i;
        } else {
            pos += ll;
        }
        if (n - i < ll || memcmp(p + i, label, ll) != 0)
            break;
        i += ll;
        /* a leaf of one rank (Kind 2, 3) reads as Head = Has_Accept or
         * Has_End alone */
        uint32_t head = kind == 2 ? 1u : kind == 3 ? 2u : uv(b, &pos);
        uint32_t acc = kind == 2 ? rep : kind < 2 && head & 1 ? uv(b, &pos) : 0;
        uint32_t end = kind == 3 ? rep : kind < 2 && head & 2 ? uv(b, &pos) : 0;
        best = acc > best ? acc : best;
        if (head & 4) {
            if (*nact == cap && !(*act = realloc(*act, (cap = cap ? 2 * cap : 8) * sizeof **act)))
                exit(1);
            (*act)[*nact].slot = uv(b, &pos), (*act)[(*nact)++].i = i;
        }
        if (i == n) {
            best = end > best ? end : best;
            break;
        }
        uint32_t children = head >> 5, w = ((head >> 3) & 3) + 1, k;
        for (k = 0; k < children && b[pos + k] != p[i]; k++)
            ;
        if (k == children)
            break;
        size_t c = pos + children + (size_t)(children - 1) * w; /* child 0 starts at C */
        pos = c + (k ? rdn(b + pos + children + (size_t)(k - 1) * w, w) : 0);
        i++;
    }
    return best;
}

/* Where the automaton is: a state (a row of STATES) and, with Labels,
 * how many bytes of its label have been read: k < Lab_Len is an implicit
 * state (FORMAT.md "Labels"), k == Lab_Len the row's own state. */
typedef struct apos {
    uint32_t s, k;
} apos;

typedef struct autom {
    const uint8_t *b;
    const bs_tab *S;
    const uint8_t *strings; /* the labels' bytes */
    int labels;
    uint32_t root;
} autom;

/* Lab_Len of state s (0 without Labels; the root's string is empty, so
 * a label on it, which no encoder writes, is not read). */
static uint32_t lab_len(const autom *a, uint32_t s)
{
    return a->labels && s != a->root ? bs_cell(a->b, a->S, s, 6) : 0;
}

static int implicit(const autom *a, apos p)
{
    return p.k < lab_len(a, p.s);
}

/* The automaton's move from p on byte c, within the states rooted at
 * a->root: in an implicit state, on by the label's next byte, else a fall
 * to the root, which then reads c ("Matching"); in a state, its child
 * with key c (entered at the start of its label), else the failure links
 * (each failure step taken from *budget: a matcher bounds them by the
 * bytes read). */
static apos move(const autom *a, apos p, uint8_t c, size_t *budget)
{
    const uint8_t *b = a->b;
    const bs_tab *S = a->S;
    uint32_t s = p.s;
    if (p.k < lab_len(a, s)) {
        if (a->strings[bs_cell(b, S, s, 5) + p.k] == c)
            return (apos){s, p.k + 1};
        s = a->root;
    }
    for (;;) { /* s is a state: a Fail link names a state, the end of its label */
        uint32_t first = bs_cell(b, S, s, 1), n = bs_cell(b, S, s, 2);
        for (uint32_t j = first; j < first + n; j++)
            if (bs_cell(b, S, j, 0) == c)
                return (apos){j, 0};
        if (s == a->root || *budget == 0)
            return (apos){a->root, 0};
        --*budget;
        s = bs_cell(b, S, s, 3);
    }
}

/* One program at pos: walk(), then segments() or, in chain form, the
 * segments searched in turn ("Chains"). */
static uint32_t program_best(const uint8_t *b, const bs_blob *x, size_t pos, const uint8_t *p, size_t n,
                             uint32_t best)
{
    uint32_t tsize = uv(b, &pos);
    size_t g = pos + tsize;
    uint32_t shape = uv(b, &g), nint = shape >> 2, labels = shape >> 1 & 1;
    bs_tab R, O, S, E;
    tab_at(b, &g, 2, &R), tab_at(b, &g, 6, &O), tab_at(b, &g, labels ? 7 : 5, &S), tab_at(b, &g, 4, &E);
    autom au = {b, &S, b + x->sec_off[1], (int)labels, 0};
    active *act;
    size_t nact;
    best = walk(b, x, pos, p, n, best, &act, &nact);
    /* reached: slots then internal nodes; SIZE_MAX when not */
    size_t nr = R.count, *reached = malloc((nr + nint + 1) * sizeof *reached), from = SIZE_MAX;
    if (!reached)
        exit(1);
    for (size_t k = 0; k < nr + nint; k++)
        reached[k] = SIZE_MAX;
    for (size_t k = 0; k < nact; k++) {
        if (reached[act[k].slot] == SIZE_MAX)
            reached[act[k].slot] = act[k].i;
        if (bs_cell(b, &R, act[k].slot, 1) > best && act[k].i < from)
            from = act[k].i;
    }
    free(act);
    if (from == SIZE_MAX) {
        free(reached);
        return best;
    }
    size_t budget = 0;
    if (shape & 1) { /* a chain (Labels 0): segment f's line from base */
        uint32_t f = 0, base = 0, st = 0, last = O.count - 1;
        int done = 0;
        for (size_t j = from; j < n && !done; j++) {
            budget++;
            au.root = base;
            st = move(&au, (apos){st, 0}, p[j], &budget).s;
            if (!bs_cell(b, &S, st, 4) || !bs_cell(b, &O, f, 4))
                continue; /* not at its end, or the last, anchored */
            if (f == last) {
                done = 1;
                break;
            }
            base += bs_cell(b, &O, f, 0) + 1;
            st = base, f++, budget = 0;
        }
        if (!done && f == last && bs_cell(b, &O, f, 5) && bs_cell(b, &S, st, 4))
            done = 1;
        if (done && bs_cell(b, &E, f, 1) > best)
            best = bs_cell(b, &E, f, 1);
        free(reached);
        return best;
    }
    apos at = {0, 0};
    for (size_t j = from; j < n; j++) {
        budget++;
        at = move(&au, at, p[j], &budget);
        if (implicit(&au, at))
            continue; /* inside a label: no output */
        uint32_t o = bs_cell(b, &S, at.s, 4);
        for (unsigned k = 0; o && k < 16; k++, o = bs_cell(b, &O, o - 1, 1)) {
            uint32_t row = o - 1, len = bs_cell(b, &O, row, 0);
            if (bs_cell(b, &O, row, 2) <= best)
                break;
            if (len > j + 1)
                continue;
            size_t start = j + 1 - len;
            uint32_t e0 = bs_cell(b, &O, row, 3), nf = bs_cell(b, &O, row, 4);
            for (uint32_t e = e0; e < e0 + nf; e++) {
                uint32_t par = bs_cell(b, &E, e, 0), t = bs_cell(b, &E, e, 2), rank = bs_cell(b, &E, e, 1);
                if (reached[par] == SIZE_MAX || reached[par] > start)
                    continue;
                best = rank > best ? rank : best;
                if (t && reached[nr + t - 1] == SIZE_MAX)
                    reached[nr + t - 1] = j + 1;
            }
        }
    }
    /* the path's end: the anchored edges of the segments ending there
     * (none inside a label) */
    uint32_t o = at.s && !implicit(&au, at) ? bs_cell(b, &S, at.s, 4) : 0;
    for (unsigned k = 0; o && k < 16; k++, o = bs_cell(b, &O, o - 1, 1)) {
        uint32_t row = o - 1, len = bs_cell(b, &O, row, 0);
        if (bs_cell(b, &O, row, 2) <= best)
            break;
        if (len > n)
            continue;
        uint32_t e0 = bs_cell(b, &O, row, 3) + bs_cell(b, &O, row, 4), na = bs_cell(b, &O, row, 5);
        for (uint32_t e = e0; e < e0 + na; e++) {
            uint32_t par = bs_cell(b, &E, e, 0), rank = bs_cell(b, &E, e, 1);
            if (reached[par] != SIZE_MAX && reached[par] <= n - len)
                best = rank > best ? rank : best;
        }
    }
    free(reached);
    return best;
}

static int unreserved(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~';
}

static int hex(uint8_t c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                                                                      : -1;
}

/* The rfc profile's normalisation of a path ('*' and '$' as %2A, %24);
 * out has room for 3 * n bytes. */
static size_t normalise(const uint8_t *p, size_t n, uint8_t *out)
{
    static const char H[] = "0123456789ABCDEF";
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '%' && i + 2 < n && hex(p[i + 1]) >= 0 && hex(p[i + 2]) >= 0) {
            int v = hex(p[i + 1]) * 16 + hex(p[i + 2]);
            if (unreserved(v)) {
                out[o++] = (uint8_t)v;
            } else {
                out[o++] = '%', out[o++] = (uint8_t)H[v >> 4], out[o++] = (uint8_t)H[v & 15];
            }
            i += 2;
        } else if (p[i] >= 0x80 || p[i] == '*' || p[i] == '$' || p[i] == '%') {
            /* (a '%' without two hex digits is the octet '%': %25) */
            out[o++] = '%', out[o++] = (uint8_t)H[p[i] >> 4], out[o++] = (uint8_t)H[p[i] & 15];
        } else {
            out[o++] = p[i];
        }
    }
    return o;
}

int bs_match(const uint8_t *b, const bs_blob *x, const char *const *agents, const size_t *agent_lens,
             size_t n_agents, const char *path, size_t plen, bs_verdict *v)
{
    memset(v, 0, sizeof *v);
    v->allowed = 1;
    /* select() */
    uint32_t sets[33], n_sets = 0, named = 0, rows[33];
    const uint8_t *s = b + x->sec_off[1];
    for (size_t a = 0; a < n_agents; a++) {
        for (uint32_t r = 0; r < x->agents.count; r++) {
            uint32_t off = bs_cell(b, &x->agents, r, 0), len = bs_cell(b, &x->agents, r, 1);
            if (len != agent_lens[a])
                continue;
            size_t i = 0;
            while (i < len) {
                uint8_t c = (uint8_t)agents[a][i];
                if (c >= 'A' && c <= 'Z')
                    c = (uint8_t)(c + 32);
                if (c != s[off + i])
                    break;
                i++;
            }
            if (i < len)
                continue;
            uint32_t set = bs_cell(b, &x->agents, r, 2), k;
            for (k = 0; k < named && rows[k] != r; k++)
                ;
            if (k == named) {
                if (named == 32)
                    return -1;
                rows[named++] = r;
            }
            for (k = 0; k < n_sets && sets[k] != set; k++)
                ;
            if (k == n_sets) {
                if (n_sets == 32)
                    return -1;
                sets[n_sets++] = set;
            }
        }
    }
    if (!named && x->global)
        sets[n_sets++] = x->global - 1;
    /* verdict() */
    const char *nul = plen ? memchr(path, 0, plen) : NULL;
    if (nul)
        plen = (size_t)(nul - path);
    uint8_t *np = malloc(3 * plen + 1);
    if (!np)
        exit(1);
    size_t n = plen;
    if (x->flags & 1) {
        n = normalise((const uint8_t *)path, plen, np);
        if (n == 11 && memcmp(np, "/robots.txt", 11) == 0)
            n_sets = 0; /* RFC 9309 2.2.2: allowed, no rule decides */
    } else if (plen) {
        memcpy(np, path, plen);
    }
    uint32_t best = 0;
    for (uint32_t k = 0; k < n_sets; k++) {
        uint32_t first = 0, cnt = 0;
        if (x->sec_size[4])
            first = bs_cell(b, &x->sets, sets[k], 0), cnt = bs_cell(b, &x->sets, sets[k], 1);
        if (!x->sec_size[4]) /* no SETS: set i is program i */
            first = sets[k], cnt = 1;
        for (uint32_t j = first; j < first + cnt; j++) {
            uint32_t pr = x->sec_size[4] ? bs_cell(b, &x->slist, j, 0) : j;
            uint32_t start = pr ? bs_cell(b, &x->progs, pr - 1, 0) : 0;
            best = program_best(b, x, x->data_off + start, np, n, best);
        }
    }
    free(np);
    v->rank = best;
    if (best) {
        uint32_t la = bs_cell(b, &x->rules, best - 1, 0), len = bs_cell(b, &x->rules, best - 1, 2);
        if (len > 0) { /* spec E.5: a rule of priority 0 decides nothing */
            v->decided = 1;
            v->allowed = (int)(la & 1);
            v->line = la >> 1;
            v->priority = x->flags & 1 ? bs_cell(b, &x->rules, best - 1, 4) : len; /* Match_Len in rfc */
        }
    }
    return 0;
}

/* ---- Encoding -------------------------------------------------------------- */

void bs_put(bs_out *o, const void *s, size_t n)
{
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->n + n)
            cap *= 2;
        o->p = realloc(o->p, cap);
        if (!o->p)
            exit(1);
        o->cap = cap;
    }
    if (n)
        memcpy(o->p + o->n, s, n);
    o->n += n;
}

void bs_u8(bs_out *o, uint8_t c)
{
    bs_put(o, &c, 1);
}

void bs_varint(bs_out *o, uint32_t v)
{
    while (v >= 0x80) {
        bs_u8(o, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    bs_u8(o, (uint8_t)v);
}

size_t bs_varint_len(uint32_t v)
{
    size_t n = 1;
    while (v >= 0x80)
        v >>= 7, n++;
    return n;
}

void bs_uint(bs_out *o, uint32_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        bs_u8(o, (uint8_t)(v >> (8 * i)));
}

void bs_table(bs_out *o, unsigned cols, const uint8_t *widths, uint32_t count, const uint32_t *cells)
{
    bs_varint(o, count);
    if (count) { /* the widths, packed: 2 bits a column, four a byte */
        uint8_t wb[2] = {0, 0};
        for (unsigned c = 0; c < cols; c++)
            wb[c / 4] |= (uint8_t)((widths[c] - 1u) << (2 * (c % 4)));
        bs_put(o, wb, (cols + 3) / 4);
    }
    for (uint32_t r = 0; r < count; r++)
        for (unsigned c = 0; c < cols; c++)
            bs_uint(o, cells[(size_t)r * cols + c], widths[c]);
}

void bs_begin(bs_out *o)
{
    o->n = 0;
    o->present = 0;
}

void bs_section(bs_out *o, uint32_t id, const bs_out *content)
{
    o->present |= 1u << (id - 1);
    bs_varint(o, (uint32_t)content->n);
    bs_put(o, content->p, content->n);
}

/* The shortest varint Total_Size for a blob of head + rest bytes, where
 * head (BS_H_TOTAL) comes before it and rest after it: it counts itself. */
static size_t total_of(size_t rest)
{
    size_t len = 1;
    while (bs_varint_len((uint32_t)(BS_H_TOTAL + len + rest)) > len)
        len++;
    return BS_H_TOTAL + len + rest;
}

void bs_finish(bs_out *o, uint16_t flags)
{
    size_t body = o->n, rest = bs_varint_len(o->present) + body;
    size_t total = total_of(rest);
    bs_out h = {0};
    bs_put(&h, MAGIC, BS_MAGIC_LEN);
    bs_u8(&h, 5); /* Format_Major */
    bs_u8(&h, 0);
    bs_u8(&h, (uint8_t)flags);
    bs_uint(&h, 0, 4); /* the Checksum, below */
    bs_varint(&h, (uint32_t)total);
    bs_varint(&h, o->present);
    bs_put(&h, o->p, body);
    bs_out_free(o);
    *o = h;
    bs_checksum(o->p, o->n);
}

size_t bs_set_total(uint8_t *b, size_t n, size_t cap)
{
    if (n < BS_H_TOTAL)
        return n;
    size_t old = 0; /* the old Total_Size's bytes: up to its last, at most 5 */
    while (old < 5 && BS_H_TOTAL + old < n && (b[BS_H_TOTAL + old] & 0x80))
        old++;
    if (BS_H_TOTAL + old < n)
        old++;
    size_t rest = n - BS_H_TOTAL - old, total = total_of(rest), len = total - BS_H_TOTAL - rest;
    if (total > cap)
        return 0;
    memmove(b + BS_H_TOTAL + len, b + BS_H_TOTAL + old, rest);
    bs_out t = {0};
    bs_varint(&t, (uint32_t)total);
    memcpy(b + BS_H_TOTAL, t.p, len);
    bs_out_free(&t);
    return total;
}

void bs_out_free(bs_out *o)
{
    free(o->p);
    memset(o, 0, sizeof *o);
}
