package redact

import (
	"net/netip"
	"strings"
	"unicode"

	"github.com/dlclark/regexp2"
)

// notSecret lists values that stand in for a secret without being one.
var notSecret = map[string]bool{
	"null": true, "none": true, "nil": true, "true": true, "false": true,
	"undefined": true, "empty": true, "redacted": true, "hidden": true,
}

// placeholderValue reports values that are not secrets themselves: empty,
// masks like ****, references to where the secret lives ($VAR, ${VAR},
// %VAR%, {{ var }}, <your-key>), and our own placeholders.
func placeholderValue(v string) bool {
	t := strings.TrimSpace(v)
	switch {
	case t == "", notSecret[strings.ToLower(t)], isPlaceholder(t):
		return true
	case strings.Trim(t, "*xX•.") == "":
		return true
	case strings.HasPrefix(t, "$"), strings.HasPrefix(t, "{{"),
		strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">"),
		len(t) > 2 && strings.HasPrefix(t, "%") && strings.HasSuffix(t, "%"):
		return true
	}
	return false
}

func unquoted(m *regexp2.Match) bool {
	g := m.GroupByName("q")
	return g != nil && len(g.Captures) > 0
}

// keepPassword masks any real value, except that an unquoted lower-case
// word after a colon reads as prose ("invalid password: too short").
func keepPassword(m *regexp2.Match, v string) bool {
	if placeholderValue(v) {
		return false
	}
	if sep := m.GroupByName("sep"); sep != nil && sep.String() == ":" && unquoted(m) {
		return !isLowerWord(v)
	}
	return true
}

// keepSecret masks values that look like keys: 8+ characters without
// spaces, holding a digit, or 16+ mixing upper and lower case. Prose after
// "token:" or "secret:" stays readable.
func keepSecret(_ *regexp2.Match, v string) bool {
	if placeholderValue(v) || len(v) < 8 || strings.ContainsAny(v, " \t") {
		return false
	}
	var digit, upper, lower bool
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsLower(r):
			lower = true
		}
	}
	return digit || (len(v) >= 16 && upper && lower)
}

func isLowerWord(v string) bool {
	for _, r := range v {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// keepIPv4 spares addresses that identify no one and explain errors:
// loopback, 0.0.0.0 and netmasks (255.255.255.0, also the broadcast).
func keepIPv4(_ *regexp2.Match, v string) bool {
	a, err := netip.ParseAddr(v)
	if err != nil || !a.Is4() || a.IsLoopback() {
		return false
	}
	b := a.As4()
	x := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	inv := ^x
	return inv&(inv+1) != 0 // not a run of ones followed by zeros
}

// keepIPv6 accepts what netip parses as IPv6, written compressed or in
// full, with a digit somewhere (so C++ "add::dead" stays), and not ::1 or ::.
func keepIPv6(_ *regexp2.Match, v string) bool {
	a, err := netip.ParseAddr(v)
	if err != nil || !a.Is6() || a.IsLoopback() || a.IsUnspecified() {
		return false
	}
	if !strings.Contains(v, "::") && strings.Count(v, ":") < 7 && !strings.Contains(v, ".") {
		return false
	}
	return strings.ContainsAny(v, "0123456789")
}

func countDigits(v string) int {
	n := 0
	for i := 0; i < len(v); i++ {
		if v[i] >= '0' && v[i] <= '9' {
			n++
		}
	}
	return n
}

// digitsBetween keeps numbers with lo..hi digits (E.164 allows 15).
func digitsBetween(lo, hi int) func(*regexp2.Match, string) bool {
	return func(_ *regexp2.Match, v string) bool {
		n := countDigits(v)
		return n >= lo && n <= hi
	}
}

// keepTrunkPhone: national numbers with a trunk 0 have 10–11 digits in
// most numbering plans; with the 00 international prefix, 11–15.
func keepTrunkPhone(_ *regexp2.Match, v string) bool {
	n := countDigits(v)
	if strings.HasPrefix(v, "00") {
		return n >= 11 && n <= 15
	}
	return n >= 10 && n <= 11
}
