#!/usr/bin/env bash
# Prints the screening figure of docs/benchmarks.md: a rules-only screen of
# Who&When's development half and tau-retail against a plain JSON decode of
# the same files (screencmd's BenchmarkScreenVsDecode), five runs of ten
# rounds each, with the machine's load before each run. Needs ../shared
# beside the repository. Timings depend on the machine and its load: run it
# on a quiet machine, and compare builds only side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
go test -c -o "$bin" ./cmd/offattr/internal/screencmd
header throughput.sh
echo '```text'
printf '%-5s %-6s %10s %10s %14s\n' run load decode-s screen-s screen/decode
ratios=()
for i in 1 2 3 4 5; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  line=$(cd cmd/offattr/internal/screencmd && "$bin" -test.run '^$' -test.bench ScreenVsDecode -test.benchtime 10x | grep '^BenchmarkScreenVsDecode')
  read -r decode screen ratio < <(awk '{for (i = 1; i < NF; i++) { if ($(i+1) == "decode-s/op") d = $i; if ($(i+1) == "screen-s/op") s = $i; if ($(i+1) == "screen/decode") r = $i }; print d, s, r}' <<<"$line")
  printf '%-5s %-6s %10.3f %10.3f %14.2f\n' "$i" "$load" "$decode" "$screen" "$ratio"
  ratios+=("$ratio")
done
printf 'median screen/decode %.2f\n' "$(printf '%s\n' "${ratios[@]}" | sort -g | sed -n 3p)"
echo '```'
