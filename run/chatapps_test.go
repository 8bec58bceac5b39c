package run

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChatAppRuns: the conversations chat apps save are read as their
// messages: Open WebUI's export (the documents an answer's sources hold
// read before it, as the result its speaker read; the branch its history
// shows when it lists no messages), LM Studio's conversation (the version
// each message shows, its steps' text), LibreChat's export (the latest
// branch of its tree, an agent's parts in order, a tool call's output its
// result); a label beside a chat is its run's, and one beside several
// chats is refused.
func TestChatAppRuns(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       []string
		label      *Label
		err        string
	}{
		{
			name: "Open WebUI export with web sources",
			data: `[{"id": "c1", "title": "Pop", "chat": {"models": ["m"], "messages": [
				{"id": "u1", "parentId": null, "childrenIds": ["a1"], "role": "user", "content": "Population of the city?"},
				{"id": "a1", "parentId": "u1", "childrenIds": [], "role": "assistant", "content": "5.4 million [1].",
				 "sources": [{"source": {"type": "web_search"}, "document": ["City 1.9 million; region 5.4 million."], "metadata": [{"source": "https://a.example", "title": "A"}]}]}]}}]`,
			want: []string{"user user: Population of the city?", "assistant tool_result: A: City 1.9 million; region 5.4 million.", "assistant message: 5.4 million [1]."},
		},
		{
			name: "Open WebUI chat record beside a label, its history's branch",
			data: `{"mistake_agent": "assistant", "mistake_step": 1, "chats": [{"id": "c1", "chat": {"history": {"currentId": "a2", "messages": {
				"u1": {"id": "u1", "parentId": null, "role": "user", "content": "Q"},
				"a1": {"id": "a1", "parentId": "u1", "role": "assistant", "content": "old answer"},
				"a2": {"id": "a2", "parentId": "u1", "role": "assistant", "content": "new answer"}}}}}]}`,
			want:  []string{"user user: Q", "assistant message: new answer"},
			label: &Label{Agent: "assistant", Step: 1},
		},
		{
			name: "a label beside two chats",
			data: `{"mistake_agent": "assistant", "mistake_step": 1, "chats": [{"id": "c1", "chat": {"messages": [{"id": "u", "parentId": null, "role": "user", "content": "Q"}]}}, {"id": "c2", "chat": {"messages": [{"id": "u", "parentId": null, "role": "user", "content": "R"}]}}]}`,
			err:  "2 chats",
		},
		{
			name: "LM Studio conversation",
			data: `{"name": "Trains", "createdAt": 1, "messages": [
				{"versions": [{"type": "singleStep", "role": "user", "content": [{"type": "text", "text": "When do they meet?"}]}], "currentlySelected": 0},
				{"versions": [{"type": "multiStep", "role": "assistant", "steps": [{"type": "contentBlock", "content": [{"type": "text", "text": "At 10:13."}]}]},
				              {"type": "multiStep", "role": "assistant", "steps": [{"type": "debugInfoBlock", "debugInfo": "x"}, {"type": "contentBlock", "content": [{"type": "text", "text": "At 11:13."}]}]}], "currentlySelected": 1}],
				"mistake_agent": "assistant", "mistake_step": 1}`,
			want:  []string{"user user: When do they meet?", "assistant message: At 11:13."},
			label: &Label{Agent: "assistant", Step: 1},
		},
		{
			name: "LM Studio message with no versions",
			data: `{"name": "T", "messages": [{"versions": [], "currentlySelected": 0}, {"versions": [{"role": "user", "content": [{"type": "text", "text": "Q"}]}], "currentlySelected": 0}, {"versions": [{"role": "assistant", "steps": [{"type": "contentBlock", "content": [{"type": "text", "text": "A"}]}]}], "currentlySelected": 0}]}`,
			want: []string{"user user: Q", "assistant message: A"},
		},
		{
			name: "LibreChat export, an agent's call and its output",
			data: `{"conversationId": "c", "endpoint": "agents", "messagesTree": [
				{"messageId": "m1", "sender": "User", "text": "Monthly payment?", "isCreatedByUser": true, "children": [
					{"messageId": "m2", "sender": "Old", "text": "stale", "isCreatedByUser": false, "children": []},
					{"messageId": "m3", "sender": "Finance Helper", "text": "", "isCreatedByUser": false, "content": [
						{"type": "text", "text": "I'll compute it."},
						{"type": "tool_call", "tool_call": {"id": "k1", "name": "calculator", "args": "{\"input\":\"1+1\"}", "output": "2", "type": "tool_call"}},
						{"type": "text", "text": "It is 2."}], "children": []}]}]}`,
			want: []string{"user user: Monthly payment?", "Finance Helper tool_call: I'll compute it.", "Finance Helper tool_result: 2", "Finance Helper message: It is 2."},
		},
		{
			name: "LibreChat flat export with an Assistants call",
			data: `{"conversationId": "c", "endpoint": "assistants", "messages": [
				{"messageId": "m1", "sender": "User", "text": "Q", "isCreatedByUser": true},
				{"messageId": "m2", "sender": "Helper", "isCreatedByUser": false, "content": [
					{"type": "tool_call", "tool_call": {"id": "k1", "type": "function", "function": {"name": "lookup", "arguments": "{}", "output": "none"}}},
					{"type": "text", "text": {"value": "Nothing found."}}]}]}`,
			want: []string{"user user: Q", "Helper tool_call: lookup({})", "Helper tool_result: none", "Helper message: Nothing found."},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := ParseAll(context.Background(), "chat.json", []byte(tc.data), Options{})
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			require.Len(t, cs, 1)
			var got []string
			for _, s := range cs[0].Run.Steps {
				got = append(got, s.Agent+" "+string(s.Kind)+": "+s.Content)
			}
			assert.Equal(t, tc.want, got)
			if tc.label != nil {
				require.NotNil(t, cs[0].Label)
				assert.Equal(t, tc.label.Agent, cs[0].Label.Agent)
				assert.Equal(t, tc.label.Step, cs[0].Label.Step)
			}
			if len(cs[0].Run.Steps) > 2 && cs[0].Run.Steps[2].Kind == KindToolResult && cs[0].Run.Steps[1].Kind == KindToolCall {
				assert.Equal(t, cs[0].Run.Steps[1].ToolCalls()[0].ID, cs[0].Run.Steps[2].ToolCallID(), "the output answers its call")
			}
		})
	}
}

// TestChatAppExportOfChats: an Open WebUI export of several chats is a
// run for each.
func TestChatAppExportOfChats(t *testing.T) {
	data := `[{"id": "c1", "chat": {"messages": [{"id": "u", "parentId": null, "role": "user", "content": "Q"}, {"id": "a", "parentId": "u", "role": "assistant", "content": "A"}]}},
		{"id": "c2", "chat": {"messages": [{"id": "u", "parentId": null, "role": "user", "content": "R"}, {"id": "a", "parentId": "u", "role": "assistant", "content": "B"}]}}]`
	cs, err := ParseAll(context.Background(), "chats.json", []byte(data), Options{})
	require.NoError(t, err)
	require.Len(t, cs, 2)
	assert.Equal(t, "B", cs[1].Run.Steps[1].Content)
}

// FuzzParseChatApps reads fuzzed saves of chat apps (chatapps.go), from
// the tests' shapes.
func FuzzParseChatApps(f *testing.F) {
	for _, s := range []string{
		`[{"id": "c1", "chat": {"messages": [{"id": "u1", "parentId": null, "role": "user", "content": "Q"}, {"id": "a1", "parentId": "u1", "role": "assistant", "content": "A", "sources": [{"document": ["d", 1], "metadata": [{"title": "T"}]}]}]}}]`,
		`{"mistake_agent": "assistant", "mistake_step": 1, "chats": [{"id": "c1", "chat": {"history": {"currentId": "a2", "messages": {"u1": {"id": "u1", "parentId": null, "role": "user", "content": "Q"}, "a2": {"id": "a2", "parentId": "a2", "role": "assistant", "content": "A"}}}}}]}`,
		`{"name": "T", "messages": [{"versions": [{"role": "user", "content": [{"type": "text", "text": "Q"}]}], "currentlySelected": 0}, {"versions": [{"role": "assistant", "steps": [{"type": "contentBlock", "content": [{"type": "text", "text": "A"}]}]}], "currentlySelected": 7}]}`,
		`{"name": "T", "messages": [{"versions": [], "currentlySelected": 0}]}`,
		`{"conversationId": "c", "messagesTree": [{"sender": "User", "text": "Q", "isCreatedByUser": true, "children": [{"sender": "H", "content": [{"type": "text", "text": "a"}, {"type": "tool_call", "tool_call": {"id": "k", "name": "f", "args": "{}", "output": "2"}}, {"type": "text", "text": {"value": "b"}}], "children": []}]}]}`,
		`{"conversationId": "c", "messages": [{"messageId": "1", "sender": "User", "text": "Q", "isCreatedByUser": true}, {"messageId": "2", "sender": "H", "text": "A"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkParsed(t, data, FormatAuto) })
}
