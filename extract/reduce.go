package extract

import (
	"strings"

	matching "github.com/offattr/offattr/internal/match"
)

// Word caps of ECHO's three reductions (§3.1, appendix A.3).
const (
	KeyDecisionWords = 50
	SummaryWords     = 20
	MilestoneWords   = 15
)

// Level names, used as keys of Reductions.Fallback and Reductions.Sources.
const (
	LevelKeyDecision = "key_decision"
	LevelSummary     = "summary"
	LevelMilestone   = "milestone"
)

// tail is the rest of a sentence after a keyword: up to the sentence end or
// the line end, decimals and dotted names ("6.6", "example.com") included.
const tail = `(?:[^.!?\n]|\.(?=\w)){2,400}[.!?]?`

func reductionPatterns(caseSensitive string, insensitive ...string) []*matching.Pattern {
	var out []*matching.Pattern
	if caseSensitive != "" {
		out = append(out, pattern(caseSensitive, 0))
	}
	for _, p := range insensitive {
		out = append(out, pattern(p, ci))
	}
	return out
}

// The paper's patterns, with their spaces restored ("I(?:conclude|...)"
// lost the blank between "I" and the verb in the PDF), bounded, and
// returning the whole sentence from the keyword on rather than what follows
// it, which reads better in a prompt. Sentence adverbs ("Therefore") are
// matched case-sensitively so that "so that" mid-sentence does not fire.
var reductionRes = map[string]map[ContextType][]*matching.Pattern{
	LevelKeyDecision: {
		ContextHandoff: reductionPatterns(``,
			`\b(?:received|got|obtained)\s{1,2}`+tail,
			`\b(?:passing|providing|sending|handing|forwarding)\s{1,2}`+tail,
			`\b(?:based on|using) (?:the |these |this )?(?:results?|output|information|data|findings|list|values?)\b`+tail,
			`\b(?:will|need to|should)\s{1,2}(?:[^.!?\n]){0,200}\b(?:next|continue)\b`+tail,
			`\bplease\s{1,2}`+tail),
		ContextDecisionQuality: reductionPatterns(`\b(?:Therefore|Thus|So|Hence),?\s{1,2}`+tail,
			`\bI (?:conclude|determine|decide|decided|believe|think)\s{1,2}`+tail,
			`\bthe (?:answer|solution|result|conclusion) (?:is|appears)\s{1,2}`+tail,
			`\b(?:based on|given)\s{1,2}`+tail),
		ContextErrorPropagation: reductionPatterns(`\b(?:However|But|Unfortunately),?\s{1,2}`+tail,
			`\b(?:error|mistake|wrong|incorrect|failed)\b\s{0,2}:?\s{0,2}`+tail,
			`\b(?:cannot|unable|couldn't|can't|could not)\s{1,2}`+tail),
		ContextGeneral: reductionPatterns(`\b(?:Therefore|Thus|So|Hence),?\s{1,2}`+tail,
			`\bI (?:will|should|need to|decided to|conclude that|believe|think|determine)\s{1,2}`+tail,
			`\bthe (?:answer|result|solution) (?:is|appears to be|seems to be)\s{1,2}`+tail,
			`\blet(?:'s| me| us)\s{1,2}`+tail,
			`\b(?:my|our) (?:approach|strategy|plan) (?:is|will be)\s{1,2}`+tail),
	},
	LevelSummary: {
		ContextHandoff: reductionPatterns(``,
			`\b(?:received|got|obtained)\s{1,2}`+tail,
			`\b(?:providing|sending)\s{1,2}`+tail),
		ContextDecisionQuality: reductionPatterns(`\b(?:Therefore|Thus|So),?\s{1,2}`+tail,
			`\b(?:conclude|determine|decide)\s{1,2}`+tail),
		ContextErrorPropagation: reductionPatterns(``,
			`\b(?:error|mistake|failed)\b\s{0,2}:?\s{0,2}`+tail,
			`\b(?:cannot|unable)\s{1,2}`+tail),
		ContextGeneral: reductionPatterns(`\b(?:In conclusion|To conclude|Therefore|Thus|So|Hence),?\s{1,2}`+tail,
			`\bthe (?:answer|result|solution|output) (?:is|appears to be|seems to be)\s{1,2}`+tail,
			`\bI (?:found|determined|concluded|calculated)\s{1,2}`+tail),
	},
	LevelMilestone: {
		ContextHandoff: reductionPatterns(``,
			`\b(?:received|obtained|got)\s{1,2}(?:[^.!?\n]){0,200}\b(?:from|data|information)\b`+tail,
			`\b(?:provided|sent|passed)\s{1,2}(?:[^.!?\n]){0,200}\b(?:to|data|information)\b`+tail,
			`\b(?:completed|finished)\s{1,2}(?:[^.!?\n]){0,200}\b(?:handoff|transfer)\b`+tail),
		ContextDecisionQuality: reductionPatterns(``,
			`\b(?:decided|determined|concluded)\s{1,2}`+tail,
			`\b(?:evaluated|assessed|analy[sz]ed)\s{1,2}`+tail,
			`\b(?:final decision|ultimate choice)\s{0,2}[:-]?\s{0,2}`+tail),
		ContextErrorPropagation: reductionPatterns(``,
			`\b(?:error|mistake|failure)\s{1,2}(?:occurred|detected)\s{0,2}`+tail,
			`\b(?:identified|found)\s{1,2}(?:an? )?(?:error|issue|problem)\s{0,2}`+tail,
			`\b(?:corrected|fixed|resolved)\s{1,2}`+tail),
		ContextGeneral: reductionPatterns(``,
			`\b(?:completed|finished|achieved|accomplished)\s{1,2}`+tail,
			`\b(?:created|generated|produced|built)\s{1,2}`+tail,
			`\b(?:step|phase|stage)\s{1,2}\d{1,3}\s{0,2}[:-]?\s{0,2}`+tail,
			`\b(?:successfully|finally)\s{1,2}`+tail),
	},
}

var levelWords = map[string]int{LevelKeyDecision: KeyDecisionWords, LevelSummary: SummaryWords, LevelMilestone: MilestoneWords}

// contextType picks ECHO's context type from what the step does: a step with
// a real error propagates it; one that addresses or hands over to another
// agent is a handoff; plans, ledgers, answers and verifications are
// decisions; the rest is general.
func contextType(f *Features) ContextType {
	for _, e := range f.Errors {
		if e.Severity >= SeverityMedium {
			return ContextErrorPropagation
		}
	}
	switch {
	case f.Has(KindInstruction):
		return ContextHandoff
	case f.Has(KindPlan), f.Has(KindReplan), f.Has(KindLedger), f.Has(KindAnswer), f.Has(KindFinalAnswer), f.Has(KindVerification):
		return ContextDecisionQuality
	}
	return ContextGeneral
}

// Reductions returns ECHO's reductions of step i. They are made on the
// first call, for every step at once (Describe): only the hierarchy and
// the model's prompts read them, so the rules, and a screen that only runs
// the rules, never pay for them. Features made by hand keep the Reductions
// they were given. It is safe for concurrent use.
func (rf *RunFeatures) Reductions(i int) Reductions {
	rf.Describe()
	if red := rf.Steps[i].Reductions; red != nil {
		return *red
	}
	return Reductions{}
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// Describe makes, once, what extract says of each step for a reader and
// not for the rules: every step's Reductions, and the OTAR parts of every
// step but a tool result (whose Action the rules read, through its caller,
// and which is made with the step's other features). A caller that reads
// Features.Reductions or Features.OTAR directly, or the features as JSON,
// calls it first. Features made by hand keep what they were given.
func (rf *RunFeatures) Describe() {
	rf.described.Do(func() {
		for i, s := range rf.steps[:min(len(rf.steps), len(rf.Steps))] {
			f, t := &rf.Steps[i], newText(s.Content)
			if !f.Has(KindToolResult) {
				f.OTAR = ptr(otar(f, t, t.prose()))
			}
			f.Reductions = ptr(reduce(f, t))
		}
	})
}

// reduce fills the three reductions. Structure the step already told us
// (a final answer, a ledger, an executor's failure) comes first; then the
// patterns of the step's context type; then the first sentence.
func reduce(f *Features, t *text) Reductions {
	red := Reductions{Sources: map[string]string{}}
	content := t.s
	prose := t.prose()
	for _, level := range []string{LevelKeyDecision, LevelSummary, LevelMilestone} {
		words := levelWords[level]
		text, source := structural(f, t, level)
		if text == "" {
			for _, re := range reductionRes[level][f.ContextType] {
				if m, ok := prose.first(re); ok {
					from := sentenceBegin(prose.s, m.Whole().Start)
					text, source = prose.s[from:m.Whole().End], "pattern:"+f.ContextType.String()
					break
				}
			}
		}
		if text == "" {
			text, source = firstSentence(content), "fallback"
			if red.Fallback == nil {
				red.Fallback = map[string]bool{}
			}
			red.Fallback[level] = true
		}
		if text == "" {
			text = "(no content)"
		}
		text = capWords(text, words)
		red.Sources[level] = source
		switch level {
		case LevelKeyDecision:
			red.KeyDecision = text
		case LevelSummary:
			red.Summary = text
		case LevelMilestone:
			red.Milestone = text
		}
	}
	return red
}

// structural returns a reduction read from the step's structure rather
// than its wording: what a final answer, a ledger, a failed or finished tool
// run, an answer, a confirmation or a plan says is known without patterns.
func structural(f *Features, t *text, level string) (text, source string) {
	switch {
	case f.Has(KindFinalAnswer) && f.Answer != "":
		return "FINAL ANSWER: " + f.Answer, "final_answer"
	case f.Ledger != nil:
		return ledgerLine(f.Ledger, level), "ledger"
	case f.ExitCode != nil && *f.ExitCode != 0 || f.Has(KindToolResult) && firstSevere(f.Errors) != nil:
		return failureLine(f, level), "tool_failure"
	case f.Has(KindToolResult):
		if s := leadLines(t.s, 3); s != "" {
			return s, "tool_output"
		}
	case f.Has(KindPlan) || f.Has(KindReplan):
		if s := planLines(t); s != "" {
			return s, "plan"
		}
	case f.Answer != "":
		return "answer: " + f.Answer, "answer"
	case f.Has(KindVerification):
		for _, s := range f.Successes {
			if s.Kind == "confirmed" {
				return s.Quote, "verification"
			}
		}
	}
	return "", ""
}

// leadLines joins the first n lines of s that have words.
func leadLines(s string, n int) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if !hasLetters(line) {
			continue
		}
		out = append(out, clip(line, 300))
		if len(out) == n {
			break
		}
	}
	return strings.Join(out, " / ")
}

// planLines is the last plan heading of the step with the items under it:
// in a long planning message (team, facts, plan) the plan comes last.
func planLines(t *text) string {
	ms := t.all(planRe, 20)
	if len(ms) == 0 {
		return ""
	}
	from := ms[len(ms)-1].Whole().Start
	return leadLines(t.s[from:], 6)
}

// sentenceBegin moves i back to the start of its sentence on the same line.
func sentenceBegin(s string, i int) int {
	for j := i - 1; j >= 0 && i-j < 400; j-- {
		switch s[j] {
		case '\n':
			return j + 1
		case '.', '!', '?':
			if j+1 < len(s) && (s[j+1] == ' ' || s[j+1] == '\t') {
				return j + 2
			}
		}
	}
	if i < 400 {
		return 0
	}
	return i
}

func ledgerLine(l *Ledger, level string) string {
	var b strings.Builder
	if l.RequestSatisfied.Answer {
		b.WriteString("request satisfied. ")
	}
	if l.InLoop.Answer {
		b.WriteString("in a loop. ")
	}
	if !l.ProgressBeingMade.Answer {
		b.WriteString("no progress. ")
	}
	if l.NextSpeaker != "" {
		b.WriteString("next: " + l.NextSpeaker + ": ")
	}
	b.WriteString(l.InstructionOrQuestion)
	if level == LevelKeyDecision && l.ProgressBeingMade.Reason != "" {
		b.WriteString(" (" + l.ProgressBeingMade.Reason + ")")
	}
	return b.String()
}

func failureLine(f *Features, level string) string {
	var parts []string
	for _, e := range f.Errors {
		if e.Severity < SeverityMedium || (level != LevelKeyDecision && len(parts) > 0) {
			continue
		}
		parts = append(parts, e.Quote)
		if len(parts) == 3 {
			break
		}
	}
	return strings.Join(parts, "; ")
}

func firstSevere(ss []Signal) *Signal {
	for i := range ss {
		if ss[i].Severity >= SeverityMedium {
			return &ss[i]
		}
	}
	return nil
}

// prose is the text with its fenced code replaced (withoutCode), made once
// per text; a text without code is its own prose, and shares what it has
// computed.
func (t *text) prose() *text {
	if t.proseText == nil {
		if p := withoutCode(t); p == t.s {
			t.proseText = t
		} else {
			t.proseText = newText(p)
		}
	}
	return t.proseText
}

// withoutCode replaces fenced code with "[code]": a comment in a script is
// not the step's decision.
func withoutCode(t *text) string {
	blocks := t.codeBlocks(0)
	if len(blocks) == 0 {
		return t.s
	}
	var b strings.Builder
	last := 0
	for _, m := range blocks {
		b.WriteString(t.s[last:m.all.Start])
		b.WriteString("[code]")
		last = m.all.End
	}
	b.WriteString(t.s[last:])
	return b.String()
}
