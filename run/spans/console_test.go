package spans

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAmongText(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"lines around a value", "start\n{\"a\": 1}\nend\n", "     \n{\"a\": 1}\n   \n", true},
		{"a value's own lines kept", "x\n  {\n  \"a\": [1,\n 2]\n}\ny", " \n  {\n  \"a\": [1,\n 2]\n}\n ", true},
		{"text after a value on its line", "{\"a\": 1} done\n[2]\n", "{\"a\": 1}     \n[2]\n", true},
		{"only values", "{\"a\": 1}\n{\"b\": 2}\n", "", false},
		{"only text", "hello\nworld\n", "", false},
		{"a value cut short", "log\n{\"a\": [1,\n", "", false},
		{"a brace inside a line is text", "x = {1}\n{\"a\": 1}\n", "       \n{\"a\": 1}\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := AmongText([]byte(tt.in))
			assert.Equal(t, tt.ok, ok)
			if tt.ok {
				assert.Equal(t, tt.want, string(got))
			}
		})
	}
}

// FuzzAmongText: on any input it returns, and what it keeps is the input
// with some bytes turned to spaces, line breaks where they were.
func FuzzAmongText(f *testing.F) {
	for _, s := range []string{"start\n{\"a\": 1}\nend\n", "{\"a\": \"}\\\"\"}\nx", "[\n{]\n", "\r\n{}\r\nok"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, ok := AmongText(in)
		if !ok {
			return
		}
		if len(out) != len(in) {
			t.Fatalf("length %d, want %d", len(out), len(in))
		}
		for i := range in {
			if out[i] != in[i] && out[i] != ' ' {
				t.Fatalf("byte %d is %q, want %q or a space", i, out[i], in[i])
			}
		}
		if bytes.Count(out, []byte("\n")) != bytes.Count(in, []byte("\n")) {
			t.Fatal("line breaks moved")
		}
	})
}
