/* SPDX-License-Identifier: Apache-2.0 */
/* Robots.diff() and Robots.lint() (python/src/diff.c): the module file
 * passes the verified programs; nothing here knows its object layout. */
#ifndef ROBOTSC_PY_DIFF_H
#define ROBOTSC_PY_DIFF_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "robotsc/runtime.h"

/* Robots.diff(other, agents=None, witnesses=5, max_states=0): a dict. */
PyObject *rsc_py_diff(const rsc_program *old_prog, const rsc_program *new_prog, PyObject *args,
                      PyObject *kw);
/* Robots.lint(body, profile='google', semantic=True): a list of dicts. */
PyObject *rsc_py_lint(PyObject *cls, PyObject *args, PyObject *kw);

#define RSC_PY_DIFF_DOC                                                                      \
    "diff($self, /, other, agents=None, witnesses=5, max_states=0)\n--\n\n"                  \
    "Compares this file with other (a Robots of the same profile) exactly: for each agent\n" \
    "(agents, or every agent either file names, and '*' for any other agent) whether any\n" \
    "path's verdict changes, with a shortest witness path for each kind of change.\n"        \
    "Returns {'outcome': 'same'|'different'|'unknown', 'agents': {agent: {'outcome',\n"      \
    "'complete', 'states', 'flips': [(path, old_allowed, new_allowed, old_line,\n"           \
    "new_line), ...]}}}. 'unknown': the state budget ran out (never reported as 'same')."
#define RSC_PY_LINT_DOC                                                                      \
    "lint($type, /, body, profile='google', semantic=True)\n--\n\n"                          \
    "Lint of a robots.txt body (docs/LINT.md): a list of dicts with line, severity\n"        \
    "('warning' or 'note'), code, message, detail and other_line (dead-rule: the rule\n"     \
    "that always wins), syntax warnings first, then the semantic ones."

#endif
