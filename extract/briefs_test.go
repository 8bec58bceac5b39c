package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestBriefsArePlans: a lead's research brief and a list of the
// sub-questions or sub-queries it splits the task into lay the work out
// as a plan does; words that only mention sub-queries do not.
func TestBriefsArePlans(t *testing.T) {
	tests := []struct {
		text string
		plan bool
	}{
		{"Research brief:\n- ResearcherA: fastest train from Vienna to Budapest.\n- ResearcherB: Budapest to Prague.", true},
		{"Sub-queries: 1. Siemens employees fiscal 2024 2. Siemens workforce September 30 2024", true},
		{"Sub-questions:\n1. Louvre visitors in 2024.\n2. British Museum visitors in 2024.", true},
		{"Brief: the figures for both countries.", true},
		{"The sub-queries found two figures; the report gives the larger.", false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			r := &run.Run{Question: "Find it.", Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Find it."},
				{Index: 1, Agent: "lead", Kind: run.KindMessage, Content: tt.text},
			}}
			assert.Equal(t, tt.plan, Run(r).Steps[1].Has(KindPlan))
		})
	}
}
