#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* Measurement only (not a ctest): builds DFAs for the rule sets of the
 * corpus robots.txt files and reports state counts, how many sets exceed
 * 100,000 states with and without facts (a) and (b) of compiler/dfa.c, and
 * the time. The rule sets come from a rough line scan, for statistics only:
 * consecutive user-agent lines open a group, allow/disallow values are its
 * patterns (bytes >= 0x80 escaped, '%xx' upper-cased, a final '$' anchors).
 * Usage: dfa_corpus <dir-with-robots.txt-files>... */
#include <dirent.h>
#include <time.h>

#include "dfa_naive.h"

#define LIMIT_STATES 100000u

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct stats {
    unsigned long sets, over[4], overwork[4], states_hist[8], multi, dfas, pats;
    unsigned long long states[4];
    double t[4], tset;
    uint32_t max_states;
    char max_name[4096];
} stats;

static stats S;
static const int variants[4] = {0, RSC_DFA_F_NO_SUBSUME, RSC_DFA_F_KEEP_DONE,
                                RSC_DFA_F_NO_SUBSUME | RSC_DFA_F_KEEP_DONE};

static void measure(const char *name, rsc_pat *p, size_t n)
{
    if (!n)
        return;
    S.sets++;
    S.pats += n;
    rsc_mem m;
    rsc_mem_init(&m, NULL, NULL);
    for (int v = 0; v < 4; v++) {
        rsc_dfa_limits lim = {LIMIT_STATES, 0, 0, 33554432ull}; /* states or work (2^25) */
        rsc_dfa d;
        rsc_dfa_stats ds;
        double t0 = cpu();
        rsc_status st = rsc_dfa_build_ex(&m, p, n, &lim, 1, variants[v], &d, &ds);
        S.t[v] += cpu() - t0;
        if (st == RSC_OK) {
            S.states[v] += ds.subset_states;
            if (v == 0) {
                int b = 0;
                for (uint32_t x = d.n_states; x >= 10 && b < 7; x /= 10)
                    b++;
                S.states_hist[b]++;
                if (d.n_states > S.max_states) {
                    S.max_states = d.n_states;
                    snprintf(S.max_name, sizeof S.max_name, "%s", name);
                }
            }
            rsc_dfa_free(&m, &d);
        } else if (ds.subset_states < LIMIT_STATES) {
            S.overwork[v]++; /* stopped by the work limit first */
            S.states[v] += ds.subset_states;
        } else {
            S.over[v]++;
            S.states[v] += LIMIT_STATES;
        }
    }
    rsc_dfa *ds = NULL;
    size_t nd = 0;
    double t0 = cpu();
    CHECK(rsc_dfa_build_set(&m, p, n, NULL, &ds, &nd) == RSC_OK);
    S.tset += cpu() - t0;
    S.dfas += nd;
    S.multi += nd > 1;
    rsc_dfa_free_all(&m, ds, nd);
}

static int key_is(const char *line, size_t len, const char *key)
{
    size_t k = strlen(key);
    if (len < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        char c = line[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != key[i])
            return 0;
    }
    return 1;
}

static void scan_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    static char body[600000];
    size_t len = fread(body, 1, sizeof body - 1, f);
    fclose(f);
    if (len > 512000)
        len = 512000;
    body[len] = 0;
    size_t cap = 4096, n = 0, bcap = 1 << 20, bused = 0;
    rsc_pat *p = malloc(cap * sizeof *p);
    uint8_t *buf = malloc(bcap);
    CHECK(p && buf);
    int in_rules = 0;
    size_t i = 0;
    while (i < len) {
        size_t e = i;
        while (e < len && body[e] != '\n' && body[e] != '\r')
            e++;
        char *line = body + i;
        size_t ll = e - i;
        i = e + 1;
        char *hash = memchr(line, '#', ll);
        if (hash)
            ll = (size_t)(hash - line);
        while (ll && (*line == ' ' || *line == '\t')) {
            line++;
            ll--;
        }
        char *colon = memchr(line, ':', ll);
        if (!colon)
            continue;
        int ua = key_is(line, ll, "user-agent");
        int rule = key_is(line, ll, "allow") || key_is(line, ll, "disallow");
        if (ua && in_rules) {
            measure(path, p, n); /* a new group starts */
            n = 0;
            bused = 0;
            in_rules = 0;
        }
        if (!rule)
            continue;
        in_rules = 1;
        char *v = colon + 1;
        size_t vl = ll - (size_t)(v - line);
        while (vl && (*v == ' ' || *v == '\t')) {
            v++;
            vl--;
        }
        while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
            vl--;
        if (!vl || n == cap || bused + 3 * vl + 1 > bcap)
            continue;
        uint8_t *o = buf + bused;
        size_t k = 0;
        static const char hx[] = "0123456789ABCDEF";
        for (size_t j = 0; j < vl; j++) {
            uint8_t c = (uint8_t)v[j];
            if (c >= 0x80) {
                o[k++] = '%';
                o[k++] = (uint8_t)hx[c >> 4];
                o[k++] = (uint8_t)hx[c & 15];
            } else {
                o[k++] = c;
            }
        }
        int anch = k > 0 && o[k - 1] == '$';
        p[n].bytes = o;
        p[n].len = k - (size_t)anch;
        p[n].anchored = (uint8_t)anch;
        p[n].rank = (uint32_t)n + 1;
        bused += k;
        n++;
    }
    measure(path, p, n);
    free(p);
    free(buf);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: dfa_corpus <dir>...\n");
        return 2;
    }
    unsigned long files = 0;
    for (int a = 1; a < argc; a++) {
        DIR *d = opendir(argv[a]);
        if (!d) {
            printf("corpus directory %s absent: nothing measured\n", argv[a]);
            return 77;
        }
        struct dirent *e;
        static char path[4096];
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            scan_file(path);
            files++;
        }
        closedir(d);
    }
    printf("files %lu, rule sets %lu, patterns %lu\n", files, S.sets, S.pats);
    const char *vn[4] = {"(a)+(b) [default]", "no (a)", "no (b)", "neither"};
    for (int v = 0; v < 4; v++)
        printf("%-18s subset states %llu, sets over %u states: %lu (%.3f%%), over 2^25 thread steps "
               "first: %lu, %.2f s CPU\n", vn[v], S.states[v], LIMIT_STATES, S.over[v],
               100.0 * S.over[v] / (S.sets ? S.sets : 1), S.overwork[v], S.t[v]);
    printf("minimised states (default), sets by size: ");
    for (int b = 0; b < 8; b++)
        printf("<1e%d: %lu  ", b + 1, S.states_hist[b]);
    printf("\nlargest: %u states (%s)\n", S.max_states, S.max_name);
    printf("rsc_dfa_build_set (default budget): %lu DFAs, %lu sets split, %.2f s CPU\n", S.dfas, S.multi,
           S.tset);
    return 0;
}
