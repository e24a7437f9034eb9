/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc fetch: fetch the robots.txt that governs a URL, map the outcome
 * through the status policy and cache rules (spec I, docs/CRAWLER.md),
 * compile it, write the blob and OUT.meta, and optionally check URLs. */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "fetch_opts.h"
#include "robotsc/compiler.h"
#include "robotsc/crawl.h"
#include "robotsc/runtime.h"

#define CMD "fetch"
#define MAX_KV 40

/* OUT.meta: "key=value" lines. Kept as read so that a kept copy's record
 * is rewritten with only the attempt fields changed. */
typedef struct meta {
    char *key[MAX_KV], *val[MAX_KV];
    int n;
} meta;

static void meta_free(meta *m)
{
    for (int i = 0; i < m->n; i++) {
        free(m->key[i]);
        free(m->val[i]);
    }
    m->n = 0;
}

static const char *meta_get(const meta *m, const char *k)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->key[i], k) == 0)
            return m->val[i];
    return NULL;
}

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* Sets k (replacing its value); values are cut at a line end. */
static int meta_set(meta *m, const char *k, const char *v)
{
    size_t vn = strcspn(v, "\r\n");
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->key[i], k) == 0) {
            char *nv = dupn(v, vn);
            if (!nv)
                return -1;
            free(m->val[i]);
            m->val[i] = nv;
            return 0;
        }
    if (m->n == MAX_KV)
        return -1;
    m->key[m->n] = dupn(k, strlen(k));
    m->val[m->n] = dupn(v, vn);
    if (!m->key[m->n] || !m->val[m->n]) {
        free(m->key[m->n]);
        free(m->val[m->n]);
        return -1;
    }
    m->n++;
    return 0;
}

static int meta_seti(meta *m, const char *k, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    return meta_set(m, k, buf);
}

static void meta_read(const char *path, meta *m)
{
    size_t len;
    unsigned char *t = rsc_cli_read(path, &len);
    if (!t)
        return;
    size_t i = 0;
    while (i < len) {
        size_t e = i;
        while (e < len && t[e] != '\n')
            e++;
        const unsigned char *eq = memchr(t + i, '=', e - i);
        if (eq) {
            char *k = dupn((const char *)t + i, (size_t)(eq - t) - i);
            char *v = dupn((const char *)eq + 1, e - (size_t)(eq - t) - 1);
            if (k && v)
                meta_set(m, k, v);
            free(k);
            free(v);
        }
        i = e + 1;
    }
    free(t);
}

/* A temporary file, fsync and rename(): a reader never sees half a blob. */
static int write_atomic(const char *path, const void *data, size_t len)
{
    return rsc_cli_write_atomic(path, data, len);
}

static int meta_write(const char *path, const meta *m)
{
    size_t cap = 256, n = 0;
    for (int i = 0; i < m->n; i++)
        cap += strlen(m->key[i]) + strlen(m->val[i]) + 2;
    char *buf = malloc(cap);
    if (!buf)
        return -1;
    for (int i = 0; i < m->n; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s=%s\n", m->key[i], m->val[i]);
    int r = write_atomic(path, buf, n);
    free(buf);
    return r;
}

static int64_t to_i64(const char *s)
{
    return s ? (int64_t)strtoll(s, NULL, 10) : 0;
}

static int policy_from_name(const char *s)
{
    for (int p = RSC_POLICY_PARSE; p <= RSC_POLICY_DISALLOW_ALL; p++)
        if (s && strcmp(s, rsc_policy_name(p)) == 0)
            return p;
    return -1;
}

static void print_time(const char *label, int64_t t, int64_t now)
{
    time_t tt = (time_t)t;
    struct tm tm;
    char buf[64] = "?";
    if (gmtime_r(&tt, &tm))
        strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    printf("%s: %s (%" PRId64 ", in %" PRId64 " s)\n", label, buf, t, t - now);
}

static void on_diag(void *ud, const rsc_diagnostic *d)
{
    (void)ud;
    if (d->warning == RSC_W_NOT_ROBOTS_HTML || d->warning == RSC_W_NOT_ROBOTS_BINARY ||
        d->warning == RSC_W_BODY_TOO_LARGE)
        fprintf(stderr, "robotsc fetch: warning: %s\n", rsc_warning_message(d->warning));
}

static const char usage_text[] =
    "usage: robotsc fetch URL [-o OUT.rbc] [--profile google|rfc] [--user-agent UA]\n"
    "                     [--timeout SECONDS] [--now T] [--text] [--agent A ...] [--check URL ...]\n"
    "       robotsc fetch --store DB URL...   (many origins into a store: fetch --store --help)\n"
    "Fetches the robots.txt that governs URL (an unconditional GET; up to 5 redirects,\n"
    "more count as 404; 500 KiB read at most), applies the status policy (2xx: the body;\n"
    "4xx but 429: allow all; 429, 5xx, network errors: disallow all) and compiles.\n"
    "-o writes the blob and OUT.rbc.meta (origin, robots_url, final_url, status, policy,\n"
    "fetched_at, expires, ...). When OUT.rbc already holds a good copy of the same origin\n"
    "and the fetch fails, the copy is kept (docs/CRAWLER.md). A regular OUT is replaced\n"
    "in one step (temporary file, rename); a symbolic link is followed (the link stays);\n"
    "a FIFO or a character device is written through, with no .meta record (nor for\n"
    "'-', standard output); any other OUT is refused.\n"
    "A body that is a robotsc blob, or (without --text) looks binary or like a damaged\n"
    "blob, is an error (exit 2, nothing written).\n"
    "--check URL... prints 'allow' or 'disallow', a tab and the URL for each URL, for the\n"
    "--agent names (default: the product token of the User-Agent).\n"
    "--timeout: whole transfer, default 30. --now T: pretend the time is T (Unix seconds).\n"
    "Exit 0 when a blob was produced (a 503 gives a disallow-all blob), 2 when not.";

int rsc_cmd_fetch(int argc, char **argv)
{
#ifdef RSC_HAVE_STORE
    /* --store DB: many origins into a store (cli/store_fetch.c). */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--store") == 0 || strncmp(argv[i], "--store=", 8) == 0)
            return rsc_store_fetch(argc, argv);
#endif
    const char *url = NULL, *out = NULL, *val;
    rsc_fetch_cli fc;
    rsc_fetch_cli_init(&fc);
    rsc_bytes agents[64];
    size_t n_agents = 0;
    int n_checks = 0, in_checks = 0;
    char **checks = calloc((size_t)argc + 1, sizeof *checks);
    if (!checks)
        return rsc_cli_fail(CMD, "out of memory");
    int rc = 2;
    for (int i = 1; i < argc; i++) {
        int r;
        if (rsc_cli_is_help(argv[i])) {
            puts(usage_text);
            free(checks);
            return 0;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "-o", &val)) != 0) {
            if (r < 0)
                goto missing;
            out = val;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--agent", &val)) != 0) {
            if (r < 0)
                goto missing;
            if (n_agents == sizeof agents / sizeof agents[0]) {
                rsc_cli_fail(CMD, "too many agents");
                goto done;
            }
            if (rsc_cli_agent(CMD, val, &agents[n_agents++]) != 0)
                goto done;
        } else if ((r = rsc_cli_opt(argc, argv, &i, "--check", &val)) != 0) {
            if (r < 0)
                goto missing;
            checks[n_checks++] = (char *)val;
            in_checks = 1;
        } else if ((r = rsc_fetch_cli_opt(argc, argv, &i, &fc)) != 0) {
            if (r != 1)
                goto done;
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            rsc_cli_fail(CMD, "unknown option '%s'", argv[i]);
            goto done;
        } else if (in_checks || url) {
            checks[n_checks++] = argv[i];
            in_checks = 1;
        } else {
            url = argv[i];
        }
        continue;
    missing:
        rsc_cli_fail(CMD, "%s needs a value", argv[i]);
        goto done;
    }
    if (!url) {
        rsc_cli_fail(CMD, "usage: robotsc fetch URL [-o OUT.rbc] [--agent A --check URL ...]");
        goto done;
    }

    /* Declared before the first jump to `end` so that every cleanup below
     * sees initialised state. */
    rsc_origin o;
    meta prev = {{0}, {0}, 0}, next = {{0}, {0}, 0};
    rsc_fetch_result fr;
    rsc_blob blob = {NULL, 0};
    unsigned char *old_blob = NULL;
    size_t old_len = 0;
    char *meta_path = NULL;
    memset(&fr, 0, sizeof fr);
    rsc_compile_options co = {0};
    co.profile = fc.profile;
    co.diag = on_diag;

    rsc_url_status us = rsc_origin_parse(url, strlen(url), &o);
    if (us != RSC_URL_OK) {
        rsc_cli_fail(CMD, "%s: %s", url, rsc_url_strerror(us));
        goto end;
    }

    /* What is stored already: a copy is only reused when it is a blob of
     * the same origin that still loads. */
    rsc_cache_state prev_st, *prevp = NULL;
    memset(&prev_st, 0, sizeof prev_st);
    /* OUT.rbc.meta sits beside a file only: '-', a FIFO or a device
     * (/dev/null) gets the blob and no record (never /dev/null.meta). */
    struct stat out_st;
    int sidecar = out && strcmp(out, "-") != 0 && !(stat(out, &out_st) == 0 && !S_ISREG(out_st.st_mode));
    if (sidecar) {
        size_t n = strlen(out);
        meta_path = malloc(n + 6);
        if (!meta_path) {
            rsc_cli_fail(CMD, "out of memory");
            goto end;
        }
        memcpy(meta_path, out, n);
        memcpy(meta_path + n, ".meta", 6);
        meta_read(meta_path, &prev);
        const char *po = meta_get(&prev, "origin");
        rsc_program p;
        if (po && strcmp(po, o.key) == 0 && (old_blob = rsc_cli_read(out, &old_len)) != NULL &&
            rsc_load(&p, old_blob, old_len, NULL) == RSC_OK && policy_from_name(meta_get(&prev, "policy")) >= 0) {
            prev_st.fetched_at = to_i64(meta_get(&prev, "fetched_at"));
            prev_st.expires = to_i64(meta_get(&prev, "expires"));
            prev_st.error_since = to_i64(meta_get(&prev, "error_since"));
            prev_st.has_copy = to_i64(meta_get(&prev, "has_copy")) == 1;
            prev_st.policy = (uint8_t)policy_from_name(meta_get(&prev, "policy"));
            prevp = &prev_st;
        } else {
            meta_free(&prev);
        }
    }

    const rsc_fetch_options fo = rsc_fetch_cli_options(&fc);
    rsc_status st = rsc_crawl_global_init();
    if (st == RSC_OK) {
        st = rsc_fetch(o.robots_url, &fo, &fr);
        rsc_crawl_global_cleanup();
    }
    if (st != RSC_OK) {
        rsc_cli_fail(CMD, "cannot fetch %s: %s", o.robots_url, rsc_strerror(st));
        goto end;
    }
    const char *cc = fr.cache_control;
    rsc_cache_decision d;
    rsc_cache_decide(prevp, &fr.outcome, cc, cc ? strlen(cc) : 0, fc.now, NULL, &d);

    /* The outcome and the policy applied. */
    char attempt[400];
    switch (fr.outcome.error) {
    case RSC_FETCH_OK:
        snprintf(attempt, sizeof attempt, "HTTP %d", fr.outcome.status);
        break;
    case RSC_FETCH_E_REDIRECTS:
        snprintf(attempt, sizeof attempt, "too many redirects (HTTP %d after %ld)", fr.outcome.status, fr.redirects);
        break;
    case RSC_FETCH_E_TIMEOUT:
        snprintf(attempt, sizeof attempt, "timeout: %s", fr.error_text);
        break;
    default:
        snprintf(attempt, sizeof attempt, "network error: %s", fr.error_text);
        break;
    }
    printf("origin: %s\nrobots_url: %s\nfinal_url: %s\n", o.key, o.robots_url, fr.final_url);
    printf("outcome: %s, %zu bytes%s, %ld redirects\n", attempt, fr.body_len,
           fr.truncated ? " (stopped at the 500 KiB cap)" : "", fr.redirects);
    if (cc)
        printf("cache_control: %s\n", cc);
    printf("policy: %s%s (%s)\n", rsc_policy_name(d.policy), d.keep ? ", kept copy" : "", d.reason);
    print_time("expires", d.next.expires, fc.now);

    const void *bytes;
    size_t bytes_len;
    if (d.keep) {
        bytes = old_blob;
        bytes_len = old_len;
    } else {
        /* rsc_classify()'s rule: a blob or (without --text) binary is an
         * error; nothing is written, OUT and its record stay. */
        if (d.policy == RSC_POLICY_PARSE && rsc_fetch_cli_body(o.robots_url, d.body, d.body_len, fc.text))
            goto end;
        st = rsc_compile(d.body, d.body_len, &co, &blob);
        if (st != RSC_OK) {
            rsc_cli_fail(CMD, "cannot compile %s: %s", o.robots_url, rsc_strerror(st));
            goto end;
        }
        bytes = blob.data;
        bytes_len = blob.size;
    }

    if (out) {
        if (!d.keep) {
            if (write_atomic(out, blob.data, blob.size) != 0) {
                rsc_cli_fail(CMD, "%s: %s", out, rsc_cli_write_error(errno));
                goto end;
            }
            /* The record describes the blob just written. */
            int bad = meta_set(&next, "origin", o.key) || meta_set(&next, "robots_url", o.robots_url) ||
                      meta_set(&next, "final_url", fr.final_url) || meta_seti(&next, "status", fr.outcome.status) ||
                      meta_set(&next, "error", fr.outcome.error ? attempt : "") ||
                      meta_set(&next, "policy", rsc_policy_name(d.policy)) || meta_set(&next, "reason", d.reason) ||
                      meta_seti(&next, "bytes", (int64_t)fr.body_len) ||
                      meta_seti(&next, "truncated", fr.truncated) || meta_seti(&next, "redirects", fr.redirects) ||
                      meta_set(&next, "cache_control", cc ? cc : "") ||
                      meta_set(&next, "profile", fc.profile == RSC_PROFILE_RFC ? "rfc" : "google") ||
                      meta_seti(&next, "has_copy", d.next.has_copy) ||
                      meta_seti(&next, "fetched_at", d.next.fetched_at);
            if (bad) {
                rsc_cli_fail(CMD, "out of memory");
                goto end;
            }
        } else {
            next = prev; /* the kept copy's record, attempt fields updated */
            prev.n = 0;
        }
        int bad = meta_seti(&next, "expires", d.next.expires) ||
                  meta_seti(&next, "error_since", d.next.error_since) || meta_seti(&next, "attempted_at", fc.now) ||
                  meta_set(&next, "attempt", attempt);
        if (sidecar && (bad || meta_write(meta_path, &next) != 0)) {
            rsc_cli_fail(CMD, "%s: cannot write", meta_path);
            goto end;
        }
    }

    rsc_program prog;
    rsc_load_error le = {0, NULL};
    st = rsc_load(&prog, bytes, bytes_len, &le);
    if (st != RSC_OK) {
        rsc_cli_fail(CMD, "invalid blob: %s at byte %zu", rsc_strerror(st), le.offset);
        goto end;
    }
    if (n_checks) {
        if (n_agents == 0) { /* the product token of the User-Agent (spec F.2) */
            int changed;
            if (rsc_agent_token(fc.user_agent, strlen(fc.user_agent), &agents[0], &changed) != RSC_OK) {
                rsc_cli_fail(CMD, "the User-Agent has no product token: give --agent");
                goto end;
            }
            n_agents = 1;
        }
        rsc_selection sel;
        st = rsc_select(&prog, agents, n_agents, &sel);
        if (st != RSC_OK) {
            rsc_cli_fail(CMD, "cannot select agents: %s", rsc_strerror(st));
            goto end;
        }
        for (int i = 0; i < n_checks; i++) {
            rsc_origin co2;
            size_t n = strlen(checks[i]);
            if (rsc_origin_parse(checks[i], n, &co2) == RSC_URL_OK && strcmp(co2.key, o.key) != 0)
                fprintf(stderr, "robotsc fetch: warning: %s is governed by %s, not this robots.txt\n", checks[i],
                        co2.robots_url);
            int allowed = rsc_match_url(&sel, checks[i], n, NULL);
            printf("%s\t%s\n", allowed ? "allow" : "disallow", checks[i]);
        }
    }
    rc = fflush(stdout) == 0 ? 0 : rsc_cli_fail(CMD, "cannot write output");

end:
    meta_free(&prev);
    meta_free(&next);
    rsc_fetch_result_free(&fr);
    rsc_blob_free(&blob, &co);
    free(old_blob);
    free(meta_path);
done:
    free(checks);
    return rc;
}
