package graph

import (
	"fmt"
	"slices"
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
		// A rate the task gives in percent is given as the fraction a
		// design or code writes for it (VAT_RATE = 0.19 for 19 percent).
		if f, ok := c.Fraction(); ok {
			given[claimKey(f)] = true
		}
	}
	question := strings.ToLower(b.r.Question)
	// Every step's distinct claims by number, in one array: step i's are
	// id[at[i]:at[i+1]]. Each distinct claim is numbered in the order
	// met; keys[k] is claim k's key and count[k] its steps. Only the
	// numbers are kept of each step's claims: a long run states millions.
	var step []claimRef // one step's claims, reused
	id := make([]int32, 0, claimCount(b.f))
	at := make([]int32, b.n+1)
	ids := map[string]int{}
	var (
		keys  []string
		count []int32
	)
	for i := 0; i < b.n; i++ {
		if i%256 == 0 && b.ctx.Err() != nil {
			return // BuildContext reports it
		}
		step = appendStepClaims(step[:0], b.f, i)
		for _, c := range step {
			k, ok := ids[c.key]
			if !ok {
				k = len(count)
				ids[c.key] = k
				keys = append(keys, c.key)
				count = append(count, 0)
			}
			id = append(id, int32(k))
			count[k]++
			if !given[c.key] && containsWord(question, strings.ToLower(c.text)) {
				given[c.key] = true
			}
		}
		at[i+1] = int32(len(id))
	}
	occ := occurrences(at, id, count)
	b.claimKeys = keys
	// The final answer's claims are read from the index now: it is not
	// kept while the other finders run.
	b.answer = answerIn(b.f, claimIndex{claimID: ids, claimOcc: occ, given: given})
	limit := max(ubiquityMin, int(ubiquityShare*float64(b.n)))
	skip := make([]bool, len(count))
	for key, k := range ids {
		skip[k] = given[key] || int(count[k]) > limit || trivial(key)
	}

	// A step's data edges, one per producer in the order met; edgeAt[p] is
	// 1 + the position of producer p's edge among them, 0 when it has none.
	var drawn []edge
	var claims [][]int32 // claims[d] holds drawn[d]'s claims, by number; reused step to step
	var producers []int
	edgeAt := make([]int32, b.n)
	for i := 0; i < b.n; i++ {
		if i%256 == 0 && b.ctx.Err() != nil {
			return
		}
		drawn, producers = drawn[:0], producers[:0]
		for _, k := range id[at[i]:at[i+1]] {
			p := occ.first(int(k))
			if p == i || skip[k] {
				continue
			}
			if edgeAt[p] == 0 {
				drawn = append(drawn, stepEdge(p, i, Data))
				producers = append(producers, p)
				edgeAt[p] = int32(len(drawn))
				if len(claims) < len(drawn) {
					claims = append(claims, nil)
				}
				claims[len(drawn)-1] = claims[len(drawn)-1][:0]
			}
			d := edgeAt[p] - 1
			claims[d] = append(claims[d], k)
		}
		for k, e := range drawn {
			e.claimAt, e.claimN = int32(len(b.edgeClaims)), int32(len(claims[k]))
			b.edgeClaims = append(b.edgeClaims, claims[k]...)
			b.add(e, "")
			edgeAt[producers[k]] = 0
		}
	}
}

// claimSteps lists the steps stating each claim, ascending: claim k's are
// steps[at[k]:at[k+1]]. One array for every claim: a list for each was
// much of what finding data held.
type claimSteps struct {
	at, steps []int32
}

// of returns the steps stating claim k, ascending.
func (c claimSteps) of(k int) []int32 { return c.steps[c.at[k]:c.at[k+1]] }

// first returns the first step stating claim k.
func (c claimSteps) first(k int) int { return int(c.steps[c.at[k]]) }

// occurrences lists the steps stating each claim. Step i states the claims
// numbered id[at[i]:at[i+1]], and claim k is stated count[k] times.
func occurrences(at, id, count []int32) claimSteps {
	occ := claimSteps{at: make([]int32, len(count)+1), steps: make([]int32, len(id))}
	for k, n := range count {
		occ.at[k+1] = occ.at[k] + n
	}
	next := slices.Clone(occ.at[:len(count)])
	for i := 0; i+1 < len(at); i++ {
		for _, k := range id[at[i]:at[i+1]] {
			occ.steps[next[k]] = int32(i)
			next[k]++
		}
	}
	return occ
}

// claimCount is the most distinct claims the steps of f can state.
func claimCount(f *extract.RunFeatures) int {
	n := 0
	for i := range f.Steps {
		n += len(f.Steps[i].Claims)
	}
	if fa := f.FinalAnswer; fa != nil {
		n += len(fa.Claims)
	}
	return n
}

// trivial reports whether a claim is a single digit: list numbering, "1
// adult", "step 2". Such a match says nothing about where a value came from.
func trivial(key string) bool {
	return len(key) == 1 && key[0] >= '0' && key[0] <= '9'
}

// appendClaims appends the keys of data edge e's claims to keys.
func (g *Graph) appendClaims(keys []string, e *edge) []string {
	for _, k := range g.edgeClaims[e.claimAt : e.claimAt+e.claimN] {
		keys = append(keys, g.claimKeys[k])
	}
	return keys
}

// dataEvidence is a data edge's evidence: the first of its claims as the
// step it points to states them, quoted. It is made when the edge is
// asked for: a long run has a data edge for most steps, and the rules
// read their claims, not their evidence.
func (g *Graph) dataEvidence(e *edge) string {
	claims := g.edgeClaims[e.claimAt : e.claimAt+e.claimN]
	var b strings.Builder
	b.WriteString("claims ")
	// The edge's claims are the step's distinct claims drawn from one
	// producer, in the step's order: a subsequence of them.
	j := 0
	for _, c := range stepClaims(g.f, int(e.to)) {
		if j == min(len(claims), maxEvidenceClaims) {
			break
		}
		if c.key != g.claimKeys[claims[j]] {
			continue
		}
		if j > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(quote(c.text, 40)))
		j++
	}
	if n := len(claims) - maxEvidenceClaims; n > 0 {
		fmt.Fprintf(&b, " (+%d more)", n)
	}
	return b.String()
}

// stepClaims returns the distinct claims of step i; the final answer's own
// claims count as stated at its step.
func stepClaims(f *extract.RunFeatures, i int) []claimRef {
	return appendStepClaims(nil, f, i)
}

// appendStepClaims appends the distinct claims of step i to dst.
func appendStepClaims(dst []claimRef, f *extract.RunFeatures, i int) []claimRef {
	claims := f.Steps[i].Claims
	if fa := f.FinalAnswer; fa != nil && fa.Step == i && len(fa.Claims) > 0 {
		claims = append(append([]extract.Claim(nil), claims...), fa.Claims...)
	}
	return appendDistinctClaims(dst, claims)
}

func distinctClaims(claims []extract.Claim) []claimRef {
	return appendDistinctClaims(nil, claims)
}

// appendDistinctClaims appends to dst the first claim of each non-empty key
// in claims, in order. A step states a handful of claims (extract keeps at
// most a few hundred): they are told apart by scanning the ones kept.
func appendDistinctClaims(dst []claimRef, claims []extract.Claim) []claimRef {
	start := len(dst)
	for _, c := range claims {
		k := claimKey(c)
		if k == "" || slices.ContainsFunc(dst[start:], func(r claimRef) bool { return r.key == k }) {
			continue
		}
		dst = append(dst, claimRef{key: k, text: c.Text})
	}
	return dst
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
