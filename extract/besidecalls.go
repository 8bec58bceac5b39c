package extract

import (
	"cmp"
	"slices"
	"strings"

	"github.com/offattr/offattr/run"
)

// callWords is the text of the calls that change something a step makes
// beside words of its own (a memory or a note it stores, a message it
// sends, a record it updates), read as the text of a step of calls alone
// is: what such a call writes is stated by the step that makes it,
// whether or not the step also says something in words. A lookup's
// query asks rather than states, and a command line or an edit is what
// the agent acts with: neither is read.
type callWords struct{ t *text }

// besideCalls returns the text of the calls that change something and
// run no command among calls, the structured calls of s, when s writes
// words of its own beside them; nil for a step of calls alone (its text
// is its calls already), a step with none, and a system prompt's or a
// user's turn. onlyCalls is s.OnlyCalls(), which the caller has read.
func besideCalls(s run.Step, onlyCalls bool, calls []Call) *callWords {
	if len(s.ToolCalls()) == 0 || onlyCalls || s.Kind == run.KindSystem || s.Kind == run.KindUser {
		return nil
	}
	var lines []string
	for _, c := range calls {
		if c.Offset < 0 && c.Consequential() && c.Command() == "" {
			lines = append(lines, c.Name+"("+onScreenOnly(c.Args)+")")
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return &callWords{readText(strings.Join(lines, "\n"), nil)}
}

// screenClaims returns, of the claims read from a step of calls alone
// whose every call is an action on a screen (onScreenOnly), those the
// text it types holds: where it clicks and what it does there are how
// it acts, no values it states.
func screenClaims(claims []Claim, calls []Call) []Claim {
	if len(claims) == 0 || len(calls) == 0 || slices.ContainsFunc(calls, func(c Call) bool { return onScreenOnly(c.Args) == c.Args }) {
		return claims
	}
	var typed []string
	for _, c := range calls {
		for _, v := range c.Values {
			typed = append(typed, strings.ToLower(v))
		}
	}
	return slices.DeleteFunc(claims, func(cl Claim) bool {
		w := strings.ToLower(cl.Text)
		return !slices.ContainsFunc(typed, func(v string) bool { return strings.Contains(v, w) })
	})
}

// pointerCallRe is a call of one of pyautogui's functions that move the
// pointer or act at a point, the way desktop agents write their actions
// in code: its arguments (the group) are where it acts.
var pointerCallRe = pattern(`\bpyautogui\.(?:click|doubleClick|tripleClick|rightClick|middleClick|moveTo|moveRel|move|dragTo|dragRel|drag|mouseDown|mouseUp|scroll|hscroll|vscroll)\((?<args>[^()]*)\)`, 0)

// withoutPointerFigures returns claims without the figures text gives
// as the arguments of a pointer's call (pointerCallRe): the point an
// action clicks or drags at, and how long it takes, are how the agent
// acts, no figures it states.
func withoutPointerFigures(t *text, claims []Claim) []Claim {
	if !strings.Contains(t.s, "pyautogui.") || !slices.ContainsFunc(claims, func(c Claim) bool { return c.Kind == ClaimNumber }) {
		return claims
	}
	ms := t.all(pointerCallRe, 0)
	if len(ms) == 0 {
		return claims
	}
	return slices.DeleteFunc(claims, func(c Claim) bool {
		return c.Kind == ClaimNumber && slices.ContainsFunc(ms, func(m match) bool {
			args := m.Group("args")
			return int(c.Offset) >= args.Start && int(c.Offset) < args.End
		})
	})
}

// claims are the values the calls state, each placed after the step's
// own text of at bytes (past it, and its line end), so that no span of
// that text holds one.
func (c *callWords) claims(agents *agentSet, at int) []Claim {
	if c == nil {
		return nil
	}
	cs := readClaims(c.t, agents, true, false)
	for k := range cs {
		cs[k].Offset += int32(at + 1)
	}
	return cs
}

// monthDays are the days of a month the calls name without a year.
func (c *callWords) monthDays() []string {
	if c == nil {
		return nil
	}
	return monthDays(c.t)
}

// minLayoutPairs is how many points a text must give, as pairs of whole
// numbers in parentheses, to be a layout of a screen's elements.
const minLayoutPairs = 3

// withoutLayoutFigures returns claims without the figures of a screen's
// layout: a text that gives its elements' positions and sizes as pairs
// in parentheses ("(560, 700)", as an accessibility tree prints them),
// several of them, states no figure in them. A single pair is left: it
// may be a value (a function's result printed as a tuple).
func withoutLayoutFigures(text string, claims []Claim) []Claim {
	if !slices.ContainsFunc(claims, func(c Claim) bool { return c.Kind == ClaimNumber }) {
		return claims
	}
	pairs := layoutPairs(text)
	if len(pairs) < minLayoutPairs {
		return claims
	}
	// The pairs come in the text's order and never overlap: the one that
	// may hold a claim is the last that opens before it.
	return slices.DeleteFunc(claims, func(c Claim) bool {
		if c.Kind != ClaimNumber {
			return false
		}
		at := int(c.Offset)
		k, _ := slices.BinarySearchFunc(pairs, at, func(p [2]int, at int) int { return cmp.Compare(p[0], at) })
		return k > 0 && at < pairs[k-1][1]
	})
}

// layoutPairs returns where the text writes a pair of whole numbers in
// parentheses, "(560, 700)": the offsets of each pair's parentheses.
func layoutPairs(text string) [][2]int {
	var out [][2]int
	for at := 0; ; {
		k := strings.IndexByte(text[at:], '(')
		if k < 0 {
			return out
		}
		open := at + k
		i := open + 1
		digits := func() bool {
			from := i
			for i < len(text) && text[i] >= '0' && text[i] <= '9' && i-from < 6 {
				i++
			}
			return i > from
		}
		spaces := func() {
			for i < len(text) && text[i] == ' ' {
				i++
			}
		}
		spaces()
		ok := digits()
		spaces()
		ok = ok && i < len(text) && text[i] == ','
		i++
		spaces()
		ok = ok && digits()
		spaces()
		if ok && i < len(text) && text[i] == ')' {
			out = append(out, [2]int{open, i})
		}
		at = open + 1
	}
}

// imagesOnly reports whether a text is nothing but the placeholders a
// reader leaves for the images a message held ("[image]",
// "[computer_screenshot]", "[base64 data]"), one or more.
func imagesOnly(text string) bool {
	fields := strings.Fields(strings.TrimSpace(text))
	if len(fields) == 0 {
		return false
	}
	inside := false
	for _, f := range fields {
		for k, r := range f {
			switch {
			case r == '[' && !inside && k == 0:
				inside = true
			case r == ']' && inside && k == len(f)-1:
				inside = false
			case inside && (r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
			default:
				return false
			}
		}
	}
	return !inside
}
