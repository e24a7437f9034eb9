# SPDX-License-Identifier: Apache-2.0
"""A Scrapy robots.txt parser with Google's verdicts.

    # settings.py
    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robotsc.scrapy.RobotParser"

Bodies that are empty or not UTF-8 allow everything, as Scrapy's other
parsers do; anything else is compiled byte for byte (a body that is not a
robots.txt has no rules, so it allows everything too).
"""
import logging

from scrapy.robotstxt import RobotParser as _ScrapyRobotParser

from ._robotsc import Robots
from .protego import quote_url

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
        self.robots = Robots.parse(body)

    @classmethod
    def from_crawler(cls, crawler, robotstxt_body):
        spider = None if not crawler else crawler.spider
        return cls(robotstxt_body, spider)

    def allowed(self, url, user_agent):
        if isinstance(user_agent, (bytes, bytearray)):
            user_agent = bytes(user_agent)
        return self.robots.allowed(quote_url(url), user_agent)
