/* SPDX-License-Identifier: Apache-2.0 */
/* The blob's tables (docs/FORMAT.md): RULES, PROGRAMS, SETS, AGENTS,
 * GROUPS, SITEMAPS, DIRECTIVES and STRINGS, from the compiled state. */
#include <string.h>

#include "codec.h"
#include "compile.h"

/* A string reference into vals[0..1]. */
static rsc_status str_ref(ctx *c, const void *s, size_t n, uint32_t *vals)
{
    if (n > UINT32_MAX)
        return RSC_E_LIMIT;
    vals[1] = (uint32_t)n;
    return rsc_strpool_add(&c->m, &c->strs, s, n, &vals[0]);
}

#define STR_REF(s, n, vals)                                                   \
    do {                                                                      \
        if ((st = str_ref(c, (s), (n), (vals))) != RSC_OK)                    \
            goto out;                                                         \
    } while (0)
#define TABLE(b, vals, count, cols)                                           \
    do {                                                                      \
        if (rsc_buf_table(m, (b), (vals), (count), (cols)) != 0) {            \
            st = RSC_E_NOMEM;                                                 \
            goto out;                                                         \
        }                                                                     \
    } while (0)

rsc_status rsc_make_sections(ctx *c)
{
    rsc_mem *m = &c->m;
    const rsc_ir *ir = c->ir;
    rsc_status st = RSC_OK;
    if (ir->n_groups >= UINT32_MAX / 16 || ir->n_agents >= UINT32_MAX / 16 ||
        ir->n_sitemaps >= UINT32_MAX / 16 || ir->n_directives >= UINT32_MAX / 32)
        return RSC_E_LIMIT;
    /* One scratch array serves every Table, row-major. */
    size_t list = 0;
    for (size_t e = 0; e < c->sels.count; e++)
        for (uint32_t i = 0; i < c->sels.n[e]; i++)
            list += c->unit_nprog[c->sels.data[c->sels.first[e] + i]];
    size_t rows = c->n_rules + c->n_programs + c->sels.count + list + c->n_keys +
                  ir->n_groups + ir->n_agents + ir->n_sitemaps + ir->n_directives + 1;
    uint32_t *v = rsc_mem_calloc(m, rows * RSC_TAB_MAX_COLS, sizeof *v);
    if (!v)
        return RSC_E_NOMEM;
    rsc_buf *b;

    if (c->n_rules) {
        /* The rfc profile adds the match text: the normalised pattern. */
        const unsigned cols = ir->profile == RSC_PROFILE_RFC ? RSC_RULES_COLS_RFC : RSC_RULES_COLS;
        b = &c->sec[RSC_SEC_RULES];
        for (size_t i = 0; i < c->n_rules; i++) {
            const cand *x = &c->cands[c->rules[i]];
            if (x->line > UINT32_MAX / 2) {
                st = RSC_E_LIMIT;
                goto out;
            }
            v[i * cols] = x->line << 1 | (x->allow ? 1u : 0u);
            /* placed by rsc_make_rules: prefixes share their hosts' bytes */
            v[i * cols + 1] = x->toff, v[i * cols + 2] = x->text_len;
            if (cols == RSC_RULES_COLS_RFC)
                v[i * cols + 3] = x->moff, v[i * cols + 4] = x->mlen + x->anchored;
        }
        TABLE(b, v, c->n_rules, cols);
    }
    if (c->n_programs) {
        b = &c->sec[RSC_SEC_PROGRAMS];
        for (uint32_t i = 0; i < c->n_programs; i++) {
            const uint8_t *q = c->prog_ends.p + 4 * (size_t)i;
            v[i] = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
                   (uint32_t)q[3] << 24;
        }
        TABLE(b, v, c->n_programs, RSC_PROGRAMS_COLS);
        if (rsc_buf_put(m, b, c->progs.p, c->progs.len) != 0) {
            st = RSC_E_NOMEM;
            goto out;
        }
    }
    int ident = c->sels.count == c->n_programs; /* set i = program i: no SETS */
    for (size_t e = 0; e < c->sels.count && ident; e++)
        ident = c->sels.n[e] == 1 && c->unit_prog[c->sels.data[c->sels.first[e]]] == e &&
                c->unit_nprog[c->sels.data[c->sels.first[e]]] == 1;
    if (c->sels.count && !ident) {
        /* A selection's programs: those of its non-empty units, in order. */
        b = &c->sec[RSC_SEC_SETS];
        size_t k = 0;
        for (size_t e = 0; e < c->sels.count; e++) {
            size_t n = 0;
            for (uint32_t i = 0; i < c->sels.n[e]; i++)
                n += c->unit_nprog[c->sels.data[c->sels.first[e] + i]];
            v[e * 2] = (uint32_t)k, v[e * 2 + 1] = (uint32_t)n;
            k += n;
        }
        TABLE(b, v, c->sels.count, RSC_SETS_COLS);
        k = 0;
        for (size_t e = 0; e < c->sels.count; e++)
            for (uint32_t i = 0; i < c->sels.n[e]; i++) {
                uint32_t u = c->sels.data[c->sels.first[e] + i];
                for (uint32_t j = 0; j < c->unit_nprog[u]; j++)
                    v[k++] = c->unit_prog[u] + j;
            }
        TABLE(b, v, k, RSC_SETLIST_COLS);
    }
    if (c->n_keys || c->has_global) {
        b = &c->sec[RSC_SEC_AGENTS];
        if (rsc_buf_varint(m, b, c->has_global ? c->key_set[c->n_keys] + 1 : 0) != 0) {
            st = RSC_E_NOMEM;
            goto out;
        }
        for (size_t k = 0; k < c->n_keys; k++) {
            const agent_ref *r = &c->refs[c->order[c->key_pos[k]]];
            STR_REF(r->tok, r->len, &v[k * 3]);
            v[k * 3 + 2] = c->key_set[k];
        }
        TABLE(b, v, c->n_keys, RSC_AGENTS_COLS);
    }
    if (ir->n_groups) {
        b = &c->sec[RSC_SEC_GROUPS];
        size_t k = 0;
        for (size_t g = 0; g < ir->n_groups; g++) {
            v[g * 2] = ir->groups[g].line, v[g * 2 + 1] = (uint32_t)k;
            k += ir->groups[g].n_agents;
        }
        TABLE(b, v, ir->n_groups, RSC_GROUPS_COLS);
        k = 0;
        for (size_t g = 0; g < ir->n_groups; g++) {
            const rsc_group *gr = &ir->groups[g];
            for (size_t i = gr->first_agent; i < gr->first_agent + gr->n_agents; i++)
                v[k++] = ir->agents[i].global ? 0 : c->agent_key[i] + 1;
        }
        TABLE(b, v, k, RSC_GROUPLIST_COLS);
    }
    if (ir->n_sitemaps) {
        b = &c->sec[RSC_SEC_SITEMAPS];
        for (size_t i = 0; i < ir->n_sitemaps; i++) {
            v[i * 3] = ir->sitemaps[i].line;
            STR_REF(ir->sitemaps[i].url.ptr, ir->sitemaps[i].url.len, &v[i * 3 + 1]);
        }
        TABLE(b, v, ir->n_sitemaps, RSC_SITEMAPS_COLS);
    }
    if (ir->n_directives) {
        b = &c->sec[RSC_SEC_DIRECTIVES];
        for (size_t i = 0; i < ir->n_directives; i++) {
            const rsc_directive *d = &ir->directives[i];
            v[i * 6] = d->line;
            v[i * 6 + 1] = d->group < ir->n_groups ? (uint32_t)d->group + 1 : 0;
            STR_REF(d->key.ptr, d->key.len, &v[i * 6 + 2]);
            STR_REF(d->value.ptr, d->value.len, &v[i * 6 + 4]);
        }
        TABLE(b, v, ir->n_directives, RSC_DIRECTIVES_COLS);
    }
    /* STRINGS last: every string is in the pool now. */
    c->sec[RSC_SEC_STRINGS] = c->strs.bytes;
    memset(&c->strs.bytes, 0, sizeof c->strs.bytes);
out:
    rsc_mem_free(m, v, rows * RSC_TAB_MAX_COLS * sizeof *v);
    return st;
}

