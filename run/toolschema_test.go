package run_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestRequestTools: a saved chat request's tool definitions, in each
// provider's shape, are read beside its messages, with the values their
// schemas offer (an enum's, a default, a constant, examples, at any
// depth) and not their descriptions' words.
func TestRequestTools(t *testing.T) {
	msgs := `"messages": [{"role": "user", "content": "How warm is it in Lyon?"}, {"role": "assistant", "content": "It is 19 degrees."}]`
	schema := `{"type": "object", "properties": {"location": {"type": "string", "description": "City, e.g. Paris"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"}, "days": {"type": "integer", "default": 3}, "extra": {"type": "array", "items": {"type": "object", "properties": {"kind": {"const": "hourly"}}}}}}`
	want := []run.Tool{{Name: "get_weather", Offers: []string{"3", "celsius", "fahrenheit", "hourly"}}}
	for _, tt := range []struct {
		name, tools string
		want        []run.Tool
	}{
		{"openai", `"tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather, e.g. rain", "parameters": ` + schema + `}}]`, want},
		{"anthropic", `"tools": [{"name": "get_weather", "description": "Weather", "input_schema": ` + schema + `}, {"type": "web_search_20250305", "name": "web_search"}]`, append(want, run.Tool{Name: "web_search"})},
		{"gemini", `"tools": [{"functionDeclarations": [{"name": "get_weather", "parameters": ` + schema + `}]}]`, want},
		{"bedrock", `"toolConfig": {"tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": ` + schema + `}}}]}`, want},
		{"functions", `"functions": [{"name": "get_weather", "parameters": ` + schema + `}]`, want},
		{"other toolConfig", `"toolConfig": "auto"`, nil},
		{"tools of another shape", `"tools": "search, calculator"`, nil},
		{"none", `"model": "m"`, nil},
	} {
		r, err := run.Parse("request.json", []byte(`{`+tt.tools+`, `+msgs+`}`), run.Options{})
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, r.Tools, tt.name)
		assert.Len(t, r.Steps, 2, tt.name)
	}
}

// TestRequestToolsDeep: a schema nested past any tool's depth is read no
// deeper, and does not fail the file.
func TestRequestToolsDeep(t *testing.T) {
	deep := `{"enum": ["x"]}`
	for range 200 {
		deep = `{"items": ` + deep + `}`
	}
	r, err := run.Parse("request.json", []byte(`{"tools": [{"name": "f", "input_schema": `+deep+`}], "messages": [{"role": "user", "content": "hi"}]}`), run.Options{})
	require.NoError(t, err)
	assert.Equal(t, []run.Tool{{Name: "f"}}, r.Tools)
}

// TestSpanTools: a trace's model calls record the tools they were offered
// (GenAI's gen_ai.tool.definitions, OpenInference's
// llm.tools.N.tool.json_schema); the run holds them once each, with the
// values their schemas offer, as it holds a saved request's.
func TestSpanTools(t *testing.T) {
	def := `{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}}}}`
	want := []run.Tool{{Name: "get_weather", Offers: []string{"celsius", "fahrenheit"}}}
	for _, tt := range []struct {
		name  string
		attrs map[string]any
	}{
		{"GenAI", map[string]any{
			"gen_ai.operation.name":   "chat",
			"gen_ai.tool.definitions": `[` + def + `]`,
			"gen_ai.input.messages":   `[{"role":"user","parts":[{"type":"text","content":"How warm is it in Lyon?"}]}]`,
			"gen_ai.output.messages":  `[{"role":"assistant","parts":[{"type":"text","content":"It is 19 degrees."}]}]`,
		}},
		{"OpenInference", map[string]any{
			"openinference.span.kind":               "LLM",
			"llm.tools.0.tool.json_schema":          def,
			"llm.input_messages.0.message.role":     "user",
			"llm.input_messages.0.message.content":  "How warm is it in Lyon?",
			"llm.output_messages.0.message.role":    "assistant",
			"llm.output_messages.0.message.content": "It is 19 degrees.",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeSpans(t, span{id: "a", name: "chat", start: 1, attrs: tt.attrs}, span{id: "b", name: "chat", start: 2, attrs: tt.attrs})
			assert.Equal(t, want, loadOne(t, path, "").Run.Tools)
		})
	}
}
