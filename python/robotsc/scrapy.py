# SPDX-License-Identifier: Apache-2.0
"""A Scrapy robots.txt parser with Google's verdicts.

    # settings.py
    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robotsc.scrapy.RobotParser"

Bodies that are empty or not UTF-8 allow everything, as Scrapy's other
parsers do; anything else is compiled byte for byte (a body that is not a
robots.txt has no rules, so it allows everything too: Robots.parse(...,
text=True), Scrapy's reading of any body).

Scrapy passes its whole User-Agent setting as user_agent: it is reduced to
its product token (Robots.allowed(..., user_agent=...)), Scrapy's
convention, not the name-as-given rule of robotsc's own API.
"""
import logging

from scrapy.robotstxt import RobotParser as _ScrapyRobotParser

from ._robotsc import Robots

logger = logging.getLogger(__name__)

__all__ = ["RobotParser"]


class RobotParser(_ScrapyRobotParser):
    """scrapy.robotstxt.RobotParser backed by robotsc."""

    def __init__(self, robotstxt_body, spider=None):
        self.spider = spider
        body = robotstxt_body or b""
        if isinstance(body, str):
            body = body.encode("utf-8", "surrogateescape")
        try:
            bytes(body).decode("utf-8")
        except UnicodeDecodeError:
            logger.warning("robots.txt is not UTF-8: treating it as an empty file (allow all)",
                           extra={"spider": spider})
            body = b""
        self.robots = Robots.parse(body, text=True)

    @classmethod
    def from_crawler(cls, crawler, robotstxt_body):
        spider = None if not crawler else crawler.spider
        return cls(robotstxt_body, spider)

    def allowed(self, url, user_agent):
        # The URL as given, as the C library matches it: Scrapy's requests
        # are percent-encoded already (safe_url_string).
        return self.robots.allowed(_frozen(url), user_agent=_frozen(user_agent))

    def crawl_delay(self, user_agent):
        """Crawl-delay in seconds (float) for user_agent, or None (the
        parser interface of Scrapy 2.18)."""
        return self.robots.crawl_delay(user_agent=_frozen(user_agent))


def _frozen(value):
    """value, with a mutable buffer copied to bytes (a str or bytes as is)."""
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    return value
