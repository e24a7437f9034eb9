/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc.origin(), is_robots_url(), status_policy(), cache_ttl(),
 * agent_token(): what a crawler asks around a robots.txt. */
#include "robotsc_py.h"

#include <stdlib.h>
#include <string.h>

const char origin_doc[] = PyDoc_STR(
"origin($module, url, /)\n--\n\n-> Origin. "
"The robots.txt that governs url (spec I): Origin(key, robots_url) with\n"
".scheme, .host (punycode, lower case), .port and .default_port. Two URLs\n"
"share a robots.txt iff their keys are equal. Raises URLError (.status,\n"
".status_name) for relative URLs, other schemes, bad hosts or ports.");

PyObject *py_origin(PyObject *self, PyObject *arg)
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
    PyObject *items[6] = {
        PyUnicode_FromStringAndSize(o.key, (Py_ssize_t)o.key_len),
        PyUnicode_FromStringAndSize(o.robots_url, (Py_ssize_t)o.robots_url_len),
        PyUnicode_FromString(o.scheme), PyUnicode_FromString(o.host),
        PyLong_FromLong(o.port), PyBool_FromLong(o.default_port)};
    return struct_seq(&OriginType, items, 6);
}

const char is_robots_url_doc[] = PyDoc_STR(
"is_robots_url($module, url, /)\n--\n\n-> bool. "
"True when url is itself a robots.txt that crawlers read (path exactly\n"
"/robots.txt of an http, https or ftp URL).");

PyObject *py_is_robots_url(PyObject *self, PyObject *arg)
{
    (void)self;
    text_arg t;
    if (get_text(arg, &t, "url") < 0)
        return NULL;
    int r = rsc_url_is_robots(t.ptr, t.len);
    release_text(&t);
    return PyBool_FromLong(r);
}

const char status_policy_doc[] = PyDoc_STR(
"status_policy($module, /, status, error=None, body=b'')\n--\n\n-> Policy. "
"What to compile after fetching a robots.txt (spec I): status is the HTTP\n"
"status of the final response (0 when none); error is None, 'network',\n"
"'timeout' or 'redirects'. Returns Policy(policy, definite, body, reason):\n"
"policy is 'parse', 'allow-all' or 'disallow-all', body the text to\n"
"compile, definite True when the answer may be cached as a good copy.");

PyObject *py_status_policy(PyObject *self, PyObject *args, PyObject *kw)
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
    PyObject *items[4] = {PyUnicode_FromString(rsc_policy_name(pr.policy)),
                          PyBool_FromLong(pr.definite),
                          PyBytes_FromStringAndSize(pr.body, (Py_ssize_t)pr.body_len),
                          PyUnicode_FromString(pr.reason ? pr.reason : "")};
    release_text(&t); /* pr.body points into it: after the copy */
    return struct_seq(&PolicyType, items, 4);
}

const char cache_ttl_doc[] = PyDoc_STR(
"cache_ttl($module, cache_control=None, /)\n--\n\n-> int. "
"Seconds a definite robots.txt answer may be cached given its\n"
"Cache-Control header value (spec I defaults: 24 h, at least 60 s,\n"
"at most 30 days).");

PyObject *py_cache_ttl(PyObject *self, PyObject *args)
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

const char agent_token_doc[] = PyDoc_STR(
"agent_token($module, user_agent, /)\n--\n\n-> str. "
"The product token that allowed() compares with the file's user-agent\n"
"lines: 'Googlebot' for 'Googlebot/2.1' or a full User-Agent header.");

PyObject *py_agent_token(PyObject *self, PyObject *arg)
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
