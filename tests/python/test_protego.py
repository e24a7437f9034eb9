# SPDX-License-Identifier: Apache-2.0
"""robotsc.protego.Protego used the way Protego's README uses Protego; where
Protego agrees with Google the answers equal real Protego's."""
from datetime import time

import pytest

from robotsc.protego import Protego, RequestRate, VisitTime

ROBOTS = """
User-agent: *
Disallow: /
Allow: /about
Allow: /account
Disallow: /account/contact$
Disallow: /account/*/profile
Crawl-delay: 4
Request-rate: 10/1m                 # 10 requests every 1 minute

Sitemap: http://example.com/sitemap-index.xml
Host: http://example.co.in
"""

CHECKS = [("http://example.com/profiles", False), ("http://example.com/about", True),
          ("http://example.com/account", True), ("http://example.com/account/myuser/profile", False),
          ("http://example.com/account/contact", False), ("http://example.com/account/contact/x", True),
          ("/about/us", True), ("http://example.com/", False)]


def test_readme_usage():
    rp = Protego.parse(ROBOTS)
    for url, want in CHECKS:
        assert rp.can_fetch(url, "mybot") is want, url
    assert rp.crawl_delay("mybot") == 4.0
    assert rp.request_rate("mybot") == RequestRate(10, 60, None, None)
    assert list(rp.sitemaps) == ["http://example.com/sitemap-index.xml"]
    assert rp.preferred_host == "http://example.co.in"
    assert rp.visit_time("mybot") is None


def test_same_answers_as_protego():
    protego = pytest.importorskip("protego", reason="Debian's python3-protego is needed")
    theirs = protego.Protego.parse(ROBOTS)
    ours = Protego.parse(ROBOTS)
    for url, _ in CHECKS:
        assert ours.can_fetch(url, "mybot") == theirs.can_fetch(url, "mybot"), url
    assert ours.crawl_delay("mybot") == theirs.crawl_delay("mybot")
    assert tuple(ours.request_rate("mybot")) == tuple(theirs.request_rate("mybot"))
    assert list(ours.sitemaps) == list(theirs.sitemaps)
    assert ours.preferred_host == theirs.preferred_host


def test_windows_and_bytes():
    rp = Protego.parse(b"User-agent: a\nRequest-rate: 1/10s 0600-0845\nVisit-time: 2200-0300\n"
                       b"Disallow: /x\n")
    assert rp.request_rate("a") == RequestRate(1, 10, time(6, 0), time(8, 45))
    # Visit-time as Protego 0.3+ reads it: two times separated by one space.
    assert rp.visit_time("a") is None
    rp2 = Protego.parse(b"User-agent: a\nVisit-time: 0200 0630\n")
    assert rp2.visit_time("a") == VisitTime(time(2, 0), time(6, 30))
    assert rp2.visit_time("Mozilla/5.0 (compatible; a/1.0)") == VisitTime(time(2, 0), time(6, 30))
    assert Protego.parse(b"User-agent: a\nVisit-time: 02:00 06:30\n").visit_time("a") == \
        VisitTime(time(2, 0), time(6, 30))
    for bad in (b"2200-0300", b"0200  0630", b"0200", b"2500 0630", b"ab00 0630", b"0200 0630 0700"):
        assert Protego.parse(b"User-agent: a\nVisit-time: " + bad + b"\n").visit_time("a") is None, bad
    # A request-rate window Protego rejects voids the request-rate, as there.
    assert Protego.parse(b"User-agent: a\nRequest-rate: 1/10s 06-0845x\n").request_rate("a") is None
    assert rp.request_rate("b") is None and rp.crawl_delay("b") is None
    assert rp.can_fetch("https://e.com/x", "a") is False
    assert rp.can_fetch("https://e.com/x", "b") is True
    assert Protego.parse("").can_fetch("/x", "a") is True


def test_documented_differences():
    """docs/PYTHON.md: where Google's verdicts differ from Protego's."""
    # No prefix matching of agents (spec F.2): googlebot-news is not googlebot.
    rp = Protego.parse("User-agent: googlebot\nDisallow: /\n")
    assert rp.can_fetch("https://e.com/x", "googlebot-news") is True
    # URLs are not unquoted: /%7Efoo and /~foo are different paths.
    rp = Protego.parse("User-agent: *\nDisallow: /~foo\n")
    assert rp.can_fetch("https://e.com/~foo", "a") is False
    assert rp.can_fetch("https://e.com/%7Efoo", "a") is True
    # "Allow: /index.html$"-style rules: Google also allows the directory.
    rp = Protego.parse("User-agent: *\nDisallow: /\nAllow: /d/index.html$\n")
    assert rp.can_fetch("https://e.com/d/", "a") is True
