package redact

import (
	"path/filepath"
	"testing"

	"github.com/offattr/offattr/run"
)

// BenchmarkRun redacts the Who&When development half when it is beside
// the repository (../shared), reporting runs and megabytes per second.
func BenchmarkRun(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "shared", "whowhen", "dev", "*", "*.json"))
	if len(paths) == 0 {
		b.Skip("no ../shared/whowhen/dev")
	}
	var runs []*run.Run
	size := 0
	for _, p := range paths {
		r, err := run.Load(p, run.Options{})
		if err != nil {
			continue
		}
		for _, t := range runTexts(r) {
			size += len(*t)
		}
		runs = append(runs, r)
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
