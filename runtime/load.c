/* rsc_load(): the verifier (docs/FORMAT.md, "Verification"). It checks the
 * whole blob in one pass, cheapest checks first, and returns at the first
 * failure with a status and the byte offset of the offending field (the
 * BPF/ubpf order: basics, identity, framing, checksum, contents). Time is
 * linear in the blob size; nothing is allocated. After RSC_OK, match.c reads
 * the blob without any check. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format.h"
#include "program.h"
#include "robotsc/runtime.h"

#define RD(o) rsc_rd32(v->b + (o))
#define N_KNOWN (RSC_SEC_LAST_KNOWN + 1)

typedef struct verifier {
    const uint8_t *b;
    size_t total;
    size_t fail_off; /* where and why the first failure happened */
    const char *fail_what;
    size_t sec_off[N_KNOWN]; /* 0: absent (or empty) */
    size_t sec_size[N_KNOWN];
    uint32_t *priv;
} verifier;

static rsc_status fail(verifier *v, rsc_status st, size_t off, const char *what)
{
    v->fail_off = off;
    v->fail_what = what;
    return st;
}

/* One macro does the checking (STYLE 2.3); 'what' names the broken rule. */
#define CHECK(cond, st, off, what)                                            \
    do {                                                                      \
        if (!(cond))                                                          \
            return fail(v, (st), (off), (what));                              \
    } while (0)
#define CORRUPT(cond, off, what) CHECK(cond, RSC_E_CORRUPT, off, what)

static rsc_status check_header(verifier *v, size_t size)
{
    const uint8_t *b = v->b;
    CHECK(size >= RSC_HEADER_SIZE, RSC_E_TRUNCATED, size, "shorter than the header");
    for (size_t i = 0; i < RSC_MAGIC_LEN; i++)
        CHECK(b[i] == (uint8_t)RSC_MAGIC[i], RSC_E_MAGIC, i, "bad magic");
    CHECK(b[RSC_H_MAJOR] == RSC_FORMAT_MAJOR, RSC_E_VERSION, RSC_H_MAJOR,
          "unsupported Format_Major");
    CORRUPT((rsc_rd16(b + RSC_H_FLAGS) & ~RSC_FLAGS_KNOWN) == 0, RSC_H_FLAGS,
            "reserved header flag set");
    CORRUPT(RD(RSC_H_RESERVED) == 0, RSC_H_RESERVED, "reserved header field set");
    uint32_t total = RD(RSC_H_TOTAL);
    CHECK(total <= size, RSC_E_TRUNCATED, RSC_H_TOTAL, "blob shorter than Total_Size");
    CHECK(total == size, RSC_E_SIZE, RSC_H_TOTAL, "bytes after Total_Size");
    CORRUPT(total % 4 == 0, RSC_H_TOTAL, "Total_Size not a multiple of 4");
    v->total = total;
    return RSC_OK;
}

static rsc_status check_sections(verifier *v)
{
    uint32_t n = RD(RSC_H_NSECT);
    CORRUPT(n <= RSC_MAX_SECTIONS, RSC_H_NSECT, "Section_Count > 32");
    size_t pos = RSC_HEADER_SIZE + (size_t)n * RSC_SECTION_ENTRY_SIZE;
    CORRUPT(pos <= v->total, RSC_H_NSECT, "section table past Total_Size");
    uint32_t prev_id = 0;
    for (uint32_t i = 0; i < n; i++) {
        size_t e = RSC_HEADER_SIZE + (size_t)i * RSC_SECTION_ENTRY_SIZE;
        uint32_t id = rsc_rd16(v->b + e), fl = rsc_rd16(v->b + e + 2);
        uint32_t sz = RD(e + 4);
        CORRUPT(i == 0 || id > prev_id, e, "section ids not increasing");
        CORRUPT((fl & ~RSC_SECTION_SKIPPABLE) == 0, e + 2, "reserved section flag set");
        int known = id >= 1 && id <= RSC_SEC_LAST_KNOWN;
        CORRUPT(!(known && fl), e + 2, "known section marked skippable");
        CHECK(known || fl, RSC_E_VERSION, e, "unknown section not skippable");
        CORRUPT(sz <= v->total - pos, e + 4, "section past Total_Size");
        size_t end = pos + sz, padded = (end + 3) & ~(size_t)3;
        CORRUPT(padded <= v->total, e + 4, "section padding past Total_Size");
        for (size_t k = end; k < padded; k++)
            CORRUPT(v->b[k] == 0, k, "nonzero padding");
        if (known && sz) {
            v->sec_off[id] = pos;
            v->sec_size[id] = sz;
        }
        prev_id = id;
        pos = padded;
    }
    CORRUPT(pos == v->total, pos, "sections do not end at Total_Size");
    return RSC_OK;
}

static rsc_status check_checksum(verifier *v)
{
    uint32_t a = 0, s = 0;
    for (size_t i = 0; i < v->total; i += 4) {
        a += (i == RSC_H_CHECK_A || i == RSC_H_CHECK_B) ? 0 : RD(i);
        s += a;
    }
    CHECK(a == RD(RSC_H_CHECK_A) && s == RD(RSC_H_CHECK_B), RSC_E_CHECKSUM,
          RSC_H_CHECK_A, "checksum mismatch");
    return RSC_OK;
}

/* A string reference at offset o: {Str_Off, Str_Len} inside STRINGS. */
static int str_ok(const verifier *v, size_t o)
{
    uint32_t off = RD(o), len = RD(o + 4);
    size_t n = v->sec_size[RSC_SEC_STRINGS];
    return len <= n && off <= n - len;
}

/* The shape of a table section: `h` u32 counts (Count first), Count
 * entries of `esz` bytes, then (when lsz) List_Count entries of `lsz` bytes,
 * List_Count being the second u32, exactly. Absent: all zero. *e is the
 * first entry. */
static rsc_status shape(verifier *v, int id, size_t h, size_t esz, size_t lsz,
                        uint32_t *c, uint32_t *lc, size_t *e)
{
    size_t o = v->sec_off[id], n = v->sec_size[id], rest;
    *c = *lc = 0;
    *e = o + 4 * h;
    if (!n)
        return RSC_OK;
    CORRUPT(n >= 4 * h, o, "section shorter than its counts");
    *c = RD(o);
    CORRUPT(*c <= (n - 4 * h) / esz, o, "count exceeds the section");
    rest = n - 4 * h - (size_t)*c * esz;
    if (lsz) {
        *lc = RD(o + 4);
        CORRUPT(rest % lsz == 0 && rest / lsz == *lc, o + 4, "List_Count does not fill the section");
    } else {
        CORRUPT(rest == 0, o, "Count does not fill the section");
    }
    return RSC_OK;
}

#define SHAPE(id, h, esz, lsz, c, lc, e)                                     \
    do {                                                                      \
        rsc_status st_ = shape(v, id, h, esz, lsz, c, lc, e);                 \
        if (st_)                                                              \
            return st_;                                                       \
    } while (0)

static rsc_status check_rules(verifier *v)
{
    uint32_t c, lc, pline = 0, pprio = 0, pallow = 0;
    size_t e;
    SHAPE(RSC_SEC_RULES, 1, RSC_RULE_ENTRY_SIZE, 0, &c, &lc, &e);
    v->priv[P_RULES] = (uint32_t)e, v->priv[P_RULE_COUNT] = c;
    for (uint32_t i = 0; i < c; i++, e += RSC_RULE_ENTRY_SIZE) {
        uint32_t lk = RD(e), prio = RD(e + 4);
        uint32_t line = lk & RSC_RULE_LINE_MASK, allow = lk >> 31;
        CORRUPT(line >= 1, e, "rule line 0");
        CORRUPT(str_ok(v, e + 8), e + 8, "rule pattern out of STRINGS");
        /* Strictly increasing (Priority, allow, -Line): spec E.6, E.7. */
        CORRUPT(i == 0 || prio > pprio ||
                    (prio == pprio && (allow > pallow ||
                                       (allow == pallow && line < pline))),
                e, "rules not sorted by rank");
        pline = line, pprio = prio, pallow = allow;
    }
    return RSC_OK;
}

/* A jump target: NONE, or the offset of a state, proven in O(1) by the
 * Index stored at it (FORMAT.md, "States"). Forward targets are checked
 * against State_Offsets entries the walk has not reached yet; the walk
 * verifies every entry before the automaton is accepted. */
static int target_ok(const verifier *v, size_t code, size_t so, uint32_t cs,
                     uint32_t sc, uint32_t t)
{
    if (t == RSC_NONE)
        return 1;
    if (t >= cs || t % 4)
        return 0;
    uint32_t ix = RD(code + t) >> RSC_ST_INDEX_SHIFT;
    return ix < sc && RD(so + (size_t)ix * 4) == t;
}

/* Automaton at absolute offset a spanning `span` bytes. */
static rsc_status check_automaton(verifier *v, size_t a, size_t span)
{
    const uint32_t rc = v->priv[P_RULE_COUNT];
    CORRUPT(span >= RSC_AUT_HEADER_SIZE, a, "automaton header truncated");
    uint32_t sc = RD(a), cs = RD(a + 4), start = RD(a + 8), fl = RD(a + 12),
             cc = RD(a + 16);
    CORRUPT(sc >= 1 && sc < RSC_MAX_STATES, a, "bad State_Count");
    CORRUPT(cs % 4 == 0, a + 4, "Code_Size not a multiple of 4");
    CORRUPT((fl & ~RSC_AUT_HAS_CLASS_MAP) == 0, a + 12, "reserved automaton flag set");
    const int hcm = fl & RSC_AUT_HAS_CLASS_MAP;
    CORRUPT(hcm ? cc >= 1 && cc <= 256 : cc == 0, a + 16, "bad Class_Count");
    size_t fixed = RSC_AUT_HEADER_SIZE + (hcm ? 256u : 0u);
    CORRUPT(span >= fixed && span - fixed >= (size_t)sc * 4 &&
                span - fixed - (size_t)sc * 4 == cs,
            a + 4, "automaton size != header + map + offsets + Code_Size");
    for (size_t i = 0; hcm && i < 256; i++)
        CORRUPT(v->b[a + RSC_AUT_HEADER_SIZE + i] < cc, a + RSC_AUT_HEADER_SIZE + i,
                "class map entry >= Class_Count");
    const size_t so = a + fixed, code = so + (size_t)sc * 4;
#define TARGET(o) CORRUPT(target_ok(v, code, so, cs, sc, RD(o)), o, "bad target")
    size_t pos = 0; /* relative to code */
    for (uint32_t ix = 0; ix < sc; ix++) {
        const size_t s = code + pos;
        CORRUPT(RD(so + (size_t)ix * 4) == pos, so + (size_t)ix * 4,
                "state offset differs from the sequential walk");
        CORRUPT(cs - pos >= 8, s, "state past Code_Size");
        uint32_t w = RD(s), op = w & RSC_OP_MASK;
        CORRUPT((w & RSC_ST_RESERVED) == 0, s, "reserved state bits set");
        CORRUPT(w >> RSC_ST_INDEX_SHIFT == ix, s, "state Index is not its position");
        CORRUPT(op >= RSC_OP_LIT && op <= RSC_OP_TABLE, s, "unknown op");
        CORRUPT(RD(s + 4) <= rc, s + 4, "Ceiling > Rule_Count");
        size_t p = pos + 8;
        for (uint32_t bit = RSC_ST_HAS_ACCEPT; bit <= RSC_ST_HAS_END; bit <<= 1) {
            if (!(w & bit))
                continue;
            CORRUPT(cs - p >= 4, code + p, "state past Code_Size");
            CORRUPT(RD(code + p) >= 1 && RD(code + p) <= rc, code + p,
                    "Accept/End rank not in 1..Rule_Count");
            p += 4;
        }
        if (op == RSC_OP_LIT || op == RSC_OP_SPARSE) {
            CORRUPT(cs - p >= 4, code + p, "state past Code_Size");
            uint32_t k = RD(code + p), padded = (k + 3) & ~3u;
            const size_t bytes = code + p + 4;
            uint32_t nt = op == RSC_OP_LIT ? 1 : k + 1; /* targets */
            CORRUPT(op == RSC_OP_LIT ? k >= 1 && k <= RSC_MAX_LIT : k <= 256,
                    code + p, op == RSC_OP_LIT ? "LIT Len not in 1..65535"
                                               : "SPARSE N > 256");
            CORRUPT(cs - p - 4 >= padded + (size_t)nt * 4, code + p,
                    "operands past Code_Size");
            for (size_t i = k; i < padded; i++)
                CORRUPT(v->b[bytes + i] == 0, bytes + i, "nonzero padding");
            for (size_t i = 1; op == RSC_OP_SPARSE && i < k; i++)
                CORRUPT(v->b[bytes + i - 1] < v->b[bytes + i], bytes + i,
                        "SPARSE bytes not strictly increasing");
            for (size_t i = 0; i < nt; i++)
                TARGET(bytes + padded + i * 4);
            p += 4 + padded + (size_t)nt * 4;
        } else {
            CORRUPT(hcm, s, "TABLE without a class map");
            CORRUPT(cs - p >= (size_t)cc * 4, code + p, "operands past Code_Size");
            for (size_t i = 0; i < cc; i++)
                TARGET(code + p + i * 4);
            p += (size_t)cc * 4;
        }
        pos = p;
    }
    CORRUPT(pos == cs, code + pos, "states do not tile Code");
    CORRUPT(start != RSC_NONE, a + 8, "Start is NONE");
    TARGET(a + 8);
#undef TARGET
    return RSC_OK;
}

static rsc_status check_automata(verifier *v)
{
    size_t o = v->sec_off[RSC_SEC_AUTOMATA], n = v->sec_size[RSC_SEC_AUTOMATA];
    CORRUPT(n == 0 || (n >= 4 && RD(o) <= (n - 4) / 4), o, "bad Automaton_Count");
    uint32_t c = n ? RD(o) : 0;
    size_t pos = n ? 4 + (size_t)c * 4 : 0; /* relative to o */
    for (uint32_t k = 0; k < c; k++) {
        size_t e = o + 4 + (size_t)k * 4;
        CORRUPT(RD(e) == pos, e, "automaton offset does not follow its predecessor");
        size_t end = k + 1 < c ? RD(e + 4) : n;
        CORRUPT(end > pos && end <= n && end % 4 == 0, k + 1 < c ? e + 4 : o,
                "automaton offsets not increasing multiples of 4 in the section");
        rsc_status st = check_automaton(v, o + pos, end - pos);
        if (st)
            return st;
        pos = end;
    }
    CORRUPT(pos == n, o, "automata do not tile the section");
    v->priv[P_AUT] = (uint32_t)o, v->priv[P_AUT_COUNT] = c;
    return RSC_OK;
}

static rsc_status check_sets(verifier *v)
{
    uint32_t c, lc;
    size_t e;
    SHAPE(RSC_SEC_SETS, 2, 8, 4, &c, &lc, &e);
    const size_t list = e + (size_t)c * 8;
    v->priv[P_SETS] = (uint32_t)e, v->priv[P_SET_COUNT] = c, v->priv[P_SET_LIST] = (uint32_t)list;
    for (; e < list; e += 8)
        CORRUPT(RD(e) <= lc && RD(e + 4) <= lc - RD(e), e, "set outside List");
    for (uint32_t i = 0; i < lc; i++)
        CORRUPT(RD(list + (size_t)i * 4) < v->priv[P_AUT_COUNT], list + (size_t)i * 4,
                "automaton index out of range");
    return RSC_OK;
}

/* Byte-order comparison of two strings of STRINGS (memcmp, then length). */
static int strcmp_ref(const verifier *v, size_t a, size_t b)
{
    const uint8_t *s = v->b + v->sec_off[RSC_SEC_STRINGS];
    uint32_t la = RD(a + 4), lb = RD(b + 4);
    int d = memcmp(s + RD(a), s + RD(b), la < lb ? la : lb);
    return d ? d : (la > lb) - (la < lb);
}

static rsc_status check_agents(verifier *v)
{
    size_t o = v->sec_off[RSC_SEC_AGENTS], e;
    size_t budget = v->sec_size[RSC_SEC_STRINGS]; /* keeps this linear */
    uint32_t c, unused, g;
    SHAPE(RSC_SEC_AGENTS, 2, 12, 0, &c, &unused, &e);
    g = o ? RD(o + 4) : RSC_NONE;
    CORRUPT(g == RSC_NONE || g < v->priv[P_SET_COUNT], o + 4, "bad Global_Set");
    v->priv[P_AGENTS] = (uint32_t)e, v->priv[P_AGENT_COUNT] = c, v->priv[P_GLOBAL_SET] = g;
    for (uint32_t i = 0; i < c; i++, e += 12) {
        CORRUPT(str_ok(v, e), e, "agent token out of STRINGS");
        CORRUPT(RD(e + 4) <= budget, e + 4, "agent tokens longer than STRINGS in total");
        budget -= RD(e + 4);
        const uint8_t *t = v->b + v->sec_off[RSC_SEC_STRINGS] + RD(e);
        for (uint32_t j = 0; j < RD(e + 4); j++)
            CORRUPT((t[j] >= 'a' && t[j] <= 'z') || t[j] == '_' || t[j] == '-',
                    e, "agent token byte outside [a-z_-]");
        CORRUPT(i == 0 || strcmp_ref(v, e - 12, e) < 0, e, "agents not sorted");
        CORRUPT(RD(e + 8) < v->priv[P_SET_COUNT], e + 8, "agent set out of range");
    }
    return RSC_OK;
}

static rsc_status check_groups(verifier *v)
{
    uint32_t c, lc;
    size_t e;
    SHAPE(RSC_SEC_GROUPS, 2, 12, 8, &c, &lc, &e);
    const size_t list = e + (size_t)c * 12;
    v->priv[P_GROUPS] = (uint32_t)e, v->priv[P_GROUP_COUNT] = c, v->priv[P_GROUP_LIST] = (uint32_t)list;
    for (; e < list; e += 12)
        CORRUPT(RD(e + 4) <= lc && RD(e + 8) <= lc - RD(e + 4), e + 4, "group outside List");
    for (uint32_t i = 0; i < lc; i++)
        CORRUPT(str_ok(v, list + (size_t)i * 8), list + (size_t)i * 8, "group token out of STRINGS");
    return RSC_OK;
}

/* SITEMAPS {Line, ref} and DIRECTIVES {Line, Group, ref, ref}. */
static rsc_status check_records(verifier *v, int id, size_t esz, int pe, int pc)
{
    uint32_t c, unused;
    size_t e;
    SHAPE(id, 1, esz, 0, &c, &unused, &e);
    v->priv[pe] = (uint32_t)e, v->priv[pc] = c;
    for (uint32_t i = 0; i < c; i++, e += esz) {
        size_t r = e + esz - 8; /* the last string reference */
        if (esz == 24)
            CORRUPT(RD(e + 4) == RSC_NONE || RD(e + 4) < v->priv[P_GROUP_COUNT], e + 4,
                    "directive group out of range");
        CORRUPT(esz != 24 || str_ok(v, e + 8), e + 8, "key out of STRINGS");
        CORRUPT(str_ok(v, r), r, "string out of STRINGS");
    }
    return RSC_OK;
}

rsc_status rsc_load(rsc_program *prog, const void *blob, size_t size,
                    rsc_load_error *err)
{
    verifier v0 = {0}, *v = &v0;
    rsc_status st;
    if (!prog || !blob) {
        st = fail(v, RSC_E_ARG, 0, "NULL argument");
    } else {
        memset(prog, 0, sizeof *prog);
        v->b = blob;
        v->priv = prog->priv;
        /* Sections are checked in id order: each depends on lower ids only. */
        if (!(st = check_header(v, size)) && !(st = check_sections(v)) &&
            !(st = check_checksum(v)) && !(st = check_rules(v)) &&
            !(st = check_automata(v)) && !(st = check_sets(v)) &&
            !(st = check_agents(v)) && !(st = check_groups(v)) &&
            !(st = check_records(v, RSC_SEC_SITEMAPS, 12, P_SITEMAPS, P_SITEMAP_COUNT)) &&
            !(st = check_records(v, RSC_SEC_DIRECTIVES, 24, P_DIRS, P_DIR_COUNT))) {
            prog->priv[P_STR_OFF] = (uint32_t)v->sec_off[RSC_SEC_STRINGS];
            prog->priv[P_STR_SIZE] = (uint32_t)v->sec_size[RSC_SEC_STRINGS];
            prog->base = v->b, prog->size = v->total, prog->flags = rsc_rd16(v->b + RSC_H_FLAGS);
        }
    }
    if (st && prog)
        memset(prog, 0, sizeof *prog);
    if (err) {
        err->offset = st ? v->fail_off : 0;
        err->what = st ? v->fail_what : "ok";
    }
    return st;
}
