package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/offattr/offattr/run"
)

// reportedVerbs are the verbs a bug report writes before the result the
// code gives ("to_roman(4) returns 'IIII'", "prints 0.30000000000000004").
var reportedVerbs = toSet("returns gives prints outputs yields produces")

// notReported are the words before such a verb that make its result the
// one wanted, or one the code may give, not the one it gives: "should
// return", "expected to give", "it would print", "never returns".
var notReported = toSet("should must shall would will could can may might to expected expect never not doesn't don't")

// maxReported bounds the length of a value read as a reported result: a
// value, not a paragraph.
const maxReported = 120

// reportedResults are the results the task reports the code gives, as a
// bug report writes them after "returns", "gives", "prints" and the like
// (not after "should return", "expected to return"): a quoted text, a
// list or a mapping written out, a number, or a literal (None, null, NaN,
// true), as written without its quotes. A reproduction whose output
// still shows it shows the reported problem. A task that reports more
// than one result reports none here: it contrasts a right one with the
// wrong one.
func reportedResults(task string) []string {
	var out []string
	prev := ""
	for i := 0; i < len(task); {
		r, n := utf8.DecodeRuneInString(task[i:])
		if !unicode.IsLetter(r) && r != '\'' {
			i += n
			continue
		}
		j := i
		for j < len(task) {
			r, n := utf8.DecodeRuneInString(task[j:])
			if !unicode.IsLetter(r) && r != '\'' {
				break
			}
			j += n
		}
		word := strings.ToLower(task[i:j])
		if reportedVerbs[word] && !notReported[prev] {
			if v, ok := resultAfter(task[j:]); ok {
				out = appendNew(out, v)
			}
		}
		prev, i = word, j
	}
	if len(out) > 1 {
		// "returns 5400 for '1h30m' but 3600 for '1h 30m'": a task that
		// reports several results contrasts a right one with the wrong,
		// and which is which is not read here.
		return nil
	}
	return out
}

// resultAfter reads the value a verb is followed by (after blanks): a
// quoted text, brackets written out, a number or a literal; false when
// what follows is none of these (a call written out, words).
func resultAfter(s string) (string, bool) {
	s = strings.TrimLeft(s, " \t")
	if s == "" {
		return "", false
	}
	switch c := s[0]; c {
	case '\'', '"', '`':
		end := strings.IndexByte(s[1:], c)
		if end < 1 || end > maxReported || strings.ContainsRune(s[1:1+end], '\n') {
			return "", false
		}
		return s[1 : 1+end], true
	case '[', '{', '(':
		closer := map[byte]byte{'[': ']', '{': '}', '(': ')'}[c]
		depth := 0
		for k := 0; k < len(s) && k <= maxReported; k++ {
			switch s[k] {
			case c:
				depth++
			case closer:
				if depth--; depth == 0 {
					if k < 2 {
						return "", false // () or []: too little to know it again
					}
					return s[:k+1], true
				}
			case '\n':
				return "", false
			}
		}
		return "", false
	}
	end := strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == ';' || r == ')' })
	if end < 0 {
		end = len(s)
	}
	v := strings.TrimRight(s[:end], ".:!?")
	switch {
	case literalResults[strings.ToLower(v)]:
		return v, true
	case v != "" && strings.IndexFunc(strings.TrimPrefix(v, "-"), func(r rune) bool { return !unicode.IsDigit(r) && r != '.' }) < 0 && unicode.IsDigit(rune(strings.TrimPrefix(v, "-")[0])):
		return v, true
	}
	return "", false
}

// literalResults are the literals a bug report names as what the code
// gives, in lower case.
var literalResults = toSet("none null nil undefined nan true false inf -inf")

// showingReported are the tool results whose output shows a result the
// task reports the code gives (reportedResults), as a whole token, and
// is what the first run of the same command line printed: the reported
// problem printed again, unchanged by whatever was done between. A
// result printed once may be the right result of another case the task
// contrasts ("returns 5400 for '1h30m' but 3600 for '1h 30m'"); and an
// output that changed from the first and is then printed again is what
// a change made of it, which may hold the reported result as another
// input's right one (2.5 and 1.6 both rounding to 2 before, 3 and 2
// after). Read after AssignCallers.
func showingReported(task string, steps []run.Step, rf *RunFeatures) []int {
	values := reportedResults(task)
	if len(values) == 0 {
		return nil
	}
	var out []int
	first := map[string]string{} // by command line, what its first run printed
	for i := range rf.Steps {
		c := int(rf.Steps[i].Caller)
		if !rf.Steps[i].Has(KindToolResult) || c < 0 || c >= i || len(rf.Steps[c].Calls) == 0 {
			continue
		}
		cmd := strings.TrimSpace(rf.Steps[c].Calls[0].Command())
		if cmd == "" {
			continue
		}
		text := strings.TrimSpace(steps[i].Content)
		was, ran := first[cmd]
		if !ran {
			first[cmd] = text
			continue
		}
		if was == text && slices.ContainsFunc(values, func(v string) bool { return containsToken(text, v) }) {
			out = append(out, i)
		}
	}
	return out
}

// TestedFile is the file name, bare, that a test file is named for by
// its language's convention: test_rates.py and rates_test.py test
// rates.py, cache_test.go cache.go, date.test.ts and date.spec.ts date.ts,
// DateParserTest.java DateParser.java; "" for a file named otherwise.
func TestedFile(path string) string {
	base := path[strings.LastIndexByte(path, '/')+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 {
		return ""
	}
	stem, ext := base[:dot], base[dot:]
	for _, infix := range []string{".test", ".spec"} {
		if s, ok := strings.CutSuffix(stem, infix); ok && s != "" {
			return s + ext
		}
	}
	switch {
	case strings.HasPrefix(stem, "test_") && len(stem) > 5:
		return stem[5:] + ext
	case strings.HasSuffix(stem, "_test") && len(stem) > 5:
		return stem[:len(stem)-5] + ext
	case (ext == ".java" || ext == ".kt" || ext == ".cs") && strings.HasSuffix(stem, "Test") && len(stem) > 4:
		return stem[:len(stem)-4] + ext
	case (ext == ".java" || ext == ".kt" || ext == ".cs") && strings.HasSuffix(stem, "Tests") && len(stem) > 5:
		return stem[:len(stem)-5] + ext
	}
	return ""
}

// InCopy reports whether a path lies in a directory that holds a copy of
// code made from elsewhere rather than the project's own source: build
// output (build/, dist/, target/), installed or vendored dependencies
// (vendor/, node_modules/, site-packages/, a virtual environment), and
// caches of compiled code. A change there is lost when the copy is made
// again, and is not the change a patch of the source needs.
//
// A build's output directory is read at the top of the project only
// (build/lib/pkg/util.py, /repo/dist/format.js: the first directory of a
// relative path, the second of an absolute one, under the checkout):
// src/build/ is a package of that name.
func InCopy(path string) bool {
	parts := strings.Split(strings.TrimPrefix(path, "./"), "/")
	top := 0
	if strings.HasPrefix(path, "/") {
		top = 2 // "", then the checkout's directory
	}
	for k, part := range parts {
		if copyDirs[part] || strings.HasSuffix(part, ".egg-info") || k == top && k+1 < len(parts) && buildDirs[part] {
			return true
		}
	}
	return false
}

var (
	// copyDirs hold installed or vendored code, or compiled caches,
	// wherever they are.
	copyDirs = toSet("vendor node_modules site-packages dist-packages __pycache__ .venv venv .tox .eggs")
	// buildDirs hold a build's output at the top of a project.
	buildDirs = toSet("build dist target")
)

// taskFiles are the files the task names, as PathNorm has them: the
// paths it writes, and the files the frames of a traceback it quotes run
// through (Python's File "PATH", line N), which claims leave out as a
// runtime's noise; not a frame in an installed package or in the
// interpreter's standard library (inStdlib). A frame in a package's or a
// program's entry file (__init__.py, __main__.py, index.js, main.go)
// names no module of its own: every package has one of that name.
func taskFiles(task string) []string {
	var out []string
	for _, c := range Claims(task) {
		if c.Kind == ClaimPath && !entryFiles[c.Norm[strings.LastIndexByte(c.Norm, '/')+1:]] {
			out = appendNew(out, c.Norm)
		}
	}
	for rest := task; ; {
		k := strings.Index(rest, `File "`)
		if k < 0 {
			break
		}
		rest = rest[k+len(`File "`):]
		end := strings.IndexAny(rest, "\"\n")
		if end <= 0 || rest[end] != '"' {
			continue
		}
		if p := rest[:end]; FileLike(p) && !InCopy(p) && !inStdlib(p) && !entryFiles[p[strings.LastIndexByte(p, '/')+1:]] {
			out = appendNew(out, PathNorm(p))
		}
		rest = rest[end:]
	}
	return out
}

// inStdlib reports whether a traceback's frame is in a Python
// interpreter's standard library (/usr/lib/python3.11/http/client.py,
// C:\Python311\Lib\socket.py): the interpreter's own module, which no
// patch of a project changes, so that a project's file of the same name
// (its own client.py) is not the task's file.
func inStdlib(p string) bool {
	parts := strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' })
	python := func(s string) bool {
		s = strings.ToLower(s)
		return len(s) > 6 && strings.HasPrefix(s, "python") && s[6] >= '0' && s[6] <= '9'
	}
	for k, part := range parts[:max(len(parts)-1, 0)] {
		if strings.EqualFold(part, "lib") && (k+2 < len(parts) && python(parts[k+1]) || k > 0 && python(parts[k-1])) {
			return true
		}
	}
	return false
}

// entryFiles are the names every package or program of a language may
// have a file of: a package's initialiser or index, a program's main.
var entryFiles = toSet("__init__.py __main__.py conftest.py setup.py index.js index.ts index.tsx index.mjs main.go main.rs lib.rs mod.rs main.py app.py Main.java Program.cs")
