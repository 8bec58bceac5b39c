package run

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// bedrockAgentEvents reads the events of an Amazon Bedrock agent's
// invocation with its trace enabled (InvokeAgent's completion stream, as
// saved: a list of {"trace": {...}} and {"chunk": {"bytes"}}). Each trace
// event holds one part of a step under its trace's kind; the
// orchestration's are read: "rationale" (the agent's thought),
// "invocationInput" (a call: an action group's API or function with its
// parameters or request body, a knowledge base's lookup, code to run, a
// collaborator agent's request) and "observation" (the call's output, a
// reprompt, or the final response); a "failureTrace" is the agent's
// error. The user's request is the first user message of the first
// model invocation's input, where that input is a model request's JSON
// body. An event is the agent's its "collaboratorName" names (a
// multi-agent collaboration's member), else the agent its "agentId"
// names. The chunks are the answer where no final response says it. ok
// is false unless every element is a trace or a chunk (each an object)
// and one is a trace.
func bedrockAgentEvents(list []any) ([]dumpMessage, bool) {
	traces := 0
	for _, e := range list {
		m, _ := e.(map[string]any)
		switch {
		case m == nil:
			return nil, false
		case m["trace"] != nil:
			if _, ok := m["trace"].(map[string]any); !ok {
				return nil, false
			}
			traces++
		case m["chunk"] != nil:
			if _, ok := m["chunk"].(map[string]any); !ok {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	if traces == 0 {
		return nil, false
	}
	var out []dumpMessage
	asked, answered := false, false
	var chunks []string
	agent := ""
	callID := ""
	for _, e := range list {
		m := e.(map[string]any)
		if c, ok := m["chunk"].(map[string]any); ok {
			chunks = append(chunks, textOf(c["bytes"]))
			continue
		}
		outer := m["trace"].(map[string]any)
		inner, _ := outer["trace"].(map[string]any)
		if inner == nil {
			continue
		}
		agent = strings.TrimSpace(firstNonEmpty(stringOrEmpty(outer["collaboratorName"]), stringOrEmpty(outer["agentId"]), agent))
		said := func(role, text string) dumpMessage {
			return dumpMessage{chatMessage: chatMessage{Role: role, Name: agent, Text: text}}
		}
		if f, ok := inner["failureTrace"].(map[string]any); ok {
			out = append(out, said("assistant", errorText(textOf(f["failureReason"]))))
			continue
		}
		o, _ := inner["orchestrationTrace"].(map[string]any)
		if o == nil {
			continue
		}
		if in, ok := o["modelInvocationInput"].(map[string]any); ok && !asked {
			asked = true
			if q := requestQuestion(stringOrEmpty(in["text"])); q != "" {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: q}})
			}
		}
		if r, ok := o["rationale"].(map[string]any); ok {
			dm := said("assistant", textOf(r["text"]))
			dm.kind = KindThought
			out = append(out, dm)
		}
		if in, ok := o["invocationInput"].(map[string]any); ok {
			callID = stringOrEmpty(in["traceId"]) + "#" + strconv.Itoa(len(out))
			call := bedrockCall(in)
			call.ID = callID
			dm := said("assistant", "")
			dm.Calls = []ToolCall{call}
			out = append(out, dm)
		}
		if ob, ok := o["observation"].(map[string]any); ok {
			if fr, ok := ob["finalResponse"].(map[string]any); ok {
				answered = true
				out = append(out, said("assistant", textOf(fr["text"])))
				continue
			}
			if rp, ok := ob["repromptResponse"].(map[string]any); ok {
				out = append(out, said("assistant", textOf(rp["text"])))
				continue
			}
			text, failed := bedrockOutput(ob)
			dm := said("tool", text)
			dm.CallID, dm.failed = callID, failed
			out = append(out, dm)
		}
	}
	if !answered && len(chunks) > 0 {
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent, Text: strings.Join(chunks, "")}})
	}
	return out, len(out) > 0
}

// bedrockCall is an invocation input's call: what it invokes and the
// values it gives, as JSON.
func bedrockCall(in map[string]any) ToolCall {
	if a, ok := in["actionGroupInvocationInput"].(map[string]any); ok {
		// Named as Bedrock names the action to its model: the group and
		// the function, or the verb, the group and the API's path.
		group := strings.TrimSpace(stringOrEmpty(a["actionGroupName"]))
		name := strings.Trim(group+"__"+strings.TrimSpace(stringOrEmpty(a["function"])), "_")
		if path := strings.Trim(strings.TrimSpace(stringOrEmpty(a["apiPath"])), "/"); path != "" {
			name = strings.ToUpper(strings.TrimSpace(stringOrEmpty(a["verb"]))) + "__" + group + "__" + path
		}
		args := map[string]any{}
		addParams := func(v any) {
			for _, p := range dataList(v) {
				pm, _ := p.(map[string]any)
				if n := stringOrEmpty(pm["name"]); n != "" {
					args[n] = pm["value"]
				}
			}
		}
		addParams(a["parameters"])
		if body, ok := a["requestBody"].(map[string]any); ok {
			if content, ok := body["content"].(map[string]any); ok {
				// Its media types in the order of their names, so that
				// a name given under two has one value on every reading.
				for _, typ := range slices.Sorted(maps.Keys(content)) {
					addParams(content[typ])
				}
			}
		}
		return ToolCall{Name: name, Arguments: textOf(args)}
	}
	if k, ok := in["knowledgeBaseLookupInput"].(map[string]any); ok {
		return ToolCall{Name: "knowledge base " + stringOrEmpty(k["knowledgeBaseId"]), Arguments: textOf(map[string]any{"text": k["text"]})}
	}
	if c, ok := in["codeInterpreterInvocationInput"].(map[string]any); ok {
		return ToolCall{Name: "code interpreter", Arguments: textOf(map[string]any{"code": c["code"]})}
	}
	if c, ok := in["agentCollaboratorInvocationInput"].(map[string]any); ok {
		input, _ := c["input"].(map[string]any)
		return ToolCall{Name: stringOrEmpty(c["agentCollaboratorName"]), Arguments: textOf(map[string]any{"text": input["text"]})}
	}
	return ToolCall{Name: stringOrEmpty(in["invocationType"]), Arguments: "{}"}
}

// bedrockOutput is an observation's output and whether it reports a
// failure (code that failed to run).
func bedrockOutput(ob map[string]any) (string, bool) {
	if a, ok := ob["actionGroupInvocationOutput"].(map[string]any); ok {
		return textOf(a["text"]), false
	}
	if k, ok := ob["knowledgeBaseLookupOutput"].(map[string]any); ok {
		var texts []string
		for _, r := range dataList(k["retrievedReferences"]) {
			rm, _ := r.(map[string]any)
			c, _ := rm["content"].(map[string]any)
			texts = append(texts, textOf(c["text"]))
		}
		return strings.Join(nonEmpty(texts), "\n"), false
	}
	if c, ok := ob["codeInterpreterInvocationOutput"].(map[string]any); ok {
		if e := textOf(c["executionError"]); strings.TrimSpace(e) != "" {
			return errorText(e), true
		}
		return textOf(c["executionOutput"]), false
	}
	if c, ok := ob["agentCollaboratorInvocationOutput"].(map[string]any); ok {
		output, _ := c["output"].(map[string]any)
		return textOf(output["text"]), false
	}
	return "", false
}

// requestQuestion is the first user message's text of a model request's
// JSON body ({"messages": [{"role": "user", "content"}]}), "" when text
// is no such body.
func requestQuestion(text string) string {
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal([]byte(text), &body) != nil {
		return ""
	}
	for _, m := range body.Messages {
		if m.Role == "user" {
			return strings.TrimSpace(llamaStackText(m.Content))
		}
	}
	return ""
}
