package run

import (
	"bytes"
	"encoding/json"
	"strings"
)

// runStateItems finds the items of a run of the OpenAI Agents SDK for
// JavaScript as its run state serialises them (result.state.toString(),
// which an app saves to resume an interrupted run): {"$schemaVersion",
// "originalInput", "currentAgent", "modelResponses", "generatedItems":
// [{"type", "rawItem", "agent": {"name"}}…]…}. The original input (a text,
// the user's, or a list of input items) comes first, then each generated
// item's raw item (a Responses API item as the SDK writes it), made by the
// item's agent; a handoff's output by the agent it hands off from (its
// sourceAgent). ok is false for any other object.
func runStateItems(data []byte) (list []any, agents []string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var st struct {
		Schema    json.RawMessage  `json:"$schemaVersion"`
		Original  any              `json:"originalInput"`
		Generated []map[string]any `json:"generatedItems"`
	}
	if dec.Decode(&st) != nil || len(st.Schema) == 0 || st.Generated == nil {
		return nil, nil, false
	}
	list, agents = runItems(st.Original, st.Generated, "rawItem", "sourceAgent")
	return list, agents, true
}

// runItems are the items of a run of the OpenAI Agents SDK: its input's
// (inputItems), then each item's raw item (under rawKey), made by the
// item's agent; a handoff's output by the agent it hands off from (under
// sourceKey). An item with no raw item is passed over.
func runItems(input any, items []map[string]any, rawKey, sourceKey string) (list []any, agents []string) {
	list, agents = inputItems(input)
	for _, it := range items {
		raw, ok := it[rawKey].(map[string]any)
		if !ok {
			continue
		}
		list = append(list, raw)
		agents = append(agents, firstNonEmpty(namedAgent(it["agent"]), namedAgent(it[sourceKey])))
	}
	return list, agents
}

// inputItems are the items of a run's input, each made by no agent: a
// text, the user's message, or a list of input items.
func inputItems(input any) (list []any, agents []string) {
	switch in := input.(type) {
	case string:
		if strings.TrimSpace(in) != "" {
			list = append(list, map[string]any{"role": "user", "content": in})
			agents = append(agents, "")
		}
	case []any:
		for _, e := range in {
			list = append(list, e)
			agents = append(agents, "")
		}
	}
	return list, agents
}
