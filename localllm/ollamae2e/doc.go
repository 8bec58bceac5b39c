// Package ollamae2e runs offattr against a real Ollama server: it builds or
// reuses the server binary (.ci/ollama.sh), starts it on a free loopback port
// with its own models directory, and loads the tiny generated model from
// package tinymodel into it.
//
// Everything here but this comment is behind the build tag ollama_e2e, so
// ordinary builds and `go test ./...` neither compile it nor start servers:
//
//	bash .ci/ollama-e2e.sh
//	go test -tags ollama_e2e -run E2E -count=1 -timeout 30m ./localllm/ollamae2e/
//
// It is test infrastructure and must stay out of the offattr binary's
// import graph.
package ollamae2e
