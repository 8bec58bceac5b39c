//go:build ollama_e2e

package ollamae2e

import "syscall"

// serverProcAttr puts the server in its own process group, so stopping the
// group also stops the runner subprocess it starts for the model. Pdeathsig
// stops it even when the test binary dies without running its cleanups (as
// when go test's -timeout panics), which would otherwise leave a server
// running.
func serverProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
