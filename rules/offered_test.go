package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// The names a step lists for another to choose among, and the markup
// tag the answer is given in, are no values a step made up: the pick
// that follows builds on the offer, and nothing in it is a claim.
func TestOfferedChoicesAreNoClaims(t *testing.T) {
	in := prepare(t, "Develop a shipping fee calculator.", "",
		msg{agent: "User", content: "Develop a shipping fee calculator.", kind: run.KindUser},
		msg{agent: "Chief Executive Officer", content: "ChatDev has made products in the following form before: Image, Document, PowerPoint, Excel, PDF, Website, Application, Dashboard, Mind Map. As the Chief Product Officer, to satisfy the new user's demand, which product modality do you think we should take?"},
		msg{agent: "Chief Product Officer", content: "<INFO> Application"},
		msg{agent: "Chief Executive Officer", content: "We decided to make an Application. Which programming language should we use?"},
		msg{agent: "Chief Technology Officer", content: "<INFO> Python"},
		msg{agent: "Programmer", content: "Python code for the Application follows; <INFO> Finished"},
	)
	got := steps(unsupportedClaim(in), true)
	assert.NotContains(t, got, 1, "the modalities are offered, not stated")
	assert.NotContains(t, got, 2, "the pick is one of those offered, in a tag")
}
