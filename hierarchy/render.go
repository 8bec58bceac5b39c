package hierarchy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/offattr/offattr/internal/escape"
)

// Render writes the context as a prompt fragment: a two-line header, then
// the steps in run order, each labelled with its level, detail, index, agent
// and kind. Full texts follow their label on the next lines; reduced ones
// share its line; consecutive omitted steps collapse into one line. Its
// extract.EstimateTokens is what Fit bounds.
func (c Context) Render() string {
	var b strings.Builder
	b.WriteString(c.header())
	for i := 0; i < len(c.Entries); i++ {
		if c.Entries[i].Detail == DetailOmitted {
			j := i
			for j+1 < len(c.Entries) && c.Entries[j+1].Detail == DetailOmitted {
				j++
			}
			b.WriteString(omittedLine(i, j))
			i = j
			continue
		}
		b.WriteString(c.Entries[i].render())
	}
	return b.String()
}

func (c Context) header() string {
	agent := ""
	if c.Target >= 0 && c.Target < len(c.Entries) {
		agent = " (" + escape.Line(c.Entries[c.Target].Agent) + ")"
	}
	levels := "L1 = full text (steps within 1 of it), L2 = key decisions (2-3 away), L3 = summaries (4-6 away), L4 = milestones (the rest).\n\n"
	if c.fullFirst {
		levels = "L1 = steps within 1 of it, L2 = 2-3 away, L3 = 4-6 away, L4 = the rest; each in full, or reduced (the farthest first) to fit the budget.\n\n"
	}
	return fmt.Sprintf("Context of step %d%s in a run of %d steps.\n"+levels, c.Target, agent, c.Steps)
}

func omittedLine(i, j int) string {
	if i == j {
		return "[step " + strconv.Itoa(i) + " omitted]\n"
	}
	return "[steps " + strconv.Itoa(i) + "-" + strconv.Itoa(j) + " omitted]\n"
}

// label is "[L2 key decision | step 9 | Orchestrator | ledger -> WebSurfer]".
// It is built by concatenation rather than with fmt: Render labels every
// entry of every context, and fmt was most of its cost. Names come from
// the log: escaped, a newline in one cannot forge a step.
func (e Entry) label() string {
	s := "[L" + strconv.Itoa(int(e.Level)) + " " + strings.ReplaceAll(string(e.Detail), "_", " ") +
		" | step " + strconv.Itoa(e.Index) + " | " + escape.Line(e.Agent) + " | " + e.Kind.String()
	if e.Target != "" {
		s += " -> " + escape.Line(e.Target)
	}
	if e.IsTarget {
		s += " | TARGET"
	}
	return s + "]"
}

// renderLen is len(e.render()) for an entry whose label is labelLen bytes
// long, without building either.
func (e Entry) renderLen(labelLen int) int {
	switch e.Detail {
	case DetailOmitted:
		return 0
	case DetailHeader:
		return labelLen + 1
	case DetailFull, DetailTruncated:
		if e.Text == "" {
			return labelLen + 1
		}
		return labelLen + 1 + len(e.Text) + 2
	}
	return labelLen + 1 + len(e.Text) + 1
}

func (e Entry) render() string {
	switch e.Detail {
	case DetailOmitted:
		return ""
	case DetailHeader:
		return e.label() + "\n"
	case DetailFull, DetailTruncated:
		if e.Text == "" {
			return e.label() + "\n"
		}
		return e.label() + "\n" + e.Text + "\n\n"
	}
	return e.label() + " " + e.Text + "\n"
}

// truncateMarker replaces the middle of a text cut to fit.
const truncateMarker = "\n[... middle cut to fit the budget ...]\n"

// truncate keeps at most n bytes of s: its head (two thirds) and its tail,
// where the outcome of a long message usually is, around a marker.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	keep := n - len(truncateMarker)
	if keep < 16 {
		return ""
	}
	head := keep * 2 / 3
	for head > 0 && !runeStart(s[head]) {
		head--
	}
	tail := len(s) - (keep - head)
	for tail < len(s) && !runeStart(s[tail]) {
		tail++
	}
	return s[:head] + truncateMarker + s[tail:]
}

func runeStart(b byte) bool { return b&0xC0 != 0x80 }
