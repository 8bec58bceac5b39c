package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnicodeEscapes(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"python's json.dumps of a name", `{"city": "San Sebasti\u00e1n", "country": "Espa\u00f1a"}`, `{"city": "San Sebastián", "country": "España"}`},
		{"a quote mark in prose", `Apple\u2019s board`, `Apple’s board`},
		{"a surrogate pair", `rain \ud83c\udf27 today`, "rain \U0001f327 today"},
		{"upper-case hex", `Z\u00FCrich`, `Zürich`},
		{"an escaped backslash is no escape", `C:\\u00e9t\u00e9`, `C:\\u00e9té`},
		{"ASCII escapes stay: they may be JSON's own", `{"a": "\u0022quoted\u0022 \u003cb\u003e"}`, `{"a": "\u0022quoted\u0022 \u003cb\u003e"}`},
		{"a control character stays escaped", `bell \u0007 esc \u001b[31m nel \u0085`, `bell \u0007 esc \u001b[31m nel \u0085`},
		{"a format character stays escaped", `abc \u202e evil \u200b`, `abc \u202e evil \u200b`},
		{"a lone surrogate stays", `x \ud83c y`, `x \ud83c y`},
		{"too short", `end \u00f`, `end \u00f`},
		{"no escape at all", "plain text", "plain text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, unicodeEscapes(tt.in))
		})
	}
}

// TestLoadDecodesUnicodeEscapes: a tool's result that Python wrote with
// json.dumps, escaping every non-ASCII character, names what the same
// result written in UTF-8 names.
func TestLoadDecodesUnicodeEscapes(t *testing.T) {
	data := `[{"role": "user", "content": "Weather in San Sebastián?"},
		{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\": \"San Sebasti\\u00e1n\"}"}}]},
		{"role": "tool", "tool_call_id": "c1", "content": "{\"city\": \"San Sebasti\\u00e1n\", \"sky\": \"lluvia d\\u00e9bil\"}"}]`
	r, err := Parse("esc.json", []byte(data), Options{})
	require.NoError(t, err)
	require.Len(t, r.Steps, 3)
	assert.Equal(t, `{"city": "San Sebastián"}`, r.Steps[1].ToolCalls()[0].Arguments)
	assert.Equal(t, `{"city": "San Sebastián", "sky": "lluvia débil"}`, r.Steps[2].Content)
}
