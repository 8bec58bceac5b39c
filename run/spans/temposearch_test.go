package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tempoSearch is Tempo's answer to a TraceQL search that selected
// attributes, its span set repeated as spanSet, its ids without their
// leading zeros.
const tempoSearch = `{"traces":[{"traceID":"a3c9e1f0b2d4c6e8a0b1c2d3e4f5a6b","rootServiceName":"support-desk","rootTraceName":"Agent workflow","startTimeUnixNano":"1795680000000000000","durationMs":7000,` +
	`"spanSet":{"spans":[{"spanID":"e000000000000002","name":"invoke_agent Triage","startTimeUnixNano":"1795680000010000000","durationNanos":"1200000000","attributes":[{"key":"gen_ai.agent.name","value":{"stringValue":"Triage"}},{"key":"gen_ai.usage.input_tokens","value":{"intValue":"42"}},{"key":"offattr.mistake","value":{"boolValue":true}},{"key":"status","value":{"stringValue":"error"}}]}],"matched":2},` +
	`"spanSets":[{"spans":[{"spanID":"e000000000000002","name":"invoke_agent Triage","startTimeUnixNano":"1795680000010000000","durationNanos":"1200000000","attributes":[{"key":"gen_ai.agent.name","value":{"stringValue":"Triage"}}]},` +
	`{"spanID":"fa","name":"chat","startTimeUnixNano":"1795680000020000000","durationNanos":"1000","attributes":[{"key":"gen_ai.request.temperature","value":{"doubleValue":0.2}},{"key":"tags","value":{"arrayValue":{"values":[{"stringValue":"a"}]}}}]}],"matched":2}]}],"metrics":{"inspectedBytes":"184320"}}`

// TestTempoSearch: the spans a search matched are spans of their trace,
// each once, with the attributes it selected; the trace's root service is
// their resource; ids get their leading zeros back.
func TestTempoSearch(t *testing.T) {
	require.Equal(t, Tempo, Detect([]byte(tempoSearch)))
	ss, err := Decode(context.Background(), []byte(tempoSearch), Tempo)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	agent, chat := ss[0], ss[1]
	assert.Equal(t, "0a3c9e1f0b2d4c6e8a0b1c2d3e4f5a6b", agent.TraceID)
	assert.Equal(t, "e000000000000002", agent.SpanID)
	assert.Equal(t, "invoke_agent Triage", agent.Name)
	assert.Equal(t, "Triage", agent.Attrs.Str("gen_ai.agent.name"))
	assert.Equal(t, "42", agent.Attrs.Str("gen_ai.usage.input_tokens"))
	assert.Equal(t, "true", agent.Attrs.Str("offattr.mistake"))
	assert.Equal(t, StatusError, agent.Status.Code)
	assert.Equal(t, int64(1200000000), agent.End-agent.Start)
	assert.Equal(t, "support-desk", agent.Resource.Str("service.name"))

	assert.Equal(t, "00000000000000fa", chat.SpanID)
	assert.Equal(t, "0.2", chat.Attrs.Str("gen_ai.request.temperature"))
	assert.Equal(t, `["a"]`, chat.Attrs.Str("tags"))
}

// TestTempoSearchTimes: a span's start and duration are read as written,
// quoted or not, a nanosecond time past float64's exact integers
// included.
func TestTempoSearchTimes(t *testing.T) {
	tests := []struct {
		name, start, duration string
		wantStart, wantEnd    int64
	}{
		{"unquoted", `1795680000020000123`, `1000`, 1795680000020000123, 1795680000020001123},
		{"quoted", `"1795680000020000123"`, `"1000"`, 1795680000020000123, 1795680000020001123},
		{"unquoted start, quoted duration", `1795680000020000123`, `"7"`, 1795680000020000123, 1795680000020000130},
		{"no duration", `"1795680000020000123"`, `null`, 1795680000020000123, 0},
		{"not a time", `"soon"`, `1000`, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := `{"traces":[{"traceID":"ab","spanSets":[{"spans":[{"spanID":"fa","name":"chat","startTimeUnixNano":` + tt.start + `,"durationNanos":` + tt.duration + `}]}]}]}`
			ss, err := Decode(context.Background(), []byte(data), Tempo)
			require.NoError(t, err)
			require.Len(t, ss, 1)
			assert.Equal(t, tt.wantStart, ss[0].Start)
			assert.Equal(t, tt.wantEnd, ss[0].End)
		})
	}
}

// TestTempoSearchKeys: only the keys Tempo writes are read; another
// spelling of one is not taken for it.
func TestTempoSearchKeys(t *testing.T) {
	tests := []struct {
		name, data, wantErr string
		wantSpans           int
		wantService         string
	}{
		{"traceId", `{"traces":[{"traceId":"ab","spanSets":[{"spans":[{"spanID":"fa"}]}]}]}`, "with no traceID", 0, ""},
		{"SpanSets", `{"traces":[{"traceID":"ab","spanSet":{"spans":[{"spanID":"fa"}]},"SpanSets":[{"spans":[{"spanID":"fb"}]}]}]}`, "", 1, ""},
		{"Spans", `{"traces":[{"traceID":"ab","spanSets":[{"Spans":[{"spanID":"fa"}]},{"spans":[{"spanID":"fb"}]}]}]}`, "", 1, ""},
		{"rootservicename", `{"traces":[{"traceID":"ab","rootservicename":"desk","spanSets":[{"spans":[{"spanID":"fa"}]}]}]}`, "", 1, ""},
		{"as written", `{"traces":[{"traceID":"ab","rootServiceName":"desk","spanSets":[{"spans":[{"spanID":"fa"}]}]}]}`, "", 1, "desk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss, err := Decode(context.Background(), []byte(tt.data), Tempo)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Len(t, ss, tt.wantSpans)
			assert.Equal(t, tt.wantService, ss[0].Resource.Str("service.name"))
		})
	}
}

func TestTempoSearchBadFiles(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"no trace id", `{"traces":[{"spanSets":[]}]}`, "line 1: a Tempo search result's trace with no traceID"},
		{"no span id", `{"traces":[{"traceID":"ab","spanSets":[{"spans":[{"name":"x"}]}]}]}`, "line 1: a span of Tempo trace 000000000000000000000000000000ab with no spanID"},
		{"trace not an object", `{"traces":[{"traceID":"ab","spanSets":[]},3]}`, "a Tempo search result is a JSON object"},
		{"spans not a list", `{"traces":[{"traceID":"ab","spanSets":[{"spans":3}]}]}`, `line 1: a Tempo search result's trace: a span set's "spans" is not a list`},
		{"trace id not text", `{"traces":[{"traceID":12,"spanSets":[]}]}`, `line 1: a Tempo search result's trace: "traceID" is not text`},
		{"root service not text", `{"traces":[{"traceID":"ab","rootServiceName":[],"spanSets":[]}]}`, `line 1: a Tempo search result's trace: "rootServiceName" is not text`},
		{"span set not an object", `{"traces":[{"traceID":"ab","spanSet":[]}]}`, `line 1: a Tempo search result's trace: "spanSet" is not an object`},
		{"span sets not a list", `{"traces":[{"traceID":"ab","spanSets":{}}]}`, `line 1: a Tempo search result's trace: "spanSets" is not a list`},
		{"a span set not an object", `{"traces":[{"traceID":"ab","spanSets":[3]}]}`, "line 1: a Tempo search result's trace: a span set is not an object"},
		{"a span not an object", `{"traces":[{"traceID":"ab","spanSets":[{"spans":["x"]}]}]}`, "line 1: a Tempo search result's trace: a span is not an object"},
		{"a null span", `{"traces":[{"traceID":"ab","spanSets":[{"spans":[null]}]}]}`, "line 1: a span of Tempo trace 000000000000000000000000000000ab with no spanID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(context.Background(), []byte(tt.data), Tempo)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func FuzzTempoSearch(f *testing.F) {
	f.Add([]byte(tempoSearch))
	f.Add([]byte(`{"traces":[{"traceID":"ab","spanSets":[{"spans":[{"spanID":"fa","startTimeUnixNano":1795680000020000123,"durationNanos":1000}]}]}]}`))
	fuzzDecode(f, Tempo)
}
