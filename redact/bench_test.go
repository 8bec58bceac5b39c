package redact

import (
	"testing"

	"github.com/offattr/offattr/run/runtest"
)

// BenchmarkRun redacts the Who&When development half when it is beside
// the repository (../shared), reporting runs and megabytes per second.
func BenchmarkRun(b *testing.B) {
	runs := runtest.DevRuns(b)
	size := 0
	for _, r := range runs {
		for _, t := range runTexts(r) {
			size += len(*t)
		}
	}
	p, err := Compile(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, r := range runs {
			p.NewRedactor().Run(r)
		}
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N*len(runs))/secs, "runs/s")
	b.ReportMetric(float64(b.N*size)/secs/1e6, "MB/s")
}
