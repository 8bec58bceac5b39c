package spans

import (
	"context"
	"fmt"
	"strings"
)

// AWS X-Ray's segment documents, as its API returns a trace's
// (BatchGetTraces: {"Traces": [{"Id", "Segments": [{"Id", "Document"}]}]},
// each document a JSON string, or an object as the console's raw data
// shows it), as they are sent (PutTraceSegments' {"TraceSegmentDocuments":
// […]}), or one document a line. A document is a segment or a subsegment
// sent on its own ("type": "subsegment"): {"id", "name", "trace_id",
// "parent_id", "start_time", "end_time" in seconds, "fault", "error",
// "cause": {"exceptions": [{"type", "message"}]}, "annotations",
// "metadata": {NAMESPACE: {key: value}}, "subsegments": [child…]}. Each
// segment and subsegment is a span of its trace, a child's parent the one
// holding it unless it names one; its annotations and the metadata of the
// default namespace (where the OpenTelemetry exporter for X-Ray writes a
// span's attributes) are its attributes, another namespace's under the
// namespace's name; a fault or an error is an error status, its message the
// first exception's. X-Ray's trace id, "1-" then eight and twenty-four hex
// digits, is OpenTelemetry's thirty-two.

func decodeXRay(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	var out []Span
	var doc func(m map[string]any, line int) error
	doc = func(m map[string]any, line int) error {
		if docs, ok := m["TraceSegmentDocuments"].([]any); ok {
			for _, d := range docs {
				if err := xrayDocument(ctx, d, "", line, &out); err != nil {
					return err
				}
			}
			return nil
		}
		if segs, ok := m["Segments"].([]any); ok { // a trace of BatchGetTraces
			for _, sg := range segs {
				sm, ok := sg.(map[string]any)
				if !ok {
					return fmt.Errorf("line %d: an X-Ray segment is a JSON object", line)
				}
				if err := xrayDocument(ctx, sm["Document"], firstText(m, []string{"Id"}), line, &out); err != nil {
					return err
				}
			}
			return nil
		}
		return xrayDocument(ctx, m, "", line, &out)
	}
	err := eachObject(ctx, data, "an X-Ray trace", xrayTraces, func(m map[string]any, s int) error {
		return doc(m, lines.at(s))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// xrayTraces finds the traces of BatchGetTraces' answer: {"Traces": […]}.
func xrayTraces(data []byte, i int) (int, bool) {
	s, _, ok := member(data, i, "Traces")
	return s, ok && data[s] == '['
}

// xrayDocument appends the spans of a segment document d, given as a JSON
// string or as the object itself; traceID is the trace that holds it, when
// the document does not say.
func xrayDocument(ctx context.Context, d any, traceID string, line int, out *[]Span) error {
	if s, ok := d.(string); ok {
		v, _, err := decodeText(s)
		if err != nil {
			return fmt.Errorf("line %d: an X-Ray segment's document is not JSON: %w", line, err)
		}
		d = v
	}
	m, ok := d.(map[string]any)
	if !ok {
		return fmt.Errorf("line %d: an X-Ray segment document is a JSON object", line)
	}
	if t := firstText(m, []string{"trace_id"}); t != "" {
		traceID = t
	}
	if traceID == "" {
		return fmt.Errorf("line %d: an X-Ray segment %s with no trace_id", line, QuoteForError(firstText(m, []string{"name"})))
	}
	traceID = xrayTraceID(traceID)
	type item struct {
		m      map[string]any
		parent string
		depth  int
	}
	stack := []item{{m: m, parent: firstText(m, []string{"parent_id"})}}
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.depth > maxDepth {
			return fmt.Errorf("line %d: X-Ray subsegments nested deeper than %d", line, maxDepth)
		}
		sp, err := xraySpan(it.m, traceID, it.parent, it.depth == 0, line)
		if err != nil {
			return err
		}
		*out = append(*out, sp)
		subs, _ := it.m["subsegments"].([]any)
		for i := len(subs) - 1; i >= 0; i-- {
			cm, ok := subs[i].(map[string]any)
			if !ok {
				return fmt.Errorf("line %d: an X-Ray subsegment is a JSON object, in trace %s", line, traceID)
			}
			parent := firstText(cm, []string{"parent_id"})
			if parent == "" {
				parent = sp.SpanID
			}
			stack = append(stack, item{m: cm, parent: parent, depth: it.depth + 1})
		}
	}
	return nil
}

// xraySpan reads one segment or subsegment as a flat span.
func xraySpan(m map[string]any, traceID, parent string, top bool, line int) (Span, error) {
	rec := map[string]any{"trace_id": traceID, "span_id": m["id"], "name": m["name"], "start_time": m["start_time"], "end_time": m["end_time"]}
	if parent != "" {
		rec["parent_id"] = parent
	}
	attrs := map[string]any{}
	if an, ok := m["annotations"].(map[string]any); ok {
		for k, v := range an {
			attrs[k] = v
		}
	}
	if md, ok := m["metadata"].(map[string]any); ok {
		for ns, v := range md {
			if ns == "default" {
				if dm, ok := v.(map[string]any); ok {
					for k, e := range dm {
						attrs[k] = e
					}
					continue
				}
			}
			attrs[ns] = v
		}
	}
	rec["attributes"] = attrs
	switch ns, _ := m["namespace"].(string); {
	case top && m["type"] != "subsegment":
		rec["kind"] = "server"
	case ns == "remote" || ns == "aws":
		rec["kind"] = "client"
	}
	if m["fault"] == true || m["error"] == true {
		rec["status_code"] = "ERROR"
		rec["status_message"] = xrayCause(m["cause"])
	}
	return flatSpan(rec, line)
}

// xrayCause is the message of a segment's first exception ("TYPE:
// MESSAGE"), or "".
func xrayCause(c any) string {
	cm, _ := c.(map[string]any)
	exs, _ := cm["exceptions"].([]any)
	for _, e := range exs {
		em, _ := e.(map[string]any)
		msg, typ := firstText(em, []string{"message"}), firstText(em, []string{"type"})
		switch {
		case typ != "" && msg != "":
			return typ + ": " + msg
		case msg != "" || typ != "":
			return msg + typ
		}
	}
	return ""
}

// xrayTraceID turns X-Ray's "1-5759e988-bd862e3fe1be46a994272793" into
// the thirty-two hex digits OpenTelemetry writes; any other id is kept.
func xrayTraceID(id string) string {
	parts := strings.Split(id, "-")
	if len(parts) == 3 && parts[0] == "1" && len(parts[1]) == 8 && len(parts[2]) == 24 {
		return strings.ToLower(parts[1] + parts[2])
	}
	return id
}
