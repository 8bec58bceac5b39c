package extract

import (
	"slices"
	"strings"
)

// runtimeNoise returns the spans of a text that the program running the
// agents printed about itself: the time a test run took (runDurations), a Python warning ("…/agents/x.py:216:
// UserWarning: …") with the source line shown under it, and the frame
// lines of a traceback ("  File "…/x.py", line 4, in run") with theirs.
// The paths and line numbers in them are the harness's, not values an
// agent states, and a warning repeated in every step of a run would
// otherwise tie them all into its data flow. The exception line that ends
// a traceback is kept: what failed is the agent's business.
func runtimeNoise(s string) []span {
	out := runDurations(s)
	if !strings.Contains(s, "Warning:") && !strings.Contains(s, `File "`) {
		return out
	}
	under := false // the line is the source a warning or frame line shows
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		line := s[start:end]
		switch {
		case pythonWarning(line) || frameLine(line):
			out = append(out, span{Start: start, End: end, OK: true})
			under = true
		case under && strings.HasPrefix(line, " ") && strings.TrimSpace(line) != "":
			out = append(out, span{Start: start, End: end, OK: true})
			under = false
		default:
			under = false
		}
		start = end + 1
	}
	return out
}

// pythonWarning reports a line as Python's warnings module prints one:
// "path.py:LINE: CategoryWarning: message".
func pythonWarning(line string) bool {
	i := strings.Index(line, ".py:")
	if i < 0 {
		return false
	}
	rest := line[i+len(".py:"):]
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	if digits == 0 || !strings.HasPrefix(rest[digits:], ": ") {
		return false
	}
	category, _, ok := strings.Cut(rest[digits+2:], ":")
	return ok && strings.HasSuffix(category, "Warning") && !strings.ContainsAny(category, " \t")
}

// frameLine reports a traceback frame line: `  File "path", line N, in f`.
func frameLine(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return len(t) < len(line) && strings.HasPrefix(t, `File "`) && strings.Contains(t, `", line `)
}

// runnerCounts are the words after which a test runner's summary counts
// tests ("1 failed, 2 passed in 0.02s", "3 passed, 1 warning in 0.12s",
// unittest's "Ran 12 tests in 0.004s").
var runnerCounts = []string{"passed", "failed", "error", "errors", "skipped", "deselected", "xfailed", "xpassed", "warning", "warnings", "test", "tests"}

// clockAfter returns the length of the clock time pytest writes after a
// duration of a minute or more (" (0:01:05)" of "in 65.43s (0:01:05)"),
// 0 when s does not open with one.
func clockAfter(s string) int {
	if !strings.HasPrefix(s, " (") {
		return 0
	}
	end := strings.IndexByte(s, ')')
	if end < 4 || strings.Trim(s[2:end], "0123456789:") != "" || !strings.Contains(s[2:end], ":") {
		return 0
	}
	return end + 1
}

// runDurations are the spans of the time a test runner's summary says the
// run took ("in 0.01s" of pytest's "1 passed in 0.01s"): the harness's
// clock, not a value an agent states, and a run that ends on a tester's
// report would otherwise answer with it.
func runDurations(s string) []span {
	var out []span
	for from := 0; ; {
		k := strings.Index(s[from:], " in ")
		if k < 0 {
			return out
		}
		k += from
		from = k + 4
		before := strings.TrimRight(s[:k], ",")
		word := before[strings.LastIndexByte(before, ' ')+1:]
		if !slices.Contains(runnerCounts, word) {
			continue
		}
		end := from
		for end < len(s) && (isDigit(s[end]) || s[end] == '.') {
			end++
		}
		if end > from && end < len(s) && s[end] == 's' && (end+1 == len(s) || !wordByte(s[end+1])) {
			out = append(out, span{Start: from, End: end + 1 + clockAfter(s[end+1:]), OK: true})
		}
	}
}

// hunkHeaders are the spans of a unified diff's hunk headers, "@@ -A,B
// +C,D @@" (either count may be left out), wherever they stand: a patch
// an agent builds in a string literal writes them mid-line, after "\n".
// They place a change and state no value: read as figures ("-1074"),
// every patch an agent writes would introduce values no step gave.
func hunkHeaders(s string) []span {
	var out []span
	for from := 0; ; {
		k := strings.Index(s[from:], "@@ -")
		if k < 0 {
			return out
		}
		k += from
		from = k + len("@@ -")
		rest := s[from:]
		n := lineRange(rest)
		if n == 0 || !strings.HasPrefix(rest[n:], " +") {
			continue
		}
		m := lineRange(rest[n+2:])
		if m == 0 || !strings.HasPrefix(rest[n+2+m:], " @@") {
			continue
		}
		end := from + n + 2 + m + len(" @@")
		out = append(out, span{Start: k, End: end, OK: true})
		from = end
	}
}

// lineRange returns the length of the line range a hunk header opens s
// with ("1074,7", or "12" alone), 0 when it does not open with one.
func lineRange(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 {
		return 0
	}
	if i < len(s) && s[i] == ',' {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i+1 {
			return 0
		}
		i = j
	}
	return i
}
