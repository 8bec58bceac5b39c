package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// A tool's JSON output that returns an error under an error field reports
// an error, however deep the field and however its object is quoted (a
// Python dict's repr in a JSON string, a JSON object in one); an empty
// error field, a tally or a code of nought under it, or none, reports
// none.
func TestToolErrorsInJSONOutput(t *testing.T) {
	tests := []struct {
		name, output, quote string
	}{
		{"a dict's repr in a string", `{"error": "", "response": "{'valid': False, 'error': {'code': 401, 'message': 'Invalid API key or subscription expired'}}"}`, "Invalid API key"},
		{"an object", `{"error": {"code": 401, "message": "Unauthorized"}}`, "Unauthorized"},
		{"a string", `{"code": 429, "error": "Rate limit reached for this key"}`, "Rate limit reached"},
		{"JSON in a string", `{"result": "{\"errors\": [\"quota used up\"]}"}`, "errors"},
		{"an empty error field", `{"error": "", "response": "{'id': 3211, 'name': 'Humberto Delgado Airport'}"}`, ""},
		{"a null error beside data", `{"error": null, "data": [{"id": 1}]}`, ""},
		{"an empty error in a repr", `{"response": "{'error': None, 'rate': 0.92}"}`, ""},
		{"a tally of no errors", `{"tests": 12, "failures": 0, "errors": 0}`, ""},
		{"a tally of no errors in a repr", `{"response": "{'errors': 0, 'rows': 40}"}`, ""},
		{"an error code of nought", `{"status": "ok", "error": 0, "data": [1]}`, ""},
		{"a tally of errors", `{"tests": 12, "failures": 0, "errors": 2}`, "errors"},
	}
	for _, tt := range tests {
		steps := []run.Step{
			{Index: 0, Agent: "user", Kind: run.KindUser, Content: "What is the rate?"},
			{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: "Calling the API."},
			{Index: 2, Agent: "api", Kind: run.KindToolResult, Content: tt.output},
		}
		steps[1].Edit().ToolCalls = []run.ToolCall{{ID: "c1", Name: "lookup", Arguments: `{}`}}
		f := Run(&run.Run{Steps: steps}).Steps[2]
		var quotes []string
		for _, e := range f.Errors {
			quotes = append(quotes, e.Quote)
		}
		if tt.quote == "" {
			assert.Empty(t, quotes, tt.name)
			continue
		}
		if assert.Len(t, quotes, 1, tt.name) {
			assert.Contains(t, quotes[0], tt.quote, tt.name)
		}
	}
}
