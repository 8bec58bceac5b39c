package spans

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Logs of model calls: a record for each request a program sent a model
// and the response it got, {"request": {"messages": […]}, "response":
// {"choices": […]}}, one a line or listed, as LLM proxies and gateways
// write them and as AutoGen (AG2) writes its runtime log. Beside the pair
// a record may say which agent made the call (AutoGen's source_name),
// when (start_time, end_time) and in which session; AutoGen's log holds
// other records too (a new agent, an event), which are not calls and are
// skipped.
//
// Each call is a model-call span of its session's trace, holding the
// request and response as its input and output: how its messages become
// steps is package run's to read, as for any model call.

// callKeys name, in order, the fields of a call record.
var (
	callAgentKeys   = []string{"source_name", "agent_name", "agent", "caller"}
	callSessionKeys = []string{"session_id", "thread_id", "conversation_id", "run_id"}
	callStartKeys   = []string{"start_time", "timestamp", "created_at", "startTime"}
	callEndKeys     = []string{"end_time", "endTime"}
)

func decodeCalls(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	var out []Span
	err := eachObject(ctx, data, "a model call", noList, func(m map[string]any, s int) error {
		_, request := m["request"]
		_, response := m["response"]
		if !request || !response {
			return nil // not a call: AutoGen's agents and events
		}
		sp, err := callSpan(m, len(out), lines.at(s))
		if err != nil {
			return err
		}
		out = append(out, sp)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// noList: a call log's records are its top-level values or the elements
// of its array.
func noList([]byte, int) (int, bool) { return 0, false }

// callSpan reads the n-th call of a log, whose record starts on line.
func callSpan(m map[string]any, n, line int) (Span, error) {
	sp := Span{
		TraceID: "calls",
		SpanID:  "call-" + strconv.Itoa(n+1),
		Name:    "model call",
		Line:    line,
		Attrs: Attrs{
			{Key: "openinference.span.kind", Value: String("LLM")},
			{Key: "input", Value: FromAny(pythonDict(m["request"]))},
			{Key: "output", Value: FromAny(pythonDict(m["response"]))},
		},
	}
	if session := firstText(m, callSessionKeys); session != "" {
		sp.TraceID = session
	}
	if agent := firstText(m, callAgentKeys); agent != "" {
		sp.Attrs = append(sp.Attrs, Attr{Key: "agent.name", Value: String(agent)})
	}
	var err error
	if sp.Start, err = flatTime(first(m, callStartKeys)); err != nil {
		return Span{}, fmt.Errorf("model call at line %d: start time %w", line, err)
	}
	if sp.End, err = flatTime(first(m, callEndKeys)); err != nil {
		return Span{}, fmt.Errorf("model call at line %d: end time %w", line, err)
	}
	if e := strings.TrimSpace(firstText(m, []string{"error", "exception"})); e != "" && e != "null" {
		sp.Status = Status{Code: StatusError, Message: e}
	}
	sortAttrs(sp.Attrs)
	return sp, nil
}
