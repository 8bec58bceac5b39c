package extract

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// computedRe finds what an arithmetic expression comes to: a number, an
// operator, and after an "=" on the same line the number it comes to
// ("2,620 x 4 = 10,480", "45 + 23 = 68"), or after an "≈" the number
// it comes to near enough ("2.45 / 1.5 ≈ 1.633"). An assignment ("RATE = 1.30")
// has no operator before its "=", and states a figure rather than
// working one out.
var computedRe = pattern(`(?:√\d[\d,.]{0,20}\s{0,3}|\d[\d,.]{0,20}\s{0,3}(?:[x×*/÷·⋅+−^-]|times|plus|minus|divided by|mod)\s{0,3}[^=≈\n]{0,80}?)[=≈]\s{0,3}[$€£]?(?<r>\d[\d,]{0,20}(?:\.\d{1,12})?)`, ci)

// computes returns the values of the claims (Claim.Value) that stand
// where a match of computedRe ends: the figures the step worked out.
func computes(t *text, claims []Claim) []string {
	var out []string
	for _, m := range t.all(computedRe, 0) {
		r := m.Group("r")
		for _, c := range claims {
			if c.Kind != ClaimNumber || int(c.Offset) > r.Start || int(c.Offset)+len(c.Text) < r.End {
				continue
			}
			v, _ := c.Value()
			out = appendNew(out, v)
			break
		}
	}
	return out
}

// miscomputes reports whether text writes an arithmetic expression of
// numbers that does not come to the number it writes after its "="
// ("24 + 15 = 38", "4 x 12 = 46"): a slip in the step's own arithmetic.
// Only expressions of bare numbers and the four operations are read
// (multiplication written x, ×, * or ·, division / or ÷, and a
// remainder, mod, binding as division does; each operation binding as
// in arithmetic: an operation not read would cut the expression short
// and its tail be taken for the whole), and a result may be
// rounded to the places it is written with; anything else (a unit, a
// percentage, a name between the figures) is read as no expression.
func miscomputes(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		// Each "=" with what comes before it (back to the previous one)
		// and after it (up to the next).
		from := 0
		for {
			e := strings.IndexByte(line[from:], '=')
			if e < 0 {
				break
			}
			e += from
			before, after := line[from:e], line[e+1:]
			if k := strings.IndexByte(after, '='); k >= 0 {
				after = after[:k]
			}
			from = e + 1
			if !endsWithDigit(before) || !startsWithFigure(after) {
				continue // an expression ends with a number, and a number follows
			}
			got, ok := evalTail(before)
			if !ok {
				continue
			}
			want, places, ok := leadingNumber(after)
			if !ok {
				continue
			}
			if math.Abs(got-want) > 0.5*math.Pow(10, -float64(places))+1e-9*math.Abs(want) {
				return true
			}
		}
	}
	return false
}

// endsWithDigit reports whether s ends with a digit, spaces aside (as
// strings.Fields reads them for evalTail).
func endsWithDigit(s string) bool {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	return s != "" && isDigit(s[len(s)-1])
}

// startsWithFigure reports whether s begins with a digit or a currency
// sign, spaces aside (as leadingNumberRe reads them).
func startsWithFigure(s string) bool {
	s = strings.TrimLeft(s, " \t\n\f\r")
	return s != "" && (isDigit(s[0]) || strings.HasPrefix(s, "$") || strings.HasPrefix(s, "€") || strings.HasPrefix(s, "£"))
}

// arithToken is a number or an operation of an expression.
var arithToken = goPattern(`^\s*(?:[$€£]\s?)?(√?\d[\d,]*(?:\.\d+)?)\s*$|^\s*([x×*/÷·⋅+−^-]|mod)\s*$`)

// evalTail evaluates the expression s ends with: the longest run of
// numbers and operations at its end with at least one operation (or a
// root alone), or reports false. A power binds before the rest.
func evalTail(s string) (float64, bool) {
	fields := strings.Fields(spaceOperators(s))
	start := len(fields)
	for start > 0 && arithToken.MatchString(fields[start-1]) {
		start--
	}
	expr := fields[start:]
	// It begins and ends with a number, and alternates.
	for len(expr) > 0 && !isArithNumber(expr[0]) {
		expr = expr[1:]
	}
	// A root alone is an expression ("√144 = 12").
	if len(expr)%2 == 0 || len(expr) == 1 && !strings.HasPrefix(strings.TrimLeft(expr[0], "$€£"), "√") {
		return 0, false
	}
	var nums []float64
	var ops []string
	for i, f := range expr {
		if i%2 == 0 {
			x, ok := arithNumber(f)
			if !ok {
				return 0, false
			}
			nums = append(nums, x)
		} else {
			if isArithNumber(f) {
				return 0, false
			}
			ops = append(ops, f)
		}
	}
	// Powers first, from the right ("2^3^2" is 2^9).
	for i := len(ops) - 1; i >= 0; i-- {
		if ops[i] == "^" {
			nums[i] = math.Pow(nums[i], nums[i+1])
			nums = slices.Delete(nums, i+1, i+2)
			ops = slices.Delete(ops, i, i+1)
		}
	}
	for _, x := range nums {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return 0, false
		}
	}
	// Multiplication and division first, then addition and subtraction.
	terms, signs := []float64{nums[0]}, []string{}
	for i, op := range ops {
		switch op {
		case "x", "×", "*", "·", "⋅":
			terms[len(terms)-1] *= nums[i+1]
		case "mod":
			if nums[i+1] == 0 {
				return 0, false
			}
			terms[len(terms)-1] = math.Mod(terms[len(terms)-1], nums[i+1])
		case "/", "÷":
			if nums[i+1] == 0 {
				return 0, false
			}
			terms[len(terms)-1] /= nums[i+1]
		default:
			terms, signs = append(terms, nums[i+1]), append(signs, op)
		}
	}
	sum := terms[0]
	for i, sg := range signs {
		if sg == "+" {
			sum += terms[i+1]
		} else {
			sum -= terms[i+1]
		}
	}
	return sum, true
}

// spaceOperators writes a space around each operation between figures
// ("9/5", "10x1.50"), so that each is a field of its own.
func spaceOperators(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range arithOperator.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		b.WriteString(s[m[2]:m[3]] + " " + s[m[4]:m[5]] + " ")
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

var arithOperator = goPattern(`(\d)\s*([×*/÷·⋅+−^]|x\b)`)

func isArithNumber(f string) bool {
	f = strings.TrimPrefix(strings.TrimLeft(f, "$€£"), "√")
	return f != "" && f[0] >= '0' && f[0] <= '9'
}

// arithNumber is the value of a number of an expression: a figure, after
// a currency sign, or a root of one ("√144").
func arithNumber(f string) (float64, bool) {
	if !isArithNumber(f) {
		return 0, false
	}
	f = strings.ReplaceAll(strings.TrimLeft(f, "$€£"), ",", "")
	root := strings.HasPrefix(f, "√")
	x, err := strconv.ParseFloat(strings.TrimPrefix(f, "√"), 64)
	if err != nil {
		return 0, false
	}
	if root {
		x = math.Sqrt(x)
	}
	return x, true
}

// leadingNumber reads the number s begins with (after a currency sign),
// and the decimal places it is written with.
func leadingNumber(s string) (float64, int, bool) {
	m := leadingNumberRe.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, false
	}
	x, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
	if err != nil {
		return 0, 0, false
	}
	places := 0
	if k := strings.IndexByte(m[1], '.'); k >= 0 {
		places = len(m[1]) - k - 1
	}
	return x, places, true
}

var leadingNumberRe = goPattern(`^\s*(?:[$€£]\s?)?(\d[\d,]*(?:\.\d+)?)(?:[^\d.,]|[.,](?:\D|$)|$)`)
