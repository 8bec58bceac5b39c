package extract

import (
	"fmt"
	"strings"
	"testing"

	"github.com/offattr/offattr/run"
	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

// padded returns names with enough made-up keys added that newAgentSet
// indexes them; the added keys hold no digit.
func padded(names map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range names {
		out[k] = true
	}
	for i := 0; len(out) < indexedAgents; i++ {
		out["padname"+strings.Repeat("x", i)] = true
	}
	return out
}

// TestAgentSetIndexAgreesWithLoop holds the suffix-array lookups of a large
// set to the loop over its names that a small set does.
func TestAgentSetIndexAgreesWithLoop(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		word := rapid.StringMatching(`[a-c0-2 ]{0,6}`)
		names := map[string]bool{}
		for _, n := range rapid.SliceOfN(word, indexedAgents, 2*indexedAgents).Draw(t, "names") {
			names[n] = true
		}
		set := newAgentSet(names)
		piece := word.Draw(t, "piece")
		var ends, holds bool
		for n := range names {
			ends = ends || strings.HasSuffix(n, piece)
			holds = holds || strings.Contains(n, piece)
		}
		if len(names) >= indexedAgents {
			assert.NotNil(t, set.index)
		}
		assert.Equal(t, ends, set.endsAny(piece), "ends %q", piece)
		assert.Equal(t, holds, set.containsAny(piece), "holds %q", piece)
	})
}

func TestNilAgentSetHoldsNothing(t *testing.T) {
	var set *agentSet
	for _, p := range []string{"", "a"} {
		assert.False(t, set.has(p), fmt.Sprintf("has %q", p))
		assert.False(t, set.endsAny(p))
		assert.False(t, set.containsAny(p))
	}
}

// TestAddressedIndexAgreesWithSearch holds the one reading of a text that
// addressed does for a run of many agents to its search for each name.
func TestAddressedIndexAgreesWithSearch(t *testing.T) {
	words := []string{"to", "ask", "hey", "the", "@", ",", ":", " ", "  ", "ab", "Ab", "b", "a b", "(x)", "1", "-"}
	rapid.Check(t, func(t *rapid.T) {
		r := &run.Run{}
		for i := range rapid.IntRange(1, 2*indexedMentions).Draw(t, "agents") {
			name := strings.Join(rapid.SliceOfN(rapid.SampledFrom(words), 1, 3).Draw(t, "name"), "")
			if strings.TrimSpace(name) == "" {
				name = fmt.Sprintf("agent%d", i)
			}
			r.Steps = append(r.Steps, run.Step{Index: i, Agent: name})
		}
		rc := newRunContext(r)
		indexed := newMentionIndex(rc.lowers)
		text := strings.Join(rapid.SliceOfN(rapid.SampledFrom(append(words, rc.names...)), 0, 12).Draw(t, "text"), "")
		speaker := rapid.SampledFrom(rc.names).Draw(t, "speaker")
		rc.mentions = nil
		want := rc.addressed(newText(text), speaker)
		rc.mentions = indexed
		assert.Equal(t, want, rc.addressed(newText(text), speaker), "%q by %q among %q", text, speaker, rc.names)
	})
}
