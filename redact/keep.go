package redact

import (
	"net/netip"
	"strings"
	"unicode"
)

// notSecret lists values that stand in for a secret without being one.
var notSecret = map[string]bool{
	"null": true, "none": true, "nil": true, "true": true, "false": true,
	"undefined": true, "empty": true, "redacted": true, "hidden": true,
}

// placeholderValue reports values that are not secrets themselves: empty,
// masks like ****, references to where the secret lives ($VAR, ${VAR},
// %VAR%, {{ var }}, <your-key>), words like null or (hidden), and our own
// placeholders.
func placeholderValue(v string) bool {
	t := strings.TrimSpace(v)
	switch {
	case t == "", isPlaceholder(t), notSecret[strings.ToLower(strings.Trim(t, "()[]<>"))]:
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

// bareValue reports a value written without quotes.
func bareValue(m found) bool {
	_, ok := m.group("q")
	return ok
}

// prose reports an assignment that reads as a sentence: a bare lower-case
// word after a colon or "is" ("invalid password: too short", "the password
// is incorrect"). After '=' or in quotes a value is a value.
func prose(m found, v string) bool {
	if !bareValue(m) || !isLowerWord(v) {
		return false
	}
	sep := strings.ToLower(m.str("sep"))
	return sep == ":" || sep == "：" || sep == "is" || sep == "was"
}

// cutValue drops what follows a bare value in a sentence: closing
// brackets that open nowhere in the value ("(password: abc(def)ghi)."
// keeps "abc(def)ghi"), and after a colon, "is" or "was", a final full
// stop, comma, semicolon or colon. After '=' (PASSWORD=Sup3r;Secret.) the
// value runs to its end, punctuation included, but for a final semicolon,
// which ends a statement or a connection string's pair: a config line has
// no sentence to end. A quoted value is masked whole, to its quote.
func cutValue(m found, v string) string {
	if !bareValue(m) {
		return v
	}
	sep := m.str("sep")
	sentence := sep == ":" || sep == "：" || strings.EqualFold(sep, "is") || strings.EqualFold(sep, "was")
	for len(v) > 0 {
		last := v[len(v)-1]
		switch {
		case sentence && strings.IndexByte(".,;:", last) >= 0, last == ';':
		case last == ')' && strings.Count(v, "(") < strings.Count(v, ")"),
			last == ']' && strings.Count(v, "[") < strings.Count(v, "]"),
			last == '}' && strings.Count(v, "{") < strings.Count(v, "}"),
			last == '>' && strings.Count(v, "<") < strings.Count(v, ">"):
		default:
			return v
		}
		v = v[:len(v)-1]
	}
	return v
}

// keepPassword masks any real value, whatever its characters, except prose
// and three look-alikes: Go's and pytest's "PASS: TestName" lines, "the
// pass is …", and the working directory in PWD=/home/… .
func keepPassword(m found, v string) bool {
	if placeholderValue(v) || prose(m, v) {
		return false
	}
	key := m.str("key")
	sep := strings.ToLower(m.str("sep"))
	switch strings.ToLower(key) {
	case "pass":
		if sep == "is" || sep == "was" || (key == "PASS" && sep == ":" && bareValue(m)) {
			return false
		}
	case "pwd":
		if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") {
			return false
		}
	}
	return true
}

// keepSecret treats API keys and secrets as passwords. After "token" only
// a key-like value counts, since "token" is everywhere in model logs
// (max_tokens, "the token: it"): 8+ characters without spaces, holding a
// digit, or 16+ mixing upper and lower case.
func keepSecret(m found, v string) bool {
	key := strings.ToLower(m.str("key"))
	if !strings.HasSuffix(key, "token") {
		return keepPassword(m, v)
	}
	return keepKeyLike(m, v)
}

// keepKeyLike keeps a value that looks like a key: 8+ characters without
// blanks, holding a digit, or 16+ mixing upper and lower case.
func keepKeyLike(_ found, v string) bool {
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

// learnAssigned decides whether an assigned value is also masked where it
// reappears bare. A plain word found after a colon or "is" ("Password:
// Required") would otherwise be masked all through the run; after '=' or
// in quotes, or holding anything but letters, a value is learnt.
func learnAssigned(m found, v string) bool {
	sep := m.str("sep")
	if !bareValue(m) || sep == "=" || sep == "=>" || sep == ":=" {
		return true
	}
	for _, r := range v {
		if !unicode.IsLetter(r) {
			return true
		}
	}
	return false
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
func keepIPv4(_ found, v string) bool {
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
func keepIPv6(_ found, v string) bool {
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
func digitsBetween(lo, hi int) func(found, string) bool {
	return func(_ found, v string) bool {
		n := countDigits(v)
		return n >= lo && n <= hi
	}
}

// keepTrunkPhone: national numbers with a trunk 0 have 10–12 digits in
// most numbering plans (Indonesia's mobiles 12); with the 00
// international prefix, 11–15.
func keepTrunkPhone(_ found, v string) bool {
	n := countDigits(v)
	if strings.HasPrefix(v, "00") {
		return n >= 11 && n <= 15
	}
	return n >= 10 && n <= 12
}

// keepSSN spares numbers no social security number can be: area 000, 666
// or 900–999, group 00, serial 0000.
func keepSSN(_ found, v string) bool {
	d := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, v)
	if len(d) != 9 {
		return false
	}
	area, group, serial := d[:3], d[3:5], d[5:]
	return area != "000" && area != "666" && area[0] != '9' && group != "00" && serial != "0000"
}

// keepCookie masks a cookie header's value when it holds a name=value
// pair: "Cookie: none" and prose after the word are no cookies.
func keepCookie(_ found, v string) bool {
	return strings.Contains(v, "=") && !placeholderValue(v)
}

// keepFlag is keepSecret for a flag's value, which is not the next flag.
func keepFlag(m found, v string) bool {
	return !strings.HasPrefix(v, "-") && keepSecret(m, v)
}

// trimBlanks drops the blanks a value runs on with to its line's end.
func trimBlanks(_ found, v string) string {
	return strings.TrimRight(v, " \t")
}

// notNumber refuses a value of digits alone: after -u a uid:gid pair
// (docker run -u 1000:1000) is no password.
func notNumber(_ found, v string) bool {
	return strings.Trim(v, "0123456789") != ""
}
