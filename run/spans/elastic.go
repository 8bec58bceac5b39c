package spans

import (
	"cmp"
	"encoding/json"
	"strconv"
	"strings"
)

// Elastic APM's documents, as Elasticsearch keeps them (ECS): a search
// answer, {"hits": {"hits": [{"_index", "_id", "_source": doc}]}}, its
// hits one a line (as elasticdump writes them), or the documents one a
// line. A document of a span or a transaction is {"trace": {"id"},
// "span" or "transaction": {"id", "name", "duration": {"us"}}, "parent":
// {"id"}, "timestamp": {"us"}, "event": {"outcome"}, "service": {"name"},
// "labels": {…}, "numeric_labels": {…}, "processor": {"event"}}; the same
// fields may be written dotted ("trace.id"). Its labels are the span's
// attributes, their names as Elastic keeps them (dots made underscores:
// run reads them back), its service its resource's name. An error's
// document ({"error": {"exception": [{"message", "type"}], "log":
// {"message"}}, "parent": {"id"}}, or its fields dotted) is an exception
// event of the span it names; other documents (metrics) hold no span.

// elasticHits returns where the list of a search answer's hits starts.
func elasticHits(data []byte, i int) (int, bool) {
	if i >= len(data) || data[i] != '{' {
		return 0, false
	}
	s, _, ok := member(data, i, "hits")
	if !ok || data[s] != '{' {
		return 0, false
	}
	hs, _, ok := member(data, s, "hits")
	if !ok || data[hs] != '[' {
		return 0, false
	}
	found := false
	_ = eachElement(data, hs, func(es, _ int) error {
		keys, ok := objectKeys(data, es)
		found = ok && keys["_source"]
		return errStop
	})
	return hs, found
}

// isElasticKeys reports whether keys are those of an Elastic APM
// document or of a hit holding one (by its "_source").
func isElasticKeys(keys map[string]bool) bool {
	if keys["_source"] && keys["_index"] {
		return true
	}
	trace := keys["trace"] || keys["trace.id"]
	when := keys["timestamp"] || keys["timestamp.us"] || keys["@timestamp"]
	what := keys["span"] || keys["transaction"] || keys["span.id"] || keys["transaction.id"] || keys["error"]
	return trace && when && what && (keys["processor"] || keys["processor.event"] || keys["service"] || keys["service.name"])
}

// elasticOTel returns, as a flat span, the document a hit holds when
// Elastic kept it as OpenTelemetry wrote it (its OTel-native documents:
// {"@timestamp", "trace_id", "span_id", "parent_span_id", "name",
// "kind", "duration" in nanoseconds, "attributes", "resource":
// {"attributes"}, "status": {"code"}}); nil, true for a hit of such
// documents that is no span's (a log's, naming its span). A span's
// document alone, outside a hit (one a line, as an index's export
// writes them), is read the same.
func elasticOTel(m map[string]any) (map[string]any, bool) {
	src, ok := m["_source"].(map[string]any)
	if !ok || m["_index"] == nil {
		if !elasticOTelSpanDoc(m) {
			return nil, false
		}
		src = m
	}
	if src["span_id"] == nil || src["trace_id"] == nil {
		return nil, false
	}
	if t := ecsStr(src, "data_stream.type"); t != "" && t != "traces" || src["name"] == nil && src["duration"] == nil {
		return nil, true // a log's or a metric's document, which names its span too
	}
	rec := make(map[string]any, len(src))
	for k, v := range src {
		rec[k] = v
	}
	if r, ok := src["resource"].(map[string]any); ok {
		if as, ok := r["attributes"].(map[string]any); ok {
			rec["resource"] = as
		}
	}
	if first(rec, flatStartKeys) == nil {
		rec["start_time"] = src["@timestamp"]
		if first(rec, flatEndKeys) == nil {
			endAfter(rec, src["duration"], 1)
		}
	}
	return rec, true
}

// elasticOTelSpanDoc reports whether m is, alone, one of Elastic's
// OpenTelemetry-native documents of a span: its time under @timestamp,
// its ids and name as OpenTelemetry writes them, no other start time,
// and no data stream but the traces'.
func elasticOTelSpanDoc(m map[string]any) bool {
	if m["_source"] != nil || m["@timestamp"] == nil || m["trace_id"] == nil || m["span_id"] == nil || m["name"] == nil || first(m, flatStartKeys) != nil {
		return false
	}
	t := ecsStr(m, "data_stream.type")
	return t == "" || t == "traces"
}

// elasticDoc returns the APM document m is or holds, if it is one.
func elasticDoc(m map[string]any) (map[string]any, bool) {
	if src, ok := m["_source"].(map[string]any); ok && m["_index"] != nil {
		m = src
	}
	keys := make(map[string]bool, len(m))
	for k := range m {
		keys[k] = true
	}
	if !isElasticKeys(keys) || keys["_source"] {
		return nil, false
	}
	return m, true
}

// ecs returns the field at a dotted path of doc, written nested or
// dotted at any level.
func ecs(doc map[string]any, path string) any {
	if v, ok := doc[path]; ok {
		return v
	}
	head, rest, found := strings.Cut(path, ".")
	for found {
		if sub, ok := doc[head].(map[string]any); ok {
			if v := ecs(sub, rest); v != nil {
				return v
			}
		}
		var next string
		next, rest, found = strings.Cut(rest, ".")
		head += "." + next
	}
	return nil
}

// ecsStr is ecs for text.
func ecsStr(doc map[string]any, path string) string {
	s, _ := ecs(doc, path).(string)
	return s
}

// elasticSpan rewrites a span's or a transaction's document as the flat
// span it is; ok is false for a document that is neither.
func elasticSpan(doc map[string]any) (map[string]any, bool) {
	if elasticIsError(doc) {
		return nil, false // an error's document names its transaction too
	}
	kind := "span"
	if ecsStr(doc, "span.id") == "" {
		kind = "transaction"
	}
	id := ecsStr(doc, kind+".id")
	if id == "" {
		return nil, false
	}
	attrs := map[string]any{}
	for _, k := range []string{"labels", "numeric_labels"} {
		if ls, ok := ecs(doc, k).(map[string]any); ok {
			for name, v := range ls {
				attrs[name] = v
			}
		}
	}
	rec := map[string]any{
		"trace_id":   ecsStr(doc, "trace.id"),
		"span_id":    id,
		"parent_id":  ecsStr(doc, "parent.id"),
		"name":       ecs(doc, kind+".name"),
		"attributes": attrs,
	}
	if s := ecsStr(doc, "service.name"); s != "" {
		rec["resource"] = map[string]any{"service.name": s}
	}
	rec["start_time"] = ecs(doc, "@timestamp")
	if us, ok := ecs(doc, "timestamp.us").(json.Number); ok {
		if n, err := us.Int64(); err == nil {
			rec["start_time"] = json.Number(strconv.FormatInt(n*1000, 10))
		}
	}
	switch ecsStr(doc, "event.outcome") {
	case "failure":
		rec["status_code"] = "ERROR"
	case "success":
		rec["status_code"] = "OK"
	}
	endAfter(rec, ecs(doc, kind+".duration.us"), 1e3)
	return rec, true
}

// elasticIsError reports whether doc is an error's document: its event
// says so, or it holds an error's fields, nested or dotted.
func elasticIsError(doc map[string]any) bool {
	if ecsStr(doc, "processor.event") == "error" || ecs(doc, "error") != nil {
		return true
	}
	for k := range doc {
		if strings.HasPrefix(k, "error.") {
			return true
		}
	}
	return false
}

// elasticError returns the span an error's document names and the
// exception event it is; ok is false for a document that is no error.
func elasticError(doc map[string]any) (string, Event, bool) {
	if !elasticIsError(doc) {
		return "", Event{}, false
	}
	parent := ecsStr(doc, "parent.id")
	var attrs Attrs
	msg, typ := ecsStr(doc, "error.log.message"), ""
	if exs, ok := ecs(doc, "error.exception").([]any); ok && len(exs) > 0 {
		if ex, ok := exs[0].(map[string]any); ok {
			msg = cmp.Or(ecsStr(ex, "message"), msg)
			typ = ecsStr(ex, "type")
		}
	}
	if typ != "" {
		attrs = append(attrs, Attr{Key: "exception.type", Value: String(typ)})
	}
	if msg != "" {
		attrs = append(attrs, Attr{Key: "exception.message", Value: String(msg)})
	}
	var at int64
	if us, ok := ecs(doc, "timestamp.us").(json.Number); ok {
		if n, err := us.Int64(); err == nil {
			at = n * 1000
		}
	}
	return parent, Event{Name: "exception", Time: at, Attrs: attrs}, parent != ""
}
