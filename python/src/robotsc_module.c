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
 * selection are immutable, so the loop works on private copies.
 *
 * This file: the module's function table, result types, exceptions and
 * init; the rest is split by concern (robotsc_py.h says where). */
#include "robotsc_py.h"

#include <string.h>

#ifndef ROBOTSC_PY_VERSION
#define ROBOTSC_PY_VERSION "0"
#endif

PyObject *Error, *BlobError, *CompileError, *URLError, *AgentWarning;
#ifdef RSC_HAVE_STORE
PyObject *StoreError, *StoreKeyError;
#endif
PyTypeObject ExplanationType, OriginType, PolicyType, DirectiveType, DiagnosticType, RequestRateType;

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
