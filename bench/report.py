#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes bench/REPORT.md (and PNG plots with gnuplot) from the raw results
of bench/run.sh.

  report.py RESULTS_DIR REPORT.md PLOTS_DIR

bench/ANALYSIS.md (hand-written: profiles, causes, proposed fixes) is
appended when present. Targets are those of issue 10 (each hostile case,
the real lists, scaling, size, compile and verify); the report compares, it
never fails on a figure. Section 6 compares format 2 (the CLI built from an
older git ref) and format 4 (this build: format 3's programs, re-encoded smaller) measured back to back in one run."""
import os
import re
import shutil
import statistics
import subprocess
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reportlib import med, num, quantile, read_kv, read_kv_words, read_tsv  # noqa: E402,F401 - beside this file


def fmt(x, nd=2):
    if x is None:
        return "n/a"
    if abs(x) >= 1e6:
        return f"{x:,.0f}"
    if abs(x) >= 100:
        return f"{x:,.{max(0, nd - 2)}f}" if nd > 2 else f"{x:,.0f}"
    return f"{x:.{nd}f}"


def verdict(ok):
    if ok is None:
        return "n/a"
    return "met" if ok else "**missed**"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return "\n".join(out)


def gnuplot(script, plots):
    if not shutil.which("gnuplot"):
        return False
    try:
        subprocess.run(["gnuplot"], input=script, text=True, cwd=plots, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
        return True
    except (subprocess.SubprocessError, OSError) as e:
        err = getattr(e, "stderr", "") or ""
        print(f"report.py: gnuplot failed: {e}: {err.strip()[-300:]}", file=sys.stderr)
        return False


def write_readme_section(path, m, hl, report_name):
    """The README's performance section: headline figures of this run."""
    if "m_med" not in hl or "c_med" not in hl:
        return
    peers = hl.get("peers", [])
    peer_txt = ""
    if peers:
        lo, hi = min(p[1] for p in peers), max(p[1] for p in peers)
        peer_txt = (f" Per check, robotsc is {lo:.0f}-{hi:.0f}x faster than "
                    + ", ".join(p[0].replace(" (node)", "").replace("Python ", "") for p in peers)
                    + " on the same files and URLs.")
    whole = (f"more than {hl['whole']:.0f} s (budget exhausted)" if hl["partial"]
             else f"{hl['whole']:.1f} s")
    try:
        load = float(m.get("load_before", "0").split()[0])
    except ValueError:
        load = 0
    busy = f" (busy at the time: load average {load:.1f})" if load >= 1.5 else ""
    intro = (f"Measured by `bench/run.sh` on a shared 2-CPU {m.get('cpu', '?')} virtual machine{busy}, "
             f"{m.get('compiler', '?')}, -O2, revision {m.get('git', '?')}. Full figures, plots, method and "
             f"the analysis of missed targets: [bench/{report_name}](bench/{report_name}).")
    bullets = []
    i36 = hl.get("i36")
    if i36:
        bullets.append(
            f"**Worker cost per origin** (issue 36; against 1.0.0, {i36['base']}, built side by side and run in the "
            f"same run): the blob in memory, then load (verify) + select + every URL, over the {i36['lists']} real "
            f"URL lists: median list {i36['new_med'] / 1e3:.1f} µs (1.0.0: {i36['old_med'] / 1e3:.1f} µs on its "
            f"programs), all lists {i36['new_total'] / 1e6:.2f} ms (1.0.0: {i36['old_total'] / 1e6:.2f} ms on its "
            "programs" + (f", {i36['old16_total'] / 1e6:,.0f} ms with its DFA built at the 16th URL"
                          if i36.get("old16_total") else "") + ")"
            + (f"; {i36['share']:.1f}% of the corpus's Googlebot and `*` selections run a DFA from the blob"
               if i36.get("share") is not None else "")
            + f". {i36['met']} of issue 36's {i36['targets']} targets met in this run (the report's table).")
    if "dfa_r_med" in hl:
        wv, wn = hl["dfa_worst"]
        bullets.append(
            f"**Matching (the DFA engine, the default)**: over the {hl['dfa_lists']} real crawled URL lists of "
            f"the corpus, {hl['dfa_lists_on']} run on the DFA the compiler wrote into their blob (the rest, if "
            f"any, were over the compiler's DFA budget and run on the programs); a URL takes a median "
            f"{hl['dfa_m_med']:.0f} ns. Against the cost of merely "
            f"hashing the URL with FNV-1a in the same loop, the median list takes {hl['dfa_r_med']:.2f}x, the p90 "
            f"list {hl['dfa_r_p90']:.2f}x, all URLs together {hl['dfa_r_w']:.2f}x (issue 28's targets: 0.7x, "
            f"1.5x, 1.0x; missed where above); {hl['dfa_above']} lists are above 2.5x (target: none; worst "
            f"{wv:.2f}x, {wn})."
            + (f" Of the corpus's {hl['dfa_files']:,} files, {hl['dfa_fit']:,} "
               f"({100 * hl['dfa_fit'] / hl['dfa_files']:.1f}%) give Googlebot a selection on the blob's DFA; "
               f"the median one is {hl['dfa_bytes_med']:,.0f} bytes and adds {hl['dfa_compile_med']:.1f} µs "
               f"to the compile." if "dfa_fit" in hl else ""))
    bullets += [
        f"**Matching ({'the programs: the fallback and --explain' if 'dfa_r_med' in hl else 'all'})**: over the {hl['lists']} real crawled URL lists of the corpus ({hl['urls']:,} URLs, each "
        f"against its site's robots.txt), a URL takes a median {hl['m_med']:.0f} ns "
        f"({1e3 / hl['m_med']:.1f} M URLs/s on one core). Against the cost of merely hashing the URL with "
        f"FNV-1a in the same loop, the median list takes {hl['r_med']:.2f}x, the p90 list {hl['r_p90']:.2f}x, "
        f"all URLs together {hl['r_w']:.2f}x (targets: 0.8x, 1.0x, 1.0x; missed where above)"
        + f".{peer_txt}",
        f"**Compile**: the {hl['files']:,} robots.txt files of the corpus compile in a median "
        f"{hl['c_med']:.1f} µs each (p99 {hl['c_p99']:.2f} ms, slowest {hl['c_max'] * 1e3:.0f} ms, whole "
        f"corpus {whole}); blobs are {hl['size_total']:.2f}x the source bytes in total (median "
        f"{hl['size_med']:.2f}x). Loading verifies a blob at {hl['verify']:.2f} GB/s"
        + (" (target 1 GB/s: missed in this run)." if hl['verify'] < 1.0 else "."),
    ]
    hos = hl.get("hostile", [])
    if hos:
        bullets.append(
            "**Hostile files** (issue 10: thousands of `*` rules, 60 KB paths, outranked rules, the corpus's "
            "real wildcard rules in one group): a URL costs "
            + ", ".join(f"{r3:,.2f}x" if r3 < 1 else f"{r3:,.1f}x" for _, r3, _ in hos) + " the floor"
            + (" (format 2: " + ", ".join(f"{r2:,.0f}x" for _, _, r2 in hos) + ")"
               if all(r2 is not None for _, _, r2 in hos) else "") + "; the report has the cases and the targets.")
    text = "## Performance\n\n" + textwrap.fill(intro, 100) + "\n\n" + "\n".join(
        textwrap.fill(b, 100, initial_indent="- ", subsequent_indent="  ") for b in bullets) + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# Issue 10's targets, in its order; labels for rows whose figures are missing.
TARGET_LABEL = {
    "h_a_ab24": "hostile (a) 10,000 `/*<24 a/b>` rules <= 10x the floor",
    "h_b_a5000b": "hostile (b) `/*a{5000}b` x 3, URL `;ab` + a{60,000} <= 10x the floor",
    "h_c_outranked": "hostile (c) 10,000 outranked `/*qNNNNN` rules <= 3x the floor",
    "h_d_real_wild": "hostile (d) the real wildcard rules of the corpus in one group <= 5x the floor",
    "r_every": "real lists: every list <= 2.0x the floor",
    "r_med": "real lists: median per-list ratio <= 0.8x",
    "r_p90": "real lists: p90 per-list ratio <= 1.0x",
    "r_w": "real lists: weighted by URLs <= 1.0x",
    "scale": "synthetic 10 -> 50,000 rules: <= 2x growth in ns/URL",
    "s_total": "size: total blob <= 1.0x total source",
    "s_med": "size: median blob/source <= 1.0",
    "c_med": "compile: median corpus file <= 10 µs",
    "c_p99": "compile: p99 <= 2 ms",
    "c_max": "compile: every file <= 100 ms",
    "c_whole": "compile: whole corpus <= 5 s",
    "verify": "verify >= 1 GB/s",
}
TARGET_ORDER = list(TARGET_LABEL)
HOSTILE_LIMIT = {"a_ab24": 10.0, "b_a5000b": 10.0, "c_outranked": 3.0, "d_real_wild": 5.0}


def ratio_stats(rows):
    """median and p90 of the per-list ratios, and the ratio of URL-weighted means."""
    rat = [float(r["ratio"]) for r in rows]
    n = sum(int(r["n_urls"]) for r in rows)
    wm = sum(float(r["match_ns"]) * int(r["n_urls"]) for r in rows)
    wf = sum(float(r["floor_ns"]) * int(r["n_urls"]) for r in rows)
    return statistics.median(rat), quantile(rat, .9), (wm / wf if wf else None), n


def f23_section(res, w, targets, m, hl):
    """Section 6: format 2 and format 4 (this build) on the same run, and the hostile cases of issue 10."""
    info = read_kv(os.path.join(res, "f23.txt"))
    rows = [r for r in read_tsv(os.path.join(res, "f23.tsv")) if num(r.get("match_ns")) is not None]
    failed = [r for r in read_tsv(os.path.join(res, "f23.tsv")) if num(r.get("match_ns")) is None]
    ref = info.get("ref", "?")
    commit = (info.get("commit") or "")[:12]
    w("## 6. Format 2 and format 4 on the same run")
    w("")
    if not info:
        w("Not run.")
        w("")
        return
    built = info.get("built") == "1"
    if built:
        w(f"Format 2 is `robotsc` built from git ref `{ref}` ({commit}) with the same compiler and flags "
          "(CMake Release, -O2); format 4 is this build. For each real list and each hostile case both "
          "binaries run `robotsc bench` back to back on the same files (which runs first alternates from "
          "list to list), so each pair of ratios to the FNV-1a floor comes from the same minute of the same "
          "run. Ratios, not nanoseconds, are what to compare when the machine is busy.")
    else:
        w(f"**The format 2 CLI could not be built from git ref `{ref}`"
          f"{' (' + commit + ')' if commit else ' (ref not found)'}: see `results/f2_build.log`. "
          "The comparison is skipped; the hostile cases below are measured with format 4 only.**")
    w("")
    if failed:
        w("Runs that failed: " + ", ".join(f"{r['name']} (format {r['format']})" for r in failed[:20]) +
          (", ..." if len(failed) > 20 else "") + " (see `results/f23/`).")
        w("")
    by = {}
    for r in rows:
        by.setdefault((r["kind"], r["name"]), {})[r["format"]] = r

    # Real lists, both formats measured.
    real = [(name, v["2"], v["3"]) for (kind, name), v in by.items() if kind == "real" and "2" in v and "3" in v]
    if real:
        s2 = ratio_stats([x[1] for x in real])
        s3 = ratio_stats([x[2] for x in real])
        b2 = sum(int(x[1]["blob_bytes"]) for x in real)
        b3 = sum(int(x[2]["blob_bytes"]) for x in real)
        src = sum(int(x[2]["source_bytes"]) for x in real)
        c2 = med([num(x[1]["compile_us"]) for x in real])
        c3 = med([num(x[2]["compile_us"]) for x in real])
        differ = [x[0] for x in real if x[1]["disallowed"] != x[2]["disallowed"]]
        w(f"Real lists: {len(real)} lists, {s3[3]:,} URLs (agent `Googlebot`).")
        w("")
        w(table(["figure", "format 2", "format 4", "format 4 / format 2"], [
            ["match / floor, median over lists", f"{s2[0]:.3f}", f"{s3[0]:.3f}", f"{s3[0] / s2[0]:.2f}"],
            ["match / floor, p90 over lists", f"{s2[1]:.3f}", f"{s3[1]:.3f}", f"{s3[1] / s2[1]:.2f}"],
            ["match / floor, weighted by URLs", f"{s2[2]:.3f}", f"{s3[2]:.3f}", f"{s3[2] / s2[2]:.2f}"],
            ["lists above 2.0x the floor", str(sum(float(x[1]["ratio"]) > 2 for x in real)),
             str(sum(float(x[2]["ratio"]) > 2 for x in real)), ""],
            ["blob bytes, total (source: " + f"{src:,})", f"{b2:,} ({b2 / src:.3f}x source)",
             f"{b3:,} ({b3 / src:.3f}x source)", f"{b3 / b2:.2f}"],
            ["compile µs per file, median", fmt(c2), fmt(c3), f"{c3 / c2:.2f}" if c2 and c3 else ""],
        ]))
        w("")
        if differ:
            w(f"**The two formats disagree on the number of disallowed URLs for {len(differ)} list(s): "
              f"{', '.join(differ[:10])}{', ...' if len(differ) > 10 else ''}.**")
        else:
            w("Both formats disallow the same number of URLs on every list.")
        w("")

        def gain(x):  # > 1: format 4 is faster relative to the floor
            return float(x[1]["ratio"]) / float(x[2]["ratio"]) if float(x[2]["ratio"]) > 0 else 0

        hdr = ["list", "URLs", "match ns f2", "ratio f2", "match ns f4", "ratio f4", "f2 / f4",
               "blob B f2", "blob B f4"]

        def row(x):
            return [x[0], x[2]["n_urls"], x[1]["match_ns"], x[1]["ratio"], x[2]["match_ns"], x[2]["ratio"],
                    f"{gain(x):.2f}", f"{int(x[1]['blob_bytes']):,}", f"{int(x[2]['blob_bytes']):,}"]

        srt = sorted(real, key=gain)
        w("Ten lists where format 4 gains most (ratio of format 2 to the floor over that of format 4):")
        w("")
        w(table(hdr, [row(x) for x in reversed(srt[-10:])]))
        w("")
        w("Ten lists where format 4 loses most:")
        w("")
        w(table(hdr, [row(x) for x in srt[:10]]))
        w("")
    elif built:
        w("No real list was measured with both formats.")
        w("")

    # Hostile cases.
    desc = {r["name"]: r["description"] for r in read_tsv(os.path.join(res, "hostile_cases.tsv"))}
    w("Hostile cases of issue 10 (`bench/hostile_cases.py`, seeded; agent `Googlebot`):")
    w("")
    if not desc:
        w("Not run (see `results/hostile.log`).")
        w("")
        return
    hrows = []
    for name in desc:
        v = by.get(("hostile", name), {})
        r2, r3 = v.get("2"), v.get("3")

        def cell(r, k):
            return (f"{float(r[k]):,.1f}" if k == "match_ns" else r[k]) if r else "n/a"

        lim = HOSTILE_LIMIT.get(name)
        hrows.append([f"{name}: {desc[name]}", cell(r2, "match_ns"), cell(r2, "ratio"), cell(r3, "match_ns"),
                      cell(r3, "ratio"), cell(r3, "floor_ns"),
                      f"{int(r2['blob_bytes']):,} / {int(r3['blob_bytes']):,}" if r2 and r3 else
                      (f"- / {int(r3['blob_bytes']):,}" if r3 else "n/a"),
                      f"{r2['disallowed']} / {r3['disallowed']}" if r2 and r3 else
                      (f"- / {r3['disallowed']}" if r3 else "n/a"),
                      f"<= {lim:g}x" if lim else ""])
        if lim and name in HOSTILE_LIMIT:
            key = "h_" + name
            if r3:
                hl.setdefault("hostile", []).append((name, float(r3["ratio"]), float(r2["ratio"]) if r2 else None))
                targets[key] = (TARGET_LABEL[key], f"{float(r3['ratio']):.2f}x ({float(r3['match_ns']):,.1f} ns "
                                f"per URL; format 2: " + (f"{float(r2['ratio']):,.1f}x" if r2 else "n/a") + ")",
                                verdict(float(r3["ratio"]) <= lim))
    w(table(["case", "f2 ns/URL", "f2 ratio", "f4 ns/URL", "f4 ratio", "floor ns",
             "blob B f2 / f4", "disallowed f2 / f4", "target (f4)"], hrows))
    w("")
    if m.get("quick") == "1":
        w("(Quick run: the hostile URL lists are lighter than in a full run.)")
        w("")
    mem = read_tsv(os.path.join(res, "memory.tsv"))
    if mem:
        rows_of = {}
        for name in desc:
            r3 = by.get(("hostile", name), {}).get("3")
            if r3 and (num(r3.get("dfa_bytes")) or 0) > 0:  # bench/run.sh's working sets: these sizes
                rows_of.setdefault(int(r3["dfa_bytes"]) // 4 * 4, []).append(name)
        w("Memory floor (`bench_memory`, same run): a matcher that reads one table entry per path byte, "
          "each at an address that depends on the one before (a DFA), over a working set of "
          "that many bytes visited in a seeded random order; the floor is FNV-1a 64 over 1,000 bytes, "
          "alternating with it. A random order defeats the prefetchers; a real automaton visits its shallow "
          "states more often, and they stay in the caches, so it can do better than this on most paths.")
        w("")
        w(table(["working set", "ns per dependent load", "floor ns per byte", "ratio", "size of"],
                [[f"{int(r['bytes']):,} B", r["step_ns"], r["floor_ns_per_byte"], r["ratio"] + "x",
                  ", ".join(f"the DFA of {n}" for n in rows_of.get(int(r["bytes"]), []))]
                 for r in mem]))
        w("")



def dfa_label(dfa):
    """How a row ran: on the blob's DFA, or on the programs (the rule set over the compiler's DFA budget)."""
    return "yes" if dfa == "1" else "over budget"


def dfa_section(res, w, hl):
    """Section 7: the blob's DFAs (issue 28, format 5) against the programs, format 2 and the floor."""
    w("## 7. The DFA engine (issue 28)")
    w("")
    w("Each rule set's rules determinised into one automaton by the compiler and written into the blob "
      "(format 5, docs/DFA.md), under the compiler's budget: a rule set over it keeps the programs only. "
      "`rsc_select` gives a selection of one rule set with a DFA that DFA, and the programs otherwise; the "
      "run time builds nothing and needs no memory for it. The programs (the engine of sections 2 and 6, "
      "\"format 4\" below) answer every call that wants the deciding rule. Figures of this run; ratios are "
      "to the FNV-1a floor of the same rounds.")
    w("")
    tgt = []
    dc = [r for r in read_tsv(os.path.join(res, "dfa_corpus.tsv")) if r.get("dfa") in ("0", "1")]
    if dc:
        on = [r for r in dc if r["dfa"] == "1"]

        def qs(v, scale=1.0, nd=1):
            v = [x / scale for x in v]
            if not v:
                return "n/a"
            return " / ".join(fmt(quantile(v, q), nd) for q in (.5, .9, .99)) + f" / {fmt(max(v), nd)}"
        by = [float(r["dfa_bytes"]) for r in on]
        extra = [float(r["blob_bytes"]) - float(r["nodfa_blob_bytes"]) for r in on]
        cost = [float(r["compile_ns"]) - float(r["nodfa_compile_ns"]) for r in dc]
        slow = [float(r["compile_ns"]) / float(r["nodfa_compile_ns"]) for r in dc if num(r["nodfa_compile_ns"])]
        src = sum(float(r["source_bytes"]) for r in dc)
        w(f"Corpus (`bench_dfa`, ../shared/corpus/robots, Googlebot's selection of each file): "
          f"**{len(on):,} of {len(dc):,} selections ({100 * len(on) / len(dc):.1f}%) run the blob's DFA**; "
          f"{len(dc) - len(on):,} were over the compiler's budget and run the programs. Each file was compiled "
          f"twice, as robotsc compiles it and with `RSC_COMPILE_NO_DFA` (the programs alone).")
        w("")
        w(table(["figure", "median / p90 / p99 / max"], [
            ["DFA states (rows), selections on a DFA", qs([float(r["states"]) for r in on], 1, 0)],
            ["DFA bytes in the blob, selections on a DFA", qs(by, 1, 0)],
            ["blob bytes the DFAs add (every rule set's), selections on a DFA", qs(extra, 1, 0)],
            ["compile µs the DFAs add, every file", qs(cost, 1e3, 1)],
            ["compile time with DFAs / without, every file", qs(slow, 1, 2)],
        ]))
        w("")
        tb = sum(float(r["blob_bytes"]) for r in dc)
        tn = sum(float(r["nodfa_blob_bytes"]) for r in dc)
        tc = sum(float(r["compile_ns"]) for r in dc)
        tcn = sum(float(r["nodfa_compile_ns"]) for r in dc)
        w(f"Over the corpus ({src:,.0f} source bytes): blobs {tb:,.0f} bytes with DFAs, {tn:,.0f} without "
          f"({tb / tn:.2f}x); compile time (sum of per-file medians) {tc / 1e9:.2f} s with DFAs, "
          f"{tcn / 1e9:.2f} s without ({tc / tcn:.2f}x).")
        w("")
        mb = quantile(by, .5) if by else 0
        mc = quantile(cost, .5) / 1e3
        tgt.append(["memory: median selection <= 8 KiB", f"{mb:,.0f} bytes (in the blob: the run time "
                    "allocates nothing)", verdict(mb <= 8192)])
        tgt.append(["build: median selection <= 20 µs", f"{mc:.1f} µs, at compile time (what the DFAs add to "
                    "the median file's compile; the run time builds nothing)", verdict(mc <= 20)])
        hl.update(dfa_fit=len(on), dfa_files=len(dc), dfa_bytes_med=mb,
                  dfa_compile_med=mc)
    mt = [r for r in read_tsv(os.path.join(res, "match.tsv")) if num(r.get("dfa_match_ns")) is not None]
    if mt:
        on = [r for r in mt if r.get("dfa") == "1"]
        rat = [float(r["dfa_ratio"]) for r in mt]
        wd = sum(float(r["dfa_match_ns"]) * int(r["n_urls"]) for r in mt)
        wf = sum(float(r["floor_ns"]) * int(r["n_urls"]) for r in mt)
        wr = wd / wf
        pair = [float(r["dfa_match_ns"]) / float(r["match_ns"]) for r in mt]
        slower = [r for r in mt if float(r["dfa_match_ns"]) > 1.05 * float(r["match_ns"])]
        worst = max(mt, key=lambda r: float(r["dfa_ratio"]))
        above = sum(1 for x in rat if x > 2.5)
        w(f"Real URL lists (section 2's runs; the DFA timed in the same rounds as the programs): {len(on)} of "
          f"{len(mt)} lists run on a DFA, {len(mt) - len(on)} over the budget on the programs.")
        w("")
        w(table(["figure", "DFA engine (default)", "programs (format 4)"], [
            ["ratio to the floor per list: median", f"{statistics.median(rat):.3f}",
             f"{statistics.median([float(r['ratio']) for r in mt]):.3f}"],
            ["ratio to the floor per list: p90", f"{quantile(rat, .9):.3f}",
             f"{quantile([float(r['ratio']) for r in mt], .9):.3f}"],
            ["all URLs (weighted by list size)", f"{wr:.3f}",
             f"{sum(float(r['match_ns']) * int(r['n_urls']) for r in mt) / wf:.3f}"],
            ["lists above 2.5x the floor", f"{above} of {len(mt)}",
             f"{sum(1 for r in mt if float(r['ratio']) > 2.5)} of {len(mt)}"],
            ["worst list", f"{float(worst['dfa_ratio']):.2f}x ({worst['name']})", ""],
            ["paired, DFA / programs per list: median (p10 / p90 / max)",
             f"{statistics.median(pair):.3f} ({quantile(pair, .1):.2f} / {quantile(pair, .9):.2f} / "
             f"{max(pair):.2f})", ""],
            ["lists slower than the programs by more than 5%", f"{len(slower)} of {len(mt)}", ""],
            ["DFA bytes per list, median (max)", f"{med([num(r['dfa_bytes']) for r in on]) or 0:,.0f} "
             f"({max((int(r['dfa_bytes']) for r in on), default=0):,})", ""],
        ]))
        w("")
        rc = {r["name"]: r for r in read_tsv(os.path.join(res, "match_recheck.tsv")) if num(r.get("median"))}
        if slower:
            w("Lists where the DFA engine measured more than 5% slower than the programs in the same rounds: " +
              ", ".join(f"{r['name']} ({float(r['dfa_match_ns']) / float(r['match_ns']):.2f}x, dfa={r['dfa']})"
                        for r in sorted(slower, key=lambda r: -float(r['dfa_match_ns']) / float(r['match_ns']))[:15]) +
              ". A list with dfa=0 runs the programs either way: its difference is the machine's noise.")
            w("")
        if rc:
            w("Each list on a DFA that measured more than 5% slower was timed again four times, both engines "
              "in the same rounds each time (`match_recheck.tsv`): " +
              "; ".join(f"{k}: DFA / programs {r['runs'].replace(',', ', ')} (median {float(r['median']):.2f})"
                        for k, r in sorted(rc.items())) + ".")
            w("")
        # still slower: a list on a DFA whose recheck median is above 1.05 (or that was not rechecked)
        slower_dfa = [r for r in slower if r.get("dfa") == "1" and
                      (r["name"] not in rc or float(rc[r["name"]]["median"]) > 1.05)]
        w("Ten lists with the highest DFA ratio to the floor:")
        w("")
        w(table(["list", "URLs", "rules", "DFA", "states", "DFA ns", "programs ns", "floor ns", "DFA ratio"],
                [[r["name"], r["n_urls"], r["rules"], dfa_label(r["dfa"]), r["dfa_states"],
                  r["dfa_match_ns"], r["match_ns"], r["floor_ns"], r["dfa_ratio"]]
                 for r in sorted(mt, key=lambda r: -float(r["dfa_ratio"]))[:10]]))
        w("")
        tgt += [["real lists: all URLs <= 1.0x", f"{wr:.3f}x", verdict(wr <= 1.0)],
                ["real lists: p90 <= 1.5x", f"{quantile(rat, .9):.3f}x", verdict(quantile(rat, .9) <= 1.5)],
                ["real lists: median <= 0.7x", f"{statistics.median(rat):.3f}x",
                 verdict(statistics.median(rat) <= 0.7)],
                ["real lists: no list above 2.5x", f"{above} above (worst {float(worst['dfa_ratio']):.2f}x, "
                 f"{worst['name']})", verdict(above == 0)],
                ["no list slower than format 4 by more than 5% (paired)",
                 f"{len(slower)} slower in one run; {len(slower_dfa)} on a DFA still slower"
                 + (" after four paired reruns" if rc else " (not rerun)")
                 + " (lists on the programs run the same engine in both columns)",
                 verdict(not slower_dfa)]]
        hl.update(dfa_r_med=statistics.median(rat), dfa_r_p90=quantile(rat, .9), dfa_r_w=wr,
                  dfa_m_med=statistics.median([float(r["dfa_match_ns"]) for r in mt]),
                  dfa_lists_on=len(on), dfa_lists=len(mt), dfa_above=above,
                  dfa_worst=(float(worst["dfa_ratio"]), worst["name"]))
    f23 = read_tsv(os.path.join(res, "f23.tsv"))
    f2 = {r["name"]: r for r in f23 if r.get("kind") == "real" and r.get("format") == "2" and num(r.get("match_ns"))}
    f3 = {r["name"]: r for r in f23 if r.get("kind") == "real" and r.get("format") == "3"
          and num(r.get("dfa_match_ns"))}
    both = [k for k in f3 if k in f2]
    if both:
        pr = [float(f3[k]["dfa_match_ns"]) / float(f2[k]["match_ns"]) for k in both]
        sl = [k for k, x in zip(both, pr) if x > 1.05]
        # The two binaries run in two processes, minutes apart on a shared
        # machine; each measures its own FNV-1a floor in the same loop, so the
        # ratio to it is section 6's measure, and the verdict's.
        prr = [float(f3[k]["dfa_ratio"]) / float(f2[k]["ratio"]) for k in both]
        slr = [k for k, x in zip(both, prr) if x > 1.05]
        w(f"Against format 2 (section 6's back-to-back runs, {len(both)} lists): DFA engine / format 2 per list, "
          f"median {statistics.median(pr):.3f} (p90 {quantile(pr, .9):.2f}, max {max(pr):.2f}) in nanoseconds, "
          f"{len(sl)} lists more than 5% slower" + (" (" + ", ".join(
              f"{k}: {float(f3[k]['dfa_match_ns']):.1f} ns against {float(f2[k]['match_ns']):.1f}, but "
              f"{float(f3[k]['dfa_ratio']):.3f}x its process's floor against {float(f2[k]['ratio']):.3f}x"
              for k in sorted(sl)[:15]) + ")" if sl else "") +
          f"; by the ratio to each process's own floor (section 6's measure), median "
          f"{statistics.median(prr):.3f} (max {max(prr):.2f}), {len(slr)} more than 5% slower"
          + (": " + ", ".join(sorted(slr)[:15]) if slr else "") + ".")
        w("")
        rc2 = {r["name"]: r for r in read_tsv(os.path.join(res, "f2_recheck.tsv")) if num(r.get("median"))}
        if rc2:
            w("Each list more than 5% slower than format 2 by that measure was timed again four times, the two "
              "binaries back to back each time (`f2_recheck.tsv`): " +
              "; ".join(f"{k}: DFA engine / format 2, each to its floor, {r['runs'].replace(',', ', ')} "
                        f"(median {float(r['median']):.2f})" for k, r in sorted(rc2.items())) + ".")
            w("")
        # still slower: a list whose recheck median is above 1.05 (or that was not rechecked)
        still = [k for k in slr if k not in rc2 or float(rc2[k]["median"]) > 1.05]
        tgt.append(["no list slower than format 2 by more than 5% (back to back)",
                    f"{len(slr)} slower by the ratio to each process's floor in one run ({len(sl)} in raw "
                    f"nanoseconds across the two processes); {len(still)} still slower"
                    + (" after four back-to-back reruns" if rc2 else " (not rerun)"), verdict(not still)])
    hs = [r for r in f23 if r.get("kind") == "hostile" and r.get("format") == "3" and num(r.get("dfa_match_ns"))]
    if hs:
        w("Hostile cases (section 6), this build: " + "; ".join(
            f"{r['name']} {dfa_label(r.get('dfa'))} {float(r['dfa_ratio']):.2f}x "
            f"(programs {float(r['ratio']):.2f}x)" for r in hs) + ".")
        w("")
        # Over the budget, the default engine is the programs themselves (the same
        # selection): a gap between the two columns is the machine's, so only
        # cases on a DFA can be worse.
        bad = [r for r in hs if r.get("dfa") == "1" and float(r["dfa_match_ns"]) > 1.05 * float(r["match_ns"])]
        same = [r for r in hs if r.get("dfa") != "1"]
        tgt.append(["hostile cases no worse than today",
                    f"{len(bad)} on a DFA slower than the programs by > 5%; {len(same)} over the budget run "
                    f"today's engine itself" + (" (columns apart by " + ", ".join(
                        f"{100 * (float(r['dfa_match_ns']) / float(r['match_ns']) - 1):+.0f}%" for r in same) +
                        " in one run)" if same else ""), verdict(not bad)])
    sr = [r for r in read_tsv(os.path.join(res, "scale_rules.tsv")) if num(r.get("dfa_match_ns")) is not None]
    fits = [r for r in sr if r["dfa"] == "1"]
    if sr:
        w("Synthetic rule counts (section 3's files):")
        w("")
        w(table(["rules", "DFA", "states", "bytes", "DFA ns/URL", "programs ns/URL", "DFA ratio"],
                [[r["rules"], dfa_label(r["dfa"]), r["dfa_states"], r["dfa_bytes"], r["dfa_match_ns"],
                  r["match_ns"], r["dfa_ratio"]] for r in sr]))
        w("")
        if len(fits) >= 2:
            g = float(fits[-1]["dfa_ratio"]) / float(fits[0]["dfa_ratio"])
            tgt.append([f"growth {fits[0]['rules']} -> {fits[-1]['rules']} rules <= 2x where the set has a DFA",
                        f"{g:.2f}x", verdict(g <= 2.0)])
        elif len(sr) >= 2:
            # the default engine's growth over every count (the DFA, then the
            # programs past the compiler's budget): reported, not judged
            g = float(sr[-1]["dfa_ratio"]) / float(sr[0]["dfa_ratio"])
            tgt.append([f"growth {sr[0]['rules']} -> {sr[-1]['rules']} rules on the default engine",
                        f"{len(fits)} of {len(sr)} counts have a DFA; the default engine (the DFA, then the "
                        f"programs) grows {g:.2f}x", "(reported)"])
    sl_ = [r for r in read_tsv(os.path.join(res, "scale_length.tsv")) if num(r.get("dfa_match_ns_per_byte"))]
    if sl_:
        long_ = max(sl_, key=lambda r: int(r["length"]))
        x = float(long_["dfa_match_ns_per_byte"])
        tgt.append([f"synthetic 100 rules <= 1.5 ns per path byte ({long_['length']}-byte paths)",
                    f"{x:.2f} ns ({'DFA' if long_['dfa'] == '1' else 'over budget: the programs'})",
                    verdict(x <= 1.5)])
    if tgt:
        w("Targets of issue 28 measured here:")
        w("")
        w(table(["target", "measured", "verdict"], tgt))
        w("")


def main():
    if len(sys.argv) != 4 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stdout if len(sys.argv) == 2 else sys.stderr)
        sys.exit(0 if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help") else 2)
    res, report, plots = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(plots, exist_ok=True)
    rel_plots = os.path.relpath(plots, os.path.dirname(os.path.abspath(report)))
    m = read_kv(os.path.join(res, "machine.txt"))
    md = []
    targets = {}  # key -> (target, figure, verdict); printed in the order of TARGET_ORDER
    hl = {}  # headline figures for README_SECTION.md
    w = md.append

    w("# robotsc benchmark report")
    w("")
    w("Generated by `bench/run.sh` (one command; raw results in the build directory under `results/`). "
      "Benchmarks report figures; they never pass or fail a build. Targets are those of issue 10.")
    if m.get("quick") == "1":
        w("")
        w("**This is a quick smoke run (RSC_BENCH_QUICK=1): few lists, few rounds. Do not quote its figures.**")
    w("")
    w("## Machine and build")
    w("")
    w(table(["item", "value"], [
        ["date (UTC)", m.get("date", "?")],
        ["CPU", f"{m.get('cpu', '?')}, {m.get('cpus', '?')} CPUs ({m.get('cores_per_socket', '?')} cores per "
                f"socket, {m.get('threads_per_core', '?')} thread(s) per core)"],
        ["kernel", m.get("kernel", "?")],
        ["compiler", m.get("compiler", "?")],
        ["flags", "`" + m.get("flags", "?").strip() + "` (CMake Release, overridden to -O2)"],
        ["git revision", m.get("git", "?")],
        ["load average before / after", f"{m.get('load_before', '?')} / {m.get('load_after', '?')}"],
        ["run time", f"{m.get('elapsed_s', '?')} s"],
        ["peers", f"{m.get('python', '?')} urllib.robotparser; Protego {m.get('protego', '?')} (Debian); "
                  f"node {m.get('node', '?')} robots-parser {m.get('robots_parser', '?') or 'missing'}"],
    ]))
    w("")
    try:
        load = float(m.get("load_before", "0").split()[0])
    except ValueError:
        load = 0
    if load >= 1.5:
        w(f"**The machine was busy during this run (1-minute load average {load:.1f} on {m.get('cpus', '?')} CPUs): "
          "other processes took CPU time, so absolute figures are inflated and noisy, and the thread speed-up "
          "means little. Ratios measured in alternating rounds (match against floor) suffer less.**")
        w("")
    w("Method: every timing uses `CLOCK_MONOTONIC`, excludes file I/O, follows a warm-up and is the median of "
      "several rounds, each round repeating the operation for at least a few milliseconds. Every result is "
      "added to a volatile sink. The *floor* is FNV-1a 64 over each whole URL in the same loop (one out-of-line "
      "call per URL, like `rsc_match_url`), over the same bytes: the least a hash-table lookup keyed by the URL "
      "would cost. The agent is `Googlebot` for real lists and a name that no file names for synthetic ones. "
      "The machine is a shared 2-CPU virtual machine: a load average above 1 means other work ran at the same "
      "time and figures are noisier (the medians absorb some of it).")
    w("")

    # ---- corpus compile ----
    comp = read_tsv(os.path.join(res, "compile.tsv"))
    cs = read_kv_words(os.path.join(res, "compile.txt"))
    w("## 1. Corpus compile (`bench_compile`, ../shared/corpus/robots)")
    w("")
    if comp:
        ok = [r for r in comp if r["status"] == "ok"]
        failed = [r for r in comp if r["status"] != "ok"]
        ct = [float(r["compile_ns"]) for r in comp]
        c_med, c_p99, c_max = quantile(ct, 0.5), quantile(ct, 0.99), max(ct)
        whole = num(cs.get("whole_pass_s"))
        src_total = sum(int(r["source_bytes"]) for r in ok)
        blob_total = sum(int(r["blob_bytes"]) for r in ok)
        ratios = [int(r["blob_bytes"]) / int(r["source_bytes"]) for r in ok if int(r["source_bytes"]) > 0]
        r_med = quantile(ratios, 0.5)
        vsum = sum(float(r["verify_ns"]) for r in ok)
        vgbps = blob_total / vsum if vsum else None
        big = [r for r in ok if int(r["blob_bytes"]) >= 65536]
        big_gbps = sum(int(r["blob_bytes"]) for r in big) / sum(float(r["verify_ns"]) for r in big) if big else None
        if cs.get("partial") == "1":
            w(f"**Partial: the compile budget of pass 1 ran out after {len(comp):,} of "
              f"{int(cs.get('corpus_files', 0)):,} files (in name order); the figures below cover those files "
              "only, and the whole-corpus time is a lower bound.**")
            w("")
        w(table(["figure", "value"], [
            ["files (compiled / failed)", f"{len(comp):,} ({len(ok):,} / {len(failed):,})"],
            ["compile time median", f"{c_med / 1e3:.1f} µs"],
            ["compile time p90 / p99", f"{quantile(ct, 0.9) / 1e3:.1f} µs / {c_p99 / 1e6:.2f} ms"],
            ["compile time max", f"{c_max / 1e6:.1f} ms"],
            ["whole corpus, one pass", f"{whole:.2f} s" if whole is not None else "n/a"],
            ["sum of per-file medians", f"{sum(ct) / 1e9:.2f} s"],
            ["source bytes (compiled files)", f"{src_total:,}"],
            ["blob bytes", f"{blob_total:,}"],
            ["blob / source, total", f"{blob_total / src_total:.3f}" if src_total else "n/a"],
            ["blob / source, median per file", f"{r_med:.3f}" if r_med is not None else "n/a"],
            ["blob / source, p90 / max", f"{quantile(ratios, 0.9):.2f} / {max(ratios):.1f}" if ratios else "n/a"],
            ["verify (rsc_load), all blobs", f"{vgbps:.2f} GB/s" if vgbps else "n/a"],
            ["verify, blobs >= 64 KiB", f"{big_gbps:.2f} GB/s ({len(big)} blobs)" if big_gbps else "n/a"],
        ]))
        w("")
        if failed:
            st = {}
            for r in failed:
                st.setdefault(r["status"], []).append(r["file"])
            w("Files that did not compile: " + "; ".join(
                f"{k}: {len(v)} ({', '.join(v[:5])}{', ...' if len(v) > 5 else ''})" for k, v in st.items()) + ".")
            w("")
        hl.update(files=len(comp), c_med=c_med / 1e3, c_p99=c_p99 / 1e6, c_max=c_max / 1e9, whole=whole,
                  partial=cs.get("partial") == "1", size_total=blob_total / src_total if src_total else None,
                  size_med=r_med, verify=vgbps)
        targets.update({
            "c_med": ("compile: median corpus file <= 10 µs", f"{c_med / 1e3:.1f} µs", verdict(c_med <= 10e3)),
            "c_p99": ("compile: p99 <= 2 ms", f"{c_p99 / 1e6:.2f} ms", verdict(c_p99 <= 2e6)),
            "c_max": ("compile: every file <= 100 ms", f"max {c_max / 1e6:.1f} ms" +
                      (f"; {len(failed)} file(s) failed" if failed else ""),
                      verdict(c_max <= 100e6 and not failed)),
            "c_whole": ("compile: whole corpus <= 5 s",
                        (f"> {whole:.1f} s (budget ran out)" if cs.get("partial") == "1" else f"{whole:.2f} s")
                        if whole is not None else "n/a",
                        verdict(whole <= 5 and cs.get("partial") != "1") if whole is not None else "n/a"),
            "s_total": ("size: total blob <= 1.0x total source",
                        f"{blob_total / src_total:.3f}x" if src_total else "n/a", verdict(blob_total <= src_total)),
            "s_med": ("size: median blob/source <= 1.0", f"{r_med:.3f}" if r_med is not None else "n/a",
                      verdict(r_med <= 1.0) if r_med is not None else "n/a"),
            "verify": ("verify >= 1 GB/s", f"{vgbps:.2f} GB/s (all), {big_gbps:.2f} GB/s (>= 64 KiB)"
                       if vgbps and big_gbps else fmt(vgbps), verdict(vgbps >= 1.0) if vgbps else "n/a"),
        })

        def row(r):
            s, b = int(r["source_bytes"]), int(r["blob_bytes"])
            return [r["file"], f"{s:,}", f"{b:,}", f"{b / s:.2f}" if s else "-",
                    f"{float(r['compile_ns']) / 1e6:.2f}", r["rules"], r["programs"], r["nodes"], r["status"]]

        hdr = ["file", "source B", "blob B", "blob/src", "compile ms", "rules", "programs", "nodes", "status"]
        w("Ten slowest files:")
        w("")
        w(table(hdr, [row(r) for r in sorted(comp, key=lambda r: -float(r["compile_ns"]))[:10]]))
        w("")
        w("Ten largest blobs:")
        w("")
        w(table(hdr, [row(r) for r in sorted(ok, key=lambda r: -int(r["blob_bytes"]))[:10]]))
        w("")
        w("Ten largest blob/source ratios (files over 100 bytes):")
        w("")
        w(table(hdr, [row(r) for r in sorted((r for r in ok if int(r["source_bytes"]) > 100),
                                             key=lambda r: -int(r["blob_bytes"]) / int(r["source_bytes"]))[:10]]))
        w("")
        # CDF plot data
        with open(os.path.join(res, "compile_cdf.dat"), "w") as f:
            s = sorted(ct)
            step = max(1, len(s) // 2000)
            for i in range(0, len(s), step):
                f.write(f"{s[i] / 1e3}\t{(i + 1) / len(s)}\n")
            f.write(f"{s[-1] / 1e3}\t1\n")
        with open(os.path.join(res, "compile_size.dat"), "w") as f:
            for r in ok:
                f.write(f"{max(1, int(r['source_bytes']))}\t{float(r['compile_ns']) / 1e3}\t"
                        f"{max(1, int(r['blob_bytes']))}\n")
        if gnuplot(f"""set terminal pngcairo size 900,520
set output 'compile_cdf.png'
set title 'Corpus compile time, cumulative distribution ({len(comp):,} files)'
set logscale x
set xlabel 'compile time per file (µs, log)'
set ylabel 'fraction of files'
set grid
set key bottom right
set arrow from 10, graph 0 to 10, graph 1 nohead dt 2 lc rgb 'red'
set arrow from 2000, graph 0 to 2000, graph 1 nohead dt 2 lc rgb 'orange'
plot '{res}/compile_cdf.dat' using 1:2 with lines lw 2 title 'robotsc compile', \\
     NaN with lines dt 2 lc rgb 'red' title 'target median 10 µs', NaN with lines dt 2 lc rgb 'orange' title 'target p99 2 ms'
set output 'compile_size.png'
unset arrow
set title 'Compile time and blob size against robots.txt size (one point per file)'
set xlabel 'robots.txt bytes (log)'
set ylabel 'compile µs (log)'
set y2label 'blob bytes (log)'
set logscale xy
set logscale y2
set ytics nomirror
set y2tics
plot '{res}/compile_size.dat' using 1:2 with dots lc rgb '#1f77b4' title 'compile µs', \\
     '' using 1:3 axes x1y2 with dots lc rgb '#d62728' title 'blob bytes (right axis)', \\
     x axes x1y2 with lines dt 2 lc rgb 'black' title 'blob = source'
""", plots):
            w(f"![compile time CDF]({rel_plots}/compile_cdf.png)")
            w("")
            w(f"![compile time and blob size]({rel_plots}/compile_size.png)")
            w("")
    else:
        w("No results (bench_compile did not run).")
        w("")

    # ---- real lists ----
    mt = [r for r in read_tsv(os.path.join(res, "match.tsv")) if num(r.get("match_ns")) is not None]
    w("## 2. Matching real URLs (`robotsc bench`, ../shared/corpus/urls)")
    w("")
    rsc = {}
    if mt:
        for r in mt:
            rsc[r["name"]] = r
        mns = [float(r["match_ns"]) for r in mt]
        fns = [float(r["floor_ns"]) for r in mt]
        rat = [float(r["ratio"]) for r in mt]
        n_urls = sum(int(r["n_urls"]) for r in mt)
        weighted = sum(float(r["match_ns"]) * int(r["n_urls"]) for r in mt) / n_urls
        weighted_f = sum(float(r["floor_ns"]) * int(r["n_urls"]) for r in mt) / n_urls
        w(f"{len(mt)} lists, {n_urls:,} URLs; each list against the robots.txt of the same crawl (2019) "
          "when there is one, else the site's current file; agent `Googlebot`.")
        w("")
        w(table(["figure", "robotsc", "FNV-1a floor", "ratio"], [
            ["ns per URL, median over lists", fmt(statistics.median(mns)), fmt(statistics.median(fns)),
             f"{statistics.median(mns) / statistics.median(fns):.3f}"],
            ["ns per URL, p10 / p90 over lists", f"{quantile(mns, .1):.1f} / {quantile(mns, .9):.1f}",
             f"{quantile(fns, .1):.1f} / {quantile(fns, .9):.1f}", ""],
            ["ns per URL, all URLs (weighted by list size)", fmt(weighted), fmt(weighted_f),
             f"{weighted / weighted_f:.3f}"],
            ["ratio match/floor per list: median (p10 / p90)", "", "",
             f"{statistics.median(rat):.3f} ({quantile(rat, .1):.2f} / {quantile(rat, .9):.2f})"],
            ["lists where matching beats the floor", "", "", f"{sum(1 for x in rat if x <= 1.0)} of {len(rat)}"],
            ["URLs per second (1 / median ns per URL)", f"{1e3 / statistics.median(mns):.2f} M/s",
             f"{1e3 / statistics.median(fns):.2f} M/s", ""],
            ["compile µs per file, median", fmt(med([num(r["compile_us"]) for r in mt])), "", ""],
            ["verify ns per blob, median", fmt(med([num(r["verify_ns"]) for r in mt])), "", ""],
        ]))
        w("")
        hl.update(lists=len(mt), urls=n_urls, m_med=statistics.median(mns), f_med=statistics.median(fns),
                  r_med=statistics.median(rat), r_p90=quantile(rat, .9),
                  r_w=weighted / weighted_f)
        worst = max(mt, key=lambda r: float(r["ratio"]))
        over = sum(1 for x in rat if x > 2.0)
        w_ratio = weighted / weighted_f
        targets.update({
            "r_every": ("real lists: every list <= 2.0x the floor",
                        f"worst {float(worst['ratio']):.2f}x ({worst['name']}); {over} of {len(rat)} lists above 2.0x",
                        verdict(over == 0)),
            "r_med": ("real lists: median per-list ratio <= 0.8x", f"{statistics.median(rat):.3f}x "
                      f"({statistics.median(mns):.1f} ns vs floor {statistics.median(fns):.1f} ns at the median)",
                      verdict(statistics.median(rat) <= 0.8)),
            "r_p90": ("real lists: p90 per-list ratio <= 1.0x", f"{quantile(rat, .9):.3f}x",
                      verdict(quantile(rat, .9) <= 1.0)),
            "r_w": ("real lists: weighted by URLs <= 1.0x", f"{w_ratio:.3f}x ({weighted:.1f} ns vs floor "
                    f"{weighted_f:.1f} ns per URL over all {n_urls:,} URLs)", verdict(w_ratio <= 1.0)),
        })
        w("Ten lists with the highest ratio to the floor:")
        w("")
        w(table(["list", "URLs", "rules", "programs", "nodes", "match ns", "floor ns", "ratio"],
                [[r["name"], r["n_urls"], r["rules"], r["programs"], r["nodes"], r["match_ns"], r["floor_ns"],
                  r["ratio"]] for r in sorted(mt, key=lambda r: -float(r["ratio"]))[:10]]))
        w("")
        with open(os.path.join(res, "match.dat"), "w") as f:
            for r in mt:
                f.write(f"{r['floor_ns']}\t{r['match_ns']}\n")
        if gnuplot(f"""set terminal pngcairo size 800,600
set output 'real_lists.png'
set title 'Real URL lists: robotsc ns/URL against the FNV-1a floor (one point per list)'
set xlabel 'floor ns per URL'
set ylabel 'robotsc ns per URL'
set grid
set key top left
set xrange [0:*]
set yrange [0:*]
plot '{res}/match.dat' using 1:2 with points pt 7 ps 0.6 title 'list', x with lines dt 2 lc rgb 'red' title 'ratio 1.0'
""", plots):
            w(f"![real lists]({rel_plots}/real_lists.png)")
            w("")
    else:
        w("No results.")
        w("")

    # ---- scaling ----
    w("## 3. Scaling (`bench_scale`, seeded synthetic files)")
    w("")
    w("One `User-agent: *` group of N rules from `bench/datagen.c` (seed 42): 55 % literal prefixes, 15 % with a "
      "`*` inside, 8 % with a leading `/*`, 12 % ending in `$`, 10 % with both; 20 % are `Allow`. 1,000 synthetic "
      "URLs over the same vocabulary. `rsc-datagen robots 42 N` writes the same file.")
    w("")
    sr = read_tsv(os.path.join(res, "scale_rules.tsv"))
    good = [r for r in sr if num(r.get("match_ns")) is not None]
    if sr:
        rows = []
        for r in sr:
            if num(r.get("match_ns")) is None:
                rows.append([r["rules"], r.get("source_bytes", "")[:120]] + [""] * 8)
                continue
            rows.append([r["rules"], f"{int(r['source_bytes']):,}", f"{int(r['blob_bytes']):,}",
                         f"{int(r['blob_bytes']) / int(r['source_bytes']):.2f}", fmt(num(r["compile_us"]), 1),
                         r["programs"], r["nodes"], r["match_ns"], r["floor_ns"], r["ratio"]])
        w(table(["rules", "source B", "blob B", "blob/src", "compile µs", "programs", "nodes", "ns/URL",
                 "floor ns", "ratio"], rows))
        w("")
        if len(good) >= 2:
            lo, hi = good[0], good[-1]
            f = float(hi["match_ns"]) / float(lo["match_ns"])
            all_counts = [r["rules"] for r in sr]
            complete = hi["rules"] == all_counts[-1]
            targets["scale"] = (f"synthetic {lo['rules']} -> {all_counts[-1]} rules: <= 2x growth in ns/URL",
                                f"{f:.2f}x ({lo['match_ns']} -> {hi['match_ns']} ns, {lo['rules']} -> "
                                f"{hi['rules']} rules)" +
                                ("" if complete else f"; {all_counts[-1]} rules did not finish"),
                                verdict(f <= 2.0 and complete))
        with open(os.path.join(res, "scale_rules.dat"), "w") as f:
            for r in good:
                f.write(f"{r['rules']}\t{r['match_ns']}\t{r['floor_ns']}\t{r['compile_us']}\t{r['blob_bytes']}\t"
                        f"{r['source_bytes']}\n")
        if good and gnuplot(f"""set terminal pngcairo size 900,520
set output 'scale_rules.png'
set title 'Matching cost against rule count (synthetic, 1,000 URLs)'
set logscale x
set xlabel 'rules in the group (log)'
set ylabel 'ns per URL'
set yrange [0:*]
set grid
plot '{res}/scale_rules.dat' using 1:2 with linespoints lw 2 pt 7 title 'robotsc', \\
     '' using 1:3 with linespoints dt 2 pt 6 title 'FNV-1a floor'
set output 'scale_compile.png'
set title 'Compile time and blob size against rule count (synthetic)'
set logscale xy
set yrange [*:*]
set ylabel 'compile µs / bytes (log)'
plot '{res}/scale_rules.dat' using 1:4 with linespoints lw 2 pt 7 title 'compile µs', \\
     '' using 1:5 with linespoints lw 2 pt 5 title 'blob bytes', \\
     '' using 1:6 with linespoints dt 2 pt 6 title 'source bytes'
""", plots):
            w(f"![scaling in rules]({rel_plots}/scale_rules.png)")
            w("")
            w(f"![compile and size scaling]({rel_plots}/scale_compile.png)")
            w("")
    sl = [r for r in read_tsv(os.path.join(res, "scale_length.tsv")) if num(r.get("match_ns")) is not None]
    if sl:
        w("Path length: paths of exactly L bytes made of the same words, matched with `rsc_match_path` against "
          "the 100-rule synthetic file (its `/*...$` rules are searched through the whole path when they do not match).")
        w("")
        w(table(["path bytes", "paths", "ns/path", "ns/byte", "floor ns/byte", "ratio"],
                [[r["length"], r["paths"], r["match_ns"], r["match_ns_per_byte"], r["floor_ns_per_byte"],
                  f"{float(r['match_ns']) / float(r['floor_ns']):.3f}"] for r in sl]))
        w("")
        per = [(int(r["length"]), float(r["match_ns_per_byte"])) for r in sl if int(r["length"]) >= 100]
        if len(per) >= 2:
            # Linear time: ns/byte must not grow with the length (a fixed per-call cost makes it
            # fall at short lengths, which is still linear). Longest against 100 bytes.
            f = per[-1][1] / per[0][1]
            spread = max(p[1] for p in per) / min(p[1] for p in per)
            w(f"ns/byte at {per[-1][0]:,} bytes is {f:.2f}x ns/byte at {per[0][0]} bytes (spread over lengths "
              f">= 100: {spread:.2f}x).")
            w("")
        with open(os.path.join(res, "scale_length.dat"), "w") as f:
            for r in sl:
                f.write(f"{r['length']}\t{r['match_ns_per_byte']}\t{r['floor_ns_per_byte']}\t{r['match_ns']}\n")
        if gnuplot(f"""set terminal pngcairo size 900,520
set output 'path_length.png'
set title 'Matching cost per path byte against path length (synthetic 100-rule file)'
set logscale x
set xlabel 'path bytes (log)'
set ylabel 'ns per byte'
set yrange [0:*]
set grid
plot '{res}/scale_length.dat' using 1:2 with linespoints lw 2 pt 7 title 'robotsc', \\
     '' using 1:3 with linespoints dt 2 pt 6 title 'FNV-1a floor'
""", plots):
            w(f"![path length]({rel_plots}/path_length.png)")
            w("")

    # ---- threads ----
    w("## 4. Threads (`bench_threads`, one shared blob and selection)")
    w("")
    rn = ""
    if os.path.exists(os.path.join(res, "threads_real.name")):
        rn = os.path.basename(open(os.path.join(res, "threads_real.name")).read().split()[0])
        rn = rn[:-4] if rn.endswith(".txt") else rn
    for label, fn in (("synthetic 100-rule file, 1,000 URLs", "threads_synth.tsv"),
                      (f"real: {rn}", "threads_real.tsv")):
        t = read_tsv(os.path.join(res, fn))
        if t:
            w(f"{label}:")
            w("")
            w(table(["threads", "URLs/s", "ns per URL per thread", "speed-up"],
                    [[r["threads"], f"{float(r['urls_per_s']) / 1e6:.2f} M", r["ns_per_url_per_thread"],
                      r["speedup"]] for r in t]))
            w("")

    # ---- peers ----
    w("## 5. Peers: parse once, match many (same files, same URLs, agent `Googlebot`)")
    w("")
    w("Each peer parses the same robots.txt (decoded to text before timing) and checks the same URLs; the "
      "timing method is the same (median of rounds after a warm-up). Ratios are per list, peer / robotsc, "
      "then the median over lists; robotsc's parse is compile + verify (`rsc_compile` + `rsc_load`). "
      "`disallowed` totals differ where the parsers' semantics differ (robotsc follows Google's matcher).")
    w("")
    prow = []
    total_dis = sum(int(r["disallowed"]) for r in mt) if mt else 0
    prow.append(["robotsc", fmt(med([float(r["match_ns"]) for r in mt])) if mt else "n/a", "1",
                 fmt(med([float(r["compile_us"]) + float(r["verify_ns"]) / 1e3 for r in mt])) if mt else "n/a",
                 "1", f"{total_dis:,}", ""])
    for lib, fn in (("Python urllib.robotparser", "peer_urllib.tsv"), ("Protego", "peer_protego.tsv"),
                    ("robots-parser (node)", "peer_robots_parser.tsv")):
        p = [r for r in read_tsv(os.path.join(res, fn)) if num(r.get("check_ns")) is not None]
        if not p:
            prow.append([lib, "not run", "", "", "", "", ""])
            continue
        rc, rp, same = [], [], 0
        for r in p:
            x = rsc.get(r["name"])
            if not x:
                continue
            rc.append(float(r["check_ns"]) / float(x["match_ns"]))
            rp.append(float(r["parse_us"]) / (float(x["compile_us"]) + float(x["verify_ns"]) / 1e3))
            same += r["disallowed"] == x["disallowed"]
        if rc:
            hl.setdefault("peers", []).append((lib, med(rc)))
        prow.append([lib, fmt(med([float(r["check_ns"]) for r in p])), f"{med(rc):.1f}" if rc else "n/a",
                     fmt(med([float(r["parse_us"]) for r in p])), f"{med(rp):.2f}" if rp else "n/a",
                     f"{sum(int(r['disallowed']) for r in p):,}", f"{same} of {len(rc)}"])
    w(table(["parser", "check ns (median)", "check ratio peer/robotsc", "parse µs (median)",
             "parse ratio peer/robotsc", "disallowed URLs", "lists with robotsc's disallowed count"], prow))
    w("")

    # ---- format 2 against format 4 ----
    # A section whose inputs this build no longer produces (format 5: no
    # run-time DFA) says so instead of stopping the whole report.
    for name, fn in (("6", lambda: f23_section(res, w, targets, m, hl)), ("DFA", lambda: dfa_section(res, w, hl))):
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - any failure of one section
            w("")
            w(f"**Section {name} could not be written from this run's results: {type(e).__name__}: {e}.**")
            w("")
            print(f"report.py: section {name}: {type(e).__name__}: {e}", file=sys.stderr)

    # ---- issue 36: against 1.0.0 built side by side (bench/issue36.sh) ----
    if os.path.isdir(os.path.join(res, "i36")):
        import report36  # noqa: E402 - bench/report36.py, beside this file (on sys.path, above)
        report36.section(res, w, hl)

    # ---- targets ----
    w("## Targets (issue 10)")
    w("")
    w("Format 4 figures of this run: hostile cases from section 6, real lists from section 2, the rest from "
      "sections 1 and 3.")
    w("")
    rows = [list(targets[k]) for k in TARGET_ORDER if k in targets]
    rows += [["(not measured) " + TARGET_LABEL[k], "n/a", "n/a"] for k in TARGET_ORDER if k not in targets]
    w(table(["target", "measured", "verdict"], rows))
    w("")
    w("A missed target is not always within reach: the section \"Floors\" below measures what parts of a "
      "check cost alone, and the Analysis says, for each missed target, whether this design can reach it "
      "on this machine, and why.")
    w("")
    # bench/floors/run.sh's builds that cut parts of matching out: its own
    # runs, kept as bench/FLOORS.md, bound what the design can reach.
    fl = os.path.join(os.path.dirname(os.path.abspath(report)), "FLOORS.md")
    if os.path.exists(fl):
        with open(fl, encoding="utf-8") as f:
            text = f.read().rstrip("\n")
        w(re.sub(r"^# ", "## ", text, count=1))  # a section of the report
        w("")
    # bench/js/bench.mjs (run.sh step 7): the npm package's WebAssembly
    # build against native C and robots-parser, in the report as a section.
    js = os.path.join(os.path.dirname(os.path.abspath(report)), "JS.md")
    if os.path.exists(js):
        with open(js, encoding="utf-8") as f:
            text = f.read().rstrip("\n")
        text = re.sub(r"^## ", "### ", text, flags=re.M)
        w(re.sub(r"^# ", "## 8. ", text, count=1))
        w("")
    an = os.path.join(os.path.dirname(os.path.abspath(report)), "ANALYSIS.md")
    if os.path.exists(an):
        with open(an, encoding="utf-8") as f:
            w(f.read().rstrip("\n"))
        w("")
    w("## Reproduce")
    w("")
    w("```sh\nbench/run.sh                          # the whole suite, this report\n"
      "robotsc bench ROBOTS.txt URLS.txt     # one file and URL list\n"
      "build-bench/bench/rsc-datagen robots 42 1000 > r.txt   # the synthetic files\n"
      "bench/floors/run.sh > bench/FLOORS.md # builds that cut parts of matching out\n"
      "RSC_BENCH_ONLY36=1 bench/run.sh      # step 8 only (issue 36 against 1.0.0), then this report\n"
      "bench/baseline.sh DIR                 # 1.0.0 and this tree built side by side\n"
      "DIR/new/bench_worker worker JOBS.tsv  # worker cost per origin (bench/bench_worker.c)\n```")
    w("")
    with open(report, "w", encoding="utf-8") as f:
        f.write("\n".join(md))
    write_readme_section(os.path.join(os.path.dirname(report), "README_SECTION.md"), m, hl,
                         os.path.basename(report))
    # Summary for the run log
    for k in TARGET_ORDER:
        if k in targets:
            t = targets[k]
            print(f"{t[2]:12s} {t[0]}: {t[1]}")


if __name__ == "__main__":
    main()
