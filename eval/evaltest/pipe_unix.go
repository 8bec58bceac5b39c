//go:build unix

package evaltest

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// WriteCasesWithPipe is WriteCases with a named pipe among subset A's
// case files, under a case file's name (A/3.json); it returns the
// directory and the pipe's path.
func WriteCasesWithPipe(t *testing.T) (dir, pipe string) {
	t.Helper()
	dir = WriteCases(t)
	pipe = filepath.Join(dir, "A", "3.json")
	require.NoError(t, syscall.Mkfifo(pipe, 0o644))
	return dir, pipe
}
