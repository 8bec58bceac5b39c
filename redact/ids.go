package redact

import (
	"strings"
)

// National identity numbers of other large countries. Each is found by a
// shape distinctive enough to stand alone, or after its label; where the
// number carries a check digit, the check decides, as it does for cards.

// labelSep is what stands between an identity number's label and the
// number: a closing quote of a JSON key (escaped or not), blanks, and ':',
// '#', '=', "is" or "was", or nothing.
const labelSep = `(?:\\{0,3}["'])?[ \t]{0,3}(?:[:#=]|(?i:is|was)(?![A-Za-z0-9]))?[ \t]{0,3}(?:\\{0,3}["'])?`

// numberWord is what may follow a label's noun: "number", "no.", "#".
const numberWord = `(?:[ _-]?(?i:number|num|no\.?|nr\.?|#))?`

// Boundaries of a number written in digit groups: not part of a longer
// number, a word, a decimal or another run of groups.
const (
	idL = `(?<![0-9A-Za-z_.-]|[0-9][ -])`
	idR = `(?![0-9A-Za-z_]|[-. ][0-9])`
)

const (
	// sin is a Canadian social insurance number in groups of three,
	// checked by Luhn; labelled, it may also be written bare.
	sin      = idL + `[0-9]{3}(?:[ ][0-9]{3}[ ]|-[0-9]{3}-)[0-9]{3}` + idR
	sinLabel = `(?<![A-Za-z])(?:SIN|NAS|(?i:social[ _-]?insurance)` + numberWord + `)` + labelSep +
		`(?<secret>[0-9]{3}(?:[ ][0-9]{3}[ ]|-[0-9]{3}-|[0-9]{3})[0-9]{3})` + idR
	// nino is a UK National Insurance number: two letters, three pairs of
	// digits and A–D, bare or spaced (QQ 12 34 56 C); labelled, in any case
	// and spacing.
	nino      = `[A-Z]{2}(?:[0-9]{6}|[ ][0-9]{2}[ ][0-9]{2}[ ][0-9]{2}[ ])[A-D]`
	ninoLabel = `(?<![A-Za-z])(?:NINO|(?i:national[ _-]?insurance)` + numberWord + `|NI` + numberWord + `)` + labelSep +
		`(?<secret>(?i:[A-Z]{2}[ ]?[0-9]{2}[ ]?[0-9]{2}[ ]?[0-9]{2}[ ]?[A-D]))(?![A-Za-z0-9_])`
	// aadhaar is an Indian Aadhaar number: twelve digits in groups of
	// four, not starting with 0 or 1, checked by Verhoeff; bare after its
	// label.
	aadhaar      = idL + `[2-9][0-9]{3}(?:[ ][0-9]{4}[ ]|-[0-9]{4}-)[0-9]{4}` + idR
	aadhaarLabel = `(?<![A-Za-z])(?i:aadhaa?r|UIDAI)` + numberWord + labelSep + `(?<secret>[2-9][0-9]{3}(?:[ ][0-9]{4}[ ]|-[0-9]{4}-|[0-9]{4})[0-9]{4})` + idR
	// pan is an Indian Permanent Account Number: five letters (the fourth
	// says who holds it), four digits, a letter.
	pan = `[A-Z]{3}[ABCFGHJLPT][A-Z][0-9]{4}[A-Z]`
	// curp is a Mexican CURP: initials, birth date, sex, state, consonants
	// and two check characters.
	curp = `[A-Z][AEIOUX][A-Z]{2}[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])[HMX]` +
		`(?:AS|B[CS]|C[CHLMS]|D[FG]|G[RT]|HG|JC|M[CNS]|N[ELT]|OC|PL|Q[RT]|S[LPR]|T[CLS]|VZ|YN|ZS)[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z][0-9]`
	// chineseID is a resident identity number of the People's Republic:
	// six digits of region, a birth date, three digits and a check
	// character (MOD 11-2).
	chineseID = `(?<![0-9A-Za-z_])[1-9][0-9]{5}(?:18|19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])[0-9]{3}[0-9Xx](?![0-9A-Za-z_])`
	// nir is a French social security number (NIR): sex, year, month,
	// département (2A, 2B for Corsica), commune, order and a key, bare or
	// grouped by spaces.
	nir = idL + `[12][ ]?[0-9]{2}[ ]?(?:0[1-9]|1[0-2]|[2-9][0-9])[ ]?(?:[0-9]{2}|2[ABab])[ ]?[0-9]{3}[ ]?[0-9]{3}[ ]?[0-9]{2}` + idR
	// steuerID is a German tax identification number after its label,
	// eleven digits with a check digit (ISO 7064 MOD 11,10), bare or in
	// groups.
	steuerID = `(?<![A-Za-z])(?i:steuer[ _-]?(?:id(?:entifikations)?(?:[ _-]?(?:nr\.?|nummer))?|nummer)|IdNr\.?|tax[ _-]?id|TIN)` + labelSep +
		`(?<secret>[1-9][0-9](?:[ ][0-9]{3}[ ][0-9]{3}[ ]|[0-9]{6})[0-9]{3})` + idR
	// cpf is a Brazilian CPF, 000.000.000-00 with two check digits, or
	// bare after its label.
	cpf      = idL + `[0-9]{3}\.[0-9]{3}\.[0-9]{3}-[0-9]{2}` + idR
	cpfLabel = `(?<![A-Za-z])CPF` + labelSep + `(?<secret>[0-9]{11})` + idR
	// dni is a Spanish DNI (eight digits) or NIE (X, Y or Z and seven
	// digits) with its check letter.
	dni = `(?<![A-Za-z0-9_-])(?:[0-9]{8}|[XYZ][0-9]{7})-?[A-Z](?![A-Za-z0-9_])`
	// rrn is a South Korean resident registration number: a birth date, a
	// dash and seven digits, the first of them 1–8.
	rrn = idL + `[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])-[1-8][0-9]{6}` + idR
	// myNumber is a Japanese individual number after its label: twelve
	// digits with a check digit, bare or in groups of four.
	myNumber = `(?:マイナンバー|個人番号|(?<![A-Za-z])(?i:my[ _-]?number))` + labelSep + `[ 　]?` +
		`(?<secret>[0-9]{4}(?:[ ][0-9]{4}[ ]|-[0-9]{4}-|[0-9]{4})[0-9]{4})` + idR
	// codiceFiscale is an Italian fiscal code: six letters of the name,
	// the birth year, month letter and day (digits, or letters standing
	// for them), the place and a check letter.
	codiceFiscale = `[A-Z]{6}[0-9LMNP-V]{2}[ABCDEHLMPRST][0-9LMNP-V]{2}[A-Z][0-9LMNP-V]{3}[A-Z]`
	// upperCode is any of the four codes of capitals and digits above, as
	// one pattern: each would be tried at every capital letter.
	upperCode = `(?<![A-Za-z0-9_])(?:` + nino + `|` + pan + `|` + curp + `|` + codiceFiscale + `)(?![A-Za-z0-9_])`
)

// upperCodeLike is upperCode's cheap test: a run of nine or more capitals
// and digits, or two capitals, a blank and two digits (QQ 12 …).
func upperCodeLike(text string) bool {
	n := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 'A' && c <= 'Z' || isDigit(c) {
			if n++; n >= 9 {
				return true
			}
			if n >= 2 && i+3 < len(text) && text[i+1] == ' ' && isDigit(text[i+2]) && isDigit(text[i+3]) {
				return true
			}
			continue
		}
		n = 0
	}
	return false
}

// idLabel is the label of an identity number of any country written out
// (driver's licence, national id, tax number, Medicare, personnummer…),
// and idAcronym one written as its capitals (EIN, TIN, BSN, PESEL, NHS,
// NRIC…): after either, the number is masked whatever its shape. They are
// two patterns: as one, the places a match may begin take long to find.
const (
	idLabel = `(?<![A-Za-z])(?i:driver'?s?[ _-]?licen[cs]e|national[ _-]?id(?:entity)?|id(?:entity)?[ _-]?(?:card|number|no\.?)|` +
		`tax[ _-]?(?:id(?:entification)?|number|file[ _-]?number|code)|medicare|personnummer|henkil[oö]tunnus|f[oø]dselsnummer|` +
		`sozialversicherungsnummer|personalausweis(?:nummer)?|num[eé]ro[ _-]?de[ _-]?s[eé]curit[eé][ _-]?sociale|codice[ _-]?fiscale)` +
		numberWord + labelSep
	idAcronym = `(?<![A-Za-z0-9])(?:DL|EIN|ITIN|TIN|TFN|BSN|PESEL|NHS|NRIC|HKID)` +
		`(?:\\{0,3}["'])?[ \t]{0,3}[:#=]?[ \t]{0,3}(?:\\{0,3}["'])?(?<![A-Za-z0-9]{2})`
)

// idValue is a labelled identity number: up to five groups of letters and
// digits joined by single blanks or dashes, each with a digit.
const idValue = `(?<secret>(?=[A-Za-z0-9]*[0-9])[A-Za-z0-9]+(?:[ -](?=[A-Za-z0-9]*[0-9])[A-Za-z0-9]+){0,4})(?![A-Za-z0-9_])`

// keepIDValue keeps a labelled number of five digits or more: "DL 2"
// and "TIN 42" are no numbers anyone is known by.
func keepIDValue(_ found, v string) bool { return len(digitsOf(v)) >= 5 }

// digitsOf returns the digits of v, in order.
func digitsOf(v string) []int {
	var out []int
	for i := 0; i < len(v); i++ {
		if isDigit(v[i]) {
			out = append(out, int(v[i]-'0'))
		}
	}
	return out
}

// luhn reports whether digits pass the Luhn check.
func luhn(digits []int) bool {
	sum, double := 0, false
	for i := len(digits) - 1; i >= 0; i-- {
		d := digits[i]
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// allSame reports a number of one repeated digit, which no issuer gives.
func allSame(digits []int) bool {
	for _, d := range digits {
		if d != digits[0] {
			return false
		}
	}
	return true
}

// keepLuhnID keeps a number that passes the Luhn check and is not one
// digit repeated.
func keepLuhnID(_ found, v string) bool {
	d := digitsOf(v)
	return len(d) > 0 && !allSame(d) && luhn(d)
}

// Verhoeff's tables: multiplication in the dihedral group D5 and the
// permutation applied at each position.
var (
	verhoeffD = [10][10]int{
		{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 0, 6, 7, 8, 9, 5},
		{2, 3, 4, 0, 1, 7, 8, 9, 5, 6}, {3, 4, 0, 1, 2, 8, 9, 5, 6, 7},
		{4, 0, 1, 2, 3, 9, 5, 6, 7, 8}, {5, 9, 8, 7, 6, 0, 4, 3, 2, 1},
		{6, 5, 9, 8, 7, 1, 0, 4, 3, 2}, {7, 6, 5, 9, 8, 2, 1, 0, 4, 3},
		{8, 7, 6, 5, 9, 3, 2, 1, 0, 4}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0},
	}
	verhoeffP = [8][10]int{
		{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 5, 7, 6, 2, 8, 3, 0, 9, 4},
		{5, 8, 0, 3, 7, 9, 6, 1, 4, 2}, {8, 9, 1, 6, 0, 4, 3, 5, 2, 7},
		{9, 4, 5, 3, 1, 2, 6, 8, 7, 0}, {4, 2, 8, 6, 5, 7, 3, 9, 0, 1},
		{2, 7, 9, 3, 8, 0, 6, 4, 1, 5}, {7, 0, 4, 6, 9, 1, 3, 2, 5, 8},
	}
)

// keepVerhoeff keeps a number that passes the Verhoeff check (Aadhaar).
func keepVerhoeff(_ found, v string) bool {
	d := digitsOf(v)
	c := 0
	for i := range d {
		c = verhoeffD[c][verhoeffP[i%8][d[len(d)-1-i]]]
	}
	return len(d) > 0 && !allSame(d) && c == 0
}

// keepChineseID checks the last character of a resident identity number
// (ISO 7064 MOD 11-2).
func keepChineseID(_ found, v string) bool {
	weights := [17]int{7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2}
	sum := 0
	for i, w := range weights {
		sum += int(v[i]-'0') * w
	}
	return strings.EqualFold(v[17:], string("10X98765432"[sum%11]))
}

// keepNIR checks a French NIR's key: 97 less the first thirteen digits
// modulo 97, Corsica's 2A and 2B read as 19 and 18.
func keepNIR(_ found, v string) bool {
	s := strings.ToUpper(strings.ReplaceAll(v, " ", ""))
	if len(s) != 15 {
		return false
	}
	body := s[:13]
	switch body[5:7] {
	case "2A":
		body = body[:5] + "19" + body[7:]
	case "2B":
		body = body[:5] + "18" + body[7:]
	}
	rem := 0
	for i := 0; i < len(body); i++ {
		rem = (rem*10 + int(body[i]-'0')) % 97
	}
	key := int(s[13]-'0')*10 + int(s[14]-'0')
	return key == 97-rem
}

// keepSteuerID checks a German tax id's last digit (ISO 7064 MOD 11,10).
func keepSteuerID(_ found, v string) bool {
	d := digitsOf(v)
	if len(d) != 11 || allSame(d) {
		return false
	}
	product := 10
	for _, x := range d[:10] {
		sum := (x + product) % 10
		if sum == 0 {
			sum = 10
		}
		product = sum * 2 % 11
	}
	check := 11 - product
	if check == 10 {
		check = 0
	}
	return check == d[10]
}

// keepCPF checks a CPF's two check digits.
func keepCPF(_ found, v string) bool {
	d := digitsOf(v)
	if len(d) != 11 || allSame(d) {
		return false
	}
	for n := 9; n <= 10; n++ {
		sum := 0
		for i := 0; i < n; i++ {
			sum += d[i] * (n + 1 - i)
		}
		if sum*10%11%10 != d[n] {
			return false
		}
	}
	return true
}

// keepDNI checks a DNI's or NIE's letter: the number modulo 23, NIE's
// X, Y and Z read as 0, 1 and 2.
func keepDNI(_ found, v string) bool {
	s := strings.ReplaceAll(v, "-", "")
	n := strings.IndexByte("XYZ", s[0])
	if n < 0 {
		n = int(s[0] - '0')
	}
	for i := 1; i < len(s)-1; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return s[len(s)-1] == "TRWAGMYFPDXBNJZSQVHLCKE"[n%23]
}

// keepMyNumber checks a Japanese individual number's last digit.
func keepMyNumber(_ found, v string) bool {
	d := digitsOf(v)
	if len(d) != 12 || allSame(d) {
		return false
	}
	sum := 0
	for n := 1; n <= 11; n++ {
		q := n + 1
		if n > 6 {
			q = n - 5
		}
		sum += d[11-n] * q
	}
	check := 0
	if r := sum % 11; r > 1 {
		check = 11 - r
	}
	return check == d[11]
}
