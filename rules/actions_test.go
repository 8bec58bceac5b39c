package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

var statusSeeds = []string{
	`{"status": "pending"}`, `{"Status":"Cancelled"}`, `"STATUS" : "x"`, `"ſtatuſ": "delivered"`,
	`"sTaTuS":"a"`, `status: pending`, `{"state": "CA"}`, `"status": ""`, "",
}

// sameStatus checks that mayReportStatus turns away only texts statusRe
// does not match.
func sameStatus(t *testing.T, s string) {
	if !mayReportStatus(s) {
		assert.Nil(t, statusRe.FindStringSubmatch(s), "%q", s)
	}
}

// TestStatusPrefilterIsNecessary checks the prefilter against the pattern
// on every dev message and a few hand-made ones.
func TestStatusPrefilterIsNecessary(t *testing.T) {
	for _, s := range withDevTexts(t, statusSeeds) {
		sameStatus(t, s)
	}
}

func FuzzMayReportStatus(f *testing.F) {
	for _, s := range statusSeeds {
		f.Add(s)
	}
	f.Fuzz(sameStatus)
}
