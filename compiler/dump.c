/* SPDX-License-Identifier: Apache-2.0 */
/* Disassembly and counts of a verified program (docs/FORMAT.md, version 3).
 * Reads the tables through the offsets rsc_load() left in rsc_program's
 * private words (runtime/program.h) and parses the section framing and the
 * tries itself. The blob is verified, so the tables are trusted; the section
 * walk and the trie walk still stay inside the blob and the program span, so
 * a hand-made rsc_program cannot make them run away.
 *
 * Output (one item a line, deterministic; pinned by the golden tests):
 *
 *   robotsc blob 3.0
 *   profile google|rfc
 *   size N
 *   checksum AAAAAAAA
 *   sections N
 *     NAME id I offset O size S          O: absolute offset of the content
 *   agents N
 *     "token" -> set S
 *   global none | global -> set S
 *   sets N
 *     set I: programs P P ...  | set I: programs (none: allows everything)
 *   programs N
 *   program K: data @D, size S, nodes N, globs G     D: offset in Data
 *     @O "edge" [accept R] [end R] [root S] children C   one line per
 *                                                    node, preorder, 2
 *                                                    spaces a level; O from
 *                                                    the trie start; edge:
 *                                                    key byte + Label
 *     internal N | chain of N segments               the wildcard part:
 *     root S: level L max R                          one line per row of
 *     segment O: "bytes" next O' max R               ROOTS, OUTS (with the
 *       edge E: parent P rank R [then I] [$]         segment's edges: P is
 *     state T: key "c" children F+N fail T' out O    a root slot rS or an
 *                                                    internal node iI)
 *                                                    and STATES
 *   rules N
 *     rank R: line L allow|disallow priority P "pattern"
 *   groups N
 *     group I line L: "token" ...
 *   sitemaps N
 *     line L "url"
 *   directives N
 *     line L group none|G "key" = "value"
 *
 * Strings are quoted: printable ASCII as is, '"', '\\' and every other byte
 * as \xHH. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "program.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

/* ---- reading ------------------------------------------------------------- */

/* A varint inside [*pp, end): 0 when it runs past end or is too long. */
static int uvb(const uint8_t **pp, const uint8_t *end, uint32_t *v)
{
    const uint8_t *p = *pp;
    uint32_t r = 0;
    for (unsigned i = 0; i < RSC_VARINT_MAX; i++) {
        if (p >= end)
            return 0;
        uint32_t b = *p++;
        r |= (b & 0x7fu) << (7 * i);
        if (!(b & 0x80u)) {
            *pp = p;
            *v = r;
            return 1;
        }
    }
    return 0;
}

/* One trie node, parsed from its span. Offsets relative to the program. */
typedef struct node {
    uint32_t head, label_len, accept, end, n, width, depth, slot;
    const uint8_t *label;
    const uint8_t *keys, *offs;
    uint32_t c; /* where the children's Offsets count from */
} node;

/* Rule r's match text (FORMAT.md, RULES), or NULL when r is out of range. */
static const uint8_t *mtext(const rsc_program *prog, uint32_t r, uint32_t *len)
{
    unsigned col = (prog->flags & RSC_FLAG_PROFILE_RFC) ? 3 : 1;
    if (r < 1 || r > prog->priv[P_RULES_N])
        return NULL;
    *len = rsc_tab(prog, P_RULES, r - 1, col + 1);
    return prog->base + prog->priv[P_STR_OFF] + rsc_tab(prog, P_RULES, r - 1, col);
}

/* The node at [at, span_end) whose label starts at string depth d. */
static int parse_node(const rsc_program *prog, const uint8_t *pg, uint32_t at, uint32_t span_end,
                      uint32_t d, node *nd)
{
    const uint8_t *p = pg + at, *e = pg + span_end;
    uint32_t lh, x = 0, ml;
    memset(nd, 0, sizeof *nd);
    if (at >= span_end || !uvb(&p, e, &lh))
        return 0;
    uint32_t kind = lh & RSC_LABEL_KIND;
    nd->label_len = lh >> RSC_LABEL_SHIFT;
    if (kind != RSC_LABEL_INLINE) {
        const uint8_t *t;
        if (!uvb(&p, e, &x) || !(t = mtext(prog, x, &ml)) || d > ml || nd->label_len > ml - d)
            return 0;
        nd->label = t + d;
    } else {
        if (nd->label_len > (size_t)(e - p))
            return 0;
        nd->label = p;
        p += nd->label_len;
    }
    nd->depth = d + nd->label_len;
    if (kind >= RSC_LEAF_ACCEPT) { /* a leaf of one rank */
        nd->head = kind == RSC_LEAF_ACCEPT ? RSC_N_ACCEPT : RSC_N_END;
        *(kind == RSC_LEAF_ACCEPT ? &nd->accept : &nd->end) = x;
    } else {
        if (!uvb(&p, e, &nd->head))
            return 0;
        if ((nd->head & RSC_N_ACCEPT) && !uvb(&p, e, &nd->accept))
            return 0;
        if ((nd->head & RSC_N_END) && !uvb(&p, e, &nd->end))
            return 0;
        if ((nd->head & RSC_N_ROOT) && !uvb(&p, e, &nd->slot))
            return 0;
    }
    nd->n = nd->head >> RSC_N_CHILD_SHIFT;
    nd->width = ((nd->head >> RSC_N_WIDTH_SHIFT) & RSC_N_WIDTH_MASK) + 1;
    size_t noffs = nd->n ? nd->n - 1 : 0;
    if (nd->n > RSC_MAX_CHILDREN || nd->n + noffs * nd->width > (size_t)(e - p))
        return 0;
    nd->keys = p;
    p += nd->n;
    nd->offs = p;
    p += noffs * nd->width;
    nd->c = (uint32_t)(p - pg);
    return 1;
}

/* The span [*cs, *ce) of child k of nd, whose own span ends at span_end. */
static int child_span(const node *nd, uint32_t k, uint32_t span_end, uint32_t *cs,
                      uint32_t *ce)
{
    uint32_t room = span_end - nd->c; /* nd->c <= span_end by parse_node */
    uint32_t o = k ? rsc_rdn(nd->offs + (size_t)(k - 1) * nd->width, nd->width) : 0;
    uint32_t next = k + 1 < nd->n ? rsc_rdn(nd->offs + (size_t)k * nd->width, nd->width) : room;
    if (o >= next || next > room)
        return 0;
    *cs = nd->c + o;
    *ce = nd->c + next;
    return 1;
}

/* ---- text output --------------------------------------------------------- */

typedef struct out {
    rsc_write_fn w;
    void *ud;
} out;

static void say(out *o, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->w(o->ud, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void indent(out *o, size_t levels)
{
    static const char sp[] = "                                ";
    size_t n = 2 * levels;
    while (n > 0) {
        size_t k = n < sizeof sp - 1 ? n : sizeof sp - 1;
        o->w(o->ud, sp, k);
        n -= k;
    }
}

/* A quoted string of a[0..na) then b[0..nb): printable ASCII as is, '"'
 * and '\\' and every other byte as \xHH. */
static void say_quoted(out *o, const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    char buf[128];
    size_t k = 0;
    buf[k++] = '"';
    for (size_t i = 0; i < na + nb; i++) {
        if (k > sizeof buf - 8) {
            o->w(o->ud, buf, k);
            k = 0;
        }
        uint8_t c = i < na ? a[i] : b[i - na];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            buf[k++] = (char)c;
        else
            k += (size_t)snprintf(buf + k, 5, "\\x%02X", c);
    }
    buf[k++] = '"';
    o->w(o->ud, buf, k);
}

static void say_str(out *o, const rsc_program *prog, uint32_t off, uint32_t len)
{
    uint32_t sz = prog->priv[P_STR_SIZE];
    if (off > sz || len > sz - off) {
        say(o, "<bad string %u+%u>", off, len);
        return;
    }
    say_quoted(o, NULL, 0, prog->base + prog->priv[P_STR_OFF] + off, len);
}

static const char *section_name(uint32_t id)
{
    static const char *const names[] = {"?",    "STRINGS", "RULES",    "PROGRAMS",  "SETS",
                                        "AGENTS", "GROUPS", "SITEMAPS", "DIRECTIVES", "DFAS"};
    return id >= 1 && id <= RSC_SEC_LAST_KNOWN ? names[id] : "UNKNOWN";
}

/* ---- programs ------------------------------------------------------------ */

/* Program k: *pg its first byte, *size its length. */
static void program_span(const rsc_program *prog, uint32_t k, const uint8_t **pg, uint32_t *size)
{
    uint32_t s = k ? rsc_tab(prog, P_PROGS, k - 1, 0) : 0;
    uint32_t e = rsc_tab(prog, P_PROGS, k, 0);
    *pg = prog->base + prog->priv[P_PROG_DATA] + s;
    *size = e > s ? e - s : 0;
}

typedef struct counts {
    uint32_t nodes, globs, states; /* trie nodes, EDGES rows, STATES rows */
} counts;

/* Counts the node at [at, end) (label from string depth d) and its glob
 * entries, and prints them when o is not NULL. key is the byte of the edge
 * from the parent (-1: the root). *depth receives the node's string depth. */
static int visit(out *o, const rsc_program *prog, const uint8_t *pg, uint32_t at, uint32_t end,
                 uint32_t d, size_t level, int key, counts *n, uint32_t *depth)
{
    node nd;
    if (!parse_node(prog, pg, at, end, d, &nd))
        return 0;
    *depth = nd.depth;
    n->nodes++;
    if (o) {
        uint8_t kb = (uint8_t)(key < 0 ? 0 : key);
        indent(o, level + 1);
        say(o, "@%u ", at);
        say_quoted(o, &kb, key < 0 ? 0 : 1, nd.label, nd.label_len);
        if (nd.head & RSC_N_ACCEPT)
            say(o, " accept %u", nd.accept);
        if (nd.head & RSC_N_END)
            say(o, " end %u", nd.end);
        if (nd.head & RSC_N_ROOT)
            say(o, " root %u", nd.slot);
        say(o, " children %u\n", nd.n);
    }
    return 1;
}

typedef struct frame {
    uint32_t at, end, next, depth; /* span, next child, string depth */
} frame;

/* Walks program pg[0..size) in preorder with an explicit stack (one frame
 * per level, RSC_MAX_DEPTH levels: 16 KiB), counting its nodes and glob
 * entries into *n and printing them when o is not NULL. Returns 0 when the
 * program is malformed (never for a verified one). */
static int walk_trie(out *o, const rsc_program *prog, const uint8_t *pg, uint32_t size, counts *n)
{
    frame st[RSC_MAX_DEPTH];
    size_t d = 0;
    node nd;
    if (!visit(o, prog, pg, 0, size, 0, 0, -1, n, &st[0].depth))
        return 0;
    st[0].at = 0;
    st[0].end = size;
    st[0].next = 0;
    for (;;) {
        frame *f = &st[d];
        uint32_t cs, ce, dep;
        if (!parse_node(prog, pg, f->at, f->end, d ? st[d - 1].depth + 1 : 0, &nd))
            return 0;
        if (f->next >= nd.n) {
            if (d == 0)
                return 1;
            d--;
            continue;
        }
        uint32_t k = f->next++;
        if (d + 1 >= RSC_MAX_DEPTH || !child_span(&nd, k, f->end, &cs, &ce))
            return 0;
        if (!visit(o, prog, pg, cs, ce, f->depth + 1, d + 1, nd.keys[k], n, &dep))
            return 0;
        d++;
        st[d].at = cs;
        st[d].end = ce;
        st[d].next = 0;
        st[d].depth = dep;
    }
}

/* A Table at *pp inside [*pp, end): its rows, Count, widths. */
typedef struct dtab {
    const uint8_t *rows;
    uint32_t n, size;
    uint8_t w[RSC_TAB_MAX_COLS];
} dtab;

static int dtab_open(dtab *t, const uint8_t **pp, const uint8_t *end, unsigned cols)
{
    memset(t, 0, sizeof *t);
    if (!uvb(pp, end, &t->n))
        return 0;
    if (!t->n)
        return 1;
    if ((size_t)(end - *pp) < RSC_TAB_WBYTES(cols))
        return 0;
    const uint32_t ws = rsc_tab_widths(*pp, cols);
    for (unsigned c = 0; c < cols; c++)
        t->size += t->w[c] = (uint8_t)rsc_tab_width(ws, c);
    *pp += RSC_TAB_WBYTES(cols);
    if (!t->size || (size_t)(end - *pp) / t->size < t->n)
        return 0;
    t->rows = *pp;
    *pp += (size_t)t->n * t->size;
    return 1;
}

static uint32_t dget(const dtab *t, uint32_t r, unsigned c)
{
    const uint8_t *p = t->rows + (size_t)r * t->size;
    for (unsigned k = 0; k < c; k++)
        p += t->w[k];
    return rsc_rdn(p, t->w[c] <= 4 ? t->w[c] : 4);
}

/* A program: Trie_Size, the trie, then the wildcard part (FORMAT.md). */
static int walk(out *o, const rsc_program *prog, const uint8_t *pg, uint32_t size, counts *n)
{
    const uint8_t *p = pg, *end = pg + size;
    uint32_t tsize, shape;
    dtab roots, outs, states, edges;
    n->nodes = n->globs = n->states = 0;
    if (!uvb(&p, end, &tsize) || tsize > (size_t)(end - p) ||
        !walk_trie(o, prog, p, tsize, n))
        return 0;
    p += tsize;
    if (!uvb(&p, end, &shape) || !dtab_open(&roots, &p, end, RSC_ROOTS_COLS) ||
        !dtab_open(&outs, &p, end, RSC_OUTS_COLS) ||
        !dtab_open(&states, &p, end,
                   shape & RSC_SHAPE_LABELS ? RSC_STATES_COLS_LAB : RSC_STATES_COLS) ||
        !dtab_open(&edges, &p, end, RSC_EDGES_COLS))
        return 0;
    n->globs = edges.n, n->states = states.n;
    if (!o || roots.n == 0)
        return 1;
    const int lab = (shape & RSC_SHAPE_LABELS) != 0;
    const uint8_t *str = STR(prog);
    say(o, shape & RSC_SHAPE_CHAIN ? "  chain of %u segments\n" : "  internal %u%s\n",
        (shape >> RSC_SHAPE_SHIFT) + (shape & RSC_SHAPE_CHAIN), lab ? ", labels" : "");
    for (uint32_t r = 0; r < roots.n; r++)
        say(o, "  root %u: level %u max %u\n", r, dget(&roots, r, 0), dget(&roots, r, 1));
    /* each segment's bytes: follow a state that outputs it back to the root */
    for (uint32_t r = 0; r < outs.n; r++) {
        uint32_t len = dget(&outs, r, 0), e = dget(&outs, r, 3), nf = dget(&outs, r, 4);
        uint32_t na = dget(&outs, r, 5);
        uint8_t buf[64];
        uint32_t got = 0;
        for (uint32_t s = 0; s < states.n && states.n <= 4096 && !got; s++) { /* small automata */
            if (dget(&states, s, 4) != r + 1)
                continue;
            /* its bytes: parents found by their child ranges (BFS order) */
            uint32_t t = s, k = len;
            while (t && k && k <= sizeof buf) {
                uint32_t ll = lab ? dget(&states, t, 6) : 0;
                if (ll >= k)
                    break;
                k -= ll;
                memcpy(buf + k, str + dget(&states, t, 5), ll);
                buf[--k] = (uint8_t)dget(&states, t, 0);
                uint32_t par = 0;
                while (par < t && !(dget(&states, par, 1) <= t &&
                                    t < dget(&states, par, 1) + dget(&states, par, 2)))
                    par++;
                t = par;
            }
            got = k == 0 && len <= sizeof buf;
        }
        say(o, "  segment %u: ", r + 1);
        if (got)
            say_quoted(o, NULL, 0, buf, len);
        else
            say(o, "<%u bytes>", len);
        say(o, " next %u max %u\n", dget(&outs, r, 1), dget(&outs, r, 2));
        for (uint32_t k = e; k < e + nf + na && k < edges.n; k++) {
            uint32_t par = dget(&edges, k, 0), tgt = dget(&edges, k, 2);
            say(o, "    edge %u: parent %s%u rank %u", k, par < roots.n ? "r" : "i",
                par < roots.n ? par : par - roots.n, dget(&edges, k, 1));
            if (tgt)
                say(o, " then i%u", tgt - 1);
            say(o, k >= e + nf ? " $\n" : "\n");
        }
    }
    for (uint32_t s = 0; s < states.n; s++) {
        uint8_t key = (uint8_t)dget(&states, s, 0);
        say(o, "  state %u: key ", s);
        say_quoted(o, NULL, 0, &key, s ? 1 : 0);
        if (lab && dget(&states, s, 6)) {
            say(o, " label ");
            say_quoted(o, NULL, 0, str + dget(&states, s, 5), dget(&states, s, 6));
        }
        say(o, " children %u+%u fail %u out %u\n", dget(&states, s, 1), dget(&states, s, 2),
            dget(&states, s, 3), dget(&states, s, 4));
    }
    return 1;
}

/* ---- public -------------------------------------------------------------- */

/* A target: a record's code (@offset), or the verdicts va ("allow") and
 * va + 1 ("disallow"). */
static void say_target(out *o, uint32_t t, uint32_t va)
{
    if (t < va)
        say(o, "@%u", t);
    else
        say(o, "%s", t == va ? "allow" : "disallow");
}

/* DFAS (FORMAT.md): each set's DFA, record by record. */
static void dump_dfas(out *o, const rsc_program *prog)
{
    const uint32_t n = prog->priv[P_DFAS_N];
    say(o, "dfas %u\n", n);
    for (uint32_t set = 0, prev = 0; set < n; set++) {
        const uint32_t e = rsc_tab(prog, P_DFAS, set, 0);
        if (e == prev) {
            say(o, "  set %u: none (the programs)\n", set);
            continue;
        }
        const uint8_t *q = prog->base + prog->priv[P_DFA_DATA] + prev;
        const uint32_t k = rsc_uv(&q), start = rsc_uv(&q), rules = rsc_uv(&q), size = rsc_uv(&q);
        const uint32_t w = *q & 0xfu, lw = *q >> 4, va = RSC_DFA_CODES(w);
        const uint8_t *c = q + 1;
        say(o, "  set %u: @%u, size %u, states %u, code %u, widths %u/%u, rules %u, start ", set,
            prev, e - prev, k, size, w, lw, rules);
        say_target(o, start, va);
        say(o, "\n");
        for (uint32_t s = 0; s < size;) {
            const uint8_t *r = c + s;
            const uint32_t fl = r[0], len = r[1], oth = rsc_rdn(r + 2, w);
            say(o, "    @%u: end %s, %s ", s, fl & RSC_DFA_E ? "disallow" : "allow",
                fl & RSC_DFA_F ? "else as" : "other");
            say_target(o, oth, va);
            if (fl & RSC_DFA_L) {
                say(o, ", label ");
                say_str(o, prog, rsc_rdn(r + 2 + 2 * w, lw), len);
                say(o, " -> ");
                say_target(o, rsc_rdn(r + 2 + w, w), va);
            } else {
                for (uint32_t i = 0; i < len; i++) {
                    say(o, i ? ", " : ", cells ");
                    say_quoted(o, NULL, 0, r + 2 + w + i, 1);
                    say(o, " -> ");
                    say_target(o, rsc_rdn(r + 2 + w + len + i * w, w), va);
                }
            }
            say(o, "\n");
            s += RSC_DFA_REC_BYTES(fl, len, w, lw);
        }
        prev = e;
    }
}

rsc_status rsc_dump(const rsc_program *prog, rsc_write_fn w, void *ud)
{
    if (!prog || !w || !prog->base || prog->size < RSC_HEADER_MIN)
        return RSC_E_ARG;
    out o = {w, ud};
    const uint8_t *h = prog->base, *end = h + prog->size, *p = h + RSC_H_TOTAL;
    uint32_t total = 0, present = 0;
    if (!uvb(&p, end, &total) || !uvb(&p, end, &present))
        return RSC_E_ARG;
    say(&o, "robotsc blob %u.%u\n", h[RSC_H_MAJOR], h[RSC_H_MINOR]);
    say(&o, "profile %s\n", (prog->flags & RSC_FLAG_PROFILE_RFC) ? "rfc" : "google");
    say(&o, "size %u\n", total);
    say(&o, "checksum %08X\n", rsc_rd32(h + RSC_H_CHECK));

    /* Sections: count them, then list them. */
    uint32_t ns = 0;
    for (uint32_t id = 1; id <= 32; id++)
        ns += present >> (id - 1) & 1;
    say(&o, "sections %u\n", ns);
    for (uint32_t id = 1, sz; id <= 32 && p < end; id++) {
        if (!(present >> (id - 1) & 1))
            continue;
        if (!uvb(&p, end, &sz) || sz > (size_t)(end - p))
            break;
        say(&o, "  %s id %u offset %zu size %u\n", section_name(id), id, (size_t)(p - h), sz);
        p += sz;
    }

    /* AGENTS */
    uint32_t na = prog->priv[P_AGENTS_N];
    say(&o, "agents %u\n", na);
    for (uint32_t i = 0; i < na; i++) {
        say(&o, "  ");
        say_str(&o, prog, rsc_tab(prog, P_AGENTS, i, 0), rsc_tab(prog, P_AGENTS, i, 1));
        say(&o, " -> set %u\n", rsc_tab(prog, P_AGENTS, i, 2));
    }
    if (prog->priv[P_GLOBAL] == 0)
        say(&o, "global none\n");
    else
        say(&o, "global -> set %u\n", prog->priv[P_GLOBAL] - 1);

    /* SETS */
    uint32_t nsets = prog->priv[P_SETS_N], nlist = prog->priv[P_SLIST_N];
    say(&o, "sets %u\n", nsets);
    if (!prog->priv[P_SETS]) /* no SETS: set i is program i */
        say(&o, "  set i: program i\n");
    for (uint32_t i = 0; i < nsets && prog->priv[P_SETS]; i++) {
        uint32_t first = rsc_tab(prog, P_SETS, i, 0), n = rsc_tab(prog, P_SETS, i, 1);
        say(&o, "  set %u: programs", i);
        if (n == 0)
            say(&o, " (none: allows everything)");
        for (uint32_t j = 0; j < n && first < nlist && j < nlist - first; j++)
            say(&o, " %u", rsc_tab(prog, P_SLIST, first + j, 0));
        say(&o, "\n");
    }

    /* PROGRAMS */
    uint32_t np = prog->priv[P_PROGS_N];
    say(&o, "programs %u\n", np);
    for (uint32_t k = 0; k < np; k++) {
        const uint8_t *pg;
        uint32_t size;
        counts c;
        program_span(prog, k, &pg, &size);
        int ok = walk(NULL, prog, pg, size, &c);
        say(&o, "program %u: data @%u, size %u, nodes %u, globs %u\n", k,
            (uint32_t)(pg - (prog->base + prog->priv[P_PROG_DATA])), size, c.nodes, c.globs);
        if (!ok || !walk(&o, prog, pg, size, &c))
            say(&o, "  <corrupt program>\n");
    }

    /* RULES */
    uint32_t nr = prog->priv[P_RULES_N];
    say(&o, "rules %u\n", nr);
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t la = rsc_tab(prog, P_RULES, i, 0), len = rsc_tab(prog, P_RULES, i, 2);
        /* the priority: Str_Len, or Match_Len in the rfc profile */
        uint32_t pri = (prog->flags & RSC_FLAG_PROFILE_RFC) ? rsc_tab(prog, P_RULES, i, 4) : len;
        say(&o, "  rank %u: line %u %s priority %u ", i + 1, la >> 1,
            (la & 1) ? "allow" : "disallow", pri);
        say_str(&o, prog, rsc_tab(prog, P_RULES, i, 1), len);
        say(&o, "\n");
    }

    /* GROUPS */
    uint32_t ng = prog->priv[P_GROUPS_N], ngl = prog->priv[P_GLIST_N];
    say(&o, "groups %u\n", ng);
    for (uint32_t i = 0; i < ng; i++) {
        uint32_t first, n = rsc_group_agents(prog, i, &first);
        say(&o, "  group %u line %u:", i, rsc_tab(prog, P_GROUPS, i, 0));
        for (uint32_t j = 0; j < n && first < ngl && j < ngl - first; j++) {
            uint32_t a = rsc_tab(prog, P_GLIST, first + j, 0); /* 0: '*' */
            say(&o, " ");
            if (a == 0)
                say(&o, "\"*\"");
            else
                say_str(&o, prog, rsc_tab(prog, P_AGENTS, a - 1, 0), rsc_tab(prog, P_AGENTS, a - 1, 1));
        }
        say(&o, "\n");
    }

    /* SITEMAPS */
    uint32_t nsm = prog->priv[P_SITEMAPS_N];
    say(&o, "sitemaps %u\n", nsm);
    for (uint32_t i = 0; i < nsm; i++) {
        say(&o, "  line %u ", rsc_tab(prog, P_SITEMAPS, i, 0));
        say_str(&o, prog, rsc_tab(prog, P_SITEMAPS, i, 1), rsc_tab(prog, P_SITEMAPS, i, 2));
        say(&o, "\n");
    }

    /* DIRECTIVES */
    uint32_t nd = prog->priv[P_DIRS_N];
    say(&o, "directives %u\n", nd);
    for (uint32_t i = 0; i < nd; i++) {
        uint32_t g = rsc_tab(prog, P_DIRS, i, 1);
        say(&o, "  line %u group ", rsc_tab(prog, P_DIRS, i, 0));
        if (g == 0)
            say(&o, "none ");
        else
            say(&o, "%u ", g - 1);
        say_str(&o, prog, rsc_tab(prog, P_DIRS, i, 2), rsc_tab(prog, P_DIRS, i, 3));
        say(&o, " = ");
        say_str(&o, prog, rsc_tab(prog, P_DIRS, i, 4), rsc_tab(prog, P_DIRS, i, 5));
        say(&o, "\n");
    }
    dump_dfas(&o, prog);
    return RSC_OK;
}

rsc_status rsc_blob_info_get(const rsc_program *prog, rsc_blob_info *info)
{
    if (!info)
        return RSC_E_ARG;
    memset(info, 0, sizeof *info);
    if (!prog || !prog->base)
        return RSC_E_ARG;
    info->profile = (prog->flags & RSC_FLAG_PROFILE_RFC) ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
    info->size = prog->size;
    info->n_rules = prog->priv[P_RULES_N];
    info->n_programs = prog->priv[P_PROGS_N];
    info->n_sets = prog->priv[P_SETS_N];
    info->n_agents = prog->priv[P_AGENTS_N];
    info->n_groups = prog->priv[P_GROUPS_N];
    info->n_sitemaps = prog->priv[P_SITEMAPS_N];
    info->n_directives = prog->priv[P_DIRS_N];
    info->has_global = prog->priv[P_GLOBAL] != 0;
    for (uint32_t k = 0; k < info->n_programs; k++) {
        const uint8_t *pg;
        uint32_t size;
        counts c;
        program_span(prog, k, &pg, &size);
        walk(NULL, prog, pg, size, &c); /* a malformed program counts what was read */
        info->total_nodes += c.nodes;
        info->n_globs += c.globs;
        if (c.nodes > info->max_nodes)
            info->max_nodes = c.nodes;
    }
    return RSC_OK;
}
