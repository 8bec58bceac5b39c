package escape

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLineAndText(t *testing.T) {
	tests := []struct {
		name, in, line, text string
	}{
		{"plain", "WebSurfer", "WebSurfer", "WebSurfer"},
		{"other scripts kept", "Ассистент 助手 🤖 café", "Ассистент 助手 🤖 café", "Ассистент 助手 🤖 café"},
		{"forged lines", "WebSurfer\n  step 0\n  confidence 0.99\x1b[8m", `WebSurfer\n  step 0\n  confidence 0.99\x1b[8m`, "WebSurfer\n  step 0\n  confidence 0.99\\x1b[8m"},
		{"tab and carriage return", "a\tb\rc", `a\tb\rc`, "a\tb\\rc"},
		{"C1 CSI and DEL", "x\u009b31my\x7f", `x\u009b31my\x7f`, `x\u009b31my\x7f`},
		{"bidi override", "admin\u202egnp.exe", `admin\u202egnp.exe`, `admin\u202egnp.exe`},
		{"isolates and marks", "a\u2066b\u2069c\u200fd", `a\u2066b\u2069c\u200fd`, `a\u2066b\u2069c\u200fd`},
		{"line separators", "a\u2028b\u2029c", `a\u2028b\u2029c`, `a\u2028b\u2029c`},
		{"zero width", "Web\u200bSurfer", `Web\u200bSurfer`, `Web\u200bSurfer`},
		{"invalid UTF-8", "a\xffb\x9b", `a\xffb\x9b`, `a\xffb\x9b`},
		{"bell and NUL", "\a\x00", `\a\x00`, `\a\x00`},
		{"backslashes kept", `C:\temp\n`, `C:\temp\n`, `C:\temp\n`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.line, Line(tt.in))
			assert.Equal(t, tt.text, Text(tt.in))
			assert.NotContains(t, Line(tt.in), "\n")
			assert.NotContains(t, Line(tt.in), "\x1b")
		})
	}
}

func TestCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"WebSurfer", "WebSurfer"},
		{"=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"},
		{"+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"-:12", "'-:12"},
		{"'quoted", "''quoted"},
		{"-1", "-1"},
		{"+0.5", "+0.5"},
		{"0.8200", "0.8200"},
		{"-", "'-"},
		{"-.", "'-."},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := Cell(tt.in)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.in, Uncell(got), "round trip")
		})
	}
}

func TestJSON(t *testing.T) {
	v := map[string]any{"agent": "x\u009b31m\u202e\x7fé\x1b\n", "n": []int{1, 2}}
	data, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	safe := JSON(data)
	assert.NotContains(t, string(safe), "\u009b")
	assert.NotContains(t, string(safe), "\u202e")
	assert.NotContains(t, string(safe), "\x7f")
	assert.Contains(t, string(safe), `\u009b31m\u202e\u007fé`)
	assert.Contains(t, string(safe), "\n  ", "the indentation stays")
	var back map[string]any
	require.NoError(t, json.Unmarshal(safe, &back))
	assert.Equal(t, v["agent"], back["agent"], "decodes to the same text")

	plain := []byte(`{"a":"b"}`)
	assert.Equal(t, plain, JSON(plain))
}

func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\x1b[8m", "\u202e", "\xff", "é\u009b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Line(s), Text(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("%q gave invalid UTF-8 %q", s, out)
			}
			for _, r := range out {
				if Unsafe(r) && r != '\n' && r != '\t' {
					t.Fatalf("%q kept unsafe %U in %q", s, r, out)
				}
			}
		}
		if Line(s) == s && firstUnsafe(s, false) >= 0 {
			t.Fatalf("%q needed escaping", s)
		}
		if got := Uncell(Cell(s)); got != s {
			t.Fatalf("Uncell(Cell(%q)) = %q", s, got)
		}
	})
}

func TestNameRoundTrips(t *testing.T) {
	tests := []struct{ in, want string }{
		{"runs/1.json", "runs/1.json"},
		{"", ""},
		{"día/ünïcode 名前.json", "día/ünïcode 名前.json"},
		{`back\slash.json`, `back\slash.json`},
		{"a\x1b[31mb\x07\r\n\u202ec\u200b\u009b.json", `"a\x1b[31mb\a\r\n\u202ec\u200b\u009b.json"`},
		{`"quoted".json`, `"\"quoted\".json"`},
		{"bad\xffbyte", `"bad\xffbyte"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := Name(tt.in)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.in, Unname(got))
			assert.Equal(t, got, Line(got), "nothing left to escape")
		})
	}
}
