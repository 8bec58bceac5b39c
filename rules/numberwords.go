package rules

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/offattr/offattr/extract"
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

// multipliers scale the number written before them, or one ("a dozen").
var multipliers = map[string]float64{"dozen": 12, "hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9}

// wordNumbers returns the values of the numbers a text (lower case)
// writes in words: "a dozen pens" is 12, "twenty-four hours" 24, "three
// hundred" 300, "two dozen" 24. A step that writes such a number in
// digits restates the text's figure; it hands on nothing of its own.
func wordNumbers(s string) map[float64]bool {
	out := map[float64]bool{}
	var total, cur float64
	in := false // a number is being read
	flush := func() {
		if in {
			out[total+cur] = true
		}
		total, cur, in = 0, 0, false
	}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
		if v, ok := multipliers[w]; ok {
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
	return out
}

// taskFigures returns the numbers the task (question, lower case) states
// other than as numbers: in words, and as the year, month and day of the
// dates it states.
func taskFigures(in *Input, question string) map[float64]bool {
	out := wordNumbers(question)
	for _, c := range in.Features.Question {
		if c.Kind != extract.ClaimDate {
			continue
		}
		for part := range strings.SplitSeq(c.Norm, "-") {
			if n, err := strconv.Atoi(part); err == nil {
				out[float64(n)] = true
			}
		}
	}
	return out
}
