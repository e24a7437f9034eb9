# SPDX-License-Identifier: Apache-2.0
"""Fail closed at every CLI entry point where a blob may arrive (issue 26,
item 2; rsc_classify()'s rule, include/robotsc/runtime.h).

Damaged blobs: every truncation (1 .. n-1 bytes; 0 bytes is an empty
robots.txt) of every golden blob, seeded single-bit flips of each, and the
header of every other Format_Major (byte 4), and UTF-16 text. Each goes
through check, info, lint, dump, compile, diff (as OLD and as NEW), store
put, store diff and store build (a directory of them): each must be an
error (exit 2 with a message; store build: a failed source), never a
verdict, a written blob, a diff of an empty robots.txt or a stored record. check sees every case; the other commands every
STRIDE-th (the same source_open/rsc_cli_classify path; process start-up
dominates), store build all of them in one run.

usage: failclosed.py ROBOTSC GOLDEN_DIR TMPDIR [STRIDE [CHECK_STRIDE]]
(CHECK_STRIDE, default 1: sanitizer builds sample check too.)
"""
import os
import random
import shutil
import subprocess
import sys

exe, golden, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
stride = int(sys.argv[4]) if len(sys.argv) > 4 else 5
check_stride = int(sys.argv[5]) if len(sys.argv) > 5 else 1
failures = []
passed = 0


def run(*args):
    p = subprocess.run([exe, *args], stdin=subprocess.DEVNULL, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def cases():
    rng = random.Random(26)
    for name in sorted(os.listdir(golden)):
        if not name.endswith(".rbc"):
            continue
        blob = open(os.path.join(golden, name), "rb").read()
        for n in range(1, len(blob)):
            yield "%s-trunc%d" % (name, n), blob[:n]
        bits = rng.sample(range(len(blob) * 8), min(24, len(blob) * 8))
        for b in sorted(bits + list(range(40))):  # the magic and Format_Major: every bit
            flipped = bytearray(blob)
            flipped[b // 8] ^= 1 << (b % 8)
            yield "%s-flip%d" % (name, b), bytes(flipped)
        # every major for one blob; a few for the others
        for major in range(256) if name == "basic.rbc" else (0, 1, 2, 3, 5, 9, 11, 255):
            if major != blob[4]:
                yield "%s-major%d" % (name, major), blob[:4] + bytes([major]) + blob[5:]
    # UTF-16 text (issue 37): binary to rsc_classify(), never an empty robots.txt
    text = "User-agent: *\nDisallow: /private/\n"
    yield "utf16-bom", text.encode("utf-16")
    yield "utf16le-nobom", text.encode("utf-16-le")


def expect_error(what, rc, out, err):
    global passed
    verdict = any(line.startswith((b"allow", b"disallow")) for line in out.splitlines())
    if rc != 2 or verdict or not err.strip():
        failures.append("%s: exit %d, stdout %r, stderr %r" % (what, rc, out[:80], err[:200]))
    else:
        passed += 1


all_cases = list(dict(cases()).items())
have_store = run("store", "--help")[0] == 0
old_txt = os.path.join(tmp, "old.txt")
with open(old_txt, "w") as f:
    f.write("User-agent: *\nDisallow: /private/\n")
out_rbc = os.path.join(tmp, "out.rbc")
sdb = os.path.join(tmp, "fc-diff.db")  # store diff: its record against a damaged NEW
if have_store:
    rc, out, err = run("store", "put", sdb, "https://a.example", old_txt)
    if rc != 0:
        failures.append("store put of a robots.txt: exit %d %r" % (rc, err[:200]))
src = os.path.join(tmp, "case.rbc")
db = os.path.join(tmp, "fc.db")
builddir = os.path.join(tmp, "build-src")
shutil.rmtree(builddir, ignore_errors=True)
os.makedirs(builddir)
for i, (name, data) in enumerate(all_cases):
    with open(src, "wb") as f:
        f.write(data)
    with open(os.path.join(builddir, "h%d.example.txt" % i), "wb") as f:
        f.write(data)
    if i % check_stride == 0:
        expect_error("check %s" % name, *run("check", "--agent", "a", src, "/x"))
    # diff and compile (issue 37): each every STRIDE-th case, at its own
    # offset, so that a case costs at most one more process
    utf16 = name.startswith("utf16")
    if i % stride == 1 % stride or utf16:
        # diff (item 2): a damaged file is an error, not an empty robots.txt
        # whose "/private/: disallow -> allow" is a wrong answer
        expect_error("diff NEW %s" % name, *run("diff", old_txt, src))
    if i % stride == 2 % stride or utf16:
        expect_error("diff OLD %s" % name, *run("diff", src, old_txt))
    if i % stride == 3 % stride and not utf16:
        # compile (item 3): refused, nothing written (UTF-16 is binary:
        # compile reads any bytes as Google does, with a warning)
        if os.path.exists(out_rbc):
            os.unlink(out_rbc)
        rc, out, err = run("compile", src, "-o", out_rbc)
        if rc != 2 or not err.strip() or os.path.exists(out_rbc):
            failures.append("compile %s: exit %d, written %s, stderr %r" % (name, rc, os.path.exists(out_rbc),
                                                                            err[:200]))
        else:
            passed += 1
    if have_store and (i % stride == 4 % stride or utf16):
        expect_error("store diff %s" % name, *run("store", "diff", sdb, "https://a.example", src))
    if i % stride:
        continue
    expect_error("info %s" % name, *run("info", src))
    expect_error("lint %s" % name, *run("lint", src))
    expect_error("dump %s" % name, *run("dump", src))
    if have_store:
        expect_error("store put %s" % name, *run("store", "put", db, "https://a.example", src))
        rc, out, err = run("store", "get", db, "https://a.example")
        if rc != 1 and not (rc == 2 and b"no such store" in err):
            failures.append("store put %s: a record was stored (store get exit %d)" % (name, rc))

if have_store:
    # store build over a directory of every case: every source fails, none
    # is written.
    rc, out, err = run("store", "build", db + "2", builddir, "-j", "2")
    want = "compiled: 0, written: 0, unchanged: 0, failed: %d" % len(all_cases)
    if rc != 1 or want.encode() not in out:
        failures.append("store build: exit %d, %r (want %r)" % (rc, out[-300:], want))
    else:
        passed += 1
    rc, out, err = run("store", "list", db + "2")
    if out.strip():
        failures.append("store build stored records: %r" % out[:200])
    else:
        passed += 1
else:
    print("store not built: store put/build skipped")

for f in failures[:20]:
    print("FAIL:", f)
print("failclosed: %d cases, %d passed, %d failed" % (len(all_cases), passed, len(failures)))
sys.exit(1 if failures else 0)
