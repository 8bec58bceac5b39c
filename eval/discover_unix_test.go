//go:build unix

package eval

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/eval/evaltest"
)

// TestPipesAmongCasesAreFailedCases: a named pipe among the case files,
// under a case file's name or linked to under one, is a failed case,
// neither read (the evaluation would wait for a writer for ever) nor
// dropped without a word; one under another name is no case.
func TestPipesAmongCasesAreFailedCases(t *testing.T) {
	dir, pipe := evaltest.WriteCasesWithPipe(t)
	link := filepath.Join(dir, "A", "4.json")
	top := filepath.Join(dir, "5.json")
	require.NoError(t, os.Symlink("3.json", link))
	require.NoError(t, syscall.Mkfifo(top, 0o644))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "A", "notes"), 0o644))

	subsets, err := Discover([]string{dir})
	require.NoError(t, err)
	require.Len(t, subsets, 3)
	for _, s := range subsets {
		for _, u := range s.Unread {
			assert.ErrorIs(t, u.Err, ErrNotRegular)
		}
	}
	assert.Equal(t, filepath.Base(dir), subsets[0].Name)
	assertUnreadFailed(t, subsets, map[string]int{filepath.Base(dir): 1, "A": 5, "B": 2}, 1, pipe, link, top)
}

// TestUnreadableSubdirectoryIsAFailedCase is
// TestUnlistableSubdirectoryIsAFailedCase with the mode bits, which bite
// only when not running as root.
func TestUnreadableSubdirectoryIsAFailedCase(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, a directory's mode bits do not stop its listing; TestUnlistableSubdirectoryIsAFailedCase covers it")
	}
	dir := evaltest.WriteCases(t)
	locked := filepath.Join(dir, "B")
	require.NoError(t, os.Chmod(locked, 0))
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	subsets, err := Discover([]string{dir})
	require.NoError(t, err)
	assertUnreadFailed(t, subsets, map[string]int{"A": 3, "B": 1}, 0, locked)
}

// TestUnreadablePathIsAFailedCase is TestUnlistablePathIsAFailedCase with
// the mode bits, which bite only when not running as root.
func TestUnreadablePathIsAFailedCase(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, a directory's mode bits do not stop its listing; TestUnlistablePathIsAFailedCase covers it")
	}
	dir := evaltest.WriteCases(t)
	locked := t.TempDir()
	require.NoError(t, os.Chmod(locked, 0))
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	subsets, err := Discover([]string{locked, dir})
	require.NoError(t, err)
	assertUnreadFailed(t, subsets, map[string]int{filepath.Base(locked): 1, "A": 3, "B": 2}, 1, locked)
}
