# SPDX-License-Identifier: Apache-2.0
"""The readers and order statistics that bench/report.py and bench/report36.py
share (and bench/floors/run.sh, through report.py's quantile), so that every
section of bench/REPORT.md reads the raw results one way."""
import csv
import math
import os
import statistics


def read_tsv(path):
    """Rows of a TSV file with a header line, as dicts; [] when it is absent.
    Lines starting with '#' (bench_worker's summaries) are skipped."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [x for x in f if not x.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def read_kv(path):
    """key=value, one a line."""
    d = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    d[k] = v
    return d


def read_kv_words(path):
    """key=value tokens separated by spaces, over several lines."""
    d = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            for tok in f.read().split():
                if "=" in tok:
                    k, v = tok.split("=", 1)
                    d[k] = v
    return d


def num(x):
    """x as a finite float, else None."""
    try:
        v = float(x)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def quantile(v, q):
    """Nearest-rank quantile, as bench_util.c's bu_quantile (None values
    left out; None for no value)."""
    v = sorted(x for x in v if x is not None)
    if not v:
        return None
    return v[max(0, min(len(v) - 1, math.ceil(q * len(v)) - 1))]


def med(v):
    """The median of the values that are not None; None for none."""
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None
