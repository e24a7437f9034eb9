# SPDX-License-Identifier: Apache-2.0
"""robotsc.Store over the LMDB store: written from Python or by
`robotsc store build`, answers like Robots and like `robotsc store check`."""
import os
import subprocess

import pytest

import robotsc

pytestmark = pytest.mark.skipif(not hasattr(robotsc, "Store"),
                                reason="the extension was built without the LMDB store")

FILES = {
    "a.example": b"User-agent: *\nDisallow: /private\n",
    "b.example": b"User-agent: googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    "c.example": b"",
}
URLS = ["/", "/private", "/private/x", "/public"]
AGENTS = ["Googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1)", "bingbot", ["googlebot", "x"]]


def test_put_get_allowed(tmp_path):
    path = str(tmp_path / "s.mdb")
    with robotsc.Store(path) as st:
        for host, body in FILES.items():
            st.put("https://" + host, robotsc.compile(body), source_url="https://%s/robots.txt" % host,
                   source=body, fetched_at=1000)
        assert len(st) == 3
        assert st.keys() == ["https://" + h for h in sorted(FILES)]
        for host, body in FILES.items():
            direct = robotsc.Robots.parse(body)
            robots, meta = st.get("https://" + host)
            assert bytes(robots.blob) == robotsc.compile(body)
            assert meta["source_url"] == "https://%s/robots.txt" % host
            assert meta["source_size"] == len(body) and meta["fetched_at"] == 1000
            assert meta["policy"] == "parse" and meta["has_copy"] is True
            for agent in AGENTS:
                for u in URLS:
                    url = "https://%s%s" % (host, u)
                    assert st.allowed(url, agent) == direct.allowed(url, agent), (url, agent)
        # No record: None (a crawler's common case: fetch robots.txt), or
        # the missing= value; never an exception, never a verdict.
        assert st.allowed("https://d.example/", "bot") is None
        marker = object()
        assert st.allowed("https://d.example/", "bot", missing=marker) is marker
        urls = ["https://a.example/private", "https://d.example/", "https://b.example/x.pdf"]
        assert st.allowed_many(urls, "bot") == [False, None, True]
        assert st.allowed_many(urls, "bot", missing="fetch") == [False, "fetch", True]
        assert st.allowed_many(iter(urls), user_agent="Mozilla/5.0 (compatible; bot/1.0)") == [
            False, None, True]
        assert st.allowed_many([], "bot") == []
        for agent in AGENTS:
            assert st.allowed_many(urls, agent) == [st.allowed(u, agent) for u in urls]
        with pytest.raises(robotsc.StoreError):
            st.allowed("mailto:x@y.z", "bot")
        # One bad URL does not discard the batch: its own entry is the
        # error= value (None by default, as a missing record: no verdict),
        # the others are answered.
        mixed = ["https://a.example/private", "mailto:x@y.z", "abc.go.com/x", "https://b.example/x"]
        assert st.allowed_many(mixed, "bot") == [False, None, None, True]
        err = object()
        assert st.allowed_many(mixed, "bot", error=err, missing="fetch") == [False, err, err, True]
        assert st.allowed_many(["https://d.example/"], "bot", error=err) == [None]
        # A URL without a scheme: the CLI's reason, not "not a canonical origin key".
        with pytest.raises(robotsc.StoreError, match="relative URL: no scheme"):
            st.allowed("abc.go.com/x", "bot")
        # One URL given where a list belongs.
        for one in ("https://a.example/x", b"https://a.example/x"):
            with pytest.raises(TypeError, match="list"):
                st.allowed_many(one, "bot")
        # The crawler's name as Robots.allowed takes it: as given, or
        # user_agent= for a User-Agent header.
        ua = "Mozilla/5.0 (compatible; Googlebot/2.1)"
        assert st.allowed("https://a.example/g", user_agent=ua) == \
            robotsc.Robots.parse(FILES["a.example"]).allowed("https://a.example/g", user_agent=ua)
        with pytest.raises(TypeError):
            st.allowed("https://a.example/g")
        with pytest.raises(robotsc.StoreError):
            st.put("https://A.example", robotsc.compile(b""))  # not canonical
        with pytest.raises(robotsc.StoreError):
            st.put("https://e.example", b"not a blob")
        # robots.txt text where the blob belongs: said so, with the cure.
        with pytest.raises(robotsc.StoreError) as e:
            st.put("https://e.example", FILES["a.example"])
        assert "not a blob" in str(e.value) and "robotsc.compile" in str(e.value), str(e.value)
        assert "damaged" not in str(e.value)
        with pytest.raises(robotsc.StoreError, match="robotsc.compile"):
            st.put("https://e.example", FILES["a.example"].decode())
        st.delete("https://c.example")
        with pytest.raises(KeyError):
            st.get("https://c.example")
        assert len(st) == 2
    with pytest.raises(ValueError):
        st.keys()  # closed


def test_expiry(tmp_path):
    with robotsc.Store(str(tmp_path / "s.mdb")) as st:
        st.put("https://a.example", robotsc.compile(FILES["a.example"]), expires=2000)
        st.put("https://b.example", robotsc.compile(FILES["b.example"]))
        # Never expires: None, as put() takes it and the CLI's JSON writes it.
        assert st.get("https://b.example")[1]["expires"] is None
        assert st.get("https://a.example")[1]["expires"] == 2000
        assert st.allowed("https://a.example/private", "x", now=1999) is False
        assert st.allowed("https://a.example/private", "x", now=2000) is None
        assert st.allowed_many(["https://a.example/private"], "x", now=2000, missing=0) == [0]


def test_cli_built_store_agrees_with_cli(cli, tmp_path):
    src = tmp_path / "robots"
    src.mkdir()
    for host, body in FILES.items():
        (src / (host + ".txt")).write_bytes(body)
    db = str(tmp_path / "cli.mdb")
    p = subprocess.run([cli, "store", "build", db, str(src)], capture_output=True, check=False)
    assert p.returncode == 0, p.stderr
    urls = ["https://%s%s" % (h, u) for h in FILES for u in URLS]
    with robotsc.Store(db, readonly=True) as st:
        assert len(st) == len(FILES)
        for agent in ("Googlebot", "bingbot"):
            out = subprocess.run([cli, "store", "check", db, "--agent", agent] + urls,
                                 capture_output=True, check=True).stdout.decode().splitlines()
            want = [line.split("\t")[0] == "allow" for line in out]
            assert len(want) == len(urls)
            assert [st.allowed(u, agent) for u in urls] == want
            assert [st.allowed(u, [agent]) for u in urls] == want


def test_one_cache_for_every_agent(tmp_path):
    """The store's program cache answers every call for its own agents:
    names, lists and User-Agent headers interleaved, each call equal to
    Robots' verdict (issue 37, item 4)."""
    body = b"User-agent: *\nDisallow: /\n\nUser-agent: goodbot\nAllow: /\nDisallow: /private\n"
    direct = robotsc.Robots.parse(body)
    agents = [("goodbot", None), ("badbot", None), (["badbot", "goodbot"], None), (["badbot"], None),
              (None, "Mozilla/5.0 (compatible; goodbot/1.0)"), (None, "badbot/2")]
    with robotsc.Store(str(tmp_path / "s.mdb")) as st:
        st.put("https://a.example", robotsc.compile(body))
        for i in range(60):
            agent, ua = agents[i % len(agents)]
            for path in ("/page", "/private/x"):
                url = "https://a.example" + path
                kw = {"user_agent": ua} if ua else {"agent": agent}
                assert st.allowed(url, **kw) is direct.allowed(url, **kw), (agent, ua, path)
                assert st.allowed_many([url, url], **kw) == [direct.allowed(url, **kw)] * 2
