/* SPDX-License-Identifier: Apache-2.0 */
/* rsc_load(): the verifier (docs/FORMAT.md, "Verification"). It checks the
 * whole blob in one pass, cheapest checks first, and returns at the first
 * failure with a status and the byte offset of the offending field (the
 * BPF/ubpf order: basics, identity, framing, checksum, contents). Time is
 * linear in the blob size; nothing is allocated (the trie walk uses a fixed
 * stack of RSC_MAX_DEPTH frames). After RSC_OK, match.c reads the blob
 * without any check. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format.h"
#include "program.h"
#include "robotsc/runtime.h"

#define N_KNOWN (RSC_SEC_LAST_KNOWN + 1)

typedef struct verifier {
    const uint8_t *b;
    size_t total;
    size_t body; /* Present, after the header */
    size_t fail_off; /* where and why the first failure happened */
    const char *fail_what;
    size_t sec_off[N_KNOWN]; /* 0: absent (or empty) */
    size_t sec_size[N_KNOWN];
    rsc_program *prog; /* base set, priv filled as sections pass */
    uint32_t n_rules;
    uint32_t nslots; /* ROOTS rows of the program being verified */
    int defer; /* RSC_LOAD_DEFER, the blob has DFAS and at most
                  RSC_DEFER_MAX_PROGS programs */
    unsigned mcol; /* RULES column of the match text's offset (FORMAT.md) */
    /* where a rule's match text length sits (set by check_rules): rule 1's,
     * the RULES row size, the column's width, and the mask that cuts a
     * 4-byte load to it (0 where the last row's load would pass the blob) */
    const uint8_t *mtext;
    uint32_t mrow, mw, mmask;
} verifier;

static rsc_status fail(verifier *v, rsc_status st, size_t off, const char *what)
{
    v->fail_off = off;
    v->fail_what = what;
    return st;
}

/* One macro does the checking (STYLE 2.3); 'what' names the broken rule. */
#define CHECK(cond, st, off, what)                                            \
    do {                                                                      \
        if (!(cond))                                                          \
            return fail(v, (st), (off), (what));                              \
    } while (0)
#define CORRUPT(cond, off, what) CHECK(cond, RSC_E_CORRUPT, off, what)

/* A canonical varint at *pos, before end (FORMAT.md, Conventions). */
static inline int rv(const uint8_t *b, size_t *pos, size_t end, uint32_t *out)
{
    size_t p = *pos;
    if (p < end && b[p] < 0x80) { /* the common one-byte case */
        *out = b[p];
        *pos = p + 1;
        return 1;
    }
    if (end - p >= 2 && b[p] >= 0x80 && b[p + 1] < 0x80 && b[p + 1]) { /* two bytes */
        *out = (b[p] & 0x7fu) | (uint32_t)b[p + 1] << 7;
        *pos = p + 2;
        return 1;
    }
    uint32_t val = 0;
    for (unsigned i = 0; i < RSC_VARINT_MAX; i++) {
        if (p >= end)
            return 0;
        uint32_t c = b[p++];
        if (i == RSC_VARINT_MAX - 1 && c > 0x0f)
            return 0; /* >= 2^32, or a sixth byte */
        val |= (c & 0x7f) << (7 * i);
        if (!(c & 0x80)) {
            if (i > 0 && c == 0)
                return 0; /* overlong */
            *pos = p;
            *out = val;
            return 1;
        }
    }
    return 0;
}

#define VARINT(pos, end, out, what) CORRUPT(rv(v->b, &(pos), (end), &(out)), (pos), what)

static rsc_status check_header(verifier *v, size_t size)
{
    const uint8_t *b = v->b;
    CHECK(size >= RSC_HEADER_MIN, RSC_E_TRUNCATED, size, "shorter than the header");
    for (size_t i = 0; i < RSC_MAGIC_LEN; i++)
        CHECK(b[i] == (uint8_t)RSC_MAGIC[i], RSC_E_MAGIC, i, "bad magic");
    CHECK(b[RSC_H_MAJOR] == RSC_FORMAT_MAJOR, RSC_E_VERSION, RSC_H_MAJOR,
          "unsupported Format_Major (a blob of another major: compile it again)");
    CHECK((b[RSC_H_FLAGS] & RSC_FLAGS_KNOWN) != RSC_FLAG_PROFILE_RFC_OLD, RSC_E_VERSION,
          RSC_H_FLAGS, "an rfc blob of an earlier encoder (Flags 1): compile it again");
    CORRUPT((b[RSC_H_FLAGS] & ~RSC_FLAGS_KNOWN) == 0, RSC_H_FLAGS, "reserved header flag set");
    CORRUPT((b[RSC_H_FLAGS] & RSC_FLAGS_KNOWN) != 2, RSC_H_FLAGS, "invalid profile (Flags 2)");
    size_t pos = RSC_H_TOTAL;
    uint32_t total;
    CHECK(rv(b, &pos, size, &total), RSC_E_TRUNCATED, RSC_H_TOTAL, "bad Total_Size");
    CHECK(total <= size, RSC_E_TRUNCATED, RSC_H_TOTAL, "blob shorter than Total_Size");
    CHECK(total == size, RSC_E_SIZE, RSC_H_TOTAL, "bytes after Total_Size");
    v->total = total;
    v->body = pos;
    return RSC_OK;
}

/* varint Present, then a varint Size >= 1 and the bytes of each section
 * whose bit is set, in Id order; an Id this decoder does not know is
 * skipped (a minor version only adds sections that may be). */
static rsc_status check_sections(verifier *v)
{
    size_t pos = v->body, at = pos;
    uint32_t present;
    VARINT(pos, v->total, present, "bad Present");
    for (uint32_t id = 1, rest = present; rest; id++, rest >>= 1) {
        if (!(rest & 1))
            continue;
        size_t sz_at = pos;
        uint32_t size;
        VARINT(pos, v->total, size, "bad section Size");
        CORRUPT(size >= 1, sz_at, "present section of Size 0");
        CORRUPT(size <= v->total - pos, sz_at, "section past Total_Size");
        if (id <= RSC_SEC_LAST_KNOWN) {
            v->sec_off[id] = pos;
            v->sec_size[id] = size;
        }
        pos += size;
    }
    CORRUPT(pos == v->total, at, "sections do not end at Total_Size");
    return RSC_OK;
}

/* The Checksum field itself counts as four zero bytes. */
static rsc_status check_checksum(verifier *v)
{
    static const uint8_t zero[4];
    uint32_t a = 1, s = 0;
    rsc_adler32_plain(&a, &s, v->b, RSC_H_CHECK);
    rsc_adler32_plain(&a, &s, zero, 4);
    rsc_adler32(&a, &s, v->b + RSC_H_CHECK + 4, v->total - RSC_H_CHECK - 4);
    CHECK((s << 16 | a) == rsc_rd32(v->b + RSC_H_CHECK), RSC_E_CHECKSUM, RSC_H_CHECK,
          "checksum mismatch");
    return RSC_OK;
}

/* A Table of `cols` columns at *pos (FORMAT.md, Conventions) into three
 * words: rows offset, Count, packed shape (program.h). */
RSC_HOT rsc_status table_rows(verifier *v, size_t *pos, size_t end, const unsigned cols, uint32_t *p)
{
    size_t at = *pos;
    uint32_t count, pack = 0, row = 0;
    VARINT(*pos, end, count, "bad table Count");
    p[0] = (uint32_t)*pos, p[1] = p[2] = 0;
    if (count == 0) /* an empty Table has no widths */
        return RSC_OK;
    const unsigned nw = RSC_TAB_WBYTES(cols);
    CORRUPT(end - *pos >= nw, at, "table widths past the section");
    const uint32_t ws = rsc_tab_widths(v->b + *pos, cols);
    CORRUPT(ws >> (2 * cols) == 0, at, "table width bits past the columns");
    for (unsigned c = 0; c < cols; c++) {
        uint32_t w = rsc_tab_width(ws, c);
        pack |= w << (3 * c);
        row += w;
    }
    *pos += nw;
    CORRUPT((uint64_t)count * row <= end - *pos, at,
            "table rows past the section");
    p[0] = (uint32_t)*pos, p[1] = count, p[2] = pack | row << 24;
    *pos += (size_t)count * row;
    return RSC_OK;
}

/* Most tables of a program are empty (a program without wildcards has
 * four): a zero Count is checked here, the rest in table_rows(). */
static inline rsc_status table_at(verifier *v, size_t *pos, size_t end, unsigned cols, uint32_t *p)
{
    if (*pos < end && v->b[*pos] == 0) {
        p[0] = (uint32_t)++*pos, p[1] = p[2] = 0;
        return RSC_OK;
    }
    return table_rows(v, pos, end, cols, p);
}

RSC_HOT rsc_status table(verifier *v, size_t *pos, size_t end, const unsigned cols, int slot)
{
    return table_at(v, pos, end, cols, v->prog->priv + slot);
}

#define TABLE(pos, end, cols, slot)                                           \
    do {                                                                      \
        rsc_status st_ = table(v, &(pos), (end), (cols), (slot));             \
        if (st_)                                                              \
            return st_;                                                       \
    } while (0)

#define COL(slot, r, c) rsc_tab(v->prog, (slot), (r), (c))

/* All columns of row r of a table, into out[]. */
static void row(const verifier *v, int slot, uint32_t r, uint32_t *out)
{
    uint32_t pack = v->prog->priv[slot + 2];
    const uint8_t *p = v->b + v->prog->priv[slot] + (size_t)r * RSC_TAB_ROW(pack);
    for (unsigned c = 0; c < RSC_TAB_MAX_COLS && RSC_TAB_WIDTH(pack, c); c++) {
        out[c] = rsc_rdn(p, RSC_TAB_WIDTH(pack, c));
        p += RSC_TAB_WIDTH(pack, c);
    }
}
#define ROW_AT(slot, r) ((size_t)v->prog->priv[slot] + (size_t)(r) * RSC_TAB_ROW(v->prog->priv[(slot) + 2]))
#define FILLED(pos, end) CORRUPT((pos) == (end), (pos), "section content does not fill its Size")

/* A table t (three words from table_at) read through 4-byte loads masked
 * to the column widths, for rows that have 3 bytes of the blob after them:
 * every row of a program's tables (their padding), RULES rows but the last
 * few. Where each column starts in a row, and the mask that cuts a load
 * there to its width (0 for a width of 0: an empty table). */
typedef struct ptab {
    const uint8_t *rows;
    uint32_t row;
    unsigned off[RSC_TAB_MAX_COLS];
    uint32_t mask[RSC_TAB_MAX_COLS];
} ptab;

static void ptab_of(const verifier *v, const uint32_t *t, unsigned cols, ptab *p)
{
    p->rows = v->b + t[0], p->row = RSC_TAB_ROW(t[2]);
    for (unsigned c = 0, o = 0; c < cols; c++) {
        unsigned wc = RSC_TAB_WIDTH(t[2], c);
        p->off[c] = o, o += wc, p->mask[c] = wc ? 0xffffffffu >> (8 * (4 - wc)) : 0;
    }
}

static inline uint32_t pcol(const ptab *p, uint32_t r, unsigned c)
{
    return rsc_rd32(p->rows + (size_t)r * p->row + p->off[c]) & p->mask[c];
}

static int str_ok(const verifier *v, uint32_t off, uint32_t len)
{
    return (uint64_t)off + len <= v->sec_size[RSC_SEC_STRINGS];
}

/* RULES rows of cols (a constant where inlined) columns: through masked
 * loads while 3 bytes of the blob follow the row, else row() */
RSC_HOT rsc_status check_rule_rows(verifier *v, const ptab *R, uint32_t n, const unsigned cols)
{
    const uint8_t *p = R->rows;
    size_t room = (size_t)(v->b + v->total - p);
    uint64_t pkey = 0;
    for (uint32_t r = 0; r < n; r++, p += R->row, room -= R->row) {
        uint32_t x[RSC_TAB_MAX_COLS];
        if (room >= R->row + 3) {
            x[0] = rsc_rd32(p) & R->mask[0]; /* (the first column starts the row) */
            x[1] = rsc_rd32(p + R->off[1]) & R->mask[1];
            x[2] = rsc_rd32(p + R->off[2]) & R->mask[2];
            if (cols == RSC_RULES_COLS_RFC) {
                x[3] = rsc_rd32(p + R->off[3]) & R->mask[3];
                x[4] = rsc_rd32(p + R->off[4]) & R->mask[4];
            }
        } else
            row(v, P_RULES, r, x);
        uint32_t so = x[1], sl = x[2], line = x[0] >> 1;
        CORRUPT(line >= 1, ROW_AT(P_RULES, r), "rule line 0");
        CORRUPT(str_ok(v, so, sl), ROW_AT(P_RULES, r), "rule pattern out of STRINGS");
        /* (in the google profile the match text is the pattern) */
        CORRUPT(cols == RSC_RULES_COLS || str_ok(v, x[3], x[4]), ROW_AT(P_RULES, r),
                "rule match text out of STRINGS");
        /* Strictly increasing (priority, allow, -line): spec E.6, E.7, as
         * one key (a line is below 2^31); the priority is Str_Len, or
         * Match_Len in the rfc profile */
        uint64_t key = (uint64_t)(cols == RSC_RULES_COLS ? sl : x[4]) << 32 | (uint64_t)(x[0] & 1) << 31 | (0x7fffffffu - line);
        CORRUPT(r == 0 || key > pkey, ROW_AT(P_RULES, r), "rules not sorted by rank");
        pkey = key;
    }
    return RSC_OK;
}

/* Where the programs' checks read a rule's match text length (after
 * check_rules, or for rsc_verify_set() on a loaded program). */
static void rules_view(verifier *v, const ptab *R, uint32_t n)
{
    v->n_rules = n;
    v->mtext = R->rows + R->off[v->mcol + 1], v->mrow = R->row;
    v->mw = RSC_TAB_WIDTH(v->prog->priv[P_RULES + 2], v->mcol + 1);
    /* the last row's column read as 4 bytes stays inside the blob */
    v->mmask = 0;
    if ((size_t)(v->b + v->total - (R->rows + (size_t)n * R->row)) >= 3)
        v->mmask = R->mask[v->mcol + 1];
}

static rsc_status check_rules(verifier *v)
{
    size_t pos = v->sec_off[RSC_SEC_RULES], end = pos + v->sec_size[RSC_SEC_RULES];
    if (pos == 0)
        return RSC_OK;
    const unsigned cols = v->mcol == 1 ? RSC_RULES_COLS : RSC_RULES_COLS_RFC;
    TABLE(pos, end, cols, P_RULES);
    FILLED(pos, end);
    uint32_t n = v->prog->priv[P_RULES_N];
    ptab R;
    ptab_of(v, v->prog->priv + P_RULES, cols, &R);
    rsc_status st = cols == RSC_RULES_COLS ? check_rule_rows(v, &R, n, RSC_RULES_COLS)
                                           : check_rule_rows(v, &R, n, RSC_RULES_COLS_RFC);
    if (st)
        return st;
    rules_view(v, &R, n);
    return RSC_OK;
}

/* The length of rule r's match text (FORMAT.md, RULES); r in
 * 1..Rule_Count. */
static uint32_t mtext_len(const verifier *v, uint32_t r)
{
    const uint8_t *p = v->mtext + (size_t)(r - 1) * v->mrow;
    return v->mmask ? rsc_rd32(p) & v->mmask : rsc_rdn(p, v->mw);
}

/* The keys and offsets of a node with n >= 1 children at pos (n - 1
 * offsets of w bytes: the first child starts at 0), children from c up to
 * end: exact failure reports (the first bad key or offset), for a node that
 * failed the quick test below. */
static rsc_status check_kids_slow(verifier *v, size_t pos, size_t c, size_t end, uint32_t n,
                                  uint32_t w)
{
    const uint8_t *b = v->b;
    for (uint32_t k = 1; k < n; k++)
        CORRUPT(b[pos + k - 1] < b[pos + k], pos + k, "keys not strictly increasing");
    pos += n;
    uint32_t prev = 0;
    for (uint32_t k = 1; k < n; k++) {
        size_t at = pos + (size_t)(k - 1) * w;
        uint32_t o = rsc_rdn(b + at, w);
        CORRUPT(o > prev, at, "offsets not strictly increasing from 1");
        CORRUPT(o < end - c, at, "child offset past the span");
        prev = o;
    }
    CORRUPT(prev < end - c, c, "child past the span");
    return RSC_OK;
}

/* A rank (1..Rule_Count) at *pos whose match text holds a label of ll
 * bytes at string depth d. */
static rsc_status check_rep(verifier *v, size_t *pos, size_t end, uint32_t d, uint32_t ll)
{
    size_t f = *pos;
    uint32_t x;
    VARINT(*pos, end, x, "bad label Rep");
    CORRUPT(x >= 1 && x <= v->n_rules, f, "label Rep not in 1..Rule_Count");
    uint32_t ml = mtext_len(v, x);
    CORRUPT(d <= ml && ll <= ml - d, f, "label past its Rep's match text");
    return RSC_OK;
}

/* One node in its span [at, end), whose label starts at string depth d:
 * its fields, and where its children are. *n receives Children, *w the
 * offset width in bytes, *c the offset C, *depth the depth of its string. */
RSC_HOT rsc_status check_node(verifier *v, size_t at, size_t end, int root, uint32_t d,
                             uint32_t *n, uint32_t *w, size_t *c, uint32_t *depth)
{
    const uint8_t *b = v->b;
    size_t pos = at, f;
    uint32_t lh, head, x;
    rsc_status st;
    VARINT(pos, end, lh, "bad Label_Head");
    const uint32_t ll = lh >> RSC_LABEL_SHIFT, kind = lh & RSC_LABEL_KIND;
    CORRUPT(!root || lh == 0, at, "root with a label");
    CORRUPT(ll <= UINT32_MAX - d, at, "string depth over 2^32");
    *depth = d + ll;
    if (kind == RSC_LABEL_INLINE) {
        CORRUPT(ll <= end - pos, at, "label past the node's span");
        pos += ll;
    } else if ((st = check_rep(v, &pos, end, d, ll)) != RSC_OK) {
        return st;
    }
    if (kind >= RSC_LEAF_ACCEPT) { /* a leaf of one rank: nothing follows */
        *n = 0, *w = 1, *c = pos;
        CORRUPT(pos == end, pos, "leaf node does not end its span");
        return RSC_OK;
    }
    f = pos;
    VARINT(pos, end, head, "bad node Head");
    const uint32_t nk = head >> RSC_N_CHILD_SHIFT;
    const uint32_t wk = ((head >> RSC_N_WIDTH_SHIFT) & RSC_N_WIDTH_MASK) + 1;
    *n = nk, *w = wk;
    CORRUPT(nk <= RSC_MAX_CHILDREN && (nk > 1 || wk == 1), f, "bad Children or Width");
    if (head & RSC_N_ACCEPT) {
        f = pos;
        VARINT(pos, end, x, "bad Accept/End");
        CORRUPT(x >= 1 && x <= v->n_rules, f, "Accept/End rank not in 1..Rule_Count");
    }
    if (head & RSC_N_END) {
        f = pos;
        VARINT(pos, end, x, "bad Accept/End");
        CORRUPT(x >= 1 && x <= v->n_rules, f, "Accept/End rank not in 1..Rule_Count");
    }
    if (head & RSC_N_ROOT) {
        f = pos;
        VARINT(pos, end, x, "bad root Slot");
        CORRUPT(x < v->nslots, f, "root Slot not below the ROOTS count");
    }
    if (!nk) { /* a leaf */
        *c = pos;
        CORRUPT(pos == end, pos, "leaf node does not end its span");
        return RSC_OK;
    }
    CORRUPT(nk <= end - pos && (size_t)(nk - 1) * wk <= end - pos - nk, pos,
            "keys and offsets past the span");
    const size_t ce = pos + nk + (size_t)(nk - 1) * wk;
    *c = ce;
    /* Keys strictly increasing, Offsets strictly increasing from 1 (the
     * first child starts at 0), the last inside the span: one test for
     * all, the exact report on failure */
    const uint8_t *keys = b + pos, *offs = keys + nk;
    uint32_t bad = 0, prev = 0, o = 0;
    for (uint32_t k = 1; k < nk; k++) {
        o = wk == 1 ? offs[k - 1] : rsc_rdn(offs + (size_t)(k - 1) * wk, wk);
        bad |= (keys[k - 1] >= keys[k]) | (o <= prev);
        prev = o;
    }
    if (bad || o >= end - ce)
        return check_kids_slow(v, pos, ce, end, nk, wk);
    CORRUPT(*depth < UINT32_MAX, at, "string depth over 2^32");
    return RSC_OK;
}

/* The quick test for the most common node, a leaf of one rank whose span
 * is a one-byte Label_Head and a Rep of one or two bytes, at string depth
 * d: it passes only where check_node() passes; a node it fails goes there
 * for the exact report. */
static inline int leaf_ok(const verifier *v, const uint8_t *q, size_t len, uint32_t d)
{
    uint32_t x, lh = q[0];
    if (len == 2 && q[1] < 0x80)
        x = q[1];
    else if (len == 3 && q[1] >= 0x80 && q[2] - 1u < 0x7fu)
        x = (q[1] & 0x7fu) | (uint32_t)q[2] << 7;
    else
        return 0;
    if (lh >= 0x80 || (lh & RSC_LABEL_KIND) < RSC_LEAF_ACCEPT || x - 1u >= v->n_rules)
        return 0;
    uint32_t ml = mtext_len(v, x), ll = lh >> RSC_LABEL_SHIFT;
    return d <= ml && ll <= ml - d;
}

/* A trie in [start, end), depth first with a fixed stack of frames (20
 * KiB). A node's children tile its span from C on: child 0 starts at C,
 * child k at C + the k-th Offset (they sit just before C), the last child
 * ends at the span's end. The parent whose children are being checked is
 * in locals: C, its span's end, where the next child starts, its string
 * depth, the children left, the Offsets' width and its level (root 0).
 * Going down to a child with children saves the parent in a frame, unless
 * it has no child left (then nothing of it is needed again). */
typedef struct frame {
    uint32_t c, end, next, depth, lw; /* lw: left << 13 | level << 3 | width */
} frame;

static rsc_status check_trie(verifier *v, size_t start, size_t end)
{
    frame fs[RSC_MAX_DEPTH - 1];
    uint32_t n, w, d = 0, depth;
    size_t c;
    rsc_status st = check_node(v, start, end, 1, 0, &n, &w, &c, &depth);
    if (st || !n)
        return st;
    uint32_t pc = (uint32_t)c, pend = (uint32_t)end, next = pc, pdepth = depth, left = n, pw = w,
             level = 0;
    for (;;) {
        if (!left) { /* no child left: back to the parent kept last */
            if (!d)
                return RSC_OK;
            const frame *f = &fs[--d];
            pc = f->c, pend = f->end, next = f->next, pdepth = f->depth;
            left = f->lw >> 13, level = (f->lw >> 3) & 1023, pw = f->lw & 7;
            continue;
        }
        const size_t cs = next;
        size_t ce = pend;
        if (--left) { /* not the last child: its end is the next Offset */
            const uint8_t *o = v->b + pc - (size_t)left * pw;
            ce = (size_t)pc + (pw == 1 ? *o : rsc_rdn(o, pw));
        }
        next = (uint32_t)ce;
        CORRUPT(level + 1 < RSC_MAX_DEPTH, cs, "trie deeper than 1024 nodes");
        if (ce - cs <= 3 && leaf_ok(v, v->b + cs, ce - cs, pdepth + 1))
            continue;
        st = check_node(v, cs, ce, 0, pdepth + 1, &n, &w, &c, &depth);
        if (st)
            return st;
        if (n) {
            if (left)
                fs[d++] = (frame){pc, pend, next, pdepth, left << 13 | level << 3 | pw};
            pc = next = (uint32_t)c, pend = (uint32_t)ce, pdepth = depth, left = n, pw = w;
            level++;
        }
    }
}

/* The rfc profile's RULES carry the normalised match text (FORMAT.md). */
static rsc_status check_rules_of_profile(verifier *v)
{
    if (v->b[RSC_H_FLAGS] & RSC_FLAG_PROFILE_RFC)
        v->mcol = 3;
    return check_rules(v);
}

#define TROW_AT(t, r) ((size_t)(t)[0] + (size_t)(r) * RSC_TAB_ROW((t)[2]))

/* One program in [pos, end) (FORMAT.md, PROGRAMS): the tables of its
 * wildcard part first (the trie's Slots refer to ROOTS), then the trie. */
static rsc_status check_program(verifier *v, size_t pos, size_t end)
{
    uint32_t tsize, shape, nint, roots[3], outs[3], states[3], edges[3];
    size_t f = pos;
    rsc_status st;
    VARINT(pos, end, tsize, "bad Trie_Size");
    CORRUPT(tsize >= 1 && tsize <= end - pos, f, "Trie_Size 0 or past the program");
    size_t trie = pos, g = pos + tsize;
    f = g;
    VARINT(g, end, shape, "bad Shape");
    nint = shape >> RSC_SHAPE_SHIFT;
    const int chain = (shape & RSC_SHAPE_CHAIN) != 0, labels = (shape & RSC_SHAPE_LABELS) != 0;
    const unsigned scols = labels ? RSC_STATES_COLS_LAB : RSC_STATES_COLS;
    CORRUPT(chain || nint <= RSC_MAX_INTERNAL, f, "N_Internal over the budget");
    CORRUPT(!(chain && labels), f, "a chain with Labels");
    if ((st = table_at(v, &g, end, RSC_ROOTS_COLS, roots)) != RSC_OK ||
        (st = table_at(v, &g, end, RSC_OUTS_COLS, outs)) != RSC_OK ||
        (st = table_at(v, &g, end, scols, states)) != RSC_OK ||
        (st = table_at(v, &g, end, RSC_EDGES_COLS, edges)) != RSC_OK)
        return st;
    const uint32_t nr = roots[1], no = outs[1], ns = states[1], ne = edges[1];
    if (nr) { /* the padding */
        CORRUPT(end - g == RSC_PAD, g, "program with root slots does not end with its padding");
        for (unsigned k = 0; k < RSC_PAD; k++)
            CORRUPT(v->b[g + k] == 0, g + k, "padding byte not zero");
        g += RSC_PAD;
    }
    CORRUPT(g == end, g, "program does not end after its EDGES");
    CORRUPT(nr == 0 || ns >= 1, roots[0], "root slots without automaton states");
    CORRUPT(nr || (no == 0 && ns == 0 && ne == 0), roots[0], "automaton tables without root slots");
    if (!nr && !chain) { /* no wildcard part: the trie alone */
        v->nslots = 0;
        return check_trie(v, trie, trie + tsize);
    }
    /* with the padding checked, each column is a 4-byte load masked to its
     * width, as the matcher reads it */
    ptab R, O, S, E;
    ptab_of(v, roots, RSC_ROOTS_COLS, &R), ptab_of(v, outs, RSC_OUTS_COLS, &O);
    ptab_of(v, states, scols, &S), ptab_of(v, edges, RSC_EDGES_COLS, &E);
    for (uint32_t r = 0; r < nr; r++)
        CORRUPT(pcol(&R, r, 0) < RSC_MAX_LEVELS && pcol(&R, r, 1) <= v->n_rules, TROW_AT(roots, r),
                "root Level over the budget or Max not a rank");
    for (uint32_t r = 0; r < no; r++) {
        CORRUPT(pcol(&O, r, 0) >= 1 && pcol(&O, r, 1) <= r && pcol(&O, r, 2) <= v->n_rules,
                TROW_AT(outs, r), "output Len 0, Next not an earlier row, or Max not a rank");
        uint32_t e = pcol(&O, r, 3), nf = pcol(&O, r, 4), na = pcol(&O, r, 5);
        CORRUPT(e <= ne && nf <= ne - e && na <= ne - e - nf, TROW_AT(outs, r),
                "output edges past EDGES");
    }
    for (uint32_t r = 0; r < ns; r++) {
        uint32_t first = pcol(&S, r, 1), n = pcol(&S, r, 2);
        uint32_t fl = pcol(&S, r, 3), out = pcol(&S, r, 4);
        CORRUPT(first <= ns && n <= ns - first && n <= RSC_MAX_CHILDREN, TROW_AT(states, r),
                "state children past STATES");
        CORRUPT(fl < ns && out <= no, TROW_AT(states, r), "state Fail or Out out of range");
        if (labels) {
            uint64_t lo = pcol(&S, r, S_LOFF), ll = pcol(&S, r, S_LLEN);
            CORRUPT(lo + ll <= v->sec_size[RSC_SEC_STRINGS], TROW_AT(states, r),
                    "state label past STRINGS");
        }
    }
    if (chain) { /* a chain: one slot, segment i is edge i, its states in a line */
        size_t sum = 0;
        CORRUPT(nr == 1 && no >= 1 && ne == no, f, "chain without one slot and an edge a segment");
        for (uint32_t r = 0; r < no; r++)
            sum += (size_t)pcol(&O, r, 0) + 1;
        CORRUPT(sum == ns, f, "chain states do not add up to its segments");
    }
    for (uint32_t r = 0; r < ne; r++)
        CORRUPT(pcol(&E, r, 0) < nr + nint && pcol(&E, r, 1) <= v->n_rules &&
                    pcol(&E, r, 2) <= nint && pcol(&E, r, 3) <= v->n_rules,
                TROW_AT(edges, r), "edge Parent, Rank, Target or Max out of range");
    v->nslots = nr;
    return check_trie(v, trie, trie + tsize);
}

static rsc_status check_programs(verifier *v)
{
    size_t pos = v->sec_off[RSC_SEC_PROGRAMS], end = pos + v->sec_size[RSC_SEC_PROGRAMS];
    if (pos == 0)
        return RSC_OK;
    TABLE(pos, end, RSC_PROGRAMS_COLS, P_PROGS);
    v->prog->priv[P_PROG_DATA] = (uint32_t)pos;
    uint32_t n = v->prog->priv[P_PROGS_N], prev = 0;
    if (n > RSC_DEFER_MAX_PROGS)
        v->defer = 0; /* check_deferred()'s marks hold so many */
    for (uint32_t k = 0; k < n; k++) {
        uint32_t e = COL(P_PROGS, k, 0);
        CORRUPT(e > prev && e <= end - pos && (k + 1 < n || e == end - pos), ROW_AT(P_PROGS, k),
                "program Ends not increasing to the size of Data");
        rsc_status st = v->defer ? RSC_OK : check_program(v, pos + prev, pos + e);
        if (st)
            return st;
        prev = e;
    }
    CORRUPT(n || pos == end, pos, "program Data without programs");
    return RSC_OK;
}

/* An absent SETS means set i is program i alone (FORMAT.md, SETS): then
 * priv[P_SETS] stays 0 and Set_Count is the number of programs. */
static rsc_status check_sets(verifier *v)
{
    size_t pos = v->sec_off[RSC_SEC_SETS], end = pos + v->sec_size[RSC_SEC_SETS];
    if (pos == 0) {
        v->prog->priv[P_SETS_N] = v->prog->priv[P_PROGS_N];
        return RSC_OK;
    }
    TABLE(pos, end, RSC_SETS_COLS, P_SETS);
    TABLE(pos, end, RSC_SETLIST_COLS, P_SLIST);
    FILLED(pos, end);
    uint32_t lc = v->prog->priv[P_SLIST_N];
    for (uint32_t r = 0; r < v->prog->priv[P_SETS_N]; r++) {
        uint32_t first = COL(P_SETS, r, 0), n = COL(P_SETS, r, 1);
        CORRUPT(first <= lc && n <= lc - first, ROW_AT(P_SETS, r), "set outside List");
    }
    for (uint32_t r = 0; r < lc; r++)
        CORRUPT(COL(P_SLIST, r, 0) < v->prog->priv[P_PROGS_N], ROW_AT(P_SLIST, r),
                "program index out of range");
    return RSC_OK;
}

/* Byte-order comparison of two strings of STRINGS (memcmp, then length). */
static int cmp_str(const verifier *v, uint32_t ao, uint32_t al, uint32_t bo, uint32_t bl)
{
    const uint8_t *s = v->b + v->sec_off[RSC_SEC_STRINGS];
    return rsc_bytes_cmp(s + ao, al, s + bo, bl);
}

/* Whether t[0..n) are all bytes of an agent token, [a-z_-]: sixteen at a
 * time (SSE2) while 16 bytes of the blob are left from there (room). */
static int token_ok(const uint8_t *t, size_t n, size_t room)
{
#if defined(__SSE2__)
    const __m128i a = _mm_set1_epi8('a'), z = _mm_set1_epi8('z' - 'a'), u = _mm_set1_epi8('_'),
                  h = _mm_set1_epi8('-');
    for (; n && room >= 16; t += 16, room -= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)t);
        __m128i az = _mm_subs_epu8(_mm_sub_epi8(x, a), z); /* 0 in a..z */
        __m128i ok = _mm_or_si128(_mm_cmpeq_epi8(az, _mm_setzero_si128()),
                                  _mm_or_si128(_mm_cmpeq_epi8(x, u), _mm_cmpeq_epi8(x, h)));
        unsigned k = n < 16 ? (unsigned)n : 16, bad = ~(unsigned)_mm_movemask_epi8(ok);
        if (bad & ((1u << k) - 1))
            return 0;
        n -= k;
    }
#else
    (void)room; /* only the SSE2 loop needs it (e.g. not on wasm32 or arm64) */
#endif
    for (; n; t++, n--)
        if (!((*t >= 'a' && *t <= 'z') || *t == '_' || *t == '-'))
            return 0;
    return 1;
}

static rsc_status check_agents(verifier *v)
{
    size_t pos = v->sec_off[RSC_SEC_AGENTS], end = pos + v->sec_size[RSC_SEC_AGENTS];
    size_t budget = v->sec_size[RSC_SEC_STRINGS]; /* keeps this linear */
    uint32_t g;
    if (pos == 0)
        return RSC_OK;
    VARINT(pos, end, g, "bad Global");
    CORRUPT(g <= v->prog->priv[P_SETS_N], v->sec_off[RSC_SEC_AGENTS], "bad Global");
    v->prog->priv[P_GLOBAL] = g;
    TABLE(pos, end, RSC_AGENTS_COLS, P_AGENTS);
    FILLED(pos, end);
    const uint8_t *s = v->b + v->sec_off[RSC_SEC_STRINGS];
    uint32_t po = 0, pl = 0;
    for (uint32_t r = 0; r < v->prog->priv[P_AGENTS_N]; r++) {
        uint32_t so = COL(P_AGENTS, r, 0), sl = COL(P_AGENTS, r, 1);
        size_t at = ROW_AT(P_AGENTS, r);
        CORRUPT(str_ok(v, so, sl), at, "agent token out of STRINGS");
        CORRUPT(sl <= budget, at, "agent tokens longer than STRINGS in total");
        budget -= sl;
        CORRUPT(token_ok(s + so, sl, (size_t)(v->b + v->total - (s + so))), at,
                "agent token byte outside [a-z_-]");
        CORRUPT(r == 0 || cmp_str(v, po, pl, so, sl) < 0, at, "agents not sorted");
        CORRUPT(COL(P_AGENTS, r, 2) < v->prog->priv[P_SETS_N], at, "agent set out of range");
        po = so, pl = sl;
    }
    return RSC_OK;
}

static rsc_status check_groups(verifier *v)
{
    size_t pos = v->sec_off[RSC_SEC_GROUPS], end = pos + v->sec_size[RSC_SEC_GROUPS];
    if (pos == 0)
        return RSC_OK;
    TABLE(pos, end, RSC_GROUPS_COLS, P_GROUPS);
    TABLE(pos, end, RSC_GROUPLIST_COLS, P_GLIST);
    FILLED(pos, end);
    uint32_t lc = v->prog->priv[P_GLIST_N];
    for (uint32_t r = 0, prev = 0; r < v->prog->priv[P_GROUPS_N]; r++) {
        uint32_t first = COL(P_GROUPS, r, 1);
        CORRUPT(r ? first >= prev && first <= lc : first == 0, ROW_AT(P_GROUPS, r),
                "group First not 0, then non-decreasing within List");
        prev = first;
    }
    for (uint32_t r = 0; r < lc; r++)
        CORRUPT(COL(P_GLIST, r, 0) <= v->prog->priv[P_AGENTS_N], ROW_AT(P_GLIST, r),
                "group agent out of range");
    return RSC_OK;
}

static rsc_status check_sitemaps(verifier *v)
{
    size_t pos = v->sec_off[RSC_SEC_SITEMAPS], end = pos + v->sec_size[RSC_SEC_SITEMAPS];
    if (pos == 0)
        return RSC_OK;
    TABLE(pos, end, RSC_SITEMAPS_COLS, P_SITEMAPS);
    FILLED(pos, end);
    for (uint32_t r = 0; r < v->prog->priv[P_SITEMAPS_N]; r++)
        CORRUPT(str_ok(v, COL(P_SITEMAPS, r, 1), COL(P_SITEMAPS, r, 2)),
                ROW_AT(P_SITEMAPS, r), "sitemap out of STRINGS");
    return RSC_OK;
}

static rsc_status check_directives(verifier *v)
{
    size_t pos = v->sec_off[RSC_SEC_DIRECTIVES], end = pos + v->sec_size[RSC_SEC_DIRECTIVES];
    if (pos == 0)
        return RSC_OK;
    TABLE(pos, end, RSC_DIRECTIVES_COLS, P_DIRS);
    FILLED(pos, end);
    for (uint32_t r = 0; r < v->prog->priv[P_DIRS_N]; r++) {
        size_t at = ROW_AT(P_DIRS, r);
        CORRUPT(COL(P_DIRS, r, 1) <= v->prog->priv[P_GROUPS_N], at,
                "directive group out of range");
        CORRUPT(str_ok(v, COL(P_DIRS, r, 2), COL(P_DIRS, r, 3)), at, "key out of STRINGS");
        CORRUPT(str_ok(v, COL(P_DIRS, r, 4), COL(P_DIRS, r, 5)), at, "value out of STRINGS");
    }
    return RSC_OK;
}

/* A code of w bytes (1 or 2) at p. */
RSC_HOT uint32_t dcode(const uint8_t *p, const uint32_t w)
{
    return w == 1 ? p[0] : rsc_rd16(p);
}

/* The records of one DFA's CODE c[0 .. size) whose header check_dfa read,
 * w a constant where it is called (load time grows with the DFA: a code's
 * width known at compile time halves the work a byte). Two passes: the
 * records' extents (each start marked in mark, a bit a byte of CODE), then
 * every code they hold. */
RSC_HOT rsc_status dfa_records(verifier *v, size_t pos, const uint8_t *c, uint32_t size,
                               uint32_t k, size_t at, size_t start_at, uint32_t start,
                               uint8_t *mark, const uint32_t w, const uint32_t lw)
{
    const uint32_t va = RSC_DFA_CODES(w);
    memset(mark, 0, (size + 7) / 8);
    uint32_t n = 0;
    for (uint32_t s = 0; s < size; n++) {
        CORRUPT(size - s >= 2 && c[s] <= (RSC_DFA_E | RSC_DFA_L | RSC_DFA_F), pos + s,
                "bad DFA record");
        const uint32_t bytes = RSC_DFA_REC_BYTES(c[s], (uint32_t)c[s + 1], w, lw); /* < 800 */
        CORRUPT(bytes <= size - s, pos + s, "DFA record past its code");
        mark[s >> 3] |= (uint8_t)(1u << (s & 7));
        s += bytes;
    }
    CORRUPT(n == k, at, "DFA record count is not the state count");
    /* A record's start or a verdict; (t) < size is tested first, so no bit
     * past CODE's (cleared) bits is read. */
#define IS_CODE(t) ((t) < size ? mark[(t) >> 3] >> ((t) & 7) & 1 : (t) - va <= 1u)
    CORRUPT(IS_CODE(start), start_at, "DFA start out of range");
    for (uint32_t s = 0; s < size;) {
        const uint8_t *r = c + s;
        const uint32_t len = r[1], o = dcode(r + 2, w);
        CORRUPT(IS_CODE(o), pos + s, "DFA Other out of range");
        if (r[0] & RSC_DFA_F) /* falls back to a state that keeps every byte it does not list */
            CORRUPT(o < va && !(c[o] & RSC_DFA_F) && dcode(c + o + 2, w) == o, pos + s,
                    "DFA fall-back state out of range or not its own default");
        if (r[0] & RSC_DFA_L) { /* a label in STRINGS, then a state or a verdict */
            const uint32_t nx = dcode(r + 2 + w, w), lo = rsc_rdn(r + 2 + 2 * w, lw);
            CORRUPT(len && IS_CODE(nx) && str_ok(v, lo, len), pos + s, "DFA label or Next out of range");
            s += RSC_DFA_REC_BYTES(r[0], len, w, lw);
            continue;
        }
        const uint8_t *key = r + 2 + w; /* its keys, increasing; their targets */
        unsigned bad = 0; /* no branch a key or a target: they are all read anyway */
        for (uint32_t i = 1; i < len; i++)
            bad |= key[i - 1] >= key[i];
        CORRUPT(!bad, pos + s, "DFA keys not increasing");
        for (uint32_t i = 0; i < len; i++) {
            const uint32_t t = dcode(key + len + (size_t)i * w, w);
            bad |= !IS_CODE(t);
        }
        CORRUPT(!bad, pos + s, "DFA target out of range");
        s += RSC_DFA_REC_BYTES(r[0], len, w, lw);
    }
#undef IS_CODE
    return RSC_OK;
}

/* One DFA of DFAS Data[pos .. end) (FORMAT.md, DFAS): every code the
 * matcher follows is a record's start or a verdict, every record lies in
 * CODE, so a run of it cannot leave the blob; whether it is the DFA of its
 * set's rules cannot affect safety. CODE is shorter than 65,535 bytes, so
 * mark (a bit a byte) holds 8 KiB. */
static rsc_status check_dfa(verifier *v, size_t pos, size_t end, uint8_t *mark)
{
    uint32_t k, start, rules, size;
    VARINT(pos, end, k, "bad DFA state count");
    const size_t start_at = pos;
    VARINT(pos, end, start, "bad DFA start");
    size_t at = pos;
    VARINT(pos, end, rules, "bad DFA rule count");
    CORRUPT(rules <= v->n_rules, at, "DFA rule count out of range");
    at = pos;
    VARINT(pos, end, size, "bad DFA code size");
    CORRUPT(pos < end, pos, "DFA widths missing");
    const uint32_t w = v->b[pos] & 0xfu, lw = v->b[pos] >> 4;
    CORRUPT((w == 1 || w == 2) && lw >= 1 && lw <= 4, pos, "bad DFA widths");
    pos++;
    CORRUPT(size <= RSC_DFA_CODES(w) && size <= end - pos, at, "DFA code size out of range");
    FILLED(pos + size, end);
    const uint8_t *c = v->b + pos;
    if (w == 1)
        return dfa_records(v, pos, c, size, k, at, start_at, start, mark, 1, lw);
    return dfa_records(v, pos, c, size, k, at, start_at, start, mark, 2, lw);
}

/* DFAS: one End a set, non-decreasing; each non-empty span a DFA; Data
 * ends with RSC_PAD zeros after the last DFA (a record's first fields are
 * read as 4 bytes). */
static rsc_status check_dfas(verifier *v)
{
    size_t pos = v->sec_off[RSC_SEC_DFAS], end = pos + v->sec_size[RSC_SEC_DFAS];
    uint8_t mark[8192]; /* a bit a byte of one DFA's CODE (at most 65,534) */
    if (pos == 0)
        return RSC_OK;
    TABLE(pos, end, RSC_DFAS_COLS, P_DFAS);
    const uint32_t n = v->prog->priv[P_DFAS_N];
    CORRUPT(n == v->prog->priv[P_SETS_N], v->sec_off[RSC_SEC_DFAS], "DFAS rows are not one a set");
    CORRUPT(end - pos >= RSC_PAD && !v->b[end - 1] && !v->b[end - 2] && !v->b[end - 3], end - 3,
            "DFAS Data does not end with three zeros");
    v->prog->priv[P_DFA_DATA] = (uint32_t)pos;
    const size_t size = end - pos - RSC_PAD;
    uint32_t prev = 0;
    for (uint32_t r = 0; r < n; r++) {
        uint32_t e = COL(P_DFAS, r, 0);
        CORRUPT(e >= prev && e <= size && (r + 1 < n || e == size), ROW_AT(P_DFAS, r),
                "DFA End out of order or outside Data");
        if (e > prev && !v->defer) { /* deferred: rsc_select() checks the one it runs */
            rsc_status st = check_dfa(v, pos + prev, pos + e, mark);
            if (st)
                return st;
        }
        prev = e;
    }
    return RSC_OK;
}

/* Program k (0-based) of a program whose PROGRAMS table passed. */
static rsc_status check_program_k(verifier *v, uint32_t k)
{
    const size_t data = v->prog->priv[P_PROG_DATA];
    return check_program(v, data + (k ? COL(P_PROGS, k - 1, 0) : 0), data + COL(P_PROGS, k, 0));
}

/* RSC_LOAD_DEFER, after DFAS: the programs of the sets without a DFA,
 * which matching runs, each once (with SETS a program may be in several
 * sets; without, program k is set k alone). The others are left to
 * rsc_verify_set(), before anything runs them. */
static rsc_status check_deferred(verifier *v)
{
    const rsc_program *prog = v->prog;
    const int sets = prog->priv[P_SETS] != 0;
    uint8_t done[RSC_DEFER_MAX_PROGS / 8]; /* with SETS: the programs checked */
    uint32_t deferred = 0;
    if (sets)
        memset(done, 0, (prog->priv[P_PROGS_N] + 7) / 8);
    for (uint32_t r = 0; r < prog->priv[P_SETS_N]; r++) {
        uint32_t j, end, da, db;
        if (rsc_dfa_span(prog, r, &da, &db)) { /* a DFA: its programs wait */
            deferred++;
            continue;
        }
        for (rsc_set_span(prog, r, &j, &end); j < end; j++) {
            const uint32_t k = sets ? COL(P_SLIST, j, 0) : j;
            if (sets && (done[k / 8] >> (k % 8) & 1))
                continue;
            if (sets)
                done[k / 8] |= (uint8_t)(1u << (k % 8));
            rsc_status st = check_program_k(v, k);
            if (st)
                return st;
        }
    }
    v->prog->priv[P_DEFER] = deferred != 0;
    return RSC_OK;
}

/* A verifier of a loaded program's parts (the checks of a program or a
 * DFA read it; no section check runs on it). */
static void verifier_of(verifier *v, const rsc_program *prog)
{
    memset(v, 0, sizeof *v);
    v->b = prog->base, v->total = prog->size;
    v->prog = (rsc_program *)prog; /* read only */
    v->sec_size[RSC_SEC_STRINGS] = PRIV(prog, P_STR_SIZE);
    v->mcol = prog->flags & RSC_FLAG_PROFILE_RFC ? 3 : 1;
    ptab R;
    ptab_of(v, prog->priv + P_RULES, v->mcol == 1 ? RSC_RULES_COLS : RSC_RULES_COLS_RFC, &R);
    rules_view(v, &R, PRIV(prog, P_RULES_N));
}

rsc_status rsc_verify_dfa(const rsc_program *prog, uint32_t k)
{
    verifier v0, *v = &v0;
    uint8_t mark[8192];
    uint32_t a, e;
    if (!rsc_dfa_span(prog, k, &a, &e))
        return RSC_OK;
    verifier_of(v, prog);
    const size_t data = PRIV(prog, P_DFA_DATA);
    return check_dfa(v, data + a, data + e, mark);
}

rsc_status rsc_verify_set(const rsc_program *prog, uint32_t k)
{
    verifier v0, *v = &v0;
    verifier_of(v, prog);
    uint32_t j, end;
    for (rsc_set_span(prog, k, &j, &end); j < end; j++) {
        rsc_status st = check_program_k(v, PRIV(prog, P_SETS) ? rsc_tab(prog, P_SLIST, j, 0) : j);
        if (st)
            return st;
    }
    return RSC_OK;
}

rsc_status rsc_load(rsc_program *prog, const void *blob, size_t size,
                    rsc_load_error *err)
{
    return rsc_load_ex(prog, blob, size, 0, err);
}

rsc_status rsc_load_ex(rsc_program *prog, const void *blob, size_t size, unsigned flags,
                       rsc_load_error *err)
{
    verifier v0, *v = &v0;
    rsc_status st;
    memset(v, 0, sizeof *v);
    if (!prog || !blob || (flags & ~(unsigned)RSC_LOAD_DEFER)) {
        st = fail(v, RSC_E_ARG, 0, "NULL argument or unknown flag");
    } else {
        memset(prog, 0, sizeof *prog);
        v->b = blob;
        v->prog = prog;
        prog->base = blob; /* the table readers need it; cleared on failure */
        v->mcol = 1;
        /* Sections are checked in id order: each depends on lower ids only
         * (with RSC_LOAD_DEFER, DFAS says which programs wait: those of the
         * sets without a DFA are checked after it). */
        if (!(st = check_header(v, size)) && !(st = check_sections(v))) {
            v->defer = (flags & RSC_LOAD_DEFER) && v->sec_off[RSC_SEC_DFAS];
            st = check_checksum(v);
        }
        if (!st && !(st = check_rules_of_profile(v)) &&
            !(st = check_programs(v)) && !(st = check_sets(v)) &&
            !(st = check_agents(v)) && !(st = check_groups(v)) &&
            !(st = check_sitemaps(v)) && !(st = check_directives(v)) &&
            !(st = check_dfas(v)) && !(v->defer && (st = check_deferred(v)))) {
            prog->priv[P_STR_OFF] = (uint32_t)v->sec_off[RSC_SEC_STRINGS];
            prog->priv[P_STR_SIZE] = (uint32_t)v->sec_size[RSC_SEC_STRINGS];
            prog->size = v->total, prog->flags = v->b[RSC_H_FLAGS];
        }
    }
    if (st && prog)
        memset(prog, 0, sizeof *prog);
    if (err) {
        err->offset = st ? v->fail_off : 0;
        err->what = st ? v->fail_what : "ok";
    }
    return st;
}
