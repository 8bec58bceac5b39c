package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// regression reads the checks an agent runs by command line (a test
// suite, a reproduction) around the changes it makes. A check whose last
// run fails, and that has failed in every run since a change was made
// before it, reports the state a change left: the change is the fault,
// not the check that showed it. The change blamed is the last
// consequential call before the first such failing run and after the
// check's run before that (the one that passed, or that failed before any
// change: the problem the task reported), when there is one, or the last
// of them that changed a file the failing run's output names; the calls of
// that run and of the failing runs after it are exonerated, since they
// only read that state. A script (no test runner) that after a change
// fails elsewhere than before was got past the failure it showed: when no
// later change is blamed, the step that ends the run with it still
// failing is (a premature submit). A check that passes again later was repaired, and
// says nothing. A run that failed because the network did (a host not
// reached, a package not fetched) says nothing either. A run fails when its output tells of an error besides its
// exit code (with or without one), or, for a reproduction, shows the
// result the task reports the code gives; it passes when it does neither.
func regression(in *Input) []Finding {
	steps := in.Features.Steps
	type outcome struct {
		call   int // the step that ran the check
		result int // the step that gave its output
		failed bool
	}
	runs := map[string][]outcome{} // by command line, in order
	var order []string
	for j := range steps {
		f := &steps[j]
		if !f.Has(extract.KindToolResult) {
			continue
		}
		c := callerOf(in, j)
		if c < 0 || c >= j {
			continue
		}
		cmd := checkCommand(steps[c].Calls)
		if cmd == "" || !slices.ContainsFunc(steps[c].Calls, runsCheck) {
			continue
		}
		_, failed := toolFailed(f)
		told := toldError(f) || reproduces(in, steps[c].Calls, j)
		if failed && !told {
			continue // an exit code alone (a search that found nothing) tells of no failure of the code
		}
		// A test runner's summary of failures fails the check though the
		// output carries no exit code, as a shell tool that returns only
		// what the command printed gives it; so does a reproduction that
		// prints the result the task reports.
		failed = failed || told
		if failed && f.Unreachable {
			continue // the network failed, not the code: the run tells nothing of what a change left
		}
		if _, ok := runs[cmd]; !ok {
			order = append(order, cmd)
		}
		runs[cmd] = append(runs[cmd], outcome{call: c, result: j, failed: failed})
	}
	// The files the checks run as scripts of their own (python
	// reproduce.py), besides a test runner's tests.
	var scripts []string
	for _, cmd := range order {
		for _, c := range steps[runs[cmd][0].call].Calls {
			if !c.Checks() {
				scripts = append(scripts, c.Scripts()...)
			}
		}
	}
	// The steps that may change what a check reads: a consequential call
	// that runs no check. lastChange looks back through these alone.
	var changing []int
	for e := range steps {
		if _, ok := runs[checkCommand(steps[e].Calls)]; !ok && slices.ContainsFunc(steps[e].Calls, extract.Call.Consequential) {
			changing = append(changing, e)
		}
	}
	var out []Finding
	blamed := map[int]bool{}
	// A check that passes only after a change to what it checks with (its
	// failed test's file, or its name written into a runner's
	// configuration: edited_check's changes) was not repaired: its runs
	// after that change say nothing of the code.
	changedCheck := -1
	if fs := editedCheck(in); len(fs) > 0 {
		changedCheck = fs[0].Step
	}
	for _, cmd := range order {
		rs := runs[cmd]
		truncated := false
		if changedCheck >= 0 {
			if k := slices.IndexFunc(rs, func(o outcome) bool { return o.call > changedCheck }); k > 0 {
				rs, truncated = rs[:k], true
			}
		}
		if !rs[len(rs)-1].failed {
			continue
		}
		// The last failing streak, and its first run after a change.
		start := len(rs) - 1
		for start > 0 && rs[start-1].failed {
			start--
		}
		movedOn := false
		for k := start; k < len(rs); k++ {
			from := -1
			if k > 0 {
				from = rs[k-1].call
			}
			if truncated && k == 0 {
				continue // its first run may fail as it did before any change: only a change between two runs is read
			}
			e := lastChange(steps, changing, from, rs[k].call, scripts)
			if e < 0 {
				continue
			}
			if k > start && !slices.ContainsFunc(steps[rs[k].call].Calls, extract.Call.Checks) && failedElsewhere(&steps[rs[k-1].result], &steps[rs[k].result]) {
				movedOn = true
				continue
			}
			if n := namedChange(steps, changing, from, e, &steps[rs[k].result]); n >= 0 {
				e = n
			}
			if !blamed[e] {
				blamed[e] = true
				out = append(out, Finding{Step: e, Strength: 1, Quote: quoteAt(in, e, 0, 0),
					Reason: fmt.Sprintf("the check run at step %d fails after this change and never passes again", rs[k].call)})
			}
			for _, r := range rs[k:] {
				out = append(out, Finding{Step: r.call, Strength: -1, Quote: quoteAt(in, r.call, 0, 0),
					Reason: fmt.Sprintf("its check only shows the state the change at step %d left", e)})
			}
			movedOn = false
			break
		}
		if end := endingStep(in); movedOn && end > rs[len(rs)-1].result && !blamed[end] {
			blamed[end] = true
			out = append(out, Finding{Step: end, Strength: 1, Quote: quoteAt(in, end, 0, 0),
				Reason: fmt.Sprintf("it ends the run while the check run at step %d still fails, past the failure the last change repaired", rs[len(rs)-1].call)})
		}
	}
	if d := discardedChanges(steps, scripts); d >= 0 && !blamed[d] {
		out = append(out, Finding{Step: d, Strength: 1, Quote: quoteAt(in, d, 0, 0),
			Reason: "it throws away every change made before it, and none is made again: the run ends as it began"})
	}
	return out
}

// Regression is the regression analyzer.
var Regression = &Analyzer{Name: "regression", Run: regression, Requires: []Fact{FactToolCalls, FactSignals, FactKinds, FactClaims},
	Doc: "a change after which a check run by command line (tests, a reproduction) fails and never passes again, or that throws away every change made before it; not the check that showed it"}

// discardedChanges is the step whose call throws away every change made
// before it (extract's Call.Discards: git checkout -- ., git stash, git
// restore of each file changed), when no change is made after it, or -1:
// the run ends in the state it began in, whatever its checks said of the
// changes, as a regression's last check would have shown had it run. The
// scripts the run's checks run by themselves (a reproduction) are no
// change of the code. A later change (git stash pop among them) undoes
// the finding.
func discardedChanges(steps []extract.Features, scripts []string) int {
	var changed []string
	found := -1
	for j := range steps {
		for _, c := range steps[j].Calls {
			if d := c.Discards(); len(d) > 0 {
				if len(changed) > 0 && coversAll(d, changed) {
					found, changed = j, nil
				}
				continue
			}
			if !c.Consequential() {
				continue
			}
			files := changedFiles(c)
			if c.Writes() != nil && len(c.Writes()) == 0 {
				files = []string{"*"} // a patch applied: files its line does not name
			}
			for _, f := range files {
				if !slices.ContainsFunc(scripts, func(s string) bool { return sameFile(f, s) }) {
					changed = appendNew(changed, f)
					found = -1
				}
			}
		}
	}
	return found
}

// coversAll reports whether the files a call discards (discards, "." for
// every one) hold every file changed.
func coversAll(discards, changed []string) bool {
	if slices.Contains(discards, ".") {
		return true
	}
	return !slices.ContainsFunc(changed, func(f string) bool {
		return !slices.ContainsFunc(discards, func(d string) bool { return sameFile(f, d) })
	})
}

func appendNew(out []string, s string) []string {
	if slices.Contains(out, s) {
		return out
	}
	return append(out, s)
}

// checkCommand is the command line a step's call runs, when it is one a
// shell runs (a program and its arguments: a test suite, a reproduction);
// "" when the step runs none. An editor exposed as a tool is given one
// word ("view", "str_replace"): that is no check; nor is a line that
// only writes files (sed -i, a heredoc into a file), nor one that throws
// changes away (git stash): it is a change; nor one that sets the
// changes aside while it runs (git stash && pytest; git stash pop): it
// checks the code without them. A check that also saves its output
// (pytest | tee log) is a check.
func checkCommand(calls []extract.Call) string {
	for _, c := range calls {
		if cmd := strings.TrimSpace(c.Command()); strings.ContainsAny(cmd, " \t\n") && (c.Writes() == nil || c.Checks()) && c.Discards() == nil && !c.SetsAside() {
			return cmd
		}
	}
	return ""
}

// runsCheck reports whether a call runs a check (checkCommand) that runs
// something: a test runner, a linter, a build, a script. A line that
// only reads (cat, grep, sed -n) prints a file's text, not a report of a
// run: the words of that text (a config's error key, a timeout
// parameter) tell of no failure.
func runsCheck(c extract.Call) bool {
	return checkCommand([]extract.Call{c}) != "" && (c.Checks() || c.Consequential())
}

// lastChange is the last of the changing steps in (from, to) that makes
// a consequential call other than writing only the files the check run at
// step to runs as code (extract's Call.Scripts: a reproduction script,
// the tests a test runner is given), or those another check of the run
// runs as a script of its own (scripts: a reproduction beside the test
// suite), or -1. Writing a check changes nothing it checks: a script that
// fails on its first run shows the state it was written against, and a
// script the agent runs by itself is no code the suite imports. A file
// the check only reads (a config given as an option's value, its data)
// is state it checks.
func lastChange(steps []extract.Features, changing []int, from, to int, scripts []string) int {
	ran := slices.Clone(scripts)
	for _, c := range steps[to].Calls {
		ran = append(ran, c.Scripts()...)
	}
	changes := func(c extract.Call) bool {
		files := changedFiles(c)
		writesCheck := len(files) > 0 && !slices.ContainsFunc(files, func(f string) bool {
			return !slices.ContainsFunc(ran, func(r string) bool { return sameFile(f, r) })
		})
		return c.Consequential() && !writesCheck && changesBehaviour(c)
	}
	i, _ := slices.BinarySearch(changing, to)
	for i--; i >= 0 && changing[i] > from; i-- {
		if e := changing[i]; slices.ContainsFunc(steps[e].Calls, changes) {
			return e
		}
	}
	return -1
}

// namedChange is the last of the changing steps in (from, last] that
// changes a file the failing check's output (result) names, or -1: of
// the changes made since the check last ran, the one whose file the
// failure shows (a fixture a test read, a module its traceback ran
// through, the module a failing test file is named for: rates.py for
// tests/test_rates.py) left the state it fails in, even when others came
// after it.
func namedChange(steps []extract.Features, changing []int, from, last int, result *extract.Features) int {
	var named []string
	for _, c := range result.Claims {
		if c.Kind == extract.ClaimPath {
			named = append(named, extract.PathNorm(c.Text))
			if t := extract.TestedFile(c.Text); t != "" {
				named = append(named, t) // the module a failing test file is named for
			}
		}
	}
	if len(named) == 0 {
		return -1
	}
	isNamed := func(f string) bool { return slices.ContainsFunc(named, func(n string) bool { return sameFile(f, n) }) }
	i, _ := slices.BinarySearch(changing, last+1)
	for i--; i >= 0 && changing[i] > from; i-- {
		for _, c := range steps[changing[i]].Calls {
			if d := c.Discards(); slices.Contains(d, ".") || slices.ContainsFunc(d, isNamed) {
				return -1 // what came before was thrown away: the failure is not its doing
			}
			if changesBehaviour(c) && slices.ContainsFunc(changedFiles(c), isNamed) {
				return changing[i]
			}
		}
	}
	return -1
}

// changesBehaviour reports whether a call's change may alter what the
// code does: not one that only adds imports, nor one that only changes
// comments, docstrings or log calls (extract's AddsOnlyImports,
// ChangesOnlyRemarks). Such a change is no cause of what a check finds.
func changesBehaviour(c extract.Call) bool {
	return !c.AddsOnlyImports() && !c.ChangesOnlyRemarks()
}

// sameFile reports whether two paths, as PathNorm has them, name one file:
// the same, or one a bare file name that the other ends in ("reproduce.py"
// run from the directory "/repo/reproduce.py" was written to).
func sameFile(a, b string) bool {
	if strings.EqualFold(a, b) {
		return true
	}
	if strings.Contains(a, "/") == strings.Contains(b, "/") {
		return false
	}
	if strings.Contains(a, "/") {
		a, b = b, a
	}
	return strings.HasSuffix(strings.ToLower(b), "/"+strings.ToLower(a))
}

// failedElsewhere reports whether a script's failing run (after) fails
// other than its failing run before it (before): the functions the
// failure ran through and the names its error quotes (extract's FailedIn
// and ErrorNames) are all new. A script stops at its first failure, so
// the changes between got it past the one it showed before; the failure
// it shows now is one it had not reached.
func failedElsewhere(before, after *extract.Features) bool {
	was := slices.Concat(before.FailedIn, before.ErrorNames)
	now := slices.Concat(after.FailedIn, after.ErrorNames)
	return len(was) > 0 && len(now) > 0 && !slices.ContainsFunc(now, func(n string) bool { return slices.Contains(was, n) })
}

// endingStep is the run's last step that its agents chose (not a tool's
// output, not a user's turn): the one that ends the work, a submit or a
// closing message; -1 when there is none.
func endingStep(in *Input) int {
	for j := len(in.Run.Steps) - 1; j >= 0; j-- {
		f := &in.Features.Steps[j]
		if f.Has(extract.KindToolResult) {
			if c := callerOf(in, j); c >= 0 && c < j {
				return c
			}
			continue
		}
		if in.Run.Steps[j].Kind != run.KindUser {
			return j
		}
	}
	return -1
}

// reproduces reports whether the tool result j of a check that runs no
// test runner (a reproduction script, python -c) shows a result the task
// reports the code gives (extract's ShowsReported: "returns 'IIII'",
// printed again): it prints the reported problem, as a failing test
// would tell of it. A test runner's report passes or fails on its own.
func reproduces(in *Input, calls []extract.Call, j int) bool {
	if _, ok := slices.BinarySearch(in.Features.ShowsReported, j); !ok {
		return false
	}
	return !slices.ContainsFunc(calls, extract.Call.Checks)
}

// toldError reports whether a tool result's text tells of an error besides
// its exit code (an exception, a failed test, a time-out).
func toldError(f *extract.Features) bool {
	return slices.ContainsFunc(f.Errors, func(s extract.Signal) bool {
		return s.Kind != "exit_code" && s.Severity >= extract.SeverityMedium
	})
}

// editedCheck reads the changes an agent makes after a check failed: a
// change to the file the failure located a failed assertion or a failed
// test in (a test, or a helper the test calls), which the agent had not
// written itself earlier in the run, makes the check pass by changing
// what it expects rather than the code it checks; so does a change of
// any other file that writes a failed test's name or its file's (a
// runner's configuration deselecting it, -k "not test_b", --deselect,
// collect_ignore); so does a test run that rewrites what the tests
// expect from what they now give (jest -u, a golden-file update), and a
// change to the configuration the failed check reads as its own
// (tsconfig.json after tsc failed: extract's Call.Configs). The first
// such change after each failure is blamed. Apart from any failure, the
// first change to a copy of code made from elsewhere (build output, a
// vendored or installed dependency: extract's Call.ChangesCopy) is
// blamed when the run never changes that file in the source: the patch
// changes a copy instead of the code; and so is the first change to a
// namesake of a file the task places its failure in (a traceback's
// frame: extract's TaskFiles), a file of the same name elsewhere, when
// the run never changes the one named. A file the agent wrote before
// (a reproduction script, a test it added) is its own to correct. A
// check that passes again when run the same way was repaired: a change
// to its test after that adds to it. Only calls that change files by
// name count (an editor's, a writing tool's, a command line that only
// writes files), and code blocks that write files by name (as an agent
// of a group chat gives code for another to run): a command line that
// runs a test file changes nothing.
func editedCheck(in *Input) []Finding {
	steps := in.Features.Steps
	written := map[string]bool{}
	type failure struct {
		result int    // the result that said so
		check  string // the command line that ran the check, "" for none
	}
	failedAt := map[string]failure{}      // a file an assertion or a test failed in
	failedTests := map[string]failure{}   // a test that failed, by name or by its file
	failedConfigs := map[string]failure{} // the configuration of a check that failed
	copied := false                       // a copy of code was changed (extract.InCopy)
	// The files the run changes in the source, not in a copy: a copy
	// changed besides its source is no change made instead of it.
	sourceChanged := map[string]bool{}
	for j := range steps {
		for _, c := range steps[j].Calls {
			if !c.ChangesCopy() {
				for _, p := range changedFiles(c) {
					sourceChanged[p] = true
				}
			}
		}
	}
	// The files the task names (a traceback's frames), and whether a
	// change was made to a namesake of one of them: a file of the same
	// name elsewhere, when the run never changes the one named.
	taskFiles := in.Features.TaskFiles
	namesake := func(p string) bool {
		base := p[strings.LastIndexByte(p, '/')+1:]
		return strings.Contains(p, "/") && !slices.Contains(taskFiles, p) && slices.ContainsFunc(taskFiles, func(q string) bool {
			return strings.Contains(q, "/") && q[strings.LastIndexByte(q, '/')+1:] == base && !sourceChanged[q]
		})
	}
	renamed := false
	var out []Finding
	for j := range steps {
		f := &steps[j]
		if f.Has(extract.KindToolResult) {
			check := ""
			c := callerOf(in, j)
			if c >= 0 && c < j {
				check = checkCommand(steps[c].Calls)
			}
			_, failed := toolFailed(f)
			failed = failed || toldError(f)
			if check != "" && !failed {
				for _, m := range []map[string]failure{failedAt, failedTests, failedConfigs} {
					maps.DeleteFunc(m, func(_ string, r failure) bool { return r.check == check })
				}
			}
			if check != "" && failed {
				for _, call := range steps[c].Calls {
					for _, p := range call.Configs() {
						if _, ok := failedConfigs[p]; !ok && !written[p] {
							failedConfigs[p] = failure{j, check}
						}
					}
				}
			}
			for _, p := range f.FailedAt {
				if _, ok := failedAt[p]; !ok && !written[p] {
					failedAt[p] = failure{j, check}
				}
			}
			for _, n := range slices.Concat(f.FailedTests, f.FailedAt) {
				if _, ok := failedTests[n]; !ok {
					failedTests[n] = failure{j, check}
				}
			}
			continue
		}
		if slices.ContainsFunc(f.Calls, extract.Call.UpdatesExpected) && (len(failedAt) > 0 || len(failedTests) > 0) {
			first := j
			for _, m := range []map[string]failure{failedAt, failedTests} {
				for _, r := range m {
					first = min(first, r.result)
				}
				clear(m)
			}
			out = append(out, Finding{Step: j, Strength: 1, Quote: quoteAt(in, j, 0, 0),
				Reason: fmt.Sprintf("it rewrites what the tests expect from what they now give (a snapshot update) after the check run at step %d failed, instead of changing the code they test", first)})
			continue
		}
		files := slices.Clone(f.CodeWrites) // a group chat's agent edits by a code block another runs
		for _, c := range f.Calls {
			files = append(files, changedFiles(c)...)
		}
		blamed := false
		if k := slices.IndexFunc(files, namesake); k >= 0 && !renamed && !written[files[k]] {
			out = append(out, Finding{Step: j, Strength: 1, Quote: quoteAt(in, j, 0, 0),
				Reason: fmt.Sprintf("it changes %s, a namesake of the file the task places the failure in, which the run never changes", files[k])})
			renamed, blamed = true, true
		}
		if !blamed && !slices.ContainsFunc(files, func(p string) bool { return written[p] }) {
			if k := slices.IndexFunc(f.Calls, func(c extract.Call) bool {
				return c.Consequential() && c.ChangesCopy() && len(changedFiles(c)) > 0 && !slices.ContainsFunc(changedFiles(c), func(p string) bool { return sourceChanged[p] })
			}); k >= 0 && !copied {
				out = append(out, Finding{Step: j, Strength: 1, Quote: quoteAt(in, j, 0, 0),
					Reason: fmt.Sprintf("it changes %s in a copy of code made from elsewhere (build output, a vendored or installed dependency), instead of the source", changedFiles(f.Calls[k])[0])})
				copied, blamed = true, true
			}
		}
		for _, p := range files {
			for _, cfg := range slices.Sorted(maps.Keys(failedConfigs)) {
				// A task that names the configuration asks for it to change.
				if r := failedConfigs[cfg]; !blamed && relaxes(f.Calls, cfg) && sameFile(cfg, p) && !written[p] && !in.supportIndex().text.Holds(-1, strings.ToLower(cfg)) {
					out = append(out, Finding{Step: j, Strength: 1, Quote: quoteAt(in, j, 0, 0),
						Reason: fmt.Sprintf("it changes %s, the configuration of the check that failed at step %d, instead of the code the check reads", p, r.result)})
					delete(failedConfigs, cfg)
					blamed = true
				}
			}
			// A failure may name its file bare (go test's parse_test.go:14)
			// where the change names its path.
			for _, at := range slices.Sorted(maps.Keys(failedAt)) {
				if r := failedAt[at]; sameFile(at, p) && !written[p] && !written[at] {
					out = append(out, Finding{Step: j, Strength: 1, Quote: quoteAt(in, j, 0, 0),
						Reason: fmt.Sprintf("it changes %s, where the check run at step %d failed, instead of the code the check tests", p, r.result)})
					delete(failedAt, at)
					blamed = true
					break
				}
			}
		}
		if !blamed && len(files) > 0 && !slices.ContainsFunc(files, func(p string) bool { return written[p] }) {
			for _, n := range slices.Sorted(maps.Keys(failedTests)) {
				if slices.ContainsFunc(f.Calls, func(c extract.Call) bool { return len(changedFiles(c)) > 0 && c.Names(n) }) {
					out = append(out, Finding{Step: j, Strength: 1, Quote: quoteAt(in, j, 0, 0),
						Reason: fmt.Sprintf("it writes the name of %s, the test that failed at step %d, into %s instead of changing the code the test checks", n, failedTests[n].result, files[0])})
					delete(failedTests, n)
					break
				}
			}
		}
		for _, p := range files {
			written[p] = true
		}
	}
	return out
}

// relaxes reports whether a step's calls may relax the configuration
// file cfg: some call that changes it may (extract's RelaxesChecks), or
// none of them changes it (a code block another agent runs writes it).
// A change that relaxes no check (a library raised, a path mapped)
// gives the checker what it needs.
func relaxes(calls []extract.Call, cfg string) bool {
	changing := false
	for _, c := range calls {
		if slices.ContainsFunc(changedFiles(c), func(q string) bool { return sameFile(cfg, q) }) {
			if c.RelaxesChecks() {
				return true
			}
			changing = true
		}
	}
	return !changing
}

// EditedCheck is the edited_check analyzer.
var EditedCheck = &Analyzer{Name: "edited_check", Run: editedCheck, Requires: []Fact{FactToolCalls, FactSignals, FactKinds},
	Doc: "a change, after a check failed, to the file the check's failed assertion or test is in (a test the agent did not write), or that writes the failed test's name elsewhere (deselecting it) or its expected output from what it now gives (a snapshot update), or to the failed check's own configuration, rather than to the code it tests; or a change to a copy of the code (build output, a vendored dependency) or to a namesake of the file the task's failure is in, instead of that file"}

// changedFiles are the files a consequential call changes, as PathNorm
// has them: those its command line writes when writing them is all it
// does (extract's Call.Writes), or, for a call given no line to run (an
// editor's "str_replace", a writing tool), the files it names. A line
// that runs a program names files it reads or runs, not ones it changes.
func changedFiles(c extract.Call) []string {
	switch {
	case !c.Consequential():
		return nil
	case c.Writes() != nil:
		return c.Writes()
	case checkCommand([]extract.Call{c}) == "":
		return c.Files()
	}
	return nil
}
