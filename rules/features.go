package rules

import (
	"slices"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// The combiner weighs one vector per step: each analyzer's findings at the
// step (summed strengths), and a few framework-neutral facts about the step
// itself. Nothing in it names an agent, a role, a phrase or a position: a
// step is the first of its agent, or a tool's output, in any system.
//
// How busy a step's agent is is not among them. It is evidence of nothing
// about the step; what it carries is whom one corpus's labellers tended to
// blame, and that flips between systems (the first step of the busiest
// agent is never the fault in Who&When's hand-crafted runs, and the best
// label-free guess in others). Fitted on our corpora it learned a negative
// weight that would steer away from that guess on a system where it is
// right; without it, 10-fold CV over eight fold assignments rose from
// 0.603 / 0.375 to 0.624 / 0.398 (agent / step, all 116 runs).
const rulePrefix = "rule:"

// RuleFeature names the step feature that holds an analyzer's findings.
func RuleFeature(analyzer string) string { return rulePrefix + analyzer }

// Structural step features.
const (
	FeatToolOutput      = "step:tool_output"      // a tool's output that its speaker did not choose: the call is blamed instead
	FeatUserTurn        = "step:user_turn"        // a conversation participant's turn after the task
	FeatPlanner         = "step:planner"          // a planner's step: plan, re-plan, verdict, instruction
	FeatInstruction     = "step:instruction"      // addresses another agent
	FeatToolCall        = "step:tool_call"        // runs code or calls a tool
	FeatFinalAnswer     = "step:final_answer"     // states the run's answer
	FeatTermination     = "step:termination"      // ends the run
	FeatTaskBrief       = "step:task_brief"       // restates the task (a manager's brief)
	FeatFirstOfAgent    = "step:first_of_agent"   // its agent's first decision
	FeatEarliestFlagged = "step:earliest_flagged" // the earliest step any analyzer implicates
	FeatFlagged         = "step:flagged"          // some analyzer implicates it
	FeatActs            = "step:acts"             // an action its agent chose on the world (a self-reported tool action)
)

// structuralFeatures are the step features that are not an analyzer's, in
// vector order after the analyzers'.
var structuralFeatures = []string{FeatToolOutput, FeatUserTurn, FeatPlanner, FeatInstruction, FeatToolCall, FeatFinalAnswer,
	FeatTermination, FeatTaskBrief, FeatFirstOfAgent, FeatEarliestFlagged, FeatFlagged, FeatActs}

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

// StepRow is one step as the combiner sees it.
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
func StepRows(in *Input, as []*Analyzer, findings []Finding) []StepRow {
	ruleIdx := make(map[string]int, len(as))
	for i, a := range as {
		ruleIdx[a.Name] = i
	}
	// Columns as StepFeatureNames lays them out, without building the
	// names: the analyzers', the structural features, then the twins.
	width := stepWidth(as)
	col := func(name string) int { return structuralColumn(as, name) }
	n := len(in.Run.Steps)
	// One array holds every step's vector: a step's row keeps its vector.
	flat := make([]float64, n*width)
	x := make([][]float64, n)
	for i := range x {
		x[i] = flat[i*width : (i+1)*width : (i+1)*width]
	}
	earliest := -1
	for _, f := range findings {
		k, ok := ruleIdx[f.Rule]
		if !ok {
			continue
		}
		x[f.Step][k] += f.Strength
	}
	eligible := make([]bool, n)
	for i := range in.Run.Steps {
		eligible[i] = Eligible(in, i)
	}
	seen := map[string]bool{}
	tools := usesToolCalls(in)
	var rows []StepRow
	for i, s := range in.Run.Steps {
		if !eligible[i] {
			continue
		}
		f := &in.Features.Steps[i]
		agent := responsible(in, i)
		key := run.AgentKey(agent)
		v := x[i]
		flagged := false
		for k := range as {
			flagged = flagged || v[k] > 0
		}
		set := func(name string, on bool) {
			if on {
				v[col(name)] = 1
			}
		}
		decision := isAgentDecision(in, i)
		set(FeatToolOutput, f.Has(extract.KindToolResult) && !f.OwnsResult())
		set(FeatUserTurn, s.Kind == run.KindUser)
		set(FeatPlanner, in.Graph.IsPlannerStep(i))
		set(FeatInstruction, f.Has(extract.KindInstruction) || s.Kind == run.KindInstruction)
		set(FeatToolCall, f.IssuesCall())
		set(FeatFinalAnswer, f.Has(extract.KindFinalAnswer) || in.Features.FinalAnswer != nil && in.Features.FinalAnswer.Step == i)
		set(FeatTermination, f.Has(extract.KindTermination))
		set(FeatTaskBrief, f.Has(extract.KindTask))
		set(FeatFirstOfAgent, decision && !seen[key])
		set(FeatActs, f.Has(extract.KindToolResult) && f.OwnsResult())
		set(FeatFlagged, flagged)
		if flagged && earliest < 0 {
			earliest = i
			set(FeatEarliestFlagged, true)
		}
		if decision {
			seen[key] = true
		}
		if tools {
			copy(v[len(v)/2:], v[:len(v)/2])
		}
		rows = append(rows, StepRow{Step: i, Agent: agent, X: v})
	}
	return rows
}

// Eligible reports whether step i can be the decisive fault at all: every
// step but the task itself and system prompts. A later turn of the user is
// a participant's decision (a simulated user can err).
func Eligible(in *Input, i int) bool {
	s := in.Run.Steps[i]
	if s.Kind == run.KindSystem {
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

// Agent features, read from the step model's probabilities.
const (
	FeatAgentMass     = "agent:mass"     // the step model's probability on its steps
	FeatAgentTop      = "agent:top"      // answers for the chosen step
	FeatAgentShare    = "agent:share"    // its share of the run's decisions
	FeatAgentBusiest  = "agent:busiest"  // makes the most decisions
	FeatAgentPlanner  = "agent:planner"  // plans or instructs others
	FeatAgentCaller   = "agent:caller"   // runs code or calls tools
	FeatAgentUser     = "agent:user"     // a conversation participant who gave the task
	FeatAgentFlagged  = "agent:flagged"  // some analyzer implicates one of its steps
	FeatAgentFirstAct = "agent:first"    // answers for the first decision of the run
	FeatAgentActor    = "agent:actor"    // acts on the world itself (self-reported tool actions)
	FeatAgentActs     = "agent:acts"     // its share of the run's actions (calls and self-reported actions)
	FeatAgentDirected = "agent:directed" // receives instructions from another agent
	FeatAgentBlame    = "agent:blame"    // the blame model's probability on its steps
)

// AgentFeatureNames lists the agent features in the order of the vectors.
var AgentFeatureNames = []string{FeatAgentMass, FeatAgentTop, FeatAgentShare, FeatAgentBusiest, FeatAgentPlanner,
	FeatAgentCaller, FeatAgentUser, FeatAgentFlagged, FeatAgentFirstAct, FeatAgentActor, FeatAgentActs, FeatAgentDirected, FeatAgentBlame}

// agentFeaturesUsed are the agent features the model weighs; the others
// are computed for readers (offattr rules -v) but measured to overfit.
var agentFeaturesUsed = map[string]bool{FeatAgentBlame: true}

// AgentRow is one agent that could be blamed.
type AgentRow struct {
	Agent string
	X     []float64
}

// AgentRows returns a row per agent that answers for an eligible step,
// given the step model's probability of each row and the chosen step. An
// agent's blame sums the blame model's probability on its blameSteps most
// blamed steps (all of them when blameSteps is 0): see Weights.AgentSteps.
func AgentRows(in *Input, rows []StepRow, p, blame []float64, chosen int, flaggedCol int, blameSteps int) []AgentRow {
	idx := map[string]int{}
	var out []AgentRow
	decisions, total := map[string]int{}, 0
	for _, r := range rows {
		key := run.AgentKey(r.Agent)
		if _, ok := idx[key]; !ok {
			idx[key] = len(out)
			out = append(out, AgentRow{Agent: r.Agent, X: make([]float64, len(AgentFeatureNames))})
		}
		if isAgentDecision(in, r.Step) {
			decisions[key]++
			total++
		}
	}
	busiest := 0
	for _, c := range decisions {
		busiest = max(busiest, c)
	}
	first := true
	actions, allActions := map[string]int{}, 0
	var blames [][]float64 // by agent, when blameSteps caps them
	if blame != nil && blameSteps > 0 {
		blames = make([][]float64, len(out))
	}
	for k, r := range rows {
		i := idx[run.AgentKey(r.Agent)]
		a := &out[i]
		a.X[0] += p[k]
		if blame != nil {
			a.X[12] += blame[k]
			if blames != nil {
				blames[i] = append(blames[i], blame[k])
			}
		}
		if r.Step == chosen {
			a.X[1] = 1
		}
		if in.Graph.IsPlannerStep(r.Step) {
			a.X[4] = 1
		}
		if in.Features.Steps[r.Step].IssuesCall() {
			a.X[5] = 1
		}
		if in.Run.Steps[r.Step].Kind == run.KindUser {
			a.X[6] = 1
		}
		if flaggedCol >= 0 && r.X[flaggedCol] > 0 {
			a.X[7] = 1
		}
		if first && isAgentDecision(in, r.Step) {
			a.X[8] = 1
			first = false
		}
		f := &in.Features.Steps[r.Step]
		own := f.Has(extract.KindToolResult) && f.OwnsResult()
		if own {
			a.X[9] = 1
		}
		if own || f.IssuesCall() {
			actions[run.AgentKey(r.Agent)]++
			allActions++
		}
	}
	for i := range in.Run.Steps {
		if t := in.Features.Steps[i].Target; t != "" {
			if k, ok := idx[run.AgentKey(t)]; ok && !run.SameAgent(t, in.Run.Steps[i].Agent) {
				out[k].X[11] = 1
			}
		}
	}
	// Only an agent over the cap is summed again: under it the sum stays
	// the one made in row order above, as weights without a cap expect.
	for i, bs := range blames {
		if len(bs) > blameSteps {
			slices.Sort(bs)
			out[i].X[12] = 0
			for _, b := range bs[len(bs)-blameSteps:] {
				out[i].X[12] += b
			}
		}
	}
	for key, i := range idx {
		if allActions > 0 {
			out[i].X[10] = float64(actions[key]) / float64(allActions)
		}
		if total > 0 {
			out[i].X[2] = float64(decisions[key]) / float64(total)
		}
		if decisions[key] == busiest && busiest > 0 {
			out[i].X[3] = 1
		}
	}
	return out
}

// AgentFeatureUsed reports whether the agent model weighs feature name.
func AgentFeatureUsed(name string) bool { return agentFeaturesUsed[name] }
