package spans

import (
	"bytes"
	"context"
	"fmt"
)

// Decode reads every span of a file in format f (Detect's answer, or the
// user's). Errors name the position in the file; the caller adds its name.
// A file of a hundred megabytes takes seconds: ctx ends it early.
func Decode(ctx context.Context, data []byte, f Format) ([]Span, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	switch f {
	case OTLP:
		return decodeOTLP(ctx, data)
	case Tempo:
		if i := skipSpace(data, 0); i < len(data) && data[i] == '{' && isTempoSearch(data, i) {
			return decodeTempoSearch(ctx, data)
		}
		return decodeOTLP(ctx, data)
	case Jaeger:
		return decodeJaeger(ctx, data)
	case OpenInference:
		return decodeFlat(ctx, data)
	case Langfuse:
		return decodeLangfuse(ctx, data)
	case LangSmith:
		return decodeLangSmith(ctx, data)
	case Calls:
		return decodeCalls(ctx, data)
	case Sentry:
		return decodeSentry(ctx, data)
	case Datadog:
		return decodeDatadog(ctx, data)
	case Lunary:
		return decodeLunary(ctx, data)
	case LiteralAI:
		return decodeLiteral(ctx, data)
	case PostHog:
		return decodePostHog(ctx, data)
	case Maxim:
		return decodeMaxim(ctx, data)
	case Galileo:
		return decodeGalileo(ctx, data)
	case XRay:
		return decodeXRay(ctx, data)
	default:
		return nil, fmt.Errorf("unknown trace format %q", f)
	}
}

// Detect names the trace format of data from the keys of its first JSON
// value (or, for bytes that are no text, OTLP's protobuf; for a line of
// Maxim's commit logs, Maxim), or returns ""
// when it is not a trace file this package reads (a Who&When case, a chat
// transcript, anything else). It reads no further than it must: the
// first key of an OTLP file decides.
func Detect(data []byte) Format {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if Binary(data) {
		if IsOTLPProto(data) {
			return OTLP
		}
		return ""
	}
	i := skipSpace(data, 0)
	if i >= len(data) {
		return ""
	}
	if IsMaxim(data[i:]) {
		return Maxim
	}
	var f Format
	switch data[i] {
	case '[':
		_ = eachElement(data, i, func(s, _ int) error {
			f = detectElement(data, s)
			return errStop
		})
	case '{':
		f = detectObject(data, i)
	}
	if f == "" && callsAmong(data, i) {
		return Calls
	}
	return f
}

// callsScanned is how many records Detect reads for a model call when the
// first is of no format: AutoGen's runtime log opens with the agents it
// makes.
const callsScanned = 64

// callsAmong reports whether one of the first records of data (the
// elements of the array at i, or values a line from i) is a model call:
// a record holding one of callPairs, or a listing or a flow's log whose
// records are (callWrappers, "trace_children").
func callsAmong(data []byte, i int) bool {
	found, n := false, 0
	var look func(s, _ int) error
	look = func(s, _ int) error {
		if n++; n > callsScanned {
			return errStop
		}
		if data[s] != '{' {
			return nil
		}
		keys := map[string]int{}
		_ = eachMember(data, s, func(key []byte, vs, _ int) bool {
			keys[string(key)] = vs
			return true
		})
		has := func(k string) bool { _, ok := keys[k]; return ok }
		// A step of the Vercel AI SDK holds its request and response
		// beside what the model said and the tools gave back (its content,
		// or, before version 5, its toolCalls): no call.
		if (has("content") || has("toolCalls")) && has("finishReason") {
			return errStop
		}
		for _, p := range callPairs {
			if has(p.request) && has(p.response) && (p.needs == "" || has(p.needs)) {
				found = true
				return errStop
			}
		}
		if has("history") || has("messages") || has("role") { // a Who&When case, a transcript
			return errStop
		}
		for _, k := range append([]string{"trace_children"}, callWrappers...) {
			if vs, ok := keys[k]; ok && data[vs] == '[' {
				if err := eachElement(data, vs, look); err != nil || found {
					return errStop
				}
			}
		}
		return nil
	}
	if data[i] == '[' {
		_ = eachElement(data, i, look)
		return found
	}
	for j := i; j < len(data) && look(j, 0) == nil; {
		end, err := skipValue(data, j)
		if err != nil {
			break
		}
		j = skipSpace(data, end)
	}
	return found
}

// errStop ends a walk early.
var errStop = fmt.Errorf("stop")

func detectObject(data []byte, i int) Format {
	// A file cut short is still known by its first key, so that the error
	// the user sees is the format's own ("truncated at line…").
	switch firstKey(data, i) {
	case "resourceSpans", "resource_spans", "resourceLogs", "resource_logs":
		return OTLP
	case "batches":
		return Tempo
	}
	if _, ok := newRelicResults(data, i); ok {
		return OpenInference // New Relic's AI monitoring events, as NRQL answers them
	}
	if sigNozElement(data, i) {
		return OpenInference // SigNoz's trace view, a table of spans
	}
	if _, ok := elasticHits(data, i); ok {
		return OpenInference // Elastic APM's documents, as a search answers them
	}
	var f Format
	keys := map[string]bool{}
	scalars := false
	_ = eachMember(data, i, func(key []byte, s, _ int) bool {
		k := string(key)
		keys[k] = true
		scalars = scalars || data[s] != '{'
		switch k {
		case "resourceSpans", "resource_spans", "resourceLogs", "resource_logs":
			f = OTLP
		case "batches":
			f = Tempo
		case "trace":
			if data[s] == '{' {
				if _, _, ok := member(data, s, "resourceSpans"); ok {
					f = Tempo
				}
			}
		case "result": // Jaeger's API v3: {"result": TracesData}
			if data[s] == '{' {
				if _, _, ok := member(data, s, "resourceSpans"); ok {
					f = OTLP
				}
			}
		case "data":
			switch data[s] {
			case '[':
				_ = eachElement(data, s, func(es, _ int) error {
					f = detectElement(data, es)
					return errStop
				})
			case '{': // MLflow's trace: {"info": …, "data": {"spans": […]}}
				if sp, _, ok := member(data, s, "spans"); ok && data[sp] == '[' {
					f = OpenInference
				}
			}
		case "events": // Braintrust's fetch API, {"events": [span…]}; Lunary's run events
			if _, ok := eventsOfSpans(data, i); ok {
				f = OpenInference
			} else if data[s] == '[' {
				_ = eachElement(data, s, func(es, _ int) error {
					if detectElement(data, es) == Lunary {
						f = Lunary
					}
					return errStop
				})
			}
		case "batch", "results": // PostHog's events, as posted or listed; Langfuse's ingestion batches
			if data[s] == '[' {
				_ = eachElement(data, s, func(es, _ int) error {
					switch g := detectElement(data, es); {
					case g == PostHog || g == Langfuse && k == "batch":
						f = g
					case g == OpenInference && k == "results": // Keywords AI's logs, as its API lists them
						f = g
					}
					return errStop
				})
			}
		case "trees": // Agenta's traces: {"trees": [{"tree", "nodes"}]}
			if _, ok := listOfSpans(data, i, "trees"); ok {
				f = OpenInference
			}
		case "content": // a REST API's page of spans, as Opik's lists them: {"page", "size", "total", "content": [span…]}
			if _, ok := pageOfSpans(data, i); ok {
				f = OpenInference
			}
		case "Traces": // X-Ray's BatchGetTraces: {"Traces": [{"Id", "Segments"}]}
			if data[s] == '[' {
				_ = eachElement(data, s, func(es, _ int) error {
					if data[es] == '{' {
						if _, _, ok := member(data, es, "Segments"); ok {
							f = XRay
						}
					}
					return errStop
				})
			}
		case "traces": // Tempo's search results: {"traces": [{"traceID", "spanSets"}]}
			if isTempoSearch(data, i) {
				f = Tempo
			}
		case "TraceSegmentDocuments": // X-Ray's PutTraceSegments
			if data[s] == '[' {
				f = XRay
			}
		case "runs": // LangSmith's runs: {"runs": [run…]}
			if data[s] == '[' {
				_ = eachElement(data, s, func(es, _ int) error {
					if detectElement(data, es) == LangSmith {
						f = LangSmith
					}
					return errStop
				})
			}
		}
		return f == ""
	})
	if f != "" {
		return f
	}
	if !scalars {
		// Every member an object: a data frame by columns ({"name": {row:
		// cell…}, "context.span_id": {…}}), not one span (Frames).
		return ""
	}
	return detectKeys(keys)
}

// firstKey returns the first key of the object at i, or "".
func firstKey(data []byte, i int) string {
	j := skipSpace(data, i+1)
	if j >= len(data) || data[j] != '"' {
		return ""
	}
	end, err := skipString(data, j)
	if err != nil {
		return ""
	}
	return string(data[j+1 : end-1])
}

// detectElement names the format of a file that is a list of d: traces
// of Jaeger or Langfuse, LangSmith runs, or flat spans.
func detectElement(data []byte, i int) Format {
	keys, ok := objectKeys(data, i)
	if !ok {
		return ""
	}
	if sigNozElement(data, i) {
		return OpenInference // SigNoz's trace view, a table of spans
	}
	return detectKeys(keys)
}

// objectKeys returns the keys of the object at i, and whether there is
// an object there.
func objectKeys(data []byte, i int) (map[string]bool, bool) {
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	keys := map[string]bool{}
	_ = eachMember(data, i, func(key []byte, _, _ int) bool {
		keys[string(key)] = true
		return true
	})
	return keys, true
}

// hasKeys reports whether m, a record or the set of its keys, has every
// one of keys.
func hasKeys[V any](m map[string]V, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

func detectKeys(keys map[string]bool) Format {
	switch {
	case keys["spans"] && (keys["traceID"] || keys["processes"]):
		return Jaeger
	case keys["observations"] && (keys["id"] || keys["trace"]):
		return Langfuse
	case keys["traces"] && keys["projectId"] && keys["createdAt"]:
		return Langfuse // a session with its traces
	case keys["traceId"] && keys["type"] && keys["startTime"] && keys["id"]:
		return Langfuse // an observation
	case isLangfuseEvent(keys):
		return Langfuse // an ingestion event
	case keys["sent_at"] && (keys["sdk"] || keys["trace"] || keys["event_id"] || keys["dsn"]):
		return Sentry // an envelope's header
	case keys["spans"] && keys["contexts"] && keys["type"]:
		return Sentry // a transaction event
	case keys["id"] && keys["startTime"] && keys["type"] && !keys["traceId"] && (keys["rootRunId"] || keys["threadId"] || keys["parentId"] || keys["generation"]):
		return LiteralAI // a step
	case keys["event"] && keys["properties"] && (keys["uuid"] || keys["distinct_id"]):
		return PostHog // an event
	case keys["runId"] && keys["event"] && keys["type"]:
		return Lunary // a run's event
	case keys["trace_id"] && keys["id"] && keys["start_time"] && (keys["subsegments"] || keys["origin"] || keys["in_progress"]):
		return XRay // a segment document
	case keys["spans"] && keys["event_type"]:
		return Datadog // LLM Observability's span event
	case keys["span_id"] && keys["start_ns"] && keys["meta"]:
		return Datadog // one of its spans
	case keys["traces"] && keys["log_stream_id"]:
		return Galileo // an ingestion request
	case keys["spans"] && keys["type"] && keys["created_at"] && keys["metrics"]:
		return Galileo // a trace
	case keys["spans"] && !keys["processes"]:
		return OpenInference // {"spans": [flat span…]}
	case keys["run_type"] && keys["id"]:
		return LangSmith
	case keys["object"] && keys["workflow_name"] && keys["id"]:
		return OpenInference // the OpenAI Agents SDK's record of a trace, before its spans
	case keys["operation_Id"] && keys["id"] && keys["name"] || keys["OperationId"] && keys["Id"] && keys["Name"]:
		return OpenInference // Application Insights' requests and dependencies
	case isNewRelicRow(keys):
		return OpenInference // one of New Relic's AI monitoring events
	case isElasticKeys(keys):
		return OpenInference // one of Elastic APM's documents, or a search hit holding one
	case isAgentaKeys(keys):
		return OpenInference // one of Agenta's traces
	case isPareaLog(keys):
		return OpenInference // one of Parea's trace logs
	case isKeywordsLog(keys):
		return OpenInference // one of Keywords AI's logs
	case keys["SpanContext"] && keys["Name"]:
		return OpenInference // OpenTelemetry Go's span stub, as its stdouttrace exporter writes it
	}
	hasID := keys["context"] || keys["context.span_id"] || keys["span_id"] || keys["spanId"] || keys["spanID"] ||
		keys["id"] && keys["traceId"] || // OpenTelemetry JS's console exporter
		keys["id"] && keys["trace_id"] || // span records of LLM tracing tools (Opik, Weave's calls, which name their op_name)
		keys["span_id"] && keys["root_span_id"] || // Braintrust's
		keys["event_id"] && keys["session_id"] || // HoneyHive's events
		keys["trace.trace_id"] && keys["trace.span_id"] // Honeycomb's events
	if hasID && (keys["name"] || keys["span_kind"] || keys["attributes"] || keys["parent_id"] || keys["span_attributes"] || keys["op_name"] || keys["event_name"]) {
		return OpenInference
	}
	return ""
}

// TopKeys returns the keys of the first JSON value of data when it is an
// object, or of the first element when it is an array of objects, in file
// order (at most max of them): what a message about an unknown file shows.
func TopKeys(data []byte, max int) []string {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	i := skipSpace(data, 0)
	if i < len(data) && data[i] == '[' {
		found := -1
		_ = eachElement(data, i, func(s, _ int) error {
			found = s
			return errStop
		})
		if found < 0 {
			return nil
		}
		i = found
	}
	if i >= len(data) || data[i] != '{' {
		return nil
	}
	var keys []string
	_ = eachMember(data, i, func(key []byte, _, _ int) bool {
		keys = append(keys, string(key))
		return len(keys) < max
	})
	return keys
}
