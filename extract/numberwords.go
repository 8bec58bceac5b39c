package extract

import (
	"slices"
	"strings"
	"unicode"
)

// numberWords are the values of the words a number is written in: the
// units, the teens, the tens, and the words that multiply what precedes
// them ("a dozen", "three hundred", "two thousand").
var numberWords = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
	"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}

// wordMultipliers scale the number written before them, or one ("a dozen").
var wordMultipliers = map[string]float64{"dozen": 12, "hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9}

// wordNumbers returns the values of the numbers a text writes in words,
// in increasing order, each once: "a dozen pens" is 12, "twenty-four
// hours" 24, "three hundred" 300, "two dozen" 24.
func wordNumbers(text string) []float64 {
	s := strings.ToLower(text)
	var out []float64
	var total, cur float64
	in := false // a number is being read
	flush := func() {
		if in {
			out = append(out, total+cur)
		}
		total, cur, in = 0, 0, false
	}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
		if v, ok := wordMultipliers[w]; ok {
			if !in {
				cur = 1 // "a dozen", "hundred"
			}
			if v >= 1e3 {
				total, cur = total+max(cur, 1)*v, 0
			} else {
				cur = max(cur, 1) * v
			}
			in = true
			continue
		}
		sum, ok := 0.0, true
		for part := range strings.SplitSeq(w, "-") {
			v, known := numberWords[part]
			ok = ok && known
			sum += v
		}
		switch {
		case ok:
			cur += sum
			in = true
		case w == "and" && in:
			// "three hundred and five"
		default:
			flush()
		}
	}
	flush()
	slices.Sort(out)
	return slices.Compact(out)
}
