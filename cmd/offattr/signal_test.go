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
	data, err := os.ReadFile(long)
	require.NoError(t, err)
	for _, tt := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			cmd := offattr("analyze", "-")
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			in, err := cmd.StdinPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			// Only a guard against a child that never ends: the test
			// waits on the child's progress, not on the clock.
			guard := time.AfterFunc(5*time.Minute, func() { _ = cmd.Process.Kill() })
			defer guard.Stop()
			// The child reads its input after its signal handler is in
			// place. A pipe holds a few pages, so once the whole run is
			// written the child has read nearly all of it, and what is
			// left (the end of reading, parsing, analysing 48,000 steps)
			// is the work the signal must stop.
			if _, err := in.Write(data); err != nil {
				_ = cmd.Wait() // stderr is whole once the child is waited for
				t.Fatalf("the child stopped reading its input: %v; stderr: %s", err, stderr.String())
			}
			require.NoError(t, in.Close())
			require.NoError(t, cmd.Process.Signal(tt.sig))
			err = cmd.Wait()
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
