package screencmd

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/run/runtest"
)

// BenchmarkScreenVsDecode measures, side by side in one run, a rules-only
// screen of both labelled corpora with two workers and a plain JSON decode
// of the same files, and reports the ratio: what attribution costs over
// merely reading the input. Each is the median of its rounds, and so is
// the ratio: on a shared machine one slow round would move a mean.
//
//	go test ./cmd/offattr/internal/screencmd -run '^$' -bench ScreenVsDecode -benchtime 10x
func BenchmarkScreenVsDecode(b *testing.B) {
	files := runtest.AllFiles(b)
	var decode, screen, ratio []float64
	for b.Loop() {
		start := time.Now()
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}
		d := time.Since(start).Seconds()

		opts := &ScreenOptions{
			IO:    &cmdutil.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard},
			Paths: files, Workers: 2, Candidates: 3,
			Analysis: cmdutil.Analysis{Load: cmdutil.LoadFlags{Format: "auto"},
				Analyzer: func(p *redact.Patterns) (engine.AnalyzeFunc, error) { return engine.New(engine.Options{Redact: p}) }},
		}
		start = time.Now()
		if err := screenRun(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
		sc := time.Since(start).Seconds()
		decode, screen, ratio = append(decode, d), append(screen, sc), append(ratio, sc/d)
	}
	b.ReportMetric(median(decode), "decode-s/op")
	b.ReportMetric(median(screen), "screen-s/op")
	b.ReportMetric(median(ratio), "screen/decode")
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}
