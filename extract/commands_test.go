package extract

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestConsequentialCommands: a shell or an editor exposed as a tool is
// named for no verb; what it does is the command it is given. Shapes:
// Claude Code's Bash and Codex CLI's exec_command and shell (testdata/
// traces), SWE-agent's str_replace_editor.
func TestConsequentialCommands(t *testing.T) {
	tests := []struct {
		name, tool, args string
		consequential    bool
	}{
		{"a search", "Bash", `{"command": "grep -rn 'def parse' .", "description": "Find it"}`, false},
		{"a test run after cd", "exec_command", `{"cmd": "cd /repo && python -m pytest -q tests/test_parser.py"}`, false},
		{"a listing piped", "bash", `{"command": "git diff | head -50"}`, false},
		{"a command as a list of words", "shell", `{"command": ["bash", "-lc", "cat -n src/app.py"]}`, false},
		{"an editor's view", "str_replace_editor", `{"command": "view", "path": "/repo/a.py"}`, false},
		{"an editor's replacement", "str_replace_editor", `{"command": "str_replace", "path": "/repo/a.py", "old_str": "a", "new_str": "b"}`, true},
		{"a test run with its errors joined", "exec_command", `{"cmd": "pytest -q 2>&1 | tail -20"}`, false},
		{"a read written to a file", "Bash", `{"command": "cat a.py > b.py"}`, true},
		{"an edit in place", "Bash", `{"command": "sed -i 's/1/60/' durations/parser.py"}`, true},
		{"a read, then an install", "exec_command", `{"cmd": "cat requirements.txt && pip install -r requirements.txt"}`, true},
		{"a script", "bash", `{"command": "python fix.py"}`, true},
		{"a linter", "Bash", `{"command": "flake8 textkit/slug.py", "description": "Lint the module"}`, false},
		{"a tool that acts, no command", "cancel_reservation", `{"reservation_id": "AIXC49"}`, true},
		{"a tool that reads, no command", "get_order", `{"order_id": "#W1"}`, false},
		{"a tool that gives the final answer", "final_result", `{"comment": "Done."}`, false},
		{"a tool that submits an answer", "submit_answer", `{"answer": "42"}`, false},
		{"a find that deletes what it finds", "Bash", `{"command": "find build -name '*.pyc' -delete"}`, true},
		{"a find that runs a command on each file", "bash", `{"command": "find . -name '*.orig' -exec rm {} \\;"}`, true},
		{"a find that lists", "bash", `{"command": "find src -name '*.py' -newer setup.py"}`, false},
		{"a script run under env", "Bash", `{"command": "env PYTHONPATH=src python scripts/migrate.py"}`, true},
		{"the environment printed", "Bash", `{"command": "env | grep PATH"}`, false},
		{"a branch deleted", "exec_command", `{"cmd": "git branch -D feature/old-parser"}`, true},
		{"the branches listed", "exec_command", `{"cmd": "git branch -a"}`, false},
		{"a command substituted into a read", "bash", `{"command": "cat $(python gen_config.py)"}`, true},
		{"sed -n editing in place", "bash", `{"command": "sed -n -i '1,20p' src/app.py"}`, true},
		{"a tool that answers by acting", "answer_customer_email", `{"ticket_id": "T-1182", "body": "Your refund was issued."}`, true},
		{"a tool that provides the final answer", "provide_final_answer", `{"answer": "42"}`, false},
		{"a tool named for the answer alone", "FinalAnswerTool", `{"answer": "42"}`, false},
		{"a search named for its source", "web_search", `{"query": "Danube length km"}`, false},
		{"a lookup named for its source", "WikipediaLookup", `{"title": "Danube"}`, false},
		{"a search saved", "save_search", `{"query": "Danube"}`, true},
		{"an identity checked", "authenticate", `{"customer_id": "448120", "date_of_birth": "1987-02-11"}`, false},
		{"a user verified", "verify_identity", `{"phone": "555-0142", "pin": "8812"}`, false},
		{"an address validated", "validateAddress", `{"zip": "19122"}`, false},
		{"an address verified and updated", "verify_and_update_shipping_address", `{"order_id": "#W4817230", "zip": "97214"}`, true},
		{"a user found or created", "getOrCreateUser", `{"email": "mara@example.com"}`, true},
		{"a search and its summary", "search_and_summarize", `{"query": "Danube"}`, false},
		{"a search whose matches an editor replaces", "search_and_replace_in_file", `{"filepath": "config/convert.py", "diffs": ["------- SEARCH\n    return x\n=======\n    return y\n+++++++ REPLACE"]}`, true},
		{"text found and replaced", "find_and_replace", `{"path": "app.py", "find": "a", "replace": "b"}`, true},
		{"a search then an edit", "search_then_edit", `{"path": "app.py"}`, true},
		{"a test run with the changes set aside and brought back", "bash", `{"command": "git stash && python -m pytest -q; git stash pop"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := run.Step{Agent: "assistant", Kind: run.KindToolCall, Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: tt.tool, Arguments: tt.args}}}}
			cs := calls(s, newText(""))
			if assert.Len(t, cs, 1) {
				assert.Equal(t, tt.consequential, cs[0].Consequential())
			}
		})
	}
}

// TestCommandFiles: a call's command line is read once by a shell parser
// into the files it names and whether it only reads. Quoting, heredocs,
// redirections, a script given to sed or an interpreter, and a shell
// given a line with -c are read as a shell reads them. Shapes: SWE-agent's
// bash and str_replace_editor, Claude Code's Bash, Codex CLI's shell
// (a list of words), as their logs write the arguments.
func TestCommandFiles(t *testing.T) {
	tests := []struct {
		name, tool, args string
		files            []string
		reads            bool
	}{
		{"sed's script is no file", "bash", `{"command": "sed -i 's/a/b/' f.py"}`, []string{"f.py"}, false},
		{"sed's script given by -e", "bash", `{"command": "sed -e 's/a/b/' -i src/app.py"}`, []string{"src/app.py"}, false},
		{"a quoted path with blanks", "Bash", `{"command": "cat \"my notes/todo list.md\""}`, []string{"my notes/todo list.md"}, true},
		{"a path escaped", "Bash", `{"command": "cat my\\ notes.md"}`, []string{"my notes.md"}, true},
		{"a heredoc writes its file, its text names none", "bash", `{"command": "cat > x.py <<'EOF'\nimport os.path\nprint(os.path.join('a', 'b/c.py'))\nEOF"}`, []string{"x.py"}, false},
		{"a test run after cd: the directory is where it runs", "exec_command", `{"cmd": "cd /repo && pytest tests/test_parser.py"}`, []string{"tests/test_parser.py"}, true},
		{"a check's output saved to a file changes nothing the run works on", "Bash", `{"command": "pytest -q > out.txt"}`, []string{"out.txt"}, true},
		{"a check's output appended to a log changes nothing the run works on", "Bash", `{"command": "pytest -q >> logs/run.log 2>&1"}`, []string{"logs/run.log"}, true},
		{"a program's output written to a file", "Bash", `{"command": "python3 gen.py > out.txt"}`, []string{"gen.py", "out.txt"}, false},
		{"a listing written to a file", "Bash", `{"command": "ls src > files.txt"}`, []string{"files.txt"}, false},
		{"errors joined and thrown away", "Bash", `{"command": "cat a.py 2>&1 | head -5; ls b.py 2>/dev/null"}`, []string{"a.py", "b.py"}, true},
		{"a script read from a heredoc", "bash", `{"command": "python - <<EOF\nimport json, os.path\nprint(json.load(open('cfg.json')))\nEOF"}`, nil, false},
		{"a patch applied from a file", "bash", `{"command": "git apply fix.patch"}`, []string{"fix.patch"}, false},
		{"a patch applied from a heredoc", "bash", `{"command": "git apply <<'EOF'\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\nEOF"}`, []string{"src/app.py"}, false},
		{"a patch applied by Codex CLI's shell", "shell", `{"command": ["bash", "-lc", "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/app.py\n@@ def total():\n-    pass\n+    return 1\n*** End Patch\nEOF"]}`, []string{"src/app.py"}, false},
		{"a patch given to apply_patch as a word", "shell", `{"command": ["apply_patch", "*** Begin Patch\n*** Update File: path/to/file.py\n@@ def example():\n- pass\n+ return 123\n*** End Patch"]}`, []string{"to/file.py"}, false},
		{"a list of words quoted as written", "shell", `{"command": ["grep", "-n", "a > b", "notes/todo list.md"]}`, []string{"notes/todo list.md"}, true},
		{"a pipe", "Bash", `{"command": "grep -rn \"os.path\" src/app.py | head -5"}`, []string{"src/app.py"}, true},
		{"code given to an interpreter", "bash", `{"command": "python3 -c \"from shop.orders import total; print(total({}))\""}`, nil, false},
		{"code given to perl", "bash", `{"command": "perl -pi -e 's/a/b/' lib/x.pm"}`, []string{"lib/x.pm"}, false},
		{"a test named by its node id", "bash", `{"command": "python -m pytest -q tests/test_a.py::TestA::test_b"}`, []string{"tests/test_a.py"}, true},
		{"a module run", "bash", `{"command": "python -m pytest tests/test_a.py"}`, []string{"tests/test_a.py"}, true},
		{"a module named with a dot", "bash", `{"command": "python -m pkg.tool input.csv"}`, []string{"input.csv"}, false},
		{"echo's text names no file", "bash", `{"command": "echo \"see docs/usage\" > notes.md"}`, []string{"notes.md"}, false},
		{"a quoted > is no redirection", "Bash", `{"command": "grep \"a > b\" f.txt"}`, []string{"f.txt"}, true},
		{"xargs runs a reading sed: its script is no file", "bash", `{"command": "find . -name '*.py' | xargs sed -n '1,5p'"}`, nil, true},
		{"xargs runs sed in place: its script is no file", "bash", `{"command": "find . -name '*.py' | xargs sed -i 's/foo/bar/g'"}`, nil, false},
		{"xargs with its options runs grep", "bash", `{"command": "find src -name '*.py' -print0 | xargs -0 -n 10 grep -l TODO"}`, nil, true},
		{"a test in an if", "Bash", `{"command": "if grep -q main a.go; then echo found; fi"}`, []string{"a.go"}, true},
		{"a pattern of names is no file", "bash", `{"command": "find . -name '*.pyc' -delete"}`, nil, false},
		{"a shell given a line", "Bash", `{"command": "bash -lc 'cd /repo && cat src/app.py'"}`, []string{"src/app.py"}, true},
		{"a shell given a line that writes", "Bash", `{"command": "sh -c \"sed -i 's/a/b/' src/app.py\""}`, []string{"src/app.py"}, false},
		{"a command as a list of words", "shell", `{"command": ["bash", "-lc", "sed -i 's/a/b/' src/app.py"]}`, []string{"src/app.py"}, false},
		{"a list of words without a shell", "shell", `{"command": ["sed", "-i", "s/a/b/", "src/app.py"]}`, []string{"src/app.py"}, false},
		{"grep's count is no pattern", "Bash", `{"command": "grep -A 3 -n parse_bool cfg/values.py"}`, []string{"cfg/values.py"}, true},
		{"an editor's path", "str_replace_editor", `{"command": "str_replace", "path": "/repo/shop/orders.py", "old_str": "a", "new_str": "b"}`, []string{"shop/orders.py"}, false},
		{"an editor's view", "str_replace_editor", `{"command": "view", "path": "/repo/shop/orders.py"}`, []string{"shop/orders.py"}, true},
		{"a read of a file into a program", "Bash", `{"command": "python3 check.py < data/in.json"}`, []string{"check.py", "data/in.json"}, false},
		{"an assignment before the program", "Bash", `{"command": "PYTHONPATH=src/lib pytest tests/t.py"}`, []string{"tests/t.py"}, true},
		{"a month, a date and a fraction are no files", "get_report", `{"from": "06/2026", "day": "11/24/2022", "share": "3/4", "out": "2026/06/report.csv"}`, []string{"06/report.csv"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := run.Step{Agent: "assistant", Kind: run.KindToolCall, Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: tt.tool, Arguments: tt.args}}}}
			cs := calls(s, newText(""))
			require.Len(t, cs, 1)
			assert.Equal(t, tt.files, cs[0].Files())
			assert.Equal(t, !tt.reads, cs[0].Consequential())
		})
	}
}

// TestCommandHostile: a command line is log text, untrusted. It is parsed
// and never run or expanded; a line that is not shell, or one built to
// exhaust the parser, is read plainly, without a panic.
func TestCommandHostile(t *testing.T) {
	ran := filepath.Join(t.TempDir(), "ran")
	sub := PathNorm(ran) // a substituted command's own files are named
	tests := []struct {
		name, line string
		files      []string
		reads      bool
	}{
		{"an unterminated quote", `grep -rn "def parse src/app.py`, []string{"src/app.py"}, false},
		{"a half command", `cat a.py &&`, []string{"a.py"}, false},
		{"a substituted command", `echo $(rm -rf /)`, []string{"/"}, false},
		{"a substituted command into a read", "cat $(touch " + ran + ")", []string{sub}, false},
		{"a process substituted", "diff <(touch " + ran + ") b.txt", []string{"b.txt", sub}, false},
		{"a backquoted command", "cat `touch " + ran + "`", []string{sub}, false},
		{"a variable is not expanded", `cat "$HOME/.ssh/id_rsa" $FILE`, nil, true},
		{"NUL bytes", "cat a\x00b.py\x00 > c.txt", []string{"ab.py", "c.txt"}, false},
		{"a 1 MB line", "cat " + strings.Repeat("a.py ", (1<<20-8)/5), []string{"a.py"}, true},
		{"a line over 1 MiB is read plainly", "cat " + strings.Repeat("a.py ", 1<<20/5+1), []string{"a.py"}, false},
		{"brackets nested a million deep", strings.Repeat("$(", 1<<20/2), nil, false},
		{"a million blocks deep", strings.Repeat("{ ", 1<<20/2) + "cat a.py", []string{"a.py"}, false},
		{"not shell", `{"query": "Danube length"}`, nil, false},
		{"only a comment", `# nothing to run`, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r commandReading
			require.NotPanics(t, func() { r = readCommand(tt.line, nil) })
			assert.Equal(t, tt.files, r.files)
			assert.Equal(t, tt.reads, r.reads)
			assert.NoFileExists(t, ran, "the line was run")
		})
	}
}

// TestCommandWrites: a command line that only writes files (an edit in
// place, a heredoc or a reading program's output into a file, cp, rm,
// tee, a patch applied) is a change, and its files are the ones it
// writes; a line that runs anything else (a script, an install) may
// write any file and is none. Shapes as TestCommandFiles.
// TestCommandChecks: a line that runs a test runner or a linter is a
// check when it writes no file but what the check prints (tee, a
// redirection of the check), and a change when it also edits one.
func TestCommandChecks(t *testing.T) {
	for _, tt := range []struct {
		line   string
		checks bool
	}{
		{"python3 -m pytest -q tests/test_a.py", true},
		{"python3 -m pytest -q tests/test_a.py 2>&1 | tee /tmp/test.log", true},
		{"cd /repo && pytest -q > out.txt 2>&1; tail -5 out.txt", true},
		{"bash -lc 'go test ./... | tee test.log'", true},
		{"sed -i 's/a/b/' src/app.py && pytest -q", false},
		{"cat > src/app.py <<'EOF'\nx = 1\nEOF\npytest -q", false},
		{"echo x > notes.txt", false},
		{"cat src/app.py", false},
		{"go build ./...", true},
		{"cargo check --all-targets", true},
		{"npx jest --ci", true},
		{"npx tsc --noEmit", true},
		{"mvn -q test", true},
		{"./gradlew test --info", true},
		{"npm run test -- --watch=false", true},
		{"npx prettier --write src", false},
		{"npx jest -u", false},
		{"npm test -- --updateSnapshot", false},
		{"mvn -q install", false},
		{"ruff check timekit", true},
		{"ruff check --fix timekit", false},
		{"ruff format src/app.py", false},
		{"ruff format --check .", true},
		{"npx eslint --fix src", false},
		{"npx eslint --fix-dry-run src", true},
		{"golangci-lint run --fix ./...", false},
		{"cargo clippy --fix --allow-dirty", false},
		{"python -m ruff check --fix .", false},
	} {
		t.Run(tt.line, func(t *testing.T) {
			assert.Equal(t, tt.checks, readCommand(tt.line, nil).checks)
		})
	}
}

func TestCommandWrites(t *testing.T) {
	tests := []struct {
		name, args string
		writes     []string
	}{
		{"an edit in place", `{"command": "sed -i 's/a/b/' src/app.py"}`, []string{"src/app.py"}},
		{"an edit in place by perl", `{"command": "perl -pi -e 's/a/b/' lib/x.pm"}`, []string{"lib/x.pm"}},
		{"a heredoc into a file", `{"command": "cat > x.py <<'EOF'\nimport os\nEOF"}`, []string{"x.py"}},
		{"a copy", `{"command": "cp src/app.py src/app.py.bak"}`, []string{"src/app.py.bak"}},
		{"an edit, then a check", `{"command": "cd /repo && sed -i 's/a/b/' src/app.py && pytest -q"}`, []string{"src/app.py"}},
		{"a patch applied", `{"command": "git apply fix.patch"}`, []string{}},
		{"a patch applied from a heredoc", `{"command": "git apply <<'EOF'\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\nEOF"}`, []string{"src/app.py"}},
		{"a patch printed", `{"command": "cat <<'EOF'\n--- a/src/app.py\n+++ b/src/app.py\nEOF"}`, nil},
		{"a file without an extension written", `{"command": "echo 'all:' > Makefile"}`, []string{"Makefile"}},
		{"a script's output into a file", `{"command": "python3 gen.py > out.txt"}`, nil},
		{"a script", `{"command": "python fix.py"}`, nil},
		{"a read", `{"command": "cat src/app.py"}`, nil},
		{"written where a variable says", `{"command": "echo x > $OUT"}`, nil},
		{"an edit given to a shell", `{"command": "bash -c \"sed -i 's/a/b/' src/app.py\""}`, []string{"src/app.py"}},
		{"an editor's change", `{"command": "str_replace", "path": "/repo/a.py", "old_str": "a", "new_str": "b"}`, nil},
		{"an edit in place of the files xargs is given", `{"command": "find . -name '*.py' | xargs sed -i 's/foo/bar/g'"}`, []string{}},
		{"an edit in place by xargs with its options", `{"command": "grep -rl foo src | xargs -n 1 -P 4 perl -pi -e 's/foo/bar/'"}`, []string{}},
		{"a script from a heredoc that rewrites a module", `{"command": "python - <<'EOF'\nsrc = open('pkg/core.py').read()\nopen('pkg/core.py', 'w').write(src.replace('a', 'b'))\nEOF"}`, []string{"pkg/core.py"}},
		{"a script from a heredoc that writes through a path it names", `{"command": "python3 <<'PY'\nfrom pathlib import Path\np = Path('src/app.py')\np.write_text(p.read_text().replace('a', 'b'))\nPY"}`, []string{"src/app.py"}},
		{"a script given by -c that writes a data file", `{"command": "python -c \"open('data/rates.csv', mode='w').write('EUR,1.08')\""}`, []string{"data/rates.csv"}},
		{"node given code that writes a file", `{"command": "node -e \"require('fs').writeFileSync('package.json', '{}')\""}`, []string{"package.json"}},
		{"a script from a heredoc that only reads", `{"command": "python - <<'EOF'\nprint(open('cfg.json').read())\nEOF"}`, nil},
		{"a script given by -c that opens a page", `{"command": "python -c \"import webbrowser; webbrowser.open('index.html')\""}`, nil},
		{"a script file with a heredoc on its input", `{"command": "python fix.py <<'EOF'\nopen('a.py', 'w')\nEOF"}`, nil},
		{"sort writing its output over a file", `{"command": "sort -u -o data/words.txt data/words.txt"}`, []string{"data/words.txt"}},
		{"sort writing its output to another", `{"command": "sort -k 2 --output=sorted.csv rows.csv"}`, []string{"sorted.csv"}},
		{"gawk editing in place", `{"command": "gawk -i inplace '/^version/ { $3 = \"2.0\" } 1' setup.cfg"}`, []string{"setup.cfg"}},
		{"an ed script", `{"command": "ed -s tests/test_parse.py <<'EOF'\n5s/5400/90/\nw\nq\nEOF"}`, []string{"tests/test_parse.py"}},
		{"an ex script", `{"command": "ex -sc '%s/old/new/g|x' src/app.py"}`, []string{"src/app.py"}},
		{"find deleting what it finds", `{"command": "find . -name '*.pyc' -delete"}`, []string{}},
		{"find removing what it finds", `{"command": "find tests -name '*.json' -exec rm {} +"}`, []string{}},
		{"find grepping what it finds", `{"command": "find . -name '*.py' -exec grep -l TODO {} +"}`, nil},
		{"perl loading a module reads", `{"command": "perl -Mstrict -ne 'print if /x/' data/input.txt"}`, nil},
		{"perl given a library directory reads", `{"command": "perl -Ilib -ne 'print' data/input.txt"}`, nil},
		{"a stash's changes applied again", `{"command": "git stash pop"}`, []string{}},
		{"a Go dependency changed", `{"command": "go get golang.org/x/text@v0.3.0"}`, []string{"go.mod", "go.sum"}},
		{"an npm dependency added", `{"command": "npm install --save-dev left-pad@1.1.0"}`, []string{"package.json"}},
		{"a crate added", `{"command": "cargo add serde --features derive"}`, []string{"Cargo.toml"}},
		{"a dependency added by poetry", `{"command": "poetry add 'pydantic<2'"}`, []string{"pyproject.toml"}},
		{"what a manifest holds installed", `{"command": "npm install"}`, nil},
		{"a tool installed globally", `{"command": "npm install -g typescript"}`, nil},
		{"a tool installed globally by pnpm", `{"command": "pnpm add --global pnpm-sync"}`, nil},
		{"a package installed without saving it", `{"command": "npm i --no-save left-pad"}`, nil},
		{"a tool installed globally by yarn", `{"command": "yarn global add serve"}`, nil},
		{"snapshots updated", `{"command": "npx jest -u"}`, []string{}},
		{"a linter's fixes written", `{"command": "ruff check --fix src/app.py"}`, []string{"src/app.py"}},
		{"a linter's fixes written to a directory", `{"command": "npx eslint --fix src"}`, []string{}},
		{"a module's dependencies downloaded", `{"command": "go mod download"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := run.Step{Agent: "assistant", Kind: run.KindToolCall, Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "bash", Arguments: tt.args}}}}
			cs := calls(s, newText(""))
			require.Len(t, cs, 1)
			assert.Equal(t, tt.writes, cs[0].Writes())
		})
	}
}

// TestCommandScripts: the files a command line runs as code are the
// script an interpreter or a shell is given, a program run by its path
// and the tests a runner is given; not a script's data or its options'
// values, a module, code given inline, or what a reader reads.
func TestCommandScripts(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"python3 report.py --config config/report.ini", []string{"report.py"}},
		{"cd /repo && python -u reproduce.py data/input.csv", []string{"reproduce.py"}},
		{"bash scripts/run.sh", []string{"scripts/run.sh"}},
		{"./repro.sh --verbose settings.cfg", []string{"./repro.sh"}},
		{"python -m pytest -q tests/test_a.py::test_b tests/test_c.py", []string{"tests/test_a.py", "tests/test_c.py"}},
		{"bash -lc 'node check.js fixtures/a.json'", []string{"check.js"}},
		{"python -m http.server 8000", nil},
		{"python -c \"print(open('a.txt').read())\"", nil},
		{"cat report.py", nil},
	} {
		t.Run(tt.line, func(t *testing.T) {
			assert.Equal(t, tt.want, readCommand(tt.line, nil).scripts)
		})
	}
}

// TestCallCreates: a call writes a file whole when an editor creates it
// or a tool named for writing or creating a file is given its path; an
// edit of part of a file, a command line and a tool that writes no file
// do not.
func TestCallCreates(t *testing.T) {
	for _, tt := range []struct {
		name, args string
		want       bool
	}{
		{"str_replace_editor", `{"command": "create", "path": "/repo/reproduce.py", "file_text": "print(1)"}`, true},
		{"Write", `{"file_path": "/repo/reproduce.py", "content": "print(1)"}`, true},
		{"write_file", `{"path": "notes/plan.md", "text": "step one"}`, true},
		{"str_replace_editor", `{"command": "str_replace", "path": "/repo/a.py", "old_str": "a", "new_str": "b"}`, false},
		{"Edit", `{"file_path": "/repo/a.py", "old_string": "a", "new_string": "b"}`, false},
		{"bash", `{"command": "cat > a.py <<'EOF'\nx = 1\nEOF"}`, false},
		{"write_answer", `{"answer": "42"}`, false},
	} {
		t.Run(tt.name+" "+tt.args, func(t *testing.T) {
			assert.Equal(t, tt.want, newCall(tt.name, tt.args, -1).Creates())
		})
	}
}

// TestCallNames: a call names a test when the text it writes holds the
// name (an edit, a command line writing a runner's configuration, sed
// rewriting the test), not when a test runner it runs is given the name.
func TestCallNames(t *testing.T) {
	const name = "test_partial_last_page"
	for _, tt := range []struct {
		call, args string
		want       bool
	}{
		{"str_replace_editor", `{"command": "str_replace", "path": "/repo/setup.cfg", "old_str": "addopts = -q", "new_str": "addopts = -q --deselect tests/test_pager.py::test_partial_last_page"}`, true},
		{"bash", `{"command": "printf '[pytest]\\naddopts = -k \"not test_partial_last_page\"\\n' > pytest.ini"}`, true},
		{"bash", `{"command": "sed -i '/def test_partial_last_page/i @pytest.mark.skip' tests/test_pager.py && python -m pytest -q tests/test_pager.py"}`, true},
		{"bash", `{"command": "sed -i 's| // 0||' pager/pages.py && python -m pytest -q tests/test_pager.py::test_partial_last_page"}`, false},
		{"bash", `{"command": "cd /repo && sed -i 's/x/y/' pager/pages.py; pytest -k test_partial_last_page"}`, false},
		{"bash", `{"command": "python -m pytest -q tests/test_pager.py::test_partial_last_pages"}`, false},
	} {
		t.Run(tt.args, func(t *testing.T) {
			assert.Equal(t, tt.want, newCall(tt.call, tt.args, -1).Names(name))
		})
	}
}

// TestCommandUpdatesExpected: a test run that rewrites what the tests
// expect from what they now give (snapshots, golden files) updates them;
// a test run does not.
func TestCommandUpdatesExpected(t *testing.T) {
	for _, tt := range []struct {
		line    string
		updates bool
	}{
		{"npx jest -u", true},
		{"npx jest --updateSnapshot __tests__/date.test.ts", true},
		{"npm test -- -u", true},
		{"npx vitest run --update", true},
		{"python -m pytest --snapshot-update tests/test_render.py", true},
		{"go test ./render -update", true},
		{"cargo insta accept", true},
		{"bash -lc 'cd /repo && npx jest -u'", true},
		{"npx jest", false},
		{"python -m pytest -q -u", false},
		{"git add -u", false},
	} {
		t.Run(tt.line, func(t *testing.T) {
			assert.Equal(t, tt.updates, readCommand(tt.line, nil).updates)
		})
	}
}

// TestCommandConfigs: the configuration files a type checker or a
// linter a command line runs reads by default, or the project tsc is
// given; none for a test runner or a program that checks nothing.
func TestCommandConfigs(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"npx tsc --noEmit", []string{"tsconfig.json"}},
		{"tsc -p tsconfig.build.json", []string{"tsconfig.build.json"}},
		{"python -m mypy src", []string{"mypy.ini", ".mypy.ini"}},
		{"cd /repo && flake8 app.py", []string{".flake8"}},
		{"python -m pytest -q", nil},
		{"go build ./...", nil},
		{"cat tsconfig.json", nil},
	} {
		t.Run(tt.line, func(t *testing.T) {
			assert.Equal(t, tt.want, readCommand(tt.line, nil).configs)
		})
	}
}

// TestCommandDiscards: a command line that throws away uncommitted
// changes names the files it restores, or "." for every one: git checkout
// or restore of paths or of the whole tree, git stash and git reset
// --hard; not a branch checked out, the index alone restored, a stash
// applied or listed, or a soft reset.
func TestCommandDiscards(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"git checkout -- .", []string{"."}},
		{"cd /repo && git checkout . && rm -f debug.txt", []string{"."}},
		{"git checkout HEAD -- src/app.py tests/test_app.py", []string{"src/app.py", "tests/test_app.py"}},
		{"git restore src/app.py", []string{"src/app.py"}},
		{"git restore --staged --worktree .", []string{"."}},
		{"git stash", []string{"."}},
		{"git stash push -m wip", []string{"."}},
		{"git reset --hard HEAD", []string{"."}},
		{"git checkout main", nil},
		{"git checkout -b fix-median", nil},
		{"git restore --staged src/app.py", nil},
		{"git stash pop", nil},
		{"git stash && python -m pytest -q tests/test_fmt.py; git stash pop", nil},
		{"git stash; pytest -q; git stash apply", nil},
		{"git stash pop && git stash", []string{"."}},
		{"git stash list", nil},
		{"git reset HEAD~1", nil},
		{"git diff -- .", nil},
	} {
		t.Run(tt.line, func(t *testing.T) {
			assert.Equal(t, tt.want, readCommand(tt.line, nil).discards)
		})
	}
}

// FuzzReadCommand: any command line, shell or not, is read without a
// panic, and what it names is a file name, never a blank one.
func FuzzReadCommand(f *testing.F) {
	for _, s := range []string{
		"sed -i 's/a/b/' f.py", "cat > x.py <<'EOF'\nimport os\nEOF", "cd /repo && pytest t.py::test_a",
		`grep "a > b" f.txt | head`, "echo $(rm -rf /)", "bash -lc 'cat a.py'", `cat "unterminated`,
		"apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.py\n*** End Patch\nEOF", "a=(", "$((1+", "python - <<'EOF'\nopen('a.py', 'w').write(open(\"b.py\").read())\nEOF",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r := readCommand(line, nil)
		for _, p := range append(r.files, r.writes...) {
			assert.NotEmpty(t, strings.TrimSpace(p), "a blank file name")
		}
		if r.reads {
			assert.Nil(t, r.writes, "a line that only reads writes nothing")
		}
		words := strings.Fields(line)
		readCommand(strings.Join(words, " "), words) // words are read as they are
	})
}

// TestAddsOnlyImports: an editor's replacement whose new text only adds
// import lines to the old brings names into scope; one that changes code
// too, or removes a line, does more.
func TestAddsOnlyImports(t *testing.T) {
	for _, tt := range []struct {
		name, args string
		want       bool
	}{
		{"a Python import added", `{"command": "str_replace", "path": "/repo/slugs/core.py", "old_str": "import re", "new_str": "import re\nimport unicodedata"}`, true},
		{"a from-import added", `{"command": "str_replace", "path": "/repo/a.py", "old_str": "import os", "new_str": "import os\nfrom pathlib import Path"}`, true},
		{"a Go import block", `{"command": "str_replace", "path": "/repo/slug.go", "old_str": "import \"golang.org/x/text/cases\"", "new_str": "import (\n\t\"golang.org/x/text/cases\"\n\t\"golang.org/x/text/language\"\n)"}`, false},
		{"Claude Code's Edit adding a JavaScript import", `{"file_path": "/repo/src/a.ts", "old_string": "import { a } from './a';", "new_string": "import { a } from './a';\nimport { b } from './b';"}`, true},
		{"an import and code", `{"command": "str_replace", "path": "/repo/a.py", "old_str": "import re", "new_str": "import re\nimport unicodedata\nX = 1"}`, false},
		{"an import replaced", `{"command": "str_replace", "path": "/repo/a.py", "old_str": "import re", "new_str": "import regex"}`, false},
		{"code changed", `{"command": "str_replace", "path": "/repo/a.py", "old_str": "x = 1", "new_str": "x = 2"}`, false},
		{"a Codex patch adding an import", `{"command": ["apply_patch", "*** Begin Patch\n*** Update File: stats/core.py\n@@\n+import math\n+\n def mean(xs):\n*** End Patch\n"]}`, true},
		{"a unified diff fed to git apply", `{"command": "git apply <<'EOF'\n--- a/a.py\n+++ b/a.py\n@@ -1,1 +1,2 @@\n import os\n+import sys\nEOF"}`, true},
		{"a Codex patch changing code", `{"command": ["apply_patch", "*** Begin Patch\n*** Update File: a.py\n@@\n+import math\n-x = 1\n+x = math.pi\n*** End Patch\n"]}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, newCall("str_replace_editor", tt.args, -1).AddsOnlyImports())
		})
	}
}

// TestPinsDependency: pip given a package at a version installs that
// version, however pip is run; an install of the project itself, of its
// requirements file or of a package at no version pins nothing.
func TestPinsDependency(t *testing.T) {
	for _, tt := range []struct {
		name, args string
		want       bool
	}{
		{"an older major", `{"command": "pip install 'pydantic<2'"}`, true},
		{"an exact version by python -m pip", `{"command": "python3 -m pip install requests==2.19.1"}`, true},
		{"by uv, in a shell Codex runs", `{"command": ["bash", "-lc", "cd /work/repo && uv pip install 'numpy>=1.20,<1.24'"]}`, true},
		{"the project itself", `{"command": "pip install -e .[test]"}`, false},
		{"its requirements", `{"command": "pip install -r requirements.txt"}`, false},
		{"a package at no version", `{"command": "pip install responses"}`, false},
		{"npm records it in the manifest instead", `{"command": "npm install left-pad@1.1.0"}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, newCall("bash", tt.args, -1).PinsDependency())
		})
	}
}

// TestRunSettings: beside a shell's command line, a number, a true or
// false and a directory say how the line runs, and are no file it acts
// on; an editor's arguments beside its one-word command are what it acts
// on.
func TestRunSettings(t *testing.T) {
	codex := newCall("shell", `{"command": ["bash", "-lc", "pytest -q tests/test_core.py"], "workdir": "/work/repo", "timeout_ms": 120000, "with_escalated_permissions": false}`, -1)
	for _, v := range []string{"120000", "/work/repo", "false", "pytest -q tests/test_core.py"} {
		assert.True(t, codex.InCommand(v), v)
	}
	assert.NotContains(t, codex.Files(), "/work/repo")
	assert.Contains(t, codex.Files(), "tests/test_core.py")

	bash := newCall("Bash", `{"command": "npm test", "timeout": 600000, "description": "Run the tests"}`, -1)
	assert.True(t, bash.InCommand("600000"))
	assert.False(t, bash.InCommand("Run the tests"), "a description is no setting")

	editor := newCall("str_replace_editor", `{"command": "view", "path": "/repo/stats", "view_range": [120, 160]}`, -1)
	assert.False(t, editor.InCommand("/repo/stats"))
	assert.False(t, editor.InCommand("120"))
	assert.Equal(t, []string{PathNorm("/repo/stats")}, editor.Files())

	file := newCall("shell", `{"command": ["bash", "-lc", "cat x"], "output": "/tmp/out.log"}`, -1)
	assert.False(t, file.InCommand("/tmp/out.log"), "a file is no directory")
}

// TestChangesOnlyRemarks: an editor's replacement or a patch whose lines
// added and removed are comments, docstrings or log calls changes
// nothing the code computes; one that changes code too does.
func TestChangesOnlyRemarks(t *testing.T) {
	for _, tt := range []struct {
		name, args string
		want       bool
	}{
		{"a Python docstring", `{"command": "str_replace", "path": "/repo/a.py", "old_str": "def f(x):\n", "new_str": "def f(x):\n    \"\"\"Return x's page.\n\n    Pages are 1-based.\n    \"\"\"\n"}`, true},
		{"a comment", `{"command": "str_replace", "path": "/repo/a.py", "old_str": "x = 1", "new_str": "# the first page\nx = 1"}`, true},
		{"a Go comment and log line", `{"old_string": "\treturn n", "new_string": "\t// n is never negative here\n\tlog.Printf(\"n=%d\", n)\n\treturn n"}`, true},
		{"a java.util.logging line", `{"old_str": "    public static int parsePort(String s) {\n", "new_str": "    public static int parsePort(String s) {\n        LOG.fine(\"parsing port \" + s);\n"}`, true},
		{"a JavaScript console.debug", `{"old_string": "return total;", "new_string": "console.debug('total', total);\nreturn total;"}`, true},
		{"a comment reworded", `{"old_str": "// old words\nint x = 1;", "new_str": "// new words\nint x = 1;"}`, true},
		{"a comment and code", `{"old_str": "x = 1", "new_str": "# the first page\nx = 2"}`, false},
		{"a checker told to look away", `{"old_str": "const n: number = s;", "new_str": "// @ts-ignore\nconst n: number = s;"}`, false},
		{"a type checker silenced", `{"old_str": "x = f(y)", "new_str": "x = f(y)  # type: ignore"}`, false},
		{"a Go build constraint", `{"old_str": "package fs", "new_str": "//go:build linux\n\npackage fs"}`, false},
		{"a coding line and a coverage pragma", `{"path": "/repo/a.py", "old_str": "x = 1", "new_str": "# -*- coding: utf-8 -*-\n# pragma: no cover\nx = 1"}`, false},
		{"a remark that names a directive's word", `{"path": "/repo/pager/pages.py", "old_str": "    # returns: an int\n", "new_str": "    # Return type: int, the number of pages\n"}`, true},
		{"a block comment that tells coverage to look away", `{"path": "/repo/src/a.js", "old_str": "function f() {", "new_str": "/* istanbul ignore next */\nfunction f() {"}`, false},

		{"a Python product continued on its line", `{"command": "str_replace", "path": "/repo/billing/lines.py", "old_str": "        * item.quantity\n", "new_str": "        * item.quantity * TAX_RATE\n"}`, false},
		{"a Python floor division continued", `{"path": "/repo/pages.py", "old_str": "    // size\n", "new_str": "    // size + 1\n"}`, false},
		{"a Javadoc line", `{"path": "/repo/src/Pages.java", "old_str": "     * Returns the page.\n", "new_str": "     * Returns the 1-based page.\n"}`, true},
		{"a Rust attribute", `{"path": "/repo/src/port.rs", "old_str": "#[test]\nfn rejects_zero", "new_str": "#[test]\n#[ignore]\nfn rejects_zero"}`, false},
		{"a Rust attribute, its file unnamed", `{"old_str": "fn rejects_zero", "new_str": "#[ignore]\nfn rejects_zero"}`, false},
		{"C code taken out of the build", `{"path": "/repo/src/io.c", "old_str": "    flush(fd);\n", "new_str": "#if 0\n    flush(fd);\n#endif\n"}`, false},
		{"a Rust comment", `{"path": "/repo/src/port.rs", "old_str": "fn rejects_zero", "new_str": "// port 0 is reserved\nfn rejects_zero"}`, true},
		{"a Codex patch continuing a product", `{"command": ["apply_patch", "*** Begin Patch\n*** Update File: billing/lines.py\n@@ def line_total(item):\n-        * item.quantity\n+        * item.quantity * TAX_RATE\n*** End Patch\n"]}`, false},
		{"a Java product continued on its line", `{"path": "/repo/src/shop/Invoice.java", "old_str": "            * (1 - discountRate);", "new_str": "            * (1 + discountRate);"}`, false},
		{"a product continued after the code that leaves it open", `{"path": "/repo/src/shop/Invoice.java", "old_str": "        return subtotal\n            * rate", "new_str": "        return subtotal\n            * (1 + rate)"}`, false},
		{"a block comment's lines", `{"path": "/repo/src/Pages.java", "old_str": "    /*\n     * Pages are\n     * 0-based;\n     */\n    int page;", "new_str": "    /*\n     * Pages are\n     * 1-based;\n     */\n    int page;"}`, true},
		{"a Javadoc tag line", `{"path": "/repo/src/Pages.java", "old_str": "     * <p>\n", "new_str": "     * <ul>\n"}`, true},
		{"a query passed as a triple-quoted string", `{"path": "/repo/shop/reports.py", "old_str": "    rows = db.execute(\n        \"\"\"SELECT id FROM orders WHERE total >= 100\"\"\"\n", "new_str": "    rows = db.execute(\n        \"\"\"SELECT id FROM orders WHERE total > 100\"\"\"\n"}`, false},
		{"a triple-quoted template assigned over lines", `{"path": "/repo/shop/mail.py", "old_str": "BODY = (\n    \"\"\"\n    Total: {total}\n    \"\"\"\n)", "new_str": "BODY = (\n    \"\"\"\n    Total: {subtotal}\n    \"\"\"\n)"}`, false},
		{"a docstring after a comment", `{"path": "/repo/a.py", "old_str": "# pages\n\"\"\"Pages.\"\"\"", "new_str": "# pages\n\"\"\"Pages, 1-based.\"\"\""}`, true},
		{"a dereference is no comment", `{"old_str": "**user}", "new_str": "**{k: v for k, v in user.items() if v}}"}`, false},
		{"a log call that assigns", `{"old_str": "a = 1", "new_str": "a = 1\nn = log.info(x)"}`, false},
		{"a print is output", `{"old_str": "a = 1", "new_str": "a = 1\nprint(a)"}`, false},
		{"a Codex patch adding a comment", `{"command": ["apply_patch", "*** Begin Patch\n*** Update File: a.py\n@@ def f(x):\n+    # pages are 1-based\n     return x\n*** End Patch\n"]}`, true},
		{"a Codex patch changing code", `{"command": ["apply_patch", "*** Begin Patch\n*** Update File: a.py\n@@ def f(x):\n-    return x\n+    return x + 1\n*** End Patch\n"]}`, false},
		{"nothing changed", `{"old_str": "x = 1", "new_str": "x = 1"}`, false},
		{"a command line", `{"command": "sed -i 's/x/y/' a.py"}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, newCall("str_replace_editor", tt.args, -1).ChangesOnlyRemarks())
		})
	}
	raw := "*** Begin Patch\n*** Update File: a.py\n@@\n+\"\"\"Pages.\"\"\"\n import itertools\n*** End Patch\n"
	assert.True(t, newCall("apply_patch", raw, -1).ChangesOnlyRemarks(), "a patch given as the whole input")
}

// TestRelaxesChecks: an editor's replacement relaxes a checker's
// configuration when a line it adds turns a check off, skips or ignores
// something, or when it drops a line; raising a library or a target
// does not. A change by command line is not read.
func TestRelaxesChecks(t *testing.T) {
	for _, tt := range []struct {
		name, args string
		relaxes    bool
	}{
		{"strict turned off", `{"command": "str_replace", "path": "tsconfig.json", "old_str": "\"strict\": true", "new_str": "\"strict\": false"}`, true},
		{"libraries skipped", `{"command": "str_replace", "path": "tsconfig.json", "old_str": "\"strict\": true,", "new_str": "\"strict\": true,\n\"skipLibCheck\": true,"}`, true},
		{"a rule off", `{"command": "str_replace", "path": ".eslintrc.json", "old_str": "\"no-unused-vars\": \"error\"", "new_str": "\"no-unused-vars\": \"off\""}`, true},
		{"a rule downgraded", `{"command": "str_replace", "path": ".eslintrc.json", "old_str": "\"eqeqeq\": 2", "new_str": "\"eqeqeq\": 1"}`, true},
		{"errors ignored", `{"old_str": "[mypy]", "new_str": "[mypy]\nignore_missing_imports = True"}`, true},
		{"an option dropped", `{"old_str": "\"strict\": true,\n\"target\": \"es2022\",", "new_str": "\"target\": \"es2022\","}`, true},
		{"the library raised", `{"command": "str_replace", "path": "tsconfig.json", "old_str": "\"lib\": [\"es2020\"]", "new_str": "\"lib\": [\"es2022\"]"}`, false},
		{"a path mapped", `{"old_str": "\"baseUrl\": \".\"", "new_str": "\"baseUrl\": \".\",\n\"paths\": {\"@app/*\": [\"src/*\"]}"}`, false},
		{"a check turned on", `{"old_str": "\"noImplicitAny\": false", "new_str": "\"noImplicitAny\": true"}`, false},
		{"a command line", `{"command": "sed -i 's/es2020/es2022/' tsconfig.json"}`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.relaxes, newCall("str_replace_editor", tt.args, -1).RelaxesChecks())
		})
	}
}

// TestSearchReplace: an editor's SEARCH/REPLACE diff (Roo Code's
// apply_diff with its start line, Cline's replace_in_file, two blocks in
// one diff) is read as a replacement's old and new text, as old_str and
// new_str are; a diff with no whole block is none.
func TestSearchReplace(t *testing.T) {
	for _, tt := range []struct {
		name     string
		args     string
		old, new string
		ok       bool
	}{
		{"Roo Code's apply_diff", `{"path": "src/a.ts", "diff": "<<<<<<< SEARCH\n:start_line:3\n-------\n  return Math.floor(n) + 1;\n=======\n  return Math.ceil(n);\n>>>>>>> REPLACE"}`, "  return Math.floor(n) + 1;", "  return Math.ceil(n);", true},
		{"Cline's replace_in_file", `{"path": "a.py", "diff": "------- SEARCH\nx = 1\n=======\nx = 2\n+++++++ REPLACE"}`, "x = 1", "x = 2", true},
		{"two blocks", `{"path": "a.py", "diff": "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE"}`, "a\nc", "b\nd", true},
		{"a block cut short", `{"path": "a.py", "diff": "<<<<<<< SEARCH\na\n=======\nb"}`, "", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, n, ok := replacement(tt.args)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.old, o)
			assert.Equal(t, tt.new, n)
		})
	}
}
