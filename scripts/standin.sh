#!/usr/bin/env bash
# Prints the stand-in judges' section of docs/benchmarks.md: step accuracy
# with judges of known accuracy on every labelled corpus beside the
# repository, on the rules' answers under 10-fold cross-validation and held
# out by system (fit's TestStandInJudgeTable; docs/model.md says what each
# column is), the default weights chosen, and every cell that misses its
# target against the rules it was built on. Needs ../shared beside the
# repository. The figures do not depend on the machine; the header says
# which one and when, as every generated figure does.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
out=$(OFFATTR_STANDIN_TABLE=1 go test ./fit -run '^TestStandInJudgeTable$' -count=1 -v -timeout 60m)
header standin.sh
echo '```text'
logged_table "$out" '^ *judge  *corpus'
printf '%s\n' "$out" | sed -n -e 's/^        \(default weights chosen on every corpus: .*\)$/\1/p' -e 's/^        \(chosen without .*\)$/\1/p' \
  -e 's/^        \(missed: .*\)$/\1/p'
echo '```'
