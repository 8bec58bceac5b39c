package run_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestScreenObservations: the user turns a harness writes under one
// heading to show the agent its screen are the results of the agent's
// actions; where the first of them opens the chat, the task is the one
// the system prompt states on its labelled line. A user's own later
// message, and a heading written once, stay the user's.
func TestScreenObservations(t *testing.T) {
	type msg struct{ Role, Content string }
	body := func(msgs ...msg) []byte {
		var out []map[string]string
		for _, m := range msgs {
			out = append(out, map[string]string{"role": m.Role, "content": m.Content})
		}
		b, err := json.Marshal(map[string]any{"messages": out})
		require.NoError(t, err)
		return b
	}
	tree := "Given the screenshot and info from accessibility tree as below:\ntag\tname\tposition\nframe\treport.odt\t(0, 0)"
	system := "You perform desktop tasks.\nYou are asked to complete the following task: Export report.odt as PDF."
	for _, tt := range []struct {
		name  string
		msgs  []msg
		task  string
		kinds []run.Kind
	}{
		{"a tree after each action, the task in the system prompt",
			[]msg{{"system", system}, {"user", tree}, {"assistant", "```python\npyautogui.click(10, 30)\n```"}, {"user", tree + "\nmenu\tFile\t(10, 30)"}, {"assistant", "```DONE```"}},
			"Export report.odt as PDF.",
			[]run.Kind{run.KindSystem, run.KindUser, run.KindMessage, run.KindToolResult, run.KindMessage}},
		{"a screen's text after a task turn",
			[]msg{{"user", "Send the draft to Priya."}, {"user", "Screen text (OCR): Inbox Drafts (2)"}, {"assistant", "I'll open Drafts.\n```python\nclick(40, 80)\n```"}, {"user", "Screen text (OCR): Drafts Q4 venue deposit"}, {"assistant", "Sent."}},
			"Send the draft to Priya.",
			[]run.Kind{run.KindUser, run.KindUser, run.KindMessage, run.KindToolResult, run.KindMessage}},
		{"a screen after words that act on nothing",
			[]msg{{"user", "Send the draft to Priya."}, {"user", "Screen text (OCR): Inbox Drafts (2)"}, {"assistant", "Open the Drafts folder."}, {"user", "Screen text (OCR): Drafts Q4 venue deposit"}},
			"Send the draft to Priya.",
			[]run.Kind{run.KindUser, run.KindUser, run.KindMessage, run.KindUser}},
		{"a harness's state under a bracketed heading",
			[]msg{{"user", "Find the tent's price."}, {"user", "[Current state starts here]\nCurrent url: about:blank"}, {"assistant", "```json\n{\"go_to_url\": \"shop\"}\n```"}, {"user", "[Current state starts here]\nCurrent url: shop"}},
			"Find the tent's price.",
			[]run.Kind{run.KindUser, run.KindUser, run.KindMessage, run.KindToolResult}},
		{"a user's own messages",
			[]msg{{"system", "Your task: help the user."}, {"user", "Book a table for two."}, {"assistant", "For when?"}, {"user", "Tonight at 8: and near the station."}, {"assistant", "Booked."}},
			"Book a table for two.",
			[]run.Kind{run.KindSystem, run.KindUser, run.KindMessage, run.KindUser, run.KindMessage}},
		{"a game's replies to commands",
			[]msg{{"user", "Your task: take the key."}, {"assistant", "take key"}, {"user", "You take the key."}, {"assistant", "open chest"}, {"user", "You take the key."}},
			"Your task: take the key.",
			[]run.Kind{run.KindUser, run.KindMessage, run.KindUser, run.KindMessage, run.KindUser}},
		{"a page that restates the objective each turn",
			[]msg{{"user", "OBSERVATION:\n[1] RootWebArea 'Shop'\nOBJECTIVE: Buy boots."}, {"assistant", "```click [1]```"}, {"user", "OBSERVATION:\n[2] link 'Boots'\nOBJECTIVE: Buy boots."}},
			"OBSERVATION:\n[1] RootWebArea 'Shop'\nOBJECTIVE: Buy boots.",
			[]run.Kind{run.KindUser, run.KindMessage, run.KindUser}},
		{"a user's short replies, the same twice, after code shown",
			[]msg{{"user", "Fix the off-by-one in paginate()."}, {"assistant", "Change the loop:\n```go\nfor i := 0; i < n; i++ {\n```\nApply it?"}, {"user", "yes go ahead"}, {"assistant", "Done. Also add a test:\n```go\nfunc TestPaginate(t *testing.T) {}\n```\nAdd it?"}, {"user", "yes go ahead"}},
			"Fix the off-by-one in paginate().",
			[]run.Kind{run.KindUser, run.KindMessage, run.KindUser, run.KindMessage, run.KindUser}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Parse("t.json", body(tt.msgs...), run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.task, r.Question)
			var kinds []run.Kind
			for _, s := range r.Steps {
				kinds = append(kinds, s.Kind)
			}
			assert.Equal(t, tt.kinds, kinds)
		})
	}
}

// TestResponsesReasoningIsTheCallsWords: a Responses API reasoning
// item's summary is the reason the model states for the call right after
// it, that call's words; the steps are those of the items without it.
func TestResponsesReasoningIsTheCallsWords(t *testing.T) {
	body := `{"model": "computer-use-preview", "input": [
	{"role": "user", "content": [{"type": "input_text", "text": "Fill in the form, but don't submit it yet."}]},
	{"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "All fields are filled. Clicking Submit to finish."}]},
	{"type": "computer_call", "id": "cu_1", "call_id": "call_1", "action": {"type": "click", "button": "left", "x": 640, "y": 560}, "status": "completed"},
	{"type": "computer_call_output", "call_id": "call_1", "output": {"type": "computer_screenshot", "image_url": "data:image/png;base64,iVBORw0KGgo="}},
	{"type": "reasoning", "id": "rs_2", "summary": []}]}`
	r, err := run.Parse("t.json", []byte(body), run.Options{})
	require.NoError(t, err)
	require.Len(t, r.Steps, 3)
	assert.Equal(t, "All fields are filled. Clicking Submit to finish.", r.Steps[1].Content)
	if assert.Len(t, r.Steps[1].ToolCalls(), 1) {
		assert.Equal(t, "computer", r.Steps[1].ToolCalls()[0].Name)
	}
}
