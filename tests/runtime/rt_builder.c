/* SPDX-License-Identifier: Apache-2.0 */
#include "rt_builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/format.h"

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "rt_builder: out of memory\n");
        abort();
    }
    return p;
}

/* ---- bytes ------------------------------------------------------------ */

void bb_raw(bb *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->d = xrealloc(b->d, b->cap);
    }
    if (n && p)
        memcpy(b->d + b->n, p, n);
    else if (n)
        memset(b->d + b->n, 0, n); /* p NULL: n zero bytes */
    b->n += n;
}

void bb_str(bb *b, const char *s)
{
    bb_raw(b, s, strlen(s));
}

void bb_u8(bb *b, uint32_t v)
{
    uint8_t c = (uint8_t)v;
    bb_raw(b, &c, 1);
}

void bb_un(bb *b, uint32_t v, unsigned w)
{
    uint8_t t[4];
    wrnle(t, v, w);
    bb_raw(b, t, w);
}

void bb_varint(bb *b, uint32_t v)
{
    while (v >= 0x80) {
        bb_u8(b, (v & 0x7f) | 0x80);
        v >>= 7;
    }
    bb_u8(b, v);
}

void bb_free(bb *b)
{
    free(b->d);
    memset(b, 0, sizeof *b);
}

size_t varint_len(uint32_t v)
{
    size_t n = 1;
    for (; v >= 0x80; v >>= 7)
        n++;
    return n;
}

uint32_t rd32le(const uint8_t *p)
{
    return rdnle(p, 4);
}

void wr32le(uint8_t *p, uint32_t v)
{
    wrnle(p, v, 4);
}

uint32_t rdnle(const uint8_t *p, unsigned w)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < w; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

void wrnle(uint8_t *p, uint32_t v, unsigned w)
{
    for (unsigned i = 0; i < w; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

uint32_t rd_varint(const uint8_t *b, size_t *pos)
{
    uint32_t v = 0;
    for (unsigned s = 0;; s += 7) {
        uint8_t c = b[(*pos)++];
        v |= (uint32_t)(c & 0x7f) << s;
        if (!(c & 0x80) || s >= 28)
            return v;
    }
}

/* ---- Tables ----------------------------------------------------------- */

unsigned tb_width(uint32_t v)
{
    return v <= 0xff ? 1 : v <= 0xffff ? 2 : v <= 0xffffff ? 3 : 4;
}

size_t tb_wbytes(unsigned cols)
{
    return (cols + 3) / 4;
}

void tb_pack_widths(uint8_t *out, unsigned cols, const uint8_t *w)
{
    memset(out, 0, tb_wbytes(cols));
    for (unsigned c = 0; c < cols; c++)
        out[c / 4] |= (uint8_t)(((w[c] - 1u) & 3u) << (2 * (c % 4)));
}

void tb_table(bb *out, size_t count, unsigned cols, const uint32_t *vals,
              const uint8_t *widths)
{
    uint8_t w[8], packed[8];
    if (cols > 8) {
        fprintf(stderr, "rt_builder: a Table of %u columns\n", cols);
        abort();
    }
    bb_varint(out, (uint32_t)count);
    if (count == 0) /* an empty Table has no widths */
        return;
    for (unsigned c = 0; c < cols; c++) {
        uint32_t max = 0;
        for (size_t r = 0; r < count; r++)
            if (vals[r * cols + c] > max)
                max = vals[r * cols + c];
        w[c] = widths ? widths[c] : (uint8_t)tb_width(max);
    }
    tb_pack_widths(packed, cols, w);
    bb_raw(out, packed, tb_wbytes(cols));
    for (size_t r = 0; r < count; r++)
        for (unsigned c = 0; c < cols; c++)
            bb_un(out, vals[r * cols + c], ((w[c] - 1u) & 3u) + 1);
}

size_t tb_table_at(const uint8_t *blob, size_t off, unsigned cols, uint32_t *count,
                   uint8_t *widths)
{
    *count = rd_varint(blob, &off);
    if (*count == 0)
        return off;
    for (unsigned c = 0; c < cols; c++)
        widths[c] = (uint8_t)(((blob[off + c / 4] >> (2 * (c % 4))) & 3u) + 1);
    return off + tb_wbytes(cols);
}

size_t tb_cell(size_t rows, const uint8_t *widths, unsigned cols, uint32_t r, unsigned c)
{
    size_t row = 0, at = 0;
    for (unsigned k = 0; k < cols; k++) {
        row += widths[k];
        if (k < c)
            at += widths[k];
    }
    return rows + (size_t)r * row + at;
}

/* ---- blobs ------------------------------------------------------------ */

const bb tb_size0_ = {NULL, 0, 0};

uint32_t tb_adler32(const uint8_t *p, size_t n)
{
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return b << 16 | a;
}

void tb_fix_checksum(uint8_t *b, size_t size)
{
    if (size < RSC_H_CHECK + 4)
        return;
    wr32le(b + RSC_H_CHECK, 0);
    wr32le(b + RSC_H_CHECK, tb_adler32(b, size));
}

uint8_t *tb_wrap_tlen(uint8_t flags, const uint8_t *body, size_t n, unsigned tlen,
                      size_t *size)
{
    bb b = {0};
    uint64_t total = RSC_H_TOTAL + tlen + n;
    if (tlen < 1 || tlen > 5 || (tlen < 5 && total >> (7 * tlen)) || total > 0xffffffffu) {
        fprintf(stderr, "rt_builder: Total_Size %llu in %u bytes\n", (unsigned long long)total,
                tlen);
        abort();
    }
    bb_raw(&b, RSC_MAGIC, RSC_MAGIC_LEN);
    bb_u8(&b, 5); /* Format_Major */
    bb_u8(&b, 0); /* Format_Minor */
    bb_u8(&b, flags);
    bb_un(&b, 0, 4); /* Checksum */
    for (unsigned i = 0; i < tlen; i++) /* Total_Size, tlen bytes */
        bb_u8(&b, ((uint32_t)(total >> (7 * i)) & 0x7f) | (i + 1 < tlen ? 0x80 : 0));
    bb_raw(&b, body, n);
    tb_fix_checksum(b.d, b.n);
    *size = b.n;
    return b.d;
}

uint8_t *tb_wrap(uint8_t flags, const uint8_t *body, size_t n, size_t *size)
{
    unsigned tlen = 1; /* the shortest varint that holds the size it is part of */
    while (varint_len((uint32_t)(RSC_H_TOTAL + tlen + n)) > tlen)
        tlen++;
    return tb_wrap_tlen(flags, body, n, tlen, size);
}

uint8_t *tb_blob(uint8_t flags, const tb_sec *s, size_t n, size_t *size)
{
    bb body = {0};
    const tb_sec *by_id[33] = {NULL};
    uint32_t present = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i].id < 1 || s[i].id > 32 || by_id[s[i].id]) {
            fprintf(stderr, "rt_builder: section Id %u out of 1..32 or twice\n", s[i].id);
            abort();
        }
        by_id[s[i].id] = &s[i];
        if (s[i].data && (s[i].data->n || s[i].data == TB_SIZE0))
            present |= 1u << (s[i].id - 1);
    }
    bb_varint(&body, present);
    for (uint32_t id = 1; id <= 32; id++) {
        if (!(present >> (id - 1) & 1))
            continue;
        const bb *d = by_id[id]->data;
        bb_varint(&body, (uint32_t)d->n);
        if (d->n)
            bb_raw(&body, d->d, d->n);
    }
    uint8_t *blob = tb_wrap(flags, body.d, body.n, size);
    bb_free(&body);
    return blob;
}

size_t tb_present_at(const uint8_t *b)
{
    size_t pos = RSC_H_TOTAL;
    (void)rd_varint(b, &pos);
    return pos;
}

size_t tb_section(const uint8_t *b, size_t size, uint32_t id, size_t *sec_size)
{
    size_t pos = tb_present_at(b);
    uint32_t present = rd_varint(b, &pos);
    for (uint32_t k = 1; k <= 32 && pos < size; k++) {
        if (!(present >> (k - 1) & 1))
            continue;
        uint32_t n = rd_varint(b, &pos);
        if (k == id) {
            if (sec_size)
                *sec_size = n;
            return pos;
        }
        pos += n;
    }
    if (sec_size)
        *sec_size = 0;
    return 0;
}

/* ---- programs ---------------------------------------------------------- */

typedef struct ttn {
    int parent;
    uint8_t key;
    bb label;        /* inline label */
    int ref;         /* label by Rep */
    uint32_t rep, ll;
    uint32_t accept, end;
    uint32_t *globs; /* glob ranks, in the order given */
    size_t nglobs;
    int forced;      /* tt_slot() */
    uint32_t fslot;
    int has_slot;    /* as encoded */
    uint32_t slot;
    size_t depth;    /* length of the node's string */
    int *kids;
    size_t nk, capk;
    unsigned width, w; /* forced; effective */
    int lmode;         /* tt_leaf_kind(), or -1: the tt's mode */
    unsigned kind;     /* Label_Head kind, as encoded */
    size_t size;       /* encoded subtree */
    tt_pos pos;
} ttn;

struct tt {
    ttn *n;
    size_t count, cap;
    unsigned minw; /* least Offsets and column width */
    const char *const *mt;
    uint32_t nmt;
    uint32_t *mt_off, n_off; /* tt_strings() */
    uint32_t labels;        /* tt_labels() */
    int leaf_mode;          /* tt_leaf_kinds() */
    int wild_set; /* tt_wild_set() */
    tt_wild wild;
    tt_wpos wpos;
};

static int tt_add(tt *t, int parent, uint8_t key)
{
    if (t->count == t->cap) {
        t->cap = t->cap * 2 + 16;
        t->n = xrealloc(t->n, t->cap * sizeof *t->n);
    }
    ttn *x = &t->n[t->count];
    memset(x, 0, sizeof *x);
    x->parent = parent, x->key = key, x->lmode = -1;
    if (parent >= 0) {
        ttn *p = &t->n[parent];
        if (p->nk == p->capk) {
            p->capk = p->capk * 2 + 4;
            p->kids = xrealloc(p->kids, p->capk * sizeof *p->kids);
        }
        p->kids[p->nk++] = (int)t->count;
    }
    return (int)t->count++;
}

tt *tt_new(void)
{
    tt *t = xrealloc(NULL, sizeof *t);
    memset(t, 0, sizeof *t);
    tt_add(t, -1, 0);
    return t;
}

void tt_wild_free(tt_wild *w)
{
    for (int k = 0; k < 4; k++)
        free(w->rows[k]);
    memset(w, 0, sizeof *w);
}

void tt_free(tt *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->count; i++) {
        bb_free(&t->n[i].label);
        free(t->n[i].globs);
        free(t->n[i].kids);
    }
    tt_wild_free(&t->wild);
    free(t->mt_off);
    free(t->n);
    free(t);
}

int tt_child(tt *t, int parent, uint8_t key, const void *label, size_t ll)
{
    int c = tt_add(t, parent, key);
    bb_raw(&t->n[c].label, label, ll);
    t->n[c].ll = (uint32_t)ll;
    return c;
}

int tt_child_ref(tt *t, int parent, uint8_t key, uint32_t rep, size_t ll)
{
    int c = tt_add(t, parent, key);
    t->n[c].ref = 1, t->n[c].rep = rep, t->n[c].ll = (uint32_t)ll;
    return c;
}

void tt_accept(tt *t, int node, uint32_t rank)
{
    t->n[node].accept = rank;
}

void tt_end(tt *t, int node, uint32_t rank)
{
    t->n[node].end = rank;
}

void tt_texts(tt *t, const char *const *mt, uint32_t n)
{
    t->mt = mt, t->nmt = n;
}

void tt_glob(tt *t, int node, uint32_t rank)
{
    ttn *x = &t->n[node];
    x->globs = xrealloc(x->globs, (x->nglobs + 1) * sizeof *x->globs);
    x->globs[x->nglobs++] = rank;
}

void tt_slot(tt *t, int node, uint32_t slot)
{
    t->n[node].forced = 1, t->n[node].fslot = slot;
}

void tt_width(tt *t, int node, unsigned w)
{
    t->n[node].width = w;
}

void tt_min_width(tt *t, unsigned w)
{
    t->minw = w;
}

size_t tt_count(const tt *t)
{
    return t->count;
}

void tt_strings(tt *t, const uint32_t *off, uint32_t n)
{
    t->mt_off = xrealloc(t->mt_off, (n + 1) * sizeof *t->mt_off);
    memcpy(t->mt_off, off, n * sizeof *off);
    t->n_off = n;
}

void tt_labels(tt *t, uint32_t max)
{
    t->labels = max;
}

void tt_leaf_kinds(tt *t, int mode)
{
    t->leaf_mode = mode;
}

void tt_leaf_kind(tt *t, int node, int mode)
{
    t->n[node].lmode = mode;
}

unsigned tt_cols(uint32_t shape, int k)
{
    static const unsigned cols[4] = {RSC_ROOTS_COLS, RSC_OUTS_COLS, RSC_STATES_COLS,
                                     RSC_EDGES_COLS};
    return k == TT_STATES && (shape & TT_SHAPE_LABELS) ? TT_STATES_COLS_LAB : cols[k];
}

void tt_wild_set(tt *t, const tt_wild *w)
{
    tt_wild_free(&t->wild);
    t->wild.shape = w->shape;
    for (int k = 0; k < 4; k++) {
        size_t bytes = w->n[k] * tt_cols(w->shape, k) * sizeof(uint32_t);
        t->wild.n[k] = w->n[k];
        t->wild.rows[k] = xrealloc(NULL, bytes);
        if (bytes)
            memcpy(t->wild.rows[k], w->rows[k], bytes);
    }
    t->wild_set = 1;
}

/* ---- the wildcard tables, by brute force ------------------------------ */

/* A growable array of uint32_t rows. */
typedef struct rows {
    uint32_t *v;
    size_t n, cols;
} rows;

static uint32_t *rows_add(rows *r)
{
    r->v = xrealloc(r->v, (r->n + 1) * r->cols * sizeof *r->v);
    memset(r->v + r->n * r->cols, 0, r->cols * sizeof *r->v);
    return r->v + r->n++ * r->cols;
}

/* A byte string (not owned); at: the offset of p[0] in STRINGS
 * (UINT32_MAX: unknown). */
typedef struct str {
    const uint8_t *p;
    size_t len;
    uint32_t at;
} str;

static int str_eq(str a, str b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.p, b.p, a.len) == 0);
}

/* An edge: parent (a slot, or slots + an internal node), segment, kind. */
typedef struct wedge {
    uint32_t parent, seg, rank, max;
    int anch;
    int target; /* internal node, or -1 */
} wedge;

typedef struct wb {
    str *seg; /* distinct segments */
    size_t nseg;
    wedge *e;
    size_t ne;
    uint32_t nslots, nint;
} wb;

static uint32_t wb_seg(wb *w, str s)
{
    for (size_t i = 0; i < w->nseg; i++)
        if (str_eq(w->seg[i], s))
            return (uint32_t)i;
    w->seg = xrealloc(w->seg, (w->nseg + 1) * sizeof *w->seg);
    w->seg[w->nseg] = s;
    return (uint32_t)w->nseg++;
}

static size_t wb_edge(wb *w, uint32_t parent, uint32_t seg, int anch)
{
    for (size_t i = 0; i < w->ne; i++)
        if (w->e[i].parent == parent && w->e[i].seg == seg && w->e[i].anch == anch)
            return i;
    w->e = xrealloc(w->e, (w->ne + 1) * sizeof *w->e);
    wedge *x = &w->e[w->ne];
    memset(x, 0, sizeof *x);
    x->parent = parent, x->seg = seg, x->anch = anch, x->target = -1;
    return w->ne++;
}

/* The best rank on edge i and below it. */
static uint32_t wb_max(const wb *w, size_t i)
{
    uint32_t m = w->e[i].rank;
    if (w->e[i].target >= 0)
        for (size_t j = 0; j < w->ne; j++)
            if (w->e[j].parent == w->nslots + (uint32_t)w->e[i].target) {
                uint32_t x = wb_max(w, j);
                if (x > m)
                    m = x;
            }
    return m;
}

/* A state of the automaton: a prefix of a segment. */
typedef struct wstate {
    str s;
    uint32_t first, n;
} wstate;

/* The state whose string is s, found by walking down from the root; -1
 * when s is no prefix of a segment. */
static long find_state(const wstate *st, size_t ns, str s)
{
    size_t u = 0;
    (void)ns;
    for (size_t k = 0; k < s.len; k++) {
        size_t v = st[u].first, e = v + st[u].n;
        while (v < e && st[v].s.p[k] != s.p[k])
            v++;
        if (v == e)
            return -1;
        u = v;
    }
    return (long)u;
}

static int is_prefix(str pre, str s)
{
    return pre.len <= s.len && (pre.len == 0 || memcmp(pre.p, s.p, pre.len) == 0);
}

/* The automaton with labels (FORMAT.md, Labels) from the full one: rows
 * full[ns * 5] of the states st[] (breadth first). A state other than the
 * root is implicit when it has one child, Fail the root, no output and no
 * Fail link to it (at most t->labels of them in a row); the explicit ones
 * are numbered again breadth first over the tree without the implicit
 * ones, each with the Key of the first state after its parent and a label
 * of the bytes after it, in STRINGS where its segment is. */
static rows label_states(const tt *t, const wstate *st, const uint32_t *full, size_t ns)
{
    enum { C = RSC_STATES_COLS };
    uint8_t *target = xrealloc(NULL, ns);
    uint32_t *order = xrealloc(NULL, ns * sizeof *order), *idx = xrealloc(NULL, ns * sizeof *idx);
    uint32_t *key = xrealloc(NULL, ns * sizeof *key), *lab = xrealloc(NULL, ns * sizeof *lab);
    uint32_t *first = xrealloc(NULL, ns * sizeof *first), *nk = xrealloc(NULL, ns * sizeof *nk);
    memset(target, 0, ns);
    for (size_t u = 1; u < ns; u++)
        target[full[u * C + 3]] = 1;
#define IMPLICIT(u) ((u) != 0 && full[(u) * C + 2] == 1 && full[(u) * C + 3] == 0 && \
                     full[(u) * C + 4] == 0 && !target[(u)])
    size_t no = 1;
    order[0] = 0, key[0] = 0, lab[0] = 0;
    for (size_t i = 0; i < no; i++) {
        uint32_t u = order[i];
        first[u] = (uint32_t)no, nk[u] = full[u * C + 2];
        for (uint32_t c = full[u * C + 1]; c < full[u * C + 1] + full[u * C + 2]; c++) {
            uint32_t v = c, len = 0;
            while (IMPLICIT(v) && len < t->labels)
                v = full[v * C + 1], len++;
            key[v] = full[c * C], lab[v] = len;
            order[no++] = v;
        }
        if (!nk[u])
            first[u] = 0;
    }
#undef IMPLICIT
    for (size_t i = 0; i < no; i++)
        idx[order[i]] = (uint32_t)i;
    rows out = {NULL, 0, TT_STATES_COLS_LAB};
    for (size_t i = 0; i < no; i++) {
        uint32_t v = order[i];
        uint32_t *x = rows_add(&out);
        str s = st[v].s;
        x[0] = key[v], x[1] = first[v]; /* already a new index */
        x[2] = nk[v], x[3] = idx[full[v * C + 3]], x[4] = full[v * C + 4];
        if (lab[v]) {
            if (s.at == UINT32_MAX) {
                fprintf(stderr, "rt_builder: labels without tt_strings()\n");
                abort();
            }
            x[5] = s.at + (uint32_t)(s.len - lab[v]), x[6] = lab[v];
        }
    }
    free(target), free(order), free(idx), free(key), free(lab), free(first), free(nk);
    return out;
}

void tt_wild_build(tt *t, tt_wild *out)
{
    wb w;
    memset(&w, 0, sizeof w);
    memset(out, 0, sizeof *out);
    /* depths, slots and their levels */
    rows roots = {NULL, 0, RSC_ROOTS_COLS};
    for (size_t i = 0; i < t->count; i++) {
        ttn *x = &t->n[i];
        x->depth = x->parent < 0 ? 0 : t->n[x->parent].depth + 1 + x->ll;
        x->has_slot = 0;
        if (x->nglobs) {
            uint32_t level = 0;
            for (int p = x->parent; p >= 0; p = t->n[p].parent)
                level += t->n[p].nglobs != 0;
            x->has_slot = 1, x->slot = w.nslots++;
            rows_add(&roots)[0] = level;
        }
    }
    /* edges, rule by rule */
    for (size_t i = 0; i < t->count; i++) {
        ttn *x = &t->n[i];
        for (size_t g = 0; g < x->nglobs; g++) {
            uint32_t rank = x->globs[g];
            if (rank < 1 || rank > t->nmt) {
                fprintf(stderr, "rt_builder: glob of rank %u without a match text\n", rank);
                abort();
            }
            const uint8_t *mt = (const uint8_t *)t->mt[rank - 1];
            size_t len = strlen((const char *)mt), d = x->depth;
            int anch = len && mt[len - 1] == '$';
            if (anch)
                len--;
            if (d >= len || mt[d] != '*') {
                fprintf(stderr, "rt_builder: rank %u's match text '%s' has no '*' at %zu\n",
                        rank, (const char *)mt, d);
                abort();
            }
            if (mt[len - 1] == '*') /* "...*S*$": the '$' is moot */
                anch = 0;
            str *segs = xrealloc(NULL, (len - d) * sizeof *segs);
            size_t k = 0;
            for (size_t j = d; j < len;) {
                while (j < len && mt[j] == '*')
                    j++;
                size_t a0 = j;
                while (j < len && mt[j] != '*')
                    j++;
                if (j > a0)
                    segs[k++] = (str){mt + a0, j - a0,
                                      rank <= t->n_off ? t->mt_off[rank - 1] + (uint32_t)a0
                                                : UINT32_MAX};
            }
            if (k == 0) {
                fprintf(stderr, "rt_builder: rank %u's tail has no segment (an Accept)\n", rank);
                abort();
            }
            uint32_t parent = x->slot;
            for (size_t j = 0; j < k; j++) {
                int last = j + 1 == k;
                size_t e = wb_edge(&w, parent, wb_seg(&w, segs[j]), last && anch);
                if (last) {
                    if (rank > w.e[e].rank)
                        w.e[e].rank = rank;
                } else {
                    if (w.e[e].target < 0)
                        w.e[e].target = (int)w.nint++;
                    parent = w.nslots + (uint32_t)w.e[e].target;
                }
            }
            free(segs);
        }
    }
    for (size_t i = 0; i < w.ne; i++)
        w.e[i].max = wb_max(&w, i);
    for (size_t i = 0; i < w.ne; i++)
        if (w.e[i].parent < w.nslots && w.e[i].max > roots.v[w.e[i].parent * 2 + 1])
            roots.v[w.e[i].parent * 2 + 1] = w.e[i].max;
    /* OUTS rows: segments by (length, bytes) */
    uint32_t *order = xrealloc(NULL, (w.nseg + 1) * sizeof *order);
    uint32_t *row_of = xrealloc(NULL, (w.nseg + 1) * sizeof *row_of);
    for (size_t i = 0; i < w.nseg; i++)
        order[i] = (uint32_t)i;
    for (size_t i = 1; i < w.nseg; i++) /* insertion sort */
        for (size_t j = i; j > 0; j--) {
            str a = w.seg[order[j - 1]], b = w.seg[order[j]];
            int gt = a.len != b.len ? a.len > b.len : memcmp(a.p, b.p, a.len) > 0;
            if (!gt)
                break;
            uint32_t tmp = order[j - 1];
            order[j - 1] = order[j], order[j] = tmp;
        }
    for (size_t r = 0; r < w.nseg; r++)
        row_of[order[r]] = (uint32_t)r;
    rows outs = {NULL, 0, RSC_OUTS_COLS}, edges = {NULL, 0, RSC_EDGES_COLS};
    for (size_t r = 0; r < w.nseg; r++) {
        str s = w.seg[order[r]];
        uint32_t *o = rows_add(&outs);
        o[0] = (uint32_t)s.len;
        size_t best = 0;
        for (size_t q = 0; q < w.nseg; q++) { /* the longest proper suffix */
            str x = w.seg[q];
            if (x.len < s.len && x.len > best && memcmp(x.p, s.p + s.len - x.len, x.len) == 0)
                best = x.len, o[1] = row_of[q] + 1;
        }
        o[3] = (uint32_t)edges.n;
        for (int anch = 0; anch < 2; anch++) {
            for (uint32_t par = 0; par < w.nslots + w.nint; par++) /* by Parent */
                for (size_t i = 0; i < w.ne; i++) {
                    const wedge *e = &w.e[i];
                    if (e->seg != order[r] || e->anch != anch || e->parent != par)
                        continue;
                    uint32_t *x = rows_add(&edges);
                    x[0] = e->parent, x[1] = e->rank;
                    x[2] = e->target < 0 ? 0 : (uint32_t)e->target + 1, x[3] = e->max;
                    o[4 + anch]++;
                    if (e->max > o[2])
                        o[2] = e->max;
                }
        }
        /* Max covers the rows reached through Next (earlier rows: done) */
        uint32_t *o0 = outs.v + r * RSC_OUTS_COLS;
        if (o0[1] && outs.v[(o0[1] - 1) * RSC_OUTS_COLS + 2] > o0[2])
            o0[2] = outs.v[(o0[1] - 1) * RSC_OUTS_COLS + 2];
    }
    /* STATES: every prefix of a segment, breadth first, children by key */
    wstate *st = xrealloc(NULL, sizeof *st);
    size_t ns = 1;
    memset(st, 0, sizeof *st);
    st[0].s = (str){(const uint8_t *)"", 0, 0};
    for (size_t u = 0; w.ne && u < ns; u++) {
        str s = st[u].s;
        st[u].first = (uint32_t)ns;
        for (unsigned c = 0; c < 256; c++)
            for (size_t q = 0; q < w.nseg; q++) {
                str x = w.seg[q];
                if (x.len > s.len && x.p[s.len] == c && is_prefix(s, x)) {
                    st = xrealloc(st, (ns + 1) * sizeof *st);
                    st[ns].s = (str){x.p, s.len + 1, x.at}, st[ns].first = st[ns].n = 0;
                    ns++, st[u].n++;
                    break;
                }
            }
        if (!st[u].n)
            st[u].first = 0;
    }
    rows states = {NULL, 0, RSC_STATES_COLS};
    for (size_t u = 0; w.ne && u < ns; u++) {
        str s = st[u].s;
        uint32_t *x = rows_add(&states);
        x[0] = s.len ? s.p[s.len - 1] : 0, x[1] = st[u].first, x[2] = st[u].n;
        for (size_t k = 1; k <= s.len; k++) { /* the longest proper suffix that is a state */
            long f = find_state(st, ns, (str){s.p + k, s.len - k, 0});
            if (f >= 0) {
                x[3] = (uint32_t)f;
                break;
            }
        }
        for (size_t k = 0; k < s.len && !x[4]; k++) /* the longest segment that is a suffix */
            for (size_t q = 0; q < w.nseg; q++)
                if (str_eq(w.seg[q], (str){s.p + k, s.len - k, 0})) {
                    x[4] = row_of[q] + 1;
                    break;
                }
    }
    out->shape = TT_SHAPE(w.nint, 0, 0);
    if (t->labels && states.n) {
        rows lab = label_states(t, st, states.v, states.n);
        free(states.v);
        states = lab;
        out->shape |= TT_SHAPE_LABELS;
    }
    out->n[TT_ROOTS] = roots.n, out->rows[TT_ROOTS] = roots.v;
    out->n[TT_OUTS] = outs.n, out->rows[TT_OUTS] = outs.v;
    out->n[TT_STATES] = states.n, out->rows[TT_STATES] = states.v;
    out->n[TT_EDGES] = edges.n, out->rows[TT_EDGES] = edges.v;
    free(order), free(row_of), free(st), free(w.seg), free(w.e);
}

/* ---- encoding ------------------------------------------------------------ */

static uint32_t tt_head(const ttn *x)
{
    return (uint32_t)x->nk << RSC_N_CHILD_SHIFT | (x->w - 1) << RSC_N_WIDTH_SHIFT |
           (x->has_slot ? RSC_N_ROOT : 0) | (x->end ? RSC_N_END : 0) |
           (x->accept ? RSC_N_ACCEPT : 0);
}

/* A leaf of one rank: its rank (Accept or End), the Rep. */
static uint32_t tt_leaf_rank(const ttn *x)
{
    return x->kind == RSC_LEAF_ACCEPT ? x->accept : x->end;
}

static uint32_t tt_label_head(const ttn *x)
{
    return x->ll << RSC_LABEL_SHIFT | x->kind;
}

/* The bytes of node x's label, or NULL when unknown (a Ref whose rule has
 * no text given, or whose text is too short). d: where the label starts. */
static const uint8_t *tt_label_bytes(const tt *t, const ttn *x, size_t d)
{
    if (!x->ref)
        return x->label.d ? x->label.d : (const uint8_t *)"";
    if (x->rep < 1 || x->rep > t->nmt || strlen(t->mt[x->rep - 1]) < d + x->ll)
        return NULL;
    return (const uint8_t *)t->mt[x->rep - 1] + d;
}

/* The Label_Head kind of node i (FORMAT.md as amended by 4.0: a leaf of
 * one rank when tt_leaf_kinds()/tt_leaf_kind() say so); depths known. */
static unsigned tt_kind_of(const tt *t, size_t i, const size_t *depth)
{
    const ttn *x = &t->n[i];
    int mode = x->lmode >= 0 ? x->lmode : t->leaf_mode;
    int eligible = x->parent >= 0 && !x->nk && !x->has_slot && (!x->accept != !x->end);
    unsigned leaf = x->accept ? RSC_LEAF_ACCEPT : RSC_LEAF_END;
    unsigned plain = x->ref ? RSC_LABEL_REF : RSC_LABEL_INLINE;
    if (mode == TT_LEAF_ALWAYS && x->lmode == TT_LEAF_ALWAYS && !eligible) {
        fprintf(stderr, "rt_builder: tt_leaf_kind(ALWAYS) on node %zu, not a leaf of one rank\n",
                i);
        abort();
    }
    if (!eligible || mode == TT_LEAF_NEVER)
        return plain;
    if (mode == TT_LEAF_ALWAYS)
        return leaf;
    /* TT_LEAF_AUTO: when the rank's text holds the label */
    uint32_t rank = x->accept | x->end;
    size_t d = depth[i] - x->ll;
    const uint8_t *lab = tt_label_bytes(t, x, d);
    if (!lab || rank > t->nmt || strlen(t->mt[rank - 1]) < d + x->ll ||
        (x->ll && memcmp(t->mt[rank - 1] + d, lab, x->ll) != 0))
        return plain;
    return leaf;
}

/* Label_Head .. Keys. */
static size_t tt_fixed(const ttn *x)
{
    if (x->kind >= RSC_LEAF_ACCEPT)
        return varint_len(tt_label_head(x)) + varint_len(tt_leaf_rank(x));
    size_t n = varint_len(tt_label_head(x)) + (x->ref ? varint_len(x->rep) : x->ll) +
               varint_len(tt_head(x)) + x->nk;
    if (x->accept)
        n += varint_len(x->accept);
    if (x->end)
        n += varint_len(x->end);
    if (x->has_slot)
        n += varint_len(x->slot);
    return n;
}

/* A Table with each column at least minw wide. */
static void wild_table(bb *out, size_t count, unsigned cols, const uint32_t *vals,
                       unsigned minw)
{
    uint8_t w[8];
    for (unsigned c = 0; c < cols; c++) {
        uint32_t max = 0;
        for (size_t r = 0; r < count; r++)
            if (vals[r * cols + c] > max)
                max = vals[r * cols + c];
        w[c] = (uint8_t)tb_width(max);
        if (w[c] < minw)
            w[c] = (uint8_t)minw;
    }
    tb_table(out, count, cols, vals, w);
}

void tt_encode(tt *t, bb *out)
{
    tt_wild built;
    const tt_wild *wild = &t->wild;
    if (t->wild_set) {
        for (size_t i = 0; i < t->count; i++)
            t->n[i].has_slot = 0;
    } else {
        tt_wild_build(t, &built);
        wild = &built;
    }
    for (size_t i = 0; i < t->count; i++)
        if (t->n[i].forced)
            t->n[i].has_slot = 1, t->n[i].slot = t->n[i].fslot;
    /* Depths (a parent's index is below its child's), then the kinds. */
    size_t *depth = xrealloc(NULL, t->count * sizeof *depth);
    for (size_t i = 0; i < t->count; i++) {
        ttn *x = &t->n[i];
        depth[i] = x->parent < 0 ? 0 : depth[x->parent] + 1 + x->ll;
    }
    for (size_t i = 0; i < t->count; i++)
        t->n[i].kind = tt_kind_of(t, i, depth);
    free(depth);
    /* Sizes bottom-up: a child's index is above its parent's. Child 0
     * starts at C; child k >= 1 at C + Offsets[k - 1]. */
    for (size_t i = t->count; i-- > 0;) {
        ttn *x = &t->n[i];
        size_t last_off = 0, kids = 0;
        for (size_t k = 0; k < x->nk; k++) {
            if (k + 1 == x->nk)
                last_off = kids;
            kids += t->n[x->kids[k]].size;
        }
        unsigned fw = x->width & ~TT_WIDTH_ANY; /* forced */
        if (x->nk <= 1 && !(x->width & TT_WIDTH_ANY))
            fw = 0; /* no Offsets: Width 0 */
        x->w = fw ? fw : tb_width((uint32_t)last_off);
        if (!fw && x->nk > 1 && x->w < t->minw)
            x->w = t->minw;
        x->size = tt_fixed(x) + (x->nk ? x->nk - 1 : 0) * x->w + kids;
    }
    size_t prog = out->n;
    bb_varint(out, (uint32_t)t->n[0].size);
    size_t base = out->n;
    t->wpos.trie = base - prog;
    bb_raw(out, NULL, t->n[0].size);
    /* Positions top-down, then the bytes. */
    t->n[0].pos.start = base - prog;
    t->n[0].pos.span_end = base - prog + t->n[0].size;
    for (size_t i = 0; i < t->count; i++) {
        ttn *x = &t->n[i];
        tt_pos *q = &x->pos;
        uint8_t *d = out->d + prog;
        size_t p = q->start;
        uint8_t v[8];
        bb tmp = {0};
        q->label = q->rep = q->head = q->accept = q->end = q->slot = SIZE_MAX;
        q->kind = x->kind;
#define PUTV(val)                                                             \
    do {                                                                      \
        tmp.n = 0;                                                            \
        bb_varint(&tmp, (val));                                               \
        memcpy(d + p, tmp.d, tmp.n);                                          \
        p += tmp.n;                                                           \
    } while (0)
        PUTV(tt_label_head(x));
        if (x->kind >= RSC_LEAF_ACCEPT) { /* varint Rep, and nothing else */
            q->rep = p;
            if (x->kind == RSC_LEAF_ACCEPT)
                q->accept = p;
            else
                q->end = p;
            PUTV(tt_leaf_rank(x));
            q->keys = q->offsets = q->c = p;
            bb_free(&tmp);
            continue;
        }
        if (x->ref) {
            q->rep = p;
            PUTV(x->rep);
        } else {
            q->label = p;
            if (x->ll)
                memcpy(d + p, x->label.d, x->ll);
            p += x->ll;
        }
        q->head = p;
        PUTV(tt_head(x));
        if (x->accept) {
            q->accept = p;
            PUTV(x->accept);
        }
        if (x->end) {
            q->end = p;
            PUTV(x->end);
        }
        if (x->has_slot) {
            q->slot = p;
            PUTV(x->slot);
        }
#undef PUTV
        bb_free(&tmp);
        q->keys = p;
        for (size_t k = 0; k < x->nk; k++)
            d[p++] = t->n[x->kids[k]].key;
        q->offsets = p;
        q->c = p + (x->nk ? x->nk - 1 : 0) * x->w;
        size_t off = 0;
        for (size_t k = 0; k < x->nk; k++) {
            ttn *c = &t->n[x->kids[k]];
            if (k) { /* no Offset for child 0 */
                wrnle(v, (uint32_t)off, x->w);
                memcpy(d + p, v, x->w);
                p += x->w;
            }
            c->pos.start = q->c + off;
            c->pos.span_end = q->c + off + c->size;
            off += c->size;
        }
    }
    t->wpos.shape = out->n - prog;
    bb_varint(out, wild->shape);
    for (int k = 0; k < 4; k++) {
        t->wpos.tab[k] = out->n - prog;
        wild_table(out, wild->n[k], tt_cols(wild->shape, k), wild->rows[k], t->minw);
    }
    t->wpos.pad = out->n - prog;
    if (wild->n[TT_ROOTS]) /* Pad: zeros after the tables of a program with slots */
        bb_raw(out, NULL, RSC_PAD);
    t->wpos.end = out->n - prog;
    if (!t->wild_set)
        tt_wild_free(&built);
}

tt_pos tt_where(const tt *t, int node)
{
    return t->n[node].pos;
}

tt_wpos tt_wild_where(const tt *t)
{
    return t->wpos;
}

/* ---- whole blobs from rules ------------------------------------------- */

/* An uncompressed trie: one node per byte; children in key order. */
typedef struct un {
    uint8_t key;
    int first, next;
    size_t nk, depth;
    uint32_t accept, end, rep; /* rep: a rule whose literal prefix passes here */
    uint32_t *g;
    size_t ng;
} un;
typedef struct unt {
    un *n;
    size_t count, cap;
} unt;

static int un_add(unt *u, uint8_t key)
{
    if (u->count == u->cap) {
        u->cap = u->cap * 2 + 16;
        u->n = xrealloc(u->n, u->cap * sizeof *u->n);
    }
    un *x = &u->n[u->count];
    memset(x, 0, sizeof *x);
    x->key = key, x->first = x->next = -1;
    return (int)u->count++;
}

static int un_step(unt *u, int at, uint8_t c)
{
    int *link = &u->n[at].first;
    while (*link >= 0 && u->n[*link].key < c)
        link = &u->n[*link].next;
    if (*link >= 0 && u->n[*link].key == c)
        return *link;
    int k = un_add(u, c); /* may move u->n: re-find the link */
    link = &u->n[at].first;
    while (*link >= 0 && u->n[*link].key < c)
        link = &u->n[*link].next;
    u->n[k].next = *link;
    u->n[k].depth = u->n[at].depth + 1;
    *link = k;
    u->n[at].nk++;
    return k;
}

/* Places one match text (FORMAT.md, Nodes): its literal prefix up to the
 * first '*' names the node; then Accept, End or a glob entry. */
static void un_insert(unt *u, const char *mt, uint32_t rank)
{
    size_t len = strlen(mt);
    int anch = len && mt[len - 1] == '$';
    if (anch)
        len--;
    const char *star = memchr(mt, '*', len);
    size_t s0 = star ? (size_t)(star - mt) : len;
    int at = 0;
    for (size_t i = 0; i < s0; i++) {
        at = un_step(u, at, (uint8_t)mt[i]);
        u->n[at].rep = rank;
    }
    un *x = &u->n[at];
    size_t k = s0;
    while (k < len && mt[k] == '*')
        k++;
    if (!star && anch) {
        if (rank > x->end)
            x->end = rank;
    } else if (k == len) {
        if (rank > x->accept)
            x->accept = rank;
    } else {
        x->g = xrealloc(x->g, (x->ng + 1) * sizeof *x->g);
        x->g[x->ng++] = rank;
    }
}

static int cmp_rank_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x > y ? -1 : x < y;
}

static void un_entries(tt *t, int node, un *x)
{
    if (x->accept)
        tt_accept(t, node, x->accept);
    if (x->end)
        tt_end(t, node, x->end);
    if (x->ng)
        qsort(x->g, x->ng, sizeof *x->g, cmp_rank_desc);
    for (size_t i = 0; i < x->ng; i++)
        tt_glob(t, node, x->g[i]);
}

/* The program of rules (ranks given, match texts mt[]), as a trie:
 * compressed (a node only where a pattern ends or two part) unless
 * uncompressed is set; labels inline, or as Refs when p->refs. */
static void program_trie(bb *out, const tp_prog *p, const tp_program *pg,
                         const uint32_t *rank_of, char *const *mt, const uint32_t *mt_off)
{
    unt u = {0};
    un_add(&u, 0);
    for (size_t i = 0; i < pg->n; i++)
        un_insert(&u, mt[pg->rules[i]], rank_of[pg->rules[i]]);
    tt *t = tt_new();
    const char *by_rank[48];
    uint32_t off_by_rank[48];
    for (size_t i = 0; i < p->n_rules; i++)
        by_rank[rank_of[i] - 1] = mt[i], off_by_rank[rank_of[i] - 1] = mt_off[i];
    tt_texts(t, by_rank, (uint32_t)p->n_rules);
    tt_strings(t, off_by_rank, (uint32_t)p->n_rules);
    tt_labels(t, p->labels);
    tt_leaf_kinds(t, p->no_leaves ? TT_LEAF_NEVER : TT_LEAF_AUTO);
    un_entries(t, 0, &u.n[0]);
    /* Depth first with an explicit stack of (uncompressed, trie) nodes. */
    int *stack = xrealloc(NULL, 2 * (u.count + 1) * sizeof *stack);
    size_t sp = 0;
    stack[sp++] = 0, stack[sp++] = 0;
    bb label = {0};
    while (sp) {
        int tn = stack[--sp], un_at = stack[--sp];
        for (int c = u.n[un_at].first; c >= 0; c = u.n[c].next) {
            int v = c;
            label.n = 0;
            while (!p->uncompressed && u.n[v].nk == 1 && !u.n[v].accept && !u.n[v].end &&
                   !u.n[v].ng) {
                v = u.n[v].first;
                bb_u8(&label, u.n[v].key);
            }
            int k = p->refs && label.n ? tt_child_ref(t, tn, u.n[c].key, u.n[v].rep, label.n)
                                       : tt_child(t, tn, u.n[c].key, label.d, label.n);
            un_entries(t, k, &u.n[v]);
            stack[sp++] = v, stack[sp++] = k;
        }
    }
    tt_min_width(t, p->width);
    tt_encode(t, out);
    tt_free(t);
    bb_free(&label);
    free(stack);
    for (size_t i = 0; i < u.count; i++)
        free(u.n[i].g);
    free(u.n);
}

static size_t normalise(const uint8_t *s, size_t n, uint8_t *out, int path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        int hi = -1, lo = -1;
        if (c == '%' && i + 2 < n) {
            uint8_t a = s[i + 1], b = s[i + 2];
            hi = a >= '0' && a <= '9' ? a - '0' : (a | 32) >= 'a' && (a | 32) <= 'f' ? (a | 32) - 'a' + 10 : -1;
            lo = b >= '0' && b <= '9' ? b - '0' : (b | 32) >= 'a' && (b | 32) <= 'f' ? (b | 32) - 'a' + 10 : -1;
        }
        if (hi >= 0 && lo >= 0) {
            int v = hi * 16 + lo;
            if ((v >= 'a' && v <= 'z') || (v >= 'A' && v <= 'Z') || (v >= '0' && v <= '9') ||
                v == '-' || v == '.' || v == '_' || v == '~') {
                out[k++] = (uint8_t)v;
            } else {
                out[k++] = '%', out[k++] = (uint8_t)hex[hi], out[k++] = (uint8_t)hex[lo];
            }
            i += 2;
        } else if (c >= 0x80 || (c == '*' && path) || (c == '$' && (path || i + 1 < n)) || c == '%') {
            /* (a '%' without two hex digits is the octet '%': %25) */
            out[k++] = '%', out[k++] = (uint8_t)hex[c >> 4], out[k++] = (uint8_t)hex[c & 15];
        } else {
            out[k++] = c;
        }
    }
    return k;
}

/* FORMAT.md, Matching (rfc): a pattern's match text ('*' and a final '$'
 * kept, any other '$' as %24), and a path ('*' and '$' as %2A, %24). */
size_t tp_normalise(const uint8_t *s, size_t n, uint8_t *out)
{
    return normalise(s, n, out, 0);
}

size_t tp_normalise_path(const uint8_t *s, size_t n, uint8_t *out)
{
    return normalise(s, n, out, 1);
}

typedef struct pool {
    bb bytes;
    const char *s[256];
    uint32_t off[256];
    size_t n;
} pool;

/* Offset of s in STRINGS; identical strings are stored once. */
static uint32_t pool_add(pool *sp, const char *s)
{
    for (size_t i = 0; i < sp->n; i++)
        if (strcmp(sp->s[i], s) == 0)
            return sp->off[i];
    uint32_t off = (uint32_t)sp->bytes.n;
    bb_str(&sp->bytes, s);
    if (sp->n < 256)
        sp->s[sp->n] = s, sp->off[sp->n++] = off;
    return off;
}

static const tp_prog *sort_prog;

static int rule_cmp(const void *pa, const void *pb)
{
    const tp_rule *a = &sort_prog->rules[*(const int *)pa];
    const tp_rule *b = &sort_prog->rules[*(const int *)pb];
    size_t la = strlen(a->pat), lb = strlen(b->pat);
    if (sort_prog->rfc) { /* the priority: the match text's length */
        uint8_t t[3 * 64];
        la = la <= 64 ? tp_normalise((const uint8_t *)a->pat, la, t) : la;
        lb = lb <= 64 ? tp_normalise((const uint8_t *)b->pat, lb, t) : lb;
    }
    if (la != lb)
        return la < lb ? -1 : 1;
    if ((a->allow != 0) != (b->allow != 0))
        return a->allow ? 1 : -1;
    return a->line > b->line ? -1 : a->line < b->line;
}

static int agent_cmp(const void *pa, const void *pb)
{
    return strcmp(sort_prog->agents[*(const int *)pa].tok,
                  sort_prog->agents[*(const int *)pb].tok);
}

/* A Table whose widths are the smallest, or p->width when that is wider. */
static void table(bb *out, const tp_prog *p, size_t count, unsigned cols, const uint32_t *vals)
{
    uint8_t w[8];
    for (unsigned c = 0; c < cols; c++) {
        uint32_t max = 0;
        for (size_t r = 0; r < count; r++)
            if (vals[r * cols + c] > max)
                max = vals[r * cols + c];
        w[c] = (uint8_t)tb_width(max);
        if (w[c] < p->width)
            w[c] = (uint8_t)p->width;
    }
    tb_table(out, count, cols, vals, w);
}

uint8_t *tp_build(const tp_prog *p, size_t *size, uint32_t *rank_out)
{
    pool sp;
    memset(&sp, 0, sizeof sp);
    bb rules = {0}, progs = {0}, sets = {0}, agents = {0}, groups = {0}, sm = {0}, dirs = {0};
    int order[48], aorder[40];
    uint32_t rank_of[48], v[512], mt_off[48];
    char *mt[48];
    sort_prog = p;

    /* Match texts: the pattern, or (rfc) the pattern normalised. */
    for (size_t i = 0; i < p->n_rules; i++) {
        size_t pl = strlen(p->rules[i].pat);
        mt[i] = xrealloc(NULL, 3 * pl + 1);
        pl = p->rfc ? tp_normalise((const uint8_t *)p->rules[i].pat, pl, (uint8_t *)mt[i])
                    : (memcpy(mt[i], p->rules[i].pat, pl), pl);
        mt[i][pl] = 0;
    }

    /* RULES, worst first. */
    unsigned cols = p->rfc ? RSC_RULES_COLS_RFC : RSC_RULES_COLS;
    for (size_t i = 0; i < p->n_rules; i++)
        order[i] = (int)i;
    qsort(order, p->n_rules, sizeof order[0], rule_cmp);
    for (size_t k = 0; k < p->n_rules; k++) {
        const tp_rule *r = &p->rules[order[k]];
        uint32_t *row = v + cols * k;
        rank_of[order[k]] = (uint32_t)k + 1;
        row[0] = r->line << 1 | (r->allow != 0);
        row[1] = pool_add(&sp, r->pat);
        row[2] = (uint32_t)strlen(r->pat);
        mt_off[order[k]] = row[1]; /* the match text (labels point into it) */
        if (p->rfc) {
            row[3] = pool_add(&sp, mt[order[k]]);
            row[4] = (uint32_t)strlen(mt[order[k]]);
            mt_off[order[k]] = row[3];
        }
    }
    if (p->n_rules)
        table(&rules, p, p->n_rules, cols, v);
    if (rank_out)
        memcpy(rank_out, rank_of, p->n_rules * sizeof *rank_of);

    /* PROGRAMS: the Ends, then Data. */
    if (p->n_progs) {
        bb data = {0};
        for (size_t i = 0; i < p->n_progs; i++) {
            program_trie(&data, p, &p->progs[i], rank_of, mt, mt_off);
            v[i] = (uint32_t)data.n;
        }
        table(&progs, p, p->n_progs, RSC_PROGRAMS_COLS, v);
        bb_raw(&progs, data.d, data.n);
        bb_free(&data);
    }

    /* SETS: (First, N), then the list of programs; left out when set i
     * is program i (FORMAT.md). */
    int ident = p->n_sets == p->n_progs;
    for (size_t i = 0; ident && i < p->n_sets; i++)
        ident = p->sets[i].n == 1 && p->sets[i].progs[0] == (int)i;
    if (p->n_sets && (!ident || p->keep_sets)) {
        uint32_t list[512];
        size_t nl = 0;
        for (size_t i = 0; i < p->n_sets; i++) {
            v[2 * i] = (uint32_t)nl, v[2 * i + 1] = (uint32_t)p->sets[i].n;
            for (size_t j = 0; j < p->sets[i].n; j++)
                list[nl++] = (uint32_t)p->sets[i].progs[j];
        }
        table(&sets, p, p->n_sets, RSC_SETS_COLS, v);
        table(&sets, p, nl, RSC_SETLIST_COLS, list);
    }

    /* AGENTS: Global, then the tokens in byte order. */
    for (size_t i = 0; i < p->n_agents; i++)
        aorder[i] = (int)i;
    qsort(aorder, p->n_agents, sizeof aorder[0], agent_cmp);
    if (p->n_agents || p->global >= 0) {
        bb_varint(&agents, p->global < 0 ? 0 : (uint32_t)p->global + 1);
        for (size_t i = 0; i < p->n_agents; i++) {
            const tp_agent *a = &p->agents[aorder[i]];
            v[3 * i] = pool_add(&sp, a->tok);
            v[3 * i + 1] = (uint32_t)strlen(a->tok);
            v[3 * i + 2] = (uint32_t)a->set;
        }
        table(&agents, p, p->n_agents, RSC_AGENTS_COLS, v);
    }

    /* GROUPS: (Line, First), then the agents: 0 for '*', else 1 + the
     * AGENTS row of the token. */
    if (p->n_groups) {
        uint32_t list[64];
        size_t nl = 0;
        for (size_t i = 0; i < p->n_groups; i++) {
            v[2 * i] = p->groups[i].line, v[2 * i + 1] = (uint32_t)nl;
            for (size_t j = 0; j < 4 && p->groups[i].toks[j]; j++) {
                const char *tok = p->groups[i].toks[j];
                size_t row = 0;
                if (strcmp(tok, "*") != 0) {
                    while (row < p->n_agents && strcmp(p->agents[aorder[row]].tok, tok) != 0)
                        row++;
                    if (row == p->n_agents) {
                        fprintf(stderr, "rt_builder: group token '%s' is no agent\n", tok);
                        abort();
                    }
                    row++;
                }
                list[nl++] = (uint32_t)row;
            }
        }
        table(&groups, p, p->n_groups, RSC_GROUPS_COLS, v);
        table(&groups, p, nl, RSC_GROUPLIST_COLS, list);
    }

    if (p->n_sitemaps) {
        for (size_t i = 0; i < p->n_sitemaps; i++) {
            v[3 * i] = p->sitemaps[i].line;
            v[3 * i + 1] = pool_add(&sp, p->sitemaps[i].url);
            v[3 * i + 2] = (uint32_t)strlen(p->sitemaps[i].url);
        }
        table(&sm, p, p->n_sitemaps, RSC_SITEMAPS_COLS, v);
    }

    if (p->n_dirs) {
        for (size_t i = 0; i < p->n_dirs; i++) {
            const tp_dir *d = &p->dirs[i];
            uint32_t *r = v + 6 * i;
            r[0] = d->line, r[1] = d->group < 0 ? 0 : (uint32_t)d->group + 1;
            r[2] = pool_add(&sp, d->key), r[3] = (uint32_t)strlen(d->key);
            r[4] = pool_add(&sp, d->val), r[5] = (uint32_t)strlen(d->val);
        }
        table(&dirs, p, p->n_dirs, RSC_DIRECTIVES_COLS, v);
    }

    /* keep_empty: each empty section with its empty contents (Tables of
     * Count 0; AGENTS with Global 0), but STRINGS (no empty form) and a
     * SETS left out because set i is program i (its absence is a meaning) */
    if (p->keep_empty) {
        if (!rules.n)
            bb_u8(&rules, 0);
        if (!progs.n)
            bb_u8(&progs, 0);
        if (!sets.n && !p->n_sets && !p->n_progs)
            bb_u8(&sets, 0), bb_u8(&sets, 0);
        if (!agents.n)
            bb_u8(&agents, 0), bb_u8(&agents, 0);
        if (!groups.n)
            bb_u8(&groups, 0), bb_u8(&groups, 0);
        if (!sm.n)
            bb_u8(&sm, 0);
        if (!dirs.n)
            bb_u8(&dirs, 0);
    }
    const bb *all[8] = {&sp.bytes, &rules, &progs, &sets, &agents, &groups, &sm, &dirs};
    tb_sec s[8];
    size_t n = 0;
    for (uint32_t id = 1; id <= 8; id++)
        if (all[id - 1]->n)
            s[n++] = (tb_sec)TB_SEC(id, all[id - 1]);
    uint8_t *blob = tb_blob(p->rfc ? RSC_FLAG_PROFILE_RFC : 0, s, n, size);
    for (int i = 0; i < 8; i++)
        bb_free((bb *)all[i]);
    for (size_t i = 0; i < p->n_rules; i++)
        free(mt[i]);
    return blob;
}

void tp_one(tp_prog *p, size_t n, const tp_rule *rules)
{
    memset(p, 0, sizeof *p);
    p->n_rules = n;
    memcpy(p->rules, rules, n * sizeof *rules);
    p->n_progs = 1;
    p->progs[0].n = n;
    for (size_t i = 0; i < n; i++)
        p->progs[0].rules[i] = (int)i;
    p->n_sets = 1;
    p->sets[0].n = 1;
    p->sets[0].progs[0] = 0;
    p->global = 0;
}

void tb_hexdump(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i += 16) {
        printf("%04zx:", i);
        for (size_t j = i; j < i + 16 && j < n; j++)
            printf(" %02x", b[j]);
        printf("\n");
    }
}
