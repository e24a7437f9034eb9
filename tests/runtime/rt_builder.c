#include "rt_builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/format.h"

void bb_raw(bb *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->d = realloc(b->d, b->cap);
        if (!b->d)
            abort();
    }
    if (n)
        memcpy(b->d + b->n, p, n);
    b->n += n;
}
void bb_u8(bb *b, uint32_t v)
{
    uint8_t c = (uint8_t)v;
    bb_raw(b, &c, 1);
}
void bb_u16(bb *b, uint32_t v)
{
    bb_u8(b, v);
    bb_u8(b, v >> 8);
}
void bb_u32(bb *b, uint32_t v)
{
    bb_u16(b, v);
    bb_u16(b, v >> 16);
}
void bb_pad4(bb *b)
{
    while (b->n % 4)
        bb_u8(b, 0);
}
void bb_free(bb *b)
{
    free(b->d);
    memset(b, 0, sizeof *b);
}

uint32_t rd32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}
void wr32le(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void tb_fix_checksum(uint8_t *b, size_t size)
{
    uint32_t a = 0, s = 0;
    for (size_t i = 0; i + 4 <= size; i += 4) {
        a += (i == 24 || i == 28) ? 0 : rd32le(b + i);
        s += a;
    }
    wr32le(b + 24, a);
    wr32le(b + 28, s);
}

uint8_t *tb_blob(uint16_t hflags, const tb_section *s, size_t n, size_t *size)
{
    bb b = {0};
    bb_raw(&b, RSC_MAGIC, 8);
    bb_u8(&b, 1);
    bb_u8(&b, 0);
    bb_u16(&b, hflags);
    bb_u32(&b, 0); /* total, patched */
    bb_u32(&b, (uint32_t)n);
    bb_u32(&b, 0);
    bb_u32(&b, 0);
    bb_u32(&b, 0);
    for (size_t i = 0; i < n; i++) {
        bb_u16(&b, s[i].id);
        bb_u16(&b, s[i].flags);
        bb_u32(&b, s[i].data ? (uint32_t)s[i].data->n : 0);
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i].data)
            bb_raw(&b, s[i].data->d, s[i].data->n);
        bb_pad4(&b);
    }
    wr32le(b.d + 12, (uint32_t)b.n);
    tb_fix_checksum(b.d, b.n);
    *size = b.n;
    return b.d;
}

size_t tb_section_off(const uint8_t *b, uint16_t id)
{
    uint32_t n = rd32le(b + 16);
    size_t pos = 32 + 8 * (size_t)n;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = b + 32 + 8 * i;
        if ((uint32_t)(e[0] | e[1] << 8) == id)
            return pos;
        pos = (pos + rd32le(e + 4) + 3) & ~(size_t)3;
    }
    return 0;
}

static uint32_t pad4(uint32_t n)
{
    return (n + 3) & ~3u;
}

static uint32_t state_size(const tb_state *s, uint32_t cc)
{
    uint32_t z = 8 + (s->accept ? 4 : 0) + (s->end ? 4 : 0);
    if (s->op == RSC_OP_LIT)
        return z + 4 + pad4(s->nbytes) + 4;
    if (s->op == RSC_OP_SPARSE)
        return z + 4 + pad4(s->nbytes) + 4 * s->nbytes + 4;
    return z + 4 * cc;
}

void tb_automaton(bb *out, const tb_state *st, size_t n, int start,
                  const uint8_t *cmap, uint32_t cc)
{
    uint32_t *off = calloc(n + 1, 4);
    for (size_t i = 0; i < n; i++)
        off[i + 1] = off[i] + state_size(&st[i], cc);
#define TGT(x) ((x) < 0 ? RSC_NONE : off[(x)])
    bb_u32(out, (uint32_t)n);
    bb_u32(out, off[n]);
    bb_u32(out, TGT(start));
    bb_u32(out, cmap ? 1 : 0);
    bb_u32(out, cmap ? cc : 0);
    if (cmap)
        bb_raw(out, cmap, 256);
    for (size_t i = 0; i < n; i++)
        bb_u32(out, off[i]);
    for (size_t i = 0; i < n; i++) {
        const tb_state *s = &st[i];
        bb_u32(out, (uint32_t)s->op | (s->accept ? RSC_ST_HAS_ACCEPT : 0) |
                        (s->end ? RSC_ST_HAS_END : 0) | (uint32_t)i << 8);
        bb_u32(out, s->ceiling);
        if (s->accept)
            bb_u32(out, s->accept);
        if (s->end)
            bb_u32(out, s->end);
        size_t nt = s->op == RSC_OP_LIT ? 1 : s->op == RSC_OP_SPARSE ? s->nbytes + 1 : cc;
        if (s->op != RSC_OP_TABLE) {
            bb_u32(out, s->nbytes);
            bb_raw(out, s->bytes, s->nbytes);
            bb_pad4(out);
        }
        for (size_t k = 0; k < nt; k++)
            bb_u32(out, TGT(s->t[k]));
    }
#undef TGT
    free(off);
}

/* One pattern without '*' as an automaton of the given mode: a chain of
 * states reading the bytes, then a final state with Accept or End. */
static void pattern_automaton(bb *out, const char *pat, uint32_t rank, int mode)
{
    size_t len = strlen(pat);
    int anchored = len && pat[len - 1] == '$';
    if (anchored)
        len--;
    static tb_state st[300];
    static uint8_t cmap[256];
    size_t n = 0;
    uint32_t cc = 0;
    memset(st, 0, sizeof st);
    if (mode == TP_TABLE) { /* class k+1 for pattern byte k's value */
        memset(cmap, 0, sizeof cmap);
        cc = 1;
        for (size_t i = 0; i < len; i++)
            if (!cmap[(uint8_t)pat[i]])
                cmap[(uint8_t)pat[i]] = (uint8_t)cc++;
    }
    if (mode == TP_LIT && len) {
        st[n] = (tb_state){.op = RSC_OP_LIT, .ceiling = rank, .bytes = pat,
                           .nbytes = (uint32_t)len};
        st[n].t[0] = 1;
        n++;
    } else {
        for (size_t i = 0; i < len; i++, n++) {
            st[n] = (tb_state){.op = mode == TP_TABLE ? RSC_OP_TABLE : RSC_OP_SPARSE,
                               .ceiling = rank, .bytes = pat + i, .nbytes = 1};
            if (mode == TP_TABLE) {
                for (uint32_t c = 0; c < cc; c++)
                    st[n].t[c] = TB_NONE;
                st[n].t[cmap[(uint8_t)pat[i]]] = (int)n + 1;
            } else {
                st[n].t[0] = (int)n + 1;
                st[n].t[1] = TB_NONE;
            }
        }
    }
    /* Final state: anything more leads nowhere. */
    st[n] = (tb_state){.op = RSC_OP_SPARSE, .ceiling = anchored ? rank : 0};
    st[n].t[0] = TB_NONE;
    if (anchored)
        st[n].end = rank;
    else
        st[n].accept = rank;
    n++;
    tb_automaton(out, st, n, 0, mode == TP_TABLE ? cmap : NULL, cc);
}

static uint32_t add_str(bb *s, const char *str)
{
    uint32_t off = (uint32_t)s->n;
    bb_raw(s, str, strlen(str));
    return off;
}

static void ref(bb *t, bb *s, const char *str)
{
    bb_u32(t, add_str(s, str));
    bb_u32(t, (uint32_t)strlen(str));
}

static const tp_prog *sort_prog;
static int rule_cmp(const void *pa, const void *pb)
{
    const tp_rule *a = &sort_prog->rules[*(const int *)pa];
    const tp_rule *b = &sort_prog->rules[*(const int *)pb];
    size_t la = strlen(a->pat), lb = strlen(b->pat);
    if (la != lb)
        return la < lb ? -1 : 1;
    if (a->allow != b->allow)
        return a->allow < b->allow ? -1 : 1;
    return a->line > b->line ? -1 : a->line < b->line;
}
static int agent_cmp(const void *pa, const void *pb)
{
    const char *a = sort_prog->agents[*(const int *)pa].tok;
    const char *b = sort_prog->agents[*(const int *)pb].tok;
    return strcmp(a, b);
}

uint8_t *tp_build(const tp_prog *p, size_t *size)
{
    bb str = {0}, rules = {0}, auts = {0}, sets = {0}, agents = {0},
       groups = {0}, sm = {0}, dirs = {0}, code = {0};
    int order[40], rank_of[40], aorder[40];
    sort_prog = p;
    for (size_t i = 0; i < p->n_rules; i++)
        order[i] = (int)i;
    qsort(order, p->n_rules, sizeof order[0], rule_cmp);
    /* RULES, rank order; automaton k is rule k's (rank k+1). */
    bb_u32(&rules, (uint32_t)p->n_rules);
    bb_u32(&auts, (uint32_t)p->n_rules);
    for (size_t k = 0; k < p->n_rules; k++) {
        const tp_rule *r = &p->rules[order[k]];
        rank_of[order[k]] = (int)k + 1;
        bb_u32(&rules, r->line | (r->allow ? RSC_RULE_ALLOW : 0));
        bb_u32(&rules, (uint32_t)strlen(r->pat));
        ref(&rules, &str, r->pat);
        bb_u32(&auts, (uint32_t)(4 + 4 * p->n_rules + code.n));
        pattern_automaton(&code, r->pat, (uint32_t)k + 1, r->mode);
    }
    bb_raw(&auts, code.d, code.n);
    size_t n_list = 0;
    bb_u32(&sets, (uint32_t)p->n_sets);
    for (size_t i = 0; i < p->n_sets; i++)
        n_list += p->sets[i].n;
    bb_u32(&sets, (uint32_t)n_list);
    n_list = 0;
    for (size_t i = 0; i < p->n_sets; i++) {
        bb_u32(&sets, (uint32_t)n_list);
        bb_u32(&sets, (uint32_t)p->sets[i].n);
        n_list += p->sets[i].n;
    }
    for (size_t i = 0; i < p->n_sets; i++)
        for (size_t j = 0; j < p->sets[i].n; j++)
            bb_u32(&sets, (uint32_t)rank_of[p->sets[i].rules[j]] - 1);
    for (size_t i = 0; i < p->n_agents; i++)
        aorder[i] = (int)i;
    qsort(aorder, p->n_agents, sizeof aorder[0], agent_cmp);
    bb_u32(&agents, (uint32_t)p->n_agents);
    bb_u32(&agents, p->global < 0 ? RSC_NONE : (uint32_t)p->global);
    for (size_t i = 0; i < p->n_agents; i++) {
        ref(&agents, &str, p->agents[aorder[i]].tok);
        bb_u32(&agents, (uint32_t)p->agents[aorder[i]].set);
    }
    n_list = 0;
    for (size_t i = 0; i < p->n_groups; i++)
        for (size_t j = 0; j < 4 && p->groups[i].toks[j]; j++)
            n_list++;
    bb_u32(&groups, (uint32_t)p->n_groups);
    bb_u32(&groups, (uint32_t)n_list);
    n_list = 0;
    for (size_t i = 0; i < p->n_groups; i++) {
        size_t j = 0;
        while (j < 4 && p->groups[i].toks[j])
            j++;
        bb_u32(&groups, p->groups[i].line);
        bb_u32(&groups, (uint32_t)n_list);
        bb_u32(&groups, (uint32_t)j);
        n_list += j;
    }
    for (size_t i = 0; i < p->n_groups; i++)
        for (size_t j = 0; j < 4 && p->groups[i].toks[j]; j++)
            ref(&groups, &str, p->groups[i].toks[j]);
    bb_u32(&sm, (uint32_t)p->n_sitemaps);
    for (size_t i = 0; i < p->n_sitemaps; i++) {
        bb_u32(&sm, p->sitemaps[i].line);
        ref(&sm, &str, p->sitemaps[i].url);
    }
    bb_u32(&dirs, (uint32_t)p->n_dirs);
    for (size_t i = 0; i < p->n_dirs; i++) {
        bb_u32(&dirs, p->dirs[i].line);
        bb_u32(&dirs, p->dirs[i].group < 0 ? RSC_NONE : (uint32_t)p->dirs[i].group);
        ref(&dirs, &str, p->dirs[i].key);
        ref(&dirs, &str, p->dirs[i].val);
    }
    tb_section s[8] = {{1, 0, &str},    {2, 0, &rules},  {3, 0, &auts},
                       {4, 0, &sets},   {5, 0, &agents}, {6, 0, &groups},
                       {7, 0, &sm},     {8, 0, &dirs}};
    /* Leave out empty optional tables, as an encoder would. */
    size_t n = 6 + (p->n_sitemaps ? 1 : 0);
    if (p->n_dirs) {
        if (!p->n_sitemaps)
            s[6] = s[7];
        n++;
    }
    uint8_t *blob = tb_blob(p->rfc ? RSC_FLAG_PROFILE_RFC : 0, s, n, size);
    bb_free(&str), bb_free(&rules), bb_free(&auts), bb_free(&sets);
    bb_free(&agents), bb_free(&groups), bb_free(&sm), bb_free(&dirs), bb_free(&code);
    return blob;
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
