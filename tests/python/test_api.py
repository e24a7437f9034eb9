# SPDX-License-Identifier: Apache-2.0
"""The extension's API: compile, Robots over buffers, agents, explain,
allowed_many, group values, crawler helpers, bad input, reference counting,
threads."""
import gc
import mmap
import subprocess
import sys
import threading
import warnings

import pytest

import robotsc

BODY = (b"User-agent: *\n"
        b"Disallow: /private\n"
        b"Allow: /private/ok\n"
        b"Crawl-delay: 2.5\n"
        b"Request-rate: 3/1m\n"
        b"Sitemap: https://example.com/sitemap.xml\n"
        b"\n"
        b"User-agent: Googlebot\n"
        b"User-agent: googlebot-news\n"
        b"Disallow: /nogoogle\n"
        b"Disallow: /*.pdf$\n"
        b"Crawl-delay: 1\n"
        b"Host: example.com\n"
        b"Sitemap: https://example.com/news.xml\n")

GOOGLEBOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"


@pytest.fixture(scope="module")
def blob():
    return robotsc.compile(BODY)


@pytest.fixture(scope="module")
def robots(blob):
    return robotsc.Robots(blob)


def test_compile_returns_a_loadable_blob(blob):
    assert isinstance(blob, bytes) and len(blob) > 0
    assert robotsc.Robots(blob).size == len(blob)
    assert robotsc.compile(BODY.decode()) == blob  # str is compiled as UTF-8
    assert robotsc.compile(bytearray(BODY)) == blob
    assert robotsc.compile(memoryview(BODY)) == blob


def test_profiles():
    assert robotsc.Robots(robotsc.compile(b"", "rfc")).profile == "rfc"
    assert robotsc.Robots(robotsc.compile(b"")).profile == "google"
    with pytest.raises(ValueError):
        robotsc.compile(b"", "bing")
    with pytest.raises(TypeError):
        robotsc.compile(b"", 1)


def test_diagnostics():
    found = []
    robotsc.compile(b"Disalow: /a\nUser-agent: x\nDisallow /b\nfoo\n", diagnostics=found)
    names = [(d.line, d.name) for d in found]
    assert (1, "typo") in names
    assert (1, "rule-before-agent") in names
    assert (3, "missing-colon") in names
    assert (4, "invalid-line") in names
    assert all(isinstance(d.message, str) and d.message for d in found)
    assert robotsc.lint(b"User-agent: *\nDisallow: /\n") == []
    with pytest.raises(TypeError):
        robotsc.compile(b"", diagnostics=())


def test_verdicts_and_agent_forms(robots):
    url = "https://example.com/nogoogle/page"
    assert robots.allowed(url, "FooBot") is True
    for agent in ("Googlebot", "googlebot", ["Googlebot"], ("foo", "googlebot-news"), [b"googlebot"]):
        assert robots.allowed(url, agent) is False, agent
    # The crawler's name is used as given, as Google's library does (never
    # cut): "Googlebot/2.1" or a whole User-Agent names no group, so '*'
    # answers, with an AgentWarning; user_agent= reduces one to its token.
    for agent in ("Googlebot/2.1", GOOGLEBOT_UA, b"Googlebot/2.1", ["Googlebot/2.1"], "", "AB42bot"):
        with pytest.warns(robotsc.AgentWarning, match="not a product token"):
            assert robots.allowed(url, agent) is True, agent
    for ua in ("Googlebot", "Googlebot/2.1", GOOGLEBOT_UA, b"Googlebot/2.1"):
        assert robots.allowed(url, user_agent=ua) is False, ua
        assert robots.explain(url, user_agent=ua).allowed is False
        assert robots.allowed_many([url], user_agent=ua) == [False]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert robots.allowed(url, user_agent="*") is True  # '*': the global group, silently
    with pytest.warns(robotsc.AgentWarning, match="no product token"):
        assert robots.allowed(url, user_agent="2.1") is True
    with pytest.raises(TypeError):
        robots.allowed(url)
    with pytest.raises(TypeError):
        robots.allowed(url, "Googlebot", user_agent="Googlebot")
    # The cache of the selection tells a name from a User-Agent.
    with pytest.warns(robotsc.AgentWarning):
        assert robots.allowed(url, "Googlebot/2.1") is True
    assert robots.allowed(url, user_agent="Googlebot/2.1") is False
    assert robots.allowed("https://example.com/private/x", "FooBot") is False
    assert robots.allowed("https://example.com/private/ok/x", "FooBot") is True
    # The specific group replaces the global one (spec F.6.2).
    assert robots.allowed("https://example.com/private/x", "Googlebot") is True
    assert robots.allowed("https://example.com/a.pdf", "Googlebot") is False
    assert robots.allowed("https://example.com/a.pdf?x", "Googlebot") is True
    assert robots.allowed(b"/private", "x") is False
    assert robots.allowed(url=b"/private", agent="x") is False
    assert robotsc.agent_token(GOOGLEBOT_UA) == "Googlebot"
    assert robotsc.agent_token("Googlebot/2.1") == "Googlebot"


def test_non_ascii_urls():
    r = robotsc.Robots.parse("User-agent: *\nDisallow: /caf\u00e9\n")
    # The pattern is percent-encoded (spec D); the URL is matched as given.
    assert r.allowed("https://e.com/caf%C3%A9", "a") is False
    assert r.allowed("https://e.com/caf\u00e9".encode(), "a") is True
    assert r.allowed("https://e.com/caf\u00e9", "a") is True
    # The faces follow the C library too: a raw URL is not encoded first.
    from robotsc.protego import Protego
    assert Protego.parse("User-agent: *\nDisallow: /caf\u00e9\n").can_fetch(
        "https://e.com/caf\u00e9", "a") is True
    assert Protego.parse("User-agent: *\nDisallow: /caf\u00e9\n").can_fetch(
        "https://e.com/caf%C3%A9", "a") is False


# Files and URLs with non-ASCII bytes, raw and percent-encoded, on both
# sides (issue 37, item 17): every face answers as `robotsc check` does.
RAW_FILES = [
    "User-agent: *\nDisallow: /\u03c0\n",
    "User-agent: *\nDisallow: /%CF%80\n",
    "User-agent: *\nDisallow: /\nAllow: /\u03c0\n",
    "User-agent: *\nDisallow: /*\u00e9$\nAllow: /caf\n",
    "User-agent: *\nDisallow: /%cf%80/x\nDisallow: /caf\u00e9\n",
]
RAW_URLS = ["https://e.com/\u03c0", "https://e.com/%CF%80", "https://e.com/%cf%80",
            "https://e.com/\u03c0/x", "https://e.com/%CF%80/x", "https://e.com/caf\u00e9",
            "https://e.com/caf%C3%A9", "https://e.com/x?q=\u00e9", "https://e.com/\u00e9",
            "https://e.com/cafe"]


@pytest.mark.parametrize("profile", ["google", "rfc"])
def test_raw_non_ascii_urls_like_the_cli(cli, tmp_path, profile):
    from robotsc.protego import Protego
    scrapy = pytest.importorskip("robotsc.scrapy", reason="Debian's python3-scrapy is needed")
    for i, text in enumerate(RAW_FILES):
        body = text.encode()
        src = tmp_path / ("r%d.txt" % i)
        src.write_bytes(body)
        p = subprocess.run([cli, "check", "--profile", profile, "--agent", "a", str(src)] + RAW_URLS,
                           capture_output=True, check=False)
        assert p.returncode in (0, 1), p.stderr
        want = [line.split(b"\t")[0] == b"allow" for line in p.stdout.splitlines()]
        assert len(want) == len(RAW_URLS), p.stdout
        r = robotsc.Robots.parse(body, profile=profile)
        assert [r.allowed(u, "a") for u in RAW_URLS] == want, text
        assert [r.allowed(u.encode(), "a") for u in RAW_URLS] == want, text
        assert r.allowed_many(RAW_URLS, "a") == want, text
        if profile == "google":
            # The faces compile with Google's profile, as their users expect.
            rp = Protego.parse(text)
            assert [rp.can_fetch(u, "a") for u in RAW_URLS] == want, text
            sp = scrapy.RobotParser(body)
            assert [sp.allowed(u, "a") for u in RAW_URLS] == want, text
    # The case of the issue: the raw URL and the encoded one differ in Google's
    # profile (the file's pattern is encoded, the URL is matched as given).
    r = robotsc.Robots.parse("User-agent: *\nDisallow: /\u03c0\n")
    assert r.allowed("https://e.com/\u03c0", "a") is True
    assert r.allowed("https://e.com/%CF%80", "a") is False


@pytest.mark.parametrize("one", ["https://e.com/x", b"https://e.com/x", bytearray(b"/x"),
                                 memoryview(b"/x")])
def test_allowed_many_refuses_one_url(robots, one):
    """A single URL is an iterable of characters (or ints): refused, not
    answered once per character."""
    with pytest.raises(TypeError, match="list"):
        robots.allowed_many(one, "bot")
    with pytest.raises(TypeError, match="list"):
        robots.allowed_many(one, user_agent="bot/1.0", out=bytearray(20))
    assert robots.allowed_many([one], "bot") == [robots.allowed(bytes(one) if not isinstance(one, str)
                                                                else one, "bot")]


def test_explain(robots):
    e = robots.explain("https://example.com/private/ok/1", "FooBot")
    assert e.allowed is True and e.decided is True and e.rule == "allow"
    assert e.line == 3 and e.pattern == "/private/ok" and e.priority == len("/private/ok")
    allowed, line, pattern = e
    assert (allowed, line, pattern) == (True, 3, "/private/ok")
    e = robots.explain("https://example.com/private", "FooBot")
    assert (e.allowed, e.rule, e.line) == (False, "disallow", 2)
    e = robots.explain("https://example.com/", "FooBot")
    assert (e.allowed, e.decided, e.line, e.pattern, e.rule) == (True, False, 0, None, None)


def test_allowed_many(robots):
    urls = ["https://example.com/", b"https://example.com/private", "https://example.com/private/ok",
            "https://example.com/nogoogle"]
    assert robots.allowed_many(urls, "FooBot") == [True, False, True, True]
    assert robots.allowed_many(iter(urls), "Googlebot") == [True, True, True, False]
    assert robots.allowed_many([], "x") == []
    out = bytearray(5)
    assert robots.allowed_many(urls, "FooBot", out=out) is out
    assert bytes(out) == b"\x01\x00\x01\x01\x00"
    with pytest.raises(ValueError):
        robots.allowed_many(urls, "FooBot", out=bytearray(3))
    with pytest.raises(BufferError):
        robots.allowed_many(urls, "FooBot", out=b"xxxxx")
    # Mutable buffers as URLs are matched too (with the GIL held).
    assert robots.allowed_many([bytearray(b"/private")], "x") == [False]
    with pytest.raises(TypeError):
        robots.allowed_many(["/", 3], "x")
    assert [robots.allowed(u, "FooBot") for u in urls] == robots.allowed_many(urls, "FooBot")


def test_group_values(robots):
    assert robots.crawl_delay("FooBot") == 2.5
    assert robots.crawl_delay(user_agent=GOOGLEBOT_UA) == 1.0
    assert robots.crawl_delay("Googlebot") == 1.0
    assert robots.request_rate(agent="FooBot") == robots.request_rate(user_agent="FooBot/1.0")
    assert robots.group_directive("host", user_agent=GOOGLEBOT_UA) == "example.com"
    rr = robots.request_rate("FooBot")
    assert (rr.requests, rr.seconds) == (3, 60.0)
    assert robots.request_rate("Googlebot") is None
    assert robots.group_directive("host", "googlebot") == "example.com"
    assert robots.group_directive("host", "foo") is None
    assert robots.sitemaps == ["https://example.com/sitemap.xml", "https://example.com/news.xml"]
    keys = [(d.line, d.key, d.value) for d in robots.directives]
    assert keys == [(4, "Crawl-delay", "2.5"), (5, "Request-rate", "3/1m"),
                    (12, "Crawl-delay", "1"), (13, "Host", "example.com")]
    empty = robotsc.Robots.parse(b"")
    assert empty.crawl_delay("x") is None and empty.sitemaps == [] and empty.directives == []
    assert empty.allowed("/anything", "x") is True


def test_origin_and_policy():
    key, robots_url = robotsc.origin("HTTPS://User@B\u00fccher.Example:443/a?b#c")
    assert key == "https://xn--bcher-kva.example"
    assert robots_url == "https://xn--bcher-kva.example/robots.txt"
    o = robotsc.origin(b"http://[::1]:8080/x")
    assert (o.scheme, o.host, o.port, o.default_port) == ("http", "[::1]", 8080, False)
    with pytest.raises(robotsc.URLError) as ei:
        robotsc.origin("mailto:a@b.c")
    assert ei.value.status == 3 and ei.value.status_name
    with pytest.raises(robotsc.URLError):
        robotsc.origin("/relative")
    assert isinstance(ei.value, ValueError) and isinstance(ei.value, robotsc.Error)
    assert robotsc.is_robots_url("https://a.com/robots.txt")
    assert not robotsc.is_robots_url("https://a.com/x/robots.txt")
    p = robotsc.status_policy(200, body=b"User-agent: *\nDisallow: /\n")
    assert (p.policy, p.definite, p.body) == ("parse", True, b"User-agent: *\nDisallow: /\n")
    assert robotsc.status_policy(404).policy == "allow-all"
    p = robotsc.status_policy(503)
    assert (p.policy, p.definite) == ("disallow-all", False)
    assert robotsc.status_policy(429).policy == "disallow-all"
    assert robotsc.status_policy(0, "timeout").policy == "disallow-all"
    # The policy's body compiles to what it says.
    assert robotsc.Robots.parse(robotsc.status_policy(500).body).allowed("/", "x") is False
    assert robotsc.Robots.parse(robotsc.status_policy(404).body).allowed("/", "x") is True
    with pytest.raises(ValueError):
        robotsc.status_policy(200, "dns")
    assert robotsc.cache_ttl("max-age=3600") == 3600
    assert robotsc.cache_ttl("no-store") == 60
    assert robotsc.cache_ttl() == 86400


# ---- bad input -------------------------------------------------------------

@pytest.mark.parametrize("bad", [None, 3, 1.5, object(), ["a"]])
def test_non_bytes_is_a_type_error(bad, robots):
    with pytest.raises(TypeError):
        robotsc.Robots(bad)
    with pytest.raises(TypeError):
        robotsc.compile(bad)
    with pytest.raises(TypeError):
        robots.allowed(bad, "x")
    if not isinstance(bad, list):
        with pytest.raises(TypeError):
            robots.allowed("/", bad)


def test_text_is_not_a_blob():
    with pytest.raises(TypeError):
        robotsc.Robots("User-agent: *")
    with pytest.raises(robotsc.BlobError) as ei:
        robotsc.Robots(b"User-agent: *\nDisallow: /\n")
    assert ei.value.status == 11 and ei.value.offset == 0  # RSC_E_MAGIC


def test_agent_lists_are_checked(robots):
    with pytest.raises(ValueError):
        robots.allowed("/", [])
    with pytest.raises(ValueError):
        robots.allowed("/", ["a"] * 65)


URLS = ["/", "/private", "/private/ok", "/nogoogle", "/a.pdf", "/x", "https://example.com/private/1"]
AGENTS = ["FooBot", "Googlebot", "googlebot-news"]


def verdicts(r):
    return [r.allowed(u, a) for a in AGENTS for u in URLS]


def test_truncated_blobs_raise(blob):
    for n in range(len(blob)):
        with pytest.raises(robotsc.BlobError) as ei:
            robotsc.Robots(blob[:n])
        e = ei.value
        assert e.status in (10, 11, 12, 13, 14, 15), n
        assert isinstance(e.offset, int) and 0 <= e.offset <= len(blob), n
        assert e.status_name and e.reason
    with pytest.raises(robotsc.BlobError):
        robotsc.Robots(blob + b"\0")


def test_damaged_blobs_raise_or_keep_the_verdicts(blob):
    want = verdicts(robotsc.Robots(blob))
    loaded = 0
    for i in range(len(blob)):
        for flip in (0x01, 0x80, 0xFF):
            bad = bytearray(blob)
            bad[i] ^= flip
            try:
                r = robotsc.Robots(bytes(bad))
            except robotsc.BlobError as e:
                assert isinstance(e.offset, int)
                continue
            loaded += 1
            assert verdicts(r) == want, (i, flip)
    # The checksum catches single-byte damage.
    assert loaded == 0


# ---- buffers and reference counting ----------------------------------------

def test_keeps_its_buffer_alive(blob):
    data = bytes(blob)  # a fresh object of our own
    before = sys.getrefcount(data)
    r = robotsc.Robots(data)
    assert r.zero_copy
    assert sys.getrefcount(data) == before + 1
    want = verdicts(r)
    del data
    gc.collect()
    robotsc.compile(b"User-agent: *\nAllow: /\n" * 100)  # reuse freed memory
    assert verdicts(r) == want
    assert bytes(r.blob) == blob
    del r


def test_buffer_released_with_the_object(blob):
    data = bytes(blob)
    before = sys.getrefcount(data)
    r = robotsc.Robots(data)
    del r
    gc.collect()
    assert sys.getrefcount(data) == before


def test_memoryview_and_mmap_zero_copy(blob, tmp_path):
    mv = memoryview(b"xx" + blob + b"yy")[2:-2]
    r = robotsc.Robots(mv)
    assert r.zero_copy and verdicts(r) == verdicts(robotsc.Robots(blob))
    with pytest.raises(BufferError):
        mv.release()  # exported to r
    del r
    mv.release()
    path = tmp_path / "b.rbc"
    path.write_bytes(blob)
    with open(path, "rb") as f:
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    r = robotsc.Robots(mm)
    assert r.zero_copy and verdicts(r) == verdicts(robotsc.Robots(blob))
    with pytest.raises(BufferError):
        mm.close()
    del r
    mm.close()


def test_writable_buffers_are_copied(blob):
    ba = bytearray(blob)
    r = robotsc.Robots(ba)
    assert not r.zero_copy
    want = verdicts(r)
    ba[:] = b"\0" * len(ba)  # cannot reach the program
    ba.extend(b"more")
    assert verdicts(r) == want
    # A read-only view of writable bytes is copied too.
    ba = bytearray(blob)
    r = robotsc.Robots(memoryview(ba).toreadonly())
    assert not r.zero_copy
    ba[:] = b"\0" * len(ba)
    assert verdicts(r) == want


def test_writable_mmap_is_copied(blob, tmp_path):
    path = tmp_path / "w.rbc"
    path.write_bytes(blob)
    with open(path, "r+b") as f:
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_WRITE)
    want = verdicts(robotsc.Robots(blob))
    for src in (mm, memoryview(mm).toreadonly()):
        r = robotsc.Robots(src)
        assert not r.zero_copy
        mm[:] = b"\xff" * len(mm)
        assert verdicts(r) == want
        mm[:] = blob
        del r
    del src
    mm.close()


# ---- threads -----------------------------------------------------------------

def test_threads_share_a_robots(blob):
    r = robotsc.Robots(blob)
    want = {a: [r.allowed(u, a) for u in URLS] for a in AGENTS}
    errors = []

    def work(k):
        try:
            for i in range(3000):
                a = AGENTS[(i + k) % len(AGENTS)]  # defeats the selection cache
                if i % 50 == 0:
                    assert r.allowed_many(URLS * 20, a) == want[a] * 20
                else:
                    u = i % len(URLS)
                    assert r.allowed(URLS[u], a) == want[a][u]
        except BaseException as e:  # noqa: B902 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_str_subclass_agents_are_not_cached(robots):
    class Agent(str):
        calls = 0

        def __eq__(self, other):  # would run Python code inside a cache lookup
            Agent.calls += 1
            return str.__eq__(self, other)

        __hash__ = str.__hash__

    url = "https://example.com/nogoogle/page"
    for _ in range(3):
        assert robots.allowed(url, Agent("Googlebot")) is False
        assert robots.allowed(url, "FooBot") is True
        assert robots.allowed(url, Agent("FooBot")) is True
    assert Agent.calls == 0


def test_pickle_round_trip(robots):
    import pickle
    r2 = pickle.loads(pickle.dumps(robots))
    assert r2 is not robots and bytes(r2.blob) == bytes(robots.blob)
    assert verdicts(r2) == verdicts(robots)
