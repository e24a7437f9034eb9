/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc.Store: the LMDB store of compiled programs (store/), when the
 * extension is built with it (RSC_HAVE_STORE). */
#include "robotsc_py.h"

#include <stdlib.h>
#include <string.h>

#ifdef RSC_HAVE_STORE

/* Every call opens and ends its own read transaction, under the GIL: the
 * store's program cache is per thread and the GIL is that thread. */
typedef struct StoreObject {
    PyObject_HEAD
    rsc_store *st;
    rsc_store_cache *cache; /* for the agents of the latest call (store.h) */
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

/* StoreError for a URL that rsc_store_check() found no origin in
 * (RSC_STORE_E_KEY): the reason of rsc_origin_parse(), as the CLI gives
 * it ("relative URL: no scheme, so no robots.txt"), not the store's "not a
 * canonical origin key", which is about keys. */
static PyObject *raise_url(const char *url, size_t len)
{
    rsc_origin o;
    rsc_url_status us = rsc_origin_parse(url, len, &o);
    const char *why = us != RSC_URL_OK ? rsc_url_strerror(us) : "URL has no robots.txt";
    PyObject *msg = PyUnicode_FromFormat("cannot check the URL: %s", why);
    if (!msg)
        return NULL;
    raise_status(StoreError, PyUnicode_AsUTF8(msg), RSC_STORE_E_KEY, rsc_store_strerror(RSC_STORE_E_KEY), -1,
                 why);
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

/* The key argument of get() and delete(), on an open store: 0, or -1
 * with an exception. */
static int store_key(StoreObject *s, PyObject *arg, text_arg *k)
{
    return store_open_check(s) < 0 ? -1 : get_text(arg, k, "key");
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
"allowed_many($self, /, urls, agent=None, now=0, *, user_agent=None, missing=None, error=None)\n--\n\n"
"-> list[bool | missing | error]. Store.allowed for every URL of an\n"
"iterable (any origins; one URL as a str or bytes raises TypeError), in one\n"
"read transaction. A URL that allowed() would raise StoreError for (no\n"
"robots.txt, a damaged or stale record) gets error (None by default: no\n"
"verdict, as a missing record) and the other URLs are answered; errors\n"
"of the store itself (I/O, memory) raise.");

/* The program cache (created at the first check; NULL when memory is
 * short: every check is then uncached). It keeps the selections of the
 * agents of the latest call and empties itself for other agents
 * (rsc_store_check), so any agent, list or user_agent= shares it. */
static rsc_store_cache *store_cache(StoreObject *s)
{
    if (!s->cache)
        s->cache = rsc_store_cache_new(256, 0);
    return s->cache;
}

/* A status rsc_store_check() gives for one URL (its origin or record),
 * not for the store or the call. */
static int url_error(rsc_store_status st)
{
    return st == RSC_STORE_E_KEY || st == RSC_STORE_E_DAMAGED || st == RSC_STORE_E_BLOB ||
           st == RSC_STORE_E_STALE;
}

/* allowed() and allowed_many(): urls is one URL (many == 0) or an
 * iterable of them; error (many only) is the value of a URL with an
 * error of its own. */
static PyObject *store_check_urls(StoreObject *s, PyObject *urls, int many, PyObject *agent, PyObject *ua,
                                  long long now, PyObject *missing, PyObject *error)
{
    if (store_open_check(s) < 0)
        return NULL;
    if (many && refuse_one_url(urls, "allowed_many") < 0)
        return NULL;
    if (!missing)
        missing = Py_None;
    if (!error)
        error = Py_None;
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
    rsc_store_cache *cache = store_cache(s);
    rsc_store_txn *t = NULL;
    rsc_store_status st = rsc_store_begin(s->st, &t);
    PyObject *bad_url = NULL; /* allowed(): the URL of an E_KEY */
    for (Py_ssize_t i = 0; st == RSC_STORE_OK && i < PyTuple_GET_SIZE(tup); i++) {
        text_arg u;
        if (get_text(PyTuple_GET_ITEM(tup, i), &u, "url") < 0) {
            Py_CLEAR(out);
            break;
        }
        int verdict = 0;
        st = rsc_store_check(t, cache, a.names, (size_t)a.n, u.ptr, u.len, (int64_t)now, &verdict);
        if (st == RSC_STORE_E_KEY && !many)
            bad_url = PyBytes_FromStringAndSize(u.ptr, (Py_ssize_t)u.len);
        release_text(&u);
        if (st == RSC_STORE_NOTFOUND) {
            st = RSC_STORE_OK;
            PyList_SET_ITEM(out, i, Py_NewRef(missing));
        } else if (st == RSC_STORE_OK) {
            PyList_SET_ITEM(out, i, PyBool_FromLong(verdict == RSC_STORE_ALLOW));
        } else if (many && url_error(st)) {
            /* this URL's own error: its entry, and on with the others */
            st = RSC_STORE_OK;
            PyList_SET_ITEM(out, i, Py_NewRef(error));
        }
    }
    rsc_store_end(t);
    agents_release(&a);
    Py_DECREF(tup);
    if (!out) {
        Py_XDECREF(bad_url);
        return NULL;
    }
    if (st != RSC_STORE_OK) {
        Py_DECREF(out);
        if (bad_url) {
            raise_url(PyBytes_AS_STRING(bad_url), (size_t)PyBytes_GET_SIZE(bad_url));
            Py_DECREF(bad_url);
            return NULL;
        }
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
    return store_check_urls(s, url, 0, agent, ua, now, missing, NULL);
}

static PyObject *store_allowed_many(StoreObject *s, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"urls", "agent", "now", "user_agent", "missing", "error", NULL};
    PyObject *urls, *agent = NULL, *ua = NULL, *missing = NULL, *error = NULL;
    long long now = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OL$OOO:allowed_many", kwlist, &urls, &agent, &now, &ua,
                                     &missing, &error))
        return NULL;
    return store_check_urls(s, urls, 1, agent, ua, now, missing, error);
}

/* The metadata as a dict; expires None when the record never expires
 * (RSC_STORE_NEVER: the CLI's JSON null, what put(expires=None) writes). */
static PyObject *meta_dict(const rsc_store_meta *m)
{
    PyObject *expires = m->expires == RSC_STORE_NEVER ? Py_NewRef(Py_None) : PyLong_FromLongLong(m->expires);
    if (!expires)
        return NULL;
    return Py_BuildValue("{s:L,s:N,s:L,s:i,s:s,s:s,s:O,s:s,s:i,s:K,s:K,s:N,s:N,s:N}",
        "fetched_at", (long long)m->fetched_at, "expires", expires,
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
    text_arg k;
    if (store_key(s, arg, &k) < 0)
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
"(origin(url).key); blob a compiled blob (verified before it is stored;\n"
"robots.txt text raises StoreError: compile it with robotsc.compile()).\n"
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
    rsc_input_kind kind = st == RSC_STORE_E_NOTBLOB ? rsc_classify(b.ptr, b.len) : RSC_INPUT_BLOB;
    release_text(&k);
    release_text(&b);
    release_text(&src);
    if (st == RSC_STORE_E_NOTBLOB) {
        /* The store's text names the CLI and C; here the cure is Python's. */
        PyObject *msg = PyUnicode_FromFormat("cannot write the record: blob is %s, not a blob: "
                                             "compile it first (put(key, robotsc.compile(body)))",
                                             rsc_input_kind_what(kind));
        if (msg) {
            raise_status(StoreError, PyUnicode_AsUTF8(msg), st, rsc_store_strerror(st), -1,
                         rsc_input_kind_what(kind));
            Py_DECREF(msg);
        }
        return NULL;
    }
    if (st != RSC_STORE_OK)
        return raise_store(s, "cannot write the record", st);
    Py_RETURN_NONE;
}

static PyObject *store_delete(StoreObject *s, PyObject *arg)
{
    text_arg k;
    if (store_key(s, arg, &k) < 0)
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

PyTypeObject StoreType = {
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
