/* SPDX-License-Identifier: Apache-2.0 */
/* Format-4 blobs back to an IR (v4read.h). The checks follow the
 * Verification list of docs/FORMAT.md as of 3a05c31 (format 4.0) in its
 * order, for every section this reader uses; PROGRAMS is checked for its
 * framing only, because the rebuild never reads a program: the current
 * compiler makes its own from the rules. Field by field, little-endian,
 * never a struct over the bytes. */
#include "v4read.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Section ids of format 4 (FORMAT.md, Sections). */
enum { S_STRINGS = 1, S_RULES, S_PROGRAMS, S_SETS, S_AGENTS, S_GROUPS, S_SITEMAPS, S_DIRECTIVES };

#define V4_MAJOR 4
#define V4_HEADER 11 /* magic, major, minor, flags, checksum; Total_Size follows */
#define V4_CHECKSUM_AT 7

typedef struct table {
    uint32_t count;
    unsigned cols;
    uint8_t width[6];
    uint8_t at[6];   /* a column's offset in its row */
    size_t row;      /* bytes per row */
    size_t rows;     /* offset of row 0 */
    size_t off;      /* offset of the Table, for errors */
} table;

typedef struct reader {
    const uint8_t *b;
    size_t n;
    rsc_v4_error *err;
    size_t sec_start[S_DIRECTIVES + 1], sec_end[S_DIRECTIVES + 1];
    uint8_t present[S_DIRECTIVES + 1];
    int rfc;
    size_t str_at, str_size; /* STRINGS */
    table rules, agents, groups, glist, sitemaps, dirs;
    uint32_t global; /* AGENTS Global */
} reader;

static rsc_status fail(reader *r, rsc_status st, size_t off, const char *what)
{
    r->err->offset = off;
    r->err->what = what;
    return st;
}

/* Unsigned LEB128 below end: 1 to 5 bytes, < 2^32, canonical. */
static int varint(const uint8_t *b, size_t end, size_t *pos, uint32_t *v)
{
    uint32_t x = 0;
    for (unsigned i = 0; i < 5; i++) {
        if (*pos >= end)
            return -1;
        const uint8_t c = b[(*pos)++];
        if (i == 4 && c > 0x0F)
            return -1;
        x |= (uint32_t)(c & 0x7F) << (7 * i);
        if (!(c & 0x80)) {
            if (i > 0 && c == 0)
                return -1;
            *v = x;
            return 0;
        }
    }
    return -1;
}

/* A Table of cols columns at *pos, inside [.., end). */
static rsc_status read_table(reader *r, size_t *pos, size_t end, unsigned cols, table *t)
{
    memset(t, 0, sizeof *t);
    t->off = *pos;
    t->cols = cols;
    if (varint(r->b, end, pos, &t->count) != 0)
        return fail(r, RSC_E_CORRUPT, t->off, "table count is not a valid varint");
    if (t->count == 0) {
        t->rows = *pos;
        return RSC_OK;
    }
    const size_t nb = (cols + 3) / 4;
    if (end - *pos < nb)
        return fail(r, RSC_E_CORRUPT, t->off, "table widths past the section's end");
    for (unsigned c = 0; c < cols; c++) {
        t->width[c] = (uint8_t)(((r->b[*pos + c / 4] >> (2 * (c % 4))) & 3) + 1);
        t->at[c] = (uint8_t)t->row;
        t->row += t->width[c];
    }
    if (cols % 4 && (r->b[*pos + nb - 1] >> (2 * (cols % 4))) != 0)
        return fail(r, RSC_E_CORRUPT, t->off, "table width bits past the last column are not zero");
    *pos += nb;
    if (t->count > (end - *pos) / t->row)
        return fail(r, RSC_E_CORRUPT, t->off, "table rows past the section's end");
    t->rows = *pos;
    *pos += (size_t)t->count * t->row;
    return RSC_OK;
}

static uint32_t cell(const reader *r, const table *t, uint32_t row, unsigned col)
{
    const uint8_t *p = r->b + t->rows + (size_t)row * t->row + t->at[col];
    uint32_t v = 0;
    for (unsigned i = t->width[col]; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* Off + Len inside STRINGS, without overflow. */
static int in_strings(const reader *r, uint32_t off, uint32_t len)
{
    return off <= r->str_size && len <= r->str_size - off;
}

static rsc_status section_end(reader *r, size_t pos, int id)
{
    if (pos != r->sec_end[id])
        return fail(r, RSC_E_CORRUPT, pos, "section content does not end at the section's end");
    return RSC_OK;
}

static uint32_t adler32(const uint8_t *b, size_t n)
{
    uint32_t a = 1, s = 0;
    for (size_t i = 0; i < n; i++) {
        const uint32_t x = i >= V4_CHECKSUM_AT && i < V4_CHECKSUM_AT + 4 ? 0 : b[i];
        a = (a + x) % 65521;
        s = (s + a) % 65521;
    }
    return s << 16 | a;
}

/* Header, framing and checksum (FORMAT.md Verification 1-8). */
static rsc_status read_frame(reader *r)
{
    static const uint8_t magic[4] = {0x89, 'R', 'S', 'C'};
    const uint8_t *b = r->b;
    if (r->n < V4_HEADER + 1)
        return fail(r, RSC_E_TRUNCATED, r->n, "shorter than a header");
    for (size_t i = 0; i < 4; i++)
        if (b[i] != magic[i])
            return fail(r, RSC_E_MAGIC, i, "not a robotsc blob");
    if (b[4] != V4_MAJOR)
        return fail(r, RSC_E_VERSION, 4, "not a format-4 blob");
    if ((b[6] & 3) == 1)
        return fail(r, RSC_E_VERSION, 6,
                    "an rfc blob of an encoder before 2026-11-27: compile it again from its source");
    if ((b[6] & 0xFC) != 0 || (b[6] & 3) == 2)
        return fail(r, RSC_E_CORRUPT, 6, "reserved flag bits set");
    r->rfc = (b[6] & 3) == 3;
    size_t pos = V4_HEADER;
    uint32_t total;
    if (varint(b, r->n, &pos, &total) != 0 || total > r->n)
        return fail(r, RSC_E_TRUNCATED, V4_HEADER, "Total_Size says the blob is longer");
    if (total != r->n)
        return fail(r, RSC_E_SIZE, V4_HEADER, "Total_Size says the blob is shorter");
    const size_t at = pos;
    uint32_t present;
    if (varint(b, r->n, &pos, &present) != 0)
        return fail(r, RSC_E_CORRUPT, at, "Present is not a valid varint");
    for (unsigned id = 1; id <= 32; id++) {
        if (!(present >> (id - 1) & 1))
            continue;
        const size_t szat = pos;
        uint32_t sz;
        if (varint(b, r->n, &pos, &sz) != 0 || sz == 0)
            return fail(r, RSC_E_CORRUPT, szat, "section Size is not a valid varint of at least 1");
        if (sz > r->n - pos)
            return fail(r, RSC_E_CORRUPT, szat, "section ends past Total_Size");
        if (id <= S_DIRECTIVES) { /* later ids: a later minor's sections, skipped */
            r->present[id] = 1;
            r->sec_start[id] = pos;
            r->sec_end[id] = pos + sz;
        }
        pos += sz;
    }
    if (pos != r->n)
        return fail(r, RSC_E_CORRUPT, at, "the sections do not end at Total_Size");
    const uint32_t sum = (uint32_t)b[7] | (uint32_t)b[8] << 8 | (uint32_t)b[9] << 16 |
                         (uint32_t)b[10] << 24;
    if (adler32(b, r->n) != sum)
        return fail(r, RSC_E_CHECKSUM, V4_CHECKSUM_AT, "checksum mismatch: the blob was damaged");
    return RSC_OK;
}

/* (priority, allow, -line): > 0 when row a ranks above row b. */
static int rank_cmp(uint32_t pa, uint32_t la, uint32_t pb, uint32_t lb)
{
    if (pa != pb)
        return pa > pb ? 1 : -1;
    if ((la & 1) != (lb & 1))
        return (la & 1) ? 1 : -1;
    if ((la >> 1) != (lb >> 1))
        return (la >> 1) < (lb >> 1) ? 1 : -1;
    return 0;
}

/* Contents (FORMAT.md Verification 9-15), in id order. */
static rsc_status read_contents(reader *r)
{
    rsc_status st;
    size_t pos;
    r->str_at = r->sec_start[S_STRINGS];
    r->str_size = r->present[S_STRINGS] ? r->sec_end[S_STRINGS] - r->sec_start[S_STRINGS] : 0;

    /* RULES */
    if (r->present[S_RULES]) {
        pos = r->sec_start[S_RULES];
        table *t = &r->rules;
        if ((st = read_table(r, &pos, r->sec_end[S_RULES], r->rfc ? 5 : 3, t)) != RSC_OK)
            return st;
        if ((st = section_end(r, pos, S_RULES)) != RSC_OK)
            return st;
        uint32_t pprio = 0, pline = 0;
        for (uint32_t i = 0; i < t->count; i++) {
            const size_t rowat = t->rows + (size_t)i * t->row;
            const uint32_t la = cell(r, t, i, 0), off = cell(r, t, i, 1), len = cell(r, t, i, 2);
            if ((la >> 1) == 0)
                return fail(r, RSC_E_CORRUPT, rowat, "rule line is 0");
            if (!in_strings(r, off, len))
                return fail(r, RSC_E_CORRUPT, rowat, "rule pattern outside STRINGS");
            uint32_t prio = len;
            if (r->rfc) {
                const uint32_t moff = cell(r, t, i, 3), mlen = cell(r, t, i, 4);
                if (!in_strings(r, moff, mlen))
                    return fail(r, RSC_E_CORRUPT, rowat, "rule match text outside STRINGS");
                prio = mlen;
            }
            if (i > 0 && rank_cmp(prio, la, pprio, pline) <= 0)
                return fail(r, RSC_E_CORRUPT, rowat, "rules not in increasing rank order");
            pprio = prio, pline = la;
        }
    }

    /* PROGRAMS: framing only (the rebuild makes its own programs). */
    uint32_t n_programs = 0;
    if (r->present[S_PROGRAMS]) {
        pos = r->sec_start[S_PROGRAMS];
        table t;
        if ((st = read_table(r, &pos, r->sec_end[S_PROGRAMS], 1, &t)) != RSC_OK)
            return st;
        const size_t data = r->sec_end[S_PROGRAMS] - pos;
        uint32_t prev = 0;
        for (uint32_t i = 0; i < t.count; i++) {
            const uint32_t e = cell(r, &t, i, 0);
            if (e <= prev || e > data)
                return fail(r, RSC_E_CORRUPT, t.rows + (size_t)i * t.row,
                            "program End not increasing or past the data");
            prev = e;
        }
        if (prev != data)
            return fail(r, RSC_E_CORRUPT, t.off, "the last program does not end the data");
        n_programs = t.count;
    }

    /* SETS */
    uint32_t n_sets = n_programs;
    if (r->present[S_SETS]) {
        pos = r->sec_start[S_SETS];
        table sets, list;
        if ((st = read_table(r, &pos, r->sec_end[S_SETS], 2, &sets)) != RSC_OK ||
            (st = read_table(r, &pos, r->sec_end[S_SETS], 1, &list)) != RSC_OK)
            return st;
        if ((st = section_end(r, pos, S_SETS)) != RSC_OK)
            return st;
        for (uint32_t i = 0; i < sets.count; i++) {
            const uint32_t first = cell(r, &sets, i, 0), nn = cell(r, &sets, i, 1);
            if (first > list.count || nn > list.count - first)
                return fail(r, RSC_E_CORRUPT, sets.rows + (size_t)i * sets.row, "set outside its list");
        }
        for (uint32_t i = 0; i < list.count; i++)
            if (cell(r, &list, i, 0) >= n_programs)
                return fail(r, RSC_E_CORRUPT, list.rows + (size_t)i * list.row,
                            "set list names no program");
        n_sets = sets.count;
    }

    /* AGENTS */
    if (r->present[S_AGENTS]) {
        pos = r->sec_start[S_AGENTS];
        const size_t gat = pos;
        if (varint(r->b, r->sec_end[S_AGENTS], &pos, &r->global) != 0 || r->global > n_sets)
            return fail(r, RSC_E_CORRUPT, gat, "Global is not a valid set");
        table *t = &r->agents;
        if ((st = read_table(r, &pos, r->sec_end[S_AGENTS], 3, t)) != RSC_OK)
            return st;
        if ((st = section_end(r, pos, S_AGENTS)) != RSC_OK)
            return st;
        size_t tokens = 0;
        uint32_t poff = 0, plen = 0;
        for (uint32_t i = 0; i < t->count; i++) {
            const size_t rowat = t->rows + (size_t)i * t->row;
            const uint32_t off = cell(r, t, i, 0), len = cell(r, t, i, 1);
            if (!in_strings(r, off, len))
                return fail(r, RSC_E_CORRUPT, rowat, "agent token outside STRINGS");
            tokens += len;
            if (tokens > r->str_size)
                return fail(r, RSC_E_CORRUPT, rowat, "agent tokens longer than STRINGS");
            const uint8_t *s = r->b + r->str_at + off;
            for (uint32_t k = 0; k < len; k++)
                if (!((s[k] >= 'a' && s[k] <= 'z') || s[k] == '_' || s[k] == '-'))
                    return fail(r, RSC_E_CORRUPT, rowat, "agent token byte outside [a-z_-]");
            if (i > 0) {
                const uint8_t *p = r->b + r->str_at + poff;
                const int d = memcmp(p, s, plen < len ? plen : len);
                if (d > 0 || (d == 0 && plen >= len))
                    return fail(r, RSC_E_CORRUPT, rowat, "agent tokens not in increasing order");
            }
            if (cell(r, t, i, 2) >= n_sets)
                return fail(r, RSC_E_CORRUPT, rowat, "agent set out of range");
            poff = off, plen = len;
        }
    }

    /* GROUPS */
    if (r->present[S_GROUPS]) {
        pos = r->sec_start[S_GROUPS];
        if ((st = read_table(r, &pos, r->sec_end[S_GROUPS], 2, &r->groups)) != RSC_OK ||
            (st = read_table(r, &pos, r->sec_end[S_GROUPS], 1, &r->glist)) != RSC_OK)
            return st;
        if ((st = section_end(r, pos, S_GROUPS)) != RSC_OK)
            return st;
        uint32_t prev = 0;
        for (uint32_t i = 0; i < r->groups.count; i++) {
            const uint32_t first = cell(r, &r->groups, i, 1);
            if ((i == 0 && first != 0) || first < prev || first > r->glist.count)
                return fail(r, RSC_E_CORRUPT, r->groups.rows + (size_t)i * r->groups.row,
                            "group agent list out of order or range");
            prev = first;
        }
        for (uint32_t i = 0; i < r->glist.count; i++)
            if (cell(r, &r->glist, i, 0) > r->agents.count)
                return fail(r, RSC_E_CORRUPT, r->glist.rows + (size_t)i * r->glist.row,
                            "group agent names no AGENTS row");
    }

    /* SITEMAPS */
    if (r->present[S_SITEMAPS]) {
        pos = r->sec_start[S_SITEMAPS];
        if ((st = read_table(r, &pos, r->sec_end[S_SITEMAPS], 3, &r->sitemaps)) != RSC_OK)
            return st;
        if ((st = section_end(r, pos, S_SITEMAPS)) != RSC_OK)
            return st;
        for (uint32_t i = 0; i < r->sitemaps.count; i++)
            if (!in_strings(r, cell(r, &r->sitemaps, i, 1), cell(r, &r->sitemaps, i, 2)))
                return fail(r, RSC_E_CORRUPT, r->sitemaps.rows + (size_t)i * r->sitemaps.row,
                            "sitemap outside STRINGS");
    }

    /* DIRECTIVES */
    if (r->present[S_DIRECTIVES]) {
        pos = r->sec_start[S_DIRECTIVES];
        if ((st = read_table(r, &pos, r->sec_end[S_DIRECTIVES], 6, &r->dirs)) != RSC_OK)
            return st;
        if ((st = section_end(r, pos, S_DIRECTIVES)) != RSC_OK)
            return st;
        for (uint32_t i = 0; i < r->dirs.count; i++) {
            const size_t rowat = r->dirs.rows + (size_t)i * r->dirs.row;
            if (cell(r, &r->dirs, i, 1) > r->groups.count)
                return fail(r, RSC_E_CORRUPT, rowat, "directive group out of range");
            if (!in_strings(r, cell(r, &r->dirs, i, 2), cell(r, &r->dirs, i, 3)) ||
                !in_strings(r, cell(r, &r->dirs, i, 4), cell(r, &r->dirs, i, 5)))
                return fail(r, RSC_E_CORRUPT, rowat, "directive outside STRINGS");
        }
    }
    return RSC_OK;
}

/* ---- The IR ---------------------------------------------------------- */

/* One RULES row while the rules are put back in file order. */
typedef struct rrow {
    uint32_t line, rank; /* rank: row + 1 */
    uint32_t off, len;
    uint8_t allow, drop;
} rrow;

static int cmp_rrow(const void *a, const void *b)
{
    const rrow *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Spec E.8 as the compiler applies it (google profile, allow rules): from
 * the last '/', "/index.htm..." also allows the pattern up to that '/'
 * followed by '$'. Returns 1 when d is that pattern of s. */
static int e8_of(const uint8_t *s, size_t n, const uint8_t *d, size_t dn)
{
    size_t k = n;
    while (k > 0 && s[k - 1] != '/')
        k--;
    if (k == 0)
        return 0;
    k--;
    if (n - k < 10 || memcmp(s + k, "/index.htm", 10) != 0)
        return 0;
    return dn == k + 2 && memcmp(d, s, k + 1) == 0 && d[k + 1] == '$';
}

void rsc_v4_ir_free(rsc_ir *ir)
{
    if (!ir)
        return;
    free(ir->groups);
    free(ir->agents);
    free(ir->rules);
    free(ir->sitemaps);
    free(ir->directives);
    free(ir->priv); /* the copy of STRINGS */
    free(ir);
}

/* The group a rule at line l stands in: the last group whose first
 * user-agent line is before it (groups are in file order). */
static size_t group_of(const rsc_ir *ir, uint32_t l)
{
    size_t lo = 0, hi = ir->n_groups; /* groups[lo..hi) */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (ir->groups[mid].line < l)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == 0 ? (size_t)-1 : lo - 1;
}

static rsc_status build_ir(reader *r, rsc_ir **out)
{
    static const char star[] = "*";
    rsc_status st = RSC_OK;
    rrow *rows = NULL;
    rsc_ir *ir = calloc(1, sizeof *ir);
    if (!ir)
        return RSC_E_NOMEM;
    /* Strings the IR points to: a copy of STRINGS (the blob may go away). */
    char *strs = malloc(r->str_size + 1);
    ir->priv = strs;
    const size_t ng = r->groups.count, nl = r->glist.count, nr = r->rules.count;
    ir->groups = calloc(ng + 1, sizeof *ir->groups);
    ir->agents = calloc(nl + 1, sizeof *ir->agents);
    ir->rules = calloc(nr + 1, sizeof *ir->rules);
    ir->sitemaps = calloc(r->sitemaps.count + 1, sizeof *ir->sitemaps);
    ir->directives = calloc(r->dirs.count + 1, sizeof *ir->directives);
    rows = calloc(nr + 1, sizeof *rows);
    if (!strs || !ir->groups || !ir->agents || !ir->rules || !ir->sitemaps || !ir->directives || !rows) {
        st = RSC_E_NOMEM;
        goto out;
    }
    if (r->str_size)
        memcpy(strs, r->b + r->str_at, r->str_size);
    ir->profile = r->rfc ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;

    /* Groups and their agents, in file order. */
    int global_seen = 0;
    uint8_t *named = calloc(r->agents.count + 1, 1);
    if (!named) {
        st = RSC_E_NOMEM;
        goto out;
    }
    for (size_t g = 0; g < ng; g++) {
        const size_t rowat = r->groups.rows + g * r->groups.row;
        rsc_group *gr = &ir->groups[g];
        gr->line = cell(r, &r->groups, (uint32_t)g, 0);
        const uint32_t first = cell(r, &r->groups, (uint32_t)g, 1);
        const uint32_t end = g + 1 < ng ? cell(r, &r->groups, (uint32_t)g + 1, 1) : (uint32_t)nl;
        if (gr->line == 0 || (g > 0 && gr->line <= ir->groups[g - 1].line) || end == first) {
            free(named);
            st = fail(r, RSC_E_CORRUPT, rowat,
                      "groups not in file order or without agents (no robotsc encoder writes this)");
            goto out;
        }
        gr->first_agent = first;
        gr->n_agents = end - first;
        for (uint32_t i = first; i < end; i++) {
            rsc_agent *a = &ir->agents[i];
            const uint32_t e = cell(r, &r->glist, i, 0);
            a->group = (uint32_t)g;
            /* Format 4 keeps a group's first user-agent line only. */
            a->line = gr->line;
            if (e == 0) {
                a->global = 1;
                a->raw.ptr = star, a->raw.len = 1;
                a->token.ptr = strs, a->token.len = 0;
                global_seen = 1;
            } else {
                const uint32_t off = cell(r, &r->agents, e - 1, 0), len = cell(r, &r->agents, e - 1, 1);
                a->token.ptr = a->raw.ptr = strs + off;
                a->token.len = a->raw.len = len;
                named[e - 1] = 1;
            }
        }
    }
    ir->n_groups = ng;
    ir->n_agents = nl;
    /* AGENTS are the distinct tokens the groups name, and Global is set
     * exactly when some group names '*': anything else was not written by
     * a robotsc encoder, and its sets would not be the ones rebuilt here. */
    for (uint32_t i = 0; i < r->agents.count; i++)
        if (!named[i]) {
            free(named);
            st = fail(r, RSC_E_CORRUPT, r->agents.rows + (size_t)i * r->agents.row,
                      "an agent no group names");
            goto out;
        }
    free(named);
    if ((r->global != 0) != global_seen) {
        st = fail(r, RSC_E_CORRUPT, r->sec_start[S_AGENTS],
                  "Global disagrees with the groups' global agents");
        goto out;
    }

    /* Rules: back in file order (by line), each in the group its line falls in. */
    for (uint32_t i = 0; i < nr; i++) {
        const uint32_t la = cell(r, &r->rules, i, 0);
        rows[i].line = la >> 1;
        rows[i].allow = (uint8_t)(la & 1);
        rows[i].rank = i + 1;
        rows[i].off = cell(r, &r->rules, i, 1);
        rows[i].len = cell(r, &r->rules, i, 2);
    }
    qsort(rows, nr, sizeof *rows, cmp_rrow);
    /* One line holds one rule; a second row of the same line can only be
     * the E.8 pattern the compiler derived from it (google), which the
     * compiler derives again: it is left out. */
    for (size_t i = 0; i + 1 < nr; i++) {
        if (rows[i].line != rows[i + 1].line)
            continue;
        const rrow *x = &rows[i], *y = &rows[i + 1];
        const uint8_t *xs = r->b + r->str_at + x->off, *ys = r->b + r->str_at + y->off;
        int ok = !r->rfc && x->allow && y->allow && (i + 2 >= nr || rows[i + 2].line != x->line);
        if (ok && e8_of(xs, x->len, ys, y->len))
            rows[i + 1].drop = 1;
        else if (ok && e8_of(ys, y->len, xs, x->len))
            rows[i].drop = 1;
        else {
            st = fail(r, RSC_E_CORRUPT, r->rules.rows + (size_t)(x->rank - 1) * r->rules.row,
                      "two rules on one line (no robotsc encoder writes this)");
            goto out;
        }
    }
    size_t k = 0, g_prev = 0;
    for (size_t i = 0; i < nr; i++) {
        if (rows[i].drop)
            continue;
        const size_t g = group_of(ir, rows[i].line);
        if (g == (size_t)-1) {
            st = fail(r, RSC_E_CORRUPT, r->rules.rows + (size_t)(rows[i].rank - 1) * r->rules.row,
                      "a rule before the first group");
            goto out;
        }
        rsc_rule *ru = &ir->rules[k];
        ru->line = rows[i].line;
        ru->group = (uint32_t)g;
        ru->allow = rows[i].allow;
        ru->pattern.ptr = ru->raw.ptr = strs + rows[i].off;
        ru->pattern.len = ru->raw.len = rows[i].len;
        ru->priority = rows[i].len;
        if (k == 0 || g != g_prev)
            ir->groups[g].first_rule = (uint32_t)k;
        ir->groups[g].n_rules++;
        g_prev = g;
        k++;
    }
    ir->n_rules = k;
    for (size_t g = 0; g < ng; g++)
        if (ir->groups[g].n_rules == 0) /* a group without rules: an empty range */
            ir->groups[g].first_rule = (uint32_t)k;

    for (uint32_t i = 0; i < r->sitemaps.count; i++) {
        rsc_sitemap *s = &ir->sitemaps[i];
        s->line = cell(r, &r->sitemaps, i, 0);
        s->url.ptr = strs + cell(r, &r->sitemaps, i, 1);
        s->url.len = cell(r, &r->sitemaps, i, 2);
    }
    ir->n_sitemaps = r->sitemaps.count;
    for (uint32_t i = 0; i < r->dirs.count; i++) {
        rsc_directive *d = &ir->directives[i];
        const uint32_t g = cell(r, &r->dirs, i, 1);
        d->line = cell(r, &r->dirs, i, 0);
        d->group = g ? g - 1 : RSC_NO_GROUP;
        d->key.ptr = strs + cell(r, &r->dirs, i, 2);
        d->key.len = cell(r, &r->dirs, i, 3);
        /* Format 4 keeps the escaped value only: raw is that value. */
        d->value.ptr = d->raw.ptr = strs + cell(r, &r->dirs, i, 4);
        d->value.len = d->raw.len = cell(r, &r->dirs, i, 5);
    }
    ir->n_directives = r->dirs.count;
out:
    free(rows);
    if (st != RSC_OK) {
        rsc_v4_ir_free(ir);
        ir = NULL;
    }
    *out = ir;
    return st;
}

rsc_status rsc_v4_read(const void *blob, size_t size, rsc_ir **out, rsc_v4_error *err)
{
    rsc_v4_error dummy;
    if (!err)
        err = &dummy;
    err->offset = 0;
    err->what = "";
    if (!out)
        return RSC_E_ARG;
    *out = NULL;
    if (!blob && size)
        return RSC_E_ARG;
    reader r;
    memset(&r, 0, sizeof r);
    r.b = blob;
    r.n = size;
    r.err = err;
    rsc_status st = read_frame(&r);
    if (st == RSC_OK)
        st = read_contents(&r);
    if (st == RSC_OK)
        st = build_ir(&r, out);
    return st;
}

rsc_status rsc_v4_upgrade(const void *blob, size_t size, int force, rsc_blob *out,
                          rsc_v4_error *err, int *what)
{
    rsc_v4_error dummy;
    int dwhat;
    if (!err)
        err = &dummy;
    if (!what)
        what = &dwhat;
    *what = 0;
    err->offset = 0;
    err->what = "";
    if (!out)
        return RSC_E_ARG;
    out->data = NULL;
    out->size = 0;
    if (!blob && size)
        return RSC_E_ARG;
    const uint8_t *b = blob;
    const int v4 = size > 4 && b[0] == 0x89 && b[1] == 'R' && b[2] == 'S' && b[3] == 'C' &&
                   b[4] == V4_MAJOR;
    rsc_program prog;
    rsc_load_error le = {0, ""};
    rsc_status st = rsc_load(&prog, blob ? blob : "", size, &le);
    if (st == RSC_OK && !(force && v4)) {
        out->data = malloc(size ? size : 1);
        if (!out->data)
            return RSC_E_NOMEM;
        memcpy(out->data, blob, size);
        out->size = size;
        *what = RSC_V4_CURRENT;
        return RSC_OK;
    }
    if (!v4) { /* not format 4: what the current runtime says of it */
        err->offset = le.offset;
        err->what = le.what ? le.what : "";
        return st;
    }
    rsc_ir *ir = NULL;
    st = rsc_v4_read(blob, size, &ir, err);
    if (st != RSC_OK)
        return st;
    rsc_compile_options co;
    memset(&co, 0, sizeof co);
    co.profile = ir->profile;
    st = rsc_compile_ir(ir, &co, out);
    rsc_v4_ir_free(ir);
    if (st != RSC_OK) {
        err->offset = 0;
        err->what = "the current compiler refused the rules read from the blob";
        return st;
    }
    st = rsc_load(&prog, out->data, out->size, &le);
    if (st != RSC_OK) { /* the compiler's own output: never expected */
        rsc_blob_free(out, NULL);
        err->offset = le.offset;
        err->what = "the rebuilt blob does not verify";
        return st;
    }
    *what = RSC_V4_REBUILT;
    return RSC_OK;
}
