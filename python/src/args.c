/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc._robotsc: errors, arguments and the crawler's name, shared by
 * the module's functions and types (robotsc_py.h). */
#include "robotsc_py.h"

#include <stdlib.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------ */

/* Raises type(msg) with .status, .status_name, .offset (None when
 * negative) and .reason attributes. Returns NULL. */
PyObject *raise_status(PyObject *type, const char *msg, int status,
                       const char *status_name, Py_ssize_t offset, const char *reason)
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

PyObject *raise_rsc(PyObject *type, const char *what, rsc_status st)
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

PyObject *struct_seq(PyTypeObject *type, PyObject **items, int n)
{
    PyObject *t = PyStructSequence_New(type);
    int bad = t == NULL;
    for (int i = 0; i < n; i++)
        bad |= items[i] == NULL;
    if (bad) {
        for (int i = 0; i < n; i++)
            Py_XDECREF(items[i]);
        if (t) {
            for (int i = 0; i < n; i++)
                PyStructSequence_SET_ITEM(t, i, Py_NewRef(Py_None));
            Py_DECREF(t);
        }
        return NULL;
    }
    for (int i = 0; i < n; i++)
        PyStructSequence_SET_ITEM(t, i, items[i]);
    return t;
}

/* ---- argument helpers -------------------------------------------------- */

int get_text(PyObject *o, text_arg *t, const char *what)
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

void release_text(text_arg *t)
{
    if (t->held) {
        PyBuffer_Release(&t->view);
        t->held = 0;
    }
}

int parse_profile(PyObject *o, rsc_profile *p)
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

PyObject *str_from(const char *p, size_t n)
{
    return PyUnicode_DecodeUTF8(p ? p : "", (Py_ssize_t)n, "surrogateescape");
}

int refuse_one_url(PyObject *urls, const char *method)
{
    /* A str or bytes-like object iterates its characters (or ints): taken
     * for a list it gave one verdict a character. */
    if (PyUnicode_Check(urls) || PyBytes_Check(urls) || PyByteArray_Check(urls) || PyMemoryView_Check(urls)) {
        PyErr_Format(PyExc_TypeError, "%s() takes an iterable of URLs (a list), not one %.50s: "
                     "pass [url], or call allowed(url, ...)", method, Py_TYPE(urls)->tp_name);
        return -1;
    }
    return 0;
}

/* ---- the crawler's name ------------------------------------------------ */

void agents_release(agent_args *a)
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

int is_none(PyObject *o)
{
    return o == NULL || o == Py_None;
}

/* Fills *a; 0, or -1 with an exception (agents_release() done). */
int agents_get(PyObject *agent, PyObject *ua, agent_args *a)
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
