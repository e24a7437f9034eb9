#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a small WARC file of robots.txt captures for the store tests, in
the form Common Crawl publishes them (a warcinfo record, then request and
response records; .gz: one gzip member per record).

usage: make_warc.py OUT.warc[.gz]"""
import gzip
import sys

OUT = sys.argv[1]

CHUNKED_BODY = b"User-agent: *\nDisallow: /chunked\n"
GZ_BODY = b"User-agent: *\nDisallow: /gzipped\n"


def chunked(data):
    out = b""
    for i in range(0, len(data), 10):
        part = data[i:i + 10]
        out += b"%x\r\n" % len(part) + part + b"\r\n"
    return out + b"0\r\n\r\n"


# (target URI, HTTP status, extra headers, body)
RESPONSES = [
    ("https://ok.example/robots.txt", 200, [("ETag", '"e1"'), ("Last-Modified", "Tue, 01 Oct 2024 10:00:00 GMT")],
     b"User-agent: *\nDisallow: /private\n\nUser-agent: FooBot\nDisallow: /\n"),
    ("https://gone.example/robots.txt", 404, [], b"<html>not found</html>"),
    ("https://down.example/robots.txt", 503, [("Retry-After", "60")], b"down"),
    ("https://limited.example/robots.txt", 429, [], b""),
    ("http://chunk.example/robots.txt", 200, [("Transfer-Encoding", "chunked")], chunked(CHUNKED_BODY)),
    ("http://gz.example:8080/robots.txt", 200, [("Content-Encoding", "gzip")], gzip.compress(GZ_BODY)),
    ("https://moved.example/robots.txt", 301, [("Location", "https://www.moved.example/robots.txt")], b""),
    # A later capture of the same origin wins.
    ("https://twice.example/robots.txt", 200, [], b"User-agent: *\nDisallow: /first\n"),
    ("https://twice.example/robots.txt", 200, [], b"User-agent: *\nDisallow: /second\n"),
    # Not a robots.txt URL: counted as a failure, not stored.
    ("https://page.example/index.html", 200, [], b"User-agent: *\nDisallow: /\n"),
]


def record(rtype, uri, payload, extra=()):
    head = [("WARC-Type", rtype), ("WARC-Date", "2024-10-01T10:00:00Z"),
            ("WARC-Record-ID", "<urn:uuid:%08d-0000-0000-0000-000000000000>" % record.n)]
    record.n += 1
    if uri:
        head.append(("WARC-Target-URI", uri))
    head += list(extra)
    head.append(("Content-Length", str(len(payload))))
    text = b"WARC/1.0\r\n" + b"".join(b"%s: %s\r\n" % (k.encode(), v.encode()) for k, v in head)
    return text + b"\r\n" + payload + b"\r\n\r\n"


record.n = 1

records = [record("warcinfo", None, b"software: robotsc test\r\n", [("Content-Type", "application/warc-fields")])]
for uri, status, headers, body in RESPONSES:
    req = b"GET /robots.txt HTTP/1.1\r\nHost: x\r\n\r\n"
    records.append(record("request", uri, req, [("Content-Type", "application/http; msgtype=request")]))
    hdrs = b"".join(b"%s: %s\r\n" % (k.encode(), v.encode()) for k, v in headers)
    if not any(k == "Transfer-Encoding" for k, _ in headers):
        hdrs += b"Content-Length: %d\r\n" % len(body)
    http = b"HTTP/1.1 %d X\r\n" % status + hdrs + b"\r\n" + body
    records.append(record("response", uri, http, [("Content-Type", "application/http; msgtype=response")]))

with open(OUT, "wb") as f:
    for r in records:
        f.write(gzip.compress(r) if OUT.endswith(".gz") else r)
