package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestPasses: a step that reports the checks it speaks of passed is
// marked where it says so; one that makes their passing a condition or
// an aim, asks whether they passed, denies it, reports failures by count
// or speaks of green as a colour is not, nor is a tool's own output.
func TestPasses(t *testing.T) {
	for _, tt := range []struct {
		text string
		kind run.Kind
		want string
	}{
		{"Thanks. Since the suite is green on 2.14.0-rc3, I'm approving it for release.", run.KindMessage, "suite is green"},
		{"Final Answer: All 14 tests pass. The fix is verified.", run.KindMessage, "All 14 tests pass"},
		{"CI is all green, merging now.", run.KindMessage, "CI is all green"},
		{"The tests have passed, so the change is ready.", run.KindMessage, "tests have passed"},
		{"Everything's green on main.", run.KindMessage, "Everything's green"},
		{"Approve it only if the test suite is green.", run.KindMessage, ""},
		{"I'll fix the rounding so that the tests pass.", run.KindMessage, ""},
		{"Let me rerun until the build is green again.", run.KindMessage, ""},
		{"The suite is not green: 3 tests failed.", run.KindMessage, ""},
		{"412 passed, 3 failed, 5 skipped.", run.KindMessage, ""},
		{"Paint the button green and ship it.", run.KindMessage, ""},
		{"All green corners have been found, along with all green that borders yellow.", run.KindMessage, ""},
		{"Reran the suite on rc4. All green.", run.KindMessage, "All green"},
		{"The suite is green.", run.KindToolResult, ""},
		{"Did all the tests pass on rc4?", run.KindMessage, ""},
		{"Is CI now green? I'd like to merge.", run.KindMessage, ""},
		{"Have the tests passed? Then ship it.", run.KindMessage, ""},
		{"The tests have passed; shall I merge?", run.KindMessage, "tests have passed"},
		{"DISCUSSION\nThe test run shows the suite passing and the transliteration works. I'll submit.", run.KindMessage, "shows the suite passing"},
		{"The output showed all 7 tests passed.", run.KindMessage, "showed all 7 tests passed"},
		{"I'll rerun it to show the tests pass.", run.KindMessage, ""},
		{"This change will show the suite passing.", run.KindMessage, ""},
		{"A good run would show the suite green.", run.KindMessage, ""},
		{"The log doesn't show the build passing yet.", run.KindMessage, ""},
	} {
		r := &run.Run{Question: "Ship the build?", Steps: []run.Step{{Index: 0, Agent: "assistant", Kind: tt.kind, Content: tt.text}}}
		got := ""
		if sp := Run(r).Steps[0].Passes; sp != nil {
			got = tt.text[sp.Offset : sp.Offset+sp.Len]
		}
		assert.Equal(t, tt.want, got, tt.text)
	}
}
