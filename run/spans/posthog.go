package spans

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// PostHog's LLM analytics events, as its SDKs post them (/batch/:
// {"api_key", "batch": [event…]}, one request a line) or as its events are
// listed and exported (a list of them, or {"results": […]}). An event is
// {"event", "uuid", "timestamp", "properties": {…}}; those of LLM
// analytics are spans: $ai_trace (the trace's own record, its id the
// trace's), $ai_span, $ai_generation (a model call) and $ai_embedding,
// joined by $ai_trace_id, $ai_span_id and $ai_parent_id (a span whose
// parent is the trace hangs from the trace's record). A span ends at its
// event's time and lasts its $ai_latency (seconds); $ai_is_error with
// $ai_error is its error (a generation's id may be its $ai_generation_id,
// as Mastra's exporter names it). Its properties are its attributes, under their
// names, and its event's name is posthog.event. Other events (page views,
// feature flags) are passed over.

// postHogAIEvents are the events of LLM analytics.
var postHogAIEvents = map[string]bool{"$ai_trace": true, "$ai_span": true, "$ai_generation": true, "$ai_embedding": true}

func decodePostHog(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	var out []Span
	err := eachObject(ctx, data, "a PostHog event", postHogBatch, func(m map[string]any, s int) error {
		if !postHogAIEvents[firstText(m, []string{"event"})] {
			return nil
		}
		sp, err := postHogSpan(m, lines.at(s))
		if err != nil {
			return err
		}
		out = append(out, sp)
		return nil
	})
	if err != nil {
		return nil, err
	}
	postHogStarts(out)
	traceStarts(out)
	return out, nil
}

// traceStarts starts a trace's own record that says no latency (an
// $ai_trace with no $ai_latency, as Mastra's exporter sends one when its
// root span ends) when the first span of its trace starts: the record
// stands for the whole trace, not for the moment it was sent.
func traceStarts(ss []Span) {
	first := map[string]int64{}
	for _, s := range ss {
		if f, ok := first[s.TraceID]; s.Start != 0 && (!ok || s.Start < f) {
			first[s.TraceID] = s.Start
		}
	}
	for i := range ss {
		s := &ss[i]
		if s.SpanID == s.TraceID && s.Start == s.End && first[s.TraceID] != 0 && first[s.TraceID] < s.Start {
			s.Start = first[s.TraceID]
		}
	}
}

// postHogTick is how far a span may seem to start before a span beside it
// ended: an event's time and its latency are milliseconds, read from the
// clock at different moments.
const postHogTick = int64(2e6)

// postHogStarts moves the start of a span that seems to start within a
// tick before the span beside it (under the same parent) that ended last
// before it to that span's end: a program's steps run one after another,
// and a model call given a tool's result starts after the tool ended.
func postHogStarts(ss []Span) {
	type key struct{ trace, parent string }
	groups := map[key][]int{}
	for i, s := range ss {
		k := key{s.TraceID, s.ParentID}
		groups[k] = append(groups[k], i)
	}
	for _, g := range groups {
		sort.SliceStable(g, func(a, b int) bool { return ss[g[a]].End < ss[g[b]].End })
		for n := 1; n < len(g); n++ {
			s, prev := &ss[g[n]], ss[g[n-1]]
			if s.Start < prev.End && prev.End-s.Start <= postHogTick {
				s.Start = prev.End
			}
		}
	}
}

// postHogBatch finds the events of a request or a listing: {"batch":
// […]} or {"results": […]}.
func postHogBatch(data []byte, i int) (int, bool) {
	for _, k := range []string{"batch", "results"} {
		if s, _, ok := member(data, i, k); ok && data[s] == '[' {
			return s, true
		}
	}
	return 0, false
}

func postHogSpan(m map[string]any, line int) (Span, error) {
	event := firstText(m, []string{"event"})
	props, _ := m["properties"].(map[string]any)
	trace := firstText(props, []string{"$ai_trace_id"})
	sp := Span{
		TraceID:  trace,
		SpanID:   firstText(props, []string{"$ai_span_id", "$ai_generation_id"}),
		ParentID: firstText(props, []string{"$ai_parent_id"}),
		Name:     firstText(props, []string{"$ai_span_name", "$ai_trace_name", "$ai_model"}),
		Line:     line,
	}
	switch {
	case event == "$ai_trace":
		sp.SpanID, sp.ParentID = trace, ""
	case sp.SpanID == "":
		sp.SpanID = firstText(m, []string{"uuid"}) // a generation names no span of its own
	}
	if sp.ParentID == "" && event != "$ai_trace" {
		sp.ParentID = trace
	}
	if sp.Name == "" {
		sp.Name = event
	}
	if sp.TraceID == "" || sp.SpanID == "" {
		return Span{}, fmt.Errorf("PostHog event %s at line %d has no $ai_trace_id or span id", event, line)
	}
	var err error
	if sp.End, err = flatTime(m["timestamp"]); err != nil {
		return Span{}, fmt.Errorf("PostHog event %s at line %d: timestamp %w", event, line, err)
	}
	sp.Start = sp.End
	if v := FromAny(props["$ai_latency"]); sp.End != 0 && (v.Kind == KindFloat || v.Kind == KindInt) {
		sp.Start = sp.End - int64((v.Float+float64(v.Int))*1e9)
	}
	sp.Attrs = append(sp.Attrs, Attr{Key: "posthog.event", Value: String(event)})
	for _, k := range sortedKeys(props) {
		if strings.HasPrefix(k, "$ai_") && props[k] != nil {
			sp.Attrs = append(sp.Attrs, Attr{Key: k, Value: FromAny(props[k])})
		}
	}
	sortAttrs(sp.Attrs)
	if isErr, _ := props["$ai_is_error"].(bool); isErr || strings.EqualFold(FromAny(props["$ai_is_error"]).Text(), "true") {
		// Mastra's exporter gives the error's message as error_message.
		sp.Status = Status{Code: StatusError, Message: firstText(props, []string{"$ai_error", "error_message"})}
	}
	return sp, nil
}
