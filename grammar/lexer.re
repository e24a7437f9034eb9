/* SPDX-License-Identifier: Apache-2.0 */
/* robots.txt lexer (re2c). Two layers:
 *   1. bytes to lines (spec A): LF, CR and CRLF end a line, the text after
 *      the last line end is a line too, a line keeps 16,663 bytes, a NUL
 *      ends its useful part;
 *   2. one line to tokens (spec B, C): comment cut, trimming, separator,
 *      key classification. A line yields DIRECTIVE EOL, JUNK EOL (text that
 *      is no directive) or just EOL (an empty or comment line).
 * The lint record of every line is written here, into ir->lines. */
#include <string.h>

#include "front.h"
#include "parser.h"

/* Spec B.2: the whitespace that trimming removes. */
static int is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

void rsc_lex_init(rsc_front *f)
{
    f->pos = 0;
    f->at_line_start = 1; /* spec A.3: an empty body is one empty line */
    f->pending_eol = 0;
}

/* Layer 1. Finds the next line: [*start, *start + *len), line end excluded.
 * Returns 0 when the body is exhausted. body[len] is a NUL sentinel; NULs
 * inside the body are ordinary bytes here (spec A.5 applies later, per
 * line, after the A.4 cut). */
static int next_line(rsc_front *f, size_t *start, size_t *len)
{
    const unsigned char *const base = f->body;
    const unsigned char *YYCURSOR = base + f->pos;
    const unsigned char *const YYLIMIT = base + f->len;
    const unsigned char *const tok = YYCURSOR;
    const unsigned char *YYMARKER = tok;
    (void)YYMARKER;

    /*!local:re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:yyfill:enable = 0;
        re2c:eof = 0;

        // Spec A.2: an LF directly after a CR belongs to that CR, so "\n\r"
        // is two line ends and "\r\n" one.
        eol = "\r\n" | "\r" | "\n";

        [^\r\n]* eol {
            size_t eol_len = 1;
            if (YYCURSOR - tok >= 2 && YYCURSOR[-1] == '\n' && YYCURSOR[-2] == '\r')
                eol_len = 2;
            *start = f->pos;
            *len = (size_t)(YYCURSOR - tok) - eol_len;
            f->pos = (size_t)(YYCURSOR - base);
            f->at_line_start = 1;
            return 1;
        }
        // The rest of a body that does not end in a line end (spec A.3).
        [^\r\n]+ {
            *start = f->pos;
            *len = (size_t)(YYCURSOR - tok);
            f->pos = (size_t)(YYCURSOR - base);
            f->at_line_start = 0;
            return 1;
        }
        $ {
            // Spec A.3: after a final line end (or in an empty body) an
            // empty line is still due.
            if (!f->at_line_start)
                return 0;
            f->at_line_start = 0;
            *start = f->pos;
            *len = 0;
            return 1;
        }
    */
}

/* Spec C: the exact (lower-cased) keys that lint reports as "Unused". The
 * key is read through a bounded YYPEEK that yields NUL past its end (a key
 * never holds a NUL, spec A.5), so "\x00" below means "end of key". */
static int is_unused_key(const unsigned char *key, size_t len)
{
    const unsigned char *cur = key, *const lim = key + len, *mar = key;
#define YYPEEK() (cur < lim ? *cur : 0)
#define YYSKIP() (++cur)
#define YYBACKUP() (mar = cur)
#define YYRESTORE() (cur = mar)
    /*!local:re2c
        re2c:api = custom;
        re2c:define:YYCTYPE = "unsigned char";
        re2c:yyfill:enable = 0;

        ( 'clean-param' | 'content-signal' | 'content-usage' | 'crawl-delay'
        | 'domain' | 'host' | 'noarchive' | 'nofollow' | 'noindex'
        | 'request-rate' | 'revisit-after' | 'visit-time' ) "\x00" { return 1; }
        * { return 0; }
    */
}

/* Spec C.1, C.2: keys are classified case-insensitively by PREFIX (a rule
 * needs only its prefix to match; what follows is ignored), in the order
 * user-agent, allow, disallow, sitemap. No key matches two of the prefixes
 * below, so longest-match order and the spec's order agree. */
rsc_tag rsc_classify_key(const unsigned char *key, size_t len, int *typo)
{
    const unsigned char *cur = key, *const lim = key + len, *mar = key;
    *typo = 0;
    /*!local:re2c
        re2c:api = custom;
        re2c:define:YYCTYPE = "unsigned char";
        re2c:yyfill:enable = 0;

        'user-agent' { return RSC_TAG_USER_AGENT; }
        'useragent' | 'user agent' { *typo = 1; return RSC_TAG_USER_AGENT; }
        'allow' { return RSC_TAG_ALLOW; }
        'disallow' { return RSC_TAG_DISALLOW; }
        'dissallow' | 'dissalow' | 'disalow' | 'diasllow' | 'disallaw' {
            *typo = 1;
            return RSC_TAG_DISALLOW;
        }
        'sitemap' { return RSC_TAG_SITEMAP; }
        'site-map' { *typo = 1; return RSC_TAG_SITEMAP; }
        * {
            (void)mar;
            return is_unused_key(key, len) ? RSC_TAG_UNUSED : RSC_TAG_UNKNOWN;
        }
    */
}
#undef YYPEEK
#undef YYSKIP
#undef YYBACKUP
#undef YYRESTORE

typedef struct span {
    size_t a, b; /* [a, b) in the body */
} span;

static span trim(const unsigned char *s, span x)
{
    while (x.a < x.b && is_ws(s[x.a]))
        x.a++;
    while (x.b > x.a && is_ws(s[x.b - 1]))
        x.b--;
    return x;
}

static const unsigned char *find(const unsigned char *s, span x, int c)
{
    return x.a < x.b ? memchr(s + x.a, c, x.b - x.a) : NULL;
}

static size_t find_blank(const unsigned char *s, span x)
{
    for (size_t i = x.a; i < x.b; i++)
        if (s[i] == ' ' || s[i] == '\t')
            return i;
    return x.b;
}

/* ---- the rfc profile: RFC 9309's ABNF (section 2.2) --------------------- */

static int is_sp(unsigned char c) /* ABNF WS */
{
    return c == ' ' || c == '\t';
}

static unsigned ascii_lower(unsigned c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* The length of the UTF8-char-noctl at s[i..e) (RFC 9309 2.2, from RFC
 * 3629 without the controls, SP and '#'), or 0. */
static size_t utf8_noctl(const unsigned char *s, size_t i, size_t e)
{
    unsigned c = s[i];
    if (c < 0x80)
        return c > 0x20 && c != '#' ? 1 : 0; /* %x21 / %x22 / %x24-7F */
    size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (n == 0 || e - i < n)
        return 0;
    unsigned lo = 0x80, hi = 0xbf, d = s[i + 1]; /* the second byte's range */
    if (c == 0xe0)
        lo = 0xa0;
    else if (c == 0xed)
        hi = 0x9f;
    else if (c == 0xf0)
        lo = 0x90;
    else if (c == 0xf4)
        hi = 0x8f;
    if (d < lo || d > hi)
        return 0;
    for (size_t k = 2; k < n; k++)
        if (s[i + k] < 0x80 || s[i + k] > 0xbf)
            return 0;
    return n;
}

/* 1 when s[a..b) is *(UTF8-char-noctl / WS / "#"), a comment's text. */
static int abnf_comment(const unsigned char *s, size_t a, size_t b)
{
    for (size_t n; a < b; a += n)
        if (!(n = is_sp(s[a]) || s[a] == '#' ? 1 : utf8_noctl(s, a, b)))
            return 0;
    return 1;
}

/* The ABNF's verdict on a record's value s[a..b) (trimmed of WS). */
static uint8_t abnf_value(const unsigned char *s, size_t a, size_t b, int tag)
{
    if (tag == RSC_TAG_USER_AGENT) { /* product-token = identifier / "*" */
        if (b - a == 1 && s[a] == '*')
            return RSC_ABNF_OK;
        for (size_t i = a; i < b; i++) {
            unsigned c = ascii_lower(s[i]);
            if (!(c >= 'a' && c <= 'z') && s[i] != '-' && s[i] != '_')
                return RSC_ABNF_AGENT;
        }
        return a < b ? RSC_ABNF_OK : RSC_ABNF_AGENT;
    }
    if (a == b) /* empty-pattern */
        return RSC_ABNF_OK;
    if (s[a] != '/') /* path-pattern = "/" *UTF8-char-noctl */
        return RSC_ABNF_PATH;
    for (size_t n, i = a + 1; i < b; i += n)
        if ((n = utf8_noctl(s, i, b)) == 0)
            return RSC_ABNF_PATH;
    return RSC_ABNF_OK;
}

/* RFC 9309 2.2: a startgroupline or a rule, *WS key *WS ":" *WS value, the
 * key exactly "user-agent", "allow" or "disallow" (ABNF strings are
 * case-insensitive), WS only SP and HTAB, and no line cut. x is the line
 * before its comment. Returns the tag, or 0 when the line is no such
 * record (then other records keep Google's leniency, RFC 9309 2.2.4). */
static int rfc_record(const unsigned char *s, span x, span *key, span *val)
{
    static const struct {
        const char *name;
        size_t len;
        int tag;
    } keys[] = {{"user-agent", 10, RSC_TAG_USER_AGENT},
                {"allow", 5, RSC_TAG_ALLOW},
                {"disallow", 8, RSC_TAG_DISALLOW}};
    size_t a = x.a;
    while (a < x.b && is_sp(s[a]))
        a++;
    const unsigned char *colon = find(s, (span){a, x.b}, ':');
    if (!colon)
        return 0;
    size_t ke = (size_t)(colon - s);
    while (ke > a && is_sp(s[ke - 1]))
        ke--;
    int tag = 0;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0] && !tag; k++) {
        if (ke - a != keys[k].len)
            continue;
        size_t i = 0;
        while (i < keys[k].len && ascii_lower(s[a + i]) == (unsigned char)keys[k].name[i])
            i++;
        if (i == keys[k].len)
            tag = keys[k].tag;
    }
    if (!tag)
        return 0;
    size_t va = (size_t)(colon - s) + 1, vb = x.b;
    while (va < vb && is_sp(s[va]))
        va++;
    while (vb > va && is_sp(s[vb - 1]))
        vb--;
    *key = (span){a, ke};
    *val = (span){va, vb};
    return tag;
}

static int tag_token(int tag)
{
    switch (tag) {
    case RSC_TAG_USER_AGENT: return RSC_T_USER_AGENT;
    case RSC_TAG_ALLOW: return RSC_T_ALLOW;
    case RSC_TAG_DISALLOW: return RSC_T_DISALLOW;
    case RSC_TAG_SITEMAP: return RSC_T_SITEMAP;
    default: return RSC_T_OTHER; /* spec C.3 */
    }
}

/* Layer 2: spec B for one line. Fills the lint fields of *l and, for a
 * directive, the key and value spans; returns the token kind. In the rfc
 * profile the RFC's own records are read by its ABNF (rfc_record), with
 * no line cut; what Google would read as one of them, and the ABNF does
 * not, is no directive (docs/SEMANTICS.md, the rfc profile). */
static int analyse_line(const unsigned char *s, size_t start, size_t len, rsc_line *l,
                        span *key, span *val, int rfc)
{
    span x = {start, start + len};
    if (len > RSC_MAX_LINE && !rfc) { /* spec A.4 */
        x.b = start + RSC_MAX_LINE;
        l->is_line_too_long = 1;
    }
    const unsigned char *p = find(s, x, '\0'); /* spec A.5 */
    if (p) {
        x.b = (size_t)(p - s);
        if (rfc)
            l->abnf = RSC_ABNF_BYTES;
    }
    size_t line_end = x.b;
    p = find(s, x, '#'); /* spec B.1 */
    if (p) {
        x.b = (size_t)(p - s);
        l->has_comment = 1;
        if (rfc && !abnf_comment(s, x.b + 1, line_end))
            l->abnf = RSC_ABNF_BYTES;
    }
    if (rfc) {
        int tag = rfc_record(s, x, key, val);
        if (tag) {
            l->has_directive = 1;
            l->tag = (uint8_t)tag;
            if (!l->abnf)
                l->abnf = abnf_value(s, val->a, val->b, tag);
            return tag_token(tag);
        }
    }
    const size_t pre = x.b;
    x = trim(s, x); /* spec B.2 */
    if (x.a == x.b) {
        if (l->has_comment)
            l->is_comment = 1;
        else
            l->is_empty = 1;
        if (rfc && !l->abnf) /* an emptyline holds WS only before its comment */
            for (size_t i = start; i < pre; i++)
                if (!is_sp(s[i]))
                    l->abnf = RSC_ABNF_BYTES;
        return RSC_T_EOL;
    }
    size_t sep;
    p = find(s, x, ':'); /* spec B.3 */
    if (p) {
        sep = (size_t)(p - s);
    } else {
        /* Spec B.4: exactly two blank-separated tokens. x is trimmed, so a
         * value follows the run of blanks. */
        sep = find_blank(s, x);
        if (sep == x.b)
            return RSC_T_JUNK;
        size_t v = sep;
        while (s[v] == ' ' || s[v] == '\t')
            v++;
        span rest = {v, x.b};
        if (find_blank(s, rest) != x.b)
            return RSC_T_JUNK;
        l->is_missing_colon_separator = 1;
    }
    *key = trim(s, (span){x.a, sep});
    if (key->a == key->b) { /* spec B.5 */
        l->is_missing_colon_separator = 0;
        return RSC_T_JUNK;
    }
    *val = trim(s, (span){sep + 1, x.b});
    l->has_directive = 1;
    int typo;
    l->tag = (uint8_t)rsc_classify_key(s + key->a, key->b - key->a, &typo);
    l->is_acceptable_typo = (uint8_t)typo;
    if (rfc && l->tag >= RSC_TAG_USER_AGENT && l->tag <= RSC_TAG_DISALLOW) {
        /* Google's record, not the ABNF's (rfc_record said no): ignored */
        l->has_directive = l->is_acceptable_typo = l->is_missing_colon_separator = 0;
        l->tag = RSC_TAG_UNKNOWN;
        l->abnf = RSC_ABNF_NOT_RECORD;
        return RSC_T_JUNK;
    }
    return tag_token(l->tag);
}

/* The grammar's token source: per line, [DIRECTIVE | JUNK] EOL. */
int rsc_yylex(RSC_YYSTYPE *lval, rsc_front *f)
{
    if (f->pending_eol) {
        f->pending_eol = 0;
        return RSC_T_EOL;
    }
    size_t start, len;
    if (f->pv->mem.failed || !next_line(f, &start, &len))
        return RSC_T_YYEOF;
    rsc_line l;
    memset(&l, 0, sizeof l);
    l.number = (uint32_t)f->ir->n_lines + 1;
    l.offset = (uint32_t)(f->ir->bom_len + start);
    l.length = (uint32_t)len;
    span key = {0, 0}, val = {0, 0};
    int kind = analyse_line(f->body, start, len, &l, &key, &val,
                            f->ir->profile == RSC_PROFILE_RFC);
    long idx = rsc_build_line(f, &l);
    if (idx < 0)
        return RSC_T_YYEOF; /* out of memory: rsc_parse sees mem.failed */
    if (kind == RSC_T_EOL)
        return kind;
    lval->line = (uint32_t)idx;
    lval->key_off = (uint32_t)key.a;
    lval->key_len = (uint32_t)(key.b - key.a);
    lval->val_off = (uint32_t)val.a;
    lval->val_len = (uint32_t)(val.b - val.a);
    f->pending_eol = 1;
    return kind;
}
