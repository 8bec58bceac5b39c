package extract

// computedRe finds what an arithmetic expression comes to: a number, an
// operator, and after an "=" on the same line the number it comes to
// ("2,620 x 4 = 10,480", "45 + 23 = 68"). An assignment ("RATE = 1.30")
// has no operator before its "=", and states a figure rather than
// working one out.
var computedRe = pattern(`\d[\d,.]{0,20}\s{0,3}(?:[x×*/+−-]|times|plus|minus|divided by)\s{0,3}[^=\n]{0,80}?=\s{0,3}[$€£]?(?<r>\d[\d,]{0,20}(?:\.\d{1,12})?)`, ci)

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
