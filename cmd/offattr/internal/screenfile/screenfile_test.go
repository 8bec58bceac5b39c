package screenfile

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/triage"
)

var records = []Record{
	{File: "runs/1.json", Agent: "Coder", Step: 0, Confidence: 0.5, Triage: triage.Review, Reason: "confidence 0.50, between", Mode: "rules",
		Candidates: []rules.Candidate{{Step: 0, Agent: "Coder", Score: 0.5, Rules: []string{"error"}}}},
	{File: "runs/bad.json", Error: "load runs/bad.json: invalid JSON at line 3, column 1"},
	{File: `odd "name", with comma.json`, Agent: "Web", Step: 12, Confidence: 0.9, Triage: triage.Clear, Reason: "confident", Mode: "rules"},
}

func TestJSONLRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, JSONL, true, false)
	require.NoError(t, err)
	for _, r := range records {
		require.NoError(t, w.Write(r))
	}
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	require.Len(t, lines, 3)
	assert.JSONEq(t, `{"file":"runs/bad.json","error":"load runs/bad.json: invalid JSON at line 3, column 1"}`, string(lines[1]))
	assert.Contains(t, string(lines[0]), `"step":0`, "step 0 is written")

	c, err := Parse(buf.Bytes(), JSONL)
	require.NoError(t, err)
	assert.Equal(t, records, c.Records)
	assert.Equal(t, int64(buf.Len()), c.Complete)
}

func TestCSVRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, CSV, true, false)
	require.NoError(t, err)
	for _, r := range records {
		require.NoError(t, w.Write(r))
	}
	assert.True(t, bytes.HasPrefix(buf.Bytes(), []byte("file,agent,step,confidence,triage,reason,mode,error\n")))
	c, err := Parse(buf.Bytes(), CSV)
	require.NoError(t, err)
	assert.True(t, c.Header)
	require.Len(t, c.Records, 3)
	want := records[0]
	want.Candidates = nil // JSONL only
	assert.Equal(t, want, c.Records[0])
	assert.Equal(t, records[1], c.Records[1])
	assert.Equal(t, records[2].File, c.Records[2].File)
}

func TestParseDropsPartialLastLine(t *testing.T) {
	data := []byte(`{"file":"a","error":"x"}` + "\n" + `{"file":"b","agent":"Co`)
	c, err := Parse(data, JSONL)
	require.NoError(t, err)
	assert.Equal(t, []Record{{File: "a", Error: "x"}}, c.Records)
	assert.Equal(t, int64(25), c.Complete)
	assert.Equal(t, map[string]bool{"a": true}, c.Files())
}

func TestParseRejectsForeignFiles(t *testing.T) {
	_, err := Parse([]byte("{\"file\":\"a\",\"error\":\"x\"}\nnot json\n"), JSONL)
	assert.ErrorContains(t, err, "line 2: not a screen record")
	_, err = Parse([]byte("{\"agent\":\"x\"}\n"), JSONL)
	assert.ErrorContains(t, err, `line 1: not a screen record: no "file" field`)
	_, err = Parse([]byte("a,b\n"), CSV)
	assert.ErrorContains(t, err, "line 1: not a screen record")
}

// An unfinished last line is cut off by --resume, so it must read as the
// start of a record (or be the zeros a crash can leave): a file of one
// line of something else, without a newline, is not a screen's.
func TestParseRejectsAForeignUnfinishedLine(t *testing.T) {
	tests := []struct {
		name   string
		data   string
		format Format
		ok     bool
	}{
		{"record begun", `{"file":"b","agent":"Co`, JSONL, true},
		{"record begun after blanks", "  {\"fi", JSONL, true},
		{"zeros after records", "{\"file\":\"a\"}\n\x00\x00\x00", JSONL, true},
		{"a compact run file", `{"history":[{"role":"human","content":"hi"}]}`, JSONL, false},
		{"text", "hello world", JSONL, false},
		{"binary", "\x89PNG\r\x1a", JSONL, false},
		{"csv header begun", "file,ag", CSV, true},
		{"csv row begun after the header", strings.Join(csvHeader, ",") + "\nrun.json,Orch", CSV, true},
		{"csv of something else", "name,price", CSV, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.data), tt.format)
			if tt.ok {
				assert.NoError(t, err)
			} else {
				assert.ErrorContains(t, err, "not a screen record")
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	c, err := ReadFile(filepath.Join(dir, "missing.jsonl"))
	require.NoError(t, err)
	assert.Empty(t, c.Records)

	path := filepath.Join(dir, "out.csv")
	require.NoError(t, os.WriteFile(path, []byte("file,agent,step,confidence,triage,reason,mode,error\nx.json,A,3,0.5000,review,r,rules,\n"), 0o644))
	c, err = ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, []Record{{File: "x.json", Agent: "A", Step: 3, Confidence: 0.5, Triage: triage.Review, Reason: "r", Mode: "rules"}}, c.Records)
}

func TestCSVCellsAreNeitherFormulasNorControls(t *testing.T) {
	rec := Record{File: "-:3", Agent: "=HYPERLINK(\"http://evil\",\"x\")", Step: 2, Confidence: 0.5, Triage: triage.Review,
		Reason: "@SUM(A1)", Mode: "rules"}
	failed := Record{File: "+runs/x.json", Error: "load +runs/x.json: \x1b[31mred\n-forged line"}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, CSV, true, false)
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Write(failed))
	assert.Equal(t, "file,agent,step,confidence,triage,reason,mode,error\n"+
		"'-:3,\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",2,0.5000,review,'@SUM(A1),rules,\n"+
		"'+runs/x.json,,,,,,,load +runs/x.json: \\x1b[31mred\\n-forged line\n", buf.String())

	c, err := Parse(buf.Bytes(), CSV)
	require.NoError(t, err)
	require.Len(t, c.Records, 2)
	assert.Equal(t, rec, c.Records[0], "read back as written: --resume and export --from see the real names")
	assert.Equal(t, "+runs/x.json", c.Records[1].File)
}

// ReadOutput reads what --resume needs, the names recorded, as Parse
// would, line by line: a records file of many lines is not held whole.
func TestReadOutputAsParse(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, data string
	}{
		{"jsonl", `{"file":"a","error":"x"}` + "\n" + `{"file":"b","key":"0123456789abcdef"}` + "\n" + `{"file":"c","agent":"Co`},
		{"csv", strings.Join(csvHeader, ",") + "\na.json,Orch,1,0.5,review,r,rules,\nb.json,Orch,1,0.5,review,r,rules,\nc.js"},
		{"empty", ""},
		{"zeros", "\x00\x00"},
		{"foreign", "hello"},
		{"bad line", "{\"file\":\"a\"}\nnot json\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name+".jsonl")
			format := JSONL
			if tt.name == "csv" {
				path, format = filepath.Join(dir, tt.name+".csv"), CSV
			}
			require.NoError(t, os.WriteFile(path, []byte(tt.data), 0o644))
			want, wantErr := Parse([]byte(tt.data), format)
			got, err := ReadOutput(path)
			if wantErr != nil {
				require.Error(t, err)
				assert.Contains(t, err.Error(), wantErr.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, want.Complete, got.Complete)
			assert.Equal(t, len(want.Records), got.Records)
			assert.Equal(t, want.Files(), got.Names)
		})
	}

	// Many records: what is kept is the names, not the records.
	path := filepath.Join(dir, "many.jsonl")
	line := `{"file":"run.json","agent":"` + strings.Repeat("A", 500) + `","step":3}` + "\n"
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat(line, 20000)), 0o644))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, err := ReadOutput(path)
	require.NoError(t, err)
	runtime.GC()
	runtime.ReadMemStats(&after)
	assert.Equal(t, 20000, got.Records)
	assert.Less(t, int64(after.HeapAlloc)-int64(before.HeapAlloc), int64(1<<20), "the records are not kept")
	runtime.KeepAlive(got)
}

// TestJSONLNamesRoundTrip holds every file name a screen can be given to
// reading back as written: JSON strings hold only UTF-8, so a name with
// other bytes would come back with U+FFFD in their place, and --resume,
// export --from and report --pages would look for a file that is not there.
func TestJSONLNamesRoundTrip(t *testing.T) {
	for _, name := range []string{
		"runs/\xff\xfe05.json",
		`"quoted".json`,
		`"\xff".json`,
		"runs/plain.json",
		"runs/\x1b[31mred\u202e.json",
	} {
		t.Run(name, func(t *testing.T) {
			for _, r := range []Record{
				{File: name, Agent: "Coder", Step: 1, Confidence: 0.5, Triage: triage.Review, Reason: "r", Mode: "rules"},
				{File: name, Error: "load: bad"},
			} {
				var buf bytes.Buffer
				w, err := NewWriter(&buf, JSONL, true, false)
				require.NoError(t, err)
				require.NoError(t, w.Write(r))
				c, err := Parse(buf.Bytes(), JSONL)
				require.NoError(t, err)
				require.Len(t, c.Records, 1)
				assert.Equal(t, r, c.Records[0])
				assert.True(t, c.Files()[name], "--resume finds the input by its name")
			}
		})
	}
}
