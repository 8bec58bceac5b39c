package run_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/internal/ctxtest"
	"github.com/offattr/offattr/run"
)

// chainFile writes n spans each the child of the last, every other one a
// model call, as a flat span list.
func chainFile(tb testing.TB, n int) string {
	tb.Helper()
	var b strings.Builder
	for i := range n {
		attrs := `{"openinference.span.kind":"CHAIN"}`
		if i%2 == 1 {
			attrs = fmt.Sprintf(`{"openinference.span.kind":"LLM","output.value":"step %d"}`, i)
		}
		parent := ""
		if i > 0 {
			parent = fmt.Sprintf("s%d", i-1)
		}
		fmt.Fprintf(&b, `{"name":"s%d","context":{"trace_id":"t1","span_id":"s%d"},"parent_id":%q,"start_time":%d,"end_time":%d,"attributes":%s}`+"\n",
			i, i, parent, 1e18+int64(i)*1000, 1e18+int64(i)*1000+500, attrs)
	}
	path := filepath.Join(tb.TempDir(), "chain.jsonl")
	require.NoError(tb, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// counting is a context that counts the calls of Err.
type counting struct {
	context.Context
	n atomic.Int64
}

func (c *counting) Err() error { c.n.Add(1); return nil }

// TestDeepChainStops: a trace whose spans are each the child of the last
// is read whole, and stops when cancelled at any point, the building of
// its tree included (the last checks of the context are made there).
func TestDeepChainStops(t *testing.T) {
	const n = 10000
	path := chainFile(t, n)
	ctx := &counting{Context: context.Background()}
	cases, err := run.LoadAll(ctx, path, run.Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	assert.Len(t, cases[0].Run.Steps, n/2)
	calls := int(ctx.n.Load())
	require.Greater(t, calls, n, "the context is looked at while the spans are read and while the tree is built")
	for _, at := range []int{1, n / 2, calls - 3, calls - 1, calls} {
		_, err := run.LoadAll(ctxtest.After(at), path, run.Options{})
		assert.ErrorIs(t, err, context.Canceled, "cancelled at check %d of %d", at, calls)
	}
}

// TestParentLoopDeep: a loop closing far from where it is entered is cut
// once, and every span still makes its step.
func TestParentLoopDeep(t *testing.T) {
	const n = 5000
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"name":"s%d","context":{"trace_id":"t1","span_id":"s%d"},"parent_id":"s%d","start_time":%d,"attributes":{"openinference.span.kind":"LLM","output.value":"step %d"}}`+"\n",
			i, i, (i+1)%n, 1e18+int64(i), i)
	}
	path := filepath.Join(t.TempDir(), "loop.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	r, err := run.Load(path, run.Options{})
	require.NoError(t, err)
	assert.Len(t, r.Steps, n)
}

// BenchmarkLoadChain reads a trace of 100,000 spans each the child of the
// last: every walk over the tree must stay linear in its depth.
func BenchmarkLoadChain(b *testing.B) {
	path := chainFile(b, 100000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := run.LoadAll(context.Background(), path, run.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(100000*float64(b.N)/b.Elapsed().Seconds(), "spans/s")
}
