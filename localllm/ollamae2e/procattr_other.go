//go:build ollama_e2e && !linux

package ollamae2e

import "syscall"

// serverProcAttr puts the server in its own process group, so stopping the
// group also stops the runner subprocess it starts for the model. Only Linux
// can also tie the server's life to the test binary's (Pdeathsig); elsewhere
// a test binary killed by go test's -timeout leaves the server running.
func serverProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
