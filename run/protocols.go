package run

// Agent protocols' logs: the JSON-RPC messages a host exchanges with
// Model Context Protocol servers (tools/call and its result's content,
// isError) and with remote agents over Agent2Agent (message/send and the
// Task or Message that answers it, tasks/get), one a line or in a list,
// each bare or in a record that names its peer ({"server" | "agent" |
// "peer", "message": {…}}), beside the host model's own turns as chat
// messages; and A2A's Task object as a store keeps it (its history of
// user and agent messages, its artifacts, its status message). A call a
// host makes is its model's step; a message it sends a remote agent is an
// instruction to that agent; what a server or remote agent answers is a
// result or that agent's message. A record holding only a label
// (mistake_agent, mistake_step, mistake_reason) labels the run.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// The keys of a record that wraps a protocol message: those naming its
// peer (an agent's or a server's name, else its address), those it keeps
// the message under, those of a record that only labels the run, and
// those that give the run's task beside a label.
var (
	peerNameKeys = []string{"agent", "agent_name", "agentName", "server", "server_name", "serverName"}
	peerAddrKeys = []string{"peer", "url", "endpoint"}
	wrapKeys     = []string{"message", "payload", "request", "response", "data"}
	labelKeys    = map[string]bool{"mistake_agent": true, "mistake_step": true, "mistake_reason": true}
	taskKeys     = map[string]bool{"question": true, "task": true, "ground_truth": true}
)

// a2aSend are the A2A methods that send a remote agent a message.
var a2aSend = map[string]bool{"message/send": true, "message/stream": true, "tasks/send": true, "tasks/sendSubscribe": true}

// protocolLog reads data as a protocol log; ok is false when no record
// of it is a JSON-RPC message of MCP's or A2A's.
func protocolLog(data []byte) (c *Case, ok bool, err error) {
	if !bytes.Contains(data, []byte(`"jsonrpc"`)) {
		return nil, false, nil
	}
	list, err := anyList(data, "")
	if err != nil {
		return nil, false, nil
	}
	p := protocolReader{pending: map[string]string{}, seen: map[string]bool{}}
	var meta *fileObject
	for _, e := range list {
		rec, _ := e.(map[string]any)
		if rec == nil {
			continue
		}
		if isLabelRecord(rec) {
			raw, _ := json.Marshal(rec)
			meta = &fileObject{}
			if err := json.Unmarshal(raw, meta); err != nil {
				return nil, true, fmt.Errorf("label record: %w", err)
			}
			continue
		}
		p.record(rec)
	}
	if !p.protocol {
		return nil, false, nil
	}
	if len(p.out) == 0 {
		return nil, true, fmt.Errorf("a protocol log with no call, result or message")
	}
	p.clientIsUser()
	c, _, err = dumpCaseOfMessages(p.out, meta)
	return c, true, err
}

// isLabelRecord reports whether rec holds a label and nothing else.
func isLabelRecord(rec map[string]any) bool {
	for k := range rec {
		if !labelKeys[k] {
			return false
		}
	}
	return len(rec) > 0
}

// protocolReader reads a log's records in order.
type protocolReader struct {
	out      []dumpMessage
	pending  map[string]string // a request's peer and id → its method
	seen     map[string]bool   // the A2A messages already read, by id
	host     string            // who speaks for the host: its model's last turn's speaker
	protocol bool              // some record is a protocol's message
}

func (p *protocolReader) record(rec map[string]any) {
	rpc, peer := rec, ""
	if rec["jsonrpc"] == nil {
		rpc = nil
		for _, k := range wrapKeys {
			if w, ok := rec[k].(map[string]any); ok {
				rpc = w
				break
			}
		}
		peer = peerName(rec)
	}
	switch {
	case rpc != nil && rpc["jsonrpc"] != nil:
		p.protocol = true
		p.rpc(rpc, peer)
	case rpc != nil && a2aMessage(rpc):
		// An A2A message the host exchanged with its own user: the
		// user's words, or the host's answer.
		p.a2aMessage(rpc, "user", p.hostName(), "")
	case rec["role"] != nil && (rec["content"] != nil || rec["contents"] != nil || rec["tool_calls"] != nil):
		turn := map[string]any{}
		for _, k := range []string{"role", "name", "content", "contents", "tool_calls", "tool_call_id", "author_name"} {
			if v, ok := rec[k]; ok {
				turn[k] = v
			}
		}
		for _, dm := range elementMessages(turn) {
			if normalRole(dm.Role) == "assistant" {
				p.host = firstNonEmpty(dm.Name, p.host)
			}
			p.out = append(p.out, dm)
		}
	}
}

// clientIsUser makes the messages a client sent the user's when the log
// holds no user's words and no model's turns: the client is then no
// agent of its own but the one who gives the task.
func (p *protocolReader) clientIsUser() {
	if p.host != "" || slices.ContainsFunc(p.out, func(dm dumpMessage) bool { return normalRole(dm.Role) == "user" }) {
		return
	}
	for i, dm := range p.out {
		if dm.kind == KindInstruction {
			p.out[i].Role, p.out[i].Name, p.out[i].kind, p.out[i].target = "user", "", "", ""
		}
	}
}

// hostName is who speaks for the host: its model's named turns, else
// "host", the name both protocols give the side that calls.
func (p *protocolReader) hostName() string { return firstNonEmpty(p.host, "host") }

func (p *protocolReader) rpc(m map[string]any, peer string) {
	id := textOf(m["id"])
	key := peer + "\x00" + id
	if method, ok := m["method"].(string); ok {
		params, _ := m["params"].(map[string]any)
		if id != "" {
			p.pending[key] = method
		}
		switch {
		case method == "tools/call" || method == "resources/read" || method == "prompts/get":
			name := firstNonEmpty(stringOrEmpty(params["name"]), method)
			args := params["arguments"]
			if method == "resources/read" {
				args = map[string]any{"uri": params["uri"]}
			}
			p.out = append(p.out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: p.host, Calls: []ToolCall{{ID: callID(peer, id), Name: name, Arguments: textOf(args)}}}})
		case a2aSend[method]:
			msg, _ := params["message"].(map[string]any)
			p.a2aMessage(msg, p.hostName(), p.hostName(), firstNonEmpty(peer, "agent"))
		}
		return
	}
	method := p.pending[key]
	delete(p.pending, key)
	result, _ := m["result"].(map[string]any)
	rpcErr, _ := m["error"].(map[string]any)
	switch {
	case method == "tools/call" || method == "resources/read" || method == "prompts/get":
		dm := dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: callID(peer, id)}}
		if rpcErr != nil {
			dm.Text, dm.failed = stringOrEmpty(rpcErr["message"]), true
		} else {
			dm.Text = mcpContent(firstNonNil(result["content"], result["contents"], result["messages"]))
			dm.failed = result["isError"] == true
		}
		p.out = append(p.out, dm)
	case rpcErr != nil && (a2aSend[method] || method == "tasks/get"):
		p.out = append(p.out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: firstNonEmpty(peer, "agent"), Text: "Error: " + stringOrEmpty(rpcErr["message"])}})
	case result != nil && (a2aSend[method] || method == "tasks/get" || method == "" && (result["kind"] == "task" || result["kind"] == "message")):
		p.a2aResult(result, firstNonEmpty(peer, a2aAgentName(result), "agent"))
	}
}

// callID is a call's id in the log: its request's, with the peer it was
// sent to, since each server counts its own.
func callID(peer, id string) string {
	if peer == "" {
		return "mcp-" + id
	}
	return peer + "#" + id
}

// a2aResult reads what a remote agent answered: a Task (its history's
// messages not read yet, its artifacts, its status message) or a Message.
func (p *protocolReader) a2aResult(result map[string]any, agent string) {
	if a2aMessage(result) {
		p.a2aMessage(result, agent, agent, "")
		return
	}
	history, _ := result["history"].([]any)
	for _, h := range history {
		hm, _ := h.(map[string]any)
		if stringOrEmpty(hm["role"]) == "user" {
			// The host's own words, read as it sent them.
			p.seen[stringOrEmpty(hm["messageId"])] = true
			continue
		}
		p.a2aMessage(hm, agent, agent, "")
	}
	artifacts, _ := result["artifacts"].([]any)
	for _, a := range artifacts {
		am, _ := a.(map[string]any)
		p.a2aMessage(map[string]any{"role": "agent", "parts": am["parts"]}, agent, agent, "")
	}
	status, _ := result["status"].(map[string]any)
	if sm, ok := status["message"].(map[string]any); ok {
		p.a2aMessage(sm, agent, agent, "")
	}
}

// a2aMessage reads one A2A message once: a "user" message is user's, an
// "agent" one agent's; a message to a remote agent (to) is an instruction
// to it.
func (p *protocolReader) a2aMessage(m map[string]any, user, agent, to string) {
	if m == nil {
		return
	}
	if id := stringOrEmpty(m["messageId"]); id != "" {
		if p.seen[id] {
			return
		}
		p.seen[id] = true
	}
	ms := kernelMessages(map[string]any{"role": "assistant", "name": agent}, a2aItems(m["parts"]))
	if len(ms) > 0 && ms[0].Role == "assistant" {
		dm := &ms[0]
		switch {
		case to != "":
			dm.Name, dm.kind, dm.target = user, KindInstruction, to
		case stringOrEmpty(m["role"]) == "user" && user == "user":
			dm.Role, dm.Name = "user", ""
		case stringOrEmpty(m["role"]) == "user":
			dm.Name = user
		}
	}
	p.out = append(p.out, ms...)
}

// a2aMessage reports whether m is an A2A message: its role and parts.
func a2aMessage(m map[string]any) bool {
	role := stringOrEmpty(m["role"])
	_, parts := m["parts"].([]any)
	return parts && (role == "user" || role == "agent")
}

// a2aItems reads an A2A message's or artifact's parts as the items of a
// Semantic Kernel message (kernelMessages reads them): a text part's
// text, a data part's JSON, a file part's name or address; and a data
// part that an agent served by Google ADK marks as its function's call or
// response (metadata "adk_type"), that call or its result.
func a2aItems(x any) []any {
	parts, _ := x.([]any)
	var items []any
	for _, pt := range parts {
		pm, _ := pt.(map[string]any)
		text := ""
		switch firstNonEmpty(stringOrEmpty(pm["kind"]), stringOrEmpty(pm["type"])) {
		case "text":
			text = stringOrEmpty(pm["text"])
		case "data":
			md, _ := pm["metadata"].(map[string]any)
			data, _ := pm["data"].(map[string]any)
			switch stringOrEmpty(md["adk_type"]) {
			case "function_call":
				items = append(items, map[string]any{"content_type": "function_call", "id": data["id"], "name": data["name"], "arguments": data["args"]})
				continue
			case "function_response":
				items = append(items, map[string]any{"content_type": "function_result", "id": data["id"], "name": data["name"], "result": data["response"]})
				continue
			}
			text = spans.JSONText(pm["data"])
		case "file":
			f, _ := pm["file"].(map[string]any)
			text = "[file " + firstNonEmpty(stringOrEmpty(f["name"]), stringOrEmpty(f["uri"])) + "]"
		}
		if strings.TrimSpace(text) != "" {
			items = append(items, map[string]any{"content_type": "text", "text": text})
		}
	}
	return items
}

// a2aAgentName is the agent a Task or Message names in its metadata.
func a2aAgentName(m map[string]any) string {
	md, _ := m["metadata"].(map[string]any)
	for _, k := range []string{"agent_name", "agentName", "agent"} {
		if s := stringOrEmpty(md[k]); s != "" {
			return s
		}
	}
	return ""
}

// mcpContent is the text of an MCP result's content: its text items, a
// resource's text, and a line naming any other item.
func mcpContent(x any) string {
	items, ok := x.([]any)
	if !ok {
		return textOf(x)
	}
	var texts []string
	for _, it := range items {
		im, _ := it.(map[string]any)
		switch stringOrEmpty(im["type"]) {
		case "text", "":
			texts = append(texts, firstNonEmpty(stringOrEmpty(im["text"]), textOf(im["content"])))
		case "resource":
			r, _ := im["resource"].(map[string]any)
			texts = append(texts, firstNonEmpty(stringOrEmpty(r["text"]), stringOrEmpty(r["uri"])))
		default:
			texts = append(texts, "["+stringOrEmpty(im["type"])+"]")
		}
	}
	return strings.TrimSpace(strings.Join(nonEmpty(texts), "\n"))
}

// peerName is the peer a wrapping record names: its name, else the first
// label of its address's host ("flights-agent" of
// http://flights-agent.internal:10001/), or, for a host of one label or
// an IP address, that host and its port ("localhost:10002"), else its
// address.
func peerName(rec map[string]any) string {
	for _, k := range peerNameKeys {
		if s := strings.TrimSpace(stringOrEmpty(rec[k])); s != "" {
			return s
		}
	}
	for _, k := range peerAddrKeys {
		s := strings.TrimSpace(stringOrEmpty(rec[k]))
		if s == "" {
			continue
		}
		if u, err := url.Parse(s); err == nil && u.Hostname() != "" {
			host := u.Hostname()
			if net.ParseIP(host) != nil || !strings.Contains(host, ".") {
				// One machine serves its peers each on its own port: its
				// name or address alone would make them one peer.
				if u.Port() != "" {
					return net.JoinHostPort(host, u.Port())
				}
				return host
			}
			host, _, _ = strings.Cut(host, ".")
			return host
		}
		return s
	}
	return ""
}

// a2aTask reads data, one A2A Task object, as its remote agent's run;
// ok is false for any other object.
func a2aTask(data []byte, meta *fileObject) (c *Case, ok bool, err error) {
	var t map[string]any
	if json.Unmarshal(data, &t) != nil {
		return nil, false, nil
	}
	_, hasStatus := t["status"].(map[string]any)
	history, _ := t["history"].([]any)
	if t["kind"] != "task" && !(hasStatus && t["contextId"] != nil) || !slices.ContainsFunc(history, a2aElement) && t["artifacts"] == nil {
		return nil, false, nil
	}
	p := protocolReader{pending: map[string]string{}, seen: map[string]bool{}}
	agent := firstNonEmpty(a2aAgentName(t), "agent")
	for _, h := range history {
		hm, _ := h.(map[string]any)
		p.a2aMessage(hm, "user", agent, "")
	}
	p.a2aResult(t, agent)
	return dumpCaseOfMessages(p.out, meta)
}

// a2aElement is a2aMessage for an element of a list.
func a2aElement(e any) bool {
	m, _ := e.(map[string]any)
	return a2aMessage(m)
}

// a2a reports whether m is an A2A message: a user's or an agent's, with
// parts.
func (m message) a2a() bool { return (m.Role == "user" || m.Role == "agent") && m.Parts.has() }
