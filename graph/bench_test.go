package graph

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run/runtest"
)

// BenchmarkBuild builds graphs of synthetic runs of growing length; cost
// should grow near-linearly (compare ns/op per step across sizes).
//
//	go test ./graph/ -run '^$' -bench BenchmarkBuild -benchtime 5x -count 5
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{100, 1_000, 10_000} {
		r, f := synthRun(n, 1)
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			var g *Graph
			for b.Loop() {
				var err error
				if g, err = Build(r, f); err != nil {
					b.Fatal(err)
				}
			}
			c := g.Counts()
			total := 0
			for _, k := range c {
				total += k
			}
			b.ReportMetric(float64(total), "edges")
			b.ReportMetric(float64(c[Data]), "data-edges")
			b.ReportMetric(float64(c[Loop]), "loop-edges")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/step")
		})
	}
}

// BenchmarkBuildDev builds the graph of every run of both labelled corpora,
// with their features extracted beforehand: the share of a screen that the
// graph costs, on real text.
//
//	go test ./graph/ -run '^$' -bench BenchmarkBuildDev -benchtime 10x -count 5
func BenchmarkBuildDev(b *testing.B) {
	cases := runtest.Cases(b, runtest.AllFiles(b))
	feats := make([]*extract.RunFeatures, len(cases))
	for i, c := range cases {
		feats[i] = extract.Run(c.Run)
	}
	for b.Loop() {
		for i, c := range cases {
			if _, err := Build(c.Run, feats[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func TestSynthRunIsDeterministicAndRealistic(t *testing.T) {
	r1, f1 := synthRun(300, 7)
	r2, f2 := synthRun(300, 7)
	require.Equal(t, r1, r2)
	require.Equal(t, f1, f2)
	require.Len(t, r1.Steps, 300)

	g := mustGraph(t, r1, f1)
	c := g.Counts()
	for _, typ := range EdgeTypes {
		assert.Positive(t, c[typ], "synthetic run draws %s edges", typ)
	}
	assert.NotEmpty(t, g.LoopGroups())
	assert.Greater(t, len(g.Trials()), 1)
}
