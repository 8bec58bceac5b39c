package run

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"maps"
	"math"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/offattr/offattr/run/spans"
)

// From spans to steps. Every trace of a file is one run (but the one-span
// traces of a session, joinSessions); within a trace
// (the README's "From spans to steps" says the same for users):
//
//   - Steps are ordered by the start time of their span, ties broken by
//     parent before child, then by file order. A tool's result takes the
//     time its span ended, so that what ran inside the tool (an agent used
//     as a tool) comes before the result; a model call whose input holds
//     that result comes after it, whichever clock its start was read from.
//   - A step's agent is its nearest enclosing agent span (the span itself
//     included): an agent handing off to another is two agents. Spans
//     outside any agent belong to the service that emitted them.
//   - A model call contributes only its new output messages: its input
//     repeats the whole history, and no step may appear twice. A tool
//     message in its input becomes a result only when no tool span
//     answered that call.
//   - A tool call and its result are steps of the calling agent. A call the
//     model's output already holds is not repeated by the tool span; the
//     span adds the result.
//   - The task is the first user input of the root agent (the first agent
//     span outside any other), else of the first model call; it is step 0.
//   - An agent span whose inside produced no step contributes its output.
//   - Span status ERROR, exception events and tool errors become error
//     lines ("ValueError: …", "Error: …") of the step of their span, or of
//     the nearest enclosing span that has one; an error no span inside
//     already reported, on a span with no step, is a step of its own at the
//     span's end.
//   - The step after which an agent span starts, spoken by another agent,
//     addresses it (Target): the handoff.
//   - A span whose parent is not in the file is a root: it still makes
//     steps.

// isTelemetry reports whether f is read by run/spans.
func isTelemetry(f Format) bool {
	for _, t := range spans.Formats {
		if f == Format(t) {
			return true
		}
	}
	return false
}

// ErrNoAgentSpans: a trace file none of whose spans follows a GenAI
// convention.
var ErrNoAgentSpans = errors.New("no GenAI or OpenInference spans")

// telemetry reads every trace of a telemetry file as a case. Traces with
// no span of a known convention (HTTP traffic exported beside the agents),
// or whose spans hold no message, tool call or error, are not runs and are
// left out; a file with no run at all is an error saying why.
func telemetry(ctx context.Context, data []byte, format spans.Format, labels SpanLabels) ([]*Case, error) {
	all, err := spans.Decode(ctx, data, format)
	if err != nil {
		return nil, err
	}
	return traces(ctx, all, format, labels)
}

// traces reads the decoded spans of a telemetry file as telemetry does.
func traces(ctx context.Context, all []spans.Span, format spans.Format, labels SpanLabels) ([]*Case, error) {
	if len(all) == 0 {
		return nil, fmt.Errorf("%w: the %s file holds no spans", ErrEmpty, format)
	}
	var order []string
	byTrace := map[string][]*spans.Span{}
	for i := range all {
		s := &all[i]
		if _, ok := byTrace[s.TraceID]; !ok {
			order = append(order, s.TraceID)
		}
		byTrace[s.TraceID] = append(byTrace[s.TraceID], s)
	}
	order = joinSessions(order, byTrace)
	// Traces are independent: read them on every core, keep file order.
	results := make([]*Case, len(order))
	errs := make([]error, len(order))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(order)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(order); i = int(next.Add(1) - 1) {
				if errs[i] = ctx.Err(); errs[i] == nil {
					results[i], errs[i] = traceCase(ctx, order[i], byTrace[order[i]], Format(format), labels)
				}
			}
		}()
	}
	wg.Wait()
	var cases []*Case
	var empty error // the first trace with agent spans but no step
	for i, id := range order {
		switch {
		case errors.Is(errs[i], ErrNoAgentSpans):
			continue
		case errors.Is(errs[i], ErrEmpty):
			// Content capture may be off for some services only: such a
			// trace is no run, but says why when it is the only one.
			if empty == nil {
				empty = fmt.Errorf("trace %s: %w", spans.CutForError(id), errs[i])
			}
			continue
		case errs[i] != nil:
			return nil, fmt.Errorf("trace %s: %w", spans.CutForError(id), errs[i])
		}
		cases = append(cases, results[i])
	}
	switch {
	case len(cases) > 0:
		return cases, nil
	case empty != nil:
		return nil, empty
	default:
		return nil, fmt.Errorf("%w in %d spans of %d traces: looked for %s; the first span, %s, has %s", ErrNoAgentSpans, len(all), len(order), conventions, spans.QuoteForError(cleanName(all[0].Name)), attrKeys(all[0].Attrs, 12))
	}
}

// attrKeys lists the first n keys of attributes, for a message about a
// file that was not understood.
func attrKeys(as spans.Attrs, n int) string {
	if len(as) == 0 {
		return "no attributes"
	}
	keys := make([]string, 0, min(n, len(as)))
	for _, a := range as[:min(n, len(as))] {
		keys = append(keys, spans.CutForError(cleanName(a.Key)))
	}
	if len(as) > n {
		keys = append(keys, fmt.Sprintf("and %d more", len(as)-n))
	}
	return "the attributes " + strings.Join(keys, ", ")
}

// node is one span in its trace's tree.
type node struct {
	s      *spans.Span
	order  int // file order
	parent *node
	depth  int
	role   spanRole
	name   string     // the agent this span itself names, if any
	from   nameSource // how name was found: see nameSource
	owner  string     // nearest enclosing agent, itself included
	scope  *node      // the enclosing agent span: the agent's turn
	tool   *node      // the nearest enclosing tool span, itself excluded
	steps  []int      // indices into builder.steps
	// ran is, for a tool span that recorded no result, the id of the
	// model's call it ran: the result comes in a later model input.
	ran string
}

// pending is a step with the key that orders it.
type pending struct {
	step  Step
	time  int64
	depth int
	order int
	sub   int
	node  *node
	task  bool // the task: no span's own step, so errors and outputs look past it
}

type builder struct {
	ctx   context.Context
	ticks int // calls of stopped, which looks at ctx every so many
	nodes []*node
	steps []pending
	// Calls made, by id (answered or not), and not answered yet by agent
	// and tool name.
	callsByID   map[string]*openCall
	callsByName map[string][]*openCall
	unanswered  int // calls made and not yet answered
	// openOf holds, by agent, its calls in the order made, answered ones
	// dropped as they are met (oldestOpen); openCount counts the
	// unanswered ones.
	openOf    map[string][]*openCall
	openCount map[string]int
	// silent holds, by agent, its latest model call if no output of it
	// was recorded.
	silent       map[string]*silentCall
	question     string
	instructions string // the first model call's system instructions
	tools        []Tool // the tools the model calls were offered (toolsOfSpan)
	// begun holds the agent turns whose first model call prompts has read,
	// and given the prompts read there; nil before the first.
	begun map[*node]bool
	given map[string]bool
	// said holds the texts of the first saidUpTo steps (saidSoFar); nil
	// until asked for.
	said     *saidTexts
	saidUpTo int
	// acting holds, by agent, whether its latest step but tool results
	// is one of a model's output messages (tool).
	acting map[string]bool
	// agentless: no span of the trace is an agent's (a log of model
	// calls, a program that calls models itself).
	agentless bool
	// root is the span whose name names the one agent of a trace that
	// names none (rootAgent), nil if none does.
	root *node
}

// openCall is a tool call a model made.
type openCall struct {
	id         string
	agent      string // AgentKey of the agent that made it
	answered   bool
	step, call int // the step that made it, and the call's place in its ToolCalls
}

func traceCase(ctx context.Context, traceID string, ss []*spans.Span, format Format, labels SpanLabels) (*Case, error) {
	b := &builder{ctx: ctx, callsByID: map[string]*openCall{}, callsByName: map[string][]*openCall{}, openOf: map[string][]*openCall{}, openCount: map[string]int{}, silent: map[string]*silentCall{}, acting: map[string]bool{}}
	known := b.tree(ss)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if known == 0 {
		return nil, ErrNoAgentSpans
	}
	b.build()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(b.steps) == 0 {
		return nil, fmt.Errorf("%w: %d spans follow a GenAI convention but none holds a message, a tool call or an error (is content capture off? e.g. OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)", ErrEmpty, known)
	}
	if b.onlyTask() {
		// A program's own steps around no model or tool (a flow of
		// plain functions): nothing an agent did.
		return nil, fmt.Errorf("%w: %d spans follow a GenAI convention but hold only the task: no message of a model, no tool call, no error", ErrEmpty, known)
	}
	sort.SliceStable(b.steps, b.before)
	// Ids are printed by every command and become file names: like agent
	// names, they lose any control character a hostile file put in them.
	rawID := traceID
	traceID = cleanName(traceID)
	r := &Run{Format: format, TraceID: traceID, Question: b.question, Instructions: b.instructions, Tools: b.tools}
	stepNodes := make([]*node, len(b.steps))
	r.Steps = make([]Step, 0, len(b.steps))
	for i, p := range b.steps {
		p.step.Index = i
		e := p.step.Edit()
		e.TraceID, e.SpanID = traceID, cleanName(p.node.s.SpanID)
		if p.node.s.TraceID != rawID { // a trace joined to its session's run
			e.TraceID = cleanName(p.node.s.TraceID)
		}
		r.Steps = append(r.Steps, p.step)
		stepNodes[i] = p.node
	}
	b.handoffs(r, stepNodes)
	label, err := traceLabel(r, b.nodes, stepNodes, labels)
	if err != nil {
		return nil, err
	}
	return &Case{Run: r, Label: label}, nil
}

// stopped reports whether the context has ended, looking at it once
// every few thousand calls: the walks over a trace's nodes call it on
// each, and a trace of a hundred thousand spans must stop when asked.
func (b *builder) stopped() bool {
	b.ticks++
	return b.ticks%4096 == 0 && b.ctx.Err() != nil
}

// tree links the spans into their tree and reads each one's role and
// agent; it returns how many spans a convention recognised. Every walk is
// linear in the spans, however deep the tree.
func (b *builder) tree(ss []*spans.Span) int {
	byID := make(map[string]*node, len(ss))
	known := 0
	for i, s := range ss {
		if b.stopped() {
			return known
		}
		if first, dup := byID[s.SpanID]; dup {
			// Exporters retry, Jaeger lists a span twice, and some write
			// a span as two records, when it starts and when it ends.
			first.s = mergeSpan(first.s, s)
			continue
		}
		n := &node{s: s, order: i}
		byID[s.SpanID] = n
		b.nodes = append(b.nodes, n)
	}
	for _, n := range b.nodes {
		if st, ok := levelStatus(n.s); ok {
			c := *n.s
			c.Status = st
			n.s = &c
		}
		for _, derive := range derivedValues {
			if vs := derive(n.s); vs != nil {
				c := *n.s
				c.Attrs = append(slices.Clip(c.Attrs), vs...)
				n.s = &c
			}
		}
		if emitterEvent(n.s) && n.s.End > n.s.Start {
			c := *n.s
			c.End = c.Start
			n.s = &c
		}
		var ok bool
		n.role, ok = classify(n.s)
		if ok {
			known++
		}
		n.name, n.from = agentName(n.s, n.role)
		if p, ok := byID[n.s.ParentID]; ok && p != n {
			n.parent = p
		}
	}
	b.adoptRoots()
	// A parent chain that loops (a hostile or broken file) has no root:
	// walking up from each node not yet walked, a node met again on the
	// same walk closes a loop, which is cut there.
	const (
		unseen = iota
		walking
		done
	)
	state := make(map[*node]uint8, len(b.nodes))
	var path []*node
	for _, n := range b.nodes {
		path = path[:0]
		for p := n; p != nil && state[p] == unseen; p = p.parent {
			if b.stopped() {
				return known
			}
			state[p] = walking
			path = append(path, p)
			if p.parent != nil && state[p.parent] == walking {
				p.parent = nil
			}
		}
		for _, p := range path {
			state[p] = done
		}
	}
	b.langChainAgents()
	b.handlerTools()
	b.graphRunAgents()
	b.taskAgents()
	// A span outside any agent span whose parent has one named agent
	// span among its children, a span with nothing inside it, belongs to
	// that agent: some instrumentations put the agent's span beside its
	// model calls rather than around them. (An agent span with work
	// inside it is a turn that has ended: what follows it is not its.)
	hasChild := map[*node]bool{}
	for _, n := range b.nodes {
		if n.parent != nil {
			hasChild[n.parent] = true
		}
	}
	b.markers(hasChild)
	b.agentsAsTools()
	b.managedAgents()
	beside := map[*node][]*node{} // by parent, in time order
	for _, n := range b.nodes {
		if n.role == roleAgent && n.name != "" && n.parent != nil && !hasChild[n] {
			beside[n.parent] = append(beside[n.parent], n)
		}
	}
	if len(beside) > 0 {
		for _, as := range beside {
			slices.SortStableFunc(as, func(x, y *node) int { return cmp.Compare(x.s.Start, y.s.Start) })
		}
		agentAbove := b.agentAbove()
		for _, n := range b.nodes {
			if n.name == "" && n.role != roleAgent && n.parent != nil && !agentAbove[n] {
				n.name = besideAgent(beside[n.parent], n)
			}
		}
	}
	b.besideCalls()
	// A graph node is an agent when a model call runs inside it and no
	// agent span encloses it (Koog's strategy nodes are steps of one).
	modelIn := b.within(roleLLM, false)
	agentAbove := b.agentAbove()
	for _, n := range b.nodes {
		switch n.from {
		case fromAttribute:
			if agentAbove[n] {
				n.name = ""
			}
		case fromGraphNode:
			if !modelIn[n] || agentAbove[n] {
				n.name = ""
			}
		}
	}
	b.serviceAgents(modelIn)
	b.subgraphSteps()
	b.rootAgent(modelIn)
	for _, n := range b.nodes {
		if b.stopped() {
			return known
		}
		b.resolve(n)
	}
	return known
}

// subgraphSteps leaves unnamed the graph nodes of a subgraph that call the
// model themselves: where a graph's node runs a graph of its own (a
// LangGraph ReAct agent, whose model and tools nodes are its steps), the
// agent is the node that runs it, and a node whose inside holds no other
// graph node is a step of the node around it. A graph of one level keeps
// its nodes as agents, a node above a subgraph's agents (a team) keeps its
// name for what it does itself, and a graph a tool runs (an agent called
// as a tool) is no subgraph of the node that called it. Spans of one node
// (a node's chain and the model call inside it carry the same node) are
// one.
func (b *builder) subgraphSteps() {
	// top is, for each span, the outermost span of the graph node it is
	// in, nil outside any; outer is, for each such span, the one of the
	// node around it.
	top := map[*node]*node{}
	outer := map[*node]*node{}
	inner := map[*node]bool{} // a node with another inside it
	for _, n := range b.preorder() {
		var up *node
		if n.parent != nil && n.parent.role != roleTool && n.parent.role != roleRetrieval {
			up = top[n.parent] // what a tool runs is no step of a node around the tool
		}
		switch {
		case n.from != fromGraphNode || n.name == "":
			top[n] = up
		case up != nil && SameAgent(up.name, n.name):
			top[n] = up
		default:
			top[n] = n
			if up != nil {
				outer[n], inner[up] = up, true
			}
		}
	}
	if len(outer) == 0 {
		return
	}
	for _, n := range b.nodes {
		if t := top[n]; t != nil && n.from == fromGraphNode && outer[t] != nil && !inner[t] {
			n.name = ""
		}
	}
}

// preorder lists the spans parents first, each once, without recursion.
func (b *builder) preorder() []*node {
	children := map[*node][]*node{}
	var stack []*node
	for _, n := range b.nodes {
		if n.parent == nil {
			stack = append(stack, n)
		} else {
			children[n.parent] = append(children[n.parent], n)
		}
	}
	slices.Reverse(stack)
	out := make([]*node, 0, len(b.nodes))
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, n)
		kids := children[n]
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	return out
}

// langChainAgents makes an agent span of each span that starts a
// LangChain agent's run: LangChain names the agent of every run inside one
// in its metadata (lc_agent_name), and the span whose parent does not
// share that name is the agent's. Its graph's nodes (a model_request and a
// tools node) are then steps of the agent.
func (b *builder) langChainAgents() {
	named := map[*node]string{}
	for _, n := range b.nodes {
		if name := cleanName(metadataValue(n.s, "lc_agent_name")); name != "" {
			named[n] = name
		}
	}
	for n, name := range named {
		if n.role != roleOther || n.parent != nil && SameAgent(named[n.parent], name) {
			continue
		}
		n.role, n.name, n.from = roleAgent, name, fromAgentSpan
	}
}

// graphRunAgents makes an agent span of each span that runs a LangGraph
// graph named for its agent: LangGraph names a graph's run for the graph
// (createReactAgent and createSupervisor for the agent they make), and a
// span is a graph's run when a node of a graph nested one level deeper
// (langgraph_checkpoint_ns) sits directly inside it and it is no node
// itself (it carries no node, or its parent's, as a run inside a node
// inherits its metadata). A graph of LangGraph's default name
// ("LangGraph") names no agent. Its nodes are then steps of the agent.
func (b *builder) graphRunAgents() {
	depth := func(n *node) int {
		ns := metadataValue(n.s, "langgraph_checkpoint_ns")
		if ns == "" {
			return 0
		}
		return strings.Count(ns, "|") + 1
	}
	for _, n := range b.nodes {
		p := n.parent
		if p == nil || n.from != fromGraphNode || n.name == "" || p.role != roleOther || depth(n) <= depth(p) {
			continue
		}
		own := metadataValue(p.s, "langgraph_node")
		if own != "" && (p.parent == nil || metadataValue(p.parent.s, "langgraph_node") != own) {
			continue // a node of the graph around it, not a run inside one
		}
		if name := cleanName(p.s.Name); name != "" && name != "LangGraph" {
			p.name, p.from = name, fromGraphNode
		}
	}
}

// besideAgent returns the agent a span belongs to among the agent spans
// beside it (childless agent spans of its parent, in time order): the one
// they all name; else, when they name several, the last to start before
// the span (an agent's span written before the model calls it leads to,
// as Genkit's executable prompts render each agent's request before the
// generate that sends it), or "" when none did.
func besideAgent(agents []*node, n *node) string {
	if len(agents) == 0 {
		return ""
	}
	if !slices.ContainsFunc(agents, func(a *node) bool { return !SameAgent(a.name, agents[0].name) }) {
		return agents[0].name
	}
	name := ""
	for _, a := range agents {
		if a.s.Start > n.s.Start {
			break
		}
		name = a.name
	}
	return name
}

// besideCalls names the agent of a tool's span that names none and sits
// beside model calls that name one agent, under a span that is no
// agent's (CAMEL's step, as Langfuse records it): the tool ran for the
// calls beside it, as an agent's model call and its tool run in its turn.
func (b *builder) besideCalls() {
	named := map[*node]string{} // by parent: the one agent its model calls name, "" if none or several
	seen := map[*node]bool{}
	for _, n := range b.nodes {
		if n.role != roleLLM || n.parent == nil || n.parent.role == roleAgent || n.from != fromAttribute || n.name == "" {
			continue
		}
		switch p := n.parent; {
		case !seen[p]:
			seen[p], named[p] = true, n.name
		case !SameAgent(named[p], n.name):
			named[p] = ""
		}
	}
	for _, n := range b.nodes {
		if (n.role == roleTool || n.role == roleRetrieval) && n.name == "" && n.parent != nil && named[n.parent] != "" {
			n.name, n.from = named[n.parent], fromAttribute
		}
	}
}

// markers demotes the agent spans that mark a moment rather than an
// agent's turn: one with nothing inside it, no attribute naming an agent
// (only its span name), and no model call of its parent's running while
// it lasts is no agent (a router's decision, labelled AGENT by some
// instrumentations). An agent span put beside its model calls names its
// agent or lasts while they run, and stays one.
func (b *builder) markers(hasChild map[*node]bool) {
	models := map[*node][]*node{} // model calls by parent
	for _, n := range b.nodes {
		if n.role == roleLLM && n.parent != nil {
			models[n.parent] = append(models[n.parent], n)
		}
	}
	for _, n := range b.nodes {
		if n.role != roleAgent || n.parent == nil || hasChild[n] || n.s.End <= n.s.Start || len(models[n.parent]) == 0 || namesAgent(n.s) {
			continue
		}
		during := slices.ContainsFunc(models[n.parent], func(m *node) bool {
			return m.s.Start < n.s.End && n.s.Start < m.s.End
		})
		if !during {
			n.role = roleOther
			n.name, n.from = agentName(n.s, roleOther)
		}
	}
}

// agentsAsTools names the agent spans that a tool call runs (an agent
// used as a tool, as the Claude Agent SDK runs its sub-agents) and that
// are named only as the tool is: by the agent the call asks for, its
// subagentKeys argument, when it names one. Three sub-agents that the SDK
// calls "Agent" are then the research and the math specialists they are.
func (b *builder) agentsAsTools() {
	for _, n := range b.nodes {
		p := n.parent
		if n.role != roleAgent || p == nil || p.role != roleTool {
			continue
		}
		call := toolCall(p.s, p.role)
		if !SameAgent(n.name, call.Name) {
			continue
		}
		var args map[string]any
		if json.Unmarshal([]byte(call.Arguments), &args) != nil {
			continue
		}
		for _, k := range subagentKeys {
			if v, ok := args[k].(string); ok && cleanName(v) != "" {
				n.name = cleanName(v)
				break
			}
		}
	}
}

// managedAgents names the agent spans that an enclosing agent runs as one
// of the sub-agents it declares (smolagents lists them as
// smolagents.managed_agents.N.name) and that no attribute names (their span
// names only the class, ToolCallingAgent): by the one declared name their
// input holds, as smolagents tells a sub-agent who it is. Two sub-agents
// of one class are then two agents.
func (b *builder) managedAgents() {
	declared := map[*node][]*regexp.Regexp{} // by manager: each declared name as a word
	for _, n := range b.nodes {
		if n.role != roleAgent || namesAgent(n.s) {
			continue
		}
		a := n.parent
		for a != nil && a.role != roleAgent {
			a = a.parent
		}
		if a == nil {
			continue
		}
		words, ok := declared[a]
		if !ok {
			for _, name := range declaredAgents(a.s) {
				words = append(words, regexp.MustCompile(`(?:^|[^\pL\pN_])(`+regexp.QuoteMeta(name)+`)(?:$|[^\pL\pN_])`))
			}
			declared[a] = words
		}
		if len(words) == 0 {
			continue
		}
		in := n.s.Attrs.Str("input.value")
		var found string
		for _, w := range words {
			m := w.FindStringSubmatch(in)
			if m == nil {
				continue
			}
			if found != "" {
				found = ""
				break
			}
			found = m[1]
		}
		if found != "" {
			n.name = cleanName(found)
		}
	}
}

// declaredAgents lists the sub-agents an agent span declares: the values
// of its attributes named like managed_agents.N.name.
func declaredAgents(s *spans.Span) []string {
	var out []string
	for _, a := range s.Attrs {
		if a.Value.Kind != spans.KindString || !strings.HasSuffix(a.Key, ".name") || !strings.Contains(a.Key, "managed_agents.") {
			continue
		}
		if v := strings.TrimSpace(a.Value.Str); v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// subagentKeys are the arguments by which a call that runs an agent names
// it.
var subagentKeys = []string{"subagent_type", "agent_name", "agent"}

// agentAbove returns the spans that an agent span encloses, each found
// once however deep the tree.
func (b *builder) agentAbove() map[*node]bool {
	above := make(map[*node]bool, len(b.nodes))
	var path []*node
	for _, n := range b.nodes {
		path = path[:0]
		p := n
		for ; p != nil; p = p.parent {
			if _, ok := above[p]; ok {
				break
			}
			path = append(path, p)
		}
		for i := len(path) - 1; i >= 0; i-- {
			q := path[i]
			above[q] = q.parent != nil && (q.parent.role == roleAgent || above[q.parent])
		}
	}
	return above
}

// within returns the spans that have a span of the given role inside
// them (or are one), up to the nearest enclosing agent span when
// toAgent, else up to the root. Each span is marked once: linear however
// deep the tree.
func (b *builder) within(role spanRole, toAgent bool) map[*node]bool {
	in := map[*node]bool{}
	for _, n := range b.nodes {
		if n.role != role {
			continue
		}
		for p := n; p != nil && !in[p]; p = p.parent {
			in[p] = true
			if toAgent && p.role == roleAgent {
				break
			}
		}
	}
	return in
}

// maxAdopted bounds the roots adoptRoots places: each is compared with
// every span of the trace.
const maxAdopted = 256

// adoptRoots gives a parent to the spans of a trace that name none when
// others do: a span processor that sends the spans a program decorates as
// roots of its trace (Keywords AI's) drops their parents and keeps those
// of the spans its instrumentations make inside them. Such a root's parent
// is the span of the trace that runs around it in time (starts no later,
// ends no earlier, and lasts longer), the shortest such. A trace whose
// spans all name no parent, or name one in the file, is left as it is.
func (b *builder) adoptRoots() {
	var roots []*node
	linked := false
	for _, n := range b.nodes {
		switch {
		case n.s.ParentID == "":
			roots = append(roots, n)
		case n.parent != nil:
			linked = true
		}
	}
	if !linked || len(roots) < 2 || len(roots) > maxAdopted {
		return
	}
	for _, r := range roots {
		var best *node
		for _, p := range b.nodes {
			if p == r || p.s.Start > r.s.Start || p.s.End < r.s.End || p.s.End-p.s.Start <= r.s.End-r.s.Start {
				continue
			}
			if best == nil || p.s.End-p.s.Start < best.s.End-best.s.Start {
				best = p
			}
		}
		if best != nil {
			r.parent = best
		}
	}
}

// mergeSpan joins two records of one span: what either says, the earliest
// start, the latest end, an error status over none. a is left as it is.
func mergeSpan(a, b *spans.Span) *spans.Span {
	m := *a
	m.Attrs = slices.Clip(m.Attrs)
	for _, at := range b.Attrs {
		if _, ok := m.Attrs.Get(at.Key); !ok {
			m.Attrs = append(m.Attrs, at)
		}
	}
	m.Events = slices.Clip(m.Events)
	for _, e := range b.Events {
		if !slices.ContainsFunc(m.Events, func(x spans.Event) bool { return x.Name == e.Name && x.Time == e.Time }) {
			m.Events = append(m.Events, e)
		}
	}
	if m.Start == 0 || b.Start != 0 && b.Start < m.Start {
		m.Start = b.Start
	}
	m.End = max(m.End, b.End)
	if m.Status.Code == spans.StatusUnset || b.Status.Code == spans.StatusError && m.Status.Code != spans.StatusError {
		m.Status = b.Status
	}
	if m.Name == "" {
		m.Name = b.Name
	}
	if m.ParentID == "" {
		m.ParentID = b.ParentID
	}
	if len(m.Resource) == 0 {
		m.Resource = b.Resource
	}
	return &m
}

// resolve sets a node's depth and owner from its ancestors'.
func (b *builder) resolve(n *node) {
	if n.depth != 0 || n.owner != "" {
		return
	}
	var chain []*node
	for p := n; p != nil && p.depth == 0 && p.owner == ""; p = p.parent {
		chain = append(chain, p)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		c := chain[i]
		if c.parent != nil {
			c.depth = c.parent.depth + 1
			c.owner, c.scope, c.tool = c.parent.owner, c.parent.scope, c.parent.tool
			if c.parent.role == roleTool {
				c.tool = c.parent
			}
		}
		if c.name != "" {
			c.owner = c.name
			if c.role == roleAgent || c.role == roleOther {
				c.scope = c // a model call naming its agent is no turn of its own
			}
		}
		if c.owner == "" && c == b.root {
			c.owner = rootName(c.s)
		}
		if c.owner == "" {
			c.owner = service(c.s)
		}
	}
}

// rootAgent finds the span that names the one agent of a trace naming
// none: no span is an agent's or names one, no service names one, and a
// single root, a workflow the program names (rootName), encloses every
// span, model calls among them. What a program calls the workflow it
// runs is what a reader of the trace calls its agent; without it the
// agent has no name but "assistant". The root gives only the name, not a
// turn of the agent's.
func (b *builder) rootAgent(modelIn map[*node]bool) {
	var root *node
	for _, n := range b.nodes {
		if n.role == roleAgent || n.name != "" || serviceName(n.s) != "" {
			return
		}
		if n.parent == nil {
			if root != nil {
				return
			}
			root = n
		}
	}
	if root != nil && root.role == roleOther && modelIn[root] && rootName(root.s) != "" {
		b.root = root
	}
}

// rootName is the name of the workflow a span is, as OpenLLMetry's
// workflow decorator records the name the program gives it; "" for any
// other span. A root chain or trace names no agent by its span name
// alone: that is as often the framework's or the operation's
// (LangGraph, ai.generateText, GenerateContent) or the trace's.
func rootName(s *spans.Span) string {
	if s.Attrs.Str("traceloop.span.kind") != "workflow" {
		return ""
	}
	return cleanName(s.Attrs.Str("traceloop.entity.name"))
}

// serviceAgents names the agent of a span that another service's span
// called, where the span names none: an agent that runs as a service of
// its own (reached over HTTP, A2A) is its service, as the one agent of a
// trace of one service is (service). Only a service that makes model
// calls is an agent: one that makes none is a tool's server, a part of its
// caller's work. A service called by a model call (a model gateway) is
// that call, not an agent, and a tool span is its caller's action.
func (b *builder) serviceAgents(modelIn map[*node]bool) {
	for _, n := range b.nodes {
		p := n.parent
		if p == nil || n.name != "" || n.role == roleTool || !modelIn[n] {
			continue
		}
		name := serviceName(n.s)
		if name == "" || SameAgent(name, serviceName(p.s)) {
			continue
		}
		called := false
		for a := p; a != nil; a = a.parent {
			if a.role == roleLLM {
				called = true
				break
			}
		}
		if !called {
			n.name, n.from = name, fromService
		}
	}
}

// serviceName is the service that emitted a span, "" if it names none.
func serviceName(s *spans.Span) string {
	if name := cleanName(s.Resource.Str("service.name")); !strings.HasPrefix(name, "unknown_service") {
		return name
	}
	return ""
}

// service names the agent of spans outside any agent span: the service
// that emitted them, or "assistant".
func service(s *spans.Span) string {
	if name := serviceName(s); name != "" {
		return name
	}
	return "assistant"
}

// build walks the spans in time order and makes their steps.
func (b *builder) build() {
	byTime := append([]*node(nil), b.nodes...)
	sort.SliceStable(byTime, func(i, j int) bool {
		x, y := byTime[i], byTime[j]
		if x.s.Start != y.s.Start {
			return x.s.Start < y.s.Start
		}
		if x.depth != y.depth {
			return x.depth < y.depth
		}
		// Spans side by side that start on the same tick of a coarse
		// clock (OpenTelemetry JS's milliseconds) ran in the order they
		// ended: a tool and the model call given its result. The file's
		// order may be another (OTLP groups spans by the instrumentation
		// that made them).
		if x.s.End != y.s.End && x.s.End > 0 && y.s.End > 0 {
			return x.s.End < y.s.End
		}
		return x.order < y.order
	})
	b.task(byTime)
	b.agentless = !slices.ContainsFunc(b.nodes, func(n *node) bool { return n.role == roleAgent })
	modelIn := b.within(roleLLM, true)
	modelUp, modelKids := b.modelCallsWithin()
	for _, n := range byTime {
		if b.stopped() {
			return
		}
		if h, ok := spanHandoffOp(n.s); ok {
			b.add(n, n.s.Start, 0, Step{Agent: n.owner, Role: "assistant", Kind: KindHandoff, Content: h.Text, Extra: &Extra{Target: h.Target, From: "gen_ai.handoff"}})
			continue
		}
		switch n.role {
		case roleLLM:
			if recordedTwice(n, modelUp, modelKids) {
				continue
			}
			b.model(n, outputMessages(n.s))
		case roleAgent:
			// An agent span holding the model's messages, with no model
			// call of its own inside, is its model call too; one whose
			// output is a request (isRequest) made none.
			if !modelIn[n] {
				if ms := firstMessages(n.s, messageOutputSources); len(ms) > 0 && !isRequest(ms) {
					b.model(n, ms)
				}
			}
		case roleTool, roleRetrieval:
			b.tool(n)
		}
	}
	b.givenResults()
	b.dropEchoes()
	b.untracedResults(byTime)
	b.silentAgents(byTime)
	b.errors(byTime)
	b.afterResults()
}

// modelCallsWithin returns, for each model call's span, the model call
// it runs inside (the nearest enclosing one with no agent's turn and no
// tool between them), and for each model call those inside it. Spans
// between two model calls (an HTTP client's and a gateway's server span)
// change nothing: a gateway's record of the call an app sent it sits
// inside the app's record, however many such spans lie between. One pass
// over the spans, parents first.
func (b *builder) modelCallsWithin() (up map[*node]*node, kids map[*node][]*node) {
	up, kids = map[*node]*node{}, map[*node][]*node{}
	above := map[*node]*node{} // the model call a span runs inside
	for _, n := range b.preorder() {
		p := n.parent
		if p == nil || p.role == roleAgent || p.role == roleTool || p.role == roleRetrieval {
			continue
		}
		if p.role == roleLLM {
			above[n] = p
		} else if a := above[p]; a != nil {
			above[n] = a
		}
		if a := above[n]; a != nil && n.role == roleLLM {
			up[n] = a
			kids[a] = append(kids[a], n)
		}
	}
	return up, kids
}

// recordedTwice reports whether the model call n is read from another
// span. Two records of one call (a framework's and its provider SDK's,
// as Agno's OpenInference spans hold Langfuse's OpenAI integration's,
// which writes a reply of calls only as "None"; an app's and the model
// gateway's it sent the call to) nest one model call's span in another's,
// the inner one the only model call inside the outer: the outer record is
// read when it holds all the inner one answered. A model call's span
// holding several (a framework's call around its retries, or around a
// loop of calls and tools) is no second record of one: each inner call is
// read, at its own time, and the outer one only for what none of them
// answered. Nor is a call whose reply the outer one does not hold.
func recordedTwice(n *node, up map[*node]*node, kids map[*node][]*node) bool {
	if p := up[n]; p != nil && len(kids[p]) == 1 {
		return holdsAll(outputMessages(p.s), outputMessages(n.s))
	}
	if len(kids[n]) < 2 {
		return false
	}
	var inner []chatMessage
	for _, k := range kids[n] {
		inner = append(inner, outputMessages(k.s)...)
	}
	return holdsAll(inner, outputMessages(n.s))
}

// holdsAll reports whether the messages outer say every text and make
// every call of the messages ms, when outer say anything: a text "None"
// or "null" says nothing.
func holdsAll(outer, ms []chatMessage) bool {
	if len(outer) == 0 {
		return false
	}
	said := func(text string) bool {
		return slices.ContainsFunc(outer, func(o chatMessage) bool { return echoes(text, o.Text) || sameJSON(text, o.Text) })
	}
	called := func(c ToolCall) bool {
		return slices.ContainsFunc(outer, func(o chatMessage) bool {
			return slices.ContainsFunc(o.Calls, func(oc ToolCall) bool { return oc.Name == c.Name && sameJSON(oc.Arguments, c.Arguments) })
		})
	}
	for _, m := range ms {
		if t := strings.TrimSpace(m.Text); t != "" && t != "None" && t != "null" && !said(t) || !allOf(m.Calls, called) {
			return false
		}
	}
	return true
}

// allOf reports whether f holds for every element of s.
func allOf[T any](s []T, f func(T) bool) bool {
	return !slices.ContainsFunc(s, func(x T) bool { return !f(x) })
}

// givenResults places a model call that was given a tool's result after
// that result. A span's start may be read from a coarser clock than its
// end (OpenTelemetry JS takes the start from a millisecond clock and adds
// a precise duration for the end), so a model call that starts just after
// a fast tool returned can seem to start before the tool ended. Only a
// model call of the tool's agent turn that seems to start while the tool
// runs is looked at, and moved only when its input holds the tool's result
// by its call id, or, in a tool message that names no call (OpenLLMetry's
// prompts keep no call ids), word for word or as the same JSON: the input
// is the evidence, times alone are not.
func (b *builder) givenResults() {
	type result struct {
		tool *node
		id   string
		text string
		time int64
	}
	var results []result
	for _, p := range b.steps {
		if p.step.Kind == KindToolResult && (p.node.role == roleTool || p.node.role == roleRetrieval) && p.time > p.node.s.Start {
			results = append(results, result{p.node, p.step.ToolCallID(), strings.TrimSpace(p.step.Content), p.time})
		}
	}
	if len(results) == 0 {
		return
	}
	models := map[*node][]*node{} // model calls with steps, by agent turn, in time order
	for _, n := range b.nodes {
		if n.role == roleLLM && len(n.steps) > 0 {
			models[n.scope] = append(models[n.scope], n)
		}
	}
	for _, ms := range models {
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].s.Start < ms[j].s.Start })
	}
	type input struct {
		ids   map[string]bool // the call ids of the results it holds
		texts []string        // the texts of its tool messages that name no call
	}
	given := map[*node]input{}
	for _, r := range results {
		ms := models[r.tool.scope]
		for k := sort.Search(len(ms), func(i int) bool { return ms[i].s.Start >= r.tool.s.Start }); k < len(ms) && ms[k].s.Start < r.time; k++ {
			m := ms[k]
			in, ok := given[m]
			if !ok {
				in.ids = map[string]bool{}
				for _, msg := range inputMessages(m.s) {
					switch {
					case msg.CallID != "":
						in.ids[msg.CallID] = true
					case strings.EqualFold(msg.Role, "tool"):
						in.texts = append(in.texts, strings.TrimSpace(msg.Text))
					}
				}
				given[m] = in
			}
			if (r.id == "" || !in.ids[r.id]) && !slices.ContainsFunc(in.texts, func(t string) bool { return t == r.text || sameJSON(t, r.text) }) {
				continue
			}
			for _, i := range m.steps {
				b.steps[i].time = max(b.steps[i].time, justAfter(r.time))
			}
		}
	}
}

// afterResults orders a model's output when it holds messages written
// after the results of its own calls came back: a span that holds a whole
// conversation (the Claude Agent SDK's query span) gives every message the
// span's start. There, a call is placed just before the tool span that
// ran it, a message after the results of the calls made before it, and
// the output keeps its order. A model call whose output ends with its
// calls, as most do, is left as it is.
func (b *builder) afterResults() {
	type ran struct{ start, result int64 }
	runs := map[string]ran{}
	for _, p := range b.steps {
		if id := p.step.ToolCallID(); p.step.Kind == KindToolResult && id != "" {
			r, ok := runs[id]
			if !ok || p.time > r.result {
				r.result = p.time
			}
			if !ok || p.node.s.Start < r.start {
				r.start = p.node.s.Start
			}
			runs[id] = r
		}
	}
	if len(runs) == 0 {
		return
	}
	answered := func(p *pending) (r ran, ok bool) {
		for _, c := range p.step.ToolCalls() {
			if x, found := runs[c.ID]; found && c.ID != "" {
				if !ok || x.start < r.start {
					r.start = x.start
				}
				r.result = max(r.result, x.result)
				ok = true
			}
		}
		return r, ok
	}
	type message struct {
		p        *pending
		ran      ran
		answered bool
	}
	for _, n := range b.nodes {
		var out []message
		later := false // a message follows one whose calls have results
		for _, k := range n.steps {
			if p := &b.steps[k]; p.sub == 1 { // one of the model's output messages
				later = later || len(out) > 0 && out[len(out)-1].answered
				r, ok := answered(p)
				out = append(out, message{p, r, ok})
			}
		}
		if !later {
			continue
		}
		var floor, after int64
		waited := false // a call before this message has a result
		for i, m := range out {
			p, r, ok := m.p, m.ran, m.answered
			switch {
			case ok:
				p.time = max(p.time, justBefore(r.start))
			case waited:
				p.time = max(p.time, justAfter(after))
			}
			if i > 0 {
				p.time = max(p.time, floor)
			}
			floor = p.time
			if ok && (!waited || r.result > after) {
				after, waited = r.result, true
			}
		}
	}
}

// add records a step of node n, ordered at time t.
func (b *builder) add(n *node, t int64, sub int, s Step) {
	if s.Kind != KindToolResult {
		b.acting[s.Agent] = sub == 1 // one of a model's output messages
	}
	n.steps = append(n.steps, len(b.steps))
	b.steps = append(b.steps, pending{step: s, time: t, depth: n.depth, order: n.order, sub: sub, node: n})
}

// task finds the run's task: the first user input of the root agent, else
// of the first model call, else of the trace's root span.
func (b *builder) task(byTime []*node) {
	var root, firstLLM, firstRoot *node
	for _, n := range byTime {
		if root == nil && n.role == roleAgent && (n.parent == nil || n.parent.scope == nil) {
			root = n
		}
		if firstLLM == nil && n.role == roleLLM {
			firstLLM = n
		}
		if n.role == roleLLM {
			b.tools = appendTools(b.tools, toolsOfSpan(n.s))
		}
		if firstRoot == nil && n.parent == nil {
			firstRoot = n
		}
	}
	if firstLLM != nil {
		b.instructions = instructionsOf(firstLLM.s)
	}
	var candidates []func() (*node, []chatMessage)
	if root != nil {
		candidates = append(candidates, func() (*node, []chatMessage) { return root, agentInput(root.s) })
		for _, n := range byTime {
			if n.role == roleLLM && n.scope == root {
				candidates = append(candidates, func() (*node, []chatMessage) { return n, inputMessages(n.s) })
				break
			}
		}
	}
	if firstLLM != nil {
		candidates = append(candidates, func() (*node, []chatMessage) { return firstLLM, inputMessages(firstLLM.s) })
	}
	if firstRoot != nil {
		candidates = append(candidates, func() (*node, []chatMessage) { return firstRoot, agentInput(firstRoot.s) })
	}
	// An input that is a JSON object with no message or task in it (the
	// arguments a framework's kickoff was called with) is the task only
	// when no model call was given one in words.
	var fallback *node
	var fallbackText, fallbackFrom string
	for _, c := range candidates {
		n, msgs := c()
		t, from := leadingUserText(msgs)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
			if fallback == nil {
				fallback, fallbackText, fallbackFrom = n, t, from
			}
			continue
		}
		if rn, rt, rfrom, ok := rootTask(firstRoot, n, msgs); ok {
			n, t, from = rn, rt, rfrom
		}
		b.addTask(n, t, from)
		return
	}
	if fallback != nil {
		b.addTask(fallback, fallbackText, fallbackFrom)
	}
}

// rootTask returns the input of the trace's root span as the task in place
// of a model call's prompt, msgs, when one of the prompt's user messages
// quotes it whole and says more: a framework that hands the task to a
// planner or a manager wraps it in its own instructions ("split the given
// task into subtasks…"), and the task is what the program was given, not
// the template around it. A prompt whose messages hold it as one message
// of its own beside others keeps them all: each is the user's.
func rootTask(root, n *node, msgs []chatMessage) (*node, string, string, bool) {
	if root == nil || root == n || n.role != roleLLM {
		return nil, "", "", false
	}
	t, from := leadingUserText(agentInput(root.s))
	words := strings.Fields(t)
	if len(words) < 2 || strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
		return nil, "", "", false
	}
	inner := strings.Join(words, " ")
	for _, m := range msgs {
		if !strings.EqualFold(m.Role, "user") && !strings.EqualFold(m.Role, "human") {
			continue
		}
		outer := strings.Join(strings.Fields(m.Text), " ")
		if outer == inner {
			return nil, "", "", false
		}
		if len(outer) > len(inner) && strings.Contains(outer, inner) {
			return root, t, from, true
		}
	}
	return nil, "", "", false
}

// justBefore and justAfter are the instants next to t, held within int64
// (a hostile file's times may sit at either end).
func justBefore(t int64) int64 {
	if t == math.MinInt64 {
		return t
	}
	return t - 1
}

func justAfter(t int64) int64 {
	if t == math.MaxInt64 {
		return t
	}
	return t + 1
}

// onlyTask reports whether the run's task is the only step read.
func (b *builder) onlyTask() bool {
	for _, p := range b.steps {
		if !p.task {
			return false
		}
	}
	return true
}

// instructionsOf returns the system instructions a model call was given:
// gen_ai.system_instructions, which the GenAI conventions record apart
// from the chat history ([{"type": "text", "content": …}] or text), else
// the system messages its input opens with.
func instructionsOf(s *spans.Span) string {
	var texts []string
	if v, ok := s.Attrs.Get("gen_ai.system_instructions"); ok {
		x, structured := anyOf(v)
		parts, _ := x.([]any)
		for _, p := range parts {
			if m, ok := p.(map[string]any); ok && (m["type"] == nil || m["type"] == "text") {
				texts = append(texts, strings.TrimSpace(stringOrEmpty(m["content"])))
			}
		}
		if !structured {
			texts = append(texts, strings.TrimSpace(unquote(v.Text())))
		}
	}
	if len(nonEmpty(texts)) == 0 {
		texts = texts[:0]
		for _, m := range inputMessages(s) {
			if !strings.EqualFold(m.Role, "system") && !strings.EqualFold(m.Role, "developer") {
				break
			}
			texts = append(texts, strings.TrimSpace(m.Text))
		}
	}
	return strings.Join(nonEmpty(texts), "\n")
}

// toolsOfSpan returns the tools a model call was offered, with the values
// their schemas offer: gen_ai.tool.definitions (the GenAI conventions'
// list of definitions, as JSON text or structured), or OpenInference's
// llm.tools.N.tool.json_schema, each a definition as JSON text.
func toolsOfSpan(s *spans.Span) []Tool {
	var out []Tool
	for _, a := range s.Attrs {
		switch {
		case a.Key == "gen_ai.tool.definitions":
		case strings.HasPrefix(a.Key, "llm.tools.") && strings.HasSuffix(a.Key, ".tool.json_schema"):
		default:
			continue
		}
		if a.Value.Kind == spans.KindString {
			out = append(out, toolDefinitions(a.Value.Str)...)
		} else if data, err := json.Marshal(a.Value.Any()); err == nil {
			out = append(out, toolDefinitions(string(data))...)
		}
	}
	return out
}

// appendTools appends to tools those of more not already among them by
// name: every model call of a run repeats the tools it was offered.
func appendTools(tools, more []Tool) []Tool {
	for _, t := range more {
		if !slices.ContainsFunc(tools, func(o Tool) bool { return o.Name == t.Name }) {
			tools = append(tools, t)
		}
	}
	return tools
}

// addTask records the run's task, said by the user at node n's start.
func (b *builder) addTask(n *node, text, from string) {
	b.question = text
	b.steps = append(b.steps, pending{
		step: Step{Agent: "user", Role: "user", Kind: KindUser, Content: text, Extra: &Extra{From: from}},
		time: n.s.Start, depth: n.depth, order: n.order, sub: -1, node: n, task: true,
	})
}

// leadingUserText returns the text of the first user messages of msgs, up
// to the first message of another role, joined: a request given as
// several user messages in a row (an instruction, then the question) is
// one task. It returns "" when msgs hold no user text.
func leadingUserText(msgs []chatMessage) (text, from string) {
	var texts []string
	for _, m := range msgs {
		user := strings.EqualFold(m.Role, "user") || strings.EqualFold(m.Role, "human")
		if !user {
			if len(texts) > 0 {
				break
			}
			continue
		}
		if t := strings.TrimSpace(m.Text); t != "" {
			if len(texts) == 0 {
				from = m.From
			}
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n"), from
}

// trailingUserText returns the text of the last user messages of msgs,
// after the last message of another role, joined: the request of a turn
// whose input repeats the conversation before it.
func trailingUserText(msgs []chatMessage) (text, from string) {
	i := len(msgs)
	for i > 0 && (strings.EqualFold(msgs[i-1].Role, "user") || strings.EqualFold(msgs[i-1].Role, "human")) {
		i--
	}
	return leadingUserText(msgs[i:])
}

// model makes the steps of a model call: tool results its input holds
// that no tool span gave, then its output messages.
func (b *builder) model(n *node, output []chatMessage) {
	var in []chatMessage
	read := false
	input := func() []chatMessage {
		if !read {
			in, read = inputMessages(n.s), true
		}
		return in
	}
	if sc := b.silent[n.owner]; sc != nil {
		b.replies(sc, input(), output)
		delete(b.silent, n.owner)
	}
	// Where no span is an agent's, each model call is a turn of its own:
	// the messages a program or the other participants add between calls
	// are prompts.
	if n.scope != nil && !b.begun[n.scope] || n.scope == nil && b.agentless {
		b.prompts(n, input())
	} else if n.scope != nil {
		b.answersToAgent(n, input())
	}
	if b.unanswered > 0 {
		in := input()
		fresh := len(in)
		for fresh > 0 && !strings.EqualFold(in[fresh-1].Role, "assistant") {
			fresh--
		}
		for k, m := range in {
			if strings.EqualFold(m.Role, "assistant") {
				continue
			}
			// A tool message, or a user message carrying a tool's result
			// (Anthropic's tool_result parts).
			id, ok := m.CallID, b.answer(m.CallID) != nil
			// A message with no call id whose role is the name of a tool
			// this agent called (LangChain.js writes a tool's message so)
			// answers that call. Only the messages after the input's last
			// assistant message are new; the earlier ones answered calls
			// made before it.
			if !ok && m.CallID == "" && k >= fresh && !chatRoles[strings.ToLower(m.Role)] {
				if oc := b.made(ToolCall{Name: cleanName(m.Role)}, n.owner); oc != nil {
					id, ok = oc.id, true
				}
			}
			// A tool message with no call id there (OpenLIT writes GenAI's
			// messages without them) answers the agent's oldest open call.
			if !ok && m.CallID == "" && k >= fresh && strings.EqualFold(m.Role, "tool") {
				if oc := b.oldestOpen(n.owner, func(string) bool { return true }); oc != nil {
					b.settle(oc)
					id, ok = oc.id, true
				}
			}
			if ok {
				b.add(n, n.s.Start, 0, Step{Agent: n.owner, Role: "tool", Kind: KindToolResult, Content: m.Text, Extra: &Extra{ToolCallID: id, From: m.From}})
			}
		}
	}
	if n.scope != nil {
		b.observations(n, input())
	}
	said := false
	for _, m := range output {
		s := Step{Agent: n.owner, Role: cleanName(m.Role), Kind: KindMessage, Content: m.Text, Extra: &Extra{From: m.From}}
		if s.Role == "" {
			s.Role = "assistant"
		}
		// A span of no stated kind whose output is a tool message answering
		// a call made before it is that tool's run.
		if strings.EqualFold(s.Role, "tool") && b.answer(m.CallID) != nil {
			s.Kind, s.Edit().ToolCallID = KindToolResult, m.CallID
		} else if strings.EqualFold(s.Role, "tool") && m.CallID == "" && len(m.Calls) == 0 {
			// A tool message answering no call, given with the reply
			// (a search-grounded completion's results): what was
			// fetched for it, a result the reply's speaker is credited.
			s.Kind = KindToolResult
		}
		for _, c := range m.Calls {
			c.Name, c.Arguments = cleanName(c.Name), jsonArguments(c.Arguments)
			s.Edit().ToolCalls = append(s.ToolCalls(), c)
		}
		if len(s.ToolCalls()) > 0 {
			s.Kind = KindToolCall
			if s.Content == "" {
				s.Content = callText(s.ToolCalls())
			}
		}
		if s.Content == "" {
			continue
		}
		b.add(n, n.s.Start, 1, s)
		for k, c := range s.ToolCalls() {
			b.call(c, n.owner, len(b.steps)-1, k)
		}
		said = true
	}
	if !said {
		in := input()
		sc := &silentCall{node: n, seen: len(in)}
		if len(in) > 0 {
			sc.last = in[len(in)-1].Text
		}
		b.silent[n.owner] = sc
	}
}

// observations makes a step of each user message of a model call's input
// that follows the results of the agent's calls, after its last
// assistant message: what the environment shows the agent after its
// action, as a framework adds it (OpenManus's "Current browser state:"
// with the page's elements, after browser_use's result), which no span
// gives. It is the result of the call answered last, as that one's is;
// a message labelled as a framework labels its loop's parts
// ("Observation: …", "Thought: …") restates them.
func (b *builder) observations(n *node, in []chatMessage) {
	fresh := len(in)
	for fresh > 0 && !strings.EqualFold(in[fresh-1].Role, "assistant") {
		fresh--
	}
	if fresh == 0 || len(in[fresh-1].Calls) == 0 {
		return
	}
	call := "" // the call whose result came last
	for _, m := range in[fresh:] {
		user := strings.EqualFold(m.Role, "user") || strings.EqualFold(m.Role, "human")
		if !user || m.CallID != "" {
			if m.CallID != "" {
				call = m.CallID
			}
			continue
		}
		text := strings.TrimSpace(m.Text)
		if call == "" || text == "" || frameLabelled(text) || text == b.question {
			continue
		}
		b.add(n, n.s.Start, 0, Step{Agent: n.owner, Role: "user", Kind: KindToolResult, Content: m.Text, Extra: &Extra{ToolCallID: call, From: m.From}})
	}
}

// prompts makes a step of each prompt the program gives an agent after
// the task when it starts the agent's turn (the agent span enclosing model
// call n, the turn's first, whose input is in): a user message, past the last
// assistant message of its input (the agent has answered the earlier
// ones), that carries no tool's result and is not the task. A pipeline
// that hands one agent's output to the next as a new request writes it
// so; the model calls inside a turn are given the framework's own
// messages (observations, planning prompts), which are not read as
// prompts. The first turn's input is the task and its context; an input of
// one message is a text, not a conversation, whose role the reader could
// only assume; a prompt given before, one that a step just before holds
// (a call's argument when an agent is called as a tool), and one that an
// earlier step says word for word (a group chat's messages of the other
// agents) are not new.
func (b *builder) prompts(n *node, in []chatMessage) {
	first := b.begun == nil
	if first {
		b.begun, b.given = map[*node]bool{}, map[string]bool{}
	}
	b.begun[n.scope] = true
	b.userTurns(n, in, first)
}

// answersToAgent makes a step of each user message that a later model call
// of an agent already begun was given after the agent's reply, when that
// reply asked something ("Shall I go ahead?") or the user's messages follow
// it directly: the other party's answer, or a turn of its own ("Return the
// black one."), of the conversation the agent's span holds. Other user
// messages a framework adds within an agent's work follow its calls and
// their results (a planning prompt after tool messages), or its own
// working text, which asks no one and which the framework labels, as it
// labels what it adds ("Thought: …", "Observation: …").
func (b *builder) answersToAgent(n *node, in []chatMessage) {
	fresh := len(in)
	for fresh > 0 && !strings.EqualFold(in[fresh-1].Role, "assistant") {
		fresh--
	}
	if fresh == 0 || fresh == len(in) || len(in[fresh-1].Calls) > 0 {
		return
	}
	reply := in[fresh-1].Text
	asks := strings.HasSuffix(strings.TrimRightFunc(reply, func(r rune) bool { return unicode.IsSpace(r) || r == '*' || r == '"' || r == ')' }), "?")
	if !asks && !(repliedTo(in[fresh:]) && !frameLabelled(reply)) {
		return
	}
	b.userTurns(n, in, false)
}

// repliedTo reports whether the messages after an agent's reply are all
// user messages that carry no tool's result and none labelled as a
// framework labels what it adds.
func repliedTo(after []chatMessage) bool {
	for _, m := range after {
		if !strings.EqualFold(m.Role, "user") && !strings.EqualFold(m.Role, "human") || m.CallID != "" || frameLabelled(m.Text) {
			return false
		}
	}
	return true
}

// frameLabel is a text's opening label: one capitalised word and a colon
// ("Thought:", "Observation:"), as agent frameworks mark the parts of
// their loop.
var frameLabel = regexp.MustCompile(`^[A-Z][a-z]+:\s`)

// frameLabelled reports whether text opens with a frameLabel.
func frameLabelled(text string) bool { return frameLabel.MatchString(strings.TrimSpace(text)) }

// userTurns makes a step of each user message in, after its last
// assistant message, that is new: not given before, not the task, not
// said by a step made so far; none when first (the task's call).
func (b *builder) userTurns(n *node, in []chatMessage, first bool) {
	fresh := len(in)
	for fresh > 0 && !strings.EqualFold(in[fresh-1].Role, "assistant") {
		fresh--
	}
	for _, m := range in[fresh:] {
		user := strings.EqualFold(m.Role, "user") || strings.EqualFold(m.Role, "human")
		text := strings.TrimSpace(m.Text)
		if !user || text == "" || m.CallID != "" || b.given[text] {
			continue
		}
		b.given[text] = true
		if first || len(in) < 2 || strings.Contains(b.question, text) || presentsOthers(text) || b.saidJustBefore(text) || b.saidSoFar().has(text) {
			continue
		}
		who := "user"
		if name := cleanName(m.Name); name != "" {
			who = name // a participant of a group chat, named as OpenAI's messages name one
		} else if c := b.caller(n); c != "" {
			who = c
		}
		at := justBefore(n.s.Start)
		if n.s.Start == 0 && n.s.End == 0 {
			// A span whose file gives it no time (a log of calls that
			// records none): its turn is at its place in the file, as
			// its other steps are, not before every untimed step.
			at = 0
		}
		b.add(n, at, -1, Step{Agent: who, Role: "user", Kind: KindUser, Content: m.Text, Extra: &Extra{Target: n.owner, From: m.From}})
	}
}

// caller returns the agent whose call started the agent turn of the
// model call n: the owner of the span the turn's agent span runs under,
// when that is another agent with a tool call not yet answered (an agent
// called as a tool, or over A2A or MCP from a tool call, its service
// reached from the caller's). What the called agent is first given is
// then its caller's words, however the call's arguments were rewritten on
// the way, not the user's. "" when no other agent called it.
func (b *builder) caller(n *node) string {
	sc := n.scope
	if sc == nil || sc.parent == nil {
		return ""
	}
	c := sc.parent.owner
	if c == "" || SameAgent(c, n.owner) || b.openCount[AgentKey(c)] == 0 {
		return ""
	}
	return c
}

// presentsOthers reports whether a user message retells what other agents
// did, as Google ADK gives an agent the events of the agents before it
// ("For context:", then a line "[agent] said: …", "[agent] called tool …"
// or "[agent] `tool` tool returned result: …" for each): the steps it
// retells are steps already, and no one asked anything.
func presentsOthers(text string) bool {
	head, rest, ok := strings.Cut(text, "\n")
	return ok && strings.TrimSpace(head) == "For context:" && strings.HasPrefix(strings.TrimSpace(rest), "[")
}

// recentSteps is how many of the latest steps saidJustBefore reads.
const recentSteps = 8

// saidJustBefore reports whether one of the latest steps made holds text.
func (b *builder) saidJustBefore(text string) bool {
	for _, p := range b.steps[max(0, len(b.steps)-recentSteps):] {
		if strings.Contains(p.step.Content, text) {
			return true
		}
	}
	return false
}

// silentCall is an agent's latest model call whose output was not
// recorded (BeeAI's, streamed calls some instrumentations leave without
// one): the agent's next call repeats the conversation in its input, and
// the assistant messages it adds after the ones this call was given are
// this call's reply.
type silentCall struct {
	node *node
	seen int    // the messages of its input
	last string // the last of them, to check the next input repeats them
}

// replies makes the steps of a silent call's reply from the input of the
// agent's next model call: the assistant messages past those the silent
// call was given, when the input repeats those. A reply the next call
// also gives as its own output is left to it, and the calls a reply
// makes are left to the tool spans that ran them: only its words are
// made a step.
func (b *builder) replies(sc *silentCall, in, output []chatMessage) {
	if len(in) <= sc.seen || sc.seen > 0 && in[sc.seen-1].Text != sc.last {
		return
	}
	for _, m := range in[sc.seen:] {
		if !strings.EqualFold(m.Role, "assistant") || strings.TrimSpace(m.Text) == "" ||
			slices.ContainsFunc(output, func(o chatMessage) bool { return o.Text == m.Text }) {
			continue
		}
		b.add(sc.node, sc.node.s.Start, 1, Step{Agent: sc.node.owner, Role: "assistant", Kind: KindMessage, Content: m.Text, Extra: &Extra{From: m.From + " of the next call"}})
	}
}

// chatRoles are the roles chat messages take by convention (lower case):
// a role outside them may be a tool's name.
var chatRoles = map[string]bool{"user": true, "human": true, "system": true, "developer": true, "assistant": true, "ai": true, "model": true, "tool": true, "function": true, "ipython": true}

// tool makes the steps of a tool or retrieval span: the call, unless a
// model's output made it already, and the result.
func (b *builder) tool(n *node) {
	if repeatsCall(n) {
		return // the call around it speaks for it
	}
	c := toolCall(n.s, n.role)
	event := ""
	if m := toolEventSpan.FindStringSubmatch(n.s.Name); m != nil && firstStr(n.s.Attrs, toolNameKeys...) == "" {
		c, event = eventCall(n.s, c), m[2]
		if c.Name == "" {
			c.Name = cleanName(m[1])
		}
	}
	switch event {
	case "start": // the call; its result comes in a sibling span
		if c.ID != "" && b.callsByID[c.ID] != nil {
			return // the model's call, a step already (answered, when a sibling span started first)
		}
		b.add(n, n.s.Start, 0, Step{Agent: n.owner, Role: "assistant", Kind: KindToolCall, Content: callText([]ToolCall{c}), Extra: &Extra{ToolCalls: []ToolCall{c}, From: "tool span"}})
		b.call(c, n.owner, len(b.steps)-1, 0)
		return
	case "finish", "retry":
		if len(spanErrors(n.s)) == 0 {
			return
		}
	}
	result, from := toolResult(n.s, n.role)
	answered := result != "" || len(spanErrors(n.s)) > 0
	// A run that records no result leaves the model's call open: the
	// result may yet come in the model's next input.
	oc := b.madeCall(c, n.owner)
	if oc != nil && answered {
		b.settle(oc)
	}
	made := oc != nil
	var id string
	if made {
		id = oc.id
		b.withArguments(oc, c.Arguments)
	}
	// A call no model output made, run while the agent acts on its last
	// model message (code that message wrote and the agent ran, a call
	// its output did not record as one), is that message's action: it is
	// written into its result, as "name(arguments) -> result", rather
	// than made a decision of its own.
	folded := !made && event == "" && answered && b.acting[n.owner]
	if folded && n.role == roleRetrieval {
		// A retrieval run on the agent's last model message, when that
		// message is the query it was given (a pipeline's rewrite of the
		// question into a search query), is that message's call: the
		// message chose what was searched for. A reranking is a call of
		// its own: it chose which chunks were kept, not what was sought.
		if reranks(n.s) {
			folded = false
		} else if k := b.queryWriter(n.owner, c.Arguments); k >= 0 {
			id, made, folded = b.attachCall(k, c, n.owner), true, false
		}
	}
	if !made && event == "" && !folded {
		b.add(n, n.s.Start, 0, Step{Agent: n.owner, Role: "assistant", Kind: KindToolCall, Content: callText([]ToolCall{c}), Extra: &Extra{ToolCalls: []ToolCall{c}, From: "tool span"}})
	}
	if id == "" {
		id = c.ID
	}
	if !answered {
		if made {
			n.ran = id
		}
		return
	}
	if folded {
		result = callText([]ToolCall{c}) + " -> " + result
	}
	end := n.s.End
	if end < n.s.Start {
		end = n.s.Start
	}
	b.add(n, end, 2, Step{Agent: n.owner, Role: "tool", Kind: KindToolResult, Content: result, Extra: &Extra{ToolCallID: id, From: from}})
}

// reranks reports whether a retrieval span reranks chunks it was given
// (OpenInference's RERANKER) rather than searching for them.
func reranks(s *spans.Span) bool {
	return strings.EqualFold(s.Attrs.Str("openinference.span.kind"), "RERANKER") || hasAnyAttr(s.Attrs, "reranker.query")
}

// queryWriter returns the step of the agent's last model message, when
// its text is the query a retrieval was given (args: the query as text,
// or a JSON object one of whose strings it is), whatever the case and
// spacing; -1 otherwise.
func (b *builder) queryWriter(agent, args string) int {
	k := len(b.steps) - 1
	for k >= 0 && (b.steps[k].step.Agent != agent || b.steps[k].step.Kind == KindToolResult) {
		k--
	}
	if k < 0 || b.steps[k].sub != 1 || b.steps[k].step.Kind != KindMessage {
		return -1
	}
	said := plainQuery(b.steps[k].step.Content)
	if said == "" {
		return -1
	}
	queries := []string{args}
	var obj map[string]any
	if json.Unmarshal([]byte(args), &obj) == nil {
		queries = queries[:0]
		for _, v := range obj {
			if q, ok := v.(string); ok {
				queries = append(queries, q)
			}
		}
	}
	if slices.ContainsFunc(queries, func(q string) bool { return plainQuery(q) == said }) {
		return k
	}
	return -1
}

// plainQuery is a query's words in lower case, single-spaced, without
// the quotes a model may put around it.
func plainQuery(q string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.Trim(strings.TrimSpace(q), `"'`+"`"))), " ")
}

// attachCall makes the model message of step k the one that made call c
// of the agent, answered by the span that ran it, and returns the call's
// id.
func (b *builder) attachCall(k int, c ToolCall, agent string) string {
	s := &b.steps[k].step
	e := s.Edit()
	e.ToolCalls = append(e.ToolCalls, c)
	s.Kind = KindToolCall
	b.call(c, agent, k, len(e.ToolCalls)-1)
	if oc := b.made(c, agent); oc != nil {
		return oc.id
	}
	return c.ID
}

// repeatsCall reports whether a tool span is the call of the tool span
// around it seen from the other side: the MCP conventions give a tool
// call a client span and, through the context MCP propagates in
// params._meta, a server span inside it, both execute_tool spans of the
// same tool with the same arguments. The caller's span, which recorded a
// result or an error, speaks for both.
func repeatsCall(n *node) bool {
	p := n.tool
	if p == nil || n.role != roleTool {
		return false
	}
	c, pc := toolCall(n.s, n.role), toolCall(p.s, p.role)
	if c.Name == "" || c.Name != pc.Name || !sameJSON(c.Arguments, pc.Arguments) {
		return false
	}
	result, _ := toolResult(p.s, p.role)
	return result != "" || len(spanErrors(p.s)) > 0
}

// emitterEvent reports whether a span records one event of an event
// emitter (BeeAI's instrumentation writes each event of its emitter as a
// span named for the event's target and number, agent.react.update-14,
// with the target as an attribute). Such a span happened at its start: it
// ends whenever the emitter closed it, with the whole run.
func emitterEvent(s *spans.Span) bool {
	target := s.Attrs.Str("target")
	if target == "" || !strings.HasPrefix(s.Name, target+"-") {
		return false
	}
	n := s.Name[len(target)+1:]
	return n != "" && strings.Trim(n, "0123456789") == ""
}

// toolEventSpan matches the spans an event emitter writes for one run of a
// tool, each event a span of its own named after the tool, the event and
// the run's number (BeeAI's tool.search.wikipedia.start-12, then
// .success-12 with the output and .finish-12): one call and its result.
var toolEventSpan = regexp.MustCompile(`^(?:tool\.)?(.+?)\.(start|success|error|finish|retry)-\d+$`)

// eventCall reads the call a tool's event span ran, beyond what toolCall
// reads: BeeAI's instrumentations write the arguments a run was given in
// tool.parameters (OpenInference's name for a tool's declared parameters),
// and the JavaScript one keeps the run's context in the span's metadata,
// with the model's call it answers (an AI SDK tool-call part: the tool's
// own name, the call's id and arguments). The name is empty when no
// attribute gives it: the span's name does.
func eventCall(s *spans.Span, c ToolCall) ToolCall {
	if emptyArguments(c.Arguments) {
		c.Arguments = jsonArguments(s.Attrs.Str("tool.parameters"))
	}
	c.Name = ""
	md := s.Attrs.Str("metadata")
	if !strings.Contains(md, `"tool-call"`) {
		return c
	}
	var m map[string]any
	if json.Unmarshal([]byte(md), &m) != nil {
		return c
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if p, ok := m[k].(map[string]any); ok && p["type"] == "tool-call" {
			if mc := aiSDKCall(p); mc.Name != "" {
				return mc
			}
		}
	}
	return c
}

// call records a call a model made (the k-th call of step), to be
// answered by a tool span or a tool message.
func (b *builder) call(c ToolCall, agent string, step, k int) {
	oc := &openCall{id: c.ID, agent: AgentKey(agent), step: step, call: k}
	b.unanswered++
	b.openCount[oc.agent]++
	b.openOf[oc.agent] = append(b.openOf[oc.agent], oc)
	if c.ID != "" {
		b.callsByID[c.ID] = oc
	}
	key := oc.agent + "\x00" + c.Name
	b.callsByName[key] = append(b.callsByName[key], oc)
}

// settle marks an open call answered.
func (b *builder) settle(oc *openCall) {
	oc.answered = true
	b.unanswered--
	b.openCount[oc.agent]--
}

// answer marks the open call with this id answered and returns it; nil
// when there is none.
func (b *builder) answer(id string) *openCall {
	oc := b.callsByID[id]
	if oc == nil || oc.answered {
		return nil
	}
	b.settle(oc)
	return oc
}

// made returns the call a model already made that the tool span ran,
// marked answered (madeCall); nil when there is none.
func (b *builder) made(c ToolCall, agent string) *openCall {
	oc := b.madeCall(c, agent)
	if oc != nil {
		b.settle(oc)
	}
	return oc
}

// madeCall returns the unanswered call a model made that the tool span
// ran: by id, else the oldest of the same tool by the same agent (tool
// spans often carry no call id), else, for a span named by a LangChain
// tool class rather than its tool, the oldest of the agent's calls with
// the same arguments; nil when there is none.
func (b *builder) madeCall(c ToolCall, agent string) *openCall {
	if oc := b.callsByID[c.ID]; c.ID != "" && oc != nil && !oc.answered {
		return oc
	}
	k := AgentKey(agent) + "\x00" + c.Name
	q := b.callsByName[k]
	for len(q) > 0 && q[0].answered {
		q = q[1:]
	}
	b.callsByName[k] = q
	if len(q) > 0 {
		return q[0]
	}
	if !langChainToolClasses[c.Name] || emptyArguments(c.Arguments) {
		return nil
	}
	return b.oldestOpen(agent, func(args string) bool { return sameJSON(args, c.Arguments) })
}

// oldestOpen returns the agent's oldest unanswered call whose arguments
// match; nil when there is none. The agent's answered calls are dropped
// from its list as they are met, so that each is passed over once.
func (b *builder) oldestOpen(agent string, match func(args string) bool) *openCall {
	var found *openCall
	key := AgentKey(agent)
	q := b.openOf[key][:0]
	for _, oc := range b.openOf[key] {
		if oc.answered {
			continue
		}
		q = append(q, oc)
		if (found == nil || oc.step < found.step || oc.step == found.step && oc.call < found.call) && match(b.steps[oc.step].step.ToolCalls()[oc.call].Arguments) {
			found = oc
		}
	}
	clear(b.openOf[key][len(q):])
	b.openOf[key] = q
	return found
}

// langChainToolClasses are the classes of LangChain.js's tools: a tracer
// that names a tool's span by its class (OpenLIT's LangChain callbacks
// do, for every tool made with tool()) names no tool.
var langChainToolClasses = map[string]bool{"DynamicStructuredTool": true, "DynamicTool": true, "StructuredTool": true}

// sameJSON reports whether two arguments are the same JSON value, however
// they are spaced; texts that are not JSON are compared as they are.
func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return a == b
	}
	return reflect.DeepEqual(x, y)
}

// withArguments gives a call its tool span's arguments when the model's
// record of it holds none (some frameworks log a call's name with empty
// arguments, and the tool span the ones it ran with); a step whose text
// was its calls is written again.
func (b *builder) withArguments(oc *openCall, args string) {
	if emptyArguments(args) {
		return
	}
	s := &b.steps[oc.step].step
	if oc.call >= len(s.ToolCalls()) || !emptyArguments(s.ToolCalls()[oc.call].Arguments) {
		return
	}
	wasCalls := s.Content == callText(s.ToolCalls())
	s.ToolCalls()[oc.call].Arguments = args
	if wasCalls {
		s.Content = callText(s.ToolCalls())
	}
}

// emptyArguments reports whether a call's arguments say nothing.
func emptyArguments(args string) bool {
	switch strings.TrimSpace(args) {
	case "", "{}", "null":
		return true
	}
	return false
}

// callText renders calls for a step that has no text of its own.
func callText(calls []ToolCall) string {
	var lines []string
	for _, c := range calls {
		lines = append(lines, c.Name+"("+c.Arguments+")")
	}
	return strings.Join(lines, "\n")
}

// dropEchoes drops the result of a tool that ran an agent (an agent used
// as a tool, a handoff) when it only repeats the last step made inside it:
// the same message would otherwise appear twice.
func (b *builder) dropEchoes() {
	last := map[*node]int{} // tool node → its latest inner step
	later := func(t *node, i int) {
		if j, ok := last[t]; !ok || b.before(j, i) {
			last[t] = i
		}
	}
	for i, p := range b.steps {
		if !p.task && p.node.tool != nil {
			later(p.node.tool, i)
		}
	}
	b.besideTools(last, later)
	// A tool inside a tool: the outer one's latest step may be the inner
	// one's. Deepest first, so that each passes on its final answer.
	var tools []*node
	for t := range last {
		tools = append(tools, t)
	}
	sort.Slice(tools, func(i, j int) bool {
		return tools[i].depth > tools[j].depth || tools[i].depth == tools[j].depth && tools[i].order < tools[j].order
	})
	for _, t := range tools {
		for o := t.tool; o != nil; o = o.tool {
			if j, ok := last[o]; ok && !b.before(j, last[t]) {
				break
			}
			later(o, last[t])
		}
	}
	// A tool span that recorded no result has it in the model input that
	// answers its call (ran): that result is the tool's too.
	given := map[string][]int{}
	for n := range last {
		if n.ran != "" {
			given[n.ran] = nil
		}
	}
	if len(given) > 0 {
		for i, p := range b.steps {
			if id := p.step.ToolCallID(); p.step.Kind == KindToolResult && id != "" {
				if _, ok := given[id]; ok {
					given[id] = append(given[id], i)
				}
			}
		}
	}
	drop := map[int]bool{}
	for n, inner := range last {
		results := n.steps
		if n.ran != "" {
			results = slices.Concat(n.steps, given[n.ran])
		}
		for _, i := range results {
			s := b.steps[i].step
			if s.Kind == KindToolResult && echoes(s.Content, b.steps[inner].step.Content) {
				drop[i] = true
			}
		}
	}
	if len(drop) == 0 {
		return
	}
	b.said = nil // the steps it has read move
	kept := b.steps[:0]
	for i, p := range b.steps {
		if !drop[i] {
			kept = append(kept, p)
		}
	}
	b.steps = kept
	for _, n := range b.nodes {
		n.steps = n.steps[:0]
	}
	for i, p := range b.steps {
		if !p.task {
			p.node.steps = append(p.node.steps, i)
		}
	}
}

// besideTools passes on, for a tool span with no step inside it, the
// steps of the agent it ran beside it: a record that can hold nothing
// inside a tool call (Maxim's tool calls, Galileo's tool spans) logs the
// agent the tool ran under the tool's parent, so an agent span beside the
// tool that runs within the tool's time (start and end), or, for a tool
// that records no end (Galileo's), the first such tool starting once the
// agent ended, is what the tool ran.
func (b *builder) besideTools(last map[*node]int, later func(t *node, i int)) {
	tools := map[*node][]*node{} // by parent: its tool spans with no step inside
	for _, t := range b.nodes {
		if _, inside := last[t]; t.role == roleTool && t.parent != nil && !inside {
			tools[t.parent] = append(tools[t.parent], t)
		}
	}
	if len(tools) == 0 {
		return
	}
	ran := map[*node]*node{} // agent span → the tool beside it that ran it
	for _, a := range b.nodes {
		if a.role != roleAgent || a.parent == nil || a.s.End < a.s.Start {
			continue
		}
		for _, t := range tools[a.parent] {
			within := t.s.Start <= a.s.Start && a.s.End <= t.s.End
			if within || t.s.End <= t.s.Start && a.s.End <= t.s.Start {
				ran[a] = t
				break
			}
		}
	}
	if len(ran) == 0 {
		return
	}
	for i, p := range b.steps {
		if p.task {
			continue
		}
		for n := p.node; n != nil; n = n.parent {
			if t := ran[n]; t != nil {
				later(t, i)
				break
			}
		}
	}
}

// echoes reports whether a tool's result says what an agent's step said:
// the same text, or that text as a JSON string (a program that writes a
// tool's result with JSON.stringify quotes an agent's answer).
func echoes(result, said string) bool {
	r, t := strings.TrimSpace(result), strings.TrimSpace(said)
	if r == t {
		return true
	}
	var u string
	return strings.HasPrefix(r, `"`) && json.Unmarshal([]byte(r), &u) == nil && strings.TrimSpace(u) == t
}

// before reports whether step i is ordered before step j.
func (b *builder) before(i, j int) bool {
	x, y := b.steps[i], b.steps[j]
	if x.time != y.time {
		return x.time < y.time
	}
	// Of the steps at one tick, those of spans that began before it come
	// first: a span ending on the tick another starts (a tool, and the
	// model call given its result, on a millisecond clock) ran first, and
	// its steps at that time (a result, read at its end) come before the
	// other's (what a model answered, read at its start). A key of each
	// step, not a rule for a pair, keeps the order one sort can follow
	// however many spans share the tick.
	if xe, ye := x.time > x.node.s.Start, y.time > y.node.s.Start; xe != ye {
		return xe
	}
	if x.depth != y.depth {
		return x.depth < y.depth
	}
	if x.order != y.order {
		return x.order < y.order
	}
	return x.sub < y.sub
}

// untracedResults gives a step to each iteration of an agent (a span
// directly inside an agent span, such as smolagents' "Step N") in which
// a model call acted without any tool span recording it (code the agent
// ran itself, an agent it called directly): the iteration's output is
// then the only record of the action's result. It is a tool result of
// the agent, at the iteration's end, unless a step read from the spans
// already says it; an earlier iteration's output that says the same is
// no such step (the same code run again printed it again).
func (b *builder) untracedResults(byTime []*node) {
	toolInside := b.within(roleTool, true)
	modelInside := b.within(roleLLM, true)
	said := b.saidSoFar()
	var last map[*node]int64
	for _, n := range byTime {
		if n.role != roleOther || n.parent == nil || n.parent.role != roleAgent || !modelInside[n] || toolInside[n] {
			continue
		}
		if last == nil {
			last = b.lastInside()
		}
		for _, m := range agentOutput(n.s) {
			if t := strings.TrimSpace(m.Text); t != "" && !said.has(t) {
				b.add(n, outputTime(n, last), 2, Step{Agent: n.owner, Role: "tool", Kind: KindToolResult, Content: t, Extra: &Extra{From: m.From}})
			}
		}
	}
}

// lastInside maps each span with spans inside it to the latest start or
// end of any of them, at any depth.
func (b *builder) lastInside() map[*node]int64 {
	out := map[*node]int64{}
	for _, n := range b.nodes {
		t := max(n.s.Start, n.s.End)
		for p := n.parent; p != nil; p = p.parent {
			if was, ok := out[p]; ok && was >= t {
				break
			}
			out[p] = t
		}
	}
	return out
}

// outputTime is when a span's own output is read: at its end, or just
// after the last of the spans inside it where one ends later. An
// exporter that writes a span's end as its start (a record made as the
// span opens) would otherwise lay the output of an agent's iteration
// before the model call that made it.
func outputTime(n *node, last map[*node]int64) int64 {
	t := max(n.s.End, n.s.Start)
	if l, ok := last[n]; ok && l >= t {
		return justAfter(l)
	}
	return t
}

// saidTexts are the texts steps say. JSON is compared without its white
// space (a framework may write the same object with and without spaces),
// as hashes made when first needed: most of a long trace's steps are not
// JSON, and its texts are most of its memory.
type saidTexts struct {
	exact    map[string]bool // trimmed
	json     []string        // the trimmed texts that look like JSON
	compact  map[uint64]bool // hashes of json, without white space; nil until needed
	hashedTo int             // how many of json compact holds
}

// saidSeed seeds the hashes of saidTexts.
var saidSeed = maphash.MakeSeed()

// saidSoFar returns the texts of the steps made so far: gathered when
// first asked for, and kept up with from there.
func (b *builder) saidSoFar() *saidTexts {
	if b.said == nil {
		b.said, b.saidUpTo = &saidTexts{exact: map[string]bool{}}, 0
	}
	for ; b.saidUpTo < len(b.steps); b.saidUpTo++ {
		b.said.record(strings.TrimSpace(b.steps[b.saidUpTo].step.Content))
	}
	return b.said
}

// record adds a trimmed text.
func (s *saidTexts) record(t string) {
	s.exact[t] = true
	if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		s.json = append(s.json, t)
	}
}

// has reports whether text is said: word for word, or for JSON, with
// other white space.
func (s *saidTexts) has(text string) bool {
	t := strings.TrimSpace(text)
	if s.exact[t] {
		return true
	}
	if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		return false
	}
	if s.compact == nil {
		s.compact = map[uint64]bool{}
	}
	for ; s.hashedTo < len(s.json); s.hashedTo++ {
		s.compact[compactHash(s.json[s.hashedTo])] = true
	}
	return s.compact[compactHash(t)]
}

// add records text and reports whether it is new (has).
func (s *saidTexts) add(text string) bool {
	if s.has(text) {
		return false
	}
	s.record(strings.TrimSpace(text))
	return true
}

// compactHash hashes text without its white space.
func compactHash(text string) uint64 {
	var h maphash.Hash
	h.SetSeed(saidSeed)
	var buf [512]byte
	n := 0
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		if !unicode.IsSpace(r) {
			n += copy(buf[n:], text[i:i+size])
		}
		i += size
		if n > len(buf)-utf8.UTFMax {
			h.Write(buf[:n])
			n = 0
		}
	}
	h.Write(buf[:n])
	return h.Sum64()
}

// silentAgents gives a step to each agent span in which no model said
// anything (nothing inside it made a step, or only its tools and the
// agents they ran did, its model calls' output not recorded): its output,
// at its end, unless a step already says it (an event emitter's agent
// spans, BeeAI's agent.react.update and partial_update, repeat the tool's
// output and the agent's answer as the agent's state changes). A model's
// message speaks for every agent span around it up to the nearest tool: an
// agent called as a tool speaks for itself. Where a run holds only the
// records of its traces (Langfuse's, their input and output), as Langfuse
// lists a trace without its observations, each is read so too, its
// request first.
func (b *builder) silentAgents(byTime []*node) {
	// Trace records speak where they are all the run holds.
	records := !slices.ContainsFunc(b.nodes, func(n *node) bool { return !traceRecord(n.s) })
	speaker := func(n *node) bool { return n.role == roleAgent || records }
	spoke := map[*node]bool{}  // agent spans a model's message inside speaks for
	walked := map[*node]bool{} // spans walked up from: what is above them is marked
	for _, p := range b.steps {
		if p.task || p.sub != 1 {
			continue
		}
		for n := p.node; n != nil && !walked[n] && n.role != roleTool && n.role != roleRetrieval; n = n.parent {
			walked[n] = true
			if speaker(n) {
				spoke[n] = true
			}
		}
	}
	for _, n := range byTime {
		if !speaker(n) || spoke[n] {
			continue
		}
		if records {
			// A later turn of a session: what the user asked in it comes
			// before its answer (the first turn's is the task).
			if t, from := trailingUserText(agentInput(n.s)); t != "" && b.saidSoFar().add(t) {
				b.add(n, n.s.Start, 0, Step{Agent: "user", Role: "user", Kind: KindUser, Content: t, Extra: &Extra{From: from}})
			}
		}
		c, ran := ranTool(n.s)
		for _, m := range agentOutput(n.s) {
			if m.Text == "" || !b.saidSoFar().add(m.Text) {
				continue
			}
			if ran {
				// The output of a tool the agent ran with no span of
				// its own: its call, then its result.
				b.add(n, n.s.Start, 0, Step{Agent: n.owner, Role: "assistant", Kind: KindToolCall, Content: callText([]ToolCall{c}), Extra: &Extra{ToolCalls: []ToolCall{c}, From: "agent span's tool"}})
				b.add(n, max(n.s.End, n.s.Start), 2, Step{Agent: n.owner, Role: "tool", Kind: KindToolResult, Content: m.Text, Extra: &Extra{From: m.From}})
				continue
			}
			b.add(n, max(n.s.End, n.s.Start), 3, Step{Agent: n.owner, Role: "assistant", Kind: KindMessage, Content: m.Text, Extra: &Extra{From: m.From}})
		}
	}
}

// ranTool returns the tool call an agent span names beside its output,
// as an event emitter's agent state does while a tool runs (BeeAI's
// agent.react.update: the tool's tool.name and tool.parameters, its
// output the span's): the span's output is then that tool's result, not
// the agent's message. A span that names a tool without the arguments it
// was given is not one.
func ranTool(s *spans.Span) (ToolCall, bool) {
	name := strings.TrimSpace(s.Attrs.Str("tool.name"))
	args := jsonArguments(s.Attrs.Str("tool.parameters"))
	if name == "" || emptyArguments(args) {
		return ToolCall{}, false
	}
	return ToolCall{Name: name, Arguments: args}, true
}

// errors attaches every span's error lines to the step of its span or of
// the nearest enclosing span that has one. An error that propagates up the
// tree is reported where it started: a span with a failed span inside it
// adds nothing. Descendants come first, so that is where it is attached.
func (b *builder) errors(byTime []*node) {
	failedBelow := map[*node]bool{}
	handedBelow := map[*node]bool{}
	repeated := b.repeatedErrors()
	for i := len(byTime) - 1; i >= 0; i-- {
		n := byTime[i]
		if repeated[n] {
			continue
		}
		if h, ok := spanHandoff(n.s); ok && !handedBelow[n] {
			// Reported where it was raised, as a step of its own: the
			// exception climbs every enclosing span.
			for p := n.parent; p != nil && !handedBelow[p]; p = p.parent {
				handedBelow[p] = true
			}
			b.add(n, max(n.s.End, n.s.Start), 4, Step{Agent: n.owner, Role: "assistant", Kind: KindHandoff, Content: h.Text, Extra: &Extra{Target: h.Target, From: "exception event (control flow)"}})
		}
		lines := spanErrors(n.s)
		if len(lines) == 0 || failedBelow[n] || statusInsideFailedCall(n) {
			continue
		}
		if repeatsCall(n) && len(spanErrors(n.tool.s)) > 0 {
			continue // the call around it reports its error
		}
		for p := n.parent; p != nil && !failedBelow[p]; p = p.parent {
			failedBelow[p] = true
		}
		text := strings.Join(lines, "\n")
		at := n
		for at != nil && len(at.steps) == 0 {
			at = at.parent
		}
		if at == nil || (n.role != roleOther && at != n && !repeatsCall(n)) {
			// An agent, model or tool span whose failure no step of its
			// own shows is a step of its own.
			b.add(n, max(n.s.End, n.s.Start), 4, Step{Agent: n.owner, Role: roleRuntimeFailure, Kind: KindMessage, Content: text, Extra: &Extra{From: "span status and exception events"}})
			continue
		}
		s := &b.steps[at.steps[len(at.steps)-1]].step
		switch {
		case s.Content == "":
			s.Content = text
			s.Edit().From = "span status and exception events"
		case strings.TrimSpace(s.Content) == strings.TrimPrefix(text, "Error: "),
			strings.TrimSpace(s.Content) == strings.TrimSpace(stackless(n.s.Status.Message)):
			// A result that is the error's message alone (a tool error
			// given back as its result, as an MCP tool's is, its error line
			// naming its type, tool_error, or not) reads as the error, once.
			s.Content = text
		case !strings.Contains(s.Content, text): // a result may say its error already
			s.Content += "\n" + text
		default:
			// A result that says its error within a line (a tool runner's
			// note, then the error it caught) has the error, as spanErrors
			// writes the span's status, begin a line: an error is read
			// where a line begins.
			k := strings.Index(s.Content, text)
			if before := strings.TrimRight(s.Content[:k], " \t"); before != "" && !strings.HasSuffix(before, "\n") {
				s.Content = before + "\n" + s.Content[k:]
			}
		}
	}
}

// statusInsideFailedCall reports whether a span of no convention inside a
// tool's call only marks the call failed: its status is an error but it
// raised no exception, and the tool span around it records an error of its
// own. That error says what failed, as the caller saw it (an MCP SDK's own
// spans of a tool's run set their status to a fixed "tool returned error
// result" when the tool answers with an error result, whose text only the
// caller's span keeps).
func statusInsideFailedCall(n *node) bool {
	if n.role != roleOther || n.tool == nil || slices.ContainsFunc(n.s.Events, func(e spans.Event) bool { return e.Name == "exception" }) {
		return false
	}
	return len(spanErrors(n.tool.s)) > 0
}

// repeatedErrors returns the spans whose error status only repeats an
// error that ended an earlier span: some span processors copy the first
// error of a trace onto the status of every span that ends after it. Such
// a span raised no exception of its own, and did its work (its steps say
// something: a model's answer, a tool's result); the error stays with the
// span that ended first with it, unless that span is a call's other side
// (repeatsCall), for which the call around it reports.
func (b *builder) repeatedErrors() map[*node]bool {
	first := map[string]*node{} // by status message: the span that ended first with it
	for _, n := range b.nodes {
		if msg := strings.TrimSpace(n.s.Status.Message); n.s.Status.Code == spans.StatusError && msg != "" && !repeatsCall(n) {
			if f, ok := first[msg]; !ok || n.s.End < f.s.End {
				first[msg] = n
			}
		}
	}
	var out map[*node]bool
	for _, n := range b.nodes {
		msg := strings.TrimSpace(n.s.Status.Message)
		f, ok := first[msg]
		if !ok || f == n || n.s.Status.Code != spans.StatusError || slices.ContainsFunc(n.s.Events, func(e spans.Event) bool { return e.Name == "exception" }) {
			continue
		}
		if !slices.ContainsFunc(n.steps, func(i int) bool { return strings.TrimSpace(b.steps[i].step.Content) != "" }) {
			continue
		}
		if out == nil {
			out = map[*node]bool{}
		}
		out[n] = true
	}
	return out
}

// handoffs marks, for each agent span, the step that handed the work to
// it as addressed to that agent: for the first agent a tool ran (an agent
// used as a tool, a sub-agent's task), the latest step before it that made
// the tool's call (a call id may come again: some servers number each
// reply's calls from zero); else the step just before the agent's first
// one, when another agent spoke it. Sub-agents run side by side each get
// the call that ran them, not what the other did just before; an agent
// the first hands the work to inside the tool gets it from the first.
func (b *builder) handoffs(r *Run, stepNodes []*node) {
	callSteps := map[string][]int{} // a call id → the steps that made a call of it, in order
	for i := range r.Steps {
		for _, c := range r.Steps[i].ToolCalls() {
			if c.ID != "" {
				callSteps[c.ID] = append(callSteps[c.ID], i)
			}
		}
	}
	ranCall := map[*node]string{} // a tool span → the id of the call it ran
	for i, n := range stepNodes {
		if id := r.Steps[i].ToolCallID(); id != "" && r.Steps[i].Kind == KindToolResult && ranCall[n] == "" {
			ranCall[n] = id
		}
	}
	done := map[*node]bool{}
	ranAgent := map[*node]bool{} // a tool span → whether an agent inside it was seen
	for i, n := range stepNodes {
		scope := n.scope
		if scope == nil || done[scope] || r.Steps[i].Kind == KindUser {
			continue
		}
		done[scope] = true
		if t := scope.tool; t != nil && !ranAgent[t] {
			ranAgent[t] = true
			id := ranCall[t]
			if id == "" {
				id = t.ran
			}
			made := callSteps[id]
			for len(made) > 0 && made[len(made)-1] >= i {
				made = made[:len(made)-1]
			}
			if len(made) > 0 && !SameAgent(r.Steps[made[len(made)-1]].Agent, scope.owner) {
				if k := made[len(made)-1]; r.Steps[k].Target() == "" {
					r.Steps[k].Edit().Target = scope.owner
				}
				continue
			}
		}
		if i == 0 {
			continue
		}
		prev := &r.Steps[i-1]
		if prev.Target() == "" && !SameAgent(prev.Agent, scope.owner) {
			prev.Edit().Target = scope.owner
		}
	}
}
