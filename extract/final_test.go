package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// An answer that states a call's result reports the value the call gave:
// the call's arguments are no value of it, and the function is named,
// with the call quoted as code or the verb after "now" or "still", as
// coding agents' and testers' summaries write it.
func TestFinalAnswerOfACallsResult(t *testing.T) {
	tests := []struct {
		text  string
		calls []string
		norms []string
	}{
		{"signup.py is done and tested. can_register(18) returns False.", []string{"can_register"}, nil},
		{"vat_amount(100) returns 16.0.", []string{"vat_amount"}, []string{"16"}},
		{"shipping_cost(12.5) == 7.99", []string{"shipping_cost"}, []string{"7.99"}},
		{"len(attention(SAMPLE)) returns 1.", []string{"len", "attention"}, nil},
		{"The limit is 120 requests per minute.", nil, []string{"120"}},
		{"All tests passed. `can_vote(18)` returns False.", []string{"can_vote"}, nil},
		{"Fixed: parse_duration('90m') now returns 5400.", []string{"parse_duration"}, []string{"5400"}},
		{"`vat_amount(100)` still returns 16.0.", []string{"vat_amount"}, []string{"16"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			fa := newFinal(3, tt.text, SourceLastAnswer, nil, true)
			assert.Equal(t, tt.calls, fa.Calls)
			var norms []string
			for _, c := range fa.Claims {
				if c.Kind == ClaimNumber {
					norms = append(norms, c.Norm)
				}
			}
			assert.Equal(t, tt.norms, norms)
		})
	}
}

// Agents that end on a call and the result it gave end on their answer,
// however small or plain the result is.
func TestFinalAnswerOfASmallCallResult(t *testing.T) {
	r := &run.Run{Question: "Write median(values). Report median([3, 1, 4, 2]).", Steps: []run.Step{
		{Index: 0, Agent: "Human", Kind: run.KindUser, Content: "Write median(values). Report median([3, 1, 4, 2])."},
		{Index: 1, Agent: "Engineer", Kind: run.KindMessage, Content: "## Code: stats.py\n```python\ndef median(values):\n    s = sorted(values)\n    return s[len(s) // 2]\n```"},
		{Index: 2, Agent: "Engineer", Kind: run.KindMessage, Content: "## Summary\nstats.py is done and tested. median([3, 1, 4, 2]) returns 3."},
	}}
	fa := Run(r).FinalAnswer
	require.NotNil(t, fa)
	assert.Equal(t, 2, fa.Step)
	assert.Equal(t, []string{"median"}, fa.Calls)
}

// A path the answer states with a value filled in was handed on by the
// steps that wrote it as a template with a placeholder there; a step that
// names only the path's parent as such is no template of it.
func TestFinalAnswerSeesFilledTemplates(t *testing.T) {
	q := "Expose GET /api/v1/invoices/{invoice_id}. Report the path the client calls for invoice 7."
	r := &run.Run{Question: q, Steps: []run.Step{
		{Index: 0, Agent: "Human", Kind: run.KindUser, Content: q},
		{Index: 1, Agent: "Architect", Kind: run.KindMessage, Content: "## Implementation approach\nA router with GET /api/v2/invoice/{invoice_id}."},
		{Index: 2, Agent: "Engineer", Kind: run.KindMessage, Content: "## Summary\nThe routes live under /api/v2/invoice/ now."},
		{Index: 3, Agent: "Engineer", Kind: run.KindMessage, Content: "## Summary\nDone. For invoice 7 the client calls /api/v2/invoice/7."},
	}}
	fa := Run(r).FinalAnswer
	require.NotNil(t, fa)
	assert.Equal(t, map[string][]int{"invoice/7": {1}}, fa.Seen)
}
