# SPDX-License-Identifier: Apache-2.0
"""Every option a command's argument parser accepts is in its --help and in
its section of the man page (issue 37, item 13).

Which options a parser accepts is found by running it, not by reading a
list: each option-like string literal of cli/*.c is given to each command
(with a value after it), and its messages are compared with those for an
option no command has. Different messages mean the parser took the option.
Then the option must appear in `robotsc CMD --help` and in CMD's part of
docs/man/robotsc.1. Also: store build --scheme ftp is refused as its help
says; store --help names no source file; SEE ALSO says where the docs are
installed.

usage: help_options.py ROBOTSC SOURCE_DIR
"""
import glob
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

exe, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []
checked = 0


def run(args, cwd):
    p = subprocess.run([exe, *args], stdin=subprocess.DEVNULL, capture_output=True, cwd=cwd, timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


# The candidates: option-like literals of the command-line sources.
opts = set()
for path in glob.glob(os.path.join(src, "cli", "*.c")):
    for m in re.finditer(r'"(--[a-z][a-z0-9-]*|-[a-zA-Z])[="]', open(path, encoding="utf-8").read()):
        opts.add(m.group(1))
opts -= {"--help", "-h", "--version"}

tmp = tempfile.mkdtemp()
rc, top, _ = run(["--help"], tmp)
commands = [[m.group(1)] for m in re.finditer(r"^  ([a-z]+) ", top, re.M)]
have_store = ["store"] in commands
if have_store:
    commands.remove(["store"])
    rc, store_help, _ = run(["store", "--help"], tmp)
    commands += [["store", m.group(1)] for m in re.finditer(r"^  ([a-z]+) ", store_help, re.M)]
    commands.append(["fetch", "--store", "x.db"])
    # store --help names no source file (it is for users, not for the tree)
    if re.search(r"\b[\w/]+\.[ch]\b", store_help):
        failures.append("store --help names a source file: %r" % store_help)
    checked += 1

# The man page's text, its escapes undone, cut into each command's part.
man = open(os.path.join(src, "docs", "man", "robotsc.1"), encoding="utf-8").read()
plain = re.sub(r"\\f[BIRP]", "", man).replace("\\-", "-").replace("\\&", "")


def man_part(cmd):
    if cmd[0] == "store" or cmd[:2] == ["fetch", "--store"]:
        head = ".B robotsc " + " ".join(cmd[:2])
        start = plain.find(head + "\n")
        if start < 0:
            return None
        nxt = [plain.find(h, start + 1) for h in ("\n.B robotsc store ", "\n.B robotsc fetch --store", "\n.SH ")]
        nxt = [n for n in nxt if n > 0]
        return plain[start:min(nxt) if nxt else len(plain)]
    start = plain.find(".SS " + cmd[0] + "\n")
    if start < 0:
        return None
    ends = [n for n in (plain.find("\n.SS ", start + 1), plain.find("\n.SH ", start + 1)) if n > 0]
    return plain[start:min(ends)]


def has(text, opt):
    return re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", text) is not None


def norm(text, opt):
    return re.sub(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", "OPT", text)


for cmd in commands:
    name = " ".join(cmd[:2])
    rc, helptext, _ = run(cmd + ["--help"], tmp)
    part = man_part(cmd)
    if rc != 0 or not helptext.strip():
        failures.append("%s --help: exit %d" % (name, rc))
        continue
    if part is None:
        failures.append("%s: no part of the man page" % name)
        continue
    bases = {n: run(cmd + [n, "x"], tmp) for n in ("--zzq-none", "-Z")}
    order = sorted(opts)
    with ThreadPoolExecutor(4) as pool:  # process start-up dominates
        got = list(pool.map(lambda o: run(cmd + [o, "x"], tmp), order))
    accepted = []
    for opt, g in zip(order, got):
        nonsense = "--zzq-none" if opt.startswith("--") else "-Z"
        base = bases[nonsense]
        if norm(base[2], nonsense) != norm(g[2], opt) or base[0] != g[0]:
            accepted.append(opt)
    if cmd[:2] == ["fetch", "--store"]:
        accepted = [o for o in accepted if o != "--store"] + ["--store"]
    for opt in accepted:
        checked += 1
        if not has(helptext, opt):
            failures.append("%s accepts %s; its --help does not say so" % (name, opt))
        if not has(part, opt):
            failures.append("%s accepts %s; its man page part does not say so" % (name, opt))
    print("%s: %s" % (name, " ".join(accepted)))

if have_store:
    # store build --help says https|http: ftp is refused
    rc, out, err = run(["store", "build", "--scheme", "ftp", os.path.join(tmp, "b.db"), tmp], tmp)
    checked += 1
    if rc != 2 or "ftp" not in err:
        failures.append("store build --scheme ftp: exit %d %r" % (rc, err))

# SEE ALSO: where the docs are installed, not the source tree
see = plain[plain.find(".SH SEE ALSO"):]
checked += 1
if "source tree" in see or "share/doc/robotsc" not in see:
    failures.append("SEE ALSO: %r" % see)

for f in failures:
    print("FAIL:", f)
print("help_options: %d checked, %d failed" % (checked, len(failures)))
sys.exit(1 if failures else 0)
