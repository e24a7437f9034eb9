/* SPDX-License-Identifier: Apache-2.0 */
/* Small helpers shared by the commands. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fsync, fchmod, fileno, lstat, readlink, strdup */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "robotsc/runtime.h"

unsigned char *rsc_cli_read(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return NULL;
    /* fopen() opens a directory; reading it fails with a vague EIO. */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        if (f != stdin)
            fclose(f);
        errno = EISDIR;
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    errno = 0;
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *nb = cap > ((size_t)1 << 40) ? NULL : realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            errno = ENOMEM;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int err = ferror(f) ? (errno ? errno : EIO) : 0;
    if (f != stdin)
        fclose(f);
    if (buf && err) {
        free(buf);
        errno = err;
        return NULL;
    }
    *len = n;
    return buf;
}

/* Writes "robotsc CMD: " and the formatted message to stderr, every byte
 * outside printable ASCII as \xHH: paths, URLs and agent names given by
 * the user or read from files never reach a terminal raw. */
static void vmessage(const char *cmd, const char *kind, const char *fmt, va_list ap)
{
    char buf[2048];
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
    fprintf(stderr, "robotsc %s: %s", cmd, kind);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c >= 0x20 && c < 0x7f)
            putc(c, stderr);
        else
            fprintf(stderr, "\\x%02x", c);
    }
    if ((size_t)n >= sizeof buf)
        fputs("...", stderr);
    fputc('\n', stderr);
}

int rsc_cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(cmd, "", fmt, ap);
    va_end(ap);
    return 2;
}

void rsc_cli_warn(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(cmd, "warning: ", fmt, ap);
    va_end(ap);
}

int rsc_cli_opt(int argc, char **argv, int *i, const char *name, const char **val)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return 0;
    if (argv[*i][n] == '=') {
        *val = argv[*i] + n + 1;
        return 1;
    }
    if (argv[*i][n] != 0)
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *val = argv[++*i];
    return 1;
}

int rsc_cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

/* Writes all of data to fd; -1 with errno on failure. */
static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Writes data through to an existing FIFO or character device (a pipe to
 * a reader, /dev/null, /dev/stdout, a terminal): such a target is no file
 * to replace, and renaming over it would put a regular file in its place
 * (as root, over a device node the whole machine uses). trunc: a regular
 * file reached through /dev or /proc (/dev/stdout redirected to a file),
 * written as the shell's redirection would. */
static int write_through(const char *path, const void *data, size_t len, int trunc)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (trunc ? O_TRUNC : 0));
    if (fd < 0)
        return -1;
    int r = write_all(fd, data, len), e = errno;
    if (close(fd) != 0 && r == 0) {
        r = -1;
        e = errno;
    }
    errno = e;
    return r;
}

/* path with its symbolic links followed to the name that holds the data,
 * malloc'ed: the link's own target when it dangles (writing creates it),
 * so the link survives and the file it names is replaced. NULL with errno
 * (ELOOP past 40 links, as the kernel counts). */
static char *follow_links(const char *path)
{
    char *p = strdup(path);
    for (int hops = 0; p; hops++) {
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
            return p; /* missing (created there) or not a link */
        if (hops == 40) {
            free(p);
            errno = ELOOP;
            return NULL;
        }
        size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
        char *t = malloc(cap);
        ssize_t n = t ? readlink(p, t, cap) : -1;
        if (n < 0 || (size_t)n >= cap) {
            int e = n < 0 ? errno : ENAMETOOLONG; /* the link changed under us */
            free(t);
            free(p);
            errno = t ? e : ENOMEM;
            return NULL;
        }
        t[n] = 0;
        const char *slash = strrchr(p, '/');
        if (t[0] == '/' || !slash) { /* absolute, or relative to the current directory */
            free(p);
            p = t;
            continue;
        }
        size_t dir = (size_t)(slash - p) + 1; /* relative to the link's directory */
        char *q = malloc(dir + (size_t)n + 1);
        if (q) {
            memcpy(q, p, dir);
            memcpy(q + dir, t, (size_t)n + 1);
        }
        free(t);
        free(p);
        p = q;
    }
    errno = ENOMEM;
    return NULL;
}

/* A new regular file: a temporary file beside path, fsync'ed, renamed over
 * it (path is a regular file or missing, its links already followed). */
static int replace_file(const char *path, const void *data, size_t len)
{
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0, n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp)
        return -1;
    /* DIR/.NAME.XXXXXX: the same file system as the target, so rename()
     * replaces it in one step. */
    memcpy(tmp, path, dir);
    tmp[dir] = '.';
    memcpy(tmp + dir + 1, path + dir, n - dir);
    memcpy(tmp + n + 1, ".XXXXXX", 8);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        errno = e;
        return -1;
    }
    /* The mode of the file replaced, else what fopen() would give. */
    struct stat old;
    mode_t mask = umask(0);
    umask(mask);
    mode_t mode = stat(path, &old) == 0 && S_ISREG(old.st_mode) ? old.st_mode & 07777 : 0666 & ~mask;
    int r = fchmod(fd, mode);
    if (r == 0)
        r = write_all(fd, data, len);
    if (r == 0)
        r = fsync(fd);
    int e = errno;
    if (close(fd) != 0 && r == 0) {
        r = -1;
        e = errno;
    }
    if (r == 0 && rename(tmp, path) != 0) {
        r = -1;
        e = errno;
    }
    if (r != 0)
        unlink(tmp);
    free(tmp);
    if (r == 0 && dir > 0) { /* the rename itself, on disk (best effort) */
        char *d = malloc(dir + 1);
        if (d) {
            memcpy(d, path, dir);
            d[dir] = 0;
            int dfd = open(d, O_RDONLY);
            if (dfd >= 0) {
                fsync(dfd);
                close(dfd);
            }
            free(d);
        }
    }
    errno = e;
    return r;
}

int rsc_cli_write_atomic(const char *path, const void *data, size_t len)
{
    if (strcmp(path, "-") == 0) {
        int ok = fwrite(data, 1, len, stdout) == len;
        return fflush(stdout) == 0 && ok ? 0 : -1;
    }
    /* Past a file size limit (ulimit -f), write() fails with EFBIG instead
     * of the process being killed half-way. */
    signal(SIGXFSZ, SIG_IGN);
    /* What path names, its links followed by the kernel: /dev/stdout
     * reaches a pipe through /proc's links, which name no file. */
    struct stat st;
    if (stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
        return write_through(path, data, len, 0);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* A directory, a socket, a block device: nothing a blob belongs in. */
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return -1;
    }
    if (strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0)
        return write_through(path, data, len, 1); /* /dev/stdout redirected to a file, /dev/fd/N */
    char *target = follow_links(path);
    if (!target)
        return -1;
    int r = replace_file(target, data, len), e = errno;
    free(target);
    errno = e;
    return r;
}

int rsc_cli_same_file(const char *in, const char *out)
{
    struct stat a, b;
    if (strcmp(out, "-") == 0 || stat(out, &b) != 0 || !S_ISREG(b.st_mode))
        return 0; /* nothing there yet, or written through (a FIFO, a device) */
    if (strcmp(in, "-") == 0 ? fstat(STDIN_FILENO, &a) != 0 : stat(in, &a) != 0)
        return 0;
    return S_ISREG(a.st_mode) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

const char *rsc_cli_write_error(int err)
{
    return err == EINVAL ? "not a regular file, FIFO or character device" : strerror(err);
}

void rsc_cli_escaped(FILE *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\')
            fputs("\\\\", out);
        else if (c >= 0x20 && c < 0x7f)
            putc(c, out);
        else
            fprintf(out, "\\x%02x", c);
    }
}

int rsc_cli_i64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = (int64_t)v;
    return 0;
}

int rsc_cli_timeout(const char *cmd, const char *val, double *out)
{
    char *end;
    double t = strtod(val, &end);
    if (*end || !(t > 0 && t <= 86400))
        return rsc_cli_fail(cmd, "--timeout: a number of seconds in (0, 86400], not '%s'", val);
    *out = t;
    return 0;
}

int rsc_cli_agent(const char *cmd, const char *val, rsc_bytes *out)
{
    out->ptr = val;
    out->len = strlen(val);
    if (out->len == 0)
        rsc_cli_warn(cmd, "agent '' is not a product token: as in Google's library it names only "
                     "user-agent lines without a token ('User-agent: 123'), else the '*' group "
                     "answers");
    else if (!rsc_agent_is_token(val, out->len))
        rsc_cli_warn(cmd, "agent '%s' is not a product token ([A-Za-z_-]+): no user-agent line "
                     "can name it, so it is answered by the '*' group as Google answers it (for "
                     "a User-Agent header, give --user-agent)", val);
    return 0;
}

int rsc_cli_user_agent(const char *cmd, const char *val, rsc_bytes *out)
{
    int changed = 0;
    if (rsc_agent_token(val, strlen(val), out, &changed) != RSC_OK)
        return rsc_cli_fail(cmd, "user agent '%s' has no product token (letters, '_' and '-' "
                            "that a user-agent line can name)", val);
    return 0;
}

int rsc_cli_agent_opt(const char *cmd, int argc, char **argv, int *i, rsc_bytes *agents, size_t *n,
                      size_t max)
{
    const char *val;
    int r, user = 0;
    if ((r = rsc_cli_opt(argc, argv, i, "--agent", &val)) == 0 &&
        (r = rsc_cli_opt(argc, argv, i, "--exact-agent", &val)) == 0) {
        if ((r = rsc_cli_opt(argc, argv, i, "--user-agent", &val)) == 0)
            return 0;
        user = 1;
    }
    if (r < 0)
        return rsc_cli_fail(cmd, "%s needs a value", argv[*i]);
    if (*n == max)
        return rsc_cli_fail(cmd, "too many agents (at most %zu)", max);
    r = user ? rsc_cli_user_agent(cmd, val, &agents[*n]) : rsc_cli_agent(cmd, val, &agents[*n]);
    if (r)
        return r;
    ++*n;
    return -1;
}

int rsc_cli_classify(const char *cmd, const char *path, const unsigned char *data, size_t len, int text)
{
    rsc_input_kind k = rsc_classify(data, len);
    if (k == RSC_INPUT_BLOB)
        return 1;
    if (k == RSC_INPUT_TEXT || text)
        return 0;
    /* UTF-16 is binary to rsc_classify(); compile names it, and so does
     * every command that refuses it. */
    const char *what = k == RSC_INPUT_BINARY && rsc_cli_looks_utf16(data, len)
                           ? "looks like UTF-16 text (a robots.txt is UTF-8)"
                           : rsc_input_kind_what(k);
    return rsc_cli_fail(cmd, "%s: %s, not read as a robots.txt (--text reads it as one)",
                        strcmp(path, "-") == 0 ? "<stdin>" : path, what);
}

int rsc_cli_next_url(char **args, size_t n, size_t *k, char **line, size_t *cap,
                     const char **url, size_t *len)
{
    if (n) {
        if (*k == n)
            return 0;
        *url = args[*k];
        *len = strlen(*url);
        ++*k;
        return 1;
    }
    for (;;) {
        ssize_t got = getline(line, cap, stdin);
        if (got < 0)
            return 0;
        size_t l = (size_t)got;
        while (l && ((*line)[l - 1] == '\n' || (*line)[l - 1] == '\r'))
            l--;
        (*line)[l] = 0;
        if (l) {
            *url = *line, *len = l;
            return 1;
        }
    }
}

/* Length of the valid UTF-8 sequence at p[0..n) (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    unsigned char c = p[0];
    size_t k = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
             : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (k == 0 || k > n)
        return 0;
    for (size_t j = 1; j < k; j++)
        if ((p[j] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) || (c == 0xf0 && p[1] < 0x90) ||
        (c == 0xf4 && p[1] >= 0x90))
        return 0;
    return k;
}

unsigned long rsc_cli_first_non_utf8(const unsigned char *p, size_t n)
{
    unsigned long line = 1;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_len(p + i, n - i);
        if (k == 0)
            return line;
        if (p[i] == '\n' || (p[i] == '\r' && !(i + 1 < n && p[i + 1] == '\n')))
            line++;
        i += k;
    }
    return 0;
}

int rsc_cli_looks_utf16(const unsigned char *p, size_t n)
{
    if (n >= 2 && ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff)))
        return 1;
    size_t m = n < 512 ? n & ~(size_t)1 : 512, zeros[2] = {0, 0};
    for (size_t i = 0; i < m; i++)
        zeros[i & 1] += p[i] == 0;
    return m >= 4 && (zeros[0] * 4 >= m * 3 / 2 || zeros[1] * 4 >= m * 3 / 2) &&
           (zeros[0] == 0 || zeros[1] == 0);
}

void rsc_cli_json_str(FILE *out, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    putc('"', out);
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        size_t k;
        if (c == '"' || c == '\\') {
            fprintf(out, "\\%c", c);
            i++;
        } else if (c >= 0x20 && c < 0x7f) {
            putc(c, out);
            i++;
        } else if (c < 0x80) {
            fprintf(out, "\\u%04x", c); /* control bytes, DEL */
            i++;
        } else if ((k = utf8_len(p + i, n - i)) != 0) {
            fwrite(p + i, 1, k, out); /* UTF-8 as is: a parser gets the characters */
            i += k;
        } else {
            fputs("\\ufffd", out); /* a byte that is not UTF-8: U+FFFD, one per byte */
            i++;
        }
    }
    putc('"', out);
}
