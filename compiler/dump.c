/* Disassembly and counts of a verified program (docs/FORMAT.md). Reads the
 * blob bytes itself (rsc_program's base and size are public); never the
 * runtime's private fields. Every read is bounds-checked anyway, so a
 * program that was not verified cannot make it read out of bounds. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "robotsc/compiler.h"

typedef struct blob {
    const uint8_t *p;
    size_t size;
    size_t sec_off[RSC_SEC_LAST_KNOWN + 1], sec_size[RSC_SEC_LAST_KNOWN + 1];
} blob;

static uint32_t rd32(const uint8_t *p, size_t size, size_t off)
{
    if (off > size || size - off < 4)
        return 0;
    p += off;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t sec32(const blob *b, int id, size_t off)
{
    return rd32(b->p + b->sec_off[id], b->sec_size[id], off);
}

static rsc_status open_blob(const rsc_program *prog, blob *b)
{
    memset(b, 0, sizeof *b);
    if (!prog || !prog->base || prog->size < RSC_HEADER_SIZE)
        return RSC_E_ARG;
    b->p = prog->base;
    b->size = prog->size;
    uint32_t n = rd32(b->p, b->size, RSC_H_NSECT);
    if (n > RSC_MAX_SECTIONS || RSC_HEADER_SIZE + RSC_SECTION_ENTRY_SIZE * (size_t)n > b->size)
        return RSC_E_ARG;
    size_t at = RSC_HEADER_SIZE + RSC_SECTION_ENTRY_SIZE * (size_t)n;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = b->p + RSC_HEADER_SIZE + RSC_SECTION_ENTRY_SIZE * i;
        unsigned id = (unsigned)e[0] | (unsigned)e[1] << 8;
        size_t sz = rd32(e, 8, 4);
        if (sz > b->size || at > b->size - sz)
            return RSC_E_ARG;
        if (id >= 1 && id <= RSC_SEC_LAST_KNOWN) {
            b->sec_off[id] = at;
            b->sec_size[id] = sz;
        }
        at += (sz + 3) & ~(size_t)3;
    }
    return RSC_OK;
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

/* A quoted string: printable ASCII as is, '"' and '\\' escaped, \xHH else. */
static void say_bytes(out *o, const uint8_t *s, size_t n)
{
    char buf[128];
    size_t k = 0;
    buf[k++] = '"';
    for (size_t i = 0; i < n; i++) {
        if (k > sizeof buf - 8) {
            o->w(o->ud, buf, k);
            k = 0;
        }
        uint8_t c = s[i];
        if (c == '"' || c == '\\') {
            buf[k++] = '\\';
            buf[k++] = (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            buf[k++] = (char)c;
        } else {
            k += (size_t)snprintf(buf + k, 5, "\\x%02X", c);
        }
    }
    buf[k++] = '"';
    o->w(o->ud, buf, k);
}

static void say_str(out *o, const blob *b, uint32_t off, uint32_t len)
{
    size_t sz = b->sec_size[RSC_SEC_STRINGS];
    if (off > sz || len > sz - off) {
        say(o, "<bad string %u+%u>", off, len);
        return;
    }
    say_bytes(o, b->p + b->sec_off[RSC_SEC_STRINGS] + off, len);
}

static void say_target(out *o, uint32_t t)
{
    if (t == RSC_NONE)
        say(o, "NONE");
    else
        say(o, "@%u", t);
}

static const char *section_name(unsigned id)
{
    static const char *const names[] = {"?",      "STRINGS", "RULES",    "AUTOMATA",
                                        "SETS",   "AGENTS",  "GROUPS",   "SITEMAPS",
                                        "DIRECTIVES"};
    return id <= RSC_SEC_LAST_KNOWN ? names[id] : "UNKNOWN";
}

/* Byte ranges of one class of the class map, e.g. [\x00-.0-\xFF]. */
static void say_class(out *o, const uint8_t *map, unsigned cls)
{
    say(o, "[");
    for (unsigned b = 0; b < 256; b++) {
        if (map[b] != cls)
            continue;
        unsigned e = b;
        while (e + 1 < 256 && map[e + 1] == cls)
            e++;
        uint8_t lo = (uint8_t)b, hi = (uint8_t)e;
        if (lo >= 0x21 && lo < 0x7f && lo != '\\' && lo != ']' && lo != '-')
            say(o, "%c", lo);
        else
            say(o, "\\x%02X", lo);
        if (e > b) {
            if (hi >= 0x21 && hi < 0x7f && hi != '\\' && hi != ']' && hi != '-')
                say(o, "-%c", hi);
            else
                say(o, "-\\x%02X", hi);
        }
        b = e;
    }
    say(o, "]");
}

/* One automaton at section offset off, of size sz. */
static void dump_automaton(out *o, const blob *b, uint32_t k, size_t off, size_t sz)
{
    const uint8_t *a = b->p + b->sec_off[RSC_SEC_AUTOMATA] + off;
    uint32_t n = rd32(a, sz, 0), code_size = rd32(a, sz, 4), start = rd32(a, sz, 8);
    uint32_t flags = rd32(a, sz, 12), nc = rd32(a, sz, 16);
    say(o, "automaton %u: states %u, code %u bytes, start @%u", k, n, code_size, start);
    size_t at = RSC_AUT_HEADER_SIZE;
    const uint8_t *map = NULL;
    if (flags & RSC_AUT_HAS_CLASS_MAP) {
        say(o, ", classes %u\n", nc);
        if (at + 256 > sz)
            return;
        map = a + at;
        at += 256;
        for (uint32_t c = 0; c < nc; c++) {
            say(o, "  class %u ", c);
            say_class(o, map, c);
            say(o, "\n");
        }
    } else {
        say(o, "\n");
    }
    if ((size_t)n > (sz - at) / 4)
        return;
    size_t offs = at, code = at + 4 * (size_t)n;
    if (code > sz || code_size > sz - code)
        return;
    const uint8_t *cp = a + code;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t so = rd32(a, sz, offs + 4 * (size_t)i);
        uint32_t w0 = rd32(cp, code_size, so), ceil = rd32(cp, code_size, (size_t)so + 4);
        size_t p = (size_t)so + 8;
        unsigned op = w0 & RSC_OP_MASK;
        say(o, "  s%u @%u %s ceiling %u", w0 >> RSC_ST_INDEX_SHIFT, so,
            op == RSC_OP_LIT ? "LIT" : op == RSC_OP_SPARSE ? "SPARSE" : op == RSC_OP_TABLE ? "TABLE" : "?",
            ceil);
        if (w0 & RSC_ST_HAS_ACCEPT) {
            say(o, " accept %u", rd32(cp, code_size, p));
            p += 4;
        }
        if (w0 & RSC_ST_HAS_END) {
            say(o, " end %u", rd32(cp, code_size, p));
            p += 4;
        }
        say(o, ":");
        if (op == RSC_OP_LIT) {
            uint32_t len = rd32(cp, code_size, p);
            p += 4;
            if (len > code_size || p > code_size - len)
                break;
            say(o, " ");
            say_bytes(o, cp + p, len);
            p += (len + 3u) & ~(size_t)3;
            say(o, " -> ");
            say_target(o, rd32(cp, code_size, p));
        } else if (op == RSC_OP_SPARSE) {
            uint32_t cnt = rd32(cp, code_size, p);
            p += 4;
            if (cnt > 256 || p + cnt > code_size)
                break;
            const uint8_t *bytes = cp + p;
            size_t tg = p + ((cnt + 3u) & ~(size_t)3);
            for (uint32_t j = 0; j < cnt; j++) {
                say(o, " ");
                say_bytes(o, bytes + j, 1);
                say(o, "->");
                say_target(o, rd32(cp, code_size, tg + 4 * (size_t)j));
            }
            say(o, " default ");
            say_target(o, rd32(cp, code_size, tg + 4 * (size_t)cnt));
        } else if (op == RSC_OP_TABLE) {
            for (uint32_t c = 0; c < nc; c++) {
                say(o, " c%u->", c);
                say_target(o, rd32(cp, code_size, p + 4 * (size_t)c));
            }
        }
        say(o, "\n");
    }
}

rsc_status rsc_dump(const rsc_program *prog, rsc_write_fn w, void *ud)
{
    blob b;
    if (!w)
        return RSC_E_ARG;
    rsc_status st = open_blob(prog, &b);
    if (st != RSC_OK)
        return st;
    out o = {w, ud};
    const uint8_t *h = b.p;
    unsigned flags = (unsigned)h[RSC_H_FLAGS] | (unsigned)h[RSC_H_FLAGS + 1] << 8;
    say(&o, "robotsc blob %u.%u\n", h[RSC_H_MAJOR], h[RSC_H_MINOR]);
    say(&o, "profile %s\n", (flags & RSC_FLAG_PROFILE_RFC) ? "rfc" : "google");
    say(&o, "size %u\n", rd32(h, b.size, RSC_H_TOTAL));
    say(&o, "checksum %08X %08X\n", rd32(h, b.size, RSC_H_CHECK_A), rd32(h, b.size, RSC_H_CHECK_B));
    uint32_t ns = rd32(h, b.size, RSC_H_NSECT);
    say(&o, "sections %u\n", ns);
    size_t at = RSC_HEADER_SIZE + RSC_SECTION_ENTRY_SIZE * (size_t)ns;
    for (uint32_t i = 0; i < ns; i++) {
        const uint8_t *e = h + RSC_HEADER_SIZE + RSC_SECTION_ENTRY_SIZE * i;
        unsigned id = (unsigned)e[0] | (unsigned)e[1] << 8;
        uint32_t sz = rd32(e, 8, 4);
        say(&o, "  %s id %u offset %zu size %u\n", section_name(id), id, at, sz);
        at += (sz + 3) & ~(size_t)3;
    }

    /* AGENTS */
    uint32_t na = sec32(&b, RSC_SEC_AGENTS, 0), gset = sec32(&b, RSC_SEC_AGENTS, 4);
    if (b.sec_size[RSC_SEC_AGENTS] == 0)
        gset = RSC_NONE;
    say(&o, "agents %u\n", na);
    for (uint32_t i = 0; i < na && 8 + 12 * (size_t)i < b.sec_size[RSC_SEC_AGENTS]; i++) {
        size_t e = 8 + 12 * (size_t)i;
        say(&o, "  ");
        say_str(&o, &b, sec32(&b, RSC_SEC_AGENTS, e), sec32(&b, RSC_SEC_AGENTS, e + 4));
        say(&o, " -> set %u\n", sec32(&b, RSC_SEC_AGENTS, e + 8));
    }
    if (gset == RSC_NONE)
        say(&o, "global none\n");
    else
        say(&o, "global -> set %u\n", gset);

    /* SETS */
    uint32_t nsets = sec32(&b, RSC_SEC_SETS, 0), nlist = sec32(&b, RSC_SEC_SETS, 4);
    say(&o, "sets %u\n", nsets);
    size_t list = 8 + 8 * (size_t)nsets;
    for (uint32_t i = 0; i < nsets && 8 + 8 * (size_t)i < b.sec_size[RSC_SEC_SETS]; i++) {
        uint32_t first = sec32(&b, RSC_SEC_SETS, 8 + 8 * (size_t)i);
        uint32_t n = sec32(&b, RSC_SEC_SETS, 12 + 8 * (size_t)i);
        say(&o, "  set %u: automata", i);
        if (n == 0)
            say(&o, " (none: allows everything)");
        for (uint32_t j = 0; j < n && (size_t)first + j < nlist; j++)
            say(&o, " %u", sec32(&b, RSC_SEC_SETS, list + 4 * ((size_t)first + j)));
        say(&o, "\n");
    }

    /* AUTOMATA */
    uint32_t naut = sec32(&b, RSC_SEC_AUTOMATA, 0);
    size_t asz = b.sec_size[RSC_SEC_AUTOMATA];
    say(&o, "automata %u\n", naut);
    for (uint32_t k = 0; k < naut && 4 + 4 * (size_t)k < asz; k++) {
        size_t off = sec32(&b, RSC_SEC_AUTOMATA, 4 + 4 * (size_t)k);
        size_t end = k + 1 < naut ? sec32(&b, RSC_SEC_AUTOMATA, 8 + 4 * (size_t)k) : asz;
        if (off > end || end > asz)
            break;
        dump_automaton(&o, &b, k, off, end - off);
    }

    /* RULES */
    uint32_t nr = sec32(&b, RSC_SEC_RULES, 0);
    say(&o, "rules %u\n", nr);
    for (uint32_t i = 0; i < nr && 4 + 16 * (size_t)i < b.sec_size[RSC_SEC_RULES]; i++) {
        size_t e = 4 + 16 * (size_t)i;
        uint32_t lk = sec32(&b, RSC_SEC_RULES, e);
        say(&o, "  rank %u: line %u %s priority %u ", i + 1, lk & RSC_RULE_LINE_MASK,
            (lk & RSC_RULE_ALLOW) ? "allow" : "disallow", sec32(&b, RSC_SEC_RULES, e + 4));
        say_str(&o, &b, sec32(&b, RSC_SEC_RULES, e + 8), sec32(&b, RSC_SEC_RULES, e + 12));
        say(&o, "\n");
    }

    /* GROUPS */
    uint32_t ng = sec32(&b, RSC_SEC_GROUPS, 0), ngl = sec32(&b, RSC_SEC_GROUPS, 4);
    size_t gl = 8 + 12 * (size_t)ng;
    say(&o, "groups %u\n", ng);
    for (uint32_t i = 0; i < ng && 8 + 12 * (size_t)i < b.sec_size[RSC_SEC_GROUPS]; i++) {
        size_t e = 8 + 12 * (size_t)i;
        uint32_t first = sec32(&b, RSC_SEC_GROUPS, e + 4), n = sec32(&b, RSC_SEC_GROUPS, e + 8);
        say(&o, "  group %u line %u:", i, sec32(&b, RSC_SEC_GROUPS, e));
        for (uint32_t j = 0; j < n && (size_t)first + j < ngl; j++) {
            size_t le = gl + 8 * ((size_t)first + j);
            say(&o, " ");
            say_str(&o, &b, sec32(&b, RSC_SEC_GROUPS, le), sec32(&b, RSC_SEC_GROUPS, le + 4));
        }
        say(&o, "\n");
    }

    /* SITEMAPS */
    uint32_t nsm = sec32(&b, RSC_SEC_SITEMAPS, 0);
    say(&o, "sitemaps %u\n", nsm);
    for (uint32_t i = 0; i < nsm && 4 + 12 * (size_t)i < b.sec_size[RSC_SEC_SITEMAPS]; i++) {
        size_t e = 4 + 12 * (size_t)i;
        say(&o, "  line %u ", sec32(&b, RSC_SEC_SITEMAPS, e));
        say_str(&o, &b, sec32(&b, RSC_SEC_SITEMAPS, e + 4), sec32(&b, RSC_SEC_SITEMAPS, e + 8));
        say(&o, "\n");
    }

    /* DIRECTIVES */
    uint32_t nd = sec32(&b, RSC_SEC_DIRECTIVES, 0);
    say(&o, "directives %u\n", nd);
    for (uint32_t i = 0; i < nd && 4 + 24 * (size_t)i < b.sec_size[RSC_SEC_DIRECTIVES]; i++) {
        size_t e = 4 + 24 * (size_t)i;
        uint32_t g = sec32(&b, RSC_SEC_DIRECTIVES, e + 4);
        say(&o, "  line %u group ", sec32(&b, RSC_SEC_DIRECTIVES, e));
        if (g == RSC_NONE)
            say(&o, "none ");
        else
            say(&o, "%u ", g);
        say_str(&o, &b, sec32(&b, RSC_SEC_DIRECTIVES, e + 8), sec32(&b, RSC_SEC_DIRECTIVES, e + 12));
        say(&o, " = ");
        say_str(&o, &b, sec32(&b, RSC_SEC_DIRECTIVES, e + 16), sec32(&b, RSC_SEC_DIRECTIVES, e + 20));
        say(&o, "\n");
    }
    return RSC_OK;
}

rsc_status rsc_blob_info_get(const rsc_program *prog, rsc_blob_info *info)
{
    blob b;
    if (!info)
        return RSC_E_ARG;
    memset(info, 0, sizeof *info);
    rsc_status st = open_blob(prog, &b);
    if (st != RSC_OK)
        return st;
    unsigned flags = (unsigned)b.p[RSC_H_FLAGS] | (unsigned)b.p[RSC_H_FLAGS + 1] << 8;
    info->profile = (flags & RSC_FLAG_PROFILE_RFC) ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
    info->size = b.size;
    info->n_rules = sec32(&b, RSC_SEC_RULES, 0);
    info->n_automata = sec32(&b, RSC_SEC_AUTOMATA, 0);
    info->n_sets = sec32(&b, RSC_SEC_SETS, 0);
    info->n_agents = sec32(&b, RSC_SEC_AGENTS, 0);
    info->has_global = b.sec_size[RSC_SEC_AGENTS] != 0 && sec32(&b, RSC_SEC_AGENTS, 4) != RSC_NONE;
    info->n_groups = sec32(&b, RSC_SEC_GROUPS, 0);
    info->n_sitemaps = sec32(&b, RSC_SEC_SITEMAPS, 0);
    info->n_directives = sec32(&b, RSC_SEC_DIRECTIVES, 0);
    size_t asz = b.sec_size[RSC_SEC_AUTOMATA];
    for (uint32_t k = 0; k < info->n_automata && 4 + 4 * (size_t)k < asz; k++) {
        uint32_t off = sec32(&b, RSC_SEC_AUTOMATA, 4 + 4 * (size_t)k);
        uint32_t n = sec32(&b, RSC_SEC_AUTOMATA, off);
        info->total_states += n;
        if (n > info->max_states)
            info->max_states = n;
    }
    return RSC_OK;
}
