#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Regenerates the format-4 golden blobs (NAME.v4.rbc) and their expected
# verdicts (NAME.expected) from the sources NAME.txt with robotsc 1.0.0's
# CLI (commit 3a05c31, the last to write format 4), e.g. built by
#   mkdir -p /tmp/rsc100 && git archive 3a05c31 | tar -x -C /tmp/rsc100
#   cmake -S /tmp/rsc100 -B /tmp/rsc100/build -G Ninja -DRSC_BUILD_TESTS=OFF
#   cmake --build /tmp/rsc100/build --target robotsc-cli
# Usage: regen.sh /tmp/rsc100/build/robotsc   (run in this directory)
# NAME.expected: one line per agent of agents.txt, the agent, a tab, then one
# word per URL of urls.txt as 1.0.0 answers it: a (allowed, no rule), aN
# (allowed by line N), dN (disallowed by line N). rfc_* files use the rfc
# profile.
set -eu
old=$1
[ "$("$old" --version)" = "robotsc 1.0.0" ] || { echo "regen.sh: $old is not robotsc 1.0.0" >&2; exit 2; }
for src in *.txt; do
  case $src in urls.txt|agents.txt) continue ;; esac
  name=${src%.txt}
  profile=google
  case $name in rfc_*) profile=rfc ;; esac
  "$old" compile --profile "$profile" "$src" -o "$name.v4.rbc"
  : > "$name.expected"
  while IFS= read -r agent; do
    "$old" check --json --agent "$agent" "$name.v4.rbc" < urls.txt 2>/dev/null |
      /usr/bin/python3 -c '
import json, sys
words = []
for line in sys.stdin:
    j = json.loads(line)
    w = "a" if j["allowed"] else "d"
    words.append(w + (str(j["line"]) if j["decided"] else ""))
print(sys.argv[1] + "\t" + " ".join(words))' "$agent" >> "$name.expected"
  done < agents.txt
done
