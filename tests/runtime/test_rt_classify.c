/* SPDX-License-Identifier: Apache-2.0 */
/* rsc_classify() (the one rule for bytes that may be a blob or a
 * robots.txt) and the crawler-name helpers of the runtime: for every golden
 * blob, every truncation and every bit flip is a blob or a damaged blob
 * (never text) and fails rsc_load(); texts, binaries and near-magic bytes
 * are told apart; rsc_agent_is_token() and rsc_selection.not_tokens.
 * usage: test_rt_classify GOLDEN_DIR */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/runtime.h"
#include "testutil.h"

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *p = malloc(1 << 20);
    *n = p ? fread(p, 1, 1 << 20, f) : 0;
    fclose(f);
    return p;
}

static void golden(const char *dir)
{
    DIR *d = opendir(dir);
    TU_COUNT(d != NULL, "%s", dir);
    if (!d)
        return;
    struct dirent *e;
    int blobs = 0;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".rbc") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n;
        unsigned char *b = slurp(path, &n);
        TU_COUNT(b && n > 12, "%s", path);
        if (!b)
            continue;
        blobs++;
        rsc_program p;
        TU_COUNT(rsc_classify(b, n) == RSC_INPUT_BLOB && rsc_load(&p, b, n, NULL) == RSC_OK, "%s", path);
        int bad = 0;
        for (size_t k = 1; k < n; k++) /* every truncation: a blob that fails */
            bad += rsc_classify(b, k) != RSC_INPUT_BLOB || rsc_load(&p, b, k, NULL) == RSC_OK;
        for (size_t bit = 0; bit < n * 8; bit++) { /* every bit flip */
            b[bit / 8] ^= (unsigned char)(1u << (bit % 8));
            rsc_input_kind k = rsc_classify(b, n);
            bad += (k != RSC_INPUT_BLOB && k != RSC_INPUT_DAMAGED) || rsc_load(&p, b, n, NULL) == RSC_OK;
            bad += bit < 32 && k != RSC_INPUT_DAMAGED; /* a flip in the magic: damaged */
            b[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        }
        unsigned char major = b[4];
        for (unsigned v = 0; v < 256; v++) { /* every other major: a blob, refused */
            if (v == major)
                continue;
            b[4] = (unsigned char)v;
            bad += rsc_classify(b, n) != RSC_INPUT_BLOB || rsc_load(&p, b, n, NULL) == RSC_OK;
        }
        b[4] = major;
        TU_COUNT(bad == 0, "%s: %d damaged forms not refused", path, bad);
        free(b);
    }
    closedir(d);
    TU_COUNT(blobs >= 5, "golden blobs found: %d", blobs);
}

static void kinds(void)
{
    static const struct {
        const char *s;
        size_t n;
        rsc_input_kind want;
    } t[] = {
        {"", 0, RSC_INPUT_TEXT},
        {"User-agent: *\nDisallow: /\n", 26, RSC_INPUT_TEXT},
        {"\x89", 1, RSC_INPUT_BLOB},
        {"\x89RS", 3, RSC_INPUT_BLOB},
        {"\x89RSC\x09 anything", 14, RSC_INPUT_BLOB},
        {"\x89RSB\x04", 5, RSC_INPUT_DAMAGED},
        {"\x09RSC\x04", 5, RSC_INPUT_DAMAGED},
        {"\x88RSA\x04", 5, RSC_INPUT_DAMAGED},
        {"\x09RQA\x04", 5, RSC_INPUT_TEXT}, /* 3 bits off: not a blob */
        {"\x1f\x8b\x08\x00", 4, RSC_INPUT_BINARY},
        {"\xff\xfeU\0s\0", 6, RSC_INPUT_BINARY},
        {"\0\1\2\3\4\5\6\7", 8, RSC_INPUT_BINARY},
        {"User-agent: *\nDisallow: /a\0b\n", 29, RSC_INPUT_TEXT}, /* a stray NUL */
        {"\t\r\n\v\f text", 10, RSC_INPUT_TEXT},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        TU_COUNT(rsc_classify(t[i].s, t[i].n) == t[i].want, "case %zu: %d", i, rsc_classify(t[i].s, t[i].n));
    TU_COUNT(rsc_classify(NULL, 0) == RSC_INPUT_TEXT, "NULL");
    for (int k = 0; k < 5; k++)
        TU_COUNT(rsc_input_kind_what(k) != NULL && rsc_input_kind_what(k)[0], "what %d", k);
}

static void agents(const char *dir)
{
    TU_COUNT(rsc_agent_is_token("Googlebot", 9) && rsc_agent_is_token("a_b-c", 5), "tokens");
    TU_COUNT(!rsc_agent_is_token("", 0) && !rsc_agent_is_token(NULL, 0) && !rsc_agent_is_token("AB42bot", 7) &&
                 !rsc_agent_is_token("Foo/1.0", 7) && !rsc_agent_is_token("*", 1),
             "not tokens");
    char path[1024];
    snprintf(path, sizeof path, "%s/groups.rbc", dir);
    size_t n;
    unsigned char *b = slurp(path, &n);
    rsc_program p;
    if (!b || rsc_load(&p, b, n, NULL) != RSC_OK) {
        TU_COUNT(0, "%s", path);
        free(b);
        return;
    }
    rsc_bytes a[3] = {{"x", 1}, {"Foo/1.0", 7}, {"", 0}};
    rsc_selection sel;
    TU_COUNT(rsc_select(&p, a, 1, &sel) == RSC_OK && sel.not_tokens == 0, "token");
    TU_COUNT(rsc_select(&p, a, 3, &sel) == RSC_OK && sel.not_tokens == 2, "two non-tokens: %u", sel.not_tokens);
    free(b);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_rt_classify GOLDEN_DIR\n");
        return 2;
    }
    kinds();
    golden(argv[1]);
    agents(argv[1]);
    return tu_report("classify", tu_passed);
}
