package cmdutil

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/redact"
)

func TestRunName(t *testing.T) {
	patterns, err := redact.Compile(redact.Options{})
	require.NoError(t, err)
	tests := []struct {
		path, prefix string
		redacted     bool
	}{
		{"runs/1.json", "1-", false},
		{"weird name?.json", "weird_name-", false},
		{"..json", "run-", false},
		{`"><script>alert(1)</script>.json`, "script-", false}, // the last / starts the base name
		{"runs/frank.green@woodgrove.com.json", "frank.green_woodgrove.com-", false},
		{"runs/frank.green@woodgrove.com.json", "EMAIL_1-", true},
		{"runs/sk-proj-aBcDeFgHiJkLmNoPqRsTuVwX1234.json#4bf92f3577b34da6a3ce929d0e0e4736", "API_KEY_1-", true},
	}
	safe := regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			p := patterns
			if !tt.redacted {
				p = nil
			}
			got := RunName(tt.path, p)
			assert.Regexp(t, "^"+regexp.QuoteMeta(tt.prefix)+"[0-9a-f]{8}$", got)
			assert.Regexp(t, safe, got)
		})
	}
	assert.NotEqual(t, RunName("runs/1.json", nil), RunName("other/1.json", nil), "the hash tells runs of one base name apart")
	assert.NotEqual(t, RunName("runs/a@woodgrove.com.json", patterns), RunName("runs/b@woodgrove.com.json", patterns),
		"runs whose names mask alike are told apart")
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.html")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	require.NoError(t, WriteFileAtomic(path, []byte("new")))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "new", string(data))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left")
	assert.ErrorContains(t, WriteFileAtomic(filepath.Join(dir, "missing", "x"), nil), "write "+filepath.Join(dir, "missing", "x"))
}

// A file replaced keeps its permissions: a page made private stays so.
func TestWriteFileAtomicKeepsTheMode(t *testing.T) {
	for _, mode := range []os.FileMode{0o600, 0o644, 0o444, 0o640} {
		t.Run(mode.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.html")
			require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
			require.NoError(t, os.Chmod(path, mode))
			require.NoError(t, WriteFileAtomic(path, []byte("new")))
			fi, err := os.Stat(path)
			require.NoError(t, err)
			assert.Equal(t, mode, fi.Mode().Perm())
		})
	}
}

func TestWriteFileAtomicReplacesOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.html")
	require.NoError(t, os.WriteFile(plain, []byte("old"), 0o644))
	link := filepath.Join(dir, "link.html")
	require.NoError(t, os.Symlink(plain, link))

	require.NoError(t, WriteFileAtomic(filepath.Join(dir, "new.html"), []byte("new")))
	require.NoError(t, WriteFileAtomic(link, []byte("through the link")))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the link is kept")
	data, err := os.ReadFile(plain)
	require.NoError(t, err)
	assert.Equal(t, "through the link", string(data), "the file it points to is replaced")

	for _, bad := range []string{"/dev/null", dir} {
		err := WriteFileAtomic(bad, []byte("x"))
		assert.ErrorIs(t, err, ErrNotRegular, bad)
	}
	dangling := filepath.Join(dir, "dangling")
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), dangling))
	assert.ErrorContains(t, WriteFileAtomic(dangling, []byte("x")), "a link to a path that does not exist")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotContains(t, e.Name(), ".tmp-", "no temporary file left behind")
	}
}

// A new path is writable only where its directory is: a command that
// works for minutes says so before it starts, not after.
func TestCheckOutputNeedsTheDirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	var s *IOStreams
	assert.NoError(t, s.CheckOutput(filepath.Join(dir, "new.json")))
	assert.NoError(t, s.CheckOutput("new.json"), "the working directory")
	assert.EqualError(t, s.CheckOutput(filepath.Join(dir, "missing", "w.json")),
		"write "+filepath.Join(dir, "missing", "w.json")+": its directory "+filepath.Join(dir, "missing")+" does not exist")
	assert.EqualError(t, s.CheckOutput(filepath.Join(file, "w.json")),
		"write "+filepath.Join(file, "w.json")+": its directory "+file+" is a regular file")
}

// A file offattr names itself in a directory the user gave (a bundle, a
// page) is never written through a link there: the user named no file
// behind it, and the link may point anywhere.
func TestWriteOwnFileRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(dir, "precious.txt")
	require.NoError(t, os.WriteFile(precious, []byte("precious"), 0o644))
	out := filepath.Join(dir, "bundles")
	require.NoError(t, os.Mkdir(out, 0o755))
	link := filepath.Join(out, "run-0123abcd.json")
	require.NoError(t, os.Symlink(precious, link))

	err := WriteOwnFile(link, []byte("bundle"))
	assert.ErrorIs(t, err, ErrNotRegular)
	assert.ErrorContains(t, err, "a link")
	data, err := os.ReadFile(precious)
	require.NoError(t, err)
	assert.Equal(t, "precious", string(data), "the file behind the link is untouched")

	plain := filepath.Join(out, "run-4567cdef.json")
	require.NoError(t, WriteOwnFile(plain, []byte("old")))
	require.NoError(t, WriteOwnFile(plain, []byte("bundle")), "a regular file is replaced")
	data, err = os.ReadFile(plain)
	require.NoError(t, err)
	assert.Equal(t, "bundle", string(data))
}

// An exit forced by a signal removes what AtomicFiles were writing, and
// only that: a committed file stays.
func TestRemovePendingLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	done, err := CreateAtomic(filepath.Join(dir, "done.json"))
	require.NoError(t, err)
	require.NoError(t, done.Commit())
	half, err := CreateAtomic(filepath.Join(dir, "half.json"))
	require.NoError(t, err)
	_, err = half.WriteString(`{"half":`)
	require.NoError(t, err)
	RemovePending()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"done.json"}, names)
	half.Close()
}
