package extract

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
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
	var out []float64
	for _, n := range wordNumberSpans(text) {
		out = append(out, n.value)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// wordNumber is a number a text writes in words, and where: text[start:end].
type wordNumber struct {
	value      float64
	start, end int
}

// wordNumberSpans returns the numbers a text writes in words, in the
// order written.
func wordNumberSpans(text string) []wordNumber {
	var out []wordNumber
	var buf [maxNumberWord]byte
	var total, cur float64
	in := false // a number is being read
	from, to := 0, 0
	flush := func() {
		if in {
			out = append(out, wordNumber{value: total + cur, start: from, end: to})
		}
		total, cur, in = 0, 0, false
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) && r != '-' {
			i += size
			continue
		}
		j := i
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsLetter(r) && r != '-' {
				break
			}
			j += size
		}
		start := i
		i = j
		w, ascii := lowerASCII(&buf, text[start:j])
		if !ascii {
			// No number word is longer, or written in other letters.
			flush()
			continue
		}
		if v, ok := wordMultipliers[string(w)]; ok {
			if !in {
				cur, from = 1, start // "a dozen", "hundred"
			}
			if v >= 1e3 {
				total, cur = total+max(cur, 1)*v, 0
			} else {
				cur = max(cur, 1) * v
			}
			in, to = true, j
			continue
		}
		sum, ok := 0.0, true
		for part := range bytes.SplitSeq(w, []byte("-")) {
			v, known := numberWords[string(part)]
			ok = ok && known
			sum += v
		}
		switch {
		case ok:
			if !in {
				from = start
			}
			cur += sum
			in, to = true, j
		case string(w) == "and" && in:
			// "three hundred and five"
		default:
			flush()
		}
	}
	flush()
	return out
}

// maxNumberWord is longer than any word a number is written in, its
// parts joined by hyphens ("seventy-seven").
const maxNumberWord = 32

// lowerASCII writes word in lower case into buf and returns it, without
// allocating; false when the word is longer than buf or has a letter
// outside ASCII, as no number word does.
func lowerASCII(buf *[maxNumberWord]byte, word string) ([]byte, bool) {
	if len(word) > len(buf) {
		return nil, false
	}
	for k := 0; k < len(word); k++ {
		c := word[k]
		switch {
		case c >= utf8.RuneSelf:
			return nil, false
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		buf[k] = c
	}
	return buf[:len(word)], true
}

// countWords returns the numbers a step writes in words that it would keep
// written in digits: ten and more ("eleven options", "twenty-four hours"),
// as the per-step reading drops smaller bare integers, which mostly count
// and list things in prose. A multiplier after a figure ("5.3 million") is
// part of that number; one with no number word before it ("a thousand of
// them", "a few million years") is an order of magnitude, not a count; and
// a capitalised word may be part of a name ("Ocean's Eleven"): none is
// read.
func countWords(text string) []wordNumber {
	var out []wordNumber
	for _, n := range wordNumberSpans(text) {
		if n.value < 10 || afterDigits(text, n.start) || !unicode.IsLower(rune(text[n.start])) || multiplierFirst(text[n.start:n.end]) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// multiplierFirst reports whether a number written in words opens with a
// multiplier ("thousand", "hundred and five"), not a number word.
func multiplierFirst(words string) bool {
	first, _, _ := strings.Cut(words, " ")
	_, ok := wordMultipliers[strings.ToLower(first)]
	return ok
}

// wordQuantity is a number written in words with its unit, text[start:end],
// and its normal form as the same quantity in digits would have.
type wordQuantity struct {
	start, end int
	norm       string
}

// wordQuantities returns the quantities a text writes with a number in
// words and a unit ("three feet", "twenty-four hours"): the unit makes the
// words a measure, as it does the digits of "3 feet", and the measure is
// the same value however its number is spelt. A capitalised number word
// may open a name, a multiplier after a figure is that figure's, one with
// no number word before it is an order of magnitude ("a few million
// years"), and a lone "one" is as often an article ("one day, we").
//
// An amount of money is read whole: "a hundred and twenty dollars" (an
// "a" before the multiplier, as money is counted exactly), "twenty-one
// pounds and fifty pence" (its hundredths after it, in words or digits).
func wordQuantities(text string) []wordQuantity {
	var out []wordQuantity
	for _, n := range wordNumberSpans(text) {
		if n.end >= len(text) || text[n.end] != ' ' || afterDigits(text, n.start) || text[n.start:n.end] == "one" {
			continue
		}
		start := n.start
		if multiplierFirst(text[n.start:n.end]) {
			// "a hundred and twenty dollars": money only (below).
			if n.start < 2 || !strings.EqualFold(text[n.start-2:n.start], "a ") || n.start > 2 && wordByte(text[n.start-3]) {
				continue
			}
			start = n.start - 2
		}
		if !unicode.IsLower(rune(text[start])) {
			continue
		}
		digits := strconv.FormatFloat(n.value, 'f', -1, 64)
		t := newText(digits + text[n.end:min(len(text), n.end+maxUnitTail)])
		ms := t.numbers(1)
		if len(ms) == 0 || ms[0].all.Start != 0 || ms[0].num.End != len(digits) || t.str(ms[0].unit) == "" || !standaloneNumber(t, ms[0], false) {
			continue
		}
		money := units[strings.ToLower(strings.TrimSpace(t.str(ms[0].unit)))] == ""
		if start != n.start && !money {
			continue
		}
		end := n.end + ms[0].all.End - len(digits)
		if money {
			if cents, to, ok := hundredths(text, end); ok {
				digits, end = strconv.FormatFloat(n.value+cents/100, 'f', -1, 64), to
				t = newText(digits)
				ms = t.numbers(1)
			}
		}
		if norm, ok := numberNorm(t, ms[0]); ok {
			out = append(out, wordQuantity{start: start, end: end, norm: norm})
		}
	}
	return out
}

// centsRe is the hundredths an amount of money in words writes after its
// unit: " and fifty pence", " and 5 cents", " 50p".
var centsRe = goPattern(`^,?\s{1,2}(?:and\s{1,2})?([a-z]+(?:-[a-z]+)?|\d{1,2})\s{0,2}(?:pence|p|cents?)\b`)

// hundredths reads the hundredths an amount of money writes at text[at:]
// (centsRe), and where they end.
func hundredths(text string, at int) (float64, int, bool) {
	m := centsRe.FindStringSubmatchIndex(text[at:min(len(text), at+maxUnitTail+16)])
	if m == nil {
		return 0, 0, false
	}
	w := text[at+m[2] : at+m[3]]
	v, err := strconv.Atoi(w)
	if err != nil {
		ns := wordNumberSpans(w)
		if len(ns) != 1 || ns[0].start != 0 || ns[0].end != len(w) {
			return 0, 0, false
		}
		v = int(ns[0].value)
	}
	if v < 1 || v > 99 {
		return 0, 0, false
	}
	return float64(v), at + m[1], true
}

// maxUnitTail is how much of the text after a number in words is read for
// its unit: more than the longest unit and the spaces before it.
const maxUnitTail = 24
