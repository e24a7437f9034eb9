/* Matching on a verified program (docs/FORMAT.md, "Matching"). rsc_load()
 * has checked every offset, op and target, so nothing here re-checks the
 * blob: the only bounds are those of the caller's input. O(1) space. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format.h"
#include "program.h"
#include "robotsc/runtime.h"

#define PRIV(prog, f) ((prog)->priv[f])
#define AT(prog, off) ((prog)->base + (off))

#define STR(prog) AT(prog, PRIV(prog, P_STR_OFF))

int rsc_program_profile(const rsc_program *prog)
{
    return (prog->flags & RSC_FLAG_PROFILE_RFC) != 0;
}

/* ---- URL to path: spec G ---------------------------------------------- */

/* Bytes that start a path (G.3): '/', '?' and ';'. A table keeps the
 * scan at one load and one test per byte. */
static const uint8_t path_start[256] = {['/'] = 1, ['?'] = 1, [';'] = 1};

static size_t first_of(const char *u, size_t len, size_t from)
{
    while (from < len && !path_start[(uint8_t)u[from]])
        from++;
    return from;
}

/* Two short forward scans and one memchr. Nothing at or after the first '#'
 * can change the result (G.4), so that is where every scan stops: a '/',
 * '?' or ';' before the '#' rules out a scheme after it (G.2), and with none
 * before it the path is "/" anyway. A scheme's "://" can only sit just
 * before the first '/', '?' or ';' (its '/' is one of them), so one test
 * replaces a search (G.2). */
void rsc_url_path(const char *url, size_t len, size_t *off, size_t *plen,
                  int *slash)
{
    size_t s = len >= 2 && url[0] == '/' && url[1] == '/' ? 2 : 0; /* G.1 */
    const char *h = len > s ? memchr(url + s, '#', len - s) : NULL;
    size_t n = h ? (size_t)(h - url) : len; /* G.4 */
    size_t ps = first_of(url, n, s);
    if (ps > s && ps + 1 < n && url[ps - 1] == ':' && url[ps] == '/' &&
        url[ps + 1] == '/')
        ps = first_of(url, n, ps + 2); /* G.2, G.3 */
    if (ps == n) { /* G.3, G.4: the path is "/" */
        *off = 0, *plen = 0, *slash = 1;
        return;
    }
    *off = ps, *plen = n - ps, *slash = url[ps] != '/'; /* G.5 */
}

/* ---- Agent selection: spec F.2, F.6, F.7 ------------------------------ */

static uint8_t lower(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

/* Index of the AGENTS entry equal to lower(a) (ASCII), or NONE. Tokens
 * hold only [a-z_-], so an agent with any byte outside [A-Za-z_-] equals
 * none of them: it is used as given, not cut (F.2). */
static uint32_t find_agent(const rsc_program *prog, const uint8_t *a, size_t n)
{
    const uint8_t *tab = AT(prog, PRIV(prog, P_AGENTS)), *str = STR(prog);
    uint32_t lo = 0, hi = PRIV(prog, P_AGENT_COUNT);
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const uint8_t *t = str + rsc_rd32(tab + (size_t)mid * 12);
        size_t tl = rsc_rd32(tab + (size_t)mid * 12 + 4), k = 0;
        while (k < n && k < tl && lower(a[k]) == t[k])
            k++;
        int d = k < n && k < tl ? lower(a[k]) - t[k] : (n > tl) - (n < tl);
        if (d == 0)
            return mid;
        if (d < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return RSC_NONE;
}

/* Adds x to list[0..*n) unless present; 0 when full. */
static int add_unique(uint32_t *list, uint32_t *n, uint32_t x)
{
    for (uint32_t i = 0; i < *n; i++)
        if (list[i] == x)
            return 1;
    if (*n == RSC_MAX_SELECT)
        return 0;
    list[(*n)++] = x;
    return 1;
}

rsc_status rsc_select(const rsc_program *prog, const rsc_bytes *agents,
                      size_t n, rsc_selection *sel)
{
    if (!sel)
        return RSC_E_ARG;
    memset(sel, 0, sizeof *sel);
    if (!prog || !agents || n == 0)
        return RSC_E_ARG;
    const uint8_t *tab = AT(prog, PRIV(prog, P_AGENTS));
    for (size_t i = 0; i < n; i++) {
        if (!agents[i].ptr && agents[i].len) {
            memset(sel, 0, sizeof *sel);
            return RSC_E_ARG;
        }
        uint32_t k = find_agent(prog, (const uint8_t *)agents[i].ptr, agents[i].len);
        if (k == RSC_NONE)
            continue;
        if (!add_unique(sel->agents, &sel->n_agents, k) ||
            !add_unique(sel->sets, &sel->n_sets, rsc_rd32(tab + (size_t)k * 12 + 8))) {
            memset(sel, 0, sizeof *sel);
            return RSC_E_LIMIT;
        }
        sel->named = 1;
    }
    if (!sel->named && PRIV(prog, P_GLOBAL_SET) != RSC_NONE)
        sel->sets[sel->n_sets++] = PRIV(prog, P_GLOBAL_SET);
    sel->prog = prog;
    return RSC_OK;
}

/* ---- Running automata ------------------------------------------------- */

typedef struct aut {
    const uint8_t *code, *cmap;
    uint32_t start;
} aut;

static aut aut_get(const rsc_program *prog, uint32_t k)
{
    const uint8_t *sec = AT(prog, PRIV(prog, P_AUT));
    const uint8_t *a = sec + rsc_rd32(sec + 4 + (size_t)k * 4);
    int hcm = rsc_rd32(a + 12) & RSC_AUT_HAS_CLASS_MAP;
    aut r;
    r.cmap = a + RSC_AUT_HEADER_SIZE;
    r.code = r.cmap + (hcm ? 256 : 0) + (size_t)rsc_rd32(a) * 4;
    r.start = rsc_rd32(a + 8);
    return r;
}

#define pad4(n) (((n) + 3) & ~3u)

/* SPARSE at p (its N): the target for byte c. Bytes are sorted. */
static uint32_t sparse(const uint8_t *p, uint8_t c)
{
    uint32_t n = rsc_rd32(p), j = 0;
    const uint8_t *b = p + 4, *t = b + pad4(n);
    while (j < n && b[j] < c)
        j++;
    return rsc_rd32(t + (size_t)(j < n && b[j] == c ? j : n) * 4);
}

/* Folds the state's Accept into *reg and returns its operands; *end is its
 * End rank (or 0). */
static const uint8_t *enter(const uint8_t *st, uint32_t w, uint32_t *reg,
                            uint32_t *end)
{
    const uint8_t *p = st + 8;
    if (w & RSC_ST_HAS_ACCEPT) {
        uint32_t a = rsc_rd32(p);
        *reg = a > *reg ? a : *reg;
        p += 4;
    }
    *end = 0;
    if (w & RSC_ST_HAS_END) {
        *end = rsc_rd32(p);
        p += 4;
    }
    return p;
}

/* The google hot loop: the path is one contiguous span. reg starts at the
 * best rank found so far, so the Ceiling stops runs early across automata. */
static uint32_t run_fast(aut a, const uint8_t *in, size_t n, uint32_t reg)
{
    uint32_t s = a.start, end;
    size_t i = 0;
    for (;;) {
        const uint8_t *st = a.code + s;
        uint32_t w = rsc_rd32(st);
        const uint8_t *p = enter(st, w, &reg, &end);
        if (i == n)
            return end > reg ? end : reg;
        if (reg >= rsc_rd32(st + 4))
            return reg;
        switch (w & RSC_OP_MASK) {
        case RSC_OP_LIT: {
            uint32_t len = rsc_rd32(p);
            if (n - i < len || memcmp(in + i, p + 4, len) != 0)
                return reg;
            i += len;
            s = rsc_rd32(p + 4 + pad4(len));
            break;
        }
        case RSC_OP_SPARSE:
            s = sparse(p, in[i++]);
            break;
        default: /* RSC_OP_TABLE */
            s = rsc_rd32(p + (size_t)a.cmap[in[i++]] * 4);
            break;
        }
        if (s == RSC_NONE)
            return reg;
    }
}

/* A byte stream over the path: an optional '/' in front (spec G.5) and, in
 * the rfc profile, percent-encoding normalised on the fly (FORMAT.md). */
typedef struct src {
    const uint8_t *p;
    size_t i, n;
    int rfc;
    uint8_t q[2], qi, qn; /* pending output bytes */
} src;

static int src_end(const src *s)
{
    return s->qi == s->qn && s->i == s->n;
}

static int hexval(uint8_t c)
{
    c = lower(c);
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int unreserved(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
}

static uint8_t src_next(src *s) /* requires !src_end(s) */
{
    static const char hex[] = "0123456789ABCDEF";
    if (s->qi < s->qn)
        return s->q[s->qi++];
    uint8_t c = s->p[s->i++];
    if (!s->rfc)
        return c;
    if (c >= 0x80) {
        s->q[0] = (uint8_t)hex[c >> 4], s->q[1] = (uint8_t)hex[c & 15];
        s->qi = 0, s->qn = 2;
        return '%';
    }
    if (c == '%' && s->n - s->i >= 2) {
        int hi = hexval(s->p[s->i]), lo = hexval(s->p[s->i + 1]);
        if (hi >= 0 && lo >= 0) {
            s->i += 2;
            if (unreserved(hi * 16 + lo))
                return (uint8_t)(hi * 16 + lo);
            s->q[0] = (uint8_t)hex[hi], s->q[1] = (uint8_t)hex[lo];
            s->qi = 0, s->qn = 2;
        }
    }
    return c;
}

/* The same algorithm as run_fast over a stream (rfc, or a '/' to add). */
static uint32_t run_stream(aut a, src in, uint32_t reg)
{
    uint32_t s = a.start, end;
    for (;;) {
        const uint8_t *st = a.code + s;
        uint32_t w = rsc_rd32(st);
        const uint8_t *p = enter(st, w, &reg, &end);
        if (src_end(&in))
            return end > reg ? end : reg;
        if (reg >= rsc_rd32(st + 4))
            return reg;
        switch (w & RSC_OP_MASK) {
        case RSC_OP_LIT: {
            uint32_t len = rsc_rd32(p);
            for (uint32_t j = 0; j < len; j++)
                if (src_end(&in) || src_next(&in) != p[4 + j])
                    return reg;
            s = rsc_rd32(p + 4 + pad4(len));
            break;
        }
        case RSC_OP_SPARSE:
            s = sparse(p, src_next(&in));
            break;
        default:
            s = rsc_rd32(p + (size_t)a.cmap[src_next(&in)] * 4);
            break;
        }
        if (s == RSC_NONE)
            return reg;
    }
}

static int is_robots_txt(src s)
{
    static const char r[] = "/robots.txt";
    for (size_t i = 0; i < sizeof r - 1; i++)
        if (src_end(&s) || src_next(&s) != (uint8_t)r[i])
            return 0;
    return src_end(&s);
}

static int verdict(const rsc_selection *sel, const char *path, size_t len,
                   int slash, rsc_match *m)
{
    const rsc_program *prog = sel ? sel->prog : NULL;
    const uint8_t *in = (const uint8_t *)path, *nul;
    if (!prog) { /* a failed rsc_select() */
        if (m)
            memset(m, 0, sizeof *m), m->allowed = 1, m->pattern = "";
        return 1;
    }
    if (len && (nul = memchr(in, 0, len)) != NULL) /* spec A.5 */
        len = (size_t)(nul - in);
    src s0 = {in, 0, len, rsc_program_profile(prog), {'/', 0}, 0, (uint8_t)(slash != 0)};
    const uint32_t max = PRIV(prog, P_RULE_COUNT);
    uint32_t best = 0;
    if (!(s0.rfc && is_robots_txt(s0))) { /* RFC 9309 2.2.2 */
        const uint8_t *sets = AT(prog, PRIV(prog, P_SETS));
        const uint8_t *list = AT(prog, PRIV(prog, P_SET_LIST));
        for (uint32_t k = 0; k < sel->n_sets && best < max; k++) {
            const uint8_t *e = sets + (size_t)sel->sets[k] * 8;
            uint32_t first = rsc_rd32(e), n = rsc_rd32(e + 4);
            for (uint32_t j = first; j < first + n && best < max; j++) {
                aut a = aut_get(prog, rsc_rd32(list + (size_t)j * 4));
                best = s0.rfc || slash ? run_stream(a, s0, best)
                                       : run_fast(a, in, len, best);
            }
        }
    }
    const uint8_t *r = AT(prog, PRIV(prog, P_RULES)) + (size_t)(best - !!best) * 16;
    /* Priority 0 (the empty pattern) never decides a verdict: spec E.5. */
    int decided = best && rsc_rd32(r + 4) > 0;
    int allowed = !decided || (rsc_rd32(r) & RSC_RULE_ALLOW) != 0;
    if (m) {
        memset(m, 0, sizeof *m);
        m->allowed = allowed, m->pattern = "";
        if ((m->decided = decided) != 0) {
            m->line = rsc_rd32(r) & RSC_RULE_LINE_MASK, m->rule_allow = allowed;
            m->priority = rsc_rd32(r + 4), m->pattern_len = rsc_rd32(r + 12);
            m->pattern = (const char *)STR(prog) + rsc_rd32(r + 8);
        }
    }
    return allowed;
}

int rsc_match_path(const rsc_selection *sel, const char *path, size_t len,
                   rsc_match *m)
{
    return verdict(sel, len ? path : "", len, 0, m);
}

int rsc_match_url(const rsc_selection *sel, const char *url, size_t len,
                  rsc_match *m)
{
    size_t off, plen;
    int slash;
    rsc_url_path(url, len, &off, &plen, &slash);
    return verdict(sel, plen ? url + off : "", plen, slash, m);
}

/* ---- Sitemaps and directives: spec H ---------------------------------- */

/* Entry i of the SITEMAPS or DIRECTIVES table, or NULL past its end. */
static const uint8_t *record(const rsc_program *prog, int tab, size_t esz, size_t i)
{
    return i < PRIV(prog, tab + 1) ? AT(prog, PRIV(prog, tab)) + i * esz : NULL;
}

static void str_at(const rsc_program *prog, const uint8_t *ref, rsc_bytes *out)
{
    if (out)
        out->ptr = (const char *)STR(prog) + rsc_rd32(ref), out->len = rsc_rd32(ref + 4);
}

size_t rsc_sitemap_count(const rsc_program *prog)
{
    return PRIV(prog, P_SITEMAP_COUNT);
}

int rsc_sitemap_get(const rsc_program *prog, size_t i, uint32_t *line,
                    rsc_bytes *url)
{
    const uint8_t *e = record(prog, P_SITEMAPS, 12, i);
    if (e && line)
        *line = rsc_rd32(e);
    if (e)
        str_at(prog, e + 4, url);
    return e != NULL;
}

size_t rsc_directive_count(const rsc_program *prog)
{
    return PRIV(prog, P_DIR_COUNT);
}

int rsc_directive_get(const rsc_program *prog, size_t i, uint32_t *line,
                      rsc_bytes *key, rsc_bytes *value)
{
    const uint8_t *e = record(prog, P_DIRS, 24, i);
    if (e && line)
        *line = rsc_rd32(e);
    if (e)
        str_at(prog, e + 8, key), str_at(prog, e + 16, value);
    return e != NULL;
}

/* Does group g name a selected agent (or, when none was named, '*')? */
static int group_applies(const rsc_selection *sel, uint32_t g)
{
    const rsc_program *prog = sel->prog;
    const uint8_t *e = AT(prog, PRIV(prog, P_GROUPS)) + (size_t)g * 12;
    uint32_t first = rsc_rd32(e + 4), n = rsc_rd32(e + 8);
    for (uint32_t j = first; j < first + n; j++) {
        const uint8_t *t = AT(prog, PRIV(prog, P_GROUP_LIST)) + (size_t)j * 8;
        uint32_t len = rsc_rd32(t + 4);
        if (!sel->named && len == 1 && STR(prog)[rsc_rd32(t)] == '*')
            return 1;
        for (uint32_t k = 0; k < sel->n_agents; k++) {
            const uint8_t *a = AT(prog, PRIV(prog, P_AGENTS)) + (size_t)sel->agents[k] * 12;
            if (len == rsc_rd32(a + 4) &&
                memcmp(STR(prog) + rsc_rd32(t), STR(prog) + rsc_rd32(a), len) == 0)
                return 1;
        }
    }
    return 0;
}

int rsc_group_directive(const rsc_selection *sel, const char *key,
                        rsc_bytes *value, uint32_t *line)
{
    const size_t klen = key ? strlen(key) : 0;
    const uint8_t *e;
    for (size_t i = 0; sel && sel->prog && key && (e = record(sel->prog, P_DIRS, 24, i)); i++) {
        const uint8_t *k = STR(sel->prog) + rsc_rd32(e + 8);
        size_t j = 0;
        if (rsc_rd32(e + 4) == RSC_NONE || rsc_rd32(e + 12) != klen)
            continue;
        while (j < klen && lower(k[j]) == lower((uint8_t)key[j]))
            j++;
        if (j == klen && group_applies(sel, rsc_rd32(e + 4))) {
            str_at(sel->prog, e + 16, value);
            if (line)
                *line = rsc_rd32(e);
            return 1;
        }
    }
    return 0;
}
