package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/offattr/offattr/run"
)

// Change is a figure's direction as a step writes it: a change by a
// figure ("grew 17%", "+17%", "a 17% decline"), or a move from one
// figure to another ("from 20% to 41%", "41%, up from 20%").
type Change struct {
	// Figure is the size of a change by a figure, as written without its
	// sign; Up its direction. Both are empty for a move.
	Figure string `json:"figure,omitempty"`
	Up     bool   `json:"up,omitempty"`
	// From and To are a move's figures, as written.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Subject are the words of its sentence before it (and those between
	// a figure and the noun that gives its direction), lowered, that can
	// name what changed.
	Subject []string `json:"subject,omitempty"`
}

// Reversal is the first step that writes a figure an earlier step wrote
// of the same subject with the direction the other way round: a rise as
// a fall, a move from A to B as one from B to A.
type Reversal struct {
	Step   int `json:"step"`
	Source int `json:"source"`
	// Was is the earlier step's change, Now the step's.
	Was Change `json:"was"`
	Now Change `json:"now"`
	// Shared are the subject words both write.
	Shared []string `json:"shared"`
}

var (
	riseWords = toSet(`up grew grow grows rose rise rises increased increase increases gained gain gains climbed climbs jumped jumps surged surges`)
	fallWords = toSet(`down fell fall falls dropped drop drops declined decline declines decreased decrease decreases lost lose loses shrank shrink shrinks slid slides plunged plunges`)
	// riseNouns and fallNouns give a direction to a figure written before
	// them ("a 17% decline").
	riseNouns = toSet(`growth increase rise gain jump`)
	fallNouns = toSet(`decline decrease drop fall loss contraction`)
	// changeGeneric are words of a sentence that name no subject: times,
	// scales, connectives.
	changeGeneric = toSet(`the a an and or but with while its it's this that these those of in on at for by to from as was were is are be been has have had than then so
year years yoy annual annually quarter quarters quarterly month months monthly week weeks day days over compared versus vs earlier ago prior previous last
billion million thousand percent per cent about around nearly roughly almost some still even just only also now which who what`)
	// changeReported marks a sentence that tells of another's words or
	// calls them wrong: its figures are not the step's own.
	changeReported = toSet(`says said claims claimed claim states stated argues argued wrong incorrect mistaken error not isn't wasn't didn't never`)
)

// changeToken is a word or a figure of a sentence.
type changeToken struct {
	word   string // lowered, for a word
	figure string // digits as written, with a trailing %, for a figure
	sign   int    // +1 or -1 for a figure written with a sign
}

// changeSentences splits a text into sentences of tokens: a line, a
// clause ended by a full stop, a semicolon, a question or exclamation mark.
func changeSentences(text string) [][]changeToken {
	var out [][]changeToken
	var cur []changeToken
	flush := func() {
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	i := 0
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\n' || r == ';' || r == '!' || r == '?':
			flush()
			i += n
		case r == '.' && (i+1 >= len(text) || text[i+1] == ' ' || text[i+1] == '\n'):
			flush()
			i += n
		case unicode.IsDigit(r) || (r == '+' || r == '-' || r == '−' || r == '$') && i+n < len(text) && startsFigure(text[i+n:]):
			sign := 0
			if r == '+' {
				sign = 1
			} else if r == '-' || r == '−' {
				sign = -1
			}
			j := i
			if !unicode.IsDigit(r) {
				j += n
			}
			if j < len(text) && text[j] == '$' {
				j++
			}
			// A sign before the figure only when it starts a word.
			if sign != 0 && i > 0 {
				p, _ := utf8.DecodeLastRuneInString(text[:i])
				if unicode.IsLetter(p) || unicode.IsDigit(p) {
					sign = 0
				}
			}
			k := j
			var b strings.Builder
			for k < len(text) {
				c := text[k]
				if c >= '0' && c <= '9' {
					b.WriteByte(c)
				} else if (c == '.' || c == ',') && k+1 < len(text) && text[k+1] >= '0' && text[k+1] <= '9' {
					if c == '.' {
						b.WriteByte(c)
					}
				} else {
					break
				}
				k++
			}
			if k < len(text) && text[k] == '%' {
				b.WriteByte('%')
				k++
			}
			if b.Len() == 0 {
				i += n
				continue
			}
			cur = append(cur, changeToken{figure: b.String(), sign: sign})
			i = k
		case unicode.IsLetter(r):
			j := i
			for j < len(text) {
				c, m := utf8.DecodeRuneInString(text[j:])
				if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '\'' && c != '’' && c != '-' {
					break
				}
				j += m
			}
			w := strings.ToLower(strings.TrimRight(text[i:j], "-'’"))
			w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
			cur = append(cur, changeToken{word: w})
			i = j
		default:
			i += n
		}
	}
	flush()
	return out
}

func startsFigure(s string) bool {
	if strings.HasPrefix(s, "$") {
		s = s[1:]
	}
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

// figureChanges returns the changes a text writes, each with the
// subject words before it in its sentence.
func figureChanges(text string) []Change {
	var out []Change
	for _, sent := range changeSentences(text) {
		if slices.ContainsFunc(sent, func(t changeToken) bool { return changeReported[t.word] }) {
			continue
		}
		used := map[int]bool{}
		for i := 0; i < len(sent); i++ {
			t := sent[i]
			c, span := Change{}, [2]int{-1, -1}
			switch {
			case t.word == "from" && i+3 < len(sent) && sent[i+1].figure != "" && sent[i+2].word == "to" && sent[i+3].figure != "":
				// from A to B
				c, span = Change{From: sent[i+1].figure, To: sent[i+3].figure}, [2]int{i, i + 3}
			case t.word == "to" && i+3 < len(sent) && sent[i+1].figure != "" && sent[i+2].word == "from" && sent[i+3].figure != "":
				// to B from A
				c, span = Change{From: sent[i+3].figure, To: sent[i+1].figure}, [2]int{i, i + 3}
			case t.figure != "" && i+3 < len(sent) && (riseWords[sent[i+1].word] || fallWords[sent[i+1].word]) && sent[i+2].word == "from" && sent[i+3].figure != "":
				// B, up from A
				c, span = Change{From: sent[i+3].figure, To: t.figure}, [2]int{i, i + 3}
			case (riseWords[t.word] || fallWords[t.word]) && !used[i]:
				j := i + 1
				if j < len(sent) && sent[j].word == "by" {
					j++
				}
				if j < len(sent) && isPercent(sent[j].figure) && sent[j].sign == 0 && !used[j] {
					c, span = Change{Figure: sent[j].figure, Up: riseWords[t.word]}, [2]int{i, j}
				}
			case isPercent(t.figure) && t.sign != 0 && !used[i]:
				c, span = Change{Figure: t.figure, Up: t.sign > 0}, [2]int{i, i}
			case isPercent(t.figure) && t.sign == 0 && !used[i]:
				for j := i + 1; j < len(sent) && j <= i+3 && sent[j].word != ""; j++ {
					if riseNouns[sent[j].word] || fallNouns[sent[j].word] {
						c, span = Change{Figure: t.figure, Up: riseNouns[sent[j].word]}, [2]int{i, j}
						break
					}
				}
			}
			if span[0] < 0 || c.From != "" && c.From == c.To {
				continue
			}
			if i > 0 && (sent[i-1].word == "no" || sent[i-1].word == "not") {
				continue
			}
			for k := span[0]; k <= span[1]; k++ {
				used[k] = true
			}
			c.Subject = changeSubject(sent, span)
			if len(c.Subject) > 0 {
				out = append(out, c)
			}
		}
	}
	return out
}

func isPercent(f string) bool { return strings.HasSuffix(f, "%") }

// changeSubject returns up to six words nearest before a change in its
// sentence, and the words inside it, that can name a subject.
func changeSubject(sent []changeToken, span [2]int) []string {
	var out []string
	add := func(w string) {
		if len(w) < 3 || changeGeneric[w] || riseWords[w] || fallWords[w] || riseNouns[w] || fallNouns[w] {
			return
		}
		w = strings.TrimSuffix(w, "s")
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	for k := span[0] + 1; k < span[1]; k++ {
		add(sent[k].word)
	}
	for k := span[0] - 1; k >= 0 && len(out) < 6; k-- {
		add(sent[k].word)
	}
	slices.Sort(out)
	return out
}

// reverses reports whether b writes a's figure with the direction the
// other way round.
func (a Change) reverses(b Change) bool {
	if a.From != "" || b.From != "" {
		return a.From != "" && b.From != "" && a.From == b.To && a.To == b.From
	}
	return a.Figure == b.Figure && a.Up != b.Up
}

// agrees reports whether b writes a's figure in a's direction.
func (a Change) agrees(b Change) bool {
	if a.From != "" || b.From != "" {
		return a.From == b.From && a.To == b.To
	}
	return a.Figure == b.Figure && a.Up == b.Up
}

func sharedWords(a, b []string) []string {
	var out []string
	for _, w := range a {
		if slices.Contains(b, w) {
			out = append(out, w)
		}
	}
	return out
}

// reversal returns the first agent's step (not a tool's result, not the
// user's) that writes a change of a subject an earlier step wrote, the
// same figure with the direction the other way round, when no earlier
// step and nothing else in the step writes it in the step's direction; nil
// for none.
func reversal(steps []run.Step) *Reversal {
	type seen struct {
		step int
		c    Change
	}
	var earlier []seen
	for i, s := range steps {
		cs := figureChanges(s.Content)
		if s.Kind != run.KindToolResult && s.Kind != run.KindUser && s.Kind != run.KindSystem {
			for _, c := range cs {
				var src *seen
				var shared []string
				ok := true
				for k := range earlier {
					e := &earlier[k]
					sh := sharedWords(e.c.Subject, c.Subject)
					if len(sh) == 0 {
						continue
					}
					if e.c.agrees(c) {
						ok = false
						break
					}
					if e.c.reverses(c) && src == nil {
						src, shared = e, sh
					}
				}
				if !ok || src == nil {
					continue
				}
				if slices.ContainsFunc(cs, func(o Change) bool {
					return len(sharedWords(o.Subject, c.Subject)) > 0 && src.c.agrees(o)
				}) {
					continue
				}
				return &Reversal{Step: i, Source: src.step, Was: src.c, Now: c, Shared: shared}
			}
		}
		for _, c := range cs {
			earlier = append(earlier, seen{i, c})
		}
	}
	return nil
}
