package extract

import (
	"os"
	"sort"
	"testing"
	"time"
)

func TestPatternProfile(t *testing.T) {
	if os.Getenv("OFFATTR_PATPROF") == "" {
		t.Skip()
	}
	names, runs := devRuns(t)
	var texts []*text
	for _, n := range names {
		for _, s := range runs[n].Steps {
			texts = append(texts, newText(s.Content))
		}
	}
	type r struct {
		i int
		d time.Duration
	}
	var rs []r
	for i, re := range allPatterns {
		start := time.Now()
		for _, tx := range texts {
			tx.all(re, 0)
		}
		rs = append(rs, r{i, time.Since(start)})
	}
	sort.Slice(rs, func(a, b int) bool { return rs[a].d > rs[b].d })
	for _, x := range rs[:15] {
		s := allPatterns[x.i].String()
		if len(s) > 120 {
			s = s[:120]
		}
		t.Logf("%8v %s", x.d.Round(time.Millisecond), s)
	}
}
