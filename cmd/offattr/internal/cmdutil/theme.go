package cmdutil

import (
	"os"

	"github.com/fatih/color"
)

// Theme styles the parts of a command's text output that a reader looks
// for first: the answer, its triage band, rule names. Plain leaves text as
// it is; a terminal gets colour (fatih/color) unless NO_COLOR is set or
// TERM is "dumb". Text from a log is escaped before it is styled, so the
// only escape sequences on the screen are the theme's own.
type Theme struct {
	bold, rule        *color.Color
	clear, review, up *color.Color
}

// Plain is the theme of output that is not a terminal: no styling.
var Plain = Theme{}

// Theme returns the theme for Out: colour on a terminal, honouring
// NO_COLOR (https://no-color.org) and TERM=dumb; Plain anywhere else.
func (s *IOStreams) Theme() Theme {
	if !s.OutTTY || !colourWanted(os.Getenv) {
		return Plain
	}
	return newColourTheme()
}

// colourWanted reads the environment's wishes about colour.
func colourWanted(getenv func(string) string) bool {
	return getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

func newColourTheme() Theme {
	c := func(attrs ...color.Attribute) *color.Color {
		col := color.New(attrs...)
		col.EnableColor() // the decision was made above, for this stream
		return col
	}
	return Theme{
		bold: c(color.Bold), rule: c(color.FgCyan),
		clear: c(color.FgGreen, color.Bold), review: c(color.FgYellow, color.Bold), up: c(color.FgRed, color.Bold),
	}
}

func paint(c *color.Color, s string) string {
	if c == nil {
		return s
	}
	return c.Sprint(s)
}

// Bold styles what the reader came for: the blamed agent and step.
func (t Theme) Bold(s string) string { return paint(t.bold, s) }

// Rule styles a rule's name.
func (t Theme) Rule(s string) string { return paint(t.rule, s) }

// Band styles a triage band by what it asks of the reader: clear green,
// review yellow, escalate red.
func (t Theme) Band(band string) string {
	switch band {
	case "clear":
		return paint(t.clear, band)
	case "review":
		return paint(t.review, band)
	case "escalate":
		return paint(t.up, band)
	}
	return band
}
