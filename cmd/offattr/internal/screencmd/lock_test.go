package screencmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/screenfile"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/run"
)

func TestSecondWriterStops(t *testing.T) {
	dir := corpus(t, 3)
	outPath := filepath.Join(t.TempDir(), "screen.jsonl")
	held, err := lockOutput(outPath)
	require.NoError(t, err)

	opts, _, _ := newOpts(&spy{}, dir)
	opts.Output, opts.Resume = outPath, true
	err = screenRun(context.Background(), opts)
	require.ErrorIs(t, err, ErrLocked)
	assert.ErrorContains(t, err, fmt.Sprintf("%s is being written by another offattr screen (process %d", outPath, os.Getpid()))
	_, statErr := os.Stat(outPath)
	assert.ErrorIs(t, statErr, os.ErrNotExist, "the second writer touched nothing")

	require.NoError(t, held.release())
	_, err = os.Stat(lockPath(outPath))
	assert.ErrorIs(t, err, os.ErrNotExist, "a released lock leaves no file behind")
	opts, _, _ = newOpts(&spy{}, dir)
	opts.Output = outPath
	assert.ErrorIs(t, screenRun(context.Background(), opts), cmdutil.ErrInputsFailed, "once released, a screen runs (broken.json fails)")
}

func TestStaleLockFileIsTakenOver(t *testing.T) {
	outPath := filepath.Join(t.TempDir(), "screen.jsonl")
	// A screen killed with -9 leaves its lock file, not its lock.
	require.NoError(t, os.WriteFile(lockPath(outPath), []byte("999999999\n"), 0o644))
	l, err := lockOutput(outPath)
	require.NoError(t, err)
	require.NoError(t, l.release())
}

// gated is spy's analyzer held at a gate until the test opens it.
func gated(sp *spy, gate <-chan struct{}) cmdutil.AnalyzerFunc {
	return func(p *redact.Patterns) (engine.AnalyzeFunc, error) {
		a, err := sp.analyzer(p)
		return func(ctx context.Context, r *run.Run) (engine.Result, error) {
			<-gate
			return a(ctx, r)
		}, err
	}
}

// TestConcurrentScreensWriteEachRecordOnce starts two screens of one
// corpus into one file at once, as two --resume in two terminals would.
// Their analyses wait at a gate, so the one that got the lock cannot
// finish before the other has tried: the other must stop, and only then
// does the gate open. The file then holds every input once.
func TestConcurrentScreensWriteEachRecordOnce(t *testing.T) {
	dir := corpus(t, 40)
	outPath := filepath.Join(t.TempDir(), "screen.jsonl")
	gate := make(chan struct{})
	results := make(chan error, 2)
	for range 2 {
		go func() {
			opts, _, _ := newOpts(&spy{}, dir)
			opts.Analyzer = gated(&spy{}, gate)
			opts.Output, opts.Resume, opts.Workers = outPath, true, 2
			results <- screenRun(context.Background(), opts)
		}()
	}
	select {
	case err := <-results:
		require.ErrorIs(t, err, ErrLocked, "the first to return is the one that did not get the lock")
	case <-time.After(2 * time.Minute): // a guard against a hang only
		close(gate)
		t.Fatal("neither screen stopped: both hold the output")
	}
	close(gate)
	assert.ErrorIs(t, <-results, cmdutil.ErrInputsFailed, "the writer finishes (broken.json fails)")

	data, err := os.ReadFile(outPath)
	require.NoError(t, err)
	seen := map[string]int{}
	for _, r := range parseRecords(t, data, screenfile.JSONL) {
		seen[filepath.Base(r.File)]++
	}
	assert.Len(t, seen, 41, "every input")
	for f, n := range seen {
		assert.Equal(t, 1, n, "%s recorded %d times", f, n)
	}
}

// TestLockIsNeverALink: a lock file that is a link (to a file it would
// truncate) or not a regular file is refused, the target untouched.
func TestLockIsNeverALink(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(dir, "precious.txt")
	require.NoError(t, os.WriteFile(precious, []byte("keep me"), 0o644))
	out := filepath.Join(dir, "screen.jsonl")
	require.NoError(t, os.Symlink(precious, lockPath(out)))
	_, err := lockOutput(out)
	require.Error(t, err)
	data, err := os.ReadFile(precious)
	require.NoError(t, err)
	assert.Equal(t, "keep me", string(data))

	other := filepath.Join(dir, "other.jsonl")
	require.NoError(t, os.Mkdir(lockPath(other), 0o755))
	_, err = lockOutput(other)
	assert.Error(t, err)
}
