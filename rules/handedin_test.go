package rules

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// TestUnsupportedAnswerHandedInByCall: an agent that hands in its answer
// by a finishing call (ToolBench's Finish with its final_answer) tells
// the other party what the answer states, as a reply would: a rate its
// conversion call never returned, the call having failed, is its own;
// the rate the call returned is not. Shape: a ToolBench DFSDT answer.
func TestUnsupportedAnswerHandedInByCall(t *testing.T) {
	const task = "What is the current exchange rate from USD to EUR, and the timezone of the airport with IATA code LIS?"
	for _, tc := range []struct {
		name, rate string
		want       []int
	}{
		{"the call failed", `{"error": "", "response": "{'valid': False, 'error': {'code': 401, 'message': 'Invalid API key or subscription expired'}}"}`, []int{6}},
		{"the call returned the rate", `{"error": "", "response": "{'valid': True, 'result': {'from': 'USD', 'to': 'EUR', 'amount': 1, 'converted': 0.92}}"}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			callOf := func(id, name, args string) *run.Extra {
				return &run.Extra{ToolCalls: []run.ToolCall{{ID: id, Name: name, Arguments: args}}}
			}
			finish := `{"return_type": "give_answer", "final_answer": "The current exchange rate is 1 USD = 0.92 EUR. LIS is in the Europe/Lisbon timezone."}`
			r := &run.Run{Source: "test.json", Question: task, Steps: []run.Step{
				{Agent: "system", Kind: run.KindSystem, Content: "You can use many tools (functions) to handle the user's query. Always call Finish at the end with the final answer."},
				{Agent: "user", Kind: run.KindUser, Content: task},
				{Agent: "assistant", Kind: run.KindToolCall, Content: "I should convert 1 USD to EUR.", Extra: callOf("c1", "convert_for_currencyapi_net", `{"to": "EUR", "amount": "1", "is_from": "USD"}`)},
				{Agent: "convert_for_currencyapi_net", Kind: run.KindToolResult, Content: tc.rate, Extra: &run.Extra{ToolCallID: "c1"}},
				{Agent: "assistant", Kind: run.KindToolCall, Content: "Now I will get the airport details for LIS.", Extra: callOf("c2", "airport_for_airport_info", `{"iata": "LIS"}`)},
				{Agent: "airport_for_airport_info", Kind: run.KindToolResult, Content: `{"error": "", "response": "{'iata': 'LIS', 'name': 'Humberto Delgado Airport', 'timezone': 'Europe/Lisbon'}"}`, Extra: &run.Extra{ToolCallID: "c2"}},
				{Agent: "assistant", Kind: run.KindToolCall, Content: "I will now give the final answer.", Extra: callOf("c3", "Finish", finish)},
			}}
			for i := range r.Steps {
				r.Steps[i].Index = i
			}
			f := extract.Run(r)
			require.NotNil(t, f.FinalAnswer)
			require.Equal(t, 6, f.FinalAnswer.Step, "the Finish call hands in the answer")
			g, err := graph.Build(r, f)
			require.NoError(t, err)
			assert.Equal(t, tc.want, steps(UnsupportedAnswer.Run(&Input{Run: r, Features: f, Graph: g}), true))
		})
	}
}

// TestUnsupportedAnswerAfterFailedCall: an agent that tells a value no
// source holds about what a call of its asked for, when that call failed
// and no call of the tool answered since, tells a result it never got:
// the finding says so and is the strongest of its kind. A value told
// after the tool answered a retry (with other figures) is made up all the
// same, but no failure stands in for it; nor does one when the step names
// nothing the failed call asked about. Shape: a ToolBench search
// assistant replying in prose.
func TestUnsupportedAnswerAfterFailedCall(t *testing.T) {
	const (
		task   = "What is the current exchange rate from USD to EUR, and the timezone of the airport with IATA code LIS?"
		failed = `{"error": "", "response": "{'valid': False, 'error': {'code': 401, 'message': 'Invalid API key or subscription expired'}}"}`
		other  = `{"error": "", "response": "{'valid': True, 'result': {'from': 'USD', 'to': 'EUR', 'amount': 1, 'converted': 0.94}}"}`
	)
	for _, tc := range []struct {
		name, retry, reply string
		failedWhy          bool
	}{
		{"the call failed", "", "The current exchange rate is 1 USD = 0.92 EUR; LIS is in the Europe/Lisbon timezone.", true},
		{"a retry answered", other, "The current exchange rate is 1 USD = 0.92 EUR; LIS is in the Europe/Lisbon timezone.", false},
		{"nothing the call asked", "", "The rate is 0.92; LIS is in the Europe/Lisbon timezone.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs := []msg{
				{agent: "user", content: task, kind: run.KindUser},
				{agent: "assistant", content: `convert_for_currencyapi_net({"to": "EUR", "amount": "1", "is_from": "USD"})`, kind: run.KindToolCall},
				{agent: "tool", content: failed, kind: run.KindToolResult},
			}
			if tc.retry != "" {
				msgs = append(msgs,
					msg{agent: "assistant", content: `convert_for_currencyapi_net({"to": "EUR", "amount": "1", "is_from": "USD"})`, kind: run.KindToolCall},
					msg{agent: "tool", content: tc.retry, kind: run.KindToolResult})
			}
			msgs = append(msgs,
				msg{agent: "assistant", content: `airport_for_airport_info({"iata": "LIS"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `{"error": "", "response": "{'iata': 'LIS', 'name': 'Humberto Delgado Airport', 'timezone': 'Europe/Lisbon'}"}`, kind: run.KindToolResult},
				msg{agent: "assistant", content: tc.reply})
			in := prepare(t, task, "", msgs...)
			last := len(msgs) - 1
			got := UnsupportedAnswer.Run(in)
			require.Equal(t, []int{last}, steps(got, true), "the rate is made up either way")
			assert.Equal(t, tc.failedWhy, strings.Contains(got[0].Reason, "failed"), got[0].Reason)
			assert.Equal(t, tc.failedWhy, got[0].Strength == 0.9, got[0].Strength)
		})
	}
}
