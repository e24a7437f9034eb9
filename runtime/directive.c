/* SPDX-License-Identifier: Apache-2.0 */
/* Group directives as values: crawl-delay and request-rate of the groups
 * that apply to a selection (rsc_group_directive() finds the text). Parsed
 * by hand: the runtime calls no libc number parsing (docs/ARCHITECTURE.md). */
#include <stddef.h>
#include <stdint.h>

#include "robotsc/runtime.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_space(char c)
{
    return c == ' ' || c == '\t';
}

/* Reads digits at s[*i..n) into *v (leading zeros free, at most max_digits
 * significant ones; more are skipped when skip_extra, else a failure).
 * Returns the number of digits read, or -1 on overflow. */
static int digits(const char *s, size_t n, size_t *i, int max_digits, int skip_extra, int64_t *v,
                  int *sig)
{
    int count = 0;
    *v = 0;
    *sig = 0;
    for (; *i < n && is_digit(s[*i]); (*i)++, count++) {
        if (*sig == 0 && s[*i] == '0' && !skip_extra)
            continue;
        if (*sig == max_digits) {
            if (!skip_extra)
                return -1;
            continue;
        }
        *v = *v * 10 + (s[*i] - '0');
        (*sig)++;
    }
    return count;
}

static void skip_spaces(const char *s, size_t n, size_t *i)
{
    while (*i < n && is_space(s[*i]))
        (*i)++;
}

static int parse_seconds(const char *s, size_t n, double *out)
{
    size_t i = 0;
    int64_t ip, fp;
    int isig, fsig;
    skip_spaces(s, n, &i);
    int nd = digits(s, n, &i, 15, 0, &ip, &isig);
    if (nd < 0)
        return 0;
    int nf = 0;
    fp = 0;
    fsig = 0;
    if (i < n && s[i] == '.') {
        i++;
        nf = digits(s, n, &i, 18, 1, &fp, &fsig);
    }
    if (nd + nf == 0)
        return 0;
    skip_spaces(s, n, &i);
    if (i != n)
        return 0;
    double scale = 1;
    for (int k = 0; k < fsig; k++)
        scale *= 10;
    *out = (double)ip + (double)fp / scale;
    return 1;
}

int rsc_crawl_delay(const rsc_selection *sel, double *seconds)
{
    rsc_bytes v;
    double d;
    if (!seconds || !rsc_group_directive(sel, "crawl-delay", &v, NULL) ||
        !parse_seconds(v.ptr, v.len, &d))
        return 0;
    *seconds = d;
    return 1;
}

/* A positive integer up to UINT32_MAX at s[*i..n). */
static int count(const char *s, size_t n, size_t *i, int64_t *v)
{
    int sig;
    int nd = digits(s, n, i, 10, 0, v, &sig);
    return nd > 0 && *v >= 1 && *v <= (int64_t)UINT32_MAX;
}

int rsc_request_rate(const rsc_selection *sel, uint32_t *requests, double *seconds)
{
    rsc_bytes v;
    if (!requests || !seconds || !rsc_group_directive(sel, "request-rate", &v, NULL))
        return 0;
    const char *s = v.ptr;
    size_t n = v.len, i = 0;
    int64_t req, per, unit = 1;
    skip_spaces(s, n, &i);
    if (!count(s, n, &i, &req))
        return 0;
    skip_spaces(s, n, &i);
    if (i == n || s[i++] != '/')
        return 0;
    skip_spaces(s, n, &i);
    if (!count(s, n, &i, &per))
        return 0;
    if (i < n) {
        switch (s[i] | 0x20) {
        case 's': unit = 1; i++; break;
        case 'm': unit = 60; i++; break;
        case 'h': unit = 3600; i++; break;
        case 'd': unit = 86400; i++; break;
        default: break;
        }
    }
    size_t before = i;
    skip_spaces(s, n, &i);
    /* An optional visit-time window "HHMM-HHMM" after whitespace. */
    if (i < n && i > before) {
        static const char shape[] = "dddd-dddd";
        for (size_t k = 0; k < sizeof shape - 1; k++, i++)
            if (i >= n || (shape[k] == 'd' ? !is_digit(s[i]) : s[i] != '-'))
                return 0;
        skip_spaces(s, n, &i);
    }
    if (i != n)
        return 0;
    *requests = (uint32_t)req;
    *seconds = (double)(per * unit);
    return 1;
}
