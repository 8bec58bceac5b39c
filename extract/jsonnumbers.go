package extract

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
)

// maxJSONNumbers caps the numbers read from one tool's JSON output.
const maxJSONNumbers = 400

// jsonNumbers returns the number claims of a tool's JSON output that the
// text's own reading (readClaims) misses because the output is written
// compactly: a value right after its key's colon (`"price":49.99`) or an
// array's comma (`[120,340,560]`) is, to prose, part of a time, a
// thousands group or an identifier. Each number the JSON holds as a
// number is read as its literal alone would be, by the same rules (so a
// small bare integer or a long identifier is no claim here either), at
// its place in the output. Output that opens with JSON after a short
// label is read from its first bracket, as toolJSON reads it; output
// with no number written so is not decoded.
//
// It returns claims, the text's claims (sorted by offset) with what it
// read in place of what prose made of the same bytes (`-120.5` for
// `120.5`, `[120,340]`'s two numbers for 120340).
func jsonNumbers(content string, claims []Claim) []Claim {
	at := strings.IndexAny(content[:headEnd(content, 128)], "{[")
	if at < 0 || len(content) > maxIDScan || !compactNumber(content[at:]) {
		return claims
	}
	dec := json.NewDecoder(strings.NewReader(content[at:]))
	dec.UseNumber()
	var out []Claim
	var lits []span
	for len(lits) < maxJSONNumbers {
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			break
		}
		n, ok := tok.(json.Number)
		if !ok {
			continue
		}
		lit := n.String()
		end := at + int(dec.InputOffset())
		start := end - len(lit)
		if start < 0 || content[start:end] != lit {
			continue
		}
		lits = append(lits, span{Start: start, End: end, OK: true})
		for _, c := range claimsOf(newText(lit), nil, true) {
			if c.Kind == ClaimNumber && c.Text == lit {
				c.Offset += int32(start)
				out = append(out, c)
			}
		}
	}
	if len(lits) == 0 {
		return claims
	}
	for _, c := range claims {
		start, end := int(c.Offset), int(c.Offset)+len(c.Text)
		if !slices.ContainsFunc(lits, func(l span) bool { return start < l.End && end > l.Start }) {
			out = append(out, c)
		}
	}
	return dedupe(out)
}

// compactNumber reports whether s writes a digit or a minus sign right
// after a colon or a comma: a JSON number with no space before it.
func compactNumber(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if c := s[i+1]; (s[i] == ':' || s[i] == ',') && (isDigit(c) || c == '-') {
			return true
		}
	}
	return false
}
