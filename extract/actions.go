package extract

import (
	"encoding/json"
	"iter"
	"maps"
	"math"
	"math/bits"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/offattr/offattr/run"

	matching "github.com/offattr/offattr/internal/match"
)

// Call is one tool call a step makes: from the log's structured tool calls,
// or written in its text in function-call notation ("call
// get_order({"id": "#W12"})", "Action: search({...})"), as many frameworks
// print them.
type Call struct {
	Name string `json:"name"`
	Args string `json:"args,omitempty"`
	// Values are the argument values (strings and numbers, at any depth),
	// as written: what a call acts on.
	Values []string `json:"values,omitempty"`
	// Counts are the whole numbers under a hundred its JSON arguments
	// give, each with its key ("total_baggages": 4): how many of a thing
	// the call asks for.
	Counts []Field `json:"counts,omitempty"`
	// Offset is where the call is written in the step's text, -1 for a
	// structured call.
	Offset int `json:"offset"`
	// OnPage is whether the call is an action written on a page's or an
	// environment's element ("click [1886]", "fill('a12', 'x')", "[button]
	// Search -> CLICK"), not a tool called by name with arguments.
	OnPage bool `json:"on_page,omitempty"`
	// Requantity is, for a call that enters a whole number into a page's
	// quantity field other than the one count the task states, that
	// count.
	Requantity *Count `json:"requantity,omitempty"`
	// Rewrites is, for a call given a name the task writes in quotes
	// with one of its words put otherwise (a search for "Fix contrast of
	// the header links" where the task asks about 'Fix contrast of the
	// footer links'), that name and the word put in its place.
	Rewrites *Rewrite `json:"rewrites,omitempty"`
	// command is the command line the arguments give the call to run
	// (commandOf), read once (readCommand): reads is set when it only
	// reads, files are the files the call names (callFiles), and writes
	// those its line writes when that is all it does.
	command       string
	words         []string // the command as the list of words it was given as, if so
	settings      []string // values of the call's other arguments that say how its line runs (runSettings)
	reads         bool
	files, writes []string
	checks        bool
	scripts       []string
	configs       []string
	discards      []string
	checked       [][2]int // where the line's commands that run a check are written
	block         bool     // read from a code block of the step's text (blockCalls)
	aside         bool
	updates       bool
	copy          bool
	imports       bool
	remarks       bool
	pins          bool
	keepsChecks   bool // an editor's replacement read, relaxing no check
}

// newCall is the call of a tool by name with JSON arguments, at offset.
func newCall(name, args string, offset int) Call {
	line, words := commandOf(args)
	acted := onScreenOnly(actionsOnly(args))
	values := withoutOperation(args, ArgValues(acted))
	var cmd commandReading
	if line != "" {
		cmd = readCommand(line, words)
	}
	c := Call{Name: name, Args: args, Values: values, Counts: argCounts(acted), Offset: offset, command: line, words: words, settings: runSettings(args, line, words), reads: cmd.reads, writes: cmd.writes, checks: cmd.checks, scripts: cmd.scripts, configs: cmd.configs, discards: cmd.discards, checked: cmd.checked, aside: cmd.aside, updates: cmd.updates}
	c.files = c.callFiles(cmd.files)
	c.copy = changesCopy(line, values, cmd.writes)
	c.pins = cmd.pins
	c.imports = addsOnlyImports(args)
	c.remarks = changesOnlyRemarks(args, commentsOf(c.files))
	c.keepsChecks = !relaxesChecks(args)
	return c
}

// actionsOnly returns, of arguments that give an agent's state beside
// the actions it takes (browser-use's AgentOutput: {"current_state":
// {"memory": …, "next_goal": …}, "action": [{"input_text": …}]}), the
// actions alone: the state is the agent's notes to itself, which the
// actions act on nothing with. Other arguments are returned as they are.
func actionsOnly(args string) string {
	if !strings.Contains(args, `"current_state"`) {
		return args
	}
	var v map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &v) != nil || v["current_state"] == nil || v["action"] == nil {
		return args
	}
	return string(v["action"])
}

// screenOps are the operations an action on a screen names under its
// "action" or "type" key (Anthropic's computer tool, OpenAI's
// computer_call, the pyautogui verbs desktop agents expose as tools):
// what the call does, as a tool's name does.
var screenOps = map[string]bool{
	"screenshot": true, "click": true, "left_click": true, "right_click": true, "middle_click": true,
	"double_click": true, "triple_click": true, "mouse_move": true, "move": true, "drag": true,
	"left_click_drag": true, "left_mouse_down": true, "left_mouse_up": true, "scroll": true,
	"type": true, "key": true, "keypress": true, "hold_key": true, "wait": true, "cursor_position": true,
}

// keyOps are the screen operations that press keys: the keys they give
// ("ctrl+s", ["CTRL", "S"]) say how, and are no value either.
var keyOps = map[string]bool{"key": true, "keypress": true, "hold_key": true}

// pointerKeys are the keys under which an action on a screen gives where
// it acts and how the pointer moves: a point ("coordinate", "x" and "y"),
// a drag's start and path, a scroll's amount and direction, the button.
var pointerKeys = []string{"coordinate", "start_coordinate", "x", "y", "path", "scroll_x", "scroll_y",
	"scroll_amount", "scroll_direction", "button", "duration"}

// onScreenOnly returns, of the JSON arguments of an action on a screen,
// what it acts with alone: the text it types. Where it clicks (its
// coordinates), the operation it names and the keys it presses are how
// it acts, no figures or values the agent claims. An action on a screen
// names one of screenOps under "action" or "type", or gives a point (both
// "x" and "y" as numbers, or a "coordinate"). Other arguments are
// returned as they are.
func onScreenOnly(args string) string {
	if !strings.Contains(args, `"x"`) && !strings.Contains(args, `coordinate"`) && !strings.Contains(args, `"action"`) && !strings.Contains(args, `"type"`) {
		return args
	}
	var v map[string]any
	if json.Unmarshal([]byte(args), &v) != nil {
		return args
	}
	op, key := "", ""
	for _, k := range []string{"action", "type"} {
		if s, ok := v[k].(string); ok && screenOps[s] {
			op, key = s, k
			break
		}
	}
	_, hasX := v["x"].(float64)
	_, hasY := v["y"].(float64)
	_, hasPoint := v["coordinate"].([]any)
	if !hasPoint && !(hasX && hasY) && (op == "" || len(v) > 1 && !onlyScreenKeys(v, key)) {
		return args
	}
	if key != "" {
		delete(v, key)
	}
	for _, k := range pointerKeys {
		delete(v, k)
	}
	if keyOps[op] {
		delete(v, "text")
		delete(v, "keys")
	}
	b, err := json.Marshal(v)
	if err != nil {
		return args
	}
	return string(b)
}

// onlyScreenKeys reports whether an object that names a screen operation
// under key gives nothing but what such an action gives: a point, a drag,
// a scroll, text typed, keys pressed. A tool's own "type" field beside
// its other fields ({"type": "click", "campaign": "spring"}) is no
// action on a screen.
func onlyScreenKeys(v map[string]any, key string) bool {
	for k := range v {
		if k != key && k != "text" && k != "keys" && !slices.Contains(pointerKeys, k) {
			return false
		}
	}
	return true
}

// withoutOperation returns a call's argument values without the one its
// JSON arguments give as the operation of a tool of several (browser-use's
// {"action": "click_element", "index": 12}): lower-case words joined by
// underscores under the key "action", which says what the call does, as
// a tool's name does, not a value it acts on.
func withoutOperation(args string, values []string) []string {
	var v struct {
		Action string `json:"action"`
	}
	if !strings.HasPrefix(strings.TrimSpace(args), "{") || json.Unmarshal([]byte(args), &v) != nil || !strings.Contains(v.Action, "_") ||
		strings.ContainsFunc(v.Action, func(r rune) bool { return r != '_' && (r < 'a' || r > 'z') }) {
		return values
	}
	if k := slices.Index(values, v.Action); k >= 0 {
		return slices.Delete(slices.Clone(values), k, k+1)
	}
	return values
}

// Command is the command line the call's arguments give it to run, as a
// shell or an editor exposed as a tool takes it; "" for a call given none.
// It says what the call does, not what it acts on.
func (c Call) Command() string { return c.command }

// Block reports whether the call was read from a code block of its
// step's text that a later result answers for (blockCalls): its values
// are then only the figures the task or an earlier step writes otherwise
// (keepRunBlocks).
func (c Call) Block() bool { return c.block }

// InCommand reports whether an argument value is the call's command line,
// one of the words the command was given as (["bash", "-lc", "cat x"]),
// or a setting of how the line runs (runSettings: a time limit, the
// directory it runs in): what the call does and how, not a value it acts
// on.
func (c Call) InCommand(v string) bool {
	return c.command != "" && (v == c.command || slices.ContainsFunc(c.words, func(w string) bool { return strings.TrimSpace(w) == v }) || slices.Contains(c.settings, v))
}

// runSettings are the values, as ArgValues writes them, of a shell
// call's arguments other than its command line (Codex CLI's workdir and
// timeout_ms, a bash tool's timeout): a number, a true or false, or a
// directory (an absolute path whose last part has no extension). A
// command line holds what it acts on in its own words; beside it these
// only say how it runs: how long it may take, how much output to keep,
// where it runs. nil for a call given no command line, and for an
// editor's, given one word ("view"), whose other arguments are what it
// acts on.
func runSettings(args, line string, words []string) []string {
	if line == "" || words == nil && !strings.ContainsAny(strings.TrimSpace(line), " \t\n") {
		return nil
	}
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return nil
	}
	var out []string
	for k, v := range m {
		if k == "command" || k == "cmd" {
			continue
		}
		switch x := v.(type) {
		case float64:
			out = append(out, strconv.FormatFloat(x, 'f', -1, 64))
		case bool:
			out = append(out, strconv.FormatBool(x))
		case string:
			if p := strings.TrimSpace(x); strings.HasPrefix(p, "/") && !strings.ContainsAny(p, " \t\n") && !strings.Contains(p[strings.LastIndexByte(p, '/'):], ".") {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Files are the files the call names, each once, as PathNorm has them:
// those its command line names, as a shell parser reads it (arguments
// that are paths or names with an extension, the files its redirections
// read or write; not a pattern, a script or a message it is given), then
// its arguments of one word beside the command that name a file (an
// editor's path, a writing tool's file).
func (c Call) Files() []string { return c.files }

// Writes are the files the call's command line writes, each once, as
// PathNorm has them, when writing files is all it does besides reading:
// an edit in place (sed -i), a heredoc or a program's output redirected
// into a file, cp, mv, rm, tee, a script given on the line (python -
// <<'EOF', python -c) whose code writes files by name. nil for a call
// given no command line, and for a line that runs anything else (a
// script file, an install, a build), which may write any file. A patch applied writes files its line does
// not name: an empty, non-nil list.
func (c Call) Writes() []string { return c.writes }

// Scripts are the files the call's command line runs as code, as PathNorm
// has them: a program run by its path, the script an interpreter or a
// shell is given, the tests a test runner is given; not the files a
// script reads (its data, its options' values). nil for a call given no
// command line.
func (c Call) Scripts() []string { return c.scripts }

// Configs are the files, bare or as the line names them, that the
// checks the call's command line runs read as their own configuration
// (tsc's tsconfig.json, mypy's mypy.ini): what they report depends on
// these as on the code.
func (c Call) Configs() []string { return c.configs }

// Discards are the files whose uncommitted changes the call's command
// line throws away, restoring what the repository holds (git checkout --
// PATH, git restore PATH), as PathNorm has them; "." for every change
// (git checkout -- ., git stash, git reset --hard); or, for an editor's
// replacement that puts back what an earlier one replaced in a file and
// so leaves every edit made to it undone (readReverts), that file. nil
// for a call that throws none away.
func (c Call) Discards() []string { return c.discards }

// SetsAside reports whether the call's command line sets every
// uncommitted change aside and brings it back (git stash && pytest; git
// stash pop): it changes nothing, and what it runs between checks the
// code without the changes, not the state they left.
func (c Call) SetsAside() bool { return c.aside }

// UpdatesExpected reports whether the call's command line runs tests
// that rewrite what they expect from what they now give (jest -u, a
// snapshot or golden-file update): it changes the tests' expectations,
// the files it does not name, and checks nothing.
func (c Call) UpdatesExpected() bool { return c.updates }

// PinsDependency reports whether the call's command line installs a
// dependency at a version it names where no manifest records it (pip
// install 'pydantic<2'): a change to what the code runs against.
func (c Call) PinsDependency() bool { return c.pins }

// AddsOnlyImports reports whether the call is an editor's replacement
// (old and new text) whose new text only adds import lines to the old:
// it brings names into scope and changes no behaviour of its own.
func (c Call) AddsOnlyImports() bool { return c.imports }

// addsOnlyImports reads an editor's replacement from a call's JSON
// arguments (old_str and new_str, or old_string and new_string): whether
// every line the new text adds is an import (Python's import and from …
// import, JavaScript's and Java's import, Go's import or a quoted path
// in its import block) and it removes none.
func addsOnlyImports(args string) bool {
	oldText, newText, ok := replacement(args)
	if !ok {
		return false
	}
	oldLines := strings.Split(oldText, "\n")
	var added int
	for l := range strings.SplitSeq(newText, "\n") {
		if k := slices.Index(oldLines, l); k >= 0 {
			oldLines = slices.Delete(oldLines, k, k+1)
			continue
		}
		t := strings.TrimSpace(l)
		switch {
		case t == "" || t == "(" || t == ")":
		case strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "from ") && strings.Contains(t, " import "),
			strings.HasPrefix(t, `"`) && strings.HasSuffix(t, `"`) && !strings.ContainsAny(t, " ="):
			added++
		default:
			return false
		}
	}
	return added > 0 && len(slices.DeleteFunc(oldLines, func(l string) bool { return strings.TrimSpace(l) == "" })) == 0
}

// ChangesOnlyRemarks reports whether the call is an editor's
// replacement, or a patch, whose every line added or removed is a
// comment, a line of a docstring, a call that logs, or blank: it changes
// nothing the code computes, so it cannot be what a check or a later run
// finds wrong.
func (c Call) ChangesOnlyRemarks() bool { return c.remarks }

// changesOnlyRemarks reads an editor's replacement or a patch
// (replacement) for ChangesOnlyRemarks: the lines only one of its texts
// holds must each be a remark (remarkLines) in the comment syntax of the
// files it changes, and at least one not blank.
func changesOnlyRemarks(args string, syntax comments) bool {
	oldText, newText, ok := replacement(args)
	if !ok {
		return false
	}
	oldLines, newLines := strings.Split(oldText, "\n"), strings.Split(newText, "\n")
	oldRemark, newRemark := remarkLines(oldLines, syntax), remarkLines(newLines, syntax)
	var changed int
	only := func(lines, other []string, remark []bool) bool {
		rest := slices.Clone(other)
		for k, l := range lines {
			if j := slices.Index(rest, l); j >= 0 {
				rest = slices.Delete(rest, j, j+1)
				continue
			}
			if strings.TrimSpace(l) == "" {
				continue
			}
			if !remark[k] {
				return false
			}
			changed++
		}
		return true
	}
	return only(newLines, oldLines, newRemark) && only(oldLines, newLines, oldRemark) && changed > 0
}

// remarkLines marks the lines of a text that are remarks: a comment
// (#, //, a block comment from its /* to its */, as syntax has them) that
// is no directive to a tool (directive), a line of a triple-quoted
// docstring (from the line that opens it to the line that closes it), or
// a call that logs (logsCall). A line opening with "* " that no block
// comment of the text holds is a block comment's only when it carries no
// expression on (carriesOn): a product continued from the line before, as
// Java's style breaks a long expression, is code. A triple-quoted string
// is a docstring only where one stands: first in the text, or after a
// header (a line ending with ":") or a remark; one after a line that
// leaves an expression open is a value, an argument or an assignment's.
func remarkLines(lines []string, syntax comments) []bool {
	out := make([]bool, len(lines))
	inDoc, doc, inBlock := false, false, false
	prev, prevRemark := "", false // the last line not blank, and whether it is a remark
	for k, l := range lines {
		t := strings.TrimSpace(l)
		quotes := strings.Count(t, `"""`) + strings.Count(t, `'''`)
		switch {
		case inDoc || quotes > 0 && (strings.HasPrefix(t, `"""`) || strings.HasPrefix(t, `'''`) || strings.HasPrefix(t, `r"""`)):
			if !inDoc {
				doc = prev == "" || prevRemark || strings.HasSuffix(prev, ":")
			}
			out[k] = doc
			if quotes%2 == 1 {
				inDoc = !inDoc
			}
		case syntax != slashComments && strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#!") && !preprocessorRe.MatchString(t):
			out[k] = !directive(t)
		case syntax != hashComments && (inBlock || strings.HasPrefix(t, "/*")):
			out[k] = !directive(t)
			opened := 0
			if !inBlock {
				opened = 2
			}
			inBlock = !strings.Contains(t[opened:], "*/")
		case syntax != hashComments && (strings.HasPrefix(t, "//") || strings.HasPrefix(t, "*/")):
			out[k] = !directive(t)
		case syntax != hashComments && (strings.HasPrefix(t, "* ") || t == "*"):
			out[k] = !directive(t) && !carriesOn(t, prev, prevRemark)
		default:
			out[k] = logsCall(t)
		}
		if t != "" {
			prev, prevRemark = t, out[k]
		}
	}
	return out
}

// carriesOn reports whether a line opening with "* " outside a block
// comment is an expression's operator and operand, continued from the
// line before: it ends as a statement or an expression goes on (";",
// ",", an opening bracket, an operator), or the code line before it
// (prev, not a remark) leaves its expression open.
func carriesOn(t, prev string, prevRemark bool) bool {
	if t == "*" {
		return false
	}
	if strings.ContainsAny(t[len(t)-1:], ";,({[+-*/%&|=?") {
		return true
	}
	return prev != "" && !prevRemark && !strings.ContainsAny(prev[len(prev)-1:], ";{}:")
}

// directive reports whether a comment tells a tool what to do: a
// checker to look away (# type: ignore, # noqa, // @ts-ignore,
// // eslint-disable-next-line, //nolint, # pragma: no cover), or a
// compiler what to build (//go:build, // +build, # -*- coding). Such a
// comment changes what a check reports or what is built. The directive
// opens the comment: one that only names a word of it ("# Return type:
// int") is a remark.
func directive(comment string) bool {
	t := strings.TrimLeft(strings.ToLower(comment), "#/*-! \t")
	return slices.ContainsFunc(directiveWords, func(w string) bool { return strings.HasPrefix(t, w) })
}

// directiveWords mark a comment that is a directive to a tool.
var directiveWords = []string{"@ts-", "eslint-", "noqa", "type:", "pragma", "nolint", "go:", "+build", "istanbul ", "prettier-ignore", "pylint:", "fmt:", "nosec", "mypy:", "pyright:", "tslint:", "biome-ignore", "rubocop:", "coding:", "coding="}

// comments is the comment syntax of the files a change is made to.
type comments uint8

const (
	// anyComments: the files' language is not known; #, // and /* */
	// are each read as a comment.
	anyComments comments = iota
	// hashComments: a language whose only line comment is # (Python,
	// shell, Ruby, YAML): a line opening with // or * is code, a floor
	// division or a product continued from the line before ("* qty").
	hashComments
	// slashComments: a language commented with // and /* */ (C, Go,
	// Java, JavaScript, Rust): a line opening with # is code, a
	// preprocessor's line or an attribute (#if 0, #[ignore]).
	slashComments
)

// hashExts and slashExts are the file extensions of languages whose
// comments are # only, and // and /* */ only.
var (
	hashExts  = toSet("py pyi pyx sh bash zsh rb r pl pm yaml yml toml cfg ini conf tf nim jl ex exs cr")
	slashExts = toSet("c h cc cpp cxx hpp hh m mm cs java kt kts scala groovy go rs swift js jsx mjs cjs ts tsx dart zig proto")
)

// commentsOf is the comment syntax of files, by their extensions: one
// syntax when every file with a known extension has it, anyComments when
// none has, or they differ.
func commentsOf(files []string) comments {
	syntax := anyComments
	for _, f := range files {
		ext := strings.ToLower(strings.TrimPrefix(path.Ext(f), "."))
		var s comments
		switch {
		case hashExts[ext]:
			s = hashComments
		case slashExts[ext]:
			s = slashComments
		default:
			continue
		}
		if syntax != anyComments && syntax != s {
			return anyComments
		}
		syntax = s
	}
	return syntax
}

// preprocessorRe is a line opening with # that is no comment in any
// language: a C preprocessor's directive (#if 0 takes code out of the
// build), or a Rust attribute (#[ignore] skips a test).
var preprocessorRe = goPattern(`^#(?:!?\[|(?:include|define|undef|if|ifdef|ifndef|elif|else|endif|pragma|import|error|line)\b)`)

// logsCall reports whether a line is a whole call of a logger's method
// (logger.info(...), log.Printf(...), console.debug(...), LOG.warn(...),
// slog.Info(...)): a receiver named for logging, a method that writes at
// a level or prints, and nothing after the call's closing parenthesis
// but a semicolon.
func logsCall(t string) bool {
	call, _, ok := strings.Cut(t, "(")
	if !ok || !strings.HasSuffix(strings.TrimSuffix(t, ";"), ")") {
		return false
	}
	dot := strings.LastIndexByte(call, '.')
	if dot < 0 || strings.ContainsAny(call, " =") {
		return false
	}
	recv, method := strings.ToLower(call[:dot]), strings.ToLower(call[dot+1:])
	recv = recv[strings.LastIndexByte(recv, '.')+1:]
	return loggers[strings.TrimLeft(recv, "_")] && logMethods[method]
}

var (
	// loggers are the names a logger goes by in code.
	loggers = toSet("log logger logging console slog klog zap")
	// logMethods write a message at a level (java.util.logging's fine
	// and severe among them), or print one.
	logMethods = toSet("debug debugf info infof warn warnf warning error errorf trace tracef log print printf println severe config fine finer finest")
)

// replacement reads an editor's replacement from a call's JSON arguments:
// its old and new text (old_str and new_str, or old_string and
// new_string, or the SEARCH/REPLACE blocks of a diff, searchReplace); or, from a patch the call applies (patchTexts), the lines
// its hunks keep and remove as the old text and those they keep and add
// as the new; false when the call gives neither.
func replacement(args string) (oldText, newText string, ok bool) {
	if !strings.Contains(args, "old_str") {
		if oldText, newText, ok = searchReplace(args); ok {
			return oldText, newText, true
		}
		return patchTexts(args)
	}
	var a map[string]any
	if json.Unmarshal([]byte(args), &a) != nil {
		return "", "", false
	}
	text := func(keys ...string) (string, bool) {
		for _, k := range keys {
			if v, ok := a[k].(string); ok {
				return v, true
			}
		}
		return "", false
	}
	oldText, ok1 := text("old_str", "old_string")
	newText, ok2 := text("new_str", "new_string")
	return oldText, newText, ok1 && ok2
}

// RelaxesChecks reports whether the call may relax the configuration a
// checker reads (tsconfig.json, .eslintrc, mypy.ini): false only for an
// editor's replacement that drops no line and adds none that turns a
// check off ("strict": false, "no-console": "off"), downgrades it to a
// warning, or skips, ignores, excludes, disables or suppresses something
// (relaxesChecks). Raising a library or a target, or mapping a path,
// gives the checker what it needs and relaxes nothing. A command line's
// change is not read: it may relax.
func (c Call) RelaxesChecks() bool { return !c.keepsChecks }

// relaxesChecks reads an editor's replacement (replacement) for
// RelaxesChecks; true when the call gives none.
func relaxesChecks(args string) bool {
	oldText, newText, ok := replacement(args)
	if !ok {
		return true
	}
	nonBlank := func(text string) []string {
		return slices.DeleteFunc(strings.Split(text, "\n"), func(l string) bool { return strings.TrimSpace(l) == "" })
	}
	oldLines, added := nonBlank(oldText), 0
	for _, l := range nonBlank(newText) {
		if k := slices.Index(oldLines, l); k >= 0 {
			oldLines = slices.Delete(oldLines, k, k+1)
			continue
		}
		added++
		t := strings.ToLower(l)
		if slices.ContainsFunc(relaxingWords, func(w string) bool { return strings.Contains(t, w) }) {
			return true
		}
		value := t[strings.LastIndexAny(t, ":=")+1:]
		if relaxingValues[strings.Trim(value, " \t\"',[]")] {
			return true
		}
	}
	return len(oldLines) > added // an option or a rule dropped
}

var (
	// relaxingWords, in an option's line, say that a checker leaves
	// something unchecked (skipLibCheck, ignore_errors, exclude,
	// disable=, suppressImplicitAnyIndexErrors, noCheck).
	relaxingWords = []string{"skip", "ignore", "exclude", "disable", "suppress", "nocheck"}
	// relaxingValues turn a check off or down to a warning (false,
	// eslint's "off" and "warn", 0 and 1, mypy's follow_imports =
	// silent).
	relaxingValues = toSet("false off warn warning none silent 0 1")
)

// ChangesCopy reports whether a file the call changes, as the call
// names it, lies in a copy of code made from elsewhere (InCopy: build
// output, a vendored or installed dependency). Read with Consequential.
func (c Call) ChangesCopy() bool { return c.copy }

// changesCopy reports whether a call names, among the files it may
// change, one in a copy of code (InCopy): a call given no command line
// (an editor's, given one word: "str_replace") by its arguments, a
// command line by the words of the files it writes (writes, as PathNorm
// has them; nil when it writes none by name).
func changesCopy(line string, values, writes []string) bool {
	if !strings.ContainsAny(strings.TrimSpace(line), " \t\n") {
		return slices.ContainsFunc(values, func(v string) bool { return FileLike(v) && InCopy(v) })
	}
	if len(writes) == 0 {
		return false
	}
	for w := range strings.FieldsSeq(line) {
		w = strings.Trim(w, `"'`)
		if FileLike(w) && InCopy(w) && slices.Contains(writes, PathNorm(w)) {
			return true
		}
	}
	return false
}

// Creates reports whether the call writes a file's whole text rather
// than changing part of it: an editor's "create" (str_replace_editor's,
// SWE-agent's), or a tool named for writing or creating a file that is
// given no command line (Claude Code's Write, write_file, create_file).
func (c Call) Creates() bool {
	if c.command != "" {
		return c.command == "create"
	}
	w := c.Words()
	return len(w) > 0 && (w[0] == "write" || w[0] == "create") && len(c.files) > 0
}

// Names reports whether the call's arguments (its command line among
// them) write word whole, no word character joined to it: a test's name
// in the text an edit puts in, or on the line a shell runs. A test runner
// the line runs (sed -i ... && pytest tests/a.py::test_b) is given the
// name to run it, not to write it: the word there does not count.
func (c Call) Names(word string) bool {
	return slices.ContainsFunc(c.Values, func(v string) bool {
		if v == c.command && len(c.checked) > 0 {
			v = outside(v, c.checked)
		}
		return namesWord(v, word)
	})
}

// outside is line with the spans given blanked out.
func outside(line string, spans [][2]int) string {
	b := []byte(line)
	for _, sp := range spans {
		for i := max(sp[0], 0); i < min(sp[1], len(b)); i++ {
			b[i] = ' '
		}
	}
	return string(b)
}

// Checks reports whether the call's command line runs a check (a test
// runner, a linter) and writes no file but the check's output: a check
// whose output is saved (pytest | tee log, pytest > out.txt) is still a
// check; a line that also edits a file or writes one from a heredoc is a
// change.
func (c Call) Checks() bool { return c.checks }

// Words splits the tool's name into lower-case words ("exchange_delivered
// OrderItems" → exchange, delivered, order, items).
func (c Call) Words() []string { return nameWords(c.Name) }

// NameWords returns the words of a name joined by separators or by case
// ("total_baggages", "numGuests"), lower case.
func NameWords(name string) []string { return nameWords(name) }

// Consequential reports whether a call changes something rather than only
// reads: its name does not begin with a reading verb, and the command line
// it is given to run, if any, does not only read (a shell's "cat" or
// "pytest", an editor's "view") or check, or set the changes aside and
// bring them back (SetsAside), saving the check's output (pytest
// | tee log: a log is no state the run works on). A name that goes on from
// its reading verb to an acting one (verify_and_update_address,
// get_or_create_user) changes something too. A reading verb is English,
// not any framework's vocabulary.
func (c Call) Consequential() bool {
	w := c.Words()
	return len(w) > 0 && (!readVerbs[w[0]] || actsToo(w)) && !c.reads && !c.checks && !c.aside && !answers(w) && !searches(w)
}

// actsToo reports whether a tool's name, as its words, joins an acting
// verb to what it first does (check_and_cancel, get_or_create,
// validate_then_submit, an editor's search_and_replace_in_file): the
// tool does both, and so changes something.
func actsToo(w []string) bool {
	for k := 1; k+1 < len(w); k++ {
		if (w[k] == "and" || w[k] == "or" || w[k] == "then") && actVerbs[w[k+1]] {
			return true
		}
	}
	return false
}

// searches reports whether a tool's name, as its words, is a source and
// a looking-up verb after it (web_search, wiki_search, customer_lookup,
// page_fetch): the verb comes last, and no acting verb comes first.
func searches(w []string) bool {
	return len(w) > 1 && lookupVerbs[w[len(w)-1]] && !actVerbs[w[0]]
}

var (
	lookupVerbs = toSet("search lookup fetch retrieve browse")
	actVerbs    = toSet("save create add update set delete remove send post put write cancel book modify exchange return transfer run execute start stop replace edit insert")
)

// answers reports whether a tool's name, as its words, says it gives the
// final answer (final_answer, final_result, submit_answer,
// FinalAnswerTool): it hands the agent's answer over and changes nothing.
// The answer is what the name ends with; a name that goes on to an object
// (answer_customer_email, answer_ticket) answers someone by acting.
func answers(w []string) bool {
	if len(w) > 1 && w[len(w)-1] == "tool" {
		w = w[:len(w)-1]
	}
	return w[0] == "final" || w[len(w)-1] == "answer"
}

// Checking who the other party is (authenticate, verify, validate) reads
// records and changes none: a support agent does it before any action.
var readVerbs = toSet("get find list search lookup look read fetch query retrieve calculate compute think check view show describe count browse open visit scroll navigate authenticate verify validate")

func nameWords(name string) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, strings.ToLower(b.String()))
			b.Reset()
		}
	}
	prev := rune(0)
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	flush()
	return words
}

// textCallRe is a line that is a call written in function-call notation,
// with an optional verb before it. The arguments must be a JSON object or
// array (or nothing): code such as print(len(x)) is not a tool call. Its
// spaces and word characters are ASCII, and its verbs are in either case as
// Go's (?i) folds them (goCase): regexp2's IgnoreCase also reads the
// dotted İ as i.
var textCallRe = pattern(`^[ \t>*-]{0,4}(?:(?:`+goCase("call|calling|invoke|invoking|action|tool call|function call|tool")+
	`)[\t\n\f\r ]{0,2}:?[\t\n\f\r ]{1,2})?(?<name>[A-Za-z_][0-9A-Za-z_.-]{0,63})\((?<args>\{.*\}|\[.*\]|)\)[\t\n\f\r ]*;?[\t\n\f\r ]*$`, ml)

// calls reads the step's tool calls, structured and written; t is the
// step's content.
func calls(s run.Step, t *text) []Call {
	var out []Call
	for _, tc := range s.ToolCalls() {
		out = append(out, newCall(tc.Name, tc.Arguments, -1))
	}
	out = append(out, blockCalls(t)...)
	// A written call's arguments open right after its name's "(": "({",
	// "([" or "()". Prose has brackets, and the pattern reads every line.
	if len(s.Content) > maxCallScan || !strings.Contains(s.Content, "({") && !strings.Contains(s.Content, "([") && !strings.Contains(s.Content, "()") {
		return out
	}
	for _, m := range t.find(textCallRe, 20) {
		name, args := t.named(m, "name"), t.named(m, "args")
		if args != "" && !json.Valid([]byte(args)) {
			continue
		}
		if slices.ContainsFunc(s.ToolCalls(), func(tc run.ToolCall) bool { return tc.Name == name && sameArgs(tc.Arguments, args) }) {
			continue // the structured call, as a log writes it out in the step's text
		}
		out = append(out, newCall(name, args, m.Whole().Start))
	}
	return out
}

// sameArgs reports whether two JSON arguments are the same values, however
// spaced or ordered.
func sameArgs(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return strings.TrimSpace(a) == strings.TrimSpace(b)
	}
	return reflect.DeepEqual(x, y)
}

// maxCallScan bounds the text searched for written calls: a call is a short
// line, and a huge message is output, not a call.
const maxCallScan = 64 << 10

// ArgValues flattens JSON arguments into their leaf values, in a stable
// order (object keys sorted). Arguments that are a patch rather than JSON
// (Codex CLI's apply_patch is given its patch as the whole input) have
// the files the patch changes as their values.
func ArgValues(args string) []string {
	var v any
	if json.Unmarshal([]byte(args), &v) != nil {
		return patchFiles(args)
	}
	var out []string
	for key, leaf := range jsonLeaves(v) {
		switch x := leaf.(type) {
		case string:
			if lit, ok := codeValues(key, x); ok {
				out = append(out, lit...)
			} else if s := strings.TrimSpace(x); s != "" {
				out = append(out, s)
			}
		case float64:
			out = append(out, strconv.FormatFloat(x, 'f', -1, 64))
		}
	}
	return out
}

// jsonLeaves yields the values a decoded JSON value holds that are neither
// objects nor arrays, each with the key it is under (an array's items
// under the array's key; "" at the top), an object's keys in sorted order,
// so that the same arguments written in another order yield alike.
func jsonLeaves(v any) iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		var walk func(key string, v any) bool
		walk = func(key string, v any) bool {
			switch x := v.(type) {
			case map[string]any:
				for _, k := range slices.Sorted(maps.Keys(x)) {
					if !walk(k, x[k]) {
						return false
					}
				}
			case []any:
				for _, e := range x {
					if !walk(key, e) {
						return false
					}
				}
			default:
				return yield(key, v)
			}
			return true
		}
		walk("", v)
	}
}

// patchHeads are the lines that name a file a patch changes: Codex CLI's
// envelope (*** Update File: PATH, and its Add, Delete and Move to) and
// a unified diff's new file (+++ b/PATH).
var patchHeads = []string{"*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: ", "+++ b/"}

// patchFiles returns the files a patch names on its own head lines, each
// once, in order; nil for text that is no patch.
func patchFiles(text string) []string {
	if !strings.Contains(text, "*** ") && !strings.Contains(text, "+++ ") {
		return nil
	}
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		for _, h := range patchHeads {
			if p, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), h); ok {
				if p = strings.TrimSpace(p); p != "" && !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// resultToolRe is a tool result that names the tool it answers first
// ("get_order -> {...}", "get_order: ...").
var resultToolRe = goPattern(`^\s{0,4}([A-Za-z_][\w.-]{0,63})\s{0,2}(?:->|=>|:)\s`)

// resultToolHead bounds what resultToolRe reads of a result, all of it
// ASCII: four blanks, a name of 64 bytes, two blanks, "->" and a blank, and
// the part of a rune headEnd may cut. Like affirmRe, it is given no more
// (see affirmHead).
const resultToolHead = 4 + 64 + 2 + len("->") + 1 + utf8.UTFMax

// resultTool returns the tool a result names at its start, if it is one
// the run has called.
func resultTool(content string, called map[string]bool) string {
	m := resultToolRe.FindStringSubmatch(content[:headEnd(content, resultToolHead)])
	if m == nil || !called[m[1]] {
		return ""
	}
	return m[1]
}

// Policy is a rule the system was given: a sentence of a system prompt or
// task that obliges, forbids or restricts ("must", "never", "only if",
// "before", "confirm").
type Policy struct {
	Text   string `json:"text"`
	Offset int    `json:"offset"`
	// Confirm: the policy asks for the other party's confirmation.
	Confirm bool `json:"confirm,omitempty"`
	// Acts: where a confirmation policy names the actions it holds
	// ("Before booking, ...", "Suspending a line needs ..."), their verbs,
	// a call's verb is looked for among (Covers); empty where it names
	// none or holds any action ("any action that updates the database").
	Acts []string `json:"acts,omitempty"`
	// Verb and State: "an order can only be cancelled if its status is
	// 'pending'" restricts the verb (cancel) to objects in a state
	// (pending).
	Verb  string `json:"verb,omitempty"`
	State string `json:"state,omitempty"`
}

var (
	// policyRe finds a policy's words, as Go's (?i)\b...\b reads them.
	policyRe  = pattern(goWords(`must|must not|never|only|always|should not|shouldn't|do not|don't|cannot|can't|not allowed|required?|before|unless|confirm(?:ation)?`), 0)
	confirmRe = goPattern(`(?i)\b(?:confirm(?:ation|s|ed)?|explicit(?:ly)? (?:approv|agree|consent)\w*|` + awaitedYes + `|` + neededYes + `)\b`)
	// consentRe finds a policy that makes an action wait for the other
	// party's agreement without a policy's usual words ("Suspending a
	// line needs the customer's yes.").
	consentRe = goPattern(`(?i)\b(?:` + neededYes + `)\b`)
	// notConsentRe is a confirmation's word that asks no one's agreement:
	// an identity the agent checks ("confirm the customer's identity"),
	// or a way the other party may confirm ("the customer may confirm by
	// email").
	notConsentRe = goPattern(`(?i)^\s+(?:(?:the|their|his|her|your|its|an?|\w+'s)\s+){0,2}(?:identity|identities|id|who\b)`)
	mayRe        = goPattern(`(?i)\b(?:may|can|could|might)\s+$`)
	// anyActionRe is a confirmation policy that holds every action, not
	// the ones it names as examples.
	anyActionRe = goPattern(`(?i)\b(?:any|all|every|each|consequential)\s+(?:\w+\s+)?(?:actions?|changes?|updates?|writes?|operations?)\b|\bactions?\s+that\b`)
	// "can only be cancelled if its status is 'pending'"
	stateRuleRe = goPattern(`(?i)\bcan only be (\w+?)(?:ed|d)?\b[^.]{0,60}?\b(?:status|state) is ['"]?(\w[\w ]{0,30}?)['"]?(?:[,.;]|\s|$)`)
)

// policies reads the rules in a system prompt or task text t: the
// sentences that hold a match of policyRe. No match spans two sentences,
// as none holds a sentence's end, and the bytes around a sentence are not
// word bytes, so a sentence holds a match of policyRe within the text
// exactly when it holds one read alone.
func policies(t *text) []Policy {
	if len(t.s) > maxCallScan*4 {
		t = t.sub(0, maxCallScan*4)
	}
	content := t.s
	var out []Policy
	lower, aligned := t.lowered()
	found := t.find(policyRe, math.MaxInt)
	for _, sp := range sentenceSpans(content) {
		for len(found) > 0 && found[0].Whole().Start < sp[0] {
			found = found[1:]
		}
		sent := content[sp[0]:sp[1]]
		if len(found) == 0 || found[0].Whole().Start >= sp[1] {
			if !consentRe.MatchString(sent) {
				continue
			}
		}
		// Where the lower case is aligned, a sentence that holds none of
		// the words a pattern must read is not run through it.
		confirm, stateRule := true, true
		if aligned {
			l := lower[sp[0]:sp[1]]
			confirm = strings.Contains(l, "confirm") || strings.Contains(l, "explicit") || strings.Contains(l, "get ") || strings.Contains(l, "obtain") || strings.Contains(l, "receive") || strings.Contains(l, "wait for") || strings.Contains(l, "yes") || strings.Contains(l, "ok") || strings.Contains(l, "consent") || strings.Contains(l, "approv") || strings.Contains(l, "agree") || strings.Contains(l, "permission") || strings.Contains(l, "say-so")
			stateRule = strings.Contains(l, "can only be")
		}
		p := Policy{Text: strings.TrimSpace(sent), Offset: sp[0], Confirm: confirm && asksConfirmation(sent)}
		if p.Confirm && !anyActionRe.MatchString(sent) {
			p.Acts = policyActs(sent)
		}
		if stateRule {
			if m := stateRuleRe.FindStringSubmatch(sent); m != nil {
				p.Verb, p.State = strings.ToLower(m[1]), strings.ToLower(strings.TrimSpace(m[2]))
			}
		}
		out = append(out, p)
	}
	return out
}

// asksConfirmation reports whether a policy's sentence asks for the
// other party's yes (confirmRe): a match that names a thing a system
// issues, by the noun after it ("an approval code", "the confirmation
// number", "a confirmation email"), asks no one's.
func asksConfirmation(sent string) bool {
	for _, m := range confirmRe.FindAllStringIndex(sent, -1) {
		if notConsentRe.MatchString(sent[m[1]:]) || mayRe.MatchString(sent[:m[0]]) {
			continue
		}
		next := strings.Fields(sent[m[1]:])
		if len(next) == 0 || !issuedThings[strings.ToLower(strings.Trim(next[0], `.,;:!?()"'`))] {
			return true
		}
	}
	return false
}

// policyActs returns the verbs of change (changeVerbs) a confirmation
// policy's words name: the actions it holds.
func policyActs(sent string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(sent), func(r rune) bool { return !unicode.IsLetter(r) }) {
		for v := range changeVerbs {
			if namesVerb(w, v) {
				out = appendNew(out, v)
			}
		}
	}
	slices.Sort(out)
	return out
}

// namesVerb reports whether a word is a form of verb v: the verb, its
// third person ("changes"), its past participle ("cancelled",
// "modified"; VerbForms), its -ing form ("booking") or the noun of its
// act ("cancellation", "modification", "payment", "renewal"). A word
// that only begins with the verb ("movie", "closet", "bookmark") is
// another word.
func namesVerb(w, v string) bool {
	if w == v || w == v+"s" || w == v+"es" {
		return true
	}
	if base, ok := strings.CutSuffix(w, "ification"); ok {
		return base+"ify" == v
	}
	for _, end := range []string{"ed", "ing", "ation", "ment", "al"} {
		if base, ok := strings.CutSuffix(w, end); ok {
			return slices.Contains(VerbForms(base+"ed"), v)
		}
	}
	return false
}

// Covers reports whether a confirmation policy holds a call: it names no
// acting verb, or it names the call's ("booking" for book_seat,
// "cancelled" for cancel_order).
func (p Policy) Covers(c Call) bool {
	if len(p.Acts) == 0 {
		return true
	}
	w := c.Words()
	return len(w) > 0 && slices.ContainsFunc(p.Acts, func(v string) bool { return namesVerb(w[0], v) })
}

// issuedThings are nouns of what a system issues or sends that a
// confirmation's or an approval's word may name ("approval code",
// "confirmation number", "confirmation email").
var issuedThings = toSet("code codes number numbers id ids token tokens reference references ref key keys email emails e-mail receipt receipts sms letter letters slip slips")

// askedConfirmRe finds, in a task's sentence, a confirmation the asker
// gives rather than one it asks for: "confirm with me", "until I
// confirm", "ask for my confirmation", "wait for confirmation", an
// agreement to get or wait for (awaitedYes). A confirmation the sentence
// names without saying whose it is or that it is awaited ("send me a
// confirmation once it's done") is a report the agent is asked to give.
var askedConfirmRe = goPattern(`(?i)\b(?:(?:my|our|(?:the )?(?:user|customer)(?:'s)?|for|without|until|pending|awaiting|explicit)\s+confirmation|confirm(?:s|ed)? with|(?:I|we|me|us|user|customer)\s+(?:to\s+)?confirm(?:s|ed)?|confirmed by|explicit(?:ly)? (?:approv|agree|consent)\w*|` + awaitedYes + `)\b`)

// awaitedYes is an agreement the agent is to get or wait for ("get the
// patient's yes", "wait for the go-ahead", "get my OK"): someone's yes,
// never a report the agent is asked to send.
const awaitedYes = `(?:get|obtain|receive|wait for) (?:(?:the|my|our|your|their|an?) |the \w+'s )?(?:explicit )?(?:yes|ok|okay|go-ahead|approval|consent|agreement)`

// neededYes is an action made to wait for someone's agreement in other
// words: it needs their yes or is not taken without it ("needs the customer's
// yes", "requires their consent", "without the member's OK"), or waits
// until they agree ("only after the customer confirms", "until the
// caller agrees", "once the user says yes").
const neededYes = `(?:needs?|requires?|needing|requiring|without)\s+(?:(?:the|their|your|my|our|an?)\s+)?(?:(?:\w+\s+)?\w+['’]s\s+)?(?:explicit\s+|written\s+|verbal\s+)?(?:yes|ok|okay|go-ahead|consent|approval|agreement|permission|say-so)` +
	`|(?:until|unless|after|once|when|before)\s+(?:(?:the|they|he|she|you)\s+)?(?:\w+\s+)?(?:has\s+|have\s+)?(?:confirm(?:s|ed)?|agree[sd]?|approve[sd]?|consent(?:s|ed)?|says?\s+yes|said\s+yes|gives?\s+(?:(?:the|their|a|an)\s+)?(?:yes|ok|go-ahead|consent|approval))`

// requestedConfirmations clears Confirm on the policies of a task's text
// whose sentence only asks the agent to confirm a thing to the asker
// ("Schedule the review and confirm the slot."): a report asked for, not
// an agreement the agent must wait for.
func requestedConfirmations(ps []Policy) {
	for k := range ps {
		if ps[k].Confirm && !askedConfirmRe.MatchString(ps[k].Text) {
			ps[k].Confirm = false
		}
	}
}

// sentenceSpans splits text into sentences and list items: a sentence
// ends at a newline, or at '.', '!' or '?' before a space, a newline or
// the end of the text.
func sentenceSpans(s string) [][2]int {
	var out [][2]int
	start := 0
	for i := 0; i < len(s); i++ {
		// Eight bytes at a time up to the next byte where a sentence may
		// end: a byte of w^c*Ones is zero where w holds c, and the lowest
		// byte flagged is the first such zero.
		for ; i+8 <= len(s); i += 8 {
			w := matching.Load8(s, i)
			nl, dot, bang, ask := w^'\n'*matching.Ones, w^'.'*matching.Ones, w^'!'*matching.Ones, w^'?'*matching.Ones
			zero := ((nl - matching.Ones) &^ nl) | ((dot - matching.Ones) &^ dot) | ((bang - matching.Ones) &^ bang) | ((ask - matching.Ones) &^ ask)
			if zero &= matching.HighBits; zero != 0 {
				i += bits.TrailingZeros64(zero) / 8
				break
			}
		}
		if i >= len(s) {
			break
		}
		end := false
		switch s[i] {
		case '\n':
			end = true
		case '.', '!', '?':
			end = i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n'
		}
		if end {
			if strings.TrimSpace(s[start:i+1]) != "" {
				out = append(out, [2]int{start, i + 1})
			}
			start = i + 1
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

// affirmRe opens a message that agrees to go ahead, in English or in the
// yes of a customer's own language ("Oui.", "Ja, bitte.", "Sí.").
var affirmRe = goPattern(`(?i)^\W{0,4}(?:(?:yes|yeah|yep|sure|ok(?:ay)?|oui|ja|jawohl|genau|d'accord|claro|vale|si|confirm(?:ed)?|correct|please (?:go ahead|proceed|do)|go ahead|proceed|sounds (?:good|great|fine)|that'?s (?:right|correct)|i confirm|absolutely|definitely)\b|sí(?:$|[^\pL\pN]))`)

// affirmHead is how many bytes of a message affirmRe reads, and more: four
// runes of \W, its longest word ("please go ahead") at three bytes a rune
// (as "K", the Kelvin sign, folds to "k"), the rune \b reads after it,
// and the part of a rune headEnd may cut. Go's backtracker clears a bit
// for each byte of the text it is given, however early the anchored
// pattern stops: for a long message that was most of its cost.
const affirmHead = 4*utf8.UTFMax + 3*len("please go ahead") + 2*utf8.UTFMax

// affirms reports whether a message agrees to what was proposed, and
// does not put the agreement off until someone else's say-so (deferredYes).
// A yes that follows a pick ("The 10 am one please, HAT170. Yes, book
// it.") agrees to the choice picked.
func affirms(content string) bool {
	if deferredYes(content) {
		return false
	}
	if opensWithYes(content) {
		return true
	}
	end := pickEnd(content)
	if end < 0 {
		return false
	}
	rest := strings.TrimLeft(content[end:], " \t\n")
	return opensWithYes(rest) && !deferredYes(rest)
}

// opensWithYes reports whether affirmRe matches a message's start.
func opensWithYes(content string) bool {
	return affirmRe.MatchString(content[:headEnd(content, affirmHead)])
}

// pickHead is how much of a message opensWithPick reads: its first
// sentence, a pick being a few words.
const pickHead = 160

// picks reports whether a message opens by picking one of the choices
// it was offered (opensWithPick), and does not put the pick off until
// someone else's say-so (deferredYes).
func picks(content string) bool {
	return opensWithPick(content) && !deferredYes(content)
}

// opensWithPick reports whether a message's first sentence picks a
// choice by what tells it from the others and asks for it: a time of
// day or "the … one" with "please" after its first word, or "I'll take",
// "let's go with" before it ("The 10 am one please, HAT170.", "Ines at
// 2:30 please", "I'll take the blue one"), or an id alone and "please"
// ("HAT170, please"). A sentence of more than eight words, one that asks
// or refuses, or one that names no choice so ("Cancel order W123
// please") is a request, no pick.
func opensWithPick(content string) bool {
	return pickEnd(content) > 0
}

// pickEnd returns where the sentence that opensWithPick reads as a pick
// ends, -1 when the message opens with none.
func pickEnd(content string) int {
	head := content[:headEnd(content, pickHead)]
	sp := sentenceSpans(head)
	if len(sp) == 0 {
		return -1
	}
	sent := strings.TrimSpace(head[sp[0][0]:sp[0][1]])
	if strings.HasSuffix(sent, "?") || sp[0][1] == len(head) && len(head) < len(content) {
		return -1
	}
	if pickSentence(sent) {
		return sp[0][1]
	}
	return -1
}

// pickSentence reports whether a sentence is a pick (opensWithPick).
func pickSentence(sent string) bool {
	words := strings.FieldsFunc(strings.ToLower(sent), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == ':' || r == '\'' || r == '’' || r == '-' || r == '.')
	})
	for k := range words {
		words[k] = strings.Trim(words[k], ".-'’")
	}
	words = slices.DeleteFunc(words, func(w string) bool { return w == "" })
	if len(words) == 0 || len(words) > 8 {
		return false
	}
	please := slices.Index(words, "please")
	names, id := false, false
	for k, w := range words {
		switch {
		case pickRefusals[w]:
			return false
		case w == "one" && k > 0, clockTime(w), (w == "am" || w == "pm" || w == "a.m" || w == "p.m") && k > 0 && isDigits(words[k-1]):
			names = true
		case strings.ContainsFunc(w, unicode.IsDigit) && strings.ContainsFunc(w, unicode.IsLetter) && !clockTime(w):
			id = true
		}
	}
	switch {
	case please > 0 && names:
		return true
	case please == 1 && id:
		return true
	}
	lead := strings.Join(words[:min(3, len(words))], " ")
	return (names || id) && slices.ContainsFunc(pickLeads, func(p string) bool { return strings.HasPrefix(lead+" ", p+" ") })
}

// pickLeads open a sentence that takes one of the choices offered.
var pickLeads = []string{"i'll take", "i’ll take", "i will take", "i'll go with", "i’ll go with", "i'll have", "i’ll have", "let's go with", "let’s go with", "let's do", "let’s do", "go with"}

// pickRefusals are the words that turn a pick down or put it off.
var pickRefusals = map[string]bool{"not": true, "no": true, "don't": true, "don’t": true, "neither": true, "none": true, "instead": true, "if": true, "unless": true}

// clockTime reports whether a word is a time of day written with its
// minutes or its half of the day ("2:30", "10am", "4pm"): an hour of the
// day (dayClock), or of a half-day before am or pm.
func clockTime(w string) bool {
	hm, half := w, false
	for _, ap := range []string{"am", "pm"} {
		if t, ok := strings.CutSuffix(w, ap); ok {
			hm, half = t, true
		}
	}
	hs, ms, colon := strings.Cut(hm, ":")
	if len(hs) < 1 || len(hs) > 2 || !isDigits(hs) || colon && (len(ms) != 2 || !isDigits(ms)) || !colon && !half {
		return false
	}
	h, _ := strconv.Atoi(hs)
	minute, _ := strconv.Atoi(ms)
	return dayClock(h, minute) && (!half || h >= 1 && h <= 12)
}

// deferredYesRe finds an agreement made to wait for another's approval:
// "once my supervisor signs off", "after the manager approves", "pending
// her approval", "I have to check with my manager first". The yes is not
// the one a confirmation policy asks for until that approval comes; a
// condition the one asked can meet ("yes, if it goes to my card") is
// none of these, nor is an approval already given ("my manager already
// approved it").
var deferredYesRe = goPattern(`(?i)\b(?:(?:once|after|when|as soon as|until|till)\s+(?:(?:my|our|the|his|her|their|she|he|they|it|this|that)\s+)?(?:\w+(?:['’]\w*)?\s+){0,2}(?:has\s+|have\s+|is\s+|gets?\s+|got\s+)?(?:signs?\s+off|signed\s+off|approves?|approved|okays?|okayed|o\.?k\.?s|gives?\s+(?:(?:the|me|us|it|her|his|their|a)\s+)?(?:go-ahead|green\s+light|ok|okay|sign-off|approval)|says?\s+(?:yes|so|ok|okay))|(?:pending|awaiting|subject\s+to)\s+(?:(?:my|our|the|his|her|their)\s+)?(?:\w+['’]s\s+)?(?:\w+\s+)?(?:approval|sign-off|go-ahead|ok|okay)|(?:have|need|got)\s+to\s+(?:check|clear\s+(?:it|this|that))\s+with\s+(?:my|our|the)\s+(?:\w+\s+){0,2}first)\b`)

// deferredHead bounds how much of a message deferredYes reads: an
// agreement and the condition that follows it.
const deferredHead = 400

// yesSentence returns the sentence of head that a message's agreement is
// made in: its first, and the one after it when the first is a yes of a
// few words alone ("Yes. Once my manager signs off."). What the message
// goes on to say of other things puts off nothing it agreed to.
func yesSentence(head string) string {
	sp := sentenceSpans(head)
	if len(sp) == 0 {
		return head
	}
	end := sp[0][1]
	if len(sp) > 1 && len(strings.Fields(head[sp[0][0]:sp[0][1]])) <= 3 {
		end = sp[1][1]
	}
	return head[:end]
}

// deferredYes reports whether a message puts its agreement off until
// someone else approves (deferredYesRe), in the sentence it agrees in
// (yesSentence). An approval the one asked gives
// ("once you've approved it") is a condition it can meet; one written
// in the passive with no one named to give it ("let me know once the
// refund is approved", "until it gets approved") is the change's own
// course, which the yes already set going: neither puts the yes off.
func deferredYes(content string) bool {
	head := yesSentence(content[:headEnd(content, deferredHead)])
	for _, m := range deferredYesRe.FindAllStringIndex(head, -1) {
		words := strings.Fields(strings.ToLower(head[m[0]:m[1]]))
		if slices.ContainsFunc(words, func(w string) bool {
			return w == "you" || strings.HasPrefix(w, "you'") || strings.HasPrefix(w, "you’")
		}) {
			continue
		}
		if passiveApproval(words) && !strings.HasPrefix(strings.TrimLeft(head[m[1]:], " \t\n"), "by ") {
			continue
		}
		return true
	}
	return false
}

// passiveApproval reports whether the words of a deferredYesRe match end
// in an approval written in the passive: "is approved", "gets signed
// off", "it's okayed".
func passiveApproval(words []string) bool {
	n := len(words)
	if n < 2 {
		return false
	}
	if words[n-1] == "off" && words[n-2] == "signed" {
		n--
	}
	switch words[n-1] {
	case "approved", "signed", "okayed":
	default:
		return false
	}
	switch aux := words[n-2]; aux {
	case "is", "get", "gets", "got", "been", "it's", "it’s", "that's", "that’s", "this's":
		return true
	}
	return false
}

// statusRe reads an object's state from a tool result: "status":
// "pending". ("state" is not read: in most records it is part of an
// address.) Its spaces are JSON's, and its "s" is also the long s that
// case folding pairs with it, as Go's (?i) has always read the key.
var statusRe = pattern(`"[sſ]tatu[sſ]"[\t\n\f\r ]*:[\t\n\f\r ]*"(?<state>[^"]{1,60})"`, ci)

// states returns the states a tool result reports, in lower case: every
// one, as a list of records has as many as it has records.
func states(t *text) []string {
	var out []string
	for _, m := range t.find(statusRe, math.MaxInt) {
		out = append(out, strings.ToLower(t.named(m, "state")))
	}
	return out
}

// listedCallRe reads calls listed in a text: name({...}) or name().
var listedCallRe = goPattern(`([A-Za-z_][\w.-]{0,63})\((\{[^()]*\}|)\)`)

// listedCalls returns the calls a text lists, as a ground truth lists the
// actions a run should have taken.
func listedCalls(s string) []Call {
	if !strings.Contains(s, "(") {
		return nil
	}
	var out []Call
	for _, m := range listedCallRe.FindAllStringSubmatch(s, -1) {
		out = append(out, Call{Name: m[1], Args: m[2], Values: ArgValues(m[2])})
	}
	return out
}

// asks reports whether a message ends by asking the other party something.
func asks(content string) bool {
	s := strings.TrimRightFunc(content, func(r rune) bool { return unicode.IsSpace(r) || r == '*' || r == '"' || r == ')' })
	return strings.HasSuffix(s, "?")
}

// asksChoice reports whether a message ends by asking the other party to
// choose ("Which would you like?", "10 am or 2 pm?"), not to agree to
// one thing: its last sentence, a question, names "which" or "or".
func asksChoice(content string) bool {
	if !asks(content) {
		return false
	}
	content = strings.TrimRightFunc(content, unicode.IsSpace)
	tail := content[max(0, len(content)-maxAskedTail):]
	sp := sentenceSpans(tail)
	if len(sp) == 0 {
		return false
	}
	last := strings.FieldsFunc(strings.ToLower(tail[sp[len(sp)-1][0]:]), func(r rune) bool { return !unicode.IsLetter(r) })
	return slices.Contains(last, "which") || slices.Contains(last, "or")
}

// maxAskedTail is how much of a message's end asksChoice reads for its
// last sentence.
const maxAskedTail = 400

// actions reads what a step does toward tools and the other party: its
// calls, the tool a result answers, the policies a system prompt or task
// states, and whether it asks or agrees.
func (rc *runContext) actions(f *Features, s run.Step, t *text, kinds *KindSet) {
	if kinds.Has(KindToolResult) {
		f.Tool = resultTool(s.Content, rc.called)
		f.States = states(t)
	} else {
		f.Calls = calls(s, t)
		if s.Kind != run.KindUser && s.Kind != run.KindSystem {
			f.Calls = append(f.Calls, rc.envCalls(s.Content, t)...)
		}
		for _, c := range f.Calls {
			rc.called[c.Name] = true
		}
		if len(f.Calls) > 0 {
			kinds.add(KindToolCall)
		}
	}
	if s.Kind == run.KindSystem || kinds.Has(KindTask) {
		f.Policies = policies(t)
		if s.Kind != run.KindSystem {
			requestedConfirmations(f.Policies)
		}
	}
	if kinds.Has(KindTask) && rc.instructions != "" {
		// The rules the system was given apart from the steps come with
		// the task they govern.
		f.Policies = append(policies(newText(rc.instructions)), f.Policies...)
		rc.instructions = ""
	}
	f.Asks = asks(s.Content)
	f.AsksChoice = asksChoice(s.Content)
	f.Affirms = affirms(s.Content)
	f.Picks = picks(s.Content)
}

// patchTexts reads the patch a call applies, given as its whole input
// (Codex CLI's apply_patch tool) or as one of its arguments' values (a
// command line that feeds it to apply_patch, git apply or patch): the
// lines its hunks keep and remove are the old text, those they keep and
// add the new. The envelope's and a unified diff's head lines (*** Update
// File:, @@, --- a/, +++ b/) are neither; the patch ends at *** End
// Patch or at a here-document's end. false when no value is a patch.
func patchTexts(args string) (oldText, newText string, ok bool) {
	texts := []string{args}
	if v := ArgValues(args); json.Valid([]byte(args)) {
		texts = v
	}
	for _, text := range texts {
		start := strings.Index(text, "*** Begin Patch")
		if start < 0 {
			start = strings.Index(text, "\n--- ")
		}
		if start < 0 {
			continue
		}
		var oldLines, newLines []string
		for l := range strings.SplitSeq(text[start:], "\n") {
			l = strings.TrimRight(l, "\r")
			if l == "*** End Patch" || l == "EOF" {
				break
			}
			switch {
			case strings.HasPrefix(l, "*** "), strings.HasPrefix(l, "@@"), strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "+++ "),
				strings.HasPrefix(l, "diff --git "), strings.HasPrefix(l, "index "), l == "\\ No newline at end of file":
			case strings.HasPrefix(l, "+"):
				newLines = append(newLines, l[1:])
			case strings.HasPrefix(l, "-"):
				oldLines = append(oldLines, l[1:])
			default:
				l = strings.TrimPrefix(l, " ")
				oldLines, newLines = append(oldLines, l), append(newLines, l)
			}
		}
		if len(oldLines) > 0 || len(newLines) > 0 {
			return strings.Join(oldLines, "\n"), strings.Join(newLines, "\n"), true
		}
	}
	return "", "", false
}

// codeValues are the values a call given code to run (an interpreter
// tool's "code" argument) acts on: the literal arguments of the calls
// the code writes (a string, a number, a sum of numbers; a keyword's
// value after its name; a call given arithmetic alone, as written), each
// once, in order. The code as a whole is what the call does, as a
// command line is, and no step writes it before it runs; what it gives
// the functions it calls (an address, a date, an answer) is what an
// earlier step may or may not hold. A file the code opens (not a mail
// address) is left to the rules that read code's files, and a path in
// code to the claims its step states. ok is false for an argument of
// another key, or code that calls nothing.
func codeValues(key, code string) (out []string, ok bool) {
	if key != "code" {
		return nil, false
	}
	calls := callsIn(code)
	if len(calls) == 0 {
		return nil, false
	}
	for _, c := range calls {
		if pointerCall(c) {
			// Where a desktop agent's pointer acts, and how it moves, is
			// how it acts, no value it was given.
			continue
		}
		if len(c.args) > 0 && !slices.ContainsFunc(c.args, func(a string) bool { return !numericExpr(a) }) {
			// Arithmetic handed to a function (round(543/2310*100, 1)) is
			// kept as written, its function's name with it: the rules read
			// a rounding's places as the code's own.
			if w := c.name + "(" + strings.Join(c.args, ", ") + ")"; !slices.Contains(out, w) {
				out = append(out, w)
			}
			continue
		}
		for _, a := range literalArgs(c.args) {
			if s, isStr := stringArg(a, nil); isStr {
				if s = strings.TrimSpace(s); s != "" && !codeWord(s) && !(FileLike(s) && !strings.Contains(s, "@")) && !slices.Contains(out, s) && !(strings.HasPrefix(strings.ToLower(a), "f") && strings.Contains(s, "{")) {
					out = append(out, s)
				}
			} else if numericExpr(a) && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out, true
}

// pointerFuncs are pyautogui's functions that move the pointer or act
// at a point (pointerCallRe's).
var pointerFuncs = map[string]bool{
	"click": true, "doubleClick": true, "tripleClick": true, "rightClick": true, "middleClick": true,
	"moveTo": true, "moveRel": true, "move": true, "dragTo": true, "dragRel": true, "drag": true,
	"mouseDown": true, "mouseUp": true, "scroll": true, "hscroll": true, "vscroll": true,
}

// pointerCall reports whether c is a call of one of pyautogui's pointer
// functions.
func pointerCall(c codeCall) bool {
	name := c.name
	if c.receiver != "" {
		name = c.receiver + "." + name
	}
	fn, ok := strings.CutPrefix(name, "pyautogui.")
	return ok && pointerFuncs[fn]
}

// literalArgs are a call's arguments as codeValues reads them: a
// keyword's value after its name, and each item of a tuple or a list
// written out (execute(sql, ('2022',))), as the call is given each.
func literalArgs(args []string) []string {
	var out []string
	for _, a := range args {
		if k := keywordEnd(a); k > 0 {
			a = strings.TrimSpace(a[k:])
		}
		if n := len(a); n >= 2 && (a[0] == '(' && a[n-1] == ')' || a[0] == '[' && a[n-1] == ']') && codeClosing(a, 0) == n-1 {
			out = append(out, splitArgs(a[1:n-1])...)
			continue
		}
		out = append(out, a)
	}
	return out
}

// codeWord reports whether a string literal is one word of the code's
// own vocabulary rather than data: lower case letters, digits and
// underscores, a sign before it at most (an app's, a field's or an API's
// name, "sent", "-created_at"), as a label a print gives its output is.
func codeWord(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// keywordEnd is the index after the "=" of a keyword argument
// (answer=5), 0 for a positional one.
func keywordEnd(a string) int {
	k := 0
	for k < len(a) && isIdentByte(a[k]) {
		k++
	}
	if k == 0 || k >= len(a) || a[k] != '=' || k+1 < len(a) && a[k+1] == '=' {
		return 0
	}
	return k + 1
}

// numericExpr reports whether an argument is a number, or arithmetic of
// numbers alone (250 / 1.0482), as written.
func numericExpr(a string) bool {
	digit := false
	for _, r := range a {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case strings.ContainsRune(" .+-*/%()_", r):
		default:
			return false
		}
	}
	return digit
}

// blockCalls are the calls a message's Python code blocks make, one for
// each block whose code calls something: the block is given to whoever
// runs it (a terminal, a user proxy) as code is given to an interpreter
// tool, so its call is named for its language and has the code as its
// "code" argument, and its values are the literal arguments of the calls
// the code writes (codeValues), read as an execute_code call's are.
// Values the code assigns to names and then passes by name are its own,
// not arguments it was given.
func blockCalls(t *text) []Call {
	var out []Call
	for _, b := range t.codeBlocks(20) {
		lang := strings.ToLower(t.str(b.lang))
		if !pythonLangs[lang] {
			continue
		}
		code := strings.TrimSpace(t.str(b.code))
		if code == "" || len(code) > maxCallScan || len(callsIn(code)) == 0 {
			continue
		}
		args, err := json.Marshal(map[string]string{"code": code})
		if err != nil {
			continue
		}
		c := newCall(lang, string(args), b.all.Start)
		c.block = true
		out = append(out, c)
	}
	return out
}

// keepRunBlocks keeps, of the calls read from a step's code blocks, those
// whose code a later result answers for (AssignCallers: it was run, and
// what it printed is its result), and of their values those the task or
// an earlier step writes otherwise (writtenOtherwise): a literal in code
// is the code's own choice however often it differs from the run's
// texts, and only a figure a step before it wrote with a digit other or
// two swapped is one the code took and miscopied. Code a step writes for
// no one to run makes no call, and a run call keeping no value none either.
func keepRunBlocks(r *run.Run, rf *RunFeatures) {
	isBlock := func(c Call) bool { return c.block }
	if !slices.ContainsFunc(rf.Steps, func(f Features) bool { return slices.ContainsFunc(f.Calls, isBlock) }) {
		return // no block to keep or drop: the run's texts need not be read
	}
	ran := map[int32]bool{}
	for i := range rf.Steps {
		if c := rf.Steps[i].Caller; c >= 0 && c != rf.Steps[i].Index {
			ran[c] = true
		}
	}
	held := map[string]bool{}
	addDigitRuns(held, r.Question)
	for i := range rf.Steps {
		f := &rf.Steps[i]
		if slices.ContainsFunc(f.Calls, isBlock) {
			var kept []Call
			for _, c := range f.Calls {
				if c.block {
					if !ran[f.Index] {
						continue
					}
					if c.Values = slices.DeleteFunc(c.Values, func(v string) bool { return !writtenOtherwise(v, held) }); len(c.Values) == 0 {
						continue
					}
				}
				kept = append(kept, c)
			}
			f.Calls = exactly(kept)
		}
		addDigitRuns(held, r.Steps[i].Content)
	}
}

// addDigitRuns adds to held the runs of four digits or more that text
// writes.
func addDigitRuns(held map[string]bool, text string) {
	for _, d := range digitRuns(text) {
		held[d] = true
	}
}

// digitRuns are the runs of four digits or more in s: a year, an id, a
// count or an amount a step copies, not a small constant of code.
func digitRuns(s string) []string {
	runs := strings.FieldsFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	return slices.DeleteFunc(runs, func(d string) bool { return len(d) < 4 })
}

// writtenOtherwise reports whether a value holds a figure of four digits
// or more that held lacks, where held has one of its length with one
// digit other or two adjacent ones swapped, which the value does not
// write as well: the figure a step copied, miscopied (48213 for 48123,
// 2022 for 2021). A value that writes both gives bounds of its own, and
// a function given numbers alone (range(2000, 2010)) works with figures
// of the code's own.
func writtenOtherwise(v string, held map[string]bool) bool {
	if calls := callsIn(v); len(calls) > 0 && strings.HasSuffix(v, ")") && !slices.ContainsFunc(calls[0].args, func(a string) bool { return !numericExpr(a) }) {
		return false
	}
	mine := map[string]bool{}
	addDigitRuns(mine, v)
	slip := func(w string) bool { return held[w] && !mine[w] }
	for d := range mine {
		if held[d] {
			continue
		}
		b := []byte(d)
		for k := range b {
			orig := b[k]
			for c := byte('0'); c <= '9'; c++ {
				if c == orig {
					continue
				}
				b[k] = c
				if slip(string(b)) {
					return true
				}
			}
			b[k] = orig
			if k+1 < len(b) && b[k] != b[k+1] {
				b[k], b[k+1] = b[k+1], b[k]
				if slip(string(b)) {
					return true
				}
				b[k], b[k+1] = b[k+1], b[k]
			}
		}
	}
	return false
}

// pythonLangs are the fence languages of Python code.
var pythonLangs = toSet("python py python3")

// searchReplace reads the SEARCH/REPLACE blocks an argument of a call
// gives as its diff (Roo Code's apply_diff: "<<<<<<< SEARCH", an
// optional ":start_line:" and "-------", the old lines, "=======", the
// new, ">>>>>>> REPLACE"; Cline's replace_in_file: "------- SEARCH" …
// "+++++++ REPLACE"): the old text of every block, and the new, each
// joined by a line break; false when no argument holds a whole block.
func searchReplace(args string) (oldText, newText string, ok bool) {
	if !strings.Contains(args, "SEARCH") || !json.Valid([]byte(args)) {
		return "", "", false
	}
	var olds, news []string
	for _, v := range ArgValues(args) {
		var cur *[]string
		var block []string
		for l := range strings.SplitSeq(v, "\n") {
			t := strings.TrimSpace(strings.TrimRight(l, "\r"))
			switch {
			case t == "<<<<<<< SEARCH" || t == "------- SEARCH":
				cur, block = &olds, nil
			case cur == nil:
			case cur == &olds && len(block) == 0 && (strings.HasPrefix(t, ":start_line:") || strings.HasPrefix(t, ":end_line:") || t == "-------"):
			case t == "=======" && cur == &olds:
				olds, cur, block = append(olds, strings.Join(block, "\n")), &news, nil
			case (t == ">>>>>>> REPLACE" || t == "+++++++ REPLACE") && cur == &news:
				news, cur = append(news, strings.Join(block, "\n")), nil
			default:
				block = append(block, strings.TrimRight(l, "\r"))
			}
		}
	}
	if len(news) == 0 {
		return "", "", false
	}
	return strings.Join(olds[:len(news)], "\n"), strings.Join(news, "\n"), true
}
