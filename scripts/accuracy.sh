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
# under the embedded weights (fitted on the cases, not on this reading).
echo
"$bin" eval "$shared/trail-gaia/traces" --labels "$shared/trail-gaia/labels.jsonl" 2>/dev/null |
  awk '$1 == "overall" && !done { done = 1; printf "TRAIL read from its %s OpenInference traces (`eval --labels`, embedded weights): agent %s / step %s / r@5 %s.\n", $2, $4, $5, $12 }'
