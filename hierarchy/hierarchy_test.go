package hierarchy

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/quick"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func load(t *testing.T, name string) *run.Run {
	t.Helper()
	r, err := run.Load(filepath.Join("testdata", "runs", name), run.Options{})
	require.NoError(t, err)
	return r
}

// TestGolden renders contexts of the project's own runs at several budgets;
// the golden files are the review copy of what a model will be shown.
func TestGolden(t *testing.T) {
	tests := []struct {
		run    string
		step   int
		budget int
	}{
		{"coder_team.json", 4, 0},
		{"coder_team.json", 4, 200},
		{"coder_team.json", 6, 120},
		{"orchestrated.json", 4, 0},
		{"orchestrated.json", 7, 300},
		{"orchestrated.json", 7, 90},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s_step%d_budget%d", strings.TrimSuffix(tt.run, ".json"), tt.step, tt.budget)
		t.Run(name, func(t *testing.T) {
			got, err := RenderWithin(load(t, tt.run), nil, tt.step, tt.budget)
			require.NoError(t, err)
			if tt.budget > 0 {
				assert.LessOrEqual(t, extract.EstimateTokens(got), tt.budget)
			}
			checkGolden(t, filepath.Join("testdata", "golden", name+".txt"), got)
		})
	}
}

func TestBuildLevels(t *testing.T) {
	r := load(t, "orchestrated.json")
	c, err := Build(r, nil, 5)
	require.NoError(t, err)
	want := map[int]Level{0: 3, 1: 3, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 2, 8: 2, 9: 3, 10: 3}
	for i, e := range c.Entries {
		assert.Equal(t, want[i], e.Level, "step %d", i)
		assert.Equal(t, initialDetail[e.Level], e.Detail, "step %d", i)
	}
	assert.True(t, c.Entries[5].IsTarget)
	assert.Equal(t, extract.EstimateTokens(c.Render()), c.Tokens)
}

func TestBuildRejectsOutOfRange(t *testing.T) {
	r := load(t, "orchestrated.json")
	for _, step := range []int{-1, 11} {
		_, err := Build(r, nil, step)
		assert.True(t, errors.Is(err, ErrStepOutOfRange), "step %d: %v", step, err)
	}
}

func TestFitDegradesFarthestFirst(t *testing.T) {
	r := load(t, "orchestrated.json")
	c, err := Build(r, nil, 5)
	require.NoError(t, err)
	full := c.Tokens
	// Just under the full size: only the farthest steps (L3 here) may lose
	// detail, and at least one does.
	fitted, err := Fit(c, full-1)
	require.NoError(t, err)
	changed := 0
	for i, e := range fitted.Entries {
		if e.Detail != c.Entries[i].Detail {
			changed++
			assert.Equal(t, Level(3), e.Level, "step %d degraded before farther ones", i)
		}
	}
	assert.Positive(t, changed)
	// The original is untouched.
	assert.Equal(t, DetailSummary, c.Entries[1].Detail)
}

func TestFitKeepsL1WholeWhileItFits(t *testing.T) {
	r := load(t, "orchestrated.json")
	c, err := Build(r, nil, 5)
	require.NoError(t, err)
	l1 := c.header()
	for _, i := range []int{4, 5, 6} {
		l1 += c.Entries[i].render()
	}
	// Room for the header, L1 and the omitted lines, and nothing else.
	budget := extract.EstimateTokens(l1) + 12
	fitted, err := Fit(c, budget)
	require.NoError(t, err)
	for _, i := range []int{4, 5, 6} {
		assert.Equal(t, DetailFull, fitted.Entries[i].Detail, "step %d", i)
	}
	assert.LessOrEqual(t, fitted.Tokens, budget)
}

func TestFitTooSmall(t *testing.T) {
	r := load(t, "orchestrated.json")
	_, err := BuildWithin(r, nil, 5, 10)
	assert.True(t, errors.Is(err, ErrBudgetTooSmall), "%v", err)
}

func TestTruncateKeepsHeadAndTail(t *testing.T) {
	s := strings.Repeat("a", 300) + strings.Repeat("é", 300) + strings.Repeat("z", 300)
	for _, n := range []int{60, 100, 333, 600} {
		got := truncate(s, n)
		assert.LessOrEqual(t, len(got), n)
		assert.True(t, strings.HasPrefix(got, "a"), n)
		assert.True(t, strings.HasSuffix(got, "z"), n)
		assert.Contains(t, got, truncateMarker)
	}
	assert.Equal(t, "", truncate(s, 20))
	assert.Equal(t, "short", truncate("short", 20))
}

// TestOneLine: the shortcut for text already on one line gives what
// splitting and joining would.
func TestOneLine(t *testing.T) {
	slow := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, s := range []string{
		"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\nb", "a\u00a0b", "a\u0085b",
		"a\u2003b", "café au lait", "\xff b", "a \xff", "日本 語",
	} {
		assert.Equal(t, slow(s), oneLine(s), "%q", s)
	}
	require.NoError(t, quick.CheckEqual(oneLine, slow, nil))
}

// checkGolden compares got with the golden file at path, rewriting it first
// under -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create the golden file")
	require.Equal(t, string(want), got)
}

// TestFullKeepsEveryStepWhileItFits: from every step in full, an ample
// budget keeps them all in full, and a tight one reduces the farthest
// first: the target and its neighbours stay whole while anything else can
// give way.
func TestFullKeepsEveryStepWhileItFits(t *testing.T) {
	r := load(t, "orchestrated.json")
	c, err := Build(r, nil, 5)
	require.NoError(t, err)
	full := c.Full()
	require.Greater(t, full.Tokens, c.Tokens, "more than ECHO's levels")
	ample, err := Fit(full, full.Tokens)
	require.NoError(t, err)
	for _, e := range ample.Entries {
		assert.Equal(t, DetailFull, e.Detail, "step %d", e.Index)
	}
	assert.Contains(t, ample.Render(), "each in full, or reduced (the farthest first) to fit the budget")

	for _, budget := range []int{full.Tokens * 3 / 4, full.Tokens / 2, c.Tokens} {
		tight, err := Fit(full, budget)
		require.NoError(t, err)
		assert.LessOrEqual(t, tight.Tokens, budget)
		reduced := -1 // the nearest distance at which a step lost detail
		for _, e := range tight.Entries {
			if e.Detail != DetailFull && (reduced < 0 || e.Distance < reduced) {
				reduced = e.Distance
			}
		}
		require.GreaterOrEqual(t, reduced, 0, "budget %d: something had to give", budget)
		for _, e := range tight.Entries {
			if e.Distance <= 1 && reduced > 1 {
				assert.Equal(t, DetailFull, e.Detail, "budget %d: step %d kept whole", budget, e.Index)
			}
			if e.Distance > reduced+1 {
				assert.NotEqual(t, DetailFull, e.Detail, "budget %d: step %d, farther than a reduced one, is reduced too", budget, e.Index)
			}
		}
	}
	assert.Equal(t, DetailSummary, c.Entries[1].Detail, "the original is untouched")
}
