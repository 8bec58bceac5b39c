package extract

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestCallWordsBesideText: what a call that changes something writes (a
// memory it stores, a note) is stated by its step even when the step
// says something of its own beside it, as a step of calls alone states
// it; a lookup's query and a command line are not read so.
func TestCallWordsBesideText(t *testing.T) {
	tests := []struct {
		name, text string
		call       run.ToolCall
		date, day  string // a date claim and a day of a month the step should hold; "" for none
	}{
		{"memory write", "Saving the trip to memory.", run.ToolCall{ID: "c1", Name: "archival_memory_insert", Arguments: `{"content": "Flight TP 202 departs 2025-06-18 at 19:40."}`}, "2025-06-18", ""},
		{"a day without its year", "Dana shared the birthday.", run.ToolCall{ID: "c1", Name: "core_memory_append", Arguments: `{"label": "human", "content": "Daughter Maya, turns 7 on March 4."}`}, "", "03-04"},
		{"a lookup's query", "Looking it up.", run.ToolCall{ID: "c1", Name: "archival_memory_search", Arguments: `{"query": "flight on 2025-06-18 in June 18"}`}, "", ""},
		{"a command line", "Updating the year.", run.ToolCall{ID: "c1", Name: "bash", Arguments: `{"command": "echo 2025-06-18 June 18 >> notes.txt"}`}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Question: "Help me plan.", Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Help me plan."},
				{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: tt.text, Extra: &run.Extra{ToolCalls: []run.ToolCall{tt.call}}},
			}}
			f := Run(r).Steps[1]
			dated := slices.ContainsFunc(f.Claims, func(c Claim) bool { return c.Kind == ClaimDate && c.Norm == tt.date })
			assert.Equal(t, tt.date != "", dated, "claims %v", f.Claims)
			assert.Equal(t, tt.day != "", slices.Contains(f.MonthDays, tt.day), "days %v", f.MonthDays)
			for _, c := range f.Claims {
				assert.LessOrEqual(t, int(c.Offset), len(tt.text)+1+len(tt.call.Name)+1+len(tt.call.Arguments), "a claim is placed after the step's text")
			}
		})
	}
}

// TestScreenActionClaims: a step whose calls are actions on a screen
// states only the text they type; where they click, the operation and
// the keys pressed are no claims, whether the step writes words beside
// its calls or not.
func TestScreenActionClaims(t *testing.T) {
	tests := []struct {
		name, text string
		call       run.ToolCall
		want       []string // the claims' texts
	}{
		{"a click alone", "", run.ToolCall{ID: "c1", Name: "computer", Arguments: `{"button":"left","type":"click","x":640,"y":402}`}, nil},
		{"a screenshot alone", "", run.ToolCall{ID: "c1", Name: "computer", Arguments: `{"action":"screenshot"}`}, nil},
		{"a click tool", "", run.ToolCall{ID: "c1", Name: "click", Arguments: `{"x":96,"y":2440}`}, nil},
		{"text typed", "", run.ToolCall{ID: "c1", Name: "computer", Arguments: `{"text":"1520.00","type":"type"}`}, []string{"1520.00"}},
		{"a click beside words", "I'll open the order.", run.ToolCall{ID: "c1", Name: "computer", Arguments: `{"action":"left_click","coordinate":[5380,3220]}`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := run.Step{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: tt.text, Extra: &run.Extra{ToolCalls: []run.ToolCall{tt.call}}}
			if tt.text == "" {
				s.Content = tt.call.Name + "(" + tt.call.Arguments + ")"
			}
			r := &run.Run{Question: "Pay the bill of $1,250.00.", Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Pay the bill of $1,250.00."}, s,
			}}
			var got []string
			for _, c := range Run(r).Steps[1].Claims {
				got = append(got, c.Text)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestPointerFiguresAreNoClaims: the point a desktop agent's code clicks
// or drags at (pyautogui's pointer functions) is how it acts, no figure
// it states; what it types and the figures of its words are.
func TestPointerFiguresAreNoClaims(t *testing.T) {
	content := "D7 is selected. I'll enter the invoice total 3428.15.\n```python\nimport pyautogui, time\npyautogui.click(1185, 775)\ntime.sleep(0.5)\npyautogui.dragTo(x=640, y=360, duration=0.4)\npyautogui.typewrite('3428.15\\n')\n```"
	r := &run.Run{Question: "Copy the total due into D7.", Steps: []run.Step{
		{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Copy the total due into D7."},
		{Index: 1, Agent: "assistant", Kind: run.KindMessage, Content: content},
	}}
	var got []string
	for _, c := range Run(r).Steps[1].Claims {
		if c.Kind == ClaimNumber {
			got = append(got, c.Text)
		}
	}
	assert.Contains(t, got, "3428.15")
	for _, n := range []string{"1185", "775", "640", "360", "0.4"} {
		assert.NotContains(t, got, n)
	}
}

// TestLayoutFiguresAreNoClaims: the positions and sizes an accessibility
// tree prints of a screen's elements ("(560, 700)") are its layout, no
// figures it states; the values its elements show are, and so is a lone
// pair, which may be a value printed as a tuple.
func TestLayoutFiguresAreNoClaims(t *testing.T) {
	for _, tt := range []struct {
		name, content string
		want, not     []string
	}{
		{"a tree's positions and sizes",
			"tag\tname\tposition\tsize\nframe\tinvoice.pdf\t(0, 0)\t(1920, 1080)\nlabel\tTotal due: 3,482.15\t(560, 700)\t(220, 24)\npush-button\tSave\t(1335, 775)\t(80, 30)",
			[]string{"3,482.15"}, []string{"1920", "1080", "560", "700", "220", "1335", "775"}},
		{"a tuple a function returns", "Out: (1920, 1080)", []string{"1920", "1080"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Question: "Copy the total due.", Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Copy the total due."},
				{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: "screenshot()", Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "screenshot"}}}},
				{Index: 2, Agent: "tool", Kind: run.KindToolResult, Content: tt.content},
			}}
			var got []string
			for _, c := range Run(r).Steps[2].Claims {
				if c.Kind == ClaimNumber {
					got = append(got, c.Text)
				}
			}
			for _, n := range tt.want {
				assert.Contains(t, got, n)
			}
			for _, n := range tt.not {
				assert.NotContains(t, got, n)
			}
		})
	}
}

// TestImagesOnly: a tool's output that is nothing but the placeholders of
// the images it held shows an image; one with words beside them does not.
func TestImagesOnly(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"[image]", true},
		{" [computer_screenshot]\n", true},
		{"[input_image] [base64 data]", true},
		{"[image] The page shows Total: 12.50", false},
		{"Saved.", false},
		{"", false},
		{"[1886] button 'Save'", false},
	} {
		assert.Equal(t, tt.want, imagesOnly(tt.text), tt.text)
	}
}

// BenchmarkWithoutLayoutFigures reads an accessibility tree of many
// elements, each with its position and size as pairs and figures in its
// label, as a claim's figures beside the pairs: every claim is weighed
// against the pairs.
func BenchmarkWithoutLayoutFigures(b *testing.B) {
	for _, n := range []int{1000, 10000, 40000} {
		b.Run(fmt.Sprint("elements=", n), func(b *testing.B) {
			var sb strings.Builder
			for k := range n {
				fmt.Fprintf(&sb, "[%d] button 'Order %d, $%d.50' (%d, %d) (%d, %d)\n", k, 40000+k, k%900+10, k%1900, k%1000, 120, 32)
			}
			text := sb.String()
			var claims []Claim
			for k := range 4 * n {
				claims = append(claims, Claim{Kind: ClaimNumber, Offset: int32(k * len(text) / (4 * n))})
			}
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				withoutLayoutFigures(text, slices.Clone(claims))
			}
		})
	}
}
