package run

import (
	"regexp"
	"slices"
	"strings"
)

// clineTools are the tools Cline (and Roo Code, which it begat) asks for
// in its replies' text, each as an XML block whose elements are its
// parameters: <read_file><path>src/a.py</path></read_file>.
var clineTools = []string{
	"read_file", "write_to_file", "replace_in_file", "apply_diff", "insert_content", "search_and_replace",
	"execute_command", "search_files", "list_files", "list_code_definition_names", "browser_action",
	"use_mcp_tool", "access_mcp_resource", "new_task", "switch_mode", "fetch_instructions",
}

// clineSays are the blocks of a reply that speak rather than act: the
// answer (attempt_completion's result), a question to the user, and a
// plan's response. Their parameter's text is what the step says.
var clineSays = map[string]string{"attempt_completion": "result", "ask_followup_question": "question", "plan_mode_respond": "response"}

// clineResultRe is the head of the user-role message Cline sends back
// with a tool's output: "[read_file for 'src/a.py'] Result:", with Roo
// Code's note to the model after the quoted target ("[read_file for
// 'src/a.py'. Reading multiple files at once is more efficient…]
// Result:").
var clineResultRe = regexp.MustCompile(`^\[([a-z_]+)(?: for '[^\n]*?'(?:\. [^\n\]]*)?)?\] Result:`)

// clineEnvRe is the environment details Cline appends to the user's
// messages (open tabs, the time, the files in the directory): the tool's
// surroundings, not what the task or a tool said.
var clineEnvRe = regexp.MustCompile(`(?s)<environment_details>.*?</environment_details>`)

// clineSession reads a Cline conversation (its api_conversation_history,
// Anthropic's messages whose content is text): a reply's tool blocks are
// its calls, a result message ("[TOOL for '…'] Result:") is that call's
// output, the task is the text of its <task> element, and the answer is
// attempt_completion's result. A chat shows it is one by both marks: a
// reply with a tool block and a message with a result's head. Other
// chats are left as they are.
func clineSession(msgs []message, steps []Step) {
	n := min(len(msgs), len(steps))
	result, call := make([]bool, n), make([]bool, n)
	for i := range n {
		text := strings.TrimSpace(steps[i].Content)
		switch {
		case isUserRole(strings.TrimSpace(msgs[i].Role)) && clineResultRe.MatchString(text):
			result[i] = true
		case strings.EqualFold(strings.TrimSpace(msgs[i].Role), "assistant") && len(steps[i].ToolCalls()) == 0 && hasClineBlock(text):
			call[i] = true
		}
	}
	if !slices.Contains(result, true) || !slices.Contains(call, true) {
		return
	}
	for i := range n {
		s := &steps[i]
		text := strings.TrimSpace(clineEnvRe.ReplaceAllString(s.Content, ""))
		switch {
		case result[i] && clineReply(text):
			// The user's reply to a block that speaks: the answer to a
			// question, the feedback on an attempted completion.
			s.Kind = KindUser
			text = strings.TrimSpace(text[len(clineResultRe.FindString(text)):])
			for _, e := range []string{"answer", "feedback"} {
				if v, ok := element(text, e); ok {
					text = v
					break
				}
			}
			s.Content = strings.TrimSpace(text)
		case result[i]:
			s.Kind = KindToolResult
			s.Agent = "tool"
			s.Content = strings.TrimSpace(text[len(clineResultRe.FindString(text)):])
		case call[i]:
			said, cs := clineBlocks(text)
			s.Content = said
			if len(cs) > 0 {
				s.Kind = KindToolCall
				s.Edit().ToolCalls = cs
				if strings.TrimSpace(said) == "" {
					s.Content = callText(cs)
				}
			}
		case s.Kind == KindUser || isUserRole(strings.TrimSpace(msgs[i].Role)):
			if task, ok := element(text, "task"); ok {
				text = task
			}
			s.Content = text
		}
	}
}

// clineReply reports whether a result message (clineResultRe) answers a
// block that speaks (clineSays): what follows its head is the user's.
func clineReply(text string) bool {
	m := clineResultRe.FindStringSubmatch(text)
	if m == nil {
		return false
	}
	_, ok := clineSays[m[1]]
	return ok
}

// hasClineBlock reports whether text holds a block of a Cline tool or of
// a reply that speaks (clineSays).
func hasClineBlock(text string) bool {
	for _, t := range clineTools {
		if _, ok := element(text, t); ok {
			return true
		}
	}
	for t := range clineSays {
		if _, ok := element(text, t); ok {
			return true
		}
	}
	return false
}

// clineBlocks splits a reply into what it says (its text outside the
// tool blocks, its <thinking> unwrapped, a speaking block's text) and the
// calls its tool blocks make, in order.
func clineBlocks(text string) (said string, calls []ToolCall) {
	if t, ok := element(text, "thinking"); ok {
		text = strings.Replace(text, "<thinking>"+t+"</thinking>", t, 1)
	}
	for {
		at, tool := -1, ""
		for _, t := range append(slices.Clone(clineTools), "attempt_completion", "ask_followup_question", "plan_mode_respond") {
			if k := strings.Index(text, "<"+t+">"); k >= 0 && (at < 0 || k < at) {
				at, tool = k, t
			}
		}
		if at < 0 {
			break
		}
		end := strings.Index(text[at:], "</"+tool+">")
		if end < 0 {
			break
		}
		body := text[at+len(tool)+2 : at+end]
		rest := text[at+end+len(tool)+3:]
		params := clineParams(body)
		if p, ok := clineSays[tool]; ok {
			v, _ := params[p].(string)
			text = text[:at] + v + rest
			continue
		}
		calls = append(calls, ToolCall{Name: tool, Arguments: textOf(params)})
		text = text[:at] + rest
	}
	return strings.TrimSpace(text), calls
}

// clineParams reads the parameters of a block's body: each element's
// text, or, for an element that holds only elements (Roo Code's
// <args><file><path>…</path></file></args>), what those hold, an element
// written more than once a list of them.
func clineParams(body string) map[string]any {
	params := map[string]any{}
	for _, name := range elementNames(body) {
		if _, seen := params[name]; seen {
			continue
		}
		var vals []any
		for rest := body; ; {
			v, ok := element(rest, name)
			if !ok {
				break
			}
			vals = append(vals, clineValue(v))
			_, rest, _ = strings.Cut(rest, "</"+name+">")
		}
		if len(vals) == 1 {
			params[name] = vals[0]
		} else {
			params[name] = vals
		}
	}
	return params
}

// clineValue is an element's text, or the parameters it holds when it
// holds elements and nothing else.
func clineValue(v string) any {
	names := elementNames(v)
	if len(names) == 0 {
		return strings.Trim(v, "\n")
	}
	outside := v
	for _, name := range names {
		inner, _ := element(outside, name)
		outside = strings.Replace(outside, "<"+name+">"+inner+"</"+name+">", "", 1)
	}
	if strings.TrimSpace(outside) != "" {
		return strings.Trim(v, "\n")
	}
	return clineParams(v)
}

// elementRe is the opening tag of an element of a Cline block.
var elementRe = regexp.MustCompile(`<([a-z_]+)>`)

// elementNames returns the names of the elements body holds at its top
// level, in order.
func elementNames(body string) []string {
	var names []string
	for rest := body; ; {
		m := elementRe.FindStringSubmatchIndex(rest)
		if m == nil {
			return names
		}
		name := rest[m[2]:m[3]]
		end := strings.Index(rest[m[1]:], "</"+name+">")
		if end < 0 {
			return names
		}
		names = append(names, name)
		rest = rest[m[1]+end+len(name)+3:]
	}
}

// element returns the text between the first <name> of text and the
// </name> after it.
func element(text, name string) (string, bool) {
	_, after, ok := strings.Cut(text, "<"+name+">")
	if !ok {
		return "", false
	}
	inner, _, ok := strings.Cut(after, "</"+name+">")
	return inner, ok
}
