/* SPDX-License-Identifier: Apache-2.0 */
/* Robots.diff() and Robots.lint(): marshalling of rsc_diff() and
 * rsc_lint()/rsc_semlint() (include/robotsc/compiler.h); no logic of
 * their own. */
#include "diff.h"

#include <string.h>

#include "robotsc/compiler.h"
#include "robotsc/ir.h"

static int add_agent(PyObject *list, const char *p, size_t n)
{
    PyObject *s = PyUnicode_DecodeLatin1(p, (Py_ssize_t)n, NULL);
    if (!s)
        return -1;
    int has = PySequence_Contains(list, s);
    int r = has < 0 ? -1 : has ? 0 : PyList_Append(list, s);
    Py_DECREF(s);
    return r;
}

static PyObject *diff_one(const rsc_program *a, const rsc_program *b, PyObject *agent, Py_ssize_t wit,
                          Py_ssize_t max_states, const char **outcome)
{
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(agent, &n);
    if (!s)
        return NULL;
    rsc_bytes ag = {s, (size_t)n};
    rsc_selection sa, sb;
    if (rsc_select(a, &ag, 1, &sa) != RSC_OK || rsc_select(b, &ag, 1, &sb) != RSC_OK) {
        PyErr_Format(PyExc_ValueError, "agent %R: cannot select", agent);
        return NULL;
    }
    rsc_explore_options o;
    memset(&o, 0, sizeof o);
    o.max_states = (size_t)max_states;
    rsc_diff_result r;
    rsc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = rsc_diff(&sa, &sb, (size_t)wit, &o, &r);
    Py_END_ALLOW_THREADS
    if (st != RSC_OK) {
        rsc_diff_result_free(&r, &o);
        if (st == RSC_E_NOMEM)
            return PyErr_NoMemory();
        PyErr_Format(PyExc_ValueError, "diff failed: %s", rsc_strerror(st));
        return NULL;
    }
    *outcome = r.outcome == RSC_DIFF_SAME ? "same" : r.outcome == RSC_DIFF_DIFFERENT ? "different" : "unknown";
    PyObject *flips = PyList_New(0);
    for (size_t k = 0; flips && k < r.n_flips; k++) {
        const rsc_flip *f = &r.flips[k];
        PyObject *t = Py_BuildValue("(y#OOkk)", f->path, (Py_ssize_t)f->len, f->old_allowed ? Py_True : Py_False,
                                    f->new_allowed ? Py_True : Py_False, (unsigned long)f->old_line,
                                    (unsigned long)f->new_line);
        if (!t || PyList_Append(flips, t) < 0) {
            Py_XDECREF(t);
            Py_CLEAR(flips);
            break;
        }
        Py_DECREF(t);
    }
    PyObject *d = flips ? Py_BuildValue("{s:s,s:O,s:n,s:O,s:N}", "outcome", *outcome, "complete",
                                        r.complete ? Py_True : Py_False, "states", (Py_ssize_t)r.states, "more",
                                        r.more ? Py_True : Py_False, "flips", flips)
                        : NULL;
    rsc_diff_result_free(&r, &o);
    return d;
}

PyObject *rsc_py_diff(const rsc_program *a, const rsc_program *b, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"other", "agents", "witnesses", "max_states", NULL};
    PyObject *other, *agents = Py_None;
    Py_ssize_t wit = 5, max_states = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|Onn:diff", kwlist, &other, &agents, &wit, &max_states))
        return NULL;
    if (wit < 1 || max_states < 0) {
        PyErr_SetString(PyExc_ValueError, "witnesses must be >= 1 and max_states >= 0");
        return NULL;
    }
    if (rsc_program_profile(a) != rsc_program_profile(b)) {
        PyErr_SetString(PyExc_ValueError, "the two files were compiled with different profiles");
        return NULL;
    }
    PyObject *list = PyList_New(0);
    if (!list)
        return NULL;
    if (agents != Py_None) {
        PyObject *it = PyObject_GetIter(agents);
        PyObject *x;
        while (it && (x = PyIter_Next(it)) != NULL) {
            int bad = !PyUnicode_Check(x) || PyList_Append(list, x) < 0;
            if (bad && !PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "agents must be str");
            Py_DECREF(x);
            if (bad)
                break;
        }
        Py_XDECREF(it);
    } else {
        for (int s = 0; s < 2 && !PyErr_Occurred(); s++) {
            rsc_bytes t;
            for (size_t i = 0; rsc_blob_agent(s ? b : a, i, &t); i++)
                if (t.len && add_agent(list, t.ptr, t.len) < 0)
                    break;
        }
        if (!PyErr_Occurred() && PyList_Sort(list) == 0)
            add_agent(list, "*", 1); /* names no group: any other agent */
    }
    if (PyErr_Occurred()) {
        Py_DECREF(list);
        return NULL;
    }
    PyObject *per = PyDict_New();
    int any_diff = 0, any_unknown = 0;
    for (Py_ssize_t i = 0; per && i < PyList_GET_SIZE(list); i++) {
        const char *oc = "same";
        PyObject *d = diff_one(a, b, PyList_GET_ITEM(list, i), wit, max_states, &oc);
        if (!d || PyDict_SetItem(per, PyList_GET_ITEM(list, i), d) < 0) {
            Py_XDECREF(d);
            Py_CLEAR(per);
            break;
        }
        Py_DECREF(d);
        any_diff |= oc[0] == 'd';
        any_unknown |= oc[0] == 'u';
    }
    Py_DECREF(list);
    if (!per)
        return NULL;
    return Py_BuildValue("{s:s,s:N}", "outcome", any_diff ? "different" : any_unknown ? "unknown" : "same",
                         "agents", per);
}

/* ---- lint ---------------------------------------------------------------- */

typedef struct lint_ctx {
    PyObject *list;
    int failed;
} lint_ctx;

static void put(lint_ctx *c, unsigned long line, const char *sev, const char *code, const char *msg,
                const char *detail, size_t dl, unsigned long other)
{
    if (c->failed)
        return;
    PyObject *det = detail && dl ? PyUnicode_DecodeLatin1(detail, (Py_ssize_t)dl, NULL) : Py_NewRef(Py_None);
    PyObject *d = det ? Py_BuildValue("{s:k,s:s,s:s,s:s,s:N,s:k}", "line", line, "severity", sev, "code", code,
                                      "message", msg, "detail", det, "other_line", other)
                      : NULL;
    if (!d || PyList_Append(c->list, d) < 0)
        c->failed = 1;
    Py_XDECREF(d);
}

static void on_syntax(void *ud, const rsc_diagnostic *d)
{
    put(ud, d->line, "warning", rsc_warning_name(d->warning), rsc_warning_message(d->warning), d->detail,
        d->detail_len, 0);
}

static void on_semantic(void *ud, const rsc_semdiag *d)
{
    put(ud, d->line, rsc_semlint_severity(d->code) >= 2 ? "warning" : "note", rsc_semlint_name(d->code),
        rsc_semlint_message(d->code), d->detail, d->detail_len, d->other);
}

PyObject *rsc_py_lint(PyObject *cls, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"body", "profile", "semantic", NULL};
    Py_buffer body;
    const char *prof = "google";
    int semantic = 1;
    (void)cls;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s*|sp:lint", kwlist, &body, &prof, &semantic))
        return NULL;
    rsc_parse_options po;
    memset(&po, 0, sizeof po);
    if (strcmp(prof, "rfc") == 0)
        po.profile = RSC_PROFILE_RFC;
    else if (strcmp(prof, "google") != 0) {
        PyBuffer_Release(&body);
        PyErr_SetString(PyExc_ValueError, "profile must be 'google' or 'rfc'");
        return NULL;
    }
    rsc_ir *ir = NULL;
    rsc_status st = rsc_parse(body.buf, (size_t)body.len, &po, &ir);
    PyBuffer_Release(&body);
    if (st != RSC_OK)
        return st == RSC_E_NOMEM ? PyErr_NoMemory() : PyErr_Format(PyExc_ValueError, "%s", rsc_strerror(st));
    lint_ctx c = {PyList_New(0), 0};
    if (!c.list) {
        rsc_ir_free(ir);
        return NULL;
    }
    rsc_lint(ir, on_syntax, &c);
    if (semantic && !c.failed && rsc_semlint(ir, NULL, on_semantic, &c) == RSC_E_NOMEM && !c.failed) {
        rsc_ir_free(ir);
        Py_DECREF(c.list);
        return PyErr_NoMemory();
    }
    rsc_ir_free(ir);
    if (c.failed) {
        Py_DECREF(c.list);
        return NULL;
    }
    return c.list;
}
