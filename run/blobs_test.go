package run

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWithoutBlobs: an image or a file encoded in base64 (a data URL, a
// screenshot under a JSON field) is written as a placeholder; words,
// paths, ids, hashes and short runs stay as they are.
func TestWithoutBlobs(t *testing.T) {
	png := "iVBORw0KGgoAAAANSUhEUgAA" + strings.Repeat("q8Zr+3/Lm0Wx", 40) + "=="
	sha := strings.Repeat("9f86d081884c7d65", 4)
	urlSafe := "iVBORw0KGgoAAAANSUhEUgAA" + strings.Repeat("q8ZrK3_Lm0WxTa9PbQdcYv2N-hJ4sUe7GfoR", 12)
	for _, tt := range []struct{ name, in, want string }{
		{"a data URL in markdown", "See ![screen](data:image/png;base64," + png + ") for the order.", "See ![screen]([base64 data]) for the order."},
		{"a JSON field", `{"url": "https://shop.example/orders/40718", "screenshot": "` + png + `", "text": "Status: Pending"}`, `{"url": "https://shop.example/orders/40718", "screenshot": "[base64 data]", "text": "Status: Pending"}`},
		{"two blobs", png + "\n" + "data:image/jpeg;base64," + png, "[base64 data]\n[base64 data]"},
		{"a hash and a path", "commit " + sha + " in /usr/local/lib/python3.12/site-packages/pkg/module.py", "commit " + sha + " in /usr/local/lib/python3.12/site-packages/pkg/module.py"},
		{"a long word of letters alone", strings.Repeat("abcdefghij", 30), strings.Repeat("abcdefghij", 30)},
		{"short", "data:image/png;base64,iVBOR", "data:image/png;base64,iVBOR"},
		{"URL-safe base64 in a field", `{"id": "tok_9", "payload": "` + urlSafe + `", "text": "Status: Pending"}`, `{"id": "tok_9", "payload": "[base64 data]", "text": "Status: Pending"}`},
		{"URL-safe base64 after a path", "/tmp/a.png " + urlSafe, "/tmp/a.png [base64 data]"},
		{"short URL-safe pieces stay text", "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk and slug release-2026_06-Final-v2", "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk and slug release-2026_06-Final-v2"},
		{"a long name of words joined stays text", strings.Repeat("parse_Value2-", 25), strings.Repeat("parse_Value2-", 25)},
		{"empty", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, withoutBlobs(tt.in))
		})
	}
}

// TestLoadDropsBlobs: a run whose messages embed screenshots reads them
// as placeholders, in the task, a step's text and a call's arguments.
func TestLoadDropsBlobs(t *testing.T) {
	png := "iVBORw0KGgoAAAANSUhEUgAA" + strings.Repeat("q8Zr+3/Lm0Wx", 40)
	path := t.TempDir() + "/run.json"
	data := `{"messages": [
 {"role": "user", "content": "What is the status of order 40718? ![screen](data:image/png;base64,` + png + `)"},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "annotate", "arguments": "{\"image\": \"` + png + `\", \"label\": \"order\"}"}}]},
 {"role": "tool", "tool_call_id": "c1", "content": "{\"screenshot\": \"` + png + `\", \"text\": \"Status: Pending\"}"},
 {"role": "assistant", "content": "Order 40718 is pending."}]}`
	require.NoError(t, os.WriteFile(path, []byte(data), 0o600))
	r, err := Load(path, Options{})
	require.NoError(t, err)
	assert.NotContains(t, r.Question, png[:40])
	for _, s := range r.Steps {
		assert.NotContains(t, s.Content, png[:40], "step %d", s.Index)
		for _, c := range s.ToolCalls() {
			assert.NotContains(t, c.Arguments, png[:40])
			assert.Contains(t, c.Arguments, `"label"`)
		}
	}
	assert.True(t, r.Steps[1].OnlyCalls(), "a step of calls alone stays one")
}

// BenchmarkWithoutBlobs reads 6 MB of text that is mostly no blob: a run
// of one alphabet's characters broken by the other's, over and over
// ("a/b-c/d-…"), words joined by '_' and '-', and screenshots between.
func BenchmarkWithoutBlobs(b *testing.B) {
	png := "iVBORw0KGgoAAAANSUhEUgAA" + strings.Repeat("q8Zr+3/Lm0Wx", 40)
	var sb strings.Builder
	for sb.Len() < 6<<20 {
		sb.WriteString(strings.Repeat("aB3/cD4-", 200))
		sb.WriteString(" " + strings.Repeat("parse_Value2-", 40) + " ")
		sb.WriteString(png + "\n")
	}
	s := sb.String()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		withoutBlobs(s)
	}
}
