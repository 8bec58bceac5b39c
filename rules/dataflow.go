package rules

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// dataFlowOrigin follows the final answer's claims back through data edges
// to the step where each first appears (CHIEF §4.3.3). A value first stated
// by an agent, not read from a tool, was computed or made up there; a value
// first read from a tool output is blamed on the step that chose the call.
// When the final answer matches the ground truth the run failed for another
// reason, and the rule stays silent. A value worked out after a plan that
// dropped a requirement of the task (droppedBy) is the plan's: the
// executors did what they were given.
func dataFlowOrigin(in *Input) []Finding {
	gt := in.Run.GroundTruth
	if gt != "" && answerMatches(in) {
		return nil
	}
	if d, why := codeCause(in); d >= 0 {
		return []Finding{{Step: d, Strength: 0.7, Quote: quoteAt(in, d, 0, 0), Reason: why}}
	}
	if po := in.Features.PatchOrigin; po != nil && po.NotPatch {
		// The task asks for a patch; what was handed over is none, and
		// the step that chose to hand it over chose the wrong thing.
		return []Finding{{Step: po.Step, Strength: 0.7, Quote: quoteAt(in, po.Step, 0, 0),
			Reason: fmt.Sprintf("the task asks for a patch, and it has step %d answer with something that is none", po.Answer)}}
	} else if po != nil && po.Stale {
		// The patch holds a line (or names a file) the code it edits does
		// not have: it cannot apply, whatever its change.
		return []Finding{{Step: po.Step, Strength: 0.7, Quote: quoteAt(in, po.Step, 0, 0),
			Reason: fmt.Sprintf("it wrote %q into the patch step %d answers with, which the code the task shows does not have", clipLine(po.Line), po.Answer)}}
	} else if po != nil {
		// The answer is a change to code: its values are the lines it
		// adds, and the step that first wrote one decided the change.
		return []Finding{{Step: po.Step, Strength: 0.7, Quote: quoteAt(in, po.Step, 0, 0),
			Reason: fmt.Sprintf("it first wrote the change the patch step %d answers with (%q)", po.Answer, clipLine(po.Line))}}
	}
	if i, quote, why := brokenPick(in); i >= 0 {
		// A pick that what was listed shows breaks the task: whatever
		// the later steps carry on, the answer rests on it.
		return []Finding{{Step: i, Strength: 0.7, Quote: quoteClaim(in, i, quote), Reason: why}}
	}
	if m := in.Features.Misroute; m != nil && m.Refused != "" {
		// The router handed the request to an agent that says it cannot
		// take the action asked for: whatever the receiver does, it
		// does another job.
		return []Finding{{Step: m.Step, Strength: 0.7, Quote: quoteAt(in, m.Step, 0, 0),
			Reason: fmt.Sprintf("it hands the request to %s, which says at step %d that it cannot take the action the task asks for (%s)", m.To, m.RefusedAt, m.Refused)}}
	} else if m != nil {
		// The router handed the request to an agent described otherwise
		// than the task: whatever the receiver does, it does another job.
		return []Finding{{Step: m.Step, Strength: 0.7, Quote: quoteAt(in, m.Step, 0, 0),
			Reason: fmt.Sprintf("it hands the request to %s, which the instructions describe as %q, while they describe %q in the task's words (%s)", m.To, m.Receiver, m.Other, strings.Join(m.Shared, ", "))}}
	}
	if rv := in.Features.Reversed; rv != nil {
		// The step carried a figure with its direction turned round: the
		// figure matches what it read, so its value looks carried, but
		// what the later steps decide on is the opposite of the source.
		return []Finding{{Step: rv.Step, Strength: 0.7, Quote: quoteAt(in, rv.Step, 0, 0),
			Reason: fmt.Sprintf("it writes %s of %s the other way round from step %d", changeText(rv.Now), strings.Join(rv.Shared, ", "), rv.Source)}}
	}
	flows := in.Graph.AnswerFlow()
	if !slices.ContainsFunc(flows, func(cf graph.ClaimFlow) bool { return cf.Origin >= 0 }) {
		if out := droppedWithoutAnswer(in); out != nil {
			return out
		}
		if k, r := noneFromFailure(in); k >= 0 {
			// The answer tells that there is none, and what it read that
			// from was a call's output that reports the call failed: a
			// failed query's "0 rows" counts nothing.
			return []Finding{{Step: k, Strength: 0.7, Quote: quoteAt(in, k, 0, 0),
				Reason: fmt.Sprintf("it tells that there is none as a fact, read from the output of the call at step %d, which reports it failed", r)}}
		}
		return taskDataFindings(in)
	}
	want := in.groundTruth().want
	reached := -1
	if gt != "" {
		reached = reachedAt(in, want)
	}
	count := map[int]int{}
	first := map[int]graph.ClaimFlow{}
	moved := map[int]bool{}
	chosen := map[int]bool{}
	explained := map[int]bool{} // first[o] moved or was chosen
	dropped := map[int]bool{}
	handed := map[int]bool{}
	read := map[int]bool{}     // a figure a later step computed with was read here
	replaced := map[int]bool{} // a plan put its own name in place of one found
	altered := map[int]bool{}
	renamed := map[int]bool{}
	acting := map[int]bool{}
	recount := map[int]bool{} // a call acted on a listed record with another count than the task's
	entered := map[int]bool{} // a value entered into a form that a later call submitted
	reunit := map[int]bool{}
	narrowed := map[int]bool{} // a call kept a part of an output without the task's name
	worked := map[int]bool{}
	miscopied := map[int]string{}  // the figure its code's call took, written otherwise before
	transposed := map[int]swap{}   // the figure its call took, and the earlier one it swapped two digits of
	failedAsFact := map[int]bool{} // a value a failed call's output printed, stated as a fact
	plan, req := droppedBy(in)
	var order []int
	// Without a ground truth, a value the answer is the first to state
	// (made up, misread or computed there) is what can be wrong with it;
	// its values read as its own agent's tool gave them are what it rests
	// on. A value another agent's tool brought in is that agent's work,
	// and stays a suspect (but for a name beside a figure an agent stated
	// first: subject, below).
	//
	// So too when the answer chose one of a tool's values of a kind
	// (chosenAmong): its other values read from its own agent's tool
	// name what it chose among.
	//
	// So too when the answer tells of an action that no call took
	// (undoneAction): what it reports done is its own, and the values it
	// read from its agent's tools are what it rests on.
	fresh := gt == "" && slices.ContainsFunc(flows, func(cf graph.ClaimFlow) bool {
		return cf.Origin == in.Graph.AnswerStep() || chosenAmong(in, cf) == in.Graph.AnswerStep()
	})
	if a := in.Graph.AnswerStep(); gt == "" && !fresh && a >= 0 {
		verb, _ := undoneAction(in, in.supportIndex(), a, run.AgentKey(in.Run.Steps[a].Agent))
		fresh = verb != ""
	}
	// With the correct answer too, an answer that states a value first
	// itself (a sum it worked out wrong) beside the values it read from
	// the outputs of its agent's tool calls rests on those: they are its
	// inputs, not the wrong value. (An agent's own report of what it saw
	// is no tool's output: it may be where the run went wrong.)
	freshGT := gt != "" && slices.ContainsFunc(flows, func(cf graph.ClaimFlow) bool { return cf.Origin == in.Graph.AnswerStep() })
	acted := actedOnFiles(in)
	slip := firstSlip(in)
	// Without a ground truth, an answer that states a figure (a number,
	// a date) that an agent stated first, not a tool, names its subject
	// beside it ("the U5 extension to Freiham opens on 16 June"): the
	// names are what it is about, the figure what can be wrong with it.
	//
	// So too when the figure was read from a result whose call left out
	// the year or the name the task asks about (leftOut): the names beside
	// it are what was searched for, the figure is another year's or
	// variant's.
	subject := map[string]bool{}
	if fa := in.Features.FinalAnswer; gt == "" && fa != nil && slices.ContainsFunc(flows, func(cf graph.ClaimFlow) bool {
		if cf.Origin < 0 || !figureClaim(fa.Claims, cf.Claim) {
			return false
		}
		if in.Features.Steps[cf.Origin].Has(extract.KindToolResult) {
			return leftOut(in, cf.Origin) != ""
		}
		return isAgentDecision(in, cf.Origin)
	}) {
		for _, c := range fa.Claims {
			if c.Kind == extract.ClaimEntity && !figureClaim(fa.Claims, c.Norm) {
				subject[strings.ToLower(c.Norm)] = true
			}
		}
	}
	// Without a ground truth, an answer that first states a figure in
	// place of one of its kind another agent stated before (a writer's
	// 12.4% where the analyst reported 14.2%) changed that figure: the
	// figures beside it that a tool brought in (the revenues the growth
	// was worked out from) are what it is about, as the names are above.
	context := gt == "" && replacesFigure(in, flows)
	// Without a ground truth, an agent that reports a figure of the answer
	// first itself, right after reading its own tool's output (a payroll
	// agent's net pay that no output printed), rests that report on the
	// output: the other values of the answer that output gave are what it
	// read right, and the figure it stated is what can be wrong.
	rests := readersOwnFigure(in, flows)
	// With the correct answer or without it, an agent that first states a
	// figure of the answer with two digits the other way round from one a
	// call's output printed (837,076 of 873076) misread that output,
	// whoever called it: the answer's other figures that called outputs
	// gave are what it read right.
	misreadRight := misreadBeside(in, flows)
	for _, cf := range flows {
		o := cf.Origin
		if context && o >= 0 && o != in.Graph.AnswerStep() {
			// The values beside the figure the answer replaced, that
			// earlier steps gave it, are what it is about.
			continue
		}
		if gt == "" && o >= 0 && rests[o] || o >= 0 && misreadRight[o] {
			continue
		}
		if p := codeStatedBefore(in, o, cf.Claim); p >= 0 {
			o = p // the record the answer names, named earlier by its code
		}
		if o < 0 || acted[cf.Claim] || subject[cf.Claim] && calledOutput(in, o) || in.supportIndex().definedName(cf.Claim) || testInput(in, o, cf.Claim) || checkReport(in, o) {
			continue
		}
		if freshGT && o != in.Graph.AnswerStep() && calledOutput(in, o) &&
			run.SameAgent(responsible(in, o), in.Run.Steps[in.Graph.AnswerStep()].Agent) {
			continue
		}
		why := false // this value says why the step is blamed
		if p := alteredInBrief(in, o); gt != "" && p >= 0 {
			// Read beside the correct value, but where an instruction
			// that altered the task's figure steered the agent.
			o, why = p, true
			altered[o] = true
		} else if gt != "" {
			o = corruption(in, cf, want, reached)
			if o < 0 {
				continue
			}
			if o != cf.Origin {
				moved[o], why = true, true
			}
		} else if u := unitChanged(in, cf); u >= 0 {
			o, why = u, true
			reunit[o] = true
		} else if c := narrowedOut(in, cf); c >= 0 {
			o = c
			narrowed[o], why = true, true
		} else if c := chosenAmong(in, cf); c >= 0 {
			o = c
			chosen[o], why = true, true
		} else if c := otherRecordTaken(in, cf); c >= 0 {
			o = c
			chosen[o], why = true, true
		} else if fresh && o != in.Graph.AnswerStep() && in.Features.Steps[o].Has(extract.KindToolResult) &&
			run.SameAgent(responsible(in, o), in.Run.Steps[in.Graph.AnswerStep()].Agent) {
			continue
		}
		coded := false // moved to the code that computed the value
		if d, _ := definerOf(in, o); d >= 0 {
			// The value was first printed by a failed run another agent's
			// code made: the code computed it.
			o, coded = d, true
		} else if d := assertedFrom(in, o, cf.Claim); d >= 0 {
			// The value was first written as what another agent's code
			// returns, in a test of it.
			o, coded = d, true
		}
		if coded {
			if p := handedToCode(in, o); p >= 0 {
				o = p // the code computed with a figure it was handed
			} else if p := alteredInCode(in, o); p >= 0 {
				o = p // with a figure of the task another agent altered
			}
			moved[o], why = true, true
		} else if p := alteredInCode(in, o); p >= 0 {
			// The code computed with a figure another agent altered.
			o, why = p, true
			handed[o] = true
		} else if p := handedOperand(in, o, cf.Claim); p >= 0 {
			// Worked out in prose from a figure another agent stated.
			o, why = p, true
			handed[o] = true
		} else if p := misreadOperand(in, o, cf.Claim); p >= 0 {
			// Worked out in prose from a figure another agent misread
			// in reporting what it saw.
			o, why = p, true
			handed[o] = true
		} else if p := relayedMisread(in, o); p >= 0 {
			// Worked out from a figure another agent passed on with
			// its digits out of the order they were reported in.
			o, why = p, true
			handed[o] = true
		} else if p := handedPair(in, o, cf.Claim); p >= 0 {
			// Worked out from two figures one other agent stated,
			// where the task gives none.
			o, why = p, true
			handed[o] = true
		} else if p := handedThrough(in, o); p >= 0 {
			// Worked out over the agent's own steps from a figure
			// another agent stated.
			o, why = p, true
			handed[o] = true
		} else if p := readOperand(in, o, cf.Claim); p >= 0 {
			// Worked out from a figure another agent read: the
			// reading, or what steered it, is where the figure came
			// from.
			o, why = p, true
			read[o] = true
		} else if v, _ := (extract.Claim{Norm: cf.Claim}).Value(); ownOrigin(in, o, []string{v}, reached) >= 0 {
			// Worked out in prose from the agent's own earlier steps,
			// the first of which to go wrong is where the value began.
			o, why = ownOrigin(in, o, []string{v}, reached), true
			worked[o] = true
		} else if p := slipUnder(in, o, slip); p >= 0 {
			// Stated by an agent reasoning on from its own slip, which
			// nothing since corrected.
			o, why = p, true
			worked[o] = true
		} else if c := ownCode(in, o); c >= 0 {
			if p := alteredInCode(in, c); p >= 0 {
				// Reported from the agent's own code, which computed
				// with a figure another agent altered.
				o, why = p, true
				handed[o] = true
			} else if p := handedToCode(in, c); p >= 0 && gt == "" {
				// Or with a figure another agent stated, which no
				// tool's output or the task gave.
				o, why = p, true
				handed[o] = true
			}
		}
		if k := statedFromFailure(in, cf, o); k >= 0 {
			// The call's output said it failed: what it printed beside
			// its failure (a cached reading, a count of no rows) is no
			// answer, and the step that stated it as one took a failure
			// for a fact.
			o, why = k, true
			failedAsFact[o] = true
		} else if r := o; in.Features.Steps[r].Has(extract.KindToolResult) {
			if c := callerOf(in, r); c >= 0 {
				o = c
				if p := handedValue(in, c); p >= 0 && computed(&in.Features.Steps[r]) {
					o = p
				} else if p := alteredInCall(in, c); p >= 0 {
					// The call fetched with a figure of the task another
					// agent altered in handing the work on.
					o, why = p, true
					altered[o] = true
				} else if p := pickedUnderAltered(in, c); p >= 0 {
					// The call acted on a record an earlier call listed,
					// which fetched with a figure of the task another
					// agent altered in handing the work on.
					o, why = p, true
					altered[o] = true
				} else if p := alteredInBrief(in, r); p >= 0 {
					// The agent acted on its own, as it was asked: the
					// instruction it followed steered it to the value
					// with a figure of the task altered.
					o, why = p, true
					altered[o] = true
				} else if p := max(handedSubject(in, c), handedQualifier(in, c)); p >= 0 && gt == "" || p >= 0 && reached < 0 {
					// The call looked up a subject another agent named in
					// handing the work on, in place of the task's.
					o, why = p, true
					renamed[o] = true
				} else if k := alteringCall(in, cf, r); k >= 0 && (gt == "" || reached < 0) {
					// A later call that acted gave the value read here in
					// place of the task's figure of its kind.
					o, why = k, true
					acting[o] = true
				} else if k := actedWithOtherCount(in, r); k >= 0 && (gt == "" || reached < 0) {
					// A later call acted on the record read here with
					// another count than the task's.
					o, why = k, true
					recount[o] = true
				} else if p := handedToCode(in, c); p >= 0 && gt == "" && len(in.Features.Steps[c].Code) > 0 && computed(&in.Features.Steps[r]) {
					// The code computed its one value with a figure
					// another agent stated, which no tool's output or
					// the task gave.
					o, why = p, true
					handed[o] = true
				} else if p := readOperand(in, c, cf.Claim); p >= 0 && len(in.Features.Steps[c].Code) > 0 && computed(&in.Features.Steps[r]) {
					// The code computed its one value with a figure
					// another agent read.
					o, why = p, true
					read[o] = true
				} else if p, v := miscopiedSource(in, c); p >= 0 && computed(&in.Features.Steps[r]) && (gt == "" || reached < 0) {
					// The code computed with what an earlier run of code
					// printed, which fetched with a figure miscopied.
					o, why = p, true
					miscopied[o] = v
				} else if p, alt, slip := fedBy(in, c); p >= 0 && computed(&in.Features.Steps[r]) {
					// The call computed with an earlier call's result,
					// which was worked out from a figure that went
					// wrong before it.
					o, why = p, true
					if slip.val != "" {
						transposed[o] = slip
					} else {
						altered[o], handed[o] = alt, !alt
					}
				} else if p := formEntry(in, c); p >= 0 {
					// The call only submitted what its agent had entered
					// just before it: the entry it made up, or the option
					// past the task's, is what the page answered with.
					o, why = p, true
					entered[o] = true
				}
			}
		}
		if p := replacedUnder(in, o); p >= 0 {
			// Reached from what was looked up under a plan that put a
			// name of its own in place of what a tool had found.
			o, why = p, true
			replaced[o] = true
		}
		if plan >= 0 && !in.Features.Steps[o].Has(extract.KindToolResult) &&
			(o > plan && !run.SameAgent(in.Run.Steps[plan].Agent, in.Run.Steps[o].Agent) || o < plan && slices.Contains(cf.Path, plan)) {
			// Computed by another agent under a plan that left out a
			// requirement of the task: the plan is where the work went
			// wrong. An agent that carries out its own plan had the
			// task before it and left the requirement out itself. A
			// value stated before that plan (a bound of a first plan
			// that kept the requirement) and carried on by it is the
			// dropping plan's too: the work that reached the answer
			// was laid out there.
			o, why = plan, true
			dropped[o] = true
		}
		if !isAgentDecision(in, o) {
			continue
		}
		switch {
		case count[o] == 0:
			order = append(order, o)
			first[o], explained[o] = cf, why
		case why && !explained[o]:
			first[o], explained[o] = cf, true // quote the value that says why
		}
		count[o]++
	}
	// Where the answer replaced a figure, the values beside it were left
	// out as what it is about: its share is of the values left.
	total := len(flows)
	if context {
		total = 0
		for _, n := range count {
			total += n
		}
	}
	var out []Finding
	for _, o := range order {
		cf := first[o]
		share := float64(count[o]) / float64(total)
		reason := fmt.Sprintf("the final answer's %q first appears here and is carried to the answer at step %d", cf.Text, in.Graph.AnswerStep())
		switch {
		case failedAsFact[o] && !dropped[o]:
			reason = fmt.Sprintf("it states the final answer's %q as a fact, read from the output of a call that reports it failed, and carries it to the answer at step %d", cf.Text, in.Graph.AnswerStep())
		case altered[o] && !dropped[o]:
			reason = fmt.Sprintf("it states a figure other than the task's, which a later step's call took as its argument and which brought in the final answer's %q (answer at step %d)", cf.Text, in.Graph.AnswerStep())
		case reunit[o] && !dropped[o]:
			reason = fmt.Sprintf("it gives the final answer's %q in another unit than an earlier step reported the figure in, and carries it to the answer at step %d", cf.Text, in.Graph.AnswerStep())
		case acting[o] && !dropped[o]:
			reason = fmt.Sprintf("its call acts with %q, read from a tool's output, in place of the task's own figure of that kind, and carries it to the answer at step %d", cf.Text, in.Graph.AnswerStep())
		case entered[o] && !dropped[o]:
			reason = fmt.Sprintf("its call enters a value no earlier step gave, or an option past the task's, which a later call submitted and which brought in the final answer's %q (answer at step %d)", cf.Text, in.Graph.AnswerStep())
		case recount[o] && !dropped[o]:
			reason = fmt.Sprintf("its call acts on %q, read from a tool's output, with another count than the task's, and carries it to the answer at step %d", cf.Text, in.Graph.AnswerStep())
		case renamed[o] && !dropped[o]:
			reason = fmt.Sprintf("it names a subject the task does not, which a later step's call looked up in place of the task's and which brought in the final answer's %q (answer at step %d)", cf.Text, in.Graph.AnswerStep())
		case miscopied[o] != "" && !dropped[o]:
			reason = fmt.Sprintf("its code's call takes %q, a figure the task or an earlier step writes otherwise, and a later step worked the final answer's %q out from what it printed (answer at step %d)", miscopied[o], cf.Text, in.Graph.AnswerStep())
		case transposed[o].val != "" && !dropped[o]:
			t := transposed[o]
			where := "the task"
			if t.at >= 0 {
				where = fmt.Sprintf("step %d", t.at)
			}
			reason = fmt.Sprintf("its call takes %q, which no earlier step writes, where %s gave %q with two digits the other way round, and a later call worked the final answer's %q out from its result (answer at step %d)", t.val, where, t.given, cf.Text, in.Graph.AnswerStep())
		case handed[o] && !dropped[o]:
			reason = fmt.Sprintf("it states a figure the task did not give, with which a later step worked out the final answer's %q (answer at step %d)", cf.Text, in.Graph.AnswerStep())
		case replaced[o] && !dropped[o]:
			name, found, r := replacedFound(in, o)
			reason = fmt.Sprintf("it writes %q where step %d's result had found %q, and the final answer's %q was reached from what was looked up for %q (answer at step %d)", name, r, found, cf.Text, name, in.Graph.AnswerStep())
		case read[o] && !dropped[o]:
			reason = fmt.Sprintf("it reads a figure with which a later step worked out the final answer's %q (answer at step %d)", cf.Text, in.Graph.AnswerStep())
		case dropped[o]:
			reason = fmt.Sprintf("it lays out the work without the task's requirement %q, which no step from it on takes up; the final answer's %q was worked out under it (answer at step %d)", req.Text, cf.Text, in.Graph.AnswerStep())
		case worked[o] && !dropped[o]:
			reason = fmt.Sprintf("%s, and its agent worked the final answer's %q out from it (answer at step %d)", ownFault(in, o), cf.Text, in.Graph.AnswerStep())
		case moved[o]:
			reason = fmt.Sprintf("the final answer's %q, first seen beside the correct value, is carried on here without it to the answer at step %d", cf.Text, in.Graph.AnswerStep())
		case chosen[o]:
			reason = fmt.Sprintf("the final answer's %q, first read from a tool among other values of its kind, is chosen here and carried to the answer at step %d", cf.Text, in.Graph.AnswerStep())
		case narrowed[o]:
			reason = fmt.Sprintf("its call keeps a part of an earlier output without the passage that names what the task asks about, and the final answer's %q came from what it kept (answer at step %d)", cf.Text, in.Graph.AnswerStep())
		}
		out = append(out, Finding{Step: o, Strength: 0.4 + 0.6*share, Quote: quoteClaim(in, o, cf.Text), Reason: reason})
	}
	return out
}

// statedFromFailure returns the step that first states a claim of the
// answer after the tool result r (the claim's origin) printed it, when r
// reports that its call failed and the call ran no code (an API's call,
// not a program whose failing run prints what it computed): the value
// came beside a failure, and stating it as a fact is the step's own
// reading; else -1.
func statedFromFailure(in *Input, cf graph.ClaimFlow, r int) int {
	if r < 0 || !in.Features.Steps[r].Has(extract.KindToolResult) {
		return -1
	}
	if !resultFailed(&in.Features.Steps[r]) {
		return -1
	}
	if c := callerOf(in, r); c < 0 || !apiCalls(&in.Features.Steps[c]) {
		return -1
	}
	at := slices.Index(cf.Path, r)
	if at < 1 {
		return -1
	}
	k := cf.Path[at-1] // the path runs latest first: the next step to state it
	if in.Features.Steps[k].Has(extract.KindToolResult) || !isAgentDecision(in, k) {
		return -1
	}
	return k
}

// noneFromFailure returns the step that first tells there is none of
// something (extract's TellsNone) after the last tool result before the
// answer, and that result, when the result reports that its call failed
// and the call ran no code (statedFromFailure): a count of nought or an
// absence read from a failure; else -1, -1. A step that tells the
// failure too ("the query failed, so I have no count") read it as one.
func noneFromFailure(in *Input) (int, int) {
	a := in.Graph.AnswerStep()
	if a < 0 || a >= len(in.Features.Steps) {
		return -1, -1
	}
	r := a - 1
	for r >= 0 && !in.Features.Steps[r].Has(extract.KindToolResult) {
		r--
	}
	if r < 0 || !resultFailed(&in.Features.Steps[r]) {
		return -1, -1
	}
	if c := callerOf(in, r); c < 0 || !apiCalls(&in.Features.Steps[c]) {
		return -1, -1
	}
	for k := r + 1; k <= a; k++ {
		if in.Features.Steps[k].TellsNone && isAgentDecision(in, k) && !slices.ContainsFunc(in.Features.Steps[k].Errors, func(s extract.Signal) bool { return s.Kind == "failure" }) {
			return k, r
		}
	}
	return -1, -1
}

// apiCalls reports whether a step's calls are all a tool's called by name
// with arguments, that run no command line and the step writes no code
// beside: what their output prints is the tool's, not a program's the
// agent wrote.
func apiCalls(f *extract.Features) bool {
	return len(f.Calls) > 0 && len(f.Code) == len(f.Calls) && !slices.ContainsFunc(f.Calls, func(c extract.Call) bool { return c.Offset >= 0 || c.Command() != "" })
}

// resultFailed reports whether a tool result says its call failed: a
// crash or a non-zero exit (toolFailed), or an output that opens with an
// error, as a tool that returns its failure as text writes it and as
// run marks a result its framework flags as failed.
func resultFailed(f *extract.Features) bool {
	if _, failed := toolFailed(f); failed {
		return true
	}
	return slices.ContainsFunc(f.Errors, func(s extract.Signal) bool {
		return s.Kind == "error" && s.Offset == 0 && s.Severity >= extract.SeverityMedium
	})
}

// testInput reports whether step o writes tests of code it does not
// define (it asserts what calls of other steps' functions return) and the
// claim (its key) is none of the values they expect: an input a test
// gives the code ("Str0ng!Passw0rd" of assert check("Str0ng!Passw0rd").ok),
// which an answer names as its example, no value the tester put forward
// as what the code gives.
func testInput(in *Input, o int, claim string) bool {
	f := &in.Features.Steps[o]
	if len(f.Asserts) == 0 || len(f.Code) == 0 || f.Has(extract.KindToolResult) {
		return false
	}
	if slices.ContainsFunc(f.Asserts, func(a extract.Assertion) bool { return slices.Contains(f.Defines, a.Func) }) {
		return false // the step's own code, checked where it is written: its data is its own
	}
	states := assertsClaim(claim)
	return !slices.ContainsFunc(f.Asserts, func(a extract.Assertion) bool {
		return slices.ContainsFunc(extract.Claims(a.Value), states)
	})
}

// checkReport reports whether step o is the output of a call that runs a
// check (a test runner, a linter: extract's Call.Checks): a figure an
// answer takes from it (a coding agent's "14 tests pass") is the check's
// report of the work, not a value the work gave.
func checkReport(in *Input, o int) bool {
	if !in.Features.Steps[o].Has(extract.KindToolResult) {
		return false
	}
	c := callerOf(in, o)
	return c >= 0 && slices.ContainsFunc(in.Features.Steps[c].Calls, extract.Call.Checks)
}

// droppedBy returns the plan that dropped a requirement of the task, and
// the requirement: the first plan, re-plan or instruction of an agent,
// or step that says the requirement is not needed (extract's Denied),
// after the last step that took the requirement up (none, when no step
// did; a denial takes nothing up), so that no step from it on takes it up
// again. The work it lays
// out was done without the requirement, and the answer misses it; the
// executors carried out what they were given. Of several requirements
// dropped, the one dropped first. It returns -1 when the task states no
// requirement, every one is taken up after the last plan, or a step
// after the plan slipped in its own arithmetic (slippedAfter).
func droppedBy(in *Input) (int, *extract.Requirement) { return droppedFrom(in, false) }

// droppedFrom is droppedBy; with code, a step that writes code counts as
// laying out the work too, as a plan does: an engineer that leaves out
// what the design handed on dropped it there. A command the log records
// as a tool call (a grep, a test run) lays out no work, though it is code.
func droppedFrom(in *Input, code bool) (int, *extract.Requirement) {
	best, which := -1, (*extract.Requirement)(nil)
	for k := range in.Features.Requirements {
		r := &in.Features.Requirements[k]
		if r.Kept {
			continue
		}
		from := 0
		for _, k := range slices.Backward(r.Stated) {
			if !slices.Contains(r.Denied, k) {
				from = int(k) + 1
				break
			}
		}
		for i := from; i < len(in.Features.Steps) && (best < 0 || i < best); i++ {
			f := &in.Features.Steps[i]
			if isAgentDecision(in, i) && !f.Has(extract.KindToolResult) && (slices.Contains(r.Denied, int32(i)) || f.Has(extract.KindPlan) || f.Has(extract.KindReplan) || f.Has(extract.KindInstruction) || handsOn(in, i) || code && len(f.Code) > 0 && in.Run.Steps[i].Kind != run.KindToolCall) {
				best, which = i, r
				break
			}
		}
	}
	if best >= 0 && slippedAfter(in, best) {
		return -1, nil
	}
	return best, which
}

// handsOn reports whether step i hands the work to another agent by a
// call: a call addressed to one (a manager's "Delegate work to
// coworker", a "transfer_to_…" call, a delegation whose arguments name
// the coworker), whose arguments lay out the work as a plan does.
func handsOn(in *Input, i int) bool {
	f := &in.Features.Steps[i]
	return f.Target != "" && !run.SameAgent(f.Target, in.Run.Steps[i].Agent) && f.Has(extract.KindToolCall)
}

// droppedWithoutAnswer is, for a run that closes with no answer whose
// values can be traced (a team's summary in words, "passwords are hashed
// with md5", or one that names only what the task gave), the plan or the
// code that dropped a requirement of the task (droppedFrom): what the run
// did is what that step laid out, and the task asked for more. Nothing when the run
// has a ground truth its answer could be read against, or no plan
// dropped a requirement.
func droppedWithoutAnswer(in *Input) []Finding {
	if in.Run.GroundTruth != "" {
		return nil
	}
	plan, req := droppedFrom(in, true)
	if plan < 0 {
		return nil
	}
	return []Finding{{Step: plan, Strength: 0.4, Quote: quoteAt(in, plan, 0, 0),
		Reason: fmt.Sprintf("its plan leaves out what the task requires (%q), and no step after it takes that up", req.Text)}}
}

// slippedAfter reports whether an agent's step after step p writes
// arithmetic that does not come to what it says (extract's Miscomputes):
// then the executors did not do what the plan gave them, and a wrong
// answer is no sign of what the plan left out. The slip is theirs
// whatever requirement the plan left out, in any system whose agents
// work figures out in their messages.
func slippedAfter(in *Input, p int) bool {
	for i := p + 1; i < len(in.Run.Steps); i++ {
		if isAgentDecision(in, i) && !in.Features.Steps[i].Has(extract.KindToolResult) && in.Features.Steps[i].Miscomputes {
			return true
		}
	}
	return false
}

// handedValue is, for a call whose output gave a value of the answer, the
// step of another agent that first stated a number the call was given,
// which neither the task nor any tool's output held before it: a
// supervisor's delegation that handed the worker a wrong figure, or a
// worker's report the next worker computed with. The call only computed
// with what it was handed. It returns -1 when every number of the call
// came from the task, a tool, or the caller's own agent.
func handedValue(in *Input, c int) int {
	numbers := in.supportIndex().numberIndex()
	agent := run.AgentKey(in.Run.Steps[c].Agent)
	for v, n := range callNumbers(&in.Features.Steps[c]) {
		if !meaningful(v) {
			continue
		}
		val, _ := n.Value()
		hs := numbers[val]
		if len(hs) == 0 || hs[0].step < 0 || hs[0].step >= c {
			continue
		}
		p := hs[0].step
		if isAgentDecision(in, p) && !in.Features.Steps[p].Has(extract.KindToolResult) && run.AgentKey(in.Run.Steps[p].Agent) != agent {
			return p
		}
	}
	return -1
}

// callNumbers yields each argument value of a step's calls that is a
// number, as written and as the number claim prose would state.
func callNumbers(f *extract.Features) iter.Seq2[string, extract.Claim] {
	return func(yield func(string, extract.Claim) bool) {
		for _, call := range f.Calls {
			for _, v := range call.Values {
				if n, ok := numberClaim(v); ok && !yield(v, n) {
					return
				}
			}
		}
	}
}

// handedOperand is, for an agent's step that worked out a value of the
// answer in prose (extract's Computes: "450 x 1.30 = 585"), the earliest
// step of another agent that first stated a number the step computed
// with, which neither the task (as a number, in words, in a date, or as
// the percentage a factor is) nor a tool's output gave, which is of the
// kind of a figure the task gives with another value (altersTask), and
// which that step stated rather than worked out itself: a rate, a count
// or a figure of a spec planted there and carried into the computation, as
// handedToCode reads code and handedValue a call. A figure another
// step worked out (a worker's subtotal) is that step's own computation,
// and the step that used it only added up, as is one it derived from the
// task's with a factor it writes (derivedThere). It returns -1 when the
// value was not computed there, or every operand is the task's, a unit's
// factor, the step's own, or computed where it was first stated.
func handedOperand(in *Input, o int, claim string) int {
	if o < 0 {
		return -1
	}
	f := &in.Features.Steps[o]
	if f.Has(extract.KindToolResult) || len(f.Code) > 0 || len(f.Computes) == 0 {
		return -1
	}
	if v, _ := (extract.Claim{Norm: claim}).Value(); !slices.Contains(f.Computes, v) {
		return -1
	}
	numbers := in.supportIndex().numberIndex()
	best := -1
	for fig := range ownFigures(in, o) {
		c, val, x := fig.claim, fig.val, fig.x
		if slices.Contains(f.Computes, val) {
			continue
		}
		first := firstNumberAt(numbers, val, x)
		if first == noStep || first < 0 || first >= o || best >= 0 && first >= best || !altersTask(in, c) {
			continue
		}
		if !statedByAnother(in, first, o, val) {
			continue
		}
		best = first
	}
	return best
}

// handedPair is, for an agent's step that worked out a value of the
// answer in prose (extract's Computes) with arithmetic that holds, where
// the task gives no figure, the step of another agent that first stated
// both figures the value is worked out of (their sum, difference,
// product or quotient): "1715 - 1648 = 67" after an expert's "signed in
// 1648 … signed in 1715". With nothing of the task to alter, the step
// that computed only carried on the facts it was handed; a wrong value
// began where they were stated. It returns -1 when the value is not so
// worked out of one other step's two figures.
func handedPair(in *Input, o int, claim string) int {
	if o < 0 {
		return -1
	}
	f := &in.Features.Steps[o]
	if f.Has(extract.KindToolResult) || len(f.Code) > 0 || f.Miscomputes || slices.ContainsFunc(in.Features.Question, func(q extract.Claim) bool { return q.Kind == extract.ClaimNumber }) {
		return -1
	}
	v, _ := (extract.Claim{Norm: claim}).Value()
	want, err := strconv.ParseFloat(v, 64)
	if err != nil || !slices.Contains(f.Computes, v) {
		return -1
	}
	numbers := in.supportIndex().numberIndex()
	var figs []figure
	var from []int
	for fig := range ownFigures(in, o) {
		if slices.Contains(f.Computes, fig.val) {
			continue
		}
		first := firstNumberAt(numbers, fig.val, fig.x)
		if first == noStep || first < 0 || first >= o || !statedByAnother(in, first, o, fig.val) {
			continue
		}
		figs, from = append(figs, fig), append(from, first)
	}
	for a := range figs {
		for b := range figs {
			if a == b || from[a] != from[b] {
				continue
			}
			x, y := figs[a].x, figs[b].x
			if sameFloat(x+y, want) || sameFloat(x-y, want) || sameFloat(x*y, want) || y != 0 && sameFloat(x/y, want) {
				return from[a]
			}
		}
	}
	return -1
}

// misreadOperand is, for an agent's step that worked out a value of the
// answer in prose (extract's Computes; the answer may round what it
// worked out), the earliest result another agent
// reported of its own doing (a web agent's page and what it says of it)
// that states a figure the step computed with beside a figure of the same
// digits in another order: "opened in 1978" beside the page's "Opened 30
// November 1987". The agent misread what it saw there, and the step that
// computed only carried the misreading on. It returns -1 when no operand
// was so reported.
func misreadOperand(in *Input, o int, claim string) int {
	f := &in.Features.Steps[o]
	if f.Has(extract.KindToolResult) || len(f.Code) > 0 || len(f.Computes) == 0 {
		return -1
	}
	best := -1
	for fig := range ownFigures(in, o) {
		if slices.Contains(f.Computes, fig.val) || len(fig.val) < 3 {
			continue
		}
		for r := 0; r < o && (best < 0 || r < best); r++ {
			if callerOf(in, r) != r || run.SameAgent(in.Run.Steps[r].Agent, in.Run.Steps[o].Agent) {
				continue
			}
			figs := reportedFigures(&in.Features.Steps[r])
			if slices.Contains(figs, fig.val) && slices.ContainsFunc(figs, func(g string) bool { return g != fig.val && sameDigits(g, fig.val) }) {
				best = r
			}
		}
	}
	return best
}

// readOperand is, for an agent's step that worked out a value of the
// answer, claim (in prose, extract's Computes, or in code, or by rounding
// a figure it states), the earliest result another agent reported of its
// own doing (a web agent's page, a file agent's reading) that first
// states a figure the step computed with and itself shows the value
// worked out (as it is, or less rounded): the step reworked faithfully
// what that agent read, and where the figure was read is where it came
// from. A value the page does not show may be the step's own slip. Figures of fewer than three digits are
// left alone: too many are alike by chance. It returns -1 when no operand
// was first read so.
func readOperand(in *Input, o int, claim string) int {
	if o < 0 {
		return -1
	}
	f := &in.Features.Steps[o]
	v, _ := (extract.Claim{Norm: claim}).Value()
	if f.Has(extract.KindToolResult) || len(f.Code) == 0 && len(f.Computes) == 0 && !slices.ContainsFunc(f.Claims, func(c extract.Claim) bool {
		w, _ := c.Value()
		return c.Kind == extract.ClaimNumber && roundedFrom(v, w)
	}) {
		return -1
	}
	numbers := in.supportIndex().numberIndex()
	best := -1
	for fig := range ownFigures(in, o) {
		if digitCount(fig.val) < 3 || slices.Contains(f.Computes, fig.val) {
			continue
		}
		r := firstNumberAt(numbers, fig.val, fig.x)
		if r == noStep || r < 0 || r >= o || best >= 0 && r >= best {
			continue
		}
		if in.Features.Steps[r].Has(extract.KindToolResult) && callerOf(in, r) == r && !run.SameAgent(in.Run.Steps[r].Agent, in.Run.Steps[o].Agent) &&
			slices.ContainsFunc(reportedFigures(&in.Features.Steps[r]), func(g string) bool { return g == v || roundedFrom(v, g) }) {
			best = r
		}
	}
	return best
}

// roundedFrom reports whether the figure x is the figure y rounded: to
// the tens or more its trailing zeros keep (330000000 of 329694499), or
// to the decimal places it keeps (4.3 of 4.27), or to a whole number.
func roundedFrom(x, y string) bool {
	a, err1 := strconv.ParseFloat(x, 64)
	b, err2 := strconv.ParseFloat(y, 64)
	if err1 != nil || err2 != nil || a == b || a == 0 || b == 0 {
		return false
	}
	step := 1.0
	if k := strings.IndexByte(x, '.'); k >= 0 {
		step = math.Pow(10, -float64(len(x)-k-1))
	} else {
		for t := strings.TrimLeft(x, "-"); len(t) > 1 && strings.HasSuffix(t, "0"); t = t[:len(t)-1] {
			step *= 10
		}
	}
	return math.Abs(math.Round(b/step)*step-a) < step/1e6 && math.Abs(a-b) < step
}

// relayedMisread is, for an agent's step that states a value of the
// answer, the earliest step of another agent that first stated a figure
// the step works with, where a step of a third agent before it had
// reported a figure of the same digits in another order, which the
// relaying step does not state: a supervisor that hands its analyst
// 19,640,000 where the researcher found 19,460,000. The figure went wrong
// in the handing on, not where it was computed with. Figures of fewer
// than three digits are left alone: too many are alike by chance. It
// returns -1 when no figure was so passed on.
func relayedMisread(in *Input, o int) int {
	if o < 0 || in.Features.Steps[o].Has(extract.KindToolResult) {
		return -1
	}
	numbers := in.supportIndex().numberIndex()
	best := -1
	// The step's agent may have computed over several steps of its own
	// (a call, its output, the report): the figures of each count.
	first := o
	for first > 0 && run.SameAgent(responsible(in, first-1), in.Run.Steps[o].Agent) {
		first--
	}
	for k := first; k <= o; k++ {
		best = relayedAt(in, numbers, k, o, best)
	}
	return best
}

// relayedAt is relayedMisread for the figures of step k, a step of the
// agent of step o, given the best step found so far.
func relayedAt(in *Input, numbers map[string][]numberAt, k, o, best int) int {
	for fig := range ownFigures(in, k) {
		if digitCount(fig.val) < 3 || slices.Contains(in.Features.Steps[k].Computes, fig.val) {
			continue
		}
		p := firstAt(numbers[fig.val], "")
		if p == noStep || p < 0 || p >= k || best >= 0 && p >= best || !statedByAnother(in, p, o, fig.val) {
			continue
		}
		said := reportedFigures(&in.Features.Steps[p])
		for q := 0; q < p; q++ {
			if run.SameAgent(in.Run.Steps[q].Agent, in.Run.Steps[p].Agent) || run.SameAgent(in.Run.Steps[q].Agent, in.Run.Steps[o].Agent) || in.Features.Steps[q].Has(extract.KindTask) {
				continue
			}
			if slices.ContainsFunc(reportedFigures(&in.Features.Steps[q]), func(g string) bool {
				return g != fig.val && sameDigits(g, fig.val) && !slices.Contains(said, g)
			}) {
				best = p
				break
			}
		}
	}
	return best
}

// digitCount is the number of digits a figure is written with.
func digitCount(v string) int {
	n := 0
	for _, r := range v {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}

// reportedFigures returns the numbers a step states, a date's year among
// them, as written without their units.
func reportedFigures(f *extract.Features) []string {
	var out []string
	for _, c := range f.Claims {
		switch c.Kind {
		case extract.ClaimNumber:
			v, _ := c.Value()
			out = append(out, v)
		case extract.ClaimDate:
			if y := c.Norm[:min(4, len(c.Norm))]; len(y) == 4 && allDigits(y) {
				out = append(out, y)
			}
		}
	}
	return out
}

// sameDigits reports whether a and b are written with the same digits,
// in any order: 1987 and 1978, 19,460,000 and 19,640,000.
func sameDigits(a, b string) bool {
	sorted := func(s string) string {
		r := []rune(s)
		slices.Sort(r)
		return string(r)
	}
	return len(a) == len(b) && sorted(a) == sorted(b)
}

// handedThrough is handedOperand for a value an agent worked out over
// several of its own steps, each computing with the figures of the one
// before (ownOrigin's walk): the earliest step of another agent that
// first stated a figure one of those steps computed with, of the kind of
// a figure the task gives with another value. An instruction that hands
// on "sales fall by 25%" where the task says 15% is where "240 x 0.75 =
// 180" and then "180 x $4.20 = $756" went wrong. It returns -1 when a
// step of the walk slips in its own arithmetic (the slip is the fault), or
// no figure was handed so.
func handedThrough(in *Input, o int) int {
	if o < 0 || !isAgentDecision(in, o) {
		return -1
	}
	numbers := in.supportIndex().numberIndex()
	best, slipped := -1, false
	seen := map[int]bool{}
	var walk func(s int)
	walk = func(s int) {
		g := &in.Features.Steps[s]
		if seen[s] || g.Has(extract.KindToolResult) || len(g.Code) > 0 || len(g.Computes) == 0 {
			return
		}
		seen[s] = true
		if g.Miscomputes {
			slipped = true
			return
		}
		for _, v := range g.Computes {
			if p := handedOperand(in, s, v); p >= 0 && (best < 0 || p < best) {
				best = p
			}
		}
		for fig := range operands(in, s) {
			first := firstNumberAt(numbers, fig.val, fig.x)
			if first >= 0 && first < s && isAgentDecision(in, first) && run.SameAgent(in.Run.Steps[first].Agent, in.Run.Steps[o].Agent) {
				walk(first)
			}
		}
	}
	walk(o)
	if slipped {
		return -1
	}
	return best
}

// altersTask reports whether the number c is of the kind of one the task
// gives (alikeBare: in its unit, or bare, within a factor of ten; a
// factor as the percentage it writes) with another value:
// a rate, a price or a count the task states, written otherwise. A
// figure of the method (180 degrees in a triangle, the 0.01 a sum is
// rounded to cents by) is of no kind the task gives.
func altersTask(in *Input, c extract.Claim) bool {
	forms := []extract.Claim{c}
	if v, unit := c.Value(); unit == "" {
		if x, err := strconv.ParseFloat(v, 64); err == nil && x > 0 {
			if fractionUnits[x] {
				return false // a cent a value is rounded to, no rate
			}
			for _, pct := range percents(x) {
				forms = append(forms, extract.Claim{Kind: extract.ClaimNumber, Norm: pct + "%"}) // 0.07 is 7%
			}
		}
	}
	numbers := func(yield func(extract.Claim) bool) {
		for _, q := range in.Features.Question {
			if q.Kind == extract.ClaimNumber && !yield(q) {
				return
			}
		}
	}
	alike := false
	for q := range numbers {
		if slices.ContainsFunc(forms, q.Matches) {
			return false // the task's own figure
		}
		alike = alike || slices.ContainsFunc(forms, func(f extract.Claim) bool { return alikeBare(q, f) })
	}
	return alike
}

// alikeBare is alike, but a number without a unit is of any unit's kind:
// code writes a figure bare where the task gives it with its unit ("100
// requests", MAX_REQUESTS = 120).
func alikeBare(q, c extract.Claim) bool {
	_, qu := q.Value()
	if _, cu := c.Value(); qu != "" && cu == "" {
		v, _ := q.Value()
		q = extract.Claim{Kind: q.Kind, Norm: v}
	}
	return alike(q, c)
}

// ownCode is, for an agent's step without code that states a value,
// the latest earlier step of the same agent that wrote code, with no
// step of another agent between: the value reported is what that code
// computes. It returns -1 when there is none.
func ownCode(in *Input, o int) int {
	if o < 0 || len(in.Features.Steps[o].Code) > 0 || in.Features.Steps[o].Has(extract.KindToolResult) {
		return -1
	}
	for c := o - 1; c >= 0; c-- {
		if !run.SameAgent(responsible(in, c), in.Run.Steps[o].Agent) {
			return -1
		}
		if len(in.Features.Steps[c].Code) > 0 {
			return c
		}
	}
	return -1
}

// alteredInCode is, for a step whose code a value of the answer came
// from, the earliest step of another agent that first stated a figure
// the code holds, which alters one the task gives (altersTask) and which
// that step stated rather than worked out: a design's or a task list's
// constant planted in place of the task's (MAX_REQUESTS = 120 where the
// task allows 100), that the engineer coded as handed. A unit's factor
// (60 seconds) and the task's figures written in words alter nothing. It
// returns -1 for a step without code, or code whose figures alter none
// of the task's or were first written in it.
func alteredInCode(in *Input, o int) int {
	if o < 0 {
		return -1
	}
	f := &in.Features.Steps[o]
	if len(f.Code) == 0 || f.Has(extract.KindToolResult) {
		return -1
	}
	numbers := in.supportIndex().numberIndex()
	best := -1
	for fig := range ownFigures(in, o) {
		val := fig.val
		if !altersTask(in, fig.claim) {
			continue
		}
		first := firstAt(numbers[val], "")
		if first == noStep || first < 0 || first >= o || best >= 0 && first >= best {
			continue
		}
		if !statedByAnother(in, first, o, val) {
			continue
		}
		best = first
	}
	return best
}

// readersOwnFigure returns the tool outputs whose calling agent, in a
// later step of its own that is no tool's output, is the first to state a
// number of the answer that is a slip of the digits of one the output
// printed (3,651.40 where it printed 3615.40): the agent misread the
// output, and the answer's other values that output gave are what it read
// right. So, once some agent misread its output (the misread output
// need not give the answer a value), are the answer's figures that other
// agents' tool outputs printed (researchers fanned out on sub-questions,
// one of which misread its page): each was carried as its tool gave it,
// and the misread is where the answer went wrong.
func readersOwnFigure(in *Input, flows []graph.ClaimFlow) map[int]bool {
	fa := in.Features.FinalAnswer
	out := map[int]bool{}
	if fa == nil {
		return out
	}
	misread := false
	for _, cf := range flows {
		p := cf.Origin
		if p < 0 || !isAgentDecision(in, p) || in.Features.Steps[p].Has(extract.KindToolResult) || !figureClaim(fa.Claims, cf.Claim) {
			continue
		}
		mine := strings.ReplaceAll(cf.Claim, ".", "")
		if at := slices.IndexFunc(fa.Claims, func(c extract.Claim) bool { return c.Kind == extract.ClaimNumber && c.Norm == cf.Claim }); at >= 0 {
			v, _ := fa.Claims[at].Value()
			mine = strings.ReplaceAll(v, ".", "")
		}
		slipOf := func(o int) bool {
			return slices.ContainsFunc(in.Features.Steps[o].Claims, func(c extract.Claim) bool {
				v, _ := c.Value()
				return c.Kind == extract.ClaimNumber && digitSlip(strings.ReplaceAll(v, ".", ""), mine)
			})
		}
		for _, other := range flows {
			o := other.Origin
			if o < 0 || o >= p || !calledOutput(in, o) || !run.SameAgent(responsible(in, o), in.Run.Steps[p].Agent) {
				continue
			}
			if slipOf(o) {
				out[o] = true
			}
		}
		for o := range p {
			misread = misread || calledOutput(in, o) && run.SameAgent(responsible(in, o), in.Run.Steps[p].Agent) && slipOf(o)
		}
	}
	if !misread {
		return out
	}
	for _, cf := range flows {
		if o := cf.Origin; o >= 0 && calledOutput(in, o) && figureClaim(fa.Claims, cf.Claim) {
			out[o] = true
		}
	}
	return out
}

// misreadBeside returns the called outputs that gave values of the final
// answer, when an agent's step first states a figure the answer carries
// with two adjacent digits the other way round from a figure an earlier
// called output printed: that step misread the output, and the figures
// carried right from called outputs beside it are not where the answer
// went wrong. It returns none when no figure of the answer is so
// misread.
func misreadBeside(in *Input, flows []graph.ClaimFlow) map[int]bool {
	misread := false
	for _, cf := range flows {
		p := cf.Origin
		if misread || p < 0 || !isAgentDecision(in, p) || in.Features.Steps[p].Has(extract.KindToolResult) {
			continue
		}
		v, _ := (extract.Claim{Norm: cf.Claim}).Value()
		for o := range p {
			if calledOutput(in, o) && slices.ContainsFunc(reportedFigures(&in.Features.Steps[o]), func(g string) bool { return transposedDigits(g, v) }) {
				misread = true
				break
			}
		}
	}
	if !misread {
		return nil
	}
	out := map[int]bool{}
	for _, cf := range flows {
		if o := cf.Origin; o >= 0 && calledOutput(in, o) {
			out[o] = true
		}
	}
	return out
}

// replacesFigure reports whether the final answer first states a figure
// (a number, not a year) alike to one an earlier agent's step other than
// the answerer's stated and the answer does not: the answer put its own
// figure where that one stood.
func replacesFigure(in *Input, flows []graph.ClaimFlow) bool {
	a := in.Graph.AnswerStep()
	fa := in.Features.FinalAnswer
	if a < 0 || fa == nil {
		return false
	}
	for _, cf := range flows {
		if cf.Origin != a {
			continue
		}
		at := slices.IndexFunc(fa.Claims, func(c extract.Claim) bool {
			return c.Kind == extract.ClaimNumber && strings.EqualFold(c.Norm, cf.Claim)
		})
		if at < 0 {
			continue
		}
		mine := fa.Claims[at]
		// A bare number may be a year or a count of anything: it stands
		// in another's place only as a slip of its digits (1,824 for
		// 1,284; 14.8 for 18.4), written as no year is.
		mineValue, unit := mine.Value()
		if unit == "" && !strings.ContainsAny(mine.Text, ",.") {
			continue
		}
		for j := range a {
			if !isAgentDecision(in, j) || in.Features.Steps[j].Has(extract.KindToolResult) || run.SameAgent(in.Run.Steps[j].Agent, in.Run.Steps[a].Agent) {
				continue
			}
			// A figure the earlier step gives no unit ("7,845 m", an "m"
			// being a million too) stands for the answer's with one
			// ("7,485 metres") as a slip of its digits alone.
			if slices.ContainsFunc(in.Features.Steps[j].Claims, func(c extract.Claim) bool {
				cv, cu := c.Value()
				return c.Kind == extract.ClaimNumber && alikeBare(mine, c) && (unit != "" && cu == unit || digitSlip(strings.ReplaceAll(cv, ".", ""), strings.ReplaceAll(mineValue, ".", ""))) && !slices.ContainsFunc(fa.Claims, func(x extract.Claim) bool { return x.Kind == extract.ClaimNumber && x.Matches(c) })
			}) {
				return true
			}
		}
	}
	return false
}

// digitSlip reports whether two numbers of the same length differ by two
// digits swapped or one digit changed: the slips of copying a figure.
func digitSlip(a, b string) bool {
	if len(a) != len(b) || a == b || !allDigits(a) || !allDigits(b) {
		return false
	}
	var diff []int
	for k := range len(a) {
		if a[k] != b[k] {
			diff = append(diff, k)
		}
	}
	switch len(diff) {
	case 1:
		return true
	case 2:
		return a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]]
	}
	return false
}

// codeStatedBefore is, for the answer's step o and one of its names that
// holds a reference code among its words ("Order A-10482" at the start of
// a sentence), the first step before o that wrote the code: the name first
// appears in the answer only for the word beside it, and the record it
// names came from where its code was first written (a handover naming
// another order than the task's, a tool's listing). It returns -1 for
// another step, a name without a code, or a code the task writes or no
// earlier step does.
func codeStatedBefore(in *Input, o int, claim string) int {
	if o < 0 || o != in.Graph.AnswerStep() {
		return -1
	}
	words := strings.Fields(claim)
	if len(words) < 2 {
		return -1
	}
	sup := in.supportIndex()
	for _, code := range in.Features.Steps[o].Codes {
		lc := strings.ToLower(code)
		if !slices.Contains(words, lc) || sup.text.Holds(-1, lc) {
			continue
		}
		if p := sup.firstHolding(lc, from{}); p < o {
			return p
		}
	}
	return -1
}

// alteredInCall is, for a step that calls a tool whose output a value
// of the answer came from, the earliest step of another agent that first
// stated a figure the call's arguments hold which alters one the task
// gives, and which that step stated rather than worked out: a year or a
// count of the kind the task gives (altersTask), a date's year so, or a
// date where the task names another, as precisely as the task names it
// (alteredDates). A supervisor's instruction that
// hands a worker 2023 for the task's 2024, which the worker's query then
// executes as handed, is where the figure went wrong, as alteredInCode
// reads code. It returns -1 for a step without calls, or calls whose
// figures alter none of the task's or were first written in the call.
func alteredInCall(in *Input, c int) int {
	f := &in.Features.Steps[c]
	if len(f.Calls) == 0 || f.Has(extract.KindToolResult) {
		return -1
	}
	numbers := in.supportIndex().numberIndex()
	best := -1
	take := func(first int, val string) {
		if first != noStep && first >= 0 && first < c && (best < 0 || first < best) && statedByAnother(in, first, c, val) {
			best = first
		}
	}
	for fig := range ownFigures(in, c) {
		if altersTask(in, fig.claim) {
			take(firstAt(numbers[fig.val], ""), fig.val)
		}
	}
	for _, d := range f.Claims {
		if d.Kind != extract.ClaimDate {
			continue
		}
		if y := d.Norm[:min(4, len(d.Norm))]; len(y) == 4 && allDigits(y) {
			if yc := (extract.Claim{Kind: extract.ClaimNumber, Norm: y}); altersTask(in, yc) {
				take(firstAt(numbers[y], ""), y)
			}
		}
		for _, p := range alteredDates(in, d) {
			take(firstDate(in, p, c), p)
		}
	}
	for _, call := range f.Calls {
		for _, cf := range call.Counts {
			if p := recountedKey(in, c, cf); p >= 0 && (best < 0 || p < best) {
				best = p
			}
		}
	}
	return best
}

// recountedKey is, for a count a call at step c gives under a key
// ("nights": 3), the earliest step of another agent before c that counts
// the thing the key names with that value ("for 3 nights") where the task
// counts it with another ("2 nights") and never with this one (recounted):
// the count was altered in handing the work on. It returns -1 otherwise.
func recountedKey(in *Input, c int, cf extract.Field) int {
	n, named, ok := countAltersTask(in, c, cf)
	if !ok {
		return -1
	}
	p := recounted(in, c, cf.Value)
	if p < 0 || !slices.ContainsFunc(in.Features.Steps[p].Counts, func(cnt extract.Count) bool { return cnt.Value == n && named(cnt) }) {
		return -1
	}
	return p
}

// countAltersTask reports whether a count a call at step c gives under a
// key ("nights": 3) is of a thing the task counts with another value ("2
// nights") and never with this one; it returns the count and whether a
// step's count is of the thing the key names.
func countAltersTask(in *Input, c int, cf extract.Field) (int, func(extract.Count) bool, bool) {
	n, err := strconv.Atoi(cf.Value)
	if err != nil {
		return 0, nil, false
	}
	words := extract.NameWords(cf.Key)
	named := func(cnt extract.Count) bool {
		return slices.ContainsFunc(words, func(w string) bool { return countedAs(w, cnt.Noun) })
	}
	other := false
	for k := range c {
		for _, cnt := range in.Features.Steps[k].Counts {
			if given(in, k) && named(cnt) {
				if cnt.Value == n {
					return 0, nil, false // the task's own count
				}
				other = true
			}
		}
	}
	return n, named, other
}

// actedWithOtherCount is, for a tool's output r that listed a record of
// the answer, the later call that acts (a booking, a purchase) on a record
// r first listed, with a count of a thing the task counts otherwise
// (countAltersTask: "tickets": 3 for the task's 4 tickets). The listing
// was read right; the call chose the count to act with. It returns -1
// when no such call follows.
func actedWithOtherCount(in *Input, r int) int {
	sup := in.supportIndex()
	for k := r + 1; k < len(in.Features.Steps); k++ {
		if in.Features.Steps[k].Has(extract.KindToolResult) {
			continue
		}
		for _, call := range in.Features.Steps[k].Calls {
			if !call.Consequential() || !slices.ContainsFunc(call.Values, func(v string) bool {
				lv := strings.ToLower(strings.TrimSpace(v))
				return len(lv) >= 3 && !sup.text.Holds(-1, lv) && sup.firstHolding(lv, from{}) == r
			}) {
				continue
			}
			for _, cf := range call.Counts {
				if _, _, ok := countAltersTask(in, k, cf); ok {
					return k
				}
			}
		}
	}
	return -1
}

// pickedUnderAltered is, for a step c that calls a tool, the step of
// another agent that altered a figure of the task in an earlier call
// (alteredInCall) whose output first listed a record c's arguments name
// (a product's code, a hotel's id): the booking or the order took its
// record from a search run with the altered figure ("a total budget of
// 500" for the task's 5,000), and acted faithfully on it. It returns -1
// for a step without calls, or one whose records no altered call listed.
func pickedUnderAltered(in *Input, c int) int {
	if in.Features.Steps[c].Has(extract.KindToolResult) {
		return -1
	}
	sup := in.supportIndex()
	for _, call := range in.Features.Steps[c].Calls {
		for _, v := range call.Values {
			lv := strings.ToLower(strings.TrimSpace(v))
			if len(lv) < 3 || !strings.ContainsFunc(lv, unicode.IsLetter) || sup.text.Holds(-1, lv) {
				continue
			}
			r := sup.firstHolding(lv, from{})
			if r < 0 || r >= c || !in.Features.Steps[r].Has(extract.KindToolResult) {
				continue
			}
			if k := callerOf(in, r); k >= 0 && k < r && k != c {
				if p := alteredInCall(in, k); p >= 0 {
					return p
				}
			}
		}
	}
	return -1
}

// alteredInBrief is alteredInCall for a result an agent reports of its
// own doing, with no call to read (a web agent's "I clicked …" and the
// page it then saw): the earliest step of another agent that first
// stated a figure the result holds which alters one the task gives
// (altersTask), where the instruction the agent acted on (an instructs edge),
// written by that agent, holds the figure too. An orchestrator
// that asks for "the 2021 row" where the task asks about 2019 steered
// the agent to the value it read there. It returns -1 for a result a
// call answers for, or one whose figures alter none of the task's or
// were not handed to it.
func alteredInBrief(in *Input, r int) int {
	if callerOf(in, r) != r || len(in.Features.Steps[r].Calls) > 0 {
		return -1
	}
	briefs := in.Graph.Predecessors(r, graph.Instructs)
	if len(briefs) == 0 {
		return -1
	}
	numbers := in.supportIndex().numberIndex()
	best := -1
	for fig := range ownFigures(in, r) {
		if !altersTask(in, fig.claim) {
			continue
		}
		first := firstAt(numbers[fig.val], "")
		if first == noStep || first < 0 || first >= r || best >= 0 && first >= best || !statedByAnother(in, first, r, fig.val) {
			continue
		}
		if slices.ContainsFunc(briefs, func(k int) bool {
			return run.SameAgent(in.Run.Steps[k].Agent, in.Run.Steps[first].Agent) &&
				slices.ContainsFunc(numbers[fig.val], func(h numberAt) bool { return h.step == k })
		}) {
			best = first
		}
	}
	return best
}

// handedSubject is, for a step c that calls a tool, the step of another
// agent that first named a subject the call looks up (a city, a company),
// which neither the task nor any earlier tool's output names, where the
// call names none of the task's own names: the work was handed on about
// another subject than the task's ("find the population of Lisbon" for
// a task about Porto). A code (MUC, LIS) may be a tool's name for one of
// the task's, and is no other subject. A call that writes a figure of its
// own beside the subject (a year no step before it gives: "Paris
// population 1999 census" for the current one) departed from what it was
// handed by itself, and the subject's naming may only have resolved the
// task's description ("the city where the Eiffel Tower stands"). It
// returns -1 when there is none.
func handedSubject(in *Input, c int) int {
	f := &in.Features.Steps[c]
	if len(f.Calls) == 0 || f.Has(extract.KindToolResult) {
		return -1
	}
	sup := in.supportIndex()
	for _, call := range f.Calls {
		for _, v := range call.Values {
			if slices.ContainsFunc(extract.NumberValues(v), func(n string) bool { return !sup.before(n, c, from{}) && !numberHeld(sup, n, c) }) {
				return -1
			}
		}
	}
	text := in.supportIndex().text
	given := givenClaims(in)
	var task []extract.Claim
	for _, q := range in.Features.Question {
		if q.Kind == extract.ClaimEntity {
			task = append(task, q)
		}
	}
	if len(task) == 0 || slices.ContainsFunc(task, func(q extract.Claim) bool { return text.HoldsWords(c, extract.NormWords(q.Text)) }) {
		return -1
	}
	for p := 0; p < c; p++ {
		st := &in.Features.Steps[p]
		if !isAgentDecision(in, p) || st.Has(extract.KindToolResult) || st.Has(extract.KindTask) || run.SameAgent(in.Run.Steps[p].Agent, in.Run.Steps[c].Agent) {
			continue
		}
		for _, e := range st.Claims {
			words := extract.NormWords(e.Text)
			if e.Kind != extract.ClaimEntity || given[e.Norm] || shortCode(e.Text) || !text.HoldsWords(c, words) || extract.HoldsWords(in.Run.Question, words) {
				continue
			}
			if !heldBefore(text, p, words) {
				return p // no step before wrote the name: p put it in
			}
		}
	}
	return -1
}

// handedQualifier is handedSubject for a name the task qualifies by
// another name written right after it ("Portland, Oregon"): the step of
// another agent before call c that wrote the task's name qualified
// otherwise ("Portland, Maine"), by a name neither the task nor an
// earlier step wrote, where the call names the task's name without the
// task's qualifier. The work was handed on about a namesake of the
// task's subject. It returns -1 when there is none.
func handedQualifier(in *Input, c int) int {
	f := &in.Features.Steps[c]
	if len(f.Calls) == 0 || f.Has(extract.KindToolResult) {
		return -1
	}
	text := in.supportIndex().text
	task := qualifiedNames(in.Features.Question)
	for p := 0; p < c; p++ {
		st := &in.Features.Steps[p]
		if !isAgentDecision(in, p) || st.Has(extract.KindToolResult) || given(in, p) || run.SameAgent(in.Run.Steps[p].Agent, in.Run.Steps[c].Agent) {
			continue
		}
		for name, q := range qualifiedNames(st.Claims) {
			tq, ok := task[name]
			words := extract.NormWords(name)
			if !ok || tq.Norm == q.Norm || extract.HoldsWords(in.Run.Question, extract.NormWords(q.Text)) || heldBefore(text, p, extract.NormWords(q.Text)) {
				continue
			}
			if text.HoldsWords(c, words) && !text.HoldsWords(c, extract.NormWords(tq.Text)) {
				return p
			}
		}
	}
	return -1
}

// qualifiedNames maps each name of the claims (its normal form) that
// another name follows right after, with at most a comma between
// ("Portland, Oregon"), to that qualifying name.
func qualifiedNames(claims []extract.Claim) map[string]extract.Claim {
	out := map[string]extract.Claim{}
	for k := 1; k < len(claims); k++ {
		a, q := claims[k-1], claims[k]
		if a.Kind == extract.ClaimEntity && q.Kind == extract.ClaimEntity && q.Offset > a.Offset && int(q.Offset)-int(a.Offset)-len(a.Text) <= 2 {
			out[a.Norm] = q
		}
	}
	return out
}

// unitChanged is, for a value of the answer in a unit ("3.2 minutes")
// whose number a tool's output first gave bare, the first agent's step
// after that output to state the number in that unit, where an agent's
// step between had stated it in another ("3.2 hours"): the figure was
// reported in one unit and changed to another there. It returns -1 when
// no step changed the unit.
func unitChanged(in *Input, cf graph.ClaimFlow) int {
	o := cf.Origin
	val, unit := extract.Claim{Kind: extract.ClaimNumber, Norm: cf.Claim}.Value()
	if unit == "" || o < 0 || !in.Features.Steps[o].Has(extract.KindToolResult) {
		return -1
	}
	other := false
	for i := o + 1; i < len(in.Features.Steps); i++ {
		if !isAgentDecision(in, i) || in.Features.Steps[i].Has(extract.KindToolResult) {
			continue
		}
		same := false
		for _, c := range in.Features.Steps[i].Claims {
			if v, u := c.Value(); c.Kind == extract.ClaimNumber && v == val && u != "" {
				same = same || u == unit
				other = other || u != unit
			}
		}
		if same {
			if other && !slices.ContainsFunc(in.Features.Steps[i].Claims, func(c extract.Claim) bool {
				v, u := c.Value()
				return c.Kind == extract.ClaimNumber && v == val && u != "" && u != unit
			}) {
				return i
			}
			return -1
		}
	}
	return -1
}

// alteringCall is, for a value of the answer first read from the tool's
// output r, the later call on its path that acts (a refund, a booking)
// given the value where the task states another figure of its kind: the
// task's 9.90 EUR for one item, the order's 39.60 total refunded. The
// output reported what it holds; the call chose the figure to act with.
// It returns -1 when no such call is on the path.
func alteringCall(in *Input, cf graph.ClaimFlow, r int) int {
	for k := len(cf.Path) - 1; k >= 0; k-- {
		i := cf.Path[k]
		if i <= r || !in.Features.Steps[i].Has(extract.KindToolResult) {
			continue
		}
		c := callerOf(in, i)
		if c <= r || !slices.ContainsFunc(in.Features.Steps[c].Calls, extract.Call.Consequential) {
			continue
		}
		for fig := range ownFigures(in, c) {
			if fig.claim.Norm == cf.Claim && altersTask(in, fig.claim) {
				return c
			}
		}
	}
	return -1
}

// shortCode reports whether a name is a short code in capitals and digits.
func shortCode(name string) bool {
	return len(name) <= 5 && strings.IndexFunc(name, func(r rune) bool { return !('A' <= r && r <= 'Z' || '0' <= r && r <= '9') }) < 0
}

// heldBefore reports whether a step before p writes the words.
func heldBefore(text *extract.Writing, p int, words string) bool {
	for j := range p {
		if text.HoldsWords(j, words) {
			return true
		}
	}
	return false
}

// miscopiedSource is, for a step whose code computed with a figure or a
// date an earlier result printed (one its text writes first appears
// there), the
// step whose code that result answers for, when that code handed a
// function a figure the task or an earlier step writes otherwise
// (extract's block calls keep only such values), and the value: the
// fetch went wrong there, and the later code only carried its result
// on. It returns -1 otherwise.
func miscopiedSource(in *Input, c int) (int, string) {
	numbers := in.supportIndex().numberIndex()
	for _, n := range in.Features.Steps[c].Claims {
		var r int
		switch n.Kind {
		case extract.ClaimNumber:
			val, _ := n.Value()
			r = firstAt(numbers[val], "")
		case extract.ClaimDate:
			r = firstClaimed(in, n, c)
		default:
			continue
		}
		if r == noStep || r < 0 || r >= c || !in.Features.Steps[r].Has(extract.KindToolResult) {
			continue
		}
		p := callerOf(in, r)
		if p < 0 || p >= c {
			continue
		}
		for _, call := range in.Features.Steps[p].Calls {
			if call.Block() && len(call.Values) > 0 {
				return p, call.Values[0]
			}
		}
	}
	return -1, ""
}

// firstClaimed is the first step before c that states claim n, -1 when
// the task states it, noStep when no step does.
func firstClaimed(in *Input, n extract.Claim, c int) int {
	if slices.ContainsFunc(in.Features.Question, n.Matches) {
		return -1
	}
	for j := range c {
		if slices.ContainsFunc(in.Features.Steps[j].Claims, n.Matches) {
			return j
		}
	}
	return noStep
}

// fedBy is, for a call that computed with a number an earlier call's
// result gave (a product handed on to a division), the step that put a
// wrong figure into that chain of calls, followed back through it: one of
// another agent that handed an earlier call a figure altering the task's
// or one no tool or the task gave (alteredInCall, handedValue; altered
// tells which), or an earlier call of the chain that first wrote a figure
// altering the task's itself, or one that is an earlier figure with two
// digits swapped (transposedInCall, which slip then tells). The later
// calls only carried the earlier result on. It is -1 when the call
// computed with no earlier result, or the chain holds no such figure.
func fedBy(in *Input, c int) (p int, altered bool, slip swap) {
	numbers := in.supportIndex().numberIndex()
	for hops := 0; hops < 16; hops++ {
		next := -1
		for v, n := range callNumbers(&in.Features.Steps[c]) {
			if !meaningful(v) {
				continue
			}
			val, _ := n.Value()
			r := firstAt(numbers[val], "")
			if r < 0 || r >= c || !in.Features.Steps[r].Has(extract.KindToolResult) || !computed(&in.Features.Steps[r]) {
				continue
			}
			if p := callerOf(in, r); p >= 0 && p < c {
				next = p
				break
			}
		}
		if next < 0 {
			return -1, false, swap{}
		}
		if p := alteredInCall(in, next); p >= 0 {
			return p, true, swap{}
		}
		if p := handedValue(in, next); p >= 0 {
			return p, false, swap{}
		}
		if t := transposedInCall(in, next); t.val != "" {
			return next, false, t
		}
		for _, n := range callNumbers(&in.Features.Steps[next]) {
			if !altersTask(in, n) {
				continue
			}
			val, _ := n.Value()
			switch p := firstAt(numbers[val], ""); {
			case p == noStep || p >= next:
				return next, true, swap{} // the call wrote it first
			case p >= 0 && statedByAnother(in, p, next, val):
				return p, true, swap{} // another agent handed it on
			}
		}
		c = next
	}
	return -1, false, swap{}
}

// swap is a figure a call took (val) and the earlier figure (given, as
// step at wrote it, -1 for the task) it is with two digits swapped.
type swap struct {
	val, given string
	at         int
}

// transposedInCall is a number step c's calls take that no step before
// them writes, which is a figure the task or an earlier step wrote with
// two adjacent digits swapped (transposedDigits), while the calls do not
// take that figure too: the call copied what it was given and copied it
// wrong (7.5 where the search found 5.7 °C). Its val is "" when no
// number of the calls is so.
func transposedInCall(in *Input, c int) swap {
	f := &in.Features.Steps[c]
	numbers := in.supportIndex().numberIndex()
	taken := map[string]bool{}
	for _, n := range callNumbers(f) {
		val, _ := n.Value()
		taken[val] = true
	}
	for v, n := range callNumbers(f) {
		if !meaningful(v) {
			continue
		}
		val, _ := n.Value()
		if p := firstAt(numbers[val], ""); p != noStep && p < c {
			continue
		}
		for j := -1; j < c; j++ {
			claims := in.Features.Question
			if j >= 0 {
				claims = in.Features.Steps[j].Claims
			}
			for _, d := range claims {
				if w, _ := d.Value(); d.Kind == extract.ClaimNumber && !taken[w] && transposedDigits(w, val) {
					return swap{val: v, given: d.Text, at: j}
				}
			}
		}
	}
	return swap{}
}

// transposedDigits reports whether the figure b is a with two adjacent
// digits swapped, the point (if any) where it was: 1540 of 1450, 1.0843
// of 1.0834, 7.5 of 5.7. A swap of two digits that differ makes another
// figure of the same length from any figure, so a whole number of fewer
// than three digits (a count, a rank, a day) is left alone: 12 and 21
// are alike by chance too often. A point fixes what each digit counts,
// so a figure written with one is held to the check.
func transposedDigits(a, b string) bool {
	if len(a) != len(b) || a == b || strings.IndexByte(a, '.') != strings.IndexByte(b, '.') {
		return false
	}
	da, db := strings.ReplaceAll(a, ".", ""), strings.ReplaceAll(b, ".", "")
	if !allDigits(da) || !allDigits(db) || len(da) < 3 && len(da) == len(a) {
		return false
	}
	k := 0
	for k < len(da) && da[k] == db[k] {
		k++
	}
	return k+1 < len(da) && da[k] == db[k+1] && da[k+1] == db[k] && da[k+2:] == db[k+2:]
}

// alteredDates returns the date d as precisely as each date the task
// names ("2024-03" of "2024-03-01" beside the task's "2025-03"), where it
// is another: the call's date alters the task's at that precision. A
// date as precise as none of the task's alters none.
func alteredDates(in *Input, d extract.Claim) []string {
	var out []string
	for _, q := range in.Features.Question {
		if q.Kind != extract.ClaimDate || len(q.Norm) > len(d.Norm) {
			continue
		}
		if p := d.Norm[:len(q.Norm)]; p != q.Norm && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// firstDate is the first step before step c that states a date which
// begins with p (a day of the month p, or p itself), or noStep.
func firstDate(in *Input, p string, c int) int {
	for j := 0; j < c; j++ {
		if slices.ContainsFunc(in.Features.Steps[j].Claims, func(x extract.Claim) bool { return x.Kind == extract.ClaimDate && strings.HasPrefix(x.Norm, p) }) {
			return j
		}
	}
	return noStep
}

// figure is a number a step states: its claim, its value as written
// and as a number.
type figure struct {
	claim extract.Claim
	val   string
	x     float64
}

// ownFigures yields the numbers step o states that are neither a figure
// of the task written another way (in words, in a date) nor a unit's
// factor (unitFactor: 60 seconds in its minute, a mile's 1.609344 km
// where miles are converted): those another step may have handed it.
func ownFigures(in *Input, o int) iter.Seq[figure] { return figures(in, o, true) }

// figures yields the numbers step o states that are not a figure of the
// task written another way, nor, with factors, a unit's factor.
func figures(in *Input, o int, factors bool) iter.Seq[figure] {
	return func(yield func(figure) bool) {
		other := taskFigures(in)
		for _, c := range in.Features.Steps[o].Claims {
			if c.Kind != extract.ClaimNumber {
				continue
			}
			val, _ := c.Value()
			x, err := strconv.ParseFloat(val, 64)
			if err != nil || other[x] || factors && unitFactor(in, x, o) {
				continue
			}
			if !yield(figure{c, val, x}) {
				return
			}
		}
	}
}

// statedByAnother reports whether step first, which first states the
// number val that step o uses, is another agent's own decision that
// states val rather than works it out (Computes, derivedThere) or marks
// it a guess (Guessed): neither a tool's output nor the task restated.
func statedByAnother(in *Input, first, o int, val string) bool {
	p := &in.Features.Steps[first]
	return isAgentDecision(in, first) && !p.Has(extract.KindToolResult) && !p.Has(extract.KindTask) &&
		!run.SameAgent(in.Run.Steps[first].Agent, in.Run.Steps[o].Agent) && !slices.Contains(p.Computes, val) && !slices.Contains(p.Guessed, val) && !derivedThere(in, first, val)
}

// derivedThere reports whether step p, which first states the number
// val, writes a factor (in digits or in words) that makes it of a figure
// the task gives: "over four quarters comes to $6,000" for a task's
// "$1,500 per quarter". The step worked the figure out from the task's,
// in words rather than as arithmetic, and altered nothing.
func derivedThere(in *Input, p int, val string) bool {
	x, err := strconv.ParseFloat(val, 64)
	if err != nil || x == 0 {
		return false
	}
	factors := slices.Clone(in.Features.Steps[p].WordNumbers)
	for _, c := range in.Features.Steps[p].Claims {
		// What the step worked out is no factor of its operands: "12 x
		// 28 = 336" does not derive 12 from a task's 28. A percentage is
		// its fraction too: "15% of $80 = $12".
		if v, u := c.Value(); c.Kind == extract.ClaimNumber && v != val && !slices.Contains(in.Features.Steps[p].Computes, v) {
			if k, err := strconv.ParseFloat(v, 64); err == nil {
				factors = append(factors, k)
				if u == "%" {
					factors = append(factors, k/100)
				}
			}
		}
	}
	for _, q := range in.Features.Question {
		if q.Kind != extract.ClaimNumber {
			continue
		}
		v, _ := q.Value()
		y, err := strconv.ParseFloat(v, 64)
		if err != nil || y == 0 {
			continue
		}
		for _, k := range factors {
			if k != 0 && k != 1 && (sameFloat(x, y*k) || sameFloat(x, y/k)) {
				return true
			}
		}
	}
	return false
}

// handedToCode is, for a step whose code computed a value of the answer,
// the earliest step of another agent that first stated a number the code
// holds, which the task did not: a requirement, a design or a task list
// that handed the engineer a wrong figure, which the code then computed
// with, as handedValue reads a call's arguments. A factor is the
// percentage it writes (0.08 and 1.08 are the task's 8%), and a number
// the task writes in words or as a part of a date is the task's (12 is
// its "a dozen", 2024 and 31 its "March 31, 2024": the step that first
// wrote them as numbers restated the task), as is one a step stating the
// task first wrote (a manager's constraints that come with it), and a
// unit's conversion factor (3600 seconds in an hour) is no one's. It
// returns -1 when every number of the code came from the task, or when
// the code states a figure no earlier step did (its own constant is the
// likelier fault than one it was handed: a design's own constants are
// handed too).
func handedToCode(in *Input, d int) int {
	sup := in.supportIndex()
	numbers := sup.numberIndex()
	var other map[float64]bool // the numbers the task writes another way
	best := -1
	for _, c := range in.Features.Steps[d].Claims {
		if c.Kind != extract.ClaimNumber || len(c.Text) < 2 {
			continue
		}
		val, _ := c.Value()
		if other == nil {
			other = taskFigures(in)
		}
		if x, err := strconv.ParseFloat(val, 64); err == nil && (other[x] || unitFactor(in, x, d)) {
			continue // the task's figure, written in words or in a date, or a unit's
		}
		if val == "0" || slices.ContainsFunc(in.Features.Question, func(q extract.Claim) bool { v, _ := q.Value(); return q.Kind == extract.ClaimNumber && v == val }) {
			continue // nothing (0.0, as 0 is), or the task's figure, which code writes without its unit ($5 as 5.0)
		}
		x, _ := strconv.ParseFloat(val, 64)
		first := firstNumberAt(numbers, val, x)
		if first == d {
			return -1 // the code wrote a figure of its own: it is the suspect
		}
		if first == noStep || first < 0 || first > d {
			continue
		}
		if slices.Contains(in.Features.Steps[first].Guessed, val) {
			continue // a figure its step marked as a guess: no one handed it as a fact
		}
		if isAgentDecision(in, first) && !in.Features.Steps[first].Has(extract.KindToolResult) && !in.Features.Steps[first].Has(extract.KindTask) && !run.SameAgent(in.Run.Steps[first].Agent, in.Run.Steps[d].Agent) && (best < 0 || first < best) {
			best = first
		}
	}
	return best
}

// conversions are the factors between common units (months and hours,
// minutes and seconds in the hour and the day, days and weeks in the
// year, percent, thousands, bytes): whoever first writes one states what
// everyone knows and hands no figure of its own.
var conversions = map[float64]bool{12: true, 24: true, 52: true, 60: true, 100: true, 365: true, 1000: true, 1024: true, 1440: true, 3600: true, 86400: true, 1e6: true}

// fractionUnits are the hundredths and thousandths code rounds or
// quantizes values to, or converts by (CENTS = Decimal('0.01'), ms *
// 0.001): a unit's part, not the percentage of a rate. (A tenth is as
// often a rate of 10%.)
var fractionUnits = map[float64]bool{0.01: true, 0.001: true}

// definedFactors are the defined factors between the imperial and metric
// units of length, mass and volume, both ways, as they are written to
// their usual places, each with the names of its imperial unit. One is
// everyone's only where the quantity converted is in that unit
// (unitFactor): a nautical mile's 1.852 km stated for a mile is a figure
// of whoever stated it.
var definedFactors = map[float64][]string{
	1.609344: mileNames, 1.60934: mileNames, 0.621371: mileNames, 0.621371192: mileNames,
	2.54: {"inch", "inches"}, 0.393701: {"inch", "inches"},
	0.3048: {"foot", "feet", "ft"}, 3.28084: {"foot", "feet", "ft"},
	0.9144: {"yard", "yards", "yd"}, 1.09361: {"yard", "yards", "yd"},
	0.45359237: poundNames, 0.453592: poundNames, 2.20462: poundNames,
	28.349523125: {"ounce", "ounces", "oz"}, 28.3495: {"ounce", "ounces", "oz"},
	3.785411784: gallonNames, 3.78541: gallonNames, 0.264172: gallonNames,
	1.852: {"nautical"},
}

var (
	mileNames   = []string{"mile", "miles", "mi"}
	poundNames  = []string{"pound", "pounds", "lb", "lbs"}
	gallonNames = []string{"gallon", "gallons", "gal"}
)

// unitFactor reports whether x is a factor between units that no one
// hands another: one of conversions, or a defined factor whose imperial
// unit the task, or a tool's output before step i, names as a word (the
// unit of the quantity the run converts).
func unitFactor(in *Input, x float64, i int) bool {
	if conversions[x] || fractionUnits[x] {
		return true
	}
	names := definedFactors[x]
	if len(names) == 0 {
		return false
	}
	sup := in.supportIndex()
	named := func(j int) bool {
		return slices.ContainsFunc(names, func(n string) bool { return sup.text.Holds(j, n) })
	}
	if named(-1) {
		return true
	}
	for j := range min(i, len(in.Features.Steps)) {
		if in.Features.Steps[j].Has(extract.KindToolResult) && named(j) {
			return true
		}
	}
	return false
}

// percents returns the percentages a factor x may write: x itself as a
// fraction (0.08 is 8%), and the rise or the fall from one it multiplies
// by (1.08 adds 8%, 0.92 takes 8% off, 1.5 adds 50%).
func percents(x float64) []string {
	pct := func(f float64) string { return strconv.FormatFloat(math.Round(f*1e8)/1e6, 'f', -1, 64) }
	switch {
	case x < 1:
		return []string{pct(x), pct(1 - x)}
	case x > 1 && x < 10:
		return []string{pct(x - 1), pct(x)}
	}
	return nil
}

// firstNumberAt returns the first step (-1 for the task) that states the
// number val, whose value is x, or a percentage x may write (percents:
// 0.07 as 7%), or noStep.
func firstNumberAt(numbers map[string][]numberAt, val string, x float64) int {
	first := firstAt(numbers[val], "")
	if x > 0 {
		for _, pct := range percents(x) {
			if p := firstAt(numbers[pct], "%"); p != noStep && (first == noStep || p < first) {
				first = p
			}
		}
	}
	return first
}

// noStep is firstAt's answer when no step states a number.
const noStep = math.MinInt

// firstAt returns the first of hs (in step order, -1 for the task)
// stated in unit (any unit when unit is ""), or noStep.
func firstAt(hs []numberAt, unit string) int {
	for _, h := range hs {
		if unit == "" || h.unit == unit {
			return h.step
		}
	}
	return noStep
}

// computed reports whether a tool's result states one value, as a
// computation's result does ("69608"), rather than a record or a listing
// of several (a lookup's row, whose figure the numbers the call was given
// as a year, a limit or a page did not make).
func computed(f *extract.Features) bool {
	value := ""
	for _, c := range f.Claims {
		if c.Kind != extract.ClaimNumber {
			continue
		}
		v, _ := c.Value()
		if value != "" && v != value {
			return false
		}
		value = v
	}
	return true
}

// DataFlowOrigin is the data_flow_origin analyzer.
var DataFlowOrigin = &Analyzer{Name: "data_flow_origin", Run: unforced(dataFlowOrigin), Requires: []Fact{FactClaims, FactFinalAnswer, FactGroundTruth, FactDataFlow, FactToolCalls, FactKinds, FactRequirements, FactSignals},
	Doc: "the step where a value of the wrong final answer first appears, following data edges back (CHIEF data flow), or the plan that laid out the work without a requirement the task states, or a choice that what it was chosen from shows breaks the task (a listed row's rule, shortest stay or missing quality, a slot over a busy time, a total over the budget)"}

// calledOutput reports whether step o is the output of a call another
// step made by name (a tool's result), not an agent's own report.
func calledOutput(in *Input, o int) bool {
	if !in.Features.Steps[o].Has(extract.KindToolResult) {
		return false
	}
	c := callerOf(in, o)
	return c >= 0 && c != o && len(in.Features.Steps[c].Calls) > 0
}

// chosenAmong is, for a run without a ground truth, the step that chose
// the answer's value when a tool's output gave it among other values of
// its kind (a listing of several cities' populations; a page's two
// dates, of a fall and of a demolition): the first agent's step on the
// value's path that states it without the others. The tool reported what it found; which of its values answers
// the task was the agent's choice. In a team, the answer of another agent
// than the caller's chose so too when the caller's agent reported the
// values together (a researcher's "412.6 million in 2025 and 380.1
// million in 2024", a planner's answer with the second for the first). It
// returns -1 when the value was first stated by an agent, or stood alone
// in the output, or no step chose it.
func chosenAmong(in *Input, cf graph.ClaimFlow) int {
	o := cf.Origin
	if o < 0 || !in.Features.Steps[o].Has(extract.KindToolResult) || leftOut(in, o) != "" || narrowedOut(in, cf) >= 0 {
		return -1
	}
	claims := in.Features.Steps[o].Claims
	at := slices.IndexFunc(claims, func(c extract.Claim) bool { return statesClaim(c, cf.Claim) })
	if at < 0 || !answerClaim(claims[at]) && claims[at].Kind != extract.ClaimEntity || claims[at].Kind == extract.ClaimQuoted {
		return -1
	}
	given := givenClaims(in)
	// What the call asked for is the subject the output reports on, not
	// a value the answer could be chosen among: a search for Thailand's
	// currency names Thailand beside the baht.
	var asked []extract.Claim
	if c := callerOf(in, o); c >= 0 && c < o {
		asked = in.Features.Steps[c].Claims
	}
	// Nor is a value the answer states beside this one: it reports the
	// two, and chose neither over the other.
	var answer []extract.Claim
	if fa := in.Features.FinalAnswer; fa != nil {
		answer = fa.Claims
	}
	var others []string
	for _, c := range claims {
		if alike(c, claims[at]) && !statesClaim(c, cf.Claim) && !given[c.Norm] && !slices.Contains(others, c.Norm) &&
			!slices.ContainsFunc(asked, func(a extract.Claim) bool { return statesClaim(a, c.Norm) }) &&
			!slices.ContainsFunc(answer, func(a extract.Claim) bool { return statesClaim(a, c.Norm) }) {
			others = append(others, c.Norm)
		}
	}
	if len(others) < 1 {
		return -1
	}
	if takesExtreme(in, o, claims[at]) {
		// The task asks for the most (or the least) of something, and
		// the answer took the highest (lowest) of the output's values:
		// the task made that choice; what the output listed is what can
		// be wrong.
		return -1
	}
	reported := false // the caller's agent passed the values on together
	for k := len(cf.Path) - 1; k >= 0; k-- {
		i := cf.Path[k]
		if i <= o || !isAgentDecision(in, i) || in.Features.Steps[i].Has(extract.KindToolResult) {
			continue
		}
		if !slices.ContainsFunc(in.Features.Steps[i].Claims, func(c extract.Claim) bool { return slices.Contains(others, c.Norm) }) {
			if i != in.Graph.AnswerStep() || !reported && !run.SameAgent(in.Run.Steps[i].Agent, responsible(in, o)) {
				return -1
			}
			return i
		}
		reported = reported || run.SameAgent(in.Run.Steps[i].Agent, responsible(in, o))
	}
	return -1
}

// takesExtreme reports whether the task asks for the most or the least
// of something (extract's AsksExtreme) and the number chosen is, in the
// column of the listing output o prints that it stands in, the highest
// or, for the least, the lowest: a listing's row is the record's numbers
// in order, and the records with as many numbers are its other rows.
func takesExtreme(in *Input, o int, chosen extract.Claim) bool {
	dir := in.Features.AsksExtreme
	v, ok := chosen.Number()
	if dir == 0 || !ok {
		return false
	}
	recs := in.Features.Steps[o].Records
	row := slices.IndexFunc(recs, func(r extract.Record) bool { return slices.Contains(r.Numbers, chosen.Norm) })
	if row < 0 {
		return false
	}
	col := slices.Index(recs[row].Numbers, chosen.Norm)
	rows := 0
	for k, r := range recs {
		if k == row || len(r.Numbers) != len(recs[row].Numbers) {
			continue
		}
		w, ok := (extract.Claim{Kind: extract.ClaimNumber, Norm: r.Numbers[col]}).Number()
		if !ok || float64(dir)*(w-v) > 0 {
			return false
		}
		rows++
	}
	return rows > 0
}

// leftOut returns what the task names that the call of tool result o
// left out of its arguments and the result does not write either: a
// year the task asks about, where the result states another year; or a
// name of the task (a fare, a plan, a model: "Economy Light"), where the
// result names others of its kind (that share a word with it: "Economy
// Classic", "Economy Flex"). The search was for the subject without what
// set it apart, and brought back what other years or other variants
// say. None of its values is the task's, so the call chose what the
// answer could say, not a step that picked among them. It returns ""
// when the call or its result writes what the task names.
func leftOut(in *Input, o int) string {
	c := callerOf(in, o)
	if c < 0 || c >= o || len(in.Features.Steps[c].Calls) == 0 {
		return ""
	}
	text := in.supportIndex().text
	missing := func(words string) bool { return !text.HoldsWords(c, words) && !text.HoldsWords(o, words) }
	result := in.Features.Steps[o].Claims
	for _, q := range in.Features.Question {
		if y := yearOf(q); y != "" && missing(y) && slices.ContainsFunc(result, func(r extract.Claim) bool { return yearOf(r) != "" && yearOf(r) != y }) {
			return y
		}
		if q.Kind != extract.ClaimEntity {
			continue
		}
		if words := extract.NormWords(q.Text); missing(words) && slices.ContainsFunc(result, func(r extract.Claim) bool { return sibling(r, q) }) {
			return q.Text
		}
	}
	return ""
}

// narrowedOut is, for a value of the answer first read from a tool's
// output, the later call on its path whose output is a part of that one
// (every value it states, the first stated: a reranker keeping some of a
// retrieval's chunks) and no longer writes a name of the task the first
// output wrote, where what it kept names another of that name's kind
// ("Mercury City Tower" in Moscow kept, "Mercury Tower" in Malta
// dropped). What the answer could say was narrowed to other things than
// the task's there. It returns -1 when no call on the path did so.
func narrowedOut(in *Input, cf graph.ClaimFlow) int {
	o := cf.Origin
	if o < 0 || !in.Features.Steps[o].Has(extract.KindToolResult) {
		return -1
	}
	text := in.supportIndex().text
	first := in.Features.Steps[o].Claims
	for _, i := range cf.Path {
		c := callerOf(in, i)
		if i <= o || !in.Features.Steps[i].Has(extract.KindToolResult) || c <= o || c == i || len(in.Features.Steps[c].Calls) == 0 {
			continue
		}
		kept := in.Features.Steps[i].Claims
		if len(kept) == 0 || slices.ContainsFunc(kept, func(k extract.Claim) bool { return !slices.ContainsFunc(first, k.SameKey) }) {
			continue
		}
		for _, q := range in.Features.Question {
			words := extract.NormWords(q.Text)
			if q.Kind == extract.ClaimEntity && text.HoldsWords(o, words) && !text.HoldsWords(i, words) && slices.ContainsFunc(kept, func(k extract.Claim) bool { return sibling(k, q) }) {
				return c
			}
		}
	}
	return -1
}

// sibling reports whether the name r is another of the name q's kind: a
// different name that shares one of q's words of three letters or more
// ("Economy Classic" beside "Economy Light").
func sibling(r, q extract.Claim) bool {
	if r.Kind != extract.ClaimEntity || r.Norm == q.Norm {
		return false
	}
	words := strings.Fields(r.Norm)
	for _, w := range strings.Fields(q.Norm) {
		if len(w) >= 3 && slices.ContainsFunc(words, func(x string) bool { return x == w || strings.HasSuffix(x, "-"+w) || strings.HasPrefix(x, w+"-") }) {
			return true
		}
	}
	return false
}

// yearOf is the year a claim states: a year, or a full date's year; ""
// for any other claim.
func yearOf(c extract.Claim) string {
	switch {
	case c.Kind == extract.ClaimNumber && isYear(c.Norm):
		return c.Norm
	case c.Kind == extract.ClaimDate && len(c.Norm) > 4 && c.Norm[4] == '-' && isYear(c.Norm[:4]):
		return c.Norm[:4]
	}
	return ""
}

// brokenPick returns the first step that picks a listed row whose own
// fields show it breaks the task (extract's ListedPick), or whose call
// books a slot over a time a tool listed as busy (extract's Clash), or
// that states a total over the task's budget (extract's OverBudget), or
// whose call moves another figure of a listing than the price of the
// task's item (extract's OtherPrice), with
// what to quote and why; -1 when none does.
func brokenPick(in *Input) (int, string, string) {
	for i, f := range in.Features.Steps {
		if c := f.ListedPick; c != nil {
			return i, c.Picked, listedPickReason(c)
		}
		if c := f.Clash; c != nil {
			return i, c.Booked[:5], fmt.Sprintf("its call books %s, where step %d lists %q busy %s", c.Booked, c.Result, c.Who, c.Busy)
		}
		if c := f.OverBudget; c != nil {
			return i, c.Total, fmt.Sprintf("it states a total of %s, over the task's budget of %s", c.Total, c.Budget)
		}
		if c := f.OtherPrice; c != nil {
			return i, c.Given, fmt.Sprintf("its call gives %s, where the listing at step %d prices the task's %q at %s", c.Given, c.Listing, c.Item, c.Price)
		}
	}
	return -1, "", ""
}

// listedPickReason says why a pick of a listing's row breaks the task
// (extract's ListedPick).
func listedPickReason(c *extract.ListedPick) string {
	if c.Forbids != "" {
		return fmt.Sprintf("it picks %q, whose row of the listing at step %d says %q, which the task's %q breaks", c.Picked, c.Listing, c.Forbids, c.Asked)
	}
	return fmt.Sprintf("it gives %q, a row of the listing at step %d, the task's %q, which that row does not write and another row does", c.Picked, c.Listing, c.Asked)
}

// otherRecordTaken is, for a value of the answer first read from a
// tool's listing, the later call on its path that took up another record
// of the listing than the one another agent had named (takesOtherRecord:
// the researcher's "LH 1792", the booker's "TP 555"; a line of another
// order than the customer's): the listing offered
// both, and what reached the answer (the flight, its price) came through
// the record the call chose; or the step on the path that picked past
// the choice the task names (extract's PassedOver: a call that opened
// the other order's row of a page, an answer read from the other
// product's entry). It returns -1 when no step on the path did.
func otherRecordTaken(in *Input, cf graph.ClaimFlow) int {
	o := cf.Origin
	if o < 0 || !in.Features.Steps[o].Has(extract.KindToolResult) {
		return -1
	}
	for k := len(cf.Path) - 1; k >= 0; k-- {
		i := cf.Path[k]
		if i <= o {
			continue
		}
		if in.Features.Steps[i].Has(extract.KindToolResult) {
			i = callerOf(in, i)
		}
		if i > o && in.Features.Steps[i].PassedOver != nil {
			return i
		}
		if i <= o || len(in.Features.Steps[i].Calls) == 0 {
			continue
		}
		if used, _, _ := takesOtherRecord(in, i); used != "" {
			return i
		}
	}
	return -1
}

// alike reports whether c is a value of v's kind, one an agent could take
// for it: for numbers, in the same unit and within a factor of ten (a
// city's population beside another's, not beside the census year).
func alike(c, v extract.Claim) bool {
	if c.Kind == extract.ClaimDate && v.Kind == extract.ClaimNumber {
		// A year beside dates ("moved there in 1884" beside "7 January
		// 1943"): the year of any of them may be taken for it.
		return len(v.Norm) == 4 && allDigits(v.Norm)
	}
	if c.Kind != v.Kind {
		return false
	}
	if c.Kind != extract.ClaimNumber {
		return true
	}
	x, okx := c.Number()
	y, oky := v.Number()
	_, cu := c.Value()
	_, vu := v.Value()
	if !okx || !oky || cu != vu || x == 0 || y == 0 {
		return okx == oky && cu == vu
	}
	r := math.Abs(x / y)
	return r <= 10 && r >= 0.1
}

// statesClaim reports whether c states the claim of normal form norm: the
// same form, or, for a number, its value where one of the two gives no
// unit (a table's "829.8" for an answer's "829.8 metres"), as the answer's
// data flow reads them (extract.Claim.Matches).
func statesClaim(c extract.Claim, norm string) bool {
	return strings.EqualFold(c.Norm, norm) || c.Kind == extract.ClaimNumber && c.Matches(extract.Claim{Kind: extract.ClaimNumber, Norm: norm}) || c.InYear(norm)
}

// corruption walks a claim's path from its origin toward the answer and
// returns the first step that states the wrong value without also stating
// the correct one: a step that reports both (a search listing the right
// figure beside a wrong one) still had valid data; the corruption is where
// the right one was dropped.
//
// Once some step has reached the correct value (reached, or -1), the run
// was back in a valid state: a wrong value stated before it was a
// deviation that was corrected, not the root cause (CHIEF's
// deviation-aware rule), and the corruption is the first later step that
// carries the wrong value on. It returns -1 when no such step is on the
// path.
func corruption(in *Input, cf graph.ClaimFlow, want value, reached int) int {
	// A value first stated before the correct one was reached, and not as
	// an answer, was a figure of the work that reached it (the litres a
	// cost was worked out from): a later step that works it out again (a
	// check) carries no wrong answer on; one that answers with it does.
	early := reached >= 0 && cf.Origin >= 0 && cf.Origin < reached && !answers(in, cf.Origin)
	v, _ := (extract.Claim{Norm: cf.Claim}).Value()
	for k := len(cf.Path) - 1; k >= 0; k-- {
		i := cf.Path[k]
		if i <= reached || early && rechecks(in, i, v) {
			continue
		}
		// A step that calls a result with the correct value wrong, and
		// puts the wrong one forward (a checker's "correction"), dropped
		// it there, though it names the correct one.
		if !want.reads(in, i) || rejectsTruthAt(in, i) {
			return i
		}
	}
	if reached >= 0 {
		return -1
	}
	return cf.Origin
}

// reachedAt returns the first step that states the correct value (want):
// an agent's own step or a tool's output, or -1 when none does.
func reachedAt(in *Input, want value) int {
	for i := range in.Features.Steps {
		f := &in.Features.Steps[i]
		if !isAgentDecision(in, i) && !f.Has(extract.KindToolResult) {
			continue
		}
		if want.reads(in, i) {
			return i
		}
	}
	return -1
}

// reads reports whether step i states the value v: as statedBy reads it;
// a year v gives in a full date the step states; for an agent's step, a
// number v gives bare in the unit the task asks (inAskedUnit); for a
// tool's output, a number v gives bare in some unit (a ground truth of
// "78.37" in a table's "78.37 °C"), and a name v gives as a record of a
// listing it prints. A tool prints its figures with their units; an
// agent's own unit is its claim.
func (v value) reads(in *Input, i int) bool {
	f := &in.Features.Steps[i]
	if v.statedAt(in, i) {
		return true
	}
	if len(v.claims) == 0 {
		return false
	}
	if !slices.ContainsFunc(v.claims, func(c extract.Claim) bool {
		return !slices.ContainsFunc(f.Claims, func(o extract.Claim) bool { return o.InYear(c.Norm) })
	}) {
		// A year is stated by a full date in it, whoever writes the date:
		// an agent reporting what it read ("went into service on 22
		// October 1936") as much as a tool's output.
		return true
	}
	if !f.Has(extract.KindToolResult) {
		return v.inAskedUnit(in, f.Claims)
	}
	for _, c := range v.claims {
		if c.Kind == extract.ClaimEntity && slices.ContainsFunc(f.Records, func(r extract.Record) bool { return r.Names(c.Norm) }) {
			continue // a name a record of its listing is known by
		}
		if _, unit := c.Value(); c.Kind != extract.ClaimNumber || unit != "" || !slices.ContainsFunc(f.Claims, func(o extract.Claim) bool { return c.Matches(o) || o.InYear(c.Norm) }) {
			return false
		}
	}
	return true
}

// inAskedUnit reports whether claims state every claim of v, each a bare
// number, in the unit the task asks the answer in: a ground truth of
// "48.27" for a task asking "how far, in kilometres?" is an agent's
// "48.27 km". In another unit the number is another quantity.
func (v value) inAskedUnit(in *Input, claims []extract.Claim) bool {
	for _, c := range v.claims {
		val, unit := c.Value()
		if c.Kind != extract.ClaimNumber || unit != "" {
			return false
		}
		if !slices.ContainsFunc(claims, func(s extract.Claim) bool {
			sv, su := s.Value()
			return s.Kind == extract.ClaimNumber && sv == val && su != "" && askedUnit(in, su)
		}) {
			return false
		}
	}
	return true
}

// askedUnit reports whether the task asks the answer in the unit u (a
// claim's unit: "km"), as a requirement of the task writes it or as its
// question counts the answer ("how many minutes").
func askedUnit(in *Input, u string) bool {
	u = strings.ToLower(u)
	form := func(t string) bool { return t == u || len(t) >= 3 && strings.HasPrefix(u, t) }
	for _, r := range in.Features.Requirements {
		if r.Unit && slices.ContainsFunc(r.Terms, form) {
			return true
		}
	}
	return slices.ContainsFunc(in.Features.AskedUnits, form)
}

// answerMatches reports whether the run's final answer states the ground
// truth.
func answerMatches(in *Input) bool { return in.groundTruth().matches }

// value is a reference value (the ground truth) ready to be looked for.
type value struct {
	claims []extract.Claim
	words  string
}

func newValue(s string) value {
	return value{claims: extract.Claims(s), words: extract.NormWords(s)}
}

// truth is the ground truth as the analyzers read it.
type truth struct {
	matches bool  // the final answer states it
	want    value // what shows that a step reached it (signature)
}

// groundTruth reads the run's ground truth on first use, once for every
// analyzer: four ask whether the answer states it and two look for it in
// every step, and each read extracted its claims from the text again.
func (in *Input) groundTruth() *truth {
	in.truthOnce.Do(func() {
		v := newValue(in.Run.GroundTruth)
		in.truth.want = signature(in, v)
		if fa := in.Features.FinalAnswer; fa != nil {
			in.truth.matches = v.statedBy(fa.Text, fa.Claims) || len(fa.Claims) == 0 && v.inWords(fa.Text)
		}
	})
	return &in.truth
}

// signature is the ground truth v as evidence that a step reached it:
// only what the task did not already say. A step that restates the
// question repeats its names and numbers without having found anything.
// Nor is a number's unit, read as a name of its own in the ground truth
// ("EUR" of "9.90 EUR"), evidence apart from the number: a step writes
// the unit as part of its figure, or, as a tool's table does, under the
// column the figure stands in.
func signature(in *Input, v value) value {
	given := givenClaims(in)
	var own []extract.Claim
	for _, c := range v.claims {
		if !given[c.Norm] && !unitOf(v.claims, c) {
			own = append(own, c)
		}
	}
	v.claims = own
	if len(own) == 0 && extract.HoldsWords(in.Run.Question, v.words) {
		v.words = "" // nothing in the answer is news: no step can be seen reaching it
	}
	return v
}

// countsFinal reports whether step i, an agent's step before the final
// answer, states a count the final answer states, of the same thing,
// where the answer states no value extract reads: the count is then the
// answer ("2 open incidents"), and the step gave it first.
func countsFinal(in *Input, i int) bool {
	fa := in.Features.FinalAnswer
	if fa == nil || len(fa.Claims) > 0 || fa.Step < 0 || i >= fa.Step || in.Features.Steps[i].Has(extract.KindToolResult) {
		return false
	}
	final := in.Features.Steps[fa.Step].Counts
	return slices.ContainsFunc(in.Features.Steps[i].Counts, func(c extract.Count) bool { return slices.Contains(final, c) })
}

// unitOf reports whether c is a name written inside a number claim of
// cs, the number's unit ("EUR" of "9.90 EUR" or "EUR 9.90").
func unitOf(cs []extract.Claim, c extract.Claim) bool {
	return c.Kind == extract.ClaimEntity && slices.ContainsFunc(cs, func(n extract.Claim) bool {
		return n.Kind == extract.ClaimNumber && n.Offset <= c.Offset && int(c.Offset) < int(n.Offset)+len(n.Text)
	})
}

// givenClaims are the claims the task and the user's turns state, by
// normal form (a name quoted in the task is the same name): what a step
// may repeat without having found it.
func givenClaims(in *Input) map[string]bool {
	given := map[string]bool{}
	for _, c := range in.Features.Question {
		given[c.Norm] = true
	}
	for i, st := range in.Run.Steps {
		if st.Kind == run.KindUser {
			for _, c := range in.Features.Steps[i].Claims {
				given[c.Norm] = true
			}
		}
	}
	return given
}

// statedBy reports whether a text, whose claims extract has already found,
// states the value: all of the value's claims, or, for a value without
// claims, the same words (extract.HoldsWords).
func (v value) statedBy(text string, claims []extract.Claim) bool {
	if len(v.claims) == 0 {
		return v.words != "" && extract.HoldsWords(text, v.words)
	}
	return v.claimedIn(claims)
}

// statedAt reports whether step i states the value, as statedBy reads a
// text: its claims among the step's, or its words among those the step
// writes (extract.Writing.HoldsWords).
func (v value) statedAt(in *Input, i int) bool {
	if len(v.claims) == 0 {
		return v.words != "" && in.supportIndex().text.HoldsWords(i, v.words)
	}
	return v.claimedIn(in.Features.Steps[i].Claims)
}

// claimedIn reports whether claims hold every claim of the value.
func (v value) claimedIn(claims []extract.Claim) bool {
	for _, c := range v.claims {
		if !slices.ContainsFunc(claims, c.SameKey) {
			return false
		}
	}
	return true
}

// inWords reports whether a text holds the value's words: how an answer
// that states no value extract reads ("The element is lithium.") is read
// against a ground truth whose claims it cannot hold.
func (v value) inWords(text string) bool {
	return v.words != "" && value{words: v.words}.statedBy(text, nil)
}

func quoteClaim(in *Input, i int, text string) string {
	c := in.Run.Steps[i].Content
	if k := strings.Index(c, text); k >= 0 {
		return Quote(c, k, len(text))
	}
	return Quote(c, 0, 0)
}

// groundTruthContradiction uses the correct answer when it is available: if
// some step had the right value and the run still ended wrong, the first
// later step that puts forward a different answer discarded it; otherwise
// the first step that puts forward a wrong answer is where the run went
// wrong. A step puts forward an answer when extract reads one in it, or,
// once the correct value was reached, when it states a value of the wrong
// final answer.
func groundTruthContradiction(in *Input) []Finding {
	gt := in.Run.GroundTruth
	if gt == "" || answerMatches(in) {
		return nil
	}
	if d, why := codeCause(in); d >= 0 {
		return []Finding{{Step: d, Strength: 0.7, Quote: quoteAt(in, d, 0, 0), Reason: why}}
	}
	if out := taskDataFindings(in); out != nil {
		return out
	}
	final := map[string]bool{}
	if fa := in.Features.FinalAnswer; fa != nil {
		for _, c := range fa.Claims {
			final[c.Key()] = true
		}
	}
	want := in.groundTruth().want
	var given map[string]bool
	had := -1
	var relay *Finding // a step that put forward what its agent's tool gave
	for i := range in.Features.Steps {
		f := &in.Features.Steps[i]
		if !isAgentDecision(in, i) && !f.Has(extract.KindToolResult) {
			continue
		}
		if had < 0 && want.statedAt(in, i) {
			had = i
			continue
		}
		put := f.Answer
		if fa := in.Features.FinalAnswer; put == "" && fa != nil && fa.Step == i {
			// A closing reply that states no value extract reads puts its
			// words forward; so does a tool-using agent's reply that
			// states only values the task gave ("9 pairs of the Alpine
			// Hiker in size 42" for a task naming the boot and the size:
			// a small count is no value of a step's reading).
			if given == nil {
				given = givenClaims(in)
			}
			if len(fa.Claims) == 0 || calledBefore(in, i) && !slices.ContainsFunc(fa.Claims, func(c extract.Claim) bool { return !given[c.Norm] }) {
				put = fa.Text
			}
		}
		if put == "" && countsFinal(in, i) {
			// A reply that counts what the answer counts, as many of it
			// ("4 failed deployments"), put the answer forward: a small
			// count is no value of a step's reading.
			put = in.Features.FinalAnswer.Text
		}
		if put == "" && had >= 0 && !looksUp(f) {
			// Once the correct value was reached, restating the final
			// answer's value counts as putting it forward; a search that
			// names what it looks for puts nothing forward.
			if given == nil {
				given = givenClaims(in)
			}
			put = statedFinal(f.Claims, final, given, want.claims)
			if o := firstStated(in, put, i, want); put != "" && o >= 0 && o < had && !answers(in, o) &&
				slices.ContainsFunc(extract.NumberValues(put), func(v string) bool { return rechecks(in, i, v) }) {
				// A figure of the work that led to the correct value
				// (the litres a cost was worked out from), restated
				// as a check does, is not put forward as an answer.
				put = ""
			}
			if put != "" && relaysBoth(in, i, newValue(put), want) {
				// Notes that pass on what their agent's tool found, the
				// correct figure beside the other (last year's figure
				// beside this year's), keep the correct one: whoever
				// later drops it is at fault.
				put = ""
			}
		}
		if put == "" || !isAgentDecision(in, i) || want.statedBy(put, extract.Claims(put)) {
			continue
		}
		if relay != nil {
			if had > relay.Step {
				return []Finding{{Step: i, Strength: 1, Quote: quoteClaim(in, i, put),
					Reason: fmt.Sprintf("it puts forward %q although step %d had already reached the correct value", put, had)}}
			}
			continue
		}
		if had < 0 && relays(in, i, put) {
			// A step that reports the value its own agent's tool gave
			// passed on what it found. Should a later step reach the
			// correct value, the step that then puts a wrong one
			// forward dropped it: that one is the fault.
			relay = &Finding{Step: i, Strength: 0.7, Quote: quoteClaim(in, i, put),
				Reason: fmt.Sprintf("it is the first step to put forward an answer (%q) that contradicts the correct one", put)}
			continue
		}
		if had >= 0 && rejectsTruthAt(in, i) {
			// It calls a result that states the correct value wrong,
			// and puts another forward in its place (a checker's
			// "correction"): wherever that value was first read, this
			// step dropped the correct one for it.
			return []Finding{{Step: i, Strength: 1, Quote: quoteClaim(in, i, put),
				Reason: fmt.Sprintf("it calls a result that states the correct value wrong and puts forward %q in its place", put)}}
		}
		if o := firstStated(in, put, i, want); o >= 0 && (had < o || !relays(in, o, put) && !onTheWay(in, had, put)) {
			// It repeats a value first stated earlier: that is where the
			// wrong answer came from. Unless that step reported what its
			// own agent's tool gave, or worked out a figure the step that
			// reached the correct value then computed with, and that
			// later step reached it: then this step dropped it.
			if p := ownOrigin(in, o, extract.NumberValues(put), had); p >= 0 {
				return []Finding{{Step: p, Strength: 0.7, Quote: quoteAt(in, p, 0, 0),
					Reason: fmt.Sprintf("%s, and its agent worked out from it %q, which step %d puts forward against the correct answer", ownFault(in, p), put, i)}}
			}
			return []Finding{{Step: o, Strength: 0.7, Quote: quoteClaim(in, o, put),
				Reason: fmt.Sprintf("it first states %q, which step %d later puts forward against the correct answer", put, i)}}
		}
		if d, _ := definerOf(in, i); d >= 0 {
			// A failed run another agent's code made printed the value:
			// the code gave it.
			strength := 0.7
			if had >= 0 {
				strength = 1
			}
			reason := fmt.Sprintf("its code gave %q, which the failed run at step %d printed against the correct answer", put, i)
			quote := causeQuote(in, d, i)
			if p := handedToCode(in, d); p >= 0 {
				reason = fmt.Sprintf("it handed the code of step %d a figure with which it gave %q, which the failed run at step %d printed against the correct answer", d, put, i)
				d, quote = p, quoteAt(in, p, 0, 0)
			}
			return []Finding{{Step: d, Strength: strength, Quote: quote, Reason: reason}}
		}
		if p := ownOrigin(in, i, extract.NumberValues(put), had); p >= 0 {
			// It worked the value out from its agent's own earlier steps:
			// the first of them to go wrong is where the answer began.
			strength := 0.7
			if had >= 0 {
				strength = 1
			}
			return []Finding{{Step: p, Strength: strength, Quote: quoteAt(in, p, 0, 0),
				Reason: fmt.Sprintf("%s, and its agent worked out from it %q, which step %d puts forward against the correct answer", ownFault(in, p), put, i)}}
		}
		if had >= 0 {
			return []Finding{{Step: i, Strength: 1, Quote: quoteClaim(in, i, put),
				Reason: fmt.Sprintf("it puts forward %q although step %d had already reached the correct value", put, had)}}
		}
		return []Finding{{Step: i, Strength: 0.7, Quote: quoteClaim(in, i, put),
			Reason: fmt.Sprintf("it is the first step to put forward an answer (%q) that contradicts the correct one", put)}}
	}
	if relay != nil {
		return []Finding{*relay}
	}
	return nil
}

// calledBefore reports whether the agent of step i called a tool before it.
func calledBefore(in *Input, i int) bool {
	for j := range i {
		if len(in.Features.Steps[j].Calls) > 0 && run.SameAgent(in.Run.Steps[j].Agent, in.Run.Steps[i].Agent) {
			return true
		}
	}
	return false
}

// figureClaim reports whether the answer's claim of normal form norm is
// a figure: a number, a date or a time.
func figureClaim(claims []extract.Claim, norm string) bool {
	return slices.ContainsFunc(claims, func(c extract.Claim) bool {
		return strings.EqualFold(c.Norm, norm) && (c.Kind == extract.ClaimNumber || c.Kind == extract.ClaimDate || c.Kind == extract.ClaimTime)
	})
}

// relays reports whether step i puts forward the value put as an earlier
// output of its own agent's tool calls states it: it reports what it
// found, with nothing of its own added.
func relays(in *Input, i int, put string) bool {
	v := newValue(put)
	return len(v.claims) > 0 && ownToolStates(in, i, v)
}

// ownToolStates reports whether one output, before step i, of the calls
// of step i's own agent states every one of the values.
func ownToolStates(in *Input, i int, vs ...value) bool {
	for j := range i {
		if in.Features.Steps[j].Has(extract.KindToolResult) && calledOutput(in, j) &&
			run.SameAgent(responsible(in, j), in.Run.Steps[i].Agent) &&
			!slices.ContainsFunc(vs, func(v value) bool { return !v.statedAt(in, j) }) {
			return true
		}
	}
	return false
}

// GroundTruthContradiction is the ground_truth_contradiction analyzer.
var GroundTruthContradiction = &Analyzer{Name: "ground_truth_contradiction", Run: unforced(groundTruthContradiction), Requires: []Fact{FactClaims, FactFinalAnswer, FactGroundTruth, FactKinds, FactToolCalls, FactSignals},
	Doc: "with the correct answer: the first step to put forward a different one, above all after some step had reached it"}

// looksUp reports whether a step calls tools that only read (a search, a
// lookup, a listing), and none that acts.
func looksUp(f *extract.Features) bool {
	return len(f.Calls) > 0 && !slices.ContainsFunc(f.Calls, extract.Call.Consequential)
}

// relaysBoth reports whether step i writes the correct value and the value
// put, both figures, as one earlier output of its own agent's tool calls
// states them: it passes on what it found, choosing neither.
func relaysBoth(in *Input, i int, put, want value) bool {
	return allFigures(want.claims) && allFigures(put.claims) && want.statedAt(in, i) && ownToolStates(in, i, want, put)
}

// statedFinal returns the text of the first claim of a step that is a value
// of the final answer, or "": the first the task did not give (given, by
// normal form), if there is one; of those, first one of a kind the correct
// answer states (a figure, where the correct answer is one). An answer
// names its subject too ("the Tower of Jesus Christ rises 175.2 metres"),
// and a step that restates the subject beside a value puts the value
// forward: where the correct answer is a figure, that is the step's
// figure of its kind, not the subject it names.
func statedFinal(claims []extract.Claim, final, given map[string]bool, kinds []extract.Claim) string {
	ofKind := func(c extract.Claim) bool {
		return slices.ContainsFunc(kinds, func(k extract.Claim) bool { return k.Kind == c.Kind })
	}
	for _, c := range claims {
		if final[c.Key()] && !given[c.Norm] && ofKind(c) {
			return c.Text
		}
	}
	if allFigures(kinds) {
		if k := slices.IndexFunc(claims, ofKind); k >= 0 && slices.ContainsFunc(claims, func(c extract.Claim) bool { return final[c.Key()] }) {
			return claims[k].Text
		}
	}
	first := ""
	for _, c := range claims {
		if !final[c.Key()] {
			continue
		}
		if !given[c.Norm] {
			return c.Text
		}
		if first == "" {
			first = c.Text
		}
	}
	return first
}

// allFigures reports whether a value's claims are all figures, dates or
// times of day (and there are some).
func allFigures(claims []extract.Claim) bool {
	return len(claims) > 0 && !slices.ContainsFunc(claims, func(c extract.Claim) bool {
		return c.Kind != extract.ClaimNumber && c.Kind != extract.ClaimDate && c.Kind != extract.ClaimTime
	})
}

// firstStated returns the earliest agent decision before i that states the
// value put (all of its claims) without the correct one beside it, or -1:
// the step a later one repeats. A step that reports both still had valid
// data, and one that names what the task names (a search for its subject)
// repeats the task.
func firstStated(in *Input, put string, i int, want value) int {
	v := newValue(put)
	if len(v.claims) == 0 || allGiven(in, v.claims) {
		return -1 // the task stated it first: a step restating it hands on nothing
	}
	for j := range i {
		if isAgentDecision(in, j) && !in.Features.Steps[j].Has(extract.KindToolResult) && !proposes(&in.Features.Steps[j]) &&
			v.statedAt(in, j) && !want.statedAt(in, j) {
			return j
		}
	}
	return -1
}

// taskFigures returns the numbers the task states other than as numbers:
// in words, and as the year, month and day of the dates it states. A step
// that writes such a number in digits restates the task's figure; it
// hands on nothing of its own.
func taskFigures(in *Input) map[float64]bool {
	out := map[float64]bool{}
	for _, x := range in.Features.QuestionWordNumbers {
		out[x] = true
	}
	for _, c := range in.Features.Question {
		if c.Kind != extract.ClaimDate {
			continue
		}
		for part := range strings.SplitSeq(c.Norm, "-") {
			if n, err := strconv.Atoi(part); err == nil {
				out[float64(n)] = true
			}
		}
	}
	return out
}

// allDigits reports whether s is ASCII digits, and not empty.
func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// allGiven reports whether the task or the user's turns state every one of
// claims.
func allGiven(in *Input, claims []extract.Claim) bool {
	g := givenClaims(in)
	return !slices.ContainsFunc(claims, func(c extract.Claim) bool { return !g[c.Norm] })
}

// actedOnFiles are the files, as PathNorm has them, that the run's calls
// name (a command line's, an editor's): what the work acts on, not a
// value an answer that names one of them worked out. A coding agent's
// closing summary names the files it changed and the tests it ran.
func actedOnFiles(in *Input) map[string]bool {
	out := map[string]bool{}
	for i := range in.Features.Steps {
		for _, c := range in.Features.Steps[i].Calls {
			for _, f := range c.Files() {
				out[f] = true
			}
		}
	}
	return out
}

// answerCode is, when the final answer states a function's result as a
// call ("can_register(18) returns False"), the agent step that wrote the
// code the call ran, and the function: the latest earlier definition of
// the first of the call's functions that a step defines (len of
// len(attention(SAMPLE)) is no one's), traced to a step that showed the
// same code before (copiedFrom, sameCode). It returns -1 otherwise,
// when the code was given with the task, and when a later call threw the
// code away (thrownAway) or the calls that wrote it failed
// (neverWritten): the run ended without it.
func answerCode(in *Input) (int, string) {
	fa := in.Features.FinalAnswer
	if fa == nil {
		return -1, ""
	}
	for _, fn := range fa.Calls {
		for k := min(fa.Step, len(in.Features.Steps)) - 1; k >= 0; k-- {
			if !slices.Contains(in.Features.Steps[k].Defines, fn) {
				continue
			}
			if thrownAway(in, k, fa.Step) || neverWritten(in, k, fa.Step) {
				return -1, ""
			}
			if c := copiedFrom(in, k, fn); sameCode(in, c, k) {
				k = c // code shown again as it was, not a rewrite around it
			}
			if isAgentDecision(in, k) && !in.Features.Steps[k].Has(extract.KindToolResult) && !given(in, k) {
				return k, fn
			}
			return -1, ""
		}
	}
	return -1, ""
}

// neverWritten reports whether every output before end that answers
// for step k's calls reports the call failed (an editor's refused
// replacement): the code step k wrote never reached its file.
func neverWritten(in *Input, k, end int) bool {
	outputs := 0
	for m := k + 1; m < min(end, len(in.Features.Steps)); m++ {
		if callerOf(in, m) != k {
			continue
		}
		if !failedOutput(&in.Features.Steps[m]) {
			return false
		}
		outputs++
	}
	return outputs > 0
}

// thrownAway reports whether a call of a step after k and before end
// discards every file the calls of step k changed (extract's
// Call.Discards: git checkout -- ., git restore of each): the code step
// k wrote is not what the run ended with.
func thrownAway(in *Input, k, end int) bool {
	steps := in.Features.Steps
	var files []string
	for _, c := range steps[k].Calls {
		files = append(files, changedFiles(c)...)
	}
	if len(files) == 0 {
		return false
	}
	for j := k + 1; j < min(end, len(steps)); j++ {
		for _, c := range steps[j].Calls {
			if d := c.Discards(); len(d) > 0 && coversAll(d, files) {
				return true
			}
		}
	}
	return false
}

// codeCause is, for a final answer that states a function's result as a
// call, where the value went wrong, and why: the code that gave it
// (answerCode), or a step of another agent that handed that code a
// figure (handedToCode), a step that asked for the figure or the value a
// rewrite of it gives (demandedInRewrite), or one that spelt out the
// logic it follows (handedLogic). The value is what the code returns,
// whichever step printed it first. It returns -1 when the answer states
// no result of a function a step defined.
func codeCause(in *Input) (int, string) {
	d, fn := answerCode(in)
	if d < 0 {
		return constCause(in)
	}
	answer := in.Features.FinalAnswer.Step
	if p := handedToCode(in, d); p >= 0 {
		return p, fmt.Sprintf("it handed the code of %s at step %d a figure with which it gave the result step %d answers with", fn, d, answer)
	}
	if p := demandedInRewrite(in, d, fn); p >= 0 {
		return p, fmt.Sprintf("it asked for what the code of %s was rewritten to at step %d, which gave the result step %d answers with", fn, d, answer)
	}
	if p := handedLogic(in, d, fn); p >= 0 {
		return p, fmt.Sprintf("it spelt out the logic the code of %s at step %d follows, which gave the result step %d answers with", fn, d, answer)
	}
	if p, req := droppedBy(in); p >= 0 && p < d && len(in.supportIndex().text.Logic(d, fn)) == 0 {
		// Code with no condition of its own did what the work laid out:
		// the plan left out what the task requires, and no step after it
		// took that up. Code that writes a condition chose it.
		return p, fmt.Sprintf("it lays out the work without the task's requirement %q, and the code of %s at step %d, written under it, gave the result step %d answers with", req.Text, fn, d, answer)
	}
	return d, fmt.Sprintf("its code of %s gave the result step %d answers with", fn, answer)
}

// taskDataFindings is taskDataCause as a finding, or nil.
func taskDataFindings(in *Input) []Finding {
	d, why := taskDataCause(in)
	if d < 0 {
		return nil
	}
	return []Finding{{Step: d, Strength: 0.7, Quote: quoteAt(in, d, 0, 0), Reason: why}}
}

// taskDataCause is, for a final answer that states only values the task
// gave (its data restated, one of its names chosen: "For ana=31.2,
// ben=28.9, cy=35.0 the first player is cy") and names no function or
// constant, the code that worked the answer out from that data: the
// latest step before the answer that defines functions and asserts
// nothing (the team's code, not its tests), or the step of another agent
// that spelt out the logic it follows (handedLogic). No value carries
// such a fault to the answer; the code that chose among the task's
// values did. It returns -1 when the answer states a value of its own,
// or no step wrote such code.
func taskDataCause(in *Input) (int, string) {
	fa := in.Features.FinalAnswer
	if fa == nil || len(fa.Calls) > 0 || fa.Const != "" || len(fa.Claims) < 2 || !allGiven(in, fa.Claims) {
		return -1, ""
	}
	if p, _ := droppedFrom(in, true); p >= 0 {
		return -1, "" // the work was laid out without a requirement: the plan's, as droppedBy reads it
	}
	for d := min(fa.Step, len(in.Features.Steps)) - 1; d >= 0; d-- {
		f := &in.Features.Steps[d]
		if len(f.Defines) == 0 || len(f.Asserts) > 0 || !isAgentDecision(in, d) || f.Has(extract.KindToolResult) || given(in, d) {
			continue
		}
		if !slices.ContainsFunc(f.Defines, func(fn string) bool { return namedBefore(in, d, fn) }) {
			return -1, "" // code of its own making, not the function the work laid out
		}
		for _, fn := range f.Defines {
			if p := handedLogic(in, d, fn); p >= 0 {
				return p, fmt.Sprintf("it spelt out the logic the code of %s at step %d follows, which worked out from the task's data the answer step %d gives", fn, d, fa.Step)
			}
		}
		return d, fmt.Sprintf("its code worked out from the task's data the answer step %d gives", fa.Step)
	}
	return -1, ""
}

// namedBefore reports whether the task, or a step of another agent than
// step d's before it, writes the name fn: a function the task or a
// design laid out, which step d's code then defines.
func namedBefore(in *Input, d int, fn string) bool {
	sup := in.supportIndex()
	v := strings.ToLower(fn)
	if sup.text.Holds(-1, v) {
		return true
	}
	for k := range d {
		if !run.SameAgent(in.Run.Steps[k].Agent, in.Run.Steps[d].Agent) && !in.Features.Steps[k].Has(extract.KindToolResult) && sup.text.Holds(k, v) {
			return true
		}
	}
	return false
}

// constCause is, for a final answer that states a named constant's value
// ("MAX_RETRIES is 3"), where the constant got it, and why: the first
// agent step that gave the constant that value (a design's "MAX_RETRIES
// = 3", a review's "MAX_RETRIES should be 3"), or, before it, a step of
// another agent that first counted a thing the task counts with that
// value instead of the task's (recounted: "retry up to 3 times" where the
// task says 5). Whoever coded the constant later coded what was handed
// on. It returns -1 when the answer states no constant, the task or a
// user writes the value, a tool's output (the code a read showed) gave
// the constant that value before any agent step, or no agent step gave
// it.
func constCause(in *Input) (int, string) {
	fa := in.Features.FinalAnswer
	if fa == nil || fa.Const == "" || fa.ConstValue == "" {
		return -1, ""
	}
	sup := in.supportIndex()
	name, v := strings.ToLower(fa.Const), strings.ToLower(fa.ConstValue)
	// The task's own value is no fault, unless the correct answer says
	// otherwise: a figure the task gives in another unit (10 minutes as
	// CACHE_TTL_SECONDS = 10).
	wrong := in.Run.GroundTruth != ""
	if !wrong && sup.text.Holds(-1, v) {
		return -1, ""
	}
	first := -1
	for k := range min(fa.Step, len(in.Features.Steps)) {
		if !wrong && given(in, k) && sup.text.Holds(k, v) {
			return -1, ""
		}
		if first < 0 && in.Features.Steps[k].Has(extract.KindToolResult) && sup.text.Sets(k, name, v) {
			return -1, "" // the code a tool read gave it; a step that restates it gave nothing
		}
		if first < 0 && isAgentDecision(in, k) && !in.Features.Steps[k].Has(extract.KindToolResult) && !given(in, k) && sup.text.Sets(k, name, v) {
			first = k
		}
	}
	if first < 0 {
		return -1, ""
	}
	if p := recounted(in, first, v); p >= 0 {
		return p, fmt.Sprintf("it counts what the task counts with %s, which step %d then gave %s, the value step %d answers with", fa.ConstValue, first, fa.Const, fa.Step)
	}
	return first, fmt.Sprintf("it first gives %s the value %s, which step %d answers with", fa.Const, fa.ConstValue, fa.Step)
}

// recounted is the earliest agent step before step d, of another agent
// than d's, that states a count of v (a whole number) of a thing the
// task or a user counts with another value ("3 times" where the task
// says "5 times"), or -1.
func recounted(in *Input, d int, v string) int {
	n, err := strconv.Atoi(v)
	if err != nil {
		return -1
	}
	taskNouns := map[string]bool{}
	for k := range d {
		if given(in, k) {
			for _, c := range in.Features.Steps[k].Counts {
				if c.Value != n {
					taskNouns[c.Noun] = true
				}
			}
		}
	}
	for p := range d {
		f := &in.Features.Steps[p]
		if !isAgentDecision(in, p) || f.Has(extract.KindToolResult) || given(in, p) || run.SameAgent(in.Run.Steps[p].Agent, in.Run.Steps[d].Agent) {
			continue
		}
		if slices.ContainsFunc(f.Counts, func(c extract.Count) bool { return c.Value == n && taskNouns[c.Noun] }) {
			return p
		}
	}
	return -1
}

// handedLogic is, for a step whose code defines fn, the earliest step of
// another agent that wrote word for word a line of logic the definition
// holds (a comparison, a condition joining two, a flag given to a call:
// "age > MIN_AGE", "t.overdue and t.urgent", "reverse=True"): a design or
// a task list that spelt out the logic the engineer then coded as
// handed. It returns -1 when none did, or when the task wrote it.
func handedLogic(in *Input, d int, fn string) int {
	sup := in.supportIndex()
	var exprs []string
	for _, e := range sup.text.Logic(d, fn) {
		if !sup.text.WritesLogic(-1, e) {
			exprs = append(exprs, e)
		}
	}
	if len(exprs) == 0 {
		return -1
	}
	for k := range min(d, len(in.Features.Steps)) {
		if !isAgentDecision(in, k) || in.Features.Steps[k].Has(extract.KindToolResult) || given(in, k) || run.SameAgent(in.Run.Steps[k].Agent, in.Run.Steps[d].Agent) {
			continue
		}
		if slices.ContainsFunc(exprs, func(e string) bool { return sup.text.WritesLogic(k, e) }) {
			return k
		}
	}
	return -1
}

// sameCode reports whether steps a and b write the same code, their
// blocks' runs of space squashed: a step that shows another's code again
// wrote none of it, where a rewrite that keeps a function but changes a
// constant beside it wrote the code that ran.
func sameCode(in *Input, a, b int) bool {
	return a == b || extract.Squash(strings.Join(in.Features.Steps[a].Code, "\n")) == extract.Squash(strings.Join(in.Features.Steps[b].Code, "\n"))
}

// demandedInRewrite is, for a step whose code rewrites a function an
// earlier step defined otherwise, the first step between the two that
// asked for what the rewrite gives: stated a figure the rewrite holds and
// the earlier version did not (a review's "use 0.16 not 0.19"), or a test
// that asserts the function returns the value the final answer states. Whoever
// wrote the rewrite (in a team, often the same agent as the review) did
// what was asked; the demand is the decision. It returns -1 when the
// function was not defined before, or nothing between asked for the
// change.
func demandedInRewrite(in *Input, d int, fn string) int {
	prev := -1
	for k := d - 1; k >= 0; k-- {
		if slices.Contains(in.Features.Steps[k].Defines, fn) {
			prev = k
			break
		}
	}
	if prev < 0 || sameCode(in, prev, d) {
		return -1
	}
	old := map[string]bool{}
	for _, c := range in.Features.Steps[prev].Claims {
		old[c.Key()] = true
	}
	var fresh []extract.Claim
	for _, c := range in.Features.Steps[d].Claims {
		if c.Kind == extract.ClaimNumber && !old[c.Key()] {
			fresh = append(fresh, c)
		}
	}
	answer := in.Features.FinalAnswer.Claims
	consts, cmps := rewritten(in, prev, d, fn)
	for r := prev + 1; r < d; r++ {
		f := &in.Features.Steps[r]
		if !isAgentDecision(in, r) || f.Has(extract.KindToolResult) {
			continue
		}
		if slices.ContainsFunc(fresh, func(c extract.Claim) bool { return slices.ContainsFunc(f.Claims, c.SameKey) }) {
			return r
		}
		for _, a := range f.Asserts {
			if a.Func == fn && slices.ContainsFunc(extract.Claims(a.Value), func(c extract.Claim) bool { return slices.ContainsFunc(answer, c.SameKey) }) {
				return r
			}
		}
		if asksFor(in, r, consts, cmps) {
			return r
		}
	}
	return -1
}

// rewritten returns what the rewrite of fn at step d sets otherwise than
// its earlier version at step prev: the constants it gives new values
// (however small: MIN_LENGTH = 6 where it was 8), and the comparisons
// of its logic the earlier version did not hold (age > senior_age where
// it was age >= senior_age).
func rewritten(in *Input, prev, d int, fn string) (consts map[string]string, cmps []string) {
	text := in.supportIndex().text
	old := text.Assigns(prev)
	consts = map[string]string{}
	for name, v := range text.Assigns(d) {
		if was, ok := old[name]; ok && was != v {
			consts[name] = v
		}
	}
	var before []string
	for _, e := range text.Logic(prev, fn) {
		before = append(before, extract.Comparisons(e)...)
	}
	for _, e := range text.Logic(d, fn) {
		for _, c := range extract.Comparisons(e) {
			if !slices.Contains(before, c) {
				cmps = append(cmps, c)
			}
		}
	}
	return consts, cmps
}

// asksFor reports whether step r writes one of the constants a rewrite
// set, with its new value, as what it should be, or one of the new
// comparisons word for word: a review that asked for the change.
func asksFor(in *Input, r int, consts map[string]string, cmps []string) bool {
	text := in.supportIndex().text
	for name, v := range consts {
		if text.Sets(r, name, v) {
			return true
		}
	}
	return slices.ContainsFunc(cmps, func(c string) bool { return text.WritesLogic(r, c) })
}

// ownOrigin is, for an agent's step o that works figures out in prose
// (extract's Computes) and states a value of the answer among them (one
// of vals: "336 + 24 = 360", or "639 / 13 = 49.15, so about 49"), the
// step of the computation behind it, all its own agent's, that shows
// where the computation went wrong: the first whose arithmetic does not
// come to what it writes (Miscomputes: a slip is seen, where a figure
// stated may be what the agent knows), or else the first that states an
// operand the computation used which neither the task (as a number, in
// words, in a date or as the percentage a factor is), a unit's factor, a
// tool nor another agent gave, and which it did not work out itself
// (Computes, derivedThere): a quantity misread from the task ("12
// classrooms" for its 15), a conversion done wrong in words ("2 hours 45
// minutes = 2.45 hours"). An operand the agent worked out at an earlier
// step is followed back to that step's operands in turn. A single agent
// reasoning step by step hands nothing to another, so this is where its
// wrong answer began, as handedOperand finds the figure another agent
// handed it.
//
// Only steps after the step after count: the one that reached the
// correct value, or -1. Once the correct value was reached, a
// computation that shows no fault still left it at its first step after
// that one (a critique that "corrects" a right rate, which the revision
// then divides by): that step is returned. It returns -1 when o worked
// out none of vals, when o's own arithmetic slips, or when nothing in
// the computation shows a fault before o.
func ownOrigin(in *Input, o int, vals []string, after int) int {
	if o < 0 || !isAgentDecision(in, o) {
		return -1
	}
	f := &in.Features.Steps[o]
	if f.Has(extract.KindToolResult) || len(f.Code) > 0 || len(f.Computes) == 0 || !slices.ContainsFunc(vals, func(v string) bool {
		return slices.ContainsFunc(f.Claims, func(c extract.Claim) bool { w, _ := c.Value(); return c.Kind == extract.ClaimNumber && w == v })
	}) {
		return -1
	}
	numbers := in.supportIndex().numberIndex()
	// The first step that slips in its arithmetic (o among them), the
	// first that states a figure of its own, and the first of the
	// computation.
	slip, stated, left := -1, -1, -1
	earlier := func(s, than int) bool { return s > after && s < o && (than < 0 || s < than) }
	seen := map[int]bool{}
	var walk func(s int)
	walk = func(s int) {
		if seen[s] {
			return
		}
		seen[s] = true
		if earlier(s, left) {
			left = s
		}
		g := &in.Features.Steps[s]
		if g.Miscomputes && s > after && (slip < 0 || s < slip) {
			slip = s
		}
		for fig := range operands(in, s) {
			if slices.Contains(g.Computes, fig.val) {
				continue
			}
			first := firstNumberAt(numbers, fig.val, fig.x)
			if first == noStep || first < 0 || first > s {
				continue
			}
			p := &in.Features.Steps[first]
			if !isAgentDecision(in, first) || p.Has(extract.KindToolResult) || p.Has(extract.KindTask) || len(p.Code) > 0 ||
				!run.SameAgent(in.Run.Steps[first].Agent, in.Run.Steps[o].Agent) {
				continue // the task's, a tool's or another agent's figure
			}
			if slices.Contains(p.Computes, fig.val) {
				walk(first)
				continue
			}
			if earlier(first, left) {
				left = first
			}
			if !derivedThere(in, first, fig.val) && earlier(first, stated) {
				stated = first
			}
		}
	}
	walk(o)
	switch {
	case slip == o:
		return -1 // o's own arithmetic is what is wrong
	case slip >= 0:
		return slip
	case stated >= 0:
		return stated
	case after >= 0:
		return left
	}
	return -1
}

// slipUnder is, for an agent's step o that states a value of the answer,
// the first slip p of the run (firstSlip: arithmetic or a fact of the
// calendar the step gets wrong, no later step calls wrong) when it came
// before o from the same agent, and only that agent and the person who
// gave the task spoke in between: no tool, no code, no other agent. One
// solver reasons on from what it wrote, so what it states after an
// uncorrected slip rests on it (a date counted from February given 29
// days), whether or not the value shows the slip's arithmetic. It
// returns -1 otherwise.
func slipUnder(in *Input, o, p int) int {
	if o < 0 || !isAgentDecision(in, o) || in.Features.Steps[o].Has(extract.KindToolResult) || len(in.Features.Steps[o].Code) > 0 {
		return -1
	}
	if p < 0 || p >= o || !run.SameAgent(in.Run.Steps[p].Agent, in.Run.Steps[o].Agent) {
		return -1
	}
	for k := p + 1; k < o; k++ {
		f := &in.Features.Steps[k]
		if f.Has(extract.KindToolResult) || len(f.Code) > 0 || len(f.Calls) > 0 ||
			!f.Has(extract.KindTask) && !run.SameAgent(in.Run.Steps[k].Agent, in.Run.Steps[o].Agent) {
			return -1
		}
	}
	return p
}

// ownFault says how ownOrigin's step o went wrong.
func ownFault(in *Input, o int) string {
	if in.Features.Steps[o].Miscomputes {
		return "what it writes is contradicted by its arithmetic or by the calendar"
	}
	return "it states a figure that neither the task nor an earlier step gave"
}

// onTheWay reports whether the numbers of put are figures the step had,
// which reached the correct value, worked it out from: operands of its
// arithmetic ("Cost = 22.1 × €1.80 = €39.78" for the litres 22.1), on the
// way to the correct value rather than against it.
func onTheWay(in *Input, had int, put string) bool {
	f := &in.Features.Steps[had]
	vals := extract.NumberValues(put)
	if len(f.Computes) == 0 || len(vals) == 0 {
		return false
	}
	return !slices.ContainsFunc(vals, func(v string) bool {
		return slices.Contains(f.Computes, v) || !slices.ContainsFunc(f.Claims, func(c extract.Claim) bool {
			w, _ := c.Value()
			return c.Kind == extract.ClaimNumber && w == v
		})
	})
}

// rechecks reports whether step i works the number val out again (a
// check of a figure: "3.4 × 6.5 = 22.1") without putting it forward as an
// answer.
func rechecks(in *Input, i int, val string) bool {
	return slices.Contains(in.Features.Steps[i].Computes, val) && !answers(in, i)
}

// answers reports whether step i puts an answer forward: extract reads
// one in it, or it states the run's final answer.
func answers(in *Input, i int) bool {
	return in.Features.Steps[i].Answer != "" || in.Features.FinalAnswer != nil && in.Features.FinalAnswer.Step == i
}

// operands yields the numbers step o states that are not a figure of the
// task written another way (in words, in a date), as ownFigures does,
// nor a unit's factor; but a unit's number that is of the kind of a
// figure the task gives with another value (altersTask), in a step that
// writes no figure with its unit, is yielded: "12 × 28 = 336" beside a
// task's 15 classrooms converts nothing, and its 12 is a count like the
// others, where "1.633 × 60 ≈ 98 minutes" converts hours.
func operands(in *Input, o int) iter.Seq[figure] {
	f := &in.Features.Steps[o]
	units := slices.ContainsFunc(f.Claims, func(c extract.Claim) bool {
		_, u := c.Value()
		return c.Kind == extract.ClaimNumber && u != "" && u != "%"
	})
	return func(yield func(figure) bool) {
		for fig := range figures(in, o, false) {
			if unitFactor(in, fig.x, o) && (units || !altersTask(in, fig.claim)) {
				continue
			}
			if !yield(fig) {
				return
			}
		}
	}
}

// clipLine clips a line quoted in a reason to sixty bytes.
func clipLine(l string) string {
	if len(l) <= 60 {
		return l
	}
	return strings.ToValidUTF8(l[:60], "") + "…"
}

// formEntry returns, for a step c whose calls are actions on a page that
// give no value (a click on a form's button), the first of the steps of
// its agent right before it whose actions on the page enter values (a
// field typed into, an option selected),
// back to the last one that gives none, that entered a value neither the
// task nor a step before it holds or picked an option past the one the
// task names (extract's PassedOver): what the submitted form held, and
// so what the page it brought shows, was decided there. -1 when there
// is none.
func formEntry(in *Input, c int) int {
	f := &in.Features.Steps[c]
	if len(f.Calls) == 0 || slices.ContainsFunc(f.Calls, func(x extract.Call) bool { return !x.OnPage || len(x.Values) > 0 }) {
		return -1
	}
	sup := in.supportIndex()
	me := run.AgentKey(in.Run.Steps[c].Agent)
	found := -1
	for k := c - 1; k >= 0; k-- {
		g := &in.Features.Steps[k]
		if len(g.Calls) == 0 || sup.key(k) != me {
			continue
		}
		if !slices.ContainsFunc(g.Calls, func(x extract.Call) bool { return x.OnPage && len(x.Values) > 0 }) {
			break
		}
		made := slices.ContainsFunc(g.Calls, func(x extract.Call) bool {
			return slices.ContainsFunc(x.Values, func(v string) bool { return meaningful(v) && !sup.before(v, k, from{}) })
		})
		if made || g.PassedOver != nil {
			found = k
		}
	}
	return found
}

// changeText writes a change as a reason quotes it: "a fall of 17%",
// "a move from 41% to 20%".
func changeText(c extract.Change) string {
	if c.From != "" {
		return fmt.Sprintf("a move from %s to %s", c.From, c.To)
	}
	if c.Up {
		return "a rise of " + c.Figure
	}
	return "a fall of " + c.Figure
}

// sameFloat reports whether a and b are equal but for floating point's
// rounding: within a billionth of the larger.
func sameFloat(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}
