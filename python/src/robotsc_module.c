/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc._robotsc: the CPython binding. It uses the public headers only
 * (include/robotsc/) and holds no copies of private layouts.
 *
 * Ownership: a Robots object holds a buffer export of the blob it was given
 * (zero-copy for immutable bytes) for as long as it lives, because the
 * runtime borrows the blob (runtime.h). Writable bytes are copied: bytes
 * changed after verification could break the runtime's guarantees.
 *
 * Threads: everything runs under the GIL except the loop of allowed_many()
 * and the compilation of immutable bodies; the runtime's program and
 * selection are immutable, so the loop works on private copies. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <stdlib.h>
#include <string.h>

#include "diff.h" /* Robots.diff, Robots.lint */
#include "robotsc/compiler.h"
#include "robotsc/crawl.h"
#include "robotsc/runtime.h"
#ifdef RSC_HAVE_STORE
#include "robotsc/store.h"
#endif

#ifndef ROBOTSC_PY_VERSION
#define ROBOTSC_PY_VERSION "0"
#endif

static PyObject *Error, *BlobError, *CompileError, *URLError, *AgentWarning;
#ifdef RSC_HAVE_STORE
static PyObject *StoreError, *StoreKeyError;
#endif
static PyTypeObject ExplanationType, OriginType, PolicyType, DirectiveType,
    DiagnosticType, RequestRateType;

/* ---- errors ------------------------------------------------------------ */

/* Raises type(msg) with .status, .status_name, .offset (None when
 * negative) and .reason attributes. Returns NULL. */
static PyObject *raise_status(PyObject *type, const char *msg, int status,
                              const char *status_name, Py_ssize_t offset,
                              const char *reason)
{
    PyObject *exc = PyObject_CallFunction(type, "s", msg);
    if (!exc)
        return NULL;
    PyObject *st = PyLong_FromLong(status);
    PyObject *name = PyUnicode_FromString(status_name ? status_name : "");
    PyObject *off = offset >= 0 ? PyLong_FromSsize_t(offset) : Py_NewRef(Py_None);
    PyObject *why = reason ? PyUnicode_FromString(reason) : Py_NewRef(Py_None);
    int bad = !st || !name || !off || !why ||
              PyObject_SetAttrString(exc, "status", st) < 0 ||
              PyObject_SetAttrString(exc, "status_name", name) < 0 ||
              PyObject_SetAttrString(exc, "offset", off) < 0 ||
              PyObject_SetAttrString(exc, "reason", why) < 0;
    Py_XDECREF(st);
    Py_XDECREF(name);
    Py_XDECREF(off);
    Py_XDECREF(why);
    if (!bad)
        PyErr_SetObject(type, exc);
    Py_DECREF(exc);
    return NULL;
}

static PyObject *raise_rsc(PyObject *type, const char *what, rsc_status st)
{
    if (st == RSC_E_NOMEM)
        return PyErr_NoMemory();
    PyObject *msg = PyUnicode_FromFormat("%s: %s", what, rsc_strerror(st));
    if (!msg)
        return NULL;
    raise_status(type, PyUnicode_AsUTF8(msg), st, rsc_strerror(st), -1, NULL);
    Py_DECREF(msg);
    return NULL;
}

/* ---- argument helpers -------------------------------------------------- */

/* A str (as UTF-8) or a bytes-like object. *view is released by the caller
 * with release_text() when *held is set. Returns 0, or -1 with TypeError. */
typedef struct text_arg {
    const char *ptr;
    size_t len;
    Py_buffer view;
    int held;
} text_arg;

static int get_text(PyObject *o, text_arg *t, const char *what)
{
    t->held = 0;
    if (PyUnicode_Check(o)) {
        Py_ssize_t n;
        t->ptr = PyUnicode_AsUTF8AndSize(o, &n);
        if (!t->ptr)
            return -1;
        t->len = (size_t)n;
        return 0;
    }
    if (PyBytes_Check(o)) {
        t->ptr = PyBytes_AS_STRING(o);
        t->len = (size_t)PyBytes_GET_SIZE(o);
        return 0;
    }
    if (PyObject_CheckBuffer(o)) {
        if (PyObject_GetBuffer(o, &t->view, PyBUF_SIMPLE) < 0)
            return -1;
        t->held = 1;
        t->ptr = t->view.buf;
        t->len = (size_t)t->view.len;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s must be str or bytes-like, not %.100s",
                 what, Py_TYPE(o)->tp_name);
    return -1;
}

static void release_text(text_arg *t)
{
    if (t->held) {
        PyBuffer_Release(&t->view);
        t->held = 0;
    }
}

static int parse_profile(PyObject *o, rsc_profile *p)
{
    const char *s;
    if (o == NULL || o == Py_None) {
        *p = RSC_PROFILE_GOOGLE;
        return 0;
    }
    if (!PyUnicode_Check(o) || !(s = PyUnicode_AsUTF8(o))) {
        PyErr_SetString(PyExc_TypeError, "profile must be 'google' or 'rfc'");
        return -1;
    }
    if (strcmp(s, "google") == 0)
        *p = RSC_PROFILE_GOOGLE;
    else if (strcmp(s, "rfc") == 0)
        *p = RSC_PROFILE_RFC;
    else {
        PyErr_Format(PyExc_ValueError, "unknown profile '%s' (google or rfc)", s);
        return -1;
    }
    return 0;
}

static PyObject *str_from(const char *p, size_t n)
{
    return PyUnicode_DecodeUTF8(p ? p : "", (Py_ssize_t)n, "surrogateescape");
}

/* ---- the crawler's name ------------------------------------------------ */

/* The crawler's names for one call (docs/SEMANTICS.md, "The crawler's
 * name"; the same rule as the C library and the CLI). agent: a str/bytes
 * name or a sequence of names, each used as given (never cut), with an
 * AgentWarning for a name that is not a product token (it can only get the
 * '*' group). user_agent: a whole User-Agent header or Name/version,
 * reduced to its product token (rsc_agent_token); one without a token is
 * used as given, with an AgentWarning unless it is "*" (the '*' group, as
 * Protego and urllib callers mean it). */
#define MAX_AGENTS 64
typedef struct agent_args {
    rsc_bytes names[MAX_AGENTS];
    text_arg ts[MAX_AGENTS];
    Py_ssize_t n; /* names, and ts[0..n) to release */
    PyObject *seq;
} agent_args;

static void agents_release(agent_args *a)
{
    for (Py_ssize_t i = 0; i < a->n; i++)
        release_text(&a->ts[i]);
    a->n = 0;
    Py_CLEAR(a->seq);
}

static int agent_warn(const char *what, const char *p, size_t n, const char *why)
{
    PyObject *name = PyUnicode_DecodeUTF8(p ? p : "", (Py_ssize_t)n, "surrogateescape");
    if (!name)
        return -1;
    int r = n == 0 ? PyErr_WarnFormat(AgentWarning, 1, "%s '' %s: as in Google's library it names only "
                                      "user-agent lines without a token ('User-agent: 123'), else the "
                                      "'*' group answers", what, why)
                   : PyErr_WarnFormat(AgentWarning, 1, "%s %R %s: no user-agent line can name it, so it "
                                      "is answered by the '*' group as Google answers it", what, name, why);
    Py_DECREF(name);
    return r;
}

static int is_none(PyObject *o)
{
    return o == NULL || o == Py_None;
}

/* Fills *a; 0, or -1 with an exception (agents_release() done). */
static int agents_get(PyObject *agent, PyObject *ua, agent_args *a)
{
    a->n = 0;
    a->seq = NULL;
    if (is_none(agent) == is_none(ua)) {
        PyErr_SetString(PyExc_TypeError, is_none(agent)
            ? "give agent (the crawler's name) or user_agent (a User-Agent header)"
            : "give agent or user_agent, not both");
        return -1;
    }
    if (!is_none(ua)) {
        if (get_text(ua, &a->ts[0], "user_agent") < 0)
            return -1;
        a->n = 1;
        int changed = 0;
        if (rsc_agent_token(a->ts[0].ptr, a->ts[0].len, &a->names[0], &changed) != RSC_OK) {
            a->names[0].ptr = a->ts[0].ptr;
            a->names[0].len = a->ts[0].len;
            if (!(a->ts[0].len == 1 && a->ts[0].ptr[0] == '*') &&
                agent_warn("user_agent", a->ts[0].ptr, a->ts[0].len, "has no product token") < 0) {
                agents_release(a);
                return -1;
            }
        }
        return 0;
    }
    if (PyUnicode_Check(agent) || PyBytes_Check(agent)) {
        if (get_text(agent, &a->ts[0], "agent") < 0)
            return -1;
        a->n = 1;
    } else {
        a->seq = PySequence_Fast(agent, "agent must be str, bytes or a sequence of names");
        if (!a->seq)
            return -1;
        Py_ssize_t m = PySequence_Fast_GET_SIZE(a->seq);
        if (m == 0 || m > MAX_AGENTS) {
            Py_CLEAR(a->seq);
            PyErr_SetString(PyExc_ValueError, "agent list must hold 1 to 64 names");
            return -1;
        }
        for (; a->n < m; a->n++)
            if (get_text(PySequence_Fast_GET_ITEM(a->seq, a->n), &a->ts[a->n], "agent name") < 0) {
                agents_release(a);
                return -1;
            }
    }
    for (Py_ssize_t i = 0; i < a->n; i++) {
        a->names[i].ptr = a->ts[i].ptr;
        a->names[i].len = a->ts[i].len;
        if (!rsc_agent_is_token(a->ts[i].ptr, a->ts[i].len) &&
            agent_warn("agent", a->ts[i].ptr, a->ts[i].len,
                       "is not a product token ([A-Za-z_-]+; for a User-Agent header pass user_agent=)") < 0) {
            agents_release(a);
            return -1;
        }
    }
    return 0;
}

/* ---- compile ----------------------------------------------------------- */

typedef struct diag_ctx {
    PyObject *list;
    int failed;
} diag_ctx;

static void on_diag(void *ud, const rsc_diagnostic *d)
{
    diag_ctx *c = ud;
    if (c->failed)
        return;
    PyObject *t = PyStructSequence_New(&DiagnosticType);
    if (!t) {
        c->failed = 1;
        return;
    }
    PyObject *detail = d->detail ? str_from(d->detail, d->detail_len) : Py_NewRef(Py_None);
    PyObject *line = PyLong_FromUnsignedLong(d->line);
    PyObject *name = PyUnicode_FromString(rsc_warning_name(d->warning));
    PyObject *msg = PyUnicode_FromString(rsc_warning_message(d->warning));
    if (!detail || !line || !name || !msg) {
        Py_XDECREF(detail);
        Py_XDECREF(line);
        Py_XDECREF(name);
        Py_XDECREF(msg);
        Py_DECREF(t);
        c->failed = 1;
        return;
    }
    PyStructSequence_SET_ITEM(t, 0, line);
    PyStructSequence_SET_ITEM(t, 1, name);
    PyStructSequence_SET_ITEM(t, 2, msg);
    PyStructSequence_SET_ITEM(t, 3, detail);
    if (PyList_Append(c->list, t) < 0)
        c->failed = 1;
    Py_DECREF(t);
}

/* Compiles body into a new bytes object. diags (nullable) receives
 * Diagnostic records. */
static PyObject *compile_body(PyObject *body, rsc_profile profile, PyObject *diags)
{
    text_arg t;
    if (get_text(body, &t, "body") < 0)
        return NULL;
    rsc_compile_options opt;
    memset(&opt, 0, sizeof opt);
    opt.profile = profile;
    diag_ctx dc = {diags, 0};
    if (diags) {
        opt.diag = on_diag;
        opt.diag_ud = &dc;
    }
    rsc_blob blob = {NULL, 0};
    rsc_status st;
    /* str and bytes are immutable: with no callback they compile without
     * the GIL (another thread could change a buffer's bytes meanwhile). */
    if (!diags && !t.held) {
        Py_BEGIN_ALLOW_THREADS
        st = rsc_compile(t.ptr, t.len, &opt, &blob);
        Py_END_ALLOW_THREADS
    } else {
        st = rsc_compile(t.ptr, t.len, &opt, &blob);
    }
    release_text(&t);
    if (dc.failed) {
        rsc_blob_free(&blob, &opt);
        return NULL;
    }
    if (st != RSC_OK)
        return raise_rsc(CompileError, "cannot compile", st);
    PyObject *out = PyBytes_FromStringAndSize((const char *)blob.data, (Py_ssize_t)blob.size);
    rsc_blob_free(&blob, &opt);
    return out;
}

PyDoc_STRVAR(compile_doc,
"compile($module, /, body, profile='google', *, diagnostics=None)\n--\n\n-> bytes. "
"Compiles a robots.txt body (bytes-like, or str encoded as UTF-8) to a\n"
"verified blob for Robots(). profile is 'google' (Google's verdicts) or\n"
"'rfc'. When diagnostics is a list, the lint warnings found while\n"
"compiling are appended to it as Diagnostic(line, name, message, detail).\n"
"Raises CompileError (with .status) when a documented limit is exceeded.");

static PyObject *py_compile(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"body", "profile", "diagnostics", NULL};
    PyObject *body, *prof = NULL, *diags = NULL;
    rsc_profile profile;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$O:compile", kwlist, &body, &prof, &diags))
        return NULL;
    if (parse_profile(prof, &profile) < 0)
        return NULL;
    if (diags == Py_None)
        diags = NULL;
    if (diags && !PyList_Check(diags)) {
        PyErr_SetString(PyExc_TypeError, "diagnostics must be a list or None");
        return NULL;
    }
    return compile_body(body, profile, diags);
}

/* ---- Robots ------------------------------------------------------------ */

typedef struct RobotsObject {
    PyObject_HEAD
    Py_buffer view; /* held for the program's lifetime */
    int has_view;
    int zero_copy;
    rsc_program prog;
    PyObject *sel_key; /* agent of the cached selection (str/bytes), or NULL */
    int sel_ua;        /* 1: sel_key was given as user_agent */
    rsc_selection sel;
    PyObject *weakrefs;
    void *dfa; /* the DFA of the first agent cached (robots_dfa), or NULL */
    size_t dfa_size;
    int dfa_tried;
} RobotsObject;

static PyTypeObject RobotsType;

/* 1 when the bytes behind o may change: o (or the object under a
 * memoryview, even a read-only view of it) exports a writable buffer. */
static int buffer_mutable(PyObject *o)
{
    PyObject *base = PyMemoryView_Check(o) ? PyMemoryView_GET_BASE(o) : o;
    if (base == NULL)
        return 1; /* a view of raw memory: nothing says it is immutable */
    Py_buffer w;
    if (PyObject_GetBuffer(base, &w, PyBUF_WRITABLE) == 0) {
        PyBuffer_Release(&w);
        return 1;
    }
    PyErr_Clear();
    return 0;
}

static RobotsObject *robots_from_buffer(PyTypeObject *type, PyObject *blob)
{
    RobotsObject *r = (RobotsObject *)type->tp_alloc(type, 0);
    if (!r)
        return NULL;
    if (!PyObject_CheckBuffer(blob)) {
        PyErr_Format(PyExc_TypeError, "Robots() needs a bytes-like blob, not %.100s "
                     "(use Robots.parse() for a robots.txt text)", Py_TYPE(blob)->tp_name);
        Py_DECREF(r);
        return NULL;
    }
    if (PyObject_GetBuffer(blob, &r->view, PyBUF_SIMPLE) < 0) {
        Py_DECREF(r);
        return NULL;
    }
    r->has_view = 1;
    r->zero_copy = 1;
    if (!r->view.readonly || buffer_mutable(blob)) {
        PyObject *copy = PyBytes_FromStringAndSize(r->view.buf, r->view.len);
        PyBuffer_Release(&r->view);
        r->has_view = 0;
        if (!copy) {
            Py_DECREF(r);
            return NULL;
        }
        int bad = PyObject_GetBuffer(copy, &r->view, PyBUF_SIMPLE);
        Py_DECREF(copy); /* the view holds it */
        if (bad < 0) {
            Py_DECREF(r);
            return NULL;
        }
        r->has_view = 1;
        r->zero_copy = 0;
    }
    rsc_load_error err = {0, NULL};
    rsc_status st = rsc_load(&r->prog, r->view.buf, (size_t)r->view.len, &err);
    if (st != RSC_OK) {
        PyObject *msg = PyUnicode_FromFormat("invalid blob: %s at byte %zu (%s)",
                                             rsc_strerror(st), err.offset,
                                             err.what ? err.what : "?");
        if (msg) {
            raise_status(BlobError, PyUnicode_AsUTF8(msg), st, rsc_strerror(st),
                         (Py_ssize_t)err.offset, err.what);
            Py_DECREF(msg);
        }
        Py_DECREF(r);
        return NULL;
    }
    return r;
}

static PyObject *robots_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"blob", NULL};
    PyObject *blob;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:Robots", kwlist, &blob))
        return NULL;
    return (PyObject *)robots_from_buffer(type, blob);
}

static void robots_dealloc(RobotsObject *r)
{
    if (r->weakrefs)
        PyObject_ClearWeakRefs((PyObject *)r);
    Py_CLEAR(r->sel_key);
    PyMem_Free(r->dfa);
    if (r->has_view)
        PyBuffer_Release(&r->view);
    Py_TYPE(r)->tp_free((PyObject *)r);
}

/* The DFA engine (runtime.h, rsc_dfa_build) for the cached selection: built
 * once, for the first agent cached, and freed only with the object (a copy
 * of r->sel in a call that released the GIL may still run it); a later
 * cached selection of the same programs runs it too, others the programs. */
static void robots_dfa(RobotsObject *r)
{
    if (!r->dfa_tried) {
        r->dfa_tried = 1;
        void *buf = PyMem_Malloc(RSC_DFA_BUDGET);
        size_t used = 0;
        if (buf && rsc_dfa_build(&r->sel, buf, RSC_DFA_BUDGET, &used) == RSC_OK &&
            (r->dfa = PyMem_Malloc(used)) != NULL)
            memcpy(r->dfa, buf, used), r->dfa_size = used;
        PyMem_Free(buf);
    }
    if (!r->dfa || rsc_dfa_attach(&r->sel, r->dfa, r->dfa_size) != RSC_OK)
        r->sel.accel = NULL;
}

/* Fills *sel for agent or ua (agents_get). Returns a pointer to the
 * selection (the cache or *tmp), or NULL with an exception. */
static const rsc_selection *robots_select(RobotsObject *r, PyObject *agent, PyObject *ua, rsc_selection *tmp)
{
    int use_ua = !is_none(ua);
    PyObject *key = use_ua ? ua : agent;
    /* Only exact str/bytes are cached: comparing them runs no Python code,
     * so no other thread can replace the cache in between. */
    int cacheable = is_none(agent) != is_none(ua) && (PyUnicode_CheckExact(key) || PyBytes_CheckExact(key));
    if (cacheable && r->sel_key && r->sel_ua == use_ua && (r->sel_key == key ||
        (Py_TYPE(r->sel_key) == Py_TYPE(key) &&
         PyObject_RichCompareBool(r->sel_key, key, Py_EQ) == 1)))
        return &r->sel;
    agent_args a;
    if (agents_get(agent, ua, &a) < 0)
        return NULL;
    rsc_status st = rsc_select(&r->prog, a.names, (size_t)a.n, tmp);
    agents_release(&a);
    if (st != RSC_OK) {
        raise_rsc(Error, "cannot select agents", st);
        return NULL;
    }
    if (!cacheable)
        return tmp;
    memcpy(&r->sel, tmp, sizeof *tmp);
    robots_dfa(r);
    Py_INCREF(key);
    Py_XSETREF(r->sel_key, key);
    r->sel_ua = use_ua;
    return &r->sel;
}

#define AGENT_DOC \
"agent is the crawler's name, matched exactly as Google's library matches\n" \
"it (never cut: 'FooBot/1.0' names no group; a name that is not a product\n" \
"token gets the '*' group, with an AgentWarning), or a list of names (spec\n" \
"F.7). user_agent= instead takes a whole User-Agent header or Name/version\n" \
"and uses its product token ('Mozilla/5.0 (compatible; Googlebot/2.1)' ->\n" \
"'Googlebot'). Give one of the two.\n"

PyDoc_STRVAR(allowed_doc,
"allowed($self, /, url, agent=None, *, user_agent=None)\n--\n\n-> bool. "
"Google's verdict for url (str or bytes; matched byte for byte, as the\n"
"C library does). " AGENT_DOC);

static PyObject *robots_allowed(RobotsObject *r, PyObject *const *args, Py_ssize_t n, PyObject *kw)
{
    static const char *names[] = {"url", "agent", "user_agent"};
    PyObject *a[3] = {NULL, NULL, NULL};
    if (n > 2) {
        PyErr_SetString(PyExc_TypeError, "allowed() takes 2 arguments (url, agent)");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        a[i] = args[i];
    if (kw) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kw); i++) {
            const char *k = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kw, i));
            int j = -1;
            for (int m = 0; k && m < 3; m++)
                if (strcmp(k, names[m]) == 0)
                    j = m;
            if (j < 0 || a[j]) {
                PyErr_Format(PyExc_TypeError, "allowed() got an unexpected or repeated argument '%s'", k ? k : "?");
                return NULL;
            }
            a[j] = args[n + i];
        }
    }
    if (!a[0]) {
        PyErr_SetString(PyExc_TypeError, "allowed() needs url and agent (or user_agent=)");
        return NULL;
    }
    rsc_selection tmp;
    const rsc_selection *sel = robots_select(r, a[1], a[2], &tmp);
    if (!sel)
        return NULL;
    text_arg u;
    if (get_text(a[0], &u, "url") < 0)
        return NULL;
    int ok = rsc_match_url(sel, u.ptr, u.len, NULL);
    release_text(&u);
    return PyBool_FromLong(ok);
}

PyDoc_STRVAR(explain_doc,
"explain($self, /, url, agent=None, *, user_agent=None)\n--\n\n-> Explanation. "
"The verdict and the rule that decided it: Explanation(allowed, line,\n"
"pattern) with .decided, .rule ('allow', 'disallow' or None) and\n"
".priority. line is 0 and pattern None when no rule applied.");

static PyObject *robots_explain(RobotsObject *r, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"url", "agent", "user_agent", NULL};
    PyObject *url, *agent = NULL, *ua = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$O:explain", kwlist, &url, &agent, &ua))
        return NULL;
    rsc_selection tmp;
    const rsc_selection *sel = robots_select(r, agent, ua, &tmp);
    if (!sel)
        return NULL;
    text_arg u;
    if (get_text(url, &u, "url") < 0)
        return NULL;
    rsc_match m;
    memset(&m, 0, sizeof m);
    rsc_match_url(sel, u.ptr, u.len, &m);
    release_text(&u);
    PyObject *t = PyStructSequence_New(&ExplanationType);
    if (!t)
        return NULL;
    PyObject *items[6];
    items[0] = PyBool_FromLong(m.allowed);
    items[1] = PyLong_FromUnsignedLong(m.decided ? m.line : 0);
    items[2] = m.decided && m.pattern ? str_from(m.pattern, m.pattern_len) : Py_NewRef(Py_None);
    items[3] = PyBool_FromLong(m.decided);
    items[4] = m.decided ? PyUnicode_FromString(m.rule_allow ? "allow" : "disallow") : Py_NewRef(Py_None);
    items[5] = PyLong_FromUnsignedLong(m.decided ? m.priority : 0);
    for (int i = 0; i < 6; i++) {
        if (!items[i]) {
            for (int j = 0; j < 6; j++)
                Py_XDECREF(items[j]);
            for (int j = 0; j < 6; j++)
                PyStructSequence_SET_ITEM(t, j, Py_NewRef(Py_None));
            Py_DECREF(t);
            return NULL;
        }
    }
    for (int i = 0; i < 6; i++)
        PyStructSequence_SET_ITEM(t, i, items[i]);
    return t;
}

PyDoc_STRVAR(allowed_many_doc,
"allowed_many($self, /, urls, agent=None, out=None, *, user_agent=None)\n--\n\n-> list[bool] | out. "
"Verdicts for an iterable of URLs (str or bytes) for one agent, matched\n"
"without the GIL. With out (a writable buffer of at least len(urls)\n"
"bytes) the verdicts are written there as 1/0 and out is returned.");

static PyObject *robots_allowed_many(RobotsObject *r, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"urls", "agent", "out", "user_agent", NULL};
    PyObject *urls, *agent = NULL, *out = NULL, *ua = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO$O:allowed_many", kwlist, &urls, &agent, &out, &ua))
        return NULL;
    if (out == Py_None)
        out = NULL;
    rsc_selection tmp;
    const rsc_selection *s = robots_select(r, agent, ua, &tmp);
    if (!s)
        return NULL;
    rsc_selection sel;
    memcpy(&sel, s, sizeof sel);
    /* A private tuple: another thread may change a list while the GIL is
     * released, but not the tuple that holds our references. */
    PyObject *tup = PySequence_Tuple(urls);
    if (!tup)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(tup);
    Py_buffer ob;
    int have_out = 0;
    if (out) {
        if (PyObject_GetBuffer(out, &ob, PyBUF_WRITABLE) < 0) {
            Py_DECREF(tup);
            return NULL;
        }
        have_out = 1;
        if (ob.len < n) {
            PyBuffer_Release(&ob);
            Py_DECREF(tup);
            PyErr_Format(PyExc_ValueError, "out holds %zd bytes, %zd URLs given", ob.len, n);
            return NULL;
        }
    }
    rsc_bytes *spans = PyMem_Malloc(sizeof *spans * (size_t)(n ? n : 1));
    unsigned char *res = have_out ? ob.buf : PyMem_Malloc((size_t)(n ? n : 1));
    text_arg *held = NULL;
    Py_ssize_t n_held = 0;
    if (!spans || !res)
        goto nomem;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyTuple_GET_ITEM(tup, i);
        text_arg t;
        if (get_text(o, &t, "url") < 0)
            goto fail;
        if (t.held) {
            /* A buffer other than str/bytes: keep its export. */
            if (!held) {
                held = PyMem_Calloc((size_t)n, sizeof *held);
                if (!held) {
                    release_text(&t);
                    goto nomem;
                }
            }
            held[n_held++] = t;
        }
        spans[i].ptr = t.ptr;
        spans[i].len = t.len;
    }
    /* Buffers other than str/bytes may be mutable: match them with the
     * GIL held; otherwise release it. */
    if (n_held) {
        for (Py_ssize_t i = 0; i < n; i++)
            res[i] = (unsigned char)rsc_match_url(&sel, spans[i].ptr, spans[i].len, NULL);
    } else {
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < n; i++)
            res[i] = (unsigned char)rsc_match_url(&sel, spans[i].ptr, spans[i].len, NULL);
        Py_END_ALLOW_THREADS
    }
    for (Py_ssize_t i = 0; i < n_held; i++)
        release_text(&held[i]);
    PyMem_Free(held);
    PyMem_Free(spans);
    Py_DECREF(tup);
    if (have_out) {
        PyBuffer_Release(&ob);
        return Py_NewRef(out);
    }
    PyObject *list = PyList_New(n);
    if (list) {
        for (Py_ssize_t i = 0; i < n; i++)
            PyList_SET_ITEM(list, i, PyBool_FromLong(res[i]));
    }
    PyMem_Free(res);
    return list;
nomem:
    PyErr_NoMemory();
fail:
    for (Py_ssize_t i = 0; i < n_held; i++)
        release_text(&held[i]);
    PyMem_Free(held);
    PyMem_Free(spans);
    if (have_out)
        PyBuffer_Release(&ob);
    else
        PyMem_Free(res);
    Py_DECREF(tup);
    return NULL;
}

PyDoc_STRVAR(crawl_delay_doc,
"crawl_delay($self, /, agent=None, *, user_agent=None)\n--\n\n-> float | None. "
"Crawl-delay in seconds of the groups that apply to agent (the global\n"
"groups when none names it), or None when there is none.");

static PyObject *robots_crawl_delay(RobotsObject *r, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"agent", "user_agent", NULL};
    PyObject *agent = NULL, *ua = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O$O:crawl_delay", kwlist, &agent, &ua))
        return NULL;
    rsc_selection tmp;
    const rsc_selection *sel = robots_select(r, agent, ua, &tmp);
    if (!sel)
        return NULL;
    double secs = 0;
    if (rsc_crawl_delay(sel, &secs) == 1)
        return PyFloat_FromDouble(secs);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(request_rate_doc,
"request_rate($self, /, agent=None, *, user_agent=None)\n--\n\n-> RequestRate | None. "
"Request-rate of the groups that apply to agent as RequestRate(requests,\n"
"seconds), or None when there is none or it cannot be read.");

static PyObject *robots_request_rate(RobotsObject *r, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"agent", "user_agent", NULL};
    PyObject *agent = NULL, *ua = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O$O:request_rate", kwlist, &agent, &ua))
        return NULL;
    rsc_selection tmp;
    const rsc_selection *sel = robots_select(r, agent, ua, &tmp);
    if (!sel)
        return NULL;
    uint32_t req = 0;
    double secs = 0;
    int have = rsc_request_rate(sel, &req, &secs) == 1;
    if (!have)
        Py_RETURN_NONE;
    PyObject *t = PyStructSequence_New(&RequestRateType);
    if (!t)
        return NULL;
    PyObject *a = PyLong_FromUnsignedLong(req), *b = PyFloat_FromDouble(secs);
    if (!a || !b) {
        PyStructSequence_SET_ITEM(t, 0, a ? a : Py_NewRef(Py_None));
        PyStructSequence_SET_ITEM(t, 1, b ? b : Py_NewRef(Py_None));
        Py_DECREF(t);
        return NULL;
    }
    PyStructSequence_SET_ITEM(t, 0, a);
    PyStructSequence_SET_ITEM(t, 1, b);
    return t;
}

PyDoc_STRVAR(group_directive_doc,
"group_directive($self, /, key, agent=None, *, user_agent=None)\n--\n\n-> str | None. "
"The value of the first directive named key (case-insensitive, e.g.\n"
"'crawl-delay') in the groups that apply to agent, or None.");

static PyObject *robots_group_directive(RobotsObject *r, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"key", "agent", "user_agent", NULL};
    const char *key;
    PyObject *agent = NULL, *ua = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|O$O:group_directive", kwlist, &key, &agent, &ua))
        return NULL;
    rsc_selection tmp;
    const rsc_selection *sel = robots_select(r, agent, ua, &tmp);
    if (!sel)
        return NULL;
    rsc_bytes v;
    uint32_t line;
    if (rsc_group_directive(sel, key, &v, &line) == 1)
        return str_from(v.ptr, v.len);
    Py_RETURN_NONE;
}

static PyObject *robots_get_sitemaps(RobotsObject *r, void *c)
{
    (void)c;
    size_t n = rsc_sitemap_count(&r->prog);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        uint32_t line;
        rsc_bytes url = {NULL, 0};
        rsc_sitemap_get(&r->prog, i, &line, &url);
        PyObject *s = str_from(url.ptr, url.len);
        if (!s) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, s);
    }
    return list;
}

static PyObject *robots_get_directives(RobotsObject *r, void *c)
{
    (void)c;
    size_t n = rsc_directive_count(&r->prog);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        uint32_t line = 0;
        rsc_bytes k = {NULL, 0}, v = {NULL, 0};
        rsc_directive_get(&r->prog, i, &line, &k, &v);
        PyObject *t = PyStructSequence_New(&DirectiveType);
        PyObject *a = PyLong_FromUnsignedLong(line), *b = str_from(k.ptr, k.len),
                 *d = str_from(v.ptr, v.len);
        if (!t || !a || !b || !d) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            Py_XDECREF(d);
            if (t) {
                for (int j = 0; j < 3; j++)
                    PyStructSequence_SET_ITEM(t, j, Py_NewRef(Py_None));
                Py_DECREF(t);
            }
            Py_CLEAR(list);
            break;
        }
        PyStructSequence_SET_ITEM(t, 0, a);
        PyStructSequence_SET_ITEM(t, 1, b);
        PyStructSequence_SET_ITEM(t, 2, d);
        PyList_SET_ITEM(list, (Py_ssize_t)i, t);
    }
    return list;
}

static PyObject *robots_get_profile(RobotsObject *r, void *c)
{
    (void)c;
    return PyUnicode_FromString(rsc_program_profile(&r->prog) ? "rfc" : "google");
}

static PyObject *robots_get_size(RobotsObject *r, void *c)
{
    (void)c;
    return PyLong_FromSsize_t(r->view.len);
}

static PyObject *robots_get_zero_copy(RobotsObject *r, void *c)
{
    (void)c;
    return PyBool_FromLong(r->zero_copy);
}

static PyObject *robots_get_blob(RobotsObject *r, void *c)
{
    (void)c;
    /* A read-only view of the verified bytes (never writable). */
    return PyMemoryView_FromMemory(r->view.buf, r->view.len, PyBUF_READ);
}

PyDoc_STRVAR(parse_doc,
"parse($type, /, body, profile='google', *, text=False)\n--\n\n-> Robots. "
"Compiles a robots.txt body (bytes-like or str) and loads the blob. What\n"
"body is, is the C library's rule (rsc_classify): bytes that begin with\n"
"the blob magic are a blob, loaded as Robots(body) does (BlobError when it\n"
"fails verification, never read as text); bytes that look like a damaged\n"
"blob (BlobError) or binary (Error) are refused unless text=True reads\n"
"them as a robots.txt.");

static PyObject *robots_parse(PyObject *cls, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"body", "profile", "text", NULL};
    PyObject *body, *prof = NULL;
    int text = 0;
    rsc_profile profile;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$p:parse", kwlist, &body, &prof, &text))
        return NULL;
    if (parse_profile(prof, &profile) < 0)
        return NULL;
    text_arg t;
    if (get_text(body, &t, "body") < 0)
        return NULL;
    rsc_input_kind kind = rsc_classify(t.ptr, t.len);
    release_text(&t);
    if (kind == RSC_INPUT_BLOB)
        return (PyObject *)robots_from_buffer((PyTypeObject *)cls, body);
    if (kind != RSC_INPUT_TEXT && !text) {
        PyObject *msg = PyUnicode_FromFormat("%s, not read as a robots.txt (text=True reads it as one)",
                                             rsc_input_kind_what(kind));
        if (msg) {
            raise_status(kind == RSC_INPUT_DAMAGED ? BlobError : Error, PyUnicode_AsUTF8(msg),
                         kind == RSC_INPUT_DAMAGED ? RSC_E_MAGIC : RSC_E_ARG,
                         rsc_input_kind_what(kind), kind == RSC_INPUT_DAMAGED ? 0 : -1, NULL);
            Py_DECREF(msg);
        }
        return NULL;
    }
    PyObject *blob = compile_body(body, profile, NULL);
    if (!blob)
        return NULL;
    PyObject *r = (PyObject *)robots_from_buffer((PyTypeObject *)cls, blob);
    Py_DECREF(blob);
    return r;
}

/* Pickling (Dask, multiprocessing) sends the verified bytes; the receiver
 * verifies them again. */
static PyObject *robots_reduce(RobotsObject *r, PyObject *unused)
{
    (void)unused;
    return Py_BuildValue("(O(y#))", (PyObject *)Py_TYPE(r), (const char *)r->view.buf, r->view.len);
}

static PyObject *robots_repr(RobotsObject *r)
{
    return PyUnicode_FromFormat("<robotsc.Robots %s, %zd bytes, %zu sitemaps, %zu directives>",
                                rsc_program_profile(&r->prog) ? "rfc" : "google", r->view.len,
                                rsc_sitemap_count(&r->prog), rsc_directive_count(&r->prog));
}

static PyObject *robots_diff(RobotsObject *r, PyObject *args, PyObject *kw)
{
    PyObject *other = PyTuple_Size(args) > 0 ? PyTuple_GET_ITEM(args, 0) : (kw ? PyDict_GetItemString(kw, "other") : NULL);
    if (!other || !PyObject_TypeCheck(other, &RobotsType)) {
        PyErr_SetString(PyExc_TypeError, "diff: other must be a Robots");
        return NULL;
    }
    return rsc_py_diff(&r->prog, &((RobotsObject *)other)->prog, args, kw);
}

static PyMethodDef robots_methods[] = {
    {"diff", (PyCFunction)(void (*)(void))robots_diff, METH_VARARGS | METH_KEYWORDS, RSC_PY_DIFF_DOC},
    {"lint", (PyCFunction)(void (*)(void))rsc_py_lint, METH_VARARGS | METH_KEYWORDS | METH_CLASS, RSC_PY_LINT_DOC},
    {"allowed", (PyCFunction)(void (*)(void))robots_allowed, METH_FASTCALL | METH_KEYWORDS, allowed_doc},
    {"explain", (PyCFunction)(void (*)(void))robots_explain, METH_VARARGS | METH_KEYWORDS, explain_doc},
    {"allowed_many", (PyCFunction)(void (*)(void))robots_allowed_many, METH_VARARGS | METH_KEYWORDS, allowed_many_doc},
    {"crawl_delay", (PyCFunction)(void (*)(void))robots_crawl_delay, METH_VARARGS | METH_KEYWORDS, crawl_delay_doc},
    {"request_rate", (PyCFunction)(void (*)(void))robots_request_rate, METH_VARARGS | METH_KEYWORDS, request_rate_doc},
    {"group_directive", (PyCFunction)(void (*)(void))robots_group_directive, METH_VARARGS | METH_KEYWORDS, group_directive_doc},
    {"parse", (PyCFunction)(void (*)(void))robots_parse, METH_VARARGS | METH_KEYWORDS | METH_CLASS, parse_doc},
    {"__reduce__", (PyCFunction)robots_reduce, METH_NOARGS, "Pickle support: the blob's bytes."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef robots_getset[] = {
    {"sitemaps", (getter)robots_get_sitemaps, NULL, "Sitemap URLs, in file order (list of str).", NULL},
    {"directives", (getter)robots_get_directives, NULL,
     "Unknown directives (crawl-delay, host, ...) as Directive(line, key, value), in file order.", NULL},
    {"profile", (getter)robots_get_profile, NULL, "'google' or 'rfc'.", NULL},
    {"size", (getter)robots_get_size, NULL, "Size of the blob in bytes.", NULL},
    {"zero_copy", (getter)robots_get_zero_copy, NULL,
     "True when the program reads the caller's buffer in place (read-only buffers).", NULL},
    {"blob", (getter)robots_get_blob, NULL, "A read-only memoryview of the verified blob.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyDoc_STRVAR(robots_doc,
"Robots(blob)\n--\n\n"
"A verified compiled robots.txt. blob is any bytes-like object (bytes,\n"
"memoryview, mmap, an LMDB value); immutable bytes are used in place and\n"
"kept alive as long as this object, writable ones are copied first.\n"
"Raises BlobError (.status, .offset, .reason) when verification fails.\n"
"Use Robots.parse(text) to compile and load in one step. Thread-safe.");

static PyTypeObject RobotsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "robotsc.Robots",
    .tp_basicsize = sizeof(RobotsObject),
    .tp_dealloc = (destructor)robots_dealloc,
    .tp_repr = (reprfunc)robots_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = robots_doc,
    .tp_weaklistoffset = offsetof(RobotsObject, weakrefs),
    .tp_methods = robots_methods,
    .tp_getset = robots_getset,
    .tp_new = robots_new,
};

/* ---- crawler helpers --------------------------------------------------- */

PyDoc_STRVAR(origin_doc,
"origin($module, url, /)\n--\n\n-> Origin. "
"The robots.txt that governs url (spec I): Origin(key, robots_url) with\n"
".scheme, .host (punycode, lower case), .port and .default_port. Two URLs\n"
"share a robots.txt iff their keys are equal. Raises URLError (.status,\n"
".status_name) for relative URLs, other schemes, bad hosts or ports.");

static PyObject *py_origin(PyObject *self, PyObject *arg)
{
    (void)self;
    text_arg t;
    if (get_text(arg, &t, "url") < 0)
        return NULL;
    rsc_origin o;
    rsc_url_status st = rsc_origin_parse(t.ptr, t.len, &o);
    release_text(&t);
    if (st != RSC_URL_OK) {
        PyObject *msg = PyUnicode_FromFormat("no robots.txt for this URL: %s", rsc_url_strerror(st));
        if (msg) {
            raise_status(URLError, PyUnicode_AsUTF8(msg), st, rsc_url_strerror(st), -1, NULL);
            Py_DECREF(msg);
        }
        return NULL;
    }
    PyObject *t2 = PyStructSequence_New(&OriginType);
    if (!t2)
        return NULL;
    PyObject *items[6] = {
        PyUnicode_FromStringAndSize(o.key, (Py_ssize_t)o.key_len),
        PyUnicode_FromStringAndSize(o.robots_url, (Py_ssize_t)o.robots_url_len),
        PyUnicode_FromString(o.scheme), PyUnicode_FromString(o.host),
        PyLong_FromLong(o.port), PyBool_FromLong(o.default_port)};
    int bad = 0;
    for (int i = 0; i < 6; i++)
        bad |= items[i] == NULL;
    for (int i = 0; i < 6; i++)
        PyStructSequence_SET_ITEM(t2, i, items[i] ? items[i] : Py_NewRef(Py_None));
    if (bad) {
        Py_DECREF(t2);
        return NULL;
    }
    return t2;
}

PyDoc_STRVAR(is_robots_url_doc,
"is_robots_url($module, url, /)\n--\n\n-> bool. "
"True when url is itself a robots.txt that crawlers read (path exactly\n"
"/robots.txt of an http, https or ftp URL).");

static PyObject *py_is_robots_url(PyObject *self, PyObject *arg)
{
    (void)self;
    text_arg t;
    if (get_text(arg, &t, "url") < 0)
        return NULL;
    int r = rsc_url_is_robots(t.ptr, t.len);
    release_text(&t);
    return PyBool_FromLong(r);
}

PyDoc_STRVAR(status_policy_doc,
"status_policy($module, /, status, error=None, body=b'')\n--\n\n-> Policy. "
"What to compile after fetching a robots.txt (spec I): status is the HTTP\n"
"status of the final response (0 when none); error is None, 'network',\n"
"'timeout' or 'redirects'. Returns Policy(policy, definite, body, reason):\n"
"policy is 'parse', 'allow-all' or 'disallow-all', body the text to\n"
"compile, definite True when the answer may be cached as a good copy.");

static PyObject *py_status_policy(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"status", "error", "body", NULL};
    int status;
    PyObject *err = Py_None, *body = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|OO:status_policy", kwlist, &status, &err, &body))
        return NULL;
    rsc_fetch_outcome o;
    memset(&o, 0, sizeof o);
    o.status = status;
    if (err != Py_None) {
        const char *e = PyUnicode_Check(err) ? PyUnicode_AsUTF8(err) : NULL;
        if (e && strcmp(e, "network") == 0)
            o.error = RSC_FETCH_E_NETWORK;
        else if (e && strcmp(e, "timeout") == 0)
            o.error = RSC_FETCH_E_TIMEOUT;
        else if (e && strcmp(e, "redirects") == 0)
            o.error = RSC_FETCH_E_REDIRECTS;
        else {
            PyErr_SetString(PyExc_ValueError, "error must be None, 'network', 'timeout' or 'redirects'");
            return NULL;
        }
    }
    text_arg t = {"", 0, {0}, 0};
    if (body && body != Py_None && get_text(body, &t, "body") < 0)
        return NULL;
    o.body = t.ptr;
    o.body_len = t.len;
    rsc_policy_result pr;
    rsc_status_policy(&o, &pr);
    PyObject *res = PyStructSequence_New(&PolicyType);
    PyObject *items[4] = {PyUnicode_FromString(rsc_policy_name(pr.policy)),
                          PyBool_FromLong(pr.definite),
                          PyBytes_FromStringAndSize(pr.body, (Py_ssize_t)pr.body_len),
                          PyUnicode_FromString(pr.reason ? pr.reason : "")};
    release_text(&t);
    int bad = res == NULL;
    for (int i = 0; i < 4; i++)
        bad |= items[i] == NULL;
    if (bad) {
        for (int i = 0; i < 4; i++)
            Py_XDECREF(items[i]);
        if (res) {
            for (int i = 0; i < 4; i++)
                PyStructSequence_SET_ITEM(res, i, Py_NewRef(Py_None));
            Py_DECREF(res);
        }
        return NULL;
    }
    for (int i = 0; i < 4; i++)
        PyStructSequence_SET_ITEM(res, i, items[i]);
    return res;
}

PyDoc_STRVAR(cache_ttl_doc,
"cache_ttl($module, cache_control=None, /)\n--\n\n-> int. "
"Seconds a definite robots.txt answer may be cached given its\n"
"Cache-Control header value (spec I defaults: 24 h, at least 60 s,\n"
"at most 30 days).");

static PyObject *py_cache_ttl(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cc = Py_None;
    if (!PyArg_ParseTuple(args, "|O:cache_ttl", &cc))
        return NULL;
    text_arg t = {NULL, 0, {0}, 0};
    if (cc != Py_None && get_text(cc, &t, "cache_control") < 0)
        return NULL;
    int64_t ttl = rsc_cache_ttl(t.ptr, t.len, NULL);
    release_text(&t);
    return PyLong_FromLongLong((long long)ttl);
}

PyDoc_STRVAR(agent_token_doc,
"agent_token($module, user_agent, /)\n--\n\n-> str. "
"The product token that allowed() compares with the file's user-agent\n"
"lines: 'Googlebot' for 'Googlebot/2.1' or a full User-Agent header.");

static PyObject *py_agent_token(PyObject *self, PyObject *arg)
{
    (void)self;
    text_arg t;
    if (get_text(arg, &t, "user_agent") < 0)
        return NULL;
    rsc_bytes tok;
    int changed = 0;
    if (rsc_agent_token(t.ptr, t.len, &tok, &changed) != RSC_OK) {
        tok.ptr = t.ptr; /* no token: the value itself, as before */
        tok.len = t.len;
    }
    PyObject *s = str_from(tok.ptr, tok.len);
    release_text(&t);
    return s;
}

/* ---- Store (LMDB) ------------------------------------------------------ */
#ifdef RSC_HAVE_STORE

/* Every call opens and ends its own read transaction, under the GIL: the
 * store's program cache is per thread and the GIL is that thread. */
typedef struct StoreObject {
    PyObject_HEAD
    rsc_store *st;
    rsc_store_cache *cache;
    PyObject *cache_agent; /* the str/bytes agent the cache's selection is for */
    int cache_ua;          /* 1: cache_agent was given as user_agent */
    PyObject *weakrefs;
} StoreObject;

static PyObject *raise_store(StoreObject *s, const char *what, rsc_store_status st)
{
    if (st == RSC_STORE_E_NOMEM)
        return PyErr_NoMemory();
    const char *detail = rsc_store_last_error(s ? s->st : NULL);
    PyObject *msg = PyUnicode_FromFormat("%s: %s%s%s", what, rsc_store_strerror(st),
                                         detail && *detail ? ": " : "", detail ? detail : "");
    if (!msg)
        return NULL;
    raise_status(st == RSC_STORE_NOTFOUND ? StoreKeyError : StoreError, PyUnicode_AsUTF8(msg),
                 st, rsc_store_strerror(st), -1, NULL);
    Py_DECREF(msg);
    return NULL;
}

static int store_open_check(StoreObject *s)
{
    if (!s->st) {
        PyErr_SetString(PyExc_ValueError, "the store is closed");
        return -1;
    }
    return 0;
}

static PyObject *store_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"path", "readonly", "map_size", "no_sync", NULL};
    PyObject *path;
    int readonly = 0, no_sync = 0;
    Py_ssize_t map_size = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|pnp:Store", kwlist, PyUnicode_FSConverter,
                                     &path, &readonly, &map_size, &no_sync))
        return NULL;
    StoreObject *s = (StoreObject *)type->tp_alloc(type, 0);
    if (!s) {
        Py_DECREF(path);
        return NULL;
    }
    rsc_store_options opt;
    memset(&opt, 0, sizeof opt);
    opt.readonly = readonly;
    opt.map_size = map_size > 0 ? (size_t)map_size : 0;
    opt.no_sync = no_sync;
    rsc_store_status st;
    Py_BEGIN_ALLOW_THREADS
    st = rsc_store_open(PyBytes_AS_STRING(path), &opt, &s->st);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (st != RSC_STORE_OK) {
        raise_store(NULL, "cannot open the store", st);
        Py_DECREF(s);
        return NULL;
    }
    return (PyObject *)s;
}

static void store_close_all(StoreObject *s)
{
    rsc_store_cache_free(s->cache);
    s->cache = NULL;
    Py_CLEAR(s->cache_agent);
    rsc_store_close(s->st);
    s->st = NULL;
}

static void store_dealloc(StoreObject *s)
{
    if (s->weakrefs)
        PyObject_ClearWeakRefs((PyObject *)s);
    store_close_all(s);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *store_close(StoreObject *s, PyObject *unused)
{
    (void)unused;
    store_close_all(s);
    Py_RETURN_NONE;
}

static PyObject *store_enter(StoreObject *s, PyObject *unused)
{
    (void)unused;
    if (store_open_check(s) < 0)
        return NULL;
    return Py_NewRef(s);
}

static PyObject *store_exit(StoreObject *s, PyObject *args)
{
    (void)args;
    store_close_all(s);
    Py_RETURN_FALSE;
}

PyDoc_STRVAR(store_allowed_doc,
"allowed($self, /, url, agent=None, now=0, *, user_agent=None, missing=None)\n--\n\n"
"-> bool | missing. Routes url to its origin's record, verifies the blob\n"
"and returns the verdict for agent or user_agent (as Robots.allowed takes\n"
"them). When the store has no record for the origin (or it expired before\n"
"now, Unix seconds; 0 does not check expiry) it returns missing (None by\n"
"default: the common case for a crawler, which then fetches robots.txt).\n"
"Raises StoreError for a URL with no robots.txt and for a damaged record:\n"
"never a verdict.");

PyDoc_STRVAR(store_allowed_many_doc,
"allowed_many($self, /, urls, agent=None, now=0, *, user_agent=None, missing=None)\n--\n\n"
"-> list[bool | missing]. Store.allowed for every URL of an iterable (any\n"
"origins), in one read transaction; StoreError as allowed() raises it.");

/* The store cache holds selections for one crawler: a new agent, a new
 * cache. Returns the cache to use (NULL: none). */
static rsc_store_cache *store_cache_for(StoreObject *s, PyObject *agent, PyObject *ua)
{
    int use_ua = !is_none(ua);
    PyObject *key = use_ua ? ua : agent;
    if (!(PyUnicode_CheckExact(key) || PyBytes_CheckExact(key)))
        return NULL;
    if (!s->cache_agent || s->cache_ua != use_ua || (s->cache_agent != key &&
        !(Py_TYPE(s->cache_agent) == Py_TYPE(key) &&
          PyObject_RichCompareBool(s->cache_agent, key, Py_EQ) == 1))) {
        rsc_store_cache_free(s->cache);
        s->cache = rsc_store_cache_new(256, 0);
        Py_INCREF(key);
        Py_XSETREF(s->cache_agent, key);
        s->cache_ua = use_ua;
    }
    return s->cache;
}

/* allowed() and allowed_many(): urls is one URL (many == 0) or an
 * iterable of them. */
static PyObject *store_check_urls(StoreObject *s, PyObject *urls, int many, PyObject *agent, PyObject *ua,
                                  long long now, PyObject *missing)
{
    if (store_open_check(s) < 0)
        return NULL;
    if (!missing)
        missing = Py_None;
    agent_args a;
    if (agents_get(agent, ua, &a) < 0)
        return NULL;
    PyObject *tup = many ? PySequence_Tuple(urls) : Py_BuildValue("(O)", urls);
    PyObject *out = tup ? PyList_New(PyTuple_GET_SIZE(tup)) : NULL;
    if (!out) {
        Py_XDECREF(tup);
        agents_release(&a);
        return NULL;
    }
    rsc_store_cache *cache = store_cache_for(s, agent, ua);
    rsc_store_txn *t = NULL;
    rsc_store_status st = rsc_store_begin(s->st, &t);
    for (Py_ssize_t i = 0; st == RSC_STORE_OK && i < PyTuple_GET_SIZE(tup); i++) {
        text_arg u;
        if (get_text(PyTuple_GET_ITEM(tup, i), &u, "url") < 0) {
            Py_CLEAR(out);
            break;
        }
        int verdict = 0;
        st = rsc_store_check(t, cache, a.names, (size_t)a.n, u.ptr, u.len, (int64_t)now, &verdict);
        release_text(&u);
        if (st == RSC_STORE_NOTFOUND) {
            st = RSC_STORE_OK;
            PyList_SET_ITEM(out, i, Py_NewRef(missing));
        } else if (st == RSC_STORE_OK) {
            PyList_SET_ITEM(out, i, PyBool_FromLong(verdict == RSC_STORE_ALLOW));
        }
    }
    rsc_store_end(t);
    agents_release(&a);
    Py_DECREF(tup);
    if (!out)
        return NULL;
    if (st != RSC_STORE_OK) {
        Py_DECREF(out);
        return raise_store(s, "cannot check the URL", st);
    }
    if (many)
        return out;
    PyObject *one = Py_NewRef(PyList_GET_ITEM(out, 0));
    Py_DECREF(out);
    return one;
}

static PyObject *store_allowed(StoreObject *s, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"url", "agent", "now", "user_agent", "missing", NULL};
    PyObject *url, *agent = NULL, *ua = NULL, *missing = NULL;
    long long now = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OL$OO:allowed", kwlist, &url, &agent, &now, &ua, &missing))
        return NULL;
    return store_check_urls(s, url, 0, agent, ua, now, missing);
}

static PyObject *store_allowed_many(StoreObject *s, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"urls", "agent", "now", "user_agent", "missing", NULL};
    PyObject *urls, *agent = NULL, *ua = NULL, *missing = NULL;
    long long now = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OL$OO:allowed_many", kwlist, &urls, &agent, &now, &ua,
                                     &missing))
        return NULL;
    return store_check_urls(s, urls, 1, agent, ua, now, missing);
}

static PyObject *meta_dict(const rsc_store_meta *m)
{
    return Py_BuildValue("{s:L,s:L,s:L,s:i,s:s,s:s,s:O,s:s,s:i,s:K,s:K,s:N,s:N,s:N}",
        "fetched_at", (long long)m->fetched_at, "expires", (long long)m->expires,
        "error_since", (long long)m->error_since, "http_status", (int)m->http_status,
        "fetch_error", m->fetch_error == RSC_FETCH_E_NETWORK ? "network" :
                       m->fetch_error == RSC_FETCH_E_TIMEOUT ? "timeout" :
                       m->fetch_error == RSC_FETCH_E_REDIRECTS ? "redirects" : "",
        "policy", rsc_policy_name(m->policy), "has_copy", m->has_copy ? Py_True : Py_False,
        "profile", m->profile ? "rfc" : "google", "format", (int)m->format,
        "source_size", (unsigned long long)m->source_size,
        "source_hash", (unsigned long long)m->source_hash,
        "source_url", str_from(m->source_url.ptr, m->source_url.len),
        "etag", str_from(m->etag.ptr, m->etag.len),
        "last_modified", str_from(m->last_modified.ptr, m->last_modified.len));
}

PyDoc_STRVAR(store_get_doc,
"get($self, key, /)\n--\n\n-> (Robots, dict). "
"The record of an origin key ('https://example.com'): a Robots over a\n"
"verified copy of its blob, and its metadata. StoreKeyError when absent.");

static PyObject *store_get(StoreObject *s, PyObject *arg)
{
    if (store_open_check(s) < 0)
        return NULL;
    text_arg k;
    if (get_text(arg, &k, "key") < 0)
        return NULL;
    rsc_store_txn *t = NULL;
    rsc_store_record rec;
    rsc_program prog;
    rsc_load_error err = {0, NULL};
    PyObject *blob = NULL, *meta = NULL;
    rsc_store_status st = rsc_store_begin(s->st, &t);
    if (st == RSC_STORE_OK)
        st = rsc_store_get(t, k.ptr, k.len, &rec, &prog, &err);
    if (st == RSC_STORE_OK) {
        /* A copy: the map's bytes are valid only inside the transaction. */
        blob = PyBytes_FromStringAndSize((const char *)rec.blob, (Py_ssize_t)rec.blob_len);
        meta = meta_dict(&rec.meta);
    }
    rsc_store_end(t);
    release_text(&k);
    if (st != RSC_STORE_OK)
        return raise_store(s, "cannot read the record", st);
    PyObject *r = blob && meta ? (PyObject *)robots_from_buffer(&RobotsType, blob) : NULL;
    Py_XDECREF(blob);
    if (!r) {
        Py_XDECREF(meta);
        return NULL;
    }
    return Py_BuildValue("(NN)", r, meta);
}

PyDoc_STRVAR(store_put_doc,
"put($self, /, key, blob, *, source_url='', http_status=200, policy='parse', "
"fetched_at=0, expires=None, has_copy=True, source=None)\n--\n\n"
"Writes one record (one transaction). key must be a canonical origin key\n"
"(origin(url).key); blob a compiled blob (verified before it is stored).\n"
"expires None means never; source (the robots.txt body) sets the source\n"
"size and hash.");

static PyObject *store_put(StoreObject *s, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"key", "blob", "source_url", "http_status", "policy", "fetched_at",
                             "expires", "has_copy", "source", NULL};
    PyObject *key, *blob, *expires = Py_None, *source = Py_None;
    const char *source_url = "", *policy = "parse";
    int http_status = 200, has_copy = 1;
    long long fetched_at = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$sisLOpO:put", kwlist, &key, &blob,
                                     &source_url, &http_status, &policy, &fetched_at,
                                     &expires, &has_copy, &source))
        return NULL;
    if (store_open_check(s) < 0)
        return NULL;
    rsc_store_meta m;
    memset(&m, 0, sizeof m);
    m.fetched_at = fetched_at;
    m.expires = RSC_STORE_NEVER;
    if (expires != Py_None) {
        long long e = PyLong_AsLongLong(expires);
        if (e == -1 && PyErr_Occurred())
            return NULL;
        m.expires = e;
    }
    m.http_status = http_status;
    m.has_copy = (uint8_t)has_copy;
    if (strcmp(policy, "parse") == 0)
        m.policy = RSC_POLICY_PARSE;
    else if (strcmp(policy, "allow-all") == 0)
        m.policy = RSC_POLICY_ALLOW_ALL;
    else if (strcmp(policy, "disallow-all") == 0)
        m.policy = RSC_POLICY_DISALLOW_ALL;
    else {
        PyErr_SetString(PyExc_ValueError, "policy must be 'parse', 'allow-all' or 'disallow-all'");
        return NULL;
    }
    m.source_url.ptr = source_url;
    m.source_url.len = strlen(source_url);
    text_arg k, b, src = {NULL, 0, {0}, 0};
    if (get_text(key, &k, "key") < 0)
        return NULL;
    if (get_text(blob, &b, "blob") < 0) {
        release_text(&k);
        return NULL;
    }
    if (source != Py_None) {
        if (get_text(source, &src, "source") < 0) {
            release_text(&k);
            release_text(&b);
            return NULL;
        }
        m.source_size = src.len;
        m.source_hash = rsc_store_hash(src.ptr, src.len);
    }
    rsc_program prog;
    if (rsc_load(&prog, b.ptr, b.len, NULL) == RSC_OK)
        m.profile = (uint8_t)rsc_program_profile(&prog);
    rsc_store_status st = rsc_store_put(s->st, k.ptr, k.len, &m, b.ptr, b.len);
    release_text(&k);
    release_text(&b);
    release_text(&src);
    if (st != RSC_STORE_OK)
        return raise_store(s, "cannot write the record", st);
    Py_RETURN_NONE;
}

static PyObject *store_delete(StoreObject *s, PyObject *arg)
{
    if (store_open_check(s) < 0)
        return NULL;
    text_arg k;
    if (get_text(arg, &k, "key") < 0)
        return NULL;
    rsc_store_status st = rsc_store_del(s->st, k.ptr, k.len);
    release_text(&k);
    if (st != RSC_STORE_OK)
        return raise_store(s, "cannot delete the record", st);
    Py_RETURN_NONE;
}

typedef struct keys_ctx {
    PyObject *list;
    int failed;
} keys_ctx;

static int collect_key(void *ud, const char *key, size_t len, rsc_store_status st,
                       const rsc_store_record *rec)
{
    (void)st;
    (void)rec;
    keys_ctx *c = ud;
    PyObject *k = str_from(key, len);
    if (!k || PyList_Append(c->list, k) < 0) {
        Py_XDECREF(k);
        c->failed = 1;
        return 1;
    }
    Py_DECREF(k);
    return 0;
}

static PyObject *store_keys(StoreObject *s, PyObject *unused)
{
    (void)unused;
    if (store_open_check(s) < 0)
        return NULL;
    keys_ctx c = {PyList_New(0), 0};
    if (!c.list)
        return NULL;
    rsc_store_txn *t = NULL;
    rsc_store_status st = rsc_store_begin(s->st, &t);
    if (st == RSC_STORE_OK)
        st = rsc_store_foreach(t, collect_key, &c);
    rsc_store_end(t);
    if (c.failed) {
        Py_DECREF(c.list);
        return NULL;
    }
    if (st != RSC_STORE_OK) {
        Py_DECREF(c.list);
        return raise_store(s, "cannot list the store", st);
    }
    return c.list;
}

static Py_ssize_t store_len(StoreObject *s)
{
    if (store_open_check(s) < 0)
        return -1;
    rsc_store_stats stats;
    rsc_store_status st = rsc_store_stat(s->st, &stats);
    if (st != RSC_STORE_OK) {
        raise_store(s, "cannot read the store's statistics", st);
        return -1;
    }
    return (Py_ssize_t)stats.records;
}

static PyMethodDef store_methods[] = {
    {"allowed", (PyCFunction)(void (*)(void))store_allowed, METH_VARARGS | METH_KEYWORDS, store_allowed_doc},
    {"allowed_many", (PyCFunction)(void (*)(void))store_allowed_many, METH_VARARGS | METH_KEYWORDS, store_allowed_many_doc},
    {"get", (PyCFunction)store_get, METH_O, store_get_doc},
    {"put", (PyCFunction)(void (*)(void))store_put, METH_VARARGS | METH_KEYWORDS, store_put_doc},
    {"delete", (PyCFunction)store_delete, METH_O, "delete(key): removes a record (StoreKeyError when absent)."},
    {"keys", (PyCFunction)store_keys, METH_NOARGS, "keys() -> list[str]: the origin keys, in order."},
    {"close", (PyCFunction)store_close, METH_NOARGS, "close(): closes the store (idempotent)."},
    {"__enter__", (PyCFunction)store_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)store_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

static PySequenceMethods store_as_sequence = {.sq_length = (lenfunc)store_len};

PyDoc_STRVAR(store_doc,
"Store(path, readonly=False, map_size=0, no_sync=False)\n--\n\n"
"An LMDB store of compiled robots.txt programs keyed by origin (the store\n"
"that `robotsc store build` writes). Store(path).allowed(url, agent) routes\n"
"a URL to its origin's record, verifies it and answers. Records read from\n"
"the file are verified, never trusted. Usable as a context manager.");

static PyTypeObject StoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "robotsc.Store",
    .tp_basicsize = sizeof(StoreObject),
    .tp_dealloc = (destructor)store_dealloc,
    .tp_as_sequence = &store_as_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = store_doc,
    .tp_weaklistoffset = offsetof(StoreObject, weakrefs),
    .tp_methods = store_methods,
    .tp_new = store_new,
};
#endif /* RSC_HAVE_STORE */

/* ---- module ------------------------------------------------------------ */

static PyMethodDef module_methods[] = {
    {"compile", (PyCFunction)(void (*)(void))py_compile, METH_VARARGS | METH_KEYWORDS, compile_doc},
    {"origin", py_origin, METH_O, origin_doc},
    {"is_robots_url", py_is_robots_url, METH_O, is_robots_url_doc},
    {"status_policy", (PyCFunction)(void (*)(void))py_status_policy, METH_VARARGS | METH_KEYWORDS, status_policy_doc},
    {"cache_ttl", py_cache_ttl, METH_VARARGS, cache_ttl_doc},
    {"agent_token", py_agent_token, METH_O, agent_token_doc},
    {NULL, NULL, 0, NULL}};

static PyStructSequence_Field explanation_fields[] = {
    {"allowed", "the verdict"}, {"line", "source line of the deciding rule, 0 when none"},
    {"pattern", "the deciding rule's escaped pattern, None when none"},
    {"decided", "True when a rule decided"}, {"rule", "'allow', 'disallow' or None"},
    {"priority", "the rule's priority (spec E.6)"}, {NULL, NULL}};
static PyStructSequence_Desc explanation_desc = {
    "robotsc.Explanation", "Why a URL is allowed or not.", explanation_fields, 3};

static PyStructSequence_Field origin_fields[] = {
    {"key", "canonical origin, the cache key"}, {"robots_url", "key + '/robots.txt'"},
    {"scheme", "http, https or ftp"}, {"host", "lower-case ASCII host"},
    {"port", "effective port"}, {"default_port", "True when the scheme's default"},
    {NULL, NULL}};
static PyStructSequence_Desc origin_desc = {
    "robotsc.Origin", "The origin of a URL and its robots.txt.", origin_fields, 2};

static PyStructSequence_Field policy_fields[] = {
    {"policy", "'parse', 'allow-all' or 'disallow-all'"},
    {"definite", "True when the answer may be cached as the last good copy"},
    {"body", "the text to compile"}, {"reason", "why"}, {NULL, NULL}};
static PyStructSequence_Desc policy_desc = {
    "robotsc.Policy", "What to compile for a fetch outcome.", policy_fields, 4};

static PyStructSequence_Field directive_fields[] = {
    {"line", "source line"}, {"key", "the key as written"},
    {"value", "the value, escaped per spec D"}, {NULL, NULL}};
static PyStructSequence_Desc directive_desc = {
    "robotsc.Directive", "An unknown directive (crawl-delay, host, ...).", directive_fields, 3};

static PyStructSequence_Field diagnostic_fields[] = {
    {"line", "source line, 0 for the whole file"}, {"name", "warning name, e.g. 'typo'"},
    {"message", "human-readable text"}, {"detail", "extra text or None"}, {NULL, NULL}};
static PyStructSequence_Desc diagnostic_desc = {
    "robotsc.Diagnostic", "A lint warning found while compiling.", diagnostic_fields, 4};

static PyStructSequence_Field request_rate_fields[] = {
    {"requests", "requests"}, {"seconds", "per this many seconds"}, {NULL, NULL}};
static PyStructSequence_Desc request_rate_desc = {
    "robotsc.RequestRate", "A Request-rate value.", request_rate_fields, 2};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "robotsc._robotsc",
    "robotsc: robots.txt compiled to verified bytecode, Google's exact verdicts.",
    -1, module_methods, NULL, NULL, NULL, NULL};

static int add_obj(PyObject *m, const char *name, PyObject *o)
{
    if (!o)
        return -1;
    if (PyModule_AddObject(m, name, o) < 0) {
        Py_DECREF(o);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__robotsc(void);
PyMODINIT_FUNC PyInit__robotsc(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    struct {
        PyTypeObject *t;
        PyStructSequence_Desc *d;
    } seqs[] = {{&ExplanationType, &explanation_desc}, {&OriginType, &origin_desc},
                {&PolicyType, &policy_desc}, {&DirectiveType, &directive_desc},
                {&DiagnosticType, &diagnostic_desc}, {&RequestRateType, &request_rate_desc}};
    for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
        if (seqs[i].t->tp_name == NULL && PyStructSequence_InitType2(seqs[i].t, seqs[i].d) < 0)
            goto fail;
        const char *dot = strrchr(seqs[i].d->name, '.');
        if (add_obj(m, dot + 1, Py_NewRef((PyObject *)seqs[i].t)) < 0)
            goto fail;
    }
    if (PyType_Ready(&RobotsType) < 0 || add_obj(m, "Robots", Py_NewRef((PyObject *)&RobotsType)) < 0)
        goto fail;
    Error = PyErr_NewExceptionWithDoc("robotsc.Error",
        "Base of robotsc's errors: .status (int), .status_name, .offset (int or None), .reason.",
        NULL, NULL);
    if (add_obj(m, "Error", Py_XNewRef(Error)) < 0)
        goto fail;
    PyObject *bases = Py_BuildValue("(OO)", Error, PyExc_ValueError);
    BlobError = bases ? PyErr_NewExceptionWithDoc("robotsc.BlobError",
        "A blob failed verification: .status, .status_name, .offset (byte), .reason.",
        bases, NULL) : NULL;
    URLError = bases ? PyErr_NewExceptionWithDoc("robotsc.URLError",
        "A URL has no robots.txt: .status and .status_name say why.", bases, NULL) : NULL;
    Py_XDECREF(bases);
    CompileError = PyErr_NewExceptionWithDoc("robotsc.CompileError",
        "A body could not be compiled (a documented limit): .status.", Error, NULL);
    AgentWarning = PyErr_NewExceptionWithDoc("robotsc.AgentWarning",
        "A crawler's name that is not a product token: answered as Google answers it (the '*' group).",
        PyExc_UserWarning, NULL);
    if (add_obj(m, "AgentWarning", Py_XNewRef(AgentWarning)) < 0 ||
        add_obj(m, "BlobError", Py_XNewRef(BlobError)) < 0 ||
        add_obj(m, "URLError", Py_XNewRef(URLError)) < 0 ||
        add_obj(m, "CompileError", Py_XNewRef(CompileError)) < 0)
        goto fail;
#ifdef RSC_HAVE_STORE
    if (PyType_Ready(&StoreType) < 0 || add_obj(m, "Store", Py_NewRef((PyObject *)&StoreType)) < 0)
        goto fail;
    StoreError = PyErr_NewExceptionWithDoc("robotsc.StoreError",
        "A store operation failed: .status and .status_name (rsc_store_status).", Error, NULL);
    bases = StoreError ? Py_BuildValue("(OO)", StoreError, PyExc_KeyError) : NULL;
    StoreKeyError = bases ? PyErr_NewExceptionWithDoc("robotsc.StoreKeyError",
        "The store has no record for the origin (a KeyError).", bases, NULL) : NULL;
    Py_XDECREF(bases);
    if (add_obj(m, "StoreError", Py_XNewRef(StoreError)) < 0 ||
        add_obj(m, "StoreKeyError", Py_XNewRef(StoreKeyError)) < 0)
        goto fail;
#endif
    if (PyModule_AddStringConstant(m, "__version__", ROBOTSC_PY_VERSION) < 0)
        goto fail;
    if (PyModule_AddStringConstant(m, "library_version", rsc_version()) < 0)
        goto fail;
    if (PyModule_AddIntConstant(m, "MAX_BODY", RSC_MAX_BODY) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
