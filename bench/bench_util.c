/* SPDX-License-Identifier: Apache-2.0 */
/* Shared pieces of the benchmark harness: see bench_util.h. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile uint64_t bu_sink;

uint64_t bu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

unsigned char *bu_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}

long bu_lines(const char *buf, size_t len, rsc_bytes **out)
{
    size_t cap = 1024, n = 0, i = 0;
    rsc_bytes *v = malloc(cap * sizeof *v);
    while (v && i < len) {
        size_t j = i;
        while (j < len && buf[j] != '\n')
            j++;
        size_t e = j;
        if (e > i && buf[e - 1] == '\r')
            e--;
        if (e > i) {
            if (n == cap) {
                rsc_bytes *nv = realloc(v, 2 * cap * sizeof *v);
                if (!nv) {
                    free(v);
                    return -1;
                }
                v = nv;
                cap *= 2;
            }
            v[n].ptr = buf + i;
            v[n++].len = e - i;
        }
        i = j + 1;
    }
    if (!v)
        return -1;
    *out = v;
    return (long)n;
}

/* Out of line like rsc_match_url (a library call): both loops make one
 * call per URL. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
uint64_t bu_fnv1a64(const char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++) {
        h ^= (uint8_t)p[i];
        h *= 0x100000001b3u;
    }
    return h;
}

void bu_pass_match(const rsc_selection *sel, const rsc_bytes *u, size_t n, size_t reps)
{
    for (size_t r = 0; r < reps; r++)
        for (size_t i = 0; i < n; i++)
            bu_sink += (uint64_t)rsc_match_url(sel, u[i].ptr, u[i].len, NULL);
}

void bu_pass_match_path(const rsc_selection *sel, const rsc_bytes *u, size_t n, size_t reps)
{
    for (size_t r = 0; r < reps; r++)
        for (size_t i = 0; i < n; i++)
            bu_sink += (uint64_t)rsc_match_path(sel, u[i].ptr, u[i].len, NULL);
}

void bu_pass_floor(const rsc_bytes *u, size_t n, size_t reps)
{
    for (size_t r = 0; r < reps; r++)
        for (size_t i = 0; i < n; i++)
            bu_sink += bu_fnv1a64(u[i].ptr, u[i].len);
}

size_t bu_reps(uint64_t once_ns, uint64_t min_ns)
{
    if (once_ns == 0)
        once_ns = 1;
    uint64_t r = (min_ns + once_ns - 1) / once_ns;
    return r < 1 ? 1 : (size_t)r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bu_quantile(double *v, size_t n, double q)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    size_t k = (size_t)(q * (double)n + 0.999999);
    k = k == 0 ? 0 : k - 1;
    return v[k < n ? k : n - 1];
}

double bu_median(double *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double bu_time_median(void (*op)(void *ud), void *ud, size_t per_sample, int rounds)
{
    double v[BU_MAX_ROUNDS];
    if (rounds < 1)
        return 0;
    if (rounds > BU_MAX_ROUNDS)
        rounds = BU_MAX_ROUNDS;
    if (per_sample == 0)
        per_sample = 1;
    for (int r = 0; r < rounds; r++) {
        uint64_t t0 = bu_now_ns();
        for (size_t k = 0; k < per_sample; k++)
            op(ud);
        v[r] = (double)(bu_now_ns() - t0) / (double)per_sample;
    }
    return bu_median(v, (size_t)rounds);
}

typedef struct load_arg {
    const void *data;
    size_t size;
} load_arg;

static void load_op(void *ud)
{
    const load_arg *a = ud;
    rsc_program p;
    bu_sink += (uint64_t)rsc_load(&p, a->data, a->size, NULL);
}

double bu_time_load(const void *data, size_t size, uint64_t min_ns, int rounds)
{
    load_arg a = {data, size};
    uint64_t t0 = bu_now_ns();
    load_op(&a); /* warm-up, and how long one takes */
    return bu_time_median(load_op, &a, bu_reps(bu_now_ns() - t0, min_ns), rounds);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

long bu_dir_names(const char *dir, char ***out)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    size_t n = 0, cap = 0;
    char **names = NULL;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char *name = strdup(de->d_name);
        char **nn = names;
        if (name && n == cap) {
            cap = cap ? 2 * cap : 1024;
            nn = realloc(names, cap * sizeof *names);
        }
        if (!name || !nn) {
            free(name);
            bu_names_free(names, (long)n);
            closedir(d);
            errno = ENOMEM;
            return -1;
        }
        names = nn;
        names[n++] = name;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_name);
    *out = names;
    return (long)n;
}

void bu_names_free(char **names, long n)
{
    for (long k = 0; k < n; k++)
        free(names[k]);
    free(names);
}

void bu_time_match(const rsc_selection *sel, const rsc_bytes *u, size_t n, int path,
                   int rounds, uint64_t min_ns, bu_match_result *out)
{
    void (*pm)(const rsc_selection *, const rsc_bytes *, size_t, size_t) =
        path ? bu_pass_match_path : bu_pass_match;
    uint64_t t0 = bu_now_ns();
    pm(sel, u, n, 1);
    uint64_t tm = bu_now_ns() - t0;
    t0 = bu_now_ns();
    bu_pass_floor(u, n, 1);
    uint64_t tf = bu_now_ns() - t0;
    size_t reps = bu_reps(tm > tf ? tm : tf, min_ns);
    pm(sel, u, n, reps); /* warm-up */
    bu_pass_floor(u, n, reps);
    double *vm = malloc(2 * (size_t)rounds * sizeof *vm), *vf = vm + rounds;
    if (!vm) {
        memset(out, 0, sizeof *out);
        return;
    }
    const double per = (double)reps * (double)n;
    for (int k = 0; k < rounds; k++) {
        t0 = bu_now_ns();
        pm(sel, u, n, reps);
        vm[k] = (double)(bu_now_ns() - t0) / per;
        t0 = bu_now_ns();
        bu_pass_floor(u, n, reps);
        vf[k] = (double)(bu_now_ns() - t0) / per;
    }
    out->match_ns = bu_median(vm, (size_t)rounds);
    out->floor_ns = bu_median(vf, (size_t)rounds);
    out->reps = reps;
    free(vm);
}

void bu_rng_seed(bu_rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15u + 0x2545F4914F6CDD1Du;
    if (r->s == 0)
        r->s = 1;
}

uint64_t bu_rng_next(bu_rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1Du;
}

uint32_t bu_rng_below(bu_rng *r, uint32_t n)
{
    return (uint32_t)((bu_rng_next(r) >> 32) * (uint64_t)n >> 32);
}
