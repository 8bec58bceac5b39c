#!/usr/bin/env bash
# Builds the Ollama server that offattr's end-to-end tests run against, from
# its own small module (localllm/ollamae2e/ollamaserver, where it is a tool),
# so that offattr's go.mod carries none of the server's dependencies. The
# version there must be the one offattr's go.mod pins for the api client. Nothing is downloaded besides Go
# modules and Debian packages.
#
# Prints the path of the binary on standard output (progress goes to standard
# error), so callers can do: OFFATTR_OLLAMA_BIN=$(.ci/ollama.sh)
#
# Idempotent: when the binary is already there and was built from the pinned
# version, it is reused. A cold build takes several minutes on 2 cores (most
# of it compiling llama.cpp and ggml through cgo); a warm Go build cache makes
# a rebuild quick.
#
# Environment:
#   OFFATTR_OLLAMA_BIN  where the binary is, or is to be built
#                       (default $HOME/.cache/offattr/ollama-VERSION/ollama).
#                       A binary there that is not a Go build of the pinned
#                       version (say, an ollama you installed yourself) is
#                       used as it is, with a warning.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

log() { printf 'ollama.sh: %s\n' "$*" >&2; }

module=github.com/ollama/ollama
serverdir=$root/localllm/ollamae2e/ollamaserver
version=$(cd "$serverdir" && go list -m -f '{{.Version}}' "$module")
client=$(go list -m -f '{{.Version}}' "$module")
if [[ $version != "$client" ]]; then
	log "the server module pins $module $version but offattr's api client is $client; make them agree"
	exit 1
fi
bin=${OFFATTR_OLLAMA_BIN:-$HOME/.cache/offattr/ollama-$version/ollama}

# built_version prints the ollama module version a Go binary was built from,
# or nothing when the file is not such a binary.
built_version() {
	go version -m "$1" 2>/dev/null |
		awk -v m="$module" '($1 == "dep" || $1 == "mod") && $2 == m { print $3; exit }'
}

if [[ -x $bin ]]; then
	have=$(built_version "$bin")
	if [[ $have == "$version" ]]; then
		log "reusing $bin ($version)"
		printf '%s\n' "$bin"
		exit 0
	fi
	if [[ -n ${OFFATTR_OLLAMA_BIN:-} ]]; then
		log "warning: $bin is not a build of $module $version (found '${have:-unknown}'); using it as given"
		printf '%s\n' "$bin"
		exit 0
	fi
	log "$bin was built from '${have:-unknown}', rebuilding for $version"
fi

# Build dependencies. The module zip has no vendor/ folders, so the headers
# llama.cpp vendors come from Debian instead: nlohmann/json.hpp (JSON schema
# to grammar, used for structured outputs) and stb/stb_image.h (image input).
# miniaudio is not packaged; .ci/include/miniaudio/miniaudio.h stands in for
# it (see the comment there).
packages=(g++ nlohmann-json3-dev libstb-dev)
missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
if ((${#missing[@]} > 0)); then
	sudo=()
	if ((EUID != 0)); then
		sudo=(sudo)
	fi
	log "installing ${missing[*]}"
	"${sudo[@]}" apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

mkdir -p "$(dirname "$bin")"
tmp=$(mktemp "$bin.XXXXXX")
trap 'rm -f "$tmp"' EXIT

log "building $module $version into $bin (cold: several minutes)"
start=$SECONDS
# The -X sets the version the server reports on /api/version; without it a
# source build reports 0.0.0.
(cd "$serverdir" && CGO_ENABLED=1 \
	CGO_CPPFLAGS="${CGO_CPPFLAGS:-} -I$root/.ci/include" \
	go build -trimpath \
	-ldflags "-s -w -X $module/version.Version=${version#v}" \
	-o "$tmp" "$module")
mv -f "$tmp" "$bin"
trap - EXIT
log "built $bin in $((SECONDS - start))s"
printf '%s\n' "$bin"
