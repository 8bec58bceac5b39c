package run

import (
	"encoding/json"
	"fmt"
	"strings"
)

// maxExecutorSteps bounds the intermediate steps read from one result:
// past it, the rest of a huge file is output, not an agent's run.
const maxExecutorSteps = 5000

// executorMessages reads an agent executor's result saved with its
// intermediate steps ({"input", "output", "intermediate_steps": [[action,
// observation], …]}, each action {"tool", "tool_input", "log"}, or in its
// serialized form, those fields under "kwargs") as the messages of its
// run: the input as the user's, each action as the assistant's turn (its
// log as its text, its tool and input as its call) answered by its
// observation, and the output as the last reply. ok is false for any
// other object, or steps of another shape.
func executorMessages(data []byte) (list []any, ok bool) {
	var v struct {
		Input             json.RawMessage     `json:"input"`
		Output            json.RawMessage     `json:"output"`
		IntermediateSteps [][]json.RawMessage `json:"intermediate_steps"`
	}
	if json.Unmarshal(data, &v) != nil || v.IntermediateSteps == nil || v.Input == nil {
		return nil, false
	}
	list = append(list, map[string]any{"role": "user", "content": rawText(v.Input)})
	for i, pair := range v.IntermediateSteps {
		if i >= maxExecutorSteps {
			break
		}
		if len(pair) != 2 {
			return nil, false
		}
		var a struct {
			Tool      *string         `json:"tool"`
			ToolInput json.RawMessage `json:"tool_input"`
			Log       string          `json:"log"`
			Kwargs    *struct {
				Tool      *string         `json:"tool"`
				ToolInput json.RawMessage `json:"tool_input"`
				Log       string          `json:"log"`
			} `json:"kwargs"`
		}
		if json.Unmarshal(pair[0], &a) != nil {
			return nil, false
		}
		if a.Tool == nil && a.Kwargs != nil {
			a.Tool, a.ToolInput, a.Log = a.Kwargs.Tool, a.Kwargs.ToolInput, a.Kwargs.Log
		}
		if a.Tool == nil {
			return nil, false
		}
		args, ok := argsObject(a.ToolInput)
		if !ok {
			args = textOf(map[string]any{"input": rawText(a.ToolInput)})
		}
		id := fmt.Sprintf("step_%d", i)
		list = append(list,
			map[string]any{"role": "assistant", "content": strings.TrimSpace(a.Log), "tool_calls": []any{map[string]any{
				"id": id, "type": "function", "function": map[string]any{"name": *a.Tool, "arguments": args},
			}}},
			map[string]any{"role": "tool", "tool_call_id": id, "content": rawText(pair[1])})
	}
	if v.Output != nil && string(v.Output) != "null" {
		list = append(list, map[string]any{"role": "assistant", "content": rawText(v.Output)})
	}
	return list, true
}

// rawText is a JSON value as text: a string as it is, anything else as
// JSON.
func rawText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(raw))
}
