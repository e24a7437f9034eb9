/* The verifier: each rule of docs/FORMAT.md "Verification" violated once
 * (status and offset), every truncation and every single-bit flip of
 * hand-built blobs rejected, random byte strings rejected, and randomly
 * mutated blobs (checksum fixed) either rejected or safe to match. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/format.h"
#include "robotsc/runtime.h"
#include "rt_builder.h"
#include "testutil.h"

static int passed;
#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        TU_CHECK(cond, __VA_ARGS__);                                          \
        passed += !!(cond);                                                   \
    } while (0)
#define ANY SIZE_MAX
#ifndef RT_MUTATIONS /* raise for a longer run: -DRT_MUTATIONS=1000000 */
#define RT_MUTATIONS 30000
#endif

static uint8_t *base;
static size_t base_n;

static tp_prog base_prog(void)
{
    tp_prog p = {0};
    p.n_rules = 3;
    p.rules[0] = (tp_rule){2, 0, "/ab", TP_LIT};
    p.rules[1] = (tp_rule){3, 1, "/abc$", TP_SPARSE};
    p.rules[2] = (tp_rule){6, 0, "/x", TP_TABLE};
    p.n_sets = 2;
    p.sets[0] = (tp_set){2, {0, 1}};
    p.sets[1] = (tp_set){1, {2}};
    p.n_agents = 2;
    p.agents[0] = (tp_agent){"foo", 0};
    p.agents[1] = (tp_agent){"bar", 0};
    p.global = 1;
    p.n_groups = 2;
    p.groups[0] = (tp_group){1, {"foo", "bar"}};
    p.groups[1] = (tp_group){5, {"*"}};
    p.n_sitemaps = 1;
    p.sitemaps[0] = (tp_sitemap){7, "https://e/s.xml"};
    p.n_dirs = 2;
    p.dirs[0] = (tp_dir){4, 0, "crawl-delay", "5"};
    p.dirs[1] = (tp_dir){8, -1, "host", "e"};
    return p;
}

static void expect(const char *name, const uint8_t *b, size_t n, rsc_status want,
                   size_t off)
{
    rsc_program p;
    rsc_load_error e = {0, NULL};
    memset(&p, 0xAB, sizeof p);
    rsc_status st = rsc_load(&p, b, n, &e);
    CHECK(st == want && (off == ANY || e.offset == off) && e.what,
          "%s: got %d at %zu (%s), want %d at %zu", name, st, e.offset,
          e.what ? e.what : "-", want, off == ANY ? 0 : off);
    if (st != RSC_OK)
        CHECK(p.base == NULL && p.size == 0 && p.priv[3] == 0, "%s: program zeroed", name);
}

/* Copy of the base blob with a u32 (or u8) patched and the checksum fixed. */
static void patch(const char *name, size_t at, uint32_t v, int width, rsc_status want,
                  size_t off)
{
    uint8_t *b = malloc(base_n);
    memcpy(b, base, base_n);
    if (width == 4)
        wr32le(b + at, v);
    else if (width == 2)
        b[at] = (uint8_t)v, b[at + 1] = (uint8_t)(v >> 8);
    else
        b[at] = (uint8_t)v;
    tb_fix_checksum(b, base_n);
    expect(name, b, base_n, want, off);
    free(b);
}
#define P32(name, at, v, want, off) patch(name, at, v, 4, want, off)
#define P8(name, at, v, want, off) patch(name, at, v, 1, want, off)

static void test_header_and_framing(void)
{
    rsc_program p;
    rsc_load_error e;
    CHECK(rsc_load(&p, NULL, 100, &e) == RSC_E_ARG, "NULL blob");
    CHECK(rsc_load(NULL, base, base_n, NULL) == RSC_E_ARG, "NULL prog");
    expect("ok", base, base_n, RSC_OK, 0);
    expect("short", base, 31, RSC_E_TRUNCATED, 31);
    expect("empty", base, 0, RSC_E_TRUNCATED, 0);
    for (size_t i = 0; i < 8; i++) {
        uint8_t *b = malloc(base_n);
        memcpy(b, base, base_n);
        b[i] ^= 0x20;
        expect("magic", b, base_n, RSC_E_MAGIC, i);
        free(b);
    }
    P8("major", 8, 2, RSC_E_VERSION, 8);
    P8("major 0", 8, 0, RSC_E_VERSION, 8);
    P8("higher minor loads", 9, 7, RSC_OK, 0);
    patch("reserved flag", 10, 2, 2, RSC_E_CORRUPT, 10);
    patch("reserved flag 15", 10, 0x8000, 2, RSC_E_CORRUPT, 10);
    P32("reserved field", 20, 1, RSC_E_CORRUPT, 20);
    P32("Total_Size too big", 12, (uint32_t)base_n + 4, RSC_E_TRUNCATED, 12);
    P32("Total_Size too small", 12, (uint32_t)base_n - 4, RSC_E_SIZE, 12);

    uint8_t *b = calloc(1, base_n + 8);
    memcpy(b, base, base_n);
    expect("trailing bytes", b, base_n + 4, RSC_E_SIZE, 12);
    wr32le(b + 12, (uint32_t)base_n + 1);
    tb_fix_checksum(b, base_n + 1);
    expect("Total_Size % 4", b, base_n + 1, RSC_E_CORRUPT, 12);
    wr32le(b + 12, (uint32_t)base_n + 4);
    tb_fix_checksum(b, base_n + 4);
    expect("sections end before Total_Size", b, base_n + 4, RSC_E_CORRUPT, base_n);
    free(b);

    P32("Section_Count 33", 16, 33, RSC_E_CORRUPT, 16);
    patch("ids not increasing", 40, 1, 2, RSC_E_CORRUPT, 40);
    patch("id 0 after 1", 40, 0, 2, RSC_E_CORRUPT, 40);
    patch("reserved section flag", 34, 2, 2, RSC_E_CORRUPT, 34);
    patch("known id skippable", 34, 1, 2, RSC_E_CORRUPT, 34);
    P32("section past Total_Size", 52, 0xFFFFFFF0u, RSC_E_CORRUPT, 52);
    P32("section size off", 52, rd32le(base + 52) + 4, RSC_E_CORRUPT, ANY);

    b = malloc(base_n);
    memcpy(b, base, base_n);
    b[base_n - 5] ^= 1;
    expect("checksum", b, base_n, RSC_E_CHECKSUM, 24);
    b[base_n - 5] ^= 1;
    b[24] ^= 1;
    expect("checksum A", b, base_n, RSC_E_CHECKSUM, 24);
    b[24] ^= 1;
    b[31] ^= 0x80;
    expect("checksum B", b, base_n, RSC_E_CHECKSUM, 24);
    free(b);

    /* The smallest blob: no sections. Everything is allowed. */
    tb_section none[1];
    size_t n;
    b = tb_blob(0, none, 0, &n);
    CHECK(n == 32, "empty blob size");
    expect("no sections", b, n, RSC_OK, 0);
    wr32le(b + 16, 1);
    tb_fix_checksum(b, n);
    expect("table past Total_Size", b, n, RSC_E_CORRUPT, 16);
    wr32le(b + 16, 0);
    tb_fix_checksum(b, n);
    rsc_selection s;
    rsc_bytes a = {"x", 1};
    CHECK(rsc_load(&p, b, n, NULL) == RSC_OK && rsc_select(&p, &a, 1, &s) == RSC_OK &&
              s.n_sets == 0 && rsc_match_path(&s, "/", 1, NULL) == 1,
          "empty blob allows");
    free(b);

    /* Unknown sections: skippable ones are ignored, others are a version. */
    bb str = {0}, x = {0};
    bb_raw(&str, "ab", 2);
    bb_raw(&x, "zzzzz", 5);
    tb_section s2[] = {{1, 0, &str}, {9, 1, &x}, {200, 1, NULL}};
    b = tb_blob(0, s2, 3, &n);
    expect("unknown skippable", b, n, RSC_OK, 0);
    b[66] = 1; /* padding after the 5 bytes of section 9 */
    tb_fix_checksum(b, n);
    expect("nonzero section padding", b, n, RSC_E_CORRUPT, 66);
    free(b);
    s2[1].flags = 0;
    b = tb_blob(0, s2, 3, &n);
    expect("unknown not skippable", b, n, RSC_E_VERSION, 40);
    free(b);
    bb_free(&str), bb_free(&x);
}

static size_t sec(uint16_t id)
{
    return tb_section_off(base, id);
}

static void test_tables(void)
{
    const size_t R = sec(2) + 4, S = sec(3), T = sec(4), G = sec(5), H = sec(6), M = sec(7),
                 D = sec(8);
    /* RULES: entries are 16 bytes from R. */
    P32("Rule_Count too big", R - 4, 1000, RSC_E_CORRUPT, R - 4);
    P32("RULES size", R - 4, 2, RSC_E_CORRUPT, R - 4);
    P32("rule line 0", R, RSC_RULE_ALLOW, RSC_E_CORRUPT, R);
    P32("rule pattern length", R + 12, 1000, RSC_E_CORRUPT, R + 8);
    P32("rule pattern offset", R + 8, 0xFFFFFFFFu, RSC_E_CORRUPT, R + 8);
    P32("rules unsorted", R + 16 + 4, 1, RSC_E_CORRUPT, R + 16);
    uint8_t *b = malloc(base_n);
    memcpy(b, base, base_n);
    memcpy(b + R + 16, b + R, 8); /* rule 1 := rule 0's line, kind, priority */
    tb_fix_checksum(b, base_n);
    expect("rules equal", b, base_n, RSC_E_CORRUPT, R + 16);
    free(b);
    P32("rules: allow after disallow ok", R + 16, rd32le(base + R + 16) | RSC_RULE_ALLOW, RSC_OK, 0);

    /* AUTOMATA: /x (TABLE), /ab (LIT), /abc$ (SPARSE), by rank. */
    const size_t A0 = S + rd32le(base + S + 4), A1 = S + rd32le(base + S + 8),
                 A2 = S + rd32le(base + S + 12);
    const size_t C0 = A0 + 20 + 256 + 4 * rd32le(base + A0), C1 = A1 + 20 + 4 * rd32le(base + A1),
                 C2 = A2 + 20 + 4 * rd32le(base + A2);
    P32("Automaton_Count too big", S, 0x40000000u, RSC_E_CORRUPT, S);
    P32("Automaton_Count 2", S, 2, RSC_E_CORRUPT, ANY);
    P32("Automaton_Count 0", S, 0, RSC_E_CORRUPT, S);
    P32("automaton offset", S + 4, rd32le(base + S + 4) + 4, RSC_E_CORRUPT, S + 4);
    P32("automaton offsets equal", S + 8, rd32le(base + S + 4), RSC_E_CORRUPT, S + 8);
    P32("State_Count 0", A0, 0, RSC_E_CORRUPT, A0);
    P32("State_Count 2^24", A0, 1u << 24, RSC_E_CORRUPT, A0);
    P32("Code_Size % 4", A0 + 4, rd32le(base + A0 + 4) + 2, RSC_E_CORRUPT, A0 + 4);
    P32("Code_Size", A0 + 4, rd32le(base + A0 + 4) + 4, RSC_E_CORRUPT, A0 + 4);
    P32("automaton flags", A0 + 12, 3, RSC_E_CORRUPT, A0 + 12);
    P32("Class_Count 0", A0 + 16, 0, RSC_E_CORRUPT, A0 + 16);
    P32("Class_Count 257", A0 + 16, 257, RSC_E_CORRUPT, A0 + 16);
    P32("class map without flag", A1 + 16, 1, RSC_E_CORRUPT, A1 + 16);
    P8("class map entry", A0 + 20 + 200, 3, RSC_E_CORRUPT, A0 + 20 + 200);
    P8("class map entry ok", A0 + 20 + 200, 2, RSC_OK, 0);
    /* A wrong offset or Index is caught by the first target pointing at it. */
    P32("State_Offsets", A0 + 276 + 4, 24, RSC_E_CORRUPT, C0 + 8 + 4);
    P32("State_Offsets[2]", A0 + 276 + 8, 44, RSC_E_CORRUPT, C0 + 20 + 8 + 8);
    P32("State_Offsets[0]", A0 + 276, 4, RSC_E_CORRUPT, A0 + 276);
    P32("state reserved bits", C0, rd32le(base + C0) | 0x40, RSC_E_CORRUPT, C0);
    P32("state Index", C0 + 20, rd32le(base + C0 + 20) & 0xFF, RSC_E_CORRUPT, C0 + 8 + 4);
    P32("state Index of the start", C0, rd32le(base + C0) | 1u << 8, RSC_E_CORRUPT, C0);
    P32("op 0", C0, rd32le(base + C0) & ~0xFu, RSC_E_CORRUPT, C0);
    P32("op 4", C0, (rd32le(base + C0) & ~0xFu) | 4, RSC_E_CORRUPT, C0);
    P32("op 15", C0, rd32le(base + C0) | 0xF, RSC_E_CORRUPT, C0);
    P32("Ceiling > Rule_Count", C0 + 4, 4, RSC_E_CORRUPT, C0 + 4);
    P32("Ceiling = Rule_Count", C0 + 4, 3, RSC_OK, 0);
    P32("target misaligned", C0 + 8 + 4, 2, RSC_E_CORRUPT, C0 + 12);
    P32("target inside a state", C0 + 8 + 4, 4, RSC_E_CORRUPT, C0 + 12);
    P32("target past Code", C0 + 8 + 4, 60, RSC_E_CORRUPT, C0 + 12);
    P32("target huge", C0 + 8 + 4, 0xFFFFFFF0u, RSC_E_CORRUPT, C0 + 12);
    P32("target NONE", C0 + 8 + 4, RSC_NONE, RSC_OK, 0);
    P32("target backward", C0 + 20 + 8 + 8, 0, RSC_OK, 0);
    P32("Start other state", A0 + 8, 20, RSC_OK, 0);
    P32("Start inside", A0 + 8, 4, RSC_E_CORRUPT, A0 + 8);
    P32("Start NONE", A0 + 8, RSC_NONE, RSC_E_CORRUPT, A0 + 8);
    P32("Accept 0", C0 + 40 + 8, 0, RSC_E_CORRUPT, C0 + 48);
    P32("Accept > Rule_Count", C0 + 40 + 8, 4, RSC_E_CORRUPT, C0 + 48);
    P32("End 0", C2 + 96 + 8, 0, RSC_E_CORRUPT, C2 + 104);
    P32("End > Rule_Count", C2 + 96 + 8, 9, RSC_E_CORRUPT, C2 + 104);
    P32("LIT Len 0", C1 + 8, 0, RSC_E_CORRUPT, C1 + 8);
    P32("LIT Len 65536", C1 + 8, 65536, RSC_E_CORRUPT, C1 + 8);
    P32("LIT Len past Code", C1 + 8, 65535, RSC_E_CORRUPT, C1 + 8);
    P32("LIT Len 4 (zero padding read as data)", C1 + 8, 4, RSC_OK, 0);
    P32("LIT Len 5", C1 + 8, 5, RSC_E_CORRUPT, C1 + 20);
    P8("LIT padding", C1 + 12 + 3, 1, RSC_E_CORRUPT, C1 + 15);
    P32("TABLE without map", C1, (rd32le(base + C1) & ~0xFu) | RSC_OP_TABLE, RSC_E_CORRUPT, C1);
    P32("SPARSE N 257", C2 + 8, 257, RSC_E_CORRUPT, C2 + 8);
    P32("SPARSE N past Code", C2 + 8, 256, RSC_E_CORRUPT, C2 + 8);
    P8("SPARSE padding", C2 + 12 + 2, 1, RSC_E_CORRUPT, C2 + 14);
    P32("SPARSE N 2: bytes not increasing", C2 + 8, 2, RSC_E_CORRUPT, C2 + 13);
    P32("state has End: past its size", C1, rd32le(base + C1) | RSC_ST_HAS_END, RSC_E_CORRUPT, ANY);

    /* SETS */
    const size_t L = T + 8 + 2 * 8;
    P32("set First", T + 8, 10, RSC_E_CORRUPT, T + 8);
    P32("set N", T + 12, 0xFFFFFFFFu, RSC_E_CORRUPT, T + 8);
    P32("set list entry", L, 3, RSC_E_CORRUPT, L);
    P32("List_Count", T + 4, 4, RSC_E_CORRUPT, T + 4);
    P32("Set_Count", T, 3, RSC_E_CORRUPT, ANY);
    P32("empty set", T + 12, 0, RSC_OK, 0);

    /* AGENTS: "bar", "foo". */
    P32("Global_Set", G + 4, 2, RSC_E_CORRUPT, G + 4);
    P32("Global_Set NONE", G + 4, RSC_NONE, RSC_OK, 0);
    P32("Agent_Count", G, 1, RSC_E_CORRUPT, G);
    P32("Agent_Count big", G, 1000, RSC_E_CORRUPT, G);
    P32("agent set", G + 8 + 8, 2, RSC_E_CORRUPT, G + 16);
    P32("agent token length", G + 8 + 4, 1000, RSC_E_CORRUPT, G + 8);
    P32("agents equal", G + 20, rd32le(base + G + 8), RSC_E_CORRUPT, G + 20);
    P32("agent empty token first", G + 12, 0, RSC_OK, 0);
    P32("agent prefix after longer", G + 24, 2, RSC_OK, 0); /* "fo" > "bar" */
    P32("agents unsorted", G + 12 + 12, 0, RSC_E_CORRUPT, G + 20); /* "" after "bar" */
    uint32_t bar = sec(1) + rd32le(base + G + 8);
    P8("agent token upper case", bar, 'B', RSC_E_CORRUPT, G + 8);
    P8("agent token digit", bar + 1, '1', RSC_E_CORRUPT, G + 8);
    P8("agent token '*'", bar + 2, '*', RSC_E_CORRUPT, G + 8);

    /* GROUPS */
    P32("group N", H + 8 + 8, 5, RSC_E_CORRUPT, H + 12);
    P32("group First", H + 8 + 4, 4, RSC_E_CORRUPT, H + 12);
    P32("List_Count of groups", H + 4, 4, RSC_E_CORRUPT, H + 4);
    P32("group token", H + 8 + 24 + 4, 1000, RSC_E_CORRUPT, H + 32);

    /* SITEMAPS, DIRECTIVES */
    P32("sitemap count", M, 2, RSC_E_CORRUPT, M);
    P32("sitemap count 0", M, 0, RSC_E_CORRUPT, M);
    P32("sitemap url", M + 8, 1000, RSC_E_CORRUPT, M + 8);
    P32("directive count", D, 1, RSC_E_CORRUPT, D);
    P32("directive group", D + 8, 2, RSC_E_CORRUPT, D + 8);
    P32("directive group NONE", D + 8, RSC_NONE, RSC_OK, 0);
    P32("directive key", D + 16, 1000, RSC_E_CORRUPT, D + 12);
    P32("directive value", D + 24, 1000, RSC_E_CORRUPT, D + 20);
}

/* Automata the table builder cannot make: extra code, TABLE with no map. */
static void test_shapes(void)
{
    tb_state st[2] = {{0}};
    st[0] = (tb_state){.op = RSC_OP_SPARSE, .ceiling = 1, .bytes = "/", .nbytes = 1};
    st[0].t[0] = 1, st[0].t[1] = TB_NONE;
    st[1] = (tb_state){.op = RSC_OP_SPARSE, .accept = 1};
    st[1].t[0] = TB_NONE;
    for (int variant = 0; variant < 3; variant++) {
        bb str = {0}, rules = {0}, auts = {0}, code = {0};
        bb_raw(&str, "/", 1);
        bb_u32(&rules, 1), bb_u32(&rules, 2), bb_u32(&rules, 1), bb_u32(&rules, 0);
        bb_u32(&rules, 1);
        if (variant == 2)
            st[1].op = RSC_OP_TABLE;
        tb_automaton(&code, st, 2, 0, NULL, 0);
        if (variant == 1) { /* 4 bytes of code no state covers */
            bb_u32(&code, 0);
            wr32le(code.d + 4, rd32le(code.d + 4) + 4);
        }
        bb_u32(&auts, 1), bb_u32(&auts, 8);
        bb_raw(&auts, code.d, code.n);
        tb_section s[] = {{1, 0, &str}, {2, 0, &rules}, {3, 0, &auts}};
        size_t n;
        uint8_t *b = tb_blob(0, s, 3, &n);
        size_t code_at = tb_section_off(b, 3) + 8 + 20 + 8;
        if (variant == 0)
            expect("one SPARSE automaton", b, n, RSC_OK, 0);
        else if (variant == 1)
            expect("states do not tile Code", b, n, RSC_E_CORRUPT, code_at + 44);
        else
            expect("TABLE without class map", b, n, RSC_E_CORRUPT, code_at + 24);
        free(b);
        bb_free(&str), bb_free(&rules), bb_free(&auts), bb_free(&code);
    }
}

/* Agent tokens may share bytes of STRINGS only up to its size in total:
 * prefixes of one long string would make the verifier quadratic. */
static void test_agent_budget(void)
{
    for (int k = 0; k < 2; k++) {
        bb str = {0}, sets = {0}, agents = {0};
        bb_raw(&str, "aaaaaaaa", 8);
        bb_u32(&sets, 1), bb_u32(&sets, 0), bb_u32(&sets, 0), bb_u32(&sets, 0);
        bb_u32(&agents, 2), bb_u32(&agents, RSC_NONE);
        bb_u32(&agents, 0), bb_u32(&agents, 3), bb_u32(&agents, 0);
        bb_u32(&agents, 0), bb_u32(&agents, k ? 6 : 5), bb_u32(&agents, 0);
        tb_section s[] = {{1, 0, &str}, {4, 0, &sets}, {5, 0, &agents}};
        size_t n;
        uint8_t *b = tb_blob(0, s, 3, &n);
        size_t g = tb_section_off(b, 5);
        if (k)
            expect("agent tokens longer than STRINGS", b, n, RSC_E_CORRUPT, g + 8 + 12 + 4);
        else
            expect("agent tokens as long as STRINGS", b, n, RSC_OK, 0);
        free(b);
        bb_free(&str), bb_free(&sets), bb_free(&agents);
    }
}

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Loads, and when accepted, matches a few random inputs (ASan watches). */
static int load_and_use(const uint8_t *b, size_t n)
{
    rsc_program p;
    if (rsc_load(&p, b, n, NULL) != RSC_OK)
        return 0;
    static const char *agents[] = {"foo", "bar", "", "x", "FOO"};
    static const char alpha[] = "/abcx$;%?#\xc3\x80";
    rsc_selection s;
    rsc_bytes a[2] = {{agents[rnd() % 5], 0}, {agents[rnd() % 5], 0}};
    a[0].len = strlen(a[0].ptr), a[1].len = strlen(a[1].ptr);
    if (rsc_select(&p, a, 1 + rnd() % 2, &s) == RSC_OK)
        for (int k = 0; k < 4; k++) {
            char path[16];
            size_t len = rnd() % sizeof path;
            for (size_t i = 0; i < len; i++)
                path[i] = alpha[rnd() % (sizeof alpha - 1)];
            rsc_match m;
            (void)rsc_match_path(&s, path, len, &m);
            (void)rsc_match_url(&s, path, len, &m);
            rsc_bytes v;
            (void)rsc_group_directive(&s, "crawl-delay", &v, NULL);
        }
    for (size_t i = 0; i < rsc_sitemap_count(&p); i++)
        (void)rsc_sitemap_get(&p, i, NULL, NULL);
    return 1;
}

static void test_damage(const uint8_t *blob, size_t n, const char *what)
{
    int bad = 0;
    uint8_t *b = malloc(n);
    for (size_t k = 0; k < n; k++) {
        rsc_program p;
        bad += rsc_load(&p, blob, k, NULL) != RSC_E_TRUNCATED;
    }
    CHECK(bad == 0, "%s: %d truncations not rejected as truncated", what, bad);
    memcpy(b, blob, n);
    for (size_t i = 0; i < n * 8; i++) {
        b[i / 8] ^= (uint8_t)(1u << (i % 8));
        rsc_program p;
        bad += rsc_load(&p, b, n, NULL) == RSC_OK;
        b[i / 8] ^= (uint8_t)(1u << (i % 8));
    }
    CHECK(bad == 0, "%s: %d bit flips accepted", what, bad);
    /* Flips with the checksum fixed reach the content checks. */
    int ok = 0;
    for (size_t i = 64 * 8; i < n * 8; i++) {
        b[i / 8] ^= (uint8_t)(1u << (i % 8));
        tb_fix_checksum(b, n);
        ok += load_and_use(b, n);
        memcpy(b, blob, n);
    }
    CHECK(ok < (int)n * 8, "%s: some fixed-checksum flips rejected (%d accepted)", what, ok);
    free(b);
}

static void test_random(void)
{
    uint8_t buf[512];
    int bad = 0, accepted = 0;
    for (int it = 0; it < 20000; it++) {
        size_t n = rnd() % sizeof buf;
        for (size_t i = 0; i < n; i++)
            buf[i] = (uint8_t)rnd();
        if (it % 2 && n >= 32) { /* a plausible header, to get past identity */
            memcpy(buf, RSC_MAGIC, 8);
            buf[8] = 1;
            buf[10] = buf[11] = 0;
            memset(buf + 20, 0, 4);
            n &= ~(size_t)3;
            wr32le(buf + 12, (uint32_t)n);
            wr32le(buf + 16, rnd() % 9);
            if (it % 4 == 1)
                tb_fix_checksum(buf, n);
            accepted += load_and_use(buf, n);
        } else {
            rsc_program p;
            bad += rsc_load(&p, buf, n, NULL) == RSC_OK;
        }
    }
    CHECK(bad == 0, "%d random strings accepted", bad);
    printf("random plausible headers accepted: %d\n", accepted);
    /* Mutations of a valid blob, checksum fixed: never unsafe. */
    uint8_t *b = malloc(base_n);
    int acc = 0;
    for (int it = 0; it < RT_MUTATIONS; it++) {
        memcpy(b, base, base_n);
        for (int k = 1 + rnd() % 3; k > 0; k--) {
            size_t at = rnd() % base_n;
            if (rnd() % 2)
                b[at] = (uint8_t)rnd();
            else if (at + 4 <= base_n)
                wr32le(b + (at & ~(size_t)3), rnd() % 300);
        }
        tb_fix_checksum(b, base_n);
        acc += load_and_use(b, base_n);
    }
    printf("mutated blobs accepted: %d of %d\n", acc, RT_MUTATIONS);
    CHECK(acc > 0 && acc < RT_MUTATIONS, "mutations: some accepted, some not (%d)", acc);
    free(b);
}

int main(void)
{
    tp_prog p = base_prog();
    base = tp_build(&p, &base_n);
    test_header_and_framing();
    test_tables();
    test_shapes();
    test_agent_budget();
    test_damage(base, base_n, "base");
    tp_prog ex = {0};
    ex.n_rules = 1;
    ex.rules[0] = (tp_rule){2, 0, "/a", TP_LIT};
    ex.n_sets = 1;
    ex.sets[0].n = 1;
    ex.global = 0;
    size_t n;
    uint8_t *b = tp_build(&ex, &n);
    test_damage(b, n, "example");
    free(b);
    ex.rfc = 1;
    ex.rules[0].mode = TP_TABLE;
    b = tp_build(&ex, &n);
    test_damage(b, n, "rfc table");
    free(b);
    test_random();
    free(base);
    return tu_report("runtime verifier", passed);
}
