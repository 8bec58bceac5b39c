package spans

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Logs of model calls: a record for each request a program sent a model
// and the response it got, one a line or listed, as LLM proxies, gateways
// and prompt platforms keep them and as AutoGen (AG2) writes its runtime
// log. A record is a call by the pair of fields that hold its request and
// its response (callPairs): {"request", "response"} (AutoGen, Portkey's
// log export), Helicone's {"request_body", "response_body"}, PromptLayer's
// {"kwargs", "request_response"} and the result of its SDK's run(),
// {"prompt_blueprint", "raw_response"}, LiteLLM's {"messages", "response"} beside
// its "call_type" (its proxy's spend logs and its callbacks' standard
// logging payload), and Humanloop's prompt logs, {"messages",
// "output_message"}. A listing may wrap the records, {"data": […]} as
// Helicone's query API returns them or {"records": […]} as Humanloop's;
// a Humanloop flow's log holds its calls in its "trace_children". Beside
// the pair a record may say which agent made the call (AutoGen's
// source_name, an agent named in its metadata or properties, else, in a
// session whose calls are at more than one node, the call's node: the
// last part of Helicone's session path or of a Humanloop prompt's path),
// when, and in which session (its own
// field, or as its metadata or properties keep it, Helicone's
// Helicone-Session-Id); AutoGen's log holds other records too (a new
// agent, an event), which are not calls and are skipped, as are the tool
// logs of a Humanloop flow, whose results the next call's messages carry.
//
// Each call is a model-call span of its session's trace, holding the
// request and response as its input and output: how its messages become
// steps is package run's to read, as for any model call.

// callPair names the fields that hold a call's request and response; with
// needs, a field the record holds too for the pair to be a call's.
type callPair struct{ request, response, needs string }

// callPairs are the layouts of a call record, in the order they are tried.
var callPairs = []callPair{
	{request: "request", response: "response"},
	{request: "request_body", response: "response_body"},
	{request: "kwargs", response: "request_response"},
	{request: "messages", response: "response", needs: "call_type"},
	{request: "messages", response: "output_message"},
	{request: "prompt_blueprint", response: "raw_response"},
}

// callKeys name, in order, the fields of a call record.
var (
	callAgentKeys   = []string{"source_name", "agent_name", "agent", "caller"}
	callSessionKeys = []string{"session_id", "thread_id", "conversation_id", "run_id", "trace_id"}
	callStartKeys   = []string{"start_time", "timestamp", "created_at", "startTime", "request_created_at", "request_start_time"}
	callEndKeys     = []string{"end_time", "endTime", "response_created_at", "request_end_time"}
	// callMetaKeys hold what a program adds to a call: its metadata (and
	// LiteLLM's requester_metadata and spend_logs_metadata inside it) and
	// Helicone's properties.
	callMetaKeys = []string{"metadata", "requester_metadata", "spend_logs_metadata", "properties", "request_properties"}
	// callMetaSessionKeys and callMetaAgentKeys are read there.
	callMetaSessionKeys = []string{"helicone-session-id", "session_id", "sessionid", "session-id", "thread_id", "conversation_id"}
	callMetaAgentKeys   = []string{"agent_name", "agent", "agentname", "agent-name"}
	// callLabelKeys are offattr's own label, kept as the call's attributes
	// wherever the record holds them.
	callLabelKeys = []string{"offattr.mistake", "offattr.mistake_reason"}
)

// callWrappers are the fields of a listing whose array holds the calls.
var callWrappers = []string{"data", "records"}

func decodeCalls(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	var out []Span
	var nodes []string // each call's node of its session's path
	var add func(m map[string]any, line int, session string) error
	add = func(m map[string]any, line int, session string) error {
		if children, ok := m["trace_children"].([]any); ok && len(children) > 0 {
			// A flow's log: its calls, and flows inside it, in order.
			if s := callSession(m); s != "" && session == "" {
				session = s
			} else if id := firstText(m, []string{"id"}); session == "" {
				session = id
			}
			for _, c := range children {
				if cm, ok := c.(map[string]any); ok {
					if err := add(cm, line, session); err != nil {
						return err
					}
				}
			}
			return nil
		}
		p, ok := pairOf(m)
		if !ok {
			return nil // not a call: AutoGen's agents and events, a flow's tools
		}
		sp, err := callSpan(m, p, len(out), line, session)
		if err != nil {
			return err
		}
		out = append(out, sp)
		nodes = append(nodes, callNode(m))
		return nil
	}
	err := eachObject(ctx, data, "a model call", callList, func(m map[string]any, s int) error {
		return add(m, lines.at(s), "")
	})
	if err != nil {
		return nil, err
	}
	nodeAgents(out, nodes)
	return out, nil
}

// noList: the records of a log are its top-level values or the elements
// of its array.
func noList([]byte, int) (int, bool) { return 0, false }

// callList: a call log's records are its top-level values, the elements
// of its array, or those of a listing's array (callWrappers).
func callList(data []byte, i int) (int, bool) {
	for _, k := range callWrappers {
		if s, _, ok := member(data, i, k); ok && data[s] == '[' {
			return s, true
		}
	}
	return 0, false
}

// pairOf finds the layout of a call record m.
func pairOf(m map[string]any) (callPair, bool) {
	for _, p := range callPairs {
		_, request := m[p.request]
		_, response := m[p.response]
		if !request || !response {
			continue
		}
		if _, ok := m[p.needs]; p.needs != "" && !ok {
			continue
		}
		return p, true
	}
	return callPair{}, false
}

// callRequest is the request of a call m holds in the layout p. LiteLLM
// keeps the messages apart from the request's other fields: the request
// its proxy was sent, when the record keeps it, else the messages with the
// tools among its model parameters.
func callRequest(m map[string]any, p callPair) any {
	req := pythonDict(m[p.request])
	if p.request == "prompt_blueprint" {
		return blueprintRequest(req, pythonDict(m[p.response]))
	}
	if p.request != "messages" {
		return req
	}
	if body, ok := pythonDict(m["proxy_server_request"]).(map[string]any); ok {
		if _, ok := body["messages"]; ok {
			return body
		}
	}
	out := map[string]any{"messages": req}
	if params, ok := m["model_parameters"].(map[string]any); ok && params["tools"] != nil {
		out["tools"] = params["tools"]
	}
	return out
}

// blueprintRequest is the request a PromptLayer prompt blueprint made:
// its template's messages, but a last one of the assistant's that says
// what the response says (run() gives the blueprint back with the
// response among its messages), and the tools it declares.
func blueprintRequest(bp, resp any) any {
	tmpl, _ := pythonDict(mapOf(bp)["prompt_template"]).(map[string]any)
	msgs, _ := tmpl["messages"].([]any)
	if n := len(msgs); n > 0 {
		last := mapOf(msgs[n-1])
		if said := partsText(last["content"]); last["role"] == "assistant" && said == responseText(resp) {
			msgs = msgs[:n-1]
		}
	}
	out := map[string]any{"messages": msgs}
	if tools, ok := tmpl["tools"].([]any); ok && len(tools) > 0 {
		out["tools"] = tools
	}
	return out
}

// partsText is a message's content as text: a string, or its parts'
// texts joined.
func partsText(content any) string {
	if t, ok := content.(string); ok {
		return strings.TrimSpace(t)
	}
	parts, _ := content.([]any)
	var b strings.Builder
	for _, p := range parts {
		if t, ok := mapOf(p)["text"].(string); ok {
			b.WriteString(t)
		}
	}
	return strings.TrimSpace(b.String())
}

// responseText is what a chat completion's first choice (or an Anthropic
// message) says.
func responseText(resp any) string {
	r := mapOf(resp)
	if choices, ok := r["choices"].([]any); ok && len(choices) > 0 {
		return partsText(mapOf(mapOf(choices[0])["message"])["content"])
	}
	return partsText(r["content"])
}

// mapOf is x as an object, nil when it is none.
func mapOf(x any) map[string]any {
	m, _ := x.(map[string]any)
	return m
}

// callResponse is the response of a call m holds in the layout p: a
// Humanloop prompt log keeps the message the model returned, read as the
// one choice of a chat completion.
func callResponse(m map[string]any, p callPair) any {
	resp := pythonDict(m[p.response])
	if p.response != "output_message" {
		return resp
	}
	choice := map[string]any{"message": resp}
	if r, ok := m["finish_reason"]; ok {
		choice["finish_reason"] = r
	}
	return map[string]any{"choices": []any{choice}}
}

// callMeta lists the objects of m that hold what a program added to the
// call (callMetaKeys), outermost first.
func callMeta(m map[string]any) []map[string]any {
	var out []map[string]any
	var walk func(x map[string]any, depth int)
	walk = func(x map[string]any, depth int) {
		for _, k := range callMetaKeys {
			if o, ok := pythonDict(x[k]).(map[string]any); ok {
				out = append(out, o)
				if depth < 2 {
					walk(o, depth+1)
				}
			}
		}
	}
	walk(m, 0)
	return out
}

// metaText is the text of the first of keys (in any case) that one of the
// objects holds as a scalar. Of an object's fields that write a key in
// different cases, the one in the key's own case is read first, then the
// others in their order as text: the same record always gives the same.
func metaText(objs []map[string]any, keys []string) string {
	for _, k := range keys {
		for _, o := range objs {
			var names []string
			for name := range o {
				if strings.EqualFold(name, k) {
					names = append(names, name)
				}
			}
			slices.SortFunc(names, func(a, b string) int {
				if (a == k) != (b == k) {
					if a == k {
						return -1
					}
					return 1
				}
				return strings.Compare(a, b)
			})
			for _, name := range names {
				v := o[name]
				switch v.(type) {
				case map[string]any, []any, nil:
					continue
				}
				if t := strings.TrimSpace(FromAny(v).Text()); t != "" {
					return t
				}
			}
		}
	}
	return ""
}

// scalarText is firstText of the keys whose values are no objects or lists.
func scalarText(m map[string]any, keys []string) string {
	for _, k := range keys {
		switch v := m[k].(type) {
		case map[string]any, []any, nil:
			continue
		default:
			if t := strings.TrimSpace(FromAny(v).Text()); t != "" {
				return t
			}
		}
	}
	return ""
}

// callSession is the session a call record names.
func callSession(m map[string]any) string {
	if s := scalarText(m, callSessionKeys); s != "" {
		return s
	}
	return metaText(callMeta(m), callMetaSessionKeys)
}

// callAgent is the agent a call record names: its own field, else its
// metadata's.
func callAgent(m map[string]any) string {
	if a := scalarText(m, callAgentKeys); a != "" {
		return a
	}
	return metaText(callMeta(m), callMetaAgentKeys)
}

// callNode is the node of its session a call record names: the last part
// of its session path (Helicone's, "/caption/research": a part for each
// node of the session's tree), else of the path of the prompt it ran (a
// Humanloop prompt log's, "Ops/billing"), or "".
func callNode(m map[string]any) string {
	path := metaText(callMeta(m), []string{"helicone-session-path"})
	if prompt, ok := m["prompt"].(map[string]any); ok && path == "" {
		path = scalarText(prompt, []string{"path", "name"})
	}
	path = strings.Trim(path, "/")
	return path[strings.LastIndexByte(path, '/')+1:]
}

// nodeAgents names by their node the agents of the calls that name none,
// in a session whose calls are at more than one node: at one node, the
// node tells no agent from another.
func nodeAgents(out []Span, nodes []string) {
	seen := map[string]map[string]bool{}
	for i, sp := range out {
		if nodes[i] == "" {
			continue
		}
		if seen[sp.TraceID] == nil {
			seen[sp.TraceID] = map[string]bool{}
		}
		seen[sp.TraceID][nodes[i]] = true
	}
	for i := range out {
		if nodes[i] == "" || len(seen[out[i].TraceID]) < 2 || out[i].Attrs.Str("agent.name") != "" {
			continue
		}
		out[i].Attrs = append(out[i].Attrs, Attr{Key: "agent.name", Value: String(nodes[i])})
		sortAttrs(out[i].Attrs)
	}
}

// callSpan reads the n-th call of a log, whose record starts on line, in
// the layout p; a call that names no session is one of session's.
func callSpan(m map[string]any, p callPair, n, line int, session string) (Span, error) {
	sp := Span{
		TraceID: "calls",
		SpanID:  "call-" + strconv.Itoa(n+1),
		Name:    "model call",
		Line:    line,
		Attrs: Attrs{
			{Key: "openinference.span.kind", Value: String("LLM")},
			{Key: "input", Value: FromAny(callRequest(m, p))},
			{Key: "output", Value: FromAny(callResponse(m, p))},
		},
	}
	if s := callSession(m); s != "" {
		sp.TraceID = s
	} else if session != "" {
		sp.TraceID = session
	}
	if agent := callAgent(m); agent != "" {
		sp.Attrs = append(sp.Attrs, Attr{Key: "agent.name", Value: String(agent)})
	}
	labels := append([]map[string]any{m}, callMeta(m)...)
	for _, k := range callLabelKeys {
		if t := metaText(labels, []string{k}); t != "" {
			sp.Attrs = append(sp.Attrs, Attr{Key: k, Value: String(t)})
		}
	}
	var err error
	if sp.Start, err = flatTime(first(m, callStartKeys)); err != nil {
		return Span{}, fmt.Errorf("model call at line %d: start time %w", line, err)
	}
	if sp.End, err = flatTime(first(m, callEndKeys)); err != nil {
		return Span{}, fmt.Errorf("model call at line %d: end time %w", line, err)
	}
	if e := strings.TrimSpace(firstText(m, []string{"error", "exception", "error_str"})); e != "" && e != "null" {
		sp.Status = Status{Code: StatusError, Message: e}
	}
	sortAttrs(sp.Attrs)
	return sp, nil
}
