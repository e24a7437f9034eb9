/* An independent reader and checker of docs/FORMAT.md version 2 blobs, for
 * the back-end tests. It shares no code with the compiler or the runtime:
 * it reads the bytes as the document describes them and checks
 *  - every rule a decoder checks (Verification 1-15), and
 *  - what a compliant encoder promises on top: canonical varints (also in
 *    the header fields the decoder reads), the smallest width for every
 *    Table column and node Offsets, empty sections omitted, SETS only when
 *    some set is not the program of the same index, Format_Minor 0, no
 *    Skippable known section, in rfc blobs a match text that is the
 *    normalised pattern, groups in file order with at least one agent, a
 *    trie node only where a pattern ends or two part, no key or label byte
 *    '*' (a node's string is a literal prefix), a label pointed into the
 *    match text of a rule whose pattern passes through the node and only
 *    when that is shorter than the label (Label_Len > the Rep's varint; an
 *    inline label no longer than the varint of some rank below the node),
 *    glob rules whose match text starts with the node's string and whose
 *    tail is not all stars, and (when asked) no Accept, End or glob entry
 *    whose rank is not above the best Accept on the way from the root
 *    (pruning).
 * It also interprets "Matching" (walk and glob) on its own.
 *
 * Programs point into the rules' match texts, so checking or walking one
 * needs them: a bc_texts, read from a blob's RULES (bc_blob_texts) or made
 * by the caller (bc_texts_add) for a program that is not in a blob yet.
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
    BC_N_SECTIONS = 9
};

enum { BC_ACCEPT = 1, BC_END = 2, BC_GLOB = 3 };

#define BC_HEADER 19u
#define BC_MAX_DEPTH 4096u
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
 * 3n bytes); returns the length. */
static inline size_t bc_rfc_norm(const uint8_t *s, size_t n, uint8_t *out)
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
        } else if (c >= 0x80) {
            out[o++] = '%', out[o++] = (uint8_t)hex[c >> 4], out[o++] = (uint8_t)hex[c & 15];
        } else {
            out[o++] = c;
        }
    }
    return o;
}

/* ---- match texts --------------------------------------------------------- */

/* The match text of every rank 1..n: p[r-1][0..len[r-1]). */
typedef struct bc_texts {
    uint32_t n;
    const uint8_t **p;
    uint32_t *len;
    uint8_t **own; /* copies made by bc_texts_add, freed with the texts */
    size_t n_own;
} bc_texts;

/* n ranks, every text empty until set. */
static inline void bc_texts_init(bc_texts *t, uint32_t n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    t->p = bc_alloc(((size_t)n + 1) * sizeof *t->p);
    t->len = bc_alloc(((size_t)n + 1) * sizeof *t->len);
    t->own = bc_alloc(((size_t)n + 1) * sizeof *t->own);
    for (uint32_t i = 0; i < n; i++)
        t->p[i] = NULL, t->len[i] = 0; /* NULL: empty */
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

static inline void bc_texts_free(bc_texts *t)
{
    for (size_t i = 0; i < t->n_own; i++)
        free(t->own[i]);
    free(t->own);
    free(t->p);
    free(t->len);
    memset(t, 0, sizeof *t);
}

/* ---- blob, sections, tables ---------------------------------------------- */

typedef struct bc_blob {
    const uint8_t *p;
    size_t n;
    int rfc;
    const uint8_t *sec[BC_N_SECTIONS]; /* content of section id; NULL: absent */
    uint32_t sec_size[BC_N_SECTIONS];
} bc_blob;

/* FORMAT.md "Checksum": Adler-32 of p[0..n) with bytes 15..18 read as 0. */
static inline uint32_t bc_checksum(const uint8_t *p, size_t n)
{
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + (i >= 15 && i < 19 ? 0u : p[i])) % 65521u;
        b = (b + a) % 65521u;
    }
    return b << 16 | a;
}

/* Header and section framing (Verification 1-8, plus the encoder's own
 * rules: minor 0, no empty or skippable sections). */
static inline int bc_open(bc_blob *b, const void *data, size_t n, bc_err *e)
{
    memset(b, 0, sizeof *b);
    b->p = data;
    b->n = n;
    const uint8_t *p = data;
    if (!p || n < BC_HEADER)
        return bc_fail(e, "blob of %zu bytes: shorter than the header", n);
    if (memcmp(p, "\x89RSC\r\n\x1a\n", 8) != 0)
        return bc_fail(e, "bad magic");
    if (p[8] != 2 || p[9] != 0)
        return bc_fail(e, "format %u.%u, want 2.0", p[8], p[9]);
    if (p[10] & ~1u)
        return bc_fail(e, "reserved flag bits set: %#x", p[10]);
    b->rfc = p[10] & 1u;
    if (bc_rd32(p + 11) != n)
        return bc_fail(e, "Total_Size %u, blob %zu bytes", bc_rd32(p + 11), n);
    uint32_t ck = bc_checksum(p, n);
    if (ck != bc_rd32(p + 15))
        return bc_fail(e, "checksum %08X, computed %08X", bc_rd32(p + 15), ck);
    const uint8_t *q = p + BC_HEADER, *end = p + n;
    uint32_t last = 0;
    while (q < end) {
        uint32_t tag, size;
        size_t at = (size_t)(q - p);
        if (!bc_varint(&q, end, &tag) || !bc_varint(&q, end, &size))
            return bc_fail(e, "section at %zu: bad Tag or Size varint", at);
        uint32_t id = tag >> 1;
        if (tag & 1u)
            return bc_fail(e, "section %u at %zu: Skippable set", id, at);
        if (id <= last || id >= BC_N_SECTIONS)
            return bc_fail(e, "section id %u at %zu after %u", id, at, last);
        if (size == 0)
            return bc_fail(e, "section %u at %zu: empty (an encoder omits it)", id, at);
        if (size > (size_t)(end - q))
            return bc_fail(e, "section %u at %zu: size %u past the end", id, at, size);
        b->sec[id] = q;
        b->sec_size[id] = size;
        q += size;
        last = id;
    }
    return 1;
}

typedef struct bc_table {
    uint32_t count;
    unsigned cols, w[6];
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

/* A Table at *pp (FORMAT.md "Conventions"): no widths when Count is 0;
 * else widths 1..4 and, as the encoder promises, each the smallest that
 * holds its column's largest value. */
static inline int bc_read_table(const uint8_t **pp, const uint8_t *end, unsigned cols, bc_table *t,
                                const char *what, bc_err *e)
{
    memset(t, 0, sizeof *t);
    t->cols = cols;
    if (!bc_varint(pp, end, &t->count))
        return bc_fail(e, "%s: bad Count", what);
    t->rows = *pp;
    if (t->count == 0)
        return 1;
    if ((size_t)(end - *pp) < cols)
        return bc_fail(e, "%s: widths past the end", what);
    for (unsigned c = 0; c < cols; c++) {
        t->w[c] = *(*pp)++;
        if (t->w[c] < 1 || t->w[c] > 4)
            return bc_fail(e, "%s: column %u width %u", what, c, t->w[c]);
        t->row_size += t->w[c];
    }
    if ((size_t)(end - *pp) / t->row_size < t->count)
        return bc_fail(e, "%s: %u rows past the end", what, t->count);
    t->rows = *pp;
    *pp += (size_t)t->count * t->row_size;
    for (unsigned c = 0; c < cols; c++) {
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
    for (uint32_t r = 0; r < rules->count; r++) {
        uint32_t off = bc_cell(rules, r, col), len = bc_cell(rules, r, col + 1);
        if (bc_strref(b, off, len)) {
            t->p[r] = b->sec[BC_STRINGS] ? b->sec[BC_STRINGS] + off : (const uint8_t *)"";
            t->len[r] = len;
        }
    }
}

/* ---- programs ------------------------------------------------------------ */

/* One node, parsed from its span [at, end) of program pg; its label
 * starts at string depth d. */
typedef struct bc_node {
    uint32_t label_head, label_len, rep, head, accept, end, n, w, gn;
    int ref;                 /* the label points into MatchText(rep) */
    uint32_t depth;          /* the length of the node's string */
    const uint8_t *label;
    const uint8_t *globs;    /* the first glob rank; NULL without */
    const uint8_t *keys, *offs;
    size_t c; /* offset (in pg) where the children's Offsets count from */
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
    x->label_len = x->label_head >> 1;
    x->ref = (int)(x->label_head & 1u);
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
    if (!bc_varint(&p, q, &x->head))
        return bc_fail(e, "node @%zu: bad Head", at);
    if ((x->head & 1u) && !bc_varint(&p, q, &x->accept))
        return bc_fail(e, "node @%zu: bad Accept", at);
    if ((x->head & 2u) && !bc_varint(&p, q, &x->end))
        return bc_fail(e, "node @%zu: bad End", at);
    if (x->head & 4u) {
        if (!bc_varint(&p, q, &x->gn))
            return bc_fail(e, "node @%zu: bad Glob_Count", at);
        if (x->gn == 0)
            return bc_fail(e, "node @%zu: Glob_Count 0", at);
        x->globs = p;
        for (uint32_t k = 0; k < x->gn; k++) {
            uint32_t r;
            if (!bc_varint(&p, q, &r))
                return bc_fail(e, "node @%zu: bad glob rank %u", at, k);
        }
    }
    x->n = x->head >> 5;
    x->w = ((x->head >> 3) & 3u) + 1;
    if (x->n > BC_MAX_CHILDREN)
        return bc_fail(e, "node @%zu: %u children", at, x->n);
    if (x->n == 0 && x->w != 1)
        return bc_fail(e, "node @%zu: no children but Width %u", at, x->w - 1);
    if ((size_t)x->n * (1 + x->w) > (size_t)(q - p))
        return bc_fail(e, "node @%zu: Keys/Offsets past the span", at);
    x->keys = p;
    p += x->n;
    x->offs = p;
    p += (size_t)x->n * x->w;
    x->c = (size_t)(p - pg);
    return 1;
}

/* Child k's span. Checked by the caller through bc_check_program. */
static inline void bc_child_span(const bc_node *x, uint32_t k, size_t end, size_t *cs, size_t *ce)
{
    *cs = x->c + bc_rdn(x->offs + (size_t)k * x->w, x->w);
    *ce = k + 1 < x->n ? x->c + bc_rdn(x->offs + (size_t)(k + 1) * x->w, x->w) : end;
}

/* Glob rule rank's tail at string depth j: *tl bytes from the '*', without
 * the final '$', which sets *dollar. */
static inline const uint8_t *bc_tail(const bc_texts *tx, uint32_t rank, uint32_t j, size_t *tl,
                                     int *dollar)
{
    uint32_t ml;
    const uint8_t *t = bc_text(tx, rank, &ml);
    *dollar = ml > j && t[ml - 1] == '$';
    *tl = ml > j ? ml - j - (size_t)*dollar : 0;
    return t + j;
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
    uint32_t nodes, globs, depth; /* depth: most nodes on a chain */
    size_t edge_bytes;            /* Keys + Labels: the bytes of the trie's strings */
    size_t key_bytes;             /* Keys */
    size_t inline_bytes;          /* Labels stored inline */
    uint32_t ref_labels;          /* Labels pointed into a match text */
    size_t ref_label_bytes;       /* their length */
    uint32_t max_width;           /* widest Offsets (1..4) */
    uint32_t max_children;
    uint32_t accepts, ends;
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

static inline void bc_add_entry(bc_pctx *c, int kind, uint32_t rank, int anch, const uint8_t *tail,
                                size_t tl)
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
    x->s0 = c->s_len;
    x->len = c->s_len + tl;
    x->bytes = bc_alloc(x->len + 1);
    if (c->s_len)
        memcpy(x->bytes, c->s, c->s_len);
    if (tl)
        memcpy(x->bytes + c->s_len, tail, tl);
}

/* Checks the node at [at, end), whose label starts at string depth d, and
 * its subtree. key: the edge byte from the parent (-1 for the root);
 * floor: the best Accept above it. *vmax receives the longest varint of a
 * rank in the subtree. */
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
            o->ref_labels++;
            o->ref_label_bytes += x.label_len;
            if (x.label_len <= bc_varint_size(x.rep))
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
        bc_add_entry(c, BC_ACCEPT, x.accept, 0, NULL, 0);
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
        bc_add_entry(c, BC_END, x.end, 0, NULL, 0);
    }
    if (x.globs) {
        const uint8_t *g = x.globs, *ge = c->pg + end;
        uint32_t prev = UINT32_MAX;
        for (uint32_t k = 0; k < x.gn; k++) {
            uint32_t rank, ml;
            if (!bc_varint(&g, ge, &rank))
                return bc_fail(e, "node @%zu: bad glob rank", at);
            if (rank < 1 || rank > max_rank)
                return bc_fail(e, "node @%zu: glob rank %u out of 1..%u", at, rank, max_rank);
            if (rank >= prev)
                return bc_fail(e, "node @%zu: glob ranks not strictly decreasing (%u after %u)",
                               at, rank, prev);
            const uint8_t *t = bc_text(c->tx, rank, &ml);
            if (ml <= x.depth || t[x.depth] != '*')
                return bc_fail(e, "node @%zu: glob rank %u: no '*' at depth %u of its match text "
                                  "(%u bytes)",
                               at, rank, x.depth, ml);
            if (x.depth && memcmp(t, c->s, x.depth) != 0)
                return bc_fail(e, "node @%zu: glob rank %u: the match text does not start with "
                                  "the node's string",
                               at, rank);
            size_t tl;
            int dollar;
            const uint8_t *tail = bc_tail(c->tx, rank, x.depth, &tl, &dollar);
            size_t s = 0;
            while (s < tl && tail[s] == '*')
                s++;
            if (s == tl)
                return bc_fail(e, "node @%zu: glob rank %u: a tail of stars only (an Accept)", at,
                               rank);
            if (c->pruned && rank <= floor2)
                return bc_fail(e, "node @%zu: glob %u can never decide (best Accept %u)", at,
                               rank, floor2);
            if (bc_varint_size(rank) > *vmax)
                *vmax = bc_varint_size(rank);
            bc_add_entry(c, BC_GLOB, rank, dollar && tail[tl - 1] != '*', tail, tl);
            o->globs++;
            prev = rank;
        }
    }
    if (key >= 0 && !(x.head & 7u) && x.n < 2)
        return bc_fail(e, "node @%zu: no entry and %u child(ren): a node only where a pattern "
                          "ends or two part",
                       at, x.n);
    if (x.n == 0) {
        if (x.c != end)
            return bc_fail(e, "node @%zu: childless node ends at %zu, span at %zu", at, x.c, end);
    } else {
        if (x.n > o->max_children)
            o->max_children = x.n;
        if (x.w > o->max_width)
            o->max_width = x.w;
        uint32_t lastoff = bc_rdn(x.offs + (size_t)(x.n - 1) * x.w, x.w);
        if (bc_width(lastoff) != x.w)
            return bc_fail(e, "node @%zu: Offsets width %u, the last offset %u needs %u", at,
                           x.w, lastoff, bc_width(lastoff));
        for (uint32_t k = 0; k < x.n; k++) {
            uint32_t o1 = bc_rdn(x.offs + (size_t)k * x.w, x.w);
            if (k == 0 && o1 != 0)
                return bc_fail(e, "node @%zu: Offsets[0] = %u", at, o1);
            if (k > 0 && (x.keys[k] <= x.keys[k - 1] ||
                          o1 <= bc_rdn(x.offs + (size_t)(k - 1) * x.w, x.w)))
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
    return 1;
}

/* Checks program pg[0..size) against the match texts tx (FORMAT.md
 * "Nodes", Verification 10, and the encoder's promises; pruned: also that
 * no entry can never decide), counts it into *out (zeroed first) and, with
 * collect, lists its entries. */
static inline int bc_check_program(const uint8_t *pg, size_t size, const bc_texts *tx, int collect,
                                   int pruned, bc_prog *out, bc_err *e)
{
    memset(out, 0, sizeof *out);
    bc_pctx c;
    memset(&c, 0, sizeof c);
    c.pg = pg;
    c.tx = tx;
    c.collect = collect;
    c.pruned = pruned;
    c.out = out;
    c.e = e;
    unsigned vmax;
    int ok = size > 0 ? bc_check_node(&c, 0, size, 1, 0, 0, -1, &vmax) : bc_fail(e, "empty program");
    free(c.s);
    return ok;
}

/* FORMAT.md "Matching", glob(). */
static inline int bc_glob(const uint8_t *p, size_t n, size_t j, const uint8_t *t, size_t tl, int anch)
{
    size_t k = 0;
    for (;;) {
        while (k < tl && t[k] == '*')
            k++;
        if (k == tl)
            return 1;
        size_t a = k;
        while (k < tl && t[k] != '*')
            k++;
        size_t m = k - a;
        if (k == tl && anch)
            return n - j >= m && memcmp(p + n - m, t + a, m) == 0;
        size_t q = j;
        while (q + m <= n && memcmp(p + q, t + a, m) != 0)
            q++;
        if (q + m > n)
            return 0;
        j = q + m;
    }
}

/* FORMAT.md "Matching", walk(), over a program that bc_check_program
 * accepted with the same texts. */
static inline uint32_t bc_walk(const uint8_t *pg, size_t size, const bc_texts *tx, const uint8_t *p,
                               size_t n, uint32_t best)
{
    typedef struct pend {
        const uint8_t *g;
        uint32_t gn;
        size_t j;
    } pend;
    static pend pending[BC_MAX_DEPTH + 1];
    size_t np = 0, at = 0, end = size, i = 0;
    bc_node x;
    for (;;) {
        if (!bc_parse_node(pg, at, end, (uint32_t)i, tx, &x, NULL))
            return UINT32_MAX;
        if (n - i < x.label_len || memcmp(p + i, x.label, x.label_len) != 0)
            break;
        i += x.label_len;
        if ((x.head & 1u) && x.accept > best)
            best = x.accept;
        if ((x.head & 2u) && i == n && x.end > best)
            best = x.end;
        if (x.globs && np <= BC_MAX_DEPTH)
            pending[np].g = x.globs, pending[np].gn = x.gn, pending[np].j = i, np++;
        if (i == n)
            break;
        uint32_t k = 0;
        while (k < x.n && x.keys[k] != p[i])
            k++;
        if (k == x.n)
            break;
        bc_child_span(&x, k, end, &at, &end);
        i++;
    }
    for (size_t q = 0; q < np; q++) {
        const uint8_t *g = pending[q].g;
        for (uint32_t k = 0; k < pending[q].gn; k++) {
            uint32_t rank;
            size_t tl;
            int dollar;
            if (!bc_varint(&g, pg + size, &rank))
                return UINT32_MAX;
            if (rank <= best)
                break;
            const uint8_t *t = bc_tail(tx, rank, (uint32_t)pending[q].j, &tl, &dollar);
            if (bc_glob(p, n, pending[q].j, t, tl, dollar)) {
                best = rank;
                break;
            }
        }
    }
    return best;
}

/* ---- the whole blob ------------------------------------------------------ */

typedef struct bc_info {
    uint32_t rules, programs, sets, agents, groups, sitemaps, directives;
    int has_sets;   /* a SETS section (else set i is program i) */
    int has_global;
    uint32_t global_set;
    uint32_t nodes, max_nodes, globs, ref_labels;
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
            if (r > 0) {
                uint32_t pla = bc_cell(&t, r - 1, 0), plen = bc_cell(&t, r - 1, 2);
                int up = plen != len ? plen < len
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
                size_t nl = bc_rfc_norm(s + bc_cell(&t, r, 1), len, nb);
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
            info->globs += pr.globs;
            info->ref_labels += pr.ref_labels;
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
