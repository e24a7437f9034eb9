/* SPDX-License-Identifier: Apache-2.0 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int tu_failures, tu_passed;

char *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (n < cap)
            break;
        cap *= 2;
        char *nb = realloc(buf, cap + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
        }
        buf = nb;
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[n] = 0;
    *len = n;
    return buf;
}

size_t tu_split_tabs(char *line, char **fields, size_t max)
{
    size_t n = strlen(line);
    if (n && line[n - 1] == '\n')
        line[--n] = 0;
    if (n && line[n - 1] == '\r')
        line[--n] = 0;
    size_t k = 0;
    char *p = line;
    while (k < max) {
        fields[k++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = 0;
        p = t + 1;
    }
    return k;
}

static int b64val(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

unsigned char *tu_base64(const char *s, size_t *len)
{
    size_t n = strlen(s);
    unsigned char *out = malloc(n / 4 * 3 + 4);
    if (!out)
        return NULL;
    size_t o = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '=')
            break;
        int v = b64val((unsigned char)s[i]);
        if (v < 0) {
            free(out);
            return NULL;
        }
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    out[o] = 0;
    *len = o;
    return out;
}

char *tu_unescape(const char *s, size_t *len)
{
    size_t n = strlen(s), o = 0;
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\' || i + 1 >= n) {
            out[o++] = s[i];
            continue;
        }
        char c = s[++i];
        if (c == 'n')
            out[o++] = '\n';
        else if (c == 'r')
            out[o++] = '\r';
        else if (c == 't')
            out[o++] = '\t';
        else if (c >= '0' && c <= '7' && i + 2 < n + 1) {
            int v = 0, k = 0;
            while (k < 3 && i < n && s[i] >= '0' && s[i] <= '7') {
                v = v * 8 + (s[i] - '0');
                i++;
                k++;
            }
            i--;
            out[o++] = (char)v;
        } else
            out[o++] = c; /* \\ and \" */
    }
    out[o] = 0;
    *len = o;
    return out;
}

char *tu_getline(FILE *f)
{
    size_t cap = 256, n = 0;
    char *buf = malloc(cap);
    int c;
    if (!buf)
        return NULL;
    while ((c = getc(f)) != EOF) {
        if (n + 2 > cap) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
        }
        buf[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n == 0 && c == EOF) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    return buf;
}

void tu_buf_put(tu_buf *b, const void *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 256;
        while (nc < b->n + n + 1)
            nc *= 2;
        char *np = realloc(b->p, nc);
        if (!np) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        b->p = np, b->cap = nc;
    }
    if (n)
        memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

void tu_buf_puts(tu_buf *b, const char *s)
{
    tu_buf_put(b, s, strlen(s));
}

int tu_report(const char *what, int passed)
{
    printf("%s: %d passed, %d failed\n", what, passed, tu_failures);
    return tu_failures ? 1 : 0;
}

int tu_dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *dup_n(const char *s, size_t *len)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d)
        memcpy(d, s, n + 1);
    *len = n;
    return d;
}

long tu_load_cases(const char *path, tu_case **cases, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    long rows = 0;
    size_t cap = *n;
    char *line;
    while ((line = tu_getline(f)) != NULL) {
        char *fl[6];
        if (line[0] == '\n' || line[0] == 0) {
            free(line);
            continue;
        }
        size_t nf = tu_split_tabs(line, fl, 6);
        if (nf != 5 || (strcmp(fl[4], "0") != 0 && strcmp(fl[4], "1") != 0)) {
            fprintf(stderr, "%s: malformed row %ld\n", path, rows + 1);
            free(line);
            fclose(f);
            return -1;
        }
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
            tu_case *nc = realloc(*cases, cap * sizeof *nc);
            if (!nc) {
                free(line);
                fclose(f);
                return -1;
            }
            *cases = nc;
        }
        tu_case *c = &(*cases)[*n];
        size_t idlen;
        c->id = dup_n(fl[0], &idlen);
        c->body = tu_base64(fl[1], &c->body_len);
        c->agent = dup_n(fl[2], &c->agent_len);
        c->url = dup_n(fl[3], &c->url_len);
        c->expected = fl[4][0] == '1';
        free(line);
        if (!c->id || !c->body || !c->agent || !c->url) {
            fprintf(stderr, "%s: cannot decode row %ld\n", path, rows + 1);
            fclose(f);
            return -1;
        }
        (*n)++;
        rows++;
    }
    fclose(f);
    return rows;
}

void tu_free_cases(tu_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(cases[i].id);
        free(cases[i].body);
        free(cases[i].agent);
        free(cases[i].url);
    }
    free(cases);
}

size_t tu_drop_lines(const char *t, size_t n, const uint32_t *lines, size_t nl, char *out)
{
    size_t k = 0;
    uint32_t line = 1;
    int skip = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || t[i - 1] == '\n' || (t[i - 1] == '\r' && t[i] != '\n')) {
            if (i > 0)
                line++;
            skip = 0;
            for (size_t j = 0; j < nl; j++)
                skip |= lines[j] == line;
            if (skip) {
                memcpy(out + k, "Disallow:", 9);
                k += 9;
            }
        }
        if (!skip || t[i] == '\n' || t[i] == '\r')
            out[k++] = t[i];
    }
    return k;
}
