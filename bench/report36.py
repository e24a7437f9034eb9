# SPDX-License-Identifier: Apache-2.0
"""Issue 36's sections of bench/REPORT.md, from RESULTS_DIR/i36 (written by
bench/issue36.sh, step 8 of bench/run.sh): each target of the issue judged
met or missed from this run's measurements of this tree against 1.0.0
(3a05c31) built side by side; and the per-language check cost table, from
whatever RESULTS_DIR/i36/lang/*.tsv exist. Imported by bench/report.py;
every figure is computed here from the raw files, none is typed in."""
import math
import os

# the readers and statistics of bench/report.py (which imports this file)
from reportlib import num as _num, quantile as _q, read_kv as _kv, read_kv_words as _words, read_tsv as _tsv


def _div(a, b):
    return a / b if a is not None and b else None


def _table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def _f(x, unit="", nd=1):
    if x is None:
        return "n/a"
    if abs(x) >= 1000:
        return f"{x:,.0f}{unit}"
    return f"{x:.{nd}f}{unit}"


def _us(ns):
    return "n/a" if ns is None else (f"{ns / 1e6:,.2f} ms" if ns >= 1e6 else f"{ns / 1e3:,.1f} µs")


def _x(r, nd=2):
    return "n/a" if r is None else f"{r:.{nd}f}x"


def _verdict(ok):
    return "n/a" if ok is None else ("met" if ok else "**missed**")


def _judge(value, op, limit):
    if value is None:
        return None
    return value <= limit if op == "<=" else value >= limit


def _worker(i36):
    """{mode: {name: row}} for old and new (rows of lists that failed are
    not there: bench_worker says why in worker_*.err)."""
    out = {}
    for side in ("old", "new"):
        d = {}
        for r in _tsv(os.path.join(i36, f"worker_{side}.tsv")):
            if _num(r.get("ns")) is not None:
                d.setdefault(r["mode"], {})[r["name"]] = r
        out[side] = d
    return out


def _runs(d, stem, sep="_", ext=".tsv"):
    """The files in d of a measurement's runs: STEM+EXT and STEM+SEP+K+EXT
    (the hostile cases: hostile_old_K.tsv, older runs of bench/issue36.sh
    hostile_old.tsv and hostile_old_2.tsv; the store's checks: run.sh's
    check.MODE.WS.P and issue36.sh's check.MODE.WS.P.rK)."""
    if not os.path.isdir(d):
        return []
    def is_run(f):
        if f == stem + ext:
            return True
        k = f[len(stem) + len(sep):len(f) - len(ext)]
        return f.startswith(stem + sep) and f.endswith(ext) and k.isdigit()
    return sorted(os.path.join(d, f) for f in os.listdir(d) if is_run(f))


def _count_lines(path):
    if not os.path.exists(path):
        return 0
    with open(path, encoding="utf-8", errors="replace") as f:
        return sum(1 for x in f if x.strip())


def _store(i36, side):
    w = os.path.join(i36, f"store_{side}")
    if not os.path.exists(os.path.join(w, "filesize")):
        return None
    s = {}
    with open(os.path.join(w, "filesize")) as f:
        s["file"] = _num(f.read().strip())
    for j in ("1", "2"):
        p = os.path.join(w, f"build.{j}")
        if os.path.exists(p):
            with open(p, errors="replace") as f:
                for line in f:
                    if line.startswith("time: "):
                        s[f"wall{j}"] = _num(line.split()[1])
        p = os.path.join(w, f"time.{j}")
        if os.path.exists(p):
            with open(p) as f:
                t = f.read().split()
            if len(t) >= 2:
                s[f"cpu{j}"] = _num(t[0]) + _num(t[1]) if _num(t[0]) is not None and _num(t[1]) is not None else None
    for key, fn in (("uncached", "check.uncached.0.1"), ("cached", "check.cached.10000.1"),
                    ("hot", "check.cached.100.1")):
        # a run's median per check; the median of the runs (run.sh's one, or
        # issue36.sh's FN.rK, alternating with the other build's)
        for p in _runs(w, fn, ".r", ""):
            with open(p) as f:
                for line in f:
                    c = line.rstrip("\n").split("\t")
                    if c[0] == "reader" and len(c) > 5 and c[4] == "0" and _num(c[5]) is not None:
                        s.setdefault(key + "_runs", []).append(_num(c[5]))
        if s.get(key + "_runs"):
            s[key] = _q(s[key + "_runs"], 0.5)
    p = os.path.join(w, "stat")
    if os.path.exists(p):
        with open(p) as f:
            for line in f:
                if line.startswith("records: "):
                    s["records"] = _num(line.split()[1])
    return s


def _compile(i36, side):
    rows = _tsv(os.path.join(i36, f"compile_{side}.tsv"))
    if not rows:
        return None
    s = _words(os.path.join(i36, f"compile_{side}.txt"))
    ok = [r for r in rows if r.get("status") == "ok"]
    ct = [_num(r["compile_ns"]) for r in rows]
    blobs = [int(r["blob_bytes"]) for r in ok]
    src = sum(int(r["source_bytes"]) for r in ok)
    vsum = sum(_num(r["verify_ns"]) or 0 for r in ok)
    return {
        "files": len(rows), "ok": len(ok), "partial": s.get("partial") == "1",
        "median_ns": _q(ct, 0.5), "p99_ns": _q(ct, 0.99), "max_ns": max(x for x in ct if x is not None),
        "whole_s": _num(s.get("whole_pass_s")), "blob_total": sum(blobs), "src_total": src,
        "blob_median": _q(blobs, 0.5), "blob_p99": _q(blobs, 0.99), "blob_max": max(blobs) if blobs else None,
        "verify_gbps": sum(blobs) / vsum if vsum else None,
    }


def _floor(i36, side):
    return {r["name"]: r for r in _tsv(os.path.join(i36, f"floor_{side}.tsv")) if _num(r.get("ratio")) is not None}


def _ratio_stats(rows, key_m="match_ns", key_f="floor_ns"):
    """median and p90 of per-list ratios; all URLs weighted by their count."""
    rs, m, f = [], 0.0, 0.0
    for r in rows:
        a, b, n = _num(r.get(key_m)), _num(r.get(key_f)), _num(r.get("urls"))
        if a is None or not b or not n:
            continue
        rs.append(a / b)
        m += a * n
        f += b * n
    return {"n": len(rs), "median": _q(rs, 0.5), "p90": _q(rs, 0.9), "all": m / f if f else None,
            "worst": max(rs) if rs else None}


def _matching_why(w, fo, fn, common, sn):
    """What keeps the matching targets out of reach, from this run's floor
    figures: the lists without a DFA in the blob, and the compact DFA's step
    against 1.0.0's dense run-time DFA on the same lists."""
    dfa = [k for k in common if fn[k].get("engine") == "2"]
    prog = [k for k in common if fn[k].get("engine") == "0"]
    tot = sum(_num(fn[k]["match_ns"]) * _num(fn[k]["urls"]) for k in common)
    ptot = sum(_num(fn[k]["match_ns"]) * _num(fn[k]["urls"]) for k in prog)
    sd = _ratio_stats([fn[k] for k in dfa])
    # this tree's compact DFA against 1.0.0's dense one, where both ran a whole DFA
    fac = [(_num(fn[k]["match_ns"]) / _num(fn[k]["floor_ns"])) /
           (_num(fo[k]["alt_match_ns"]) / _num(fo[k]["alt_floor_ns"]))
           for k in dfa if fo[k].get("alt_fit") == "1" and _num(fo[k].get("alt_match_ns")) and _num(fo[k].get("alt_floor_ns"))]
    if not tot or not fac or not sd["n"]:
        return
    f = _q(fac, 0.5)
    # every list that runs its programs here, on a DFA as fast as 1.0.0's run-time one times that factor
    hyp = []
    for k in common:
        r = dict(fn[k])
        if k in prog and fo[k].get("alt_fit") in ("1", "2") and _num(fo[k].get("alt_match_ns")) and \
                _num(fo[k].get("alt_floor_ns")) and _num(r.get("floor_ns")):
            alt = _num(fo[k]["alt_match_ns"]) / _num(fo[k]["alt_floor_ns"]) * f * _num(r["floor_ns"])
            r["match_ns"] = min(_num(r["match_ns"]), alt)
        hyp.append(r)
    sh = _ratio_stats(hyp)
    so = _ratio_stats([fo[k] for k in dfa], "alt_match_ns", "alt_floor_ns")
    targets = (("median", "the median list", 0.45), ("p90", "the p90 list", 1.0), ("all", "all URLs", 0.6))

    def joined(names):
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    missed = [(k, name, t) for k, name, t in targets if sn[k] is not None and sn[k] > t]
    if not missed:
        return
    # a missed target is the programs lists' when the lists would meet it on
    # DFAs, else also the DFA lists' own (their step)
    prog_only = [name for k, name, t in missed if sh[k] is not None and sh[k] <= t]
    step = [name for k, name, t in missed if not (sh[k] is not None and sh[k] <= t)]
    gap = _div(sn["all"] - sh["all"], sn["all"] - 0.6) if sn["all"] and sn["all"] > 0.6 else None
    w(f"Why {joined([name for _, name, _ in missed])} miss{'es' if len(missed) == 1 else ''} the matching "
      f"target{'' if len(missed) == 1 else 's'}, from the figures above. The {len(prog)} lists that run their programs "
      f"(their rule sets have no DFA in the blob, or none to run) take {ptot / tot:.0%} of the time of all URLs. The "
      f"{len(dfa)} lists on the blob's DFA: median {_x(sd['median'])}, p90 {_x(sd['p90'])}, all their URLs "
      f"{_x(sd['all'])}; 1.0.0's dense run-time DFA on the same lists: {_x(so['median'])}, {_x(so['p90'])}, "
      f"{_x(so['all'])}. On the {len(fac)} of them where 1.0.0 built a whole DFA, the blob's compact DFA takes a "
      f"median {_x(f)} the time of the dense one (whose table issue 36 measured at a median 22x the blob). Were "
      f"every programs list on a DFA that fast (1.0.0's run-time figure for it times {_x(f)}), the lists would "
      f"measure median {_x(sh['median'])}, p90 {_x(sh['p90'])}, all URLs {_x(sh['all'])} (targets 0.45x, 1.0x, "
      "0.6x). So "
      + "; ".join(
          ([f"the lists without a DFA stand between {joined(prog_only)} and {'its target' if len(prog_only) == 1 else 'their targets'}"]
           if prog_only else []) +
          ([f"the DFA's step, in the compact encoding that keeps the blobs within their size targets, stands between "
            f"{joined(step)} and {'its target' if len(step) == 1 else 'their targets'} even then"] if step else []))
      + (f" (the lists without a DFA are {gap:.0%} of what stands between all URLs and 0.6x)." if gap and gap < 1
         else "."))
    w("")


def _selections(i36, side):
    rows = [r for r in _tsv(os.path.join(i36, f"sel_{side}.tsv")) if r.get("engine") not in (None, "-1")]
    files = len({r["name"] for r in _tsv(os.path.join(i36, f"sel_{side}.tsv"))})
    # every agent is counted over every file: a file this build failed to
    # compile or load is a selection on no DFA
    def counts():
        return {"n": files, "loaded": 0, "runtime": 0, "partial": 0, "noset": 0}
    by = {ag: counts() for ag in ("Googlebot", "*")} if files else {}
    for r in rows:
        a = by.setdefault(r["agent"], counts())
        a["loaded"] += r["loaded_dfa"] == "1"
        a["noset"] += r["loaded_dfa"] != "1" and r.get("no_set") == "1"
        a["runtime"] += r["runtime_dfa"] == "1"
        a["partial"] += r["runtime_dfa"] == "2"
    return files, by


def _failed_files(i36, side):
    return sum(1 for r in _tsv(os.path.join(i36, f"sel_{side}.tsv")) if r.get("agent") == "-")


def _parse_check(i36, lang, side):
    """Per list: the best of the two runs (bench/issue36.sh runs each twice)."""
    d = {}
    for fn in (f"{lang}_{side}.tsv", f"{lang}_{side}_2.tsv"):
        for r in _tsv(os.path.join(i36, fn)):
            v = _num(r.get("ns"))
            if v is not None:
                d[r["name"]] = min(v, d.get(r["name"], v))
    return d


EXPECTED = [
    ("worker cost", "total <= 0.6x and <= 0.05x DFA@16; median <= 0.7x; no list >10% slower; load + one <= 1.2x"),
    ("matching", "median list <= 0.45x the floor, p90 <= 1.0x, all URLs <= 0.6x"),
    ("size", "blobs <= 1.0x sources, median <= 450 B, p99 <= 2x 1.0.0's, verification >= 2 GB/s"),
    ("compile", "median <= 25 µs, p99 <= 5 ms, whole corpus <= 5 s"),
    ("tiny runtime", "runtime/ <= 3,300 lines, no determinisation in runtime/"),
    ("hostile", "no worse than 1.0.0"),
    ("store", "file <= +25%, cached <= 300 ns, uncached <= 2.5 µs, build <= 2x"),
    ("compile-and-check", "Python and JavaScript parse + checks no slower than 1.0.0"),
    ("selections", "corpus selections on a whole DFA >= 98%"),
]


def section(res, w, hl=None):
    """Appends issue 36's sections (via w, one Markdown line a call); puts
    the README's headline figures in hl["i36"] (when hl is given)."""
    i36 = os.path.join(res, "i36")
    side = _kv(os.path.join(i36, "side.txt"))
    w("## Issue 36: the DFA in the blob, against 1.0.0 built side by side")
    w("")
    if side.get("built") != "1":
        w("Not measured in this run: `bench/baseline.sh` could not build both sides, or step 8 did not run "
          "(see `results/i36/baseline.log`).")
        w("")
        return
    old, new = _kv(os.path.join(i36, "old.txt")), _kv(os.path.join(i36, "new.txt"))
    w(f"`bench/issue36.sh` (step 8 of `bench/run.sh`) built 1.0.0 ({old.get('ref', '?')}: library "
      f"{old.get('version', '?')}, format {old.get('format', '?')}) and this tree ({new.get('commit', '?')}: "
      f"library {new.get('version', '?')}, format {new.get('format', '?')}) with the same compiler and flags "
      "(`bench/baseline.sh`), and ran both in this one run: the per-list benchmarks alternate between the two "
      "builds block by block of lists, which one first alternating, so that both see the same machine. "
      f"Load average {side.get('load_before', '?')} before, {side.get('load_after', '?')} after; "
      f"{side.get('elapsed_s', '?')} s. " + ("**Quick run: few lists, few repetitions; do not quote.** "
                                              if side.get("quick") == "1" else ""))
    w("")
    tg = []  # (group, target, measured, verdict)

    def target(group, label, value, op, limit, shown):
        tg.append((group, label, shown, _verdict(_judge(value, op, limit))))

    # ---- worker cost ----
    wk = _worker(i36)
    o, n = wk["old"], wk["new"]
    nmode = "blob" if "blob" in n else "programs"
    names = sorted(set(o.get("programs", {})) & set(n.get(nmode, {})))
    w("### Worker cost per origin")
    w("")
    w(f"`bench_worker worker` on {len(names)} real URL lists (each one origin with its real URLs; Googlebot): "
      "the blob already in memory, then `rsc_load` (verifies it) + `rsc_select` + `rsc_match_url` on every URL "
      f"of the list, the median of {side.get('reps', '?')} repetitions per list. 1.0.0: *programs* as loaded; "
      "*DFA@16* its policy (`robotsc check`, the store cache): the DFA built at the 16th URL into a 1 MiB "
      "buffer; *ready*: a DFA built beforehand and attached with `rsc_dfa_attach` (its check counted). This "
      "tree: *programs* (`rsc_selection_use(RSC_ENGINE_PROGRAMS)`) and *as loaded* (the blob's DFA where the "
      "compiler wrote one; loaded as a worker loads it, `rsc_load_ex(RSC_LOAD_DEFER)`: every byte checksummed "
      "and the programs of sets without a DFA verified at load, the selected set's DFA verified by `rsc_select`, "
      "the programs beside a DFA only when explain, the programs engine or a selection of several sets would "
      "run them). "
      "*Load + one check*: load + select + the first URL.")
    w("")
    cols = [("1.0.0 programs", o.get("programs", {})), ("1.0.0 DFA@16", o.get("dfa16", {})),
            ("1.0.0 ready DFA", o.get("ready", {})), ("this tree, programs", n.get("programs", {}) if nmode == "blob" else {}),
            ("this tree, as loaded", n.get(nmode, {}))]
    base = o.get("programs", {})

    def agg(d):
        v = [_num(d[k]["ns"]) for k in names if k in d]
        if len(v) != len(names) or not v:
            return None
        one = [_num(d[k]["one_ns"]) for k in names]
        cheaper = sum(_num(d[k]["ns"]) < _num(base[k]["ns"]) for k in names)
        return {"median": _q(v, 0.5), "p90": _q(v, 0.9), "total": sum(v), "one": _q(one, 0.5), "cheaper": cheaper,
                "twice": sum(_num(d[k]["ns"]) > 2 * _num(base[k]["ns"]) for k in names)}

    a = [agg(d) for _, d in cols]
    rows = []
    for label, key, fmt in (("median list", "median", _us), ("p90 list", "p90", _us),
                            (f"all {len(names)} lists", "total", _us), ("load + one check (median over the lists)", "one", _us),
                            ("lists cheaper than 1.0.0's programs", "cheaper", lambda x: f"{x} of {len(names)}"),
                            ("lists over 2x 1.0.0's programs", "twice", lambda x: f"{x} of {len(names)}")):
        rows.append([label] + [fmt(x[key]) if x else "n/a" for x in a])
    w(_table(["per origin"] + [c[0] for c in cols], rows))
    w("")
    nj = _count_lines(os.path.join(i36, "jobs.tsv"))
    w(f"Lists measured: 1.0.0 {len(o.get('programs', {}))}, this tree {len(n.get(nmode, {}))} of {nj}; a list a "
      "build could not compile, load or select is left out of both columns and named in "
      "`results/i36/worker_*.err`" + (f" (**{nj - len(names)} left out**)" if nj and len(names) < nj else "") + ".")
    w("")
    ao, a16, an = a[0], a[1], a[4]
    if not names:
        ao = a16 = an = None
    rc = {r["name"]: _num(r["median"]) for r in _tsv(os.path.join(i36, "worker_recheck.tsv"))}
    slower = []
    for k in names:
        r = _div(_num(n[nmode][k]["ns"]), _num(base[k]["ns"]))
        if r is not None and r > 1.10:
            r2 = rc.get(k)
            slower.append((k, r, r2))
    still = [s for s in slower if s[2] is None or s[2] > 1.10]
    if ao and an:
        target("worker cost", "total over all lists <= 0.6x 1.0.0's programs-only", _div(an["total"], ao["total"]),
               "<=", 0.6, f"{_x(_div(an['total'], ao['total']))} ({_us(an['total'])} against {_us(ao['total'])})")
        if a16:
            target("worker cost", "total <= 0.05x 1.0.0's DFA@16", _div(an["total"], a16["total"]), "<=", 0.05,
                   f"{_x(_div(an['total'], a16['total']), 3)} (against {_us(a16['total'])})")
        target("worker cost", "median list <= 0.7x 1.0.0's programs-only", _div(an["median"], ao["median"]), "<=", 0.7,
               f"{_x(_div(an['median'], ao['median']))} ({_us(an['median'])} against {_us(ao['median'])})")
        target("worker cost", "no list more than 10% slower than 1.0.0's programs-only", len(still), "<=", 0,
               f"{len(still)} lists (of {len(slower)} measured over 1.10x once; each rerun four times, the two "
               "builds back to back, and judged by the median)" +
               (": " + ", ".join(f"{k} {r2 if r2 is not None else r:.2f}x" for k, r, r2 in
                                 sorted(still, key=lambda s: -(s[2] or s[1]))[:8]) if still else ""))
        target("worker cost", "load + one check <= 1.2x 1.0.0's", _div(an["one"], ao["one"]), "<=", 1.2,
               f"{_x(_div(an['one'], ao['one']))} ({_f(an['one'], ' ns')} against {_f(ao['one'], ' ns')}, "
               "medians over the lists)")
    if ao and an and an["total"] > 0.6 * ao["total"]:
        # what keeps the total over 0.6x: the lists without a DFA in the blob
        nd = [k for k in names if n[nmode][k].get("engine") == "2"]
        nps = [k for k in names if n[nmode][k].get("engine") != "2"]
        tn = lambda ks: sum(_num(n[nmode][k]["ns"]) for k in ks)
        to = lambda ks: sum(_num(base[k]["ns"]) for k in ks)
        if nd and nps and to(nd) and to(nps):
            rd = _div(tn(nd), to(nd))
            hyp = _div(tn(nd) + rd * to(nps), ao["total"])
            w(f"The total over all lists: the {len(nd)} lists on the blob's DFA cost {_x(rd)} of 1.0.0's "
              f"programs-only on them, the {len(nps)} that run their programs (no DFA in the blob, or no rule set) "
              f"{_x(_div(tn(nps), to(nps)))}; those {len(nps)} are {_div(tn(nps), an['total']):.0%} of this tree's "
              f"total and {_div(to(nps), ao['total']):.0%} of 1.0.0's. Were they too at {_x(rd)}, the total would "
              f"be {_x(hyp)}: " + ("the DFA's cost on the real lists (the matching section below) keeps it "
                                   "over 0.6x even then." if hyp > 0.6 else
                                   "the lists without a DFA in the blob keep it over 0.6x."))
            w("")
    if not names and o.get("programs"):
        target("worker cost", "every target of the group", math.inf, "<=", 0,
               f"this tree measured none of the {len(o['programs'])} lists 1.0.0 measured (see "
               "results/i36/worker_new.err)")
    if slower:
        w("Lists measured more than 10% above 1.0.0's programs-only cost in the first pass, and the median of "
          "four reruns (new / old): " + "; ".join(
              f"{k} {r:.2f}x" + (f" -> {r2:.2f}x" if r2 is not None else "") for k, r, r2 in
              sorted(slower, key=lambda s: -s[1])[:20]) + ("; ..." if len(slower) > 20 else "") + ".")
        w("")

    # ---- matching ----
    fo, fn = _floor(i36, "old"), _floor(i36, "new")
    common = sorted(set(fo) & set(fn))
    so = _ratio_stats([fo[k] for k in common])
    sdo = _ratio_stats([fo[k] for k in common], "alt_match_ns", "alt_floor_ns")
    sn = _ratio_stats([fn[k] for k in common])
    snp = _ratio_stats([fn[k] for k in common if fn[k].get("alt") == "programs"], "alt_match_ns", "alt_floor_ns")
    w("### Matching against the FNV-1a floor")
    w("")
    w(f"`bench_worker floor` on {len(common)} lists: ns per URL of `rsc_match_url` over the list against hashing "
      "each URL with FNV-1a in the same loop (alternating rounds, the median; as `robotsc bench`). 1.0.0's "
      "run-time DFA is built at RSC_DFA_BUDGET (1 MiB) before timing; a list whose DFA does not fit runs its "
      "programs in that column.")
    w("")
    w(_table(["engine", "median list", "p90 list", "all URLs", "worst list"], [
        [lab] + [_x(s[k]) for k in ("median", "p90", "all", "worst")] for lab, s in
        (("1.0.0 programs (as loaded)", so), ("1.0.0 run-time DFA", sdo), ("this tree, programs", snp),
         ("this tree, as loaded", sn)) if s["n"]]))
    w("")
    if sn["n"]:
        target("matching", "median list <= 0.45x the floor", sn["median"], "<=", 0.45, _x(sn["median"]))
        target("matching", "p90 list <= 1.0x", sn["p90"], "<=", 1.0, _x(sn["p90"]))
        target("matching", "all URLs <= 0.6x", sn["all"], "<=", 0.6, _x(sn["all"]))
    if sn["n"] and sdo["n"]:
        _matching_why(w, fo, fn, common, sn)
    if not common and fo:
        target("matching", "every target of the group", math.inf, "<=", 0,
               f"this tree measured none of the {len(fo)} lists 1.0.0 measured (see results/i36/floor_new.err)")
    eng = {}
    for k in common:
        eng[fn[k].get("engine")] = eng.get(fn[k].get("engine"), 0) + 1
    if eng:
        w("Lists by engine as loaded (this tree): " + ", ".join(
            f"{ {'0': 'programs', '2': 'DFA'}.get(e, e)} {c}" for e, c in sorted(eng.items())) + ".")
        w("")

    # ---- size, compile ----
    co, cn = _compile(i36, "old"), _compile(i36, "new")
    w("### Size, verification and compile (`bench_compile` over the corpus)")
    w("")
    if co and cn:
        w("Each build ran twice, alternating (1.0.0, this tree, this tree, 1.0.0); a build's figures are its run "
          "with the shorter whole pass.")
        w("")
        def crow(label, f):
            return [label, f(co), f(cn)]
        w(_table(["figure", "1.0.0", "this tree"], [
            crow("files compiled", lambda c: f"{c['ok']:,} of {c['files']:,}" + (" (partial)" if c["partial"] else "")),
            crow("blobs / sources, total", lambda c: _x(_div(c["blob_total"], c["src_total"]))),
            crow("median blob", lambda c: _f(c["blob_median"], " B")),
            crow("p99 blob", lambda c: _f(c["blob_p99"], " B")),
            crow("largest blob", lambda c: _f(c["blob_max"], " B")),
            crow("verification (rsc_load), all blobs", lambda c: _f(c["verify_gbps"], " GB/s", 2)),
            crow("compile median", lambda c: _us(c["median_ns"])),
            crow("compile p99", lambda c: _us(c["p99_ns"])),
            crow("compile max", lambda c: _us(c["max_ns"])),
            crow("whole corpus, one pass", lambda c: _f(c["whole_s"], " s", 2)),
        ]))
        w("")
        r = _div(cn["blob_total"], cn["src_total"])
        target("size", "corpus blobs in total <= 1.0x their sources", r, "<=", 1.0, _x(r))
        target("size", "median blob <= 450 B", cn["blob_median"], "<=", 450, _f(cn["blob_median"], " B"))
        r = _div(cn["blob_p99"], co["blob_p99"])
        target("size", "p99 blob <= 2x 1.0.0's p99", r, "<=", 2.0,
               f"{_x(r)} ({_f(cn['blob_p99'], ' B')} against {_f(co['blob_p99'], ' B')})")
        target("size", "verification >= 2 GB/s", cn["verify_gbps"], ">=", 2.0, _f(cn["verify_gbps"], " GB/s", 2))
        target("compile", "median <= 25 µs", cn["median_ns"], "<=", 25e3, _us(cn["median_ns"]))
        target("compile", "p99 <= 5 ms", cn["p99_ns"], "<=", 5e6, _us(cn["p99_ns"]))
        target("compile", "whole corpus <= 5 s", None if cn["partial"] else cn["whole_s"], "<=", 5.0,
               _f(cn["whole_s"], " s", 2) + (" (partial)" if cn["partial"] else ""))
    else:
        w("Not measured (see `results/i36/compile_*.log`).")
        w("")

    # ---- runtime ----
    rt = _kv(os.path.join(i36, "runtime.txt"))
    nl, ol = _num(rt.get("new_lines")), _num(rt.get("old_lines"))
    if nl is not None:
        target("tiny runtime", "runtime/ at most 3,300 lines", nl, "<=", 3300,
               f"{nl:,.0f} lines (1.0.0: {_f(ol)}; `cat runtime/*.c runtime/*.h | wc -l`)")
        files = {}
        for x in rt.get("new_files", "").split():
            f, _, c = x.rpartition(":")
            if _num(c) is not None:
                files[f] = _num(c)
        if nl > 3300 and files:
            # by what the lines do: the programs' engine (the fallback item 4
            # keeps, and explain), the DFA's run, the verifier of both, the rest
            groups = (("the programs' engine and explain (match.c, program.h)", ("match.c", "program.h")),
                      ("the DFA's run (dfa.c)", ("dfa.c",)),
                      ("verification of every section (load.c)", ("load.c",)))
            named = {f for _, fs in groups for f in fs}
            parts = [f"{lab}: {sum(files.get(f, 0) for f in fs):,.0f}" for lab, fs in groups]
            parts.append(f"the API's other parts (selection, agents, URLs, records, directives, codecs): "
                         f"{sum(c for f, c in files.items() if f not in named):,.0f}")
            w("### runtime/, by what its lines do")
            w("")
            w(f"{nl:,.0f} lines (`cat runtime/*.c runtime/*.h | wc -l`): " + "; ".join(parts) + ". The programs' "
              "engine stays: it is the fallback for the rule sets whose DFA does not fit (item 4 of the issue) "
              "and it runs explain.")
            w("")
        nb = _num(rt.get("new_builder_functions_in_runtime"))
        ob = len(rt.get("old_builder_functions", "").split())
        target("tiny runtime", "no determinisation in runtime/", nb, "<=", 0,
               f"{_f(nb, '', 0)} of 1.0.0's {ob} determiniser functions (runtime/dfa.c, \"Building\") defined in "
               "runtime/" + (f": {rt.get('new_builder_functions_found', '').strip()}" if nb else ""))

    # ---- hostile ----
    ho = {}
    for fn_ in _runs(i36, "hostile_old"):
        for r in _tsv(fn_):
            v = [x for x in (_num(r.get("ratio")), _num(r.get("alt_ratio")) if r.get("alt_fit") in ("1", "2") else None)
                 if x is not None]
            if v:
                best = min(v)
                ho[r["name"]] = min(best, ho.get(r["name"], best))
                ho.setdefault(r["name"] + "#prog", _num(r.get("ratio")))
    hn = {}
    hruns = _runs(i36, "hostile_new")
    for fn_ in hruns:
        for r in _tsv(fn_):
            v = _num(r.get("ratio"))
            if v is not None:
                hn[r["name"]] = min(v, hn.get(r["name"], v))
                hn.setdefault(r["name"] + "#eng", r.get("engine"))
    hcases = sorted(k for k in hn if "#" not in k and k in ho)
    if not hcases and ho:
        target("hostile", "no worse than 1.0.0", math.inf, "<=", 0,
               "this tree measured none of the hostile cases (see results/i36/hostile_new.err)")
    if hcases:
        w("### Hostile cases (bench/hostile_cases.py)")
        w("")
        w(f"ns per URL over the FNV-1a floor, the best of {len(hruns)} runs per build (old, new, new, old, repeated). 1.0.0's "
          "figure is its better engine on the case: the programs, or the run-time DFA at 1 MiB where one was "
          "built; \"no worse\" allows 10% for noise.")
        w("")
        hrows, worse = [], []
        for k in hcases:
            r = _div(hn[k], ho[k])
            if r is not None and r > 1.10:
                worse.append(f"{k} {r:.2f}x")
            hrows.append([k, _x(ho.get(k + "#prog")), _x(ho[k]), _x(hn[k]),
                          {"0": "programs", "2": "DFA"}.get(hn.get(k + "#eng"), "?"), _x(r)])
        w(_table(["case", "1.0.0 programs", "1.0.0 best", "this tree", "engine", "this tree / 1.0.0 best"], hrows))
        w("")
        target("hostile", "every case no worse than 1.0.0 (within 10%)", len(worse), "<=", 0,
               f"{len(hcases) - len(worse)} of {len(hcases)} cases" + (f"; worse: {', '.join(worse)}" if worse else ""))

    # ---- store ----
    st_o, st_n = _store(i36, "old"), _store(i36, "new")
    if st_o and st_n:
        w("### Store (bench/store/run.sh, both builds)")
        w("")
        w(_table(["figure", "1.0.0", "this tree", "ratio"], [
            [lab, f(st_o.get(k)), f(st_n.get(k)), _x(_div(st_n.get(k), st_o.get(k)))] for lab, k, f in (
                ("origins", "records", lambda x: _f(x)),
                ("store file", "file", lambda x: "n/a" if x is None else f"{x / 1e9:.3f} GB"),
                ("store build -j1, wall", "wall1", lambda x: _f(x, " s", 2)),
                ("store build -j1, CPU", "cpu1", lambda x: _f(x, " s", 2)),
                ("check, uncached (median)", "uncached", lambda x: _f(x, " ns", 0)),
                ("check, program cache, 10,000 origins (median)", "cached", lambda x: _f(x, " ns", 0)),
                ("check, program cache, 100 origins (median)", "hot", lambda x: _f(x, " ns", 0)))]))
        w("")
        rn, ro = st_n.get("cached_runs") or [], st_o.get("cached_runs") or []
        if len(rn) > 1:
            w(f"Checks: 1,000,000 random URLs a run, each timed alone; a run's figure is its median check, and "
              f"a build's figure the median of its {len(rn)} runs, the two builds' runs alternating (old new, new "
              "old, ...) on stores built before them. A check over 10,000 cached origins is mostly memory misses, "
              f"which the machine's other work moves: in this run the cached check's runs measured {min(rn):,.0f} "
              f"to {max(rn):,.0f} ns (1.0.0: {min(ro, default=0):,.0f} to {max(ro, default=0):,.0f} ns).")
            w("")
        r = _div(st_n.get("file"), st_o.get("file"))
        target("store", "file size at most +25% over 1.0.0's", r, "<=", 1.25, _x(r))
        target("store", "cached check over 10,000 origins <= 300 ns", st_n.get("cached"), "<=", 300,
               _f(st_n.get("cached"), " ns", 0))
        target("store", "uncached check <= 2.5 µs", st_n.get("uncached"), "<=", 2500, _f(st_n.get("uncached"), " ns", 0))
        r = _div(st_n.get("wall1"), st_o.get("wall1"))
        if r and r > 2.0 and co and cn and _div(cn["whole_s"], co["whole_s"]):
            w(f"`store build` compiles every origin's robots.txt (here the corpus files cycled), and this tree's "
              "compiler determinises each rule set's DFA, which 1.0.0 left to every worker: its whole-corpus pass "
              f"took {_x(_div(cn['whole_s'], co['whole_s']))} 1.0.0's in this run (the compile section), the store "
              f"build {_x(r)}.")
            w("")
        target("store", f"store build of the {_f(st_n.get('records'))} origins at most 2x 1.0.0's time", r, "<=", 2.0,
               f"{_x(r)} wall at -j1 (CPU {_x(_div(st_n.get('cpu1'), st_o.get('cpu1')))})")

    # ---- compile-and-check ----
    medlist = side.get("median_list")
    pc_rows = []
    for lang, label in (("py", "Python `Robots.parse` + `allowed`"), ("js", "JavaScript `Robots.parse` + `allowed`")):
        po, pn = _parse_check(i36, lang, "old"), _parse_check(i36, lang, "new")
        ks = sorted(set(po) & set(pn))
        if not po:
            continue
        rs = [pn[k] / po[k] for k in ks if po[k]]
        at = _div(pn.get(medlist), po.get(medlist))
        pc_rows.append([label, f"{len(po)} / {len(pn)}", f"{medlist}: {_us(po.get(medlist))}", _us(pn.get(medlist)), _x(at), _x(_q(rs, 0.5)),
                        f"{sum(r > 1 for r in rs)} of {len(rs)}", f"{_us(sum(po[k] for k in ks))} / {_us(sum(pn[k] for k in ks))}"])
        if medlist in po and medlist not in pn:  # refused by this tree: not "n/a", a miss
            target("compile-and-check", f"{label} at the corpus median list no slower than 1.0.0", math.inf, "<=",
                   1.0, f"{medlist} refused by this tree ({len(pn)} of {len(po)} lists parsed)")
        else:
            target("compile-and-check", f"{label} at the corpus median list no slower than 1.0.0", at, "<=", 1.0,
                   f"{_x(at)} ({medlist}; median over all lists {_x(_q(rs, 0.5))})")
    if pc_rows:
        w("### Compile-and-check in one process")
        w("")
        w("Parse the robots.txt, then check every URL of the list with `allowed(url, 'Googlebot')` (JavaScript: "
          "then `free()`), in one process per build (bench/parse_check.py, bench/parse_check.mjs), the median of "
          "the repetitions, the better of two runs per build. *The corpus median list* is the list with the "
          "median URL count.")
        w("")
        w(_table(["face", "lists parsed, 1.0.0 / this tree (the rest refused: results/i36/*.err)", "1.0.0 at the median list", "this tree", "ratio", "median ratio over the lists",
                  "lists slower", "all lists, 1.0.0 / this tree"], pc_rows))
        w("")

    # ---- selections ----
    fo_, so_ = _selections(i36, "old")
    fn_, sn_ = _selections(i36, "new")
    share = None
    if sn_:
        w("### Corpus selections on a whole DFA")
        w("")
        w("Every corpus file compiled and selected for Googlebot and for `*` (`bench_worker selections`): this "
          "tree's engine right after `rsc_select` (the blob's DFA or the programs); 1.0.0's run-time DFA built at "
          "1 MiB, whole or partial.")
        w("")
        srows = []
        tot_n = tot_l = tot_e = 0
        for ag in ("Googlebot", "*"):
            x, y = sn_.get(ag), so_.get(ag)
            if not x:
                continue
            tot_n += x["n"]
            tot_l += x["loaded"]
            tot_e += x["noset"]
            srows.append([ag, f"{x['n']:,}", f"{x['loaded']:,} ({100 * x['loaded'] / x['n']:.1f}%)",
                          f"{y['runtime']:,} ({100 * y['runtime'] / y['n']:.1f}%), {y['partial']:,} partial" if y else "n/a"])
        w(_table(["agent", "selections", "this tree: on the blob's DFA", "1.0.0: run-time DFA whole"], srows))
        w("")
        bad_n = _failed_files(i36, "new")
        if bad_n:
            w(f"**This tree failed to compile or load {bad_n:,} files** (counted as selections on no DFA; "
              "`results/i36/sel_new.err` says why).")
            w("")
        if tot_e:
            w(f"Of the {tot_n - tot_l:,} selections of this tree not on a DFA, {tot_e:,} hold no rule set at all "
              "(the file names no group for the agent and has no `*` group: nothing runs, every path is allowed "
              f"at once); on a DFA or with nothing to run: {100 * (tot_l + tot_e) / tot_n:.1f}%. The target below "
              "counts them as misses.")
            w("")
        share = 100.0 * tot_l / tot_n if tot_n else None
        target("selections", "corpus selections on a whole DFA >= 98%", share, ">=", 98.0,
               f"{share:.1f}% of {tot_n:,} (Googlebot and `*`)" if share is not None else "n/a")

    # ---- the targets ----
    # A group this run could not measure is listed as such, never dropped.
    for group, label in EXPECTED:
        if not any(t[0] == group for t in tg):
            tg.append((group, label, "not measured in this run (see results/i36/)", "n/a"))
    tg.sort(key=lambda t: [g for g, _ in EXPECTED].index(t[0]) if t[0] in [g for g, _ in EXPECTED] else 99)
    w("### Issue 36 targets")
    w("")
    w("Every figure computed from this run's measurements above (bench/report36.py).")
    w("")
    w(_table(["group", "target", "measured", "verdict"], [list(t) for t in tg]))
    w("")
    met = sum(t[3] == "met" for t in tg)
    w(f"{met} of {len(tg)} targets met in this run.")
    w("")
    if hl is not None and ao and an:
        hl["i36"] = {"lists": len(names), "new_med": an["median"], "old_med": ao["median"], "new_total": an["total"],
                     "old_total": ao["total"], "old16_total": a16["total"] if a16 else None,
                     "share": share if sn_ else None, "met": met, "targets": len(tg),
                     "base": old.get("ref", "?").split()[0]}
    lang_section(i36, w)


def lang_section(i36, w):
    """Per-language check cost: every RESULTS/i36/lang/*.tsv (columns in
    bench/run.sh's comment), ratio to C's single check in the same run."""
    d = os.path.join(i36, "lang")
    if not os.path.isdir(d):
        return
    rows = []
    for fn in sorted(os.listdir(d)):
        if fn.endswith(".tsv"):
            rows += _tsv(os.path.join(d, fn))
    rows = [r for r in rows if _num(r.get("ns_per_check")) is not None]
    if not rows:
        return
    c = next((_num(r["ns_per_check"]) for r in rows if r.get("language") == "C" and r.get("mode") == "single"), None)
    order = {"C": 0, "Rust": 1, "Go": 2, "JavaScript": 3, "Python": 4}
    rows.sort(key=lambda r: (order.get(r.get("language"), 9), r.get("language", ""), r.get("mode", "")))
    w("### Per-language check cost")
    w("")
    w(f"ns per check on the corpus median list ({rows[0].get('list', '?')}, {rows[0].get('urls', '?')} URLs), the "
      "selection made once; the ratio is to C's `rsc_match_url` (the blob as loaded) measured in the same run, or "
      "to the C figure the language's own script measured beside it when it gives one (`c_ns_per_check`).")
    w("")
    w(_table(["language", "mode", "ns per check (median)", "ratio to C", "note"], [
        [r.get("language"), r.get("mode"), _f(_num(r["ns_per_check"]), "", 1),
         _x(_div(_num(r["ns_per_check"]), _num(r.get("c_ns_per_check")) or c)), r.get("note", "")] for r in rows]))
    w("")
