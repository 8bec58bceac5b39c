package run

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// kaibanLogs reads a KaibanJS team's workflow logs: its store's state as
// the team saves it ({"teamWorkflowStatus", "name", "agents", "tasks",
// "workflowLogs": […], "inputs"…}), or the list of workflowLogs alone.
// Each log is {"logType": "WorkflowStatusUpdate" | "TaskStatusUpdate" |
// "AgentStatusUpdate", "agentName", "agent", "task", "taskStatus",
// "agentStatus", "metadata"…}:
//
//   - a task set DOING is the user's instruction to its agent (its
//     description with the team's inputs put in), the first the run's task;
//   - USING_TOOL is a call of the agent (metadata's tool and input), with
//     the thought of the model's output just before it (THINKING_END's
//     parsedLLMOutput) as its words; the agent's USING_TOOL_END after it
//     is its result, USING_TOOL_ERROR a failed one, and
//     TOOL_DOES_NOT_EXIST the agent's own error;
//   - THOUGHT and SELF_QUESTION are the agent's thoughts, FINAL_ANSWER its
//     answer to the task, and an error of the agent's loop its error;
//   - the rest (iterations, thinking begun, a task done, which repeats the
//     final answer, the workflow's status) are passed over.
//
// ok is false when data holds no such logs.
func kaibanLogs(data []byte) ([]dumpMessage, bool) {
	logs, ok := kaibanLogList(data)
	if !ok {
		return nil, false
	}
	var out []dumpMessage
	calls, lastTask := 0, ""
	thought := map[string]string{}  // agent → the thought its model's last output gave
	lastCall := map[string]string{} // agent → the id of its latest call
	for _, e := range logs {
		meta, _ := e["metadata"].(map[string]any)
		agent := kaibanAgent(e)
		output, _ := meta["output"].(map[string]any)
		say := func(text string, kind Kind) {
			if strings.TrimSpace(text) != "" {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent, Text: text}, kind: kind})
			}
		}
		switch stringOrEmpty(e["logType"]) {
		case "TaskStatusUpdate":
			if e["taskStatus"] != "DOING" {
				continue
			}
			task, _ := e["task"].(map[string]any)
			text := strings.TrimSpace(firstNonEmpty(stringOrEmpty(task["interpolatedTaskDescription"]), stringOrEmpty(task["description"])))
			if text != "" && text != lastTask {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: text}})
				lastTask = text
			}
			continue
		case "AgentStatusUpdate":
		default:
			continue
		}
		switch status := stringOrEmpty(e["agentStatus"]); status {
		case "THINKING_END":
			parsed, _ := output["parsedLLMOutput"].(map[string]any)
			thought[agent] = textOf(parsed["thought"])
		case "USING_TOOL":
			tool, _ := meta["tool"].(map[string]any)
			name := strings.TrimSpace(firstNonEmpty(stringOrEmpty(tool["name"]), stringOrEmpty(meta["tool"])))
			if name == "" {
				continue
			}
			calls++
			id := "kaiban-call-" + strconv.Itoa(calls)
			lastCall[agent] = id
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent, Text: thought[agent],
				Calls: []ToolCall{{ID: id, Name: name, Arguments: textOf(meta["input"])}}}})
			thought[agent] = ""
		case "USING_TOOL_END", "USING_TOOL_ERROR", "TOOL_DOES_NOT_EXIST":
			// The result answers its own agent's latest call (a team
			// that runs its tasks in parallel interleaves its agents'
			// logs), else the latest call of all.
			id := lastCall[agent]
			if id == "" && calls > 0 {
				id = "kaiban-call-" + strconv.Itoa(calls)
			}
			if status == "TOOL_DOES_NOT_EXIST" {
				id = ""
			}
			text := textOf(meta["output"])
			if status != "USING_TOOL_END" {
				text = firstNonEmpty(textOf(meta["error"]), stringOrEmpty(e["logDescription"]))
			}
			if id == "" {
				// No call stands before it: the agent asked for a tool
				// it does not have, which is its own step.
				say(errorText(text), "")
				continue
			}
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id, Text: text}, failed: status != "USING_TOOL_END"})
		case "THOUGHT", "SELF_QUESTION":
			say(firstNonEmpty(textOf(output["thought"]), thought[agent]), KindThought)
			thought[agent] = ""
		case "FINAL_ANSWER":
			say(textOf(output["finalAnswer"]), "")
			thought[agent] = ""
		case "AGENTIC_LOOP_ERROR", "MAX_ITERATIONS_ERROR", "ISSUES_PARSING_LLM_OUTPUT", "WEIRD_LLM_OUTPUT":
			say(errorText(firstNonEmpty(textOf(meta["error"]), stringOrEmpty(e["logDescription"]))), "")
		}
	}
	return out, len(out) > 0
}

// kaibanLogList finds the workflow logs in data: a team's state's
// workflowLogs, or a list of logs itself, each saying its logType and
// the status it updates.
func kaibanLogList(data []byte) ([]map[string]any, bool) {
	trimmed := bytes.TrimSpace(data)
	if !bytes.Contains(trimmed, []byte(`"logType"`)) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var logs []map[string]any
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if dec.Decode(&logs) != nil {
			return nil, false
		}
	} else {
		var state struct {
			WorkflowLogs []map[string]any `json:"workflowLogs"`
		}
		if dec.Decode(&state) != nil {
			return nil, false
		}
		logs = state.WorkflowLogs
	}
	if len(logs) == 0 {
		return nil, false
	}
	for _, e := range logs {
		typ := stringOrEmpty(e["logType"])
		if !strings.HasSuffix(typ, "StatusUpdate") || e["agentStatus"] == nil && e["taskStatus"] == nil && e["workflowStatus"] == nil {
			return nil, false
		}
	}
	return logs, true
}

// kaibanAgent is the agent a log is of: its agentName, else its agent's
// name (the agent itself, or the agentInstance it wraps).
func kaibanAgent(e map[string]any) string {
	if name := strings.TrimSpace(stringOrEmpty(e["agentName"])); name != "" {
		return name
	}
	a, _ := e["agent"].(map[string]any)
	if inner, ok := a["agentInstance"].(map[string]any); ok {
		a = inner
	}
	return strings.TrimSpace(firstNonEmpty(stringOrEmpty(a["name"]), stringOrEmpty(a["role"])))
}
