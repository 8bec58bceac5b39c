package rules

import (
	"slices"
	"strings"

	"github.com/offattr/offattr/extract"
)

// convertedBefore reports whether a number claim is a figure the task or
// a step before i that f counts states in another unit of the same
// quantity, converted and rounded as the claim is written
// (extract.Claim.ConvertedFrom: "72 °F" for a tool's 22 °C): a figure
// told in another unit, not made up.
func (s *support) convertedBefore(c extract.Claim, i int, f from) bool {
	if c.Kind != extract.ClaimNumber {
		return false
	}
	if slices.ContainsFunc(s.features.Question, c.ConvertedFrom) {
		return true
	}
	for j := range min(i, len(s.features.Steps)) {
		if s.counts(j, f) && slices.ContainsFunc(s.features.Steps[j].Claims, c.ConvertedFrom) {
			return true
		}
	}
	return false
}

// convertedHeld reports whether v is a figure step i writes that a figure
// of the task or of a step before i, in another unit of the same
// quantity, converts to (convertedBefore).
func convertedHeld(in *Input, v string, i int) bool {
	sup := in.supportIndex()
	for _, c := range in.Features.Steps[i].Claims {
		if c.Kind == extract.ClaimNumber && strings.EqualFold(c.Norm, v) && sup.convertedBefore(c, i, from{}) {
			return true
		}
	}
	return false
}
