package extract

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	matching "github.com/offattr/offattr/internal/match"
)

// signalRule is one error or success pattern. The first group, when there
// is one, is what the quote centres on.
type signalRule struct {
	kind     string
	severity Severity
	re       *matching.Pattern
	// negatable rules are dropped when a negation stands just before the
	// match ("no errors", "not failed").
	negatable bool
}

// exitCodeRe reads an exit status as executors print it: AutoGen/AG2's
// "exitcode: 1 (execution failed)", shells' "exit code 127", "exited with
// status 2", "Process finished with exit code 0", "return code: 1".
var exitCodeRe = pattern(`\b(?:exit[ _-]?code|exit[ _-]?status|return[ _-]?code|returncode|exited with (?:code|status))\s{0,3}[:=]?\s{0,3}(-?\d{1,4})\b`, ci)

// timeoutMet is a timeout that something met or that ran out or acted,
// whoever owns it ("hit its timeout", "ran past the server's idle
// timeout", "its timeout expired", "the site's timeout (30 s) cut the
// request off", "its timeout kicked in"): a failure, though a timeout
// something owns or is handed is otherwise a setting.
const timeoutMet = `(?:(?:hit(?:s|ting)?|reach(?:ed|es|ing)?|exceed(?:ed|s|ing)?|r[au]n\s{1,2}(?:past|over))\s{1,2}(?:(?:the|a|an|its|their|this|that|our|your|my)\s{1,2})?(?:[\w-]{1,40}['’]s\s{1,2})?(?:[a-z]{1,20}\s{1,2})?time ?out\b|(?:['’]s|\b(?:its|their|your|our|my))\s{1,2}(?:[a-z]{1,20}\s{1,2})?time ?out(?:\s{0,2}\([^()\n]{1,20}\))?\s{1,2}(?:(?:has|had|was|were)\s{1,2})?(?:expired|elapsed|fired|ran out|reached|exceeded|hit|(?:kick|trigger|interrupt|abort|kill|stopp|cut)(?:ed|s)?\b|went off|cut)\b)`

// errorRules are tried on every step; each fires at most a few times a step.
// A timeout that states its value ("an idle timeout of 15 minutes",
// "timeout=30", and so with its unit in its name: "TIMEOUT_SECONDS = 30",
// "timeout-minutes: 30", "timeoutMs: 5000", "timeout (minutes): 15") is a
// setting a specification, a configuration or a call names, not one that
// expired, unless the value is said to have run out ("connection timeout
// 10s reached", "timeout: 30 s elapsed"). So is a timeout something owns
// or is handed ("the transport's timeout", "pass the timeout", "set a
// timeout") and one named as a setting ("the timeout option", "timeout
// through to the session"). A failed thing a determiner names ("a failed
// attempt", "each failed request") is what code handles, not a report
// that something failed.
var errorRules = []signalRule{
	// "TypeError: ...", "java.lang.NullPointerException: ...", "panic: ..."
	{kind: "exception", severity: SeverityHigh, re: pattern(`(?m)^[ \t]{0,8}(?:[\w.]{0,80}\.)?(?:[A-Z]\w{0,60}(?:Error|Exception)|panic|FATAL|Fatal error)(?::|\s{0,2}$)`, 0)},
	{kind: "error", severity: SeverityMedium, re: pattern(`(?m)^[ \t>*#-]{0,8}(?:error|err|failure|failed)\b\s{0,3}[:!.]`, ci)},
	// A compiler's or a linter's diagnostic of a file's line and column
	// ("slug/slug.go:6:22: undefined: language", "app.py:3:1: F401 'os'
	// imported but unused"), or of its line said to be an error
	// ("Parser.java:12: error: cannot find symbol", tsc's and the .NET
	// compilers' "cart.ts(4,41): error TS18048"); not a warning or a
	// note, and not grep -n's line of a file (one number, then the line).
	{kind: "error", severity: SeverityMedium, re: pattern(`(?m)^[\w/-]{0,200}\.[\w./-]{0,200}(?::\d{1,6}:(?:\d{1,6}:[ \t](?![ \t]|warning\b|note\b)|[ \t]{0,2}error:)|\(\d{1,6},\d{1,6}\):[ \t]{0,2}error\b)`, 0)},
	{kind: "not_found", severity: SeverityMedium, re: pattern(`\b(?:(?:page |file |resource |module |command )?not found|no such file|does(?: not|n't) exist|`+status404+`\b|no (?:relevant |matching )?results? (?:were |was )?found|(?:HTTP|status)(?: code)?\s{0,2}[:=]?\s{0,2}[45]\d\d\b)`, ci), negatable: true},
	{kind: "refusal", severity: SeverityMedium, re: pattern(`\b(?:I(?:'m| am) (?:sorry,? )?(?:but )?(?:not able|unable) to (?:help|assist|comply|provide)|I (?:can(?:no|')t|won't|will not) (?:help|assist|comply) with|as an AI(?: language model)?)`, ci)},
	{kind: "failure", severity: SeverityMedium, re: pattern(`\b(?!`+foundNothingWrong+`|`+sureThing+`)(?:unable to|(?:was|were|is|are)(?: not|n[’']t) able to|could ?n[o']t|can ?n[o']t|cannot|can[’']t (?:find|give|determine|confirm|locate|provide|access|answer)\b|(?<!\b(?:a|an|each|every|any)\s{1,2})failed(?: to)?(?!\w)|(?<!pass ?[/-] ?|pass or |\ba |\b(?:verdict|grade|grading|rating|assessment|judge?ment)\s{0,2}[:=]\s{0,2}(?:\*\*)?)fails?\b(?! ?[/-] ?pass|-)|unsuccessful|inconclusive|did not (?:work|succeed|return)|no information (?:is |was )?(?:available|found)|timed ?out|`+timeoutMet+`|(?<!(?:['’]s|\b(?:its|their|your|our|my|pass(?:es|ed|ing)?|set(?:s|ting)?|honou?rs?|respects?|forwards?|propagates?|configures?|accepts?))\s{1,2}(?:(?:the|a|its|their|this|that|our|your|my)\s{1,2})?)time ?out(?!s?\s{1,2}(?:settings?|options?|param(?:eter)?s?|arg(?:ument)?s?|kwargs?|values?|fields?|config(?:uration)?s?|attributes?|propert(?:y|ies)|through|along)\b)(?!(?:[_-][a-z]{1,12}|ms|secs?|seconds|mins?|minutes)?(?:\s{0,2}\([a-z]{1,12}\)|\s{1,2}in [a-z]{1,12})?\s{0,2}(?:of|=|:|is|was|to)?\s{0,2}\d(?![\d.,]{0,12}\s{0,2}(?:[a-z]{1,12}\s{0,2})?(?:exceeded|expired|elapsed|reached)\b))|access denied|forbidden|blocked(?!\w))`, ci), negatable: true},
	{kind: "apology", severity: SeverityLow, re: pattern(`\b(?:I apologi[sz]e|(?:my )?apologies|I(?:'m| am) sorry|sorry for)\b`, ci)},
	// Values that were made up rather than found: the data-flow rules look
	// for the step where a fabricated value enters the run.
	{kind: "assumption", severity: SeverityLow, re: pattern(`\b(?:let(?:'s| us) assume|assum(?:e|ed|ing|ption)|hypothetical(?:ly)?|placeholder|dummy|mock(?:ed)? (?:data|values?|results?)|simulated?|for (?:the sake of )?(?:demonstration|illustration)|made[- ]up|fictional|example (?:data|values?))\b`, ci), negatable: true},
	// A run that goes round in circles or is stopped by a limit.
	{kind: "stall", severity: SeverityMedium, re: pattern(`\b(?:stalled|stuck|(?:we are |we're )?in a loop|re-?planning|no (?:further )?progress|(?:max(?:imum)? (?:rounds|turns|time|steps|iterations)|counter) (?:\(\d{1,6}s?\) )?(?:reached|exceeded)|exceeded)\b`, ci), negatable: true},
	// An executor that had nothing to run, or ran and printed nothing: an
	// "Output:" label with nothing after it to the end of the text. The
	// label ends its own line where the output follows on the next ones
	// (Codex CLI's "Process exited with code 0\nOutput:\n…", AutoGen's
	// "Code output: \n…"), so the end of a line says nothing.
	{kind: "empty_result", severity: SeverityLow, re: pattern(`\b(?:no code (?:from the last \d{1,3} messages? )?(?:for me )?to execute|(?:code |command )?output:\s{0,16}\z|produced no output|returned (?:no|empty) (?:results?|output)|(?:result|output|response) (?:is|was) empty)`, ci)},
}

// successRules mark confirmed results; exit code 0 is read separately.
var successRules = []signalRule{
	{kind: "confirmed", severity: SeverityMedium, re: verificationRe, negatable: true},
	{kind: "success", severity: SeverityLow, re: pattern(`\b(?:execution succeeded|successfully|succeeded|tests? passed|all (?:tests|checks) pass(?:ed)?|request satisfied)\b`, ci), negatable: true},
}

// verificationRe is an approval or a confirmation in the past or present
// tense: "I have verified", "confirmed", "looks correct", "is accurate",
// "approved". Requests ("please verify") are not confirmations.
var verificationRe = pattern(`\b(?:I (?:have |hereby )?(?:verified|confirm(?:ed)?|double[- ]checked|validated|checked)|(?:has|have|had) been (?:verified|confirmed|validated|double[- ]checked)|(?:is|are|was|were|be) (?:verified|confirmed|validated|correct|accurate)\b|verification (?:is |was )?(?:complete|successful|passed)|looks? (?:good|correct)|approved?\b|LGTM|all (?:\w+ ){0,3}(?:criteria|conditions|constraints|requirements) (?:have been |are |were )?(?:met|satisfied))`, ci)

// negationRe looks at the few words before a match. A relative clause's
// "whose" ("jobs whose interval cannot be read") states a condition of
// the things it names, as "if" does, not what happened.
var negationRe = pattern(`(?:\b(?:no|not|never|without|nor|neither|cannot|(?:can|don|doesn|didn|isn|wasn|aren|weren|haven|hasn|won)['’]t|unable to|yet to|to be|should|must|need to|needs to|please|whether|if|whose)\b[\w\s,'-]{0,30}$)`, ci)

// maxPerKind caps the signals of one kind in one step: the rules weigh kinds
// and the first occurrences, and a page of "404" links is one signal, not fifty.
const maxPerKind = 3

func signals(t *text, rules []signalRule) []Signal {
	var out []Signal
	for _, r := range rules {
		n := 0
		for _, m := range t.all(r.re, 50) {
			if n >= maxPerKind {
				break
			}
			whole := m.Whole()
			if r.negatable && negated(t.s, whole.Start) || r.kind == "failure" && (codeSubject(t.s, whole.Start) || nameInSource(t, whole) || loggedInSource(t, whole) || dataInSource(t, whole) || inProperName(t.s, whole)) || r.kind == "not_found" && (statusInSource(t, whole) || saidInFile(t, whole)) || r.kind == "failure" && saidInFile(t, whole) ||
				(r.negatable || r.kind == "error") && zeroAfter(t.s[whole.Start:whole.End], t.s[whole.End:]) {
				continue
			}
			out = append(out, Signal{Kind: r.kind, Severity: r.severity, Quote: lineAround(t.s, m.Whole().Start, 160), Offset: m.Whole().Start})
			n++
		}
	}
	return out
}

// statusInSource reports whether a not-found match is an HTTP status
// ("404", "status_code == 404") in a fenced block of source code (its
// fence names a language that is run, not data, prose or a console's
// output): a status the code names is one it handles or tests for
// (`abort(404)`, `assert res.status_code == 404`), not one the step met.
func statusInSource(t *text, m span) bool {
	word := strings.ToLower(t.s[m.Start:min(m.End, m.Start+4)])
	if !strings.HasPrefix(word, "4") && !strings.HasPrefix(word, "http") && !strings.HasPrefix(word, "stat") {
		return false
	}
	return inSource(t, m.Start)
}

// inSource reports whether offset i is in a fenced block of source code:
// its fence names a language that is run or that describes a program's
// structure (a mermaid class diagram), not data, prose or a console's
// output.
func inSource(t *text, i int) bool {
	for _, b := range t.codeBlocks(0) {
		if i >= b.code.Start && i < b.code.End {
			lang := strings.ToLower(t.str(b.lang))
			return lang != "" && lang != "console" && !dataLangs[lang]
		}
	}
	return false
}

// saidInFile reports whether a failure match is in a string literal of
// source code that a step writes as a file's content: a source block
// (inSource) whose heading, the last line before its fence, ends with
// the file's name ("## Code: main.py", "utils/duration.py:",
// "**cli.py**"). The message such a file prints, logs or raises is the
// program's, for the day it meets that failure; the step writing the
// file met none. Code written to be run there and then, under no file's
// name, is read as it prints.
func saidInFile(t *text, m span) bool {
	if !inSource(t, m.Start) {
		return false
	}
	var fence int
	for _, b := range t.codeBlocks(0) {
		if m.Start >= b.code.Start && m.Start < b.code.End {
			fence = b.all.Start
			break
		}
	}
	before := strings.TrimRight(t.s[:fence], " \t\n")
	heading := strings.Fields(before[strings.LastIndexByte(before, '\n')+1:])
	if len(heading) == 0 {
		return false
	}
	name := strings.Trim(heading[len(heading)-1], "`'\"()[]{},:;*#")
	if !FileLike(name) || !isFileName(strings.ToLower(name[strings.LastIndexByte(name, '/')+1:])) {
		return false
	}
	line := t.s[strings.LastIndexByte(t.s[:m.Start], '\n')+1 : m.Start]
	var quote byte
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case quote == 0 && (c == '"' || c == '\'' || c == '`'):
			quote = c
		case quote != 0 && c == '\\':
			i++
		case c == quote:
			quote = 0
		}
	}
	return quote != 0
}

// nameInSource reports whether a failure word is a name in source code,
// joined to the code's punctuation outside a string literal (a triple
// quote's text is code, as its next lines are): an exception
// the code catches (requests.Timeout), a constant or an argument it passes
// (timeout=TIMEOUT, client.TIMEOUT), a member a class diagram lists
// (+TIMEOUT: int). Code names what it handles; what the step met is in a
// run's output. Words of a comment or a string are read as other text is.
func nameInSource(t *text, m span) bool {
	if !inSource(t, m.Start) {
		return false
	}
	line := t.s[strings.LastIndexByte(t.s[:m.Start], '\n')+1 : m.Start]
	// A triple quote opens a string that holds lines of source as often as
	// prose (code building the function it will patch in): what follows it
	// on its line is read as the lines after it are, as code.
	bare := strings.NewReplacer(`"""`, "", "'''", "").Replace(line)
	if strings.Count(bare, `"`)%2 != 0 || strings.Count(bare, "'")%2 != 0 || strings.Contains(line, "#") || strings.Contains(line, "//") {
		return false
	}
	joined := line != "" && strings.ContainsAny(line[len(line)-1:], ".+=(")
	if after := t.s[m.End:]; after != "" && strings.ContainsAny(after[:1], "=(.:),") {
		joined = true
	}
	return joined || valueName(t, m)
}

// valueName reports whether a failure word in source code is a bare name
// the code reads as a value, after an assignment or a comparison and
// ending its expression (self.fails = fails; if retries > fails:): a
// variable, not words of the step's.
func valueName(t *text, m span) bool {
	line := strings.TrimRight(t.s[strings.LastIndexByte(t.s[:m.Start], '\n')+1:m.Start], " \t")
	after := t.s[m.End:]
	if end := strings.IndexByte(after, '\n'); end >= 0 {
		after = after[:end]
	}
	after = strings.TrimSpace(after)
	return line != "" && strings.ContainsAny(line[len(line)-1:], "=<>") && (after == "" || after == ":")
}

// loggedInSource reports whether a failure word is in a string literal
// that source code hands to a logger (log.warning("upload failed"),
// logger.error, console.warn, Go's log.Printf and slog.Warn, Java's
// LOGGER.severe): what the code would log if it met the failure, which
// the step writing the code has not met. The call may open a line or two
// above its string, as formatters break a long call, and the string may
// quote other text inside it.
func loggedInSource(t *text, m span) bool {
	if !inSource(t, m.Start) {
		return false
	}
	start := m.Start
	for range loggerCallLines {
		start = strings.LastIndexByte(t.s[:start], '\n')
		if start < 0 {
			break
		}
	}
	return newText(t.s[start+1 : m.Start]).has(loggerCallRe)
}

// dataInSource reports whether a failure word is in a string literal
// that source code holds as data: a literal that opens its line (an item
// of a list written one to a line) or follows an assignment, an opening
// bracket or brace, a key's colon or a comma between items, outside any
// call on the line (a test's sample log lines, "ERROR payment: card
// declined"; a record's {"status": "failed"}). The code holds the text to
// work on; the step writing it met no failure. A literal handed to a call
// (print, raise, a logger) is what the code says when it meets one, read
// as loggedInSource reads a logger's.
func dataInSource(t *text, m span) bool {
	if !inSource(t, m.Start) {
		return false
	}
	line := t.s[strings.LastIndexByte(t.s[:m.Start], '\n')+1 : m.Start]
	if strings.Contains(line, `"""`) || strings.Contains(line, "'''") || strings.ContainsAny(line, "#(") || strings.Contains(line, "//") {
		return false
	}
	open := -1 // where the literal holding the word opens, as its quotes pair up
	var quote byte
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case quote == 0 && (c == '"' || c == '\''):
			quote, open = c, i
		case quote != 0 && c == '\\':
			i++
		case c == quote:
			quote, open = 0, -1
		}
	}
	if open < 0 {
		return false
	}
	before := strings.TrimRight(line[:open], " \t")
	return before == "" || strings.ContainsAny(before[len(before)-1:], "=[{:,")
}

// loggerCallLines is how many lines a logger's call is read over: its
// own and those a formatter breaks it onto.
const loggerCallLines = 3

// loggerCallRe is a call of a logger's method (in any case, as languages
// name them: warning, Warn, Printf, severe), perhaps after a chained call
// (log.WithError(err).Error), whose string argument is still open at the
// end of the text.
var loggerCallRe = pattern(`(?<![\w$])_{0,2}(?:log|logger|logging|console|slog)(?:\.\w{1,40}\([^()\n]{0,80}\)){0,2}\.(?:warn|warnf|warning|warningf|error|errorf|exception|critical|fatal|fatalf|panic|panicf|info|infof|debug|debugf|trace|tracef|log|severe|fine|print|printf|println)\s{0,40}\(\s{0,40}(?:[fbr]?"(?:[^"\n\\]|\\.){0,200}|[fbr]?'(?:[^'\n\\]|\\.){0,200}|`+"`[^`]{0,200}"+`)$`, ci)

// inProperName reports whether a failure match is words of a name written
// in title case that goes on after it ("Time Out Market", "Forbidden City
// Tours", "Blocked Drains Ltd"): a place's, a firm's or a work's name,
// not a report that something failed. Words in capitals throughout are
// a log's shout ("TIMED OUT"), and an error's title that ends in a word
// for an error ("Request Timed Out Error") is one.
func inProperName(s string, m span) bool {
	words := strings.Fields(s[m.Start:m.End])
	if len(words) == 0 {
		return false
	}
	// What an agent could not do is said of it in title case too ("Error:
	// Cannot Load Popup Box").
	switch strings.ToLower(words[0]) {
	case "unable", "could", "couldn't", "can", "can't", "cannot", "was", "were", "is", "are", "did", "no":
		return false
	}
	if strings.EqualFold(words[len(words)-1], "to") {
		return false
	}
	// A verb's past or present ("Failed", "Fails", "Timed Out") after a
	// word in title case says what that subject met ("Ticket Purchase
	// Failed Please Try Again", "Page Load Failed With Status 503"): a
	// page's or a dialog's title that reports a failure. A name holds
	// such a word first, as an adjective ("Blocked Drains Ltd").
	switch strings.ToLower(words[0]) {
	case "failed", "fails", "fail", "timed":
		if titleWordBefore(s, m.Start) {
			return false
		}
	}
	for _, w := range words {
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) || w == strings.ToUpper(w) {
			return false
		}
	}
	rest := s[m.End:]
	if !strings.HasPrefix(rest, " ") {
		return false
	}
	next := strings.TrimLeft(rest, " ")
	if len(rest)-len(next) > 1 {
		return false
	}
	end := strings.IndexFunc(next, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(next)
	}
	word := next[:end]
	r, size := utf8.DecodeRuneInString(word)
	if !unicode.IsUpper(r) || word == strings.ToUpper(word) || !strings.ContainsFunc(word[size:], unicode.IsLower) {
		return false
	}
	switch strings.ToLower(word) {
	case "error", "errors", "exception", "failure", "warning":
		return false
	}
	return true
}

// titleWordBefore reports whether the word just before offset i, one
// space before it on the same line, is written in title case ("Purchase"
// of "Purchase Failed").
func titleWordBefore(s string, i int) bool {
	if i < 2 || s[i-1] != ' ' {
		return false
	}
	start := strings.LastIndexFunc(s[:i-1], func(r rune) bool { return !unicode.IsLetter(r) }) + 1
	w := s[start : i-1]
	r, size := utf8.DecodeRuneInString(w)
	return w != "" && unicode.IsUpper(r) && strings.ContainsFunc(w[size:], unicode.IsLower)
}

// codeSubject reports whether the words at i are said of code, a call or
// a name in backquotes just before them ("int() cannot parse fractions",
// "`_normalize` fails on"): a diagnosis of what the code does, not the
// agent's report that it could not do its part.
func codeSubject(s string, i int) bool {
	before := strings.TrimRight(s[:i], " \t")
	if len(before) == len(s[:i]) {
		return false // a word runs into the match
	}
	switch {
	case strings.HasSuffix(before, "()"):
		name := strings.TrimSuffix(before, "()")
		return len(name) > 0 && (wordByte(name[len(name)-1]) || name[len(name)-1] == '.')
	case strings.HasSuffix(before, "`"):
		open := strings.LastIndexByte(before[:len(before)-1], '`')
		return open >= 0 && len(before)-1-open > 1 && !strings.ContainsRune(before[open:], '\n')
	}
	return false
}

// sureThing is a thing said to be sure, worded as what cannot happen to
// it ("a stock that cannot go wrong", "the figures could not be
// clearer"): no one's failure.
const sureThing = `(?:could ?n[o’']t|can ?n[o’']t|can[’']t|cannot)\s{1,2}(?:possibly\s{1,2})?(?:go\s{1,2}wrong|lose|miss|be\s{1,2}(?:better|clearer|simpler|easier|happier|overstated))\b`

// foundNothingWrong is a search for faults that found none ("I can't find
// any issues with your order", "we could not see any errors"): a report
// that all is well, worded as what the agent could not do.
const foundNothingWrong = `(?:could ?n[o’']t|can ?n[o’']t|can[’']t|cannot|unable to|(?:was|were|is|are)(?: not|n[’']t) able to)\s{1,2}(?:find|see|spot|detect|identify|notice)\s{1,2}(?:any|a single)\s{1,2}(?:issues?|problems?|errors?|faults?|bugs?|discrepanc(?:y|ies)|mistakes?|concerns?|irregularit(?:y|ies)|anomal(?:y|ies))\b`

// negated reports whether a negation stands in the 40 bytes before i on the
// same line.
func negated(s string, i int) bool {
	from := max(0, i-40)
	for from > 0 && !utf8.RuneStart(s[from]) {
		from++
	}
	before := s[from:i]
	if nl := strings.LastIndexByte(before, '\n'); nl >= 0 {
		before = before[nl+1:]
	}
	_, ok := firstIn(negationRe, before)
	return ok || zeroCount(before)
}

// zeroCount reports whether the text before a match ends in a count of
// none ("0 failed", "0 errors"), or one of a word what it counts ("0
// tests failed", as JUnit's console launcher tallies), as test runners
// tally what did not happen: a 0 that stands first on its line or after a
// tally's separator ("3 passed; 0 failed", "Tests: 0 failed", "(0
// failed"), not the end of a larger number ("10", "1.0") or of a name
// ("agent0", "worker 0").
func zeroCount(before string) bool {
	b := strings.TrimRight(before, " \t")
	if len(b) == len(before) {
		return false
	}
	if word := strings.TrimRightFunc(b, unicode.IsLetter); len(word) < len(b) {
		if b = strings.TrimRight(word, " \t"); len(b) == len(word) {
			return false // the counted word runs into what is before it
		}
	}
	if !strings.HasSuffix(b, "0") {
		return false
	}
	b = b[:len(b)-1]
	if b == "" || strings.ContainsAny(b[len(b)-1:], "([") {
		return true
	}
	rest := strings.TrimRight(b, " \t")
	if len(rest) == len(b) {
		return false // the 0 ends a larger word or number
	}
	return rest == "" || strings.ContainsAny(rest[len(rest)-1:], ";,:|=([")
}

// zeroAfter reports whether the text after a match is its tally of none,
// set after it as a label's value ("Failed:     0,", "failed=0"), as
// test runners print a summary; the label's colon may end the match.
func zeroAfter(match, after string) bool {
	// A JSON or a Python mapping closes its key's quote before the colon
	// ("failed": 0).
	a := strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(after, `"`), "'"), " \t")
	if !strings.HasSuffix(match, ":") {
		if a == "" || a[0] != ':' && a[0] != '=' {
			return false
		}
		a = a[1:]
	}
	a = strings.TrimLeft(a, " \t")
	if !strings.HasPrefix(a, "0") {
		return false
	}
	a = a[1:]
	if a != "" && (a[0] >= '0' && a[0] <= '9' || (a[0] == '.' || a[0] == ',') && len(a) > 1 && a[1] >= '0' && a[1] <= '9') {
		return false // a number that only starts with 0 ("0.5")
	}
	return true
}

// exitCode returns the first exit status in the step and its signal.
func exitCode(t *text) (*int, *Signal) {
	m, ok := t.first(exitCodeRe)
	if !ok {
		return nil, nil
	}
	code, err := strconv.Atoi(t.group(m, 1))
	if err != nil {
		return nil, nil
	}
	sev := SeverityHigh
	return &code, &Signal{Kind: "exit_code", Severity: sev, Quote: lineAround(t.s, m.Whole().Start, 160), Offset: m.Whole().Start}
}

// ledgerSignals turns a ledger's judgements into signals: the orchestrator's
// own verdict that the run loops or stalls, or that the request is met.
func ledgerSignals(l *Ledger, s string) (errs, oks []Signal) {
	at := func(key string) int {
		if i := strings.Index(s, key); i >= 0 {
			return i
		}
		return 0
	}
	if l.InLoop.Answer {
		errs = append(errs, Signal{Kind: "loop", Severity: SeverityMedium, Quote: clip(l.InLoop.Reason, 160), Offset: at(`"is_in_loop"`)})
	}
	if !l.ProgressBeingMade.Answer {
		errs = append(errs, Signal{Kind: "no_progress", Severity: SeverityMedium, Quote: clip(l.ProgressBeingMade.Reason, 160), Offset: at(`"is_progress_being_made"`)})
	}
	if l.RequestSatisfied.Answer {
		oks = append(oks, Signal{Kind: "request_satisfied", Severity: SeverityMedium, Quote: clip(l.RequestSatisfied.Reason, 160), Offset: at(`"is_request_satisfied"`)})
	}
	return errs, oks
}

// errorSignals reads the error rules, with Python tracebacks told apart:
// one raised inside installed packages only (the framework's own runtime,
// e.g. a message bus failing) is a "runtime_error" of medium severity; one
// that passes through the run's own code is an "exception".
func errorSignals(t *text) []Signal {
	var out []Signal
	var blocks []span
	for _, m := range t.all(tracebackRe, maxPerKind) {
		kind, sev := "exception", SeverityHigh
		body := t.named(m, "frames")
		if strings.Contains(body, `File "`) && !newText(body).has(frameOutsidePackagesRe) {
			kind, sev = "runtime_error", SeverityMedium
		}
		quote := strings.TrimSpace(t.named(m, "exc"))
		if quote == "" {
			quote = lineAround(t.s, m.Whole().Start, 160)
		}
		out = append(out, Signal{Kind: kind, Severity: sev, Quote: clip(quote, 160), Offset: m.Whole().Start})
		blocks = append(blocks, m.Groups[0])
	}
	for _, sig := range signals(t, errorRules) {
		if sig.Kind == "exception" && insideAny(blocks, sig.Offset) {
			continue
		}
		out = append(out, sig)
	}
	return out
}

func insideAny(spans []span, i int) bool {
	for _, s := range spans {
		if i >= s.Start && i <= s.End {
			return true
		}
	}
	return false
}

var (
	// tracebackRe takes a Python traceback: the header, its indented frame
	// lines, and the exception line that ends it.
	tracebackRe = pattern(`Traceback \(most recent call last\):?[ \t]{0,4}\n(?<frames>(?:[ \t][^\n]{0,600}\n){0,200})(?<exc>[^\s][^\n]{0,300})?`, 0)
	// A frame line whose file is not inside site-/dist-packages or the
	// standard library.
	frameOutsidePackagesRe = pattern(`(?m)^\s{0,8}File "(?![^"\n]{0,400}(?:site-packages|dist-packages|/lib/python\d))`, 0)
)

// genericKinds are the broad readings that a more specific signal on the
// same line makes redundant: "exitcode: 1 (execution failed)" is an exit
// code, not also a "failure".
var genericKinds = map[string]bool{"failure": true, "error": true, "success": true}

// dedupeSignals drops a generic signal whose line another signal, as
// severe or more, quotes. A milder one says less than the generic reading
// of its line: "I'm sorry, I could not access the page" is an apology and
// a failure, and the apology alone would hide that the step failed.
func dedupeSignals(ss []Signal) []Signal {
	specific := map[string]Severity{}
	for _, s := range ss {
		if !genericKinds[s.Kind] {
			specific[s.Quote] = max(specific[s.Quote], s.Severity)
		}
	}
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		key := s.Kind + "\x00" + s.Quote
		if sev, ok := specific[s.Quote]; seen[key] || genericKinds[s.Kind] && ok && sev >= s.Severity {
			continue
		}
		seen[key] = true
		out = append(out, s)
	}
	return out
}
