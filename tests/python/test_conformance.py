# SPDX-License-Identifier: Apache-2.0
"""Verdicts from Python equal the C CLI's (and the expected ones) on the
conformance vectors and on a sample of the real corpus."""
import base64
import glob
import os
import random
import re
import warnings

import pytest

import robotsc
from conftest import cli_check, cli_run


def load_cases(d):
    cases = []
    for path in sorted(glob.glob(os.path.join(d, "*_cases.tsv"))):
        if path.endswith("_helper_cases.tsv"):
            continue
        with open(path, "rb") as f:
            for line in f:
                cid, b64, agent, url, expected = line.rstrip(b"\r\n").split(b"\t")
                cases.append((cid.decode(), base64.b64decode(b64), agent, url, expected == b"1"))
    return cases


def test_conformance_vectors_equal_cli(conformance, cli, tmp_path):
    cases = load_cases(conformance)
    assert len(cases) > 200
    checked = with_token = 0
    for cid, body, agent, url, expected in cases:
        src = tmp_path / "robots.txt"
        src.write_bytes(body)
        blob = robotsc.compile(body)
        r = robotsc.Robots(blob)
        # A list of names is used as given, as the CLI's --agent is.
        py = r.allowed(url, [agent])
        assert py == expected, cid
        assert r.explain(url, [agent]).allowed == py, cid
        assert r.allowed_many([url], [agent]) == [py], cid
        if url.isascii() and agent.isascii():
            assert robotsc.Robots.parse(body).allowed(url.decode(), [agent.decode()]) == py, cid
        # The CLI on the text, and on the blob compiled by Python.
        blob_path = tmp_path / "robots.rbc"
        blob_path.write_bytes(blob)
        agent_arg = os.fsdecode(agent)
        assert cli_check(cli, str(src), [agent_arg], [url]) == [py], cid
        assert cli_check(cli, str(blob_path), [agent_arg], [url]) == [py], cid
        # A single string is the crawler's name as given too (an
        # AgentWarning when it is not a product token), as the CLI's --agent.
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            assert r.allowed(url, agent) == py, cid
        token = bool(re.fullmatch(rb"[A-Za-z_-]+", agent))
        assert any(issubclass(w.category, robotsc.AgentWarning) for w in seen) == (not token), cid
        # user_agent= reduces a User-Agent to its product token, as the
        # CLI's --user-agent does (which refuses a value without one).
        rc, out = cli_run(cli, str(src), [agent_arg], [url], exact=False)
        if rc == 0:
            assert r.allowed(url, user_agent=agent) == out[0], cid
            with_token += 1
        checked += 1
    assert checked == len(cases) and with_token > len(cases) // 2


GOOGLEBOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"


def sample_hosts(corpus, n):
    urls_dir = os.path.join(corpus, "urls")
    hosts = sorted(name for name in os.listdir(urls_dir)
                   if os.path.exists(os.path.join(corpus, "robots", name)))
    random.Random(13).shuffle(hosts)
    return hosts[:n]


def test_corpus_sample_equals_cli(corpus, cli):
    hosts = sample_hosts(corpus, 60)
    assert hosts, "no host has both a robots.txt and a URL list"
    total = 0
    for name in hosts:
        path = os.path.join(corpus, "robots", name)
        with open(os.path.join(corpus, "urls", name), "rb") as f:
            urls = [u for u in f.read().split(b"\n") if u][:200]
        with open(path, "rb") as f:
            r = robotsc.Robots.parse(f.read())
        for agent in ("Googlebot", "bingbot", "FooBot", GOOGLEBOT_UA):
            expected = cli_check(cli, path, [agent], urls, exact=False)
            assert r.allowed_many(urls, [robotsc.agent_token(agent)]) == expected, (name, agent)
            assert r.allowed_many(urls, agent) == expected, (name, agent)
            assert [r.allowed(u, agent) for u in urls] == expected, (name, agent)
            total += len(urls)
    assert total > 1000
