package run

import (
	"bytes"
	"encoding/json"

	"go.yaml.in/yaml/v3"
)

// taskWeaverYAML is a TaskWeaver conversation saved as YAML (the raw
// experience files it keeps, raw_exp_*.yaml: "rounds", each with its
// "post_list") as the same object in JSON, for the JSON readers; ok is
// false for any other text, and for YAML that holds no such rounds.
func taskWeaverYAML(data []byte) ([]byte, bool) {
	if !yamlRoundsHead(data) {
		return nil, false
	}
	var o map[string]any
	if yaml.Unmarshal(data, &o) != nil {
		return nil, false
	}
	rounds, _ := o["rounds"].([]any)
	if !objectsAll(rounds, func(r map[string]any) bool { _, ok := r["post_list"].([]any); return ok }) {
		return nil, false
	}
	out, err := json.Marshal(o)
	if err != nil {
		return nil, false
	}
	return out, true
}

// yamlRoundsHead says whether text has a top-level "rounds:" key among
// its lines that holds a list, as a TaskWeaver conversation in YAML does:
// its items on the lines below, or a list in brackets. A key of that
// name that holds a scalar (a configuration's "rounds: 3") is none.
func yamlRoundsHead(text []byte) bool {
	for line := range bytes.Lines(text) {
		rest, ok := bytes.CutPrefix(line, []byte("rounds:"))
		if !ok {
			continue
		}
		rest = bytes.TrimSpace(rest)
		if len(rest) == 0 || rest[0] == '#' || rest[0] == '[' {
			return true
		}
	}
	return false
}
