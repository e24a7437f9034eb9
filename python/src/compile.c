/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc.compile() and the compilation Robots.parse() shares. */
#include "robotsc_py.h"

#include <stdlib.h>
#include <string.h>

typedef struct diag_ctx {
    PyObject *list;
    int failed;
} diag_ctx;

static void on_diag(void *ud, const rsc_diagnostic *d)
{
    diag_ctx *c = ud;
    if (c->failed)
        return;
    PyObject *items[4] = {PyLong_FromUnsignedLong(d->line), PyUnicode_FromString(rsc_warning_name(d->warning)),
                          PyUnicode_FromString(rsc_warning_message(d->warning)),
                          d->detail ? str_from(d->detail, d->detail_len) : Py_NewRef(Py_None)};
    PyObject *t = struct_seq(&DiagnosticType, items, 4);
    if (!t) {
        c->failed = 1;
        return;
    }
    if (PyList_Append(c->list, t) < 0)
        c->failed = 1;
    Py_DECREF(t);
}

/* Compiles body into a new bytes object. diags (nullable) receives
 * Diagnostic records. */
PyObject *compile_body(PyObject *body, rsc_profile profile, PyObject *diags)
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

const char compile_doc[] = PyDoc_STR(
"compile($module, /, body, profile='google', *, diagnostics=None)\n--\n\n-> bytes. "
"Compiles a robots.txt body (bytes-like, or str encoded as UTF-8) to a\n"
"verified blob for Robots(). profile is 'google' (Google's verdicts) or\n"
"'rfc'. When diagnostics is a list, the lint warnings found while\n"
"compiling are appended to it as Diagnostic(line, name, message, detail).\n"
"Raises CompileError (with .status) when a documented limit is exceeded.");

PyObject *py_compile(PyObject *self, PyObject *args, PyObject *kw)
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
