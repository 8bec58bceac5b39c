package redact

// Card numbers and IBANs carry a check digit, and the check is what tells
// them from order ids, tracking numbers and timestamps of the same shape.
// A regular expression cannot compute a checksum or choose, inside a longer
// run of digit groups, the part that passes it; these scanners do both in
// one pass, in linear time, so they need no match timeout.

// A card number has 13–19 digits, the first 2–6 (Mastercard 2-series, Amex,
// Diners and JCB, Visa, Mastercard, Discover, UnionPay, Maestro; a 1 starts
// millisecond timestamps), written bare or in groups joined by single
// spaces or dashes.
const (
	minCardDigits = 13
	maxCardDigits = 19
)

// cardDotted is a card number written in groups joined by dots or
// underscores, the same joint throughout: 4-4-4-4, 4-6-5 or 4-4-4-4-3.
// The scanner takes spaces and dashes only, since a dot also joins the
// parts of decimals and versions, which these group sizes rule out.
const cardDotted = `(?<![0-9A-Za-z_.])[2-6][0-9]{3}(?:\.[0-9]{4,6}\.[0-9]{4,5}(?:\.[0-9]{1,4})?|_[0-9]{4,6}_[0-9]{4,5}(?:_[0-9]{1,4})?)(?![0-9A-Za-z_]|[._][0-9])`

// keepDottedCard applies the card's length and Luhn check.
func keepDottedCard(_ found, v string) bool {
	d := digitsOf(v)
	return len(d) >= minCardDigits && len(d) <= maxCardDigits && luhn(d)
}

// findCards returns the card numbers in runes. Within a run of digit
// groups, the card is the longest stretch of whole groups that passes the
// Luhn check, taken from the left: a card followed by its expiry month
// ("4111 1111 1111 1111 12/25") or two cards in a row are found too.
func findCards(runes []rune) []span {
	var out []span
	for i := 0; i < len(runes); {
		if !isDigitRune(runes[i]) {
			i++
			continue
		}
		groups := digitGroups(runes, i)
		end := groups[len(groups)-1].end
		if cardBoundaries(runes, i, end) {
			out = append(out, cardsIn(runes, groups)...)
		}
		i = end
	}
	return out
}

// digitGroups reads the groups of digits from start, joined by one space
// or dash each.
func digitGroups(runes []rune, start int) []span {
	var groups []span
	i := start
	for {
		j := i
		for j < len(runes) && isDigitRune(runes[j]) {
			j++
		}
		groups = append(groups, span{i, j})
		if j+1 < len(runes) && (runes[j] == ' ' || runes[j] == '-') && isDigitRune(runes[j+1]) {
			i = j + 1
			continue
		}
		return groups
	}
}

// cardBoundaries rejects runs glued to a word ("W2378156…", "id_4111…"), a
// sign or a decimal ("+4111…", "3.4111…", "4111….5"). Other scripts may
// touch the digits: Chinese or Japanese text has no spaces.
func cardBoundaries(runes []rune, start, end int) bool {
	if start > 0 {
		switch c := runes[start-1]; {
		case isASCIIAlnum(c) || c == '_' || c == '+':
			return false
		case (c == '.' || c == ',' || c == '-') && start > 1 && isDigitRune(runes[start-2]):
			return false
		}
	}
	if end < len(runes) {
		switch c := runes[end]; {
		case isASCIIAlnum(c) || c == '_':
			return false
		case (c == '.' || c == ',') && end+1 < len(runes) && isDigitRune(runes[end+1]):
			return false
		}
	}
	return true
}

// cardsIn picks the cards out of one run of groups.
func cardsIn(runes []rune, groups []span) []span {
	var out []span
	for a := 0; a < len(groups); a++ {
		// The stretches that start at group a, longest first.
		last, digits := a, 0
		for last < len(groups) && digits+groups[last].end-groups[last].start <= maxCardDigits {
			digits += groups[last].end - groups[last].start
			last++
		}
		for b := last - 1; b >= a && digits >= minCardDigits; b-- {
			if isCard(runes[groups[a].start:groups[b].end]) {
				out = append(out, span{groups[a].start, groups[b].end})
				a = b
				break
			}
			digits -= groups[b].end - groups[b].start
		}
	}
	return out
}

// isCard applies the first-digit rule and the Luhn check to digits with
// separators.
func isCard(runes []rune) bool {
	if runes[0] < '2' || runes[0] > '6' {
		return false
	}
	return luhn(digitsOf(string(runes)))
}

// ibanLengths is the length of an IBAN in each country that issues them
// (the SWIFT IBAN registry). Checking the length as well as the mod-97
// check digits keeps the false matches near none.
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22,
	"BH": 22, "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24,
	"DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
	"FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27,
	"GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27,
	"JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20,
	"LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27,
	"MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28,
	"PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24, "SC": 31,
	"SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28,
	"TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}

// findIBANs returns the IBANs in runes: a country code, two check digits
// and the country's number of letters and digits, bare or in groups joined
// by single spaces, ending at a word boundary, passing the mod-97 check.
// Letters may be lower-case; people type them so.
func findIBANs(runes []rune) []span {
	var out []span
	for i := 0; i+4 <= len(runes); i++ {
		if i > 0 && isASCIIAlnum(runes[i-1]) {
			continue
		}
		if !isASCIILetter(runes[i]) || !isASCIILetter(runes[i+1]) || !isDigitRune(runes[i+2]) || !isDigitRune(runes[i+3]) {
			continue
		}
		n := ibanLengths[string(upper(runes[i]))+string(upper(runes[i+1]))]
		if n == 0 {
			continue
		}
		chars, j, ok := ibanAt(runes, i, n)
		if !ok {
			continue
		}
		if ibanChecks(chars) {
			out = append(out, span{i, j})
			i = j - 1
		}
	}
	return out
}

// ibanAt reads n letters and digits from i, allowing single spaces or dashes between
// them, upper-cased; they must end at a word boundary.
func ibanAt(runes []rune, i, n int) (chars []rune, end int, ok bool) {
	chars = make([]rune, 0, n)
	j := i
	for len(chars) < n {
		switch {
		case j < len(runes) && isASCIIAlnum(runes[j]):
			chars = append(chars, upper(runes[j]))
		case j+1 < len(runes) && (runes[j] == ' ' || runes[j] == '-') && isASCIIAlnum(runes[j+1]):
		default:
			return nil, j, false
		}
		j++
	}
	if j < len(runes) && isASCIIAlnum(runes[j]) {
		return nil, j, false
	}
	return chars, j, true
}

// ibanChecks is ISO 13616's test: move the first four characters to the
// end, read letters as 10–35, and the number must be 1 modulo 97.
func ibanChecks(chars []rune) bool {
	rem := 0
	for _, c := range append(append([]rune(nil), chars[4:]...), chars[:4]...) {
		switch {
		case isDigitRune(c):
			rem = (rem*10 + int(c-'0')) % 97
		default:
			rem = (rem*100 + int(c-'A') + 10) % 97
		}
	}
	return rem == 1
}

func isASCIILetter(r rune) bool { return r < 0x80 && isLetter(byte(r)) }

func isASCIIAlnum(r rune) bool { return r < 0x80 && isAlnum(byte(r)) }

func upper(r rune) rune {
	if r >= 'a' && r <= 'z' {
		return r - 'a' + 'A'
	}
	return r
}

// digitRunLike is a hint: at least n digits in a row, allowing single
// spaces or dashes between them ("4111 1111 1111 1111").
func digitRunLike(n int) func(string) bool {
	return func(text string) bool {
		count := 0
		for i := 0; i < len(text); i++ {
			switch c := text[i]; {
			case isDigit(c):
				count++
				if count >= n {
					return true
				}
			case (c == ' ' || c == '-') && i > 0 && isDigit(text[i-1]) && i+1 < len(text) && isDigit(text[i+1]):
			default:
				count = 0
			}
		}
		return false
	}
}

// ibanLike is a hint: two letters and two digits at the start of a word.
func ibanLike(t string) bool {
	for i := 0; i+4 <= len(t); i++ {
		if isLetter(t[i]) && isLetter(t[i+1]) && isDigit(t[i+2]) && isDigit(t[i+3]) && (i == 0 || !isAlnum(t[i-1])) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isDigitRune(r rune) bool { return r >= '0' && r <= '9' }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isAlnum(c byte) bool { return isDigit(c) || isLetter(c) }
