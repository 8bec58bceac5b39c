package extract

import (
	"encoding/json"
	"slices"
	"strings"
)

// commandOf returns the command line a call's arguments give it to run,
// "" when they give none: the value of a "command" or "cmd" argument, as
// a shell or a file editor exposed as a tool takes it (Claude Code's Bash,
// Codex CLI's exec_command and shell, SWE-agent's and OpenHands' bash and
// str_replace_editor). A command written as a list of words (["bash",
// "-lc", "cat x"]) is the line the shell is given.
func commandOf(args string) string {
	if !strings.Contains(args, `"command"`) && !strings.Contains(args, `"cmd"`) {
		return ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &m) != nil {
		return ""
	}
	raw, ok := m["command"]
	if !ok {
		raw = m["cmd"]
	}
	var line string
	if json.Unmarshal(raw, &line) == nil {
		return line
	}
	var words []string
	if json.Unmarshal(raw, &words) != nil || len(words) == 0 {
		return ""
	}
	if len(words) == 3 && shells[words[0]] && strings.HasPrefix(words[1], "-") && strings.HasSuffix(words[1], "c") {
		return words[2]
	}
	return strings.Join(words, " ")
}

// quietRedirects are the redirections that write no file: standard error
// joined to standard output, or either thrown away.
var quietRedirects = strings.NewReplacer("2>&1", "", ">&2", "", "2>/dev/null", "", ">/dev/null", "")

// shells are the programs that run the command line after their -c.
var shells = toSet("bash sh zsh /bin/bash /bin/sh /usr/bin/bash /usr/bin/zsh")

// readsOnly reports whether a command line only reads or checks: every
// command of it (split at ;, &&, || and |) runs a program that prints
// what is there (cat, ls, grep, a diff, a test runner) or is a reading
// verb (an editor's "view"), and none writes its output to a file. A
// command that may change a file or the environment (an edit, sed -i,
// pip install, a script) does not.
func readsOnly(line string) bool {
	line = quietRedirects.Replace(strings.TrimSpace(line))
	if line == "" || strings.Contains(line, ">") || strings.Contains(line, "$(") || strings.Contains(line, "`") {
		return false // a redirection writes; a substituted command runs unread
	}
	for part := range strings.FieldsFuncSeq(line, func(r rune) bool { return r == ';' || r == '&' || r == '|' || r == '\n' }) {
		if !readingCommand(strings.Fields(part)) {
			return false
		}
	}
	return true
}

// readingCommand reports whether one command, as its words, only reads.
func readingCommand(w []string) bool {
	for len(w) > 0 && strings.Contains(w[0], "=") && !strings.HasPrefix(w[0], "-") {
		w = w[1:] // VAR=value before the program
	}
	if len(w) == 0 {
		return true
	}
	prog := w[0][strings.LastIndexByte(w[0], '/')+1:]
	switch {
	case prog == "find":
		return !slices.ContainsFunc(w[1:], func(a string) bool { return findActions[a] })
	case prog == "env":
		// env with a program after its options and assignments runs it.
		rest := w[1:]
		for len(rest) > 0 && (strings.HasPrefix(rest[0], "-") || strings.Contains(rest[0], "=")) {
			rest = rest[1:]
		}
		return len(rest) == 0 || readingCommand(rest)
	case readVerbs[prog] || readingPrograms[prog]:
		return true
	case prog == "git" && len(w) > 1 && w[1] == "branch":
		return listsBranches(w[2:])
	case prog == "git":
		return len(w) > 1 && readingGit[w[1]]
	case prog == "sed":
		return len(w) > 1 && w[1] == "-n" && !slices.ContainsFunc(w[2:], func(a string) bool {
			return strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--in-place")
		})
	case prog == "python" || prog == "python3":
		return len(w) > 2 && w[1] == "-m" && (w[2] == "pytest" || w[2] == "unittest")
	case prog == "go" || prog == "cargo":
		return len(w) > 1 && (w[1] == "test" || w[1] == "vet")
	case prog == "npm" || prog == "yarn" || prog == "pnpm":
		return len(w) > 1 && w[1] == "test"
	}
	return false
}

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
	readingPrograms = toSet("cd cat ls ll head tail grep egrep fgrep rg ag fd wc tree pwd echo printf which whereis type stat file diff cmp nl less more sort uniq cut du df printenv true test pytest tox nosetests jest mocha flake8 pylint mypy pyflakes eslint tsc shellcheck")
	readingGit      = toSet("status diff log show grep blame rev-parse ls-files")
	// findActions are find's actions that change files or run a command
	// on what it finds, or write its listing to a file.
	findActions  = toSet("-delete -exec -execdir -ok -okdir -fprint -fprint0 -fprintf -fls")
	branchWrites = toSet("-d -D -m -M -c -C -f --delete --move --copy --force -u --set-upstream-to --unset-upstream --edit-description")
	branchLists  = toSet("-a -r -l -v -vv --all --remotes --list --show-current --verbose --contains --no-contains --merged --no-merged --points-at")
)
