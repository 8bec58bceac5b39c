package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A command stopped by SIGTERM exits 143 and by SIGINT 130, as a shell
// reports a process those signals ended.
func TestSignalExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses a 48,000-step run")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no signals to send on Windows")
	}
	long := filepath.Join(t.TempDir(), "long.json")
	longRun(t, long, 48000)
	for _, tt := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			cmd := offattr("analyze", long)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			require.NoError(t, cmd.Start())
			time.Sleep(500 * time.Millisecond) // a real process: into the work, which takes seconds
			require.NoError(t, cmd.Process.Signal(tt.sig))
			err := cmd.Wait()
			assert.Equal(t, tt.want, exitCode(t, err), "stderr: %s", stderr.String())
			assert.Empty(t, stdout.String())
		})
	}
}

func TestExitCodeOf(t *testing.T) {
	assert.Equal(t, 143, exitCodeOf(signalled{syscall.SIGTERM}))
	assert.Equal(t, 130, exitCodeOf(signalled{os.Interrupt}))
	assert.Equal(t, 130, exitCodeOf(nil), "cancelled for no signal")
}
