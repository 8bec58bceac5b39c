package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestReprCall(t *testing.T) {
	tests := []struct {
		name string
		text string
		want ToolCall
		ok   bool
	}{
		{
			name: "a Responses API function call",
			text: `ResponseFunctionToolCall(arguments='{"a":42,"b":7}', call_id='call_1', name='multiply_numbers', type='function_call', id='fc_9', caller=None, namespace=None, status='completed')`,
			want: ToolCall{ID: "call_1", Name: "multiply_numbers", Arguments: `{"a":42,"b":7}`},
			ok:   true,
		},
		{
			name: "a Chat Completions call, its function nested",
			text: ` ChatCompletionMessageToolCall(id='call_2', function=Function(arguments='{"city": "Oslo"}', name='get_weather'), type='function')` + "\n",
			want: ToolCall{ID: "call_2", Name: "get_weather", Arguments: `{"city": "Oslo"}`},
			ok:   true,
		},
		{
			name: "escapes and a double-quoted string",
			text: `ResponseFunctionToolCall(arguments="{\"q\": \"it's \u00e9t\xe9\n\\\"}", call_id='c3', name='search', type='function_call')`,
			want: ToolCall{ID: "c3", Name: "search", Arguments: "{\"q\": \"it's \u00e9t\u00e9\n\\\"}"},
			ok:   true,
		},
		{
			name: "values with commas and parentheses inside brackets",
			text: `ResponseFunctionToolCall(arguments='{}', call_id='c4', name='f', tags=['a', 'b)'], extra={'k': (1, 2)})`,
			want: ToolCall{ID: "c4", Name: "f", Arguments: `{}`},
			ok:   true,
		},
		{name: "words", text: "The product of 42 and 7 is 294."},
		{name: "a message object is not a call", text: `ResponseOutputMessage(id='m', content=[], role='assistant')`},
		{name: "a call that names no function", text: `ResponseFunctionToolCall(arguments='{}', call_id='c5')`},
		{name: "text after the repr", text: `ResponseFunctionToolCall(name='f') and then some`},
		{name: "an unterminated string", text: `ResponseFunctionToolCall(name='f)`},
		{name: "a positional argument", text: `ResponseFunctionToolCall('f')`},
		{name: "a bad escape", text: `ResponseFunctionToolCall(name='\x4', arguments='')`},
		{name: "nesting past the bound", text: `XToolCall(a=A(a=A(a=A(a=A(a=A(a=A(a=A(a=A(a=A(a=A()))))))))), name='f')`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := reprCall(tt.text)
			assert.Equal(t, tt.ok, ok)
			if tt.ok {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

// FuzzReprCall: any text is read or refused, without a panic, and a call
// read names its function.
func FuzzReprCall(f *testing.F) {
	f.Add(`ResponseFunctionToolCall(arguments='{}', call_id='c', name='f', type='function_call')`)
	f.Add(`ChatCompletionMessageToolCall(id='c', function=Function(arguments='{}', name='g'), type='function')`)
	f.Add(`XToolCall(a='\U0001F600', b=[(1, ')')], name="n")`)
	f.Fuzz(func(t *testing.T, text string) {
		call, ok := reprCall(text)
		if ok && call.Name == "" {
			t.Fatalf("a call without a name from %q", text)
		}
	})
}

// TestPyString: the literals Python code and reprs write, raw and
// triple-quoted among them, read to their values; a literal quoted once
// that runs past its line is none.
func TestPyString(t *testing.T) {
	for _, tt := range []struct {
		in, value, rest string
		ok              bool
	}{
		{`'a\'b', x`, `a'b`, `, x`, true},
		{`"x\ny\x41\u00e9"`, "x\nyAé", "", true},
		{`r'\d+\''`, `\d+\'`, "", true},
		{"'''one\nand 'two' ''')", "one\nand 'two' ", ")", true},
		{"'ab\\\ncd'", "abcd", "", true},
		{"'ab\ncd'", "", "'ab\ncd'", false},
		{`'open`, "", `'open`, false},
		{`x'a'`, "", `x'a'`, false},
	} {
		t.Run(tt.in, func(t *testing.T) {
			value, rest, ok := pyString(tt.in)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.value, value)
			assert.Equal(t, tt.rest, rest)
		})
	}
}
