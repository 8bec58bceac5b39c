package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCodingRuns: a Moatless Tools trajectory is its task, then each
// action of each transition as its state's turn with the output its
// response gave back; an Agentless localization record is each stage's
// prompt and response, a run a record; a label record labels the one run
// beside it.
func TestCodingRuns(t *testing.T) {
	const moatless = `{"name": "MoatlessTools", "initial_message": "bulk_create drops IDs",
		"transitions": [
			{"id": 0, "state": {"name": "Pending"}, "actions": []},
			{"id": 1, "state": {"name": "SearchCode", "model": "m"}, "actions": [{"request": {"scratch_pad": "Look at bulk_create.", "search_requests": [{"function_names": ["bulk_create"]}]}, "response": {"trigger": "did_search", "output": {"ranked_spans": [{"file_path": "query.py"}]}}}]},
			{"id": 2, "state": {"name": "PlanToCode"}, "actions": [{"request": {"scratch_pad": "Allow IGNORE.", "action": "modify", "file_path": "query.py"}, "response": {"trigger": "edit_code", "output": {}}}]}],
		"info": {"instance_id": "django__django-17051"}, "mistake_agent": "PlanToCode", "mistake_step": 3}`
	const agentless = `{"instance_id": "a-1", "found_files": ["python.py"], "file_traj": {"prompt": "Which files? issue", "response": "python.py", "usage": {}}, "related_loc_traj": {"prompt": "Which functions?", "response": ["function: setup", "function: other"]}}`
	type step struct{ agent, text string }
	for _, tt := range []struct {
		name, data string
		runs       []string
		steps      []step
		label      *Label
	}{
		{"Moatless", moatless, []string{""}, []step{{"user", "bulk_create drops IDs"}, {"SearchCode", "Look at bulk_create."}, {"SearchCode", `{"ranked_spans":[{"file_path":"query.py"}]}`}, {"PlanToCode", "Allow IGNORE."}}, &Label{Agent: "PlanToCode", Step: 3}},
		{"Agentless", agentless, []string{""}, []step{{"user", "Which files? issue"}, {"assistant", "python.py"}, {"user", "Which functions?"}, {"assistant", "function: setup"}}, nil},
		{"Agentless labelled", agentless + "\n" + `{"mistake_agent": "assistant", "mistake_step": 1, "mistake_reason": "r"}`, []string{""}, []step{{"user", "Which files? issue"}, {"assistant", "python.py"}, {"user", "Which functions?"}, {"assistant", "function: setup"}}, &Label{Agent: "assistant", Step: 1, Reason: "r"}},
		{"Agentless records", agentless + "\n" + `{"instance_id": "a-2", "found_files": [], "file_traj": {"prompt": "Which files? other", "response": "x.py"}}`, []string{"a-1", "a-2"}, []step{{"user", "Which files? issue"}, {"assistant", "python.py"}, {"user", "Which functions?"}, {"assistant", "function: setup"}}, nil},
	} {
		cs, err := ParseAll(t.Context(), "run.json", []byte(tt.data), Options{})
		require.NoError(t, err, tt.name)
		require.Len(t, cs, len(tt.runs), tt.name)
		for i, c := range cs {
			assert.Equal(t, tt.runs[i], c.Run.TraceID, tt.name)
		}
		var got []step
		for _, s := range cs[0].Run.Steps {
			got = append(got, step{s.Agent, s.Content})
		}
		assert.Equal(t, tt.steps, got, tt.name)
		if tt.label == nil {
			assert.Nil(t, cs[0].Label, tt.name)
		} else if assert.NotNil(t, cs[0].Label, tt.name) {
			assert.Equal(t, tt.label.Agent, cs[0].Label.Agent, tt.name)
			assert.Equal(t, tt.label.Step, cs[0].Label.Step, tt.name)
		}
	}
}

// TestAgentlessLabelBesideSeveralRecords: a label record beside several
// Agentless records labels none of them; the error says so and where a
// label goes, instead of calling the file an unknown format.
func TestAgentlessLabelBesideSeveralRecords(t *testing.T) {
	data := `{"instance_id": "a-1", "found_files": ["python.py"], "file_traj": {"prompt": "Which files? issue", "response": "python.py"}}
{"instance_id": "a-2", "found_files": [], "file_traj": {"prompt": "Which files? other", "response": "x.py"}}
{"mistake_agent": "assistant", "mistake_step": 1}`
	_, err := ParseAll(t.Context(), "loc_outputs.jsonl", []byte(data), Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "loc_outputs.jsonl")
	assert.Contains(t, err.Error(), "a label record beside 2 Agentless records")
	assert.NotContains(t, err.Error(), "unknown format")
}

// TestMoatlessRetry: a Moatless state that rejects the model's request
// answers it with a retry message (its response {"trigger": "retry",
// "retry_message"}) instead of an output: that message is the call's
// result, a failure, and the request the model makes again is its next
// turn.
func TestMoatlessRetry(t *testing.T) {
	const data = `{"initial_message": "bulk_create drops IDs",
		"transitions": [{"id": 1, "state": {"name": "PlanToCode"}, "actions": [
			{"request": {"scratch_pad": "Edit the manager.", "action": "modify", "file_path": "manager.py"}, "response": {"trigger": "retry", "retry_message": "File manager.py is not found in the file context."}},
			{"request": {"scratch_pad": "Edit the query.", "action": "modify", "file_path": "query.py"}, "response": {"trigger": "edit_code", "output": {"file_path": "query.py"}}}]}]}`
	cs, err := ParseAll(t.Context(), "trajectory.json", []byte(data), Options{})
	require.NoError(t, err)
	require.Len(t, cs, 1)
	var got []string
	for _, s := range cs[0].Run.Steps {
		got = append(got, string(s.Kind)+" "+s.Content)
	}
	assert.Equal(t, []string{
		"user bulk_create drops IDs",
		"tool_call Edit the manager.",
		"tool_result Error: File manager.py is not found in the file context.",
		"tool_call Edit the query.",
		`tool_result {"file_path":"query.py"}`,
	}, got)
}

// TestAgentlessRecordWithoutStages: an Agentless record saved without its
// stages' prompts and responses is what its stages found, a run of its
// own beside the others; one that found nothing either is refused by
// name, not as an unknown format.
func TestAgentlessRecordWithoutStages(t *testing.T) {
	const staged = `{"instance_id": "a-1", "found_files": ["python.py"], "file_traj": {"prompt": "Which files? issue", "response": "python.py"}}`
	tests := []struct {
		name, record string
		want         []string // the second run's steps, "agent: content"
		err          string
	}{
		{"found files", `{"instance_id": "a-2", "found_files": ["src/a.py", "src/b.py"]}`,
			[]string{"assistant: src/a.py\nsrc/b.py"}, ""},
		{"found places", `{"instance_id": "a-2", "found_files": ["a.py"], "found_related_locs": [["function: f\nclass: C"]], "found_edit_locs": [[{"line": 3}]]}`,
			[]string{"assistant: a.py", "assistant: function: f\nclass: C", `assistant: [[{"line":3}]]`}, ""},
		{"found nothing", `{"instance_id": "a-2", "found_files": []}`, nil, "Agentless record a-2: no stage says anything"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := ParseAll(t.Context(), "loc_outputs.jsonl", []byte(staged+"\n"+tt.record), Options{})
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.NotContains(t, err.Error(), "unknown format")
				return
			}
			require.NoError(t, err)
			require.Len(t, cs, 2)
			assert.Equal(t, "a-2", cs[1].Run.TraceID)
			var got []string
			for _, s := range cs[1].Run.Steps {
				got = append(got, s.Agent+": "+s.Content)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
