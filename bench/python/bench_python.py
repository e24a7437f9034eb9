# SPDX-License-Identifier: Apache-2.0
"""Per-check and per-parse cost from Python: robotsc (Robots.allowed,
Robots.allowed_many) against Protego and urllib.robotparser, on the same
corpus files and URLs, in one run. Prints a Markdown report (bench/PYTHON.md).

usage: python bench_python.py [--corpus DIR] [--agent NAME] [--max-urls N] [--repeat R]

Every host that has both robots/HOST.txt and urls/HOST.txt in the corpus is
used; each parser gets the same (file, URL) pairs. Times are the best of R
runs of the whole set, divided by the number of checks.
"""
import argparse
import os
import platform
import statistics
import sys
import time
import urllib.robotparser

import robotsc

try:
    import protego
except ImportError:  # reported in the output
    protego = None


def best_of(repeat, fn):
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        fn()
        dt = time.perf_counter_ns() - t0
        best = dt if best is None or dt < best else best
    return best


def quartiles(xs):
    q = statistics.quantiles(xs, n=4)
    return q[0], q[2]


def load(corpus, max_urls):
    hosts = []
    urls_dir = os.path.join(corpus, "urls")
    for name in sorted(os.listdir(urls_dir)):
        robots_path = os.path.join(corpus, "robots", name)
        if not os.path.exists(robots_path):
            continue
        with open(robots_path, "rb") as f:
            body = f.read()
        with open(os.path.join(urls_dir, name), encoding="utf-8", errors="replace") as f:
            urls = [u.strip() for u in f if u.strip()][:max_urls]
        if urls:
            hosts.append((name[:-4], body, urls))
    return hosts


def median_file(corpus):
    d = os.path.join(corpus, "robots")
    sizes = sorted((os.path.getsize(os.path.join(d, n)), n) for n in os.listdir(d))
    size, name = sizes[len(sizes) // 2]
    with open(os.path.join(d, name), "rb") as f:
        return name, f.read()


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--corpus", default=os.path.join(here, "..", "..", "..", "shared", "corpus"))
    ap.add_argument("--agent", default="Googlebot")
    ap.add_argument("--max-urls", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    if not os.path.isdir(os.path.join(a.corpus, "robots")):
        print("corpus absent (%s): nothing measured" % a.corpus, file=sys.stderr)
        return 77
    agent = a.agent
    hosts = load(a.corpus, a.max_urls)
    n_checks = sum(len(u) for _, _, u in hosts)

    ours = [(robotsc.Robots.parse(body), urls) for _, body, urls in hosts]
    ours_bytes = [(r, [u.encode() for u in urls]) for r, urls in ours]
    std = []
    for _, body, urls in hosts:
        rp = urllib.robotparser.RobotFileParser()
        rp.parse(body.decode("utf-8", "replace").splitlines())
        std.append((rp, urls))
    theirs = [(protego.Protego.parse(body.decode("utf-8", "replace")), urls)
              for _, body, urls in hosts] if protego else []

    def run_allowed():
        for r, urls in ours:
            for u in urls:
                r.allowed(u, agent)

    ua = "Mozilla/5.0 (compatible; %s/2.1; +http://www.example.com/bot.html)" % agent

    def run_allowed_ua():
        for r, urls in ours:
            for u in urls:
                r.allowed(u, user_agent=ua)

    def run_many():
        for r, urls in ours:
            r.allowed_many(urls, agent)

    def run_many_bytes():
        for r, urls in ours_bytes:
            r.allowed_many(urls, agent)

    def run_protego():
        for rp, urls in theirs:
            for u in urls:
                rp.can_fetch(u, agent)

    def run_std():
        for rp, urls in std:
            for u in urls:
                rp.can_fetch(agent, u)

    rows = []  # (name, ns per check)
    rows.append(("robotsc `Robots.allowed(url, token)`", best_of(a.repeat, run_allowed) / n_checks))
    rows.append(("robotsc `Robots.allowed(url, user_agent=full User-Agent)`", best_of(a.repeat, run_allowed_ua) / n_checks))
    rows.append(("robotsc `Robots.allowed_many(urls, token)` (str)", best_of(a.repeat, run_many) / n_checks))
    rows.append(("robotsc `Robots.allowed_many(urls, token)` (bytes)", best_of(a.repeat, run_many_bytes) / n_checks))
    if protego:
        rows.append(("Protego `can_fetch`", best_of(a.repeat, run_protego) / n_checks))
    rows.append(("urllib.robotparser `can_fetch`", best_of(a.repeat, run_std) / n_checks))

    # Per host: each parser's best time on that host's URLs; the median over
    # hosts of the ratio shows the typical site, the totals above weigh the
    # few sites with hundreds of wildcard rules.
    per_host = []
    if protego:
        for (r, urls), (rp, _) in zip(ours, theirs):
            t_one = best_of(a.repeat, lambda: [r.allowed(u, agent) for u in urls])
            t_many = best_of(a.repeat, lambda: r.allowed_many(urls, agent))
            t_p = best_of(a.repeat, lambda: [rp.can_fetch(u, agent) for u in urls])
            per_host.append((t_p / t_one, t_p / t_many))

    # Agreement with robotsc (Google's verdicts), for information.
    agree = {}
    want = [r.allowed_many(urls, agent) for r, urls in ours]
    if protego:
        agree["Protego"] = sum(rp.can_fetch(u, agent) == w
                               for (rp, urls), ws in zip(theirs, want) for u, w in zip(urls, ws))
    agree["urllib.robotparser"] = sum(rp.can_fetch(agent, u) == w
                                      for (rp, urls), ws in zip(std, want) for u, w in zip(urls, ws))

    name, body = median_file(a.corpus)
    text = body.decode("utf-8", "replace")
    reps = 200
    parse = [("robotsc `Robots.parse`", best_of(a.repeat, lambda: [robotsc.Robots.parse(body) for _ in range(reps)]) / reps)]
    if protego:
        parse.append(("Protego `Protego.parse`", best_of(a.repeat, lambda: [protego.Protego.parse(text) for _ in range(reps)]) / reps))

    def std_parse():
        for _ in range(reps):
            rp = urllib.robotparser.RobotFileParser()
            rp.parse(text.splitlines())
    parse.append(("urllib.robotparser `parse`", best_of(a.repeat, std_parse) / reps))

    base = dict(rows)
    p_ns = base.get("Protego `can_fetch`")
    u_ns = base["urllib.robotparser `can_fetch`"]
    out = []
    out.append("# Python binding benchmark\n")
    out.append("Generated by `bench/python/bench_python.py` (%s, Python %s, Protego %s, %s)." % (
        time.strftime("%Y-%m-%d", time.gmtime()), platform.python_version(),
        getattr(protego, "__version__", "installed" if protego else "absent"), platform.machine()))
    out.append("Same corpus files and URLs for every parser: %d hosts with a URL list, %d checks "
               "(at most %d URLs a host), agent `%s`; best of %d runs.\n" % (
                   len(hosts), n_checks, a.max_urls, agent, a.repeat))
    out.append("## Per check\n")
    out.append("| checker | ns/check | vs Protego | vs urllib.robotparser |")
    out.append("| --- | ---: | ---: | ---: |")
    for label, ns in rows:
        vp = "%.1fx" % (p_ns / ns) if p_ns else "-"
        out.append("| %s | %.0f | %s | %.1fx |" % (label, ns, vp, u_ns / ns))
    out.append("")
    if per_host:
        out.append("Per host (best of %d on each host's URLs, same loops), the median over the %d "
                   "hosts of Protego's time / robotsc's time: `allowed` %.1fx, `allowed_many` %.1fx "
                   "(quartiles %.1fx-%.1fx and %.1fx-%.1fx).\n" % (
                       a.repeat, len(per_host), statistics.median(x for x, _ in per_host),
                       statistics.median(y for _, y in per_host),
                       *quartiles([x for x, _ in per_host]), *quartiles([y for _, y in per_host])))
    out.append("Agreement with Google's verdicts (robotsc) on these checks: " + ", ".join(
        "%s %.2f%%" % (k, 100.0 * v / n_checks) for k, v in agree.items()) + ".\n")
    out.append("## Parse (corpus median file: `%s`, %d bytes)\n" % (name, len(body)))
    out.append("| parser | us/parse | vs Protego |")
    out.append("| --- | ---: | ---: |")
    pp = dict(parse).get("Protego `Protego.parse`")
    for label, ns in parse:
        out.append("| %s | %.1f | %s |" % (label, ns / 1000, "%.1fx" % (pp / ns) if pp else "-"))
    out.append("")
    targets = []
    if p_ns:
        r1 = p_ns / base["robotsc `Robots.allowed(url, token)`"]
        r2 = p_ns / base["robotsc `Robots.allowed_many(urls, token)` (str)"]
        r3 = pp / parse[0][1]
        targets.append("| `allowed` >= 20x faster than Protego per check | %.1fx | %s |" % (r1, "met" if r1 >= 20 else "NOT met"))
        targets.append("| `allowed_many` >= 100x faster than Protego per check | %.1fx | %s |" % (r2, "met" if r2 >= 100 else "NOT met"))
        targets.append("| `Robots.parse` faster than `Protego.parse` (median file) | %.1fx | %s |" % (r3, "met" if r3 > 1 else "NOT met"))
        out.append("## Targets (issue 13)\n")
        out.append("Measured over all checks (the per-check table); the per-host medians are above.\n")
        out.append("| target | measured | |")
        out.append("| --- | ---: | --- |")
        out.extend(targets)
        out.append("")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
