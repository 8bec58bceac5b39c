package run

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bomb returns a gzip stream that decompresses to n zero bytes after a
// JSON array's opening; with liar, a second member of a few bytes follows,
// so that the stream's trailer tells only that member's size (as a
// crafted bomb may, to look small).
func bomb(tb testing.TB, n int64, liar bool) []byte {
	tb.Helper()
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.BestSpeed)
	require.NoError(tb, err)
	_, err = w.Write([]byte("["))
	require.NoError(tb, err)
	_, err = io.CopyN(w, zeros{}, n)
	require.NoError(tb, err)
	require.NoError(tb, w.Close())
	if liar {
		w = gzip.NewWriter(&z)
		_, err = w.Write([]byte("]"))
		require.NoError(tb, err)
		require.NoError(tb, w.Close())
	}
	return z.Bytes()
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// allocated returns the bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestGzipBombBounded: a gzip stream that decompresses past the limit is
// refused with an error naming the file, allocating no more than about
// the limit once (not the copies a growing buffer leaves behind), and
// nothing of what it decompresses to when its trailer already tells that
// it is too large; from standard input too.
func TestGzipBombBounded(t *testing.T) {
	const limit = 8 << 20
	dir := t.TempDir()
	tests := []struct {
		name    string
		liar    bool
		stdin   bool
		atMost  uint64
		because string
	}{
		{"trailer tells", false, false, 1 << 20, "the trailer's size is over the limit: refused before decompressing"},
		{"trailer lies", true, false, limit + limit/8, "read up to the limit once"},
		{"stdin", false, true, limit + limit/8, "no trailer to read: up to the limit once"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			z := bomb(t, 4*limit, tt.liar)
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json.gz")
			require.NoError(t, os.WriteFile(path, z, 0o644))
			var err error
			n := allocated(func() {
				if tt.stdin {
					_, err = Load(Stdin, Options{MaxInput: limit, Stdin: bytes.NewReader(z)})
				} else {
					_, err = Load(path, Options{MaxInput: limit})
				}
			})
			require.ErrorIs(t, err, ErrTooLarge)
			if !tt.stdin {
				assert.True(t, strings.HasPrefix(err.Error(), "load "+path+": "), err.Error())
			}
			assert.Contains(t, err.Error(), "--max-input")
			assert.LessOrEqual(t, n, tt.atMost, tt.because)
		})
	}
}

// TestGzipWithinLimit: a compressed run within the limit, of one member
// or several (whose last trailer tells only the last one's size), reads
// whole, from a file and from standard input, at exactly the limit too.
func TestGzipWithinLimit(t *testing.T) {
	dir := t.TempDir()
	for _, liar := range []bool{false, true} {
		z := bomb(t, 3<<20, liar)
		path := filepath.Join(dir, "run.json.gz")
		require.NoError(t, os.WriteFile(path, z, 0o644))
		zr, err := gzip.NewReader(bytes.NewReader(z))
		require.NoError(t, err)
		want, err := io.ReadAll(zr)
		require.NoError(t, err)
		size := int64(len(want))
		for _, stdin := range []bool{false, true} {
			opts := Options{MaxInput: size}
			if stdin {
				opts.Stdin = bytes.NewReader(z)
			}
			in := path
			if stdin {
				in = Stdin
			}
			got, err := read(in, opts)
			require.NoError(t, err, "liar %v stdin %v", liar, stdin)
			assert.True(t, bytes.Equal(want, got), "liar %v stdin %v", liar, stdin)
			opts.MaxInput = size - 1
			if stdin {
				opts.Stdin = bytes.NewReader(z)
			}
			_, err = read(in, opts)
			assert.ErrorIs(t, err, ErrTooLarge, "liar %v stdin %v", liar, stdin)
		}
	}
}

// BenchmarkGzipBomb reads a gzip bomb at the default limit: B/op is what
// refusing it costs in memory.
func BenchmarkGzipBomb(b *testing.B) {
	dir := b.TempDir()
	for _, liar := range []bool{false, true} {
		name := "trailer-tells"
		if liar {
			name = "trailer-lies"
		}
		path := filepath.Join(dir, name+".json.gz")
		require.NoError(b, os.WriteFile(path, bomb(b, DefaultMaxInput+DefaultMaxInput/8, liar), 0o644))
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Load(path, Options{MaxInput: DefaultMaxInput}); err == nil {
					b.Fatal("a bomb was read")
				}
			}
		})
	}
}
