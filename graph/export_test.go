package graph

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenRun has every edge type and names and texts that need escaping in
// DOT and Mermaid: quotes, brackets, '#', '<', '|', backslashes, newlines.
func goldenRun(t testing.TB) *Graph {
	surfer := `Web "Surfer" [v2]`
	return buildRun(t, "What is the total for 3 tickets?", []string{"3"},
		st{agent: "user", kinds: []extract.StepKind{task}, text: "What is the total for 3 tickets?"},
		st{agent: "Lead", kinds: []extract.StepKind{plan}, text: "Plan:\n1. find the price\n2. multiply by 3"},
		st{agent: "Lead", kinds: []extract.StepKind{instr}, target: surfer, text: `Please open the "prices" page <main> and read the price # for 1 adult | child \N`},
		st{agent: surfer, text: "The page says the price is 20 dollars \\l per ticket", claims: []string{"20"}},
		st{agent: "Lead", kinds: []extract.StepKind{instr}, target: surfer, text: `Please open the "prices" page <main> and read the price # for 1 adult | child again`},
		st{agent: surfer, text: "The page says the price is 20 dollars \\l per ticket", claims: []string{"20"}},
		st{agent: "Coder", kinds: []extract.StepKind{call}, call: "c1", text: "```python\nprint(20 * 3)\n```", claims: []string{"20"}},
		st{agent: "terminal", kinds: []extract.StepKind{result}, result: "c1", text: "exitcode: 1 (execution failed)\nTraceback: NameError",
			errs: []extract.Signal{{Kind: "exit_code", Severity: extract.SeverityHigh, Quote: "exitcode: 1 (execution failed)"}}},
		st{agent: "Lead", kinds: []extract.StepKind{replan}, text: "New plan: compute 20 × 3 by hand"},
		st{agent: "Coder", kinds: []extract.StepKind{final}, text: "FINAL ANSWER: 60", claims: []string{"60", "20"}},
	)
}

func TestExportGolden(t *testing.T) {
	g := goldenRun(t)
	formats := map[string]func(io.Writer, ...EdgeType) error{"json": g.WriteJSON, "dot": g.WriteDOT, "mmd": g.WriteMermaid}
	for _, view := range []struct {
		name  string
		types []EdgeType
	}{{"all", nil}, {"data_instructs", []EdgeType{Data, Instructs}}} {
		for ext, write := range formats {
			name := view.name + "." + ext
			t.Run(name, func(t *testing.T) {
				var buf bytes.Buffer
				require.NoError(t, write(&buf, view.types...))
				golden(t, filepath.Join("testdata", "golden", name), buf.Bytes())
			})
		}
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file: run go test ./graph/ -update")
	assert.Equal(t, string(want), string(got), "%s differs: rerun with -update if the change is intended", path)
}

func TestJSONShape(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, goldenRun(t).WriteJSON(&buf, Replans))
	var doc struct {
		Nodes []map[string]any `json:"nodes"`
		Edges []map[string]any `json:"edges"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	require.Len(t, doc.Edges, 1)
	assert.Equal(t, map[string]any{"from": "t0", "to": "t1", "type": "replans", "evidence": "step 8: New plan: compute 20 × 3 by hand"}, doc.Edges[0])
	assert.Len(t, doc.Nodes, 10+2, "every step, and the trials the replans edge touches")
}

// mermaidLine is every line WriteMermaid may produce: the header, a node
// with a quoted label in one of three shapes, or a labelled link.
var mermaidLine = regexp.MustCompile(`^(flowchart TD|  [sat][0-9]+(\["[^"]*"\]|\(\["[^"]*"\]\)|\{\{"[^"]*"\}\})|  [sat][0-9]+ (-->|-\.->|---)\|"[a-z]+"\| [sat][0-9]+)$`)

func TestMermaidIsWellFormed(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, goldenRun(t).WriteMermaid(&buf))
	for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		assert.Regexp(t, mermaidLine, line)
	}
}

// TestMermaidLabelsHoldNoDirective holds a label to staying a label when
// a name writes a Mermaid directive, which Mermaid obeys wherever in the
// text it stands: it would set the diagram's configuration (its CSS, its
// fonts' URLs) for whoever renders the flowchart.
func TestMermaidLabelsHoldNoDirective(t *testing.T) {
	for _, name := range []string{
		`%%{init: {"themeCSS": "svg {background: url(http://evil.example/x)}"}}%%`,
		"Lead %%{initialize: {'theme': 'dark'}}%%",
	} {
		t.Run(name, func(t *testing.T) {
			g := buildRun(t, "Q?", nil,
				st{agent: "user", kinds: []extract.StepKind{task}, text: "Q?"},
				st{agent: name, text: "A %%{init: {}}%%"},
			)
			var buf bytes.Buffer
			require.NoError(t, g.WriteMermaid(&buf))
			assert.NotContains(t, buf.String(), "%")
			for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
				assert.Regexp(t, mermaidLine, line)
			}
		})
	}
}

// renderDOT runs Graphviz on a DOT text and fails on any complaint; tests
// using it skip where Graphviz is not installed.
func renderDOT(t *testing.T, dot []byte) {
	t.Helper()
	path, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz not installed (apt-get install graphviz)")
	}
	cmd := exec.Command(path, "-Tsvg", "-o", os.DevNull)
	cmd.Stdin = bytes.NewReader(dot)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Run(), stderr.String())
	assert.Empty(t, stderr.String())
}

func TestDOTRendersWithGraphviz(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, goldenRun(t).WriteDOT(&buf))
	renderDOT(t, buf.Bytes())
}
