/* SPDX-License-Identifier: Apache-2.0 */
/* The IR of a robots.txt (include/robotsc/ir.h): rsc_parse() drives the
 * lexer and the grammar and builds the IR through the actions below; plus
 * the small spec helpers (agent extraction, escaping, lint records).
 *
 * Memory: one block for the rsc_ir and its private part, one arena for the
 * body copy and the escaped values, and one array per IR table (grown by
 * doubling). Everything is linear in the body. */
#include <stdio.h>
#include <string.h>

#include "front.h"
#include "mem.h"

typedef struct ir_box {
    rsc_ir ir;
    rsc_ir_priv pv;
} ir_box;

/* ---- spec helpers ------------------------------------------------------ */

static int is_agent_byte(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '-';
}

/* Spec F.2: the token is the longest prefix of [A-Za-z_-]. */
size_t rsc_extract_agent(const char *value, size_t len)
{
    size_t n = 0;
    while (n < len && is_agent_byte((unsigned char)value[n]))
        n++;
    return n;
}

int rsc_is_valid_agent(const char *agent, size_t len)
{
    return len > 0 && rsc_extract_agent(agent, len) == len;
}

static int is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static char upper_hex(unsigned char c)
{
    return (char)(c >= 'a' && c <= 'f' ? c - 'a' + 'A' : c);
}

/* Spec D.1: "%xx" gets upper-case hex digits, bytes >= 0x80 become %XX,
 * everything else (invalid escapes included) is copied. */
size_t rsc_escape_pattern(const char *src, size_t len, char *dst)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *s = (const unsigned char *)src;
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        /* most bytes are copied as they are: eight at a time while none is
         * '%' or above 0x7f (a zero byte of w ^ '%'... is a '%') */
        for (uint64_t w, x; len - i >= 8; i += 8, o += 8) {
            memcpy(&w, s + i, 8);
            x = w ^ 0x2525252525252525u;
            if ((w | ((x - 0x0101010101010101u) & ~x)) & 0x8080808080808080u)
                break;
            memcpy(dst + o, &w, 8);
        }
        if (i == len)
            break;
        unsigned char c = s[i];
        if (c == '%' && i + 2 < len && is_hex(s[i + 1]) && is_hex(s[i + 2])) {
            dst[o++] = '%';
            dst[o++] = upper_hex(s[i + 1]);
            dst[o++] = upper_hex(s[i + 2]);
            i += 2;
        } else if (c >= 0x80) {
            dst[o++] = '%';
            dst[o++] = hex[c >> 4];
            dst[o++] = hex[c & 15];
        } else {
            dst[o++] = (char)c;
        }
    }
    return o;
}

const char *rsc_tag_name(int tag)
{
    switch (tag) {
    case RSC_TAG_USER_AGENT: return "UserAgent";
    case RSC_TAG_ALLOW: return "Allow";
    case RSC_TAG_DISALLOW: return "Disallow";
    case RSC_TAG_SITEMAP: return "Sitemap";
    case RSC_TAG_UNUSED: return "Unused";
    default: return "Unknown";
    }
}

size_t rsc_ir_record(const rsc_ir *ir, size_t i, char *buf, size_t size)
{
    if (!ir || i >= ir->n_lines) {
        if (size)
            buf[0] = 0;
        return 0;
    }
    const rsc_line *l = &ir->lines[i];
    int n = snprintf(buf, size,
                     "line=%lu tag=%s typo=%d is_empty=%d has_comment=%d is_comment=%d "
                     "has_directive=%d is_acceptable_typo=%d is_line_too_long=%d "
                     "is_missing_colon_separator=%d",
                     (unsigned long)l->number, rsc_tag_name(l->tag), l->is_acceptable_typo,
                     l->is_empty, l->has_comment, l->is_comment, l->has_directive,
                     l->is_acceptable_typo, l->is_line_too_long, l->is_missing_colon_separator);
    return n < 0 ? 0 : (size_t)n;
}

/* ---- content heuristics (lint only) -------------------------------------- */

#define SNIFF_LEN 1024u

/* Of a 64-bit word w: the top bit of a byte is set in the result for the
 * lowest byte below k (k <= 128), so it is nonzero exactly when some byte
 * is; a borrow only reaches bytes above that one. */
#define SWAR_ONES 0x0101010101010101u
#define SWAR_ANY_BELOW(w, k) (((w) - SWAR_ONES * (k)) & ~(w) & (SWAR_ONES * 0x80u))

/* The bytes >= 0x80 of s[0..n), eight at a time: their top bits summed
 * into the top byte of a multiply. */
static size_t count_high(const unsigned char *s, size_t n)
{
    size_t high = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        high += (size_t)((((w >> 7) & SWAR_ONES) * SWAR_ONES) >> 56);
    }
    for (; i < n; i++)
        high += s[i] >= 0x80;
    return high;
}

static int lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int has_tag_ci(const unsigned char *s, size_t n, const char *tag)
{
    size_t t = strlen(tag);
    for (size_t i = 0; i + t <= n; i++) {
        size_t k = 0;
        while (k < t && lower(s[i + k]) == (unsigned char)tag[k])
            k++;
        if (k == t)
            return 1;
    }
    return 0;
}

/* HTML: the first non-blank byte is '<' and an html/doctype/head/body tag
 * stands in the first KiB (an error page served as robots.txt). */
static int sniff_html(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ||
                     s[i] == '\v' || s[i] == '\f'))
        i++;
    if (i == n || s[i] != '<')
        return 0;
    n = n - i < SNIFF_LEN ? n - i : SNIFF_LEN;
    s += i;
    return has_tag_ci(s, n, "<html") || has_tag_ci(s, n, "<!doctype") ||
           has_tag_ci(s, n, "<head") || has_tag_ci(s, n, "<body");
}

/* Binary: gzip magic, a UTF-16 BOM, a NUL, or many control bytes in the
 * first KiB. */
static int sniff_binary(const unsigned char *s, size_t n)
{
    if (n >= 2 && ((s[0] == 0x1f && s[1] == 0x8b) || (s[0] == 0xff && s[1] == 0xfe) ||
                   (s[0] == 0xfe && s[1] == 0xff)))
        return 1;
    if (n > SNIFF_LEN)
        n = SNIFF_LEN;
    size_t ctl = 0, i = 0;
    while (i < n) {
        /* eight bytes at a time while none is below 0x20 or 0x7f */
        if (i + 8 <= n) {
            uint64_t w, d;
            memcpy(&w, s + i, 8);
            d = w ^ 0x7f7f7f7f7f7f7f7fu;
            if (!(SWAR_ANY_BELOW(w, 0x20) | SWAR_ANY_BELOW(d, 0x01))) {
                i += 8;
                continue;
            }
        }
        for (size_t e = n - i < 8 ? n : i + 8; i < e; i++) {
            unsigned char c = s[i];
            if (c == 0)
                return 1;
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\v' &&
                 c != '\f') ||
                c == 0x7f)
                ctl++;
        }
    }
    return ctl >= 4 && ctl * 16 > n;
}

/* ---- builder: the grammar's actions ------------------------------------- */

static rsc_str body_str(const rsc_front *f, uint32_t off, uint32_t len)
{
    rsc_str s = {(const char *)f->body + off, len};
    return s;
}

/* Escapes a value into the arena. The arena has room for all of them: the
 * values are disjoint parts of the body and escaping grows a value by two
 * bytes per byte >= 0x80 (see rsc_parse). */
static rsc_str escaped_str(rsc_front *f, uint32_t off, uint32_t len)
{
    rsc_ir_priv *pv = f->pv;
    char *dst = pv->arena + pv->arena_used;
    size_t n = rsc_escape_pattern((const char *)f->body + off, len, dst);
    pv->arena_used += n;
    rsc_str s = {dst, n};
    return s;
}

#define GROW(f, field, cap, need)                                                        \
    rsc_mem_grow(&(f)->pv->mem, (void **)&(f)->ir->field, sizeof *(f)->ir->field,        \
                 &(f)->pv->cap, (need))

long rsc_build_line(rsc_front *f, const rsc_line *l)
{
    rsc_ir *ir = f->ir;
    if (GROW(f, lines, cap_lines, ir->n_lines + 1))
        return -1;
    ir->lines[ir->n_lines] = *l;
    return (long)ir->n_lines++;
}

int rsc_build_group(rsc_front *f, const rsc_tok *t)
{
    rsc_ir *ir = f->ir;
    if (GROW(f, groups, cap_groups, ir->n_groups + 1))
        return -1;
    rsc_group *g = &ir->groups[ir->n_groups];
    g->line = t->line + 1;
    g->first_agent = (uint32_t)ir->n_agents;
    g->n_agents = 0;
    g->first_rule = (uint32_t)ir->n_rules;
    g->n_rules = 0;
    f->cur_group = (uint32_t)ir->n_groups++;
    return 0;
}

int rsc_build_agent(rsc_front *f, const rsc_tok *t)
{
    rsc_ir *ir = f->ir;
    if (GROW(f, agents, cap_agents, ir->n_agents + 1))
        return -1;
    rsc_agent *a = &ir->agents[ir->n_agents++];
    a->line = t->line + 1;
    a->group = f->cur_group;
    a->raw = body_str(f, t->val_off, t->val_len);
    const char *v = a->raw.ptr;
    size_t n = a->raw.len;
    /* Spec F.1: "*" alone or followed by whitespace (the value is trimmed,
     * so only inner whitespace can follow). */
    a->global = (uint8_t)(n >= 1 && v[0] == '*' &&
                          (n == 1 || v[1] == ' ' || v[1] == '\t' || v[1] == '\n' ||
                           v[1] == '\v' || v[1] == '\f' || v[1] == '\r'));
    a->token = body_str(f, t->val_off, a->global ? 0 : (uint32_t)rsc_extract_agent(v, n));
    ir->groups[f->cur_group].n_agents++;
    return 0;
}

int rsc_build_rule(rsc_front *f, const rsc_tok *t, int allow, uint32_t group)
{
    rsc_ir *ir = f->ir;
    if (GROW(f, rules, cap_rules, ir->n_rules + 1))
        return -1;
    rsc_rule *r = &ir->rules[ir->n_rules++];
    r->line = t->line + 1;
    r->group = group;
    r->allow = (uint8_t)(allow != 0);
    r->raw = body_str(f, t->val_off, t->val_len);
    r->pattern = escaped_str(f, t->val_off, t->val_len);
    r->priority = (uint32_t)r->pattern.len; /* spec E.6 */
    if (group != RSC_NO_GROUP)
        ir->groups[group].n_rules++;
    return 0;
}

int rsc_build_sitemap(rsc_front *f, const rsc_tok *t)
{
    rsc_ir *ir = f->ir;
    if (GROW(f, sitemaps, cap_sitemaps, ir->n_sitemaps + 1))
        return -1;
    rsc_sitemap *s = &ir->sitemaps[ir->n_sitemaps++];
    s->line = t->line + 1;
    s->url = body_str(f, t->val_off, t->val_len); /* spec H: raw */
    return 0;
}

int rsc_build_directive(rsc_front *f, const rsc_tok *t)
{
    rsc_ir *ir = f->ir;
    if (GROW(f, directives, cap_directives, ir->n_directives + 1))
        return -1;
    rsc_directive *d = &ir->directives[ir->n_directives++];
    d->line = t->line + 1;
    d->group = f->cur_group;
    d->key = body_str(f, t->key_off, t->key_len);
    d->raw = body_str(f, t->val_off, t->val_len);
    d->value = escaped_str(f, t->val_off, t->val_len);
    return 0;
}

/* ---- parse / free --------------------------------------------------------- */

void rsc_ir_free(rsc_ir *ir)
{
    if (!ir)
        return;
    ir_box *box = (ir_box *)ir;
    rsc_ir_priv *pv = &box->pv;
    rsc_mem *m = &pv->mem;
    rsc_mem_free(m, ir->lines, pv->cap_lines * sizeof *ir->lines);
    rsc_mem_free(m, ir->groups, pv->cap_groups * sizeof *ir->groups);
    rsc_mem_free(m, ir->agents, pv->cap_agents * sizeof *ir->agents);
    rsc_mem_free(m, ir->rules, pv->cap_rules * sizeof *ir->rules);
    rsc_mem_free(m, ir->sitemaps, pv->cap_sitemaps * sizeof *ir->sitemaps);
    rsc_mem_free(m, ir->directives, pv->cap_directives * sizeof *ir->directives);
    rsc_mem_free(m, pv->arena, pv->arena_size);
    rsc_mem mcopy = *m; /* the box holds the allocator; free it last */
    rsc_mem_free(&mcopy, box, sizeof *box);
}

rsc_status rsc_parse(const void *body, size_t len, const rsc_parse_options *opt, rsc_ir **out)
{
    if (!out)
        return RSC_E_ARG;
    *out = NULL;
    if (!body && len)
        return RSC_E_ARG;
    rsc_parse_options dflt = {RSC_PROFILE_GOOGLE, NULL, NULL};
    if (!opt)
        opt = &dflt;
    if (opt->profile != RSC_PROFILE_GOOGLE && opt->profile != RSC_PROFILE_RFC)
        return RSC_E_ARG;

    rsc_mem mem;
    rsc_mem_init(&mem, opt->alloc, opt->alloc_ud);
    ir_box *box = rsc_mem_calloc(&mem, 1, sizeof *box);
    if (!box)
        return RSC_E_NOMEM;
    rsc_ir *ir = &box->ir;
    rsc_ir_priv *pv = &box->pv;
    pv->mem = mem;
    ir->priv = pv;
    ir->profile = opt->profile;

    /* Spec, top: only the first 500 KiB are parsed, in both profiles. */
    const unsigned char *in = body ? body : (const unsigned char *)"";
    ir->input_len = len;
    ir->body_len = len > RSC_MAX_BODY ? RSC_MAX_BODY : len;
    ir->truncated = len > RSC_MAX_BODY;

    /* Spec A.1: skip the longest prefix of EF BB BF. */
    static const unsigned char bom[3] = {0xef, 0xbb, 0xbf};
    uint32_t b = 0;
    while (b < 3 && b < ir->body_len && in[b] == bom[b])
        b++;
    ir->bom_len = b;

    ir->looks_html = (uint8_t)sniff_html(in + b, ir->body_len - b);
    ir->looks_binary = (uint8_t)sniff_binary(in, ir->body_len);

    /* Arena: the body (after the BOM) plus a NUL sentinel for the lexer,
     * then the escaped values: at most n + 2 * (bytes >= 0x80) in all. */
    size_t n = ir->body_len - b, high = count_high(in + b, n);
    pv->arena_size = n + 1 + n + 2 * high;
    pv->arena = rsc_mem_alloc(&pv->mem, pv->arena_size);
    if (!pv->arena) {
        pv->arena_size = 0;
        rsc_ir_free(ir);
        return RSC_E_NOMEM;
    }
    if (n)
        memcpy(pv->arena, in + b, n);
    pv->arena[n] = 0;
    pv->arena_used = n + 1;

    rsc_front f;
    memset(&f, 0, sizeof f);
    f.ir = ir;
    f.pv = pv;
    f.body = (const unsigned char *)pv->arena;
    f.len = n;
    f.cur_group = RSC_NO_GROUP;
    rsc_lex_init(&f);
    /* No pass to count lines and rules first: the tables grow by doubling
     * from 32 rows, which measured faster at every file size (a second lex
     * of the body cost more than the copies). */
    int rc = rsc_front_parse(&f);
    if (rc != 0 || pv->mem.failed) {
        rsc_ir_free(ir);
        return RSC_E_NOMEM;
    }
    *out = ir;
    return RSC_OK;
}
