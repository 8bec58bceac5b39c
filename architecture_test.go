package offattr_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/offattr/offattr"

// stage is each package's place in the pipeline (ARCHITECTURE.md): data
// flows one way, so a package may import only packages of an earlier
// stage. Packages of one stage are independent of each other. A new
// package must be given its stage here.
var stage = map[string]int{
	// Leaves: no stage of their own, used by the stage named beside them.
	"internal/synthcorpus": 0,
	"run/spans":            0, // run's trace file decoders
	"internal/escape":      0, // log text made safe to show; every stage that writes text
	"internal/ctxtest":     0, // test infrastructure: a context cancelled at a known point
	"internal/match":       0, // how a pattern reads as regexp/syntax, and the check that bounds its backtracking; extract, redact
	"internal/shellword":   0, // a parsed shell word's text as written; run's editor commands, extract's command lines
	"redact/redacttest":    0, // test infrastructure: every string a value holds, to look for secrets

	"run":         1,
	"run/runtest": 2, // test infrastructure over loaded runs
	"redact":      2,
	"extract":     2,
	"hierarchy":   3,
	"graph":       3,
	"rules":       4,
	"triage":      5,
	"localllm":    5,

	"localllm/ollamatest":          6, // a fake Ollama server for tests
	"localllm/internal/fakeollama": 7,
	"localllm/ollamae2e":           6,
	"localllm/ollamae2e/tinymodel": 0,

	"engine":        8,
	"eval":          9,
	"report":        9, // pages of the engine's results; independent of eval
	"eval/evaltest": 0,
	"fit":           10,

	"cmd":                 20, // every command package
	"internal/benchtable": 20, // writes docs/benchmarks.md's table from fit's report
}

func isCmd(pkg string) bool { return strings.HasPrefix(pkg, module+"/cmd/") }

func stageOf(t *testing.T, pkg string) int {
	t.Helper()
	if isCmd(pkg) {
		return stage["cmd"]
	}
	rel := strings.TrimPrefix(pkg, module+"/")
	s, ok := stage[rel]
	require.True(t, ok, "package %s has no stage: add it to the table in architecture_test.go and to ARCHITECTURE.md", rel)
	return s
}

// TestStagesImportOnlyEarlierStages fails when a package imports a later
// stage, or another package of its own stage.
func TestStagesImportOnlyEarlierStages(t *testing.T) {
	if testing.Short() {
		t.Skip("lists every package with the go command")
	}
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "./...").Output()
	require.NoError(t, err)
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else {
			require.NoError(t, err)
		}
		if p.ImportPath == module {
			continue // this test
		}
		seen++
		from := stageOf(t, p.ImportPath)
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") || isCmd(p.ImportPath) && isCmd(imp) {
				continue // the commands share helpers among themselves
			}
			assert.Less(t, stageOf(t, imp), from, "%s (stage %d) imports %s (stage %d): data flows one way", p.ImportPath, from, imp, stageOf(t, imp))
		}
	}
	assert.Greater(t, seen, 10, "go list found the module's packages")
}

// TestNoEngineImportsTheCLI keeps flag parsing in cmd/: no package outside
// it imports cobra or pflag.
func TestNoEngineImportsTheCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("lists every package with the go command")
	}
	out, err := exec.Command("go", "list", "-deps=false", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	require.NoError(t, err)
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if isCmd(fields[0]) {
			continue
		}
		for _, imp := range fields[1:] {
			assert.NotContains(t, []string{"github.com/spf13/cobra", "github.com/spf13/pflag"}, imp, "%s imports %s", fields[0], imp)
		}
	}
}

// TestRulesReadStepTextOnlyToQuote keeps the rules on facts: what they
// decide from a step's text is a fact extract reads (extract.Writing for
// what a step writes), and the rules read a step's Content only to quote
// it as evidence: as Quote's text, or in a function named for the quote it
// makes (quoteAt, quoteClaim, causeQuote), which looks for where to quote.
// The check is by name: no other field of what the rules read is called
// Content.
func TestRulesReadStepTextOnlyToQuote(t *testing.T) {
	files, err := filepath.Glob("rules/*.go")
	require.NoError(t, err)
	read := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		read++
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || strings.HasPrefix(fn.Name.Name, "quote") || strings.HasSuffix(fn.Name.Name, "Quote") {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "Quote" && len(call.Args) > 0 {
						for _, arg := range call.Args[1:] {
							ast.Inspect(arg, func(n ast.Node) bool { return noContent(t, fset, fn, n) })
						}
						return false // the quoted text is Quote's first argument
					}
				}
				return noContent(t, fset, fn, n)
			})
		}
	}
	assert.Greater(t, read, 5, "the rules' files are read")
}

// noContent fails when n reads a field named Content, and tells
// ast.Inspect to look inside n otherwise.
func noContent(t *testing.T, fset *token.FileSet, fn *ast.FuncDecl, n ast.Node) bool {
	t.Helper()
	if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Content" {
		assert.Fail(t, "rules read a step's text", "%s: %s reads .Content other than to quote it: read a fact of extract (extract.Writing) or graph instead", fset.Position(sel.Pos()), fn.Name.Name)
	}
	return true
}

// TestTextIsMatchedThroughMatch keeps patterns where they belong. Every
// pattern extract and redact read goes through internal/match, where a
// pattern's backtracking is bounded and where its matches can begin is
// planned; and what the rules need from a step's text is a fact extract
// reads, so they import no regex engine. Test files are not held.
func TestTextIsMatchedThroughMatch(t *testing.T) {
	for _, c := range []struct {
		dir       string
		forbidden []string
	}{
		{"extract", []string{"regexp"}},
		{"redact", []string{"regexp"}},
		{"rules", []string{"regexp", "github.com/dlclark/regexp2"}},
	} {
		files, err := filepath.Glob(filepath.Join(c.dir, "*.go"))
		require.NoError(t, err)
		read := 0
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
			require.NoError(t, err)
			read++
			for _, imp := range f.Imports {
				path, err := strconv.Unquote(imp.Path.Value)
				require.NoError(t, err)
				assert.NotContains(t, c.forbidden, path, "%s imports %s: its patterns belong in internal/match", name, path)
			}
		}
		assert.NotZero(t, read, "found %s's files", c.dir)
	}
}
