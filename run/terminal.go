package run

import (
	"bytes"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// A log saved from a terminal keeps the escape sequences that coloured
// it: `ESC[32m2025-01-02 10:00:00 | INFO | ...ESC[0m`. They say how a line
// looked, not what it said, and a reader of lines (a record's time at the
// line's start, a role's name) would not see the line under them, nor
// should a later stage or a report meet terminal control. This file is
// the one owner of reading them away.

// terminalFile is data with the terminal's escape sequences removed, when
// data is text under them; data as it is when it holds no escape, or holds
// other control bytes too (binary data, a protobuf, whose bytes an escape
// may be one of).
func terminalFile(data []byte) []byte {
	if bytes.IndexByte(data, esc) < 0 || otherControls(data) {
		return data
	}
	out := []byte(withoutTerminalCodes(string(data)))
	if spans.Binary(out) {
		return data
	}
	return out
}

// otherControls reports whether data holds a control byte that no
// terminal's text does: one that is neither white space nor of an escape
// sequence (ESC, and BEL ending one). It decides before any copy is made.
func otherControls(data []byte) bool {
	for _, c := range data {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != esc && c != 0x07 {
			return true
		}
	}
	return false
}

// esc begins every escape sequence of a terminal's.
const esc = 0x1b

// withoutTerminalCodes is s without its terminal escape sequences: CSI
// (ESC [ ... a final byte; colours, cursor moves, erasing), OSC (ESC ] ...
// ended by BEL or ESC \; titles, links), the strings of DCS, SOS, PM and
// APC (ESC P, X, ^, _ ... ESC \), and the two- and three-byte escapes
// (ESC 7, ESC ( B). An ESC that begins no sequence, one cut short at the
// text's end, stays: it is no colour, and the outputs write it escaped.
func withoutTerminalCodes(s string) string {
	i := strings.IndexByte(s, esc)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	done := 0
	for i >= 0 {
		n := terminalCode(s[i:])
		if n == 0 {
			j := strings.IndexByte(s[i+1:], esc)
			if j < 0 {
				break
			}
			i += 1 + j
			continue
		}
		b.WriteString(s[done:i])
		done = i + n
		j := strings.IndexByte(s[done:], esc)
		if j < 0 {
			break
		}
		i = done + j
	}
	b.WriteString(s[done:])
	return b.String()
}

// terminalCode is the length of the escape sequence s begins with (s[0]
// is ESC); 0 when it begins none whole.
func terminalCode(s string) int {
	if len(s) < 2 {
		return 0
	}
	switch c := s[1]; {
	case c == '[':
		// Parameter bytes 0x30-0x3f, intermediate bytes 0x20-0x2f, then a
		// final byte 0x40-0x7e.
		i := 2
		for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
			i++
		}
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
			return i + 1
		}
		return 0
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		// A string up to the string terminator, ESC \ (or, for OSC, BEL).
		// A string that runs past its line is no escape a log printed:
		// the line stays as it is.
		for i := 2; i < len(s) && s[i] != '\n'; i++ {
			switch {
			case s[i] == 0x07 && c == ']':
				return i + 1
			case s[i] == esc && i+1 < len(s) && s[i+1] == '\\':
				return i + 2
			}
		}
		return 0
	case c >= 0x20 && c <= 0x2f:
		// ESC, intermediate bytes, then a final byte (ESC ( B).
		i := 1
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			return i + 1
		}
		return 0
	case c >= 0x30 && c <= 0x7e:
		// ESC 7, ESC M, ESC =: one byte after the escape.
		return 2
	}
	return 0
}
