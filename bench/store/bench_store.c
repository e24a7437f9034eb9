/* SPDX-License-Identifier: Apache-2.0 */
/* Store benchmark (bench/store/run.sh writes bench/STORE.md):
 *
 *   bench_store tsv CORPUS_ROBOTS_DIR N OUT.tsv
 *       N origins "https://sI.HOST" cycling over the corpus files.
 *   bench_store compile TSV THREADS
 *       pure compile of the TSV's files (read + rsc_compile), the baseline
 *       of `robotsc store build`: prints seconds and records/s.
 *   bench_store check DB TSV URLDIR N MODE WORKSET PROCS
 *       N random mixed-origin URLs (origins of the TSV, paths of the corpus
 *       URL lists) checked through rsc_store_check: MODE uncached or cached
 *       (a per-process program cache), URLs drawn from WORKSET origins
 *       (0: all), in PROCS reader processes at once. Prints per-check
 *       order statistics (each check timed alone, timer cost subtracted)
 *       and the aggregate rate.
 *
 * It reports; it asserts nothing about time. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "robotsc/compiler.h"
#include "robotsc/store.h"

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPU time of this process (all threads), user + system. */
static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    for (;;) {
        n += fread(b + n, 1, cap - n, f);
        if (n < cap)
            break;
        cap *= 2;
        b = realloc(b, cap + 1);
        if (!b)
            break;
    }
    fclose(f);
    if (b)
        b[n] = 0;
    *len = n;
    return b;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmd_tsv(char **argv)
{
    const char *dir = argv[2];
    long n = atol(argv[3]);
    DIR *d = opendir(dir);
    if (!d)
        return perror(dir), 1;
    size_t cap = 1024, nf = 0;
    char **names = malloc(cap * sizeof *names);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l <= 4 || strcmp(e->d_name + l - 4, ".txt") != 0 || strchr(e->d_name, ' '))
            continue;
        if (nf == cap)
            names = realloc(names, (cap *= 2) * sizeof *names);
        names[nf++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, nf, sizeof *names, cmp_str);
    FILE *out = fopen(argv[4], "w");
    if (!out)
        return perror(argv[4]), 1;
    for (long i = 0; i < n; i++) {
        const char *f = names[(size_t)i % nf];
        fprintf(out, "https://s%ld.%.*s\t%s/%s\n", i, (int)(strlen(f) - 4), f, dir, f);
    }
    fclose(out);
    printf("%ld origins over %zu files\n", n, nf);
    return 0;
}

typedef struct row {
    char *origin;
    char *path;
} row;

static row *read_tsv(const char *path, size_t *n)
{
    size_t len;
    char *t = read_all(path, &len);
    if (!t)
        return NULL;
    size_t cap = 1024, k = 0;
    row *r = malloc(cap * sizeof *r);
    char *p = t;
    while (p < t + len) {
        char *nl = memchr(p, '\n', (size_t)(t + len - p));
        if (!nl)
            nl = t + len;
        *nl = 0;
        char *tab = strchr(p, '\t');
        if (tab) {
            *tab = 0;
            if (k == cap)
                r = realloc(r, (cap *= 2) * sizeof *r);
            r[k].origin = p;
            r[k++].path = tab + 1;
        }
        p = nl + 1;
    }
    *n = k;
    return r; /* t stays allocated: the rows point into it */
}

typedef struct cjob {
    row *rows;
    size_t n;
    size_t next;
    pthread_mutex_t mu;
    uint64_t bytes;
    size_t failed;
} cjob;

static void *compile_worker(void *arg)
{
    cjob *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->mu);
        size_t i = j->next++;
        pthread_mutex_unlock(&j->mu);
        if (i >= j->n)
            return NULL;
        size_t len;
        char *body = read_all(j->rows[i].path, &len);
        rsc_blob b = {NULL, 0};
        if (!body || rsc_compile(body, len, NULL, &b) != RSC_OK) {
            pthread_mutex_lock(&j->mu);
            j->failed++;
            pthread_mutex_unlock(&j->mu);
        }
        pthread_mutex_lock(&j->mu);
        j->bytes += b.size;
        pthread_mutex_unlock(&j->mu);
        rsc_blob_free(&b, NULL);
        free(body);
    }
}

static int cmd_compile(char **argv)
{
    size_t n;
    row *rows = read_tsv(argv[2], &n);
    int threads = atoi(argv[3]);
    if (!rows || threads < 1)
        return fprintf(stderr, "bad arguments\n"), 1;
    cjob j = {rows, n, 0, PTHREAD_MUTEX_INITIALIZER, 0, 0};
    pthread_t tid[64];
    uint64_t t0 = now_ns();
    double c0 = cpu_s();
    for (int t = 0; t < threads && t < 64; t++)
        pthread_create(&tid[t], NULL, compile_worker, &j);
    for (int t = 0; t < threads && t < 64; t++)
        pthread_join(tid[t], NULL);
    double s = (double)(now_ns() - t0) / 1e9;
    printf("compile\t%d\t%zu\t%.2f\t%.0f\t%llu\t%zu\t%.2f\n", threads, n, s, n / s, (unsigned long long)j.bytes,
           j.failed, cpu_s() - c0);
    return 0;
}

static uint64_t rng = 88172645463325252u;
static uint64_t xorshift(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The paths of the corpus URL lists: everything after the host. */
static char **read_paths(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t cap = 1024, k = 0;
    char **p = malloc(cap * sizeof *p);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char f[4096];
        snprintf(f, sizeof f, "%s/%s", dir, e->d_name);
        size_t len;
        char *t = read_all(f, &len);
        if (!t)
            continue;
        for (char *s = strtok(t, "\r\n"); s; s = strtok(NULL, "\r\n")) {
            char *h = strstr(s, "://");
            if (!h)
                continue;
            char *slash = strchr(h + 3, '/');
            if (k == cap)
                p = realloc(p, (cap *= 2) * sizeof *p);
            p[k++] = strdup(slash ? slash : "/");
        }
        free(t);
    }
    closedir(d);
    *n = k;
    return p;
}

static int touch(void *ud, const char *key, size_t klen, rsc_store_status s, const rsc_store_record *r)
{
    (void)ud, (void)key, (void)klen, (void)s, (void)r;
    return 0;
}

static int cmd_check(char **argv)
{
    const char *db = argv[2];
    size_t n_rows, n_paths;
    row *rows = read_tsv(argv[3], &n_rows);
    char **paths = read_paths(argv[4], &n_paths);
    size_t n = (size_t)atol(argv[5]);
    int cached = strcmp(argv[6], "cached") == 0, lookup = strcmp(argv[6], "lookup") == 0;
    size_t workset = (size_t)atol(argv[7]);
    int procs = atoi(argv[8]);
    if (!rows || !paths || !n_paths || !n || procs < 1)
        return fprintf(stderr, "bad arguments\n"), 1;
    if (!workset || workset > n_rows)
        workset = n_rows;
    /* The working set: a random sample of origins. */
    size_t *ws = malloc(workset * sizeof *ws);
    for (size_t i = 0; i < workset; i++)
        ws[i] = workset == n_rows ? i : (size_t)(xorshift() % n_rows);
    int pipefd[2], outfd[2], readyfd[2];
    if (pipe(pipefd) != 0 || pipe(outfd) != 0 || pipe(readyfd) != 0)
        return perror("pipe"), 1;
    for (int p = 0; p < procs; p++) {
        if (fork() != 0)
            continue;
        /* A reader process: its own URLs, store handle and cache. */
        rng ^= (uint64_t)(p + 1) * 0x9e3779b97f4a7c15u;
        char **urls = malloc(n * sizeof *urls);
        size_t *ulen = malloc(n * sizeof *ulen);
        for (size_t i = 0; i < n; i++) {
            const row *r = &rows[ws[xorshift() % workset]];
            const char *path = paths[xorshift() % n_paths];
            size_t a = strlen(r->origin), b = strlen(path);
            urls[i] = malloc(a + b + 1);
            memcpy(urls[i], r->origin, a);
            memcpy(urls[i] + a, path, b + 1);
            ulen[i] = a + b;
        }
        rsc_store_options o = {0};
        o.readonly = 1;
        rsc_store *st;
        if (rsc_store_open(db, &o, &st) != RSC_STORE_OK)
            _exit(1);
        rsc_store_txn *t;
        rsc_store_begin(st, &t);
        rsc_store_cache *c = cached ? rsc_store_cache_new(workset * 2 > (1u << 20) ? (1u << 20) : workset * 2, 0)
                                    : NULL;
        rsc_bytes agent = {"Googlebot", 9};
        uint64_t *ns = malloc(n * sizeof *ns);
        /* Timer cost, to subtract. */
        uint64_t tmin = UINT64_MAX;
        for (int i = 0; i < 1000; i++) {
            uint64_t a = now_ns(), b = now_ns();
            if (b - a < tmin)
                tmin = b - a;
        }
        /* Warm-up: one pass over every record (a long-running worker has its
         * pages mapped; a fresh process would time page faults), then a pass
         * of checks (program cache), then wait for the start. */
        rsc_store_foreach(t, touch, NULL);
        size_t warm = n < 200000 ? n : 200000;
        for (size_t i = 0; i < warm; i++) {
            int v;
            rsc_store_check(t, c, &agent, 1, urls[i], ulen[i], 0, &v);
        }
        char go = 'r';
        if (write(readyfd[1], &go, 1) != 1 || read(pipefd[0], &go, 1) != 1)
            _exit(1);
        size_t allow = 0, errors = 0;
        uint64_t t0 = now_ns();
        double c0 = cpu_s();
        for (size_t i = 0; i < n; i++) {
            int v = 0;
            rsc_store_status s;
            uint64_t a = now_ns();
            if (lookup) { /* origin key and record only: no verification, no match */
                char key[RSC_ORIGIN_MAX];
                size_t kl;
                rsc_store_record rec;
                rsc_store_origin_key(urls[i], ulen[i], key, &kl);
                s = rsc_store_get(t, key, kl, &rec, NULL, NULL);
                v = (int)rec.blob_len & 1;
            } else {
                s = rsc_store_check(t, c, &agent, 1, urls[i], ulen[i], 0, &v);
            }
            uint64_t b = now_ns();
            ns[i] = b - a > tmin ? b - a - tmin : 0;
            allow += s == RSC_STORE_OK && v == RSC_STORE_ALLOW;
            errors += s != RSC_STORE_OK;
        }
        uint64_t wall = now_ns() - t0;
        double cpu = cpu_s() - c0;
        qsort(ns, n, sizeof *ns, cmp_u64);
        char line[256];
        int l = snprintf(line, sizeof line, "%d\t%llu\t%llu\t%llu\t%llu\t%llu\t%zu\t%zu\t%.0f\n", p,
                         (unsigned long long)ns[n / 2], (unsigned long long)ns[n * 9 / 10],
                         (unsigned long long)ns[n * 99 / 100], (unsigned long long)wall, (unsigned long long)tmin,
                         allow, errors, cpu * 1e9 / (double)n);
        if (write(outfd[1], line, (size_t)l) != l)
            _exit(1);
        _exit(0);
    }
    /* Release every reader at once, once all are warm; measure the wall
     * time of all. */
    for (int p = 0; p < procs; p++) {
        char r;
        if (read(readyfd[0], &r, 1) != 1)
            return 1;
    }
    uint64_t t0 = now_ns();
    for (int p = 0; p < procs; p++)
        if (write(pipefd[1], "g", 1) != 1)
            return 1;
    int okall = 1;
    for (int p = 0; p < procs; p++) {
        int st;
        wait(&st);
        okall = okall && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    double wall = (double)(now_ns() - t0) / 1e9;
    close(outfd[1]);
    char buf[4096];
    ssize_t got = read(outfd[0], buf, sizeof buf - 1);
    buf[got > 0 ? got : 0] = 0;
    /* mode procs workset | per reader: id median p90 p99 wall tmin allow errors */
    double sum_wall = 0;
    unsigned long long med = 0;
    for (char *s = strtok(buf, "\n"); s; s = strtok(NULL, "\n")) {
        int id;
        unsigned long long m, p90, p99, w, tm;
        size_t al, er;
        double cpu_ns;
        if (sscanf(s, "%d %llu %llu %llu %llu %llu %zu %zu %lf", &id, &m, &p90, &p99, &w, &tm, &al, &er, &cpu_ns) == 9) {
            printf("reader\t%s\t%d\t%zu\t%d\t%llu\t%llu\t%llu\t%.1f\t%zu\t%zu\t%.0f\n", argv[6], procs, workset, id,
                   m, p90, p99, (double)w / n, al, er, cpu_ns);
            sum_wall += (double)w;
            if (id == 0)
                med = m;
        }
    }
    printf("total\t%s\t%d\t%zu\t%.0f\t%llu\t%s\n", argv[6], procs, workset,
           (double)n * procs / wall, med, okall ? "ok" : "failed");
    return okall ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[1], "tsv") == 0)
        return cmd_tsv(argv);
    if (argc >= 4 && strcmp(argv[1], "compile") == 0)
        return cmd_compile(argv);
    if (argc >= 9 && strcmp(argv[1], "check") == 0)
        return cmd_check(argv);
    fprintf(stderr, "usage: see the comment at the top of bench/store/bench_store.c\n");
    return 2;
}
