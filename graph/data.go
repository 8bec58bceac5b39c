package graph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/offattr/offattr/extract"
)

const (
	// A claim stated in more than max(ubiquityMin, ubiquityShare × steps)
	// steps is ubiquitous (a site name, a unit, the year) and draws no data
	// edges: it would link everything to everything and say nothing.
	ubiquityMin   = 12
	ubiquityShare = 0.2
	// maxEvidenceClaims caps the claims quoted in a data edge's evidence.
	maxEvidenceClaims = 3
)

// claimRef is one distinct claim of a step.
type claimRef struct {
	key  string
	text string
}

// addData draws data edges through an index from each normalised claim to
// the step that first states it: a later step stating the same claim gets
// an edge from that first step. The cost is linear in the number of claims.
// Claims the question already states were not produced by the run and are
// skipped, as are ubiquitous and trivial ones.
func (b *builder) addData() {
	given := map[string]bool{}
	for _, c := range b.f.Question {
		given[claimKey(c)] = true
	}
	question := strings.ToLower(b.r.Question)
	perStep := make([][]claimRef, b.n)
	occ := map[string][]int{}
	for i := 0; i < b.n; i++ {
		if i%256 == 0 && b.ctx.Err() != nil {
			return // BuildContext reports it
		}
		perStep[i] = stepClaims(b.f, i)
		for _, c := range perStep[i] {
			occ[c.key] = append(occ[c.key], i)
			if !given[c.key] && containsWord(question, strings.ToLower(c.text)) {
				given[c.key] = true
			}
		}
	}
	limit := max(ubiquityMin, int(ubiquityShare*float64(b.n)))
	b.state.claimOcc, b.state.given = occ, given
	skip := func(key string, steps []int) bool {
		return given[key] || len(steps) > limit || trivial(key)
	}

	for i := 0; i < b.n; i++ {
		if i%256 == 0 && b.ctx.Err() != nil {
			return
		}
		var pairs []int           // producers of this step's claims, in order met
		byFrom := map[int]*Edge{} // producer → edge being filled
		for _, c := range perStep[i] {
			steps := occ[c.key]
			if steps[0] == i || skip(c.key, steps) {
				continue
			}
			p := steps[0]
			e, ok := byFrom[p]
			if !ok {
				e = &Edge{From: stepID(p), To: stepID(i), Type: Data}
				byFrom[p] = e
				pairs = append(pairs, p)
			}
			e.Claims = append(e.Claims, c.key)
			if len(e.Claims) <= maxEvidenceClaims {
				e.Evidence = joinEvidence(e.Evidence, c.text)
			}
		}
		for _, p := range pairs {
			e := byFrom[p]
			if n := len(e.Claims) - maxEvidenceClaims; n > 0 {
				e.Evidence += fmt.Sprintf(" (+%d more)", n)
			}
			b.add(*e)
		}
	}
}

// trivial reports whether a claim is a single digit: list numbering, "1
// adult", "step 2". Such a match says nothing about where a value came from.
func trivial(key string) bool {
	return len(key) == 1 && key[0] >= '0' && key[0] <= '9'
}

func joinEvidence(ev, text string) string {
	q := strconv.Quote(quote(text, 40))
	if ev == "" {
		return "claims " + q
	}
	return ev + ", " + q
}

// stepClaims returns the distinct claims of step i; the final answer's own
// claims count as stated at its step.
func stepClaims(f *extract.RunFeatures, i int) []claimRef {
	claims := f.Steps[i].Claims
	if fa := f.FinalAnswer; fa != nil && fa.Step == i && len(fa.Claims) > 0 {
		claims = append(append([]extract.Claim(nil), claims...), fa.Claims...)
	}
	return distinctClaims(claims)
}

func distinctClaims(claims []extract.Claim) []claimRef {
	var out []claimRef
	// A step states a handful of claims: they are told apart by scanning
	// the ones kept, and only a long list pays for a map.
	var seen map[string]bool
	for _, c := range claims {
		k := claimKey(c)
		if k == "" || kept(out, seen, k) {
			continue
		}
		out = append(out, claimRef{key: k, text: c.Text})
		switch {
		case seen != nil:
			seen[k] = true
		case len(out) > maxScannedClaims:
			seen = make(map[string]bool, 2*len(out))
			for _, r := range out {
				seen[r.key] = true
			}
		}
	}
	return out
}

// maxScannedClaims is the most claims distinctClaims compares one by one.
const maxScannedClaims = 16

// kept reports whether key is among the claims kept so far: in seen once
// there is one, by a scan of out before.
func kept(out []claimRef, seen map[string]bool, key string) bool {
	if seen != nil {
		return seen[key]
	}
	for _, r := range out {
		if r.key == key {
			return true
		}
	}
	return false
}

// claimKey is the index key of a claim: extract's normal form, which already
// makes equal values equal ("1,234" = "1234"), folded for case.
func claimKey(c extract.Claim) string {
	k := c.Norm
	if k == "" {
		k = c.Text
	}
	return strings.ToLower(strings.TrimSpace(k))
}

// containsWord reports whether needle occurs in hay not glued to other
// letters or digits, so that "23" is not found in "2023".
func containsWord(hay, needle string) bool {
	if needle == "" {
		return false
	}
	for off := 0; ; {
		k := strings.Index(hay[off:], needle)
		if k < 0 {
			return false
		}
		start, end := off+k, off+k+len(needle)
		if (start == 0 || !isWordByte(hay[start-1])) && (end == len(hay) || !isWordByte(hay[end])) {
			return true
		}
		off = start + 1
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
