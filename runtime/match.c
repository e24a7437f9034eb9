/* Matching on a verified program (docs/FORMAT.md, "Matching"). rsc_load()
 * has checked every varint, offset, rank and span, so nothing here re-checks
 * the blob: the only bounds are those of the caller's input. No allocation:
 * a path that must be rewritten (a '/' in front, or the rfc profile's
 * normalisation) goes through a fixed stack buffer, and one too long for it
 * is matched as a stream. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format.h"
#include "program.h"
#include "robotsc/runtime.h"

#define PRIV(prog, f) ((prog)->priv[f])
#define AT(prog, off) ((prog)->base + (off))

#define STR(prog) AT(prog, PRIV(prog, P_STR_OFF))

/* Rewritten paths up to this many bytes are matched from a stack buffer
 * (tests build the runtime with a tiny one to exercise the stream path). */
#ifndef RSC_PATH_BUF
#define RSC_PATH_BUF 8192
#endif

int rsc_program_profile(const rsc_program *prog)
{
    return (prog->flags & RSC_FLAG_PROFILE_RFC) != 0;
}

/* ---- URL to path: spec G ---------------------------------------------- */

/* Bytes that start a path (G.3): '/', '?' and ';'; and '#', which ends it
 * (G.4). A table keeps the byte loop at one load and one test. */
static const uint8_t special[256] = {['/'] = 1, ['?'] = 1, [';'] = 1, ['#'] = 1};

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ONES 0x0101010101010101ull
/* High bit of each byte of x equal to c (the lowest one is exact). */
static uint64_t bytes_eq(uint64_t x, uint8_t c)
{
    uint64_t v = x ^ (ONES * c);
    return (v - ONES) & ~v & (ONES << 7);
}
#endif

/* The first special byte of u[from..len), or len: eight bytes a step. */
static size_t first_special(const char *u, size_t len, size_t from)
{
    size_t i = from;
#ifdef ONES
    for (; len - i >= 8; i += 8) {
        uint64_t x;
        memcpy(&x, u + i, 8);
        uint64_t m = bytes_eq(x, '/') | bytes_eq(x, '?') | bytes_eq(x, ';') | bytes_eq(x, '#');
        if (m)
            return i + ((unsigned)__builtin_ctzll(m) >> 3);
    }
#endif
    while (i < len && !special[(uint8_t)u[i]])
        i++;
    return i;
}

/* Spec G up to the path's start: *off, and *slash when a '/' must be put
 * in front; 0 when the path is "/" (no path, or a '#' first). The path's
 * end (the first '#', G.4) is left to the caller. A scheme's "://" can only
 * sit just before the first special byte (its '/' is one), so one test
 * replaces a search (G.2). */
static int path_start(const char *url, size_t len, size_t *off, int *slash)
{
    size_t s = len >= 2 && url[0] == '/' && url[1] == '/' ? 2 : 0; /* G.1 */
    size_t ps = first_special(url, len, s);
    if (ps > s && ps + 1 < len && url[ps - 1] == ':' && url[ps] == '/' && url[ps + 1] == '/')
        ps = first_special(url, len, ps + 2); /* G.2, G.3 */
    if (ps == len || url[ps] == '#') /* G.3, G.4: the path is "/" */
        return 0;
    *off = ps, *slash = url[ps] != '/'; /* G.5 */
    return 1;
}

void rsc_url_path(const char *url, size_t len, size_t *off, size_t *plen,
                  int *slash)
{
    if (!path_start(url, len, off, slash)) {
        *off = 0, *plen = 0, *slash = 1;
        return;
    }
    const char *h = memchr(url + *off, '#', len - *off);
    *plen = (h ? (size_t)(h - url) : len) - *off;
}

/* ---- Agent selection: spec F.2, F.6, F.7 ------------------------------ */

static uint8_t lower(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

/* Row of the AGENTS table equal to lower(a) (ASCII), or UINT32_MAX. Tokens
 * hold only [a-z_-], so an agent with any byte outside [A-Za-z_-] equals
 * none of them: it is used as given, not cut (F.2). */
static uint32_t find_agent(const rsc_program *prog, const uint8_t *a, size_t n)
{
    const uint8_t *str = STR(prog);
    uint32_t lo = 0, hi = PRIV(prog, P_AGENTS_N);
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const uint8_t *t = str + rsc_tab(prog, P_AGENTS, mid, 0);
        size_t tl = rsc_tab(prog, P_AGENTS, mid, 1), k = 0;
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
    return UINT32_MAX;
}

/* Set k's programs are positions [*j, *end) of the SETS list; without
 * SETS, set k is program k alone (FORMAT.md, SETS). */
static void set_span(const rsc_program *prog, uint32_t k, uint32_t *j, uint32_t *end)
{
    if (!PRIV(prog, P_SETS)) {
        *j = k, *end = k + 1;
        return;
    }
    *j = rsc_tab(prog, P_SETS, k, 0);
    *end = *j + rsc_tab(prog, P_SETS, k, 1);
}

/* The root offset of the program at position j of set_span(). */
static uint32_t program_root(const rsc_program *prog, uint32_t j)
{
    uint32_t pr = PRIV(prog, P_SETS) ? rsc_tab(prog, P_SLIST, j, 0) : j;
    return PRIV(prog, P_PROG_DATA) + (pr ? rsc_tab(prog, P_PROGS, pr - 1, 0) : 0);
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
    if (!prog || !prog->base || !agents || n == 0)
        return RSC_E_ARG;
    for (size_t i = 0; i < n; i++) {
        if (!agents[i].ptr && agents[i].len) {
            memset(sel, 0, sizeof *sel);
            return RSC_E_ARG;
        }
        uint32_t k = find_agent(prog, (const uint8_t *)agents[i].ptr, agents[i].len);
        if (k == UINT32_MAX)
            continue;
        if (!add_unique(sel->agents, &sel->n_agents, k) ||
            !add_unique(sel->sets, &sel->n_sets, rsc_tab(prog, P_AGENTS, k, 2))) {
            memset(sel, 0, sizeof *sel);
            return RSC_E_LIMIT;
        }
        sel->named = 1;
    }
    if (!sel->named && PRIV(prog, P_GLOBAL))
        sel->sets[sel->n_sets++] = PRIV(prog, P_GLOBAL) - 1;
    sel->prog = prog;
    /* The programs to run, once for all matches; with more than fit,
     * matching goes through the sets. */
    for (uint32_t k = 0; k < sel->n_sets; k++) {
        uint32_t j, end;
        for (set_span(prog, sel->sets[k], &j, &end); j < end; j++) {
            if (sel->n_roots < RSC_MAX_SELECT)
                sel->roots[sel->n_roots] = program_root(prog, j);
            sel->n_roots++;
        }
    }
    return RSC_OK; /* n_roots > RSC_MAX_SELECT: too many to hold */
}

/* ---- Contiguous paths -------------------------------------------------- */

/* Segments up to this long are searched naively (memchr for the first
 * byte, then memcmp): at most RSC_NAIVE_MAX comparisons per path byte.
 * Longer ones use the Two-Way algorithm (Crochemore and Perrin 1991), linear
 * in the path with constant space, so matching stays linear whatever the
 * pattern. Tests build the runtime with 0 to run Two-Way on every segment. */
#ifndef RSC_NAIVE_MAX
#define RSC_NAIVE_MAX 16
#endif

/* Maximal suffix of x[0..m) for byte order (rev: the reverse order): its
 * start - 1 (-1 for the whole string), and *per its period. */
static ptrdiff_t max_suffix(const uint8_t *x, ptrdiff_t m, ptrdiff_t *per, int rev)
{
    ptrdiff_t ms = -1, j = 0, k = 1, p = 1;
    while (j + k < m) {
        uint8_t a = x[j + k], b = x[ms + k];
        if (rev ? a > b : a < b) {
            j += k, k = 1, p = j - ms;
        } else if (a == b) {
            if (k != p)
                k++;
            else
                j += p, k = 1;
        } else {
            ms = j, j = ms + 1, k = p = 1;
        }
    }
    *per = p;
    return ms;
}

/* Two-Way: the leftmost x[0..m) in y[0..n), or n. The critical
 * factorisation x = x[0..ell] x[ell+1..m) is the later of the two maximal
 * suffixes; the right part is compared left to right, then the left part
 * right to left, and a mismatch shifts by what was matched. */
static size_t two_way(const uint8_t *y, size_t n_, const uint8_t *x, size_t m_)
{
    ptrdiff_t m = (ptrdiff_t)m_, n = (ptrdiff_t)n_, p, q, per, ell, i, j = 0;
    ptrdiff_t a = max_suffix(x, m, &p, 0), b = max_suffix(x, m, &q, 1);
    ell = a > b ? a : b;
    per = a > b ? p : q;
    if (memcmp(x, x + per, (size_t)(ell + 1)) == 0) { /* periodic: remember */
        ptrdiff_t mem = -1;
        while (j <= n - m) {
            i = (ell > mem ? ell : mem) + 1;
            while (i < m && x[i] == y[i + j])
                i++;
            if (i < m) {
                j += i - ell, mem = -1;
                continue;
            }
            for (i = ell; i > mem && x[i] == y[i + j]; i--)
                ;
            if (i <= mem)
                return (size_t)j;
            j += per, mem = m - per - 1;
        }
    } else {
        per = (ell + 1 > m - ell - 1 ? ell + 1 : m - ell - 1) + 1;
        while (j <= n - m) {
            i = ell + 1;
            while (i < m && x[i] == y[i + j])
                i++;
            if (i < m) {
                j += i - ell;
                continue;
            }
            for (i = ell; i >= 0 && x[i] == y[i + j]; i--)
                ;
            if (i < 0)
                return (size_t)j;
            j += per;
        }
    }
    return n_;
}

/* Leftmost s[0..m) in p[0..n), m >= 1: its offset, or n when absent. */
static size_t find(const uint8_t *p, size_t n, const uint8_t *s, size_t m)
{
    if (m > RSC_NAIVE_MAX)
        return two_way(p, n, s, m);
    size_t i = 0;
    while (m <= n - i) {
        const uint8_t *q = memchr(p + i, s[0], n - i - m + 1);
        if (!q)
            return n;
        i = (size_t)(q - p);
        if (memcmp(q + 1, s + 1, m - 1) == 0)
            return i;
        i++;
    }
    return n;
}

/* The next segment of a tail t[0..tl) from *k (a run of non-'*' bytes):
 * *seg and its length *m, *k moved past it; 0 when only stars are left. */
static int next_seg(const uint8_t *t, size_t tl, size_t *k, const uint8_t **seg, size_t *m)
{
    while (*k < tl && t[*k] == '*')
        (*k)++;
    if (*k == tl)
        return 0;
    *seg = t + *k;
    while (*k < tl && t[*k] != '*') /* short: a loop beats a call */
        (*k)++;
    *m = (size_t)(t + *k - *seg);
    return 1;
}

/* FORMAT.md glob(): p[j..n) against a wildcard tail. */
static int glob(const uint8_t *p, size_t n, size_t j, const uint8_t *t, size_t tl, int anch)
{
    const uint8_t *s;
    size_t k = 0, m;
    while (next_seg(t, tl, &k, &s, &m)) {
        if (k == tl && anch) /* the last segment ends the path */
            return n - j >= m && memcmp(p + n - m, s, m) == 0;
        size_t at = n - j >= m ? find(p + j, n - j, s, m) : n - j;
        if (at == n - j)
            return 0;
        j += at + m;
    }
    return 1;
}

/* What a walk needs of the program: where match texts are, read off the
 * RULES table once per match (FORMAT.md, RULES: Str_Off and Str_Len, or
 * Match_Off and Match_Len in the rfc profile). */
typedef struct wctx {
    const uint8_t *str, *rows;
    uint32_t row;             /* RULES row size */
    uint32_t off, ow, len, lw; /* the match text's columns: byte offset, width */
} wctx;

static wctx wctx_of(const rsc_program *prog)
{
    uint32_t pack = PRIV(prog, P_RULES_W), at = 0;
    unsigned mcol = rsc_program_profile(prog) ? 3 : 1;
    wctx w;
    w.str = STR(prog), w.rows = AT(prog, PRIV(prog, P_RULES)), w.row = RSC_TAB_ROW(pack);
    for (unsigned c = 0; c < mcol; c++)
        at += RSC_TAB_WIDTH(pack, c);
    w.off = at, w.ow = RSC_TAB_WIDTH(pack, mcol);
    w.len = at + w.ow, w.lw = RSC_TAB_WIDTH(pack, mcol + 1);
    return w;
}

static const uint8_t *mtext(const wctx *w, uint32_t r, uint32_t *len)
{
    const uint8_t *row = w->rows + (size_t)(r - 1) * w->row;
    *len = rsc_rdn(row + w->len, w->lw);
    return w->str + rsc_rdn(row + w->off, w->ow);
}

/* Rule r's wildcard tail from string depth j: *tl bytes, and whether a
 * final '$' anchors it (removed from *tl). */
static const uint8_t *tail(const wctx *w, uint32_t r, uint32_t j, size_t *tl, int *anch)
{
    uint32_t ml;
    const uint8_t *t = mtext(w, r, &ml) + j;
    *tl = ml - j;
    *anch = t[*tl - 1] == '$';
    *tl -= (size_t)*anch;
    return t;
}

/* A cheap necessary condition for glob(): the bytes and the byte pairs of
 * the path, hashed into 256-bit sets, filled on first use. A tail with a
 * byte or a pair (within a segment) not in them cannot match, which
 * rejects most of a long list of "contains" rules (a tail like "*View*")
 * without a search. Worth it from a few tries on. */
typedef struct filter {
    int ready;
    uint64_t bytes[4], pairs[4];
} filter;

#define FILTER_MIN 4 /* glob lists shorter than this are just searched */
#define PAIR(a, b) ((uint8_t)((a) * 7u ^ (b)))
#define HAS(set, h) (((set)[(h) >> 6] >> ((h) & 63)) & 1)

static void filter_fill(filter *f, const uint8_t *p, size_t n)
{
    memset(f, 0, sizeof *f);
    for (size_t i = 0; i < n; i++) {
        f->bytes[p[i] >> 6] |= 1ull << (p[i] & 63);
        if (i + 1 < n) {
            uint8_t h = PAIR(p[i], p[i + 1]);
            f->pairs[h >> 6] |= 1ull << (h & 63);
        }
    }
    f->ready = 1;
}

/* 0 when some segment of tail t[0..tl) surely does not occur: one of its
 * bytes or pairs is not in the path. Stops at the first miss. */
static int filter_may(const filter *f, const uint8_t *t, size_t tl)
{
    for (size_t k = 0; k < tl; k++) {
        if (t[k] == '*')
            continue;
        if (!HAS(f->bytes, t[k]))
            return 0;
        if (k + 1 < tl && t[k + 1] != '*' && !HAS(f->pairs, PAIR(t[k], t[k + 1])))
            return 0;
    }
    return 1;
}

/* The best of the Glob_N ranks at g above best whose rules match p from
 * j, the depth of their node. */
static uint32_t globs(const wctx *w, const uint8_t *g, const uint8_t *p, size_t n, size_t j,
                      uint32_t best, filter *f)
{
    uint32_t gn = rsc_uv(&g);
    if (gn >= FILTER_MIN && !f->ready)
        filter_fill(f, p, n);
    while (gn--) {
        uint32_t r = rsc_uv(&g);
        size_t tl;
        int anch;
        if (r <= best) /* ranks decrease: nothing further can win */
            break;
        const uint8_t *t = tail(w, r, (uint32_t)j, &tl, &anch);
        if ((!f->ready || filter_may(f, t, tl)) && glob(p, n, j, t, tl, anch))
            return r;
    }
    return best;
}

/* A node's fixed part, read from its Head on. */
typedef struct node {
    uint32_t head, accept, end;
    const uint8_t *g, *keys; /* globs (or NULL); keys, then offsets */
} node;

/* Reads the node at q: *lab receives its label (inline, or in the match
 * text of its Rep at string depth d), *ll its length. */
static inline void node_read(const wctx *w, const uint8_t *q, uint32_t d, const uint8_t **lab,
                      uint32_t *ll, node *x)
{
    uint32_t lh = rsc_uv(&q), ml;
    *ll = lh >> 1;
    if (lh & RSC_LABEL_REF) {
        *lab = mtext(w, rsc_uv(&q), &ml) + d;
    } else {
        *lab = q;
        q += *ll;
    }
    x->head = rsc_uv(&q);
    x->accept = x->head & RSC_N_ACCEPT ? rsc_uv(&q) : 0;
    x->end = x->head & RSC_N_END ? rsc_uv(&q) : 0;
    x->g = NULL;
    if (x->head & RSC_N_GLOBS) {
        x->g = q;
        for (uint32_t gn = rsc_uv(&q); gn; gn--)
            rsc_uv(&q);
    }
    x->keys = q;
}

/* Child of x whose key is c, or NULL. Few keys: a loop beats a call. */
static inline const uint8_t *child(const node *x, uint8_t c)
{
    uint32_t n = x->head >> RSC_N_CHILD_SHIFT;
    const uint8_t *hit = NULL;
    if (n > 8) {
        hit = memchr(x->keys, c, n);
    } else {
        for (uint32_t k = 0; k < n; k++)
            if (x->keys[k] == c) {
                hit = x->keys + k;
                break;
            }
    }
    if (!hit)
        return NULL;
    unsigned w = ((x->head >> RSC_N_WIDTH_SHIFT) & RSC_N_WIDTH_MASK) + 1;
    const uint8_t *offs = x->keys + n;
    return offs + (size_t)n * w + rsc_rdn(offs + (size_t)(hit - x->keys) * w, w);
}

#define MAX_PENDING 8

/* The end of the path in p[0..n): the first NUL (spec A.5) or term. */
static size_t path_end(const uint8_t *p, size_t n, uint8_t term)
{
    const uint8_t *z = n ? memchr(p, 0, n) : NULL;
    if (z)
        n = (size_t)(z - p);
    if (term && n && (z = memchr(p, term, n)) != NULL)
        n = (size_t)(z - p);
    return n;
}

/* FORMAT.md walk(): the best rank of one program for the path in p[0..n),
 * from best. The path ends at n or at its first NUL or term byte: no label
 * or key holds either (a pattern ends at '#' and at NUL, spec A.5, B.1), so
 * the walk stops there by itself and finding the end can wait until glob
 * lists need it. They wait until the walk is over, when best is as high as
 * the literal rules can make it and prunes the most; deepest first. */
static uint32_t walk(const wctx *w, const uint8_t *q, const uint8_t *p, size_t n, uint8_t term,
                     uint32_t best)
{
    struct {
        const uint8_t *g;
        size_t i;
    } pend[MAX_PENDING];
    unsigned np = 0;
    size_t i = 0, end = SIZE_MAX;
    filter f;
    f.ready = 0;
    for (;;) {
        const uint8_t *lab;
        uint32_t ll;
        node x;
        node_read(w, q, (uint32_t)i, &lab, &ll, &x);
        if (ll) {
            if (n - i < ll || memcmp(p + i, lab, ll) != 0)
                break;
            i += ll;
        }
        if (x.accept > best)
            best = x.accept;
        if (x.end > best && (i == n || p[i] == 0 || p[i] == term))
            best = x.end;
        if (x.g) {
            if (np < MAX_PENDING) {
                pend[np].g = x.g, pend[np++].i = i;
            } else {
                end = end == SIZE_MAX ? path_end(p, n, term) : end;
                best = globs(w, x.g, p, end, i, best, &f);
            }
        }
        if (i == n || !(q = child(&x, p[i])))
            break;
        i++;
    }
    if (np && end == SIZE_MAX)
        end = path_end(p, n, term);
    while (np--)
        best = globs(w, pend[np].g, p, end, pend[np].i, best, &f);
    return best;
}

/* ---- Rewritten paths --------------------------------------------------- */

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

/* Consumes m bytes equal to b[0..m); 0 at the first difference or the end. */
static int src_eat(src *s, const uint8_t *b, size_t m)
{
    for (size_t k = 0; k < m; k++)
        if (src_end(s) || src_next(s) != b[k])
            return 0;
    return 1;
}

static size_t src_left(src s)
{
    size_t n = 0;
    while (!src_end(&s))
        src_next(&s), n++;
    return n;
}

/* glob() over a stream: the same leftmost search, one start at a time.
 * Quadratic in the worst case; only paths over RSC_PATH_BUF bytes that
 * need rewriting get here. */
static int glob_stream(src s, const uint8_t *t, size_t tl, int anch)
{
    const uint8_t *seg;
    size_t k = 0, m;
    while (next_seg(t, tl, &k, &seg, &m)) {
        if (k == tl && anch) {
            size_t left = src_left(s);
            if (left < m)
                return 0;
            while (left-- > m)
                src_next(&s);
            return src_eat(&s, seg, m);
        }
        for (;;) {
            src at = s;
            if (src_eat(&at, seg, m)) {
                s = at;
                break;
            }
            if (src_end(&s))
                return 0;
            src_next(&s);
        }
    }
    return 1;
}

/* The filter of the stream's rest: it covers every later glob list too. */
static void filter_fill_stream(filter *f, src s)
{
    uint8_t prev = 0;
    memset(f, 0, sizeof *f);
    for (int first = 1; !src_end(&s); first = 0) {
        uint8_t c = src_next(&s), h = PAIR(prev, c);
        f->bytes[c >> 6] |= 1ull << (c & 63);
        if (!first)
            f->pairs[h >> 6] |= 1ull << (h & 63);
        prev = c;
    }
    f->ready = 1;
}

/* globs() over a stream; the filter always runs: a stream search costs
 * path bytes x segment bytes. */
static uint32_t globs_stream(const wctx *w, const uint8_t *g, src s, uint32_t j,
                             uint32_t best, filter *f)
{
    uint32_t gn = rsc_uv(&g);
    if (!f->ready)
        filter_fill_stream(f, s);
    while (gn--) {
        uint32_t r = rsc_uv(&g);
        size_t tl;
        int anch;
        if (r <= best)
            break;
        const uint8_t *t = tail(w, r, j, &tl, &anch);
        if (filter_may(f, t, tl) && glob_stream(s, t, tl, anch))
            return r;
    }
    return best;
}

/* walk() over a stream; glob lists are tried as they come. */
static uint32_t walk_stream(const wctx *w, const uint8_t *q, src s, uint32_t best)
{
    uint32_t i = 0;
    filter f;
    f.ready = 0;
    for (;;) {
        const uint8_t *lab;
        uint32_t ll;
        node x;
        node_read(w, q, i, &lab, &ll, &x);
        if (!src_eat(&s, lab, ll))
            break;
        i += ll;
        if (x.accept > best)
            best = x.accept;
        if (src_end(&s) && x.end > best)
            best = x.end;
        if (x.g)
            best = globs_stream(w, x.g, s, i, best, &f);
        if (src_end(&s) || !(q = child(&x, src_next(&s))))
            break;
        i++;
    }
    return best;
}

static int is_robots_txt(src s)
{
    static const char r[] = "/robots.txt";
    return src_eat(&s, (const uint8_t *)r, sizeof r - 1) && src_end(&s);
}

/* ---- Verdict ----------------------------------------------------------- */

/* Whether the rfc profile's normalisation leaves p[0..n) as it is: no
 * '%' and no byte >= 0x80. */
static int already_normal(const uint8_t *p, size_t n)
{
    if (memchr(p, '%', n))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] >= 0x80)
            return 0;
    return 1;
}

/* The best rank of the selected programs for the path in p[0..n), which
 * ends early at a NUL or term (walk()); slash: a '/' goes in front. */
static uint32_t best_rank(const rsc_selection *sel, const uint8_t *p, size_t n, uint8_t term,
                          int slash)
{
    const rsc_program *prog = sel->prog;
    const int rfc = rsc_program_profile(prog);
    const uint32_t max = PRIV(prog, P_RULES_N);
    const wctx w = wctx_of(prog);
    uint8_t buf[RSC_PATH_BUF];
    uint32_t best = 0;
    int stream = 0;
    src s0 = {NULL, 0, 0, 0, {0, 0}, 0, 0};
    if (rfc || slash) { /* rewrite into buf, or stream when too long */
        n = path_end(p, n, term);
        s0 = (src){p, 0, n, rfc, {'/', 0}, 0, (uint8_t)(slash != 0)};
        if (rfc && is_robots_txt(s0)) /* RFC 9309 2.2.2 */
            return 0;
        src s = s0;
        size_t k = 0;
        while (k < sizeof buf && !src_end(&s))
            buf[k++] = src_next(&s);
        stream = !src_end(&s);
        if (!stream)
            p = buf, n = k;
        else if (!slash && already_normal(p, n))
            stream = 0; /* a long rfc path with nothing to rewrite: as is */
    }
    if (sel->n_roots <= RSC_MAX_SELECT) {
        for (uint32_t k = 0; k < sel->n_roots && best < max; k++) {
            const uint8_t *root = prog->base + sel->roots[k];
            best = stream ? walk_stream(&w, root, s0, best) : walk(&w, root, p, n, term, best);
        }
        return best;
    }
    for (uint32_t k = 0; k < sel->n_sets && best < max; k++) {
        uint32_t j, end;
        for (set_span(prog, sel->sets[k], &j, &end); j < end && best < max; j++) {
            const uint8_t *root = prog->base + program_root(prog, j);
            best = stream ? walk_stream(&w, root, s0, best) : walk(&w, root, p, n, term, best);
        }
    }
    return best;
}

static int verdict(const rsc_selection *sel, const uint8_t *p, size_t n, uint8_t term, int slash,
                   rsc_match *m)
{
    const rsc_program *prog = sel ? sel->prog : NULL;
    if (!prog) { /* a failed rsc_select() */
        if (m)
            memset(m, 0, sizeof *m), m->allowed = 1, m->pattern = "";
        return 1;
    }
    uint32_t best = best_rank(sel, p, n, term, slash);
    uint32_t la = best ? rsc_tab(prog, P_RULES, best - 1, 0) : 0;
    /* Priority 0 (the empty pattern) never decides a verdict: spec E.5.
     * Encoders leave such rules out of programs; a blob could still have one. */
    int decided = best && rsc_tab(prog, P_RULES, best - 1, 2) > 0;
    int allowed = !decided || (la & 1) != 0;
    if (m) {
        memset(m, 0, sizeof *m);
        m->allowed = allowed, m->pattern = "";
        if ((m->decided = decided) != 0) {
            m->line = la >> 1, m->rule_allow = allowed;
            m->priority = m->pattern_len = rsc_tab(prog, P_RULES, best - 1, 2);
            m->pattern = (const char *)STR(prog) + rsc_tab(prog, P_RULES, best - 1, 1);
        }
    }
    return allowed;
}

int rsc_match_path(const rsc_selection *sel, const char *path, size_t len,
                   rsc_match *m)
{
    return verdict(sel, (const uint8_t *)(len ? path : ""), len, 0, 0, m);
}

/* The path runs from its start to the URL's end; walk() stops at the first
 * '#' (spec G.4), so the URL is scanned no further than matching needs. */
int rsc_match_url(const rsc_selection *sel, const char *url, size_t len,
                  rsc_match *m)
{
    size_t off;
    int slash;
    if (!path_start(url, len, &off, &slash))
        return verdict(sel, (const uint8_t *)"", 0, 0, 1, m);
    return verdict(sel, (const uint8_t *)url + off, len - off, '#', slash, m);
}

/* ---- Sitemaps and directives: spec H ---------------------------------- */

static void str_at(const rsc_program *prog, uint32_t off, uint32_t len, rsc_bytes *out)
{
    if (out)
        out->ptr = (const char *)STR(prog) + off, out->len = len;
}

size_t rsc_sitemap_count(const rsc_program *prog)
{
    return PRIV(prog, P_SITEMAPS_N);
}

int rsc_sitemap_get(const rsc_program *prog, size_t i, uint32_t *line,
                    rsc_bytes *url)
{
    if (i >= PRIV(prog, P_SITEMAPS_N))
        return 0;
    uint32_t r = (uint32_t)i;
    if (line)
        *line = rsc_tab(prog, P_SITEMAPS, r, 0);
    str_at(prog, rsc_tab(prog, P_SITEMAPS, r, 1), rsc_tab(prog, P_SITEMAPS, r, 2), url);
    return 1;
}

size_t rsc_directive_count(const rsc_program *prog)
{
    return PRIV(prog, P_DIRS_N);
}

int rsc_directive_get(const rsc_program *prog, size_t i, uint32_t *line,
                      rsc_bytes *key, rsc_bytes *value)
{
    if (i >= PRIV(prog, P_DIRS_N))
        return 0;
    uint32_t r = (uint32_t)i;
    if (line)
        *line = rsc_tab(prog, P_DIRS, r, 0);
    str_at(prog, rsc_tab(prog, P_DIRS, r, 2), rsc_tab(prog, P_DIRS, r, 3), key);
    str_at(prog, rsc_tab(prog, P_DIRS, r, 4), rsc_tab(prog, P_DIRS, r, 5), value);
    return 1;
}

/* Does group g name a selected agent (or, when none was named, '*')? */
static int group_applies(const rsc_selection *sel, uint32_t g)
{
    const rsc_program *prog = sel->prog;
    uint32_t first, n = rsc_group_agents(prog, g, &first);
    for (uint32_t j = first; j < first + n; j++) {
        uint32_t a = rsc_tab(prog, P_GLIST, j, 0); /* 0: '*', else 1 + AGENTS row */
        if (!sel->named && a == 0)
            return 1;
        for (uint32_t k = 0; k < sel->n_agents; k++)
            if (a == sel->agents[k] + 1)
                return 1;
    }
    return 0;
}

int rsc_group_directive(const rsc_selection *sel, const char *key,
                        rsc_bytes *value, uint32_t *line)
{
    const size_t klen = key ? strlen(key) : 0;
    if (!sel || !sel->prog || !key)
        return 0;
    const rsc_program *prog = sel->prog;
    for (uint32_t r = 0; r < PRIV(prog, P_DIRS_N); r++) {
        const uint8_t *k = STR(prog) + rsc_tab(prog, P_DIRS, r, 2);
        uint32_t g = rsc_tab(prog, P_DIRS, r, 1);
        size_t j = 0;
        if (g == 0 || rsc_tab(prog, P_DIRS, r, 3) != klen)
            continue;
        while (j < klen && lower(k[j]) == lower((uint8_t)key[j]))
            j++;
        if (j == klen && group_applies(sel, g - 1)) {
            str_at(prog, rsc_tab(prog, P_DIRS, r, 4), rsc_tab(prog, P_DIRS, r, 5), value);
            if (line)
                *line = rsc_tab(prog, P_DIRS, r, 0);
            return 1;
        }
    }
    return 0;
}
