package extract

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestReplyWordValues: the reply to a user's one question states its
// value in words claimsOf does not read (a common noun, a name with
// initials, a version, a small count in digits); the answer holds it when
// no earlier step does, or a page printed it only beside another answer;
// when a page gave it, the answer holds it with the steps that did,
// without a ground truth (a count, never); and not at all when the task
// states it, the reply is about the speaker, or the task asks for work
// rather than a thing.
func TestReplyWordValues(t *testing.T) {
	empty := "No results found."
	tests := []struct {
		name  string
		pairs []string
		want  []string
	}{
		{"a common noun made up", []string{"user", "Which element has atomic number 6?", "tool", empty, "assistant", "The element is nitrogen."}, []string{"nitrogen"}},
		{"a noun phrase after a possessive", []string{"user", "What is the national animal of Scotland?", "tool", "[]", "assistant", "Scotland's national animal is the red deer."}, []string{"red deer"}},
		{"a bare reply", []string{"user", "What is the state bird of Ohio?", "tool", empty, "assistant", "blue jay"}, []string{"blue jay"}},
		{"the subject when the rest restates the task", []string{"user", "Which metal is liquid at room temperature?", "tool", empty, "assistant", "gallium is the metal that is liquid at room temperature."}, []string{"gallium"}},
		{"a noun the page printed", []string{"user", "What is the most abundant gas in the air?", "tool", "Dry air holds 78% nitrogen and 21% oxygen.", "assistant", "The most abundant gas is oxygen."}, []string{"oxygen seen [1]"}},
		{"a plural the page printed", []string{"user", "What do koalas eat?", "tool", "Koalas feed on the leaves of gum trees.", "assistant", "They eat the leaves of the gum tree."}, nil},
		{"a value the page gave, then described", []string{"user", "What is the main language of Brazil?", "tool", "Portuguese is the official language of Brazil.", "assistant", "Portuguese, the country's official tongue."}, nil},
		{"a possessive of the task's subject", []string{"user", "What is the national animal of Scotland?", "tool", "Scotland's national animal is the unicorn.", "assistant", "Scotland's national animal is the unicorn."}, []string{"unicorn seen [1]"}},
		{"a value from a page's sentence about another thing", []string{"user", "What is the longest bone in the human body?", "tool", "The femur is the longest bone in the human body. The stapes is the smallest bone.", "assistant", "The longest bone is the stapes."}, []string{"stapes"}},
		{"a value from the page's sentence that answers", []string{"user", "What is the smallest bone in the human body?", "tool", "The femur is the longest bone in the human body. The stapes is the smallest bone.", "assistant", "The smallest bone is the stapes."}, []string{"stapes seen [1]"}},
		{"a symbol from a page's sentence about another element", []string{"user", "What is the chemical symbol of silver?", "tool", "Silver is a chemical element with the symbol Ag. Gold has the symbol Au.", "assistant", "Au"}, []string{"au"}},
		{"a noun made up, then described", []string{"user", "What is the main ingredient of guacamole?", "tool", empty, "assistant", "The main ingredient of guacamole is avocado, usually mashed with lime."}, []string{"avocado"}},
		{"a colour made up, then set against another", []string{"user", "What colour is a ripe lime?", "tool", empty, "assistant", "A ripe lime is yellow, not green as most people assume."}, []string{"yellow"}},
		{"a version a page listed beside the one it marked as asked", []string{"user", "What is the latest release of Pelican?", "tool", "Pelican 4.9.1 (latest) was released in 2024; Pelican 4.8.0 (LTS) remains supported.", "assistant", "The latest release of Pelican is 4.8.0."}, []string{"pelican", "4.8.0"}},
		{"a version among a record's releases beside its version", []string{"user", "What is the latest release of numpy?", "tool", `{"info": {"name": "numpy", "version": "2.1.3"}, "releases": ["2.0.2", "2.1.0", "2.1.3"]}`, "assistant", "The latest numpy release is 2.1.0."}, []string{"2.1.0"}},
		{"a version the page marked as asked", []string{"user", "Which version of Tern is the LTS release?", "tool", "Tern releases: v2.3 (latest) … v2.1 (LTS) … v1.9 (deprecated).", "assistant", "The LTS release of Tern is v2.1."}, []string{"lts", "tern", "v2.1 seen [1]"}},
		{"a version listed beside others none marked", []string{"user", "What is the latest release of Pelican?", "tool", "Pelican releases: 4.9.1, 4.8.0, 4.7.2.", "assistant", "The latest release of Pelican is 4.9.1."}, []string{"pelican", "4.9.1 seen [1]"}},
		{"a name with initials", []string{"user", "Who wrote The Hobbit?", "tool", "The Hobbit is a novel by J. R. R. Tolkien.", "assistant", "It was written by C. S. Lewis."}, []string{"c. s. lewis"}},
		{"a name with initials the page printed", []string{"user", "Who wrote The Hobbit?", "tool", "The Hobbit is a novel by J. R. R. Tolkien.", "assistant", "It was written by J. R. R. Tolkien."}, []string{"j. r. r. tolkien seen [1]"}},
		{"a version", []string{"user", "What is the current LTS of Node.js?", "tool", "The latest LTS release is v22.11.0.", "assistant", "The current LTS is Node.js 20.18.1."}, []string{"lts", "node", "20.18.1"}},
		{"a small count", []string{"user", "How many moons does Mars have?", "tool", "Mars has two moons.", "assistant", "Mars has 3 moons."}, []string{"3"}},
		{"a small count the page wrote in words", []string{"user", "How many moons does Mars have?", "tool", "Mars has two moons.", "assistant", "Mars has 2 moons."}, nil},
		{"a noun the page printed, with a ground truth", []string{"user", "What is the most abundant gas in the air?", "tool", "Dry air holds 78% nitrogen and 21% oxygen.", "assistant", "The most abundant gas is oxygen.", "truth", "nitrogen"}, nil},
		{"a reply about the speaker", []string{"user", "What is the weather in Oslo?", "tool", empty, "assistant", "I recommend checking a local weather service."}, nil},
		{"a reply to a request", []string{"user", "Fix the failing test in utils.py.", "tool", "1 passed", "assistant", "Fixed: the final partial chunk is kept."}, nil},
		{"a reply closing on a value the task gave", []string{"user", "Which is longer? Nile 6650 km or Amazon 6400 km.", "assistant", "The longest river in the list is the Nile."}, []string{"nile"}},
		{"a reply in JSON", []string{"user", "What is 1+1?", "assistant", `{"answer": "2", "rationale": "a basic arithmetic addition"}`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			pairs := tt.pairs
			r := chat(pairs...)
			if n := len(pairs); pairs[n-2] == "truth" {
				r = chat(pairs[:n-2]...)
				r.GroundTruth = pairs[n-1]
			}
			r.Question = pairs[1]
			for i := range r.Steps {
				if r.Steps[i].Agent == "tool" {
					r.Steps[i].Kind = run.KindToolResult
				}
			}
			if fa := Run(r).FinalAnswer; fa != nil {
				for _, c := range fa.Claims {
					if seen, ok := fa.Seen[c.Norm]; ok {
						got = append(got, fmt.Sprint(c.Norm, " seen ", seen))
						continue
					}
					got = append(got, c.Norm)
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
