package run

import (
	"sort"

	"github.com/offattr/offattr/run/spans"
)

// sessionKeys are the attributes that say which session, conversation or
// thread a span belongs to: OpenTelemetry's and OpenInference's
// session.id, the GenAI conventions' gen_ai.conversation.id, Langfuse's
// session (as its SDKs set it on spans, and as its export gives a
// trace's), and the association properties OpenLLMetry (Traceloop) copies
// onto every span from what the program gives it. A user id is no such
// key: one user has many runs.
var sessionKeys = []string{
	"session.id",
	"gen_ai.conversation.id",
	"langfuse.session.id",
	"langfuse.trace.sessionId",
	"traceloop.association.properties.session_id",
	"traceloop.association.properties.thread_id",
	"traceloop.association.properties.conversation_id",
}

// sessionOf returns the session a span names, "" if none: one of
// sessionKeys, else LangGraph's thread_id in the metadata LangChain gives
// its runs.
func sessionOf(s *spans.Span) string {
	if k := firstStr(s.Attrs, sessionKeys...); k != "" {
		return k
	}
	return metadataValue(s, "thread_id")
}

// joinSessions joins the traces of a file in which every trace is one
// span, as an instrumentation that loses its context between spans writes
// them (OpenLLMetry's with LangGraph.js starts a trace for each span): the
// spans that name one session are one run, ordered by start time, under
// the id of its first trace in the file (each step keeps its own). A
// trace that names no session, or a session no other trace names, stays
// as it is; a file with a trace of several spans is left whole.
func joinSessions(order []string, byTrace map[string][]*spans.Span) []string {
	if len(order) < 2 {
		return order
	}
	session := make(map[string]string, len(order)) // by trace
	count := map[string]int{}                      // traces by session
	for _, id := range order {
		ss := byTrace[id]
		for _, s := range ss[1:] {
			if s.SpanID != ss[0].SpanID { // a span written as two records is one
				return order
			}
		}
		k := ""
		for _, s := range ss {
			if k = sessionOf(s); k != "" {
				break
			}
		}
		session[id] = k
		if k != "" {
			count[k]++
		}
	}
	first := map[string]string{} // by session: the trace that holds its run
	var out []string
	for _, id := range order {
		k := session[id]
		if k == "" || count[k] < 2 {
			out = append(out, id)
			continue
		}
		head, ok := first[k]
		if !ok {
			first[k] = id
			out = append(out, id)
			continue
		}
		byTrace[head] = append(byTrace[head], byTrace[id]...)
		delete(byTrace, id)
	}
	for _, head := range first {
		ss := byTrace[head]
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].Start < ss[j].Start })
	}
	return out
}
