#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Local HTTP server for the crawl and store tests (`robotsc fetch`,
rsc_fetch(), `robotsc fetch --store`): one listener on 127.0.0.1 per
scenario (so each scenario is its own origin), each on a free port. Writes
"SCENARIO PORT" lines to PORTFILE (atomically, once every listener is up)
and logs every request to LOGFILE as tab-separated "event scenario path
if-none-match if-modified-since user-agent bytes-sent complete": event "in"
on arrival (bytes and complete "-"), "out" when the answer is sent. Never
touches any address outside 127.0.0.0/8. Runs until killed.

usage: server.py PORTFILE LOGFILE STATEDIR
STATEDIR/flip.fail existing makes the "flip" scenario answer 503;
STATEDIR/etag.version changes the "etag" scenario's ETag and body. "etag"
and "lm" answer 304 to a matching If-None-Match / If-Modified-Since;
slow1..slow6 answer after a second (to see transfers overlap).
"cc304" answers 200 with ETag "c1" and max-age=1000, and 304 to a matching
If-None-Match, with no Cache-Control unless STATEDIR/cc304.maxage holds a
max-age for it. "body" serves the bytes of STATEDIR/body.bin (a blob, a
damaged blob, binary), or ROBOTS_OK when there is no such file."""
import http.server
import os
import sys
import threading
import time

PORTFILE, LOGFILE, STATEDIR = sys.argv[1:4]
LOCK = threading.Lock()
STOP = threading.Event()
PORTS = {}

ROBOTS_OK = b"User-agent: *\nDisallow: /private\n\nUser-agent: FooBot\nDisallow: /\n"
FINAL = b"User-agent: *\nDisallow: /redirected\n"
CAP = 512000
LAST_MODIFIED = "Tue, 01 Oct 2024 10:00:00 GMT"


def padded(head, size, marker_at=None, marker=b""):
    """head, then 100-byte comment lines up to size bytes; marker inserted
    at the first line boundary at or after marker_at."""
    out = bytearray(head)
    line = b"# " + b"x" * 97 + b"\n"
    while len(out) < size:
        if marker_at is not None and len(out) >= marker_at and marker:
            out += marker
            marker = b""
        out += line
    return bytes(out[:size])


BIG = padded(b"User-agent: *\nDisallow: /early\n", 2 * 1024 * 1024, 600000,
             b"Disallow: /late\n")
EXACT = padded(b"User-agent: *\nDisallow: /exact\n", CAP)
HTML = (b"<!DOCTYPE html>\n<html><head><title>Welcome</title></head>\n"
        b"<body>\n<p>Disallow: /</p>\n<a href=\"/private\">private</a>\n</body></html>\n")


def body_for(scenario):
    return {
        "ok": ROBOTS_OK,
        "bom": b"\xef\xbb\xbfUser-agent: *\nDisallow: /bom\n",
        "html": HTML,
        "exact": EXACT,
        "big": BIG,
        "ua": ROBOTS_OK,
    }.get(scenario, ROBOTS_OK)


CACHE = {
    "cc_maxage": ["max-age=3600"],
    "cc_nostore": ["no-store"],
    "cc_nocache": ["no-cache, max-age=600"],
    "cc_long": ["public, max-age=31536000"],
    "cc_multi": ["public", "max-age=7200"],
    "cc_bad": ["max-age=abc"],
    "cc_small": ["max-age=10"],
    "cc_quoted": ['private, MAX-AGE="120"'],
}
STATUS = {"notfound": 404, "gone": 410, "forbidden": 403, "toomany": 429,
          "err500": 500, "unavail": 503}


def etag_version():
    try:
        with open(os.path.join(STATEDIR, "etag.version")) as f:
            return f.read().strip() or "1"
    except OSError:
        return "1"


class Handler(http.server.BaseHTTPRequestHandler):
    scenario = "ok"
    protocol_version = "HTTP/1.0"
    disable_nagle_algorithm = True  # headers and body are separate writes

    def log_message(self, fmt, *args):
        pass

    def log(self, sent, complete):
        event = "in" if sent == "-" else "out"
        h = self.headers
        with LOCK, open(LOGFILE, "a") as f:
            f.write("\t".join([event, self.scenario, self.path, h.get("If-None-Match", "-"),
                               h.get("If-Modified-Since", "-"), h.get("User-Agent", ""),
                               str(sent), str(complete)]) + "\n")

    def do_GET(self):
        # Logged on arrival, before any byte of the answer, so that a client
        # that has its answer always finds its request in the log.
        self.log("-", "-")
        self.answer()

    def send(self, status, body=b"", headers=(), chunk=None):
        self.send_response(status)
        self.send_header("Content-Type", "text/html" if self.scenario == "html" else "text/plain")
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        sent, complete = 0, True
        try:
            step = chunk or len(body) or 1
            for i in range(0, len(body), step):
                self.wfile.write(body[i:i + step])
                self.wfile.flush()
                sent += len(body[i:i + step])
        except (BrokenPipeError, ConnectionResetError):
            complete = False
        self.log(sent, int(complete))

    def redirect(self, status, where):
        self.send(status, b"moved\n", [("Location", where)])

    def answer(self):
        s, path = self.scenario, self.path
        if s.startswith("redir") and s[5:].isdigit():
            # redirN: /robots.txt -> /hop/N-1 -> ... -> /hop/1 -> /final
            n = int(s[5:])
            if path == "/final":
                return self.send(200, FINAL)
            k = n if path == "/robots.txt" else int(path.rsplit("/", 1)[1])
            return self.redirect(301, "/final" if k <= 1 else f"/hop/{k - 1}")
        if s == "redirx":  # another origin on this host
            return self.redirect(302, f"http://127.0.0.1:{PORTS['ok']}/robots.txt")
        if s == "loop":
            return self.redirect(302, "/robots.txt")
        if s in STATUS:
            extra = [("Retry-After", "120")] if STATUS[s] in (429, 503) else []
            return self.send(STATUS[s], b"error page\n", extra)
        if s == "close":
            self.close_connection = True
            self.log(0, 0)
            return
        if s == "stall":
            STOP.wait(30)
            return self.send(200, ROBOTS_OK)
        if s == "flip":
            if os.path.exists(os.path.join(STATEDIR, "flip.fail")):
                return self.send(503, b"down\n")
            return self.send(200, b"User-agent: *\nDisallow: /flip\n", [("Cache-Control", "max-age=300")])
        if s in CACHE:
            self.send_response(200)
            self.send_header("Content-Length", str(len(ROBOTS_OK)))
            for v in CACHE[s]:
                self.send_header("Cache-Control", v)
            self.end_headers()
            self.wfile.write(ROBOTS_OK)
            return self.log(len(ROBOTS_OK), 1)
        if path != "/robots.txt":
            return self.send(404, b"not here\n")
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
        if s == "cc304":
            hdrs = [("ETag", '"c1"')]
            if self.headers.get("If-None-Match") == '"c1"':
                try:
                    with open(os.path.join(STATEDIR, "cc304.maxage")) as f:
                        hdrs.append(("Cache-Control", "max-age=" + f.read().strip()))
                except OSError:
                    pass
                return self.send(304, b"", hdrs)
            return self.send(200, b"User-agent: *\nDisallow: /cc304\n",
                             hdrs + [("Cache-Control", "max-age=1000")])
        if s == "body":
            try:
                with open(os.path.join(STATEDIR, "body.bin"), "rb") as f:
                    return self.send(200, f.read())
            except OSError:
                return self.send(200, ROBOTS_OK)
        if s.startswith("slow"):
            time.sleep(1)
            return self.send(200, b"User-agent: *\nDisallow: /%s\n" % s.encode())
        body = body_for(s)
        return self.send(200, body, chunk=65536 if s == "big" else None)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    names = ["ok", "bom", "html", "exact", "big", "ua", "redirx", "loop", "close", "stall", "flip"]
    names += [f"redir{i}" for i in range(1, 7)] + list(STATUS) + list(CACHE)
    names += ["etag", "lm", "cc304", "body"] + [f"slow{i}" for i in range(1, 7)]
    servers = []
    for name in names:
        handler = type("H_" + name, (Handler,), {"scenario": name})
        srv = Server(("127.0.0.1", 0), handler)
        PORTS[name] = srv.server_address[1]
        servers.append(srv)
    for srv in servers:
        threading.Thread(target=srv.serve_forever, daemon=True).start()
    tmp = PORTFILE + ".tmp"
    with open(tmp, "w") as f:
        for name in names:
            f.write(f"{name} {PORTS[name]}\n")
    os.rename(tmp, PORTFILE)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        STOP.set()


if __name__ == "__main__":
    main()
