package extract

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/offattr/offattr/internal/shellword"
	"mvdan.cc/sh/v3/syntax"
)

// commandOf returns the command line a call's arguments give it to run,
// "" when they give none: the value of a "command" or "cmd" argument, as
// a shell or a file editor exposed as a tool takes it (Claude Code's Bash,
// Codex CLI's exec_command and shell, SWE-agent's and OpenHands' bash and
// str_replace_editor). A command written as a list of words (["bash",
// "-lc", "cat x"]) is the line the shell is given; words are then the
// list as written, nil for a command given as a line.
func commandOf(args string) (line string, words []string) {
	if !strings.Contains(args, `"command"`) && !strings.Contains(args, `"cmd"`) {
		return "", nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &m) != nil {
		return "", nil
	}
	raw, ok := m["command"]
	if !ok {
		raw = m["cmd"]
	}
	if json.Unmarshal(raw, &line) == nil {
		return line, nil
	}
	if json.Unmarshal(raw, &words) != nil || len(words) == 0 {
		return "", nil
	}
	if len(words) == 3 && shells[words[0]] && strings.HasPrefix(words[1], "-") && strings.HasSuffix(words[1], "c") {
		return words[2], words
	}
	return strings.Join(words, " "), words
}

// shells are the programs that run the command line after their -c.
var shells = toSet("bash sh zsh /bin/bash /bin/sh /usr/bin/bash /usr/bin/zsh")

// callFiles are the files a call names, as PathNorm has them, each once:
// those its command line names (fromLine, commandReading's), then its
// arguments of one word beside the command that are file names or paths
// (an editor's "path", a writing tool's file).
func (c Call) callFiles(fromLine []string) []string {
	out := fromLine
	for _, v := range c.Values {
		if c.InCommand(v) {
			continue
		}
		if v = strings.Trim(v, `"'`); !strings.ContainsAny(v, " \t\n") && FileLike(v) {
			out = appendNew(out, PathNorm(v))
		}
	}
	return out
}

// commandReading is what a command line does, read once by a shell
// parser. files are the files it names: its arguments that are paths or
// names with an extension, the files its redirections read or write, the
// files a patch it applies names. reads holds when it only reads or
// checks: every command of it runs a program that prints what is there
// (cat, ls, grep, a diff, a test runner) or is a reading verb (an
// editor's "view"), none writes its output to a file, and none is
// substituted into another; an edit, sed -i, pip install or a script may
// change a file or the environment. writes are the files it writes when
// writing them is all it does besides reading; nil for a line that also
// runs a program that may write anything (a script, an install, a
// build). The line is parsed, never expanded or run: a substituted
// command ($(...), `...`, <(...)) is read as one that may change
// anything. A line the parser rejects (text that is not shell, a half
// command) is read plainly: its words that name files, and not as one
// that only reads.
type commandReading struct {
	files  []string
	writes []string
	reads  bool
	// checks is set when a command of it runs a check (a test runner, a
	// linter) and it writes no file but the check's output saved (tee, a
	// redirection of the check).
	checks bool
	// scripts are the files it runs as code (scriptFiles).
	scripts []string
	// configs are the files the checks it runs read as their
	// configuration (checkConfigs).
	configs []string
	// discards are the files whose uncommitted changes it throws away
	// (discarded).
	discards []string
	// checked are where, in the line, its commands that run a check
	// (a test runner given a test's name) are written: they change
	// nothing, and a name they are given is not written anywhere.
	checked [][2]int
	// updates is set when a test runner of the line rewrites what its
	// tests expect from what they now give (jest -u).
	updates bool
	// aside is set when the line sets every change aside and brings it
	// back (git stash && pytest; git stash pop): it changes nothing, and
	// checks nothing of the changes.
	aside bool
	// pins is set when a command of it installs a dependency at a
	// version it names (pinsDependency).
	pins bool
}

// readCommand reads a command line; "" reads as nothing, and not as a
// read. A command given as a list of words (words, not a shell's -c
// line) is the program and its arguments as they are, read as one
// command without parsing.
func readCommand(line string, words []string) commandReading {
	r := &commandReader{reads: true, at: [2]int{-1, -1}}
	switch {
	case words != nil && !(len(words) == 3 && words[2] == line):
		r.words(words, 0)
	case !r.line(line, 0):
		return commandReading{files: plainFiles(line)}
	}
	out := commandReading{files: r.files, reads: r.reads && r.commands > 0, checks: r.checks && !r.changes, scripts: r.scripts, configs: r.configs, discards: r.discards, checked: r.checked, aside: r.aside && !r.edits, updates: r.updates, pins: r.pins}
	if r.edits && !r.runs {
		out.writes = append(make([]string, 0, len(r.writes)), r.writes...)
	}
	return out
}

// plainFiles are the words of a line the parser rejects that name files,
// as PathNorm has them.
func plainFiles(line string) []string {
	var out []string
	for w := range strings.FieldsSeq(line) {
		if w = strings.Trim(w, `"'`); FileLike(w) {
			out = appendNew(out, PathNorm(w))
		}
	}
	return out
}

const (
	// maxCommandLine bounds the line given to the parser: a command is
	// short, and a longer one is read plainly.
	maxCommandLine = 1 << 20
	// maxNesting bounds how deeply a line's brackets nest before it is
	// parsed: the parser descends once per level, and a line of a
	// million "$(" would take it past the stack Go allows a goroutine
	// (a fatal error, not a panic). Real commands nest a few levels.
	maxNesting = 256
	// maxShellDepth bounds how many shells given a line with -c (bash
	// -c "sh -c '...'") are read into.
	maxShellDepth = 3
)

// commandReader gathers what the commands of a line do.
type commandReader struct {
	files, writes []string
	// scripts are the files its commands run as code (scriptFiles).
	scripts []string
	// configs are the files its checks read as their configuration.
	configs []string
	// discards are the files whose changes its commands throw away.
	discards []string
	// updates is set when a test runner of the line rewrites what its
	// tests expect (updatesExpected).
	updates bool
	// pins is set when a command installs a dependency at a version it
	// names (pinsDependency).
	pins bool
	// stashed is set when a git stash of the line set every change
	// aside, and no stash pop or apply of it has brought them back yet;
	// aside, when one did.
	stashed, aside bool
	reads          bool
	// runs is set when a command neither reads nor only writes the
	// files it names.
	runs, edits bool
	// checks is set when a command runs a test runner or a linter.
	checks   bool
	commands int
	// fed are the files a patch given to the statement being read by a
	// here-document or a here-string names (fedPatch).
	fed []string
	// fedCode is the text a here-document or a here-string gives the
	// statement being read (fedText): the code of an interpreter run on
	// its standard input.
	fedCode string
	// output are the redirections of a check's own statement (pytest >
	// out.txt): they save what it prints.
	output []*syntax.Redirect
	// changes is set when a command writes a file other than by saving
	// a check's output: an edit, a copy, a heredoc into a file.
	changes bool
	// checked are the spans of the first line's commands that run a
	// check; at is the span of the command being read, none within a
	// shell's -c line.
	checked [][2]int
	at      [2]int
}

// line parses a command line and reads its commands, at depth shells
// within the first; false when the parser rejects it.
func (r *commandReader) line(line string, depth int) bool {
	if strings.TrimSpace(line) == "" || len(line) > maxCommandLine || nesting(line) > maxNesting {
		return false
	}
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(line), "")
	parsers.Put(p)
	if err != nil {
		return false
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			r.fed = fedPatch(n.Redirs)
			r.fedCode = fedText(n.Redirs)
			if c, ok := n.Cmd.(*syntax.CallExpr); ok && len(n.Redirs) > 0 && checkingCall(c) {
				r.output = append(r.output, n.Redirs...)
			}
		case *syntax.CallExpr:
			r.call(n, depth)
		case *syntax.Redirect:
			r.redirect(n)
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.DeclClause, *syntax.FuncDecl, *syntax.LetClause, *syntax.CoprocClause:
			// A substituted command runs unread; a declaration, a
			// function or let changes the shell's state.
			r.reads, r.runs = false, true
		}
		return true
	})
	return true
}

// parsers are shell parsers to reuse: a parser is made with buffers a
// command line of a few words does not need again, and one parses one
// line at a time.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// nesting is how deeply a line's brackets nest at most, quotes not
// heeded: an upper bound on the parser's descent through them.
func nesting(line string) int {
	depth, most := 0, 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '(', '{', '[', '`':
			depth++
			most = max(most, depth)
		case ')', '}', ']':
			depth = max(depth-1, 0)
		}
	}
	return most
}

// call reads one simple command: whether its program only reads, and
// the files its arguments name.
func (r *commandReader) call(c *syntax.CallExpr, depth int) {
	w := make([]string, len(c.Args))
	for i, a := range c.Args {
		w[i] = literal(a)
	}
	r.at = [2]int{-1, -1}
	if depth == 0 {
		r.at = [2]int{int(c.Pos().Offset()), int(c.End().Offset())}
	}
	r.words(w, depth)
}

// words reads one simple command as its words.
func (r *commandReader) words(w []string, depth int) {
	r.commands++
	for len(w) > 0 && w[0] != "" && strings.Contains(w[0], "=") && !strings.HasPrefix(w[0], "-") {
		w = w[1:] // VAR=value read as a word
	}
	if len(w) > 0 && program(w[0]) == "env" {
		// env with a program after its options and assignments runs it.
		w = w[1:]
		for len(w) > 0 && (strings.HasPrefix(w[0], "-") || strings.Contains(w[0], "=")) {
			w = w[1:]
		}
	}
	if len(w) > 0 && program(w[0]) == "xargs" {
		// xargs runs the program after its options on the words it reads
		// (find ... | xargs sed -i ...): what that program does is what
		// the line does; xargs alone prints them.
		w = xargsProgram(w[1:])
	}
	if len(w) == 0 {
		return // assignments alone change no file
	}
	r.pins = r.pins || pinsDependency(w)
	if inner, ok := shellLine(w); ok && depth < maxShellDepth {
		sub := &commandReader{reads: true}
		if !sub.line(inner, depth+1) {
			sub.files, sub.reads, sub.runs = plainFiles(inner), false, true
		}
		r.commands += sub.commands
		r.reads = r.reads && sub.reads
		r.runs = r.runs || sub.runs
		r.edits = r.edits || sub.edits
		r.checks = r.checks || sub.checks
		r.changes = r.changes || sub.changes
		r.updates = r.updates || sub.updates
		r.pins = r.pins || sub.pins
		for _, f := range sub.files {
			r.files = appendNew(r.files, f)
		}
		for _, f := range sub.writes {
			r.writes = appendNew(r.writes, f)
		}
		for _, f := range sub.scripts {
			r.scripts = appendNew(r.scripts, f)
		}
		for _, f := range sub.configs {
			r.configs = appendNew(r.configs, f)
		}
		for _, f := range sub.discards {
			r.discards = appendNew(r.discards, f)
		}
		return
	}
	if code, ok := inlineCode(w, r.fedCode); ok {
		if written := codeWrites(code); len(written) > 0 {
			r.inlineWrites(written)
			return
		}
	}
	files := operandFiles(w)
	if p := program(w[0]); p == "cd" || p == "pushd" {
		files = nil // the directory the rest of the line runs in, not a file it acts on
	}
	if patchers[program(w[0])] || program(w[0]) == "git" && len(w) > 1 && w[1] == "apply" {
		files = append(files, r.fed...)
		for _, a := range w[1:] {
			for _, f := range patchFiles(a) {
				files = append(files, PathNorm(f)) // apply_patch given its patch as an argument
			}
		}
	}
	for _, a := range files {
		r.files = appendNew(r.files, a)
	}
	for _, a := range scriptFiles(w, files) {
		r.scripts = appendNew(r.scripts, a)
	}
	if r.stashed && restoresStash(w) {
		// git stash && pytest; git stash pop: the line brings back what
		// it set aside. It changes nothing overall, and what ran between
		// checked the code without the changes: no check of them.
		r.stashed, r.aside, r.checks, r.checked = false, true, false, nil
		if r.discards = slices.DeleteFunc(r.discards, func(f string) bool { return f == "." }); len(r.discards) == 0 {
			r.discards = nil
		}
		return
	}
	for _, a := range discarded(w, files) {
		r.stashed = r.stashed || w[1] == "stash" && !slices.Contains(r.discards, a)
		r.discards = appendNew(r.discards, a)
	}
	if updatesExpected(w) {
		// jest -u: the runner writes what the tests now give as what they
		// expect. It changes the tests' expectations, not the code, and
		// checks nothing.
		r.updates, r.reads, r.edits, r.changes = true, false, true, true
		return
	}
	if fixesInPlace(w) {
		// ruff check --fix, eslint --fix: the linter rewrites the files
		// it is given. It changes the code, and what it reports is what
		// it left unfixed: no check of the code it changed.
		r.reads, r.edits, r.changes = false, true, true
		for _, f := range files {
			r.writes = appendNew(r.writes, f)
		}
		return
	}
	if checkingCommand(w) {
		for _, f := range checkConfigs(w) {
			r.configs = appendNew(r.configs, f)
		}
		r.checks = true
		if r.at[0] >= 0 {
			r.checked = append(r.checked, r.at)
		}
	}
	if readingCommand(w) {
		return
	}
	r.reads = false
	if written, ok := edits(w, files); ok {
		r.edits = true
		r.changes = r.changes || program(w[0]) != "tee"
		for _, f := range written {
			r.writes = appendNew(r.writes, f)
			r.files = appendNew(r.files, f) // sort -o's output, an option's value
		}
	} else {
		r.runs = true
	}
}

// inlineWrites reads an interpreter given its code on the line (python -
// <<'EOF', python -c) whose code writes files by name (codeWrites): it
// edits those files, as sed -i does, and it is no check.
func (r *commandReader) inlineWrites(written []string) {
	r.reads, r.edits, r.changes = false, true, true
	for _, f := range written {
		r.files = appendNew(r.files, PathNorm(f))
		r.writes = appendNew(r.writes, PathNorm(f))
	}
}

// edits returns the files one command writes, of those it names (files),
// when writing them is all it does: an edit in place (sed -i, perl -i,
// gawk -i inplace, ed and ex scripts), tee, touch, rm, mkdir, truncate,
// chmod, the destination of cp, mv, ln and install, the file sort -o
// writes, the files git checkout, restore, rm and mv change. git stash
// pop and apply change the files the stash holds, which the line does
// not name, as a patch applied does. find that
// deletes what it finds, or runs such a program on it (-exec rm), changes
// files the line does not name: an empty, non-nil list. A patch
// applied (git apply, patch) changes files its text names: it edits, but
// which files is not read here. false for any other program.
func edits(w, files []string) ([]string, bool) {
	prog := program(w[0])
	switch {
	case prog == "sed" || prog == "perl":
		inPlace := slices.ContainsFunc(w[1:], func(a string) bool {
			return strings.HasPrefix(a, "--in-place") || inPlaceOption(prog, a)
		})
		return files, inPlace
	case (prog == "awk" || prog == "gawk") && awkInPlace(w[1:]):
		return files, true
	case writingPrograms[prog] || prog == "ed" || prog == "ex":
		return files, true
	case prog == "sort":
		if out, ok := sortOutput(w[1:]); ok {
			return []string{PathNorm(out)}, true
		}
		return nil, false
	case prog == "find":
		// -delete, or -exec of a program that only writes (rm, sed -i):
		// it changes the files it finds, which the line does not name.
		if slices.Contains(w[1:], "-delete") {
			return []string{}, true
		}
		if i := slices.IndexFunc(w, func(a string) bool { return a == "-exec" || a == "-execdir" }); i > 0 && i+1 < len(w) {
			if _, ok := edits(w[i+1:], nil); ok {
				return []string{}, true
			}
		}
		return nil, false
	case copyingPrograms[prog]:
		if len(files) == 0 {
			return nil, true
		}
		return files[len(files)-1:], true
	case patchers[prog]:
		return patched(files), true
	case manifestFiles(w) != nil:
		return manifestFiles(w), true
	case restoresStash(w):
		return []string{}, true // the files the stash holds, which the line does not name
	case prog == "git" && len(w) > 1 && gitEdits[w[1]]:
		if w[1] == "apply" {
			return patched(files), !slices.Contains(w[2:], "--check") && !slices.Contains(w[2:], "--stat")
		}
		return files, true
	}
	return nil, false
}

// scriptFiles are the files, of those a command names (files, as
// operandFiles reads them), that it runs as code: a program run by its
// path (./repro.sh), the script an interpreter or a shell is given
// (python reproduce.py, bash run.sh; not a module after -m or code after
// -c), the tests a test runner is given. The files a script is given as
// its data or its options' values (--config settings.cfg) are not.
func scriptFiles(w, files []string) []string {
	prog := program(w[0])
	switch {
	case checkingCommand(w):
		return files
	case codeOptions[prog] != "" || shells[prog] || interpreters[prog]:
		for i := 1; i < len(w); i++ {
			switch a := w[i]; {
			case takesCode(prog, a) || a == "-m" || a == "-":
				return nil
			case strings.HasPrefix(a, "-"):
				continue
			case fileWord(a):
				return []string{PathNorm(a)}
			default:
				return nil
			}
		}
		return nil
	case strings.Contains(w[0], "/") && fileWord(w[0]):
		return []string{PathNorm(w[0])}
	}
	return nil
}

// discarded are the files, of those a command names (files), whose
// uncommitted changes it throws away, restoring what the repository
// holds: git checkout or git restore of paths (of the working tree, not
// the index alone), "." for the whole tree, and git stash (push, save)
// and git reset --hard, which throw away every change ("."). nil for any
// other command; git checkout of a branch alone names no file.
func discarded(w, files []string) []string {
	if program(w[0]) != "git" || len(w) < 2 {
		return nil
	}
	args := w[2:]
	whole := slices.Contains(args, ".") || slices.Contains(args, ":/")
	switch w[1] {
	case "checkout", "restore":
		if w[1] == "restore" && slices.Contains(args, "--staged") && !slices.Contains(args, "--worktree") && !slices.Contains(args, "-W") {
			return nil // the index only: the working tree keeps the changes
		}
		if whole {
			return []string{"."}
		}
		if w[1] == "checkout" && !slices.Contains(args, "--") {
			return nil // a branch, or paths git reads as one when they are not
		}
		return files
	case "stash":
		if len(args) == 0 || args[0] == "push" || args[0] == "save" || strings.HasPrefix(args[0], "-") {
			return []string{"."}
		}
	case "reset":
		if slices.Contains(args, "--hard") {
			return []string{"."}
		}
	}
	return nil
}

// manifestFiles are the files a package manager's command that adds,
// removes or changes a dependency by name writes: the project's manifest
// and its lock (go get example.com/m@v1 writes go.mod and go.sum, npm
// install left-pad package.json, cargo add Cargo.toml, poetry add and uv
// add pyproject.toml). nil for any other command, for one that installs
// what the manifest already holds (npm install, go mod download), and
// for one that installs outside the project or without recording it
// (npm install -g typescript, --no-save): it changes no file of the
// project.
func manifestFiles(w []string) []string {
	if len(w) < 3 || slices.ContainsFunc(w[2:], func(a string) bool { return unsavedInstall[a] }) {
		return nil
	}
	named := slices.ContainsFunc(w[2:], func(a string) bool { return !strings.HasPrefix(a, "-") })
	if !named {
		return nil
	}
	switch prog, verb := program(w[0]), w[1]; {
	case prog == "go" && verb == "get":
		return []string{"go.mod", "go.sum"}
	case (prog == "npm" || prog == "pnpm") && (verb == "install" || verb == "i" || verb == "add" || verb == "uninstall" || verb == "remove"),
		prog == "yarn" && (verb == "add" || verb == "remove" || verb == "upgrade"):
		return []string{"package.json"}
	case prog == "cargo" && (verb == "add" || verb == "remove"):
		return []string{"Cargo.toml"}
	case (prog == "poetry" || prog == "uv") && (verb == "add" || verb == "remove"):
		return []string{"pyproject.toml"}
	}
	return nil
}

// pinsDependency reports whether a command, as its words, installs a
// Python package at a version it names (pip install 'pydantic<2',
// python -m pip install requests==2.19, uv pip install): it changes the
// code's environment, what the code runs against, though it writes no
// file of the project. An install of what the project names (pip
// install -e ., -r requirements.txt) or of a package at no version
// changes no version the project chose. Other package managers record
// a named dependency in the manifest (manifestFiles).
func pinsDependency(w []string) bool {
	for len(w) > 0 && program(w[0]) != "pip" && program(w[0]) != "pip3" {
		switch {
		case strings.HasPrefix(program(w[0]), "python") && len(w) > 2 && w[1] == "-m":
			w = w[2:]
		case program(w[0]) == "uv" && len(w) > 1:
			w = w[1:]
		default:
			return false
		}
	}
	if len(w) < 3 || w[1] != "install" {
		return false
	}
	return slices.ContainsFunc(w[2:], func(a string) bool {
		return !strings.HasPrefix(a, "-") && strings.ContainsAny(a, "<>=~!") && !FileLike(a)
	})
}

// unsavedInstall are package managers' options that install a package
// outside the project (a global tool) or without writing it to the
// manifest.
var unsavedInstall = toSet("-g --global --location=global --no-save")

// restoresStash reports whether a command, as its words, brings back
// the changes the last git stash set aside: git stash pop or apply.
func restoresStash(w []string) bool {
	return program(w[0]) == "git" && len(w) > 2 && w[1] == "stash" && (w[2] == "pop" || w[2] == "apply")
}

// interpreters run the script file named first among their arguments,
// besides those that codeOptions lists.
var interpreters = toSet("pypy pypy3 deno bun tsx ts-node Rscript lua julia")

// awkInPlace reports whether gawk, given these words after its name, edits
// its files in place: -i inplace (or --include=inplace), its extension
// for that.
func awkInPlace(w []string) bool {
	for i, a := range w {
		if (a == "-i" || a == "--include") && i+1 < len(w) && w[i+1] == "inplace" || a == "--include=inplace" || a == "-iinplace" {
			return true
		}
	}
	return false
}

// sortOutput is the file sort writes its output to (-o FILE, -oFILE,
// --output=FILE, --output FILE), if it is given one.
func sortOutput(w []string) (string, bool) {
	for i, a := range w {
		switch {
		case (a == "-o" || a == "--output") && i+1 < len(w):
			return w[i+1], true
		case strings.HasPrefix(a, "--output="):
			return strings.TrimPrefix(a, "--output="), true
		case len(a) > 2 && strings.HasPrefix(a, "-o") && a[1] == 'o':
			return a[2:], true
		}
	}
	return "", false
}

// inPlaceOption reports whether a short option, or a cluster of them
// (-pi, -ni), of sed or perl holds -i, an edit in place. The letters after
// one that takes a value are that value, not options: perl -Mstrict and
// -Ilib load a module and name a directory, sed -f script.sed reads a
// file.
func inPlaceOption(prog, a string) bool {
	if len(a) < 2 || a[0] != '-' || a[1] == '-' {
		return false
	}
	valued := "efl" // sed -e SCRIPT, -f FILE, -l N
	if prog == "perl" {
		valued = "eEMmIxCdD"
	}
	for i := 1; i < len(a); i++ {
		switch {
		case a[i] == 'i':
			return true
		case strings.IndexByte(valued, a[i]) >= 0:
			return false
		}
	}
	return false
}

// xargsProgram is the command xargs runs, given the words after xargs:
// the words after its options and their values (-n 1, -I {}, -P 4).
func xargsProgram(w []string) []string {
	for len(w) > 0 && strings.HasPrefix(w[0], "-") {
		if xargsValued[w[0]] && len(w) > 1 {
			w = w[1:]
		}
		w = w[1:]
	}
	return w
}

// xargsValued are xargs's options that take the next word as their value.
var xargsValued = toSet("-a -d -E -I -L -n -P -s --arg-file --delimiter --max-args --max-procs --max-lines --max-chars --replace --eof")

// patched are the files a patch applied changes, of those its command
// names: not the patch file it reads.
func patched(files []string) []string {
	return slices.DeleteFunc(slices.Clone(files), func(f string) bool {
		return strings.HasSuffix(f, ".patch") || strings.HasSuffix(f, ".diff")
	})
}

// fedPatch are the files, as PathNorm has them, that a patch given by a
// here-document or a here-string names on its head lines (patchFiles):
// apply_patch <<'EOF' with Codex CLI's envelope, git apply or patch with
// a unified diff. nil when no such text is given.
func fedPatch(redirs []*syntax.Redirect) []string {
	var out []string
	for _, d := range redirs {
		text := d.Hdoc
		if d.Op == syntax.WordHdoc {
			text = d.Word
		}
		if text == nil || d.Op != syntax.Hdoc && d.Op != syntax.DashHdoc && d.Op != syntax.WordHdoc {
			continue
		}
		for _, f := range patchFiles(written(text)) {
			out = appendNew(out, PathNorm(f))
		}
	}
	return out
}

// written is the text of a word as written, its expansions left out: the
// body of a here-document.
func written(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				}
			}
		}
	}
	return b.String()
}

var (
	// patchers apply the patch they are given: patch, and Codex CLI's
	// apply_patch, which its shell runs.
	patchers        = toSet("patch apply_patch")
	writingPrograms = toSet("tee touch rm mkdir truncate chmod")
	copyingPrograms = toSet("cp mv ln install")
	gitEdits        = toSet("checkout restore rm mv apply")
)

// redirect reads one redirection: one that writes to a file makes the
// line one that changes something, and the file it reads or writes is
// one the line names. Standard error joined to standard output, a
// stream thrown away (/dev/null), a here-document and a here-string
// write no file.
func (r *commandReader) redirect(d *syntax.Redirect) {
	switch d.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.DplIn:
		return
	}
	target := literal(d.Word)
	if d.Op == syntax.DplOut && (target == "-" || isDigits(target)) {
		return // >&2, 2>&1, >&-
	}
	if strings.HasPrefix(target, "/dev/") {
		return
	}
	if d.Op == syntax.RdrIn {
		if FileLike(target) {
			r.files = appendNew(r.files, PathNorm(target))
		}
		return
	}
	r.reads, r.edits = false, true
	r.changes = r.changes || !slices.Contains(r.output, d)
	if strings.TrimSpace(target) == "" {
		// Written where the line expands a word to, or to a name of
		// blanks only that no one can name a file by again.
		r.runs = true
		return
	}
	r.files = appendNew(r.files, PathNorm(target))
	r.writes = appendNew(r.writes, PathNorm(target))
}

// literal is a word's value when it is written out whole (bare, quoted
// or escaped), "" when part of it is expanded or substituted: the parse
// says what a word is and never works out what it would become.
func literal(w *syntax.Word) string {
	v, _ := shellword.Literal(w)
	return v
}

// program is the program a command's first word runs, without its
// directory.
func program(w string) string { return w[strings.LastIndexByte(w, '/')+1:] }

// shellLine is the line a shell given -c runs (bash -lc "cd x && pytest").
func shellLine(w []string) (string, bool) {
	if !shells[w[0]] && !shells[program(w[0])] {
		return "", false
	}
	for i := 1; i+1 < len(w); i++ {
		if !strings.HasPrefix(w[i], "-") {
			return "", false
		}
		if !strings.HasPrefix(w[i], "--") && strings.Contains(w[i], "c") {
			return w[i+1], true
		}
	}
	return "", false
}

// operandFiles are the files among a command's arguments, as PathNorm has
// them: paths and names with an extension, skipping what a program takes
// as text rather than a file (the pattern or script grep, sed and awk
// read first, the code an interpreter runs after -c or -e, a message or
// module after -m, the words echo prints) and patterns of names (*.py).
func operandFiles(w []string) []string {
	prog := program(w[0])
	if prog == "echo" || prog == "printf" {
		return nil
	}
	valued := valueOptions[prog]
	patternFirst := patternPrograms[prog]
	var out []string
	for i := 1; i < len(w); i++ {
		a := w[i]
		switch {
		case a == "" || a == "--":
			continue
		case strings.HasPrefix(a, "-"):
			switch {
			case takesCode(prog, a) || a == "-m":
				i++ // code to run, a module, a message
			case valued[a] && scriptFile[a]:
				patternFirst = false // the script is in the file named next
			case valued[a]:
				if patternFirst && patternOptions[a] {
					patternFirst = false
				}
				i++ // the option's value: a pattern, a count, a glob
			}
			continue
		case patternFirst:
			patternFirst = false
			continue
		}
		if file, _, ok := strings.Cut(a, "::"); ok && file != "" {
			a = file // a test's node id names its file: tests/test_a.py::TestA::test_b
		}
		if fileWord(a) {
			out = append(out, PathNorm(a))
		}
	}
	return out
}

// fileWord reports whether an argument names a file: fileLike, no
// pattern of names, no assignment, and, written with blanks, a name that
// ends in an extension ("my notes.txt") rather than a sentence.
func fileWord(a string) bool {
	if !FileLike(a) || strings.ContainsAny(a, "*?\n\x00") {
		return false
	}
	if eq := strings.IndexByte(a, '='); eq > 0 && isName(a[:eq]) {
		return false
	}
	if strings.ContainsAny(a, " \t") {
		dot := strings.LastIndexByte(a, '.')
		return dot > strings.LastIndexAny(a, " \t") && dot < len(a)-1
	}
	return true
}

// takesCode reports whether an interpreter given this option runs the
// code written next: a short option, or a cluster of them, ending in one
// of its code letters.
func takesCode(prog, opt string) bool {
	letters := codeOptions[prog]
	return letters != "" && len(opt) > 1 && opt[1] != '-' && strings.IndexByte(letters, opt[len(opt)-1]) >= 0
}

func isName(s string) bool {
	for i, r := range s {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

// FileLike reports whether a word names a file: a path, or a name with an
// extension ("parser.py"), not an option or a URL. Quotes around it, as
// an argument's value may be written, are not part of it. Figures
// parted by slashes alone ("06/2026", "11/24/2022", "3/4") are a date or
// a fraction, not a relative path.
func FileLike(w string) bool {
	w = strings.Trim(w, `"'`)
	if w == "" || w[0] == '-' || strings.Contains(w, "://") || w[0] != '/' && strings.Trim(w, "0123456789/") == "" {
		return false
	}
	if strings.Contains(w, "/") {
		return true
	}
	dot := strings.LastIndexByte(w, '.')
	return dot > 0 && dot < len(w)-1 && unicode.IsLetter(rune(w[dot+1]))
}

func appendNew(out []string, s string) []string {
	if slices.Contains(out, s) {
		return out
	}
	return append(out, s)
}

var (
	// codeOptions are, for each interpreter, the letters of the options
	// after which it runs the code written next (python -c, perl -pe,
	// ex -c).
	codeOptions = map[string]string{"python": "c", "python3": "c", "python2": "c", "node": "ep", "perl": "eE", "ruby": "e", "php": "r", "ex": "c"}
	// patternOptions give grep, sed and awk the pattern or script.
	patternOptions = toSet("-e --regexp --expression")
	// patternPrograms take a pattern or a script as their first operand,
	// unless an option gave it.
	patternPrograms = toSet("grep egrep fgrep rg ag sed awk gawk mawk")
	// valueOptions are the options of those programs that take the next
	// word as their value.
	valueOptions = map[string]map[string]bool{
		"grep":  toSet("-A -B -C -m -e -f --regexp --file --max-count"),
		"egrep": toSet("-A -B -C -m -e -f"),
		"fgrep": toSet("-A -B -C -m -e -f"),
		"rg":    toSet("-A -B -C -m -e -f -g -t -T --glob --type --regexp --file"),
		"ag":    toSet("-A -B -C -m -G"),
		"sed":   toSet("-e -f -l --expression --file"),
		"sort":  toSet("-o --output -k -t -S -T --key --field-separator"),
		"awk":   toSet("-f -v -F -i --include"),
		"gawk":  toSet("-f -v -F -i --include"),
		"mawk":  toSet("-f -v -F"),
	}
	// scriptFile are the options whose value is a file holding the
	// pattern or script.
	scriptFile = toSet("-f --file")
)

// readingCommand reports whether one command, as its words, only reads.
func readingCommand(w []string) bool {
	prog := program(w[0])
	switch {
	case prog == "find":
		return !slices.ContainsFunc(w[1:], func(a string) bool { return findActions[a] })
	case prog == "sort":
		_, writes := sortOutput(w[1:])
		return !writes
	case readVerbs[prog] || readingPrograms[prog] || checkingCommand(w):
		return true
	case prog == "git" && len(w) > 1 && w[1] == "branch":
		return listsBranches(w[2:])
	case prog == "git":
		return len(w) > 1 && readingGit[w[1]]
	case prog == "sed":
		return len(w) > 1 && w[1] == "-n" && !slices.ContainsFunc(w[2:], func(a string) bool {
			return strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--in-place")
		})
	}
	return false
}

// checkingCall reports whether a simple command runs a check.
func checkingCall(c *syntax.CallExpr) bool {
	w := make([]string, 0, len(c.Args))
	for _, a := range c.Args {
		w = append(w, literal(a))
	}
	return len(w) > 0 && w[0] != "" && checkingCommand(w)
}

// checkingCommand reports whether one command, as its words, runs a
// check: a test runner, a linter or a compiler that reports on the code
// (go build, cargo check, mvn test), also through a package runner (npx
// jest).
func checkingCommand(w []string) bool {
	prog := program(w[0])
	switch {
	case checkingPrograms[prog]:
		return true
	case prog == "python" || prog == "python3":
		return len(w) > 2 && w[1] == "-m" && (w[2] == "unittest" || checkingPrograms[w[2]])
	case prog == "go":
		return len(w) > 1 && (w[1] == "test" || w[1] == "vet" || w[1] == "build")
	case prog == "cargo":
		return len(w) > 1 && (w[1] == "test" || w[1] == "check" || w[1] == "clippy" || w[1] == "build")
	case prog == "npm" || prog == "yarn" || prog == "pnpm":
		return len(w) > 1 && (w[1] == "test" || w[1] == "run" && len(w) > 2 && w[2] == "test")
	case prog == "npx" || prog == "bunx":
		k := slices.IndexFunc(w[1:], func(a string) bool { return !strings.HasPrefix(a, "-") })
		return k >= 0 && checkingPrograms[program(w[1+k])]
	case prog == "mvn" || prog == "mvnw" || prog == "gradle" || prog == "gradlew":
		return slices.ContainsFunc(w[1:], func(a string) bool { return buildChecks[a] })
	case prog == "dotnet":
		return len(w) > 1 && (w[1] == "test" || w[1] == "build")
	}
	return false
}

// updatesExpected reports whether one command, as its words, runs tests
// that write what they now give as what they expect: a snapshot or
// golden-file update (jest or vitest -u, --updateSnapshot, pytest's
// --snapshot-update and --force-regen, go test -update, cargo insta
// accept).
func updatesExpected(w []string) bool {
	if program(w[0]) == "cargo" && len(w) > 2 && w[1] == "insta" && (w[2] == "accept" || w[2] == "review") {
		return true
	}
	if !checkingCommand(w) && !(len(w) > 1 && (program(w[0]) == "npm" || program(w[0]) == "yarn" || program(w[0]) == "pnpm") && w[1] == "test") {
		return false
	}
	// -u is jest's and vitest's (also given through npm test --), and
	// means other things to other programs.
	js := slices.ContainsFunc(w, func(a string) bool {
		p := program(a)
		return p == "jest" || p == "vitest" || p == "npm" || p == "yarn" || p == "pnpm"
	})
	return slices.ContainsFunc(w[1:], func(a string) bool {
		return updateOptions[a] || a == "-u" && js || strings.HasPrefix(a, "--updateSnapshot") || strings.HasPrefix(a, "--inline-snapshot=")
	})
}

// fixesInPlace reports whether one command, as its words, runs a linter
// or a formatter that rewrites the files it is given (ruff check --fix,
// ruff format, eslint --fix, golangci-lint run --fix, cargo clippy
// --fix), also through a package runner or python -m: a change, not a
// check. Its modes that only show what they would change (ruff format
// --check or --diff, eslint --fix-dry-run) check.
func fixesInPlace(w []string) bool {
	if !checkingCommand(w) {
		return false
	}
	if slices.Contains(w[1:], "--fix") {
		return true
	}
	k := slices.IndexFunc(w, func(a string) bool { return program(a) == "ruff" })
	return k >= 0 && k+1 < len(w) && w[k+1] == "format" && !slices.ContainsFunc(w[k+2:], func(a string) bool { return a == "--check" || a == "--diff" })
}

// updateOptions are test runners' options that rewrite expected outputs.
var updateOptions = toSet("--update --update-snapshots --snapshot-update --force-regen -update -update-golden")

// checkConfigs are the files, bare, that a check's program reads as its
// own configuration by default (tsc's tsconfig.json, or the project -p
// names; eslint's, mypy's, pylint's, ruff's and golangci-lint's own
// files): what it reports depends on them as on the code. A test
// runner's configuration (pytest.ini) says which tests run and how,
// which a task about the tests may rightly change, and files a project
// keeps more than one tool's settings in (setup.cfg, pyproject.toml,
// package.json) are not among them.
func checkConfigs(w []string) []string {
	prog := program(w[0])
	if prog == "npx" || prog == "bunx" {
		k := slices.IndexFunc(w[1:], func(a string) bool { return !strings.HasPrefix(a, "-") })
		if k < 0 {
			return nil
		}
		w = w[1+k:]
		prog = program(w[0])
	}
	if prog == "python" || prog == "python3" {
		if len(w) < 3 || w[1] != "-m" {
			return nil
		}
		w = w[2:]
		prog = w[0]
	}
	if prog == "tsc" {
		for i, a := range w {
			if (a == "-p" || a == "--project") && i+1 < len(w) {
				return []string{PathNorm(w[i+1])}
			}
		}
	}
	return checkerConfigs[prog]
}

// checkerConfigs are the configuration files each type checker and
// linter reads by default.
var checkerConfigs = map[string][]string{
	"tsc":           {"tsconfig.json"},
	"eslint":        {".eslintrc", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml", "eslint.config.js", "eslint.config.mjs", "eslint.config.cjs"},
	"mypy":          {"mypy.ini", ".mypy.ini"},
	"pylint":        {".pylintrc", "pylintrc"},
	"flake8":        {".flake8"},
	"ruff":          {"ruff.toml", ".ruff.toml"},
	"golangci-lint": {".golangci.yml", ".golangci.yaml", ".golangci.toml"},
}

// buildChecks are the phases and tasks of Maven and Gradle that compile
// and test the code without installing or publishing it.
var buildChecks = toSet("test verify compile test-compile check build")

// listsBranches reports whether git branch, given these words after it,
// only lists: no words, or a listing option and none that deletes,
// renames, copies or moves a branch. A bare name alone creates one.
func listsBranches(w []string) bool {
	if slices.ContainsFunc(w, func(a string) bool { return branchWrites[a] }) {
		return false
	}
	return len(w) == 0 || slices.ContainsFunc(w, func(a string) bool { return branchLists[a] })
}

var (
	readingPrograms = toSet("cd cat ls ll head tail grep egrep fgrep rg ag fd wc tree pwd echo printf which whereis type stat file diff cmp nl less more sort uniq cut du df printenv true test")
	// checkingPrograms run a check: test runners and linters.
	checkingPrograms = toSet("pytest tox nosetests jest vitest mocha flake8 pylint mypy pyflakes ruff eslint tsc shellcheck golangci-lint")
	readingGit       = toSet("status diff log show grep blame rev-parse ls-files")
	// findActions are find's actions that change files or run a command
	// on what it finds, or write its listing to a file.
	findActions  = toSet("-delete -exec -execdir -ok -okdir -fprint -fprint0 -fprintf -fls")
	branchWrites = toSet("-d -D -m -M -c -C -f --delete --move --copy --force -u --set-upstream-to --unset-upstream --edit-description")
	branchLists  = toSet("-a -r -l -v -vv --all --remotes --list --show-current --verbose --contains --no-contains --merged --no-merged --points-at")
)
