package extract

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestFigureChanges: a figure's direction as a step writes it, by a word
// beside it, its sign, a noun after it or the order of a move's figures,
// with the words before it that can name what changed.
func TestFigureChanges(t *testing.T) {
	tests := []struct {
		text string
		want []Change
	}{
		{"Revenue grew 17% to $61.9 billion.", []Change{{Figure: "17%", Up: true, Subject: []string{"revenue"}}}},
		{"revenue fell 17% year over year", []Change{{Figure: "17%", Subject: []string{"revenue"}}}},
		{"| Revenue growth (YoY) | -8.7% |", []Change{{Figure: "8.7%", Subject: []string{"revenue"}}}},
		{"Revenue $61.9B, +17% YoY", []Change{{Figure: "17%", Up: true, Subject: []string{"revenue"}}}},
		{"A 17% year-over-year revenue decline.", []Change{{Figure: "17%", Subject: []string{"revenue", "year-over-year"}}}},
		{"operating margin 41%, up from 20% a year earlier", []Change{{From: "20%", To: "41%", Subject: []string{"margin", "operating"}}}},
		{"operating margin fell to 20% from 41%", []Change{{From: "41%", To: "20%", Subject: []string{"margin", "operating"}}}},
		{"operating margin went from 20% to 41%", []Change{{From: "20%", To: "41%", Subject: []string{"margin", "operating", "went"}}}},
		// A level, not a change; a change with no subject; another's words.
		{"Margins fell to 17.4%.", nil},
		{"Up 17%.", nil},
		{"The bear says revenue fell 17%.", nil},
		{"Revenue did not fall by 17%.", nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, figureChanges(tt.text), tt.text)
	}
}

// TestReversal: the first agent's step that writes an earlier step's
// figure of the same subject with its direction the other way round. No
// reversal for another subject, for a figure written both ways before, for
// a tool's result that disagrees with an agent, or for a step that writes
// both directions.
func TestReversal(t *testing.T) {
	// steps makes a run of a user's task and the texts after it, each an
	// agent's message but for one starting "tool: ", a tool's result.
	steps := func(texts ...string) []run.Step {
		out := []run.Step{{Agent: "user", Kind: run.KindUser, Content: "Decide BUY or SELL."}}
		for i, text := range texts {
			if rest, ok := strings.CutPrefix(text, "tool: "); ok {
				out = append(out, run.Step{Agent: "tool", Kind: run.KindToolResult, Content: rest})
				continue
			}
			out = append(out, run.Step{Agent: fmt.Sprintf("agent%d", i), Kind: run.KindMessage, Content: text})
		}
		return out
	}
	tests := []struct {
		name         string
		steps        []run.Step
		step, source int
	}{
		{"rise written as a fall", steps(
			"Revenue $61.9 billion, up 17% year over year.",
			"Revenue grew 17% to $61.9 billion.",
			"Revenue fell 17% year over year to $61.9 billion.",
			"A 17% revenue decline is decisive. SELL.",
		), 3, 1},
		{"a tool's fall written as a rise", steps(
			"tool: | Revenue growth (YoY) | -8.7% |",
			"Revenue was $21.3 billion, up 8.7% year over year.",
		), 2, 1},
		{"a move reversed", steps(
			"Operating margin 41%, up from 20% a year earlier.",
			"Operating margin fell to 20% from 41%, so SELL.",
		), 2, 1},
		{"another subject", steps(
			"Revenue grew 17% this year.",
			"The stock fell 17% to 3.2.",
		), -1, -1},
		{"written both ways before", steps(
			"Revenue grew 17% this year.",
			"Revenue fell 17% this year.",
			"Revenue fell 17%, so SELL.",
		), 2, 1},
		{"a tool disagrees with an agent", steps(
			"Revenue grew 17% this year.",
			"tool: Revenue growth: -17%",
		), -1, -1},
		{"both directions in the step", steps(
			"Revenue grew 17% this year.",
			"Revenue fell 17% in the draft. In the report revenue grew 17%.",
		), -1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := reversal(tt.steps)
			if tt.step < 0 {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tt.step, got.Step)
			assert.Equal(t, tt.source, got.Source)
		})
	}
}
