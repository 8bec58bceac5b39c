package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOfferedChoices(t *testing.T) {
	menu := "ChatDev has made products in the following form before: Image, Document, PowerPoint, Excel, PDF, Website, Application, Dashboard, Mind Map. As the Chief Product Officer, which product modality do you think we should take?"
	for _, tc := range []struct {
		name string
		text string
		want []string
	}{
		{"a menu and a question which", menu, []string{"Image", "Mind Map"}},
		{"a list stated, no question", "We visited Paris, Lyon, Nice and Lille last year.", nil},
		{"a list and another question", "We visited Paris, Lyon, Nice, Lille. Did you like it?", nil},
		{"too few names", "Pick Paris, Lyon or Nice. Which one?", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, sp := range offeredChoices(tc.text) {
				got = append(got, tc.text[sp.Start:sp.End])
			}
			if tc.want == nil {
				assert.Empty(t, got)
				return
			}
			if assert.Len(t, got, 1) {
				assert.Contains(t, got[0], tc.want[0])
				assert.Contains(t, got[0], tc.want[1])
			}
		})
	}
}

func TestMarkupTagsAreNoClaims(t *testing.T) {
	for _, tc := range []struct {
		text string
		tags int
	}{
		{"<INFO> Python", 1},
		{"<Comment> The check is wrong.</Comment>", 2},
		{"a < b and c > d", 0},
		{"x <br/> y", 1},
	} {
		t.Run(tc.text, func(t *testing.T) {
			assert.Len(t, markupTags(tc.text), tc.tags)
		})
	}
	for _, c := range Claims("<INFO> Application") {
		assert.NotEqual(t, "info", c.Norm, "a protocol's tag is no name")
	}
}

func TestRejectedNumbers(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"The rate is wrong: SAVE10 should map to 0.10, not 0.01.", []string{"0.01"}},
		{"It should be 41 rather than 39, and 70 instead of 90.", []string{"39", "90"}},
		{"The total is 206. It should be 216.", nil},
	} {
		t.Run(tc.text, func(t *testing.T) {
			assert.Equal(t, tc.want, rejectedNumbers(newText(tc.text), nil))
		})
	}
}
