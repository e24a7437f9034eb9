/* SPDX-License-Identifier: Apache-2.0 */
/* Bytecode emission (docs/FORMAT.md): buffers, varints and Tables, the
 * string pool, and blob assembly (header, section sequence, checksum). The
 * programs themselves are encoded by trie.c. */
#include <string.h>

#include "backend.h"
#include "codec.h"
#include "format.h"

/* ---- buffers ---------------------------------------------------------- */

int rsc_buf_put(rsc_mem *m, rsc_buf *b, const void *src, size_t n)
{
    if (n == 0)
        return 0;
    if (n > SIZE_MAX - b->len) {
        m->failed = 1;
        return -1;
    }
    if (rsc_mem_grow(m, (void **)&b->p, 1, &b->cap, b->len + n) != 0)
        return -1;
    if (src)
        memcpy(b->p + b->len, src, n);
    else
        memset(b->p + b->len, 0, n);
    b->len += n;
    return 0;
}

void rsc_put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

int rsc_buf_u32(rsc_mem *m, rsc_buf *b, uint32_t v)
{
    uint8_t w[4];
    rsc_put_u32(w, v);
    return rsc_buf_put(m, b, w, 4);
}

void rsc_buf_free(rsc_mem *m, rsc_buf *b)
{
    rsc_mem_free(m, b->p, b->cap);
    b->p = NULL;
    b->len = b->cap = 0;
}

/* ---- string pool ------------------------------------------------------ */

/* Eight bytes a step (the pool's strings are its rules' match texts, tens
 * of bytes each): a slot order only, never in the blob, which holds the
 * strings in the order they were added. */
static uint32_t hash_bytes(const uint8_t *s, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;
    for (; n >= 8; s += 8, n -= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 29;
    }
    w = 0;
    if (n)
        memcpy(&w, s, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
    return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

static int strpool_rehash(rsc_mem *m, rsc_strpool *sp, size_t n_slots)
{
    uint32_t *slots = rsc_mem_calloc(m, n_slots, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t e = 0; e < sp->n; e++) {
        size_t i = hash_bytes(sp->bytes.p + sp->off[e], sp->len[e]) & (n_slots - 1);
        while (slots[i])
            i = (i + 1) & (n_slots - 1);
        slots[i] = (uint32_t)e + 1;
    }
    rsc_mem_free(m, sp->slots, sp->n_slots * sizeof *sp->slots);
    sp->slots = slots;
    sp->n_slots = n_slots;
    return 0;
}

rsc_status rsc_strpool_add(rsc_mem *m, rsc_strpool *sp, const void *s, size_t n,
                           uint32_t *off)
{
    const uint8_t *b = s;
    if ((sp->n + 1) * 2 > sp->n_slots &&
        strpool_rehash(m, sp, sp->n_slots ? sp->n_slots * 2 : 64) != 0)
        return RSC_E_NOMEM;
    size_t i = hash_bytes(b, n) & (sp->n_slots - 1);
    for (; sp->slots[i]; i = (i + 1) & (sp->n_slots - 1)) {
        size_t e = sp->slots[i] - 1;
        if (sp->len[e] == n && (n == 0 || memcmp(sp->bytes.p + sp->off[e], b, n) == 0)) {
            *off = sp->off[e];
            return RSC_OK;
        }
    }
    if (sp->bytes.len + n > UINT32_MAX || sp->n >= UINT32_MAX - 1)
        return RSC_E_LIMIT;
    if (rsc_mem_grow(m, (void **)&sp->off, sizeof *sp->off, &sp->cap_off, sp->n + 1) != 0 ||
        rsc_mem_grow(m, (void **)&sp->len, sizeof *sp->len, &sp->cap_len, sp->n + 1) != 0)
        return RSC_E_NOMEM;
    *off = (uint32_t)sp->bytes.len;
    if (rsc_buf_put(m, &sp->bytes, b, n) != 0)
        return RSC_E_NOMEM;
    sp->off[sp->n] = *off;
    sp->len[sp->n] = (uint32_t)n;
    sp->slots[i] = (uint32_t)sp->n + 1;
    sp->n++;
    return RSC_OK;
}

void rsc_strpool_free(rsc_mem *m, rsc_strpool *sp)
{
    rsc_buf_free(m, &sp->bytes);
    rsc_mem_free(m, sp->slots, sp->n_slots * sizeof *sp->slots);
    rsc_mem_free(m, sp->off, sp->cap_off * sizeof *sp->off);
    rsc_mem_free(m, sp->len, sp->cap_len * sizeof *sp->len);
    memset(sp, 0, sizeof *sp);
}

/* ---- varints and Tables ------------------------------------------------ */

size_t rsc_varint_size(uint32_t v)
{
    size_t n = 1;
    while (v >= 0x80)
        v >>= 7, n++;
    return n;
}

size_t rsc_put_varint(uint8_t *p, uint32_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

int rsc_buf_varint(rsc_mem *m, rsc_buf *b, uint32_t v)
{
    uint8_t w[RSC_VARINT_MAX];
    return rsc_buf_put(m, b, w, rsc_put_varint(w, v));
}

unsigned rsc_width(uint32_t max)
{
    return max < 0x100u ? 1 : max < 0x10000u ? 2 : max < 0x1000000u ? 3 : 4;
}

void rsc_put_n(uint8_t *p, uint32_t v, unsigned w)
{
    for (unsigned i = 0; i < w; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The smallest width of each column, packed (Conventions); returns the
 * row size. */
static size_t table_widths(const uint32_t *vals, size_t count, unsigned cols, uint8_t *w)
{
    size_t row = 0;
    memset(w, 0, RSC_TAB_WBYTES(cols));
    for (unsigned c = 0; c < cols; c++) {
        uint32_t max = 0;
        for (size_t r = 0; r < count; r++)
            max = vals[r * cols + c] > max ? vals[r * cols + c] : max;
        unsigned wc = rsc_width(max);
        w[c >> 2] |= (uint8_t)((wc - 1) << (2 * (c & 3)));
        row += wc;
    }
    return row;
}

size_t rsc_table_size(const uint32_t *vals, size_t count, unsigned cols)
{
    uint8_t w[RSC_TAB_WBYTES(RSC_TAB_MAX_COLS)];
    size_t row = table_widths(vals, count, cols, w);
    return rsc_varint_size((uint32_t)count) + (count ? RSC_TAB_WBYTES(cols) + count * row : 0);
}

int rsc_buf_table(rsc_mem *m, rsc_buf *b, const uint32_t *vals, size_t count, unsigned cols)
{
    uint8_t w[RSC_TAB_WBYTES(RSC_TAB_MAX_COLS)];
    size_t row = table_widths(vals, count, cols, w);
    if (count > UINT32_MAX || rsc_buf_varint(m, b, (uint32_t)count) != 0)
        return -1;
    if (count == 0) /* an empty Table has no widths */
        return 0;
    if (rsc_buf_put(m, b, w, RSC_TAB_WBYTES(cols)) != 0)
        return -1;
    size_t at = b->len;
    if (rsc_buf_put(m, b, NULL, count * row) != 0)
        return -1;
    const uint32_t ws = rsc_tab_widths(w, cols);
    for (size_t r = 0; r < count; r++)
        for (unsigned c = 0; c < cols; c++) {
            unsigned wc = rsc_tab_width(ws, c);
            rsc_put_n(b->p + at, vals[r * cols + c], wc);
            at += wc;
        }
    return 0;
}

/* ---- blob ------------------------------------------------------------- */

rsc_status rsc_emit_blob(rsc_mem *m, uint8_t flags, const rsc_section *secs,
                         size_t n, rsc_blob *out)
{
    out->data = NULL;
    out->size = 0;
    uint32_t present = 0;
    size_t rest = 0; /* Present and the sections */
    for (size_t i = 0, prev = 0; i < n; i++) {
        if (!secs[i].size)
            continue;
        /* Present has a bit per Id and sections follow in Id order */
        if (secs[i].id <= prev || secs[i].id > 32)
            return RSC_E_LIMIT;
        prev = secs[i].id;
        if (secs[i].size > UINT32_MAX || rest > UINT32_MAX - 32 - secs[i].size)
            return RSC_E_LIMIT;
        present |= 1u << (secs[i].id - 1);
        rest += rsc_varint_size((uint32_t)secs[i].size) + secs[i].size;
    }
    rest += rsc_varint_size(present);
    /* Total_Size counts its own varint: the shortest that holds the sum. */
    size_t head = RSC_H_TOTAL + 1;
    while (rsc_varint_size((uint32_t)(head + rest)) > head - RSC_H_TOTAL)
        head++;
    size_t total = head + rest;
    rsc_buf b = {NULL, 0, 0};
    if (rsc_buf_put(m, &b, NULL, RSC_H_TOTAL) != 0 ||
        rsc_buf_varint(m, &b, (uint32_t)total) != 0 || rsc_buf_varint(m, &b, present) != 0) {
        rsc_buf_free(m, &b);
        return RSC_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        if (!secs[i].size)
            continue;
        if (rsc_buf_varint(m, &b, (uint32_t)secs[i].size) != 0 ||
            rsc_buf_put(m, &b, secs[i].data, secs[i].size) != 0) {
            rsc_buf_free(m, &b);
            return RSC_E_NOMEM;
        }
    }
    if (b.len != total) {
        rsc_buf_free(m, &b);
        return RSC_E_LIMIT;
    }
    uint8_t *p = b.p;
    memcpy(p, RSC_MAGIC, RSC_MAGIC_LEN);
    p[RSC_H_MAJOR] = RSC_FORMAT_MAJOR;
    p[RSC_H_MINOR] = RSC_FORMAT_MINOR;
    p[RSC_H_FLAGS] = (uint8_t)flags;
    /* Checksum (FORMAT.md): Adler-32 with the field itself still zero. */
    uint32_t a = 1, s = 0;
    rsc_adler32(&a, &s, p, total);
    rsc_put_u32(p + RSC_H_CHECK, s << 16 | a);
    /* Hand over exactly total bytes: shrink the buffer to its length. */
    uint8_t *fit = rsc_mem_realloc(m, b.p, 1, b.cap, total);
    if (!fit) {
        rsc_buf_free(m, &b);
        return RSC_E_NOMEM;
    }
    out->data = fit;
    out->size = total;
    return RSC_OK;
}
