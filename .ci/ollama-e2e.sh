#!/usr/bin/env bash
# End-to-end tests against a real Ollama server (issue 8), for .ci/run to
# call after the ordinary tests: builds or reuses the server pinned in go.mod
# (.ci/ollama.sh), then runs every test named E2E under the ollama_e2e tag:
# analyze and eval with the model, and fit --model on a handful of dev runs
# whose weights analyze then uses.
# Those start their own server on a free loopback port with a tiny generated
# model, and stop it when they end; nothing is downloaded but Go modules and
# Debian packages.
#
# Time: a cold server build is about 3-5 minutes on 2 cores (a warm Go build
# cache or a cached binary makes it seconds), the tests a few minutes. The
# bounds below keep the worst case near 45 minutes, inside CI's 90.
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"

echo "== ollama server for e2e tests (.ci/ollama.sh)"
start=$SECONDS
OFFATTR_OLLAMA_BIN=$(timeout 20m bash .ci/ollama.sh)
export OFFATTR_OLLAMA_BIN
echo "ollama: $OFFATTR_OLLAMA_BIN ($((SECONDS - start))s)"

# The packages with E2E tests, named rather than ./... so that the run does
# not end on other packages' "no tests to run" lines.
pkgs=(./localllm/ollamae2e/)
echo "== go test -tags ollama_e2e -run E2E ${pkgs[*]}"
go test -tags ollama_e2e -run E2E -count=1 -timeout 25m -v "${pkgs[@]}"
