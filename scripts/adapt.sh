#!/usr/bin/env bash
# Prints the adaptation tables of docs/benchmarks.md: for each labelled
# system, weights fitted on the others, then on n of its own runs (five
# deals), scoring the rest, beside the system's best label-free floors
# (fit's TestAdaptationCurve). Needs ../shared beside the repository. The
# figures do not depend on the machine; the header says which one and when,
# as every generated figure does.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
out=$(OFFATTR_ADAPT_TABLE=1 go test ./fit -run '^(TestAdaptationCurve|TestAgentAfterAdaptation)$' -count=1 -v)
header adapt.sh
echo '```text'
logged_table "$out" '^ *corpus  *runs'
echo
logged_table "$out" '^ *corpus  *agent named by'
echo '```'
