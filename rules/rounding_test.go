package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRoundedFigureHeld: a figure written with a magnitude's letter
// against its digits ("11k") is a rounding to its last digit's place: a
// step that rounds an earlier step's figure so ("11,013" as "11k")
// introduces no value; one whose figure no earlier one rounds to does.
// Shape: an orchestrator's plan after its web surfer read a repository's
// issue counts.
func TestRoundedFigureHeld(t *testing.T) {
	const question = "When was Regression added to the oldest closed numpy.polynomial issue?"
	for _, tt := range []struct {
		name, counts string
		want         []int
	}{
		{"rounded from the page's counts", "1,995 Open\n11,013 Closed", nil},
		{"rounded up", "1,995 Open\n10,950 Closed", nil},
		{"no count rounds to it", "1,995 Open\n9,013 Closed", []int{3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, question, "",
				msg{agent: "human", content: question},
				msg{agent: "Orchestrator", content: "Plan: WebSurfer, open the numpy repository's issues page and read how many issues it lists."},
				msg{agent: "WebSurfer", content: "I opened the issues page.\n" + tt.counts},
				msg{agent: "Orchestrator", content: "Plan: given the high number of issues (2k open and 11k closed), WebSurfer should filter by the label Regression and sort by oldest."},
				msg{agent: "WebSurfer", content: "I filtered the 11k closed issues by the label Regression."},
			)
			got := append(steps(UnsupportedPlanValue.Run(in), true), steps(UnsupportedClaim.Run(in), true)...)
			assert.Equal(t, tt.want, got)
		})
	}
}
