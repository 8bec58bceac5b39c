package run

import "strings"

// unixLines writes a text's CRLF line ends as LF: a log written on
// Windows, or a console that keeps the carriage return, says what the
// same log written elsewhere says, and every later stage reads lines
// (a traceback's header, a list's items, a line's end) by "\n".
func unixLines(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// plainText is a text as later stages read it: with LF line ends and its
// non-ASCII characters written as themselves (unicodeEscapes), without
// the terminal's escape sequences a format's text kept (a JSON string
// holding a coloured line).
func plainText(s string) string { return unicodeEscapes(unixLines(withoutTerminalCodes(s))) }

// plainStep writes every text of a step as plainText.
func plainStep(s *Step) {
	s.Content = plainText(s.Content)
	for i := range s.ToolCalls() {
		s.ToolCalls()[i].Arguments = plainText(s.ToolCalls()[i].Arguments)
	}
}
