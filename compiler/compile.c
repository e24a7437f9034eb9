/* SPDX-License-Identifier: Apache-2.0 */
/* The compiler driver: IR to rule sets, ranks and programs, then the blob
 * (docs/FORMAT.md). Spec sections cited are ../shared/spec/semantics.md.
 *
 * Pipeline:
 *  1. Every rule in a group yields up to two candidate patterns: the rule
 *     itself and, for an allow, the index.html extra (E.8). Empty (E.5) and
 *     dead (E.4, and a lone "$", E.3) patterns are dropped. In the rfc
 *     profile the bytes matched are percent-normalised, their length is the
 *     priority and there is no index.html extra (SEMANTICS.md, the rfc
 *     profile); the rule table keeps the google-escaped text too.
 *  2. Keys: every distinct extracted agent token (lower-cased; the empty
 *     token is real, F.2) and the global agent (F.1). A key's rule set is
 *     the union of the candidates of every group naming it (F.5), with
 *     duplicate patterns reduced to the best-ranked one. Keys whose groups
 *     are the same share the computation; identical resulting sets share
 *     one SETS entry.
 *  3. Ranks: candidates used by some set, sorted worst first by (priority,
 *     allow, -line) (E.6, E.7, F.6); rank = position + 1. The best rank
 *     that matches decides: a disallow wins only with a strictly higher
 *     priority than every matching allow.
 *  4. Each unit's patterns become a program (programs.c): a trie of the
 *     literal prefixes (trie.c) and an automaton of the wildcard segments
 *     (glob.c); several programs when the unit is over a budget.
 *  5. The blob's tables (sections.c).
 * This file holds steps 1 and 3 and the driver; units.c step 2; shared.c
 * the helpers of several steps (the merge sort, interning, rank order). */
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "compile.h"

static char *arena_take(ctx *c, size_t n)
{
    char *p = c->arena + c->arena_len;
    c->arena_len += n;
    return p; /* the arena is sized up front: never overflows */
}

/* The rfc profile's match text (FORMAT.md, Matching): the pattern
 * normalised as the runtime normalises paths (runtime/codec.h, one
 * implementation for both), but for its '*', wildcards, and a final '$',
 * the end anchor; any other '$' is a literal and becomes %24, as a path's
 * '$' does (RFC 9309 2.2.3). At most 3n bytes. */
static size_t rfc_normalise(const char *src, size_t n, uint8_t *dst)
{
    size_t o = 0, used;
    for (size_t i = 0; i < n; i += used) {
        uint8_t out[3];
        unsigned k;
        if (src[i] == '$' && i + 1 < n)
            k = rsc_pct_special('$', out), used = 1;
        else
            k = rsc_pct_normal((const uint8_t *)src + i, n - i, out, &used);
        memcpy(dst + o, out, k);
        o += k;
    }
    return o;
}

/* Adds a candidate unless it is empty (E.5) or can never match (E.4, E.3). */
static rsc_status add_cand(ctx *c, uint32_t line, int allow, const char *text, size_t len)
{
    if (len == 0 || (text[0] != '/' && text[0] != '*'))
        return RSC_OK;
    if (line > UINT32_MAX / 2 || len > UINT32_MAX)
        return RSC_E_LIMIT;
    cand *x = &c->cands[c->n_cands]; /* room: 2 per rule, sized up front */
    memset(x, 0, sizeof *x);
    x->line = line;
    x->allow = (uint8_t)allow;
    x->priority = (uint32_t)len;
    x->text = text;
    x->text_len = (uint32_t)len;
    if (c->ir->profile == RSC_PROFILE_RFC) {
        uint8_t *d = (uint8_t *)arena_take(c, 3 * len);
        x->mlen = (uint32_t)rfc_normalise(text, len, d);
        x->mb = d;
        /* RFC 9309 2.2.2: the most octets of the normalised pattern, so
         * equivalent rules (/~a, /%7Ea) tie and the allow wins */
        x->priority = x->mlen;
    } else {
        x->mb = (const uint8_t *)text;
        x->mlen = (uint32_t)len;
    }
    if (x->mb[x->mlen - 1] == '$') { /* E.3: only a final '$' anchors */
        x->anchored = 1;
        x->mlen--;
        if (x->mlen == 0)
            return RSC_OK; /* "$" alone never matches */
    }
    const size_t i = c->n_cands++;
    c->rank_key[i] = rsc_rank_key(x);
    c->mb_key[i] = rsc_prefix_key(x->mb, x->mlen);
    return RSC_OK;
}

rsc_status rsc_make_cands(ctx *c)
{
    const rsc_ir *ir = c->ir;
    size_t arena = 0, ncand = 0;
    for (size_t g = 0; g < ir->n_groups; g++)
        for (size_t r = ir->groups[g].first_rule; r < ir->groups[g].first_rule + ir->groups[g].n_rules; r++) {
            arena += 3 * ir->rules[r].pattern.len + 2;
            ncand += 2;
        }
    /* Sizes + 1 here and below: never a zero-size allocation, so the sizes
     * given back to the caller's allocator are always the ones requested. */
    c->arena_cap = arena + 1;
    c->arena = rsc_mem_alloc(&c->m, c->arena_cap);
    c->cap_cands = ncand + 1;
    c->cands = rsc_mem_calloc(&c->m, c->cap_cands, sizeof *c->cands);
    c->rank_key = rsc_mem_alloc(&c->m, c->cap_cands * sizeof *c->rank_key);
    c->mb_key = rsc_mem_alloc(&c->m, c->cap_cands * sizeof *c->mb_key);
    c->gc_first = rsc_mem_calloc(&c->m, ir->n_groups + 1, sizeof *c->gc_first);
    c->gc_n = rsc_mem_calloc(&c->m, ir->n_groups + 1, sizeof *c->gc_n);
    if (!c->arena || !c->cands || !c->rank_key || !c->mb_key || !c->gc_first || !c->gc_n)
        return RSC_E_NOMEM;
    for (size_t g = 0; g < ir->n_groups; g++) {
        const rsc_group *gr = &ir->groups[g];
        c->gc_first[g] = (uint32_t)c->n_cands;
        for (size_t r = gr->first_rule; r < gr->first_rule + gr->n_rules; r++) {
            const rsc_rule *ru = &ir->rules[r];
            const char *v = ru->pattern.ptr;
            size_t n = ru->pattern.len;
            rsc_status st = add_cand(c, ru->line, ru->allow, v, n);
            if (st != RSC_OK)
                return st;
            if (!ru->allow || ir->profile == RSC_PROFILE_RFC) /* E.8 is Google's */
                continue;
            /* E.8: from the last '/', "/index.htm..." also allows v[0..k]$ */
            size_t k = n;
            while (k > 0 && v[k - 1] != '/')
                k--;
            if (k == 0)
                continue;
            k--;
            if (n - k >= 10 && memcmp(v + k, "/index.htm", 10) == 0) {
                char *t = arena_take(c, k + 2);
                memcpy(t, v, k + 1);
                t[k + 1] = '$';
                st = add_cand(c, ru->line, 1, t, k + 2);
                if (st != RSC_OK)
                    return st;
            }
        }
        c->gc_n[g] = (uint32_t)c->n_cands - c->gc_first[g];
    }
    return RSC_OK;
}

/* A rule string of the STRINGS plan: entry 2i is rule i's pattern, 2i+1
 * its match text (rfc profile only; in google the two are the same). */
typedef struct rstr {
    const ctx *c;
    unsigned per;        /* strings per rule: 1 or 2 */
} rstr;

static const uint8_t *rstr_at(const rstr *r, uint32_t e, size_t *n)
{
    const cand *x = &r->c->cands[r->c->rules[e / r->per]];
    if (e % r->per == 0) {
        *n = x->text_len;
        return (const uint8_t *)x->text;
    }
    *n = (size_t)x->mlen + x->anchored;
    return x->mb;
}

/* Byte order: memcmp on the common length, then shorter first; the sort
 * (rsc_msort_keyed) calls it only where the strings' rsc_prefix_key()s
 * are equal. */
static int cmp_rstr(const void *cx, uint32_t a, uint32_t b)
{
    size_t na, nb;
    const uint8_t *pa = rstr_at(cx, a, &na), *pb = rstr_at(cx, b, &nb);
    int d = memcmp(pa, pb, na < nb ? na : nb);
    return d ? d : na < nb ? -1 : na > nb;
}

/* STRINGS gets the rules' strings first, so programs can point automaton
 * labels into the match texts. A string that is a prefix of another is
 * not stored again but referred to inside the longer one (references may
 * overlap: FORMAT.md, STRINGS): in byte order, a string is a prefix of
 * some other exactly when it is a prefix of the next one, so one sort
 * finds them all. Hosts go in the order RULES refers to them. */
static rsc_status place_rule_strings(ctx *c)
{
    rstr r = {c, c->ir->profile == RSC_PROFILE_RFC ? 2u : 1u};
    const size_t n = c->n_rules * r.per;
    rsc_status st = RSC_OK;
    if (n == 0)
        return RSC_OK;
    uint32_t *ord = rsc_mem_calloc(&c->m, n, sizeof *ord);
    uint32_t *host = rsc_mem_calloc(&c->m, n, sizeof *host);
    uint32_t *off = rsc_mem_calloc(&c->m, n, sizeof *off);
    uint64_t *key = rsc_mem_alloc(&c->m, n * sizeof *key);
    if (!ord || !host || !off || !key) {
        st = RSC_E_NOMEM;
        goto out;
    }
    for (size_t e = 0; e < n; e++) {
        size_t len;
        const uint8_t *p = rstr_at(&r, (uint32_t)e, &len);
        ord[e] = (uint32_t)e, key[e] = rsc_prefix_key(p, len);
    }
    if (rsc_msort_keyed(&c->m, ord, n, key, cmp_rstr, &r) != 0) {
        st = RSC_E_NOMEM;
        goto out;
    }
    host[ord[n - 1]] = ord[n - 1];
    for (size_t k = n - 1; k-- > 0;) {
        size_t na, nb;
        const uint8_t *pa = rstr_at(&r, ord[k], &na), *pb = rstr_at(&r, ord[k + 1], &nb);
        int inside = na <= nb && (na == 0 || memcmp(pa, pb, na) == 0);
        host[ord[k]] = inside ? host[ord[k + 1]] : ord[k];
    }
    for (size_t e = 0; e < n && st == RSC_OK; e++) {
        size_t len;
        const uint8_t *p = rstr_at(&r, (uint32_t)e, &len);
        if (host[e] == e)
            st = rsc_strpool_add(&c->m, &c->strs, p, len, &off[e]);
    }
    for (size_t e = 0; e < n && st == RSC_OK; e++) {
        cand *x = &c->cands[c->rules[e / r.per]];
        uint32_t o = off[host[e]];
        if (e % r.per == 0)
            x->toff = x->moff = o;
        else
            x->moff = o;
    }
out:
    rsc_mem_free(&c->m, key, n * sizeof *key);
    rsc_mem_free(&c->m, ord, n * sizeof *ord);
    rsc_mem_free(&c->m, host, n * sizeof *host);
    rsc_mem_free(&c->m, off, n * sizeof *off);
    return st;
}

/* RULES: every candidate some set uses, worst first; rank = index + 1. */
rsc_status rsc_make_rules(ctx *c)
{
    for (size_t i = 0; i < c->sets.len; i++)
        c->cands[c->sets.data[i]].rank = 1;
    c->rules = rsc_mem_calloc(&c->m, c->n_cands + 1, sizeof *c->rules);
    if (!c->rules)
        return RSC_E_NOMEM;
    for (size_t i = 0; i < c->n_cands; i++)
        if (c->cands[i].rank)
            c->rules[c->n_rules++] = (uint32_t)i;
    if (rsc_msort_keyed(&c->m, c->rules, c->n_rules, c->rank_key, NULL, NULL) != 0)
        return RSC_E_NOMEM;
    if (c->n_rules >= UINT32_MAX / 16)
        return RSC_E_LIMIT;
    for (size_t i = 0; i < c->n_rules; i++)
        c->cands[c->rules[i]].rank = (uint32_t)i + 1;
    return place_rule_strings(c);
}

static void ctx_free(ctx *c)
{
    rsc_mem *m = &c->m;
    rsc_mem_free(m, c->arena, c->arena_cap);
    rsc_mem_free(m, c->tokens, c->tokens_cap);
    rsc_mem_free(m, c->cands, c->cap_cands * sizeof *c->cands);
    rsc_mem_free(m, c->rank_key, c->cap_cands * sizeof *c->rank_key);
    rsc_mem_free(m, c->mb_key, c->cap_cands * sizeof *c->mb_key);
    rsc_mem_free(m, c->gc_first, (c->ir->n_groups + 1) * sizeof *c->gc_first);
    rsc_mem_free(m, c->gc_n, (c->ir->n_groups + 1) * sizeof *c->gc_n);
    rsc_mem_free(m, c->refs, (c->ir->n_agents + 1) * sizeof *c->refs);
    rsc_mem_free(m, c->order, (c->ir->n_agents + 1) * sizeof *c->order);
    rsc_mem_free(m, (void *)c->agent_low, (c->ir->n_agents + 1) * sizeof *c->agent_low);
    rsc_mem_free(m, c->key_pos, (c->ir->n_agents + 1) * sizeof *c->key_pos);
    rsc_mem_free(m, c->key_set, (c->ir->n_agents + 1) * sizeof *c->key_set);
    rsc_mem_free(m, c->agent_key, (c->ir->n_agents + 1) * sizeof *c->agent_key);
    rsc_mem_free(m, c->scratch, (c->n_cands + c->ir->n_groups + 1) * sizeof *c->scratch);
    rsc_mem_free(m, c->glist_set, c->cap_glist_set * sizeof *c->glist_set);
    rsc_mem_free(m, c->group_unit, (c->ir->n_groups + 1) * sizeof *c->group_unit);
    rsc_mem_free(m, c->unit_scratch, (c->ir->n_groups + 1) * sizeof *c->unit_scratch);
    rsc_mem_free(m, c->rules, (c->n_cands + 1) * sizeof *c->rules);
    rsc_mem_free(m, c->unit_prog, (c->sets.count + 1) * sizeof *c->unit_prog);
    rsc_mem_free(m, c->unit_nprog, (c->sets.count + 1) * sizeof *c->unit_nprog);
    rsc_intern_free(m, &c->glists); /* after its users: this zeroes the counts */
    rsc_intern_free(m, &c->sets);
    rsc_intern_free(m, &c->sels);
    rsc_buf_free(m, &c->progs);
    rsc_buf_free(m, &c->prog_ends);
    rsc_strpool_free(m, &c->strs);
    for (size_t i = 0; i <= RSC_SEC_LAST_KNOWN; i++)
        rsc_buf_free(m, &c->sec[i]);
}

rsc_status rsc_compile_ir(const rsc_ir *ir, const rsc_compile_options *opt, rsc_blob *out)
{
    static const rsc_compile_options defaults; /* google, malloc, no diag */
    if (!out)
        return RSC_E_ARG;
    out->data = NULL;
    out->size = 0;
    if (!opt)
        opt = &defaults;
    if (!ir || ir->profile != opt->profile ||
        (opt->profile != RSC_PROFILE_GOOGLE && opt->profile != RSC_PROFILE_RFC))
        return RSC_E_ARG;
    /* Lint reports dead patterns too, so it is the only source of
     * diagnostics: dropping them here says nothing more. */
    if (opt->diag)
        rsc_lint(ir, opt->diag, opt->diag_ud);

    ctx c;
    memset(&c, 0, sizeof c);
    rsc_mem_init(&c.m, opt->alloc, opt->alloc_ud);
    c.ir = ir;
    c.opt = opt;
    rsc_status st = rsc_make_cands(&c);
    if (st == RSC_OK)
        st = rsc_make_keys(&c);
    if (st == RSC_OK)
        st = rsc_make_sets(&c);
    if (st == RSC_OK)
        st = rsc_make_rules(&c);
    if (st == RSC_OK)
        st = rsc_make_programs(&c);
    if (st == RSC_OK)
        st = rsc_make_sections(&c);
    /* The blob without DFAs first: the DFAs are built from its programs
     * as the runtime reads them (dfa.c), then it is made again with them. */
    for (int pass = 0; pass < 2 && st == RSC_OK; pass++) {
        if (pass) {
            if (opt->no_prune & RSC_COMPILE_NO_DFA)
                break;
            st = rsc_make_dfas(&c, out->data, out->size);
            if (st != RSC_OK || !c.sec[RSC_SEC_DFAS].len)
                break;
            rsc_mem_free(&c.m, out->data, out->size);
            out->data = NULL, out->size = 0;
        }
        rsc_section secs[RSC_SEC_LAST_KNOWN];
        for (uint16_t id = 1; id <= RSC_SEC_LAST_KNOWN; id++) {
            secs[id - 1].id = id;
            secs[id - 1].data = c.sec[id].p;
            secs[id - 1].size = c.sec[id].len;
        }
        st = rsc_emit_blob(&c.m, opt->profile == RSC_PROFILE_RFC ? (uint8_t)RSC_FLAG_PROFILE_RFC : 0,
                           secs, RSC_SEC_LAST_KNOWN, out);
    }
    if (st != RSC_OK && out->data) {
        rsc_mem_free(&c.m, out->data, out->size);
        out->data = NULL, out->size = 0;
    }
    int failed = c.m.failed;
    ctx_free(&c);
    if (st != RSC_OK && failed) /* a NOMEM some layer reported otherwise */
        st = RSC_E_NOMEM;
    return st;
}

rsc_status rsc_compile(const void *body, size_t len, const rsc_compile_options *opt,
                       rsc_blob *out)
{
    static const rsc_compile_options defaults;
    if (!out)
        return RSC_E_ARG;
    out->data = NULL;
    out->size = 0;
    if (!opt)
        opt = &defaults;
    if (!body && len)
        return RSC_E_ARG;
    rsc_parse_options po;
    memset(&po, 0, sizeof po);
    po.profile = opt->profile;
    po.alloc = opt->alloc;
    po.alloc_ud = opt->alloc_ud;
    rsc_ir *ir = NULL;
    rsc_compile_options so;
    rsc_scratch scr;
    int scratch = !opt->alloc && len <= RSC_SCRATCH_INPUT;
    if (scratch) { /* mem.h: the parse and the compile in one block */
        rsc_scratch_begin(&scr);
        so = *opt;
        so.alloc = po.alloc = rsc_scratch_fn;
        so.alloc_ud = po.alloc_ud = &scr;
        opt = &so;
    }
    rsc_status st = rsc_parse(body ? body : "", len, &po, &ir);
    if (st == RSC_OK) {
        st = rsc_compile_ir(ir, opt, out);
        rsc_ir_free(ir);
    }
    if (scratch) {
        if (st == RSC_OK && rsc_scratch_owns(&scr, out->data)) { /* to the caller's allocator */
            uint8_t *d = malloc(out->size);
            if (d)
                memcpy(d, out->data, out->size);
            else
                st = RSC_E_NOMEM, out->size = 0;
            out->data = d;
        }
        rsc_scratch_end(&scr);
    }
    return st;
}

void rsc_blob_free(rsc_blob *b, const rsc_compile_options *opt)
{
    if (!b || !b->data)
        return;
    rsc_mem m;
    rsc_mem_init(&m, opt ? opt->alloc : NULL, opt ? opt->alloc_ud : NULL);
    rsc_mem_free(&m, b->data, b->size);
    b->data = NULL;
    b->size = 0;
}
