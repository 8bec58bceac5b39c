package exportcmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/redact"
)

func TestExportRedactsByDefault(t *testing.T) {
	tests := []struct {
		args   []string
		masked bool
	}{
		{[]string{"run.json"}, true},
		{[]string{"run.json", "--no-redact"}, false},
		{[]string{"run.json", "--redact=false"}, false},
		{[]string{"run.json", "--redact-patterns", "p.txt"}, true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var got *ExportOptions
			cmd := NewCmdExport(&cmdutil.IOStreams{}, func(o *ExportOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			require.NoError(t, cmd.Execute())
			assert.Equal(t, tt.masked, got.Redact.On && !got.Redact.Off)
		})
	}

	// End to end: a plain `export` of a leaky run writes no secret.
	leaky := filepath.Join("..", "..", "..", "..", "testdata", "leaky", "mailer.json")
	dir := t.TempDir()
	var seen *redact.Patterns
	cmd := NewCmdExport(&cmdutil.IOStreams{In: strings.NewReader(""), Out: &strings.Builder{}, ErrOut: &strings.Builder{}}, func(o *ExportOptions) error {
		o.Analyzer = func(p *redact.Patterns) (engine.AnalyzeFunc, error) {
			seen = p
			return engine.New(engine.Options{Redact: p})
		}
		return exportRun(context.Background(), o)
	})
	cmd.SetArgs([]string{leaky, "-o", dir})
	require.NoError(t, cmd.Execute())
	require.NotNil(t, seen, "the analyzer got patterns")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 2)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		for _, s := range []string{"bob@example.com", "Hunter22", "10.2.3.4"} {
			assert.NotContains(t, string(data), s, e.Name())
		}
	}
}

func TestExportReadsStdin(t *testing.T) {
	data, err := os.ReadFile(magentic)
	require.NoError(t, err)
	opts, out, _ := newOpts(t, "-")
	opts.IO.In = strings.NewReader(string(data))
	opts.Load.In = opts.IO.In
	require.NoError(t, exportRun(context.Background(), opts))
	md := strings.TrimSpace(out.String())
	assert.True(t, strings.HasPrefix(filepath.Base(md), "stdin-"), md)

	// --from - reads a screen's records from standard input.
	opts, out, _ = newOpts(t)
	opts.From = "-"
	opts.IO.In = strings.NewReader(`{"file":"` + magentic + `","agent":"X","step":1,"confidence":0.1,"triage":"escalate","reason":"low","mode":"rules"}` + "\n")
	require.NoError(t, exportRun(context.Background(), opts))
	assert.Contains(t, out.String(), "magentic-")
}
