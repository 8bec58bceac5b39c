package run

import (
	"slices"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// taskKinds are the span kinds, as a flat span list writes them, of spans
// that run a piece of a program: Braintrust's task and function spans. Its
// integrations (the OpenAI Agents SDK's, LangChain's and LangGraph's) log
// each agent's turn as one, named for the agent, as they do the workflow
// around the agents and the steps inside an agent (a turn, a graph's
// node, a chain). LangSmith's chain runs and Opik's general spans are the
// same: their SDKs' traceable and tracked functions log a program's
// agents as chains or general spans named for them; so do Literal AI's run
// steps and Maxim's spans.
var taskKinds = []string{"TASK", "FUNCTION", "GENERAL", "RUN", "SPAN"}

// isTaskSpan reports whether a span is one of taskKinds, a LangSmith
// chain run, a call record that names only the function it ran (op_name,
// as Weave's calls do), a function Laminar's observe() traced (its
// lmnr.span.path, of no type or DEFAULT), a span PostHog's LLM
// analytics captured ($ai_span), or a span of a Langtrace SDK that no
// instrumentation of a service wrote (its langtrace.sdk.name and no
// langtrace.service.type: withLangTraceRootSpan's, the SDK's one way to
// name a piece of a program), or a function HoneyHive's tracer traced as a
// chain, that no convention gave a role or an agent.
func isTaskSpan(n *node) bool {
	if n.role != roleOther || n.name != "" {
		return false
	}
	if strings.EqualFold(n.s.Attrs.Str("langsmith.run_type"), "chain") || n.s.Attrs.Str("op_name") != "" {
		return true
	}
	if t := n.s.Attrs.Str("lmnr.span.type"); hasAnyAttr(n.s.Attrs, "lmnr.span.path") && (t == "" || strings.EqualFold(t, "DEFAULT")) {
		return true
	}
	if n.s.Attrs.Str("posthog.event") == "$ai_span" || langfuseSDKSpan(n.s) || langtraceSDKSpan(n.s) || honeyhiveChain(n.s) {
		return true
	}
	k := n.s.Attrs.Str("openinference.span.kind")
	for _, t := range taskKinds {
		if strings.EqualFold(k, t) {
			return true
		}
	}
	return false
}

// taskAgents makes agent spans of the task spans that stand for an agent,
// read as the agent spans of the conventions are, so that each model call
// and tool belongs to the nearest one. A task span with a model call in it,
// and no span inside that a convention names, is a candidate; one is a
// team when, somewhere inside it, candidates of two names sit side by
// side (the workflow around two agents, a graph around its nodes), or when it calls the model itself beside a candidate
// inside it (a supervisor and the agent it runs). A model call's agent is
// the outermost candidate around it that is no team (the agent's own
// span, not the turns and chains inside it, which repeat under every
// agent), else the nearest team (a supervisor calling the model itself).
// What a tool runs starts afresh: an agent called as a tool is an agent
// of its own.
func (b *builder) taskAgents() {
	if !slices.ContainsFunc(b.nodes, isTaskSpan) {
		return // most traces: nothing to walk
	}
	b.calledTasks()
	modelIn := map[*node]bool{} // has a model call inside, short of any tool
	namedIn := map[*node]bool{} // has a span inside that a convention named an agent's
	for _, n := range b.nodes {
		if n.name != "" {
			for p := n.parent; p != nil && !namedIn[p] && p.role != roleTool; p = p.parent {
				namedIn[p] = true
			}
		}
		if n.role != roleLLM {
			continue
		}
		for p := n; p != nil && !modelIn[p] && p.role != roleTool; p = p.parent {
			modelIn[p] = true
		}
	}
	order := b.preorder()
	// A task span around spans a convention names (LangGraph's nodes in
	// LangSmith, by their langgraph_node) is no agent: those names are.
	candidate := func(n *node) bool { return modelIn[n] && !namedIn[n] && isTaskSpan(n) }
	// nearest holds, for each span, the nearest candidate around it or
	// itself, short of any tool.
	nearest := make(map[*node]*node, len(order))
	above := map[*node]*node{} // a candidate's nearest candidate around it
	direct := map[*node]bool{} // a candidate calling the model itself
	for _, n := range order {
		var up *node
		if p := n.parent; p != nil && p.role != roleTool {
			up = nearest[p]
		}
		nearest[n] = up
		switch {
		case candidate(n):
			above[n], nearest[n] = up, n
		case n.role == roleLLM && up != nil:
			direct[up] = true
		}
	}
	team := map[*node]bool{}
	names := map[*node]map[string]bool{} // by candidate: its nearest candidates' names
	for i := len(order) - 1; i >= 0; i-- {
		c := order[i]
		p, ok := above[c]
		if !ok || p == nil {
			continue
		}
		if names[p] == nil {
			names[p] = map[string]bool{}
		}
		names[p][AgentKey(c.s.Name)] = true
		if team[c] || len(names[p]) > 1 || direct[p] {
			team[p] = true
		}
	}
	// agent holds, for each span, the outermost candidate around it that
	// is no team, short of any tool.
	agent := make(map[*node]*node, len(order))
	chosen := map[*node]bool{}
	for _, n := range order {
		var a *node
		if p := n.parent; p != nil && p.role != roleTool {
			a = agent[p]
		}
		if a == nil && candidate(n) && !team[n] {
			a = n
		}
		agent[n] = a
		if n.role != roleLLM {
			continue
		}
		if a == nil {
			a = nearest[n]
		}
		if a != nil {
			chosen[a] = true
		}
	}
	for _, n := range b.nodes {
		if chosen[n] {
			n.role = roleAgent
			n.name, n.from = agentName(n.s, roleAgent)
		}
	}
}

// calledTasks makes tool spans of the task spans that run a tool a model
// asked for: where a tracing SDK records the functions a program runs
// without saying which are tools (Weave's ops), a function named as a
// call that a model call beside it, under the same span and before it,
// made is that call's run.
func (b *builder) calledTasks() {
	calls := map[*node][]madeCall{} // by parent: the calls its model calls made
	for _, c := range b.madeCalls() {
		if c.model.parent != nil {
			calls[c.model.parent] = append(calls[c.model.parent], c)
		}
	}
	for _, n := range b.nodes {
		if n.parent == nil || !isTaskSpan(n) {
			continue
		}
		name := strings.TrimSpace(n.s.Name)
		if slices.ContainsFunc(calls[n.parent], func(c madeCall) bool { return c.before(n) && strings.EqualFold(c.name(), name) }) {
			n.role = roleTool
		}
	}
}

// madeCall is a call a model call's output made.
type madeCall struct {
	call  ToolCall
	model *node
}

// madeCalls lists the calls the model calls' outputs made, in node order:
// where a tracer does not say which spans are tools, a span named as one
// of them, after it, is its run.
func (b *builder) madeCalls() []madeCall {
	var out []madeCall
	for _, n := range b.nodes {
		if n.role != roleLLM {
			continue
		}
		for _, m := range outputMessages(n.s) {
			for _, c := range m.Calls {
				out = append(out, madeCall{c, n})
			}
		}
	}
	return out
}

// name is the called tool's name, trimmed.
func (c madeCall) name() string { return strings.TrimSpace(c.call.Name) }

// before reports whether the model call that made c started no later than
// n.
func (c madeCall) before(n *node) bool { return c.model.s.Start <= n.s.Start }

// langfuseSDKSpan reports whether a span is a plain span a Langfuse SDK's
// own calls sent through its ingestion API (langfuse.sdk.integration
// DEFAULT, from the batch): the SDKs before OpenTelemetry (JavaScript 3.x,
// Python 2.x) know no agent or tool type, and a program's span() stands
// for a piece of the program as a LangSmith chain does.
func langfuseSDKSpan(s *spans.Span) bool {
	return strings.EqualFold(s.Attrs.Str("langfuse.sdk.integration"), "DEFAULT") && strings.EqualFold(s.Attrs.Str("langfuse.observation.type"), "SPAN")
}

// langtraceSDKSpan reports whether a span is one a Langtrace SDK made for
// the program rather than for a service it instruments: its spans all
// carry langtrace.sdk.name, and an instrumented call's the type of the
// service it called (langtrace.service.type: llm, vectordb, framework).
func langtraceSDKSpan(s *spans.Span) bool {
	return s.Attrs.Str("langtrace.sdk.name") != "" && !hasAnyAttr(s.Attrs, "langtrace.service.type")
}

// handlerTools makes tool spans of the plain spans Langfuse's LangChain
// handler sent for a tool's run: it records tools and chains alike as
// spans (langfuse.sdk.integration LANGCHAIN), and a tool's is named as a
// call a model call before it made, its input that call's arguments.
func (b *builder) handlerTools() {
	handler := func(n *node) bool {
		return n.role == roleOther && strings.EqualFold(n.s.Attrs.Str("langfuse.sdk.integration"), "LANGCHAIN") &&
			strings.EqualFold(n.s.Attrs.Str("langfuse.observation.type"), "SPAN")
	}
	if !slices.ContainsFunc(b.nodes, handler) {
		return
	}
	calls := b.madeCalls()
	for _, n := range b.nodes {
		if !handler(n) {
			continue
		}
		name := strings.TrimSpace(n.s.Name)
		args := jsonArguments(n.s.Attrs.Str("langfuse.observation.input"))
		if slices.ContainsFunc(calls, func(c madeCall) bool {
			return c.before(n) && strings.EqualFold(c.name(), name) && sameJSON(c.call.Arguments, args)
		}) {
			n.role = roleTool
		}
	}
}
