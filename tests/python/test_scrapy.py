# SPDX-License-Identifier: Apache-2.0
"""robotsc.scrapy.RobotParser: unit checks and a real Scrapy crawl of a site
served on 127.0.0.1."""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("scrapy", reason="Debian's python3-scrapy is needed")

from robotsc.scrapy import RobotParser  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

ROBOTS = ("User-agent: *\n"
          "Disallow: /\n"
          "\n"
          "User-agent: TestBot\n"
          "Disallow: /private/\n"
          "Allow: /private/public.html\n"
          "Disallow: /*.pdf$\n"
          "Disallow: /caf\u00e9.html\n").encode()

PAGES = {
    "index.html": '<a href="/a.html">a</a> <a href="/private/secret.html">s</a> '
                  '<a href="/private/public.html">p</a> <a href="/doc.pdf">pdf</a> '
                  '<a href="/doc.pdf?x=1">pdf?</a> <a href="/caf\u00e9.html">caf\u00e9</a>',
    "a.html": '<a href="/private/deep.html">deep</a> <a href="/b.html">b</a>',
    "b.html": '<a href="/">home</a>',
    "private/secret.html": "secret",
    "private/deep.html": "deep",
    "private/public.html": "public",
    "caf\u00e9.html": "caf\u00e9",
    "doc.pdf": "%PDF-1.4",
}


def make_site(root):
    for name, text in PAGES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "robots.txt").write_bytes(ROBOTS)


def crawl(site, user_agent):
    p = subprocess.run([sys.executable, os.path.join(HERE, "scrapy_crawl.py"), str(site), user_agent],
                       capture_output=True, text=True, timeout=120, check=False)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_scrapy_crawl_obeys_robots(tmp_path):
    make_site(tmp_path)
    # A full User-Agent header: its product token (TestBot) selects the group.
    out = crawl(tmp_path, "Mozilla/5.0 (compatible; TestBot/1.0; +http://example.com/bot)")
    fetched = ["/", "/a.html", "/b.html", "/doc.pdf?x=1", "/private/public.html"]
    assert out["parsed"] == fetched
    assert out["served"] == sorted(["/robots.txt"] + fetched)
    assert out["forbidden"] == ["/caf%C3%A9.html", "/doc.pdf", "/private/deep.html",
                                "/private/secret.html"]
    assert out["stats_forbidden"] == 4
    assert out["stats_robots_status"] == 1


def test_scrapy_crawl_other_agent_gets_the_global_group(tmp_path):
    make_site(tmp_path)
    out = crawl(tmp_path, "OtherBot/2.0")
    assert out["parsed"] == []
    assert out["served"] == ["/robots.txt"]
    assert out["forbidden"] == ["/"]


class Crawler:
    spider = None


@pytest.mark.parametrize("body", [b"", None, b"\xff\xfe\x00garbage\x80\x81 Disallow: /",
                                  b"<html><body>Not found</body></html>",
                                  b"\x00\x01\x02\x03" * 100])
def test_empty_undecodable_or_garbage_bodies_allow_all(body):
    rp = RobotParser.from_crawler(Crawler(), body)
    for url in ("https://e.com/", "https://e.com/x/y", b"https://e.com/z"):
        assert rp.allowed(url, "Scrapy/2.8 (+https://scrapy.org)") is True
    assert RobotParser.from_crawler(None, body).allowed("https://e.com/", b"bot")


def test_str_and_bytes_urls_and_agents():
    rp = RobotParser.from_crawler(None, ROBOTS)
    for url in ("https://e.com/private/x", b"https://e.com/private/x"):
        for agent in ("TestBot", b"TestBot/1.0", "Mozilla/5.0 (compatible; TestBot/1.0)"):
            assert rp.allowed(url, agent) is False
        assert rp.allowed(url, "Other") is False  # the global group: Disallow: /
    assert rp.allowed("https://e.com/private/public.html", b"TestBot") is True
    # URLs are matched as the C library matches them (the bytes as given):
    # Scrapy requests percent-encoded URLs, which the file's non-ASCII
    # patterns match (spec D); a raw one is another path, as in Google's
    # library (the ROBOTS body's global group still disallows it).
    assert rp.allowed("https://e.com/caf%C3%A9.html", "TestBot") is False
    assert rp.allowed("https://e.com/cafe.html", "TestBot") is True
    raw = RobotParser.from_crawler(None, "User-agent: *\nDisallow: /caf\u00e9.html\n".encode())
    assert raw.allowed("https://e.com/caf%C3%A9.html", "TestBot") is False
    assert raw.allowed("https://e.com/caf\u00e9.html", "TestBot") is True
    assert raw.allowed("https://e.com/caf\u00e9.html".encode(), "TestBot") is True


def test_is_a_scrapy_robot_parser():
    from scrapy.robotstxt import RobotParser as Base
    assert issubclass(RobotParser, Base)


def test_crawl_delay():
    """crawl_delay(user_agent) of Scrapy 2.18's parser interface: the
    user_agent is Scrapy's whole User-Agent setting, reduced to its token."""
    body = b"User-agent: TestBot\nDisallow: /t\nCrawl-delay: 2.5\n\nUser-agent: *\nDisallow: /a\nCrawl-delay: 7\n"
    rp = RobotParser.from_crawler(None, body)
    assert rp.crawl_delay("TestBot") == 2.5
    assert rp.crawl_delay(b"TestBot/1.0 (+https://e.com)") == 2.5
    assert rp.crawl_delay("Scrapy/2.18 (+https://scrapy.org)") == 7.0
    assert RobotParser.from_crawler(None, ROBOTS).crawl_delay("TestBot") is None
