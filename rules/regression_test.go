package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestRegression: a coding agent's check (a test suite run by a shell
// tool) fails after a change and never passes again: the change is
// blamed and the check that showed it is not. A check repaired later, a
// failure seen only before any change (the problem the task reported), and
// a search that found nothing (an exit code alone) blame nothing. The
// shapes are SWE-agent's tools (bash, str_replace_editor) as a transcript
// writes them in function-call notation.
func TestRegression(t *testing.T) {
	const (
		task   = "parse_bool does not accept on and off."
		view   = `str_replace_editor({"command": "view", "path": "/repo/cfg/values.py"})`
		edit   = `str_replace_editor({"command": "str_replace", "path": "/repo/cfg/values.py", "old_str": "raise ValueError(value)", "new_str": "return False"})`
		edited = "The file /repo/cfg/values.py has been edited."
		test   = `bash({"command": "python3 -m pytest -q tests/test_values.py"})`
		failed = "F...\nE       Failed: DID NOT RAISE <class 'ValueError'>\nFAILED tests/test_values.py::test_invalid\n1 failed, 3 passed in 0.05s\n[exit code 1]"
		passed = "....\n4 passed in 0.04s"
		// The same failure as a shell tool that returns only what the
		// command printed gives it (SWE-agent's observations): no exit code.
		failedQuiet = "F...\nFAILED tests/test_values.py::test_invalid - Failed: DID NOT RAISE <class 'ValueError'>\n1 failed, 3 passed in 0.05s"
		grep        = `bash({"command": "grep -rn parse_on cfg"})`
		none        = "[exit code 1]"
		write       = `str_replace_editor({"command": "create", "path": "/repo/reproduce.py", "file_text": "from cfg.values import parse_bool\\nprint(parse_bool('on'))"})`
		repro       = `bash({"command": "python reproduce.py"})`
		// The failing test's expectation changed in place, after a failure
		// pytest locates in the test's file.
		failedHere = ">       with pytest.raises(ValueError):\nE       Failed: DID NOT RAISE <class 'ValueError'>\n\ntests/test_values.py:19: Failed\nFAILED tests/test_values.py::test_invalid\n1 failed, 3 passed in 0.05s\n[exit code 1]"
		sedTest    = `bash({"command": "sed -i 's/== 3/== 2/' tests/test_values.py"})`
		// A fixture rewritten by sort -o, which a test reads, and the
		// failure that shows its path.
		sortFixture   = `bash({"command": "sort -u -o tests/fixtures/names.txt tests/fixtures/names.txt"})`
		fixtureFailed = "F...\n    def test_load_keeps_order():\n        names = load_names('tests/fixtures/names.txt')\n>       assert names == ['carol', 'alice']\nE       AssertionError: assert ['alice', 'carol'] == ['carol', 'alice']\ntests/test_io.py:14: AssertionError\n1 failed, 3 passed in 0.05s"
		// Uncommitted changes thrown away, and applied again.
		discard = `bash({"command": "git checkout -- . && rm -f debug.txt"})`
		stash   = `bash({"command": "git stash"})`
		pop     = `bash({"command": "git stash pop"})`
		// The changes set aside for one test run and brought back on the
		// same line: the run checks the code without them.
		stashTestPop = `bash({"command": "git stash && python3 -m pytest -q tests/test_values.py; git stash pop"})`
		restore      = `bash({"command": "git restore cfg/values.py"})`
		restoreOther = `bash({"command": "git restore tests/test_values.py"})`
		editRepro    = `str_replace_editor({"command": "str_replace", "path": "/repo/reproduce.py", "old_str": "'on'", "new_str": "'off'"})`
		// The change undone by an editor's replacement that puts its old
		// text back, by old_str and new_str or by a SEARCH/REPLACE diff
		// (Roo Code's apply_diff).
		undo     = `str_replace_editor({"command": "str_replace", "path": "/repo/cfg/values.py", "old_str": "return False", "new_str": "raise ValueError(value)"})`
		editAlso = `str_replace_editor({"command": "str_replace", "path": "/repo/cfg/values.py", "old_str": "TRUE = ('1',)", "new_str": "TRUE = ('1', 'on')"})`
		diffEdit = `apply_diff({"path": "cfg/values.py", "diff": "<<<<<<< SEARCH\n:start_line:3\n-------\n    raise ValueError(value)\n=======\n    return False\n>>>>>>> REPLACE"})`
		diffUndo = `apply_diff({"path": "cfg/values.py", "diff": "<<<<<<< SEARCH\n:start_line:3\n-------\n    return False\n=======\n    raise ValueError(value)\n>>>>>>> REPLACE"})`
		// The same changes made by command line, as SWE-agent's bash and
		// Claude Code's Bash make them: an edit in place, a module
		// rewritten from a heredoc.
		sedEdit = `bash({"command": "cd /repo && sed -i 's/raise ValueError(value)/return False/' cfg/values.py"})`
		heredoc = `bash({"command": "cat > cfg/values.py <<'EOF'\ndef parse_bool(value):\n    return value in ('1', 'true', 'on')\nEOF"})`
		// A script run with a config it reads, and the config written
		// over by a redirection (shell_redirect_truncates in
		// testdata/kinds/coding-agent).
		report    = `bash({"command": "python3 report.py --config config/report.ini"})`
		total     = "total: 12345 cents"
		truncate  = `bash({"command": "echo 'unit = dollars' > config/report.ini"})`
		noSection = "Traceback (most recent call last):\n  File \"/repo/report.py\", line 8, in load\n    return parser['report']\nKeyError: 'report'"
		// A test that reaches a host, run where the network failed.
		offline = "E\nE   requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.test', port=443): Max retries exceeded with url: / (Caused by NewConnectionError('Failed to establish a new connection: [Errno -3] Temporary failure in name resolution'))\n1 error in 3.02s"
		// A module rewritten by a script given on a heredoc.
		pyHeredoc = `bash({"command": "python - <<'EOF'\nsrc = open('cfg/values.py').read()\nopen('cfg/values.py', 'w').write(src.replace('raise ValueError(value)', 'return False'))\nEOF"})`
		// A test written to reproduce, run by its node id.
		writeTest = `str_replace_editor({"command": "create", "path": "/repo/tests/test_on.py", "file_text": "from cfg.values import parse_bool\\ndef test_on():\\n    assert parse_bool('on')"})`
		runTest   = `bash({"command": "python3 -m pytest -q tests/test_on.py::test_on"})`
		// A check whose output is also saved to a file, as agents keep a
		// long log to read later.
		teeTest  = `bash({"command": "python3 -m pytest -q tests/test_values.py 2>&1 | tee /tmp/test.log"})`
		saveTest = `bash({"command": "cd /repo && pytest -q tests/test_values.py > test_output.txt 2>&1; tail -5 test_output.txt"})`
		raised   = "Traceback (most recent call last):\n  File \"/repo/cfg/values.py\", line 7, in parse_bool\n    raise ValueError(value)\nValueError: on\n[exit code 1]"
	)
	user := msg{agent: "user", content: task, kind: run.KindUser}
	for _, tc := range []struct {
		name        string
		msgs        []msg
		blamed, not []int
	}{
		{"a change breaks a passing check", []msg{user, call(view), out("1\tdef parse_bool(value):"), call(test), out(passed), call(edit), out(edited), call(test), out(failed)}, []int{5}, []int{7}},
		{"a change leaves the reported failure", []msg{user, call(test), out(failed), call(edit), out(edited), call(test), out(failed), call(test), out(failed)}, []int{3}, []int{5, 7}},
		{"repaired later", []msg{user, call(test), out(passed), call(edit), out(edited), call(test), out(failed), call(edit), out(edited), call(test), out(passed)}, nil, nil},
		{"a failure before any change", []msg{user, call(view), out("1\tdef parse_bool(value):"), call(test), out(failed)}, nil, nil},
		{"a reproduction written and run once", []msg{user, call(write), out(edited), call(repro), out(raised), call(edit), out(edited), call(test), out(passed)}, nil, nil},
		{"a reproducing test written and run once by its node id", []msg{user, call(writeTest), out(edited), call(runTest), out(raised), call(edit), out(edited), call(test), out(passed)}, nil, nil},
		{"a change before the reproduction", []msg{user, call(edit), out(edited), call(write), out(edited), call(repro), out(raised)}, []int{1}, []int{5}},
		{"a change by sed breaks a passing check", []msg{user, call(test), out(passed), call(sedEdit), out(""), call(test), out(failed)}, []int{3}, []int{5}},
		{"a module rewritten from a heredoc breaks a passing check", []msg{user, call(test), out(passed), call(heredoc), out(""), call(test), out(failed)}, []int{3}, []int{5}},
		{"a module rewritten by a script from a heredoc breaks a passing check", []msg{user, call(test), out(passed), call(pyHeredoc), out(""), call(test), out(failed)}, []int{3}, []int{5}},
		{"a change breaks a passing check saved with tee", []msg{user, call(teeTest), out(passed), call(edit), out(edited), call(teeTest), out(failed)}, []int{3}, []int{5}},
		{"a change breaks a passing check saved to a file", []msg{user, call(saveTest), out(passed), call(edit), out(edited), call(saveTest), out(failed)}, []int{3}, []int{5}},
		{"a change breaks a passing check that prints no exit code", []msg{user, call(test), out(passed), call(edit), out(edited), call(test), out(failedQuiet)}, []int{3}, []int{5}},
		{"a config the check reads is written over", []msg{user, call(report), out(total), call(truncate), out(""), call(report), out(noSection)}, []int{3}, []int{5}},
		{"the network fails after a change", []msg{user, call(test), out(passed), call(edit), out(edited), call(test), out(offline)}, nil, nil},
		{"a reproduction edited after the change that breaks the suite", []msg{user, call(test), out(passed), call(edit), out(edited), call(write), out(edited), call(repro), out("True"), call(editRepro), out(edited), call(repro), out("True"), call(test), out(failed)}, []int{3}, []int{13}},
		{"an exit code alone", []msg{user, call(edit), out(edited), call(grep), out(none)}, nil, nil},
		{"a fixture the failure names changed before the last change", []msg{user, call(test), out(passed), call(sortFixture), out(""), call(edit), out(edited), call(test), out(fixtureFailed)}, []int{3}, []int{7}},
		{"a change the check still fails after, passing only once its test is changed", []msg{user, call(test), out(failedHere), call(edit), out(edited), call(test), out(failedHere), call(sedTest), out(""), call(test), out(passed)}, []int{3}, []int{5}},
		{"a check first run after a change, passing once its test is changed", []msg{user, call(edit), out(edited), call(test), out(failedHere), call(sedTest), out(""), call(test), out(passed)}, nil, nil},
		{"every change thrown away", []msg{user, call(test), out(failed), call(edit), out(edited), call(test), out(passed), call(discard), out("")}, []int{7}, nil},
		{"every change stashed", []msg{user, call(edit), out(edited), call(write), out(edited), call(stash), out("Saved working directory and index state WIP on main: 3c1d2e0 add")}, []int{5}, nil},
		{"the changed file restored", []msg{user, call(edit), out(edited), call(restore), out("")}, []int{3}, nil},
		{"every change stashed, and a test run that fails after", []msg{user, call(test), out(passed), call(edit), out(edited), call(stash), out("Saved working directory and index state WIP on main: 3c1d2e0 add"), call(runTest), out(failedQuiet)}, []int{5}, []int{7}},
		{"a test run with the changes set aside and brought back", []msg{user, call(test), out(passed), call(edit), out(edited), call(test), out(passed), call(stashTestPop), out(failedQuiet)}, nil, nil},
		{"two changes since the suite passed, the failing test file named for the first's module", []msg{user, call(test), out(passed), call(edit), out(edited), call(`str_replace_editor({"command": "str_replace", "path": "/repo/cfg/loader.py", "old_str": "a", "new_str": "b"})`), out(edited), call(test), out(failed)}, []int{3}, []int{7}},
		{"a change, then an import it needs, before the suite fails", []msg{user, call(test), out(passed), call(edit), out(edited), call(`str_replace_editor({"command": "str_replace", "path": "/repo/cfg/values.py", "old_str": "import re", "new_str": "import re\nimport unicodedata"})`), out(edited), call(test), out(failed)}, []int{3}, []int{7}},
		{"a dependency downgraded, after which the build fails", []msg{user, call(`bash({"command": "go build ./..."})`), out(""), call(`bash({"command": "go get golang.org/x/text@v0.3.0"})`), out("go: downgraded golang.org/x/text v0.14.0 => v0.3.0"), call(`bash({"command": "go build ./..."})`), out("# example.com/slug/slug\nslug/slug.go:3:8: package golang.org/x/text/cases is not in std")}, []int{3}, []int{5}},
		{"a linter's fixes written after the suite passed, then it fails", []msg{user, call(test), out(passed), call(edit), out(edited), call(test), out(passed), call(`bash({"command": "ruff check --fix cfg"})`), out("Found 1 error (1 fixed, 0 remaining)."), call(test), out(failed)}, []int{7}, []int{9}},
		{"a file read after a change, its text holding an error key", []msg{user, call(edit), out(edited), call(`bash({"command": "cat config/logging.yaml"})`), out("level: info\nerror: null\n")}, nil, nil},
		{"a module read after a change, its text naming a timeout", []msg{user, call(edit), out(edited), call(`bash({"command": "sed -n 1,12p cfg/client.py"})`), out("class Client:\n    def __init__(self, host, timeout=None):\n        self.timeout = timeout\n")}, nil, nil},
		{"a stash applied again", []msg{user, call(edit), out(edited), call(stash), out(""), call(test), out(passed), call(pop), out("")}, nil, nil},
		{"a change made again after the discard", []msg{user, call(edit), out(edited), call(discard), out(""), call(sedEdit), out("")}, nil, nil},
		{"another file restored", []msg{user, call(edit), out(edited), call(restoreOther), out("")}, nil, nil},
		{"a discard with only a reproduction written", []msg{user, call(write), out(edited), call(repro), out(raised), call(discard), out("")}, nil, nil},
		{"the change undone by the editor", []msg{user, call(edit), out(edited), call(test), out(failed), call(undo), out(edited), call(test), out(passed)}, []int{5}, nil},
		{"the change undone by a SEARCH/REPLACE diff", []msg{user, call(diffEdit), out(edited), call(test), out(failed), call(diffUndo), out(edited), call(test), out(passed)}, []int{5}, nil},
		{"one of two changes to the file undone", []msg{user, call(edit), out(edited), call(editAlso), out(edited), call(undo), out(edited)}, nil, nil},
		{"a change undone, then made otherwise", []msg{user, call(edit), out(edited), call(undo), out(edited), call(sedEdit), out("")}, nil, nil},
		{"a change undone after the file was written whole", []msg{user, call(heredoc), out(""), call(edit), out(edited), call(undo), out(edited)}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Regression.Run(prepare(t, task, "", tc.msgs...))
			assert.Equal(t, tc.blamed, steps(fs, true))
			assert.Equal(t, tc.not, steps(fs, false))
		})
	}
}

// TestEditedCheck: after a test fails, the agent changes the test file the
// failed assertion is in rather than the code (SWE-agent's editor, Claude
// Code's Edit): that change is blamed. Changing the code (also where the
// code's own assert, in the function the task names, failed), changing a file
// the agent wrote itself before the failure (its own reproduction), and
// running the test again by a command line that names it blame nothing.
func TestEditedCheck(t *testing.T) {
	const (
		task     = "page_count(21, 10) returns 2; a partial last page must count."
		test     = `bash({"command": "python3 -m pytest -q tests/test_pager.py"})`
		rerun    = `bash({"command": "timeout 60 python3 -m pytest -q tests/test_pager.py"})`
		failed   = ">       assert page_count(21, 10) == 3\nE       assert 2 == 3\n\ntests/test_pager.py:9: AssertionError\n1 failed, 1 passed in 0.05s\n[exit code 1]"
		editTest = `str_replace_editor({"command": "str_replace", "path": "/repo/tests/test_pager.py", "old_str": "== 3", "new_str": "== 2"})`
		sedTest  = `bash({"command": "sed -i 's/== 3/== 2/' tests/test_pager.py"})`
		catTest  = `bash({"command": "cat tests/test_pager.py | head -20"})`
		editCode = `Edit({"file_path": "/repo/pager/count.py", "old_string": "total // per_page", "new_string": "-(-total // per_page)"})`
		create   = `str_replace_editor({"command": "create", "path": "/repo/tests/test_pager.py", "file_text": "def test_partial_last_page(): ..."})`
		edited   = "The file has been edited."
		// A group chat's shapes (Who&When: a terminal agent runs the
		// code blocks the experts write): a run summarised by pytest's
		// short summary line, a test rewritten by a Python block.
		chatRun    = "Let me run the tests.\n```sh\npython -m pytest -q tests/test_pager.py\n```"
		chatFailed = "exitcode: 1 (execution failed)\nCode output: F.\nFAILED tests/test_pager.py::test_partial_last_page - assert 2 == 3\n1 failed, 1 passed in 0.04s"
		chatEdit   = "I'll align the test with the current behaviour.\n```python\np = 'tests/test_pager.py'\nsrc = open(p).read()\nopen(p, 'w').write(src.replace('== 3', '== 2'))\n```"
		// A test failed by an error the code raised, deselected or
		// skipped rather than fixed; and a test added after the fix.
		raised     = "F.\nFAILED tests/test_pager.py::test_partial_last_page - ZeroDivisionError: division by zero\n1 failed, 1 passed in 0.04s\n[exit code 1]"
		deselect   = `str_replace_editor({"command": "str_replace", "path": "/repo/setup.cfg", "old_str": "addopts = -q", "new_str": "addopts = -q --deselect tests/test_pager.py::test_partial_last_page"})`
		deselected = ".\n1 passed, 1 deselected in 0.02s"
		notK       = `bash({"command": "printf '[pytest]\\naddopts = -k \"not test_partial_last_page\"\\n' > pytest.ini"})`
		skip       = `str_replace_editor({"command": "str_replace", "path": "/repo/tests/test_pager.py", "old_str": "def test_partial_last_page():", "new_str": "@pytest.mark.skip\ndef test_partial_last_page():"})`
		passed     = "..\n2 passed in 0.02s"
		fixAndRun  = `bash({"command": "sed -i 's| // 0||' pager/count.py && python3 -m pytest -q tests/test_pager.py::test_partial_last_page"})`
		addTest    = `str_replace_editor({"command": "insert", "path": "/repo/tests/test_pager.py", "insert_line": 12, "new_str": "def test_exact_pages():\n    assert page_count(20, 10) == 2"})`
		tsc        = `bash({"command": "npx tsc --noEmit"})`
		tscFailed  = "src/pager.ts(4,41): error TS18048: 'perPage' is possibly 'undefined'.\n\nFound 1 error in src/pager.ts:4"
		relax      = `str_replace_editor({"command": "str_replace", "path": "/repo/tsconfig.json", "old_str": "\"strict\": true", "new_str": "\"strict\": false"})`
		jestFailed = " FAIL  __tests__/pager.test.ts\n  ● counts a partial page\n\n    expect(received).toMatchSnapshot()\n\n    - \"2\"\n    + \"3\"\n\n      at Object.<anonymous> (__tests__/pager.test.ts:4:44)\n\nTests:       1 failed, 1 total"
		ownCheck   = ">       assert page_count(21, 10) == 3\n\ntests/test_pager.py:9: \n_ _ _ _ _ _\n\n    def page_count(total, per_page):\n>       assert total % per_page == 0, \"partial page\"\nE       AssertionError: partial page\n\npager/count.py:4: AssertionError\n1 failed, 1 passed in 0.05s\n[exit code 1]"
	)
	user := msg{agent: "user", content: task, kind: run.KindUser}
	for _, tc := range []struct {
		name   string
		msgs   []msg
		blamed []int
	}{
		{"the test edited", []msg{user, call(test), out(failed), call(editTest), out(edited)}, []int{3}},
		{"the code edited", []msg{user, call(test), out(failed), call(editCode), out(edited)}, nil},
		{"a test the agent wrote", []msg{user, call(create), out(edited), call(test), out(failed), call(editTest), out(edited)}, nil},
		{"the code's own assert, in a function the task names", []msg{user, call(test), out(ownCheck), call(editCode), out(edited)}, nil},
		{"the test edited in place by command line", []msg{user, call(test), out(failed), call(sedTest), out("")}, []int{3}},
		{"the test read by command line", []msg{user, call(test), out(failed), call(catTest), out("def test_partial_last_page():")}, nil},
		{"the test run again", []msg{user, call(test), out(failed), call(rerun), out(failed)}, nil},
		{"the type checker's configuration relaxed after it failed", []msg{user, call(tsc), out(tscFailed), call(relax), out(edited), call(tsc), out("")}, []int{3}},
		{"the type checker's library raised after it failed, as it asked", []msg{user, call(tsc), out("src/list.ts(2,13): error TS2550: Property 'at' does not exist on type 'string[]'. Do you need to change your target library? Try changing the 'lib' compiler option to 'es2022' or later."), call(`str_replace_editor({"command": "str_replace", "path": "/repo/tsconfig.json", "old_str": "\"lib\": [\"es2020\"]", "new_str": "\"lib\": [\"es2022\"]"})`), out(edited), call(tsc), out("")}, nil},
		{"the type checker told to skip libraries after it failed", []msg{user, call(tsc), out(tscFailed), call(`str_replace_editor({"command": "str_replace", "path": "/repo/tsconfig.json", "old_str": "\"strict\": true,", "new_str": "\"strict\": true,\n    \"skipLibCheck\": true,"})`), out(edited), call(tsc), out("")}, []int{3}},
		{"the type checker's option dropped after it failed", []msg{user, call(tsc), out(tscFailed), call(`str_replace_editor({"command": "str_replace", "path": "/repo/tsconfig.json", "old_str": "\"strict\": true,\n    \"target\": \"es2022\",", "new_str": "\"target\": \"es2022\","})`), out(edited), call(tsc), out("")}, []int{3}},
		{"the test runner's configuration changed after it failed", []msg{user, call(test), out(failed), call(`str_replace_editor({"command": "str_replace", "path": "/repo/pytest.ini", "old_str": "[pytest]", "new_str": "[pytest]\naddopts = -p no:cacheprovider"})`), out(edited)}, nil},
		{"a build copy edited", []msg{user, call(`str_replace_editor({"command": "str_replace", "path": "/repo/build/lib/pager/count.py", "old_str": "total // per_page", "new_str": "-(-total // per_page)"})`), out(edited), call(test), out(passed)}, []int{1}},
		{"a build copy edited before the source", []msg{user, call(`str_replace_editor({"command": "str_replace", "path": "/repo/build/lib/pager/count.py", "old_str": "total // per_page", "new_str": "-(-total // per_page)"})`), out(edited), call(editCode), out(edited)}, nil},
		{"the snapshots updated after a failure", []msg{user, call(`bash({"command": "npx jest"})`), out(jestFailed), call(`bash({"command": "npx jest -u"})`), out(" › 1 snapshot updated.\nTests:       1 passed, 1 total")}, []int{3}},
		{"the snapshots updated with nothing failed", []msg{user, call(`bash({"command": "npx jest -u"})`), out(" › 1 snapshot written.\nTests:       1 passed, 1 total")}, nil},
		{"the test run again with the changes set aside and brought back", []msg{user, call(test), out(failed), call(editCode), out(edited), call(`bash({"command": "git stash && python3 -m pytest -q tests/test_pager.py; git stash pop"})`), out(failed)}, nil},
		{"a go test edited by its path, the failure naming it bare", []msg{user, call(`bash({"command": "go test ./timeutil/"})`), out("--- FAIL: TestParseDuration (0.00s)\n    parse_test.go:14: ParseDuration(\"1h30m\") = 90, want 5400\nFAIL"), call(`str_replace_editor({"command": "str_replace", "path": "/repo/timeutil/parse_test.go", "old_str": "5400", "new_str": "90"})`), out(edited)}, []int{3}},
		{"the test rewritten by a code block in a group chat", []msg{user, {agent: "Coder", content: chatRun}, {agent: "Computer_terminal", content: chatFailed}, {agent: "Tester", content: chatEdit}, {agent: "Computer_terminal", content: "exitcode: 0 (execution succeeded)\nCode output: "}}, []int{3}},
		{"the failed test deselected in the runner's configuration", []msg{user, call(test), out(raised), call(deselect), out(edited), call(test), out(deselected)}, []int{3}},
		{"the failed test deselected by a file written from the command line", []msg{user, call(test), out(raised), call(notK), out("")}, []int{3}},
		{"the failed test marked skipped", []msg{user, call(test), out(raised), call(skip), out(edited)}, []int{3}},
		{"the code fixed and the failed test run by one command line", []msg{user, call(test), out(raised), call(fixAndRun), out(".\n1 passed in 0.02s")}, nil},
		{"a test added after the check passed again", []msg{user, call(test), out(failed), call(editCode), out(edited), call(test), out(passed), call(addTest), out(edited)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.blamed, steps(EditedCheck.Run(prepare(t, task, "", tc.msgs...)), true))
		})
	}
}

// TestSavedCheckChangesNothing: a test run whose output is saved to a log
// (pytest | tee) changes nothing the later run of it reads: when that run
// fails after an edit, the edit is blamed, not the earlier check.
func TestSavedCheckChangesNothing(t *testing.T) {
	const (
		task   = "parse_bool should accept on and off."
		check  = `bash({"command": "python -m pytest -q tests/test_values.py 2>&1 | tee /tmp/pytest.log"})`
		edit   = `bash({"command": "sed -i \"s/'on')/'on', 'off')/\" cfg/values.py"})`
		passed = "....\n4 passed in 0.04s"
		// The same failure as a shell tool that returns only what the
		// command printed gives it (SWE-agent's observations): no exit code.
		failedQuiet = "F...\nFAILED tests/test_values.py::test_invalid - Failed: DID NOT RAISE <class 'ValueError'>\n1 failed, 3 passed in 0.05s"
		failed      = "F...\nE       AssertionError: assert parse_bool('off') is False\nFAILED tests/test_values.py::test_off\n1 failed, 3 passed in 0.05s\n[exit code 1]"
	)
	in := prepare(t, task, "", msg{agent: "user", content: task, kind: run.KindUser},
		call(check), out(passed), call(edit), out(""), call(check), out(failed))
	assert.Empty(t, steps(StateOrigin.Run(in), true))
	assert.Equal(t, []int{3}, steps(Regression.Run(in), true))
	assert.Equal(t, 3, Attribute(in).Step)
}

// TestOwnScriptIsNoStatement: a coding agent's reproduction, written by a
// call (Claude Code's Write, an editor's create) and then run by itself,
// introduces neither claims nor made-up arguments: its name is new and
// its code holds the values it tries. The same file written and never
// run, or run only as a test runner's tests, and an edit of a script the
// project has, are read as before.
func TestOwnScriptIsNoStatement(t *testing.T) {
	const task = "parse_date('2024/02/29') raises ValueError; slashes should parse like dashes."
	write := `Write({"file_path": "/repo/reproduce.py", "content": "from datekit.parser import parse_date\nprint(parse_date('2024/02/29'))\nprint(parse_date('2031-07-04'))\n"})`
	writeTest := `Write({"file_path": "/repo/tests/test_slash.py", "content": "from datekit.parser import parse_date\ndef test_slash():\n    assert parse_date('2031/07/04')\n"})`
	user := msg{agent: "user", content: task, kind: run.KindUser}
	blamed := func(in *Input) []int {
		return append(steps(UnsupportedClaim.Run(in), true), steps(UnsupportedArguments.Run(in), true)...)
	}
	for _, tc := range []struct {
		name string
		msgs []msg
		want []int
	}{
		{"a reproduction written and run", []msg{user, call(write), out("File created successfully at: /repo/reproduce.py"), call(`Bash({"command": "python reproduce.py"})`), out("ValueError: not a date: '2024/02/29'")}, nil},
		{"a reproduction written, never run", []msg{user, call(write), out("File created successfully at: /repo/reproduce.py")}, []int{1}},
		{"a project's script edited and run", []msg{user, call(`str_replace_editor({"command": "str_replace", "path": "/repo/tools/check_dates.py", "old_str": "'2024-02-29'", "new_str": "'2031-07-04'"})`), out("The file /repo/tools/check_dates.py has been edited."), call(`Bash({"command": "python tools/check_dates.py"})`), out("ok")}, []int{1}},
		{"a test written and run by the test runner", []msg{user, call(writeTest), out("File created successfully at: /repo/tests/test_slash.py"), call(`Bash({"command": "python -m pytest -q tests/test_slash.py"})`), out("F\n1 failed in 0.02s")}, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := blamed(prepare(t, task, "", tc.msgs...))
			if tc.want == nil {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tc.want[0])
			}
		})
	}
}

// TestRunSettingsAreNoStatement: the settings a shell call is given
// beside its command line (Codex CLI's workdir and timeout_ms, a bash
// tool's timeout) say how the line runs, and the line itself what the
// call does: neither is a claim nor a made-up argument.
func TestRunSettingsAreNoStatement(t *testing.T) {
	const task = "median([1, 2, 3, 4]) returns 3 but should return 2.5; see stats/core.py."
	user := msg{agent: "user", content: task, kind: run.KindUser}
	blamed := func(in *Input) []int {
		return append(steps(UnsupportedClaim.Run(in), true), steps(UnsupportedArguments.Run(in), true)...)
	}
	for _, tc := range []struct{ name, call string }{
		{"Codex CLI's shell", `shell({"command": ["bash", "-lc", "sed -n '1,30p' stats/core.py"], "workdir": "/work/repo", "timeout_ms": 120000})`},
		{"a bash tool's timeout", `Bash({"command": "sed -n '1,30p' stats/core.py", "timeout": 600000})`},
		{"the command line a list of words gives", `shell({"command": ["bash", "-lc", "python -m pytest -q"], "workdir": "/work/repo", "timeout_ms": 120000})`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code := out("def median(xs):\n    s = sorted(xs)\n    return s[len(s) // 2]")
			assert.Empty(t, blamed(prepare(t, task, "", user, call(tc.call), code, call(tc.call), code)))
		})
	}
}

// TestAnswerScriptIsAStatement: a script a tool assistant writes and runs
// to work out its answer, whose output the final answer states, is no
// check of something else: a value its code makes up is blamed.
func TestAnswerScriptIsAStatement(t *testing.T) {
	const task = "A tank holds 2.5 cubic metres of water. How many litres is that? Answer with a number."
	in := prepare(t, task, "",
		msg{agent: "user", content: task, kind: run.KindUser},
		msg{agent: "assistant", content: `write_file({"path": "convert.py", "content": "LITRES_PER_CUBIC_METRE = 100\nvolume = 2.5\nprint(volume * LITRES_PER_CUBIC_METRE)\n"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Wrote convert.py", kind: run.KindToolResult},
		msg{agent: "assistant", content: `bash({"command": "python convert.py"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "250.0", kind: run.KindToolResult},
		msg{agent: "assistant", content: "The tank holds 250 litres."},
	)
	assert.Contains(t, steps(UnsupportedArguments.Run(in), true), 1)
}

// TestRegressionReproduction: a reproduction (a script or python -c, no
// test runner) that prints, after a change, what it printed before it,
// a result the task reports the code gives, still shows the reported
// problem: the change is blamed as for a failing check. Its output
// changed, printed only once, or not the reported result blames nothing.
func TestRegressionReproduction(t *testing.T) {
	const (
		task    = `strip_scheme("https://hostname.org") returns "ostname.org": the host loses its first letter.`
		repro   = `bash({"command": "python3 -c \"from urltools.core import strip_scheme; print(strip_scheme('https://hostname.org'))\""})`
		edit    = `str_replace_editor({"command": "str_replace", "path": "/repo/urltools/_compat.py", "old_str": "if prefix and s.startswith(prefix):", "new_str": "if prefix and len(s) > len(prefix) and s.startswith(prefix):"})`
		edited  = "The file /repo/urltools/_compat.py has been edited."
		test    = `bash({"command": "python3 -m pytest -q tests/test_core.py"})`
		passed  = "......\n6 passed in 0.08s"
		wrong   = "ostname.org"
		right   = "hostname.org"
		unasked = `strip_scheme("https://hostname.org") drops the first letter of the host.`
		// A reproduction of two inputs, the second of which rightly gives
		// the reported result.
		repro2 = `bash({"command": "python3 -c \"from urltools.core import strip_scheme as s; print(s('https://hostname.org')); print(s('https://ostname.org'))\""})`
		wrong2 = "ostname.org\nstname.org"
		right2 = "hostname.org\nostname.org"
		// A later change that alters code (a docstring alone changes
		// nothing a reproduction prints).
		tidy = `str_replace_editor({"command": "str_replace", "path": "/repo/urltools/_compat.py", "old_str": "def strip_prefix(s, prefix):", "new_str": "def strip_prefix(s, prefix):\n    s = s.strip()"})`
	)
	for _, tc := range []struct {
		name        string
		task        string
		msgs        []msg
		blamed, not []int
	}{
		{"the reported result printed again after the change", task, []msg{call(repro), out(wrong), call(edit), out(edited), call(repro), out(wrong), call(test), out(passed)}, []int{3}, []int{5}},
		{"the right result printed after the change", task, []msg{call(repro), out(wrong), call(edit), out(edited), call(repro), out(right)}, nil, nil},
		{"the reported result printed once, after the change", task, []msg{call(edit), out(edited), call(repro), out(wrong)}, nil, nil},
		{"the repaired output printed again, holding the reported result for another input", task, []msg{call(repro2), out(wrong2), call(edit), out(edited), call(repro2), out(right2), call(tidy), out(edited), call(repro2), out(right2)}, nil, nil},
		{"the first output printed again after it changed", task, []msg{call(repro2), out(wrong2), call(edit), out(edited), call(repro2), out(right2), call(tidy), out(edited), call(repro2), out(wrong2)}, []int{7}, []int{9}},
		{"the same result again, which the task does not report", unasked, []msg{call(repro), out(wrong), call(edit), out(edited), call(repro), out(wrong)}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			user := msg{agent: "user", content: tc.task, kind: run.KindUser}
			fs := Regression.Run(prepare(t, tc.task, "", append([]msg{user}, tc.msgs...)...))
			assert.Equal(t, tc.blamed, steps(fs, true))
			assert.Equal(t, tc.not, steps(fs, false))
		})
	}
}

// TestRegressionMovedOn: a reproduction script stops at its first
// failure. When after a change it fails elsewhere (other functions, other
// names quoted), the change got it past the failure it showed: the step
// that then ends the run with the script still failing is blamed, not
// the change. A script that fails as before after the change, and a test
// runner whose failed tests change, blame the change.
func TestRegressionMovedOn(t *testing.T) {
	const (
		task   = "to_m(3, 'ft') and from_m(1, 'in') raise KeyError: feet and inches should convert."
		write  = `str_replace_editor({"command": "create", "path": "/repo/reproduce.py", "file_text": "from unitconv import to_m, from_m\nprint(to_m(3, 'ft'))\nprint(from_m(1, 'in'))\n"})`
		repro  = `bash({"command": "python reproduce.py"})`
		test   = `bash({"command": "python -m pytest -q tests/test_length.py"})`
		edit   = `str_replace_editor({"command": "str_replace", "path": "/repo/unitconv/length.py", "old_str": "'km': 1000.0}", "new_str": "'km': 1000.0, 'ft': 0.3048}"})`
		edited = "The file /repo/unitconv/length.py has been edited."
		atFeet = "Traceback (most recent call last):\n  File \"/repo/reproduce.py\", line 2, in <module>\n    print(to_m(3, 'ft'))\n  File \"/repo/unitconv/length.py\", line 5, in to_m\n    return value * FACTORS[unit]\nKeyError: 'ft'"
		atInch = "0.9144000000000001\nTraceback (most recent call last):\n  File \"/repo/reproduce.py\", line 3, in <module>\n    print(from_m(1, 'in'))\n  File \"/repo/unitconv/length.py\", line 9, in from_m\n    return value / FACTORS[unit]\nKeyError: 'in'"
		submit = `submit({})`
		// The same, by asserts: a plain traceback shows the failed one.
		assertFeet = "Traceback (most recent call last):\n  File \"/repo/reproduce.py\", line 2, in <module>\n    assert to_m(3, 'ft') == 0.9144, to_m(3, 'ft')\nAssertionError: None"
		assertInch = "Traceback (most recent call last):\n  File \"/repo/reproduce.py\", line 3, in <module>\n    assert from_m(1, 'in') == 39.37, from_m(1, 'in')\nAssertionError: None"
		failed1    = "F.\nFAILED tests/test_length.py::test_feet - KeyError: 'ft'\n1 failed, 1 passed in 0.02s"
		failed2    = "F.\nFAILED tests/test_length.py::test_inches - KeyError: 'in'\n1 failed, 1 passed in 0.02s"
	)
	user := msg{agent: "user", content: task, kind: run.KindUser}
	for _, tc := range []struct {
		name        string
		msgs        []msg
		blamed, not []int
	}{
		{"the script fails further on, and the run ends", []msg{user, call(write), out(edited), call(repro), out(atFeet), call(edit), out(edited), call(repro), out(atInch), call(submit), out("submitted")}, []int{9}, nil},
		{"the script's asserts fail further on, and the run ends", []msg{user, call(write), out(edited), call(repro), out(assertFeet), call(edit), out(edited), call(repro), out(assertInch), call(submit), out("submitted")}, []int{9}, nil},
		{"the script fails as before", []msg{user, call(write), out(edited), call(repro), out(atFeet), call(edit), out(edited), call(repro), out(atFeet), call(submit), out("submitted")}, []int{5}, []int{7}},
		{"a test runner's failed tests change", []msg{user, call(test), out(failed1), call(edit), out(edited), call(test), out(failed2), call(submit), out("submitted")}, []int{3}, []int{5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Regression.Run(prepare(t, task, "", tc.msgs...))
			assert.Equal(t, tc.blamed, steps(fs, true))
			assert.Equal(t, tc.not, steps(fs, false))
		})
	}
}

// TestEditedCheckConfigAsked: a task that names the checker's
// configuration asks for it to change: changing it after the check
// failed blames nothing.
func TestEditedCheckConfigAsked(t *testing.T) {
	const task = "tsc fails on src/pager.ts: tsconfig.json must target es2022 so that Array.prototype.at type-checks."
	fs := EditedCheck.Run(prepare(t, task, "", msg{agent: "user", content: task, kind: run.KindUser},
		call(`bash({"command": "npx tsc --noEmit"})`), out("src/pager.ts(4,12): error TS2550: Property 'at' does not exist on type 'number[]'."),
		call(`str_replace_editor({"command": "str_replace", "path": "/repo/tsconfig.json", "old_str": "\"target\": \"es2020\"", "new_str": "\"target\": \"es2022\""})`), out("The file has been edited."),
		call(`bash({"command": "npx tsc --noEmit"})`), out("")))
	assert.Empty(t, fs)
}

// TestEditedCheckNamesake: the task places its failure in a file (a
// traceback's frame); the agent changes a file of the same name
// elsewhere and never the one named: that change is blamed. Changing the
// named file too, or a file the task names itself, blames nothing; nor
// does changing a project's file named as a standard library's module
// the traceback runs through.
func TestEditedCheckNamesake(t *testing.T) {
	const (
		task   = "parse_date(\"2024-02-30\") returns 2024-03-01 instead of raising ValueError.\n\n  File \"/repo/calkit/importer.py\", line 5, in load_row\n    return parse_date(row['date'])\n  File \"/repo/calkit/core/dates.py\", line 6, in parse_date"
		utils  = `str_replace_editor({"command": "str_replace", "path": "/repo/calkit/utils/dates.py", "old_str": "return value", "new_str": "raise ValueError(text)"})`
		core   = `str_replace_editor({"command": "str_replace", "path": "/repo/calkit/core/dates.py", "old_str": "return value", "new_str": "raise ValueError(text)"})`
		edited = "The file has been edited."
		test   = `bash({"command": "python -m pytest -q tests"})`
		passed = "......\n6 passed in 0.04s"
	)
	user := msg{agent: "user", content: task, kind: run.KindUser}
	for _, tc := range []struct {
		name   string
		msgs   []msg
		blamed []int
	}{
		{"the namesake changed", []msg{user, call(utils), out(edited), call(test), out(passed)}, []int{1}},
		{"the namesake and the named file changed", []msg{user, call(utils), out(edited), call(core), out(edited)}, nil},
		{"the named file changed", []msg{user, call(core), out(edited), call(test), out(passed)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.blamed, steps(EditedCheck.Run(prepare(t, task, "", tc.msgs...)), true))
		})
	}
	// A frame in the interpreter's standard library is no file of the
	// project: the project's own module of that name is not its namesake.
	const stdlibTask = "Client requests hang when the server stops answering.\n\n  File \"/repo/acme/transport.py\", line 58, in send\n    resp = conn.getresponse()\n  File \"/usr/lib/python3.11/http/client.py\", line 1378, in getresponse\n    response.begin()"
	client := `str_replace_editor({"command": "str_replace", "path": "/repo/acme/client.py", "old_str": "self.timeout = timeout", "new_str": "self.timeout = DEFAULT_TIMEOUT if timeout is None else timeout"})`
	assert.Empty(t, EditedCheck.Run(prepare(t, stdlibTask, "", msg{agent: "user", content: stdlibTask, kind: run.KindUser}, call(client), out(edited), call(test), out(passed))))
}
