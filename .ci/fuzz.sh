#!/usr/bin/env bash
# Fuzz every fuzz target of the module for a short while each: a parser or
# a redaction rule that panics, loops or leaks on some input is found here
# before a user's log finds it. Call it from .ci/run; FUZZTIME sets the
# time per target (default 5s). A failing input is saved under the
# package's testdata/fuzz/ by the go command: commit it, and it is replayed
# by every `go test` from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"

fuzztime="${FUZZTIME:-5s}"
start=$(date +%s)
count=0
# `go test -list` prints each package's matching tests, then "ok  <pkg>".
targets=$(go test -list '^Fuzz' ./... | awk '
  /^Fuzz/ { names[n++] = $1; next }
  /^ok/   { for (i = 0; i < n; i++) print $2, names[i]; n = 0 }')
if [ -z "$targets" ]; then
  echo "fuzz: no fuzz targets found" >&2
  exit 1
fi
# When -fuzztime runs out while a worker is still inside a slow input, the
# go command can report "context deadline exceeded" and fail without any
# failing input (nothing is written under testdata/fuzz). That is the
# fuzzer's clock, not a finding: such a run is tried again, up to three
# times in all, and only a failure that saved an input, or three of the
# clock's, fails the job.
#
# Inputs are not minimised here (FUZZMINIMIZETIME, 0): the go command
# minimises each input that finds new code, by default for up to a minute,
# and from a seed of tens of kilobytes (a real trace file) that takes the
# whole of a short run with the exec count standing still, and meets the
# deadline. A failing input is saved whole; `go test -fuzz` on a developer's
# machine minimises it.
minimize="${FUZZMINIMIZETIME:-0}"
fuzz() {
  go test -run '^$' -fuzz "^${2}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimize" "$1" 2>&1 | tee "$log"
  return "${PIPESTATUS[0]}"
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
while read -r pkg name; do
  echo "== fuzz $pkg $name ($fuzztime)"
  tries=1
  until fuzz "$pkg" "$name"; do
    if ! grep -q 'context deadline exceeded' "$log" || grep -q 'Failing input written to' "$log" || [ "$tries" -ge 3 ]; then
      exit 1
    fi
    tries=$((tries + 1))
    echo "== fuzz $pkg $name: the fuzzer's deadline, no failing input; try $tries of 3"
  done
  count=$((count + 1))
done <<< "$targets"
echo "fuzz: $count targets in $(( $(date +%s) - start ))s"
