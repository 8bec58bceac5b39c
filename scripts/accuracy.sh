#!/usr/bin/env bash
# Prints the accuracy section of docs/benchmarks.md: rules only, each labelled
# system held out of the fit in turn, beside its label-free floors. Needs
# ../shared beside the repository. Accuracy does not depend on the machine;
# the header says which one and when, as every generated figure does.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
shared=${SHARED:-../shared}
bin=$(mktemp -d)/offattr
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/offattr
header accuracy.sh
"$bin" fit "$shared/whowhen/dev" "$shared/tau-retail" "$shared/trail-gaia/cases" --prior evidence --json 2>/dev/null |
  go run ./internal/benchtable
# The same TRAIL runs read from their traces: the trace reader's figure,
# held out (weights fitted on the other systems) and under the embedded
# weights (fitted on the cases, the same runs read another way).
held="$(dirname "$bin")/without-trail.json"
"$bin" fit "$shared/whowhen/dev" "$shared/tau-retail" --prior evidence -o "$held" >/dev/null 2>&1
traces() {
  "$bin" eval "$shared/trail-gaia/traces" --labels "$shared/trail-gaia/labels.jsonl" "$@" 2>/dev/null |
    awk '$1 == "overall" && !done { done = 1; printf "agent %s / step %s / r@5 %s", $4, $5, $12 }'
}
echo
echo "TRAIL read from its 110 OpenInference traces (\`eval --labels\`): held out of the fit $(traces --weights "$held"); under the embedded weights, which were fitted on the cases, $(traces)."
# Held out again with TRAIL read from its traces in place of its cases: a
# change to how traces read moves these figures and none of those above.
echo
echo "Held out of the fit again, with TRAIL read from its traces in place of its cases (a change to how traces read shows here, not above):"
echo
"$bin" fit "$shared/whowhen/dev" "$shared/tau-retail" "$shared/trail-gaia/traces" --labels "$shared/trail-gaia/labels.jsonl" --prior evidence --json 2>/dev/null |
  go run ./internal/benchtable | sed '/^Label-free floors/,$d'
# The constructed runs of other kinds (testdata/kinds): the mechanisms were
# mended on them and no fit reads them, so they show what the rules read in
# such runs, not how a system of that kind will score.
echo
echo "Constructed runs of kinds the labelled systems do not hold (\`testdata/kinds\`, under the embedded weights; the mechanisms that read them were mended on them, and no fit reads them), rules beside the label-free floors, agent / step:"
echo
echo '```'
"$bin" eval testdata/kinds 2>/dev/null | sed -n '/beside the label-free floors/,/^ *$/p' | sed -e '1d' -e '/^ *$/d'
echo '```'
