package rules

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"strings"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// The combiner weighs one vector per step: each analyzer's findings at the
// step (summed strengths), and a few framework-neutral facts about what
// the step is (a tool's output, a call, a final answer). Nothing in it
// names an agent, a role, a phrase or a position.
//
// Facts about where a step stands in its system's division of labour
// (a planner's step, an instruction, an agent's first decision, the
// earliest flagged step) are not among them: what they carry is where one
// system's labellers tended to look, which flips between systems, and each
// of them lowered accuracy on a system held out of the fit. The agent-role
// features below are the exception fit allows: it learns them from one
// system's runs only.
const rulePrefix = "rule:"

// RuleFeature names the step feature that holds an analyzer's findings.
func RuleFeature(analyzer string) string { return rulePrefix + analyzer }

// Structural step features.
const (
	FeatToolOutput  = "step:tool_output"  // a tool's output that its speaker did not choose: the call is blamed instead
	FeatUserTurn    = "step:user_turn"    // a conversation participant's turn after the task, in a run whose agents call tools
	FeatToolCall    = "step:tool_call"    // runs code or calls a tool (a brief's code that nothing ran is quoted, not run)
	FeatFinalAnswer = "step:final_answer" // states the run's answer
	FeatTermination = "step:termination"  // ends the run
	FeatTaskBrief   = "step:task_brief"   // restates the task (a manager's brief)
	FeatFlagged     = "step:flagged"      // some analyzer implicates it
	FeatActs        = "step:acts"         // an action its agent chose on the world (a self-reported tool action)
)

// Agent-role step features: where the agent that answers for the step
// stands in its run, by how often and when it speaks, not by its name. What they carry is
// where one system's labellers tend to look (the manager, the agent who
// answers last), which differs from system to system: fit learns them
// only from one system's own runs (SystemFeature) and leaves them at zero
// in weights for several systems.
const (
	FeatBusiestAgent = "agent:busiest" // its agent has the most messages
	FeatFirstAgent   = "agent:first"   // its agent speaks first after the task
	FeatLastAgent    = "agent:last"    // its agent speaks the run's last step
)

// SystemFeature reports whether the named step feature (or its tools twin)
// is one of the agent-role features that only one system's runs may fit.
func SystemFeature(name string) bool {
	return strings.HasPrefix(strings.TrimPrefix(name, ToolsPrefix), "agent:")
}

// structuralFeatures are the step features that are not an analyzer's, in
// vector order after the analyzers'.
var structuralFeatures = []string{FeatToolOutput, FeatUserTurn, FeatToolCall, FeatFinalAnswer,
	FeatTermination, FeatTaskBrief, FeatFlagged, FeatActs, FeatBusiestAgent, FeatFirstAgent, FeatLastAgent}

// StepFeatureNames lists the step features for a set of analyzers, in the
// order of the vectors: one per analyzer, then the structural ones.
//
// Every feature has a twin that is set only in runs where agents work
// through tool calls (calls with names and arguments, as assistants with
// tools make them), and zero in runs where a team talks and runs code.
// The two kinds of system fail differently; the twins let the fit learn by
// how much, and regularisation keeps them at zero where it cannot tell.
func StepFeatureNames(as []*Analyzer) []string {
	names := make([]string, 0, stepWidth(as))
	for _, a := range as {
		names = append(names, RuleFeature(a.Name))
	}
	names = append(names, structuralFeatures...)
	n := len(names)
	for _, name := range names[:n] {
		names = append(names, ToolsPrefix+name)
	}
	return names
}

// ToolsPrefix names a feature's twin for runs with tool calls.
const ToolsPrefix = "tools|"

// usesToolCalls reports whether agents in the run call tools by name.
func usesToolCalls(in *Input) bool {
	for i := range in.Features.Steps {
		if len(in.Features.Steps[i].Calls) > 0 {
			return true
		}
	}
	return false
}

// runsCode reports whether the run has tools at all: a step that calls
// one by name, or that reports a call's or a program's output. Where none
// does (a team that writes its code into messages for the next member to
// read), code in a step is a document it delivers, not a call it issues.
// A trace may leave out what the code printed, never the calls its agent
// made by name.
func runsCode(in *Input) bool {
	for i := range in.Features.Steps {
		if f := &in.Features.Steps[i]; f.Has(extract.KindToolResult) || len(f.Calls) > 0 {
			return true
		}
	}
	return false
}

// StepRow is one step as the combiner sees it. Rows with the same
// features may share one X: callers read it and never write to it.
type StepRow struct {
	Step  int
	Agent string // the agent that answers for it (a tool result's caller's)
	X     []float64
}

// stepWidth is the number of step features: the analyzers', the structural
// ones, then a twin of each for runs that call tools.
func stepWidth(as []*Analyzer) int { return 2 * (len(as) + len(structuralFeatures)) }

// structuralColumn is the column of a structural feature in
// StepFeatureNames(as).
func structuralColumn(as []*Analyzer, name string) int {
	k := slices.Index(structuralFeatures, name)
	if k < 0 {
		panic("rules: no structural feature " + name)
	}
	return len(as) + k
}

// StepRows returns a row for every step that can be the decisive fault (not
// the task, not a system prompt), features in StepFeatureNames(as) order.
//
// A long run's rows are mostly alike (a plain message, a tool's output
// with no finding), and a vector of every feature per step would be the
// largest thing the rules hold: rows with equal features share one vector.
// It reads the run, its features and the findings, never in.Graph: a
// caller may let the graph go before (Combiner.Answer).
func StepRows(in *Input, as []*Analyzer, findings []Finding) []StepRow {
	ruleIdx := make(map[string]int, len(as))
	for i, a := range as {
		ruleIdx[a.Name] = i
	}
	// Columns as StepFeatureNames lays them out, without building the
	// names: the analyzers', the structural features, then the twins.
	width := stepWidth(as)
	cols := make(map[string]int, len(structuralFeatures))
	for _, name := range structuralFeatures {
		cols[name] = structuralColumn(as, name)
	}
	n := len(in.Run.Steps)
	at := findingsByStep(findings, n)
	tools := usesToolCalls(in)
	runs := runsCode(in)
	busiest, first, last := AgentRoles(in.Run)
	var ran []bool // read only where the run runs code
	if runs {
		ran = answeredCalls(in)
	}
	vectors := newVectorSet()
	v := make([]float64, width)
	// Sized for every step, as most can be blamed: grown by appends, a
	// long run's rows were copied over several times while every earlier
	// stage's results are held.
	rows := make([]StepRow, 0, n)
	for i, s := range in.Run.Steps {
		if !Eligible(in, i) {
			continue
		}
		f := &in.Features.Steps[i]
		agent := responsible(in, i)
		clear(v)
		// Summed in the findings' order, as they came.
		for _, j := range at.of(i) {
			if k, ok := ruleIdx[findings[j].Rule]; ok {
				v[k] += findings[j].Strength
			}
		}
		flagged := false
		for k := range as {
			flagged = flagged || v[k] > 0
		}
		set := func(name string, on bool) {
			if on {
				v[cols[name]] = 1
			}
		}
		set(FeatToolOutput, f.Has(extract.KindToolResult) && !f.OwnsResult())
		// A participant's turn after the task is a user turn only where
		// agents call tools by name: a customer-service assistant's
		// simulated customer is labelled where the run went wrong, and no
		// labelled system blames the person asking or the environment that
		// answers a run without tools.
		set(FeatUserTurn, tools && s.Kind == run.KindUser)
		// A brief that restates the task may quote the code of an earlier
		// response beside its results: unless a result answers for it,
		// the brief ran nothing.
		set(FeatToolCall, runs && f.IssuesCall() && (!f.Has(extract.KindTask) || ran[i]))
		set(FeatFinalAnswer, f.Has(extract.KindFinalAnswer) || in.Features.FinalAnswer != nil && in.Features.FinalAnswer.Step == i)
		set(FeatTermination, f.Has(extract.KindTermination))
		set(FeatTaskBrief, f.Has(extract.KindTask))
		set(FeatActs, f.Has(extract.KindToolResult) && f.OwnsResult())
		set(FeatFlagged, flagged)
		key := run.AgentKey(agent)
		set(FeatBusiestAgent, key == busiest)
		set(FeatFirstAgent, key == first)
		set(FeatLastAgent, key == last)
		if tools {
			copy(v[len(v)/2:], v[:len(v)/2])
		}
		rows = append(rows, StepRow{Step: i, Agent: agent, X: vectors.intern(v)})
	}
	return rows
}

// answeredCalls marks the steps a later tool result answers for: those
// whose call or code was run.
func answeredCalls(in *Input) []bool {
	ran := make([]bool, len(in.Features.Steps))
	for j := range in.Features.Steps {
		if c := callerOf(in, j); in.Features.Steps[j].Has(extract.KindToolResult) && c >= 0 && c < j {
			ran[c] = true
		}
	}
	return ran
}

// stepFindings lists, per step, the positions of its findings: step i's
// are pos[start[i]:start[i+1]], in the findings' order.
type stepFindings struct {
	start []int32
	pos   []int32
}

func (s stepFindings) of(i int) []int32 { return s.pos[s.start[i]:s.start[i+1]] }

// findingsByStep sorts the positions of findings by step, keeping their
// order within a step; findings outside the run's n steps are left out.
func findingsByStep(findings []Finding, n int) stepFindings {
	s := stepFindings{start: make([]int32, n+2)}
	for _, f := range findings {
		if 0 <= f.Step && f.Step < n {
			s.start[f.Step+2]++
		}
	}
	for i := 2; i < len(s.start); i++ {
		s.start[i] += s.start[i-1]
	}
	s.pos = make([]int32, s.start[n+1])
	for j, f := range findings {
		if 0 <= f.Step && f.Step < n {
			s.pos[s.start[f.Step+1]] = int32(j)
			s.start[f.Step+1]++
		}
	}
	s.start = s.start[:n+1]
	return s
}

// vectorSet keeps one copy of each feature vector it is given.
type vectorSet struct {
	seed maphash.Seed
	kept map[uint64][]float64 // by the hash of the vector's bits
	buf  []byte
}

func newVectorSet() *vectorSet {
	return &vectorSet{seed: maphash.MakeSeed(), kept: map[uint64][]float64{}}
}

// intern returns a vector equal to v, bit for bit, that the set keeps: a
// copy of v the first time. v stays the caller's to reuse. Of two vectors
// whose hashes collide, the second keeps a copy of its own.
func (s *vectorSet) intern(v []float64) []float64 {
	s.buf = s.buf[:0]
	for _, x := range v {
		s.buf = binary.LittleEndian.AppendUint64(s.buf, math.Float64bits(x))
	}
	key := maphash.Bytes(s.seed, s.buf)
	kept, ok := s.kept[key]
	if ok && sameBits(kept, v) {
		return kept
	}
	kept = slices.Clone(v)
	if !ok {
		s.kept[key] = kept
	}
	return kept
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// Eligible reports whether step i can be the decisive fault at all: every
// step but the task itself, system prompts and a harness's notice that the
// run reached its turn limit (the harness stopped it; what it answers then
// is forced). A later turn of the user is a participant's decision (a
// simulated user can err).
func Eligible(in *Input, i int) bool {
	s := in.Run.Steps[i]
	if s.Kind == run.KindSystem || i < len(in.Features.Steps) && in.Features.Steps[i].TurnLimit {
		return false
	}
	if s.Kind == run.KindUser {
		for j := range i {
			if in.Run.Steps[j].Kind == run.KindUser {
				return true
			}
		}
		return false
	}
	return true
}
