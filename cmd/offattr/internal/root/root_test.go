package root

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/rules"
)

func execute(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := NewCmdRoot(&cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), errOut.String(), err
}

func TestUsageErrors(t *testing.T) {
	run := filepath.Join("..", "..", "..", "..", "testdata", "runs", "magentic.json")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown command", []string{"analyse", run}, `unknown command "analyse" for "offattr"`},
		{"unknown flag", []string{"analyze", run, "--jsn"}, "unknown flag: --jsn"},
		{"bad flag value", []string{"analyze", run, "--alternatives", "many"}, `invalid argument "many"`},
		{"missing argument", []string{"analyze"}, "accepts 1 arg(s), received 0"},
		{"extra argument", []string{"graph", run, run}, "accepts 1 arg(s), received 2"},
		{"bad input format", []string{"analyze", run, "--input-format", "yaml"}, `--input-format: unknown format "yaml"`},
		{"bad size", []string{"analyze", run, "--max-input", "lots"}, `"lots" is not a size`},
		{"missing --step", []string{"context", run}, `required flag "--step" not set`},
		{"bad graph format", []string{"graph", run, "--format", "svg"}, `unknown --format "svg"`},
		{"bad shard", []string{"screen", run, "--shard", "3/3"}, "i must be 0..2"},
		{"mistyped command", []string{"anlyze", run}, `unknown command "anlyze" for "offattr"; did you mean analyze?`},
		{"help of an unknown topic", []string{"help", "nope"}, `unknown command "nope"`},
		{"help of a mistyped topic", []string{"help", "glosary"}, "did you mean glossary?"},
		{"help of a subcommand a command lacks", []string{"help", "analyze", "x"}, `"offattr analyze" has no subcommand "x"`},
		{"strategy without --model", []string{"analyze", run, "--strategy", "bogus"}, "want one of rank, sweep, auto"},
		{"timeout not positive", []string{"analyze", run, "--timeout", "0s"}, "must be positive"},
		{"lambda not positive", []string{"fit", run, "--lambda", "0"}, "must be above 0"},
		{"unknown rule", []string{"analyze", run, "--rules", "local_fault,bogus"}, `unknown name "bogus"`},
		{"contradicting redaction", []string{"export", run, "--no-redact", "--redact-patterns", "p.txt"}, "contradict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := execute(t, tt.args...)
			var usage *cmdutil.UsageError
			require.ErrorAs(t, err, &usage)
			assert.ErrorContains(t, err, tt.want)
		})
	}
	_, _, err := execute(t, "analyze", "nope.json")
	require.Error(t, err)
	var usage *cmdutil.UsageError
	assert.False(t, errors.As(err, &usage), "a missing input is a failed input, not a usage error: %v", err)
}

func TestRootAloneShowsHelp(t *testing.T) {
	out, _, err := execute(t)
	require.NoError(t, err)
	assert.Contains(t, out, "Available Commands:")
	assert.Contains(t, out, "Exit status: 0 every input attributed; 1 some input failed")
	assert.Contains(t, out, "glossary", "listed as a help topic")
}

func TestVersionFlag(t *testing.T) {
	out, _, err := execute(t, "--version")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(out, "offattr "), out)
}

func TestVersion(t *testing.T) {
	info := func(v string, settings ...string) *debug.BuildInfo {
		b := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/offattr/offattr", Version: v}}
		for i := 0; i+1 < len(settings); i += 2 {
			b.Settings = append(b.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return b
	}
	tests := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"go install @v1.2.0", info("v1.2.0"), true, "v1.2.0 (revision not recorded) go1.26.8"},
		{"built from a checkout", info("(devel)", "vcs.revision", "9b8baf5a", "vcs.time", "2026-11-23T01:15:48Z", "vcs.modified", "false"), true,
			"(devel) (revision 9b8baf5a, 2026-11-23T01:15:48Z) go1.26.8"},
		{"with local changes", info("(devel)", "vcs.revision", "9b8baf5a", "vcs.modified", "true"), true,
			"(devel) (revision 9b8baf5a, with uncommitted changes) go1.26.8"},
		{"pseudo-version", info("v0.0.0-20261123011548-9b8baf5ae094", "vcs.revision", "9b8baf5ae094"), true,
			"v0.0.0-20261123011548-9b8baf5ae094 (revision 9b8baf5ae094) go1.26.8"},
		{"no build info", nil, false, "unknown (no build information)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, version(tt.info, tt.ok))
		})
	}
}

func TestGlossary(t *testing.T) {
	out, _, err := execute(t, "help", "glossary")
	require.NoError(t, err)
	for _, term := range []string{"L1-L4", "OTAR", "trial", "loop group", "triage band", "confidence", "score"} {
		assert.Contains(t, out, "\n"+term+"\n", "offattr help glossary explains %s", term)
	}
}

// TestDocsGlossary keeps docs/glossary.md the same as the command's.
func TestDocsGlossary(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "glossary.md"))
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(string(page), "\n\n"+glossaryMarkdown()),
		"docs/glossary.md differs from glossary.go: end it with:\n%s", glossaryMarkdown())
}

// TestGlossaryListsTheRules: every rule an answer may name is explained in
// help glossary.
func TestGlossaryListsTheRules(t *testing.T) {
	out, _, err := execute(t, "help", "glossary")
	require.NoError(t, err)
	for _, a := range rules.Registry {
		assert.Contains(t, out, "\n"+a.Name+"\n", a.Name)
	}
}

// TestExamplesUseTheCommandsFlags checks every flag that a command's
// examples give to offattr: a newcomer copies them as written.
func TestExamplesUseTheCommandsFlags(t *testing.T) {
	root := NewCmdRoot(&cmdutil.IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	checked := 0
	for _, c := range root.Commands() {
		for _, line := range strings.Split(c.Example, "\n") {
			for _, part := range strings.FieldsFunc(line, func(r rune) bool { return r == '|' || r == ';' || r == '&' }) {
				words := strings.Fields(part)
				if len(words) < 2 || words[0] != "offattr" {
					continue // another program's command line
				}
				sub, _, err := root.Find(words[1:2])
				require.NoError(t, err, "%s's example %q", c.Name(), line)
				for _, w := range words[2:] {
					if w == ">" || w == "<" {
						break
					}
					if !strings.HasPrefix(w, "-") || w == "-" {
						continue
					}
					name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
					var found bool
					if strings.HasPrefix(w, "--") {
						found = sub.Flags().Lookup(name) != nil || sub.InheritedFlags().Lookup(name) != nil
					} else {
						found = sub.Flags().ShorthandLookup(name) != nil || sub.InheritedFlags().ShorthandLookup(name) != nil
					}
					assert.True(t, found, "%s's example %q gives %s, which offattr %s has not", c.Name(), line, w, sub.Name())
					checked++
				}
			}
		}
	}
	assert.Positive(t, checked)
}

// TestOneRunCommandsGivenADirectory: a command that reads one run, given a
// directory, says so and names the commands that read every run under
// one, rather than the system's "is a directory".
func TestOneRunCommandsGivenADirectory(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"analyze", dir}, {"steps", dir}, {"graph", dir}, {"context", dir, "--step", "0"},
		{"report", dir, "-o", filepath.Join(t.TempDir(), "page.html")}, {"export", dir, "-o", t.TempDir()},
	} {
		_, errOut, err := execute(t, args...)
		require.Error(t, err, args[0])
		var usage *cmdutil.UsageError
		assert.False(t, errors.As(err, &usage), "%s: a directory is a failed input, not a usage error", args[0])
		msg := err.Error() + errOut
		assert.Contains(t, msg, dir+": a directory, not a run file", args[0])
		assert.Contains(t, msg, "offattr screen", args[0])
	}
}
