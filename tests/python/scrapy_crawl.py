# SPDX-License-Identifier: Apache-2.0
"""Run by test_scrapy.py in a subprocess (Twisted's reactor stays out of
pytest): serves SITE_DIR on 127.0.0.1 (an ephemeral port), crawls it with
Scrapy obeying robots.txt through robotsc.scrapy.RobotParser, and prints
JSON: the paths the server was asked for, the pages parsed, the requests
forbidden by robots.txt and Scrapy's robots.txt stats.

usage: python scrapy_crawl.py SITE_DIR USER_AGENT"""
import functools
import http.server
import json
import sys
import threading
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.http import TextResponse

site, user_agent = sys.argv[1], sys.argv[2]
served = []


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, fmt, *args):
        served.append(self.path)


server = http.server.ThreadingHTTPServer(
    ("127.0.0.1", 0), functools.partial(Handler, directory=site))
threading.Thread(target=server.serve_forever, daemon=True).start()
base = "http://127.0.0.1:%d" % server.server_address[1]
parsed, forbidden = [], []


def path_of(url):
    p = urlsplit(url)
    return p.path + ("?" + p.query if p.query else "")


class SiteSpider(scrapy.Spider):
    name = "site"

    def start_requests(self):
        yield scrapy.Request(base + "/", callback=self.parse, errback=self.failed)

    def parse(self, response):
        parsed.append(path_of(response.url))
        if isinstance(response, TextResponse):
            for href in response.css("a::attr(href)").getall():
                yield response.follow(href, callback=self.parse, errback=self.failed)

    def failed(self, failure):
        forbidden.append(path_of(failure.request.url))


process = CrawlerProcess(settings={
    "ROBOTSTXT_OBEY": True,
    "ROBOTSTXT_PARSER": "robotsc.scrapy.RobotParser",
    "USER_AGENT": user_agent,
    "LOG_LEVEL": "ERROR",
    "TELNETCONSOLE_ENABLED": False,
    "RETRY_ENABLED": False,
    "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
})
crawler = process.create_crawler(SiteSpider)
process.crawl(crawler)
process.start()
server.shutdown()
stats = crawler.stats.get_stats()
print(json.dumps({
    "served": sorted(served),
    "parsed": sorted(parsed),
    "forbidden": sorted(forbidden),
    "stats_forbidden": stats.get("robotstxt/forbidden", 0),
    "stats_robots_status": stats.get("robotstxt/response_status_count/200", 0),
}))
