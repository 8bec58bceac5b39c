package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestQueryStatesNothing: the names a search's free-text query adds
// ("ALVA", which its results then echo) are what it asks for, not values
// it introduces; the same words in a message the run then builds on are.
func TestQueryStatesNothing(t *testing.T) {
	const q = "How many people visited the British Museum in 2024?"
	tests := []struct {
		name, content string
		kind          run.Kind
		want          []int
	}{
		{"a search's query", `web_search({"query": "British Museum visitors 2024 ALVA"})`, run.KindToolCall, nil},
		{"a message stating it", "The British Museum had 6,479,952 visits in 2024, per ALVA.", run.KindMessage, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "",
				msg{agent: "user", content: q, kind: run.KindUser},
				msg{agent: "researcher", content: tt.content, kind: tt.kind},
				msg{agent: "tool", content: "ALVA 2024 figures: British Museum 6,479,952 visits, the UK's most visited attraction.", kind: run.KindToolResult},
				msg{agent: "writer", content: "The British Museum received 6,479,952 visits in 2024 (ALVA)."},
			)
			assert.Equal(t, tt.want, steps(UnsupportedClaim.Run(in), true), "unsupported_claim")
		})
	}
}
