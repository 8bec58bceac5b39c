//go:build unix

package screencmd

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWalkRecordsPipesUnread holds a named pipe that a directory or a glob
// holds under a run's name to a failed input, neither read (opening it
// waits for a writer for ever, and the screen with it) nor dropped.
func TestWalkRecordsPipesUnread(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "1.json"), []byte(runJSON("A", 0.9, "")), 0o644))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "2.json"), 0o644))
	require.NoError(t, os.Symlink("2.json", filepath.Join(dir, "3.json")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "notes"), 0o644))
	for _, arg := range []string{dir, filepath.Join(dir, "*.json")} {
		t.Run(filepath.Base(arg), func(t *testing.T) {
			var read, failed []string
			for _, in := range expandPath(arg) {
				if in.err != nil {
					assert.ErrorIs(t, in.err, errNotRegular)
					failed = append(failed, filepath.Base(in.name))
					continue
				}
				read = append(read, filepath.Base(in.name))
			}
			assert.Equal(t, []string{"1.json"}, read)
			assert.ElementsMatch(t, []string{"2.json", "3.json"}, failed, "a pipe under a run's name is recorded; one under another name is no run")
		})
	}
}
