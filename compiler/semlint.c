/* SPDX-License-Identifier: Apache-2.0 */
/* Semantic lint (rsc_semlint): what the syntax lint (lint.c) cannot see.
 * Dead rules are found exactly: the IR is compiled with nothing pruned,
 * each distinct rule set of the blob is checked rule by rule (note [live
 * rules]) and a rule is live when some path is decided by it in some
 * selection its group is part of. The proof sketch of a dead rule names a
 * single higher-ranked rule whose paths include all of its own when there
 * is one (a duplicate, an equivalent or a shadowing rule), checked by
 * exploring the two rules together. Directive values are judged by the
 * runtime's own parsers (rsc_crawl_delay, rsc_request_rate) on a one-group
 * file, so lint and crawlers never disagree about what is valid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "format.h"
#include "program.h"
#include "robotsc/compiler.h"

static const char *const sl_names[RSC_SL_COUNT] = {
#define RSC_X_(e, n, s, m) n,
    RSC_SEMLINTS(RSC_X_)
#undef RSC_X_
};
static const char *const sl_messages[RSC_SL_COUNT] = {
#define RSC_X_(e, n, s, m) m,
    RSC_SEMLINTS(RSC_X_)
#undef RSC_X_
};
static const int sl_severity[RSC_SL_COUNT] = {
#define RSC_X_(e, n, s, m) s,
    RSC_SEMLINTS(RSC_X_)
#undef RSC_X_
};

const char *rsc_semlint_name(int c)
{
    return c >= 0 && c < RSC_SL_COUNT ? sl_names[c] : NULL;
}
const char *rsc_semlint_message(int c)
{
    return c >= 0 && c < RSC_SL_COUNT ? sl_messages[c] : NULL;
}
int rsc_semlint_severity(int c)
{
    return c >= 0 && c < RSC_SL_COUNT ? sl_severity[c] : 0;
}

/* ---- collected diagnostics, reported in line order ---------------------------- */

typedef struct sdiag {
    uint32_t seq;
    int code;
    uint32_t line, other;
    char detail[240];
} sdiag;

typedef struct sl {
    rsc_mem m;
    const rsc_ir *ir;
    const rsc_explore_options *opt;
    sdiag *d;
    size_t n, cap;
    size_t covers_left; /* pair walks the proof sketches may still make */
} sl;

static int add(sl *s, int code, uint32_t line, uint32_t other, const char *fmt, const char *a, size_t an)
{
    if (rsc_mem_grow(&s->m, (void **)&s->d, sizeof *s->d, &s->cap, s->n + 1) != 0)
        return -1;
    sdiag *x = &s->d[s->n++];
    x->seq = (uint32_t)s->n;
    x->code = code, x->line = line, x->other = other;
    x->detail[0] = 0;
    if (fmt) {
        char v[160];
        size_t k = 0;
        for (size_t i = 0; i < an && k + 5 < sizeof v; i++) { /* printable, else \xHH */
            unsigned char c = (unsigned char)a[i];
            if (c >= 0x20 && c < 0x7f)
                v[k++] = (char)c;
            else
                k += (size_t)snprintf(v + k, 5, "\\x%02X", c);
        }
        v[k] = 0;
        snprintf(x->detail, sizeof x->detail, fmt, v);
    }
    return 0;
}

static int ieq(const char *a, size_t n, const char *lit)
{
    size_t l = strlen(lit);
    if (n != l)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = a[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c + 32);
        if (c != lit[i])
            return 0;
    }
    return 1;
}

/* Whether the runtime accepts value as the directive key (a one-group file). */
static int value_valid(const char *key, rsc_str v)
{
    char body[600];
    for (size_t i = 0; i < v.len; i++)
        if (v.ptr[i] == '\n' || v.ptr[i] == '\r' || v.ptr[i] == '#' || v.ptr[i] == 0)
            return 0;
    if (v.len > 400)
        return 0;
    int n = snprintf(body, sizeof body, "user-agent: a\n%s: %.*s\n", key, (int)v.len, v.ptr);
    rsc_blob b = {NULL, 0};
    rsc_program p;
    rsc_selection s;
    rsc_bytes a = {"a", 1};
    int ok = 0;
    if (rsc_compile(body, (size_t)n, NULL, &b) == RSC_OK && rsc_load(&p, b.data, b.size, NULL) == RSC_OK &&
        rsc_select(&p, &a, 1, &s) == RSC_OK) {
        double sec;
        uint32_t req;
        ok = key[0] == 'c' ? rsc_crawl_delay(&s, &sec) : rsc_request_rate(&s, &req, &sec);
    }
    rsc_blob_free(&b, NULL);
    return ok;
}

static int record_checks(sl *s)
{
    const rsc_ir *ir = s->ir;
    for (size_t i = 0; i < ir->n_agents; i++)
        if (ir->agents[i].raw.len == 0 && add(s, RSC_SL_EMPTY_AGENT, ir->agents[i].line, 0, NULL, NULL, 0))
            return -1;
    for (size_t g = 0; g < ir->n_groups; g++) {
        const rsc_group *gr = &ir->groups[g];
        int selectable = 0;
        for (uint32_t k = gr->first_agent; k < gr->first_agent + gr->n_agents; k++)
            selectable |= ir->agents[k].global || ir->agents[k].token.len > 0;
        if (!selectable && add(s, RSC_SL_UNSELECTABLE_GROUP, gr->line, 0, NULL, NULL, 0))
            return -1;
    }
    static const char *const unsupported[] = {"noindex", "nofollow", "noarchive", "host", "clean-param",
                                              "unavailable_after", "noimageindex", "nosnippet"};
    for (size_t i = 0; i < ir->n_directives; i++) {
        const rsc_directive *d = &ir->directives[i];
        int r = 0;
        if (ieq(d->key.ptr, d->key.len, "crawl-delay")) {
            if (!value_valid("crawl-delay", d->raw))
                r = add(s, RSC_SL_BAD_CRAWL_DELAY, d->line, 0, "'%s'", d->raw.ptr, d->raw.len);
        } else if (ieq(d->key.ptr, d->key.len, "request-rate")) {
            if (!value_valid("request-rate", d->raw))
                r = add(s, RSC_SL_BAD_REQUEST_RATE, d->line, 0, "'%s'", d->raw.ptr, d->raw.len);
        } else {
            for (size_t u = 0; u < sizeof unsupported / sizeof *unsupported; u++)
                if (ieq(d->key.ptr, d->key.len, unsupported[u]))
                    r = add(s, RSC_SL_UNSUPPORTED, d->line, 0, "%s", d->key.ptr, d->key.len);
        }
        if (r)
            return -1;
    }
    for (size_t i = 0; i < ir->n_sitemaps; i++) {
        rsc_str u = ir->sitemaps[i].url;
        size_t k = u.len >= 7 && ieq(u.ptr, 7, "http://") ? 7 : u.len >= 8 && ieq(u.ptr, 8, "https://") ? 8 : 0;
        int ok = k > 0 && u.len > k && u.ptr[k] != '/';
        for (size_t j = 0; j < u.len && ok; j++)
            ok = (unsigned char)u.ptr[j] > 0x20 && (unsigned char)u.ptr[j] != 0x7f;
        if (!ok && add(s, RSC_SL_SITEMAP_NOT_URL, ir->sitemaps[i].line, 0, "'%s'", u.ptr, u.len))
            return -1;
    }
    return 0;
}

/* ---- dead rules ------------------------------------------------------------- */

typedef struct live_ctx {
    rsc_xdfa *x;
    uint8_t *decides; /* per rule of the list */
} live_ctx;

static int live_visit(void *ud, rsc_xwalk *w, uint32_t node, uint32_t sa, uint32_t sb, int exempt)
{
    live_ctx *c = ud;
    int allowed;
    (void)w, (void)node, (void)sb;
    int32_t e = rsc_xdfa_end(c->x, sa, &allowed);
    if (e >= 0 && !exempt)
        c->decides[e] = 1;
    return 0;
}

/* note [live rules]
 * A rule r of a list is live when some path (spec G: it starts with '/',
 * holds no NUL and no '#'; rfc: no byte >= 0x80 and not the exempt
 * "/robots.txt") is decided by it: r matches the path and no rule ranked
 * above r does. Rules ranked below r play no part. First a cheap proof:
 * r's own text with its '*' removed (after a "/" when it starts with '*')
 * is such a path when r decides it, so r is live (the common case). For
 * the others, the explorer answers the question exactly: the list of r
 * and the rules above it, r as the only rule of verdict "disallow" and the
 * others, like "no rule", as "allow" (RSC_X_VERDICT), has a reachable path
 * whose verdict is "disallow" exactly when r decides some path. That walk
 * is small for a duplicate or a shadowed rule (subset.h, note [dominance]
 * drops its positions as soon as a rule above covers them) and stops at
 * the first witness otherwise; each walk has the budget, and the walks of
 * one list together four times it: a rule beyond it is unknown, never
 * called dead. */

/* Whether pattern p (a prefix of w, or all of w when anchored) matches w. */
static int glob(const uint8_t *p, size_t pn, int anchored, const uint8_t *w, size_t wn)
{
    size_t i = 0, j = 0, si = SIZE_MAX, sj = 0;
    for (;;) {
        if (i == pn && (!anchored || j == wn))
            return 1;
        if (i < pn && p[i] == '*') {
            si = i++, sj = j;
            continue;
        }
        if (i < pn && j < wn && p[i] == w[j]) {
            i++, j++;
            continue;
        }
        if (si == SIZE_MAX || sj >= wn)
            return 0;
        i = si + 1, j = ++sj; /* the last '*' takes one byte more */
    }
}

/* The cheap proof of note [live rules]: whether list[k] decides its own
 * text. */
static int decides_own_text(const rsc_xrule *list, size_t n, size_t k, int rfc, uint8_t *buf)
{
    const rsc_xrule *r = &list[k];
    size_t wn = 0;
    if (r->len == 0 || r->bytes[0] != '/')
        buf[wn++] = '/';
    for (uint32_t i = 0; i < r->len; i++) {
        uint8_t c = r->bytes[i];
        if (c == 0 || c == '#' || (rfc && c >= 0x80))
            return 0;
        if (c != '*')
            buf[wn++] = c;
    }
    if (rfc && wn == 11 && memcmp(buf, "/robots.txt", 11) == 0)
        return 0;
    if (!glob(r->bytes, r->len, r->anchored, buf, wn))
        return 0;
    for (size_t h = k + 1; h < n; h++) /* the list is in rank order */
        if (glob(list[h].bytes, list[h].len, list[h].anchored, buf, wn))
            return 0;
    return 1;
}

typedef struct one_ctx {
    rsc_xdfa *x;
    int found;
} one_ctx;

static int one_visit(void *ud, rsc_xwalk *w, uint32_t node, uint32_t sa, uint32_t sb, int exempt)
{
    one_ctx *c = ud;
    int allowed;
    (void)w, (void)node, (void)sb;
    rsc_xdfa_end(c->x, sa, &allowed);
    if (!allowed && !exempt) {
        c->found = 1;
        return 1;
    }
    return 0;
}

/* dec[k] for each rule of list (in rank order): 1 live, 0 dead, 2 unknown
 * (note [live rules]). */
static rsc_status live_rules(rsc_mem *m, const rsc_xrule *list, size_t n, int rfc, size_t budget,
                             size_t max_words, uint8_t *dec)
{
    size_t maxlen = 1;
    for (size_t k = 0; k < n; k++)
        maxlen = list[k].len + 1 > maxlen ? list[k].len + 1 : maxlen;
    uint8_t *buf = rsc_mem_alloc(m, maxlen + 1);
    rsc_xrule *tmp = rsc_mem_calloc(m, n + 1, sizeof *tmp);
    rsc_status st = buf && tmp ? RSC_OK : RSC_E_NOMEM;
    size_t spent = 0;
    for (size_t k = 0; st == RSC_OK && k < n; k++) {
        if (decides_own_text(list, n, k, rfc, buf)) {
            dec[k] = 1;
            continue;
        }
        if (spent >= 4 * budget) {
            dec[k] = 2;
            continue;
        }
        size_t nt = n - k;
        memcpy(tmp, list + k, nt * sizeof *tmp);
        tmp[0].allow = 0;
        for (size_t h = 1; h < nt; h++)
            tmp[h].allow = 1;
        rsc_xdfa *x = NULL;
        rsc_xwalk *w = NULL;
        one_ctx c = {NULL, 0};
        rsc_status s2 = rsc_xdfa_new(m, tmp, nt, RSC_X_VERDICT, 2 * budget + 16, max_words, &x);
        if (s2 == RSC_OK) {
            c.x = x;
            s2 = rsc_xwalk_run(m, x, NULL, rfc, budget, one_visit, &c, &w);
        }
        spent += rsc_xwalk_nodes(w);
        rsc_xwalk_free(w);
        rsc_xdfa_free(x);
        if (s2 == RSC_E_NOMEM)
            st = s2;
        dec[k] = c.found ? 1 : s2 == RSC_OK ? 0 : 2;
    }
    rsc_mem_free(m, buf, maxlen + 1);
    rsc_mem_free(m, tmp, (n + 1) * sizeof *tmp);
    return st;
}

/* Whether every path rule a matches is matched by rule b too (in pair[0],
 * pair[1]: ranks 1 and 2). -1: unknown (budget). */
static int covers(rsc_mem *m, const rsc_xrule *a, const rsc_xrule *b, int rfc)
{
    rsc_xrule pair[2] = {*a, *b};
    pair[0].rank = 1, pair[1].rank = 2;
    rsc_xdfa *x = NULL;
    uint8_t dec[2] = {0, 0};
    rsc_status st = rsc_xdfa_new(m, pair, 2, RSC_X_RANK, 4096, 1u << 20, &x);
    if (st == RSC_OK) {
        live_ctx c = {x, dec};
        st = rsc_xwalk_run(m, x, NULL, rfc, 4096, live_visit, &c, NULL);
    }
    rsc_xdfa_free(x);
    return st != RSC_OK ? -1 : !dec[0];
}

static int same_text(const rsc_xrule *a, const rsc_xrule *b)
{
    return a->len == b->len && a->anchored == b->anchored && memcmp(a->bytes, b->bytes, a->len) == 0;
}

static void say_rule(char *buf, size_t cap, const rsc_xrule *w)
{
    char v[120];
    size_t k = 0;
    for (uint32_t i = 0; i < w->len && k + 6 < sizeof v; i++) {
        unsigned char c = w->bytes[i];
        if (c >= 0x20 && c < 0x7f)
            v[k++] = (char)c;
        else
            k += (size_t)snprintf(v + k, 5, "\\x%02X", c);
    }
    if (w->anchored)
        v[k++] = '$';
    v[k] = 0;
    snprintf(buf, cap, "line %u, %s: %s", w->line, w->allow ? "Allow" : "Disallow", v);
}

/* The proof sketch of dead rule (IR rule ru) in a rule list. */
static int sketch(sl *s, const rsc_rule *ru, const rsc_xrule *list, size_t n, int rfc)
{
    /* its entry: the longest with its line (not an index.html extra) */
    const rsc_xrule *r = NULL;
    for (size_t i = 0; i < n; i++)
        if (list[i].line == ru->line && (!r || list[i].len > r->len))
            r = &list[i];
    char who[200];
    rsc_xrule own;
    if (!r) {
        /* not in the programs at all: a trie node keeps the best rank of
         * the rules ending there (a duplicate, or "/a" beside "/a*"); the
         * rule as written stands in for the sketch */
        size_t pl = ru->pattern.len;
        memset(&own, 0, sizeof own);
        own.anchored = pl > 1 && ru->pattern.ptr[pl - 1] == '$';
        own.bytes = (const uint8_t *)ru->pattern.ptr;
        own.len = (uint32_t)(pl - own.anchored);
        own.allow = ru->allow;
        own.line = ru->line;
        own.rank = 0; /* below every rule of the list: any may win */
        for (size_t i = 0; i < n; i++) /* an equal-or-better rank: priority, then allow, then line */
            if (list[i].line < ru->line && same_text(&list[i], &own) && list[i].allow == own.allow) {
                say_rule(who, sizeof who, &list[i]);
                return add(s, RSC_SL_DEAD_RULE, ru->line, list[i].line, "duplicate of %s", who, strlen(who));
            }
        r = &own;
    }
    size_t tried = 0; /* 64 candidates a rule, 4096 pair walks a file: bounded on any input */
    int sure = 1;     /* every candidate was checked to the end */
    for (size_t i = 0; i < n; i++) {
        if (tried >= 64 || s->covers_left == 0) {
            sure = 0;
            break;
        }
        const rsc_xrule *w = &list[i];
        if (w->rank <= r->rank || w->line == r->line)
            continue;
        if (r == &own) { /* outranks it? (E.6, E.7: priority, allow, earlier line) */
            uint32_t pw = w->len + w->anchored, pr = r->len + r->anchored;
            int better = pw != pr ? pw > pr : w->allow != r->allow ? w->allow : w->line < r->line;
            if (!better)
                continue;
        }
        /* literal prefixes that disagree: no path matches both */
        size_t k = 0;
        while (k < r->len && k < w->len && r->bytes[k] != '*' && w->bytes[k] != '*' && r->bytes[k] == w->bytes[k])
            k++;
        if (k < r->len && k < w->len && r->bytes[k] != '*' && w->bytes[k] != '*')
            continue;
        tried++;
        int dup = same_text(r, w), cv = dup ? 1 : (s->covers_left--, covers(&s->m, r, w, rfc));
        sure &= cv >= 0;
        if (cv != 1)
            continue;
        say_rule(who, sizeof who, w);
        const char *fmt;
        if (dup)
            fmt = "duplicate of %s";
        else if (s->covers_left > 0 && (s->covers_left--, covers(&s->m, w, r, rfc) == 1))
            fmt = "equivalent to %s, which outranks it";
        else if (w->allow != r->allow)
            fmt = "shadowed by %s of the other kind, which matches every path it matches and outranks it";
        else
            fmt = "shadowed by %s, which matches every path it matches and outranks it";
        return add(s, RSC_SL_DEAD_RULE, ru->line, w->line, fmt, who, strlen(who));
    }
    return add(s, RSC_SL_DEAD_RULE, ru->line, 0,
               sure ? "every path it matches is decided by higher-ranked rules (no single one covers it)%s"
                    : "every path it matches is decided by higher-ranked rules%s",
               "", 0);
}

/* The AGENTS row of a token (lower-cased compare), or -1. */
static int64_t agent_row(const rsc_program *p, rsc_str tok)
{
    for (uint32_t i = 0; i < PRIV(p, P_AGENTS_N); i++) {
        rsc_bytes t;
        rsc_blob_agent(p, i, &t);
        if (t.len == tok.len) {
            size_t j = 0;
            for (; j < t.len; j++) {
                char c = tok.ptr[j];
                if (c >= 'A' && c <= 'Z')
                    c = (char)(c + 32);
                if (c != t.ptr[j])
                    break;
            }
            if (j == t.len)
                return i;
        }
    }
    return -1;
}

/* An explored rule list: groups often repeat one list (a file's groups
 * for several crawlers), and the explorer reads only the texts, anchors,
 * verdicts and rank order, so an equal list decides through the same
 * entries. */
typedef struct seen_list {
    rsc_xrule *list;
    size_t n;
    uint8_t *dec; /* live_rules() */
} seen_list;

static int same_list(const rsc_xrule *a, const rsc_xrule *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].len != b[i].len || a[i].anchored != b[i].anchored || a[i].allow != b[i].allow ||
            memcmp(a[i].bytes, b[i].bytes, a[i].len) != 0)
            return 0;
    return 1;
}

static rsc_status dead_rules(sl *s)
{
    const rsc_ir *ir = s->ir;
    rsc_compile_options co;
    memset(&co, 0, sizeof co);
    co.profile = ir->profile;
    co.no_prune = RSC_COMPILE_NO_PRUNE | RSC_COMPILE_NO_DFA; /* the programs are what it reads */
    rsc_blob blob = {NULL, 0};
    rsc_program p;
    rsc_status st = rsc_compile_ir(ir, &co, &blob);
    if (st == RSC_OK && rsc_load(&p, blob.data, blob.size, NULL) != RSC_OK)
        st = RSC_E_CORRUPT;
    if (st != RSC_OK) {
        rsc_blob_free(&blob, &co);
        return st == RSC_E_NOMEM ? st : RSC_OK; /* nothing to say about a file over the limits */
    }
    const int rfc = ir->profile == RSC_PROFILE_RFC;
    uint32_t nsets = PRIV(&p, P_SETS) ? PRIV(&p, P_SETS_N) : PRIV(&p, P_PROGS_N);
    /* per set: 0 not analysed, 1 done, 2 over budget */
    uint8_t *state = rsc_mem_calloc(&s->m, (size_t)nsets + 1, 1);
    seen_list *seen = NULL;
    size_t n_seen = 0, cap_seen = 0;
    /* per line: 1 live somewhere, 2 unknown somewhere */
    size_t nlines = ir->n_lines + 2;
    uint8_t *live = rsc_mem_calloc(&s->m, nlines, 1);
    uint32_t *first_set = rsc_mem_calloc(&s->m, ir->n_groups + 1, sizeof *first_set);
    if (!state || !live || !first_set)
        st = RSC_E_NOMEM;
    /* the sets of each group's selections */
    for (size_t g = 0; st == RSC_OK && g < ir->n_groups; g++) {
        const rsc_group *gr = &ir->groups[g];
        first_set[g] = UINT32_MAX;
        for (uint32_t k = gr->first_agent; st == RSC_OK && k < gr->first_agent + gr->n_agents; k++) {
            const rsc_agent *ag = &ir->agents[k];
            int64_t set = -1;
            if (ag->global)
                set = PRIV(&p, P_GLOBAL) ? (int64_t)PRIV(&p, P_GLOBAL) - 1 : -1;
            else if (ag->token.len) {
                int64_t row = agent_row(&p, ag->token);
                set = row >= 0 ? (int64_t)rsc_tab(&p, P_AGENTS, (uint32_t)row, 2) : -1;
            }
            if (set < 0 || (uint32_t)set >= nsets)
                continue;
            if (first_set[g] == UINT32_MAX)
                first_set[g] = (uint32_t)set;
            if (state[set])
                continue;
            rsc_xrule *list = NULL;
            size_t n = 0;
            uint32_t sid = (uint32_t)set;
            st = rsc_xrules_of_sets(&s->m, &p, &sid, 1, &list, &n);
            const seen_list *old = NULL;
            for (size_t k2 = 0; st == RSC_OK && k2 < n_seen && !old; k2++)
                if (seen[k2].n == n && same_list(seen[k2].list, list, n))
                    old = &seen[k2];
            uint8_t *dec = st == RSC_OK ? rsc_mem_calloc(&s->m, n + 1, 1) : NULL;
            if (st == RSC_OK && !dec)
                st = RSC_E_NOMEM;
            size_t budget = s->opt && s->opt->max_states ? s->opt->max_states : RSC_X_DEFAULT_NODES;
            if (st == RSC_OK && old) {
                memcpy(dec, old->dec, n);
            } else {
                if (st == RSC_OK)
                    st = live_rules(&s->m, list, n, rfc, budget, s->opt ? s->opt->max_words : 0, dec);
                if (st == RSC_OK &&
                    rsc_mem_grow(&s->m, (void **)&seen, sizeof *seen, &cap_seen, n_seen + 1) == 0) {
                    seen_list *sv = &seen[n_seen];
                    sv->list = rsc_mem_alloc(&s->m, (n + 1) * sizeof *list);
                    sv->dec = rsc_mem_alloc(&s->m, n + 1);
                    if (sv->list && sv->dec) {
                        memcpy(sv->list, list, n * sizeof *list);
                        memcpy(sv->dec, dec, n);
                        sv->n = n;
                        n_seen++;
                    } else {
                        rsc_mem_free(&s->m, sv->list, (n + 1) * sizeof *list);
                        rsc_mem_free(&s->m, sv->dec, n + 1);
                    }
                }
            }
            state[set] = 1;
            int over = 0;
            for (size_t i = 0; st == RSC_OK && i < n; i++) {
                over |= dec[i] == 2;
                if (dec[i] && list[i].line < nlines)
                    live[list[i].line] |= dec[i];
            }
            if (st == RSC_OK && over)
                st = add(s, RSC_SL_BUDGET, gr->line, 0, NULL, NULL, 0) ? RSC_E_NOMEM : RSC_OK;
            rsc_mem_free(&s->m, dec, n + 1);
            rsc_mem_free(&s->m, list, (n + 1) * sizeof *list);
        }
    }
    /* every rule that could match, of a selectable group: live, unknown or dead */
    rsc_xrule *list = NULL; /* the rules of set list_sid, kept for the next dead rule */
    size_t n = 0;
    uint32_t list_sid = UINT32_MAX;
    for (size_t g = 0; st == RSC_OK && g < ir->n_groups; g++) {
        const rsc_group *gr = &ir->groups[g];
        if (first_set[g] == UINT32_MAX)
            continue;
        for (uint32_t k = gr->first_rule; st == RSC_OK && k < gr->first_rule + gr->n_rules; k++) {
            const rsc_rule *ru = &ir->rules[k];
            rsc_str pt = ru->pattern;
            if (pt.len == 0 || (pt.ptr[0] != '/' && pt.ptr[0] != '*') || ru->line >= nlines || live[ru->line])
                continue; /* empty (E.5) or never matching (the syntax lint's dead-pattern) */
            /* a rule that decides in no set is dead in all: the sketch
             * comes from its group's first set */
            uint32_t sid = first_set[g];
            if (sid != list_sid) {
                rsc_mem_free(&s->m, list, (n + 1) * sizeof *list);
                list = NULL, n = 0, list_sid = UINT32_MAX;
                st = rsc_xrules_of_sets(&s->m, &p, &sid, 1, &list, &n);
                if (st == RSC_OK)
                    list_sid = sid;
            }
            if (st == RSC_OK && sketch(s, ru, list, n, rfc) != 0)
                st = RSC_E_NOMEM;
        }
    }
    rsc_mem_free(&s->m, list, (n + 1) * sizeof *list);
    for (size_t k = 0; k < n_seen; k++) {
        rsc_mem_free(&s->m, seen[k].list, (seen[k].n + 1) * sizeof *seen[k].list);
        rsc_mem_free(&s->m, seen[k].dec, seen[k].n + 1);
    }
    rsc_mem_free(&s->m, seen, cap_seen * sizeof *seen);
    rsc_mem_free(&s->m, state, (size_t)nsets + 1);
    rsc_mem_free(&s->m, live, nlines);
    rsc_mem_free(&s->m, first_set, (ir->n_groups + 1) * sizeof *first_set);
    rsc_blob_free(&blob, &co);
    return st;
}

static int cmp_diag(const void *a, const void *b)
{
    const sdiag *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

rsc_status rsc_semlint(const rsc_ir *ir, const rsc_explore_options *opt, rsc_semdiag_fn fn, void *ud)
{
    if (!ir || !fn)
        return RSC_E_ARG;
    sl s;
    memset(&s, 0, sizeof s);
    rsc_mem_init(&s.m, opt ? opt->alloc : NULL, opt ? opt->alloc_ud : NULL);
    s.ir = ir;
    s.opt = opt;
    s.covers_left = 4096;
    rsc_status st = record_checks(&s) ? RSC_E_NOMEM : RSC_OK;
    if (st == RSC_OK)
        st = dead_rules(&s);
    if (st == RSC_OK) {
        if (s.n)
            qsort(s.d, s.n, sizeof *s.d, cmp_diag); /* line order, then as found */
        for (size_t i = 0; i < s.n; i++) {
            rsc_semdiag d = {s.d[i].code, s.d[i].line, s.d[i].other, s.d[i].detail, strlen(s.d[i].detail)};
            fn(ud, &d);
        }
    }
    rsc_mem_free(&s.m, s.d, s.cap * sizeof *s.d);
    return st;
}
