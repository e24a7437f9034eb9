/* Bytecode emission: DFAs to the state machine code of docs/FORMAT.md
 * (AUTOMATA), the string pool, and blob assembly (header, section table,
 * checksum).
 *
 * Encoding a DFA. States are laid out in breadth-first order from the start
 * state, so the start is state 0 at offset 0 and the bytes follow the order
 * in which a matcher usually visits them. A chain of states that each have
 * exactly one live byte transition becomes one LIT instruction: the states
 * inside the chain disappear, which is exact only when they have no Accept,
 * no End and are entered from nowhere else (in-degree 1; we never duplicate
 * states). Other states become SPARSE (few bytes differ from the most
 * frequent target, which becomes the Default) or TABLE (indexed through the
 * automaton's class map). The encoding is a pure function of the DFA. */
#include <string.h>

#include "backend.h"
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

int rsc_buf_pad4(rsc_mem *m, rsc_buf *b)
{
    size_t pad = (4 - (b->len & 3)) & 3;
    return rsc_buf_put(m, b, NULL, pad);
}

void rsc_buf_free(rsc_mem *m, rsc_buf *b)
{
    rsc_mem_free(m, b->p, b->cap);
    b->p = NULL;
    b->len = b->cap = 0;
}

/* ---- string pool ------------------------------------------------------ */

static uint32_t hash_bytes(const uint8_t *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;
    return h;
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

/* ---- automata --------------------------------------------------------- */

#define SPARSE_MAX 8 /* more bytes off the Default than this: TABLE */

/* One encoded state (a DFA state that starts an instruction). */
typedef struct estate {
    uint32_t dfa;      /* the DFA state                              */
    uint8_t op;        /* rsc_op                                     */
    uint32_t lit_off;  /* LIT: bytes in the run buffer               */
    uint32_t lit_len;
    uint32_t lit_next; /* LIT: DFA state after the run, or DEAD      */
    uint32_t dflt;     /* SPARSE: Default target (DFA state or DEAD) */
    uint32_t n_sparse; /* SPARSE: entries                            */
    uint32_t offset;   /* in Code                                    */
} estate;

typedef struct enc {
    rsc_mem *m;
    const rsc_dfa *d;
    uint32_t nc;
    uint16_t class_size[256];
    uint8_t class_byte[256]; /* first byte of each class (byte order)  */
    uint8_t class_order[256]; /* classes by increasing first byte      */
    uint32_t *nlive;  /* per DFA state: bytes with a live target     */
    uint32_t *indeg;  /* per DFA state: byte edges entering it       */
    uint32_t *eidx;   /* per DFA state: encoded index or NONE        */
    uint32_t *mark;   /* per DFA state + 1 (dead): scratch for counts */
    uint32_t *cnt;    /* per distinct target: bytes                   */
    uint32_t *tgt;
    estate *es;
    size_t n_es, cap_es;
    rsc_buf run; /* LIT bytes */
} enc;

static uint32_t next_of(const enc *e, uint32_t s, uint32_t c)
{
    return e->d->next[(size_t)s * e->nc + c];
}

/* The most frequent target of s (ties: the one reached by the smallest
 * byte) and how many bytes go elsewhere. */
static void pick_default(enc *e, uint32_t s, uint32_t *dflt, uint32_t *n_other)
{
    const uint32_t dead_slot = e->d->n_states;
    size_t nt = 0;
    for (uint32_t k = 0; k < e->nc; k++) {
        uint32_t c = e->class_order[k];
        uint32_t t = next_of(e, s, c);
        uint32_t slot = t == RSC_DFA_DEAD ? dead_slot : t;
        if (e->mark[slot] == RSC_NONE) {
            e->mark[slot] = (uint32_t)nt;
            e->tgt[nt] = t;
            e->cnt[nt] = 0;
            nt++;
        }
        e->cnt[e->mark[slot]] += e->class_size[c];
    }
    size_t best = 0;
    for (size_t i = 1; i < nt; i++)
        if (e->cnt[i] > e->cnt[best])
            best = i;
    *dflt = e->tgt[best];
    *n_other = 256 - e->cnt[best];
    for (size_t i = 0; i < nt; i++)
        e->mark[e->tgt[i] == RSC_DFA_DEAD ? dead_slot : e->tgt[i]] = RSC_NONE;
}

static int absorbable(const enc *e, uint32_t t)
{
    return t != 0 && t != RSC_DFA_DEAD && !e->d->accept[t] && !e->d->end[t] &&
           e->indeg[t] == 1 && e->nlive[t] == 1 && e->eidx[t] == RSC_NONE;
}

/* The single live (byte, target) of a state with nlive == 1. */
static void single_edge(const enc *e, uint32_t s, uint8_t *byte, uint32_t *t)
{
    for (uint32_t c = 0; c < e->nc; c++) {
        uint32_t x = next_of(e, s, c);
        if (x != RSC_DFA_DEAD) {
            *byte = e->class_byte[c];
            *t = x;
            return;
        }
    }
}

static int enqueue(enc *e, uint32_t s)
{
    if (s == RSC_DFA_DEAD || e->eidx[s] != RSC_NONE)
        return 0;
    if (rsc_mem_grow(e->m, (void **)&e->es, sizeof *e->es, &e->cap_es, e->n_es + 1) != 0)
        return -1;
    memset(&e->es[e->n_es], 0, sizeof e->es[0]);
    e->es[e->n_es].dfa = s;
    e->eidx[s] = (uint32_t)e->n_es++;
    return 0;
}

static size_t state_size(const enc *e, const estate *x)
{
    const rsc_dfa *d = e->d;
    size_t n = 8 + (d->accept[x->dfa] ? 4 : 0) + (d->end[x->dfa] ? 4 : 0);
    switch (x->op) {
    case RSC_OP_LIT: return n + 4 + ((x->lit_len + 3u) & ~3u) + 4;
    case RSC_OP_SPARSE: return n + 4 + ((x->n_sparse + 3u) & ~3u) + 4 * (size_t)x->n_sparse + 4;
    default: return n + 4 * (size_t)e->nc;
    }
}

static uint32_t target_off(const enc *e, uint32_t t)
{
    return t == RSC_DFA_DEAD ? RSC_NONE : e->es[e->eidx[t]].offset;
}

/* Plans the instructions (breadth-first), returns RSC_OK/E_NOMEM/E_LIMIT. */
static rsc_status plan(enc *e, int *has_table)
{
    if (enqueue(e, 0) != 0)
        return RSC_E_NOMEM;
    for (size_t q = 0; q < e->n_es; q++) {
        uint32_t s = e->es[q].dfa;
        if (e->nlive[s] == 1) {
            uint8_t byte = 0;
            uint32_t t = RSC_DFA_DEAD;
            single_edge(e, s, &byte, &t);
            uint32_t off = (uint32_t)e->run.len, len = 0;
            for (;;) {
                if (rsc_buf_put(e->m, &e->run, &byte, 1) != 0)
                    return RSC_E_NOMEM;
                len++;
                if (len == RSC_MAX_LIT || !absorbable(e, t))
                    break;
                e->eidx[t] = RSC_NONE - 1; /* absorbed into this run */
                single_edge(e, t, &byte, &t);
            }
            if (e->run.len > UINT32_MAX)
                return RSC_E_LIMIT;
            e->es[q].op = RSC_OP_LIT;
            e->es[q].lit_off = off;
            e->es[q].lit_len = len;
            e->es[q].lit_next = t;
            if (enqueue(e, t) != 0)
                return RSC_E_NOMEM;
        } else {
            uint32_t dflt, n_other;
            pick_default(e, s, &dflt, &n_other);
            if (n_other > SPARSE_MAX) {
                e->es[q].op = RSC_OP_TABLE;
                *has_table = 1;
            } else {
                e->es[q].op = RSC_OP_SPARSE;
                e->es[q].dflt = dflt;
                e->es[q].n_sparse = n_other;
            }
            /* Successors in byte order: deterministic and cache-friendly. */
            for (uint32_t k = 0; k < e->nc; k++)
                if (enqueue(e, next_of(e, s, e->class_order[k])) != 0)
                    return RSC_E_NOMEM;
        }
        if (e->n_es >= RSC_MAX_STATES)
            return RSC_E_LIMIT;
    }
    return RSC_OK;
}

static rsc_status write_code(enc *e, rsc_buf *out, int has_table, uint32_t code_size)
{
    rsc_mem *m = e->m;
    const rsc_dfa *d = e->d;
    if (rsc_buf_u32(m, out, (uint32_t)e->n_es) || rsc_buf_u32(m, out, code_size) ||
        rsc_buf_u32(m, out, 0) || rsc_buf_u32(m, out, has_table ? RSC_AUT_HAS_CLASS_MAP : 0) ||
        rsc_buf_u32(m, out, has_table ? e->nc : 0))
        return RSC_E_NOMEM;
    if (has_table && rsc_buf_put(m, out, d->classmap, 256) != 0)
        return RSC_E_NOMEM;
    for (size_t i = 0; i < e->n_es; i++)
        if (rsc_buf_u32(m, out, e->es[i].offset) != 0)
            return RSC_E_NOMEM;
    size_t code = out->len;
    if (rsc_buf_put(m, out, NULL, code_size) != 0)
        return RSC_E_NOMEM;
    for (size_t i = 0; i < e->n_es; i++) {
        const estate *x = &e->es[i];
        uint8_t *p = out->p + code + x->offset;
        uint32_t s = x->dfa, w0 = x->op | ((uint32_t)i << RSC_ST_INDEX_SHIFT);
        if (d->accept[s])
            w0 |= RSC_ST_HAS_ACCEPT;
        if (d->end[s])
            w0 |= RSC_ST_HAS_END;
        rsc_put_u32(p, w0);
        rsc_put_u32(p + 4, d->ceiling[s]);
        p += 8;
        if (d->accept[s]) {
            rsc_put_u32(p, d->accept[s]);
            p += 4;
        }
        if (d->end[s]) {
            rsc_put_u32(p, d->end[s]);
            p += 4;
        }
        if (x->op == RSC_OP_LIT) {
            rsc_put_u32(p, x->lit_len);
            memcpy(p + 4, e->run.p + x->lit_off, x->lit_len);
            p += 4 + ((x->lit_len + 3u) & ~3u);
            rsc_put_u32(p, target_off(e, x->lit_next));
        } else if (x->op == RSC_OP_SPARSE) {
            rsc_put_u32(p, x->n_sparse);
            uint8_t *bytes = p + 4;
            uint8_t *tg = bytes + ((x->n_sparse + 3u) & ~3u);
            uint32_t k = 0;
            for (unsigned c = 0; c < 256; c++) {
                uint32_t t = next_of(e, s, d->classmap[c]);
                if (t == x->dflt)
                    continue;
                bytes[k] = (uint8_t)c;
                rsc_put_u32(tg + 4 * k, target_off(e, t));
                k++;
            }
            rsc_put_u32(tg + 4 * k, target_off(e, x->dflt));
        } else {
            for (uint32_t c = 0; c < e->nc; c++)
                rsc_put_u32(p + 4 * c, target_off(e, next_of(e, s, c)));
        }
    }
    return RSC_OK;
}

rsc_status rsc_emit_automaton(rsc_mem *m, const rsc_dfa *d, rsc_buf *out,
                              uint32_t *n_states)
{
    enc e;
    memset(&e, 0, sizeof e);
    e.m = m;
    e.d = d;
    e.nc = d->n_classes;
    if (d->n_states == 0 || e.nc == 0 || e.nc > 256)
        return RSC_E_ARG;
    /* Classes: sizes, first bytes, and their order by first byte. */
    uint8_t seen[256] = {0};
    uint32_t k = 0;
    for (unsigned b = 0; b < 256; b++) {
        uint8_t c = d->classmap[b];
        e.class_size[c]++;
        if (!seen[c]) {
            seen[c] = 1;
            e.class_byte[c] = (uint8_t)b;
            e.class_order[k++] = c;
        }
    }
    if (k != e.nc)
        return RSC_E_ARG; /* a class without bytes: not a DFA we can encode */

    rsc_status st = RSC_E_NOMEM;
    size_t ns = d->n_states;
    e.nlive = rsc_mem_calloc(m, ns, sizeof *e.nlive);
    e.indeg = rsc_mem_calloc(m, ns, sizeof *e.indeg);
    e.eidx = rsc_mem_calloc(m, ns, sizeof *e.eidx);
    e.mark = rsc_mem_calloc(m, ns + 1, sizeof *e.mark);
    e.cnt = rsc_mem_calloc(m, e.nc, sizeof *e.cnt);
    e.tgt = rsc_mem_calloc(m, e.nc, sizeof *e.tgt);
    if (!e.nlive || !e.indeg || !e.eidx || !e.mark || !e.cnt || !e.tgt)
        goto done;
    for (size_t s = 0; s < ns; s++) {
        e.eidx[s] = RSC_NONE;
        e.mark[s] = RSC_NONE;
        for (uint32_t c = 0; c < e.nc; c++) {
            uint32_t t = next_of(&e, (uint32_t)s, c);
            if (t == RSC_DFA_DEAD)
                continue;
            e.nlive[s] += e.class_size[c];
            e.indeg[t] += e.class_size[c];
        }
    }
    e.mark[ns] = RSC_NONE;

    int has_table = 0;
    st = plan(&e, &has_table);
    if (st != RSC_OK)
        goto done;
    size_t code = 0;
    for (size_t i = 0; i < e.n_es; i++) {
        e.es[i].offset = (uint32_t)code;
        code += state_size(&e, &e.es[i]);
        if (code > UINT32_MAX - 4) {
            st = RSC_E_LIMIT;
            goto done;
        }
    }
    st = write_code(&e, out, has_table, (uint32_t)code);
    if (st == RSC_OK)
        *n_states = (uint32_t)e.n_es;
done:
    rsc_mem_free(m, e.nlive, ns * sizeof *e.nlive);
    rsc_mem_free(m, e.indeg, ns * sizeof *e.indeg);
    rsc_mem_free(m, e.eidx, ns * sizeof *e.eidx);
    rsc_mem_free(m, e.mark, (ns + 1) * sizeof *e.mark);
    rsc_mem_free(m, e.cnt, e.nc * sizeof *e.cnt);
    rsc_mem_free(m, e.tgt, e.nc * sizeof *e.tgt);
    rsc_mem_free(m, e.es, e.cap_es * sizeof *e.es);
    rsc_buf_free(m, &e.run);
    return st;
}

/* ---- blob ------------------------------------------------------------- */

rsc_status rsc_emit_blob(rsc_mem *m, uint16_t flags, const rsc_section *secs,
                         size_t n, rsc_blob *out)
{
    out->data = NULL;
    out->size = 0;
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += secs[i].size != 0;
    if (count > RSC_MAX_SECTIONS)
        return RSC_E_LIMIT;
    size_t total = RSC_HEADER_SIZE + RSC_SECTION_ENTRY_SIZE * count;
    for (size_t i = 0; i < n; i++) {
        if (!secs[i].size)
            continue;
        if (secs[i].size > UINT32_MAX || total > UINT32_MAX - 3 - secs[i].size)
            return RSC_E_LIMIT;
        total += (secs[i].size + 3) & ~(size_t)3;
    }
    if (total > UINT32_MAX - 3)
        return RSC_E_LIMIT;
    uint8_t *b = rsc_mem_calloc(m, total, 1);
    if (!b)
        return RSC_E_NOMEM;
    memcpy(b, RSC_MAGIC, RSC_MAGIC_LEN);
    b[RSC_H_MAJOR] = RSC_FORMAT_MAJOR;
    b[RSC_H_MINOR] = RSC_FORMAT_MINOR;
    b[RSC_H_FLAGS] = (uint8_t)flags;
    b[RSC_H_FLAGS + 1] = (uint8_t)(flags >> 8);
    rsc_put_u32(b + RSC_H_TOTAL, (uint32_t)total);
    rsc_put_u32(b + RSC_H_NSECT, (uint32_t)count);
    size_t at = RSC_HEADER_SIZE + RSC_SECTION_ENTRY_SIZE * count, k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!secs[i].size)
            continue;
        uint8_t *ent = b + RSC_HEADER_SIZE + RSC_SECTION_ENTRY_SIZE * k++;
        ent[0] = (uint8_t)secs[i].id;
        ent[1] = (uint8_t)(secs[i].id >> 8);
        rsc_put_u32(ent + 4, (uint32_t)secs[i].size);
        memcpy(b + at, secs[i].data, secs[i].size);
        at += (secs[i].size + 3) & ~(size_t)3;
    }
    /* Checksum (FORMAT.md): Fletcher-like sums over u32 words, words 6 and
     * 7 (the checksum itself) read as zero, which they still are. */
    uint32_t a = 0, s = 0;
    for (size_t i = 0; i < total; i += 4) {
        uint32_t w = (uint32_t)b[i] | (uint32_t)b[i + 1] << 8 | (uint32_t)b[i + 2] << 16 |
                     (uint32_t)b[i + 3] << 24;
        a += w;
        s += a;
    }
    rsc_put_u32(b + RSC_H_CHECK_A, a);
    rsc_put_u32(b + RSC_H_CHECK_B, s);
    out->data = b;
    out->size = total;
    return RSC_OK;
}
