#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Peer benchmark for Python robots.txt parsers (bench/run.sh runs it with
the system interpreter /usr/bin/python3, which sees Debian's packages).

  peer_py.py --lib urllib|protego [--agent A] [--rounds N] [--min-ms M] JOBS.tsv

JOBS.tsv: name <TAB> robots.txt path <TAB> URL list path, one job a line.
For each job: parse once, then check every URL, the same way robotsc bench
does it: file I/O and byte decoding happen before timing; each figure is
the median of N rounds (after a warm-up), a round repeating the operation
until it lasts at least M ms. Prints a TSV on stdout:
  name n_urls parse_us check_ns disallowed
"""
import argparse
import statistics
import sys
import time


def make_parser(lib):
    if lib == "urllib":
        from urllib.robotparser import RobotFileParser

        def parse(text):
            rp = RobotFileParser()
            rp.parse(text.splitlines())
            rp.modified()  # can_fetch() says False until "last checked" is set
            return rp

        def check(rp, url, agent):
            return rp.can_fetch(agent, url)

        return parse, check
    if lib == "protego":
        from protego import Protego

        def parse(text):
            return Protego.parse(text)

        def check(rp, url, agent):
            return rp.can_fetch(url, agent)

        return parse, check
    raise SystemExit("unknown lib " + lib)


def timed(fn, rounds, min_ns):
    """Median ns of one call of fn(), after a warm-up / calibration call."""
    t0 = time.perf_counter_ns()
    fn()
    once = max(time.perf_counter_ns() - t0, 1)
    reps = max(1, -(-min_ns // once))
    samples = []
    for _ in range(rounds):
        t0 = time.perf_counter_ns()
        for _ in range(reps):
            fn()
        samples.append((time.perf_counter_ns() - t0) / reps)
    return statistics.median(samples)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--agent", default="Googlebot")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--min-ms", type=float, default=5)
    ap.add_argument("jobs")
    a = ap.parse_args()
    parse, check = make_parser(a.lib)
    min_ns = int(a.min_ms * 1e6)
    print("name\tn_urls\tparse_us\tcheck_ns\tdisallowed")
    with open(a.jobs, encoding="utf-8") as f:
        jobs = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    for name, robots, urlfile in jobs:
        with open(robots, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
        with open(urlfile, "rb") as f:
            urls = [u.decode("utf-8", errors="replace") for u in f.read().split(b"\n")]
        urls = [u.rstrip("\r") for u in urls if u.rstrip("\r")]
        agent = a.agent
        try:
            parse_ns = timed(lambda: parse(text), a.rounds, min_ns)
            rp = parse(text)
            disallowed = sum(1 for u in urls if not check(rp, u, agent))

            def loop():
                for u in urls:
                    check(rp, u, agent)

            check_ns = timed(loop, a.rounds, min_ns) / len(urls)
        except Exception as e:  # a peer that crashes on a real file is a result too
            print(f"{name}: {a.lib} failed: {e!r}", file=sys.stderr)
            print(f"{name}\t{len(urls)}\tnan\tnan\tnan")
            continue
        print(f"{name}\t{len(urls)}\t{parse_ns / 1e3:.3f}\t{check_ns:.1f}\t{disallowed}", flush=True)


if __name__ == "__main__":
    main()
