package extract

import (
	"math"
	"strconv"
	"strings"
)

// Option bounds: a listed option is a short literal, and a list of them
// ends within a sentence's length of what introduces it.
const (
	maxOptionLen  = 40
	maxOptionList = 300
)

// optionListRe reads what introduces a list of the values a reply may
// take ("one of:", "select one of", "choose from", "the valid values
// are", "either"), and the list after it up to the line's end.
var optionListRe = pattern(goWords(`one of(?: the following)?|any of(?: the following)?|choose from|select from|pick from|either|(?:valid|allowed|possible) (?:values|options|choices)(?: are)?|options(?: are)?`)+
	`(?<sep>[ \t]{0,3}:?[ \t]{0,3})(?<list>[^\n]{1,`+strconv.Itoa(maxOptionList)+`})`, 0)

// alternativeRe reads, in a sentence that asks for a reply ("respond
// with the worker to act next, or FINISH"), the literal its last "or"
// offers beside what the sentence describes: a word in capitals or a
// quoted value, that ends the clause ("OR SPECIAL CODE" offers no
// literal: the capitals are a shout).
var alternativeRe = pattern(goWords(`respond|reply|answer|return|output|say|select|choose|pick|route`)+
	`[^\n.?!]{0,160}?`+goWords(`or`)+`[ \t]{1,3}(?<opt>[A-Z][A-Z0-9_]{1,`+strconv.Itoa(maxOptionLen)+`}|'[^'\n]{1,`+strconv.Itoa(maxOptionLen)+`}'|"[^"\n]{1,`+strconv.Itoa(maxOptionLen)+`}"|`+"`[^`\\n]{1,"+strconv.Itoa(maxOptionLen)+"}`"+`)(?=[ \t]{0,2}(?:[.,;:!?)\n]|$))`, 0)

// InstructionOptions are the values instructions list as the choices a
// reply may take, in lower case: the items of a list introduced as such
// ("respond with one of: A, B, FINISH", "Select one of: ['researcher',
// 'writer', 'FINISH']", "must be either 'yes' or 'no'"), and the literal a
// request for a reply offers beside what it describes ("respond with the
// worker to act next, or FINISH"). Each is a literal: quoted, or one word
// of letters, digits, '_' or '-' (a word in capitals where the list is
// not set apart by a colon or a bracket). A value an instruction shows as
// an example ("e.g. USD", "for example <answer> 1912 </answer>") is none:
// it shows a value's form, not a value to give.
func InstructionOptions(s string) []string {
	if s == "" {
		return nil
	}
	t := newText(s)
	var out []string
	add := func(v string) {
		v = strings.ToLower(v)
		for _, o := range out {
			if o == v {
				return
			}
		}
		out = append(out, v)
	}
	for _, m := range t.find(optionListRe, maxMatches) {
		list := t.named(m, "list")
		setApart := strings.Contains(t.named(m, "sep"), ":") || strings.HasPrefix(list, "[") || strings.HasPrefix(list, "(")
		items := optionItems(list, setApart)
		if len(items) >= 2 {
			for _, v := range items {
				add(v)
			}
		}
	}
	for _, m := range t.find(alternativeRe, math.MaxInt) {
		if v, ok := optionItem(t.named(m, "opt"), false); ok {
			add(v)
		}
	}
	return out
}

// optionItems splits a list of options into its literals, up to the first
// item that is none (the list's end: the sentence goes on) or, for a list
// in brackets, its closing one. Without a colon or a bracket before it
// (setApart), only quoted items and words in capitals are literals.
func optionItems(list string, setApart bool) []string {
	if open := strings.IndexAny(list, "[("); open == 0 {
		end := strings.IndexAny(list, "])")
		if end < 0 {
			return nil
		}
		list = list[1:end]
	} else if end := strings.IndexAny(list, ".?!;"); end >= 0 && (end+1 == len(list) || list[end+1] == ' ') {
		list = list[:end]
	}
	fields := strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == '|' })
	var out []string
	for _, f := range fields {
		for _, part := range splitOr(f) {
			v, ok := optionItem(part, setApart)
			if !ok {
				return out
			}
			out = append(out, v)
		}
	}
	return out
}

// splitOr splits an item written with "or" or "and" before the last
// ("B or FINISH", "or FINISH") into its values.
func splitOr(s string) []string {
	var out []string
	for _, w := range []string{" or ", " and "} {
		s = strings.ReplaceAll(" "+strings.TrimSpace(s)+" ", w, "\x00")
	}
	for _, p := range strings.Split(s, "\x00") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// optionItem is an item of a list of options as its value, and whether it
// is a literal: a quoted value, or one word (in capitals, unless the list
// is set apart).
func optionItem(s string, setApart bool) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && strings.ContainsRune(`'"`+"`", rune(s[0])) && s[len(s)-1] == s[0] {
		v := strings.TrimSpace(s[1 : len(s)-1])
		return v, v != "" && len(v) <= maxOptionLen && !strings.ContainsAny(v, "'\"`\n")
	}
	if s == "" || len(s) > maxOptionLen {
		return "", false
	}
	caps := true
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
		case r >= 'a' && r <= 'z':
			caps = false
		default:
			return "", false
		}
	}
	return s, setApart || caps && s[0] >= 'A' && s[0] <= 'Z'
}
