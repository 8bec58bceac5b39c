package run

import (
	"bytes"
	"encoding/json"
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
// may be one of), or is JSON text, a document or one a line: a raw ESC
// cannot stand in JSON, and a raw C1 control there is a string's own
// character, not a terminal's (a sequence read from it would swallow the
// values after it); the outputs write it escaped.
func terminalFile(data []byte) []byte {
	if bytes.IndexByte(data, esc) < 0 && !hasC1(data) || otherControls(data) || jsonText(data) {
		return data
	}
	out := []byte(withoutTerminalCodes(string(data)))
	if spans.Binary(out) {
		return data
	}
	return out
}

// jsonText reports whether data is one JSON value, or a JSON value on
// each of its lines that is not blank.
func jsonText(data []byte) bool {
	if json.Valid(data) {
		return true
	}
	seen := false
	for line := range bytes.SplitSeq(data, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !json.Valid(line) {
			return false
		}
		seen = true
	}
	return seen
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
// (ESC 7, ESC ( B). The same sequences begun by their 8-bit controls
// (U+009B for ESC [, U+009D for ESC ], and so on) go too, and every other
// C1 control (U+0080-U+009F), which no text shows: NEL (U+0085), a line
// end, leaves a space, which keeps the words it parted apart. An ESC that
// begins no sequence, one cut short at the text's end, stays: it is no
// colour, and the outputs write it escaped.
func withoutTerminalCodes(s string) string {
	if strings.IndexByte(s, esc) < 0 && strings.IndexByte(s, c1Lead) < 0 {
		return s
	}
	i := nextControl(s, 0)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	done := 0
	for i >= 0 {
		var n int
		if s[i] == esc {
			n = terminalCode(s[i:])
		} else {
			n = c1Code(s[i:])
		}
		if n == 0 {
			i = nextControl(s, i+1)
			continue
		}
		b.WriteString(s[done:i])
		if s[i] == c1Lead && s[i+1] == nel {
			b.WriteByte(' ')
		}
		done = i + n
		i = nextControl(s, done)
	}
	b.WriteString(s[done:])
	return b.String()
}

// c1Lead is the first byte of a C1 control (U+0080-U+009F) in UTF-8; the
// second is the control's own code.
const c1Lead = 0xc2

// The C1 controls with a meaning of their own here: NEL, a line end; ST,
// the end of a control string; CSI and the controls that begin a string.
const (
	nel = 0x85
	dcs = 0x90
	sos = 0x98
	st  = 0x9c
	csi = 0x9b
	osc = 0x9d
	pm  = 0x9e
	apc = 0x9f
)

// nextControl is the position at or after i of the next ESC or C1
// control in s; -1 when there is none.
func nextControl(s string, i int) int {
	for ; i < len(s); i++ {
		if s[i] == esc || isC1(s[i:]) {
			return i
		}
	}
	return -1
}

// isC1 reports whether s begins with a C1 control, written in UTF-8.
func isC1(s string) bool {
	return len(s) >= 2 && s[0] == c1Lead && s[1] >= 0x80 && s[1] <= 0x9f
}

// hasC1 reports whether data holds a C1 control written in UTF-8.
func hasC1(data []byte) bool {
	for i := bytes.IndexByte(data, c1Lead); i >= 0 && i+1 < len(data); {
		if data[i+1] >= 0x80 && data[i+1] <= 0x9f {
			return true
		}
		j := bytes.IndexByte(data[i+1:], c1Lead)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// c1Code is the length of what s begins with, a C1 control in UTF-8, and
// the sequence it begins: CSI's parameters and final byte as after ESC [,
// a string to its terminator (ST, ESC \, or BEL after OSC) on its line;
// 0 when s begins no control, or a CSI or string that is not whole.
func c1Code(s string) int {
	if !isC1(s) {
		return 0
	}
	switch c := s[1]; c {
	case csi:
		if n := terminalCode("\x1b[" + s[2:min(len(s), 2+maxCSI)]); n > 0 {
			return n
		}
		return 0
	case osc, dcs, sos, pm, apc:
		for i := 2; i < len(s) && s[i] != '\n'; i++ {
			switch {
			case s[i] == 0x07 && c == osc:
				return i + 1
			case isC1(s[i:]) && s[i+1] == st:
				return i + 2
			case s[i] == esc && i+1 < len(s) && s[i+1] == '\\':
				return i + 2
			}
		}
		return 0
	}
	return 2
}

// maxCSI bounds the bytes read of a CSI begun by its 8-bit control: its
// parameters, intermediates and final byte are a few bytes at most, and
// the copy made to read them as after ESC [ stays small.
const maxCSI = 64

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

// plainName is an agent's name without the terminal's escapes, and without
// what is left of a colour's when a log lost its ESC bytes ("[36mAlice[0m"
// for a coloured "Alice"): such remains are no part of a name, and a name
// that is only remains is none ("").
func plainName(s string) string {
	s = withoutTerminalCodes(s)
	if strings.IndexByte(s, '[') < 0 {
		return s
	}
	var b strings.Builder
	done := 0
	for i := 0; i < len(s); i++ {
		if n := colourRemains(s[i:]); n > 0 {
			b.WriteString(s[done:i])
			done = i + n
			i = done - 1
		}
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return strings.TrimSpace(b.String())
}

// colourRemains is the length of the colour (SGR) sequence s begins with
// as it reads with its ESC lost, "[" digits, each group after a ";", and
// "m"; 0 when it begins none. A bare "[m" is not read so: a name may
// begin with it ("[main]").
func colourRemains(s string) int {
	if len(s) < 3 || s[0] != '[' {
		return 0
	}
	i, digits := 1, 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == ';' && digits > 0) {
		if s[i] != ';' {
			digits++
		}
		i++
	}
	if digits == 0 || i >= len(s) || s[i] != 'm' {
		return 0
	}
	return i + 1
}
