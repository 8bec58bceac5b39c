package run

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"unicode"

	"github.com/offattr/offattr/run/spans"
)

// What a span means, read from the semantic conventions: the OpenTelemetry
// GenAI conventions first, then OpenInference's, then Langfuse's own
// attribute names; OpenLLMetry's (traceloop.*) only as a fallback, as no
// standard covers them.

// spanRole is what a span does in an agent run.
type spanRole uint8

const (
	roleOther     spanRole = iota // workflow, chain, HTTP call…: steps come from inside it
	roleAgent                     // an agent's turn: every step under it is that agent's
	roleLLM                       // a model call: its new output messages are steps
	roleTool                      // a tool call and its result
	roleRetrieval                 // a retrieval or a reranking of its chunks, read as a tool call
)

// roleRule recognises the spans of one convention: role says what the
// span does, and ok whether the convention applies to it at all.
type roleRule struct {
	convention string // what was looked for, as users are told
	role       func(*spans.Span) (role spanRole, ok bool)
}

// roleRules are tried in order; the first that applies decides. The
// standards come first (GenAI, OpenInference, Langfuse), then the
// frameworks' own attributes, then messages found by their shape; but
// Mastra's own span type, which its exporters write beside the
// convention they map it to, comes before all.
var roleRules = []roleRule{
	{"Mastra (mastra.span.type, or spanType in its span records)", func(s *spans.Span) (spanRole, bool) {
		// Mastra's own type says which of its nested spans is the model
		// call (a generation's step), where the conventions its exporters
		// map it to call the generation, the step and each streamed chunk
		// alike a model call, or make them all chains or tasks (its
		// LangSmith and Braintrust exporters, which keep the type in the
		// metadata, as mastra_span_type and spanType).
		t := firstStr(s.Attrs, "mastra.span.type", "spanType")
		if t == "" {
			t = firstNonEmpty(metadataValue(s, "mastra_span_type"), metadataValue(s, "spanType"))
		}
		role, ok := mastraRoles[t]
		return role, ok
	}},
	{"OpenTelemetry GenAI (gen_ai.operation.name)", func(s *spans.Span) (spanRole, bool) {
		op := s.Attrs.Str("gen_ai.operation.name")
		return genAIOperations[op], op != ""
	}},
	{"OpenInference (openinference.span.kind)", func(s *spans.Span) (spanRole, bool) {
		// Opik's records are typed general unless they are a tool's or a
		// model call's, and its OpenAI integration types the model calls
		// general too: that says nothing, and the span's content is read.
		k := s.Attrs.Str("openinference.span.kind")
		return kindRole(k), k != "" && !strings.EqualFold(k, "GENERAL")
	}},
	{"Langfuse (observation types)", func(s *spans.Span) (spanRole, bool) {
		t := s.Attrs.Str("langfuse.observation.type")
		if op := s.Attrs.Str("ai.operationId"); op != "" && t != "" {
			// Langfuse types each of the Vercel AI SDK's calls a
			// generation, the call around its model calls too: the
			// SDK's own operation says which is which.
			return aiSDKRole(s, op), true
		}
		if strings.EqualFold(t, "GENERATION") { // upper case in its exports, lower case in its SDKs' spans
			return roleLLM, true
		}
		// A plain SPAN or EVENT says only that it is no model call; one
		// that names a GenAI tool is that tool's run (Koog's tool spans).
		if kindRole(t) == roleOther && hasAnyAttr(s.Attrs, "gen_ai.tool.name") {
			return roleTool, true
		}
		return kindRole(t), t != ""
	}},
	{"GenAI model calls from before gen_ai.operation.name (gen_ai.system with messages)", func(s *spans.Span) (spanRole, bool) {
		return roleLLM, hasAnyAttr(s.Attrs, "gen_ai.system", "gen_ai.provider.name") &&
			hasAnyAttr(s.Attrs, "gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.prompt", "gen_ai.completion", "gen_ai.prompt.0.content", "gen_ai.completion.0.content")
	}},
	{"OpenLLMetry (traceloop.span.kind)", byKind("traceloop.span.kind")},
	{"OpenLLMetry's model calls (llm.request.type)", func(s *spans.Span) (spanRole, bool) {
		return roleLLM, s.Attrs.Str("llm.request.type") != ""
	}},
	{"Google ADK (gcp.vertex.agent.llm_response)", func(s *spans.Span) (spanRole, bool) {
		return roleLLM, hasAnyAttr(s.Attrs, "gcp.vertex.agent.llm_response") // its call_llm names no operation
	}},
	{"the OpenAI Agents SDK's export (span_data.type)", func(s *spans.Span) (spanRole, bool) {
		t := s.Attrs.Str("span_data.type")
		return openAIAgentsRoles[t], t != ""
	}},
	{"the Vercel AI SDK (ai.operationId)", func(s *spans.Span) (spanRole, bool) {
		op := s.Attrs.Str("ai.operationId")
		return aiSDKRole(s, op), op != ""
	}},
	{"Genkit (genkit:metadata:subtype)", func(s *spans.Span) (spanRole, bool) {
		return genkitRoles[s.Attrs.Str("genkit:metadata:subtype")], s.Attrs.Str("genkit:type") != ""
	}},
	{"VoltAgent (entity.type, span.type)", func(s *spans.Span) (spanRole, bool) {
		return voltAgentRole(s.Attrs.Str("entity.type"), s.Attrs.Str("span.type")), s.Attrs.Str("entity.type") != ""
	}},
	{"Haystack (haystack.component.type)", func(s *spans.Span) (spanRole, bool) {
		t := s.Attrs.Str("haystack.component.type")
		return haystackRole(t), t != ""
	}},
	{"GenAI tool spans from before gen_ai.operation.name (gen_ai.tool.name)", func(s *spans.Span) (spanRole, bool) {
		return roleTool, hasAnyAttr(s.Attrs, "gen_ai.tool.name") // Pydantic AI's "running tool"
	}},
	{"Pydantic AI under Logfire (agent_name)", func(s *spans.Span) (spanRole, bool) {
		return roleAgent, hasAnyAttr(s.Attrs, "agent_name") && hasAnyAttr(s.Attrs, "all_messages_events", "final_result")
	}},
	{"LangSmith (run_type)", byKind("langsmith.run_type")},
	{"Laminar (lmnr.span.type)", byKind("lmnr.span.type")},
	{"PostHog LLM analytics (posthog.event)", func(s *spans.Span) (spanRole, bool) {
		e := s.Attrs.Str("posthog.event")
		switch t := s.Attrs.Str("$ai_span_type"); {
		case e == "$ai_generation":
			return roleLLM, true
		case e == "$ai_span" && t != "": // as its OpenAI Agents processor says: agent, tool…
			return kindRole(t), true
		case e == "$ai_span" || e == "$ai_trace":
			// Mastra's exporter types no span: its names say what each is.
			if role, ok := mastraNameRole(s.Name); ok {
				return role, true
			}
		}
		return roleOther, e == "$ai_trace" || e == "$ai_embedding" // an $ai_span of no type says nothing: a task span
	}},
	{"LangWatch (langwatch.span.type)", func(s *spans.Span) (spanRole, bool) {
		t := s.Attrs.Str("langwatch.span.type")
		if strings.EqualFold(t, "rag") {
			return roleRetrieval, true
		}
		return kindRole(t), t != ""
	}},
	{"Datadog LLM Observability (_ml_obs.meta.span.kind)", func(s *spans.Span) (spanRole, bool) {
		k := s.Attrs.Str("_ml_obs.meta.span.kind")
		if strings.EqualFold(k, "retrieval") {
			return roleRetrieval, true
		}
		return kindRole(k), k != ""
	}},
	{"MLflow (mlflow.spanType)", func(s *spans.Span) (spanRole, bool) {
		t := s.Attrs.Str("mlflow.spanType")
		return mlflowRole(unquote(t)), t != ""
	}},
	{"HoneyHive (honeyhive_event_type)", func(s *spans.Span) (spanRole, bool) {
		t := s.Attrs.Str("honeyhive_event_type")
		return honeyhiveRole(t), t != ""
	}},
	{"messages by their shape under an input or output key", func(s *spans.Span) (spanRole, bool) {
		return roleLLM, len(foundMessages(s, true)) > 0
	}},
}

// genAIOperations are the GenAI operation names and what they do; any
// other operation is a wrapper (roleOther).
var genAIOperations = map[string]spanRole{
	"invoke_agent": roleAgent,
	"agent":        roleAgent, // OpenLIT's name for an agent's run
	"chat":         roleLLM, "text_completion": roleLLM, "generate_content": roleLLM,
	"call_llm":     roleLLM, // any-agent
	"execute_tool": roleTool,
	"retrieval":    roleRetrieval,
	// Semantic Kernel's names of model calls.
	"chat.completions": roleLLM, "chat.streaming_completions": roleLLM,
	"text.completions": roleLLM, "text.streaming_completions": roleLLM,
}

// openAIAgentsRoles are the OpenAI Agents SDK's span types and what they
// do; a handoff is read by spanHandoffOp, and the others (a turn, a
// guardrail, the task) are wrappers.
var openAIAgentsRoles = map[string]spanRole{
	"agent":      roleAgent,
	"generation": roleLLM, "response": roleLLM,
	"function": roleTool,
}

// voltAgentRole reads VoltAgent's spans: every span names the entity it
// runs in (entity.type agent), and its span.type says what it does; an
// agent's own span, and a sub-agent's, has none.
func voltAgentRole(entity, span string) spanRole {
	switch span {
	case "llm":
		return roleLLM
	case "tool":
		return roleTool
	case "":
		if entity == "agent" {
			return roleAgent
		}
	}
	return roleOther
}

// mastraRoles are the span types of Mastra's own span records and what
// they do: an agent's run, one model call of a generation (its step: the
// messages it was given and the text and calls it made), a tool's call.
// The generation around its steps, the inference and chunks inside each,
// workflows, processors and mappings are wrappers. A type not listed
// here is no Mastra record's.
var mastraRoles = map[string]spanRole{
	"agent_run":  roleAgent,
	"model_step": roleLLM,
	"tool_call":  roleTool, "mcp_tool_call": roleTool,
	"model_generation": roleOther, "model_inference": roleOther, "model_chunk": roleOther,
	"workflow_run": roleOther, "workflow_step": roleOther, "workflow_conditional": roleOther,
	"workflow_conditional_eval": roleOther, "workflow_parallel": roleOther, "workflow_loop": roleOther,
	"workflow_sleep": roleOther, "workflow_wait_event": roleOther,
	"processor_run": roleOther, "mapping": roleOther, "generic": roleOther,
}

// genkitRoles are the kinds of Genkit's actions that make steps; a flow is
// named as a graph node is (graphNode), and the rest are wrappers.
var genkitRoles = map[string]spanRole{"model": roleLLM, "tool": roleTool, "tool.v2": roleTool, "retriever": roleRetrieval, "executable-prompt": roleAgent}

// byKind reads a span kind attribute in OpenInference's words.
func byKind(key string) func(*spans.Span) (spanRole, bool) {
	return func(s *spans.Span) (spanRole, bool) {
		k := s.Attrs.Str(key)
		return kindRole(k), k != ""
	}
}

// conventions names, for users, what was looked for in a trace that had
// none of it.
var conventions = func() string {
	names := make([]string, len(roleRules))
	for i, r := range roleRules {
		names[i] = r.convention
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}()

// classify returns a span's role and whether any convention recognised it.
func classify(s *spans.Span) (spanRole, bool) {
	for _, r := range roleRules {
		if role, ok := r.role(s); ok {
			return role, true
		}
	}
	return roleOther, false
}

// aiSDKRole reads the Vercel AI SDK's operations: its doGenerate and
// doStream spans are the model calls, ai.toolCall its tools. The call
// around them (ai.generateText…) repeats their messages; named by a
// telemetry functionId it is an agent's turn, else a wrapper.
func aiSDKRole(s *spans.Span, op string) spanRole {
	switch {
	case op == "ai.toolCall":
		return roleTool
	case strings.HasSuffix(op, ".doGenerate"), strings.HasSuffix(op, ".doStream"):
		return roleLLM
	case s.Attrs.Str("ai.telemetry.functionId") != "":
		return roleAgent
	}
	return roleOther
}

// haystackRole reads Haystack's component types: generators are model
// calls and an Agent its turn. A ToolInvoker is left a wrapper: the results
// it gives come back as tool messages in the next model call's input, and
// its own input repeats the calls.
func haystackRole(t string) spanRole {
	switch {
	case strings.HasSuffix(t, "Generator"):
		return roleLLM
	case t == "Agent":
		return roleAgent
	}
	return roleOther
}

// mlflowRole reads MLflow's span types; its chat models are model calls.
func mlflowRole(t string) spanRole {
	if strings.EqualFold(t, "CHAT_MODEL") {
		return roleLLM
	}
	return kindRole(t)
}

// unquote reads a string value written JSON-encoded, as MLflow stores
// every value ("\"LLM\""); other values are returned as they are.
func unquote(v string) string {
	var s string
	if strings.HasPrefix(v, `"`) && json.Unmarshal([]byte(v), &s) == nil {
		return s
	}
	return v
}

// kindRole reads OpenInference span kinds, Langfuse observation types and
// OpenLLMetry span kinds, which share their words.
func kindRole(k string) spanRole {
	switch strings.ToUpper(k) {
	case "AGENT":
		return roleAgent
	case "LLM":
		return roleLLM
	case "TOOL":
		return roleTool
	case "RETRIEVER", "RERANKER":
		return roleRetrieval
	}
	return roleOther
}

// hasAnyAttr reports whether the attributes hold any of keys.
func hasAnyAttr(as spans.Attrs, keys ...string) bool {
	for _, k := range keys {
		if _, ok := as.Get(k); ok {
			return true
		}
	}
	return false
}

// firstStr returns the first of keys with a non-empty value.
func firstStr(as spans.Attrs, keys ...string) string {
	for _, k := range keys {
		if v := strings.TrimSpace(as.Str(k)); v != "" {
			return v
		}
	}
	return ""
}

// agentName returns the agent a span names: its own for agent spans (the
// span name without "invoke_agent" when no attribute says), and for other
// spans the agent an attribute places them in (LangGraph nodes carry
// graph.node.*, some instrumentations set gen_ai.agent.name on model calls).
//
// A graph node (LangGraph's, read from OpenInference's graph.node.* or
// the metadata Langfuse keeps) is named too, and graphNode is true: it
// stands for an agent only when a model call runs inside it, which the
// caller decides; a node that only runs tools or routes is no agent.
func agentName(s *spans.Span, role spanRole) (name string, from nameSource) {
	name = firstStr(s.Attrs, agentNameKeys...)
	if role != roleAgent {
		if name == "" {
			name = metadataAgent(s)
		}
		if name != "" {
			return cleanName(name), fromAttribute
		}
		if name = graphNode(s); name != "" {
			return cleanName(name), fromGraphNode
		}
	}
	if name == "" && role == roleAgent {
		name = firstStr(s.Attrs, agentSpanNameKeys...)
		if name == "" {
			name = agentInInput(s)
		}
		if name == "" {
			name = agentSpanName(s.Name)
		}
		if id := strings.TrimSpace(s.Attrs.Str("gen_ai.agent.id")); id != "" && (name == "" || uuidIn.MatchString(name)) {
			name = id
		}
		if name == "" {
			name = "agent"
		}
	}
	return cleanName(name), fromAgentSpan
}

// uuidIn matches a name that holds a generated id (Koog names each run of
// an agent "run.<uuid>"): a name for one run, not for the agent, which
// its gen_ai.agent.id then names across runs.
var uuidIn = regexp.MustCompile(`(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// agentSpanNameKeys name an agent span's agent where no key of
// agentNameKeys does (OpenLIT names a CrewAI agent by its role).
var agentSpanNameKeys = []string{"traceloop.entity.name", "gen_ai.agent.role", "ai.telemetry.functionId", "agent_name", "haystack.component.name", "span_data.name", "subagent.name", "entity.name", "entityName"}

// agentInInput returns the agent an agent span's input names, "" if none:
// where a framework's method is traced rather than its agent (CrewAI's
// Task._execute_core, one span name for every agent of a crew), its
// arguments, kept as JSON in input.value, hold the agent that runs: an
// object with a role or a name, or its Python repr ("… role='Researcher'
// …").
func agentInInput(s *spans.Span) string {
	v := strings.TrimSpace(s.Attrs.Str("input.value"))
	if !strings.HasPrefix(v, "{") || !strings.Contains(v, `"agent"`) {
		return ""
	}
	var in struct {
		Agent json.RawMessage `json:"agent"`
	}
	if json.Unmarshal([]byte(v), &in) != nil {
		return ""
	}
	var obj struct{ Role, Name string }
	if json.Unmarshal(in.Agent, &obj) == nil {
		return firstNonEmpty(strings.TrimSpace(obj.Role), strings.TrimSpace(obj.Name))
	}
	var repr string
	if json.Unmarshal(in.Agent, &repr) != nil {
		return ""
	}
	for _, re := range reprAgentFields {
		if m := re.FindStringSubmatch(repr); m != nil {
			return strings.TrimSpace(m[1] + m[2])
		}
	}
	return ""
}

// reprAgentFields find an agent's role, else its name, in a Python repr
// of its object (pydantic's field='value' form, or field="value" when the
// value holds a quote).
var reprAgentFields = []*regexp.Regexp{
	regexp.MustCompile(`(?:^|\s)role=(?:'([^'\n]{1,200})'|"([^"\n]{1,200})")`),
	regexp.MustCompile(`(?:^|\s)name=(?:'([^'\n]{1,200})'|"([^"\n]{1,200})")`),
}

// namesAgent reports whether an attribute of the span names an agent (not
// only its span name).
func namesAgent(s *spans.Span) bool {
	return firstStr(s.Attrs, agentNameKeys...) != "" || firstStr(s.Attrs, agentSpanNameKeys...) != ""
}

// nameSource says how a span came to name an agent, and so how far the
// name is trusted.
type nameSource uint8

const (
	fromAgentSpan nameSource = iota // an agent span's own name
	// fromAttribute: an agent name on a span that is no agent's (a model
	// call, a tool). It names the agent only outside any agent span: an
	// instrumentation may put one generic name on every span.
	fromAttribute
	// fromGraphNode: the graph node a span is; an agent only with a model
	// call inside it, outside any agent span.
	fromGraphNode
	// fromService: the service a span runs in, called by another
	// service's span and running model calls of its own (serviceAgents).
	fromService
)

// agentNameKeys name the agent of the span that carries them, whatever
// the span is; graphNodeKeys name the graph node a span belongs to.
var (
	agentNameKeys = []string{"gen_ai.agent.name", "agent.name"}
	graphNodeKeys = []string{"graph.node.name", "graph.node.id"}
)

// graphNode returns the graph node a span belongs to: an attribute of
// graphNodeKeys, a Genkit flow (a program's named step, an agent when a
// model call runs inside it), else LangGraph's langgraph_node in the
// span's metadata.
func graphNode(s *spans.Span) string {
	if name := firstStr(s.Attrs, graphNodeKeys...); name != "" {
		return name
	}
	if s.Attrs.Str("genkit:metadata:subtype") == "flow" {
		return strings.TrimSpace(s.Attrs.Str("genkit:name"))
	}
	return metadataValue(s, "langgraph_node")
}

// metadataAgentKeys are the keys of a span's metadata that name its agent:
// a program's agent_name, LangChain's lc_agent_name, CAMEL's agent_id.
var metadataAgentKeys = []string{"agent_name", "lc_agent_name", "agent_id"}

// metadataAgent returns the agent a span's metadata names, "" if none.
func metadataAgent(s *spans.Span) string {
	for _, k := range metadataAgentKeys {
		if v := metadataValue(s, k); v != "" {
			return v
		}
	}
	return ""
}

// metadataValue returns the text of a key of the metadata LangChain gives
// its runs, wherever the span keeps it: as Langfuse and LangSmith do
// (langfuse.observation.metadata.KEY, langsmith.metadata.KEY), as flat
// dumps nest it (metadata.KEY), or as OpenInference does, JSON text in
// its metadata attribute.
func metadataValue(s *spans.Span, key string) string {
	if v := firstStr(s.Attrs, "langfuse.observation.metadata."+key, "langsmith.metadata."+key, "metadata."+key); v != "" {
		return v
	}
	md := s.Attrs.Str("metadata")
	if !strings.Contains(md, `"`+key+`"`) {
		return ""
	}
	var m map[string]any
	if json.Unmarshal([]byte(md), &m) != nil {
		return ""
	}
	v, _ := m[key].(string)
	return strings.TrimSpace(v)
}

// agentSpanNames are how frameworks name an agent's span when no
// attribute names the agent: the agent is the first group.
var agentSpanNames = []*regexp.Regexp{
	regexp.MustCompile(`^invoke_agent\s+(.+)$`),                                                      // GenAI
	regexp.MustCompile(`^agent_run\s*\[(.+)\]$`),                                                     // Google ADK
	regexp.MustCompile(`^([\pL_][\pL\pN_]*)\.(?:run|arun|invoke|ainvoke|kickoff|execute|__call__)$`), // smolagents' CodeAgent.run, a class and its method
	regexp.MustCompile(`^(.+?)\s+run$`),                                                              // Pydantic AI's "weather_agent run"
	regexp.MustCompile(`^(.+?)\.(?:start|update|partial_update|success|finish|error|retry)-\d+$`),    // BeeAI's emitter events, "agent.react.update-13": the emitter
	mastraAgentRun, // Mastra's "agent run: 'planner'"
}

// Mastra names its spans so in every exporter and its own records: an
// agent's run "agent run: 'NAME'", a tool's call "tool: 'NAME'" (an MCP
// tool's "mcp tool: 'NAME'"), each step of a generation "step: N", and
// what a step holds "inference: N", "chunk: 'TYPE'", the mapping of a
// tool's output "tool output mapping: 'NAME'".
var (
	mastraAgentRun = regexp.MustCompile(`^agent run: '(.+)'$`)
	mastraToolCall = regexp.MustCompile(`^(?:mcp )?tool: '(.+)'$`)
	mastraStep     = regexp.MustCompile(`^step: \d+$`)
	mastraInner    = regexp.MustCompile(`^(?:inference: \d+|chunk: '.*'|tool output mapping: '.*')$`)
)

// mastraNameRole reads what a span is from the name Mastra gives it, for
// an exporter that keeps no type of Mastra's (its PostHog exporter's
// spans are all untyped $ai_spans); ok is false for any other name.
func mastraNameRole(name string) (spanRole, bool) {
	switch {
	case mastraAgentRun.MatchString(name):
		return roleAgent, true
	case mastraToolCall.MatchString(name):
		return roleTool, true
	case mastraStep.MatchString(name):
		return roleLLM, true
	case mastraInner.MatchString(name):
		return roleOther, true
	}
	return roleOther, false
}

// agentSpanName reads the agent an agent span's name gives.
func agentSpanName(span string) string {
	span = strings.TrimSpace(span)
	for _, re := range agentSpanNames {
		if m := re.FindStringSubmatch(span); m != nil {
			return strings.TrimSpace(m[1])
		}
	}
	if span == "invoke_agent" {
		return ""
	}
	return span
}

// cleanName drops control characters from a name read from a span: names
// are identities printed everywhere, never text to interpret.
func cleanName(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s))
}

// traceRecord reports whether a span is a trace's own record rather than
// one of its spans: the root span run/spans makes of a Langfuse trace, its
// name, input and output (langfuse.observation.type TRACE).
func traceRecord(s *spans.Span) bool {
	return s.Attrs.Str("langfuse.observation.type") == "TRACE"
}

// derivedValues give the attributes a span's exporter wrote under its own
// names as the convention that reads the same fact names them, each added
// to the span before any convention reads it: one reading serves both.
var derivedValues = []func(*spans.Span) spans.Attrs{labelValues, typedValues, logfireAgentsValues, responseInstructions, requestInstructions}

// typedValueKeys hold a span's input and output written as {"type",
// "value"} JSON, as LangWatch's SDKs write them (the type says what the
// value is: text, chat_messages, json, raw, list).
var typedValueKeys = []string{"langwatch.input", "langwatch.output"}

// typedValues returns, for each of typedValueKeys the span holds, the
// value it wraps as an attribute of the key and ".value": text as it is,
// anything else as the JSON it was written as. Nil when the span holds
// none.
func typedValues(s *spans.Span) spans.Attrs {
	var out spans.Attrs
	for _, k := range typedValueKeys {
		t := strings.TrimSpace(s.Attrs.Str(k))
		if !strings.HasPrefix(t, "{") {
			continue
		}
		var w struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		}
		if json.Unmarshal([]byte(t), &w) != nil || w.Type == "" || len(w.Value) == 0 {
			continue
		}
		v := string(w.Value)
		var text string
		if json.Unmarshal(w.Value, &text) == nil {
			v = text
		}
		out = append(out, spans.Attr{Key: k + ".value", Value: spans.String(v)})
	}
	return out
}

// logfireAgentsTypes are the message templates Logfire's OpenAI Agents
// instrumentation names its spans by, and the span type of the Agents
// SDK's own export each stands for. Logfire writes the span's exported
// data as its attributes, without the type.
var logfireAgentsTypes = map[string]string{
	"Agent run: {name!r}": "agent",
	"Function: {name}":    "function",
	"Responses API":       "response",
	"Responses API with {gen_ai.request.model!r}":   "response",
	"Chat completion with {gen_ai.request.model!r}": "generation",
	"Handoff: {from_agent} → {to_agent}":            "handoff",
	"Guardrail {name!r} {triggered=}":               "guardrail",
	"Custom span: {name}":                           "custom",
	"OpenAI Agents trace: {name}":                   "trace",
}

// logfireAgentsKeys are the attributes Logfire copies from the exported
// span data, read as the export's span_data.* (raw_input is a response
// span's input items, which the export calls input).
var logfireAgentsKeys = map[string]string{
	"name": "span_data.name", "input": "span_data.input", "output": "span_data.output", "raw_input": "span_data.input",
	"from_agent": "span_data.from_agent", "to_agent": "span_data.to_agent",
}

// logfireAgentsValues returns, for a span of Logfire's OpenAI Agents
// instrumentation, its attributes as the Agents SDK's own export names
// them (span_data.type from its template, the data under span_data.*, and
// a response's output items as its output), so that one reading serves
// both. Nil for any other span, and for one that already says its type.
func logfireAgentsValues(s *spans.Span) spans.Attrs {
	t, ok := logfireAgentsTypes[s.Attrs.Str("logfire.msg_template")]
	if !ok || hasAnyAttr(s.Attrs, "span_data.type") {
		return nil
	}
	out := spans.Attrs{{Key: "span_data.type", Value: spans.String(t)}}
	for _, a := range s.Attrs {
		if k, ok := logfireAgentsKeys[a.Key]; ok && !hasAnyAttr(s.Attrs, k) && !hasAnyAttr(out, k) {
			out = append(out, spans.Attr{Key: k, Value: a.Value})
		}
	}
	if t == "response" && !hasAnyAttr(s.Attrs, "span_data.output") {
		var r struct {
			Output json.RawMessage `json:"output"`
		}
		if json.Unmarshal([]byte(strings.TrimSpace(s.Attrs.Str("response"))), &r) == nil && len(r.Output) > 0 && r.Output[0] == '[' {
			out = append(out, spans.Attr{Key: "span_data.output", Value: spans.String(string(r.Output))})
		}
	}
	return out
}

// responseObjectKeys hold a Responses API call's request or response
// object as JSON: Logfire's OpenAI instrumentation writes the response
// under "response", OpenInference's the request and the response as the
// span's input and output values.
var responseObjectKeys = []string{"response", "output.value", "input.value"}

// responseInstructions returns a Responses API call's instructions as
// gen_ai.system_instructions, where the span records none: the Responses
// API takes the model's instructions apart from its input items, and the
// request and the response objects both repeat them. An object is the
// API's when it says so ("object": "response") or holds its items (a
// response's output list, a request's input beside its model). Nil for
// any other span.
func responseInstructions(s *spans.Span) spans.Attrs {
	if hasAnyAttr(s.Attrs, "gen_ai.system_instructions") {
		return nil
	}
	for _, k := range responseObjectKeys {
		t := strings.TrimSpace(s.Attrs.Str(k))
		if !strings.HasPrefix(t, "{") || !strings.Contains(t, `"instructions"`) {
			continue
		}
		var o struct {
			Object       string          `json:"object"`
			Instructions json.RawMessage `json:"instructions"`
			Output       json.RawMessage `json:"output"`
			Input        json.RawMessage `json:"input"`
			Model        string          `json:"model"`
		}
		if json.Unmarshal([]byte(t), &o) != nil {
			continue
		}
		var instr string
		isResponse := o.Object == "response" || len(o.Output) > 0 && o.Output[0] == '[' || len(o.Input) > 0 && o.Model != ""
		if !isResponse || json.Unmarshal(o.Instructions, &instr) != nil || strings.TrimSpace(instr) == "" {
			continue
		}
		return spans.Attrs{{Key: "gen_ai.system_instructions", Value: spans.String(strings.TrimSpace(instr))}}
	}
	return nil
}

// requestInstructions returns the system instructions a model call's
// request body (under one of promptKeys) keeps apart from its messages as
// gen_ai.system_instructions, where the span records none: Anthropic's
// "system", Gemini's system instruction at the top of a REST request or
// in its config (Google ADK's recorded request, the SDKs' config). A body
// is a request when it holds messages or contents beside it. System
// messages among the messages are no part of this: the input's messages
// give them (instructionsOf). Nil for any other span.
func requestInstructions(s *spans.Span) spans.Attrs {
	if hasAnyAttr(s.Attrs, "gen_ai.system_instructions") {
		return nil
	}
	type geminiFields struct {
		SystemInstruction   json.RawMessage `json:"systemInstruction"`
		SystemInstructionPy json.RawMessage `json:"system_instruction"`
	}
	for _, k := range promptKeys {
		v, ok := s.Attrs.Get(k)
		if !ok {
			continue
		}
		var body []byte
		if v.Kind == spans.KindString {
			// Most prompts are no request body: they are passed over
			// before they are copied.
			str := strings.TrimSpace(v.Str)
			if !strings.HasPrefix(str, "{") || !strings.Contains(str, "ystem") {
				continue
			}
			body = []byte(str)
		} else if v.Kind == spans.KindMap {
			body, _ = json.Marshal(v.Any())
		}
		if !bytes.HasPrefix(body, []byte("{")) || !bytes.Contains(body, []byte("ystem")) {
			continue
		}
		var o struct {
			System   json.RawMessage `json:"system"`
			Messages json.RawMessage `json:"messages"`
			Contents json.RawMessage `json:"contents"`
			geminiFields
			Config geminiFields `json:"config"`
		}
		if json.Unmarshal(body, &o) != nil || len(o.Messages) == 0 && len(o.Contents) == 0 {
			continue
		}
		text := textBlocks(o.System)
		if text == "" {
			text = geminiInstruction(o.SystemInstruction, o.SystemInstructionPy, o.Config.SystemInstruction, o.Config.SystemInstructionPy)
		}
		if text = strings.TrimSpace(text); text != "" {
			return spans.Attrs{{Key: "gen_ai.system_instructions", Value: spans.String(text)}}
		}
	}
	return nil
}
