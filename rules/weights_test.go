package rules

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/offattr/offattr/run"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseWeights(t *testing.T) {
	valid := func() map[string]any {
		return map[string]any{
			"version":        WeightsVersion,
			"step":           map[string]float64{"rule:local_fault": 1, "step:flagged": 0.5},
			"confidence":     map[string]float64{CalBias: -1, CalLogP: 0.5},
			"critical_share": 0.8,
			"triage":         map[string]float64{"clear": 1, "escalate": 0.4},
		}
	}
	for _, c := range []struct {
		name  string
		edit  func(m map[string]any)
		error string
	}{
		{"valid", func(map[string]any) {}, ""},
		{"no confidence calibration", func(m map[string]any) { delete(m, "confidence") }, ""},
		{"an agent model (version 1)", func(m map[string]any) { m["agent"] = map[string]float64{"agent:blame": 1} }, "not a weights file"},
		{"another version", func(m map[string]any) { m["version"] = 99 }, "weights version 99"},
		{"no step weights", func(m map[string]any) { delete(m, "step") }, `no "step" weights`},
		{"critical share out of range", func(m map[string]any) { m["critical_share"] = 1.5 }, "critical_share 1.5"},
		{"bands out of order", func(m map[string]any) { m["triage"] = map[string]float64{"clear": 0.3, "escalate": 0.6} }, "triage bands"},
		{"unknown rule in step", func(m map[string]any) { m["step"] = map[string]float64{"rule:nope": 1} }, `step weight for unknown rule "nope"`},
		{"unknown rule in a tools twin", func(m map[string]any) { m["step"] = map[string]float64{"tools|rule:nope": 1} }, `step weight for unknown rule "nope"`},
		{"unknown confidence feature", func(m map[string]any) { m["confidence"] = map[string]float64{"mood": 1} }, `unknown feature "mood"`},
		{"unknown field", func(m map[string]any) { m["extra"] = true }, "not a weights file"},
		{"a guess", func(m map[string]any) { m["guess"] = "last-step" }, ""},
		{"a clear spread", func(m map[string]any) {
			m["triage"] = map[string]float64{"clear": 1, "escalate": 0.4, "clear_spread": 0.9}
		}, ""},
		{"a negative clear spread", func(m map[string]any) {
			m["triage"] = map[string]float64{"clear": 1, "escalate": 0.4, "clear_spread": -0.5}
		}, "clear_spread"},
		{"an unknown guess", func(m map[string]any) { m["guess"] = "random" }, `guess "random" is not one of first-step, last-step, busiest-first`},
		{"an agent role", func(m map[string]any) { m["agent_role"] = "last" }, ""},
		{"an unknown agent role", func(m map[string]any) { m["agent_role"] = "Coder" }, `agent_role "Coder" is not one of busiest, first, last, probable`},
		{"a guess and an agent role", func(m map[string]any) { m["guess"], m["agent_role"] = "last-step", "first" }, "a guess names its own agent"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := valid()
			c.edit(m)
			data, err := json.Marshal(m)
			require.NoError(t, err)
			w, err := ParseWeights(data)
			if c.error == "" {
				require.NoError(t, err)
				assert.NotEmpty(t, w.Step)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.error)
		})
	}
}

// TestInSample: weights tell the runs they were fitted on by fingerprint,
// whatever order the file lists them in.
func TestInSample(t *testing.T) {
	w, err := ParseWeights([]byte(`{"version": ` + strconv.Itoa(WeightsVersion) + `, "step": {"rule:local_fault": 1}, "critical_share": 1,
		"triage": {"clear": 1, "escalate": 0}, "fitted_on": ["ff00", "0a1b", "77aa"]}`))
	require.NoError(t, err)
	for _, fp := range []string{"0a1b", "77aa", "ff00"} {
		assert.True(t, w.InSample(fp), "%s: listed, in any order", fp)
	}
	assert.False(t, w.InSample("0a1c"))
	assert.False(t, (&Weights{}).InSample("0a1b"), "weights that list no runs were fitted on none")
}

// TestBandsFor: a run without a ground truth is triaged by the bands for
// such runs, when the weights have them, and the file is checked for them.
func TestBandsFor(t *testing.T) {
	w := &Weights{Triage: Bands{Clear: 0.6, Escalate: 0.4}}
	withGT, without := &run.Run{GroundTruth: "42"}, &run.Run{}
	assert.Equal(t, w.Triage, w.BandsFor(without), "no bands of their own: the one set")
	w.TriageWithoutGroundTruth = &Bands{Clear: 0.7, Escalate: 0.3}
	assert.Equal(t, w.Triage, w.BandsFor(withGT))
	assert.Equal(t, *w.TriageWithoutGroundTruth, w.BandsFor(without))

	_, err := ParseWeights([]byte(`{"version": ` + strconv.Itoa(WeightsVersion) + `, "step": {"rule:local_fault": 1}, "critical_share": 1,
		"triage": {"clear": 1, "escalate": 0}, "triage_without_ground_truth": {"clear": 0.2, "escalate": 0.5}}`))
	assert.EqualError(t, err, "triage bands without ground truth need 0 ≤ escalate (0.5) ≤ clear (0.2) ≤ 1")
}

// TestSpread: the step model's entropy in nats; one step sure is 0, k
// steps alike log k, whatever the run's length.
func TestSpread(t *testing.T) {
	for _, tt := range []struct {
		name string
		p    []float64
		want float64
	}{
		{"one step", []float64{1}, 0},
		{"sure of one of many", []float64{1, 0, 0, 0, 0, 0}, 0},
		{"two alike", []float64{0.5, 0.5}, math.Log(2)},
		{"two alike among many", []float64{0.5, 0, 0, 0.5, 0, 0, 0, 0}, math.Log(2)},
		{"four alike", []float64{0.25, 0.25, 0.25, 0.25}, math.Log(4)},
		{"no steps", nil, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, Spread(tt.p), 1e-12)
		})
	}
}

// TestConfidenceIsCalibrated checks the calibration's direction: with the
// embedded weights, a likelier answer, fewer steps to choose from and more
// rules agreeing each raise the confidence, and weights without a
// calibration report the step model's probability as it is.
func TestConfidenceIsCalibrated(t *testing.T) {
	w := DefaultWeights()
	require.NotEmpty(t, w.Confidence)
	base := w.ConfidenceOf(0.3, 20, 1)
	assert.Greater(t, w.ConfidenceOf(0.6, 20, 1), base)
	assert.Greater(t, w.ConfidenceOf(0.3, 5, 1), base)
	assert.Greater(t, w.ConfidenceOf(0.3, 20, 3), base)
	for _, x := range []float64{w.ConfidenceOf(1, 1, 10), w.ConfidenceOf(0, 1000, 0)} {
		assert.True(t, x > 0 && x < 1, "a probability: %v", x)
	}
	w.Confidence = nil
	assert.Equal(t, 0.3, w.ConfidenceOf(0.3, 20, 1))
}

func TestScoreRanksImplicatedStepsFirst(t *testing.T) {
	names := []string{FeatToolCall, FeatFlagged}
	row := func(step int, call, flagged float64) StepRow {
		return StepRow{Step: step, X: []float64{call, flagged}}
	}
	w := &Weights{Step: map[string]float64{FeatToolCall: 3, FeatFlagged: 0.5}, Critical: 0.8}
	for _, c := range []struct {
		name  string
		rows  []StepRow
		steps []int
	}{
		{"an implicated step outranks a likelier unimplicated one",
			[]StepRow{row(1, 1, 0), row(2, 0, 1), row(3, 1, 0)}, []int{2, 1, 3}},
		{"without evidence the likeliest step answers",
			[]StepRow{row(1, 0, 0), row(2, 1, 0), row(3, 0, 0)}, []int{2, 1, 3}},
		{"the likeliest implicated step answers",
			[]StepRow{row(1, 1, 0), row(2, 0, 1), row(3, 1, 1)}, []int{3, 2, 1}},
		{"equal implicated steps: the earliest",
			[]StepRow{row(1, 1, 0), row(4, 0, 1), row(5, 0, 1)}, []int{4, 5, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := w.score(names, c.rows)
			var got []int
			for _, i := range s.Order {
				got = append(got, c.rows[i].Step)
			}
			assert.Equal(t, c.steps, got)
		})
	}
}

// TestGuessAnswers: weights that name a guess answer with its step, say
// why, and keep the step model's ranking for the alternatives after it.
func TestGuessAnswers(t *testing.T) {
	for _, guess := range Guesses {
		t.Run(guess, func(t *testing.T) {
			w := *DefaultWeights()
			w.Guess = guess
			beside(t, &w, func(r *run.Run, in *Input, plain, a Attribution) {
				want := Baselines[guess](in).Step
				require.Equal(t, want, a.Step, r.Source)
				assert.Equal(t, want, a.Candidates[0].Step)
				assert.Contains(t, a.Rationale, guessDescriptions[guess]+", the guess these weights answer with")
				assertAlternativesKept(t, plain, a)
			})
		})
	}
}

// TestAgentRoleAnswers: weights that name an agent first answer with
// that agent's best-ranked step, say why, and keep the step model's
// ranking for the alternatives after it.
func TestAgentRoleAnswers(t *testing.T) {
	for _, role := range AgentRoleNames {
		t.Run(role, func(t *testing.T) {
			w := *DefaultWeights()
			w.AgentRole = role
			moved := 0
			beside(t, &w, func(r *run.Run, in *Input, plain, a Attribution) {
				busiest, first, last := AgentRoles(r)
				key := map[string]string{"busiest": busiest, "first": first, "last": last}[role]
				if role == "probable" || role == "dominant" {
					s := DefaultWeights().Score(Registry, StepRows(in, Registry, Apply(in, Registry)))
					if key = probableAgent(s.Rows, s.Order, s.P); role == "dominant" {
						key = dominantAgent(s.Rows, s.Order, s.P)
					}
				}
				k := slices.IndexFunc(plain.Candidates, func(c Candidate) bool { return run.AgentKey(c.Agent) == key })
				if k < 0 {
					assert.Equal(t, plain.Step, a.Step, "%s: no step of the agent, the rules' answer", r.Source)
					return
				}
				want := plain.Candidates[k]
				require.Equal(t, want.Step, a.Step, r.Source)
				assert.Equal(t, want.Agent, a.Agent, r.Source)
				if k > 0 {
					moved++
					assert.Contains(t, a.Rationale, agentRoleDescriptions[role]+", the agent these weights name first", r.Source)
				}
				assertAlternativesKept(t, plain, a)
			})
			if role != "probable" && role != "dominant" {
				assert.Positive(t, moved, "some run's answer is another agent's")
			}
		})
	}
}

// beside attributes the first development runs by the default weights
// and by w, and hands each run and both answers to check.
func beside(t *testing.T, w *Weights, check func(r *run.Run, in *Input, plain, a Attribution)) {
	t.Helper()
	runs := devRuns(t)
	for _, r := range runs[:min(10, len(runs))] {
		in := inputOf(t, r)
		plain, _ := Default().Attribute(in)
		a, _ := Combiner{Analyzers: Registry, Weights: w}.Attribute(in)
		check(r, in, plain, a)
	}
}

// assertAlternativesKept checks that a's candidates after its answer are
// plain's but for a's answer, in plain's order.
func assertAlternativesKept(t *testing.T, plain, a Attribution) {
	t.Helper()
	require.Len(t, a.Candidates, len(plain.Candidates))
	var rest, got []int
	for _, c := range plain.Candidates {
		if c.Step != a.Step {
			rest = append(rest, c.Step)
		}
	}
	for _, c := range a.Candidates[1:] {
		got = append(got, c.Step)
	}
	assert.Equal(t, rest, got, "the alternatives keep their order")
}

// TestProbableAgent: the agent named is the one holding the most of the
// step model's probability over its steps, not the one holding the most
// probable step; of agents holding as much, the one ranked first.
func TestProbableAgent(t *testing.T) {
	rows := []StepRow{{Step: 1, Agent: "A"}, {Step: 2, Agent: "B"}, {Step: 3, Agent: "B"}, {Step: 4, Agent: "c"}}
	for _, tc := range []struct {
		name  string
		p     []float64
		order []int
		want  string
	}{
		{"spread over its steps", []float64{0.4, 0.3, 0.3, 0}, []int{0, 1, 2, 3}, run.AgentKey("B")},
		{"on one step", []float64{0.7, 0.1, 0.1, 0.1}, []int{0, 1, 2, 3}, run.AgentKey("A")},
		{"a tie: the one ranked first", []float64{0.4, 0.2, 0.2, 0.2}, []int{3, 1, 0, 2}, run.AgentKey("B")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, probableAgent(rows, tc.order, tc.p))
		})
	}
}

// TestDominantAgent: the dominant agent is the most probable one over its
// steps only when it holds DominantShare times the probability of the
// agent of the best-ranked step; otherwise none, and the order stands.
func TestDominantAgent(t *testing.T) {
	rows := []StepRow{{Step: 1, Agent: "A"}, {Step: 2, Agent: "B"}, {Step: 3, Agent: "B"}, {Step: 4, Agent: "B"}}
	for _, tc := range []struct {
		name  string
		p     []float64
		order []int
		want  string
		first int
	}{
		{"three times the ranked agent's", []float64{0.25, 0.25, 0.25, 0.25}, []int{0, 1, 2, 3}, run.AgentKey("B"), 1},
		{"just under twice", []float64{0.34, 0.22, 0.22, 0.22}, []int{0, 1, 2, 3}, "", 0},
		{"more, not twice", []float64{0.4, 0.2, 0.2, 0.2}, []int{0, 1, 2, 3}, "", 0},
		{"the ranked agent is the probable one", []float64{0.1, 0.3, 0.3, 0.3}, []int{1, 0, 2, 3}, "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, dominantAgent(rows, tc.order, tc.p))
			order, role := RoleFirst("dominant", nil, rows, tc.order, tc.p)
			assert.Equal(t, tc.first, order[0])
			assert.Equal(t, tc.want != "", role == "dominant")
		})
	}
}

// TestCandidateJSON: a candidate's trace and span ids are written between
// its agent and its score when it has them, and left out when it has none.
func TestCandidateJSON(t *testing.T) {
	plain := Candidate{Step: 3, Agent: "Coder", Score: 0.5, Rules: []string{"local_fault"}}
	b, err := json.Marshal(plain)
	require.NoError(t, err)
	assert.Equal(t, `{"step":3,"agent":"Coder","score":0.5,"rules":["local_fault"]}`, string(b))
	assert.Empty(t, plain.TraceID())
	assert.Empty(t, plain.SpanID())

	traced := plain
	traced.Span = &Span{TraceID: "4bf9", SpanID: "00f0"}
	b, err = json.Marshal(traced)
	require.NoError(t, err)
	assert.Equal(t, `{"step":3,"agent":"Coder","trace_id":"4bf9","span_id":"00f0","score":0.5,"rules":["local_fault"]}`, string(b))
	assert.Equal(t, "4bf9", traced.TraceID())
	assert.Equal(t, "00f0", traced.SpanID())

	var back Candidate
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, traced, back)
}

// TestFirstChangeWithoutEvidence: when no analyzer implicates any step
// of a session that changes files, the answer is its first change (not a
// reproduction script a check runs by itself), and the rationale says
// why; a session that changes no file keeps the weights' pick.
func TestFirstChangeWithoutEvidence(t *testing.T) {
	const (
		task   = "merge_options ignores None: merge_options({'retries': None}) should keep the default of 3."
		view   = `str_replace_editor({"command": "view", "path": "/repo/netkit/options.py"})`
		code   = "1 DEFAULTS = {'retries': 3}\n2 def merge_options(user):\n3     return {**DEFAULTS, **user}"
		repro  = `str_replace_editor({"command": "create", "path": "/repo/reproduce.py", "file_text": "from netkit.options import merge_options\nprint(merge_options({'retries': None}))\n"})`
		rerun  = `bash({"command": "python reproduce.py"})`
		edit   = `str_replace_editor({"command": "str_replace", "path": "/repo/netkit/options.py", "old_str": "**user}", "new_str": "**{k: v for k, v in user.items() if v}}"})`
		edited = "The file /repo/netkit/options.py has been edited."
		test   = `bash({"command": "python3 -m pytest -q tests/test_http.py"})`
		passed = "........\n8 passed in 0.04s"
	)
	user := msg{agent: "user", content: task, kind: run.KindUser}
	in := prepare(t, task, "", user, call(view), out(code), call(repro), out("File created successfully at: /repo/reproduce.py"), call(rerun), out("{'retries': None}"), call(edit), out(edited), call(test), out(passed), msg{agent: "assistant", content: "merge_options now keeps the defaults for None values."})
	a := Attribute(in)
	assert.Equal(t, 7, a.Step)
	assert.Contains(t, a.Rationale, "first change the run's agent made to a file")

	in = prepare(t, task, "", user, call(view), out(code), call(test), out(passed), msg{agent: "assistant", content: "The tests pass; nothing to change."})
	assert.NotContains(t, Attribute(in).Rationale, "first change")
}

// TestFirstChangeSkipsRemarks: with no evidence anywhere, a first change
// that only writes a docstring, a comment, a log call or an import (by an
// editor's replacement or a Codex patch) departs from nothing the code
// does; the first change after it that alters code is answered.
func TestFirstChangeSkipsRemarks(t *testing.T) {
	const (
		task   = "paginate(range(12), page=2, size=5) returns [6, 7, 8, 9]; it should return [5, 6, 7, 8, 9]."
		edited = "The file /repo/listkit/pages.py has been edited."
		bound  = `str_replace_editor({"command": "str_replace", "path": "/repo/listkit/pages.py", "old_str": "    stop = page * size\n", "new_str": "    stop = page * size + 1\n"})`
		view   = `str_replace_editor({"command": "view", "path": "/repo/listkit/pages.py"})`
		code   = "1 import itertools\n2 def paginate(items, page, size):\n3     start = (page - 1) * size + 1\n4     stop = page * size\n5     return itertools.islice(items, start, stop)"
		test   = `bash({"command": "python3 -m pytest -q"})`
		passed = "....\n4 passed in 0.02s"
	)
	for _, tt := range []struct{ name, first string }{
		{"a docstring", `str_replace_editor({"command": "str_replace", "path": "/repo/listkit/pages.py", "old_str": "def paginate(items, page, size):\n", "new_str": "def paginate(items, page, size):\n    \"\"\"Yield the items of a 1-based page.\"\"\"\n"})`},
		{"a comment and a log call", `str_replace_editor({"command": "str_replace", "path": "/repo/listkit/pages.py", "old_str": "    start = (page - 1) * size + 1\n", "new_str": "    # pages are 1-based\n    log.debug(\"page %d\", page)\n    start = (page - 1) * size + 1\n"})`},
		{"an import by a Codex patch", `apply_patch(*** Begin Patch\n*** Update File: listkit/pages.py\n@@\n+import logging\n import itertools\n*** End Patch\n)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, task, "", msg{agent: "user", content: task, kind: run.KindUser}, call(view), out(code), call(tt.first), out(edited), call(bound), out(edited), call(test), out(passed), msg{agent: "assistant", content: "paginate now returns full pages."})
			a := Attribute(in)
			assert.Equal(t, 5, a.Step)
			assert.Contains(t, a.Rationale, "first change the run's agent made to a file")
		})
	}
}

// TestFirstChangeReadsTheLanguagesComments: a line that would be a
// comment in another language is code in the file changed, a product
// continued on its own line in Python (as Black lays it out), a Rust
// attribute that skips a test: with no evidence anywhere, that first
// change is answered, not a later one.
func TestFirstChangeReadsTheLanguagesComments(t *testing.T) {
	const edited = "The file has been edited."
	for _, tt := range []struct{ name, task, view, code, first, later string }{
		{"a Python product continued", "Invoice line totals must include the sales tax; expose TAX_RATE in billing/config.py.",
			`str_replace_editor({"command": "view", "path": "/repo/billing/lines.py"})`,
			"def line_total(item):\n    return (\n        item.unit_price\n        * item.quantity\n        - item.discount\n    )",
			`str_replace_editor({"command": "str_replace", "path": "/repo/billing/lines.py", "old_str": "        * item.quantity\n", "new_str": "        * item.quantity * TAX_RATE\n"})`,
			`str_replace_editor({"command": "str_replace", "path": "/repo/billing/lines.py", "old_str": "        - item.discount\n", "new_str": "        - item.discount - item.rebate\n"})`},
		{"a Rust attribute", "parse_port accepts port 0; it should reject it.",
			`str_replace_editor({"command": "view", "path": "/repo/src/port.rs"})`,
			"#[test]\nfn rejects_zero() {\n    assert!(parse_port(\"0\").is_err());\n}",
			`str_replace_editor({"command": "str_replace", "path": "/repo/src/port.rs", "old_str": "#[test]\nfn rejects_zero", "new_str": "#[test]\n#[ignore]\nfn rejects_zero"})`,
			`str_replace_editor({"command": "str_replace", "path": "/repo/src/port.rs", "old_str": "    assert!(parse_port(\"0\").is_err());\n", "new_str": "    assert!(parse_port(\"0\").is_err());\n    assert!(parse_port(\"1\").is_ok());\n"})`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, tt.task, "", msg{agent: "user", content: tt.task, kind: run.KindUser}, call(tt.view), out(tt.code), call(tt.first), out(edited), call(tt.later), out(edited), msg{agent: "assistant", content: "Done."})
			a := Attribute(in)
			assert.Equal(t, 3, a.Step, a.Rationale)
			assert.Contains(t, a.Rationale, "first change the run's agent made to a file")
		})
	}
}

// TestFirstChangeIsAPin: with no evidence anywhere, a session that
// changes no file but installs a dependency at a version it names
// changed what the code runs against: that install is answered.
func TestFirstChangeIsAPin(t *testing.T) {
	const task = "The models crash on pydantic 2: orm_mode has been renamed. Make models/user.py work with pydantic 2."
	in := prepare(t, task, "", msg{agent: "user", content: task, kind: run.KindUser},
		call(`bash({"command": "sed -n '1,20p' models/user.py"})`), out("class User(BaseModel):\n    class Config:\n        orm_mode = True"),
		call(`bash({"command": "pip install 'pydantic<2'"})`), out("Successfully installed pydantic-1.10.17"),
		call(`bash({"command": "python -m pytest -q"})`), out("...\n3 passed in 0.12s"),
		msg{agent: "assistant", content: "The tests pass with pydantic 1."})
	a := Attribute(in)
	assert.Equal(t, 3, a.Step)
	assert.Contains(t, a.Rationale, "the first change the run's agent made to the versions the code runs against")
}

// TestAPinBesideChangesIsNoChange: a session that installs its test
// runner at a version and then changes a file made its patch in the
// file: the edit is answered, not the install.
func TestAPinBesideChangesIsNoChange(t *testing.T) {
	const task = "count_words('a  b') returns 3; two spaces in a row should not count as a word. Expected 2."
	in := prepare(t, task, "", msg{agent: "user", content: task, kind: run.KindUser},
		call(`bash({"command": "pip install pytest==7.4.4 && python -m pytest -q tests/test_words.py"})`), out("Successfully installed pytest-7.4.4\n....F\n1 failed, 4 passed in 0.03s"),
		call(`bash({"command": "cat textstats/words.py"})`), out("def count_words(text):\n    return len(text.split(' '))"),
		call(`str_replace_editor({"command": "str_replace", "path": "/repo/textstats/words.py", "old_str": "    return len(text.split(' '))", "new_str": "    return len(text.strip().split(' ')) - text.count('  ')"})`), out("The file /repo/textstats/words.py has been edited."),
		call(`bash({"command": "python -m pytest -q tests/test_words.py"})`), out(".....\n5 passed in 0.02s"),
		msg{agent: "assistant", content: "count_words no longer counts the gap between two spaces as a word."})
	a := Attribute(in)
	assert.Equal(t, 5, a.Step)
	assert.Contains(t, a.Rationale, "the first change the run's agent made to a file")
}

// TestUncheckedChangeWithoutEvidence: with no evidence anywhere, a change
// made after the run's last check passed, which no check saw, is answered
// before the changes the check cleared; a line that only reads the file
// after it checks nothing.
func TestUncheckedChangeWithoutEvidence(t *testing.T) {
	const (
		task   = "APP_TIMEOUT=2.5 crashes at start-up in /repo/app/config.py: int(raw) cannot parse it, float(raw) can, and int(float(raw)) would drop the fraction."
		fix    = `str_replace_editor({"command": "str_replace", "path": "/repo/app/config.py", "old_str": "int(raw)", "new_str": "float(raw)"})`
		tidy   = `str_replace_editor({"command": "str_replace", "path": "/repo/app/config.py", "old_str": "float(raw)", "new_str": "int(float(raw))"})`
		edited = "The file /repo/app/config.py has been edited."
		test   = `bash({"command": "python3 -m pytest -q tests/test_config.py"})`
		passed = "...\n3 passed in 0.01s"
	)
	in := prepare(t, task, "", msg{agent: "user", content: task, kind: run.KindUser}, call(fix), out(edited), call(test), out(passed), call(tidy), out(edited),
		call(`bash({"command": "sed -n 1,20p app/config.py"})`), out("def load_timeout(env):\n    return int(float(raw))"), msg{agent: "assistant", content: "Fixed."})
	a := Attribute(in)
	assert.Equal(t, 5, a.Step)
	assert.Contains(t, a.Rationale, "which no check saw")
}
