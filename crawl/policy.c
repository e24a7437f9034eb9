/* SPDX-License-Identifier: Apache-2.0 */
/* Status policy and cache lifetimes (spec I; RFC 9309 2.3.1, 2.4; Google's
 * "Handling of errors and HTTP status codes" and "Caching"). */
#include <string.h>

#include "robotsc/crawl.h"

static const char allow_all[] = RSC_ALLOW_ALL_TEXT;
static const char disallow_all[] = RSC_DISALLOW_ALL_TEXT;

const char *rsc_policy_name(int policy)
{
    switch (policy) {
    case RSC_POLICY_PARSE: return "parse";
    case RSC_POLICY_ALLOW_ALL: return "allow-all";
    case RSC_POLICY_DISALLOW_ALL: return "disallow-all";
    default: return "?";
    }
}

static void set(rsc_policy_result *r, rsc_policy p, int definite, const char *reason)
{
    r->policy = p;
    r->definite = definite;
    r->reason = reason;
    if (p == RSC_POLICY_ALLOW_ALL) {
        r->body = allow_all;
        r->body_len = sizeof allow_all - 1;
    } else if (p == RSC_POLICY_DISALLOW_ALL) {
        r->body = disallow_all;
        r->body_len = sizeof disallow_all - 1;
    }
}

void rsc_status_policy(const rsc_fetch_outcome *o, rsc_policy_result *r)
{
    memset(r, 0, sizeof *r);
    if (!o) {
        set(r, RSC_POLICY_DISALLOW_ALL, 0, "no outcome: treated as a server error, disallow all");
        return;
    }
    int s = o->status;
    switch (o->error) {
    case RSC_FETCH_OK:
        break;
    case RSC_FETCH_E_REDIRECTS:
        set(r, RSC_POLICY_ALLOW_ALL, 1, "too many redirects: treated as 404, no restrictions");
        return;
    case RSC_FETCH_E_TIMEOUT:
        set(r, RSC_POLICY_DISALLOW_ALL, 0, "timeout: treated as 5xx, disallow all");
        return;
    default:
        set(r, RSC_POLICY_DISALLOW_ALL, 0, "network error: treated as 5xx, disallow all");
        return;
    }
    if (s >= 200 && s <= 299) {
        r->policy = RSC_POLICY_PARSE;
        r->definite = 1;
        r->body = o->body_len ? o->body : "";
        r->body_len = o->body_len;
        r->reason = "2xx: parse the body";
    } else if (s >= 300 && s <= 399) {
        /* A final 3xx means the redirect was not (or could not be)
         * followed: spec I treats the end of a redirect chain as 404. */
        set(r, RSC_POLICY_ALLOW_ALL, 1, "3xx not followed: treated as 404, no restrictions");
    } else if (s == 429) {
        set(r, RSC_POLICY_DISALLOW_ALL, 0, "429: treated as 5xx, disallow all");
    } else if (s >= 400 && s <= 499) {
        set(r, RSC_POLICY_ALLOW_ALL, 1, "4xx: no restrictions");
    } else if (s >= 500 && s <= 599) {
        set(r, RSC_POLICY_DISALLOW_ALL, 0, "5xx: disallow all");
    } else {
        set(r, RSC_POLICY_DISALLOW_ALL, 0, "no usable status: treated as 5xx, disallow all");
    }
}

/* ---- Cache lifetimes ---- */

typedef struct limits {
    int64_t def, min, max, retry, unreachable, copy_max;
} limits;

static limits get_limits(const rsc_cache_options *opt)
{
    limits l = {RSC_DAY, 60, 30 * (int64_t)RSC_DAY, 15 * 60, 30 * (int64_t)RSC_DAY, 0};
    if (opt) {
        if (opt->default_ttl > 0)
            l.def = opt->default_ttl;
        if (opt->min_ttl > 0)
            l.min = opt->min_ttl;
        if (opt->max_ttl > 0)
            l.max = opt->max_ttl;
        if (opt->retry_ttl > 0)
            l.retry = opt->retry_ttl;
        if (opt->unreachable > 0)
            l.unreachable = opt->unreachable;
        if (opt->copy_max > 0)
            l.copy_max = opt->copy_max;
    }
    if (l.max < l.min)
        l.max = l.min;
    return l;
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int is_ows(char c)
{
    return c == ' ' || c == '\t';
}

int64_t rsc_cache_ttl(const char *cc, size_t len, const rsc_cache_options *opt)
{
    limits l = get_limits(opt);
    int no_cache = 0, have_age = 0;
    int64_t age = 0;
    if (!cc)
        len = 0;
    /* Cache-Control = #( token [ "=" ( token / quoted-string ) ] ), RFC 9111
     * 5.2. Directive names are case-insensitive. */
    size_t i = 0;
    while (i < len) {
        while (i < len && (is_ows(cc[i]) || cc[i] == ','))
            i++;
        size_t nb = i;
        while (i < len && cc[i] != '=' && cc[i] != ',' && !is_ows(cc[i]))
            i++;
        size_t ne = i;
        while (i < len && is_ows(cc[i]))
            i++;
        size_t vb = i, ve = i;
        if (i < len && cc[i] == '=') {
            i++;
            while (i < len && is_ows(cc[i]))
                i++;
            vb = i;
            if (i < len && cc[i] == '"') {
                vb = ++i;
                while (i < len && cc[i] != '"')
                    i++;
                ve = i;
                if (i < len)
                    i++;
            } else {
                while (i < len && cc[i] != ',' && !is_ows(cc[i]))
                    i++;
                ve = i;
            }
        }
        while (i < len && cc[i] != ',') /* skip junk up to the next directive */
            i++;
        char name[16];
        size_t n = ne - nb;
        if (n == 0 || n >= sizeof name)
            continue;
        for (size_t j = 0; j < n; j++)
            name[j] = (char)lower((unsigned char)cc[nb + j]);
        name[n] = 0;
        if (strcmp(name, "no-store") == 0 || strcmp(name, "no-cache") == 0) {
            no_cache = 1;
        } else if (strcmp(name, "max-age") == 0 && !have_age && ve > vb) {
            /* The first valid max-age counts (RFC 9111 4.2.1). Values too
             * large to represent count as 2^31 (RFC 9111 1.2.2). */
            int64_t v = 0;
            size_t j;
            for (j = vb; j < ve && cc[j] >= '0' && cc[j] <= '9'; j++)
                if (v < 2147483648LL)
                    v = v * 10 + (cc[j] - '0');
            if (j == ve) {
                have_age = 1;
                age = v > 2147483648LL ? 2147483648LL : v;
            }
        }
    }
    int64_t ttl = no_cache ? 0 : have_age ? age : l.def;
    if (ttl < l.min)
        ttl = l.min;
    if (ttl > l.max)
        ttl = l.max;
    return ttl;
}

int rsc_cache_fresh(const rsc_cache_state *st, int64_t now)
{
    return st && st->fetched_at != 0 && now < st->expires;
}

void rsc_cache_decide(const rsc_cache_state *prev, const rsc_fetch_outcome *o, const char *cc, size_t cc_len,
                      int64_t now, const rsc_cache_options *opt, rsc_cache_decision *d)
{
    limits l = get_limits(opt);
    rsc_policy_result r;
    rsc_status_policy(o, &r);
    memset(d, 0, sizeof *d);
    if (r.definite) {
        d->policy = r.policy;
        d->body = r.body;
        d->body_len = r.body_len;
        d->reason = r.reason;
        d->next.fetched_at = now;
        d->next.expires = now + rsc_cache_ttl(cc, cc_len, opt);
        d->next.has_copy = 1;
        d->next.policy = (uint8_t)r.policy;
        return;
    }
    /* An error: how long has the origin been failing? */
    int64_t since = prev && prev->error_since ? prev->error_since : now;
    int64_t down = now - since;
    int copy = prev && prev->has_copy && (l.copy_max == 0 || down <= l.copy_max);
    if (copy) {
        d->keep = 1;
        d->policy = (rsc_policy)prev->policy;
        d->reason = "error: keeping the last good copy";
        d->next = *prev;
    } else if (down > l.unreachable) {
        /* Unreachable for more than 30 days and no copy: no restrictions. */
        d->policy = RSC_POLICY_ALLOW_ALL;
        d->body = allow_all;
        d->body_len = sizeof allow_all - 1;
        d->reason = "unreachable for more than 30 days, no cached copy: no restrictions";
        d->next.fetched_at = now;
        d->next.policy = RSC_POLICY_ALLOW_ALL;
    } else {
        d->policy = r.policy;
        d->body = r.body;
        d->body_len = r.body_len;
        d->reason = r.reason;
        d->next.fetched_at = now;
        d->next.policy = (uint8_t)r.policy;
    }
    d->next.error_since = since;
    d->next.expires = now + l.retry;
}
