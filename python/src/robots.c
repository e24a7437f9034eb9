/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc.Robots: a verified blob, its selections and verdicts. */
#include "robotsc_py.h"
#include "diff.h" /* Robots.diff, Robots.lint */

#include <stdlib.h>
#include <string.h>

struct RobotsObject {
    PyObject_HEAD
    Py_buffer view; /* held for the program's lifetime */
    int has_view;
    int zero_copy;
    rsc_program prog;
    PyObject *sel_key; /* agent of the cached selection (str/bytes), or NULL */
    int sel_ua;        /* 1: sel_key was given as user_agent */
    rsc_selection sel;
    PyObject *weakrefs;
};

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

RobotsObject *robots_from_buffer(PyTypeObject *type, PyObject *blob)
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
    if (r->has_view)
        PyBuffer_Release(&r->view);
    Py_TYPE(r)->tp_free((PyObject *)r);
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
    /* rsc_select() gave a selection that runs the blob's DFA when its rule
     * set has one (format 5): nothing to build here. */
    memcpy(&r->sel, tmp, sizeof *tmp);
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
    PyObject *items[6];
    items[0] = PyBool_FromLong(m.allowed);
    items[1] = PyLong_FromUnsignedLong(m.decided ? m.line : 0);
    items[2] = m.decided && m.pattern ? str_from(m.pattern, m.pattern_len) : Py_NewRef(Py_None);
    items[3] = PyBool_FromLong(m.decided);
    items[4] = m.decided ? PyUnicode_FromString(m.rule_allow ? "allow" : "disallow") : Py_NewRef(Py_None);
    items[5] = PyLong_FromUnsignedLong(m.decided ? m.priority : 0);
    return struct_seq(&ExplanationType, items, 6);
}

PyDoc_STRVAR(allowed_many_doc,
"allowed_many($self, /, urls, agent=None, out=None, *, user_agent=None)\n--\n\n-> list[bool] | out. "
"Verdicts for an iterable of URLs (str or bytes) for one agent, matched\n"
"without the GIL (one URL as a str or bytes raises TypeError: pass [url]). With out (a writable buffer of at least len(urls)\n"
"bytes) the verdicts are written there as 1/0 and out is returned.");

static PyObject *robots_allowed_many(RobotsObject *r, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"urls", "agent", "out", "user_agent", NULL};
    PyObject *urls, *agent = NULL, *out = NULL, *ua = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO$O:allowed_many", kwlist, &urls, &agent, &out, &ua))
        return NULL;
    if (out == Py_None)
        out = NULL;
    if (refuse_one_url(urls, "allowed_many") < 0)
        return NULL;
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

/* The selection for the arguments (agent=None, *, user_agent=None) of
 * crawl_delay() and request_rate(); fmt names the method in errors. NULL
 * with an exception. */
static const rsc_selection *robots_select_args(RobotsObject *r, PyObject *args, PyObject *kw, const char *fmt,
                                               rsc_selection *tmp)
{
    static char *kwlist[] = {"agent", "user_agent", NULL};
    PyObject *agent = NULL, *ua = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &agent, &ua))
        return NULL;
    return robots_select(r, agent, ua, tmp);
}

PyDoc_STRVAR(crawl_delay_doc,
"crawl_delay($self, /, agent=None, *, user_agent=None)\n--\n\n-> float | None. "
"Crawl-delay in seconds of the groups that apply to agent (the global\n"
"groups when none names it), or None when there is none.");

static PyObject *robots_crawl_delay(RobotsObject *r, PyObject *args, PyObject *kw)
{
    rsc_selection tmp;
    const rsc_selection *sel = robots_select_args(r, args, kw, "|O$O:crawl_delay", &tmp);
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
    rsc_selection tmp;
    const rsc_selection *sel = robots_select_args(r, args, kw, "|O$O:request_rate", &tmp);
    if (!sel)
        return NULL;
    uint32_t req = 0;
    double secs = 0;
    int have = rsc_request_rate(sel, &req, &secs) == 1;
    if (!have)
        Py_RETURN_NONE;
    PyObject *items[2] = {PyLong_FromUnsignedLong(req), PyFloat_FromDouble(secs)};
    return struct_seq(&RequestRateType, items, 2);
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
        PyObject *items[3] = {PyLong_FromUnsignedLong(line), str_from(k.ptr, k.len), str_from(v.ptr, v.len)};
        PyObject *t = struct_seq(&DirectiveType, items, 3);
        if (!t) {
            Py_CLEAR(list);
            break;
        }
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

PyTypeObject RobotsType = {
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
