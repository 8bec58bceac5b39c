package localllm

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
)

func TestFitAndPackWindows(t *testing.T) {
	tests := []struct {
		name             string
		steps, words     int
		focus            []int
		budget, capacity int
		wantFull         bool // every step in full
		wantFits         bool // the total is within budget
	}{
		{"a short run is read whole", 8, 60, []int{2}, 2000, 4000, true, true},
		{"a long run is reduced away from the suspects", 60, 120, []int{10, 40}, 5000, 2500, false, true},
		{"milestones when the budget is tight", 130, 300, []int{3}, 3000, 2500, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := testRun(tt.steps, tt.words)
			es := readEntries(r, extract.Run(r), tt.focus)
			total := fitEntries(es, tt.budget, tt.capacity)
			sum := 0
			for i, e := range es {
				sum += e.tokens()
				assert.LessOrEqual(t, e.tokens(), tt.capacity, "step %d fits a window", i)
				if tt.wantFull {
					assert.Equal(t, readFull, e.detail, "step %d", i)
				}
				if e.distance > 1 && !tt.wantFull {
					assert.GreaterOrEqual(t, e.detail, readKeyDecision, "step %d, far from the suspects, is reduced", i)
				}
			}
			assert.Equal(t, sum, total)
			if tt.wantFits {
				assert.LessOrEqual(t, total, tt.budget)
				for _, f := range tt.focus {
					assert.Equal(t, readFull, es[f].detail, "a suspect stays in full")
				}
			} else {
				for _, e := range es {
					assert.Equal(t, readMilestone, e.detail, "everything down to milestones before the budget is exceeded")
				}
			}

			ws := packWindows(es, total, tt.capacity)
			next := 0
			for _, w := range ws {
				assert.LessOrEqual(t, EstimateTokens(w.text()), tt.capacity)
				assert.Equal(t, next, w.from, "windows are consecutive")
				next = w.to + 1
				for _, s := range w.steps() {
					assert.Contains(t, w.text(), "[step "+strconv.Itoa(s)+" | ", "every step of a window is labelled")
				}
			}
			assert.Equal(t, tt.steps, next, "the windows cover the run")
		})
	}
}

func TestCutMiddle(t *testing.T) {
	s := strings.Repeat("a", 1000) + "é" + strings.Repeat("z", 1000)
	got := cutMiddle(s, 600)
	require.Contains(t, got, "[... cut ...]")
	assert.True(t, strings.HasPrefix(got, "aaa") && strings.HasSuffix(got, "zzz"), "head and tail are kept")
	assert.LessOrEqual(t, len(got), 600+len("\n[... cut ...]\n"))
	assert.Equal(t, "short", cutMiddle("short", 600))
}
