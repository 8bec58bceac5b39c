package redact

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/redact/redacttest"
	"github.com/offattr/offattr/run"
)

// plantInFormats writes text into a run file of every input format and
// returns the paths by format name: Who&When and transcripts written
// here, telemetry from the examples in testdata/telemetry with text in
// place of their error message.
func plantInFormats(t *testing.T, text string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	quoted, err := json.Marshal(text)
	require.NoError(t, err)
	inString := string(quoted[1 : len(quoted)-1])
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
		return path
	}
	paths := map[string]string{
		"whowhen": write("whowhen.json", `{"question": "Find the order.", "ground_truth": "42", "history": [`+
			`{"role": "human", "content": "Find the order."}, {"role": "Assistant", "content": `+string(quoted)+`},`+
			`{"role": "Checker", "content": "done"}]}`),
		"transcript array":    write("transcript.json", `[{"role": "user", "content": "Find the order."}, {"role": "assistant", "content": `+string(quoted)+`}]`),
		"transcript lines":    write("transcript.jsonl", `{"role": "user", "content": "Find the order."}`+"\n"+`{"role": "assistant", "content": `+string(quoted)+`}`+"\n"),
		"transcript messages": write("messages.json", `{"messages": [{"role": "user", "content": "Find the order."}, {"role": "tool", "name": "lookup", "content": `+string(quoted)+`}]}`),
	}
	examples, err := filepath.Glob(filepath.Join("..", "testdata", "telemetry", "*"))
	require.NoError(t, err)
	require.NotEmpty(t, examples)
	for _, ex := range examples {
		b, err := os.ReadFile(ex)
		require.NoError(t, err)
		if !utf8.Valid(b) {
			continue // a binary file (a Parquet frame): text of another length planted in it breaks it
		}
		body := strings.ReplaceAll(string(b), "no forecast for city Olso", inString)
		if filepath.Ext(ex) == ".csv" {
			body = plantInTable(t, b, "no forecast for city Olso", text)
		}
		require.NotEqual(t, string(b), body, "%s holds the error message the secret replaces", ex)
		paths[filepath.Base(ex)] = write(filepath.Base(ex), body)
	}
	return paths
}

// plantInTable writes text in place of old in a CSV table's cells, as
// pandas writes a frame: in a list or dict a cell holds, as Python writes
// a string inside it; elsewhere as it is; each cell quoted as CSV quotes
// it.
func plantInTable(t *testing.T, table []byte, old, text string) string {
	t.Helper()
	records, err := csv.NewReader(bytes.NewReader(table)).ReadAll()
	require.NoError(t, err)
	inRepr := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(text)
	for _, rec := range records {
		for k, cell := range rec {
			if strings.HasPrefix(cell, "[") || strings.HasPrefix(cell, "{") {
				rec[k] = strings.ReplaceAll(cell, old, inRepr)
			} else {
				rec[k] = strings.ReplaceAll(cell, old, text)
			}
		}
	}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	require.NoError(t, w.WriteAll(records))
	return out.String()
}

// TestPlantedSecretsInEveryFormat writes each planted secret into a file of
// each input format, loads it, and checks that no field of the redacted
// run holds the secret, while the run as loaded did.
func TestPlantedSecretsInEveryFormat(t *testing.T) {
	p, err := Compile(Options{})
	require.NoError(t, err)
	for _, ps := range plantedSecrets {
		t.Run(ps.name, func(t *testing.T) {
			for format, path := range plantInFormats(t, ps.text()) {
				cases, err := run.LoadAll(context.Background(), path, run.Options{})
				require.NoError(t, err, format)
				loaded := false
				for _, c := range cases {
					// The file's name is the test's, not the log's: a
					// temporary directory's random digits may hold a
					// short secret's.
					c.Run.Source = ""
					in := strings.Join(redacttest.Strings(c.Run), "\n")
					loaded = loaded || strings.Contains(in, ps.secret)
					out := p.NewRedactor().Case(*c)
					for _, s := range redacttest.Strings(out) {
						assert.NotContains(t, s, ps.secret, "%s: %s", format, ps.name)
					}
				}
				assert.True(t, loaded, "%s: the secret was not read from the file, so this checks nothing", format)
			}
		})
	}
}
