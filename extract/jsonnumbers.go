package extract

import (
	"encoding/json"
	"slices"
	"strings"
)

// maxJSONNumbers caps the numbers read from one tool's JSON output.
const maxJSONNumbers = 400

// jsonNumbers returns the number claims of a tool's JSON output as the
// JSON itself says them. Written compactly, a value right after its
// key's colon (`"price":49.99`) or an array's comma (`[120,340,560]`) is,
// to prose, part of a time, a thousands group or an identifier; and a
// key that ends in a unit (`high_c`, `distance_km`, `elevationFt`) gives
// its number that unit, as prose writes it after the figure. Each number
// the JSON holds as a number is read as its literal (with its key's unit)
// alone would be, by the same rules (so a small bare integer or a long
// identifier is no claim here either), at its place in the output.
// Output that opens with JSON after a short label is read from its first
// bracket, as toolJSON reads it; output with neither is not decoded.
//
// It returns claims, the text's claims (sorted by offset) with what it
// read in place of what prose made of the same bytes (`-120.5` for
// `120.5`, `[120,340]`'s two numbers for 120340, 12 °C for 12).
func jsonNumbers(content string, claims []Claim) []Claim {
	at := strings.IndexAny(content[:headEnd(content, 128)], "{[")
	if at < 0 || len(content) > maxIDScan || !compactNumber(content[at:]) && !unitKeyed(content[at:]) {
		return claims
	}
	dec := json.NewDecoder(strings.NewReader(content[at:]))
	dec.UseNumber()
	var out []Claim
	var lits []span
	// objects holds, for each open container, whether it is an object
	// whose next string is a key; key is the key of the value read next.
	var objects []bool
	key := ""
	for len(lits) < maxJSONNumbers {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		inObject := len(objects) > 0 && objects[len(objects)-1]
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{', '[':
				objects = append(objects, tok == '{')
			default:
				objects = objects[:len(objects)-1]
			}
			key = ""
			continue
		case string:
			if inObject && key == "" && dec.More() {
				key = tok
				continue
			}
		case json.Number:
			lit := tok.String()
			end := at + int(dec.InputOffset())
			start := end - len(lit)
			if start >= 0 && content[start:end] == lit {
				lits = append(lits, span{Start: start, End: end, OK: true})
				for _, c := range claimsOf(newText(lit+unitOf(key, content[at:])), nil, true) {
					if c.Kind == ClaimNumber && strings.HasPrefix(c.Text, lit) {
						c.Text, c.Offset = lit, c.Offset+int32(start)
						out = append(out, c)
					}
				}
			}
		}
		if inObject {
			key = ""
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

// keyUnits maps the last word of a JSON key to the unit prose writes
// after its number. Currencies are left out: a figure matches an amount
// with or without one.
var keyUnits = map[string]string{
	"c": " °C", "celsius": " °C", "f": " °F", "fahrenheit": " °F",
	"km": " km", "mi": " mi", "miles": " miles", "m": " m", "meters": " m", "metres": " m", "ft": " ft", "feet": " ft",
	"kg": " kg", "lb": " lb", "lbs": " lb",
	"pct": "%", "percent": "%",
	"min": " minutes", "mins": " minutes", "minutes": " minutes", "hours": " hours", "hrs": " hours",
	"sec": " seconds", "secs": " seconds", "seconds": " seconds", "days": " days", "mph": " mph",
	"kb": " KB", "mb": " MB", "gb": " GB", "tb": " TB",
}

// unitOf returns the unit (keyUnits) a key of doc gives its number. A
// key that ends in "min" beside one that ends in "max" in its place
// (`"temp_min"`, `"temp_max"`; `priceMin`, `priceMax`) bounds a range:
// its "min" is the minimum, not minutes.
func unitOf(key, doc string) string {
	unit := unitOfKey(key)
	if unit == "min" {
		end := key[:len(key)-len("min")]
		for _, max := range []string{"max", "Max", "MAX"} {
			if strings.Contains(doc, `"`+end+max+`"`) {
				return ""
			}
		}
	}
	return keyUnits[unit]
}

// unitOfKey returns the last word of a key joined by underscores,
// hyphens or case ("high_c", "distance-km", "elevationFt"), lower-cased,
// or "" for a key of one word: a key that is a unit's name alone
// ("m", "c") is as often something else.
func unitOfKey(key string) string {
	if w := nameWords(key); len(w) >= 2 {
		return w[len(w)-1]
	}
	return ""
}

// unitKeyed reports whether s holds a key that ends in a unit
// (keyUnits) before a number: `"high_c": 12`.
func unitKeyed(s string) bool {
	for k := range occurrences(s, `":`) {
		v := strings.TrimLeft(s[k+2:min(len(s), k+4)], " ")
		if v != "" && (isDigit(v[0]) || v[0] == '-') {
			q := strings.LastIndexByte(s[:k], '"')
			if q >= 0 && keyUnits[unitOfKey(s[q+1:k])] != "" {
				return true
			}
		}
	}
	return false
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
