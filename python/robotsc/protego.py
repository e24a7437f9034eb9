# SPDX-License-Identifier: Apache-2.0
"""A drop-in for Protego with Google's verdicts.

    from robotsc.protego import Protego     # instead of: from protego import Protego

    rp = Protego.parse(robotstxt_text)
    rp.can_fetch("https://example.com/page", "mybot")

Same surface as protego.Protego: parse(), can_fetch(), crawl_delay(),
request_rate(), visit_time(), sitemaps, preferred_host. Verdicts are
Google's (docs/SEMANTICS.md); docs/PYTHON.md lists where Protego differs.
As Protego, every user_agent argument may be a whole User-Agent header: it
is reduced to its product token (Robots.allowed(..., user_agent=...)), and
"*" means the '*' group. Any content is read as a robots.txt, as Protego
reads any text (Robots.parse(..., text=True)). URLs are matched as the C
library matches them, byte for byte, as in every robotsc face.
"""
from collections import namedtuple
from datetime import time

from ._robotsc import Robots

__all__ = ["Protego", "RequestRate", "VisitTime"]

RequestRate = namedtuple("RequestRate", ["requests", "seconds", "start_time", "end_time"])
VisitTime = namedtuple("VisitTime", ["start_time", "end_time"])


def _window(value, sep):
    """A time window read as Protego 0.3+ reads one: exactly two parts when
    split on sep ("-" in request-rate, one space in visit-time), each read
    as hours from its first two and minutes from its last two characters
    ("0200" and "02:00" alike). None when Protego would reject it."""
    try:
        start, end = value.split(sep)
        return (time(int(start[:2]), int(start[-2:])),
                time(int(end[:2]), int(end[-2:])))
    except (ValueError, TypeError, AttributeError):
        return None


class Protego:
    """robots.txt rules with Protego's interface and Google's verdicts."""

    def __init__(self, robots=None):
        self._robots = robots if robots is not None else Robots.parse(b"")

    @classmethod
    def parse(cls, content):
        """Parses a robots.txt (str, or bytes taken as they are)."""
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        return cls(Robots.parse(content, text=True))

    @property
    def robots(self):
        """The underlying robotsc.Robots."""
        return self._robots

    def can_fetch(self, url, user_agent):
        """True if user_agent (a name or a User-Agent header) may fetch url.
        url (str or bytes) is matched as the C library matches it, byte for
        byte: a raw non-ASCII character is not percent-encoded first (the
        file's non-ASCII patterns are, spec D, so they match the encoded
        URLs crawlers request)."""
        return self._robots.allowed(url, user_agent=user_agent)

    def crawl_delay(self, user_agent):
        """Crawl-delay in seconds (float) for user_agent, or None."""
        return self._robots.crawl_delay(user_agent=user_agent)

    def request_rate(self, user_agent):
        """RequestRate(requests, seconds, start_time, end_time) or None."""
        rate = self._robots.request_rate(user_agent=user_agent)
        if rate is None:
            return None
        start = end = None
        raw = self._robots.group_directive("request-rate", user_agent=user_agent) or ""
        parts = raw.split()
        if len(parts) == 2:  # Protego: a malformed window voids the line
            w = _window(parts[1], "-")
            if w is None:
                return None
            start, end = w
        seconds = rate.seconds
        if seconds == int(seconds):
            seconds = int(seconds)
        return RequestRate(rate.requests, seconds, start, end)

    def visit_time(self, user_agent):
        """VisitTime(start_time, end_time) from a Visit-time line, or None."""
        w = _window(self._robots.group_directive("visit-time", user_agent=user_agent), " ")
        return VisitTime(*w) if w else None

    @property
    def sitemaps(self):
        """An iterator over the Sitemap URLs, in file order."""
        return iter(self._robots.sitemaps)

    @property
    def preferred_host(self):
        """The value of the last Host directive (as Protego), or None."""
        host = None
        for d in self._robots.directives:
            if d.key.lower() == "host" and d.value:
                host = d.value
        return host
