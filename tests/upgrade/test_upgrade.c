/* SPDX-License-Identifier: Apache-2.0 */
/* The format-4 upgrade (compiler/v4read.h) on the golden blobs of
 * tests/upgrade/data (written by robotsc 1.0.0, data/regen.sh):
 * - each rebuilt blob is byte for byte what the current compiler writes for
 *   the blob's source, and answers every URL of urls.txt for every agent of
 *   agents.txt as 1.0.0 answered it on the format-4 blob (verdict and
 *   deciding line: --explain), NAME.expected;
 * - the IR read back from a blob holds the source's groups, agents, sitemaps
 *   and directives, and its rules are the source's in-group rules but for
 *   those format 4 does not keep (counted: duplicates no selection uses,
 *   patterns that can never match);
 * - every truncation and every bit flip of every golden blob is refused
 *   with a status and a reason, and every flip with the checksum made right
 *   again is refused the same way or gives a blob the runtime verifies
 *   (run under ASan+UBSan in the sanitizer build), and so is each of 500
 *   seeded random damages of several bytes a blob, checksum made right;
 * - a blob already in the current format is copied unchanged.
 * Other modes, for the shell tests:
 *   test_upgrade --mkstore DB DATA   a store of the golden format-4 blobs
 *     (keys https://gN.example), the map KEY<TAB>NAME on stdout;
 *   test_upgrade --check-store DB MAP  every record of MAP (KEY<TAB>PATH of
 *     its source) is current and byte for byte the current compile of PATH
 *     (google profile). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/v4read.h"
#include "robotsc/compiler.h"
#include "robotsc/runtime.h"
#include "testutil.h"
#ifdef RSC_HAVE_STORE
#include "robotsc/store.h"
#endif

static char *path_of(const char *dir, const char *name, const char *ext)
{
    size_t n = strlen(dir) + strlen(name) + strlen(ext) + 2;
    char *p = malloc(n);
    if (!p)
        abort();
    snprintf(p, n, "%s/%s%s", dir, name, ext);
    return p;
}

static char *read_or_die(const char *dir, const char *name, const char *ext, size_t *len)
{
    char *p = path_of(dir, name, ext);
    char *d = tu_read_file(p, len);
    if (!d) {
        fprintf(stderr, "cannot read %s\n", p);
        exit(2);
    }
    free(p);
    return d;
}

/* Lines of a file, without their line ends. */
typedef struct lines {
    char **v;
    size_t n;
} lines;

static lines read_lines(const char *dir, const char *file)
{
    lines l = {NULL, 0};
    char *p = path_of(dir, file, "");
    FILE *f = fopen(p, "rb");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", p);
        exit(2);
    }
    char *s;
    while ((s = tu_getline(f)) != NULL) {
        size_t k = strlen(s);
        while (k && (s[k - 1] == '\n' || s[k - 1] == '\r'))
            s[--k] = 0;
        l.v = realloc(l.v, (l.n + 1) * sizeof *l.v);
        if (!l.v)
            abort();
        l.v[l.n++] = s;
    }
    fclose(f);
    free(p);
    return l;
}

static void free_lines(lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

/* 1.0.0's word for a verdict (data/regen.sh): a, aN, dN. */
static void word_of(const rsc_match *m, char *w, size_t n)
{
    if (m->decided)
        snprintf(w, n, "%c%u", m->allowed ? 'a' : 'd', m->line);
    else
        snprintf(w, n, "%c", m->allowed ? 'a' : 'd');
}

static long n_verdicts, n_flips_refused, n_flips_fixed_refused, n_flips_fixed_ok, n_truncations;

/* Every URL for every agent on blob b against the expected words. */
static void check_verdicts(const char *name, const char *which, const rsc_blob *b, const lines *agents,
                           const lines *urls, const lines *expected)
{
    rsc_program prog;
    rsc_status st = rsc_load(&prog, b->data, b->size, NULL);
    TU_CHECK(st == RSC_OK, "%s: %s blob does not load: %s", name, which, rsc_strerror(st));
    if (st != RSC_OK)
        return;
    TU_CHECK(expected->n == agents->n, "%s: %zu expected lines for %zu agents", name, expected->n, agents->n);
    for (size_t a = 0; a < agents->n && a < expected->n; a++) {
        rsc_bytes ag = {agents->v[a], strlen(agents->v[a])};
        rsc_selection sel;
        st = rsc_select(&prog, &ag, 1, &sel);
        TU_CHECK(st == RSC_OK, "%s: select %s: %s", name, agents->v[a], rsc_strerror(st));
        if (st != RSC_OK)
            continue;
        /* "agent<TAB>w1 w2 ..." */
        const char *e = strchr(expected->v[a], '\t');
        TU_CHECK(e && strncmp(expected->v[a], agents->v[a], (size_t)(e - expected->v[a])) == 0,
                 "%s: expected line %zu is not agent %s", name, a, agents->v[a]);
        if (!e)
            continue;
        e++;
        for (size_t u = 0; u < urls->n; u++) {
            rsc_match m;
            memset(&m, 0, sizeof m);
            rsc_match_url(&sel, urls->v[u], strlen(urls->v[u]), &m);
            char w[32];
            word_of(&m, w, sizeof w);
            size_t wl = strcspn(e, " ");
            TU_COUNT(wl == strlen(w) && memcmp(e, w, wl) == 0, "%s: %s agent %s url %s: %s, 1.0.0 said %.*s",
                     name, which, agents->v[a], urls->v[u], w, (int)wl, e);
            n_verdicts++;
            e += wl;
            if (*e == ' ')
                e++;
        }
        TU_CHECK(*e == 0, "%s: agent %s: more expected words than URLs", name, agents->v[a]);
    }
}

static int str_eq(rsc_str a, rsc_str b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static int lower_eq(rsc_str a, rsc_str b) /* b is lower-case already */
{
    if (a.len != b.len)
        return 0;
    for (size_t i = 0; i < a.len; i++) {
        char c = a.ptr[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != b.ptr[i])
            return 0;
    }
    return 1;
}

static long n_rules_kept, n_rules_not_kept;

/* What the IR read from the blob keeps of the source's IR. */
static void check_ir(const char *name, const char *src, size_t len, rsc_profile profile, const rsc_ir *v4)
{
    rsc_parse_options po;
    memset(&po, 0, sizeof po);
    po.profile = profile;
    rsc_ir *ir = NULL;
    if (rsc_parse(src, len, &po, &ir) != RSC_OK)
        abort();
    TU_CHECK(v4->profile == profile, "%s: profile", name);
    TU_CHECK(v4->n_groups == ir->n_groups, "%s: %zu groups, source %zu", name, v4->n_groups, ir->n_groups);
    for (size_t g = 0; g < v4->n_groups && g < ir->n_groups; g++) {
        const rsc_group *a = &v4->groups[g], *b = &ir->groups[g];
        TU_CHECK(a->line == b->line && a->n_agents == b->n_agents, "%s: group %zu", name, g);
        for (uint32_t k = 0; k < a->n_agents && k < b->n_agents; k++) {
            const rsc_agent *x = &v4->agents[a->first_agent + k], *y = &ir->agents[b->first_agent + k];
            TU_CHECK(x->global == y->global && (x->global || lower_eq(y->token, x->token)),
                     "%s: group %zu agent %u", name, g, k);
        }
    }
    TU_CHECK(v4->n_sitemaps == ir->n_sitemaps, "%s: sitemaps", name);
    for (size_t i = 0; i < v4->n_sitemaps && i < ir->n_sitemaps; i++)
        TU_CHECK(v4->sitemaps[i].line == ir->sitemaps[i].line && str_eq(v4->sitemaps[i].url, ir->sitemaps[i].url),
                 "%s: sitemap %zu", name, i);
    TU_CHECK(v4->n_directives == ir->n_directives, "%s: directives", name);
    for (size_t i = 0; i < v4->n_directives && i < ir->n_directives; i++) {
        const rsc_directive *x = &v4->directives[i], *y = &ir->directives[i];
        TU_CHECK(x->line == y->line && x->group == y->group && str_eq(x->key, y->key) && str_eq(x->value, y->value),
                 "%s: directive %zu", name, i);
    }
    /* Rules: each one read back is the source's rule of its line, in the
     * same group; the source's in-group rules missing are counted. */
    size_t j = 0, in_groups = 0;
    for (size_t i = 0; i < ir->n_rules; i++)
        in_groups += ir->rules[i].group != RSC_NO_GROUP;
    for (size_t i = 0; i < v4->n_rules; i++) {
        const rsc_rule *x = &v4->rules[i];
        while (j < ir->n_rules && ir->rules[j].line < x->line)
            j++;
        const int found = j < ir->n_rules && ir->rules[j].line == x->line;
        TU_CHECK(found && ir->rules[j].group == x->group && ir->rules[j].allow == x->allow &&
                     str_eq(ir->rules[j].pattern, x->pattern),
                 "%s: rule of line %u is not the source's", name, x->line);
    }
    n_rules_kept += (long)v4->n_rules;
    n_rules_not_kept += (long)(in_groups - v4->n_rules);
    rsc_ir_free(ir);
}

/* The Adler-32 of FORMAT.md 4.0 (Checksum), written into b. */
static void fix_checksum(uint8_t *b, size_t n)
{
    uint32_t a = 1, s = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = i >= 7 && i < 11 ? 0 : b[i];
        a = (a + x) % 65521;
        s = (s + a) % 65521;
    }
    uint32_t c = s << 16 | a;
    b[7] = (uint8_t)c, b[8] = (uint8_t)(c >> 8), b[9] = (uint8_t)(c >> 16), b[10] = (uint8_t)(c >> 24);
}

static void check_damage(const char *name, const uint8_t *v4, size_t n)
{
    /* Blobs up to 2 KiB: every truncation and every bit of every byte. The
     * two large ones (16 and 25 KB, most of it one long line or many rules,
     * each flip there a compile of the whole file): the first 64 bytes (the
     * header and the framing) whole, then about 300 positions spread evenly. */
    const size_t step = n > 2048 ? n / 300 + 1 : 1;
#define NEXT_POS(k) ((k) < 64 ? (k) + 1 : (k) + step)
    /* Every truncation: an exact-size copy, so a read past it is ASan's. */
    for (size_t k = 0; k < n; k = NEXT_POS(k)) {
        uint8_t *t = malloc(k ? k : 1);
        memcpy(t, v4, k);
        rsc_blob out = {NULL, 0};
        rsc_v4_error e = {0, NULL};
        rsc_status st = rsc_v4_upgrade(k ? t : NULL, k, 1, &out, &e, NULL);
        TU_COUNT(st != RSC_OK && out.data == NULL && e.what != NULL, "%s: truncated to %zu: %s", name, k,
                 rsc_strerror(st));
        rsc_blob_free(&out, NULL);
        free(t);
        n_truncations++;
    }
    /* Every bit flip, as it is (the checksum refuses it: Adler-32 sees any
     * one-bit change), then with the checksum made right, so that the
     * contents' checks are reached. */
    uint8_t *t = malloc(n);
    for (size_t i = 0; i < n; i = NEXT_POS(i))
        for (unsigned bit = 0; bit < 8; bit++) {
            memcpy(t, v4, n);
            t[i] ^= (uint8_t)(1u << bit);
            rsc_blob out = {NULL, 0};
            rsc_v4_error e = {0, NULL};
            int what = 0;
            rsc_status st = rsc_v4_upgrade(t, n, 1, &out, &e, &what);
            TU_COUNT(st != RSC_OK && out.data == NULL && e.what != NULL, "%s: flip %zu.%u: %s", name, i, bit,
                     rsc_strerror(st));
            rsc_blob_free(&out, NULL);
            n_flips_refused++;
            if (i >= 7 && i < 11)
                continue;
            fix_checksum(t, n);
            st = rsc_v4_upgrade(t, n, 1, &out, &e, &what);
            if (st == RSC_OK) {
                rsc_program p;
                /* RSC_V4_CURRENT: the flip made the major the current one
                 * and the runtime verified the rest as such. */
                TU_COUNT(what != 0 && rsc_load(&p, out.data, out.size, NULL) == RSC_OK,
                         "%s: flip %zu.%u with its checksum: a blob that does not verify", name, i, bit);
                n_flips_fixed_ok++;
            } else {
                TU_COUNT(out.data == NULL && e.what != NULL && e.what[0] != 0,
                         "%s: flip %zu.%u with its checksum: %s without a reason", name, i, bit,
                         rsc_strerror(st));
                n_flips_fixed_refused++;
            }
            rsc_blob_free(&out, NULL);
        }
    free(t);
#undef NEXT_POS
}

/* 500 seeded random damages of 1 to 8 bytes each (a byte set to a random
 * value, or a varint-sized run cleared or set to 0xFF), checksum made
 * right: refused with a reason, or rebuilt into a blob that verifies. */
static long n_random_refused, n_random_ok;
static void check_random(const char *name, const uint8_t *v4, size_t n)
{
    if (n < 12)
        return;
    uint64_t x = 0x9E3779B97F4A7C15u ^ n;
    uint8_t *t = malloc(n);
    for (int k = 0; k < 500; k++) {
        memcpy(t, v4, n);
        const unsigned m = 1 + (unsigned)(x % 8);
        for (unsigned j = 0; j < m; j++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            const size_t at = 11 + (size_t)((x >> 33) % (n - 11));
            const unsigned kind = (unsigned)(x >> 20) % 3;
            const size_t run = kind ? 1 + (size_t)((x >> 8) % 5) : 1;
            for (size_t r = 0; r < run && at + r < n; r++)
                t[at + r] = kind == 0 ? (uint8_t)(x >> 40) : kind == 1 ? 0 : 0xFF;
        }
        fix_checksum(t, n);
        rsc_blob out = {NULL, 0};
        rsc_v4_error e = {0, NULL};
        int what = 0;
        rsc_status st = rsc_v4_upgrade(t, n, 1, &out, &e, &what);
        if (st == RSC_OK) {
            rsc_program p;
            TU_COUNT(what != 0 && rsc_load(&p, out.data, out.size, NULL) == RSC_OK,
                     "%s: random damage %d: a blob that does not verify", name, k);
            n_random_ok++;
        } else {
            TU_COUNT(out.data == NULL && e.what != NULL && e.what[0] != 0, "%s: random damage %d: %s without a reason",
                     name, k, rsc_strerror(st));
            n_random_refused++;
        }
        rsc_blob_free(&out, NULL);
    }
    free(t);
}

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The golden names: NAME of every NAME.v4.rbc, sorted. */
static lines golden_names(const char *dir)
{
    lines l = {NULL, 0};
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open %s\n", dir);
        exit(2);
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!has_suffix(de->d_name, ".v4.rbc"))
            continue;
        l.v = realloc(l.v, (l.n + 1) * sizeof *l.v);
        if (!l.v)
            abort();
        l.v[l.n] = strdup(de->d_name);
        l.v[l.n][strlen(de->d_name) - strlen(".v4.rbc")] = 0;
        l.n++;
    }
    closedir(d);
    qsort(l.v, l.n, sizeof *l.v, cmp_str);
    return l;
}

static rsc_profile profile_of(const char *name)
{
    return strncmp(name, "rfc_", 4) == 0 ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
}

static int golden(const char *dir)
{
    lines names = golden_names(dir), agents = read_lines(dir, "agents.txt"), urls = read_lines(dir, "urls.txt");
    TU_CHECK(names.n >= 12, "only %zu golden blobs in %s", names.n, dir);
    for (size_t i = 0; i < names.n; i++) {
        const char *name = names.v[i];
        size_t slen, vlen;
        char *src = read_or_die(dir, name, ".txt", &slen);
        char *v4 = read_or_die(dir, name, ".v4.rbc", &vlen);
        char ename[256];
        snprintf(ename, sizeof ename, "%s.expected", name);
        lines expected = read_lines(dir, ename);
        const rsc_profile profile = profile_of(name);
        TU_CHECK(vlen > 4 && (uint8_t)v4[4] == 4, "%s: not a format-4 blob", name);

        rsc_compile_options co;
        memset(&co, 0, sizeof co);
        co.profile = profile;
        rsc_blob direct = {NULL, 0}, up = {NULL, 0}, again = {NULL, 0};
        rsc_status st = rsc_compile(src, slen, &co, &direct);
        TU_CHECK(st == RSC_OK, "%s: compile: %s", name, rsc_strerror(st));
        rsc_v4_error e = {0, NULL};
        int what = 0;
        st = rsc_v4_upgrade(v4, vlen, 1, &up, &e, &what);
        TU_COUNT(st == RSC_OK && what == RSC_V4_REBUILT, "%s: upgrade: %s at %zu: %s", name, rsc_strerror(st),
                 e.offset, e.what);
        if (st == RSC_OK && direct.data) {
            TU_COUNT(up.size == direct.size && memcmp(up.data, direct.data, up.size) == 0,
                     "%s: the rebuilt blob (%zu bytes) is not the current compile of its source (%zu bytes)",
                     name, up.size, direct.size);
            check_verdicts(name, "rebuilt", &up, &agents, &urls, &expected);
            check_verdicts(name, "compiled", &direct, &agents, &urls, &expected);
            /* Already current: copied unchanged, with or without force. */
            for (int force = 0; force <= 1; force++) {
                st = rsc_v4_upgrade(up.data, up.size, force, &again, &e, &what);
                TU_COUNT(st == RSC_OK && again.size == up.size && memcmp(again.data, up.data, up.size) == 0 &&
                             (what == RSC_V4_CURRENT || (force && up.data[4] == 4)),
                         "%s: a current blob is not copied (force %d): %s", name, force, rsc_strerror(st));
                rsc_blob_free(&again, NULL);
            }
        }
        rsc_ir *ir = NULL;
        st = rsc_v4_read(v4, vlen, &ir, &e);
        TU_COUNT(st == RSC_OK, "%s: read: %s", name, rsc_strerror(st));
        if (ir)
            check_ir(name, src, slen, profile, ir);
        rsc_v4_ir_free(ir);
        check_damage(name, (const uint8_t *)v4, vlen);
        check_random(name, (const uint8_t *)v4, vlen);
        rsc_blob_free(&direct, NULL);
        rsc_blob_free(&up, NULL);
        free_lines(&expected);
        free(src);
        free(v4);
    }
    /* Not blobs at all, and a blob of another major. */
    rsc_blob out = {NULL, 0};
    rsc_v4_error e;
    TU_COUNT(rsc_v4_upgrade("User-agent: *\n", 14, 1, &out, &e, NULL) == RSC_E_MAGIC && !out.data, "text");
    TU_COUNT(rsc_v4_upgrade(NULL, 0, 1, &out, &e, NULL) != RSC_OK && !out.data, "empty");
    static const uint8_t v3[] = {0x89, 'R', 'S', 'C', '\r', '\n', 0x1a, '\n', 3, 0, 0, 0, 0, 0, 0, 0};
    TU_COUNT(rsc_v4_upgrade(v3, sizeof v3, 1, &out, &e, NULL) == RSC_E_VERSION && !out.data, "format 3");
    rsc_ir *ir = NULL;
    TU_COUNT(rsc_v4_read(v3, sizeof v3, &ir, &e) == RSC_E_VERSION && !ir, "format 3 read");
    printf("upgrade: %zu golden blobs; %ld verdicts equal to 1.0.0's (rebuilt and compiled); rules kept %ld, "
           "not kept %ld (never decide); %ld truncations refused; %ld bit flips refused; with the checksum "
           "fixed: %ld refused, %ld rebuilt and verified; random damages: %ld refused, %ld rebuilt and "
           "verified\n",
           names.n, n_verdicts, n_rules_kept, n_rules_not_kept, n_truncations, n_flips_refused,
           n_flips_fixed_refused, n_flips_fixed_ok, n_random_refused, n_random_ok);
    free_lines(&names);
    free_lines(&agents);
    free_lines(&urls);
    return tu_report("upgrade", tu_passed);
}

#ifdef RSC_HAVE_STORE
static int mkstore(const char *db, const char *dir)
{
    lines names = golden_names(dir);
    rsc_store *st = NULL;
    rsc_store_status s = rsc_store_open(db, NULL, &st);
    if (s != RSC_STORE_OK) {
        fprintf(stderr, "%s: %s\n", db, rsc_store_strerror(s));
        return 2;
    }
    rsc_store_item *items = calloc(names.n + 1, sizeof *items);
    rsc_store_meta *meta = calloc(names.n + 1, sizeof *meta);
    char **blobs = calloc(names.n + 1, sizeof *blobs), **keys = calloc(names.n + 1, sizeof *keys);
    for (size_t i = 0; i < names.n; i++) {
        size_t n;
        blobs[i] = read_or_die(dir, names.v[i], ".v4.rbc", &n);
        keys[i] = malloc(64);
        snprintf(keys[i], 64, "https://g%zu.example", i);
        meta[i].expires = RSC_STORE_NEVER;
        meta[i].http_status = 200;
        meta[i].has_copy = 1;
        meta[i].profile = (uint8_t)profile_of(names.v[i]);
        meta[i].fetched_at = 1700000000 + (int64_t)i;
        meta[i].source_url.ptr = keys[i];
        meta[i].source_url.len = strlen(keys[i]);
        items[i].key = keys[i];
        items[i].key_len = strlen(keys[i]);
        items[i].meta = &meta[i];
        items[i].blob = blobs[i];
        items[i].blob_len = n;
        /* The current runtime may refuse format 4: stored as 1.0.0 stored it. */
        items[i].verified = 1;
        printf("%s\t%s\n", keys[i], names.v[i]);
    }
    s = rsc_store_put_many(st, items, names.n, NULL);
    if (s != RSC_STORE_OK)
        fprintf(stderr, "%s: put: %s (%s)\n", db, rsc_store_strerror(s), rsc_store_last_error(st));
    rsc_store_close(st);
    for (size_t i = 0; i < names.n; i++)
        free(blobs[i]), free(keys[i]);
    free(blobs), free(keys), free(items), free(meta);
    free_lines(&names);
    return s == RSC_STORE_OK ? 0 : 2;
}

static int check_store(const char *db, const char *map)
{
    rsc_store_options o = {0};
    o.readonly = 1;
    rsc_store *st = NULL;
    rsc_store_txn *t = NULL;
    if (rsc_store_open(db, &o, &st) != RSC_STORE_OK || rsc_store_begin(st, &t) != RSC_STORE_OK) {
        fprintf(stderr, "%s: cannot open\n", db);
        return 2;
    }
    FILE *f = fopen(map, "rb");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", map);
        return 2;
    }
    long n = 0, same = 0, failed_compile = 0;
    char *line;
    while ((line = tu_getline(f)) != NULL) {
        char *fld[3];
        if (tu_split_tabs(line, fld, 3) != 2) {
            free(line);
            continue;
        }
        size_t slen;
        char *src = tu_read_file(fld[1], &slen);
        rsc_blob direct = {NULL, 0};
        rsc_status cs = src ? rsc_compile(src, slen, NULL, &direct) : RSC_E_IO;
        rsc_store_record rec;
        rsc_program prog;
        rsc_store_status s = rsc_store_get(t, fld[0], strlen(fld[0]), &rec, &prog, NULL);
        n++;
        if (cs != RSC_OK) {
            /* 1.0.0 could not compile it either: no record was written. */
            failed_compile++;
            TU_COUNT(s == RSC_STORE_NOTFOUND, "%s: not compiled now (%s) but stored", fld[0], rsc_strerror(cs));
        } else {
            TU_COUNT(s == RSC_STORE_OK && rec.blob_len == direct.size &&
                         memcmp(rec.blob, direct.data, direct.size) == 0,
                     "%s: record (%s) is not the current compile of %s", fld[0], rsc_store_strerror(s), fld[1]);
            same += s == RSC_STORE_OK && rec.blob_len == direct.size &&
                    memcmp(rec.blob, direct.data, direct.size) == 0;
        }
        rsc_blob_free(&direct, NULL);
        free(src);
        free(line);
    }
    fclose(f);
    rsc_store_end(t);
    rsc_store_close(st);
    printf("check-store: %ld origins, %ld records byte for byte the current compile, %ld not compilable "
           "(and not stored)\n", n, same, failed_compile);
    return tu_report("check-store", tu_passed);
}
#endif

int main(int argc, char **argv)
{
#ifdef RSC_HAVE_STORE
    if (argc == 4 && strcmp(argv[1], "--mkstore") == 0)
        return mkstore(argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "--check-store") == 0)
        return check_store(argv[2], argv[3]);
#endif
    if (argc != 2) {
        fprintf(stderr, "usage: test_upgrade DATA_DIR | --mkstore DB DATA_DIR | --check-store DB MAP\n");
        return 2;
    }
    return golden(argv[1]);
}
