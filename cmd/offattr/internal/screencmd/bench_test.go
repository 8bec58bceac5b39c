package screencmd

import (
	"context"
	"encoding/json"
	"io"
	"os"
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
// merely reading the input.
//
//	go test ./cmd/offattr/internal/screencmd -run '^$' -bench ScreenVsDecode -benchtime 5x
func BenchmarkScreenVsDecode(b *testing.B) {
	files := runtest.AllFiles(b)
	var decode, screen time.Duration
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
		decode += time.Since(start)

		opts := &ScreenOptions{
			IO:   &cmdutil.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard},
			Load: cmdutil.LoadFlags{Format: "auto"}, Paths: files, Workers: 2, Candidates: 3,
			Analyzer: func(p *redact.Patterns) (engine.Analyzer, error) { return engine.New(engine.Options{Redact: p}) },
		}
		start = time.Now()
		if err := screenRun(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
		screen += time.Since(start)
	}
	b.ReportMetric(decode.Seconds()/float64(b.N), "decode-s/op")
	b.ReportMetric(screen.Seconds()/float64(b.N), "screen-s/op")
	b.ReportMetric(screen.Seconds()/decode.Seconds(), "screen/decode")
}
