# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures: data directories and the C CLI (the reference for verdicts).

ROBOTSC_CLI names the `robotsc` program (the ctest passes the one it built);
without it, `robotsc` on PATH. Conformance data: tests/data/conformance, else
../shared/conformance; the corpus: ROBOTSC_SHARED_DIR/corpus or ../shared/corpus.
"""
import os
import shutil
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.path.abspath(os.environ.get("ROBOTSC_SHARED_DIR", os.path.join(ROOT, "..", "shared")))


def conformance_dir():
    for d in (os.path.join(ROOT, "tests", "data", "conformance"), os.path.join(SHARED, "conformance")):
        if os.path.exists(os.path.join(d, "google_cases.tsv")):
            return d
    return None


def corpus_dir():
    d = os.path.join(SHARED, "corpus")
    return d if os.path.isdir(os.path.join(d, "robots")) else None


@pytest.fixture(scope="session")
def conformance():
    d = conformance_dir()
    if d is None:
        pytest.fail("conformance vectors not found (tests/data/conformance)")
    return d


@pytest.fixture(scope="session")
def corpus():
    d = corpus_dir()
    if d is None:
        pytest.skip("shared corpus absent (%s/corpus): corpus tests skipped" % SHARED)
    return d


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("ROBOTSC_CLI") or shutil.which("robotsc")
    if not path or not os.access(path, os.X_OK):
        pytest.fail("the robotsc CLI is needed: set ROBOTSC_CLI to the built program")
    return path


def cli_run(cli, source_path, agents, urls, exact=True):
    """`robotsc check` for urls (bytes), one subprocess: (exit status, verdicts).
    exact: each agent is passed with --agent (the crawler's name as given,
    like Python's agent argument); else with --user-agent (reduced to its
    product token, like Python's user_agent=). URLs are arguments (an empty
    one is the path "/"; blank lines of a URL list on stdin are skipped)."""
    args = [cli, "check"]
    for a in agents:
        args += ["--agent" if exact else "--user-agent", a]
    args.append(source_path)
    args += [os.fsdecode(u) for u in urls]
    p = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, check=False)
    if p.returncode not in (0, 1):
        return p.returncode, p.stderr
    lines = p.stdout.split(b"\n")
    assert lines[-1] == b"" and len(lines) == len(urls) + 1, p.stdout[:200]
    out = []
    for line in lines[:-1]:
        verdict = line.split(b"\t", 1)[0]
        assert verdict in (b"allow", b"disallow"), line
        out.append(verdict == b"allow")
    return 0, out


def cli_check(cli, source_path, agents, urls, exact=True):
    """Verdicts of `robotsc check` (must succeed)."""
    rc, out = cli_run(cli, source_path, agents, urls, exact)
    assert rc == 0, out
    return out
