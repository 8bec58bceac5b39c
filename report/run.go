package report

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/triage"
)

// RunOptions say what a run page shows beyond the engine's result.
type RunOptions struct {
	// File names the run as the user gave it; shown, never linked.
	File string
	// Triage is the band the answer falls in, with the reason for it; when
	// empty, the band the attribution carries.
	Triage triage.Decision
	// Redacted says the run was masked before analysis; the page says so,
	// and says so too when it was not.
	Redacted bool
	// Back, when set, is a relative link to the page listing this run (a
	// screen page); the run page links back to it.
	Back string
	// SpanLink, when set, turns a step's trace and span ids into a link to
	// the user's trace viewer ("" for no link). The ids come from the log:
	// it must escape them; the page only accepts an http or https link.
	SpanLink func(traceID, spanID string) string
}

// Ranked is how many of the top candidates the timeline marks with their
// rank: enough to see the runners-up, few enough to stay a signal.
const Ranked = 5

// Long texts are collapsed behind their first previewRunes characters:
// above longRunes characters or longLines lines a step no longer fits a
// glance.
const (
	longRunes    = 1200
	longLines    = 24
	previewRunes = 320
)

// ErrNoAnalysis is returned for a result that carries no analysed input
// (a baseline's): there is no timeline to show.
var ErrNoAnalysis = errors.New("the result carries no analysed run")

// WriteRun writes the page of one analysed run.
func WriteRun(w io.Writer, res engine.Result, opts RunOptions) error {
	p, err := buildRun(res, opts)
	if err != nil {
		return err
	}
	return execute(w, "run", p)
}

// runPage is everything the run template shows, already cleaned: the
// template only places and escapes.
type runPage struct {
	page
	File        string
	Question    string
	GroundTruth string
	Redacted    bool
	Back        string

	Answer     answerView
	Candidates []candidateView
	Unranked   int // candidates left out: no rule or vote behind them
	Votes      []voteView
	Usage      rules.Usage
	Agents     []agentView
	Kinds      []string
	Trials     []trialView
	Loops      []loopView
	Flows      []flowView
	Graph      svgGraph
	Steps      int
	Findings   int
}

type answerView struct {
	Agent, Class string
	Step         int
	Known        bool // a step was blamed at all
	Confidence   string
	Mode         string
	Triage       string
	TriageReason string
	Rationale    string
	Evidence     []findingView
}

type candidateView struct {
	Rank        int
	Step        int
	Agent       string
	Class       string
	Score       string
	Rules       string
	Votes       int
	Blamed      bool
	StepInRange bool
}

type voteView struct {
	Analyst     string
	Step        int
	StepInRange bool
	Confidence  string
	Reason      string
}

type agentView struct {
	Name  string
	Class string
	Steps int
}

type trialView struct {
	Index      int
	Start, End int
	Plan       int // -1 when the trial has no plan step
	Steps      []stepView
}

type loopView struct {
	N        int
	Trial    int
	Steps    []int
	Planner  []int
	Executor []int
}

type flowView struct {
	Claim  string
	Path   []int // answer first, origin last
	Origin int   // -1: the question states it
}

type stepView struct {
	Index    int
	Agent    string
	Class    string
	Kind     string // extract's main kind
	Kinds    string // every kind extract found, for the reader
	Target   string
	Text     string
	Preview  string // non-empty when the text is collapsed
	More     int    // characters hidden behind the preview
	Open     bool
	Blamed   bool
	Rank     int // 1-based rank among the top candidates; 0 for none
	Answer   bool
	Origin   bool
	Loop     int // 1-based loop group; 0 for none
	LoopRole string
	TraceID  string
	SpanID   string
	SpanURL  string // the span in the user's trace viewer, when asked for
	Calls    []callView
	Findings []findingView
	Votes    []voteView
}

type callView struct {
	Name      string
	Arguments string
}

type findingView struct {
	Rule     string
	Doc      string // the rule's one-line doc, shown on hover
	Step     int
	Score    string
	Positive bool
	Reason   string
	Quote    string
	// QuoteStep is the step the quote was taken from when it is not Step;
	// -1 when it is Step's own text.
	QuoteStep int
}

// newFindingView is the view of a rule's finding about step.
func newFindingView(rule string, step int, quote string, quoteStep *int) findingView {
	fv := findingView{Rule: clean(rule), Step: step, Quote: clean(quote), QuoteStep: -1}
	if a, ok := rules.Lookup(rule); ok {
		fv.Doc = clean(a.Doc)
	}
	if quoteStep != nil && *quoteStep != step {
		fv.QuoteStep = *quoteStep
	}
	return fv
}

func buildRun(res engine.Result, opts RunOptions) (*runPage, error) {
	in := res.Input
	if in == nil || in.Run == nil || in.Features == nil || in.Graph == nil {
		return nil, ErrNoAnalysis
	}
	r, g, a := in.Run, in.Graph, res.Attribution
	n := len(r.Steps)
	inRange := func(i int) bool { return i >= 0 && i < n }

	agents := newAgentSet()
	for _, s := range r.Steps {
		agents.add(s.Agent)
	}
	p := &runPage{
		File:        clean(opts.File),
		Question:    clean(r.Question),
		GroundTruth: clean(r.GroundTruth),
		Redacted:    opts.Redacted,
		Back:        opts.Back,
		Usage:       a.Usage,
		Steps:       n,
		Findings:    len(res.Findings),
	}
	p.Title = "offattr: " + p.File

	if opts.Triage.Class == "" {
		opts.Triage = triage.Decision{Class: triage.Class(a.Triage), Reason: a.TriageReason}
	}
	blamed := -1
	if a.Agent != "" && inRange(a.Step) {
		blamed = a.Step
	}
	p.Answer = answerView{
		Agent: clean(a.Agent), Class: agents.class(a.Agent), Step: a.Step, Known: blamed >= 0,
		Confidence: decimal(a.Confidence), Mode: clean(a.Mode),
		Triage: clean(string(opts.Triage.Class)), TriageReason: clean(opts.Triage.Reason),
		Rationale: clean(a.Rationale),
	}

	steps := make([]stepView, n)
	for i, s := range r.Steps {
		f := &in.Features.Steps[i]
		sv := stepView{
			Index: i, Agent: clean(s.Agent), Class: agents.class(s.Agent),
			Kind: f.Kind.String(), Kinds: kindList(f.Kinds.List()), Target: clean(s.Target()),
			TraceID: clean(s.TraceID()), SpanID: clean(s.SpanID()), SpanURL: spanLink(opts.SpanLink, s.TraceID(), s.SpanID()), Blamed: i == blamed,
		}
		if sv.Kind == "" {
			sv.Kind = string(s.Kind)
		}
		sv.Text = clean(s.Content)
		sv.Preview, sv.More = collapse(sv.Text)
		for _, c := range s.ToolCalls() {
			sv.Calls = append(sv.Calls, callView{Name: clean(c.Name), Arguments: clean(c.Arguments)})
		}
		steps[i] = sv
	}
	if blamed >= 0 {
		steps[blamed].Open = true
	}

	for k, c := range a.Candidates {
		// Steps no rule or analyst spoke about are in the list only to be
		// ranked (their score is the standing every step has): the page
		// leaves them out, as analyze does.
		if k > 0 && len(c.Rules) == 0 && c.Votes == 0 {
			p.Unranked++
			continue
		}
		cv := candidateView{Rank: k + 1, Step: c.Step, Agent: clean(c.Agent), Class: agents.class(c.Agent),
			Score: strconv.FormatFloat(c.Score, 'f', 2, 64), Rules: clean(strings.Join(c.Rules, ", ")), Votes: c.Votes,
			Blamed: c.Step == blamed, StepInRange: inRange(c.Step)}
		p.Candidates = append(p.Candidates, cv)
		if k < Ranked && cv.StepInRange {
			steps[c.Step].Rank = k + 1
		}
	}
	for _, e := range a.Evidence {
		fv := newFindingView(e.Rule, e.Step, e.Quote, e.QuoteStep)
		fv.Positive = true
		p.Answer.Evidence = append(p.Answer.Evidence, fv)
	}
	for _, f := range res.Findings {
		fv := newFindingView(f.Rule, f.Step, f.Quote, f.QuoteStep)
		fv.Score, fv.Positive, fv.Reason = signed(f.Strength), f.Strength > 0, clean(f.Reason)
		if inRange(f.Step) {
			steps[f.Step].Findings = append(steps[f.Step].Findings, fv)
		}
	}
	for _, v := range a.Votes {
		vv := voteView{Analyst: clean(v.Analyst), Step: v.Step, StepInRange: inRange(v.Step),
			Confidence: decimal(v.Confidence), Reason: clean(v.Reason)}
		p.Votes = append(p.Votes, vv)
		if vv.StepInRange {
			steps[v.Step].Votes = append(steps[v.Step].Votes, vv)
		}
	}

	if ans := g.AnswerStep(); inRange(ans) {
		steps[ans].Answer = true
	}
	for _, cf := range g.AnswerFlow() {
		p.Flows = append(p.Flows, flowView{Claim: clean(cf.Text), Path: cf.Path, Origin: cf.Origin})
		if inRange(cf.Origin) {
			steps[cf.Origin].Origin = true
		}
	}

	for k, lg := range g.LoopGroups() {
		p.Loops = append(p.Loops, loopView{N: k + 1, Trial: lg.Trial, Steps: lg.Steps, Planner: lg.Planner, Executor: lg.Executor})
		mark := func(idx []int, role string) {
			for _, i := range idx {
				if inRange(i) && steps[i].Loop == 0 {
					steps[i].Loop, steps[i].LoopRole = k+1, role
				}
			}
		}
		mark(lg.Planner, "planner")
		mark(lg.Executor, "executor")
		mark(lg.Steps, "")
	}

	for _, t := range g.Trials() {
		tv := trialView{Index: t.Index, Start: t.Start, End: t.End, Plan: t.Plan}
		for i := t.Start; i <= t.End && i < n; i++ {
			tv.Steps = append(tv.Steps, steps[i])
		}
		p.Trials = append(p.Trials, tv)
	}

	counts := make([]int, len(agents.names))
	kinds := map[string]bool{}
	for _, s := range r.Steps {
		counts[agents.add(s.Agent)]++
	}
	for _, s := range steps {
		kinds[s.Kind] = true
	}
	for i, name := range agents.names {
		p.Agents = append(p.Agents, agentView{Name: clean(name), Class: fmt.Sprintf("ag%d", i), Steps: counts[i]})
	}
	for k := range kinds {
		p.Kinds = append(p.Kinds, k)
	}
	sort.Strings(p.Kinds)

	p.Graph = layoutGraph(g, r, agents, blamed, a.Candidates)
	p.page = newPage(p.Title, agents.css())
	return p, nil
}

// collapse returns, for a long text, the preview that stands for it while
// it is collapsed (its first lines, cut short) and how many characters the
// preview leaves out; "" for a text short enough to show whole.
func collapse(text string) (preview string, more int) {
	total := utf8.RuneCountInString(text)
	if total <= longRunes && strings.Count(text, "\n") < longLines {
		return "", 0
	}
	head := text
	if lines := strings.SplitN(text, "\n", 9); len(lines) == 9 {
		head = strings.Join(lines[:8], "\n")
	}
	head = strings.TrimSuffix(excerpt(head, previewRunes), "…")
	return head + " …", total - utf8.RuneCountInString(head)
}

func kindList[T fmt.Stringer](ks []T) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = k.String()
	}
	return strings.Join(s, ", ")
}

// decimal prints a confidence with up to three decimals, as triage's
// reasons do, so that the two never seem to disagree.
func decimal(x float64) string {
	s := strings.TrimRight(strconv.FormatFloat(x, 'f', 3, 64), "0")
	return strings.TrimSuffix(s, ".")
}

// signed prints a score with its sign: a negative finding exonerates.
func signed(x float64) string {
	s := strconv.FormatFloat(x, 'f', 2, 64)
	if x > 0 {
		s = "+" + s
	}
	return s
}

// spanLink is the link to a step's span, or "" when none was asked for or
// the link is not an http or https URL.
func spanLink(link func(traceID, spanID string) string, traceID, spanID string) string {
	if link == nil || (traceID == "" && spanID == "") {
		return ""
	}
	u := link(traceID, spanID)
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return ""
	}
	return u
}
