package engine_test

import (
	"context"
	"encoding/json"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// TestSameAnswerUnderLoad analyses a sample of every labelled system's
// runs twice, once on a quiet process and once while busy goroutines hold
// every core: each answer, byte for byte, must be the same. Nothing a run
// reads may depend on a clock.
func TestSameAnswerUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses labelled runs twice, under load")
	}
	var files []string
	for i, f := range runtest.SystemFiles(t) {
		if i%4 == 0 {
			files = append(files, f)
		}
	}
	analyze, err := engine.New(engine.Options{})
	require.NoError(t, err)
	answers := func() []string {
		var out []string
		for _, f := range files {
			r, err := run.Load(f, run.Options{})
			require.NoError(t, err)
			res, err := analyze(context.Background(), r)
			require.NoError(t, err)
			b, err := json.Marshal(res.Attribution)
			require.NoError(t, err)
			out = append(out, string(b))
		}
		return out
	}
	quiet := answers()

	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 2 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			x := 0
			for !stop.Load() {
				for i := range 1 << 16 {
					x ^= i * i
				}
				_ = make([]byte, 1<<12) // and keep the collector busy
			}
			_ = x
		})
	}
	busy := answers()
	stop.Store(true)
	wg.Wait()
	for i := range files {
		require.Equal(t, quiet[i], busy[i], files[i])
	}
}
