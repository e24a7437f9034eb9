/* SPDX-License-Identifier: Apache-2.0 */
#include "front_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_robots.h"

static int fail(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (n)
        vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

static int str_eq(rsc_str a, const char *b, size_t blen)
{
    return a.len == blen && (blen == 0 || memcmp(a.ptr, b, blen) == 0);
}

/* Is s a substring of hay? (naive; lines are short in practice) */
static int inside(rsc_str s, const unsigned char *hay, size_t hlen)
{
    if (s.len == 0)
        return 1;
    for (size_t i = 0; i + s.len <= hlen; i++)
        if (hay[i] == (unsigned char)s.ptr[0] && memcmp(hay + i, s.ptr, s.len) == 0)
            return 1;
    return 0;
}

static int escaped_ok(rsc_str raw, rsc_str pat)
{
    char *buf = malloc(raw.len * 3 + 1);
    if (!buf)
        return 0;
    size_t k = rsc_escape_pattern(raw.ptr, raw.len, buf);
    int ok = str_eq(pat, buf, k);
    free(buf);
    return ok;
}

static int is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

int fc_invariants(const rsc_ir *ir, const void *body, size_t len, char *why, size_t n)
{
    const unsigned char *in = body;
    size_t blen = len > RSC_MAX_BODY ? RSC_MAX_BODY : len;
    if (ir->input_len != len || ir->body_len != blen || ir->truncated != (len > RSC_MAX_BODY))
        return fail(why, n, "sizes: input %zu body %zu trunc %d", ir->input_len, ir->body_len,
                    ir->truncated);
    if (ir->bom_len > 3 || ir->bom_len > blen)
        return fail(why, n, "bom_len %u", ir->bom_len);
    if (ir->n_lines == 0)
        return fail(why, n, "no lines (spec A.3: at least one)");
    size_t cnt[6] = {0}, unknown_keys = 0;
    for (size_t i = 0; i < ir->n_lines; i++) {
        const rsc_line *l = &ir->lines[i];
        if (l->number != i + 1)
            return fail(why, n, "line %zu numbered %u", i + 1, l->number);
        if (l->offset < ir->bom_len || (size_t)l->offset + l->length > blen)
            return fail(why, n, "line %u span %u+%u outside body", l->number, l->offset,
                        l->length);
        if (i == 0 && l->offset != ir->bom_len)
            return fail(why, n, "line 1 starts at %u", l->offset);
        if (i + 1 < ir->n_lines && ir->lines[i + 1].offset < (size_t)l->offset + l->length + 1)
            return fail(why, n, "line %u overlaps the next", l->number);
        if (i + 1 == ir->n_lines && (size_t)l->offset + l->length != blen)
            return fail(why, n, "last line does not end the body");
        if (l->tag > RSC_TAG_UNUSED)
            return fail(why, n, "line %u tag %u", l->number, l->tag);
        if (l->is_line_too_long != (l->length > RSC_MAX_LINE))
            return fail(why, n, "line %u too-long flag", l->number);
        if (l->has_directive + l->is_empty + l->is_comment > 1 ||
            (l->is_comment && !l->has_comment) ||
            (!l->has_directive && (l->tag != RSC_TAG_UNKNOWN || l->is_acceptable_typo ||
                                   l->is_missing_colon_separator)))
            return fail(why, n, "line %u inconsistent flags", l->number);
        if (l->has_directive)
            cnt[l->tag]++;
        if (l->has_directive && (l->tag == RSC_TAG_UNKNOWN || l->tag == RSC_TAG_UNUSED))
            unknown_keys++;
    }
    if (cnt[RSC_TAG_USER_AGENT] != ir->n_agents ||
        cnt[RSC_TAG_ALLOW] + cnt[RSC_TAG_DISALLOW] != ir->n_rules ||
        cnt[RSC_TAG_SITEMAP] != ir->n_sitemaps || unknown_keys != ir->n_directives)
        return fail(why, n, "counts: agents %zu rules %zu sitemaps %zu directives %zu",
                    ir->n_agents, ir->n_rules, ir->n_sitemaps, ir->n_directives);

#define LINE_OF(x) (&ir->lines[(x) - 1])
#define LINE_TEXT(l) (in + (l)->offset), ((l)->length > RSC_MAX_LINE ? RSC_MAX_LINE : (l)->length)
    /* Groups and agents (spec F.1-F.3). */
    size_t a_sum = 0;
    for (size_t g = 0; g < ir->n_groups; g++) {
        const rsc_group *gr = &ir->groups[g];
        if (gr->first_agent != a_sum || gr->n_agents == 0)
            return fail(why, n, "group %zu agent range", g);
        a_sum += gr->n_agents;
        if (a_sum > ir->n_agents || ir->agents[gr->first_agent].line != gr->line)
            return fail(why, n, "group %zu agents", g);
        if (g + 1 < ir->n_groups && gr->n_rules == 0)
            return fail(why, n, "group %zu has no rule but is not the last (F.3)", g);
        if ((size_t)gr->first_rule + gr->n_rules > ir->n_rules)
            return fail(why, n, "group %zu rule range", g);
        for (uint32_t k = 0; k < gr->n_rules; k++)
            if (ir->rules[gr->first_rule + k].group != g)
                return fail(why, n, "group %zu rule %u belongs elsewhere", g, k);
        uint32_t last_agent_line = ir->agents[gr->first_agent + gr->n_agents - 1].line;
        if (gr->n_rules && ir->rules[gr->first_rule].line < last_agent_line)
            return fail(why, n, "group %zu: a rule before its last agent", g);
        if (g + 1 < ir->n_groups && gr->n_rules &&
            ir->rules[gr->first_rule + gr->n_rules - 1].line > ir->groups[g + 1].line)
            return fail(why, n, "group %zu: a rule after the next group", g);
    }
    if (a_sum != ir->n_agents)
        return fail(why, n, "agents outside groups");
    for (size_t i = 0; i < ir->n_agents; i++) {
        const rsc_agent *a = &ir->agents[i];
        if (a->group >= ir->n_groups || i < ir->groups[a->group].first_agent ||
            i >= ir->groups[a->group].first_agent + ir->groups[a->group].n_agents)
            return fail(why, n, "agent %zu group", i);
        if (i && a->line <= ir->agents[i - 1].line)
            return fail(why, n, "agent %zu out of order", i);
        if (a->line < 1 || a->line > ir->n_lines || LINE_OF(a->line)->tag != RSC_TAG_USER_AGENT)
            return fail(why, n, "agent %zu line %u", i, a->line);
        if (!a->raw.ptr || !a->token.ptr || !inside(a->raw, LINE_TEXT(LINE_OF(a->line))))
            return fail(why, n, "agent %zu raw", i);
        int global = a->raw.len && a->raw.ptr[0] == '*' &&
                     (a->raw.len == 1 || is_ws((unsigned char)a->raw.ptr[1]));
        size_t tok = global ? 0 : rsc_extract_agent(a->raw.ptr, a->raw.len);
        if (a->global != global || !str_eq(a->token, a->raw.ptr, tok))
            return fail(why, n, "agent %zu global/token (F.1, F.2)", i);
    }
    /* Rules (spec D, E.6, F.4). */
    for (size_t i = 0; i < ir->n_rules; i++) {
        const rsc_rule *r = &ir->rules[i];
        if (i && r->line <= ir->rules[i - 1].line)
            return fail(why, n, "rule %zu out of order", i);
        if (r->line < 1 || r->line > ir->n_lines)
            return fail(why, n, "rule %zu line", i);
        const rsc_line *l = LINE_OF(r->line);
        if (l->tag != (r->allow ? RSC_TAG_ALLOW : RSC_TAG_DISALLOW))
            return fail(why, n, "rule %zu tag", i);
        if (r->priority != r->pattern.len || !r->raw.ptr || !r->pattern.ptr ||
            !escaped_ok(r->raw, r->pattern) || !inside(r->raw, LINE_TEXT(l)))
            return fail(why, n, "rule %zu pattern/priority (D, E.6)", i);
        if (r->group == RSC_NO_GROUP) {
            if (ir->n_groups && r->line > ir->groups[0].line)
                return fail(why, n, "rule %zu: no group after the first agent (F.4)", i);
        } else if (r->group >= ir->n_groups || r->line < ir->groups[r->group].line) {
            return fail(why, n, "rule %zu group", i);
        }
    }
    for (size_t i = 0; i < ir->n_sitemaps; i++) {
        const rsc_sitemap *s = &ir->sitemaps[i];
        if ((i && s->line <= ir->sitemaps[i - 1].line) || s->line < 1 || s->line > ir->n_lines ||
            LINE_OF(s->line)->tag != RSC_TAG_SITEMAP || !s->url.ptr ||
            !inside(s->url, LINE_TEXT(LINE_OF(s->line))))
            return fail(why, n, "sitemap %zu", i);
    }
    size_t g = 0;
    for (size_t i = 0; i < ir->n_directives; i++) {
        const rsc_directive *d = &ir->directives[i];
        if ((i && d->line <= ir->directives[i - 1].line) || d->line < 1 || d->line > ir->n_lines)
            return fail(why, n, "directive %zu line", i);
        const rsc_line *l = LINE_OF(d->line);
        if (!l->has_directive || (l->tag != RSC_TAG_UNKNOWN && l->tag != RSC_TAG_UNUSED) ||
            !d->key.ptr || d->key.len == 0 || !inside(d->key, LINE_TEXT(l)) ||
            !inside(d->raw, LINE_TEXT(l)) || !escaped_ok(d->raw, d->value))
            return fail(why, n, "directive %zu", i);
        while (g < ir->n_groups && ir->groups[g].line < d->line)
            g++;
        uint32_t want = g == 0 ? RSC_NO_GROUP : (uint32_t)(g - 1);
        if (d->group != want)
            return fail(why, n, "directive %zu group %u, want %u", i, d->group, want);
    }
    return 0;
#undef LINE_OF
#undef LINE_TEXT
}

/* ---- naive record oracle --------------------------------------------------- */

static int prefix_ci(const char *s, size_t n, const char *p)
{
    size_t k = strlen(p);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c + 32);
        if (c != p[i])
            return 0;
    }
    return 1;
}

static void oracle_line(char *buf, size_t blen, int too_long, rsc_line *out)
{
    memset(out, 0, sizeof *out);
    out->is_line_too_long = (uint8_t)too_long;
    buf[blen] = 0;
    char *line = buf; /* C string from here on: it ends at the first NUL */
    char *hash = strchr(line, '#');
    if (hash) {
        out->has_comment = 1;
        *hash = 0;
    }
    size_t a = 0, b = strlen(line);
    while (a < b && is_ws((unsigned char)line[a]))
        a++;
    while (b > a && is_ws((unsigned char)line[b - 1]))
        b--;
    line[b] = 0;
    line += a;
    if (!*line) {
        if (out->has_comment)
            out->is_comment = 1;
        else
            out->is_empty = 1;
        return;
    }
    char *sep = strchr(line, ':');
    int missing = 0;
    if (!sep) {
        sep = strpbrk(line, " \t");
        if (!sep)
            return;
        if (strpbrk(sep + strspn(sep, " \t"), " \t"))
            return;
        missing = 1;
    }
    size_t ka = 0, kb = (size_t)(sep - line);
    while (ka < kb && is_ws((unsigned char)line[ka]))
        ka++;
    while (kb > ka && is_ws((unsigned char)line[kb - 1]))
        kb--;
    if (ka == kb)
        return;
    out->has_directive = 1;
    out->is_missing_colon_separator = (uint8_t)missing;
    const char *k = line + ka;
    size_t kn = kb - ka;
    static const char *const unused[] = {"clean-param", "content-signal", "content-usage",
                                         "crawl-delay", "domain", "host", "noarchive",
                                         "nofollow", "noindex", "request-rate",
                                         "revisit-after", "visit-time"};
    if (prefix_ci(k, kn, "user-agent")) {
        out->tag = RSC_TAG_USER_AGENT;
    } else if (prefix_ci(k, kn, "useragent") || prefix_ci(k, kn, "user agent")) {
        out->tag = RSC_TAG_USER_AGENT;
        out->is_acceptable_typo = 1;
    } else if (prefix_ci(k, kn, "allow")) {
        out->tag = RSC_TAG_ALLOW;
    } else if (prefix_ci(k, kn, "disallow")) {
        out->tag = RSC_TAG_DISALLOW;
    } else if (prefix_ci(k, kn, "dissallow") || prefix_ci(k, kn, "dissalow") ||
               prefix_ci(k, kn, "disalow") || prefix_ci(k, kn, "diasllow") ||
               prefix_ci(k, kn, "disallaw")) {
        out->tag = RSC_TAG_DISALLOW;
        out->is_acceptable_typo = 1;
    } else if (prefix_ci(k, kn, "sitemap")) {
        out->tag = RSC_TAG_SITEMAP;
    } else if (prefix_ci(k, kn, "site-map")) {
        out->tag = RSC_TAG_SITEMAP;
        out->is_acceptable_typo = 1;
    } else {
        out->tag = RSC_TAG_UNKNOWN;
        for (size_t i = 0; i < sizeof unused / sizeof unused[0]; i++)
            if (kn == strlen(unused[i]) && prefix_ci(k, kn, unused[i]))
                out->tag = RSC_TAG_UNUSED;
    }
}

static int cmp_line(const rsc_ir *ir, size_t num, const rsc_line *want, char *why, size_t n)
{
    if (num > ir->n_lines)
        return fail(why, n, "oracle has line %zu, IR only %zu lines", num, ir->n_lines);
    const rsc_line *l = &ir->lines[num - 1];
    if (l->tag != want->tag || l->is_empty != want->is_empty ||
        l->has_comment != want->has_comment || l->is_comment != want->is_comment ||
        l->has_directive != want->has_directive ||
        l->is_acceptable_typo != want->is_acceptable_typo ||
        l->is_line_too_long != want->is_line_too_long ||
        l->is_missing_colon_separator != want->is_missing_colon_separator) {
        char got[256];
        rsc_ir_record(ir, num - 1, got, sizeof got);
        return fail(why, n, "line %zu: IR %s; oracle tag=%s e=%d hc=%d c=%d d=%d t=%d l=%d m=%d",
                    num, got, rsc_tag_name(want->tag), want->is_empty, want->has_comment,
                    want->is_comment, want->has_directive, want->is_acceptable_typo,
                    want->is_line_too_long, want->is_missing_colon_separator);
    }
    return 0;
}

int fc_records(const rsc_ir *ir, const void *body, size_t len, char *why, size_t n)
{
    const unsigned char *p = body;
    if (len > RSC_MAX_BODY)
        len = RSC_MAX_BODY;
    static const unsigned char bom[3] = {0xef, 0xbb, 0xbf};
    size_t i = 0;
    while (i < 3 && i < len && p[i] == bom[i])
        i++;
    char *buf = malloc(RSC_MAX_LINE + 1);
    if (!buf)
        return fail(why, n, "out of memory");
    size_t blen = 0, num = 0;
    int too_long = 0, last_cr = 0, rc = 0;
    rsc_line want;
    for (; i < len && rc == 0; i++) {
        unsigned char c = p[i];
        if (c != '\n' && c != '\r') {
            if (blen < RSC_MAX_LINE)
                buf[blen++] = (char)c;
            else
                too_long = 1;
            continue;
        }
        if (!(blen == 0 && last_cr && c == '\n')) {
            oracle_line(buf, blen, too_long, &want);
            rc = cmp_line(ir, ++num, &want, why, n);
            too_long = 0;
        }
        blen = 0;
        last_cr = c == '\r';
    }
    if (rc == 0) {
        oracle_line(buf, blen, too_long, &want);
        rc = cmp_line(ir, ++num, &want, why, n);
    }
    free(buf);
    if (rc == 0 && num != ir->n_lines)
        return fail(why, n, "oracle %zu lines, IR %zu", num, ir->n_lines);
    return rc;
}

/* ---- the reference parser (tests/ref) ---------------------------------------- */

int fc_against_ref(const rsc_ir *ir, const void *body, size_t len, char *why, size_t n)
{
    ref_robots r;
    if (ref_parse(&r, body, len, 0) != 0)
        return fail(why, n, "ref_parse: out of memory");
    size_t ia = 0, ir_ = 0, is = 0, id = 0;
    int rc = 0;
    for (size_t i = 0; i < r.n_lines && rc == 0; i++) {
        const ref_line *l = &r.lines[i];
        uint32_t num = (uint32_t)l->number;
        switch (l->key) {
        case REF_KEY_UA:
            if (ia >= ir->n_agents || ir->agents[ia].line != num ||
                !str_eq(ir->agents[ia].raw, l->value, l->value_len))
                rc = fail(why, n, "ref user-agent line %u differs", num);
            ia++;
            break;
        case REF_KEY_ALLOW:
        case REF_KEY_DISALLOW:
            if (ir_ >= ir->n_rules || ir->rules[ir_].line != num ||
                ir->rules[ir_].allow != (l->key == REF_KEY_ALLOW) ||
                !str_eq(ir->rules[ir_].pattern, l->value, l->value_len))
                rc = fail(why, n, "ref rule line %u differs", num);
            ir_++;
            break;
        case REF_KEY_SITEMAP:
            if (is >= ir->n_sitemaps || ir->sitemaps[is].line != num ||
                !str_eq(ir->sitemaps[is].url, l->value, l->value_len))
                rc = fail(why, n, "ref sitemap line %u differs", num);
            is++;
            break;
        default:
            if (id >= ir->n_directives || ir->directives[id].line != num ||
                !str_eq(ir->directives[id].value, l->value, l->value_len))
                rc = fail(why, n, "ref directive line %u differs", num);
            id++;
            break;
        }
    }
    if (rc == 0 && (ia != ir->n_agents || ir_ != ir->n_rules || is != ir->n_sitemaps ||
                    id != ir->n_directives))
        rc = fail(why, n, "ref has %zu/%zu/%zu/%zu agents/rules/sitemaps/directives, IR more",
                  ia, ir_, is, id);
    ref_free(&r);
    return rc;
}

int fc_all(const rsc_ir *ir, const void *body, size_t len, char *why, size_t n)
{
    if (fc_invariants(ir, body, len, why, n) || fc_records(ir, body, len, why, n) ||
        fc_against_ref(ir, body, len, why, n))
        return -1;
    return 0;
}
