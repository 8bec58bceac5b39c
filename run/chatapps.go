package run

// The conversations chat apps save of an assistant, each read into chat
// messages and laid out as a transcript's steps:
//   - Open WebUI's chat export, a list of chat records ({"id", "title",
//     "chat": {"models", "messages": [{"id", "parentId", "role",
//     "content", "sources", …}], "history": {"messages": {ID: message},
//     "currentId"}}}): the messages of the branch shown, and the documents
//     a web search or a knowledge base gave an answer (its "sources") as
//     the result it read before it;
//   - LM Studio's conversation files ({"name", "messages": [{"versions":
//     [{"role", "content": [parts]} | {"role", "steps": [{"type":
//     "contentBlock", "content": [parts]}]}], "currentlySelected"}]}):
//     the version each message shows;
//   - LibreChat's conversation export ({"conversationId", "endpoint",
//     "messagesTree": [{"sender", "text", "isCreatedByUser", "content":
//     [parts], "children": […]}]}, or its flat "messages"): the latest
//     branch, an agent's content parts in order, each tool call's output
//     its result.
// A label beside a chat (its record's top-level keys) is its run's.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// chatAppRuns reads data as one of the chat apps' saves above, a run for
// each chat it holds; ok is false when its shape is none of theirs.
func chatAppRuns(data []byte) (cs []*Case, ok bool, err error) {
	if len(data) == 0 || data[0] != '[' && data[0] != '{' {
		return nil, false, nil
	}
	keys := spans.TopKeys(data, 64)
	has := func(k string) bool { return slices.Contains(keys, k) }
	if !has("chat") && !(has("messages") && has("name")) && !has("messagesTree") && !(has("messages") && has("conversationId")) {
		return nil, false, nil
	}
	records, err := anyList(data, "") // a list's elements, or the one object
	if err != nil || len(records) == 0 {
		return nil, false, nil
	}
	for i, e := range records {
		o, _ := e.(map[string]any)
		if o == nil {
			return nil, false, nil
		}
		ms, ok := chatAppMessages(o)
		if !ok {
			return nil, false, nil
		}
		if len(ms) == 0 {
			return nil, true, fmt.Errorf("chat %d (%s): no message says anything", i, spans.QuoteForError(stringOrEmpty(o["title"])))
		}
		c, _, err := dumpCaseOfMessages(ms, labelOf(o))
		if err != nil {
			return nil, true, fmt.Errorf("chat %d: %w", i, err)
		}
		cs = append(cs, c)
	}
	return cs, true, nil
}

// chatAppMessages reads o as one app's saved chat; ok is false when it is
// none of theirs.
func chatAppMessages(o map[string]any) ([]dumpMessage, bool) {
	if chat, _ := o["chat"].(map[string]any); chat != nil {
		return openWebUIChat(chat)
	}
	if list, _ := o["messages"].([]any); o["name"] != nil && objectsAll(list, func(m map[string]any) bool {
		_, ok := m["versions"].([]any)
		return ok
	}) {
		return lmStudioConversation(list), true
	}
	if o["conversationId"] != nil {
		if tree, ok := o["messagesTree"].([]any); ok {
			return libreChatMessages(libreChatBranch(tree)), true
		}
		if list, ok := o["messages"].([]any); ok && objectsAll(list, func(m map[string]any) bool {
			_, ok := m["messageId"]
			return ok
		}) {
			return libreChatMessages(list), true
		}
	}
	return nil, false
}

// openWebUIChat reads an Open WebUI chat: its messages list, else the
// branch its history shows, from the current message back. ok is false
// when neither holds messages with a role.
func openWebUIChat(chat map[string]any) ([]dumpMessage, bool) {
	list, _ := chat["messages"].([]any)
	if len(list) == 0 {
		list = openWebUIBranch(chat["history"])
	}
	if !objectsAll(list, func(m map[string]any) bool {
		_, role := m["role"].(string)
		_, parent := m["parentId"]
		return role && parent
	}) {
		return nil, false
	}
	var out []dumpMessage
	for _, e := range list {
		m := e.(map[string]any)
		role := stringOrEmpty(m["role"])
		if role == "assistant" {
			if docs := openWebUISources(m["sources"]); docs != "" {
				// Fetched for the reply they come with: its speaker's.
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", Name: role, Text: docs}, tool: "sources"})
			}
		}
		if text := strings.TrimSpace(contentOf(m["content"])); text != "" {
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: role, Text: text}})
		}
	}
	return out, true
}

// openWebUIBranch is the branch of an Open WebUI chat's history that ends
// at its current message, first message first.
func openWebUIBranch(h any) []any {
	hm, _ := h.(map[string]any)
	msgs, _ := hm["messages"].(map[string]any)
	id, _ := hm["currentId"].(string)
	var branch []any
	for id != "" && len(branch) <= len(msgs) {
		m, _ := msgs[id].(map[string]any)
		if m == nil {
			break
		}
		branch = append(branch, m)
		id, _ = m["parentId"].(string)
	}
	slices.Reverse(branch)
	return branch
}

// openWebUISources is the text of the documents an answer's sources hold,
// each after the title or address its metadata gives it.
func openWebUISources(s any) string {
	list, _ := s.([]any)
	var texts []string
	for _, e := range list {
		src, _ := e.(map[string]any)
		docs, _ := src["document"].([]any)
		metas, _ := src["metadata"].([]any)
		for i, d := range docs {
			text := strings.TrimSpace(textOf(d))
			if text == "" {
				continue
			}
			if i < len(metas) {
				meta, _ := metas[i].(map[string]any)
				if name := firstNonEmpty(stringOrEmpty(meta["title"]), stringOrEmpty(meta["source"]), stringOrEmpty(meta["name"])); name != "" {
					text = name + ": " + text
				}
			}
			texts = append(texts, text)
		}
	}
	return strings.Join(texts, "\n\n")
}

// lmStudioConversation reads an LM Studio conversation's messages, each
// the version it shows.
func lmStudioConversation(list []any) []dumpMessage {
	var out []dumpMessage
	for _, e := range list {
		m := e.(map[string]any)
		versions := m["versions"].([]any)
		if len(versions) == 0 {
			continue // a message with nothing to show
		}
		i := 0
		if n, err := strconv.Atoi(textOf(m["currentlySelected"])); err == nil && n >= 0 && n < len(versions) {
			i = n
		}
		v, _ := versions[i].(map[string]any)
		role := stringOrEmpty(v["role"])
		if role == "" {
			continue
		}
		var texts []string
		if steps, ok := v["steps"].([]any); ok {
			for _, s := range steps {
				sm, _ := s.(map[string]any)
				if sm["type"] == "contentBlock" {
					texts = append(texts, lmStudioText(sm["content"]))
				}
			}
		} else {
			texts = append(texts, lmStudioText(v["content"]))
		}
		if text := strings.TrimSpace(strings.Join(nonEmpty(texts), "\n\n")); text != "" {
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: role, Text: text}})
		}
	}
	return out
}

// lmStudioText is the text of an LM Studio message's text parts.
func lmStudioText(c any) string {
	parts, _ := c.([]any)
	var texts []string
	for _, p := range parts {
		pm, _ := p.(map[string]any)
		if pm["type"] == "text" {
			texts = append(texts, stringOrEmpty(pm["text"]))
		}
	}
	return strings.Join(nonEmpty(texts), "\n")
}

// libreChatBranch is the latest branch of a LibreChat export's message
// tree: from a root, each message's last child.
func libreChatBranch(tree []any) []any {
	var branch []any
	for len(tree) > 0 {
		m, _ := tree[len(tree)-1].(map[string]any)
		if m == nil {
			break
		}
		branch = append(branch, m)
		tree, _ = m["children"].([]any)
	}
	return branch
}

// libreChatMessages reads LibreChat's messages: a user's by
// isCreatedByUser, any other its sender's, its content parts in order (a
// tool call and its output, the call's result) or, without them, its
// text.
func libreChatMessages(list []any) []dumpMessage {
	var out []dumpMessage
	for _, e := range list {
		m, _ := e.(map[string]any)
		if m == nil {
			continue
		}
		if m["isCreatedByUser"] == true {
			if text := strings.TrimSpace(textOf(m["text"])); text != "" {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: text}})
			}
			continue
		}
		name := strings.TrimSpace(stringOrEmpty(m["sender"]))
		parts, _ := m["content"].([]any)
		if len(parts) == 0 {
			if text := strings.TrimSpace(textOf(m["text"])); text != "" {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: name, Text: text}})
			}
			continue
		}
		turn := dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: name}}
		var results []dumpMessage
		flush := func() {
			turn.Text = strings.TrimSpace(turn.Text)
			if turn.Text != "" || len(turn.Calls) > 0 {
				out = append(out, turn)
			}
			out = append(out, results...)
			turn, results = dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: name}}, nil
		}
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			switch pm["type"] {
			case "text":
				if len(turn.Calls) > 0 {
					flush()
				}
				turn.Text += "\n" + libreChatText(pm["text"])
			case "tool_call":
				tc, _ := pm["tool_call"].(map[string]any)
				fn, _ := tc["function"].(map[string]any)
				id := stringOrEmpty(tc["id"])
				call := ToolCall{ID: id, Name: firstNonEmpty(stringOrEmpty(tc["name"]), stringOrEmpty(fn["name"])), Arguments: firstNonEmpty(textOf(tc["args"]), textOf(fn["arguments"]))}
				if call.Name == "" {
					continue
				}
				turn.Calls = append(turn.Calls, call)
				results = append(results, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id, Text: firstNonEmpty(textOf(tc["output"]), textOf(fn["output"]))}, tool: call.Name})
			}
		}
		flush()
	}
	return out
}

// libreChatText is a text part's text: a string, or an object holding it
// under "value" (as the Assistants endpoint writes it).
func libreChatText(t any) string {
	if o, ok := t.(map[string]any); ok {
		return stringOrEmpty(o["value"])
	}
	return textOf(t)
}
