#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Compile-and-check in one process from Python (issue 36): for every real
URL list, Robots.parse(robots.txt) + Robots.allowed(url, "Googlebot") for
each URL of the list, the way a one-shot script uses the package. Run once
per build (bench/run.sh step 8 runs 1.0.0's package and this tree's
alternately, with PYTHONPATH pointing at each build's package).

  parse_check.py --jobs JOBS.tsv [--reps N] [--lang-list NAME --lang-out TSV] > out.tsv

JOBS.tsv: bench/jobs.awk's lines (name, robots.txt path, URLs path). Output:
name, urls, ns (the median of N repetitions of parse + every check of the
list). A list whose robots.txt the package refuses (it looks binary, and
text=True is not the default) is left out, for every build alike.

--lang-list NAME --lang-out TSV: also the per-language table's rows
(bench/run.sh documents the columns) for list NAME: mode single
(Robots.allowed per URL, the file parsed once) and batch (allowed_many),
the median ns per check of N repetitions. Nothing here asserts a time."""
import argparse
import statistics
import sys
import time

import robotsc


def read_jobs(path):
    jobs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3 and parts[0] != "name":
                jobs.append(parts[:3])
    return jobs


def read_list(robots, urls):
    with open(robots, "rb") as f:
        body = f.read()
    with open(urls, encoding="utf-8", errors="replace") as f:
        u = [x.strip() for x in f if x.strip()]
    return body, u


def parse_and_check(body, urls):
    r = robotsc.Robots.parse(body)
    n = 0
    for u in urls:
        n += r.allowed(u, "Googlebot")
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", required=True)
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--lang-list")
    ap.add_argument("--lang-out")
    a = ap.parse_args()
    out = sys.stdout
    out.write("name\turls\tns\n")
    for name, robots, urls in read_jobs(a.jobs):
        body, u = read_list(robots, urls)
        try:
            parse_and_check(body, u)  # warm-up; refused files are left out
        except Exception as e:  # noqa: BLE001 - any refusal leaves the list out
            print(f"refused {name}: {e}", file=sys.stderr)
            continue
        v = []
        for _ in range(a.reps):
            t0 = time.perf_counter_ns()
            parse_and_check(body, u)
            v.append(time.perf_counter_ns() - t0)
        out.write(f"{name}\t{len(u)}\t{statistics.median(v):.0f}\n")
        if a.lang_list and a.lang_out and name == a.lang_list:
            r = robotsc.Robots.parse(body)
            single, batch = [], []
            for _ in range(a.reps):
                t0 = time.perf_counter_ns()
                for x in u:
                    r.allowed(x, "Googlebot")
                single.append((time.perf_counter_ns() - t0) / len(u))
                t0 = time.perf_counter_ns()
                r.allowed_many(u, "Googlebot")
                batch.append((time.perf_counter_ns() - t0) / len(u))
            with open(a.lang_out, "w", encoding="utf-8") as f:
                f.write("language\tmode\tlist\turls\tns_per_check\tc_ns_per_check\tnote\n")
                f.write(f"Python\tsingle\t{name}\t{len(u)}\t{statistics.median(single):.1f}\t\t"
                        f"Robots.allowed, robotsc {robotsc.__version__ if hasattr(robotsc, '__version__') else '?'}\n")
                f.write(f"Python\tbatch\t{name}\t{len(u)}\t{statistics.median(batch):.1f}\t\t"
                        "Robots.allowed_many\n")
        out.flush()


if __name__ == "__main__":
    main()
