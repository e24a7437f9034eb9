#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the hostile cases of issue 10 as robots.txt + URL list pairs.

  hostile_cases.py [--quick] [--seed N] CORPUS_DIR OUT_DIR

CORPUS_DIR is ../shared/corpus (robots/ and urls/ are read for case d).
OUT_DIR receives NAME.robots.txt and NAME.urls.txt for each case and
cases.tsv (name, robots, urls, description), one line a case. Deterministic:
every random choice comes from random.Random(seed), and files are read in
name order. --quick makes the URL lists lighter (fewer URLs, a shorter
path for case b); the robots.txt files are the same.

  a_ab24       10,000 rules `Disallow: /*<24 random letters a/b>`; URLs
               http://h.test/ + 1,000 random a/b (20 of them)
  b_a5000b     3 rules `Disallow: /*` + a{5000}b (and 4999, 4998 a's);
               the URL http://h.test;ab + 60,000 a (the path needs the
               implicit / in front)
  c_outranked  10,000 rules `Disallow: /*qNNNNN` (00000..09999) plus
               `Allow: /` + k{200}; URLs http://h.test/ + k{200} + /x?q000NN
               (NN = 00..99): every URL matches a wildcard rule, all are
               outranked by the longer Allow
  d_real_wild  the distinct real wildcard rules (Disallow/Allow lines with
               a `*`) of every file of CORPUS_DIR/robots in one
               `User-agent: *` group, in a seeded random order, cut at
               480,000 bytes; 2,000 URLs
               sampled from CORPUS_DIR/urls/*.txt
"""
import argparse
import os
import random
import sys

CAP = 480_000


def write(path, lines):
    with open(path, "wb") as f:
        for line in lines:
            f.write(line if isinstance(line, bytes) else line.encode("latin-1"))
            f.write(b"\n")


def case_a(rng, quick):
    rules = set()
    out = ["User-agent: *"]
    while len(rules) < 10_000:
        s = "".join(rng.choice("ab") for _ in range(24))
        if s not in rules:
            rules.add(s)
            out.append("Disallow: /*" + s)
    n = 5 if quick else 20
    urls = ["http://h.test/" + "".join(rng.choice("ab") for _ in range(1000)) for _ in range(n)]
    return out, urls, "10,000 rules `Disallow: /*<24 random a/b>`, %d URLs of 1,000 random a/b" % n


def case_b(quick):
    out = ["User-agent: *"] + ["Disallow: /*" + "a" * k + "b" for k in (5000, 4999, 4998)]
    n = 20_000 if quick else 60_000
    urls = ["http://h.test;ab" + "a" * n]
    return out, urls, "3 rules `Disallow: /*a{5000}b` (5000, 4999, 4998 a's), URL `http://h.test;ab` + %s a" % (
        f"{n:,}")


def case_c(quick):
    out = ["User-agent: *", "Allow: /" + "k" * 200] + ["Disallow: /*q%05d" % i for i in range(10_000)]
    n = 20 if quick else 100
    urls = ["http://h.test/" + "k" * 200 + "/x?q%05d" % i for i in range(n)]
    return out, urls, "10,000 rules `Disallow: /*qNNNNN` outranked by `Allow: /k{200}`, %d URLs" % n


def real_wildcard_rules(corpus):
    """Distinct (directive, value) pairs of Allow/Disallow lines whose value has a `*`, in order of first
    appearance over the files in name order."""
    seen = set()
    rules = []
    rdir = os.path.join(corpus, "robots")
    for name in sorted(os.listdir(rdir)):
        try:
            with open(os.path.join(rdir, name), "rb") as f:
                data = f.read()
        except OSError:
            continue
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        for raw in data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n"):
            line = raw.split(b"#", 1)[0]
            if b":" not in line:
                continue
            key, val = line.split(b":", 1)
            key = key.strip().lower()
            if key not in (b"disallow", b"allow"):
                continue
            val = val.strip()
            if b"*" not in val or b"\x00" in val:
                continue
            k = (key, val)
            if k not in seen:
                seen.add(k)
                rules.append(k)
    return rules


def case_d(rng, corpus, quick):
    rules = real_wildcard_rules(corpus)
    rng.shuffle(rules)  # the cap keeps a sample of every site's rules, not the first sites by name
    out = [b"User-agent: *"]
    size = len(out[0]) + 1
    kept = 0
    for key, val in rules:
        line = (b"Disallow: " if key == b"disallow" else b"Allow: ") + val
        if size + len(line) + 1 > CAP:
            break
        out.append(line)
        size += len(line) + 1
        kept += 1
    udir = os.path.join(corpus, "urls")
    pool = []
    for name in sorted(os.listdir(udir)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(udir, name), "rb") as f:
            pool.extend(u for u in f.read().split(b"\n") if u.strip())
    n = min(len(pool), 200 if quick else 2000)
    urls = rng.sample(pool, n)
    desc = "%s distinct real wildcard rules of the corpus%s in one group, %s real URLs" % (
        f"{kept:,}", "" if kept == len(rules) else f" (of {len(rules):,}, cut at {CAP:,} bytes)", f"{n:,}")
    return out, urls, desc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("corpus")
    ap.add_argument("out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    # One generator per case, so that --quick (fewer URLs drawn in a) leaves the files of d unchanged.
    cases = [("a_ab24",) + case_a(random.Random(a.seed * 16 + 1), a.quick), ("b_a5000b",) + case_b(a.quick),
             ("c_outranked",) + case_c(a.quick),
             ("d_real_wild",) + case_d(random.Random(a.seed * 16 + 4), a.corpus, a.quick)]
    with open(os.path.join(a.out, "cases.tsv"), "w", encoding="utf-8") as idx:
        idx.write("name\trobots\turls\tdescription\n")
        for name, robots, urls, desc in cases:
            rp = os.path.join(a.out, name + ".robots.txt")
            up = os.path.join(a.out, name + ".urls.txt")
            write(rp, robots)
            write(up, urls)
            idx.write(f"{name}\t{rp}\t{up}\t{desc}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
