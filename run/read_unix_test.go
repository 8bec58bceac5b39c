//go:build unix

package run

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIsRunFileAtSkipsPipes: a named pipe or a device in a directory of
// runs is no run, whatever its name: it is not taken to be read, which
// would wait for a writer (a pipe) or read without end (/dev/zero). A
// regular file by the same names is one, and a link to nothing is kept for
// the walk to report.
func TestIsRunFileAtSkipsPipes(t *testing.T) {
	dir := t.TempDir()
	pipe := func(name string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, syscall.Mkfifo(p, 0o600))
		return p
	}
	link := func(name, to string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.Symlink(to, p))
		return p
	}
	regular := filepath.Join(dir, "run.json")
	require.NoError(t, os.WriteFile(regular, []byte(`{"history": []}`), 0o600))
	for _, tc := range []struct {
		path string
		want bool
	}{
		{pipe("pipe"), false},
		{pipe("pipe.json"), false},
		{pipe("pipe.jsonl.gz"), false},
		{link("zero.json", "/dev/zero"), false},
		{regular, true},
		{link("to-run.json", regular), true},
		{link("dangling.json", filepath.Join(dir, "nothing")), true},
	} {
		assert.Equal(t, tc.want, IsRunFileAt(tc.path), filepath.Base(tc.path))
	}
}
