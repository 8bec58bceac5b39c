package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// coloured is text as a terminal that colours its lines shows it, saved
// with its escapes: each line in a colour, reset at its end, erased to
// its end, and a window title set before it all.
func coloured(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "\x1b[1;32m" + l + "\x1b[0m\x1b[K"
		}
	}
	return "\x1b]0;metagpt\x07" + strings.Join(lines, "\n")
}

// TestColouredConsoleLogs: a log saved from a terminal with its colours,
// written with ESC or with the 8-bit controls, reads as the same log
// without them, and its steps hold no escape.
func TestColouredConsoleLogs(t *testing.T) {
	for _, colour := range []struct {
		name    string
		write   func(string) string
		control string
	}{{"ESC", coloured, "\x1b"}, {"8-bit", eightBit, "\u009b"}} {
		for _, name := range []string{"metagpt-console.log", "crewai-task-log.txt", "aider-chat-history.md"} {
			t.Run(colour.name+"/"+name, func(t *testing.T) {
				data, err := os.ReadFile(filepath.Join("..", "testdata", "dumps", name))
				require.NoError(t, err)
				plain, err := ParseAll(t.Context(), name, data, Options{})
				require.NoError(t, err)
				got, err := ParseAll(t.Context(), name, []byte(colour.write(string(data))), Options{})
				require.NoError(t, err)
				require.Len(t, got, len(plain))
				for i := range plain {
					assert.Equal(t, plain[i].Run.Question, got[i].Run.Question)
					assert.Equal(t, plain[i].Run.Steps, got[i].Run.Steps)
					for _, s := range got[i].Run.Steps {
						assert.NotContains(t, s.Content, colour.control)
					}
				}
			})
		}
	}
}

// eightBit is text as a terminal that colours its lines with the 8-bit
// controls shows it: each line in a colour (CSI U+009B), reset at its end,
// and a window title (OSC U+009D, ended by ST U+009C) before it all.
func eightBit(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "\u009b1;32m" + l + "\u009b0m\u009bK"
		}
	}
	return "\u009d0;metagpt\u009c" + strings.Join(lines, "\n")
}

// TestNamesWithoutEscapes: a log that lost its ESC bytes keeps "[36m"
// around a coloured name; the agent is the name alone, the same as in
// the log saved without colours, and a JSON name with its escapes whole
// is its text alone too.
func TestNamesWithoutEscapes(t *testing.T) {
	name := "metagpt-console.log"
	data, err := os.ReadFile(filepath.Join("..", "testdata", "dumps", name))
	require.NoError(t, err)
	plain, err := ParseCase(name, data, Options{})
	require.NoError(t, err)
	lost := strings.NewReplacer("Alice(", "[36mAlice[0m(", "Alex(", "[1;36mAlex[0m(").Replace(string(data))
	require.NotEqual(t, string(data), lost)
	got, err := ParseCase(name, []byte(lost), Options{})
	require.NoError(t, err)
	require.Len(t, got.Run.Steps, len(plain.Run.Steps))
	for i, s := range got.Run.Steps {
		assert.Equal(t, plain.Run.Steps[i].Agent, s.Agent, "step %d", i)
	}

	chat := `[{"role": "user", "content": "Sum the column."},
		{"role": "assistant", "name": "\u001b[32mCoder\u001b[0m", "content": "The sum is 12."}]`
	c, err := ParseCase("chat.json", []byte(chat), Options{})
	require.NoError(t, err)
	require.Len(t, c.Run.Steps, 2)
	assert.Equal(t, "Coder", c.Run.Steps[1].Agent)
}

func TestPlainName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Planner", "Planner"},
		{"[31mPlanner[0m", "Planner"},
		{"[1;31mPlanner[m", "Planner[m"},
		{"\x1b[31mPlanner\x1b[0m", "Planner"},
		{"\u009b31mPlanner\u009b0m", "Planner"},
		{"[0m", ""},
		// Brackets that are no colour's remains are the name's.
		{"[main]", "[main]"},
		{"agent[2]", "agent[2]"},
		{"[m]", "[m]"},
		{"[12]m", "[12]m"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, plainName(tt.in), "%q", tt.in)
	}
}

// TestTerminalCodesInJSONText: a JSON string that kept a coloured line
// (its escapes written \u001b) gives a step the line's text alone.
func TestTerminalCodesInJSONText(t *testing.T) {
	data := `[{"role": "user", "content": "Run the tests."},
		{"role": "assistant", "content": "\u001b[31mFAILED\u001b[0m test_total: \u001b]8;;file:///a.py\u001b\\a.py\u001b]8;;\u001b\\"}]`
	c, err := ParseCase("chat.json", []byte(data), Options{})
	require.NoError(t, err)
	require.Len(t, c.Run.Steps, 2)
	assert.Equal(t, "FAILED test_total: a.py", c.Run.Steps[1].Content)
}

func TestWithoutTerminalCodes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[32mok\x1b[0m", "ok"},
		{"\x1b[38;5;208mx\x1b[m y", "x y"},
		{"a\x1b[2K\x1b[1Gb", "ab"},
		{"\x1b]0;title\x07line", "line"},
		{"\x1b]8;;https://e.x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"\x1b(Bx\x1b7y\x1b8", "xy"},
		{"\x1bPq#0\x1b\\z", "z"},
		// No sequence whole: the ESC stays, for the outputs to escape.
		{"end\x1b", "end\x1b"},
		{"cut \x1b[12", "cut \x1b[12"},
		{"\x1b]0;title\nnext", "\x1b]0;title\nnext"},
		{"\x1b\x01x", "\x1b\x01x"},
		// The 8-bit controls: CSI, OSC to BEL or ST, DCS to ST or ESC \,
		// and the other C1 controls alone, NEL leaving a space.
		{"\u009b31mred\u009b0m", "red"},
		{"\u009b38;5;208mx\u009bm y", "x y"},
		{"\u009d0;title\u0007line", "line"},
		{"\u009d8;;https://e.x\u009clink\u009d8;;\u009c", "link"},
		{"\u0090q#0\x1b\\z", "z"},
		{"a\u0084b\u0085c", "ab c"},
		{"\x1b[1m\u009b4mboth\u009b0m\x1b[0m", "both"},
		// Not whole: the control stays, for the outputs to escape.
		{"cut \u009b12", "cut \u009b12"},
		{"\u009d0;title\nnext", "\u009d0;title\nnext"},
		// Other characters in U+0080-U+00FF are text.
		{"caf\u00e9 \u00a0x", "caf\u00e9 \u00a0x"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, withoutTerminalCodes(tt.in), "%q", tt.in)
	}
}

// TestTerminalFileKeepsBinary: data with other control bytes than the
// escapes is binary (a protobuf, one of whose bytes is an ESC), and is
// read as it is.
func TestTerminalFileKeepsBinary(t *testing.T) {
	proto := []byte{0x0a, 0x1b, '[', '3', '1', 'm', 0x12, 0x02, 'h', 'i'}
	assert.Equal(t, proto, terminalFile(proto))
	assert.Equal(t, []byte("ok\n"), terminalFile([]byte("\x1b[1mok\x1b[0m\n")))
}

// FuzzWithoutTerminalCodes: reading escapes away never panics, never
// makes a text longer, and keeps valid UTF-8 valid; a name read through
// plainName is no longer than the text it came from.
func FuzzWithoutTerminalCodes(f *testing.F) {
	for _, s := range []string{"\x1b[31mred\x1b[0m", "\u009b31mred\u009b0m", "\u009d0;t\u009cx", "\u0090q\x1b\\z", "a\u0085b", "[1;36mAlex[0m", "\u009b", "\xc2", "\u009d8;;\u009c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := withoutTerminalCodes(s)
		if len(out) > len(s) {
			t.Fatalf("%q: longer, %q", s, out)
		}
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("%q: %q is not valid UTF-8", s, out)
		}
		if name := plainName(s); len(name) > len(s) {
			t.Fatalf("%q: name %q longer", s, name)
		}
	})
}

// TestTerminalFileKeepsJSONText: a raw C1 control inside a JSON string is
// the string's own character; read as the start of a terminal's sequence
// it would swallow the values after it.
func TestTerminalFileKeepsJSONText(t *testing.T) {
	for name, data := range map[string]string{
		"a CSI in a list":                 "[\"a\u009b\", \"b\"]",
		"a DCS and an ST in one object":   `{"x":"p` + "\u0090" + `","y":"secret","z":"q` + "\u009c" + `"}`,
		"one a line":                      "{\"x\":\"a\u009b\"}\n{\"y\":\"b\"}\n",
		"one a line with a blank between": "{\"x\":\"a\u0090\"}\n\n{\"y\":\"b\u009c\"}",
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, data, string(terminalFile([]byte(data))))
		})
	}
	log := "\u009b32mINFO\u009b0m done\n{\"x\": 1}\n"
	assert.Equal(t, "INFO done\n{\"x\": 1}\n", string(terminalFile([]byte(log))), "a log with a JSON line among others is text")
}
