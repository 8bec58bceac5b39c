package fit

import (
	"context"
	"fmt"
	"testing"

	"github.com/offattr/offattr/run/runtest"
)

// BenchmarkFit200 fits 200 labelled runs, the scale the fit promises to
// handle in well under 30 s: the 116 runs of both corpora, and as many
// again under other names until there are 200 (names set the inner
// folds, so the copies land in other folds). Loading and reading the runs
// are not timed; the fit is, with the out-of-fold predictions it makes
// for the critical share, the calibration and the bands.
//
//	go test ./fit -run '^$' -bench Fit200 -benchtime 3x
func BenchmarkFit200(b *testing.B) {
	exs := append(load(b, runtest.DevDir(b)), load(b, runtest.TauDir(b))...)
	for i := 0; len(exs) < 200; i++ {
		ex := exs[i]
		ex.Name = fmt.Sprintf("%s#copy%d", ex.Name, i)
		exs = append(exs, ex)
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := Fit(ctx, exs, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
