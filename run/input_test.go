package run

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadStdin(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "runs", "magentic.json"))
	require.NoError(t, err)
	c, err := LoadCase(Stdin, Options{Stdin: strings.NewReader(string(data))})
	require.NoError(t, err)
	assert.Equal(t, "-", c.Run.Source)
	assert.Len(t, c.Run.Steps, 12)
	require.NotNil(t, c.Label)

	_, err = Load(Stdin, Options{Stdin: strings.NewReader("")})
	assert.EqualError(t, err, "load -: file is empty")
	_, err = Load(Stdin, Options{Stdin: iotest.ErrReader(errors.New("broken pipe"))})
	assert.EqualError(t, err, "load -: broken pipe")
}

func TestMaxInput(t *testing.T) {
	path := filepath.Join("..", "testdata", "runs", "magentic.json")
	info, err := os.Stat(path)
	require.NoError(t, err)
	size := info.Size()
	data, err := os.ReadFile(path)
	require.NoError(t, err)

	tests := []struct {
		name string
		load func(max int64) error
	}{
		{"file", func(max int64) error { _, err := Load(path, Options{MaxInput: max}); return err }},
		{"stdin", func(max int64) error {
			_, err := Load(Stdin, Options{MaxInput: max, Stdin: iotest.HalfReader(strings.NewReader(string(data)))})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.load(size), "exactly the limit is read")
			require.NoError(t, tt.load(0), "0 is no limit")
			err := tt.load(size - 1)
			require.ErrorIs(t, err, ErrTooLarge)
			assert.Contains(t, err.Error(), "--max-input", "the message names the flag")
			assert.Contains(t, err.Error(), FormatSize(size-1)+" limit")
		})
	}
	_, err = Load(path, Options{MaxInput: 1 << 10})
	assert.EqualError(t, err, "load "+path+": input is "+FormatSize(size)+", larger than the 1 KiB limit; raise --max-input to read it")
}

func TestFormatSize(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {512, "512 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"}, {256 << 20, "256 MiB"},
		{200*1<<20 + 300<<10, "200.3 MiB"}, {3 << 30, "3 GiB"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, FormatSize(tt.n), "%d", tt.n)
	}
}

func TestExcerpt(t *testing.T) {
	short := strings.Repeat("a", MaxText)
	assert.Equal(t, short, Excerpt(short), "up to MaxText the text is whole")

	// Lines of 100 bytes: cuts fall on line breaks. (Checks are on
	// booleans: a failing assertion on megabytes of text prints them.)
	line := strings.Repeat("x", 99) + "\n"
	long := "HEAD\n" + strings.Repeat(line, 3*MaxText/100) + "TAIL"
	got := Excerpt(long)
	assert.Less(t, len(got), MaxText+200)
	assert.True(t, strings.HasPrefix(got, "HEAD\n"))
	assert.True(t, strings.HasSuffix(got, "TAIL"))
	head, rest, ok := strings.Cut(got, "[… offattr left out ")
	require.True(t, ok, "the cut is marked")
	assert.True(t, strings.HasSuffix(head, "x\n\n"), "the head ends at a line's end")
	marker, tail, ok := strings.Cut(rest, " …]\n")
	require.True(t, ok)
	assert.True(t, strings.HasPrefix(tail, "x"), "the tail starts at a line's start")
	omitted := len(long) - (len(head) - 1) - len(tail)
	assert.Equal(t, FormatSize(int64(omitted))+" of this "+FormatSize(int64(len(long)))+" text here", marker)
	assert.True(t, got == Excerpt(got), "an excerpt is short enough to be itself")

	// One line of multi-byte runes: cuts fall on rune boundaries.
	runes := strings.Repeat("é", MaxText)
	got = Excerpt(runes)
	assert.True(t, strings.HasPrefix(got, "éé"))
	assert.True(t, strings.HasSuffix(got, "éé"))
	assert.True(t, utf8.ValidString(got), "cut at rune boundaries")
	for _, part := range strings.Split(got, "\n") {
		if !strings.HasPrefix(part, "[") {
			assert.Zero(t, len(part)%2, "whole runes only")
		}
	}
}

func TestLoadBoundsHugeTexts(t *testing.T) {
	big := strings.Repeat("word ", MaxText/2) // 2.5 MiB
	data := `{"question": "` + big + `", "history": [{"role": "a", "content": "` + big + `"},
		{"role": "b", "content": "ok", "tool_calls": [{"function": {"name": "f", "arguments": "` + big + `"}}]}]}`
	r, err := Parse("big.json", []byte(data), Options{})
	require.NoError(t, err)
	for _, s := range []string{r.Question, r.Steps[0].Content, r.Steps[1].ToolCalls()[0].Arguments} {
		assert.Less(t, len(s), MaxText+200)
		assert.Contains(t, s, "offattr left out")
	}
	assert.Equal(t, "ok", r.Steps[1].Content)
}

// TestLoadReadsCRLFAsLF: a run written with CRLF line ends (a log saved on
// Windows) reads as the same run written with LF, in every text a step,
// the task and the ground truth hold, whatever the format.
func TestLoadReadsCRLFAsLF(t *testing.T) {
	tests := []struct{ name, data string }{
		{"who&when", `{"question": "How many?\r\nCount them.", "ground_truth": "3\r\n", "history": [
			{"role": "assistant", "name": "A", "content": "Traceback (most recent call last):\r\n  File \"/usr/lib/python3.11/site-packages/x.py\", line 1, in f\r\nValueError: bad\r\n"}]}`},
		{"chat with a call", `[{"role": "user", "content": "How many?\r\nCount them."},
			{"role": "assistant", "content": "Counting:\r\n- one\r\n- two", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"q\":\r\n \"x\"}"}}]}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse("crlf.json", []byte(tt.data), Options{})
			require.NoError(t, err)
			texts := []string{r.Question, r.GroundTruth}
			for _, s := range r.Steps {
				texts = append(texts, s.Content)
				for _, c := range s.ToolCalls() {
					texts = append(texts, c.Arguments)
				}
			}
			for _, s := range texts {
				assert.NotContains(t, s, "\r", "%q", s)
			}
			assert.Contains(t, r.Steps[len(r.Steps)-1].Content, "\n", "the lines stay")
		})
	}
}

// fuzzFormat checks that a reader never panics, fails with one line that
// names the file, and that what it reads is a run: steps numbered from 0,
// each with an agent, and no text over the bound.
func fuzzFormat(f *testing.F, format Format) {
	for _, dir := range []string{"runs", "bad", "telemetry", "traces", "calls", "proto", "dumps"} {
		entries, _ := os.ReadDir(filepath.Join("..", "testdata", dir))
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join("..", "testdata", dir, e.Name()))
			if err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkParsed(t, data, format) })
}

// checkParsed parses data as the format and fails on what no file may
// give: an error of more than one line or not naming the file, a run
// without steps, a step out of place, without an agent or over the bound,
// or another answer when read again (a reader whose output follows a
// map's order).
func checkParsed(t *testing.T, data []byte, format Format) {
	t.Helper()
	cases, err := ParseAll(context.Background(), "fuzz.json", data, Options{Format: format})
	again, errAgain := ParseAll(context.Background(), "fuzz.json", data, Options{Format: format})
	if first, second := parsedText(cases, err), parsedText(again, errAgain); first != second {
		t.Fatalf("read twice, two answers:\n%s\n%s", first, second)
	}
	var c *Case
	if err == nil {
		c, err = one("fuzz.json", cases)
	}
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "load fuzz.json") || strings.Contains(msg, "\n") { // fuzz.json#TRACE for a trace
			t.Fatalf("error %q: want one line naming the file", msg)
		}
		return
	}
	if len(c.Run.Steps) == 0 {
		t.Fatal("a run without steps was accepted")
	}
	for i, s := range c.Run.Steps {
		if s.Index != i || s.Agent == "" || len(s.Content) > MaxText+200 {
			t.Fatalf("step %d: index %d, agent %q, %d bytes", i, s.Index, s.Agent, len(s.Content))
		}
	}
}

// parsedText is what a reading gave, as text to compare: each run and
// its label, or the error.
func parsedText(cases []*Case, err error) string {
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, c := range cases {
		data, merr := json.Marshal(struct {
			Run   *Run
			Label *Label
		}{c.Run, c.Label})
		if merr != nil {
			return merr.Error()
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}

func FuzzParseWhoWhen(f *testing.F)    { fuzzFormat(f, FormatWhoWhen) }
func FuzzParseTranscript(f *testing.F) { fuzzFormat(f, FormatTranscript) }

func TestLoadCutsHugeStringsBeforeDecoding(t *testing.T) {
	// Escapes everywhere: a cut must not split one. 6 MiB of them.
	unit := `line \"quoted\" \u00e9t\u00e9 \\ back\n`
	body := strings.Repeat(unit, 6*MaxText/len(unit))
	data := `{"question": "q", "history": [{"role": "a", "content": "START ` + body + ` END"}, {"role": "b", "content": "ok"}]}`
	r, err := Parse("huge.json", []byte(data), Options{})
	require.NoError(t, err)
	c := r.Steps[0].Content
	assert.LessOrEqual(t, len(c), MaxText)
	assert.True(t, strings.HasPrefix(c, `START line "quoted" été \ back`+"\n"), "the head decodes as it was written")
	assert.True(t, strings.HasSuffix(c, "back\n END"), "and so does the tail")
	assert.Equal(t, 1, strings.Count(c, "[… offattr left out about "), "one cut, not cut again")
	assert.True(t, utf8.ValidString(c))
	assert.Equal(t, "ok", r.Steps[1].Content)

	// A string with nothing safe to cut after is decoded whole, then cut.
	hexes := strings.Repeat(`\u0041`, 5*MaxText/6)
	r, err = Parse("hex.json", []byte(`[{"role": "a", "content": "`+hexes+`"}]`), Options{})
	require.NoError(t, err)
	assert.LessOrEqual(t, len(r.Steps[0].Content), MaxText+200)
	assert.True(t, strings.HasPrefix(r.Steps[0].Content, "AAAA"))
}

// TestLoadGzip: a gzip-compressed run reads as the run it holds, from a
// file or standard input; the size limit holds for what it decompresses
// to; a broken stream is an error naming the file.
func TestLoadGzip(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "runs", "magentic.json"))
	require.NoError(t, err)
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	_, err = w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	dir := t.TempDir()
	path := filepath.Join(dir, "magentic.json.gz")
	require.NoError(t, os.WriteFile(path, z.Bytes(), 0o644))

	plain, err := Parse("magentic.json", data, Options{})
	require.NoError(t, err)
	got, err := Load(path, Options{})
	require.NoError(t, err)
	assert.Equal(t, plain.Steps, got.Steps)
	got, err = Load(Stdin, Options{Stdin: bytes.NewReader(z.Bytes())})
	require.NoError(t, err)
	assert.Equal(t, plain.Steps, got.Steps)

	_, err = Load(path, Options{MaxInput: int64(len(data)) - 1})
	require.ErrorIs(t, err, ErrTooLarge, "the limit holds for the decompressed run, though the file is within it")

	broken := filepath.Join(dir, "broken.json.gz")
	require.NoError(t, os.WriteFile(broken, z.Bytes()[:z.Len()/2], 0o644))
	_, err = Load(broken, Options{})
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "load "+broken+": gzip: "), err.Error())
}

func TestIsRunFile(t *testing.T) {
	for name, want := range map[string]bool{
		"run.json": true, "runs.jsonl": true, "run.json.gz": true, "RUNS.JSONL.GZ": true,
		"trace.binpb": true, "trace.pb": true, "TRACE.PB.GZ": true,
		"django__django-11099.traj": true, "run.traj.gz": true, "trace_dataset-2c5b.parquet": true,
		".aider.chat.history.md": true, "proj/.aider.chat.history.md": true,
		"run.gz": false, "notes.txt": false, "run.json.bak": false, "json": false, "run.pbx": false, "README.md": false, "history.md": false,
	} {
		assert.Equal(t, want, IsRunFile(name), name)
	}
}

// TestIsRunFileAt: in a directory of runs, a file named without an
// extension is read when its text begins as JSON does (Genkit's trace
// store names each file by its trace's id), in any encoding the loaders
// read, and not otherwise.
func TestIsRunFileAt(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, content string
		want          bool
	}{
		{"0af7651916cd43dd8448eb211c80319c", "\n  {\"traceId\": \"0af7651916cd43dd8448eb211c80319c\", \"spans\": {}}", true},
		{"spans", "\ufeff[{\"name\": \"llm\"}]", true},
		// As PowerShell's Out-File saves it: UTF-16 with a byte-order mark,
		// which every loader reads (textReader).
		{"chat", "\xff\xfe[\x00{\x00}\x00]\x00", true},
		{"chat-be", "\x00[\x00{\x00}\x00]", true},
		{"run.json", "", true},
		{"LICENSE", "MIT License\n\nCopyright (c) ...", false},
		{"empty", "", false},
		{"notes.md", "{\"a\": 1}", false},
		{"spans.txt", "{\n    \"name\": \"chat gpt-4o\",\n", true},
		{"runtime.log", "{\"id\": 140001, \"agent_name\": \"user_proxy\"}\n", true},
		{"maxim.log", "trace{id=6c3b,action=create,data={\"name\":\"trip\"}}\n", true},
		{"chat.txt", "User: hello\nAssistant: hi\n", false},
		// A CrewAI crew's task log in text, under the name its
		// output_log_file was given: read whatever that name is.
		{"logs.txt", "2025-05-28 10:00:01: task_name=\"research\", task=\"Find it.\", agent=\"Researcher\", status=\"started\"\n", true},
		{"crew.log", "\ufeff2025-05-28 10:00:01: task_name=\"research\", task=\"Find it.\", agent=\"Researcher\", status=\"started\"\n", true},
		{"long.txt", "2025-05-28 10:00:01: task_name=\"research\", task=\"" + strings.Repeat("Find it. ", 80) + "\", agent=\"Researcher\", status=\"started\"\n", true},
		{"server.log", "2025-05-28 10:00:01: GET /health 200\n", false},
		{"notes.md", "2025-05-28 10:00:01: task_name=\"research\", task=\"Find it.\", agent=\"Researcher\", status=\"started\"\n", false},
	} {
		path := filepath.Join(dir, tt.name)
		require.NoError(t, os.WriteFile(path, []byte(tt.content), 0o644))
		assert.Equal(t, tt.want, IsRunFileAt(path), tt.name)
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "traces"), 0o755))
	assert.False(t, IsRunFileAt(filepath.Join(dir, "traces")), "a directory")
	assert.False(t, IsRunFileAt(filepath.Join(dir, "missing")), "no such file")
}

// utf16Bytes is s in UTF-16, little- or big-endian, with a byte-order mark
// or without, as Windows tools write text by default.
func utf16Bytes(s string, bigEndian, bom bool) []byte {
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xfeff}, units...)
	}
	out := make([]byte, 0, 2*len(units))
	for _, u := range units {
		if bigEndian {
			out = binary.BigEndian.AppendUint16(out, u)
		} else {
			out = binary.LittleEndian.AppendUint16(out, u)
		}
	}
	return out
}

// TestLoadUTF16: a run saved as UTF-16, with a byte-order mark or without,
// either byte order, plain or compressed, reads as the same run saved as
// UTF-8; and so does a labels file. UTF-32 is not read, and the error says
// the file is not JSON.
func TestLoadUTF16(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"runs/magentic.json", "telemetry/otel-sdk.jsonl"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", name))
		require.NoError(t, err)
		want, err := Parse(filepath.Base(name), data, Options{})
		require.NoError(t, err)
		for _, c := range []struct {
			what           string
			bigEndian, bom bool
		}{
			{"little-endian with a mark", false, true},
			{"big-endian with a mark", true, true},
			{"little-endian without a mark", false, false},
			{"big-endian without a mark", true, false},
		} {
			encoded := utf16Bytes(string(data), c.bigEndian, c.bom)
			path := filepath.Join(dir, filepath.Base(name))
			require.NoError(t, os.WriteFile(path, encoded, 0o644))
			got, err := Load(path, Options{})
			require.NoError(t, err, "%s, %s", name, c.what)
			assert.Equal(t, want.Steps, got.Steps, "%s, %s", name, c.what)

			var z bytes.Buffer
			w := gzip.NewWriter(&z)
			_, err = w.Write(encoded)
			require.NoError(t, err)
			require.NoError(t, w.Close())
			got, err = Load(Stdin, Options{Stdin: bytes.NewReader(z.Bytes())})
			require.NoError(t, err, "%s, %s, compressed", name, c.what)
			assert.Equal(t, want.Steps, got.Steps, "%s, %s, compressed", name, c.what)
		}
	}

	labels := filepath.Join(dir, "labels.jsonl")
	require.NoError(t, os.WriteFile(labels, utf16Bytes(`{"trace_id":"T1","span_id":"S1"}`+"\r\n", false, true), 0o644))
	ls, err := ReadLabels(labels, 0)
	require.NoError(t, err)
	assert.Equal(t, SpanLabels{"t1": {TraceID: "T1", SpanID: "S1"}}, ls)

	utf32 := filepath.Join(dir, "utf32.json")
	require.NoError(t, os.WriteFile(utf32, []byte{0xff, 0xfe, 0, 0, '{', 0, 0, 0, '}', 0, 0, 0}, 0o644))
	_, err = Load(utf32, Options{})
	assert.ErrorContains(t, err, "load "+utf32+": ")
	assert.ErrorContains(t, err, "not JSON")
}

func FuzzParseClaudeCode(f *testing.F) { fuzzFormat(f, FormatClaudeCode) }
func FuzzParseCodex(f *testing.F)      { fuzzFormat(f, FormatCodex) }
