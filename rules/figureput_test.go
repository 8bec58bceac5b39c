package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

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
