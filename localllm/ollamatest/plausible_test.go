package ollamatest

import (
	"encoding/json"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const plausibleLog = "Task: x\n```log\n" +
	"[step 0 | Planner | plan | full]\nSearch the catalogue.\n\n" +
	"[step 1 | Searcher | tool_result | key decision] Error: not found; the search failed.\n" +
	"[L1 full | step 2 | Coder | message | TARGET]\nThe total is 12.\n\n" +
	"[step 3 | Coder | message | summary] Sorry, wrong total.\n```"

func TestPlausibleReply(t *testing.T) {
	tests := []struct {
		name   string
		format string
		want   string
	}{
		{
			"a reader names the troubled steps it may, most troubled first",
			`{"type":"object","properties":{"suspects":{"type":"array","maxItems":1,"items":{"type":"object","properties":{"reason":{"type":"string"},"step":{"type":"integer","enum":[0,1,2,3]},"confidence":{"type":"number"}}}}}}`,
			`{"suspects":[{"reason":"the step reports 3 signs of trouble","step":1,"confidence":0.75}]}`,
		},
		{
			"a reader names no step it was not offered, nor an untroubled one",
			`{"type":"object","properties":{"suspects":{"type":"array","maxItems":3,"items":{"type":"object","properties":{"step":{"type":"integer","enum":[0,2]}}}}}}`,
			`{"suspects":[]}`,
		},
		{
			"an analyst rates by trouble and votes for the most troubled",
			`{"type":"object","properties":{"step_2":{"type":"object"},"step_3":{"type":"object"},"vote":{"type":"object"}}}`,
			`{"step_2":{"fault":0.30,"first":0.30,"decisive":0.30},"step_3":{"fault":0.50,"first":0.50,"decisive":0.50},"vote":{"reason":"the step reports 2 signs of trouble","step":3,"confidence":0.60}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := &api.ChatRequest{Format: json.RawMessage(tt.format), Messages: []api.Message{{Role: "user", Content: plausibleLog}}}
			got := PlausibleReply(req, 1).Content
			require.True(t, json.Valid([]byte(got)), got)
			assert.Equal(t, tt.want, got)
		})
	}
}
