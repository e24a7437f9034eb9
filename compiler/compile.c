/* The compiler driver: IR to rule sets, ranks and programs, then the blob
 * (docs/FORMAT.md). Spec sections cited are ../shared/spec/semantics.md.
 *
 * Pipeline:
 *  1. Every rule in a group yields up to two candidate patterns: the rule
 *     itself and, for an allow, the index.html extra (E.8). Empty (E.5) and
 *     dead (E.4, and a lone "$", E.3) patterns are dropped. In the rfc
 *     profile the bytes matched are percent-normalised; the rule table keeps
 *     the google-escaped text and its length as the priority (E.6).
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
 *  4. Each unit's patterns become one program (trie.c): a trie of the
 *     literal prefixes with the wildcard tails at their prefix's node. */
#include <string.h>

#include "backend.h"
#include "codec.h"
#include "format.h"

/* ---- a stable merge sort of uint32 indices with a context ------------- */

typedef int (*idx_cmp)(const void *ctx, uint32_t a, uint32_t b);

static void msort_rec(uint32_t *a, uint32_t *tmp, size_t n, idx_cmp cmp, const void *ctx)
{
    if (n < 2)
        return;
    if (n <= 8) { /* insertion sort: stable */
        for (size_t i = 1; i < n; i++) {
            uint32_t x = a[i];
            size_t j = i;
            while (j > 0 && cmp(ctx, a[j - 1], x) > 0) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = x;
        }
        return;
    }
    size_t h = n / 2;
    msort_rec(a, tmp, h, cmp, ctx);
    msort_rec(a + h, tmp, n - h, cmp, ctx);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cmp(ctx, a[j], a[i]) < 0 ? a[j++] : a[i++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

static int msort(rsc_mem *m, uint32_t *a, size_t n, idx_cmp cmp, const void *ctx)
{
    if (n < 2)
        return 0;
    uint32_t *tmp = rsc_mem_alloc(m, n * sizeof *tmp);
    if (!tmp)
        return -1;
    msort_rec(a, tmp, n, cmp, ctx);
    rsc_mem_free(m, tmp, n * sizeof *tmp);
    return 0;
}

/* ---- interning of uint32 lists ---------------------------------------- */

typedef struct interner {
    uint32_t *data;
    size_t len, cap;
    uint32_t *first, *n;
    size_t count, cap_first, cap_n;
    uint32_t *slots; /* entry + 1, 0 free */
    size_t n_slots;
} interner;

static uint32_t hash_list(const uint32_t *l, size_t n)
{
    uint32_t h = 2166136261u ^ (uint32_t)n;
    for (size_t i = 0; i < n; i++)
        h = (h ^ l[i]) * 16777619u;
    return h;
}

static int intern_rehash(rsc_mem *m, interner *t, size_t n_slots)
{
    uint32_t *slots = rsc_mem_calloc(m, n_slots, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t e = 0; e < t->count; e++) {
        size_t i = hash_list(t->data + t->first[e], t->n[e]) & (n_slots - 1);
        while (slots[i])
            i = (i + 1) & (n_slots - 1);
        slots[i] = (uint32_t)e + 1;
    }
    rsc_mem_free(m, t->slots, t->n_slots * sizeof *t->slots);
    t->slots = slots;
    t->n_slots = n_slots;
    return 0;
}

/* *id receives the list's entry, new or existing. */
static rsc_status intern(rsc_mem *m, interner *t, const uint32_t *l, size_t n, uint32_t *id)
{
    if ((t->count + 1) * 2 > t->n_slots &&
        intern_rehash(m, t, t->n_slots ? t->n_slots * 2 : 16) != 0)
        return RSC_E_NOMEM;
    size_t i = hash_list(l, n) & (t->n_slots - 1);
    for (; t->slots[i]; i = (i + 1) & (t->n_slots - 1)) {
        size_t e = t->slots[i] - 1;
        if (t->n[e] == n && (n == 0 || memcmp(t->data + t->first[e], l, n * sizeof *l) == 0)) {
            *id = (uint32_t)e;
            return RSC_OK;
        }
    }
    if (t->len + n > UINT32_MAX || t->count >= UINT32_MAX - 1)
        return RSC_E_LIMIT;
    if (rsc_mem_grow(m, (void **)&t->first, sizeof *t->first, &t->cap_first, t->count + 1) != 0 ||
        rsc_mem_grow(m, (void **)&t->n, sizeof *t->n, &t->cap_n, t->count + 1) != 0)
        return RSC_E_NOMEM;
    if (rsc_mem_grow(m, (void **)&t->data, sizeof *t->data, &t->cap, t->len + n) != 0)
        return RSC_E_NOMEM;
    if (n)
        memcpy(t->data + t->len, l, n * sizeof *l);
    t->first[t->count] = (uint32_t)t->len;
    t->n[t->count] = (uint32_t)n;
    t->len += n;
    t->slots[i] = (uint32_t)t->count + 1;
    *id = (uint32_t)t->count++;
    return RSC_OK;
}

static void intern_free(rsc_mem *m, interner *t)
{
    rsc_mem_free(m, t->data, t->cap * sizeof *t->data);
    rsc_mem_free(m, t->first, t->cap_first * sizeof *t->first);
    rsc_mem_free(m, t->n, t->cap_n * sizeof *t->n);
    rsc_mem_free(m, t->slots, t->n_slots * sizeof *t->slots);
    memset(t, 0, sizeof *t);
}

/* ---- compilation state ------------------------------------------------ */

/* A pattern some group contributes: a rule, or an index.html extra. */
typedef struct cand {
    uint32_t line, priority;
    uint8_t allow, anchored;
    const char *text; /* google-escaped pattern, for RULES (E.6)   */
    uint32_t text_len;
    const uint8_t *mb; /* bytes matched ('$' anchor stripped)     */
    uint32_t mlen;
    uint32_t rank; /* 0 until some set uses it */
} cand;

/* An agent line naming a token: (token, group). */
typedef struct agent_ref {
    const char *tok; /* lower-cased */
    uint32_t len, group, agent;
} agent_ref;

typedef struct ctx {
    rsc_mem m;
    const rsc_ir *ir;
    const rsc_compile_options *opt;
    char *arena; /* extras' texts and normalised bytes, sized up front */
    size_t arena_len, arena_cap;
    char *tokens; /* lower-cased agent tokens */
    const char **agent_low; /* per IR agent: its lower-cased token */
    size_t tokens_cap;
    cand *cands;
    size_t n_cands, cap_cands;
    uint32_t *gc_first, *gc_n; /* per IR group: its candidates */
    agent_ref *refs;
    size_t n_refs;
    uint32_t *order;   /* refs in AGENTS order */
    uint32_t *key_pos; /* token key k: order[key_pos[k] .. key_pos[k+1]) */
    uint32_t *agent_key; /* per IR agent in a group, not global: its key */
    size_t n_keys;     /* token keys; the global key (if any) is extra */
    int has_global;
    uint32_t *key_set; /* per key (tokens, then global): selection id */
    uint32_t *scratch; /* n_cands + n_groups + 1 */
    interner glists;   /* distinct lists of groups of the keys */
    interner sets;     /* units: candidate lists, each compiled to one program */
    interner sels;     /* selections: lists of units (note [selections]) */
    uint32_t *glist_set; /* per group list: its selection */
    size_t cap_glist_set;
    int per_group;       /* note [selections] */
    uint32_t *group_unit;   /* per group: its unit in per-group mode */
    uint32_t *unit_scratch; /* n_groups + 1 */
    uint32_t *rules; /* cand indices by rank, worst first */
    size_t n_rules;
    uint32_t *unit_prog; /* per unit: its first program, or NIL when empty */
    uint32_t *unit_nprog; /* per unit: its programs (several: note [split]) */
    uint32_t n_programs;
    rsc_buf progs;     /* the encoded programs, back to back */
    rsc_buf prog_ends; /* u32 end of each program within progs */
    rsc_strpool strs;
    rsc_buf sec[RSC_SEC_LAST_KNOWN + 1];
} ctx;

static char *arena_take(ctx *c, size_t n)
{
    char *p = c->arena + c->arena_len;
    c->arena_len += n;
    return p; /* the arena is sized up front: never overflows */
}

/* spec, top (rfc profile 2): the pattern normalised as the runtime
 * normalises paths (runtime/codec.h, one implementation for both). Never
 * longer than its input as the input is already escaped (spec D). */
static size_t rfc_normalise(const char *src, size_t n, uint8_t *dst)
{
    size_t o = 0, used;
    for (size_t i = 0; i < n; i += used) {
        uint8_t out[3];
        unsigned k = rsc_pct_normal((const uint8_t *)src + i, n - i, out, &used);
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
        uint8_t *d = (uint8_t *)arena_take(c, len);
        x->mlen = (uint32_t)rfc_normalise(text, len, d);
        x->mb = d;
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
    c->n_cands++;
    return RSC_OK;
}

static rsc_status make_cands(ctx *c)
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
    c->gc_first = rsc_mem_calloc(&c->m, ir->n_groups + 1, sizeof *c->gc_first);
    c->gc_n = rsc_mem_calloc(&c->m, ir->n_groups + 1, sizeof *c->gc_n);
    if (!c->arena || !c->cands || !c->gc_first || !c->gc_n)
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
            if (!ru->allow)
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

/* Rank order, worst first: (priority, allow, -line) (E.6, E.7). */
static int cmp_rank(const void *vctx, uint32_t a, uint32_t b)
{
    const cand *x = &((const ctx *)vctx)->cands[a], *y = &((const ctx *)vctx)->cands[b];
    if (x->priority != y->priority)
        return x->priority < y->priority ? -1 : 1;
    if (x->allow != y->allow)
        return x->allow < y->allow ? -1 : 1;
    if (x->line != y->line)
        return x->line > y->line ? -1 : 1;
    return 0;
}

/* Same matched pattern first, then best rank first. */
static int cmp_pattern(const void *vctx, uint32_t a, uint32_t b)
{
    const cand *x = &((const ctx *)vctx)->cands[a], *y = &((const ctx *)vctx)->cands[b];
    int d = rsc_bytes_cmp(x->mb, x->mlen, y->mb, y->mlen);
    if (d)
        return d;
    if (x->anchored != y->anchored)
        return x->anchored < y->anchored ? -1 : 1;
    return -cmp_rank(vctx, a, b);
}

static int same_pattern(const cand *x, const cand *y)
{
    return x->mlen == y->mlen && x->anchored == y->anchored && memcmp(x->mb, y->mb, x->mlen) == 0;
}

/* AGENTS order: bytes, then shorter first; then by group. */
static int cmp_ref(const void *vctx, uint32_t a, uint32_t b)
{
    const agent_ref *x = &((const ctx *)vctx)->refs[a], *y = &((const ctx *)vctx)->refs[b];
    int d = rsc_bytes_cmp(x->tok, x->len, y->tok, y->len);
    if (d)
        return d;
    return x->group < y->group ? -1 : x->group > y->group;
}

/* Keys: the distinct tokens of non-global agent lines (F.2, lower-cased)
 * in AGENTS order, and whether some group names the global agent (F.1). */
static rsc_status make_keys(ctx *c)
{
    const rsc_ir *ir = c->ir;
    size_t tok_bytes = 0;
    for (size_t i = 0; i < ir->n_agents; i++)
        tok_bytes += ir->agents[i].token.len;
    c->tokens_cap = tok_bytes + 1;
    c->tokens = rsc_mem_alloc(&c->m, c->tokens_cap);
    c->refs = rsc_mem_calloc(&c->m, ir->n_agents + 1, sizeof *c->refs);
    c->order = rsc_mem_calloc(&c->m, ir->n_agents + 1, sizeof *c->order);
    c->agent_low = rsc_mem_calloc(&c->m, ir->n_agents + 1, sizeof *c->agent_low);
    c->key_pos = rsc_mem_calloc(&c->m, ir->n_agents + 1, sizeof *c->key_pos);
    c->key_set = rsc_mem_calloc(&c->m, ir->n_agents + 1, sizeof *c->key_set);
    c->agent_key = rsc_mem_calloc(&c->m, ir->n_agents + 1, sizeof *c->agent_key);
    if (!c->tokens || !c->refs || !c->order || !c->key_pos || !c->key_set || !c->agent_low ||
        !c->agent_key)
        return RSC_E_NOMEM;
    size_t at = 0;
    for (size_t i = 0; i < ir->n_agents; i++) {
        const rsc_agent *a = &ir->agents[i];
        if (a->token.len > UINT32_MAX)
            return RSC_E_LIMIT;
        for (size_t k = 0; k < a->token.len; k++) {
            char ch = a->token.ptr[k];
            c->tokens[at + k] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
        }
        c->agent_low[i] = c->tokens + at;
        if (a->group == RSC_NO_GROUP || a->group >= ir->n_groups) {
            at += a->token.len;
            continue;
        }
        if (a->global) {
            c->has_global = 1;
            at += a->token.len;
            continue;
        }
        agent_ref *r = &c->refs[c->n_refs];
        r->tok = c->tokens + at;
        r->len = (uint32_t)a->token.len;
        r->group = a->group;
        r->agent = (uint32_t)i;
        c->order[c->n_refs] = (uint32_t)c->n_refs;
        c->n_refs++;
        at += a->token.len;
    }
    if (msort(&c->m, c->order, c->n_refs, cmp_ref, c) != 0)
        return RSC_E_NOMEM;
    for (size_t i = 0; i < c->n_refs; i++) {
        if (i > 0) {
            const agent_ref *p = &c->refs[c->order[i - 1]], *r = &c->refs[c->order[i]];
            if (p->len == r->len && memcmp(p->tok, r->tok, r->len) == 0)
                continue;
        }
        c->key_pos[c->n_keys++] = (uint32_t)i;
    }
    c->key_pos[c->n_keys] = (uint32_t)c->n_refs;
    for (size_t k = 0; k < c->n_keys; k++)
        for (uint32_t i = c->key_pos[k]; i < c->key_pos[k + 1]; i++)
            c->agent_key[c->refs[c->order[i]].agent] = (uint32_t)k;
    return RSC_OK;
}

/* The set of a list of groups (F.5): their candidates, duplicates reduced
 * to the best rank, in rank order; interned into c->sets. */
static rsc_status set_of_groups(ctx *c, const uint32_t *gl, size_t ng, uint32_t *set)
{
    uint32_t *l = c->scratch;
    size_t n = 0;
    for (size_t i = 0; i < ng; i++)
        for (uint32_t k = 0; k < c->gc_n[gl[i]]; k++)
            l[n++] = c->gc_first[gl[i]] + k;
    if (msort(&c->m, l, n, cmp_pattern, c) != 0)
        return RSC_E_NOMEM;
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (w == 0 || !same_pattern(&c->cands[l[w - 1]], &c->cands[l[i]]))
            l[w++] = l[i];
    if (msort(&c->m, l, w, cmp_rank, c) != 0)
        return RSC_E_NOMEM;
    return intern(&c->m, &c->sets, l, w, set);
}

/* note [selections]
 * A key (an agent token, or the global key) selects the union of the rule
 * sets of the groups naming it (F.5). Normally that union is one unit,
 * compiled into one program, memoised by the key's list of groups.
 * But a file can name thousands of agents, each in one big shared group and
 * in a small group of its own: then every key has a different union and
 * the big group would be compiled once per agent. When the distinct unions
 * hold more than twice the file's patterns, each group becomes a unit of its
 * own instead, and a key selects the units of its groups: results combine
 * by maximum of ranks either way (FORMAT.md), and no pattern is compiled
 * twice, so the cost stays linear in the file (docs/LIMITS.md). */
static rsc_status glist_selection(ctx *c, const uint32_t *gl, size_t ng, uint32_t *sel)
{
    uint32_t *units = c->unit_scratch;
    size_t nu = 0;
    rsc_status st = RSC_OK;
    if (!c->per_group) {
        st = set_of_groups(c, gl, ng, &units[0]);
        nu = st == RSC_OK && c->sets.n[units[0]] ? 1 : 0;
    } else {
        for (size_t i = 0; i < ng && st == RSC_OK; i++) {
            uint32_t *u = &c->group_unit[gl[i]];
            if (*u == UINT32_MAX)
                st = set_of_groups(c, &gl[i], 1, u);
            if (st == RSC_OK && c->sets.n[*u])
                units[nu++] = *u;
        }
    }
    if (st != RSC_OK)
        return st;
    return intern(&c->m, &c->sels, units, nu, sel);
}

/* The list of groups of key k (ascending), into gl; returns its length. */
static size_t key_groups(ctx *c, size_t k, uint32_t *gl)
{
    const rsc_ir *ir = c->ir;
    size_t ng = 0;
    if (k < c->n_keys) {
        for (uint32_t i = c->key_pos[k]; i < c->key_pos[k + 1]; i++) {
            uint32_t g = c->refs[c->order[i]].group; /* ascending within a key */
            if (ng == 0 || gl[ng - 1] != g)
                gl[ng++] = g;
        }
        return ng;
    }
    for (size_t i = 0; i < ir->n_agents; i++) {
        const rsc_agent *a = &ir->agents[i];
        if (!a->global || a->group == RSC_NO_GROUP || a->group >= ir->n_groups)
            continue;
        if (ng == 0 || gl[ng - 1] != a->group)
            gl[ng++] = a->group;
    }
    return ng;
}

static rsc_status make_sets(ctx *c)
{
    const rsc_ir *ir = c->ir;
    rsc_mem *m = &c->m;
    size_t n_keys = c->n_keys + (c->has_global ? 1 : 0);
    c->scratch = rsc_mem_calloc(m, c->n_cands + ir->n_groups + 1, sizeof *c->scratch);
    c->unit_scratch = rsc_mem_calloc(m, ir->n_groups + 1, sizeof *c->unit_scratch);
    c->group_unit = rsc_mem_calloc(m, ir->n_groups + 1, sizeof *c->group_unit);
    if (!c->scratch || !c->unit_scratch || !c->group_unit)
        return RSC_E_NOMEM;
    for (size_t g = 0; g <= ir->n_groups; g++)
        c->group_unit[g] = UINT32_MAX;
    uint32_t *gl = c->scratch + c->n_cands;
    /* The distinct group lists; key_set[k] holds the list id for now. */
    for (size_t k = 0; k < n_keys; k++) {
        size_t ng = key_groups(c, k, gl);
        rsc_status st = intern(m, &c->glists, gl, ng, &c->key_set[k]);
        if (st != RSC_OK)
            return st;
    }
    size_t cost = 0;
    for (size_t e = 0; e < c->glists.count; e++)
        for (uint32_t i = 0; i < c->glists.n[e]; i++)
            cost += c->gc_n[c->glists.data[c->glists.first[e] + i]];
    c->per_group = cost > 2 * c->n_cands + 4096;
    size_t cap = 0;
    if (rsc_mem_grow(m, (void **)&c->glist_set, sizeof *c->glist_set, &cap, c->glists.count + 1) != 0)
        return RSC_E_NOMEM;
    c->cap_glist_set = cap;
    for (size_t e = 0; e < c->glists.count; e++) {
        size_t ng = c->glists.n[e];
        memcpy(gl, c->glists.data + c->glists.first[e], ng * sizeof *gl);
        rsc_status st = glist_selection(c, gl, ng, &c->glist_set[e]);
        if (st != RSC_OK)
            return st;
    }
    for (size_t k = 0; k < n_keys; k++)
        c->key_set[k] = c->glist_set[c->key_set[k]];
    return RSC_OK;
}

/* RULES: every candidate some set uses, worst first; rank = index + 1. */
static rsc_status make_rules(ctx *c)
{
    for (size_t i = 0; i < c->sets.len; i++)
        c->cands[c->sets.data[i]].rank = 1;
    c->rules = rsc_mem_calloc(&c->m, c->n_cands + 1, sizeof *c->rules);
    if (!c->rules)
        return RSC_E_NOMEM;
    for (size_t i = 0; i < c->n_cands; i++)
        if (c->cands[i].rank)
            c->rules[c->n_rules++] = (uint32_t)i;
    if (msort(&c->m, c->rules, c->n_rules, cmp_rank, c) != 0)
        return RSC_E_NOMEM;
    if (c->n_rules >= UINT32_MAX / 16)
        return RSC_E_LIMIT;
    for (size_t i = 0; i < c->n_rules; i++)
        c->cands[c->rules[i]].rank = (uint32_t)i + 1;
    return RSC_OK;
}

/* A pattern with a wildcard tail: a '*' followed by more than stars. */
static int is_glob(const rsc_tpat *p)
{
    const uint8_t *star = p->len ? memchr(p->bytes, '*', p->len) : NULL;
    if (!star)
        return 0;
    for (const uint8_t *q = star; q < p->bytes + p->len; q++)
        if (*q != '*')
            return 1;
    return 0;
}

static rsc_status push_program(ctx *c)
{
    if (c->progs.len > UINT32_MAX)
        return RSC_E_LIMIT;
    if (rsc_buf_u32(&c->m, &c->prog_ends, (uint32_t)c->progs.len) != 0)
        return RSC_E_NOMEM;
    c->n_programs++;
    return RSC_OK;
}

/* note [split]
 * A program's wildcard part has budgets (format.h, RSC_MAX_LEVELS ...) that
 * bound the matcher's work per path byte and its stack. A rule set over a
 * budget becomes several programs: the literal rules and the better half
 * of the wildcard rules, then the other half, each split again while over.
 * Results combine by the maximum of ranks (FORMAT.md, SETS), so the verdict
 * is the same; each program costs one more pass over the path, which is
 * the price docs/LIMITS.md states. pats[0..n) is in rank order, worst
 * first; scratch holds n entries. */
static rsc_status emit_split(ctx *c, rsc_tpat *pats, size_t n, rsc_tpat *scratch, uint32_t *count)
{
    rsc_status st = rsc_trie_emit(&c->m, pats, n, c->opt->no_prune, &c->progs, NULL);
    if (st == RSC_OK) {
        (*count)++;
        return push_program(c);
    }
    if (st != RSC_OVER_BUDGET)
        return st;
    size_t ng = 0;
    for (size_t i = 0; i < n; i++)
        ng += is_glob(&pats[i]);
    if (ng < 2)
        return RSC_E_LIMIT; /* one rule over the budgets on its own */
    /* A: literal rules and the best ng/2 wildcard rules (the last ones);
     * B: the other wildcard rules. Rank order is kept in both. */
    size_t keep = ng / 2, na = 0, nb = 0, seen = 0;
    for (size_t i = 0; i < n; i++) {
        int gl = is_glob(&pats[i]);
        if (gl && seen++ < ng - keep)
            scratch[n - 1 - nb++] = pats[i]; /* B, reversed for now */
        else
            scratch[na++] = pats[i];
    }
    for (size_t i = 0; i < nb / 2; i++) { /* B back in rank order */
        rsc_tpat t = scratch[na + i];
        scratch[na + i] = scratch[n - 1 - i];
        scratch[n - 1 - i] = t;
    }
    memcpy(pats, scratch, n * sizeof *pats);
    if ((st = emit_split(c, pats, na, scratch, count)) != RSC_OK)
        return st;
    return emit_split(c, pats + na, nb, scratch, count);
}

static rsc_status make_programs(ctx *c)
{
    rsc_mem *m = &c->m;
    size_t ns = c->sets.count;
    c->unit_prog = rsc_mem_calloc(m, ns + 1, sizeof *c->unit_prog);
    c->unit_nprog = rsc_mem_calloc(m, ns + 1, sizeof *c->unit_nprog);
    if (!c->unit_prog || !c->unit_nprog)
        return RSC_E_NOMEM;
    for (size_t s = 0; s < ns; s++) {
        size_t n = c->sets.n[s];
        c->unit_prog[s] = UINT32_MAX;
        if (n == 0)
            continue; /* an empty set allows everything: no program */
        const uint32_t *l = c->sets.data + c->sets.first[s];
        rsc_tpat *pats = rsc_mem_calloc(m, 2 * n, sizeof *pats);
        if (!pats)
            return RSC_E_NOMEM;
        for (size_t i = 0; i < n; i++) {
            const cand *x = &c->cands[l[i]];
            pats[i].bytes = x->mb;
            pats[i].len = x->mlen;
            pats[i].rank = x->rank;
            pats[i].anchored = x->anchored;
        }
        uint32_t first = c->n_programs, count = 0;
        rsc_status st = emit_split(c, pats, n, pats + n, &count);
        rsc_mem_free(m, pats, 2 * n * sizeof *pats);
        if (st != RSC_OK)
            return st;
        c->unit_prog[s] = first;
        c->unit_nprog[s] = count;
    }
    return RSC_OK;
}

/* ---- sections ---------------------------------------------------------- */

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

static rsc_status make_sections(ctx *c)
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
            STR_REF(x->text, x->text_len, &v[i * cols + 1]);
            if (cols == RSC_RULES_COLS_RFC)
                STR_REF(x->mb, (size_t)x->mlen + x->anchored, &v[i * cols + 3]);
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

static void ctx_free(ctx *c)
{
    rsc_mem *m = &c->m;
    rsc_mem_free(m, c->arena, c->arena_cap);
    rsc_mem_free(m, c->tokens, c->tokens_cap);
    rsc_mem_free(m, c->cands, c->cap_cands * sizeof *c->cands);
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
    intern_free(m, &c->glists); /* after its users: this zeroes the counts */
    intern_free(m, &c->sets);
    intern_free(m, &c->sels);
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
    rsc_status st = make_cands(&c);
    if (st == RSC_OK)
        st = make_keys(&c);
    if (st == RSC_OK)
        st = make_sets(&c);
    if (st == RSC_OK)
        st = make_rules(&c);
    if (st == RSC_OK)
        st = make_programs(&c);
    if (st == RSC_OK)
        st = make_sections(&c);
    if (st == RSC_OK) {
        rsc_section secs[RSC_SEC_LAST_KNOWN];
        for (uint16_t id = 1; id <= RSC_SEC_LAST_KNOWN; id++) {
            secs[id - 1].id = id;
            secs[id - 1].data = c.sec[id].p;
            secs[id - 1].size = c.sec[id].len;
        }
        st = rsc_emit_blob(&c.m, opt->profile == RSC_PROFILE_RFC ? (uint8_t)RSC_FLAG_PROFILE_RFC : 0,
                           secs, RSC_SEC_LAST_KNOWN, out);
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
    rsc_status st = rsc_parse(body ? body : "", len, &po, &ir);
    if (st != RSC_OK)
        return st;
    st = rsc_compile_ir(ir, opt, out);
    rsc_ir_free(ir);
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
