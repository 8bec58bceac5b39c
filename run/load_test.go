package run

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadFormats(t *testing.T) {
	tests := []struct {
		file        string
		format      Format
		steps       int
		question    string
		groundTruth string
		agents      []string
		kinds       map[int]Kind
		targets     map[int]string
		label       *Label
	}{
		{
			file: "magentic.json", format: FormatWhoWhen, steps: 12,
			question: "What was the population of the town of Brindle Cove according to the 2020 census?", groundTruth: "4,312",
			agents:  []string{"human", "Orchestrator", "WebSurfer", "Assistant"},
			kinds:   map[int]Kind{0: KindUser, 1: KindThought, 3: KindInstruction, 4: KindMessage, 11: KindTermination},
			targets: map[int]string{3: "WebSurfer", 9: "Assistant"},
			label:   &Label{Agent: "WebSurfer", Step: 7, Reason: "WebSurfer opened the travel blog instead of the census page it was told to open and reported its figure."},
		},
		{
			file: "autogen.json", format: FormatWhoWhen, steps: 5, groundTruth: "9",
			question: "A bakery sells muffins at $2.50 each and a box of 6 for $12. How much does a customer save buying 3 boxes instead of 18 single muffins?",
			agents:   []string{"Pricing_Expert", "Computer_terminal", "Math_Expert", "Verification_Expert"},
			// Named group-chat members speak as "user" without being the task giver.
			kinds: map[int]Kind{0: KindMessage, 2: KindMessage},
			label: &Label{Agent: "Math_Expert", Step: 3, Reason: "Math_Expert invented boxes of 8 muffins, contradicting the task's box of 6, and overturned the correct result."},
		},
		{
			file: "openai_tools.json", format: FormatTranscript, steps: 6,
			question: "What is the weather in Oslo in Fahrenheit?",
			agents:   []string{"system", "user", "planner", "executor", "tool"},
			kinds:    map[int]Kind{0: KindSystem, 1: KindUser, 2: KindMessage, 3: KindToolCall, 4: KindToolResult, 5: KindMessage},
		},
		{
			file: "chat.jsonl", format: FormatTranscript, steps: 3, question: "Find the capital of Australia.",
			agents: []string{"user", "researcher", "critic"},
			kinds:  map[int]Kind{0: KindUser, 1: KindMessage},
		},
		{
			file: "array.json", format: FormatTranscript, steps: 3, question: "Find the capital of Australia.",
			agents: []string{"user", "researcher", "critic"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			c, err := LoadCase(filepath.Join("..", "testdata", "runs", tt.file), Options{})
			require.NoError(t, err)
			r := c.Run
			assert.Equal(t, tt.format, r.Format)
			require.Len(t, r.Steps, tt.steps)
			assert.Equal(t, tt.question, r.Question)
			assert.Equal(t, tt.groundTruth, r.GroundTruth)
			assert.Equal(t, tt.agents, r.Agents())
			for i, s := range r.Steps {
				assert.Equal(t, i, s.Index)
			}
			for i, k := range tt.kinds {
				assert.Equal(t, k, r.Steps[i].Kind, "step %d", i)
			}
			for i, target := range tt.targets {
				assert.Equal(t, target, r.Steps[i].Target(), "step %d", i)
			}
			assert.Equal(t, tt.label, c.Label)
		})
	}
}

func TestLoadToolCalls(t *testing.T) {
	r, err := Load(filepath.Join("..", "testdata", "runs", "openai_tools.json"), Options{})
	require.NoError(t, err)
	assert.Equal(t, []ToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city": "Oslo"}`}}, r.Steps[3].ToolCalls())
	assert.Equal(t, `get_weather({"city": "Oslo"})`, r.Steps[3].Content, "a reply that only calls a tool says what it calls, as in a trace")
	assert.Equal(t, "call_1", r.Steps[4].ToolCallID())
	assert.Equal(t, "It is 10 degrees Celsius, which is 60 °F.", r.Steps[5].Content)
}

func TestLoadOverrides(t *testing.T) {
	r, err := Load(filepath.Join("..", "testdata", "runs", "chat.jsonl"), Options{Question: "Q?", GroundTruth: "Canberra"})
	require.NoError(t, err)
	assert.Equal(t, "Q?", r.Question)
	assert.Equal(t, "Canberra", r.GroundTruth)

	r, err = Load(filepath.Join("..", "testdata", "runs", "magentic.json"), Options{GroundTruth: "Canberra", NoGroundTruth: true})
	require.NoError(t, err)
	assert.Empty(t, r.GroundTruth, "NoGroundTruth wins over the file and the flag")
}

func TestAgentKey(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"WebSurfer", "Websurfer", true},
		{"WebSurfer", "web_surfer", true},
		{"Web-Surfer", "web surfer", true},
		{"Verification_Expert", "verification expert", true},
		{"Agent1", "Agent2", false},
		{"Agent1", "agent_1", true},
		{"Coder", "Coder2", false},
		{"", "", false},
		{"--", "__", false},
		{"Ärztin", "ärztin", true},
	}
	for _, tt := range tests {
		t.Run(tt.a+"|"+tt.b, func(t *testing.T) {
			assert.Equal(t, tt.same, SameAgent(tt.a, tt.b))
			assert.Equal(t, tt.same, SameAgent(tt.b, tt.a), "symmetric")
		})
	}
}

// A label names a team's member by its whole name, by its name or by its
// profile, where the run writes the profile in brackets after the name as
// MetaGPT does; two members of one profile are still two agents.
func TestNamesAgent(t *testing.T) {
	tests := []struct {
		label, agent string
		names        bool
	}{
		{"Alex(Engineer)", "Alex(Engineer)", true},
		{"Alex", "Alex(Engineer)", true},
		{"engineer", "Alex (Engineer)", true},
		{"Alex(Engineer)", "Alex", true},
		{"Alex(Engineer)", "Engineer", true},
		{"Bob(Engineer)", "Alex(Engineer)", false},
		{"Eve", "Alex(Engineer)", false},
		{"QA Engineer", "Edward(QA Engineer)", true},
		{"Engineer", "Edward(QA Engineer)", false},
		{"Engineer", "Engineer2", false},
		{"()", "Alex", false},
		{"", "Alex(Engineer)", false},
	}
	for _, tt := range tests {
		t.Run(tt.label+"|"+tt.agent, func(t *testing.T) {
			assert.Equal(t, tt.names, NamesAgent(tt.label, tt.agent))
		})
	}
}

func TestFingerprint(t *testing.T) {
	r := &Run{Source: "a.json", Format: FormatWhoWhen, Question: "How far?", Steps: []Step{{Agent: "Planner", Content: "Look it up."}, {Agent: "Surfer", Content: "12 km"}}}
	same := *r
	same.Source, same.Format, same.GroundTruth = "copy.jsonl", FormatTranscript, "12 km"
	assert.Equal(t, r.Fingerprint(), same.Fingerprint(), "the file, its format and the answer do not count")
	assert.Len(t, r.Fingerprint(), 16)

	for name, change := range map[string]func(*Run){
		"task":             func(r *Run) { r.Question = "How near?" },
		"agent":            func(r *Run) { r.Steps[1].Agent = "Coder" },
		"text":             func(r *Run) { r.Steps[1].Content = "13 km" },
		"a step more":      func(r *Run) { r.Steps = append(r.Steps, Step{Agent: "Surfer"}) },
		"text moved along": func(r *Run) { r.Steps[0].Agent, r.Steps[0].Content = "PlannerL", "ook it up." },
	} {
		other := *r
		other.Steps = slices.Clone(r.Steps)
		change(&other)
		assert.NotEqual(t, r.Fingerprint(), other.Fingerprint(), name)
	}
}

// FuzzAgentKey holds AgentKey and AppendAgentKey, which read ASCII names
// byte by byte, to the reading of any name rune by rune.
func FuzzAgentKey(f *testing.F) {
	for _, s := range []string{"WebSurfer", "web_surfer", "Agent 1", "agent1", "", "--", "Ärztin", "ZqAD a", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		assert.Equal(t, agentKey(name), AgentKey(name), "%q", name)
		assert.Equal(t, "k:"+agentKey(name), string(AppendAgentKey([]byte("k:"), name)), "%q", name)
	})
}

// TestLabelStaysBesideTheRun pins the one way the label is kept from the
// attributor: a *Run has no field that holds it, at any depth.
func TestLabelStaysBesideTheRun(t *testing.T) {
	labelType := reflect.TypeOf(Label{})
	var walk func(t reflect.Type, seen map[reflect.Type]bool) bool
	walk = func(typ reflect.Type, seen map[reflect.Type]bool) bool {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ == labelType {
			return true
		}
		if typ.Kind() != reflect.Struct || seen[typ] {
			return false
		}
		seen[typ] = true
		for i := range typ.NumField() {
			if walk(typ.Field(i).Type, seen) {
				return true
			}
		}
		return false
	}
	assert.False(t, walk(reflect.TypeOf(Run{}), map[reflect.Type]bool{}), "run.Run must not reach a Label")

	c, err := LoadCase(filepath.Join("..", "testdata", "runs", "magentic.json"), Options{})
	require.NoError(t, err)
	require.NotNil(t, c.Label, "the example is labelled")
	r, err := Load(filepath.Join("..", "testdata", "runs", "magentic.json"), Options{})
	require.NoError(t, err)
	assert.Equal(t, c.Run, r, "Load is LoadCase without the label")
}

func TestLoadForcedFormat(t *testing.T) {
	path := filepath.Join("..", "testdata", "runs", "chat.jsonl")
	_, err := Load(path, Options{Format: FormatWhoWhen})
	require.Error(t, err)
	assert.Contains(t, err.Error(), path)
	r, err := Load(path, Options{Format: FormatTranscript})
	require.NoError(t, err)
	assert.Len(t, r.Steps, 3)
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		file string
		want string
	}{
		{"invalid.json", "invalid JSON at line 4, column 23"},
		{"empty.json", "file is empty"},
		{"no_steps.json", "run has no steps"},
		{"unknown.json", "unknown format: a JSON object with neither \"history\" (Who&When) nor \"messages\" (transcript), nor a trace layout (its keys: foo)"},
		{"not_json.txt", "unknown format: not JSON"},
		{"bad_content.json", "history[0]: content is a number"},
		{"truncated.json", "unexpected end of file"},
		{"bad_line.jsonl", "invalid JSON at line 3"},
		{"no_role.json", `neither "name" nor "role"`},
		{"empty_list.json", "run has no steps"},
		{"records.json", "unknown format: a list whose elements have no role, content or tool call, and no trace layout (the first element's keys: id, name)"},
		{"strings.json", "unknown format: a list whose element at line 2, column 3 is a JSON string, neither a chat message nor a span"},
		{"array_line.jsonl", "unknown format: JSONL line 2 is a JSON array, neither a chat message nor a span"},
		{"bad_label.json", `mistake_step "later" is not a step index`},
		{"label_without_step.json", `mistake_agent "Orchestrator" is given without a mistake_step`},
		{"missing.json", "no such file or directory"},
		{"two_formats.json", `ambiguous format: the file matches 2 formats, whowhen ("history"), otlp ("resourceSpans"); name the one to read with --input-format`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "bad", tt.file)
			_, err := Load(path, Options{})
			require.Error(t, err)
			msg := err.Error()
			assert.True(t, strings.HasPrefix(msg, "load "+path+": "), msg)
			assert.Contains(t, msg, tt.want)
			assert.NotContains(t, msg, "\n", "errors are one line")
		})
	}
}

// TestLoadSaysWhatAFileIs: a file of a kind that holds runs offattr does
// not read (an archive, a saved web page, another compression), or a frame that does not read (a Parquet file cut short
// or broken, a table of neither spans nor messages), is refused by what
// it is.
func TestLoadSaysWhatAFileIs(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, content, want string
	}{
		{"spans.parquet", "PAR1\x15\x04\x15\x10", "a Parquet file cut short"},
		{"export.zip", "PK\x03\x04\x14\x00", "a ZIP archive"},
		{"trace.html", "\n<!DOCTYPE html>\n<html><body>", "an HTML page"},
		{"page.htm", "<html lang=\"en\">", "an HTML page"},
		{"spans.csv", ",name,span_kind,parent_id\n0,Planner,AGENT,\n1,ChatCompletion,LLM,a1\n", "a CSV table"},
		{"spans.tsv", "name\tspan_kind\tparent_id\nPlanner\tAGENT\t\n", "a TSV table"},
		{"run.json.zst", "\x28\xb5\x2f\xfd\x04\x00", "compressed with zstd"},
		{"run.json.xz", "\xfd7zXZ\x00\x00", "compressed with xz"},
		{"run.json.bz2", "BZh91AY&SY", "compressed with bzip2"},
		{"notes.txt", "User: hello\nAssistant: hi\n", "not JSON (starts with \"U\")"},
		{"chat.txt", "User: hi, is it raining?\nAssistant: yes, take an umbrella\n", "not JSON (starts with \"U\")"},
		{"labels.jsonl", `{"trace_id": "t1", "span_id": "s1", "reason": "wrong zip"}` + "\n" + `{"trace_id": "t2", "span_id": "s2", "reason": "gave up"}` + "\n",
			"a labels file for telemetry (trace_id, span_id, reason), not a run: give it to eval or fit with --labels"},
		{"label.json", `{"trace_id": "t1", "span_id": "s1"}`, "a labels file for telemetry (trace_id, span_id, reason), not a run: give it to eval or fit with --labels"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			require.NoError(t, os.WriteFile(path, []byte(tt.content), 0o644))
			_, err := Load(path, Options{})
			require.ErrorIs(t, err, ErrUnknownFormat)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "\n", "errors are one line")
		})
	}
	// A whole Parquet file named as a format of another kind is refused
	// as what it is.
	frame := filepath.Join("..", "testdata", "telemetry", "phoenix-frame.parquet")
	_, err := Load(frame, Options{Format: FormatWhoWhen})
	require.ErrorIs(t, err, ErrUnknownFormat)
	assert.Contains(t, err.Error(), "a Parquet file, read as a frame of spans or messages only")

	// A Parquet file whole by its marks whose footer does not read is one
	// that does not read, not one of no known format.
	path := filepath.Join(dir, "broken.parquet")
	require.NoError(t, os.WriteFile(path, []byte("PAR1\x15\x04\x15\x10\x00\x00\x00\x00PAR1"), 0o644))
	_, err = Load(path, Options{})
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrUnknownFormat)
	assert.Contains(t, err.Error(), "broken.parquet: a Parquet file that does not read")
}

// TestTableOfMessages: a transcript saved as a table (a data frame of
// messages written by to_csv) reads as the transcript, a quoted cell's
// comma its text's.
func TestTableOfMessages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chat.csv")
	require.NoError(t, os.WriteFile(path, []byte(",role,name,content\n0,user,,What is 2+2?\n1,assistant,solver,\"It is 5, I think.\"\n"), 0o644))
	r, err := Load(path, Options{})
	require.NoError(t, err)
	require.Len(t, r.Steps, 2)
	assert.Equal(t, "What is 2+2?", r.Question)
	assert.Equal(t, "solver", r.Steps[1].Agent)
	assert.Equal(t, "It is 5, I think.", r.Steps[1].Content)
}

// TestTwoFormatsNamed: a file with the marks of two formats is read as
// the one the user names.
func TestTwoFormatsNamed(t *testing.T) {
	path := filepath.Join("..", "testdata", "bad", "two_formats.json")
	r, err := Load(path, Options{Format: FormatWhoWhen})
	require.NoError(t, err)
	assert.Equal(t, "Plan the trip.", r.Question)
	_, err = Load(path, Options{Format: FormatOTLP})
	assert.ErrorIs(t, err, ErrEmpty, "read as OTLP, it holds no spans")
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats {
		got, err := ParseFormat(string(f))
		require.NoError(t, err)
		assert.Equal(t, f, got)
	}
	for _, alias := range []string{"phoenix", "mlflow", "zipkin", "genkit"} {
		got, err := ParseFormat(alias)
		require.NoError(t, err)
		assert.Equal(t, FormatOpenInference, got, alias)
	}
	_, err := ParseFormat("yaml")
	assert.ErrorContains(t, err, `unknown format "yaml"`)
}

// FuzzParse reads fuzzed files as auto-detected; FuzzParseWhoWhen and
// FuzzParseTranscript force each format (input_test.go).
func FuzzParse(f *testing.F) { fuzzFormat(f, FormatAuto) }

// FuzzUnquoteString holds the quick reading of a message's text to
// json.Unmarshal: where it reads a literal, it reads what json.Unmarshal
// reads, and it reads nothing json.Unmarshal refuses.
func FuzzUnquoteString(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\nb\t\"c\"\\d\/e\r\b\f"`, `"\u00e9t\u00e9"`, "\"bad\xffutf8\"", "\"raw\ncontrol\"", `"a"b"`, `"trailing\"`, `"\x"`, `""`, `"`, `"Hé ✓"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := unquoteString(raw)
		if !ok {
			return
		}
		var want string
		require.NoError(t, json.Unmarshal(raw, &want), "%q", raw)
		assert.Equal(t, want, got, "%q", raw)
	})
}

// FuzzMagenticParts holds the quick refusal of roles not ending in ")" to
// the regexp it skips, on trimmed roles as step reads them.
func FuzzMagenticParts(f *testing.F) {
	for _, s := range []string{"Orchestrator (-> WebSurfer)", "Orchestrator (thought)", "assistant", "a ( b ) \t", "x)\u00a0", "()", "WebSurfer"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		role := strings.TrimSpace(s)
		assert.Equal(t, magenticRole.FindStringSubmatch(role), magenticParts(role), "%q", role)
	})
}

func TestUnquoteString(t *testing.T) {
	tests := []struct {
		raw  string
		want string
		ok   bool
	}{
		{`"plain"`, "plain", true},
		{`"a\nb\t\"c\"\\d\/e"`, "a\nb\t\"c\"\\d/e", true},
		{`"Hé ✓"`, "Hé ✓", true},
		{`"\u00e9"`, "", false},        // left to json.Unmarshal
		{"\"bad\xffutf8\"", "", false}, // json.Unmarshal writes U+FFFD
		{"\"raw\ncontrol\"", "", false},
		{`"a"b"`, "", false},
		{`"trailing\"`, "", false},
	}
	for _, tt := range tests {
		got, ok := unquoteString([]byte(tt.raw))
		assert.Equal(t, tt.ok, ok, "%q", tt.raw)
		assert.Equal(t, tt.want, got, "%q", tt.raw)
	}
}

// TestUserMessagesNamedByTheirRole: a Who&When message from the user named
// only by its role is the user's (KindUser): the first gives the task, a
// later one is a simulated customer's turn, which the rules may blame as a
// participant's. A message with a name of its own is an agent's.
func TestUserMessagesNamedByTheirRole(t *testing.T) {
	data := []byte(`{"question": "Refund order 7.", "history": [
		{"role": "user", "name": "user", "content": "Refund order 7."},
		{"role": "assistant", "name": "agent", "content": "Which item?"},
		{"role": "user", "name": "user", "content": "The lamp."}]}`)
	r, err := Parse("case.json", data, Options{})
	require.NoError(t, err)
	assert.Equal(t, []Kind{KindUser, KindMessage, KindUser}, []Kind{r.Steps[0].Kind, r.Steps[1].Kind, r.Steps[2].Kind},
		"a message named only by its role is the user's, the task and a simulated user's later turns alike")

	data = []byte(`{"question": "Count rows.", "history": [
		{"role": "user", "content": "Count rows."},
		{"role": "user", "name": "Coder", "content": "I will count them."}]}`)
	r, err = Parse("group.json", data, Options{})
	require.NoError(t, err)
	assert.Equal(t, KindMessage, r.Steps[1].Kind, "in a group chat every other speaker's role is user: a name of its own is an agent's")
}

// TestSWEAgentActions: a SWE-agent trajectory from before function
// calling (its "history": each assistant reply writes its command in its
// text and again as "action", and the next message, in the user's role
// and marked "observation", gives back what the command printed) is read
// as calls to the agent's shell and their results. The issue, though
// marked an observation, follows no action and stays the task; a user
// message after an action that is no observation stays the user's.
func TestSWEAgentActions(t *testing.T) {
	data := []byte(`{"environment": "swe_main", "history": [
		{"role": "system", "content": "SETTING: You are an autonomous programmer.", "agent": "primary", "message_type": "system_prompt"},
		{"role": "user", "content": "ISSUE:\nmedian([1, 2, 3, 4]) returns 2.", "agent": "primary", "message_type": "observation"},
		{"role": "assistant", "content": "DISCUSSION\nRun the tests.\n\n` + "```" + `\npython -m pytest -q tests/test_median.py\n` + "```" + `", "thought": "Run the tests.", "action": "python -m pytest -q tests/test_median.py\n", "agent": "primary", "message_type": "action"},
		{"role": "user", "content": "FAILED tests/test_median.py::test_even - assert 2 == 2.5\n(Open file: n/a)\nbash-$", "agent": "primary", "message_type": "observation"},
		{"role": "assistant", "content": "Done.", "action": "submit", "agent": "primary"},
		{"role": "user", "content": "Thanks."}]}`)
	r, err := Parse("django.traj", data, Options{})
	require.NoError(t, err)
	assert.Equal(t, []Kind{KindSystem, KindUser, KindToolCall, KindToolResult, KindToolCall, KindUser}, stepKinds(r))
	require.Len(t, r.Steps[2].ToolCalls(), 1)
	assert.JSONEq(t, `{"command": "python -m pytest -q tests/test_median.py"}`, r.Steps[2].ToolCalls()[0].Arguments)
	assert.Equal(t, "ISSUE:\nmedian([1, 2, 3, 4]) returns 2.", r.Question)
}

// TestSWEAgentUnmarkedObservations: SWE-agent's trajectories written
// before it marked its messages (no "message_type" anywhere) give back what
// an action printed in a plain user-role message. With no message of the
// file marked, the user message right after an action is that action's
// observation; the issue, which follows no action, stays the task.
func TestSWEAgentUnmarkedObservations(t *testing.T) {
	data := []byte(`{"environment": "swe_main", "history": [
		{"role": "system", "content": "SETTING: You are an autonomous programmer.", "agent": "primary"},
		{"role": "user", "content": "ISSUE:\nmedian([1, 2, 3, 4]) returns 2.", "agent": "primary"},
		{"role": "assistant", "content": "Run the tests.", "thought": "Run the tests.", "action": "python -m pytest -q\n", "agent": "primary"},
		{"role": "user", "content": "1 failed, 1 passed in 0.03s\n(Open file: n/a)\nbash-$", "agent": "primary"},
		{"role": "assistant", "content": "Edit.", "action": "sed -i 's/2.5/2/' tests/test_median.py\n", "agent": "primary"},
		{"role": "user", "content": "Your command ran successfully and did not produce any output.", "agent": "primary"}]}`)
	r, err := Parse("median.traj", data, Options{})
	require.NoError(t, err)
	assert.Equal(t, []Kind{KindSystem, KindUser, KindToolCall, KindToolResult, KindToolCall, KindToolResult}, stepKinds(r))
	assert.Equal(t, "ISSUE:\nmedian([1, 2, 3, 4]) returns 2.", r.Question)
}

// TestSWEAgentDemonstrations: SWE-agent puts demonstrations of another
// task in its history before the issue, marked "is_demo": one user
// message holding a whole demonstration, or, put in the history message by
// message, the demonstration's own actions and observations. They are
// part of the prompt, as the system's instructions are: not the task, and
// no call or turn of the run.
func TestSWEAgentDemonstrations(t *testing.T) {
	for name, demo := range map[string]string{
		"one message": `{"role": "user", "content": "Here is a demonstration of how to correctly accomplish this task.\n--- DEMONSTRATION ---\nISSUE: TimeDelta rounds down.\n--- END OF DEMONSTRATION ---", "agent": "primary", "is_demo": true, "message_type": "demonstration"},`,
		"in the history": `{"role": "user", "content": "ISSUE: TimeDelta rounds down.", "agent": "main", "is_demo": true, "message_type": "observation"},
			{"role": "assistant", "content": "Reproduce it.", "action": "python reproduce.py", "tool_calls": [{"id": "call_d1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"python reproduce.py\"}"}}], "agent": "main", "is_demo": true, "message_type": "action"},
			{"role": "tool", "content": [{"type": "text", "text": "344"}], "tool_call_ids": ["call_d1"], "agent": "main", "is_demo": true, "message_type": "observation"},`,
	} {
		t.Run(name, func(t *testing.T) {
			data := []byte(`{"environment": "swe_main", "history": [
				{"role": "system", "content": "SETTING: You are an autonomous programmer.", "agent": "primary", "message_type": "system_prompt"},
				` + demo + `
				{"role": "user", "content": "ISSUE:\nmedian([1, 2, 3, 4]) returns 2.", "agent": "primary", "message_type": "observation"},
				{"role": "assistant", "content": "Run the tests.", "action": "python -m pytest -q\n", "agent": "primary", "message_type": "action"},
				{"role": "user", "content": "1 failed", "agent": "primary", "message_type": "observation"}]}`)
			r, err := Parse("median.traj", data, Options{})
			require.NoError(t, err)
			assert.Equal(t, "ISSUE:\nmedian([1, 2, 3, 4]) returns 2.", r.Question)
			for _, s := range r.Steps[:len(r.Steps)-3] {
				assert.Equal(t, KindSystem, s.Kind, "step %d", s.Index)
				assert.Empty(t, s.ToolCalls(), "step %d", s.Index)
			}
			assert.Equal(t, KindToolResult, r.Steps[len(r.Steps)-1].Kind)
		})
	}
}

// FuzzParseSWEAgent reads SWE-agent trajectories: the kinds' runs in
// that format, and the shapes above.
func FuzzParseSWEAgent(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "kinds", "*", "*.traj"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"history": [{"role": "user", "content": "x", "is_demo": true}, {"role": "assistant", "content": "y", "action": "ls"}, {"role": "user", "content": "z"}]}`))
	fuzzFormat(f, FormatAuto)
}

// TestChatOpenedByANamedUser: a chat exported without a task, whose first
// message after the system prompt is a user message under a name of its
// own (AutoGen's GroupChat.messages, {"content", "role", "name"}, opened by
// the user proxy; a team's requirement from "Human"), takes its task from
// that message, whose sender is the user there; later named user messages
// stay agents' turns. A chat that opens with an agent's reply has no task.
// A Who&When history without a question is read so too, and one with a
// question whose first message posts it word for word (as the run's trace
// shows it).
func TestChatOpenedByANamedUser(t *testing.T) {
	tests := []struct {
		name     string
		data     string
		question string
		kinds    []Kind
	}{
		{"opened by the user proxy", `[
			{"role": "system", "content": "You are a helpful team."},
			{"role": "user", "name": "user_proxy", "content": "Price a 10 kg parcel."},
			{"role": "user", "name": "Engineer", "content": "It costs $17.00."},
			{"role": "user", "name": "user_proxy", "content": "Thanks."}]`,
			"Price a 10 kg parcel.", []Kind{KindSystem, KindUser, KindMessage, KindMessage}},
		{"opened by an agent", `[
			{"role": "assistant", "name": "Planner", "content": "Plan: price the parcel."},
			{"role": "user", "name": "Engineer", "content": "It costs $17.00."}]`,
			"", []Kind{KindMessage, KindMessage}},
		{"saved by the user proxy that opened it, its own messages the assistant's", `[
			{"role": "assistant", "name": "user_proxy", "content": "Price a 10 kg parcel."},
			{"role": "user", "name": "assistant", "content": "Computing 10 * 1.7 with Python."},
			{"role": "assistant", "name": "user_proxy", "content": "17.0"},
			{"role": "user", "name": "assistant", "content": "It costs $17.00. TERMINATE"}]`,
			"Price a 10 kg parcel.", []Kind{KindUser, KindMessage, KindMessage, KindMessage}},
		{"a third speaker is no two-party chat", `[
			{"role": "assistant", "name": "Planner", "content": "Plan: price the parcel."},
			{"role": "user", "name": "Engineer", "content": "It costs $17.00."},
			{"role": "user", "name": "Critic", "content": "Checked."},
			{"role": "assistant", "name": "Planner", "content": "Done."}]`,
			"", []Kind{KindMessage, KindMessage, KindMessage, KindMessage}},
		{"a Who&When history without a question", `{"history": [
			{"role": "user", "name": "Human", "content": "Price a 10 kg parcel."},
			{"role": "assistant", "name": "Engineer", "content": "It costs $17.00."}]}`,
			"Price a 10 kg parcel.", []Kind{KindUser, KindMessage}},
		{"a Who&When history with its question", `{"question": "Price it.", "history": [
			{"role": "user", "name": "Human", "content": "Price a 10 kg parcel."},
			{"role": "assistant", "name": "Engineer", "content": "It costs $17.00."}]}`,
			"Price it.", []Kind{KindMessage, KindMessage}},
		{"a Who&When history whose named user states its question", `{"question": "Price a 10 kg parcel.", "history": [
			{"role": "user", "name": "Human", "content": "Price a 10 kg\n parcel.", "cause_by": "metagpt.actions.add_requirement.UserRequirement"},
			{"role": "assistant", "name": "Engineer", "content": "It costs $17.00."}]}`,
			"Price a 10 kg parcel.", []Kind{KindUser, KindMessage}},
		{"a Who&When history whose question it posts", `{"question": "Price a 10 kg parcel.", "history": [
			{"role": "user", "name": "Human", "content": "Price a 10 kg parcel.\n"},
			{"role": "assistant", "name": "Engineer", "content": "It costs $17.00."}]}`,
			"Price a 10 kg parcel.", []Kind{KindUser, KindMessage}},
		{"a transcript with its question, opened by the user proxy", `{"question": "Price a 10 kg parcel.", "messages": [
			{"role": "system", "content": "You are a helpful team."},
			{"role": "user", "name": "user_proxy", "content": "Price a 10 kg parcel."},
			{"role": "user", "name": "Engineer", "content": "Price a 10 kg parcel."}]}`,
			"Price a 10 kg parcel.", []Kind{KindSystem, KindUser, KindMessage}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse("chat.json", []byte(tt.data), Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.question, r.Question)
			var kinds []Kind
			for _, s := range r.Steps {
				kinds = append(kinds, s.Kind)
			}
			assert.Equal(t, tt.kinds, kinds)
		})
	}
}

// A role's bracket names a Magentic-One step's kind, which is cut from the
// agent's name; any other bracket is part of the name, as MetaGPT writes
// a role's profile after its name, and a label names the agent so.
func TestRoleBrackets(t *testing.T) {
	data := `{"question": "Write a 2048 game.", "history": [
		{"role": "Alice(Product Manager)", "content": "## Original Requirements\nA 2048 game."},
		{"role": "Orchestrator (thought)", "content": "The team has a PRD."},
		{"role": "Orchestrator (-> Alex(Engineer))", "content": "Write board.py."},
		{"role": "Alex(Engineer)", "content": "## Code: board.py"}]}`
	r, err := Parse("team.json", []byte(data), Options{})
	require.NoError(t, err)
	var agents []string
	for _, s := range r.Steps {
		agents = append(agents, s.Agent)
	}
	assert.Equal(t, []string{"Alice(Product Manager)", "Orchestrator", "Orchestrator", "Alex(Engineer)"}, agents)
	assert.Equal(t, []Kind{KindMessage, KindThought, KindInstruction, KindMessage}, []Kind{r.Steps[0].Kind, r.Steps[1].Kind, r.Steps[2].Kind, r.Steps[3].Kind})
	assert.Equal(t, "Alex(Engineer)", r.Steps[2].Target())
}

// TestLoadAllEndsWithItsContext: a read that would never end (a pipe no one
// writes to) ends when the context does, with the context's error.
func TestLoadAllEndsWithItsContext(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := LoadAll(ctx, Stdin, Options{Stdin: pr})
		errc <- err
	}()
	cancel()
	assert.ErrorIs(t, <-errc, context.Canceled)
}

// TestReplyWrittenAsJSON: a history entry whose whole content is a model's
// reply as the API returned it is read as that reply: its calls, and its
// text, or the calls written out when it has none.
func TestReplyWrittenAsJSON(t *testing.T) {
	tests := []struct {
		name    string
		content string
		kind    Kind
		calls   []ToolCall
		text    string
	}{
		{
			name:    "calls and no text",
			content: `{"role": "assistant", "content": null, "tool_calls": [{"function": {"arguments": {"": ""}, "name": "page_down", "description": null}, "id": "call_1", "type": "function"}]}`,
			kind:    KindToolCall,
			calls:   []ToolCall{{ID: "call_1", Name: "page_down", Arguments: `{"": ""}`}},
			text:    `page_down({"": ""})`,
		},
		{
			name:    "calls beside text",
			content: `{"role": "assistant", "content": "Searching.", "tool_calls": [{"id": "c2", "function": {"name": "web_search", "arguments": "{\"query\": \"Oslo\"}"}}]}`,
			kind:    KindToolCall,
			calls:   []ToolCall{{ID: "c2", Name: "web_search", Arguments: `{"query": "Oslo"}`}},
			text:    "Searching.",
		},
		{
			name:    "the older function_call",
			content: ` {"role": "assistant", "function_call": {"name": "lookup", "arguments": "{\"id\": 7}"}}`,
			kind:    KindToolCall,
			calls:   []ToolCall{{Name: "lookup", Arguments: `{"id": 7}`}},
			text:    `lookup({"id": 7})`,
		},
		{
			name:    "a reply that names no role is not known to be one",
			content: `{"tool_calls": [{"id": "c5", "function": {"name": "f", "arguments": "{}"}}]}`,
			kind:    KindMessage,
		},
		{
			name:    "another role's message is quoted, not made",
			content: `{"role": "user", "content": "x", "tool_calls": [{"id": "c3", "function": {"name": "f", "arguments": "{}"}}]}`,
			kind:    KindMessage,
		},
		{
			name:    "a reply without calls stays text",
			content: `{"role": "assistant", "content": "Done.", "tool_calls": []}`,
			kind:    KindMessage,
		},
		{
			name:    "not JSON",
			content: `{"tool_calls": [ broken`,
			kind:    KindMessage,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content, err := json.Marshal(tt.content)
			require.NoError(t, err)
			data := []byte(`{"question": "Q", "history": [{"role": "user", "content": "Q"}, {"name": "search_agent", "role": "assistant", "content": ` + string(content) + `}]}`)
			r, err := Parse("case.json", data, Options{})
			require.NoError(t, err)
			s := r.Steps[1]
			assert.Equal(t, tt.kind, s.Kind)
			assert.Equal(t, "search_agent", s.Agent)
			assert.Equal(t, tt.calls, s.ToolCalls())
			if tt.text == "" {
				tt.text = tt.content
			}
			assert.Equal(t, tt.text, s.Content)
		})
	}
}

// A transcript object carries its label as a Who&When case does: eval
// scores a user's own labelled transcripts.
func TestTranscriptLabel(t *testing.T) {
	msgs := `"messages": [{"role": "user", "content": "How tall is the tower?"}, {"role": "assistant", "name": "researcher", "content": "It is 300 m."}]`
	tests := []struct {
		name, data string
		want       *Label
		err        string
	}{
		{"labelled", `{` + msgs + `, "mistake_agent": "researcher", "mistake_step": "1", "mistake_reason": "misread"}`, &Label{Agent: "researcher", Step: 1, Reason: "misread"}, ""},
		{"a number", `{` + msgs + `, "mistake_agent": "researcher", "mistake_step": 1}`, &Label{Agent: "researcher", Step: 1}, ""},
		{"unlabelled", `{` + msgs + `}`, nil, ""},
		{"no step", `{` + msgs + `, "mistake_agent": "researcher"}`, nil, `mistake_agent "researcher" is given without a mistake_step`},
		{"not a step", `{` + msgs + `, "mistake_agent": "researcher", "mistake_step": "last"}`, nil, `mistake_step "last" is not a step index`},
		{"not a step, over lines", `{` + msgs + `, "mistake_agent": "researcher", "mistake_step": [1,
			2]}`, nil, `mistake_step [1,2] is not a step index`},
		{"not a step, long", `{` + msgs + `, "mistake_agent": "researcher", "mistake_step": "` + strings.Repeat("9", 1<<20) + `"}`, nil, `mistake_step "9999999999999999999999999999999999999999…" is not a step index`},
		{"no step, a long agent", `{` + msgs + `, "mistake_agent": "` + strings.Repeat("r", 1<<20) + `"}`, nil, `mistake_agent "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr…" is given without a mistake_step`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("chat.json", []byte(tt.data), Options{})
			if tt.err != "" {
				require.ErrorContains(t, err, tt.err)
				assert.Less(t, len(err.Error()), 200, "an error quotes a label's value in part")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, FormatTranscript, c.Run.Format)
			assert.Equal(t, tt.want, c.Label)
		})
	}
}

// TestCodeAndConsoleMessages: Open Interpreter's messages say what each
// is by their type: an assistant's "code" message (its language the
// format) runs that code, a call of the interpreter's execute, and the
// "console" message after it is that run's output, a tool's result; an
// assistant's "message" is its words.
func TestCodeAndConsoleMessages(t *testing.T) {
	r, err := Parse("conversation.json", []byte(`[
		{"role": "user", "type": "message", "content": "How many lines in notes.txt?"},
		{"role": "assistant", "type": "message", "content": "I'll count them."},
		{"role": "assistant", "type": "code", "format": "shell", "content": "wc -l notes.txt"},
		{"role": "computer", "type": "console", "format": "output", "content": "12 notes.txt"},
		{"role": "assistant", "type": "message", "content": "It has 12 lines."}]`), Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range r.Steps {
		got = append(got, s.Agent+" "+string(s.Kind))
	}
	assert.Equal(t, []string{"user user", "assistant message", "assistant tool_call", "computer tool_result", "assistant message"}, got)
	require.Len(t, r.Steps[2].ToolCalls(), 1)
	assert.Equal(t, ToolCall{Name: "execute", Arguments: `{"code":"wc -l notes.txt","language":"shell"}`}, r.Steps[2].ToolCalls()[0])
	assert.Equal(t, "12 notes.txt", r.Steps[3].Content)
}

// FuzzCodeAndConsoleMessages reads fuzzed Open Interpreter messages.
func FuzzCodeAndConsoleMessages(f *testing.F) {
	f.Add([]byte(`[{"role": "user", "type": "message", "content": "q"}, {"role": "assistant", "type": "code", "format": "python", "content": "print(1)"},
		{"role": "computer", "type": "console", "format": "output", "content": "1"}, {"role": "assistant", "type": "message", "content": "1"}]`))
	f.Add([]byte(`{"mistake_agent": "assistant", "mistake_step": 0, "messages": [{"role": "assistant", "type": "code", "format": " ", "content": "x"}, {"role": "assistant", "type": "console", "content": ""}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkParsed(t, data, FormatAuto) })
}
