package localllm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/hierarchy"
	"github.com/offattr/offattr/run"
)

func TestHierarchyContextFitsTheBudget(t *testing.T) {
	long := testRun(130, 300)
	short := testRun(7, 40)
	tests := []struct {
		name    string
		r       *run.Run
		targets []int
		budget  int
		whole   bool // every step in full
		lines   int  // targets named on one line only
	}{
		{"short run whole", short, []int{1, 3}, 2000, true, 0},
		{"long run, roomy", long, []int{10, 50, 90}, 3600, false, 0},
		{"long run, tight", long, []int{10, 50, 90}, 800, false, 0},
		{"long run, shares too small", long, []int{10, 50, 90}, 150, false, 2},
		{"short run, tight", short, []int{1, 3, 5}, 150, false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, err := HierarchyContext(tt.r, tt.targets, tt.budget)
			require.NoError(t, err)
			assert.LessOrEqual(t, extract.EstimateTokens(text), tt.budget)
			if tt.whole {
				for _, s := range tt.r.Steps {
					assert.Contains(t, text, strings.TrimSpace(s.Content))
				}
			}
			for _, s := range tt.targets {
				assert.Regexp(t, fmt.Sprintf(`\[(L1 \w+ \| )?step %d \| %s \|`, s, tt.r.Steps[s].Agent), text, "every target is named")
			}
			assert.Equal(t, tt.lines, strings.Count(text, "no room for its context]"))
			assert.Equal(t, len(tt.targets)-tt.lines, strings.Count(text, "Context of step "), "one hierarchy context per other target")
		})
	}
}

// TestHierarchyContextLayers checks that the context is ECHO's: the target
// and its neighbours in full, then key decisions, summaries and milestones.
func TestHierarchyContextLayers(t *testing.T) {
	r := testRun(30, 100)
	text, err := HierarchyContext(r, []int{10}, 3000)
	require.NoError(t, err)
	for _, want := range []string{"[L1 full | step 10 | Coder | message | TARGET]", "[L1 full | step 11 |", "[L2 key decision | step 12 |", "[L3 summary | step 15 |", "[L4 milestone | step 29 |"} {
		assert.Contains(t, text, want)
	}
}

// TestHierarchyContextTinyBudget: when not even one label fits, the error
// says so and the judge keeps the rules' answer.
func TestHierarchyContextTinyBudget(t *testing.T) {
	_, err := HierarchyContext(testRun(30, 100), []int{3, 9}, 20)
	assert.ErrorIs(t, err, hierarchy.ErrBudgetTooSmall)
}

func TestPerTarget(t *testing.T) {
	var budgets []int
	one := func(r *run.Run, step, budget int) (string, error) {
		budgets = append(budgets, budget)
		return fmt.Sprintf("context of %d\n", step), nil
	}
	text, err := PerTarget(one)(testRun(10, 5), []int{2, 6}, 1000)
	require.NoError(t, err)
	assert.Equal(t, "--- around step 2 ---\ncontext of 2\n--- around step 6 ---\ncontext of 6\n", text)
	assert.Equal(t, []int{494, 494}, budgets, "half the budget each, less the header")
}

func TestCallBudget(t *testing.T) {
	tests := []struct {
		name                    string
		runTokens, fixed, limit int
		want                    int
	}{
		{"short run gets the floor", 800, 0, 5000, minCallTokens},
		{"a third of the run", 6000, 0, 5000, 2000},
		{"long run gets the ceiling", 76000, 0, 5000, maxCallTokens},
		{"small model caps it", 76000, 0, 2748, 2748},
		{"fixed budget", 76000, 1500, 5000, 1500},
		{"fixed budget still capped", 76000, 9000, 5000, 5000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, callBudget(tt.runTokens, tt.fixed, tt.limit))
		})
	}
}
