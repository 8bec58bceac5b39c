package localllm

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

func TestWindowContextFitsTheBudget(t *testing.T) {
	long := testRun(130, 300)
	short := testRun(7, 40)
	tests := []struct {
		name    string
		r       *run.Run
		targets []int
		budget  int
		whole   bool // every step in full
	}{
		{"short run whole", short, []int{1, 3}, 2000, true},
		{"long run, roomy", long, []int{10, 50, 90}, 3600, false},
		{"long run, tight", long, []int{10, 50, 90}, 800, false},
		{"long run, tiny", long, []int{10, 50, 90}, 60, false},
		{"short run, tight", short, []int{1, 3, 5}, 150, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, err := WindowContext(tt.r, tt.targets, tt.budget)
			require.NoError(t, err)
			assert.LessOrEqual(t, EstimateTokens(text), tt.budget)
			if tt.whole {
				for _, s := range tt.r.Steps {
					assert.Contains(t, text, strings.Join(strings.Fields(s.Content), " "))
				}
			}
			if tt.budget >= 800 && !tt.whole {
				for _, s := range tt.targets {
					assert.Contains(t, text, fmt.Sprintf("[%d] %s <<: Step %d says:", s, tt.r.Steps[s].Agent, s), "targets are shown and marked")
				}
				assert.Greater(t, EstimateTokens(text), tt.budget*8/10, "the budget is used")
			}
		})
	}
}

func TestWindowContextLayers(t *testing.T) {
	r := testRun(30, 100)
	text, err := WindowContext(r, []int{10}, 3000)
	require.NoError(t, err)
	lines := map[int]string{}
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		var i int
		if _, err := fmt.Sscanf(l, "[%d]", &i); err == nil {
			lines[i] = l
		}
	}
	words := func(i int) int { return len(strings.Fields(lines[i])) }
	assert.Equal(t, 3+103, words(10), "the target in full: [10], agent, mark, then 103 words")
	assert.Equal(t, 2+103, words(11), "L1 in full")
	assert.Equal(t, 50+3, words(13), "L2: 50 words and an ellipsis")
	assert.Equal(t, 20+3, words(16), "L3: 20 words")
	assert.Equal(t, 15+3, words(29), "L4: 15 words")
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

func TestAddFlags(t *testing.T) {
	var o Options
	fs := pflag.NewFlagSet("analyze", pflag.ContinueOnError)
	o.AddFlags(fs)
	assert.Equal(t, Options{TopK: 3, Panel: 3, Parallel: 1, Timeout: 2 * time.Minute, Seed: 42, Warn: o.Warn}, o, "defaults")
	require.NoError(t, fs.Parse([]string{"--model", "qwen3:32b", "--ollama-host", "box:11434", "--think", "--top-k", "5",
		"--panel", "6", "--parallel", "2", "--timeout", "45s", "--no-cache", "--cache-dir", "/tmp/c"}))
	assert.Equal(t, "qwen3:32b", o.Model)
	assert.Equal(t, "box:11434", o.Host)
	assert.True(t, o.Think)
	assert.Equal(t, 5, o.TopK)
	assert.Equal(t, 6, o.Panel)
	assert.Equal(t, 2, o.Parallel)
	assert.Equal(t, 45*time.Second, o.Timeout)
	assert.True(t, o.NoCache)
	assert.Equal(t, "/tmp/c", o.CacheDir)
	assert.True(t, o.Enabled())
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
