package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sigNozTrace is SigNoz's trace view of a trace: a root span and a model
// call under it that failed, a span's attributes as two lists of text.
const sigNozTrace = `[{"columns":["__time","SpanId","TraceId","ServiceName","Name","Kind","DurationNano","TagsKeys","TagsValues","References","Events","HasError","StatusMessage","StatusCodeString","SpanKind"],` +
	`"events":[` +
	`[1795740000000,"c0ffee0000000001","5f3a9e1c7b2d4a6091c8e7f60a1b2c3d","oncall","oncall.workflow",1,5200000000,["traceloop.span.kind"],["workflow"],"[{\"traceId\":\"5f3a9e1c7b2d4a6091c8e7f60a1b2c3d\",\"spanId\":\"\",\"refType\":\"CHILD_OF\"}]",[],false,"","Unset","Internal"],` +
	`[1795740000010,"c0ffee0000000002","5f3a9e1c7b2d4a6091c8e7f60a1b2c3d","oncall","openai.chat",3,1390000000,["gen_ai.prompt.0.content","offattr.mistake"],["How many incidents?","true"],"[{\"traceId\":\"5f3a9e1c7b2d4a6091c8e7f60a1b2c3d\",\"spanId\":\"c0ffee0000000001\",\"refType\":\"CHILD_OF\"}]",[],true,"rate limited","Error","Client"]` +
	`],"isSubTree":false,"startTimestampMillis":1795740000000,"endTimestampMillis":1795740005200}]`

// TestSigNoz: each row of SigNoz's trace view is a span, its cells read
// by their columns: the tags its attributes, the service its resource's
// name, its reference its parent, its duration its end, HasError its
// status. An older release's camel-case columns and its references
// written as text are read the same; a table without span and trace ids
// is none of SigNoz's.
func TestSigNoz(t *testing.T) {
	require.Equal(t, OpenInference, Detect([]byte(sigNozTrace)))
	ss, err := Decode(context.Background(), []byte(sigNozTrace), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	root, chat := ss[0], ss[1]
	assert.Equal(t, "5f3a9e1c7b2d4a6091c8e7f60a1b2c3d", root.TraceID)
	assert.Equal(t, "c0ffee0000000001", root.SpanID)
	assert.Empty(t, root.ParentID)
	assert.Equal(t, "oncall.workflow", root.Name)
	assert.Equal(t, "workflow", root.Attrs.Str("traceloop.span.kind"))
	assert.Equal(t, "oncall", root.Resource.Str("service.name"))
	assert.Equal(t, int64(5200000000), root.End-root.Start)

	assert.Equal(t, root.SpanID, chat.ParentID)
	assert.Equal(t, "How many incidents?", chat.Attrs.Str("gen_ai.prompt.0.content"))
	assert.Equal(t, "true", chat.Attrs.Str("offattr.mistake"))
	assert.Equal(t, Status{Code: StatusError, Message: "rate limited"}, chat.Status)

	old := `{"columns":["__time","spanID","traceID","serviceName","name","kind","durationNano","tagsKeys","tagsValues","references","events","hasError"],` +
		`"events":[[1795740000010,"c0ffee0000000002","5f3a9e1c7b2d4a6091c8e7f60a1b2c3d","oncall","openai.chat",3,1000,[],[],"[{TraceId=5f3a9e1c7b2d4a6091c8e7f60a1b2c3d, SpanId=c0ffee0000000001, RefType=CHILD_OF}]",[],false]]}`
	require.Equal(t, OpenInference, Detect([]byte(old)))
	ss, err = Decode(context.Background(), []byte(old), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 1)
	assert.Equal(t, "c0ffee0000000001", ss[0].ParentID)
	assert.Equal(t, "openai.chat", ss[0].Name)
	assert.Equal(t, "oncall", ss[0].Resource.Str("service.name"), "serviceName, in camel case")

	// A table of other columns is no trace.
	assert.Empty(t, Detect([]byte(`[{"columns":["city","temp"],"events":[["Oslo",7]]}]`)))
}

func FuzzSigNoz(f *testing.F) {
	f.Add([]byte(sigNozTrace))
	fuzzDecode(f, OpenInference)
}

// TestSigNozParent: the parent is the CHILD_OF reference's span, whichever
// comes first, in both of SigNoz's spellings of the references.
func TestSigNozParent(t *testing.T) {
	for name, tc := range map[string]struct{ refs, want string }{
		"JSON, a FOLLOWS_FROM first":     {`[{"traceId":"t","spanId":"a","refType":"FOLLOWS_FROM"},{"traceId":"t","spanId":"b","refType":"CHILD_OF"}]`, "b"},
		"JSON, no kind":                  {`[{"traceId":"t","spanId":"a"}]`, "a"},
		"JSON, two spellings of the key": {`[{"spanID":"a","spanId":"b","refType":"CHILD_OF"}]`, "a"},
		"text, a FOLLOWS_FROM first":     {`[{TraceId=t, SpanId=a, RefType=FOLLOWS_FROM}, {TraceId=t, SpanId=b, RefType=CHILD_OF}]`, "b"},
		"text, one":                      {`[{TraceId=t, SpanId=c, RefType=CHILD_OF}]`, "c"},
		"none":                           {`[]`, ""},
	} {
		t.Run(name, func(t *testing.T) {
			for range 20 {
				assert.Equal(t, tc.want, sigNozParent(tc.refs))
			}
		})
	}
}
