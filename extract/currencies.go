package extract

import (
	"slices"
	"strings"
	"unicode"
)

// currencyWords are the ways text writes the currencies that tools name by
// their ISO 4217 codes: the sign before an amount, and the currency's name
// in the singular and the plural ("twenty-five euros", "in US dollars").
var currencyWords = map[string][]string{
	"USD": {"$", "us$", "dollar", "dollars"},
	"EUR": {"€", "euro", "euros"},
	"GBP": {"£", "pound", "pounds", "sterling"},
	"JPY": {"¥", "yen"},
	"CNY": {"yuan", "renminbi", "rmb"},
	"INR": {"₹", "rupee", "rupees"},
	"CHF": {"franc", "francs"},
	"CAD": {"canadian dollar", "canadian dollars"},
	"AUD": {"australian dollar", "australian dollars"},
	"MXN": {"peso", "pesos"},
	"KRW": {"₩", "won"},
	"BRL": {"real", "reais"},
	"SEK": {"krona", "kronor"},
	"NOK": {"krone", "kroner"},
	"DKK": {"krone", "kroner"},
	"THB": {"baht"},
	"PLN": {"zloty", "złoty", "zlotys"},
	"TRY": {"lira", "liras"},
	"ZAR": {"rand"},
}

// CurrencyWords returns the ways text writes the currency of an ISO code
// (in any case: "eur", "EUR"), in lower case, or nil for a value that is
// no currency's code: a person or a page names a currency ("twenty-five
// euros", "£8") that a call writes as its code.
func CurrencyWords(code string) []string {
	if len(code) != 3 {
		return nil
	}
	return currencyWords[strings.ToUpper(code)]
}

// CurrencySign reports whether w, of CurrencyWords, is a sign, which text
// writes against an amount's digits ("£8"), not as a word of its own.
func CurrencySign(w string) bool {
	return w != "" && !wordByte(w[0])
}

// Money reports whether a number claim writes a sum of money: a
// currency's sign, its code or its name beside the figure ("$14.00",
// "14.00 USD", "GBP 142", "14 dollars"; currencyWords).
func (c Claim) Money() bool {
	if c.Kind != ClaimNumber {
		return false
	}
	words := strings.FieldsFunc(c.Text, func(r rune) bool { return !unicode.IsLetter(r) })
	for code, ws := range currencyWords {
		for _, w := range words {
			if w == code {
				return true
			}
		}
		for _, cw := range ws {
			if CurrencySign(cw) && strings.Contains(c.Text, cw) || !CurrencySign(cw) && !strings.Contains(cw, " ") && slices.ContainsFunc(words, func(w string) bool { return strings.EqualFold(w, cw) }) {
				return true
			}
		}
	}
	return false
}
