package extract

import (
	"strings"
	"unicode"

	"github.com/offattr/offattr/run"
)

// NoCaller marks a step that is not a tool result.
const NoCaller = -1

// AssignCallers decides, once for every stage, who answers for each tool
// result (extract.Run calls it; tests that build features by hand call it
// too): the step whose call or code produced it. That is the call whose
// id the result answers when the log has ids; else the nearest earlier
// step, past other results, that issued code or a call. A result whose
// speaker names its own action ("I clicked…"), or that follows no call, is
// its speaker's own doing: a browsing or file agent chooses its actions,
// while a code executor only prints what it was given.
func AssignCallers(r *run.Run, rf *RunFeatures) {
	callByID := map[string]int{}
	for i := range rf.Steps {
		f := &rf.Steps[i]
		f.Caller = NoCaller
		if f.Has(KindToolResult) {
			f.Caller = int32(callerOf(r, rf, i, callByID))
		}
		for _, tc := range r.Steps[i].ToolCalls() {
			if tc.ID != "" {
				callByID[tc.ID] = i
			}
		}
	}
}

func callerOf(r *run.Run, rf *RunFeatures, j int, callByID map[string]int) int {
	if o := rf.Steps[j].OTAR; o != nil && o.Action != "" {
		return j
	}
	if c, ok := callByID[r.Steps[j].ToolCallID()]; ok && r.Steps[j].ToolCallID() != "" {
		return c
	}
	if name := rf.Steps[j].Tool; name != "" {
		for i := j - 1; i >= 0; i-- {
			for _, c := range rf.Steps[i].Calls {
				if c.Name == name {
					return i
				}
			}
		}
	}
	for i := j - 1; i >= 0; i-- {
		g := &rf.Steps[i]
		if g.Has(KindToolResult) {
			continue
		}
		if g.IssuesCall() {
			return i
		}
		break
	}
	// An executor runs the latest code written since it last spoke, however
	// many steps of others (a ledger, an instruction to run it) stand
	// between.
	if len(rf.Steps[j].Code) == 0 && r.Steps[j].Agent != "" {
		me := run.AgentKey(r.Steps[j].Agent)
		for i := j - 1; i >= 0 && run.AgentKey(r.Steps[i].Agent) != me; i-- {
			if len(rf.Steps[i].Code) > 0 {
				return i
			}
		}
	}
	return j
}

// IssuesCall reports whether the step runs code or calls a tool.
func (f *Features) IssuesCall() bool {
	return len(f.Code) > 0 || f.Has(KindToolCall)
}

// outputLiterals are the words a program's printed values hold: Python's
// constants and the functions sympy prints a radical or a constant with.
var outputLiterals = map[string]bool{"true": true, "false": true, "none": true, "nan": true, "inf": true, "sqrt": true, "oo": true, "pi": true}

// bareOutput reports whether text is a program's printed values and no
// more: a figure at least, and no word of three letters or more but the
// literals output writes ("1354.5/10 135.45", "[2, 3, 5]\nTrue").
func bareOutput(text string) bool {
	digit := false
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		if unicode.IsDigit(r) {
			digit = true
		}
		return !unicode.IsLetter(r)
	}) {
		if len(w) >= 3 && !outputLiterals[strings.ToLower(w)] {
			return false
		}
	}
	return digit
}

// printedBy reports whether text is what the code prints: a figure at
// least, and no word of three letters or more that the code's quoted
// texts do not hold or output writes ("EMEA Q3 revenue: 1,184,300.00"
// after print(f"EMEA Q3 revenue: {…}")). A reader's sentence about the
// output has words of its own, and a harness's "FINAL ANSWER: 12" after
// final_answer(12) is no text the code prints.
func printedBy(text string, code []string) bool {
	if len(code) == 0 || !strings.ContainsFunc(text, unicode.IsDigit) {
		return false
	}
	inCode := map[string]bool{}
	for _, c := range code {
		for _, q := range quoted(c) {
			for _, w := range strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) }) {
				inCode[strings.ToLower(w)] = true
			}
		}
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if w = strings.ToLower(w); len(w) >= 3 && !outputLiterals[w] && !inCode[w] {
			return false
		}
	}
	return true
}

// quoted lists the string literals of code, each within one line.
func quoted(code string) []string {
	var out []string
	start, q := -1, byte(0)
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case start < 0 && (c == '"' || c == '\''):
			start, q = i+1, c
		case start < 0:
		case c == '\\':
			i++
		case c == '\n':
			start = -1
		case c == q:
			out = append(out, code[start:i])
			start = -1
		}
	}
	return out
}

// OwnsResult reports whether a tool result answers for itself (see
// AssignCallers).
func (f *Features) OwnsResult() bool {
	return f.Caller == f.Index
}
