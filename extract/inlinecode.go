package extract

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// inlineCode is the code an interpreter is given on its command line
// rather than in a file: after its code option (python -c CODE, node -e
// CODE), or on its standard input by a here-document or a here-string
// (python - <<'EOF' ... EOF) when it is given no script to run. ok is
// false when the command runs a script file, or is no interpreter.
func inlineCode(w []string, fed string) (code string, ok bool) {
	prog := program(w[0])
	if codeOptions[prog] == "" {
		return "", false
	}
	for i := 1; i < len(w); i++ {
		a := w[i]
		switch {
		case takesCode(prog, a) && i+1 < len(w):
			return w[i+1], true
		case a == "-":
			return fed, fed != ""
		case a == "-m" || !strings.HasPrefix(a, "-"):
			return "", false // a module or a script file runs
		}
	}
	return fed, fed != ""
}

// fedText is the text a statement's here-document or here-string gives
// its command's standard input, as written.
func fedText(redirs []*syntax.Redirect) string {
	for _, d := range redirs {
		switch {
		case (d.Op == syntax.Hdoc || d.Op == syntax.DashHdoc) && d.Hdoc != nil:
			return written(d.Hdoc)
		case d.Op == syntax.WordHdoc && d.Word != nil:
			return written(d.Word)
		}
	}
	return ""
}

// codeWrites are the files, as written, that a piece of Python or
// JavaScript code writes, moves or removes by name: open(NAME, "w") (or
// "a", "x", "+"), Path(NAME).write_text, os.remove, os.rename and
// shutil's copies and moves (their destination), Node's writeFileSync
// and its kin. A name is a string literal, or a variable the code assigns
// one to (p = "pkg/core.py"). The code is read, never run: a file named
// by an expression is not read.
func codeWrites(code string) []string {
	vars := assignedStrings(code)
	var out []string
	add := func(arg string) {
		if f, ok := stringArg(arg, vars); ok && FileLike(f) {
			out = appendNew(out, f)
		}
	}
	for _, c := range callsIn(code) {
		switch {
		case c.name == "open" && c.receiver == "" || c.name == "io.open" || c.name == "codecs.open":
			if len(c.args) > 0 && writingMode(c.args[1:], vars) {
				add(c.args[0])
			}
		case c.name == "open":
			// a path's own open (Path("x").open("w")): the mode comes first
			if writingMode(c.args, vars) {
				add(c.receiver)
			}
		case c.name == "write_text" || c.name == "write_bytes" || c.name == "unlink" || c.name == "touch":
			add(c.receiver)
		case codeRemoves[c.name]:
			if len(c.args) > 0 {
				add(c.args[0])
			}
		case codeCopies[c.name]:
			if len(c.args) > 1 {
				add(c.args[1])
			}
			if c.name == "os.rename" || c.name == "os.replace" || c.name == "shutil.move" || c.name == "renameSync" {
				add(c.args[0])
			}
		}
	}
	return out
}

var (
	// codeRemoves write or remove the file named first.
	codeRemoves = toSet("os.remove os.unlink writeFileSync appendFileSync unlinkSync rmSync writeFile appendFile")
	// codeCopies write the file named second.
	codeCopies = toSet("shutil.copy shutil.copy2 shutil.copyfile shutil.move os.rename os.replace copyFileSync renameSync")
)

// writingMode reports whether open's arguments after the file give a mode
// that writes: the first positional one, or mode=.
func writingMode(args []string, vars map[string]string) bool {
	for k, a := range args {
		a = strings.TrimSpace(a)
		if v, ok := strings.CutPrefix(a, "mode="); ok {
			a = v
		} else if k > 0 || strings.Contains(a, "=") {
			continue
		}
		if m, ok := stringArg(a, vars); ok {
			return strings.ContainsAny(m, "wax+")
		}
	}
	return false
}

// codeCall is one call written in code: its dotted name (the last part
// alone after a call or a subscript: Path("x").write_text → write_text),
// what it is called on when that is a call or a name, and its arguments
// as written.
type codeCall struct {
	name, receiver string
	args           []string
}

// callsIn are the calls written in code, in order. Strings are skipped
// as a whole, so a parenthesis inside one is not a call.
func callsIn(code string) []codeCall {
	var out []codeCall
	for i := 0; i < len(code); i++ {
		switch c := code[i]; {
		case c == '"' || c == '\'' || c == '`':
			i = stringEnd(code, i) - 1
		case c == '(' && i > 0 && isIdentByte(code[i-1]):
			start := i
			for start > 0 && (isIdentByte(code[start-1]) || code[start-1] == '.') {
				start--
			}
			name := code[start:i]
			var receiver string
			if start > 0 && code[start] == '.' {
				receiver = receiverBefore(code, start)
			}
			end := codeClosing(code, i)
			if end < 0 {
				return out
			}
			if dot := strings.LastIndexByte(name, '.'); receiver != "" || dot >= 0 && !strings.Contains(name[:dot], ".") && !knownModule[name[:dot]] {
				if receiver == "" {
					receiver = name[:dot]
				}
				name = name[dot+1:]
			}
			out = append(out, codeCall{name: strings.TrimPrefix(name, "."), receiver: receiver, args: splitArgs(code[i+1 : end])})
		}
	}
	return out
}

// knownModule are the modules whose functions codeWrites reads by their
// dotted names.
var knownModule = toSet("os shutil io codecs")

// receiverBefore is the call a method called at a dot at i is called on,
// when it is one: Path("x") in Path("x").write_text(...).
func receiverBefore(code string, dot int) string {
	if dot == 0 || code[dot-1] != ')' {
		// a name: p.write_text
		start := dot
		for start > 0 && isIdentByte(code[start-1]) {
			start--
		}
		return code[start:dot]
	}
	depth := 0
	for k := dot - 1; k >= 0; k-- {
		switch code[k] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return strings.TrimSpace(code[k+1 : dot-1])
			}
		}
	}
	return ""
}

// codeClosing is the index of the parenthesis that closes the one at open,
// strings skipped; -1 when none does.
func codeClosing(code string, open int) int {
	depth := 0
	for k := open; k < len(code); k++ {
		switch code[k] {
		case '"', '\'', '`':
			k = stringEnd(code, k) - 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// stringEnd is the index after the string literal that opens at i (its
// quote, a backslash escaping the next byte), or the end of the code.
func stringEnd(code string, i int) int {
	q := code[i]
	for k := i + 1; k < len(code); k++ {
		switch code[k] {
		case '\\':
			k++
		case q:
			return k + 1
		case '\n':
			if q != '`' {
				return k + 1
			}
		}
	}
	return len(code)
}

// splitArgs splits a call's arguments at its top-level commas.
func splitArgs(s string) []string {
	var out []string
	depth, from := 0, 0
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '"', '\'', '`':
			k = stringEnd(s, k) - 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[from:k]))
				from = k + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[from:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// stringArg is the string an argument gives: a literal (with a Python
// prefix such as r or f, when it has no placeholder), a variable assigned
// one, or the single argument of a path constructor given one (Path("x")).
func stringArg(a string, vars map[string]string) (string, bool) {
	a = strings.TrimSpace(a)
	if open := strings.IndexByte(a, '('); open > 0 && strings.HasSuffix(a, ")") && pathConstructors[a[:open]] {
		return stringArg(a[open+1:len(a)-1], vars)
	}
	if v, ok := vars[a]; ok {
		return v, true
	}
	a = strings.TrimLeft(a, "rRbBuU")
	if len(a) >= 2 && (a[0] == '"' || a[0] == '\'') && a[len(a)-1] == a[0] && stringEnd(a, 0) == len(a) {
		return a[1 : len(a)-1], true
	}
	return "", false
}

// pathConstructors make a path from the string they are given.
var pathConstructors = toSet("Path pathlib.Path PurePath")

// assignedStrings are the names code assigns a string to, one a line
// (p = "pkg/core.py", path = Path("x.py")); a name assigned twice is
// dropped, as which value a call sees is not read.
func assignedStrings(code string) map[string]string {
	vars := map[string]string{}
	seen := map[string]bool{}
	for line := range strings.SplitSeq(code, "\n") {
		for stmt := range strings.SplitSeq(line, ";") {
			name, value, ok := strings.Cut(stmt, "=")
			for _, decl := range []string{"const ", "let ", "var "} {
				name = strings.TrimPrefix(strings.TrimSpace(name), decl)
			}
			name = strings.TrimSpace(strings.TrimSpace(name))
			if !ok || !isName(name) || strings.HasPrefix(value, "=") {
				continue
			}
			if seen[name] {
				delete(vars, name)
				continue
			}
			seen[name] = true
			if v, ok := stringArg(value, nil); ok {
				vars[name] = v
			}
		}
	}
	return vars
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// blockWrites are the files, as PathNorm has them, that a code block in a
// message writes by name, read by its language: Python's as codeWrites
// reads a script, a shell's as a command line (its edits, heredocs and
// redirections). A block of another language, or of none, writes none
// that is read.
func blockWrites(lang, code string) []string {
	var out []string
	switch lang {
	case "python", "py", "python3":
		for _, w := range codeWrites(code) {
			out = appendNew(out, PathNorm(w))
		}
	case "sh", "bash", "shell", "console", "zsh":
		out = readCommand(code, nil).writes
	}
	return out
}
