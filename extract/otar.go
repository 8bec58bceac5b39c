package extract

import (
	"strings"

	matching "github.com/offattr/offattr/internal/match"
)

// otarWords caps each OTAR part: they describe a step, they do not repeat it.
const otarWords = 40

var (
	// Labelled parts, as ReAct-style agents write them.
	otarLabelRe = pattern(`(?m)^[ \t*#>-]{0,8}\**(?<label>observation|thought|thinking|action|result|final answer)\**\s{0,2}:\**[ \t]{0,4}(?<body>[^\n]{0,600})`, ci)
	// What the agent says it saw.
	observedRe = pattern(`\b(?:the (?:search )?(?:results?|output|error|page|response|data|file) (?:shows?|indicates?|suggests?|reveals?|contains?|lists?)|I (?:see|notice|found|observe|noticed|observed) that|based on (?:the )?(?:search results|results|output|information|data)\b)`+tail, ci)
	// What it reasons.
	reasonedRe = pattern(`\b(?:I (?:think|believe|need to|should|must)|we (?:need to|should|must)|to (?:do|achieve|accomplish) this|it (?:seems|appears) that)\b`+tail, ci)
	// What it says it will do.
	intendedRe = pattern(`\b(?:I(?:'ll| will| am going to)|let(?:'s| me| us)|we(?:'ll| will))\s{1,2}(?:now\s{1,2})?(?:search|check|look|run|execute|call|use|open|visit|click|calculate|compute|write|perform|retrieve|fetch|query|download|read|verify|analy[sz]e|try)\b`+tail, ci)
	// The output after an executor's status line.
	outputRe = pattern(`(?m)^[ \t]{0,4}(?:code output|output|stdout|result)\s{0,2}:[ \t]{0,4}(?<o>(?:[^\n]|\n(?!\n)){1,400})`, ci)
	// A browser's page report.
	pageRe = pattern(`\bhere is a screenshot of (?<o>[^\n]{1,300})`, ci)
)

// otar reads the Observation, Thought, Action and Result of a step. Labelled
// parts win; otherwise each part comes from the step's structure (a tool
// result is an observation, code is an action) or the sentence patterns.
func otar(f *Features, t *text, prose *text) OTAR {
	var o OTAR
	for _, m := range t.all(otarLabelRe, 20) {
		body := strings.TrimSpace(t.named(m, "body"))
		if body == "" {
			continue
		}
		switch strings.ToLower(t.named(m, "label")) {
		case "observation":
			setOnce(&o.Observation, body)
		case "thought", "thinking":
			setOnce(&o.Thought, body)
		case "action":
			setOnce(&o.Action, body)
		case "result", "final answer":
			setOnce(&o.Result, body)
		}
	}
	if l := f.Ledger; l != nil {
		setOnce(&o.Observation, l.RequestSatisfied.Reason)
		setOnce(&o.Thought, l.ProgressBeingMade.Reason)
		if l.NextSpeaker != "" {
			setOnce(&o.Action, "ask "+l.NextSpeaker+": "+l.InstructionOrQuestion)
		}
	}
	// A part already read keeps what it has (setOnce): the patterns that
	// would fill it are not searched.
	if f.Has(KindToolResult) {
		if m, ok := firstFor(o.Observation, t, outputRe); ok {
			setOnce(&o.Observation, t.named(m, "o"))
		} else if m, ok := firstFor(o.Observation, t, pageRe); ok {
			setOnce(&o.Observation, t.named(m, "o"))
		}
		if m, ok := firstFor(o.Action, t, browserActionRe); ok {
			setOnce(&o.Action, t.named(m, "a"))
		}
		if e := firstSevere(f.Errors); e != nil {
			setOnce(&o.Result, e.Quote)
		} else if f.ExitCode != nil {
			setOnce(&o.Result, lineAround(t.s, 0, 160))
		}
	}
	if m, ok := firstFor(o.Observation, prose, observedRe); ok {
		setOnce(&o.Observation, prose.group(m, 0))
	}
	if f.Has(KindThought) && o.Thought == "" {
		setOnce(&o.Thought, firstSentence(prose.s))
	}
	if m, ok := firstFor(o.Thought, prose, reasonedRe); ok {
		setOnce(&o.Thought, prose.group(m, 0))
	}
	if len(f.Code) > 0 && o.Action == "" {
		setOnce(&o.Action, firstCodeLine(f.Code[0]))
	}
	if f.Has(KindInstruction) && o.Action == "" {
		action := firstSentence(prose.s)
		if f.Target != "" {
			action = "ask " + f.Target + ": " + action
		}
		setOnce(&o.Action, action)
	}
	if m, ok := firstFor(o.Action, prose, intendedRe); ok {
		setOnce(&o.Action, prose.group(m, 0))
	}
	if f.Answer != "" {
		setOnce(&o.Result, f.Answer)
	}
	return o
}

// firstFor is t.first(re) for a part that is still empty; for one already
// read it is no match, without a search, since setOnce would keep the part.
func firstFor(part string, t *text, re *matching.Pattern) (match, bool) {
	if part != "" {
		return match{}, false
	}
	return t.first(re)
}

// setOnce fills an empty part, capped.
func setOnce(dst *string, s string) {
	s = strings.TrimSpace(s)
	if *dst != "" || s == "" {
		return
	}
	*dst = capWords(s, otarWords)
}

// firstCodeLine summarises a code block by its first line that is not an
// import or a comment.
func firstCodeLine(code string) string {
	for _, line := range strings.Split(code, "\n") {
		l := strings.TrimSpace(line)
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "//") || strings.HasPrefix(l, "import ") || strings.HasPrefix(l, "from ") {
			continue
		}
		return "run code: " + l
	}
	return "run code"
}
