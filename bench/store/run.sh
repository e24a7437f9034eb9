#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The store benchmark: N origins (default 1,000,000; the corpus files cycled
# under generated host names "https://sI.HOST"), built with `robotsc store
# build` at -j1 and -j2 and compared with a pure compile of the same files;
# then random mixed-origin URLs checked through rsc_store_check, uncached
# and with the program cache, in 1 and 2 reader processes. Writes a
# Markdown report to stdout (bench/STORE.md); the store is deleted at the end.
# usage: bench/store/run.sh BUILD_DIR [N] [WORKDIR] > bench/STORE.md
# BUILD_DIR: a release build configured with -DRSC_BUILD_BENCH=ON. Every
# measurement is kept in WORKDIR; REPORT_ONLY=1 writes the report again
# from them without measuring; STORE_TARGETS_ONLY=1 measures only what
# issue 36's targets need and writes no report (bench/issue36.sh).
set -eu
B=$1; N=${2:-1000000}; W=${3:-/tmp/rsc-store-bench}
C=${RSC_SHARED_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/../shared}/corpus # RSC_SHARED_DIR: as bench/run.sh
R=$B/robotsc; S=$B/bench/store/bench_store
[ -d "$C/robots" ] || { echo "corpus not found at $C" >&2; exit 77; }
log() { echo "$*" >&2; }
if [ -z "${REPORT_ONLY:-}" ]; then
mkdir -p "$W"; rm -f "$W"/s.db "$W"/s.db-lock
log "$(df -h "$W" | tail -1)"
"$S" tsv "$C/robots" "$N" "$W/o.tsv" >&2
cut -d' ' -f1-3 /proc/loadavg >"$W/load0"
echo "$(git -C "$(dirname "$0")" rev-parse --short=12 HEAD)$(git -C "$(dirname "$0")" diff --quiet HEAD -- ../../store ../../cli ../../bench/store || echo ' (with uncommitted changes)'), $(date -u +%Y-%m-%d)" >"$W/rev"

# ---- build ----
pure() { # pure J: "wall cpu" seconds of a pure compile
  "$S" compile "$W/o.tsv" "$1" | awk -F'\t' '{print $4, $8}' >"$W/pure.$1"
}
build() { # build J: `robotsc store build` into a new store (--text: every
  # source compiled, as the pure compile does; 294 corpus files look binary)
  rm -f "$W"/s.db "$W"/s.db-lock
  /usr/bin/time -f '%U %S' -o "$W/time.$1" "$R" store build --text "$W/s.db" "$W/o.tsv" -j"$1" >"$W/build.$1" 2>&1
}
# STORE_TARGETS_ONLY=1 (bench/issue36.sh, which runs this for two builds):
# only what issue 36's targets need (build -j1, file size, the one-reader
# uncached and cached checks), and no report: half the time.
T=${STORE_TARGETS_ONLY:-}
if [ -z "$T" ]; then log "pure compile -j1"; pure 1; fi
log "store build -j1"; build 1
if [ -z "$T" ]; then
log "pure compile -j2"; pure 2
log "store build -j2"; build 2
log "store build -j2 again (nothing changed)"
"$R" store build --text "$W/s.db" "$W/o.tsv" -j2 >"$W/rebuild" 2>&1
fi
"$R" store stat "$W/s.db" >"$W/stat"
stat -c %s "$W/s.db" >"$W/filesize"

# STORE_KEEP=1 (with STORE_TARGETS_ONLY): the store and the origins are
# kept and no check is run; bench/issue36.sh runs the checks of both builds'
# stores alternating, then deletes them.
if [ -n "$T" ] && [ -n "${STORE_KEEP:-}" ]; then exit 0; fi

# ---- checks ----
U=1000000
check() { "$S" check "$W/s.db" "$W/o.tsv" "$C/urls" "$U" "$1" "$2" "$3" >"$W/check.$1.$2.$3"; }
log "checks"
if [ -n "$T" ]; then
check uncached 0 1; check cached 10000 1; check cached 100 1
rm -f "$W"/s.db "$W"/s.db-lock
cut -d' ' -f1-3 /proc/loadavg >"$W/load1"
exit 0
fi
check lookup 0 1
check uncached 0 1; check uncached 0 2
check cached 10000 1; check cached 10000 2
check cached 100 1
check cached 0 1
rm -f "$W"/s.db "$W"/s.db-lock
cut -d' ' -f1-3 /proc/loadavg >"$W/load1"
fi

# ---- report ----
wall() { sed -n 's/^time: \([0-9.]*\) s.*/\1/p' "$1"; }
read -r p1 pc1 <"$W/pure.1"; read -r p2 pc2 <"$W/pure.2"
b1=$(wall "$W/build.1"); bc1=$(awk '{print $1 + $2}' "$W/time.1")
b2=$(wall "$W/build.2"); bc2=$(awk '{print $1 + $2}' "$W/time.2")
rb=$(wall "$W/rebuild")
records=$(sed -n 's/^records: //p' "$W/stat")
used=$(sed -n 's/^used_bytes: //p' "$W/stat")
file=$(cat "$W/filesize")
bin=$(sed -n 's/^bytes in: \([0-9]*\),.*/\1/p' "$W/build.2")
bout=$(sed -n 's/.*bytes out (blobs): \([0-9]*\)/\1/p' "$W/build.2")
load0=$(cat "$W/load0"); load1=$(cat "$W/load1")
N=$records

tot() { awk -F'\t' -v f="$2" '$1=="total"{print $f}' "$W/check.$1"; }
rd() { awk -F'\t' -v f="$2" '$1=="reader" && $5==0 {print $f}' "$W/check.$1"; }
r() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%+.0f%%", (a/b-1)*100}'; }
met() { awk -v a="$1" -v op="$2" -v b="$3" 'BEGIN{ok = op=="<=" ? a<=b : a>=b; print ok ? "met" : "**not met**"}'; }
rate() { awk -v n="$N" -v s="$1" 'BEGIN{printf "%.0f", n/s}'; }

u1=$(tot uncached.0.1 5); u2=$(tot uncached.0.2 5)
c1=$(tot cached.10000.1 5); c2=$(tot cached.10000.2 5)
um=$(rd uncached.0.1 6); cm=$(rd cached.10000.1 6); fm=$(rd cached.0.1 6)
cat <<EOF
# Store benchmark

\`bench/store/run.sh\` on $(nproc) shared CPUs ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')),
$(cc --version | head -1), revision $(cat "$W/rev").
The machine was shared with other jobs: load average $load0 before, $load1 after; timings on it
are noisy (the -j2 figures most: two threads and a writer on two busy cores).

**Data**: $records origins \`https://sI.HOST\`, the 20,401 corpus files cycled ($(awk -v b="$bin" 'BEGIN{printf "%.2f", b/1e9}') GB
of robots.txt, $(awk -v b="$bout" 'BEGIN{printf "%.2f", b/1e9}') GB of blobs), built from a TSV with \`robotsc store build\`
(one writer, batches of 1,000 records per transaction, fsync per commit).

## Build

| | wall s | records/s | wall vs pure compile | CPU s (user + sys) | CPU vs pure compile |
|---|---:|---:|---:|---:|---:|
| pure compile (read + rsc_compile), 1 thread | $p1 | $(rate "$p1") | | $pc1 | |
| \`store build -j1\` | $b1 | $(rate "$b1") | $(pct "$b1" "$p1") | $bc1 | $(pct "$bc1" "$pc1") |
| pure compile, 2 threads | $p2 | $(rate "$p2") | | $pc2 | |
| \`store build -j2\` | $b2 | $(rate "$b2") | $(pct "$b2" "$p2") | $bc2 | $(pct "$bc2" "$pc2") |
| \`store build -j2\` again, nothing changed | $rb | $(rate "$rb") | | | |

CPU time is the fairer comparison on a shared machine: it counts the work done, not the time spent
waiting for a core. The store's extra work is hashing the source, verifying each blob, the record
copy, LMDB's B-tree and page writes and an fsync per batch.

Store file: $(awk -v f="$file" 'BEGIN{printf "%.2f", f/1e9}') GB, $(awk -v u="$used" -v n="$records" 'BEGIN{printf "%.0f", u/n}') bytes per origin in use
(blob $(awk -v b="$bout" -v n="$records" 'BEGIN{printf "%.0f", b/n}') bytes on average; the rest is the record header,
the key, B-tree pages and LMDB's overflow pages, which round large values up to whole 4 KiB pages).

## Checks

Random URLs: an origin of the store, a path from the corpus URL lists; \`rsc_store_check\` with one
agent (Googlebot): origin key, lookup, verification of the blob, selection, match. Each check is
timed alone (the cost of the clock read subtracted); 1,000,000 checks per reader after a warm-up
(one pass over every record, so that the store's pages are mapped as in a long-running worker, then
200,000 checks).

| | readers | origins drawn from | median ns | p90 ns | p99 ns | CPU ns per check (reader 0) | checks/s (all readers, wall) |
|---|---:|---:|---:|---:|---:|---:|---:|
| lookup only (origin key + record, no verification, no match) | 1 | all | $(rd lookup.0.1 6) | $(rd lookup.0.1 7) | $(rd lookup.0.1 8) | $(rd lookup.0.1 12) | $(tot lookup.0.1 5) |
| uncached | 1 | all | $um | $(rd uncached.0.1 7) | $(rd uncached.0.1 8) | $(rd uncached.0.1 12) | $u1 |
| uncached | 2 | all | $(rd uncached.0.2 6) | $(rd uncached.0.2 7) | $(rd uncached.0.2 8) | $(rd uncached.0.2 12) | $u2 |
| program cache | 1 | 10,000 | $cm | $(rd cached.10000.1 7) | $(rd cached.10000.1 8) | $(rd cached.10000.1 12) | $c1 |
| program cache | 2 | 10,000 | $(rd cached.10000.2 6) | $(rd cached.10000.2 7) | $(rd cached.10000.2 8) | $(rd cached.10000.2 12) | $c2 |
| program cache | 1 | 100 | $(rd cached.100.1 6) | $(rd cached.100.1 7) | $(rd cached.100.1 8) | $(rd cached.100.1 12) | $(tot cached.100.1 5) |
| program cache (mostly misses) | 1 | all | $fm | $(rd cached.0.1 7) | $(rd cached.0.1 8) | $(rd cached.0.1 12) | $(tot cached.0.1 5) |

"Lookup only" is the origin key and the LMDB lookup of the record (B-tree descent, header and
checksum): at this size its pages are spread over a $(awk -v f="$file" 'BEGIN{printf "%.1f", f/1e9}') GB map, so it is mostly cache and
TLB misses. The uncached check adds $(( $(rd uncached.0.1 6) - $(rd lookup.0.1 6) )) ns at the median for the verification of the blob
(rsc_load, linear in its size: $(awk -v b="$bout" -v n="$records" 'BEGIN{printf "%.1f", b/n/1000}') KB on average, up to 500 KiB; it makes the p99), the
selection and the match. A reader's CPU cost per check stays the same with a second reader (LMDB
readers take no lock); the wall rate of two readers can only double when two cores are free.

The program cache (\`rsc_store_cache\`, a two-way table of 2 x the working set) helps a worker
whose URLs come from a bounded set of origins, as a crawler shard's do; over all $records origins at
random it mostly misses and costs a copy of the blob per miss.

## Targets of the issue

| target | measured | |
|---|---|---|
| store adds <= 30% to the pure compile time (-j1, wall) | $(pct "$b1" "$p1") | $(met "$b1" "<=" "$(awk -v p="$p1" 'BEGIN{print p*1.3}')") |
| store adds <= 30% to the pure compile time (-j2, wall) | $(pct "$b2" "$p2") | $(met "$b2" "<=" "$(awk -v p="$p2" 'BEGIN{print p*1.3}')") |
| store adds <= 30% to the pure compile CPU time (-j1) | $(pct "$bc1" "$pc1") | $(met "$bc1" "<=" "$(awk -v p="$pc1" 'BEGIN{print p*1.3}')") |
| \`-j2\` builds >= 1.8x faster than \`-j1\` | $(r "$b1" "$b2")x (pure compile: $(r "$p1" "$p2")x) | $(met "$(r "$b1" "$b2")" ">=" 1.8) |
| median mixed-origin check <= 2 µs uncached | $um ns | $(met "$um" "<=" 2000) |
| median <= 200 ns with the program cache (10,000 origins) | $cm ns | $(met "$cm" "<=" 200) |
| median <= 200 ns with the program cache (100 origins) | $(rd cached.100.1 6) ns | $(met "$(rd cached.100.1 6)" "<=" 200) |
| 2 reader processes >= 1.8x one (uncached, wall rate) | $(r "$u2" "$u1")x | $(met "$(r "$u2" "$u1")" ">=" 1.8) |
| 2 reader processes >= 1.8x one (cached, wall rate) | $(r "$c2" "$c1")x | $(met "$(r "$c2" "$c1")" ">=" 1.8) |
| 2 readers: CPU per check within 10% of one reader's (uncached) | $(rd uncached.0.2 12) vs $(rd uncached.0.1 12) ns | $(met "$(rd uncached.0.2 12)" "<=" "$(awk -v a="$(rd uncached.0.1 12)" 'BEGIN{print a*1.1}')") |

The wall-clock ratios (\`-j2\` vs \`-j1\`, two readers vs one) need two idle cores: the pure compile
itself gained $(r "$p1" "$p2")x from a second thread in this run ($(awk -v a="$p1" -v b="$p2" 'BEGIN {
  print (a / b >= 1.9 ? "two cores were free, so the ratios stand" : "well below 2x: the machine'"'"'s other jobs took the second core, and those ratios say little") }')). A worker that checks many URLs
per origin should use the program cache: it meets 200 ns when its working set fits the CPU caches
(100 origins) and not with 10,000 origins of $(awk -v b="$bout" -v n="$records" 'BEGIN{printf "%.1f", b/n/1000}') KB blobs (tens of MB of programs).
EOF
