package extract

import (
	"slices"
	"strings"

	matching "github.com/offattr/offattr/internal/match"
)

// A failure printed with its stack says which functions it ran through,
// and an assertion that pytest rewrote says which call gave the value it
// rejected; a step that defines a function wrote the code that ran. The
// rules read the two together to find whose code a reported failure ran.
var (
	// Python's frames (File "shipping.py", line 7, in shipping_cost),
	// pytest's short ones (shipping.py:7: in shipping_cost), pytest's
	// account of an assertion's operands (+  where 25.0 =
	// shipping_cost(10)), and the call a plain traceback's failed assert
	// opens with.
	failedInRes = []*matching.Pattern{
		pattern(`(?m)^[ \t]{0,8}File "[^"\n]{1,300}", line \d{1,7}, in (?<n>[A-Za-z_]\w{0,80})`, 0),
		pattern(`(?m)^[ \t]{0,8}[\w./\\-]{1,200}\.\w{1,6}:\d{1,7}: in (?<n>[A-Za-z_]\w{0,80})`, 0),
		pattern(`(?m)^E?[ \t]{1,12}\+[ \t]{1,4}where [^\n=]{1,200}= (?:[\w.]{0,80}\.)?(?<n>[A-Za-z_]\w{0,80})\(`, 0),
		// A plain traceback's last frame shows the assert that failed:
		// the call it opens with gave the value it rejected (assert
		// parse_section('[main] ; x') == 'main').
		pattern(`(?m)^[ \t]{0,8}File "[^"\n]{1,300}", line \d{1,7}, in [^\n]{1,80}\n[ \t]{1,16}assert[ \t(]{1,4}(?:[A-Za-z_]\w{0,40}\.){0,3}(?<n>[A-Za-z_]\w{0,80})\([^\n]{0,300}\n(?:[^\n]{0,300}\n){0,2}?AssertionError\b`, 0),
	}
	// Where a failure prints neither frames of the code nor pytest's
	// account of the rejected value (only the test's own frame, if any),
	// the test's own lines say which call gave it; each is read only when
	// those before it found none.
	failedLineRes = []*matching.Pattern{
		// unittest's traceback shows the failed line: the call an
		// assertion method is given first
		// (self.assertEqual(summarize(data).stdev, 2.138)).
		pattern(`(?m)^[ \t]{0,8}File "[^"\n]{1,300}", line \d{1,7}, in [^\n]{1,80}\n[ \t]{1,16}self\.assert\w{0,24}\((?:[A-Za-z_]\w{0,40}\.){0,3}(?<n>[A-Za-z_]\w{0,80})\(`, 0),
		// pytest shows the failed line of a test after ">": the call its
		// assert opens with, the last of a chain, gave the value it
		// rejected, when pytest printed no "where" for it (tax of assert
		// Invoice(items()).tax() == Decimal('32.00')).
		pattern(`(?m)^>[ \t]{1,16}assert[ \t(]{1,4}(?:[A-Za-z_][\w.]{0,80}\((?:[^()\n]{0,120}|[^()\n]{0,60}\([^()\n]{0,60}\)[^()\n]{0,60})\)\.){0,3}(?:[A-Za-z_]\w{0,40}\.){0,3}(?<n>[A-Za-z_]\w{0,80})\(`, 0),
		// And the lines of the test above the failed one: a value the
		// assert checks was given by the call it was assigned from (s =
		// summarize(values), then > assert s.stdev == 2.138).
		pattern(`(?m)^[ \t]{4,16}[A-Za-z_]\w{0,40}(?:,[ \t]{0,2}[A-Za-z_]\w{0,40}){0,3}[ \t]{0,4}=[ \t]{0,4}(?:[A-Za-z_]\w{0,40}\.){0,3}(?<n>[A-Za-z_]\w{0,80})\([^\n]{0,300}\n(?:[^\n]{0,300}\n){0,8}?>[ \t]`, 0),
	}
	// Where an assertion failed: pytest's short location of the failed
	// line (tests/test_cart.py:6: AssertionError, or Failed for
	// pytest.raises), and the last frame of Python's traceback before an
	// AssertionError (File "tests/test_cart.py", line 6, in test_total).
	failedAtRes = []*matching.Pattern{
		pattern(`(?m)^[ \t]{0,8}(?<p>[\w./\\-]{1,200}\.\w{1,6}):\d{1,7}: (?:AssertionError|Failed)\b`, 0),
		pattern(`(?m)^[ \t]{0,8}File "(?<p>[^"\n]{1,300})", line \d{1,7}, in (?<f>[A-Za-z_]\w{0,80})\n[^\n]{0,300}\nAssertionError\b`, 0),
		// pytest's short summary of a test whose own assert failed: it
		// rewrites the asserts of test modules only, so "- assert ..."
		// places the failed assertion in the test's file.
		// go test's report of a test's own check (t.Errorf, t.Fatalf),
		// under the test's "--- FAIL:" line: in its _test.go file.
		pattern(`(?m)^[ \t]{4,8}(?<p>[\w./\\-]{0,200}_test\.go):\d{1,7}: `, 0),
		// Jest's report of a failed expect: the first frame after it is
		// the test's own line.
		pattern(`(?m)^[ \t]{0,8}expect\((?:received|value)\)[^\n]{0,200}\n(?:[^\n]{0,300}\n){0,40}?[ \t]{0,12}at [^\n(]{0,200}\((?<p>[\w./\\-]{1,200}\.\w{1,6}):\d{1,7}:\d{1,7}\)`, 0),
		pattern(`(?m)^FAILED (?<p>[\w./\\-]{1,200}\.\w{1,6})::(?<f>[A-Za-z_]\w{0,80})[^\s]{0,200} - assert\b`, 0),
		// pytest's short summary of a test module it could not collect
		// (ERROR tests/test_a.py - ModuleNotFoundError: ...): none of
		// its tests ran, and what failed is in that file's own lines
		// (an import, a fixture it reads at import).
		pattern(`(?m)^ERROR (?<p>[\w./\\-]{1,200}\.py) - [A-Za-z_][\w.]{0,80}(?:Error|Exception)\b`, 0),
	}
	// pytest's location of an error raised on a line of the test's own
	// (an attribute the test reads, a call it makes with wrong arguments):
	// failedAt keeps it when the entry it closes is a test function's.
	raisedAtRe = pattern(`(?m)^[ \t]{0,8}(?<p>[\w./\\-]{1,200}\.\w{1,6}):\d{1,7}: [A-Za-z_]\w{0,80}(?:Error|Exception)$`, 0)
	// The tests a runner reports failed, by name: pytest's short summary
	// (FAILED tests/test_a.py::TestA::test_b - ...), go test's "--- FAIL:
	// TestB", cargo test's "test tests::b ... FAILED", and unittest's
	// header of a failed or erring test above the rule it draws under it
	// (FAIL: test_b (test_a.TestA), then a line of dashes).
	failedTestRes = []*matching.Pattern{
		pattern(`(?m)^(?:FAIL|ERROR): (?<n>[A-Za-z_]\w{0,80}) \([\w.]{1,200}\)[ \t]{0,4}\n-{20,}$`, 0),
		pattern(`(?m)^FAILED [\w./\\-]{1,200}\.\w{1,6}::(?:[A-Za-z_]\w{0,80}::){0,3}(?<n>[A-Za-z_]\w{0,80})`, 0),
		pattern(`(?m)^[ \t]{0,8}--- FAIL: (?<n>[A-Za-z_]\w{0,80})`, 0),
		pattern(`(?m)^test (?:[A-Za-z_]\w{0,80}::){0,6}(?<n>[A-Za-z_]\w{0,80}) \.\.\. FAILED$`, 0),
	}
	// The function a pytest traceback's entry lists (its "def" line),
	// the last before the entry's location.
	entryDefRe = goPattern(`(?m)^[ \t]{0,16}(?:async[ \t]{1,4})?def[ \t]{1,4}([A-Za-z_]\w{0,80})[ \t]{0,4}\(`)
	// A definition of a function or a class as Python, JavaScript, Go,
	// Rust and most languages after them write it, in a file's listing
	// with its lines numbered too (cat -n, a coding agent's file reader).
	definesRe = pattern(`(?m)^[ \t]{0,16}(?:\d{1,7}(?:\t|→))?[ \t]{0,16}(?:async[ \t]{1,4}|export[ \t]{1,4}|pub[ \t]{1,4})?(?:def|function|func|fn|class)[ \t]{1,4}(?:\([^)\n]{0,80}\)[ \t]{0,4})?(?<n>[A-Za-z_]\w{0,80})[ \t]{0,4}[(:<{]`, 0)
)

// maxFrames caps the functions read from one step's failures, and the
// definitions read from one step's code.
const maxFrames = 16

// failedIn returns the functions a step's printed failures ran through,
// outermost first, and the calls whose values a failed assertion
// rejected, each once.
func failedIn(t *text) []string {
	var out []string
	for _, re := range failedInRes {
		for _, m := range t.all(re, maxFrames) {
			if n := t.named(m, "n"); n != "<module>" && !slices.Contains(out, n) && len(out) < maxFrames {
				out = append(out, n)
			}
		}
	}
	for _, re := range failedLineRes {
		if slices.ContainsFunc(out, func(n string) bool { return !strings.HasPrefix(strings.ToLower(n), "test") }) {
			break // a frame of the code, or a value pytest accounted for
		}
		for _, m := range t.all(re, maxFrames) {
			if n := t.named(m, "n"); !slices.Contains(out, n) && len(out) < maxFrames {
				out = append(out, n)
			}
		}
	}
	return out
}

// failedAt returns the files a step's printed failures say an assertion
// failed in, or a test's own line raised an error in, as PathNorm has
// them, each once. An assertion in a function
// the task names (lowered, task) is the code's own check of its input
// (an invariant the task reports it enforcing wrongly), not a test's
// check of the code: its file is left out.
func failedAt(t *text, task string) []string {
	var out []string
	for _, re := range failedAtRes {
		for _, m := range t.all(re, maxFrames) {
			if fn := assertedIn(t, m); fn != "" && namesWord(task, strings.ToLower(fn)) {
				continue
			}
			if p := PathNorm(t.named(m, "p")); !slices.Contains(out, p) && len(out) < maxFrames {
				out = append(out, p)
			}
		}
	}
	for _, m := range t.all(raisedAtRe, maxFrames) {
		if fn := assertedIn(t, m); strings.HasPrefix(fn, "test") && !namesWord(task, strings.ToLower(fn)) {
			if p := PathNorm(t.named(m, "p")); !slices.Contains(out, p) && len(out) < maxFrames {
				out = append(out, p)
			}
		}
	}
	return out
}

// failedTests returns the names of the tests a step's output reports
// failed, each once.
func failedTests(t *text) []string {
	var out []string
	for _, re := range failedTestRes {
		for _, m := range t.all(re, maxFrames) {
			if n := t.named(m, "n"); !slices.Contains(out, n) && len(out) < maxFrames {
				out = append(out, n)
			}
		}
	}
	return out
}

// assertedIn is the function a failed assertion's match m is in: the one
// Python's frame names, or the one pytest's entry lists above its
// location (after the entry's separator line, "_ _ _" or "___ name ___");
// "" when the output shows none.
func assertedIn(t *text, m match) string {
	if fn := t.named(m, "f"); fn != "" {
		return fn
	}
	entry := t.s[:m.Whole().Start]
	if sep := max(strings.LastIndex(entry, "\n_ _"), strings.LastIndex(entry, "\n____")); sep >= 0 {
		entry = entry[sep:]
	}
	defs := entryDefRe.FindAllStringSubmatch(entry, -1)
	if len(defs) == 0 {
		return ""
	}
	return defs[len(defs)-1][1]
}

// namesWord reports whether text holds word with no word character
// joined to it on either side.
func namesWord(text, word string) bool {
	for at := 0; word != ""; {
		i := strings.Index(text[at:], word)
		if i < 0 {
			return false
		}
		i += at
		if (i == 0 || !wordByte(text[i-1])) && (i+len(word) == len(text) || !wordByte(text[i+len(word)])) {
			return true
		}
		at = i + 1
	}
	return false
}

// defines returns the functions and classes a step's code defines, each
// once.
func defines(t *text) []string {
	var out []string
	for _, m := range t.all(definesRe, maxFrames) {
		if n := t.named(m, "n"); !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// callDefines adds to a step's definitions those of the code its calls
// write: a coding agent writes a file, or an edit of one, as a call's
// argument ({"path": "shipping.py", "content": "def shipping_cost(..."),
// which the step's text holds only as escaped JSON.
func callDefines(out []string, calls []Call) []string {
	for _, c := range calls {
		for _, v := range c.Values {
			if !strings.Contains(v, "\n") {
				continue // a definition with no body written
			}
			for _, n := range defines(newText(v)) {
				if !slices.Contains(out, n) && len(out) < maxFrames {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// Assertion is a test's check of what a call returns: the function called
// and the value written as what it must equal.
type Assertion struct {
	Func  string `json:"func"`
	Value string `json:"value"`
}

// assertRes read a check of a call's value as Python's assert, unittest's
// assertEqual and Jest's expect write it, each with the function in the
// group "f" and the expected value in "v".
var assertRes = []*matching.Pattern{
	pattern(`(?m)^[ \t]{0,16}assert[ \t]{1,4}(?:[\w.]{0,80}\.)?(?<f>[A-Za-z_]\w{0,80})\([^\n]{0,200}?\)[ \t]{0,4}==[ \t]{0,4}(?<v>[^\s#][^\n#]{0,80}?)[ \t]{0,8}(?:#[^\n]{0,200})?$`, 0),
	pattern(`\bassertEqual\([ \t]{0,4}(?:[\w.]{0,80}\.)?(?<f>[A-Za-z_]\w{0,80})\([^\n]{0,200}?\),[ \t]{0,4}(?<v>[^\s)][^\n)]{0,80}?)[ \t]{0,4}\)`, 0),
	pattern(`\bexpect\((?:[\w.]{0,80}\.)?(?<f>[A-Za-z_]\w{0,80})\([^\n]{0,200}?\)\)\.(?:toBe|toEqual|toStrictEqual)\([ \t]{0,4}(?<v>[^\s)][^\n)]{0,80}?)[ \t]{0,4}\)`, 0),
}

// assertions returns the checks of calls' values a step's code writes.
func assertions(t *text) []Assertion {
	var out []Assertion
	for _, re := range assertRes {
		for _, m := range t.all(re, maxFrames) {
			a := Assertion{Func: t.named(m, "f"), Value: t.named(m, "v")}
			if !slices.Contains(out, a) && len(out) < maxFrames {
				out = append(out, a)
			}
		}
	}
	return out
}
