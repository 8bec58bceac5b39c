package run_test

import (
	"context"
	"testing"

	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// BenchmarkLoadCorpora reads every labelled case of both corpora, as a
// screen of them does before any stage runs: reading the files, decoding
// the JSON and turning messages into steps.
func BenchmarkLoadCorpora(b *testing.B) {
	files := runtest.AllFiles(b)
	var steps int
	for b.Loop() {
		steps = 0
		for _, f := range files {
			cases, err := run.LoadAll(context.Background(), f, run.Options{})
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range cases {
				steps += len(c.Run.Steps)
			}
		}
	}
	b.ReportMetric(float64(len(files)), "runs")
	b.ReportMetric(float64(steps), "steps")
}
