#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Local HTTP server for `robotsc fetch --store`: one listener on 127.0.0.1
per scenario (so each scenario is its own origin), each on a free port.
The interface of tests/crawl/server.py (run by tests/crawl/with_server.sh):
writes "SCENARIO PORT" lines to PORTFILE once every listener is up, logs
every request to LOGFILE as tab-separated "event scenario path
if-none-match if-modified-since" (event "in" on arrival, "out" when the
answer is sent), never touches an address outside 127.0.0.0/8.

Scenarios beyond tests/crawl/server.py's: "etag" and "lm" answer 304 to a
matching If-None-Match / If-Modified-Since (STATEDIR/etag.version changes
the ETag and body); slow1..slow6 answer after a second (to see transfers
overlap).

usage: server.py PORTFILE LOGFILE STATEDIR"""
import http.server
import os
import sys
import threading
import time

PORTFILE, LOGFILE, STATEDIR = sys.argv[1:4]
LOCK = threading.Lock()
STOP = threading.Event()

ROBOTS_OK = b"User-agent: *\nDisallow: /private\n\nUser-agent: FooBot\nDisallow: /\n"
LAST_MODIFIED = "Tue, 01 Oct 2024 10:00:00 GMT"
STATUS = {"notfound": 404, "unavail": 503, "toomany": 429}


def etag_version():
    try:
        with open(os.path.join(STATEDIR, "etag.version")) as f:
            return f.read().strip() or "1"
    except OSError:
        return "1"


class Handler(http.server.BaseHTTPRequestHandler):
    scenario = "ok"
    protocol_version = "HTTP/1.0"
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):
        pass

    def log(self, event):
        with LOCK, open(LOGFILE, "a") as f:
            f.write("\t".join([event, self.scenario, self.path, self.headers.get("If-None-Match", "-"),
                               self.headers.get("If-Modified-Since", "-")]) + "\n")

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if status != 304:
            self.wfile.write(body)
        self.log("out")

    def do_GET(self):
        self.log("in")
        s, path = self.scenario, self.path
        if s == "redir2":
            if path == "/final":
                return self.send(200, b"User-agent: *\nDisallow: /redirected\n")
            return self.send(301, b"moved\n", [("Location", "/hop" if path == "/robots.txt" else "/final")])
        if path != "/robots.txt":
            return self.send(404, b"not here\n")
        if s in STATUS:
            return self.send(STATUS[s], b"error page\n")
        if s == "etag":
            v = etag_version()
            tag = '"v%s"' % v
            hdrs = [("ETag", tag), ("Cache-Control", "max-age=600")]
            if self.headers.get("If-None-Match") == tag:
                return self.send(304, b"", hdrs)
            return self.send(200, b"User-agent: *\nDisallow: /etag-v%s\n" % v.encode(), hdrs)
        if s == "lm":
            hdrs = [("Last-Modified", LAST_MODIFIED)]
            if self.headers.get("If-Modified-Since") == LAST_MODIFIED:
                return self.send(304, b"", hdrs)
            return self.send(200, b"User-agent: *\nDisallow: /lm\n", hdrs)
        if s == "flip":
            if os.path.exists(os.path.join(STATEDIR, "flip.fail")):
                return self.send(503, b"down\n")
            return self.send(200, b"User-agent: *\nDisallow: /flip\n", [("Cache-Control", "max-age=300")])
        if s == "stall":
            STOP.wait(30)
            return self.send(200, ROBOTS_OK)
        if s.startswith("slow"):
            time.sleep(1)
            return self.send(200, b"User-agent: *\nDisallow: /%s\n" % s.encode())
        return self.send(200, ROBOTS_OK)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    names = ["ok", "etag", "lm", "flip", "stall", "redir2"] + list(STATUS) + ["slow%d" % i for i in range(1, 7)]
    servers, ports = [], {}
    for name in names:
        srv = Server(("127.0.0.1", 0), type("H_" + name, (Handler,), {"scenario": name}))
        ports[name] = srv.server_address[1]
        servers.append(srv)
    for srv in servers:
        threading.Thread(target=srv.serve_forever, daemon=True).start()
    tmp = PORTFILE + ".tmp"
    with open(tmp, "w") as f:
        for name in names:
            f.write(f"{name} {ports[name]}\n")
    os.rename(tmp, PORTFILE)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        STOP.set()


if __name__ == "__main__":
    main()
