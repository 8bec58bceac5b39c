package run_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// realFile is what a cut of a real trace file in testdata/traces (its
// README says where each comes from) must read as: every trace a run, with
// the agents, steps and task its spans give. Each convention's test file
// lists the cuts that use it.
type realFile struct {
	file     string
	format   run.Format
	runs     int
	agents   []string // of the first run, the task giver left out
	question string
	contains []string // texts some step of the first run holds
	// steps, when given, are all the steps of the first run, in order:
	// each message, call and result once, each with its agent.
	steps []realStep
}

// realStep is what one step must read as: its agent, its kind, and a text
// it holds once.
type realStep struct {
	agent    string
	kind     run.Kind
	contains string
}

func checkRealFiles(t *testing.T, files []realFile) {
	t.Helper()
	for _, tt := range files {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "traces", tt.file)
			cases, err := run.LoadAll(context.Background(), path, run.Options{})
			require.NoError(t, err)
			require.Len(t, cases, tt.runs)
			r := cases[0].Run
			assert.Equal(t, tt.format, r.Format)
			if tt.agents != nil {
				var agents []string
				for _, a := range r.Agents() {
					if a != "user" {
						agents = append(agents, a)
					}
				}
				assert.Equal(t, tt.agents, agents)
			}
			if tt.question != "" {
				assert.Equal(t, tt.question, r.Question)
			}
			var all strings.Builder
			for _, s := range r.Steps {
				all.WriteString(s.Content + "\n")
				assert.NotEmpty(t, s.From(), "step %d says where its text was read", s.Index)
			}
			for _, c := range tt.contains {
				assert.Contains(t, all.String(), c)
			}
			if tt.steps != nil {
				checkSteps(t, r, tt.steps)
			}
		})
	}
}

func checkSteps(t *testing.T, r *run.Run, want []realStep) {
	t.Helper()
	got := make([]string, len(r.Steps))
	for i, s := range r.Steps {
		got[i] = fmt.Sprintf("%d %s %s %q", i, s.Agent, s.Kind, s.Content)
	}
	require.Len(t, r.Steps, len(want), "steps:\n%s", strings.Join(got, "\n"))
	for i, w := range want {
		s := r.Steps[i]
		assert.Equal(t, w.agent, s.Agent, got[i])
		assert.Equal(t, w.kind, s.Kind, got[i])
		// Once: a result or an error read twice into one step holds it
		// twice.
		assert.Equal(t, 1, strings.Count(s.Content, w.contains), "%s: want %q once", got[i], w.contains)
	}
}
