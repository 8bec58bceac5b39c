package run

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// Labels for telemetry: the decisive fault of a trace is the span a person
// marked, with the attribute offattr.mistake=true (and the reason in
// offattr.mistake_reason) or in a labels file beside the traces. The label
// is that span's first step (for an agent used as a tool, the call that
// ran it), the agent who spoke it, and the reason.

// SpanLabel names the span of a trace's decisive fault.
type SpanLabel struct {
	TraceID string `json:"trace_id"`
	SpanID  string `json:"span_id"`
	Reason  string `json:"reason,omitempty"`
}

// SpanLabels are labels by trace id, lower case.
type SpanLabels map[string]SpanLabel

// ReadLabels reads a labels file: JSON lines {"trace_id", "span_id",
// "reason"}, one per labelled trace. A file larger than max bytes (max >
// 0) is refused, as an input is (--max-input), before it is read whole.
func ReadLabels(path string, max int64) (SpanLabels, error) {
	data, err := read(path, Options{MaxInput: max})
	if err != nil {
		return nil, fmt.Errorf("labels %s: %w", path, err)
	}
	out := SpanLabels{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var l SpanLabel
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("labels %s: line %d: %w", path, line, jsonError(text, err))
		}
		if l.TraceID == "" || l.SpanID == "" {
			return nil, fmt.Errorf("labels %s: line %d: want {\"trace_id\", \"span_id\", \"reason\"}, with both ids", path, line)
		}
		key := strings.ToLower(l.TraceID)
		if prev, dup := out[key]; dup && !strings.EqualFold(prev.SpanID, l.SpanID) {
			return nil, fmt.Errorf("labels %s: line %d: trace %s is labelled twice (spans %s and %s)", path, line, spans.CutForError(l.TraceID), spans.CutForError(prev.SpanID), spans.CutForError(l.SpanID))
		}
		out[key] = l
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("labels %s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("labels %s: no labels", path)
	}
	return out, nil
}

// errLabelSpan: a label names a span that made no step.
var errLabelSpan = errors.New("labelled span")

// traceLabel finds a trace's label: from labels when it names the trace,
// else from the earliest step of a span marked offattr.mistake. The step is
// the first one of the span or, for a span with none of its own (an
// agent's turn), of the spans inside it; an agent's, before the request
// the span was given.
func traceLabel(r *Run, nodes []*node, stepNodes []*node, labels SpanLabels) (*Label, error) {
	if l, ok := labels[strings.ToLower(r.TraceID)]; ok {
		for _, n := range nodes {
			if strings.EqualFold(n.s.SpanID, l.SpanID) {
				return labelAt(r, n, stepNodes, l.Reason)
			}
		}
		return nil, fmt.Errorf("%w %s (from the labels file) is not in this trace", errLabelSpan, spans.CutForError(l.SpanID))
	}
	var best *Label
	for _, n := range nodes {
		reason, ok := mistake(n.s)
		if !ok {
			continue
		}
		l, err := labelAt(r, n, stepNodes, reason)
		if err != nil {
			return nil, err
		}
		if best == nil || l.Step < best.Step {
			best = l
		}
	}
	return best, nil
}

func labelAt(r *Run, n *node, stepNodes []*node, reason string) (*Label, error) {
	// Whether a node is n or inside it, remembered for every node walked,
	// so that the steps of a deep tree cost one walk between them.
	inside := map[*node]bool{n: true}
	under := func(sn *node) bool {
		var path []*node
		p := sn
		for ; p != nil; p = p.parent {
			if _, ok := inside[p]; ok {
				break
			}
			path = append(path, p)
		}
		in := p != nil && inside[p]
		for _, q := range path {
			inside[q] = in
		}
		return in
	}
	if k := callOf(r, n, stepNodes, under); k >= 0 {
		return &Label{Agent: r.Steps[k].Agent, Step: k, Reason: reason}, nil
	}
	// The request a marked agent's span was given (its input, read as the
	// user's step) is what it worked on, not its work: an agent's step
	// under the span is the label when there is one. So is a result a
	// model call's input carries, of a call made before the span (read as
	// a tool result of the model call's span): the call's own output is
	// its work.
	input := -1
	for i, sn := range stepNodes {
		if r.Steps[i].Kind == KindUser || (sn == n && resultOfEarlierCall(r, i, stepNodes, under)) {
			if sn == n && input < 0 {
				input = i
			}
			continue
		}
		if under(sn) {
			return &Label{Agent: r.Steps[i].Agent, Step: i, Reason: reason}, nil
		}
	}
	if input >= 0 {
		return &Label{Agent: r.Steps[input].Agent, Step: input, Reason: reason}, nil
	}
	// A tool span that recorded no result made no step: its result is read
	// from a later model input, and is the label.
	if n.ran != "" {
		for i, st := range r.Steps {
			if st.Kind == KindToolResult && st.ToolCallID() == n.ran {
				return &Label{Agent: st.Agent, Step: i, Reason: reason}, nil
			}
		}
	}
	return nil, fmt.Errorf("%w %s (%s) made no step", errLabelSpan, spans.CutForError(n.s.SpanID), spans.QuoteForError(n.s.Name))
}

// resultOfEarlierCall says whether step i is a tool result whose call an
// earlier step outside the marked span made.
func resultOfEarlierCall(r *Run, i int, stepNodes []*node, under func(*node) bool) bool {
	id := r.Steps[i].ToolCallID()
	if r.Steps[i].Kind != KindToolResult || id == "" {
		return false
	}
	for k := i - 1; k >= 0; k-- {
		for _, c := range r.Steps[k].ToolCalls() {
			if c.ID == id {
				return !under(stepNodes[k])
			}
		}
	}
	return false
}

// callOf finds, for a marked tool span whose first step is another
// span's inside it (an agent used as a tool: the sub-agent's work comes
// before the result), the step outside it that made the call it ran (a
// model's output listing its calls): the span marked is its call, the
// arguments it was given, not the first thing the sub-agent did. It is -1
// for any other span, and for a tool span whose own step comes first (its
// call, or its result, which is then the label).
func callOf(r *Run, n *node, stepNodes []*node, under func(*node) bool) int {
	id := n.ran
	first := -1
	for i, sn := range stepNodes {
		if sn == n && id == "" && r.Steps[i].Kind == KindToolResult {
			id = r.Steps[i].ToolCallID()
		}
		if first < 0 && r.Steps[i].Kind != KindUser && under(sn) {
			first = i
		}
	}
	if id == "" || first < 0 || stepNodes[first] == n {
		return -1
	}
	for k := first - 1; k >= 0; k-- {
		for _, c := range r.Steps[k].ToolCalls() {
			if c.ID == id {
				return k
			}
		}
	}
	return -1
}

// ErrLabelsFile is why a labels file read as a run is refused: it sits
// beside the traces it labels, where a screen or an eval of the directory
// comes upon it.
var ErrLabelsFile = fmt.Errorf("%w: a labels file for telemetry (trace_id, span_id, reason), not a run: give it to eval or fit with --labels", ErrUnknownFormat)

// spanLabelKeys reports whether keys, a JSON object's, are a span label's
// (ReadLabels): both ids, and the reason at most beside them.
func spanLabelKeys(keys []string) bool {
	var ids int
	for _, k := range keys {
		switch k {
		case "trace_id", "span_id":
			ids++
		case "reason":
		default:
			return false
		}
	}
	return ids == 2
}
