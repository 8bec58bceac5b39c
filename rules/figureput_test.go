package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// TestSubjectBesideTheRightFigure: with the correct answer a figure, a
// writer that names the subject beside the right figure puts the right
// figure forward, not the subject the wrong final answer names too; the
// reviewer who then "corrects" it to another figure is the first to
// contradict the correct answer. Shape: a deep-research team in chat.
func TestSubjectBesideTheRightFigure(t *testing.T) {
	q := "What is the elevation of Lhasa Gonggar Airport, in metres? One line."
	for _, tt := range []struct {
		name, writer string
		want         []int
	}{
		{"the right figure beside the subject", "Lhasa Gonggar Airport lies at an elevation of 3,570 m (11,713 ft).", []int{4}},
		{"another figure beside the subject", "Lhasa Gonggar Airport lies at an elevation of 3,507 m (11,506 ft).", []int{3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "3,570 m",
				msg{agent: "user", content: q, kind: run.KindUser},
				msg{agent: "LeadResearcher", content: "Sub-questions: 1. ResearcherA: elevation of Lhasa Gonggar Airport (LXA) in metres. Writer: one line; Reviewer: check the figure."},
				msg{agent: "ResearcherA", content: "Opened the airport's page: \"Elevation AMSL: 3,570 m / 11,713 ft.\" Finding: Lhasa Gonggar Airport lies at 3,570 m."},
				msg{agent: "Writer", content: tt.writer},
				msg{agent: "Reviewer", content: "Correction: the elevation is 3,750 m, the figure usually cited. Revised: Lhasa Gonggar Airport lies at 3,750 m."},
				msg{agent: "Writer", content: "Lhasa Gonggar Airport lies at an elevation of 3,750 m."},
			)
			assert.Equal(t, tt.want, steps(GroundTruthContradiction.Run(in), true))
		})
	}
}

// TestNotesRelayingBothFigures: notes that pass on, as their agent's own
// search gave them, the correct figure beside another (last year's),
// keep the correct one; the writer who then puts the other forward is the
// first to contradict the correct answer. Notes that add the other figure
// themselves, where the search gave only the correct one, put it forward
// first. Shape: a researcher, a writer and an editor in chat, the
// researcher calling a search tool.
func TestNotesRelayingBothFigures(t *testing.T) {
	q := "Write a one-paragraph brief on the Port of Rotterdam stating its total cargo throughput in 2023 in million tonnes."
	args := `{"query": "Port of Rotterdam total throughput 2023"}`
	for _, tt := range []struct {
		name, result string
		want         []int
	}{
		{"the search gave both figures", "In 2023, throughput in the port totalled 438.8 million tonnes, a decrease of 6.1% compared to 2022 (467.4 million tonnes).", []int{4}},
		{"the search gave the correct figure only", "In 2023, throughput in the port totalled 438.8 million tonnes, a decrease of 6.1% on the year before.", []int{3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Source: "test.json", Question: q, GroundTruth: "438.8 million tonnes", Steps: []run.Step{
				{Agent: "User", Kind: run.KindUser, Content: q},
				{Agent: "Researcher", Kind: run.KindToolCall, Content: "web_search(" + args + ")", Extra: &run.Extra{ToolCalls: []run.ToolCall{{ID: "c1", Name: "web_search", Arguments: args}}}},
				{Agent: "web_search", Kind: run.KindToolResult, Content: tt.result, Extra: &run.Extra{ToolCallID: "c1"}},
				{Agent: "Researcher", Kind: run.KindMessage, Content: "Notes for the Writer:\n- Throughput 2023: 438.8 million tonnes.\n- Throughput 2022: 467.4 million tonnes."},
				{Agent: "Writer", Kind: run.KindMessage, Content: "The Port of Rotterdam handled a total cargo throughput of 467.4 million tonnes in 2023."},
				{Agent: "Editor", Kind: run.KindMessage, Content: "Approved: the Port of Rotterdam handled a total cargo throughput of 467.4 million tonnes in 2023."},
			}}
			for i := range r.Steps {
				r.Steps[i].Index = i
			}
			f := extract.Run(r)
			g, err := graph.Build(r, f)
			require.NoError(t, err)
			assert.Equal(t, tt.want, steps(GroundTruthContradiction.Run(&Input{Run: r, Features: f, Graph: g}), true))
		})
	}
}
