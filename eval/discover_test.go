package eval

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/eval/evaltest"
)

// TestUnlistableSubdirectoryIsAFailedCase: a subdirectory of a corpus that
// cannot be listed is reported and counted as a failed case, and the other
// subsets are evaluated, not the whole evaluation given up. Running as
// root, no mode bits make a directory unlistable, so the listing fails here
// by hand (discover_unix_test.go does it with the mode bits).
func TestUnlistableSubdirectoryIsAFailedCase(t *testing.T) {
	dir := evaltest.WriteCases(t)
	locked := filepath.Join(dir, "B")
	readDir := func(name string) ([]os.DirEntry, error) {
		if name == locked {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
		}
		return os.ReadDir(name)
	}
	subsets, err := discover([]string{dir}, readDir)
	require.NoError(t, err)
	require.Len(t, subsets, 2)
	assert.Equal(t, "B", subsets[1].Name)
	assert.Empty(t, subsets[1].Files)
	require.Len(t, subsets[1].Unread, 1)
	assert.Equal(t, locked, subsets[1].Unread[0].Path)
	assert.ErrorIs(t, subsets[1].Unread[0].Err, fs.ErrPermission)

	assertUnreadFailed(t, subsets, map[string]int{"A": 3, "B": 1}, 0, locked)
}

// assertUnreadFailed evaluates subsets, whose cases per subset are want,
// broken of them failing to load, and holds each of unread to a failed
// case besides: warned of by its name, counted as failed, and recorded in
// the cases file with its error.
func assertUnreadFailed(t *testing.T, subsets []Subset, want map[string]int, broken int, unread ...string) {
	t.Helper()
	var cases, warn bytes.Buffer
	rep, err := Evaluate(context.Background(), subsets, (&fixed{}).analyze, Options{Cases: &cases, Warn: &warn})
	require.NoError(t, err)
	got := map[string]int{}
	for _, s := range rep.Subsets {
		got[s.Name] = s.Cases
	}
	assert.Equal(t, want, got)
	assert.Equal(t, broken+len(unread), rep.Overall.Failed)
	for _, u := range unread {
		assert.Contains(t, warn.String(), "offattr: eval "+u+": ")
		assert.Contains(t, cases.String(), `"file":"`+u+`"`)
	}
	assert.Equal(t, rep.Overall.Cases, strings.Count(cases.String(), "\n"))
}

// TestUnlistablePathIsAFailedCase: a directory named on the command line
// that cannot be listed is a failed case of a subset of its name, as a
// subdirectory is, and the other paths are evaluated; a path that does not
// exist is still an error of the command line.
func TestUnlistablePathIsAFailedCase(t *testing.T) {
	dir := evaltest.WriteCases(t)
	locked := t.TempDir()
	readDir := func(name string) ([]os.DirEntry, error) {
		if name == locked {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
		}
		return os.ReadDir(name)
	}
	subsets, err := discover([]string{locked, dir}, readDir)
	require.NoError(t, err)
	require.Len(t, subsets, 3)
	assert.Equal(t, filepath.Base(locked), subsets[0].Name)
	assert.Empty(t, subsets[0].Files)
	require.Len(t, subsets[0].Unread, 1)
	assert.Equal(t, locked, subsets[0].Unread[0].Path)
	assert.ErrorIs(t, subsets[0].Unread[0].Err, fs.ErrPermission)
	assertUnreadFailed(t, subsets, map[string]int{filepath.Base(locked): 1, "A": 3, "B": 2}, 1, locked)

	missing := filepath.Join(dir, "gone")
	_, err = discover([]string{dir, missing}, readDir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), missing)
}
