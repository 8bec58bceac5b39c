package spans

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sentryTransaction is a transaction event in the shape Sentry's SDKs send
// (develop.sentry.dev, "Transaction Payloads"): its root span the trace
// context, its other spans listed with their data.
const sentryTransaction = `{"type":"transaction","transaction":"trip","start_timestamp":1764250000.5,"timestamp":1764250002.5,` +
	`"contexts":{"trace":{"trace_id":"3a6493a6fbbd4cc989111816b0006e28","span_id":"a47d64ff6c8f406d","op":"gen_ai.invoke_agent","status":"ok","data":{"sentry.origin":"manual"}}},` +
	`"spans":[{"span_id":"9c32107296a687e4","parent_span_id":"a47d64ff6c8f406d","description":"execute_tool lookup","op":"gen_ai.execute_tool","start_timestamp":1764250001,"timestamp":1764250001.5,"status":"deadline_exceeded","data":{"gen_ai.tool.name":"lookup"}}]}`

// sentrySpanContainer is a span container of version 2, as SDKs that
// stream spans send it: attributes typed {"type", "value"}.
const sentrySpanContainer = `{"version":2,"items":[{"name":"chat gpt-4o-mini","span_id":"8551a10a2e60a8a7","trace_id":"db9696cdd02745c6a9def1c87b0b8f92","parent_span_id":"a32eaf4d6184e9e3",` +
	`"start_timestamp":1764250000.25,"end_timestamp":1764250000.75,"is_segment":false,"status":"error","attributes":{"sentry.op":{"value":"gen_ai.chat","type":"string"},` +
	`"sentry.status.message":{"value":"rate limited","type":"string"},"gen_ai.usage.input_tokens":{"value":10,"type":"integer"},"sentry.is_localhost":{"value":false,"type":"boolean"}}}]}`

// TestSentry: an envelope's transaction and span container items are read
// as spans, whether or not an item's header gives its length, and an error
// event as an exception of the span it names; other items, and the
// envelope's headers, are passed over; a transaction event is read alone
// too.
func TestSentry(t *testing.T) {
	header := `{"event_id":"b349149297a54d70ba0c3e637ee18f95","sent_at":"2026-11-27T14:50:37.966Z","sdk":{"name":"sentry.javascript.node","version":"11.12.0"}}`
	attachment := "binary\nbytes"
	envelope := header + "\n" +
		`{"type":"transaction"}` + "\n" + sentryTransaction + "\n" +
		`{"type":"attachment","length":` + strconv.Itoa(len(attachment)) + `}` + "\n" + attachment + "\n" +
		`{"type":"span","item_count":1,"content_type":"application/vnd.sentry.items.span.v2+json","length":` + strconv.Itoa(len(sentrySpanContainer)) + "}\n" + sentrySpanContainer + "\n" +
		`{"type":"event"}` + "\n" + `{"contexts":{"trace":{"trace_id":"3a6493a6fbbd4cc989111816b0006e28","span_id":"9c32107296a687e4"}},"timestamp":1764250001.5,` +
		`"exception":{"values":[{"type":"TypeError","value":"cause"},{"type":"Error","value":"unknown city: Olso","stacktrace":{"frames":[]}}]}}` + "\n" +
		`{"type":"event"}` + "\n" + `{"message":"no span","exception":{"values":[{"type":"Error","value":"x"}]}}` + "\n" +
		header + "\n" + `{"type":"client_report"}` + "\n" + `{"discarded_events":[]}` + "\n"
	assert.Equal(t, Sentry, Detect([]byte(envelope)))
	assert.Equal(t, Sentry, Detect([]byte(sentryTransaction)))

	ss, err := Decode(context.Background(), []byte(envelope), Sentry)
	require.NoError(t, err)
	require.Len(t, ss, 3)
	root, tool, chat := ss[0], ss[1], ss[2]
	assert.Equal(t, Span{TraceID: "3a6493a6fbbd4cc989111816b0006e28", SpanID: "a47d64ff6c8f406d", Name: "trip",
		Start: 1764250000500000000, End: 1764250002500000000, Status: Status{Code: StatusOK}, Line: 3,
		Attrs: Attrs{{Key: "sentry.op", Value: String("gen_ai.invoke_agent")}, {Key: "sentry.origin", Value: String("manual")}}}, root)
	assert.Equal(t, "3a6493a6fbbd4cc989111816b0006e28", tool.TraceID, "a transaction's span is of its trace")
	assert.Equal(t, "a47d64ff6c8f406d", tool.ParentID)
	assert.Equal(t, "execute_tool lookup", tool.Name)
	assert.Equal(t, "lookup", tool.Attrs.Str("gen_ai.tool.name"))
	assert.Equal(t, "gen_ai.execute_tool", tool.Attrs.Str("sentry.op"))
	assert.Equal(t, Status{Code: StatusError}, tool.Status, "a status's name is no message")
	assert.Equal(t, int64(1764250001500000000), tool.End)
	assert.Equal(t, []Event{{Name: "exception", Time: 1764250001500000000, Attrs: Attrs{
		{Key: "exception.message", Value: String("unknown city: Olso")}, {Key: "exception.type", Value: String("Error")},
	}}}, tool.Events, "an error event is an exception of the span it names, the one raised its last value")

	assert.Equal(t, "chat gpt-4o-mini", chat.Name)
	assert.Equal(t, 8, chat.Line, "the line of its payload, past the attachment's two")
	assert.Equal(t, Status{Code: StatusError, Message: "rate limited"}, chat.Status)
	v, _ := chat.Attrs.Get("gen_ai.usage.input_tokens")
	assert.Equal(t, Value{Kind: KindInt, Int: 10}, v, "a typed attribute is its value")
	v, _ = chat.Attrs.Get("sentry.is_localhost")
	assert.Equal(t, Value{Kind: KindBool}, v)

	ss, err = Decode(context.Background(), []byte(sentryTransaction), Sentry)
	require.NoError(t, err)
	assert.Len(t, ss, 2)
}

func TestSentryBadFiles(t *testing.T) {
	header := `{"sent_at":"2026-11-27T14:50:37.966Z","sdk":{}}` + "\n"
	tests := []struct {
		name, data, want string
	}{
		{"length past the end", header + `{"type":"span","length":900}` + "\n{}", "line 2: a Sentry item's length 900 runs past the end of the file"},
		{"span without id", header + `{"type":"span"}` + "\n" + `{"version":2,"items":[{"name":"x","trace_id":"t"}]}`, `Sentry span "x" at line 3 has no trace_id or span_id`},
		{"bad time", sentryTransaction[:len(sentryTransaction)-3] + `,"start_timestamp":"soon"}]}`, `Sentry span "execute_tool lookup" at line 1: start_timestamp "soon" is not a time`},
		{"not an object", header + "[1]", "line 2, column 1: a Sentry envelope's header is a JSON object"},
		{"broken payload", header + `{"type":"transaction"}` + "\n" + `{"spans":[`, "line 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(context.Background(), []byte(tt.data), Sentry)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func FuzzSentry(f *testing.F) {
	fuzzSeeds(f, "../traces/sentry-node-spans.jsonl", "../traces/sentry-node-transaction.jsonl")
	f.Add([]byte(sentryTransaction))
	f.Add([]byte(`{"sent_at":"x"}` + "\n" + `{"type":"span","length":` + strconv.Itoa(len(sentrySpanContainer)) + "}\n" + sentrySpanContainer))
	fuzzDecode(f, Sentry)
}
