/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc._robotsc's private header: what its files share. The extension
 * is split by concern: robotsc_module.c (the module: its functions' table,
 * result types, exceptions, init), args.c (errors, str/bytes arguments, the
 * crawler's name), compile.c, robots.c (Robots), origin.c (origin and fetch
 * helpers), store.c (Store, with RSC_HAVE_STORE). Everything declared here
 * is hidden: the extension exports PyInit__robotsc only. */
#ifndef ROBOTSC_PY_H
#define ROBOTSC_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include "robotsc/compiler.h"
#include "robotsc/crawl.h"
#include "robotsc/runtime.h"
#ifdef RSC_HAVE_STORE
#include "robotsc/store.h"
#endif

#pragma GCC visibility push(hidden)

/* ---- robotsc_module.c: exceptions and result types ---------------------- */

extern PyObject *Error, *BlobError, *CompileError, *URLError, *AgentWarning;
#ifdef RSC_HAVE_STORE
extern PyObject *StoreError, *StoreKeyError;
#endif
extern PyTypeObject ExplanationType, OriginType, PolicyType, DirectiveType, DiagnosticType, RequestRateType;

/* ---- args.c ------------------------------------------------------------- */

/* Raises type(msg) with .status, .status_name, .offset (None when
 * negative) and .reason attributes. Returns NULL. */
PyObject *raise_status(PyObject *type, const char *msg, int status, const char *status_name, Py_ssize_t offset,
                       const char *reason);
/* Raises type("what: reason") for st (MemoryError for RSC_E_NOMEM). Returns NULL. */
PyObject *raise_rsc(PyObject *type, const char *what, rsc_status st);

/* A str (as UTF-8) or a bytes-like object. *view is released by the caller
 * with release_text() when *held is set. Returns 0, or -1 with TypeError. */
typedef struct text_arg {
    const char *ptr;
    size_t len;
    Py_buffer view;
    int held;
} text_arg;
int get_text(PyObject *o, text_arg *t, const char *what);
void release_text(text_arg *t);

/* -1 with TypeError when urls, the URL list of method (allowed_many), is
 * one URL (str, bytes, bytearray, memoryview); else 0. */
int refuse_one_url(PyObject *urls, const char *method);

/* A new struct sequence of type holding items[0..n) (references stolen,
 * NULL entries allowed): NULL when an item is NULL (its exception stands)
 * or on MemoryError, every item released. */
PyObject *struct_seq(PyTypeObject *type, PyObject **items, int n);

/* profile= ('google', 'rfc'; None or absent: google): 0, or -1 with an exception. */
int parse_profile(PyObject *o, rsc_profile *p);
/* p[0..n) as str, undecodable bytes as surrogate escapes (NULL p: ''). */
PyObject *str_from(const char *p, size_t n);

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

int is_none(PyObject *o);
/* Fills *a from agent= or user_agent= (one of the two); 0, or -1 with an
 * exception (agents_release() done). */
int agents_get(PyObject *agent, PyObject *ua, agent_args *a);
void agents_release(agent_args *a);

/* ---- compile.c ---------------------------------------------------------- */

/* Compiles body into a new bytes object. diags (nullable) receives
 * Diagnostic records. */
PyObject *compile_body(PyObject *body, rsc_profile profile, PyObject *diags);
extern const char compile_doc[];
PyObject *py_compile(PyObject *self, PyObject *args, PyObject *kw);

/* ---- robots.c ----------------------------------------------------------- */

typedef struct RobotsObject RobotsObject;
extern PyTypeObject RobotsType;
/* A Robots over blob (any bytes-like; writable ones copied) once it is
 * verified; NULL with BlobError (or another exception). */
RobotsObject *robots_from_buffer(PyTypeObject *type, PyObject *blob);

/* ---- origin.c ----------------------------------------------------------- */

extern const char origin_doc[], is_robots_url_doc[], status_policy_doc[], cache_ttl_doc[], agent_token_doc[];
PyObject *py_origin(PyObject *self, PyObject *arg);
PyObject *py_is_robots_url(PyObject *self, PyObject *arg);
PyObject *py_status_policy(PyObject *self, PyObject *args, PyObject *kw);
PyObject *py_cache_ttl(PyObject *self, PyObject *args);
PyObject *py_agent_token(PyObject *self, PyObject *arg);

/* ---- store.c ------------------------------------------------------------ */

#ifdef RSC_HAVE_STORE
extern PyTypeObject StoreType;
#endif

#pragma GCC visibility pop

#endif
